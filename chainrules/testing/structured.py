"""Finite differences and random tangents for structured matrices and ``scipy.sparse`` arrays.

Importing this module (``chainrules.testing`` does) registers every structured type of
:mod:`chainrules.structured` and every SciPy sparse class with
:func:`~chainrules.testing.tree.register_tree_node`, so that the finite differences,
``rand_tangent`` and the testers perturb only the free parameters of the structure: the
diagonal of a ``Diagonal``, one triangle of a triangular or symmetric matrix, the stored
diagonals of a banded one, the stored entries of a sparse array.

The parameters are **orthonormal coordinates** of the structure's tangent space: the
Euclidean inner product of two coordinate vectors is the Frobenius inner product
``Re(sum(conj(A) * B))`` of the matrices. Where a parameter stands for two entries (the
off-diagonal of a ``Symmetric``, ``Hermitian`` or ``SymTridiagonal``) it is scaled by
``sqrt(2)``. This is what makes one flattening serve tangents and cotangents alike: the
finite-difference ``vjp`` in these coordinates, mapped back to a matrix, *is* the
projected cotangent ``ProjectTo(A)(dense gradient)`` a rule must return, and the testers'
inner products ``<dy, J dx>`` are the real ones. (Raw parameters would make the
off-diagonal cotangents of a ``Symmetric`` twice too large.)

A ``Hermitian`` matrix's diagonal is a real parameter, even for complex matrices.

Examples
--------
>>> import numpy as np
>>> from chainrules.structured import Symmetric
>>> from chainrules.testing import tree_flatten
>>> leaves, treedef = tree_flatten(Symmetric(np.array([[1.0, 2.0], [2.0, 3.0]])))
>>> [np.round(leaf, 6) for leaf in leaves]          # the diagonal, sqrt(2) * the off-diagonal
[array([1., 3.]), array([2.828427])]
>>> np.asarray(treedef.unflatten(leaves))
array([[1., 2.],
       [2., 3.]])
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import scipy.sparse as sp

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
from chainrules.structured.sparse import SPARSE_TYPES, SparsePattern
from chainrules.testing.random_tangents import rand_tangent
from chainrules.testing.tree import register_tree_node, tree_flatten
from chainrules_core import AbstractZero, NoTangent, ProjectTo, Tangent

__all__ = ["STRUCTURED_KINDS", "coordinates", "from_coordinates", "kind_name", "random_sparse", "random_structured"]

_SQRT2 = math.sqrt(2.0)


def _dense(dx: Any, n: int) -> np.ndarray:
    if isinstance(dx, StructuredMatrix):
        return dx.to_dense()
    if sp.issparse(dx):
        return np.asarray(dx.toarray())
    arr = np.asarray(dx)
    if arr.shape != (n, n):
        raise ValueError(f"a tangent of an {n} x {n} structured matrix has shape {arr.shape}")
    return arr


def coordinates(cls: type, flags: tuple[Any, ...], G: np.ndarray) -> list[np.ndarray]:
    """The orthonormal coordinates of the projection of the dense matrix ``G`` onto ``cls``'s structure.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.structured import Diagonal
    >>> from chainrules.testing.structured import coordinates
    >>> coordinates(Diagonal, (), np.array([[1.0, 2.0], [3.0, 4.0]]))
    [array([1., 4.])]
    """
    n = G.shape[0]
    if cls is Diagonal:
        return [np.diagonal(G).copy()]
    if cls is UpperTriangular:
        return [G[np.triu_indices(n)]]
    if cls is LowerTriangular:
        return [G[np.tril_indices(n)]]
    if cls is Symmetric:
        iu = np.triu_indices(n, 1)
        return [np.diagonal(G).copy(), (G[iu] + G.T[iu]) / _SQRT2]
    if cls is Hermitian:
        iu = np.triu_indices(n, 1)
        return [np.diagonal(G).real.copy(), (G[iu] + np.conj(G.T[iu])) / _SQRT2]
    if cls is Bidiagonal:
        return [np.diagonal(G).copy(), np.diagonal(G, -1 if flags[0] else 1).copy()]
    if cls is Tridiagonal:
        return [np.diagonal(G, -1).copy(), np.diagonal(G).copy(), np.diagonal(G, 1).copy()]
    if cls is SymTridiagonal:
        return [np.diagonal(G).copy(), (np.diagonal(G, 1) + np.diagonal(G, -1)) / _SQRT2]
    raise TypeError(f"no coordinates for {cls.__name__}")


def from_coordinates(cls: type, flags: tuple[Any, ...], n: int, parts: list[Any]) -> StructuredMatrix:
    """The matrix of ``cls`` with these orthonormal coordinates (inverse of :func:`coordinates`).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.structured import SymTridiagonal
    >>> from chainrules.testing.structured import from_coordinates
    >>> from_coordinates(SymTridiagonal, (), 2, [np.array([1.0, 2.0]), np.array([np.sqrt(2.0)])])
    SymTridiagonal(array([1., 2.]), array([1.]))
    """
    parts = [np.asarray(p) for p in parts]
    if cls is Diagonal:
        return Diagonal(parts[0])
    if cls in (UpperTriangular, LowerTriangular):
        M = np.zeros((n, n), dtype=parts[0].dtype)
        M[np.triu_indices(n) if cls is UpperTriangular else np.tril_indices(n)] = parts[0]
        return cls(M)
    if cls in (Symmetric, Hermitian):
        diag, off = parts
        M = np.zeros((n, n), dtype=np.result_type(diag, off))
        M[np.triu_indices(n, 1)] = off / _SQRT2
        M = M + (M.conj().T if cls is Hermitian else M.T)
        M[np.diag_indices(n)] = diag
        return cls(M, *flags)
    if cls is Bidiagonal:
        return Bidiagonal(parts[0], parts[1], *flags)
    if cls is Tridiagonal:
        return Tridiagonal(*parts)
    if cls is SymTridiagonal:
        return SymTridiagonal(parts[0], parts[1] / _SQRT2)
    raise TypeError(f"no coordinates for {cls.__name__}")


# ---- structured matrices ------------------------------------------------------------------------------
def _flatten_structured(x: StructuredMatrix) -> tuple[list[Any], Any]:
    if x.dtype.kind not in "fc":  # integer matrices are not differentiated: one static part
        return [x.to_dense()], x
    return coordinates(type(x), x._flags(), x.to_dense()), x


def _unflatten_structured(template: StructuredMatrix, children: list[Any]) -> Any:
    if template.dtype.kind not in "fc":
        return template
    return from_coordinates(type(template), template._flags(), template.n, children)


def _flatten_structured_tangent(dx: Any, template: StructuredMatrix) -> list[Any]:
    if isinstance(dx, Tangent):  # derivatives with respect to the stored arrays: their natural form
        dx = ProjectTo(template)(dx)
    return coordinates(type(template), template._flags(), _dense(dx, template.n))


def _unflatten_structured_tangent(template: StructuredMatrix, children: list[Any]) -> Any:
    if template.dtype.kind not in "fc" or any(isinstance(c, AbstractZero) for c in children):
        return NoTangent()
    return from_coordinates(type(template), template._flags(), template.n, children)


for _cls in (Diagonal, UpperTriangular, LowerTriangular, Symmetric, Hermitian, Bidiagonal, Tridiagonal,
             SymTridiagonal):
    register_tree_node(_cls, _flatten_structured, _unflatten_structured,
                       flatten_tangent=_flatten_structured_tangent,
                       unflatten_tangent=_unflatten_structured_tangent)


# ---- scipy.sparse ---------------------------------------------------------------------------------------
def _flatten_sparse(x: Any) -> tuple[list[Any], Any]:
    pattern = SparsePattern(x)
    return [pattern.gather(x)], (x, pattern)


def _unflatten_sparse(aux: Any, children: list[Any]) -> Any:
    template, pattern = aux
    (values,) = children
    if not isinstance(values, np.ndarray):  # an integer array: its values are static
        return template
    return pattern.build(template, values)


def _flatten_sparse_tangent(dx: Any, aux: Any) -> list[Any]:
    _, pattern = aux
    if not sp.issparse(dx):
        dx = np.asarray(dx.to_dense() if isinstance(dx, StructuredMatrix) else dx)
        if dx.shape != pattern.shape:
            raise ValueError(f"a tangent of a sparse array of shape {pattern.shape} has shape {dx.shape}")
    return [pattern.gather(dx)]


def _unflatten_sparse_tangent(aux: Any, children: list[Any]) -> Any:
    template, pattern = aux
    (values,) = children
    if isinstance(values, AbstractZero) or np.dtype(template.dtype).kind not in "fc":
        return NoTangent()
    return pattern.build(template, values)


for _sparse_cls in SPARSE_TYPES:
    register_tree_node(_sparse_cls, _flatten_sparse, _unflatten_sparse, flatten_tangent=_flatten_sparse_tangent,
                       unflatten_tangent=_unflatten_sparse_tangent)


# ---- example primals --------------------------------------------------------------------------------------
STRUCTURED_KINDS: tuple[tuple[type, bool], ...] = (
    (Diagonal, False), (UpperTriangular, False), (LowerTriangular, False), (Symmetric, False), (Symmetric, True),
    (Hermitian, False), (Hermitian, True), (Bidiagonal, False), (Bidiagonal, True), (Tridiagonal, False),
    (SymTridiagonal, False),
)
"""Every structured type with each value of its ``lower`` flag (``False`` where it has none): what a rule
for structured matrices should be tested on, with :func:`random_structured`."""


def kind_name(kind: tuple[type, bool]) -> str:
    """A short label for an entry of :data:`STRUCTURED_KINDS` (``"Symmetric-lower"``), for test ids.

    Examples
    --------
    >>> from chainrules.testing.structured import STRUCTURED_KINDS, kind_name
    >>> [kind_name(k) for k in STRUCTURED_KINDS[3:5]]
    ['Symmetric', 'Symmetric-lower']
    """
    cls, lower = kind
    return f"{cls.__name__}{'-lower' if lower else ''}"


def random_structured(cls: type, n: int = 3, dtype: Any = np.float64, rng: Any = None, *,
                      lower: bool = False, shift: float = 3.0) -> StructuredMatrix:
    """A random, well-conditioned matrix of the structured type ``cls`` (for tests).

    The diagonal is shifted by ``shift`` (away from singular); complex dtypes get random
    imaginary parts everywhere (a ``Hermitian`` ignores them on the diagonal, as it should).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.structured import Bidiagonal
    >>> from chainrules.testing.structured import random_structured
    >>> B = random_structured(Bidiagonal, 4, np.float32, rng=0, lower=True)
    >>> B.shape, B.dtype, B.lower
    ((4, 4), dtype('float32'), True)
    """
    rng = np.random.default_rng(rng)
    dtype = np.dtype(dtype)

    def values(*shape: int) -> np.ndarray:
        v = rng.standard_normal(shape)
        if dtype.kind == "c":
            v = v + 1j * rng.standard_normal(shape)
        return v

    diag = values(n) + shift
    if cls is Diagonal:
        return Diagonal(diag.astype(dtype))
    if cls in (UpperTriangular, LowerTriangular, Symmetric, Hermitian):
        M = values(n, n) + shift * np.eye(n)
        if cls in (Symmetric, Hermitian):
            return cls(M.astype(dtype), lower)
        return cls(M.astype(dtype))
    if cls is Bidiagonal:
        return Bidiagonal(diag.astype(dtype), values(n - 1).astype(dtype), lower)
    if cls is Tridiagonal:
        return Tridiagonal(values(n - 1).astype(dtype), diag.astype(dtype), values(n - 1).astype(dtype))
    if cls is SymTridiagonal:
        return SymTridiagonal(diag.astype(dtype), values(n - 1).astype(dtype))
    raise TypeError(f"random_structured: {cls!r} is not a structured matrix type")


def random_sparse(fmt: str, shape: tuple[int, int] = (4, 4), dtype: Any = np.float64, rng: Any = None, *,
                  density: float = 0.5, matrix: bool = False, shift: float = 0.0) -> Any:
    """A random sparse array (or legacy sparse matrix, ``matrix=True``) of format ``fmt`` (for tests).

    ``shift`` adds that multiple of the identity (a square array then solves well).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.testing.structured import random_sparse
    >>> A = random_sparse("csc", (3, 3), np.complex128, rng=0, shift=3.0)
    >>> A.format, A.dtype, type(A).__name__
    ('csc', dtype('complex128'), 'csc_array')
    """
    rng = np.random.default_rng(rng)
    dtype = np.dtype(dtype)
    A = sp.random_array(shape, density=density, format="coo", rng=rng)
    if dtype.kind == "c":
        A = A + 1j * sp.random_array(shape, density=density, format="coo", rng=rng)
    if shift:
        A = A + shift * sp.eye_array(*shape)
    A = sp.coo_array(A).astype(dtype)
    if matrix:
        A = sp.coo_matrix(A)
    return A.asformat(fmt)


# ---- rand_tangent ----------------------------------------------------------------------------------------
def _rand_by_tree(x: Any, rng: np.random.Generator) -> Any:
    """Random free parameters, rebuilt into a tangent of ``x`` (dok arrays are dicts: register explicitly)."""
    leaves, treedef = tree_flatten(x)
    if not leaves:
        return NoTangent()
    random = []
    for leaf in leaves:
        leaf = np.asarray(leaf)
        value = rng.standard_normal(leaf.shape)
        if leaf.dtype.kind == "c":
            value = value + 1j * rng.standard_normal(leaf.shape)
        random.append(value.astype(leaf.dtype))
    return ProjectTo(x)(treedef.unflatten_tangent(random))


for _random_cls in (StructuredMatrix, *SPARSE_TYPES, sp.dok_array, sp.dok_matrix):
    rand_tangent.register(_random_cls, _rand_by_tree)  # type: ignore[attr-defined]
