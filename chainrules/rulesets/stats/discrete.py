"""Discrete distributions: poisson, binom, nbinom, geom, bernoulli, betabinom, betanbinom, zipf, logser, skellam,
yulesimon, boltzmann; pmf, logpmf, cdf, logcdf, sf, logsf, mean, var, std and entropy in the continuous parameters.

The data ``k``, ``loc`` and the integer parameters (``n`` of ``binom``, ``betabinom`` and
``betanbinom``, ``N`` of ``boltzmann``) are counts: ``NoTangent()``, whatever their type.
``nbinom``'s ``n`` is real (SciPy accepts any ``n > 0``) and is differentiated. Frozen
distributions (``poisson(mu).pmf(k)``) have the same rules
(:mod:`chainrules.rulesets.stats.frozen`); the generic sums, the entropy and the log-space
conventions are those of :mod:`chainrules.rulesets.stats._discrete`.

The maths
---------
Scores ``s_k = d log p_k / d theta`` (``psi(a + d) - psi(a)`` always formed by
``psi_increment`` of the special-function rules, without cancellation), and the closed
forms of the distribution functions where there is one (``F = P(K <= k)``, ``S = P(K > k)``,
``p_k`` the mass, ratios such as ``p_k / F`` formed as ``exp(log p_k - log F)``):

* **poisson(mu)**: ``s_k = k/mu - 1``. ``p_k`` moves mass from ``k`` to ``k + 1``:
  ``dF(k)/dmu = -p_k`` (DLMF 8.4.10 with ``F = Q(k + 1, mu)``), ``dS/dmu = p_k``.
  ``mean = var = mu``.
* **binom(n, p)**: ``s_k = k/p - (n - k)/(1 - p)``; ``dF(k)/dp = -n b(k; n - 1, p) =
  -(n - k)/(1 - p) p_k``. ``mean = n p``, ``var = n p (1 - p)``. **bernoulli(p)** is ``n = 1``;
  ``entropy = entr(p) + entr(1 - p)`` has ``log((1 - p)/p)``.
* **nbinom(n, p)**: ``s_k = psi(n + k) - psi(n) + log p`` in ``n``, ``n/p - k/(1 - p)`` in ``p``;
  ``F = I_p(n, k + 1)`` (DLMF 8.17.5): ``dF/dp = (n + k)/p p_k`` and ``dF/dn`` the
  incomplete beta function's derivative in ``a`` (the differentiated continued fraction
  of :mod:`chainrules.rulesets.special.incomplete_beta`, relatively accurate on both sides).
  ``mean = n (1 - p)/p``, ``var = n (1 - p)/p^2``.
* **geom(p)**: ``s_k = 1/p - (k - 1)/(1 - p)``; ``log S = k log1p(-p)``: ``d log S/dp = -k/(1 - p)``,
  ``dF/dp = k (1 - p)^(k - 1)``. ``mean = 1/p``, ``var = (1 - p)/p^2``,
  ``entropy = -log p - (1 - p) log1p(-p)/p`` with ``d/dp = log1p(-p)/p^2``.
* **betabinom(n, a, b)**: ``s_k = (psi(k + a) - psi(a)) - (psi(n + a + b) - psi(a + b))`` in ``a``
  (``k -> n - k``, ``a -> b`` in ``b``); ``F`` a finite sum (generic). ``mean = n a/(a + b)``,
  ``var = n a b (a + b + n) / ((a + b)^2 (a + b + 1))``.
* **betanbinom(n, a, b)**: ``s_k = (psi(a + n) - psi(a)) - (psi(a + b + n + k) - psi(a + b))`` in ``a``,
  ``(psi(b + k) - psi(b)) - (psi(a + b + n + k) - psi(a + b))`` in ``b``; ``F`` generic.
  ``mean = n b/(a - 1)``, ``var = n b (n + a - 1)(a + b - 1) / ((a - 2)(a - 1)^2)``.
* **zipf(a)**: ``p_k = k^-a / zeta(a)``: ``s_k = -log k - zeta'(a)/zeta(a)``;
  ``S(k) = zeta(a, k + 1)/zeta(a)`` (Hurwitz) gives
  ``d log S/da = zeta'(a, k + 1)/zeta(a, k + 1) - zeta'(a)/zeta(a)`` (``zeta'`` in ``s``
  from :mod:`chainrules.rulesets.special.zeta`). ``mean = zeta(a - 1)/zeta(a)``,
  ``var = zeta(a - 2)/zeta(a) - mean^2``.
* **logser(p)**: ``p_k = p^k / (k L)``, ``L = -log1p(-p)``: ``s_k = k/p - 1/((1 - p) L)``;
  ``S = B_p(k + 1, 0)/L`` with ``dB_p(k + 1, 0)/dp = p^k/(1 - p)``:
  ``d log S/dp = (p^k/S - 1)/((1 - p) L)``. ``mean = p/((1 - p) L)``.
* **skellam(mu1, mu2)**, the difference of two Poisson counts: raising ``mu1`` moves mass
  from ``k`` to ``k + 1``, raising ``mu2`` from ``k`` to ``k - 1``, so
  ``dp_k/dmu1 = p_(k-1) - p_k``, ``dp_k/dmu2 = p_(k+1) - p_k``, ``dF(k)/dmu1 = -p_k``,
  ``dF(k)/dmu2 = p_(k+1)``; the ratios ``p_(k -+ 1)/p_k = (mu2/mu1)^(+-1/2) I_(k -+ 1)(z)/I_k(z)``,
  ``z = 2 sqrt(mu1 mu2)`` (exponentially scaled Bessel functions). ``mean = mu1 - mu2``,
  ``var = mu1 + mu2``.
* **yulesimon(alpha)**: ``p_k = alpha B(k, alpha + 1)``: ``s_k = 1/alpha - (psi(alpha + 1 + k) - psi(alpha + 1))``;
  ``S = k B(k, alpha + 1)``: ``d log S/d alpha = -(psi(alpha + 1 + k) - psi(alpha + 1))``.
  ``mean = alpha/(alpha - 1)``, ``var = alpha^2/((alpha - 2)(alpha - 1)^2)``.
* **boltzmann(lambda, N)**: ``p_k = (1 - e^-lambda) e^(-lambda k) / (1 - e^(-lambda N))``:
  ``s_k = 1/expm1(lambda) - k - N/expm1(lambda N)``; ``d log F/d lambda = (k + 1)/expm1(lambda (k + 1)) -
  N/expm1(lambda N)``. An exponential family in ``-lambda``: ``dmean/d lambda = -var``.

Examples
--------
>>> import scipy.stats as st
>>> import chainrules
>>> from chainrules import rrule, unthunk
>>> y, pullback = rrule(st.poisson.logsf, 60, 3.0)  # S = 1e-50: p_k / S stays finite
>>> round(float(unthunk(pullback(1.0)[-1])), 8)     # d log S / dmu = p_60 / S (mpmath: 19.350253879...)
19.35025388
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
import scipy.special as sc
import scipy.stats as st

from chainrules.rulesets.special._gamma_tools import psi_increment
from chainrules.rulesets.special.incomplete_beta import betainc_dab
from chainrules.rulesets.special.zeta import zeta_derivative
from chainrules.rulesets.stats._discrete import DiscreteModel, f64, register_discrete_models

__all__: list[str] = []


def _ratio(log_num: Any, log_den: Any) -> np.ndarray:
    """``exp(log_num - log_den)``, 0 where the numerator is 0."""
    with np.errstate(all="ignore"):
        return np.where(np.isneginf(log_num), 0.0, np.exp(f64(log_num) - f64(log_den)))


class _Poisson(DiscreteModel):
    dist = st.poisson
    shape_samples = ((3.5,), (0.2,))
    tail_samples = (("logsf", 60, (3.0,)), ("logcdf", 0, (80.0,)))

    def dlogpmf(self, k: Any, mu: Any) -> tuple[Any, ...]:
        with np.errstate(all="ignore"):
            return (np.where(k == 0, -1.0, k / mu - 1.0),)

    def dlogcdf(self, k: Any, mu: Any) -> tuple[Any, ...]:
        return (-_ratio(st.poisson.logpmf(k, mu), st.poisson.logcdf(k, mu)),)

    def dlogsf(self, k: Any, mu: Any) -> tuple[Any, ...]:
        return (_ratio(st.poisson.logpmf(k, mu), st.poisson.logsf(k, mu)),)

    def dmean(self, mu: Any) -> tuple[Any, ...]:
        return (np.ones_like(f64(mu)),)

    def dvar(self, mu: Any) -> tuple[Any, ...]:
        return (np.ones_like(f64(mu)),)


class _Binom(DiscreteModel):
    dist = st.binom
    integer_shapes = frozenset({"n"})
    shape_samples = ((12, 0.3), (5, 0.85))
    tail_samples = (("logsf", 95, (100, 0.3)), ("logcdf", 2, (100, 0.6)))

    def dlogpmf(self, k: Any, n: Any, p: Any) -> tuple[Any, ...]:
        with np.errstate(all="ignore"):
            return None, np.where(k == 0, 0.0, k / p) - np.where(k == n, 0.0, (n - k) / (1 - p))

    def _dlogcdf_over(self, k: Any, n: Any, p: Any, log_den: Any) -> Any:
        with np.errstate(all="ignore"):
            return -(n - k) / (1 - p) * _ratio(st.binom.logpmf(k, n, p), log_den)

    def dlogcdf(self, k: Any, n: Any, p: Any) -> tuple[Any, ...]:
        return None, self._dlogcdf_over(k, n, p, st.binom.logcdf(k, n, p))

    def dlogsf(self, k: Any, n: Any, p: Any) -> tuple[Any, ...]:
        return None, -self._dlogcdf_over(k, n, p, st.binom.logsf(k, n, p))

    def dmean(self, n: Any, p: Any) -> tuple[Any, ...]:
        return None, f64(n) * np.ones_like(f64(p))

    def dvar(self, n: Any, p: Any) -> tuple[Any, ...]:
        return None, f64(n) * (1 - 2 * f64(p))


class _Bernoulli(DiscreteModel):
    dist = st.bernoulli
    shape_samples = ((0.3,),)

    def dlogpmf(self, k: Any, p: Any) -> tuple[Any, ...]:
        with np.errstate(all="ignore"):
            return (np.where(k == 1, 1 / p, -1 / (1 - p)),)

    def dlogcdf(self, k: Any, p: Any) -> tuple[Any, ...]:  # F(0) = 1 - p
        with np.errstate(all="ignore"):
            return (np.where(k == 0, -1 / (1 - p), 0.0),)

    def dlogsf(self, k: Any, p: Any) -> tuple[Any, ...]:  # S(0) = p
        with np.errstate(all="ignore"):
            return (np.where(k == 0, 1 / p, 0.0),)

    def dmean(self, p: Any) -> tuple[Any, ...]:
        return (np.ones_like(f64(p)),)

    def dvar(self, p: Any) -> tuple[Any, ...]:
        return (1 - 2 * f64(p),)

    def dentropy(self, p: Any) -> tuple[Any, ...]:
        with np.errstate(all="ignore"):
            return (np.log1p(-f64(p)) - np.log(f64(p)),)


class _NBinom(DiscreteModel):
    dist = st.nbinom
    shape_samples = ((2.5, 0.4), (0.7, 0.85))
    tail_samples = (("logsf", 120, (2.5, 0.4)), ("logcdf", 0, (60.0, 0.3)))

    def dlogpmf(self, k: Any, n: Any, p: Any) -> tuple[Any, ...]:
        with np.errstate(all="ignore"):
            return (psi_increment(n, k) + np.log(p), n / p - np.where(k == 0, 0.0, k / (1 - p)))

    def _dcdf_dn(self, k: Any, n: Any, p: Any) -> Any:
        """``dF/dn = d I_p(n, k + 1) / da``."""
        k, n, p = np.broadcast_arrays(f64(k), f64(n), f64(p))
        result = betainc_dab(n, k + 1, p)
        return result if not isinstance(result, tuple) else f64(result[0])

    def _dcdf_dp_over(self, k: Any, n: Any, p: Any, log_den: Any) -> Any:
        with np.errstate(all="ignore"):
            return (n + k) / p * _ratio(st.nbinom.logpmf(k, n, p), log_den)

    def dlogcdf(self, k: Any, n: Any, p: Any) -> tuple[Any, ...]:
        log_f = st.nbinom.logcdf(k, n, p)
        dn = self._dcdf_dn(k, n, p)
        with np.errstate(all="ignore"):
            dn = dn if not isinstance(dn, np.ndarray) else dn * np.exp(-f64(log_f))
        return dn, self._dcdf_dp_over(k, n, p, log_f)

    def dlogsf(self, k: Any, n: Any, p: Any) -> tuple[Any, ...]:
        log_s = st.nbinom.logsf(k, n, p)
        dn = self._dcdf_dn(k, n, p)
        with np.errstate(all="ignore"):
            dn = dn if not isinstance(dn, np.ndarray) else -dn * np.exp(-f64(log_s))
        return dn, -self._dcdf_dp_over(k, n, p, log_s)

    def dmean(self, n: Any, p: Any) -> tuple[Any, ...]:
        n, p = f64(n), f64(p)
        return (1 - p) / p, -n / (p * p)

    def dvar(self, n: Any, p: Any) -> tuple[Any, ...]:
        n, p = f64(n), f64(p)
        return (1 - p) / (p * p), n * (p - 2) / p ** 3


class _Geom(DiscreteModel):
    dist = st.geom
    shape_samples = ((0.35,),)
    tail_samples = (("logsf", 200, (0.35,)),)

    def dlogpmf(self, k: Any, p: Any) -> tuple[Any, ...]:
        with np.errstate(all="ignore"):
            return (1 / p - np.where(k == 1, 0.0, (k - 1) / (1 - p)),)

    def dlogcdf(self, k: Any, p: Any) -> tuple[Any, ...]:
        with np.errstate(all="ignore"):
            log_f = st.geom.logcdf(k, p)
            return (np.where(k <= 0, 0.0, np.exp(np.log(k) + (k - 1) * np.log1p(-p) - log_f)),)

    def dlogsf(self, k: Any, p: Any) -> tuple[Any, ...]:
        return (-f64(k) / (1 - f64(p)),)

    def dmean(self, p: Any) -> tuple[Any, ...]:
        return (-1 / f64(p) ** 2,)

    def dvar(self, p: Any) -> tuple[Any, ...]:
        p = f64(p)
        return ((p - 2) / p ** 3,)

    def dentropy(self, p: Any) -> tuple[Any, ...]:
        p = f64(p)
        return (np.log1p(-p) / (p * p),)


class _BetaBinom(DiscreteModel):
    dist = st.betabinom
    integer_shapes = frozenset({"n"})
    shape_samples = ((10, 2.5, 1.5), (40, 0.6, 3.0))

    def dlogpmf(self, k: Any, n: Any, a: Any, b: Any) -> tuple[Any, ...]:
        common = psi_increment(a + b, n)
        return None, psi_increment(a, k) - common, psi_increment(b, n - k) - common

    def dmean(self, n: Any, a: Any, b: Any) -> tuple[Any, ...]:
        n, a, b = f64(n), f64(a), f64(b)
        s2 = (a + b) ** 2
        return None, n * b / s2, -n * a / s2

    def dvar(self, n: Any, a: Any, b: Any) -> tuple[Any, ...]:
        n, a, b = f64(n), f64(a), f64(b)
        s = a + b
        h = (s + n) / (s * s * (s + 1))
        dh = (s * (s + 1) - (s + n) * (3 * s + 2)) / (s ** 3 * (s + 1) ** 2)
        return None, n * (b * h + a * b * dh), n * (a * h + a * b * dh)


class _BetaNBinom(DiscreteModel):
    dist = st.betanbinom
    integer_shapes = frozenset({"n"})
    shape_samples = ((4, 5.5, 2.0), (2, 3.2, 0.8))

    def dlogpmf(self, k: Any, n: Any, a: Any, b: Any) -> tuple[Any, ...]:
        common = psi_increment(a + b, n + k)
        return None, psi_increment(a, n) - common, psi_increment(b, k) - common

    def dmean(self, n: Any, a: Any, b: Any) -> tuple[Any, ...]:
        n, a, b = f64(n), f64(a), f64(b)
        with np.errstate(all="ignore"):
            return None, np.where(a > 1, -n * b / (a - 1) ** 2, np.nan), np.where(a > 1, n / (a - 1), np.nan)

    def dvar(self, n: Any, a: Any, b: Any) -> tuple[Any, ...]:
        n, a, b = f64(n), f64(a), f64(b)
        with np.errstate(all="ignore"):
            var = n * b * (n + a - 1) * (a + b - 1) / ((a - 2) * (a - 1) ** 2)
            da = var * (1 / (n + a - 1) + 1 / (a + b - 1) - 1 / (a - 2) - 2 / (a - 1))
            db = var * (1 / b + 1 / (a + b - 1))
            return None, np.where(a > 2, da, np.nan), np.where(a > 2, db, np.nan)


def _log_zeta_derivative(s: Any, q: Any = None) -> np.ndarray:
    """``zeta'(s, q) / zeta(s, q)`` (the Riemann function for ``q = None``)."""
    value = sc.zeta(s) if q is None else sc.zeta(s, q)
    return f64(zeta_derivative(s) if q is None else zeta_derivative(s, q)) / f64(value)


class _Zipf(DiscreteModel):
    dist = st.zipf
    shape_samples = ((3.5,), (6.0,))
    tail_samples = (("logsf", 60, (3.5,)),)  # (SciPy's sf is 1 - cdf: S = 1e-6 keeps 10 digits)

    def dlogpmf(self, k: Any, a: Any) -> tuple[Any, ...]:
        with np.errstate(all="ignore"):
            return (-np.log(k) - _log_zeta_derivative(f64(a)),)

    def dlogsf(self, k: Any, a: Any) -> tuple[Any, ...]:
        k, a = np.broadcast_arrays(f64(k), f64(a))
        with np.errstate(all="ignore"):
            inside = k >= 1
            tail = _log_zeta_derivative(a, np.where(inside, k + 1, 2.0))
            return (np.where(inside, tail - _log_zeta_derivative(a), 0.0),)

    def dlogcdf(self, k: Any, a: Any) -> tuple[Any, ...]:
        (dlog_s,) = self.dlogsf(k, a)
        return (-dlog_s * _ratio(st.zipf.logsf(k, a), st.zipf.logcdf(k, a)),)

    def dmean(self, a: Any) -> tuple[Any, ...]:
        a = f64(a)
        mean = sc.zeta(a - 1) / sc.zeta(a)
        return (np.where(a > 2, mean * (_log_zeta_derivative(a - 1) - _log_zeta_derivative(a)), np.nan),)

    def dvar(self, a: Any) -> tuple[Any, ...]:
        a = f64(a)
        with np.errstate(all="ignore"):
            mean = sc.zeta(a - 1) / sc.zeta(a)
            second = sc.zeta(a - 2) / sc.zeta(a)
            dmean = mean * (_log_zeta_derivative(a - 1) - _log_zeta_derivative(a))
            dsecond = second * (_log_zeta_derivative(a - 2) - _log_zeta_derivative(a))
            return (np.where(a > 3, dsecond - 2 * mean * dmean, np.nan),)


class _LogSer(DiscreteModel):
    dist = st.logser
    shape_samples = ((0.6,), (0.95,))
    tail_samples = (("logsf", 150, (0.6,)),)

    def dlogpmf(self, k: Any, p: Any) -> tuple[Any, ...]:
        p = f64(p)
        big_l = -np.log1p(-p)
        return (f64(k) / p - 1 / ((1 - p) * big_l),)

    def dlogsf(self, k: Any, p: Any) -> tuple[Any, ...]:
        k, p = np.broadcast_arrays(f64(k), f64(p))
        big_l = -np.log1p(-p)
        with np.errstate(all="ignore"):
            log_s = f64(st.logser.logsf(k, p))
            ratio = np.exp(k * np.log(p) - log_s)  # p^k / S
            return (np.where(k < 1, 0.0, (ratio - 1) / ((1 - p) * big_l)),)

    def dlogcdf(self, k: Any, p: Any) -> tuple[Any, ...]:
        (dlog_s,) = self.dlogsf(k, p)
        return (-dlog_s * _ratio(st.logser.logsf(k, p), st.logser.logcdf(k, p)),)

    def dmean(self, p: Any) -> tuple[Any, ...]:
        p = f64(p)
        big_l = -np.log1p(-p)
        return ((big_l - p) / ((1 - p) ** 2 * big_l ** 2),)

    def dvar(self, p: Any) -> tuple[Any, ...]:
        p = f64(p)
        big_l = -np.log1p(-p)
        mean = p / ((1 - p) * big_l)
        dmean = (big_l - p) / ((1 - p) ** 2 * big_l ** 2)
        dsecond = (big_l + p * big_l - p) / (big_l ** 2 * (1 - p) ** 3)
        return (dsecond - 2 * mean * dmean,)


class _Skellam(DiscreteModel):
    dist = st.skellam
    shape_samples = ((3.0, 1.5), (0.4, 2.2))
    tail_samples = (("logsf", 11, (3.0, 1.5)), ("logcdf", -20, (3.0, 1.5)))  # (SciPy's sf is 1 - cdf)

    @staticmethod
    def _neighbours(k: Any, mu1: Any, mu2: Any) -> tuple[np.ndarray, np.ndarray]:
        """``p_(k-1) / p_k`` and ``p_(k+1) / p_k`` from the scaled Bessel functions."""
        k, mu1, mu2 = np.broadcast_arrays(f64(k), f64(mu1), f64(mu2))
        z = 2 * np.sqrt(mu1 * mu2)
        with np.errstate(all="ignore"):
            centre = sc.ive(np.abs(k), z)
            down = np.sqrt(mu2 / mu1) * sc.ive(np.abs(k - 1), z) / centre
            up = np.sqrt(mu1 / mu2) * sc.ive(np.abs(k + 1), z) / centre
            bad = ~np.isfinite(down) | ~np.isfinite(up) | (centre == 0)
            if np.any(bad):  # the Bessel functions underflowed: SciPy's own log masses
                lp = f64(st.skellam.logpmf(k, mu1, mu2))
                down = np.where(bad, np.exp(f64(st.skellam.logpmf(k - 1, mu1, mu2)) - lp), down)
                up = np.where(bad, np.exp(f64(st.skellam.logpmf(k + 1, mu1, mu2)) - lp), up)
        return down, up

    def dlogpmf(self, k: Any, mu1: Any, mu2: Any) -> tuple[Any, ...]:
        down, up = self._neighbours(k, mu1, mu2)
        return down - 1.0, up - 1.0

    def dlogcdf(self, k: Any, mu1: Any, mu2: Any) -> tuple[Any, ...]:
        log_f = st.skellam.logcdf(k, mu1, mu2)
        return (-_ratio(st.skellam.logpmf(k, mu1, mu2), log_f), _ratio(st.skellam.logpmf(k + 1, mu1, mu2), log_f))

    def dlogsf(self, k: Any, mu1: Any, mu2: Any) -> tuple[Any, ...]:
        log_s = st.skellam.logsf(k, mu1, mu2)
        return (_ratio(st.skellam.logpmf(k, mu1, mu2), log_s), -_ratio(st.skellam.logpmf(k + 1, mu1, mu2), log_s))

    def dmean(self, mu1: Any, mu2: Any) -> tuple[Any, ...]:
        shape = np.broadcast(f64(mu1), f64(mu2)).shape
        return np.ones(shape), -np.ones(shape)

    def dvar(self, mu1: Any, mu2: Any) -> tuple[Any, ...]:
        shape = np.broadcast(f64(mu1), f64(mu2)).shape
        return np.ones(shape), np.ones(shape)


class _YuleSimon(DiscreteModel):
    dist = st.yulesimon
    shape_samples = ((3.5,), (1.4,))
    moment_shape_samples = ((3.5,),)  # (the variance is infinite for alpha <= 2)
    tail_samples = (("logsf", 10 ** 5, (3.5,)),)
    # SciPy's entropy truncates its sum where a block of terms falls below 1e-10: the truncation point moves
    # within the finite differences' stencil and their error is about 1e-6 (the rule sums SciPy's terms exactly)
    sample_options: ClassVar[dict[str, Any]] = {"entropy": {"rtol": 1e-4}}

    def dlogpmf(self, k: Any, alpha: Any) -> tuple[Any, ...]:
        return (1 / f64(alpha) - psi_increment(f64(alpha) + 1, k),)

    def dlogsf(self, k: Any, alpha: Any) -> tuple[Any, ...]:
        k = f64(k)
        return (np.where(k < 1, 0.0, -psi_increment(f64(alpha) + 1, np.maximum(k, 1.0))),)

    def dlogcdf(self, k: Any, alpha: Any) -> tuple[Any, ...]:
        (dlog_s,) = self.dlogsf(k, alpha)
        return (-dlog_s * _ratio(st.yulesimon.logsf(k, alpha), st.yulesimon.logcdf(k, alpha)),)

    def dmean(self, alpha: Any) -> tuple[Any, ...]:
        a = f64(alpha)
        with np.errstate(all="ignore"):
            return (np.where(a > 1, -1 / (a - 1) ** 2, np.nan),)

    def dvar(self, alpha: Any) -> tuple[Any, ...]:
        a = f64(alpha)
        with np.errstate(all="ignore"):
            var = a * a / ((a - 2) * (a - 1) ** 2)
            return (np.where(a > 2, var * (2 / a - 1 / (a - 2) - 2 / (a - 1)), np.nan),)


def _g2(x: np.ndarray) -> np.ndarray:
    """``e^x / expm1(x)^2 = t / (1 - t)^2``, ``t = e^-x`` (no overflow for large ``x``)."""
    t = np.exp(-x)
    return t / np.expm1(-x) ** 2


def _g3(x: np.ndarray) -> np.ndarray:
    """``e^x (e^x + 1) / expm1(x)^3 = t (1 + t) / (1 - t)^3``, ``t = e^-x``."""
    t = np.exp(-x)
    return -t * (1 + t) / np.expm1(-x) ** 3


class _Boltzmann(DiscreteModel):
    dist = st.boltzmann
    integer_shapes = frozenset({"N"})
    shape_samples = ((0.6, 12), (1.4, 40))

    def dlogpmf(self, k: Any, lam: Any, big_n: Any) -> tuple[Any, ...]:
        lam, big_n = f64(lam), f64(big_n)
        return 1 / np.expm1(lam) - f64(k) - big_n / np.expm1(lam * big_n), None

    def dlogcdf(self, k: Any, lam: Any, big_n: Any) -> tuple[Any, ...]:
        lam, big_n, k = f64(lam), f64(big_n), f64(k)
        with np.errstate(all="ignore"):
            return (k + 1) / np.expm1(lam * (k + 1)) - big_n / np.expm1(lam * big_n), None

    def dlogsf(self, k: Any, lam: Any, big_n: Any) -> tuple[Any, ...]:
        (dlog_f, _) = self.dlogcdf(k, lam, big_n)
        return -dlog_f * _ratio(st.boltzmann.logcdf(k, lam, big_n), st.boltzmann.logsf(k, lam, big_n)), None

    def dmean(self, lam: Any, big_n: Any) -> tuple[Any, ...]:
        lam, big_n = f64(lam), f64(big_n)
        return -_g2(lam) + big_n ** 2 * _g2(lam * big_n), None

    def dvar(self, lam: Any, big_n: Any) -> tuple[Any, ...]:
        lam, big_n = f64(lam), f64(big_n)
        return -_g3(lam) + big_n ** 3 * _g3(lam * big_n), None


register_discrete_models(_Poisson(), _Binom(), _Bernoulli(), _NBinom(), _Geom(), _BetaBinom(), _BetaNBinom(),
                         _Zipf(), _LogSer(), _Skellam(), _YuleSimon(), _Boltzmann())
