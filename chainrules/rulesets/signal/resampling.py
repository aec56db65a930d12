"""Resampling: ``upfirdn``, ``resample``, ``resample_poly`` and ``decimate``.

The maths
---------
``upfirdn(h, x, up, down, axis, mode, cval)`` upsamples ``x`` by ``up`` (zeros between the
samples), convolves with ``h`` and keeps every ``down``-th sample, the signal extended at
both ends by ``ceil((len(h) - 1)/up)`` samples as ``mode`` says (every mode of SciPy:
``numpy.pad``'s five, ``smooth``, ``antisymmetric``, ``antireflect``, ``line``; see
:class:`~chainrules.rulesets.signal._common.Extension`). Bilinear in ``h`` and the extended
signal: with ``G`` the output cotangent placed at the kept samples,
``h_bar[j] = sum_i G[i + j] conj(U[i])`` and ``U_bar[i] = sum_j G[i + j] conj(h[j])`` (``U``
the upsampled extended signal); ``x_bar`` takes every ``up``-th sample of ``U_bar`` and folds
the extension back, ``cval`` (by position) gets the sum over the filled samples.

``resample(x, num, t, axis, window, domain)`` (the Fourier method) is linear in ``x``: a
(real or complex) FFT, a window, the spectrum cut or zero-padded to ``num`` bins (the unpaired
bin at ``m/2`` united from or split into a pair, ``m = min(num, n)``), an inverse FFT scaled
by ``num/n``. Its pullback applies the adjoints in reverse order (those of the real FFTs from
:mod:`chainrules.rulesets.fft._common`). An array ``window`` (by position) is differentiated
too (SciPy folds it, ``(W[l] + W[-l])/2``, for real input), and so are the new sample times
``t[0] + (t[1] - t[0]) (n/num) k`` returned when ``t`` is given (by position).

``resample_poly(x, up, down, axis, window, padtype, cval)`` is ``upfirdn`` with the FIR
filter ``up * firwin(...)`` (or ``up * window`` for an array ``window``, differentiated),
zero-padded and cropped as SciPy does, around a background value when ``padtype`` is
``"mean"``, ``"median"``, ``"minimum"`` or ``"maximum"`` (``y = U(x - b) + b``: the
background's derivative is the mean, or the selected sample: the median (the mean of the
two middle ones for an even length), the first minimum or maximum).

``decimate(x, q, n, ftype, axis, zero_phase)`` filters with a fixed design (Chebyshev I of
order 8 with 0.05 dB ripple and cutoff ``0.8/q``, or a Hamming-window FIR of order ``20 q``,
or the given ``dlti``) by ``sosfiltfilt``/``filtfilt``/``sosfilt``/``lfilter``/
``resample_poly``/``upfirdn``, then keeps every ``q``-th sample: linear in ``x``, and its
pullback is that of the filter (through its own rule) of the cotangent scattered back onto
the kept samples. ``q``, ``n`` and the design are not differentiated.

Examples
--------
>>> import numpy as np, scipy.signal
>>> import chainrules
>>> y, pullback = chainrules.rrule(scipy.signal.upfirdn, np.array([1.0, 1.0]), np.array([1.0, 2.0, 3.0]), 2)
>>> y
array([1., 1., 2., 2., 3., 3.])
>>> [chainrules.unthunk(c) for c in pullback(np.array([1.0, 0.0, 0.0, 0.0, 0.0, 1.0]))[1:3]]
[array([1., 3.]), array([1., 0., 1.])]
"""

from __future__ import annotations

import inspect
import math
from typing import Any

import numpy as np
import scipy.signal

from chainrules.rulesets.arrays._linear_maps import output_tangent, sequence_output_tangent, tangent_array
from chainrules.rulesets.fft._common import ChainBuilder, chain_adjoint
from chainrules.rulesets.signal._common import NO, Extension, bind, correlate_valid, public_name, short_name
from chainrules_core import (
    AbstractZero,
    NoTangent,
    NotImplementedTangent,
    Sample,
    Tangent,
    Thunk,
    Varargs,
    ZeroTangent,
    backing,
    cotangent_projector,
    differentiable,
    frule,
    not_implemented,
    passes_through,
    read_cotangent,
    read_cotangents,
    rrule,
    sample_inputs,
    unthunk,
)

ARRAY = (np.ndarray, list, tuple, float, int, complex, np.number)
ZERO = ZeroTangent()


def _dense(t: Any, x: Any) -> Any:
    return tangent_array(t, x) if differentiable(x) else None


# ---- upfirdn -------------------------------------------------------------------------------------------
def output_length(h_len: int, n: int, up: int, down: int) -> int:
    """The length of ``upfirdn``'s output.

    Examples
    --------
    >>> output_length(5, 7, 3, 2)
    12
    """
    return ((n - 1) * up + h_len - 1) // down + 1


class UpFirDn:
    """``upfirdn`` of a signal of length ``n`` (time last) and its adjoints."""

    def __init__(self, h_len: int, n: int, up: int, down: int, mode: str) -> None:
        self.h_len, self.n, self.up, self.down = h_len, n, up, down
        self.pad = -(-(h_len - 1) // up)
        self.extension = Extension(n, self.pad, self.pad, mode)
        self.out_len = output_length(h_len, n, up, down)
        self.offset = self.pad * up

    def upsampled(self, x: np.ndarray, cval: Any) -> np.ndarray:
        e = self.extension.extend(x, -1, cval)
        u = np.zeros((*e.shape[:-1], (e.shape[-1] - 1) * self.up + 1), e.dtype)
        u[..., ::self.up] = e
        return u

    def adjoint(self, h: np.ndarray, x: np.ndarray, cval: Any, g: np.ndarray,
                want: tuple[bool, bool]) -> tuple[Any, Any, Any]:
        """``(h_bar, x_bar, cval_bar)`` for the output cotangent ``g`` (``want``: h, x)."""
        u_len = (self.n + 2 * self.pad - 1) * self.up + 1
        placed = np.zeros((*g.shape[:-1], u_len + self.h_len - 1), np.result_type(g, h, x, np.float32))
        placed[..., self.offset + np.arange(self.out_len) * self.down] = g
        h_bar = x_bar = cval_bar = None
        if want[0]:
            u = self.upsampled(x, cval)
            per_row = correlate_valid(placed, u, [placed.ndim - 1], [self.h_len], "fft")
            h_bar = per_row.reshape(-1, self.h_len).sum(axis=0)
        if want[1]:
            kernel = h.reshape((1,) * (placed.ndim - 1) + (-1,))
            u_bar = correlate_valid(placed, kernel, [placed.ndim - 1], [u_len],
                                    "direct" if self.h_len <= 64 else "fft")
            x_bar, cval_bar = self.extension.adjoint(u_bar[..., ::self.up], -1)
        return h_bar, x_bar, cval_bar


def _upfirdn_rules() -> None:
    f = scipy.signal.upfirdn
    name, short, signature = public_name(f), short_name(f), inspect.signature(f)

    def upfirdn_rrule(h: Any, x: Any, *args: Any, **kwargs: Any) -> Any:
        p, call_args, call_kwargs = bind(f, signature, (h, x, *args), kwargs)
        y = f(*call_args, **call_kwargs)
        project_h, project_x = cotangent_projector(h), cotangent_projector(x)
        cval_given = len(args) >= 5
        project_cval = cotangent_projector(args[4]) if cval_given else None
        live = (differentiable(h), differentiable(x))
        live_cval = cval_given and differentiable(args[4]) and p["mode"] == "constant"

        def compute(cache: dict[str, Any], dy: np.ndarray) -> dict[str, Any]:
            if not cache:
                ha = np.atleast_1d(np.asarray(h))
                xa = np.asarray(x)
                axis = p["axis"] % xa.ndim
                xm = np.moveaxis(xa, axis, -1)
                op = UpFirDn(ha.size, xm.shape[-1], int(p["up"]), int(p["down"]), p["mode"])
                h_bar, x_bar, cval_bar = op.adjoint(ha, xm, p["cval"], np.moveaxis(dy, axis, -1),
                                                    (live[0], live[1] or live_cval))
                if live[0]:
                    cache["h"] = project_h(np.reshape(h_bar, np.shape(h)))
                if live[1]:
                    cache["x"] = project_x(np.moveaxis(x_bar, -1, axis))
                if live_cval:
                    cache["cval"] = project_cval(np.sum(cval_bar))  # type: ignore[misc]
            return cache

        def upfirdn_pullback(dy: Any) -> tuple[Any, ...]:
            dy = read_cotangent(dy, y, name)
            cotangents: list[Any] = [NO, NO, NO, *([NO] * len(args))]
            if passes_through(dy):
                cotangents[1:3] = [project_h(dy), project_x(dy)]
                if cval_given:
                    cotangents[7] = project_cval(dy)  # type: ignore[misc]
                return tuple(cotangents)
            dy = np.asarray(dy)
            cache: dict[str, Any] = {}  # this call's cotangents, computed together on first use
            if live[0]:
                cotangents[1] = Thunk(lambda: compute(cache, dy)["h"])
            if live[1]:
                cotangents[2] = Thunk(lambda: compute(cache, dy)["x"])
            if cval_given:
                cotangents[7] = (Thunk(lambda: compute(cache, dy)["cval"]) if live_cval
                                 else project_cval(ZERO))  # type: ignore[misc]
            return tuple(cotangents)

        upfirdn_pullback.__name__ = upfirdn_pullback.__qualname__ = f"{short}_pullback"
        return y, upfirdn_pullback

    def upfirdn_frule(tangents: Any, h: Any, x: Any, *args: Any, **kwargs: Any) -> Any:
        p, call_args, call_kwargs = bind(f, signature, (h, x, *args), kwargs)
        y = f(*call_args, **call_kwargs)
        dh, dx = _dense(tangents[1], h), _dense(tangents[2], x)
        dcval = None
        if len(args) >= 5 and differentiable(args[4]) and p["mode"] == "constant":
            dcval = unthunk(tangents[7])
            if isinstance(dcval, NotImplementedTangent):
                return y, dcval
            dcval = None if isinstance(dcval, AbstractZero) else dcval
        for d in (dh, dx):
            if isinstance(d, NotImplementedTangent):
                return y, d
        total: Any = None
        options = {k: p[k] for k in ("up", "down", "axis", "mode")}
        if dh is not None:
            total = f(dh, x, **options, cval=p["cval"])
        if dx is not None or dcval is not None:
            signal = np.zeros(np.shape(x), np.result_type(np.asarray(x), np.float64)) if dx is None else dx
            term = f(h, signal, **options, cval=0 if dcval is None else dcval)
            total = term if total is None else total + term
        return y, output_tangent(total, y)

    upfirdn_rrule.__name__ = upfirdn_rrule.__qualname__ = f"{short}_rrule"
    upfirdn_frule.__name__ = upfirdn_frule.__qualname__ = f"{short}_frule"
    rrule.register(f, ARRAY, ARRAY, Varargs(object))(upfirdn_rrule)
    frule.register(f, ARRAY, ARRAY, Varargs(object))(upfirdn_frule)


_upfirdn_rules()


# ---- resample ------------------------------------------------------------------------------------------
class _Fourier:
    """``resample`` along the last axis: the spectrum map from ``n`` to ``num`` samples."""

    def __init__(self, n: int, num: int, real: bool, domain: str, window: Any) -> None:
        self.n, self.num, self.real, self.domain = n, num, real and domain == "time", domain
        self.m = min(num, n)
        self.m2 = self.m // 2 + 1
        self.window = None if window is None else np.asarray(window)

    def folded(self) -> np.ndarray | None:
        """The window SciPy applies to a one-sided spectrum: ``(W[l] + W[-l]) / 2``."""
        if self.window is None:
            return None
        W = np.array(self.window, dtype=np.result_type(self.window, np.float64))
        half = self.n // 2 + 1
        W[1:half] = (W[1:half] + W[::-1][:half - 1]) / 2
        return W[:half]

    def x_adjoint(self, x: np.ndarray, g: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
        """``(x_bar, window_bar)`` for the output cotangent ``g`` (time last)."""
        s = self.n / self.num
        if self.real:
            Z = chain_adjoint(ChainBuilder((*g.shape[:-1], self.m2)).c2r(-1, self.num, "backward").steps, g) / s
            Z = Z[..., :self.m2] if Z.shape[-1] > self.m2 else Z
            Z = np.array(Z)
            if self.m % 2 == 0 and self.num != self.n:
                Z[..., self.m // 2] *= 2 if self.num < self.n else 0.5
            half = self.n // 2 + 1
            X_bar = np.zeros((*g.shape[:-1], half), Z.dtype)
            X_bar[..., :self.m2] = Z
            w_bar = None
            W1 = self.folded()
            if W1 is not None:
                X = np.fft.rfft(x, axis=-1)
                w1_bar = np.sum(np.conj(X) * X_bar, axis=tuple(range(g.ndim - 1)))
                X_bar = X_bar * np.conj(W1)
                w_bar = np.zeros(self.n, w1_bar.dtype)
                w_bar[0] = w1_bar[0]
                w_bar[1:half] += w1_bar[1:] / 2
                w_bar[self.n - np.arange(1, half)] += w1_bar[1:] / 2
            x_bar = chain_adjoint(ChainBuilder(x.shape).r2c(-1, None, "backward").steps, X_bar)
            return x_bar, w_bar
        Y_bar = np.fft.fft(g, axis=-1) / (self.num * s)  # ifft^H = fft / num
        m, m2, num, n = self.m, self.m2, self.num, self.n
        if m % 2 == 0 and n < num:  # the bin split into a pair
            Y_bar[..., m // 2] = (Y_bar[..., m // 2] + Y_bar[..., num - m // 2]) / 2
            Y_bar[..., num - m // 2] = 0
        X_bar = np.zeros((*g.shape[:-1], n), Y_bar.dtype)
        X_bar[..., :m2] += Y_bar[..., :m2]
        if m2 < m:
            X_bar[..., n - (m - m2):] += Y_bar[..., num - (m - m2):]
        if m % 2 == 0 and num < n:  # the pair united into one bin
            X_bar[..., n - m // 2] += Y_bar[..., num - m // 2]
        w_bar = None
        if self.window is not None:
            X = np.fft.fft(x, axis=-1) if self.domain == "time" else x
            w_bar = np.sum(np.conj(X) * X_bar, axis=tuple(range(g.ndim - 1)))
            X_bar = X_bar * np.conj(self.window)
        x_bar = n * np.fft.ifft(X_bar, axis=-1) if self.domain == "time" else X_bar
        return x_bar, w_bar


def _resample_rules() -> None:
    f = scipy.signal.resample
    name, short, signature = public_name(f), short_name(f), inspect.signature(f)

    def layout(x: Any, p: dict[str, Any]) -> tuple[np.ndarray, int, Any]:
        xa = np.asarray(x)
        axis = p["axis"] % xa.ndim
        window = p["window"]
        if window is not None and not hasattr(window, "shape"):
            window = (window(scipy.fft.fftfreq(xa.shape[axis])) if callable(window)
                      else scipy.fft.fftshift(scipy.signal.get_window(window, xa.shape[axis])))
        return xa, axis, window

    def resample_rrule(x: Any, num: Any, *args: Any, **kwargs: Any) -> Any:
        p, call_args, call_kwargs = bind(f, signature, (x, num, *args), kwargs)
        out = f(*call_args, **call_kwargs)
        with_t = p["t"] is not None
        y = out[0] if with_t else out
        project_x = cotangent_projector(x)
        t_given = len(args) >= 1 and args[0] is not None
        window_given = len(args) >= 3 and hasattr(args[2], "shape")
        project_t = cotangent_projector(args[0]) if t_given else None
        project_w = cotangent_projector(args[2]) if window_given else None

        def resample_pullback(dy: Any) -> tuple[Any, ...]:
            cotangents: list[Any] = [NO, NO, NO, *([NO] * len(args))]
            if with_t:
                parts = read_cotangents(dy, out, name)
                y_bar, t_bar = (None, None) if passes_through(parts) else parts
                passed = passes_through(parts)
            else:
                y_bar, t_bar = read_cotangent(dy, y, name), None
                passed = passes_through(y_bar)
            if passed:
                value = parts if with_t else y_bar
                cotangents[1] = project_x(value)
                if project_t is not None:
                    cotangents[3] = project_t(value)
                if project_w is not None:
                    cotangents[5] = project_w(value)
                return tuple(cotangents)
            xa, axis, window = layout(x, p)
            if y_bar is not None and (differentiable(x) or project_w is not None):
                xm = np.moveaxis(xa, axis, -1)
                op = _Fourier(xm.shape[-1], int(num), not np.iscomplexobj(xa), p["domain"], window)
                x_bar, w_bar = op.x_adjoint(xm, np.moveaxis(np.asarray(y_bar), axis, -1))
                cotangents[1] = project_x(np.moveaxis(x_bar, -1, axis))
                if project_w is not None:
                    cotangents[5] = project_w(w_bar)
            elif project_w is not None:
                cotangents[5] = project_w(ZERO)
            if project_t is not None:
                if t_bar is None:
                    cotangents[3] = project_t(ZERO)
                else:
                    k = np.arange(int(num)) * (np.shape(x)[p["axis"] % np.ndim(x)] / int(num))
                    t = np.asarray(args[0])
                    t_cot = np.zeros(t.shape, np.result_type(t, np.asarray(t_bar)))
                    t_cot[0] = np.sum(np.asarray(t_bar) * (1 - k))
                    t_cot[1] = np.sum(np.asarray(t_bar) * k)
                    cotangents[3] = project_t(t_cot)
            return tuple(cotangents)

        resample_pullback.__name__ = resample_pullback.__qualname__ = f"{short}_pullback"
        return out, resample_pullback

    def resample_frule(tangents: Any, x: Any, num: Any, *args: Any, **kwargs: Any) -> Any:
        p, call_args, call_kwargs = bind(f, signature, (x, num, *args), kwargs)
        out = f(*call_args, **call_kwargs)
        with_t = p["t"] is not None
        dx = _dense(tangents[1], x)
        dt = _dense(tangents[3], args[0]) if len(args) >= 1 and args[0] is not None else None
        dw = _dense(tangents[5], args[2]) if len(args) >= 3 and hasattr(args[2], "shape") else None
        for d in (dx, dt, dw):
            if isinstance(d, NotImplementedTangent):
                return out, d
        dy: Any = None
        if dx is not None:
            dy = f(dx, num, None, p["axis"], p["window"], p["domain"])
        if dw is not None:
            term = _resample_window_tangent(x, int(num), p, np.asarray(dw))
            dy = term if dy is None else dy + term
        if not with_t:
            return out, output_tangent(dy, out)
        dtn = None
        if dt is not None:
            k = np.arange(int(num)) * (np.shape(x)[p["axis"] % np.ndim(x)] / int(num))
            dtn = dt[0] + (dt[1] - dt[0]) * k
        if dy is None and dtn is None:
            return out, sequence_output_tangent(None, out)
        return out, sequence_output_tangent([dy, dtn], out)

    resample_rrule.__name__ = resample_rrule.__qualname__ = f"{short}_rrule"
    resample_frule.__name__ = resample_frule.__qualname__ = f"{short}_frule"
    rrule.register(f, ARRAY, ARRAY, Varargs(object))(resample_rrule)
    frule.register(f, ARRAY, ARRAY, Varargs(object))(resample_frule)


def _resample_window_tangent(x: Any, num: int, p: dict[str, Any], dw: np.ndarray) -> np.ndarray:
    """``d resample / d window`` along ``dw``: the spectrum times ``dw`` (folded as SciPy folds it)."""
    xa = np.asarray(x)
    axis = p["axis"] % xa.ndim
    xm = np.moveaxis(xa, axis, -1)
    n = xm.shape[-1]
    real = not np.iscomplexobj(xa) and p["domain"] == "time"
    if real:  # resample of a spectrum-weighted signal: the folded weights act on rfft
        op = _Fourier(n, num, True, "time", dw)
        folded = op.folded()
        assert folded is not None
        X = np.fft.rfft(xm, axis=-1) * folded
        y = scipy.signal.resample(np.fft.irfft(X, n, axis=-1), num, axis=-1)
    else:
        X = (np.fft.fft(xm, axis=-1) if p["domain"] == "time" else xm) * dw
        y = scipy.signal.resample(X, num, axis=-1, domain="freq")
    return np.moveaxis(y, -1, axis)


_resample_rules()


# ---- resample_poly -------------------------------------------------------------------------------------
BACKGROUNDS = ("mean", "median", "minimum", "maximum")
WINDOW_SPEC_REASON = ("the derivative of resample_poly with respect to the parameters of a window given by name "
                      "(('kaiser', beta)) is not implemented; pass the window as an array (scipy.signal.firwin "
                      "with that window), whose derivative is")


class _Polyphase:
    """``resample_poly`` along the last axis: the padded filter, the crop, the background."""

    def __init__(self, x: np.ndarray, up: int, down: int, window: Any, padtype: str, cval: Any) -> None:
        g = math.gcd(up, down)
        self.up, self.down = up // g, down // g
        self.n = x.shape[-1]
        self.identity = self.up == self.down == 1
        if self.identity:
            return
        n_out = self.n * self.up
        self.n_out = n_out // self.down + bool(n_out % self.down)
        if isinstance(window, (list, np.ndarray)):
            self.array_window = True
            h = np.asarray(window)
            half_len = (h.size - 1) // 2
        else:
            self.array_window = False
            max_rate = max(self.up, self.down)
            half_len = 10 * max_rate
            h = scipy.signal.firwin(2 * half_len + 1, 1.0 / max_rate, window=window)
            if x.dtype.kind in "fc":
                h = h.astype(x.dtype)
        self.pre = self.down - half_len % self.down
        post = 0
        self.start = (half_len + self.pre) // self.down
        while output_length(h.size + self.pre + post, self.n, self.up, self.down) < self.n_out + self.start:
            post += 1
        self.window_length = h.size
        self.h = np.concatenate([np.zeros(self.pre, h.dtype), h * self.up, np.zeros(post, h.dtype)])
        self.padtype, self.cval = padtype, 0 if cval is None else cval
        self.mode = "constant" if padtype in BACKGROUNDS else padtype
        self.op = UpFirDn(self.h.size, self.n, self.up, self.down, self.mode)

    def background_adjoint(self, x: np.ndarray, g: np.ndarray) -> np.ndarray:
        """The cotangent of ``x`` of the background value (a mean or a selected sample) for its cotangent ``g``."""
        out = np.zeros(x.shape, np.result_type(x, g))
        if self.padtype == "mean":
            out += g / self.n
        elif self.padtype == "median":
            order = np.argsort(x, axis=-1, kind="stable")
            middle = [self.n // 2] if self.n % 2 else [self.n // 2 - 1, self.n // 2]
            for k in middle:
                np.put_along_axis(out, order[..., k:k + 1],
                                  np.take_along_axis(out, order[..., k:k + 1], -1) + g / len(middle), -1)
        else:
            pick = (np.argmin if self.padtype == "minimum" else np.argmax)(x, axis=-1)[..., None]
            np.put_along_axis(out, pick, g, -1)
        return out

    def adjoint(self, x: np.ndarray, g: np.ndarray, want_window: bool) -> tuple[Any, Any, Any]:
        """``(x_bar, window_bar, cval_bar)`` for the output cotangent ``g`` (time last)."""
        if self.identity:
            return g, None, None
        full = np.zeros((*g.shape[:-1], self.op.out_len), g.dtype)
        full[..., self.start:self.start + self.n_out] = g
        signal = x
        if self.padtype in BACKGROUNDS:
            background = _background(x, self.padtype)
            signal = x - background
        h_bar, x_bar, cval_bar = self.op.adjoint(self.h, signal, self.cval, full, (want_window, True))
        if self.padtype in BACKGROUNDS:
            b_bar = np.sum(g, axis=-1, keepdims=True) - np.sum(x_bar, axis=-1, keepdims=True)
            x_bar = x_bar + self.background_adjoint(x, b_bar)
        w_bar = None
        if want_window and h_bar is not None:
            w_bar = self.up * h_bar[self.pre:self.pre + self.window_length]
        return x_bar, w_bar, cval_bar


def _background(x: np.ndarray, padtype: str) -> np.ndarray:
    f: Any = {"mean": np.mean, "median": np.median, "minimum": np.min, "maximum": np.max}[padtype]
    return np.asarray(f(x, axis=-1, keepdims=True))


def _resample_poly_rules() -> None:
    f = scipy.signal.resample_poly
    name, short, signature = public_name(f), short_name(f), inspect.signature(f)

    def resample_poly_rrule(x: Any, up: Any, down: Any, *args: Any, **kwargs: Any) -> Any:
        p, call_args, call_kwargs = bind(f, signature, (x, up, down, *args), kwargs)
        y = f(*call_args, **call_kwargs)
        project_x = cotangent_projector(x)
        window_given = len(args) >= 2 and isinstance(args[1], (list, np.ndarray)) and differentiable(args[1])
        window_spec = len(args) >= 2 and isinstance(args[1], tuple) and differentiable(args[1])
        cval_given = len(args) >= 4 and args[3] is not None
        project_w = cotangent_projector(args[1]) if window_given else None
        project_cval = cotangent_projector(args[3]) if cval_given else None

        def resample_poly_pullback(dy: Any) -> tuple[Any, ...]:
            dy = read_cotangent(dy, y, name)
            cotangents: list[Any] = [NO, NO, NO, NO, *([NO] * len(args))]
            if passes_through(dy):
                cotangents[1] = project_x(dy)
                if project_w is not None:
                    cotangents[5] = project_w(dy)
                if project_cval is not None:
                    cotangents[7] = project_cval(dy)
                return tuple(cotangents)
            if window_spec:
                cotangents[5] = not_implemented(WINDOW_SPEC_REASON)
            xa = np.asarray(x)
            axis = p["axis"] % xa.ndim
            xm = np.moveaxis(xa, axis, -1)
            op = _Polyphase(xm, int(up), int(down), p["window"], p["padtype"], p["cval"])
            x_bar, w_bar, cval_bar = op.adjoint(xm, np.moveaxis(np.asarray(dy), axis, -1), window_given)
            cotangents[1] = project_x(np.moveaxis(x_bar, -1, axis))
            if project_w is not None:
                cotangents[5] = project_w(ZERO if w_bar is None else np.reshape(w_bar, np.shape(args[1])))
            if project_cval is not None:
                cotangents[7] = project_cval(ZERO if cval_bar is None else np.sum(cval_bar))
            return tuple(cotangents)

        resample_poly_pullback.__name__ = resample_poly_pullback.__qualname__ = f"{short}_pullback"
        return y, resample_poly_pullback

    def resample_poly_frule(tangents: Any, x: Any, up: Any, down: Any, *args: Any, **kwargs: Any) -> Any:
        p, call_args, call_kwargs = bind(f, signature, (x, up, down, *args), kwargs)
        y = f(*call_args, **call_kwargs)
        # the rrule's pullback gives the Jacobian's adjoint; the frule is its transpose, applied by duality
        # on the (small) number of differentiated inputs would be costly: push forward through the pieces.
        dx = _dense(tangents[1], x)
        window_given = len(args) >= 2 and isinstance(args[1], (list, np.ndarray)) and differentiable(args[1])
        dw = _dense(tangents[5], args[1]) if window_given else None
        if len(args) >= 2 and isinstance(args[1], tuple) and differentiable(args[1]):
            spec = unthunk(tangents[5])
            if not isinstance(spec, AbstractZero) and any(
                    not isinstance(unthunk(t), AbstractZero) and np.any(t)
                    for t in (backing(spec) if isinstance(spec, Tangent) else [spec])):
                return y, not_implemented(WINDOW_SPEC_REASON)
        dcval = None
        if len(args) >= 4 and args[3] is not None and differentiable(args[3]):
            dcval = unthunk(tangents[7])
            dcval = None if isinstance(dcval, AbstractZero) else dcval
        for d in (dx, dw, dcval):
            if isinstance(d, NotImplementedTangent):
                return y, d
        if dx is None and dw is None and dcval is None:
            return y, ZERO
        xa = np.asarray(x)
        axis = p["axis"] % xa.ndim
        xm = np.moveaxis(xa, axis, -1)
        op = _Polyphase(xm, int(up), int(down), p["window"], p["padtype"], p["cval"])
        if op.identity:
            return y, output_tangent(dx, y)
        signal, dsignal = xm, None if dx is None else np.moveaxis(dx, axis, -1)
        background = dbackground = None
        if op.padtype in BACKGROUNDS:
            background = _background(xm, op.padtype)
            signal = xm - background
            if dsignal is not None:
                dbackground = _background_tangent(xm, dsignal, op.padtype)
                dsignal = dsignal - dbackground
        total: Any = None
        if dw is not None:
            dh = np.concatenate([np.zeros(op.pre), op.up * np.asarray(dw),
                                 np.zeros(op.h.size - op.pre - op.window_length)])
            total = scipy.signal.upfirdn(dh, signal, op.up, op.down, mode=op.mode, cval=op.cval)
        if dsignal is not None or dcval is not None:
            moving = np.zeros(signal.shape, np.result_type(signal, np.float64)) if dsignal is None else dsignal
            term = scipy.signal.upfirdn(op.h, moving, op.up, op.down, mode=op.mode,
                                        cval=0 if dcval is None else dcval)
            total = term if total is None else total + term
        total = total[..., op.start:op.start + op.n_out]
        if dbackground is not None:
            total = total + dbackground
        return y, output_tangent(np.moveaxis(total, -1, axis), y)

    resample_poly_rrule.__name__ = resample_poly_rrule.__qualname__ = f"{short}_rrule"
    resample_poly_frule.__name__ = resample_poly_frule.__qualname__ = f"{short}_frule"
    rrule.register(f, ARRAY, ARRAY, ARRAY, Varargs(object))(resample_poly_rrule)
    frule.register(f, ARRAY, ARRAY, ARRAY, Varargs(object))(resample_poly_frule)


def _background_tangent(x: np.ndarray, dx: np.ndarray, padtype: str) -> np.ndarray:
    """The tangent of the background value (see :meth:`_Polyphase.background_adjoint`)."""
    if padtype == "mean":
        return np.mean(dx, axis=-1, keepdims=True)
    n = x.shape[-1]
    if padtype == "median":
        order = np.argsort(x, axis=-1, kind="stable")
        middle = [n // 2] if n % 2 else [n // 2 - 1, n // 2]
        picked = [np.take_along_axis(dx, order[..., k:k + 1], -1) for k in middle]
        return np.asarray(sum(picked[1:], picked[0]) / len(middle))
    pick = (np.argmin if padtype == "minimum" else np.argmax)(x, axis=-1)[..., None]
    return np.take_along_axis(dx, pick, -1)


_resample_poly_rules()


# ---- decimate ------------------------------------------------------------------------------------------
def _decimate_filter(x: np.ndarray, q: int, n: Any, ftype: Any, axis: int,
                     zero_phase: bool) -> tuple[Any, tuple[Any, ...], dict[str, Any], Any]:
    """``(f, args, kwargs, keep)``: decimate is ``f(*args, **kwargs)[keep]`` (SciPy's design, rebuilt)."""
    dtype = x.dtype if np.issubdtype(x.dtype, np.inexact) and x.dtype != np.float16 else np.dtype(np.float64)
    keep: list[Any] = [slice(None)] * x.ndim
    if ftype == "fir" or (isinstance(ftype, scipy.signal.dlti) and len(ftype.to_zpk().poles) == 0):
        if ftype == "fir":
            order = 20 * q if n is None else n
            b = np.asarray(scipy.signal.firwin(order + 1, 1.0 / q, window="hamming"), dtype=dtype)
        else:
            tf = ftype.to_tf()
            b = np.asarray(tf.num) / np.asarray(tf.den)
        if zero_phase:
            return scipy.signal.resample_poly, (x, 1, q, axis, b), {}, tuple(keep)
        keep[axis] = slice(None, x.shape[axis] // q + bool(x.shape[axis] % q))
        return scipy.signal.upfirdn, (b, x, 1, q, axis), {}, tuple(keep)
    if ftype == "iir":
        sos: Any = np.asarray(scipy.signal.cheby1(8 if n is None else n, 0.05, 0.8 / q, output="sos"), dtype=dtype)
        coefficients: tuple[Any, ...] = (sos,)
    else:
        zpk = ftype.to_zpk()
        if np.iscomplex(zpk.poles).any() or np.iscomplex(zpk.zeros).any() or np.iscomplex(zpk.gain):
            tf = ftype.to_tf()
            coefficients = (tf.num, tf.den)
        else:
            coefficients = (np.asarray(scipy.signal.zpk2sos(zpk.zeros, zpk.poles, zpk.gain), dtype=dtype),)
    keep[axis] = slice(None, None, q)
    if len(coefficients) == 1:
        f = scipy.signal.sosfiltfilt if zero_phase else scipy.signal.sosfilt
    else:
        f = scipy.signal.filtfilt if zero_phase else scipy.signal.lfilter
    return f, (*coefficients, x, axis), {}, tuple(keep)


def _decimate_rules() -> None:
    f = scipy.signal.decimate
    name, short, signature = public_name(f), short_name(f), inspect.signature(f)

    def decimate_rrule(x: Any, q: Any, *args: Any, **kwargs: Any) -> Any:
        p, call_args, call_kwargs = bind(f, signature, (x, q, *args), kwargs)
        y = f(*call_args, **call_kwargs)
        project_x = cotangent_projector(x)
        rest = [NO] * len(args)

        def decimate_pullback(dy: Any) -> tuple[Any, ...]:
            dy = read_cotangent(dy, y, name)
            if passes_through(dy) or not differentiable(x):
                return (NO, project_x(dy) if passes_through(dy) else NO, NO, *rest)
            xa = np.asarray(x)
            inner, inner_args, inner_kwargs, keep = _decimate_filter(xa, int(q), p["n"], p["ftype"],
                                                                     p["axis"] % xa.ndim, p["zero_phase"])
            z, inner_pullback = rrule(inner, *inner_args, **inner_kwargs)
            full = np.zeros(np.shape(z), np.result_type(z, np.asarray(dy)))
            full[keep] = dy
            position = 1 if inner in (scipy.signal.sosfiltfilt, scipy.signal.sosfilt, scipy.signal.upfirdn) else (
                0 if inner is scipy.signal.resample_poly else 2)
            x_bar = unthunk(inner_pullback(full)[1 + position])
            return (NO, project_x(x_bar), NO, *rest)

        decimate_pullback.__name__ = decimate_pullback.__qualname__ = f"{short}_pullback"
        return y, decimate_pullback

    def decimate_frule(tangents: Any, x: Any, q: Any, *args: Any, **kwargs: Any) -> Any:
        _, call_args, call_kwargs = bind(f, signature, (x, q, *args), kwargs)
        y = f(*call_args, **call_kwargs)
        dx = _dense(tangents[1], x)
        if dx is None or isinstance(dx, NotImplementedTangent):
            return y, output_tangent(dx, y)
        return y, output_tangent(f(np.asarray(dx, dtype=np.result_type(y)), *call_args[1:], **call_kwargs), y)

    decimate_rrule.__name__ = decimate_rrule.__qualname__ = f"{short}_rrule"
    decimate_frule.__name__ = decimate_frule.__qualname__ = f"{short}_frule"
    rrule.register(f, ARRAY, ARRAY, Varargs(object))(decimate_rrule)
    frule.register(f, ARRAY, ARRAY, Varargs(object))(decimate_frule)


_decimate_rules()


# ---- sample inputs ----------------------------------------------------------------------------------
@sample_inputs(scipy.signal.upfirdn)
def _upfirdn_samples(rng: np.random.Generator) -> list[Sample]:
    h, x = rng.standard_normal(4), rng.standard_normal((2, 7))
    out = [Sample(h, x[0], label="plain convolution"), Sample(h, x, 3, 2, label="up 3, down 2")]
    for mode in ("symmetric", "reflect", "edge", "wrap", "smooth", "antisymmetric", "antireflect", "line"):
        out.append(Sample(h, x, 2, 3, -1, mode, label=f"mode {mode}"))
    out += [
        Sample(h, x.T, 1, 2, 0, "constant", 0.7, label="axis 0, cval by position"),
        Sample(h + 0.5j, x + 1j * x[::-1], 2, 1, label="complex"),
        Sample(h.astype(np.float32), x.astype(np.float32), fkwargs={"up": 2, "down": 3, "mode": "edge"},
               label="float32, by keyword"),
        Sample(rng.standard_normal(9), x, 2, 5, label="long filter, large down"),
    ]
    return out


@sample_inputs(scipy.signal.resample)
def _resample_samples(rng: np.random.Generator) -> list[Sample]:
    x = rng.standard_normal((2, 8))
    z = x + 1j * rng.standard_normal(x.shape)
    window = np.hanning(8) + 0.1
    return [
        Sample(x[0], 13, label="up, odd output"),
        Sample(x.T, 6, None, 0, label="down to even, axis 0"),
        Sample(x, 5, None, -1, label="down to odd"),
        Sample(x[:, :7], 12, None, -1, label="odd input, up to even"),
        Sample(z, 12, None, -1, label="complex, up (the split bin)"),
        Sample(z, 6, None, -1, label="complex, down (the united bin)"),
        Sample(x, 11, None, -1, window, label="real, an array window (differentiated)"),
        Sample(z, 5, None, -1, window, label="complex, an array window"),
        Sample(x, 10, np.array([0.0, 0.5]), -1, label="sample times by position (differentiated)"),
        Sample(z, 6, None, -1, None, "freq", label="domain freq"),
        Sample(x, 12, fkwargs={"axis": -1, "window": ("kaiser", 3.0)}, label="a named window by keyword"),
        Sample(x.astype(np.float32), 6, None, -1, label="float32"),
    ]


@sample_inputs(scipy.signal.resample_poly)
def _resample_poly_samples(rng: np.random.Generator) -> list[Sample]:
    from chainrules.testing import PrimalAndTangent

    x = rng.standard_normal((2, 12)) + 1.0
    kaiser = PrimalAndTangent(("kaiser", 5.0), NoTangent())  # its beta: not implemented (a test checks)
    out = [Sample(x[0], 3, 2, label="up 3, down 2"), Sample(x.T, 2, 5, 0, label="axis 0, down more")]
    for padtype in ("mean", "median", "minimum", "maximum", "line", "smooth"):
        out.append(Sample(x, 3, 2, -1, kaiser, padtype, label=f"padtype {padtype}"))
    out += [
        Sample(x[:, :11], 2, 3, -1, kaiser, "median", label="median of an odd length"),
        Sample(x, 2, 3, -1, np.hamming(9), label="an array window (differentiated)"),
        Sample(x, 3, 2, -1, kaiser, "constant", 0.3, label="cval by position"),
        Sample(x + 1j, 2, 3, fkwargs={"padtype": "edge", "window": ("kaiser", 4.0)}, label="complex, by keyword"),
        Sample(x.astype(np.float32), 2, 3, label="float32"),
        Sample(x, 4, 2, label="up 4, down 2: up 2"),
    ]
    return out


@sample_inputs(scipy.signal.decimate)
def _decimate_samples(rng: np.random.Generator) -> list[Sample]:
    x = rng.standard_normal((2, 30))
    return [
        Sample(x[0], 3, label="IIR, zero phase (sosfiltfilt)"),
        Sample(x[:, :12].T, 2, 2, "iir", 0, False, label="IIR of order 2, causal (sosfilt), axis 0"),
        Sample(x[0, :16], 3, 6, "fir", label="FIR, zero phase (resample_poly)"),
        Sample(x[0, :16], 2, fkwargs={"n": 4, "ftype": "fir", "zero_phase": False}, label="FIR, causal (upfirdn)"),
        Sample(x[0, :16], 2, None, scipy.signal.dlti([0.5, 0.5], [1.0, -0.2], dt=1), label="a dlti with real poles"),
        Sample(x[0].astype(np.float32), 2, label="float32"),
    ]
