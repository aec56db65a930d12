"""Distributions built on the normal distribution: lognorm, skewnorm, truncnorm, foldnorm, exponnorm, powernorm,
powerlognorm, invgauss, recipinvgauss, fatiguelife, johnsonsb, johnsonsu, alpha, crystalball, dpareto_lognorm; every
method in ``x`` (or ``q``), ``loc``, ``scale`` and the shapes.

The maths
---------
With ``phi``, ``Phi`` the standard normal density and distribution function, the ratio
``r(t) = phi(t)/Phi(t)`` (the derivative of ``log Phi``) is ``exp(log phi(t) - log Phi(t))``
with SciPy's ``log_ndtr``: finite and accurate in both tails (``r(t) ~ -t`` as ``t -> -inf``).
Distribution functions and their shape derivatives:

* lognorm(s): ``F0 = Phi(u)``, ``u = log z / s``; ``d log F/ds = -u r(u)/s``;
* skewnorm(a): ``F0 = Phi(z) - 2 T(z, a)`` (Owen's T); ``F_a = -exp(-z^2 (1+a^2)/2) / (pi (1+a^2))``;
* truncnorm(a, b): ``F0 = (Phi(z) - Phi(a)) / (Phi(b) - Phi(a))``: log-space Gaussian masses (below);
* foldnorm(c): ``F0 = Phi(z-c) + Phi(z+c) - 1``; ``F_c = phi(z+c) - phi(z-c)``;
* exponnorm(K): ``F0 = Phi(z) - exp(g)``, ``g = (1/(2K) - z)/K + log Phi(z - 1/K)``; ``F_K = -exp(g) dg/dK``;
* powernorm(c): ``log S0 = c log Phi(-z)``; ``d log S/dc = log Phi(-z)``;
* powerlognorm(c, s): ``log S0 = c log Phi(-u)``, ``u = log z / s``; idem;
* invgauss(mu): ``F0 = Phi(u1) + e^(2/mu) Phi(-u2)``; ``F_mu = -(2/mu^2) e^(2/mu) Phi(-u2)``;
* recipinvgauss(mu): ``F0 = Phi(v1) - e^(2/mu) Phi(v2)``; ``F_mu = (2/mu^2) e^(2/mu) Phi(v2)``;
* fatiguelife(c): ``F0 = Phi(h)``, ``h = (sqrt z - 1/sqrt z)/c``; ``d log F/dc = -h r(h)/c``;
* johnsonsb(a, b): ``F0 = Phi(h)``, ``h = a + b logit z``; ``F_a = phi(h)``, ``F_b = phi(h) logit z``;
* johnsonsu(a, b): ``F0 = Phi(h)``, ``h = a + b asinh z``; ``F_a = phi(h)``, ``F_b = phi(h) asinh z``;
* alpha(a): ``F0 = Phi(a - 1/z) / Phi(a)``; ``d log F/da = r(a - 1/z) - r(a)``;
* crystalball(beta, m) (Oreglia 1980, SLAC-236, appendix D): a normal core ``e^(-z^2/2)`` above ``-beta``, a power
  tail ``A (B - z)^-m`` below (``A = (m/beta)^m e^(-beta^2/2)``, ``B = m/beta - beta``), normalised by
  ``M = T + sqrt(2 pi) Phi(beta)``, ``T = (m/beta) e^(-beta^2/2)/(m - 1)``. Above ``-beta``
  ``S0 = sqrt(2 pi) Phi(-z)/M``, so ``d log S0 = -d log M``; below, ``F0 = A (B - z)^(1-m)/((m - 1) M)`` in
  log space. The moments are SciPy's finite sums with ``P((n+1)/2, beta^2/2)``, differentiated term by term.

(invgauss: ``u1 = (z/mu - 1)/sqrt z``, ``u2 = (z/mu + 1)/sqrt z``; the ``phi`` terms cancel because
``e^(2/mu) phi(u2) = phi(u1)``; likewise for recipinvgauss.) Owen's ``dT/da`` is DLMF-free
elementary (Owen 1956): ``exp(-h^2 (1+a^2)/2) / (2 pi (1+a^2))``.

**truncnorm** has a support that moves with ``a`` and ``b``. With the Gaussian mass
``Z = Phi(b) - Phi(a)`` in log space (``log Phi(b) + log(1 - Phi(a)/Phi(b))``, mirrored for
``a > 0``), ``alpha = phi(a)/Z``, ``beta = phi(b)/Z``: ``dlog f/da = alpha``, ``dlog f/db = -beta``,
``d log F/da = alpha - phi(a)/M(a, z)``, ``d log S/db = phi(b)/M(z, b) - beta`` (``M`` the mass
between its arguments). Every expectation of a truncated law obeys
``dE[g]/da = alpha (E[g] - g(a))`` and ``dE[g]/db = beta (g(b) - E[g])`` (differentiating the
integral and its ends), which gives the mean, variance, raw moments and entropy
(``h = log(sqrt(2 pi e) Z) + (a alpha - b beta)/2``).

Moments: lognorm ``E[Z^n] = e^(n^2 s^2/2)``; skewnorm's odd moments from ``Z = delta |U| + sqrt(1 - delta^2) V``
(``delta = a/sqrt(1+a^2)``), the even ones do not depend on ``a``; exponnorm, invgauss and fatiguelife from their
cumulants; johnsonsu from ``E[sinh^n((N - a)/b)] = 2^-n sum_j C(n, j) (-1)^j exp(-(n-2j) a/b + (n-2j)^2/(2b^2))``;
foldnorm's mean ``2 phi(c) + c erf(c/sqrt 2)`` (derivative ``erf(c/sqrt 2)``); the rest (and the entropies SciPy
integrates numerically) by quadrature of the derivative.

Examples
--------
>>> import scipy.stats as st
>>> import chainrules
>>> from chainrules import rrule, unthunk
>>> y, pullback = rrule(st.skewnorm.cdf, 0.5, 2.0)   # d/da = -exp(-z^2 (1+a^2)/2)/(pi (1+a^2)); mpmath agrees
>>> round(float(unthunk(pullback(1.0)[3])), 12)
-0.034075800878
"""

from __future__ import annotations

import math
from typing import Any, ClassVar

import numpy as np
import scipy.special as sc
import scipy.stats as st

from chainrules.rulesets.special.incomplete_gamma import gammainc_dx
from chainrules.rulesets.stats._continuous import (
    ContinuousModel,
    f64,
    raw_moment_from_cumulants,
    register_models,
)

__all__: list[str] = []

_LOG_SQRT_2PI = 0.5 * math.log(2 * math.pi)
_SQRT_2_OVER_PI = math.sqrt(2 / math.pi)


def _logphi(t: Any) -> Any:
    return -0.5 * t * t - _LOG_SQRT_2PI


def _phi(t: Any) -> Any:
    return np.exp(_logphi(t))


def _ratio(t: Any) -> Any:
    """``phi(t) / Phi(t)``, in log space (accurate in both tails)."""
    with np.errstate(all="ignore"):
        return np.exp(_logphi(t) - sc.log_ndtr(t))


def _log_mass(a: Any, b: Any) -> Any:
    """``log(Phi(b) - Phi(a))`` for ``a < b`` without cancellation (log space in the tails)."""
    a, b = np.broadcast_arrays(f64(a), f64(b))
    with np.errstate(all="ignore"):
        left = sc.log_ndtr(b) + np.log1p(-np.exp(sc.log_ndtr(a) - sc.log_ndtr(b)))  # b <= 0
        right = sc.log_ndtr(-a) + np.log1p(-np.exp(sc.log_ndtr(-b) - sc.log_ndtr(-a)))  # a >= 0
        middle = np.log1p(-sc.ndtr(a) - sc.ndtr(-b))
        return np.where(b <= 0, left, np.where(a >= 0, right, middle))


def _log_cdf_ratio(logf: Any, logcdf: Any) -> Any:
    """``exp(logf - logcdf)`` (a density over a probability, both given by their logarithms)."""
    with np.errstate(all="ignore"):
        return np.exp(logf - logcdf)


# ---- lognorm, fatiguelife, johnsonsb, johnsonsu: F = Phi(h(z, theta)) ---------------------------------------
class _LogNorm(ContinuousModel):
    dist = st.lognorm
    shape_samples = ((0.6,),)

    def dlogpdf_dz(self, z: Any, s: Any) -> Any:
        return -(1 + np.log(z) / (s * s)) / z

    def dlogpdf_dshapes(self, z: Any, s: Any) -> Any:
        u = np.log(z) / s
        return ((u * u - 1) / s,)

    def dcdf_dshapes(self, z: Any, s: Any) -> Any:
        u = np.log(z) / s
        return (-_phi(u) * u / s,)

    def dlogcdf_dshapes(self, z: Any, logcdf: Any, s: Any) -> Any:
        u = np.log(z) / s
        return (-u * _ratio(u) / s,)

    def dlogsf_dshapes(self, z: Any, logsf: Any, s: Any) -> Any:
        u = np.log(z) / s
        return (u * _ratio(-u) / s,)

    def dmunp(self, n: int, s: Any) -> Any:
        s = f64(s)
        return (n * n * s * np.exp(n * n * s * s / 2),)

    def dvar(self, s: Any) -> Any:
        p = np.exp(f64(s) ** 2)
        return (2 * s * p * (2 * p - 1),)

    def dentropy(self, s: Any) -> Any:
        return (1 / f64(s),)


class _FatigueLife(ContinuousModel):
    dist = st.fatiguelife
    shape_samples = ((0.8,),)

    def dlogpdf_dz(self, z: Any, c: Any) -> Any:
        return 1 / (z + 1) - (z * z - 1) / (2 * z * z * c * c) - 1.5 / z

    def dlogpdf_dshapes(self, z: Any, c: Any) -> Any:
        return ((z - 1) ** 2 / (z * c ** 3) - 1 / c,)

    def _h(self, z: Any, c: Any) -> Any:
        r = np.sqrt(z)
        return (r - 1 / r) / c

    def dcdf_dshapes(self, z: Any, c: Any) -> Any:
        h = self._h(z, c)
        return (-_phi(h) * h / c,)

    def dlogcdf_dshapes(self, z: Any, logcdf: Any, c: Any) -> Any:
        h = self._h(z, c)
        return (-h * _ratio(h) / c,)

    def dlogsf_dshapes(self, z: Any, logsf: Any, c: Any) -> Any:
        h = self._h(z, c)
        return (h * _ratio(-h) / c,)

    def _cumulants(self, c: Any) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
        c = f64(c)
        c2 = c * c
        k = (1 + c2 / 2, c2 * (5 * c2 + 4) / 4, c2 * c2 * (11 * c2 + 6) / 2, 3 * c2 ** 3 * (93 * c2 + 40) / 8)
        d = (c, 5 * c ** 3 + 2 * c, 33 * c ** 5 + 12 * c ** 3, 279 * c ** 7 + 90 * c ** 5)
        return k, d

    def dmean(self, c: Any) -> Any:
        return (f64(c),)

    def dvar(self, c: Any) -> Any:
        c = f64(c)
        return (5 * c ** 3 + 2 * c,)

    def dmunp(self, n: int, c: Any) -> Any:
        if n > 4:
            return super().dmunp(n, c)
        return (raw_moment_from_cumulants(n, *self._cumulants(c)),)


class _JohnsonSB(ContinuousModel):
    dist = st.johnsonsb
    shape_samples = ((0.5, 1.5),)

    def dlogpdf_dz(self, z: Any, a: Any, b: Any) -> Any:
        h = a + b * sc.logit(z)
        return -1 / z + 1 / (1 - z) - h * b / (z * (1 - z))

    def dlogpdf_dshapes(self, z: Any, a: Any, b: Any) -> Any:
        g = sc.logit(z)
        h = a + b * g
        return (-h, 1 / b - h * g)

    def dcdf_dshapes(self, z: Any, a: Any, b: Any) -> Any:
        g = sc.logit(z)
        p = _phi(a + b * g)
        return (p, p * g)

    def dlogcdf_dshapes(self, z: Any, logcdf: Any, a: Any, b: Any) -> Any:
        g = sc.logit(z)
        r = _ratio(a + b * g)
        return (r, r * g)

    def dlogsf_dshapes(self, z: Any, logsf: Any, a: Any, b: Any) -> Any:
        g = sc.logit(z)
        r = _ratio(-(a + b * g))
        return (-r, -r * g)


class _JohnsonSU(ContinuousModel):
    dist = st.johnsonsu
    shape_samples = ((0.5, 2.5),)

    def dlogpdf_dz(self, z: Any, a: Any, b: Any) -> Any:
        h = a + b * np.arcsinh(z)
        return -z / (1 + z * z) - h * b / np.sqrt(1 + z * z)

    def dlogpdf_dshapes(self, z: Any, a: Any, b: Any) -> Any:
        g = np.arcsinh(z)
        h = a + b * g
        return (-h, 1 / b - h * g)

    def dcdf_dshapes(self, z: Any, a: Any, b: Any) -> Any:
        g = np.arcsinh(z)
        p = _phi(a + b * g)
        return (p, p * g)

    def dlogcdf_dshapes(self, z: Any, logcdf: Any, a: Any, b: Any) -> Any:
        g = np.arcsinh(z)
        r = _ratio(a + b * g)
        return (r, r * g)

    def dlogsf_dshapes(self, z: Any, logsf: Any, a: Any, b: Any) -> Any:
        g = np.arcsinh(z)
        r = _ratio(-(a + b * g))
        return (-r, -r * g)

    def dmunp(self, n: int, a: Any, b: Any) -> Any:
        a, b = f64(a), f64(b)
        da = db = 0.0
        for j in range(n + 1):
            k = n - 2 * j
            term = math.comb(n, j) * (-1) ** j * np.exp(-k * a / b + k * k / (2 * b * b)) / 2.0 ** n
            da = da + term * (-k / b)
            db = db + term * (k * a / b ** 2 - k * k / b ** 3)
        return (da, db)


# ---- skewnorm, foldnorm, exponnorm, powernorm, powerlognorm --------------------------------------------------------
def _skewnorm_moment_derivative(n: int, a: Any) -> Any:
    """``d/da E[Z^n]`` for ``Z = delta |U| + sqrt(1 - delta^2) V``, ``delta = a / sqrt(1 + a^2)``."""
    a = f64(a)
    delta = a / np.sqrt(1 + a * a)
    ddelta = (1 + a * a) ** -1.5
    rest = 1 - delta * delta
    total = np.zeros_like(delta)
    for k in range(n + 1):
        m = n - k
        if m % 2:
            continue
        abs_moment = 2 ** (k / 2) * math.gamma((k + 1) / 2) / math.sqrt(math.pi)  # E|U|^k
        normal_moment = math.prod(range(1, m, 2))  # E[V^m] = (m - 1)!!
        with np.errstate(all="ignore"):
            d = (k * delta ** (k - 1) * rest ** (m / 2) if k else 0.0) - (
                m * delta ** (k + 1) * rest ** (m / 2 - 1) if m else 0.0)
        total = total + math.comb(n, k) * abs_moment * normal_moment * d
    return total * ddelta


class _SkewNorm(ContinuousModel):
    dist = st.skewnorm
    shape_samples = ((2.5,), (-1.5,))

    def dlogpdf_dz(self, z: Any, a: Any) -> Any:
        return -z + a * _ratio(a * z)

    def dlogpdf_dshapes(self, z: Any, a: Any) -> Any:
        return (z * _ratio(a * z),)

    def dcdf_dshapes(self, z: Any, a: Any) -> Any:
        q = 1 + a * a
        return (-np.exp(-z * z * q / 2) / (math.pi * q),)

    def dmean(self, a: Any) -> Any:
        return (_SQRT_2_OVER_PI * (1 + f64(a) ** 2) ** -1.5,)

    def dvar(self, a: Any) -> Any:
        a = f64(a)
        return (-(4 / math.pi) * a / np.sqrt(1 + a * a) * (1 + a * a) ** -1.5,)

    def dmunp(self, n: int, a: Any) -> Any:
        return (_skewnorm_moment_derivative(n, a),)


class _FoldNorm(ContinuousModel):
    dist = st.foldnorm
    shape_samples = ((1.2,),)

    def dlogpdf_dz(self, z: Any, c: Any) -> Any:
        return -(z - c) - 2 * c * sc.expit(-2 * z * c)

    def dlogpdf_dshapes(self, z: Any, c: Any) -> Any:
        return ((z - c) - 2 * z * sc.expit(-2 * z * c),)

    def dcdf_dshapes(self, z: Any, c: Any) -> Any:
        return (_phi(z + c) - _phi(z - c),)

    def dmean(self, c: Any) -> Any:
        return (sc.erf(f64(c) / math.sqrt(2)),)

    def dvar(self, c: Any) -> Any:
        c = f64(c)
        mean = 2 * _phi(c) + c * sc.erf(c / math.sqrt(2))
        return (2 * c - 2 * mean * sc.erf(c / math.sqrt(2)),)


class _ExponNorm(ContinuousModel):
    dist = st.exponnorm
    shape_samples = ((1.5,),)

    def dlogpdf_dz(self, z: Any, k: Any) -> Any:
        return -1 / k + _ratio(z - 1 / k)

    def dlogpdf_dshapes(self, z: Any, k: Any) -> Any:
        return (-1 / k ** 3 + z / k ** 2 + _ratio(z - 1 / k) / k ** 2 - 1 / k,)

    def _g(self, z: Any, k: Any) -> tuple[Any, Any]:
        """``g = (1/(2K) - z)/K + log Phi(z - 1/K)`` and ``dg/dK``."""
        t = z - 1 / k
        g = (0.5 / k - z) / k + sc.log_ndtr(t)
        return g, -1 / k ** 3 + z / k ** 2 + _ratio(t) / k ** 2

    def dcdf_dshapes(self, z: Any, k: Any) -> Any:
        g, dg = self._g(z, k)
        return (-np.exp(g) * dg,)

    def dlogcdf_dshapes(self, z: Any, logcdf: Any, k: Any) -> Any:
        g, dg = self._g(z, k)
        return (-_log_cdf_ratio(g, logcdf) * dg,)

    def dlogsf_dshapes(self, z: Any, logsf: Any, k: Any) -> Any:
        g, dg = self._g(z, k)
        return (_log_cdf_ratio(g, logsf) * dg,)

    def dmean(self, k: Any) -> Any:
        return (np.ones_like(f64(k)),)

    def dvar(self, k: Any) -> Any:
        return (2 * f64(k),)

    def dmunp(self, n: int, k: Any) -> Any:
        if n > 4:
            return super().dmunp(n, k)
        k = f64(k)
        cumulants = (k, 1 + k * k, 2 * k ** 3, 6 * k ** 4)
        return (raw_moment_from_cumulants(n, cumulants, (np.ones_like(k), 2 * k, 6 * k * k, 24 * k ** 3)),)


class _PowerNorm(ContinuousModel):
    dist = st.powernorm
    shape_samples = ((2.5,),)

    def dlogpdf_dz(self, z: Any, c: Any) -> Any:
        return -z - (c - 1) * _ratio(-z)

    def dlogpdf_dshapes(self, z: Any, c: Any) -> Any:
        return (1 / c + sc.log_ndtr(-z),)

    def dcdf_dshapes(self, z: Any, c: Any) -> Any:
        log_tail = sc.log_ndtr(-z)
        return (-np.exp(c * log_tail) * log_tail,)

    def dlogcdf_dshapes(self, z: Any, logcdf: Any, c: Any) -> Any:
        log_tail = sc.log_ndtr(-z)
        with np.errstate(all="ignore"):
            return (-log_tail / np.expm1(-c * log_tail),)  # -S dlogS / (1 - S)

    def dlogsf_dshapes(self, z: Any, logsf: Any, c: Any) -> Any:
        return (sc.log_ndtr(-z),)


class _PowerLogNorm(ContinuousModel):
    dist = st.powerlognorm
    shape_samples = ((2.5, 0.6),)

    def dlogpdf_dz(self, z: Any, c: Any, s: Any) -> Any:
        u = np.log(z) / s
        return -1 / z + (-u - (c - 1) * _ratio(-u)) / (s * z)

    def dlogpdf_dshapes(self, z: Any, c: Any, s: Any) -> Any:
        u = np.log(z) / s
        return (1 / c + sc.log_ndtr(-u), -1 / s + (u * u + (c - 1) * u * _ratio(-u)) / s)

    def _dlogsf(self, z: Any, c: Any, s: Any) -> tuple[Any, Any, Any]:
        u = np.log(z) / s
        log_tail = sc.log_ndtr(-u)
        return c * log_tail, log_tail, c * _ratio(-u) * u / s

    def dcdf_dshapes(self, z: Any, c: Any, s: Any) -> Any:
        logsf, dc, ds = self._dlogsf(z, c, s)
        sf = np.exp(logsf)
        return (-sf * dc, -sf * ds)

    def dlogcdf_dshapes(self, z: Any, logcdf: Any, c: Any, s: Any) -> Any:
        logsf, dc, ds = self._dlogsf(z, c, s)
        with np.errstate(all="ignore"):
            factor = -1 / np.expm1(-logsf)  # -S / F
        return (factor * dc, factor * ds)

    def dlogsf_dshapes(self, z: Any, logsf: Any, c: Any, s: Any) -> Any:
        return self._dlogsf(z, c, s)[1:]


# ---- invgauss, recipinvgauss, alpha -------------------------------------------------------------------------------
class _InvGauss(ContinuousModel):
    dist = st.invgauss
    shape_samples = ((0.8,),)

    def dlogpdf_dz(self, z: Any, mu: Any) -> Any:
        return -1.5 / z - 1 / (2 * mu * mu) + 1 / (2 * z * z)

    def dlogpdf_dshapes(self, z: Any, mu: Any) -> Any:
        return ((z - mu) / mu ** 3,)

    def _log_term(self, z: Any, mu: Any) -> Any:
        """``log(e^(2/mu) Phi(-u2))``, ``u2 = (z/mu + 1)/sqrt z``."""
        return 2 / mu + sc.log_ndtr(-(z / mu + 1) / np.sqrt(z))

    def dcdf_dshapes(self, z: Any, mu: Any) -> Any:
        return (-2 / mu ** 2 * np.exp(self._log_term(z, mu)),)

    def dlogcdf_dshapes(self, z: Any, logcdf: Any, mu: Any) -> Any:
        return (-2 / mu ** 2 * _log_cdf_ratio(self._log_term(z, mu), logcdf),)

    def dlogsf_dshapes(self, z: Any, logsf: Any, mu: Any) -> Any:
        return (2 / mu ** 2 * _log_cdf_ratio(self._log_term(z, mu), logsf),)

    def dmean(self, mu: Any) -> Any:
        return (np.ones_like(f64(mu)),)

    def dvar(self, mu: Any) -> Any:
        return (3 * f64(mu) ** 2,)

    def dmunp(self, n: int, mu: Any) -> Any:
        if n > 4:
            return super().dmunp(n, mu)
        mu = f64(mu)
        cumulants = (mu, mu ** 3, 3 * mu ** 5, 15 * mu ** 7)
        return (raw_moment_from_cumulants(n, cumulants, (np.ones_like(mu), 3 * mu ** 2, 15 * mu ** 4,
                                                         105 * mu ** 6)),)

    def dentropy(self, mu: Any) -> Any:  # h = (1 + log 2pi + 3 log mu)/2 - 3/2 e^r E1(r), r = 2/mu
        mu = f64(mu)
        r = 2 / mu
        scaled = sc._ufuncs._scaled_exp1(r) / r  # e^r E1(r), without overflow
        return (1.5 / mu + 3 * (scaled - mu / 2) / mu ** 2,)


class _RecipInvGauss(ContinuousModel):
    dist = st.recipinvgauss
    shape_samples = ((0.8,),)

    def dlogpdf_dz(self, z: Any, mu: Any) -> Any:
        return 1 / (2 * z * z * mu * mu) - 0.5 - 1 / (2 * z)

    def dlogpdf_dshapes(self, z: Any, mu: Any) -> Any:
        return ((1 - mu * z) / (z * mu ** 3),)

    def dcdf_dshapes(self, z: Any, mu: Any) -> Any:
        v2 = -(1 / mu + z) / np.sqrt(z)
        return (2 / mu ** 2 * np.exp(2 / mu + sc.log_ndtr(v2)),)


class _Alpha(ContinuousModel):
    dist = st.alpha
    shape_samples = ((1.5,),)
    moments_exist = False

    def dlogpdf_dz(self, z: Any, a: Any) -> Any:
        return -2 / z - (a - 1 / z) / (z * z)

    def dlogpdf_dshapes(self, z: Any, a: Any) -> Any:
        return (-(a - 1 / z) - _ratio(a),)

    def _dlogcdf(self, z: Any, a: Any) -> Any:
        return _ratio(a - 1 / z) - _ratio(a)

    def dcdf_dshapes(self, z: Any, a: Any) -> Any:
        return (np.exp(sc.log_ndtr(a - 1 / z) - sc.log_ndtr(a)) * self._dlogcdf(z, a),)

    def dlogcdf_dshapes(self, z: Any, logcdf: Any, a: Any) -> Any:
        return (self._dlogcdf(z, a),)


# ---- truncnorm ----------------------------------------------------------------------------------------------------
class _TruncNorm(ContinuousModel):
    dist = st.truncnorm
    shape_samples = ((-0.5, 1.5), (3.0, 6.0))

    def _alpha_beta(self, a: Any, b: Any) -> tuple[Any, Any, Any]:
        log_z = _log_mass(a, b)
        with np.errstate(all="ignore"):
            alpha = np.where(np.isinf(a), 0.0, np.exp(_logphi(a) - log_z))
            beta = np.where(np.isinf(b), 0.0, np.exp(_logphi(b) - log_z))
        return alpha, beta, log_z

    def dlogpdf_dz(self, z: Any, a: Any, b: Any) -> Any:
        return -z

    def dlogpdf_dshapes(self, z: Any, a: Any, b: Any) -> Any:
        alpha, beta, _ = self._alpha_beta(a, b)
        shape = np.broadcast(z, alpha).shape
        return (np.broadcast_to(alpha, shape), np.broadcast_to(-beta, shape))

    def _dlogcdf(self, z: Any, a: Any, b: Any) -> tuple[Any, Any]:
        alpha, beta, _ = self._alpha_beta(a, b)
        with np.errstate(all="ignore"):
            left = np.where(np.isinf(a), 0.0, np.exp(_logphi(a) - _log_mass(a, z)))
        return alpha - left, -beta + 0 * z

    def _dlogsf(self, z: Any, a: Any, b: Any) -> tuple[Any, Any]:
        alpha, beta, _ = self._alpha_beta(a, b)
        with np.errstate(all="ignore"):
            right = np.where(np.isinf(b), 0.0, np.exp(_logphi(b) - _log_mass(z, b)))
        return alpha + 0 * z, right - beta

    def dcdf_dshapes(self, z: Any, a: Any, b: Any) -> Any:
        da, db = self._dlogcdf(z, a, b)
        with np.errstate(all="ignore"):
            cdf = np.exp(_log_mass(a, z) - _log_mass(a, b))
        return (cdf * da, cdf * db)

    def dlogcdf_dshapes(self, z: Any, logcdf: Any, a: Any, b: Any) -> Any:
        return self._dlogcdf(z, a, b)

    def dlogsf_dshapes(self, z: Any, logsf: Any, a: Any, b: Any) -> Any:
        return self._dlogsf(z, a, b)

    @staticmethod
    def _ends(alpha: Any, beta: Any, ga: Any, gb: Any, e: Any) -> tuple[Any, Any]:
        """``(alpha (E[g] - g(a)), beta (g(b) - E[g]))``, 0 at an infinite end."""
        with np.errstate(all="ignore"):
            return np.where(alpha == 0, 0.0, alpha * (e - ga)), np.where(beta == 0, 0.0, beta * (gb - e))

    def dmunp(self, n: int, a: Any, b: Any) -> Any:
        alpha, beta, _ = self._alpha_beta(a, b)
        moment = f64(self.dist.moment(n, a, b))
        with np.errstate(all="ignore"):
            return self._ends(alpha, beta, f64(a) ** n, f64(b) ** n, moment)

    def dvar(self, a: Any, b: Any) -> Any:
        alpha, beta, _ = self._alpha_beta(a, b)
        m, v = (f64(x) for x in self.dist.stats(a, b, moments="mv"))
        with np.errstate(all="ignore"):
            return (np.where(alpha == 0, 0.0, alpha * (v - (m - a) ** 2)),
                    np.where(beta == 0, 0.0, beta * ((b - m) ** 2 - v)))

    def dentropy(self, a: Any, b: Any) -> Any:  # h = log sqrt(2 pi e) + log Z + E[Z^2]/2
        alpha, beta, _ = self._alpha_beta(a, b)
        second = f64(self.dist.moment(2, a, b))
        with np.errstate(all="ignore"):
            return (np.where(alpha == 0, 0.0, alpha * (second - f64(a) ** 2 - 2) / 2),
                    np.where(beta == 0, 0.0, beta * (f64(b) ** 2 - second + 2) / 2))


# ---- crystalball ----------------------------------------------------------------------------------------------
_SQRT_2PI = math.sqrt(2 * math.pi)


class _CrystalBall(ContinuousModel):
    """A normal core above ``-beta`` and a power-law tail ``A (B - z)^-m`` below, ``A = (m/beta)^m e^(-beta^2/2)``,
    ``B = m/beta - beta``, normalised by ``M = T + sqrt(2 pi) Phi(beta)``, ``T = (m/beta) e^(-beta^2/2)/(m - 1)``."""

    dist = st.crystalball
    shape_samples = ((1.5, 5.0),)  # m > 4: moment(3) exists
    # SciPy integrates the entropy (5e-11 from mpmath's at the sample), and finite differences of it move by 2e-4
    # relatively; the rule's quadrature agrees with mpmath's derivative of the exact entropy to 1e-15
    sample_options: ClassVar[dict[str, Any]] = {"entropy": {"rtol": 1e-3}}

    def kinks(self, beta: Any, m: Any) -> tuple[float, ...]:
        return (-float(beta),)

    @staticmethod
    def _dlog_normaliser(beta: Any, m: Any) -> tuple[Any, Any]:
        """``d log M/d beta``, ``d log M/dm``."""
        e = np.exp(-beta * beta / 2)
        t = (m / beta) * e / (m - 1)
        total = t + _SQRT_2PI * sc.ndtr(beta)
        return (t * (-1 / beta - beta) + e) / total, -t / (m * (m - 1)) / total

    def dlogpdf_dz(self, z: Any, beta: Any, m: Any) -> Any:
        with np.errstate(all="ignore"):
            return np.where(z > -beta, -z, m / (m / beta - beta - z))

    def dlogpdf_dshapes(self, z: Any, beta: Any, m: Any) -> Any:
        dm_beta, dm_m = self._dlog_normaliser(beta, m)
        with np.errstate(all="ignore"):
            gap = m / beta - beta - z  # B - z
            tail_beta = -m / beta - beta - m * (-m / beta ** 2 - 1) / gap
            tail_m = np.log(m / beta) + 1 - np.log(gap) - m / (beta * gap)
            return (np.where(z > -beta, 0.0, tail_beta) - dm_beta, np.where(z > -beta, 0.0, tail_m) - dm_m)

    def _dlog_tail_cdf(self, z: Any, beta: Any, m: Any) -> tuple[Any, Any]:
        """Below ``-beta``: ``d log F0`` of ``F0 = A (B - z)^(1-m) / ((m - 1) M)``."""
        dm_beta, dm_m = self._dlog_normaliser(beta, m)
        with np.errstate(all="ignore"):
            gap = m / beta - beta - z
            dbeta = -m / beta - beta + (1 - m) * (-m / beta ** 2 - 1) / gap - dm_beta
            dm = np.log(m / beta) + 1 - np.log(gap) + (1 - m) / (beta * gap) - 1 / (m - 1) - dm_m
        return dbeta, dm

    def dlogcdf_dshapes(self, z: Any, logcdf: Any, beta: Any, m: Any) -> Any:
        """Above ``-beta`` ``S0 = sqrt(2 pi) Q(z)/M``, so ``dF0 = S0 d log M`` and ``d log F0 = (S0/F0) d log M``."""
        dm_beta, dm_m = self._dlog_normaliser(beta, m)
        tail = self._dlog_tail_cdf(z, beta, m)
        with np.errstate(all="ignore"):
            ratio = -np.expm1(logcdf) / np.exp(logcdf)  # S/F
        return tuple(np.where(z > -beta, ratio * d, t) for d, t in zip((dm_beta, dm_m), tail))

    def dlogsf_dshapes(self, z: Any, logsf: Any, beta: Any, m: Any) -> Any:
        dm_beta, dm_m = self._dlog_normaliser(beta, m)
        tail = self._dlog_tail_cdf(z, beta, m)
        with np.errstate(all="ignore"):
            ratio = -np.expm1(logsf) / np.exp(logsf)  # F/S
        return tuple(np.where(z > -beta, -d, -ratio * t) for d, t in zip((dm_beta, dm_m), tail))

    def dcdf_dshapes(self, z: Any, beta: Any, m: Any) -> Any:
        logcdf = f64(self.dist.logcdf(z, beta, m))
        return tuple(np.exp(logcdf) * d for d in self.dlogcdf_dshapes(z, logcdf, beta, m))

    def dmunp(self, n: int, beta: Any, m: Any) -> Any:
        """SciPy's ``E[Z^n] = (A L + R)/M`` with ``L = sum_k C(n,k) B^(n-k) (-1)^k (m/beta)^(k+1-m)/(m-k-1)`` and
        ``R = 2^((n-1)/2) Gamma((n+1)/2) (1 + (-1)^n P((n+1)/2, beta^2/2))``, differentiated term by term."""
        beta, m = np.broadcast_arrays(f64(beta), f64(m))
        ratio = m / beta
        b = ratio - beta
        db_beta, db_m = -m / beta ** 2 - 1, 1 / beta
        a = ratio ** m * np.exp(-beta * beta / 2)
        da_beta, da_m = a * (-m / beta - beta), a * (np.log(ratio) + 1)
        sum_l, dl_beta, dl_m = np.zeros(beta.shape), np.zeros(beta.shape), np.zeros(beta.shape)
        for k in range(n + 1):
            c = math.comb(n, k) * (-1) ** k
            j = n - k
            p = ratio ** (k + 1 - m)
            power = b ** j
            dpower = j * b ** (j - 1) if j else np.zeros(beta.shape)
            denominator = m - k - 1
            sum_l += c * power * p / denominator
            dl_beta += c * p / denominator * (dpower * db_beta + power * (k + 1 - m) * (-1 / beta))
            dl_m += c * p / denominator * (dpower * db_m + power * (-np.log(ratio) + (k + 1 - m) / m
                                                                      - 1 / denominator))
        s = (n + 1) / 2
        dr_beta = 2.0 ** ((n - 1) / 2) * math.gamma(s) * (-1) ** n * gammainc_dx(s, beta * beta / 2) * beta
        dm_beta, dm_m = self._dlog_normaliser(beta, m)
        moment = f64(self.dist.moment(n, beta, m))
        e = np.exp(-beta * beta / 2)
        normaliser = (ratio / (m - 1)) * e + _SQRT_2PI * sc.ndtr(beta)
        return ((da_beta * sum_l + a * dl_beta + dr_beta) / normaliser - moment * dm_beta,
                (da_m * sum_l + a * dl_m) / normaliser - moment * dm_m)


# ---- dpareto_lognorm -----------------------------------------------------------------------------------------
_LOG_SQRT_2PI = 0.5 * math.log(2 * math.pi)


class _DParetoLogNorm(ContinuousModel):
    """Reed & Jorgensen's double Pareto-lognormal law (*Commun. Stat. Theory Methods* 33 (2004) 1733, eqs. 1-2):
    ``log Y = N(u, s^2) + E1/a - E2/b``. With ``w = log z``, ``t = (w - u)/s``, ``x1 = a s - t``, ``x2 = b s + t``
    and the Mills ratio ``R = Q/phi``: ``f0 = ab/(a+b) phi(t) (R(x1) + R(x2))/z`` and
    ``F0 = Phi(t) - phi(t) (b R(x1) - a R(x2))/(a+b)``. Every product ``phi(t) R(x_i)`` is carried as its
    logarithm ``l_i = log phi(t) + log Q(x_i) - log phi(x_i)`` (finite where ``R`` overflows), and
    ``R' = x R - 1``. ``u`` is a log-location: ``dF0/du = -z f0``; the others simplify to
    ``dF0/ds = -ab s (a e^l1 - b e^l2)/(a+b)`` and, for ``a`` and ``b``, the chain rule through ``R``."""

    dist = st.dpareto_lognorm
    shape_samples = ((0.3, 0.6, 4.5, 2.0),)
    tail_q = None  # SciPy's logsf is log(1 - F) with F formed to rounding: no digits in the right tail

    @staticmethod
    def _logs(z: Any, u: Any, s: Any, a: Any, b: Any) -> tuple[Any, ...]:
        """``t``, ``x1``, ``x2``, ``log phi(t)``, ``l1``, ``l2``."""
        with np.errstate(all="ignore"):
            t = (np.log(z) - u) / s
            x1, x2 = a * s - t, b * s + t
            lz = -t * t / 2 - _LOG_SQRT_2PI
            l1 = lz + sc.log_ndtr(-x1) + x1 * x1 / 2 + _LOG_SQRT_2PI
            l2 = lz + sc.log_ndtr(-x2) + x2 * x2 / 2 + _LOG_SQRT_2PI
        return t, x1, x2, lz, l1, l2

    def _score(self, z: Any, u: Any, s: Any, a: Any, b: Any) -> tuple[Any, ...]:
        """``(d log f0/dz, d/du, d/ds, d/da, d/db)``."""
        t, x1, x2, lz, l1, l2 = self._logs(z, u, s, a, b)
        with np.errstate(all="ignore"):
            total = np.logaddexp(l1, l2)
            p1, p2, q = np.exp(l1 - total), np.exp(l2 - total), np.exp(lz - total)
            d1, d2 = x1 * p1 - q, x2 * p2 - q  # R'(x_i) / (R(x1) + R(x2))
            dz = (-1 - t / s + (x2 * p2 - x1 * p1) / s) / z
            du = t / s + (x1 * p1 - x2 * p2) / s
            ds = t * t / s + d1 * (a + t / s) + d2 * (b - t / s)
            da = 1 / a - 1 / (a + b) + s * d1
            db = 1 / b - 1 / (a + b) + s * d2
        return dz, du, ds, da, db

    def dlogpdf_dz(self, z: Any, u: Any, s: Any, a: Any, b: Any) -> Any:
        return self._score(z, u, s, a, b)[0]

    def dlogpdf_dshapes(self, z: Any, u: Any, s: Any, a: Any, b: Any) -> Any:
        return self._score(z, u, s, a, b)[1:]

    def _dcdf_scaled(self, z: Any, u: Any, s: Any, a: Any, b: Any, log_scale: Any) -> tuple[Any, ...]:
        """``dF0/d(u, s, a, b)`` divided by ``e^log_scale``."""
        _, x1, x2, lz, l1, l2 = self._logs(z, u, s, a, b)
        with np.errstate(all="ignore"):
            e1, e2, phi = np.exp(l1 - log_scale), np.exp(l2 - log_scale), np.exp(lz - log_scale)
            c = a + b
            du = -a * b * (e1 + e2) / c
            ds = -a * b * s * (a * e1 - b * e2) / c
            g = (b * e1 - a * e2) / (c * c)
            da = -(b * s * x1 * e1 - b * s * phi - e2) / c + g
            db = -(e1 - a * s * x2 * e2 + a * s * phi) / c + g
        return du, ds, da, db

    def dcdf_dshapes(self, z: Any, u: Any, s: Any, a: Any, b: Any) -> Any:
        return self._dcdf_scaled(z, u, s, a, b, 0.0)

    def dlogcdf_dshapes(self, z: Any, logcdf: Any, u: Any, s: Any, a: Any, b: Any) -> Any:
        return self._dcdf_scaled(z, u, s, a, b, logcdf)

    def dlogsf_dshapes(self, z: Any, logsf: Any, u: Any, s: Any, a: Any, b: Any) -> Any:
        return tuple(-d for d in self._dcdf_scaled(z, u, s, a, b, logsf))

    def dmunp(self, n: int, u: Any, s: Any, a: Any, b: Any) -> Any:
        """``E[Z^n] = ab/((a - n)(b + n)) e^(n u + n^2 s^2/2)`` (eq. 6), NaN for ``a <= n`` as SciPy's."""
        u, s, a, b = np.broadcast_arrays(*(f64(v) for v in (u, s, a, b)))
        m = f64(self.dist.moment(n, u, s, a, b))
        return (n * m, n * n * s * m, m * (1 / a - 1 / (a - n)), m * (1 / b - 1 / (b + n)))


register_models(_LogNorm(), _FatigueLife(), _JohnsonSB(), _JohnsonSU(), _SkewNorm(), _FoldNorm(), _ExponNorm(),
                _PowerNorm(), _PowerLogNorm(), _InvGauss(), _RecipInvGauss(), _Alpha(), _TruncNorm(), _CrystalBall(),
                _DParetoLogNorm())
