"""Forward-backward (zero-phase) filtering: ``filtfilt`` and ``sosfiltfilt``.

The maths
---------
With ``method="pad"`` (both functions), SciPy extends the signal by ``padlen`` samples at
each end (``padtype`` ``"odd"``: ``2 x[0] - x[k]``, ``"even"``: mirrored, ``"constant"``:
the end sample repeated, ``None``: no extension), starts the filter in the steady state of
a step of the first sample (``zi = lfilter_zi(b, a) * ext[0]``), filters forwards, starts
again from the steady state of the last output, filters the reversed output, reverses back
and cuts the extension off. Every step is differentiable and has a rule of its own
(:mod:`~chainrules.rulesets.signal.iir_filters`: ``lfilter`` and ``sosfilt`` with respect to
the coefficients, the signal and the initial state; ``lfilter_zi``, ``sosfilt_zi``; the
extension's adjoint folds the extended samples back); the rules here chain them, forwards
for the frule and backwards for the pullback, recomputing the intermediate signals. The
coefficients, the signal, and the initial states' dependence on both, are all differentiated.

``filtfilt(..., method="gust")`` (Gustafsson 1996, "Determining the initial states in
forward-backward filtering", IEEE Trans. Signal Process. 44) chooses the initial states by
a least-squares fit; for fixed coefficients the output is linear in ``x``:
``y = y_fb + W M^+ (y_bf - y_fb)`` with ``y_fb`` (``y_bf``) the signal filtered forwards then
backwards (backwards then forwards), and ``M``, ``W`` built from the filter's free responses.
Its pullback is that linear map's adjoint (each filter pass adjoined by the same filter run
the other way); the derivative with respect to ``b`` and ``a`` (through ``M^+`` and ``W``)
is not implemented.

As for ``sosfilt``, ``sos[:, 3]`` must be 1 in ``sosfiltfilt``: those entries get a zero
cotangent. ``sosfiltfilt``'s default ``padlen`` counts the sections whose ``sos[:, 2]`` and
``sos[:, 5]`` are exactly zero, so it jumps when such a coefficient leaves zero; the rules
differentiate at fixed padding (the derivative from the side the coefficient is on). The
rules work in double precision for single-precision inputs (the recursions of the
derivatives lose less), and project back.

Examples
--------
>>> import numpy as np, scipy.signal
>>> import chainrules
>>> b, a = np.array([0.2, 0.2]), np.array([1.0, -0.6])
>>> y, pullback = chainrules.rrule(scipy.signal.filtfilt, b, a, np.linspace(0.0, 1.0, 12))
>>> [np.shape(chainrules.unthunk(c)) for c in pullback(np.ones(12))[1:]]
[(2,), (2,), (12,)]
"""

from __future__ import annotations

import inspect
from typing import Any

import numpy as np
import scipy.linalg
import scipy.signal

from chainrules.rulesets.arrays._linear_maps import output_tangent, tangent_array
from chainrules.rulesets.signal import _recursive as rec
from chainrules.rulesets.signal._common import NO, Extension, bind, public_name, short_name
from chainrules.rulesets.signal.iir_filters import (
    _Cascade,
    fixed_leading_one_fdm,
    lfilter_zi_pullback_of,
    lfilter_zi_pushforward_of,
    sos_tangent,
    sosfilt_pullback_of,
    sosfilt_zi_pullback_of,
    sosfilt_zi_pushforward_of,
)
from chainrules_core import (
    NoTangent,
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
    rrule,
    sample_inputs,
)

ARRAY = (np.ndarray, list, tuple, float, int, complex, np.number)
ZERO = ZeroTangent()
PADTYPES = {"odd": "odd", "even": "reflect", "constant": "edge"}
GUST_REASON = ("the derivative of filtfilt(method='gust') with respect to the filter coefficients (through the "
               "least-squares initial states) is not implemented; use method='pad', or hold b and a fixed")


class _LfilterStage:
    """One ``lfilter`` pass with normalised coefficients ``(bn, an)``; coefficient tangents are ``(dbn, dan)``."""

    def __init__(self, bn: np.ndarray, an: np.ndarray) -> None:
        self.bn, self.an = bn, an
        self.zi0 = scipy.signal.lfilter_zi(bn, an)

    def scale(self, zi0: np.ndarray, x0: np.ndarray) -> np.ndarray:
        return zi0 * x0

    def scale_adjoint(self, zi0: np.ndarray, x0: np.ndarray, g: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        lead = tuple(range(g.ndim - 1))
        return np.sum(np.conj(zi0) * g, axis=-1, keepdims=True), np.sum(np.conj(x0) * g, axis=lead)

    def run(self, x: np.ndarray, zi: np.ndarray) -> np.ndarray:
        return scipy.signal.lfilter(self.bn, self.an, x, axis=-1, zi=zi)[0]

    def pullback(self, x: np.ndarray, zi: np.ndarray, y: np.ndarray, g: np.ndarray) -> tuple[Any, Any, Any]:
        ctg = rec.pullback(self.bn, self.an, x, y, g, None, True)
        return np.stack([ctg["b"], ctg["a"]]), ctg["x"], ctg["zi"]

    def pushforward(self, x: np.ndarray, zi: np.ndarray, y: np.ndarray, dcoef: Any, dx: Any, dzi: Any) -> Any:
        dbn, dan = (None, None) if dcoef is None else dcoef
        return rec.pushforward(self.bn, self.an, x, y, dbn, dan, dx, dzi, False)[0]

    def zi0_pullback(self, g: np.ndarray) -> np.ndarray:
        b_bar, a_bar = lfilter_zi_pullback_of(self.bn, self.an, g)
        a_bar = a_bar.copy()
        a_bar[0] = 0  # an[0] == 1 is not a variable
        return np.stack([b_bar, a_bar])

    def zi0_pushforward(self, dcoef: Any) -> Any:
        return None if dcoef is None else lfilter_zi_pushforward_of(self.bn, self.an, dcoef[0], dcoef[1])


class _SosStage:
    """One ``sosfilt`` pass (sections first in the initial state); coefficient tangents are ``dsos``."""

    def __init__(self, sos: np.ndarray) -> None:
        self.sos = sos
        self.zi0 = scipy.signal.sosfilt_zi(sos)

    def _lifted(self, zi0: np.ndarray, ndim: int) -> np.ndarray:
        return zi0.reshape((zi0.shape[0],) + (1,) * (ndim - 1) + (2,))

    def scale(self, zi0: np.ndarray, x0: np.ndarray) -> np.ndarray:
        return self._lifted(zi0, x0.ndim) * x0

    def scale_adjoint(self, zi0: np.ndarray, x0: np.ndarray, g: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        x0_bar = np.sum(np.conj(self._lifted(zi0, x0.ndim)) * g, axis=(0, -1))[..., None]
        zi0_bar = np.sum(np.conj(x0) * g, axis=tuple(range(1, g.ndim - 1)))
        return x0_bar, zi0_bar

    def cascade(self, x: np.ndarray, zi: np.ndarray) -> _Cascade:
        return _Cascade(self.sos, x, -1, zi)

    def run(self, x: np.ndarray, zi: np.ndarray) -> np.ndarray:
        return self.cascade(x, zi).signals[-1]

    def pullback(self, x: np.ndarray, zi: np.ndarray, y: np.ndarray, g: np.ndarray) -> tuple[Any, Any, Any]:
        return sosfilt_pullback_of(self.cascade(x, zi), g, None, True)

    def pushforward(self, x: np.ndarray, zi: np.ndarray, y: np.ndarray, dcoef: Any, dx: Any, dzi: Any) -> Any:
        c = self.cascade(x, zi)
        g = dx
        for k, (bn, an) in enumerate(c.coefficients):
            db = da = None
            if dcoef is not None:
                db, da = dcoef[k, :3], np.concatenate([[0], dcoef[k, 4:]])
            g, _ = rec.pushforward(bn, an, c.signals[k], c.signals[k + 1], db, da, g,
                                   None if dzi is None else dzi[k], False)
        return g

    def zi0_pullback(self, g: np.ndarray) -> np.ndarray:
        return sosfilt_zi_pullback_of(self.sos, g)

    def zi0_pushforward(self, dcoef: Any) -> Any:
        return None if dcoef is None else sosfilt_zi_pushforward_of(self.sos, dcoef)


class _ForwardBackward:
    """The intermediate signals of one ``method="pad"`` zero-phase filtering (time last)."""

    def __init__(self, stage: Any, x: np.ndarray, edge: int, padtype: Any) -> None:
        self.stage, self.edge, self.n = stage, edge, x.shape[-1]
        self.extension = Extension(self.n, edge, edge, PADTYPES[padtype]) if padtype is not None and edge else None
        self.ext = x if self.extension is None else self.extension.extend(x, -1)
        self.x0 = self.ext[..., :1]
        self.s1 = stage.scale(stage.zi0, self.x0)
        self.y1 = stage.run(self.ext, self.s1)
        self.y0 = self.y1[..., -1:]
        self.r = self.y1[..., ::-1]
        self.s2 = stage.scale(stage.zi0, self.y0)
        self.y2 = stage.run(self.r, self.s2)

    def pullback(self, g: np.ndarray) -> tuple[Any, np.ndarray]:
        """The cotangents of the coefficients and of ``x`` (time last) for that of the output."""
        st = self.stage
        full = np.zeros(self.y2.shape, np.result_type(g, self.y2))
        full[..., self.edge:self.edge + self.n] = g
        coef2, r_bar, s2_bar = st.pullback(self.r, self.s2, self.y2, full[..., ::-1])
        y1_bar = np.array(r_bar[..., ::-1])
        y0_bar, zi0_bar = st.scale_adjoint(st.zi0, self.y0, s2_bar)
        y1_bar[..., -1:] += y0_bar
        coef1, ext_bar, s1_bar = st.pullback(self.ext, self.s1, self.y1, y1_bar)
        x0_bar, zi0_bar_1 = st.scale_adjoint(st.zi0, self.x0, s1_bar)
        ext_bar = np.array(ext_bar)
        ext_bar[..., :1] += x0_bar
        coef = coef1 + coef2 + st.zi0_pullback(zi0_bar + zi0_bar_1)
        x_bar = ext_bar if self.extension is None else self.extension.adjoint(ext_bar, -1)[0]
        return coef, x_bar

    def pushforward(self, dcoef: Any, dx: Any) -> Any:
        st = self.stage
        dzi0 = st.zi0_pushforward(dcoef)
        dext = None if dx is None else (dx if self.extension is None else self.extension.extend(dx, -1))
        ds1 = None
        if dzi0 is not None:
            ds1 = st.scale(dzi0, self.x0)
        if dext is not None:
            term = st.scale(st.zi0, dext[..., :1])
            ds1 = term if ds1 is None else ds1 + term
        dy1 = st.pushforward(self.ext, self.s1, self.y1, dcoef, dext, ds1)
        ds2 = None if dzi0 is None else st.scale(dzi0, self.y0)
        dr = None
        if dy1 is not None:
            dr = dy1[..., ::-1]
            term = st.scale(st.zi0, dy1[..., -1:])
            ds2 = term if ds2 is None else ds2 + term
        dy2 = st.pushforward(self.r, self.s2, self.y2, dcoef, dr, ds2)
        return None if dy2 is None else dy2[..., ::-1][..., self.edge:self.edge + self.n]


# ---- Gustafsson's method ---------------------------------------------------------------------------------
class _Gustafsson:
    """``filtfilt(method="gust")`` as a linear map of ``x`` (time last), for fixed coefficients."""

    def __init__(self, b: np.ndarray, a: np.ndarray, n: int, irlen: Any) -> None:
        self.b, self.a, self.n = b, a, n
        order = max(len(b), len(a)) - 1
        self.order = order
        if order == 0:
            return
        m = n if irlen is None or n <= 2 * irlen else irlen
        self.m = m
        zi = np.zeros(order)
        zi[0] = 1
        free = np.zeros((m, order), np.result_type(b, a, np.float64))  # responses to unit initial states
        free[:, 0] = scipy.signal.lfilter(b, a, np.zeros(m), zi=zi)[0]
        for k in range(1, order):
            free[k:, k] = free[:-k, 0]
        smoothed = scipy.signal.lfilter(b, a, free[::-1], axis=0)
        if m == n:
            M = np.hstack((smoothed[::-1] - free, free[::-1] - smoothed))
            self.W = np.hstack((smoothed[::-1], free[::-1]))
        else:
            M = np.zeros((2 * m, 2 * order), free.dtype)
            M[:m, :order] = smoothed[::-1] - free
            M[m:, order:] = free[::-1] - smoothed
            self.W = np.zeros((2 * m, 2 * order), free.dtype)
            self.W[:m, :order] = smoothed[::-1]
            self.W[m:, order:] = free[::-1]
        self.M_pinv = scipy.linalg.pinv(M)

    def _filter(self, x: np.ndarray) -> np.ndarray:
        return scipy.signal.lfilter(self.b, self.a, x, axis=-1)

    def _filter_adjoint(self, g: np.ndarray) -> np.ndarray:
        return scipy.signal.lfilter(np.conj(self.b), np.conj(self.a), g[..., ::-1], axis=-1)[..., ::-1]

    def _edges(self, v: np.ndarray) -> np.ndarray:
        return v if self.m == self.n else np.concatenate((v[..., :self.m], v[..., -self.m:]), axis=-1)

    def _place(self, v: np.ndarray) -> np.ndarray:
        if self.m == self.n:
            return v
        out = np.zeros((*v.shape[:-1], self.n), v.dtype)
        out[..., :self.m] += v[..., :self.m]
        out[..., -self.m:] += v[..., self.m:]
        return out

    def adjoint(self, g: np.ndarray) -> np.ndarray:
        if self.order == 0:
            return np.conj((self.b[0] / self.a[0]) ** 2) * g
        ic_bar = self._edges(g) @ np.conj(self.W)
        delta_bar = self._place(ic_bar @ np.conj(self.M_pinv))
        fb_bar, bf_bar = g - delta_bar, delta_bar
        x_bar = self._filter_adjoint(self._filter_adjoint(fb_bar[..., ::-1])[..., ::-1])
        x_bar = x_bar + self._filter_adjoint(self._filter_adjoint(bf_bar)[..., ::-1])[..., ::-1]
        return x_bar


# ---- the rules -----------------------------------------------------------------------------------------
def _wide(v: np.ndarray) -> np.ndarray:
    """``v`` in double precision at least: the recursions of a derivative lose less in float64 (the
    cotangents are projected back to the inputs' precision)."""
    return v.astype(np.result_type(v, np.float64), copy=False)


def _edge(padtype: Any, padlen: Any, ntaps: int) -> int:
    if padtype is None:
        return 0
    return 3 * ntaps if padlen is None else int(padlen)


def _filtfilt_rules() -> None:
    f = scipy.signal.filtfilt
    name, short, signature = public_name(f), short_name(f), inspect.signature(f)

    def setup(b: Any, a: Any, x: Any, p: dict[str, Any]) -> dict[str, Any]:
        ba, aa = _wide(np.atleast_1d(np.asarray(b))), _wide(np.atleast_1d(np.asarray(a)))
        xa = _wide(np.asarray(x))
        axis = p["axis"] % xa.ndim
        return {"b": ba, "a": aa, "axis": axis, "xm": np.moveaxis(xa, axis, -1)}

    def filtfilt_rrule(b: Any, a: Any, x: Any, *args: Any, **kwargs: Any) -> Any:
        p, call_args, call_kwargs = bind(f, signature, (b, a, x, *args), kwargs)
        y = f(*call_args, **call_kwargs)
        projectors = [cotangent_projector(v) for v in (b, a, x)]
        live = [differentiable(v) for v in (b, a, x)]
        rest = [NO] * len(args)

        def compute(cache: dict[str, Any], dy: np.ndarray) -> dict[str, Any]:
            if cache:
                return cache
            s = setup(b, a, x, p)
            g = np.moveaxis(dy, s["axis"], -1)
            if p["method"] == "gust":
                gust = _Gustafsson(s["b"], s["a"], s["xm"].shape[-1], p["irlen"])
                cache["x"] = projectors[2](np.moveaxis(gust.adjoint(g), -1, s["axis"]))
                cache["b"] = not_implemented(GUST_REASON)
                cache["a"] = not_implemented(GUST_REASON)
                return cache
            bn, an, a0 = rec.normalise(s["b"], s["a"])
            run = _ForwardBackward(_LfilterStage(bn, an), s["xm"], _edge(p["padtype"], p["padlen"], len(bn)),
                                   p["padtype"])
            coef, x_bar = run.pullback(g)
            b_bar, a_bar = rec.unnormalised_cotangents(coef[0], coef[1], bn, an, a0, len(s["b"]), len(s["a"]))
            cache.update(b=projectors[0](b_bar.reshape(np.shape(b))), a=projectors[1](a_bar.reshape(np.shape(a))),
                         x=projectors[2](np.moveaxis(x_bar, -1, s["axis"])))
            return cache

        def filtfilt_pullback(dy: Any) -> tuple[Any, ...]:
            dy = read_cotangent(dy, y, name)
            if passes_through(dy):
                return (NO, *(pr(dy) for pr in projectors), *rest)
            dy = np.asarray(dy)
            cache: dict[str, Any] = {}  # this call's cotangents, computed together on first use

            def part(key: str) -> Thunk:
                return Thunk(lambda: compute(cache, dy)[key])

            return (NO, *(part(k) if live[i] else NO for i, k in enumerate(("b", "a", "x"))), *rest)

        filtfilt_pullback.__name__ = filtfilt_pullback.__qualname__ = f"{short}_pullback"
        return y, filtfilt_pullback

    def filtfilt_frule(tangents: Any, b: Any, a: Any, x: Any, *args: Any, **kwargs: Any) -> Any:
        p, call_args, call_kwargs = bind(f, signature, (b, a, x, *args), kwargs)
        y = f(*call_args, **call_kwargs)
        db, da, dx = (tangent_array(t, v) if differentiable(v) else None for t, v in zip(tangents[1:4], (b, a, x)))
        for d in (db, da, dx):
            if isinstance(d, NotImplementedTangent):
                return y, d
        if db is None and da is None and dx is None:
            return y, ZERO
        s = setup(b, a, x, p)
        if p["method"] == "gust":
            if db is not None or da is not None:
                return y, not_implemented(GUST_REASON)
            return y, output_tangent(f(b, a, dx, *call_args[3:], **call_kwargs), y)
        bn, an, a0 = rec.normalise(s["b"], s["a"])
        dbn, dan = rec.normalised_tangents(None if db is None else np.atleast_1d(db),
                                           None if da is None else np.atleast_1d(da), bn, an, a0,
                                           len(s["b"]), len(s["a"]))
        dcoef = None
        if dbn is not None or dan is not None:
            dcoef = (np.zeros_like(bn) if dbn is None else dbn, np.zeros_like(an) if dan is None else dan)
        run = _ForwardBackward(_LfilterStage(bn, an), s["xm"], _edge(p["padtype"], p["padlen"], len(bn)),
                               p["padtype"])
        dym = run.pushforward(dcoef, None if dx is None else np.moveaxis(dx, s["axis"], -1))
        return y, output_tangent(None if dym is None else np.moveaxis(dym, -1, s["axis"]), y)

    filtfilt_rrule.__name__ = filtfilt_rrule.__qualname__ = f"{short}_rrule"
    filtfilt_frule.__name__ = filtfilt_frule.__qualname__ = f"{short}_frule"
    rrule.register(f, ARRAY, ARRAY, ARRAY, Varargs(object))(filtfilt_rrule)
    frule.register(f, ARRAY, ARRAY, ARRAY, Varargs(object))(filtfilt_frule)


def _sos_taps(sos: np.ndarray) -> int:
    """The ``ntaps`` SciPy's ``sosfiltfilt`` derives its default padding from."""
    return 2 * len(sos) + 1 - min(int((sos[:, 2] == 0).sum()), int((sos[:, 5] == 0).sum()))


def _sosfiltfilt_rules() -> None:
    f = scipy.signal.sosfiltfilt
    name, short, signature = public_name(f), short_name(f), inspect.signature(f)

    def sosfiltfilt_rrule(sos: Any, x: Any, *args: Any, **kwargs: Any) -> Any:
        p, call_args, call_kwargs = bind(f, signature, (sos, x, *args), kwargs)
        y = f(*call_args, **call_kwargs)
        project_sos, project_x = cotangent_projector(sos), cotangent_projector(x)
        live = (differentiable(sos), differentiable(x))
        rest = [NO] * len(args)

        def compute(cache: dict[str, Any], dy: np.ndarray) -> dict[str, Any]:
            if not cache:
                s = _wide(np.atleast_2d(np.asarray(sos)))
                xa = _wide(np.asarray(x))
                axis = p["axis"] % xa.ndim
                run = _ForwardBackward(_SosStage(s), np.moveaxis(xa, axis, -1),
                                       _edge(p["padtype"], p["padlen"], _sos_taps(s)), p["padtype"])
                sos_bar, x_bar = run.pullback(np.moveaxis(dy, axis, -1))
                sos_bar = np.array(sos_bar)
                sos_bar[:, 3] = 0  # SciPy refuses sos[:, 3] != 1
                cache.update(sos=project_sos(sos_bar.reshape(np.shape(sos))),
                             x=project_x(np.moveaxis(x_bar, -1, axis)))
            return cache

        def sosfiltfilt_pullback(dy: Any) -> tuple[Any, ...]:
            dy = read_cotangent(dy, y, name)
            if passes_through(dy):
                return (NO, project_sos(dy), project_x(dy), *rest)
            dy = np.asarray(dy)
            cache: dict[str, Any] = {}  # this call's cotangents, computed together on first use
            return (NO, Thunk(lambda: compute(cache, dy)["sos"]) if live[0] else NO,
                    Thunk(lambda: compute(cache, dy)["x"]) if live[1] else NO, *rest)

        sosfiltfilt_pullback.__name__ = sosfiltfilt_pullback.__qualname__ = f"{short}_pullback"
        return y, sosfiltfilt_pullback

    def sosfiltfilt_frule(tangents: Any, sos: Any, x: Any, *args: Any, **kwargs: Any) -> Any:
        p, call_args, call_kwargs = bind(f, signature, (sos, x, *args), kwargs)
        y = f(*call_args, **call_kwargs)
        dsos = tangent_array(tangents[1], sos) if differentiable(sos) else None
        dx = tangent_array(tangents[2], x) if differentiable(x) else None
        for d in (dsos, dx):
            if isinstance(d, NotImplementedTangent):
                return y, d
        if dsos is None and dx is None:
            return y, ZERO
        s = _wide(np.atleast_2d(np.asarray(sos)))
        if dsos is not None:
            dsos = np.array(np.atleast_2d(dsos))
            dsos[:, 3] = 0
        xa = _wide(np.asarray(x))
        axis = p["axis"] % xa.ndim
        run = _ForwardBackward(_SosStage(s), np.moveaxis(xa, axis, -1),
                               _edge(p["padtype"], p["padlen"], _sos_taps(s)), p["padtype"])
        dym = run.pushforward(dsos, None if dx is None else np.moveaxis(dx, axis, -1))
        return y, output_tangent(None if dym is None else np.moveaxis(dym, -1, axis), y)

    sosfiltfilt_rrule.__name__ = sosfiltfilt_rrule.__qualname__ = f"{short}_rrule"
    sosfiltfilt_frule.__name__ = sosfiltfilt_frule.__qualname__ = f"{short}_frule"
    rrule.register(f, ARRAY, ARRAY, Varargs(object))(sosfiltfilt_rrule)
    frule.register(f, ARRAY, ARRAY, Varargs(object))(sosfiltfilt_frule)


_filtfilt_rules()
_sosfiltfilt_rules()


# ---- sample inputs ----------------------------------------------------------------------------------
@sample_inputs(scipy.signal.filtfilt)
def _filtfilt_samples(rng: np.random.Generator) -> list[Sample]:
    from chainrules.testing import PrimalAndTangent

    b, a = np.array([0.25, 0.3, 0.1]), np.array([1.3, -0.5, 0.15])
    x = rng.standard_normal(24)
    x2 = rng.standard_normal((2, 20))

    def fixed(v: Any) -> PrimalAndTangent:
        return PrimalAndTangent(v, NoTangent())

    return [
        Sample(b, a, x, label="odd padding (default)"),
        Sample(b, a, x2.T, 0, "even", 4, label="axis 0, even padding, padlen by position"),
        Sample(b, a, x2, fkwargs={"padtype": "constant", "padlen": 5}, label="constant padding by keyword"),
        Sample(b, a, x2, -1, None, label="no padding"),
        Sample(b.astype(np.float32), a.astype(np.float32), x.astype(np.float32), label="float32"),
        Sample(b + 0.05j, a, x + 0.5j * x[::-1], label="complex"),
        Sample(fixed(b), fixed(a), x2, fkwargs={"method": "gust"}, label="Gustafsson, x only"),
        Sample(fixed(b), fixed(a), x, -1, "odd", None, "gust", 6, label="Gustafsson with irlen (edges only)"),
    ]


@sample_inputs(scipy.signal.sosfiltfilt)
def _sosfiltfilt_samples(rng: np.random.Generator) -> list[Sample]:
    from chainrules.testing import PrimalAndTangent

    sos = np.array([[0.2, 0.3, 0.1, 1.0, -0.5, 0.2], [1.0, -0.4, 0.2, 1.0, 0.3, 0.1]])
    first_order = np.array([[0.2, 0.3, 0.1, 1.0, -0.5, 0.2], [1.0, -0.4, 0.0, 1.0, 0.3, 0.0]])
    x = rng.standard_normal((2, 22))
    fdm = fixed_leading_one_fdm()
    return [
        Sample(PrimalAndTangent(sos, sos_tangent(sos, rng)), x, label="two sections", fdm=fdm),
        Sample(PrimalAndTangent(first_order, sos_tangent(sos, rng)), x.T, 0, "even", 3,
               label="a first-order section, axis 0, even, padlen", fdm=fdm),
        Sample(PrimalAndTangent(sos, sos_tangent(sos, rng)), x, fkwargs={"padtype": None}, label="no padding",
               fdm=fdm),
        Sample(PrimalAndTangent(sos.astype(np.float32), sos_tangent(sos, rng).astype(np.float32)),
               x.astype(np.float32), label="float32", fdm=fdm),
    ]
