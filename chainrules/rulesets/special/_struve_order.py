"""Derivatives of the Struve functions ``H_v`` and ``L_v`` with respect to their real order (private).

Three representations, each used where it does not cancel, chosen per point by the
rounding-error estimate each one carries (the sum of the moduli of what it adds, against
the modulus of the result):

**Ascending series** (DLMF 11.2.1, 11.2.2) differentiated term by term::

    d/dv H_v(x) = sum_k (-1)^k (x/2)^(2k+v+1) / Gamma(k+3/2) * [log(x/2) / Gamma(k+v+3/2) + (1/Gamma)'(k+v+3/2)]

(``+`` signs for ``L``; ``(1/Gamma)'(s) = -psi(s)/Gamma(s)``, ``(-1)^m m!`` at ``s = -m``),
used where the estimated relative rounding error is below ``1e-11``: small ``x``, or an
order large against ``x``.

**H through Y** (DLMF 11.5.2, ``x > 0``, every order)::

    H_v(x) = Y_v(x) + c(v, x) int_0^inf exp(-x t) (1 + t^2)^(v - 1/2) dt,    c = 2 (x/2)^v / (sqrt(pi) Gamma(v + 1/2))

differentiated in ``v``: ``dY_v/dv`` from :mod:`chainrules.rulesets.special._bessel_order`,
the Laplace integral (with the factor ``log(1 + t^2)``) by Gauss-Legendre on the interval
where its integrand exceeds ``e^-50`` of its maximum.

**H for orders above x**, ``v > x + 1`` and ``v >= 5``, where ``H`` is small against ``Y``
(DLMF 11.5.1)::

    H_v(x) = c(v, x) int_0^1 (1 - t^2)^(v - 1/2) sin(x t) dt

differentiated in ``v``, by Gauss-Legendre where the weight exceeds ``e^-50``.

**L through I** (DLMF 11.5.4, ``v > -1/2``)::

    L_v(x) = I_v(x) - c(v, x) int_0^1 exp(-x t) (1 - t^2)^(v - 1/2) dt

differentiated in ``v`` (``dI_v/dv`` as for ``iv``), the integral (with ``log(1 - t^2)``,
singular at ``t = 1``) by the tanh-sinh rule (Takahasi and Mori 1974), which converges
geometrically for endpoint singularities of this kind (for ``x > 50``, where the integrand
is negligible before ``t = 1``, by Gauss-Legendre on ``[0, 50/x]``).

Where none is accurate (for ``L`` with ``v <= -1/2`` at large ``x``) the caller gets NaN
flagged as not available and the rule returns ``not_implemented``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.special as sc

from chainrules.rulesets.special._bessel_order import i_order, jy_order

__all__ = ["struve_order"]

_SERIES_LOSS = 1e3
"""The series is used where the sum of the moduli of its terms is at most this times the result."""

_SUM_LOSS = 1e6
"""The integral forms are used where their parts are at most this times the result."""


def reciprocal_gamma_derivative(s: np.ndarray) -> np.ndarray:
    """``d/ds (1/Gamma(s)) = -psi(s)/Gamma(s)``, entire; ``(-1)^m m!`` at ``s = -m``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.special._struve_order import reciprocal_gamma_derivative
    >>> reciprocal_gamma_derivative(np.array([0.0, -1.0, -2.0, 1.0]))
    array([ 1.        , -1.        ,  2.        ,  0.57721566])
    """
    s = np.asarray(s, dtype=np.float64)
    pole = (s <= 0) & (s == np.floor(s))
    with np.errstate(invalid="ignore", divide="ignore"):
        d = -sc.psi(s) * sc.rgamma(s)
    m = np.where(pole, -s, 0.0)
    return np.where(pole, (-1.0) ** m * sc.gamma(m + 1), d)


def _series(v: np.ndarray, x: np.ndarray, sign: float) -> tuple[np.ndarray, np.ndarray]:
    """``(dF/dv, sum of moduli)`` of the ascending series of ``H`` (``sign = -1``) or ``L`` (``+1``).

    The sum of moduli is ``inf`` where the series has not converged in its terms.
    """
    lx = np.log(x / 2)
    top = float(np.max(x, initial=0.0))
    terms = int(min(800, 30 + top / 2 + 7 * np.sqrt(top)))  # the terms peak at k = x/2, width sqrt(x)/2
    total = np.zeros_like(x)
    size = np.zeros_like(x)
    with np.errstate(over="ignore", under="ignore", invalid="ignore", divide="ignore"):
        for k in range(terms):
            s = k + v + 1.5
            power = (2 * k + v + 1) * lx - sc.gammaln(k + 1.5)
            # s > 0: one exponential, so that neither factor overflows; s <= 0 (few terms): 1/Gamma directly
            safe = np.where(s > 0, s, 1.0)
            positive = np.exp(power - sc.gammaln(safe)) * (lx - sc.psi(safe))
            other = np.exp(power) * (lx * sc.rgamma(s) + reciprocal_gamma_derivative(s))
            term = sign ** k * np.where(s > 0, positive, other)
            total += term
            size += np.abs(term)
        converged = np.abs(term) <= 1e-17 * size
    return total, np.where(converged, size, np.inf)


def _laplace_h(v: np.ndarray, x: np.ndarray, n: int = 64) -> tuple[np.ndarray, np.ndarray]:
    """``(A, dA/dv)`` with ``A = int_0^inf exp(-x t) (1 + t^2)^(v - 1/2) dt`` (``v <= x + 1``)."""
    a = v - 0.5
    # the exponent -x t + a log(1 + t^2) is largest at 0 or at its interior maximum (when a > x)
    disc = np.sqrt(np.maximum(a * a - x * x, 0.0))
    peak_t = np.where(a > x, (a + disc) / x, 0.0)

    def energy(t: np.ndarray) -> np.ndarray:
        return -x * t + a * np.log1p(t * t)

    top = np.maximum(energy(np.zeros_like(x)), energy(peak_t))
    step = np.full_like(x, 1.0)
    for _ in range(80):
        above = energy(peak_t + step) - top > -50
        if not above.any():
            break
        step = np.where(above, 2 * step, step)
    lo, hi = peak_t.copy(), peak_t + step
    for _ in range(30):
        mid = (lo + hi) / 2
        above = energy(mid) - top > -50
        lo, hi = np.where(above, mid, lo), np.where(above, hi, mid)
    end = hi
    t, w = np.polynomial.legendre.leggauss(n)
    t = end * (t[:, None] + 1) / 2
    w = end * w[:, None] / 2
    e = np.exp(energy(t) - top) * w
    scale = np.exp(top)
    return np.sum(e, 0) * scale, np.sum(e * np.log1p(t * t), 0) * scale


def _sine_h(v: np.ndarray, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(S, dS/dv)`` with ``S = int_0^1 (1 - t^2)^(v - 1/2) sin(x t) dt`` (DLMF 11.5.1; for ``v >= 5``).

    Gauss-Legendre on ``[0, t_max]``, where ``(1 - t^2)^(v - 1/2)`` exceeds ``e^-50`` (or up
    to 1, where the weight is smooth enough for ``v >= 5``), with enough nodes for the
    oscillation ``sin(x t)``.
    """
    t_max = np.sqrt(-np.expm1(-50 / (v - 0.5)))
    counts = np.maximum(64, 2 ** np.ceil(np.log2(48 + 1.5 * x * t_max))).astype(int)
    out_s, out_d = np.empty_like(x), np.empty_like(x)
    for n in np.unique(counts):
        idx = np.flatnonzero(counts == n)
        t, w = np.polynomial.legendre.leggauss(int(n))
        top = t_max[idx]
        t = top * (t[:, None] + 1) / 2
        w = top * w[:, None] / 2
        log_w = np.log1p(-t * t)
        e = np.exp((v[idx] - 0.5) * log_w) * np.sin(x[idx] * t) * w
        out_s[idx], out_d[idx] = np.sum(e, 0), np.sum(e * log_w, 0)
    return out_s, out_d


_TS_TAU = np.arange(-3.2, 3.2 + 1e-9, 0.08)
"""The tanh-sinh nodes' parameter (step 0.08 on [-3.2, 3.2])."""


def _tanh_sinh_l(v: np.ndarray, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(B, dB/dv)`` with ``B = int_0^1 exp(-x t) (1 - t^2)^(v - 1/2) dt`` (``v > -1/2``).

    By tanh-sinh for ``x <= 50`` (the singularity at ``t = 1`` matters); beyond, the integrand
    is below ``e^-50`` of its start past ``t = 50/x < 1``, and Gauss-Legendre on ``[0, 50/x]``
    resolves the scale ``1/x`` of ``exp(-x t)`` that the tanh-sinh nodes would not.
    """
    b, db = np.empty_like(x), np.empty_like(x)
    near = x <= 50
    if near.any():
        tau = _TS_TAU[:, None]
        u = np.pi / 2 * np.sinh(tau)
        t = 1 / (1 + np.exp(-2 * u))
        one_minus = 1 / (1 + np.exp(2 * u))  # 1 - t, without cancellation
        weight = 0.08 * np.pi / 2 * np.cosh(tau) / (2 * np.cosh(u) ** 2)
        log_w = np.log(one_minus) + np.log1p(t)  # log(1 - t^2)
        with np.errstate(under="ignore", over="ignore", invalid="ignore"):
            e = np.exp(-x[near] * t + (v[near] - 0.5) * log_w) * weight
            e = np.where(np.isfinite(e), e, 0.0)
        b[near], db[near] = np.sum(e, 0), np.sum(e * log_w, 0)
    far = ~near
    if far.any():
        t, w = np.polynomial.legendre.leggauss(64)
        end = 50 / x[far]
        t = end * (t[:, None] + 1) / 2
        log_w = np.log1p(-t * t)
        e = np.exp(-x[far] * t + (v[far] - 0.5) * log_w) * (end * w[:, None] / 2)
        b[far], db[far] = np.sum(e, 0), np.sum(e * log_w, 0)
    return b, db


def _prefactor(v: np.ndarray, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``c = 2 (x/2)^v / (sqrt(pi) Gamma(v + 1/2))`` and ``dc/dv`` (in logarithms where ``v > -1/2``)."""
    lx = np.log(x / 2)
    s = v + 0.5
    safe = np.where(s > 0, s, 1.0)
    c_pos = np.exp(np.log(2 / np.sqrt(np.pi)) + v * lx - sc.gammaln(safe))
    p = 2 * np.exp(v * lx) / np.sqrt(np.pi)
    c = np.where(s > 0, c_pos, p * sc.rgamma(s))
    dc = np.where(s > 0, c_pos * (lx - sc.psi(safe)), p * (lx * sc.rgamma(s) + reciprocal_gamma_derivative(s)))
    return c, dc


def struve_order(v: Any, x: Any, modified: bool) -> tuple[np.ndarray, np.ndarray]:
    """``(dF_v(x)/dv, available)`` for ``F = H`` (``modified=False``) or ``L`` (broadcast; float64).

    ``available`` is False where no representation reaches the accuracy promised (the
    derivative there is NaN); NaN also where ``x < 0`` and at ``x = 0`` unless ``v > -1``
    (where it is ``0``).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.special._struve_order import struve_order
    >>> d, ok = struve_order(np.array([0.5, 2.0]), np.array([1.0, 30.0]), modified=False)
    >>> d.round(8), ok
    (array([-0.39358744, 12.70270729]), array([ True,  True]))
    """
    v, x = np.broadcast_arrays(np.asarray(v, dtype=np.float64), np.asarray(x, dtype=np.float64))
    shape = v.shape
    v, x = v.ravel(), x.ravel()
    out = np.full(x.shape, np.nan)
    done = ~(np.isfinite(v) & np.isfinite(x) & (x > 0))
    zero = (x == 0) & (v > -1)
    out[zero] = 0.0
    available = done.copy() & ~((x == 0) & ~zero & np.isfinite(v)) | zero
    sign = 1.0 if modified else -1.0
    idx = np.flatnonzero(~done)
    if idx.size:
        d, size = _series(v[idx], x[idx], sign)
        good = (size <= _SERIES_LOSS * np.abs(d)) & np.isfinite(size)
        out[idx[good]] = d[good]
        available[idx[good]] = True
        rest = idx[~good]
        if rest.size:
            vr, xr = v[rest], x[rest]
            c, dc = _prefactor(vr, xr)
            with np.errstate(over="ignore", invalid="ignore", under="ignore"):
                if modified:
                    usable = vr > -0.5
                    b, db = _tanh_sinh_l(vr, xr)
                    base = np.exp(xr) * i_order(vr, xr)
                    extra = -(dc * b + c * db)
                else:
                    usable = np.ones(vr.shape, bool)
                    sine = (vr > xr + 1) & (vr >= 5)  # H small against Y: DLMF 11.5.1 has no cancellation
                    a, da = _laplace_h(vr, xr)
                    base = np.where(sine, 0.0, jy_order(vr, xr)[1])
                    extra = dc * a + c * da
                    if sine.any():
                        si, dsi = _sine_h(vr[sine], xr[sine])
                        extra[sine] = dc[sine] * si + c[sine] * dsi
                result = base + extra
                good = usable & (np.abs(base) + np.abs(extra) <= _SUM_LOSS * np.abs(result)) & np.isfinite(result)
            out[rest[good]] = result[good]
            available[rest[good]] = True
    return out.reshape(shape), available.reshape(shape)
