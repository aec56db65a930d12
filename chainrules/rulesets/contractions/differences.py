"""Finite differences: ``np.diff`` (``n``, ``axis``, ``prepend``, ``append``), ``np.ediff1d``
(``to_begin``, ``to_end``) and ``np.gradient`` (scalar spacings, coordinate arrays,
``axis``, ``edge_order`` 1 and 2).

The maths
---------
* ``diff`` applies the difference operator ``(D x)_i = x_{i+1} - x_i`` ``n`` times along
  ``axis`` to ``concatenate([prepend, a, append])``. Its adjoint is
  ``D^T y = -diff(pad(y, 1))`` (pad one zero on each side), so
  ``(D^T)^n dy = (-1)^n diff(pad(dy, n), n)``: one ``np.diff`` call; the result is split
  between ``prepend``, ``a`` and ``append`` (a scalar ``prepend``/``append`` was broadcast,
  so its part is summed).
* ``gradient`` is, along each axis, a banded linear operator (second-order central
  differences inside, one-sided differences of order ``edge_order`` at the ends; the
  coefficients for unevenly spaced coordinates are those of Fornberg, "Generation of
  finite difference formulas on arbitrarily spaced grids", Math. Comp. 51 (1988), as
  NumPy's documentation gives them). The cotangent of ``f`` applies the transposed band.
  The coefficients are rational functions of the spacings ``h_i = x_{i+1} - x_i``; their
  partial derivatives give the cotangent of a coordinate array (through the adjoint of
  ``h = diff(x)``) and of a scalar spacing (every ``h_i`` equals it, so its cotangent is the
  sum). NumPy switches to its uniform-spacing code when the coordinates are evenly spaced;
  the values agree, and the derivative is the one of the general formula (the function is
  the same on both sides of the switch).
"""

from __future__ import annotations

import functools
import numbers
import operator
from typing import Any, Literal, NamedTuple, SupportsIndex

import numpy as np

from chainrules.rulesets.contractions._multilinear import lazy_cotangent, sum_tangents
from chainrules.rulesets.reductions._tangent_values import passed_on, tangent_value
from chainrules_core import (
    NUMERIC,
    AbstractZero,
    NoTangent,
    NotImplementedTangent,
    ProjectTo,
    Sample,
    Tangent,
    Varargs,
    ZeroTangent,
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

_NO_VALUE: Any = getattr(np, "_NoValue", None)  # NumPy's "argument not given" default
_EDGE = (numbers.Number, np.ndarray, type(_NO_VALUE))  # what diff's prepend/append may be
_DIFF_TYPES = (np.ndarray, SupportsIndex, SupportsIndex, _EDGE, _EDGE)


def diff_adjoint(dy: np.ndarray, n: int, axis: int) -> np.ndarray:
    """The adjoint of ``np.diff(x, n, axis)`` applied to ``dy``: ``(-1)^n diff(pad(dy, n), n)``.

    Examples
    --------
    >>> diff_adjoint(np.array([1.0, 2.0]), 1, 0)      # x_bar for y = [x1 - x0, x2 - x1]
    array([-1., -1.,  2.])
    """
    if n == 0:
        return dy
    widths = [(0, 0)] * dy.ndim
    widths[axis] = (n, n)
    out = np.diff(np.pad(dy, widths), n, axis=axis)
    return -out if n % 2 else out


def _given(x: Any) -> bool:
    return x is not _NO_VALUE


def _slice_along(x: np.ndarray, axis: int, start: int, stop: int | None) -> np.ndarray:
    index = [slice(None)] * x.ndim
    index[axis] = slice(start, stop)
    return x[tuple(index)]


def _diff_edge(x: Any, a: np.ndarray, axis: int) -> np.ndarray:
    """``prepend``/``append`` as NumPy uses them: a scalar becomes a length-1 slab along ``axis``."""
    x = np.asanyarray(x)
    if x.ndim == 0:
        shape = list(a.shape)
        shape[axis] = 1
        x = np.broadcast_to(x, tuple(shape))
    return x


@rrule.register(np.diff, *_DIFF_TYPES)
def diff_rrule(a: np.ndarray, n: SupportsIndex = 1, axis: SupportsIndex = -1, prepend: Any = _NO_VALUE,
              append: Any = _NO_VALUE) -> Any:
    """Reverse rule of ``np.diff(a, n, axis, prepend, append)``: ``(-1)^n diff(pad(dy, n), n)``, split.

    Examples
    --------
    >>> from chainrules import unthunk
    >>> y, pullback = rrule(np.diff, np.array([1.0, 4.0, 9.0]))
    >>> unthunk(pullback(np.array([1.0, 1.0]))[1])
    array([-1.,  0.,  1.])
    """
    n, axis = operator.index(n), operator.index(axis)
    y = np.diff(a, n, axis, prepend, append)
    ax = axis % a.ndim
    project_a = cotangent_projector(a)
    edges = [(x, cotangent_projector(x) if _given(x) else None) for x in (prepend, append)]
    lengths = [_diff_edge(x, a, ax).shape[ax] if _given(x) and n else 0 for x, _ in edges]

    def diff_pullback(dy: Any) -> tuple[Any, ...]:
        dy = read_cotangent(dy, y, np.diff)
        if passes_through(dy):
            zero = passed_on(dy)
            return (NoTangent(), project_a(zero), NoTangent(), NoTangent(),
                    *(NoTangent() if p is None else p(zero) for _, p in edges))
        zeros = tuple(NoTangent() if p is None else p(ZeroTangent()) for _, p in edges)
        if n == 0:
            return NoTangent(), project_a(dy), NoTangent(), NoTangent(), *zeros
        combined = diff_adjoint(np.asarray(dy), n, ax)
        start = lengths[0]
        da = lazy_cotangent(project_a, lambda: _slice_along(combined, ax, start, start + a.shape[ax]))
        parts = [_slice_along(combined, ax, 0, start), _slice_along(combined, ax, start + a.shape[ax], None)]
        cotangents = [NoTangent() if p is None else lazy_cotangent(p, functools.partial(unbroadcast, part, np.shape(x)))
                      for (x, p), part in zip(edges, parts)]
        return NoTangent(), da, NoTangent(), NoTangent(), *cotangents

    return y, diff_pullback


@frule.register(np.diff, *_DIFF_TYPES)
def diff_frule(tangents: Any, a: np.ndarray, n: SupportsIndex = 1, axis: SupportsIndex = -1,
               prepend: Any = _NO_VALUE, append: Any = _NO_VALUE) -> Any:
    """Forward rule of ``np.diff``: the same differences of the tangents.

    Examples
    --------
    >>> frule((NoTangent(), np.array([0.0, 1.0, 0.0])), np.diff, np.array([1.0, 4.0, 9.0]))[1]
    array([ 1., -1.])
    """
    n, axis = operator.index(n), operator.index(axis)
    y = np.diff(a, n, axis, prepend, append)
    da, dp, dq = (tangent_value(tangents[i]) for i in (1, 4, 5))
    if n == 0:
        return y, sum_tangents([da], ProjectTo(y))
    if da is None and (dp is None or not _given(prepend)) and (dq is None or not _given(append)):
        return y, ZeroTangent()
    dtype = np.result_type(*(np.asarray(t).dtype for t in (da, dp, dq) if t is not None))
    da = np.zeros(a.shape, dtype) if da is None else da

    def edge_tangent(x: Any, dx: Any) -> Any:
        if not _given(x):
            return _NO_VALUE
        return np.zeros(np.shape(x), dtype) if dx is None else dx

    dy = np.diff(da, n, axis, edge_tangent(prepend, dp), edge_tangent(append, dq))
    return y, ProjectTo(y)(dy)


# ---- ediff1d ------------------------------------------------------------------------------------------
_OPTIONAL_NUMERIC = (numbers.Number, np.ndarray, type(None))


@rrule.register(np.ediff1d, np.ndarray, _OPTIONAL_NUMERIC, _OPTIONAL_NUMERIC)
def ediff1d_rrule(ary: np.ndarray, to_end: Any = None, to_begin: Any = None) -> Any:
    """Reverse rule of ``np.ediff1d(ary, to_end, to_begin)``: the output cotangent split into its three parts.

    Examples
    --------
    >>> from chainrules import unthunk
    >>> y, pullback = rrule(np.ediff1d, np.array([1.0, 4.0, 9.0]), None, 0.0)
    >>> tuple(map(unthunk, pullback(np.array([5.0, 1.0, 1.0]))[1:]))
    (array([-1.,  0.,  1.]), NoTangent(), 5.0)
    """
    y = np.ediff1d(ary, to_end, to_begin)
    project_ary = cotangent_projector(ary)
    project_end, project_begin = cotangent_projector(to_end), cotangent_projector(to_begin)  # None gives NoTangent()
    n_begin = 0 if to_begin is None else np.size(to_begin)
    n_mid = max(ary.size - 1, 0)

    def ediff1d_pullback(dy: Any) -> tuple[Any, ...]:
        dy = read_cotangent(dy, y, np.ediff1d)
        if passes_through(dy):
            zero = passed_on(dy)
            return NoTangent(), project_ary(zero), project_end(zero), project_begin(zero)
        dy = np.asarray(dy)
        mid = dy[n_begin:n_begin + n_mid]
        dary = lazy_cotangent(project_ary, lambda: np.reshape(diff_adjoint(mid, 1, 0) if ary.size else mid, ary.shape))
        dend = lazy_cotangent(project_end, lambda: np.reshape(dy[n_begin + n_mid:], np.shape(to_end)))
        dbegin = lazy_cotangent(project_begin, lambda: np.reshape(dy[:n_begin], np.shape(to_begin)))
        return NoTangent(), dary, dend, dbegin

    return y, ediff1d_pullback


@frule.register(np.ediff1d, np.ndarray, _OPTIONAL_NUMERIC, _OPTIONAL_NUMERIC)
def ediff1d_frule(tangents: Any, ary: np.ndarray, to_end: Any = None, to_begin: Any = None) -> Any:
    """Forward rule of ``np.ediff1d``: ``ediff1d`` of the tangents.

    Examples
    --------
    >>> frule((NoTangent(), np.array([0.0, 1.0, 0.0])), np.ediff1d, np.ones(3))[1]
    array([ 1., -1.])
    """
    y = np.ediff1d(ary, to_end, to_begin)
    values = [tangent_value(t) for t in tangents[1:]]
    if all(v is None for v in values):
        return y, ZeroTangent()
    dary, dend, dbegin = values
    dtype = y.dtype if y.dtype.kind in "fc" else np.dtype(np.float64)
    dary = np.zeros(ary.shape, dtype) if dary is None else dary

    def part(x: Any, dx: Any) -> Any:
        return None if x is None else np.zeros(np.shape(x), dtype) if dx is None else dx

    parts = [np.ravel(p) for p in (part(to_begin, dbegin), np.diff(np.ravel(dary)), part(to_end, dend))
             if p is not None]
    return y, ProjectTo(y)(np.concatenate(parts))


# ---- gradient -----------------------------------------------------------------------------------------
class _Band(NamedTuple):
    """One diagonal of the gradient operator on some rows: ``g[rows] += coef * f[rows + offset]``.

    ``coef`` depends on the spacings ``h[p]`` and ``h[q]`` (slices of ``h = diff(x)`` aligned
    with ``rows``); ``dcoef_p`` and ``dcoef_q`` are its partial derivatives.
    """

    rows: slice
    offset: int
    coef: np.ndarray
    p: slice
    q: slice
    dcoef_p: np.ndarray
    dcoef_q: np.ndarray


def gradient_bands(h: np.ndarray, edge_order: int) -> list[_Band]:
    """The bands of ``np.gradient`` along an axis of length ``len(h) + 1`` with spacings ``h``.

    Examples
    --------
    >>> bands = gradient_bands(np.array([1.0, 1.0, 1.0]), 1)
    >>> [(b.offset, b.coef.tolist()) for b in bands[:3]]          # interior: central differences
    [(-1, [-0.5, -0.5]), (0, [0.0, 0.0]), (1, [0.5, 0.5])]
    """
    n = h.size + 1
    hd, hs = h[:-1], h[1:]
    s = hd + hs
    interior, inner_p, inner_q = slice(1, n - 1), slice(0, n - 2), slice(1, n - 1)
    bands = [
        _Band(interior, -1, -hs / (hd * s), inner_p, inner_q, hs * (2 * hd + hs) / (hd * s) ** 2, -1 / s ** 2),
        _Band(interior, 0, (hs - hd) / (hd * hs), inner_p, inner_q, -1 / hd ** 2, 1 / hs ** 2),
        _Band(interior, 1, hd / (hs * s), inner_p, inner_q, 1 / s ** 2, -hd * (hd + 2 * hs) / (hs * s) ** 2),
    ]
    first, last = slice(0, 1), slice(n - 1, n)
    if edge_order == 1:
        h0, hl = h[:1], h[-1:]
        zero = np.zeros(1)
        bands += [
            _Band(first, 0, -1 / h0, slice(0, 1), slice(0, 1), 1 / h0 ** 2, zero),
            _Band(first, 1, 1 / h0, slice(0, 1), slice(0, 1), -1 / h0 ** 2, zero),
            _Band(last, -1, -1 / hl, slice(n - 2, n - 1), slice(n - 2, n - 1), 1 / hl ** 2, zero),
            _Band(last, 0, 1 / hl, slice(n - 2, n - 1), slice(n - 2, n - 1), -1 / hl ** 2, zero),
        ]
        return bands
    p, q = h[:1], h[1:2]
    s = p + q
    left_p, left_q = slice(0, 1), slice(1, 2)
    bands += [
        _Band(first, 0, -(2 * p + q) / (p * s), left_p, left_q, (2 * p * p + 2 * p * q + q * q) / (p * s) ** 2,
              1 / s ** 2),
        _Band(first, 1, s / (p * q), left_p, left_q, -1 / p ** 2, -1 / q ** 2),
        _Band(first, 2, -p / (q * s), left_p, left_q, -1 / s ** 2, p * (p + 2 * q) / (q * s) ** 2),
    ]
    p, q = h[-2:-1], h[-1:]
    s = p + q
    right_p, right_q = slice(n - 3, n - 2), slice(n - 2, n - 1)
    bands += [
        _Band(last, -2, q / (p * s), right_p, right_q, -q * (2 * p + q) / (p * s) ** 2, 1 / s ** 2),
        _Band(last, -1, -s / (p * q), right_p, right_q, 1 / p ** 2, 1 / q ** 2),
        _Band(last, 0, (2 * q + p) / (q * s), right_p, right_q, -1 / s ** 2,
              -(p * p + 2 * p * q + 2 * q * q) / (q * s) ** 2),
    ]
    return bands


def _shifted(rows: slice, offset: int) -> slice:
    return slice(rows.start + offset, rows.stop + offset)


def _column(v: np.ndarray, ndim: int) -> np.ndarray:
    """A per-row vector shaped to broadcast against an array whose first axis is the rows."""
    return np.reshape(v, (-1,) + (1,) * (ndim - 1))


class _GradientAxis(NamedTuple):
    axis: int
    h: np.ndarray
    spacing: int | None  # which of the varargs gives this axis's spacing (None: unit spacing)
    coordinates: bool     # that argument is a coordinate array (else a scalar spacing)


def _gradient_axes(f: np.ndarray, varargs: tuple[Any, ...], axis: Any) -> list[_GradientAxis]:
    """The axes ``np.gradient`` differentiates and the spacings it uses for each (after NumPy's checks)."""
    axes = tuple(range(f.ndim)) if axis is None else tuple(
        a % f.ndim for a in (axis if isinstance(axis, tuple) else (axis,)))
    out = []
    for k, ax in enumerate(axes):
        n = f.shape[ax]
        if not varargs:
            out.append(_GradientAxis(ax, np.ones(n - 1), None, False))
            continue
        source = 0 if len(varargs) == 1 else k
        spacing = np.asarray(varargs[source], dtype=np.result_type(varargs[source], np.float64))
        if spacing.ndim == 0:
            out.append(_GradientAxis(ax, np.full(n - 1, spacing), source, False))
        else:
            out.append(_GradientAxis(ax, np.diff(spacing), source, True))
    return out


@rrule.register(np.gradient, np.ndarray, Varargs(NUMERIC))
def gradient_rrule(f: np.ndarray, *varargs: Any, axis: Any = None, edge_order: Literal[1, 2] = 1) -> Any:
    """Reverse rule of ``np.gradient(f, *varargs, axis=..., edge_order=...)``, w.r.t. ``f`` and the spacings.

    Examples
    --------
    >>> from chainrules import unthunk
    >>> y, pullback = rrule(np.gradient, np.array([1.0, 4.0, 9.0]), 0.5)
    >>> unthunk(pullback(np.array([1.0, 0.0, 0.0]))[1])
    array([-2.,  2.,  0.])
    """
    y = np.gradient(f, *varargs, axis=axis, edge_order=edge_order)
    axes = _gradient_axes(f, varargs, axis)
    project_f = cotangent_projector(f)
    projectors = [cotangent_projector(v) for v in varargs]
    values = np.asarray(f, dtype=np.result_type(f, np.float64)) if f.dtype.kind not in "fc" else f
    outputs = y if isinstance(y, tuple) else (y,)

    def gradient_pullback(dy: Any) -> tuple[Any, ...]:
        if len(axes) == 1:
            read = read_cotangent(dy, outputs[0], np.gradient)
            parts: Any = read if passes_through(read) else [read]
        else:
            parts = read_cotangents(dy, outputs, np.gradient)
        missing = parts if passes_through(parts) else next(
            (part for part in parts if isinstance(part, NotImplementedTangent)), None)
        if missing is not None:  # a zero, or a part nobody has implemented: passed on to every input
            zero = passed_on(missing)
            return NoTangent(), project_f(zero), *(p(zero) for p in projectors)
        live = [(axes[k], np.asarray(part)) for k, part in enumerate(parts) if part is not None]
        if not live:
            return NoTangent(), project_f(ZeroTangent()), *(p(ZeroTangent()) for p in projectors)

        def f_cotangent() -> Any:
            total = np.zeros(f.shape, dtype=np.result_type(values, *(g for _, g in live)))
            for spec, g in live:
                moved_total, moved_g = np.moveaxis(total, spec.axis, 0), np.moveaxis(g, spec.axis, 0)
                for band in gradient_bands(spec.h, edge_order):
                    moved_total[_shifted(band.rows, band.offset)] += (
                        _column(band.coef, g.ndim) * moved_g[band.rows])
            return total

        def spacing_cotangent(index: int) -> Any:
            total: Any = ZeroTangent()  # a spacing of outputs whose cotangents are all zero
            for spec, g in live:
                if spec.spacing != index:
                    continue
                dh = _spacing_cotangent(spec, values, g, edge_order)
                term = _coordinate_adjoint(dh) if spec.coordinates else np.sum(dh)
                total = term if isinstance(total, AbstractZero) else total + term
            return total

        return (NoTangent(), lazy_cotangent(project_f, f_cotangent),
                *(lazy_cotangent(projectors[i], functools.partial(spacing_cotangent, i)) for i in range(len(varargs))))

    return y, gradient_pullback


def _spacing_cotangent(spec: _GradientAxis, f: np.ndarray, g: np.ndarray, edge_order: int) -> np.ndarray:
    """The cotangent of the spacings ``h = diff(x)`` of one axis, for the output cotangent ``g``."""
    moved_f, moved_g = np.moveaxis(f, spec.axis, 0), np.moveaxis(g, spec.axis, 0)
    other = tuple(range(1, f.ndim))
    dh = np.zeros(spec.h.shape)
    for band in gradient_bands(spec.h, edge_order):
        weight = np.real(np.sum(np.conj(moved_g[band.rows]) * moved_f[_shifted(band.rows, band.offset)], axis=other))
        dh[band.p] += weight * band.dcoef_p
        dh[band.q] += weight * band.dcoef_q
    return dh


def _coordinate_adjoint(dh: np.ndarray) -> np.ndarray:
    """From the cotangent of ``h = diff(x)`` to the cotangent of ``x``."""
    return diff_adjoint(dh, 1, 0)


@frule.register(np.gradient, np.ndarray, Varargs(NUMERIC))
def gradient_frule(tangents: Any, f: np.ndarray, *varargs: Any, axis: Any = None, edge_order: Literal[1, 2] = 1) -> Any:
    """Forward rule of ``np.gradient``: the gradient of ``df`` plus the change of the stencil with the spacings.

    Examples
    --------
    >>> frule((NoTangent(), np.array([0.0, 1.0, 0.0]), 0.0), np.gradient, np.ones(3), 1.0)[1]
    array([ 1.,  0., -1.])
    """
    y = np.gradient(f, *varargs, axis=axis, edge_order=edge_order)
    axes = _gradient_axes(f, varargs, axis)
    df = tangent_value(tangents[1]) if differentiable(f) else None
    dspacing = [tangent_value(t) if differentiable(v) else None for t, v in zip(tangents[2:], varargs)]
    values = np.asarray(f, dtype=np.result_type(f, np.float64)) if f.dtype.kind not in "fc" else f
    outputs = y if isinstance(y, tuple) else (y,)
    result = []
    for spec, out in zip(axes, outputs):
        dx = None if spec.spacing is None else dspacing[spec.spacing]
        if df is None and dx is None:
            result.append(ZeroTangent())
            continue
        dh = None if dx is None else (np.diff(np.asarray(dx)) if spec.coordinates else np.full(spec.h.shape, dx))
        total = np.zeros(out.shape, dtype=np.result_type(values, *(t for t in (df, dx) if t is not None)))
        moved_total, moved_f = np.moveaxis(total, spec.axis, 0), np.moveaxis(values, spec.axis, 0)
        moved_df = None if df is None else np.moveaxis(np.asarray(df), spec.axis, 0)
        for band in gradient_bands(spec.h, edge_order):
            source = _shifted(band.rows, band.offset)
            if moved_df is not None:
                moved_total[band.rows] += _column(band.coef, f.ndim) * moved_df[source]
            if dh is not None:
                rate = band.dcoef_p * dh[band.p] + band.dcoef_q * dh[band.q]
                moved_total[band.rows] += _column(rate, f.ndim) * moved_f[source]
        result.append(ProjectTo(out)(total))
    if len(axes) == 1:
        return y, result[0]
    return y, Tangent(tuple, *result)


# ---- sample inputs ----------------------------------------------------------------------------------
@sample_inputs(np.diff)
def _diff_samples(rng: np.random.Generator) -> list[Sample]:
    a = rng.standard_normal((3, 4))
    return [Sample(a), Sample(a, 2, 0, label="n and axis by position"),
            Sample(a, fkwargs={"n": 3, "axis": -1}, label="n and axis by keyword"),
            Sample(a, 0, label="n = 0: the identity"),
            Sample(a, 1, 1, rng.standard_normal((3, 2)), label="prepend by position (differentiated)"),
            Sample(a, 2, 0, 0.5, rng.standard_normal((2, 4)), label="a scalar prepend and an array append"),
            Sample(a, fkwargs={"prepend": 1.5, "append": rng.standard_normal((3, 1))}, label="edges by keyword"),
            Sample(a[0], 1, -1, 2, 3, label="integer edges (not differentiated)"),
            Sample(a.astype(np.float32), label="float32"), Sample(a + 1j * a[::-1], 1, 0, label="complex")]


@sample_inputs(np.ediff1d)
def _ediff1d_samples(rng: np.random.Generator) -> list[Sample]:
    a = rng.standard_normal(4)
    return [Sample(a), Sample(rng.standard_normal((2, 3)), label="flattened"),
            Sample(a, rng.standard_normal(2), 1.5, label="to_end and to_begin by position"),
            Sample(a, fkwargs={"to_begin": 2.0}, label="to_begin by keyword"),
            Sample(a.astype(np.float32), label="float32"), Sample(a + 1j * a[::-1], label="complex")]


def _coordinates(rng: np.random.Generator, n: int) -> np.ndarray:
    """Increasing, unevenly spaced coordinates."""
    return np.cumsum(0.5 + rng.uniform(0.0, 1.0, n))


@sample_inputs(np.gradient)
def _gradient_samples(rng: np.random.Generator) -> list[Sample]:
    f1, f2 = rng.standard_normal(5), rng.standard_normal((3, 4))
    return [Sample(f1, label="unit spacing"), Sample(f1, 0.5, label="a scalar spacing"),
            Sample(f1, _coordinates(rng, 5), fkwargs={"edge_order": 2}, label="coordinates, edge_order=2"),
            Sample(rng.standard_normal(2), label="the shortest axis for edge_order=1"),
            Sample(f2, label="2-d: a tuple of outputs"), Sample(f2, 0.3, 2.0, label="one spacing per axis"),
            Sample(f2, _coordinates(rng, 3), _coordinates(rng, 4), fkwargs={"edge_order": 2},
                   label="coordinates on both axes"),
            Sample(f2, _coordinates(rng, 4), fkwargs={"axis": -1}, label="axis= by keyword"),
            Sample(f1, 2, label="an integer spacing (not differentiated)"),
            Sample(f1.astype(np.float32), np.float32(0.5), label="float32"),
            Sample(f2 + 1j * f2[::-1], 0.5, label="complex")]
