"""Rules of chainrules/rulesets/linalg/determinants.py, checked against finite differences."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.linalg

import chainrules  # noqa: F401  (registers the rules)
from chainrules import NoTangent, ProjectionError, Tangent, ZeroTangent, frule, rrule, unthunk
from chainrules.rulesets.linalg import _utils
from chainrules.rulesets.linalg.determinants import SlogdetResult
from chainrules.testing import PrimalAndTangent, test_frule, test_rrule

DETERMINANTS = [np.linalg.det, np.linalg.slogdet, scipy.linalg.det]
IDS = ["np.linalg.det", "np.linalg.slogdet", "scipy.linalg.det"]


@pytest.mark.parametrize("f", DETERMINANTS, ids=IDS)
@pytest.mark.parametrize("shape", [(3, 3), (1, 1), (2, 3, 3), (2, 1, 2, 2), (2, 17, 17)])
def test_determinants(f, shape, dtype, matrix):
    a = matrix(shape, dtype)
    test_rrule(f, a)
    test_frule(f, a)


@pytest.mark.parametrize("f", DETERMINANTS, ids=IDS)
def test_results_equal_the_libraries(f, matrix, dtype):
    a = matrix((2, 4, 4), dtype)
    y = rrule(f, a)[0]
    expected = f(a)
    for got, want in zip(np.atleast_1d(y) if f is not np.linalg.slogdet else y, expected):
        np.testing.assert_allclose(got, want, rtol=1e-5 if dtype == np.float32 else 1e-12)
    assert np.asarray(y[0] if f is np.linalg.slogdet else y).dtype == np.asarray(
        expected[0] if f is np.linalg.slogdet else expected).dtype


@pytest.mark.parametrize("f", [np.linalg.det, scipy.linalg.det], ids=["np.linalg.det", "scipy.linalg.det"])
@pytest.mark.parametrize("a", [
    np.array([[1.0, 2.0, 0.0], [2.0, 4.0, 0.0], [1.0, 1.0, 1.0]]),        # rank 2: exactly zero pivot
    np.array([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [1.0, 2.0, 3.0]]),        # rank 1: zero adjugate
    np.zeros((3, 3)),
    np.array([[1e-200, 0.0], [0.0, 1e-200]]),                            # det underflows to zero
], ids=["rank2", "rank1", "zeros", "underflow"])
def test_det_is_differentiable_at_singular_matrices(f, a):
    """The adjugate, not 0 * inf: finite and equal to finite differences."""
    test_rrule(f, a)
    test_frule(f, a)
    da = unthunk(rrule(f, a)[1](1.0)[1])
    assert np.all(np.isfinite(da))


@pytest.mark.parametrize("n", [3, 17], ids=["small-stack", "lapack-stack"])
def test_det_of_stack_with_one_singular_matrix(n, matrix):
    singular = np.eye(n)
    singular[:3, :3] = [[1.0, 2.0, 0.0], [2.0, 4.0, 0.0], [1.0, 1.0, 1.0]]
    a = np.stack([matrix((n, n)), singular])
    test_rrule(np.linalg.det, a)
    test_frule(np.linalg.det, a)
    test_rrule(scipy.linalg.det, a)
    _, pullback = rrule(np.linalg.slogdet, a)
    with pytest.raises(np.linalg.LinAlgError, match="singular"):
        pullback(Tangent(SlogdetResult, logabsdet=np.ones(2)))
    # no cotangent on the singular one: the other gets its own (logabsdet = -inf defeats finite differences)
    da = unthunk(pullback(Tangent(SlogdetResult, logabsdet=np.array([1.0, 0.0])))[1])
    alone = unthunk(rrule(np.linalg.slogdet, a[0])[1](Tangent(SlogdetResult, logabsdet=1.0))[1])
    np.testing.assert_allclose(da[0], alone, rtol=1e-12)
    assert np.all(da[1] == 0)


def test_slogdet_of_singular_matrix_raises_in_the_pullback():
    a = np.array([[1.0, 2.0], [2.0, 4.0]])
    y, pullback = rrule(np.linalg.slogdet, a)
    assert y == np.linalg.slogdet(a)
    with pytest.raises(np.linalg.LinAlgError, match="slogdet pullback: the matrix is singular"):
        pullback((0.0, 1.0))
    # a real sign is locally constant: a sign-only cotangent is a zero one
    assert pullback((1.0, 0.0))[1] == ZeroTangent()
    with pytest.raises(np.linalg.LinAlgError, match="slogdet frule"):
        frule((NoTangent(), np.ones((2, 2))), np.linalg.slogdet, a)


def test_slogdet_complex_sign_tangent(rand, matrix):
    """Only the sign's cotangent: its derivative is that of the phase of det."""
    a = matrix((3, 3), np.complex128)
    test_rrule(np.linalg.slogdet, a, output_tangent=Tangent(SlogdetResult, sign=0.3 - 0.7j))
    test_rrule(np.linalg.slogdet, a, output_tangent=Tangent(SlogdetResult, logabsdet=2.0))
    # a plain (d_sign, d_logabsdet) tuple is read like the Tangent
    _, pullback = rrule(np.linalg.slogdet, a)
    as_tuple = unthunk(pullback((0.5 + 0.1j, ZeroTangent()))[1])
    as_tangent = unthunk(pullback(Tangent(SlogdetResult, sign=0.5 + 0.1j))[1])
    np.testing.assert_array_equal(as_tuple, as_tangent)


def test_slogdet_negative_determinant():
    a = np.array([[0.0, 2.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 3.0]])
    assert rrule(np.linalg.slogdet, a)[0].sign == -1
    test_rrule(np.linalg.slogdet, a)
    test_frule(np.linalg.slogdet, a)


@pytest.mark.parametrize("f", DETERMINANTS, ids=IDS)
def test_integer_input_gets_no_tangent(f):
    a = np.array([[2, 1], [1, 3]])
    _, pullback = rrule(f, a)
    assert isinstance(pullback((1.0, 1.0) if f is np.linalg.slogdet else 1.0)[1], NoTangent)
    test_rrule(f, a)


def test_float32_stays_float32(matrix):
    a = matrix((3, 3), np.float32)
    y, pullback = rrule(np.linalg.det, a)
    assert y.dtype == np.float32 and unthunk(pullback(np.float64(1.0))[1]).dtype == np.float32
    y, pullback = rrule(scipy.linalg.det, a)
    assert y.dtype == np.float64 and unthunk(pullback(1.0)[1]).dtype == np.float32   # SciPy returns float64


@pytest.mark.parametrize("f", DETERMINANTS, ids=IDS)
def test_primal_errors_pass_through(f):
    with pytest.raises(Exception) as ours:
        rrule(f, np.ones((2, 3)))
    with pytest.raises(type(ours.value)) as theirs:
        f(np.ones((2, 3)))
    assert str(ours.value) == str(theirs.value)
    with pytest.raises(TypeError, match="unsupported in linalg"):
        rrule(np.linalg.det, np.eye(2, dtype=np.float16))


def test_scipy_det_check_finite_both_spellings(matrix):
    a = matrix((3, 3))
    test_rrule(scipy.linalg.det, a, False, True)
    test_rrule(scipy.linalg.det, a, fkwargs={"check_finite": False})
    bad = a.copy()
    bad[0, 0] = np.nan
    with pytest.raises(ValueError, match="array must not contain infs or NaNs"):
        rrule(scipy.linalg.det, bad)
    assert np.isnan(rrule(scipy.linalg.det, bad, check_finite=False)[0])


def test_wrong_cotangent_shape_is_an_error(matrix):
    _, pullback = rrule(np.linalg.det, matrix((2, 3, 3)))
    message = r"det pullback: output cotangent has shape \(3,\), expected shape \(2,\)"
    with pytest.raises(ProjectionError, match=message):
        pullback(np.ones(3))
    _, pullback = rrule(np.linalg.slogdet, matrix((3, 3)))
    with pytest.raises(ProjectionError, match="slogdet pullback: output cotangent has 3 parts, expected 2"):
        pullback((1.0, 1.0, 1.0))
    with pytest.raises(ProjectionError, match="slogdet pullback: output cotangent is a float"):
        pullback(1.0)


def test_pullbacks_reuse_the_primal_factorization(matrix, monkeypatch):
    """One LU per rule: the pullback solves with the primal's factors (no second factorization).

    (A single float64 matrix of order ``<= SMALL`` takes ``np.linalg.det``'s fast path instead, which
    refactorizes in NumPy: test_fast_paths.py.)
    """
    calls = []
    original = _utils.LU.__init__

    def counting(self, a):
        calls.append(a.shape)
        original(self, a)

    monkeypatch.setattr(_utils.LU, "__init__", counting)
    n = _utils.SMALL + 1
    a = matrix((n, n))
    for f, dy in [(np.linalg.det, 1.0), (np.linalg.slogdet, (0.0, 1.0)), (scipy.linalg.det, 1.0)]:
        calls.clear()
        _, pullback = rrule(f, a)
        unthunk(pullback(dy)[1])
        assert len(calls) == 1, f


def test_frule_with_zero_tangent(matrix):
    a = matrix((3, 3))
    assert frule((NoTangent(), ZeroTangent()), np.linalg.det, a)[1] == ZeroTangent()
    test_frule(np.linalg.slogdet, PrimalAndTangent(a, ZeroTangent()))
