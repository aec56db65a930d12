"""``np.trapezoid(y, x=None, dx=1.0, axis=-1)``: the composite trapezoidal rule, with respect to
the samples ``y``, the sample points ``x`` (1-d, or broadcast against ``y``) and the spacing
``dx``.

The maths
---------
NumPy computes ``I = sum(d * m, axis)`` with the interval widths ``d = diff(x)`` (or
``d = dx``) and the interval means ``m = (y[1:] + y[:-1]) / 2``. ``I`` is bilinear in
``(d, y)``, so, with ``g`` the output cotangent broadcast back along ``axis``:

* ``m_bar = conj(d) g`` and ``y_bar = (pad(m_bar, (1, 0)) + pad(m_bar, (0, 1))) / 2``: each
  sample gets half the width of the intervals on either side (the trapezoidal weights);
* ``d_bar = conj(m) g``, summed back to the shape of ``d``, and ``x_bar`` is the adjoint of
  ``diff``: ``x_bar = -diff(pad(d_bar, 1))``; ``dx_bar`` is ``d_bar`` summed to ``dx``'s shape.

The forward rule uses the linearity of ``trapezoid`` in ``y`` and in ``x`` (it only sees
``diff(x)``) and in ``dx``: ``dI = trapezoid(dy, x, dx) + trapezoid(y, dx_tangent)``.
"""

from __future__ import annotations

import numbers
import operator
from typing import Any, SupportsIndex

import numpy as np

from chainrules.rulesets.contractions._multilinear import lazy_cotangent, sum_tangents
from chainrules.rulesets.contractions.differences import diff_adjoint
from chainrules.rulesets.reductions._tangent_values import passed_on, tangent_value
from chainrules_core import (
    NoTangent,
    ProjectTo,
    Sample,
    ZeroTangent,
    cotangent_projector,
    frule,
    passes_through,
    read_cotangent,
    rrule,
    sample_inputs,
    unbroadcast,
)
from chainrules_core.scalar_rules import conj_if_complex

_TRAPEZOID_TYPES = (np.ndarray, (np.ndarray, type(None)), (numbers.Number, np.ndarray), SupportsIndex)


def _along(x: np.ndarray, axis: int, index: slice) -> np.ndarray:
    key = [slice(None)] * x.ndim
    key[axis] = index
    return x[tuple(key)]


def _pad_along(x: np.ndarray, axis: int, before: int, after: int) -> np.ndarray:
    widths = [(0, 0)] * x.ndim
    widths[axis] = (before, after)
    return np.pad(x, widths)


def _widths(y: np.ndarray, x: Any, dx: Any, axis: int) -> Any:
    """The interval widths ``d`` as NumPy's ``trapezoid`` forms them."""
    if x is None:
        return dx
    x = np.asanyarray(x)
    if x.ndim == 1:
        shape = [1] * y.ndim
        shape[axis] = x.shape[0] - 1
        return np.diff(x).reshape(shape)
    return np.diff(x, axis=axis)


@rrule.register(np.trapezoid, *_TRAPEZOID_TYPES)
def trapezoid_rrule(y: np.ndarray, x: Any = None, dx: Any = 1.0, axis: SupportsIndex = -1) -> Any:
    """Reverse rule of ``np.trapezoid``, with respect to ``y``, ``x`` and ``dx`` (see the module docstring).

    Examples
    --------
    >>> from chainrules import unthunk
    >>> I, pullback = rrule(np.trapezoid, np.array([1.0, 2.0, 3.0]), np.array([0.0, 1.0, 3.0]))
    >>> tuple(map(unthunk, pullback(1.0)[1:3]))
    (array([0.5, 1.5, 1. ]), array([-1.5, -1. ,  2.5]))
    """
    out = np.trapezoid(y, x, dx, axis)
    axis = operator.index(axis)
    y_axis = axis % y.ndim
    project_y_in, project_x, project_dx = cotangent_projector(y), cotangent_projector(x), cotangent_projector(dx)
    d = _widths(y, x, dx, axis)
    means = (_along(y, y_axis, slice(1, None)) + _along(y, y_axis, slice(None, -1))) / 2.0
    x_given = x is not None
    product_shape = np.broadcast_shapes(np.shape(d), means.shape)  # the shape of d * m before the sum

    def trapezoid_pullback(dI: Any) -> tuple[Any, ...]:
        dI = read_cotangent(dI, out, np.trapezoid)
        if passes_through(dI):
            zero = passed_on(dI)
            return NoTangent(), project_y_in(zero), project_x(zero), project_dx(zero), NoTangent()
        g = np.expand_dims(np.asarray(dI), axis)

        def y_cotangent() -> Any:
            m_bar = unbroadcast(np.broadcast_to(conj_if_complex(d) * g, product_shape), means.shape)
            return (_pad_along(m_bar, y_axis, 1, 0) + _pad_along(m_bar, y_axis, 0, 1)) / 2.0

        def width_cotangent() -> Any:
            return unbroadcast(np.broadcast_to(conj_if_complex(means) * g, product_shape), np.shape(d))

        def x_cotangent() -> Any:
            d_bar = width_cotangent()
            if np.ndim(x) == 1:
                return diff_adjoint(np.ravel(d_bar), 1, 0)
            return diff_adjoint(d_bar, 1, axis % np.ndim(x))

        dy_bar = lazy_cotangent(project_y_in, y_cotangent)
        if x_given:
            return NoTangent(), dy_bar, lazy_cotangent(project_x, x_cotangent), project_dx(ZeroTangent()), NoTangent()
        return NoTangent(), dy_bar, NoTangent(), lazy_cotangent(project_dx, width_cotangent), NoTangent()

    return out, trapezoid_pullback


@frule.register(np.trapezoid, *_TRAPEZOID_TYPES)
def trapezoid_frule(tangents: Any, y: np.ndarray, x: Any = None, dx: Any = 1.0,
                    axis: SupportsIndex = -1) -> Any:
    """Forward rule of ``np.trapezoid``: ``trapezoid(dy, x, dx) + trapezoid(y, dx_tangent)`` (linear in each).

    Examples
    --------
    >>> frule((NoTangent(), np.ones(3)), np.trapezoid, np.ones(3))[1]
    2.0
    """
    out = np.trapezoid(y, x, dx, axis)
    dy, dX, ddx = (tangent_value(tangents[i]) for i in (1, 2, 3))
    terms = [None if dy is None else np.trapezoid(dy, x, dx, axis)]
    if x is not None and dX is not None:
        terms.append(np.trapezoid(y, dX, axis=axis))
    elif x is None and ddx is not None:
        terms.append(np.trapezoid(y, None, ddx, axis))
    return out, sum_tangents(terms, ProjectTo(out))


# ---- sample inputs ----------------------------------------------------------------------------------
def _points(rng: np.random.Generator, *shape: int) -> np.ndarray:
    """Sample points increasing along the last axis."""
    return np.cumsum(0.5 + rng.uniform(0.0, 1.0, shape), axis=-1)


@sample_inputs(np.trapezoid)
def _trapezoid_samples(rng: np.random.Generator) -> list[Sample]:
    y1, y2 = rng.standard_normal(4), rng.standard_normal((3, 4))
    return [Sample(y1, label="unit spacing"), Sample(y1, _points(rng, 4), label="x by position"),
            Sample(y1, None, 0.3, label="dx by position (differentiated)"),
            Sample(y2, _points(rng, 4), label="1-d x along the last axis"),
            Sample(y2.T.copy(), _points(rng, 4), 1.0, 0, label="1-d x along axis 0, by position"),
            Sample(y2, fkwargs={"dx": 0.5, "axis": 0}, label="dx and axis by keyword"),
            Sample(y2, _points(rng, 3, 4), label="x of y's shape"),
            Sample(rng.standard_normal((2, 4)), _points(rng, 3, 1, 4), label="x broadcast against y"),
            Sample(y2, None, rng.uniform(0.5, 1.0, (3, 1)), label="an array dx"),
            Sample(y1, np.arange(4), label="integer x (not differentiated)"),
            Sample(y1.astype(np.float32), _points(rng, 4).astype(np.float32), label="float32"),
            Sample(y2 + 1j * y2[::-1], _points(rng, 4), label="complex y")]
