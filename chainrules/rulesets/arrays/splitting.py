"""Rules of the functions that split an array into pieces.

``np.split``, ``np.array_split``, ``np.hsplit``, ``np.vsplit``, ``np.dsplit`` and
``np.unstack``.

The maths
---------
Splitting is linear: the frule splits the tangent the same way (read-only views of it),
and the pullback is the concatenation (``np.unstack``: the stack) of the pieces'
cotangents along the split axis, with zeros for the pieces that were not used.

The output and its cotangent
----------------------------
The output is a list (``np.split`` and friends) or a tuple (``np.unstack``) of arrays.
Its cotangent may be a ``Tangent(list, ...)``/``Tangent(tuple, ...)``, a list or a tuple
with one entry per piece; an entry may be ``ZeroTangent()`` (or ``NoTangent()``) for a
piece that does not reach the loss, and the whole cotangent may be ``ZeroTangent()``. The
frule returns a ``Tangent`` of the output's type.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
from numpy.lib.array_utils import normalize_axis_index

from chainrules.rulesets.arrays._linear_maps import (
    NO,
    ZERO,
    any_not_implemented,
    cast_like,
    own,
    sequence_output_tangent,
    tangent_array,
    tangent_dtype,
    zero_result,
)
from chainrules.rulesets.arrays._sample_arrays import normal, with_dtypes
from chainrules.rulesets.arrays._signatures import ARRAY_LIKE, REQUIRED, require
from chainrules_core import (
    NotImplementedTangent,
    Sample,
    cotangent_projector,
    differentiable,
    frule,
    read_cotangents,
    rrule,
    sample_inputs,
)

Pullback = Callable[[Any], tuple[Any, ...]]


def _pieces_cotangent(name: str, ary: Any, pieces: Any, axis: int) -> Callable[[Any], Any]:
    """The cotangent of ``ary`` split along ``axis`` into ``pieces``: their cotangents joined."""
    project_ary = cotangent_projector(ary)
    shape = np.shape(ary)
    bounds = np.cumsum([0] + [np.shape(p)[axis] for p in pieces])

    def pieces_cotangent(dy: Any) -> Any:
        parts = read_cotangents(dy, pieces, name)
        if not differentiable(ary):
            return NO
        if not isinstance(parts, list):
            return zero_result(parts)
        missing = any_not_implemented(*parts)
        if missing is not None:
            return missing
        present = [np.asarray(p) for p in parts if p is not None]
        if not present:
            return zero_result(parts)
        dtype = np.result_type(tangent_dtype(ary), *(p.dtype for p in present))
        out = np.zeros(shape, dtype=dtype)
        moved = np.moveaxis(out, axis, 0)
        for part, start, stop in zip(parts, bounds[:-1], bounds[1:]):
            if part is not None:
                moved[start:stop] = np.moveaxis(np.asarray(part), axis, 0)
        return project_ary(cast_like(out, ary))

    return pieces_cotangent


def _split_tangent(dx: Any, ary: Any, pieces: Any, split: Callable[[np.ndarray], Any]) -> Any:
    value = tangent_array(dx, ary) if differentiable(ary) else None
    if isinstance(value, NotImplementedTangent):
        return value
    if value is None:
        return sequence_output_tangent(None, pieces)
    return sequence_output_tangent([own(v, value) for v in split(value)], pieces)


def _split_rules(f: Any, name: str, ary: Any, indices_or_sections: Any, axis_of: Callable[[int], int],
                 args: tuple[Any, ...]) -> tuple[Any, Callable[[Any], Any]]:
    y = f(ary, indices_or_sections, *args)
    return y, _pieces_cotangent(name, ary, y, axis_of(np.ndim(ary)))


def _axis(axis: Any) -> Callable[[int], int]:
    def split_axis(ndim: int) -> int:
        return normalize_axis_index(axis, ndim)

    return split_axis


def _hsplit_axis(ndim: int) -> int:
    return 1 if ndim > 1 else 0


def _vsplit_axis(ndim: int) -> int:
    return 0


def _dsplit_axis(ndim: int) -> int:
    return 2


# ---- np.split, np.array_split -----------------------------------------------------------------------
@rrule.register(np.split, ARRAY_LIKE)
def split_rrule(ary: Any, indices_or_sections: Any = REQUIRED, axis: Any = 0) -> tuple[Any, Pullback]:
    """Reverse rule of ``np.split``: the pieces' cotangents concatenated (zeros for unused pieces).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule, ZeroTangent
    >>> y, pb = rrule(np.split, np.zeros(4), 2)
    >>> pb([ZeroTangent(), np.ones(2)])[1]
    array([0., 0., 1., 1.])
    """
    require("split", indices_or_sections=indices_or_sections)
    y, cotangent_ary = _split_rules(np.split, "np.split", ary, indices_or_sections, _axis(axis), (axis,))

    def split_pullback(dy: Any) -> tuple[Any, ...]:
        return NO, cotangent_ary(dy), NO, NO

    return y, split_pullback


@frule.register(np.split, ARRAY_LIKE)
def split_frule(tangents: tuple[Any, ...], ary: Any, indices_or_sections: Any = REQUIRED,
                axis: Any = 0) -> tuple[Any, Any]:
    """Forward rule of ``np.split``: the tangent split the same way.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> frule((NoTangent(), np.arange(4.0), NoTangent()), np.split, np.zeros(4), 2)[1]
    Tangent(list, array([0., 1.]), array([2., 3.]))
    """
    require("split", indices_or_sections=indices_or_sections)
    y = np.split(ary, indices_or_sections, axis)
    return y, _split_tangent(tangents[1], ary, y, lambda v: np.split(v, indices_or_sections, axis))


@sample_inputs(np.split)
def _split_samples(rng: np.random.Generator) -> Iterator[Sample]:
    x = normal(rng, 4, 3)
    yield from with_dtypes(Sample(x, 2, label="equal sections"))
    yield Sample(x, [1, 3], 0, label="at indices, axis by position")
    yield Sample(x, fkwargs={"indices_or_sections": [2, 2], "axis": 1}, label="an empty piece, by keyword")


@rrule.register(np.array_split, ARRAY_LIKE)
def array_split_rrule(ary: Any, indices_or_sections: Any = REQUIRED, axis: Any = 0) -> tuple[Any, Pullback]:
    """Reverse rule of ``np.array_split`` (pieces of unequal lengths).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> y, pb = rrule(np.array_split, np.zeros(3), 2)
    >>> pb((np.ones(2), 2.0 * np.ones(1)))[1]
    array([1., 1., 2.])
    """
    require("array_split", indices_or_sections=indices_or_sections)
    y, cotangent_ary = _split_rules(np.array_split, "np.array_split", ary, indices_or_sections, _axis(axis),
                                    (axis,))

    def array_split_pullback(dy: Any) -> tuple[Any, ...]:
        return NO, cotangent_ary(dy), NO, NO

    return y, array_split_pullback


@frule.register(np.array_split, ARRAY_LIKE)
def array_split_frule(tangents: tuple[Any, ...], ary: Any, indices_or_sections: Any = REQUIRED,
                      axis: Any = 0) -> tuple[Any, Any]:
    """Forward rule of ``np.array_split``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> frule((NoTangent(), np.arange(3.0), NoTangent()), np.array_split, np.zeros(3), 2)[1]
    Tangent(list, array([0., 1.]), array([2.]))
    """
    require("array_split", indices_or_sections=indices_or_sections)
    y = np.array_split(ary, indices_or_sections, axis)
    return y, _split_tangent(tangents[1], ary, y, lambda v: np.array_split(v, indices_or_sections, axis))


@sample_inputs(np.array_split)
def _array_split_samples(rng: np.random.Generator) -> Iterator[Sample]:
    x = normal(rng, 5, 2)
    yield Sample(x[:4], 2, label="equal sections")
    yield from with_dtypes(Sample(x, 3, label="unequal sections"))
    yield Sample(x, [2], 1, label="at an index along axis 1")


# ---- np.hsplit, np.vsplit, np.dsplit ---------------------------------------------------------------------
@rrule.register(np.hsplit, ARRAY_LIKE)
def hsplit_rrule(ary: Any, indices_or_sections: Any = REQUIRED) -> tuple[Any, Pullback]:
    """Reverse rule of ``np.hsplit`` (the second axis; the first of a 1-d array).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> y, pb = rrule(np.hsplit, np.zeros((1, 2)), 2)
    >>> pb([np.ones((1, 1)), np.ones((1, 1))])[1]
    array([[1., 1.]])
    """
    require("hsplit", indices_or_sections=indices_or_sections)
    y, cotangent_ary = _split_rules(np.hsplit, "np.hsplit", ary, indices_or_sections, _hsplit_axis, ())

    def hsplit_pullback(dy: Any) -> tuple[Any, ...]:
        return NO, cotangent_ary(dy), NO

    return y, hsplit_pullback


@frule.register(np.hsplit, ARRAY_LIKE)
def hsplit_frule(tangents: tuple[Any, ...], ary: Any, indices_or_sections: Any = REQUIRED) -> tuple[Any, Any]:
    """Forward rule of ``np.hsplit``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> frule((NoTangent(), np.ones((1, 2)), NoTangent()), np.hsplit, np.zeros((1, 2)), 2)[1]
    Tangent(list, array([[1.]]), array([[1.]]))
    """
    require("hsplit", indices_or_sections=indices_or_sections)
    y = np.hsplit(ary, indices_or_sections)
    return y, _split_tangent(tangents[1], ary, y, lambda v: np.hsplit(v, indices_or_sections))


@sample_inputs(np.hsplit)
def _hsplit_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield from with_dtypes(Sample(normal(rng, 2, 4), 2, label="matrix"))
    yield Sample(normal(rng, 4), [1], label="vector (axis 0)")


@rrule.register(np.vsplit, ARRAY_LIKE)
def vsplit_rrule(ary: Any, indices_or_sections: Any = REQUIRED) -> tuple[Any, Pullback]:
    """Reverse rule of ``np.vsplit`` (the first axis).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule, ZeroTangent
    >>> y, pb = rrule(np.vsplit, np.zeros((2, 1)), 2)
    >>> pb([np.ones((1, 1)), ZeroTangent()])[1]
    array([[1.],
           [0.]])
    """
    require("vsplit", indices_or_sections=indices_or_sections)
    y, cotangent_ary = _split_rules(np.vsplit, "np.vsplit", ary, indices_or_sections, _vsplit_axis, ())

    def vsplit_pullback(dy: Any) -> tuple[Any, ...]:
        return NO, cotangent_ary(dy), NO

    return y, vsplit_pullback


@frule.register(np.vsplit, ARRAY_LIKE)
def vsplit_frule(tangents: tuple[Any, ...], ary: Any, indices_or_sections: Any = REQUIRED) -> tuple[Any, Any]:
    """Forward rule of ``np.vsplit``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> frule((NoTangent(), np.ones((2, 1)), NoTangent()), np.vsplit, np.zeros((2, 1)), 2)[1]
    Tangent(list, array([[1.]]), array([[1.]]))
    """
    require("vsplit", indices_or_sections=indices_or_sections)
    y = np.vsplit(ary, indices_or_sections)
    return y, _split_tangent(tangents[1], ary, y, lambda v: np.vsplit(v, indices_or_sections))


@sample_inputs(np.vsplit)
def _vsplit_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield from with_dtypes(Sample(normal(rng, 4, 2), 2, label="matrix"))
    yield Sample(normal(rng, 3, 2, 2), [1], label="3-d")


@rrule.register(np.dsplit, ARRAY_LIKE)
def dsplit_rrule(ary: Any, indices_or_sections: Any = REQUIRED) -> tuple[Any, Pullback]:
    """Reverse rule of ``np.dsplit`` (the third axis).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule, ZeroTangent
    >>> y, pb = rrule(np.dsplit, np.zeros((1, 1, 2)), 2)
    >>> pb([ZeroTangent(), np.ones((1, 1, 1))])[1]
    array([[[0., 1.]]])
    """
    require("dsplit", indices_or_sections=indices_or_sections)
    y, cotangent_ary = _split_rules(np.dsplit, "np.dsplit", ary, indices_or_sections, _dsplit_axis, ())

    def dsplit_pullback(dy: Any) -> tuple[Any, ...]:
        return NO, cotangent_ary(dy), NO

    return y, dsplit_pullback


@frule.register(np.dsplit, ARRAY_LIKE)
def dsplit_frule(tangents: tuple[Any, ...], ary: Any, indices_or_sections: Any = REQUIRED) -> tuple[Any, Any]:
    """Forward rule of ``np.dsplit``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> frule((NoTangent(), np.ones((1, 1, 2)), NoTangent()), np.dsplit, np.zeros((1, 1, 2)), 2)[1]
    Tangent(list, array([[[1.]]]), array([[[1.]]]))
    """
    require("dsplit", indices_or_sections=indices_or_sections)
    y = np.dsplit(ary, indices_or_sections)
    return y, _split_tangent(tangents[1], ary, y, lambda v: np.dsplit(v, indices_or_sections))


@sample_inputs(np.dsplit)
def _dsplit_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield from with_dtypes(Sample(normal(rng, 2, 1, 4), 2, label="3-d"))


# ---- np.unstack ---------------------------------------------------------------------------------------
@rrule.register(np.unstack, ARRAY_LIKE)
def unstack_rrule(x: Any, *, axis: Any = 0) -> tuple[Any, Pullback]:
    """Reverse rule of ``np.unstack``: the slices' cotangents stacked back (zeros for unused ones).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule, ZeroTangent
    >>> y, pb = rrule(np.unstack, np.zeros((2, 2)), axis=1)
    >>> pb((np.ones(2), ZeroTangent()))[1]
    array([[1., 0.],
           [1., 0.]])
    """
    y = np.unstack(x, axis=axis)
    ndim = np.ndim(x)
    split_axis = normalize_axis_index(axis, ndim) if ndim else 0
    expanded = [np.expand_dims(yk, split_axis) for yk in y]
    cotangent_pieces = _pieces_cotangent("np.unstack", x, expanded, split_axis)

    def unstack_pullback(dy: Any) -> tuple[Any, ...]:
        parts = read_cotangents(dy, y, "np.unstack")
        if isinstance(parts, list):
            missing = any_not_implemented(*parts)
            parts = missing if missing is not None else [ZERO if p is None else np.expand_dims(p, split_axis)
                                                         for p in parts]
        return NO, cotangent_pieces(parts)

    return y, unstack_pullback


@frule.register(np.unstack, ARRAY_LIKE)
def unstack_frule(tangents: tuple[Any, ...], x: Any, *, axis: Any = 0) -> tuple[Any, Any]:
    """Forward rule of ``np.unstack``: the tangent unstacked the same way.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> frule((NoTangent(), np.eye(2)), np.unstack, np.zeros((2, 2)))[1]
    Tangent(tuple, array([1., 0.]), array([0., 1.]))
    """
    y = np.unstack(x, axis=axis)
    return y, _split_tangent(tangents[1], x, y, lambda v: np.unstack(v, axis=axis))


@sample_inputs(np.unstack)
def _unstack_samples(rng: np.random.Generator) -> Iterator[Sample]:
    x = normal(rng, 3, 2)
    yield from with_dtypes(Sample(x, label="rows"))
    yield Sample(x, fkwargs={"axis": 1}, label="columns by keyword")
    yield Sample(normal(rng, 3), label="a vector: 0-d pieces")
