"""The cubic interpolators of ``scipy.interpolate``: the constructors of ``CubicHermiteSpline``,
``CubicSpline``, ``PchipInterpolator`` and ``Akima1DInterpolator``, and ``pchip_interpolate``;
with respect to the sites ``x``, the values ``y``, the slopes ``dydx`` (Hermite) and the end
values of ``bc_type`` (``CubicSpline``, when ``bc_type`` is given by position).

Calling the objects and their ``derivative``, ``antiderivative`` and ``integrate`` methods are
``PPoly``'s rules (:mod:`.ppoly`): each of these objects is a ``PPoly``, and its tangent is
``Tangent(cls, c=dc, x=dx)`` with ``c`` in the stored layout ``(4, n - 1, ...)`` (the
interpolation axis first), so ``CubicSpline(x, y)(xq)`` is differentiable in ``x``, ``y`` and
``xq`` end to end.

The maths
---------
Each object is the cubic Hermite interpolant of ``(x, y)`` with slopes ``d`` at the sites, so
``c = H(x, y, d)`` (:func:`._cubic.hermite_coefficients`, explicit), and the tangent is
``dc = H_x dx + H_y dy + H_d dd`` with ``dd`` the slopes' tangent: the given ``dydx`` for
``CubicHermiteSpline``, the implicit-function derivative of the spline conditions for
``CubicSpline`` (de Boor, *A Practical Guide to Splines*, ch. IV), the derivative of the
branch taken by the explicit formulas of Fritsch & Carlson (1980) for PCHIP and of Akima
(1970) / Moler (``makima``, 2019) for Akima. See :mod:`._cubic`.

PCHIP and Akima switch between branches (a zero slope where the secants change sign, the
clipped end slopes, the mean of the outer secants where Akima's weights vanish): the
derivative is that of the branch SciPy takes, one-sided at a switch. ``bc_type='periodic'``
needs ``y[0] == y[-1]``; a tangent keeping that equality is the only meaningful one, and the
cotangent returned for ``y`` is the derivative of SciPy's formula, which reads ``y[0]`` and
``y[-1]`` separately (its components along ``y[0] - y[-1]`` are not constrained).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import scipy.interpolate as si

from chainrules.rulesets.arrays._linear_maps import output_tangent, tangent_array
from chainrules.rulesets.contractions._multilinear import lazy_cotangent
from chainrules.rulesets.interpolate._cubic import (
    CubicSplineSlopes,
    LocalSlopes,
    akima_slopes,
    hermite_tangent,
    hermite_transpose,
    local_tangent,
    local_transpose,
    pchip_slopes,
)
from chainrules.rulesets.interpolate._objects import object_tangent, read_object
from chainrules.rulesets.interpolate.ppoly import PPolyCall
from chainrules.rulesets.reductions._registration import name_pullback
from chainrules.rulesets.reductions._tangent_values import passed_on
from chainrules_core import (
    NoTangent,
    NotImplementedTangent,
    Sample,
    Tangent,
    ZeroTangent,
    backing,
    cotangent_projector,
    frule,
    passes_through,
    read_cotangent,
    read_cotangents,
    rrule,
    sample_inputs,
    unthunk,
)

__all__ = ["CubicBuild"]


class CubicBuild:
    """A cubic interpolator just built: its data in the stored layout and the Hermite map ``c = H(x, y, d)``.

    ``y`` and the slopes ``d`` are held as ``(n, T)`` arrays (the interpolation axis first, the
    other axes flattened); :meth:`stored` and :meth:`user` convert arrays of ``y``'s shape.

    Examples
    --------
    >>> cs = si.CubicSpline(np.arange(3.0), np.array([[0.0, 1.0, 4.0]]), axis=1)
    >>> build = CubicBuild(cs, np.array([[0.0, 1.0, 4.0]]))
    >>> build.y.shape, build.d[:, 0]                   # the parabola y = x^2: slopes 2 x
    ((3, 1), array([0., 2., 4.]))
    """

    def __init__(self, obj: Any, y: Any) -> None:
        self.obj = obj
        self.axis = int(obj.axis)
        c = np.asarray(obj.c)
        self.x = np.asarray(obj.x)
        self.n = self.x.size
        self.trailing = c.shape[2:]
        self.dtype = c.dtype
        self.y = self.stored(y)
        c3 = c.reshape(4, self.n - 1, -1)
        h = np.diff(self.x)[:, None]
        last = 3 * c3[0, -1] * h[-1] ** 2 + 2 * c3[1, -1] * h[-1] + c3[2, -1]
        self.d = np.concatenate((c3[2], last[None]))

    def stored(self, value: Any) -> np.ndarray:
        """An array of ``y``'s shape as ``(n, T)``."""
        moved = np.moveaxis(np.asarray(value), self.axis, 0)
        return moved.reshape(self.n, -1).astype(np.result_type(self.dtype, moved.dtype), copy=False)

    def user(self, value: np.ndarray) -> np.ndarray:
        """The inverse of :meth:`stored`."""
        return np.moveaxis(value.reshape((self.n,) + self.trailing), 0, self.axis)

    def tangent(self, dx: Any, dy: Any, dd: Any) -> Any:
        """``dc`` (stored layout) for tangents of ``x``, ``y`` (``(n, T)``) and the slopes; ``None`` for all zero."""
        if dx is None and dy is None and dd is None:
            return None
        dc = hermite_tangent(self.x, self.y, self.d, dx, dy, dd)
        return dc.reshape((4, self.n - 1) + self.trailing)

    def transpose(self, cbar: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(xbar, ybar, dbar)`` (``ybar``, ``dbar`` as ``(n, T)``) from a cotangent of ``c``."""
        return hermite_transpose(self.x, self.y, self.d, np.asarray(cbar).reshape(4, self.n - 1, -1))


# ---- one rule pair for the four constructors -----------------------------------------------------------------
class _Slopes:
    """How the slopes depend on the arguments.

    ``tangent(dx, dy, extra) -> dd`` and ``transpose(dbar) -> (xbar, ybar, extra)``.
    """

    def tangent(self, dx: Any, dy: Any, extra: Any) -> Any:
        raise NotImplementedError

    def transpose(self, dbar: np.ndarray) -> tuple[Any, Any, Any]:
        raise NotImplementedError


class _GivenSlopes(_Slopes):
    """``CubicHermiteSpline``: the slopes are the argument ``dydx``."""

    def __init__(self, build: CubicBuild) -> None:
        self.build = build

    def tangent(self, dx: Any, dy: Any, extra: Any) -> Any:
        return None if extra is None else self.build.stored(extra)

    def transpose(self, dbar: np.ndarray) -> tuple[Any, Any, Any]:
        return None, None, self.build.user(dbar)


class _LocalSlopes(_Slopes):
    """PCHIP and Akima: explicit local formulas."""

    def __init__(self, build: CubicBuild, slopes: LocalSlopes) -> None:
        self.build, self.slopes = build, slopes

    def tangent(self, dx: Any, dy: Any, extra: Any) -> Any:
        if dx is None and dy is None:
            return None
        return local_tangent(self.slopes, self.build.x, self.build.y, dx, dy)

    def transpose(self, dbar: np.ndarray) -> tuple[Any, Any, Any]:
        xbar, ybar = local_transpose(self.slopes, dbar)
        return xbar, ybar, None


def _end_conditions(bc_type: Any) -> tuple[Any, Any]:
    """SciPy's two end conditions: ``'not-a-knot'``, ``'periodic'`` or ``(order, value or None)``.

    ``None`` marks a fixed zero (``'clamped'``, ``'natural'``) for the tangent bookkeeping.
    """
    def one(condition: Any) -> Any:
        if isinstance(condition, str):
            if condition == "clamped":
                return (1, 0.0)
            if condition == "natural":
                return (2, 0.0)
            return condition
        order, value = condition
        return (int(order), value)

    if isinstance(bc_type, str):
        return (one(bc_type), one(bc_type)) if bc_type != "periodic" else ("periodic", "periodic")
    return one(bc_type[0]), one(bc_type[1])


class _SplineSlopes(_Slopes):
    """``CubicSpline``: the slopes solve the spline conditions (an implicit linear system)."""

    def __init__(self, build: CubicBuild, bc_type: Any) -> None:
        self.build, self.bc_type = build, bc_type
        conditions = _end_conditions(bc_type)
        T = build.y.shape[1]
        bc = [c if isinstance(c, str) else (c[0], np.broadcast_to(np.asarray(c[1]), build.trailing).reshape(T))
              for c in conditions]
        self.system = CubicSplineSlopes(build.x, build.y, build.d, (bc[0], bc[1]))

    def _end_values(self, extra: Any) -> tuple[Any, Any]:
        """The tangents of the two end values from a tangent of ``bc_type`` (given by position)."""
        if extra is None or isinstance(self.bc_type, str):
            return None, None
        parts = backing(extra) if isinstance(extra, Tangent) else extra
        out: list[Any] = [None, None]
        for end in (0, 1):
            part = unthunk(parts[end]) if isinstance(parts, (tuple, list)) and len(parts) == 2 else None
            if part is None or isinstance(part, (NoTangent, ZeroTangent)) or isinstance(self.bc_type[end], str):
                continue
            inner = backing(part) if isinstance(part, Tangent) else part
            value = unthunk(inner[1]) if isinstance(inner, (tuple, list)) and len(inner) == 2 else None
            if value is None or isinstance(value, (NoTangent, ZeroTangent)):
                continue
            if isinstance(value, NotImplementedTangent):
                raise _MissingError(value)
            out[end] = np.broadcast_to(np.asarray(value), self.build.trailing).reshape(-1)
        return out[0], out[1]

    def tangent(self, dx: Any, dy: Any, extra: Any) -> Any:
        values = self._end_values(extra)
        if dx is None and dy is None and values == (None, None):
            return None
        return self.system.tangent(dx, dy, values)

    def transpose(self, dbar: np.ndarray) -> tuple[Any, Any, Any]:
        xbar, ybar, vbars = self.system.transpose(dbar)
        if isinstance(self.bc_type, str):
            return xbar, ybar, None
        parts: list[Any] = []
        for end in (0, 1):
            condition = self.bc_type[end]
            if isinstance(condition, str) or vbars[end] is None:
                parts.append(NoTangent())
            else:
                value = np.asarray(vbars[end]).reshape(self.build.trailing)
                parts.append(Tangent(tuple, NoTangent(), value if value.ndim else value[()]))
        return xbar, ybar, Tangent(tuple, *parts)


class _MissingError(Exception):
    """A not-implemented tangent met while reading the tangent of ``bc_type``."""

    def __init__(self, tangent: NotImplementedTangent) -> None:
        super().__init__(tangent.info)
        self.tangent = tangent


def _rrule(f: Any, label: str, obj: Any, values: list[Any], y_position: int, extra_position: int | None,
           slopes: _Slopes, build: CubicBuild) -> Any:
    """The pullback of a constructor: one cotangent per positional parameter (``values``)."""
    projectors = [cotangent_projector(v) if i in (0, y_position, extra_position) else None
                  for i, v in enumerate(values)]

    def solve(read: dict[str, Any], memo: dict[str, Any]) -> dict[str, Any]:
        if "x" not in memo:  # one adjoint computation per pullback call, shared by its cotangents
            xbar = np.zeros(build.n) if read["x"] is None else np.array(read["x"], dtype=np.float64)
            ybar: Any = np.zeros(build.y.shape, dtype=build.dtype)
            extra: Any = None
            if read["c"] is not None:
                xb, yb, dbar = build.transpose(read["c"])
                xs, ys, extra = slopes.transpose(dbar)
                xbar = xbar + xb + (0 if xs is None else xs)
                ybar = yb + (0 if ys is None else ys)
            memo.update(x=xbar, y=build.user(ybar), extra=ZeroTangent() if extra is None else extra)
        return memo

    def pullback(dy: Any) -> tuple[Any, ...]:
        read = read_object(dy, obj, f)
        if passes_through(read):
            zero = passed_on(read)
            return (NoTangent(), *(NoTangent() if p is None else p(zero) for p in projectors))
        memo: dict[str, Any] = {}
        out: list[Any] = [NoTangent()]
        for i, project in enumerate(projectors):
            key = {0: "x", y_position: "y", extra_position: "extra"}.get(i)
            if project is None or key is None:
                out.append(NoTangent())
            else:
                out.append(lazy_cotangent(project, _reader(solve, read, memo, key)))
        return tuple(out)

    return obj, name_pullback(pullback, label)


def _reader(solve: Callable[[dict[str, Any], dict[str, Any]], dict[str, Any]], read: dict[str, Any],
            memo: dict[str, Any], key: str) -> Callable[[], Any]:
    def compute() -> Any:
        return solve(read, memo)[key]

    return compute


def _frule(obj: Any, build: CubicBuild, slopes: _Slopes, tangents: Any, x: Any, y: Any, y_position: int,
           extra: tuple[int, Any] | None) -> Any:
    """The tangent ``Tangent(cls, c=dc, x=dx)`` of a constructor's output."""
    dx = tangent_array(tangents[1], x) if len(tangents) > 1 else None
    dy = tangent_array(tangents[y_position + 1], y) if len(tangents) > y_position + 1 else None
    dextra: Any = None
    if extra is not None and len(tangents) > extra[0] + 1:
        position, value = extra
        dextra = tangent_array(tangents[position + 1], value) if not isinstance(slopes, _SplineSlopes) else \
            unthunk(tangents[position + 1])
    for t in (dx, dy, dextra):
        if isinstance(t, NotImplementedTangent):
            return obj, t
    dx = None if dx is None else np.asarray(dx, dtype=np.float64)
    dy_stored = None if dy is None else build.stored(dy)
    try:
        dd = slopes.tangent(dx, dy_stored, dextra)
    except _MissingError as missing:
        return obj, missing.tangent
    dc = build.tangent(dx, dy_stored, dd)
    return obj, object_tangent(obj, {"c": dc, "x": dx})


# ---- CubicHermiteSpline -----------------------------------------------------------------------------------
@rrule.register(si.CubicHermiteSpline)
def cubichermitespline_rrule(x: Any, y: Any, dydx: Any, axis: Any = 0, extrapolate: Any = None) -> Any:
    """Reverse rule of the ``CubicHermiteSpline`` constructor: the cotangents of ``x``, ``y`` and ``dydx``.

    Examples
    --------
    >>> from chainrules import unthunk
    >>> obj, pullback = rrule(si.CubicHermiteSpline, np.array([0.0, 1.0]), np.zeros(2), np.zeros(2))
    >>> cbar = np.array([[0.0], [0.0], [1.0], [0.0]])      # the cotangent of c[2, 0] = dydx[0]
    >>> unthunk(pullback(Tangent(si.CubicHermiteSpline, c=cbar))[3])
    array([1., 0.])
    """
    obj = si.CubicHermiteSpline(x, y, dydx, axis, extrapolate)
    build = CubicBuild(obj, y)
    return _rrule(si.CubicHermiteSpline, "cubichermitespline", obj, [x, y, dydx, axis, extrapolate], 1, 2,
                  _GivenSlopes(build), build)


@frule.register(si.CubicHermiteSpline)
def cubichermitespline_frule(tangents: Any, x: Any, y: Any, dydx: Any, axis: Any = 0, extrapolate: Any = None) -> Any:
    """Forward rule of the ``CubicHermiteSpline`` constructor.

    Examples
    --------
    >>> from chainrules import NoTangent
    >>> t = frule((NoTangent(), ZeroTangent(), np.ones(2), ZeroTangent()), si.CubicHermiteSpline,
    ...           np.array([0.0, 1.0]), np.zeros(2), np.zeros(2))[1]
    >>> t.c[:, 0]                                      # moving y by a constant moves the constant term
    array([0., 0., 0., 1.])
    """
    obj = si.CubicHermiteSpline(x, y, dydx, axis, extrapolate)
    build = CubicBuild(obj, y)
    return _frule(obj, build, _GivenSlopes(build), tangents, x, y, 1, (2, dydx))


# ---- CubicSpline --------------------------------------------------------------------------------------------
@rrule.register(si.CubicSpline)
def cubicspline_rrule(x: Any, y: Any, axis: Any = 0, bc_type: Any = "not-a-knot", extrapolate: Any = None) -> Any:
    """Reverse rule of the ``CubicSpline`` constructor: ``x``, ``y`` and the end values of ``bc_type``.

    The cotangent of a ``bc_type`` given by position is a ``Tangent(tuple, ...)`` of its
    structure (``NoTangent()`` for the strings and the orders).

    Examples
    --------
    >>> from chainrules import unthunk
    >>> x, y = np.array([0.0, 1.0, 2.0]), np.array([0.0, 1.0, 4.0])
    >>> obj, pullback = rrule(si.CubicSpline, x, y, 0, ((1, 0.0), (1, 4.0)))
    >>> cbar = np.zeros((4, 2)); cbar[2, 0] = 1.0            # c[2, 0] is the slope at x = 0: the given value
    >>> unthunk(pullback(Tangent(si.CubicSpline, c=cbar))[4])
    Tangent(tuple, Tangent(tuple, NoTangent(), 1.0), Tangent(tuple, NoTangent(), 0.0))
    """
    obj = si.CubicSpline(x, y, axis, bc_type, extrapolate)
    build = CubicBuild(obj, y)
    return _rrule(si.CubicSpline, "cubicspline", obj, [x, y, axis, bc_type, extrapolate], 1, 3,
                  _SplineSlopes(build, bc_type), build)


@frule.register(si.CubicSpline)
def cubicspline_frule(tangents: Any, x: Any, y: Any, axis: Any = 0, bc_type: Any = "not-a-knot",
                      extrapolate: Any = None) -> Any:
    """Forward rule of the ``CubicSpline`` constructor.

    Examples
    --------
    >>> from chainrules import NoTangent
    >>> x = np.array([0.0, 1.0, 2.0, 3.0])
    >>> t = frule((NoTangent(), ZeroTangent(), np.ones(4)), si.CubicSpline, x, x ** 2)[1]
    >>> np.round(t.c[:, 0], 12) + 0.0                  # a constant shift moves only the constant term
    array([0., 0., 0., 1.])
    """
    obj = si.CubicSpline(x, y, axis, bc_type, extrapolate)
    build = CubicBuild(obj, y)
    return _frule(obj, build, _SplineSlopes(build, bc_type), tangents, x, y, 1, (3, bc_type))


# ---- PCHIP and Akima ----------------------------------------------------------------------------------------
@rrule.register(si.PchipInterpolator)
def pchipinterpolator_rrule(x: Any, y: Any, axis: Any = 0, extrapolate: Any = None) -> Any:
    """Reverse rule of the ``PchipInterpolator`` constructor: the cotangents of ``x`` and ``y``.

    Examples
    --------
    >>> from chainrules import unthunk
    >>> obj, pullback = rrule(si.PchipInterpolator, np.array([0.0, 1.0, 2.0]), np.array([0.0, 1.0, 3.0]))
    >>> cbar = np.zeros((4, 2)); cbar[3, 1] = 1.0            # c[3, 1] = y[1]
    >>> unthunk(pullback(Tangent(si.PchipInterpolator, c=cbar))[2])
    array([0., 1., 0.])
    """
    obj = si.PchipInterpolator(x, y, axis, extrapolate)
    build = CubicBuild(obj, y)
    slopes = _LocalSlopes(build, pchip_slopes(build.x, build.y))
    return _rrule(si.PchipInterpolator, "pchipinterpolator", obj, [x, y, axis, extrapolate], 1, None, slopes, build)


@frule.register(si.PchipInterpolator)
def pchipinterpolator_frule(tangents: Any, x: Any, y: Any, axis: Any = 0, extrapolate: Any = None) -> Any:
    """Forward rule of the ``PchipInterpolator`` constructor.

    Examples
    --------
    >>> from chainrules import NoTangent
    >>> x = np.array([0.0, 1.0, 2.0])
    >>> frule((NoTangent(), ZeroTangent(), 2 * x), si.PchipInterpolator, x, x)[1].c[2]    # slopes scale with y
    array([2., 2.])
    """
    obj = si.PchipInterpolator(x, y, axis, extrapolate)
    build = CubicBuild(obj, y)
    slopes = _LocalSlopes(build, pchip_slopes(build.x, build.y))
    return _frule(obj, build, slopes, tangents, x, y, 1, None)


@rrule.register(si.Akima1DInterpolator)
def akima1dinterpolator_rrule(x: Any, y: Any, axis: Any = 0, *, method: str = "akima", extrapolate: Any = None) -> Any:
    """Reverse rule of the ``Akima1DInterpolator`` constructor (``method`` ``'akima'`` or ``'makima'``).

    Examples
    --------
    >>> from chainrules import unthunk
    >>> x = np.arange(5.0)
    >>> obj, pullback = rrule(si.Akima1DInterpolator, x, x, method="makima")
    >>> cbar = np.zeros((4, 4)); cbar[2, 2] = 1.0            # on a line, the slope at x = 2 is the mean of the
    >>> np.round(unthunk(pullback(Tangent(si.Akima1DInterpolator, c=cbar))[2]), 12) + 0.0   # secants around it
    array([ 0. , -0.5,  0. ,  0.5,  0. ])
    """
    obj = si.Akima1DInterpolator(x, y, axis, method=method, extrapolate=extrapolate)
    build = CubicBuild(obj, y)
    slopes = _LocalSlopes(build, akima_slopes(build.x, build.y, method))
    return _rrule(si.Akima1DInterpolator, "akima1dinterpolator", obj, [x, y, axis], 1, None, slopes, build)


@frule.register(si.Akima1DInterpolator)
def akima1dinterpolator_frule(tangents: Any, x: Any, y: Any, axis: Any = 0, *, method: str = "akima",
                              extrapolate: Any = None) -> Any:
    """Forward rule of the ``Akima1DInterpolator`` constructor.

    Examples
    --------
    >>> from chainrules import NoTangent
    >>> x = np.arange(4.0)
    >>> frule((NoTangent(), ZeroTangent(), x), si.Akima1DInterpolator, x, x)[1].c[2]   # a line: slopes 1
    array([1., 1., 1.])
    """
    obj = si.Akima1DInterpolator(x, y, axis, method=method, extrapolate=extrapolate)
    build = CubicBuild(obj, y)
    slopes = _LocalSlopes(build, akima_slopes(build.x, build.y, method))
    return _frule(obj, build, slopes, tangents, x, y, 1, None)


# ---- pchip_interpolate ----------------------------------------------------------------------------------------
def _pchip_call(xi: Any, yi: Any, x: Any, der: Any, axis: Any) -> tuple[Any, CubicBuild, _LocalSlopes, list[Any]]:
    obj = si.PchipInterpolator(xi, yi, axis=axis)
    build = CubicBuild(obj, yi)
    slopes = _LocalSlopes(build, pchip_slopes(build.x, build.y))
    orders = list(der) if np.ndim(der) else [der]
    calls = [PPolyCall(obj, x, int(nu), None) for nu in orders]
    return obj, build, slopes, calls


@rrule.register(si.pchip_interpolate)
def pchip_interpolate_rrule(xi: Any, yi: Any, x: Any, der: Any = 0, axis: Any = 0) -> Any:
    """Reverse rule of ``pchip_interpolate``: the sites ``xi``, the values ``yi`` and the points ``x``.

    ``der`` a list gives a list of outputs (one per order), as SciPy does.

    Examples
    --------
    >>> from chainrules import unthunk
    >>> xi = np.array([0.0, 1.0, 2.0])
    >>> y, pullback = rrule(si.pchip_interpolate, xi, 2 * xi, np.array([0.5]))
    >>> y, unthunk(pullback(np.ones(1))[3])            # the line y = 2 x: slope 2 at the point
    (array([1.]), array([2.]))
    """
    _, build, slopes, calls = _pchip_call(xi, yi, x, der, axis)
    outputs = [call.y for call in calls]
    y: Any = outputs if np.ndim(der) else outputs[0]
    projectors = [cotangent_projector(v) for v in (xi, yi, x)]

    def pchip_interpolate_pullback(dy: Any) -> tuple[Any, ...]:
        if np.ndim(der):
            read = read_cotangents(dy, outputs, si.pchip_interpolate)
        else:
            read = read_cotangent(dy, outputs[0], si.pchip_interpolate)
            read = read if passes_through(read) else [read]
        if passes_through(read):
            zero = passed_on(read)
            return (NoTangent(), *(p(zero) for p in projectors), NoTangent(), NoTangent())
        missing = [r for r in read if isinstance(r, NotImplementedTangent)]
        live = [(np.asarray(r), call) for r, call in zip(read, calls) if r is not None and not missing]
        if missing or not live:
            zero = missing[0] if missing else ZeroTangent()
            return (NoTangent(), *(p(zero) for p in projectors), NoTangent(), NoTangent())

        def total() -> dict[str, Any]:
            objects = [call.object_cotangent(r) for r, call in live]
            cbar = sum(np.asarray(t.c) for t in objects)
            xbar_obj = sum(np.asarray(t.x) for t in objects)
            xb, yb, dbar = build.transpose(cbar)
            xs, ys, _ = slopes.transpose(dbar)
            return {"xi": xbar_obj + xb + xs, "yi": build.user(yb + ys),
                    "x": sum(call.point_cotangent(r) for r, call in live)}

        memo: dict[str, Any] = {}

        def part(key: str) -> Callable[[], Any]:
            def compute() -> Any:
                if not memo:
                    memo.update(total())
                return memo[key]

            return compute

        return (NoTangent(), lazy_cotangent(projectors[0], part("xi")), lazy_cotangent(projectors[1], part("yi")),
                lazy_cotangent(projectors[2], part("x")), NoTangent(), NoTangent())

    return y, pchip_interpolate_pullback


@frule.register(si.pchip_interpolate)
def pchip_interpolate_frule(tangents: Any, xi: Any, yi: Any, x: Any, der: Any = 0, axis: Any = 0) -> Any:
    """Forward rule of ``pchip_interpolate``.

    Examples
    --------
    >>> from chainrules import NoTangent
    >>> xi = np.array([0.0, 1.0, 2.0])
    >>> frule((NoTangent(), ZeroTangent(), ZeroTangent(), np.ones(1)), si.pchip_interpolate, xi, 2 * xi,
    ...       np.array([0.5]))[1]
    array([2.])
    """
    _, build, slopes, calls = _pchip_call(xi, yi, x, der, axis)
    outputs = [call.y for call in calls]
    y: Any = outputs if np.ndim(der) else outputs[0]
    dxi, dyi, dq = (tangent_array(t, v) for t, v in zip(tangents[1:4], (xi, yi, x)))
    for t in (dxi, dyi, dq):
        if isinstance(t, NotImplementedTangent):
            return y, t
    dxi = None if dxi is None else np.asarray(dxi, dtype=np.float64)
    dy_stored = None if dyi is None else build.stored(dyi)
    dd = slopes.tangent(dxi, dy_stored, None)
    dc = build.tangent(dxi, dy_stored, dd)
    dobject = None if dc is None and dxi is None else {"c": dc, "x": dxi}
    results = [output_tangent(call.tangent(dobject, dq), call.y) for call in calls]
    if not np.ndim(der):
        return y, results[0]
    return y, Tangent(list, *results) if any(not isinstance(r, ZeroTangent) for r in results) else ZeroTangent()


# ---- sample inputs ----------------------------------------------------------------------------------------------
_X = np.array([0.0, 0.7, 1.5, 2.6, 3.2])
"""Sites more than twice the finite differences' reach apart."""


def _wavy(rng: np.random.Generator, shape: tuple[int, ...] = ()) -> np.ndarray:
    return np.sin(1.3 * _X).reshape((5,) + (1,) * len(shape)) + 0.3 * rng.standard_normal((5,) + shape)


@sample_inputs(si.CubicHermiteSpline)
def _hermite_samples(rng: np.random.Generator) -> list[Sample]:
    y, d = _wavy(rng), rng.standard_normal(5)
    return [Sample(_X, y, d, label="values and slopes"),
            Sample(_X, _wavy(rng, (2,)).T.copy(), rng.standard_normal((2, 5)), 1, label="axis=1 by position"),
            Sample(_X, y, d, fkwargs={"axis": -1, "extrapolate": False}, label="keywords"),
            Sample(_X.astype(np.float32), y.astype(np.float32), d.astype(np.float32), label="float32"),
            Sample(_X, y + 1j * rng.standard_normal(5), d, label="complex values")]


@sample_inputs(si.CubicSpline)
def _spline_samples(rng: np.random.Generator) -> list[Sample]:
    y = _wavy(rng)
    # bc_type='periodic' needs y[0] == y[-1], which finite differences of y break: tested in
    # tests/chainrules/rulesets/interpolate/test_cubic.py along tangents keeping it.
    return [Sample(_X, y, label="not-a-knot"),
            Sample(_X, _wavy(rng, (2,)).T.copy(), 1, label="axis=1 by position"),
            Sample(_X, y, 0, "natural", label="natural by position"),
            Sample(_X, y, fkwargs={"bc_type": "clamped"}, label="clamped by keyword"),
            Sample(_X, y, 0, ((1, 0.4), (2, -0.7)), label="first and second derivatives given, by position"),
            Sample(_X, _wavy(rng, (2,)), 0, ((2, np.array([0.3, -0.2])), "not-a-knot"),
                   label="vector values: a second derivative and not-a-knot"),
            Sample(_X[:3], y[:3], label="three points: the parabola"),
            Sample(_X[:2], y[:2], label="two points: the line"),
            Sample(_X.astype(np.float32), y.astype(np.float32), label="float32"),
            Sample(_X, y + 1j * rng.standard_normal(5), label="complex values")]


@sample_inputs(si.PchipInterpolator)
def _pchip_samples(rng: np.random.Generator) -> list[Sample]:
    monotone = np.array([0.0, 0.4, 1.5, 1.7, 2.9])
    wiggly = np.array([0.0, 1.0, 0.3, 0.9, -0.4])
    ends = np.array([0.0, 1.0, 1.05, 0.2, -0.5])  # the end slopes are clipped / zeroed
    return [Sample(_X, monotone, label="monotone"), Sample(_X, wiggly, label="turning: zero slopes"),
            Sample(_X, ends, label="end slopes clipped"),
            Sample(_X, np.stack([monotone, wiggly], 1), 0, False,
                   label="two columns, axis and extrapolate by position"),
            Sample(_X, np.stack([monotone, wiggly]), fkwargs={"axis": 1}, label="axis=1 by keyword"),
            Sample(_X[:2], monotone[:2], label="two points"),
            Sample(_X.astype(np.float32), monotone.astype(np.float32), label="float32")]


@sample_inputs(si.Akima1DInterpolator)
def _akima_samples(rng: np.random.Generator) -> list[Sample]:
    y = _wavy(rng)
    return [Sample(_X, y, label="akima"), Sample(_X, y, fkwargs={"method": "makima"}, label="makima"),
            Sample(_X, _wavy(rng, (2,)).T.copy(), 1, fkwargs={"extrapolate": True}, label="axis=1 by position"),
            Sample(_X[:2], y[:2], label="two points"),
            Sample(_X.astype(np.float32), y.astype(np.float32), fkwargs={"method": "makima"}, label="float32")]


@sample_inputs(si.pchip_interpolate)
def _pchip_interpolate_samples(rng: np.random.Generator) -> list[Sample]:
    y = np.array([0.0, 0.4, 1.5, 1.7, 2.9])
    q = np.array([-0.3, 0.35, 1.1, 2.0, 2.9, 3.5])
    return [Sample(_X, y, q, label="values"), Sample(_X, y, q, 1, label="first derivative by position"),
            Sample(_X, np.stack([y, y[::-1]]), q[1:4], fkwargs={"axis": 1, "der": 2}, label="axis=1, der=2 by keyword"),
            Sample(_X, y, q, [0, 1], label="a list of orders: a list of outputs"),
            Sample(_X.astype(np.float32), y.astype(np.float32), q.astype(np.float32), label="float32")]
