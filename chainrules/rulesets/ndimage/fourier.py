"""``scipy.ndimage.fourier_gaussian``, ``fourier_uniform``, ``fourier_ellipsoid`` and ``fourier_shift``:
with respect to the input (a Fourier transform) and the filter's parameters.

The maths
---------
Each function multiplies the input, entry by entry, by a factor ``H(k)`` of the integer
frequencies ``k_d`` of each axis (``0, 1, ..., -2, -1`` as ``np.fft.fftfreq(N) * N``; along
``axis`` with ``n >= 0``, the real transform's ``0 .. dim - 1`` with ``N = n``), as
``NI_FourierFilter``/``NI_FourierShift`` (``scipy/ndimage/src/ni_fourier.c``) compute it:

* ``fourier_gaussian``: ``H = prod_d exp(a_d k_d^2)``, ``a_d = -2 (pi sigma_d / N_d)^2``, a
  factor set to 0 where ``|a_d k_d^2| > 50``; ``dH/dsigma_d = H k_d^2 (-4 pi^2 sigma_d / N_d^2)``;
* ``fourier_uniform``: ``H = prod_d sinc(u_d)``, ``u_d = pi size_d k_d / N_d`` (``sin(u) / u``,
  1 at ``k = 0``, 0 for ``size <= 0``); ``d sinc(u)/du = -j_1(u)`` (spherical Bessel);
* ``fourier_ellipsoid`` (1 to 3 axes): with ``r = sqrt(sum_d u_d^2)``, ``H = sin(u)/u`` in 1-d,
  ``2 J_1(r) / r`` in 2-d, ``3 j_1(r) / r`` in 3-d; ``dH/dr = -j_1(r)``, ``-2 J_2(r) / r``,
  ``-3 j_2(r) / r`` (DLMF 10.6.6 and 10.51.2: ``(z^-n f_n)' = -z^-n f_{n+1}``), and
  ``dr/dsize_d = u_d^2 / (r size_d)``;
* ``fourier_shift``: ``H = exp(i theta)``, ``theta = -2 pi sum_d shift_d k_d / N_d``;
  ``dH/dshift_d = -2 pi i k_d / N_d H``.

``y = x H`` is linear in ``x``: the cotangent of the input is ``conj(H) dy`` (its real part
for a real input), and that of a parameter ``p_d`` is ``Re sum conj(x dH/dp_d) dy`` (summed
over the axes for a scalar parameter). ``H`` is real except for ``fourier_shift``, whose
output is complex even for a real input. ``n``, ``axis`` and ``output`` (``None`` or a
dtype) are not differentiated.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.ndimage as ndi
from numpy.lib.array_utils import normalize_axis_index

from chainrules.rulesets.ndimage._boundary import check_output
from chainrules.rulesets.ndimage._rules import make_pullback, memoized, output_tangent, tangent_array, tangent_value
from chainrules.rulesets.ndimage._samples import image
from chainrules.rulesets.ndimage.smoothing import per_axis
from chainrules_core import NotImplementedTangent, Sample, frule, rrule, sample_inputs

__all__ = ["fourier_factor"]


def _frequencies(shape: tuple[int, ...], n: int, axis: int) -> list[tuple[np.ndarray, float]]:
    """The integer frequencies of each axis (shaped to broadcast) and the length they are divided by."""
    out = []
    ndim = len(shape)
    for d, dim in enumerate(shape):
        if d == axis and n >= 0:
            k, length = np.arange(dim, dtype=np.float64), float(n)
        else:
            k, length = np.round(np.fft.fftfreq(dim) * dim), float(dim)
        view = [1] * ndim
        view[d] = dim
        out.append((k.reshape(view), length))
    return out


def _sinc(u: np.ndarray) -> np.ndarray:
    safe = np.where(u == 0, 1.0, u)
    return np.where(u == 0, 1.0, np.sin(safe) / safe)


def fourier_factor(kind: str, shape: tuple[int, ...], parameters: list[float], n: int,
                   axis: int) -> tuple[np.ndarray, list[Any]]:
    """The factor ``H`` of a Fourier filter and its derivative in each axis's parameter (``None`` for none).

    Examples
    --------
    >>> H, dH = fourier_factor("shift", (4,), [1.0], -1, 0)
    >>> np.round(H, 12)                                   # exp(-2 pi i k / 4), k = 0, 1, -2, -1
    array([ 1.+0.j, -0.-1.j, -1.+0.j,  0.+1.j])
    """
    from scipy.special import jv, spherical_jn

    freqs = _frequencies(shape, n, axis)
    ndim = len(shape)
    if kind == "shift":
        theta = sum((-2.0 * np.pi * p / length * k for (k, length), p in zip(freqs, parameters)), start=np.zeros(()))
        H = np.exp(1j * theta)
        return H, [H * (-2j * np.pi * k / length) for k, length in freqs]
    if kind == "gaussian":
        factors: list[np.ndarray] = []
        derivatives: list[Any] = []
        for (k, length), sigma, dim in zip(freqs, parameters, shape):
            if dim <= 1:  # SciPy keeps no table for an axis of length one: a factor 1
                factors.append(np.ones(k.shape))
                derivatives.append(None)
                continue
            a = -2.0 * (sigma * np.pi / length) ** 2
            t = a * k * k
            f = np.where(np.abs(t) > 50.0, 0.0, np.exp(np.maximum(t, -50.0)))  # SciPy's cut-off (a <= 0)
            factors.append(f)
            derivatives.append(f * k * k * (-4.0 * np.pi ** 2 * sigma / length ** 2))
        return _product(factors, derivatives)
    if kind == "uniform":
        factors, derivatives = [], []
        for (k, length), size, dim in zip(freqs, parameters, shape):
            if dim <= 1:
                factors.append(np.ones(k.shape))
                derivatives.append(None)
                continue
            t = np.pi * size / length
            u = t * k
            if t > 0:
                factors.append(_sinc(u))
                derivatives.append(-spherical_jn(1, u) * np.pi * k / length)
            else:
                factors.append(np.where(k == 0, 1.0, 0.0))
                derivatives.append(np.zeros(k.shape))
        return _product(factors, derivatives)
    # ellipsoid
    us = [np.pi * size / length * k for (k, length), size in zip(freqs, parameters)]
    if ndim == 1:
        u = us[0]
        return _sinc(u), [-spherical_jn(1, u) * np.pi * freqs[0][0] / freqs[0][1]]
    r2 = sum((u * u for u in us), start=np.zeros(()))
    r = np.sqrt(r2)
    safe = np.where(r > 0, r, 1.0)
    if ndim == 2:
        H = np.where(r > 0, 2.0 * jv(1, safe) / safe, 1.0)
        dH_dr = np.where(r > 0, -2.0 * jv(2, safe) / safe, 0.0)
    else:
        H = np.where(r > 0, 3.0 * spherical_jn(1, safe) / safe, 1.0)
        dH_dr = np.where(r > 0, -3.0 * spherical_jn(2, safe) / safe, 0.0)
    # dr/dsize_d = u_d du_d/dsize_d / r, du_d/dsize_d = pi k_d / N_d
    return H, [dH_dr * np.where(r > 0, u * (np.pi * k / length) / safe, 0.0)
               for u, (k, length) in zip(us, freqs)]


def _product(factors: list[np.ndarray], derivatives: list[Any]) -> tuple[np.ndarray, list[Any]]:
    """``prod_d f_d`` and its derivative in each axis's parameter (the other factors times ``f_d'``)."""
    H = factors[0]
    for f in factors[1:]:
        H = H * f
    out: list[Any] = []
    for d, df in enumerate(derivatives):
        if df is None:
            out.append(None)
            continue
        term = df
        for e, f in enumerate(factors):
            if e != d:
                term = term * f
        out.append(term)
    return H, out


_KINDS = {ndi.fourier_gaussian: "gaussian", ndi.fourier_uniform: "uniform", ndi.fourier_ellipsoid: "ellipsoid",
          ndi.fourier_shift: "shift"}


class _FourierCall:
    """One call of a Fourier filter: its output, factor and the factor's derivatives."""

    def __init__(self, f: Any, input: Any, parameter: Any, n: Any, axis: Any, output: Any) -> None:
        check_output(f, output)
        self.f = f
        self.y = f(input, parameter, n, axis, output)
        self.x = np.asarray(input)
        self.parameter = parameter
        self.sequence = not isinstance(parameter, str) and np.iterable(parameter)
        ndim = self.x.ndim
        values = [float(p) for p in per_axis(parameter, ndim)]
        self.H, self.dH = fourier_factor(_KINDS[f], self.x.shape, values, int(n),
                                         normalize_axis_index(int(axis), ndim) if ndim else 0)

    def input_cotangent(self, dy: np.ndarray) -> np.ndarray:
        return np.conj(self.H) * dy if np.iscomplexobj(self.H) else self.H * dy

    def parameter_cotangent(self, dy: np.ndarray) -> Any:
        values = np.array([0.0 if d is None else float(np.real(np.vdot(self.x * d, dy))) for d in self.dH])
        return values if self.sequence else values.sum()

    def tangent(self, dx: Any, dparameter: Any) -> Any:
        for t in (dx, dparameter):
            if isinstance(t, NotImplementedTangent):
                return t
        value: Any = None if dx is None else dx * self.H
        if dparameter is not None:
            dps = per_axis(dparameter if self.sequence else float(np.real(dparameter)), self.x.ndim)
            for d, dp in zip(self.dH, dps):
                if d is not None:
                    term = self.x * d * float(np.real(dp))
                    value = term if value is None else value + term
        return output_tangent(value, self.y)


def _rrule(f: Any, input: Any, parameter: Any, n: Any, axis: Any, output: Any) -> Any:
    call = _FourierCall(f, input, parameter, n, axis, output)

    def input_cotangent(dy: np.ndarray, memo: dict[str, Any]) -> Any:
        return call.input_cotangent(dy)

    def parameter_cotangent(dy: np.ndarray, memo: dict[str, Any]) -> Any:
        return memoized(memo, "parameter", lambda: call.parameter_cotangent(dy))

    values = (input, parameter, n, axis, output)
    return call.y, make_pullback(f, f.__name__, call.y, values, {0: input_cotangent, 1: parameter_cotangent})


def _frule(f: Any, tangents: Any, input: Any, parameter: Any, n: Any, axis: Any, output: Any) -> Any:
    call = _FourierCall(f, input, parameter, n, axis, output)
    dparameter = tangent_array(tangents[2], parameter) if call.sequence else tangent_value(tangents[2])
    return call.y, call.tangent(tangent_array(tangents[1], input), dparameter)


@rrule.register(ndi.fourier_gaussian)
def fourier_gaussian_rrule(input: Any, sigma: Any, n: Any = -1, axis: Any = -1, output: Any = None) -> Any:
    """Reverse rule of ``scipy.ndimage.fourier_gaussian``: the input and ``sigma``.

    Examples
    --------
    >>> from chainrules import unthunk
    >>> y, pullback = rrule(ndi.fourier_gaussian, np.ones(4), 1.0)
    >>> float(unthunk(pullback(np.array([1.0, 0.0, 0.0, 0.0]))[2]))    # the zero frequency does not move
    0.0
    """
    return _rrule(ndi.fourier_gaussian, input, sigma, n, axis, output)


@frule.register(ndi.fourier_gaussian)
def fourier_gaussian_frule(tangents: Any, input: Any, sigma: Any, n: Any = -1, axis: Any = -1,
                           output: Any = None) -> Any:
    """Forward rule of ``scipy.ndimage.fourier_gaussian``: ``dx H + x dH/dsigma dsigma``.

    Examples
    --------
    >>> from chainrules import NoTangent
    >>> frule((NoTangent(), np.ones(2), 0.0), ndi.fourier_gaussian, np.zeros(2), 1.0)[1][0]
    np.float64(1.0)
    """
    return _frule(ndi.fourier_gaussian, tangents, input, sigma, n, axis, output)


@rrule.register(ndi.fourier_uniform)
def fourier_uniform_rrule(input: Any, size: Any, n: Any = -1, axis: Any = -1, output: Any = None) -> Any:
    """Reverse rule of ``scipy.ndimage.fourier_uniform``: the input and ``size``.

    Examples
    --------
    >>> from chainrules import unthunk
    >>> y, pullback = rrule(ndi.fourier_uniform, np.ones(4), 2.0)
    >>> np.round(unthunk(pullback(np.ones(4))[1]), 5)                    # sinc(pi k / 2): 1, 2/pi, 0, 2/pi
    array([1.     , 0.63662, 0.     , 0.63662])
    """
    return _rrule(ndi.fourier_uniform, input, size, n, axis, output)


@frule.register(ndi.fourier_uniform)
def fourier_uniform_frule(tangents: Any, input: Any, size: Any, n: Any = -1, axis: Any = -1,
                          output: Any = None) -> Any:
    """Forward rule of ``scipy.ndimage.fourier_uniform``: ``dx H + x dH/dsize dsize``.

    Examples
    --------
    >>> from chainrules import NoTangent
    >>> frule((NoTangent(), np.ones(2), 0.0), ndi.fourier_uniform, np.zeros(2), 1.0)[1][0]
    np.float64(1.0)
    """
    return _frule(ndi.fourier_uniform, tangents, input, size, n, axis, output)


@rrule.register(ndi.fourier_ellipsoid)
def fourier_ellipsoid_rrule(input: Any, size: Any, n: Any = -1, axis: Any = -1, output: Any = None) -> Any:
    """Reverse rule of ``scipy.ndimage.fourier_ellipsoid`` (1 to 3 axes): the input and ``size``.

    Examples
    --------
    >>> from chainrules import unthunk
    >>> y, pullback = rrule(ndi.fourier_ellipsoid, np.ones((2, 2)), 1.0)
    >>> np.round(unthunk(pullback(np.ones((2, 2)))[1]), 6)              # 2 J1(r) / r, r = pi |k| / 2
    array([[1.      , 0.721703],
           [0.721703, 0.497717]])
    """
    return _rrule(ndi.fourier_ellipsoid, input, size, n, axis, output)


@frule.register(ndi.fourier_ellipsoid)
def fourier_ellipsoid_frule(tangents: Any, input: Any, size: Any, n: Any = -1, axis: Any = -1,
                            output: Any = None) -> Any:
    """Forward rule of ``scipy.ndimage.fourier_ellipsoid``: ``dx H + x dH/dsize dsize``.

    Examples
    --------
    >>> from chainrules import NoTangent
    >>> frule((NoTangent(), np.ones(2), 0.0), ndi.fourier_ellipsoid, np.zeros(2), 1.0)[1][0]
    np.float64(1.0)
    """
    return _frule(ndi.fourier_ellipsoid, tangents, input, size, n, axis, output)


@rrule.register(ndi.fourier_shift)
def fourier_shift_rrule(input: Any, shift: Any, n: Any = -1, axis: Any = -1, output: Any = None) -> Any:
    """Reverse rule of ``scipy.ndimage.fourier_shift``: the input and ``shift``.

    Examples
    --------
    >>> from chainrules import unthunk
    >>> x = np.fft.fft(np.array([0.0, 1.0, 0.0, 0.0]))
    >>> y, pullback = rrule(ndi.fourier_shift, x, 1.0)
    >>> np.round(np.fft.ifft(y).real, 12) + 0.0                             # the signal moved by one
    array([0., 0., 1., 0.])
    """
    return _rrule(ndi.fourier_shift, input, shift, n, axis, output)


@frule.register(ndi.fourier_shift)
def fourier_shift_frule(tangents: Any, input: Any, shift: Any, n: Any = -1, axis: Any = -1,
                        output: Any = None) -> Any:
    """Forward rule of ``scipy.ndimage.fourier_shift``: ``dx H + x dH/dshift dshift``.

    Examples
    --------
    >>> from chainrules import NoTangent
    >>> np.round(frule((NoTangent(), np.ones(2), 0.0), ndi.fourier_shift, np.zeros(2), 0.5)[1], 12)
    array([1.+0.j, 0.+1.j])
    """
    return _frule(ndi.fourier_shift, tangents, input, shift, n, axis, output)


# ---- sample inputs ----------------------------------------------------------------------------------
def _fourier_samples(rng: np.random.Generator, parameter: float, per_axis_values: list[float],
                     three_axes: bool = True) -> list[Sample]:
    x = np.fft.fft2(image(rng, (4, 5)))
    r = np.fft.rfft2(image(rng, (4, 6)))  # a real transform along the last axis: shape (4, 4), n = 6
    out = [Sample(x, parameter, label="complex transform"),
           Sample(x, per_axis_values, label="a value per axis (a list)"),
           Sample(r, parameter, 6, -1, label="real transform along the last axis (n = 6)"),
           Sample(np.fft.rfft(image(rng, (5, 4)), axis=0), np.array(per_axis_values), 5, 0,
                  label="real transform along axis 0 (n = 5), values as an array"),
           Sample(x, parameter, fkwargs={"n": -1, "axis": 0}, label="options by keyword"),
           Sample(image(rng, (3, 4)), parameter, label="a real input"),
           Sample(x.astype(np.complex64), np.float32(parameter), label="complex64"),
           Sample(image(rng, (3, 4)).astype(np.float32), parameter, label="float32"),
           Sample(np.fft.fft(image(rng, (6,))), parameter, label="one axis"),
           Sample(x, 2, label="an integer parameter (not differentiated)")]
    if three_axes:
        out.append(Sample(np.fft.fftn(image(rng, (3, 2, 4))), [parameter, 0.5, 1.5], label="three axes"))
    return out


@sample_inputs(ndi.fourier_gaussian)
def _fourier_gaussian_samples(rng: np.random.Generator) -> list[Sample]:
    return _fourier_samples(rng, 0.7, [0.6, 1.1])


@sample_inputs(ndi.fourier_uniform)
def _fourier_uniform_samples(rng: np.random.Generator) -> list[Sample]:
    return _fourier_samples(rng, 1.3, [1.7, 0.8])


@sample_inputs(ndi.fourier_ellipsoid)
def _fourier_ellipsoid_samples(rng: np.random.Generator) -> list[Sample]:
    return _fourier_samples(rng, 1.3, [1.7, 0.8])


@sample_inputs(ndi.fourier_shift)
def _fourier_shift_samples(rng: np.random.Generator) -> list[Sample]:
    return _fourier_samples(rng, 0.4, [0.3, -1.2])
