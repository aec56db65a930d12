"""``scipy.interpolate.RBFInterpolator``: the constructor and calling the object (``neighbors=None``); with
respect to the data sites ``y``, the data values ``d``, ``smoothing``, ``epsilon`` and the points.

The object is differentiated through its data: its tangent is ``Tangent(RBFInterpolator, y=dy,
values=dd, smoothing=ds, epsilon=de)`` (``values``: the data values ``d`` in their shape; SciPy
keeps them flattened); calling it differentiates the solve for the coefficients and
the evaluation together.

The maths
---------
``f(x) = sum_i a_i phi(eps |x - y_i|) + sum_j b_j p_j((x - shift) / scale)`` with
``[[A + S, P], [P^T, 0]] [a; b] = [d; 0]``, ``A_ik = phi(eps |y_i - y_k|)``, ``S = diag(smoothing)``,
``P_ij = p_j((y_i - shift) / scale)`` (Fasshauer, *Meshfree Approximation Methods with MATLAB*,
2007, ch. 6). The monomials span all polynomials of the degree, a space that the shift and
scale SciPy takes from the bounding box of ``y`` leave unchanged, and so does ``f``: they are
held fixed. With ``z = (a, b)``, ``M`` the (symmetric) matrix and ``E(x) = [K(x), P(x)]``:
``df = dE z + E M^{-1} ([dd; 0] - dM z)``; the adjoint solves once with ``M``:
``lambda = M^{-1} E^T ybar``, ``dbar = lambda_a``, and ``dM``, ``dE`` contracted with
``-lambda z^T`` and ``ybar z^T`` give the cotangents of ``y``, ``x``, ``smoothing`` and ``eps`` through
``d phi(eps r) = phi'(eps r) (eps dr + r deps)``. At ``r = 0`` the direction of ``dr`` is undefined;
only the ``linear`` kernel has a kink there (``phi' = -1``), where the subgradient 0 is used.
``neighbors`` (a local system per point) is not implemented.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.interpolate as si

from chainrules.rulesets.arrays._linear_maps import tangent_array
from chainrules.rulesets.interpolate._object_calls import object_call_frule, object_call_rrule
from chainrules.rulesets.interpolate._objects import object_tangent, read_object
from chainrules.rulesets.reductions._tangent_values import passed_on, tangent_value
from chainrules_core import (
    NoTangent,
    NotImplementedTangent,
    Sample,
    Tangent,
    cotangent_projector,
    frule,
    not_implemented,
    passes_through,
    rrule,
    sample_inputs,
)

__all__ = ["RBFCall", "kernel_and_slope"]

_NEIGHBORS = ("RBFInterpolator with neighbors (a local system for each point) is not differentiated; "
              "use neighbors=None")


def kernel_and_slope(name: str, u: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``phi(u)`` and ``phi'(u) / u`` (0 where ``u = 0``: only multiplied by zero displacements there).

    Examples
    --------
    >>> kernel_and_slope("cubic", np.array([2.0]))      # u^3 and 3 u
    (array([8.]), array([6.]))
    """
    safe = np.where(u == 0, 1.0, u)
    if name == "linear":
        phi, slope = -u, -1.0 / safe
    elif name == "thin_plate_spline":
        phi, slope = np.where(u == 0, 0.0, u ** 2 * np.log(safe)), 2 * np.log(safe) + 1
    elif name == "cubic":
        phi, slope = u ** 3, 3 * u
    elif name == "quintic":
        phi, slope = -u ** 5, -5 * u ** 3
    elif name == "multiquadric":
        phi = -np.sqrt(u ** 2 + 1)
        slope = 1.0 / phi
    elif name == "inverse_multiquadric":
        phi = 1.0 / np.sqrt(u ** 2 + 1)
        slope = -phi ** 3
    elif name == "inverse_quadratic":
        phi = 1.0 / (u ** 2 + 1)
        slope = -2 * phi ** 2
    elif name == "gaussian":
        phi = np.exp(-u ** 2)
        slope = -2 * phi
    else:
        raise ValueError(f"unknown kernel {name!r}")
    return phi, np.where(u == 0, 0.0, slope)


def _monomials(z: np.ndarray, powers: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``p_j(z)`` (shape ``(M, R)``) and ``d p_j / d z_k`` (shape ``(M, R, N)``) for points ``z`` ``(M, N)``."""
    values = np.prod(z[:, None, :] ** powers[None], axis=-1)
    grads = np.zeros(values.shape + (z.shape[1],))
    for k in range(z.shape[1]):
        lowered = powers.copy()
        lowered[:, k] = np.maximum(lowered[:, k] - 1, 0)
        grads[:, :, k] = powers[None, :, k] * np.prod(z[:, None, :] ** lowered[None], axis=-1)
    return values, grads


class RBFCall:
    """``obj(x)`` for an ``RBFInterpolator`` (``neighbors=None``), with its derivatives.

    Examples
    --------
    >>> y = np.array([[0.0], [1.0], [2.0]])
    >>> obj = si.RBFInterpolator(y, np.array([0.0, 1.0, 2.0]), kernel="linear")     # the line x
    >>> call = RBFCall(obj, np.array([[0.5]]))
    >>> call.y, call.cotangents(np.ones(1))[1]
    (array([0.5]), array([[1.]]))
    """

    def __init__(self, obj: Any, x: Any) -> None:
        self.obj = obj
        self.y = obj(x)
        self.x = np.asarray(x, dtype=np.float64)
        self.missing = _NEIGHBORS if obj.neighbors is not None else None
        if self.missing:
            return
        Y = np.asarray(obj.y)
        self.Y, self.kernel, self.eps = Y, obj.kernel, float(obj.epsilon)
        self.powers = np.asarray(obj.powers)
        self.shift, self.scale = np.asarray(obj._shift), np.asarray(obj._scale)
        self.d = _values(obj)                       # (ny, S) real or complex
        ny, r = Y.shape[0], self.powers.shape[0]
        self.ny, self.r = ny, r
        # the system at the data
        self.diff_yy = Y[:, None, :] - Y[None, :, :]
        self.r_yy = np.linalg.norm(self.diff_yy, axis=-1)
        A, self.slope_yy = kernel_and_slope(self.kernel, self.eps * self.r_yy)
        self.phi_yy = A
        self.P, self.dP = _monomials((Y - self.shift) / self.scale, self.powers)
        M = np.zeros((ny + r, ny + r))
        M[:ny, :ny] = A + np.diag(np.asarray(obj.smoothing, dtype=np.float64))
        M[:ny, ny:] = self.P
        M[ny:, :ny] = self.P.T
        self.M = M
        rhs = np.concatenate((self.d, np.zeros((r, self.d.shape[1]), dtype=self.d.dtype)))
        self.z = np.linalg.solve(M, rhs) if np.isrealobj(rhs) else (
            np.linalg.solve(M, rhs.real) + 1j * np.linalg.solve(M, rhs.imag))
        # the evaluation
        self.diff_xy = self.x[:, None, :] - Y[None, :, :]
        self.r_xy = np.linalg.norm(self.diff_xy, axis=-1)
        self.K, self.slope_xy = kernel_and_slope(self.kernel, self.eps * self.r_xy)
        self.Px, self.dPx = _monomials((self.x - self.shift) / self.scale, self.powers)

    def _solve(self, rhs: np.ndarray) -> np.ndarray:
        if np.isrealobj(rhs):
            return np.linalg.solve(self.M, rhs)
        return np.linalg.solve(self.M, rhs.real) + 1j * np.linalg.solve(self.M, rhs.imag)

    def _out(self, values: np.ndarray) -> np.ndarray:
        return values.reshape(np.shape(self.y))

    def cotangents(self, dy: Any) -> tuple[Any, Any]:
        """The object's cotangent (``Tangent(RBFInterpolator, y=, values=, smoothing=, epsilon=)``) and ``x``'s."""
        if self.missing:
            missing = not_implemented(self.missing)
            return missing, missing
        ny, eps = self.ny, self.eps
        g = np.asarray(dy).reshape(self.x.shape[0], -1)                       # (Q, S)
        a, b = self.z[:ny], self.z[ny:]
        # the evaluation: f = K a + Px b
        ga = np.real(g @ np.conj(a).T)                                         # (Q, ny): Re sum_S g conj(a)
        gb = np.real(g @ np.conj(b).T)                                         # (Q, r)
        w_xy = eps ** 2 * self.slope_xy * ga                                   # d/d(x - y_i) of phi(eps r), weighted
        move = np.einsum("qi,qin->qin", w_xy, self.diff_xy)
        xbar = move.sum(axis=1) + np.einsum("qj,qjn->qn", gb, self.dPx) / self.scale
        ybar = -move.sum(axis=0)
        epsbar = float(np.sum(self.slope_xy * eps * self.r_xy ** 2 * ga))      # phi'(u) r = slope * u * r
        # the solve: lambda = M^{-1} E^T g
        zbar = np.concatenate((self.K.T @ g, self.Px.T @ g))
        lam = self._solve(zbar)
        la, lb = lam[:ny], lam[ny:]
        dbar = la
        # -lambda^T dM z: dA (sites and eps), dS, dP
        pair = -np.real(la @ np.conj(a).T)                                     # (ny, ny): -Re sum_S la_i conj(a_k)
        w_yy = eps ** 2 * self.slope_yy * pair
        move_yy = np.einsum("ik,ikn->ikn", w_yy, self.diff_yy)
        ybar += move_yy.sum(axis=1) - move_yy.sum(axis=0)
        epsbar += float(np.sum(self.slope_yy * eps * self.r_yy ** 2 * pair))
        smoothingbar = np.diag(pair).copy()
        poly = -(np.real(la @ np.conj(b).T) + np.real(a @ np.conj(lb).T))      # (ny, r): lambda_a b^T + a lambda_b^T
        ybar += np.einsum("ij,ijn->in", poly, self.dP) / self.scale
        obj_bar = Tangent(type(self.obj), y=ybar, values=dbar.reshape((ny,) + tuple(self.obj.d_shape)),
                          smoothing=smoothingbar, epsilon=epsbar)
        return obj_bar, xbar.reshape(self.x.shape)

    def tangent(self, fields: Any, dx: Any) -> Any:
        if self.missing:
            return not_implemented(self.missing)
        ny, eps = self.ny, self.eps
        dY = None if fields is None else fields.get("y")
        dd = None if fields is None else fields.get("values")
        ds = None if fields is None else fields.get("smoothing")
        de = None if fields is None else fields.get("epsilon")
        de = 0.0 if de is None else float(de)
        S = self.z.shape[1]
        # dM z
        forcing = np.zeros((ny + self.r, S), dtype=self.z.dtype)
        if dd is not None:
            forcing[:ny] += np.asarray(dd).reshape(ny, -1)
        a, b = self.z[:ny], self.z[ny:]
        dA = np.zeros((ny, ny))
        if dY is not None:
            rel = dY[:, None, :] - dY[None, :, :]
            dA += eps ** 2 * self.slope_yy * np.einsum("ikn,ikn->ik", self.diff_yy, rel)
            dP = np.einsum("ijn,in->ij", self.dP, dY / self.scale)
            forcing[:ny] -= dP @ b
            forcing[ny:] -= dP.T @ a
        if de:
            dA += self.slope_yy * eps * self.r_yy ** 2 * de
        if ds is not None:
            dA += np.diag(np.broadcast_to(np.asarray(ds, dtype=np.float64), (ny,)))
        forcing[:ny] -= dA @ a
        dz = self._solve(forcing)
        total = self.K @ dz[:ny] + self.Px @ dz[ny:]
        # dE z
        dK = np.zeros(self.K.shape)
        rel_x = np.zeros(self.diff_xy.shape)
        if dx is not None:
            rel_x += np.asarray(dx, dtype=np.float64)[:, None, :]
            total = total + np.einsum("qjn,qn->qj", self.dPx, np.asarray(dx, dtype=np.float64) / self.scale) @ b
        if dY is not None:
            rel_x -= dY[None, :, :]
        dK += eps ** 2 * self.slope_xy * np.einsum("qin,qin->qi", self.diff_xy, rel_x)
        if de:
            dK += self.slope_xy * eps * self.r_xy ** 2 * de
        total = total + dK @ a
        return self._out(total)


def _values(obj: Any) -> np.ndarray:
    """The data values as ``(ny, S)`` in their own dtype (SciPy keeps complex ones as a float view)."""
    return np.asarray(obj.d).view(obj.d_dtype).reshape(np.shape(obj.y)[0], -1)


# ---- the constructor ----------------------------------------------------------------------------------
@rrule.register(si.RBFInterpolator)
def rbfinterpolator_rrule(y: Any, d: Any, neighbors: Any = None, smoothing: Any = 0.0,
                          kernel: Any = "thin_plate_spline", epsilon: Any = None, degree: Any = None) -> Any:
    """Reverse rule of the ``RBFInterpolator`` constructor: its data (the fields of the object).

    Examples
    --------
    >>> from chainrules import unthunk
    >>> obj, pullback = rrule(si.RBFInterpolator, np.array([[0.0], [1.0], [2.0]]), np.zeros(3))
    >>> unthunk(pullback(Tangent(si.RBFInterpolator, values=np.array([1.0, 2.0, 3.0])))[2])
    array([1., 2., 3.])
    """
    obj = si.RBFInterpolator(y, d, neighbors, smoothing, kernel, epsilon, degree)
    projectors = {1: cotangent_projector(y), 2: cotangent_projector(d), 4: cotangent_projector(smoothing),
                  6: cotangent_projector(epsilon)}

    def rbfinterpolator_pullback(dy: Any) -> tuple[Any, ...]:
        read = read_object(dy, obj, si.RBFInterpolator)
        if passes_through(read):
            zero = passed_on(read)
            parts = {k: p(zero) for k, p in projectors.items()}
        else:
            sbar: Any = read["smoothing"]
            if sbar is not None and np.ndim(smoothing) == 0:
                sbar = float(np.sum(sbar))
            parts = {1: projectors[1](0.0 * np.asarray(y, dtype=np.float64) if read["y"] is None else read["y"]),
                     2: projectors[2](np.zeros(np.shape(d)) if read["values"] is None else read["values"]),
                     4: projectors[4](0.0 if sbar is None else sbar),
                     6: projectors[6](0.0 if read["epsilon"] is None else float(read["epsilon"]))}
        return tuple(parts.get(i, NoTangent()) for i in range(8))

    return obj, rbfinterpolator_pullback


@frule.register(si.RBFInterpolator)
def rbfinterpolator_frule(tangents: Any, y: Any, d: Any, neighbors: Any = None, smoothing: Any = 0.0,
                          kernel: Any = "thin_plate_spline", epsilon: Any = None, degree: Any = None) -> Any:
    """Forward rule of the ``RBFInterpolator`` constructor: the tangent of its data.

    Examples
    --------
    >>> from chainrules import NoTangent, ZeroTangent
    >>> frule((NoTangent(), ZeroTangent(), np.ones(3)), si.RBFInterpolator, np.array([[0.0], [1.0], [2.0]]),
    ...       np.zeros(3))[1].values
    array([1., 1., 1.])
    """
    obj = si.RBFInterpolator(y, d, neighbors, smoothing, kernel, epsilon, degree)
    values = [y, d, neighbors, smoothing, kernel, epsilon]
    dense = [tangent_array(tangents[i + 1], v) if len(tangents) > i + 1 and i in (0, 1) else None
             for i, v in enumerate(values)]
    ds = tangent_value(tangents[4]) if len(tangents) > 4 else None
    de = tangent_value(tangents[6]) if len(tangents) > 6 and epsilon is not None else None
    for t in (*dense, ds, de):
        if isinstance(t, NotImplementedTangent):
            return obj, t
    fields = {"y": dense[0], "values": dense[1],
              "smoothing": None if ds is None else np.broadcast_to(np.asarray(ds, dtype=np.float64),
                                                                    np.shape(obj.smoothing)).copy(),
              "epsilon": None if de is None else float(de)}
    return obj, object_tangent(obj, fields)


# ---- calling it -----------------------------------------------------------------------------------------
def _call_rrule(obj: Any, x: Any, method: bool) -> Any:
    return object_call_rrule(RBFCall(obj, x), obj, x, "scipy.interpolate.RBFInterpolator.__call__",
                             "rbfinterpolator", method)


def _call_frule(tangents: Any, obj: Any, x: Any, position: int) -> Any:
    return object_call_frule(RBFCall(obj, x), tangents, obj, x, position)


@rrule.register_functor(si.RBFInterpolator)
def rbfinterpolator_call_rrule(obj: Any, x: Any) -> Any:
    """Reverse rule of calling an ``RBFInterpolator``: its data, ``smoothing``, ``epsilon`` and the points.

    Examples
    --------
    >>> from chainrules import unthunk
    >>> obj = si.RBFInterpolator(np.array([[0.0], [1.0], [2.0]]), np.array([0.0, 1.0, 2.0]), kernel="linear")
    >>> y, pullback = rrule(obj, np.array([[0.5]]))
    >>> np.round(unthunk(pullback(np.ones(1))[0]).values, 12) + 0.0    # halfway between the first two
    array([0.5, 0.5, 0. ])
    """
    return _call_rrule(obj, x, method=False)


@frule.register_functor(si.RBFInterpolator)
def rbfinterpolator_call_frule(tangents: Any, obj: Any, x: Any) -> Any:
    """Forward rule of calling an ``RBFInterpolator``.

    Examples
    --------
    >>> from chainrules import ZeroTangent
    >>> obj = si.RBFInterpolator(np.array([[0.0], [1.0], [2.0]]), np.array([0.0, 1.0, 2.0]), kernel="linear")
    >>> np.round(frule((ZeroTangent(), np.ones((1, 1))), obj, np.array([[0.5]]))[1], 12)
    array([1.])
    """
    return _call_frule(tangents, obj, x, 0)


@rrule.register(si.RBFInterpolator.__call__, si.RBFInterpolator)
def rbfinterpolator_method_call_rrule(self: Any, x: Any) -> Any:
    """Reverse rule of ``RBFInterpolator.__call__``.

    Examples
    --------
    >>> from chainrules import unthunk
    >>> obj = si.RBFInterpolator(np.array([[0.0], [1.0], [2.0]]), np.array([0.0, 1.0, 2.0]), kernel="linear")
    >>> np.round(unthunk(rrule(obj.__call__, np.array([[0.5]]))[1](np.ones(1))[2]), 12)
    array([[1.]])
    """
    return _call_rrule(self, x, method=True)


@frule.register(si.RBFInterpolator.__call__, si.RBFInterpolator)
def rbfinterpolator_method_call_frule(tangents: Any, self: Any, x: Any) -> Any:
    """Forward rule of ``RBFInterpolator.__call__``.

    Examples
    --------
    >>> from chainrules import NoTangent, ZeroTangent
    >>> obj = si.RBFInterpolator(np.array([[0.0], [1.0], [2.0]]), np.array([0.0, 1.0, 2.0]), kernel="linear")
    >>> np.round(frule((NoTangent(), ZeroTangent(), np.ones((1, 1))), si.RBFInterpolator.__call__, obj,
    ...                np.array([[0.5]]))[1], 12)
    array([1.])
    """
    return _call_frule(tangents, self, x, 1)


# ---- sample inputs ----------------------------------------------------------------------------------
def _sites(rng: np.random.Generator) -> np.ndarray:
    base = np.stack(np.meshgrid(np.arange(3.0), np.arange(3.0), indexing="ij"), -1).reshape(-1, 2)
    return base + 0.2 * rng.uniform(-1, 1, base.shape)


def _queries() -> np.ndarray:
    return np.array([[0.4, 0.6], [1.3, 1.7], [2.2, 0.9]])


@sample_inputs(si.RBFInterpolator)
def _constructor_samples(rng: np.random.Generator) -> list[Sample]:
    y = _sites(rng)
    return [Sample(y, rng.standard_normal(9), label="thin plate spline"),
            Sample(y, rng.standard_normal((9, 2)), None, 0.1, "gaussian", 1.3, label="everything by position"),
            Sample(y, rng.standard_normal(9), fkwargs={"kernel": "cubic"}, label="cubic by keyword")]


@sample_inputs(si.RBFInterpolator.__call__)
def _call_samples(rng: np.random.Generator) -> list[Sample]:
    y = _sites(rng)
    samples = [Sample(si.RBFInterpolator(y, rng.standard_normal(9)), _queries(), label="thin plate spline")]
    for kernel in ("linear", "cubic", "quintic", "multiquadric", "inverse_multiquadric", "inverse_quadratic",
                   "gaussian"):
        samples.append(Sample(si.RBFInterpolator(y, rng.standard_normal(9), kernel=kernel, epsilon=0.9), _queries(),
                              label=kernel))
    samples += [Sample(si.RBFInterpolator(y, rng.standard_normal((9, 2)), smoothing=rng.uniform(0.1, 0.5, 9),
                                          degree=2), _queries(), label="vector values, smoothing per point, degree 2"),
                Sample(si.RBFInterpolator(y, rng.standard_normal(9) + 1j * rng.standard_normal(9)), _queries(),
                       label="complex values")]
    return samples
