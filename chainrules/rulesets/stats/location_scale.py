"""Continuous distributions without shape parameters: norm, cauchy, laplace, logistic, expon, gumbel_r,
gumbel_l, halfnorm, halfcauchy, halflogistic, rayleigh, maxwell, levy, levy_l, wald, uniform, anglit, arcsine,
cosine, gibrat, hypsecant, moyal, semicircular; every method in ``x`` (or ``q``), ``loc`` and ``scale``.

The maths
---------
A distribution without shapes is ``f(x) = f0(z) / s``, ``z = (x - loc)/s``; everything is
the chain rule through ``z`` (:mod:`chainrules.rulesets.stats._continuous`) given the score
``l_z = f0'(z) / f0(z)`` of the standardized density, one line per distribution
(Johnson, Kotz & Balakrishnan, *Continuous Univariate Distributions*, vols. 1-2, for the
densities; SciPy's documentation gives the same ``f0``):

============  =======================================  ============================
distribution  ``f0(z)``                                ``l_z``
============  =======================================  ============================
norm          ``exp(-z^2/2) / sqrt(2 pi)``             ``-z``
cauchy        ``1 / (pi (1 + z^2))``                   ``-2z / (1 + z^2)``
laplace       ``exp(-|z|) / 2``                        ``-sign(z)``
logistic      ``e^-z / (1 + e^-z)^2``                  ``-tanh(z/2)``
expon         ``e^-z``, ``z >= 0``                     ``-1``
gumbel_r      ``exp(-z - e^-z)``                       ``e^-z - 1``
gumbel_l      ``exp(z - e^z)``                         ``1 - e^z``
halfnorm      ``sqrt(2/pi) exp(-z^2/2)``               ``-z``
halfcauchy    ``2 / (pi (1 + z^2))``                   ``-2z / (1 + z^2)``
halflogistic  ``sech(z/2)^2 / 2``                      ``-tanh(z/2)``
rayleigh      ``z exp(-z^2/2)``                        ``1/z - z``
maxwell       ``sqrt(2/pi) z^2 exp(-z^2/2)``           ``2/z - z``
levy          ``exp(-1/(2z)) / sqrt(2 pi z^3)``        ``-3/(2z) + 1/(2z^2)``
levy_l        ``levy(-z)``                             ``-3/(2z) - 1/(2z^2)``
wald          ``exp(-(z-1)^2/(2z)) / sqrt(2 pi z^3)``  ``-3/(2z) - 1/2 + 1/(2z^2)``
uniform       ``1`` on ``[0, 1]``                      ``0``
anglit        ``cos(2z)`` on ``[-pi/4, pi/4]``         ``-2 tan(2z)``
arcsine       ``1 / (pi sqrt(z (1 - z)))``             ``(2z - 1) / (2 z (1 - z))``
cosine        ``(1 + cos z) / (2 pi)``                 ``-tan(z/2)``
gibrat        ``exp(-(log z)^2/2) / (z sqrt(2 pi))``   ``-(1 + log z) / z``
hypsecant     ``sech(z) / pi``                         ``-tanh(z)``
moyal         ``exp(-(z + e^-z)/2) / sqrt(2 pi)``      ``(e^-z - 1) / 2``
semicircular  ``2 sqrt(1 - z^2) / pi``                 ``-z / (1 - z^2)``
============  =======================================  ============================

``laplace`` at ``z = 0`` takes ``sign(0) = 0``, the mean of the one-sided derivatives.

Examples
--------
>>> import scipy.stats as st
>>> import chainrules
>>> from chainrules import rrule, unthunk
>>> y, pullback = rrule(st.norm.logcdf, -40.0)       # Phi(-40) = 4e-350 underflows; log Phi does not
>>> round(float(unthunk(pullback(1.0)[2])), 10)       # phi/Phi = 40 + 1/40 - 2/40^3 + ...
40.0249688472
>>> y, pullback = rrule(st.norm.logpdf, 0.5, 1.0, 2.0)
>>> [float(unthunk(c)) for c in pullback(1.0)[2:]]    # z = -0.25: -z/s, z/s, (z^2 - 1)/s
[0.125, -0.125, -0.46875]
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.stats as st

from chainrules.rulesets.stats._continuous import ContinuousModel, register_models

__all__: list[str] = []


class _Norm(ContinuousModel):
    dist = st.norm

    def dlogpdf_dz(self, z: Any) -> Any:
        return -z


class _Cauchy(ContinuousModel):
    dist = st.cauchy
    moments_exist = False

    def dlogpdf_dz(self, z: Any) -> Any:
        return -2 * z / (1 + z * z)


class _Laplace(ContinuousModel):
    dist = st.laplace

    def dlogpdf_dz(self, z: Any) -> Any:
        return -np.sign(z)


class _Logistic(ContinuousModel):
    dist = st.logistic

    def dlogpdf_dz(self, z: Any) -> Any:
        return -np.tanh(z / 2)


class _Expon(ContinuousModel):
    dist = st.expon

    def dlogpdf_dz(self, z: Any) -> Any:
        return -np.ones_like(z)


class _GumbelR(ContinuousModel):
    dist = st.gumbel_r

    def dlogpdf_dz(self, z: Any) -> Any:
        return np.expm1(-z)


class _GumbelL(ContinuousModel):
    dist = st.gumbel_l

    def dlogpdf_dz(self, z: Any) -> Any:
        return -np.expm1(z)


class _HalfNorm(ContinuousModel):
    dist = st.halfnorm

    def dlogpdf_dz(self, z: Any) -> Any:
        return -z


class _HalfCauchy(ContinuousModel):
    dist = st.halfcauchy
    moments_exist = False

    def dlogpdf_dz(self, z: Any) -> Any:
        return -2 * z / (1 + z * z)


class _HalfLogistic(ContinuousModel):
    dist = st.halflogistic

    def dlogpdf_dz(self, z: Any) -> Any:
        return -np.tanh(z / 2)


class _Rayleigh(ContinuousModel):
    dist = st.rayleigh

    def dlogpdf_dz(self, z: Any) -> Any:
        return 1 / z - z


class _Maxwell(ContinuousModel):
    dist = st.maxwell

    def dlogpdf_dz(self, z: Any) -> Any:
        return 2 / z - z


class _Levy(ContinuousModel):
    dist = st.levy
    moments_exist = False

    def dlogpdf_dz(self, z: Any) -> Any:
        return (1 / z - 3) / (2 * z)


class _LevyL(ContinuousModel):
    dist = st.levy_l
    moments_exist = False

    def dlogpdf_dz(self, z: Any) -> Any:
        return -(1 / z + 3) / (2 * z)


class _Wald(ContinuousModel):
    dist = st.wald

    def dlogpdf_dz(self, z: Any) -> Any:
        return (1 / z - 3) / (2 * z) - 0.5


class _Uniform(ContinuousModel):
    dist = st.uniform

    def dlogpdf_dz(self, z: Any) -> Any:
        return np.zeros_like(z)


class _Anglit(ContinuousModel):
    dist = st.anglit

    def dlogpdf_dz(self, z: Any) -> Any:
        return -2 * np.tan(2 * z)


class _Arcsine(ContinuousModel):
    dist = st.arcsine

    def dlogpdf_dz(self, z: Any) -> Any:
        return (2 * z - 1) / (2 * z * (1 - z))


class _Cosine(ContinuousModel):
    dist = st.cosine

    def dlogpdf_dz(self, z: Any) -> Any:
        return -np.tan(z / 2)


class _Gibrat(ContinuousModel):
    dist = st.gibrat

    def dlogpdf_dz(self, z: Any) -> Any:
        return -(1 + np.log(z)) / z


class _HypSecant(ContinuousModel):
    dist = st.hypsecant

    def dlogpdf_dz(self, z: Any) -> Any:
        return -np.tanh(z)


class _Moyal(ContinuousModel):
    dist = st.moyal

    def dlogpdf_dz(self, z: Any) -> Any:
        return np.expm1(-z) / 2


class _Semicircular(ContinuousModel):
    dist = st.semicircular

    def dlogpdf_dz(self, z: Any) -> Any:
        return -z / ((1 - z) * (1 + z))


register_models(_Norm(), _Cauchy(), _Laplace(), _Logistic(), _Expon(), _GumbelR(), _GumbelL(), _HalfNorm(),
                _HalfCauchy(), _HalfLogistic(), _Rayleigh(), _Maxwell(), _Levy(), _LevyL(), _Wald(), _Uniform(),
                _Anglit(), _Arcsine(), _Cosine(), _Gibrat(), _HypSecant(), _Moyal(), _Semicircular())
