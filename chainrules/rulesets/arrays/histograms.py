"""Histograms: ``np.histogram``, ``np.histogram2d``, ``np.histogramdd`` and ``np.histogram_bin_edges``.

The maths
---------
Counting is piecewise constant: moving a sample changes no count until it crosses a bin
edge, so the counts have a zero derivative with respect to the data almost everywhere (at
an edge they jump and have none; the rules give the zero of the side NumPy counts). What
is differentiable:

* **Weighted counts** ``n_k = sum_{j in bin k} w_j`` are linear in the weights:
  ``w_bar_j = n_bar[bin of j]`` (``0`` for samples outside the range).
* **Bin edges.** An integer (or a string: NumPy's estimators choose an integer) ``bins``
  gives ``edges = linspace(lo, hi, nbins + 1)``, so ``lo_bar = sum (1 - t_k) e_bar_k`` and
  ``hi_bar = sum t_k e_bar_k`` with ``t_k = k / nbins``. ``(lo, hi)`` is ``range`` when it is
  given, else ``(min(a), max(a))`` (``+-0.5`` when they are equal): the cotangent of the
  data then goes to its smallest and largest samples, shared equally among ties, as the
  rules of ``np.min``/``np.max`` of this library do
  (:mod:`~chainrules.rulesets.reductions.extrema`). An array ``bins`` is the edges
  themselves.
* **Density.** ``density=True`` returns ``h = n / (N * W)`` with ``N = sum(n)`` (the samples
  or weight inside the range) and ``W`` the bin widths (their product over the dimensions,
  for ``histogramdd``): ``dh = dn / (N W) - h dN / N - h sum_i dW_i / W_i``, where the widths
  move with the edges. So with data-dependent edges the density *does* depend on the
  data, through the extreme samples (the counts themselves do not).

The output's integer counts (``np.histogram`` without weights) have no tangent. Complex
weights (``np.histogram`` only) are linear like real ones; complex data is not supported
(no rule). The rules recompute every sample's bin from the edges NumPy returned, with
NumPy's convention (``edges[k] <= a < edges[k+1]``, the last bin closed).

Keywords
--------
Keyword arguments are never differentiated: ``np.histogram(a, bins=3, weights=w)`` uses
``w`` for the counts and the density of the data's cotangent, but gives ``w`` itself no
cotangent (NumPy's signature is ``histogram(a, bins=10, range=None, density=None,
weights=None)``: pass ``weights`` fifth by position to differentiate it). The same holds
for ``bins`` and ``range`` passed by keyword. Finite differences confirm these rules only
away from bin edges, where the functions are smooth.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

from chainrules.rulesets.arrays._linear_maps import read_nested_cotangent
from chainrules_core import (
    AbstractZero,
    NoTangent,
    NotImplementedTangent,
    ProjectTo,
    Sample,
    Tangent,
    Thunk,
    ZeroTangent,
    backing,
    cotangent_projector,
    differentiable,
    frule,
    read_cotangent,
    rrule,
    sample_inputs,
    unthunk,
)


# ---- reading cotangents of the tuple outputs, and tangents of sequence arguments ------------------------
def _read_parts(dy: Any, ys: Any, name: str) -> list[Any] | NotImplementedTangent:
    """The cotangent of a tuple output read part by part (nested lists too), ``None`` for a zero part.

    Every leaf is read by :func:`chainrules_core.read_cotangent` (its policy, its errors
    naming ``name``); a ``NotImplementedTangent`` anywhere is returned for the whole output.

    Examples
    --------
    >>> _read_parts(Tangent(tuple, ZeroTangent(), 2.0), (np.ones(2), 1.0), "f")
    [None, array(2.)]
    """
    read = read_nested_cotangent(dy, ys, name)
    if isinstance(read, NotImplementedTangent):
        return read
    if isinstance(read, AbstractZero):
        return [None] * len(ys)
    missing = _first_not_implemented(read)
    if missing is not None:
        return missing
    return [_none_for_zeros(part) for part in read]


def _first_not_implemented(x: Any) -> NotImplementedTangent | None:
    if isinstance(x, NotImplementedTangent):
        return x
    if isinstance(x, list):
        for part in x:
            found = _first_not_implemented(part)
            if found is not None:
                return found
    return None


def _none_for_zeros(part: Any) -> Any:
    if isinstance(part, AbstractZero):
        return None
    if isinstance(part, list):
        return [_none_for_zeros(p) for p in part]
    return np.asarray(part)


def _parts(dx: Any, n: int, where: str) -> list[Any]:
    """The ``n`` parts of the *tangent* of a sequence argument (``bins``, ``range``), ``None`` for zeros.

    Examples
    --------
    >>> _parts(Tangent(tuple, ZeroTangent(), 2.0), 2, "range tangent")
    [None, 2.0]
    """
    dx = unthunk(dx)
    if dx is None or isinstance(dx, AbstractZero):
        return [None] * n
    stored = backing(dx) if isinstance(dx, Tangent) else dx
    if isinstance(stored, np.ndarray) and stored.ndim >= 1:
        stored = list(stored)
    if not isinstance(stored, (tuple, list)):
        raise TypeError(f"{where}: expected {n} parts (a tuple, a list or a Tangent of one), got {type(dx).__name__}")
    if len(stored) != n:
        raise ValueError(f"{where}: got {len(stored)} parts, expected {n}")
    out = []
    for part in stored:
        part = unthunk(part)
        out.append(None if part is None or isinstance(part, AbstractZero) else part)
    return out


def _lazy(project: Any, compute: Any) -> Any:
    """``Thunk(lambda: project(compute()))``, or ``NoTangent()`` at once for an input without a tangent space."""
    if isinstance(project(ZeroTangent()), NoTangent):
        return NoTangent()
    return Thunk(lambda: project(compute()))


def _value(dx: Any) -> Any:
    dx = unthunk(dx)
    if dx is None or isinstance(dx, AbstractZero):
        return None
    return dx


# ---- one dimension's edges and how they depend on the inputs ----------------------------------------------
class _Axis:
    """Edges of one dimension: from an array ``bins`` (``"array"``), or ``linspace(lo, hi, nbins + 1)``
    with ``(lo, hi)`` from ``range`` (``"range"``), from the data's extremes (``"data"``) or NumPy's
    constants for empty data (``"constant"``)."""

    def __init__(self, column: np.ndarray, bins: Any, range_: Any, edges: np.ndarray) -> None:
        self.edges = edges
        self.nbins = edges.shape[0] - 1
        if np.ndim(bins) == 1:
            self.kind = "array"
        elif range_ is not None:
            self.kind = "range"
        elif column.size == 0:
            self.kind = "constant"
        else:
            self.kind = "data"
            self.low = column == column.min()
            self.high = column == column.max()
        self.t = np.linspace(0.0, 1.0, self.nbins + 1)
        self.widths = np.diff(edges).astype(np.float64)
        compare = column.astype(edges.dtype, copy=False) if self.kind != "array" else column
        k = np.searchsorted(edges, compare, side="right") - 1
        k[compare == edges[-1]] = self.nbins - 1
        self.inside = (compare >= edges[0]) & (compare <= edges[-1])
        self.index = np.where(self.inside, k, 0)

    def edges_tangent(self, dcolumn: Any, dbins: Any, drange: Any) -> Any:
        """``d edges`` from the tangents of the column, of ``bins`` and of ``range`` (``None``: zero)."""
        if self.kind == "array":
            if dbins is None:
                return None
            if isinstance(dbins, np.ndarray):
                return dbins
            return np.array([0.0 if p is None else p for p in _parts(dbins, self.nbins + 1, "bins tangent")])
        if self.kind == "constant":
            return None
        if self.kind == "range":
            if drange is None:
                return None
            lo, hi = (0.0 if p is None else p for p in _parts(drange, 2, "range tangent"))
        else:
            if dcolumn is None or not np.any(dcolumn):
                return None
            lo, hi = np.mean(dcolumn[self.low]), np.mean(dcolumn[self.high])
        return (1 - self.t) * lo + self.t * hi

    def edges_cotangent(self, e_bar: np.ndarray) -> tuple[Any, Any, Any]:
        """``(column_bar, bins_bar, (lo_bar, hi_bar))`` from the edges' cotangent (``None``: zero)."""
        if self.kind == "array":
            return None, e_bar, None
        if self.kind == "constant":
            return None, None, None
        lo_bar, hi_bar = float(np.sum((1 - self.t) * e_bar)), float(np.sum(self.t * e_bar))
        if self.kind == "range":
            return None, None, (lo_bar, hi_bar)
        column_bar = (self.low * (lo_bar / np.count_nonzero(self.low))
                      + self.high * (hi_bar / np.count_nonzero(self.high)))
        return column_bar, None, None


class _Histogram:
    """Weighted counts on the edges NumPy returned, and the derivatives of counts, density and edges."""

    def __init__(self, axes: list[_Axis], weights: Any, density: Any) -> None:
        self.axes = axes
        self.shape = tuple(ax.nbins for ax in axes)
        inside = np.logical_and.reduce([ax.inside for ax in axes])
        self.inside = inside
        self.cell = np.ravel_multi_index(tuple(ax.index for ax in axes), self.shape) if axes else np.zeros(0, int)
        self.density = bool(density)
        w = None if weights is None else np.ravel(np.asarray(weights))
        size = int(np.prod(self.shape))
        n: np.ndarray
        if w is None:
            n = np.bincount(self.cell[inside], minlength=size).astype(np.float64)
        elif np.iscomplexobj(w):
            n = (np.bincount(self.cell[inside], w.real[inside], minlength=size)
                 + 1j * np.bincount(self.cell[inside], w.imag[inside], minlength=size))
        else:
            n = np.bincount(self.cell[inside], w[inside].astype(np.float64), minlength=size)
        self.n = n.reshape(self.shape)
        self.total = self.n.sum()
        if self.density:
            self.cell_widths = np.ones(self.shape)
            for i, ax in enumerate(axes):
                self.cell_widths = self.cell_widths * ax.widths.reshape([-1 if j == i else 1 for j in range(len(axes))])
            self.h = self.n / (self.total * self.cell_widths)

    # -- forward ----------------------------------------------------------------------------------------
    def forward(self, dn: Any, dedges: list[Any]) -> Any:
        """``dh`` from the tangents of the weighted counts and of each dimension's edges."""
        if not self.density:
            return dn
        out: Any = None
        if dn is not None:
            out = dn / (self.total * self.cell_widths) - self.h * (np.sum(dn) / self.total)
        for i, (ax, de) in enumerate(zip(self.axes, dedges)):
            if de is None:
                continue
            relative = (np.diff(de) / ax.widths).reshape([-1 if j == i else 1 for j in range(len(self.axes))])
            term = -self.h * relative
            out = term if out is None else out + term
        return out

    def weights_tangent(self, dw: Any) -> Any:
        if dw is None:
            return None
        dw = np.ravel(np.asarray(dw))
        size = int(np.prod(self.shape))
        cells, inside = self.cell[self.inside], dw[self.inside]
        if np.iscomplexobj(dw):
            dn = np.bincount(cells, inside.real, minlength=size) + 1j * np.bincount(cells, inside.imag, minlength=size)
        else:
            dn = np.bincount(cells, inside.astype(np.float64), minlength=size)
        return dn.reshape(self.shape)

    # -- reverse ----------------------------------------------------------------------------------------
    def backward(self, dh: Any) -> tuple[Any, list[Any]]:
        """``(n_bar, [widths_bar per dimension])`` from the cotangent of the histogram (``None``: zero)."""
        if dh is None:
            return None, [None] * len(self.axes)
        if not self.density:
            return dh, [None] * len(self.axes)
        scale = self.total * self.cell_widths
        n_bar = dh / np.conj(scale) - np.sum(np.conj(self.h / self.total) * dh)
        product = np.real(np.conj(self.h) * dh)
        widths_bar = []
        for i, ax in enumerate(self.axes):
            other = tuple(j for j in range(len(self.axes)) if j != i)
            widths_bar.append(-np.sum(product, axis=other) / ax.widths)
        return n_bar, widths_bar

    def weights_cotangent(self, n_bar: Any, shape: tuple[int, ...]) -> Any:
        out = np.zeros(self.cell.shape, dtype=np.result_type(n_bar, np.float64))
        out[self.inside] = np.ravel(n_bar)[self.cell[self.inside]]
        return out.reshape(shape)


def _widths_to_edges(e_bar: Any, widths_bar: Any, nedges: int) -> Any:
    """The edges' total cotangent: their own plus the adjoint of ``widths = diff(edges)``."""
    if widths_bar is None:
        return e_bar
    total = np.zeros(nedges) if e_bar is None else np.array(e_bar, dtype=np.float64)
    total[:-1] -= widths_bar
    total[1:] += widths_bar
    return total


def _real_values(column: np.ndarray) -> bool:
    return column.dtype.kind in "biuf"


# ---- np.histogram and np.histogram_bin_edges -------------------------------------------------------------
def _range_cotangent(range_: Any, pair: Any) -> Any:
    if range_ is None:
        return NoTangent()
    project = cotangent_projector(range_)
    return project([0.0, 0.0] if pair is None else list(pair))


def _bins_cotangent(bins: Any, e_bar: Any) -> Any:
    if np.ndim(bins) != 1 or isinstance(bins, str):
        return NoTangent()
    project = cotangent_projector(bins)
    if e_bar is None:
        return project(ZeroTangent()) if isinstance(bins, np.ndarray) else project([0.0] * len(bins))
    return project(e_bar if isinstance(bins, np.ndarray) else list(e_bar))


@rrule.register(np.histogram, np.ndarray)
def histogram_rrule(a: np.ndarray, bins: Any = 10, range: Any = None, density: Any = None,
                    weights: Any = None) -> Any:
    """Reverse rule of ``np.histogram``: weights (linear), edges (range, data extremes, array bins), density.

    Examples
    --------
    >>> from chainrules import rrule, unthunk
    >>> a = np.array([0.0, 0.3, 1.2, 2.0])
    >>> (hist, edges), pullback = rrule(np.histogram, a, 2)            # edges linspace(min a, max a, 3)
    >>> hist, edges
    (array([2, 2]), array([0., 1., 2.]))
    >>> unthunk(pullback((np.zeros(2), np.array([0.0, 1.0, 0.0])))[1])   # the middle edge is (min + max) / 2
    array([0.5, 0. , 0. , 0.5])
    """
    if not _real_values(a):
        return None
    hist, edges = np.histogram(a, bins, range, density, weights)
    flat = np.ravel(a)
    axis = _Axis(flat, bins, range, edges)
    counts = _Histogram([axis], weights, density)
    project_a, project_w = cotangent_projector(a), cotangent_projector(weights) if weights is not None else None
    y = (hist, edges)

    def histogram_pullback(dy: Any) -> tuple[Any, ...]:
        parts = _read_parts(dy, y, "np.histogram")
        if isinstance(parts, NotImplementedTangent):
            return (NoTangent(), project_a(parts), NoTangent() if np.ndim(bins) != 1 else parts,
                    NoTangent() if range is None else parts, NoTangent(), NoTangent() if project_w is None else parts)
        dh, de = parts
        n_bar, widths_bar = counts.backward(dh)
        e_total = _widths_to_edges(de, widths_bar[0], edges.shape[0])
        column_bar, bins_bar, pair = (None, None, None) if e_total is None else axis.edges_cotangent(e_total)
        da = project_a(ZeroTangent()) if column_bar is None else _lazy(project_a, lambda: column_bar.reshape(a.shape))
        if project_w is None:
            dw: Any = NoTangent()
        elif n_bar is None:
            dw = project_w(ZeroTangent())
        else:
            dw = _lazy(project_w, lambda: counts.weights_cotangent(n_bar, np.shape(weights)))
        return (NoTangent(), da, _bins_cotangent(bins, bins_bar), _range_cotangent(range, pair), NoTangent(), dw)

    return y, histogram_pullback


@frule.register(np.histogram, np.ndarray)
def histogram_frule(tangents: Any, a: np.ndarray, bins: Any = 10, range: Any = None,
                    density: Any = None, weights: Any = None) -> Any:
    """Forward rule of ``np.histogram``.

    Examples
    --------
    >>> from chainrules import frule, NoTangent
    >>> a = np.array([0.0, 0.3, 1.2, 2.0])
    >>> frule((NoTangent(), np.array([0.0, 0.0, 0.0, 1.0]), NoTangent()), np.histogram, a, 2)[1]
    Tangent(tuple, NoTangent(), array([0. , 0.5, 1. ]))
    """
    if not _real_values(a):
        return None
    hist, edges = np.histogram(a, bins, range, density, weights)
    padded = tuple(tangents) + (NoTangent(),) * (6 - len(tangents))
    da, dbins, drange, dw = (_value(padded[i]) for i in (1, 2, 3, 5))
    axis = _Axis(np.ravel(a), bins, range, edges)
    de = axis.edges_tangent(None if da is None else np.ravel(da), dbins, drange)
    dh: Any = None
    if differentiable(hist):
        counts = _Histogram([axis], weights, density)
        dh = counts.forward(counts.weights_tangent(dw if weights is not None else None), [de])
    if not differentiable(hist):
        hist_part: Any = NoTangent()
    else:
        hist_part = ZeroTangent() if dh is None else ProjectTo(hist)(dh)
    parts = [hist_part, ZeroTangent() if de is None else ProjectTo(edges)(de)]
    if all(isinstance(p, AbstractZero) for p in parts):
        return (hist, edges), ZeroTangent()
    return (hist, edges), Tangent(tuple, *parts)


# Histograms are smooth only away from bin edges: the samples sit at least 0.1 from every edge (fixed or
# data-dependent), and the finite differences take steps of at most 1e-2. With 3 bins over (min, max) =
# (0, 3) the edges are 0, 1, 2, 3; with 4 bins over (-0.3, 3.3) they are -0.3, 0.6, 1.5, 2.4, 3.3.
_DATA = np.array([0.0, 0.4, 1.3, 1.6, 2.5, 3.0])
_WEIGHTS = np.array([0.5, 1.0, 2.0, 1.5, 0.7, 1.2])
_DATA_2 = np.array([2.75, 2.3, 1.49, 1.22, 0.41, 0.05])  # its 3 edges: 0.05, 0.95, 1.85, 2.75
_EDGES = np.array([-0.5, 0.9, 2.0, 3.5])
_RANGE = (-0.3, 3.3)


@sample_inputs(np.histogram)
def _histogram_samples() -> Iterator[Sample]:
    from chainrules.testing import central_fdm

    smooth: dict[str, Any] = {"fdm": central_fdm(5, 1, max_range=1e-2)}
    yield Sample(_DATA, 3, **smooth, label="data-dependent edges")
    yield Sample(_DATA.astype(np.float32), 4, _RANGE, True, **smooth, label="range, density (float32)")
    yield Sample(_DATA, _EDGES, None, True, _WEIGHTS, **smooth, label="array edges, density, weights")
    yield Sample(_DATA, 3, None, False, _WEIGHTS + 0.5j, **smooth, label="complex weights")
    yield Sample(_DATA, "auto", **smooth, label="an estimator's bins")
    yield Sample(_DATA, fkwargs={"bins": 3, "weights": _WEIGHTS}, **smooth, label="keywords (not differentiated)")


@rrule.register(np.histogram_bin_edges, np.ndarray)
def histogram_bin_edges_rrule(a: np.ndarray, bins: Any = 10, range: Any = None,
                              weights: Any = None) -> Any:
    """Reverse rule of ``np.histogram_bin_edges``: the edges' part of ``np.histogram``'s rule.

    Examples
    --------
    >>> from chainrules import rrule, unthunk
    >>> edges, pullback = rrule(np.histogram_bin_edges, np.array([1.0, 3.0, 2.0]), 4, (0.0, 4.0))
    >>> edges, pullback(np.array([0.0, 0.0, 0.0, 0.0, 1.0]))[3]       # the last edge is range[1]
    (array([0., 1., 2., 3., 4.]), Tangent(tuple, 0.0, 1.0))
    """
    if not _real_values(a):
        return None
    edges = np.histogram_bin_edges(a, bins, range, weights)
    axis = _Axis(np.ravel(a), bins, range, edges)
    project_a, project_w = cotangent_projector(a), cotangent_projector(weights) if weights is not None else None

    def histogram_bin_edges_pullback(de: Any) -> tuple[Any, ...]:
        de = read_cotangent(de, edges, "np.histogram_bin_edges")
        if isinstance(de, NotImplementedTangent):
            return (NoTangent(), project_a(de), NoTangent() if np.ndim(bins) != 1 else de,
                    NoTangent() if range is None else de, NoTangent() if project_w is None else de)
        de = None if isinstance(de, AbstractZero) else np.asarray(de)
        column_bar, bins_bar, pair = (None, None, None) if de is None else axis.edges_cotangent(de)
        da = project_a(ZeroTangent() if column_bar is None else column_bar.reshape(a.shape))
        dw = NoTangent() if project_w is None else project_w(ZeroTangent())
        return NoTangent(), da, _bins_cotangent(bins, bins_bar), _range_cotangent(range, pair), dw

    return edges, histogram_bin_edges_pullback


@frule.register(np.histogram_bin_edges, np.ndarray)
def histogram_bin_edges_frule(tangents: Any, a: np.ndarray, bins: Any = 10, range: Any = None,
                              weights: Any = None) -> Any:
    """Forward rule of ``np.histogram_bin_edges``.

    Examples
    --------
    >>> from chainrules import frule, NoTangent
    >>> frule((NoTangent(), np.array([1.0, 0.0, 0.0]), NoTangent()), np.histogram_bin_edges,
    ...       np.array([0.0, 1.0, 2.0]), 2)[1]
    array([1. , 0.5, 0. ])
    """
    if not _real_values(a):
        return None
    edges = np.histogram_bin_edges(a, bins, range, weights)
    padded = tuple(tangents) + (NoTangent(),) * (5 - len(tangents))
    da, dbins, drange = (_value(padded[i]) for i in (1, 2, 3))
    axis = _Axis(np.ravel(a), bins, range, edges)
    de = axis.edges_tangent(None if da is None else np.ravel(da), dbins, drange)
    return edges, ZeroTangent() if de is None else ProjectTo(edges)(de)


@sample_inputs(np.histogram_bin_edges)
def _histogram_bin_edges_samples() -> Iterator[Sample]:
    from chainrules.testing import central_fdm

    smooth: dict[str, Any] = {"fdm": central_fdm(5, 1, max_range=1e-2)}
    yield Sample(_DATA, 3, **smooth, label="data-dependent")
    yield Sample(_DATA.astype(np.float32), 4, _RANGE, **smooth, label="range (float32)")
    yield Sample(_DATA, _EDGES, **smooth, label="array edges")
    yield Sample(_DATA, "sturges", **smooth, label="an estimator's bins")
    yield Sample(_DATA, 3, None, _WEIGHTS, **smooth, label="weights (ignored by NumPy)")


# ---- np.histogramdd and np.histogram2d ----------------------------------------------------------------------
def _sample_columns(sample: Any) -> tuple[np.ndarray, bool]:
    """The ``(N, D)`` matrix NumPy makes of ``sample``, and whether ``sample`` was already one."""
    if isinstance(sample, np.ndarray) and sample.ndim == 2:
        return sample, True
    return np.atleast_2d(sample).T, False


def _per_dimension(value: Any, d: int) -> list[Any]:
    """NumPy's per-dimension ``bins``: a scalar is repeated, a sequence gives one entry per dimension."""
    try:
        len(value)
    except TypeError:
        return [value] * d
    return list(value)


class _HistogramDD:
    """The shared part of the ``histogramdd``/``histogram2d`` rules."""

    def __init__(self, matrix: np.ndarray, bins: Any, range_: Any, density: Any, weights: Any,
                 edges: Sequence[np.ndarray]) -> None:
        d = matrix.shape[1]
        self.bins = _per_dimension(bins, d)
        self.ranges = [None] * d if range_ is None else list(range_)
        self.axes = [_Axis(matrix[:, i], self.bins[i], self.ranges[i], np.asarray(edges[i])) for i in range(d)]
        self.counts = _Histogram(self.axes, weights, density)

    def backward(self, dh: Any, dedges: list[Any]) -> tuple[Any, list[Any], list[Any], Any]:
        """``(matrix_bar or None, [bins_bar_i], [(lo, hi)_bar_i], n_bar)``."""
        n_bar, widths_bar = self.counts.backward(dh)
        matrix_bar = None
        bins_bar, pairs = [], []
        for i, (ax, de, wb) in enumerate(zip(self.axes, dedges, widths_bar)):
            total = _widths_to_edges(de, wb, ax.edges.shape[0])
            column_bar, b_bar, pair = (None, None, None) if total is None else ax.edges_cotangent(total)
            if column_bar is not None:
                if matrix_bar is None:
                    matrix_bar = np.zeros((ax.index.shape[0], len(self.axes)))
                matrix_bar[:, i] = column_bar
            bins_bar.append(b_bar)
            pairs.append(pair)
        return matrix_bar, bins_bar, pairs, n_bar

    def forward(self, dmatrix: Any, dbins: Any, drange: Any, dw: Any) -> tuple[Any, list[Any]]:
        d = len(self.axes)
        dbins_parts = [None] * d if dbins is None or _scalar(self.bins_arg) else _parts(dbins, d, "bins tangent")
        drange_parts = [None] * d if drange is None or self.range_arg is None else _parts(drange, d, "range tangent")
        dedges = [ax.edges_tangent(None if dmatrix is None else dmatrix[:, i], dbins_parts[i], drange_parts[i])
                  for i, ax in enumerate(self.axes)]
        dh = self.counts.forward(self.counts.weights_tangent(dw), dedges)
        return dh, dedges

    bins_arg: Any = None
    range_arg: Any = None


def _scalar(value: Any) -> bool:
    """Whether a ``bins`` argument is one number (not a sequence, which may be ragged)."""
    return not isinstance(value, (list, tuple)) and np.ndim(value) == 0


def _dd_bins_cotangent(bins: Any, bins_bar: list[Any], edges: Sequence[np.ndarray]) -> Any:
    if _scalar(bins):
        return NoTangent()
    parts = [np.zeros(e.shape) if b is None else b for b, e in zip(bins_bar, edges)]
    if isinstance(bins, np.ndarray):
        return cotangent_projector(bins)(np.stack(parts) if bins.ndim == 2 else ZeroTangent())
    project = cotangent_projector(bins)
    return project([0.0 if _scalar(b) else p for p, b in zip(parts, bins)])


def _dd_range_cotangent(range_: Any, pairs: list[Any]) -> Any:
    if range_ is None:
        return NoTangent()
    parts = [NoTangent() if r is None else _range_cotangent(r, p) for r, p in zip(range_, pairs)]
    if all(isinstance(p, NoTangent) for p in parts):
        return NoTangent()
    return Tangent(type(range_), *parts)


@rrule.register(np.histogramdd, (np.ndarray, list, tuple))
def histogramdd_rrule(sample: Any, bins: Any = 10, range: Any = None, density: Any = None,
                      weights: Any = None) -> Any:
    """Reverse rule of ``np.histogramdd``: weights, edges (range, data extremes, array bins) and density.

    Examples
    --------
    >>> from chainrules import rrule, unthunk
    >>> sample = np.array([[0.0, 1.0], [1.0, 0.0], [2.0, 4.0]])
    >>> (hist, edges), pullback = rrule(np.histogramdd, sample, 2)
    >>> edges
    [array([0., 1., 2.]), array([0., 2., 4.])]
    >>> unthunk(pullback((np.zeros((2, 2)), [np.zeros(3), np.array([0.0, 1.0, 0.0])]))[1])
    array([[0. , 0. ],
           [0. , 0.5],
           [0. , 0.5]])
    """
    matrix, was_matrix = _sample_columns(sample)
    if not _real_values(matrix):
        return None
    hist, edges = np.histogramdd(sample, bins, range, density, weights)
    state = _HistogramDD(matrix, bins, range, density, weights, edges)
    project_sample = cotangent_projector(sample)
    project_w = cotangent_projector(weights) if weights is not None else None
    d = matrix.shape[1]

    def histogramdd_pullback(dy: Any) -> tuple[Any, ...]:
        parts = _read_parts(dy, (hist, list(edges)), "np.histogramdd")
        if isinstance(parts, NotImplementedTangent):
            return (NoTangent(), parts, NoTangent() if _scalar(bins) else parts,
                    NoTangent() if range is None else parts, NoTangent(), NoTangent() if project_w is None else parts)
        dh, dedges = parts
        dedges_parts = [None] * d if dedges is None else dedges
        matrix_bar, bins_bar, pairs, n_bar = state.backward(dh, dedges_parts)
        if matrix_bar is None:
            ds = project_sample(ZeroTangent()) if isinstance(sample, np.ndarray) else project_sample(
                [np.zeros(np.shape(c)) for c in sample])
        elif isinstance(sample, np.ndarray):
            ds = project_sample(matrix_bar if was_matrix else matrix_bar.T.reshape(sample.shape))
        else:
            ds = project_sample([matrix_bar[:, i].reshape(np.shape(c)) for i, c in enumerate(sample)])
        if project_w is None:
            dw: Any = NoTangent()
        elif n_bar is None:
            dw = project_w(ZeroTangent())
        else:
            dw = _lazy(project_w, lambda: state.counts.weights_cotangent(n_bar, np.shape(weights)))
        return (NoTangent(), ds, _dd_bins_cotangent(bins, bins_bar, edges), _dd_range_cotangent(range, pairs),
                NoTangent(), dw)

    return (hist, edges), histogramdd_pullback


def _sample_tangent(dsample: Any, sample: Any, was_matrix: bool) -> Any:
    if dsample is None:
        return None
    if isinstance(sample, np.ndarray):
        return np.asarray(dsample) if was_matrix else np.atleast_2d(np.asarray(dsample)).T
    parts = _parts(dsample, len(sample), "sample tangent")
    return np.stack([np.zeros(np.shape(c)) if p is None else np.asarray(p, dtype=np.float64)
                     for p, c in zip(parts, sample)], axis=-1)


@frule.register(np.histogramdd, (np.ndarray, list, tuple))
def histogramdd_frule(tangents: Any, sample: Any, bins: Any = 10, range: Any = None,
                      density: Any = None, weights: Any = None) -> Any:
    """Forward rule of ``np.histogramdd``.

    Examples
    --------
    >>> from chainrules import frule, NoTangent
    >>> sample = np.array([[0.0, 1.0], [1.0, 0.0], [2.0, 4.0]])
    >>> frule((NoTangent(), np.array([[0.0, 0.0], [0.0, 0.0], [1.0, 0.0]]), NoTangent()), np.histogramdd,
    ...       sample, 2)[1]
    Tangent(tuple, ZeroTangent(), Tangent(list, array([0. , 0.5, 1. ]), ZeroTangent()))
    """
    matrix, was_matrix = _sample_columns(sample)
    if not _real_values(matrix):
        return None
    hist, edges = np.histogramdd(sample, bins, range, density, weights)
    padded = tuple(tangents) + (NoTangent(),) * (6 - len(tangents))
    dsample, dbins, drange, dw = (_value(padded[i]) for i in (1, 2, 3, 5))
    state = _HistogramDD(matrix, bins, range, density, weights, edges)
    state.bins_arg, state.range_arg = bins, range
    dh, dedges = state.forward(_sample_tangent(dsample, sample, was_matrix), dbins, drange,
                               dw if weights is not None else None)
    edge_parts = [ZeroTangent() if de is None else ProjectTo(e)(de) for de, e in zip(dedges, edges)]
    hist_part = ZeroTangent() if dh is None else ProjectTo(hist)(dh)
    if isinstance(hist_part, AbstractZero) and all(isinstance(p, AbstractZero) for p in edge_parts):
        return (hist, edges), ZeroTangent()
    edges_tangent: Any = ZeroTangent() if all(isinstance(p, AbstractZero) for p in edge_parts) else Tangent(
        type(edges), *edge_parts)
    return (hist, edges), Tangent(tuple, hist_part, edges_tangent)


@sample_inputs(np.histogramdd)
def _histogramdd_samples() -> Iterator[Sample]:
    from chainrules.testing import central_fdm

    smooth: dict[str, Any] = {"fdm": central_fdm(5, 1, max_range=1e-2)}
    sample = np.stack([_DATA, _DATA_2], axis=-1)
    yield Sample(sample, 3, **smooth, label="data-dependent edges")
    yield Sample(sample, [3, 2], [_RANGE, (0.0, 3.0)], True, _WEIGHTS, **smooth, label="ranges, density, weights")
    yield Sample([_DATA, _DATA_2], [_EDGES, 3], None, True, **smooth, label="coordinate arrays, mixed bins")
    yield Sample(_DATA.astype(np.float32), 3, None, True, **smooth, label="one dimension (float32)")


def _bins_2d(bins: Any) -> Any:
    """``histogram2d``'s ``bins`` as ``histogramdd`` gets it (one array: the same edges for both)."""
    try:
        n = len(bins)
    except TypeError:
        n = 1
    if n not in {1, 2}:
        edges = np.asarray(bins)
        return [edges, edges]
    return bins


@rrule.register(np.histogram2d, np.ndarray, np.ndarray)
def histogram2d_rrule(x: np.ndarray, y: np.ndarray, bins: Any = 10, range: Any = None,
                      density: Any = None, weights: Any = None) -> Any:
    """Reverse rule of ``np.histogram2d`` (``np.histogramdd`` of ``[x, y]``).

    Examples
    --------
    >>> from chainrules import rrule, unthunk
    >>> x, y = np.array([0.0, 1.0, 2.0]), np.array([1.0, 0.0, 4.0])
    >>> (h, xe, ye), pullback = rrule(np.histogram2d, x, y, 2)
    >>> unthunk(pullback((np.zeros((2, 2)), np.zeros(3), np.array([0.0, 1.0, 0.0])))[2])
    array([0. , 0.5, 0.5])
    """
    if not (_real_values(x) and _real_values(y)):
        return None
    h, xedges, yedges = np.histogram2d(x, y, bins, range, density, weights)
    edges = [xedges, yedges]
    matrix = np.stack([np.ravel(x), np.ravel(y)], axis=-1)
    dd_bins = _bins_2d(bins)
    state = _HistogramDD(matrix, dd_bins, range, density, weights, edges)
    project_x, project_y = cotangent_projector(x), cotangent_projector(y)
    project_w = cotangent_projector(weights) if weights is not None else None

    def histogram2d_pullback(dy: Any) -> tuple[Any, ...]:
        parts = _read_parts(dy, (h, xedges, yedges), "np.histogram2d")
        if isinstance(parts, NotImplementedTangent):
            return (NoTangent(), parts, parts, NoTangent() if _scalar(bins) else parts,
                    NoTangent() if range is None else parts, NoTangent(), NoTangent() if project_w is None else parts)
        dh, dxe, dye = parts
        matrix_bar, bins_bar, pairs, n_bar = state.backward(dh, [dxe, dye])
        dx = project_x(ZeroTangent() if matrix_bar is None else matrix_bar[:, 0].reshape(x.shape))
        dyy = project_y(ZeroTangent() if matrix_bar is None else matrix_bar[:, 1].reshape(y.shape))
        if dd_bins is not bins:  # one array of edges for both dimensions
            parts = [np.zeros(e.shape) if b is None else b for b, e in zip(bins_bar, edges)]
            dbins: Any = cotangent_projector(bins)(parts[0] + parts[1])
        else:
            dbins = _dd_bins_cotangent(bins, bins_bar, edges)
        if project_w is None:
            dw: Any = NoTangent()
        elif n_bar is None:
            dw = project_w(ZeroTangent())
        else:
            dw = _lazy(project_w, lambda: state.counts.weights_cotangent(n_bar, np.shape(weights)))
        return NoTangent(), dx, dyy, dbins, _dd_range_cotangent(range, pairs), NoTangent(), dw

    return (h, xedges, yedges), histogram2d_pullback


@frule.register(np.histogram2d, np.ndarray, np.ndarray)
def histogram2d_frule(tangents: Any, x: np.ndarray, y: np.ndarray, bins: Any = 10, range: Any = None,
                      density: Any = None, weights: Any = None) -> Any:
    """Forward rule of ``np.histogram2d``.

    Examples
    --------
    >>> from chainrules import frule, NoTangent
    >>> x, y = np.array([0.0, 1.0, 2.0]), np.array([1.0, 0.0, 4.0])
    >>> frule((NoTangent(), np.array([0.0, 0.0, 1.0]), NoTangent(), NoTangent()), np.histogram2d, x, y, 2)[1]
    Tangent(tuple, ZeroTangent(), array([0. , 0.5, 1. ]), ZeroTangent())
    """
    if not (_real_values(x) and _real_values(y)):
        return None
    h, xedges, yedges = np.histogram2d(x, y, bins, range, density, weights)
    edges = [xedges, yedges]
    padded = tuple(tangents) + (NoTangent(),) * (7 - len(tangents))
    dx, dyy, dbins, drange, dw = (_value(padded[i]) for i in (1, 2, 3, 4, 6))
    matrix = np.stack([np.ravel(x), np.ravel(y)], axis=-1)
    dd_bins = _bins_2d(bins)
    state = _HistogramDD(matrix, dd_bins, range, density, weights, edges)
    state.bins_arg, state.range_arg = dd_bins, range
    if dd_bins is not bins and dbins is not None:
        dbins = [dbins, dbins]
    dmatrix = None
    if dx is not None or dyy is not None:
        dmatrix = np.stack([np.zeros(x.size) if dx is None else np.ravel(dx).astype(np.float64),
                            np.zeros(y.size) if dyy is None else np.ravel(dyy).astype(np.float64)], axis=-1)
    dh, dedges = state.forward(dmatrix, dbins, drange, dw if weights is not None else None)
    parts = [ZeroTangent() if dh is None else ProjectTo(h)(dh)]
    parts += [ZeroTangent() if de is None else ProjectTo(e)(de) for de, e in zip(dedges, edges)]
    if all(isinstance(p, AbstractZero) for p in parts):
        return (h, xedges, yedges), ZeroTangent()
    return (h, xedges, yedges), Tangent(tuple, *parts)


@sample_inputs(np.histogram2d)
def _histogram2d_samples() -> Iterator[Sample]:
    from chainrules.testing import central_fdm

    smooth: dict[str, Any] = {"fdm": central_fdm(5, 1, max_range=1e-2)}
    yield Sample(_DATA, _DATA_2, 3, **smooth, label="data-dependent edges")
    yield Sample(_DATA, _DATA_2, [3, 2], [_RANGE, (0.0, 3.0)], True, _WEIGHTS, **smooth,
                 label="ranges, density, weights")
    yield Sample(_DATA, _DATA_2, _EDGES, **smooth, label="one array of edges for both")
    yield Sample(_DATA.astype(np.float32), _DATA_2.astype(np.float32), fkwargs={"bins": 3, "density": True},
                 **smooth, label="keywords (float32)")
