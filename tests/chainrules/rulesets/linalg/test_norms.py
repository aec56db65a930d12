"""Rules of chainrules/rulesets/linalg/norms.py, checked against finite differences."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.linalg

import chainrules  # noqa: F401  (registers the rules)
from chainrules import NoTangent, NotImplementedTangent, ProjectionError, rrule, unthunk
from chainrules.testing import PrimalAndTangent, test_frule, test_rrule

FIXED = NoTangent()
VECTOR_ORDS = [None, 2, 1, np.inf, -np.inf, 0, 3, 0.5, -1.5]
MATRIX_ORDS = [None, "fro", "nuc", 2, -2, 1, -1, np.inf, -np.inf]


@pytest.fixture
def away(rand):
    """``away(shape, dtype)``: entries of magnitude in [0.5, 2] (finite differences stay off the kink at zero)."""

    def make(shape, dtype=np.float64):
        x = rand(shape, dtype)
        return np.asarray(x / np.abs(x) * np.linspace(0.5, 2.0, x.size).reshape(shape), dtype=dtype)

    return make


@pytest.mark.parametrize("ord", VECTOR_ORDS, ids=str)
def test_vector_norms(ord, dtype, away):
    x = away((4,), dtype)
    test_rrule(np.linalg.norm, x, ord)     # a floating ord by position is differentiated too
    test_frule(np.linalg.norm, x, ord)
    test_frule(np.linalg.norm, x, PrimalAndTangent(ord, FIXED))
    test_rrule(np.linalg.norm, x, fkwargs={"ord": ord})
    test_rrule(scipy.linalg.norm, x, ord)
    test_frule(scipy.linalg.norm, x, fkwargs={"ord": ord})


@pytest.mark.parametrize("ord", VECTOR_ORDS, ids=str)
@pytest.mark.parametrize("keepdims", [False, True])
def test_vector_norms_along_an_axis(ord, keepdims, dtype, away):
    x = away((3, 4), dtype)
    test_rrule(np.linalg.norm, x, ord, PrimalAndTangent(0, FIXED), PrimalAndTangent(keepdims, FIXED))
    test_frule(np.linalg.norm, x, fkwargs={"ord": ord, "axis": -1, "keepdims": keepdims})
    test_rrule(np.linalg.vector_norm, x, fkwargs={"ord": 2 if ord is None else ord, "axis": (0, 1)})
    test_frule(np.linalg.vector_norm, away((2, 3, 2), dtype), fkwargs={"ord": 2 if ord is None else ord,
                                                                     "axis": (0, 2), "keepdims": keepdims})


@pytest.mark.parametrize("ord", MATRIX_ORDS, ids=str)
def test_matrix_norms(ord, dtype, away):
    x = away((3, 4), dtype)
    test_rrule(np.linalg.norm, x, PrimalAndTangent(ord, FIXED))
    test_frule(np.linalg.norm, x, PrimalAndTangent(ord, FIXED))
    test_rrule(scipy.linalg.norm, x, fkwargs={"ord": ord})
    test_frule(scipy.linalg.norm, x, PrimalAndTangent(ord, FIXED))


@pytest.mark.parametrize("ord", MATRIX_ORDS, ids=str)
def test_matrix_norms_of_stacks_and_axes(ord, dtype, away):
    x = away((3, 2, 4), dtype)
    test_rrule(np.linalg.norm, x, fkwargs={"ord": ord, "axis": (2, 0), "keepdims": True})
    test_frule(np.linalg.norm, x, fkwargs={"ord": ord, "axis": (0, 2)})
    x = away((2, 3, 4), dtype)
    test_rrule(np.linalg.matrix_norm, x, fkwargs={"ord": "fro" if ord is None else ord})
    test_frule(np.linalg.matrix_norm, x, fkwargs={"ord": "fro" if ord is None else ord, "keepdims": True})


def test_flattened_two_norm_of_any_ndim(dtype, away):
    test_rrule(np.linalg.norm, away((2, 3, 2), dtype))
    test_frule(np.linalg.norm, away((2, 3, 2), dtype))


def test_ties_share_the_cotangent():
    """At a tie the minimum-norm subgradient: equal shares (the max/min reductions' convention)."""
    x = np.array([3.0, -3.0, 1.0])
    _, pullback = rrule(np.linalg.norm, x, np.inf)
    np.testing.assert_allclose(unthunk(pullback(1.0)[1]), [0.5, -0.5, 0.0])
    _, pullback = rrule(np.linalg.norm, np.eye(2), 2)           # both singular values are 1
    np.testing.assert_allclose(unthunk(pullback(1.0)[1]), np.eye(2) / 2, atol=1e-15)


def test_zero_vector_gets_a_zero_subgradient():
    for ord in (None, 1, 3):
        _, pullback = rrule(np.linalg.norm, np.zeros(3), ord)
        np.testing.assert_array_equal(unthunk(pullback(1.0)[1]), np.zeros(3))


def test_nuclear_norm_of_rank_deficient_matrix(rand):
    """The zero singular value gets the zero subgradient: the derivative along rank-preserving directions."""
    u, _ = np.linalg.qr(rand((3, 2)))
    x = u @ np.diag([2.0, 1.0]) @ u.T
    _, pullback = rrule(np.linalg.norm, x, "nuc")
    np.testing.assert_allclose(unthunk(pullback(1.0)[1]), u @ u.T, atol=1e-12)


@pytest.mark.parametrize("p", [None, 2, -2, 1, -1, np.inf, -np.inf, "fro", "nuc"], ids=str)
def test_cond(p, dtype, matrix):
    x = matrix((3, 3), dtype)
    test_rrule(np.linalg.cond, x, PrimalAndTangent(p, FIXED))
    test_frule(np.linalg.cond, x, PrimalAndTangent(p, FIXED))
    test_rrule(np.linalg.cond, np.stack([x, np.conj(x).T]), fkwargs={"p": p})


@pytest.mark.parametrize("shape", [(3, 5), (5, 3)])
def test_cond_rectangular(shape, rand):
    test_rrule(np.linalg.cond, rand(shape))
    test_frule(np.linalg.cond, rand(shape), PrimalAndTangent(-2, FIXED))


def test_cond_of_singular_matrix_raises_in_the_pullback():
    x = np.diag([1.0, 0.0])
    for p in (None, 1):
        y, pullback = rrule(np.linalg.cond, x, p)
        assert not np.isfinite(y)
        with pytest.raises(np.linalg.LinAlgError, match="cond pullback: the matrix is singular"):
            pullback(1.0)


def test_integer_and_float32_inputs(away):
    assert isinstance(rrule(np.linalg.norm, np.array([3, 4]))[1](1.0)[1], NoTangent)
    x = away((3, 4), np.float32)
    for ord in (None, 2, "nuc", 1):
        y, pullback = rrule(np.linalg.norm, x, ord)
        assert y.dtype == np.float32 and unthunk(pullback(np.float64(1.0))[1]).dtype == np.float32


def test_errors_pass_through(away):
    with pytest.raises(ValueError, match="Invalid norm order"):
        rrule(np.linalg.norm, away((3, 4)), "fro", 0)
    with pytest.raises(ValueError, match="Improper number of dimensions"):
        rrule(np.linalg.norm, away((2, 2, 2)), 2)
    _, pullback = rrule(np.linalg.norm, away((3, 4)), None, 0)
    message = r"norm pullback: output cotangent has shape \(3,\), expected shape \(4,\)"
    with pytest.raises(ProjectionError, match=message):
        pullback(np.ones(3))


def test_order_derivative_of_a_p_norm(away):
    """``d ||x||_p / dp`` against finite differences in ``p``, and ``ord=0.0`` (a count) not implemented."""
    x = away((5,), np.float64)
    for p in (0.7, 1.5, 3.0, -2.0):
        _, pullback = rrule(np.linalg.norm, x, p)
        h = 1e-6
        expected = (np.linalg.norm(x, p + h) - np.linalg.norm(x, p - h)) / (2 * h)
        assert unthunk(pullback(1.0)[2]) == pytest.approx(expected, rel=1e-6)
    _, pullback = rrule(np.linalg.norm, x, 0.0)
    assert isinstance(pullback(1.0)[2], NotImplementedTangent)
    assert isinstance(pullback(1.0)[1], np.ndarray)                 # x's cotangent is unaffected
    assert rrule(np.linalg.norm, x, 2)[1](1.0)[2] == NoTangent()            # an integer ord is an index
