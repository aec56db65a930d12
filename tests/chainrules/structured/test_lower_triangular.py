"""``LowerTriangular``: the wrapped array's upper triangle is ignored, solves are triangular solves."""

from __future__ import annotations

import numpy as np
import pytest

from chainrules.structured import LowerTriangular, UpperTriangular


def test_upper_triangle_is_ignored():
    data = np.arange(1.0, 10.0).reshape(3, 3)
    L = LowerTriangular(data)
    np.testing.assert_array_equal(np.asarray(L), np.tril(data))
    assert L.diagonal(2).tolist() == [0.0]


def test_transpose_is_upper_triangular():
    assert type(LowerTriangular(np.eye(2)).T) is UpperTriangular


def test_rejects_non_square():
    with pytest.raises(ValueError, match="LowerTriangular: expected a square matrix"):
        LowerTriangular(np.ones((3, 2)))


def test_solve_reads_one_triangle_even_with_nan_above():
    data = np.array([[2.0, np.nan], [1.0, 4.0]])
    np.testing.assert_allclose(np.linalg.solve(LowerTriangular(data), np.array([2.0, 5.0])), [1.0, 1.0])
    assert type(np.linalg.inv(LowerTriangular(data))) is LowerTriangular
