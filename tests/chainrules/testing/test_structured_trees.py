"""Finite differences, ``rand_tangent`` and ``check_approx`` on structured matrices and sparse arrays:
only the free parameters are perturbed, in orthonormal coordinates."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

from chainrules import NoTangent, ProjectTo
from chainrules.structured import Diagonal, Hermitian, Symmetric
from chainrules.structured.sparse import SparsePattern
from chainrules.testing import check_approx, jvp, rand_tangent, tree_flatten, vjp
from chainrules.testing.structured import STRUCTURED_KINDS, kind_name, random_sparse, random_structured
from chainrules.testing.tree import leaves_to_vec

DTYPES = [np.float64, np.float32, np.complex128]
FORMATS = ["csr", "csc", "coo", "bsr", "dia", "lil", "dok"]


def _dimension(cls, n, complex_):
    """Real dimension of the structure's tangent space."""
    count = {"Diagonal": n, "UpperTriangular": n * (n + 1) // 2, "LowerTriangular": n * (n + 1) // 2,
             "Symmetric": n * (n + 1) // 2, "Hermitian": n * n if complex_ else n * (n + 1) // 2,
             "Bidiagonal": 2 * n - 1, "Tridiagonal": 3 * n - 2, "SymTridiagonal": 2 * n - 1}[cls.__name__]
    return count if not complex_ or cls is Hermitian else 2 * count


def _vec(A, tangent):
    _, treedef = tree_flatten(A)
    return leaves_to_vec(treedef.flatten_tangent(tangent), treedef.leaf_specs())


@pytest.fixture(params=STRUCTURED_KINDS, ids=kind_name)
def kind(request):
    return request.param


@pytest.mark.parametrize("dtype", DTYPES)
def test_structured_round_trip_and_dimension(kind, dtype):
    cls, lower = kind
    A = random_structured(cls, 4, dtype, rng=0, lower=lower)
    leaves, treedef = tree_flatten(A)
    rebuilt = treedef.unflatten(leaves)
    assert type(rebuilt) is cls and rebuilt._flags() == A._flags()
    np.testing.assert_allclose(np.asarray(rebuilt), np.asarray(A), rtol=1e-6)
    assert sum(s.size for s in treedef.leaf_specs()) == _dimension(cls, 4, dtype == np.complex128)


@pytest.mark.parametrize("dtype", DTYPES)
def test_coordinates_are_orthonormal(kind, dtype):
    """The Euclidean product of coordinate vectors is the real Frobenius product of the matrices."""
    cls, lower = kind
    A = random_structured(cls, 4, dtype, rng=0, lower=lower)
    T1, T2 = rand_tangent(A, 1), rand_tangent(A, 2)
    frobenius = float(np.real(np.vdot(np.asarray(T1), np.asarray(T2))))
    tol = 1e-4 if dtype == np.float32 else 1e-12
    np.testing.assert_allclose(_vec(A, T1) @ _vec(A, T2), frobenius, rtol=tol, atol=tol)
    # a dense matrix is read as its projection onto the structure
    G = np.random.default_rng(3).standard_normal((4, 4))
    np.testing.assert_allclose(_vec(A, G), _vec(A, ProjectTo(A)(G)), rtol=tol, atol=tol)


def test_rand_tangent_is_in_the_tangent_space(kind):
    cls, lower = kind
    for dtype in DTYPES:
        A = random_structured(cls, 3, dtype, rng=0, lower=lower)
        T = rand_tangent(A, 0)
        assert type(T) is cls and T.dtype == dtype
        assert ProjectTo(A)(T) is T
    assert rand_tangent(Diagonal(np.arange(3)), 0) is NoTangent()


def test_finite_difference_vjp_is_the_projected_gradient(kind):
    """For the linear ``f(A) = sum(W * A)`` the gradient is ``W``; in the structure's coordinates the
    finite differences give exactly its projection (no doubled symmetric off-diagonals)."""
    cls, lower = kind
    A = random_structured(cls, 3, np.complex128 if cls is Hermitian else np.float64, rng=0, lower=lower)
    W = np.random.default_rng(1).standard_normal((3, 3))
    if cls is Hermitian:
        W = W + 1j * np.random.default_rng(2).standard_normal((3, 3))
    (dA,) = vjp(None, lambda M: np.real(np.vdot(W, np.asarray(M))), 1.0, A)
    assert type(dA) is cls
    check_approx(dA, ProjectTo(A)(W), rtol=1e-8, atol=1e-10)


def test_finite_difference_jvp_moves_only_free_parameters(kind):
    cls, lower = kind
    A = random_structured(cls, 3, rng=0, lower=lower)
    T = rand_tangent(A, 5)
    dY = jvp(None, lambda M: np.asarray(M) * 2.0, (A, T))
    np.testing.assert_allclose(dY, 2.0 * np.asarray(T), atol=1e-9)


@pytest.mark.parametrize("matrix", [False, True], ids=["array", "matrix"])
@pytest.mark.parametrize("fmt", FORMATS)
def test_sparse_trees(fmt, matrix):
    A = random_sparse(fmt, (4, 5), rng=0, matrix=matrix)
    leaves, treedef = tree_flatten(A)
    assert len(leaves) == 1 and leaves[0].shape == (int(_stored(A).sum()),)
    rebuilt = treedef.unflatten(leaves)
    assert type(rebuilt) is type(A)
    np.testing.assert_array_equal(rebuilt.toarray(), A.toarray())
    T = rand_tangent(A, 0)
    assert type(T) is type(A)
    assert np.all(T.toarray()[~_stored(A)] == 0)
    W = np.random.default_rng(1).standard_normal((4, 5))
    (dA,) = vjp(None, lambda M: float(np.sum(W * M.toarray())), 1.0, A)
    check_approx(dA, ProjectTo(A)(W), rtol=1e-8, atol=1e-10)


def _stored(A):
    p = SparsePattern(A)
    mask = np.zeros(A.shape, dtype=bool)
    mask[p.rows, p.cols] = True
    return mask


def test_sparse_complex_and_integer():
    A = random_sparse("csr", dtype=np.complex64, rng=0)
    T = rand_tangent(A, 0)
    assert T.dtype == np.complex64 and np.any(T.data.imag != 0)
    assert rand_tangent(sp.csr_array(np.eye(2, dtype=int)), 0) is NoTangent()


def test_check_approx_on_structured_and_sparse():
    S = Symmetric(np.array([[1.0, 2.0], [0.0, 3.0]]))
    check_approx(S, np.array([[1.0, 2.0], [2.0, 3.0]]))
    with pytest.raises(AssertionError, match="differ"):
        check_approx(S, np.eye(2))
    A = sp.csr_array(np.eye(2))
    check_approx(A, sp.coo_array(np.eye(2)))
    check_approx(sp.dok_array(np.eye(2)), sp.dok_array(np.eye(2)))
    with pytest.raises(AssertionError):
        check_approx(A, 2 * sp.csr_array(np.eye(2)))
