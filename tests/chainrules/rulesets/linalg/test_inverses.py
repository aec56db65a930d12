"""Rules of chainrules/rulesets/linalg/inverses.py, checked against finite differences."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.linalg

import chainrules  # noqa: F401  (registers the rules)
from chainrules import NoTangent, ProjectionError, Tangent, ZeroTangent, rrule, unthunk
from chainrules.testing import PrimalAndTangent, test_frule, test_rrule

FIXED = NoTangent()


def low_rank(rand, m, n, singular_values, dtype):
    """An ``m x n`` matrix of exactly the given nonzero singular values."""
    u, _ = np.linalg.qr(rand((m, len(singular_values)), dtype))
    v, _ = np.linalg.qr(rand((n, len(singular_values)), dtype))
    return np.asarray((u * np.asarray(singular_values)) @ np.conj(v).T, dtype=dtype)


@pytest.mark.parametrize("f", [np.linalg.inv, scipy.linalg.inv], ids=["np.linalg.inv", "scipy.linalg.inv"])
@pytest.mark.parametrize("shape", [(3, 3), (1, 1), (2, 3, 3)])
def test_inv(f, shape, dtype, matrix):
    a = matrix(shape, dtype)
    test_rrule(f, a)
    test_frule(f, a)


@pytest.mark.parametrize("assume_a", [None, "general", "sym", "her", "pos", "diagonal",
                                      "upper triangular", "lower triangular"])
@pytest.mark.parametrize("lower", [False, True])
def test_scipy_inv_assume_a(assume_a, lower, dtype, matrix, spd):
    """What ``assume_a``/``lower`` read of ``a`` gets the cotangent (``a`` is not symmetric: the rest is ignored)."""
    if assume_a in ("her", "pos"):     # positive definite in the triangle read, anything in the other
        a = spd((3, 3), dtype) + (np.triu(matrix((3, 3), dtype), 1) if lower else np.tril(matrix((3, 3), dtype), -1))
    else:
        a = matrix((3, 3), dtype)
    test_rrule(scipy.linalg.inv, a, fkwargs={"assume_a": assume_a, "lower": lower})
    test_frule(scipy.linalg.inv, a, fkwargs={"assume_a": assume_a, "lower": lower})


def test_scipy_inv_positional_options(matrix):
    a = matrix((3, 3))
    test_rrule(scipy.linalg.inv, a, False, True)
    test_rrule(scipy.linalg.inv, a, fkwargs={"overwrite_a": True, "check_finite": False})
    before = a.copy()
    rrule(scipy.linalg.inv, a, True)[1](np.ones((3, 3)))
    np.testing.assert_array_equal(a, before)          # never overwritten


@pytest.mark.parametrize("f", [np.linalg.inv, scipy.linalg.inv], ids=["np.linalg.inv", "scipy.linalg.inv"])
def test_inv_of_singular_matrix_raises_the_library_error(f):
    with pytest.raises(np.linalg.LinAlgError):
        rrule(f, np.array([[1.0, 2.0], [2.0, 4.0]]))


@pytest.mark.parametrize("shape", [(3, 3), (4, 2), (2, 4), (2, 3, 2)])
def test_pinv_full_rank(shape, dtype, rand):
    a = rand(shape, dtype)
    test_rrule(np.linalg.pinv, a)
    test_frule(np.linalg.pinv, a)
    test_rrule(scipy.linalg.pinv, a)
    test_frule(scipy.linalg.pinv, a)


@pytest.mark.parametrize("shape", [(4, 3), (3, 4)])
def test_pinv_rank_deficient(shape, dtype, rand):
    """A cutoff above the perturbations keeps the rank: Golub-Pereyra is then exact."""
    a = low_rank(rand, *shape, [3.0, 2.0], dtype)
    test_rrule(np.linalg.pinv, a, PrimalAndTangent(0.1, FIXED))
    test_frule(np.linalg.pinv, a, PrimalAndTangent(0.1, FIXED))
    test_rrule(np.linalg.pinv, a, fkwargs={"rtol": 0.1})
    test_rrule(scipy.linalg.pinv, a, fkwargs={"rtol": 0.1})
    test_frule(scipy.linalg.pinv, a, fkwargs={"atol": 0.3})


def test_pinv_hermitian(dtype, rand, spd):
    """``hermitian=True`` reads the lower triangle: the upper one gets no cotangent."""
    a = spd((3, 3), dtype) + np.triu(rand((3, 3), dtype), 1)
    test_rrule(np.linalg.pinv, a, PrimalAndTangent(None, FIXED), True)
    test_frule(np.linalg.pinv, a, PrimalAndTangent(None, FIXED), True)
    test_rrule(np.linalg.pinv, a, fkwargs={"hermitian": True})
    da = unthunk(rrule(np.linalg.pinv, a, hermitian=True)[1](np.ones((3, 3)))[1])
    assert np.all(np.triu(da, 1) == 0)
    low = low_rank(rand, 3, 3, [3.0, 2.0], dtype)
    test_rrule(np.linalg.pinv, low @ np.conj(low).T, PrimalAndTangent(0.1, FIXED), True)


@pytest.mark.parametrize("lower", [True, False])
def test_pinvh(lower, dtype, rand, spd):
    a = spd((3, 3), dtype) + (np.triu if lower else np.tril)(rand((3, 3), dtype), 1)
    test_rrule(scipy.linalg.pinvh, a, None, None, lower)
    test_frule(scipy.linalg.pinvh, a, fkwargs={"lower": lower})
    test_rrule(scipy.linalg.pinvh, np.stack([a, a]), fkwargs={"lower": lower})
    low = low_rank(rand, 3, 3, [3.0, 2.0], dtype)
    test_rrule(scipy.linalg.pinvh, low @ np.conj(low).T, fkwargs={"lower": lower, "rtol": 0.1})


def test_pinv_return_rank(rand):
    a = rand((4, 3))
    (_, rank), pullback = rrule(scipy.linalg.pinv, a, return_rank=True)
    assert rank == 3
    test_rrule(scipy.linalg.pinv, a, fkwargs={"return_rank": True})
    test_frule(scipy.linalg.pinv, a, fkwargs={"return_rank": True})
    test_rrule(scipy.linalg.pinvh, a.T @ a, fkwargs={"return_rank": True})
    test_frule(scipy.linalg.pinvh, a.T @ a, None, None, True, True)
    assert pullback(Tangent(tuple, ZeroTangent(), NoTangent()))[1] == ZeroTangent()


@pytest.mark.parametrize(("shape", "ind"), [((2, 3, 6), 2), ((6, 2, 3), 1), ((2, 2, 2, 2), 2)])
def test_tensorinv(shape, ind, dtype, rand):
    n = int(np.prod(shape[:ind]))
    a = np.asarray((3 * np.eye(n) + rand((n, n), dtype) / 3).reshape(shape), dtype=dtype)
    test_rrule(np.linalg.tensorinv, a, ind)
    test_frule(np.linalg.tensorinv, a, ind)
    test_rrule(np.linalg.tensorinv, a, fkwargs={"ind": ind})


def test_integer_input_gets_no_tangent():
    a = np.array([[2, 1], [1, 3]])
    for f in (np.linalg.inv, np.linalg.pinv, scipy.linalg.inv):
        assert isinstance(rrule(f, a)[1](np.ones((2, 2)))[1], NoTangent)
        test_rrule(f, a)


def test_float32_stays_float32(matrix):
    a = matrix((3, 3), np.float32)
    for f in (np.linalg.inv, np.linalg.pinv, scipy.linalg.inv, scipy.linalg.pinv):
        y, pullback = rrule(f, a)
        assert y.dtype == np.float32 and unthunk(pullback(np.ones((3, 3)))[1]).dtype == np.float32


def test_wrong_cotangent_shape_is_an_error(matrix):
    _, pullback = rrule(np.linalg.inv, matrix((3, 3)))
    with pytest.raises(ProjectionError, match=r"inv pullback: output cotangent has shape \(2, 2\)"):
        pullback(np.ones((2, 2)))
    _, pullback = rrule(np.linalg.pinv, matrix((3, 3)))
    with pytest.raises(ProjectionError, match=r"pinv pullback: output cotangent has shape \(3,\)"):
        pullback(np.ones(3))


def test_primal_errors_pass_through():
    with pytest.raises(np.linalg.LinAlgError, match="Last 2 dimensions of the array must be square"):
        rrule(np.linalg.inv, np.ones((2, 3)))
    with pytest.raises(ValueError, match="Expected square matrix"):
        rrule(scipy.linalg.inv, np.ones((2, 3)))
    with pytest.raises(ValueError, match="is not a recognized"):
        rrule(scipy.linalg.solve, np.eye(2), np.ones(2), assume_a="triangular")
