"""``scipy.integrate.romb``: Romberg integration of ``2**k + 1`` equally spaced samples, with respect
to the samples ``y`` and the spacing ``dx``.

The maths
---------
Romberg's method (Romberg 1955; Press et al., *Numerical Recipes*, section 4.3) builds
trapezoidal estimates ``R[i, 0]`` with ``2**i`` intervals and Richardson-extrapolates them,
``R[i, j] = R[i, j-1] + (R[i, j-1] - R[i-1, j-1]) / (4**j - 1)``; the result is ``R[k, k]``.
Every step is linear in ``y`` and scales with ``dx``, so ``romb(y, dx) = dx * sum_i w_i y_i``
along the axis, with weights ``w`` that depend on ``k`` only. :func:`romberg_weights` runs the
same recurrence on the weight vectors instead of the values, once per call. Then

* ``d romb = dx * romb(dy, 1) + romb(y, 1) * d dx``;
* ``y_bar = conj(dx) g w`` (``g`` the output cotangent, broadcast along the axis) and
  ``dx_bar = conj(romb(y, 1)) g`` summed to ``dx``'s shape.

``show`` only prints the table: it gets ``NoTangent()``.
"""

from __future__ import annotations

import numbers
import operator
from collections.abc import Iterator
from typing import Any, SupportsIndex

import numpy as np
import scipy.integrate
from numpy.lib.array_utils import normalize_axis_index

from chainrules.rulesets.contractions._multilinear import lazy_cotangent
from chainrules.rulesets.reductions._tangent_values import output_tangent, passed_on, tangent_value
from chainrules_core import (
    NoTangent,
    Sample,
    cotangent_projector,
    frule,
    passes_through,
    read_cotangent,
    rrule,
    sample_inputs,
    unbroadcast,
)


def romberg_weights(n_samples: int) -> np.ndarray:
    """The weights ``w`` with ``romb(y, 1.0) == w @ y`` for ``n_samples = 2**k + 1`` samples.

    Examples
    --------
    >>> romberg_weights(3) * 3          # Simpson's rule, 1 4 1 over 3
    array([1., 4., 1.])
    >>> bool(np.isclose(romberg_weights(9) @ np.linspace(0.0, 1.0, 9) ** 4, 8.0 ** 5 / 5 / 8.0 ** 4))
    True
    """
    intervals = n_samples - 1
    if n_samples < 2 or intervals & (intervals - 1):
        raise ValueError(f"romb: {n_samples} samples is not one plus a power of 2")
    width = float(intervals)
    first = np.zeros(n_samples)
    first[[0, -1]] = width / 2
    row = [first]
    step = intervals
    while step > 1:
        half = step // 2
        width /= 2
        trapezoid = row[0] / 2
        trapezoid[half::step] += width
        new_row = [trapezoid]
        for j in range(1, len(row) + 1):
            prev = new_row[j - 1]
            new_row.append(prev + (prev - row[j - 1]) / (4 ** j - 1))
        row, step = new_row, half
    return row[-1]


def _weights_along(w: np.ndarray, axis: int, ndim: int) -> np.ndarray:
    shape = [1] * ndim
    shape[axis] = w.size
    return w.reshape(shape)


@rrule.register(scipy.integrate.romb, np.ndarray, (numbers.Number, np.ndarray), SupportsIndex, object)
def romb_rrule(y: np.ndarray, dx: Any = 1.0, axis: SupportsIndex = -1, show: Any = False) -> Any:
    """Reverse rule of ``scipy.integrate.romb`` with respect to ``y`` and ``dx``.

    Examples
    --------
    >>> from chainrules import unthunk
    >>> I, pullback = rrule(scipy.integrate.romb, np.array([0.0, 1.0, 4.0]), 0.5)
    >>> I, [unthunk(c) for c in pullback(1.0)[1:]]
    (np.float64(1.3333333333333333), [array([0.16666667, 0.66666667, 0.16666667]), 2.666666666666667])
    """
    out = scipy.integrate.romb(y, dx, axis, show)
    ax = normalize_axis_index(operator.index(axis), y.ndim)
    w = _weights_along(romberg_weights(y.shape[ax]), ax, y.ndim)
    project_y, project_dx = cotangent_projector(y), cotangent_projector(dx)
    dx_array = np.asarray(dx, dtype=np.float64)

    def romb_pullback(d_out: Any) -> tuple[Any, ...]:
        d_out = read_cotangent(d_out, out, scipy.integrate.romb)
        if passes_through(d_out):
            zero = passed_on(d_out)
            return NoTangent(), project_y(zero), project_dx(zero), NoTangent(), NoTangent()
        g = np.asarray(d_out)

        def y_cotangent() -> np.ndarray:
            return unbroadcast(np.expand_dims(dx_array * g, ax) * w, y.shape)

        def dx_cotangent() -> Any:
            unit = np.sum(w * y, axis=ax)
            return unbroadcast(np.broadcast_to(np.conj(unit) * g, np.broadcast_shapes(unit.shape, g.shape)),
                               dx_array.shape)

        return NoTangent(), lazy_cotangent(project_y, y_cotangent), lazy_cotangent(project_dx, dx_cotangent), \
            NoTangent(), NoTangent()

    return out, romb_pullback


@frule.register(scipy.integrate.romb, np.ndarray, (numbers.Number, np.ndarray), SupportsIndex, object)
def romb_frule(tangents: Any, y: np.ndarray, dx: Any = 1.0, axis: SupportsIndex = -1, show: Any = False) -> Any:
    """Forward rule of ``scipy.integrate.romb`` with respect to ``y`` and ``dx``.

    Examples
    --------
    >>> frule((NoTangent(), np.ones(3), 1.0), scipy.integrate.romb, np.array([0.0, 1.0, 4.0]), 0.5)
    (np.float64(1.3333333333333333), np.float64(3.666666666666667))
    """
    out = scipy.integrate.romb(y, dx, axis, show)
    ax = normalize_axis_index(operator.index(axis), y.ndim)
    w = _weights_along(romberg_weights(y.shape[ax]), ax, y.ndim)
    dy, d_dx = tangent_value(tangents[1]), tangent_value(tangents[2])
    total = None
    if dy is not None:
        total = np.sum(w * dy, axis=ax) * np.asarray(dx, dtype=np.float64)
    if d_dx is not None:
        term = np.sum(w * y, axis=ax) * d_dx
        total = term if total is None else total + term
    return out, output_tangent(total, out)


@sample_inputs(scipy.integrate.romb)
def _romb_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample(rng.standard_normal(9), label="9 samples, unit spacing")
    yield Sample(rng.standard_normal(5), 0.3, label="dx by position")
    yield Sample(rng.standard_normal((5, 3)), 0.25, 0, label="axis 0 by position")
    yield Sample(rng.standard_normal((2, 3)), rng.uniform(0.5, 1.0, 2), label="an array dx")
    yield Sample(rng.standard_normal(17), fkwargs={"dx": 0.1, "axis": -1}, label="keywords (dx constant)")
    yield Sample(rng.standard_normal(2), 0.5, label="two samples: a trapezoid")
    yield Sample(rng.standard_normal(5).astype(np.float32), np.float32(0.5), label="float32")
    yield Sample(rng.standard_normal(5) + 1j * rng.standard_normal(5), 0.5, label="complex y")
