"""Rules of the functions that insert or remove entries: ``np.insert``, ``np.delete``, ``np.trim_zeros``.

The maths
---------
Each output entry is a copy of one input entry (``np.insert`` may copy an entry of
``values`` several times, broadcasting it), so the functions are linear: the frule
applies the same function to the tangents, and the pullback adds the output cotangent
back into the entries copied. The pullbacks find where each output entry came from by
applying the function to the entries' positions (``np.insert(positions of arr, obj,
positions of values)``) and scatter with ``np.bincount`` (repeats summed).

``np.trim_zeros`` keeps the box between the first and the last non-zero entries: the
cotangent is the output cotangent in that box, zero outside. (The trimmed entries are
zeros; moving one of them away from zero would change the output's length: no
derivative there, and the rule gives them zero.)
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
from numpy.lib.array_utils import normalize_axis_tuple

from chainrules.rulesets.arrays._gather_scatter import index_grid, scatter_add, scatter_cotangent
from chainrules.rulesets.arrays._linear_maps import (
    NO,
    ZERO,
    any_not_implemented,
    cast_like,
    output_tangent,
    tangent_array,
    unary_pushforward,
    zero_result,
)
from chainrules.rulesets.arrays._sample_arrays import normal, with_dtypes
from chainrules.rulesets.arrays._signatures import ARRAY_LIKE, REQUIRED, require
from chainrules_core import (
    Sample,
    Thunk,
    cotangent_projector,
    differentiable,
    frule,
    passes_through,
    read_cotangent,
    rrule,
    sample_inputs,
)

Pullback = Callable[[Any], tuple[Any, ...]]


# ---- np.delete -------------------------------------------------------------------------------------------
@rrule.register(np.delete, ARRAY_LIKE)
def delete_rrule(arr: Any, obj: Any = REQUIRED, axis: Any = None) -> tuple[Any, Pullback]:
    """Reverse rule of ``np.delete``: the cotangent put back into the entries kept.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule, unthunk
    >>> y, pb = rrule(np.delete, np.zeros(4), [0, 2])
    >>> unthunk(pb(np.array([1.0, 2.0]))[1])
    array([0., 1., 0., 2.])
    """
    require("delete", obj=obj)
    y = np.delete(arr, obj, axis)
    shape = np.shape(arr)

    def delete_pullback(dy: Any) -> tuple[Any, ...]:
        dy = read_cotangent(dy, y, "np.delete")
        if not differentiable(arr):
            return NO, NO, NO, NO
        if passes_through(dy):
            return NO, zero_result(dy), NO, NO
        kept = np.unravel_index(np.delete(index_grid(shape), obj, axis).ravel(), shape)
        flat = cast_like(dy, arr).ravel()

        def add_kept(acc: np.ndarray, values: Any) -> None:
            acc[kept] += values

        return NO, scatter_cotangent(arr, flat, add_kept), NO, NO

    return y, delete_pullback


@frule.register(np.delete, ARRAY_LIKE)
def delete_frule(tangents: tuple[Any, ...], arr: Any, obj: Any = REQUIRED, axis: Any = None) -> tuple[Any, Any]:
    """Forward rule of ``np.delete``: the same entries deleted from the tangent.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> frule((NoTangent(), np.arange(3.0), NoTangent()), np.delete, np.zeros(3), 1)[1]
    array([0., 2.])
    """
    require("delete", obj=obj)
    y = np.delete(arr, obj, axis)
    return y, unary_pushforward(tangents[1], arr, y, lambda d: np.delete(d, obj, axis))


@sample_inputs(np.delete)
def _delete_samples(rng: np.random.Generator) -> Iterator[Sample]:
    x = normal(rng, 3, 4)
    yield from with_dtypes(Sample(x, [0, 5], label="flattened, indices"))
    yield Sample(x, slice(0, 4, 2), 1, label="a slice along axis 1")
    yield Sample(x, fkwargs={"obj": np.array([True, False, True]), "axis": 0}, label="a mask by keyword")


# ---- np.insert -------------------------------------------------------------------------------------------
@rrule.register(np.insert, ARRAY_LIKE, object, ARRAY_LIKE)
def insert_rrule(arr: Any, obj: Any, values: Any, axis: Any = None) -> tuple[Any, Pullback]:
    """Reverse rule of ``np.insert``: each input entry gets the cotangents of its copies.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule, unthunk
    >>> y, pb = rrule(np.insert, np.zeros(2), [0, 2], 5.0)
    >>> y, [unthunk(c) for c in pb(np.array([1.0, 2.0, 3.0, 4.0]))[1:4:2]]
    (array([5., 0., 0., 5.]), [array([2., 3.]), 5.0])
    """
    y = np.insert(arr, obj, values, axis)
    project_arr, project_values = cotangent_projector(arr), cotangent_projector(values)
    n_arr = int(np.size(arr))
    n_values = int(np.size(values))

    def insert_pullback(dy: Any) -> tuple[Any, ...]:
        dy = read_cotangent(dy, y, "np.insert")
        if not differentiable(y):
            return NO, ZERO if differentiable(arr) else NO, NO, ZERO if differentiable(values) else NO, NO
        if passes_through(dy):
            zero = zero_result(dy)
            return NO, project_arr(zero), NO, project_values(zero), NO
        dy = np.asarray(dy)
        positions = np.insert(index_grid(np.shape(arr)), obj, index_grid(np.shape(values), n_arr), axis)
        flat = scatter_add(positions, dy, n_arr + n_values, dy.dtype)

        def arr_cotangent() -> Any:
            return project_arr(cast_like(flat[:n_arr], arr).reshape(np.shape(arr)))

        def values_cotangent() -> Any:
            return project_values(cast_like(flat[n_arr:], values).reshape(np.shape(values)))

        return (NO, Thunk(arr_cotangent) if differentiable(arr) else NO, NO,
                Thunk(values_cotangent) if differentiable(values) else NO, NO)

    return y, insert_pullback


@frule.register(np.insert, ARRAY_LIKE, object, ARRAY_LIKE)
def insert_frule(tangents: tuple[Any, ...], arr: Any, obj: Any, values: Any, axis: Any = None) -> tuple[Any, Any]:
    """Forward rule of ``np.insert``: the values' tangent inserted into the array's tangent.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> frule((NoTangent(), np.ones(2), NoTangent(), 3.0), np.insert, np.zeros(2), 1, 0.0)[1]
    array([1., 3., 1.])
    """
    y = np.insert(arr, obj, values, axis)
    if not differentiable(y):
        return y, NO
    d_arr = tangent_array(tangents[1], arr) if differentiable(arr) else None
    d_values = tangent_array(tangents[3], values) if differentiable(values) else None
    missing = any_not_implemented(d_arr, d_values)
    if missing is not None or (d_arr is None and d_values is None):
        return y, output_tangent(missing, y)
    dtype = np.result_type(y.dtype, *(np.asarray(d).dtype for d in (d_arr, d_values) if d is not None))
    d_arr = np.zeros(np.shape(arr), dtype) if d_arr is None else np.asarray(d_arr, dtype=dtype)
    d_values = np.zeros(np.shape(values), dtype) if d_values is None else d_values
    return y, output_tangent(np.insert(d_arr, obj, d_values, axis), y)


@sample_inputs(np.insert)
def _insert_samples(rng: np.random.Generator) -> Iterator[Sample]:
    x = normal(rng, 2, 3)
    yield from with_dtypes(Sample(x, [0, 2, 2], normal(rng, 3), label="flattened, repeated position"))
    yield Sample(x, 1, 2.5, 1, label="a number broadcast along axis 1")
    yield Sample(x, [1], normal(rng, 1, 3), fkwargs={"axis": 0}, label="a row, axis by keyword")
    yield Sample(x, 0, np.arange(3), 0, label="integer values")


# ---- np.trim_zeros --------------------------------------------------------------------------------------
def _kept_box(filt: Any, y: Any, trim: str, axis: Any) -> tuple[slice, ...]:
    """The slices of ``filt`` that ``np.trim_zeros`` returns."""
    arr = np.asarray(filt)
    axes = range(arr.ndim) if axis is None else normalize_axis_tuple(axis, arr.ndim)
    nonzero = np.nonzero(arr)
    front = "f" in trim.lower()
    box = []
    for k in range(arr.ndim):
        start = 0
        if k in axes and front and nonzero[k].size:
            start = int(nonzero[k].min())
        box.append(slice(start, start + np.shape(y)[k]))
    return tuple(box)


@rrule.register(np.trim_zeros, ARRAY_LIKE)
def trim_zeros_rrule(filt: Any, trim: Any = "fb", axis: Any = None) -> tuple[Any, Pullback]:
    """Reverse rule of ``np.trim_zeros``: the cotangent placed back in the kept box.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule, unthunk
    >>> y, pb = rrule(np.trim_zeros, np.array([0.0, 2.0, 3.0, 0.0]))
    >>> unthunk(pb(np.array([1.0, 1.0]))[1])
    array([0., 1., 1., 0.])
    """
    y = np.trim_zeros(filt, trim, axis)
    box = _kept_box(filt, y, trim, axis)

    def trim_zeros_pullback(dy: Any) -> tuple[Any, ...]:
        dy = read_cotangent(dy, y, "np.trim_zeros")
        if not differentiable(filt):
            return NO, NO, NO, NO
        if passes_through(dy):
            return NO, zero_result(dy), NO, NO

        def add_box(acc: np.ndarray, values: Any) -> None:
            acc[box] += values

        return NO, scatter_cotangent(filt, cast_like(dy, filt), add_box), NO, NO

    return y, trim_zeros_pullback


@frule.register(np.trim_zeros, ARRAY_LIKE)
def trim_zeros_frule(tangents: tuple[Any, ...], filt: Any, trim: Any = "fb", axis: Any = None) -> tuple[Any, Any]:
    """Forward rule of ``np.trim_zeros``: the tangent in the kept box.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> frule((NoTangent(), np.arange(3.0)), np.trim_zeros, np.array([0.0, 1.0, 2.0]))[1]
    array([1., 2.])
    """
    y = np.trim_zeros(filt, trim, axis)
    box = _kept_box(filt, y, trim, axis)
    return y, unary_pushforward(tangents[1], filt, y, lambda d: np.asarray(d)[box])


@sample_inputs(np.trim_zeros)
def _trim_zeros_samples(rng: np.random.Generator) -> Iterator[Sample]:
    # Trimming is decided by exact zeros: a perturbation of a trimmed zero changes the output's shape, so
    # finite differences check the rules only where nothing moves in or out of the kept box (interior zeros
    # stay). The trimming regime is checked along directions that keep the trimmed zeros at zero in
    # tests/chainrules/rulesets/arrays/test_editing.py.
    x = np.array([1.5, 0.0, -2.0, 0.5])
    yield from with_dtypes(Sample(x, label="nothing trimmed, an interior zero"))
    yield Sample(x, "b", label="trim by position")
    yield Sample(normal(rng, 2, 3), fkwargs={"trim": "f", "axis": 1}, label="2-d, by keyword")
