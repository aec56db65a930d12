"""Error functions and their relatives: erf, erfc, erfcx, erfi, erfinv, erfcinv, dawsn, wofz, fresnel,
modfresnelp, modfresnelm, voigt_profile, owens_t.

Elementwise rules (``scalar_rule``); the functions SciPy defines on complex numbers
(``erf``, ``erfc``, ``erfcx``, ``erfi``, ``dawsn``, ``wofz``, ``fresnel``) follow the
holomorphic convention.

The maths
---------
* ``erf' = 2/sqrt(pi) e^(-z^2)``, ``erfc' = -erf'``, ``erfi' = 2/sqrt(pi) e^(z^2)`` (DLMF 7.10);
  ``erfinv' = sqrt(pi)/2 e^(y^2)`` and ``erfcinv' = -sqrt(pi)/2 e^(y^2)`` at the output ``y``.
* The Faddeeva function ``w(z) = e^(-z^2) erfc(-iz)``: ``w' = -2z w + 2i/sqrt(pi)``
  (DLMF 7.10.2). For large ``|z|`` the two terms cancel (``w ~ i/(sqrt(pi) z)``: at
  ``|z| = 1e4`` eight digits are lost), so from ``|z| >= 10`` the derivative of the
  asymptotic series DLMF 7.12.1 is summed instead:
  ``w'(z) = -(i/sqrt(pi)) sum_n (2n+1) (2n-1)!! / (2^n z^(2n+2))`` (15 terms: below 1e-16
  relatively from ``|z| = 10``), valid for ``Im z >= 0``; below the real axis
  ``w(z) = 2 e^(-z^2) - w(-z)`` (DLMF 7.4.3) gives ``w'(z) = -4z e^(-z^2) + w'(-z)``.
* ``erfcx(z) = e^(z^2) erfc(z) = w(iz)``: ``erfcx'(z) = 2z erfcx(z) - 2/sqrt(pi) = i w'(iz)``,
  the second form from ``Re z >= 10`` where the first cancels.
* Dawson's integral ``F``: ``F' = 1 - 2zF`` (DLMF 7.10 with 7.2.5); for large real ``|x|``
  (``F ~ 1/(2x)``) the derivative of the asymptotic series DLMF 7.12.1,
  ``F'(x) = -sum_n (2n+1) (2n-1)!! / (2^(n+1) x^(2n+2))``; for complex ``|z| >= 10``
  ``F = -(i sqrt(pi)/2)(w(z) - e^(-z^2))``, so ``F' = -(i sqrt(pi)/2)(w'(z) + 2z e^(-z^2))``.
* Fresnel integrals: ``S' = sin(pi z^2/2)``, ``C' = cos(pi z^2/2)`` (DLMF 7.2.7-8).
  ``modfresnelp``: ``F+(x) = int_x^inf e^(i t^2) dt`` and ``K+ = e^(-i(x^2 + pi/4)) F+ / sqrt(pi)``:
  ``F+' = -e^(i x^2)``, ``K+' = -2ix K+ - e^(-i pi/4)/sqrt(pi)``; ``modfresnelm`` is the
  conjugate pair (``F-' = -e^(-i x^2)``, ``K-' = 2ix K- - e^(i pi/4)/sqrt(pi)``). Real
  input, complex outputs: the pullback takes ``Re(conj(partial) * dy)``. For ``x < 0``
  SciPy's values are not these integrals (its Fortran routine assumes ``x >= 0``), so the
  derivative is ``not_implemented`` there; at ``x = 0`` it is the right derivative.
* ``voigt_profile(x, sigma, gamma) = Re w(z) / (sigma sqrt(2 pi))``, ``z = (x + i gamma)/(sigma sqrt 2)``:
  ``dV/dx = Re(w'(z)) / (2 sqrt(pi) sigma^2)``, ``dV/dgamma = -Im(w'(z)) / (2 sqrt(pi) sigma^2)``,
  ``dV/dsigma = -(Re(z w'(z)) / (sigma sqrt(2 pi)) + V) / sigma``. At ``sigma = 0`` (the
  Lorentzian ``gamma / (pi (x^2 + gamma^2))``) the derivatives of the Lorentzian, with
  ``dV/dsigma = 0``: the right derivative (the Gaussian smoothing changes ``V`` by
  ``O(sigma^2)``); SciPy evaluates the same formula for negative ``sigma``, where it is
  ``-V(-sigma)``, so the two-sided derivative does not exist there.
* Owen's T: ``dT/da = e^(-h^2 (1 + a^2)/2) / (2 pi (1 + a^2))`` (differentiating the
  defining integral, Owen 1956) and ``dT/dh = -phi(h) erf(a h / sqrt 2) / 2``.

Examples
--------
>>> import numpy as np, scipy.special as sc
>>> import chainrules
>>> from chainrules import frule
>>> float(frule((None, 1.0), sc.erfcx, 1e4)[1])  # mpmath: -5.64189575084912745e-09
-5.6418957508...e-09
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import scipy.special as sc

from chainrules.rulesets.special._precision import upcast
from chainrules_core import Sample, not_implemented, sample_inputs, scalar_rule

__all__ = ["wofz_derivative"]

_TWO_OVER_SQRT_PI = 2 / math.sqrt(math.pi)
_SQRT_PI = math.sqrt(math.pi)
_ASYMPTOTIC_FROM = 10.0
_TERMS = 15
# (2n+1) (2n-1)!! / 2^n, n = 0..14: the coefficients of the derivative of the series DLMF 7.12.1
_COEFFICIENTS = tuple((2 * n + 1) * math.prod(range(1, 2 * n, 2)) / 2.0 ** n for n in range(_TERMS))



def _series_sum(u: np.ndarray) -> np.ndarray:
    """``sum_n c_n u^n`` (``u = 1/z^2``), Horner."""
    total = np.zeros_like(u)
    for c in reversed(_COEFFICIENTS):
        total = total * u + c
    return total


def wofz_derivative(z: Any, w: Any = None) -> np.ndarray:
    """``w'(z)`` of the Faddeeva function, without the cancellation of ``-2zw + 2i/sqrt(pi)`` at large ``|z|``.

    Examples
    --------
    >>> import numpy as np, scipy.special as sc
    >>> from chainrules.rulesets.special.error_functions import wofz_derivative
    >>> z = 1e3 + 1j
    >>> bool(np.isclose(wofz_derivative(z), -1j / (np.sqrt(np.pi) * z ** 2), rtol=1e-5))
    True
    """
    z = np.asarray(z, dtype=np.complex128)
    w = sc.wofz(z) if w is None else np.asarray(w, dtype=np.complex128)
    with np.errstate(over="ignore", invalid="ignore"):
        out = np.asarray(-2 * z * w + 2j / _SQRT_PI)
        far = np.abs(z) >= _ASYMPTOTIC_FROM
        if np.any(far):
            zf = z[far]
            upper = zf.imag >= 0
            v = np.where(upper, zf, -zf)
            series = -1j / _SQRT_PI * _series_sum(1 / (v * v)) / (v * v)
            out[far] = np.where(upper, series, -4 * zf * np.exp(-zf * zf) + series)
    return out


def _erf(z: Any) -> Any:
    z = upcast(z)
    return _TWO_OVER_SQRT_PI * np.exp(-z * z)


def _erfc(z: Any) -> Any:
    z = upcast(z)
    return -_TWO_OVER_SQRT_PI * np.exp(-z * z)


def _erfi(z: Any) -> Any:
    z = upcast(z)
    return _TWO_OVER_SQRT_PI * np.exp(z * z)


def _erfinv(x: Any, y: Any) -> Any:
    y = upcast(y)
    return _SQRT_PI / 2 * np.exp(y * y)


def _erfcinv(x: Any, y: Any) -> Any:
    y = upcast(y)
    return -_SQRT_PI / 2 * np.exp(y * y)


def _erfcx(z: Any, y: Any) -> Any:
    z, y = upcast(z), upcast(y)
    out = np.asarray(2 * z * y - _TWO_OVER_SQRT_PI)
    far = np.real(z) >= _ASYMPTOTIC_FROM
    if np.any(far):
        zf = z[far]
        if np.iscomplexobj(z):
            out[far] = 1j * wofz_derivative(1j * zf)
        else:  # i w'(ix) for real x: -(1/sqrt(pi)) sum_n (-1)^n c_n / x^(2n+2)
            u = -1 / (zf * zf)
            out[far] = _series_sum(u) * u / _SQRT_PI
    return out[()]


def _dawsn(z: Any, y: Any) -> Any:
    z, y = upcast(z), upcast(y)
    out = np.asarray(1 - 2 * z * y)
    far = np.abs(z) >= _ASYMPTOTIC_FROM
    if np.any(far):
        zf = z[far]
        if np.iscomplexobj(z):
            with np.errstate(over="ignore", invalid="ignore"):
                out[far] = -0.5j * _SQRT_PI * (wofz_derivative(zf) + 2 * zf * np.exp(-zf * zf))
        else:
            u = 1 / (zf * zf)
            out[far] = -0.5 * _series_sum(u) * u
    return out[()]


def _wofz(z: Any, y: Any) -> Any:
    return wofz_derivative(z, y)[()]


scalar_rule(sc.erf, _erf)
scalar_rule(sc.erfc, _erfc)
scalar_rule(sc.erfi, _erfi)
scalar_rule(sc.erfinv, _erfinv)
scalar_rule(sc.erfcinv, _erfcinv)
scalar_rule(sc.erfcx, _erfcx)
scalar_rule(sc.dawsn, _dawsn)
scalar_rule(sc.wofz, _wofz)


# ---- Fresnel integrals -------------------------------------------------------------------------------------
def _fresnel_s(z: Any) -> Any:
    z = upcast(z)
    return np.sin(np.pi / 2 * z * z)


def _fresnel_c(z: Any) -> Any:
    z = upcast(z)
    return np.cos(np.pi / 2 * z * z)


scalar_rule(sc.fresnel, (_fresnel_s,), (_fresnel_c,))

_PHASE = np.exp(-0.25j * np.pi) / _SQRT_PI
_MODFRESNEL_NEGATIVE = ("modfresnelp/modfresnelm at x < 0: SciPy's values there are not the documented integral "
                        "int_x^inf exp(+-i t^2) dt (at x = -2.5 the imaginary part of F+ is Re F+(2.5), and K+ is not "
                        "exp(-i(x^2 + pi/4)) F+ / sqrt(pi)); no derivative is given for a function SciPy does not "
                        "compute. For x < 0 use fresnel: F+(x) = sqrt(pi/2) ((1/2 - C(u)) + i (1/2 - S(u))), "
                        "u = x sqrt(2/pi)")


def _modfresnel_partial(sign: float, which: int) -> Any:
    """The partial of F (``which = 0``) or K (1) of ``modfresnelp`` (``sign = 1``) or ``modfresnelm`` (-1)."""

    def modfresnel_partial(x: Any, ys: Any) -> Any:
        x = upcast(x)
        if np.any(x < 0):
            return not_implemented(_MODFRESNEL_NEGATIVE)
        if which == 0:
            return -np.exp(sign * 1j * x * x)
        return -sign * 2j * x * ys[1] - (_PHASE if sign > 0 else np.conj(_PHASE))

    modfresnel_partial.__name__ = f"modfresnel{'pm'[sign < 0]}_{'fk'[which]}_partial"
    return modfresnel_partial


scalar_rule(sc.modfresnelp, (_modfresnel_partial(1.0, 0),), (_modfresnel_partial(1.0, 1),))
scalar_rule(sc.modfresnelm, (_modfresnel_partial(-1.0, 0),), (_modfresnel_partial(-1.0, 1),))


# ---- Voigt profile -----------------------------------------------------------------------------------------
def _voigt_partials(x: Any, sigma: Any, gamma: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(dV/dx, dV/dsigma, dV/dgamma)`` in float64."""
    x, sigma, gamma = (np.array(v, dtype=np.float64) for v in np.broadcast_arrays(
        np.asarray(x), np.asarray(sigma), np.asarray(gamma)))
    s, g = sigma, gamma
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        z = (x + 1j * g) / (s * math.sqrt(2))
        wz = sc.wofz(z)
        dw = wofz_derivative(z, wz)
        v = wz.real / (s * math.sqrt(2 * math.pi))
        scale = 1 / (2 * _SQRT_PI * s * s)
        dx = np.asarray(dw.real * scale)
        dg = np.asarray(-dw.imag * scale)
        ds = np.asarray(-((z * dw).real / (s * math.sqrt(2 * math.pi)) + v) / s)
        lorentz = s == 0
        if np.any(lorentz):  # gamma / (pi (x^2 + gamma^2))
            xl, gl = x[lorentz], g[lorentz]
            r2 = xl * xl + gl * gl
            dx[lorentz] = -2 * gl * xl / (np.pi * r2 * r2)
            dg[lorentz] = (xl * xl - gl * gl) / (np.pi * r2 * r2)
            ds[lorentz] = 0.0
    return dx, ds, dg


def _voigt_x(x: Any, sigma: Any, gamma: Any) -> Any:
    return _voigt_partials(x, sigma, gamma)[0][()]


def _voigt_sigma(x: Any, sigma: Any, gamma: Any) -> Any:
    return _voigt_partials(x, sigma, gamma)[1][()]


def _voigt_gamma(x: Any, sigma: Any, gamma: Any) -> Any:
    return _voigt_partials(x, sigma, gamma)[2][()]


def _voigt_shared(x: Any, sigma: Any, gamma: Any, y: Any) -> Any:
    return _voigt_partials(x, sigma, gamma)


def _voigt_shared_x(x: Any, sigma: Any, gamma: Any, y: Any, shared: Any) -> Any:
    return shared[0][()]


def _voigt_shared_sigma(x: Any, sigma: Any, gamma: Any, y: Any, shared: Any) -> Any:
    return shared[1][()]


def _voigt_shared_gamma(x: Any, sigma: Any, gamma: Any, y: Any, shared: Any) -> Any:
    return shared[2][()]


scalar_rule(sc.voigt_profile, _voigt_shared_x, _voigt_shared_sigma, _voigt_shared_gamma, shared=_voigt_shared)


# ---- Owen's T ----------------------------------------------------------------------------------------------
def _owens_t_h(h: Any, a: Any) -> Any:
    h, a = upcast(h), upcast(a)
    return -np.exp(-h * h / 2) / math.sqrt(2 * math.pi) * sc.erf(a * h / math.sqrt(2)) / 2


def _owens_t_a(h: Any, a: Any) -> Any:
    h, a = upcast(h), upcast(a)
    q = 1 + a * a
    with np.errstate(over="ignore"):
        return np.exp(-h * h * q / 2) / (2 * np.pi * q)


scalar_rule(sc.owens_t, _owens_t_h, _owens_t_a)


# ---- samples ------------------------------------------------------------------------------------------------
_X = np.array([-2.5, -0.3, 0.0, 0.7, 3.0, 12.0])


@sample_inputs(sc.erf, sc.erfc)
def _erf_samples() -> Any:
    yield Sample(0.7, label="scalar")
    yield Sample(_X, label="both signs, large")
    yield Sample(_X.astype(np.float32), label="float32")
    yield Sample(np.array([0.5 + 0.5j, -1.5 + 2j, 3.0 - 1j]), label="complex")


@sample_inputs(sc.erfi)
def _erfi_samples() -> Any:
    yield Sample(0.7, label="scalar")
    yield Sample(_X[:5], label="both signs")
    yield Sample(_X[:5].astype(np.float32), label="float32")
    yield Sample(np.array([0.5 + 0.5j, -1.5 + 2j, 3.0 - 1j]), label="complex")


@sample_inputs(sc.erfcx)
def _erfcx_samples() -> Any:
    yield Sample(0.7, label="scalar")
    yield Sample(np.array([-2.5, -0.3, 0.0, 3.0, 9.5, 12.0, 1e3]), label="negative, small, both sides of 10, large")
    yield Sample(np.array([-0.3, 3.0, 12.0], dtype=np.float32), label="float32")
    yield Sample(np.array([0.5 + 0.5j, -1.5 + 2j, 3.0 - 1j, 15.0 + 4j]), label="complex")


@sample_inputs(sc.dawsn)
def _dawsn_samples() -> Any:
    yield Sample(0.7, label="scalar")
    yield Sample(np.array([-25.0, -2.5, -0.3, 0.0, 3.0, 9.5, 12.0, 1e3]), label="both signs, both sides of 10")
    yield Sample(np.array([-0.3, 3.0, 12.0], dtype=np.float32), label="float32")
    yield Sample(np.array([0.5 + 0.5j, -1.5 + 2j, 3.0 - 1j, 15.0 + 4j, -12.0 - 3j]), label="complex, both sides")


@sample_inputs(sc.wofz)
def _wofz_samples() -> Any:
    yield Sample(0.5 + 0.5j, label="scalar")
    yield Sample(np.array([0.5 + 0.5j, -1.5 + 2j, 3.0 - 1j, 15.0 + 4j, -12.0 + 0.5j, 11.0 - 0.2j, 20j]),
                 label="small, both half-planes, |z| >= 10")
    yield Sample(np.array([0.5 + 0.5j, 15.0 + 4j], dtype=np.complex64), label="complex64")


@sample_inputs(sc.erfinv)
def _erfinv_samples() -> Any:
    yield Sample(0.3, label="scalar")
    yield Sample(np.array([-0.999, -0.5, 0.0, 0.5, 0.9999]), label="interior, near +-1")
    yield Sample(np.array([-0.5, 0.0, 0.5], dtype=np.float32), label="float32")


@sample_inputs(sc.erfcinv)
def _erfcinv_samples() -> Any:
    yield Sample(0.3, label="scalar")
    yield Sample(np.array([1e-10, 0.5, 1.0, 1.5, 1.999]), label="interior, near 0 and 2")
    yield Sample(np.array([0.5, 1.0, 1.5], dtype=np.float32), label="float32")


@sample_inputs(sc.fresnel)
def _fresnel_samples() -> Any:
    yield Sample(0.7, label="scalar")
    yield Sample(_X, label="both signs, large")
    yield Sample(_X[:5].astype(np.float32), label="float32")
    yield Sample(np.array([0.5 + 0.5j, -1.5 + 0.25j]), label="complex")


@sample_inputs(sc.modfresnelp, sc.modfresnelm)
def _modfresnel_samples() -> Any:
    yield Sample(0.7, label="scalar")
    yield Sample(np.array([0.05, 0.7, 3.0, 9.0, 30.0]), label="x >= 0 (SciPy's values at x < 0 are not the integral)")
    yield Sample(np.array([0.05, 0.7, 1.5], dtype=np.float32), rtol=1e-3,
                 label="float32 (SciPy's float32 loop is NaN from x = 2.6)")


@sample_inputs(sc.voigt_profile)
def _voigt_samples() -> Any:
    yield Sample(0.5, 0.8, 0.3, label="scalars")
    yield Sample(np.array([-2.0, 0.0, 0.5, 3.0, 40.0]), np.array([0.8, 1.0, 0.3, 2.0, 1.0]),
                 np.array([0.3, 1.0, 2.0, 0.01, 1.5]), label="core, wings, |z| >= 10")
    yield Sample(np.array([0.5, 3.0], dtype=np.float32), np.array([0.8, 2.0], dtype=np.float32),
                 np.array([0.3, 0.01], dtype=np.float32), label="float32")


@sample_inputs(sc.owens_t)
def _owens_t_samples() -> Any:
    yield Sample(0.5, 0.8, label="scalars")
    yield Sample(np.array([-1.5, 0.0, 0.5, 3.0, 9.0]), np.array([0.5, 2.0, -1.2, 30.0, 0.3]),
                 label="both signs, large a, large h")
    yield Sample(np.array([0.5, 3.0], dtype=np.float32), np.array([-1.2, 30.0], dtype=np.float32), label="float32")
