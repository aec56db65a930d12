"""Rules of the functions that change an array's shape but not its entries.

``np.reshape`` (and ``ndarray.reshape``), ``np.ravel`` (and ``ndarray.ravel``,
``ndarray.flatten``), ``np.squeeze`` (and ``ndarray.squeeze``), ``np.expand_dims``,
``np.atleast_1d``, ``np.atleast_2d``, ``np.atleast_3d``, ``np.broadcast_to`` and
``np.broadcast_arrays``.

The maths
---------
Each function is linear: the frule applies it to the tangent (with the same shape
arguments), and the pullback applies its adjoint. Reshaping keeps the entries in the
order given by ``order`` (``'A'`` and ``'K'`` are resolved from the *primal's* memory
layout, so the tangent, whatever its own layout, is read in the same order), so the
adjoint reshapes back in that order. Broadcasting copies entries, so its adjoint sums the
cotangent over the broadcast axes (:func:`~chainrules_core.unbroadcast`).

Views
-----
The primal outputs are views of the input, as NumPy returns them. The cotangents and
tangents these rules return are views of the output cotangent (or the input tangent)
where the adjoint allows it, with no copy; such views are read-only, so nothing can write
through them into an array somebody else holds (``add_`` copies a read-only accumulator).

Array-likes
-----------
The array argument may be a number, an ndarray or a (nested) list or tuple; a list gets a
``Tangent(list, ...)`` cotangent (see :mod:`chainrules.rulesets.arrays._linear_maps`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from chainrules.rulesets.arrays._gather_scatter import index_grid
from chainrules.rulesets.arrays._linear_maps import (
    NO,
    own,
    sequence_output_tangent,
    tangent_array,
    unary_cotangent,
    unary_pushforward,
)
from chainrules.rulesets.arrays._sample_arrays import normal, with_dtypes
from chainrules.rulesets.arrays._signatures import ARRAY_LIKE, REQUIRED, require
from chainrules_core import (
    NotImplementedTangent,
    Sample,
    Varargs,
    ZeroTangent,
    cotangent_projector,
    differentiable,
    frule,
    read_cotangents,
    rrule,
    sample_inputs,
    unbroadcast,
)

Pullback = Callable[[Any], tuple[Any, ...]]


# ---- memory orders ---------------------------------------------------------------------------------
def resolved_order(a: Any, order: Any, *, ravel: bool = False) -> Any:
    """The order in which ``a``'s entries are read: ``'C'``, ``'F'``, or a gather index.

    ``'A'`` reads in Fortran order when ``a`` is Fortran-contiguous (and not
    C-contiguous); ``'K'`` (``np.ravel`` only) reads in memory order, returned as the
    flat C-order position of every entry of the result.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.arrays.shape import resolved_order
    >>> resolved_order(np.ones((2, 3)), "A"), resolved_order(np.ones((2, 3)).T, "A")
    ('C', 'F')
    >>> resolved_order(np.ones((3, 2))[::2].T, "K", ravel=True)     # read column by column
    array([0, 2, 1, 3])
    """
    if order is None or order == "C" or order == "c":
        return "C"
    if order in ("F", "f"):
        return "F"
    arr = np.asarray(a)
    if order in ("A", "a"):
        return "F" if arr.flags.f_contiguous and not arr.flags.c_contiguous else "C"
    if ravel and order in ("K", "k"):
        if arr.flags.c_contiguous and all(s >= 0 for s in arr.strides):
            return "C"
        if arr.flags.f_contiguous and all(s >= 0 for s in arr.strides):
            return "F"
        layout = np.empty_like(arr, dtype=np.intp)
        layout[...] = index_grid(arr.shape)
        return layout.ravel("K")
    return str(order)  # NumPy rejects it in the primal call


def _read(v: np.ndarray, order: Any) -> np.ndarray:
    """Entries of ``v`` in the resolved order, flat (a view where possible)."""
    if isinstance(order, np.ndarray):
        return v.ravel()[order]
    return v.ravel(order=order)


def _unread(dy: np.ndarray, shape: tuple[int, ...], order: Any) -> np.ndarray:
    """The adjoint of :func:`_read`: put flat entries back into an array of ``shape``."""
    if isinstance(order, np.ndarray):
        out = np.empty(shape, dtype=dy.dtype)
        out.ravel()[order] = dy.ravel()
        return out
    return np.reshape(dy, shape, order=order)


# ---- np.reshape, ndarray.reshape -------------------------------------------------------------------
@rrule.register(np.reshape, ARRAY_LIKE)
def reshape_rrule(a: Any, shape: Any = None, order: Any = "C", *, copy: Any = None) -> tuple[Any, Pullback]:
    """Reverse rule of ``np.reshape``: the cotangent is reshaped back (in the same order).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> y, pb = rrule(np.reshape, np.arange(6.0), (2, 3))
    >>> pb(np.ones((2, 3)))[1]
    array([1., 1., 1., 1., 1., 1.])
    """
    y = np.reshape(a, shape, order, copy=copy)
    eff = resolved_order(a, order)
    cotangent_a = unary_cotangent("np.reshape", a, y, lambda dy: np.reshape(dy, np.shape(a), order=eff))

    def reshape_pullback(dy: Any) -> tuple[Any, ...]:
        return NO, cotangent_a(dy), NO, NO

    return y, reshape_pullback


@frule.register(np.reshape, ARRAY_LIKE)
def reshape_frule(tangents: tuple[Any, ...], a: Any, shape: Any = None, order: Any = "C", *,
                  copy: Any = None) -> tuple[Any, Any]:
    """Forward rule of ``np.reshape``: the tangent reshaped like the primal.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> frule((NoTangent(), np.arange(4.0), NoTangent()), np.reshape, np.zeros(4), (2, 2))[1]
    array([[0., 1.],
           [2., 3.]])
    """
    y = np.reshape(a, shape, order, copy=copy)
    eff = resolved_order(a, order)
    return y, unary_pushforward(tangents[1], a, y, lambda da: np.reshape(da, np.shape(y), order=eff))


def _method_shape(shape: tuple[Any, ...]) -> Any:
    """The shape given to ``ndarray.reshape(*shape)``: one tuple, or the ints themselves."""
    return shape[0] if len(shape) == 1 else shape


@rrule.register(np.ndarray.reshape, np.ndarray, Varargs(object))
def ndarray_reshape_rrule(a: np.ndarray, *shape: Any, order: Any = "C", copy: Any = None) -> tuple[Any, Pullback]:
    """Reverse rule of the method ``x.reshape(...)`` (``rrule(x.reshape, 2, 3)``).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> x = np.arange(4.0)
    >>> y, pb = rrule(x.reshape, 2, 2)
    >>> pb(np.eye(2))[1]
    array([1., 0., 0., 1.])
    """
    y, pullback = reshape_rrule(a, _method_shape(shape), order, copy=copy)

    def ndarray_reshape_pullback(dy: Any) -> tuple[Any, ...]:
        return NO, pullback(dy)[1], *(NO,) * len(shape)

    return y, ndarray_reshape_pullback


@frule.register(np.ndarray.reshape, np.ndarray, Varargs(object))
def ndarray_reshape_frule(tangents: tuple[Any, ...], a: np.ndarray, *shape: Any, order: Any = "C",
                          copy: Any = None) -> tuple[Any, Any]:
    """Forward rule of the method ``x.reshape(...)``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> x = np.zeros(4)
    >>> frule((NoTangent(), np.arange(4.0), NoTangent()), x.reshape, (2, 2))[1].shape
    (2, 2)
    """
    return reshape_frule((NO, tangents[1], NO), a, _method_shape(shape), order, copy=copy)


@sample_inputs(np.reshape)
def _reshape_samples(rng: np.random.Generator) -> Iterator[Sample]:
    x = normal(rng, 2, 3)
    yield from with_dtypes(Sample(x, (3, 2), label="matrix to matrix"))
    yield Sample(x, (6,), "F", label="order F by position")
    yield Sample(x, fkwargs={"shape": (1, 6), "order": "A"}, label="shape and order by keyword")
    # (order 'A' of a Fortran array: see _flatten_samples)
    yield Sample(np.float64(1.5), (1, 1), label="0-d to 2-d")
    yield Sample(np.zeros((0, 3)), (3, 0), label="empty")
    yield Sample([[1.0, 2.0], [3.0, 4.0]], -1, label="nested list")


@sample_inputs(np.ndarray.reshape)
def _ndarray_reshape_samples(rng: np.random.Generator) -> Iterator[Sample]:
    x = normal(rng, 2, 3)
    yield Sample(x, 3, 2, label="shape as integers")
    yield Sample(x, (6,), fkwargs={"order": "F"}, label="shape as a tuple, order F")
    yield Sample(x.astype(np.float32), -1, label="float32")


# ---- np.ravel, ndarray.ravel, ndarray.flatten ----------------------------------------------------
def _flatten_rrule(name: str, a: Any, y: Any, order: Any) -> Callable[[Any], Any]:
    eff = resolved_order(a, order, ravel=True)
    return unary_cotangent(name, a, y, lambda dy: _unread(dy, np.shape(a), eff))


def _flatten_frule(dx: Any, a: Any, y: Any, order: Any) -> Any:
    eff = resolved_order(a, order, ravel=True)
    return unary_pushforward(dx, a, y, lambda da: _read(da, eff))


@rrule.register(np.ravel, ARRAY_LIKE)
def ravel_rrule(a: Any, order: Any = "C") -> tuple[Any, Pullback]:
    """Reverse rule of ``np.ravel`` (every ``order``, ``'K'`` by the primal's memory layout).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> y, pb = rrule(np.ravel, np.zeros((2, 2)), "F")
    >>> pb(np.arange(4.0))[1]
    array([[0., 2.],
           [1., 3.]])
    """
    y = np.ravel(a, order)
    cotangent_a = _flatten_rrule("np.ravel", a, y, order)

    def ravel_pullback(dy: Any) -> tuple[Any, ...]:
        return NO, cotangent_a(dy), NO

    return y, ravel_pullback


@frule.register(np.ravel, ARRAY_LIKE)
def ravel_frule(tangents: tuple[Any, ...], a: Any, order: Any = "C") -> tuple[Any, Any]:
    """Forward rule of ``np.ravel``: the tangent read in the primal's order.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> frule((NoTangent(), np.ones((2, 2))), np.ravel, np.zeros((2, 2)))[1]
    array([1., 1., 1., 1.])
    """
    y = np.ravel(a, order)
    return y, _flatten_frule(tangents[1], a, y, order)


@rrule.register(np.ndarray.ravel, np.ndarray)
def ndarray_ravel_rrule(a: np.ndarray, order: Any = "C") -> tuple[Any, Pullback]:
    """Reverse rule of the method ``x.ravel(order)``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> x = np.zeros((2, 2))
    >>> rrule(x.ravel)[1](np.arange(4.0))[1]
    array([[0., 1.],
           [2., 3.]])
    """
    y = a.ravel(order)
    cotangent_a = _flatten_rrule("ndarray.ravel", a, y, order)

    def ndarray_ravel_pullback(dy: Any) -> tuple[Any, ...]:
        return NO, cotangent_a(dy), NO

    return y, ndarray_ravel_pullback


@frule.register(np.ndarray.ravel, np.ndarray)
def ndarray_ravel_frule(tangents: tuple[Any, ...], a: np.ndarray, order: Any = "C") -> tuple[Any, Any]:
    """Forward rule of the method ``x.ravel(order)``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> x = np.zeros((2, 2))
    >>> frule((NoTangent(), np.eye(2)), x.ravel)[1]
    array([1., 0., 0., 1.])
    """
    y = a.ravel(order)
    return y, _flatten_frule(tangents[1], a, y, order)


@rrule.register(np.ndarray.flatten, np.ndarray)
def ndarray_flatten_rrule(a: np.ndarray, order: Any = "C") -> tuple[Any, Pullback]:
    """Reverse rule of the method ``x.flatten(order)`` (a copy; the rule is ``ravel``'s).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> x = np.zeros((2, 2))
    >>> rrule(x.flatten, "F")[1](np.arange(4.0))[1]
    array([[0., 2.],
           [1., 3.]])
    """
    y = a.flatten(order)
    cotangent_a = _flatten_rrule("ndarray.flatten", a, y, order)

    def ndarray_flatten_pullback(dy: Any) -> tuple[Any, ...]:
        return NO, cotangent_a(dy), NO

    return y, ndarray_flatten_pullback


@frule.register(np.ndarray.flatten, np.ndarray)
def ndarray_flatten_frule(tangents: tuple[Any, ...], a: np.ndarray, order: Any = "C") -> tuple[Any, Any]:
    """Forward rule of the method ``x.flatten(order)``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> x = np.zeros((2, 2))
    >>> frule((NoTangent(), np.eye(2)), x.flatten)[1]
    array([1., 0., 0., 1.])
    """
    y = a.flatten(order)
    return y, _flatten_frule(tangents[1], a, y, order)


@sample_inputs(np.ravel, np.ndarray.ravel, np.ndarray.flatten)
def _flatten_samples(rng: np.random.Generator) -> Iterator[Sample]:
    x = normal(rng, 2, 3)
    yield from with_dtypes(Sample(x, label="C order"))
    yield Sample(x, "F", label="order F by position")
    yield Sample(x, fkwargs={"order": "A"}, label="order A by keyword")
    yield Sample(x, "K", label="order K")
    # 'A' and 'K' of Fortran or strided layouts read the primal's layout: finite differences must hold the
    # layout fixed, which the testers' perturbations do not (tests/.../test_shape.py checks them so).
    yield Sample(np.zeros((2, 0)), label="empty")


# ---- np.squeeze, ndarray.squeeze, np.expand_dims ---------------------------------------------------
def _reshape_back(a: Any) -> Callable[[np.ndarray], np.ndarray]:
    shape = np.shape(a)

    def reshape_to_input(dy: np.ndarray) -> np.ndarray:
        return np.reshape(dy, shape)

    return reshape_to_input


def _reshape_to(y: Any) -> Callable[[np.ndarray], np.ndarray]:
    shape = np.shape(y)

    def reshape_to_output(da: np.ndarray) -> np.ndarray:
        return np.reshape(da, shape)

    return reshape_to_output


@rrule.register(np.squeeze, ARRAY_LIKE)
def squeeze_rrule(a: Any, axis: Any = None) -> tuple[Any, Pullback]:
    """Reverse rule of ``np.squeeze``: the cotangent gets the length-one axes back.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> y, pb = rrule(np.squeeze, np.zeros((1, 3)))
    >>> pb(np.ones(3))[1].shape
    (1, 3)
    """
    y = np.squeeze(a, axis)
    cotangent_a = unary_cotangent("np.squeeze", a, y, _reshape_back(a))

    def squeeze_pullback(dy: Any) -> tuple[Any, ...]:
        return NO, cotangent_a(dy), NO

    return y, squeeze_pullback


@frule.register(np.squeeze, ARRAY_LIKE)
def squeeze_frule(tangents: tuple[Any, ...], a: Any, axis: Any = None) -> tuple[Any, Any]:
    """Forward rule of ``np.squeeze``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> frule((NoTangent(), np.ones((1, 2))), np.squeeze, np.zeros((1, 2)))[1]
    array([1., 1.])
    """
    y = np.squeeze(a, axis)
    return y, unary_pushforward(tangents[1], a, y, _reshape_to(y))


@rrule.register(np.ndarray.squeeze, np.ndarray)
def ndarray_squeeze_rrule(a: np.ndarray, axis: Any = None) -> tuple[Any, Pullback]:
    """Reverse rule of the method ``x.squeeze(axis)``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> x = np.zeros((2, 1))
    >>> rrule(x.squeeze)[1](np.ones(2))[1].shape
    (2, 1)
    """
    y = a.squeeze(axis)
    cotangent_a = unary_cotangent("ndarray.squeeze", a, y, _reshape_back(a))

    def ndarray_squeeze_pullback(dy: Any) -> tuple[Any, ...]:
        return NO, cotangent_a(dy), NO

    return y, ndarray_squeeze_pullback


@frule.register(np.ndarray.squeeze, np.ndarray)
def ndarray_squeeze_frule(tangents: tuple[Any, ...], a: np.ndarray, axis: Any = None) -> tuple[Any, Any]:
    """Forward rule of the method ``x.squeeze(axis)``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> x = np.zeros((2, 1))
    >>> frule((NoTangent(), np.ones((2, 1))), x.squeeze)[1]
    array([1., 1.])
    """
    y = a.squeeze(axis)
    return y, unary_pushforward(tangents[1], a, y, _reshape_to(y))


@sample_inputs(np.squeeze, np.ndarray.squeeze)
def _squeeze_samples(rng: np.random.Generator) -> Iterator[Sample]:
    x = normal(rng, 1, 3, 1)
    yield from with_dtypes(Sample(x, label="every length-one axis"))
    yield Sample(x, 2, label="axis by position")
    yield Sample(x, fkwargs={"axis": (0, 2)}, label="axes by keyword")
    yield Sample(normal(rng, 1, 1), label="to 0-d")


@rrule.register(np.expand_dims, ARRAY_LIKE)
def expand_dims_rrule(a: Any, axis: Any = REQUIRED) -> tuple[Any, Pullback]:
    """Reverse rule of ``np.expand_dims``: the cotangent loses the inserted axes.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> y, pb = rrule(np.expand_dims, np.zeros(3), 0)
    >>> pb(np.ones((1, 3)))[1]
    array([1., 1., 1.])
    """
    require("expand_dims", axis=axis)
    y = np.expand_dims(a, axis)
    cotangent_a = unary_cotangent("np.expand_dims", a, y, _reshape_back(a))

    def expand_dims_pullback(dy: Any) -> tuple[Any, ...]:
        return NO, cotangent_a(dy), NO

    return y, expand_dims_pullback


@frule.register(np.expand_dims, ARRAY_LIKE)
def expand_dims_frule(tangents: tuple[Any, ...], a: Any, axis: Any = REQUIRED) -> tuple[Any, Any]:
    """Forward rule of ``np.expand_dims``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> frule((NoTangent(), np.ones(2), NoTangent()), np.expand_dims, np.zeros(2), 1)[1].shape
    (2, 1)
    """
    require("expand_dims", axis=axis)
    y = np.expand_dims(a, axis)
    return y, unary_pushforward(tangents[1], a, y, _reshape_to(y))


@sample_inputs(np.expand_dims)
def _expand_dims_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield from with_dtypes(Sample(normal(rng, 2, 3), 1, label="one axis"))
    yield Sample(normal(rng, 3), fkwargs={"axis": (0, -1)}, label="two axes by keyword")
    yield Sample(2.5, 0, label="a number")


# ---- functions with one output per input: atleast_*d of several arrays, broadcast_arrays, ix_ ---------
def _reshaped_to(d: Any, a: Any) -> Any:
    return own(np.reshape(d, np.shape(a)), d)


def _summed_to(d: Any, a: Any) -> Any:
    return unbroadcast(np.asarray(d), np.shape(a))


def _per_output_cotangents(parts: Any, projectors: list[Callable[[Any], Any]], inputs: tuple[Any, ...],
                           adjoint: Callable[[Any, Any], Any]) -> list[Any]:
    """The cotangent of each input from the read cotangent of its own output (``None`` parts are zeros)."""
    if not isinstance(parts, list):  # a zero or a not-implemented tangent for the whole output
        return [p(parts) for p in projectors]
    out = []
    for project, d, a in zip(projectors, parts, inputs):
        if d is None or isinstance(d, NotImplementedTangent):
            out.append(project(ZeroTangent() if d is None else d))
        else:
            out.append(project(adjoint(d, a)))
    return out


# ---- np.atleast_1d, np.atleast_2d, np.atleast_3d -------------------------------------------------
def _atleast_rrule(f: Any, name: str, arys: tuple[Any, ...]) -> tuple[Any, Pullback]:
    y = f(*arys)
    if len(arys) == 1:
        cotangent = unary_cotangent(name, arys[0], y, _reshape_back(arys[0]))

        def atleast_pullback(dy: Any) -> tuple[Any, ...]:
            return NO, cotangent(dy)

    else:
        projectors = [cotangent_projector(a) for a in arys]

        def atleast_pullback(dy: Any) -> tuple[Any, ...]:
            return NO, *_per_output_cotangents(read_cotangents(dy, y, name), projectors, arys, _reshaped_to)

    atleast_pullback.__name__ = atleast_pullback.__qualname__ = f"{f.__name__}_pullback"
    return y, atleast_pullback


def _atleast_frule(f: Any, tangents: tuple[Any, ...], arys: tuple[Any, ...]) -> tuple[Any, Any]:
    y = f(*arys)
    if len(arys) == 1:
        return y, unary_pushforward(tangents[1], arys[0], y, _reshape_to(y))
    values = []
    for dx, a, yk in zip(tangents[1:], arys, y):
        value = tangent_array(dx, a) if differentiable(a) else None
        if isinstance(value, NotImplementedTangent):
            return y, value
        values.append(None if value is None else np.reshape(value, np.shape(yk)))
    return y, sequence_output_tangent(None if all(v is None for v in values) else values, y)


@rrule.register(np.atleast_1d, Varargs(ARRAY_LIKE))
def atleast_1d_rrule(*arys: Any) -> tuple[Any, Pullback]:
    """Reverse rule of ``np.atleast_1d`` (one array, or several: a tuple of outputs).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> y, pb = rrule(np.atleast_1d, 2.0)
    >>> pb(np.array([3.0]))[1]
    3.0
    """
    return _atleast_rrule(np.atleast_1d, "np.atleast_1d", arys)


@frule.register(np.atleast_1d, Varargs(ARRAY_LIKE))
def atleast_1d_frule(tangents: tuple[Any, ...], *arys: Any) -> tuple[Any, Any]:
    """Forward rule of ``np.atleast_1d``.

    Examples
    --------
    >>> from chainrules import frule, NoTangent
    >>> frule((NoTangent(), 1.0), np.atleast_1d, 2.0)[1]
    array([1.])
    """
    return _atleast_frule(np.atleast_1d, tangents, arys)


@rrule.register(np.atleast_2d, Varargs(ARRAY_LIKE))
def atleast_2d_rrule(*arys: Any) -> tuple[Any, Pullback]:
    """Reverse rule of ``np.atleast_2d``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> y, pb = rrule(np.atleast_2d, np.zeros(2))
    >>> pb(np.ones((1, 2)))[1]
    array([1., 1.])
    """
    return _atleast_rrule(np.atleast_2d, "np.atleast_2d", arys)


@frule.register(np.atleast_2d, Varargs(ARRAY_LIKE))
def atleast_2d_frule(tangents: tuple[Any, ...], *arys: Any) -> tuple[Any, Any]:
    """Forward rule of ``np.atleast_2d``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> frule((NoTangent(), np.ones(2)), np.atleast_2d, np.zeros(2))[1]
    array([[1., 1.]])
    """
    return _atleast_frule(np.atleast_2d, tangents, arys)


@rrule.register(np.atleast_3d, Varargs(ARRAY_LIKE))
def atleast_3d_rrule(*arys: Any) -> tuple[Any, Pullback]:
    """Reverse rule of ``np.atleast_3d``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> y, pb = rrule(np.atleast_3d, np.zeros(2))
    >>> pb(np.ones((1, 2, 1)))[1]
    array([1., 1.])
    """
    return _atleast_rrule(np.atleast_3d, "np.atleast_3d", arys)


@frule.register(np.atleast_3d, Varargs(ARRAY_LIKE))
def atleast_3d_frule(tangents: tuple[Any, ...], *arys: Any) -> tuple[Any, Any]:
    """Forward rule of ``np.atleast_3d``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> frule((NoTangent(), np.ones(2)), np.atleast_3d, np.zeros(2))[1].shape
    (1, 2, 1)
    """
    return _atleast_frule(np.atleast_3d, tangents, arys)


@sample_inputs(np.atleast_1d, np.atleast_2d, np.atleast_3d)
def _atleast_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample(2.5, label="a number")
    yield from with_dtypes(Sample(normal(rng, 3), label="a vector"))
    yield Sample(normal(rng, 2, 2, 2), label="already 3-d")
    yield Sample(normal(rng, 2), 1.5, np.arange(3), label="several arrays (a tuple output)")


# ---- np.broadcast_to, np.broadcast_arrays ------------------------------------------------------------
def _unbroadcast_to(a: Any) -> Callable[[np.ndarray], Any]:
    shape = np.shape(a)

    def sum_over_broadcast_axes(dy: np.ndarray) -> Any:
        return unbroadcast(dy, shape)

    return sum_over_broadcast_axes


@rrule.register(np.broadcast_to, ARRAY_LIKE)
def broadcast_to_rrule(array: Any, shape: Any = REQUIRED, subok: Any = False) -> tuple[Any, Pullback]:
    """Reverse rule of ``np.broadcast_to``: the cotangent summed over the broadcast axes.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> y, pb = rrule(np.broadcast_to, np.zeros(2), (3, 2))
    >>> pb(np.ones((3, 2)))[1]
    array([3., 3.])
    """
    require("broadcast_to", shape=shape)
    y = np.broadcast_to(array, shape, subok)
    cotangent_array = unary_cotangent("np.broadcast_to", array, y, _unbroadcast_to(array))

    def broadcast_to_pullback(dy: Any) -> tuple[Any, ...]:
        return NO, cotangent_array(dy), NO, NO

    return y, broadcast_to_pullback


@frule.register(np.broadcast_to, ARRAY_LIKE)
def broadcast_to_frule(tangents: tuple[Any, ...], array: Any, shape: Any = REQUIRED,
                       subok: Any = False) -> tuple[Any, Any]:
    """Forward rule of ``np.broadcast_to``: the tangent broadcast (a read-only view).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> frule((NoTangent(), np.ones(2), NoTangent()), np.broadcast_to, np.zeros(2), (2, 2))[1]
    array([[1., 1.],
           [1., 1.]])
    """
    require("broadcast_to", shape=shape)
    y = np.broadcast_to(array, shape, subok)
    return y, unary_pushforward(tangents[1], array, y, lambda da: np.broadcast_to(da, np.shape(y)))


@sample_inputs(np.broadcast_to)
def _broadcast_to_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield from with_dtypes(Sample(normal(rng, 3), (2, 3), label="new leading axis"))
    yield Sample(normal(rng, 2, 1), fkwargs={"shape": (2, 4)}, label="length-one axis, shape by keyword")
    yield Sample(1.5, (2, 2), label="a number")
    yield Sample(normal(rng, 3), (0, 3), label="to an empty array")


@rrule.register(np.broadcast_arrays, Varargs(ARRAY_LIKE))
def broadcast_arrays_rrule(*args: Any, subok: Any = False) -> tuple[Any, Pullback]:
    """Reverse rule of ``np.broadcast_arrays``: each output's cotangent summed back to its input.

    The output is a tuple; its cotangent is a ``Tangent(tuple, ...)``, a tuple or a list,
    with ``ZeroTangent()`` for the outputs that were not used.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule, ZeroTangent
    >>> y, pb = rrule(np.broadcast_arrays, np.zeros(2), 1.0)
    >>> pb((np.ones(2), ZeroTangent()))
    (NoTangent(), array([1., 1.]), ZeroTangent())
    """
    y = np.broadcast_arrays(*args, subok=subok)
    projectors = [cotangent_projector(a) for a in args]

    def broadcast_arrays_pullback(dy: Any) -> tuple[Any, ...]:
        parts = read_cotangents(dy, y, "np.broadcast_arrays")
        return NO, *_per_output_cotangents(parts, projectors, args, _summed_to)

    return y, broadcast_arrays_pullback


@frule.register(np.broadcast_arrays, Varargs(ARRAY_LIKE))
def broadcast_arrays_frule(tangents: tuple[Any, ...], *args: Any, subok: Any = False) -> tuple[Any, Any]:
    """Forward rule of ``np.broadcast_arrays``: each tangent broadcast to the common shape.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> frule((NoTangent(), np.ones(2), 1.0), np.broadcast_arrays, np.zeros(2), 1.0)[1]
    Tangent(tuple, array([1., 1.]), array([1., 1.]))
    """
    y = np.broadcast_arrays(*args, subok=subok)
    values = []
    for dx, a, yk in zip(tangents[1:], args, y):
        value = tangent_array(dx, a) if differentiable(a) else None
        if isinstance(value, NotImplementedTangent):
            return y, value
        values.append(None if value is None else np.broadcast_to(value, np.shape(yk)))
    return y, sequence_output_tangent(None if all(v is None for v in values) else values, y)


@sample_inputs(np.broadcast_arrays)
def _broadcast_arrays_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample(normal(rng, 2, 1), normal(rng, 3), label="two arrays")
    yield Sample(normal(rng, 3).astype(np.float32), 2.0, np.arange(3), label="float32, a number and integers")
    yield Sample(normal(rng, 1, 2, dtype=np.complex128), normal(rng, 2, 1), label="complex and real")



# ---- np.ix_ -------------------------------------------------------------------------------------------
@rrule.register(np.ix_, Varargs(ARRAY_LIKE))
def ix_rrule(*args: Any) -> tuple[Any, Pullback]:
    """Reverse rule of ``np.ix_``: each output is a reshaped input (floats are differentiated).

    ``np.ix_`` is meant for integer and boolean index vectors (not differentiated); a
    float vector is reshaped to an open-grid axis, and its cotangent reshaped back.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> y, pb = rrule(np.ix_, np.zeros(2), np.array([0, 1]))
    >>> pb((np.ones((2, 1)), np.ones((1, 2))))[1:]
    (array([1., 1.]), NoTangent())
    """
    y = np.ix_(*args)
    projectors = [cotangent_projector(a) for a in args]

    def ix_pullback(dy: Any) -> tuple[Any, ...]:
        return NO, *_per_output_cotangents(read_cotangents(dy, y, "np.ix_"), projectors, args, _reshaped_to)

    return y, ix_pullback


@frule.register(np.ix_, Varargs(ARRAY_LIKE))
def ix_frule(tangents: tuple[Any, ...], *args: Any) -> tuple[Any, Any]:
    """Forward rule of ``np.ix_``: the tangents reshaped the same way.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> frule((NoTangent(), np.ones(2)), np.ix_, np.zeros(2))[1]
    Tangent(tuple, array([1., 1.]))
    """
    y = np.ix_(*args)
    values = []
    for dx, a, yk in zip(tangents[1:], args, y):
        value = tangent_array(dx, a) if differentiable(a) else None
        if isinstance(value, NotImplementedTangent):
            return y, value
        values.append(None if value is None else np.reshape(value, np.shape(yk)))
    return y, sequence_output_tangent(None if all(v is None for v in values) else values, y)


@sample_inputs(np.ix_)
def _ix_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample(normal(rng, 3), label="one float vector")
    yield Sample(normal(rng, 2), np.array([0, 2]), label="floats and an index vector")
    yield Sample(normal(rng, 3).astype(np.float32), normal(rng, 2), label="two float vectors")
    yield Sample(np.array([True, False]), np.array([1]), label="boolean and integer (nothing differentiated)")
