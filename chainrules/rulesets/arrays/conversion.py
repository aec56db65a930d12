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

from collections.abc import Callable, Iterator
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
from chainrules.rulesets.arrays._sample_arrays import normal, with_dtypes
from chainrules.rulesets.arrays._signatures import ARRAY_LIKE
from chainrules.rulesets.arrays.mutation import InPlaceOperationError
from chainrules_core import (
    NotImplementedTangent,
    Sample,
    Varargs,
    cotangent_projector,
    differentiable,
    frule,
    not_implemented,
    passes_through,
    read_cotangent,
    rrule,
    sample_inputs,
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


# A float64 input cast to float32 rounds the output: its finite differences are accurate to about 1e-4.
_ROUNDED: dict[str, Any] = {"rtol": 2e-3, "atol": 2e-3}


@sample_inputs(np.array, np.asarray, np.asanyarray, np.ascontiguousarray, np.asarray_chkfinite, np.copy)
def _array_conversion_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield from with_dtypes(Sample(normal(rng, 2, 3), label="an ndarray"))
    yield Sample([[1.5, 2], [normal(rng), 3.5]], label="a nested list with an int and a 0-d array")
    yield Sample([normal(rng, 2), normal(rng, 2)], label="a list of arrays (stacked)")
    yield Sample(2.5, label="a number")


@sample_inputs(np.array, np.asarray, np.asanyarray, np.ascontiguousarray, np.asarray_chkfinite)
def _array_cast_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample(normal(rng, 3), np.float32, label="cast to float32 by position", **_ROUNDED)
    yield Sample(normal(rng, 3).astype(np.float32), fkwargs={"dtype": np.complex128}, label="float32 to complex")
    yield Sample(np.array([0.3, 1.4, -2.6]), int, label="cast to integers: derivative zero")


@sample_inputs(np.copy)
def _copy_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample(normal(rng, 2, 3), "F", label="order by position")
    yield Sample(normal(rng, 2, 3), fkwargs={"subok": True}, label="subok by keyword")


@sample_inputs(np.asfortranarray, np.require)
def _layout_conversion_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield from with_dtypes(Sample(normal(rng, 2, 3), label="an ndarray"))
    yield Sample([1.5, 2.5], np.float32, label="a list, cast to float32", **_ROUNDED)


@sample_inputs(np.asmatrix)
def _asmatrix_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample(normal(rng, 2, 3), label="an ndarray")
    yield Sample([[1.5, 2.5]], np.complex128, label="a nested list, cast to complex")


@sample_inputs(np.astype)
def _astype_samples(rng: np.random.Generator) -> Iterator[Sample]:
    x = normal(rng, 2, 3)
    yield from with_dtypes(Sample(x, np.float64, label="to float64"))
    yield Sample(x, np.complex64, label="to complex64", **_ROUNDED)
    yield Sample(normal(rng, 3, dtype=np.complex128), np.float64, label="complex to real (drops the imaginary part)")
    yield Sample(np.array([0.3, 1.4, -2.6]), np.int32, fkwargs={"copy": False}, label="to integers")


@sample_inputs(np.ndarray.copy)
def _ndarray_copy_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield from with_dtypes(Sample(normal(rng, 2, 3), label="no arguments"))
    yield Sample(normal(rng, 2, 3), "F", label="order F")


@sample_inputs(np.ndarray.astype)
def _ndarray_astype_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield from with_dtypes(Sample(normal(rng, 2, 3), np.complex128, label="to complex"))
    yield Sample(normal(rng, 2, 3).astype(np.float32), np.float64, "F", label="to float64, order by position")
    yield Sample(normal(rng, 3, dtype=np.complex128), np.float64, fkwargs={"casting": "unsafe"},
                 label="complex to real (drops the imaginary part)")


@sample_inputs(np.ndarray.to_device)
def _ndarray_to_device_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield from with_dtypes(Sample(normal(rng, 2), "cpu", label="cpu"))


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


@sample_inputs(np.ndarray.tolist)
def _tolist_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield from with_dtypes(Sample(normal(rng, 2, 3), label="a matrix: nested lists"))
    yield Sample(normal(rng), label="0-d: a number")
    yield Sample(np.zeros((2, 0)), label="empty rows")


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


@sample_inputs(np.ndarray.view)
def _view_samples(rng: np.random.Generator) -> Iterator[Sample]:
    x = normal(rng, 2, 3)
    yield from with_dtypes(Sample(x, label="no arguments"))
    yield Sample(x, np.ndarray, label="as an ndarray type")
    yield Sample(x, fkwargs={"dtype": np.float64}, label="the same dtype by keyword")
    yield Sample(x.astype(np.float64), np.int64, label="reinterpreting the bytes (not implemented)")


# ---- ndarray.getfield, ndarray.byteswap -------------------------------------------------------------------------
_REINTERPRETED = ("{name} reinterprets the bytes of the entries as other numbers: no derivative relates them (the "
                  "result jumps when a perturbation reaches another bit pattern)")


def _getfield_keeps_values(a: np.ndarray, dtype: Any, offset: Any) -> bool:
    return np.dtype(dtype) == a.dtype and int(offset) == 0


@rrule.register(np.ndarray.getfield, np.ndarray, object)
def ndarray_getfield_rrule(a: np.ndarray, dtype: Any, offset: Any = 0) -> tuple[Any, Pullback]:
    """Reverse rule of the method ``x.getfield(dtype, offset)``: the identity for ``x``'s own dtype at offset 0.

    Another dtype or offset reinterprets the bytes: the cotangent of a floating ``x`` is
    then ``not_implemented`` (no derivative exists), and ``NoTangent()`` for an integer one.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> x = np.array([1.5, 2.5])
    >>> rrule(x.getfield, np.float64)[1](np.array([1.0, 2.0]))[1]
    array([1., 2.])
    >>> rrule(x.getfield, np.int32)[1](np.zeros(2, np.int32))[1]
    NotImplementedTangent('ndarray.getfield reinterprets the bytes of the entries as other numbers: ...)
    """
    y = a.getfield(dtype, offset)
    same = _getfield_keeps_values(a, dtype, offset)
    cotangent_a = _converted_cotangent("ndarray.getfield", a, y)

    def ndarray_getfield_pullback(dy: Any) -> tuple[Any, ...]:
        if same:
            return NO, cotangent_a(dy), NO, NO
        read_cotangent(dy, y, "ndarray.getfield")
        reinterpreted = not_implemented(_REINTERPRETED.format(name="ndarray.getfield"))
        return NO, reinterpreted if differentiable(a) else NO, NO, NO

    return y, ndarray_getfield_pullback


@frule.register(np.ndarray.getfield, np.ndarray, object)
def ndarray_getfield_frule(tangents: tuple[Any, ...], a: np.ndarray, dtype: Any, offset: Any = 0) -> tuple[Any, Any]:
    """Forward rule of the method ``x.getfield(dtype, offset)``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> x = np.zeros(2)
    >>> frule((NoTangent(), np.ones(2), NoTangent()), x.getfield, np.float64)[1]
    array([1., 1.])
    """
    y = a.getfield(dtype, offset)
    if _getfield_keeps_values(a, dtype, offset) or not differentiable(a):
        return y, _converted_tangent(tangents[1], a, y)
    return y, not_implemented(_REINTERPRETED.format(name="ndarray.getfield"))


@sample_inputs(np.ndarray.getfield)
def _getfield_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample(normal(rng, 2, 3), np.float64, label="its own dtype: the identity")
    # (no float32 sample: the finite differences evaluate at float64 points, where getfield(np.float32) would
    # read half of each entry's bytes)
    yield Sample(normal(rng, 2, dtype=np.complex128), np.complex128, 0, label="complex, offset by position")
    yield Sample(np.arange(3), np.int64, label="integers")
    yield Sample(normal(rng, 2), np.int32, 4, label="reinterpreting the bytes (no derivative)")


@rrule.register(np.ndarray.byteswap, np.ndarray)
def ndarray_byteswap_rrule(a: np.ndarray, inplace: Any = False) -> tuple[Any, Pullback]:
    """Reverse rule of the method ``x.byteswap()``: a reinterpretation of the bytes (no derivative).

    ``x.byteswap(True)`` swaps in place: an :class:`~chainrules.rulesets.arrays.mutation.InPlaceOperationError`.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> rrule(np.arange(2).byteswap)[1](np.zeros(2, int))
    (NoTangent(), NoTangent())
    """
    if inplace:
        raise InPlaceOperationError("ndarray.byteswap(True) swaps the bytes in place: a derivative rule cannot "
                                    "differentiate a write into an existing array")
    y = a.byteswap(False)

    def ndarray_byteswap_pullback(dy: Any) -> tuple[Any, ...]:
        read_cotangent(dy, y, "ndarray.byteswap")
        reinterpreted = not_implemented(_REINTERPRETED.format(name="ndarray.byteswap"))
        return NO, reinterpreted if differentiable(a) else NO, NO

    return y, ndarray_byteswap_pullback


@frule.register(np.ndarray.byteswap, np.ndarray)
def ndarray_byteswap_frule(tangents: tuple[Any, ...], a: np.ndarray, inplace: Any = False) -> tuple[Any, Any]:
    """Forward rule of the method ``x.byteswap()``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> frule((NoTangent(), NoTangent()), np.arange(2).byteswap)[1]
    NoTangent()
    """
    if inplace:
        raise InPlaceOperationError("ndarray.byteswap(True) swaps the bytes in place: a derivative rule cannot "
                                    "differentiate a write into an existing array")
    y = a.byteswap(False)
    if not differentiable(a):
        return y, NO
    return y, not_implemented(_REINTERPRETED.format(name="ndarray.byteswap"))


@sample_inputs(np.ndarray.byteswap)
def _byteswap_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample(np.arange(3, dtype=np.int32), label="integers")
    yield Sample(normal(rng, 2), False, label="floats (no derivative)")
