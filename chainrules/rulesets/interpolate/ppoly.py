"""``scipy.interpolate.PPoly``: the constructor, calling it (``p(x, nu, extrapolate)``), and the methods
``derivative``, ``antiderivative`` and ``integrate``; with respect to the coefficients ``c``, the
breakpoints ``x``, the points and the integration bounds. The rules serve every subclass
(``CubicSpline``, ``CubicHermiteSpline``, ``PchipInterpolator``, ``Akima1DInterpolator``): their
objects are ``PPoly`` s.

The maths
---------
See :mod:`._piecewise`: on interval ``i``, ``p(q) = sum_m c[m, i] (q - x_i)^(K-1-m)``, so the value
is linear in ``c``, its derivative in the point is ``p'``, in the left breakpoint of the
interval ``-p'``; ``derivative(nu)`` multiplies rows of ``c`` by rising factorials;
``antiderivative(nu)`` divides them and adds integration constants by a continuity recursion
over the intervals (differentiated exactly); ``integrate(a, b)`` is a sum of antiderivative
differences, with ``d/db = p(b)`` and ``d/da = -p(a)``.

The interval a point falls in is piecewise constant: at a breakpoint the derivative is that
of the interval SciPy picks (the one to the right; the last is closed). Where SciPy returns
NaN (outside the breakpoints without extrapolation) there is no derivative: zero. The
object's tangent is ``Tangent(PPoly, c=dc, x=dx)`` with ``c`` in SciPy's stored layout
(``p.c``: the interpolation axis moved to the front); the constructor's rules move it back to
the layout of its argument.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.interpolate as si

from chainrules.rulesets.arrays._linear_maps import output_tangent, tangent_array
from chainrules.rulesets.interpolate._object_calls import PointsAlongAxis, object_call_frule, object_call_rrule
from chainrules.rulesets.interpolate._objects import object_fields, object_tangent, read_object
from chainrules.rulesets.interpolate._piecewise import (
    Integral,
    Located,
    antiderivative_tangent,
    antiderivative_transpose,
    coefficient_cotangent,
    evaluate,
    slope,
)
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

__all__ = ["PPolyCall", "stored_layout", "user_layout"]


def stored_layout(c: np.ndarray, axis: int) -> np.ndarray:
    """``c`` as ``PPoly`` stores it: the order and interval axes (at ``axis``, ``axis + 1``) moved to the front."""
    if axis == 0:
        return c
    return np.moveaxis(np.moveaxis(c, axis + 1, 0), axis + 1, 0)


def user_layout(c: np.ndarray, axis: int) -> np.ndarray:
    """The inverse of :func:`stored_layout`.

    Examples
    --------
    >>> c = np.zeros((2, 3, 4, 5))
    >>> user_layout(stored_layout(c, 1), 1).shape
    (2, 3, 4, 5)
    """
    if axis == 0:
        return c
    return np.moveaxis(np.moveaxis(c, 0, axis + 1), 0, axis + 1)


# ---- the constructor ----------------------------------------------------------------------------------
@rrule.register(si.PPoly)
def ppoly_rrule(c: Any, x: Any, extrapolate: Any = None, axis: Any = 0) -> Any:
    """Reverse rule of the ``PPoly`` constructor: the cotangents of ``c`` and ``x`` from the object's.

    Examples
    --------
    >>> from chainrules import Tangent, unthunk
    >>> p, pullback = rrule(si.PPoly, np.ones((2, 1)), np.array([0.0, 1.0]))
    >>> unthunk(pullback(Tangent(si.PPoly, c=np.array([[1.0], [2.0]])))[1])
    array([[1.],
           [2.]])
    """
    y = si.PPoly(c, x, extrapolate, axis)
    project_c, project_x = cotangent_projector(c), cotangent_projector(x)

    def ppoly_pullback(dy: Any) -> tuple[Any, ...]:
        read = read_object(dy, y, si.PPoly)
        if passes_through(read):
            zero = passed_on(read)
            return NoTangent(), project_c(zero), project_x(zero), NoTangent(), NoTangent()
        dc = ZeroTangent() if read["c"] is None else user_layout(read["c"], int(axis)).copy()
        dx = ZeroTangent() if read["x"] is None else read["x"].copy()
        return NoTangent(), project_c(dc), project_x(dx), NoTangent(), NoTangent()

    return y, ppoly_pullback


@frule.register(si.PPoly)
def ppoly_frule(tangents: Any, c: Any, x: Any, extrapolate: Any = None, axis: Any = 0) -> Any:
    """Forward rule of the ``PPoly`` constructor: ``Tangent(PPoly, c=dc, x=dx)`` (``c`` in the stored layout).

    Examples
    --------
    >>> from chainrules import NoTangent
    >>> frule((NoTangent(), ZeroTangent(), np.array([0.0, 1.0])), si.PPoly, np.ones((2, 1)), np.array([0.0, 1.0]))[1]
    Tangent(PPoly, c=ZeroTangent(), x=array([0., 1.]))
    """
    y = si.PPoly(c, x, extrapolate, axis)
    dc, dx = tangent_array(tangents[1], c), tangent_array(tangents[2], x)
    for t in (dc, dx):
        if isinstance(t, NotImplementedTangent):
            return y, t
    dc_stored = None if dc is None else stored_layout(np.asarray(dc), int(axis))
    return y, object_tangent(y, {"c": dc_stored, "x": dx})


# ---- calling a PPoly ------------------------------------------------------------------------------------
class PPolyCall(PointsAlongAxis):
    """One call ``p(q, nu, extrapolate)``: its output and derivatives.

    Examples
    --------
    >>> p = si.PPoly(np.array([[1.0, 2.0], [0.0, 1.0]]), np.array([0.0, 1.0, 3.0]))
    >>> call = PPolyCall(p, np.array([0.5, 2.0]), 0, None)
    >>> call.y, call.point_cotangent(np.ones(2))        # p' = 1 on the first interval, 2 on the second
    (array([0.5, 3. ]), array([1., 2.]))
    """

    def __init__(self, p: Any, q: Any, nu: Any, extrapolate: Any) -> None:
        self.p, self.nu = p, int(nu)
        q_array = np.asarray(q)
        self.q_shape, self.q_ndim = q_array.shape, q_array.ndim
        self.axis, self.npoints = int(p.axis), q_array.size
        c = np.asarray(p.c)
        self.K, self.m, self.trailing = c.shape[0], c.shape[1], c.shape[2:]
        self.c = c.reshape(self.K, self.m, -1)
        self.extrapolate = p.extrapolate if extrapolate is None else extrapolate
        self.located = Located(p.x, q_array.ravel(), self.extrapolate)
        self.y = p(q, nu, extrapolate)  # SciPy's own evaluation (the rules' maths locate the points alike)
        self._slope: Any = None


    @property
    def slope(self) -> np.ndarray:
        if self._slope is None:
            self._slope = slope(self.c, self.located, self.nu)
        return self._slope

    def _moves(self, dy: np.ndarray) -> np.ndarray:
        """``Re sum_T conj(p') dy`` at each point: how much the loss moves with the point."""
        return np.real(np.sum(np.conj(self.slope) * self._in(dy), axis=1))

    def point_cotangent(self, dy: np.ndarray) -> np.ndarray:
        return self._moves(dy).reshape(self.q_shape)

    def object_cotangent(self, dy: np.ndarray) -> Any:
        dc = coefficient_cotangent(self.c.shape, self.located, self.nu, self._in(dy))
        moves = self._moves(dy)
        inside = self.located.interval >= 0
        dx = 0.0 - np.bincount(self.located.interval[inside], moves[inside], self.m + 1)
        if self.located.turns is not None:  # q' = x_0 + (q - x_0) mod (x_end - x_0)
            dx[0] += np.sum(moves * self.located.turns)
            dx[-1] -= np.sum(moves * self.located.turns)
        return Tangent(type(self.p), c=dc.reshape((self.K, self.m) + self.trailing), x=dx)

    def tangent(self, dobject: Any, dq: Any) -> Any:
        total: Any = None
        if dobject is not None and dobject.get("c") is not None:
            dc = dobject["c"].reshape(self.K, self.m, -1)
            total = evaluate(dc, self.located, self.nu)
            total = np.where(np.isnan(total), 0, total)
        step = np.zeros(self.located.q.size)
        if dq is not None:
            step = step + np.asarray(dq, dtype=np.float64).reshape(-1)
        if dobject is not None and dobject.get("x") is not None:
            dx = dobject["x"]
            step = step - dx[np.maximum(self.located.interval, 0)] * (self.located.interval >= 0)
            if self.located.turns is not None:
                step = step + self.located.turns * (dx[0] - dx[-1])
        if np.any(step):
            moving = self.slope * step[:, None]
            total = moving if total is None else total + moving
        return None if total is None else self._out(total)


def _call_rules(p: Any, x: Any, nu: Any, extrapolate: Any, name: str, method: bool) -> Any:
    return object_call_rrule(PPolyCall(p, x, nu, extrapolate), p, x, name, "ppoly", method, constants=2)


def _call_frule(tangents: Any, p: Any, x: Any, nu: Any, extrapolate: Any, object_position: int) -> Any:
    return object_call_frule(PPolyCall(p, x, nu, extrapolate), tangents, p, x, object_position)


@rrule.register_functor(si.PPoly)
def ppoly_call_rrule(p: Any, x: Any, nu: Any = 0, extrapolate: Any = None) -> Any:
    """Reverse rule of calling a ``PPoly`` (or a subclass): the object's fields and the points.

    Examples
    --------
    >>> from chainrules import unthunk
    >>> p = si.PPoly(np.array([[1.0, 2.0], [0.0, 1.0]]), np.array([0.0, 1.0, 3.0]))
    >>> y, pullback = rrule(p, np.array([2.0]))
    >>> dp, dx = (unthunk(c) for c in pullback(np.ones(1))[:2])
    >>> dp.c[:, :, ], dp.x, dx                         # p(2) = 2 (2 - 1) + 1
    (array([[0., 1.],
           [0., 1.]]), array([ 0., -2.,  0.]), array([2.]))
    """
    return _call_rules(p, x, nu, extrapolate, "scipy.interpolate.PPoly.__call__", method=False)


@frule.register_functor(si.PPoly)
def ppoly_call_frule(tangents: Any, p: Any, x: Any, nu: Any = 0, extrapolate: Any = None) -> Any:
    """Forward rule of calling a ``PPoly``: ``p(dc) + p' (dx_point - dx_breakpoint)``.

    Examples
    --------
    >>> p = si.PPoly(np.array([[1.0, 2.0], [0.0, 1.0]]), np.array([0.0, 1.0, 3.0]))
    >>> frule((ZeroTangent(), np.array([1.0])), p, np.array([2.0]))[1]
    array([2.])
    """
    return _call_frule(tangents, p, x, nu, extrapolate, 0)


@rrule.register(si.PPoly.__call__, si.PPoly)
def ppoly_method_call_rrule(self: Any, x: Any, nu: Any = 0, extrapolate: Any = None) -> Any:
    """Reverse rule of ``PPoly.__call__`` (``p.__call__(x)``): the object's fields and the points.

    Examples
    --------
    >>> from chainrules import unthunk
    >>> p = si.PPoly(np.array([[1.0, 2.0], [0.0, 1.0]]), np.array([0.0, 1.0, 3.0]))
    >>> y, pullback = rrule(p.__call__, np.array([0.5]))
    >>> unthunk(pullback(np.ones(1))[2])
    array([1.])
    """
    return _call_rules(self, x, nu, extrapolate, "scipy.interpolate.PPoly.__call__", method=True)


@frule.register(si.PPoly.__call__, si.PPoly)
def ppoly_method_call_frule(tangents: Any, self: Any, x: Any, nu: Any = 0, extrapolate: Any = None) -> Any:
    """Forward rule of ``PPoly.__call__``.

    Examples
    --------
    >>> from chainrules import NoTangent
    >>> p = si.PPoly(np.array([[1.0, 2.0], [0.0, 1.0]]), np.array([0.0, 1.0, 3.0]))
    >>> frule((NoTangent(), ZeroTangent(), np.array([1.0])), si.PPoly.__call__, p, np.array([0.5]))[1]
    array([1.])
    """
    return _call_frule(tangents, self, x, nu, extrapolate, 1)


# ---- derivative and antiderivative ----------------------------------------------------------------------
def _derivative_factor(K: int, nu: int) -> np.ndarray:
    """The rising factorials ``derivative(nu)`` multiplies the kept rows by (SciPy's ``poch``)."""
    import math

    kept = max(K - nu, 1)
    return np.array([math.prod(range(kept - j, kept - j + nu)) for j in range(kept)], dtype=np.float64)


@rrule.register(si.PPoly.derivative, si.PPoly)
def ppoly_derivative_rrule(self: Any, nu: Any = 1) -> Any:
    """Reverse rule of ``PPoly.derivative`` (and of ``antiderivative`` for ``nu < 0``).

    Examples
    --------
    >>> from chainrules import Tangent, unthunk
    >>> p = si.PPoly(np.array([[1.0], [2.0], [3.0]]), np.array([0.0, 1.0]))
    >>> d, pullback = rrule(p.derivative)
    >>> d.c[:, 0], unthunk(pullback(Tangent(si.PPoly, c=np.array([[1.0], [1.0]])))[1]).c[:, 0]
    (array([2., 2.]), array([2., 1., 0.]))
    """
    nu = int(nu)
    if nu < 0:
        return ppoly_antiderivative_rrule(self, -nu)
    y = self.derivative(nu)
    project_self = ProjectTo(self)
    K = np.asarray(self.c).shape[0]

    def ppoly_derivative_pullback(dy: Any) -> tuple[Any, ...]:
        read = read_object(dy, y, si.PPoly.derivative)
        if passes_through(read):
            return NoTangent(), project_self(passed_on(read)), NoTangent()
        dc = np.zeros(np.shape(self.c), dtype=np.result_type(np.asarray(self.c), np.float64))
        if read["c"] is not None and nu < K:
            factor = _derivative_factor(K, nu)
            dc[:K - nu] = read["c"] * factor[(slice(None),) + (None,) * (dc.ndim - 1)]
        dx = ZeroTangent() if read["x"] is None else read["x"].copy()
        return NoTangent(), project_self(Tangent(type(self), c=dc, x=dx)), NoTangent()

    return y, ppoly_derivative_pullback


@frule.register(si.PPoly.derivative, si.PPoly)
def ppoly_derivative_frule(tangents: Any, self: Any, nu: Any = 1) -> Any:
    """Forward rule of ``PPoly.derivative``: the derivative of the tangent's coefficients, the same ``dx``.

    Examples
    --------
    >>> from chainrules import NoTangent, Tangent
    >>> p = si.PPoly(np.array([[1.0], [2.0], [3.0]]), np.array([0.0, 1.0]))
    >>> frule((NoTangent(), Tangent(si.PPoly, c=np.array([[1.0], [0.0], [0.0]]))), p.derivative)[1].c[:, 0]
    array([2., 0.])
    """
    nu = int(nu)
    if nu < 0:
        return ppoly_antiderivative_frule((tangents[0], tangents[1], NoTangent()), self, -nu)
    y = self.derivative(nu)
    fields = object_fields(tangents[1], self)
    if fields is None or isinstance(fields, NotImplementedTangent):
        return y, ZeroTangent() if fields is None else fields
    dc = None
    if fields["c"] is not None:
        K = fields["c"].shape[0]
        if nu < K:
            factor = _derivative_factor(K, nu)
            dc = fields["c"][:K - nu] * factor[(slice(None),) + (None,) * (fields["c"].ndim - 1)]
        else:
            dc = np.zeros(np.shape(y.c))
    return y, object_tangent(y, {"c": dc, "x": fields["x"]})


@rrule.register(si.PPoly.antiderivative, si.PPoly)
def ppoly_antiderivative_rrule(self: Any, nu: Any = 1) -> Any:
    """Reverse rule of ``PPoly.antiderivative``: through the continuity recursion (see the module docstring).

    Examples
    --------
    >>> from chainrules import Tangent, unthunk
    >>> p = si.PPoly(np.array([[2.0, 1.0]]), np.array([0.0, 1.0, 3.0]))
    >>> a, pullback = rrule(p.antiderivative)
    >>> a.c                                             # the constant of the second piece: 2 * 1
    array([[2., 1.],
           [0., 2.]])
    >>> unthunk(pullback(Tangent(si.PPoly, c=np.array([[0.0, 0.0], [0.0, 1.0]])))[1]).x
    array([-2.,  2.,  0.])
    """
    nu = int(nu)
    if nu <= 0:
        return ppoly_derivative_rrule(self, -nu)
    y = self.antiderivative(nu)
    project_self = ProjectTo(self)
    c = np.asarray(self.c)
    c3 = c.reshape(c.shape[0], c.shape[1], -1)

    def ppoly_antiderivative_pullback(dy: Any) -> tuple[Any, ...]:
        read = read_object(dy, y, si.PPoly.antiderivative)
        if passes_through(read):
            return NoTangent(), project_self(passed_on(read)), NoTangent()
        dx = np.zeros(np.shape(self.x)) if read["x"] is None else read["x"].copy()
        dc: Any = np.zeros(c.shape)
        if read["c"] is not None:
            g = read["c"].reshape(read["c"].shape[0], c.shape[1], -1)
            dc3, dxc = antiderivative_transpose(c3, np.asarray(self.x), nu, g)
            dc = dc3.reshape(c.shape)
            dx = dx + dxc
        return NoTangent(), project_self(Tangent(type(self), c=dc, x=dx)), NoTangent()

    return y, ppoly_antiderivative_pullback


@frule.register(si.PPoly.antiderivative, si.PPoly)
def ppoly_antiderivative_frule(tangents: Any, self: Any, nu: Any = 1) -> Any:
    """Forward rule of ``PPoly.antiderivative``.

    Examples
    --------
    >>> from chainrules import NoTangent, Tangent
    >>> p = si.PPoly(np.array([[2.0, 1.0]]), np.array([0.0, 1.0, 3.0]))
    >>> frule((NoTangent(), Tangent(si.PPoly, x=np.array([0.0, 1.0, 0.0]))), p.antiderivative)[1].c
    array([[0., 0.],
           [0., 2.]])
    """
    nu = int(nu)
    if nu <= 0:
        return ppoly_derivative_frule((tangents[0], tangents[1], NoTangent()), self, -nu)
    y = self.antiderivative(nu)
    fields = object_fields(tangents[1], self)
    if fields is None or isinstance(fields, NotImplementedTangent):
        return y, ZeroTangent() if fields is None else fields
    c = np.asarray(self.c)
    c3 = c.reshape(c.shape[0], c.shape[1], -1)
    dc3 = None if fields["c"] is None else fields["c"].reshape(c3.shape)
    dc = None
    if dc3 is not None or fields["x"] is not None:
        dc = antiderivative_tangent(c3, np.asarray(self.x), nu, dc3, fields["x"]).reshape(np.shape(y.c))
    return y, object_tangent(y, {"c": dc, "x": fields["x"]})


# ---- integrate --------------------------------------------------------------------------------------------
@rrule.register(si.PPoly.integrate, si.PPoly)
def ppoly_integrate_rrule(self: Any, a: Any, b: Any, extrapolate: Any = None) -> Any:
    """Reverse rule of ``PPoly.integrate``: the object's fields and the bounds.

    Examples
    --------
    >>> from chainrules import unthunk
    >>> p = si.PPoly(np.array([[1.0, 2.0, 3.0]]), np.array([0.0, 1.0, 2.0, 3.0]))
    >>> y, pullback = rrule(p.integrate, 0.5, 2.5)
    >>> y, [unthunk(t) for t in pullback(1.0)[2:]]      # d/da = -p(a), d/db = p(b)
    (array(4.), [-1.0, 3.0])
    """
    y = self.integrate(a, b, extrapolate)
    ext = self.extrapolate if extrapolate is None else extrapolate
    c = np.asarray(self.c)
    integral = Integral(c.reshape(c.shape[0], c.shape[1], -1), np.asarray(self.x), a, b, ext)
    project_self, project_a, project_b = ProjectTo(self), cotangent_projector(a), cotangent_projector(b)

    def ppoly_integrate_pullback(dy: Any) -> tuple[Any, ...]:
        dy = read_cotangent(dy, y, si.PPoly.integrate)
        if passes_through(dy):
            zero = passed_on(dy)
            return NoTangent(), project_self(zero), project_a(zero), project_b(zero), NoTangent()
        dc, dx, da, db = integral.transpose(np.asarray(dy).reshape(-1))
        return (NoTangent(), project_self(Tangent(type(self), c=dc.reshape(c.shape), x=dx)), project_a(da),
                project_b(db), NoTangent())

    return y, ppoly_integrate_pullback


@frule.register(si.PPoly.integrate, si.PPoly)
def ppoly_integrate_frule(tangents: Any, self: Any, a: Any, b: Any, extrapolate: Any = None) -> Any:
    """Forward rule of ``PPoly.integrate``.

    Examples
    --------
    >>> from chainrules import NoTangent
    >>> p = si.PPoly(np.array([[1.0, 2.0, 3.0]]), np.array([0.0, 1.0, 2.0, 3.0]))
    >>> frule((NoTangent(), ZeroTangent(), 1.0, 1.0), p.integrate, 0.5, 2.5)[1]    # p(b) - p(a)
    array(2.)
    """
    y = self.integrate(a, b, extrapolate)
    ext = self.extrapolate if extrapolate is None else extrapolate
    fields = object_fields(tangents[1], self)
    da, db = tangent_value(tangents[2]), tangent_value(tangents[3])
    for t in (fields, da, db):
        if isinstance(t, NotImplementedTangent):
            return y, t
    if fields is None and da is None and db is None:
        return y, output_tangent(None, y)
    c = np.asarray(self.c)
    integral = Integral(c.reshape(c.shape[0], c.shape[1], -1), np.asarray(self.x), a, b, ext)
    dc = None if fields is None or fields["c"] is None else fields["c"].reshape(integral.c.shape)
    dx = None if fields is None else fields["x"]
    return y, output_tangent(integral.tangent(dc, dx, da, db).reshape(np.shape(y)), y)


# ---- sample inputs ----------------------------------------------------------------------------------
_X = np.array([0.0, 0.8, 1.7, 3.0])
"""Breakpoints more than twice the finite differences' reach apart."""
_Q = np.array([-0.4, 0.35, 1.2, 2.1, 2.9, 3.6])
"""Points below, inside each interval (never on a breakpoint) and above."""


def _ppoly(rng: np.random.Generator, trailing: tuple[int, ...] = (), **kwargs: Any) -> Any:
    return si.PPoly(rng.standard_normal((4, 3) + trailing), _X, **kwargs)


@sample_inputs(si.PPoly)
def _ppoly_samples(rng: np.random.Generator) -> list[Sample]:
    c = rng.standard_normal((4, 3))
    return [Sample(c, _X, label="cubic pieces"), Sample(c, _X, False, label="extrapolate by position"),
            Sample(rng.standard_normal((2, 4, 3, 2)), _X, fkwargs={"axis": 1, "extrapolate": "periodic"},
                   label="axis=1, periodic, by keyword"),
            Sample(c.astype(np.float32), _X, label="float32 coefficients"),
            Sample(c + 1j * rng.standard_normal((4, 3)), _X[::-1].copy(), label="complex, descending breakpoints")]


@sample_inputs(si.PPoly.__call__)
def _call_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(_ppoly(rng), _Q, label="points below, inside and above"),
            Sample(_ppoly(rng), _Q, 1, label="first derivative (nu by position)"),
            Sample(_ppoly(rng), _Q[1:5], fkwargs={"nu": 2, "extrapolate": False}, label="nu=2, no extrapolation"),
            Sample(_ppoly(rng, extrapolate="periodic"), np.array([-2.3, 0.4, 4.1, 7.8]),
                   label="periodic, several turns"),
            Sample(_ppoly(rng, (2,)), _Q.reshape(2, 3), label="2-d points, vector values"),
            Sample(si.PPoly(rng.standard_normal((4, 2, 3)), _X, axis=1), _Q, label="axis=1"),
            Sample(si.PPoly(rng.standard_normal((3, 3)), _X[::-1].copy()), _Q, label="descending breakpoints"),
            Sample(si.PPoly(rng.standard_normal((4, 3)) + 1j * rng.standard_normal((4, 3)), _X), _Q,
                   label="complex coefficients"),
            Sample(_ppoly(rng), 1.2, label="a scalar point")]


@sample_inputs(si.PPoly.derivative)
def _derivative_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(_ppoly(rng), label="nu = 1"), Sample(_ppoly(rng, (2,)), 2, label="nu = 2, vector values"),
            Sample(_ppoly(rng), 0, label="nu = 0"), Sample(_ppoly(rng), 5, label="nu beyond the order"),
            Sample(_ppoly(rng), -1, label="nu = -1 (an antiderivative)")]


@sample_inputs(si.PPoly.antiderivative)
def _antiderivative_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(_ppoly(rng), label="nu = 1"), Sample(_ppoly(rng, (2,)), 2, label="nu = 2, vector values"),
            Sample(_ppoly(rng, extrapolate="periodic"), 3, label="nu = 3, periodic"),
            Sample(_ppoly(rng), 0, label="nu = 0")]


@sample_inputs(si.PPoly.integrate)
def _integrate_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(_ppoly(rng), 0.3, 2.4, label="inside"), Sample(_ppoly(rng), 2.6, -0.5, label="swapped, beyond"),
            Sample(_ppoly(rng, (2,)), 0.3, 2.4, False, label="no extrapolation, vector values"),
            Sample(_ppoly(rng, extrapolate="periodic"), -2.5, 7.3, label="periodic, several periods"),
            Sample(_ppoly(rng), 0.5, 1.4, fkwargs={"extrapolate": True}, label="by keyword")]
