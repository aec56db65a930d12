"""Skewed, folded and generalised laws with elementary distribution functions: laplace_asymmetric, skewcauchy,
foldcauchy, genhalflogistic, mielke, genexpon; every method in ``x`` (or ``q``), ``loc``, ``scale`` and the shapes.

The maths
---------
* laplace_asymmetric(k): ``log f0 = -k z`` (``z >= 0``), ``z/k`` (``z < 0``), ``- log(k + 1/k)``;
  ``F0 = 1 - e^(-kz)/(1 + k^2)`` above 0, ``e^(z/k) k^2/(1 + k^2)`` below. It is the difference of
  exponentials with scales ``1/k`` and ``k``: cumulants ``(n-1)! (k^-n + (-1)^n k^n)``.
* skewcauchy(a): ``f0 = 1/(pi (1 + z^2/s^2))``, ``s = 1 + a sign(z)``; ``F0 = (1-a)/2 + (s/pi) arctan(z/s)``.
* foldcauchy(c): ``f0 = (1/(1 + (z-c)^2) + 1/(1 + (z+c)^2))/pi``, ``F0 = (arctan(z-c) + arctan(z+c))/pi``.
* genhalflogistic(c): ``u = (1 - cz)^(1/c)``, ``f0 = 2u/((1 - cz)(1 + u)^2)``, ``F0 = (1 - u)/(1 + u)``; the
  derivative of ``log u = log(1 - cz)/c`` in ``c`` is genextreme's (a series near ``c = 0``). The
  support ``[0, 1/c]`` moves with ``c`` but the density vanishes at its end, so the moments'
  derivatives have no boundary term.
* mielke(k, s): ``f0 = k z^(k-1) / (1 + z^s)^(1 + k/s)``, ``log F0 = k log z - (k/s) log(1 + z^s)``;
  ``E[Z^n] = Gamma((k+n)/s) Gamma(1 - n/s) / Gamma(k/s)``.
* genexpon(a, b, c): ``log S0 = -(a + b) z + b (1 - e^(-cz))/c``,
  ``log f0 = log(a + b (1 - e^(-cz))) + log S0``.

Moments and entropies SciPy integrates numerically are differentiated by quadrature.

Examples
--------
>>> import scipy.stats as st
>>> import chainrules
>>> from chainrules import rrule, unthunk
>>> y, pullback = rrule(st.laplace_asymmetric.mean, 2.0)     # 1/k - k
>>> float(unthunk(pullback(1.0)[2]))
-1.25
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import scipy.special as sc
import scipy.stats as st

from chainrules.rulesets.special._gamma_tools import psi_increment
from chainrules.rulesets.stats._continuous import ContinuousModel, f64, raw_moment_from_cumulants, register_models
from chainrules.rulesets.stats.extreme_value import log1p_minus_ratio

__all__: list[str] = []


class _LaplaceAsymmetric(ContinuousModel):
    dist = st.laplace_asymmetric
    shape_samples = ((1.5,),)

    def kinks(self, *shapes: Any) -> tuple[float, ...]:
        return (0.0,)

    def dlogpdf_dz(self, z: Any, k: Any) -> Any:
        return np.where(z >= 0, -k, 1 / k)

    def dlogpdf_dshapes(self, z: Any, k: Any) -> Any:
        return (np.where(z >= 0, -z, -z / (k * k)) - (k * k - 1) / (k * (k * k + 1)),)

    def dcdf_dshapes(self, z: Any, k: Any) -> Any:
        q = 1 + k * k
        above = np.exp(-k * np.maximum(z, 0)) * (z / q + 2 * k / q ** 2)
        below = np.exp(np.minimum(z, 0) / k) * (-z / q + 2 * k / q ** 2)
        return (np.where(z >= 0, above, below),)

    def dmunp(self, n: int, k: Any) -> Any:
        if n > 4:
            return super().dmunp(n, k)
        k = f64(k)
        cumulants = tuple(math.factorial(j - 1) * (k ** -j + (-1) ** j * k ** j) for j in range(1, 5))
        derivatives = tuple(math.factorial(j - 1) * j * (-k ** (-j - 1) + (-1) ** j * k ** (j - 1))
                            for j in range(1, 5))
        return (raw_moment_from_cumulants(n, cumulants, derivatives),)

    def dentropy(self, k: Any) -> Any:
        k = f64(k)
        return ((k * k - 1) / (k * (k * k + 1)),)


class _SkewCauchy(ContinuousModel):
    dist = st.skewcauchy
    shape_samples = ((0.4,),)
    moments_exist = False

    def kinks(self, *shapes: Any) -> tuple[float, ...]:
        return (0.0,)

    def dlogpdf_dz(self, z: Any, a: Any) -> Any:
        s = 1 + a * np.sign(z)
        return -2 * z / (s * s + z * z)

    def dlogpdf_dshapes(self, z: Any, a: Any) -> Any:
        s = 1 + a * np.sign(z)
        return (2 * z * z * np.sign(z) / (s * (s * s + z * z)),)

    def dcdf_dshapes(self, z: Any, a: Any) -> Any:
        below = -0.5 - np.arctan(z / (1 - a)) / math.pi + z * (1 - a) / (math.pi * ((1 - a) ** 2 + z * z))
        above = -0.5 + np.arctan(z / (1 + a)) / math.pi - z * (1 + a) / (math.pi * ((1 + a) ** 2 + z * z))
        return (np.where(z <= 0, below, above),)


class _FoldCauchy(ContinuousModel):
    dist = st.foldcauchy
    shape_samples = ((1.5,),)
    moments_exist = False

    def _parts(self, z: Any, c: Any) -> tuple[Any, Any, Any, Any, Any]:
        minus, plus = 1 / (1 + (z - c) ** 2), 1 / (1 + (z + c) ** 2)
        return minus, plus, minus + plus, (z - c) * minus * minus, (z + c) * plus * plus

    def dlogpdf_dz(self, z: Any, c: Any) -> Any:
        _, _, total, dm, dp = self._parts(z, c)
        return -2 * (dm + dp) / total

    def dlogpdf_dshapes(self, z: Any, c: Any) -> Any:
        _, _, total, dm, dp = self._parts(z, c)
        return (2 * (dm - dp) / total,)

    def dcdf_dshapes(self, z: Any, c: Any) -> Any:
        minus, plus, _, _, _ = self._parts(z, c)
        return ((plus - minus) / math.pi,)


def _log_u(z: Any, c: Any) -> tuple[Any, Any]:
    """``log u = log(1 - cz)/c`` and its derivative in ``c``, ``-z^2 g(-cz)``."""
    with np.errstate(all="ignore"):
        u = c * z
        log_u = np.where(c == 0, -z, np.log1p(-u) / np.where(c == 0, 1.0, c))
        return log_u, -z * z * log1p_minus_ratio(-u)


class _GenHalfLogistic(ContinuousModel):
    dist = st.genhalflogistic
    shape_samples = ((0.4,),)
    tail_q = None

    def dlogpdf_dz(self, z: Any, c: Any) -> Any:
        u = np.exp(_log_u(z, c)[0])
        w = 1 - c * z
        return -(1 - c) / w + 2 * u / ((1 + u) * w)

    def dlogpdf_dshapes(self, z: Any, c: Any) -> Any:
        log_u, dlog_u = _log_u(z, c)
        u = np.exp(log_u)
        return (dlog_u + z / (1 - c * z) - 2 * u * dlog_u / (1 + u),)

    def dcdf_dshapes(self, z: Any, c: Any) -> Any:
        log_u, dlog_u = _log_u(z, c)
        u = np.exp(log_u)
        return (-2 * u * dlog_u / (1 + u) ** 2,)

    def dentropy(self, c: Any) -> Any:
        return (np.full(np.shape(c), -2 * math.log(2)),)


class _Mielke(ContinuousModel):
    dist = st.mielke
    shape_samples = ((2.5, 4.5),)

    def dlogpdf_dz(self, z: Any, k: Any, s: Any) -> Any:
        w = z ** s
        return (k - 1) / z - (s + k) * z ** (s - 1) / (1 + w)

    def dlogpdf_dshapes(self, z: Any, k: Any, s: Any) -> Any:
        w = z ** s
        logz, l1 = np.log(z), np.log1p(w)
        return (1 / k + logz - l1 / s, k * l1 / (s * s) - (1 + k / s) * w * logz / (1 + w))

    def _dlogcdf(self, z: Any, k: Any, s: Any) -> tuple[Any, Any]:
        w = z ** s
        logz, l1 = np.log(z), np.log1p(w)
        return logz - l1 / s, k * l1 / (s * s) - (k / s) * w * logz / (1 + w)

    def dcdf_dshapes(self, z: Any, k: Any, s: Any) -> Any:
        cdf = z ** k / (1 + z ** s) ** (k / s)
        return tuple(cdf * d for d in self._dlogcdf(z, k, s))

    def dlogcdf_dshapes(self, z: Any, logcdf: Any, k: Any, s: Any) -> Any:
        return self._dlogcdf(z, k, s)

    def dmunp(self, n: int, k: Any, s: Any) -> Any:  # Gamma((k+n)/s) Gamma(1 - n/s) / Gamma(k/s)
        k, s = f64(k), f64(s)
        m = np.exp(sc.gammaln((k + n) / s) + sc.gammaln(1 - n / s) - sc.gammaln(k / s))
        dk = m * psi_increment(k / s, n / s) / s
        ds = m * (-(k + n) * sc.psi((k + n) / s) + n * sc.psi(1 - n / s) + k * sc.psi(k / s)) / (s * s)
        return (dk, ds)


class _GenExpon(ContinuousModel):
    dist = st.genexpon
    shape_samples = ((1.5, 2.0, 1.2),)

    def _logsf(self, z: Any, a: Any, b: Any, c: Any) -> tuple[Any, tuple[Any, Any, Any]]:
        e = -np.expm1(-c * z)  # 1 - e^(-cz)
        logsf = -(a + b) * z + b * e / c
        de_dc = z * np.exp(-c * z)
        return logsf, (-z, -z + e / c, b * (de_dc / c - e / (c * c)))

    def dlogpdf_dz(self, z: Any, a: Any, b: Any, c: Any) -> Any:
        e = -np.expm1(-c * z)
        return b * c * np.exp(-c * z) / (a + b * e) - (a + b) + b * np.exp(-c * z)

    def dlogpdf_dshapes(self, z: Any, a: Any, b: Any, c: Any) -> Any:
        e = -np.expm1(-c * z)
        h = a + b * e
        _, (la, lb, lc) = self._logsf(z, a, b, c)
        return (1 / h + la, e / h + lb, b * z * np.exp(-c * z) / h + lc)

    def dcdf_dshapes(self, z: Any, a: Any, b: Any, c: Any) -> Any:
        logsf, d = self._logsf(z, a, b, c)
        sf = np.exp(logsf)
        return tuple(-sf * di for di in d)

    def dlogsf_dshapes(self, z: Any, logsf: Any, a: Any, b: Any, c: Any) -> Any:
        return self._logsf(z, a, b, c)[1]

    def dlogcdf_dshapes(self, z: Any, logcdf: Any, a: Any, b: Any, c: Any) -> Any:
        logsf, d = self._logsf(z, a, b, c)
        with np.errstate(all="ignore"):
            factor = -1 / np.expm1(-logsf)  # -S / F
        return tuple(factor * di for di in d)


register_models(_LaplaceAsymmetric(), _SkewCauchy(), _FoldCauchy(), _GenHalfLogistic(), _Mielke(), _GenExpon())
