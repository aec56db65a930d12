"""Noncentral distributions with Bessel-function densities: rice, ncx2; every method in ``x`` (or ``q``), ``loc``,
``scale`` and the shapes.

The maths
---------
**Rice** (DLMF 10.25.2 for ``I0``): ``f0(z) = z exp(-(z^2 + b^2)/2) I0(zb)``, so with
``A = I1/I0`` (``i1e/i0e``): ``dlog f0/dz = 1/z - z + b A(zb)``, ``dlog f0/db = -b + z A(zb)``. Its
distribution function is SciPy's ``chndtr(z^2, 2, b^2)`` (the noncentral chi-square with two
degrees of freedom), differentiated by that function's rule (the Poisson mixture of
:mod:`chainrules.rulesets.special.noncentral_distributions`). Moments (SciPy's ``_munp``):
``E[Z^n] = 2^(n/2) Gamma(1 + n/2) 1F1(-n/2; 1; -b^2/2)`` (Kummer's transformation, DLMF 13.2.39),
with ``d/db = 2^(n/2) Gamma(1 + n/2) (n b/2) 1F1(1 - n/2; 2; -b^2/2)`` (DLMF 13.3.15).

**Noncentral chi-square** ``ncx2(k, lam)`` (Johnson, Kotz & Balakrishnan, 29.4):
``f0(z) = e^(-(z + lam)/2) (z/lam)^(k/4 - 1/2) I_nu(sqrt(lam z)) / 2``, ``nu = k/2 - 1``. With
``s = sqrt(lam z)`` and ``R = I_nu'(s)/I_nu(s) = (I_(nu-1) + I_(nu+1))/(2 I_nu)``:
``dlog f0/dz = -1/2 + (k/4 - 1/2)/z + R s/(2z)``, ``dlog f0/dlam = -1/2 - (k/4 - 1/2)/lam + R s/(2 lam)``,
``dlog f0/dk = log(z/lam)/4 + (d/dnu I_nu(s))/(2 I_nu(s))``, the derivative in the order by
the rule of ``scipy.special.ive``. The distribution function is ``chndtr(z, k, lam)``, by
its rule. Cumulants ``kappa_n = 2^(n-1) (n-1)! (k + n lam)`` give the moments.

Entropies (integrated numerically by SciPy) by quadrature of the derivative.

Examples
--------
>>> import scipy.stats as st
>>> import chainrules
>>> from chainrules import rrule, unthunk
>>> y, pullback = rrule(st.rice.mean, 1.5)
>>> round(float(unthunk(pullback(1.0)[2])), 10)     # d/db E[Z] (mpmath: 0.735469457066...)
0.7354694571
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import scipy.special as sc
import scipy.stats as st

from chainrules.rulesets.stats._continuous import (
    ContinuousModel,
    added,
    f64,
    raw_moment_from_cumulants,
    register_models,
    scaled,
    special_partials,
)

__all__: list[str] = []


def _bessel_ratio(x: Any) -> Any:
    """``I1(x)/I0(x)``."""
    return sc.i1e(x) / sc.i0e(x)


class _Rice(ContinuousModel):
    dist = st.rice
    shape_samples = ((1.5,),)

    def dlogpdf_dz(self, z: Any, b: Any) -> Any:
        return 1 / z - z + b * _bessel_ratio(z * b)

    def dlogpdf_dshapes(self, z: Any, b: Any) -> Any:
        return (-b + z * _bessel_ratio(z * b),)

    def dcdf_dshapes(self, z: Any, b: Any) -> Any:
        _, _, dnc = special_partials(sc.chndtr, z * z, 2.0, b * b)
        return (scaled(dnc, 2 * b),)

    def dmunp(self, n: int, b: Any) -> Any:
        b = f64(b)
        factor = 2.0 ** (n / 2) * math.gamma(1 + n / 2)
        return (factor * (n * b / 2) * sc.hyp1f1(1 - n / 2, 2, -b * b / 2),)


class _NCX2(ContinuousModel):
    dist = st.ncx2
    shape_samples = ((3.5, 1.5),)

    def _ratio(self, z: Any, k: Any, lam: Any) -> tuple[Any, Any, Any]:
        nu = k / 2 - 1
        s = np.sqrt(lam * z)
        r = (sc.ive(nu - 1, s) + sc.ive(nu + 1, s)) / (2 * sc.ive(nu, s))
        return nu, s, r

    def dlogpdf_dz(self, z: Any, k: Any, lam: Any) -> Any:
        _, s, r = self._ratio(z, k, lam)
        return -0.5 + (k / 4 - 0.5) / z + r * s / (2 * z)

    def dlogpdf_dshapes(self, z: Any, k: Any, lam: Any) -> Any:
        nu, s, r = self._ratio(z, k, lam)
        dnu, _ = special_partials(sc.ive, nu, s)
        dk = added(np.log(z / lam) / 4, scaled(dnu, 0.5 / sc.ive(nu, s)))
        return (dk, -0.5 - (k / 4 - 0.5) / lam + r * s / (2 * lam))

    def dcdf_dshapes(self, z: Any, k: Any, lam: Any) -> Any:
        _, dk, dlam = special_partials(sc.chndtr, z, k, lam)
        return (dk, dlam)

    def dmean(self, k: Any, lam: Any) -> Any:
        shape = np.broadcast(k, lam).shape
        return (np.ones(shape), np.ones(shape))

    def dvar(self, k: Any, lam: Any) -> Any:
        shape = np.broadcast(k, lam).shape
        return (np.full(shape, 2.0), np.full(shape, 4.0))

    def dmunp(self, n: int, k: Any, lam: Any) -> Any:
        if n > 4:
            return super().dmunp(n, k, lam)
        k, lam = np.broadcast_arrays(f64(k), f64(lam))
        cumulants = tuple(2.0 ** (j - 1) * math.factorial(j - 1) * (k + j * lam) for j in range(1, 5))
        dk = tuple(np.full(k.shape, 2.0 ** (j - 1) * math.factorial(j - 1)) for j in range(1, 5))
        dlam = tuple(np.full(k.shape, 2.0 ** (j - 1) * math.factorial(j - 1) * j) for j in range(1, 5))
        return (raw_moment_from_cumulants(n, cumulants, dk), raw_moment_from_cumulants(n, cumulants, dlam))


register_models(_Rice(), _NCX2())
