"""Rules of the functions that reorder the entries along axes: flips, rotations, rolls.

``np.flip``, ``np.fliplr``, ``np.flipud``, ``np.rot90`` and ``np.roll``.

The maths
---------
Each is a permutation of the entries, so it is linear and orthogonal: the frule applies
the same permutation to the tangent, and the pullback the inverse one: a flip is its own
inverse, ``rot90(., k)`` is undone by ``rot90(., -k)`` and ``roll(., s)`` by
``roll(., -s)``. Flips and rotations return read-only views (of the output cotangent, of
the input tangent); ``roll`` copies, as NumPy does.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from chainrules.rulesets.arrays._linear_maps import NO, unary_cotangent, unary_pushforward
from chainrules.rulesets.arrays._sample_arrays import normal, with_dtypes
from chainrules.rulesets.arrays._signatures import ARRAY_LIKE, REQUIRED, require
from chainrules_core import Sample, frule, rrule, sample_inputs

Pullback = Callable[[Any], tuple[Any, ...]]


def _flipped(axis: Any) -> Callable[[np.ndarray], np.ndarray]:
    def flip(v: np.ndarray) -> np.ndarray:
        return np.flip(v, axis)

    return flip


@rrule.register(np.flip, ARRAY_LIKE)
def flip_rrule(m: Any, axis: Any = None) -> tuple[Any, Pullback]:
    """Reverse rule of ``np.flip``: the cotangent flipped back.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> y, pb = rrule(np.flip, np.zeros(3))
    >>> pb(np.array([1.0, 2.0, 3.0]))[1]
    array([3., 2., 1.])
    """
    y = np.flip(m, axis)
    cotangent_m = unary_cotangent("np.flip", m, y, _flipped(axis))

    def flip_pullback(dy: Any) -> tuple[Any, ...]:
        return NO, cotangent_m(dy), NO

    return y, flip_pullback


@frule.register(np.flip, ARRAY_LIKE)
def flip_frule(tangents: tuple[Any, ...], m: Any, axis: Any = None) -> tuple[Any, Any]:
    """Forward rule of ``np.flip``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> frule((NoTangent(), np.arange(2.0)), np.flip, np.zeros(2))[1]
    array([1., 0.])
    """
    y = np.flip(m, axis)
    return y, unary_pushforward(tangents[1], m, y, _flipped(axis))


@sample_inputs(np.flip)
def _flip_samples(rng: np.random.Generator) -> Iterator[Sample]:
    x = normal(rng, 2, 3)
    yield from with_dtypes(Sample(x, label="every axis"))
    yield Sample(x, 1, label="axis by position")
    yield Sample(x, fkwargs={"axis": (0, 1)}, label="axes by keyword")
    yield Sample(np.float64(1.5), label="0-d")


@rrule.register(np.fliplr, ARRAY_LIKE)
def fliplr_rrule(m: Any) -> tuple[Any, Pullback]:
    """Reverse rule of ``np.fliplr``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> y, pb = rrule(np.fliplr, np.zeros((1, 2)))
    >>> pb(np.array([[1.0, 2.0]]))[1]
    array([[2., 1.]])
    """
    y = np.fliplr(m)
    cotangent_m = unary_cotangent("np.fliplr", m, y, np.fliplr)

    def fliplr_pullback(dy: Any) -> tuple[Any, ...]:
        return NO, cotangent_m(dy)

    return y, fliplr_pullback


@frule.register(np.fliplr, ARRAY_LIKE)
def fliplr_frule(tangents: tuple[Any, ...], m: Any) -> tuple[Any, Any]:
    """Forward rule of ``np.fliplr``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> frule((NoTangent(), np.array([[1.0, 2.0]])), np.fliplr, np.zeros((1, 2)))[1]
    array([[2., 1.]])
    """
    y = np.fliplr(m)
    return y, unary_pushforward(tangents[1], m, y, np.fliplr)


@sample_inputs(np.fliplr, np.flipud)
def _flip_lr_ud_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield from with_dtypes(Sample(normal(rng, 2, 3), label="matrix"))
    yield Sample([[1.0, 2.0], [3.0, 4.0]], label="nested list")


@rrule.register(np.flipud, ARRAY_LIKE)
def flipud_rrule(m: Any) -> tuple[Any, Pullback]:
    """Reverse rule of ``np.flipud``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> y, pb = rrule(np.flipud, np.zeros(2))
    >>> pb(np.array([1.0, 2.0]))[1]
    array([2., 1.])
    """
    y = np.flipud(m)
    cotangent_m = unary_cotangent("np.flipud", m, y, np.flipud)

    def flipud_pullback(dy: Any) -> tuple[Any, ...]:
        return NO, cotangent_m(dy)

    return y, flipud_pullback


@frule.register(np.flipud, ARRAY_LIKE)
def flipud_frule(tangents: tuple[Any, ...], m: Any) -> tuple[Any, Any]:
    """Forward rule of ``np.flipud``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> frule((NoTangent(), np.array([1.0, 2.0])), np.flipud, np.zeros(2))[1]
    array([2., 1.])
    """
    y = np.flipud(m)
    return y, unary_pushforward(tangents[1], m, y, np.flipud)


def _rotated(k: Any, axes: Any) -> Callable[[np.ndarray], np.ndarray]:
    def rotate(v: np.ndarray) -> np.ndarray:
        return np.rot90(v, k, axes)

    return rotate


@rrule.register(np.rot90, ARRAY_LIKE)
def rot90_rrule(m: Any, k: Any = 1, axes: Any = (0, 1)) -> tuple[Any, Pullback]:
    """Reverse rule of ``np.rot90``: the cotangent rotated back (``-k`` quarter turns).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> y, pb = rrule(np.rot90, np.zeros((1, 2)))
    >>> pb(np.array([[1.0], [2.0]]))[1]
    array([[2., 1.]])
    """
    y = np.rot90(m, k, axes)
    cotangent_m = unary_cotangent("np.rot90", m, y, _rotated(-int(k), axes))

    def rot90_pullback(dy: Any) -> tuple[Any, ...]:
        return NO, cotangent_m(dy), NO, NO

    return y, rot90_pullback


@frule.register(np.rot90, ARRAY_LIKE)
def rot90_frule(tangents: tuple[Any, ...], m: Any, k: Any = 1, axes: Any = (0, 1)) -> tuple[Any, Any]:
    """Forward rule of ``np.rot90``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> frule((NoTangent(), np.array([[1.0, 2.0]])), np.rot90, np.zeros((1, 2)))[1]
    array([[2.],
           [1.]])
    """
    y = np.rot90(m, k, axes)
    return y, unary_pushforward(tangents[1], m, y, _rotated(k, axes))


@sample_inputs(np.rot90)
def _rot90_samples(rng: np.random.Generator) -> Iterator[Sample]:
    x = normal(rng, 2, 3)
    yield from with_dtypes(Sample(x, label="once"))
    yield Sample(x, -3, label="k by position")
    yield Sample(normal(rng, 2, 3, 2), fkwargs={"k": 2, "axes": (2, 0)}, label="k and axes by keyword")


def _rolled(shift: Any, axis: Any) -> Callable[[np.ndarray], np.ndarray]:
    def roll(v: np.ndarray) -> np.ndarray:
        return np.roll(v, shift, axis)

    return roll


@rrule.register(np.roll, ARRAY_LIKE)
def roll_rrule(a: Any, shift: Any = REQUIRED, axis: Any = None) -> tuple[Any, Pullback]:
    """Reverse rule of ``np.roll``: the cotangent rolled back by ``-shift``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> y, pb = rrule(np.roll, np.zeros(3), 1)
    >>> pb(np.array([1.0, 2.0, 3.0]))[1]
    array([2., 3., 1.])
    """
    require("roll", shift=shift)
    y = np.roll(a, shift, axis)
    cotangent_a = unary_cotangent("np.roll", a, y, _rolled(np.negative(shift), axis))

    def roll_pullback(dy: Any) -> tuple[Any, ...]:
        return NO, cotangent_a(dy), NO, NO

    return y, roll_pullback


@frule.register(np.roll, ARRAY_LIKE)
def roll_frule(tangents: tuple[Any, ...], a: Any, shift: Any = REQUIRED, axis: Any = None) -> tuple[Any, Any]:
    """Forward rule of ``np.roll``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> frule((NoTangent(), np.arange(3.0), NoTangent()), np.roll, np.zeros(3), 1)[1]
    array([2., 0., 1.])
    """
    require("roll", shift=shift)
    y = np.roll(a, shift, axis)
    return y, unary_pushforward(tangents[1], a, y, _rolled(shift, axis))


@sample_inputs(np.roll)
def _roll_samples(rng: np.random.Generator) -> Iterator[Sample]:
    x = normal(rng, 2, 3)
    yield from with_dtypes(Sample(x, 2, label="flattened"))
    yield Sample(x, -1, 1, label="axis by position")
    yield Sample(x, fkwargs={"shift": (1, 2), "axis": (0, 1)}, label="two axes by keyword")
    yield Sample(np.zeros((0, 2)), 1, 0, label="empty")
