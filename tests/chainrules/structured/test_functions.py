"""NumPy functions on structured matrices: the structured implementations agree with NumPy on the dense
matrix (values, dtypes, errors), and inverses keep the structure they have."""

from __future__ import annotations

import numpy as np
import pytest

from chainrules.structured import (
    Bidiagonal,
    Diagonal,
    Hermitian,
    LowerTriangular,
    StructuredMatrix,
    Symmetric,
    SymTridiagonal,
    Tridiagonal,
    UpperTriangular,
)
from chainrules.testing.structured import random_structured


@pytest.mark.parametrize("dtype", [np.float64, np.complex128])
def test_reductions_match_dense(make, dtype):
    A = make(dtype)
    dense = np.asarray(A)
    for k in (-2, -1, 0, 1, 2, 5):
        np.testing.assert_allclose(np.trace(A, k), np.trace(dense, k))
        np.testing.assert_array_equal(np.diag(A, k), np.diag(dense, k))
        np.testing.assert_array_equal(np.diagonal(A, k), np.diagonal(dense, k))
        np.testing.assert_array_equal(np.diagonal(A, k, 1, 0), np.diagonal(dense, k, 1, 0))
        np.testing.assert_allclose(np.trace(A, k, 1, 0), np.trace(dense, k, 1, 0))
    for axis in (None, 0, 1, -1, -2, (0, 1), ()):
        for keepdims in (False, True):
            np.testing.assert_allclose(np.sum(A, axis=axis, keepdims=keepdims),
                                       np.sum(dense, axis=axis, keepdims=keepdims))
    np.testing.assert_allclose(A.sum(0), dense.sum(0))
    assert np.sum(A, dtype=np.complex64).dtype == np.complex64
    np.testing.assert_allclose(np.sum(A, where=dense != 0, initial=1.0), np.sum(dense, where=dense != 0, initial=1.0))
    assert np.shape(A) == (3, 3) and np.ndim(A) == 2


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.complex128])
def test_linear_algebra_matches_dense(make, rand, dtype):
    A = make(dtype)
    dense = np.asarray(A)
    tol = 1e-4 if dtype == np.float32 else 1e-10
    np.testing.assert_allclose(np.linalg.det(A), np.linalg.det(dense), rtol=tol)
    sign, logabsdet = np.linalg.slogdet(A)
    expected = np.linalg.slogdet(dense)
    np.testing.assert_allclose(sign, expected.sign, rtol=tol)
    np.testing.assert_allclose(logabsdet, expected.logabsdet, rtol=tol)
    assert type(np.linalg.slogdet(A)) is type(expected)
    np.testing.assert_allclose(np.asarray(np.linalg.inv(A)), np.linalg.inv(dense), rtol=tol, atol=tol)
    for shape in ((3,), (3, 2), (2, 3, 2)):
        b = rand(shape, dtype)
        x = np.linalg.solve(A, b)
        assert x.dtype == dtype and x.shape == b.shape
        np.testing.assert_allclose(x, np.linalg.solve(dense, b), rtol=tol, atol=tol)


_INVERSE_TYPES = [(Diagonal, False, Diagonal), (UpperTriangular, False, UpperTriangular),
                  (LowerTriangular, False, LowerTriangular), (Symmetric, False, Symmetric),
                  (Hermitian, True, Hermitian), (Bidiagonal, False, UpperTriangular),
                  (Bidiagonal, True, LowerTriangular), (Tridiagonal, False, np.ndarray),
                  (SymTridiagonal, False, Symmetric)]


@pytest.mark.parametrize(("cls", "lower", "expected"), _INVERSE_TYPES,
                         ids=[f"{c.__name__}{'-lower' if lo else ''}" for c, lo, _ in _INVERSE_TYPES])
def test_inverse_types(cls, lower, expected):
    assert type(np.linalg.inv(random_structured(cls, 3, rng=0, lower=lower))) is expected


@pytest.mark.parametrize("n", [1, 2, 3, 5])
def test_small_and_large_orders(make, rand, n):
    """Every order works (SciPy's tridiagonal LU wrapper rejects n < 3; the types fall back to dense LU)."""
    A = make(n=n)
    dense = np.asarray(A)
    b = rand(n)
    np.testing.assert_allclose(np.linalg.solve(A, b), np.linalg.solve(dense, b))
    np.testing.assert_allclose(np.linalg.det(A), np.linalg.det(dense))


def test_integer_matrices_give_floating_results():
    D = Diagonal(np.arange(1, 4))
    assert np.linalg.det(D).dtype == np.float64
    assert np.linalg.inv(D).dtype == np.float64
    assert np.linalg.solve(D, np.ones(3, dtype=int)).dtype == np.float64
    T = Tridiagonal(np.ones(2, int), np.full(3, 4), np.ones(2, int))
    np.testing.assert_allclose(np.linalg.det(T), np.linalg.det(np.asarray(T, dtype=float)))


def _singular(cls):
    A = random_structured(cls, 3, rng=0)
    if cls is Diagonal:
        return Diagonal(np.array([1.0, 0.0, 2.0]))
    if cls in (UpperTriangular, LowerTriangular):
        data = A.data.copy()
        data[1, 1] = 0.0
        return cls(data)
    if cls in (Symmetric, Hermitian):
        return cls(np.ones((3, 3)))
    if cls is Bidiagonal:
        return Bidiagonal(np.array([1.0, 0.0, 2.0]), np.ones(2))
    if cls is Tridiagonal:
        return Tridiagonal(np.ones(2), np.ones(3), np.array([1.0, 0.0]))  # two equal rows
    return SymTridiagonal(np.array([1.0, 2.0, 1.0]), np.array([1.0, 1.0]))  # [[1,1,0],[1,2,1],[0,1,1]]


@pytest.mark.parametrize("cls", [Diagonal, UpperTriangular, LowerTriangular, Symmetric, Hermitian, Bidiagonal,
                                 Tridiagonal, SymTridiagonal])
def test_singular_matrices(cls):
    A = _singular(cls)
    dense = np.asarray(A)
    assert abs(np.linalg.det(dense)) < 1e-12
    assert abs(np.linalg.det(A)) < 1e-12
    sign, logabsdet = np.linalg.slogdet(A)
    assert sign == 0 and logabsdet == -np.inf
    with pytest.raises(np.linalg.LinAlgError):
        np.linalg.inv(A)
    with pytest.raises(np.linalg.LinAlgError):
        np.linalg.solve(A, np.ones(3))


def test_dot_and_linalg_matmul(make, rand):
    A = make()
    dense = np.asarray(A)
    v = rand(3)
    np.testing.assert_allclose(np.dot(A, v), dense @ v)
    np.testing.assert_allclose(np.dot(v, A), v @ dense)
    np.testing.assert_allclose(np.linalg.matmul(A, A), dense @ dense)
    np.testing.assert_allclose(np.dot(A, 2.0), 2.0 * dense)


def test_other_functions_receive_the_dense_matrix(make):
    A = make()
    dense = np.asarray(A)
    np.testing.assert_allclose(np.linalg.norm(A), np.linalg.norm(dense))
    np.testing.assert_allclose(np.linalg.eigvals(A), np.linalg.eigvals(dense))
    np.testing.assert_array_equal(np.concatenate([A, dense]), np.concatenate([dense, dense]))
    assert np.allclose(A, dense)
    assert not isinstance(np.copy(A), StructuredMatrix)


def test_solve_shape_mismatch(make, rand):
    with pytest.raises(ValueError, match="order 3"):
        np.linalg.solve(make(), rand(4))
