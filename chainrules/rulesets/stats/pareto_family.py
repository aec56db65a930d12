"""Heavy-tailed distributions with elementary distribution functions: genpareto, pareto, lomax, burr, burr12, fisk,
loglaplace, kappa3, rel_breitwigner; every method in ``x`` (or ``q``), ``loc``, ``scale`` and the shapes.

The maths
---------
=============  ========================================================  =========================================
distribution   ``log f0(z)``                                             distribution function
=============  ========================================================  =========================================
genpareto(c)   ``-(1 + 1/c) log(1 + cz)`` (``-z`` at c = 0)              ``log S0 = -log(1 + cz)/c``
pareto(b)      ``log b - (b+1) log z``, ``z >= 1``                       ``log S0 = -b log z``
lomax(c)       ``log c - (c+1) log(1+z)``                                ``log S0 = -c log(1+z)``
burr(c, d)     ``log(cd) - (c+1) log z - (d+1) log(1 + z^-c)``           ``log F0 = -d log(1 + z^-c)``
burr12(c, d)   ``log(cd) + (c-1) log z - (d+1) log(1 + z^c)``            ``log S0 = -d log(1 + z^c)``
fisk(c)        burr with ``d = 1``                                       ``log F0 = -log(1 + z^-c)``
loglaplace(c)  ``log(c/2) - |log z| c - log z``                          ``z^c/2`` below 1, ``1 - z^-c/2`` above
kappa3(a)      ``log a - (1/a + 1) log(a + z^a)``                        ``log F0 = -log(1 + a z^-a)/a``
=============  ========================================================  =========================================

The shape derivatives of the log-distribution functions are written in log space (``d log
S0/dc`` from ``log S0``, ``d log F0/dc = F_c / F`` with ``F = -expm1(log S0)``). genpareto's
``c -> 0`` limit (the exponential law): ``d/dc [-log(1 + cz)/c] = z^2 g(cz)`` with
``g(u) = (log(1+u) - u/(1+u))/u^2``, summed as a series for ``|u| < 0.1``.

Moments: genpareto ``E[Z^n] = n!/prod_(k<=n) (1 - kc)``; pareto ``b/(b-n)``; lomax ``n! Gamma(c-n)/Gamma(c)``;
burr ``d B(1 - n/c, d + n/c)``; burr12 ``d B(1 + n/c, d - n/c)``; loglaplace ``c^2/(c^2 - n^2)``.
Entropies: ``1 + c`` (genpareto), ``1 + 1/b - log b`` (pareto, lomax); burr and burr12, which SciPy
integrates numerically, from ``U = Z^-c`` (burr) or ``U = Z^c`` (burr12) being Lomax(``d``):
``h = 1 + 1/d - log d - log c -+ (1 -+ 1/c)(psi(1) - psi(d))`` (the change of variables
``h(Z) = h(U) + E[log|dZ/dU|]``; fisk, ``d = 1``, gives SciPy's ``2 - log c``).

rel_breitwigner(rho) (the relativistic Breit-Wigner resonance, SciPy's parametrisation):
``f0 = C/(u^2 + 1)``, ``u = (z^2 - rho^2)/rho``, ``C = (2/pi) sqrt(2w/(1 + sqrt w))``, ``w = 1 + rho^-2``; its
distribution function is SciPy's ``2 C' Im(sqrt(-1 + i/rho) arctan(z/sqrt(-rho(rho + i))))``, differentiated in
``rho`` in complex arithmetic on the same principal branches, and its two finite moments SciPy's closed forms.

Examples
--------
>>> import scipy.stats as st
>>> import chainrules
>>> from chainrules import rrule, unthunk
>>> y, pullback = rrule(st.genpareto.logsf, 2.0, 0.0)   # c = 0: d/dc log S = z^2 / 2
>>> float(unthunk(pullback(1.0)[3]))
2.0
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.special as sc
import scipy.stats as st

from chainrules.rulesets.special._gamma_tools import psi_increment, trigamma
from chainrules.rulesets.stats._continuous import ContinuousModel, f64, register_models
from chainrules.rulesets.stats.extreme_value import log1p_minus_ratio

__all__: list[str] = []

_EULER = 0.5772156649015329


def _from_logsf(logsf: Any, dlogsf: Any) -> tuple[Any, Any]:
    """``(F_c, d log F/dc)`` from ``log S`` and ``d log S/dc``: ``F_c = -S dlogS``, ``dlogF = F_c / F``."""
    with np.errstate(all="ignore"):
        s = np.exp(logsf)
        fc = -s * dlogsf
        return fc, fc / -np.expm1(logsf)


def _from_logcdf(logcdf: Any, dlogcdf: Any) -> tuple[Any, Any]:
    """``(F_c, d log S/dc)`` from ``log F`` and ``d log F/dc``."""
    with np.errstate(all="ignore"):
        fc = np.exp(logcdf) * dlogcdf
        return fc, -fc / -np.expm1(logcdf)


class _LogSFModel(ContinuousModel):
    """A model whose ``log S0`` and its shape partials are written (``_logsf``): the rest follows."""

    def _logsf(self, z: Any, *shapes: Any) -> tuple[Any, tuple[Any, ...]]:
        raise NotImplementedError

    def dcdf_dshapes(self, z: Any, *shapes: Any) -> Any:
        logsf, d = self._logsf(z, *shapes)
        return tuple(_from_logsf(logsf, di)[0] for di in d)

    def dlogcdf_dshapes(self, z: Any, logcdf: Any, *shapes: Any) -> Any:
        logsf, d = self._logsf(z, *shapes)
        return tuple(_from_logsf(logsf, di)[1] for di in d)

    def dlogsf_dshapes(self, z: Any, logsf: Any, *shapes: Any) -> Any:
        return self._logsf(z, *shapes)[1]


class _LogCDFModel(ContinuousModel):
    """A model whose ``log F0`` and its shape partials are written (``_logcdf``)."""

    def _logcdf(self, z: Any, *shapes: Any) -> tuple[Any, tuple[Any, ...]]:
        raise NotImplementedError

    def dcdf_dshapes(self, z: Any, *shapes: Any) -> Any:
        logcdf, d = self._logcdf(z, *shapes)
        return tuple(_from_logcdf(logcdf, di)[0] for di in d)

    def dlogcdf_dshapes(self, z: Any, logcdf: Any, *shapes: Any) -> Any:
        return self._logcdf(z, *shapes)[1]

    def dlogsf_dshapes(self, z: Any, logsf: Any, *shapes: Any) -> Any:
        logcdf, d = self._logcdf(z, *shapes)
        return tuple(_from_logcdf(logcdf, di)[1] for di in d)


# ---- genpareto, pareto, lomax ---------------------------------------------------------------------------------
class _GenPareto(_LogSFModel):
    dist = st.genpareto
    shape_samples = ((0.15,), (-0.3,))

    def dlogpdf_dz(self, z: Any, c: Any) -> Any:
        return -(c + 1) / (1 + c * z)

    def dlogpdf_dshapes(self, z: Any, c: Any) -> Any:
        return (z * z * log1p_minus_ratio(c * z) - z / (1 + c * z),)

    def _logsf(self, z: Any, c: Any) -> Any:
        with np.errstate(all="ignore"):
            u = c * z
            logsf = np.where(c == 0, -z, -np.log1p(u) / np.where(c == 0, 1.0, c))
        return logsf, (z * z * log1p_minus_ratio(u),)

    def dmean(self, c: Any) -> Any:
        return (1 / (1 - c) ** 2,)

    def dvar(self, c: Any) -> Any:
        v = 1 / ((1 - c) ** 2 * (1 - 2 * c))
        return (v * (2 / (1 - c) + 2 / (1 - 2 * c)),)

    def dmunp(self, n: int, c: Any) -> Any:
        c = f64(c)
        k = np.arange(1, n + 1).reshape((-1,) + (1,) * c.ndim)
        m = sc.factorial(n) / np.prod(1 - k * c, axis=0)
        return (m * np.sum(k / (1 - k * c), axis=0),)

    def dentropy(self, c: Any) -> Any:
        return (np.ones(np.shape(c)),)


class _Pareto(_LogSFModel):
    dist = st.pareto
    shape_samples = ((4.5,),)

    def dlogpdf_dz(self, z: Any, b: Any) -> Any:
        return -(b + 1) / z

    def dlogpdf_dshapes(self, z: Any, b: Any) -> Any:
        return (1 / b - np.log(z),)

    def _logsf(self, z: Any, b: Any) -> Any:
        logz = np.log(z)
        return -b * logz, (-logz,)

    def dmean(self, b: Any) -> Any:
        return (-1 / (b - 1) ** 2,)

    def dvar(self, b: Any) -> Any:
        v = b / ((b - 2) * (b - 1) ** 2)
        return (v * (1 / b - 1 / (b - 2) - 2 / (b - 1)),)

    def dmunp(self, n: int, b: Any) -> Any:
        return (-n / (b - n) ** 2,)

    def dentropy(self, b: Any) -> Any:
        return (-1 / b ** 2 - 1 / b,)


class _Lomax(_LogSFModel):
    dist = st.lomax
    shape_samples = ((4.5,),)

    def dlogpdf_dz(self, z: Any, c: Any) -> Any:
        return -(c + 1) / (1 + z)

    def dlogpdf_dshapes(self, z: Any, c: Any) -> Any:
        return (1 / c - np.log1p(z),)

    def _logsf(self, z: Any, c: Any) -> Any:
        l1 = np.log1p(z)
        return -c * l1, (-l1,)

    def dmean(self, c: Any) -> Any:
        return (-1 / (c - 1) ** 2,)

    def dvar(self, c: Any) -> Any:
        v = c / ((c - 2) * (c - 1) ** 2)
        return (v * (1 / c - 1 / (c - 2) - 2 / (c - 1)),)

    def dmunp(self, n: int, c: Any) -> Any:  # E[Z^n] = n! Gamma(c - n)/Gamma(c) = n!/(c-n)_n
        m = sc.factorial(n) / sc.poch(c - n, n)
        return (-m * psi_increment(c - n, n),)

    def dentropy(self, c: Any) -> Any:
        return (-1 / c ** 2 - 1 / c,)


# ---- burr, burr12, fisk --------------------------------------------------------------------------------------
def _burr_parts(z: Any, c: Any) -> tuple[Any, Any, Any]:
    """``(w, w/(1+w), log z)`` with ``w = z^-c``."""
    logz = np.log(z)
    w = np.exp(-c * logz)
    return w, 1 / (1 + 1 / w), logz


class _Burr(_LogCDFModel):
    dist = st.burr
    shape_samples = ((4.5, 2.5),)

    def dlogpdf_dz(self, z: Any, c: Any, d: Any) -> Any:
        _, r, _ = _burr_parts(z, c)
        return (-(c + 1) + (d + 1) * c * r) / z

    def dlogpdf_dshapes(self, z: Any, c: Any, d: Any) -> Any:
        w, r, logz = _burr_parts(z, c)
        return (1 / c - logz + (d + 1) * r * logz, 1 / d - np.log1p(w))

    def _logcdf(self, z: Any, c: Any, d: Any) -> Any:
        w, r, logz = _burr_parts(z, c)
        l1 = np.log1p(w)
        return -d * l1, (d * r * logz, -l1)

    def dmunp(self, n: int, c: Any, d: Any) -> Any:  # d B(1 - n/c, d + n/c)
        r = n / c
        m = d * sc.beta(1 - r, d + r)
        return (m * (sc.psi(1 - r) - sc.psi(d + r)) * n / c ** 2, m * (1 / d + sc.psi(d + r) - sc.psi(1 + d)))

    def dentropy(self, c: Any, d: Any) -> Any:  # h = 1 + 1/d - log d - log c - (1 + 1/c)(psi(1) - psi(d))
        e = -_EULER - sc.psi(d)
        return (-1 / c + e / c ** 2, -1 / d ** 2 - 1 / d + (1 + 1 / c) * trigamma(d))


class _Fisk(_LogCDFModel):
    dist = st.fisk
    shape_samples = ((4.5,),)

    def dlogpdf_dz(self, z: Any, c: Any) -> Any:
        _, r, _ = _burr_parts(z, c)
        return (-(c + 1) + 2 * c * r) / z

    def dlogpdf_dshapes(self, z: Any, c: Any) -> Any:
        _, r, logz = _burr_parts(z, c)
        return (1 / c - logz + 2 * r * logz,)

    def _logcdf(self, z: Any, c: Any) -> Any:
        w, r, logz = _burr_parts(z, c)
        return -np.log1p(w), (r * logz,)

    def dmunp(self, n: int, c: Any) -> Any:  # B(1 - n/c, 1 + n/c)
        r = n / c
        m = sc.beta(1 - r, 1 + r)
        return (m * (sc.psi(1 - r) - sc.psi(1 + r)) * n / c ** 2,)

    def dentropy(self, c: Any) -> Any:
        return (-1 / f64(c),)


class _Burr12(_LogSFModel):
    dist = st.burr12
    shape_samples = ((2.5, 3.5),)

    def dlogpdf_dz(self, z: Any, c: Any, d: Any) -> Any:
        w = z ** c
        return (c - 1) / z - (d + 1) * c * w / (z * (1 + w))

    def dlogpdf_dshapes(self, z: Any, c: Any, d: Any) -> Any:
        w = z ** c
        logz = np.log(z)
        return (1 / c + logz - (d + 1) * w * logz / (1 + w), 1 / d - np.log1p(w))

    def _logsf(self, z: Any, c: Any, d: Any) -> Any:
        w = z ** c
        l1 = np.log1p(w)
        return -d * l1, (-d * w * np.log(z) / (1 + w), -l1)

    def dmunp(self, n: int, c: Any, d: Any) -> Any:  # d B(1 + n/c, d - n/c)
        r = n / c
        m = d * sc.beta(1 + r, d - r)
        return (m * (sc.psi(d - r) - sc.psi(1 + r)) * n / c ** 2, m * (1 / d + sc.psi(d - r) - sc.psi(1 + d)))

    def dentropy(self, c: Any, d: Any) -> Any:  # h = 1 + 1/d - log d - log c + (1/c - 1)(psi(1) - psi(d))
        e = -_EULER - sc.psi(d)
        return (-1 / c - e / c ** 2, -1 / d ** 2 - 1 / d - (1 / c - 1) * trigamma(d))


# ---- loglaplace, kappa3 ----------------------------------------------------------------------------------------
class _LogLaplace(ContinuousModel):
    dist = st.loglaplace
    shape_samples = ((4.5,),)

    def dlogpdf_dz(self, z: Any, c: Any) -> Any:
        return np.where(z < 1, c - 1, -c - 1) / z

    def dlogpdf_dshapes(self, z: Any, c: Any) -> Any:
        return (1 / c - np.abs(np.log(z)),)

    def dcdf_dshapes(self, z: Any, c: Any) -> Any:
        logz = np.log(z)
        return (np.exp(-c * np.abs(logz)) * logz / 2,)

    def dmunp(self, n: int, c: Any) -> Any:
        c2 = c * c
        return (-2 * c * n * n / (c2 - n * n) ** 2,)

    def dentropy(self, c: Any) -> Any:
        return (-1 / f64(c),)


class _Kappa3(_LogCDFModel):
    dist = st.kappa3
    shape_samples = ((4.5,),)  # E[Z^n] exists for n < a

    def dlogpdf_dz(self, z: Any, a: Any) -> Any:
        w = z ** a
        return -(1 + a) * z ** (a - 1) / (a + w)

    def dlogpdf_dshapes(self, z: Any, a: Any) -> Any:
        w = z ** a
        s = a + w
        with np.errstate(all="ignore"):
            wl = np.where(w == 0, 0.0, w * np.log(z))
        return (1 / a + np.log(s) / a ** 2 - (1 / a + 1) * (1 + wl) / s,)

    def _logcdf(self, z: Any, a: Any) -> Any:
        # log F = -log(1 + a v)/a with v = z^-a (F = z (a + z^a)^(-1/a)); its derivative in a,
        # v^2 g(a v) + v log z / (1 + a v), has no cancellation far right where F -> 1
        with np.errstate(all="ignore"):
            logz = np.log(z)
            v = np.exp(-a * logz)
            return -np.log1p(a * v) / a, (v * v * log1p_minus_ratio(a * v) + v * logz / (1 + a * v),)


# ---- rel_breitwigner -------------------------------------------------------------------------------------------
def _breitwigner_dlogc(rho: Any) -> Any:
    """``d/drho log sqrt(w/(1 + sqrt w))``, ``w = 1 + rho^-2``: the normalisers' common factor."""
    w = 1 + rho ** -2.0
    root = np.sqrt(w)
    return 0.5 * (-2 / rho ** 3) / w + 0.5 / (rho ** 3 * root * (1 + root))


class _RelBreitWigner(ContinuousModel):
    """``f0 = C / (u^2 + 1)``, ``u = (z^2 - rho^2)/rho``, ``C = (2/pi) sqrt(2w/(1 + sqrt w))``, ``w = 1 + rho^-2``."""

    dist = st.rel_breitwigner
    shape_samples = ((1.5,),)
    tail_q = None  # SciPy's sf is 1 - cdf: no accuracy in the right tail to differentiate
    moment_order = 2  # E[Z^3] is infinite

    def dlogpdf_dz(self, z: Any, rho: Any) -> Any:
        u = (z - rho) * (z + rho) / rho
        return -4 * u * z / (rho * (1 + u * u))

    def dlogpdf_dshapes(self, z: Any, rho: Any) -> Any:
        u = (z - rho) * (z + rho) / rho
        du = -z * z / (rho * rho) - 1
        return (_breitwigner_dlogc(rho) - 2 * u * du / (1 + u * u),)

    def dcdf_dshapes(self, z: Any, rho: Any) -> Any:
        """SciPy's ``F0 = 2 C' Im(g arctan(z/h))``, ``g = sqrt(-1 + i/rho)``, ``h = sqrt(-rho (rho + i))``,
        ``C' = sqrt(2/(1 + sqrt w))/pi``, differentiated on the same (principal) branches."""
        z, rho = np.broadcast_arrays(f64(z), f64(rho))
        root = np.sqrt(1 + rho ** -2.0)
        c = np.sqrt(2 / (1 + root)) / np.pi
        dlog_c = 0.5 / (rho ** 3 * root * (1 + root))
        g = np.sqrt(-1 + 1j / rho)
        h = np.sqrt(-rho * (rho + 1j))
        u = z / h
        arctan = np.arctan(u)
        dg = (-1j / rho ** 2) / (2 * g)
        dh = (-2 * rho - 1j) / (2 * h)
        darctan = (-z * dh / h ** 2) / (1 + u * u)
        return (2 * c * (dlog_c * np.imag(g * arctan) + np.imag(dg * arctan + g * darctan)),)

    def dmunp(self, n: int, rho: Any) -> Any:
        """SciPy's ``E[Z] = C1 rho (pi/2 + arctan rho)``, ``E[Z^2] = 2 C2 Re((1 - i rho)/sqrt(-1 - i/rho))``."""
        rho = f64(rho)
        if n == 1:
            m = f64(self.dist.moment(1, rho))
            return (m * (_breitwigner_dlogc(rho) + 1 / rho + 1 / ((1 + rho * rho) * (np.pi / 2 + np.arctan(rho)))),)
        if n == 2:
            c2 = np.sqrt((1 + rho ** -2.0) / (2 * (1 + np.sqrt(1 + rho ** -2.0)))) * rho
            dc2 = c2 * (_breitwigner_dlogc(rho) + 1 / rho)
            q = np.sqrt(-1 - 1j / rho)
            r = (1 - 1j * rho) / q
            dq = (1j / rho ** 2) / (2 * q)
            dr = -1j / q - (1 - 1j * rho) * dq / q ** 2
            return (2 * (dc2 * np.real(r) + c2 * np.real(dr)),)
        return (np.full(np.shape(rho), np.nan),)  # infinite moments


register_models(_GenPareto(), _Pareto(), _Lomax(), _Burr(), _Fisk(), _Burr12(), _LogLaplace(), _Kappa3(),
                _RelBreitWigner())
