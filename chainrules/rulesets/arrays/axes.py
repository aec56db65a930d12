"""Rules of the functions that permute an array's axes.

``np.transpose`` (also reached as ``np.permute_dims``, the same function object) and
``ndarray.transpose``, ``np.swapaxes`` and ``ndarray.swapaxes``, ``np.moveaxis``,
``np.rollaxis`` and ``np.matrix_transpose``.

The maths
---------
An axis permutation ``y = x.transpose(p)`` is linear and orthogonal: the frule permutes
the tangent the same way and the pullback applies the inverse permutation
(``dx = dy.transpose(argsort(p))``). The cotangents and tangents returned are read-only
views of the output cotangent (input tangent): no copy is made.

Attributes
----------
``x.T`` and ``x.mT`` are attributes, not calls, so no rule can be looked up for them: an
AD system that records attribute access maps ``x.T`` to ``np.transpose(x)`` and ``x.mT``
to ``np.matrix_transpose(x)``, whose rules are here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
from numpy.lib.array_utils import normalize_axis_index, normalize_axis_tuple

from chainrules.rulesets.arrays._linear_maps import NO, unary_cotangent, unary_pushforward
from chainrules.rulesets.arrays._sample_arrays import normal, with_dtypes
from chainrules.rulesets.arrays._signatures import ARRAY_LIKE, REQUIRED, require
from chainrules_core import Sample, Varargs, frule, rrule, sample_inputs

Pullback = Callable[[Any], tuple[Any, ...]]


def _permutation(ndim: int, axes: Any) -> tuple[int, ...]:
    """The permutation ``np.transpose(x, axes)`` applies (``None`` reverses the axes)."""
    if axes is None:
        return tuple(range(ndim))[::-1]
    return tuple(normalize_axis_index(int(a), ndim) for a in axes)


def _inverse(perm: tuple[int, ...]) -> tuple[int, ...]:
    """The inverse permutation (``argsort(perm)``), in Python: ``np.argsort`` of a tuple costs microseconds."""
    inverse = [0] * len(perm)
    for i, p in enumerate(perm):
        inverse[p] = i
    return tuple(inverse)


def _permuted(perm: tuple[int, ...]) -> Callable[[np.ndarray], np.ndarray]:
    def transpose_axes(v: np.ndarray) -> np.ndarray:
        # the method itself for an ndarray (np.transpose adds a Python dispatch layer, ~0.4 us)
        return v.transpose(perm) if type(v) is np.ndarray else np.transpose(v, perm)

    return transpose_axes


def _permutation_rules(name: str, a: Any, y: Any, perm: tuple[int, ...]) -> Callable[[Any], Any]:
    """The cotangent of ``a`` for ``y = transpose(a, perm)``."""
    return unary_cotangent(name, a, y, _permuted(_inverse(perm)))


# ---- np.transpose / np.permute_dims, ndarray.transpose -------------------------------------------------
# Three registrations of one rule: an ndarray called without ``axes`` (the commonest call,
# ``np.transpose(a)`` and ``a.T`` in a traced program) has its own, which returns exactly one
# cotangent after the function's and so spares the registry's adapter for rules with
# optional arguments (a second closure per call); an ndarray with ``axes`` by position, and
# the other array-likes, reach ``transpose_rrule`` itself.
_CONVERTED = tuple(t for t in ARRAY_LIKE if t is not np.ndarray)


@rrule.register(np.transpose, _CONVERTED)
def transpose_rrule(a: Any, axes: Any = None) -> tuple[Any, Pullback]:
    """Reverse rule of ``np.transpose`` (and ``np.permute_dims``): the inverse permutation.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> y, pb = rrule(np.transpose, np.zeros((2, 3, 4)), (1, 2, 0))
    >>> pb(np.ones((3, 4, 2)))[1].shape
    (2, 3, 4)
    """
    if axes is None and type(a) is np.ndarray and a.dtype in _FAST_DTYPES and a.size:
        return _transpose_rrule_fast(a, True)
    return _transpose_rrule_general(a, axes)


@rrule.register(np.transpose, np.ndarray, object)
def transpose_of_array_with_axes_rrule(a: np.ndarray, axes: Any) -> tuple[Any, Pullback]:
    """Reverse rule of ``np.transpose(a, axes)`` for an ndarray: :func:`transpose_rrule`.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> y, pb = rrule(np.transpose, np.zeros((2, 3)), (1, 0))
    >>> len(pb(np.ones((3, 2))))
    3
    """
    return transpose_rrule(a, axes)


@rrule.register(np.transpose, np.ndarray)
def transpose_of_array_rrule(a: np.ndarray, **kwargs: Any) -> tuple[Any, Pullback]:
    """Reverse rule of ``np.transpose(a)`` (``axes`` not given, or by keyword) for an ndarray:
    :func:`transpose_rrule`, one cotangent after the function's.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> y, pb = rrule(np.transpose, np.zeros((2, 3)))
    >>> pb(np.ones((3, 2)))[1].shape
    (2, 3)
    """
    if not kwargs and type(a) is np.ndarray and a.dtype in _FAST_DTYPES and a.size:
        return _transpose_rrule_fast(a, False)
    y, pullback = transpose_rrule(a, **kwargs)

    def transpose_pullback(dy: Any) -> tuple[Any, ...]:
        return pullback(dy)[:2]

    return y, transpose_pullback


# The dtypes whose tangent dtype is their own: a cotangent of that dtype needs no cast.
_FAST_DTYPES = frozenset(np.dtype(t) for t in (np.float64, np.float32, np.complex128, np.complex64))


def _transpose_rrule_general(a: Any, axes: Any = None) -> tuple[Any, Pullback]:
    """:func:`transpose_rrule` without its fast path: the specification the fast path is tested against."""
    y = np.transpose(a, axes)
    cotangent_a = _permutation_rules("np.transpose", a, y, _permutation(np.ndim(a), axes))

    def transpose_pullback(dy: Any) -> tuple[Any, ...]:
        return NO, cotangent_a(dy), NO

    return y, transpose_pullback


def _transpose_rrule_fast(a: np.ndarray, axes_given: bool) -> tuple[Any, Pullback]:
    """:func:`transpose_rrule` for a non-empty ndarray of a float or complex dtype with the axes reversed
    (``axes_given``: called as ``np.transpose(a, None)``, so the pullback returns a cotangent for ``axes`` too).

    A cotangent that is an ndarray of the output's shape and dtype is transposed back at
    once (a read-only view, as :func:`~chainrules.rulesets.arrays._linear_maps.own` makes
    it); any other cotangent goes through the general pullback (built when first needed),
    which reads, validates and projects it. Both give the same results
    (``tests/chainrules_core/test_fast_paths.py``).
    """
    y = a.transpose()
    general: list[Pullback] = []

    def transpose_pullback(dy: Any) -> tuple[Any, ...]:
        if type(dy) is np.ndarray and dy.dtype == y.dtype and dy.shape == y.shape:
            da = dy.transpose()
            da.flags.writeable = False
            return (NO, da, NO) if axes_given else (NO, da)
        if not general:
            general.append(_transpose_rrule_general(a)[1])
        return general[0](dy) if axes_given else general[0](dy)[:2]

    return y, transpose_pullback


@frule.register(np.transpose, ARRAY_LIKE)
def transpose_frule(tangents: tuple[Any, ...], a: Any, axes: Any = None) -> tuple[Any, Any]:
    """Forward rule of ``np.transpose``: the tangent transposed the same way.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> frule((NoTangent(), np.arange(2.0)[:, None]), np.transpose, np.zeros((2, 1)))[1]
    array([[0., 1.]])
    """
    y = np.transpose(a, axes)
    return y, unary_pushforward(tangents[1], a, y, _permuted(_permutation(np.ndim(a), axes)))


@sample_inputs(np.transpose)
def _transpose_samples(rng: np.random.Generator) -> Iterator[Sample]:
    x = normal(rng, 2, 3, 4)
    yield from with_dtypes(Sample(x, label="reversed axes"))
    yield Sample(x, (1, 2, 0), label="axes by position")
    yield Sample(x, fkwargs={"axes": (0, -1, 1)}, label="negative axis by keyword")
    yield Sample([[1.0, 2.0]], label="nested list")
    yield Sample(np.float64(2.0), label="0-d")


def _method_axes(axes: tuple[Any, ...]) -> Any:
    """The axes given to ``ndarray.transpose(*axes)``: none, one tuple, or the ints themselves."""
    if not axes:
        return None
    return axes[0] if len(axes) == 1 else axes


@rrule.register(np.ndarray.transpose, np.ndarray, Varargs(object))
def ndarray_transpose_rrule(a: np.ndarray, *axes: Any) -> tuple[Any, Pullback]:
    """Reverse rule of the method ``x.transpose(*axes)``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> x = np.zeros((2, 3))
    >>> rrule(x.transpose)[1](np.ones((3, 2)))[1].shape
    (2, 3)
    """
    y = a.transpose(*axes)
    cotangent_a = _permutation_rules("ndarray.transpose", a, y, _permutation(a.ndim, _method_axes(axes)))

    def ndarray_transpose_pullback(dy: Any) -> tuple[Any, ...]:
        return NO, cotangent_a(dy), *(NO,) * len(axes)

    return y, ndarray_transpose_pullback


@frule.register(np.ndarray.transpose, np.ndarray, Varargs(object))
def ndarray_transpose_frule(tangents: tuple[Any, ...], a: np.ndarray, *axes: Any) -> tuple[Any, Any]:
    """Forward rule of the method ``x.transpose(*axes)``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> x = np.zeros((2, 3))
    >>> frule((NoTangent(), np.ones((2, 3))), x.transpose)[1].shape
    (3, 2)
    """
    y = a.transpose(*axes)
    perm = _permutation(a.ndim, _method_axes(axes))
    return y, unary_pushforward(tangents[1], a, y, _permuted(perm))


@sample_inputs(np.ndarray.transpose)
def _ndarray_transpose_samples(rng: np.random.Generator) -> Iterator[Sample]:
    x = normal(rng, 2, 3, 4)
    yield Sample(x, label="no axes")
    yield Sample(x, 2, 0, 1, label="axes as integers")
    yield Sample(x.astype(np.float32), (1, 0, 2), label="axes as a tuple, float32")


# ---- np.matrix_transpose -----------------------------------------------------------------------------
@rrule.register(np.matrix_transpose, ARRAY_LIKE)
def matrix_transpose_rrule(x: Any) -> tuple[Any, Pullback]:
    """Reverse rule of ``np.matrix_transpose`` (what ``x.mT`` computes): swap the last two axes back.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> y, pb = rrule(np.matrix_transpose, np.zeros((4, 2, 3)))
    >>> pb(np.ones((4, 3, 2)))[1].shape
    (4, 2, 3)
    """
    y = np.matrix_transpose(x)
    cotangent_x = unary_cotangent("np.matrix_transpose", x, y, np.matrix_transpose)

    def matrix_transpose_pullback(dy: Any) -> tuple[Any, ...]:
        return NO, cotangent_x(dy)

    return y, matrix_transpose_pullback


@frule.register(np.matrix_transpose, ARRAY_LIKE)
def matrix_transpose_frule(tangents: tuple[Any, ...], x: Any) -> tuple[Any, Any]:
    """Forward rule of ``np.matrix_transpose``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> frule((NoTangent(), np.eye(2)[:1]), np.matrix_transpose, np.zeros((1, 2)))[1]
    array([[1.],
           [0.]])
    """
    y = np.matrix_transpose(x)
    return y, unary_pushforward(tangents[1], x, y, np.matrix_transpose)


@sample_inputs(np.matrix_transpose, np.linalg.matrix_transpose)
def _matrix_transpose_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield from with_dtypes(Sample(normal(rng, 2, 3), label="matrix"))
    yield Sample(normal(rng, 2, 2, 3), label="stack of matrices")


# ---- np.swapaxes, ndarray.swapaxes -------------------------------------------------------------------
def _swapped(axis1: Any, axis2: Any) -> Callable[[np.ndarray], np.ndarray]:
    def swap(v: np.ndarray) -> np.ndarray:
        return np.swapaxes(v, axis1, axis2)

    return swap


@rrule.register(np.swapaxes, ARRAY_LIKE)
def swapaxes_rrule(a: Any, axis1: Any = REQUIRED, axis2: Any = REQUIRED) -> tuple[Any, Pullback]:
    """Reverse rule of ``np.swapaxes``: swap the same axes back.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> y, pb = rrule(np.swapaxes, np.zeros((2, 3)), 0, 1)
    >>> pb(np.ones((3, 2)))[1].shape
    (2, 3)
    """
    require("swapaxes", axis1=axis1, axis2=axis2)
    y = np.swapaxes(a, axis1, axis2)
    cotangent_a = unary_cotangent("np.swapaxes", a, y, _swapped(axis1, axis2))

    def swapaxes_pullback(dy: Any) -> tuple[Any, ...]:
        return NO, cotangent_a(dy), NO, NO

    return y, swapaxes_pullback


@frule.register(np.swapaxes, ARRAY_LIKE)
def swapaxes_frule(tangents: tuple[Any, ...], a: Any, axis1: Any = REQUIRED, axis2: Any = REQUIRED) -> tuple[Any, Any]:
    """Forward rule of ``np.swapaxes``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> frule((NoTangent(), np.ones((2, 3)), NoTangent(), NoTangent()), np.swapaxes, np.zeros((2, 3)), 0, 1)[1].shape
    (3, 2)
    """
    require("swapaxes", axis1=axis1, axis2=axis2)
    y = np.swapaxes(a, axis1, axis2)
    return y, unary_pushforward(tangents[1], a, y, _swapped(axis1, axis2))


@sample_inputs(np.swapaxes)
def _swapaxes_samples(rng: np.random.Generator) -> Iterator[Sample]:
    x = normal(rng, 2, 3, 4)
    yield from with_dtypes(Sample(x, 0, 2, label="axes by position"))
    yield Sample(x, fkwargs={"axis1": -1, "axis2": 1}, label="axes by keyword")


@rrule.register(np.ndarray.swapaxes, np.ndarray)
def ndarray_swapaxes_rrule(a: np.ndarray, axis1: Any = REQUIRED, axis2: Any = REQUIRED) -> tuple[Any, Pullback]:
    """Reverse rule of the method ``x.swapaxes(axis1, axis2)``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> x = np.zeros((2, 3))
    >>> rrule(x.swapaxes, 0, 1)[1](np.ones((3, 2)))[1].shape
    (2, 3)
    """
    require("swapaxes", axis1=axis1, axis2=axis2)
    return swapaxes_rrule(a, axis1, axis2)


@frule.register(np.ndarray.swapaxes, np.ndarray)
def ndarray_swapaxes_frule(tangents: tuple[Any, ...], a: np.ndarray, axis1: Any = REQUIRED,
                           axis2: Any = REQUIRED) -> tuple[Any, Any]:
    """Forward rule of the method ``x.swapaxes(axis1, axis2)``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> x = np.zeros((2, 3))
    >>> frule((NoTangent(), np.ones((2, 3)), NoTangent(), NoTangent()), x.swapaxes, 0, 1)[1].shape
    (3, 2)
    """
    require("swapaxes", axis1=axis1, axis2=axis2)
    return swapaxes_frule(tangents, a, axis1, axis2)


@sample_inputs(np.ndarray.swapaxes)
def _ndarray_swapaxes_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample(normal(rng, 2, 3), 0, 1)
    yield Sample(normal(rng, 2, 3, 4, dtype=np.complex128), 1, -1, label="complex")


# ---- np.moveaxis, np.rollaxis ------------------------------------------------------------------------------
def _moveaxis_permutation(ndim: int, source: Any, destination: Any) -> tuple[int, ...]:
    """The permutation ``np.moveaxis(x, source, destination)`` applies, as NumPy computes it."""
    source = normalize_axis_tuple(source, ndim, "source")
    destination = normalize_axis_tuple(destination, ndim, "destination")
    order = [n for n in range(ndim) if n not in source]
    for dest, src in sorted(zip(destination, source)):
        order.insert(dest, src)
    return tuple(order)


@rrule.register(np.moveaxis, ARRAY_LIKE)
def moveaxis_rrule(a: Any, source: Any = REQUIRED, destination: Any = REQUIRED) -> tuple[Any, Pullback]:
    """Reverse rule of ``np.moveaxis``: the inverse permutation of the axes.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> y, pb = rrule(np.moveaxis, np.zeros((2, 3, 4)), 0, -1)
    >>> pb(np.ones((3, 4, 2)))[1].shape
    (2, 3, 4)
    """
    require("moveaxis", source=source, destination=destination)
    y = np.moveaxis(a, source, destination)
    perm = _moveaxis_permutation(np.ndim(a), source, destination)
    cotangent_a = _permutation_rules("np.moveaxis", a, y, perm)

    def moveaxis_pullback(dy: Any) -> tuple[Any, ...]:
        return NO, cotangent_a(dy), NO, NO

    return y, moveaxis_pullback


@frule.register(np.moveaxis, ARRAY_LIKE)
def moveaxis_frule(tangents: tuple[Any, ...], a: Any, source: Any = REQUIRED,
                   destination: Any = REQUIRED) -> tuple[Any, Any]:
    """Forward rule of ``np.moveaxis``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> frule((NoTangent(), np.ones((2, 3)), NoTangent(), NoTangent()), np.moveaxis, np.zeros((2, 3)), 0, 1)[1].shape
    (3, 2)
    """
    require("moveaxis", source=source, destination=destination)
    y = np.moveaxis(a, source, destination)
    return y, unary_pushforward(tangents[1], a, y, _permuted(_moveaxis_permutation(np.ndim(a), source, destination)))


@sample_inputs(np.moveaxis)
def _moveaxis_samples(rng: np.random.Generator) -> Iterator[Sample]:
    x = normal(rng, 2, 3, 4)
    yield from with_dtypes(Sample(x, 0, -1, label="one axis"))
    yield Sample(x, (0, 1), (2, 0), label="two axes")
    yield Sample(x, fkwargs={"source": 2, "destination": 0}, label="by keyword")


def _rollaxis_permutation(ndim: int, axis: Any, start: Any) -> tuple[int, ...]:
    """The permutation ``np.rollaxis(x, axis, start)`` applies, as NumPy computes it."""
    axis = normalize_axis_index(axis, ndim)
    start = int(start)
    if start < 0:
        start += ndim
    order = list(range(ndim))
    if axis < start:
        start -= 1
    if axis == start:
        return tuple(order)
    order.remove(axis)
    order.insert(start, axis)
    return tuple(order)


@rrule.register(np.rollaxis, ARRAY_LIKE)
def rollaxis_rrule(a: Any, axis: Any = REQUIRED, start: Any = 0) -> tuple[Any, Pullback]:
    """Reverse rule of ``np.rollaxis``: the inverse permutation of the axes.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> y, pb = rrule(np.rollaxis, np.zeros((2, 3, 4)), 2)
    >>> pb(np.ones((4, 2, 3)))[1].shape
    (2, 3, 4)
    """
    require("rollaxis", axis=axis)
    y = np.rollaxis(a, axis, start)
    cotangent_a = _permutation_rules("np.rollaxis", a, y, _rollaxis_permutation(np.ndim(a), axis, start))

    def rollaxis_pullback(dy: Any) -> tuple[Any, ...]:
        return NO, cotangent_a(dy), NO, NO

    return y, rollaxis_pullback


@frule.register(np.rollaxis, ARRAY_LIKE)
def rollaxis_frule(tangents: tuple[Any, ...], a: Any, axis: Any = REQUIRED, start: Any = 0) -> tuple[Any, Any]:
    """Forward rule of ``np.rollaxis``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> frule((NoTangent(), np.ones((2, 3)), NoTangent()), np.rollaxis, np.zeros((2, 3)), 1)[1].shape
    (3, 2)
    """
    require("rollaxis", axis=axis)
    y = np.rollaxis(a, axis, start)
    return y, unary_pushforward(tangents[1], a, y, _permuted(_rollaxis_permutation(np.ndim(a), axis, start)))


@sample_inputs(np.rollaxis)
def _rollaxis_samples(rng: np.random.Generator) -> Iterator[Sample]:
    x = normal(rng, 2, 3, 4)
    yield from with_dtypes(Sample(x, 2, label="to the front"))
    yield Sample(x, 0, 2, label="start by position")
    yield Sample(x, fkwargs={"axis": 1, "start": 3}, label="by keyword")


@rrule.register(np.linalg.matrix_transpose, ARRAY_LIKE)
def linalg_matrix_transpose_rrule(x: Any) -> tuple[Any, Pullback]:
    """Reverse rule of ``np.linalg.matrix_transpose`` (the array-API twin of ``np.matrix_transpose``).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> rrule(np.linalg.matrix_transpose, np.zeros((2, 3)))[1](np.ones((3, 2)))[1].shape
    (2, 3)
    """
    y = np.linalg.matrix_transpose(x)
    cotangent_x = unary_cotangent("np.linalg.matrix_transpose", x, y, np.matrix_transpose)

    def linalg_matrix_transpose_pullback(dy: Any) -> tuple[Any, ...]:
        return NO, cotangent_x(dy)

    return y, linalg_matrix_transpose_pullback


@frule.register(np.linalg.matrix_transpose, ARRAY_LIKE)
def linalg_matrix_transpose_frule(tangents: tuple[Any, ...], x: Any) -> tuple[Any, Any]:
    """Forward rule of ``np.linalg.matrix_transpose``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> frule((NoTangent(), np.ones((1, 2))), np.linalg.matrix_transpose, np.zeros((1, 2)))[1].shape
    (2, 1)
    """
    y = np.linalg.matrix_transpose(x)
    return y, unary_pushforward(tangents[1], x, y, np.matrix_transpose)
