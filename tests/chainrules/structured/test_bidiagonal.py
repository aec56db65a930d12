"""``Bidiagonal``: two stored diagonals, upper or lower."""

from __future__ import annotations

import numpy as np
import pytest

from chainrules.structured import Bidiagonal, LowerTriangular, UpperTriangular


def test_storage_and_dense_form():
    B = Bidiagonal(np.array([1.0, 2.0, 3.0]), np.array([4.0, 5.0]), lower=True)
    np.testing.assert_array_equal(np.asarray(B), np.diag([1.0, 2.0, 3.0]) + np.diag([4.0, 5.0], -1))
    assert B._bands().keys() == {0, -1}


def test_common_dtype():
    B = Bidiagonal(np.ones(2, np.float32), np.ones(1))
    assert B.dtype == np.float64 and B.dv.dtype == B.ev.dtype


@pytest.mark.parametrize(("dv", "ev"), [(np.ones(3), np.ones(3)), (np.ones((2, 2)), np.ones(1))])
def test_rejects_bad_lengths(dv, ev):
    with pytest.raises(ValueError, match="Bidiagonal"):
        Bidiagonal(dv, ev)


def test_inverse_and_transpose():
    B = Bidiagonal(np.array([1.0, 2.0]), np.array([3.0]))
    assert type(np.linalg.inv(B)) is UpperTriangular
    assert type(np.linalg.inv(B.T)) is LowerTriangular
    assert B.T.lower and not B.lower
