"""``ProjectTo`` of every structured type: the orthogonal projection onto the type's matrices.

Checked by its defining properties, not by a formula repeated from the code: the result is
of the primal's type and tangent dtype, projecting twice changes nothing, a tangent that is
already structured passes through (the same object), and the residual ``G - P(G)`` is
orthogonal, in the real Frobenius inner product, to every matrix of the structure.
"""

from __future__ import annotations

import numpy as np
import pytest

from chainrules import NoTangent, ProjectionError, ProjectTo, Tangent, Thunk, ZeroTangent, unthunk
from chainrules.structured import (
    Bidiagonal,
    Diagonal,
    Hermitian,
    StructuredMatrix,
    Symmetric,
    SymTridiagonal,
    Tridiagonal,
    UpperTriangular,
)
from chainrules.testing import rand_tangent


def _inner(a, b):
    return float(np.real(np.vdot(np.asarray(a), np.asarray(b))))


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.complex128])
def test_projection_is_orthogonal_and_idempotent(make, rand, dtype):
    A = make(dtype)
    project = ProjectTo(A)
    G = rand((3, 3), np.complex128 if dtype == np.complex128 else np.float64)
    P = project(G)
    assert type(P) is type(A) and P.dtype == dtype and P._flags() == A._flags()
    assert project(P) is P
    assert project(P.copy()) == P
    tolerance = 1e-5 if dtype == np.float32 else 1e-12
    for seed in range(3):
        T = rand_tangent(A, seed)
        assert abs(_inner(G - np.asarray(P), T)) < tolerance * 10
    np.testing.assert_allclose(np.asarray(project(np.asarray(P))), np.asarray(P), atol=tolerance)


def test_real_primal_keeps_the_real_part(make, rand):
    A = make()
    G = rand((3, 3), np.complex128)
    np.testing.assert_array_equal(np.asarray(ProjectTo(A)(G)), np.asarray(ProjectTo(A)(G.real)))
    assert ProjectTo(A)(G).dtype == np.float64


def test_complex_primal_widens_a_real_cotangent(make, rand):
    A = make(np.complex128)
    assert ProjectTo(A)(rand((3, 3))).dtype == np.complex128


def test_other_structured_and_sparse_cotangents(make, rand):
    A = make()
    project = ProjectTo(A)
    other = Tridiagonal(rand(2), rand(3), rand(2))
    assert project(other) == project(np.asarray(other))
    import scipy.sparse as sp
    G = rand((3, 3))
    assert project(sp.csr_array(G)) == project(G)


def test_zeros_thunks_and_not_implemented_pass(make, rand):
    project = ProjectTo(make())
    assert project(ZeroTangent()) is ZeroTangent()
    assert project(NoTangent()) is NoTangent()
    G = rand((3, 3))
    lazy = project(Thunk(lambda: G))
    assert isinstance(lazy, Thunk) and unthunk(lazy) == project(G)


def test_wrong_shape_and_kind_are_errors(make, rand):
    project = ProjectTo(make())
    with pytest.raises(ProjectionError, match=r"\(2, 2\).*\(3, 3\)"):
        project(rand((2, 2)))
    with pytest.raises(ProjectionError):
        project(1.0)
    with pytest.raises(ProjectionError):
        project({"a": 1})
    with pytest.raises(ProjectionError, match="Tangent"):
        project(Tangent(tuple, 1.0))


def test_integer_primal_gets_float64_and_bool_none():
    project = ProjectTo(Diagonal(np.arange(3)))
    assert project(np.eye(3)).dtype == np.float64
    assert ProjectTo(Diagonal(np.ones(3, dtype=bool)))(np.eye(3)) is NoTangent()


def test_structural_tangents_are_derivatives_of_the_stored_arrays(make):
    """A ``Tangent(T, field=...)`` holds derivatives with respect to the stored arrays: the natural
    cotangent it stands for has the same inner product with every tangent direction."""
    A = make()
    project = ProjectTo(A)
    rng = np.random.default_rng(3)
    fields = {name: rng.standard_normal(np.shape(arr)) for name, arr in zip(type(A)._fields, A._arrays())}
    natural = project(Tangent(type(A), **fields))
    assert type(natural) is type(A)
    # a direction of the stored entries the matrix reads (a triangular or symmetric matrix ignores
    # one triangle of its array), and the matrix direction it produces
    direction = {name: rng.standard_normal(np.shape(arr)) * _read_entries(A, name) for name, arr in fields.items()}
    moved = A._replace(*(arr + direction[name] for name, arr in zip(type(A)._fields, A._arrays())))
    matrix_direction = np.asarray(moved) - np.asarray(A)
    structural = sum(float(np.sum(fields[name] * direction[name])) for name in fields)
    np.testing.assert_allclose(_inner(natural, matrix_direction), structural, rtol=1e-10)


def _read_entries(A, name):
    """1 where changing the stored array ``name`` changes the matrix, 0 where the entry is ignored."""
    arrays = dict(zip(type(A)._fields, A._arrays()))
    mask = np.zeros(np.shape(arrays[name]))
    for index in np.ndindex(mask.shape):
        changed = {k: v.copy() for k, v in arrays.items()}
        changed[name][index] += 1.0
        moved = A._replace(*(changed[k] for k in type(A)._fields))
        mask[index] = float(np.any(np.asarray(moved) != np.asarray(A)))
    return mask


def test_partial_structural_tangent():
    project = ProjectTo(Bidiagonal(np.ones(3), np.ones(2)))
    natural = project(Tangent(Bidiagonal, ev=np.array([1.0, 2.0])))
    assert natural == Bidiagonal(np.zeros(3), np.array([1.0, 2.0]))
    assert project(Tangent(Bidiagonal, dv=ZeroTangent())) == Bidiagonal(np.zeros(3), np.zeros(2))


@pytest.mark.parametrize("cls", [Symmetric, Hermitian, SymTridiagonal])
def test_self_adjoint_projections_average(cls, rand):
    A = cls(*( (np.eye(3),) if cls is not SymTridiagonal else (np.ones(3), np.ones(2)) ))
    G = rand((3, 3), np.complex128 if cls is Hermitian else np.float64)
    P = np.asarray(ProjectTo(A.astype(G.dtype))(G))
    mirrored = P.conj().T if cls is Hermitian else P.T
    np.testing.assert_allclose(P, mirrored)


def test_products_and_diagonals_equal_projecting_the_dense_matrix(make, rand):
    A = make(np.complex128)
    project = ProjectTo(A)
    L, R = rand((3, 4), np.complex128), rand((4, 3), np.complex128)
    np.testing.assert_allclose(np.asarray(project.product(L, R)), np.asarray(project(L @ R)), atol=1e-12)
    bands = {0: rand(3), 1: rand(2), -2: rand(1)}
    dense = sum(np.diag(v, k) for k, v in bands.items())
    np.testing.assert_allclose(np.asarray(project.diagonals(bands)), np.asarray(project(dense)), atol=1e-12)


def test_projector_of_a_triangle_describes_itself():
    project = ProjectTo(UpperTriangular(np.eye(2, dtype=np.float32)))
    assert "UpperTriangular of order 2, float32" in project.describe()
    assert isinstance(project(np.ones((2, 2))), StructuredMatrix)
