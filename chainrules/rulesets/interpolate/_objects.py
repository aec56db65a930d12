"""Structural tangents of SciPy's interpolator objects: projection, reading and building them (private).

An interpolator is differentiated through the arrays it is made of, its *fields*: ``c`` and
``x`` for a ``PPoly`` (and ``CubicSpline``, ``PchipInterpolator``, ...), ``t`` and ``c`` for a
``BSpline``. Its tangent is a ``Tangent`` of its class with those fields
(``Tangent(CubicSpline, c=dc, x=dx)``; a missing field is a zero). This module

* registers ``ProjectTo`` for each class (a ``StructuralProjector`` over its fields), so rules
  and testers project object cotangents like any other;
* reads the output cotangent of a rule returning an object (:func:`read_object`), with the one
  cotangent policy of the core for each field and a ``ProjectionError`` naming the function
  for anything else;
* reads an object's input tangent field by field (:func:`object_fields`) and builds an
  object's tangent from field values (:func:`object_tangent`).

Examples
--------
>>> import numpy as np
>>> from scipy.interpolate import PPoly
>>> from chainrules_core import ProjectTo, Tangent
>>> p = PPoly(np.ones((2, 1)), np.array([0.0, 1.0]))
>>> ProjectTo(p)(Tangent(PPoly, c=np.ones((2, 1), np.float32)))     # float32 to the field's float64
Tangent(PPoly, c=array([[1.],
       [1.]]))
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import scipy.interpolate as si

from chainrules.rulesets.arrays._linear_maps import output_tangent
from chainrules_core import (
    AbstractZero,
    NotImplementedTangent,
    ProjectionError,
    ProjectTo,
    Tangent,
    ZeroTangent,
    backing,
    read_cotangent,
    read_cotangents,
    unthunk,
)
from chainrules_core.projection import StructuralProjector
from chainrules_core.rules import _callable_name

__all__ = ["FIELDS", "field_value", "fields_of", "object_fields", "object_tangent", "read_object"]

FIELDS: dict[type, tuple[str, ...]] = {si.PPoly: ("c", "x"), si.BSpline: ("t", "c"), si.UnivariateSpline: ("t", "c"),
                                       si.interp1d: ("x", "y"), si.RegularGridInterpolator: ("grid", "values"),
                                       si.RBFInterpolator: ("y", "values", "smoothing", "epsilon")}
"""The differentiated fields of each interpolator class (its subclasses inherit them)."""

_GETTERS: dict[type, Any] = {si.UnivariateSpline: lambda obj, name: obj._eval_args[("t", "c").index(name)],
                             si.RegularGridInterpolator: lambda obj, name: tuple(obj._grid) if name == "grid" else
                             obj._values,
                             si.RBFInterpolator: lambda obj, name: _rbf_field(obj, name)}


def _rbf_field(obj: Any, name: str) -> Any:
    """``RBFInterpolator`` keeps its values ``d`` flattened (complex ones as a float view): the field ``values``
    gives them back in their shape and dtype."""
    if name == "values":
        return np.asarray(obj.d).view(obj.d_dtype).reshape((np.shape(obj.y)[0],) + tuple(obj.d_shape))
    return getattr(obj, name)
"""Classes whose fields are not attributes: how to read them (FITPACK's splines keep ``(t, c, k)`` in
``_eval_args``; ``get_coeffs`` and ``get_knots`` return only parts of them)."""


def field_value(obj: Any, name: str) -> Any:
    """The value of the differentiated field ``name`` of ``obj``.

    Examples
    --------
    >>> import numpy as np
    >>> from scipy.interpolate import InterpolatedUnivariateSpline
    >>> field_value(InterpolatedUnivariateSpline(np.arange(4.0), np.arange(4.0), k=1), "t")
    array([0., 0., 1., 2., 3., 3.])
    """
    for klass in type(obj).__mro__:
        getter = _GETTERS.get(klass)
        if getter is not None:
            return getter(obj, name)
    return getattr(obj, name)


def fields_of(obj: Any) -> tuple[str, ...]:
    """The differentiated fields of an interpolator (by its class or a base class).

    Examples
    --------
    >>> import numpy as np
    >>> from scipy.interpolate import CubicSpline
    >>> fields_of(CubicSpline(np.arange(3.0), np.zeros(3)))
    ('c', 'x')
    """
    for klass in type(obj).__mro__:
        names = FIELDS.get(klass)
        if names is not None:
            return names
    raise TypeError(f"no differentiated fields are known for {type(obj).__name__}")


def _project_interpolator(obj: Any) -> Any:
    return StructuralProjector(type(obj), {name: ProjectTo(field_value(obj, name)) for name in fields_of(obj)})


for _cls in FIELDS:
    ProjectTo.register(_cls)(_project_interpolator)


def _name(f: Any) -> str:
    return f if isinstance(f, str) else _callable_name(f)


def read_object(dy: Any, y: Any, f: Any) -> Any:
    """Read the cotangent of an object output ``y``: a dict ``field -> value`` (``None`` for a zero).

    A zero or not-implemented tangent for the whole object is returned as it is. A
    ``Tangent`` of ``y``'s class (or a base or subclass), a mapping of fields, or an object of
    the same class are accepted; anything else raises a ``ProjectionError`` naming ``f``.

    Examples
    --------
    >>> import numpy as np
    >>> from scipy.interpolate import PPoly
    >>> p = PPoly(np.ones((2, 1)), np.array([0.0, 1.0]))
    >>> read_object(Tangent(PPoly, x=np.ones(2)), p, "f")
    {'c': None, 'x': array([1., 1.])}
    >>> read_object(np.ones(2), p, "f")
    Traceback (most recent call last):
    ...
    chainrules_core.projection.ProjectionError: f pullback: output cotangent is a ndarray, expected a Tangent of PPoly
    """
    dy = unthunk(dy)
    if isinstance(dy, (AbstractZero, NotImplementedTangent)):
        return dy
    names = fields_of(y)
    if isinstance(dy, Tangent):
        if not (issubclass(dy.primal_type, type(y)) or issubclass(type(y), dy.primal_type)):
            raise ProjectionError(f"{_name(f)} pullback: output cotangent is a Tangent of {dy.primal_type.__name__}, "
                                  f"expected a Tangent of {type(y).__name__}")
        stored = backing(dy)
        parts = {n: stored.get(n, ZeroTangent()) for n in names} if isinstance(stored, dict) else None
        if parts is None:
            raise ProjectionError(f"{_name(f)} pullback: output cotangent is a Tangent without named fields, "
                                  f"expected a Tangent of {type(y).__name__}")
    elif isinstance(dy, Mapping):
        parts = {n: dy.get(n, ZeroTangent()) for n in names}
    elif isinstance(dy, type(y)):
        parts = {n: field_value(dy, n) for n in names}
    else:
        raise ProjectionError(f"{_name(f)} pullback: output cotangent is a {type(dy).__name__}, expected a Tangent "
                              f"of {type(y).__name__}")
    out: dict[str, Any] = {}
    for n in names:
        primal = field_value(y, n)
        if isinstance(primal, tuple):  # a tuple of arrays (a grid): a list with None for zero parts
            value = read_cotangents(parts[n], primal, f)
            if isinstance(value, NotImplementedTangent):
                return value
            out[n] = None if isinstance(value, AbstractZero) else [None if v is None else np.asarray(v) for v in value]
            continue
        value = read_cotangent(parts[n], primal, f, f"output cotangent field {n!r}")
        if isinstance(value, NotImplementedTangent):
            return value
        out[n] = None if isinstance(value, AbstractZero) else np.asarray(value)
    return out


def object_fields(tangent: Any, obj: Any) -> Any:
    """An object's input tangent as a dict ``field -> array`` (``None`` for a zero field), or
    ``None`` for a zero tangent, or the ``NotImplementedTangent`` itself.

    Examples
    --------
    >>> import numpy as np
    >>> from scipy.interpolate import PPoly
    >>> p = PPoly(np.ones((2, 1)), np.array([0.0, 1.0]))
    >>> object_fields(Tangent(PPoly, c=np.zeros((2, 1))), p)
    {'c': array([[0.],
           [0.]]), 'x': None}
    """
    tangent = unthunk(tangent)
    if tangent is None or isinstance(tangent, AbstractZero):
        return None
    if isinstance(tangent, NotImplementedTangent):
        return tangent
    out: dict[str, Any] = {}
    for n in fields_of(obj):
        if isinstance(tangent, Mapping):
            value = tangent.get(n, None)
        else:
            value = getattr(tangent, n, None)
        value = unthunk(value)
        if isinstance(value, NotImplementedTangent):
            return value
        if isinstance(field_value(obj, n), tuple) and value is not None and not isinstance(value, AbstractZero):
            parts = backing(value) if isinstance(value, Tangent) else value
            entries = [unthunk(v) for v in parts]
            for v in entries:
                if isinstance(v, NotImplementedTangent):
                    return v
            out[n] = [None if v is None or isinstance(v, AbstractZero) else np.asarray(v) for v in entries]
            if all(v is None for v in out[n]):
                out[n] = None
            continue
        out[n] = None if value is None or isinstance(value, AbstractZero) else np.asarray(value)
    if all(v is None for v in out.values()):
        return None
    return out


def object_tangent(y: Any, values: Mapping[str, Any]) -> Any:
    """The tangent of the object ``y`` with these field values (``None`` or missing: a zero).

    Each value is fitted to its field's tangent space (dtype and shape); all zero gives
    ``ZeroTangent()``.

    Examples
    --------
    >>> import numpy as np
    >>> from scipy.interpolate import PPoly
    >>> object_tangent(PPoly(np.ones((2, 1)), np.array([0.0, 1.0])), {"x": np.array([1.0, 2.0])})
    Tangent(PPoly, c=ZeroTangent(), x=array([1., 2.]))
    """
    for value in values.values():
        if isinstance(value, NotImplementedTangent):
            return value
    if all(values.get(n) is None for n in fields_of(y)):
        return ZeroTangent()
    return Tangent(type(y), **{n: _field_tangent(values.get(n), field_value(y, n)) for n in fields_of(y)})


def _field_tangent(value: Any, primal: Any) -> Any:
    if isinstance(primal, tuple):
        if value is None:
            return ZeroTangent()
        return Tangent(tuple, *(output_tangent(v, p) for v, p in zip(value, primal)))
    return output_tangent(value, primal)
