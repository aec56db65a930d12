"""``scipy.interpolate.BSpline``: the constructor, calling it (``b(x, nu, extrapolate)``), and the
methods ``derivative``, ``antiderivative`` and ``integrate``; with respect to the knots ``t``, the
coefficients ``c``, the points and the integration bounds. The rules serve the objects that
``make_interp_spline``, ``make_lsq_spline`` and ``make_smoothing_spline`` return.

The maths
---------
See :mod:`._bspline`: the value is linear in ``c`` (the B-spline basis at the point), its
derivative in the point is ``s^(nu+1)``, in the knots it is the forward-mode derivative of
the Cox-de Boor recursion (the ``2k`` knots around the point's interval);
``derivative``/``antiderivative`` are SciPy's explicit knot and coefficient maps, and
``integrate`` a signed sum of antiderivative values.

The knot interval a point falls in is piecewise constant (at a knot, the interval to the
right, the last one closed). Without extrapolation a point outside the base interval
``[t_k, t_n]`` gives NaN and no derivative; with ``'periodic'`` the point is wrapped, and the
derivative in ``t_k``, ``t_n`` counts the turns. Coefficients beyond the first
``len(t) - k - 1`` (FITPACK's padding) never enter the value: their cotangent is zero. The
object's tangent is ``Tangent(BSpline, t=dt, c=dc)`` with ``c`` in the stored layout (``b.c``,
the interpolation axis first); the constructor's rules move it back to the layout of its
argument.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.interpolate as si

from chainrules.rulesets.arrays._linear_maps import output_tangent, tangent_array
from chainrules.rulesets.interpolate._bspline import (
    AntiderivativeStep,
    BSplineIntegral,
    DerivativeStep,
    PadStep,
    SplineEval,
)
from chainrules.rulesets.interpolate._object_calls import PointsAlongAxis, object_call_frule, object_call_rrule
from chainrules.rulesets.interpolate._objects import object_fields, object_tangent, read_object
from chainrules.rulesets.reductions._registration import name_pullback
from chainrules.rulesets.reductions._tangent_values import passed_on, tangent_value
from chainrules_core import (
    NoTangent,
    NotImplementedTangent,
    ProjectTo,
    Sample,
    Tangent,
    ZeroTangent,
    cotangent_projector,
    frule,
    passes_through,
    read_cotangent,
    rrule,
    sample_inputs,
)

__all__ = ["BSplineCall", "call_mode"]


def call_mode(extrapolate: Any) -> str:
    """The :class:`._bspline.SplineEval` mode of a ``BSpline``'s ``extrapolate``.

    Examples
    --------
    >>> call_mode(True), call_mode(False), call_mode("periodic")
    ('extrapolate', 'nan', 'periodic')
    """
    if extrapolate == "periodic":
        return "periodic"
    return "extrapolate" if extrapolate else "nan"


# ---- the constructor ----------------------------------------------------------------------------------
@rrule.register(si.BSpline)
def bspline_rrule(t: Any, c: Any, k: Any, extrapolate: Any = True, axis: Any = 0) -> Any:
    """Reverse rule of the ``BSpline`` constructor: the cotangents of ``t`` and ``c`` from the object's.

    Examples
    --------
    >>> from chainrules import unthunk
    >>> b, pullback = rrule(si.BSpline, np.array([0.0, 0.0, 1.0, 1.0]), np.array([1.0, 3.0]), 1)
    >>> unthunk(pullback(Tangent(si.BSpline, c=np.array([2.0, 0.0])))[2])
    array([2., 0.])
    """
    y = si.BSpline(t, c, k, extrapolate, axis)
    project_t, project_c = cotangent_projector(t), cotangent_projector(c)

    def bspline_pullback(dy: Any) -> tuple[Any, ...]:
        read = read_object(dy, y, si.BSpline)
        if passes_through(read):
            zero = passed_on(read)
            return NoTangent(), project_t(zero), project_c(zero), NoTangent(), NoTangent(), NoTangent()
        dt = ZeroTangent() if read["t"] is None else read["t"].copy()
        dc = ZeroTangent() if read["c"] is None else np.moveaxis(read["c"], 0, y.axis).copy()
        return NoTangent(), project_t(dt), project_c(dc), NoTangent(), NoTangent(), NoTangent()

    return y, bspline_pullback


@frule.register(si.BSpline)
def bspline_frule(tangents: Any, t: Any, c: Any, k: Any, extrapolate: Any = True, axis: Any = 0) -> Any:
    """Forward rule of the ``BSpline`` constructor: ``Tangent(BSpline, t=dt, c=dc)`` (``c`` in the stored layout).

    Examples
    --------
    >>> from chainrules import NoTangent
    >>> frule((NoTangent(), ZeroTangent(), np.array([1.0, 0.0]), NoTangent()), si.BSpline,
    ...       np.array([0.0, 0.0, 1.0, 1.0]), np.array([1.0, 3.0]), 1)[1]
    Tangent(BSpline, t=ZeroTangent(), c=array([1., 0.]))
    """
    y = si.BSpline(t, c, k, extrapolate, axis)
    dt, dc = tangent_array(tangents[1], t), tangent_array(tangents[2], c)
    for d in (dt, dc):
        if isinstance(d, NotImplementedTangent):
            return y, d
    dc_stored = None if dc is None else np.moveaxis(np.asarray(dc), y.axis, 0)
    return y, object_tangent(y, {"t": dt, "c": dc_stored})


# ---- calling a BSpline ------------------------------------------------------------------------------------
class BSplineCall(PointsAlongAxis):
    """One call ``b(q, nu, extrapolate)``: its output and derivatives.

    Examples
    --------
    >>> b = si.BSpline(np.array([0.0, 0.0, 1.0, 1.0]), np.array([1.0, 3.0]), 1)   # 1 + 2 q
    >>> call = BSplineCall(b, np.array([0.25]), 0, None)
    >>> call.y, call.point_cotangent(np.ones(1))
    (array([1.5]), array([2.]))
    """

    def __init__(self, b: Any, q: Any, nu: Any, extrapolate: Any) -> None:
        self.b, self.nu = b, int(nu)
        q_array = np.asarray(q)
        self.q_shape, self.q_ndim = q_array.shape, q_array.ndim
        self.axis, self.npoints = int(b.axis), q_array.size
        c = np.asarray(b.c)
        self.c_shape, self.trailing = c.shape, c.shape[1:]
        ext = b.extrapolate if extrapolate is None else extrapolate
        self.y = b(q, nu, extrapolate)
        self.eval = SplineEval(np.asarray(b.t), c.reshape(c.shape[0], -1), b.k, q_array.ravel(), self.nu,
                               call_mode(ext))


    def point_cotangent(self, dy: Any) -> np.ndarray:
        _, _, qbar = self.eval.transpose(self._in(dy), want_t=False, want_c=False)
        return qbar.reshape(self.q_shape)

    def object_cotangent(self, dy: Any) -> Any:
        tbar, cbar, _ = self.eval.transpose(self._in(dy), want_q=False)
        return Tangent(type(self.b), t=tbar, c=cbar.reshape(self.c_shape))

    def tangent(self, dobject: Any, dq: Any) -> Any:
        dt = None if dobject is None else dobject.get("t")
        dc = None if dobject is None else dobject.get("c")
        total = self.eval.tangent(dt, None if dc is None else dc.reshape(self.eval.c.shape), dq)
        return None if total is None else self._out(total)


def _call_rules(b: Any, x: Any, nu: Any, extrapolate: Any, method: bool) -> Any:
    return object_call_rrule(BSplineCall(b, x, nu, extrapolate), b, x, "scipy.interpolate.BSpline.__call__",
                             "bspline", method, constants=2)


def _call_frule(tangents: Any, b: Any, x: Any, nu: Any, extrapolate: Any, position: int) -> Any:
    return object_call_frule(BSplineCall(b, x, nu, extrapolate), tangents, b, x, position)


@rrule.register_functor(si.BSpline)
def bspline_call_rrule(b: Any, x: Any, nu: Any = 0, extrapolate: Any = None) -> Any:
    """Reverse rule of calling a ``BSpline``: the knots, the coefficients and the points.

    Examples
    --------
    >>> from chainrules import unthunk
    >>> b = si.BSpline(np.array([0.0, 0.0, 1.0, 1.0]), np.array([1.0, 3.0]), 1)
    >>> y, pullback = rrule(b, np.array([0.25]))
    >>> db, dx = (unthunk(c) for c in pullback(np.ones(1))[:2])
    >>> db.c, dx                                       # the hat functions 0.75, 0.25; the slope 2
    (array([0.75, 0.25]), array([2.]))
    """
    return _call_rules(b, x, nu, extrapolate, method=False)


@frule.register_functor(si.BSpline)
def bspline_call_frule(tangents: Any, b: Any, x: Any, nu: Any = 0, extrapolate: Any = None) -> Any:
    """Forward rule of calling a ``BSpline``.

    Examples
    --------
    >>> b = si.BSpline(np.array([0.0, 0.0, 1.0, 1.0]), np.array([1.0, 3.0]), 1)
    >>> frule((ZeroTangent(), np.array([1.0])), b, np.array([0.25]))[1]
    array([2.])
    """
    return _call_frule(tangents, b, x, nu, extrapolate, 0)


@rrule.register(si.BSpline.__call__, si.BSpline)
def bspline_method_call_rrule(self: Any, x: Any, nu: Any = 0, extrapolate: Any = None) -> Any:
    """Reverse rule of ``BSpline.__call__``.

    Examples
    --------
    >>> from chainrules import unthunk
    >>> b = si.BSpline(np.array([0.0, 0.0, 1.0, 1.0]), np.array([1.0, 3.0]), 1)
    >>> unthunk(rrule(b.__call__, np.array([0.25]))[1](np.ones(1))[2])
    array([2.])
    """
    return _call_rules(self, x, nu, extrapolate, method=True)


@frule.register(si.BSpline.__call__, si.BSpline)
def bspline_method_call_frule(tangents: Any, self: Any, x: Any, nu: Any = 0, extrapolate: Any = None) -> Any:
    """Forward rule of ``BSpline.__call__``.

    Examples
    --------
    >>> from chainrules import NoTangent
    >>> b = si.BSpline(np.array([0.0, 0.0, 1.0, 1.0]), np.array([1.0, 3.0]), 1)
    >>> frule((NoTangent(), ZeroTangent(), np.array([1.0])), si.BSpline.__call__, b, np.array([0.25]))[1]
    array([2.])
    """
    return _call_frule(tangents, self, x, nu, extrapolate, 1)


# ---- derivative and antiderivative ----------------------------------------------------------------------
def _steps(b: Any, nu: int) -> list[Any]:
    """The chain of ``splder`` (``nu > 0``) or ``splantider`` (``nu < 0``) steps from ``b``."""
    t = np.asarray(b.t, dtype=np.float64)
    c = np.asarray(b.c)
    c = c.reshape(c.shape[0], -1)
    k = int(b.k)
    steps: list[Any] = [PadStep(t, c)] if nu == 0 else []
    for _ in range(abs(nu)):
        step = DerivativeStep(t, c, k) if nu > 0 else AntiderivativeStep(t, c, k)
        steps.append(step)
        t, c, k = step.t, step.c, k - 1 if nu > 0 else k + 1
    return steps


def _chain_tangent(steps: list[Any], fields: dict[str, Any], b: Any) -> tuple[Any, Any]:
    dt = fields["t"]
    dc = None if fields["c"] is None else fields["c"].reshape(np.shape(b.c)[0], -1)
    for step in steps:
        if dt is None and dc is None:
            break
        dt, dc = step.tangent(dt, dc)
    return dt, dc


def _chain_transpose(steps: list[Any], tbar: Any, cbar: Any, b: Any) -> tuple[np.ndarray, np.ndarray]:
    for step in reversed(steps):
        tbar, cbar = step.transpose(tbar, cbar)
    if not steps:
        tbar = np.zeros(np.shape(b.t)) if tbar is None else tbar
    return tbar, cbar


def _derivative_rules(self: Any, nu: int, name: Any, label: str) -> Any:
    y = self.derivative(nu) if nu >= 0 else self.antiderivative(-nu)
    steps = _steps(self, nu)
    project_self = ProjectTo(self)
    c_shape = np.shape(self.c)

    def pullback(dy: Any) -> tuple[Any, ...]:
        read = read_object(dy, y, name)
        if passes_through(read):
            return NoTangent(), project_self(passed_on(read)), NoTangent()
        cbar = np.zeros((np.shape(y.c)[0], int(np.prod(c_shape[1:], dtype=int))), dtype=np.asarray(y.c).dtype) \
            if read["c"] is None else read["c"].reshape(np.shape(y.c)[0], -1)
        tbar, cbar = _chain_transpose(steps, read["t"], cbar, self)
        return NoTangent(), project_self(Tangent(type(self), t=tbar, c=cbar.reshape(c_shape))), NoTangent()

    return y, name_pullback(pullback, label)


def _derivative_frule(tangents: Any, self: Any, nu: int) -> Any:
    y = self.derivative(nu) if nu >= 0 else self.antiderivative(-nu)
    fields = object_fields(tangents[1], self)
    if fields is None or isinstance(fields, NotImplementedTangent):
        return y, ZeroTangent() if fields is None else fields
    dt, dc = _chain_tangent(_steps(self, nu), fields, self)
    if dc is not None:
        dc = dc.reshape(np.shape(y.c))
    return y, object_tangent(y, {"t": dt, "c": dc})


@rrule.register(si.BSpline.derivative, si.BSpline)
def bspline_derivative_rrule(self: Any, nu: Any = 1) -> Any:
    """Reverse rule of ``BSpline.derivative``: through ``splder``'s explicit knot and coefficient map.

    Examples
    --------
    >>> from chainrules import unthunk
    >>> b = si.BSpline(np.array([0.0, 0.0, 1.0, 1.0]), np.array([1.0, 3.0]), 1)   # 1 + 2 q
    >>> d, pullback = rrule(b.derivative)
    >>> d.c, unthunk(pullback(Tangent(si.BSpline, c=np.array([1.0, 0.0])))[1]).c
    (array([2., 0.]), array([-1.,  1.]))
    """
    return _derivative_rules(self, int(nu), si.BSpline.derivative, "bspline_derivative")


@frule.register(si.BSpline.derivative, si.BSpline)
def bspline_derivative_frule(tangents: Any, self: Any, nu: Any = 1) -> Any:
    """Forward rule of ``BSpline.derivative``.

    Examples
    --------
    >>> from chainrules import NoTangent
    >>> b = si.BSpline(np.array([0.0, 0.0, 1.0, 1.0]), np.array([1.0, 3.0]), 1)
    >>> frule((NoTangent(), Tangent(si.BSpline, c=np.array([0.0, 1.0]))), b.derivative)[1].c
    array([1., 0.])
    """
    return _derivative_frule(tangents, self, int(nu))


@rrule.register(si.BSpline.antiderivative, si.BSpline)
def bspline_antiderivative_rrule(self: Any, nu: Any = 1) -> Any:
    """Reverse rule of ``BSpline.antiderivative``: through ``splantider``'s explicit map.

    Examples
    --------
    >>> from chainrules import unthunk
    >>> b = si.BSpline(np.array([0.0, 1.0]), np.array([2.0]), 0)                    # the constant 2
    >>> a, pullback = rrule(b.antiderivative)
    >>> a.c, unthunk(pullback(Tangent(si.BSpline, c=np.array([0.0, 1.0, 0.0, 0.0])))[1]).c
    (array([0., 2., 2., 2.]), array([1.]))
    """
    return _derivative_rules(self, -int(nu), si.BSpline.antiderivative, "bspline_antiderivative")


@frule.register(si.BSpline.antiderivative, si.BSpline)
def bspline_antiderivative_frule(tangents: Any, self: Any, nu: Any = 1) -> Any:
    """Forward rule of ``BSpline.antiderivative``.

    Examples
    --------
    >>> from chainrules import NoTangent
    >>> b = si.BSpline(np.array([0.0, 1.0]), np.array([2.0]), 0)
    >>> frule((NoTangent(), Tangent(si.BSpline, c=np.array([1.0]))), b.antiderivative)[1].c
    array([0., 1., 1., 1.])
    """
    return _derivative_frule(tangents, self, -int(nu))


# ---- integrate --------------------------------------------------------------------------------------------
def _integral(self: Any, a: Any, b: Any, extrapolate: Any) -> BSplineIntegral:
    ext = self.extrapolate if extrapolate is None else extrapolate
    c = np.asarray(self.c)
    return BSplineIntegral(np.asarray(self.t), c.reshape(c.shape[0], -1), self.k, a, b, ext)


@rrule.register(si.BSpline.integrate, si.BSpline)
def bspline_integrate_rrule(self: Any, a: Any, b: Any, extrapolate: Any = None) -> Any:
    """Reverse rule of ``BSpline.integrate``: the knots, the coefficients and the bounds.

    Examples
    --------
    >>> from chainrules import unthunk
    >>> s = si.BSpline(np.array([0.0, 0.0, 1.0, 1.0]), np.array([1.0, 3.0]), 1)   # 1 + 2 q
    >>> y, pullback = rrule(s.integrate, 0.0, 0.5)
    >>> y, [unthunk(d) for d in pullback(1.0)[2:4]]   # d/da = -s(a), d/db = s(b)
    (array(0.75), [-1.0, 2.0])
    """
    y = self.integrate(a, b, extrapolate)
    integral = _integral(self, a, b, extrapolate)
    project_self, project_a, project_b = ProjectTo(self), cotangent_projector(a), cotangent_projector(b)
    c_shape = np.shape(self.c)

    def bspline_integrate_pullback(dy: Any) -> tuple[Any, ...]:
        dy = read_cotangent(dy, y, si.BSpline.integrate)
        if passes_through(dy):
            zero = passed_on(dy)
            return NoTangent(), project_self(zero), project_a(zero), project_b(zero), NoTangent()
        tbar, cbar, abar, bbar = integral.transpose(np.asarray(dy).reshape(-1))
        return (NoTangent(), project_self(Tangent(type(self), t=tbar, c=cbar.reshape(c_shape))), project_a(abar),
                project_b(bbar), NoTangent())

    return y, bspline_integrate_pullback


@frule.register(si.BSpline.integrate, si.BSpline)
def bspline_integrate_frule(tangents: Any, self: Any, a: Any, b: Any, extrapolate: Any = None) -> Any:
    """Forward rule of ``BSpline.integrate``.

    Examples
    --------
    >>> from chainrules import NoTangent
    >>> s = si.BSpline(np.array([0.0, 0.0, 1.0, 1.0]), np.array([1.0, 3.0]), 1)
    >>> frule((NoTangent(), ZeroTangent(), 1.0, 1.0), s.integrate, 0.0, 0.5)[1]     # s(b) - s(a)
    array(1.)
    """
    y = self.integrate(a, b, extrapolate)
    fields = object_fields(tangents[1], self)
    da, db = tangent_value(tangents[2]), tangent_value(tangents[3])
    for t in (fields, da, db):
        if isinstance(t, NotImplementedTangent):
            return y, t
    if fields is None and da is None and db is None:
        return y, output_tangent(None, y)
    integral = _integral(self, a, b, extrapolate)
    dt = None if fields is None else fields["t"]
    dc = None if fields is None or fields["c"] is None else fields["c"].reshape(np.shape(self.c)[0], -1)
    return y, output_tangent(integral.tangent(dt, dc, da, db).reshape(np.shape(y)), y)


# ---- sample inputs ----------------------------------------------------------------------------------
_T = np.array([-0.9, -0.5, -0.2, 0.0, 0.8, 1.7, 3.0, 3.3, 3.6, 4.0])
"""Distinct knots (k = 3: base interval [0, 3]) more than twice the finite differences' reach apart."""
_CLAMPED = np.array([0.0, 0.0, 0.0, 0.0, 0.8, 1.7, 3.0, 3.0, 3.0, 3.0])
"""Clamped ends (repeated knots): the objects ``make_interp_spline`` returns."""
_Q = np.array([-0.4, 0.35, 1.2, 2.1, 2.9, 3.4])


def _bspline(rng: np.random.Generator, trailing: tuple[int, ...] = (), **kwargs: Any) -> Any:
    return si.BSpline(_T, rng.standard_normal((6,) + trailing), 3, **kwargs)


@sample_inputs(si.BSpline)
def _bspline_samples(rng: np.random.Generator) -> list[Sample]:
    c = rng.standard_normal(6)
    return [Sample(_T, c, 3, label="cubic"), Sample(_T, c, 3, False, label="extrapolate by position"),
            Sample(_T, rng.standard_normal((2, 6, 2)), 3, fkwargs={"axis": 1, "extrapolate": "periodic"},
                   label="axis=1, periodic, by keyword"),
            Sample(_T.astype(np.float32), c.astype(np.float32), 3, label="float32"),
            Sample(_T, c + 1j * rng.standard_normal(6), 3, label="complex coefficients")]


@sample_inputs(si.BSpline.__call__)
def _call_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(_bspline(rng), _Q, label="points below, inside and above"),
            Sample(_bspline(rng), _Q, 1, label="first derivative (nu by position)"),
            Sample(_bspline(rng), _Q[1:5], fkwargs={"nu": 2, "extrapolate": False}, label="nu=2, no extrapolation"),
            Sample(_bspline(rng, extrapolate="periodic"), np.array([-2.3, 0.4, 4.1, 7.8]),
                   label="periodic, several turns"),
            Sample(_bspline(rng, (2,)), _Q.reshape(2, 3), label="2-d points, vector values"),
            Sample(si.BSpline(_T, rng.standard_normal((2, 6)), 3, axis=1), _Q, label="axis=1"),
            Sample(si.BSpline(_CLAMPED, rng.standard_normal(6), 3), _Q[1:5], label="clamped (repeated) end knots"),
            Sample(si.BSpline(_T[2:-2], rng.standard_normal(4), 1), _Q, label="linear (k=1)"),
            Sample(si.BSpline(_T[3:-3], rng.standard_normal(3), 0), _Q[1:5], label="piecewise constant (k=0)"),
            Sample(si.BSpline(_T, rng.standard_normal(6) + 1j * rng.standard_normal(6), 3), _Q,
                   label="complex coefficients"),
            Sample(_bspline(rng), 1.2, label="a scalar point")]


@sample_inputs(si.BSpline.derivative)
def _derivative_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(_bspline(rng), label="nu = 1"), Sample(_bspline(rng, (2,)), 2, label="nu = 2, vector values"),
            Sample(_bspline(rng), 0, label="nu = 0"), Sample(_bspline(rng), -1, label="nu = -1 (an antiderivative)"),
            Sample(si.BSpline(_T, rng.standard_normal(8), 3), label="padded coefficients (FITPACK's convention)")]


@sample_inputs(si.BSpline.antiderivative)
def _antiderivative_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(_bspline(rng), label="nu = 1"), Sample(_bspline(rng, (2,)), 2, label="nu = 2, vector values"),
            Sample(_bspline(rng, extrapolate="periodic"), label="periodic (the result does not extrapolate)"),
            Sample(_bspline(rng), -2, label="nu = -2 (a second derivative)")]


@sample_inputs(si.BSpline.integrate)
def _integrate_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(_bspline(rng), 0.3, 2.4, label="inside"), Sample(_bspline(rng), 2.6, -0.5, label="swapped, beyond"),
            Sample(_bspline(rng, (2,)), -0.3, 3.4, False, label="no extrapolation (clipped), vector values"),
            Sample(_bspline(rng, extrapolate="periodic"), -2.5, 7.3, label="periodic, several periods"),
            Sample(_bspline(rng), 0.5, 1.4, fkwargs={"extrapolate": True}, label="by keyword")]
