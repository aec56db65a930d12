"""``UpperTriangular``: the wrapped array's lower triangle is ignored, solves are triangular solves."""

from __future__ import annotations

import numpy as np
import pytest

from chainrules.structured import LowerTriangular, UpperTriangular


def test_lower_triangle_is_ignored():
    data = np.arange(1.0, 10.0).reshape(3, 3)
    U = UpperTriangular(data)
    np.testing.assert_array_equal(np.asarray(U), np.triu(data))
    assert U == UpperTriangular(np.triu(data))  # noqa: SIM300
    assert U.diagonal(-1).tolist() == [0.0, 0.0]


def test_transpose_is_lower_triangular_and_a_view():
    data = np.arange(9.0).reshape(3, 3)
    L = UpperTriangular(data).T
    assert type(L) is LowerTriangular and np.shares_memory(L.data, data)


@pytest.mark.parametrize("bad", [np.ones((2, 3)), np.ones(3)])
def test_rejects_non_square(bad):
    with pytest.raises(ValueError, match="UpperTriangular: expected a square matrix"):
        UpperTriangular(bad)


def test_solve_reads_one_triangle_even_with_nan_below():
    data = np.array([[2.0, 1.0], [np.nan, 4.0]])
    np.testing.assert_allclose(np.linalg.solve(UpperTriangular(data), np.array([3.0, 4.0])), [1.0, 1.0])
    np.testing.assert_allclose(np.linalg.det(UpperTriangular(data)), 8.0)
