"""Rules of the array-creation functions whose values depend on differentiable arguments.

``np.full`` and ``np.full_like`` (the fill value), ``np.arange`` (``start`` and ``step``),
``np.linspace``, ``np.logspace`` and ``np.geomspace`` (the end points, and ``base``),
and ``np.meshgrid`` (the coordinate vectors). The creation functions whose values
depend on no differentiable argument (``np.zeros``, ``np.ones``, ``np.eye``, the
``*_like`` functions but ``full_like``...) are declared non-differentiable in
:mod:`chainrules.rulesets.arrays.non_differentiable`.

The maths
---------
* ``full(shape, v)`` broadcasts ``v``: the cotangent of ``v`` is the output cotangent
  summed back to ``v``'s shape. ``full_like(a, v)`` ignores ``a``'s values: its cotangent
  is ``ZeroTangent()``.
* ``arange(start, stop, step)`` is ``start + i * step``: ``d/dstart`` sums the cotangent,
  ``d/dstep`` weighs it by ``i``. ``stop`` only decides the length, a locally constant
  integer: its derivative is zero (``ZeroTangent()``, a true zero).
* ``linspace(start, stop, num)`` is ``start + t_i (stop - start)`` with ``t_i = i / div``
  (``div = num - 1`` with the end point, ``num`` without; NumPy sets the last sample to
  ``stop`` exactly, which the formula does too): the cotangents are ``sum((1 - t) dy)``
  and ``sum(t dy)`` over the samples, summed back to the shapes of ``start`` and ``stop``.
  With ``retstep=True`` the step ``(stop - start) / div`` adds ``-+ d(step) / div``.
* ``logspace`` is ``base ** linspace(start, stop)`` and ``geomspace`` is
  ``start ** (1 - t) * stop ** t``: the chain rule through ``linspace``; complex inputs
  follow the library's convention (the pullback multiplies by conjugate derivatives).
* ``meshgrid(*xi)`` broadcasts each vector along the other axes: its cotangent sums the
  output cotangent over them.

Integer arguments (and integer ``dtype=``) are not differentiated.
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
    output_tangent,
    sequence_output_tangent,
    tangent_array,
    zero_result,
)
from chainrules.rulesets.arrays._sample_arrays import normal, with_dtypes
from chainrules.rulesets.arrays._signatures import ARRAY_LIKE
from chainrules_core import (
    NotImplementedTangent,
    Sample,
    Thunk,
    Varargs,
    cotangent_projector,
    differentiable,
    frule,
    passes_through,
    read_cotangent,
    read_cotangents,
    rrule,
    sample_inputs,
    unbroadcast,
)

Pullback = Callable[[Any], tuple[Any, ...]]


def _value(dx: Any, x: Any) -> Any:
    """The dense tangent of an argument, ``None`` for a zero or a non-differentiable argument."""
    return tangent_array(dx, x) if differentiable(x) else None


# ---- np.full, np.full_like ---------------------------------------------------------------------------
@rrule.register(np.full, object, ARRAY_LIKE)
def full_rrule(shape: Any, fill_value: Any, dtype: Any = None, order: Any = "C", **kwargs: Any) -> tuple[Any, Pullback]:
    """Reverse rule of ``np.full``: the cotangent of ``fill_value`` sums the output cotangent.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> y, pb = rrule(np.full, (2, 3), 1.5)
    >>> pb(np.ones((2, 3)))[2]
    6.0
    """
    y = np.full(shape, fill_value, dtype, order, **kwargs)
    project_fill = cotangent_projector(fill_value)
    differentiable_fill = differentiable(fill_value) and differentiable(y)

    def full_pullback(dy: Any) -> tuple[Any, ...]:
        dy = read_cotangent(dy, y, "np.full")
        if not differentiable_fill:
            return NO, NO, ZERO if differentiable(fill_value) else NO, NO, NO
        if passes_through(dy):
            return NO, NO, zero_result(dy), NO, NO
        return NO, NO, project_fill(unbroadcast(cast_like(dy, fill_value), np.shape(fill_value))), NO, NO

    return y, full_pullback


@frule.register(np.full, object, ARRAY_LIKE)
def full_frule(tangents: tuple[Any, ...], shape: Any, fill_value: Any, dtype: Any = None, order: Any = "C",
               **kwargs: Any) -> tuple[Any, Any]:
    """Forward rule of ``np.full``: the fill value's tangent, broadcast.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> frule((NoTangent(), NoTangent(), 2.0), np.full, 2, 0.0)[1]
    array([2., 2.])
    """
    y = np.full(shape, fill_value, dtype, order, **kwargs)
    value = _value(tangents[2], fill_value)
    if value is None or isinstance(value, NotImplementedTangent):
        return y, output_tangent(value, y)
    return y, output_tangent(np.broadcast_to(value, np.shape(y)), y)


@sample_inputs(np.full)
def _full_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield from with_dtypes(Sample((2, 3), 1.5, label="a number"))
    yield Sample(3, normal(rng, 3), label="an array broadcast")
    yield Sample((2, 2), 1.5, np.float32, label="dtype by position")
    yield Sample((2, 2), normal(rng, 2, 1), fkwargs={"order": "F"}, label="order by keyword")
    yield Sample((2,), 2.5, int, label="an integer dtype: derivative zero")
    yield Sample((0, 2), 1.5, label="empty")


@rrule.register(np.full_like, ARRAY_LIKE, ARRAY_LIKE)
def full_like_rrule(a: Any, fill_value: Any, dtype: Any = None, order: Any = "K", subok: Any = True,
                    shape: Any = None, **kwargs: Any) -> tuple[Any, Pullback]:
    """Reverse rule of ``np.full_like``: ``fill_value``'s cotangent as for ``np.full``; ``a``'s is zero.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> y, pb = rrule(np.full_like, np.zeros(3), 2.0)
    >>> pb(np.ones(3))[1:3]
    (ZeroTangent(), 3.0)
    """
    y = np.full_like(a, fill_value, dtype, order, subok, shape, **kwargs)
    _, pullback = full_rrule(np.shape(y), fill_value, y.dtype)
    zero_a = ZERO if differentiable(a) else NO

    def full_like_pullback(dy: Any) -> tuple[Any, ...]:
        return NO, zero_a, pullback(read_cotangent(dy, y, "np.full_like"))[2], NO, NO, NO, NO

    return y, full_like_pullback


@frule.register(np.full_like, ARRAY_LIKE, ARRAY_LIKE)
def full_like_frule(tangents: tuple[Any, ...], a: Any, fill_value: Any, dtype: Any = None, order: Any = "K",
                    subok: Any = True, shape: Any = None, **kwargs: Any) -> tuple[Any, Any]:
    """Forward rule of ``np.full_like``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> frule((NoTangent(), np.ones(2), 3.0), np.full_like, np.zeros(2), 1.0)[1]
    array([3., 3.])
    """
    y = np.full_like(a, fill_value, dtype, order, subok, shape, **kwargs)
    _, dy = full_frule((NO, NO, tangents[2]), np.shape(y), fill_value, y.dtype)
    return y, dy


@sample_inputs(np.full_like)
def _full_like_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield from with_dtypes(Sample(normal(rng, 2, 3), 1.5, label="a number"))
    yield Sample(normal(rng, 2, 3), normal(rng, 3), np.complex64, label="an array broadcast, dtype by position",
                 rtol=2e-3, atol=2e-3)  # complex64 rounding: finite differences accurate to about 1e-4
    yield Sample(np.arange(3), 2.5, fkwargs={"dtype": float, "shape": (2, 2)}, label="shape by keyword")


# ---- np.arange --------------------------------------------------------------------------------------
def _arange_parts(args: tuple[Any, ...]) -> tuple[Any, Any, Any]:
    """``(start, stop, step)`` as ``np.arange`` reads its positional arguments."""
    if len(args) == 1:
        return 0, args[0], 1
    start, stop = args[0], args[1]
    step = args[2] if len(args) > 2 else 1
    return start, stop, step


@rrule.register(np.arange, ARRAY_LIKE, Varargs(object))
def arange_rrule(*args: Any, **kwargs: Any) -> tuple[Any, Pullback]:
    """Reverse rule of ``np.arange``: ``start + i * step`` (``stop`` fixes only the length).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule, unthunk
    >>> y, pb = rrule(np.arange, 0.5, 2.0, 0.5)
    >>> [unthunk(c) for c in pb(np.ones(3))[1:]]
    [3.0, ZeroTangent(), 3.0]
    """
    y = np.arange(*args, **kwargs)
    start, _, step = _arange_parts(args)
    projectors = [cotangent_projector(a) for a in args]
    live = differentiable(y)

    def arange_pullback(dy: Any) -> tuple[Any, ...]:
        dy = read_cotangent(dy, y, "np.arange")
        zeros = tuple(ZERO if differentiable(a) else NO for a in args)
        if not live:
            return (NO, *zeros)
        if passes_through(dy):
            return (NO, *(zero_result(dy) if z is ZERO else z for z in zeros))
        out: list[Any] = list(zeros)
        if len(args) >= 2 and differentiable(start):
            out[0] = Thunk(lambda: projectors[0](np.sum(dy)))
        if len(args) >= 3 and differentiable(step):
            out[2] = Thunk(lambda: projectors[2](np.sum(np.arange(y.size) * dy)))
        return (NO, *out)

    return y, arange_pullback


@frule.register(np.arange, ARRAY_LIKE, Varargs(object))
def arange_frule(tangents: tuple[Any, ...], *args: Any, **kwargs: Any) -> tuple[Any, Any]:
    """Forward rule of ``np.arange``: ``d start + i * d step``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> frule((NoTangent(), 1.0, 0.0, 1.0), np.arange, 0.0, 2.5, 1.0)[1]
    array([1., 2., 3.])
    """
    y = np.arange(*args, **kwargs)
    start, _, step = _arange_parts(args)
    d_start = _value(tangents[1], start) if len(args) >= 2 else None
    d_step = _value(tangents[3], step) if len(args) >= 3 else None
    missing = any_not_implemented(d_start, d_step)
    if missing is not None or (d_start is None and d_step is None):
        return y, output_tangent(missing, y)
    total = np.zeros(y.shape, dtype=np.result_type(y.dtype, float))
    if d_start is not None:
        total = total + d_start
    if d_step is not None:
        total = total + np.arange(y.size) * d_step
    return y, output_tangent(total, y)


@sample_inputs(np.arange)
def _arange_samples(rng: np.random.Generator) -> Iterator[Sample]:
    # stop away from the grid: a perturbation of start, stop or step keeps the length
    yield Sample(0.5, 2.2, 0.5, label="start, stop, step")
    yield Sample(np.float32(0.25), np.float32(1.1), np.float32(0.3), label="float32")
    yield Sample(3.5, label="stop only")
    yield Sample(1.5, 4.2, label="start and stop")
    yield Sample(0.5, 2.2, 0.5, fkwargs={"dtype": np.float64}, label="dtype by keyword")
    yield Sample(1, 7, 2, label="integers (nothing differentiated)")


# ---- np.linspace, np.logspace, np.geomspace ----------------------------------------------------------------
class _Spacing:
    """The sample positions ``t`` of ``linspace(start, stop, num, endpoint, axis)``, shaped to broadcast."""

    def __init__(self, start: Any, stop: Any, num: Any, endpoint: Any, axis: Any) -> None:
        self.num = int(num)
        self.endpoint = bool(endpoint)
        self.div = self.num - 1 if endpoint else self.num
        t = np.arange(self.num) / self.div if self.div > 0 else np.zeros(self.num)
        bshape = np.broadcast_shapes(np.shape(start), np.shape(stop))
        self.bshape = bshape
        self.axis = normalize_axis_index(axis, len(bshape) + 1)
        shape = [1] * (len(bshape) + 1)
        shape[self.axis] = self.num
        self.t = t.reshape(shape)

    def spread(self, value: Any) -> np.ndarray:
        """A tangent of an end point, broadcast and given the samples' axis (of length one)."""
        return np.expand_dims(np.broadcast_to(value, self.bshape), self.axis)

    def reduce(self, values: np.ndarray, like: Any) -> Any:
        """Sum ``values`` (output-shaped) over the samples and back to ``like``'s shape."""
        return unbroadcast(np.sum(values, axis=self.axis), np.shape(like))


def _space_rrule(name: str, f: Any, start: Any, stop: Any, y: Any, spacing: _Spacing,
                 partials: Callable[[], tuple[Any, Any]], step: Any = None) -> Callable[[Any], tuple[Any, Any]]:
    """The cotangents of ``start`` and ``stop`` for ``y = f(start, stop, ...)`` given the partials."""
    project_start, project_stop = cotangent_projector(start), cotangent_projector(stop)
    live = differentiable(y)
    samples = y[0] if step is not None else y

    def space_cotangents(dy: Any) -> tuple[Any, Any]:
        d_step = None
        if step is None:
            dy = read_cotangent(dy, samples, name)
        else:
            parts = read_cotangents(dy, y, name)
            if isinstance(parts, list):
                missing = any_not_implemented(*parts)
                dy, d_step = (missing, None) if missing is not None else parts
                dy = ZERO if dy is None else dy
            else:
                dy = parts
        if not live:
            return (ZERO if differentiable(start) else NO), (ZERO if differentiable(stop) else NO)
        if passes_through(dy) and d_step is None:
            d_start, d_stop = zero_result(dy), zero_result(dy)
            return (d_start if differentiable(start) else NO), (d_stop if differentiable(stop) else NO)
        dense = np.zeros(np.shape(samples), dtype=samples.dtype) if passes_through(dy) else dy

        def cotangent(which: int, like: Any, project: Callable[[Any], Any]) -> Any:
            weight = partials()[which]
            total = spacing.reduce(np.conj(weight) * dense, like)
            if d_step is not None and spacing.div > 0:
                sign = 1.0 if which == 1 else -1.0
                total = total + unbroadcast(sign * d_step / spacing.div, np.shape(like))
            return project(cast_like(np.asarray(total), like))

        d_start = Thunk(lambda: cotangent(0, start, project_start)) if differentiable(start) else NO
        d_stop = Thunk(lambda: cotangent(1, stop, project_stop)) if differentiable(stop) else NO
        return d_start, d_stop

    return space_cotangents


def _space_tangent(d_start: Any, d_stop: Any, start: Any, stop: Any, y: Any, partials: tuple[Any, Any],
                   spacing: _Spacing, retstep: bool) -> Any:
    samples = y[0] if retstep else y
    missing = any_not_implemented(d_start, d_stop)
    if missing is not None:
        return missing
    value: Any = None
    step_value: Any = None
    if differentiable(samples) and (d_start is not None or d_stop is not None):
        value = 0
        step_value = 0
        if d_start is not None:
            value = value + partials[0] * spacing.spread(d_start)
            step_value = step_value - np.asarray(d_start)
        if d_stop is not None:
            value = value + partials[1] * spacing.spread(d_stop)
            step_value = step_value + np.asarray(d_stop)
    if not retstep:
        return output_tangent(value, samples)
    if value is None:
        return sequence_output_tangent(None, y)
    if spacing.div > 0:
        step_tangent = np.broadcast_to(step_value / spacing.div, np.shape(y[1]))
    else:  # no step (NumPy returns a constant NaN): derivative zero
        step_tangent = np.zeros(np.shape(y[1]))
    return sequence_output_tangent([value, step_tangent], y)


@rrule.register(np.linspace, ARRAY_LIKE, ARRAY_LIKE)
def linspace_rrule(start: Any, stop: Any, num: Any = 50, endpoint: Any = True, retstep: Any = False,
                   dtype: Any = None, axis: Any = 0, **kwargs: Any) -> tuple[Any, Pullback]:
    """Reverse rule of ``np.linspace``: the cotangents of ``start`` and ``stop`` weigh samples by ``1 - t`` and ``t``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule, unthunk
    >>> y, pb = rrule(np.linspace, 0.0, 1.0, 3)
    >>> [unthunk(c) for c in pb(np.ones(3))[1:3]]
    [1.5, 1.5]
    """
    y = np.linspace(start, stop, num, endpoint, retstep, dtype, axis, **kwargs)
    spacing = _Spacing(start, stop, num, endpoint, axis)

    def partials() -> tuple[Any, Any]:
        return 1 - spacing.t, spacing.t

    cotangents = _space_rrule("np.linspace", np.linspace, start, stop, y, spacing, partials,
                              step=True if retstep else None)

    def linspace_pullback(dy: Any) -> tuple[Any, ...]:
        d_start, d_stop = cotangents(dy)
        return NO, d_start, d_stop, NO, NO, NO, NO, NO

    return y, linspace_pullback


@frule.register(np.linspace, ARRAY_LIKE, ARRAY_LIKE)
def linspace_frule(tangents: tuple[Any, ...], start: Any, stop: Any, num: Any = 50, endpoint: Any = True,
                   retstep: Any = False, dtype: Any = None, axis: Any = 0, **kwargs: Any) -> tuple[Any, Any]:
    """Forward rule of ``np.linspace``: ``(1 - t) d start + t d stop``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> frule((NoTangent(), 0.0, 1.0, NoTangent()), np.linspace, 0.0, 1.0, 3)[1]
    array([0. , 0.5, 1. ])
    """
    y = np.linspace(start, stop, num, endpoint, retstep, dtype, axis, **kwargs)
    spacing = _Spacing(start, stop, num, endpoint, axis)
    partials = (1 - spacing.t, spacing.t)
    return y, _space_tangent(_value(tangents[1], start), _value(tangents[2], stop), start, stop, y, partials,
                             spacing, bool(retstep))


@sample_inputs(np.linspace)
def _linspace_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield from with_dtypes(Sample(0.5, 2.0, 5, label="numbers"))
    yield Sample(normal(rng, 2), normal(rng, 3, 1), 4, False, label="arrays broadcast, no end point")
    yield Sample(0.5, 2.0, 4, True, True, label="retstep: (samples, step)")
    yield Sample(normal(rng, 2), 1.0, fkwargs={"num": 3, "axis": -1}, label="axis by keyword")
    yield Sample(0.5, 2.0, 1, label="one sample")
    yield Sample(0.5, 2.0, 0, label="no sample")


def _log_partials(start: Any, stop: Any, base: Any, y: Any, spacing: _Spacing) -> tuple[Any, Any, Any]:
    """``d y / d start``, ``d y / d stop`` and ``d y / d base`` of ``y = base ** linspace(start, stop)``."""
    ndim = np.broadcast(start, stop, base).ndim  # the promotions of np.logspace
    start, stop, base = (np.array(v, copy=None, ndmin=ndim) for v in (start, stop, base))
    b = np.expand_dims(base, spacing.axis)
    exponent = np.linspace(start, stop, spacing.num, spacing.endpoint, axis=spacing.axis)
    log_base = np.log(b.astype(np.result_type(b.dtype, float)))
    return y * log_base * (1 - spacing.t), y * log_base * spacing.t, exponent * b ** (exponent - 1)


@rrule.register(np.logspace, ARRAY_LIKE, ARRAY_LIKE)
def logspace_rrule(start: Any, stop: Any, num: Any = 50, endpoint: Any = True, base: Any = 10.0,
                   dtype: Any = None, axis: Any = 0) -> tuple[Any, Pullback]:
    """Reverse rule of ``np.logspace``: through ``base ** linspace(start, stop)``, ``base`` included.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule, unthunk
    >>> y, pb = rrule(np.logspace, 0.0, 1.0, 2)
    >>> bool(np.isclose(unthunk(pb(np.array([0.0, 1.0]))[2]), 10 * np.log(10)))
    True
    """
    y = np.logspace(start, stop, num, endpoint, base, dtype, axis)
    spacing = _Spacing(np.broadcast_to(start, np.broadcast_shapes(np.shape(start), np.shape(base))), stop, num,
                       endpoint, axis)
    cache: list[Any] = []

    def partials() -> tuple[Any, Any, Any]:
        if not cache:
            cache.append(_log_partials(start, stop, base, y, spacing))
        return cache[0]

    cotangents = _space_rrule("np.logspace", np.logspace, start, stop, y, spacing, lambda: partials()[:2])
    project_base = cotangent_projector(base)

    def logspace_pullback(dy: Any) -> tuple[Any, ...]:
        d_start, d_stop = cotangents(dy)
        d_base: Any = NO
        if differentiable(base) and differentiable(y):
            read = read_cotangent(dy, y, "np.logspace")
            if passes_through(read):
                d_base = zero_result(read)
            else:
                d_base = Thunk(lambda: project_base(cast_like(np.asarray(
                    spacing.reduce(np.conj(partials()[2]) * read, base)), base)))
        elif differentiable(base):
            d_base = ZERO
        return NO, d_start, d_stop, NO, NO, d_base, NO, NO

    return y, logspace_pullback


@frule.register(np.logspace, ARRAY_LIKE, ARRAY_LIKE)
def logspace_frule(tangents: tuple[Any, ...], start: Any, stop: Any, num: Any = 50, endpoint: Any = True,
                   base: Any = 10.0, dtype: Any = None, axis: Any = 0) -> tuple[Any, Any]:
    """Forward rule of ``np.logspace``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> frule((NoTangent(), 0.0, 1.0, NoTangent()), np.logspace, 0.0, 1.0, 2)[1].round(4)
    array([ 0.    , 23.0259])
    """
    y = np.logspace(start, stop, num, endpoint, base, dtype, axis)
    spacing = _Spacing(np.broadcast_to(start, np.broadcast_shapes(np.shape(start), np.shape(base))), stop, num,
                       endpoint, axis)
    if not differentiable(y):
        return y, NO
    p_start, p_stop, p_base = _log_partials(start, stop, base, y, spacing)
    d_base = _value(tangents[5], base)
    base_term = None if d_base is None else p_base * spacing.spread(d_base)
    main = _space_tangent(_value(tangents[1], start), _value(tangents[2], stop), start, stop, y, (p_start, p_stop),
                          spacing, False)
    if isinstance(main, NotImplementedTangent) or isinstance(d_base, NotImplementedTangent):
        return y, main if isinstance(main, NotImplementedTangent) else d_base
    if base_term is None:
        return y, main
    return y, output_tangent(base_term if main is ZERO else np.asarray(main) + base_term, y)


@sample_inputs(np.logspace)
def _logspace_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield from with_dtypes(Sample(0.0, 1.5, 4, label="base 10"))
    yield Sample(normal(rng, 2), 1.0, 3, True, 2.5, label="base by position (differentiated)")
    yield Sample(0.0, 1.0, fkwargs={"num": 3, "base": 2.0, "axis": 0}, label="base by keyword")


@rrule.register(np.geomspace, ARRAY_LIKE, ARRAY_LIKE)
def geomspace_rrule(start: Any, stop: Any, num: Any = 50, endpoint: Any = True, dtype: Any = None,
                    axis: Any = 0) -> tuple[Any, Pullback]:
    """Reverse rule of ``np.geomspace``: ``y = start ** (1 - t) * stop ** t``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule, unthunk
    >>> y, pb = rrule(np.geomspace, 1.0, 4.0, 3)
    >>> [float(unthunk(c)) for c in pb(np.array([0.0, 1.0, 0.0]))[1:3]]
    [1.0, 0.25]
    """
    y = np.geomspace(start, stop, num, endpoint, dtype, axis)
    spacing = _Spacing(start, stop, num, endpoint, axis)

    def partials() -> tuple[Any, Any]:
        s = spacing.spread(np.asarray(start))
        e = spacing.spread(np.asarray(stop))
        return y * (1 - spacing.t) / s, y * spacing.t / e

    cotangents = _space_rrule("np.geomspace", np.geomspace, start, stop, y, spacing, partials)

    def geomspace_pullback(dy: Any) -> tuple[Any, ...]:
        d_start, d_stop = cotangents(dy)
        return NO, d_start, d_stop, NO, NO, NO, NO

    return y, geomspace_pullback


@frule.register(np.geomspace, ARRAY_LIKE, ARRAY_LIKE)
def geomspace_frule(tangents: tuple[Any, ...], start: Any, stop: Any, num: Any = 50, endpoint: Any = True,
                    dtype: Any = None, axis: Any = 0) -> tuple[Any, Any]:
    """Forward rule of ``np.geomspace``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> frule((NoTangent(), 1.0, 0.0, NoTangent()), np.geomspace, 1.0, 4.0, 3)[1]
    array([1., 1., 0.])
    """
    y = np.geomspace(start, stop, num, endpoint, dtype, axis)
    spacing = _Spacing(start, stop, num, endpoint, axis)
    if not differentiable(y):
        return y, NO
    s = spacing.spread(np.asarray(start))
    e = spacing.spread(np.asarray(stop))
    partials = (y * (1 - spacing.t) / s, y * spacing.t / e)
    return y, _space_tangent(_value(tangents[1], start), _value(tangents[2], stop), start, stop, y, partials,
                             spacing, False)


@sample_inputs(np.geomspace)
def _geomspace_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield from with_dtypes(Sample(0.5, 8.0, 4, label="positive"))
    yield Sample(-2.0, -0.5, 3, False, label="negative, no end point")
    yield Sample(np.array([1.0, 2.0]), 10.0, fkwargs={"num": 3, "axis": 1}, label="arrays, axis by keyword")


# ---- np.meshgrid ------------------------------------------------------------------------------------
def _meshgrid_axis(k: int, n: int, indexing: str) -> int:
    """The output axis along which ``meshgrid`` lays out the ``k``-th of ``n`` vectors."""
    if indexing == "xy" and n > 1 and k < 2:
        return 1 - k
    return k


@rrule.register(np.meshgrid, Varargs(ARRAY_LIKE))
def meshgrid_rrule(*xi: Any, copy: Any = True, sparse: Any = False, indexing: Any = "xy") -> tuple[Any, Pullback]:
    """Reverse rule of ``np.meshgrid``: each vector's cotangent sums its grid's cotangent over the other axes.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule, ZeroTangent
    >>> y, pb = rrule(np.meshgrid, np.zeros(2), np.zeros(3))
    >>> pb((np.ones((3, 2)), ZeroTangent()))[1:]
    (array([3., 3.]), ZeroTangent())
    """
    y = np.meshgrid(*xi, copy=copy, sparse=sparse, indexing=indexing)
    projectors = [cotangent_projector(x) for x in xi]
    n = len(xi)

    def meshgrid_pullback(dy: Any) -> tuple[Any, ...]:
        parts = read_cotangents(dy, y, "np.meshgrid")
        if not isinstance(parts, list):
            return (NO, *(p(zero_result(parts)) for p in projectors))
        out = []
        for k, (part, x, project) in enumerate(zip(parts, xi, projectors)):
            if part is None or isinstance(part, NotImplementedTangent):
                out.append(project(ZERO if part is None else part))
                continue
            part = np.asarray(part)
            axis = _meshgrid_axis(k, n, indexing)
            others = tuple(i for i in range(part.ndim) if i != axis)
            out.append(project(np.reshape(cast_like(np.sum(part, axis=others), x), np.shape(x))))
        return (NO, *out)

    return y, meshgrid_pullback


@frule.register(np.meshgrid, Varargs(ARRAY_LIKE))
def meshgrid_frule(tangents: tuple[Any, ...], *xi: Any, copy: Any = True, sparse: Any = False,
                   indexing: Any = "xy") -> tuple[Any, Any]:
    """Forward rule of ``np.meshgrid``: the tangents laid out on the same grids.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent, ZeroTangent
    >>> frule((NoTangent(), np.ones(2), ZeroTangent()), np.meshgrid, np.zeros(2), np.zeros(1))[1]
    Tangent(tuple, array([[1., 1.]]), array([[0., 0.]]))
    """
    y = np.meshgrid(*xi, copy=copy, sparse=sparse, indexing=indexing)
    values = [_value(d, x) for d, x in zip(tangents[1:], xi)]
    missing = any_not_implemented(*values)
    if missing is not None:
        return y, missing
    if all(v is None for v in values):
        return y, sequence_output_tangent(None, y)
    filled = [np.zeros(np.shape(x)) if v is None else v for v, x in zip(values, xi)]
    grids = np.meshgrid(*filled, copy=True, sparse=sparse, indexing=indexing)
    return y, sequence_output_tangent(list(grids), y)


@sample_inputs(np.meshgrid)
def _meshgrid_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield from with_dtypes(Sample(normal(rng, 3), normal(rng, 3), label="xy indexing"))
    yield Sample(normal(rng, 2), normal(rng, 3), normal(rng, 2), fkwargs={"indexing": "ij"}, label="three, ij")
    yield Sample(normal(rng, 2), np.arange(3), fkwargs={"sparse": True}, label="sparse, an integer vector")
    yield Sample(normal(rng, 3), label="one vector")
