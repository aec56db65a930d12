"""Circular distributions: vonmises, vonmises_line, wrapcauchy; every method in ``x`` (or ``q``), ``loc``, ``scale``
and the shape.

The maths
---------
**von Mises** (DLMF 10.25, 10.35): ``f0(z) = e^(kappa cos z) / (2 pi I0(kappa))`` on ``[-pi, pi]``,
``dlog f0/dz = -kappa sin z``, ``dlog f0/dkappa = cos z - A(kappa)`` with ``A = I1/I0``
(``i1e/i0e``, no overflow). The distribution function is the Fourier series
``F0(z) = 1/2 + z/(2 pi) + (1/pi) sum_n rho_n sin(n z)/n`` with ``rho_n = I_n(kappa)/I0(kappa)``
(the generating function DLMF 10.35.1 integrated), so
``dF0/dkappa = (1/pi) sum_n rho_n' sin(n z)/n``, ``rho_n' = (rho_(n-1) + rho_(n+1))/2 - rho_n A``
(DLMF 10.29.1); the ``rho_n`` come from ``ive`` and decay like ``exp(-n^2/(2 kappa))``, so
``20 + 2 kappa + 12 sqrt(kappa)`` terms suffice. SciPy's cdf switches to a normal
approximation above ``kappa = 50``; this is the derivative of the exact distribution
function. The entropy ``h = -kappa A + log(2 pi I0)`` has ``dh/dkappa = -kappa A'``, ``A' = 1 - A/kappa - A^2``.
Outside ``[-pi, pi]`` SciPy's cdf adds whole turns, which do not depend on ``kappa``.

**Wrapped Cauchy** on ``[0, 2 pi]``: ``f0 = (1 - c^2) / (2 pi (1 + c^2 - 2c cos z))``,
``F0 = arctan(r tan(z/2))/pi`` (plus 1 past ``pi``), ``r = (1+c)/(1-c)``:
``dF0/dc = (2/(1-c)^2) t / (pi (1 + r^2 t^2))``, ``t = tan(z/2)`` (the same on both halves);
``h = log(2 pi (1 - c^2))``.

The moments, which SciPy integrates numerically, are differentiated by quadrature of the
derivative (:mod:`chainrules.rulesets.stats._expectations`).

Examples
--------
>>> import scipy.stats as st
>>> import chainrules
>>> from chainrules import rrule, unthunk
>>> y, pullback = rrule(st.vonmises.logpdf, 0.5, 2.0)     # d/dkappa = cos z - I1/I0
>>> round(float(unthunk(pullback(1.0)[3])), 12)
0.179807903926
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import scipy.special as sc
import scipy.stats as st

from chainrules.rulesets.stats._continuous import ContinuousModel, f64, register_models

__all__: list[str] = []


def _bessel_ratio(kappa: Any) -> Any:
    """``A(kappa) = I1(kappa)/I0(kappa)``."""
    return sc.i1e(kappa) / sc.i0e(kappa)


def _vonmises_cdf_dkappa(z: Any, kappa: Any) -> Any:
    """``dF0/dkappa = (1/pi) sum_n rho_n' sin(n z)/n`` (see the module docstring)."""
    z, kappa = np.broadcast_arrays(f64(z), f64(kappa))
    out = np.empty(z.shape)
    for k in np.unique(kappa):
        where = kappa == k
        terms = int(20 + 2 * k + 12 * math.sqrt(max(k, 0.0))) if np.isfinite(k) else 0
        n = np.arange(terms + 2)
        rho = sc.ive(n, k) / sc.ive(0, k)
        a = rho[1]
        drho = (rho[:-2] + rho[2:]) / 2 - rho[1:-1] * a  # n = 1 .. terms
        m = n[1:-1]
        zs = z[where]
        out[where] = np.sin(np.multiply.outer(zs, m)) @ (drho / m) / math.pi if terms else np.nan
    return out[()]


class _VonMises(ContinuousModel):
    dist = st.vonmises
    shape_samples = ((2.0,),)
    tail_q = None  # a bounded support: no tails
    slow_moments = "SciPy's numerical variance takes 0.7 s a call"

    def dlogpdf_dz(self, z: Any, kappa: Any) -> Any:
        return -kappa * np.sin(z)

    def dlogpdf_dshapes(self, z: Any, kappa: Any) -> Any:
        return (np.cos(z) - _bessel_ratio(kappa),)

    def dcdf_dshapes(self, z: Any, kappa: Any) -> Any:
        return (_vonmises_cdf_dkappa(z, kappa),)

    def dentropy(self, kappa: Any) -> Any:
        kappa = f64(kappa)
        a = _bessel_ratio(kappa)
        return (-kappa * (1 - a / kappa - a * a),)


class _VonMisesLine(_VonMises):
    dist = st.vonmises_line


class _WrapCauchy(ContinuousModel):
    dist = st.wrapcauchy
    shape_samples = ((0.4,),)
    tail_q = None

    def dlogpdf_dz(self, z: Any, c: Any) -> Any:
        return -2 * c * np.sin(z) / (1 + c * c - 2 * c * np.cos(z))

    def dlogpdf_dshapes(self, z: Any, c: Any) -> Any:
        return (-2 * c / (1 - c * c) - (2 * c - 2 * np.cos(z)) / (1 + c * c - 2 * c * np.cos(z)),)

    def dcdf_dshapes(self, z: Any, c: Any) -> Any:
        r = (1 + c) / (1 - c)
        t = np.tan(z / 2)
        with np.errstate(all="ignore"):
            ratio = np.where(np.abs(t) > 1e150, 0.0, 1 / (1 / t + r * r * t))  # t / (1 + r^2 t^2)
        return (2 / (1 - c) ** 2 * ratio / math.pi,)

    def dentropy(self, c: Any) -> Any:
        c = f64(c)
        return (-2 * c / (1 - c * c),)


register_models(_VonMises(), _VonMisesLine(), _WrapCauchy())
