"""Rules of chainrules/rulesets/linalg/hermitian_matrix_functions.py (Symmetric/Hermitian inputs, Daleckii-Krein).

The finite differences move along the argument's own structure (a ``Hermitian`` is perturbed
by Hermitian tangents), and each cotangent must come back with the argument's type. The
spectra include repeated and nearly repeated eigenvalues, where a difference quotient would
divide zero by zero.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import scipy.linalg as sla

from chainrules import NotImplementedTangent, rrule
from chainrules.structured import Hermitian, Symmetric
from chainrules.testing import PrimalAndTangent, test_frule, test_rrule

pytestmark = [pytest.mark.filterwarnings("ignore:logm result may be inaccurate:RuntimeWarning"),
              pytest.mark.filterwarnings("ignore:The `disp` argument is deprecated:DeprecationWarning")]

WRAPPERS = {"Hermitian": Hermitian, "Symmetric": Symmetric}
# name: (function, extra positional arguments, eigenvalues in the function's domain)
FUNCTIONS: dict[str, tuple[Any, tuple[Any, ...], list[float]]] = {
    "expm": (sla.expm, (), [-1.0, 0.5, 2.0]),
    "logm": (sla.logm, (), [0.5, 1.0, 2.5]),
    "sqrtm": (sla.sqrtm, (), [0.5, 1.0, 2.5]),
    "fractional_matrix_power": (sla.fractional_matrix_power, (0.3,), [0.5, 1.0, 2.5]),
    "cosm": (sla.cosm, (), [-1.0, 0.5, 2.0]),
    "sinm": (sla.sinm, (), [-1.0, 0.5, 2.0]),
    "tanm": (sla.tanm, (), [-1.0, 0.5, 1.2]),
    "coshm": (sla.coshm, (), [-1.0, 0.5, 2.0]),
    "sinhm": (sla.sinhm, (), [-1.0, 0.5, 2.0]),
    "tanhm": (sla.tanhm, (), [-1.0, 0.5, 2.0]),
    "signm": (sla.signm, (), [-1.0, 0.5, 2.0]),
    "funm-exp": (sla.funm, (np.exp,), [-1.0, 0.5, 2.0]),
    "funm-cos": (sla.funm, (np.cos,), [-1.0, 0.5, 2.0]),
}
# repeated and nearly repeated eigenvalues, in each function's domain
SPECTRA = {
    "identity": [1.0, 1.0, 1.0],
    "double": [0.5, 2.0, 2.0],
    "near-double": [0.5, 2.0, 2.0 + 1e-10],
    "near-triple": [1.5 - 1e-10, 1.5, 1.5 + 1e-10],
}


def with_spectrum(eigenvalues: list[float], dtype: Any, seed: int = 3) -> np.ndarray:
    """``Q diag(eigenvalues) Q^H`` for a random unitary (orthogonal for real dtypes) ``Q``."""
    rng = np.random.default_rng(seed)
    z = rng.standard_normal((len(eigenvalues),) * 2)
    if np.dtype(dtype).kind == "c":
        z = z + 1j * rng.standard_normal(z.shape)
    q, _ = np.linalg.qr(z)
    a = (q * np.asarray(eigenvalues)) @ np.conj(q).T
    return ((a + np.conj(a).T) / 2).astype(dtype)


def check(f: Any, a: Any, *extra: Any) -> None:
    test_rrule(f, a, *extra)
    test_frule(f, a, *extra)


# (complex Symmetric matrices are not Hermitian: test_complex_symmetric_takes_the_general_rules)
STRUCTURES = [("Hermitian", np.float64), ("Hermitian", np.float32), ("Hermitian", np.complex128),
              ("Symmetric", np.float64), ("Symmetric", np.float32)]


@pytest.mark.parametrize(("wrapper", "dtype"), STRUCTURES, ids=[f"{w}-{np.dtype(d).name}" for w, d in STRUCTURES])
@pytest.mark.parametrize("name", list(FUNCTIONS))
def test_self_adjoint_matrix_function(name, wrapper, dtype):
    f, extra, eigenvalues = FUNCTIONS[name]
    check(f, WRAPPERS[wrapper](with_spectrum(eigenvalues, dtype)), *extra)


@pytest.mark.parametrize("spectrum", list(SPECTRA))
@pytest.mark.parametrize("name", ["expm", "logm", "sqrtm", "fractional_matrix_power", "sinm", "coshm", "tanhm",
                                  "funm-exp"])
def test_repeated_eigenvalues(name, spectrum):
    f, extra, _ = FUNCTIONS[name]
    a = Hermitian(with_spectrum(SPECTRA[spectrum], np.complex128))
    check(f, a, *extra)


@pytest.mark.parametrize("name", ["logm", "sqrtm", "fractional_matrix_power"])
def test_negative_eigenvalues_give_complex_results(name):
    # real symmetric input: the eigenvalues stay real along symmetric directions, the principal branch is smooth
    f, extra, _ = FUNCTIONS[name]
    a = Symmetric(with_spectrum([-1.5, 0.5, 2.0], np.float64))
    y, pullback = rrule(f, a, *extra)
    assert np.iscomplexobj(y)
    assert isinstance(pullback(np.ones((3, 3)) * (1 + 1j))[1], Symmetric)
    check(f, a, *extra)


@pytest.mark.parametrize("name", ["expm", "logm", "sqrtm", "cosm", "signm", "funm-exp"])
def test_complex_symmetric_takes_the_general_rules(name, rand):
    f, extra, eigenvalues = FUNCTIONS[name]
    z = 0.2 * rand((3, 3), np.complex128)
    a = Symmetric(z + z.T + np.diag(eigenvalues))
    check(f, a, *extra)


@pytest.mark.parametrize("wrapper", list(WRAPPERS))
def test_cotangent_keeps_the_structure(wrapper, rand):
    a = WRAPPERS[wrapper](with_spectrum([0.5, 1.0, 2.0], np.float64))
    for f, extra, _ in FUNCTIONS.values():
        _, pullback = rrule(f, a, *extra)
        assert isinstance(pullback(rand((3, 3)))[1], WRAPPERS[wrapper])


def test_fractional_matrix_power_exponent(dtype):
    a = Hermitian(with_spectrum([0.5, 1.0, 2.5], dtype))
    for t in (0.3, -1.5, 2):
        check(sla.fractional_matrix_power, a, t)
    check(sla.fractional_matrix_power, PrimalAndTangent(a, a * 0), 0.7)


def test_fractional_matrix_power_keyword_exponent():
    a = Symmetric(with_spectrum([0.5, 1.0, 2.5], np.float64))
    test_rrule(sla.fractional_matrix_power, a, fkwargs={"t": 0.4})


def test_disp_false(rand):
    a = Hermitian(with_spectrum([0.5, 1.0, 2.5], np.complex128))
    g = rand((3, 3), np.complex128)
    out, pullback = rrule(sla.logm, a, False)
    assert isinstance(out, tuple)
    np.testing.assert_allclose(np.asarray(pullback((g, 0.0))[1]), np.asarray(rrule(sla.logm, a)[1](g)[1]),
                               rtol=1e-12)


def test_funm_without_an_frule_is_not_implemented():
    a = Hermitian(with_spectrum([0.5, 1.0, 2.5], np.complex128))
    _, pullback = rrule(sla.funm, a, lambda x: x**2)
    assert isinstance(pullback(np.ones((3, 3)))[1], NotImplementedTangent)


def test_agrees_with_the_general_rule(rand):
    # the Daleckii-Krein pullback and the block-triangular one of the dense matrix, both FD-tested above
    h = with_spectrum([0.5, 1.0, 2.5], np.complex128)
    g = rand((3, 3), np.complex128)
    g = (g + np.conj(g).T) / 2
    for f, extra, _ in FUNCTIONS.values():
        structured = np.asarray(rrule(f, Hermitian(h), *extra)[1](g)[1])
        general = rrule(f, h, *extra)[1](g)[1]
        np.testing.assert_allclose(structured, (general + np.conj(general).T) / 2, rtol=1e-8, atol=1e-10)
