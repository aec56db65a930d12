"""``scipy.interpolate.griddata``: interpolation of scattered data, ``nearest``, ``linear`` and ``cubic``.

The maths
---------
``linear`` (``LinearNDInterpolator``): in the Delaunay simplex holding ``x`` (SciPy's
triangulation, piecewise constant in the data), ``f(x) = sum_v lambda_v(x) y_v`` with the
barycentric coordinates ``c = A^{-1} (x - p_D)``, ``A = [p_0 - p_D, ..., p_{D-1} - p_D]``,
``lambda = (c, 1 - sum c)``. So ``df/dy_v = lambda_v``, ``df/dx = grad f = A^{-T} (y_j - y_D)_j`` and,
moving the vertices, ``df = grad f . (dx - sum_v lambda_v dp_v) + sum_v lambda_v dy_v`` (the
barycentric coordinates are invariant under a common affine map, so ``rescale=True`` changes
only which simplex is used). ``nearest``: the value of the nearest data point (its cotangent;
piecewise constant in the points). ``cubic`` in 2-D (``CloughTocher2DInterpolator``): the
interpolant is linear in the values, with gradients estimated by a global iterative solve
(Nielson's minimum-norm network, to SciPy's tolerance); its derivative in the values is that
linear map, obtained by interpolating the ``n`` unit vectors at once (cost ``n`` columns:
``O(n * len(xi))`` memory). Its derivatives in ``xi`` and in the data points are not
implemented (use ``method='linear'``, or ``RBFInterpolator`` / ``RegularGridInterpolator``
with ``cubic``). One-dimensional data go through ``interp1d`` (:mod:`.interp1d`). Points
outside the convex hull (outside the data's range in 1-d) get ``fill_value``: no derivative in
the data or the point there, and ``d f / d fill_value = 1`` (its cotangent is the sum of the
output cotangent over those points).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.interpolate as si

from chainrules.rulesets.arrays._linear_maps import output_tangent
from chainrules.rulesets.contractions._multilinear import lazy_cotangent
from chainrules.rulesets.interpolate._spline_rules import part
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
    read_cotangent,
    rrule,
    sample_inputs,
    unthunk,
)

__all__ = ["Scattered"]

_CUBIC = ("griddata(method='cubic') (Clough-Tocher) is differentiated in the values only; its derivatives in xi "
          "and in the data points are not implemented: use method='linear', or RBFInterpolator")


def _fill_cotangent(g: np.ndarray, outside: np.ndarray, fill_value: Any) -> Any:
    """The cotangent of ``fill_value``: the output cotangent summed over the points that got it."""
    if not differentiable(fill_value):
        return NoTangent()
    return cotangent_projector(fill_value)(g[outside].sum())


def _fill_tangent(tangents: Any, fill_value: Any) -> Any:
    """The tangent of ``fill_value`` (``None`` for none)."""
    dfill = unthunk(tangents[5]) if len(tangents) > 5 and differentiable(fill_value) else None
    return None if dfill is None or passes_through(dfill) else dfill


def _coordinates(arrays: Any) -> tuple[np.ndarray, Any]:
    """Points as ``(N, D)`` (``D = 0`` for 1-d data given flat) and how to give a cotangent back in their form."""
    if isinstance(arrays, tuple):
        parts = np.broadcast_arrays(*[np.asarray(a, dtype=np.float64) for a in arrays])
        return np.stack(parts, axis=-1), ("tuple", [np.shape(a) for a in arrays])
    points = np.asarray(arrays, dtype=np.float64)
    return points, ("array", points.shape)


def _back(form: Any, bar: np.ndarray) -> Any:
    kind, shapes = form
    if kind == "array":
        return bar.reshape(shapes)
    parts = []
    for d, shape in enumerate(shapes):
        value = bar[..., d]
        while value.ndim > len(shape):
            value = value.sum(axis=0)
        for axis, size in enumerate(shape):
            if size == 1 and value.shape[axis] != 1:
                value = value.sum(axis=axis, keepdims=True)
        parts.append(value)
    return Tangent(tuple, *parts)


def _forward(form: Any, tangent: Any, D: int) -> Any:
    kind, shapes = form
    tangent = unthunk(tangent)
    if tangent is None or passes_through(tangent):
        return None
    if kind == "array":
        return np.asarray(tangent, dtype=np.float64)
    parts = [part(tangent, d) for d in range(len(shapes))]
    parts = [np.zeros(s) if v is None else np.asarray(v, dtype=np.float64) for v, s in zip(parts, shapes)]
    return np.stack(np.broadcast_arrays(*parts), axis=-1)


class Scattered:
    """``griddata(points, values, xi, method, fill_value, rescale)`` at one call (2 or more dimensions).

    Examples
    --------
    >>> points = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    >>> call = Scattered(points, np.array([0.0, 2.0, 1.0, 3.0]), np.array([[0.25, 0.5]]), "linear", np.nan, False)
    >>> call.y, call.cotangents(np.ones(1))[2]          # f = 2 x + y: the gradient
    (array([1.]), array([[2., 1.]]))
    """

    def __init__(self, points: Any, values: Any, xi: Any, method: str, fill_value: Any, rescale: bool) -> None:
        self.y = si.griddata(points, values, xi, method, fill_value, rescale)
        self.method = method
        self.P_all, self.points_form = _coordinates(points)
        self.X, self.xi_form = _coordinates(xi)
        n = self.P_all.shape[0]
        D = self.P_all.shape[-1]
        self.n, self.D = n, D
        values = np.asarray(values)
        self.values_shape = values.shape
        self.Y = values.reshape(n, -1)
        self.q = self.X.reshape(-1, D)
        self.Q = self.q.shape[0]
        if method == "nearest":
            ip = si.NearestNDInterpolator(self.P_all, np.arange(n), rescale=rescale)
            self.nearest = np.asarray(ip(self.q), dtype=np.intp)
            self.outside = np.zeros(self.Q, dtype=bool)
        elif method == "linear":
            ip = si.LinearNDInterpolator(self.P_all, np.zeros(n), fill_value=fill_value, rescale=rescale)
            scaled = self.q if ip.scale is None else (self.q - ip.offset) / ip.scale
            simplex = ip.tri.find_simplex(scaled)
            self.inside = simplex >= 0
            self.outside = ~self.inside
            vertices = ip.tri.simplices[np.where(self.inside, simplex, 0)]     # (Q, D + 1)
            self.vertices = vertices
            corners = self.P_all[vertices]                                       # (Q, D + 1, D)
            A = np.swapaxes(corners[:, :D] - corners[:, D:], 1, 2)                # columns p_j - p_D
            self.Ainv = np.linalg.inv(np.where(self.inside[:, None, None], A, np.eye(D)))
            c = np.einsum("qij,qj->qi", self.Ainv, self.q - corners[:, D])
            self.lam = np.concatenate((c, 1 - c.sum(axis=1, keepdims=True)), axis=1) * self.inside[:, None]
            g = self.Y[vertices]                                                  # (Q, D + 1, T)
            self.grad = np.einsum("qji,qjT->qiT", self.Ainv, g[:, :D] - g[:, D:])  # (Q, D, T)
        else:
            # NaN outside (whatever fill_value is), to tell the points there
            ip = si.CloughTocher2DInterpolator(self.P_all, np.eye(n), fill_value=np.nan, rescale=rescale)
            J = np.asarray(ip(self.q))                                            # (Q, n)
            self.outside = np.isnan(J).all(axis=1)
            self.J = np.where(np.isnan(J), 0.0, J)

    def _out(self, values: np.ndarray) -> np.ndarray:
        return values.reshape(self.X.shape[:-1] + self.values_shape[1:])

    def fill_cotangent(self, dy: Any, fill_value: Any) -> Any:
        """The cotangent of ``fill_value``."""
        return _fill_cotangent(np.asarray(dy).reshape(self.Q, -1), self.outside, fill_value)

    def fill_tangent(self, dfill: Any) -> np.ndarray:
        """The output tangent made by a ``fill_value`` tangent ``dfill``."""
        return self._out(np.broadcast_to(self.outside[:, None] * np.asarray(dfill), (self.Q, self.Y.shape[1])))

    def cotangents(self, dy: Any) -> tuple[Any, Any, Any]:
        """Cotangents of the data points, the values and ``xi`` (in the forms they were given)."""
        g = np.asarray(dy).reshape(self.Q, -1)
        T = self.Y.shape[1]
        if self.method == "nearest":
            vbar = np.zeros((self.n, T), dtype=np.result_type(g, np.float64))
            np.add.at(vbar, self.nearest, g)
            return (_back(self.points_form, np.zeros(self.P_all.shape)), vbar.reshape(self.values_shape),
                    _back(self.xi_form, np.zeros(self.X.shape)))
        if self.method == "cubic":
            missing = not_implemented(_CUBIC)
            return missing, (self.J.T @ g).reshape(self.values_shape), missing
        g = g * self.inside[:, None]
        vbar = np.zeros((self.n, T), dtype=np.result_type(g, np.float64))
        np.add.at(vbar, self.vertices, self.lam[:, :, None] * g[:, None, :])
        moves = np.real(np.einsum("qiT,qT->qi", np.conj(self.grad), g))          # (Q, D)
        pbar = np.zeros((self.n, self.D))
        np.add.at(pbar, self.vertices, -self.lam[:, :, None] * moves[:, None, :])
        return (_back(self.points_form, pbar.reshape(self.P_all.shape)), vbar.reshape(self.values_shape),
                _back(self.xi_form, moves.reshape(self.X.shape)))

    def tangent(self, dpoints: Any, dvalues: Any, dxi: Any) -> Any:
        T = self.Y.shape[1]
        dV = None if dvalues is None else np.asarray(dvalues).reshape(self.n, T)
        if self.method == "nearest":
            total = np.zeros((self.Q, T)) if dV is None else dV[self.nearest]
            return self._out(total)
        if self.method == "cubic":
            if dpoints is not None or dxi is not None:
                return not_implemented(_CUBIC)
            return self._out(self.J @ dV) if dV is not None else None
        total = np.zeros((self.Q, T), dtype=np.result_type(self.Y, *([] if dV is None else [dV])))
        if dV is not None:
            total = total + np.einsum("qv,qvT->qT", self.lam, dV[self.vertices])
        step = np.zeros((self.Q, self.D))
        if dxi is not None:
            step = step + dxi.reshape(self.Q, self.D)
        if dpoints is not None:
            dp = dpoints.reshape(self.n, self.D)
            step = step - np.einsum("qv,qvd->qd", self.lam, dp[self.vertices])
        total = total + np.einsum("qiT,qi->qT", self.grad, step)
        return self._out(total * self.inside[:, None])


def _one_dimensional(points: Any) -> bool:
    if isinstance(points, tuple):
        return False
    return np.ndim(points) < 2 or (np.ndim(points) == 2 and np.shape(points)[-1] == 1)


@rrule.register(si.griddata)
def griddata_rrule(points: Any, values: Any, xi: Any, method: Any = "linear", fill_value: Any = np.nan,
                   rescale: Any = False) -> Any:
    """Reverse rule of ``griddata``: the data points, the values and the query points.

    Examples
    --------
    >>> from chainrules import unthunk
    >>> points = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    >>> y, pullback = rrule(si.griddata, points, np.array([0.0, 2.0, 1.0, 3.0]), np.array([[0.25, 0.5]]))
    >>> y, unthunk(pullback(np.ones(1))[3])
    (array([1.]), array([[2., 1.]]))
    """
    if _one_dimensional(points):
        return _griddata_1d_rrule(points, values, xi, method, fill_value)
    call = Scattered(points, values, xi, method, fill_value, rescale)
    projectors = [cotangent_projector(v) for v in (points, values, xi)]

    def griddata_pullback(dy: Any) -> tuple[Any, ...]:
        dy = read_cotangent(dy, call.y, si.griddata)
        if passes_through(dy):
            zero = passed_on(dy)
            fill = cotangent_projector(fill_value)(zero) if differentiable(fill_value) else NoTangent()
            return (NoTangent(), *(p(zero) for p in projectors), NoTangent(), fill, NoTangent())
        memo: list[Any] = []

        def pick(i: int) -> Any:
            def value() -> Any:
                if not memo:
                    memo.extend(call.cotangents(dy))
                return memo[i]

            return value

        return (NoTangent(), *(lazy_cotangent(p, pick(i)) for i, p in enumerate(projectors)), NoTangent(),
                call.fill_cotangent(dy, fill_value), NoTangent())

    return call.y, griddata_pullback


@frule.register(si.griddata)
def griddata_frule(tangents: Any, points: Any, values: Any, xi: Any, method: Any = "linear",
                   fill_value: Any = np.nan, rescale: Any = False) -> Any:
    """Forward rule of ``griddata``.

    Examples
    --------
    >>> from chainrules import NoTangent, ZeroTangent
    >>> points = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    >>> frule((NoTangent(), ZeroTangent(), ZeroTangent(), np.array([[1.0, 0.0]])), si.griddata, points,
    ...       np.array([0.0, 2.0, 1.0, 3.0]), np.array([[0.25, 0.5]]))[1]
    array([2.])
    """
    if _one_dimensional(points):
        return _griddata_1d_frule(tangents, points, values, xi, method, fill_value)
    call = Scattered(points, values, xi, method, fill_value, rescale)
    dpoints = _forward(call.points_form, tangents[1], call.D)
    dvalues = unthunk(tangents[2])
    dvalues = None if passes_through(dvalues) else dvalues
    dxi = _forward(call.xi_form, tangents[3], call.D)
    dfill = _fill_tangent(tangents, fill_value)
    for d in (dpoints, dvalues, dxi, dfill):
        if isinstance(d, NotImplementedTangent):
            return call.y, d
    if dpoints is None and dvalues is None and dxi is None and dfill is None:
        return call.y, output_tangent(None, call.y)
    moved = dpoints is not None or dvalues is not None or dxi is not None
    value = call.tangent(dpoints, dvalues, dxi) if moved else None
    if isinstance(value, NotImplementedTangent):
        return call.y, value
    if dfill is not None:
        value = call.fill_tangent(dfill) if value is None else value + call.fill_tangent(dfill)
    return call.y, output_tangent(value, call.y)


def _griddata_1d_parts(points: Any, values: Any, xi: Any, method: Any, fill_value: Any) -> tuple[Any, ...]:
    flat = np.asarray(points, dtype=np.float64).ravel()
    order = np.argsort(flat)
    kind_fill = "extrapolate" if method == "nearest" else fill_value
    obj = si.interp1d(flat[order], np.asarray(values)[order], kind=method, axis=0, bounds_error=False,
                      fill_value=kind_fill)
    return flat, order, obj


def _outside_1d(flat: np.ndarray, q: Any, method: Any) -> np.ndarray:
    """Which of the 1-d points ``q`` (flattened) get the fill value."""
    q = np.asarray(q, dtype=np.float64).ravel()
    if method == "nearest":
        return np.zeros(q.size, dtype=bool)
    return (q < flat.min()) | (q > flat.max())


def _griddata_1d_rrule(points: Any, values: Any, xi: Any, method: Any, fill_value: Any) -> Any:
    from chainrules.rulesets.interpolate.interp1d import Interp1dCall

    flat, order, obj = _griddata_1d_parts(points, values, xi, method, fill_value)
    q = xi[0] if isinstance(xi, tuple) else xi
    call = Interp1dCall(obj, q)
    projectors = [cotangent_projector(v) for v in (points, values, xi)]

    def griddata_pullback(dy: Any) -> tuple[Any, ...]:
        dy = read_cotangent(dy, call.y, si.griddata)
        if passes_through(dy):
            zero = passed_on(dy)
            fill = cotangent_projector(fill_value)(zero) if differentiable(fill_value) else NoTangent()
            return (NoTangent(), *(p(zero) for p in projectors), NoTangent(), fill, NoTangent())
        outside = _outside_1d(flat, q, method)
        fill = _fill_cotangent(np.asarray(dy).reshape(outside.size, -1), outside, fill_value)
        obj_bar, qbar = call.cotangents(dy)
        pbar = np.zeros(flat.size)
        pbar[order] = obj_bar.x
        vbar = np.zeros(np.shape(values), dtype=np.result_type(np.asarray(obj_bar.y), np.float64))
        vbar[order] = obj_bar.y
        xbar = Tangent(tuple, qbar) if isinstance(xi, tuple) else qbar
        return (NoTangent(), projectors[0](pbar.reshape(np.shape(points))), projectors[1](vbar), projectors[2](xbar),
                NoTangent(), fill, NoTangent())

    return call.y, griddata_pullback


def _griddata_1d_frule(tangents: Any, points: Any, values: Any, xi: Any, method: Any, fill_value: Any) -> Any:
    from chainrules.rulesets.interpolate.interp1d import Interp1dCall

    flat, order, obj = _griddata_1d_parts(points, values, xi, method, fill_value)
    q = xi[0] if isinstance(xi, tuple) else xi
    call = Interp1dCall(obj, q)
    dfill = _fill_tangent(tangents, fill_value)
    if dfill is not None:
        outside = _outside_1d(flat, q, method).reshape(np.shape(q) + (1,) * (np.ndim(call.y) - np.ndim(q)))
        filled = np.broadcast_to(outside * np.asarray(dfill), np.shape(call.y))
        y, dy = _griddata_1d_frule(tangents[:5], points, values, xi, method, fill_value)
        if isinstance(dy, NotImplementedTangent):
            return y, dy
        return y, output_tangent(filled if passes_through(dy) else dy + filled, y)
    dp, dv = unthunk(tangents[1]), unthunk(tangents[2])
    dq = unthunk(tangents[3])
    dq = part(dq, 0) if isinstance(xi, tuple) else dq
    fields = {"x": None if passes_through(dp) else np.asarray(dp, dtype=np.float64).ravel()[order],
              "y": None if passes_through(dv) else np.asarray(dv)[order]}
    for d in (dp, dv, dq):
        if isinstance(d, NotImplementedTangent):
            return call.y, d
    dq = None if dq is None or passes_through(dq) else np.asarray(dq, dtype=np.float64)
    if fields["x"] is None and fields["y"] is None and dq is None:
        return call.y, output_tangent(None, call.y)
    return call.y, output_tangent(call.tangent(fields, dq), call.y)


# ---- sample inputs ----------------------------------------------------------------------------------
def _scatter(rng: np.random.Generator) -> np.ndarray:
    """A jittered 4 x 4 grid: a well-shaped Delaunay triangulation."""
    base = np.stack(np.meshgrid(np.arange(4.0), np.arange(4.0), indexing="ij"), -1).reshape(-1, 2)
    return base + 0.15 * rng.uniform(-1, 1, base.shape)


def _queries(rng: np.random.Generator) -> np.ndarray:
    return np.array([[0.6, 0.7], [1.45, 2.3], [2.2, 1.1], [2.7, 2.6]])


@sample_inputs(si.griddata)
def _griddata_samples(rng: np.random.Generator) -> list[Sample]:
    from chainrules.testing import PrimalAndTangent

    points = _scatter(rng)
    values = np.sin(points[:, 0]) + np.cos(points[:, 1]) + 0.1 * rng.standard_normal(16)
    x1 = np.array([0.0, 0.6, 1.3, 1.9, 2.8, 3.4, 4.1])
    outside = np.concatenate([_queries(rng)[:2], [[-1.0, 1.5], [4.5, 4.0]]])
    return [Sample(points, values, _queries(rng), label="linear, 2-d"),
            Sample(points, np.stack([values, values ** 2], 1), _queries(rng), "linear",
                   np.nan, True, label="vector values, rescaled, by position"),
            Sample((points[:, 0], points[:, 1]), values, (_queries(rng)[:, 0], _queries(rng)[:, 1]),
                   label="points and xi as tuples of coordinates"),
            Sample(points, values, _queries(rng), fkwargs={"method": "nearest"}, label="nearest"),
            Sample(PrimalAndTangent(points, NoTangent()), values, PrimalAndTangent(_queries(rng), NoTangent()),
                   "cubic", label="cubic: the values"),
            Sample(x1[::-1].copy(), np.sin(x1), np.array([0.35, 1.1, 2.5, 3.9]), label="1-d data (interp1d)"),
            Sample(x1, np.sin(x1), np.array([0.35, 1.1, 2.5, 3.9]), "cubic", label="1-d data, cubic"),
            Sample(points, values, outside, "linear", 0.5, label="linear, points outside get fill_value"),
            Sample(PrimalAndTangent(points, NoTangent()), values, PrimalAndTangent(outside, NoTangent()), "cubic",
                   fkwargs={"fill_value": -1.0}, label="cubic, fill_value by keyword"),
            Sample(x1, np.sin(x1), np.array([-0.5, 1.1, 4.5]), "linear", 2.0, label="1-d data, fill_value")]
