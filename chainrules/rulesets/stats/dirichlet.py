"""The Dirichlet distribution: ``dirichlet.logpdf``, ``.pdf`` (in ``x`` and ``alpha``), ``.mean``, ``.var``,
``.cov`` and ``.entropy`` (in ``alpha``).

The maths
---------
With ``alpha_0 = sum alpha`` and ``log B(alpha) = sum lgamma(alpha_i) - lgamma(alpha_0)``::

    log p(x) = -log B(alpha) + sum_i (alpha_i - 1) log x_i
    d log p / dx_i = (alpha_i - 1) / x_i
    d log p / d alpha_i = log x_i - (psi(alpha_i) - psi(alpha_0))

(``psi(alpha_0) - psi(alpha_i)`` formed without cancellation by ``psi_increment`` of the
special-function rules). SciPy reads the components along the *first* axis of ``x`` (one
column per point) and accepts ``K - 1`` of them, completing ``x_K = 1 - sum x_i``: then
``d/dx_i`` gains ``-(alpha_K - 1) / x_K``. SciPy's ``xlogy`` makes a term with
``alpha_i = 1`` vanish even at ``x_i = 0``; its derivative is then 0 too.

The moments (``a = alpha / alpha_0``): ``mean = a`` has ``d mean_i / d alpha_j = (delta_ij - a_i) / alpha_0``;
``var_i = alpha_i (alpha_0 - alpha_i) / D``, ``D = alpha_0^2 (alpha_0 + 1)``, has
``d var_i / d alpha_j = (delta_ij (alpha_0 - 2 alpha_i) + alpha_i - var_i alpha_0 (3 alpha_0 + 2)) / D``;
``cov = (diag(a) - a a^T) / (alpha_0 + 1)`` by the product rule through ``a`` and ``alpha_0``; and
``entropy = log B(alpha) + (alpha_0 - K) psi(alpha_0) - sum (alpha_i - 1) psi(alpha_i)`` has
``d/d alpha_j = (alpha_0 - K) psi'(alpha_0) - (alpha_j - 1) psi'(alpha_j)`` (the digamma terms cancel).

Examples
--------
>>> import numpy as np
>>> from scipy.stats import dirichlet
>>> import chainrules
>>> from chainrules import rrule, unthunk
>>> y, pullback = rrule(dirichlet.logpdf, np.array([0.2, 0.3, 0.5]), np.array([2.0, 1.0, 3.0]))
>>> unthunk(pullback(1.0)[2])  # (alpha_i - 1) / x_i
array([5., 0., 4.])
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from scipy.stats import dirichlet
from scipy.stats._multivariate import dirichlet_gen

from chainrules.rulesets.special._gamma_tools import psi_increment, trigamma
from chainrules.rulesets.stats._slices import NO, argument_cotangent, fit_output, tangent_value, zero_like
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

__all__ = ["DirichletDensity"]


class DirichletDensity:
    """``log p`` of a Dirichlet distribution at the columns of ``x`` and its partials.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.stats.dirichlet import DirichletDensity
    >>> d = DirichletDensity(np.array([0.25, 0.75]), np.array([1.0, 1.0]))
    >>> d.alpha_partials()  # log x_i - psi(1) + psi(2) = log x_i + 1
    array([-0.38629436,  0.71231793])
    """

    def __init__(self, x: Any, alpha: Any) -> None:
        self.alpha = np.asarray(alpha, dtype=np.float64)
        xa = np.asarray(x, dtype=np.float64)
        self.x_shape = xa.shape
        self.completed = xa.shape[0] != self.alpha.shape[0]
        if self.completed:
            xa = np.concatenate([xa, (1.0 - np.sum(xa, axis=0))[np.newaxis]], axis=0)
        self.x = xa  # (K,) or (K, n)

    def x_partials(self) -> np.ndarray:
        """``d log p / dx`` (the shape of the given ``x``)."""
        a1 = (self.alpha - 1.0).reshape((-1,) + (1,) * (self.x.ndim - 1))
        with np.errstate(divide="ignore", invalid="ignore"):
            g = np.where(a1 == 0, 0.0, a1 / self.x)
        if self.completed:
            g = g[:-1] - g[-1:]
        return g

    def alpha_partials(self) -> np.ndarray:
        """``d log p / d alpha`` per point: shape ``(K,) + points``."""
        shape = (-1,) + (1,) * (self.x.ndim - 1)
        a0 = np.sum(self.alpha)
        dpsi = psi_increment(self.alpha, a0 - self.alpha).reshape(shape)  # psi(alpha_0) - psi(alpha_i)
        with np.errstate(divide="ignore"):
            logs = np.log(self.x)
        return np.where((self.alpha == 1.0).reshape(shape) & (self.x == 0), 0.0, logs) + dpsi


def _pass(dy: Any, values: tuple[Any, ...]) -> tuple[Any, ...]:
    return tuple((dy if isinstance(dy, NotImplementedTangent) else zero_like(v)) if differentiable(v) else NO
                 for v in values)


def _density_rules(method: Callable[..., Any], short: str, exp_output: bool) -> tuple[Callable[..., Any], ...]:
    def density_rrule(dist: dirichlet_gen, x: Any, alpha: Any, /) -> tuple[Any, Callable[..., Any]]:
        y = method(dist, x, alpha)
        live = (differentiable(x), differentiable(alpha))

        def dirichlet_pullback(dy: Any) -> tuple[Any, ...]:
            dy = read_cotangent(dy, y, method)
            if passes_through(dy):
                return (NO, NO, *_pass(dy, (x, alpha)))
            d = DirichletDensity(x, alpha)
            w = np.reshape(np.asarray(dy, dtype=np.float64) * (y if exp_output else 1.0), d.x.shape[1:])

            def cot_x() -> Any:
                return argument_cotangent(x, np.reshape(d.x_partials() * w, np.shape(x)))

            def cot_alpha() -> Any:
                g = d.alpha_partials() * w
                return argument_cotangent(alpha, np.sum(g.reshape(g.shape[0], -1), axis=1))

            several = all(live)
            return (NO, NO, *((Thunk(m) if several else m()) if lv else NO for m, lv in zip((cot_x, cot_alpha), live)))

        dirichlet_pullback.__name__ = f"{short}_pullback"
        return y, dirichlet_pullback

    def density_frule(tangents: tuple[Any, ...], dist: dirichlet_gen, x: Any, alpha: Any, /) -> tuple[Any, Any]:
        y = method(dist, x, alpha)
        dx = tangent_value(tangents[2]) if differentiable(x) else None
        da = tangent_value(tangents[3]) if differentiable(alpha) else None
        if dx is None and da is None:
            return y, fit_output(None, y)
        for t in (dx, da):
            if isinstance(t, NotImplementedTangent):
                return y, t
        d = DirichletDensity(x, alpha)
        total: Any = 0.0
        if dx is not None:
            total = total + np.sum(d.x_partials() * np.asarray(dx, dtype=np.float64), axis=0)
        if da is not None:
            dav = np.asarray(da, dtype=np.float64).reshape((-1,) + (1,) * (d.x.ndim - 1))
            total = total + np.sum(d.alpha_partials() * dav, axis=0)
        return y, fit_output(total * (np.reshape(y, np.shape(total)) if exp_output else 1.0), y)

    density_rrule.__name__ = density_rrule.__qualname__ = f"{short}_rrule"
    density_frule.__name__ = density_frule.__qualname__ = f"{short}_frule"
    rrule.register(method, dirichlet_gen)(density_rrule)
    frule.register(method, dirichlet_gen)(density_frule)
    return density_rrule, density_frule


logpdf_rrule, logpdf_frule = _density_rules(dirichlet_gen.logpdf, "dirichlet_logpdf", False)
pdf_rrule, pdf_frule = _density_rules(dirichlet_gen.pdf, "dirichlet_pdf", True)


# ---- moments and entropy: functions of alpha alone ----------------------------------------------------------
def _mean_pullback(alpha: np.ndarray, y: np.ndarray, g: np.ndarray) -> np.ndarray:
    a0 = np.sum(alpha)
    return (g - np.sum(g * y)) / a0


def _mean_pushforward(alpha: np.ndarray, y: np.ndarray, t: np.ndarray) -> np.ndarray:
    return (t - y * np.sum(t)) / np.sum(alpha)


def _var_parts(alpha: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    a0 = float(np.sum(alpha))
    denom = a0 * a0 * (a0 + 1.0)
    return (a0 - 2.0 * alpha) / denom, alpha / denom - y * a0 * (3.0 * a0 + 2.0) / denom, denom


def _var_pullback(alpha: np.ndarray, y: np.ndarray, g: np.ndarray) -> np.ndarray:
    diag, rank_one, _ = _var_parts(alpha, y)
    return g * diag + np.sum(g * rank_one)  # J_ij = delta_ij diag_i + rank_one_i (a row i, constant in j)


def _var_pushforward(alpha: np.ndarray, y: np.ndarray, t: np.ndarray) -> np.ndarray:
    diag, rank_one, _ = _var_parts(alpha, y)
    return diag * t + rank_one * np.sum(t)


def _cov_pullback(alpha: np.ndarray, y: np.ndarray, g: np.ndarray) -> np.ndarray:
    a0 = np.sum(alpha)
    a = alpha / a0
    g_a = (np.diag(g) - (g + g.T) @ a) / (a0 + 1.0)
    g_0 = -np.sum(g * y) / (a0 + 1.0)
    return (g_a - np.sum(g_a * a)) / a0 + g_0


def _cov_pushforward(alpha: np.ndarray, y: np.ndarray, t: np.ndarray) -> np.ndarray:
    a0 = np.sum(alpha)
    a = alpha / a0
    da = (t - a * np.sum(t)) / a0
    return (np.diag(da) - np.outer(da, a) - np.outer(a, da)) / (a0 + 1.0) - y * np.sum(t) / (a0 + 1.0)


def _entropy_gradient(alpha: np.ndarray) -> np.ndarray:
    a0 = np.sum(alpha)
    return (a0 - alpha.size) * trigamma(np.float64(a0)) - (alpha - 1.0) * trigamma(alpha)


def _entropy_pullback(alpha: np.ndarray, y: Any, g: Any) -> np.ndarray:
    return _entropy_gradient(alpha) * float(g)


def _entropy_pushforward(alpha: np.ndarray, y: Any, t: np.ndarray) -> Any:
    return float(np.sum(_entropy_gradient(alpha) * t))


def _alpha_rules(method: Callable[..., Any], short: str, pullback_of: Callable[..., np.ndarray],
                 pushforward_of: Callable[..., Any]) -> tuple[Callable[..., Any], ...]:
    def alpha_rrule(dist: dirichlet_gen, alpha: Any, /) -> tuple[Any, Callable[..., Any]]:
        y = method(dist, alpha)

        def dirichlet_alpha_pullback(dy: Any) -> tuple[Any, Any, Any]:
            dy = read_cotangent(dy, y, method)
            if passes_through(dy) or not differentiable(alpha):
                return (NO, NO, *_pass(dy, (alpha,)))
            a = np.asarray(alpha, dtype=np.float64)
            g = np.asarray(dy, dtype=np.float64)
            return NO, NO, argument_cotangent(alpha, pullback_of(a, np.asarray(y), g))

        dirichlet_alpha_pullback.__name__ = f"{short}_pullback"
        return y, dirichlet_alpha_pullback

    def alpha_frule(tangents: tuple[Any, ...], dist: dirichlet_gen, alpha: Any, /) -> tuple[Any, Any]:
        y = method(dist, alpha)
        da = tangent_value(tangents[2]) if differentiable(alpha) else None
        if da is None or isinstance(da, NotImplementedTangent):
            return y, fit_output(da, y)
        a = np.asarray(alpha, dtype=np.float64)
        return y, fit_output(pushforward_of(a, np.asarray(y), np.asarray(da, dtype=np.float64)), y)

    alpha_rrule.__name__ = alpha_rrule.__qualname__ = f"{short}_rrule"
    alpha_frule.__name__ = alpha_frule.__qualname__ = f"{short}_frule"
    rrule.register(method, dirichlet_gen)(alpha_rrule)
    frule.register(method, dirichlet_gen)(alpha_frule)
    return alpha_rrule, alpha_frule


mean_rrule, mean_frule = _alpha_rules(dirichlet_gen.mean, "dirichlet_mean", _mean_pullback, _mean_pushforward)
var_rrule, var_frule = _alpha_rules(dirichlet_gen.var, "dirichlet_var", _var_pullback, _var_pushforward)
cov_rrule, cov_frule = _alpha_rules(dirichlet_gen.cov, "dirichlet_cov", _cov_pullback, _cov_pushforward)
entropy_rrule, entropy_frule = _alpha_rules(dirichlet_gen.entropy, "dirichlet_entropy", _entropy_pullback,
                                            _entropy_pushforward)
__all__ += ["cov_frule", "cov_rrule", "entropy_frule", "entropy_rrule", "logpdf_frule", "logpdf_rrule",
            "mean_frule", "mean_rrule", "pdf_frule", "pdf_rrule", "var_frule", "var_rrule"]


# ---- sample inputs --------------------------------------------------------------------------------------
@sample_inputs(dirichlet_gen.logpdf, dirichlet_gen.pdf)
def _density_samples(rng: np.random.Generator) -> list[Sample]:
    # SciPy raises for K components off the simplex, so finite differences vary x through its K - 1 free
    # components (the last one completed by SciPy); K components are checked along the simplex in
    # tests/chainrules/rulesets/stats/test_dirichlet.py.
    alpha = np.array([1.5, 0.7, 3.0, 2.2])
    x = np.array([[0.2, 0.15, 0.3], [0.1, 0.2, 0.15], [0.3, 0.25, 0.2], [0.4, 0.4, 0.35]])  # columns on the simplex
    return [Sample(dirichlet, x[:-1, 0], alpha, label="K - 1 components (the last completed)"),
            Sample(dirichlet, x[:-1], alpha, label="K - 1 components, three points (columns)"),
            Sample(dirichlet, x[:-1, 0], np.array([1.0, 0.7, 3.0, 2.2]), label="alpha_1 = 1"),
            Sample(dirichlet, x[:-1, 0].astype(np.float32), alpha.astype(np.float32), label="float32", rtol=1e-3)]


@sample_inputs(dirichlet_gen.mean, dirichlet_gen.var, dirichlet_gen.cov, dirichlet_gen.entropy)
def _alpha_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(dirichlet, np.array([1.5, 0.7, 3.0, 2.2])), Sample(dirichlet, np.array([0.3, 40.0]),
                                                                      label="two components, apart")]

