"""Means of ``scipy.stats``: ``gmean``, ``hmean``, ``pmean`` and ``trim_mean``, in the data and the parameters.

Each mean reduces ``a`` over ``axis`` (an int, a tuple or ``None``), with SciPy's
``nan_policy`` (``'omit'`` drops NaN entries, which get a zero cotangent) and ``keepdims``.
With weights ``w`` (broadcast against ``a``) and ``W = sum w`` over a slice:

The maths
---------
* ``gmean``: ``G = exp(sum w log a / W)``. ``dG/da_i = G w_i / (W a_i)``,
  ``dG/dw_i = G (log a_i - log G) / W``. At a zero entry ``G = 0``: the derivative in that
  entry is the one-sided ``+inf`` when it is its slice's only zero (``a_i^(w_i/W)`` has an
  infinite slope at 0), else 0, and the derivatives in the weights are 0.
* ``hmean``: ``H = W / S``, ``S = sum w / a``. ``dH/da_i = H^2 w_i / (W a_i^2)``,
  ``dH/dw_i = (H / W) (1 - H / a_i)``. At a zero entry SciPy returns ``H = 0``; near it
  ``H ~ W a_i / w_i``, so the derivative in that entry is ``W / w_i`` when it is the only
  zero of its slice (0 otherwise), and the weights' derivatives are 0.
* ``pmean`` (power ``p != 0``): ``M = (S / W)^(1/p)``, ``S = sum w a^p``.
  ``dM/da_i = M w_i a_i^(p-1) / S``, ``dM/dw_i = (M / p) (a_i^p / S - 1 / W)`` and
  ``dM/dp = M KL(q || v) / p^2`` with ``v = w / W`` and ``q = w a^p / S``: the derivative
  of the log of a power mean in ``p`` is a Kullback-Leibler divergence over ``p^2`` (Bullen,
  *Handbook of Means and Their Inequalities*, 2003, III.1; it is why power means increase
  with ``p``). It is formed from ``e_i = p (log a_i - sum v log a)`` as
  ``KL = Psi / (1 + Phi) - log1p(Phi)``, ``Phi = sum v (expm1(e) - e)``,
  ``Psi = sum v e expm1(e)``, each accurate to rounding (a series for ``expm1(e) - e``
  when ``|e| < 1/4``), so ``dM/dp`` keeps its relative accuracy as ``p -> 0`` where the
  textbook ``T/S - log(S/W)/p`` cancels completely; ``M`` itself is recomputed as
  ``exp(sum v log a + log1p(Phi)/p)``, which keeps the accuracy SciPy's ``(S/W)^(1/p)``
  loses (``eps / p`` relatively). At ``p = 0`` (SciPy returns ``gmean``) the limit is
  ``dM/dp = M var_v(log a) / 2``.
* ``trim_mean(a, proportiontocut)``: the mean of the entries whose rank in the slice is
  in ``[k, n - k)``, ``k = floor(proportiontocut n)``: their derivative is ``1 / (n - 2k)``,
  the trimmed entries' 0. It is piecewise linear: where entries tie across the cut the
  function has a kink, and the tied entries share the weight of their kept ranks equally
  (the convention of ``np.max`` and ``np.quantile`` in this library: a subgradient that
  does not depend on the order of equal entries). ``proportiontocut`` enters only through
  ``floor``: the function is piecewise constant in it and its derivative is 0 (the right
  derivative at the jumps).

Arguments given by position are differentiated (``a``; ``weights`` of ``gmean``, the
fourth positional argument; ``p`` of ``pmean`` when it is a float), keywords are not:
``hmean`` and ``pmean`` take ``weights`` by keyword only, so their weights are constants.
Integer data get ``NoTangent()``. Complex data are not supported by these means' domains
(SciPy takes the real logarithm and powers).

Examples
--------
>>> import numpy as np, scipy.stats as st
>>> import chainrules
>>> from chainrules import rrule, frule, unthunk
>>> y, pullback = rrule(st.gmean, np.array([1.0, 4.0]))
>>> pullback(1.0)[1]  # G / (n a_i) with G = 2
array([1.  , 0.25])
>>> float(frule((None, None, 1.0), st.pmean, np.array([1.0, 4.0]), 0.0)[1])  # G var(log a) / 2
0.4804530139182014
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import scipy.stats as st

from chainrules.rulesets.stats._calls import ABSENT, bind, primal_args
from chainrules.rulesets.stats._slices import (
    NO,
    Slices,
    argument_cotangent,
    check_nan_policy,
    fit_output,
    tangent_value,
    zero_like,
)
from chainrules_core import (
    NotImplementedTangent,
    Sample,
    Thunk,
    differentiable,
    frule,
    passes_through,
    read_cotangent,
    rrule,
    sample_inputs,
)

__all__ = ["gmean_frule", "gmean_rrule", "hmean_frule", "hmean_rrule", "pmean_frule", "pmean_rrule",
           "trim_mean_frule", "trim_mean_rrule"]


# ---- the maths, on slices -------------------------------------------------------------------------------
class _WeightedSlices:
    """The data of a mean, in the slice layout, with its weights (mask included) and their totals."""

    __slots__ = ("slices", "w", "w_total", "x")

    def __init__(self, a: Any, axis: Any, weights: Any, omit: bool) -> None:
        self.slices = Slices(a, axis, omit, extra_nan=weights)
        x = self.slices.x.real
        w = np.ones_like(x) if weights is None else self.slices.take(weights).astype(np.float64, copy=False)
        self.w = self.slices.masked(w)
        self.x = x
        self.w_total = np.sum(self.w, axis=-1, keepdims=True)


def _sole_zero(x: np.ndarray, w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Where ``x`` is zero (with a positive weight), and whether it is its slice's only such zero."""
    zero = (x == 0) & (w > 0)
    sole = np.sum(zero, axis=-1, keepdims=True) == 1
    return zero, zero & sole


def _gmean_gradients(d: _WeightedSlices, g: np.ndarray, want_w: bool) -> tuple[np.ndarray, np.ndarray | None]:
    """``(dG/da, dG/dw)`` in the slice layout; ``g`` is ``G`` as ``batch + (1,)``."""
    x, w, W = d.x, d.w, d.w_total
    zero, sole = _sole_zero(x, w)
    with np.errstate(divide="ignore", invalid="ignore"):
        da = np.where(zero, np.where(sole, np.inf, 0.0), g * w / (W * x))
        dw = None
        if want_w:
            dw = np.where(g == 0, 0.0, g * (np.log(x) - np.log(g)) / W)
    return d.slices.masked(da), None if dw is None else d.slices.masked(dw)


def _hmean_gradients(d: _WeightedSlices, h: np.ndarray, want_w: bool) -> tuple[np.ndarray, np.ndarray | None]:
    """``(dH/da, dH/dw)`` in the slice layout; ``h`` is ``H`` as ``batch + (1,)``."""
    x, w, W = d.x, d.w, d.w_total
    zero, sole = _sole_zero(x, w)
    with np.errstate(divide="ignore", invalid="ignore"):
        da = np.where(zero, np.where(sole, W / w, 0.0), h * h * w / (W * x * x))
        dw = None
        if want_w:
            dw = np.where(h == 0, 0.0, (h / W) * (1.0 - h / x))
    return d.slices.masked(da), None if dw is None else d.slices.masked(dw)


def _expm1_minus(e: np.ndarray) -> np.ndarray:
    """``expm1(e) - e`` to full relative accuracy (its Taylor series where the difference cancels)."""
    small = np.abs(e) < 0.25
    es = np.where(small, e, 0.0)
    series = np.zeros_like(es)
    term = es * es / 2.0
    for k in range(3, 16):  # |e| < 1/4: the 14th term is below 2^-53 of the first
        series += term
        term = term * es / k
    with np.errstate(over="ignore", invalid="ignore"):
        direct = np.expm1(e) - e
    return np.where(small, series, direct)


def _pmean_parts(d: _WeightedSlices, p: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(M, e, v)``: the power mean computed without SciPy's ``eps / p`` loss, the scaled centred logs
    ``e = p (log a - sum v log a)`` and the normalised weights ``v``.

    ``log M = sum v log a + log1p(Phi) / p`` with ``Phi = sum v (expm1(e) - e)`` (exact: the
    mean of ``a^p`` is ``exp(p sum v log a) (1 + Phi)``), so ``M`` keeps full relative accuracy as
    ``p -> 0``, where ``(sum v a^p)^(1/p)`` loses ``eps / p``.
    """
    v = d.w / d.w_total
    with np.errstate(divide="ignore", invalid="ignore"):
        logs = d.slices.masked(np.log(d.x))
        centre = np.sum(v * logs, axis=-1, keepdims=True)
        e = d.slices.masked(p * (logs - centre))
        if p == 0:
            return np.exp(centre), e, v
        phi = np.sum(v * _expm1_minus(e), axis=-1, keepdims=True)
        return np.exp(centre + np.log1p(phi) / p), e, v


def _pmean_p_gradient(d: _WeightedSlices, m: np.ndarray, p: float) -> np.ndarray:
    """``dM/dp`` as ``batch + (1,)``: ``M KL(q || v) / p^2`` (``M var_v(log a) / 2`` at ``p = 0``).

    ``m`` (SciPy's value) is used where the power mean is not finite and positive; elsewhere
    the accurate ``M`` of :func:`_pmean_parts`.
    """
    accurate, e, v = _pmean_parts(d, p)
    with np.errstate(divide="ignore", invalid="ignore"):
        m = np.where(np.isfinite(accurate) & (accurate > 0), accurate, m)
        if p == 0:
            centred = d.slices.masked(np.log(d.x)) - np.log(accurate)
            return m * np.sum(v * d.slices.masked(centred) ** 2, axis=-1, keepdims=True) / 2.0
        phi = np.sum(v * _expm1_minus(e), axis=-1, keepdims=True)
        psi = np.sum(v * e * np.expm1(e), axis=-1, keepdims=True)
        kl = psi / (1.0 + phi) - np.log1p(phi)
        return m * kl / (p * p)


def _pmean_gradients(d: _WeightedSlices, m: np.ndarray, p: float,
                     want_w: bool) -> tuple[np.ndarray, np.ndarray | None]:
    """``(dM/da, dM/dw)`` in the slice layout for ``p != 0``."""
    x, w, W = d.x, d.w, d.w_total
    accurate, _, _ = _pmean_parts(d, p)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        m = np.where(np.isfinite(accurate) & (accurate > 0), accurate, m)
        xp = x ** p
        s = np.sum(w * xp, axis=-1, keepdims=True)
        da = m * w * x ** (p - 1.0) / s
        dw = (m / p) * (xp / s - 1.0 / W) if want_w else None
    return d.slices.masked(da), None if dw is None else d.slices.masked(dw)


# ---- registration helpers -------------------------------------------------------------------------------
def _pass_on(dy: Any, *args: Any) -> tuple[Any, ...]:
    """Cotangents of ``args`` when the output cotangent is a zero or not implemented."""
    if isinstance(dy, NotImplementedTangent):
        return tuple(dy if differentiable(a) else NO for a in args)
    return tuple(zero_like(a) if differentiable(a) else NO for a in args)


def _lazy(several: bool, compute: Callable[[], Any]) -> Any:
    return Thunk(compute) if several else compute()


def _pull_data(d: _WeightedSlices, grad: np.ndarray, dy: np.ndarray, x: Any) -> Any:
    return argument_cotangent(x, d.slices.restore(grad * dy))


# ---- gmean ------------------------------------------------------------------------------------------------
_GMEAN = ("a", "axis", "dtype", "weights")
_GMEAN_DEFAULTS = {"axis": 0, "dtype": None, "weights": None, "nan_policy": "propagate", "keepdims": False}


def gmean_rrule(a: Any, axis: Any = ABSENT, dtype: Any = ABSENT, weights: Any = ABSENT, /,
                **kwargs: Any) -> tuple[Any, Callable[[Any], tuple[Any, ...]]]:
    """Reverse rule of ``scipy.stats.gmean`` (see the module docstring)."""
    y = st.gmean(a, *primal_args(axis, dtype, weights), **kwargs)
    b = bind(_GMEAN, _GMEAN_DEFAULTS, (a, axis, dtype, weights), kwargs)
    w = b["weights"]
    w_arg = weights if b.by_position("weights") else None
    diff_a, diff_w = differentiable(a), differentiable(w_arg)
    omit = check_nan_policy(st.gmean, b["nan_policy"])

    def gmean_pullback(dy: Any) -> tuple[Any, ...]:
        dy = read_cotangent(dy, y, st.gmean)
        if passes_through(dy):
            da, dw = _pass_on(dy, a, w_arg)
            return NO, da, NO, NO, dw
        d = _WeightedSlices(a, b["axis"], w, omit)
        dyl = d.slices.lift(dy)
        grads: dict[str, Any] = {}

        def both() -> tuple[np.ndarray, np.ndarray | None]:
            if not grads:
                grads["v"] = _gmean_gradients(d, d.slices.lift(y), diff_w)
            return grads["v"]

        def cot_a() -> Any:
            return _pull_data(d, both()[0], dyl, a)

        def cot_w() -> Any:
            return argument_cotangent(w_arg, d.slices.restore(both()[1] * dyl))

        several = diff_a and diff_w
        return (NO, _lazy(several, cot_a) if diff_a else NO, NO, NO,
                _lazy(several, cot_w) if diff_w else NO)

    return y, gmean_pullback


def gmean_frule(tangents: tuple[Any, ...], a: Any, axis: Any = ABSENT, dtype: Any = ABSENT, weights: Any = ABSENT,
                /, **kwargs: Any) -> tuple[Any, Any]:
    """Forward rule of ``scipy.stats.gmean``."""
    y = st.gmean(a, *primal_args(axis, dtype, weights), **kwargs)
    b = bind(_GMEAN, _GMEAN_DEFAULTS, (a, axis, dtype, weights), kwargs)
    da = tangent_value(tangents[1]) if differentiable(a) else None
    dw = tangent_value(tangents[4]) if b.by_position("weights") and differentiable(weights) else None
    if da is None and dw is None:
        return y, fit_output(None, y)
    for t in (da, dw):
        if isinstance(t, NotImplementedTangent):
            return y, t
    d = _WeightedSlices(a, b["axis"], b["weights"], check_nan_policy(st.gmean, b["nan_policy"]))
    ga, gw = _gmean_gradients(d, d.slices.lift(y), dw is not None)
    total = _push(d, ga, da) + (_push(d, gw, dw) if gw is not None else 0.0)
    return y, fit_output(total, y)


def _push(d: _WeightedSlices, grad: np.ndarray | None, dx: Any) -> Any:
    """The tangent of the output from a data-like argument's tangent ``dx`` (0 for ``None``)."""
    if dx is None or grad is None:
        return 0.0
    with np.errstate(invalid="ignore"):
        return np.sum(grad * d.slices.take(dx).real, axis=-1)


# ---- hmean -----------------------------------------------------------------------------------------------
_HMEAN = ("a", "axis", "dtype")
_HMEAN_DEFAULTS = {"axis": 0, "dtype": None, "weights": None, "nan_policy": "propagate", "keepdims": False}


def hmean_rrule(a: Any, axis: Any = ABSENT, dtype: Any = ABSENT, /,
                **kwargs: Any) -> tuple[Any, Callable[[Any], tuple[Any, ...]]]:
    """Reverse rule of ``scipy.stats.hmean`` (``weights`` is keyword-only: a constant)."""
    y = st.hmean(a, *primal_args(axis, dtype), **kwargs)
    b = bind(_HMEAN, _HMEAN_DEFAULTS, (a, axis, dtype), kwargs)
    omit = check_nan_policy(st.hmean, b["nan_policy"])

    def hmean_pullback(dy: Any) -> tuple[Any, ...]:
        dy = read_cotangent(dy, y, st.hmean)
        if passes_through(dy):
            return NO, _pass_on(dy, a)[0], NO, NO
        d = _WeightedSlices(a, b["axis"], b["weights"], omit)
        ga, _ = _hmean_gradients(d, d.slices.lift(y), False)
        return NO, _pull_data(d, ga, d.slices.lift(dy), a), NO, NO

    return y, hmean_pullback


def hmean_frule(tangents: tuple[Any, ...], a: Any, axis: Any = ABSENT, dtype: Any = ABSENT, /,
                **kwargs: Any) -> tuple[Any, Any]:
    """Forward rule of ``scipy.stats.hmean``."""
    y = st.hmean(a, *primal_args(axis, dtype), **kwargs)
    b = bind(_HMEAN, _HMEAN_DEFAULTS, (a, axis, dtype), kwargs)
    da = tangent_value(tangents[1]) if differentiable(a) else None
    if da is None or isinstance(da, NotImplementedTangent):
        return y, fit_output(da, y)
    d = _WeightedSlices(a, b["axis"], b["weights"], check_nan_policy(st.hmean, b["nan_policy"]))
    ga, _ = _hmean_gradients(d, d.slices.lift(y), False)
    return y, fit_output(_push(d, ga, da), y)


# ---- pmean -----------------------------------------------------------------------------------------------
_PMEAN_DEFAULTS = {"axis": 0, "dtype": None, "weights": None, "nan_policy": "propagate", "keepdims": False}


def pmean_rrule(a: Any, p: Any, /, **kwargs: Any) -> tuple[Any, Callable[[Any], tuple[Any, ...]]]:
    """Reverse rule of ``scipy.stats.pmean`` (``p`` by position: differentiated when a float)."""
    y = st.pmean(a, p, **kwargs)
    b = bind(("a", "p"), _PMEAN_DEFAULTS, (a, p), kwargs)
    omit = check_nan_policy(st.pmean, b["nan_policy"])
    diff_a, diff_p = differentiable(a), differentiable(p)
    power = float(p)

    def pmean_pullback(dy: Any) -> tuple[Any, ...]:
        dy = read_cotangent(dy, y, st.pmean)
        if passes_through(dy):
            return (NO, *_pass_on(dy, a, p))
        d = _WeightedSlices(a, b["axis"], b["weights"], omit)
        m, dyl = d.slices.lift(y), d.slices.lift(dy)

        def cot_a() -> Any:
            if power == 0:
                ga, _ = _gmean_gradients(d, m, False)
            else:
                ga, _ = _pmean_gradients(d, m, power, False)
            return _pull_data(d, ga, dyl, a)

        def cot_p() -> Any:
            return argument_cotangent(p, np.sum(_pmean_p_gradient(d, m, power) * dyl))

        several = diff_a and diff_p
        return NO, _lazy(several, cot_a) if diff_a else NO, _lazy(several, cot_p) if diff_p else NO

    return y, pmean_pullback


def pmean_frule(tangents: tuple[Any, ...], a: Any, p: Any, /, **kwargs: Any) -> tuple[Any, Any]:
    """Forward rule of ``scipy.stats.pmean``."""
    y = st.pmean(a, p, **kwargs)
    b = bind(("a", "p"), _PMEAN_DEFAULTS, (a, p), kwargs)
    da = tangent_value(tangents[1]) if differentiable(a) else None
    dp = tangent_value(tangents[2]) if differentiable(p) else None
    if da is None and dp is None:
        return y, fit_output(None, y)
    for t in (da, dp):
        if isinstance(t, NotImplementedTangent):
            return y, t
    d = _WeightedSlices(a, b["axis"], b["weights"], check_nan_policy(st.pmean, b["nan_policy"]))
    m = d.slices.lift(y)
    power = float(p)
    total: Any = 0.0
    if da is not None:
        ga = _gmean_gradients(d, m, False)[0] if power == 0 else _pmean_gradients(d, m, power, False)[0]
        total = _push(d, ga, da)
    if dp is not None:
        total = total + _pmean_p_gradient(d, m, power)[..., 0] * float(np.real(dp))
    return y, fit_output(total, y)


# ---- trim_mean -------------------------------------------------------------------------------------------
_TRIM = ("a", "proportiontocut", "axis")
_TRIM_DEFAULTS = {"axis": 0, "nan_policy": "propagate", "keepdims": False}


def _trim_gradient(a: Any, proportion: float, axis: Any, omit: bool) -> tuple[Slices, np.ndarray]:
    """``d trim_mean / da`` in the slice layout: ``1 / (n - 2k)`` on the kept ranks.

    Entries tied across the cut share the weight of their kept ranks equally (the extrema
    convention of :mod:`chainrules.rulesets.reductions.extrema`), so the result does not
    depend on the order of equal entries.
    """
    slices = Slices(a, axis, omit)
    x = slices.x.real if slices.mask is None else np.where(slices.mask, slices.x.real, np.nan)
    m = x.shape[-1]
    n = np.broadcast_to(slices.n, slices.batch + (1,))
    cut = np.floor(proportion * n).astype(np.int64)
    order = np.argsort(x, axis=-1, kind="stable")  # NaN (dropped entries) sorted last
    xs = np.take_along_axis(x, order, axis=-1)
    ranks = np.arange(m)
    kept = (ranks >= cut) & (ranks < n - cut)
    starts = np.ones(xs.shape, dtype=bool)
    starts[..., 1:] = xs[..., 1:] != xs[..., :-1]  # NaN != NaN: each dropped entry is its own group
    group = np.cumsum(starts, axis=-1) - 1 + m * np.arange(xs.size // max(m, 1)).reshape(xs.shape[:-1] + (1,))
    flat = group.ravel()
    size = np.bincount(flat, minlength=xs.size)
    kept_in_group = np.bincount(flat, weights=kept.ravel().astype(np.float64), minlength=xs.size)
    with np.errstate(divide="ignore", invalid="ignore"):
        share = (kept_in_group[flat] / size[flat]).reshape(xs.shape) / (n - 2 * cut)
    grad = np.empty_like(share)
    np.put_along_axis(grad, order, share, axis=-1)
    return slices, grad


def trim_mean_rrule(a: Any, proportiontocut: Any, axis: Any = ABSENT, /,
                    **kwargs: Any) -> tuple[Any, Callable[[Any], tuple[Any, ...]]]:
    """Reverse rule of ``scipy.stats.trim_mean`` (piecewise linear in ``a``, constant in the proportion)."""
    y = st.trim_mean(a, proportiontocut, *primal_args(axis), **kwargs)
    b = bind(_TRIM, _TRIM_DEFAULTS, (a, proportiontocut, axis), kwargs)
    omit = check_nan_policy(st.trim_mean, b["nan_policy"])

    def trim_mean_pullback(dy: Any) -> tuple[Any, ...]:
        dy = read_cotangent(dy, y, st.trim_mean)
        zero_p = zero_like(proportiontocut)
        if passes_through(dy):
            return NO, _pass_on(dy, a)[0], zero_p, NO
        if not differentiable(a):
            return NO, NO, zero_p, NO
        slices, grad = _trim_gradient(a, float(proportiontocut), b["axis"], omit)
        return NO, argument_cotangent(a, slices.restore(grad * slices.lift(dy))), zero_p, NO

    return y, trim_mean_pullback


def trim_mean_frule(tangents: tuple[Any, ...], a: Any, proportiontocut: Any, axis: Any = ABSENT, /,
                    **kwargs: Any) -> tuple[Any, Any]:
    """Forward rule of ``scipy.stats.trim_mean``."""
    y = st.trim_mean(a, proportiontocut, *primal_args(axis), **kwargs)
    b = bind(_TRIM, _TRIM_DEFAULTS, (a, proportiontocut, axis), kwargs)
    da = tangent_value(tangents[1]) if differentiable(a) else None
    if isinstance(da, NotImplementedTangent):
        return y, da
    if da is None:
        dp = tangent_value(tangents[2]) if differentiable(proportiontocut) else None
        return y, fit_output(None if dp is None else np.zeros(np.shape(y)), y)
    slices, grad = _trim_gradient(a, float(proportiontocut), b["axis"], check_nan_policy(st.trim_mean,
                                                                                          b["nan_policy"]))
    return y, fit_output(np.sum(grad * slices.masked(slices.take(da).real), axis=-1), y)


for _f, _r, _fr in ((st.gmean, gmean_rrule, gmean_frule), (st.hmean, hmean_rrule, hmean_frule),
                    (st.pmean, pmean_rrule, pmean_frule), (st.trim_mean, trim_mean_rrule, trim_mean_frule)):
    rrule.register(_f)(_r)
    frule.register(_f)(_fr)


# ---- sample inputs --------------------------------------------------------------------------------------
def _positive(shape: tuple[int, ...], rng: np.random.Generator) -> np.ndarray:
    return 0.5 + 2.0 * rng.random(shape)


def _with_nans(a: np.ndarray) -> np.ndarray:
    """``a`` (3 x 4) with one or two NaN entries in each row and each column (``nan_policy='omit'``)."""
    out = a.copy()
    out[[0, 1, 2, 2], [0, 1, 2, 3]] = np.nan
    return out


@sample_inputs(st.gmean)
def _gmean_samples(rng: np.random.Generator) -> list[Sample]:
    a = _positive((3, 4), rng)
    w = 0.5 + rng.random((3, 4))
    return [Sample(a), Sample(a.astype(np.float32), label="float32"),
            Sample(a, 1, None, w, label="weights by position (differentiated)"),
            Sample(a, 0, None, w[0], label="weights broadcast along the rows"),
            Sample(a, fkwargs={"axis": None, "weights": w}, label="weights by keyword (constant), axis=None"),
            Sample(a, (0, 1), fkwargs={"keepdims": True}, label="tuple axis, keepdims"),
            Sample(_with_nans(a), 1, fkwargs={"nan_policy": "omit"}, label="nan_policy='omit'"),
            Sample(2.5, label="a scalar")]


@sample_inputs(st.hmean)
def _hmean_samples(rng: np.random.Generator) -> list[Sample]:
    a = _positive((3, 4), rng)
    return [Sample(a), Sample(a.astype(np.float32), label="float32"), Sample(a, 1, label="axis by position"),
            Sample(a, fkwargs={"axis": None, "weights": 0.5 + rng.random((3, 4))}, label="weights (a constant)"),
            Sample(_with_nans(a), 1, fkwargs={"nan_policy": "omit"}, label="nan_policy='omit'")]


@sample_inputs(st.pmean)
def _pmean_samples(rng: np.random.Generator) -> list[Sample]:
    a = _positive((3, 4), rng)
    return [Sample(a, 1.7), Sample(a, -0.8, label="negative p"), Sample(a, 0.0, label="p = 0 (the geometric mean)"),
            Sample(a, 1e-3, label="p near 0"), Sample(a, 2, label="integer p (NoTangent)"),
            Sample(a.astype(np.float32), 1.5, label="float32"),
            Sample(a, 2.5, fkwargs={"axis": 1, "weights": 0.5 + rng.random(4)}, label="weights (a constant)"),
            Sample(_with_nans(a), 0.5, fkwargs={"axis": 1, "nan_policy": "omit"},
                   label="nan_policy='omit'")]


@sample_inputs(st.trim_mean)
def _trim_mean_samples(rng: np.random.Generator) -> list[Sample]:
    a = rng.standard_normal((7, 3))
    b = a.copy()
    b[[0, 3, 4], [0, 1, 1]] = np.nan
    return [Sample(a, 0.2), Sample(a, 0.3, 1, label="axis by position"),
            Sample(a.astype(np.float32), 0.1, fkwargs={"axis": None}, label="float32, axis=None"),
            Sample(b, 0.25, fkwargs={"nan_policy": "omit"}, label="nan_policy='omit'")]
