"""Rules of indexing: ``x[index]`` on ndarrays (and on tuples and lists), and ``x.item(...)``.

``x[index]`` calls ``type(x).__getitem__(x, index)``; an AD system records it as
``operator.getitem(x, index)`` or as ``np.ndarray.__getitem__(x, index)`` (the rule of a
bound method ``x.__getitem__`` is found through the latter). Both have the same rules
here, for every index NumPy accepts: integers, slices, ``Ellipsis``, ``None``/
``np.newaxis``, integer arrays and lists, boolean arrays, and tuples mixing them.

The maths
---------
Indexing gathers entries, so it is linear in ``x``: the frule indexes the tangent the
same way (a read-only view for a basic index), and the pullback adds the output
cotangent into the entries that were read. An entry read several times (a repeated
integer index, ``x[[0, 0]]``) receives the **sum** of its cotangents (``np.add.at``),
never only the last one. The index is not differentiated (``NoTangent()``).

The cotangent: add into an accumulator, never a dense zeros array
-----------------------------------------------------------------
The cotangent of ``x`` is an :class:`~chainrules_core.InplaceableThunk`. An AD system that
accumulates with ``add_(acc, cotangent)`` (``acc`` a writable float array of ``x``'s
shape) gets the cotangent added into the entries read, in place: reading one entry
costs O(1), not O(``x.size``), so ``k`` scalar reads of an ``n``-vector cost O(k) to
differentiate instead of O(k n) (``benchmarks/test_indexing.py`` measures it). A basic
index adds with ``acc[index] += dy``; an advanced one with ``np.add.at``. Only
``unthunk`` builds the dense cotangent (zeros of ``x``'s shape and dtype, then the same
addition).

Tuples and lists
----------------
``operator.getitem(t, i)`` of a tuple or list with an integer or a slice has a
structural cotangent ``Tangent(tuple, ...)`` (or ``Tangent(list, ...)``): the output
cotangent at the position(s) read and ``ZeroTangent()`` elsewhere.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from chainrules.rulesets.arrays._linear_maps import (
    NO,
    ZERO,
    output_tangent,
    read_nested_cotangent,
    tangent_array,
    zero_result,
)
from chainrules.rulesets.arrays._sample_arrays import normal, with_dtypes
from chainrules_core import (
    AbstractZero,
    InplaceableThunk,
    NoTangent,
    NotImplementedTangent,
    Sample,
    Tangent,
    Thunk,
    Varargs,
    backing,
    cotangent_projector,
    differentiable,
    frule,
    passes_through,
    read_cotangent,
    rrule,
    sample_inputs,
    unthunk,
)

Pullback = Callable[[Any], tuple[Any, ...]]


def _basic_part(p: Any) -> bool:
    if p is None or p is Ellipsis or type(p) is slice:
        return True
    return isinstance(p, (int, np.integer)) and not isinstance(p, (bool, np.bool_))


def is_basic_index(index: Any) -> bool:
    """Whether ``x[index]`` is basic indexing: every entry is read at most once (a view).

    Integers, slices, ``Ellipsis`` and ``None``, alone or in a tuple, are basic; lists,
    arrays and booleans are advanced (they may repeat entries).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.arrays.indexing import is_basic_index
    >>> is_basic_index((0, slice(1, None), None, Ellipsis)), is_basic_index([0, 0]), is_basic_index(True)
    (True, False, False)
    """
    if type(index) is tuple:
        return all(_basic_part(p) for p in index)
    return _basic_part(index)


class _IndexCotangent:
    """The cotangent of ``x`` for ``y = x[index]``: adds ``dy`` into the entries read."""

    __slots__ = ("basic", "dtype", "dy", "index", "shape")

    def __init__(self, index: Any, basic: bool, dy: Any, shape: tuple[int, ...], dtype: np.dtype) -> None:
        self.index = index
        self.basic = basic
        self.dy = dy
        self.shape = shape
        self.dtype = dtype

    def add_into(self, acc: np.ndarray) -> np.ndarray:
        """Add the cotangent into ``acc`` in place (the ``add_fn`` of the ``InplaceableThunk``)."""
        if self.basic:
            acc[self.index] += self.dy
        else:
            np.add.at(acc, self.index, self.dy)
        return acc

    def dense(self) -> np.ndarray:
        """The cotangent as an array: zeros of ``x``'s shape and tangent dtype, with ``dy`` added."""
        return self.add_into(np.zeros(self.shape, dtype=self.dtype))


def _getitem_rules(x: np.ndarray, index: Any, name: str) -> tuple[Any, Callable[[Any], Any]]:
    """``x[index]`` and the function from its cotangent to the cotangent of ``x``."""
    y = x[index]
    dtype = x.dtype
    if dtype.kind not in "fc":

        def integer_cotangent(dy: Any) -> Any:
            read_cotangent(dy, y, name)
            return NO

        return y, integer_cotangent
    basic = type(index) is int or is_basic_index(index)
    real = dtype.kind == "f"
    shape = x.shape
    scalar = isinstance(y, np.generic)  # a 0-d output (every axis indexed by an integer)

    def index_cotangent(dy: Any) -> Any:
        # A float for a scalar read is what read_cotangent accepts first; it is checked inline because this
        # pullback runs once per scalar read x[i] (a read through read_cotangent costs about 2 us).
        if not (scalar and type(dy) is float):
            dy = read_cotangent(dy, y, name)
            if passes_through(dy):
                return zero_result(dy)
            if real and np.iscomplexobj(dy):
                dy = np.real(dy)
        parts = _IndexCotangent(index, basic, dy, shape, dtype)
        return InplaceableThunk(parts.add_into, Thunk(parts.dense))

    return y, index_cotangent


def _getitem_tangent(dx: Any, x: np.ndarray, index: Any, y: Any) -> Any:
    if not differentiable(y):
        return NO
    value = tangent_array(dx, x)
    if value is None or isinstance(value, NotImplementedTangent):
        return output_tangent(value, y)
    taken = value[index]
    if isinstance(taken, np.ndarray) and np.may_share_memory(taken, value):
        taken = taken.view()
        taken.flags.writeable = False
    return output_tangent(taken, y)


# ---- operator.getitem, ndarray.__getitem__ ---------------------------------------------------------------
@rrule.register(operator.getitem, np.ndarray, object)
def getitem_rrule(x: np.ndarray, index: Any) -> tuple[Any, Pullback]:
    """Reverse rule of ``x[index]`` (``operator.getitem``): the cotangent added into the entries read.

    Examples
    --------
    >>> import operator
    >>> import numpy as np
    >>> from chainrules import rrule, add_, unthunk
    >>> x = np.arange(4.0)
    >>> y, pb = rrule(operator.getitem, x, [1, 1, 3])
    >>> dx = pb(np.array([1.0, 2.0, 3.0]))[1]
    >>> unthunk(dx)                      # the repeated index accumulates
    array([0., 3., 0., 3.])
    >>> acc = np.zeros(4)
    >>> add_(acc, dx) is acc             # added in place, no dense temporary
    True
    """
    y, cotangent_x = _getitem_rules(x, index, "operator.getitem (x[index])")

    def getitem_pullback(dy: Any) -> tuple[Any, ...]:
        return NO, cotangent_x(dy), NO

    return y, getitem_pullback


@frule.register(operator.getitem, np.ndarray, object)
def getitem_frule(tangents: tuple[Any, ...], x: np.ndarray, index: Any) -> tuple[Any, Any]:
    """Forward rule of ``x[index]``: the tangent indexed the same way.

    Examples
    --------
    >>> import operator
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> frule((NoTangent(), np.arange(3.0), NoTangent()), operator.getitem, np.zeros(3), slice(1, None))[1]
    array([1., 2.])
    """
    y = x[index]
    return y, _getitem_tangent(tangents[1], x, index, y)


@rrule.register(np.ndarray.__getitem__, np.ndarray, object)
def ndarray_getitem_rrule(x: np.ndarray, index: Any) -> tuple[Any, Pullback]:
    """Reverse rule of ``np.ndarray.__getitem__`` (also reached by ``rrule(x.__getitem__, index)``).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule, unthunk
    >>> x = np.zeros((2, 2))
    >>> unthunk(rrule(x.__getitem__, (0, 1))[1](5.0)[1])
    array([[0., 5.],
           [0., 0.]])
    """
    y, cotangent_x = _getitem_rules(x, index, "ndarray.__getitem__")

    def ndarray_getitem_pullback(dy: Any) -> tuple[Any, ...]:
        return NO, cotangent_x(dy), NO

    return y, ndarray_getitem_pullback


@frule.register(np.ndarray.__getitem__, np.ndarray, object)
def ndarray_getitem_frule(tangents: tuple[Any, ...], x: np.ndarray, index: Any) -> tuple[Any, Any]:
    """Forward rule of ``np.ndarray.__getitem__``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> frule((NoTangent(), np.eye(2), NoTangent()), np.ndarray.__getitem__, np.zeros((2, 2)), (Ellipsis, 0))[1]
    array([1., 0.])
    """
    y = x[index]
    return y, _getitem_tangent(tangents[1], x, index, y)


def _index(index: Any) -> Any:
    """An index argument held fixed (an index has no tangent: ``NoTangent()``)."""
    from chainrules.testing import PrimalAndTangent

    return PrimalAndTangent(index, NoTangent())


@sample_inputs(operator.getitem, np.ndarray.__getitem__)
def _getitem_samples(rng: np.random.Generator) -> Iterator[Sample]:
    x = normal(rng, 3, 4)
    yield from with_dtypes(Sample(x, _index((1, 2)), label="integers: 0-d output"))
    yield Sample(x, _index(-1), label="a negative integer: a row")
    yield Sample(x, _index((slice(None, None, 2), slice(1, None))), label="slices")
    yield Sample(x, _index((Ellipsis, None, 0)), label="Ellipsis and newaxis")
    yield Sample(x, _index([0, 0, 2]), label="an integer list with repeats")
    yield Sample(x, _index((np.array([[1, 1], [0, 2]]), slice(1, 3))), label="an integer array and a slice")
    yield Sample(x, _index((np.array([0, 2]), Ellipsis, np.array([3, 3]))), label="advanced, split by Ellipsis")
    yield Sample(x, _index(x > 0), label="a boolean mask")
    yield Sample(x, _index((np.array([True, False, True]), [1, 1])), label="a boolean axis and repeats")
    yield Sample(x, _index((slice(0, 0),)), label="an empty slice")
    yield Sample(normal(rng, dtype=np.float64), _index(()), label="0-d with the empty tuple")
    yield Sample(np.arange(4.0).reshape(2, 2).astype(np.int64), _index(1), label="integers (not differentiated)")


# ---- ndarray.item ---------------------------------------------------------------------------------------
def _item_index(x: np.ndarray, args: tuple[Any, ...]) -> Any:
    """The index ``x.item(*args)`` reads: the only entry, a flat position, or a multi-index."""
    if not args:
        return (0,) * x.ndim if x.size == 1 else None
    if len(args) == 1 and not isinstance(args[0], tuple):
        return np.unravel_index(int(args[0]) % x.size, x.shape)
    return tuple(args[0]) if len(args) == 1 else tuple(args)


@rrule.register(np.ndarray.item, np.ndarray, Varargs(object))
def ndarray_item_rrule(x: np.ndarray, *args: Any) -> tuple[Any, Pullback]:
    """Reverse rule of the method ``x.item(*args)`` (a Python number read from one entry).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule, unthunk
    >>> x = np.zeros((2, 2))
    >>> unthunk(rrule(x.item, 3)[1](2.0)[1])
    array([[0., 0.],
           [0., 2.]])
    """
    y = x.item(*args)
    index = _item_index(x, args)
    _, cotangent_x = _getitem_rules(x, index, "ndarray.item")

    def ndarray_item_pullback(dy: Any) -> tuple[Any, ...]:
        return NO, cotangent_x(dy), *(NO,) * len(args)

    return y, ndarray_item_pullback


@frule.register(np.ndarray.item, np.ndarray, Varargs(object))
def ndarray_item_frule(tangents: tuple[Any, ...], x: np.ndarray, *args: Any) -> tuple[Any, Any]:
    """Forward rule of the method ``x.item(*args)``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> x = np.zeros(3)
    >>> frule((NoTangent(), np.arange(3.0), NoTangent()), x.item, 2)[1]
    2.0
    """
    y = x.item(*args)
    if not differentiable(x):
        return y, NO
    value = tangent_array(tangents[1], x)
    if value is None or isinstance(value, NotImplementedTangent):
        return y, output_tangent(value, y)
    return y, value[_item_index(x, args)].item()


@sample_inputs(np.ndarray.item)
def _item_samples(rng: np.random.Generator) -> Iterator[Sample]:
    x = normal(rng, 3, 4)
    yield from with_dtypes(Sample(x, 5, label="a flat position"))
    yield Sample(x, 2, 1, label="a multi-index as integers")
    yield Sample(x, (0, -1), label="a multi-index as a tuple")
    yield Sample(normal(rng, 1, 1), label="the only entry")


# ---- operator.getitem on tuples and lists ------------------------------------------------------------
@rrule.register(operator.getitem, (tuple, list), (int, slice))
def sequence_getitem_rrule(x: Any, index: Any) -> tuple[Any, Pullback]:
    """Reverse rule of ``t[i]`` for a tuple or list: a ``Tangent`` with the cotangent at ``i``.

    Examples
    --------
    >>> import operator
    >>> from chainrules import rrule
    >>> y, pb = rrule(operator.getitem, (1.0, 2.0, 3.0), 1)
    >>> pb(5.0)[1]
    Tangent(tuple, ZeroTangent(), 5.0, ZeroTangent())
    """
    y = x[index]
    project_x = cotangent_projector(x)
    positions = range(len(x))[index]

    def sequence_getitem_pullback(dy: Any) -> tuple[Any, ...]:
        dy = read_nested_cotangent(dy, y, "operator.getitem")
        if passes_through(dy):
            return NO, project_x(zero_result(dy)), NO
        parts: list[Any] = [ZERO] * len(x)
        if isinstance(positions, int):
            parts[positions] = dy
        else:
            for k, v in zip(positions, dy):
                parts[k] = v
        return NO, project_x(parts), NO

    return y, sequence_getitem_pullback


@frule.register(operator.getitem, (tuple, list), (int, slice))
def sequence_getitem_frule(tangents: tuple[Any, ...], x: Any, index: Any) -> tuple[Any, Any]:
    """Forward rule of ``t[i]`` for a tuple or list: the tangent's element(s) at ``i``.

    Examples
    --------
    >>> import operator
    >>> from chainrules import frule, NoTangent, Tangent
    >>> frule((NoTangent(), Tangent(tuple, 1.0, 2.0), NoTangent()), operator.getitem, (0.0, 0.0), -1)[1]
    2.0
    """
    y = x[index]
    dx = unthunk(tangents[1])
    if isinstance(dx, AbstractZero):
        return y, ZERO if differentiable(y) else NO
    parts = backing(dx) if isinstance(dx, Tangent) else tuple(dx)
    picked = parts[index]
    if isinstance(index, slice):
        return y, Tangent(type(x), *picked)
    return y, picked


@sample_inputs(operator.getitem)
def _sequence_getitem_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample((1.5, 2.5, -1.0), 1, label="a tuple of numbers")
    yield Sample([1.5, normal(rng, 2), 3], slice(0, 2), label="a list slice (an array and an int inside)")
    yield Sample((normal(rng, 2), normal(rng, 3).astype(np.float32)), -1, label="a tuple of arrays")
