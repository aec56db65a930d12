"""Derivative filters of ``scipy.ndimage``: ``sobel``, ``prewitt``, ``laplace``, ``gaussian_laplace``,
``gaussian_gradient_magnitude``, and the higher-order ``generic_laplace`` and
``generic_gradient_magnitude``: with respect to the input, ``sigma`` and ``cval``.

The maths
---------
* ``sobel``/``prewitt`` along ``axis``: the chain ``[-1, 0, 1]`` along ``axis``, then the
  smoothing ``[1, 2, 1]`` (``[1, 1, 1]``) along every other axis, each with that axis's mode.
* ``laplace``: the sum over the axes of ``[1, -2, 1]`` along each.
* ``gaussian_laplace``: the sum over the axes ``a`` of ``gaussian_filter`` with order 2 along
  ``a`` (0 along the others), with ``a``'s mode on every axis (as SciPy calls it).
* ``gaussian_gradient_magnitude``: ``y = sqrt(sum_a g_a^2)`` with ``g_a`` the Gaussian
  filter of order 1 along ``a``. The pullback sends ``dy g_a / y`` to each ``g_a``; where
  ``y = 0`` (every ``g_a`` zero: a flat neighbourhood) the magnitude has no derivative (a
  cone) and the rules use the zero subgradient there.

Each term is a separable chain (:class:`._correlation.Separable`): linear in ``(x, cval)``,
with the Gaussian kernels' exact ``sigma`` derivatives (:mod:`._gaussian`). ``truncate`` and
``radius`` (keywords of the Gaussian ones) set the radius: piecewise constant, no derivative.

``generic_laplace(input, derivative2, ...)`` and ``generic_gradient_magnitude(input,
derivative, ...)`` call the user's filter once per axis as ``filter(input, axis, dtype, mode,
cval, *extra_arguments, **extra_keywords)`` and use what it returns. SciPy passes its output
array to the first call and reads that array back; the rules pass its dtype instead (no array
is written in place), so a filter that honours ``output`` and returns its result, as every
``scipy.ndimage`` filter does, gives SciPy's output. Their rules differentiate
the filter through the calling AD (``rrule_via_ad``/``frule_via_ad`` of a config with the
trait), or, without a config, through chainrules' own rules for it (``ndi.sobel``,
``ndi.prewitt``, any function with rules); a filter with no rule gives no rule (``None``).
Besides the input and ``cval``, the filter's own tangent and those of ``extra_arguments``
come from its per-axis pullbacks.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import scipy.ndimage as ndi
from numpy.lib.array_utils import normalize_axis_index

from chainrules.rulesets.arrays.higher_order import _Sum
from chainrules.rulesets.ndimage._boundary import check_output
from chainrules.rulesets.ndimage._correlation import Correlation, Separable
from chainrules.rulesets.ndimage._rules import (
    make_pullback,
    output_tangent,
    tangent_array,
    tangent_value,
    transposed_cotangents,
)
from chainrules.rulesets.ndimage._samples import image, modes_samples
from chainrules.rulesets.ndimage.correlation import normalize_axes
from chainrules.rulesets.ndimage.smoothing import gaussian_separable, per_axis
from chainrules.rulesets.reductions._registration import name_pullback
from chainrules_core import (
    HasForwardsMode,
    HasReverseMode,
    NoTangent,
    NotImplementedTangent,
    RulesOnlyConfig,
    Sample,
    Tangent,
    ZeroTangent,
    backing,
    cotangent_projector,
    frule,
    frule_via_ad,
    passes_through,
    read_cotangent,
    rrule,
    rrule_via_ad,
    sample_inputs,
)

__all__: list[str] = []


class Terms:
    """A filter that is a sum of separable chains, whose kernels may depend on parameters.

    ``slots`` maps each chain's parameter slots to the slots of the user's parameter (a
    scalar ``sigma`` has one slot, a sequence one per entry).
    """

    def __init__(self, chains: list[Separable], n_parameters: int = 1) -> None:
        self.chains = chains
        self.n_parameters = n_parameters

    def transpose(self, z: np.ndarray | list[np.ndarray]) -> tuple[np.ndarray, Any, list[list[np.ndarray]]]:
        """The cotangents of the input and ``cval`` for the output cotangent ``z`` (or one per
        chain), and each chain's step cotangents (for :meth:`parameter_cotangent`)."""
        parts = z if isinstance(z, list) else [z] * len(self.chains)
        xbar: Any = None
        cbar: Any = None
        outputs = []
        for chain, zc in zip(self.chains, parts):
            xc, cc, steps = chain.transpose(zc)
            outputs.append(steps)
            xbar = xc if xbar is None else xbar + xc
            if cc is not None:
                cbar = cc if cbar is None else cbar + cc
        if xbar is None:  # no chain at all: the identity
            xbar = np.array(z, copy=True) if not isinstance(z, list) else np.zeros(0)
        return xbar, cbar, outputs

    def parameter_cotangent(self, x: np.ndarray, cval: Any, outputs: list[list[np.ndarray]], dtype: Any) -> Any:
        out = np.zeros(self.n_parameters)
        for chain, steps in zip(self.chains, outputs):
            out += chain.parameter_cotangent(x, cval, steps, self.n_parameters, dtype)
        return out

    def pushforwards(self, x: np.ndarray, cval: Any, dx: Any, dcval: Any, dparams: Any, dtype: Any) -> list[Any]:
        return [chain.pushforward(x, cval, dx, dcval, dparams, dtype) for chain in self.chains]


def _dtype(y: np.ndarray) -> Any:
    return y.dtype if y.dtype.kind in "fc" else None


def _linear_rules(f: Any, y: np.ndarray, x: np.ndarray, cval: Any, terms: Terms, values: tuple[Any, ...],
                  positions: dict[str, int], parameter: Any = None) -> Any:
    """The pullback of a filter that is the sum of ``terms`` (input, ``cval``, and ``sigma`` if given)."""
    sequence = parameter is not None and not isinstance(parameter, str) and np.iterable(parameter)

    adjoint, input_cotangent, cval_cotangent = transposed_cotangents(terms.transpose)

    def parameter_cotangent(dy: np.ndarray, memo: dict[str, Any]) -> Any:
        values_ = terms.parameter_cotangent(x, cval, adjoint(dy, memo)[2], _dtype(y))
        return values_ if sequence else values_[0]

    computes = {"input": input_cotangent, "cval": cval_cotangent, "parameter": parameter_cotangent}
    return make_pullback(f, f.__name__, y, values, {p: computes[name] for name, p in positions.items()})


def _linear_tangent(y: np.ndarray, x: np.ndarray, cval: Any, terms: Terms, dx: Any, dcval: Any,
                    dparams: Any = None) -> Any:
    for t in (dx, dcval, dparams):
        if isinstance(t, NotImplementedTangent):
            return t
    parts = [p for p in terms.pushforwards(x, cval, dx, dcval, dparams, _dtype(y)) if p is not None]
    if not parts:
        value = None if terms.chains or dx is None else dx
    else:
        value = parts[0]
        for p in parts[1:]:
            value = value + p
    return output_tangent(value, y)


def _parameter_tangent(tangent: Any, parameter: Any) -> Any:
    if not isinstance(parameter, str) and np.iterable(parameter):
        return tangent_array(tangent, parameter)
    return tangent_value(tangent)


# ---- sobel and prewitt ------------------------------------------------------------------------------
def _edge_terms(x: np.ndarray, axis: Any, mode: Any, smoothing: list[float]) -> Terms:
    axis = normalize_axis_index(int(axis), x.ndim)
    modes = per_axis(mode, x.ndim)
    steps = [Correlation(np.array([-1.0, 0.0, 1.0]), (axis,), modes[axis], (0,))]
    steps += [Correlation(np.array(smoothing), (ii,), modes[ii], (0,)) for ii in range(x.ndim) if ii != axis]
    return Terms([Separable(steps)])


def _edge_rrule(f: Any, smoothing: list[float], input: Any, axis: Any, output: Any, mode: Any, cval: Any) -> Any:
    check_output(f, output)
    y = f(input, axis, output, mode, cval)
    x = np.asarray(input)
    terms = _edge_terms(x, axis, mode, smoothing)
    return y, _linear_rules(f, y, x, cval, terms, (input, axis, output, mode, cval), {"input": 0, "cval": 4})


def _edge_frule(f: Any, smoothing: list[float], tangents: Any, input: Any, axis: Any, output: Any, mode: Any,
                cval: Any) -> Any:
    check_output(f, output)
    y = f(input, axis, output, mode, cval)
    x = np.asarray(input)
    terms = _edge_terms(x, axis, mode, smoothing)
    return y, _linear_tangent(y, x, cval, terms, tangent_array(tangents[1], input), tangent_value(tangents[5]))


@rrule.register(ndi.sobel)
def sobel_rrule(input: Any, axis: Any = -1, output: Any = None, mode: Any = "reflect", cval: Any = 0.0) -> Any:
    """Reverse rule of ``scipy.ndimage.sobel``: the input and ``cval``.

    Examples
    --------
    >>> from chainrules import unthunk
    >>> y, pullback = rrule(ndi.sobel, np.eye(3), 0, None, "constant", 1.0)
    >>> unthunk(pullback(np.ones((3, 3)))[5])     # each row's smoothing reads the padding twice
    6.0
    """
    return _edge_rrule(ndi.sobel, [1.0, 2.0, 1.0], input, axis, output, mode, cval)


@frule.register(ndi.sobel)
def sobel_frule(tangents: Any, input: Any, axis: Any = -1, output: Any = None, mode: Any = "reflect",
                cval: Any = 0.0) -> Any:
    """Forward rule of ``scipy.ndimage.sobel``: ``sobel(dx, cval=dcval)``.

    Examples
    --------
    >>> from chainrules import NoTangent
    >>> frule((NoTangent(), np.array([0.0, 1.0, 2.0])), ndi.sobel, np.zeros(3))[1]
    array([1., 2., 1.])
    """
    return _edge_frule(ndi.sobel, [1.0, 2.0, 1.0], tangents, input, axis, output, mode, cval)


@rrule.register(ndi.prewitt)
def prewitt_rrule(input: Any, axis: Any = -1, output: Any = None, mode: Any = "reflect", cval: Any = 0.0) -> Any:
    """Reverse rule of ``scipy.ndimage.prewitt``: the input and ``cval``.

    Examples
    --------
    >>> from chainrules import unthunk
    >>> y, pullback = rrule(ndi.prewitt, np.zeros(3), 0, None, "wrap")
    >>> unthunk(pullback(np.array([1.0, 0.0, 0.0]))[1])
    array([ 0.,  1., -1.])
    """
    return _edge_rrule(ndi.prewitt, [1.0, 1.0, 1.0], input, axis, output, mode, cval)


@frule.register(ndi.prewitt)
def prewitt_frule(tangents: Any, input: Any, axis: Any = -1, output: Any = None, mode: Any = "reflect",
                  cval: Any = 0.0) -> Any:
    """Forward rule of ``scipy.ndimage.prewitt``: ``prewitt(dx, cval=dcval)``.

    Examples
    --------
    >>> from chainrules import NoTangent
    >>> frule((NoTangent(), np.array([0.0, 1.0, 2.0])), ndi.prewitt, np.zeros(3))[1]
    array([1., 2., 1.])
    """
    return _edge_frule(ndi.prewitt, [1.0, 1.0, 1.0], tangents, input, axis, output, mode, cval)


# ---- laplace and gaussian_laplace -------------------------------------------------------------------
def _laplace_terms(x: np.ndarray, mode: Any, axes: Any) -> Terms:
    chosen = normalize_axes(axes, x.ndim)
    modes = per_axis(mode, len(chosen))
    second = np.array([1.0, -2.0, 1.0])
    return Terms([Separable([Correlation(second, (a,), modes[i], (0,))]) for i, a in enumerate(chosen)])


@rrule.register(ndi.laplace)
def laplace_rrule(input: Any, output: Any = None, mode: Any = "reflect", cval: Any = 0.0, *, axes: Any = None) -> Any:
    """Reverse rule of ``scipy.ndimage.laplace``: the input and ``cval``.

    Examples
    --------
    >>> from chainrules import unthunk
    >>> y, pullback = rrule(ndi.laplace, np.zeros(3), None, "wrap")
    >>> unthunk(pullback(np.array([1.0, 0.0, 0.0]))[1])
    array([-2.,  1.,  1.])
    """
    check_output(ndi.laplace, output)
    y = ndi.laplace(input, output, mode, cval, axes=axes)
    x = np.asarray(input)
    terms = _laplace_terms(x, mode, axes)
    return y, _linear_rules(ndi.laplace, y, x, cval, terms, (input, output, mode, cval), {"input": 0, "cval": 3})


@frule.register(ndi.laplace)
def laplace_frule(tangents: Any, input: Any, output: Any = None, mode: Any = "reflect", cval: Any = 0.0, *,
                  axes: Any = None) -> Any:
    """Forward rule of ``scipy.ndimage.laplace``: ``laplace(dx, cval=dcval)``.

    Examples
    --------
    >>> from chainrules import NoTangent
    >>> frule((NoTangent(), np.array([0.0, 1.0, 4.0])), ndi.laplace, np.zeros(3))[1]
    array([ 1.,  2., -3.])
    """
    check_output(ndi.laplace, output)
    y = ndi.laplace(input, output, mode, cval, axes=axes)
    x = np.asarray(input)
    terms = _laplace_terms(x, mode, axes)
    return y, _linear_tangent(y, x, cval, terms, tangent_array(tangents[1], input), tangent_value(tangents[4]))


def _gaussian_terms(x: np.ndarray, sigma: Any, mode: Any, axes: Any, order: int, kwargs: dict[str, Any],
                    full_sigma: bool) -> Terms:
    """One ``gaussian_filter`` per filtered axis ``a`` (order ``order`` along ``a``), with ``a``'s mode.

    ``full_sigma``: ``sigma`` is first spread over every axis with 0 on the unfiltered ones (as
    ``gaussian_laplace`` does); otherwise ``gaussian_filter`` reads it as given (as
    ``gaussian_gradient_magnitude`` does). The chains' parameter slots are mapped to the
    entries of the user's ``sigma``.
    """
    chosen = normalize_axes(axes, x.ndim)
    modes = per_axis(mode, len(chosen))
    sequence = not isinstance(sigma, str) and np.iterable(sigma)
    truncate, radius = kwargs.get("truncate", 4.0), kwargs.get("radius")
    if full_sigma:
        given = per_axis(sigma, len(chosen))
        spread: Any = given if len(chosen) == x.ndim else [0.0] * x.ndim
        if len(chosen) < x.ndim:
            for s, a in zip(given, chosen):
                spread[a] = s
        slot_of_axis = {a: (chosen.index(a) if sequence else 0) for a in chosen}
    else:
        spread = sigma
        slot_of_axis = {a: (a if sequence else 0) for a in range(x.ndim)}
    chains = []
    for i, a in enumerate(chosen):
        orders = [0] * x.ndim
        orders[a] = order
        chain = gaussian_separable(x.ndim, spread, orders, modes[i], truncate, radius)
        chain.slots = [slot_of_axis.get(step.axes[0], 0) for step in chain.steps]
        chains.append(chain)
    n = len(per_axis(sigma, len(chosen) if full_sigma else x.ndim)) if sequence else 1
    return Terms(chains, n)


@rrule.register(ndi.gaussian_laplace)
def gaussian_laplace_rrule(input: Any, sigma: Any, output: Any = None, mode: Any = "reflect", cval: Any = 0.0, *,
                           axes: Any = None, **kwargs: Any) -> Any:
    """Reverse rule of ``scipy.ndimage.gaussian_laplace``: the input, ``sigma`` and ``cval``.

    Examples
    --------
    >>> from chainrules import unthunk
    >>> y, pullback = rrule(ndi.gaussian_laplace, np.zeros((3, 3)), 1.0, None, "wrap")
    >>> float(np.round(unthunk(pullback(np.ones((3, 3)))[1]).sum(), 12))     # a periodic Laplacian sums to 0
    0.0
    """
    check_output(ndi.gaussian_laplace, output)
    y = ndi.gaussian_laplace(input, sigma, output, mode, cval, axes=axes, **kwargs)
    x = np.asarray(input)
    terms = _gaussian_terms(x, sigma, mode, axes, 2, kwargs, full_sigma=True)
    values = (input, sigma, output, mode, cval)
    return y, _linear_rules(ndi.gaussian_laplace, y, x, cval, terms, values,
                            {"input": 0, "parameter": 1, "cval": 4}, sigma)


@frule.register(ndi.gaussian_laplace)
def gaussian_laplace_frule(tangents: Any, input: Any, sigma: Any, output: Any = None, mode: Any = "reflect",
                           cval: Any = 0.0, *, axes: Any = None, **kwargs: Any) -> Any:
    """Forward rule of ``scipy.ndimage.gaussian_laplace``: the input, ``sigma`` and ``cval``.

    Examples
    --------
    >>> from chainrules import NoTangent
    >>> dx = np.array([0.0, 1.0, 4.0, 9.0])
    >>> bool(np.allclose(frule((NoTangent(), dx, 0.0), ndi.gaussian_laplace, np.zeros(4), 1.0)[1],
    ...                  ndi.gaussian_laplace(dx, 1.0)))                     # linear in the input
    True
    """
    check_output(ndi.gaussian_laplace, output)
    y = ndi.gaussian_laplace(input, sigma, output, mode, cval, axes=axes, **kwargs)
    x = np.asarray(input)
    terms = _gaussian_terms(x, sigma, mode, axes, 2, kwargs, full_sigma=True)
    return y, _linear_tangent(y, x, cval, terms, tangent_array(tangents[1], input), tangent_value(tangents[5]),
                              _parameter_tangent(tangents[2], sigma))


# ---- gradient magnitudes ---------------------------------------------------------------------------
def _magnitude_weights(parts: list[np.ndarray], y: np.ndarray) -> list[np.ndarray]:
    """``g_a / y`` (zero where ``y`` is zero: the subgradient 0 of the cone ``sqrt(sum g^2)``)."""
    safe = np.where(y == 0, 1, y)
    return [np.where(y == 0, 0, g / safe) for g in parts]


@rrule.register(ndi.gaussian_gradient_magnitude)
def gaussian_gradient_magnitude_rrule(input: Any, sigma: Any, output: Any = None, mode: Any = "reflect",
                                      cval: Any = 0.0, *, axes: Any = None, **kwargs: Any) -> Any:
    """Reverse rule of ``scipy.ndimage.gaussian_gradient_magnitude``: the input, ``sigma`` and ``cval``.

    Examples
    --------
    >>> from chainrules import unthunk
    >>> x = np.arange(5.0)
    >>> y, pullback = rrule(ndi.gaussian_gradient_magnitude, x, 1.0, None, "nearest")
    >>> bool(np.allclose(unthunk(pullback(np.ones(5))[1]).sum(), 0))       # adding a constant changes nothing
    True
    """
    check_output(ndi.gaussian_gradient_magnitude, output)
    y = ndi.gaussian_gradient_magnitude(input, sigma, output, mode, cval, axes=axes, **kwargs)
    x = np.asarray(input)
    terms = _gaussian_terms(x, sigma, mode, axes, 1, kwargs, full_sigma=False)
    dtype = _dtype(y)
    parts = [chain.apply(x, cval, dtype) for chain in terms.chains]
    weights = _magnitude_weights(parts, y)
    sequence = not isinstance(sigma, str) and np.iterable(sigma)

    def split(dy: np.ndarray) -> list[np.ndarray]:
        return [dy * w for w in weights]

    adjoint, input_cotangent, cval_cotangent = transposed_cotangents(lambda dy: terms.transpose(split(dy)))

    def sigma_cotangent(dy: np.ndarray, memo: dict[str, Any]) -> Any:
        values = terms.parameter_cotangent(x, cval, adjoint(dy, memo)[2], dtype)
        return values if sequence else values[0]

    values = (input, sigma, output, mode, cval)
    cotangents = {0: input_cotangent, 1: sigma_cotangent, 4: cval_cotangent}
    return y, make_pullback(ndi.gaussian_gradient_magnitude, "gaussian_gradient_magnitude", y, values, cotangents)


@frule.register(ndi.gaussian_gradient_magnitude)
def gaussian_gradient_magnitude_frule(tangents: Any, input: Any, sigma: Any, output: Any = None,
                                      mode: Any = "reflect", cval: Any = 0.0, *, axes: Any = None,
                                      **kwargs: Any) -> Any:
    """Forward rule of ``scipy.ndimage.gaussian_gradient_magnitude``: ``sum_a g_a dg_a / y``.

    Examples
    --------
    >>> from chainrules import NoTangent
    >>> x = np.arange(5.0)
    >>> t = (NoTangent(), np.ones(5), 0.0, NoTangent(), NoTangent())
    >>> frule(t, ndi.gaussian_gradient_magnitude, x, 1.0, None, "nearest")[1]     # a constant added: no change
    array([0., 0., 0., 0., 0.])
    """
    check_output(ndi.gaussian_gradient_magnitude, output)
    y = ndi.gaussian_gradient_magnitude(input, sigma, output, mode, cval, axes=axes, **kwargs)
    x = np.asarray(input)
    terms = _gaussian_terms(x, sigma, mode, axes, 1, kwargs, full_sigma=False)
    dx, dc, ds = tangent_array(tangents[1], input), tangent_value(tangents[5]), _parameter_tangent(tangents[2], sigma)
    for t in (dx, dc, ds):
        if isinstance(t, NotImplementedTangent):
            return y, t
    dtype = _dtype(y)
    parts = [chain.apply(x, cval, dtype) for chain in terms.chains]
    weights = _magnitude_weights(parts, y)
    value: Any = None
    for w, dg in zip(weights, terms.pushforwards(x, cval, dx, dc, ds, dtype)):
        if dg is not None:
            value = w * dg if value is None else value + w * dg
    return y, output_tangent(value, y)


# ---- generic_laplace and generic_gradient_magnitude: the user's filter, per axis ----------------------
def _filter_calls(input: Any, output: Any, mode: Any, axes: Any) -> tuple[np.ndarray, list[tuple[int, Any]], Any]:
    x = np.asarray(input)
    chosen = normalize_axes(axes, x.ndim)
    modes = per_axis(mode, len(chosen))
    dtype = output if output is not None else x.dtype
    return x, list(zip(chosen, modes)), np.dtype(dtype)


def _generic_rrule(rule: Callable[..., Any], f: Any, magnitude: bool, input: Any, derivative: Any, output: Any,
                   mode: Any, cval: Any, extra_arguments: Any, extra_keywords: Any, axes: Any) -> Any:
    check_output(f, output)
    extra_keywords = {} if extra_keywords is None else extra_keywords
    x, calls, dtype = _filter_calls(input, output, mode, axes)
    results = []
    for axis, axis_mode in calls:
        result = rule(derivative, x, axis, dtype, axis_mode, cval, *extra_arguments, **extra_keywords)
        if result is None:
            return None
        results.append(result)
    parts = [np.asarray(g) for g, _ in results]
    if not parts:
        return None  # no axis: the output is a copy of the input, SciPy never calls the filter
    if magnitude:
        total = parts[0] * parts[0]
        for g in parts[1:]:
            total = total + g * g
        y = np.sqrt(total).astype(dtype, copy=False)
        weights = _magnitude_weights(parts, y)
    else:
        y = parts[0]
        for g in parts[1:]:
            y = y + g
        y = np.asarray(y).astype(dtype, copy=False)
        weights = None
    project_input, project_cval = cotangent_projector(input), cotangent_projector(cval)

    def pullback(dy: Any) -> tuple[Any, ...]:
        dy = read_cotangent(dy, y, f)
        if passes_through(dy):
            zero = dy if isinstance(dy, NotImplementedTangent) else ZeroTangent()
            extra = cotangent_projector(tuple(extra_arguments))(zero) if len(extra_arguments) else NoTangent()
            return (NoTangent(), project_input(zero), NoTangent(), NoTangent(), NoTangent(), project_cval(zero),
                    extra, NoTangent())
        dy = np.asarray(dy)
        sums = [_Sum() for _ in range(3 + len(extra_arguments))]  # derivative, input, cval, extras
        for k, (_, back) in enumerate(results):
            dg = dy if weights is None else dy * weights[k]
            cotangents = back(dg)
            sums[0].add(cotangents[0])
            sums[1].add(cotangents[1])
            sums[2].add(cotangents[5])
            for j in range(len(extra_arguments)):
                sums[3 + j].add(cotangents[6 + j])
        extra = (Tangent(tuple, *(s.result(a) for s, a in zip(sums[3:], extra_arguments)))
                 if len(extra_arguments) else NoTangent())
        df = sums[0].total if sums[0].total is not None else NoTangent()
        return (NoTangent(), sums[1].result(input), df, NoTangent(), NoTangent(), sums[2].result(cval), extra,
                NoTangent())

    return y, name_pullback(pullback, f.__name__)


def _generic_frule(rule: Callable[..., Any], f: Any, magnitude: bool, tangents: Any, input: Any, derivative: Any,
                   output: Any, mode: Any, cval: Any, extra_arguments: Any, extra_keywords: Any, axes: Any) -> Any:
    check_output(f, output)
    extra_keywords = {} if extra_keywords is None else extra_keywords
    x, calls, dtype = _filter_calls(input, output, mode, axes)
    dextra = tangents[6]
    if isinstance(dextra, Tangent):
        dextra_parts = list(backing(dextra))
    elif isinstance(dextra, (tuple, list)):
        dextra_parts = list(dextra)
    else:
        dextra_parts = [dextra] * len(extra_arguments)
    head = (tangents[2], tangents[1], NoTangent(), NoTangent(), NoTangent(), tangents[5])
    pairs = []
    for axis, axis_mode in calls:
        result = rule((*head, *dextra_parts), derivative, x, axis, dtype, axis_mode, cval, *extra_arguments,
                      **extra_keywords)
        if result is None:
            return None
        pairs.append(result)
    if not pairs:
        return None
    parts = [np.asarray(g) for g, _ in pairs]
    dparts = [tangent_value(dg) for _, dg in pairs]
    for dg in dparts:
        if isinstance(dg, NotImplementedTangent):
            return None
    if magnitude:
        total = parts[0] * parts[0]
        for g in parts[1:]:
            total = total + g * g
        y = np.sqrt(total).astype(dtype, copy=False)
        weights = _magnitude_weights(parts, y)
        terms = [w * dg for w, dg in zip(weights, dparts) if dg is not None]
    else:
        y = parts[0]
        for g in parts[1:]:
            y = y + g
        y = np.asarray(y).astype(dtype, copy=False)
        terms = [dg for dg in dparts if dg is not None]
    value: Any = None
    for t in terms:
        value = t if value is None else value + t
    return y, output_tangent(value, y)


def _reverse_via(config: Any) -> Callable[..., Any]:
    def reverse_via_ad(g: Any, *args: Any, **kwargs: Any) -> Any:
        return rrule_via_ad(config, g, *args, **kwargs)

    return reverse_via_ad


def _forward_via(config: Any) -> Callable[..., Any]:
    def forward_via_ad(tangents: Any, g: Any, *args: Any, **kwargs: Any) -> Any:
        return frule_via_ad(config, tangents, g, *args, **kwargs)

    return forward_via_ad


@rrule.register(ndi.generic_gradient_magnitude, config=HasReverseMode)
def generic_gradient_magnitude_rrule_via_ad(config: Any, input: Any, derivative: Any, output: Any = None,
                                            mode: Any = "reflect", cval: Any = 0.0, extra_arguments: Any = (),
                                            extra_keywords: Any = None, *, axes: Any = None) -> Any:
    """Reverse rule of ``scipy.ndimage.generic_gradient_magnitude``, the filter differentiated by the AD.

    Examples
    --------
    >>> from chainrules import RulesOnlyConfig, unthunk
    >>> y, pullback = rrule(RulesOnlyConfig(), ndi.generic_gradient_magnitude, np.arange(4.0), ndi.sobel)
    >>> y, unthunk(pullback(np.ones(4))[1])
    (array([1., 2., 2., 1.]), array([-2.,  0.,  0.,  2.]))
    """
    return _generic_rrule(_reverse_via(config), ndi.generic_gradient_magnitude, True, input, derivative, output,
                          mode, cval, extra_arguments, extra_keywords, axes)


@rrule.register(ndi.generic_gradient_magnitude)
def generic_gradient_magnitude_rrule(input: Any, derivative: Any, output: Any = None, mode: Any = "reflect",
                                     cval: Any = 0.0, extra_arguments: Any = (), extra_keywords: Any = None, *,
                                     axes: Any = None) -> Any:
    """Reverse rule of ``scipy.ndimage.generic_gradient_magnitude`` through chainrules' rule for the filter.

    Examples
    --------
    >>> from chainrules import unthunk
    >>> y, pullback = rrule(ndi.generic_gradient_magnitude, np.arange(4.0), ndi.sobel)
    >>> unthunk(pullback(np.array([1.0, 0.0, 0.0, 0.0]))[1])        # y[0] = x[1] - x[0] (reflect)
    array([-1.,  1.,  0.,  0.])
    >>> rrule(ndi.generic_gradient_magnitude, np.arange(4.0), lambda *a: ndi.sobel(*a)) is None   # no rule
    True
    """
    return _generic_rrule(rrule, ndi.generic_gradient_magnitude, True, input, derivative, output, mode, cval,
                          extra_arguments, extra_keywords, axes)


@frule.register(ndi.generic_gradient_magnitude, config=HasForwardsMode)
def generic_gradient_magnitude_frule_via_ad(config: Any, tangents: Any, input: Any, derivative: Any,
                                            output: Any = None, mode: Any = "reflect", cval: Any = 0.0,
                                            extra_arguments: Any = (), extra_keywords: Any = None, *,
                                            axes: Any = None) -> Any:
    """Forward rule of ``scipy.ndimage.generic_gradient_magnitude``, the filter pushed forward by the AD.

    Examples
    --------
    >>> from chainrules import NoTangent, RulesOnlyConfig
    >>> t = (NoTangent(), np.ones(3), NoTangent())
    >>> frule(RulesOnlyConfig(), t, ndi.generic_gradient_magnitude, np.arange(3.0), ndi.sobel)[1]
    array([0., 0., 0.])
    """
    return _generic_frule(_forward_via(config), ndi.generic_gradient_magnitude, True, tangents, input, derivative,
                          output, mode, cval, extra_arguments, extra_keywords, axes)


@frule.register(ndi.generic_gradient_magnitude)
def generic_gradient_magnitude_frule(tangents: Any, input: Any, derivative: Any, output: Any = None,
                                     mode: Any = "reflect", cval: Any = 0.0, extra_arguments: Any = (),
                                     extra_keywords: Any = None, *, axes: Any = None) -> Any:
    """Forward rule of ``scipy.ndimage.generic_gradient_magnitude`` through chainrules' rule for the filter.

    Examples
    --------
    >>> from chainrules import NoTangent
    >>> frule((NoTangent(), np.ones(3), NoTangent()), ndi.generic_gradient_magnitude, np.arange(3.0), ndi.sobel)[1]
    array([0., 0., 0.])
    """
    return _generic_frule(frule, ndi.generic_gradient_magnitude, True, tangents, input, derivative, output, mode,
                          cval, extra_arguments, extra_keywords, axes)


@rrule.register(ndi.generic_laplace, config=HasReverseMode)
def generic_laplace_rrule_via_ad(config: Any, input: Any, derivative2: Any, output: Any = None,
                                 mode: Any = "reflect", cval: Any = 0.0, extra_arguments: Any = (),
                                 extra_keywords: Any = None, *, axes: Any = None) -> Any:
    """Reverse rule of ``scipy.ndimage.generic_laplace``, the filter differentiated by the AD.

    Examples
    --------
    >>> from chainrules import RulesOnlyConfig, unthunk
    >>> y, pullback = rrule(RulesOnlyConfig(), ndi.generic_laplace, np.zeros(3), ndi.prewitt, None, "wrap")
    >>> unthunk(pullback(np.array([1.0, 0.0, 0.0]))[1])
    array([ 0.,  1., -1.])
    """
    return _generic_rrule(_reverse_via(config), ndi.generic_laplace, False, input, derivative2, output, mode, cval,
                          extra_arguments, extra_keywords, axes)


@rrule.register(ndi.generic_laplace)
def generic_laplace_rrule(input: Any, derivative2: Any, output: Any = None, mode: Any = "reflect", cval: Any = 0.0,
                          extra_arguments: Any = (), extra_keywords: Any = None, *, axes: Any = None) -> Any:
    """Reverse rule of ``scipy.ndimage.generic_laplace`` through chainrules' rule for the filter.

    Examples
    --------
    >>> from chainrules import unthunk
    >>> y, pullback = rrule(ndi.generic_laplace, np.zeros(3), ndi.prewitt, None, "wrap")
    >>> unthunk(pullback(np.array([1.0, 0.0, 0.0]))[1])
    array([ 0.,  1., -1.])
    """
    return _generic_rrule(rrule, ndi.generic_laplace, False, input, derivative2, output, mode, cval,
                          extra_arguments, extra_keywords, axes)


@frule.register(ndi.generic_laplace, config=HasForwardsMode)
def generic_laplace_frule_via_ad(config: Any, tangents: Any, input: Any, derivative2: Any, output: Any = None,
                                 mode: Any = "reflect", cval: Any = 0.0, extra_arguments: Any = (),
                                 extra_keywords: Any = None, *, axes: Any = None) -> Any:
    """Forward rule of ``scipy.ndimage.generic_laplace``, the filter pushed forward by the AD.

    Examples
    --------
    >>> from chainrules import NoTangent, RulesOnlyConfig
    >>> t = (NoTangent(), np.array([0.0, 1.0, 2.0]), NoTangent())
    >>> frule(RulesOnlyConfig(), t, ndi.generic_laplace, np.zeros(3), ndi.prewitt)[1]
    array([1., 2., 1.])
    """
    return _generic_frule(_forward_via(config), ndi.generic_laplace, False, tangents, input, derivative2, output,
                          mode, cval, extra_arguments, extra_keywords, axes)


@frule.register(ndi.generic_laplace)
def generic_laplace_frule(tangents: Any, input: Any, derivative2: Any, output: Any = None, mode: Any = "reflect",
                          cval: Any = 0.0, extra_arguments: Any = (), extra_keywords: Any = None, *,
                          axes: Any = None) -> Any:
    """Forward rule of ``scipy.ndimage.generic_laplace`` through chainrules' rule for the filter.

    Examples
    --------
    >>> from chainrules import NoTangent
    >>> frule((NoTangent(), np.array([0.0, 1.0, 2.0]), NoTangent()), ndi.generic_laplace, np.zeros(3), ndi.prewitt)[1]
    array([1., 2., 1.])
    """
    return _generic_frule(frule, ndi.generic_laplace, False, tangents, input, derivative2, output, mode, cval,
                          extra_arguments, extra_keywords, axes)


# ---- sample inputs ----------------------------------------------------------------------------------
def _edge_samples(rng: np.random.Generator) -> list[Sample]:
    x = image(rng, (3, 4))
    out = modes_samples(x, 0, None, cval=0.6)
    out += [Sample(x, label="defaults"), Sample(x, 1, None, ("constant", "wrap"), 0.2, label="a mode per axis"),
            Sample(x, fkwargs={"axis": 0, "mode": "constant", "cval": -1.0}, label="options by keyword"),
            Sample(image(rng, (2, 3, 2)), 1, None, "mirror", label="three axes"),
            Sample(x.astype(np.float32), 1, None, "constant", np.float32(0.5), label="float32"),
            Sample(x + 1j * image(rng, (3, 4)), 0, None, "constant", 0.5 + 0.5j, label="complex input")]
    return out


@sample_inputs(ndi.sobel)
def _sobel_samples(rng: np.random.Generator) -> list[Sample]:
    return _edge_samples(rng)


@sample_inputs(ndi.prewitt)
def _prewitt_samples(rng: np.random.Generator) -> list[Sample]:
    return _edge_samples(rng)


@sample_inputs(ndi.laplace)
def _laplace_samples(rng: np.random.Generator) -> list[Sample]:
    x = image(rng, (3, 4))
    out = modes_samples(x, None, cval=0.6)
    out += [Sample(x, label="defaults"), Sample(x, None, ("nearest", "constant"), 1.5, label="a mode per axis"),
            Sample(x, fkwargs={"mode": "constant", "cval": 0.5, "axes": (1,)}, label="options by keyword, one axis"),
            Sample(x.astype(np.float32), None, "constant", np.float32(0.5), label="float32"),
            Sample(x + 1j * image(rng, (3, 4)), None, "constant", 0.5 + 0.5j, label="complex input")]
    return out


def _gaussian_derivative_samples(rng: np.random.Generator) -> list[Sample]:
    x = image(rng, (3, 4))
    out = modes_samples(x, 0.8, None, cval=0.6)
    out += [Sample(x, 0.8, label="defaults"), Sample(x, [0.7, 1.3], label="one sigma per axis"),
            Sample(x, 0.9, None, ("nearest", "constant"), 1.5, label="a mode per axis"),
            Sample(x, 0.8, fkwargs={"mode": "mirror", "truncate": 3.0}, label="options by keyword (truncate)"),
            Sample(x, 0.9, fkwargs={"radius": 2}, label="radius=2"),
            Sample(x.astype(np.float32), np.float32(0.8), None, "constant", np.float32(0.5), label="float32")]
    return out


@sample_inputs(ndi.gaussian_laplace)
def _gaussian_laplace_samples(rng: np.random.Generator) -> list[Sample]:
    x = image(rng, (3, 4))
    return [*_gaussian_derivative_samples(rng),
            Sample(x, [0.9], fkwargs={"axes": (1,)}, label="one axis, one sigma"),
            Sample(x + 1j * image(rng, (3, 4)), 0.8, None, "constant", 0.5 + 0.5j, label="complex input")]


@sample_inputs(ndi.gaussian_gradient_magnitude)
def _gaussian_gradient_magnitude_samples(rng: np.random.Generator) -> list[Sample]:
    x = image(rng, (3, 4))
    return [*_gaussian_derivative_samples(rng),
            Sample(x, 0.9, fkwargs={"axes": (0,)}, label="one axis")]


def _generic_samples(rng: np.random.Generator) -> list[Sample]:
    x = image(rng, (3, 4))
    return [Sample(x, ndi.sobel, label="sobel, no config"), Sample(x, ndi.prewitt, None, "constant", 0.7,
                                                                   label="prewitt, constant mode"),
            Sample(x, ndi.sobel, None, ("wrap", "nearest"), label="a mode per axis"),
            Sample(x, ndi.sobel, fkwargs={"mode": "mirror", "axes": (1,)}, label="options by keyword"),
            Sample(x, ndi.sobel, None, "constant", 0.4, config=RulesOnlyConfig(), label="through a config"),
            Sample(x.astype(np.float32), ndi.prewitt, None, "constant", np.float32(0.5), label="float32")]


@sample_inputs(ndi.generic_gradient_magnitude)
def _generic_gradient_magnitude_samples(rng: np.random.Generator) -> list[Sample]:
    return _generic_samples(rng)


@sample_inputs(ndi.generic_laplace)
def _generic_laplace_samples(rng: np.random.Generator) -> list[Sample]:
    x = image(rng, (3, 4))
    return [*_generic_samples(rng),
            Sample(x + 1j * image(rng, (3, 4)), ndi.sobel, None, "constant", 0.5 + 0.5j, label="complex input")]
