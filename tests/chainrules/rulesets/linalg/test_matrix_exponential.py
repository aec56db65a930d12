"""Rules of chainrules/rulesets/linalg/matrix_exponential.py, checked against finite differences.

``expm`` runs its own scaling-and-squaring algorithm for general dense matrices (to keep the
intermediates for the pullback), so the tests cover each branch of it: the low Padé degrees
(small norms), degree 13 without and with squarings, and SciPy's own primal for triangular,
diagonal, scalar and (1, 1) input.
"""

from __future__ import annotations

from fractions import Fraction
from math import factorial

import numpy as np
import pytest
import scipy.linalg as sla

from chainrules import ProjectionError, Tangent, ZeroTangent, rrule
from chainrules.rulesets.linalg._expm_pade import PadeExponential, pade_coefficients
from chainrules.testing import PrimalAndTangent, test_frule, test_rrule

SHAPES = [(3, 3), (2, 3, 3)]
# 1-norms that select the Padé degrees 3, 5 or 7, 9, 13 (no squaring) and 13 with squarings
NORM_SCALES = {"m3": 0.003, "m7": 0.25, "m13": 1.5, "squared": 12.0}


def scaled(a: np.ndarray, norm: float) -> np.ndarray:
    """``a`` scaled to 1-norm ``norm`` (in its dtype)."""
    return (a * (norm / np.max(np.sum(np.abs(a), axis=-2)))).astype(a.dtype)


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("norm", list(NORM_SCALES.values()), ids=list(NORM_SCALES))
def test_expm(shape, norm, dtype, rand):
    a = scaled(rand(shape, dtype), norm)
    test_rrule(sla.expm, a)
    test_frule(sla.expm, a)


@pytest.mark.parametrize("kind", ["upper", "lower", "diagonal"])
def test_expm_triangular_uses_scipy_primal(kind, dtype, rand):
    a = rand((3, 3), dtype) * 2
    a = {"upper": np.triu(a), "lower": np.tril(a), "diagonal": np.diag(np.diag(a))}[kind]
    y, _ = rrule(sla.expm, a)
    np.testing.assert_array_equal(y, sla.expm(a))
    test_rrule(sla.expm, a)
    test_frule(sla.expm, a)


@pytest.mark.parametrize("a", [np.array(0.5), np.array([0.5]), np.array([[0.5]]), np.array(0.5 + 1j)],
                         ids=["0-d", "1-d", "1x1", "complex-0-d"])
def test_expm_scalar_input(a):
    test_rrule(sla.expm, a)
    test_frule(sla.expm, a)


def test_expm_integer_input():
    a = np.array([[1, 2], [-1, 1]])
    y, _ = rrule(sla.expm, a)
    np.testing.assert_allclose(y, sla.expm(a), rtol=1e-13)
    test_rrule(sla.expm, a)


def test_expm_zero_matrix_and_empty():
    test_rrule(sla.expm, np.zeros((3, 3)))
    y, pullback = rrule(sla.expm, np.zeros((0, 0)))
    assert y.shape == (0, 0) and pullback(np.zeros((0, 0)))[1].shape == (0, 0)


def test_expm_matches_scipy_to_rounding(rand):
    for norm in (0.001, 0.5, 3.0, 40.0):
        a = scaled(rand((6, 6)), norm)
        y, _ = rrule(sla.expm, a)
        np.testing.assert_allclose(y, sla.expm(a), rtol=1e-12, atol=1e-14 * np.abs(y).max())


def test_expm_errors_pass_through():
    with pytest.raises(np.linalg.LinAlgError, match="square"):
        rrule(sla.expm, np.ones((2, 3)))


def test_expm_nonfinite_input_gives_nan_derivative():
    a = np.array([[np.nan, 1.0], [0.0, 1.0]])
    _, pullback = rrule(sla.expm, a + np.array([[0.0, 0.0], [1.0, 0.0]]))
    assert np.isnan(pullback(np.ones((2, 2)))[1]).all()


def test_expm_cotangent_shape_is_checked(rand):
    _, pullback = rrule(sla.expm, rand((3, 3)))
    with pytest.raises(ProjectionError, match="expm"):
        pullback(np.ones((3, 4)))


def test_expm_zero_cotangent(rand):
    _, pullback = rrule(sla.expm, rand((3, 3)))
    assert pullback(ZeroTangent())[1] == ZeroTangent()


def test_pade_coefficients_are_the_exponential_pade_approximant():
    # q(x) e^x - p(x) = O(x^(2m+1)) with p(x) = sum b_j x^j, q(x) = p(-x): exact rational Taylor coefficients
    for m in (3, 5, 7, 9, 13):
        b = [Fraction(int(c)) for c in pade_coefficients(m)]
        q = [(-1) ** j * c for j, c in enumerate(b)]
        for k in range(2 * m + 1):
            qe = sum(q[j] / factorial(k - j) for j in range(min(k, m) + 1))
            assert qe == (b[k] if k <= m else 0), (m, k)


def test_frechet_adjoint_is_the_adjoint(rand):
    # <G, L(A, E)> = <L*(A, G), E> in the real inner product, for each branch of the algorithm
    for norm in NORM_SCALES.values():
        a = scaled(rand((4, 4), np.complex128), norm)
        e, g = rand((4, 4), np.complex128), rand((4, 4), np.complex128)
        p = PadeExponential(a)
        lhs = np.vdot(g, p.frechet(e)).real
        rhs = np.vdot(p.frechet_adjoint(g), e).real
        assert abs(lhs - rhs) <= 1e-12 * abs(lhs)


# ---- expm_frechet ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("shape", SHAPES)
def test_expm_frechet(shape, dtype, rand):
    a, e = scaled(rand(shape, dtype), 1.0), rand(shape, dtype)
    test_rrule(sla.expm_frechet, a, e)
    test_frule(sla.expm_frechet, a, e)


@pytest.mark.parametrize(("args", "kwargs"), [((None, False), {}), ((), {"compute_expm": False}),
                                              ((), {"method": "blockEnlarge"})],
                         ids=["positional", "keyword", "blockEnlarge"])
def test_expm_frechet_options(args, kwargs, dtype, rand):
    a, e = scaled(rand((3, 3), dtype), 2.0), rand((3, 3), dtype)
    test_rrule(sla.expm_frechet, a, e, *args, fkwargs=kwargs)
    test_frule(sla.expm_frechet, a, e, *args, fkwargs=kwargs)


def test_expm_frechet_one_argument_held(rand):
    a, e = scaled(rand((3, 3)), 1.0), rand((3, 3))
    test_rrule(sla.expm_frechet, PrimalAndTangent(a, ZeroTangent()), e)
    test_frule(sla.expm_frechet, a, PrimalAndTangent(e, ZeroTangent()))


def test_expm_frechet_partial_cotangent(rand):
    a, e = scaled(rand((3, 3)), 1.0), rand((3, 3))
    _, pullback = rrule(sla.expm_frechet, a, e)
    _, da, de, *_ = pullback(Tangent(tuple, ZeroTangent(), np.ones((3, 3))))
    _, pullback_l = rrule(sla.expm_frechet, a, e, compute_expm=False)
    _, da_l, de_l, *_ = pullback_l(np.ones((3, 3)))
    np.testing.assert_allclose(da, da_l, rtol=1e-12)
    np.testing.assert_allclose(de, de_l, rtol=1e-12)


def test_expm_frechet_errors_pass_through():
    with pytest.raises(ValueError, match="square"):
        rrule(sla.expm_frechet, np.ones((2, 3)), np.ones((2, 3)))
