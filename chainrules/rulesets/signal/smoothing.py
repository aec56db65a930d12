"""Smoothing and trend removal: ``savgol_filter`` (every ``mode``) and ``detrend``.

The maths
---------
``savgol_filter(x, window_length, polyorder, deriv, delta, axis, mode, cval)`` (Savitzky &
Golay 1964, Anal. Chem. 36) convolves ``x`` with the fixed least-squares coefficients
``c = savgol_coeffs(...)`` (which scale as ``delta**-deriv``), the signal extended by
``(L - 1)//2`` samples before and ``L//2`` after (``L`` the window length) as
``scipy.ndimage.convolve1d`` extends it: ``"mirror"`` (``numpy.pad``'s ``reflect``),
``"nearest"`` (``edge``), ``"wrap"``, ``"constant"`` (``cval``). It is linear in ``x``:
the pullback is the correlation of the cotangent with ``c``, its extension folded back
(:class:`~chainrules.rulesets.signal._common.Extension`). In ``"interp"`` mode the first and
last ``L//2`` outputs are replaced by the polynomial fitted to the first (last) ``L``
samples: fixed linear maps ``P`` of those samples, whose matrices are ``savgol_filter``
itself applied to the columns of the identity (exact, ``O(L^2)``); their adjoints ``P^T``
add to the ends of ``x_bar``. ``delta`` (by position) has ``dy/d delta = -deriv y / delta``;
``cval`` (by position, ``"constant"`` mode) has ``dy/d cval = c * (the filled samples)``.
The input is real (SciPy casts other types to float64).

``detrend(data, axis, type, bp)`` subtracts the least-squares fit of a constant or of a
piecewise-linear function with breakpoints ``bp``: ``y = (I - P) x`` with ``P`` the
orthogonal projector onto the fitted functions, a symmetric matrix, so the pullback is
``detrend`` of the cotangent with the same arguments (real and complex data alike: the fitted
functions are real). ``overwrite_data`` is accepted and never used.

Examples
--------
>>> import numpy as np, scipy.signal
>>> import chainrules
>>> y, pullback = chainrules.rrule(scipy.signal.detrend, np.array([1.0, 3.0, 2.0, 5.0]))
>>> pullback(np.array([1.0, 0.0, 0.0, 0.0]))[1]         # the first column of I - P
array([ 0.3, -0.4, -0.1,  0.2])
"""

from __future__ import annotations

import inspect
from typing import Any

import numpy as np
import scipy.signal

from chainrules.rulesets.arrays._linear_maps import output_tangent, tangent_array
from chainrules.rulesets.signal._common import NO, Extension, bind, public_name, short_name
from chainrules_core import (
    AbstractZero,
    NotImplementedTangent,
    Sample,
    Varargs,
    ZeroTangent,
    cotangent_projector,
    differentiable,
    frule,
    passes_through,
    read_cotangent,
    rrule,
    sample_inputs,
    unthunk,
)

ARRAY = (np.ndarray, list, tuple, float, int, np.number)
ZERO = ZeroTangent()
NDIMAGE_MODES = {"mirror": "reflect", "nearest": "edge", "wrap": "wrap", "constant": "constant"}
"""``scipy.ndimage`` extension modes as ``numpy.pad`` modes."""


class _Savgol:
    """One ``savgol_filter`` call, time on the last axis."""

    def __init__(self, p: dict[str, Any], n: int) -> None:
        self.L, self.mode, self.n = int(p["window_length"]), p["mode"], n
        self.coeffs = scipy.signal.savgol_coeffs(self.L, p["polyorder"], deriv=p["deriv"], delta=p["delta"])
        before = (self.L - 1) // 2
        self.extension = Extension(n, before, self.L - 1 - before,
                                   "constant" if self.mode == "interp" else NDIMAGE_MODES[self.mode])
        self.half = self.L // 2
        if self.mode == "interp":
            edges = scipy.signal.savgol_filter(np.eye(self.L), self.L, p["polyorder"], p["deriv"], p["delta"],
                                               axis=0, mode="interp")
            self.left, self.right = edges[:self.half], edges[self.L - self.half:]

    def adjoint(self, g: np.ndarray) -> tuple[np.ndarray, Any]:
        """The cotangents of ``x`` and of ``cval`` for the cotangent ``g`` of the output."""
        interior = g
        if self.mode == "interp" and self.half:
            interior = np.array(g)
            interior[..., :self.half] = 0
            interior[..., self.n - self.half:] = 0
        L = self.L
        padded = np.zeros((*g.shape[:-1], self.n + L - 1), np.result_type(g, self.coeffs))
        for j in range(L):  # the full convolution with the reversed coefficients
            padded[..., j:j + g.shape[-1]] += self.coeffs[L - 1 - j] * interior
        x_bar, fill = self.extension.adjoint(padded, -1)
        if self.mode == "interp" and self.half:
            x_bar[..., :L] += g[..., :self.half] @ self.left
            x_bar[..., self.n - L:] += g[..., self.n - self.half:] @ self.right
        return x_bar, fill


def _savgol_rules() -> None:
    f = scipy.signal.savgol_filter
    name, short, signature = public_name(f), short_name(f), inspect.signature(f)

    def savgol_filter_rrule(x: Any, *args: Any, **kwargs: Any) -> Any:
        p, call_args, call_kwargs = bind(f, signature, (x, *args), kwargs)
        y = f(*call_args, **call_kwargs)
        project_x = cotangent_projector(x)
        project_delta = cotangent_projector(args[3]) if len(args) >= 4 else None
        project_cval = cotangent_projector(args[6]) if len(args) >= 7 else None
        live_x = differentiable(x)
        axis = p["axis"] % np.ndim(y)

        def savgol_filter_pullback(dy: Any) -> tuple[Any, ...]:
            dy = read_cotangent(dy, y, name)
            cotangents: list[Any] = [NO, NO, *([NO] * len(args))]
            if passes_through(dy):
                cotangents[1] = project_x(dy)
                for k, project in ((5, project_delta), (8, project_cval)):
                    if project is not None:
                        cotangents[k] = project(dy)
                return tuple(cotangents)
            g = np.moveaxis(np.real(np.asarray(dy)), axis, -1)
            if live_x or project_cval is not None:
                x_bar, fill = _Savgol(p, g.shape[-1]).adjoint(g)
                if live_x:
                    cotangents[1] = project_x(np.moveaxis(x_bar, -1, axis))
                if project_cval is not None:
                    cotangents[8] = project_cval(float(np.sum(fill)) if p["mode"] == "constant" else ZERO)
            if project_delta is not None:
                scale = -p["deriv"] / p["delta"]
                cotangents[5] = project_delta(float(scale * np.sum(np.real(dy) * y)))
            return tuple(cotangents)

        savgol_filter_pullback.__name__ = savgol_filter_pullback.__qualname__ = f"{short}_pullback"
        return y, savgol_filter_pullback

    def savgol_filter_frule(tangents: Any, x: Any, *args: Any, **kwargs: Any) -> Any:
        p, call_args, call_kwargs = bind(f, signature, (x, *args), kwargs)
        y = f(*call_args, **call_kwargs)
        total: Any = None
        dx = tangent_array(tangents[1], x) if differentiable(x) else None
        if isinstance(dx, NotImplementedTangent):
            return y, dx
        extra = list(call_args[1:])
        if dx is not None:
            if len(extra) >= 7:
                extra[6] = 0.0
            total = f(np.real(dx), *extra, **{k: (0.0 if k == "cval" else v) for k, v in call_kwargs.items()})
        if len(args) >= 4 and differentiable(args[3]):
            ddelta = unthunk(tangents[5])
            if isinstance(ddelta, NotImplementedTangent):
                return y, ddelta
            if not isinstance(ddelta, AbstractZero):
                term = y * (-p["deriv"] / p["delta"] * np.real(ddelta))
                total = term if total is None else total + term
        if len(args) >= 7 and differentiable(args[6]) and p["mode"] == "constant":
            dcval = unthunk(tangents[8])
            if isinstance(dcval, NotImplementedTangent):
                return y, dcval
            if not isinstance(dcval, AbstractZero):
                term = f(np.zeros(np.shape(y)), *call_args[1:6], "constant", np.real(dcval))
                total = term if total is None else total + term
        return y, output_tangent(total, y)

    savgol_filter_rrule.__name__ = savgol_filter_rrule.__qualname__ = f"{short}_rrule"
    savgol_filter_frule.__name__ = savgol_filter_frule.__qualname__ = f"{short}_frule"
    rrule.register(f, ARRAY, Varargs(object))(savgol_filter_rrule)
    frule.register(f, ARRAY, Varargs(object))(savgol_filter_frule)


_savgol_rules()


def _detrend_rules() -> None:
    f = scipy.signal.detrend
    name, short, signature = public_name(f), short_name(f), inspect.signature(f)

    def detrend_rrule(data: Any, *args: Any, **kwargs: Any) -> Any:
        _, call_args, call_kwargs = bind(f, signature, (data, *args), kwargs)
        y = f(*call_args, **call_kwargs)
        project = cotangent_projector(data)
        rest = [NO] * len(args)

        def detrend_pullback(dy: Any) -> tuple[Any, ...]:
            dy = read_cotangent(dy, y, name)
            if passes_through(dy) or not differentiable(data):
                return (NO, project(dy) if passes_through(dy) else NO, *rest)
            return (NO, project(f(np.asarray(dy), *call_args[1:], **call_kwargs)), *rest)  # I - P is symmetric

        detrend_pullback.__name__ = detrend_pullback.__qualname__ = f"{short}_pullback"
        return y, detrend_pullback

    def detrend_frule(tangents: Any, data: Any, *args: Any, **kwargs: Any) -> Any:
        _, call_args, call_kwargs = bind(f, signature, (data, *args), kwargs)
        y = f(*call_args, **call_kwargs)
        dx = tangent_array(tangents[1], data) if differentiable(data) else None
        if dx is None or isinstance(dx, NotImplementedTangent):
            return y, output_tangent(dx, y)
        return y, output_tangent(f(dx, *call_args[1:], **call_kwargs), y)

    detrend_rrule.__name__ = detrend_rrule.__qualname__ = f"{short}_rrule"
    detrend_frule.__name__ = detrend_frule.__qualname__ = f"{short}_frule"
    rrule.register(f, ARRAY, Varargs(object))(detrend_rrule)
    frule.register(f, ARRAY, Varargs(object))(detrend_frule)


_detrend_rules()


# ---- sample inputs ----------------------------------------------------------------------------------
@sample_inputs(scipy.signal.savgol_filter)
def _savgol_samples(rng: np.random.Generator) -> list[Sample]:
    x = rng.standard_normal((2, 11))
    out = [Sample(x, 5, 2, label="interp (default)")]
    for mode in ("mirror", "nearest", "wrap", "constant"):
        out.append(Sample(x, 5, 2, 0, 1.0, -1, mode, label=f"{mode}"))
    out += [
        Sample(x, 6, 3, 1, 0.5, label="even window, a derivative, delta by position"),
        Sample(x.T, 7, 2, 2, 0.25, 0, "constant", 1.5, label="axis 0, second derivative, cval by position"),
        Sample(x, 5, 1, fkwargs={"deriv": 1, "delta": 2.0, "mode": "interp"}, label="by keyword"),
        Sample(x.astype(np.float32), 5, 2, label="float32"),
    ]
    return out


@sample_inputs(scipy.signal.detrend)
def _detrend_samples(rng: np.random.Generator) -> list[Sample]:
    x = rng.standard_normal((2, 9))
    return [
        Sample(x, label="linear"),
        Sample(x.T, 0, "constant", label="constant, axis 0"),
        Sample(x, -1, "linear", [3, 6], label="breakpoints by position"),
        Sample(x + 1j * rng.standard_normal(x.shape), fkwargs={"type": "linear", "bp": 4}, label="complex"),
        Sample(x.astype(np.float32), fkwargs={"overwrite_data": True}, label="float32, overwrite_data"),
    ]
