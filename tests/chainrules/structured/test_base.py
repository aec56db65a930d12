"""What every structured matrix shares: array attributes, the dense form, display, equality, indexing,
and NumPy's ufunc protocol (``ndarray @ A`` never builds an object array)."""

from __future__ import annotations

import numpy as np
import pytest

from chainrules.structured import STRUCTURED_TYPES, Diagonal, StructuredMatrix, UpperTriangular


def test_attributes_and_dense_form(make):
    A = make()
    dense = np.asarray(A)
    assert isinstance(A, StructuredMatrix)
    assert A.shape == dense.shape == (3, 3)
    assert A.ndim == 2 and A.size == 9 and len(A) == 3
    assert A.dtype == dense.dtype == np.float64
    np.testing.assert_array_equal(A.to_dense(), dense)
    assert np.asarray(A, dtype=np.float32).dtype == np.float32
    np.testing.assert_array_equal(np.array(A), dense)
    np.testing.assert_array_equal(list(A), list(dense))
    with pytest.raises(ValueError, match="copy"):
        np.asarray(A, copy=False)


def test_to_dense_is_a_new_array(make):
    A = make()
    dense = A.to_dense()
    dense[...] = 0
    assert np.any(A.to_dense() != 0)


def test_transposes(make):
    A = make(np.complex128)
    dense = np.asarray(A)
    for transposed in (A.T, A.mT, A.transpose(), A.transpose(1, 0), A.transpose((1, 0)), np.transpose(A),
                       np.matrix_transpose(A)):
        assert isinstance(transposed, StructuredMatrix)
        np.testing.assert_array_equal(np.asarray(transposed), dense.T)
    assert A.transpose((0, 1)) is A
    np.testing.assert_array_equal(np.asarray(A.conj()), dense.conj())
    np.testing.assert_array_equal(np.asarray(A.adjoint()), dense.conj().T)
    with pytest.raises(ValueError, match="axes"):
        A.transpose(2, 0)


def test_astype_and_copy(make):
    A = make()
    B = A.astype(np.float32)
    assert type(B) is type(A) and B.dtype == np.float32
    C = A.copy()
    assert C == A
    for stored, copied in zip(A._arrays(), C._arrays()):
        assert not np.shares_memory(stored, copied)


def test_equality_compares_whole_matrices(make):
    A = make()
    dense = np.asarray(A)
    assert A == A.copy()  # noqa: SIM300
    assert A == dense and dense == A  # noqa: SIM300  (a bool both ways)
    assert isinstance(dense == A, bool)
    assert (A != dense) is False  # noqa: SIM300
    assert A != 2 * A
    assert A != np.zeros((2, 2))  # noqa: SIM300
    assert (A == "matrix") is False


def test_repr_round_trips(make):
    A = make()
    A = A._replace(*(np.round(a, 2) for a in A._arrays()))  # values the repr shows exactly
    namespace = {"array": np.array, "float64": np.float64, **{t.__name__: t for t in STRUCTURED_TYPES}}
    assert eval(repr(A), namespace) == A  # the repr is the constructor call


def test_indexing(make):
    A = make()
    dense = np.asarray(A)
    for i in range(-3, 3):
        for j in range(-3, 3):
            assert A[i, j] == dense[i, j]
    np.testing.assert_array_equal(A[1], dense[1])
    np.testing.assert_array_equal(A[:, 1:], dense[:, 1:])
    with pytest.raises(IndexError):
        A[3, 0]


def test_ndarray_matmul_structured_is_numeric(make, rand):
    """``ndarray @ A`` goes through ``__array_ufunc__``: a numeric ndarray, never an object array."""
    A = make()
    x = rand((2, 3))
    for result in (x @ A, np.matmul(x, A), A @ x.T, np.dot(x, A)):
        assert isinstance(result, np.ndarray) and result.dtype == np.float64
    np.testing.assert_allclose(x @ A, x @ np.asarray(A))


def test_other_ufuncs_see_the_dense_matrix(make):
    A = make()
    dense = np.asarray(A)
    np.testing.assert_allclose(np.exp(A), np.exp(dense))
    np.testing.assert_allclose(np.add.reduce(A, axis=0), dense.sum(axis=0))
    out = np.empty((3, 3))
    assert np.multiply(A, dense, out=out) is out
    np.testing.assert_allclose(out, dense * dense)
    np.testing.assert_array_equal(np.less(A, 0.5), dense < 0.5)


def test_structure_is_not_a_dense_copy():
    """A Diagonal stores n numbers; its products with vectors never build the n x n matrix."""
    n = 2000
    D = Diagonal(np.ones(n))
    assert sum(a.nbytes for a in D._arrays()) == 8 * n
    np.testing.assert_array_equal(D @ np.arange(n, dtype=float), np.arange(n, dtype=float))


def test_triangular_wrapper_does_not_copy():
    data = np.arange(9.0).reshape(3, 3)
    U = UpperTriangular(data)
    assert U.data is data
