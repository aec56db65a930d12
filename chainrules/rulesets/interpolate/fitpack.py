"""FITPACK's interface: ``splrep``, ``splprep``, ``splev``, ``splint``, ``splder``, ``splantider`` and the
``UnivariateSpline`` family (``UnivariateSpline``, ``InterpolatedUnivariateSpline``,
``LSQUnivariateSpline``: constructors, calls, ``derivative``, ``antiderivative``, ``integral``).

A ``tck`` is differentiated as the tuple it is: its cotangent is ``Tangent(tuple, tbar, cbar,
NoTangent())`` (``cbar`` a ``Tangent(list, ...)`` for ``splprep``'s list of coefficient arrays).
A ``UnivariateSpline``'s tangent is ``Tangent(cls, t=dt, c=dc)``: FITPACK's full knot vector and
coefficients (``_eval_args``; ``c`` padded with zeros to the length of ``t``).

The maths
---------
The fits are those of :mod:`._fitting`: with ``s=0`` the interpolating spline with FITPACK's
knots (the sites, or midpoints for even ``k``, without ``(k+1)//2`` at each end; the ends
``xb``, ``xe`` repeated ``k + 1`` times), with ``task=-1`` (or ``LSQUnivariateSpline``) the
weighted least-squares spline on the given interior knots and the ends. Everything the knots
are made of (sites, ``xb``/``xe`` or ``bbox``, interior knots) moves them. ``splprep`` first
takes the normalised cumulative chord length ``u_i = sum_{j<i} |x_{j+1} - x_j| / total`` as sites
(Dierckx, *Curve and Surface Fitting with Splines*, 1993, sec. 9.3), differentiated too.
Evaluation, derivatives and integrals are the B-spline ones (:mod:`.bspline`); outside the
base interval, ``ext=1`` gives zero and no derivative, ``ext=3`` the value at the nearest end
(which moves with that knot; FITPACK extrapolates derivatives ``der > 0`` with ``ext=3``).

With a smoothing factor ``s > 0`` FITPACK places knots adaptively and solves for a smoothing
parameter by iteration: those derivatives are not implemented (workaround: fix the knots with
``task=-1`` / ``LSQUnivariateSpline``, or use ``make_smoothing_spline`` with ``lam``);
periodic fits (``per=1``) are not implemented either.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.interpolate as si

from chainrules.rulesets.arrays._linear_maps import output_tangent, tangent_array
from chainrules.rulesets.contractions._multilinear import lazy_cotangent
from chainrules.rulesets.interpolate._bspline import AntiderivativeStep, BSplineIntegral, DerivativeStep, SplineEval
from chainrules.rulesets.interpolate._fitting import Interpolation, LeastSquares, knot_map
from chainrules.rulesets.interpolate._objects import object_fields, object_tangent, read_object
from chainrules.rulesets.interpolate._spline_rules import (
    Fit,
    MissingTangentError,
    fit_frule,
    fit_rrule,
    part,
    read_structure,
)
from chainrules.rulesets.reductions._registration import name_pullback
from chainrules.rulesets.reductions._tangent_values import passed_on, tangent_value
from chainrules_core import (
    NoTangent,
    NotImplementedTangent,
    ProjectionError,
    ProjectTo,
    Sample,
    Tangent,
    ZeroTangent,
    backing,
    cotangent_projector,
    frule,
    not_implemented,
    passes_through,
    read_cotangent,
    read_cotangents,
    rrule,
    sample_inputs,
    unthunk,
)

__all__ = ["CurveFit", "splev_mode"]

_SMOOTHING = ("a FITPACK smoothing spline (s > 0) places its knots adaptively and finds its smoothing parameter by "
              "iteration; not differentiated. Fix the knots (splrep(..., task=-1, t=...) or LSQUnivariateSpline), "
              "interpolate (s=0), or use make_smoothing_spline(x, y, lam=...)")
_PERIODIC = "FITPACK's periodic fits (per=1) are not differentiated; use make_interp_spline(..., bc_type='periodic')"


def splev_mode(ext: int, der: int) -> str:
    """The :class:`._bspline.SplineEval` mode of FITPACK's ``ext`` (``ext=3`` extrapolates derivatives).

    Examples
    --------
    >>> splev_mode(1, 0), splev_mode(3, 0), splev_mode(3, 1)
    ('zero', 'clip', 'extrapolate')
    """
    if ext == 1:
        return "zero"
    if ext == 3 and der == 0:
        return "clip"
    return "extrapolate"


# ---- the fits -------------------------------------------------------------------------------------------------
class CurveFit:
    """One FITPACK curve fit: interpolation (``interior=None``) or least squares on given interior knots.

    ``t`` and ``c`` (shape ``(len(t), T)``, padded) are FITPACK's output; the knots are
    ``L_x x + l_b xb + l_e xe`` (plus the interior knots for least squares), with ``xb``, ``xe``
    ``None`` meaning ``x[0]``, ``x[-1]``.

    Examples
    --------
    >>> x = np.arange(6.0)
    >>> t, c, k = si.splrep(x, x ** 2)
    >>> fit = CurveFit(x, (x ** 2)[:, None], None, None, None, 3, None, t, c[:, None])
    >>> dt, dc = fit.forward(None, np.ones((6, 1)), None, None, None, None)
    >>> np.round(dc[:, 0], 12) + 0.0                   # a shift moves every coefficient; the padding stays
    array([1., 1., 1., 1., 1., 1., 0., 0., 0., 0.])
    """

    def __init__(self, x: np.ndarray, y: np.ndarray, w: Any, xb: Any, xe: Any, k: int, interior: Any,
                 t: np.ndarray, c: np.ndarray) -> None:
        self.x, self.k = np.asarray(x, dtype=np.float64), int(k)
        n, N = self.x.size, t.size
        self.N, self.nt = N, N - self.k - 1
        self.c_out_shape = c.shape
        self.lsq = interior is not None
        if self.lsq:
            Lx, lb, le = np.zeros((N, n)), np.zeros(N), np.zeros(N)
            lb[:self.k + 1] = 1.0
            le[N - self.k - 1:] = 1.0
        else:
            L = knot_map(n, self.k, "not-a-knot", ends=True)
            Lx, lb, le = L[:, :n].copy(), L[:, n], L[:, n + 1]
        self.has_xb, self.has_xe = xb is not None, xe is not None
        if not self.has_xb:
            Lx[:, 0] += lb
        if not self.has_xe:
            Lx[:, -1] += le
        self.Lx, self.lb, self.le = Lx, lb, le
        coefficients = c[:self.nt]
        if self.lsq:
            weights = np.ones(n) if w is None else np.asarray(w, dtype=np.float64)
            self.problem: Any = LeastSquares(self.x, y, weights, t, self.k, coefficients)
        else:
            self.problem = Interpolation(self.x, t, self.k, coefficients, [(i, i, 0, 1.0) for i in range(n)])

    def forward(self, dx: Any, dy: Any, dw: Any, dxb: Any, dxe: Any, dinterior: Any) -> tuple[Any, Any]:
        """``(dt, dc)`` (``dc`` padded) for the tangents of the sites, values, weights, ends and interior knots."""
        dt: Any = None
        parts = []
        if dx is not None:
            parts.append(self.Lx @ dx)
        if dxb is not None and self.has_xb:
            parts.append(self.lb * float(dxb))
        if dxe is not None and self.has_xe:
            parts.append(self.le * float(dxe))
        if dinterior is not None and self.lsq:
            inner = np.zeros(self.N)
            inner[self.k + 1:self.N - self.k - 1] = dinterior
            parts.append(inner)
        if parts:
            dt = np.sum(parts, axis=0)
        if self.lsq:
            dc = self.problem.tangent(dx, dy, dw, dt)
        else:
            dc = self.problem.tangent(dx, dt, dy)
        if dc is None:
            return dt, None
        padded = np.zeros(self.c_out_shape, dtype=dc.dtype)
        padded[:self.nt] = dc
        return dt, padded

    def backward(self, tbar: Any, cbar: Any) -> dict[str, Any]:
        """Cotangents ``x, y, w, xb, xe, interior`` from those of the knots and the (padded) coefficients."""
        cbar = np.zeros((self.nt,) + self.c_out_shape[1:]) if cbar is None else np.asarray(cbar)[:self.nt]
        tbar = np.zeros(self.N) if tbar is None else np.asarray(tbar, dtype=np.float64)
        out: dict[str, Any] = {"w": None}
        if self.lsq:
            xbar, ybar, wbar, tb = self.problem.transpose(cbar)
            out["w"] = wbar
        else:
            xbar, tb, ybar = self.problem.transpose(cbar)
        tbar = tbar + tb
        out.update(x=xbar + self.Lx.T @ tbar, y=ybar, xb=float(self.lb @ tbar), xe=float(self.le @ tbar),
                   interior=tbar[self.k + 1:self.N - self.k - 1])
        return out


def _bbox_ends(bbox: Any) -> tuple[Any, Any]:
    ends = list(bbox) if bbox is not None else [None, None]
    return ends[0], ends[1]


# ---- splrep ---------------------------------------------------------------------------------------------------
def _splrep_fit(x: Any, y: Any, w: Any, xb: Any, xe: Any, k: Any, task: Any, s: Any, t: Any, per: Any,
                tck: Any) -> Any:
    """The :class:`CurveFit` of a ``splrep`` call, or a reason it is not differentiated."""
    m = len(np.atleast_1d(x))
    smoothing = s if s is not None else (0.0 if w is None else m - np.sqrt(2 * m))
    if per:
        return _PERIODIC
    if task == -1:
        interior = np.asarray(t, dtype=np.float64)
    elif task == 0 and smoothing == 0:
        interior = None
    else:
        return _SMOOTHING
    t_out, c_out, _ = tck
    return CurveFit(np.asarray(x), np.asarray(y, dtype=np.float64)[:, None], w, xb, xe, int(k), interior,
                    np.asarray(t_out), np.asarray(c_out)[:, None])


_SPLREP_POSITIONS = {0: "x", 1: "y", 2: "w", 3: "xb", 4: "xe", 8: "interior"}


@rrule.register(si.splrep)
def splrep_rrule(x: Any, y: Any, w: Any = None, xb: Any = None, xe: Any = None, k: Any = 3, task: Any = 0,
                 s: Any = None, t: Any = None, full_output: Any = 0, per: Any = 0, quiet: Any = 1) -> Any:
    """Reverse rule of ``splrep`` (interpolation, ``s=0``, or least squares, ``task=-1``).

    Examples
    --------
    >>> from chainrules import unthunk
    >>> x = np.arange(6.0)
    >>> tck, pullback = rrule(si.splrep, x, x ** 2)
    >>> cbar = np.zeros(10); cbar[0] = 1.0              # c[0] is the value at x[0] (clamped ends)
    >>> np.round(unthunk(pullback(Tangent(tuple, ZeroTangent(), cbar, NoTangent()))[2]), 12) + 0.0
    array([1., 0., 0., 0., 0., 0.])
    """
    if full_output:
        return None
    tck = si.splrep(x, y, w, xb, xe, k, task, s, t, full_output, per, quiet)
    fit = _splrep_fit(x, y, w, xb, xe, k, task, s, t, per, tck)
    values = [x, y, w, xb, xe, k, task, s, t, full_output, per, quiet]
    projectors = [cotangent_projector(v) if i in _SPLREP_POSITIONS else None for i, v in enumerate(values)]

    def splrep_pullback(dy: Any) -> tuple[Any, ...]:
        read = read_cotangents(dy, tck, si.splrep)
        if passes_through(read):
            zero = passed_on(read)
            return (NoTangent(), *(NoTangent() if p is None else p(zero) for p in projectors))
        if isinstance(fit, str):
            missing = not_implemented(fit)
            return (NoTangent(), *(NoTangent() if p is None else p(missing) for p in projectors))
        cbar = None if read[1] is None else np.asarray(read[1])[:, None]
        memo: dict[str, Any] = {}

        def value(key: str) -> Any:
            def compute() -> Any:
                if not memo:
                    memo.update(fit.backward(read[0], cbar))
                found = memo[key]
                if key == "y":
                    return found[:, 0]
                return ZeroTangent() if found is None else found

            return compute

        out: list[Any] = [NoTangent()]
        for i, project in enumerate(projectors):
            out.append(NoTangent() if project is None else lazy_cotangent(project, value(_SPLREP_POSITIONS[i])))
        return tuple(out)

    return tck, splrep_pullback


@frule.register(si.splrep)
def splrep_frule(tangents: Any, x: Any, y: Any, w: Any = None, xb: Any = None, xe: Any = None, k: Any = 3,
                 task: Any = 0, s: Any = None, t: Any = None, full_output: Any = 0, per: Any = 0,
                 quiet: Any = 1) -> Any:
    """Forward rule of ``splrep``: ``Tangent(tuple, dt, dc, NoTangent())``.

    Examples
    --------
    >>> x = np.arange(6.0)
    >>> dtck = frule((NoTangent(), ZeroTangent(), np.ones(6)), si.splrep, x, x ** 2)[1]
    >>> np.round(dtck[1], 12) + 0.0
    array([1., 1., 1., 1., 1., 1., 0., 0., 0., 0.])
    """
    if full_output:
        return None
    tck = si.splrep(x, y, w, xb, xe, k, task, s, t, full_output, per, quiet)
    fit = _splrep_fit(x, y, w, xb, xe, k, task, s, t, per, tck)
    values = [x, y, w, xb, xe, k, task, s, t]
    read: dict[str, Any] = {}
    for position, key in _SPLREP_POSITIONS.items():
        given = len(tangents) > position + 1 and values[position] is not None
        d = tangent_array(tangents[position + 1], values[position]) if given else None
        if isinstance(d, NotImplementedTangent):
            return tck, d
        read[key] = None if d is None else np.asarray(d, dtype=np.float64)
    if all(v is None for v in read.values()):
        return tck, ZeroTangent()
    if isinstance(fit, str):
        return tck, not_implemented(fit)
    dy = None if read["y"] is None else read["y"][:, None]
    dt, dc = fit.forward(read["x"], dy, read["w"], read["xb"], read["xe"], read["interior"])
    return tck, Tangent(tuple, output_tangent(dt, tck[0]), output_tangent(None if dc is None else dc[:, 0], tck[1]),
                        NoTangent())


# ---- splprep --------------------------------------------------------------------------------------------------
class _ChordLength:
    """``u = U / U[-1]``, ``U = [0, cumsum |x_{i+1} - x_i|]`` for points ``x`` of shape ``(idim, m)``."""

    def __init__(self, x: np.ndarray) -> None:
        self.step = np.diff(x, axis=1)
        self.d = np.sqrt(np.sum(self.step ** 2, axis=0))
        self.U = np.concatenate(([0.0], np.cumsum(self.d)))
        self.u = self.U / self.U[-1]

    def tangent(self, dx: np.ndarray) -> np.ndarray:
        dd = np.sum(self.step * np.diff(dx, axis=1), axis=0) / self.d
        dU = np.concatenate(([0.0], np.cumsum(dd)))
        return dU / self.U[-1] - self.U * dU[-1] / self.U[-1] ** 2

    def transpose(self, ubar: np.ndarray) -> np.ndarray:
        Ubar = ubar / self.U[-1]
        Ubar[-1] -= np.sum(ubar * self.U) / self.U[-1] ** 2
        ddbar = np.cumsum(Ubar[1:][::-1])[::-1]
        stepbar = ddbar * self.step / self.d
        xbar = np.zeros((self.step.shape[0], self.step.shape[1] + 1))
        xbar[:, 1:] += stepbar
        xbar[:, :-1] -= stepbar
        return xbar


def _splprep_fit(x: Any, u: Any, ub: Any, ue: Any, k: Any, task: Any, s: Any, t: Any, per: Any,
                 result: Any) -> Any:
    if per:
        return _PERIODIC
    if task != 0 or s != 0 or t is not None:
        return _SMOOTHING
    (t_out, c_out, _), u_out = result
    points = np.atleast_2d(np.asarray(x, dtype=np.float64))
    chord = None if u is not None else _ChordLength(points)
    sites = np.asarray(u_out, dtype=np.float64)
    c = np.stack([np.asarray(ci) for ci in c_out], axis=1)
    fit = CurveFit(sites, points.T, None, ub, ue, int(k), None, np.asarray(t_out), c)
    return fit, chord, len(c_out)


@rrule.register(si.splprep)
def splprep_rrule(x: Any, w: Any = None, u: Any = None, ub: Any = None, ue: Any = None, k: Any = 3, task: Any = 0,
                  s: Any = None, t: Any = None, full_output: Any = 0, nest: Any = None, per: Any = 0,
                  quiet: Any = 1) -> Any:
    """Reverse rule of ``splprep`` with ``s=0`` (a parametric interpolating spline): the points and ``u``.

    Examples
    --------
    >>> from chainrules import unthunk
    >>> x = np.array([[0.0, 1.0, 2.0, 3.0], [0.0, 1.0, 0.0, 1.0]])
    >>> (tck, u), pullback = rrule(si.splprep, x, s=0, k=1)
    >>> u                                              # equal chords
    array([0.        , 0.33333333, 0.66666667, 1.        ])
    >>> xbar = unthunk(pullback(Tangent(tuple, ZeroTangent(), np.array([0.0, 0.0, 0.0, 1.0])))[1])
    >>> np.round(xbar, 12) + 0.0                        # u[-1] is 1 wherever the points are
    array([[0., 0., 0., 0.],
           [0., 0., 0., 0.]])
    """
    if full_output:
        return None
    result = si.splprep(x, w, u, ub, ue, k, task, s, t, full_output, nest, per, quiet)
    fit = _splprep_fit(x, u, ub, ue, k, task, s, t, per, result)
    values = [x, w, u, ub, ue]
    projectors = [cotangent_projector(v) for v in values]

    def splprep_pullback(dy: Any) -> tuple[Any, ...]:
        tail = (NoTangent(),) * 8
        read = read_structure(dy, result, si.splprep)
        if passes_through(read):
            zero = passed_on(read)
            return (NoTangent(), *(p(zero) for p in projectors), *tail)
        missing_parts = [r for r in _leaves(read) if isinstance(r, NotImplementedTangent)]
        if missing_parts:
            return (NoTangent(), *(p(missing_parts[0]) for p in projectors), *tail)
        if isinstance(fit, str):
            missing = not_implemented(fit)
            return (NoTangent(), *(p(missing) for p in projectors), *tail)
        core, chord, dims = fit
        tck_read = read[0] if read[0] is not None else [None, None, None]
        c_read = tck_read[1] if tck_read[1] is not None else [None] * dims
        tbar = tck_read[0]
        c_shape = core.c_out_shape
        cbar = np.zeros(c_shape)
        for d, part_bar in enumerate(c_read):
            if part_bar is not None:
                cbar[:np.size(part_bar), d] = np.asarray(part_bar)
        back = core.backward(tbar, cbar)
        ubar = back["x"] + (0.0 if read[1] is None else np.asarray(read[1]))
        xbar = back["y"].T.copy()
        out = [NoTangent(), ZeroTangent(), NoTangent(), NoTangent(), NoTangent()]
        if chord is not None:
            xbar = xbar + chord.transpose(ubar)
        else:
            out[2] = ubar
        if ub is not None:
            out[3] = back["xb"]
        if ue is not None:
            out[4] = back["xe"]
        out[0] = xbar
        return (NoTangent(), *(p(v) for p, v in zip(projectors, out)), *tail)

    return result, splprep_pullback


@frule.register(si.splprep)
def splprep_frule(tangents: Any, x: Any, w: Any = None, u: Any = None, ub: Any = None, ue: Any = None, k: Any = 3,
                  task: Any = 0, s: Any = None, t: Any = None, full_output: Any = 0, nest: Any = None,
                  per: Any = 0, quiet: Any = 1) -> Any:
    """Forward rule of ``splprep`` with ``s=0``.

    Examples
    --------
    >>> x = np.array([[0.0, 1.0, 2.0, 3.0], [0.0, 1.0, 0.0, 1.0]])
    >>> _, (dtck, du) = frule((NoTangent(), np.ones((2, 4))), si.splprep, x, s=0, k=1)
    >>> dtck[1][1]                                       # a translation moves the coefficients, not u
    array([1., 1., 1., 1.])
    """
    if full_output:
        return None
    result = si.splprep(x, w, u, ub, ue, k, task, s, t, full_output, nest, per, quiet)
    fit = _splprep_fit(x, u, ub, ue, k, task, s, t, per, result)
    values = [x, w, u, ub, ue]
    dense = [tangent_array(tangents[i + 1], v) if len(tangents) > i + 1 and v is not None else None
             for i, v in enumerate(values)]
    for d in dense:
        if isinstance(d, NotImplementedTangent):
            return result, d
    if all(d is None for d in dense):
        return result, ZeroTangent()
    if isinstance(fit, str):
        return result, not_implemented(fit)
    core, chord, dims = fit
    dx = None if dense[0] is None else np.atleast_2d(np.asarray(dense[0], dtype=np.float64))
    du = None
    if chord is not None and dx is not None:
        du = chord.tangent(dx)
    elif chord is None and dense[2] is not None:
        du = np.asarray(dense[2], dtype=np.float64)
    dt, dc = core.forward(du, None if dx is None else dx.T, None, dense[3], dense[4], None)
    (t_out, c_out, _), u_out = result
    dcs = [ZeroTangent() if dc is None else output_tangent(dc[:np.size(c_out[d]), d], c_out[d]) for d in range(dims)]
    dtck = Tangent(list, output_tangent(dt, t_out), Tangent(list, *dcs), NoTangent())
    return result, Tangent(tuple, dtck, output_tangent(du, u_out))


def _leaves(tree: Any) -> list[Any]:
    if isinstance(tree, list):
        return [leaf for branch in tree for leaf in _leaves(branch)]
    return [tree]


# ---- splev, splint, splder, splantider ------------------------------------------------------------------------
def _tck(tck: Any) -> tuple[np.ndarray, Any, int, bool]:
    t, c, k = tck
    parametric = isinstance(c, (list, tuple)) or np.ndim(c) > 1
    return np.asarray(t, dtype=np.float64), c, int(k), parametric


def _tck_tangent(dtck: Any, parametric: bool, dims: int) -> tuple[Any, Any]:
    dt = part(dtck, 0)
    dc_part = part(dtck, 1)
    if not parametric:
        return (None if dt is None else np.asarray(dt, dtype=np.float64)), dc_part
    return (None if dt is None else np.asarray(dt, dtype=np.float64)), [part(dc_part, d) for d in range(dims)]


def _tck_cotangent(tck: Any, tbar: Any, cbars: Any) -> Any:
    return Tangent(type(tck), tbar, Tangent(type(tck[1]), *cbars) if isinstance(cbars, list) else cbars, NoTangent())


class _Evaluations:
    """``splev`` at one call: one :class:`SplineEval` per coefficient array."""

    def __init__(self, x: Any, tck: Any, der: int, ext: int) -> None:
        self.t, c, self.k, self.parametric = _tck(tck)
        self.arrays = list(c) if self.parametric else [c]
        x_array = np.asarray(x)
        self.shape = x_array.shape
        mode = splev_mode(int(ext), int(der))
        self.evals = [SplineEval(self.t, np.asarray(ci)[:, None], self.k, x_array.ravel(), der, mode)
                      for ci in self.arrays]


@rrule.register(si.splev)
def splev_rrule(x: Any, tck: Any, der: Any = 0, ext: Any = 0) -> Any:
    """Reverse rule of ``splev``: the points and the knots and coefficients of ``tck``.

    Examples
    --------
    >>> from chainrules import unthunk
    >>> tck = (np.array([0.0, 0.0, 1.0, 1.0]), np.array([1.0, 3.0, 0.0, 0.0]), 1)   # 1 + 2 q
    >>> y, pullback = rrule(si.splev, np.array([0.25]), tck)
    >>> y, unthunk(pullback(np.ones(1))[1]), unthunk(pullback(np.ones(1))[2])[1]
    (array([1.5]), array([2.]), array([0.75, 0.25, 0.  , 0.  ]))
    """
    if isinstance(tck, si.BSpline):
        from chainrules.rulesets.interpolate.bspline import bspline_method_call_rrule

        found = bspline_method_call_rrule(tck, x, der, True) if int(ext) == 0 else None
        if found is None:
            return None
        y, inner = found

        def splev_bspline_pullback(dy: Any) -> tuple[Any, ...]:
            parts = inner(dy)
            return NoTangent(), parts[2], parts[1], NoTangent(), NoTangent()

        return y, splev_bspline_pullback
    y = si.splev(x, tck, der, ext)
    ev = _Evaluations(x, tck, int(der), int(ext))
    outputs = y if ev.parametric else [y]
    project_x, project_tck = cotangent_projector(x), cotangent_projector(tck)

    def splev_pullback(dy: Any) -> tuple[Any, ...]:
        read = read_cotangents(dy, outputs, si.splev) if ev.parametric else read_cotangent(dy, y, si.splev)
        if passes_through(read):
            zero = passed_on(read)
            return NoTangent(), project_x(zero), project_tck(zero), NoTangent(), NoTangent()
        parts = read if ev.parametric else [read]

        def compute() -> tuple[Any, Any]:
            xbar = np.zeros(int(np.prod(ev.shape, dtype=int)))
            tbar = np.zeros(ev.t.size)
            cbars = []
            for bar, evaluation, ci in zip(parts, ev.evals, ev.arrays):
                if bar is None:
                    cbars.append(np.zeros(np.shape(ci)))
                    continue
                tb, cb, qb = evaluation.transpose(np.asarray(bar, dtype=np.float64).reshape(-1, 1))
                xbar, tbar = xbar + qb, tbar + tb
                cbars.append(cb[:, 0])
            return xbar.reshape(ev.shape), _tck_cotangent(tck, tbar, cbars if ev.parametric else cbars[0])

        memo: list[Any] = []

        def pick(i: int) -> Any:
            def value() -> Any:
                if not memo:
                    memo.extend(compute())
                return memo[i]

            return value

        return (NoTangent(), lazy_cotangent(project_x, pick(0)), lazy_cotangent(project_tck, pick(1)), NoTangent(),
                NoTangent())

    return y, splev_pullback


@frule.register(si.splev)
def splev_frule(tangents: Any, x: Any, tck: Any, der: Any = 0, ext: Any = 0) -> Any:
    """Forward rule of ``splev``.

    Examples
    --------
    >>> tck = (np.array([0.0, 0.0, 1.0, 1.0]), np.array([1.0, 3.0, 0.0, 0.0]), 1)
    >>> frule((NoTangent(), np.ones(1), ZeroTangent()), si.splev, np.array([0.25]), tck)[1]
    array([2.])
    """
    if isinstance(tck, si.BSpline):
        from chainrules.rulesets.interpolate.bspline import bspline_method_call_frule

        if int(ext) != 0:
            return None
        return bspline_method_call_frule((NoTangent(), tangents[2], tangents[1]), tck, x, der, True)
    y = si.splev(x, tck, der, ext)
    ev = _Evaluations(x, tck, int(der), int(ext))
    dx = tangent_array(tangents[1], x)
    try:
        dt, dcs = _tck_tangent(tangents[2], ev.parametric, len(ev.arrays))
    except MissingTangentError as missing:
        return y, missing.tangent
    if isinstance(dx, NotImplementedTangent):
        return y, dx
    dcs = dcs if ev.parametric else [dcs]
    results = []
    for evaluation, dc, out in zip(ev.evals, dcs, y if ev.parametric else [y]):
        value = evaluation.tangent(dt, None if dc is None else np.asarray(dc)[:, None], dx)
        results.append(output_tangent(None if value is None else value.reshape(np.shape(out)), out))
    if not ev.parametric:
        return y, results[0]
    return y, Tangent(type(y), *results)


@rrule.register(si.splint)
def splint_rrule(a: Any, b: Any, tck: Any, full_output: Any = 0) -> Any:
    """Reverse rule of ``splint`` (the spline taken as zero outside its base interval).

    Examples
    --------
    >>> from chainrules import unthunk
    >>> tck = (np.array([0.0, 0.0, 1.0, 1.0]), np.array([1.0, 3.0, 0.0, 0.0]), 1)   # 1 + 2 q
    >>> y, pullback = rrule(si.splint, 0.0, 0.5, tck)
    >>> y, [unthunk(d) for d in pullback(1.0)[1:3]]
    (0.75, [-1.0, 2.0])
    """
    if full_output:
        return None
    if isinstance(tck, si.BSpline):
        from chainrules.rulesets.interpolate.bspline import bspline_integrate_rrule

        y, inner = bspline_integrate_rrule(tck, a, b, False)

        def splint_bspline_pullback(dy: Any) -> tuple[Any, ...]:
            parts = inner(dy)
            return NoTangent(), parts[2], parts[3], parts[1], NoTangent()

        return y, splint_bspline_pullback
    y = si.splint(a, b, tck)
    t, c, k, parametric = _tck(tck)
    arrays = list(c) if parametric else [c]
    integrals = [BSplineIntegral(t, np.asarray(ci, dtype=np.float64)[:, None], k, a, b, False) for ci in arrays]
    projectors = [cotangent_projector(v) for v in (a, b, tck)]
    outputs = y if parametric else [y]

    def splint_pullback(dy: Any) -> tuple[Any, ...]:
        read = read_cotangents(dy, outputs, si.splint) if parametric else read_cotangent(dy, y, si.splint)
        if passes_through(read):
            zero = passed_on(read)
            return (NoTangent(), *(p(zero) for p in projectors), NoTangent())
        parts = read if parametric else [read]
        abar = bbar = 0.0
        tbar = np.zeros(t.size)
        cbars = []
        for bar, integral, ci in zip(parts, integrals, arrays):
            if bar is None:
                cbars.append(np.zeros(np.shape(ci)))
                continue
            tb, cb, ab, bb = integral.transpose(np.atleast_1d(np.asarray(bar, dtype=np.float64)))
            tbar, abar, bbar = tbar + tb, abar + ab, bbar + bb
            cbars.append(cb[:, 0])
        cot = _tck_cotangent(tck, tbar, cbars if parametric else cbars[0])
        return (NoTangent(), projectors[0](abar), projectors[1](bbar), projectors[2](cot), NoTangent())

    return y, splint_pullback


@frule.register(si.splint)
def splint_frule(tangents: Any, a: Any, b: Any, tck: Any, full_output: Any = 0) -> Any:
    """Forward rule of ``splint``.

    Examples
    --------
    >>> tck = (np.array([0.0, 0.0, 1.0, 1.0]), np.array([1.0, 3.0, 0.0, 0.0]), 1)
    >>> frule((NoTangent(), 1.0, 1.0, ZeroTangent()), si.splint, 0.0, 0.5, tck)[1]     # s(b) - s(a)
    1.0
    """
    if full_output:
        return None
    if isinstance(tck, si.BSpline):
        from chainrules.rulesets.interpolate.bspline import bspline_integrate_frule

        return bspline_integrate_frule((NoTangent(), tangents[3], tangents[1], tangents[2]), tck, a, b, False)
    y = si.splint(a, b, tck)
    t, c, k, parametric = _tck(tck)
    arrays = list(c) if parametric else [c]
    da, db = tangent_value(tangents[1]), tangent_value(tangents[2])
    try:
        dt, dcs = _tck_tangent(tangents[3], parametric, len(arrays))
    except MissingTangentError as missing:
        return y, missing.tangent
    for d in (da, db):
        if isinstance(d, NotImplementedTangent):
            return y, d
    dcs = dcs if parametric else [dcs]
    results = []
    for ci, dc, out in zip(arrays, dcs, y if parametric else [y]):
        if dt is None and dc is None and da is None and db is None:
            results.append(output_tangent(None, out))
            continue
        integral = BSplineIntegral(t, np.asarray(ci, dtype=np.float64)[:, None], k, a, b, False)
        value = integral.tangent(dt, None if dc is None else np.asarray(dc)[:, None], da, db)
        results.append(float(value[0]) if isinstance(out, float) else output_tangent(value.reshape(np.shape(out)), out))
    return y, results[0] if not parametric else Tangent(type(y), *results)


def _tck_steps(n: int, tck: Any) -> tuple[np.ndarray, np.ndarray, list[Any]]:
    """The knots, the coefficients as ``(ncoef, T)`` and the ``splder``/``splantider`` steps of ``tck``."""
    t, c, k = np.asarray(tck[0], dtype=np.float64), np.asarray(tck[1]), int(tck[2])
    matrix = c.reshape(c.shape[0], -1)
    steps: list[Any] = []
    tt, cc, kk = t, matrix, k
    for _ in range(abs(n)):
        step = DerivativeStep(tt, cc, kk) if n > 0 else AntiderivativeStep(tt, cc, kk)
        steps.append(step)
        tt, cc, kk = step.t, step.c, kk - 1 if n > 0 else kk + 1
    return t, matrix, steps


@rrule.register(si.splder)
def splder_rrule(tck: Any, n: Any = 1) -> Any:
    """Reverse rule of ``splder`` (and ``splantider``): through the explicit knot and coefficient maps.

    Examples
    --------
    >>> from chainrules import unthunk
    >>> tck = (np.array([0.0, 0.0, 1.0, 1.0]), np.array([1.0, 3.0, 0.0, 0.0]), 1)   # 1 + 2 q
    >>> d, pullback = rrule(si.splder, tck)
    >>> d[1], unthunk(pullback(Tangent(tuple, ZeroTangent(), np.array([1.0, 0.0]), NoTangent()))[1])[1]
    (array([2., 0.]), array([-1.,  1.,  0.,  0.]))
    """
    return _tck_map_rrule(si.splder, "splder", tck, int(n))


@rrule.register(si.splantider)
def splantider_rrule(tck: Any, n: Any = 1) -> Any:
    """Reverse rule of ``splantider``.

    Examples
    --------
    >>> from chainrules import unthunk
    >>> tck = (np.array([0.0, 1.0]), np.array([2.0, 0.0]), 0)                      # the constant 2
    >>> a, pullback = rrule(si.splantider, tck)
    >>> a[1], unthunk(pullback(Tangent(tuple, ZeroTangent(), np.array([0.0, 1.0, 0.0, 0.0]), NoTangent()))[1])[1]
    (array([0., 2., 2., 2.]), array([1., 0.]))
    """
    return _tck_map_rrule(si.splantider, "splantider", tck, -int(n))


def _tck_map_rrule(f: Any, label: str, tck: Any, n: int) -> Any:
    if isinstance(tck, si.BSpline):
        from chainrules.rulesets.interpolate.bspline import bspline_antiderivative_rrule, bspline_derivative_rrule

        return bspline_derivative_rrule(tck, n) if n >= 0 else bspline_antiderivative_rrule(tck, -n)
    y = f(tck, abs(n))
    t, _, steps = _tck_steps(n, tck)
    project_tck = cotangent_projector(tck)
    c_shape = np.shape(tck[1])

    def pullback(dy: Any) -> tuple[Any, ...]:
        read = read_cotangents(dy, y, f)
        if passes_through(read):
            return NoTangent(), project_tck(passed_on(read)), NoTangent()
        cbar = np.zeros(np.shape(y[1])) if read[1] is None else np.asarray(read[1], dtype=np.float64)
        cbar = cbar.reshape(cbar.shape[0], -1)
        tbar: Any = None if read[0] is None else np.asarray(read[0], dtype=np.float64)
        if not steps:
            tbar = np.zeros(t.size) if tbar is None else tbar
        for step in reversed(steps):
            tbar, cbar = step.transpose(tbar, cbar)
        return NoTangent(), project_tck(_tck_cotangent(tck, tbar, cbar.reshape(c_shape))), NoTangent()

    return y, name_pullback(pullback, label)


def _tck_map_frule(f: Any, tangents: Any, tck: Any, n: int) -> Any:
    if isinstance(tck, si.BSpline):
        from chainrules.rulesets.interpolate.bspline import bspline_antiderivative_frule, bspline_derivative_frule

        rule = bspline_derivative_frule if n >= 0 else bspline_antiderivative_frule
        return rule(tangents, tck, abs(n))
    y = f(tck, abs(n))
    _, matrix, steps = _tck_steps(n, tck)
    try:
        dt, dc = _tck_tangent(tangents[1], False, 1)
    except MissingTangentError as missing:
        return y, missing.tangent
    if dt is None and dc is None:
        return y, ZeroTangent()
    dc = np.zeros(matrix.shape) if dc is None else np.asarray(dc, dtype=np.float64).reshape(matrix.shape)
    for step in steps:
        dt, dc = step.tangent(dt, dc)
    return y, Tangent(type(y), output_tangent(dt, y[0]), output_tangent(dc.reshape(np.shape(y[1])), y[1]),
                      NoTangent())


@frule.register(si.splder)
def splder_frule(tangents: Any, tck: Any, n: Any = 1) -> Any:
    """Forward rule of ``splder``.

    Examples
    --------
    >>> tck = (np.array([0.0, 0.0, 1.0, 1.0]), np.array([1.0, 3.0, 0.0, 0.0]), 1)
    >>> frule((NoTangent(), Tangent(tuple, ZeroTangent(), np.array([0.0, 1.0, 0.0, 0.0]), NoTangent())),
    ...       si.splder, tck)[1][1]
    array([1., 0.])
    """
    return _tck_map_frule(si.splder, tangents, tck, int(n))


@frule.register(si.splantider)
def splantider_frule(tangents: Any, tck: Any, n: Any = 1) -> Any:
    """Forward rule of ``splantider``.

    Examples
    --------
    >>> tck = (np.array([0.0, 1.0]), np.array([2.0, 0.0]), 0)
    >>> frule((NoTangent(), Tangent(tuple, ZeroTangent(), np.array([1.0, 0.0]), NoTangent())),
    ...       si.splantider, tck)[1][1]
    array([0., 1., 1., 1.])
    """
    return _tck_map_frule(si.splantider, tangents, tck, -int(n))


# ---- sample inputs ----------------------------------------------------------------------------------
_X = np.array([0.0, 0.6, 1.3, 1.9, 2.8, 3.4, 4.1])
"""Sites more than twice the finite differences' reach apart."""
_Q = np.array([-0.3, 0.35, 1.1, 2.0, 2.9, 3.9, 4.4])


def _values(rng: np.random.Generator) -> np.ndarray:
    return np.sin(_X) + 0.3 * rng.standard_normal(7)


@sample_inputs(si.splrep)
def _splrep_samples(rng: np.random.Generator) -> list[Sample]:
    y = _values(rng)
    interior = np.array([1.5, 2.5])
    return [Sample(_X, y, label="interpolation (s=0 without weights)"),
            Sample(_X, y, None, -0.5, 4.6, 2, label="xb, xe and k=2 by position"),
            Sample(_X, y, fkwargs={"k": 5, "s": 0}, label="quintic, s=0 by keyword"),
            Sample(_X, y, rng.uniform(0.5, 2.0, 7), -0.4, 4.5, 3, -1, None, interior,
                   label="least squares on given knots, weights, by position"),
            Sample(_X, y, None, fkwargs={"task": -1, "t": interior, "k": 1}, label="least squares, linear, keywords"),
            Sample(_X, y, fkwargs={"s": 0.5}, label="smoothing (not implemented)")]


@sample_inputs(si.splprep)
def _splprep_samples(rng: np.random.Generator) -> list[Sample]:
    points = np.stack([np.cos(_X), np.sin(1.3 * _X)]) + 0.05 * rng.standard_normal((2, 7))
    u = np.linspace(0.0, 1.0, 7) + np.r_[0.0, 0.03 * rng.standard_normal(5), 0.0]
    return [Sample(points, fkwargs={"s": 0}, label="chord-length parameters"),
            Sample(points, None, u, fkwargs={"s": 0, "k": 2}, label="given parameters, k=2"),
            Sample(points, None, u, -0.2, 1.3, fkwargs={"s": 0}, label="given parameters and ends")]


def _distinct_tck(rng: np.random.Generator) -> Any:
    t = np.array([-0.9, -0.5, -0.2, 0.0, 0.8, 1.7, 3.0, 3.3, 3.6, 4.0])
    return (t, rng.standard_normal(10), 3)


@sample_inputs(si.splev)
def _splev_samples(rng: np.random.Generator) -> list[Sample]:
    inside = _Q[1:5]
    return [Sample(_Q, _distinct_tck(rng), label="extrapolating (ext=0)"),
            Sample(_Q, _distinct_tck(rng), 1, label="first derivative by position"),
            Sample(_Q, _distinct_tck(rng), fkwargs={"der": 2, "ext": 1}, label="ext=1: zero outside"),
            Sample(_Q, _distinct_tck(rng), 0, 3, label="ext=3: the value at the nearest end"),
            Sample(inside, _distinct_tck(rng), 0, 2, label="ext=2 (inside)"),
            Sample(inside, (_distinct_tck(rng)[0], [rng.standard_normal(10), rng.standard_normal(10)], 3),
                   label="parametric: a list of coefficient arrays"),
            Sample(inside.reshape(2, 2), _distinct_tck(rng), label="2-d points"),
            Sample(inside, si.BSpline(*_distinct_tck(rng)), label="a BSpline")]


@sample_inputs(si.splint)
def _splint_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(0.3, 2.4, _distinct_tck(rng), label="inside"),
            Sample(3.7, -0.6, _distinct_tck(rng), label="swapped, clipped to the base interval"),
            Sample(0.3, 2.4, (_distinct_tck(rng)[0], [rng.standard_normal(10), rng.standard_normal(10)], 3),
                   label="parametric"),
            Sample(0.3, 2.4, si.BSpline(*_distinct_tck(rng)), label="a BSpline")]


@sample_inputs(si.splder)
def _splder_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(_distinct_tck(rng), label="n = 1"), Sample(_distinct_tck(rng), 2, label="n = 2"),
            Sample(si.BSpline(*_distinct_tck(rng)), label="a BSpline")]


@sample_inputs(si.splantider)
def _splantider_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(_distinct_tck(rng), label="n = 1"), Sample(_distinct_tck(rng), 2, label="n = 2"),
            Sample(si.BSpline(*_distinct_tck(rng)), label="a BSpline")]


# ---- the UnivariateSpline family -----------------------------------------------------------------------------
class _UnivariateFit(Fit):
    """A ``UnivariateSpline`` (``s=0``), ``InterpolatedUnivariateSpline`` or ``LSQUnivariateSpline`` just built."""

    def __init__(self, obj: Any, x: Any, y: Any, w: Any, bbox: Any, interior: Any, smoothing: bool,
                 positions: dict[str, int]) -> None:
        self.y = obj
        self.positions = positions
        self.differentiated = tuple(positions[key] for key in ("x", "y", "interior") if key in positions)
        if w is not None:
            self.differentiated += (positions["w"],)
        xb, xe = _bbox_ends(bbox)
        self.has_bbox = xb is not None or xe is not None
        if self.has_bbox:
            self.differentiated += (positions["bbox"],)
            self.structural = (positions["bbox"],)
        self.reason = _SMOOTHING if smoothing else None
        if smoothing:
            return
        t_out, c_out, k = obj._eval_args
        self.core = CurveFit(np.asarray(x), np.asarray(y, dtype=np.float64)[:, None], w, xb, xe, int(k),
                             None if interior is None else np.asarray(interior, dtype=np.float64),
                             np.asarray(t_out), np.asarray(c_out)[:, None])

    def forward(self, tangents: dict[int, Any]) -> dict[str, Any]:
        if self.reason is not None:
            return {"c": not_implemented(self.reason)}
        p = self.positions
        dbbox = tangents.get(p.get("bbox", -1))
        dxb, dxe = (part(dbbox, 0), part(dbbox, 1)) if dbbox is not None else (None, None)
        dy = tangents.get(p["y"])
        dt, dc = self.core.forward(tangents.get(p["x"]), None if dy is None else np.asarray(dy)[:, None],
                                   tangents.get(p.get("w", -1)), dxb, dxe, tangents.get(p.get("interior", -1)))
        return {"t": dt, "c": None if dc is None else dc[:, 0]}

    def backward(self, cotangents: dict[str, Any]) -> dict[int, Any]:
        p = self.positions
        if self.reason is not None:
            missing = not_implemented(self.reason)
            return {position: missing for position in self.differentiated}
        cbar = cotangents.get("c")
        back = self.core.backward(cotangents.get("t"), None if cbar is None else np.asarray(cbar)[:, None])
        out = {p["x"]: back["x"], p["y"]: back["y"][:, 0]}
        if "w" in p and back["w"] is not None:
            out[p["w"]] = back["w"]
        if "interior" in p:
            out[p["interior"]] = back["interior"]
        if self.has_bbox:
            out[p["bbox"]] = np.array([back["xb"], back["xe"]])
        return out


_UNIVARIATE = {"x": 0, "y": 1, "w": 2, "bbox": 3}
_LSQ = {"x": 0, "y": 1, "interior": 2, "w": 3, "bbox": 4}


@rrule.register(si.UnivariateSpline)
def univariatespline_rrule(x: Any, y: Any, w: Any = None, bbox: Any = (None, None), k: Any = 3, s: Any = None,
                           ext: Any = 0, check_finite: Any = False) -> Any:
    """Reverse rule of the ``UnivariateSpline`` constructor (``s=0``; smoothing is not implemented).

    Examples
    --------
    >>> from chainrules import unthunk
    >>> x = np.arange(6.0)
    >>> spline, pullback = rrule(si.UnivariateSpline, x, x ** 2, None, [None, None], 3, 0)
    >>> cbar = np.zeros(10); cbar[0] = 1.0
    >>> np.round(unthunk(pullback(Tangent(type(spline), c=cbar))[2]), 12) + 0.0
    array([1., 0., 0., 0., 0., 0.])
    """
    obj = si.UnivariateSpline(x, y, w, bbox, k, s, ext, check_finite)
    fit = _UnivariateFit(obj, x, y, w, bbox, None, s is None or s > 0, _UNIVARIATE)
    return fit_rrule(si.UnivariateSpline, "univariatespline", fit, [x, y, w, bbox, k, s, ext, check_finite])


@frule.register(si.UnivariateSpline)
def univariatespline_frule(tangents: Any, x: Any, y: Any, w: Any = None, bbox: Any = (None, None), k: Any = 3,
                           s: Any = None, ext: Any = 0, check_finite: Any = False) -> Any:
    """Forward rule of the ``UnivariateSpline`` constructor.

    Examples
    --------
    >>> x = np.arange(6.0)
    >>> t = frule((NoTangent(), ZeroTangent(), np.ones(6)), si.UnivariateSpline, x, x ** 2, s=0)[1]
    >>> np.round(t.c, 12) + 0.0
    array([1., 1., 1., 1., 1., 1., 0., 0., 0., 0.])
    """
    obj = si.UnivariateSpline(x, y, w, bbox, k, s, ext, check_finite)
    fit = _UnivariateFit(obj, x, y, w, bbox, None, s is None or s > 0, _UNIVARIATE)
    return fit_frule(fit, tangents, [x, y, w, bbox, k, s, ext, check_finite])


@rrule.register(si.InterpolatedUnivariateSpline)
def interpolatedunivariatespline_rrule(x: Any, y: Any, w: Any = None, bbox: Any = (None, None), k: Any = 3,
                                       ext: Any = 0, check_finite: Any = False) -> Any:
    """Reverse rule of the ``InterpolatedUnivariateSpline`` constructor: the sites, the values and ``bbox``.

    Examples
    --------
    >>> from chainrules import unthunk
    >>> x = np.arange(6.0)
    >>> spline, pullback = rrule(si.InterpolatedUnivariateSpline, x, x ** 2)
    >>> cbar = np.zeros(10); cbar[5] = 1.0               # c[5] is the value at x[-1]
    >>> np.round(unthunk(pullback(Tangent(type(spline), c=cbar))[2]), 12) + 0.0
    array([0., 0., 0., 0., 0., 1.])
    """
    obj = si.InterpolatedUnivariateSpline(x, y, w, bbox, k, ext, check_finite)
    fit = _UnivariateFit(obj, x, y, w, bbox, None, False, _UNIVARIATE)
    return fit_rrule(si.InterpolatedUnivariateSpline, "interpolatedunivariatespline", fit,
                     [x, y, w, bbox, k, ext, check_finite])


@frule.register(si.InterpolatedUnivariateSpline)
def interpolatedunivariatespline_frule(tangents: Any, x: Any, y: Any, w: Any = None, bbox: Any = (None, None),
                                       k: Any = 3, ext: Any = 0, check_finite: Any = False) -> Any:
    """Forward rule of the ``InterpolatedUnivariateSpline`` constructor.

    Examples
    --------
    >>> x = np.arange(6.0)
    >>> t = frule((NoTangent(), np.ones(6), ZeroTangent()), si.InterpolatedUnivariateSpline, x, x ** 2)[1]
    >>> np.round(t.t, 12) + 0.0                         # the knots move with the sites
    array([1., 1., 1., 1., 1., 1., 1., 1., 1., 1.])
    """
    obj = si.InterpolatedUnivariateSpline(x, y, w, bbox, k, ext, check_finite)
    fit = _UnivariateFit(obj, x, y, w, bbox, None, False, _UNIVARIATE)
    return fit_frule(fit, tangents, [x, y, w, bbox, k, ext, check_finite])


@rrule.register(si.LSQUnivariateSpline)
def lsqunivariatespline_rrule(x: Any, y: Any, t: Any, w: Any = None, bbox: Any = (None, None), k: Any = 3,
                              ext: Any = 0, check_finite: Any = False) -> Any:
    """Reverse rule of the ``LSQUnivariateSpline`` constructor: the sites, values, interior knots, weights, ``bbox``.

    Examples
    --------
    >>> from chainrules import unthunk
    >>> x = np.linspace(0.0, 1.0, 6)
    >>> spline, pullback = rrule(si.LSQUnivariateSpline, x, 2 * x, np.array([0.5]), None, [None, None], 1)
    >>> ybar = unthunk(pullback(Tangent(type(spline), c=np.array([1.0, 1.0, 1.0, 0.0, 0.0])))[2])
    >>> bool(np.isclose(ybar.sum(), 3.0))               # a shift of y shifts the three coefficients
    True
    """
    obj = si.LSQUnivariateSpline(x, y, t, w, bbox, k, ext, check_finite)
    fit = _UnivariateFit(obj, x, y, w, bbox, t, False, _LSQ)
    return fit_rrule(si.LSQUnivariateSpline, "lsqunivariatespline", fit, [x, y, t, w, bbox, k, ext, check_finite])


@frule.register(si.LSQUnivariateSpline)
def lsqunivariatespline_frule(tangents: Any, x: Any, y: Any, t: Any, w: Any = None, bbox: Any = (None, None),
                              k: Any = 3, ext: Any = 0, check_finite: Any = False) -> Any:
    """Forward rule of the ``LSQUnivariateSpline`` constructor.

    Examples
    --------
    >>> x = np.linspace(0.0, 1.0, 6)
    >>> dc = frule((NoTangent(), ZeroTangent(), np.ones(6), ZeroTangent()), si.LSQUnivariateSpline, x, 2 * x,
    ...            np.array([0.5]), k=1)[1].c
    >>> np.round(dc, 12) + 0.0
    array([1., 1., 1., 0., 0.])
    """
    obj = si.LSQUnivariateSpline(x, y, t, w, bbox, k, ext, check_finite)
    fit = _UnivariateFit(obj, x, y, w, bbox, t, False, _LSQ)
    return fit_frule(fit, tangents, [x, y, t, w, bbox, k, ext, check_finite])


# ---- calling a UnivariateSpline and its methods ----------------------------------------------------------------
_EXT = {0: 0, "extrapolate": 0, 1: 1, "zeros": 1, 2: 2, "raise": 2, 3: 3, "const": 3}


class _UnivariateCall:
    def __init__(self, spline: Any, x: Any, nu: Any, ext: Any) -> None:
        self.spline = spline
        self.y = spline(x, nu, ext)
        mode = _EXT[spline.ext if ext is None else ext]
        t, c, k = spline._eval_args
        x_array = np.asarray(x)
        self.shape = x_array.shape
        self.eval = SplineEval(np.asarray(t), np.asarray(c, dtype=np.float64)[:, None], int(k), x_array.ravel(),
                               int(nu), splev_mode(mode, int(nu)))

    def cotangents(self, dy: Any) -> tuple[Any, Any]:
        tbar, cbar, qbar = self.eval.transpose(np.asarray(dy, dtype=np.float64).reshape(-1, 1))
        return Tangent(type(self.spline), t=tbar, c=cbar[:, 0]), qbar.reshape(self.shape)

    def tangent(self, fields: Any, dx: Any) -> Any:
        dt = None if fields is None else fields["t"]
        dc = None if fields is None or fields["c"] is None else fields["c"][:, None]
        value = self.eval.tangent(dt, dc, dx)
        return None if value is None else value.reshape(np.shape(self.y))


def _univariate_call_rrule(spline: Any, x: Any, nu: Any, ext: Any, method: bool) -> Any:
    call = _UnivariateCall(spline, x, nu, ext)
    project_s, project_x = ProjectTo(spline), cotangent_projector(x)
    name = "scipy.interpolate.UnivariateSpline.__call__"

    def pullback(dy: Any) -> tuple[Any, ...]:
        dy = read_cotangent(dy, call.y, name)
        if passes_through(dy):
            zero = passed_on(dy)
            parts: tuple[Any, ...] = (project_s(zero), project_x(zero), NoTangent(), NoTangent())
        else:
            memo: list[Any] = []

            def pick(i: int) -> Any:
                def value() -> Any:
                    if not memo:
                        memo.extend(call.cotangents(dy))
                    return memo[i]

                return value

            parts = (lazy_cotangent(project_s, pick(0)), lazy_cotangent(project_x, pick(1)), NoTangent(), NoTangent())
        return (NoTangent(), *parts) if method else parts

    return call.y, name_pullback(pullback, "univariatespline___call__" if method else "univariatespline_call")


def _univariate_call_frule(tangents: Any, spline: Any, x: Any, nu: Any, ext: Any, position: int) -> Any:
    call = _UnivariateCall(spline, x, nu, ext)
    fields = object_fields(tangents[position], spline)
    dx = tangent_array(tangents[position + 1], x)
    for d in (fields, dx):
        if isinstance(d, NotImplementedTangent):
            return call.y, d
    return call.y, output_tangent(call.tangent(fields, dx), call.y)


@rrule.register_functor(si.UnivariateSpline)
def univariatespline_call_rrule(spline: Any, x: Any, nu: Any = 0, ext: Any = None) -> Any:
    """Reverse rule of calling a ``UnivariateSpline`` (any of the family): its knots and coefficients, the points.

    Examples
    --------
    >>> from chainrules import unthunk
    >>> spline = si.InterpolatedUnivariateSpline(np.arange(4.0), 2 * np.arange(4.0), k=1)
    >>> y, pullback = rrule(spline, np.array([1.5]))
    >>> y, unthunk(pullback(np.ones(1))[1])
    (array([3.]), array([2.]))
    """
    return _univariate_call_rrule(spline, x, nu, ext, method=False)


@frule.register_functor(si.UnivariateSpline)
def univariatespline_call_frule(tangents: Any, spline: Any, x: Any, nu: Any = 0, ext: Any = None) -> Any:
    """Forward rule of calling a ``UnivariateSpline``.

    Examples
    --------
    >>> spline = si.InterpolatedUnivariateSpline(np.arange(4.0), 2 * np.arange(4.0), k=1)
    >>> frule((ZeroTangent(), np.ones(1)), spline, np.array([1.5]))[1]
    array([2.])
    """
    return _univariate_call_frule(tangents, spline, x, nu, ext, 0)


@rrule.register(si.UnivariateSpline.__call__, si.UnivariateSpline)
def univariatespline_method_call_rrule(self: Any, x: Any, nu: Any = 0, ext: Any = None) -> Any:
    """Reverse rule of ``UnivariateSpline.__call__``.

    Examples
    --------
    >>> from chainrules import unthunk
    >>> spline = si.InterpolatedUnivariateSpline(np.arange(4.0), 2 * np.arange(4.0), k=1)
    >>> unthunk(rrule(spline.__call__, np.array([1.5]))[1](np.ones(1))[2])
    array([2.])
    """
    return _univariate_call_rrule(self, x, nu, ext, method=True)


@frule.register(si.UnivariateSpline.__call__, si.UnivariateSpline)
def univariatespline_method_call_frule(tangents: Any, self: Any, x: Any, nu: Any = 0, ext: Any = None) -> Any:
    """Forward rule of ``UnivariateSpline.__call__``.

    Examples
    --------
    >>> spline = si.InterpolatedUnivariateSpline(np.arange(4.0), 2 * np.arange(4.0), k=1)
    >>> frule((NoTangent(), ZeroTangent(), np.ones(1)), si.UnivariateSpline.__call__, spline, np.array([1.5]))[1]
    array([2.])
    """
    return _univariate_call_frule(tangents, self, x, nu, ext, 1)


def _univariate_steps(spline: Any, n: int) -> list[Any]:
    t, c, k = spline._eval_args
    t, cc, kk = np.asarray(t, dtype=np.float64), np.asarray(c, dtype=np.float64)[:, None], int(k)
    steps: list[Any] = []
    for _ in range(abs(n)):
        step = DerivativeStep(t, cc, kk) if n > 0 else AntiderivativeStep(t, cc, kk)
        steps.append(step)
        t, cc, kk = step.t, step.c, kk - 1 if n > 0 else kk + 1
    return steps


def _univariate_map_rrule(self: Any, n: int, f: Any, label: str) -> Any:
    y = self.derivative(n) if n >= 0 else self.antiderivative(-n)
    steps = _univariate_steps(self, n)
    project_self = ProjectTo(self)
    t_size = np.size(self._eval_args[0])

    def pullback(dy: Any) -> tuple[Any, ...]:
        read = read_object(dy, y, f)
        if passes_through(read):
            return NoTangent(), project_self(passed_on(read)), NoTangent()
        cbar = np.zeros((np.size(y._eval_args[1]), 1)) if read["c"] is None else read["c"][:, None]
        tbar: Any = read["t"]
        if not steps:
            tbar = np.zeros(t_size) if tbar is None else tbar
        for step in reversed(steps):
            tbar, cbar = step.transpose(tbar, cbar)
        return NoTangent(), project_self(Tangent(type(self), t=tbar, c=cbar[:, 0])), NoTangent()

    return y, name_pullback(pullback, label)


def _univariate_map_frule(tangents: Any, self: Any, n: int) -> Any:
    y = self.derivative(n) if n >= 0 else self.antiderivative(-n)
    fields = object_fields(tangents[1], self)
    if fields is None or isinstance(fields, NotImplementedTangent):
        return y, ZeroTangent() if fields is None else fields
    dt = fields["t"]
    dc = np.zeros((np.size(self._eval_args[1]), 1)) if fields["c"] is None else fields["c"][:, None]
    for step in _univariate_steps(self, n):
        dt, dc = step.tangent(dt, dc)
    return y, object_tangent(y, {"t": dt, "c": dc[:, 0]})


@rrule.register(si.UnivariateSpline.derivative, si.UnivariateSpline)
def univariatespline_derivative_rrule(self: Any, n: Any = 1) -> Any:
    """Reverse rule of ``UnivariateSpline.derivative``.

    Examples
    --------
    >>> from chainrules import unthunk
    >>> spline = si.InterpolatedUnivariateSpline(np.arange(3.0), np.array([0.0, 1.0, 3.0]), k=1)
    >>> d, pullback = rrule(spline.derivative)
    >>> d.get_coeffs(), unthunk(pullback(Tangent(si.UnivariateSpline, c=np.array([1.0, 0.0, 0.0])))[1]).c
    (array([1., 2.]), array([-1.,  1.,  0.,  0.,  0.]))
    """
    return _univariate_map_rrule(self, int(n), si.UnivariateSpline.derivative, "univariatespline_derivative")


@frule.register(si.UnivariateSpline.derivative, si.UnivariateSpline)
def univariatespline_derivative_frule(tangents: Any, self: Any, n: Any = 1) -> Any:
    """Forward rule of ``UnivariateSpline.derivative``.

    Examples
    --------
    >>> spline = si.InterpolatedUnivariateSpline(np.arange(3.0), np.array([0.0, 1.0, 3.0]), k=1)
    >>> dc = np.array([0.0, 1.0, 0.0, 0.0, 0.0])
    >>> frule((NoTangent(), Tangent(type(spline), c=dc)), spline.derivative)[1].c
    array([ 1., -1.,  0.])
    """
    return _univariate_map_frule(tangents, self, int(n))


@rrule.register(si.UnivariateSpline.antiderivative, si.UnivariateSpline)
def univariatespline_antiderivative_rrule(self: Any, n: Any = 1) -> Any:
    """Reverse rule of ``UnivariateSpline.antiderivative``.

    Examples
    --------
    >>> from chainrules import unthunk
    >>> spline = si.InterpolatedUnivariateSpline(np.arange(3.0), np.array([0.0, 1.0, 3.0]), k=1)
    >>> a, pullback = rrule(spline.antiderivative)
    >>> cbar = np.zeros(7); cbar[-1] = 1.0               # the last coefficient: the integral over [0, 2]
    >>> unthunk(pullback(Tangent(si.UnivariateSpline, c=cbar))[1]).c
    array([0.5, 1. , 0.5, 0. , 0. ])
    """
    return _univariate_map_rrule(self, -int(n), si.UnivariateSpline.antiderivative, "univariatespline_antiderivative")


@frule.register(si.UnivariateSpline.antiderivative, si.UnivariateSpline)
def univariatespline_antiderivative_frule(tangents: Any, self: Any, n: Any = 1) -> Any:
    """Forward rule of ``UnivariateSpline.antiderivative``.

    Examples
    --------
    >>> spline = si.InterpolatedUnivariateSpline(np.arange(3.0), np.array([0.0, 1.0, 3.0]), k=1)
    >>> dc = np.array([1.0, 1.0, 1.0, 0.0, 0.0])
    >>> frule((NoTangent(), Tangent(type(spline), c=dc)), spline.antiderivative)[1].c
    array([0. , 0.5, 1.5, 2. , 2. , 2. , 2. ])
    """
    return _univariate_map_frule(tangents, self, -int(n))


@rrule.register(si.UnivariateSpline.integral, si.UnivariateSpline)
def univariatespline_integral_rrule(self: Any, a: Any, b: Any) -> Any:
    """Reverse rule of ``UnivariateSpline.integral`` (zero outside the base interval, as FITPACK's ``splint``).

    Examples
    --------
    >>> from chainrules import unthunk
    >>> spline = si.InterpolatedUnivariateSpline(np.arange(3.0), np.array([0.0, 1.0, 3.0]), k=1)
    >>> y, pullback = rrule(spline.integral, 0.5, 3.0)
    >>> y, [unthunk(d) for d in pullback(1.0)[2:]]      # b beyond the base interval: no derivative
    (2.375, [-0.5, 0.0])
    """
    y = self.integral(a, b)
    t, c, k = self._eval_args
    integral = BSplineIntegral(np.asarray(t), np.asarray(c, dtype=np.float64)[:, None], int(k), a, b, False)
    project_self, project_a, project_b = ProjectTo(self), cotangent_projector(a), cotangent_projector(b)

    def univariatespline_integral_pullback(dy: Any) -> tuple[Any, ...]:
        dy = read_cotangent(dy, y, si.UnivariateSpline.integral)
        if passes_through(dy):
            zero = passed_on(dy)
            return NoTangent(), project_self(zero), project_a(zero), project_b(zero)
        tbar, cbar, abar, bbar = integral.transpose(np.atleast_1d(np.asarray(dy, dtype=np.float64)))
        return (NoTangent(), project_self(Tangent(type(self), t=tbar, c=cbar[:, 0])), project_a(abar),
                project_b(bbar))

    return y, univariatespline_integral_pullback


@frule.register(si.UnivariateSpline.integral, si.UnivariateSpline)
def univariatespline_integral_frule(tangents: Any, self: Any, a: Any, b: Any) -> Any:
    """Forward rule of ``UnivariateSpline.integral``.

    Examples
    --------
    >>> spline = si.InterpolatedUnivariateSpline(np.arange(3.0), np.array([0.0, 1.0, 3.0]), k=1)
    >>> frule((NoTangent(), ZeroTangent(), 0.0, 1.0), spline.integral, 0.5, 1.5)[1]     # s(1.5)
    2.0
    """
    y = self.integral(a, b)
    fields = object_fields(tangents[1], self)
    da, db = tangent_value(tangents[2]), tangent_value(tangents[3])
    for d in (fields, da, db):
        if isinstance(d, NotImplementedTangent):
            return y, d
    if fields is None and da is None and db is None:
        return y, ZeroTangent()
    t, c, k = self._eval_args
    integral = BSplineIntegral(np.asarray(t), np.asarray(c, dtype=np.float64)[:, None], int(k), a, b, False)
    dt = None if fields is None else fields["t"]
    dc = None if fields is None or fields["c"] is None else fields["c"][:, None]
    return y, float(integral.tangent(dt, dc, da, db)[0])


def _univariate(rng: np.random.Generator, **kwargs: Any) -> Any:
    return si.InterpolatedUnivariateSpline(_X, _values(rng), **kwargs)


@sample_inputs(si.UnivariateSpline)
def _univariate_samples(rng: np.random.Generator) -> list[Sample]:
    y = _values(rng)
    return [Sample(_X, y, None, [None, None], 3, 0, label="s=0 (interpolation) by position"),
            Sample(_X, y, None, [-0.5, 4.6], 2, 0, label="bbox and k=2"),
            Sample(_X, y, fkwargs={"s": 0.3}, label="smoothing (not implemented)")]


@sample_inputs(si.InterpolatedUnivariateSpline)
def _interpolated_samples(rng: np.random.Generator) -> list[Sample]:
    y = _values(rng)
    return [Sample(_X, y, label="cubic"), Sample(_X, y, None, [-0.4, 4.5], 1, label="bbox, linear, by position"),
            Sample(_X, y, fkwargs={"k": 4, "ext": "const"}, label="k=4 by keyword")]


@sample_inputs(si.LSQUnivariateSpline)
def _lsq_univariate_samples(rng: np.random.Generator) -> list[Sample]:
    y = _values(rng)
    interior = np.array([1.5, 2.5])
    return [Sample(_X, y, interior, label="cubic, two interior knots"),
            Sample(_X, y, interior, rng.uniform(0.5, 2.0, 7), [-0.4, 4.5], 2, label="weights, bbox, k=2"),
            Sample(_X, y, interior[:1], fkwargs={"k": 1}, label="linear, by keyword")]


@sample_inputs(si.UnivariateSpline.__call__)
def _univariate_call_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(_univariate(rng), _Q, label="extrapolating"), Sample(_univariate(rng), _Q, 1, label="nu=1"),
            Sample(_univariate(rng, ext="zeros"), _Q, label="ext='zeros'"),
            Sample(_univariate(rng), _Q, 0, 3, label="ext=3: the nearest end's value"),
            Sample(_univariate(rng, k=2), _Q[1:5].reshape(2, 2), fkwargs={"nu": 2}, label="2-d points, nu=2")]


@sample_inputs(si.UnivariateSpline.derivative)
def _univariate_derivative_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(_univariate(rng), label="n = 1"), Sample(_univariate(rng), 2, label="n = 2")]


@sample_inputs(si.UnivariateSpline.antiderivative)
def _univariate_antiderivative_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(_univariate(rng), label="n = 1"), Sample(_univariate(rng), 2, label="n = 2")]


@sample_inputs(si.UnivariateSpline.integral)
def _univariate_integral_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(_univariate(rng), 0.3, 2.4, label="inside"),
            Sample(_univariate(rng), 3.7, -0.6, label="swapped, clipped to the base interval")]


# ---- sproot, spalde ------------------------------------------------------------------------------------------
def _tck_arrays(tck: Any) -> tuple[np.ndarray, np.ndarray, int]:
    if isinstance(tck, si.BSpline):
        return np.asarray(tck.t, dtype=np.float64), np.asarray(tck.c, dtype=np.float64), int(tck.k)
    return np.asarray(tck[0], dtype=np.float64), np.asarray(tck[1], dtype=np.float64), int(tck[2])


def _spline_cotangent(tck: Any, tbar: np.ndarray, cbar: np.ndarray) -> Any:
    if isinstance(tck, si.BSpline):
        return Tangent(type(tck), t=tbar, c=cbar)
    return _tck_cotangent(tck, tbar, cbar)


def _spline_tangent(dtck: Any, tck: Any) -> tuple[Any, Any]:
    if isinstance(tck, si.BSpline):
        fields = object_fields(dtck, tck)
        if isinstance(fields, NotImplementedTangent):
            raise MissingTangentError(fields)
        return (None, None) if fields is None else (fields["t"], fields["c"])
    return _tck_tangent(dtck, False, 1)


@rrule.register(si.sproot)
def sproot_rrule(tck: Any, mest: Any = 10) -> Any:
    """Reverse rule of ``sproot``: the roots move as ``dr = -(ds)(r) / s'(r)`` (implicit function theorem).

    Examples
    --------
    >>> from chainrules import unthunk
    >>> x = np.linspace(0.0, 4.0, 9)
    >>> tck = si.splrep(x, x - 1.5)                        # the line x - 1.5: its root moves with c
    >>> roots, pullback = rrule(si.sproot, tck)
    >>> cbar = unthunk(pullback(np.ones(1))[1])[1]
    >>> roots, round(float(cbar.sum()), 12)             # shifting every c by 1 shifts the line: dr = -1 / s'
    (array([1.5]), -1.0)
    """
    roots = si.sproot(tck, mest)
    if isinstance(roots, list):
        return None
    t, c, k = _tck_arrays(tck)
    value = SplineEval(t, c[:, None], k, np.asarray(roots), 0, "extrapolate")
    slope = SplineEval(t, c[:, None], k, np.asarray(roots), 1, "extrapolate").values()[:, 0]
    project = cotangent_projector(tck)

    def sproot_pullback(dy: Any) -> tuple[Any, ...]:
        dy = read_cotangent(dy, roots, si.sproot)
        if passes_through(dy):
            return NoTangent(), project(passed_on(dy)), NoTangent()
        tbar, cbar, _ = value.transpose((-np.asarray(dy) / slope)[:, None], want_q=False)
        return NoTangent(), project(_spline_cotangent(tck, tbar, cbar[:, 0])), NoTangent()

    return roots, sproot_pullback


@frule.register(si.sproot)
def sproot_frule(tangents: Any, tck: Any, mest: Any = 10) -> Any:
    """Forward rule of ``sproot``.

    Examples
    --------
    >>> x = np.linspace(0.0, 4.0, 9)
    >>> tck = si.splrep(x, x - 1.5)
    >>> dc = np.r_[np.ones(9), np.zeros(4)]              # shifting the line up by 1
    >>> np.round(frule((NoTangent(), Tangent(tuple, ZeroTangent(), dc, NoTangent())), si.sproot, tck)[1], 12)
    array([-1.])
    """
    roots = si.sproot(tck, mest)
    if isinstance(roots, list):
        return None
    t, c, k = _tck_arrays(tck)
    try:
        dt, dc = _spline_tangent(tangents[1], tck)
    except MissingTangentError as missing:
        return roots, missing.tangent
    if dt is None and dc is None:
        return roots, output_tangent(None, roots)
    value = SplineEval(t, c[:, None], k, np.asarray(roots), 0, "extrapolate")
    slope = SplineEval(t, c[:, None], k, np.asarray(roots), 1, "extrapolate").values()[:, 0]
    moved = value.tangent(None if dt is None else np.asarray(dt, dtype=np.float64),
                          None if dc is None else np.asarray(dc, dtype=np.float64)[:, None], None)
    return roots, output_tangent(-moved[:, 0] / slope, roots)


@rrule.register(si.spalde)
def spalde_rrule(x: Any, tck: Any) -> Any:
    """Reverse rule of ``spalde`` (all derivatives ``0 .. k`` at each point).

    Examples
    --------
    >>> from chainrules import unthunk
    >>> tck = (np.array([0.0, 0.0, 1.0, 1.0]), np.array([1.0, 3.0, 0.0, 0.0]), 1)   # 1 + 2 q
    >>> d, pullback = rrule(si.spalde, 0.25, tck)
    >>> d, unthunk(pullback(np.array([1.0, 0.0]))[1])   # d s / dx = s'
    (array([1.5, 2. ]), 2.0)
    """
    if isinstance(tck, si.BSpline) or isinstance(tck[1], (list, tuple)) or np.ndim(tck[1]) > 1:
        return None
    y = si.spalde(x, tck)
    t, c, k = _tck_arrays(tck)
    points = np.atleast_1d(np.asarray(x, dtype=np.float64))
    evals = [SplineEval(t, c[:, None], k, points, nu, "extrapolate") for nu in range(k + 1)]
    as_list = isinstance(y, list)
    project_x, project_tck = cotangent_projector(x), cotangent_projector(tck)

    def spalde_pullback(dy: Any) -> tuple[Any, ...]:
        read = read_cotangents(dy, y, si.spalde) if as_list else read_cotangent(dy, y, si.spalde)
        if passes_through(read):
            zero = passed_on(read)
            return NoTangent(), project_x(zero), project_tck(zero)
        rows = [np.zeros(k + 1) if r is None else np.asarray(r, dtype=np.float64) for r in (
            read if as_list else [read])]
        table = np.stack(rows)                                  # (points, k + 1)
        xbar, tbar, cbar = np.zeros(points.size), np.zeros(t.size), np.zeros(c.size)
        for nu, evaluation in enumerate(evals):
            tb, cb, qb = evaluation.transpose(table[:, nu:nu + 1])
            xbar, tbar, cbar = xbar + qb, tbar + tb, cbar + cb[:, 0]
        xbar_out = xbar.reshape(np.shape(x)) if np.ndim(x) else float(xbar[0])
        return NoTangent(), project_x(xbar_out), project_tck(_tck_cotangent(tck, tbar, cbar))

    return y, spalde_pullback


@frule.register(si.spalde)
def spalde_frule(tangents: Any, x: Any, tck: Any) -> Any:
    """Forward rule of ``spalde``.

    Examples
    --------
    >>> tck = (np.array([0.0, 0.0, 1.0, 1.0]), np.array([1.0, 3.0, 0.0, 0.0]), 1)
    >>> frule((NoTangent(), 1.0, ZeroTangent()), si.spalde, 0.25, tck)[1]
    array([2., 0.])
    """
    if isinstance(tck, si.BSpline) or isinstance(tck[1], (list, tuple)) or np.ndim(tck[1]) > 1:
        return None
    y = si.spalde(x, tck)
    t, c, k = _tck_arrays(tck)
    points = np.atleast_1d(np.asarray(x, dtype=np.float64))
    dx = tangent_value(tangents[1])
    try:
        dt, dc = _tck_tangent(tangents[2], False, 1)
    except MissingTangentError as missing:
        return y, missing.tangent
    if isinstance(dx, NotImplementedTangent):
        return y, dx
    dq = None if dx is None else np.atleast_1d(np.asarray(dx, dtype=np.float64))
    dtt = None if dt is None else np.asarray(dt, dtype=np.float64)
    dcc = None if dc is None else np.asarray(dc, dtype=np.float64)[:, None]
    columns = []
    for nu in range(k + 1):
        moved = SplineEval(t, c[:, None], k, points, nu, "extrapolate").tangent(dtt, dcc, dq)
        columns.append(np.zeros(points.size) if moved is None else moved[:, 0])
    table = np.stack(columns, axis=1)
    if isinstance(y, list):
        return y, Tangent(list, *[output_tangent(row, out) for row, out in zip(table, y)])
    return y, output_tangent(table[0], y)


# ---- make_splrep, make_splprep -----------------------------------------------------------------------------------
_KNOTS_GIVEN = ("make_splrep/make_splprep are differentiated for s=0 without t (interpolation); with knots or "
                "smoothing use make_lsq_spline / make_smoothing_spline")


class _MakeSplrepFit(Fit):
    """``make_splrep(x, y, s=0)``: FITPACK's interpolating spline as a ``BSpline`` (``xb``/``xe`` held)."""

    def __init__(self, x: Any, y: Any, kwargs: dict[str, Any]) -> None:
        self.y = si.make_splrep(x, y, **kwargs)
        self.differentiated = (0, 1)
        self.reason = None
        if kwargs.get("s", 0) != 0 or kwargs.get("t") is not None or kwargs.get("bc_type") is not None:
            self.reason = _KNOTS_GIVEN if kwargs.get("bc_type") is None else _PERIODIC
            return
        c, t = np.asarray(self.y.c), np.asarray(self.y.t)
        # SciPy 1.17 builds the interpolating knots from x even when xb/xe are given: read the ends off t
        xb, xe = kwargs.get("xb"), kwargs.get("xe")
        xb = xb if xb is not None and t[0] == xb else None
        xe = xe if xe is not None and t[-1] == xe else None
        self.core = CurveFit(np.asarray(x), np.asarray(y, dtype=np.float64)[:, None], None, xb, xe, int(self.y.k),
                             None, t, c[:, None])

    def forward(self, tangents: dict[int, Any]) -> dict[str, Any]:
        if self.reason is not None:
            return {"c": not_implemented(self.reason)}
        dy = tangents.get(1)
        dt, dc = self.core.forward(tangents.get(0), None if dy is None else np.asarray(dy)[:, None], None, None,
                                   None, None)
        return {"t": dt, "c": None if dc is None else dc[:, 0]}

    def backward(self, cotangents: dict[str, Any]) -> dict[int, Any]:
        if self.reason is not None:
            missing = not_implemented(self.reason)
            return {0: missing, 1: missing}
        cbar = cotangents.get("c")
        back = self.core.backward(cotangents.get("t"), None if cbar is None else np.asarray(cbar)[:, None])
        return {0: back["x"], 1: back["y"][:, 0]}


@rrule.register(si.make_splrep)
def make_splrep_rrule(x: Any, y: Any, **kwargs: Any) -> Any:
    """Reverse rule of ``make_splrep`` (``s=0``: interpolation): the sites and the values.

    Examples
    --------
    >>> from chainrules import unthunk
    >>> x = np.arange(6.0)
    >>> b, pullback = rrule(si.make_splrep, x, x ** 2)
    >>> cbar = np.zeros(6); cbar[0] = 1.0                  # c[0] is the value at x[0]
    >>> np.round(unthunk(pullback(Tangent(si.BSpline, c=cbar))[2]), 12) + 0.0
    array([1., 0., 0., 0., 0., 0.])
    """
    fit = _MakeSplrepFit(x, y, kwargs)
    return fit_rrule(si.make_splrep, "make_splrep", fit, [x, y])


@frule.register(si.make_splrep)
def make_splrep_frule(tangents: Any, x: Any, y: Any, **kwargs: Any) -> Any:
    """Forward rule of ``make_splrep``.

    Examples
    --------
    >>> x = np.arange(6.0)
    >>> np.round(frule((NoTangent(), ZeroTangent(), np.ones(6)), si.make_splrep, x, x ** 2)[1].c, 12) + 0.0
    array([1., 1., 1., 1., 1., 1.])
    """
    return fit_frule(_MakeSplrepFit(x, y, kwargs), tangents, [x, y])


@rrule.register(si.make_splprep)
def make_splprep_rrule(x: Any, **kwargs: Any) -> Any:
    """Reverse rule of ``make_splprep`` (``s=0``): the points, through the spline and the chord-length ``u``.

    Examples
    --------
    >>> from chainrules import unthunk
    >>> x = np.array([[0.0, 1.0, 2.0, 3.0], [0.0, 1.0, 0.0, 1.0]])
    >>> (spline, u), pullback = rrule(si.make_splprep, x, k=1)
    >>> xbar = unthunk(pullback(Tangent(tuple, Tangent(si.BSpline, c=np.ones((4, 2))), ZeroTangent()))[1])
    >>> np.round(xbar, 12) + 0.0                         # c = the points (k = 1): a translation
    array([[1., 1., 1., 1.],
           [1., 1., 1., 1.]])
    """
    result = si.make_splprep(x, **kwargs)
    spline, u = result
    reason = None
    if kwargs.get("s", 0) != 0 or kwargs.get("t") is not None or kwargs.get("bc_type") is not None:
        reason = _KNOTS_GIVEN
    points = np.atleast_2d(np.asarray(x, dtype=np.float64)) if not isinstance(x, list) else \
        np.stack([np.asarray(a, dtype=np.float64) for a in x])
    project_x = cotangent_projector(x)
    if reason is None:
        chord = None if kwargs.get("u") is not None else _ChordLength(points)
        core = CurveFit(np.asarray(u, dtype=np.float64), points.T, None, kwargs.get("ub"), kwargs.get("ue"),
                        int(spline.k), None, np.asarray(spline.t), np.asarray(spline.c))

    def make_splprep_pullback(dy: Any) -> tuple[Any, ...]:
        dy = unthunk(dy)
        if passes_through(dy):
            return NoTangent(), project_x(passed_on(dy))
        if isinstance(dy, Tangent) and isinstance(backing(dy), tuple) and len(backing(dy)) == 2:
            spline_part, u_part = backing(dy)
        elif isinstance(dy, tuple) and len(dy) == 2:
            spline_part, u_part = dy
        else:
            raise ProjectionError(f"scipy.interpolate.make_splprep pullback: output cotangent is a "
                                  f"{type(dy).__name__}, expected a Tangent of a tuple (BSpline, u)")
        read = read_object(spline_part, spline, si.make_splprep)
        ubar = read_cotangent(u_part, u, si.make_splprep)
        for part_read in (read, ubar):
            if isinstance(part_read, NotImplementedTangent):
                return NoTangent(), project_x(part_read)
        if reason is not None:
            return NoTangent(), project_x(not_implemented(reason))
        read = {"t": None, "c": None} if passes_through(read) else read
        back = core.backward(read["t"], read["c"])
        xbar = back["y"].T.copy()
        if chord is not None:
            total_u = back["x"] + (0.0 if passes_through(ubar) else np.asarray(ubar))
            xbar = xbar + chord.transpose(total_u)
        return NoTangent(), project_x(xbar.reshape(np.shape(points)) if not isinstance(x, list) else
                                      Tangent(list, *xbar))

    return result, make_splprep_pullback


@frule.register(si.make_splprep)
def make_splprep_frule(tangents: Any, x: Any, **kwargs: Any) -> Any:
    """Forward rule of ``make_splprep``.

    Examples
    --------
    >>> x = np.array([[0.0, 1.0, 2.0, 3.0], [0.0, 1.0, 0.0, 1.0]])
    >>> (spline, u), (dspline, du) = frule((NoTangent(), np.ones((2, 4))), si.make_splprep, x, k=1)
    >>> dspline.c[:, 0]
    array([1., 1., 1., 1.])
    """
    result = si.make_splprep(x, **kwargs)
    spline, u = result
    dx = unthunk(tangents[1])
    if isinstance(dx, NotImplementedTangent):
        return result, dx
    if dx is None or passes_through(dx):
        return result, ZeroTangent()
    if kwargs.get("s", 0) != 0 or kwargs.get("t") is not None or kwargs.get("bc_type") is not None:
        return result, not_implemented(_KNOTS_GIVEN)
    points = np.atleast_2d(np.asarray(x, dtype=np.float64)) if not isinstance(x, list) else \
        np.stack([np.asarray(a, dtype=np.float64) for a in x])
    if isinstance(x, list):
        dx = np.stack([np.zeros(np.shape(a)) if part(dx, i) is None else np.asarray(part(dx, i), dtype=np.float64)
                       for i, a in enumerate(x)])
    dpoints = np.atleast_2d(np.asarray(dx, dtype=np.float64))
    chord = None if kwargs.get("u") is not None else _ChordLength(points)
    du = None if chord is None else chord.tangent(dpoints)
    core = CurveFit(np.asarray(u, dtype=np.float64), points.T, None, kwargs.get("ub"), kwargs.get("ue"),
                    int(spline.k), None, np.asarray(spline.t), np.asarray(spline.c))
    dt, dc = core.forward(du, dpoints.T, None, None, None, None)
    return result, Tangent(tuple, object_tangent(spline, {"t": dt, "c": dc}), output_tangent(du, u))


@sample_inputs(si.sproot)
def _sproot_samples(rng: np.random.Generator) -> list[Sample]:
    t = _distinct_tck(rng)[0]
    c = np.array([-1.3, -0.9, 0.8, -0.6, 0.9, 1.4])      # crossing zero three times in [t_k, t_n] = [0, 3]
    return [Sample((t, np.r_[c, np.zeros(4)], 3), label="a tck with three roots"),
            Sample(si.BSpline(t, c, 3), label="a BSpline")]


@sample_inputs(si.spalde)
def _spalde_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(1.3, _distinct_tck(rng), label="one point"),
            Sample(np.array([0.4, 1.3, 2.6]), _distinct_tck(rng), label="several points: a list")]


@sample_inputs(si.make_splrep)
def _make_splrep_samples(rng: np.random.Generator) -> list[Sample]:
    y = _values(rng)
    return [Sample(_X, y, label="interpolation"), Sample(_X, y, fkwargs={"k": 5, "xb": -0.5}, label="k=5, xb"),
            Sample(_X, y, fkwargs={"s": 0.3}, label="smoothing (not implemented)")]


@sample_inputs(si.make_splprep)
def _make_splprep_samples(rng: np.random.Generator) -> list[Sample]:
    points = np.stack([np.cos(_X), np.sin(1.3 * _X)]) + 0.05 * rng.standard_normal((2, 7))
    return [Sample(points, label="chord-length parameters"),
            Sample(points, fkwargs={"u": np.linspace(0.0, 1.0, 7), "k": 2}, label="given parameters, k=2")]
