"""``scipy.ndimage.correlate1d``, ``convolve1d``, ``correlate`` and ``convolve``: with respect to the
input, the weights and ``cval``, in every boundary mode, real and complex.

The maths
---------
Each function is a correlation ``y[i] = sum_k v[k] x_ext[i + k - c]`` of the input extended
by its mode (:mod:`._boundary`) with a kernel ``v`` made of the weights:

* ``correlate1d``/``correlate``: ``v = w``, conjugated when complex (SciPy conjugates complex
  weights, as ``np.correlate`` does), ``c = L // 2 + origin`` per axis;
* ``convolve1d``/``convolve``: ``v = w`` reversed (along every axis), origin ``-origin``,
  one less along an axis of even length (how SciPy turns a convolution into a correlation).

``y`` is linear in ``(x, cval)`` for fixed weights and linear in the weights for fixed
``(x, cval)``, so the forward rule is two calls of the function itself,
``f(dx, w, cval=dcval) + f(x, dw, cval=cval)``, and the pullback is (see
:mod:`._correlation`):

* for ``x`` and ``cval``: the zero-padded cotangent correlated with ``conj(v)`` reversed,
  folded back by the mode's adjoint (the padding of the ``constant`` mode adds up to the
  cotangent of ``cval``; with another mode ``cval`` is unused and its cotangent is zero);
* for the weights: ``vbar[k] = sum_i conj(x_ext[i + k - c]) dy[i]``, the ``valid``
  correlation of the extended input with the cotangent, mapped back through ``v(w)``
  (reversed for a convolution, conjugated for complex weights of a correlation, whose
  output is antilinear in them).

``axis``, ``output`` (``None`` or a dtype; an array, written in place, is refused),
``mode``, ``origin`` and ``axes`` are not differentiated. Integer inputs and weights are not
differentiated either (the library's convention), and an integer output (SciPy keeps the
input's dtype) has no derivative.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.ndimage as ndi
from numpy.lib.array_utils import normalize_axis_index

from chainrules.rulesets.ndimage._boundary import check_output, filter_mode
from chainrules.rulesets.ndimage._correlation import Correlation, kernel_cotangent
from chainrules.rulesets.ndimage._rules import make_pullback, memoized, output_tangent, tangent_array, tangent_value
from chainrules.rulesets.ndimage._samples import image, linear_fdm, modes_samples
from chainrules_core import NotImplementedTangent, Sample, ZeroTangent, frule, rrule, sample_inputs

__all__ = ["normalize_axes"]


def normalize_axes(axes: Any, ndim: int) -> tuple[int, ...]:
    """The axes a filter runs along, as non-negative integers (``None``: every axis).

    Examples
    --------
    >>> normalize_axes(None, 3), normalize_axes(-1, 3), normalize_axes((2, 0), 3)
    ((0, 1, 2), (2,), (2, 0))
    """
    if axes is None:
        return tuple(range(ndim))
    if isinstance(axes, (int, np.integer)):
        return (normalize_axis_index(int(axes), ndim),)
    return tuple(normalize_axis_index(int(a), ndim) for a in axes)


def _sequence(value: Any, n: int) -> list[Any]:
    """A per-axis parameter as a list of ``n`` (SciPy's ``_normalize_sequence``)."""
    if not isinstance(value, str) and np.iterable(value):
        return list(value)
    return [value] * n


def _to_weights(vbar: np.ndarray, w: np.ndarray, convolution: bool) -> np.ndarray:
    """The cotangent of the weights from that of the kernel ``v(w)``."""
    if convolution:
        return vbar[(slice(None, None, -1),) * vbar.ndim]
    return np.conj(vbar) if np.iscomplexobj(w) else vbar


def _step_1d(x: np.ndarray, w: np.ndarray, axis: Any, mode: str, origin: Any, convolution: bool) -> Correlation:
    if convolution:
        kernel, o = w[::-1], -int(origin) - (0 if len(w) % 2 else 1)
    else:
        kernel, o = (np.conj(w) if np.iscomplexobj(w) else w), int(origin)
    return Correlation(kernel, (normalize_axis_index(int(axis), x.ndim),), mode, (o,))


def _step_nd(x: np.ndarray, w: np.ndarray, mode: str, origin: Any, axes: Any, convolution: bool) -> Correlation:
    chosen = normalize_axes(axes, x.ndim)
    by_axis = dict(zip(chosen, _sequence(origin, len(chosen))))
    ordered = sorted(chosen)  # SciPy puts the weights' axes on the filtered axes in increasing order
    if convolution:
        kernel = w[(slice(None, None, -1),) * w.ndim]
        origins = [-int(by_axis[a]) - (0 if n % 2 else 1) for a, n in zip(ordered, kernel.shape)]
    else:
        kernel = np.conj(w) if np.iscomplexobj(w) else w
        origins = [int(by_axis[a]) for a in ordered]
    return Correlation(kernel, ordered, mode, origins)


def _cotangents(step: Correlation, x: np.ndarray, w: np.ndarray, cval: Any, convolution: bool,
                positions: tuple[int, int, int]) -> dict[int, Any]:
    """The cotangents of the input, the weights and ``cval`` (at these parameter positions)."""

    def adjoint(dy: np.ndarray, memo: dict[str, Any]) -> Any:
        return memoized(memo, "adjoint", lambda: step.transpose(dy))

    def input_cotangent(dy: np.ndarray, memo: dict[str, Any]) -> Any:
        return adjoint(dy, memo)[0]

    def weights_cotangent(dy: np.ndarray, memo: dict[str, Any]) -> Any:
        return _to_weights(kernel_cotangent(step, x, cval, dy), w, convolution)

    def cval_cotangent(dy: np.ndarray, memo: dict[str, Any]) -> Any:
        if filter_mode(step.mode) != "constant":
            return ZeroTangent()  # cval is read only by the constant mode
        return adjoint(dy, memo)[1]

    i, j, k = positions
    return {i: input_cotangent, j: weights_cotangent, k: cval_cotangent}


def _tangent_output(y: np.ndarray) -> Any:
    """The ``output`` dtype of the calls that compute a tangent: the primal output's (an integer
    input with ``output=np.float64`` would otherwise give a rounded tangent)."""
    return y.dtype if y.dtype.kind in "fc" else None


def _pushforward(f: Any, y: np.ndarray, dx: Any, dw: Any, dcval: Any, input: Any, weights: Any, cval: Any,
                 call: Any) -> Any:
    """``f(dx, w, cval=dcval) + f(x, dw, cval=cval)``; ``call(x, w, cval)`` runs ``f`` with the other arguments."""
    for t in (dx, dw, dcval):
        if isinstance(t, NotImplementedTangent):
            return t
    terms = []
    if dx is not None or dcval is not None:
        x = np.asarray(input)
        if dx is None:
            kind = x.dtype if x.dtype.kind in "fc" else np.dtype(np.float64)
            dx = np.zeros(x.shape, np.result_type(kind, dcval))
        terms.append(call(dx, weights, 0.0 if dcval is None else dcval))
    if dw is not None:
        terms.append(call(input, dw, cval))
    value = None if not terms else terms[0] if len(terms) == 1 else terms[0] + terms[1]
    return output_tangent(value, y)


# ---- correlate1d and convolve1d -----------------------------------------------------------------------
def _rrule_1d(f: Any, convolution: bool, input: Any, weights: Any, axis: Any, output: Any, mode: Any, cval: Any,
              origin: Any) -> Any:
    check_output(f, output)
    y = f(input, weights, axis, output, mode, cval, origin)
    x, w = np.asarray(input), np.asarray(weights)
    step = _step_1d(x, w, axis, mode, origin, convolution)
    values = (input, weights, axis, output, mode, cval, origin)
    return y, make_pullback(f, f.__name__, y, values, _cotangents(step, x, w, cval, convolution, (0, 1, 5)))


def _frule_1d(f: Any, tangents: Any, input: Any, weights: Any, axis: Any, output: Any, mode: Any, cval: Any,
              origin: Any) -> Any:
    check_output(f, output)
    y = f(input, weights, axis, output, mode, cval, origin)
    dx, dw = tangent_array(tangents[1], input), tangent_array(tangents[2], weights)

    def call(a: Any, b: Any, c: Any) -> Any:
        return f(a, b, axis, _tangent_output(y), mode, c, origin)

    return y, _pushforward(f, y, dx, dw, tangent_value(tangents[6]), input, weights, cval, call)


@rrule.register(ndi.correlate1d)
def correlate1d_rrule(input: Any, weights: Any, axis: Any = -1, output: Any = None, mode: Any = "reflect",
                      cval: Any = 0.0, origin: Any = 0) -> Any:
    """Reverse rule of ``scipy.ndimage.correlate1d``: the input, the weights and ``cval``.

    Examples
    --------
    >>> from chainrules import unthunk
    >>> y, pullback = rrule(ndi.correlate1d, np.array([1.0, 2.0, 3.0]), np.array([1.0, 0.0, 0.0]), 0, None, "wrap")
    >>> y, unthunk(pullback(np.array([1.0, 0.0, 0.0]))[1])
    (array([3., 1., 2.]), array([0., 0., 1.]))
    """
    return _rrule_1d(ndi.correlate1d, False, input, weights, axis, output, mode, cval, origin)


@frule.register(ndi.correlate1d)
def correlate1d_frule(tangents: Any, input: Any, weights: Any, axis: Any = -1, output: Any = None,
                      mode: Any = "reflect", cval: Any = 0.0, origin: Any = 0) -> Any:
    """Forward rule of ``scipy.ndimage.correlate1d``: ``f(dx, w, cval=dcval) + f(x, dw, cval=cval)``.

    Examples
    --------
    >>> from chainrules import NoTangent
    >>> frule((NoTangent(), np.ones(3), np.zeros(2)), ndi.correlate1d, np.ones(3), np.ones(2))[1]
    array([2., 2., 2.])
    """
    return _frule_1d(ndi.correlate1d, tangents, input, weights, axis, output, mode, cval, origin)


@rrule.register(ndi.convolve1d)
def convolve1d_rrule(input: Any, weights: Any, axis: Any = -1, output: Any = None, mode: Any = "reflect",
                     cval: Any = 0.0, origin: Any = 0) -> Any:
    """Reverse rule of ``scipy.ndimage.convolve1d``: the input, the weights and ``cval``.

    Examples
    --------
    >>> from chainrules import unthunk
    >>> y, pullback = rrule(ndi.convolve1d, np.array([1.0, 2.0, 3.0]), np.array([1.0, 2.0]), -1, None, "constant")
    >>> y, unthunk(pullback(np.array([0.0, 1.0, 0.0]))[2])      # y[i] = 2 x[i] + x[i + 1]
    (array([4., 7., 6.]), array([3., 2.]))
    """
    return _rrule_1d(ndi.convolve1d, True, input, weights, axis, output, mode, cval, origin)


@frule.register(ndi.convolve1d)
def convolve1d_frule(tangents: Any, input: Any, weights: Any, axis: Any = -1, output: Any = None,
                     mode: Any = "reflect", cval: Any = 0.0, origin: Any = 0) -> Any:
    """Forward rule of ``scipy.ndimage.convolve1d``: ``f(dx, w, cval=dcval) + f(x, dw, cval=cval)``.

    Examples
    --------
    >>> from chainrules import NoTangent
    >>> frule((NoTangent(), np.zeros(3), np.array([1.0, 0.0])), ndi.convolve1d, np.arange(3.0), np.ones(2))[1]
    array([0., 1., 2.])
    """
    return _frule_1d(ndi.convolve1d, tangents, input, weights, axis, output, mode, cval, origin)


# ---- correlate and convolve -----------------------------------------------------------------------------
def _rrule_nd(f: Any, convolution: bool, input: Any, weights: Any, output: Any, mode: Any, cval: Any, origin: Any,
              axes: Any) -> Any:
    check_output(f, output)
    y = f(input, weights, output, mode, cval, origin, axes=axes)
    x, w = np.asarray(input), np.asarray(weights)
    step = _step_nd(x, w, mode, origin, axes, convolution)
    values = (input, weights, output, mode, cval, origin)
    return y, make_pullback(f, f.__name__, y, values, _cotangents(step, x, w, cval, convolution, (0, 1, 4)))


def _frule_nd(f: Any, tangents: Any, input: Any, weights: Any, output: Any, mode: Any, cval: Any, origin: Any,
              axes: Any) -> Any:
    check_output(f, output)
    y = f(input, weights, output, mode, cval, origin, axes=axes)
    dx, dw = tangent_array(tangents[1], input), tangent_array(tangents[2], weights)

    def call(a: Any, b: Any, c: Any) -> Any:
        return f(a, b, _tangent_output(y), mode, c, origin, axes=axes)

    return y, _pushforward(f, y, dx, dw, tangent_value(tangents[5]), input, weights, cval, call)


@rrule.register(ndi.correlate)
def correlate_rrule(input: Any, weights: Any, output: Any = None, mode: Any = "reflect", cval: Any = 0.0,
                    origin: Any = 0, *, axes: Any = None) -> Any:
    """Reverse rule of ``scipy.ndimage.correlate``: the input, the weights and ``cval``.

    Examples
    --------
    >>> from chainrules import unthunk
    >>> y, pullback = rrule(ndi.correlate, np.ones((2, 2)), np.ones((2, 2)), None, "constant", 0.0)
    >>> unthunk(pullback(np.array([[1.0, 0.0], [0.0, 0.0]]))[5])   # cval: y[0, 0] reads three padded positions
    3.0
    """
    return _rrule_nd(ndi.correlate, False, input, weights, output, mode, cval, origin, axes)


@frule.register(ndi.correlate)
def correlate_frule(tangents: Any, input: Any, weights: Any, output: Any = None, mode: Any = "reflect",
                    cval: Any = 0.0, origin: Any = 0, *, axes: Any = None) -> Any:
    """Forward rule of ``scipy.ndimage.correlate``: ``f(dx, w, cval=dcval) + f(x, dw, cval=cval)``.

    Examples
    --------
    >>> from chainrules import NoTangent
    >>> frule((NoTangent(), np.ones((2, 2)), np.zeros((1, 1))), ndi.correlate, np.ones((2, 2)), np.ones((1, 1)))[1]
    array([[1., 1.],
           [1., 1.]])
    """
    return _frule_nd(ndi.correlate, tangents, input, weights, output, mode, cval, origin, axes)


@rrule.register(ndi.convolve)
def convolve_rrule(input: Any, weights: Any, output: Any = None, mode: Any = "reflect", cval: Any = 0.0,
                   origin: Any = 0, *, axes: Any = None) -> Any:
    """Reverse rule of ``scipy.ndimage.convolve``: the input, the weights and ``cval``.

    Examples
    --------
    >>> from chainrules import unthunk
    >>> y, pullback = rrule(ndi.convolve, np.arange(4.0).reshape(2, 2), np.array([[0.0, 1.0]]), None, "nearest")
    >>> unthunk(pullback(np.ones((2, 2)))[2])
    array([[8., 6.]])
    """
    return _rrule_nd(ndi.convolve, True, input, weights, output, mode, cval, origin, axes)


@frule.register(ndi.convolve)
def convolve_frule(tangents: Any, input: Any, weights: Any, output: Any = None, mode: Any = "reflect",
                   cval: Any = 0.0, origin: Any = 0, *, axes: Any = None) -> Any:
    """Forward rule of ``scipy.ndimage.convolve``: ``f(dx, w, cval=dcval) + f(x, dw, cval=cval)``.

    Examples
    --------
    >>> from chainrules import NoTangent
    >>> frule((NoTangent(), np.zeros(2), np.ones(1)), ndi.convolve, np.array([1.0, 2.0]), np.ones(1))[1]
    array([1., 2.])
    """
    return _frule_nd(ndi.convolve, tangents, input, weights, output, mode, cval, origin, axes)


# ---- sample inputs ----------------------------------------------------------------------------------------
@sample_inputs(ndi.correlate1d, ndi.convolve1d)
def _samples_1d(rng: np.random.Generator) -> list[Sample]:
    x, w, even = image(rng, (4, 5)), rng.standard_normal(3), rng.standard_normal(4)
    out = modes_samples(x, w, -1, None, cval=0.7)
    out += [Sample(x, w, label="defaults"), Sample(x, even, 0, None, "mirror", 0.0, 1, label="even weights, origin 1"),
            Sample(x, w, fkwargs={"axis": 0, "mode": "constant", "cval": 0.5, "origin": -1},
                   label="options by keyword"),
            Sample(x.astype(np.float32), w.astype(np.float32), 1, None, "constant", np.float32(0.3),
                   label="float32"),
            Sample(x + 1j * image(rng, (4, 5)), w, 1, None, "constant", 0.5 - 0.25j, label="complex input"),
            Sample(x, w + 1j * rng.standard_normal(3), 1, None, "reflect", label="complex weights"),
            Sample(image(rng, (3,)), rng.standard_normal(9), 0, None, "reflect", label="weights longer than the line"),
            Sample(np.arange(5.0)[None], np.array([1, 2, 1]), label="integer weights (not differentiated)"),
            Sample(x, w, 1, np.float32, "wrap", fdm=linear_fdm(), label="output dtype float32")]
    return out


@sample_inputs(ndi.correlate, ndi.convolve)
def _samples_nd(rng: np.random.Generator) -> list[Sample]:
    x, w = image(rng, (4, 5)), rng.standard_normal((2, 3))
    out = modes_samples(x, w, None, cval=-0.4)
    out += [Sample(x, w, label="defaults"), Sample(x, w, None, "reflect", 0.0, (-1, 1), label="origins (-1, 1)"),
            Sample(x, w, fkwargs={"mode": "constant", "cval": 0.3, "origin": 0}, label="options by keyword"),
            Sample(x, rng.standard_normal(3), fkwargs={"axes": (1,)}, label="one axis (axes=(1,))"),
            Sample(x, rng.standard_normal(2), None, "wrap", 0.0, 0, fkwargs={"axes": 0}, label="axes=0"),
            Sample(x.astype(np.float32), w.astype(np.float32), None, "constant", np.float32(0.3), label="float32"),
            Sample(x + 1j * image(rng, (4, 5)), w, None, "constant", 0.5 + 0.5j, label="complex input"),
            Sample(x, w + 1j * rng.standard_normal((2, 3)), None, "mirror", label="complex weights"),
            Sample(image(rng, (2, 3)), rng.standard_normal((3, 5)), None, "reflect",
                   label="weights larger than the image")]
    return out
