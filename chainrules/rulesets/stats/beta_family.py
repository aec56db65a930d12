"""Distributions built on the incomplete beta function: beta, betaprime, f, t, powerlaw, jf_skew_t; every method in
``x`` (or ``q``), ``loc``, ``scale`` and the shapes.

The maths
---------
=============  =================================================================  ===========================
distribution   log-density ``log f0(z)``                                          ``F0(z)``
=============  =================================================================  ===========================
beta(a, b)     ``(a-1) log z + (b-1) log(1-z) - log B(a, b)``                     ``I_z(a, b)``
betaprime      ``(a-1) log z - (a+b) log(1+z) - log B(a, b)``                     ``I_(z/(1+z))(a, b)``
f(m, n)        ``(m/2) log m + (n/2) log n + (m/2-1) log z``
               ``- ((m+n)/2) log(n + m z) - log B(m/2, n/2)``                     ``fdtr(m, n, z)``
t(v)           ``log Gamma((v+1)/2) - log Gamma(v/2) - log(v pi)/2``
               ``- ((v+1)/2) log(1 + z^2/v)``                                     ``stdtr(v, z)``
powerlaw(a)    ``log a + (a-1) log z`` on ``[0, 1]``                              ``z^a``
jf_skew_t      ``(a+1/2) log(1+u) + (b+1/2) log(1-u) - log(2^(a+b-1) B(a, b)``
               ``sqrt(a+b))``, ``u = z/sqrt(a + b + z^2)``                        ``I_((1+u)/2)(a, b)``
=============  =================================================================  ===========================

The shape derivatives of ``I_x(a, b)`` are those of
:mod:`chainrules.rulesets.special.incomplete_beta` (the differentiated continued fraction,
Boik & Robison-Cox 1998); for betaprime above ``z = 1`` the symmetry
``I_u(a, b) = 1 - I_(1-u)(b, a)`` with ``1 - u = 1/(1+z)`` formed directly. The F and t
distribution functions are differentiated by the rules of ``scipy.special.fdtr`` and
``scipy.special.stdtr`` (called, not copied: :func:`~chainrules.rulesets.stats._continuous.special_partials`);
``stdtr``'s derivative in ``v`` is ``not_implemented`` where its two terms cancel (``v`` in
the thousands), and so is the t distribution's there. Digamma differences ``psi(a + d) -
psi(a)`` are computed without cancellation
(:func:`~chainrules.rulesets.special._gamma_tools.psi_increment`).

Moments: beta ``E[Z^n] = (a)_n / (a+b)_n``; betaprime ``(a)_n / (b-n)_n``; F
``(n/m)^k (m/2)_k / (n/2-k)_k``; t ``v^(k/2) Gamma((k+1)/2) Gamma((v-k)/2) / (sqrt(pi) Gamma(v/2))``
for even ``k`` (0 for odd); powerlaw ``a/(a+n)``. The entropies are the closed forms (for
betaprime, which SciPy integrates numerically, ``h = log B(a, b) - (a-1) psi(a) - (b+1) psi(b)
+ (a+b) psi(a+b)``, from beta's by the change of variables ``z = y/(1-y)``); t's from ``v =
100`` the derivative of SciPy's asymptotic series.

Examples
--------
>>> import scipy.stats as st
>>> import chainrules
>>> from chainrules import rrule, unthunk
>>> y, pullback = rrule(st.beta.cdf, 0.4, 2.0, 3.0)     # d/da, d/db of I_x(a, b): JAX raises for these
>>> [round(float(unthunk(c)), 10) for c in pullback(1.0)[3:]]
[-0.2408693761, 0.1563443364]
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
import scipy.special as sc
import scipy.stats as st

from chainrules.rulesets.special._gamma_tools import psi_increment, trigamma
from chainrules.rulesets.special.incomplete_beta import betainc_dab, betainc_dx
from chainrules.rulesets.stats._continuous import ContinuousModel, register_models, scaled, special_partials
from chainrules_core import NotImplementedTangent

__all__: list[str] = []


def _dab(a: Any, b: Any, x: Any) -> tuple[Any, Any]:
    """``(dI/da, dI/db)`` of ``I_x(a, b)`` (a not-implemented pair where the continued fraction did not converge)."""
    found = betainc_dab(a, b, x)
    return (found, found) if isinstance(found, NotImplementedTangent) else found


def _where(cond: Any, yes: Any, no: Any) -> Any:
    for p in (yes, no):
        if isinstance(p, NotImplementedTangent):
            return p
    return np.where(cond, yes, no)


class _Beta(ContinuousModel):
    dist = st.beta
    shape_samples = ((2.5, 1.5),)

    def dlogpdf_dz(self, z: Any, a: Any, b: Any) -> Any:
        return (a - 1) / z - (b - 1) / (1 - z)

    def dlogpdf_dshapes(self, z: Any, a: Any, b: Any) -> Any:
        return (np.log(z) + psi_increment(a, b), np.log1p(-z) + psi_increment(b, a))

    def dcdf_dshapes(self, z: Any, a: Any, b: Any) -> Any:
        return _dab(a, b, z)

    def dmean(self, a: Any, b: Any) -> Any:
        s2 = (a + b) ** 2
        return (b / s2, -a / s2)

    def dvar(self, a: Any, b: Any) -> Any:
        s = a + b
        v = a * b / (s * s * (s + 1))
        common = 2 / s + 1 / (s + 1)
        return (v * (1 / a - common), v * (1 / b - common))

    def dmunp(self, n: int, a: Any, b: Any) -> Any:
        m = sc.poch(a, n) / sc.poch(a + b, n)
        return (m * (psi_increment(a, n) - psi_increment(a + b, n)), -m * psi_increment(a + b, n))

    def dentropy(self, a: Any, b: Any) -> Any:
        s = (a + b - 2) * trigamma(a + b)
        return (s - (a - 1) * trigamma(a), s - (b - 1) * trigamma(b))


class _BetaPrime(ContinuousModel):
    dist = st.betaprime
    shape_samples = ((2.5, 5.5),)

    def dlogpdf_dz(self, z: Any, a: Any, b: Any) -> Any:
        return (a - 1) / z - (a + b) / (1 + z)

    def dlogpdf_dshapes(self, z: Any, a: Any, b: Any) -> Any:
        log1pz = np.log1p(z)
        return (np.log(z) - log1pz + psi_increment(a, b), -log1pz + psi_increment(b, a))

    def dcdf_dshapes(self, z: Any, a: Any, b: Any) -> Any:
        low_a, low_b = _dab(a, b, z / (1 + z))
        high_b, high_a = _dab(b, a, 1 / (1 + z))  # F = 1 - I_(1/(1+z))(b, a) above z = 1
        return (_where(z > 1, scaled(high_a, -1.0), low_a), _where(z > 1, scaled(high_b, -1.0), low_b))

    def dmunp(self, n: int, a: Any, b: Any) -> Any:  # E[Z^n] = (a)_n / (b - n)_n
        m = sc.poch(a, n) / sc.poch(b - n, n)
        return (m * psi_increment(a, n), -m * psi_increment(b - n, n))

    def dentropy(self, a: Any, b: Any) -> Any:
        s = (a + b) * trigamma(a + b)
        return (s - (a - 1) * trigamma(a), s - (b + 1) * trigamma(b))


class _F(ContinuousModel):
    dist = st.f
    shape_samples = ((4.5, 11.0),)

    def dlogpdf_dz(self, z: Any, m: Any, n: Any) -> Any:
        return (m / 2 - 1) / z - (m + n) * m / (2 * (n + m * z))

    def dlogpdf_dshapes(self, z: Any, m: Any, n: Any) -> Any:
        w = n + m * z
        dm = (np.log(m * z / w) + n * (1 - z) / w + psi_increment(m / 2, n / 2)) / 2
        dn = (np.log(n / w) + m * (z - 1) / w + psi_increment(n / 2, m / 2)) / 2
        return (dm, dn)

    def dcdf_dshapes(self, z: Any, m: Any, n: Any) -> Any:
        dm, dn, _ = special_partials(sc.fdtr, m, n, z)
        return (dm, dn)

    def dmean(self, m: Any, n: Any) -> Any:
        return (np.zeros(np.broadcast(m, n).shape), -2 / (n - 2) ** 2)

    def dvar(self, m: Any, n: Any) -> Any:
        v = 2 * n * n * (m + n - 2) / (m * (n - 2) ** 2 * (n - 4))
        return (v * (1 / (m + n - 2) - 1 / m), v * (2 / n + 1 / (m + n - 2) - 2 / (n - 2) - 1 / (n - 4)))

    def dmunp(self, n: int, *shapes: Any) -> Any:  # E[Z^k] = (d2/d1)^k (d1/2)_k / (d2/2 - k)_k
        d1, d2 = shapes
        value = (d2 / d1) ** n * sc.poch(d1 / 2, n) / sc.poch(d2 / 2 - n, n)
        return (value * (-n / d1 + psi_increment(d1 / 2, n) / 2), value * (n / d2 - psi_increment(d2 / 2 - n, n) / 2))

    def dentropy(self, m: Any, n: Any) -> Any:
        s = (m + n) / 4 * trigamma((m + n) / 2)
        return (-1 / m + (1 - m / 2) * trigamma(m / 2) / 2 + s, 1 / n - (1 + n / 2) * trigamma(n / 2) / 2 + s)


class _T(ContinuousModel):
    dist = st.t
    shape_samples = ((4.5,),)

    def dlogpdf_dz(self, z: Any, df: Any) -> Any:
        return -(df + 1) * z / (df + z * z)

    def dlogpdf_dshapes(self, z: Any, df: Any) -> Any:
        z2 = z * z
        return (psi_increment(df / 2, 0.5) / 2 - 1 / (2 * df) - np.log1p(z2 / df) / 2
                + (df + 1) * z2 / (2 * df * (df + z2)),)

    def dcdf_dshapes(self, z: Any, df: Any) -> Any:
        return (special_partials(sc.stdtr, df, z)[0],)

    def dmean(self, df: Any) -> Any:
        return (np.zeros_like(np.asarray(df, dtype=np.float64)),)

    def dvar(self, df: Any) -> Any:
        return (-2 / (df - 2) ** 2,)

    def dmunp(self, n: int, df: Any) -> Any:
        df = np.asarray(df, dtype=np.float64)
        if n % 2:
            return (np.zeros_like(df),)
        value = df ** (n / 2) * np.exp(sc.gammaln((n + 1) / 2) + sc.gammaln((df - n) / 2)
                                       - sc.gammaln(df / 2)) / np.sqrt(np.pi)
        return (value * (n / (2 * df) - psi_increment((df - n) / 2, n / 2) / 2),)

    def dentropy(self, df: Any) -> Any:
        v = np.asarray(df, dtype=np.float64)
        with np.errstate(all="ignore"):
            regular = (v + 1) / 4 * (trigamma((v + 1) / 2) - trigamma(v / 2)) + 1 / (2 * v)
            asymptotic = (-1 / v ** 2 - 1 / (2 * v ** 3) + 1 / (2 * v ** 4) + 1 / (2 * v ** 5) - 3 / (2 * v ** 6)
                          - 3 / (2 * v ** 7))
        return (np.where(v < 100, regular, asymptotic),)


class _PowerLaw(ContinuousModel):
    dist = st.powerlaw
    shape_samples = ((2.5,), (0.6,))

    def dlogpdf_dz(self, z: Any, a: Any) -> Any:
        return (a - 1) / z

    def dlogpdf_dshapes(self, z: Any, a: Any) -> Any:
        return (1 / a + np.log(z),)

    def dcdf_dshapes(self, z: Any, a: Any) -> Any:
        with np.errstate(all="ignore"):
            return (np.where(z == 0, 0.0, z ** a * np.log(z)),)

    def dlogcdf_dshapes(self, z: Any, logcdf: Any, a: Any) -> Any:  # log F = a log z
        return (np.log(z),)

    def dmunp(self, n: int, a: Any) -> Any:
        return (n / (a + n) ** 2,)

    def dvar(self, a: Any) -> Any:
        v = a / ((a + 2) * (a + 1) ** 2)
        return (v * (1 / a - 1 / (a + 2) - 2 / (a + 1)),)

    def dentropy(self, a: Any) -> Any:
        return (1 / a ** 2 - 1 / a,)


# ---- jf_skew_t ------------------------------------------------------------------------------------------------
def _jf_parts(z: Any, a: Any, b: Any) -> tuple[Any, Any, Any]:
    """``r = sqrt(a + b + z^2)``, ``r + z`` and ``r - z`` (the one that cancels formed as ``(a + b)/`` the other)."""
    r = np.sqrt(a + b + z * z)
    with np.errstate(all="ignore"):
        plus = np.where(z >= 0, r + z, (a + b) / (r - z))
        minus = np.where(z >= 0, (a + b) / (r + z), r - z)
    return r, plus, minus


class _JFSkewT(ContinuousModel):
    """Jones & Faddy's skew t (*J. R. Stat. Soc. B* 65 (2003) 159): ``(Z/sqrt(a + b + Z^2) + 1)/2 ~ Beta(a, b)``."""

    dist = st.jf_skew_t
    shape_samples = ((2.5, 3.5),)
    # SciPy integrates the entropy: its finite differences agree with the rule's quadrature (error below 1e-9) to
    # 1.2e-7 relatively, above the default tolerance
    sample_options: ClassVar[dict[str, Any]] = {"entropy": {"rtol": 1e-6}}
    tail_q = None  # SciPy's cdf forms 1 + x/sqrt(a + b + x^2): no digits to differentiate in the left tail

    def _bracket(self, z: Any, a: Any, b: Any) -> tuple[Any, Any, Any, Any]:
        """``log(1 + u)``, ``log(1 - u)`` (``u = z/r``), ``d log f0/du`` and ``du/da = du/db = -z/(2 r^3)``."""
        r, plus, minus = _jf_parts(z, a, b)
        log_plus, log_minus = np.log(plus / r), np.log(minus / r)
        score_u = (a + 0.5) * r / plus - (b + 0.5) * r / minus
        return log_plus, log_minus, score_u, -z / (2 * r ** 3)

    def dlogpdf_dz(self, z: Any, a: Any, b: Any) -> Any:
        r = np.sqrt(a + b + z * z)
        return self._bracket(z, a, b)[2] * (a + b) / r ** 3

    def dlogpdf_dshapes(self, z: Any, a: Any, b: Any) -> Any:
        """``log f0 = (a + 1/2) log(1 + u) + (b + 1/2) log(1 - u) - (a + b - 1) log 2 - log B(a, b) - log(a + b)/2``."""
        log_plus, log_minus, score_u, du = self._bracket(z, a, b)
        common = score_u * du - np.log(2.0) + sc.psi(a + b) - 1 / (2 * (a + b))
        return (log_plus + common - sc.psi(a), log_minus + common - sc.psi(b))

    def dcdf_dshapes(self, z: Any, a: Any, b: Any) -> Any:
        """``F0 = I_y(a, b)``, ``y = (1 + u)/2``: ``dF0 = I_a + I_y dy`` with ``dy/da = dy/db = -z/(4 r^3)``."""
        r, plus, _ = _jf_parts(z, a, b)
        y = plus / (2 * r)
        found = betainc_dab(a, b, y)
        if isinstance(found, NotImplementedTangent):
            return (found, found)
        da, db = found
        through_y = betainc_dx(a, b, y) * (-z / (4 * r ** 3))
        return (da + through_y, db + through_y)

    def dmunp(self, n: int, a: Any, b: Any) -> Any:
        """SciPy's ``E[Z^n] = (a + b)^(n/2) 2^-n / B(a, b) sum_k C(n, k) (-1)^k B(a + n/2 - k, b - n/2 + k)``;
        ``dB(p, q)/dp = B(p, q) (psi(p) - psi(p + q))`` and ``p + q = a + b`` throughout."""
        a, b = np.broadcast_arrays(np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64))
        s = a + b
        prefactor = s ** (n / 2) / (2.0 ** n * sc.beta(a, b))
        dpre_a = prefactor * (n / (2 * s) - sc.psi(a) + sc.psi(s))
        dpre_b = prefactor * (n / (2 * s) - sc.psi(b) + sc.psi(s))
        total, dtotal_a, dtotal_b = np.zeros(a.shape), np.zeros(a.shape), np.zeros(a.shape)
        for k in range(n + 1):
            p, q = a + n / 2 - k, b - n / 2 + k
            term = sc.comb(n, k) * (-1) ** k * sc.beta(p, q)
            total += term
            dtotal_a += term * (sc.psi(p) - sc.psi(s))
            dtotal_b += term * (sc.psi(q) - sc.psi(s))
        return (dpre_a * total + prefactor * dtotal_a, dpre_b * total + prefactor * dtotal_b)


register_models(_Beta(), _BetaPrime(), _F(), _T(), _PowerLaw(), _JFSkewT())
