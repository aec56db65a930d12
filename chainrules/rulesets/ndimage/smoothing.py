"""``scipy.ndimage.gaussian_filter1d``, ``gaussian_filter``, ``uniform_filter1d`` and ``uniform_filter``:
with respect to the input, ``sigma`` and ``cval``, in every boundary mode and derivative order.

The maths
---------
Each filter is a separable chain of 1-d correlations, one per filtered axis, in SciPy's
order (:class:`._correlation.Separable`): the sampled Gaussian derivative kernel of that
axis's ``sigma``, ``order`` and radius (:mod:`._gaussian`), or the uniform kernel
``ones(size) / size``. SciPy skips an axis whose ``sigma`` is at most ``1e-15`` or whose
``size`` is 1; so do the rules.

* The input and ``cval``: the chain is linear in ``(x, cval)``; the pullback runs each
  step's adjoint in reverse order (the correlation with the reversed kernel, folded back by
  the mode, :mod:`._boundary`), and the ``constant`` padding of every step adds to the
  cotangent of ``cval``. Cost: one filter of the same kernels, as the primal.
* ``sigma``: step ``j``'s kernel depends on its axis's ``sigma`` with the exact derivative
  ``dv_j`` of :func:`._gaussian.gaussian_kernel`; the cotangent is
  ``sum_j Re <corr(u_j, dv_j), z_j>`` over the steps of that ``sigma``, ``u_j`` the input of
  step ``j`` (recomputed) and ``z_j`` the cotangent of its output (from the adjoint sweep). A
  scalar ``sigma`` serves every axis and collects every step; a sequence gets one cotangent
  per axis (zero for a skipped axis).
* ``truncate``: the radius ``int(truncate * sigma + 0.5)`` is piecewise constant, so the
  derivative in ``truncate`` is zero (where it exists: not at the jumps of the radius).
  ``size``, ``order``, ``radius``, ``axis``/``axes``, ``origin``, ``mode`` and ``output``
  (``None`` or a dtype) are not differentiated.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.ndimage as ndi
from numpy.lib.array_utils import normalize_axis_index

from chainrules.rulesets.ndimage._boundary import check_output
from chainrules.rulesets.ndimage._correlation import Correlation, Separable, Uniform
from chainrules.rulesets.ndimage._gaussian import gaussian_kernel, gaussian_radius
from chainrules.rulesets.ndimage._rules import (
    make_pullback,
    output_tangent,
    tangent_array,
    tangent_value,
    transposed_cotangents,
)
from chainrules.rulesets.ndimage._samples import image, modes_samples
from chainrules.rulesets.ndimage.correlation import normalize_axes
from chainrules_core import NotImplementedTangent, Sample, ZeroTangent, frule, rrule, sample_inputs

__all__ = ["SeparableCall", "gaussian_separable", "per_axis", "uniform_separable"]


def per_axis(value: Any, n: int) -> list[Any]:
    """A per-axis parameter as a list of ``n`` (SciPy's ``_normalize_sequence``: a string is one value).

    Examples
    --------
    >>> per_axis(1.5, 2), per_axis([1, 2], 2), per_axis("wrap", 2)
    ([1.5, 1.5], [1, 2], ['wrap', 'wrap'])
    """
    if not isinstance(value, str) and np.iterable(value):
        values = list(value)
        if len(values) != n:
            raise RuntimeError("sequence argument must have length equal to input rank")
        return values
    return [value] * n


def gaussian_separable(ndim: int, sigma: Any, order: Any, mode: Any, truncate: Any, radius: Any,
                       axes: Any = None) -> Separable:
    """The chain ``gaussian_filter`` runs, each kernel with its derivative in its ``sigma``.

    The parameter slot of a step is its axis's position among the filtered axes when
    ``sigma`` is a sequence, else 0.
    """
    chosen = normalize_axes(axes, ndim)
    n = len(chosen)
    sigmas, orders, modes, radii = (per_axis(v, n) for v in (sigma, order, mode, radius))
    sequence = not isinstance(sigma, str) and np.iterable(sigma)
    steps, dkernels, slots = [], [], []
    for i, axis in enumerate(chosen):
        if not sigmas[i] > 1e-15:
            continue
        v, dv = gaussian_kernel(sigmas[i], int(orders[i]), gaussian_radius(sigmas[i], truncate, radii[i]))
        steps.append(Correlation(v, (axis,), modes[i], (0,)))
        dkernels.append(dv)
        slots.append(i if sequence else 0)
    return Separable(steps, dkernels, slots)


def uniform_separable(ndim: int, size: Any, mode: Any, origin: Any, axes: Any = None) -> Separable:
    """The chain ``uniform_filter`` runs (an axis of size 1 is skipped)."""
    chosen = normalize_axes(axes, ndim)
    n = len(chosen)
    sizes, origins, modes = per_axis(size, n), per_axis(origin, n), per_axis(mode, n)
    steps = [Uniform.of(int(sizes[i]), axis, modes[i], int(origins[i])) for i, axis in enumerate(chosen)
             if sizes[i] > 1]
    return Separable(steps)


class SeparableCall:
    """One call of a separable filter, with what its rules need.

    Parameters
    ----------
    f, y, x, cval :
        The function, its output, its input (as an array) and ``cval``.
    chain : Separable
    parameter : Any
        The differentiated parameter (``sigma``), or ``None`` for none.
    """

    def __init__(self, f: Any, y: np.ndarray, x: np.ndarray, cval: Any, chain: Separable,
                 parameter: Any = None) -> None:
        self.f, self.y, self.x, self.cval, self.chain = f, y, x, cval, chain
        self.parameter = parameter
        self.sequence = parameter is not None and not isinstance(parameter, str) and np.iterable(parameter)
        self.dtype = y.dtype if y.dtype.kind in "fc" else None

    def cotangents(self, positions: dict[str, int]) -> dict[int, Any]:
        """``compute(dy, memo)`` for ``"input"``, ``"parameter"``, ``"cval"`` and ``"zero"`` (a zero
        cotangent: ``truncate``), at the given parameter positions."""

        adjoint, input_cotangent, cval_cotangent = transposed_cotangents(self.chain.transpose)

        def parameter_cotangent(dy: np.ndarray, memo: dict[str, Any]) -> Any:
            n = len(self.parameter) if self.sequence else 1
            values = self.chain.parameter_cotangent(self.x, self.cval, adjoint(dy, memo)[2], n, self.dtype)
            return values if self.sequence else values[0]

        def zero_cotangent(dy: np.ndarray, memo: dict[str, Any]) -> Any:
            return ZeroTangent()

        computes = {"input": input_cotangent, "parameter": parameter_cotangent, "cval": cval_cotangent,
                    "zero": zero_cotangent}
        return {position: computes[name] for name, position in positions.items()}

    def pullback(self, values: tuple[Any, ...], positions: dict[str, int]) -> Any:
        return make_pullback(self.f, self.f.__name__, self.y, values, self.cotangents(positions))

    def tangent(self, dx: Any, dparameter: Any, dcval: Any) -> Any:
        """The frule's output tangent for the tangents of the input, the parameter and ``cval``."""
        for t in (dx, dparameter, dcval):
            if isinstance(t, NotImplementedTangent):
                return t
        value = self.chain.pushforward(self.x, self.cval, dx, dcval, dparameter, self.dtype)
        return output_tangent(value, self.y)


def _parameter_tangent(tangent: Any, parameter: Any) -> Any:
    if not isinstance(parameter, str) and np.iterable(parameter):
        return tangent_array(tangent, parameter)
    return tangent_value(tangent)


# ---- gaussian_filter1d and gaussian_filter --------------------------------------------------------
def _gaussian1d_call(input: Any, sigma: Any, axis: Any, order: Any, output: Any, mode: Any, cval: Any,
                     truncate: Any, radius: Any) -> SeparableCall:
    check_output(ndi.gaussian_filter1d, output)
    y = ndi.gaussian_filter1d(input, sigma, axis, order, output, mode, cval, truncate, radius=radius)
    x = np.asarray(input)
    v, dv = gaussian_kernel(sigma, int(order), gaussian_radius(sigma, truncate, radius))
    chain = Separable([Correlation(v, (normalize_axis_index(int(axis), x.ndim),), mode, (0,))], [dv], [0])
    return SeparableCall(ndi.gaussian_filter1d, y, x, cval, chain, sigma)


@rrule.register(ndi.gaussian_filter1d)
def gaussian_filter1d_rrule(input: Any, sigma: Any, axis: Any = -1, order: Any = 0, output: Any = None,
                            mode: Any = "reflect", cval: Any = 0.0, truncate: Any = 4.0, *, radius: Any = None) -> Any:
    """Reverse rule of ``scipy.ndimage.gaussian_filter1d``: the input, ``sigma``, ``cval`` (``truncate``: zero).

    Examples
    --------
    >>> from chainrules import unthunk
    >>> y, pullback = rrule(ndi.gaussian_filter1d, np.array([0.0, 1.0, 0.0]), 1.0)
    >>> dx = unthunk(pullback(np.array([0.0, 1.0, 0.0]))[1])
    >>> np.round(dx, 4), float(dx.sum())           # a reflecting boundary keeps constants: the row sums to 1
    (array([0.2961, 0.4078, 0.2961]), 1.0)
    """
    call = _gaussian1d_call(input, sigma, axis, order, output, mode, cval, truncate, radius)
    values = (input, sigma, axis, order, output, mode, cval, truncate)
    return call.y, call.pullback(values, {"input": 0, "parameter": 1, "cval": 6, "zero": 7})


@frule.register(ndi.gaussian_filter1d)
def gaussian_filter1d_frule(tangents: Any, input: Any, sigma: Any, axis: Any = -1, order: Any = 0,
                            output: Any = None, mode: Any = "reflect", cval: Any = 0.0, truncate: Any = 4.0, *,
                            radius: Any = None) -> Any:
    """Forward rule of ``scipy.ndimage.gaussian_filter1d``: the input, ``sigma`` and ``cval``.

    Examples
    --------
    >>> from chainrules import NoTangent
    >>> frule((NoTangent(), np.ones(3), 0.0), ndi.gaussian_filter1d, np.zeros(3), 1.0)[1]
    array([1., 1., 1.])
    """
    call = _gaussian1d_call(input, sigma, axis, order, output, mode, cval, truncate, radius)
    dx, ds, dc = tangent_array(tangents[1], input), tangent_value(tangents[2]), tangent_value(tangents[7])
    return call.y, call.tangent(dx, ds, dc)


def _gaussian_call(input: Any, sigma: Any, order: Any, output: Any, mode: Any, cval: Any, truncate: Any,
                   radius: Any, axes: Any) -> SeparableCall:
    check_output(ndi.gaussian_filter, output)
    y = ndi.gaussian_filter(input, sigma, order, output, mode, cval, truncate, radius=radius, axes=axes)
    x = np.asarray(input)
    chain = gaussian_separable(x.ndim, sigma, order, mode, truncate, radius, axes)
    return SeparableCall(ndi.gaussian_filter, y, x, cval, chain, sigma)


@rrule.register(ndi.gaussian_filter)
def gaussian_filter_rrule(input: Any, sigma: Any, order: Any = 0, output: Any = None, mode: Any = "reflect",
                          cval: Any = 0.0, truncate: Any = 4.0, *, radius: Any = None, axes: Any = None) -> Any:
    """Reverse rule of ``scipy.ndimage.gaussian_filter``: the input, ``sigma`` (one per axis or one for all)
    and ``cval``; ``truncate`` has a zero derivative.

    Examples
    --------
    >>> from chainrules import unthunk
    >>> x = np.zeros((3, 3)); x[1, 1] = 1.0
    >>> y, pullback = rrule(ndi.gaussian_filter, x, [1.0, 2.0])
    >>> unthunk(pullback(np.ones((3, 3)))[2])     # a reflecting boundary keeps the total: no sigma derivative
    Tangent(list, 0.0, 0.0)
    """
    call = _gaussian_call(input, sigma, order, output, mode, cval, truncate, radius, axes)
    values = (input, sigma, order, output, mode, cval, truncate)
    return call.y, call.pullback(values, {"input": 0, "parameter": 1, "cval": 5, "zero": 6})


@frule.register(ndi.gaussian_filter)
def gaussian_filter_frule(tangents: Any, input: Any, sigma: Any, order: Any = 0, output: Any = None,
                          mode: Any = "reflect", cval: Any = 0.0, truncate: Any = 4.0, *, radius: Any = None,
                          axes: Any = None) -> Any:
    """Forward rule of ``scipy.ndimage.gaussian_filter``: the input, ``sigma`` and ``cval``.

    Examples
    --------
    >>> from chainrules import NoTangent
    >>> frule((NoTangent(), np.ones((2, 2)), 0.0), ndi.gaussian_filter, np.zeros((2, 2)), 1.0)[1]
    array([[1., 1.],
           [1., 1.]])
    """
    call = _gaussian_call(input, sigma, order, output, mode, cval, truncate, radius, axes)
    dx, dc = tangent_array(tangents[1], input), tangent_value(tangents[6])
    return call.y, call.tangent(dx, _parameter_tangent(tangents[2], sigma), dc)


# ---- uniform_filter1d and uniform_filter ------------------------------------------------------------
def _uniform1d_call(input: Any, size: Any, axis: Any, output: Any, mode: Any, cval: Any, origin: Any) -> Any:
    check_output(ndi.uniform_filter1d, output)
    y = ndi.uniform_filter1d(input, size, axis, output, mode, cval, origin)
    x = np.asarray(input)
    chain = Separable([Uniform.of(int(size), normalize_axis_index(int(axis), x.ndim), mode, int(origin))])
    return SeparableCall(ndi.uniform_filter1d, y, x, cval, chain)


@rrule.register(ndi.uniform_filter1d)
def uniform_filter1d_rrule(input: Any, size: Any, axis: Any = -1, output: Any = None, mode: Any = "reflect",
                           cval: Any = 0.0, origin: Any = 0) -> Any:
    """Reverse rule of ``scipy.ndimage.uniform_filter1d``: the input and ``cval``.

    Examples
    --------
    >>> from chainrules import unthunk
    >>> y, pullback = rrule(ndi.uniform_filter1d, np.arange(4.0), 2, -1, None, "constant", 1.0)
    >>> y, unthunk(pullback(np.ones(4))[6])       # y[0] averages the padding and x[0]
    (array([0.5, 0.5, 1.5, 2.5]), 0.5)
    """
    call = _uniform1d_call(input, size, axis, output, mode, cval, origin)
    values = (input, size, axis, output, mode, cval, origin)
    return call.y, call.pullback(values, {"input": 0, "cval": 5})


@frule.register(ndi.uniform_filter1d)
def uniform_filter1d_frule(tangents: Any, input: Any, size: Any, axis: Any = -1, output: Any = None,
                           mode: Any = "reflect", cval: Any = 0.0, origin: Any = 0) -> Any:
    """Forward rule of ``scipy.ndimage.uniform_filter1d``: ``uniform_filter1d(dx, cval=dcval)``.

    Examples
    --------
    >>> from chainrules import NoTangent
    >>> frule((NoTangent(), np.array([0.0, 3.0, 0.0]), NoTangent()), ndi.uniform_filter1d, np.zeros(3), 3)[1]
    array([1., 1., 1.])
    """
    call = _uniform1d_call(input, size, axis, output, mode, cval, origin)
    return call.y, call.tangent(tangent_array(tangents[1], input), None, tangent_value(tangents[6]))


def _uniform_call(input: Any, size: Any, output: Any, mode: Any, cval: Any, origin: Any, axes: Any) -> Any:
    check_output(ndi.uniform_filter, output)
    y = ndi.uniform_filter(input, size, output, mode, cval, origin, axes=axes)
    x = np.asarray(input)
    return SeparableCall(ndi.uniform_filter, y, x, cval, uniform_separable(x.ndim, size, mode, origin, axes))


@rrule.register(ndi.uniform_filter)
def uniform_filter_rrule(input: Any, size: Any = 3, output: Any = None, mode: Any = "reflect", cval: Any = 0.0,
                         origin: Any = 0, *, axes: Any = None) -> Any:
    """Reverse rule of ``scipy.ndimage.uniform_filter``: the input and ``cval``.

    Examples
    --------
    >>> from chainrules import unthunk
    >>> y, pullback = rrule(ndi.uniform_filter, np.ones((2, 2)), 2, None, "wrap")
    >>> unthunk(pullback(np.ones((2, 2)))[1])
    array([[1., 1.],
           [1., 1.]])
    """
    call = _uniform_call(input, size, output, mode, cval, origin, axes)
    values = (input, size, output, mode, cval, origin)
    return call.y, call.pullback(values, {"input": 0, "cval": 4})


@frule.register(ndi.uniform_filter)
def uniform_filter_frule(tangents: Any, input: Any, size: Any = 3, output: Any = None, mode: Any = "reflect",
                         cval: Any = 0.0, origin: Any = 0, *, axes: Any = None) -> Any:
    """Forward rule of ``scipy.ndimage.uniform_filter``: ``uniform_filter(dx, cval=dcval)``.

    Examples
    --------
    >>> from chainrules import NoTangent
    >>> frule((NoTangent(), np.eye(2), NoTangent()), ndi.uniform_filter, np.zeros((2, 2)), 2)[1]
    array([[1. , 0.5],
           [0.5, 0.5]])
    """
    call = _uniform_call(input, size, output, mode, cval, origin, axes)
    return call.y, call.tangent(tangent_array(tangents[1], input), None, tangent_value(tangents[5]))


# ---- sample inputs ----------------------------------------------------------------------------------
@sample_inputs(ndi.gaussian_filter1d)
def _gaussian_filter1d_samples(rng: np.random.Generator) -> list[Sample]:
    x = image(rng, (3, 4))
    out = modes_samples(x, 0.8, -1, 0, None, cval=0.4)
    out += [Sample(x, 0.8, label="defaults"),
            Sample(x, 1.3, 0, 1, label="order 1 along axis 0"), Sample(x, 0.6, 1, 2, None, "wrap", label="order 2"),
            Sample(x, 0.8, 1, 3, None, "constant", 0.5, 4.0, label="order 3, truncate by position"),
            Sample(x, 0.9, fkwargs={"axis": 0, "order": 1, "mode": "mirror", "truncate": 3.0},
                   label="options by keyword"),
            Sample(x, 0.7, -1, 0, None, "nearest", fkwargs={"radius": 5}, label="radius=5 (truncate ignored)"),
            Sample(x.astype(np.float32), np.float32(0.8), 1, 1, None, "constant", np.float32(0.3), label="float32"),
            Sample(x + 1j * image(rng, (3, 4)), 0.8, 1, 0, None, "constant", 0.5 - 1j, label="complex input"),
            Sample(x, 2, label="an integer sigma (not differentiated)")]
    return out


@sample_inputs(ndi.gaussian_filter)
def _gaussian_filter_samples(rng: np.random.Generator) -> list[Sample]:
    x = image(rng, (3, 4))
    out = modes_samples(x, 0.8, 0, None, cval=-0.3)
    out += [Sample(x, 0.8, label="defaults"), Sample(x, [0.7, 1.3], label="one sigma per axis (a list)"),
            Sample(x, np.array([0.9, 0.6]), (1, 0), None, ("wrap", "constant"), 0.2, 3.5,
                   label="per-axis sigma (an array), orders and modes"),
            Sample(x, (0.8, 0.0), label="sigma 0 skips an axis"),
            Sample(x, 0.8, fkwargs={"order": 2, "mode": "mirror", "truncate": 3.0}, label="options by keyword"),
            Sample(x, [0.9], fkwargs={"axes": (1,), "radius": 2}, label="axes=(1,), radius=2"),
            Sample(x.astype(np.float32), np.float32(0.8), 1, None, "constant", np.float32(0.3), label="float32"),
            Sample(x + 1j * image(rng, (3, 4)), 0.8, 0, None, "constant", 0.5 + 0.5j, label="complex input"),
            Sample(image(rng, (2, 2, 3)), 0.7, (0, 1, 1), None, "reflect", label="three axes")]
    return out


@sample_inputs(ndi.uniform_filter1d)
def _uniform_filter1d_samples(rng: np.random.Generator) -> list[Sample]:
    x = image(rng, (3, 4))
    out = modes_samples(x, 3, -1, None, cval=0.4)
    out += [Sample(x, 2, label="even size"), Sample(x, 4, 0, None, "mirror", 0.0, -2, label="origin -2"),
            Sample(x, 3, fkwargs={"axis": 0, "mode": "constant", "cval": 1.5, "origin": 1},
                   label="options by keyword"),
            Sample(x, 9, 1, None, "reflect", label="size larger than the axis"),
            Sample(x.astype(np.float32), 3, 1, None, "constant", np.float32(0.3), label="float32"),
            Sample(x + 1j * image(rng, (3, 4)), 3, 1, None, "constant", 0.5 + 0.25j, label="complex input")]
    return out


@sample_inputs(ndi.uniform_filter)
def _uniform_filter_samples(rng: np.random.Generator) -> list[Sample]:
    x = image(rng, (3, 4))
    out = modes_samples(x, 3, None, cval=0.4)
    out += [Sample(x, label="defaults"), Sample(x, (2, 3), None, ("nearest", "wrap"), 0.0, (0, 1),
                                                  label="per-axis sizes, modes, origins"),
            Sample(x, (1, 4), label="size 1 skips an axis"),
            Sample(x, 2, fkwargs={"mode": "constant", "cval": 2.0, "axes": (0,)}, label="options by keyword"),
            Sample(x.astype(np.float32), 3, None, "constant", np.float32(0.3), label="float32"),
            Sample(x + 1j * image(rng, (3, 4)), 3, None, "constant", 0.5 + 0.25j, label="complex input")]
    return out
