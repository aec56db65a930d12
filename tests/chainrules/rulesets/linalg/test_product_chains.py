"""Rules of chainrules/rulesets/linalg/product_chains.py, checked against finite differences."""

from __future__ import annotations

import numpy as np
import pytest

import chainrules  # noqa: F401  (registers the rules)
from chainrules import NoTangent, ProjectionError, Tangent, UnsupportedKeywordError, ZeroTangent, frule, rrule
from chainrules.testing import PrimalAndTangent, test_frule, test_rrule


@pytest.mark.parametrize("n", [0, 1, 2, 3, 4, 5, 7, 12, -1, -2, -5])
def test_matrix_power(n, dtype, rand):
    a = np.asarray(rand((3, 3), dtype) / 3 + np.eye(3), dtype=dtype)
    test_rrule(np.linalg.matrix_power, a, n)
    test_frule(np.linalg.matrix_power, a, n)


def test_matrix_power_stacked_and_keyword(rand):
    a = rand((2, 3, 3)) / 3 + np.eye(3)
    test_rrule(np.linalg.matrix_power, a, 6)
    test_frule(np.linalg.matrix_power, a, -3)
    test_rrule(np.linalg.matrix_power, a, fkwargs={"n": 5})


@pytest.mark.parametrize("n", [0, 1, 3, 6, -4])
def test_matrix_power_equals_numpy_exactly(n, rand):
    a = rand((4, 4)) / 2 + np.eye(4)
    np.testing.assert_array_equal(rrule(np.linalg.matrix_power, a, n)[0], np.linalg.matrix_power(a, n))


def test_matrix_power_integer_matrix_and_errors():
    a = np.array([[1, 1], [0, 1]])
    y, pullback = rrule(np.linalg.matrix_power, a, 3)
    assert y.dtype == a.dtype and isinstance(pullback(np.ones((2, 2)))[1], NoTangent)
    with pytest.raises(np.linalg.LinAlgError):
        rrule(np.linalg.matrix_power, np.ones((2, 3)), 2)
    with pytest.raises(np.linalg.LinAlgError):
        rrule(np.linalg.matrix_power, np.array([[1.0, 2.0], [2.0, 4.0]]), -1)
    assert rrule(np.linalg.matrix_power, np.eye(2), 2.0) is None       # NumPy's TypeError: no rule for a float n


def test_matrix_power_zero_has_zero_derivative(rand):
    a = rand((3, 3))
    _, pullback = rrule(np.linalg.matrix_power, a, 0)
    assert pullback(np.ones((3, 3)))[1] == ZeroTangent()
    assert frule((NoTangent(), np.ones((3, 3)), NoTangent()), np.linalg.matrix_power, a, 0)[1] == ZeroTangent()


MULTI_DOT_SHAPES = [
    [(3, 4), (4, 2)],
    [(3,), (3, 4)],
    [(2, 3), (3, 4), (4,)],
    [(3,), (3, 4), (4,)],
    [(2, 3), (3, 4), (4, 5), (5, 2)],          # the dynamic programme picks the order
    [(5,), (5, 2), (2, 6), (6, 3), (3,)],
    [(6, 2), (2, 6), (6, 2), (2, 3)],
]


@pytest.mark.parametrize("shapes", MULTI_DOT_SHAPES, ids=lambda s: "x".join(str(len(s)) for _ in [0]) + str(s))
def test_multi_dot(shapes, dtype, rand):
    arrays = [rand(s, dtype) for s in shapes]
    test_rrule(np.linalg.multi_dot, arrays)
    test_frule(np.linalg.multi_dot, arrays)
    test_rrule(np.linalg.multi_dot, tuple(arrays))


def test_multi_dot_equals_numpy_exactly(rand):
    arrays = [rand(s) for s in [(10, 2), (2, 10), (10, 3), (3, 8), (8,)]]
    np.testing.assert_array_equal(rrule(np.linalg.multi_dot, arrays)[0], np.linalg.multi_dot(arrays))


def test_multi_dot_mixed_dtypes_and_partial_tangents(rand):
    arrays = [rand((2, 3), np.float32), rand((3, 3), np.complex128), rand((3,))]
    test_rrule(np.linalg.multi_dot, arrays)
    test_frule(np.linalg.multi_dot, PrimalAndTangent(arrays, Tangent(list, ZeroTangent(), rand((3, 3), np.complex128),
                                                                     ZeroTangent())))


def test_multi_dot_rejects_out_and_bad_input(rand):
    arrays = [rand((2, 3)), rand((3, 2)), rand((2, 2))]
    with pytest.raises(UnsupportedKeywordError, match="out="):
        rrule(np.linalg.multi_dot, arrays, out=np.empty((2, 2)))
    with pytest.raises(ValueError, match="at least two arrays"):
        rrule(np.linalg.multi_dot, [rand((2, 2))])
    with pytest.raises(ValueError):
        rrule(np.linalg.multi_dot, [rand((2, 3)), rand((2, 3))])
    _, pullback = rrule(np.linalg.multi_dot, arrays)
    with pytest.raises(ProjectionError, match="multi_dot pullback: output cotangent"):
        pullback(np.ones((3, 3)))
