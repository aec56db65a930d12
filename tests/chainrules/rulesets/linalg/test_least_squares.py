"""Rules of chainrules/rulesets/linalg/least_squares.py, checked against finite differences."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.linalg

import chainrules  # noqa: F401  (registers the rules)
from chainrules import NoTangent, NotImplementedTangent, Tangent, ZeroTangent, rrule, unthunk
from chainrules.testing import PrimalAndTangent, test_frule, test_rrule

FIXED = NoTangent()
SHAPES = [((5, 3), (5,)), ((5, 3), (5, 2)), ((3, 3), (3,)), ((2, 4), (2,)), ((2, 4), (2, 3))]


def low_rank(rand, m, n, singular_values, dtype):
    u, _ = np.linalg.qr(rand((m, len(singular_values)), dtype))
    v, _ = np.linalg.qr(rand((n, len(singular_values)), dtype))
    return np.asarray((u * np.asarray(singular_values)) @ np.conj(v).T, dtype=dtype)


@pytest.mark.parametrize(("shape_a", "shape_b"), SHAPES)
def test_numpy_lstsq(shape_a, shape_b, dtype, rand):
    """All outputs at once: the solution, the residuals (tall, full rank), the singular values."""
    a, b = rand(shape_a, dtype), rand(shape_b, dtype)
    test_rrule(np.linalg.lstsq, a, b)
    test_frule(np.linalg.lstsq, a, b)
    test_rrule(np.linalg.lstsq, a, b, PrimalAndTangent(None, FIXED))


@pytest.mark.parametrize(("shape_a", "shape_b"), SHAPES)
@pytest.mark.parametrize("driver", [None, "gelsd", "gelsy", "gelss"])
def test_scipy_lstsq(shape_a, shape_b, driver, dtype, rand):
    a, b = rand(shape_a, dtype), rand(shape_b, dtype)
    test_rrule(scipy.linalg.lstsq, a, b, fkwargs={"lapack_driver": driver})
    test_frule(scipy.linalg.lstsq, a, b, None, False, False, True, driver)


def test_scipy_lstsq_stacked(rand):
    test_rrule(scipy.linalg.lstsq, rand((2, 5, 3)), rand((2, 5, 2)))
    test_frule(scipy.linalg.lstsq, rand((2, 5, 3)), rand((2, 5, 2)))


@pytest.mark.parametrize("shape", [(5, 3), (3, 5)])
def test_lstsq_rank_deficient(shape, dtype, rand):
    """Golub-Pereyra at constant rank: the solution's derivative is exact (the third singular value is
    at the kink of ``|.|``; it gets the zero subgradient, and no cotangent here)."""
    a, b = low_rank(rand, *shape, [3.0, 2.0], dtype), rand((shape[0], 2), dtype)
    out = np.linalg.lstsq(a, b, 0.1)
    assert out[2] == 2
    dy = Tangent(tuple, rand((shape[1], 2), dtype), ZeroTangent(), NoTangent(), np.array([1.0, -1.0, 0.0]))
    test_rrule(np.linalg.lstsq, a, b, PrimalAndTangent(0.1, FIXED), output_tangent=dy)
    test_rrule(scipy.linalg.lstsq, a, b, PrimalAndTangent(0.1, FIXED), output_tangent=dy)
    # forward: only the solution (the kink makes finite differences of s inaccurate at the 1e-5 level)
    tol = 2e-3 if dtype == np.float32 else 1e-4
    test_frule(scipy.linalg.lstsq, a, b, fkwargs={"cond": 0.1, "lapack_driver": "gelss"}, atol=tol, rtol=tol)


def test_lstsq_consistent_system_and_x_only(rand):
    a = rand((5, 3))
    b = a @ rand((3,))
    test_rrule(np.linalg.lstsq, a, b, output_tangent=Tangent(tuple, rand((3,)), ZeroTangent(), NoTangent(),
                                                             ZeroTangent()))
    _, pullback = rrule(np.linalg.lstsq, a, b)
    assert unthunk(pullback(ZeroTangent())[1]) == ZeroTangent()


def test_gelsy_rank_deficient_derivative_in_a_is_not_implemented(rand):
    """gelsy truncates a pivoted QR, not the SVD: the derivative in ``a`` is marked, never wrong."""
    a, b = low_rank(rand, 5, 3, [3.0, 2.0], np.float64), rand((5,))
    _, pullback = rrule(scipy.linalg.lstsq, a, b, 0.1, lapack_driver="gelsy")
    da = pullback(Tangent(tuple, np.ones(3), ZeroTangent(), NoTangent(), NoTangent()))[1]
    assert isinstance(unthunk(da), NotImplementedTangent)
    test_rrule(scipy.linalg.lstsq, a, b, PrimalAndTangent(0.1, FIXED), fkwargs={"lapack_driver": "gelsy"})


def test_lstsq_float32(rand):
    a, b = rand((5, 3), np.float32), rand((5,), np.float32)
    out, pullback = rrule(np.linalg.lstsq, a, b)
    assert out[0].dtype == np.float32
    _, da, db = pullback(Tangent(tuple, np.ones(3), np.ones(1), NoTangent(), np.ones(3)))
    assert unthunk(da).dtype == np.float32 and unthunk(db).dtype == np.float32


def test_lstsq_errors_pass_through():
    with pytest.raises(np.linalg.LinAlgError, match="must be two-dimensional"):
        rrule(np.linalg.lstsq, np.ones((2, 3, 3)), np.ones((2, 3)))
    with pytest.raises(ValueError, match="must not contain infs or NaNs"):
        rrule(scipy.linalg.lstsq, np.full((3, 2), np.nan), np.ones(3))
