"""``scipy.linalg.solve_triangular`` on ndarrays and on triangular matrices."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.linalg

from chainrules import rrule, unthunk
from chainrules.structured import LowerTriangular, UpperTriangular
from chainrules.testing import test_frule, test_rrule

f = scipy.linalg.solve_triangular


@pytest.fixture
def a(rand, dtype):
    return rand((3, 3), dtype) + 3 * np.eye(3, dtype=dtype)


@pytest.mark.parametrize("trans", [0, 1, 2])
@pytest.mark.parametrize("lower", [False, True])
@pytest.mark.parametrize("b_shape", [(3,), (3, 2)], ids=["vector", "matrix"])
def test_solve_triangular(a, rand, dtype, trans, lower, b_shape, fdm):
    b = rand(b_shape, dtype)
    test_rrule(f, a, b, trans, lower, fdm=fdm)
    test_frule(f, a, b, trans, lower, fdm=fdm)


@pytest.mark.parametrize("trans", ["N", "T", "C"])
def test_keywords_and_unit_diagonal(a, rand, dtype, trans, fdm):
    b = rand(3, dtype)
    test_rrule(f, a, b, fkwargs={"trans": trans, "lower": True, "unit_diagonal": True}, fdm=fdm)
    test_frule(f, a, b, trans, False, True, fdm=fdm)


def test_unit_diagonal_is_not_read(rand):
    a = rand((3, 3)) + 3 * np.eye(3)
    _, pullback = rrule(f, a, rand(3), unit_diagonal=True)
    da = unthunk(pullback(rand(3))[1])
    assert np.all(np.diagonal(da) == 0) and np.all(np.tril(da, -1) == 0)


def test_stacked(rand, fdm):
    a = rand((2, 3, 3)) + 3 * np.eye(3)
    for b in (rand(3), rand((3, 2)), rand((2, 3, 2))):
        test_rrule(f, a, b, fdm=fdm)
        test_frule(f, a, b, 1, fdm=fdm)
    test_rrule(f, rand((3, 3)) + 3 * np.eye(3), rand((2, 3, 2)), fdm=fdm)


@pytest.mark.parametrize("cls", [UpperTriangular, LowerTriangular])
def test_structured_triangular(cls, rand, dtype, fdm):
    A = cls(rand((3, 3), dtype) + 3 * np.eye(3, dtype=dtype))
    lower = cls is LowerTriangular
    test_rrule(f, A, rand(3, dtype), 0, lower, fdm=fdm)
    test_frule(f, A, rand((3, 2), dtype), 2, lower, fdm=fdm)
    _, pullback = rrule(f, A, rand(3, dtype), lower=lower)
    assert type(unthunk(pullback(rand(3, dtype))[1])) is cls


def test_overwrite_b_never_overwrites(rand):
    a, b = rand((3, 3)) + 3 * np.eye(3), rand(3)
    before = b.copy()
    _x, pullback = rrule(f, a, b, overwrite_b=True)
    pullback(rand(3))
    np.testing.assert_array_equal(b, before)


def test_bad_trans():
    with pytest.raises(ValueError, match="trans"):
        rrule(f, np.eye(2), np.ones(2), 3)
