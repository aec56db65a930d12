"""Distributions built on the incomplete beta function: beta, betaprime, f, t, powerlaw; every method in ``x`` (or
``q``), ``loc``, ``scale`` and the shapes.

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

from typing import Any

import numpy as np
import scipy.special as sc
import scipy.stats as st

from chainrules.rulesets.special._gamma_tools import psi_increment, trigamma
from chainrules.rulesets.special.incomplete_beta import betainc_dab
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


register_models(_Beta(), _BetaPrime(), _F(), _T(), _PowerLaw())
