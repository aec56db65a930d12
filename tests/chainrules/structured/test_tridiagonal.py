"""``Tridiagonal``: three stored diagonals; LAPACK tridiagonal LU for solves and determinants."""

from __future__ import annotations

import numpy as np
import pytest

from chainrules.structured import Tridiagonal


def test_dense_form_and_transpose():
    T = Tridiagonal(np.array([1.0, 2.0]), np.array([3.0, 4.0, 5.0]), np.array([6.0, 7.0]))
    dense = np.diag([3.0, 4.0, 5.0]) + np.diag([1.0, 2.0], -1) + np.diag([6.0, 7.0], 1)
    np.testing.assert_array_equal(np.asarray(T), dense)
    np.testing.assert_array_equal(np.asarray(T.T), dense.T)


def test_rejects_bad_lengths():
    with pytest.raises(ValueError, match="Tridiagonal: du must have length 2"):
        Tridiagonal(np.ones(2), np.ones(3), np.ones(3))


def test_pivoting_solves_and_determinants():
    """A zero on the diagonal needs row exchanges; the determinant's sign follows them."""
    T = Tridiagonal(np.array([1.0, 1.0, 1.0]), np.array([0.0, 0.0, 0.0, 0.0]), np.array([1.0, 1.0, 1.0]))
    dense = np.asarray(T)
    np.testing.assert_allclose(np.linalg.det(T), np.linalg.det(dense))
    np.testing.assert_allclose(np.linalg.slogdet(T), np.linalg.slogdet(dense))
    np.testing.assert_allclose(np.linalg.solve(T, np.arange(4.0)), np.linalg.solve(dense, np.arange(4.0)))


def test_large_solve_is_banded():
    n = 5000
    T = Tridiagonal(np.full(n - 1, -1.0), np.full(n, 4.0), np.full(n - 1, -1.0))
    x = np.linalg.solve(T, np.ones(n))
    np.testing.assert_allclose(T @ x, np.ones(n))
