"""Distributions on a bounded support: triang, trapezoid, bradford, reciprocal, loguniform, rdist, truncexpon,
truncpareto, truncweibull_min, argus, irwinhall; every method in ``x`` (or ``q``), ``loc``, ``scale`` and the
shapes (irwinhall's ``n`` is a count).

The maths
---------
* triang(c), trapezoid(c, d): piecewise linear densities on ``[0, 1]`` whose corners move with the
  shapes; each piece is differentiated (the density is continuous across a corner, so the
  moments' derivatives have no corner terms): ``E[Z^n]`` of triang is
  ``2c^(n+1)/(n+2) + 2 G/(1-c)``, ``G = (1 - c^(n+1))/(n+1) - (1 - c^(n+2))/(n+2)``, with
  ``dE/dc = -2c^n/(n+2) + 2G/(1-c)^2``; trapezoid's is SciPy's ``2 (T(d) - c^(n+1)) / ((n+1)(n+2)(1+d-c))``,
  ``T(d) = (1 - d^(n+2))/(1 - d)``.
* bradford(c): ``f0 = c / ((1 + cz) log(1+c))``, ``F0 = log(1 + cz)/log(1 + c)``.
* reciprocal, loguniform(a, b): ``f0 = 1/(z log(b/a))`` on ``[a, b]``; rdist(c): ``(Z+1)/2 ~ Beta(c/2, c/2)``
  (the incomplete beta derivatives); truncexpon(b): ``f0 = e^-z / (1 - e^-b)`` on ``[0, b]``;
  truncpareto(b, c): ``f0 = b z^-(b+1) / (1 - c^-b)`` on ``[1, c]``.
* truncweibull_min(c, a, b): ``f0 = c z^(c-1) e^(-z^c) / D`` on ``[a, b]``, ``D = e^(-a^c) - e^(-b^c)``;
  ``E[Z^n] = (G(s, b^c) - G(s, a^c))/D``, ``s = n/c + 1``, ``G(s, x) = Gamma(s) P(s, x)`` differentiated in
  ``s`` by the incomplete gamma's ``a``-derivative (:mod:`chainrules.rulesets.special.incomplete_gamma`).
* argus(chi) (Albrecht et al., ARGUS Collaboration, *Phys. Lett. B* 241 (1990) 278): on ``[0, 1]``,
  ``f0 = chi^3 z sqrt(1 - z^2) e^(-chi^2 (1 - z^2)/2) / (sqrt(2 pi) Psi(chi))``,
  ``S0 = Psi(chi sqrt(1 - z^2)) / Psi(chi)`` with ``Psi(chi) = Phi(chi) - chi phi(chi) - 1/2 = P(3/2, chi^2/2)/2``,
  ``Psi' = chi^2 phi``; the mean ``sqrt(pi/8) chi e^(-chi^2/4) I1(chi^2/4)/Psi`` and ``E[Z^2]`` as SciPy
  computes them.

Where the support moves with a shape (reciprocal's ``a``, ``b``; truncexpon's ``b``; truncpareto's
``c``; truncweibull_min's ``a``, ``b``), the expectations obey the truncation identity: differentiating
``int_a^b g f`` with its ends, ``dE[g]/da = f(a) (E[g] - g(a)) + E[dg/da]`` and
``dE[g]/db = f(b) (g(b) - E[g]) + E[dg/db]`` (``f`` the density, ``g`` the moment's or the entropy's integrand).

Examples
--------
>>> import scipy.stats as st
>>> import chainrules
>>> from chainrules import rrule, unthunk
>>> y, pullback = rrule(st.triang.mean, 0.25)       # (1 + c)/3
>>> float(unthunk(pullback(1.0)[2]))
0.3333333333333333
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.special as sc
import scipy.stats as st

from chainrules.rulesets.special._gamma_tools import psi_increment
from chainrules.rulesets.special.incomplete_beta import betainc_dab
from chainrules.rulesets.special.incomplete_gamma import gammainc_da
from chainrules.rulesets.stats._continuous import ContinuousModel, added, f64, register_models, scaled
from chainrules_core import NotImplementedTangent, not_implemented

__all__: list[str] = []


# ---- triang, trapezoid --------------------------------------------------------------------------------------
class _Triang(ContinuousModel):
    dist = st.triang
    shape_samples = ((0.3,),)

    def kinks(self, c: Any) -> tuple[float, ...]:
        return (float(c),)

    def dlogpdf_dz(self, z: Any, c: Any) -> Any:
        return np.where(z < c, 1 / z, -1 / (1 - z))

    def dlogpdf_dshapes(self, z: Any, c: Any) -> Any:
        return (np.where(z < c, -1 / c, 1 / (1 - c)),)

    def dcdf_dshapes(self, z: Any, c: Any) -> Any:
        return (np.where(z < c, -(z / c) ** 2, -((1 - z) / (1 - c)) ** 2),)

    def dmean(self, c: Any) -> Any:
        return (np.full(np.shape(c), 1 / 3),)

    def dvar(self, c: Any) -> Any:
        return ((2 * f64(c) - 1) / 18,)

    def dmunp(self, n: int, c: Any) -> Any:
        c = f64(c)
        g = (1 - c ** (n + 1)) / (n + 1) - (1 - c ** (n + 2)) / (n + 2)
        return (-2 * c ** n / (n + 2) + 2 * g / (1 - c) ** 2,)

    def dentropy(self, c: Any) -> Any:
        return (np.zeros(np.shape(c)),)


class _Trapezoid(ContinuousModel):
    dist = st.trapezoid
    shape_samples = ((0.25, 0.65),)  # corners at F = 0.18 and 0.75, away from the samples

    def kinks(self, c: Any, d: Any) -> tuple[float, ...]:
        return (float(c), float(d))

    def dlogpdf_dz(self, z: Any, c: Any, d: Any) -> Any:
        return np.where(z < c, 1 / z, np.where(z > d, -1 / (1 - z), 0.0))

    def dlogpdf_dshapes(self, z: Any, c: Any, d: Any) -> Any:
        s = 1 / (d - c + 1)
        return (np.where(z < c, s - 1 / c, s), np.where(z > d, -s + 1 / (1 - d), -s))

    def dcdf_dshapes(self, z: Any, c: Any, d: Any) -> Any:
        s = d - c + 1
        big = s * (1 - d)
        below = (-z * z * (d - 2 * c + 1) / (c * c * s * s), -z * z / (c * s * s))
        middle = ((2 * z - d - 1) / (s * s), -(2 * z - c) / (s * s))
        above = (-(1 - z) ** 2 * (1 - d) / big ** 2, (1 - z) ** 2 * (c - 2 * d) / big ** 2)
        return tuple(np.where(z < c, lo, np.where(z > d, hi, mid)) for lo, mid, hi in zip(below, middle, above))

    def dmunp(self, n: int, c: Any, d: Any) -> Any:
        c, d = f64(c), f64(d)
        k = 2 / ((n + 1) * (n + 2))
        s = 1 + d - c
        t = (1 - d ** (n + 2)) / (1 - d)
        dt = (-(n + 2) * d ** (n + 1) * (1 - d) + (1 - d ** (n + 2))) / (1 - d) ** 2
        top = t - c ** (n + 1)
        return (k * (-(n + 1) * c ** n / s + top / s ** 2), k * (dt / s - top / s ** 2))

    def dentropy(self, c: Any, d: Any) -> Any:  # h = 1/s - 1/2 + log(s/2), s = 1 + d - c
        s = 1 + f64(d) - f64(c)
        dh = -1 / s ** 2 + 1 / s
        return (-dh, dh)


# ---- bradford ------------------------------------------------------------------------------------------------
class _Bradford(ContinuousModel):
    dist = st.bradford
    shape_samples = ((2.5,),)

    def dlogpdf_dz(self, z: Any, c: Any) -> Any:
        return -c / (1 + c * z)

    def dlogpdf_dshapes(self, z: Any, c: Any) -> Any:
        return (1 / c - z / (1 + c * z) - 1 / ((1 + c) * np.log1p(c)),)

    def dcdf_dshapes(self, z: Any, c: Any) -> Any:
        k = np.log1p(c)
        return (z / ((1 + c * z) * k) - np.log1p(c * z) / ((1 + c) * k * k),)

    def dmean(self, c: Any) -> Any:  # m = 1/k - 1/c, k = log(1 + c)
        c = f64(c)
        k = np.log1p(c)
        return (-1 / ((1 + c) * k * k) + 1 / (c * c),)

    def dvar(self, c: Any) -> Any:  # v = (c + 2)/(2 c k) - 1/k^2
        c = f64(c)
        k = np.log1p(c)
        dk = 1 / (1 + c)
        da = -(dk / (2 * k * k)) * (1 + 2 / c) - 1 / (k * c * c)
        return (da + 2 * dk / k ** 3,)

    def dentropy(self, c: Any) -> Any:  # h = k/2 - log c + log k
        c = f64(c)
        k = np.log1p(c)
        return (1 / (2 * (1 + c)) - 1 / c + 1 / ((1 + c) * k),)


# ---- reciprocal, loguniform ---------------------------------------------------------------------------------------
def _truncation(fa: Any, fb: Any, ga: Any, gb: Any, e: Any) -> tuple[Any, Any]:
    """The truncation identity: ``(f(a) (E[g] - g(a)), f(b) (g(b) - E[g]))``."""
    return fa * (e - ga), fb * (gb - e)


class _Reciprocal(ContinuousModel):
    dist = st.reciprocal
    shape_samples = ((0.5, 4.0),)

    def dlogpdf_dz(self, z: Any, a: Any, b: Any) -> Any:
        return -1 / z

    def dlogpdf_dshapes(self, z: Any, a: Any, b: Any) -> Any:
        length = np.log(b / a)
        shape = np.broadcast(z, length).shape
        return (np.broadcast_to(1 / (a * length), shape), np.broadcast_to(-1 / (b * length), shape))

    def dcdf_dshapes(self, z: Any, a: Any, b: Any) -> Any:
        length = np.log(b / a)
        return (-np.log(b / z) / (a * length ** 2), -np.log(z / a) / (b * length ** 2))

    def dmunp(self, n: int, a: Any, b: Any) -> Any:
        a, b = f64(a), f64(b)
        length = np.log(b / a)
        return _truncation(1 / (a * length), 1 / (b * length), a ** n, b ** n, f64(self.dist.moment(n, a, b)))

    def dvar(self, a: Any, b: Any) -> Any:
        a, b = f64(a), f64(b)
        length = np.log(b / a)
        m, v = (f64(x) for x in self.dist.stats(a, b, moments="mv"))
        return (((v - (m - a) ** 2)) / (a * length), ((b - m) ** 2 - v) / (b * length))

    def dentropy(self, a: Any, b: Any) -> Any:
        a, b = f64(a), f64(b)
        length = np.log(b / a)
        return (1 / (2 * a) - 1 / (a * length), 1 / (2 * b) + 1 / (b * length))


class _LogUniform(_Reciprocal):
    dist = st.loguniform


# ---- rdist ----------------------------------------------------------------------------------------------------
class _RDist(ContinuousModel):
    dist = st.rdist
    shape_samples = ((3.5,),)

    def dlogpdf_dz(self, z: Any, c: Any) -> Any:
        return -(c - 2) * z / ((1 - z) * (1 + z))

    def dlogpdf_dshapes(self, z: Any, c: Any) -> Any:
        return (0.5 * np.log((1 - z) * (1 + z) / 4) + psi_increment(c / 2, c / 2),)

    def dcdf_dshapes(self, z: Any, c: Any) -> Any:
        found = betainc_dab(c / 2, c / 2, (1 + z) / 2)
        if isinstance(found, NotImplementedTangent):
            return (found,)
        da, db = found
        return (scaled(added(da, db), 0.5),)

    def dmunp(self, n: int, c: Any) -> Any:
        c = f64(c)
        if n % 2:
            return (np.zeros_like(c),)
        m = f64(self.dist.moment(n, c))
        return (-m / 2 * psi_increment((1 + c) / 2, n / 2),)


# ---- truncexpon, truncpareto ------------------------------------------------------------------------------------
class _TruncExpon(ContinuousModel):
    dist = st.truncexpon
    shape_samples = ((1.5,),)

    def dlogpdf_dz(self, z: Any, b: Any) -> Any:
        return -np.ones_like(z)

    def dlogpdf_dshapes(self, z: Any, b: Any) -> Any:
        return (np.broadcast_to(-1 / np.expm1(b), np.broadcast(z, b).shape),)

    def dcdf_dshapes(self, z: Any, b: Any) -> Any:
        return (-(np.expm1(-z) / np.expm1(-b)) / np.expm1(b),)

    def dlogcdf_dshapes(self, z: Any, logcdf: Any, b: Any) -> Any:
        return (np.broadcast_to(-1 / np.expm1(b), np.broadcast(z, b).shape),)

    def dlogsf_dshapes(self, z: Any, logsf: Any, b: Any) -> Any:
        return (1 / np.expm1(b - z) - 1 / np.expm1(b),)

    def dmunp(self, n: int, b: Any) -> Any:  # the density at b is 1/(e^b - 1); at 0 the support does not move
        b = f64(b)
        return ((b ** n - f64(self.dist.moment(n, b))) / np.expm1(b),)

    def dvar(self, b: Any) -> Any:
        b = f64(b)
        m, v = (f64(x) for x in self.dist.stats(b, moments="mv"))
        return (((b - m) ** 2 - v) / np.expm1(b),)

    def dentropy(self, b: Any) -> Any:  # h = E[Z] + log(1 - e^-b)
        b = f64(b)
        return ((b - f64(self.dist.mean(b)) + 1) / np.expm1(b),)


class _TruncPareto(ContinuousModel):
    dist = st.truncpareto
    shape_samples = ((1.5, 6.0),)

    def dlogpdf_dz(self, z: Any, b: Any, c: Any) -> Any:
        return -(b + 1) / z

    def dlogpdf_dshapes(self, z: Any, b: Any, c: Any) -> Any:
        q = c ** -b
        logc = np.log(c)
        return (1 / b - np.log(z) - q * logc / (1 - q), np.broadcast_to(-b * q / (c * (1 - q)),
                                                                      np.broadcast(z, b, c).shape))

    def dcdf_dshapes(self, z: Any, b: Any, c: Any) -> Any:
        q = c ** -b
        w = z ** -b
        denominator = (1 - q) ** 2
        db = (w * np.log(z) * (1 - q) - (1 - w) * q * np.log(c)) / denominator
        dc = -(1 - w) * b * q / (c * denominator)
        return (db, dc)

    def dmunp(self, n: int, b: Any, c: Any) -> Any:  # E[Z^n] = b/(b - n) (c^b - c^n)/(c^b - 1)
        b, c = f64(b), f64(c)
        m = b / (b - n) * (c ** b - c ** n) / (c ** b - 1)
        cb, logc = c ** b, np.log(c)
        dlog_b = 1 / b - 1 / (b - n) + cb * logc / (cb - c ** n) - cb * logc / (cb - 1)
        dlog_c = (b * c ** (b - 1) - n * c ** (n - 1)) / (cb - c ** n) - b * c ** (b - 1) / (cb - 1)
        return (m * dlog_b, m * dlog_c)

    def dentropy(self, b: Any, c: Any) -> Any:  # h = -(log(b/(1 - c^-b)) + (b+1) (log c/(c^b - 1) - 1/b))
        b, c = f64(b), f64(c)
        q, cb, logc = c ** -b, c ** b, np.log(c)
        t = logc / (cb - 1) - 1 / b
        dt_b = -logc * cb * logc / (cb - 1) ** 2 + 1 / b ** 2
        dt_c = ((cb - 1) / c - logc * b * c ** (b - 1)) / (cb - 1) ** 2
        return (-(1 / b - q * logc / (1 - q) + t + (b + 1) * dt_b), -(-b * q / (c * (1 - q)) + (b + 1) * dt_c))


# ---- truncweibull_min ------------------------------------------------------------------------------------------
def _xlog(w: Any, z: Any) -> Any:
    """``w log z``, 0 where ``w`` is (``a^c log a`` at ``a = 0``)."""
    with np.errstate(all="ignore"):
        return np.where(w == 0, 0.0, w * np.log(z))


class _TruncWeibullMin(ContinuousModel):
    dist = st.truncweibull_min
    shape_samples = ((1.8, 0.3, 2.0),)
    tail_q = None

    def _normaliser(self, c: Any, a: Any, b: Any) -> tuple[Any, Any, Any, Any]:
        """``D = e^-A - e^-B`` (``A = a^c``, ``B = b^c``), ``dD/dc`` and the density at the ends ``f(a)``, ``f(b)``."""
        ea, eb = np.exp(-(a ** c)), np.exp(-(b ** c))
        d = ea - eb
        dd_dc = -ea * _xlog(a ** c, a) + eb * _xlog(b ** c, b)
        with np.errstate(all="ignore"):
            fa = np.where(a == 0, np.where(c < 1, np.inf, np.where(c == 1, 1.0, 0.0)), c * a ** (c - 1)) * ea / d
        fb = c * b ** (c - 1) * eb / d
        return d, dd_dc, fa, fb

    def dlogpdf_dz(self, z: Any, c: Any, a: Any, b: Any) -> Any:
        return (c - 1) / z - c * z ** (c - 1)

    def dlogpdf_dshapes(self, z: Any, c: Any, a: Any, b: Any) -> Any:
        d, dd_dc, fa, fb = self._normaliser(c, a, b)
        shape = np.broadcast(z, c, a, b).shape
        dc = 1 / c + np.log(z) - _xlog(z ** c, z) - dd_dc / d
        return (dc, np.broadcast_to(fa, shape), np.broadcast_to(-fb, shape))

    def dcdf_dshapes(self, z: Any, c: Any, a: Any, b: Any) -> Any:
        # F = N/D, N = e^-A - e^-(z^c): dF = (dN - F dD)/D
        d, dd_dc, fa, fb = self._normaliser(c, a, b)
        n = np.exp(-(a ** c)) - np.exp(-(z ** c))
        cdf = n / d
        dn_dc = -np.exp(-(a ** c)) * _xlog(a ** c, a) + np.exp(-(z ** c)) * _xlog(z ** c, z)
        return ((dn_dc - cdf * dd_dc) / d, -fa * (1 - cdf), -fb * cdf)

    def dmunp(self, n: int, c: Any, a: Any, b: Any) -> Any:
        """``E[Z^n] = (G(s, B) - G(s, A))/D``, ``s = n/c + 1``, ``G(s, x) = Gamma(s) P(s, x)`` (SciPy's ``_munp``);
        in ``a`` and ``b`` the truncation identity."""
        c, a, b = f64(c), f64(a), f64(b)
        d, dd_dc, fa, fb = self._normaliser(c, a, b)
        m = f64(self.dist.moment(n, c, a, b))
        s = n / c + 1
        big_a, big_b = a ** c, b ** c

        def dg_dc(x: Any, end: Any) -> Any:  # d/dc G(s, x(c)), x = end^c
            dp_ds = gammainc_da(s, x)
            if isinstance(dp_ds, NotImplementedTangent):
                return dp_ds
            with np.errstate(all="ignore"):
                dg_ds = sc.gamma(s) * (sc.psi(s) * sc.gammainc(s, x) + dp_ds)
                dg_dx = np.where(x == 0, 0.0, np.exp((s - 1) * np.log(x) - x))
                return np.where(x == 0, 0.0, dg_ds * (-n / c ** 2) + dg_dx * _xlog(x, end))

        upper, lower = dg_dc(big_b, b), dg_dc(big_a, a)
        for part in (upper, lower):
            if isinstance(part, NotImplementedTangent):
                return (part, fa * (m - a ** n), fb * (b ** n - m))
        return ((upper - lower - m * dd_dc) / d, fa * (m - a ** n), fb * (b ** n - m))

    def dentropy(self, c: Any, a: Any, b: Any) -> Any:
        """``dh/da = f(a) (log f(a) + h - 1)``, ``dh/db = -f(b) (log f(b) + h - 1)`` (Leibniz's rule; ``dlog f/da``
        is the constant ``f(a)``, ``dlog f/db = -f(b)``); in ``c`` (the support does not move) by quadrature."""
        from chainrules.rulesets.stats._expectations import expectation_partials

        c, a, b = f64(c), f64(a), f64(b)
        _, _, fa, fb = self._normaliser(c, a, b)
        h = f64(self.dist.entropy(c, a, b))
        with np.errstate(all="ignore"):
            da = np.where(fa == 0, 0.0, fa * (np.log(fa) + h - 1))
        db = -fb * (np.log(fb) + h - 1)
        (dc,) = expectation_partials(self, "entropy", lambda z, theta: -self.dist._logpdf(z, *theta), (c, a, b),
                                     indices=(0,))
        return (dc, da, db)


# ---- argus ----------------------------------------------------------------------------------------------------
def _argus_psi(chi: Any) -> Any:
    """``Psi(chi) = Phi(chi) - chi phi(chi) - 1/2 = P(3/2, chi^2/2)/2`` (SciPy's ``_argus_phi``)."""
    return sc.gammainc(1.5, chi * chi / 2) / 2


def _argus_score(chi: Any) -> Any:
    """``Psi'(chi)/Psi(chi) = chi^2 phi(chi)/Psi(chi)``."""
    return chi * chi * np.exp(-chi * chi / 2) / (_SQRT_2PI * _argus_psi(chi))


_SQRT_2PI = float(np.sqrt(2 * np.pi))
_ARGUS_SERIES = np.array([-358 / 65690625, 0, -94 / 1010625, 0, 2 / 2625, 0, 6 / 175, 0, 0.4])
"""SciPy's Taylor polynomial of ``E[Z^2]`` below ``chi = 0.1``."""


class _Argus(ContinuousModel):
    dist = st.argus
    shape_samples = ((1.5,),)
    tail_q = None
    numeric_moment = True

    def dlogpdf_dz(self, z: Any, chi: Any) -> Any:
        return 1 / z - z / ((1 - z) * (1 + z)) + chi * chi * z

    def dlogpdf_dshapes(self, z: Any, chi: Any) -> Any:
        return (3 / chi - _argus_score(chi) - chi * (1 - z) * (1 + z),)

    def dlogsf_dshapes(self, z: Any, logsf: Any, chi: Any) -> Any:
        """``S = Psi(chi y)/Psi(chi)``, ``y = sqrt(1 - z^2)``:
        ``d log S/dchi = y Psi'(chi y)/Psi(chi y) - Psi'(chi)/Psi(chi)``."""
        y = np.sqrt((1 - z) * (1 + z))
        with np.errstate(all="ignore"):
            inner = np.where(y == 0, 3 / chi, y * _argus_score(chi * y))  # Psi(t) ~ t^3: the limit 3/chi
        return (inner - _argus_score(chi),)

    def dcdf_dshapes(self, z: Any, chi: Any) -> Any:
        y = np.sqrt((1 - z) * (1 + z))
        sf = _argus_psi(chi * y) / _argus_psi(chi)
        return (-sf * self.dlogsf_dshapes(z, None, chi)[0],)

    def dmean(self, chi: Any) -> Any:
        """``m = sqrt(pi/8) chi e^-t I1(t)/Psi``, ``t = chi^2/4`` (SciPy's ``_stats``), with
        ``d(e^-t I1(t))/dt = e^-t ((I0 + I2)/2 - I1)`` (DLMF 10.29.1)."""
        chi = f64(chi)
        t = chi * chi / 4
        i1 = sc.ive(1, t)
        m = np.sqrt(np.pi / 8) * chi * i1 / _argus_psi(chi)
        dnum = i1 + chi * (chi / 2) * ((sc.ive(0, t) + sc.ive(2, t)) / 2 - i1)
        return (np.sqrt(np.pi / 8) * dnum / _argus_psi(chi) - m * _argus_score(chi),)

    def dvar(self, chi: Any) -> Any:
        """``v = mu'_2 - m^2``, ``mu'_2 = 1 - 3/chi^2 + chi phi/Psi`` (SciPy's polynomial below ``chi = 0.1``)."""
        chi = f64(chi)
        phi = np.exp(-chi * chi / 2) / _SQRT_2PI
        psi = _argus_psi(chi)
        with np.errstate(all="ignore"):
            d2 = np.where(chi > 0.1, 6 / chi ** 3 + phi * (1 - chi * chi) / psi - chi ** 3 * phi * phi / psi ** 2,
                          np.polyval(np.polyder(_ARGUS_SERIES), chi))
        m = f64(self.dist.mean(chi))
        return (d2 - 2 * m * self.dmean(chi)[0],)


# ---- irwinhall -------------------------------------------------------------------------------------------------
class _IrwinHall(ContinuousModel):
    """The sum of ``n`` standard uniforms: a count ``n``, differentiated in ``x``, ``loc`` and ``scale`` only.

    Its density is the cardinal B-spline of degree ``n - 1``, whose derivative is the difference of
    two of degree ``n - 2`` (de Boor, *A Practical Guide to Splines*, IX (12)): ``f_n'(z) = f_(n-1)(z) -
    f_(n-1)(z - 1)``.
    """

    dist = st.irwinhall
    shape_samples = ((4,),)
    tail_q = None

    def kinks(self, n: Any) -> tuple[float, ...]:
        return tuple(float(k) for k in range(1, int(n)))

    def dlogpdf_dz(self, z: Any, n: Any) -> Any:
        z, n = np.broadcast_arrays(f64(z), f64(n))
        out = np.zeros(z.shape)
        for k in np.unique(n):
            where = n == k
            if k > 1:
                zs = z[where]
                lower = st.irwinhall.pdf(zs, k - 1) - st.irwinhall.pdf(zs - 1, k - 1)
                out[where] = lower / st.irwinhall.pdf(zs, k)
        return out[()]

    def _count(self, what: str) -> tuple[Any, ...]:
        return (not_implemented(f"scipy.stats.irwinhall.{what}: n is a count (SciPy accepts integers only); pass it "
                                "as an int, whose tangent is NoTangent()"),)

    def dlogpdf_dshapes(self, *args: Any, **kwargs: Any) -> Any:
        return self._count("logpdf")

    def dcdf_dshapes(self, *args: Any, **kwargs: Any) -> Any:
        return self._count("cdf")

    def dmunp(self, n: int, *shapes: Any) -> Any:
        return self._count("moment")

    def dvar(self, *shapes: Any) -> Any:
        return self._count("var")

    def dentropy(self, *shapes: Any) -> Any:
        return self._count("entropy")


register_models(_Triang(), _Trapezoid(), _Bradford(), _Reciprocal(), _LogUniform(), _RDist(), _TruncExpon(),
                _TruncPareto(), _TruncWeibullMin(), _Argus(), _IrwinHall())
