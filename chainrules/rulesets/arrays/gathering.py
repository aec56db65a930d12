"""Rules of the functions that gather entries chosen by indices, masks or conditions.

``np.take`` (and ``ndarray.take``), ``np.take_along_axis``, ``np.compress`` (and
``ndarray.compress``), ``np.extract``, ``np.diagonal`` (and ``ndarray.diagonal``),
``np.choose`` (and ``ndarray.choose``) and ``np.select``.

The maths
---------
A gather ``y = x[idx]`` is linear in ``x``: the frule gathers the tangent with the same
indices, and the pullback scatters the output cotangent back to the entries that were
read, **adding** the cotangents of an entry read several times (``np.add.at``
semantics: a repeated index accumulates, it is never overwritten). ``np.choose`` and
``np.select`` pick each output entry from one of several arrays: the cotangent of each
array is the output cotangent where that array was picked (zero elsewhere), summed back
over the axes it was broadcast along; ``select``'s ``default`` gets the rest. Indices,
masks and conditions are not differentiated.

Cotangents of gathers
---------------------
The cotangent of the array read from (``take``, ``take_along_axis``, ``compress``,
``extract``, ``diagonal``) is an :class:`~chainrules_core.InplaceableThunk`: ``add_(acc,
cotangent)`` adds into the entries read, in place, at the cost of the number of entries
read; ``unthunk`` builds the dense cotangent.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
from numpy.lib.array_utils import normalize_axis_index

from chainrules.rulesets.arrays._gather_scatter import gathered_cotangent, gathered_tangent
from chainrules.rulesets.arrays._linear_maps import (
    NO,
    ZERO,
    cast_like,
    cotangent_of_sequence,
    dense_tangent,
    output_tangent,
    tangent_array,
    zero_result,
)
from chainrules.rulesets.arrays._sample_arrays import normal, with_dtypes
from chainrules.rulesets.arrays._signatures import ARRAY_LIKE, REQUIRED, SEQUENCE, reject_out, require
from chainrules_core import (
    NotImplementedTangent,
    Sample,
    Thunk,
    cotangent_projector,
    differentiable,
    frule,
    passes_through,
    read_cotangent,
    rrule,
    sample_inputs,
    unbroadcast,
)

Pullback = Callable[[Any], tuple[Any, ...]]
ARRAYS = (list, tuple, np.ndarray)


# ---- np.take, ndarray.take --------------------------------------------------------------------------
def _take_positions(indices: Any, n: int, mode: str) -> np.ndarray:
    """The indices ``np.take`` reads, as non-negative ints (``mode`` applied)."""
    idx = np.asarray(indices, dtype=np.intp)
    if n == 0:
        return idx
    if mode == "clip":
        return np.clip(idx, 0, n - 1)
    return idx % n  # 'wrap', and negative indices under 'raise' (out-of-range ones raised already)


def _take_scatter(shape: tuple[int, ...], indices: Any, axis: Any, mode: str) -> Callable[[np.ndarray, Any], None]:
    if axis is None:
        positions = _take_positions(indices, int(np.prod(shape, dtype=np.int64)), mode)
        where: Any = np.unravel_index(positions, shape)
    else:
        k = normalize_axis_index(axis, len(shape))
        positions = _take_positions(indices, shape[k], mode)
        where = (slice(None),) * k + (positions,)

    def add_taken(acc: np.ndarray, dy: Any) -> None:
        np.add.at(acc, where, dy)

    return add_taken


@rrule.register(np.take, ARRAY_LIKE)
def take_rrule(a: Any, indices: Any = REQUIRED, axis: Any = None, out: Any = None, mode: Any = "raise") -> tuple[Any,
               Pullback]:
    """Reverse rule of ``np.take``: the cotangent added back at the indices (repeats accumulate).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule, unthunk
    >>> y, pb = rrule(np.take, np.zeros(3), [0, 2, 0])
    >>> unthunk(pb(np.array([1.0, 2.0, 3.0]))[1])
    array([4., 0., 2.])
    """
    require("take", indices=indices)
    reject_out(np.take, out)
    y = np.take(a, indices, axis, mode=mode)
    cotangent_a = gathered_cotangent("np.take", a, y, _take_scatter(np.shape(a), indices, axis, mode))

    def take_pullback(dy: Any) -> tuple[Any, ...]:
        return NO, cotangent_a(dy), NO, NO, NO, NO

    return y, take_pullback


@frule.register(np.take, ARRAY_LIKE)
def take_frule(tangents: tuple[Any, ...], a: Any, indices: Any = REQUIRED, axis: Any = None, out: Any = None,
               mode: Any = "raise") -> tuple[Any, Any]:
    """Forward rule of ``np.take``: the tangent taken at the same indices.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> frule((NoTangent(), np.array([1.0, 2.0]), NoTangent()), np.take, np.zeros(2), [1, 1])[1]
    array([2., 2.])
    """
    require("take", indices=indices)
    reject_out(np.take, out)
    y = np.take(a, indices, axis, mode=mode)
    return y, gathered_tangent(tangents[1], a, y, lambda da: np.take(da, indices, axis, mode=mode))


@rrule.register(np.ndarray.take, np.ndarray)
def ndarray_take_rrule(a: np.ndarray, indices: Any = REQUIRED, axis: Any = None, out: Any = None,
                       mode: Any = "raise") -> tuple[Any, Pullback]:
    """Reverse rule of the method ``x.take(indices, axis, out, mode)``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule, unthunk
    >>> x = np.zeros(2)
    >>> unthunk(rrule(x.take, [1])[1](np.array([5.0]))[1])
    array([0., 5.])
    """
    require("take", indices=indices)
    return take_rrule(a, indices, axis, out, mode)


@frule.register(np.ndarray.take, np.ndarray)
def ndarray_take_frule(tangents: tuple[Any, ...], a: np.ndarray, indices: Any = REQUIRED, axis: Any = None,
                       out: Any = None,
                       mode: Any = "raise") -> tuple[Any, Any]:
    """Forward rule of the method ``x.take(...)``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> x = np.zeros(2)
    >>> frule((NoTangent(), np.array([1.0, 2.0]), NoTangent()), x.take, [1])[1]
    array([2.])
    """
    require("take", indices=indices)
    return take_frule(tangents, a, indices, axis, out, mode)


@sample_inputs(np.take, np.ndarray.take)
def _take_samples(rng: np.random.Generator) -> Iterator[Sample]:
    x = normal(rng, 3, 4)
    yield from with_dtypes(Sample(x, [0, 5, 5, -1], label="flat indices, repeated and negative"))
    yield Sample(x, np.array([[2, 0], [2, 2]]), 1, label="a 2-d index array along axis 1")
    yield Sample(x, [4, -5], 0, None, "wrap", label="mode wrap, positional")
    yield Sample(x, fkwargs={"indices": [7, -1], "axis": 1, "mode": "clip"}, label="mode clip, by keyword")
    yield Sample(x, 2, label="a scalar index: 0-d output")
    yield Sample(x, np.array([], dtype=np.intp), 0, label="no index: empty output")


# ---- np.take_along_axis ---------------------------------------------------------------------------------
def _along_axis_index(shape: tuple[int, ...], indices: np.ndarray, axis: int) -> tuple[Any, ...]:
    """The full fancy index at which ``np.take_along_axis(x, indices, axis)`` reads ``x``."""
    ndim = len(shape)
    where: list[Any] = []
    for k in range(ndim):
        if k == axis:
            where.append(indices)
        else:
            fan = [1] * ndim
            fan[k] = shape[k]
            where.append(np.arange(shape[k]).reshape(fan))
    return tuple(where)


def _take_along_scatter(shape: tuple[int, ...], indices: Any, axis: Any) -> Callable[[np.ndarray, Any], None]:
    idx = np.asarray(indices)
    if axis is None:
        positions = idx % max(int(np.prod(shape, dtype=np.int64)), 1)
        where: Any = np.unravel_index(positions, shape)
    else:
        k = normalize_axis_index(axis, len(shape))
        where = _along_axis_index(shape, idx, k)

    def add_taken_along(acc: np.ndarray, dy: Any) -> None:
        np.add.at(acc, where, dy)

    return add_taken_along


@rrule.register(np.take_along_axis, ARRAY_LIKE)
def take_along_axis_rrule(arr: Any, indices: Any = REQUIRED, axis: Any = -1) -> tuple[Any, Pullback]:
    """Reverse rule of ``np.take_along_axis``: the cotangent added back along the axis.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule, unthunk
    >>> y, pb = rrule(np.take_along_axis, np.zeros((1, 3)), np.array([[2, 2]]), 1)
    >>> unthunk(pb(np.array([[1.0, 2.0]]))[1])
    array([[0., 0., 3.]])
    """
    require("take_along_axis", indices=indices)
    y = np.take_along_axis(arr, indices, axis)
    cotangent_arr = gathered_cotangent("np.take_along_axis", arr, y, _take_along_scatter(np.shape(arr), indices, axis))

    def take_along_axis_pullback(dy: Any) -> tuple[Any, ...]:
        return NO, cotangent_arr(dy), NO, NO

    return y, take_along_axis_pullback


@frule.register(np.take_along_axis, ARRAY_LIKE)
def take_along_axis_frule(tangents: tuple[Any, ...], arr: Any, indices: Any = REQUIRED, axis: Any = -1) -> tuple[Any,
                          Any]:
    """Forward rule of ``np.take_along_axis``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> dx = np.array([1.0, 2.0])
    >>> frule((NoTangent(), dx, NoTangent(), NoTangent()), np.take_along_axis, np.zeros(2), np.array([1]), 0)[1]
    array([2.])
    """
    require("take_along_axis", indices=indices)
    y = np.take_along_axis(arr, indices, axis)
    return y, gathered_tangent(tangents[1], arr, y, lambda da: np.take_along_axis(da, indices, axis))


@sample_inputs(np.take_along_axis)
def _take_along_axis_samples(rng: np.random.Generator) -> Iterator[Sample]:
    x = normal(rng, 3, 4)
    yield from with_dtypes(Sample(x, np.array([[0, 0], [3, 1], [2, 2]]), 1, label="along the last axis, repeats"))
    yield Sample(x, np.array([[2, 0, 0, 1]]), 0, label="along the first axis")
    yield Sample(x, fkwargs={"indices": np.array([11, 0, 11]), "axis": None}, label="flattened, by keyword")


# ---- np.compress, ndarray.compress, np.extract ------------------------------------------------------------
def _compress_indices(condition: Any, shape: tuple[int, ...], axis: Any) -> np.ndarray:
    n = int(np.prod(shape, dtype=np.int64)) if axis is None else shape[normalize_axis_index(axis, len(shape))]
    return np.flatnonzero(np.ravel(condition)[:n])


@rrule.register(np.compress, ARRAY_LIKE, ARRAY_LIKE)
def compress_rrule(condition: Any, a: Any, axis: Any = None, out: Any = None) -> tuple[Any, Pullback]:
    """Reverse rule of ``np.compress``: the cotangent put back where ``condition`` is true.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule, unthunk
    >>> y, pb = rrule(np.compress, [True, False, True], np.zeros(3))
    >>> unthunk(pb(np.array([1.0, 2.0]))[2])
    array([1., 0., 2.])
    """
    reject_out(np.compress, out)
    y = np.compress(condition, a, axis)
    indices = _compress_indices(condition, np.shape(a), axis)
    cotangent_a = gathered_cotangent("np.compress", a, y, _take_scatter(np.shape(a), indices, axis, "raise"))

    def compress_pullback(dy: Any) -> tuple[Any, ...]:
        return NO, NO, cotangent_a(dy), NO, NO

    return y, compress_pullback


@frule.register(np.compress, ARRAY_LIKE, ARRAY_LIKE)
def compress_frule(tangents: tuple[Any, ...], condition: Any, a: Any, axis: Any = None,
                   out: Any = None) -> tuple[Any, Any]:
    """Forward rule of ``np.compress``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> frule((NoTangent(), NoTangent(), np.array([1.0, 2.0])), np.compress, [False, True], np.zeros(2))[1]
    array([2.])
    """
    reject_out(np.compress, out)
    y = np.compress(condition, a, axis)
    return y, gathered_tangent(tangents[2], a, y, lambda da: np.compress(condition, da, axis))


@rrule.register(np.ndarray.compress, np.ndarray)
def ndarray_compress_rrule(a: np.ndarray, condition: Any, axis: Any = None, out: Any = None) -> tuple[Any, Pullback]:
    """Reverse rule of the method ``x.compress(condition, axis)``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule, unthunk
    >>> x = np.zeros(2)
    >>> unthunk(rrule(x.compress, [False, True])[1](np.array([3.0]))[1])
    array([0., 3.])
    """
    y, pullback = compress_rrule(condition, a, axis, out)

    def ndarray_compress_pullback(dy: Any) -> tuple[Any, ...]:
        cotangents = pullback(dy)
        return NO, cotangents[2], NO, NO, NO

    return y, ndarray_compress_pullback


@frule.register(np.ndarray.compress, np.ndarray)
def ndarray_compress_frule(tangents: tuple[Any, ...], a: np.ndarray, condition: Any, axis: Any = None,
                           out: Any = None) -> tuple[Any, Any]:
    """Forward rule of the method ``x.compress(condition, axis)``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> x = np.zeros(2)
    >>> frule((NoTangent(), np.array([1.0, 2.0]), NoTangent()), x.compress, [True, False])[1]
    array([1.])
    """
    return compress_frule((NO, NO, tangents[1]), condition, a, axis, out)


@sample_inputs(np.compress)
def _compress_samples(rng: np.random.Generator) -> Iterator[Sample]:
    x = normal(rng, 3, 2)
    yield from with_dtypes(Sample([True, False, True], x, 0, label="rows"))
    yield Sample(np.array([False, True]), x, fkwargs={"axis": 1}, label="columns, by keyword")
    yield Sample([True, True, False], x, label="flattened, a short condition")


@sample_inputs(np.ndarray.compress)
def _ndarray_compress_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample(normal(rng, 3, 2), [False, True, True], 0, label="rows")
    yield Sample(normal(rng, 4, dtype=np.complex128), np.array([1, 0, 0, 1], dtype=bool), label="complex")


@rrule.register(np.extract, ARRAY_LIKE, ARRAY_LIKE)
def extract_rrule(condition: Any, arr: Any) -> tuple[Any, Pullback]:
    """Reverse rule of ``np.extract``: the cotangent put back where ``condition`` is true.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule, unthunk
    >>> y, pb = rrule(np.extract, np.array([[True, False]]), np.zeros((1, 2)))
    >>> unthunk(pb(np.array([4.0]))[2])
    array([[4., 0.]])
    """
    y = np.extract(condition, arr)
    indices = np.flatnonzero(np.ravel(condition))
    cotangent_arr = gathered_cotangent("np.extract", arr, y, _take_scatter(np.shape(arr), indices, None, "raise"))

    def extract_pullback(dy: Any) -> tuple[Any, ...]:
        return NO, NO, cotangent_arr(dy)

    return y, extract_pullback


@frule.register(np.extract, ARRAY_LIKE, ARRAY_LIKE)
def extract_frule(tangents: tuple[Any, ...], condition: Any, arr: Any) -> tuple[Any, Any]:
    """Forward rule of ``np.extract``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> frule((NoTangent(), NoTangent(), np.array([1.0, 2.0])), np.extract, [True, True], np.zeros(2))[1]
    array([1., 2.])
    """
    y = np.extract(condition, arr)
    return y, gathered_tangent(tangents[2], arr, y, lambda da: np.extract(condition, da))


@sample_inputs(np.extract)
def _extract_samples(rng: np.random.Generator) -> Iterator[Sample]:
    x = normal(rng, 2, 3)
    yield from with_dtypes(Sample(x > 0, x, label="a mask"))
    yield Sample(np.array([[1, 0, 2], [0, 0, 3]]), x, label="nonzero integers as the condition")


# ---- np.diagonal, ndarray.diagonal ---------------------------------------------------------------------
def _diagonal_scatter(shape: tuple[int, ...], offset: int, axis1: Any, axis2: Any) -> Callable[[np.ndarray, Any], None]:
    ndim = len(shape)
    a1, a2 = normalize_axis_index(axis1, ndim), normalize_axis_index(axis2, ndim)
    n1, n2 = shape[a1], shape[a2]
    offset = int(offset)
    length = max(0, min(n1 + min(offset, 0), n2 - max(offset, 0)))
    rows = np.arange(length) + max(-offset, 0)
    cols = np.arange(length) + max(offset, 0)

    def add_on_diagonal(acc: np.ndarray, dy: Any) -> None:
        view = np.moveaxis(acc, (a1, a2), (-2, -1))
        view[..., rows, cols] += dy

    return add_on_diagonal


@rrule.register(np.diagonal, ARRAY_LIKE)
def diagonal_rrule(a: Any, offset: Any = 0, axis1: Any = 0, axis2: Any = 1) -> tuple[Any, Pullback]:
    """Reverse rule of ``np.diagonal``: the cotangent put on the diagonal of zeros.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule, unthunk
    >>> y, pb = rrule(np.diagonal, np.zeros((2, 3)), 1)
    >>> unthunk(pb(np.array([1.0, 2.0]))[1])
    array([[0., 1., 0.],
           [0., 0., 2.]])
    """
    y = np.diagonal(a, offset, axis1, axis2)
    cotangent_a = gathered_cotangent("np.diagonal", a, y, _diagonal_scatter(np.shape(a), offset, axis1, axis2))

    def diagonal_pullback(dy: Any) -> tuple[Any, ...]:
        return NO, cotangent_a(dy), NO, NO, NO

    return y, diagonal_pullback


@frule.register(np.diagonal, ARRAY_LIKE)
def diagonal_frule(tangents: tuple[Any, ...], a: Any, offset: Any = 0, axis1: Any = 0,
                   axis2: Any = 1) -> tuple[Any, Any]:
    """Forward rule of ``np.diagonal``: the tangent's diagonal.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> frule((NoTangent(), np.arange(4.0).reshape(2, 2)), np.diagonal, np.zeros((2, 2)))[1]
    array([0., 3.])
    """
    y = np.diagonal(a, offset, axis1, axis2)
    return y, gathered_tangent(tangents[1], a, y, lambda da: np.diagonal(da, offset, axis1, axis2).copy())


@rrule.register(np.ndarray.diagonal, np.ndarray)
def ndarray_diagonal_rrule(a: np.ndarray, offset: Any = 0, axis1: Any = 0, axis2: Any = 1) -> tuple[Any, Pullback]:
    """Reverse rule of the method ``x.diagonal(offset, axis1, axis2)``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule, unthunk
    >>> x = np.zeros((2, 2))
    >>> unthunk(rrule(x.diagonal)[1](np.ones(2))[1])
    array([[1., 0.],
           [0., 1.]])
    """
    return diagonal_rrule(a, offset, axis1, axis2)


@frule.register(np.ndarray.diagonal, np.ndarray)
def ndarray_diagonal_frule(tangents: tuple[Any, ...], a: np.ndarray, offset: Any = 0, axis1: Any = 0,
                           axis2: Any = 1) -> tuple[Any, Any]:
    """Forward rule of the method ``x.diagonal(...)``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> x = np.zeros((2, 2))
    >>> frule((NoTangent(), np.eye(2)), x.diagonal)[1]
    array([1., 1.])
    """
    return diagonal_frule(tangents, a, offset, axis1, axis2)


@sample_inputs(np.diagonal, np.ndarray.diagonal)
def _diagonal_samples(rng: np.random.Generator) -> Iterator[Sample]:
    x = normal(rng, 3, 4)
    yield from with_dtypes(Sample(x, label="main diagonal"))
    yield Sample(x, -1, label="offset by position")
    yield Sample(normal(rng, 2, 3, 3), fkwargs={"offset": 1, "axis1": 1, "axis2": 2}, label="stacked, by keyword")
    yield Sample(x, 5, label="offset past the end: empty")


# ---- np.choose, ndarray.choose -------------------------------------------------------------------------
def _chosen(a: Any, n: int, mode: Any) -> np.ndarray:
    """Which choice each entry of ``a`` picks (``mode`` applied)."""
    idx = np.asarray(a, dtype=np.intp)
    if mode == "clip":
        return np.clip(idx, 0, n - 1)
    if mode == "wrap":
        return idx % n
    return idx


def _choose_cotangent(name: str, a: Any, choices: Any, y: Any, mode: Any) -> Callable[[Any], Any]:
    elements = list(choices)
    project_choices = cotangent_projector(choices)

    def choose_cotangent(dy: Any) -> Any:
        dy = read_cotangent(dy, y, name)
        if not differentiable(choices):
            return NO
        if passes_through(dy):
            return project_choices(zero_result(dy))
        dy = np.asarray(dy)
        picked = _chosen(a, len(elements), mode)

        def cotangent_of_choice(k: int, choice: Any) -> Any:
            if not differentiable(choice):
                return NO
            return unbroadcast(np.where(picked == k, dy, np.zeros((), dy.dtype)), np.shape(choice))

        return cotangent_of_sequence(choices, [cotangent_of_choice(k, c) for k, c in enumerate(elements)],
                                     project_choices)

    return choose_cotangent


def _choose_tangent(d_choices: Any, a: Any, choices: Any, y: Any, mode: Any) -> Any:
    if not differentiable(y) or not differentiable(choices):
        return output_tangent(None, y)
    value = dense_tangent(d_choices, choices)
    if value is None or isinstance(value, NotImplementedTangent):
        return output_tangent(value, y)
    return output_tangent(np.choose(a, value, mode=mode), y)


@rrule.register(np.choose, ARRAY_LIKE, ARRAYS)
def choose_rrule(a: Any, choices: Any, out: Any = None, mode: Any = "raise") -> tuple[Any, Pullback]:
    """Reverse rule of ``np.choose``: each choice gets the cotangent where it was picked.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> y, pb = rrule(np.choose, [1, 0], [np.zeros(2), np.ones(2)])
    >>> pb(np.array([5.0, 7.0]))[2]
    Tangent(list, array([0., 7.]), array([5., 0.]))
    """
    return _choose_rrule(np.choose(a, choices, mode=mode), "np.choose", a, choices, out, mode)


def _choose_rrule(y: Any, name: str, a: Any, choices: Any, out: Any, mode: Any) -> tuple[Any, Pullback]:
    reject_out(np.choose, out)
    cotangent_choices = _choose_cotangent(name, a, choices, y, mode)

    def choose_pullback(dy: Any) -> tuple[Any, ...]:
        return NO, NO, cotangent_choices(dy), NO, NO

    return y, choose_pullback


@frule.register(np.choose, ARRAY_LIKE, ARRAYS)
def choose_frule(tangents: tuple[Any, ...], a: Any, choices: Any, out: Any = None,
                 mode: Any = "raise") -> tuple[Any, Any]:
    """Forward rule of ``np.choose``: the tangents chosen the same way.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> frule((NoTangent(), NoTangent(), [np.ones(2), 2 * np.ones(2)]), np.choose, [1, 0], [np.zeros(2), np.ones(2)])[1]
    array([2., 1.])
    """
    reject_out(np.choose, out)
    y = np.choose(a, choices, mode=mode)
    return y, _choose_tangent(tangents[2], a, choices, y, mode)


@rrule.register(np.ndarray.choose, np.ndarray, ARRAYS)
def ndarray_choose_rrule(a: np.ndarray, choices: Any, out: Any = None, mode: Any = "raise") -> tuple[Any, Pullback]:
    """Reverse rule of the method ``a.choose(choices, out, mode)``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> a = np.array([0, 1])
    >>> rrule(a.choose, (np.zeros(2), np.zeros(2)))[1](np.ones(2))[2]
    Tangent(tuple, array([1., 0.]), array([0., 1.]))
    """
    reject_out(np.choose, out)
    return _choose_rrule(a.choose(choices, mode=mode), "ndarray.choose", a, choices, out, mode)


@frule.register(np.ndarray.choose, np.ndarray, ARRAYS)
def ndarray_choose_frule(tangents: tuple[Any, ...], a: np.ndarray, choices: Any, out: Any = None,
                         mode: Any = "raise") -> tuple[Any, Any]:
    """Forward rule of the method ``a.choose(choices, out, mode)``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> a = np.array([1])
    >>> frule((NoTangent(), NoTangent(), (np.ones(1), 2 * np.ones(1))), a.choose, (np.zeros(1), np.zeros(1)))[1]
    array([2.])
    """
    reject_out(np.choose, out)
    y = a.choose(choices, mode=mode)
    return y, _choose_tangent(tangents[2], a, choices, y, mode)


@sample_inputs(np.choose)
def _choose_samples(rng: np.random.Generator) -> Iterator[Sample]:
    choices = [normal(rng, 2, 3), normal(rng, 3), normal(rng, 2, 1)]
    yield from with_dtypes(Sample(np.array([[0, 1, 2], [2, 1, 1]]), choices, label="three broadcast choices"))
    yield Sample([3, -1, 1], (normal(rng, 3), normal(rng, 3)), None, "wrap", label="mode wrap, a tuple")
    yield Sample(np.array([5, 0]), normal(rng, 2, 2), fkwargs={"mode": "clip"}, label="an ndarray of choices, clip")


@sample_inputs(np.ndarray.choose)
def _ndarray_choose_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample(np.array([1, 0, 1]), [normal(rng, 3), normal(rng, 3)], label="two choices")
    yield Sample(np.array([2, 0]), (normal(rng, 2), 1.5, normal(rng, 2)), fkwargs={"mode": "raise"},
                 label="a number among the choices")


# ---- np.select --------------------------------------------------------------------------------------
def _selection_masks(condlist: Any, shape: tuple[int, ...]) -> tuple[list[np.ndarray], np.ndarray]:
    """For each choice, where it is selected (the first true condition); and where none is."""
    taken = np.zeros(shape, dtype=bool)
    masks = []
    for cond in condlist:
        c = np.broadcast_to(np.asarray(cond, dtype=bool), shape)
        masks.append(c & ~taken)
        taken = taken | c
    return masks, ~taken


@rrule.register(np.select, SEQUENCE, SEQUENCE)
def select_rrule(condlist: Any, choicelist: Any, default: Any = 0) -> tuple[Any, Pullback]:
    """Reverse rule of ``np.select``: each choice gets the cotangent where it was selected,
    ``default`` where no condition holds.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule, unthunk
    >>> y, pb = rrule(np.select, [np.array([True, False])], [np.zeros(2)], 1.0)
    >>> [unthunk(c) for c in pb(np.array([2.0, 3.0]))[2:]]
    [Tangent(list, array([2., 0.])), 3.0]
    """
    y = np.select(condlist, choicelist, default)
    project_choices, project_default = cotangent_projector(choicelist), cotangent_projector(default)
    shape = np.shape(y)

    def select_pullback(dy: Any) -> tuple[Any, ...]:
        dy = read_cotangent(dy, y, "np.select")
        if passes_through(dy):
            zero = zero_result(dy)
            return NO, NO, project_choices(zero), project_default(zero)
        dy = np.asarray(dy)
        masks, rest = _selection_masks(condlist, shape)
        zero = np.zeros((), dy.dtype)

        def choices_cotangent() -> Any:
            pieces = [unbroadcast(np.where(m, dy, zero), np.shape(c)) if differentiable(c) else NO
                      for m, c in zip(masks, choicelist)]
            return cotangent_of_sequence(choicelist, pieces, project_choices)

        def default_cotangent() -> Any:
            return project_default(unbroadcast(np.where(rest, dy, zero), np.shape(default)))

        d_choices = Thunk(choices_cotangent) if differentiable(choicelist) else NO
        d_default = Thunk(default_cotangent) if differentiable(default) else NO
        return NO, NO, d_choices, d_default

    return y, select_pullback


@frule.register(np.select, SEQUENCE, SEQUENCE)
def select_frule(tangents: tuple[Any, ...], condlist: Any, choicelist: Any, default: Any = 0) -> tuple[Any, Any]:
    """Forward rule of ``np.select``: the tangents selected the same way.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> conditions = [np.array([True, False])]
    >>> frule((NoTangent(), NoTangent(), [np.ones(2)], 5.0), np.select, conditions, [np.zeros(2)], 1.0)[1]
    array([1., 5.])
    """
    y = np.select(condlist, choicelist, default)
    if not differentiable(y):
        return y, NO
    d_choices = dense_tangent(tangents[2], choicelist) if differentiable(choicelist) else None
    d_default = tangent_array(tangents[3], default) if differentiable(default) else None
    for v in (d_choices, d_default):
        if isinstance(v, NotImplementedTangent):
            return y, v
    if d_choices is None and d_default is None:
        return y, ZERO
    if d_choices is None:
        d_choices = [np.zeros(np.shape(c), y.dtype) for c in choicelist]
    value = np.select(condlist, d_choices, 0 if d_default is None else d_default)
    return y, output_tangent(value, y)


@sample_inputs(np.select)
def _select_samples(rng: np.random.Generator) -> Iterator[Sample]:
    x = normal(rng, 2, 3)
    conditions = [x > 0.5, x < 0]
    choices = [normal(rng, 2, 3), normal(rng, 3)]
    yield from with_dtypes(Sample(conditions, choices, 1.5, label="overlapping conditions, a default"))
    yield Sample([x > 0], [normal(rng, 2, 3)], label="default 0")
    yield Sample(conditions, [normal(rng, 2, 3), normal(rng, 2, 3)], fkwargs={"default": 2.0},
                 label="default by keyword (not differentiated)")


# ---- np.bincount ---------------------------------------------------------------------------------------
@rrule.register(np.bincount, ARRAY_LIKE)
def bincount_rrule(x: Any, weights: Any = None, minlength: Any = 0) -> tuple[Any, Pullback]:
    """Reverse rule of ``np.bincount``: with ``weights``, each weight gets the cotangent of its bin.

    ``bincount(x, weights)`` sums the weights into bins (a scatter-add, linear in the
    weights); the cotangent of the weights gathers the output cotangent at ``x``. The
    counts themselves (no weights) are integers: not differentiated.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> y, pb = rrule(np.bincount, np.array([0, 2, 0]), np.array([0.5, 1.0, 2.0]))
    >>> y, pb(np.array([1.0, 10.0, 100.0]))[2]
    (array([2.5, 0. , 1. ]), array([  1., 100.,   1.]))
    """
    y = np.bincount(x, weights, minlength)
    bins = np.asarray(x, dtype=np.intp)
    project_weights = cotangent_projector(weights)
    live = weights is not None and differentiable(weights)

    def bincount_pullback(dy: Any) -> tuple[Any, ...]:
        dy = read_cotangent(dy, y, "np.bincount")
        if not live:
            return NO, NO, NO, NO
        if passes_through(dy):
            return NO, NO, zero_result(dy), NO
        return NO, NO, project_weights(cast_like(dy[bins], weights).reshape(np.shape(weights))), NO

    return y, bincount_pullback


@frule.register(np.bincount, ARRAY_LIKE)
def bincount_frule(tangents: tuple[Any, ...], x: Any, weights: Any = None, minlength: Any = 0) -> tuple[Any, Any]:
    """Forward rule of ``np.bincount``: the weights' tangent summed into the same bins.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> frule((NoTangent(), NoTangent(), np.array([1.0, 2.0])), np.bincount, np.array([1, 1]), np.zeros(2))[1]
    array([0., 3.])
    """
    y = np.bincount(x, weights, minlength)
    if weights is None or not differentiable(weights):
        return y, NO
    d = tangent_array(tangents[2], weights)
    if d is None or isinstance(d, NotImplementedTangent):
        return y, output_tangent(d, y)
    return y, output_tangent(np.bincount(x, d, minlength), y)


@sample_inputs(np.bincount)
def _bincount_samples(rng: np.random.Generator) -> Iterator[Sample]:
    bins = np.array([0, 3, 3, 1, 0])
    yield Sample(bins, normal(rng, 5), label="weighted")
    yield Sample(bins, normal(rng, 5).astype(np.float32), 6, label="float32 weights, minlength")
    yield Sample(bins, label="counts (integers)")
    yield Sample(bins, fkwargs={"weights": normal(rng, 5), "minlength": 2}, label="weights by keyword")


@rrule.register(np.linalg.diagonal, ARRAY_LIKE)
def linalg_diagonal_rrule(x: Any, *, offset: Any = 0) -> tuple[Any, Pullback]:
    """Reverse rule of ``np.linalg.diagonal`` (the diagonals of the last two axes).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule, unthunk
    >>> y, pb = rrule(np.linalg.diagonal, np.zeros((2, 2)))
    >>> unthunk(pb(np.array([1.0, 2.0]))[1])
    array([[1., 0.],
           [0., 2.]])
    """
    y = np.linalg.diagonal(x, offset=offset)
    cotangent_x = gathered_cotangent("np.linalg.diagonal", x, y, _diagonal_scatter(np.shape(x), offset, -2, -1))

    def linalg_diagonal_pullback(dy: Any) -> tuple[Any, ...]:
        return NO, cotangent_x(dy)

    return y, linalg_diagonal_pullback


@frule.register(np.linalg.diagonal, ARRAY_LIKE)
def linalg_diagonal_frule(tangents: tuple[Any, ...], x: Any, *, offset: Any = 0) -> tuple[Any, Any]:
    """Forward rule of ``np.linalg.diagonal``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> frule((NoTangent(), np.eye(2)), np.linalg.diagonal, np.zeros((2, 2)))[1]
    array([1., 1.])
    """
    y = np.linalg.diagonal(x, offset=offset)
    return y, gathered_tangent(tangents[1], x, y, lambda d: np.linalg.diagonal(d, offset=offset).copy())


@sample_inputs(np.linalg.diagonal)
def _linalg_diagonal_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield from with_dtypes(Sample(normal(rng, 2, 3, 3), label="a stack of matrices"))
    yield Sample(normal(rng, 3, 4), fkwargs={"offset": -1}, label="offset by keyword")
