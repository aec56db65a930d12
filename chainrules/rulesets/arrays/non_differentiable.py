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
  ``ndarray.nonzero``, ``ndarray.searchsorted``; and the bit-level reinterpretations
  ``ndarray.byteswap`` and ``ndarray.getfield``;
* constant arrays: ``np.zeros``, ``np.ones``, ``np.empty``, ``np.eye``, ``np.identity``,
  ``np.tri``, the windows ``np.bartlett``, ``np.blackman``, ``np.hamming``, ``np.hanning``
  (of an integer length), and ``np.zeros_like``, ``np.ones_like``, ``np.empty_like`` (they
  read only the shape and dtype of their argument, never its values); the bit packing of
  integer and boolean arrays, ``np.packbits`` and ``np.unpackbits``.

Not here, because some arguments *are* differentiable: ``np.full``/``np.full_like`` (the
fill value), ``np.arange`` (start, step), ``np.linspace``/``np.logspace``/``np.geomspace``
(:mod:`~chainrules.rulesets.arrays.creation`), ``np.bincount`` (its weights,
:mod:`~chainrules.rulesets.arrays.gathering`) and ``np.unique`` (the values,
:mod:`~chainrules.rulesets.arrays.sorting`).

Examples
--------
>>> import numpy as np
>>> from chainrules import rrule
>>> y, pullback = rrule(np.argmax, np.array([1.0, 3.0, 2.0]))
>>> int(y), pullback(None)
(1, (NoTangent(), NoTangent()))
"""

from __future__ import annotations

import numpy as np

from chainrules_core import non_differentiable

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
    # bit-level reinterpretations of an array's bytes
    np.ndarray.byteswap, np.ndarray.getfield,
)
"""Functions returning indices, orderings or memberships (integers and booleans)."""

CONSTANT_ARRAYS = (
    np.zeros, np.ones, np.empty, np.eye, np.identity, np.tri, np.zeros_like, np.ones_like, np.empty_like,
    np.bartlett, np.blackman, np.hamming, np.hanning, np.packbits, np.unpackbits,
)
"""Creation functions whose values depend on no differentiable argument, and bit packing."""

for _f in SHAPE_AND_DTYPE_QUERIES + INDEX_FUNCTIONS + CONSTANT_ARRAYS:
    non_differentiable(_f)
