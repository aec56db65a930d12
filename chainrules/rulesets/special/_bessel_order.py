"""Derivatives of the Bessel functions J, Y, I and K with respect to their real order (private).

No anchor has these derivatives (autograd returns zero, ChainRules.jl marks them not
implemented); this module computes them from their series and integral representations.
For a real argument ``x > 0`` the order ``v`` is reduced to ``nu = |v| >= 0`` by the
reflection formulas, and ``dF/dnu`` is computed by one of the methods below, chosen per
element by the regime ``(nu, x)`` lies in. Every method was checked against mpmath (30
digits beyond the ratio of the function to its derivative) on a grid of ``1e-8 <= x <=
1e4`` and ``|v| <= 600`` (``benchmarks/bessel_order_accuracy.py``): relative error below
``3e-13`` for every method up to ``x = 300``, and ``5e-11`` for Schlaefli's integrals at
``x = 1500`` and ``1e4`` (thousands of nodes); for ``J`` and ``Y`` near the zeros of their derivatives
relative to the modulus ``|dH/dnu|`` of the Hankel function's derivative. The tests check
``1e-10`` on a small grid.

The maths
---------
**Ascending series** (DLMF 10.15.1, and its analogue for ``I`` from 10.25.2), used for
``J`` and ``I`` when ``x <= 2``::

    d/dnu J_nu(x) = (x/2)^nu sum_k (-x^2/4)^k [log(x/2) - psi(nu+k+1)] / (k! Gamma(nu+k+1))

(``+x^2/4`` for ``I``). For ``x <= 2`` the terms fall faster than ``1/(k!)^2`` and the
sum of their moduli is at most ten times the result.

**Schlaefli's integrals** (DLMF 10.9.6, 10.9.7, valid for every real order when
``x > 0``), differentiated under the integral sign, used for ``Y`` and for ``J`` when the
order is at most ``x + x^(1/3)`` (where ``J`` is not exponentially small)::

    J_nu(x) = (1/pi) int_0^pi cos(x sin t - nu t) dt - (sin(nu pi)/pi) int_0^inf exp(-x sinh s - nu s) ds
    Y_nu(x) = (1/pi) int_0^pi sin(x sin t - nu t) dt
              - (1/pi) int_0^inf (exp(nu s) + cos(nu pi) exp(-nu s)) exp(-x sinh s) ds

The finite integrals are oscillatory (``0.7 (x + nu) + 32`` Gauss-Legendre nodes or more, so
the cost grows with ``x``); the infinite ones have positive integrands, integrated by
Gauss-Legendre on the interval where they exceed ``e^-50`` of their maximum.

**Steepest-descent paths**, where the integrals above cancel. For ``nu > x + x^(1/3)``
(``J`` exponentially small, ``Y`` exponentially large) the path of
``J_nu(x) = (1/(2 pi i)) int_{inf-pi i}^{inf+pi i} exp(x sinh t - nu t) dt`` (DLMF
10.9.17) through the saddle ``t0 = acosh(nu/x)`` is ``t = u(w) + i w`` with
``u(w) = acosh(nu w / (x sin w))``; on it the integrand is real and positive::

    J_nu(x)     =  (1/pi) int_0^pi exp(psi(w)) dw,          psi = x sinh(u) cos(w) - nu u
    d/dnu J     = -(1/pi) int_0^pi (u + w u'(w)) exp(psi) dw
    Y_nu(x)     = -(1/pi) [int_{-inf}^{t0} exp(x sinh s - nu s) ds + int_0^pi u'(w) exp(psi) dw]
    d/dnu Y     =  (1/pi) [int_{-inf}^{t0} s exp(x sinh s - nu s) ds + int_0^pi (u u' - w) exp(psi) dw]

(the ``Y`` formulas are the imaginary part of the Hankel function's integral, DLMF
10.9.18, taken along the real axis up to ``t0`` and then along the same path). The same
construction for ``I_nu(x) = (1/(2 pi i)) int_{inf-pi i}^{inf+pi i} exp(x cosh t - nu t) dt``
(DLMF 10.9.19) gives ``u(w) = asinh(nu w / (x sin w))``, ``I = (1/pi) int_0^pi exp(psi)``,
``dI/dnu = -(1/pi) int_0^pi (u + w u') exp(psi)``, used for ``x > 2`` and
``nu > max(1, 2 sqrt(x))``; below that, DLMF 10.32.4 differentiated::

    d/dnu I_nu(x) = -(1/pi) int_0^pi t sin(nu t) exp(x cos t) dt - cos(nu pi) int_0^inf exp(-x cosh s - nu s) ds
                    + (sin(nu pi)/pi) int_0^inf s exp(-x cosh s - nu s) ds

**K** for every ``x > 0``: ``d/dnu K_nu(x) = int_0^inf s sinh(nu s) exp(-x cosh s) ds``
(DLMF 10.32.9 differentiated; Gradshteyn and Ryzhik 3.547), by the trapezoidal rule on
the even extension, which converges geometrically (the integrand is analytic in the strip
``|Im s| < pi/2``): step ``min(0.2, (x^2 + nu^2)^(-1/4) / 2)``.

**Hankel's expansion** (DLMF 10.17.3, 10.17.4), for ``x >= 20`` and ``nu^2 <= x``, where
its terms fall below ``1e-16`` before they grow::

    d/dnu J = (pi/2) Y + sqrt(2/(pi x)) (cos(w) P' - sin(w) Q'),    w = x - nu pi/2 - pi/4
    d/dnu Y = -(pi/2) J + sqrt(2/(pi x)) (sin(w) P' + cos(w) Q')

with ``P' , Q'`` the order derivatives of the two series (``a_k'(nu)`` by the product
rule on ``a_k(nu) = prod_j (4 nu^2 - (2j-1)^2) / (8 j)``).

**Negative orders** (DLMF 10.4.7, 10.4.8, 10.27.2, 10.27.3): ``J_{-nu} = cos(nu pi) J_nu -
sin(nu pi) Y_nu``, ``Y_{-nu} = sin(nu pi) J_nu + cos(nu pi) Y_nu``, ``I_{-nu} = I_nu +
(2/pi) sin(nu pi) K_nu``, ``K_{-nu} = K_nu``, differentiated.

**Complex arguments**: the derivative in the order is Richardson-extrapolated central
differences of SciPy's own function (:func:`parameter_derivative`); where its error
estimate exceeds ``1e-9`` of ``max(|dF/dnu|, |F|)`` the caller gets ``None`` and the rule
returns ``not_implemented``.

Arguments where the function of the order is not real (``x < 0``), is infinite (``x = 0``
for ``Y`` and ``K``) or jumps (``x = 0``, order ``0``) give NaN.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np
import scipy.special as sc

from chainrules.rulesets.special._numerical import parameter_derivative

__all__ = ["complex_order_derivative", "i_order", "jy_order", "k_order"]

_LEVEL = 50.0
"""Integrands are cut where they fall below ``e^-_LEVEL`` of their maximum (``2e-22``)."""

_BLOCK = 1 << 20
"""The most nodes times points evaluated at once (memory)."""

_GAUSS: dict[int, tuple[np.ndarray, np.ndarray]] = {}


def _gauss(n: int) -> tuple[np.ndarray, np.ndarray]:
    """Gauss-Legendre nodes and weights on ``[0, 1]``, as columns (cached).

    NumPy's ``leggauss`` (an eigenvalue problem of order ``n``, weights accurate to a few
    ulps) up to 256 nodes, SciPy's ``roots_legendre`` (faster, weights within ``1e-13``) beyond.
    """
    if n not in _GAUSS:
        t, w = np.polynomial.legendre.leggauss(n) if n <= 256 else sc.roots_legendre(n)
        _GAUSS[n] = ((t[:, None] + 1) / 2, w[:, None] / 2)
    return _GAUSS[n]


def _bucket(n: np.ndarray, least: int = 64) -> np.ndarray:
    """Round node counts up to a multiple of 16 up to 256, to a power of two beyond (few distinct sizes)."""
    n = np.maximum(np.asarray(n, dtype=np.float64), least)
    return np.where(n <= 256, 16 * np.ceil(n / 16), 2 ** np.ceil(np.log2(n))).astype(int)


def _by_size(sizes: np.ndarray, compute: Callable[[np.ndarray, int], None]) -> None:
    """Call ``compute(index, n)`` for the points of each node count ``n``, in memory-sized blocks."""
    for n in np.unique(sizes):
        index = np.flatnonzero(sizes == n)
        step = max(1, _BLOCK // int(n))
        for start in range(0, index.size, step):
            compute(index[start:start + step], int(n))


def _cut(energy: Callable[[np.ndarray], np.ndarray], inside: np.ndarray, outside: np.ndarray,
         steps: int = 20) -> np.ndarray:
    """The point between ``inside`` (``energy > -_LEVEL``) and ``outside`` where ``energy`` falls to ``-_LEVEL``.

    Bisection on the logarithm of the distance from ``inside`` (down to ``2^-60`` of the
    bracket), so that a crossing many orders of magnitude closer than the bracket's length
    (``sqrt(100/x)`` for ``x = 1e12``) is found to a few parts in ``1e4`` of its distance in
    ``steps`` steps. Returns the outer end of the final bracket (where ``energy <= -_LEVEL``).
    """
    span = outside - inside
    lo = np.full_like(span, -60.0)
    hi = np.zeros_like(span)
    for _ in range(steps):
        mid = (lo + hi) / 2
        above = energy(inside + span * np.exp2(mid)) > -_LEVEL
        lo = np.where(above, mid, lo)
        hi = np.where(above, hi, mid)
    return inside + span * np.exp2(hi)


def _reach(energy: Callable[[np.ndarray], np.ndarray], start: np.ndarray, direction: float,
           first: float = 1.0) -> np.ndarray:
    """A point beyond ``start`` in ``direction`` where ``energy < -_LEVEL`` (doubling steps), then bisected."""
    step = np.full_like(start, first)
    for _ in range(64):
        out = start + direction * step
        above = energy(out) > -_LEVEL
        if not above.any():
            break
        step = np.where(above, 2 * step, step)
    return _cut(energy, start, start + direction * step)


def _gauss_integral(f: Callable[[np.ndarray], np.ndarray], a: np.ndarray, b: np.ndarray, n: int) -> np.ndarray:
    """``int_a^b f`` by ``n``-point Gauss-Legendre, per point (``a``, ``b`` of shape ``(m,)``)."""
    t, w = _gauss(n)
    length = b - a
    return length * np.sum(w * f(a + length * t), axis=0)


# ---- small helpers ------------------------------------------------------------------------------------
def _w_over_sin_minus_one(w: np.ndarray) -> np.ndarray:
    """``w / sin(w) - 1``, without cancellation near 0."""
    w2 = w * w
    series = w2 * (1 / 6 + w2 * (7 / 360 + w2 * (31 / 15120 + w2 * (127 / 604800))))
    with np.errstate(divide="ignore", invalid="ignore"):
        direct = w / np.sin(w) - 1
    return np.where(np.abs(w) < 0.05, series, direct)


def _sin_minus_w_cos(w: np.ndarray) -> np.ndarray:
    """``(sin w - w cos w) / sin(w)^2`` (the derivative of ``w / sin w``), without cancellation near 0."""
    w2 = w * w
    series = w * w2 * (1 / 3 - w2 * (1 / 30 - w2 * (1 / 840 - w2 / 45360)))
    direct = np.sin(w) - w * np.cos(w)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(np.abs(w) < 0.1, series, direct) / np.sin(w) ** 2


def _cosh_minus_one(t: np.ndarray) -> np.ndarray:
    """``cosh(t) - 1`` without cancellation."""
    s = np.sinh(t / 2)
    return 2 * s * s


# ---- ascending series (x <= 2) ------------------------------------------------------------------------
def _ascending(nu: np.ndarray, x: np.ndarray, sign: float, terms: int = 30) -> tuple[np.ndarray, np.ndarray]:
    """``(F, dF/dnu)`` for ``F = J`` (``sign = -1``) or ``I`` (``+1``), by DLMF 10.2.2 / 10.25.2 and 10.15.1."""
    lx = np.log(x / 2)
    front = np.exp(nu * lx - sc.gammaln(nu + 1))
    q = sign * x * x / 4
    term = np.ones_like(x)
    psi = sc.psi(nu + 1)
    value = np.zeros_like(x)
    derivative = np.zeros_like(x)
    for k in range(terms):
        value += term
        derivative += term * (lx - psi)
        term = term * q / ((k + 1) * (nu + k + 1))
        psi = psi + 1 / (nu + k + 1)
    return front * value, front * derivative


# ---- K: trapezoidal rule --------------------------------------------------------------------------------
def _k_trapezoid(nu: np.ndarray, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(e^x K_nu(x), e^x dK_nu/dnu)`` for ``nu >= 0``, ``x > 0``."""
    peak_t = np.arcsinh(nu / x)
    peak = nu * peak_t - x * _cosh_minus_one(peak_t)

    # Where the exponent E(t) = nu t - x (cosh t - 1) falls _LEVEL below its peak E(t*), from
    # E'(t) = x (sinh t* - sinh t) = -2x cosh((t+t*)/2) sinh((t-t*)/2): beyond t* it is at most
    # -4x cosh(t*) (cosh((t-t*)/2) - 1), before it at most -4x (cosh((t*-t)/2) - 1), and (sinh
    # being convex) at most -nu (t*-t)^2 / (2 t*): bounds in closed form, no search.
    with np.errstate(divide="ignore", invalid="ignore"):
        right = peak_t + 2 * np.arccosh(1 + _LEVEL / (4 * np.hypot(x, nu)))
        before = np.minimum(2 * np.arccosh(1 + _LEVEL / (4 * x)), np.sqrt(2 * _LEVEL * peak_t / nu))
    left = np.maximum(0.0, peak_t - np.where(nu > 0, before, np.inf))
    h = np.minimum(0.2, 0.5 * (x * x + nu * nu) ** -0.25)
    count = np.ceil((right - left) / h).astype(int) + 1
    value = np.empty_like(x)
    derivative = np.empty_like(x)

    def compute(index: np.ndarray, n: int) -> None:
        v, xx, lo, step, pk = nu[index], x[index], left[index], h[index], peak[index]
        j = np.arange(n)[:, None]
        t = lo + j * step
        weight = np.where((j == 0) & (lo == 0), 0.5, 1.0) * (j < count[index])
        e = np.exp(v * t - xx * _cosh_minus_one(t) - pk) * weight
        # cosh(v t) exp(-v t) = (1 + exp(-2 v t)) / 2, sinh(v t) exp(-v t) = -expm1(-2 v t) / 2
        value[index] = step * np.sum(e * (1 + np.exp(-2 * v * t)), axis=0) / 2 * np.exp(pk)
        derivative[index] = -step * np.sum(e * t * np.expm1(-2 * v * t), axis=0) / 2 * np.exp(pk)

    with np.errstate(over="ignore", under="ignore", invalid="ignore"):
        _by_size(_bucket(count, least=16), compute)
    return value, derivative


# ---- I: DLMF 10.32.4 and the steepest-descent path --------------------------------------------------
def _i_schlaefli(nu: np.ndarray, x: np.ndarray, n: int = 40) -> np.ndarray:
    """``e^-x dI_nu/dnu`` by DLMF 10.32.4 differentiated (``x > 2``, ``nu <= max(1, 2 sqrt(x))``)."""
    top = 2 * np.arcsin(np.sqrt(np.minimum(1.0, _LEVEL / (2 * x))))
    zero = np.zeros_like(x)
    theta = _gauss_integral(lambda t: t * np.sin(nu * t) * np.exp(-2 * x * np.sin(t / 2) ** 2), zero, top, n)
    # the tails (about K_nu(x) e^-x) matter against the first part (about nu x^-3/2) only where
    # e^-2x x / nu is not negligible; they fall below e^-50 where x (cosh s - 1) or nu s exceeds 50
    with np.errstate(divide="ignore"):
        needed = 2 * x - np.log(x) + np.log(np.maximum(nu, 1e-300)) < 45
    out = -theta / np.pi
    if needed.any():
        v, xx = nu[needed], x[needed]
        with np.errstate(divide="ignore"):
            end = np.minimum(np.arccosh(1 + _LEVEL / xx), _LEVEL / v)

        def tail(power: int) -> np.ndarray:
            return _gauss_integral(lambda s: s ** power * np.exp(-xx * _cosh_minus_one(s) - v * s - 2 * xx),
                                   np.zeros_like(xx), end, n)

        out[needed] += -np.cos(np.pi * v) * tail(0) + np.sin(np.pi * v) / np.pi * tail(1)
    return out


def _i_path(nu: np.ndarray, x: np.ndarray, n: int = 64) -> np.ndarray:
    """``e^-x dI_nu/dnu`` on the steepest-descent path (``nu > max(1, 2 sqrt(x))``)."""
    r = nu / x
    t0 = np.arcsinh(r)
    top = np.hypot(x, nu) - nu * t0  # the exponent at the saddle

    def parts(w: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        g = r * (1 + _w_over_sin_minus_one(w))
        u = np.arcsinh(g)
        du = r * _sin_minus_w_cos(w) / np.sqrt(1 + g * g)
        return u, du, x * np.cosh(u) * np.cos(w) - nu * u - top

    end = _cut(lambda w: parts(w)[2], np.zeros_like(x), np.full_like(x, np.pi * (1 - 1e-15)))

    def integrand(w: np.ndarray) -> np.ndarray:
        u, du, e = parts(w)
        return (u + w * du) * np.exp(e)

    with np.errstate(over="ignore", invalid="ignore"):
        return -_gauss_integral(integrand, np.zeros_like(x), end, n) / np.pi * np.exp(top - x)


# ---- J and Y ---------------------------------------------------------------------------------------------
_THETA_SLOPE, _THETA_BASE = 0.7, 32
"""Gauss-Legendre nodes for Schlaefli's oscillating integrals: ``0.7 (x + nu) + 32`` (or more, at least 48)."""

_SINES: dict[int, np.ndarray] = {}


def _theta_nodes(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Gauss-Legendre nodes ``theta`` on ``[0, pi]``, ``sin(theta)`` and the weights (cached)."""
    t, w = _gauss(n)
    if n not in _SINES:
        _SINES[n] = np.sin(np.pi * t)
    return np.pi * t, _SINES[n], np.pi * w


def _jy_schlaefli(nu: np.ndarray, x: np.ndarray, need_y: bool = True) -> tuple[np.ndarray, ...]:
    """``(J, dJ, Y, dY)`` by Schlaefli's integrals differentiated (DLMF 10.9.6, 10.9.7).

    Without ``need_y`` the integrals only ``Y`` needs are skipped (``Y``, ``dY`` are NaN).
    """
    zero = np.zeros_like(x)
    # int_0^pi {cos, sin}(x sin t - nu t) {1, t} dt: oscillating, 0.8 (x + nu) + 40 nodes
    int_c, int_s, int_ts, int_tc = (np.empty_like(x) for _ in range(4))

    def oscillating(index: np.ndarray, n: int) -> None:
        theta, sines, wt = _theta_nodes(n)
        phase = x[index] * sines - nu[index] * theta
        c, s = np.cos(phase), np.sin(phase)
        int_c[index], int_s[index] = np.sum(wt * c, 0), np.sum(wt * s, 0)
        int_ts[index], int_tc[index] = np.sum((wt * theta) * s, 0), np.sum((wt * theta) * c, 0)

    _by_size(_bucket(_THETA_SLOPE * (x + nu) + _THETA_BASE, least=48), oscillating)

    # int_0^inf exp(+-nu s - x sinh s) {1, s} ds: positive; exp(+nu s - x sinh s) peaks at cosh s = nu/x;
    # exp(-nu s - x sinh s) is below e^-50 where x sinh s or nu s exceeds 50
    with np.errstate(divide="ignore"):
        right_minus = np.minimum(np.arcsinh(_LEVEL / x), _LEVEL / nu)
    if need_y:
        peak_s = np.arccosh(np.maximum(nu / x, 1.0))
        peak = nu * peak_s - x * np.sinh(peak_s)
        right_plus = _reach(lambda s: nu * s - x * np.sinh(s) - peak, peak_s, 1.0)
        inside = -peak > -_LEVEL
        left_plus = np.where(inside, 0.0, _cut(lambda s: nu * s - x * np.sinh(s) - peak, peak_s, zero))
        spans = np.maximum(right_plus - left_plus, right_minus)
    else:
        spans = right_minus
    a_plus, b_plus, a_minus, b_minus = (np.full_like(x, np.nan) for _ in range(4))

    def tails(index: np.ndarray, n: int) -> None:
        v, xx = nu[index], x[index]
        t, w = _gauss(n)
        if need_y:
            lo, hi, pk = left_plus[index], right_plus[index], peak[index]
            sp = lo + (hi - lo) * t
            ep = np.exp(v * sp - xx * np.sinh(sp) - pk) * w * (hi - lo)
            a_plus[index], b_plus[index] = np.sum(ep, 0) * np.exp(pk), np.sum(ep * sp, 0) * np.exp(pk)
        sm = right_minus[index] * t
        em = np.exp(-v * sm - xx * np.sinh(sm)) * w * right_minus[index]
        a_minus[index], b_minus[index] = np.sum(em, 0), np.sum(em * sm, 0)

    with np.errstate(over="ignore", under="ignore", invalid="ignore"):
        _by_size(_bucket(np.ceil(3 * spans), least=48), tails)
        sin_p, cos_p = np.sin(np.pi * nu), np.cos(np.pi * nu)
        j = int_c / np.pi - sin_p / np.pi * a_minus
        dj = int_ts / np.pi - cos_p * a_minus + sin_p / np.pi * b_minus
        y = int_s / np.pi - (a_plus + cos_p * a_minus) / np.pi
        dy = -int_tc / np.pi - (b_plus - cos_p * b_minus - np.pi * sin_p * a_minus) / np.pi
    return j, dj, y, dy


def _jy_path(nu: np.ndarray, x: np.ndarray, n: int = 64) -> tuple[np.ndarray, ...]:
    """``(J, dJ, Y, dY)`` on the steepest-descent path of ``J`` and the real axis (``nu > x + x^(1/3)``)."""
    r = nu / x
    t0 = np.arccosh(r)
    top = np.sqrt((nu - x) * (nu + x)) - nu * t0  # the exponent of J's integrand at the saddle t0

    def parts(w: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        gm1 = ((nu - x) + nu * _w_over_sin_minus_one(w)) / x
        root = np.sqrt(gm1 * (gm1 + 2))
        u = np.log1p(gm1 + root)
        du = r * _sin_minus_w_cos(w) / root
        return u, du, x * np.sinh(u) * np.cos(w) - nu * u - top

    with np.errstate(over="ignore", under="ignore", invalid="ignore", divide="ignore"):
        end = _cut(lambda w: parts(w)[2], np.zeros_like(x), np.full_like(x, np.pi * (1 - 1e-15)))
        t, wt = _gauss(n)
        w = end * t
        u, du, e = parts(w)
        e = np.exp(e) * wt * end
        scale = np.exp(top)
        j = np.sum(e, 0) / np.pi * scale
        dj = -np.sum((u + w * du) * e, 0) / np.pi * scale
        y_path = np.sum(du * e, 0) * scale
        dy_path = np.sum((u * du - w) * e, 0) * scale

        # the real axis up to t0: exp(x sinh s - nu s) peaks at -t0 with the exponent -top
        def energy(s: np.ndarray) -> np.ndarray:
            return x * np.sinh(s) - nu * s + top

        left = _reach(energy, -t0, -1.0)
        right = np.minimum(_reach(energy, -t0, 1.0), t0)
        a = np.zeros_like(x)
        b = np.zeros_like(x)
        for lo, hi in ((left, -t0), (-t0, right)):
            s = lo + (hi - lo) * t
            es = np.exp(energy(s)) * wt * (hi - lo)
            a += np.sum(es, 0)
            b += np.sum(s * es, 0)
        inverse = np.exp(-top)
        y = -(a * inverse + y_path) / np.pi
        dy = (b * inverse + dy_path) / np.pi
    return j, dj, y, dy


def _jy_hankel(nu: np.ndarray, x: np.ndarray, terms: int = 40) -> tuple[tuple[np.ndarray, ...], np.ndarray]:
    """``(J, dJ, Y, dY)`` by Hankel's expansion (DLMF 10.17.3-4), and whether it converged to 1e-16."""
    mu = 4 * nu * nu
    a = np.ones_like(x)
    da = np.zeros_like(x)
    p, dp = np.ones_like(x), np.zeros_like(x)
    q, dq = np.zeros_like(x), np.zeros_like(x)
    power = np.ones_like(x)
    previous = np.full_like(x, np.inf)
    active = np.ones(x.shape, bool)
    converged = np.zeros(x.shape, bool)
    for k in range(1, terms):
        factor = (mu - (2 * k - 1) ** 2) / (8 * k)
        da = da * factor + a * (nu / k)
        a = a * factor
        power = power / x
        term, dterm = a * power, da * power
        size = np.abs(term) + np.abs(dterm)
        active &= size <= previous  # stop before the terms grow
        sign = -1.0 if (k // 2) % 2 else 1.0
        if k % 2 == 0:
            p = np.where(active, p + sign * term, p)
            dp = np.where(active, dp + sign * dterm, dp)
        else:
            q = np.where(active, q + sign * term, q)
            dq = np.where(active, dq + sign * dterm, dq)
        converged |= active & (size < 1e-16)
        active &= size >= 1e-17
        previous = np.where(active, size, previous)
        if not active.any():
            break
    # cos(x - phi), sin(x - phi) with x reduced exactly by NumPy
    phi = nu * np.pi / 2 + np.pi / 4
    cx, sx, cp, sp = np.cos(x), np.sin(x), np.cos(phi), np.sin(phi)
    c, s = cx * cp + sx * sp, sx * cp - cx * sp
    amp = np.sqrt(2 / (np.pi * x))
    j = amp * (c * p - s * q)
    y = amp * (s * p + c * q)
    dj = np.pi / 2 * y + amp * (c * dp - s * dq)
    dy = -np.pi / 2 * j + amp * (s * dp + c * dq)
    return (j, dj, y, dy), converged


def _jy_positive(nu: np.ndarray, x: np.ndarray, need_y: bool = True) -> tuple[np.ndarray, ...]:
    """``(J, dJ, Y, dY)`` for ``nu >= 0``, ``x > 0`` (1-D float64), each point by its regime.

    Without ``need_y``, ``Y`` and ``dY`` may be NaN where computing them would cost more.
    """
    out = [np.full_like(x, np.nan) for _ in range(4)]
    todo = np.ones(x.shape, bool)
    small = x <= 2
    if not need_y:  # J from its series where it does not cancel; nothing else is needed there
        todo &= ~small
    hankel = todo & (x >= 20) & (nu * nu <= x)
    if hankel.any():
        idx = np.flatnonzero(hankel)
        values, ok = _jy_hankel(nu[idx], x[idx])
        for k in range(4):
            out[k][idx[ok]] = values[k][ok]
        todo[idx[ok]] = False
    path = todo & (nu > x + np.cbrt(x)) & (nu >= 0.5)
    if path.any():
        idx = np.flatnonzero(path)
        values = _jy_path(nu[idx], x[idx])
        for k in range(4):
            out[k][idx] = values[k]
        todo[idx] = False
    if todo.any():
        idx = np.flatnonzero(todo)
        values = _jy_schlaefli(nu[idx], x[idx], need_y)
        for k in range(4):
            out[k][idx] = values[k]
    if small.any():  # J from its series, where the integrals may cancel
        idx = np.flatnonzero(small)
        out[0][idx], out[1][idx] = _ascending(nu[idx], x[idx], -1.0)
    return tuple(out)


# ---- public (in the package) --------------------------------------------------------------------------
def _flat(v: Any, x: Any) -> tuple[np.ndarray, np.ndarray, tuple[int, ...]]:
    v, x = np.broadcast_arrays(np.asarray(v, dtype=np.float64), np.asarray(x, dtype=np.float64))
    return v.ravel(), x.ravel(), v.shape


def jy_order(v: Any, x: Any, need_y: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """``(dJ_v(x)/dv, dY_v(x)/dv)`` for real ``v`` and real ``x`` (broadcast; float64).

    NaN where ``x <= 0`` (except ``dJ/dv = 0`` at ``x = 0`` for ``v > 0``), and where an
    argument is not finite. With ``need_y=False`` only ``dJ/dv`` is computed (the second
    result is then not meaningful at non-negative orders): ``jv`` needs no ``Y``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.special._bessel_order import jy_order
    >>> import scipy.special as sc
    >>> dj, dy = jy_order(0.0, 1.5)     # DLMF 10.15.5: (pi/2) Y0, -(pi/2) J0
    >>> bool(np.isclose(dj, np.pi / 2 * sc.y0(1.5), rtol=1e-13)), bool(np.isclose(dy, -np.pi / 2 * sc.j0(1.5)))
    (True, True)
    """
    v, x, shape = _flat(v, x)
    dj = np.full(x.shape, np.nan)
    dy = np.full(x.shape, np.nan)
    good = np.isfinite(v) & np.isfinite(x) & (x > 0)
    if good.any():
        idx = np.flatnonzero(good)
        vv, xx = v[idx], x[idx]
        nu = np.abs(vv)
        j, dj_nu, y, dy_nu = _jy_positive(nu, xx, need_y or bool(np.any(vv < 0)))
        negative = vv < 0
        with np.errstate(invalid="ignore", over="ignore"):
            sin_p, cos_p = np.sin(np.pi * nu), np.cos(np.pi * nu)
            # d/dv of J_{-nu} = cos(nu pi) J_nu - sin(nu pi) Y_nu and Y_{-nu} = sin(nu pi) J_nu + cos(nu pi) Y_nu
            dj_neg = np.pi * sin_p * j - cos_p * dj_nu + np.pi * cos_p * y + sin_p * dy_nu
            dy_neg = -np.pi * cos_p * j - sin_p * dj_nu + np.pi * sin_p * y - cos_p * dy_nu
        dj[idx] = np.where(negative, dj_neg, dj_nu)
        dy[idx] = np.where(negative, dy_neg, dy_nu)
    dj[(x == 0) & (v > 0) & np.isfinite(v)] = 0.0
    return dj.reshape(shape), dy.reshape(shape)


def k_order(v: Any, x: Any) -> np.ndarray:
    """``e^x dK_v(x)/dv`` (the derivative of ``kve``) for real ``v``, ``x`` (broadcast; float64).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.special._bessel_order import k_order
    >>> k_order(np.array([-1.0, 0.0, 1.0]), 2.0)      # odd in v
    array([-0.42078411, -0.        ,  0.42078411])
    """
    v, x, shape = _flat(v, x)
    out = np.full(x.shape, np.nan)
    good = np.isfinite(v) & np.isfinite(x) & (x > 0)
    if good.any():
        idx = np.flatnonzero(good)
        _, derivative = _k_trapezoid(np.abs(v[idx]), x[idx])
        out[idx] = np.sign(v[idx]) * derivative
    return out.reshape(shape)


def i_order(v: Any, x: Any) -> np.ndarray:
    """``e^-x dI_v(x)/dv`` (the derivative of ``ive`` for ``x > 0``) for real ``v``, ``x`` (broadcast; float64).

    Examples
    --------
    >>> import numpy as np, scipy.special as sc
    >>> from chainrules.rulesets.special._bessel_order import i_order
    >>> bool(np.isclose(i_order(0.0, 3.0), -sc.k0(3.0) * np.exp(-3.0), rtol=1e-13))   # DLMF 10.38.4
    True
    """
    v, x, shape = _flat(v, x)
    out = np.full(x.shape, np.nan)
    good = np.isfinite(v) & np.isfinite(x) & (x > 0)
    if good.any():
        idx = np.flatnonzero(good)
        vv, xx = v[idx], x[idx]
        nu = np.abs(vv)
        d = np.empty_like(xx)
        small = xx <= 2
        schlaefli = ~small & (nu <= np.maximum(1.0, 2 * np.sqrt(xx)))
        path = ~small & ~schlaefli
        with np.errstate(over="ignore", under="ignore", invalid="ignore"):
            if small.any():
                _, ds = _ascending(nu[small], xx[small], 1.0)
                d[small] = ds * np.exp(-xx[small])
            if schlaefli.any():
                d[schlaefli] = _i_schlaefli(nu[schlaefli], xx[schlaefli])
            if path.any():
                d[path] = _i_path(nu[path], xx[path])
            negative = vv < 0
            if negative.any():
                # d/dv I_{-nu} = -dI_nu - 2 cos(nu pi) K_nu - (2/pi) sin(nu pi) dK_nu   (DLMF 10.27.2)
                kn, dkn = _k_trapezoid(nu[negative], xx[negative])
                shrink = np.exp(-2 * xx[negative])
                d[negative] = (-d[negative] - 2 * np.cos(np.pi * nu[negative]) * kn * shrink
                               - 2 / np.pi * np.sin(np.pi * nu[negative]) * dkn * shrink)
        out[idx] = d
    out[(x == 0) & (v > 0) & np.isfinite(v)] = 0.0
    return out.reshape(shape)


def _at(f: Callable[[np.ndarray, np.ndarray], np.ndarray], z: np.ndarray, v: np.ndarray) -> np.ndarray:
    return f(v, z)


def complex_order_derivative(f: Callable[[np.ndarray, np.ndarray], np.ndarray], v: Any, z: Any,
                             tolerance: float = 1e-9) -> np.ndarray | None:
    """``df(v, z)/dv`` by Richardson extrapolation in ``v`` (complex ``z``), or None where it is not accurate.

    Accepted when the extrapolation's error estimate is at most ``tolerance`` times
    ``|df/dv|`` at every point (points where ``f`` is not finite give NaN). Where the
    derivative is much smaller than the function (``dI_v/dv = -K_0`` at ``v = 0`` against
    ``I_0 ~ e^z``) the differences cannot resolve it, and the answer is None.

    Examples
    --------
    >>> import numpy as np, scipy.special as sc
    >>> from chainrules.rulesets.special._bessel_order import complex_order_derivative
    >>> d = complex_order_derivative(sc.jv, 0.0, 1.5 + 0j)     # real z: (pi/2) Y0
    >>> bool(np.isclose(d, np.pi / 2 * sc.y0(1.5), rtol=1e-9))
    True
    """
    v, z = np.broadcast_arrays(np.asarray(v, dtype=np.float64), np.asarray(z, dtype=np.complex128))
    with np.errstate(all="ignore"):
        value = f(v, z)
        derivative, error = parameter_derivative(functools.partial(_at, f, z), v, step=0.25)
        for step in (0.1, 0.6):  # the functions vary on a scale of 1/log(2|v|/|z|) in v: try a smaller step, a larger
            retry = ~(error <= tolerance * np.abs(derivative))
            if not retry.any():
                break
            d, e = parameter_derivative(functools.partial(_at, f, z[retry]), v[retry], step=step)
            better = e < error[retry]
            derivative[retry] = np.where(better, d, derivative[retry])
            error[retry] = np.where(better, e, error[retry])
    finite = np.isfinite(value)
    if np.any(finite & ~(error <= tolerance * np.abs(derivative))):
        return None
    return np.where(finite, derivative, np.nan)
