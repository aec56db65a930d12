"""Rules of the functions that convert to an array, copy it or change its dtype.

``np.array``, ``np.asarray``, ``np.asanyarray``, ``np.ascontiguousarray``,
``np.asfortranarray``, ``np.asarray_chkfinite``, ``np.require``, ``np.asmatrix``, ``np.copy`` (and
``ndarray.copy``), ``np.astype`` (and ``ndarray.astype``), ``ndarray.to_device``, ``ndarray.view`` and
``ndarray.tolist``.

The maths
---------
Each is the identity on the values (up to a cast and leading axes of length one from
``ndmin``), so the frule converts the tangent the same way and the pullback returns the
output cotangent reshaped to the input's shape, **cast back** to the input's tangent
dtype: ``np.astype(x32, np.float64)`` gives a float32 cotangent, a real-to-complex cast
gives the real part of the cotangent (the imaginary direction does not reach a real
input), and a complex-to-real cast (which drops the imaginary part) gives a complex
cotangent with zero imaginary part. A cast to an integer or boolean dtype has derivative
zero: its output has no tangent (``NoTangent()``) and the input's cotangent is
``ZeroTangent()``.

Lists and nested lists
----------------------
The input may be a (nested) list or tuple of numbers and arrays (``np.array([[x, 1.0],
[2.0, y]])``, ``np.array([a, b])`` stacking arrays): its cotangent is a nested
``Tangent(list, ...)`` holding, for every element, a cotangent in its own space (a float
for a Python float, an ndarray for an ndarray, ``NoTangent()`` for an int).
``x.tolist()`` is the reverse: its output cotangent may be a nested ``Tangent``, list or
tuple (``ZeroTangent()`` parts allowed) and the cotangent of ``x`` is an ndarray.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from chainrules.rulesets.arrays._linear_maps import (
    NO,
    ZERO,
    cast_like,
    dense_tangent,
    output_tangent,
    own,
    read_nested_cotangent,
    tangent_array,
    zero_result,
)
from chainrules.rulesets.arrays._signatures import ARRAY_LIKE
from chainrules_core import (
    NotImplementedTangent,
    Varargs,
    cotangent_projector,
    differentiable,
    frule,
    not_implemented,
    passes_through,
    read_cotangent,
    rrule,
)

Pullback = Callable[[Any], tuple[Any, ...]]


def _converted_cotangent(name: str, a: Any, y: Any) -> Callable[[Any], Any]:
    """The cotangent of ``a`` for ``y``, a converted copy (or view) of ``a``."""
    project_a = cotangent_projector(a)
    shape = np.shape(a)
    linear = differentiable(a) and differentiable(y)
    constant = differentiable(a) and not differentiable(y)

    def converted_cotangent(dy: Any) -> Any:
        dy = read_cotangent(dy, y, name)
        if constant:
            return ZERO  # a cast to integers: derivative zero
        if not linear:
            return NO
        if passes_through(dy):
            return zero_result(dy)
        return project_a(own(np.reshape(cast_like(dy, a), shape), dy))

    return converted_cotangent


def _converted_tangent(dx: Any, a: Any, y: Any) -> Any:
    if not differentiable(y) or not differentiable(a):
        return output_tangent(None, y)
    return output_tangent(tangent_array(dx, a), y)


def _conversion_rules(f: Any, name: str) -> None:
    """Register the frule and the rrule of a converter ``f(a, ...)``, identity on the values."""

    def conversion_rrule(a: Any, *args: Any, **kwargs: Any) -> tuple[Any, Pullback]:
        y = f(a, *args, **kwargs)
        cotangent_a = _converted_cotangent(name, a, y)

        def conversion_pullback(dy: Any) -> tuple[Any, ...]:
            return NO, cotangent_a(dy), *(NO,) * len(args)

        conversion_pullback.__name__ = conversion_pullback.__qualname__ = f"{f.__name__}_pullback"
        return y, conversion_pullback

    def conversion_frule(tangents: tuple[Any, ...], a: Any, *args: Any, **kwargs: Any) -> tuple[Any, Any]:
        y = f(a, *args, **kwargs)
        return y, _converted_tangent(tangents[1], a, y)

    conversion_rrule.__name__ = conversion_rrule.__qualname__ = f"{f.__name__}_rrule"
    conversion_frule.__name__ = conversion_frule.__qualname__ = f"{f.__name__}_frule"
    conversion_rrule.__doc__ = f"Reverse rule of ``{name}``: the cotangent reshaped and cast back to the input."
    conversion_frule.__doc__ = f"Forward rule of ``{name}``: the tangent converted the same way."
    types = (np.ndarray,) if name.startswith("ndarray.") else (ARRAY_LIKE,)
    rrule.register(f, *types, Varargs(object))(conversion_rrule)
    frule.register(f, *types, Varargs(object))(conversion_frule)

CONVERTERS: dict[Any, str] = {
    np.array: "np.array",
    np.asarray: "np.asarray",
    np.asanyarray: "np.asanyarray",
    np.ascontiguousarray: "np.ascontiguousarray",
    np.asfortranarray: "np.asfortranarray",
    np.asarray_chkfinite: "np.asarray_chkfinite",
    np.require: "np.require",
    np.copy: "np.copy",
    np.asmatrix: "np.asmatrix",
    np.astype: "np.astype",
    np.ndarray.copy: "ndarray.copy",
    np.ndarray.astype: "ndarray.astype",
    np.ndarray.to_device: "ndarray.to_device",
}
"""The functions whose rules are registered here, by their name in messages."""

for _f, _name in CONVERTERS.items():
    _conversion_rules(_f, _name)


# ---- ndarray.tolist ----------------------------------------------------------------------------------
@rrule.register(np.ndarray.tolist, np.ndarray)
def ndarray_tolist_rrule(a: np.ndarray) -> tuple[Any, Pullback]:
    """Reverse rule of the method ``x.tolist()``: the nested cotangent assembled into an array.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule, Tangent, ZeroTangent
    >>> x = np.zeros((2, 2))
    >>> y, pb = rrule(x.tolist)
    >>> pb(Tangent(list, Tangent(list, 1.0, 2.0), ZeroTangent()))[1]
    array([[1., 2.],
           [0., 0.]])
    """
    y = a.tolist()
    project_a = cotangent_projector(a)

    def ndarray_tolist_pullback(dy: Any) -> tuple[Any, ...]:
        dy = read_nested_cotangent(dy, y, "ndarray.tolist")
        if not differentiable(a):
            return NO, NO
        if passes_through(dy):
            return NO, zero_result(dy)
        if not isinstance(y, list):
            return NO, project_a(np.asarray(dy))
        value = dense_tangent(dy, y)
        if value is None:
            return NO, ZERO
        if isinstance(value, NotImplementedTangent):
            return NO, value
        return NO, project_a(np.asarray(value, dtype=np.result_type(a.dtype, *_dtypes(value))).reshape(a.shape))

    return y, ndarray_tolist_pullback


def _dtypes(value: Any) -> list[np.dtype]:
    if isinstance(value, list):
        return [d for v in value for d in _dtypes(v)]
    return [np.asarray(value).dtype]


@frule.register(np.ndarray.tolist, np.ndarray)
def ndarray_tolist_frule(tangents: tuple[Any, ...], a: np.ndarray) -> tuple[Any, Any]:
    """Forward rule of the method ``x.tolist()``: the tangent as a nested ``Tangent(list, ...)``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> x = np.zeros(2)
    >>> frule((NoTangent(), np.array([1.0, 2.0])), x.tolist)[1]
    Tangent(list, 1.0, 2.0)
    """
    y = a.tolist()
    if not differentiable(a):
        return y, NO
    value = tangent_array(tangents[1], a)
    if value is None or isinstance(value, NotImplementedTangent):
        return y, output_tangent(value, a)
    if not isinstance(y, list):
        return y, cotangent_projector(y)(np.asarray(value).item())
    return y, cotangent_projector(y)(np.asarray(value))


# ---- ndarray.view ------------------------------------------------------------------------------------
def _same_values(a: np.ndarray, args: tuple[Any, ...], kwargs: dict[str, Any]) -> bool:
    """Whether ``a.view(*args, **kwargs)`` keeps the values (no dtype reinterpretation)."""
    dtype = kwargs.get("dtype", args[0] if args else None)
    if isinstance(dtype, type) and issubclass(dtype, np.ndarray):
        return True
    return dtype is None or np.dtype(dtype) == a.dtype


@rrule.register(np.ndarray.view, np.ndarray, Varargs(object))
def ndarray_view_rrule(a: np.ndarray, *args: Any, **kwargs: Any) -> tuple[Any, Pullback]:
    """Reverse rule of the method ``x.view(...)``: the identity, unless it reinterprets the bytes.

    A view with another dtype reinterprets the bits of the entries (``x.view(np.int64)``):
    no derivative relates the two, and the cotangent is ``not_implemented``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> x = np.zeros(2)
    >>> rrule(x.view)[1](np.ones(2))[1]
    array([1., 1.])
    """
    y = a.view(*args, **kwargs)
    same = _same_values(a, args, kwargs)
    cotangent_a = _converted_cotangent("ndarray.view", a, y)

    def ndarray_view_pullback(dy: Any) -> tuple[Any, ...]:
        if not same:
            d = not_implemented("ndarray.view with another dtype reinterprets the bytes") if differentiable(a) else NO
            return NO, d, *(NO,) * len(args)
        return NO, cotangent_a(dy), *(NO,) * len(args)

    return y, ndarray_view_pullback


@frule.register(np.ndarray.view, np.ndarray, Varargs(object))
def ndarray_view_frule(tangents: tuple[Any, ...], a: np.ndarray, *args: Any, **kwargs: Any) -> tuple[Any, Any]:
    """Forward rule of the method ``x.view(...)``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> x = np.zeros(2)
    >>> frule((NoTangent(), np.ones(2)), x.view)[1]
    array([1., 1.])
    """
    y = a.view(*args, **kwargs)
    if not _same_values(a, args, kwargs):
        return y, not_implemented("ndarray.view with another dtype reinterprets the bytes")
    return y, _converted_tangent(tangents[1], a, y)
