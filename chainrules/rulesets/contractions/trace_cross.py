"""``np.trace`` (and ``ndarray.trace``) with ``offset``, ``axis1``, ``axis2``; ``np.cross`` with
``axisa``, ``axisb``, ``axisc`` and ``axis``, for 3- and 2-component vectors.

* ``trace`` is linear: its cotangent is the output cotangent written onto the (offset)
  diagonal of a zero array, broadcast over the remaining axes. The pullback returns an
  ``InplaceableThunk``: an accumulator gets the diagonal added in place (``O(n)``),
  with no dense ``O(n^2)`` zero array.
* ``cross`` is bilinear. With the scalar triple product ``u . (v x w) = v . (w x u)``
  (which holds for complex vectors without conjugation), the adjoint in the real inner
  product is ``da = conj(b) x dc`` and ``db = dc x conj(a)``. 2-component vectors are
  3-component vectors with a zero third component: they are padded, the 3-d formulas are
  used, and the third component of the cotangent is dropped. When both inputs have 2
  components, NumPy returns only the third component of the product, so the output
  cotangent is the third component of a 3-vector cotangent. Broadcast batch axes are summed
  back to each input's shape.
"""

from __future__ import annotations

import operator
from typing import Any, SupportsIndex

import numpy as np

from chainrules.rulesets.contractions._multilinear import lazy_cotangent, sum_tangents
from chainrules.rulesets.reductions._tangent_values import passed_on, tangent_value
from chainrules_core import (
    InplaceableThunk,
    NoTangent,
    ProjectTo,
    Sample,
    cotangent_projector,
    differentiable,
    frule,
    passes_through,
    read_cotangent,
    reject_keywords,
    rrule,
    sample_inputs,
    unbroadcast,
)
from chainrules_core.scalar_rules import conj_if_complex


# ---- trace ----------------------------------------------------------------------------------------------
def _diagonal_index(n1: int, n2: int, offset: int) -> tuple[np.ndarray, np.ndarray]:
    """Row and column indices of the ``offset`` diagonal of an ``n1 x n2`` matrix."""
    length = max(0, min(n1, n2 - offset) if offset >= 0 else min(n1 + offset, n2))
    i = np.arange(length)
    return (i, i + offset) if offset >= 0 else (i - offset, i)


def add_to_diagonal(acc: np.ndarray, dy: Any, offset: int, axis1: int, axis2: int) -> np.ndarray:
    """Add ``dy`` onto the ``offset`` diagonal of ``acc`` (axes ``axis1``, ``axis2``), in place.

    Examples
    --------
    >>> add_to_diagonal(np.zeros((2, 3)), 5.0, 1, 0, 1)
    array([[0., 5., 0.],
           [0., 0., 5.]])
    """
    rows, cols = _diagonal_index(acc.shape[axis1], acc.shape[axis2], offset)
    view = np.moveaxis(acc, (axis1, axis2), (-2, -1))
    view[..., rows, cols] += np.asarray(dy)[..., np.newaxis]
    return acc


@rrule.register(np.trace, np.ndarray)
@rrule.register(np.ndarray.trace, np.ndarray)
def trace_rrule(a: np.ndarray, offset: SupportsIndex = 0, axis1: SupportsIndex = 0, axis2: SupportsIndex = 1,
                dtype: Any = None, out: Any = None) -> Any:
    """Reverse rule of ``np.trace(a, offset, axis1, axis2, dtype)`` and ``a.trace(...)``.

    The cotangent is ``dy`` on the chosen diagonal and zero elsewhere, as an
    ``InplaceableThunk`` that adds into an accumulator without a dense temporary.

    Examples
    --------
    >>> from chainrules import unthunk
    >>> from chainrules import add_
    >>> y, pullback = rrule(np.trace, np.ones((3, 3)), 1)
    >>> da = pullback(2.0)[1]
    >>> unthunk(da)
    array([[0., 2., 0.],
           [0., 0., 2.],
           [0., 0., 0.]])
    >>> add_(np.ones((3, 3)), da)[0]
    array([1., 3., 1.])
    """
    reject_keywords(np.trace, {"out": out})
    y = np.trace(a, offset, axis1, axis2, dtype)
    rest = (NoTangent(),) * 5
    if not differentiable(a):
        def trace_pullback_integer(dy: Any) -> tuple[Any, ...]:
            read_cotangent(dy, y, np.trace)  # rejects what is not a cotangent; nothing is differentiated
            return NoTangent(), NoTangent(), *rest

        return y, trace_pullback_integer
    offset = operator.index(offset)
    axes = (operator.index(axis1) % a.ndim, operator.index(axis2) % a.ndim)
    tangent_dtype = a.dtype

    def trace_pullback(dy: Any) -> tuple[Any, ...]:
        dy = read_cotangent(dy, y, np.trace)
        if passes_through(dy):
            zero = passed_on(dy)
            return NoTangent(), zero, *rest
        dy = np.asarray(dy)
        if tangent_dtype.kind == "f" and dy.dtype.kind == "c":
            dy = dy.real

        def add_trace_cotangent(acc: np.ndarray) -> np.ndarray:
            return add_to_diagonal(acc, dy, offset, *axes)

        def trace_cotangent() -> np.ndarray:
            return add_to_diagonal(np.zeros(a.shape, dtype=tangent_dtype), dy, offset, *axes)

        return NoTangent(), InplaceableThunk(add_trace_cotangent, trace_cotangent), *rest

    return y, trace_pullback


@frule.register(np.trace, np.ndarray)
@frule.register(np.ndarray.trace, np.ndarray)
def trace_frule(tangents: Any, a: np.ndarray, offset: SupportsIndex = 0, axis1: SupportsIndex = 0,
                axis2: SupportsIndex = 1, dtype: Any = None, out: Any = None) -> Any:
    """Forward rule of ``np.trace``: the trace of the tangent.

    Examples
    --------
    >>> frule((NoTangent(), np.eye(2)), np.trace, np.ones((2, 2)))[1]
    2.0
    """
    reject_keywords(np.trace, {"out": out})
    y = np.trace(a, offset, axis1, axis2, dtype)
    da = tangent_value(tangents[1])
    return y, sum_tangents([None if da is None else np.trace(da, offset, axis1, axis2)], ProjectTo(y))


# ---- cross ----------------------------------------------------------------------------------------------
def _as_3_vectors(x: np.ndarray) -> np.ndarray:
    """Pad 2-component vectors (last axis) with a zero third component."""
    if x.shape[-1] == 3:
        return x
    return np.concatenate([x, np.zeros(x.shape[:-1] + (1,), dtype=x.dtype)], axis=-1)


class _CrossLayout:
    """The inputs of ``np.cross`` with their vector axes last, padded to 3 components."""

    def __init__(self, a: np.ndarray, b: np.ndarray, axisa: int, axisb: int, axisc: int, axis: Any) -> None:
        if axis is not None:
            axisa = axisb = axisc = axis
        self.axisa, self.axisb, self.axisc = axisa, axisb, axisc
        self.a_last, self.b_last = np.moveaxis(a, axisa, -1), np.moveaxis(b, axisb, -1)
        self.a3, self.b3 = _as_3_vectors(self.a_last), _as_3_vectors(self.b_last)
        self.both_2d = self.a_last.shape[-1] == 2 and self.b_last.shape[-1] == 2

    def output_to_3_vectors(self, dc: np.ndarray) -> np.ndarray:
        """An output (co)tangent as 3-vectors along the last axis."""
        if self.both_2d:
            full = np.zeros(dc.shape + (3,), dtype=dc.dtype)
            full[..., 2] = dc
            return full
        return np.moveaxis(dc, self.axisc, -1)

    def output_from_3_vectors(self, c3: np.ndarray) -> np.ndarray:
        """3-vectors along the last axis in the layout of ``np.cross``'s output."""
        if self.both_2d:
            return c3[..., 2]
        return np.moveaxis(c3, -1, self.axisc)

    def back_to_input(self, d3: np.ndarray, x_last: np.ndarray, axis: int) -> np.ndarray:
        """A 3-vector cotangent summed back to an input's batch shape, its components and layout."""
        d = unbroadcast(d3, x_last.shape[:-1] + (3,))[..., : x_last.shape[-1]]
        return np.moveaxis(d, -1, axis)


@rrule.register(np.cross, np.ndarray, np.ndarray)
def cross_rrule(a: np.ndarray, b: np.ndarray, axisa: SupportsIndex = -1, axisb: SupportsIndex = -1,
                axisc: SupportsIndex = -1, axis: SupportsIndex | None = None) -> Any:
    """Reverse rule of ``np.cross``: ``da = conj(b) x dc``, ``db = dc x conj(a)`` (see the module docstring).

    Examples
    --------
    >>> from chainrules import unthunk
    >>> y, pullback = rrule(np.cross, np.array([1.0, 0.0, 0.0]), np.array([0.0, 1.0, 0.0]))
    >>> tuple(map(unthunk, pullback(np.array([0.0, 0.0, 1.0]))[1:3]))
    (array([1., 0., 0.]), array([0., 1., 0.]))
    """
    axisa, axisb, axisc = operator.index(axisa), operator.index(axisb), operator.index(axisc)
    axis = None if axis is None else operator.index(axis)
    y = np.cross(a, b, axisa, axisb, axisc, axis)
    project_a, project_b = cotangent_projector(a), cotangent_projector(b)
    layout = _CrossLayout(a, b, axisa, axisb, axisc, axis)
    rest = (NoTangent(),) * 4

    def cross_pullback(dc: Any) -> tuple[Any, ...]:
        dc = read_cotangent(dc, y, np.cross)
        if passes_through(dc):
            zero = passed_on(dc)
            return NoTangent(), project_a(zero), project_b(zero), *rest
        dc3 = layout.output_to_3_vectors(np.asarray(dc))
        da = lazy_cotangent(project_a, lambda: layout.back_to_input(
            np.cross(conj_if_complex(layout.b3), dc3), layout.a_last, layout.axisa))
        db = lazy_cotangent(project_b, lambda: layout.back_to_input(
            np.cross(dc3, conj_if_complex(layout.a3)), layout.b_last, layout.axisb))
        return NoTangent(), da, db, *rest

    return y, cross_pullback


@frule.register(np.cross, np.ndarray, np.ndarray)
def cross_frule(tangents: Any, a: np.ndarray, b: np.ndarray, axisa: SupportsIndex = -1, axisb: SupportsIndex = -1,
                axisc: SupportsIndex = -1, axis: SupportsIndex | None = None) -> Any:
    """Forward rule of ``np.cross``: ``da x b + a x db``.

    Examples
    --------
    >>> e1, e2 = np.array([1.0, 0.0, 0.0]), np.array([0.0, 1.0, 0.0])
    >>> frule((NoTangent(), e1, np.zeros(3)), np.cross, e2, e2)[1]
    array([0., 0., 1.])
    """
    axisa, axisb, axisc = operator.index(axisa), operator.index(axisb), operator.index(axisc)
    axis = None if axis is None else operator.index(axis)
    y = np.cross(a, b, axisa, axisb, axisc, axis)
    layout = _CrossLayout(a, b, axisa, axisb, axisc, axis)
    da, db = tangent_value(tangents[1]), tangent_value(tangents[2])
    terms = []
    if da is not None:
        terms.append(np.cross(_as_3_vectors(np.moveaxis(np.asarray(da), layout.axisa, -1)), layout.b3))
    if db is not None:
        terms.append(np.cross(layout.a3, _as_3_vectors(np.moveaxis(np.asarray(db), layout.axisb, -1))))
    if not terms:
        return y, sum_tangents([], ProjectTo(y))
    return y, ProjectTo(y)(layout.output_from_3_vectors(sum(terms[1:], terms[0])))


# ---- sample inputs ----------------------------------------------------------------------------------
@sample_inputs(np.trace, np.ndarray.trace)
def _trace_samples(rng: np.random.Generator) -> list[Sample]:
    a = rng.standard_normal((3, 4))
    return [Sample(a), Sample(a, 1, label="offset by position"), Sample(a, -1, label="a negative offset"),
            Sample(rng.standard_normal((2, 3, 3)), 0, 1, 2, label="axis1, axis2 by position"),
            Sample(rng.standard_normal((3, 2, 3)), fkwargs={"axis1": 0, "axis2": -1}, label="axes by keyword"),
            Sample(a.astype(np.float32), label="float32"), Sample(a + 1j * a, label="complex"),
            Sample(a.astype(np.float32), 0, 0, 1, np.float64, label="dtype by position"),
            Sample(np.arange(9).reshape(3, 3), label="integers (not differentiated)")]


@sample_inputs(np.cross)
def _cross_samples(rng: np.random.Generator) -> list[Sample]:
    def r(*shape: int) -> np.ndarray:
        return rng.standard_normal(shape)

    return [Sample(r(3), r(3), label="3-vectors"), Sample(r(2, 3), r(3), label="a batch against a vector"),
            Sample(r(2), r(2), label="2-vectors: the scalar third component"),
            Sample(r(2, 2), r(2, 3), label="2- and 3-vectors"),
            Sample(r(3, 2), r(2, 3), 0, 1, 0, label="axisa, axisb, axisc by position"),
            Sample(r(3, 2), r(3, 2), fkwargs={"axis": 0}, label="axis= by keyword"),
            Sample(r(3).astype(np.float32), r(3).astype(np.float32), label="float32"),
            Sample(r(3) + 1j * r(3), r(3), label="complex and real")]
