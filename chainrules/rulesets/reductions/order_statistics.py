"""Order statistics: ``np.median``, ``np.nanmedian``, ``np.quantile``, ``np.nanquantile``,
``np.percentile``, ``np.nanpercentile``.

The maths
---------
Sort each slice: ``s_0 <= ... <= s_{n-1}``. Every ``method`` of ``np.quantile`` returns
``(1 - g) s_lo + g s_{lo+1}`` for a virtual index ``h = lo + g`` that depends on ``n``, ``q``
and the method only. For a fixed ordering the output is therefore linear in the sorted
values, and its derivative routes the output cotangent to the two entries sorted into
positions ``lo`` and ``lo + 1``, with weights ``1 - g`` and ``g`` (piecewise-linear
interpolation of order statistics; Hyndman & Fan, "Sample quantiles in statistical
packages", The American Statistician 50(4), 1996, define the methods). The rules read
``h`` off NumPy itself, by evaluating the quantile of ``0, 1, ..., n-1`` with the same
``method``, so every method NumPy has, present and future, gets the right weights for the
data.

The derivative with respect to ``q`` is ``(s_{lo+1} - s_lo) dh/dq``: for ``linear``,
``dh/dq = n - 1``; for the other continuous methods (``interpolated_inverted_cdf``,
``hazen``, ``weibull``, ``median_unbiased``, ``normal_unbiased``), with Hyndman & Fan's
``h = n q + alpha + q (1 - alpha - beta) - 1``, ``dh/dq = n + 1 - alpha - beta`` where ``h``
lies inside ``[0, n - 1]`` (outside it NumPy clamps, and the derivative is 0). The discrete
methods (``inverted_cdf``, ``averaged_inverted_cdf``, ``closest_observation``, ``lower``,
``higher``, ``nearest``, ``midpoint``) are piecewise constant in ``q``: derivative 0, exact
away from the jumps. ``percentile`` divides the ``q`` derivative by 100.

Ties share equally
------------------
Where several entries of a slice are equal, the weight of their sorted positions is shared
equally among them, the convention of :mod:`chainrules.rulesets.reductions.extrema`
(``np.quantile(x, 1.0)`` and ``np.max(x)`` have the same cotangent). The pushforward is the
matching linear map.

NaN
---
``median``/``quantile``/``percentile`` return NaN for a slice containing NaN; its cotangent
goes to its NaN entries (split equally, as for ``max``) and the ``q`` derivative there is 0.
The ``nan*`` variants use the non-NaN entries only (``n`` is their count); an all-NaN slice
gives a zero cotangent. An empty slice (NaN output, NumPy warns) has zero derivatives too,
also in ``q``; ``np.quantile`` of an empty array raises NumPy's own error.

NumPy 2.4's ``nanquantile``/``nanpercentile`` order their output axes wrongly when ``q`` has
two or more dimensions and several, but not all, axes are reduced (``np.nanquantile(x,
q2d, axis=(0, 2))`` differs from ``np.quantile`` on NaN-free ``x``). The rules detect the bug
at import and return ``not_implemented`` cotangents for exactly that case.

Keywords: ``axis`` (int, tuple, ``None``, negative), ``keepdims``, ``method`` (all of
NumPy's). ``overwrite_input`` is accepted but the rules always call NumPy with
``overwrite_input=False``: NumPy *allows* itself to reorder the input then, never requires
it, and the pullback needs the input unchanged. ``weights=`` (NumPy 2, ``inverted_cdf``
only) and ``out=`` raise :class:`~chainrules_core.UnsupportedKeywordError`. Complex input
(``median`` only; NumPy sorts it lexicographically) is routed the same way.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from chainrules.rulesets.reductions._axes import reduced_axes
from chainrules.rulesets.reductions._reduction_samples import axis_samples, sample_array
from chainrules.rulesets.reductions._registration import NOVALUE, given, name_pullback, register_rules, reject_out
from chainrules.rulesets.reductions._tangent_values import output_tangent, passed_on, tangent_value, to_tangent_dtype
from chainrules_core import (
    NoTangent,
    NotImplementedTangent,
    Sample,
    Thunk,
    UnsupportedKeywordError,
    cotangent_projector,
    differentiable,
    not_implemented,
    passes_through,
    read_cotangent,
    sample_inputs,
)
from chainrules_core.rules import _callable_name

_NO = NoTangent()

CONTINUOUS_METHODS = {
    "linear": (1.0, 1.0),
    "interpolated_inverted_cdf": (0.0, 1.0),
    "hazen": (0.5, 0.5),
    "weibull": (0.0, 0.0),
    "median_unbiased": (1 / 3, 1 / 3),
    "normal_unbiased": (3 / 8, 3 / 8),
}
"""Hyndman & Fan's ``(alpha, beta)`` of NumPy's continuous quantile methods."""

DISCRETE_METHODS = frozenset({"inverted_cdf", "averaged_inverted_cdf", "closest_observation", "lower", "higher",
                              "nearest", "midpoint"})
"""NumPy's quantile methods that are piecewise constant in ``q``."""


def _group_mean(values: np.ndarray, sorted_values: np.ndarray) -> np.ndarray:
    """Replace each entry of ``values`` (rows like ``sorted_values``) by the mean over its tie group.

    A tie group is a run of equal entries in a row of ``sorted_values`` (NaN never ties).
    """
    new = np.ones(sorted_values.shape, dtype=bool)
    new[:, 1:] = sorted_values[:, 1:] != sorted_values[:, :-1]
    if new.all():
        return values
    group = np.cumsum(new.ravel()) - 1
    counts = np.bincount(group)
    flat = values.ravel()
    means = np.bincount(group, weights=flat.real) / counts
    if np.iscomplexobj(flat):
        means = means + 1j * (np.bincount(group, weights=flat.imag) / counts)
    return means[group].reshape(values.shape).astype(values.dtype, copy=False)


class OrderStatistics:
    """The quantiles ``q`` of ``a`` over ``axes``, as weights on sorted positions.

    Parameters
    ----------
    a : array_like
        The input.
    q : array_like
        Quantiles in ``[0, 1]``.
    axis : int, tuple of int or None
        The reduced axes.
    method : str
        One of NumPy's quantile methods.
    skip_nan : bool
        ``True`` for the ``nan*`` functions.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.reductions.order_statistics import OrderStatistics
    >>> stats = OrderStatistics(np.array([4.0, 1.0, 3.0, 2.0]), np.array(0.5), None, "linear", skip_nan=False)
    >>> stats.cotangent(np.array([[1.0]]))
    array([0. , 0. , 0.5, 0.5])
    """

    __slots__ = (
        "g",
        "hi",
        "lo",
        "method",
        "nan_rows",
        "order",
        "perm",
        "q",
        "rows",
        "shape",
        "sorted",
        "transposed_shape",
        "valid",
    )

    def __init__(self, a: Any, q: Any, axis: Any, method: Any, *, skip_nan: bool) -> None:
        x = np.asarray(a)
        self.shape = x.shape
        axes = reduced_axes(axis, x.ndim)
        kept = tuple(i for i in range(x.ndim) if i not in axes)
        self.perm = kept + axes
        self.transposed_shape = tuple(self.shape[i] for i in self.perm)
        size = math.prod(self.shape[i] for i in axes)
        self.rows = math.prod(self.shape[i] for i in kept)
        table = x.transpose(self.perm).reshape(self.rows, size)
        self.order = np.argsort(table, axis=1, kind="stable")
        self.sorted = np.take_along_axis(table, self.order, axis=1)
        self.q = np.asarray(q, dtype=np.float64).reshape(-1)
        self.method: Any = method
        nan = np.isnan(self.sorted) if x.dtype.kind in "fc" else np.zeros(self.sorted.shape, dtype=bool)
        if skip_nan:
            self.valid = size - np.sum(nan, axis=1)
            self.nan_rows: Any = np.zeros(self.rows, dtype=bool)
        else:
            self.valid = np.full(self.rows, size)
            self.nan_rows = nan.any(axis=1)
        n_q = self.q.size
        self.lo = np.zeros((n_q, self.rows), dtype=np.intp)
        self.hi = np.zeros((n_q, self.rows), dtype=np.intp)
        self.g = np.zeros((n_q, self.rows))
        for n in np.unique(self.valid):
            if n == 0:
                continue
            rows = self.valid == n
            position = np.quantile(np.arange(n, dtype=np.float64), self.q, method=self.method)
            lo = np.clip(np.floor(position), 0, n - 1).astype(np.intp)
            self.lo[:, rows] = lo[:, None]
            self.hi[:, rows] = np.minimum(lo + 1, n - 1)[:, None]
            self.g[:, rows] = (position - lo)[:, None]
        self.g[:, self.valid == 0] = 0.0

    def _scatter(self, weights: np.ndarray) -> np.ndarray:
        """Weights on sorted positions (rows x n) back to ``a``'s layout."""
        out = np.empty_like(weights)
        np.put_along_axis(out, self.order, weights, axis=1)
        inverse = np.argsort(self.perm)
        return out.reshape(self.transposed_shape).transpose(inverse)

    def cotangent(self, dy: np.ndarray) -> np.ndarray:
        """The cotangent of ``a`` for ``dy`` laid out as (quantiles, rows)."""
        dy = np.reshape(dy, self.g.shape)
        weights = np.zeros(self.sorted.shape, dtype=np.result_type(dy.dtype, self.g.dtype))
        rows = np.broadcast_to(np.arange(self.rows), self.g.shape)
        live = np.broadcast_to(self.valid[None, :] > 0, self.g.shape)
        np.add.at(weights, (rows[live], self.lo[live]), ((1 - self.g) * dy)[live])
        np.add.at(weights, (rows[live], self.hi[live]), (self.g * dy)[live])
        weights = _group_mean(weights, self.sorted)
        if self.nan_rows.any():
            nan = np.isnan(self.sorted[self.nan_rows])
            totals = np.sum(dy[:, self.nan_rows], axis=0)[:, None]
            weights[self.nan_rows] = np.where(nan, totals / np.sum(nan, axis=1, keepdims=True), 0)
        return self._scatter(weights)

    def tangent(self, da: np.ndarray) -> np.ndarray:
        """The pushforward of ``da`` (``a``'s shape), laid out as (quantiles, rows)."""
        if self.sorted.shape[1] == 0:  # empty slices: a NaN output that no entry moves
            return np.zeros(self.g.shape, dtype=np.result_type(da, self.g))
        table = np.asarray(da).transpose(self.perm).reshape(self.sorted.shape)
        sorted_tangent = _group_mean(np.take_along_axis(table, self.order, axis=1), self.sorted)
        rows = np.arange(self.rows)[None, :]
        out = (1 - self.g) * sorted_tangent[rows, self.lo] + self.g * sorted_tangent[rows, self.hi]
        out = np.where(self.valid[None, :] > 0, out, 0)
        if self.nan_rows.any():
            nan = np.isnan(self.sorted[self.nan_rows])
            means = np.sum(np.where(nan, sorted_tangent[self.nan_rows], 0), axis=1) / np.sum(nan, axis=1)
            out[:, self.nan_rows] = means[None, :]
        return out

    def slope(self) -> Any:
        """``dy/dq`` laid out as (quantiles, rows), or ``None`` when the method is not known."""
        if self.method in DISCRETE_METHODS:
            return np.zeros(self.g.shape)
        if self.method not in CONTINUOUS_METHODS:
            return None
        if self.sorted.shape[1] == 0:
            return np.zeros(self.g.shape)
        alpha, beta = CONTINUOUS_METHODS[self.method]
        n = self.valid[None, :].astype(np.float64)
        q = self.q[:, None]
        h = n * q + alpha + q * (1 - alpha - beta) - 1
        inside = (h >= 0) & (h <= n - 1) & (n > 0) & ~self.nan_rows[None, :]
        rows = np.arange(self.rows)[None, :]
        gap = self.sorted[rows, self.hi] - self.sorted[rows, self.lo]
        return np.where(inside, gap * (n + 1 - alpha - beta), 0)


def _nan_layout_is_broken() -> bool:
    """Whether this NumPy's ``nanquantile`` misorders its output axes when ``q`` has two or more
    dimensions and several, not all, axes are reduced (``_nanquantile_ureduce_func`` moves the
    axes of ``q`` from a negative axis; NumPy 2.4 has the bug)."""
    probe = np.arange(24.0).reshape(2, 3, 4)
    q = np.array([[0.25], [0.75]])
    return bool(np.nanquantile(probe, q, axis=(0, 2)).shape != np.quantile(probe, q, axis=(0, 2)).shape)


_NAN_LAYOUT_IS_BROKEN = _nan_layout_is_broken()


def _numpy_layout_bug(name: str, a: Any, q: Any, axis: Any, skip_nan: bool) -> Any:
    """A not-implemented cotangent when NumPy's own output layout is wrong (see above), else ``None``."""
    if not (skip_nan and _NAN_LAYOUT_IS_BROKEN and np.ndim(q) >= 2):
        return None
    reduced = len(reduced_axes(axis, np.ndim(a)))
    if 2 <= reduced < np.ndim(a):
        return not_implemented(f"{name} with a q of {np.ndim(q)} dimensions and {reduced} of {np.ndim(a)} axes "
                               "reduced: NumPy orders the output axes wrongly there (a NumPy bug); reduce one axis "
                               "or all of them, or pass a flat q")
    return None


def _check_keywords(f: Any, weights: Any) -> None:
    if weights is not None:
        raise UnsupportedKeywordError(f"{_callable_name(f)}: the keyword weights= is not supported by its rule; "
                                      "call without it")


def _quantile_rrule(f: Callable[..., Any], name: str, a: Any, q: Any, axis: Any, overwrite_input: Any, method: Any,
                    keepdims: Any, weights: Any, *, skip_nan: bool, scale: float) -> tuple[Any, Any]:
    _check_keywords(f, weights)
    y = f(a, q, axis, None, False, method, **given(keepdims=keepdims))
    project_a = cotangent_projector(a)
    project_q = cotangent_projector(q)

    def quantile_pullback(dy: Any) -> tuple[Any, Any]:
        dy = read_cotangent(dy, y, f)
        if passes_through(dy):
            zero = passed_on(dy)
            return project_a(zero), project_q(zero)
        broken = _numpy_layout_bug(name, a, q, axis, skip_nan)
        if broken is not None:
            return project_a(broken), project_q(broken)
        stats = OrderStatistics(a, np.asarray(q) / scale, axis, method, skip_nan=skip_nan)
        da = project_a(stats.cotangent(to_tangent_dtype(dy, a))) if differentiable(a) else _NO

        def quantile_q() -> Any:
            slope = stats.slope()
            if slope is None:
                return not_implemented_q(method)
            dq = np.sum(np.reshape(np.real(dy), slope.shape) * slope, axis=1) / scale
            return project_q(np.reshape(dq, np.shape(q)))

        return da, Thunk(quantile_q) if differentiable(q) else _NO

    return y, quantile_pullback


def not_implemented_q(method: Any) -> Any:
    """The ``q`` cotangent for a method this module does not know (a future NumPy method)."""
    return not_implemented(f"derivative of a quantile with respect to q for method={method!r}")


def _quantile_frule(f: Callable[..., Any], tangents: tuple[Any, ...], a: Any, q: Any, axis: Any, method: Any,
                    keepdims: Any, weights: Any, *, skip_nan: bool, scale: float) -> tuple[Any, Any]:
    _check_keywords(f, weights)
    y = f(a, q, axis, None, False, method, **given(keepdims=keepdims))
    da = tangent_value(tangents[1]) if differentiable(a) else None
    dq = tangent_value(tangents[2]) if differentiable(q) else None
    for t in (da, dq):
        if isinstance(t, NotImplementedTangent):
            return y, t
    if da is None and dq is None:
        return y, output_tangent(None, y)
    broken = _numpy_layout_bug(f"np.{f.__name__}", a, q, axis, skip_nan)
    if broken is not None:
        return y, broken
    stats = OrderStatistics(a, np.asarray(q) / scale, axis, method, skip_nan=skip_nan)
    total: Any = 0
    if da is not None:
        total = stats.tangent(np.asarray(da))
    if dq is not None:
        slope = stats.slope()
        if slope is None:
            return y, not_implemented_q(method)
        total = total + slope * (np.reshape(np.asarray(dq), (-1, 1)) / scale)
    return y, output_tangent(np.reshape(total, np.shape(y)), y)


def _register_quantile(f: Callable[..., Any], short: str, *, skip_nan: bool, scale: float) -> None:
    """Register ``f(a, q, axis, out, overwrite_input, method, keepdims, *, weights)``.

    ``q`` has a default in the rules only so that ``q=`` by keyword finds them (a keyword
    is never differentiated); without it NumPy raises its own error.
    """
    name = f"np.{short}"

    def quantile_rrule(a: Any, q: Any = NOVALUE, axis: Any = None, out: Any = None, overwrite_input: Any = False,
                       method: Any = "linear", keepdims: Any = NOVALUE, *,
                       weights: Any = None) -> tuple[Any, Callable[[Any], tuple[Any, ...]]]:
        reject_out(f, out)
        if q is NOVALUE:  # q is required: NumPy's own error
            f(a)
        y, cotangents = _quantile_rrule(f, name, a, q, axis, overwrite_input, method, keepdims, weights,
                                        skip_nan=skip_nan, scale=scale)

        def quantile_pullback(dy: Any) -> tuple[Any, ...]:
            da, dq = cotangents(dy)
            return _NO, da, dq, _NO, _NO, _NO, _NO, _NO

        return y, name_pullback(quantile_pullback, short)

    def quantile_frule(tangents: tuple[Any, ...], a: Any, q: Any = NOVALUE, axis: Any = None, out: Any = None,
                       overwrite_input: Any = False, method: Any = "linear", keepdims: Any = NOVALUE, *,
                       weights: Any = None) -> tuple[Any, Any]:
        reject_out(f, out)
        if q is NOVALUE:  # q is required: NumPy's own error
            f(a)
        return _quantile_frule(f, tangents, a, q, axis, method, keepdims, weights, skip_nan=skip_nan, scale=scale)

    register_rules(f, short, quantile_rrule, quantile_frule)


_register_quantile(np.quantile, "quantile", skip_nan=False, scale=1.0)
_register_quantile(np.nanquantile, "nanquantile", skip_nan=True, scale=1.0)
_register_quantile(np.percentile, "percentile", skip_nan=False, scale=100.0)
_register_quantile(np.nanpercentile, "nanpercentile", skip_nan=True, scale=100.0)


def _register_median(f: Callable[..., Any], short: str, *, skip_nan: bool, keepdims_default: Any) -> None:
    """Register ``f(a, axis, out, overwrite_input, keepdims)``: the 0.5 quantile, method ``linear``."""

    def median_rrule(a: Any, axis: Any = None, out: Any = None, overwrite_input: Any = False,
                     keepdims: Any = keepdims_default) -> tuple[Any, Callable[[Any], tuple[Any, ...]]]:
        reject_out(f, out)
        y = f(a, axis, None, False, **given(keepdims=keepdims))
        project_a = cotangent_projector(a)

        def median_pullback(dy: Any) -> tuple[Any, ...]:
            dy = read_cotangent(dy, y, f)
            if passes_through(dy) or not differentiable(a):
                return _NO, project_a(passed_on(dy)), _NO, _NO, _NO, _NO
            stats = OrderStatistics(a, 0.5, axis, "linear", skip_nan=skip_nan)
            return _NO, project_a(stats.cotangent(to_tangent_dtype(dy, a))), _NO, _NO, _NO, _NO

        return y, name_pullback(median_pullback, short)

    def median_frule(tangents: tuple[Any, ...], a: Any, axis: Any = None, out: Any = None,
                     overwrite_input: Any = False, keepdims: Any = keepdims_default) -> tuple[Any, Any]:
        reject_out(f, out)
        y = f(a, axis, None, False, **given(keepdims=keepdims))
        da = tangent_value(tangents[1]) if differentiable(a) else None
        if da is None or isinstance(da, NotImplementedTangent):
            return y, da if da is not None else output_tangent(None, y)
        stats = OrderStatistics(a, 0.5, axis, "linear", skip_nan=skip_nan)
        return y, output_tangent(np.reshape(stats.tangent(np.asarray(da)), np.shape(y)), y)

    register_rules(f, short, median_rrule, median_frule)


_register_median(np.median, "median", skip_nan=False, keepdims_default=False)
_register_median(np.nanmedian, "nanmedian", skip_nan=True, keepdims_default=NOVALUE)


# ---- sample inputs ----------------------------------------------------------------------------------
_TIES = np.array([[1.5, -0.5, 1.5, 0.2, 0.9], [0.3, -1.0, 0.3, -1.0, 2.0]])
"""Two-way ties at the median of the first row and at the quartiles of the second."""


@sample_inputs(np.median, np.nanmedian)
def _median_samples(rng: np.random.Generator) -> list[Sample]:
    x = sample_array((2, 3, 4), rng)
    return [*axis_samples(x, before_keepdims=(None, False), rng=rng, complex_inputs=False),
            Sample(x[0], 1, label="an even number of entries"), Sample(_TIES, 1, label="ties at the median"),
            Sample(x[0], fkwargs={"axis": 0, "overwrite_input": True}, label="overwrite_input= (never used)")]


@sample_inputs(np.median)
def _complex_median_samples(rng: np.random.Generator) -> list[Sample]:
    x = sample_array((3, 5), rng)
    return [Sample(x + 1j * x[::-1], 1, label="complex (sorted lexicographically)")]


_NAN = np.array([[1.5, np.nan, 0.5, -0.3], [np.nan, 2.0, -0.7, 1.1]])

_Q = 0.3
"""A quantile away from the grid of order statistics (h = (n - 1) q is not an integer)."""


@sample_inputs(np.nanmedian)
def _nanmedian_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(_NAN, 1, label="NaN entries are skipped")]


def _nan_quantile_samples(rng: np.random.Generator, scale: float) -> list[Sample]:
    samples = [Sample(_NAN, scale * _Q, 1, label="NaN entries are skipped")]
    if _NAN_LAYOUT_IS_BROKEN:
        samples.append(Sample(sample_array((2, 3, 4), rng), scale * np.array([[0.25], [0.75]]), (0, 2),
                              label="2-d q, two of three axes reduced (NumPy's layout bug: not implemented)"))
    return samples


@sample_inputs(np.nanquantile)
def _nanquantile_samples(rng: np.random.Generator) -> list[Sample]:
    return _nan_quantile_samples(rng, 1.0)


@sample_inputs(np.nanpercentile)
def _nanpercentile_samples(rng: np.random.Generator) -> list[Sample]:
    return _nan_quantile_samples(rng, 100.0)


def _quantile_samples(rng: np.random.Generator, scale: float) -> list[Sample]:
    x = sample_array((2, 3, 4), rng)
    y = sample_array((3, 6), rng)
    q = _Q * scale
    qs = np.array([0.15, 0.55, 0.85]) * scale
    return [Sample(x, q, label="all axes"), Sample(x, q, 1, label="axis by position"),
            Sample(x, qs, fkwargs={"axis": (0, 2), "keepdims": True}, label="an array of q, axis tuple, keepdims"),
            Sample(y, [0.25 * scale, 0.7 * scale], -1, label="q as a list"),
            Sample(y.astype(np.float32), np.float32(q), 0, label="float32"),
            Sample(y, q, 1, None, False, "weibull", label="method by position (continuous)"),
            Sample(y, q, fkwargs={"axis": 1, "method": "hazen"}, label="method by keyword"),
            Sample(y, q, 1, None, False, "lower", label="a discrete method (piecewise constant in q)"),
            # q held fixed (by keyword) where finite differences in q leave its domain or cross a kink
            Sample(y, fkwargs={"q": 0.0, "axis": 1}, label="q = 0: the minimum"),
            Sample(y, fkwargs={"q": scale, "axis": 1}, label="q = 1: the maximum"),
            Sample(_TIES, fkwargs={"q": qs, "axis": 1}, label="ties (q by keyword, not differentiated)")]


@sample_inputs(np.quantile, np.nanquantile)
def _fraction_samples(rng: np.random.Generator) -> list[Sample]:
    return _quantile_samples(rng, 1.0)


@sample_inputs(np.percentile, np.nanpercentile)
def _percent_samples(rng: np.random.Generator) -> list[Sample]:
    return _quantile_samples(rng, 100.0)
