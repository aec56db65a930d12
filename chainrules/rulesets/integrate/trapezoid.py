"""``scipy.integrate.trapezoid`` and ``scipy.integrate.cumulative_trapezoid``: the trapezoidal rule
and its running sum, with respect to the samples ``y``, the sample points ``x`` and the spacing ``dx``.

SciPy's ``trapezoid`` is its own function (not NumPy's ``np.trapezoid``, which has its rule in
:mod:`chainrules.rulesets.contractions.integration`): it broadcasts an n-d ``x`` to ``y``'s
shape and keeps ``y``'s floating dtype.

The maths
---------
With the widths ``h_k = x[k+1] - x[k]`` (or ``h_k = dx``), the segment ``k`` is
``S_k = h_k (y_k + y_{k+1}) / 2``; ``trapezoid`` is ``sum(S)`` and ``cumulative_trapezoid``
is ``cumsum(S)`` (after ``initial``, which SciPy only accepts as ``0``). ``S`` is linear in
``y`` and in ``h``, so (see :mod:`chainrules.rulesets.integrate._stencils`)

* ``dI = sum_k h_k (dy_k + dy_{k+1}) / 2 + dh_k (y_k + y_{k+1}) / 2``;
* with ``G`` the segment cotangent (the output cotangent, or for the running sum its
  reversed running sum), ``y_bar_k = (h_{k-1} G_{k-1} + h_k G_k) / 2``,
  ``h_bar_k = conj(y_k + y_{k+1}) G_k / 2``, ``x_bar = -diff(pad(h_bar, 1))`` (the adjoint
  of ``diff``) and ``dx_bar`` is ``h_bar`` summed to ``dx``'s shape.

``dx`` is not used when ``x`` is given: its cotangent is then zero. Integer ``x`` or ``y``
are not differentiated.
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
from chainrules.rulesets.integrate._stencils import SampledIntegral, Spacings, trapezoid_stencil
from chainrules.rulesets.reductions._tangent_values import output_tangent, passed_on, tangent_value
from chainrules_core import (
    NoTangent,
    Sample,
    ZeroTangent,
    cotangent_projector,
    frule,
    passes_through,
    read_cotangent,
    rrule,
    sample_inputs,
)

_TYPES = (np.ndarray, (np.ndarray, type(None)), (numbers.Number, np.ndarray), SupportsIndex)


def _prepare(y: np.ndarray, x: Any, dx: Any, axis: SupportsIndex, cumulative: bool,
             leading: int = 0) -> tuple[SampledIntegral, Spacings]:
    ax = normalize_axis_index(operator.index(axis), y.ndim)
    spacing = Spacings(y, x, dx, ax, broadcast_x=not cumulative)
    stencil = trapezoid_stencil(np.moveaxis(y, ax, -1).shape, spacing.h)
    return SampledIntegral(y, ax, stencil, cumulative=cumulative, leading=leading), spacing


def _pullback_entries(call: SampledIntegral, spacing: Spacings, y: np.ndarray, x: Any, dx: Any,
                      d_out: Any) -> tuple[Any, Any, Any]:
    """``(y_bar, x_bar, dx_bar)``, each lazy, for the output cotangent ``d_out`` (already read)."""
    project_y, project_x, project_dx = cotangent_projector(y), cotangent_projector(x), cotangent_projector(dx)
    if passes_through(d_out):
        zero = passed_on(d_out)
        return project_y(zero), project_x(zero), project_dx(zero)
    g = call.segment_cotangent(d_out)
    y_bar = lazy_cotangent(project_y, lambda: call.y_cotangent(g))
    h_bar = lazy_cotangent(project_x if spacing.from_points else project_dx,
                           lambda: spacing.cotangent(call.spacing_cotangent(g)))
    if spacing.from_points:
        return y_bar, h_bar, project_dx(ZeroTangent())
    return y_bar, NoTangent(), h_bar


def _tangent(call: SampledIntegral, spacing: Spacings, tangents: tuple[Any, ...], out: Any) -> Any:
    dy = tangent_value(tangents[1])
    d_spacing = tangent_value(tangents[2] if spacing.from_points else tangents[3])
    return output_tangent(call.tangent(dy, spacing.tangent(d_spacing)), out)


# ---- trapezoid ----------------------------------------------------------------------------------------------
@rrule.register(scipy.integrate.trapezoid, *_TYPES)
def trapezoid_rrule(y: np.ndarray, x: Any = None, dx: Any = 1.0, axis: SupportsIndex = -1) -> Any:
    """Reverse rule of ``scipy.integrate.trapezoid`` with respect to ``y``, ``x`` and ``dx``.

    Examples
    --------
    >>> from chainrules import unthunk
    >>> I, pullback = rrule(scipy.integrate.trapezoid, np.array([1.0, 2.0, 3.0]), np.array([0.0, 1.0, 3.0]))
    >>> I, [unthunk(c) for c in pullback(1.0)[1:]]
    (np.float64(6.5), [array([0.5, 1.5, 1. ]), array([-1.5, -1. ,  2.5])])
    """
    out = scipy.integrate.trapezoid(y, x, dx, axis)
    call, spacing = _prepare(y, x, dx, axis, cumulative=False)

    def trapezoid_pullback(d_out: Any) -> tuple[Any, ...]:
        d_out = read_cotangent(d_out, out, scipy.integrate.trapezoid)
        return NoTangent(), *_pullback_entries(call, spacing, y, x, dx, d_out), NoTangent()

    return out, trapezoid_pullback


@frule.register(scipy.integrate.trapezoid, *_TYPES)
def trapezoid_frule(tangents: Any, y: np.ndarray, x: Any = None, dx: Any = 1.0, axis: SupportsIndex = -1) -> Any:
    """Forward rule of ``scipy.integrate.trapezoid`` (linear in ``y``, and in the spacings).

    Examples
    --------
    >>> frule((NoTangent(), np.ones(3), NoTangent(), 1.0), scipy.integrate.trapezoid, np.arange(3.0), None, 0.5)
    (np.float64(1.0), np.float64(3.0))
    """
    out = scipy.integrate.trapezoid(y, x, dx, axis)
    call, spacing = _prepare(y, x, dx, axis, cumulative=False)
    return out, _tangent(call, spacing, tangents, out)


# ---- cumulative_trapezoid ----------------------------------------------------------------------------------
@rrule.register(scipy.integrate.cumulative_trapezoid, *_TYPES, (type(None), numbers.Number))
def cumulative_trapezoid_rrule(y: np.ndarray, x: Any = None, dx: Any = 1.0, axis: SupportsIndex = -1,
                               initial: Any = None) -> Any:
    """Reverse rule of ``scipy.integrate.cumulative_trapezoid`` with respect to ``y``, ``x`` and ``dx``.

    ``initial`` can only be ``None`` or ``0`` (SciPy rejects other values): it gets ``NoTangent()``.

    Examples
    --------
    >>> from chainrules import unthunk
    >>> I, pullback = rrule(scipy.integrate.cumulative_trapezoid, np.array([1.0, 2.0, 4.0]), None, 1.0, -1, 0)
    >>> I, unthunk(pullback(np.array([0.0, 1.0, 1.0]))[1])
    (array([0. , 1.5, 4.5]), array([1. , 1.5, 0.5]))
    """
    out = scipy.integrate.cumulative_trapezoid(y, x, dx, axis, initial)
    call, spacing = _prepare(y, x, dx, axis, cumulative=True, leading=int(initial is not None))

    def cumulative_trapezoid_pullback(d_out: Any) -> tuple[Any, ...]:
        d_out = read_cotangent(d_out, out, scipy.integrate.cumulative_trapezoid)
        return NoTangent(), *_pullback_entries(call, spacing, y, x, dx, d_out), NoTangent(), NoTangent()

    return out, cumulative_trapezoid_pullback


@frule.register(scipy.integrate.cumulative_trapezoid, *_TYPES, (type(None), numbers.Number))
def cumulative_trapezoid_frule(tangents: Any, y: np.ndarray, x: Any = None, dx: Any = 1.0,
                               axis: SupportsIndex = -1, initial: Any = None) -> Any:
    """Forward rule of ``scipy.integrate.cumulative_trapezoid``.

    Examples
    --------
    >>> frule((NoTangent(), np.ones(3)), scipy.integrate.cumulative_trapezoid, np.arange(3.0))
    (array([0.5, 2. ]), array([1., 2.]))
    """
    out = scipy.integrate.cumulative_trapezoid(y, x, dx, axis, initial)
    call, spacing = _prepare(y, x, dx, axis, cumulative=True, leading=int(initial is not None))
    return out, _tangent(call, spacing, tangents, out)


# ---- sample inputs -----------------------------------------------------------------------------------------
def increasing(rng: np.random.Generator, *shape: int) -> np.ndarray:
    """Sample points increasing along the last axis (widths between 0.5 and 1.5)."""
    return np.cumsum(0.5 + rng.uniform(0.0, 1.0, shape), axis=-1)


@sample_inputs(scipy.integrate.trapezoid)
def _trapezoid_samples(rng: np.random.Generator) -> Iterator[Sample]:
    y1, y2 = rng.standard_normal(4), rng.standard_normal((3, 4))
    yield Sample(y1, label="unit spacing")
    yield Sample(y1, increasing(rng, 4), label="x by position")
    yield Sample(y1, None, 0.3, label="dx by position")
    yield Sample(y2, increasing(rng, 4), label="1-d x along the last axis")
    yield Sample(y2.T.copy(), increasing(rng, 4), 1.0, 0, label="1-d x along axis 0, dx unused")
    yield Sample(y2, fkwargs={"dx": 0.5, "axis": 0}, label="dx and axis by keyword")
    yield Sample(y2, increasing(rng, 1, 4), label="x broadcast to y's shape")
    yield Sample(y2, None, rng.uniform(0.5, 1.0, (3, 1)), label="an array dx")
    yield Sample(y1, np.arange(4), label="integer x (not differentiated)")
    yield Sample(y1.astype(np.float32), increasing(rng, 4).astype(np.float32), label="float32")
    yield Sample(y2 + 1j * y2[::-1], increasing(rng, 4), label="complex y")


@sample_inputs(scipy.integrate.cumulative_trapezoid)
def _cumulative_trapezoid_samples(rng: np.random.Generator) -> Iterator[Sample]:
    y1, y2 = rng.standard_normal(5), rng.standard_normal((3, 4))
    yield Sample(y1, label="unit spacing")
    yield Sample(y1, increasing(rng, 5), label="x by position")
    yield Sample(y1, None, 0.3, -1, 0, label="dx by position, initial 0")
    yield Sample(y2.T.copy(), increasing(rng, 4), 1.0, 0, label="1-d x along axis 0")
    yield Sample(y2, increasing(rng, 3, 4), fkwargs={"initial": 0}, label="x of y's shape, initial by keyword")
    yield Sample(y2, None, rng.uniform(0.5, 1.0, (3, 1)), label="an array dx")
    yield Sample(y1.astype(np.float32), increasing(rng, 5).astype(np.float32), label="float32")
    yield Sample(y2 + 1j * y2[::-1], None, 0.7, label="complex y")
