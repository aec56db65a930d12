"""Finite differences and random tangents for SciPy's interpolator objects.

Imported the first time a ``scipy.interpolate`` object is flattened (see
:data:`chainrules.testing.tree._PROVIDERS`), this module registers each interpolator class
with :func:`~chainrules.testing.tree.register_tree_node`, so that the finite differences,
``rand_tangent`` and the testers perturb exactly the arrays the object is made of, and
build ``Tangent`` s with the fields the rules use:

* ``PPoly`` and its subclasses (``CubicSpline``, ``CubicHermiteSpline``,
  ``PchipInterpolator``, ``Akima1DInterpolator``): ``c`` (in SciPy's stored layout,
  ``(order + 1, intervals, ...)``) and the breakpoints ``x``;
* ``BSpline``: the knots ``t`` and the coefficients ``c``;
* ``interp1d``: the sorted sites ``x`` and values ``y`` (rebuilt through the constructor, so a
  spline kind refits);
* ``RegularGridInterpolator``: each axis of the grid and the values, as the object keeps them
  (rebuilt through the constructor; the spline methods with an exact solver);
* ``RBFInterpolator``: its sites ``y``, values (``d``, as the field ``values``), ``smoothing`` and
  ``epsilon`` (rebuilt through the constructor);
* ``UnivariateSpline`` and its subclasses: the knots ``t`` and the coefficients ``c`` of
  FITPACK's ``(t, c, k)`` (``_eval_args``).

Examples
--------
>>> import numpy as np
>>> from scipy.interpolate import PPoly
>>> from chainrules.testing import tree_flatten
>>> leaves, treedef = tree_flatten(PPoly(np.ones((2, 1)), np.array([0.0, 1.0])))
>>> [leaf.shape for leaf in leaves]
[(2, 1), (2,)]
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.interpolate as si

from chainrules.testing.tree import register_tree_node
from chainrules_core import AbstractZero, Tangent, ZeroTangent

__all__: list[str] = []


def _fields_of(dx: Any, names: tuple[str, ...]) -> list[Any]:
    """A tangent's fields in order: from a ``Tangent``, a zero, or an object with those attributes."""
    if isinstance(dx, AbstractZero):
        return [ZeroTangent()] * len(names)
    return [getattr(dx, name, ZeroTangent()) for name in names]


def _register(cls: type, names: tuple[str, ...], statics: tuple[str, ...], rebuild: Any) -> None:
    def flatten(obj: Any) -> tuple[list[Any], Any]:
        return [getattr(obj, name) for name in names], (type(obj), tuple(getattr(obj, s) for s in statics))

    def unflatten(aux: Any, children: list[Any]) -> Any:
        kind, static = aux
        return rebuild(kind, children, static)

    def flatten_tangent(dx: Any, aux: Any) -> list[Any]:
        return _fields_of(dx, names)

    def unflatten_tangent(aux: Any, children: list[Any]) -> Any:
        return Tangent(aux[0], **dict(zip(names, children)))

    register_tree_node(cls, flatten, unflatten, flatten_tangent=flatten_tangent,
                       unflatten_tangent=unflatten_tangent)


_register(si.PPoly, ("c", "x"), ("extrapolate", "axis"),
          lambda kind, ch, st: kind.construct_fast(ch[0], ch[1], *st))
_register(si.BSpline, ("t", "c"), ("k", "extrapolate", "axis"),
          lambda kind, ch, st: kind.construct_fast(ch[0], ch[1], *st))


def _fitpack_flatten(obj: Any) -> tuple[list[Any], Any]:
    t, c, k = obj._eval_args
    return [t, c], (type(obj), (k, obj.ext))


def _fitpack_unflatten(aux: Any, children: list[Any]) -> Any:
    kind, (k, ext) = aux
    return kind._from_tck((children[0], children[1], k), ext)


def _interp1d_statics(obj: Any) -> tuple[Any, ...]:
    kind = obj._kind if obj._kind != "spline" else int(obj._spline.k)
    fill = obj.fill_value
    if obj._kind in ("previous", "next") and isinstance(fill, tuple) and obj.bounds_error is False:
        # SciPy turned fill_value='extrapolate' into (nan, y[-1]) or (y[0], nan): keep it tied to y
        end = -1 if obj._kind == "previous" else 0
        if np.array_equal(np.asarray(fill[1 if end == -1 else 0]), np.take(obj.y, end, obj.axis)):
            fill = "extrapolate"
    return kind, obj.axis, obj.bounds_error, fill


register_tree_node(si.interp1d, lambda obj: ([obj.x, obj.y], (type(obj), _interp1d_statics(obj))),
                   lambda aux, ch: aux[0](ch[0], ch[1], aux[1][0], aux[1][1], True, aux[1][2], aux[1][3], True),
                   flatten_tangent=lambda dx, aux: _fields_of(dx, ("x", "y")),
                   unflatten_tangent=lambda aux, children: Tangent(aux[0], x=children[0], y=children[1]))


def _rgi_flatten(obj: Any) -> tuple[list[Any], Any]:
    statics = (obj.method, obj.bounds_error, obj.fill_value)
    return [*obj._grid, obj._values], (type(obj), len(obj._grid), statics)


def _rgi_unflatten(aux: Any, children: list[Any]) -> Any:
    kind, D, (method, bounds_error, fill_value) = aux
    import scipy.sparse.linalg as ssl

    exact = {"solver": ssl.spsolve} if method in ("slinear", "cubic", "quintic") else {}
    return kind(tuple(children[:D]), children[D], method, bounds_error, fill_value, **exact)


register_tree_node(si.RegularGridInterpolator, _rgi_flatten, _rgi_unflatten,
                   flatten_tangent=lambda dx, aux: _grid_fields(dx, aux[1]),
                   unflatten_tangent=lambda aux, children: Tangent(aux[0], grid=Tangent(tuple, *children[:aux[1]]),
                                                                   values=children[aux[1]]))


def _grid_fields(dx: Any, D: int) -> list[Any]:
    from chainrules_core import backing, unthunk

    grid, values = _fields_of(dx, ("grid", "values"))
    grid = unthunk(grid)
    if isinstance(grid, AbstractZero):
        return [ZeroTangent()] * D + [values]
    parts = backing(grid) if isinstance(grid, Tangent) else grid
    return [*parts, values]


def _rbf_flatten(obj: Any) -> tuple[list[Any], Any]:
    powers = np.asarray(obj.powers)
    degree = int(powers.sum(axis=1).max()) if powers.size else -1
    d = np.asarray(obj.d).view(obj.d_dtype).reshape((np.shape(obj.y)[0],) + tuple(obj.d_shape))
    return [obj.y, d, obj.smoothing, float(obj.epsilon)], (type(obj), (obj.neighbors, obj.kernel, degree))


def _rbf_unflatten(aux: Any, children: list[Any]) -> Any:
    kind, (neighbors, kernel, degree) = aux
    y, d, smoothing, epsilon = children
    return kind(y, d, neighbors, smoothing, kernel, epsilon, degree)


register_tree_node(si.RBFInterpolator, _rbf_flatten, _rbf_unflatten,
                   flatten_tangent=lambda dx, aux: _fields_of(dx, ("y", "values", "smoothing", "epsilon")),
                   unflatten_tangent=lambda aux, ch: Tangent(aux[0], y=ch[0], values=ch[1], smoothing=ch[2],
                                                             epsilon=ch[3]))


register_tree_node(si.UnivariateSpline, _fitpack_flatten, _fitpack_unflatten,
                   flatten_tangent=lambda dx, aux: _fields_of(dx, ("t", "c")),
                   unflatten_tangent=lambda aux, children: Tangent(aux[0], t=children[0], c=children[1]))
