"""Rules of the functions that repeat entries: ``np.tile``, ``np.repeat``, ``np.resize``.

Also the method ``ndarray.repeat``.

The maths
---------
Repetition is linear: the frule repeats the tangent the same way, and the pullback sums
the cotangent over the copies of each entry:

* ``np.tile(A, reps)``: the output, reshaped to interleaved ``(reps_0, n_0, reps_1, n_1,
  ...)`` axes, summed over the ``reps`` axes;
* ``np.repeat(a, r, axis)``: with one count ``r``, the cotangent reshaped to ``(..., n, r,
  ...)`` and summed over the ``r`` axis; with one count per entry, summed over each
  entry's consecutive run (``np.add.reduceat``), zero for an entry repeated zero times;
* ``np.resize(a, shape)``: the flat output repeats ``a.ravel()`` cyclically (the last
  cycle possibly cut short), so the cotangent sums the cycles.

Each pullback is one pass over the output cotangent.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
from numpy.lib.array_utils import normalize_axis_index

from chainrules.rulesets.arrays._linear_maps import NO, unary_cotangent, unary_pushforward
from chainrules.rulesets.arrays._sample_arrays import normal, with_dtypes
from chainrules.rulesets.arrays._signatures import ARRAY_LIKE, REQUIRED, require
from chainrules_core import Sample, frule, rrule, sample_inputs

Pullback = Callable[[Any], tuple[Any, ...]]


# ---- np.tile -------------------------------------------------------------------------------------------
def _tile_adjoint(shape: tuple[int, ...], reps: Any) -> Callable[[np.ndarray], np.ndarray]:
    """Sum a cotangent of ``np.tile(A, reps)`` over the copies, back to ``A``'s ``shape``."""
    reps = tuple(int(r) for r in np.atleast_1d(reps))
    ndim = max(len(shape), len(reps))
    full_shape = (1,) * (ndim - len(shape)) + tuple(shape)
    full_reps = (1,) * (ndim - len(reps)) + reps
    interleaved = tuple(n for pair in zip(full_reps, full_shape) for n in pair)
    rep_axes = tuple(range(0, 2 * ndim, 2))

    def sum_copies(dy: np.ndarray) -> np.ndarray:
        return np.reshape(np.sum(np.reshape(dy, interleaved), axis=rep_axes), shape)

    return sum_copies


@rrule.register(np.tile, ARRAY_LIKE)
def tile_rrule(A: Any, reps: Any = REQUIRED) -> tuple[Any, Pullback]:
    """Reverse rule of ``np.tile``: the cotangent summed over the tiles.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> y, pb = rrule(np.tile, np.zeros(2), 3)
    >>> pb(np.arange(6.0))[1]
    array([6., 9.])
    """
    require("tile", reps=reps)
    y = np.tile(A, reps)
    cotangent_A = unary_cotangent("np.tile", A, y, _tile_adjoint(np.shape(A), reps))

    def tile_pullback(dy: Any) -> tuple[Any, ...]:
        return NO, cotangent_A(dy), NO

    return y, tile_pullback


@frule.register(np.tile, ARRAY_LIKE)
def tile_frule(tangents: tuple[Any, ...], A: Any, reps: Any = REQUIRED) -> tuple[Any, Any]:
    """Forward rule of ``np.tile``: the tangent tiled.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> frule((NoTangent(), np.array([1.0, 2.0]), NoTangent()), np.tile, np.zeros(2), 2)[1]
    array([1., 2., 1., 2.])
    """
    require("tile", reps=reps)
    y = np.tile(A, reps)
    return y, unary_pushforward(tangents[1], A, y, lambda dA: np.tile(dA, reps))


@sample_inputs(np.tile)
def _tile_samples(rng: np.random.Generator) -> Iterator[Sample]:
    x = normal(rng, 2, 3)
    yield from with_dtypes(Sample(x, 2, label="an integer"))
    yield Sample(x, (2, 1, 2), label="more repetitions than axes")
    yield Sample(normal(rng, 2, 3, 2), fkwargs={"reps": (2, 1)}, label="fewer repetitions than axes, by keyword")
    yield Sample(1.5, 3, label="a number")


# ---- np.repeat, ndarray.repeat -------------------------------------------------------------------------
def _repeat_adjoint(shape: tuple[int, ...], repeats: Any, axis: Any) -> Callable[[np.ndarray], np.ndarray]:
    """Sum a cotangent of ``np.repeat(a, repeats, axis)`` over each entry's copies."""
    flat = axis is None or len(shape) == 0  # NumPy repeats a 0-d array along axis 0 (or -1) as a 1-d one
    work_shape = (int(np.prod(shape, dtype=np.int64)),) if flat else tuple(shape)
    ax = 0 if flat else normalize_axis_index(axis, len(shape))
    n = work_shape[ax]
    counts = np.broadcast_to(np.asarray(repeats, dtype=np.intp), (n,)) if np.ndim(repeats) <= 1 else repeats
    uniform = np.ndim(repeats) == 0 or np.size(repeats) == 1

    def sum_copies(dy: np.ndarray) -> np.ndarray:
        if uniform:
            r = int(np.reshape(repeats, -1)[0]) if np.ndim(repeats) else int(repeats)
            grouped = np.reshape(dy, work_shape[:ax] + (n, r) + work_shape[ax + 1:])
            out = np.sum(grouped, axis=ax + 1)
        else:
            out = np.zeros(work_shape, dtype=dy.dtype)
            nonzero = np.flatnonzero(counts)
            if nonzero.size:
                starts = np.concatenate(([0], np.cumsum(counts)[:-1]))[nonzero]
                sums = np.add.reduceat(dy, starts, axis=ax)
                index: list[Any] = [slice(None)] * len(work_shape)
                index[ax] = nonzero
                out[tuple(index)] = sums
        return np.reshape(out, shape)

    return sum_copies


@rrule.register(np.repeat, ARRAY_LIKE)
def repeat_rrule(a: Any, repeats: Any = REQUIRED, axis: Any = None) -> tuple[Any, Pullback]:
    """Reverse rule of ``np.repeat``: the cotangent summed over each entry's copies.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> y, pb = rrule(np.repeat, np.zeros(3), [2, 0, 1])
    >>> pb(np.array([1.0, 2.0, 5.0]))[1]
    array([3., 0., 5.])
    """
    require("repeat", repeats=repeats)
    y = np.repeat(a, repeats, axis)
    cotangent_a = unary_cotangent("np.repeat", a, y, _repeat_adjoint(np.shape(a), repeats, axis))

    def repeat_pullback(dy: Any) -> tuple[Any, ...]:
        return NO, cotangent_a(dy), NO, NO

    return y, repeat_pullback


@frule.register(np.repeat, ARRAY_LIKE)
def repeat_frule(tangents: tuple[Any, ...], a: Any, repeats: Any = REQUIRED, axis: Any = None) -> tuple[Any, Any]:
    """Forward rule of ``np.repeat``: the tangent repeated.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> frule((NoTangent(), np.array([1.0, 2.0]), NoTangent()), np.repeat, np.zeros(2), 2)[1]
    array([1., 1., 2., 2.])
    """
    require("repeat", repeats=repeats)
    y = np.repeat(a, repeats, axis)
    return y, unary_pushforward(tangents[1], a, y, lambda da: np.repeat(da, repeats, axis))


@rrule.register(np.ndarray.repeat, np.ndarray)
def ndarray_repeat_rrule(a: np.ndarray, repeats: Any = REQUIRED, axis: Any = None) -> tuple[Any, Pullback]:
    """Reverse rule of the method ``x.repeat(repeats, axis)``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> x = np.zeros(2)
    >>> rrule(x.repeat, 2)[1](np.arange(4.0))[1]
    array([1., 5.])
    """
    require("repeat", repeats=repeats)
    return repeat_rrule(a, repeats, axis)


@frule.register(np.ndarray.repeat, np.ndarray)
def ndarray_repeat_frule(tangents: tuple[Any, ...], a: np.ndarray, repeats: Any = REQUIRED,
                         axis: Any = None) -> tuple[Any, Any]:
    """Forward rule of the method ``x.repeat(repeats, axis)``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> x = np.zeros(2)
    >>> frule((NoTangent(), np.ones(2), NoTangent()), x.repeat, 2)[1]
    array([1., 1., 1., 1.])
    """
    require("repeat", repeats=repeats)
    return repeat_frule(tangents, a, repeats, axis)


@sample_inputs(np.repeat, np.ndarray.repeat)
def _repeat_samples(rng: np.random.Generator) -> Iterator[Sample]:
    x = normal(rng, 2, 3)
    yield from with_dtypes(Sample(x, 2, label="flattened"))
    yield Sample(x, [1, 0, 2], 1, label="counts per entry (one zero), axis by position")
    yield Sample(x, fkwargs={"repeats": 3, "axis": 0}, label="by keyword")


# ---- np.resize ---------------------------------------------------------------------------------------
def _resize_adjoint(shape: tuple[int, ...]) -> Callable[[np.ndarray], np.ndarray]:
    """Sum a cotangent of ``np.resize(a, new_shape)`` over the cycles through ``a.ravel()``."""
    n = int(np.prod(shape, dtype=np.int64))

    def sum_cycles(dy: np.ndarray) -> np.ndarray:
        flat = dy.ravel()
        if n == 0 or flat.size == 0:
            return np.zeros(shape, dtype=dy.dtype)
        cycles = -(-flat.size // n)
        padded = np.zeros(cycles * n, dtype=dy.dtype)
        padded[:flat.size] = flat
        return np.reshape(padded.reshape(cycles, n).sum(axis=0), shape)

    return sum_cycles


@rrule.register(np.resize, ARRAY_LIKE)
def resize_rrule(a: Any, new_shape: Any = REQUIRED) -> tuple[Any, Pullback]:
    """Reverse rule of ``np.resize``: the cotangent summed over the cycles.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> y, pb = rrule(np.resize, np.zeros(2), 5)
    >>> pb(np.arange(5.0))[1]
    array([6., 4.])
    """
    require("resize", new_shape=new_shape)
    y = np.resize(a, new_shape)
    cotangent_a = unary_cotangent("np.resize", a, y, _resize_adjoint(np.shape(a)))

    def resize_pullback(dy: Any) -> tuple[Any, ...]:
        return NO, cotangent_a(dy), NO

    return y, resize_pullback


@frule.register(np.resize, ARRAY_LIKE)
def resize_frule(tangents: tuple[Any, ...], a: Any, new_shape: Any = REQUIRED) -> tuple[Any, Any]:
    """Forward rule of ``np.resize``: the tangent resized.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> frule((NoTangent(), np.array([1.0, 2.0]), NoTangent()), np.resize, np.zeros(2), 3)[1]
    array([1., 2., 1.])
    """
    require("resize", new_shape=new_shape)
    y = np.resize(a, new_shape)
    return y, unary_pushforward(tangents[1], a, y, lambda da: np.resize(da, new_shape))


@sample_inputs(np.resize)
def _resize_samples(rng: np.random.Generator) -> Iterator[Sample]:
    x = normal(rng, 2, 3)
    yield from with_dtypes(Sample(x, (3, 4), label="larger: entries repeat"))
    yield Sample(x, 4, label="smaller")
    yield Sample(x, fkwargs={"new_shape": (2, 0)}, label="empty, by keyword")
