"""Accurate pieces of the gamma-family derivatives: digamma differences, Stirling's series, ``log1p(d) - d``.

The partial derivatives of ``beta``, ``betaln``, ``poch``, ``binom`` and of the
incomplete gamma and beta functions in their shape parameters contain differences
``psi(a + d) - psi(a)`` and ``log(x) - psi(a)``. Written as a plain subtraction these lose
every digit when ``a`` is large and ``d`` small (``psi(1e10 + 1) - psi(1e10)`` is
``1e-10``, computed from two numbers near 23: relative error 1e-5). The functions here
keep full relative accuracy:

* ``psi(a + d) - psi(a)`` for ``a, a + d >= 10``: ``log1p(d / a) + R(a + d) - R(a)``, where
  ``R(t) = psi(t) - log(t) = -1/(2t) - sum_k B_2k / (2k t^2k)`` is the asymptotic series
  (DLMF 5.11.2) summed to ``t^-14``, below 1e-17 relatively from ``t = 10``;
* for ``|d| <= 1e-4 |a|``: the Taylor series ``sum_k psi^(k)(a) d^k / k!`` to
  ``k = 4`` (truncation below ``(1e-4)^5``, DLMF 5.15);
* elsewhere the subtraction, which is then well conditioned.

``trigamma`` is ``psi'`` for real and complex arguments (SciPy's ``polygamma`` is real
only and, through the Hurwitz zeta, 25 times slower than ``psi``): reflection DLMF 5.15.6,
recurrence 5.15.5 up to ``|z| >= 10``, asymptotic series 5.15.8.

All functions take and return float64 (complex128) arrays.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.special as sc

from chainrules.rulesets.special._precision import blockwise

__all__ = ["log1pmx", "log_minus_psi", "psi_increment", "rgamma_derivative", "stirling_correction", "trigamma"]

# B_2k / (2k) for k = 1..7 (Bernoulli numbers B_2 .. B_14): R(t) = -1/(2t) - sum_k (B_2k/2k) t^-2k.
_PSI_ASYMPTOTIC = (1 / 12, -1 / 120, 1 / 252, -1 / 240, 1 / 132, -691 / 32760, 1 / 12)
_ASYMPTOTIC_FROM = 10.0


def _psi_minus_log(t: np.ndarray) -> np.ndarray:
    """``psi(t) - log(t)`` for ``t >= 10`` by the asymptotic series (DLMF 5.11.2)."""
    u = 1.0 / (t * t)
    s = np.zeros_like(t)
    for coefficient in reversed(_PSI_ASYMPTOTIC):
        s = (s + coefficient) * u
    return -0.5 / t - s


def _log_ratio(c: np.ndarray, a: np.ndarray) -> np.ndarray:
    """``log(c / a)`` for positive ``a``, ``c``, accurate both when ``c`` is close to ``a`` and far from it."""
    d = (c - a) / a
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(np.abs(d) < 0.5, np.log1p(d), np.log(c) - np.log(a))


def psi_increment(a: Any, delta: Any) -> np.ndarray:
    """``psi(a + delta) - psi(a)`` with full relative accuracy, for large ``a`` and for small ``delta`` too.

    The increment is an argument of its own, so ``psi(a + b) - psi(b)`` with ``a << b``
    does not inherit the rounding of ``a + b`` (which alone costs ``ulp(b) / a``).

    Examples
    --------
    >>> from chainrules.rulesets.special._gamma_tools import psi_increment
    >>> float(psi_increment(1e10, 1.0))  # 1/1e10 - 1/(2e20) + ...
    1e-10
    """
    return blockwise(_psi_increment, np.asarray(a, dtype=np.float64), np.asarray(delta, dtype=np.float64))


def _psi_increment(a: np.ndarray, delta: np.ndarray) -> np.ndarray:
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        c = a + delta
        out = np.asarray(sc.psi(c) - sc.psi(a), dtype=np.float64)
        # both large: the asymptotic series (the subtraction loses log(a) / |delta psi'(a)| ulps)
        large = np.flatnonzero(np.minimum(a, c) >= _ASYMPTOTIC_FROM)
        if large.size:
            al, dl = a.flat[large], delta.flat[large]
            ratio = dl / al
            log_ratio = np.where(np.abs(ratio) < 0.5, np.log1p(ratio), np.log(al + dl) - np.log(al))
            out.flat[large] = log_ratio + (_psi_minus_log(al + dl) - _psi_minus_log(al))
        # a small step: the Taylor series in it (skipping those already handled and the exact zeros)
        close = np.flatnonzero(np.abs(delta) <= 1e-4 * np.abs(a))
        if close.size:
            ac, dc = a.flat[close], delta.flat[close]
            keep = (np.minimum(ac, ac + dc) < _ASYMPTOTIC_FROM) & np.isfinite(ac) & (dc != 0)
            close, ac, dc = close[keep], ac[keep], dc[keep]
            total = np.zeros_like(ac)
            for k in (4, 3, 2, 1):  # Horner in the step: sum_k psi^(k)(a) d^k / k!
                total = (total + sc.polygamma(k, ac) / _FACTORIALS[k]) * dc
            out.flat[close] = total
    return out


_FACTORIALS = (1.0, 1.0, 2.0, 6.0, 24.0)


def log_minus_psi(x: Any, a: Any) -> np.ndarray:
    """``log(x) - psi(a)`` for ``x > 0``, accurate when ``x`` is close to a large ``a``.

    Examples
    --------
    >>> import numpy as np, scipy.special as sc
    >>> from chainrules.rulesets.special._gamma_tools import log_minus_psi
    >>> bool(np.isclose(log_minus_psi(2.0, 3.0), np.log(2.0) - sc.psi(3.0), rtol=1e-14))
    True
    """
    x, a = np.asarray(x, dtype=np.float64), np.asarray(a, dtype=np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        # psi at a's own shape, then broadcast (a log-likelihood's one shape against 10^5 points: one psi, not 10^5)
        out = np.asarray(np.log(x) - sc.psi(a), dtype=np.float64)
        large = (a >= _ASYMPTOTIC_FROM) & (x > 0) & np.isfinite(x)
        if np.any(large):
            x, a = np.broadcast_arrays(x, a)
            out[large] = _log_ratio(x[large], a[large]) - _psi_minus_log(a[large])
    return out


def log1pmx(d: np.ndarray) -> np.ndarray:
    """``log(1 + d) - d`` for a float64 array, accurate for small ``d`` (the atanh series of ``log1p``)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.asarray(np.log1p(d) - d)
    small = np.abs(d) < 0.3
    if np.any(small):
        ds = d[small]
        s = ds / (2 + ds)  # log1p(d) = 2 atanh(s) = 2 (s + s^3/3 + ...), and 2s - d = -d s
        s2 = s * s
        total = np.zeros_like(s)
        for k in range(12, 0, -1):
            total = (total + 1.0 / (2 * k + 1)) * s2
        out[small] = -ds * s + 2 * s * total
    return out


# Stirling's series: log Gamma(a) = (a - 1/2) log a - a + log(2 pi)/2 + S(a), DLMF 5.11.1.
_STIRLING = (1 / 12, -1 / 360, 1 / 1260, -1 / 1680, 1 / 1188, -691 / 360360, 1 / 156)


def stirling_correction(a: np.ndarray) -> np.ndarray:
    """``S(a) = log Gamma(a) - (a - 1/2) log a + a - log(2 pi)/2`` for ``a >= 10`` (DLMF 5.11.1, to ``a^-13``)."""
    u = 1.0 / (a * a)
    s = np.zeros_like(a)
    for coefficient in reversed(_STIRLING):
        s = s * u + coefficient
    return s / a


# B_2k for k = 1..7: psi'(z) ~ 1/z + 1/(2 z^2) + sum_k B_2k / z^(2k+1), DLMF 5.15.8.
_TRIGAMMA_ASYMPTOTIC = (1 / 6, -1 / 30, 1 / 42, -1 / 30, 5 / 66, -691 / 2730, 7 / 6)


def _trigamma_complex(z: np.ndarray) -> np.ndarray:
    z = np.asarray(z, dtype=np.complex128)
    out = np.empty_like(z)
    reflect = z.real < 0.5
    w = np.where(reflect, 1 - z, z)
    shift = np.zeros_like(w)
    for _ in range(int(np.ceil(_ASYMPTOTIC_FROM)) + 1):  # psi'(w) = psi'(w + 1) + 1/w^2
        small = np.abs(w) < _ASYMPTOTIC_FROM
        if not np.any(small):
            break
        shift = np.where(small, shift + 1 / (w * w), shift)
        w = np.where(small, w + 1, w)
    u = 1 / (w * w)
    s = np.zeros_like(w)
    for coefficient in reversed(_TRIGAMMA_ASYMPTOTIC):
        s = s * u + coefficient
    value = shift + 1 / w + 0.5 * u + s * u / w
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        out = np.where(reflect, (np.pi / np.sin(np.pi * z)) ** 2 - value, value)
    return out


_TRIGAMMA_SHIFT = 10


def _trigamma_real(x: np.ndarray) -> np.ndarray:
    """``psi'(x)`` for real float64 ``x`` (DLMF 5.15.5, 5.15.8, 5.15.6).

    Every element takes ten steps of the recurrence ``psi'(x) = psi'(x + 1) + 1/x^2``, their sum
    kept as one fraction ``num / den`` (one division instead of ten: divisions dominate the
    cost), then the asymptotic series from ``x + 10 >= 10.5``; below ``1/2`` the reflection
    formula; from ``x = 1e6`` (where ``den`` could overflow) the series alone.
    """
    x = np.asarray(x, dtype=np.float64)
    reflect = x < 0.5
    w = np.where(reflect, 1 - x, x)
    huge = w > 1e6
    base = np.where(huge, 1.0, w)
    num, den = np.zeros_like(base), np.ones_like(base)
    for k in range(_TRIGAMMA_SHIFT):
        v = base + k
        v2 = v * v
        num = num * v2 + den
        den = den * v2
    z = np.where(huge, w, base + _TRIGAMMA_SHIFT)
    inverse = 1 / z
    u = inverse * inverse
    s = np.zeros_like(z)
    for coefficient in reversed(_TRIGAMMA_ASYMPTOTIC):
        s = s * u + coefficient
    value = inverse + 0.5 * u + s * u * inverse
    value = np.where(huge, value, value + num / den)
    if np.any(reflect):
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            xr = x[reflect]
            value[reflect] = np.where(xr == np.round(xr), np.nan, (np.pi / np.sin(np.pi * xr)) ** 2 - value[reflect])
    return value


def trigamma(z: Any) -> Any:
    """``psi'(z)`` for real and complex ``z`` (DLMF 5.15.5, 5.15.6, 5.15.8).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.special._gamma_tools import trigamma
    >>> bool(np.isclose(trigamma(1.0), np.pi ** 2 / 6)), bool(np.isclose(trigamma(1 + 0j), np.pi ** 2 / 6))
    (True, True)
    """
    if np.iscomplexobj(z):
        return _trigamma_complex(z)[()]
    return blockwise(_trigamma_real, np.asarray(z, dtype=np.float64))[()]


def rgamma_derivative(z: Any, r: Any = None) -> Any:
    """``d/dz (1/Gamma(z)) = -psi(z) / Gamma(z)``, with its values ``(-1)^n n!`` at ``z = -n`` (n = 0, 1, ...).

    ``1/Gamma`` is entire; at its zeros ``psi`` has poles and the product is computed
    from the limit (DLMF 5.2.1 and the residues 5.2.5 of Gamma).

    Examples
    --------
    >>> from chainrules.rulesets.special._gamma_tools import rgamma_derivative
    >>> float(rgamma_derivative(1.0)), float(rgamma_derivative(0.0)), float(rgamma_derivative(-3.0))
    (0.5772156649015329, 1.0, -6.0)
    """
    z = np.asarray(z)
    r = sc.rgamma(z) if r is None else r
    with np.errstate(invalid="ignore", divide="ignore"):
        out = np.asarray(-sc.psi(z) * r)
    zr = np.real(z)
    pole = (zr <= 0) & (zr == np.round(zr)) & (np.imag(z) == 0)
    if np.any(pole):
        n = -zr[pole]
        out = out.copy()
        out[pole] = np.where(n % 2 == 0, 1.0, -1.0) * sc.gamma(n + 1)
    return out[()]
