"""Sums and means: ``np.sum``, ``np.nansum``, ``np.mean``, ``np.nanmean``, ``np.average``.

Also the methods ``ndarray.sum`` and ``ndarray.mean`` (``rrule(x.sum, ...)`` reaches them).

The maths
---------
``y = sum(x over axes)`` is linear, so its pullback broadcasts the output cotangent back
over the reduced axes and its pushforward sums the input tangent. ``mean`` divides by the
number of elements summed; the NaN-skipping variants are the masked sum/mean with the mask
``~isnan(x)`` (a NaN entry gets a zero cotangent), exactly as NumPy's ``where=`` mask.
``average(a, axis, weights)`` is ``A = sum(a w) / S`` with ``S = sum(w)``:
``dA/da = w / S`` and ``dA/dw = (a - A) / S``; with ``returned=True`` the second output
``S`` (broadcast to ``A``'s shape) adds its own cotangent to every weight. Complex inputs
follow the library's convention (the pullback multiplies by the conjugate derivative).

The mean of an empty slice is ``0/0 = NaN`` (NumPy warns) and depends on nothing: the
cotangent of its (no) entries is empty and the tangent of its output is the empty sum, 0
(not ``0/0``), so the frule and the rrule agree.

Memory
------
Without a mask (no ``where=``, no NaN in the input of a NaN-variant), the cotangent of the
input is a read-only ``np.broadcast_to`` view of a copy of the small output cotangent: the
pullback allocates the size of the *output*, never of the input. ``add_`` adds such a view
into an accumulator in place; an AD that writes into cotangents it receives must copy it
first (``add_`` does so on its own: it never writes into a read-only array).

Keywords
--------
``axis`` (int, tuple, ``None``, negative), ``dtype`` (the cotangent is cast back to the
input's precision), ``keepdims``, ``initial`` (sum: differentiable when passed by
position) and ``where`` (a boolean mask, for every function here that takes it) are
supported; ``out=`` raises :class:`~chainrules_core.UnsupportedKeywordError`.

Examples
--------
>>> import numpy as np
>>> from chainrules import rrule, frule, NoTangent
>>> y, pb = rrule(np.sum, np.ones((2, 3)), 0)
>>> pb(np.array([1.0, 2.0, 3.0]))[1]
array([[1., 2., 3.],
       [1., 2., 3.]])
>>> y, pb = rrule(np.nanmean, np.array([1.0, np.nan, 3.0]))
>>> pb(1.0)[1]
array([0.5, 0. , 0.5])
>>> frule((NoTangent(), np.array([1.0, 5.0])), np.nansum, np.array([2.0, np.nan]))
(np.float64(2.0), np.float64(1.0))
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.lib.array_utils import normalize_axis_tuple

from chainrules.rulesets.reductions._axes import broadcast_view, keepdims_shape, reduced_axes
from chainrules.rulesets.reductions._reduction_samples import axis_samples, sample_array
from chainrules.rulesets.reductions._registration import (
    NOVALUE,
    given,
    name_pullback,
    register_method,
    register_rules,
    reject_out,
)
from chainrules.rulesets.reductions._tangent_values import (
    output_tangent,
    passed_on,
    tangent_value,
    to_tangent_dtype,
)
from chainrules_core import (
    NUMERIC,
    NoTangent,
    NotImplementedTangent,
    Sample,
    Tangent,
    Thunk,
    ZeroTangent,
    cotangent_projector,
    differentiable,
    frule,
    passes_through,
    read_cotangent,
    read_cotangents,
    rrule,
    sample_inputs,
)

_NO = NoTangent()
_ZERO = ZeroTangent()


def summation_mask(a: Any, where: Any, skip_nan: bool) -> np.ndarray | None:
    """The entries a masked reduction uses: ``where`` and, to skip NaNs, ``~isnan(a)``.

    ``None`` means every entry (no ``where=`` and no NaN to skip), the case whose
    pullback needs no full-size array.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.reductions.sums import summation_mask
    >>> summation_mask(np.array([1.0, np.nan]), True, skip_nan=True)
    array([ True, False])
    >>> summation_mask(np.ones(2), np._NoValue, skip_nan=True) is None
    True
    """
    shape = np.shape(a)
    mask = None
    if where is not NOVALUE and not (isinstance(where, (bool, np.bool_)) and where):
        mask = np.broadcast_to(np.asarray(where, dtype=bool), shape)
    if skip_nan and np.asarray(a).dtype.kind in "fc":
        nan = np.isnan(a)
        if nan.any():
            mask = ~nan if mask is None else mask & ~nan
    return mask


class _Summation:
    """A (masked) sum or mean of ``a`` over ``axes``: what its pullback and pushforward need."""

    __slots__ = ("a", "axes", "count", "mask", "mean", "shape")

    def __init__(self, a: Any, axis: Any, mask: np.ndarray | None, mean: bool) -> None:
        self.a = a
        self.shape = np.shape(a)
        self.axes = reduced_axes(axis, len(self.shape))
        self.mask = mask
        self.mean = mean
        self.count: Any = None
        if mean:
            # An empty slice has the output 0/0 = NaN (NumPy warns) and no inputs: its tangent is
            # the empty sum, 0, and nothing receives its cotangent. Dividing by max(count, 1)
            # gives exactly that, in the frule and the rrule alike.
            if mask is None:
                self.count = max(math.prod(self.shape[i] for i in self.axes), 1)
            else:
                self.count = np.maximum(np.sum(mask, axis=self.axes, keepdims=True), 1)

    def cotangent(self, dy: np.ndarray) -> Any:
        """The cotangent of ``a`` for the output cotangent ``dy`` (an array of the output's shape)."""
        small = to_tangent_dtype(dy, self.a).reshape(keepdims_shape(self.shape, self.axes))
        if self.count is not None:
            small = small / self.count
        elif np.may_share_memory(small, dy):
            small = small.copy()  # the view returned must not alias the caller's cotangent
        if self.mask is None:
            return broadcast_view(small, self.shape)
        return np.where(self.mask, small, np.zeros((), small.dtype))

    def tangent(self, da: Any, dtype: Any) -> Any:
        """The pushforward of the tangent ``da`` (kept with the reduced axes as length one)."""
        where: dict[str, Any] = {} if self.mask is None else {"where": self.mask}
        total = np.sum(da, axis=self.axes, dtype=dtype, keepdims=True, **where)
        return total / self.count if self.count is not None else total


def _summation_rrule(f: Callable[..., Any], a: Any, axis: Any, dtype: Any, keepdims: Any,
                     initial: Any, where: Any, *, skip_nan: bool, mean: bool) -> tuple[Any, Any]:
    """The primal output and a function from the output cotangent to ``(da, dinitial)``."""
    y = f(a, axis, dtype, **given(keepdims=keepdims, initial=initial, where=where))
    project_a = cotangent_projector(a)
    has_initial = initial is not NOVALUE
    project_initial = cotangent_projector(initial) if has_initial else None
    differentiable_a = differentiable(a)

    def summation_pullback(dy: Any) -> tuple[Any, Any]:
        dy = read_cotangent(dy, y, f)
        if passes_through(dy):
            zero = passed_on(dy)
            return (project_a(zero), project_initial(zero) if project_initial else _NO)
        da: Any = _NO
        if differentiable_a:
            reduction = _Summation(a, axis, summation_mask(a, where, skip_nan), mean)
            da = project_a(reduction.cotangent(dy))
        dinitial: Any = _NO
        if project_initial is not None:
            dinitial = Thunk(lambda: project_initial(np.sum(dy)))
        return da, dinitial

    return y, summation_pullback


def _summation_frule(f: Callable[..., Any], tangents: tuple[Any, ...], a: Any, axis: Any, dtype: Any,
                     keepdims: Any, initial: Any, where: Any, initial_slot: int | None, *, skip_nan: bool,
                     mean: bool) -> tuple[Any, Any]:
    y = f(a, axis, dtype, **given(keepdims=keepdims, initial=initial, where=where))
    da = tangent_value(tangents[1])
    dinitial = tangent_value(tangents[initial_slot]) if initial_slot is not None else None
    if isinstance(da, NotImplementedTangent):
        return y, da
    total: Any = None
    if da is not None and differentiable(a):
        reduction = _Summation(a, axis, summation_mask(a, where, skip_nan), mean)
        total = reduction.tangent(np.asarray(da), dtype if differentiable(np.empty(0, dtype)) else None)
    if dinitial is not None and initial is not NOVALUE:
        total = dinitial if total is None else total + dinitial
    if total is not None:
        total = np.broadcast_to(total, keepdims_shape(np.shape(a), reduced_axes(axis, np.ndim(a))))
        total = np.reshape(total, np.shape(y))
    return y, output_tangent(total, y)


# ---- np.sum, np.nansum, ndarray.sum -------------------------------------------------------------
def _register_sum(f: Callable[..., Any], short: str, *,
                  skip_nan: bool) -> tuple[Callable[..., Any], Callable[..., Any]]:
    """Register the rules of ``f(a, axis, dtype, out, keepdims, initial, where)`` (sum, nansum)."""
    def sum_rrule(a: Any, axis: Any = None, dtype: Any = None, out: Any = None, keepdims: Any = NOVALUE,
                  initial: Any = NOVALUE, where: Any = NOVALUE) -> tuple[Any, Callable[[Any], tuple[Any, ...]]]:
        if (fast and type(a) is np.ndarray and a.dtype in _FAST_DTYPES and (axis is None or type(axis) is int)
                and dtype is None and out is None and keepdims is NOVALUE and initial is NOVALUE
                and where is NOVALUE):
            return _sum_rrule_fast(a, axis, general_sum_rrule)
        return general_sum_rrule(a, axis, dtype, out, keepdims, initial, where)

    def general_sum_rrule(a: Any, axis: Any = None, dtype: Any = None, out: Any = None, keepdims: Any = NOVALUE,
                          initial: Any = NOVALUE,
                          where: Any = NOVALUE) -> tuple[Any, Callable[[Any], tuple[Any, ...]]]:
        reject_out(f, out)
        y, cotangents = _summation_rrule(f, a, axis, dtype, keepdims, initial, where,
                                         skip_nan=skip_nan, mean=False)

        def sum_pullback(dy: Any) -> tuple[Any, ...]:
            da, dinitial = cotangents(dy)
            return _NO, da, _NO, _NO, _NO, _NO, dinitial, _NO

        return y, name_pullback(sum_pullback, short)

    fast = f is np.sum
    sum_rrule.general = general_sum_rrule  # type: ignore[attr-defined]

    def sum_frule(tangents: tuple[Any, ...], a: Any, axis: Any = None, dtype: Any = None, out: Any = None,
                  keepdims: Any = NOVALUE, initial: Any = NOVALUE, where: Any = NOVALUE) -> tuple[Any, Any]:
        reject_out(f, out)
        return _summation_frule(f, tangents, a, axis, dtype, keepdims, initial, where, 6,
                                skip_nan=skip_nan, mean=False)

    return register_rules(f, short, sum_rrule, sum_frule)


# The dtypes whose tangent dtype is their own: a cotangent of that dtype needs no cast.
_FAST_DTYPES = frozenset(np.dtype(t) for t in (np.float64, np.float32, np.complex128, np.complex64))


def _sum_rrule_fast(a: np.ndarray, axis: int | None,
                    general: Callable[..., Any]) -> tuple[Any, Callable[[Any], tuple[Any, ...]]]:
    """``np.sum(a, axis)`` for an ndarray of a float or complex dtype and no other keyword.

    A cotangent that is an ndarray of the output's shape and dtype is copied (the output's
    size) and broadcast back to a read-only view of ``a``'s shape, as
    :meth:`_Summation.cotangent` does; a float cotangent of a float64 number output fills
    an array of ones along every axis (the broadcast view is read-only as well); any other
    cotangent goes through the general
    pullback (built when first needed), which reads, validates and projects it. Both give
    the same results (``tests/chainrules_core/test_fast_paths.py``).
    """
    y = np.add.reduce(a, axis)  # what np.sum does for an ndarray, without its Python layers
    shape = a.shape
    scalar = type(y) is np.float64  # a float64 number out: a Python or NumPy float cotangent is common
    slow: list[Callable[[Any], tuple[Any, ...]]] = []

    def sum_pullback(dy: Any) -> tuple[Any, ...]:
        t = type(dy)
        if t is np.ndarray and dy.dtype == a.dtype and dy.shape == y.shape:
            small = dy.reshape(keepdims_shape(shape, reduced_axes(axis, len(shape))))
            return _NO, broadcast_view(small.copy(), shape), _NO, _NO, _NO, _NO, _NO, _NO
        if scalar and (t is float or t is np.float64):
            small = np.full(keepdims_shape(shape, reduced_axes(axis, len(shape))), dy)
            return _NO, broadcast_view(small, shape), _NO, _NO, _NO, _NO, _NO, _NO
        if not slow:
            slow.append(general(a, axis)[1])
        return slow[0](dy)

    return y, name_pullback(sum_pullback, "sum")


def _register_mean(f: Callable[..., Any], short: str, *,
                   skip_nan: bool) -> tuple[Callable[..., Any], Callable[..., Any]]:
    """Register the rules of ``f(a, axis, dtype, out, keepdims, *, where)`` (mean, nanmean)."""
    def mean_rrule(a: Any, axis: Any = None, dtype: Any = None, out: Any = None, keepdims: Any = NOVALUE, *,
                   where: Any = NOVALUE) -> tuple[Any, Callable[[Any], tuple[Any, ...]]]:
        reject_out(f, out)
        y, cotangents = _summation_rrule(f, a, axis, dtype, keepdims, NOVALUE, where,
                                         skip_nan=skip_nan, mean=True)

        def mean_pullback(dy: Any) -> tuple[Any, ...]:
            da, _ = cotangents(dy)
            return _NO, da, _NO, _NO, _NO, _NO  # a, axis, dtype, out, keepdims

        return y, name_pullback(mean_pullback, short)

    def mean_frule(tangents: tuple[Any, ...], a: Any, axis: Any = None, dtype: Any = None, out: Any = None,
                   keepdims: Any = NOVALUE, *, where: Any = NOVALUE) -> tuple[Any, Any]:
        reject_out(f, out)
        return _summation_frule(f, tangents, a, axis, dtype, keepdims, NOVALUE, where, None,
                                skip_nan=skip_nan, mean=True)

    return register_rules(f, short, mean_rrule, mean_frule)


sum_rrule, sum_frule = _register_sum(np.sum, "sum", skip_nan=False)
nansum_rrule, nansum_frule = _register_sum(np.nansum, "nansum", skip_nan=True)
mean_rrule, mean_frule = _register_mean(np.mean, "mean", skip_nan=False)
nanmean_rrule, nanmean_frule = _register_mean(np.nanmean, "nanmean", skip_nan=True)


register_method(np.ndarray.sum, np.sum, ("axis", "dtype", "out"), ("keepdims", "initial", "where"))
register_method(np.ndarray.mean, np.mean, ("axis", "dtype", "out"), ("keepdims", "where"))


# ---- np.average ---------------------------------------------------------------------------------
def _weights_like_numpy(a: np.ndarray, weights: Any, axis: Any) -> tuple[np.ndarray, Callable[[Any], Any]]:
    """NumPy's weights laid out against ``a`` (length one off the axes), and the adjoint of that layout.

    ``np.average`` accepts weights of ``a``'s shape, or of the shape of ``a`` along
    ``axis`` (in the caller's axis order); the second function maps a cotangent of ``a``'s
    shape back to the weights' shape.
    """
    w = np.asarray(weights)
    if w.shape == a.shape:
        return w, _identity
    order = tuple(normalize_axis_tuple(axis, a.ndim))
    perm = np.argsort(order)
    inverse = tuple(int(i) for i in np.argsort(perm))
    layout = tuple(n if ax in order else 1 for ax, n in enumerate(a.shape))
    other = tuple(ax for ax in range(a.ndim) if ax not in order)
    sorted_shape = tuple(a.shape[ax] for ax in sorted(order))

    def weights_back(dw: Any) -> Any:
        summed = np.sum(dw, axis=other) if other else dw
        return np.reshape(summed, sorted_shape).transpose(inverse)

    return w.transpose(perm).reshape(layout), weights_back


def _identity(x: Any) -> Any:
    return x


@rrule.register(np.average, NUMERIC)
def average_rrule(a: Any, axis: Any = None, weights: Any = None, returned: Any = False, *,
                  keepdims: Any = NOVALUE) -> tuple[Any, Callable[[Any], tuple[Any, ...]]]:
    """Reverse rule of ``np.average`` with respect to ``a`` and ``weights``.

    With ``returned=True`` the output is ``(average, sum_of_weights)`` and the cotangent a
    ``Tangent(tuple, ...)`` (or a tuple); the sum of the weights adds its cotangent to every
    weight. Without weights that sum is a constant (the count).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule, unthunk
    >>> y, pb = rrule(np.average, np.array([1.0, 3.0]), None, np.array([1.0, 3.0]))
    >>> _, da, _, dw = pb(1.0)
    >>> unthunk(da), unthunk(dw)
    (array([0.25, 0.75]), array([-0.375,  0.125]))
    """
    y = np.average(a, axis, weights, returned, **given(keepdims=keepdims))
    avg = y[0] if returned else y
    arr = np.asarray(a)
    axes = reduced_axes(axis, arr.ndim)
    kshape = keepdims_shape(arr.shape, axes)
    count = max(math.prod(arr.shape[i] for i in axes), 1)  # an empty slice: NaN output, nothing to differentiate
    project_a = cotangent_projector(a)
    project_weights = cotangent_projector(weights)

    def average_pullback(dy: Any) -> tuple[Any, ...]:
        parts: tuple[Any, ...]
        if returned:
            read = read_cotangents(dy, y, np.average)
            parts = (read, read) if passes_through(read) else tuple(_ZERO if p is None else p for p in read)
        else:
            parts = (read_cotangent(dy, y, np.average),)
        d_avg = None if passes_through(parts[0]) else np.reshape(parts[0], kshape)
        d_sum = None if len(parts) == 1 or passes_through(parts[1]) else np.reshape(parts[1], kshape)
        if d_avg is None and (d_sum is None or weights is None):
            zero = next((p for p in parts if isinstance(p, NotImplementedTangent)), ZeroTangent())
            return _NO, project_a(zero), _NO, project_weights(zero), _NO
        if weights is None:
            da = broadcast_view(to_tangent_dtype(d_avg, a) / count, arr.shape)
            return _NO, project_a(da), _NO, _NO, _NO
        w, weights_back = _weights_like_numpy(arr, weights, axis)
        total = np.sum(w, axis=axes, keepdims=True)

        def average_a() -> Any:
            if d_avg is None:
                return ZeroTangent()
            return project_a(np.broadcast_to(np.conj(w / total) * d_avg, arr.shape))

        def average_weights() -> Any:
            dw: Any = 0
            if d_avg is not None:
                dw = np.conj((arr - np.reshape(avg, kshape)) / total) * d_avg
            if d_sum is not None:
                dw = dw + d_sum
            return project_weights(weights_back(np.broadcast_to(dw, arr.shape)))

        return _NO, Thunk(average_a), _NO, Thunk(average_weights), _NO

    return y, average_pullback


@frule.register(np.average, NUMERIC)
def average_frule(tangents: tuple[Any, ...], a: Any, axis: Any = None, weights: Any = None, returned: Any = False,
                  *, keepdims: Any = NOVALUE) -> tuple[Any, Any]:
    """Forward rule of ``np.average`` (tangents of ``a`` and ``weights``).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> x, w = np.array([1.0, 3.0]), np.array([1.0, 1.0])
    >>> frule((NoTangent(), np.array([1.0, 1.0]), NoTangent(), np.array([0.0, 2.0])), np.average, x, None, w)
    (np.float64(2.0), np.float64(2.0))
    """
    y = np.average(a, axis, weights, returned, **given(keepdims=keepdims))
    avg = y[0] if returned else y
    arr = np.asarray(a)
    axes = reduced_axes(axis, arr.ndim)
    da = tangent_value(tangents[1]) if differentiable(a) else None
    dweights = tangent_value(tangents[3]) if differentiable(weights) else None
    d_avg: Any = None
    d_sum: Any = None
    if weights is None:
        if da is not None:
            d_avg = np.sum(np.asarray(da), axis=axes, keepdims=True) / max(math.prod(arr.shape[i] for i in axes), 1)
    else:
        w, _ = _weights_like_numpy(arr, weights, axis)
        total = np.sum(w, axis=axes, keepdims=True)
        terms = []
        if da is not None:
            terms.append(w * np.asarray(da))
        if dweights is not None:
            dw, _ = _weights_like_numpy(arr, np.asarray(dweights), axis)
            centred = arr - np.reshape(avg, keepdims_shape(arr.shape, axes))
            terms.append(centred * dw)
            d_sum = np.broadcast_to(np.sum(np.broadcast_to(dw, arr.shape), axis=axes, keepdims=True),
                                    keepdims_shape(arr.shape, axes))
        if terms:
            d_avg = np.sum(sum(terms[1:], terms[0]), axis=axes, keepdims=True) / total
    d_avg_out = output_tangent(None if d_avg is None else np.reshape(d_avg, np.shape(avg)), avg)
    if not returned:
        return y, d_avg_out
    d_sum_out = output_tangent(None if d_sum is None else np.reshape(d_sum, np.shape(y[1])), y[1])
    return y, Tangent(tuple, d_avg_out, d_sum_out)


# ---- sample inputs ----------------------------------------------------------------------------------
_MASK = np.array([[True, False, True], [True, True, False]])


@sample_inputs(np.sum, np.nansum)
def _sum_samples(rng: np.random.Generator) -> list[Sample]:
    x = sample_array((2, 3, 2), rng)
    y = sample_array((2, 3), rng)
    return [*axis_samples(x, before_keepdims=(None, None), rng=rng),
            Sample(y, 1, None, None, False, 2.5, label="initial by position (differentiated)"),
            Sample(y, fkwargs={"initial": 2.5, "axis": 0}, label="initial by keyword"),
            Sample(y, fkwargs={"where": _MASK, "axis": 1}, label="where= mask"),
            Sample(y.astype(np.float32), 0, np.float64, label="dtype by position (float32 input)"),
            Sample(y, fkwargs={"dtype": np.complex128}, label="a complex dtype")]


@sample_inputs(np.nansum)
def _nansum_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(np.array([[1.5, np.nan, 0.5], [-0.5, 2.0, np.nan]]), 1, label="NaN entries are skipped")]


@sample_inputs(np.mean, np.nanmean)
def _mean_samples(rng: np.random.Generator) -> list[Sample]:
    y = sample_array((2, 3), rng)
    return [*axis_samples(sample_array((2, 3, 2), rng), before_keepdims=(None, None), rng=rng),
            Sample(y, fkwargs={"where": _MASK, "axis": 1}, label="where= mask"),
            Sample(y.astype(np.float32), None, np.float64, label="dtype by position (float32 input)")]


@sample_inputs(np.nanmean)
def _nanmean_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(np.array([[1.5, np.nan, 0.5], [-0.5, 2.0, np.nan]]), 1, label="NaN entries are skipped")]


@sample_inputs(np.ndarray.sum, np.ndarray.mean)
def _method_samples(rng: np.random.Generator) -> list[Sample]:
    x = sample_array((2, 3), rng)
    return [Sample(x), Sample(x, 1, label="axis by position"),
            Sample(x.astype(np.float32), fkwargs={"axis": 0, "keepdims": True}, label="float32, keywords")]


@sample_inputs(np.average)
def _average_samples(rng: np.random.Generator) -> list[Sample]:
    x = sample_array((2, 3), rng)
    w = rng.uniform(0.5, 2.0, (2, 3))
    return [Sample(x, label="no weights"), Sample(x, 1, label="axis by position"),
            Sample(x, None, w, label="weights by position (differentiated)"),
            Sample(x, 1, w[0], label="1-d weights along the axis"),
            Sample(x, fkwargs={"axis": 0, "weights": w}, label="weights by keyword"),
            Sample(x, 1, w, True, label="returned=True: (average, sum of weights)"),
            Sample(x.astype(np.float32), 0, w.astype(np.float32), label="float32"),
            Sample(x + 1j * x[::-1], 1, w, label="complex"),
            Sample(x, fkwargs={"axis": 1, "keepdims": True}, label="keepdims"),
            Sample(np.zeros(0), label="empty (NaN, zero derivative)")]
