"""Recursive (IIR) and FIR filters: ``lfilter`` (with respect to ``b``, ``a``, ``x`` and ``zi``),
``lfiltic``, ``lfilter_zi``, ``sosfilt``, ``sosfilt_zi``.

The maths
---------
``lfilter``: see :mod:`chainrules.rulesets.signal._recursive`: the pullback runs the filter
backwards in time with conjugated coefficients (the adjoint of the transposed direct form II
structure SciPy uses is a direct form II filter run in reverse, Oppenheim & Schafer 2010,
sec. 6.4.2), and the cotangents of ``b`` and ``a`` are correlations of that adjoint signal
with the input and the output (Forgione & Piga 2021, eqs. 17-21): with respect to ``a`` the
output is a rational function of the coefficients, ``dy = L(-da * y)``, ``L`` the all-pole
filter. ``zi`` (by position) and the final state ``zf`` are differentiated too;
``lfilter(b, a, x, axis, zi)`` returns ``(y, zf)`` and takes a cotangent for both.

``lfiltic(b, a, y, x)``: ``zi[m] = (sum_k b[m+1+k] x[k] - sum_k a[m+1+k] y[k]) / a[0]``,
bilinear in the coefficients and the past values.

``lfilter_zi(b, a)``: the steady state of the step response solves ``(I - C^T) zi = B``,
``C`` the companion matrix of ``a`` (normalised) and ``B = b[1:] - a[1:] b[0]``. Differentiating,
``(I - C^T) dzi = db[1:] - a[1:] db[0] - da[1:] (b[0] + zi[0])`` (only the first column of
``C^T`` holds coefficients), so the pullback solves one system with ``(I - C^T)^H``.

``sosfilt(sos, x, axis, zi)`` is a cascade of ``lfilter`` sections; its rules chain the
section rules (the intermediate signals are recomputed). SciPy requires ``sos[:, 3] == 1``
and refuses any other value, so those entries get a zero cotangent (the cotangent lives in
the constraint's tangent space: a gradient step keeps them at 1) and their tangents are
ignored. ``sosfilt_zi`` accepts any ``sos[:, 3]`` (it normalises each section) and is
differentiated in every entry: ``zi[s] = scale_s lfilter_zi(b_s, a_s)`` with
``scale_s = prod_{t<s} sum(b_t)/sum(a_t)``.

Coefficients given as lists of integers (``[1, -1]``) are not differentiated.

Examples
--------
>>> import numpy as np, scipy.signal
>>> import chainrules
>>> x = np.array([1.0, 0.0, 0.0, 0.0])
>>> y, pullback = chainrules.rrule(scipy.signal.lfilter, [1.0], [1.0, -0.5], x)
>>> y                                                   # the impulse response 0.5**n
array([1.   , 0.5  , 0.25 , 0.125])
>>> chainrules.unthunk(pullback(np.array([0.0, 0.0, 0.0, 1.0]))[3])   # the same, backwards in time
array([0.125, 0.25 , 0.5  , 1.   ])
"""

from __future__ import annotations

import inspect
from typing import Any

import numpy as np
import scipy.linalg
import scipy.signal

from chainrules.rulesets.arrays._linear_maps import output_tangent, sequence_output_tangent, tangent_array
from chainrules.rulesets.signal import _recursive as rec
from chainrules.rulesets.signal._common import NO, bind, public_name, unbroadcast_to
from chainrules_core import (
    NotImplementedTangent,
    Sample,
    Thunk,
    Varargs,
    ZeroTangent,
    cotangent_projector,
    differentiable,
    frule,
    not_implemented,
    passes_through,
    read_cotangent,
    read_cotangents,
    rrule,
    sample_inputs,
)

ARRAY = (np.ndarray, list, tuple, float, int, complex, np.number)
ZERO = ZeroTangent()


def _dense(t: Any, x: Any) -> Any:
    """The tangent ``t`` of ``x`` as an array, or ``None`` (zero, or ``x`` not differentiated)."""
    if not differentiable(x):
        return None
    return tangent_array(t, x)


def _not_implemented_in(*values: Any) -> Any:
    for v in values:
        if isinstance(v, NotImplementedTangent):
            return v
    return None


# ---- lfilter -------------------------------------------------------------------------------------------
class _Filtered:
    """One ``lfilter`` call with time moved to the last axis (shared by the rules)."""

    def __init__(self, b: Any, a: Any, x: Any, axis: int, zi: Any) -> None:
        self.b, self.a = np.atleast_1d(np.asarray(b)), np.atleast_1d(np.asarray(a))
        self.bn, self.an, self.a0 = rec.normalise(self.b, self.a)
        self.x = np.asarray(x)
        self.axis = axis % max(self.x.ndim, 1)
        self.K = len(self.bn)
        self.xm = np.moveaxis(self.x, self.axis, -1)
        self.zi = None if zi is None else np.asarray(zi)
        self.zim = None
        if self.zi is not None:
            shape = (*self.xm.shape[:-1], self.K - 1)
            self.zim = np.broadcast_to(np.moveaxis(self.zi, self.axis, -1), shape)

    def last(self, v: np.ndarray) -> np.ndarray:
        return np.moveaxis(v, self.axis, -1)

    def back(self, v: np.ndarray) -> np.ndarray:
        return np.moveaxis(v, -1, self.axis)


def _lfilter_rules() -> None:
    f = scipy.signal.lfilter
    name, signature = public_name(f), inspect.signature(f)

    def lfilter_rrule(b: Any, a: Any, x: Any, *args: Any, **kwargs: Any) -> Any:
        p, call_args, call_kwargs = bind(f, signature, (b, a, x, *args), kwargs)
        out = f(*call_args, **call_kwargs)
        with_zf = p["zi"] is not None
        y = out[0] if with_zf else out
        s = _Filtered(b, a, x, p["axis"], p["zi"])
        zi_given = len(args) >= 2 and args[1] is not None
        projectors = [cotangent_projector(v) for v in (b, a, x)]
        project_zi = cotangent_projector(args[1]) if zi_given else None
        live = [differentiable(v) for v in (b, a, x)] + [zi_given and differentiable(args[1])]
        ym = s.last(np.asarray(y))

        def compute(cache: dict[str, Any], y_bar: Any, zf_bar: Any, key: str) -> Any:
            """The cotangent ``key`` (the adjoint signal, computed once per call, is shared)."""
            if key in cache:
                return cache[key]
            yb = None if y_bar is None else s.last(y_bar)
            zb = None if zf_bar is None else s.last(zf_bar)
            if key == "x" and "u" not in cache:  # the input's cotangent alone: one backward pass of the filter
                dtype = np.result_type(s.bn, s.an, s.xm, ym, *(v for v in (yb, zb) if v is not None))
                cache["x"] = projectors[2](s.back(rec.input_cotangent(s.bn, s.an, s.xm, ym, yb, zb, dtype)))
                return cache["x"]
            if "u" not in cache:
                cache["dtype"] = np.result_type(s.bn, s.an, s.xm, ym, *(v for v in (yb, zb) if v is not None))
                cache["u"] = rec.adjoint_signal(s.bn, s.an, ym, yb, zb, cache["dtype"])
            # a[0]'s cotangent (the normalisation) needs b's: "a" always brings "b" along
            want = (("b", "a") if live[1] else ("b",)) if key in ("a", "b") else (key,)
            parts = rec.cotangents_from(cache["u"], s.bn, s.an, s.xm, ym, zb, want, cache["dtype"])
            if key in ("a", "b"):
                zeros = np.zeros(s.K, cache["dtype"])
                b_bar, a_bar = rec.unnormalised_cotangents(parts.get("b", zeros), parts.get("a", zeros), s.bn,
                                                           s.an, s.a0, len(s.b), len(s.a))
                cache["b"] = projectors[0](b_bar.reshape(np.shape(b)))
                cache["a"] = projectors[1](a_bar.reshape(np.shape(a)))
            elif key == "x":
                cache["x"] = projectors[2](s.back(parts["x"]))
            else:
                assert project_zi is not None
                cache["zi"] = project_zi(unbroadcast_to(s.back(parts["zi"]), np.shape(args[1])))
            return cache[key]

        def lfilter_pullback(dy: Any) -> tuple[Any, ...]:
            if with_zf:
                parts = read_cotangents(dy, out, name)
                if passes_through(parts):
                    return _passed(parts)
                y_bar, zf_bar = parts
            else:
                y_bar = read_cotangent(dy, y, name)
                if passes_through(y_bar):
                    return _passed(y_bar)
                zf_bar = None
            cotangents: list[Any] = [NO, NO, NO, NO, *([NO] * len(args))]
            cache: dict[str, Any] = {}  # this call's cotangents, computed together on first use

            def part(key: str) -> Thunk:
                return Thunk(lambda: compute(cache, y_bar, zf_bar, key))

            for k, key in enumerate(("b", "a", "x")):
                if live[k]:
                    cotangents[k + 1] = part(key)
            if live[3]:
                cotangents[5] = part("zi")
            return tuple(cotangents)

        def _passed(dy: Any) -> tuple[Any, ...]:
            cotangents: list[Any] = [NO, *(p(dy) for p in projectors), *([NO] * len(args))]
            if zi_given:
                assert project_zi is not None
                cotangents[5] = project_zi(dy)
            return tuple(cotangents)

        return out, lfilter_pullback

    def lfilter_frule(tangents: Any, b: Any, a: Any, x: Any, *args: Any, **kwargs: Any) -> Any:
        p, call_args, call_kwargs = bind(f, signature, (b, a, x, *args), kwargs)
        out = f(*call_args, **call_kwargs)
        with_zf = p["zi"] is not None
        y = out[0] if with_zf else out
        s = _Filtered(b, a, x, p["axis"], p["zi"])
        db, da, dx = (_dense(t, v) for t, v in zip(tangents[1:4], (b, a, x)))
        dzi = _dense(tangents[5], args[1]) if len(args) >= 2 and args[1] is not None else None
        missing = _not_implemented_in(db, da, dx, dzi)
        if missing is not None:
            return out, missing
        dbn, dan = rec.normalised_tangents(None if db is None else np.atleast_1d(db),
                                           None if da is None else np.atleast_1d(da), s.bn, s.an, s.a0,
                                           len(s.b), len(s.a))
        dzim = None
        if dzi is not None:
            dzim = np.broadcast_to(s.last(np.asarray(dzi)), (*s.xm.shape[:-1], s.K - 1))
        dy, dzf = rec.pushforward(s.bn, s.an, s.xm, s.last(np.asarray(y)), dbn, dan,
                                  None if dx is None else s.last(dx), dzim, with_zf)
        if not with_zf:
            return out, output_tangent(None if dy is None else s.back(dy), y)
        if dy is None:
            return out, sequence_output_tangent(None, out)
        assert dzf is not None
        return out, sequence_output_tangent([s.back(dy), s.back(dzf)], out)

    rrule.register(f, ARRAY, ARRAY, ARRAY, Varargs(object))(lfilter_rrule)
    frule.register(f, ARRAY, ARRAY, ARRAY, Varargs(object))(lfilter_frule)


_lfilter_rules()


# ---- lfiltic -------------------------------------------------------------------------------------------
def _lfiltic_core(b: np.ndarray, a: np.ndarray, y: np.ndarray, x: np.ndarray) -> np.ndarray:
    """``sum_k b[m+1+k] x[k] - sum_k a[m+1+k] y[k]`` (before the division by ``a[0]``)."""
    M, N = len(b) - 1, len(a) - 1
    K = max(M, N)
    out = np.zeros(K, np.result_type(b, a, y, x, np.float64))
    xs, ys = np.zeros(M, out.dtype), np.zeros(N, out.dtype)
    xs[:min(M, x.size)], ys[:min(N, y.size)] = x[:M], y[:N]
    for m in range(M):
        out[m] += np.sum(b[m + 1:] * xs[:M - m])
    for m in range(N):
        out[m] -= np.sum(a[m + 1:] * ys[:N - m])
    return out


def _lfiltic_core_adjoint(b: np.ndarray, a: np.ndarray, y: np.ndarray, x: np.ndarray,
                          g: np.ndarray) -> tuple[np.ndarray, ...]:
    """Cotangents of ``(b, a, y, x)`` of :func:`_lfiltic_core` for its cotangent ``g``."""
    M, N = len(b) - 1, len(a) - 1
    dtype = np.result_type(b, a, y, x, g, np.float64)
    xs, ys = np.zeros(M, dtype), np.zeros(N, dtype)
    xs[:min(M, x.size)], ys[:min(N, y.size)] = x[:M], y[:N]
    b_bar, a_bar = np.zeros(len(b), dtype), np.zeros(len(a), dtype)
    xs_bar, ys_bar = np.zeros(M, dtype), np.zeros(N, dtype)
    for m in range(M):
        b_bar[m + 1:] += g[m] * np.conj(xs[:M - m])
        xs_bar[:M - m] += np.conj(b[m + 1:]) * g[m]
    for m in range(N):
        a_bar[m + 1:] -= g[m] * np.conj(ys[:N - m])
        ys_bar[:N - m] -= np.conj(a[m + 1:]) * g[m]
    y_bar, x_bar = np.zeros(y.size, dtype), np.zeros(x.size, dtype)
    y_bar[:min(N, y.size)] = ys_bar[:min(N, y.size)]
    x_bar[:min(M, x.size)] = xs_bar[:min(M, x.size)]
    return b_bar, a_bar, y_bar, x_bar


def _lfiltic_rules() -> None:
    f = scipy.signal.lfiltic
    name = public_name(f)

    def lfiltic_rrule(b: Any, a: Any, y: Any, *args: Any, **kwargs: Any) -> Any:
        zi = f(b, a, y, *args, **kwargs)
        x = args[0] if args else kwargs.get("x")
        ba, aa = np.atleast_1d(np.asarray(b)), np.atleast_1d(np.asarray(a))
        ya = np.ravel(np.asarray(y))
        xa = np.zeros(0) if x is None else np.ravel(np.asarray(x))
        projectors = [cotangent_projector(v) for v in (b, a, y)]
        project_x = cotangent_projector(args[0]) if args else None
        live = [differentiable(v) for v in (b, a, y)] + [bool(args) and differentiable(args[0])]

        def lfiltic_pullback(dz: Any) -> tuple[Any, ...]:
            dz = read_cotangent(dz, zi, name)
            cotangents: list[Any] = [NO, NO, NO, NO, *([NO] * len(args))]
            if passes_through(dz):
                cotangents[1:4] = [p(dz) for p in projectors]
                if args:
                    assert project_x is not None
                    cotangents[4] = project_x(dz)
                return tuple(cotangents)
            g = np.asarray(dz) / np.conj(aa[0])
            b_bar, a_bar, y_bar, x_bar = _lfiltic_core_adjoint(ba, aa, ya, xa, g)
            a_bar[0] -= np.sum(np.conj(zi) * np.asarray(dz)) / np.conj(aa[0])
            values = [b_bar.reshape(np.shape(b)), a_bar.reshape(np.shape(a)), y_bar.reshape(np.shape(y))]
            for k in range(3):
                if live[k]:
                    cotangents[k + 1] = projectors[k](values[k])
            if live[3]:
                assert project_x is not None
                cotangents[4] = project_x(x_bar.reshape(np.shape(args[0])))
            return tuple(cotangents)

        return zi, lfiltic_pullback

    def lfiltic_frule(tangents: Any, b: Any, a: Any, y: Any, *args: Any, **kwargs: Any) -> Any:
        zi = f(b, a, y, *args, **kwargs)
        x = args[0] if args else kwargs.get("x")
        ba, aa = np.atleast_1d(np.asarray(b)), np.atleast_1d(np.asarray(a))
        ya = np.ravel(np.asarray(y))
        xa = np.zeros(0) if x is None else np.ravel(np.asarray(x))
        db, da, dy = (_dense(t, v) for t, v in zip(tangents[1:4], (b, a, y)))
        dx = _dense(tangents[4], args[0]) if args else None
        missing = _not_implemented_in(db, da, dy, dx)
        if missing is not None:
            return zi, missing
        total: Any = None
        if db is not None or da is not None:
            total = _lfiltic_core(np.zeros_like(ba, dtype=float) if db is None else np.atleast_1d(db),
                                  np.zeros_like(aa, dtype=float) if da is None else np.atleast_1d(da), ya, xa)
        if dy is not None or dx is not None:
            term = _lfiltic_core(ba, aa, np.zeros(ya.size) if dy is None else np.ravel(dy),
                                 np.zeros(xa.size) if dx is None else np.ravel(dx))
            total = term if total is None else total + term
        if total is None:
            return zi, ZERO
        total = total / aa[0]
        if da is not None:
            total = total - zi * (np.atleast_1d(da)[0] / aa[0])
        return zi, output_tangent(total, zi)

    rrule.register(f, ARRAY, ARRAY, ARRAY, Varargs(object))(lfiltic_rrule)
    frule.register(f, ARRAY, ARRAY, ARRAY, Varargs(object))(lfiltic_frule)


_lfiltic_rules()


# ---- lfilter_zi ----------------------------------------------------------------------------------------
LEADING_ZERO_REASON = ("scipy.signal.lfilter_zi drops leading zeros of a; its derivative there (where a[0] = 0 "
                       "makes the filter's order jump) is not implemented: remove the zeros first")


def _steady_state(bn: np.ndarray, an: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``I - C^T`` and ``zi`` for normalised, padded coefficients."""
    n = len(an)
    matrix = np.eye(n - 1, dtype=np.result_type(an, np.float64)) - scipy.linalg.companion(an).T
    zi = np.linalg.solve(matrix, bn[1:] - an[1:] * bn[0])
    return matrix, zi


def lfilter_zi_pullback_of(b: np.ndarray, a: np.ndarray, zi_bar: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The cotangents of ``b`` and ``a`` of ``lfilter_zi(b, a)`` (``a[0] != 0``).

    Examples
    --------
    >>> b_bar, a_bar = lfilter_zi_pullback_of(np.array([1.0, 0.5]), np.array([1.0, -0.5]), np.ones(1))
    >>> b_bar.round(6), a_bar.round(6)
    (array([1., 2.]), array([-5., -6.]))
    """
    bn, an, a0 = rec.normalise(b, a)
    matrix, zi = _steady_state(bn, an)
    w = np.linalg.solve(np.conj(matrix).T, zi_bar)
    bn_bar, an_bar = np.zeros(len(bn), w.dtype), np.zeros(len(an), w.dtype)
    bn_bar[1:] = w
    bn_bar[0] = -np.sum(np.conj(an[1:]) * w)
    an_bar[1:] = -w * np.conj(bn[0] + zi[0])
    return rec.unnormalised_cotangents(bn_bar, an_bar, bn, an, a0, len(b), len(a))


def lfilter_zi_pushforward_of(b: np.ndarray, a: np.ndarray, db: Any, da: Any) -> np.ndarray:
    """The tangent of ``lfilter_zi(b, a)`` (``None`` tangents are zeros; ``a[0] != 0``)."""
    bn, an, a0 = rec.normalise(b, a)
    matrix, zi = _steady_state(bn, an)
    dbn, dan = rec.normalised_tangents(db, da, bn, an, a0, len(b), len(a))
    rhs = np.zeros(len(bn) - 1, np.result_type(matrix, *(v for v in (dbn, dan) if v is not None)))
    if dbn is not None:
        rhs += dbn[1:] - an[1:] * dbn[0]
    if dan is not None:
        rhs -= dan[1:] * (bn[0] + zi[0])
    return np.linalg.solve(matrix, rhs)


def _lfilter_zi_rules() -> None:
    f = scipy.signal.lfilter_zi
    name = public_name(f)

    def lfilter_zi_rrule(b: Any, a: Any) -> Any:
        zi = f(b, a)
        ba, aa = np.atleast_1d(np.asarray(b)), np.atleast_1d(np.asarray(a))
        project_b, project_a = cotangent_projector(b), cotangent_projector(a)
        live_b, live_a = differentiable(b), differentiable(a)

        def lfilter_zi_pullback(dz: Any) -> tuple[Any, ...]:
            dz = read_cotangent(dz, zi, name)
            if passes_through(dz):
                return NO, project_b(dz), project_a(dz)
            if aa[0] == 0:
                reason = not_implemented(LEADING_ZERO_REASON)
                return NO, reason if live_b else NO, reason if live_a else NO
            b_bar, a_bar = lfilter_zi_pullback_of(ba, aa, np.asarray(dz))
            return (NO, project_b(b_bar.reshape(np.shape(b))) if live_b else NO,
                    project_a(a_bar.reshape(np.shape(a))) if live_a else NO)

        return zi, lfilter_zi_pullback

    def lfilter_zi_frule(tangents: Any, b: Any, a: Any) -> Any:
        zi = f(b, a)
        ba, aa = np.atleast_1d(np.asarray(b)), np.atleast_1d(np.asarray(a))
        db, da = _dense(tangents[1], b), _dense(tangents[2], a)
        missing = _not_implemented_in(db, da)
        if missing is not None:
            return zi, missing
        if db is None and da is None:
            return zi, ZERO
        if aa[0] == 0:
            return zi, not_implemented(LEADING_ZERO_REASON)
        dz = lfilter_zi_pushforward_of(ba, aa, None if db is None else np.atleast_1d(db),
                                       None if da is None else np.atleast_1d(da))
        return zi, output_tangent(dz, zi)

    rrule.register(f, ARRAY, ARRAY)(lfilter_zi_rrule)
    frule.register(f, ARRAY, ARRAY)(lfilter_zi_frule)


_lfilter_zi_rules()


# ---- sosfilt -------------------------------------------------------------------------------------------
class _Cascade:
    """A ``sosfilt`` call: the signal after each section (time on the last axis)."""

    def __init__(self, sos: Any, x: Any, axis: int, zi: Any) -> None:
        self.sos = np.atleast_2d(np.asarray(sos))
        self.x = np.asarray(x)
        self.axis = axis % max(self.x.ndim, 1)
        xm = np.moveaxis(self.x, self.axis, -1)
        self.zi = None if zi is None else np.moveaxis(np.asarray(zi), self.axis + 1, -1)  # (sections, ..., 2)
        dtype = np.result_type(self.sos, xm, *(() if self.zi is None else (self.zi,)))
        self.signals = [np.asarray(xm, dtype)]
        self.coefficients = []
        for k in range(len(self.sos)):
            bn, an, _ = rec.normalise(self.sos[k, :3], self.sos[k, 3:])
            self.coefficients.append((bn, an))
            if self.zi is None:
                out = scipy.signal.lfilter(bn, an, self.signals[-1], axis=-1)
            else:
                out, _ = scipy.signal.lfilter(bn, an, self.signals[-1], axis=-1, zi=self.zi[k])
            self.signals.append(out)

    def back(self, v: np.ndarray) -> np.ndarray:
        return np.moveaxis(v, -1, self.axis)


def sosfilt_pullback_of(c: _Cascade, y_bar: np.ndarray | None, zf_bar: np.ndarray | None,
                        want_zi: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """Cotangents of ``sos`` (zero in column 3), of ``x`` (time last) and of ``zi`` (sections first)."""
    g = y_bar
    sos_bar = np.zeros(c.sos.shape, np.result_type(c.sos, c.signals[-1], *(v for v in (y_bar, zf_bar)
                                                                         if v is not None)))
    zi_bar = np.zeros(c.zi.shape, sos_bar.dtype) if want_zi and c.zi is not None else None
    for k in range(len(c.sos) - 1, -1, -1):
        bn, an = c.coefficients[k]
        ctg = rec.pullback(bn, an, c.signals[k], c.signals[k + 1], g, None if zf_bar is None else zf_bar[k],
                           zi_bar is not None)
        sos_bar[k, :3] = ctg["b"]
        sos_bar[k, 4:] = ctg["a"][1:]
        if zi_bar is not None:
            zi_bar[k] = ctg["zi"]
        g = ctg["x"]
    assert g is not None
    return sos_bar, g, zi_bar


def _sosfilt_rules() -> None:
    f = scipy.signal.sosfilt
    name, signature = public_name(f), inspect.signature(f)

    def sosfilt_rrule(sos: Any, x: Any, *args: Any, **kwargs: Any) -> Any:
        p, call_args, call_kwargs = bind(f, signature, (sos, x, *args), kwargs)
        out = f(*call_args, **call_kwargs)
        with_zf = p["zi"] is not None
        y = out[0] if with_zf else out
        zi_given = len(args) >= 2 and args[1] is not None
        project_sos, project_x = cotangent_projector(sos), cotangent_projector(x)
        project_zi = cotangent_projector(args[1]) if zi_given else None
        live = (differentiable(sos), differentiable(x), zi_given and differentiable(args[1]))

        def compute(cache: dict[str, Any], y_bar: Any, zf_bar: Any) -> dict[str, Any]:
            if not cache:
                c = _Cascade(sos, x, p["axis"], p["zi"])
                yb = None if y_bar is None else np.moveaxis(np.asarray(y_bar), c.axis, -1)
                zb = None if zf_bar is None else np.moveaxis(np.asarray(zf_bar), c.axis + 1, -1)
                sos_bar, x_bar, zi_bar = sosfilt_pullback_of(c, yb, zb, live[2])
                cache["sos"] = project_sos(sos_bar.reshape(np.shape(sos)))
                cache["x"] = project_x(c.back(x_bar))
                if live[2]:
                    assert project_zi is not None and zi_bar is not None
                    cache["zi"] = project_zi(np.moveaxis(zi_bar, -1, c.axis + 1))
            return cache

        def sosfilt_pullback(dy: Any) -> tuple[Any, ...]:
            cotangents: list[Any] = [NO, NO, NO, *([NO] * len(args))]
            if with_zf:
                parts = read_cotangents(dy, out, name)
                passed = passes_through(parts)
                y_bar, zf_bar = (None, None) if passed else parts
            else:
                y_bar = read_cotangent(dy, y, name)
                passed, zf_bar = passes_through(y_bar), None
            if passed:
                value = parts if with_zf else y_bar
                cotangents[1:3] = [project_sos(value), project_x(value)]
                if zi_given:
                    assert project_zi is not None
                    cotangents[4] = project_zi(value)
                return tuple(cotangents)
            cache: dict[str, Any] = {}  # this call's cotangents, computed together on first use
            if live[0]:
                cotangents[1] = Thunk(lambda: compute(cache, y_bar, zf_bar)["sos"])
            if live[1]:
                cotangents[2] = Thunk(lambda: compute(cache, y_bar, zf_bar)["x"])
            if live[2]:
                cotangents[4] = Thunk(lambda: compute(cache, y_bar, zf_bar)["zi"])
            return tuple(cotangents)

        return out, sosfilt_pullback

    def sosfilt_frule(tangents: Any, sos: Any, x: Any, *args: Any, **kwargs: Any) -> Any:
        p, call_args, call_kwargs = bind(f, signature, (sos, x, *args), kwargs)
        out = f(*call_args, **call_kwargs)
        with_zf = p["zi"] is not None
        dsos, dx = _dense(tangents[1], sos), _dense(tangents[2], x)
        dzi = _dense(tangents[4], args[1]) if len(args) >= 2 and args[1] is not None else None
        missing = _not_implemented_in(dsos, dx, dzi)
        if missing is not None:
            return out, missing
        if dsos is None and dx is None and dzi is None:
            return out, ZERO if not with_zf else sequence_output_tangent(None, out)
        c = _Cascade(sos, x, p["axis"], p["zi"])
        g = None if dx is None else np.moveaxis(np.asarray(dx), c.axis, -1)
        dzim = None if dzi is None else np.moveaxis(np.asarray(dzi), c.axis + 1, -1)
        dzf = []
        for k, (bn, an) in enumerate(c.coefficients):
            db = da = None
            if dsos is not None:
                db, da = np.asarray(dsos[k, :3]), np.concatenate([[0], dsos[k, 4:]])
            g, dzf_k = rec.pushforward(bn, an, c.signals[k], c.signals[k + 1], db, da, g,
                                       None if dzim is None else dzim[k], with_zf)
            dzf.append(np.zeros(c.signals[k].shape[:-1] + (2,)) if dzf_k is None else dzf_k)
        dy = None if g is None else c.back(g)
        if not with_zf:
            return out, output_tangent(dy, out)
        return out, sequence_output_tangent([dy, np.moveaxis(np.stack(dzf), -1, c.axis + 1)], out)

    rrule.register(f, ARRAY, ARRAY, Varargs(object))(sosfilt_rrule)
    frule.register(f, ARRAY, ARRAY, Varargs(object))(sosfilt_frule)


_sosfilt_rules()


# ---- sosfilt_zi ----------------------------------------------------------------------------------------
def _sections(sos: Any) -> np.ndarray:
    return np.atleast_2d(np.asarray(sos, dtype=np.result_type(np.asarray(sos), np.float64)))


def sosfilt_zi_pullback_of(sos: Any, zi_bar: np.ndarray) -> np.ndarray:
    """The cotangent of ``sos`` of ``sosfilt_zi(sos)`` (every entry, ``sos[:, 3]`` included).

    Examples
    --------
    >>> sos = np.array([[1.0, 0.5, 0.0, 1.0, -0.5, 0.0]])
    >>> sosfilt_zi_pullback_of(sos, np.ones((1, 2))).round(6)
    array([[ 1.,  2.,  3., -5., -6., -9.]])
    """
    s = _sections(sos)
    n = len(s)
    gains = np.array([np.sum(s[k, :3]) / np.sum(s[k, 3:]) for k in range(n)])
    scales = np.concatenate([[1.0], np.cumprod(gains)[:-1]])
    sos_bar = np.zeros(s.shape, np.result_type(s, zi_bar))
    scale_bar = np.zeros(n, sos_bar.dtype)
    for k in range(n):
        z = scipy.signal.lfilter_zi(s[k, :3], s[k, 3:])
        b_bar, a_bar = lfilter_zi_pullback_of(s[k, :3], s[k, 3:], np.conj(scales[k]) * zi_bar[k])
        sos_bar[k, :3] += b_bar
        sos_bar[k, 3:] += a_bar
        scale_bar[k] = np.sum(np.conj(z) * zi_bar[k])
    for k in range(n):  # scale_k = prod_{t<k} gain_t, gain_t = sum(b_t) / sum(a_t)
        for t in range(k):
            gain_bar = np.conj(scales[k] / gains[t]) * scale_bar[k]
            sa, sb = np.sum(s[t, 3:]), np.sum(s[t, :3])
            sos_bar[t, :3] += gain_bar / np.conj(sa)
            sos_bar[t, 3:] -= gain_bar * np.conj(sb / sa ** 2)
    return sos_bar


def sosfilt_zi_pushforward_of(sos: Any, dsos: np.ndarray) -> np.ndarray:
    """The tangent of ``sosfilt_zi(sos)`` along ``dsos``."""
    s, ds = _sections(sos), np.atleast_2d(dsos)
    out = np.zeros((len(s), 2), np.result_type(s, ds))
    scale, dscale = 1.0, 0.0
    for k in range(len(s)):
        b, a = s[k, :3], s[k, 3:]
        z = scipy.signal.lfilter_zi(b, a)
        out[k] = dscale * z + scale * lfilter_zi_pushforward_of(b, a, ds[k, :3], ds[k, 3:])
        gain = np.sum(b) / np.sum(a)
        dgain = np.sum(ds[k, :3]) / np.sum(a) - np.sum(b) * np.sum(ds[k, 3:]) / np.sum(a) ** 2
        scale, dscale = scale * gain, dscale * gain + scale * dgain
    return out


def _sosfilt_zi_rules() -> None:
    f = scipy.signal.sosfilt_zi
    name = public_name(f)

    def sosfilt_zi_rrule(sos: Any) -> Any:
        zi = f(sos)
        project = cotangent_projector(sos)

        def sosfilt_zi_pullback(dz: Any) -> tuple[Any, ...]:
            dz = read_cotangent(dz, zi, name)
            if passes_through(dz):
                return NO, project(dz)
            return NO, project(sosfilt_zi_pullback_of(sos, np.asarray(dz)).reshape(np.shape(sos)))

        return zi, sosfilt_zi_pullback

    def sosfilt_zi_frule(tangents: Any, sos: Any) -> Any:
        zi = f(sos)
        ds = _dense(tangents[1], sos)
        if ds is None or isinstance(ds, NotImplementedTangent):
            return zi, ZERO if ds is None else ds
        return zi, output_tangent(sosfilt_zi_pushforward_of(sos, ds), zi)

    rrule.register(f, ARRAY)(sosfilt_zi_rrule)
    frule.register(f, ARRAY)(sosfilt_zi_frule)


_sosfilt_zi_rules()


# ---- sample inputs ----------------------------------------------------------------------------------
def fixed_leading_one_fdm() -> Any:
    """Finite differences that give zero along a direction where the function refuses every step.

    ``sosfilt`` accepts ``sos[:, 3] == 1`` only; its rules give those entries a zero
    cotangent, which is what this method reports for them (a step there raises ``ValueError``).
    """
    from chainrules.testing import default_fdm

    method = default_fdm()

    def constrained(along: Any, x0: float) -> Any:
        try:
            return method(along, x0)
        except ValueError:
            return np.zeros_like(np.asarray(along(x0), dtype=np.float64))

    return constrained


def sos_tangent(sos: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A random tangent of ``sos`` that keeps ``sos[:, 3] == 1``."""
    t = rng.standard_normal(sos.shape)
    t[:, 3] = 0
    return t


@sample_inputs(scipy.signal.lfilter)
def _lfilter_samples(rng: np.random.Generator) -> list[Sample]:
    b, a = np.array([0.3, 0.2, -0.1]), np.array([1.2, -0.4, 0.1])
    x = rng.standard_normal(7)
    x2 = rng.standard_normal((2, 6))
    zi = rng.standard_normal(2)
    z = x2 + 1j * rng.standard_normal(x2.shape)
    return [
        Sample(b, a, x, label="IIR, a[0] != 1"),
        Sample(b[:2], np.array([2.0]), x, label="FIR (SciPy's convolution path)"),
        Sample(b, a, x2, 0, label="axis 0 by position"),
        Sample(b, a, x2, -1, rng.standard_normal((2, 2)), label="zi by position: (y, zf)"),
        Sample(b, a, x2, fkwargs={"axis": -1, "zi": rng.standard_normal((1, 2))},
               label="zi by keyword (not differentiated), broadcast"),
        Sample(b, a[:2], x[:1], -1, zi[:2], label="a signal shorter than the delay line"),
        Sample(b + 0.1j, a - 0.05j, z, label="complex coefficients and signal"),
        Sample(b.astype(np.float32), a.astype(np.float32), x.astype(np.float32), label="float32"),
        Sample([1, -1], [1], x, label="integer coefficients (not differentiated)"),
        Sample([1, -1], np.array([1.5, -0.3]), x, label="an integer numerator, a[0] != 1 differentiated"),
    ]


@sample_inputs(scipy.signal.lfiltic)
def _lfiltic_samples(rng: np.random.Generator) -> list[Sample]:
    b, a = np.array([0.3, 0.2, -0.1, 0.05]), np.array([1.5, -0.4, 0.1])
    return [
        Sample(b, a, rng.standard_normal(2), label="past outputs"),
        Sample(b, a, rng.standard_normal(3), rng.standard_normal(2), label="past outputs and (short) inputs"),
        Sample(b[:2], a, rng.standard_normal(1), fkwargs={"x": rng.standard_normal(1)}, label="x by keyword"),
    ]


@sample_inputs(scipy.signal.lfilter_zi)
def _lfilter_zi_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample(np.array([0.3, 0.2, -0.1]), np.array([1.2, -0.4, 0.1]), label="a[0] != 1"),
        Sample(np.array([0.5, 0.25]), np.array([1.0, -0.5, 0.2, 0.05]), label="a longer than b"),
        Sample(np.array([0.3, 0.2j]), np.array([1.0, -0.3 + 0.1j]), label="complex"),
    ]


def _sos(rng: np.random.Generator) -> np.ndarray:
    return np.array([[0.2, 0.3, 0.1, 1.0, -0.5, 0.2], [1.0, -0.4, 0.3, 1.0, 0.3, 0.1]])


@sample_inputs(scipy.signal.sosfilt)
def _sosfilt_samples(rng: np.random.Generator) -> list[Sample]:
    from chainrules.testing import PrimalAndTangent

    sos = _sos(rng)
    x = rng.standard_normal((2, 6))
    fdm = fixed_leading_one_fdm()
    return [
        Sample(PrimalAndTangent(sos, sos_tangent(sos, rng)), x, label="two sections", fdm=fdm),
        Sample(PrimalAndTangent(sos, sos_tangent(sos, rng)), x.T, 0, rng.standard_normal((2, 2, 2)),
               label="axis 0, zi by position: (y, zf)", fdm=fdm),
        Sample(PrimalAndTangent(sos, sos_tangent(sos, rng)), x, fkwargs={"zi": np.ones((2, 2, 2))},
               label="zi by keyword", fdm=fdm),
        Sample(PrimalAndTangent(sos.astype(np.float32), sos_tangent(sos, rng).astype(np.float32)),
               x.astype(np.float32), label="float32", fdm=fdm),
        Sample(PrimalAndTangent(sos + 0j, sos_tangent(sos, rng) * (1 + 1j)), x + 1j * x[::-1],
               label="complex", fdm=fdm),
    ]


@sample_inputs(scipy.signal.sosfilt_zi)
def _sosfilt_zi_samples(rng: np.random.Generator) -> list[Sample]:
    sos = _sos(rng)
    odd = sos.copy()
    odd[1, 3] = 2.0
    return [Sample(sos, label="two sections"), Sample(odd, label="a section with a[0] != 1")]
