"""``scipy.interpolate.interp1d``: the constructor and calling the object, every ``kind``; with respect to
the sites ``x``, the values ``y`` and the points.

The object's tangent is ``Tangent(interp1d, x=dx, y=dy)`` with ``x`` and ``y`` as the object keeps
them (sorted by ``x``; the constructor's rules apply and undo the sort).

The maths
---------
``'linear'``: on the interval ``x_lo <= q <= x_hi`` SciPy picks (``searchsorted``, the edge
intervals outside), ``f = y_lo + (q - x_lo) m``, ``m = (y_hi - y_lo) / (x_hi - x_lo)``:
``df/dq = m``, ``df/dy_lo = 1 - s``, ``df/dy_hi = s`` (``s = (q - x_lo) / (x_hi - x_lo)``),
``df/dx_lo = m (s - 1)``, ``df/dx_hi = -m s``. ``'nearest'``, ``'nearest-up'``, ``'previous'``,
``'next'``: the value of the selected site, piecewise constant in the point and the sites
(zero derivative there; the selected value's cotangent is the output's). The spline kinds
(``'zero'``, ``'slinear'``, ``'quadratic'``, ``'cubic'``, an integer order) are
``make_interp_spline(x, y, k)`` evaluated: the derivatives of :mod:`.splines` and
:mod:`.bspline`. Points outside ``[x_0, x_end]`` take ``fill_value`` (no derivative) unless it is
``'extrapolate'``; ``'previous'``/``'next'`` with ``'extrapolate'`` fill above/below with the
last/first value, whose cotangent that is. ``fill_value`` itself is not differentiated.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.interpolate as si

from chainrules.rulesets.arrays._linear_maps import tangent_array
from chainrules.rulesets.interpolate._bspline import SplineEval
from chainrules.rulesets.interpolate._object_calls import PointsAlongAxis, object_call_frule, object_call_rrule
from chainrules.rulesets.interpolate._objects import object_tangent, read_object
from chainrules.rulesets.interpolate.splines import InterpolatingFit
from chainrules.rulesets.reductions._tangent_values import passed_on
from chainrules_core import (
    NoTangent,
    NotImplementedTangent,
    Sample,
    Tangent,
    cotangent_projector,
    differentiable,
    frule,
    not_implemented,
    passes_through,
    rrule,
    sample_inputs,
)

__all__ = ["Interp1dCall"]

_FILL = "interp1d's fill_value is not differentiated (it only sets the value outside the data)"


def _stored(obj: Any, value: Any) -> np.ndarray:
    """An array of ``obj.y``'s layout as ``(n, T)``."""
    return np.moveaxis(np.asarray(value), obj.axis, 0).reshape(np.shape(obj.x)[0], -1)


def _user(obj: Any, value: np.ndarray) -> np.ndarray:
    moved_shape = (np.shape(obj.x)[0],) + tuple(np.delete(np.shape(obj.y), obj.axis))
    return np.moveaxis(value.reshape(moved_shape), 0, obj.axis)


class Interp1dCall(PointsAlongAxis):
    """``obj(q)`` for an ``interp1d`` object: its output and derivatives.

    Examples
    --------
    >>> obj = si.interp1d(np.array([0.0, 1.0, 3.0]), np.array([0.0, 2.0, 3.0]))
    >>> call = Interp1dCall(obj, np.array([0.5, 2.0]))
    >>> call.y, call.cotangents(np.ones(2))[1]          # the slopes 2 and 0.5
    (array([1. , 2.5]), array([2. , 0.5]))
    """

    def __init__(self, obj: Any, q: Any) -> None:
        self.obj = obj
        self.y = obj(q)
        q_array = np.asarray(q)
        self.q_shape, self.q_ndim = q_array.shape, q_array.ndim
        self.q = q_array.ravel().astype(np.float64)
        self.axis, self.npoints = int(obj.axis), self.q.size
        self.trailing = tuple(int(n) for n in np.delete(np.shape(obj.y), obj.axis))
        x = np.asarray(obj.x, dtype=np.float64)
        self.x, self.n = x, x.size
        self.Y = obj._y
        kind = obj._kind
        self.kind = kind
        below, above = self.q < x[0], self.q > x[-1]
        self.valid = np.ones(self.q.size, dtype=bool) if obj._extrapolate else ~(below | above)
        self.from_y: list[tuple[np.ndarray, int]] = []  # points filled with y's first or last value
        if kind in ("previous", "next") and not obj._extrapolate and self._fills_with_data():
            self.from_y.append((above, self.n - 1) if kind == "previous" else (below, 0))
        if kind == "linear":
            hi = np.clip(np.searchsorted(x, self.q), 1, self.n - 1)
            self.lo, self.hi = hi - 1, hi
            span = x[hi] - x[hi - 1]
            self.s = (self.q - x[self.lo]) / span
            self.slope = (self.Y[self.hi] - self.Y[self.lo]) / span[:, None]
        elif kind == "spline":
            b = obj._spline
            self.fit = InterpolatingFit(x, self.Y, int(b.k), None, None, 0, False)
            self.eval = SplineEval(np.asarray(b.t), np.asarray(b.c).reshape(np.shape(b.c)[0], -1), int(b.k), self.q,
                                   0, "extrapolate")
        else:
            self.index = self._selected()

    def _fills_with_data(self) -> bool:
        fill = self.obj.fill_value
        return isinstance(fill, tuple) and len(fill) == 2 and bool(np.all(np.isnan(
            fill[0] if self.kind == "previous" else fill[1])))

    def _selected(self) -> np.ndarray:
        obj, q = self.obj, self.q
        if self.kind in ("nearest", "nearest-up"):
            return np.clip(np.searchsorted(obj.x_bds, q, side=obj._side), 0, self.n - 1)
        found = np.clip(np.searchsorted(obj._x_shift, q, side=obj._side), 1 - obj._ind, self.n - obj._ind)
        return found + obj._ind - 1

    def cotangents(self, dy: Any) -> tuple[Any, np.ndarray]:
        """The object's cotangent (``Tangent(interp1d, x=..., y=...)``) and the points'."""
        g = self._in(dy)
        extra_points = [(mask, index) for mask, index in self.from_y]
        g_valid = np.where(self.valid[:, None], g, 0)
        xbar = np.zeros(self.n)
        Ybar = np.zeros(self.Y.shape, dtype=np.result_type(g, self.Y))
        qbar = np.zeros(self.q.size)
        if self.kind == "linear":
            moves = np.real(np.sum(np.conj(self.slope) * g_valid, axis=1))
            qbar = moves
            np.add.at(Ybar, self.lo, (1 - self.s)[:, None] * g_valid)
            np.add.at(Ybar, self.hi, self.s[:, None] * g_valid)
            np.add.at(xbar, self.lo, moves * (self.s - 1))
            np.add.at(xbar, self.hi, -moves * self.s)
        elif self.kind == "spline":
            tbar, cbar, qbar = self.eval.transpose(g_valid)
            back = self.fit.backward({"t": tbar, "c": cbar.reshape(self.fit.c_shape)})
            xbar = back[0]
            Ybar = Ybar + np.asarray(back[1]).reshape(self.Y.shape)
        else:
            np.add.at(Ybar, self.index, g_valid)
        for mask, index in extra_points:
            Ybar[index] += np.sum(g[mask], axis=0)
        return Tangent(type(self.obj), x=xbar, y=_user(self.obj, Ybar)), qbar.reshape(self.q_shape)

    def tangent(self, fields: Any, dq: Any) -> Any:
        dx = None if fields is None else fields["x"]
        dY = None if fields is None or fields["y"] is None else _stored(self.obj, fields["y"])
        total: Any = np.zeros((self.q.size, self.Y.shape[1]), dtype=np.result_type(
            self.Y, *([] if dY is None else [dY])))
        step = np.zeros(self.q.size) if dq is None else np.asarray(dq, dtype=np.float64).reshape(-1)
        if self.kind == "linear":
            total = total + self.slope * step[:, None]
            if dY is not None:
                total = total + (1 - self.s)[:, None] * dY[self.lo] + self.s[:, None] * dY[self.hi]
            if dx is not None:
                total = total + self.slope * ((self.s - 1) * dx[self.lo] - self.s * dx[self.hi])[:, None]
        elif self.kind == "spline":
            spline_fields = self.fit.forward({0: dx, 1: dY, 3: None, 4: None}) if (
                dx is not None or dY is not None) else {"t": None, "c": None}
            dc = spline_fields["c"]
            moved = self.eval.tangent(spline_fields["t"], None if dc is None else dc.reshape(self.eval.c.shape),
                                      step if dq is not None else None)
            if moved is not None:
                total = total + moved
        elif dY is not None:
            total = total + dY[self.index]
        total = np.where(self.valid[:, None], total, 0)
        if dY is not None:
            for mask, index in self.from_y:
                total[mask] = dY[index]
        return self._out(total)


# ---- the constructor ----------------------------------------------------------------------------------
def _order(x: Any, assume_sorted: Any) -> np.ndarray:
    x = np.asarray(x)
    return np.arange(x.size) if assume_sorted else np.argsort(x, kind="mergesort")


@rrule.register(si.interp1d)
def interp1d_rrule(x: Any, y: Any, kind: Any = "linear", axis: Any = -1, copy: Any = True, bounds_error: Any = None,
                   fill_value: Any = np.nan, assume_sorted: Any = False) -> Any:
    """Reverse rule of the ``interp1d`` constructor: the sites and the values (through the sort).

    Examples
    --------
    >>> from chainrules import unthunk
    >>> obj, pullback = rrule(si.interp1d, np.array([1.0, 0.0]), np.array([5.0, 7.0]))
    >>> obj.x, unthunk(pullback(Tangent(si.interp1d, y=np.array([1.0, 0.0])))[2])   # sorted: y[1] first
    (array([0., 1.]), array([0., 1.]))
    """
    obj = si.interp1d(x, y, kind, axis, copy, bounds_error, fill_value, assume_sorted)
    order = _order(x, assume_sorted)
    inverse = np.argsort(order)
    project_x, project_y = cotangent_projector(x), cotangent_projector(y)
    fill_differentiable = differentiable(fill_value) and not isinstance(fill_value, str)
    project_fill = cotangent_projector(fill_value) if fill_differentiable else None

    def interp1d_pullback(dy: Any) -> tuple[Any, ...]:
        read = read_object(dy, obj, si.interp1d)
        rest = (NoTangent(),) * 4
        fill = NoTangent() if project_fill is None else project_fill(not_implemented(_FILL))
        if passes_through(read):
            zero = passed_on(read)
            return (NoTangent(), project_x(zero), project_y(zero), NoTangent(), NoTangent(), NoTangent(), NoTangent(),
                    fill if not isinstance(zero, NotImplementedTangent) else zero, NoTangent())[:9]
        xbar = np.zeros(np.shape(x)) if read["x"] is None else read["x"][inverse]
        ybar = np.zeros(np.shape(obj.y)) if read["y"] is None else np.take(read["y"], inverse, axis=obj.axis)
        return (NoTangent(), project_x(xbar), project_y(ybar), *rest, fill, NoTangent())

    return obj, interp1d_pullback


@frule.register(si.interp1d)
def interp1d_frule(tangents: Any, x: Any, y: Any, kind: Any = "linear", axis: Any = -1, copy: Any = True,
                   bounds_error: Any = None, fill_value: Any = np.nan, assume_sorted: Any = False) -> Any:
    """Forward rule of the ``interp1d`` constructor.

    Examples
    --------
    >>> from chainrules import NoTangent, ZeroTangent
    >>> frule((NoTangent(), ZeroTangent(), np.array([1.0, 0.0])), si.interp1d, np.array([1.0, 0.0]),
    ...       np.array([5.0, 7.0]))[1]
    Tangent(interp1d, x=ZeroTangent(), y=array([0., 1.]))
    """
    obj = si.interp1d(x, y, kind, axis, copy, bounds_error, fill_value, assume_sorted)
    order = _order(x, assume_sorted)
    dx, dy = tangent_array(tangents[1], x), tangent_array(tangents[2], y)
    for d in (dx, dy):
        if isinstance(d, NotImplementedTangent):
            return obj, d
    if len(tangents) > 7 and differentiable(fill_value) and not isinstance(fill_value, str):
        from chainrules.rulesets.reductions._tangent_values import tangent_value

        if tangent_value(tangents[7]) is not None:
            return obj, not_implemented(_FILL)
    return obj, object_tangent(obj, {"x": None if dx is None else np.asarray(dx)[order],
                                     "y": None if dy is None else np.take(np.asarray(dy), order, axis=obj.axis)})


# ---- calling it -----------------------------------------------------------------------------------------
def _call_rrule(obj: Any, x: Any, method: bool) -> Any:
    return object_call_rrule(Interp1dCall(obj, x), obj, x, "scipy.interpolate.interp1d.__call__", "interp1d", method)


def _call_frule(tangents: Any, obj: Any, x: Any, position: int) -> Any:
    return object_call_frule(Interp1dCall(obj, x), tangents, obj, x, position)


@rrule.register_functor(si.interp1d)
def interp1d_call_rrule(obj: Any, x: Any) -> Any:
    """Reverse rule of calling an ``interp1d``: its sites and values, and the points.

    Examples
    --------
    >>> from chainrules import unthunk
    >>> obj = si.interp1d(np.array([0.0, 1.0, 3.0]), np.array([0.0, 2.0, 3.0]))
    >>> y, pullback = rrule(obj, np.array([2.0]))
    >>> dobj, dx = (unthunk(c) for c in pullback(np.ones(1)))
    >>> dobj.y, dx                                    # halfway between the last two sites
    (array([0. , 0.5, 0.5]), array([0.5]))
    """
    return _call_rrule(obj, x, method=False)


@frule.register_functor(si.interp1d)
def interp1d_call_frule(tangents: Any, obj: Any, x: Any) -> Any:
    """Forward rule of calling an ``interp1d``.

    Examples
    --------
    >>> from chainrules import ZeroTangent
    >>> obj = si.interp1d(np.array([0.0, 1.0, 3.0]), np.array([0.0, 2.0, 3.0]), kind="nearest")
    >>> frule((ZeroTangent(), np.ones(1)), obj, np.array([2.2]))[1]          # piecewise constant
    array([0.])
    """
    return _call_frule(tangents, obj, x, 0)


@rrule.register(si.interp1d.__call__, si.interp1d)
def interp1d_method_call_rrule(self: Any, x: Any) -> Any:
    """Reverse rule of ``interp1d.__call__``.

    Examples
    --------
    >>> from chainrules import unthunk
    >>> obj = si.interp1d(np.array([0.0, 1.0, 3.0]), np.array([0.0, 2.0, 3.0]))
    >>> unthunk(rrule(obj.__call__, np.array([2.0]))[1](np.ones(1))[2])
    array([0.5])
    """
    return _call_rrule(self, x, method=True)


@frule.register(si.interp1d.__call__, si.interp1d)
def interp1d_method_call_frule(tangents: Any, self: Any, x: Any) -> Any:
    """Forward rule of ``interp1d.__call__``.

    Examples
    --------
    >>> from chainrules import NoTangent, ZeroTangent
    >>> obj = si.interp1d(np.array([0.0, 1.0, 3.0]), np.array([0.0, 2.0, 3.0]))
    >>> frule((NoTangent(), ZeroTangent(), np.ones(1)), si.interp1d.__call__, obj, np.array([2.0]))[1]
    array([0.5])
    """
    return _call_frule(tangents, self, x, 1)


# ---- sample inputs ----------------------------------------------------------------------------------
_X = np.array([0.0, 0.6, 1.3, 1.9, 2.8, 3.4, 4.1])
_Q = np.array([0.35, 1.1, 2.0, 2.5, 3.9])
"""Points inside the data, away from the sites and the nearest-neighbour switches."""
_OUT = np.array([-0.3, 0.35, 2.0, 4.4])


def _values(rng: np.random.Generator, trailing: tuple[int, ...] = ()) -> np.ndarray:
    return np.sin(_X).reshape((7,) + (1,) * len(trailing)) + 0.3 * rng.standard_normal((7,) + trailing)


@sample_inputs(si.interp1d)
def _constructor_samples(rng: np.random.Generator) -> list[Sample]:
    shuffled = np.array([3, 0, 6, 1, 5, 2, 4])
    return [Sample(_X, _values(rng), label="linear"),
            Sample(_X[shuffled], _values(rng), "cubic", label="unsorted sites, cubic by position"),
            Sample(_X, _values(rng, (2,)).T.copy(), fkwargs={"kind": "nearest", "axis": 1}, label="nearest, axis=1"),
            Sample(_X.astype(np.float32), _values(rng).astype(np.float32), label="float32")]


def _interp1d(rng: np.random.Generator, kind: str, **kwargs: Any) -> Any:
    return si.interp1d(_X, _values(rng), kind, **kwargs)


@sample_inputs(si.interp1d.__call__)
def _call_samples(rng: np.random.Generator) -> list[Sample]:
    samples = [Sample(_interp1d(rng, kind), _Q, label=kind)
               for kind in ("linear", "nearest", "nearest-up", "previous", "next", "zero", "slinear", "quadratic",
                            "cubic")]
    # NaN outputs (the default fill) have no derivative (zero; see test_interp1d.py): a constant fill here
    samples += [Sample(_interp1d(rng, "linear", bounds_error=False, fill_value=0.5), _OUT,
                       label="linear, a constant outside"),
                Sample(_interp1d(rng, "cubic", fill_value="extrapolate"), _OUT, label="cubic, extrapolating"),
                Sample(_interp1d(rng, "linear", fill_value="extrapolate"), _OUT, label="linear, extrapolating"),
                Sample(_interp1d(rng, "previous", fill_value="extrapolate"), _OUT[1:],
                       label="previous, extrapolating: the last value above"),
                Sample(_interp1d(rng, "next", fill_value="extrapolate"), _OUT[:-1],
                       label="next, extrapolating: the first value below"),
                Sample(si.interp1d(_X, _values(rng, (2,)).T.copy(), 5), _Q.reshape(5, 1),
                       label="order 5, axis=-1, 2-d points"),
                Sample(si.interp1d(_X, _values(rng, (2,)), "linear", axis=0), _Q, label="linear, axis=0"),
                Sample(_interp1d(rng, "linear"), 2.0, label="a scalar point")]
    return samples
