"""Rearranging the stored entries of ``scipy.sparse`` arrays: ``find``, ``expand_dims``, ``swapaxes`` and
``permute_dims``.

The maths
---------
Each moves stored values without changing them (linear); the frule applies the function
to the tangent, the pullback moves the output cotangent back:

* ``I, J, V = find(A)``: ``V`` holds the nonzero values at ``(I, J)`` (duplicates summed,
  explicit zeros dropped). The index outputs ``I``, ``J`` are integers and get no tangent;
  the cotangent of ``A`` puts ``dV`` at ``(I, J)``, on ``A``'s pattern (an array for a dense
  ``A``); the frule gathers ``dA`` at ``(I, J)``.
* ``expand_dims(A, axis)`` inserts an axis of length one: ``dA`` is the output cotangent
  reshaped back.
* ``swapaxes(A, i, j)`` and ``permute_dims(A, axes)``: ``dA`` is the output cotangent with
  the inverse permutation of the axes. (SciPy's ``permute_dims(A, axes, copy=False)``
  permutes a ``coo`` ``A`` in place, changing ``A`` itself; the rules compute the output
  on a copy, so that the input is never mutated: the output has the same values.)

These functions return ``coo`` arrays of any number of dimensions; their cotangents are
``coo`` arrays on the output's stored pattern, and every cotangent of ``A`` is projected
onto ``A``'s pattern (``O(nnz log nnz)``, never dense).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.sparse as sp

from chainrules.rulesets.structured_matrices._samples import banded, sparse
from chainrules.rulesets.structured_matrices._sparse_linear import cotangent_at, linear_frule, tangent_arguments
from chainrules.rulesets.structured_matrices._tangents import NO, read_output, tangent_of
from chainrules.structured.sparse import SPARSE_TYPES, gather, is_sparse
from chainrules_core import (
    NotImplementedTangent,
    ProjectTo,
    Sample,
    Tangent,
    ZeroTangent,
    cotangent_projector,
    frule,
    passes_through,
    read_cotangents,
    rrule,
    sample_inputs,
)

MATRIX = (*SPARSE_TYPES, np.ndarray)


# ---- find --------------------------------------------------------------------------------------------------
@rrule.register(sp.find, MATRIX)
def find_rrule(A: Any) -> Any:
    """Reverse rule of ``scipy.sparse.find(A)``: ``dV`` put back at ``(I, J)`` on ``A``'s pattern.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.sparse as sp
    >>> from chainrules import NoTangent, Tangent, rrule
    >>> A = sp.csr_array(np.array([[0.0, 2.0], [3.0, 0.0]]))
    >>> (I, J, V), pullback = rrule(sp.find, A)
    >>> pullback(Tangent(tuple, NoTangent(), NoTangent(), np.array([10.0, 20.0])))[1].toarray()
    array([[ 0., 10.],
           [20.,  0.]])
    """
    y = sp.find(A)
    I, J, _ = y
    project_A = cotangent_projector(A)

    def find_pullback(dy: Any) -> tuple[Any, Any]:
        parts = read_cotangents(dy, y, "scipy.sparse.find")
        if passes_through(parts):
            return NO, project_A(parts)
        dV = parts[2]
        if dV is None:
            return NO, project_A(ZeroTangent())
        if isinstance(dV, NotImplementedTangent):
            return NO, dV
        return NO, cotangent_at(A, project_A, np.asarray(dV), (I, J))

    return y, find_pullback


@frule.register(sp.find, MATRIX)
def find_frule(tangents: Any, A: Any) -> Any:
    """Forward rule of ``scipy.sparse.find(A)``: ``dA`` gathered at ``(I, J)``; no tangent for ``I``, ``J``.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.sparse as sp
    >>> from chainrules import frule, NoTangent
    >>> A = sp.csr_array(np.array([[0.0, 2.0], [3.0, 0.0]]))
    >>> frule((NoTangent(), A), sp.find, A)[1]
    Tangent(tuple, NoTangent(), NoTangent(), array([2., 3.]))
    """
    y = sp.find(A)
    I, J, _ = y
    dA = tangent_of(tangents[1])
    if dA is None:
        return y, ZeroTangent()
    if isinstance(dA, NotImplementedTangent):
        return y, Tangent(tuple, NO, NO, dA)
    dA = tangent_arguments(dA, A)
    values = gather(dA, I, J) if is_sparse(dA) else np.asarray(dA)[I, J]
    return y, Tangent(tuple, NO, NO, ProjectTo(y[2])(values))


# ---- expand_dims, swapaxes, permute_dims --------------------------------------------------------------------
@rrule.register(sp.expand_dims, SPARSE_TYPES)
def expand_dims_rrule(A: Any, *, axis: Any = 0) -> Any:
    """Reverse rule of ``scipy.sparse.expand_dims(A, axis=axis)``: the cotangent reshaped back.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.sparse as sp
    >>> from chainrules import rrule
    >>> A = sp.csr_array(np.array([[1.0, 0.0], [0.0, 2.0]]))
    >>> y, pullback = rrule(sp.expand_dims, A, axis=1)
    >>> y.shape, pullback(np.ones((2, 1, 2)))[1].toarray()
    ((2, 1, 2), array([[1., 0.],
           [0., 1.]]))
    """
    y = sp.expand_dims(A, axis=axis)
    project_A, project_y = cotangent_projector(A), ProjectTo(y)

    def expand_dims_pullback(dy: Any) -> tuple[Any, Any]:
        dY = read_output(dy, y, "scipy.sparse.expand_dims", project_y)
        return NO, project_A(dY if passes_through(dY) else dY.reshape(A.shape))

    return y, expand_dims_pullback


@frule.register(sp.expand_dims, SPARSE_TYPES)
def expand_dims_frule(tangents: Any, A: Any, *, axis: Any = 0) -> Any:
    """Forward rule of ``scipy.sparse.expand_dims``: the tangent with the same axis inserted.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.sparse as sp
    >>> from chainrules import frule, NoTangent
    >>> A = sp.eye_array(2, format="csr")
    >>> frule((NoTangent(), A), sp.expand_dims, A, axis=0)[1].shape
    (1, 2, 2)
    """
    y = sp.expand_dims(A, axis=axis)
    return linear_frule(sp.expand_dims, y, (A,), tangents, (0,), {"axis": axis})


@rrule.register(sp.swapaxes, SPARSE_TYPES)
def swapaxes_rrule(A: Any, axis1: Any, axis2: Any) -> Any:
    """Reverse rule of ``scipy.sparse.swapaxes(A, axis1, axis2)``: the cotangent with the axes swapped back.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.sparse as sp
    >>> from chainrules import rrule
    >>> A = sp.csr_array(np.array([[1.0, 2.0], [0.0, 3.0]]))
    >>> y, pullback = rrule(sp.swapaxes, A, 0, 1)
    >>> pullback(np.array([[1.0, 2.0], [3.0, 4.0]]))[1].toarray()
    array([[1., 3.],
           [0., 4.]])
    """
    y = sp.swapaxes(A, axis1, axis2)
    project_A, project_y = cotangent_projector(A), ProjectTo(y)

    def swapaxes_pullback(dy: Any) -> tuple[Any, Any, Any, Any]:
        dY = read_output(dy, y, "scipy.sparse.swapaxes", project_y)
        return NO, project_A(dY if passes_through(dY) else sp.swapaxes(dY, axis1, axis2)), NO, NO

    return y, swapaxes_pullback


@frule.register(sp.swapaxes, SPARSE_TYPES)
def swapaxes_frule(tangents: Any, A: Any, axis1: Any, axis2: Any) -> Any:
    """Forward rule of ``scipy.sparse.swapaxes``: the tangent with the same axes swapped.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.sparse as sp
    >>> from chainrules import frule, NoTangent
    >>> A = sp.csr_array(np.array([[1.0, 2.0], [0.0, 3.0]]))
    >>> frule((NoTangent(), A, NoTangent(), NoTangent()), sp.swapaxes, A, 0, 1)[1].toarray()
    array([[1., 0.],
           [2., 3.]])
    """
    y = sp.swapaxes(A, axis1, axis2)
    return linear_frule(sp.swapaxes, y, (A, axis1, axis2), tangents, (0,), {})


def _inverse(axes: Any, ndim: int) -> tuple[int, ...]:
    order = list(range(ndim))[::-1] if axes is None else [int(a) % ndim for a in axes]
    return tuple(int(i) for i in np.argsort(order))


@rrule.register(sp.permute_dims, SPARSE_TYPES)
def permute_dims_rrule(A: Any, axes: Any = None, copy: Any = False) -> Any:
    """Reverse rule of ``scipy.sparse.permute_dims(A, axes)``: the cotangent with the inverse permutation.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.sparse as sp
    >>> from chainrules import rrule
    >>> A = sp.coo_array(np.arange(6.0).reshape(1, 2, 3))
    >>> y, pullback = rrule(sp.permute_dims, A, (2, 0, 1))
    >>> y.shape, pullback(np.ones((3, 1, 2)))[1].shape
    ((3, 1, 2), (1, 2, 3))
    """
    y = sp.permute_dims(A, axes, copy=True)  # copy=False permutes a coo A in place: never mutate an input
    project_A, project_y = cotangent_projector(A), ProjectTo(y)
    inverse = _inverse(axes, A.ndim)

    def permute_dims_pullback(dy: Any) -> tuple[Any, Any, Any, Any]:
        dY = read_output(dy, y, "scipy.sparse.permute_dims", project_y)
        return NO, project_A(dY if passes_through(dY) else sp.permute_dims(dY, inverse, copy=True)), NO, NO

    return y, permute_dims_pullback


@frule.register(sp.permute_dims, SPARSE_TYPES)
def permute_dims_frule(tangents: Any, A: Any, axes: Any = None, copy: Any = False) -> Any:
    """Forward rule of ``scipy.sparse.permute_dims``: the tangent with the same permutation.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.sparse as sp
    >>> from chainrules import frule, NoTangent
    >>> A = sp.coo_array(np.arange(6.0).reshape(1, 2, 3))
    >>> frule((NoTangent(), A), sp.permute_dims, A)[1].shape
    (3, 2, 1)
    """
    y = sp.permute_dims(A, axes, copy=True)
    return linear_frule(sp.permute_dims, y, (A, axes), tangents, (0,), {"copy": True})


# ---- sample inputs ----------------------------------------------------------------------------------------
def _coo3(rng: np.random.Generator, dtype: Any = np.float64) -> Any:
    """A 3-d ``coo`` array with about half its entries stored."""
    values = rng.standard_normal((2, 3, 2))
    if np.dtype(dtype).kind == "c":
        values = values + 1j * rng.standard_normal((2, 3, 2))
    values[rng.random((2, 3, 2)) < 0.5] = 0
    return sp.coo_array(values.astype(dtype))


@sample_inputs(sp.find)
def _find_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample(sparse(rng, "csr", (3, 4)), label="csr"),
        Sample(sparse(rng, "coo", (3, 3), matrix=True), label="coo_matrix"),
        Sample(banded(rng, (3, 3)), label="dia"),
        Sample(sparse(rng, "lil", (3, 3), np.complex128), label="complex lil"),
        Sample(sparse(rng, "csc", (3, 3), np.float32), label="float32 csc"),
        Sample(rng.standard_normal((2, 3)), label="a dense array"),
    ]


@sample_inputs(sp.expand_dims)
def _expand_dims_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample(sparse(rng, "csr", (3, 4)), label="csr, axis 0 (the default)"),
        Sample(sparse(rng, "csc", (3, 3), np.complex128), fkwargs={"axis": 1}, label="complex csc, axis=1"),
        Sample(sparse(rng, "dok", (2, 3), np.float32), fkwargs={"axis": -1}, label="float32 dok, axis=-1"),
        Sample(sp.coo_array(rng.standard_normal(4)), fkwargs={"axis": 1}, label="a 1-d coo array"),
    ]


@sample_inputs(sp.swapaxes)
def _swapaxes_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample(sparse(rng, "csr", (3, 4)), 0, 1, label="csr"),
        Sample(sparse(rng, "bsr", (2, 2), np.complex128), 1, 0, label="complex bsr"),
        Sample(_coo3(rng), 0, 2, label="3-d coo"),
        Sample(_coo3(rng, np.float32), -1, 1, label="float32 3-d coo, a negative axis"),
    ]


@sample_inputs(sp.permute_dims)
def _permute_dims_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample(sparse(rng, "csr", (3, 4)), label="csr, reversed (the default)"),
        Sample(_coo3(rng), (2, 0, 1), label="3-d coo, axes by position"),
        Sample(_coo3(rng, np.complex128), fkwargs={"axes": (1, 2, 0), "copy": True}, label="complex, by keyword"),
        Sample(sparse(rng, "lil", (2, 3), np.float32), (1, 0), label="float32 lil"),
    ]
