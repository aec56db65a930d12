"""Chirp z-transforms and frequency responses: ``czt``, ``zoom_fft``, ``freqz``, ``freqz_sos``
(and its old name ``sosfreqz``), and ``deconvolve``.

The maths
---------
``czt(x, m, w, a)`` is ``X_k = sum_n x_n a^-n w^(nk)``, ``k < m``: linear in ``x``, with the
adjoint ``x_bar_n = conj(a)^-n sum_k conj(w)^(nk) X_bar_k``, itself a chirp z-transform:
``conj(a)^-n czt(X_bar, n, conj(w), 1)`` (Rabiner, Schafer & Rader 1969, "The chirp
z-transform algorithm", IEEE Trans. Audio Electroacoust. 17). ``zoom_fft`` is the chirp
z-transform with the ``w`` and ``a`` of ``scipy.signal.ZoomFFT``. The derivatives with
respect to ``w`` and ``a`` are ``not_implemented``.

``freqz(b, a, worN)`` evaluates ``h(omega) = B(e^-i omega) / A(e^-i omega)``,
``B(z) = sum_k b_k z^k``. With ``dh = (dB - h dA) / A`` the cotangents are
``b_bar_k = sum_omega conj(e^(-i omega k) / A) h_bar`` and
``a_bar_k = -sum_omega conj(h e^(-i omega k) / A) h_bar`` (the real parts for real
coefficients). ``freqz_sos`` multiplies the sections' responses: section ``s`` receives
``h_bar conj(prod_{t != s} h_t)``; ``sos[:, 3]`` (which SciPy requires to be 1) gets a zero
cotangent. The frequencies ``w`` are not differentiated: a ``worN`` given as an array of
frequencies has a ``not_implemented`` derivative.

``deconvolve(signal, divisor)`` divides polynomials: the quotient is
``lfilter(signal, divisor, impulse)`` and the remainder ``signal - convolve(divisor,
quotient)``; the rules chain those of ``lfilter`` and ``numpy.convolve``.

Examples
--------
>>> import numpy as np, scipy.signal
>>> import chainrules
>>> x = np.array([1.0, 2.0, 0.5])
>>> X, pullback = chainrules.rrule(scipy.signal.czt, x)          # the DFT by default
>>> bool(np.allclose(pullback(np.ones(3))[1], np.real(3 * np.fft.ifft(np.ones(3)))))
True
"""

from __future__ import annotations

import inspect
from typing import Any

import numpy as np
import scipy.signal

from chainrules.rulesets.arrays._linear_maps import output_tangent, sequence_output_tangent, tangent_array
from chainrules.rulesets.signal._common import NO, bind, public_name, short_name
from chainrules_core import (
    AbstractZero,
    NoTangent,
    NotImplementedTangent,
    Sample,
    Tangent,
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
PARAMETER_REASON = ("the derivative of scipy.signal.{f} with respect to {p} is not implemented; hold it fixed")


# ---- czt and zoom_fft ----------------------------------------------------------------------------------
def czt_adjoint(g: np.ndarray, n: int, w: complex, a: complex) -> np.ndarray:
    """``x_bar`` of ``czt(x, m, w, a)`` (length ``n`` along the last axis) for ``X_bar = g``.

    Examples
    --------
    >>> czt_adjoint(np.array([1.0, 0.0]), 3, np.exp(-2j * np.pi / 2), 1.0)
    array([1.+0.j, 1.+0.j, 1.+0.j])
    """
    z = scipy.signal.czt(g, n, np.conj(w), 1.0, axis=-1)
    return z * np.conj(complex(a)) ** (-np.arange(n))


def _czt_rules(f: Any) -> None:
    name, short, signature = public_name(f), short_name(f), inspect.signature(f)
    zoom = f is scipy.signal.zoom_fft

    def parameters(x: Any, p: dict[str, Any]) -> tuple[int, int, complex, complex]:
        xa = np.asarray(x)
        axis = int(p["axis"]) % xa.ndim
        n = xa.shape[axis]
        if zoom:
            transform = scipy.signal.ZoomFFT(n, p["fn"], p["m"], fs=p["fs"], endpoint=p["endpoint"])
            return axis, n, complex(transform.w), complex(transform.a)
        m = n if p["m"] is None else int(p["m"])
        w = np.exp(-2j * np.pi / m) if p["w"] is None else complex(p["w"])
        return axis, n, w, complex(p["a"])

    def czt_rrule(x: Any, *args: Any, **kwargs: Any) -> Any:
        p, call_args, call_kwargs = bind(f, signature, (x, *args), kwargs)
        y = f(*call_args, **call_kwargs)
        project = cotangent_projector(x)
        live_parameters = [] if zoom else [k for k in (1, 2) if k < len(args) and differentiable(args[k])]
        live_fn = zoom and len(args) >= 1 and differentiable(args[0])

        def czt_pullback(dy: Any) -> tuple[Any, ...]:
            dy = read_cotangent(dy, y, name)
            cotangents: list[Any] = [NO, NO, *([NO] * len(args))]
            for k in live_parameters:
                cotangents[2 + k] = not_implemented(PARAMETER_REASON.format(f=short, p=("w", "a")[k - 1]))
            if live_fn:
                cotangents[2] = not_implemented(PARAMETER_REASON.format(f=short, p="fn"))
            if passes_through(dy):
                cotangents[1] = project(dy)
                return tuple(cotangents)
            axis, n, w, a = parameters(x, p)
            g = czt_adjoint(np.moveaxis(np.asarray(dy), axis, -1), n, w, a)
            cotangents[1] = project(np.moveaxis(g, -1, axis))
            return tuple(cotangents)

        czt_pullback.__name__ = czt_pullback.__qualname__ = f"{short}_pullback"
        return y, czt_pullback

    def czt_frule(tangents: Any, x: Any, *args: Any, **kwargs: Any) -> Any:
        _, call_args, call_kwargs = bind(f, signature, (x, *args), kwargs)
        y = f(*call_args, **call_kwargs)
        checks = [(0, "fn")] if zoom else [(1, "w"), (2, "a")]
        for k, parameter in checks:
            if k < len(args) and differentiable(args[k]) and _nonzero(tangents[2 + k]):
                return y, not_implemented(PARAMETER_REASON.format(f=short, p=parameter))
        dx = tangent_array(tangents[1], x) if differentiable(x) else None
        if dx is None or isinstance(dx, NotImplementedTangent):
            return y, output_tangent(dx, y)
        return y, output_tangent(f(dx, *call_args[1:], **call_kwargs), y)

    czt_rrule.__name__ = czt_rrule.__qualname__ = f"{short}_rrule"
    czt_frule.__name__ = czt_frule.__qualname__ = f"{short}_frule"
    rrule.register(f, ARRAY, Varargs(object))(czt_rrule)
    frule.register(f, ARRAY, Varargs(object))(czt_frule)


_czt_rules(scipy.signal.czt)
_czt_rules(scipy.signal.zoom_fft)


# ---- freqz and freqz_sos -------------------------------------------------------------------------------
def _powers(w: np.ndarray, fs: float, K: int) -> np.ndarray:
    """``e^(-i omega k)`` for the frequencies ``w`` (in the units of ``fs``), ``k < K``."""
    omega = 2 * np.pi * np.asarray(w, dtype=float) / fs
    return np.exp(-1j * np.outer(omega, np.arange(K)))


def freqz_cotangents(b: np.ndarray, a: np.ndarray, w: np.ndarray, fs: float,
                     h_bar: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(b_bar, a_bar)`` of ``h = B/A`` at the frequencies ``w`` for the cotangent ``h_bar``."""
    E = _powers(w, fs, max(len(b), len(a)))
    A = E[:, :len(a)] @ a
    h = (E[:, :len(b)] @ b) / A
    g = h_bar / np.conj(A)
    return np.conj(E[:, :len(b)]).T @ g, -np.conj(E[:, :len(a)]).T @ (g * np.conj(h))


def freqz_tangent(b: np.ndarray, a: np.ndarray, w: np.ndarray, fs: float, db: Any, da: Any) -> np.ndarray:
    E = _powers(w, fs, max(len(b), len(a)))
    A = E[:, :len(a)] @ a
    h = (E[:, :len(b)] @ b) / A
    out = np.zeros(len(w), complex)
    if db is not None:
        out += E[:, :len(b)] @ db
    if da is not None:
        out -= h * (E[:, :len(a)] @ da)
    return out / A


def _array_frequencies(worN: Any) -> bool:
    return isinstance(worN, (np.ndarray, list, tuple)) and differentiable(worN)


def _nonzero(t: Any) -> bool:
    """Whether a tangent (possibly structural) is not zero."""
    t = unthunk(t)
    if isinstance(t, AbstractZero):
        return False
    if isinstance(t, Tangent):
        return any(_nonzero(v) for v in backing(t))
    return bool(np.any(t))


def _freqz_rules() -> None:
    f = scipy.signal.freqz
    name, signature = public_name(f), inspect.signature(f)

    def freqz_rrule(b: Any, *args: Any, **kwargs: Any) -> Any:
        p, call_args, call_kwargs = bind(f, signature, (b, *args), kwargs)
        out = f(*call_args, **call_kwargs)
        projectors = [cotangent_projector(b), *(cotangent_projector(args[0]) for _ in args[:1])]
        frequencies_given = len(args) >= 2 and isinstance(args[1], (np.ndarray, list, tuple))
        project_fs = cotangent_projector(args[4]) if len(args) >= 5 and differentiable(args[4]) else None

        def freqz_pullback(dy: Any) -> tuple[Any, ...]:
            parts = read_cotangents(dy, out, name)
            cotangents: list[Any] = [NO, NO, *([NO] * len(args))]
            if frequencies_given and differentiable(args[1]):
                cotangents[3] = not_implemented(PARAMETER_REASON.format(f="freqz", p="the frequencies worN"))
            if passes_through(parts):
                cotangents[1:1 + len(projectors)] = [pr(parts) for pr in projectors]
                if project_fs is not None:
                    cotangents[6] = project_fs(parts)
                return tuple(cotangents)
            w, _ = out
            if project_fs is not None:  # w is proportional to fs; h depends on fs if the frequencies are given
                cotangents[6] = (not_implemented(PARAMETER_REASON.format(f="freqz", p="fs (with frequencies given)"))
                                 if frequencies_given else
                                 project_fs(0.0 if parts[0] is None else
                                            float(np.sum(np.real(parts[0]) * w)) / float(p["fs"])))
            h_bar = parts[1]
            if h_bar is None:
                cotangents[1:1 + len(projectors)] = [pr(ZERO) for pr in projectors]
                return tuple(cotangents)
            ba, aa = np.atleast_1d(np.asarray(b)), np.atleast_1d(np.asarray(p["a"]))
            b_bar, a_bar = freqz_cotangents(ba, aa, w, float(p["fs"]), np.asarray(h_bar))
            cotangents[1] = projectors[0](b_bar.reshape(np.shape(b)))
            if args:
                cotangents[2] = projectors[1](a_bar.reshape(np.shape(args[0])))
            return tuple(cotangents)

        return out, freqz_pullback

    def freqz_frule(tangents: Any, b: Any, *args: Any, **kwargs: Any) -> Any:
        p, call_args, call_kwargs = bind(f, signature, (b, *args), kwargs)
        out = f(*call_args, **call_kwargs)
        w, h = out
        db = tangent_array(tangents[1], b) if differentiable(b) else None
        da = tangent_array(tangents[2], args[0]) if args and differentiable(args[0]) else None
        for d in (db, da):
            if isinstance(d, NotImplementedTangent):
                return out, d
        if len(args) >= 2 and _array_frequencies(args[1]) and _nonzero(tangents[3]):
            return out, not_implemented(PARAMETER_REASON.format(f="freqz", p="the frequencies worN"))
        dfs = unthunk(tangents[6]) if len(args) >= 5 and differentiable(args[4]) else ZERO
        if isinstance(dfs, NotImplementedTangent):
            return out, dfs
        dw_out: Any = ZERO
        if not isinstance(dfs, AbstractZero) and dfs != 0:
            if isinstance(args[1], (np.ndarray, list, tuple)):
                return out, not_implemented(PARAMETER_REASON.format(f="freqz", p="fs (with frequencies given)"))
            dw_out = w * (float(np.real(dfs)) / float(p["fs"]))
        if db is None and da is None:
            return out, Tangent(tuple, dw_out, ZERO)
        ba, aa = np.atleast_1d(np.asarray(b)), np.atleast_1d(np.asarray(p["a"]))
        dh = freqz_tangent(ba, aa, w, float(p["fs"]), None if db is None else np.atleast_1d(db),
                           None if da is None else np.atleast_1d(da))
        return out, Tangent(tuple, dw_out, output_tangent(dh, h))

    rrule.register(f, ARRAY, Varargs(object))(freqz_rrule)
    frule.register(f, ARRAY, Varargs(object))(freqz_frule)


def _freqz_sos_rules(f: Any) -> None:
    name = public_name(f)
    signature = inspect.signature(scipy.signal.freqz_sos)

    def section_responses(sos: np.ndarray, w: np.ndarray, fs: float) -> np.ndarray:
        E = _powers(w, fs, 3)
        return (E @ sos[:, :3].T) / (E @ sos[:, 3:].T)  # (frequencies, sections)

    def freqz_sos_rrule(sos: Any, *args: Any, **kwargs: Any) -> Any:
        p = signature.bind(sos, *args, **kwargs)
        p.apply_defaults()
        out = f(sos, *args, **kwargs)
        project = cotangent_projector(sos)
        frequencies_given = len(args) >= 1 and _array_frequencies(args[0])

        def freqz_sos_pullback(dy: Any) -> tuple[Any, ...]:
            parts = read_cotangents(dy, out, name)
            cotangents: list[Any] = [NO, NO, *([NO] * len(args))]
            if frequencies_given:
                cotangents[2] = not_implemented(PARAMETER_REASON.format(f="freqz_sos", p="the frequencies worN"))
            if passes_through(parts) or parts[1] is None:
                cotangents[1] = project(parts if passes_through(parts) else ZERO)
                return tuple(cotangents)
            w, _ = out
            s = np.atleast_2d(np.asarray(sos))
            fs = float(p.arguments["fs"])
            H = section_responses(s, w, fs)
            sos_bar = np.zeros(s.shape, complex)
            for k in range(len(s)):
                others = np.prod(np.delete(H, k, axis=1), axis=1)
                b_bar, a_bar = freqz_cotangents(s[k, :3], s[k, 3:], w, fs,
                                                np.asarray(parts[1]) * np.conj(others))
                sos_bar[k, :3], sos_bar[k, 4:] = b_bar, a_bar[1:]
            return (NO, project(sos_bar.reshape(np.shape(sos))), *cotangents[2:])

        return out, freqz_sos_pullback

    def freqz_sos_frule(tangents: Any, sos: Any, *args: Any, **kwargs: Any) -> Any:
        p = signature.bind(sos, *args, **kwargs)
        p.apply_defaults()
        out = f(sos, *args, **kwargs)
        w, h = out
        ds = tangent_array(tangents[1], sos) if differentiable(sos) else None
        if ds is None or isinstance(ds, NotImplementedTangent):
            return out, ds if isinstance(ds, NotImplementedTangent) else sequence_output_tangent(None, out)
        if len(args) >= 1 and _array_frequencies(args[0]) and _nonzero(tangents[2]):
            return out, not_implemented(PARAMETER_REASON.format(f="freqz_sos", p="the frequencies worN"))
        s, ds = np.atleast_2d(np.asarray(sos)), np.atleast_2d(ds)
        fs = float(p.arguments["fs"])
        H = section_responses(s, w, fs)
        dh = np.zeros(len(w), complex)
        for k in range(len(s)):
            others = np.prod(np.delete(H, k, axis=1), axis=1)
            dh += others * freqz_tangent(s[k, :3], s[k, 3:], w, fs, ds[k, :3], np.r_[0, ds[k, 4:]])
        return out, Tangent(tuple, ZERO, output_tangent(dh, h))

    rrule.register(f, ARRAY, Varargs(object))(freqz_sos_rrule)
    frule.register(f, ARRAY, Varargs(object))(freqz_sos_frule)


_freqz_rules()
_freqz_sos_rules(scipy.signal.freqz_sos)
_freqz_sos_rules(scipy.signal.sosfreqz)


# ---- deconvolve ----------------------------------------------------------------------------------------
def _deconvolve_rules() -> None:
    f = scipy.signal.deconvolve
    name = public_name(f)

    def pieces(signal: Any, divisor: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        num, den = np.atleast_1d(np.asarray(signal)), np.atleast_1d(np.asarray(divisor))
        impulse = np.zeros(max(len(num) - len(den) + 1, 0))
        if impulse.size:
            impulse[0] = 1
        return num, den, impulse

    def deconvolve_rrule(signal: Any, divisor: Any) -> Any:
        out = f(signal, divisor)
        project_s, project_d = cotangent_projector(signal), cotangent_projector(divisor)

        def deconvolve_pullback(dy: Any) -> tuple[Any, ...]:
            parts = read_cotangents(dy, out, name)
            if passes_through(parts):
                return NO, project_s(parts), project_d(parts)
            num, den, impulse = pieces(signal, divisor)
            q_bar, r_bar = (np.zeros(np.shape(o)) if v is None else np.asarray(v) for v, o in zip(parts, out))
            s_bar = np.array(r_bar, dtype=np.result_type(r_bar, q_bar, num, den, float))
            d_bar = np.zeros(den.shape, s_bar.dtype)
            if impulse.size:
                quotient = out[0]
                _, conv_pullback = rrule(np.convolve, den, quotient, "full")
                c = conv_pullback(-r_bar)
                d_bar += np.asarray(unthunk(c[1]))
                q_bar = q_bar + np.asarray(unthunk(c[2]))
                _, filter_pullback = rrule(scipy.signal.lfilter, num, den, impulse)
                g = filter_pullback(q_bar)
                s_bar += np.asarray(unthunk(g[1]))
                d_bar += np.asarray(unthunk(g[2]))
            return (NO, project_s(s_bar.reshape(np.shape(signal))), project_d(d_bar.reshape(np.shape(divisor))))

        return out, deconvolve_pullback

    def deconvolve_frule(tangents: Any, signal: Any, divisor: Any) -> Any:
        out = f(signal, divisor)
        ds = tangent_array(tangents[1], signal) if differentiable(signal) else None
        dd = tangent_array(tangents[2], divisor) if differentiable(divisor) else None
        for d in (ds, dd):
            if isinstance(d, NotImplementedTangent):
                return out, d
        if ds is None and dd is None:
            return out, sequence_output_tangent(None, out)
        num, den, impulse = pieces(signal, divisor)
        ds = np.zeros(num.shape) if ds is None else np.atleast_1d(ds)
        dd = np.zeros(den.shape) if dd is None else np.atleast_1d(dd)
        if not impulse.size:
            return out, sequence_output_tangent([np.zeros(0), ds], out)
        quotient = out[0]
        _, dq = frule((NO, ds, dd, ZERO), scipy.signal.lfilter, num, den, impulse)
        dq = np.zeros(quotient.shape) if isinstance(dq, AbstractZero) else np.asarray(dq)
        dr = ds - np.convolve(dd, quotient) - np.convolve(den, dq)
        return out, sequence_output_tangent([dq, dr], out)

    rrule.register(f, ARRAY, ARRAY)(deconvolve_rrule)
    frule.register(f, ARRAY, ARRAY)(deconvolve_frule)


_deconvolve_rules()


# ---- sample inputs ----------------------------------------------------------------------------------
@sample_inputs(scipy.signal.czt)
def _czt_samples(rng: np.random.Generator) -> list[Sample]:
    from chainrules.testing import PrimalAndTangent

    x = rng.standard_normal((2, 6))

    def fixed(v: Any) -> PrimalAndTangent:
        return PrimalAndTangent(v, NoTangent())

    return [
        Sample(x, label="the DFT (defaults)"),
        Sample(x + 1j * x[::-1], fixed(4), fixed(0.9 * np.exp(-0.5j)), fixed(1.1 * np.exp(0.2j)),
               label="complex, a spiral contour by position (w and a: not implemented)"),
        Sample(x.T, fkwargs={"m": 8, "w": np.exp(-0.3j), "a": 1.05, "axis": 0}, label="by keyword, axis 0"),
        Sample(x.astype(np.float32), label="float32"),
    ]


@sample_inputs(scipy.signal.zoom_fft)
def _zoom_fft_samples(rng: np.random.Generator) -> list[Sample]:
    x = rng.standard_normal((2, 8))
    from chainrules.testing import PrimalAndTangent

    band = PrimalAndTangent([0.1, 0.5], NoTangent())  # fn: not implemented (a test checks)
    return [Sample(x, band, fkwargs={"fs": 2.0}, label="a band"),
            Sample(x.T, PrimalAndTangent(0.4, NoTangent()), 5, fkwargs={"axis": 0, "endpoint": True},
                   label="m points, endpoint, axis 0")]


@sample_inputs(scipy.signal.freqz)
def _freqz_samples(rng: np.random.Generator) -> list[Sample]:
    b, a = np.array([0.3, 0.2, -0.1]), np.array([1.2, -0.4, 0.1])
    return [
        Sample(b, a, 16, label="b and a, 16 frequencies"),
        Sample(b, a, 12, True, None, 100.0, label="the whole circle, fs by position"),
        Sample(b + 0.1j, fkwargs={"worN": 8}, label="complex b, a = 1"),
    ]


@sample_inputs(scipy.signal.freqz_sos, scipy.signal.sosfreqz)
def _freqz_sos_samples(rng: np.random.Generator) -> list[Sample]:
    from chainrules.rulesets.signal.iir_filters import fixed_leading_one_fdm, sos_tangent
    from chainrules.testing import PrimalAndTangent

    sos = np.array([[0.2, 0.3, 0.1, 1.0, -0.5, 0.2], [1.0, -0.4, 0.3, 1.0, 0.3, 0.1]])
    return [Sample(PrimalAndTangent(sos, sos_tangent(sos, rng)), 16, label="two sections",
                   fdm=fixed_leading_one_fdm())]


@sample_inputs(scipy.signal.deconvolve)
def _deconvolve_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(np.array([1.0, 0.5, -0.3, 0.2, 0.1]), np.array([1.5, -0.4]), label="quotient and remainder"),
            Sample(np.array([1.0, 2.0]), np.array([1.0, 0.5, 0.2]), label="a longer divisor: all remainder")]
