"""``RegularGridInterpolator`` (constructor and calls) and ``interpn``: with respect to the grid, the
values and the query points, for the methods ``linear``, ``nearest``, ``slinear``, ``cubic``,
``quintic`` and their ``_legacy`` variants (and ``nu`` derivatives).

The object's tangent is ``Tangent(RegularGridInterpolator, grid=Tangent(tuple, ...), values=...)``
with the grid and values as the object keeps them (descending axes flipped to ascending; the
constructor's rules flip them back).

The maths
---------
Every method but ``nearest`` and ``pchip`` is the tensor-product spline interpolant of degree
``k`` (1 for ``linear``/``slinear``, 3 for ``cubic``, 5 for ``quintic``): see :mod:`._tensor`.
SciPy's ``slinear``/``cubic``/``quintic`` find its coefficients with an iterative solver
(``gcrotmk``, to its tolerance); the derivatives are those of the exact interpolant (pass
``solver=scipy.sparse.linalg.spsolve`` for a primal that is exact too). ``nearest`` is the
value at the nearest node (the node's cotangent; piecewise constant in the points and the
grid). Points outside the grid with a ``fill_value`` get that constant (no derivative in the
grid, the values or the point; NaN too); with ``fill_value=None`` they extrapolate. At a grid
node the derivative in the point is that of the cell SciPy picks (the one above; the last cell
is closed). ``pchip`` (a recursive PCHIP per point) is not implemented: use ``cubic``.
``interpn`` differentiates ``fill_value`` (its cotangent is the output cotangent summed over
the points that got it); the ``RegularGridInterpolator`` constructor does not (it is not a
field of the object's tangent).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.interpolate as si

from chainrules.rulesets.arrays._linear_maps import output_tangent, tangent_array
from chainrules.rulesets.contractions._multilinear import lazy_cotangent
from chainrules.rulesets.interpolate._objects import object_fields, object_tangent, read_object
from chainrules.rulesets.interpolate._spline_rules import part
from chainrules.rulesets.interpolate._tensor import TensorSpline
from chainrules.rulesets.reductions._registration import name_pullback
from chainrules.rulesets.reductions._tangent_values import passed_on
from chainrules_core import (
    NoTangent,
    NotImplementedTangent,
    ProjectTo,
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

__all__ = ["GridCall"]

_DEGREE = {"linear": 1, "slinear": 1, "cubic": 3, "quintic": 5, "slinear_legacy": 1, "cubic_legacy": 3,
           "quintic_legacy": 5}
_PCHIP = ("RegularGridInterpolator/interpn with method='pchip' (a recursive PCHIP per point) is not "
          "differentiated; use method='cubic'")
_FILL = ("the fill_value of a RegularGridInterpolator is not differentiated (it is not a field of the object's "
         "tangent); interpn(..., fill_value=...) differentiates it")


class GridCall:
    """``obj(xi, method, nu=nu)`` for a ``RegularGridInterpolator``: its output and derivatives.

    Examples
    --------
    >>> grid = (np.array([0.0, 1.0, 2.0]), np.array([0.0, 1.0]))
    >>> obj = si.RegularGridInterpolator(grid, np.array([[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]]))
    >>> call = GridCall(obj, np.array([[0.5, 0.5]]), None, None)
    >>> call.y, call.cotangents(np.ones(1))[1]            # f = 2 x + y
    (array([1.5]), array([[2., 1.]]))
    """

    def __init__(self, obj: Any, xi: Any, method: Any, nu: Any) -> None:
        self.obj = obj
        self.y = obj(xi, method, nu=nu)
        self.method = obj.method if method is None else method
        grid = tuple(np.asarray(g, dtype=np.float64) for g in obj._grid)
        self.grid, self.D = grid, len(grid)
        values = np.asarray(obj._values)
        self.value_shape = values.shape
        self.V: np.ndarray = values.reshape(values.shape[:self.D] + (-1,))
        self.xi_form = xi
        points = self._points(xi)
        self.xi_shape = points.shape
        self.points = points.reshape(-1, self.D).astype(np.float64)
        P = self.points.shape[0]
        nans = np.any(np.isnan(self.points), axis=1)
        outside = np.zeros(P, dtype=bool)
        for d, g in enumerate(grid):
            outside |= (self.points[:, d] < g[0]) | (self.points[:, d] > g[-1])
        filled = outside if (not obj.bounds_error and obj.fill_value is not None) else np.zeros(P, dtype=bool)
        self.live = ~(nans | filled)
        safe = np.where(self.live[:, None], self.points, np.array([g[0] for g in grid]))
        self.missing = _PCHIP if self.method == "pchip" else None
        if self.method == "nearest":
            from scipy.interpolate._rgi_cython import find_indices

            indices, distances = find_indices(grid, safe.T)
            self.nearest: tuple[Any, ...] = tuple(np.where(dist <= 0.5, i, i + 1)
                                                  for i, dist in zip(indices, distances))
        elif self.missing is None:
            orders = None if nu is None else tuple(int(v) for v in nu)
            self.spline = TensorSpline(grid, self.V, _DEGREE[self.method], safe, extrapolate=True, orders=orders)

    def _points(self, xi: Any) -> np.ndarray:
        if isinstance(xi, tuple):
            return np.stack(np.broadcast_arrays(*[np.asarray(c, dtype=np.float64) for c in xi]), axis=-1)
        points = np.asarray(xi, dtype=np.float64)
        return points.reshape(points.shape + (1,)) if self.D == 1 and points.shape[-1:] != (1,) else points

    def _out(self, values: np.ndarray) -> np.ndarray:
        return values.reshape(self.xi_shape[:-1] + self.value_shape[self.D:])

    def _xi_cotangent(self, xibar: np.ndarray) -> Any:
        full = xibar.reshape(self.xi_shape)
        if isinstance(self.xi_form, tuple):
            parts = []
            for d, c in enumerate(self.xi_form):
                value = full[..., d]
                shape = np.shape(c)
                while value.ndim > len(shape):
                    value = value.sum(axis=0)
                for axis, size in enumerate(shape):
                    if size == 1 and value.shape[axis] != 1:
                        value = value.sum(axis=axis, keepdims=True)
                parts.append(value)
            return Tangent(tuple, *parts)
        return full.reshape(np.shape(self.xi_form))

    def _xi_tangent(self, dxi: Any) -> Any:
        if dxi is None:
            return None
        if isinstance(self.xi_form, tuple):
            parts = [part(dxi, d) for d in range(self.D)]
            parts = [np.zeros(np.shape(c)) if v is None else np.asarray(v, dtype=np.float64)
                     for v, c in zip(parts, self.xi_form)]
            return np.stack(np.broadcast_arrays(*parts), axis=-1).reshape(-1, self.D)
        return np.asarray(dxi, dtype=np.float64).reshape(-1, self.D)

    def cotangents(self, dy: Any) -> tuple[Any, Any]:
        """The object's cotangent (``Tangent(RegularGridInterpolator, grid=..., values=...)``) and ``xi``'s."""
        if self.missing is not None:
            missing = not_implemented(self.missing)
            return missing, missing
        g = np.asarray(dy).reshape(self.points.shape[0], -1) * self.live[:, None]
        if self.method == "nearest":
            Vbar = np.zeros(self.V.shape, dtype=np.result_type(g, np.float64))
            np.add.at(Vbar, self.nearest, g)
            grid_bars = [np.zeros(gr.size) for gr in self.grid]
            xibar = np.zeros(self.points.shape)
        else:
            grid_bars, Vbar, xibar = self.spline.transpose(g)
        obj_bar = Tangent(type(self.obj), grid=Tangent(tuple, *grid_bars), values=Vbar.reshape(self.value_shape))
        return obj_bar, self._xi_cotangent(xibar)

    def tangent(self, fields: Any, dxi: Any) -> Any:
        if self.missing is not None:
            return not_implemented(self.missing)
        dgrid = [None] * self.D if fields is None or fields["grid"] is None else list(fields["grid"])
        dV = None if fields is None or fields["values"] is None else fields["values"].reshape(self.V.shape)
        step = self._xi_tangent(dxi)
        if self.method == "nearest":
            columns = int(self.V.shape[-1])
            total = np.zeros((self.points.shape[0], columns)) if dV is None else dV[self.nearest]
        else:
            total = self.spline.tangent(dgrid, dV, step)
        return self._out(total * self.live[:, None])


# ---- the constructor ----------------------------------------------------------------------------------
def _descending(points: Any) -> list[int]:
    return [d for d, p in enumerate(points) if np.size(p) > 1 and np.asarray(p)[0] > np.asarray(p)[-1]]


@rrule.register(si.RegularGridInterpolator)
def regulargridinterpolator_rrule(points: Any, values: Any, method: Any = "linear", bounds_error: Any = True,
                                  fill_value: Any = np.nan, *, solver: Any = None, solver_args: Any = None) -> Any:
    """Reverse rule of the ``RegularGridInterpolator`` constructor: the grid and the values (through the flips).

    Examples
    --------
    >>> from chainrules import unthunk
    >>> points = (np.array([1.0, 0.0]), np.array([0.0, 1.0]))
    >>> obj, pullback = rrule(si.RegularGridInterpolator, points, np.array([[1.0, 2.0], [3.0, 4.0]]))
    >>> unthunk(pullback(Tangent(si.RegularGridInterpolator, values=np.array([[1.0, 0.0], [0.0, 0.0]])))[2])
    array([[0., 0.],
           [1., 0.]])
    """
    obj = si.RegularGridInterpolator(points, values, method, bounds_error, fill_value, solver=solver,
                                     solver_args=solver_args)
    flips = _descending(points)
    project_points, project_values = cotangent_projector(points), cotangent_projector(values)

    def regulargridinterpolator_pullback(dy: Any) -> tuple[Any, ...]:
        read = read_object(dy, obj, si.RegularGridInterpolator)
        if passes_through(read):
            zero = passed_on(read)
            return NoTangent(), project_points(zero), project_values(zero), NoTangent(), NoTangent(), NoTangent()
        grid_bars = [np.zeros(np.size(p)) if read["grid"] is None or read["grid"][d] is None else read["grid"][d]
                     for d, p in enumerate(points)]
        grid_bars = [g[::-1].copy() if d in flips else g for d, g in enumerate(grid_bars)]
        vbar = np.zeros(np.shape(values)) if read["values"] is None else read["values"]
        if flips:
            vbar = np.flip(vbar, axis=tuple(flips)).copy()
        fill = not_implemented(_FILL)
        return (NoTangent(), project_points(Tangent(type(points), *grid_bars)), project_values(vbar), NoTangent(),
                NoTangent(), cotangent_projector(fill_value)(fill) if isinstance(fill_value, float) else NoTangent())

    return obj, regulargridinterpolator_pullback


@frule.register(si.RegularGridInterpolator)
def regulargridinterpolator_frule(tangents: Any, points: Any, values: Any, method: Any = "linear",
                                  bounds_error: Any = True, fill_value: Any = np.nan, *, solver: Any = None,
                                  solver_args: Any = None) -> Any:
    """Forward rule of the ``RegularGridInterpolator`` constructor.

    Examples
    --------
    >>> from chainrules import NoTangent, ZeroTangent
    >>> points = (np.array([0.0, 1.0]), np.array([0.0, 1.0]))
    >>> obj, t = frule((NoTangent(), ZeroTangent(), np.ones((2, 2))), si.RegularGridInterpolator, points,
    ...                np.zeros((2, 2)))
    >>> t.values
    array([[1., 1.],
           [1., 1.]])
    """
    obj = si.RegularGridInterpolator(points, values, method, bounds_error, fill_value, solver=solver,
                                     solver_args=solver_args)
    flips = _descending(points)
    dvalues = tangent_array(tangents[2], values) if len(tangents) > 2 else None
    if isinstance(dvalues, NotImplementedTangent):
        return obj, dvalues
    dpoints = unthunk(tangents[1])
    grid = []
    for d in range(len(points)):
        entry = part(dpoints, d)
        if entry is not None:
            entry = np.asarray(entry, dtype=np.float64)
            entry = entry[::-1] if d in flips else entry
        grid.append(entry)
    if dvalues is not None and flips:
        dvalues = np.flip(np.asarray(dvalues), axis=tuple(flips))
    return obj, object_tangent(obj, {"grid": None if all(g is None for g in grid) else grid, "values": dvalues})


# ---- calling it -----------------------------------------------------------------------------------------
def _call_rrule(obj: Any, xi: Any, method: Any, nu: Any, with_self: bool) -> Any:
    call = GridCall(obj, xi, method, nu)
    project_obj, project_xi = ProjectTo(obj), cotangent_projector(xi)
    name = "scipy.interpolate.RegularGridInterpolator.__call__"

    def pullback(dy: Any) -> tuple[Any, ...]:
        dy = read_cotangent(dy, call.y, name)
        if passes_through(dy):
            zero = passed_on(dy)
            parts: tuple[Any, ...] = (project_obj(zero), project_xi(zero), NoTangent())
        else:
            memo: list[Any] = []

            def pick(i: int) -> Any:
                def value() -> Any:
                    if not memo:
                        memo.extend(call.cotangents(dy))
                    return memo[i]

                return value

            parts = (lazy_cotangent(project_obj, pick(0)), lazy_cotangent(project_xi, pick(1)), NoTangent())
        return (NoTangent(), *parts) if with_self else parts

    return call.y, name_pullback(pullback, "regulargridinterpolator___call__" if with_self else
                                 "regulargridinterpolator_call")


def _call_frule(tangents: Any, obj: Any, xi: Any, method: Any, nu: Any, position: int) -> Any:
    call = GridCall(obj, xi, method, nu)
    fields = object_fields(tangents[position], obj)
    dxi = unthunk(tangents[position + 1]) if isinstance(xi, tuple) else tangent_array(tangents[position + 1], xi)
    for d in (fields, dxi):
        if isinstance(d, NotImplementedTangent):
            return call.y, d
    if dxi is not None and not isinstance(xi, tuple) and passes_through(dxi):
        dxi = None
    if fields is None and (dxi is None or passes_through(dxi)):
        return call.y, output_tangent(None, call.y)
    return call.y, output_tangent(call.tangent(fields, None if passes_through(dxi) else dxi), call.y)


@rrule.register_functor(si.RegularGridInterpolator)
def regulargridinterpolator_call_rrule(obj: Any, xi: Any, method: Any = None, *, nu: Any = None) -> Any:
    """Reverse rule of calling a ``RegularGridInterpolator``: its grid and values, and the points.

    Examples
    --------
    >>> from chainrules import unthunk
    >>> grid = (np.array([0.0, 1.0, 2.0]), np.array([0.0, 1.0]))
    >>> obj = si.RegularGridInterpolator(grid, np.array([[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]]))
    >>> y, pullback = rrule(obj, np.array([[0.5, 0.5]]))
    >>> dobj, dxi = (unthunk(c) for c in pullback(np.ones(1))[:2])
    >>> dobj.values, dxi                                 # the four corners, a quarter each
    (array([[0.25, 0.25],
           [0.25, 0.25],
           [0.  , 0.  ]]), array([[2., 1.]]))
    """
    return _call_rrule(obj, xi, method, nu, with_self=False)


@frule.register_functor(si.RegularGridInterpolator)
def regulargridinterpolator_call_frule(tangents: Any, obj: Any, xi: Any, method: Any = None, *,
                                       nu: Any = None) -> Any:
    """Forward rule of calling a ``RegularGridInterpolator``.

    Examples
    --------
    >>> from chainrules import ZeroTangent
    >>> grid = (np.array([0.0, 1.0, 2.0]), np.array([0.0, 1.0]))
    >>> obj = si.RegularGridInterpolator(grid, np.array([[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]]))
    >>> frule((ZeroTangent(), np.array([[1.0, 0.0]])), obj, np.array([[0.5, 0.5]]))[1]
    array([2.])
    """
    return _call_frule(tangents, obj, xi, method, nu, 0)


@rrule.register(si.RegularGridInterpolator.__call__, si.RegularGridInterpolator)
def regulargridinterpolator_method_call_rrule(self: Any, xi: Any, method: Any = None, *, nu: Any = None) -> Any:
    """Reverse rule of ``RegularGridInterpolator.__call__``.

    Examples
    --------
    >>> from chainrules import unthunk
    >>> grid = (np.array([0.0, 1.0, 2.0]),)
    >>> obj = si.RegularGridInterpolator(grid, np.array([0.0, 2.0, 3.0]))
    >>> unthunk(rrule(obj.__call__, np.array([[1.5]]))[1](np.ones(1))[2])
    array([[1.]])
    """
    return _call_rrule(self, xi, method, nu, with_self=True)


@frule.register(si.RegularGridInterpolator.__call__, si.RegularGridInterpolator)
def regulargridinterpolator_method_call_frule(tangents: Any, self: Any, xi: Any, method: Any = None, *,
                                              nu: Any = None) -> Any:
    """Forward rule of ``RegularGridInterpolator.__call__``.

    Examples
    --------
    >>> from chainrules import NoTangent, ZeroTangent
    >>> obj = si.RegularGridInterpolator((np.array([0.0, 1.0, 2.0]),), np.array([0.0, 2.0, 3.0]))
    >>> frule((NoTangent(), ZeroTangent(), np.ones((1, 1))), si.RegularGridInterpolator.__call__, obj,
    ...       np.array([[1.5]]))[1]
    array([1.])
    """
    return _call_frule(tangents, self, xi, method, nu, 1)


# ---- interpn --------------------------------------------------------------------------------------------
def _filled(obj: Any, xi: Any) -> np.ndarray:
    """Which points of ``obj(xi)`` get ``fill_value`` (the shape of ``xi`` without its last axis)."""
    grid = obj._grid
    if isinstance(xi, tuple):
        points = np.stack(np.broadcast_arrays(*[np.asarray(c, dtype=np.float64) for c in xi]), axis=-1)
    else:
        points = np.asarray(xi, dtype=np.float64)
        if len(grid) == 1 and points.shape[-1:] != (1,):
            points = points[..., None]
    if obj.bounds_error or obj.fill_value is None:
        return np.zeros(points.shape[:-1], dtype=bool)
    outside = np.zeros(points.shape[:-1], dtype=bool)
    for d, g in enumerate(grid):
        outside |= (points[..., d] < g[0]) | (points[..., d] > g[-1])
    return outside


@rrule.register(si.interpn)
def interpn_rrule(points: Any, values: Any, xi: Any, method: Any = "linear", bounds_error: Any = True,
                  fill_value: Any = np.nan) -> Any:
    """Reverse rule of ``interpn``: the grid, the values and the points.

    Examples
    --------
    >>> from chainrules import unthunk
    >>> points = (np.array([0.0, 1.0, 2.0]), np.array([0.0, 1.0]))
    >>> values = np.array([[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]])
    >>> y, pullback = rrule(si.interpn, points, values, np.array([[0.5, 0.5]]))
    >>> y, unthunk(pullback(np.ones(1))[3])
    (array([1.5]), array([[2., 1.]]))
    """
    obj, construct_pullback = regulargridinterpolator_rrule(points, values, method, bounds_error, fill_value)
    y, call_pullback = _call_rrule(obj, xi, None, None, with_self=False)
    filled = _filled(obj, xi).ravel() if differentiable(fill_value) else None
    project_fill = cotangent_projector(fill_value) if filled is not None else None

    def interpn_pullback(dy: Any) -> tuple[Any, ...]:
        dy = read_cotangent(dy, y, si.interpn)
        dobj, dxi, _ = call_pullback(dy)
        made = construct_pullback(unthunk(dobj))
        if project_fill is None or filled is None:
            fill: Any = NoTangent()
        elif passes_through(dy):
            fill = project_fill(passed_on(dy))
        else:  # the points outside get fill_value: its cotangent is theirs, summed
            fill = project_fill(np.asarray(dy).reshape(filled.size, -1)[filled].sum())
        return NoTangent(), made[1], made[2], dxi, NoTangent(), NoTangent(), fill

    return y, interpn_pullback


@frule.register(si.interpn)
def interpn_frule(tangents: Any, points: Any, values: Any, xi: Any, method: Any = "linear", bounds_error: Any = True,
                  fill_value: Any = np.nan) -> Any:
    """Forward rule of ``interpn``.

    Examples
    --------
    >>> from chainrules import NoTangent, ZeroTangent
    >>> points = (np.array([0.0, 1.0, 2.0]), np.array([0.0, 1.0]))
    >>> values = np.array([[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]])
    >>> frule((NoTangent(), ZeroTangent(), np.ones((3, 2)), ZeroTangent()), si.interpn, points, values,
    ...       np.array([[0.5, 0.5]]))[1]
    array([1.])
    """
    obj, dobj = regulargridinterpolator_frule(tangents[:3], points, values, method, bounds_error, fill_value)
    if isinstance(dobj, NotImplementedTangent):
        return obj(xi), dobj
    y, dy = _call_frule((dobj, tangents[3] if len(tangents) > 3 else None), obj, xi, None, None, 0)
    dfill = unthunk(tangents[6]) if len(tangents) > 6 and differentiable(fill_value) else None
    if dfill is None or passes_through(dfill) or isinstance(dy, NotImplementedTangent):
        return y, dy
    filled = _filled(obj, xi)  # the points outside get fill_value: they move with it
    moved = np.broadcast_to((filled * np.asarray(dfill)).reshape(filled.shape + (1,) * (np.ndim(y) - filled.ndim)),
                            np.shape(y))
    return y, output_tangent(moved if passes_through(dy) else dy + moved, y)
    filled = GridCall(obj, xi, None, None).filled  # the points outside get fill_value: they move with it
    shape = np.shape(y)
    moved = np.broadcast_to(filled.reshape(filled.shape + (1,) * (len(shape) - 1 - 0) if False else
                                           shape[:np.ndim(y) - (len(shape) - filled.ndim)] if False else
                                           (-1,) + (1,) * 0), filled.shape)
    return y, dy


# ---- sample inputs ----------------------------------------------------------------------------------
# small grids (the testers' finite differences take every grid and value entry): 5 x 4, enough for
# cubic; quintic needs 6 nodes per axis
_G1 = np.array([0.0, 1.5, 2.6, 3.2, 4.9])
_G2 = np.array([-1.0, 0.5, 1.4, 2.9])
_Q1 = np.array([0.0, 0.7, 1.5, 2.6, 3.2, 4.9])
_Q2 = np.array([-1.0, -0.2, 0.5, 1.4, 2.0, 2.9])


def _points(rng: np.random.Generator, n: int = 5) -> np.ndarray:
    """Inside the grid, away from its nodes and from the nearest-node switches (the cells' midpoints)."""
    return np.stack([np.array([0.2, 0.95, 1.85, 2.8, 4.25])[:n], np.array([-0.75, 0.0, 0.75, 1.6, 2.25])[:n]], 1)


def _values(rng: np.random.Generator, trailing: tuple[int, ...] = (), grid: Any = (_G1, _G2)) -> np.ndarray:
    return rng.standard_normal(tuple(g.size for g in grid) + trailing)


@sample_inputs(si.RegularGridInterpolator)
def _constructor_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample((_G1, _G2), _values(rng), label="linear"),
            Sample((_G1[::-1].copy(), _G2), _values(rng), "cubic", label="a descending axis, cubic by position"),
            Sample((_G1, _G2), _values(rng, (2,)), fkwargs={"method": "nearest", "bounds_error": False},
                   label="nearest, vector values, keywords"),
            Sample((_G1.astype(np.float32), _G2), _values(rng).astype(np.float32), label="float32")]


def _rgi(rng: np.random.Generator, method: str, **kwargs: Any) -> Any:
    import scipy.sparse.linalg as ssl

    if method in ("slinear", "cubic", "quintic"):
        kwargs.setdefault("solver", ssl.spsolve)  # the exact interpolant (the default solver is iterative)
    grid = (_Q1, _Q2) if "quintic" in method else (_G1, _G2)
    return si.RegularGridInterpolator(grid, _values(rng, grid=grid), method, **kwargs)


@sample_inputs(si.RegularGridInterpolator.__call__)
def _call_samples(rng: np.random.Generator) -> list[Sample]:
    outside = np.array([[-0.3, 0.2], [1.1, 3.4], [2.0, 1.0]])
    samples = [Sample(_rgi(rng, method), _points(rng), label=method)
               for method in ("linear", "nearest", "slinear", "cubic", "quintic")]
    samples += [Sample(_rgi(rng, "linear"), _points(rng), "cubic_legacy",
                       label="the method given at the call (cubic_legacy: exact)"),
                Sample(_rgi(rng, "cubic"), _points(rng), fkwargs={"nu": (1, 0)}, label="nu=(1, 0)"),
                Sample(_rgi(rng, "linear", bounds_error=False, fill_value=None), outside, label="extrapolating"),
                Sample(_rgi(rng, "cubic", bounds_error=False, fill_value=0.5), outside, label="a constant outside"),
                Sample(si.RegularGridInterpolator((_G1, _G2), _values(rng, (2,))), _points(rng).reshape(5, 1, 2),
                       label="vector values, 2-d points"),
                Sample(_rgi(rng, "linear"), (np.array([0.2, 1.85]), np.array([-0.75, 1.6])),
                       label="points as a tuple of coordinates"),
                Sample(si.RegularGridInterpolator((_G1,), rng.standard_normal(5) + 1j * rng.standard_normal(5)),
                       _points(rng)[:, :1], label="1-d, complex values")]
    return samples


@sample_inputs(si.interpn)
def _interpn_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample((_G1, _G2), _values(rng), _points(rng), label="linear"),
            Sample((_G1, _G2[::-1].copy()), _values(rng), _points(rng), "cubic_legacy",
                   label="a descending axis, cubic (legacy: exact) by position"),
            Sample((_G1, _G2), _values(rng), _points(rng), fkwargs={"method": "slinear"}, label="slinear by keyword"),
            Sample((_G1, _G2), _values(rng), _points(rng), fkwargs={"method": "nearest"}, label="nearest"),
            Sample((_G1, _G2), _values(rng), np.array([[-0.3, 0.2], [1.1, 3.4], [2.0, 1.0]]), "linear", False, 0.5,
                   label="points outside get fill_value (differentiated)")]
