"""The multinomial distribution: ``multinomial.logpmf``, ``.pmf``, ``.mean``, ``.cov`` and ``.entropy``, in ``p``.

The counts ``x`` and the number of trials ``n`` are integers: ``NoTangent()``.

The maths
---------
``log pmf = lgamma(n + 1) + sum_i (x_i log p_i - lgamma(x_i + 1))``: the partials in ``p``
are ``x_i / p_i`` (0 where ``x_i = 0``, SciPy's ``xlogy``). ``mean = n p``;
``cov = n (diag(p) - p p^T)``; ``entropy = n sum entr(p_i) - lgamma(n + 1) +
sum_i E[lgamma(X_i + 1)]`` with ``X_i ~ Binomial(n, p_i)``, whose partial in ``p_i`` is
``n (-log p_i - 1) + n E[log(Y + 1)]``, ``Y ~ Binomial(n - 1, p_i)`` (from
``d/dp b(k; n, p) = n (b(k - 1; n - 1, p) - b(k; n - 1, p))``, summed by parts).

**The last probability.** ``p`` lives on the simplex, and SciPy 1.17 enforces it by
replacing ``p_K`` with ``1 - sum_(i<K) p_i`` whenever a row is off the simplex by more
than ``10 eps``, which every perturbation of ``p`` is. The function SciPy computes is
therefore one of ``p_1 .. p_(K-1)`` alone, and its derivative is the chain rule through
that completion: ``p_bar_i = g_i - g_K`` for ``i < K`` and ``p_bar_K = 0`` (``g`` the
partials above, ``p_K`` read as ``1 - sum_(i<K) p_i``); a tangent's last entry is replaced
by ``-sum_(i<K) dp_i``. Along the directions that stay on the simplex (the only ones in
which ``p`` can move) this is the plain gradient ``g``, and the two differ by a multiple of
``(1, ..., 1)``, which every parameterisation of the simplex (``softmax``, ``w / sum(w)``)
annihilates.

Examples
--------
>>> import numpy as np
>>> from scipy.stats import multinomial
>>> import chainrules
>>> from chainrules import rrule
>>> y, pullback = rrule(multinomial.logpmf, np.array([2, 1, 1]), 4, np.array([0.5, 0.25, 0.25]))
>>> pullback(1.0)[4]  # x_i / p_i - x_K / p_K, and 0 for p_K
array([0., 0., 0.])
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import scipy.stats
from scipy.stats import multinomial
from scipy.stats._multivariate import multinomial_gen

from chainrules.rulesets.stats._slices import NO, argument_cotangent, fit_output, tangent_value, zero_like
from chainrules_core import (
    NotImplementedTangent,
    Sample,
    differentiable,
    frule,
    passes_through,
    read_cotangent,
    rrule,
    sample_inputs,
)

__all__ = ["completed", "cotangent_through_completion", "tangent_through_completion"]


def completed(p: Any) -> np.ndarray:
    """``p`` (float64) with its last entry replaced by ``1 - sum`` of the others, as SciPy evaluates it."""
    q = np.array(p, dtype=np.float64, copy=True)
    q[..., -1] = 1.0 - np.sum(q[..., :-1], axis=-1)
    return q


def cotangent_through_completion(g: np.ndarray) -> np.ndarray:
    """``g_i - g_K`` for ``i < K``, 0 for the last entry (the chain rule through ``p_K = 1 - sum p_i``)."""
    out = g - g[..., -1:]
    out[..., -1] = 0.0
    return out


def tangent_through_completion(t: Any) -> np.ndarray:
    """A tangent of ``p`` with its last entry replaced by ``-sum`` of the others."""
    q = np.array(t, dtype=np.float64, copy=True)
    q[..., -1] = -np.sum(q[..., :-1], axis=-1)
    return q


def _logpmf_partials(x: Any, p: Any) -> np.ndarray:
    """``x_i / p_i`` (0 where ``x_i = 0``), broadcast over the points."""
    xa = np.asarray(x, dtype=np.float64)
    q = completed(p)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(xa == 0, 0.0, xa / q)


def _entropy_partials(n: Any, p: Any) -> np.ndarray:
    """``n (-log p_i - 1) + n E[log(Y + 1)]``, ``Y ~ Binomial(n - 1, p_i)``."""
    q = completed(p)
    nn = np.asarray(n, dtype=np.int64)[..., np.newaxis]
    top = int(np.max(nn)) if nn.size else 0
    k = np.arange(max(top, 1)).reshape((-1,) + (1,) * np.broadcast(nn, q).ndim)
    weights = scipy.stats.binom.pmf(k, nn - 1, q)
    expected = np.sum(weights * np.log(k + 1.0), axis=0)
    with np.errstate(divide="ignore"):
        return nn * (-np.log(q) - 1.0) + nn * expected


def _pass(dy: Any, p: Any) -> Any:
    if not differentiable(p):
        return NO
    return dy if isinstance(dy, NotImplementedTangent) else zero_like(p)


def _mass_rules(method: Callable[..., Any], short: str, exp_output: bool) -> tuple[Callable[..., Any], ...]:
    def mass_rrule(dist: multinomial_gen, x: Any, n: Any, p: Any, /) -> tuple[Any, Callable[..., Any]]:
        y = method(dist, x, n, p)

        def multinomial_pullback(dy: Any) -> tuple[Any, ...]:
            dy = read_cotangent(dy, y, method)
            if passes_through(dy) or not differentiable(p):
                return NO, NO, NO, NO, _pass(dy, p)
            w = np.asarray(dy, dtype=np.float64) * (np.asarray(y) if exp_output else 1.0)
            with np.errstate(invalid="ignore"):
                w = np.where(np.isneginf(np.asarray(y, dtype=np.float64)) if not exp_output else False, 0.0, w)
            g = _logpmf_partials(x, p) * np.asarray(w)[..., np.newaxis]
            return NO, NO, NO, NO, argument_cotangent(p, cotangent_through_completion(
                _sum_to(g, np.shape(p))))

        multinomial_pullback.__name__ = f"{short}_pullback"
        return y, multinomial_pullback

    def mass_frule(tangents: tuple[Any, ...], dist: multinomial_gen, x: Any, n: Any, p: Any, /) -> tuple[Any, Any]:
        y = method(dist, x, n, p)
        dp = tangent_value(tangents[4]) if differentiable(p) else None
        if dp is None or isinstance(dp, NotImplementedTangent):
            return y, fit_output(dp, y)
        t = tangent_through_completion(np.broadcast_to(dp, np.shape(p)))
        dlog = np.sum(_logpmf_partials(x, p) * t, axis=-1)
        if not exp_output:
            dlog = np.where(np.isneginf(np.asarray(y, dtype=np.float64)), 0.0, dlog)
        return y, fit_output(dlog * (np.asarray(y) if exp_output else 1.0), y)

    mass_rrule.__name__ = mass_rrule.__qualname__ = f"{short}_rrule"
    mass_frule.__name__ = mass_frule.__qualname__ = f"{short}_frule"
    rrule.register(method, multinomial_gen)(mass_rrule)
    frule.register(method, multinomial_gen)(mass_frule)
    return mass_rrule, mass_frule


def _sum_to(g: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """``g`` summed over the leading axes broadcasting added, down to ``shape``."""
    while g.ndim > len(shape):
        g = g.sum(axis=0)
    axes = tuple(i for i, (a, b) in enumerate(zip(g.shape, shape)) if b == 1 and a != 1)
    return np.sum(g, axis=axes, keepdims=True) if axes else g


logpmf_rrule, logpmf_frule = _mass_rules(multinomial_gen.logpmf, "multinomial_logpmf", False)
pmf_rrule, pmf_frule = _mass_rules(multinomial_gen.pmf, "multinomial_pmf", True)


# ---- mean, cov, entropy: functions of (n, p) ---------------------------------------------------------------
def _mean_pullback(n: Any, p: Any, y: Any, g: np.ndarray) -> np.ndarray:
    return np.asarray(n, dtype=np.float64)[..., np.newaxis] * g


def _mean_pushforward(n: Any, p: Any, y: Any, t: np.ndarray) -> np.ndarray:
    return np.asarray(n, dtype=np.float64)[..., np.newaxis] * t


def _cov_pullback(n: Any, p: Any, y: Any, g: np.ndarray) -> np.ndarray:
    q = completed(p)
    nn = np.asarray(n, dtype=np.float64)[..., np.newaxis]
    diag = np.diagonal(g, axis1=-2, axis2=-1)
    return nn * (diag - np.einsum("...ij,...j->...i", g + np.swapaxes(g, -1, -2), q))


def _cov_pushforward(n: Any, p: Any, y: Any, t: np.ndarray) -> np.ndarray:
    q = completed(p)
    nn = np.asarray(n, dtype=np.float64)[..., np.newaxis, np.newaxis]
    outer = t[..., :, np.newaxis] * q[..., np.newaxis, :]
    diag = np.zeros(np.broadcast_shapes(outer.shape, nn.shape))
    idx = np.arange(q.shape[-1])
    diag[..., idx, idx] = t
    return nn * (diag - outer - np.swapaxes(outer, -1, -2))


def _entropy_pullback(n: Any, p: Any, y: Any, g: np.ndarray) -> np.ndarray:
    return _entropy_partials(n, p) * g[..., np.newaxis]


def _entropy_pushforward(n: Any, p: Any, y: Any, t: np.ndarray) -> np.ndarray:
    return np.sum(_entropy_partials(n, p) * t, axis=-1)


def _parameter_rules(method: Callable[..., Any], short: str, pullback_of: Callable[..., np.ndarray],
                     pushforward_of: Callable[..., np.ndarray]) -> tuple[Callable[..., Any], ...]:
    def parameter_rrule(dist: multinomial_gen, n: Any, p: Any, /) -> tuple[Any, Callable[..., Any]]:
        y = method(dist, n, p)

        def multinomial_parameter_pullback(dy: Any) -> tuple[Any, ...]:
            dy = read_cotangent(dy, y, method)
            if passes_through(dy) or not differentiable(p):
                return NO, NO, NO, _pass(dy, p)
            g = pullback_of(n, p, y, np.asarray(dy, dtype=np.float64))
            return NO, NO, NO, argument_cotangent(p, cotangent_through_completion(_sum_to(g, np.shape(p))))

        multinomial_parameter_pullback.__name__ = f"{short}_pullback"
        return y, multinomial_parameter_pullback

    def parameter_frule(tangents: tuple[Any, ...], dist: multinomial_gen, n: Any, p: Any, /) -> tuple[Any, Any]:
        y = method(dist, n, p)
        dp = tangent_value(tangents[3]) if differentiable(p) else None
        if dp is None or isinstance(dp, NotImplementedTangent):
            return y, fit_output(dp, y)
        t = tangent_through_completion(np.broadcast_to(dp, np.shape(p)))
        return y, fit_output(np.broadcast_to(pushforward_of(n, p, y, t), np.shape(y)), y)

    parameter_rrule.__name__ = parameter_rrule.__qualname__ = f"{short}_rrule"
    parameter_frule.__name__ = parameter_frule.__qualname__ = f"{short}_frule"
    rrule.register(method, multinomial_gen)(parameter_rrule)
    frule.register(method, multinomial_gen)(parameter_frule)
    return parameter_rrule, parameter_frule


mean_rrule, mean_frule = _parameter_rules(multinomial_gen.mean, "multinomial_mean", _mean_pullback,
                                          _mean_pushforward)
cov_rrule, cov_frule = _parameter_rules(multinomial_gen.cov, "multinomial_cov", _cov_pullback, _cov_pushforward)
entropy_rrule, entropy_frule = _parameter_rules(multinomial_gen.entropy, "multinomial_entropy", _entropy_pullback,
                                                _entropy_pushforward)
__all__ += ["cov_frule", "cov_rrule", "entropy_frule", "entropy_rrule", "logpmf_frule", "logpmf_rrule",
            "mean_frule", "mean_rrule", "pmf_frule", "pmf_rrule"]


# ---- sample inputs --------------------------------------------------------------------------------------
_P = np.array([0.2, 0.5, 0.3])


@sample_inputs(multinomial_gen.logpmf, multinomial_gen.pmf)
def _mass_samples(rng: np.random.Generator) -> list[Sample]:
    x = np.array([[1, 3, 2], [0, 4, 2]])
    p2 = np.array([[0.2, 0.5, 0.3], [0.6, 0.1, 0.3]])
    return [Sample(multinomial, x[0], 6, _P), Sample(multinomial, x, 6, _P, label="two draws"),
            Sample(multinomial, x, 6, p2, label="a row of p per draw"),
            Sample(multinomial, x[1], 6, _P, label="a zero count"),
            Sample(multinomial, x[0], 6, _P.astype(np.float32), label="float32", rtol=1e-3)]


@sample_inputs(multinomial_gen.mean, multinomial_gen.cov, multinomial_gen.entropy)
def _parameter_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(multinomial, 6, _P), Sample(multinomial, np.array([3, 5]), _P, label="several n"),
            Sample(multinomial, 4, np.array([[0.2, 0.5, 0.3], [0.6, 0.1, 0.3]]), label="rows of p")]
