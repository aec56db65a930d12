"""Spectral estimates: ``periodogram``, ``welch``, ``csd``, ``coherence``, ``spectrogram`` (every
``mode``), ``stft`` and ``istft``, with respect to the signals (and ``fs``, by position).

The maths
---------
Every estimate starts from the spectra of windowed segments of the signal (Welch 1967, IEEE
Trans. Audio Electroacoust. 15; the segmentation of SciPy's ``_spectral_helper`` and
``ShortTimeFFT``):

``X[s, k] = FFT_nfft(w * D(x[s*step : s*step + nperseg]))[k]``

(``D`` the detrending, ``step = nperseg - noverlap``; ``stft`` first extends ``x`` by
``nperseg // 2`` samples at each end as ``boundary`` says and zero-pads the end when
``padded``; ``csd`` zero-pads the shorter signal). ``X`` is linear in ``x``: its adjoint
applies the FFT's adjoint (:mod:`chainrules.rulesets.fft._common`: ``nfft`` ``ifft`` or the
real ``irfft`` with the half-weighted bins), multiplies by ``conj(w)``, detrends (``D`` is an
orthogonal projection, symmetric), adds the segments back where they overlap and folds the
extension back. Then:

* ``csd``: ``P = c mean_s conj(X_s) Y_s`` (``c`` the density or spectrum scale, doubled on
  the one-sided bins that stand for two), so ``X_bar_s = (c/S) conj(P_bar) Y_s`` and
  ``Y_bar_s = (c/S) P_bar X_s``; ``welch``/``periodogram`` take ``x = y`` and the real part,
  ``X_bar_s = (2c/S) P_bar X_s``. ``average="median"`` (divided by SciPy's bias factor) sends
  the cotangent to the median segment of each bin (the mean of the two middle ones for an
  even count; of the real and the imaginary parts separately for ``csd``), ties to the first
  in segment order.
* ``coherence = |Pxy|^2 / (Pxx Pyy)`` chains the rules of ``csd`` and ``welch``.
* ``spectrogram``: ``"psd"`` is ``c |X_s|^2`` per segment, ``"complex"`` ``sqrt(c) X``,
  ``"magnitude"`` ``sqrt(c) |X|`` (cotangent ``sqrt(c) S_bar X/|X|``, zero where ``X = 0``),
  ``"angle"``/``"phase"`` ``arg X`` (cotangent ``S_bar i X / |X|^2``; ``phase`` unwraps by
  multiples of ``2 pi``, a piecewise constant correction).
* ``stft`` is ``sqrt(c) X``; ``istft`` inverts it: inverse FFTs of the columns, windowed,
  overlap-added and divided by the overlapped squared window, then cropped: linear in
  ``Zxx`` and adjoined step by step.

The outputs are linear in ``fs`` (the frequencies), proportional to ``1/fs`` (the times) and
to ``fs**-1`` (``scaling="density"``) or ``fs**-1/2`` (``stft``/``spectrogram`` amplitudes
with ``"psd"``/``"density"`` scaling; ``istft`` ``fs**1/2``): ``fs`` is differentiated when
given by position. A window given as an array (by position) and a callable ``detrend`` have
``not_implemented`` derivatives (the window's: through the segments and the scale; the
callable's: unknown), never zeros; windows by name and ``"constant"``/``"linear"``/``False``
detrending are exact.

Examples
--------
>>> import numpy as np, scipy.signal
>>> import chainrules
>>> x = np.random.default_rng(0).standard_normal(32)
>>> (f, P), pullback = chainrules.rrule(scipy.signal.welch, x, 1.0, "hann", 8)
>>> pullback((chainrules.ZeroTangent(), np.ones_like(P)))[1].shape
(32,)
"""

from __future__ import annotations

import dataclasses
import inspect
from typing import Any

import numpy as np
import scipy.signal

from chainrules.rulesets.arrays._linear_maps import output_tangent, tangent_array
from chainrules.rulesets.fft._common import ChainBuilder, chain_adjoint
from chainrules.rulesets.signal._common import NO, Extension, bind, public_name, short_name, unbroadcast_to
from chainrules_core import (
    AbstractZero,
    NotImplementedTangent,
    Sample,
    Tangent,
    Varargs,
    ZeroTangent,
    cotangent_projector,
    differentiable,
    frule,
    not_implemented,
    passes_through,
    read_cotangents,
    rrule,
    sample_inputs,
    unthunk,
)

ARRAY = (np.ndarray, list, tuple)
ZERO = ZeroTangent()
WINDOW_REASON = ("the derivative of {f} with respect to a window given as an array (through the segments and "
                 "the scale) is not implemented; hold the window fixed")
DETREND_REASON = ("the derivative of {f} with a callable detrend is not implemented (the rule cannot "
                  "differentiate the callable); pass detrend='constant', 'linear' or False")


class Segments:
    """The windowed, detrended, transformed segments of a signal (time on the last axis).

    Parameters mirror SciPy's: ``window`` an array, ``nperseg``, ``noverlap``, ``nfft``,
    ``onesided``, ``detrend`` (``False``, ``"constant"``, ``"linear"``), ``boundary`` and
    ``padded`` (``stft``), ``n`` the signal length before any extension.
    """

    def __init__(self, window: np.ndarray, nperseg: int, noverlap: int, nfft: int, onesided: bool, detrend: Any,
                 n: int, boundary: Any = None, padded: bool = False, length: int | None = None) -> None:
        self.window, self.nperseg, self.nfft, self.onesided = window, nperseg, nfft, onesided
        self.step = nperseg - noverlap
        self.detrend, self.n = detrend, n
        self.extension = None
        m = n
        if boundary is not None:
            self.extension = Extension(n, nperseg // 2, nperseg // 2, boundary)
            m = n + 2 * (nperseg // 2)
        if length is not None:  # csd: the shorter signal zero-padded to the longer one
            m = length
        self.padding = 0
        if padded:
            self.padding = (-(m - nperseg) % self.step) % nperseg
        self.length = m + self.padding
        self.count = (self.length - nperseg) // self.step + 1
        builder = ChainBuilder((nperseg,))
        builder = builder.r2c(0, nfft, "backward") if onesided else builder.c2c(0, nfft, True, "backward")
        self.fft_steps = builder.steps

    def _prepared(self, x: np.ndarray) -> np.ndarray:
        if self.extension is not None:
            x = self.extension.extend(x, -1)
        extra = self.length - x.shape[-1]
        if extra:
            x = np.concatenate([x, np.zeros((*x.shape[:-1], extra), x.dtype)], axis=-1)
        return x

    def _detrended(self, s: np.ndarray) -> np.ndarray:
        if not self.detrend:
            return s
        return scipy.signal.detrend(s, type=self.detrend, axis=-1)

    def spectra(self, x: np.ndarray) -> np.ndarray:
        """``X`` of shape ``(..., count, nfreq)``."""
        s = np.lib.stride_tricks.sliding_window_view(self._prepared(x), self.nperseg, axis=-1)[..., ::self.step, :]
        s = self.window * self._detrended(s)
        if self.onesided:
            return np.fft.rfft(np.real(s), self.nfft, axis=-1)
        return np.fft.fft(s, self.nfft, axis=-1)

    def adjoint(self, g: np.ndarray) -> np.ndarray:
        """The cotangent of ``x`` for the cotangent ``g`` of :meth:`spectra`."""
        v = _fft_adjoint(self.fft_steps, g)
        v = self._detrended(np.conj(self.window) * v)
        out = np.zeros((*g.shape[:-2], self.length), v.dtype)
        for j in range(self.nperseg):  # overlap-add: segment s, sample j lands at s*step + j
            out[..., j:j + self.count * self.step:self.step] += v[..., :, j]
        out = out[..., :self.length - self.padding]
        if self.extension is not None:
            out = self.extension.adjoint(out, -1)[0]
        return out[..., :self.n]


def _fft_adjoint(steps: list[Any], g: np.ndarray) -> np.ndarray:
    """The adjoint of the segment FFT (one step, along the last axis) applied to ``g``."""
    return chain_adjoint([dataclasses.replace(step, axis=g.ndim - 1) for step in steps], g)


def _window(window: Any, nperseg: int) -> np.ndarray:
    if isinstance(window, (str, tuple)):
        return np.asarray(scipy.signal.get_window(window, nperseg))
    return np.asarray(window)


def _scale(window: np.ndarray, fs: float, scaling: str) -> float:
    if scaling == "density":
        return float(1.0 / (fs * np.sum(np.abs(window) ** 2).real))
    return float(1.0 / np.abs(np.sum(window)) ** 2)


def _one_sided_weights(nfreq: int, nfft: int) -> np.ndarray:
    """SciPy's doubling of the one-sided bins: all but DC and (even ``nfft``) the last."""
    w = np.full(nfreq, 2.0)
    w[0] = 1
    if nfft % 2 == 0:
        w[-1] = 1
    return w


def _median_bias(n: int) -> float:
    k = 2 * np.arange(1.0, (n - 1) // 2 + 1)
    return float(1 + np.sum(1.0 / (k + 1) - 1.0 / k))


def _median_weights(q: np.ndarray) -> np.ndarray:
    """The weights ``d median / d q`` over the segment axis (-2) of real ``q``: 1 on the median
    segment, 1/2 on each of the two middle ones for an even count (stable ordering for ties)."""
    n = q.shape[-2]
    order = np.argsort(q, axis=-2, kind="stable")
    middle = [n // 2] if n % 2 else [n // 2 - 1, n // 2]
    weights = np.zeros(q.shape)
    for k in middle:
        np.put_along_axis(weights, order[..., k:k + 1, :], 1.0 / len(middle), -2)
    return weights


# ---- the settings of each function, as SciPy resolves them ---------------------------------------------
class _Estimate:
    """The resolved settings of one ``welch``/``csd``/``periodogram`` call."""

    def __init__(self, kind: str, p: dict[str, Any], shapes: list[tuple[int, ...]], complex_input: bool) -> None:
        self.kind = kind
        axis = p["axis"]
        ndim = len(shapes[0])
        self.axis = axis % ndim
        n = max(s[self.axis] for s in shapes)
        self.n_inputs = [s[self.axis] for s in shapes]
        window, nperseg, noverlap, nfft = p["window"], p.get("nperseg"), p.get("noverlap"), p["nfft"]
        self.truncate = None
        if kind == "periodogram":
            if window is None:
                window = "boxcar"
            if nfft is None or nfft >= n:
                nperseg = n
            else:
                self.truncate = int(nfft)
                n, nperseg, nfft = int(nfft), int(nfft), None
            noverlap = 0
        if isinstance(window, (str, tuple)):
            default = 256
            nperseg = default if nperseg is None else int(nperseg)
            nperseg = min(nperseg, n)
        else:
            nperseg = len(window) if nperseg is None else int(nperseg)
        self.nperseg = nperseg
        self.window = _window(window, nperseg)
        self.nfft = nperseg if nfft is None else int(nfft)
        if noverlap is None:
            noverlap = nperseg // 8 if kind == "spectrogram" else nperseg // 2
        self.noverlap = int(noverlap)
        onesided = p.get("return_onesided", True) and not complex_input
        self.onesided = onesided
        scaling = p.get("scaling", "density")
        self.scaling = "density" if scaling == "psd" else scaling
        self.fs = float(p["fs"])
        detrend = p.get("detrend", False)
        self.detrend = detrend
        self.segments = Segments(self.window, nperseg, self.noverlap, self.nfft, onesided,
                                 detrend if not callable(detrend) else False, n,
                                 length=n if kind == "csd" else None)
        self.scale = _scale(self.window, self.fs, self.scaling)

    def last(self, x: np.ndarray) -> np.ndarray:
        x = np.moveaxis(np.asarray(x), self.axis, -1)
        if self.truncate is not None:
            x = x[..., :self.truncate]
        return x

    def back(self, g: np.ndarray, n: int) -> np.ndarray:
        """A cotangent of the signal (time last) back in the input's layout (zero-padded where truncated)."""
        if g.shape[-1] < n:
            g = np.concatenate([g, np.zeros((*g.shape[:-1], n - g.shape[-1]), g.dtype)], axis=-1)
        return np.moveaxis(g[..., :n], -1, self.axis)


# ---- csd, welch, periodogram ---------------------------------------------------------------------------
def _cross_pullback(est: _Estimate, xm: np.ndarray, ym: np.ndarray | None, P_bar: np.ndarray,
                    average: str) -> tuple[np.ndarray, np.ndarray | None]:
    """Cotangents of x and y (time last) of ``c agg_s conj(X_s) Y_s`` (``ym`` None: ``x = y``, real part)."""
    seg = est.segments
    X = seg.spectra(xm)
    Y = X if ym is None else seg.spectra(ym)
    c = est.scale * (_one_sided_weights(X.shape[-1], est.nfft) if est.onesided else np.ones(X.shape[-1]))
    S = X.shape[-2]
    if S == 1 or average == "mean":
        per_segment = np.broadcast_to((c / S)[None, :], X.shape[-2:])
        if ym is None:
            Wr = Wi = per_segment
        else:
            Wr = Wi = per_segment
    else:
        Q = np.conj(X) * Y
        bias = _median_bias(S)
        Wr = _median_weights(np.real(Q)) * c / bias
        Wi = _median_weights(np.imag(Q)) * c / bias if ym is not None else Wr
    Pb = np.expand_dims(P_bar, -2)
    if ym is None:
        X_bar = 2 * Wr * np.real(Pb) * X
        return seg.adjoint(X_bar), None
    # P = sum_s Wr Re(Q_s) + i Wi Im(Q_s), Q = conj(X) Y: its cotangent per segment is Q_bar
    Q_bar = Wr * np.real(Pb) + 1j * Wi * np.imag(Pb)
    X_bar = np.conj(Q_bar) * Y
    Y_bar = Q_bar * X
    return seg.adjoint(X_bar), seg.adjoint(Y_bar)


def _cross_pushforward(est: _Estimate, xm: np.ndarray, ym: np.ndarray | None, dxm: Any, dym: Any,
                       average: str) -> np.ndarray | None:
    seg = est.segments
    X = seg.spectra(xm)
    Y = X if ym is None else seg.spectra(ym)
    dX = None if dxm is None else seg.spectra(dxm)
    dY = (dX if ym is None else None) if dym is None and ym is None else (None if dym is None else seg.spectra(dym))
    dQ: Any = 0
    if dX is not None:
        dQ = dQ + np.conj(dX) * Y
    if dY is not None:
        dQ = dQ + np.conj(X) * dY
    if isinstance(dQ, int):
        return None
    c = est.scale * (_one_sided_weights(X.shape[-1], est.nfft) if est.onesided else np.ones(X.shape[-1]))
    S = X.shape[-2]
    if S == 1 or average == "mean":
        dP = c * np.mean(dQ, axis=-2)
    else:
        Q = np.conj(X) * Y
        bias = _median_bias(S)
        dP = c / bias * (np.sum(_median_weights(np.real(Q)) * np.real(dQ), axis=-2)
                         + 1j * np.sum(_median_weights(np.imag(Q)) * np.imag(dQ), axis=-2))
    return np.real(dP) if ym is None else dP


def _spectral_rules(f: Any, kind: str) -> None:
    """The rules of ``welch``, ``periodogram``, ``csd`` and ``coherence``: outputs ``(f, P)``."""
    name, short, signature = public_name(f), short_name(f), inspect.signature(f)
    two = kind in ("csd", "coherence")
    count = 2 if two else 1

    def signal_cotangents(p: dict[str, Any], arrays: list[np.ndarray], P: np.ndarray,
                          P_bar: np.ndarray) -> tuple[list[np.ndarray], float]:
        """The signals' cotangents (their own layout) and the part of ``fs``'s from ``P``."""
        if kind == "coherence":
            return _coherence_pullback(p, arrays, P, P_bar)
        est = _Estimate("csd" if two else kind, p, [a.shape for a in arrays],
                        any(np.iscomplexobj(a) for a in arrays))
        Pb = np.moveaxis(P_bar, est.axis, -1)
        ms = [est.last(a) for a in arrays]
        if two:
            n = est.segments.length
            gx, gy = _cross_pullback(est, _padded(ms[0], n), _padded(ms[1], n), Pb, p["average"])
            assert gy is not None
            gs = [unbroadcast_to(gx, (*ms[0].shape[:-1], n)), unbroadcast_to(gy, (*ms[1].shape[:-1], n))]
        else:
            gs = [_cross_pullback(est, ms[0], None, Pb, p.get("average", "mean"))[0]]
        bars = [est.back(g, a.shape[est.axis]) for g, a in zip(gs, arrays)]
        fs_bar = -float(np.sum(np.real(np.conj(P_bar) * P))) / est.fs if est.scaling == "density" else 0.0
        return bars, fs_bar

    def estimate_rrule(*call: Any, **kwargs: Any) -> Any:
        p, call_args, call_kwargs = bind(f, signature, call, kwargs)
        out = f(*call_args, **call_kwargs)
        inputs, options = call[:count], call[count:]
        projectors = [cotangent_projector(v) for v in inputs]
        fs_given = len(options) >= 1 and differentiable(options[0])
        project_fs = cotangent_projector(options[0]) if fs_given else None
        window_array = len(options) >= 2 and not isinstance(options[1], (str, tuple)) and differentiable(options[1])

        def estimate_pullback(dy: Any) -> tuple[Any, ...]:
            parts = read_cotangents(dy, out, name)
            cotangents: list[Any] = [NO, *([NO] * len(call))]
            if passes_through(parts):
                for k, project in enumerate(projectors):
                    cotangents[1 + k] = project(parts)
                if project_fs is not None:
                    cotangents[1 + count] = project_fs(parts)
                return tuple(cotangents)
            f_bar, P_bar = parts
            freqs, P = out
            fs_bar = 0.0 if f_bar is None else float(np.sum(np.real(f_bar) * freqs)) / float(p["fs"])
            bars: list[Any] = [None] * count
            if P_bar is not None:
                bars, fs_extra = signal_cotangents(p, [np.asarray(v) for v in inputs], P, np.asarray(P_bar))
                fs_bar += fs_extra
            for k, project in enumerate(projectors):
                if not differentiable(inputs[k]):
                    continue
                if callable(p["detrend"]):
                    cotangents[1 + k] = not_implemented(DETREND_REASON.format(f=name))
                else:
                    cotangents[1 + k] = project(ZERO if bars[k] is None else bars[k])
            if project_fs is not None:
                cotangents[1 + count] = project_fs(fs_bar)
            if window_array:
                cotangents[2 + count] = not_implemented(WINDOW_REASON.format(f=name))
            return tuple(cotangents)

        estimate_pullback.__name__ = estimate_pullback.__qualname__ = f"{short}_pullback"
        return out, estimate_pullback

    def estimate_frule(tangents: Any, *call: Any, **kwargs: Any) -> Any:
        p, call_args, call_kwargs = bind(f, signature, call, kwargs)
        out = f(*call_args, **call_kwargs)
        inputs, options = call[:count], call[count:]
        dins = [tangent_array(t, v) if differentiable(v) else None for t, v in zip(tangents[1:], inputs)]
        for d in dins:
            if isinstance(d, NotImplementedTangent):
                return out, d
        dfs = _option_tangent(tangents, count, options, 0)
        if isinstance(dfs, NotImplementedTangent):
            return out, dfs
        if len(options) >= 2 and not isinstance(options[1], (str, tuple)) and differentiable(options[1]):
            dw = unthunk(tangents[2 + count])
            if not isinstance(dw, AbstractZero) and np.any(dw):
                return out, not_implemented(WINDOW_REASON.format(f=name))
        if callable(p["detrend"]) and any(d is not None for d in dins):
            return out, not_implemented(DETREND_REASON.format(f=name))
        freqs, P = out
        fs = float(p["fs"])
        dP: Any = None
        if any(d is not None for d in dins):
            arrays = [np.asarray(v) for v in inputs]
            if kind == "coherence":
                dP = _coherence_pushforward(p, arrays, dins)
            else:
                est = _Estimate("csd" if two else kind, p, [a.shape for a in arrays],
                                any(np.iscomplexobj(a) for a in arrays))
                ms = [est.last(a) for a in arrays]
                dms = [None if d is None else est.last(np.asarray(d)) for d in dins]
                if two:
                    n = est.segments.length
                    dPm = _cross_pushforward(est, _padded(ms[0], n), _padded(ms[1], n),
                                             None if dms[0] is None else _padded(dms[0], n),
                                             None if dms[1] is None else _padded(dms[1], n), p["average"])
                else:
                    dPm = _cross_pushforward(est, ms[0], None, dms[0], None, p.get("average", "mean"))
                dP = None if dPm is None else np.moveaxis(dPm, -1, est.axis)
        if dfs is not None and kind != "coherence" and p.get("scaling", "density") == "density":
            term = -P * (dfs / fs)
            dP = term if dP is None else dP + term
        df = ZERO if dfs is None else freqs * (dfs / fs)
        return out, Tangent(tuple, df, output_tangent(dP, P))

    estimate_rrule.__name__ = estimate_rrule.__qualname__ = f"{short}_rrule"
    estimate_frule.__name__ = estimate_frule.__qualname__ = f"{short}_frule"
    types = (ARRAY,) * count
    rrule.register(f, *types, Varargs(object))(estimate_rrule)
    frule.register(f, *types, Varargs(object))(estimate_frule)


def _option_tangent(tangents: Any, count: int, options: tuple[Any, ...], k: int) -> Any:
    """The tangent of the ``k``-th option after the signals (``None``: zero or not differentiated)."""
    if len(options) <= k or not differentiable(options[k]):
        return None
    t = unthunk(tangents[1 + count + k])
    if isinstance(t, NotImplementedTangent):
        return t
    return None if isinstance(t, AbstractZero) else float(np.real(t))


def _padded(x: np.ndarray, n: int) -> np.ndarray:
    if x.shape[-1] >= n:
        return x
    return np.concatenate([x, np.zeros((*x.shape[:-1], n - x.shape[-1]), x.dtype)], axis=-1)


def _coherence_parts(p: dict[str, Any]) -> dict[str, Any]:
    keys = ("fs", "window", "nperseg", "noverlap", "nfft", "detrend", "axis")
    return {k: p[k] for k in keys}


def _coherence_pullback(p: dict[str, Any], arrays: list[np.ndarray], C: np.ndarray,
                        C_bar: np.ndarray) -> tuple[list[Any], float]:
    """``C = |Pxy|^2 / (Pxx Pyy)``: the cotangents of x and y through ``csd`` and ``welch``."""
    q = _coherence_parts(p)
    x, y = arrays
    _, Pxx = scipy.signal.welch(x, **q)
    _, Pyy = scipy.signal.welch(y, **q)
    _, Pxy = scipy.signal.csd(x, y, **q)
    C_bar = np.real(C_bar)
    Pxy_bar = 2 * C_bar * Pxy / (Pxx * Pyy)
    Pxx_bar = -C_bar * C / Pxx
    Pyy_bar = -C_bar * C / Pyy
    wx = rrule(scipy.signal.welch, x, **q)[1]((ZERO, Pxx_bar))[1]
    wy = rrule(scipy.signal.welch, y, **q)[1]((ZERO, Pyy_bar))[1]
    cx, cy = rrule(scipy.signal.csd, x, y, **q)[1]((ZERO, Pxy_bar))[1:3]
    gx = np.asarray(unthunk(wx)) + np.asarray(unthunk(cx))
    gy = np.asarray(unthunk(wy)) + np.asarray(unthunk(cy))
    return [gx, gy], 0.0


def _coherence_pushforward(p: dict[str, Any], arrays: list[np.ndarray], dins: list[Any]) -> np.ndarray:
    q = _coherence_parts(p)
    x, y = arrays
    _, Pxx = scipy.signal.welch(x, **q)
    _, Pyy = scipy.signal.welch(y, **q)
    _, Pxy = scipy.signal.csd(x, y, **q)
    dx, dy = (ZERO if d is None else d for d in dins)
    dPxx = unthunk(frule((NO, dx), scipy.signal.welch, x, **q)[1])[1]
    dPyy = unthunk(frule((NO, dy), scipy.signal.welch, y, **q)[1])[1]
    dPxy = unthunk(frule((NO, dx, dy), scipy.signal.csd, x, y, **q)[1])[1]
    dPxx, dPyy, dPxy = (0 if isinstance(v, AbstractZero) else v for v in (dPxx, dPyy, dPxy))
    num = np.abs(Pxy) ** 2
    dnum = 2 * np.real(np.conj(Pxy) * dPxy)
    return np.asarray(dnum / (Pxx * Pyy) - num * dPxx / (Pxx ** 2 * Pyy) - num * dPyy / (Pxx * Pyy ** 2))


for _f, _kind in ((scipy.signal.welch, "welch"), (scipy.signal.csd, "csd"), (scipy.signal.periodogram, "periodogram"),
                  (scipy.signal.coherence, "coherence")):
    _spectral_rules(_f, _kind)


# ---- spectrogram and stft ------------------------------------------------------------------------------
STFT_BOUNDARIES = {None: None, "zeros": "constant", "even": "reflect", "odd": "antireflect", "constant": "edge"}
"""``stft``'s boundary extensions (``zero_ext``, ``even_ext``, ``odd_ext``, ``const_ext``) as
:class:`~chainrules.rulesets.signal._common.Extension` modes."""


class _ShortTime:
    """The resolved settings of one ``spectrogram``/``stft`` call (SciPy's ``_spectral_helper``)."""

    def __init__(self, kind: str, p: dict[str, Any], shape: tuple[int, ...], complex_input: bool) -> None:
        ndim = len(shape)
        self.axis = int(p["axis"]) % ndim
        self.out_axis = int(p["axis"]) - 1 if int(p["axis"]) < 0 else int(p["axis"])
        n = shape[self.axis]
        window, nperseg = p["window"], p["nperseg"]
        if isinstance(window, (str, tuple)):
            nperseg = min(256 if nperseg is None else int(nperseg), n)
            win = np.asarray(scipy.signal.get_window(window, nperseg))
        else:
            win = np.asarray(window)
            nperseg = len(win) if nperseg is None else int(nperseg)
        nfft = nperseg if p["nfft"] is None else int(p["nfft"])
        noverlap = p["noverlap"]
        if noverlap is None:
            noverlap = nperseg // 8 if kind == "spectrogram" else nperseg // 2
        self.onesided = bool(p["return_onesided"]) and not complex_input
        scaling = p["scaling"]
        self.scaling = "density" if scaling == "psd" else scaling
        self.fs = float(p["fs"])
        self.nfft = nfft
        self.mode = p.get("mode", "stft") if kind == "spectrogram" else "stft"
        detrend = p["detrend"]
        self.segments = Segments(win, nperseg, int(noverlap), nfft, self.onesided,
                                 detrend if not callable(detrend) else False, n,
                                 STFT_BOUNDARIES[p["boundary"]] if kind == "stft" else None,
                                 bool(p["padded"]) if kind == "stft" else False)
        self.scale = _scale(win, self.fs, self.scaling)

    def internal(self, S: np.ndarray) -> np.ndarray:
        """An output laid out as SciPy returns it, as ``(..., segments, frequencies)``."""
        return np.moveaxis(np.asarray(S), self.out_axis, -1)

    def external(self, S: np.ndarray) -> np.ndarray:
        return np.moveaxis(S, -1, self.out_axis)

    def pullback(self, x: np.ndarray, S_bar: np.ndarray) -> np.ndarray:
        root = np.sqrt(self.scale)
        if self.mode in ("stft", "complex"):  # linear: no need for the spectra
            return self.segments.adjoint(root * S_bar)
        X = self.segments.spectra(x)
        if self.mode == "psd":
            c = self.scale * (_one_sided_weights(X.shape[-1], self.nfft) if self.onesided else 1.0)
            X_bar = 2 * c * np.real(S_bar) * X
        elif self.mode == "stft" or self.mode == "complex":
            X_bar = root * S_bar
        elif self.mode == "magnitude":
            size = np.abs(X)
            X_bar = root * np.real(S_bar) * np.divide(X, size, out=np.zeros_like(X), where=size > 0)
        else:  # angle, phase
            size2 = np.abs(X) ** 2
            X_bar = np.real(S_bar) * np.divide(1j * X, size2, out=np.zeros_like(X), where=size2 > 0)
        return self.segments.adjoint(X_bar)

    def pushforward(self, x: np.ndarray, dx: np.ndarray) -> np.ndarray:
        X, dX = self.segments.spectra(x), self.segments.spectra(dx)
        root = np.sqrt(self.scale)
        if self.mode == "psd":
            c = self.scale * (_one_sided_weights(X.shape[-1], self.nfft) if self.onesided else 1.0)
            return 2 * c * np.real(np.conj(X) * dX)
        if self.mode in ("stft", "complex"):
            return root * dX
        if self.mode == "magnitude":
            size = np.abs(X)
            return root * np.divide(np.real(np.conj(X) * dX), size, out=np.zeros(size.shape), where=size > 0)
        return np.imag(np.divide(dX, X, out=np.zeros_like(X), where=X != 0))

    def fs_power(self) -> float:
        """``S`` is proportional to ``fs`` to this power."""
        if self.scaling != "density" or self.mode in ("angle", "phase"):
            return 0.0
        return -1.0 if self.mode == "psd" else -0.5


def _short_time_rules(f: Any, kind: str) -> None:
    name, short, signature = public_name(f), short_name(f), inspect.signature(f)

    def short_time_rrule(x: Any, *options: Any, **kwargs: Any) -> Any:
        p, call_args, call_kwargs = bind(f, signature, (x, *options), kwargs)
        out = f(*call_args, **call_kwargs)
        project_x = cotangent_projector(x)
        project_fs = cotangent_projector(options[0]) if options and differentiable(options[0]) else None
        window_array = len(options) >= 2 and not isinstance(options[1], (str, tuple)) and differentiable(options[1])

        def short_time_pullback(dy: Any) -> tuple[Any, ...]:
            parts = read_cotangents(dy, out, name)
            cotangents: list[Any] = [NO, NO, *([NO] * len(options))]
            if passes_through(parts):
                cotangents[1] = project_x(parts)
                if project_fs is not None:
                    cotangents[2] = project_fs(parts)
                return tuple(cotangents)
            f_bar, t_bar, S_bar = parts
            freqs, times, S = out
            fs = float(p["fs"])
            fs_bar = 0.0
            if f_bar is not None:
                fs_bar += float(np.sum(np.real(f_bar) * freqs)) / fs
            if t_bar is not None:
                fs_bar -= float(np.sum(np.real(t_bar) * times)) / fs
            xa = np.asarray(x)
            st = _ShortTime(kind, p, xa.shape, np.iscomplexobj(xa))
            if S_bar is not None:
                if project_fs is not None and st.fs_power():
                    fs_bar += st.fs_power() * float(np.sum(np.real(np.conj(S_bar) * S))) / fs
                if differentiable(x):
                    if callable(p["detrend"]):
                        cotangents[1] = not_implemented(DETREND_REASON.format(f=name))
                    else:
                        g = st.pullback(np.moveaxis(xa, st.axis, -1), st.internal(S_bar))
                        cotangents[1] = project_x(np.moveaxis(g, -1, st.axis))
            elif differentiable(x):
                cotangents[1] = project_x(ZERO)
            if project_fs is not None:
                cotangents[2] = project_fs(fs_bar)
            if window_array:
                cotangents[3] = not_implemented(WINDOW_REASON.format(f=name))
            return tuple(cotangents)

        short_time_pullback.__name__ = short_time_pullback.__qualname__ = f"{short}_pullback"
        return out, short_time_pullback

    def short_time_frule(tangents: Any, x: Any, *options: Any, **kwargs: Any) -> Any:
        p, call_args, call_kwargs = bind(f, signature, (x, *options), kwargs)
        out = f(*call_args, **call_kwargs)
        freqs, times, S = out
        dx = tangent_array(tangents[1], x) if differentiable(x) else None
        if isinstance(dx, NotImplementedTangent):
            return out, dx
        dfs = _option_tangent(tangents, 1, options, 0)
        if isinstance(dfs, NotImplementedTangent):
            return out, dfs
        if len(options) >= 2 and not isinstance(options[1], (str, tuple)) and differentiable(options[1]):
            dw = unthunk(tangents[3])
            if not isinstance(dw, AbstractZero) and np.any(dw):
                return out, not_implemented(WINDOW_REASON.format(f=name))
        if dx is not None and callable(p["detrend"]):
            return out, not_implemented(DETREND_REASON.format(f=name))
        xa = np.asarray(x)
        st = _ShortTime(kind, p, xa.shape, np.iscomplexobj(xa))
        dS: Any = None
        if dx is not None:
            dS = st.external(st.pushforward(np.moveaxis(xa, st.axis, -1), np.moveaxis(np.asarray(dx), st.axis, -1)))
        fs = float(p["fs"])
        df = dt = ZERO
        if dfs is not None:
            df, dt = freqs * (dfs / fs), -times * (dfs / fs)
            if st.fs_power():
                term = st.fs_power() * S * (dfs / fs)
                dS = term if dS is None else dS + term
        return out, Tangent(tuple, df, dt, output_tangent(dS, S))

    short_time_rrule.__name__ = short_time_rrule.__qualname__ = f"{short}_rrule"
    short_time_frule.__name__ = short_time_frule.__qualname__ = f"{short}_frule"
    rrule.register(f, ARRAY, Varargs(object))(short_time_rrule)
    frule.register(f, ARRAY, Varargs(object))(short_time_frule)


_short_time_rules(scipy.signal.spectrogram, "spectrogram")
_short_time_rules(scipy.signal.stft, "stft")


# ---- istft ---------------------------------------------------------------------------------------------
class _Inverse:
    """One ``istft`` call (SciPy's overlap-add inverse), on ``Zxx`` moved to ``(..., frequency, time)``."""

    def __init__(self, p: dict[str, Any], shape: tuple[int, ...]) -> None:
        ndim = len(shape)
        self.freq_axis, self.time_axis = int(p["freq_axis"]) % ndim, int(p["time_axis"]) % ndim
        outer = [a for a in range(ndim) if a not in (self.freq_axis, self.time_axis)]
        self.order = [*outer, self.freq_axis, self.time_axis]
        nfreq, nseg = shape[self.freq_axis], shape[self.time_axis]
        self.onesided = bool(p["input_onesided"])
        n_default = 2 * (nfreq - 1) if self.onesided else nfreq
        nperseg = n_default if p["nperseg"] is None else int(p["nperseg"])
        nfft = p["nfft"]
        if nfft is None:
            nfft = nperseg if self.onesided and nperseg == n_default + 1 else n_default
        self.nperseg, self.nfft, self.nseg, self.nfreq = nperseg, int(nfft), nseg, nfreq
        noverlap = nperseg // 2 if p["noverlap"] is None else int(p["noverlap"])
        self.step = nperseg - noverlap
        window = p["window"]
        self.window = (np.asarray(scipy.signal.get_window(window, nperseg)) if isinstance(window, (str, tuple))
                       else np.asarray(window))
        self.fs = float(p["fs"])
        self.psd = p["scaling"] == "psd"
        self.factor = np.sqrt(self.fs * np.sum(self.window ** 2)) if self.psd else np.sum(self.window)
        length = nperseg + (nseg - 1) * self.step
        norm = np.zeros(length)
        for i in range(nseg):
            norm[i * self.step:i * self.step + nperseg] += self.window ** 2
        self.crop = nperseg // 2 if p["boundary"] else 0
        if self.crop:
            norm = norm[self.crop:-self.crop]
        self.norm = np.where(norm > 1e-10, norm, 1.0)
        self.length = length
        steps = ChainBuilder((nfreq,))
        self.steps = (steps.c2r(0, self.nfft, "backward") if self.onesided
                      else steps.c2c(0, self.nfft, False, "backward")).steps
        self.out_axis = -1 if self.time_axis == ndim - 1 else (
            self.time_axis - 1 if self.freq_axis < self.time_axis else self.time_axis)

    def adjoint(self, x_bar: np.ndarray) -> np.ndarray:
        """The cotangent of ``Zxx`` (its own layout) from that of ``x`` (the output's layout)."""
        g = np.moveaxis(np.asarray(x_bar), self.out_axis, -1) if x_bar.ndim > 1 else np.asarray(x_bar)
        if self.onesided:
            g = np.real(g)
        g = g / self.norm
        if self.crop:
            g = np.concatenate([np.zeros((*g.shape[:-1], self.crop)), g, np.zeros((*g.shape[:-1], self.crop))],
                               axis=-1)
        subs = np.zeros((*g.shape[:-1], self.nfft, self.nseg), np.result_type(g, self.window))
        for i in range(self.nseg):
            subs[..., :self.nperseg, i] = g[..., i * self.step:i * self.step + self.nperseg] * np.conj(self.window)
        subs *= np.conj(self.factor)
        steps = [dataclasses.replace(st, axis=subs.ndim - 2) for st in self.steps]
        Z_bar = chain_adjoint(steps, subs)
        return np.transpose(Z_bar, np.argsort(self.order))


def _istft_rules() -> None:
    f = scipy.signal.istft
    name, short, signature = public_name(f), short_name(f), inspect.signature(f)

    def istft_rrule(Zxx: Any, *options: Any, **kwargs: Any) -> Any:
        p, call_args, call_kwargs = bind(f, signature, (Zxx, *options), kwargs)
        out = f(*call_args, **call_kwargs)
        project_z = cotangent_projector(Zxx)
        project_fs = cotangent_projector(options[0]) if options and differentiable(options[0]) else None
        window_array = len(options) >= 2 and not isinstance(options[1], (str, tuple)) and differentiable(options[1])

        def istft_pullback(dy: Any) -> tuple[Any, ...]:
            parts = read_cotangents(dy, out, name)
            cotangents: list[Any] = [NO, NO, *([NO] * len(options))]
            if passes_through(parts):
                cotangents[1] = project_z(parts)
                if project_fs is not None:
                    cotangents[2] = project_fs(parts)
                return tuple(cotangents)
            t_bar, x_bar = parts
            times, x = out
            fs = float(p["fs"])
            fs_bar = 0.0 if t_bar is None else -float(np.sum(np.real(t_bar) * times)) / fs
            if x_bar is None:
                cotangents[1] = project_z(ZERO) if differentiable(Zxx) else NO
            else:
                inverse = _Inverse(p, np.shape(Zxx))
                if differentiable(Zxx):
                    cotangents[1] = project_z(inverse.adjoint(np.asarray(x_bar)))
                if inverse.psd:
                    fs_bar += float(np.sum(np.real(np.conj(x_bar) * x))) / (2 * fs)
            if project_fs is not None:
                cotangents[2] = project_fs(fs_bar)
            if window_array:
                cotangents[3] = not_implemented(WINDOW_REASON.format(f=name))
            return tuple(cotangents)

        istft_pullback.__name__ = istft_pullback.__qualname__ = f"{short}_pullback"
        return out, istft_pullback

    def istft_frule(tangents: Any, Zxx: Any, *options: Any, **kwargs: Any) -> Any:
        p, call_args, call_kwargs = bind(f, signature, (Zxx, *options), kwargs)
        out = f(*call_args, **call_kwargs)
        times, x = out
        dz = tangent_array(tangents[1], Zxx) if differentiable(Zxx) else None
        if isinstance(dz, NotImplementedTangent):
            return out, dz
        dfs = _option_tangent(tangents, 1, options, 0)
        if isinstance(dfs, NotImplementedTangent):
            return out, dfs
        if len(options) >= 2 and not isinstance(options[1], (str, tuple)) and differentiable(options[1]):
            dw = unthunk(tangents[3])
            if not isinstance(dw, AbstractZero) and np.any(dw):
                return out, not_implemented(WINDOW_REASON.format(f=name))
        dx: Any = None
        if dz is not None:
            dx = f(dz, *call_args[1:], **call_kwargs)[1]
        dt: Any = ZERO
        if dfs is not None:
            dt = -times * (dfs / float(p["fs"]))
            if p["scaling"] == "psd":
                term = x * (dfs / (2 * float(p["fs"])))
                dx = term if dx is None else dx + term
        return out, Tangent(tuple, dt, output_tangent(dx, x))

    istft_rrule.__name__ = istft_rrule.__qualname__ = f"{short}_rrule"
    istft_frule.__name__ = istft_frule.__qualname__ = f"{short}_frule"
    rrule.register(f, ARRAY, Varargs(object))(istft_rrule)
    frule.register(f, ARRAY, Varargs(object))(istft_frule)


_istft_rules()


# ---- sample inputs ----------------------------------------------------------------------------------
@sample_inputs(scipy.signal.welch)
def _welch_samples(rng: np.random.Generator) -> list[Sample]:
    x = rng.standard_normal((2, 16))
    return [
        Sample(x, 2.0, "hann", 8, label="density, fs by position"),
        Sample(x.T, 1.0, "hamming", 8, 6, 10, "linear", True, "spectrum", 0,
               label="spectrum, linear detrend, nfft > nperseg, axis 0, every option by position"),
        Sample(x[0], fkwargs={"nperseg": 4, "detrend": False, "average": "median"}, label="median, no detrend"),
        Sample(x[0, :15], fkwargs={"nperseg": 6, "average": "median"}, label="median of an even count"),
        Sample(x[0] + 1j * x[1], fkwargs={"nperseg": 8}, label="complex: two-sided"),
        Sample(x[0], fkwargs={"nperseg": 8, "return_onesided": False}, label="two-sided"),
        Sample(x[0].astype(np.float32), fkwargs={"nperseg": 8}, label="float32"),
    ]


@sample_inputs(scipy.signal.csd)
def _csd_samples(rng: np.random.Generator) -> list[Sample]:
    x, y = rng.standard_normal((2, 14)), rng.standard_normal((2, 14))
    return [
        Sample(x[0], y[0], 2.0, "hann", 6, label="density, fs by position"),
        Sample(x, y[:1], fkwargs={"nperseg": 6, "scaling": "spectrum"}, label="y broadcast"),
        Sample(x[:1], y[:1, :11], fkwargs={"nperseg": 6}, label="y shorter (zero-padded)"),
        Sample(x[0], y[0], fkwargs={"nperseg": 4, "average": "median"}, label="median"),
        Sample(x[0] + 1j * y[0], y[1] - 0.5j * x[1], fkwargs={"nperseg": 6}, label="complex"),
    ]


@sample_inputs(scipy.signal.periodogram)
def _periodogram_samples(rng: np.random.Generator) -> list[Sample]:
    x = rng.standard_normal((2, 12))
    return [
        Sample(x, 3.0, label="boxcar, fs by position"),
        Sample(x[0], 1.0, "hann", 16, "linear", label="nfft pads, hann, linear detrend"),
        Sample(x[0], fkwargs={"nfft": 8, "scaling": "spectrum"}, label="nfft truncates the signal"),
        Sample(x[0] + 1j * x[1], label="complex"),
    ]


@sample_inputs(scipy.signal.coherence)
def _coherence_samples(rng: np.random.Generator) -> list[Sample]:
    x = rng.standard_normal(14)
    y = 0.5 * x + rng.standard_normal(14)
    return [Sample(x, y, 2.0, "hann", 6, label="fs by position"),
            Sample(x, y, fkwargs={"nperseg": 4, "detrend": "linear"}, label="by keyword")]


@sample_inputs(scipy.signal.spectrogram)
def _spectrogram_samples(rng: np.random.Generator) -> list[Sample]:
    x = rng.standard_normal((2, 20))
    z = x[0] + 1j * x[1]
    out = [Sample(x, 2.0, "hann", 8, label="psd, fs by position")]
    for mode in ("complex", "magnitude", "angle", "phase"):
        out.append(Sample(x[0], fkwargs={"nperseg": 8, "noverlap": 4, "mode": mode}, label=f"mode {mode}"))
    out += [
        Sample(x.T, 1.0, "hamming", 8, 2, 10, "linear", True, "spectrum", 0, "magnitude",
               label="spectrum, magnitude, every option by position, axis 0"),
        Sample(z, fkwargs={"nperseg": 8, "mode": "complex", "return_onesided": False}, label="complex input"),
        Sample(x[0].astype(np.float32), fkwargs={"nperseg": 8}, label="float32"),
    ]
    return out


@sample_inputs(scipy.signal.stft)
def _stft_samples(rng: np.random.Generator) -> list[Sample]:
    x = rng.standard_normal((2, 17))
    out = [Sample(x, 2.0, "hann", 8, label="fs by position, zeros boundary, padded")]
    for boundary in ("even", "odd", "constant", None):
        out.append(Sample(x[0], fkwargs={"nperseg": 6, "boundary": boundary}, label=f"boundary {boundary}"))
    out += [
        Sample(x.T, 1.0, "hamming", 8, 6, 10, "constant", True, "zeros", False, 0, "psd",
               label="psd scaling, detrend, not padded, axis 0, by position"),
        Sample(x[0] + 1j * x[1], fkwargs={"nperseg": 8, "return_onesided": False}, label="complex: two-sided"),
        Sample(x[0].astype(np.float32), fkwargs={"nperseg": 8}, label="float32"),
    ]
    return out


@sample_inputs(scipy.signal.istft)
def _istft_samples(rng: np.random.Generator) -> list[Sample]:
    x = rng.standard_normal((2, 24))
    _, _, Z = scipy.signal.stft(x, nperseg=8)
    _, _, Z2 = scipy.signal.stft(x[0] + 1j * x[1], nperseg=8, return_onesided=False)
    _, _, Z3 = scipy.signal.stft(x.T, window="hamming", nperseg=8, axis=0, scaling="psd", boundary=None)
    return [
        Sample(Z, 2.0, "hann", 8, label="fs by position"),
        Sample(Z2, fkwargs={"nperseg": 8, "input_onesided": False}, label="two-sided"),
        Sample(Z3, 1.0, "hamming", 8, 4, None, True, False, 1, 0, "psd",
               label="psd scaling, no boundary, time and frequency axes moved, by position"),
        Sample(Z.astype(np.complex64), fkwargs={"nperseg": 8}, label="complex64"),
    ]
