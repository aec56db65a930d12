"""``make_interp_spline``, ``make_lsq_spline`` and ``make_smoothing_spline``: B-splines fitted to data,
with respect to the sites ``x``, the values ``y``, the knots ``t`` (when given), the weights ``w``,
the end conditions' values (``bc_type`` given by position) and ``lam``.

The output is a ``BSpline``; its tangent ``Tangent(BSpline, t=dt, c=dc)`` (``c`` with the
interpolation axis first). Calling it, its methods and ``splev`` have their own rules
(:mod:`.bspline`, :mod:`.fitpack`), so ``make_interp_spline(x, y)(xq)`` is differentiable in
``x``, ``y`` and ``xq``.

The maths
---------
See :mod:`._fitting`: the interpolation conditions ``M(x, t) c = r`` differentiated (one sparse
LU for the tangent and the adjoint), the normal equations of the least-squares fit, and
Reinsch's smoother followed by natural cubic interpolation. When SciPy builds the knots from
the sites (``t=None``), they are a linear function of the sites and move with them.

``bc_type='periodic'`` needs ``y[0] == y[-1]`` (the derivative along tangents keeping that;
the cotangent of ``y[-1]`` is zero: the conditions read ``y[0]``). ``make_smoothing_spline``
without ``lam`` chooses it by generalised cross-validation, a choice that depends on the data
and is not differentiated: its derivatives are not implemented there; pass ``lam``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.interpolate as si

from chainrules.rulesets.interpolate._fitting import Interpolation, LeastSquares, Smoother, knot_map
from chainrules.rulesets.interpolate._spline_rules import Fit, fit_frule, fit_rrule, part
from chainrules_core import NoTangent, Sample, Tangent, frule, not_implemented, rrule, sample_inputs

__all__ = ["InterpolatingFit", "derivative_conditions"]


def _stored(value: Any, axis: int) -> np.ndarray:
    moved = np.moveaxis(np.asarray(value), axis, 0)
    return moved.reshape(moved.shape[0], -1)


def derivative_conditions(bc_type: Any) -> tuple[list[tuple[int, Any, int]], list[tuple[int, Any, int]]]:
    """The derivative conditions at each end as ``(order, value, index)`` (``value`` ``None`` for a fixed zero).

    ``index`` is the position of the pair in its side's list (for the structural cotangent).

    Examples
    --------
    >>> derivative_conditions(([(1, 0.5)], "natural"))
    ([(1, 0.5, 0)], [(2, None, -1)])
    >>> derivative_conditions(None)
    ([], [])
    """
    if bc_type is None or (isinstance(bc_type, str) and bc_type in ("not-a-knot", "periodic")):
        return [], []
    sides = (bc_type, bc_type) if isinstance(bc_type, str) else tuple(bc_type)
    out: list[list[tuple[int, Any, int]]] = []
    for side in sides:
        if side is None:
            out.append([])
        elif isinstance(side, str):
            out.append([(1 if side == "clamped" else 2, None, -1)])
        else:
            out.append([(int(order), value, i) for i, (order, value) in enumerate(side)])
    return out[0], out[1]


class InterpolatingFit(Fit):
    """``make_interp_spline(x, y, k, t, bc_type, axis, check_finite)`` at one call.

    Examples
    --------
    >>> x = np.arange(5.0)
    >>> fit = InterpolatingFit(x, x ** 2, 3, None, None, 0, True)
    >>> fields = fit.forward({0: None, 1: np.ones(5), 3: None, 4: None})
    >>> np.round(fields["c"], 12) + 0.0                   # a constant shift of y shifts every coefficient
    array([1., 1., 1., 1., 1.])
    """

    def __init__(self, x: Any, y: Any, k: Any, t: Any, bc_type: Any, axis: Any, check_finite: Any) -> None:
        self.y = si.make_interp_spline(x, y, k, t, bc_type, axis, check_finite)
        b = self.y
        self.axis = int(b.axis)
        self.x = np.asarray(x, dtype=np.float64)
        n = self.x.size
        self.n, self.k = n, int(k)
        self.c_shape = np.shape(b.c)
        c = np.asarray(b.c).reshape(self.c_shape[0], -1)
        self.t_given = t is not None
        self.bc_type = bc_type
        self.structural = (4,) if isinstance(bc_type, (tuple, list)) else ()
        self.differentiated = (0, 1) + ((3,) if self.t_given else ()) + self.structural
        self.direct = self.k == 0 or (self.k == 1 and not self.t_given)
        self.L: Any = None
        if self.direct:
            self.L = knot_map(n, self.k, "constant" if self.k == 0 else "linear")
            return
        periodic = isinstance(bc_type, str) and bc_type == "periodic"
        left, right = derivative_conditions(bc_type)
        self.left, self.right = left, right
        nt = c.shape[0]
        if periodic:
            terms = [(i, i, 0, 1.0) for i in range(n - 1)]
            for j in range(self.k):
                terms += [(n - 1 + j, n - 1, j, 1.0), (n - 1 + j, 0, j, -1.0)]
            self.value_rows = np.arange(n - 1)
            self.value_sites = np.arange(n - 1)
        else:
            terms = [(i, 0, order, 1.0) for i, (order, _, _) in enumerate(left)]
            terms += [(len(left) + i, i, 0, 1.0) for i in range(n)]
            terms += [(nt - len(right) + i, n - 1, order, 1.0) for i, (order, _, _) in enumerate(right)]
            self.value_rows = len(left) + np.arange(n)
            self.value_sites = np.arange(n)
        self.L = None
        if not self.t_given:
            kind = "periodic" if periodic else ("not-a-knot" if not (left or right) else "augmented")
            self.L = knot_map(n, self.k, kind)
        self.problem = Interpolation(self.x, np.asarray(b.t), self.k, c, terms)
        self.nt = nt

    def _condition_rows(self) -> list[tuple[int, int, int]]:
        """``(row, side, index in side)`` of each derivative condition with a given value."""
        rows = []
        for i, (_, value, index) in enumerate(self.left):
            if value is not None:
                rows.append((i, 0, index))
        for i, (_, value, index) in enumerate(self.right):
            if value is not None:
                rows.append((self.nt - len(self.right) + i, 1, index))
        return rows

    def forward(self, tangents: dict[int, Any]) -> dict[str, Any]:
        dx, dy = tangents.get(0), tangents.get(1)
        dy_stored = None if dy is None else _stored(dy, self.axis)
        if self.direct:
            dt = None if dx is None else self.L @ dx
            dc = None if dy_stored is None else dy_stored.reshape(self.c_shape)
            return {"t": dt, "c": dc}
        dt = tangents.get(3) if self.t_given else (None if dx is None else self.L @ dx)
        dr: Any = None
        T = self.problem.c.shape[1]
        if dy_stored is not None:
            dr = np.zeros(self.problem.c.shape, dtype=np.result_type(self.problem.c, dy_stored))
            dr[self.value_rows] = dy_stored[self.value_sites]
        dbc = tangents.get(4)
        if dbc is not None:
            for row, side, index in self._condition_rows():
                value = part(part(part(dbc, side), index), 1)
                if value is not None:
                    if dr is None:
                        dr = np.zeros(self.problem.c.shape, dtype=np.result_type(self.problem.c, value))
                    dr[row] = np.broadcast_to(np.asarray(value), (T,)) if np.size(value) == 1 else \
                        np.asarray(value).reshape(T)
        dc = self.problem.tangent(dx, dt, dr)
        return {"t": dt, "c": None if dc is None else dc.reshape(self.c_shape)}

    def backward(self, cotangents: dict[str, Any]) -> dict[int, Any]:
        tbar_field = cotangents.get("t")
        cbar = cotangents.get("c")
        y_shape = (self.n,) + self.c_shape[1:]
        if self.direct:
            tbar = np.zeros(self.L.shape[0]) if tbar_field is None else tbar_field
            ybar = np.zeros(y_shape) if cbar is None else cbar.reshape(y_shape)
            return {0: self.L.T @ tbar, 1: np.moveaxis(ybar, 0, self.axis)}
        T = self.problem.c.shape[1]
        cbar2 = np.zeros(self.problem.c.shape) if cbar is None else cbar.reshape(self.nt, T)
        xbar, tbar, rbar = self.problem.transpose(cbar2)
        if tbar_field is not None:
            tbar = tbar + tbar_field
        out: dict[int, Any] = {}
        if self.L is not None:
            xbar = xbar + self.L.T @ tbar
        else:
            out[3] = tbar
        ybar = np.zeros((self.n, T), dtype=rbar.dtype)
        ybar[self.value_sites] = rbar[self.value_rows]
        out[0] = xbar
        out[1] = np.moveaxis(ybar.reshape(y_shape), 0, self.axis)
        if self.structural:
            out[4] = self._bc_cotangent(rbar)
        return out

    def _bc_cotangent(self, rbar: np.ndarray) -> Any:
        found = {(side, index): rbar[row] for row, side, index in self._condition_rows()}
        sides: list[Any] = []
        for side_index, side in enumerate(self.bc_type):
            if side is None or isinstance(side, str):
                sides.append(NoTangent())
                continue
            pairs = []
            for index, pair in enumerate(side):
                value = np.asarray(pair[1])
                bar = found[(side_index, index)].reshape(value.shape)
                pairs.append(Tangent(type(pair), NoTangent(), bar if bar.ndim else bar[()]))
            sides.append(Tangent(type(side), *pairs))
        return Tangent(type(self.bc_type), *sides)


@rrule.register(si.make_interp_spline)
def make_interp_spline_rrule(x: Any, y: Any, k: Any = 3, t: Any = None, bc_type: Any = None, axis: Any = 0,
                             check_finite: Any = True) -> Any:
    """Reverse rule of ``make_interp_spline``: the sites, the values, the knots and the end values.

    Examples
    --------
    >>> from chainrules import unthunk
    >>> x = np.arange(5.0)
    >>> b, pullback = rrule(si.make_interp_spline, x, x ** 2)
    >>> ybar = unthunk(pullback(Tangent(si.BSpline, c=np.ones(5)))[2])
    >>> bool(np.isclose(ybar.sum(), 5.0))                 # the coefficients sum to sum(y) + constant...
    True
    """
    fit = InterpolatingFit(x, y, k, t, bc_type, axis, check_finite)
    return fit_rrule(si.make_interp_spline, "make_interp_spline", fit, [x, y, k, t, bc_type, axis, check_finite])


@frule.register(si.make_interp_spline)
def make_interp_spline_frule(tangents: Any, x: Any, y: Any, k: Any = 3, t: Any = None, bc_type: Any = None,
                             axis: Any = 0, check_finite: Any = True) -> Any:
    """Forward rule of ``make_interp_spline``.

    Examples
    --------
    >>> from chainrules import NoTangent, ZeroTangent
    >>> x = np.arange(5.0)
    >>> dt = frule((NoTangent(), np.ones(5), ZeroTangent()), si.make_interp_spline, x, x ** 2)[1].t
    >>> dt                                              # the knots move with the sites
    array([1., 1., 1., 1., 1., 1., 1., 1., 1.])
    """
    fit = InterpolatingFit(x, y, k, t, bc_type, axis, check_finite)
    return fit_frule(fit, tangents, [x, y, k, t, bc_type, axis, check_finite])


# ---- least squares --------------------------------------------------------------------------------------
class LeastSquaresFit(Fit):
    """``make_lsq_spline(x, y, t, k, w, axis, check_finite, method=...)`` at one call."""

    def __init__(self, x: Any, y: Any, t: Any, k: Any, w: Any, axis: Any, check_finite: Any, method: Any) -> None:
        self.y = si.make_lsq_spline(x, y, t, k, w, axis, check_finite, method=method)
        b = self.y
        self.axis = int(b.axis)
        self.x = np.asarray(x, dtype=np.float64)
        self.c_shape = np.shape(b.c)
        self.y_shape = (self.x.size,) + self.c_shape[1:]
        c = np.asarray(b.c).reshape(self.c_shape[0], -1)
        weights = np.ones(self.x.size) if w is None else np.asarray(w, dtype=np.float64)
        self.differentiated = (0, 1, 2) + (() if w is None else (4,))
        data = _stored(y, self.axis).astype(c.dtype)
        self.problem = LeastSquares(self.x, data, weights, np.asarray(b.t), int(k), c)

    def forward(self, tangents: dict[int, Any]) -> dict[str, Any]:
        dy = tangents.get(1)
        dc = self.problem.tangent(tangents.get(0), None if dy is None else _stored(dy, self.axis), tangents.get(4),
                                  tangents.get(2))
        return {"t": tangents.get(2), "c": None if dc is None else dc.reshape(self.c_shape)}

    def backward(self, cotangents: dict[str, Any]) -> dict[int, Any]:
        cbar = cotangents.get("c")
        cbar2 = np.zeros(self.problem.c.shape) if cbar is None else cbar.reshape(self.problem.c.shape)
        xbar, ybar, wbar, tbar = self.problem.transpose(cbar2)
        if cotangents.get("t") is not None:
            tbar = tbar + cotangents["t"]
        return {0: xbar, 1: np.moveaxis(ybar.reshape(self.y_shape), 0, self.axis), 2: tbar, 4: wbar}


@rrule.register(si.make_lsq_spline)
def make_lsq_spline_rrule(x: Any, y: Any, t: Any, k: Any = 3, w: Any = None, axis: Any = 0, check_finite: Any = True,
                          *, method: Any = "qr") -> Any:
    """Reverse rule of ``make_lsq_spline``: the sites, the values, the knots and the weights.

    Examples
    --------
    >>> from chainrules import unthunk
    >>> x = np.linspace(0.0, 1.0, 6); t = np.array([0.0, 0.0, 1.0, 1.0])
    >>> b, pullback = rrule(si.make_lsq_spline, x, 2 * x, t, 1)        # the line through the data
    >>> ybar = unthunk(pullback(Tangent(si.BSpline, c=np.array([1.0, 1.0])))[2])
    >>> np.round(ybar, 12) + 0.0                       # c0 + c1 = s(0) + s(1) = 2 mean(y)
    array([0.33333333, 0.33333333, 0.33333333, 0.33333333, 0.33333333,
           0.33333333])
    """
    fit = LeastSquaresFit(x, y, t, k, w, axis, check_finite, method)
    return fit_rrule(si.make_lsq_spline, "make_lsq_spline", fit, [x, y, t, k, w, axis, check_finite])


@frule.register(si.make_lsq_spline)
def make_lsq_spline_frule(tangents: Any, x: Any, y: Any, t: Any, k: Any = 3, w: Any = None, axis: Any = 0,
                          check_finite: Any = True, *, method: Any = "qr") -> Any:
    """Forward rule of ``make_lsq_spline``.

    Examples
    --------
    >>> from chainrules import NoTangent, ZeroTangent
    >>> x = np.linspace(0.0, 1.0, 6); t = np.array([0.0, 0.0, 1.0, 1.0])
    >>> frule((NoTangent(), ZeroTangent(), np.ones(6), ZeroTangent(), NoTangent()), si.make_lsq_spline,
    ...       x, 2 * x, t, 1)[1].c
    array([1., 1.])
    """
    fit = LeastSquaresFit(x, y, t, k, w, axis, check_finite, method)
    return fit_frule(fit, tangents, [x, y, t, k, w, axis, check_finite])


# ---- smoothing ----------------------------------------------------------------------------------------------
_GCV = ("make_smoothing_spline with lam=None chooses lam by generalised cross-validation, which depends on "
        "the data; that dependence is not differentiated. Pass lam= (a number) to differentiate the smoother "
        "at that lam")


class SmoothingFit(Fit):
    """``make_smoothing_spline(x, y, w, lam, axis=...)`` at one call (``lam`` given)."""

    def __init__(self, x: Any, y: Any, w: Any, lam: Any, axis: Any) -> None:
        self.y = si.make_smoothing_spline(x, y, w, lam, axis=axis)
        b = self.y
        self.axis = int(b.axis)
        self.x = np.asarray(x, dtype=np.float64)
        n = self.x.size
        self.n = n
        self.c_shape = np.shape(b.c)
        self.y_shape = (n,) + self.c_shape[1:]
        c = np.asarray(b.c).reshape(self.c_shape[0], -1)
        self.gcv = lam is None
        self.differentiated = (0, 1) + (() if w is None else (2,)) + (() if lam is None else (3,))
        if self.gcv:
            return
        weights = np.ones(n) if w is None else np.asarray(w, dtype=np.float64)
        self.smoother = Smoother(self.x, _stored(y, self.axis).astype(np.float64), weights, float(lam))
        terms = [(0, 0, 2, 1.0)] + [(1 + i, i, 0, 1.0) for i in range(n)] + [(n + 1, n - 1, 2, 1.0)]
        self.problem = Interpolation(self.x, np.asarray(b.t), 3, c, terms)
        self.L = knot_map(n, 3, "augmented")

    def forward(self, tangents: dict[int, Any]) -> dict[str, Any]:
        if self.gcv:
            return {"t": None, "c": not_implemented(_GCV)}
        dx, dy = tangents.get(0), tangents.get(1)
        dg = self.smoother.tangent(dx, None if dy is None else _stored(dy, self.axis), tangents.get(2), tangents.get(3))
        dr = None
        if dg is not None:
            dr = np.zeros(self.problem.c.shape)
            dr[1:self.n + 1] = dg
        dt = None if dx is None else self.L @ dx
        dc = self.problem.tangent(dx, dt, dr)
        return {"t": dt, "c": None if dc is None else dc.reshape(self.c_shape)}

    def backward(self, cotangents: dict[str, Any]) -> dict[int, Any]:
        if self.gcv:
            missing = not_implemented(_GCV)
            return {0: missing, 1: missing, 2: missing}
        cbar = cotangents.get("c")
        cbar2 = np.zeros(self.problem.c.shape) if cbar is None else cbar.reshape(self.problem.c.shape)
        xbar, tbar, rbar = self.problem.transpose(cbar2)
        if cotangents.get("t") is not None:
            tbar = tbar + cotangents["t"]
        xs, ybar, wbar, lambar = self.smoother.transpose(rbar[1:self.n + 1])
        return {0: xbar + self.L.T @ tbar + xs, 1: np.moveaxis(ybar.reshape(self.y_shape), 0, self.axis), 2: wbar,
                3: lambar}


@rrule.register(si.make_smoothing_spline)
def make_smoothing_spline_rrule(x: Any, y: Any, w: Any = None, lam: Any = None, *, axis: Any = 0) -> Any:
    """Reverse rule of ``make_smoothing_spline``: the sites, the values, the weights and ``lam`` (given).

    Examples
    --------
    >>> from chainrules import unthunk
    >>> x = np.arange(6.0)
    >>> b, pullback = rrule(si.make_smoothing_spline, x, np.sin(x), None, 0.5)
    >>> ybar = unthunk(pullback(Tangent(si.BSpline, c=np.ones(8)))[2])
    >>> bool(np.isclose(ybar.sum(), 8.0))                 # a constant shift passes through the smoother
    True
    """
    fit = SmoothingFit(x, y, w, lam, axis)
    return fit_rrule(si.make_smoothing_spline, "make_smoothing_spline", fit, [x, y, w, lam])


@frule.register(si.make_smoothing_spline)
def make_smoothing_spline_frule(tangents: Any, x: Any, y: Any, w: Any = None, lam: Any = None, *,
                                axis: Any = 0) -> Any:
    """Forward rule of ``make_smoothing_spline``.

    Examples
    --------
    >>> from chainrules import NoTangent, ZeroTangent
    >>> x = np.arange(6.0)
    >>> dc = frule((NoTangent(), ZeroTangent(), np.ones(6)), si.make_smoothing_spline, x, np.sin(x), lam=0.5)[1].c
    >>> np.round(dc, 12) + 0.0
    array([1., 1., 1., 1., 1., 1., 1., 1.])
    """
    fit = SmoothingFit(x, y, w, lam, axis)
    return fit_frule(fit, tangents, [x, y, w, lam])


# ---- sample inputs ----------------------------------------------------------------------------------
_X = np.array([0.0, 0.6, 1.3, 1.9, 2.8, 3.4, 4.1])
"""Sites more than twice the finite differences' reach apart."""


def _values(rng: np.random.Generator, trailing: tuple[int, ...] = ()) -> np.ndarray:
    return np.sin(_X).reshape((7,) + (1,) * len(trailing)) + 0.3 * rng.standard_normal((7,) + trailing)


@sample_inputs(si.make_interp_spline)
def _interp_samples(rng: np.random.Generator) -> list[Sample]:
    y = _values(rng)
    knots = np.array([-0.9, -0.6, -0.3, -0.05, 1.0, 2.3, 3.0, 4.15, 4.4, 4.7, 5.0])  # distinct: all can move
    # bc_type='periodic' needs y[0] == y[-1], which finite differences of y break: tested in
    # tests/chainrules/rulesets/interpolate/test_splines.py along tangents keeping it.
    return [Sample(_X, y, label="cubic, not-a-knot"), Sample(_X, y, 2, label="quadratic by position"),
            Sample(_X, y, fkwargs={"k": 5}, label="quintic by keyword"),
            Sample(_X, y, 1, label="linear"), Sample(_X, y, 0, label="piecewise constant"),
            Sample(_X, y, 3, None, "natural", label="natural by position"),
            Sample(_X, y, 3, None, ([(1, 0.5)], [(2, -0.3)]), label="a first and a second derivative given"),
            Sample(_X, _values(rng, (2,)), 3, None, ([(1, np.array([0.5, 0.1]))], [(1, np.array([0.0, 2.0]))]), 0,
                   label="vector values, first derivatives given"),
            Sample(_X, y, 3, knots, label="knots given"),
            Sample(_X, _values(rng, (2,)).T.copy(), fkwargs={"axis": 1, "bc_type": "clamped"},
                   label="axis=1, clamped, by keyword"),
            Sample(_X, y + 1j * rng.standard_normal(7), label="complex values"),
            Sample(_X.astype(np.float32), y.astype(np.float32), label="float32")]


@sample_inputs(si.make_lsq_spline)
def _lsq_samples(rng: np.random.Generator) -> list[Sample]:
    y = _values(rng)
    knots = np.array([-0.9, -0.6, -0.3, -0.1, 1.5, 2.5, 4.2, 4.5, 4.8, 5.1])  # distinct: all can move
    return [Sample(_X, y, knots, label="cubic, distinct knots"),
            Sample(_X, y, knots, 3, rng.uniform(0.5, 2.0, 7), label="weights by position"),
            Sample(_X, _values(rng, (2,)).T.copy(), knots, fkwargs={"axis": 1, "method": "norm-eq"},
                   label="axis=1, normal equations, by keyword"),
            Sample(_X, y, knots[1:-1], 2, label="quadratic")]


@sample_inputs(si.make_smoothing_spline)
def _smoothing_samples(rng: np.random.Generator) -> list[Sample]:
    y = _values(rng)
    return [Sample(_X, y, None, 0.3, label="lam given by position"),
            Sample(_X, y, rng.uniform(0.5, 2.0, 7), 0.05, label="weights and lam"),
            Sample(_X, _values(rng, (2,)).T.copy(), None, 1.5, fkwargs={"axis": 1}, label="axis=1"),
            Sample(_X, y, fkwargs={"lam": 0.3}, label="lam by keyword (not differentiated)")]
