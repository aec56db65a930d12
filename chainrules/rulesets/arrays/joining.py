"""Rules of the functions that join arrays: concatenation, stacking and blocks.

``np.concatenate`` (also reached as ``np.concat``, the same function object), ``np.stack``,
``np.hstack``, ``np.vstack`` (and its deprecated alias ``np.row_stack``), ``np.dstack``,
``np.column_stack``, ``np.block`` (and ``np.bmat`` of a list of blocks) and ``np.append``.

The maths
---------
Joining is linear: the frule joins the tangents the same way, and the pullback cuts the
output cotangent into the pieces each input contributed (read-only views of the output
cotangent: no copy) and reshapes each piece back to its input's shape (the promotions
of ``hstack``/``vstack``/``dstack``/``column_stack`` only insert axes of length one, so a
reshape undoes them).

The sequence argument and its cotangent
---------------------------------------
These functions take *one* argument holding the arrays, a list or a tuple. Its cotangent
is a structural tangent of the same type: ``Tangent(list, da, db)`` for a list,
``Tangent(tuple, da, db)`` for a tuple, each element projected onto its own input's
space: an ndarray of the element's shape and dtype, a float for a Python float,
``NoTangent()`` for an integer array or an int, a nested ``Tangent(list, ...)`` for a
nested list (``np.block``). When the sequence is itself an ndarray (``np.stack(x)``
iterates over its first axis), its cotangent is an ndarray. The frule takes the tangent
of the sequence in the same forms (or a plain list or tuple of tangents).
"""

from __future__ import annotations

import itertools
import warnings
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np
from numpy.lib.array_utils import normalize_axis_index

from chainrules.rulesets.arrays._gather_scatter import index_grid
from chainrules.rulesets.arrays._linear_maps import (
    NO,
    any_not_implemented,
    cotangent_of_sequence,
    dense_tangent,
    input_cotangent,
    output_tangent,
    own,
    tangent_array,
    zero_result,
)
from chainrules.rulesets.arrays._sample_arrays import normal, with_dtypes
from chainrules.rulesets.arrays._signatures import ARRAY_LIKE, reject_out
from chainrules_core import (
    Sample,
    cotangent_projector,
    differentiable,
    frule,
    passes_through,
    read_cotangent,
    rrule,
    sample_inputs,
)

Pullback = Callable[[Any], tuple[Any, ...]]
ARRAYS = (list, tuple, np.ndarray)
"""Types of the sequence-of-arrays argument: a list, a tuple, or an ndarray (its rows)."""


def _elements(arrays: Any) -> list[Any]:
    """The arrays NumPy joins: the elements of a list or tuple, the rows of an ndarray."""
    return list(arrays)


def _pieces(axis: int, sizes: Sequence[int]) -> list[tuple[slice, ...]]:
    """The index of each consecutive piece of ``sizes`` along ``axis``."""
    bounds = np.concatenate(([0], np.cumsum(sizes, dtype=np.intp))).tolist()
    lead = (slice(None),) * axis
    return [(*lead, slice(start, stop)) for start, stop in itertools.pairwise(bounds)]


def _joined_cotangent(name: str, arrays: Any, y: Any, axis: int, promoted: Sequence[tuple[int, ...]]
                      ) -> Callable[[Any], Any]:
    """The cotangent of the sequence ``arrays`` joined along ``axis`` of the output ``y``.

    ``promoted`` holds the shape each element had when joined (after ``atleast_*d`` or
    ``ravel``); the piece of the cotangent for each element is reshaped to its own shape.
    """
    project_arrays = cotangent_projector(arrays)
    shapes = [np.shape(e) for e in _elements(arrays)]
    pieces = _pieces(axis, [s[axis] for s in promoted])

    def cut_into_pieces(dy: np.ndarray) -> Any:
        return cotangent_of_sequence(arrays, [own(dy[piece].reshape(shape), dy)
                                              for piece, shape in zip(pieces, shapes)], project_arrays)

    return input_cotangent(name, differentiable(arrays), y, cut_into_pieces)


def _join_tangents(join: Callable[[Any], Any], d_arrays: Any, arrays: Any, y: Any) -> Any:
    """The frule output: ``join`` applied to the tangents of the elements (zeros filled in)."""
    if not differentiable(y):
        return NO
    value = dense_tangent(d_arrays, arrays) if differentiable(arrays) else None
    if value is None or any_not_implemented(value):
        return output_tangent(value, y)
    return output_tangent(join(value), y)


# ---- np.concatenate / np.concat ----------------------------------------------------------------------
def _concatenate_geometry(arrays: Any, axis: Any) -> tuple[int, list[tuple[int, ...]]]:
    """The axis of the output along which the elements are joined, and their joined shapes."""
    elements = [np.asarray(e) for e in _elements(arrays)]
    if axis is None:
        return 0, [(e.size,) for e in elements]
    ndim = elements[0].ndim if elements else 1
    return normalize_axis_index(axis, ndim), [e.shape for e in elements]


@rrule.register(np.concatenate, ARRAYS)
def concatenate_rrule(arrays: Any, axis: Any = 0, out: Any = None, *, dtype: Any = None,
                      casting: Any = "same_kind") -> tuple[Any, Pullback]:
    """Reverse rule of ``np.concatenate`` (and ``np.concat``): the cotangent cut into the pieces.

    The cotangent of a list of arrays is a ``Tangent(list, ...)`` (see the module docstring).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> y, pb = rrule(np.concatenate, [np.zeros(2), np.zeros(1)])
    >>> pb(np.array([1.0, 2.0, 3.0]))[1]
    Tangent(list, array([1., 2.]), array([3.]))
    """
    reject_out(np.concatenate, out)
    y = np.concatenate(arrays, axis, dtype=dtype, casting=casting)
    joined_axis, promoted = _concatenate_geometry(arrays, axis)
    cotangent_arrays = _joined_cotangent("np.concatenate", arrays, y, joined_axis, promoted)

    def concatenate_pullback(dy: Any) -> tuple[Any, ...]:
        return NO, cotangent_arrays(dy), NO, NO

    return y, concatenate_pullback


@frule.register(np.concatenate, ARRAYS)
def concatenate_frule(tangents: tuple[Any, ...], arrays: Any, axis: Any = 0, out: Any = None, *,
                      dtype: Any = None, casting: Any = "same_kind") -> tuple[Any, Any]:
    """Forward rule of ``np.concatenate``: the tangents concatenated.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent, Tangent, ZeroTangent
    >>> dx = Tangent(list, np.ones(2), ZeroTangent())
    >>> frule((NoTangent(), dx), np.concatenate, [np.zeros(2), np.zeros(1)])[1]
    array([1., 1., 0.])
    """
    reject_out(np.concatenate, out)
    y = np.concatenate(arrays, axis, dtype=dtype, casting=casting)
    return y, _join_tangents(lambda t: np.concatenate(t, axis), tangents[1], arrays, y)


@sample_inputs(np.concatenate)
def _concatenate_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield from with_dtypes(Sample([normal(rng, 2, 3), normal(rng, 1, 3)], label="a list of two"))
    yield Sample((normal(rng, 2, 1), normal(rng, 2, 2)), 1, label="a tuple, axis by position")
    yield Sample([normal(rng, 2, 2), normal(rng, 3)], fkwargs={"axis": None}, label="flattened, by keyword")
    yield Sample(normal(rng, 2, 3), label="an ndarray (its rows)")
    yield Sample([normal(rng, 2), np.arange(2), normal(rng, 0)], label="with integers and an empty array")


# ---- np.stack ---------------------------------------------------------------------------------------
@rrule.register(np.stack, ARRAYS)
def stack_rrule(arrays: Any, axis: Any = 0, out: Any = None, *, dtype: Any = None,
                casting: Any = "same_kind") -> tuple[Any, Pullback]:
    """Reverse rule of ``np.stack``: the cotangent unstacked along the new axis.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> y, pb = rrule(np.stack, (np.zeros(2), 1.0 + np.zeros(2)), 1)
    >>> pb(np.arange(4.0).reshape(2, 2))[1]
    Tangent(tuple, array([0., 2.]), array([1., 3.]))
    """
    reject_out(np.stack, out)
    y = np.stack(arrays, axis, dtype=dtype, casting=casting)
    elements = _elements(arrays)
    new_axis = normalize_axis_index(axis, y.ndim)
    promoted = [np.shape(np.expand_dims(e, new_axis)) for e in elements]
    cotangent_arrays = _joined_cotangent("np.stack", arrays, y, new_axis, promoted)

    def stack_pullback(dy: Any) -> tuple[Any, ...]:
        return NO, cotangent_arrays(dy), NO, NO

    return y, stack_pullback


@frule.register(np.stack, ARRAYS)
def stack_frule(tangents: tuple[Any, ...], arrays: Any, axis: Any = 0, out: Any = None, *,
                dtype: Any = None, casting: Any = "same_kind") -> tuple[Any, Any]:
    """Forward rule of ``np.stack``: the tangents stacked.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> frule((NoTangent(), [np.ones(2), np.zeros(2)]), np.stack, [np.zeros(2), np.zeros(2)])[1]
    array([[1., 1.],
           [0., 0.]])
    """
    reject_out(np.stack, out)
    y = np.stack(arrays, axis, dtype=dtype, casting=casting)
    return y, _join_tangents(lambda t: np.stack(t, axis), tangents[1], arrays, y)


@sample_inputs(np.stack)
def _stack_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield from with_dtypes(Sample([normal(rng, 2, 3), normal(rng, 2, 3)], label="a list of two"))
    yield Sample((normal(rng, 2), normal(rng, 2), normal(rng, 2)), -1, label="a tuple, last axis")
    yield Sample([1.5, 2.5], fkwargs={"axis": 0}, label="numbers, by keyword")


# ---- np.hstack, np.vstack, np.row_stack, np.dstack, np.column_stack ---------------------------------------
def _promoted(tup: Any, promote: Callable[[Any], np.ndarray]) -> list[tuple[int, ...]]:
    return [promote(e).shape for e in _elements(tup)]


def _hstack_axis(promoted: list[tuple[int, ...]]) -> int:
    return 0 if promoted and len(promoted[0]) == 1 else 1


def _column(v: Any) -> np.ndarray:
    """An element as ``np.column_stack`` joins it: 1-d (and 0-d) arrays become columns."""
    arr = np.asarray(v)
    return np.array(arr, copy=None, ndmin=2).T if arr.ndim < 2 else arr


_STACKERS: dict[Any, tuple[str, Callable[[Any], np.ndarray], Callable[[list[tuple[int, ...]]], int]]] = {
    np.hstack: ("np.hstack", np.atleast_1d, _hstack_axis),
    np.vstack: ("np.vstack", np.atleast_2d, lambda promoted: 0),
    np.dstack: ("np.dstack", np.atleast_3d, lambda promoted: 2),
    np.column_stack: ("np.column_stack", _column, lambda promoted: 1),
}


def _stacker_rrule(f: Any, tup: Any, kwargs: dict[str, Any]) -> tuple[Any, Callable[[Any], Any]]:
    name, promote, axis_of = _STACKERS[f]
    y = f(tup, **kwargs)
    promoted = _promoted(tup, promote)
    return y, _joined_cotangent(name, tup, y, axis_of(promoted), promoted)


def _stacker_frule(f: Any, tangents: tuple[Any, ...], tup: Any, kwargs: dict[str, Any]) -> tuple[Any, Any]:
    y = f(tup, **kwargs)
    return y, _join_tangents(f, tangents[1], tup, y)


def _dtype_kwargs(dtype: Any, casting: Any) -> dict[str, Any]:
    return {"dtype": dtype, "casting": casting}


@rrule.register(np.hstack, ARRAYS)
def hstack_rrule(tup: Any, *, dtype: Any = None, casting: Any = "same_kind") -> tuple[Any, Pullback]:
    """Reverse rule of ``np.hstack``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> y, pb = rrule(np.hstack, [np.zeros((2, 1)), np.zeros((2, 2))])
    >>> [piece.shape for piece in pb(np.ones((2, 3)))[1]]
    [(2, 1), (2, 2)]
    """
    y, cotangent_tup = _stacker_rrule(np.hstack, tup, _dtype_kwargs(dtype, casting))

    def hstack_pullback(dy: Any) -> tuple[Any, ...]:
        return NO, cotangent_tup(dy)

    return y, hstack_pullback


@frule.register(np.hstack, ARRAYS)
def hstack_frule(tangents: tuple[Any, ...], tup: Any, *, dtype: Any = None,
                 casting: Any = "same_kind") -> tuple[Any, Any]:
    """Forward rule of ``np.hstack``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> frule((NoTangent(), [np.ones(1), np.zeros(1)]), np.hstack, [np.zeros(1), np.zeros(1)])[1]
    array([1., 0.])
    """
    return _stacker_frule(np.hstack, tangents, tup, _dtype_kwargs(dtype, casting))


@sample_inputs(np.hstack, np.vstack, np.dstack, np.column_stack)
def _stacker_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield from with_dtypes(Sample([normal(rng, 2, 2), normal(rng, 2, 2)], label="matrices"))
    yield Sample((normal(rng, 3), normal(rng, 3)), label="vectors")
    yield Sample([normal(rng, 2, 2, 1), normal(rng, 2, 2, 1)], label="3-d")


@rrule.register(np.vstack, ARRAYS)
def vstack_rrule(tup: Any, *, dtype: Any = None, casting: Any = "same_kind") -> tuple[Any, Pullback]:
    """Reverse rule of ``np.vstack``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> y, pb = rrule(np.vstack, [np.zeros(2), np.zeros((2, 2))])
    >>> [piece.shape for piece in pb(np.ones((3, 2)))[1]]
    [(2,), (2, 2)]
    """
    y, cotangent_tup = _stacker_rrule(np.vstack, tup, _dtype_kwargs(dtype, casting))

    def vstack_pullback(dy: Any) -> tuple[Any, ...]:
        return NO, cotangent_tup(dy)

    return y, vstack_pullback


@frule.register(np.vstack, ARRAYS)
def vstack_frule(tangents: tuple[Any, ...], tup: Any, *, dtype: Any = None,
                 casting: Any = "same_kind") -> tuple[Any, Any]:
    """Forward rule of ``np.vstack``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> frule((NoTangent(), [np.ones(2), np.zeros(2)]), np.vstack, [np.zeros(2), np.zeros(2)])[1]
    array([[1., 1.],
           [0., 0.]])
    """
    return _stacker_frule(np.vstack, tangents, tup, _dtype_kwargs(dtype, casting))


with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    _row_stack: Any = getattr(np, "row_stack", None)


if _row_stack is not None:

    @rrule.register(_row_stack, ARRAYS)
    def row_stack_rrule(tup: Any, *, dtype: Any = None, casting: Any = "same_kind") -> tuple[Any, Pullback]:
        """Reverse rule of the deprecated ``np.row_stack`` (``np.vstack``'s, after NumPy's warning).

        Examples
        --------
        >>> import warnings
        >>> import numpy as np
        >>> from chainrules import rrule
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter("ignore", DeprecationWarning)
        ...     y, pb = rrule(np.row_stack, [np.zeros(2), np.zeros(2)])
        >>> y.shape
        (2, 2)
        """
        y = _row_stack(tup, dtype=dtype, casting=casting)
        _, cotangent_tup = _stacker_rrule(np.vstack, tup, _dtype_kwargs(dtype, casting))

        def row_stack_pullback(dy: Any) -> tuple[Any, ...]:
            return NO, cotangent_tup(read_cotangent(dy, y, "np.row_stack"))

        return y, row_stack_pullback

    @frule.register(_row_stack, ARRAYS)
    def row_stack_frule(tangents: tuple[Any, ...], tup: Any, *, dtype: Any = None,
                        casting: Any = "same_kind") -> tuple[Any, Any]:
        """Forward rule of the deprecated ``np.row_stack``.

        Examples
        --------
        >>> import warnings
        >>> import numpy as np
        >>> from chainrules import frule, NoTangent
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter("ignore", DeprecationWarning)
        ...     frule((NoTangent(), [np.ones(1)]), np.row_stack, [np.zeros(1)])[1]
        array([[1.]])
        """
        y = _row_stack(tup, dtype=dtype, casting=casting)
        return y, _join_tangents(np.vstack, tangents[1], tup, y)


    @sample_inputs(_row_stack)
    def _row_stack_samples(rng: np.random.Generator) -> Iterator[Sample]:
        yield Sample([normal(rng, 2), normal(rng, 2)], label="vectors")


@rrule.register(np.dstack, ARRAYS)
def dstack_rrule(tup: Any) -> tuple[Any, Pullback]:
    """Reverse rule of ``np.dstack``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> y, pb = rrule(np.dstack, [np.zeros(2), np.zeros(2)])
    >>> [piece.shape for piece in pb(np.ones((1, 2, 2)))[1]]
    [(2,), (2,)]
    """
    y, cotangent_tup = _stacker_rrule(np.dstack, tup, {})

    def dstack_pullback(dy: Any) -> tuple[Any, ...]:
        return NO, cotangent_tup(dy)

    return y, dstack_pullback


@frule.register(np.dstack, ARRAYS)
def dstack_frule(tangents: tuple[Any, ...], tup: Any) -> tuple[Any, Any]:
    """Forward rule of ``np.dstack``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> frule((NoTangent(), [np.ones(1), np.zeros(1)]), np.dstack, [np.zeros(1), np.zeros(1)])[1]
    array([[[1., 0.]]])
    """
    return _stacker_frule(np.dstack, tangents, tup, {})


@rrule.register(np.column_stack, ARRAYS)
def column_stack_rrule(tup: Any) -> tuple[Any, Pullback]:
    """Reverse rule of ``np.column_stack``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> y, pb = rrule(np.column_stack, [np.zeros(2), np.zeros((2, 2))])
    >>> [piece.shape for piece in pb(np.ones((2, 3)))[1]]
    [(2,), (2, 2)]
    """
    y, cotangent_tup = _stacker_rrule(np.column_stack, tup, {})

    def column_stack_pullback(dy: Any) -> tuple[Any, ...]:
        return NO, cotangent_tup(dy)

    return y, column_stack_pullback


@frule.register(np.column_stack, ARRAYS)
def column_stack_frule(tangents: tuple[Any, ...], tup: Any) -> tuple[Any, Any]:
    """Forward rule of ``np.column_stack``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> frule((NoTangent(), [np.ones(2), np.zeros(2)]), np.column_stack, [np.zeros(2), np.zeros(2)])[1]
    array([[1., 0.],
           [1., 0.]])
    """
    return _stacker_frule(np.column_stack, tangents, tup, {})


# ---- np.block ---------------------------------------------------------------------------------------
def _index_blocks(arrays: Any, offset: list[int]) -> Any:
    """``arrays`` with every leaf replaced by the flat positions of its entries (:func:`index_grid`)."""
    if isinstance(arrays, list):
        return [_index_blocks(e, offset) for e in arrays]
    shape = np.shape(arrays)
    grid = index_grid(shape, offset[0])
    offset[0] += grid.size
    return grid


def _leaf_cotangents(arrays: Any, flat: np.ndarray, offset: list[int]) -> Any:
    """The cotangents of the leaves of ``arrays``: consecutive pieces of ``flat``, reshaped."""
    if isinstance(arrays, list):
        return [_leaf_cotangents(e, flat, offset) for e in arrays]
    shape = np.shape(arrays)
    size = int(np.prod(shape, dtype=np.int64))
    piece = flat[offset[0]:offset[0] + size].reshape(shape)
    offset[0] += size
    return piece


@rrule.register(np.block, ARRAY_LIKE)
def block_rrule(arrays: Any) -> tuple[Any, Pullback]:
    """Reverse rule of ``np.block``: each block's entries of the cotangent, in its shape.

    ``np.block`` places every entry of every block exactly once, so the pullback assembles
    the blocks' positions once (``np.block`` of index arrays) and reads the cotangent there.
    The cotangent of the nested list is a nested ``Tangent(list, ...)``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> y, pb = rrule(np.block, [[np.zeros((1, 1)), np.zeros((1, 2))]])
    >>> pb(np.array([[1.0, 2.0, 3.0]]))[1]
    Tangent(list, Tangent(list, array([[1.]]), array([[2., 3.]])))
    """
    y = np.block(arrays)
    project_arrays = cotangent_projector(arrays)

    def read_blocks(dy: np.ndarray) -> Any:
        positions = np.block(_index_blocks(arrays, [0]))
        flat = np.empty(dy.size, dtype=dy.dtype)
        flat[positions.ravel()] = dy.ravel()
        return project_arrays(_leaf_cotangents(arrays, flat, [0]))

    cotangent_arrays = input_cotangent("np.block", differentiable(arrays), y, read_blocks)

    def block_pullback(dy: Any) -> tuple[Any, ...]:
        return NO, cotangent_arrays(dy)

    return y, block_pullback


@frule.register(np.block, ARRAY_LIKE)
def block_frule(tangents: tuple[Any, ...], arrays: Any) -> tuple[Any, Any]:
    """Forward rule of ``np.block``: the blocks' tangents assembled the same way.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent, ZeroTangent, Tangent
    >>> frule((NoTangent(), Tangent(list, np.ones(1), ZeroTangent())), np.block, [np.zeros(1), np.zeros(2)])[1]
    array([1., 0., 0.])
    """
    y = np.block(arrays)
    return y, _join_tangents(np.block, tangents[1], arrays, y)


@sample_inputs(np.block)
def _block_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield from with_dtypes(Sample([[normal(rng, 2, 2), normal(rng, 2, 1)], [normal(rng, 1, 3)]], label="2 x 2 blocks"))
    yield Sample([normal(rng, 2), 1.5], label="a vector and a number")
    yield Sample(normal(rng, 2, 2), label="one array")


# ---- np.append --------------------------------------------------------------------------------------
@rrule.register(np.append, ARRAY_LIKE, ARRAY_LIKE)
def append_rrule(arr: Any, values: Any, axis: Any = None) -> tuple[Any, Pullback]:
    """Reverse rule of ``np.append``: the cotangent cut into the parts of ``arr`` and ``values``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> y, pb = rrule(np.append, np.zeros((1, 2)), [3.0])
    >>> pb(np.array([1.0, 2.0, 3.0]))[1:]
    (array([[1., 2.]]), Tangent(list, 3.0))
    """
    y = np.append(arr, values, axis)
    parts = (arr, values)
    if axis is None:
        joined_axis, promoted = 0, [(np.size(arr),), (np.size(values),)]
    else:
        joined_axis, promoted = normalize_axis_index(axis, np.ndim(arr)), [np.shape(arr), np.shape(values)]
    cotangent_parts = _joined_cotangent("np.append", list(parts), y, joined_axis, promoted)
    project_arr, project_values = cotangent_projector(arr), cotangent_projector(values)

    def append_pullback(dy: Any) -> tuple[Any, ...]:
        dy = read_cotangent(dy, y, "np.append")
        if passes_through(dy):
            zero = zero_result(dy)
            return NO, project_arr(zero), project_values(zero), NO
        both = cotangent_parts(dy)
        if not differentiable(list(parts)):
            return NO, NO, NO, NO
        return NO, both[0], both[1], NO

    return y, append_pullback


@frule.register(np.append, ARRAY_LIKE, ARRAY_LIKE)
def append_frule(tangents: tuple[Any, ...], arr: Any, values: Any, axis: Any = None) -> tuple[Any, Any]:
    """Forward rule of ``np.append``: the tangents appended the same way.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent, ZeroTangent
    >>> frule((NoTangent(), np.ones(2), ZeroTangent()), np.append, np.zeros(2), 1.0)[1]
    array([1., 1., 0.])
    """
    y = np.append(arr, values, axis)
    if not differentiable(y):
        return y, NO
    d_arr = tangent_array(tangents[1], arr) if differentiable(arr) else None
    d_values = tangent_array(tangents[2], values) if differentiable(values) else None
    missing = any_not_implemented(d_arr, d_values)
    if missing is not None or (d_arr is None and d_values is None):
        return y, output_tangent(missing, y)
    dtype = y.dtype
    d_arr = np.zeros(np.shape(arr), dtype) if d_arr is None else d_arr
    d_values = np.zeros(np.shape(values), dtype) if d_values is None else d_values
    return y, output_tangent(np.append(d_arr, d_values, axis), y)


@sample_inputs(np.append)
def _append_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield from with_dtypes(Sample(normal(rng, 2, 2), normal(rng, 3), label="flattened"))
    yield Sample(normal(rng, 2, 2), normal(rng, 1, 2), 0, label="a row, axis by position")
    yield Sample(normal(rng, 2, 2), [[1.5], [2.5]], fkwargs={"axis": 1}, label="a nested list, axis by keyword")



# ---- np.bmat ----------------------------------------------------------------------------------------
@rrule.register(np.bmat, list)
def bmat_rrule(obj: Any, ldict: Any = None, gdict: Any = None) -> tuple[Any, Pullback]:
    """Reverse rule of ``np.bmat`` of a (nested) list of blocks: ``np.block``'s, as a matrix.

    A string ``obj`` names its blocks in the caller's frames: no rule (the names carry no
    tangents).

    Examples
    --------
    >>> import warnings
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore", PendingDeprecationWarning)  # NumPy discourages np.matrix
    ...     y, pb = rrule(np.bmat, [[np.zeros((1, 1)), np.ones((1, 1))]])
    >>> pb(np.array([[1.0, 2.0]]))[1]
    Tangent(list, Tangent(list, array([[1.]]), array([[2.]])))
    """
    y = np.bmat(obj, ldict, gdict)
    blocks = [[np.asarray(b) for b in row] for row in obj] if obj and isinstance(obj[0], list) else \
        [np.asarray(b) for b in obj]
    _, pullback = block_rrule(blocks)
    project_obj = cotangent_projector(obj)

    def bmat_pullback(dy: Any) -> tuple[Any, ...]:
        dy = read_cotangent(dy, y, "np.bmat")
        d = pullback(dy if passes_through(dy) else np.asarray(dy))[1]  # a matrix cotangent as an ndarray
        return NO, d if passes_through(d) else project_obj(d), NO, NO

    return y, bmat_pullback


@frule.register(np.bmat, list)
def bmat_frule(tangents: tuple[Any, ...], obj: Any, ldict: Any = None, gdict: Any = None) -> tuple[Any, Any]:
    """Forward rule of ``np.bmat``: the blocks' tangents assembled the same way (as an ndarray).

    Examples
    --------
    >>> import warnings
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> blocks, tangents = [np.zeros((1, 1)), np.zeros((1, 1))], [np.ones((1, 1)), np.zeros((1, 1))]
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore", PendingDeprecationWarning)
    ...     frule((NoTangent(), tangents), np.bmat, blocks)[1]
    array([[1., 0.]])
    """
    y = np.bmat(obj, ldict, gdict)
    return y, _join_tangents(lambda t: np.asarray(np.bmat(t)), tangents[1], obj, y)


@sample_inputs(np.bmat)
def _bmat_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample([[normal(rng, 1, 2), normal(rng, 1, 1)], [normal(rng, 2, 3)]], label="nested blocks")
    yield Sample([normal(rng, 2, 1), normal(rng, 2, 2)], label="one row of blocks")
