"""Rules of chainrules/rulesets/linalg/matrix_functions.py (general square matrices), against finite differences.

Inputs are well conditioned with their eigenvalues inside each function's domain: near
``shift`` (a positive real for ``logm``/``sqrtm``/powers, away from the branch cut; small for
``tan``/``tanh``, away from their poles), or on both sides of the imaginary axis for ``signm``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import scipy.linalg as sla

from chainrules import NoTangent, NotImplementedTangent, ProjectionError, Tangent, ZeroTangent, frule, rrule
from chainrules.testing import PrimalAndTangent, test_frule, test_rrule

pytestmark = [pytest.mark.filterwarnings("ignore:logm result may be inaccurate:RuntimeWarning"),
              pytest.mark.filterwarnings("ignore:The `disp` argument is deprecated:DeprecationWarning")]

SHAPES = [(3, 3), (2, 3, 3)]
# name: (function, extra positional arguments, eigenvalue shift)
FUNCTIONS: dict[str, tuple[Any, tuple[Any, ...], float]] = {
    "logm": (sla.logm, (), 2.0),
    "sqrtm": (sla.sqrtm, (), 2.0),
    "fractional_matrix_power": (sla.fractional_matrix_power, (0.3,), 2.0),
    "cosm": (sla.cosm, (), 0.5),
    "sinm": (sla.sinm, (), 0.5),
    "tanm": (sla.tanm, (), 0.3),
    "coshm": (sla.coshm, (), 0.5),
    "sinhm": (sla.sinhm, (), 0.5),
    "tanhm": (sla.tanhm, (), 0.3),
    "funm-exp": (sla.funm, (np.exp,), 0.5),
    "funm-sqrt": (sla.funm, (np.sqrt,), 2.0),
}


def near(rand: Any, shape: tuple[int, ...], dtype: Any, shift: float) -> np.ndarray:
    """A random matrix with its eigenvalues within about 0.5 of ``shift``."""
    return (0.3 * rand(shape, dtype) + shift * np.eye(shape[-1])).astype(dtype)


def sign_input(rand: Any, shape: tuple[int, ...], dtype: Any) -> np.ndarray:
    """Eigenvalues near 2, -1.5 and 1: on both sides of the imaginary axis."""
    return (0.2 * rand(shape, dtype) + np.diag([2.0, -1.5, 1.0])).astype(dtype)


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("name", list(FUNCTIONS))
def test_matrix_function(name, shape, dtype, rand):
    f, extra, shift = FUNCTIONS[name]
    a = near(rand, shape, dtype, shift)
    test_rrule(f, a, *extra)
    test_frule(f, a, *extra)


@pytest.mark.parametrize("shape", SHAPES)
def test_signm(shape, dtype, rand):
    a = sign_input(rand, shape, dtype)
    test_rrule(sla.signm, a)
    test_frule(sla.signm, a)


@pytest.mark.parametrize("name", ["logm", "sqrtm", "fractional_matrix_power", "cosm", "tanhm"])
def test_real_matrix_with_complex_eigenvalues(name):
    # a real Schur form with a 2x2 block: eigenvalues 2 +- 0.9i (away from the branch cut)
    f, extra, _ = FUNCTIONS[name]
    a = np.array([[2.0, 0.9, 0.1], [-0.9, 2.0, 0.3], [0.0, 0.2, 1.5]])
    test_rrule(f, a, *extra)
    test_frule(f, a, *extra)


def test_logm_and_sqrtm_of_a_matrix_with_negative_eigenvalues_are_complex():
    # a complex input with eigenvalues off the negative axis: -1 + 0.5i, 2, 3
    a = np.diag([-1.0 + 0.5j, 2.0, 3.0]) + np.triu(np.ones((3, 3)), 1) * 0.3
    for f in (sla.logm, sla.sqrtm):
        test_rrule(f, a)
        test_frule(f, a)


# ---- fractional_matrix_power: the exponent ---------------------------------------------------------------------
@pytest.mark.parametrize("t", [0.3, -0.7, 1.5, np.float64(2.5)])
def test_fractional_matrix_power_exponent(t, dtype, rand):
    a = near(rand, (3, 3), dtype, 2.0)
    test_rrule(sla.fractional_matrix_power, a, t)
    test_frule(sla.fractional_matrix_power, a, t)


def test_fractional_matrix_power_keyword_exponent(rand):
    a = near(rand, (3, 3), np.float64, 2.0)
    test_rrule(sla.fractional_matrix_power, a, fkwargs={"t": 0.4})
    test_frule(sla.fractional_matrix_power, a, fkwargs={"t": 0.4})


def test_fractional_matrix_power_integer_exponent(rand):
    a = near(rand, (3, 3), np.float64, 2.0)
    for t in (2, -1):
        test_rrule(sla.fractional_matrix_power, a, t)  # an integer t gets NoTangent (checked by the tester)
        test_frule(sla.fractional_matrix_power, a, t)
    _, pullback = rrule(sla.fractional_matrix_power, a, 2)
    assert pullback(np.ones((3, 3)))[2] == NoTangent()


def test_fractional_matrix_power_exponent_only(rand):
    a = near(rand, (3, 3), np.float64, 2.0)
    test_rrule(sla.fractional_matrix_power, PrimalAndTangent(a, ZeroTangent()), 0.3)


# ---- disp=False: (F, errest) ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(("f", "args"), [(sla.logm, (False,)), (sla.sqrtm, (False,)), (sla.funm, (np.exp, False))],
                         ids=["logm", "sqrtm", "funm"])
def test_disp_false_outputs_a_tuple(f, args, rand):
    a = near(rand, (3, 3), np.float64, 2.0)
    g = rand((3, 3))
    y, pullback = rrule(f, a, *args)
    assert isinstance(y, tuple)
    # the error estimate is not differentiated: compare with the rule of the plain output
    _, plain_pullback = rrule(f, a, *args[:-1])
    np.testing.assert_allclose(pullback(Tangent(tuple, g, 1.0))[1], plain_pullback(g)[1], rtol=1e-12)
    assert pullback(Tangent(tuple, ZeroTangent(), 1.0))[1] == ZeroTangent()
    test_rrule(f, a, *args, output_tangent=Tangent(tuple, g, ZeroTangent()))
    _, dy = frule((NoTangent(), g, *(NoTangent() for _ in args)), f, a, *args)
    np.testing.assert_allclose(dy[0], frule((NoTangent(), g, *(NoTangent() for _ in args[:-1])), f, a,
                                            *args[:-1])[1], rtol=1e-12)


def test_disp_keyword_spelling(rand):
    a = near(rand, (3, 3), np.float64, 2.0)
    g = rand((3, 3))
    _, pullback = rrule(sla.logm, a, disp=True)
    np.testing.assert_allclose(pullback(g)[1], rrule(sla.logm, a)[1](g)[1], rtol=1e-12)


# ---- funm ----------------------------------------------------------------------------------------------------------
def cube(x):
    return x * x * x


@frule.register(cube, np.ndarray)
def _cube_frule(tangents, x):
    return cube(x), 3 * x * x * tangents[1]


def test_funm_with_a_user_function_that_has_an_frule(dtype, rand):
    a = near(rand, (3, 3), dtype, 1.0)
    test_rrule(sla.funm, a, cube)
    test_frule(sla.funm, a, cube)


def test_funm_without_an_frule_is_not_implemented(rand):
    a = near(rand, (3, 3), np.float64, 1.0)
    _, pullback = rrule(sla.funm, a, lambda x: x * x)
    assert isinstance(pullback(np.ones((3, 3)))[1], NotImplementedTangent)
    _, dy = frule((NoTangent(), np.ones((3, 3)), NoTangent()), sla.funm, a, lambda x: x * x)
    assert isinstance(dy, NotImplementedTangent)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_funm_at_a_defective_matrix_is_not_implemented(capsys):
    a = np.array([[1.0, 1.0], [0.0, 1.0]])  # a Jordan block
    _, pullback = rrule(sla.funm, a, np.exp)
    capsys.readouterr()  # funm prints its own accuracy warning
    assert isinstance(pullback(np.ones((2, 2)))[1], NotImplementedTangent)


@pytest.mark.parametrize("gap", [0.0, 1e-9])
def test_funm_near_repeated_eigenvalues(gap, rand):
    # a normal (not Hermitian) matrix with eigenvalues 1 + i, 1 + i + gap, 2: the general rule's
    # divided differences switch to the midpoint derivative; expm's rule is the reference
    q, _ = np.linalg.qr(rand((3, 3), np.complex128))
    a = (q * np.array([1 + 1j, 1 + 1j + gap, 2.0])) @ np.conj(q).T
    test_rrule(sla.funm, a, np.exp)
    _, pullback = rrule(sla.funm, a, np.exp)
    _, expm_pullback = rrule(sla.expm, a)
    g = rand((3, 3), np.complex128)
    np.testing.assert_allclose(pullback(g)[1], expm_pullback(g)[1], rtol=1e-9)


# ---- signm, sqrtm: where the derivative does not exist ----------------------------------------------------------
def test_sqrtm_of_a_singular_matrix_raises_in_the_pullback():
    a = np.array([[0.0, 1.0], [0.0, 1.0]])
    with pytest.warns(RuntimeWarning):
        _, pullback = rrule(sla.sqrtm, a)
    with pytest.raises(np.linalg.LinAlgError, match="Sylvester"):
        pullback(np.ones((2, 2)))


def test_sqrtm_of_a_scalar_is_not_implemented():
    # SciPy 1.17's sqrtm returns [[exp(a)]] for 0-d input: not differentiated
    _, pullback = rrule(sla.sqrtm, np.array(4.0))
    assert isinstance(pullback(np.ones((1, 1)))[1], NotImplementedTangent)


def test_signm_with_an_imaginary_eigenvalue_raises():
    a = np.array([[0.0, 1.0], [-1.0, 0.0]])  # eigenvalues +-i: sign is not defined
    _, pullback = rrule(sla.signm, a + 0.0)
    with pytest.raises(np.linalg.LinAlgError, match=r"converge|singular"):
        pullback(np.ones((2, 2)))


# ---- errors, cotangents, integers --------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["logm", "cosm", "signm", "fractional_matrix_power", "funm-exp"])
def test_errors_pass_through(name):
    f, extra, _ = FUNCTIONS.get(name, (sla.signm, (), 0.0))
    with pytest.raises(ValueError, match="square"):
        rrule(f, np.ones((2, 3)), *extra)


def test_cotangent_shape_is_checked(rand):
    _, pullback = rrule(sla.logm, near(rand, (3, 3), np.float64, 2.0))
    with pytest.raises(ProjectionError, match="logm"):
        pullback(np.ones((2, 2)))


def test_integer_input_gets_no_tangent():
    a = np.array([[3, 1], [0, 2]])
    _, pullback = rrule(sla.sqrtm, a)
    assert pullback(np.ones((2, 2)))[1] == NoTangent()
    test_rrule(sla.cosm, a)


def test_empty_matrix():
    _, pullback = rrule(sla.cosm, np.zeros((0, 0)))
    assert pullback(np.zeros((0, 0)))[1].shape == (0, 0)
