"""Array functions declared non-differentiable: shapes, indices, orderings, and constant arrays.

Their outputs are integers or booleans (which have no tangent space), or arrays whose
values do not depend on any differentiable argument; their rules return ``NoTangent()``
for every argument (:func:`chainrules_core.non_differentiable`), so an AD system that
meets them stops differentiating there instead of failing to find a rule.

* shapes and memory: ``np.shape``, ``np.size``, ``np.ndim``, ``np.broadcast_shapes``,
  ``np.isscalar``, ``np.isfortran``, ``np.may_share_memory``, ``np.shares_memory``, and the
  dtype queries ``np.result_type``, ``np.min_scalar_type``, ``np.common_type``,
  ``np.can_cast``, ``np.promote_types``, ``np.issubdtype``, ``np.isdtype``,
  ``np.mintypecode``, ``np.iterable``;
* indices and orderings: ``np.argsort``, ``np.argpartition``, ``np.lexsort``,
  ``np.argmax``, ``np.argmin``, ``np.nanargmax``, ``np.nanargmin``, ``np.argwhere``,
  ``np.nonzero``, ``np.flatnonzero``, ``np.searchsorted``, ``np.digitize``, ``np.isin``,
  ``np.unravel_index``, ``np.ravel_multi_index``, ``np.indices``, ``np.diag_indices``,
  ``np.diag_indices_from``, ``np.tril_indices``, ``np.tril_indices_from``,
  ``np.triu_indices``, ``np.triu_indices_from``, ``np.mask_indices``, and the methods
  ``ndarray.argsort``, ``ndarray.argpartition``, ``ndarray.argmax``, ``ndarray.argmin``,
  ``ndarray.nonzero``, ``ndarray.searchsorted``;
* constant arrays: ``np.zeros``, ``np.ones``, ``np.empty``, ``np.eye``, ``np.identity``,
  ``np.tri``, the windows ``np.bartlett``, ``np.blackman``, ``np.hamming``, ``np.hanning``
  (of an integer length), and ``np.zeros_like``, ``np.ones_like``, ``np.empty_like`` (they
  read only the shape and dtype of their argument, never its values); the bit packing of
  integer and boolean arrays, ``np.packbits`` and ``np.unpackbits``.

Not here, because some arguments *are* differentiable: ``np.full``/``np.full_like`` (the
fill value), ``np.arange`` (start, step), ``np.linspace``/``np.logspace``/``np.geomspace``
(:mod:`~chainrules.rulesets.arrays.creation`), ``np.bincount`` (its weights,
:mod:`~chainrules.rulesets.arrays.gathering`), ``np.unique`` (the values,
:mod:`~chainrules.rulesets.arrays.sorting`) and ``ndarray.getfield`` (the identity for the
array's own dtype at offset 0; with ``ndarray.byteswap``, a reinterpretation of the bytes
otherwise: :mod:`~chainrules.rulesets.arrays.conversion`).

Examples
--------
>>> import numpy as np
>>> from chainrules import rrule
>>> y, pullback = rrule(np.argmax, np.array([1.0, 3.0, 2.0]))
>>> int(y), pullback(None)
(1, (NoTangent(), NoTangent()))
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from chainrules_core import Sample, non_differentiable, sample_inputs

SHAPE_AND_DTYPE_QUERIES = (
    np.shape, np.size, np.ndim, np.broadcast_shapes, np.isscalar, np.isfortran, np.may_share_memory,
    np.shares_memory, np.result_type, np.min_scalar_type, np.common_type, np.can_cast, np.promote_types,
    np.issubdtype, np.isdtype, np.mintypecode, np.iterable,
)
"""Functions of shapes, dtypes and memory layout."""

INDEX_FUNCTIONS = (
    np.argsort, np.argpartition, np.lexsort, np.argmax, np.argmin, np.nanargmax, np.nanargmin, np.argwhere,
    np.nonzero, np.flatnonzero, np.searchsorted, np.digitize, np.isin, np.unravel_index, np.ravel_multi_index,
    np.indices, np.diag_indices, np.diag_indices_from, np.tril_indices, np.tril_indices_from, np.triu_indices,
    np.triu_indices_from, np.mask_indices,
    np.ndarray.argsort, np.ndarray.argpartition, np.ndarray.argmax, np.ndarray.argmin, np.ndarray.nonzero,
    np.ndarray.searchsorted,
)
"""Functions returning indices, orderings or memberships (integers and booleans)."""

CONSTANT_ARRAYS = (
    np.zeros, np.ones, np.empty, np.eye, np.identity, np.tri, np.zeros_like, np.ones_like, np.empty_like,
    np.bartlett, np.blackman, np.hamming, np.hanning, np.packbits, np.unpackbits,
)
"""Creation functions whose values depend on no differentiable argument, and bit packing."""

for _f in SHAPE_AND_DTYPE_QUERIES + INDEX_FUNCTIONS + CONSTANT_ARRAYS:
    non_differentiable(_f)


def _non_differentiable_calls(rng: np.random.Generator) -> dict[Any, list[tuple[Any, ...]]]:
    """One or two valid calls of every function declared here (float arguments where they take them)."""
    x = rng.standard_normal((2, 3))
    square = rng.standard_normal((3, 3))
    ordered = np.sort(rng.standard_normal(5))
    bits = np.array([[True, False, True], [False, False, True]])
    return {
        np.shape: [(x,)], np.size: [(x,), (x, 1)], np.ndim: [(x,)], np.broadcast_shapes: [((2, 1), (3,))],
        np.isscalar: [(1.5,), (x,)], np.isfortran: [(x,)], np.may_share_memory: [(x, square)],
        np.shares_memory: [(x, square)], np.result_type: [(x, 1.5)], np.min_scalar_type: [(1.5,)],
        np.common_type: [(x,)], np.can_cast: [(np.float32, np.float64)], np.promote_types: [(np.float32, np.int8)],
        np.issubdtype: [(np.float32, np.floating)], np.isdtype: [(np.float32, "real floating")],
        np.mintypecode: [("fd",)], np.iterable: [(x,)],
        np.argsort: [(x,), (x, 0)], np.argpartition: [(x, 1)], np.lexsort: [((x[0], x[1]),)],
        np.argmax: [(x,), (x, 1)], np.argmin: [(x,)], np.nanargmax: [(x,)], np.nanargmin: [(x,)],
        np.argwhere: [(x > 0,)], np.nonzero: [(x,)], np.flatnonzero: [(x,)], np.searchsorted: [(ordered, x)],
        np.digitize: [(x, ordered)], np.isin: [(x, x[0])], np.unravel_index: [(5, (2, 3))],
        np.ravel_multi_index: [(([0, 1], [1, 2]), (2, 3))], np.indices: [((2, 3),)], np.diag_indices: [(3,)],
        np.diag_indices_from: [(square,)], np.tril_indices: [(3,)], np.tril_indices_from: [(square,)],
        np.triu_indices: [(3, 1)], np.triu_indices_from: [(square,)], np.mask_indices: [(3, np.triu)],
        np.ndarray.argsort: [(x,)], np.ndarray.argpartition: [(x, 1)], np.ndarray.argmax: [(x,)],
        np.ndarray.argmin: [(x, 0)], np.ndarray.nonzero: [(x,)], np.ndarray.searchsorted: [(ordered, 0.5)],
        np.zeros: [((2, 3),)], np.ones: [(3,)], np.empty: [((0, 3),)], np.eye: [(3,), (2, 3, 1)],
        np.identity: [(3,)], np.tri: [(3,)], np.zeros_like: [(x,)], np.ones_like: [(x,)],
        np.empty_like: [(np.zeros((0, 2)),)], np.bartlett: [(5,)], np.blackman: [(5,)], np.hamming: [(5,)],
        np.hanning: [(5,)], np.packbits: [(bits,)], np.unpackbits: [(np.packbits(bits),)],
    }


def _declared_samples(f: Any) -> Callable[[np.random.Generator], Iterator[Sample]]:
    def non_differentiable_samples(rng: np.random.Generator) -> Iterator[Sample]:
        for args in _non_differentiable_calls(rng)[f]:
            yield Sample(*args)

    non_differentiable_samples.__qualname__ = f"non_differentiable_samples[{getattr(f, '__name__', f)}]"
    return non_differentiable_samples


for _f in SHAPE_AND_DTYPE_QUERIES + INDEX_FUNCTIONS + CONSTANT_ARRAYS:
    sample_inputs(_f)(_declared_samples(_f))
