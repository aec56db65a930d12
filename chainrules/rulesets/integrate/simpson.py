"""``scipy.integrate.simpson`` and ``scipy.integrate.cumulative_simpson``: Simpson's rule on samples,
with respect to the samples ``y`` and (for ``simpson``) the sample points ``x``.

SciPy takes ``dx`` (and, in ``cumulative_simpson``, ``x`` and ``initial``) by keyword only. A
rule differentiates positional arguments only (keywords are never differentiated), so those are
constants here; pass ``x`` to ``simpson`` by position to differentiate it.

The maths
---------
Both rules add up parabolas through three neighbouring samples (Cartwright, K. V., "Simpson's
rule cumulative integration with MS Excel and irregularly-spaced data", J. Math. Sci. Math.
Educ. 12(2), 2017, eqs. 3 and 8), with coefficients that are rational functions of the widths
``h_k = x[k+1] - x[k]``:

* ``simpson``: a parabola over each pair of intervals,
  ``(h0 + h1)/6 [(2 - h1/h0) y0 + (h0 + h1)^2/(h0 h1) y1 + (2 - h0/h1) y2]``, and for an even
  number of samples the last interval from the last three points,
  ``alpha y[-1] + beta y[-2] - eta y[-3]`` (SciPy's correction; two samples: a trapezoid);
* ``cumulative_simpson``: each interval from the parabola through it and one neighbour, then
  the running sum.

The integral is linear in ``y``: ``y_bar`` applies the transposed coefficients to the segment
cotangent. Its derivative with respect to ``x`` is the sum, over the terms, of the
coefficients' partial derivatives with respect to the widths (written out in
:mod:`chainrules.rulesets.integrate._stencils`) times the samples, then the adjoint of ``diff``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, SupportsIndex

import numpy as np
import scipy.integrate
from numpy.lib.array_utils import normalize_axis_index

from chainrules.rulesets.contractions._multilinear import lazy_cotangent
from chainrules.rulesets.integrate._stencils import (
    SampledIntegral,
    Spacings,
    cumulative_simpson_stencil,
    simpson_stencil,
    trapezoid_stencil,
)
from chainrules.rulesets.integrate.trapezoid import increasing
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
)


# ---- simpson ------------------------------------------------------------------------------------------------
def _simpson_call(y: np.ndarray, x: Any, dx: Any, axis: SupportsIndex) -> tuple[SampledIntegral, Spacings]:
    ax = normalize_axis_index(int(axis), y.ndim)
    spacing = Spacings(y, x, dx, ax)
    return SampledIntegral(y, ax, simpson_stencil(np.moveaxis(y, ax, -1).shape, spacing.h)), spacing


@rrule.register(scipy.integrate.simpson, np.ndarray, (np.ndarray, type(None)))
def simpson_rrule(y: np.ndarray, x: Any = None, *, dx: Any = 1.0, axis: SupportsIndex = -1) -> Any:
    """Reverse rule of ``scipy.integrate.simpson`` with respect to ``y`` and ``x`` (``dx`` is keyword-only).

    Examples
    --------
    >>> from chainrules import unthunk
    >>> I, pullback = rrule(scipy.integrate.simpson, np.array([0.0, 1.0, 4.0]), np.array([0.0, 1.0, 2.0]))
    >>> I
    np.float64(2.6666666666666665)
    >>> [unthunk(c) for c in pullback(1.0)[1:]]       # weights 1/3, 4/3, 1/3
    [array([0.33333333, 1.33333333, 0.33333333]), array([-0.        , -2.66666667,  2.66666667])]
    """
    out = scipy.integrate.simpson(y, x, dx=dx, axis=axis)
    call, spacing = _simpson_call(y, x, dx, axis)
    project_y, project_x = cotangent_projector(y), cotangent_projector(x)

    def simpson_pullback(d_out: Any) -> tuple[Any, ...]:
        d_out = read_cotangent(d_out, out, scipy.integrate.simpson)
        if passes_through(d_out):
            zero = passed_on(d_out)
            return NoTangent(), project_y(zero), project_x(zero)
        g = call.segment_cotangent(d_out)
        y_bar = lazy_cotangent(project_y, lambda: call.y_cotangent(g))
        if not spacing.from_points:
            return NoTangent(), y_bar, NoTangent()
        return NoTangent(), y_bar, lazy_cotangent(project_x, lambda: spacing.cotangent(call.spacing_cotangent(g)))

    return out, simpson_pullback


@frule.register(scipy.integrate.simpson, np.ndarray, (np.ndarray, type(None)))
def simpson_frule(tangents: Any, y: np.ndarray, x: Any = None, *, dx: Any = 1.0, axis: SupportsIndex = -1) -> Any:
    """Forward rule of ``scipy.integrate.simpson`` with respect to ``y`` and ``x``.

    Examples
    --------
    >>> frule((NoTangent(), np.ones(3)), scipy.integrate.simpson, np.array([0.0, 1.0, 4.0]))
    (np.float64(2.6666666666666665), np.float64(2.0))
    """
    out = scipy.integrate.simpson(y, x, dx=dx, axis=axis)
    call, spacing = _simpson_call(y, x, dx, axis)
    dx_points = tangent_value(tangents[2]) if spacing.from_points else None
    return out, output_tangent(call.tangent(tangent_value(tangents[1]), spacing.tangent(dx_points)), out)


# ---- cumulative_simpson ----------------------------------------------------------------------------------
def _cumulative_simpson_call(y: np.ndarray, x: Any, dx: Any, axis: SupportsIndex, initial: Any) -> SampledIntegral:
    ax = normalize_axis_index(int(axis), y.ndim)
    spacing = Spacings(y, x, dx, ax)
    shape = np.moveaxis(y, ax, -1).shape
    stencil = (cumulative_simpson_stencil if shape[-1] >= 3 else trapezoid_stencil)(shape, spacing.h)
    return SampledIntegral(y, ax, stencil, cumulative=True, leading=int(initial is not None))


@rrule.register(scipy.integrate.cumulative_simpson, np.ndarray)
def cumulative_simpson_rrule(y: np.ndarray, *, x: Any = None, dx: Any = 1.0, axis: SupportsIndex = -1,
                             initial: Any = None) -> Any:
    """Reverse rule of ``scipy.integrate.cumulative_simpson`` with respect to ``y`` (the rest is keyword-only).

    Examples
    --------
    >>> from chainrules import unthunk
    >>> I, pullback = rrule(scipy.integrate.cumulative_simpson, np.array([0.0, 1.0, 4.0]))
    >>> I, unthunk(pullback(np.array([0.0, 1.0]))[1])
    (array([0.33333333, 2.66666667]), array([0.33333333, 1.33333333, 0.33333333]))
    """
    out = scipy.integrate.cumulative_simpson(y, x=x, dx=dx, axis=axis, initial=initial)
    call = _cumulative_simpson_call(y, x, dx, axis, initial)
    project_y = cotangent_projector(y)

    def cumulative_simpson_pullback(d_out: Any) -> tuple[Any, ...]:
        d_out = read_cotangent(d_out, out, scipy.integrate.cumulative_simpson)
        if passes_through(d_out):
            return NoTangent(), project_y(passed_on(d_out))
        g = call.segment_cotangent(d_out)
        return NoTangent(), lazy_cotangent(project_y, lambda: call.y_cotangent(g))

    return out, cumulative_simpson_pullback


@frule.register(scipy.integrate.cumulative_simpson, np.ndarray)
def cumulative_simpson_frule(tangents: Any, y: np.ndarray, *, x: Any = None, dx: Any = 1.0,
                             axis: SupportsIndex = -1, initial: Any = None) -> Any:
    """Forward rule of ``scipy.integrate.cumulative_simpson`` with respect to ``y``.

    Examples
    --------
    >>> frule((NoTangent(), np.ones(3)), scipy.integrate.cumulative_simpson, np.array([0.0, 1.0, 4.0]))[1]
    array([1., 2.])
    """
    out = scipy.integrate.cumulative_simpson(y, x=x, dx=dx, axis=axis, initial=initial)
    call = _cumulative_simpson_call(y, x, dx, axis, initial)
    return out, output_tangent(call.tangent(tangent_value(tangents[1]), None), out)


# ---- sample inputs -----------------------------------------------------------------------------------------
@sample_inputs(scipy.integrate.simpson)
def _simpson_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample(rng.standard_normal(5), label="odd number of samples, unit spacing")
    yield Sample(rng.standard_normal(6), fkwargs={"dx": 0.4}, label="even number of samples, dx by keyword")
    yield Sample(rng.standard_normal(5), increasing(rng, 5), label="odd, x by position")
    yield Sample(rng.standard_normal(6), increasing(rng, 6), label="even, x by position (the last interval)")
    yield Sample(rng.standard_normal(2), increasing(rng, 2), label="two samples: a trapezoid")
    yield Sample(rng.standard_normal((4, 3)), increasing(rng, 4), fkwargs={"axis": 0}, label="1-d x along axis 0")
    yield Sample(rng.standard_normal((2, 6)), increasing(rng, 2, 6), label="x of y's shape")
    yield Sample(rng.standard_normal((2, 5)), increasing(rng, 1, 5), label="x broadcast against y")
    yield Sample(rng.standard_normal(5).astype(np.float32), increasing(rng, 5).astype(np.float32), label="float32")
    yield Sample(rng.standard_normal(6) + 1j * rng.standard_normal(6), increasing(rng, 6), label="complex y")


@sample_inputs(scipy.integrate.cumulative_simpson)
def _cumulative_simpson_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample(rng.standard_normal(5), label="unit spacing")
    yield Sample(rng.standard_normal(6), fkwargs={"x": increasing(rng, 6)}, label="x by keyword (constant)")
    yield Sample(rng.standard_normal((2, 5)), fkwargs={"dx": np.array([[0.5], [0.8]]), "initial": 1.5},
                 label="an array dx, initial")
    yield Sample(rng.standard_normal((5, 2)), fkwargs={"x": increasing(rng, 5), "axis": 0}, label="axis 0")
    yield Sample(rng.standard_normal(2), fkwargs={"initial": 0.0}, label="two samples: trapezoids")
    yield Sample(rng.standard_normal(6).astype(np.float32), label="float32")
    yield Sample(rng.standard_normal(4) + 1j * rng.standard_normal(4), label="complex y")
