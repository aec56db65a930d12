"""Extreme-value and Weibull-type distributions: genextreme, weibull_min, weibull_max, dweibull, invweibull,
gompertz, exponweib, exponpow, genlogistic, kappa4; every method in ``x`` (or ``q``), ``loc``, ``scale`` and the shapes.

The maths
---------
Their distribution functions are elementary, ``F0 = exp(-t)`` or ``1 - exp(-t)`` with ``t`` a power or
exponential of ``z``, so the shape derivatives are written in log space: ``d log F0/dc`` and
``d log S0/dc`` directly (never ``F_c / F`` where ``F`` underflows):

===============  =========================================================  =======================================
distribution     ``log f0(z)``                                              distribution function
===============  =========================================================  =======================================
genextreme(c)    ``-t + (1/c - 1) log(1 - cz)``                             ``log F0 = -t``, ``t = (1 - cz)^(1/c)``
weibull_min(c)   ``log c + (c-1) log z - z^c``                              ``log S0 = -z^c``
weibull_max(c)   ``log c + (c-1) log(-z) - (-z)^c``                         ``log F0 = -(-z)^c``
dweibull(c)      ``log(c/2) + (c-1) log|z| - |z|^c``                        ``F0 = exp(-|z|^c)/2`` below 0
invweibull(c)    ``log c - (c+1) log z - z^-c``                             ``log F0 = -z^-c``
gompertz(c)      ``log c + z - c (e^z - 1)``                                ``log S0 = -c (e^z - 1)``
exponweib(a, c)  ``log(ac) + (a-1) log(1 - e^(-z^c)) - z^c + (c-1) log z``  ``log F0 = a log(1 - e^(-z^c))``
exponpow(b)      ``1 + log b + (b-1) log z + z^b - e^(z^b)``                ``log S0 = -(e^(z^b) - 1)``
genlogistic(c)   ``log c - z - (c+1) log(1 + e^-z)``                        ``log F0 = -c log(1 + e^-z)``
===============  =========================================================  =======================================

genextreme at ``c -> 0`` (the Gumbel law) has ``log t = log(1 - cz)/c``, whose derivative
``-(log(1 - u) + u/(1 - u))/c^2`` (``u = cz``) cancels: it is summed as
``-z^2 sum_k (k-1)/k u^(k-2)`` for ``|u| < 0.1``. Its mean ``(1 - Gamma(1+c))/c`` and variance
``(Gamma(1+2c) - Gamma(1+c)^2)/c^2`` are differentiated through ``log Gamma``, with their
Taylor series in ``c`` (the Gamma function's coefficients: Euler's constant, ``zeta(3)``,
``zeta(5)``) for ``|c| < 1e-4`` where the closed forms cancel.

Moments: weibull ``E[Z^n] = Gamma(1 + n/c)``, invweibull ``Gamma(1 - n/c)``, genlogistic from
its cumulants ``psi^(n-1)(c) + (-1)^n psi^(n-1)(1)``, gompertz's mean ``e^c E1(c)``; where
SciPy integrates the moments numerically (gompertz's variance, exponweib, exponpow), their
derivatives are integrated too (:func:`~chainrules.rulesets.stats._continuous.expectation_partials`).

Examples
--------
>>> import scipy.stats as st
>>> import chainrules
>>> from chainrules import rrule, unthunk
>>> y, pullback = rrule(st.weibull_min.logsf, 2.0, 1.5)     # log S = -x^c: d/dc = -x^c log x
>>> round(float(unthunk(pullback(1.0)[3])), 12)
-1.960516286937
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import scipy.special as sc
import scipy.stats as st

from chainrules.rulesets.special._gamma_tools import trigamma
from chainrules.rulesets.stats._continuous import (
    ContinuousModel,
    f64,
    raw_moment_from_cumulants,
    register_models,
)
from chainrules_core import not_implemented

__all__: list[str] = []

_EULER = 0.5772156649015329
_ZETA3 = 1.2020569031595942
_ZETA5 = 1.0369277551433699


def log1p_minus_ratio(u: Any) -> Any:
    """``(log(1 + u) - u/(1 + u)) / u^2``, accurate for small ``u`` (``1/2 - 2u/3 + 3u^2/4 - ...``)."""
    u = f64(u)
    with np.errstate(all="ignore"):
        out = np.asarray((np.log1p(u) - u / (1 + u)) / (u * u), dtype=np.float64)
        small = np.abs(u) < 0.1
        if np.any(small):
            us = u[small] if out.ndim else u
            total = np.zeros_like(us)
            for k in range(24, 1, -1):  # sum_(k>=2) (-1)^k (k-1)/k u^(k-2), Horner
                total = total * us + (-1) ** k * (k - 1) / k
            if out.ndim:
                out[small] = total
            else:
                out = np.asarray(total)
    return out[()]


def _xlogz(w: Any, z: Any) -> Any:
    """``w log z`` with 0 where ``w`` is 0 (``z^c log z`` at ``z = 0``)."""
    with np.errstate(all="ignore"):
        return np.where(w == 0, 0.0, w * np.log(z))


def _log1mexp(w: Any) -> Any:
    """``log(1 - e^-w)`` for ``w > 0``, accurate at both ends (Maechler, *Accurately computing log(1 - exp(-|a|))*,
    2012): ``log(-expm1(-w))`` below ``log 2``, ``log1p(-e^-w)`` above."""
    w = np.asarray(w, dtype=np.float64)
    with np.errstate(all="ignore"):
        return np.where(w < np.log(2.0), np.log(-np.expm1(-w)), np.log1p(-np.exp(-w)))


# ---- genextreme -------------------------------------------------------------------------------------------
def _genextreme_t(z: Any, c: Any) -> tuple[Any, Any, Any]:
    """``(t, 1 - cz, d log t / dc)``."""
    with np.errstate(all="ignore"):
        u = c * z
        one_minus = 1 - u
        log_t = np.where(c == 0, -z, np.log1p(-u) / np.where(c == 0, 1.0, c))
        dlog_t = -z * z * log1p_minus_ratio(-u)
    return np.exp(log_t), one_minus, dlog_t


def _gamma_series(c: Any) -> tuple[float, ...]:
    """``Gamma(1 + c) = sum g_k c^k``: ``g_0..g_4``."""
    g = _EULER
    p2 = math.pi ** 2
    return (1.0, -g, (g * g + p2 / 6) / 2, -(g ** 3 + g * p2 / 2 + 2 * _ZETA3) / 6,
            (g ** 4 + g * g * p2 + 8 * g * _ZETA3 + 3 * p2 * p2 / 20) / 24)


class _GenExtreme(ContinuousModel):
    dist = st.genextreme
    shape_samples = ((0.3,), (-0.2,))

    def dlogpdf_dz(self, z: Any, c: Any) -> Any:
        t, w, _ = _genextreme_t(z, c)
        return (t - 1 + c) / w

    def dlogpdf_dshapes(self, z: Any, c: Any) -> Any:
        t, w, dlog_t = _genextreme_t(z, c)
        return ((1 - t) * dlog_t + z / w,)

    def dcdf_dshapes(self, z: Any, c: Any) -> Any:
        t, _, dlog_t = _genextreme_t(z, c)
        return (-np.exp(-t) * t * dlog_t,)

    def dlogcdf_dshapes(self, z: Any, logcdf: Any, c: Any) -> Any:
        t, _, dlog_t = _genextreme_t(z, c)
        return (-t * dlog_t,)

    def dlogsf_dshapes(self, z: Any, logsf: Any, c: Any) -> Any:
        t, _, dlog_t = _genextreme_t(z, c)
        with np.errstate(all="ignore"):
            return (t * dlog_t / np.expm1(t),)  # S = 1 - e^-t: -F_c/S = e^-t t dlog_t / (1 - e^-t)

    def dmean(self, c: Any) -> Any:
        c = f64(c)
        g = _gamma_series(c)
        with np.errstate(all="ignore"):
            gl = sc.gammaln(1 + c)
            closed = -(np.exp(gl) * sc.psi(1 + c) * c - np.expm1(gl)) / (c * c)
        series = -(g[2] + 2 * g[3] * c + 3 * g[4] * c * c)
        return (np.where(np.abs(c) < 1e-4, series, closed),)

    def dvar(self, c: Any) -> Any:
        c = f64(c)
        with np.errstate(all="ignore"):
            g1 = sc.gamma(1 + c)
            d = sc.gammaln(1 + 2 * c) - 2 * sc.gammaln(1 + c)
            e = np.where(c == 0, math.pi ** 2 / 6, np.expm1(d) / (c * c))
            de_closed = (np.exp(d) * 2 * (sc.psi(1 + 2 * c) - sc.psi(1 + c)) * c - 2 * np.expm1(d)) / c ** 3
            e3 = -6 * _ZETA5 - math.pi ** 2 * _ZETA3 / 3  # E = pi^2/6 - 2 zeta(3) c + pi^4/30 c^2 + e3 c^3 + ...
            de_series = -2 * _ZETA3 + 2 * (math.pi ** 4 / 30) * c + 3 * e3 * c * c
            de = np.where(np.abs(c) < 1e-4, de_series, de_closed)
            return (g1 * g1 * (2 * sc.psi(1 + c) * e + de),)

    def dmunp(self, n: int, c: Any) -> Any:
        if n <= 2:
            return super().dmunp(n, c)
        c = f64(c)
        k = np.arange(n + 1).reshape((-1,) + (1,) * c.ndim)
        terms = sc.comb(n, k) * (-1.0) ** k * sc.gamma(c * k + 1)
        total = np.sum(terms, axis=0)
        dtotal = np.sum(terms * k * sc.psi(c * k + 1), axis=0)
        return (-n * total / c ** (n + 1) + dtotal / c ** n,)

    def dentropy(self, c: Any) -> Any:
        return (np.full(np.shape(c), -_EULER),)


# ---- Weibull types -----------------------------------------------------------------------------------------
def _weibull_munp(n: int, c: Any, sign: float = 1.0) -> Any:
    """``d/dc Gamma(1 + sign n/c)``."""
    r = sign * n / c
    return sc.gamma(1 + r) * sc.psi(1 + r) * (-sign * n / c ** 2)


class _WeibullMin(ContinuousModel):
    dist = st.weibull_min
    shape_samples = ((1.8,), (0.7,))

    def dlogpdf_dz(self, z: Any, c: Any) -> Any:
        return (c - 1) / z - c * z ** (c - 1)

    def dlogpdf_dshapes(self, z: Any, c: Any) -> Any:
        return (1 / c + _xlogz(1 - z ** c, z),)

    def dcdf_dshapes(self, z: Any, c: Any) -> Any:
        w = z ** c
        return (np.exp(-w) * _xlogz(w, z),)

    def dlogcdf_dshapes(self, z: Any, logcdf: Any, c: Any) -> Any:
        w = z ** c
        with np.errstate(all="ignore"):
            return (_xlogz(w, z) / np.expm1(w),)  # log F = log(1 - e^-w): e^-w w log z / (1 - e^-w)

    def dlogsf_dshapes(self, z: Any, logsf: Any, c: Any) -> Any:
        return (-_xlogz(z ** c, z),)

    def dmunp(self, n: int, c: Any) -> Any:
        return (_weibull_munp(n, c),)

    def dentropy(self, c: Any) -> Any:
        return (_EULER / c ** 2 - 1 / c,)


class _WeibullMax(ContinuousModel):
    dist = st.weibull_max
    shape_samples = ((1.8,),)

    def dlogpdf_dz(self, z: Any, c: Any) -> Any:
        w = -z
        return -((c - 1) / w - c * w ** (c - 1))

    def dlogpdf_dshapes(self, z: Any, c: Any) -> Any:
        w = -z
        return (1 / c + _xlogz(1 - w ** c, w),)

    def dcdf_dshapes(self, z: Any, c: Any) -> Any:
        u = (-z) ** c
        return (-np.exp(-u) * _xlogz(u, -z),)

    def dlogcdf_dshapes(self, z: Any, logcdf: Any, c: Any) -> Any:
        return (-_xlogz((-z) ** c, -z),)

    def dlogsf_dshapes(self, z: Any, logsf: Any, c: Any) -> Any:
        u = (-z) ** c
        with np.errstate(all="ignore"):
            return (_xlogz(u, -z) / np.expm1(u),)

    def dmunp(self, n: int, c: Any) -> Any:
        return ((-1) ** n * _weibull_munp(n, c),)

    def dentropy(self, c: Any) -> Any:
        return (_EULER / c ** 2 - 1 / c,)


class _DWeibull(ContinuousModel):
    dist = st.dweibull
    shape_samples = ((1.8,),)

    def dlogpdf_dz(self, z: Any, c: Any) -> Any:
        a = np.abs(z)
        return (c - 1) / z - c * a ** (c - 1) * np.sign(z)

    def dlogpdf_dshapes(self, z: Any, c: Any) -> Any:
        a = np.abs(z)
        return (1 / c + _xlogz(1 - a ** c, a),)

    def dcdf_dshapes(self, z: Any, c: Any) -> Any:
        a = np.abs(z)
        u = a ** c
        return (np.sign(z) * np.exp(-u) * _xlogz(u, a) / 2,)

    def dmunp(self, n: int, c: Any) -> Any:
        if n % 2:
            return (np.zeros_like(f64(c)),)
        return (_weibull_munp(n, c),)

    def dentropy(self, c: Any) -> Any:
        return (_EULER / c ** 2 - 1 / c,)


class _InvWeibull(ContinuousModel):
    dist = st.invweibull
    shape_samples = ((4.5,),)

    def dlogpdf_dz(self, z: Any, c: Any) -> Any:
        return (c * z ** -c - (c + 1)) / z

    def dlogpdf_dshapes(self, z: Any, c: Any) -> Any:
        return (1 / c + _xlogz(z ** -c - 1, z),)

    def dcdf_dshapes(self, z: Any, c: Any) -> Any:
        u = z ** -c
        return (np.exp(-u) * _xlogz(u, z),)

    def dlogcdf_dshapes(self, z: Any, logcdf: Any, c: Any) -> Any:
        return (_xlogz(z ** -c, z),)

    def dlogsf_dshapes(self, z: Any, logsf: Any, c: Any) -> Any:
        u = z ** -c
        with np.errstate(all="ignore"):
            return (-_xlogz(u, z) / np.expm1(u),)

    def dmunp(self, n: int, c: Any) -> Any:
        return (_weibull_munp(n, c, -1.0),)

    def dentropy(self, c: Any) -> Any:
        return (-_EULER / c ** 2 - 1 / c,)


# ---- gompertz, exponweib, exponpow ----------------------------------------------------------------------------
class _Gompertz(ContinuousModel):
    dist = st.gompertz
    shape_samples = ((1.5,),)

    def dlogpdf_dz(self, z: Any, c: Any) -> Any:
        return 1 - c * np.exp(z)

    def dlogpdf_dshapes(self, z: Any, c: Any) -> Any:
        return (1 / c - np.expm1(z),)

    def dcdf_dshapes(self, z: Any, c: Any) -> Any:
        e = np.expm1(z)
        return (np.exp(-c * e) * e,)

    def dlogcdf_dshapes(self, z: Any, logcdf: Any, c: Any) -> Any:
        e = np.expm1(z)
        with np.errstate(all="ignore"):
            return (e / np.expm1(c * e),)

    def dlogsf_dshapes(self, z: Any, logsf: Any, c: Any) -> Any:
        return (-np.expm1(z),)

    def dmean(self, c: Any) -> Any:  # E[Z] = e^c E1(c)
        c = f64(c)
        return (sc.exp1(c) * np.exp(c) - 1 / c,)

    def dentropy(self, c: Any) -> Any:  # h = 1 - log c - e^c E1(c)
        c = f64(c)
        return (-np.exp(c) * sc.exp1(c),)


class _ExponWeib(ContinuousModel):
    dist = st.exponweib
    shape_samples = ((2.5, 1.5),)

    def dlogpdf_dz(self, z: Any, a: Any, c: Any) -> Any:
        w = z ** c
        e = -np.expm1(-w)
        dw = c * z ** (c - 1)
        return (a - 1) * np.exp(-w) * dw / e - dw + (c - 1) / z

    def dlogpdf_dshapes(self, z: Any, a: Any, c: Any) -> Any:
        w = z ** c
        e = -np.expm1(-w)
        wl = _xlogz(w, z)
        with np.errstate(all="ignore"):
            return (1 / a + np.log(e), 1 / c + np.log(z) + (a - 1) * wl / np.expm1(w) - wl)

    def _dlogcdf(self, z: Any, a: Any, c: Any) -> tuple[Any, Any, Any]:
        """``log F0 = a L``, ``L = log(1 - e^-w)``, ``w = z^c``, and ``d log F0/d(a, c)``."""
        w = z ** c
        log_e = _log1mexp(w)
        with np.errstate(all="ignore"):
            return a * log_e, log_e, a * _xlogz(w, z) / np.expm1(w)

    def dcdf_dshapes(self, z: Any, a: Any, c: Any) -> Any:
        logcdf, da, dc = self._dlogcdf(z, a, c)
        cdf = np.exp(logcdf)
        return (cdf * da, cdf * dc)

    def dlogcdf_dshapes(self, z: Any, logcdf: Any, a: Any, c: Any) -> Any:
        return self._dlogcdf(z, a, c)[1:]

    def dlogsf_dshapes(self, z: Any, logsf: Any, a: Any, c: Any) -> Any:
        """``-F_theta / S`` with ``F/S = e^(aL) / -expm1(aL)`` (``S = 1 - e^(aL)``
        to full precision where ``F`` is within rounding of 1)."""
        logcdf, da, dc = self._dlogcdf(z, a, c)
        with np.errstate(all="ignore"):
            ratio = np.exp(logcdf) / -np.expm1(logcdf)  # F / S
        return (-ratio * da, -ratio * dc)


class _ExponPow(ContinuousModel):
    dist = st.exponpow
    shape_samples = ((2.5,),)

    def dlogpdf_dz(self, z: Any, b: Any) -> Any:
        w = z ** b
        return (b - 1) / z - b * z ** (b - 1) * np.expm1(w)

    def dlogpdf_dshapes(self, z: Any, b: Any) -> Any:
        w = z ** b
        return (1 / b + np.log(z) - _xlogz(w, z) * np.expm1(w),)

    def dcdf_dshapes(self, z: Any, b: Any) -> Any:
        w = z ** b
        return (np.exp(-np.expm1(w)) * np.exp(w) * _xlogz(w, z),)

    def dlogsf_dshapes(self, z: Any, logsf: Any, b: Any) -> Any:
        w = z ** b
        return (-np.exp(w) * _xlogz(w, z),)


# ---- genlogistic ---------------------------------------------------------------------------------------------
class _GenLogistic(ContinuousModel):
    dist = st.genlogistic
    shape_samples = ((2.5,),)

    def dlogpdf_dz(self, z: Any, c: Any) -> Any:
        return -1 + (c + 1) * sc.expit(-z)

    def dlogpdf_dshapes(self, z: Any, c: Any) -> Any:
        return (1 / c - np.logaddexp(0, -z),)

    def dcdf_dshapes(self, z: Any, c: Any) -> Any:
        softplus = np.logaddexp(0, -z)
        return (-np.exp(-c * softplus) * softplus,)

    def dlogcdf_dshapes(self, z: Any, logcdf: Any, c: Any) -> Any:
        return (-np.logaddexp(0, -z),)

    def dlogsf_dshapes(self, z: Any, logsf: Any, c: Any) -> Any:
        softplus = np.logaddexp(0, -z)
        with np.errstate(all="ignore"):
            return (softplus / np.expm1(c * softplus),)

    def _cumulants(self, c: Any) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
        c = f64(c)
        k = tuple(sc.polygamma(j, c) + (-1) ** (j + 1) * sc.polygamma(j, 1.0) for j in range(4))
        return k, tuple(sc.polygamma(j + 1, c) for j in range(4))

    def dmean(self, c: Any) -> Any:
        return (trigamma(c),)

    def dvar(self, c: Any) -> Any:
        return (sc.polygamma(2, c),)

    def dmunp(self, n: int, c: Any) -> Any:
        if n > 4:
            return super().dmunp(n, c)
        k, d = self._cumulants(c)
        return (raw_moment_from_cumulants(n, k, d),)

    def dentropy(self, c: Any) -> Any:
        c = f64(c)
        return (np.where(c < 8e6, -1 / c + trigamma(c + 1), -1 / (2 * c * c)),)


# ---- kappa4 ---------------------------------------------------------------------------------------------------
class _Kappa4(ContinuousModel):
    """Hosking's four-parameter kappa law (*IBM J. Res. Dev.* 38 (1994) 251): ``log F0 = log(1 - h t)/h``,
    ``t = (1 - kz)^(1/k)``, ``log f0 = (1 - k) log t + (1/h - 1) log(1 - h t)``, with ``d log t/dk = -z^2 g(-kz)``
    (genextreme's series near ``k = 0``). SciPy switches to other formulas at ``h = 0`` or ``k = 0`` exactly
    (the limits); the shape derivatives there are ``not_implemented``."""

    dist = st.kappa4
    shape_samples = ((0.4, 0.3),)  # 0 < h, k < 1: the density vanishes at both (moving) ends
    tail_q = None  # a bounded support
    slow_all_moments = "SciPy integrates ppf(q)^n over q for every moment (tens of seconds per check)"

    @staticmethod
    def _parts(z: Any, h: Any, k: Any) -> tuple[Any, Any, Any, Any]:
        """``t``, ``log t``, ``d log t/dk`` and ``log(1 - h t)``."""
        with np.errstate(all="ignore"):
            log_t = np.log1p(-k * z) / k
            t = np.exp(log_t)
            return t, log_t, -z * z * log1p_minus_ratio(-k * z), np.log1p(-h * t)

    def ends_vanish(self, h: Any, k: Any) -> bool | None:
        """The lower end ``(1 - h^-k)/k`` (``t = 1/h``) moves for ``h > 0`` and the density vanishes there for
        ``h < 1``; the upper end ``1/k`` (``t = 0``) moves for ``k > 0``, the density vanishing for ``k < 1``."""
        lower = (0 < h < 1) or (h <= 0 and k >= 0)
        upper = (0 < k < 1) or k <= 0
        return bool(lower and upper) if not (h <= 0 and k < 0) else None

    @staticmethod
    def _at_a_switch(h: Any, k: Any, what: str) -> Any:
        if np.any(f64(h) == 0) or np.any(f64(k) == 0):
            return not_implemented(f"scipy.stats.kappa4.{what}: SciPy switches to the limiting formulas at h = 0 or "
                                   "k = 0 exactly; their shape derivatives are not written")
        return None

    def dlogpdf_dz(self, z: Any, h: Any, k: Any) -> Any:
        with np.errstate(all="ignore"):
            w = 1 - k * z
            t = np.exp(np.log1p(-k * z) / np.where(k == 0, 1.0, k))
            t = np.where(k == 0, np.exp(-z), t)
            return -(1 - k) / w + (1 - h) * t / ((1 - h * t) * w)

    def dlogpdf_dshapes(self, z: Any, h: Any, k: Any) -> Any:
        switch = self._at_a_switch(h, k, "logpdf")
        if switch is not None:
            return (switch, switch)
        t, log_t, dlog_t, log_1ht = self._parts(z, h, k)
        with np.errstate(all="ignore"):
            dh = -log_1ht / (h * h) - (1 / h - 1) * t / (1 - h * t)
            dk = -log_t + dlog_t * ((1 - k) - (1 - h) * t / (1 - h * t))
        return (dh, dk)

    def _dlogcdf(self, z: Any, h: Any, k: Any) -> tuple[Any, Any]:
        t, _, dlog_t, log_1ht = self._parts(z, h, k)
        with np.errstate(all="ignore"):
            return -log_1ht / (h * h) - t / (h * (1 - h * t)), -t * dlog_t / (1 - h * t)

    def dlogcdf_dshapes(self, z: Any, logcdf: Any, h: Any, k: Any) -> Any:
        switch = self._at_a_switch(h, k, "logcdf")
        return (switch, switch) if switch is not None else self._dlogcdf(z, h, k)

    def dcdf_dshapes(self, z: Any, h: Any, k: Any) -> Any:
        switch = self._at_a_switch(h, k, "cdf")
        if switch is not None:
            return (switch, switch)
        cdf = f64(self.dist.cdf(z, h, k))
        return tuple(cdf * d for d in self._dlogcdf(z, h, k))

    def dlogsf_dshapes(self, z: Any, logsf: Any, h: Any, k: Any) -> Any:
        switch = self._at_a_switch(h, k, "logsf")
        if switch is not None:
            return (switch, switch)
        with np.errstate(all="ignore"):
            ratio = -np.expm1(logsf) / np.exp(logsf)  # F/S
        return tuple(-ratio * d for d in self._dlogcdf(z, h, k))


register_models(_GenExtreme(), _WeibullMin(), _WeibullMax(), _DWeibull(), _InvWeibull(), _Gompertz(), _ExponWeib(),
                _ExponPow(), _GenLogistic(), _Kappa4())
