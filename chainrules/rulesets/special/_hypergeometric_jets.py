"""0F1, 1F1, 2F1 and U with their derivatives in the parameters, as jets, across the complex plane.

The series (:func:`pfq_jet`) converges fast only for a small argument; the connection
formulas take every other argument there, and the jets carry the derivatives and the error
bounds through them. For each element the candidates are tried in order of their series'
convergence ratio until each derivative's error bound is below the tolerance; the best
bound over the tried candidates is kept per derivative.

2F1(a, b; c; z) (parameters a, b, c), Abramowitz and Stegun 15.3.3-15.3.9, DLMF 15.8.1-15.8.5:

==============  ===================================================================  ===========
name            formula                                                              ratio
==============  ===================================================================  ===========
direct          F(a, b; c; z)                                                        ``|z|``
pfaff (a)       (1-z)^-a F(a, c-b; c; z/(z-1))                                       ``|z/(z-1)|``
pfaff (b)       (1-z)^-b F(c-a, b; c; z/(z-1))                                       ``|z/(z-1)|``
1 - z           G(c, c-a-b | c-a, c-b) F(a, b; a+b-c+1; 1-z)                          ``|1-z|``
                + (1-z)^(c-a-b) G(c, a+b-c | a, b) F(c-a, c-b; c-a-b+1; 1-z)
1 / z           G(c, b-a | b, c-a) (-z)^-a F(a, a-c+1; a-b+1; 1/z)                    ``1/|z|``
                + G(c, a-b | a, c-b) (-z)^-b F(b, b-c+1; b-a+1; 1/z)
1 / (1-z)       G(c, b-a | b, c-a) (1-z)^-a F(a, c-b; a-b+1; 1/(1-z))                 ``1/|1-z|``
                + G(c, a-b | a, c-b) (1-z)^-b F(b, c-a; b-a+1; 1/(1-z))
1 - 1/z         G(c, c-a-b | c-a, c-b) z^-a F(a, a-c+1; a+b-c+1; 1-1/z)               ``|1-1/z|``
                + G(c, a+b-c | a, b) (1-z)^(c-a-b) z^(a-c) F(c-a, 1-a; c-a-b+1; 1-1/z)
Gauss (z = 1)   G(c, c-a-b | c-a, c-b)                                               0
==============  ===================================================================  ===========

with ``G(x, y | u, v) = Gamma(x) Gamma(y) / (Gamma(u) Gamma(v))`` and principal branches
(SciPy's side of the cut ``z > 1`` for ``z = x + 0j``, the signed zero kept). The two-term
formulas cancel where ``c - a - b`` or ``a - b`` is near an integer (the logarithmic cases
of DLMF 15.8.10): their error bounds grow there, and the next candidate, or the caller's
fallback, takes over. The functions without a Gamma combination (direct, Pfaff) are
preferred where their ratio is at most 0.8.

1F1(a; b; z) (parameters a, b): the series, or Kummer's transformation
``M(a, b, z) = e^z M(b - a, b, -z)`` (DLMF 13.2.39) for ``Re z < 0`` (no cancellation for
real ``z`` when ``a, b - a > 0``).

0F1(; b; z) (parameter b): the series (cancelling for ``z << 0``, where the caller falls back).

U(a, b, z) (parameters a, b; ``z > 0``): DLMF 13.2.42,
``U = Gamma(1-b)/Gamma(a-b+1) M(a, b, z) + Gamma(b-1)/Gamma(a) z^(1-b) M(a-b+1, 2-b, z)``
(cancelling for large ``z`` and near integer ``b``), or for large ``z`` the asymptotic series
DLMF 13.7.3, ``U ~ z^-a sum_s (a)_s (a-b+1)_s / s! (-z)^-s``, truncated before its smallest
term, with the first omitted term (differentiated) as its error bound (DLMF 13.7.4 bounds
the remainder by the first omitted term times a factor close to 1 for real ``z`` large
next to ``|a|`` and ``|b|``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from chainrules.rulesets.special._hypergeometric_series import pfq_jet
from chainrules.rulesets.special._jet import Jet, U, cos, gamma_ratio, power, rgamma, sin
from chainrules.rulesets.special._quadrature import exp_sinh, exp_sinh_nodes

__all__ = ["TOLERANCE", "best_of", "hyp0f1_jet", "hyp1f1_jet", "hyp2f1_jet", "hyperu_jet", "relative_bound"]

TOLERANCE = 1e-9
"""The largest error bound a derivative is accepted with, relative to ``max(|derivative|, |value|)``.

The rules promise a relative error of at most ``1e-8``; the bounds are first-order and a
few times pessimistic, and the margin of ten covers the first-order approximation."""


def relative_bound(jet: Jet) -> np.ndarray:
    """``ed / max(|d|, |v|)`` per derivative (``inf`` where not finite)."""
    scale = np.maximum(np.abs(jet.d), np.abs(jet.v))
    with np.errstate(divide="ignore", invalid="ignore"):
        rel = jet.ed / scale
    rel = np.where(np.isfinite(rel) & np.isfinite(jet.d), rel, np.inf)
    return np.where((jet.ed == 0) & (jet.d == 0) & np.isfinite(jet.v), 0.0, rel)


Candidate = Callable[[np.ndarray], Jet]


def best_of(n: int, k: int, candidates: Sequence[Candidate], ratios: Sequence[np.ndarray],
            preferred: Sequence[bool] = (), limit: float = 0.95, tries: int = 3) -> Jet:
    """For each element, the candidate results with the smallest relative error bound per derivative.

    ``candidates[i](index)`` computes candidate ``i`` at the elements ``index``;
    ``ratios[i]`` is its series' convergence ratio per element (candidates above ``limit``
    are not tried). Preferred candidates come first where their ratio is at most 0.8; then
    the others by ratio. At most ``tries`` candidates are computed per element, stopping
    at the first whose every derivative meets :data:`TOLERANCE`.
    """
    ncand = len(candidates)
    ratio = np.stack([np.broadcast_to(np.asarray(r, dtype=np.float64), (n,)) for r in ratios])
    ratio = np.where(np.isfinite(ratio), ratio, np.inf)
    key = ratio.copy()
    for i, pref in enumerate(preferred):
        if pref:
            key[i] = np.where(ratio[i] <= 0.8, ratio[i] - 10.0, ratio[i])
    order = np.argsort(key, axis=0, kind="stable")
    result = Jet(np.full(n, np.nan, dtype=np.complex128), np.full((k, n), np.nan, dtype=np.complex128),
                 np.full(n, np.inf), np.full((k, n), np.inf))
    rel = np.full((k, n), np.inf)
    complex_result = False
    pending = np.ones(n, dtype=bool)
    for attempt in range(min(tries, ncand)):
        choice = order[attempt]
        chosen_ratio = np.take_along_axis(ratio, choice[None, :], axis=0)[0]
        for c in range(ncand):
            index = np.flatnonzero(pending & (choice == c) & (chosen_ratio <= limit))
            if index.size == 0:
                continue
            jet = candidates[c](index)
            complex_result = complex_result or jet.v.dtype.kind == "c"
            new_rel = relative_bound(jet)
            old = rel[:, index]
            better = new_rel < old
            first = np.isnan(result.v[index])
            result.v[index] = np.where(first | np.any(better, axis=0), jet.v, result.v[index])
            result.ev[index] = np.where(first | np.any(better, axis=0), jet.ev, result.ev[index])
            result.d[:, index] = np.where(better, jet.d, result.d[:, index])
            result.ed[:, index] = np.where(better, jet.ed, result.ed[:, index])
            rel[:, index] = np.where(better, new_rel, old)
        pending &= ~np.all(rel <= TOLERANCE, axis=0)
        if not np.any(pending):
            break
    if not complex_result:
        result = Jet(result.v.real, result.d.real, result.ev, result.ed)
    return result


def _variables(*values: Any) -> list[Jet]:
    """Jets of the parameters: given jets as they are (derivatives in the caller's parameters),
    arrays as the parameters themselves (one direction each)."""
    if any(isinstance(v, Jet) for v in values):
        k = next(v.k for v in values if isinstance(v, Jet))
        n = next(v.v.shape for v in values if isinstance(v, Jet))
        return [v if isinstance(v, Jet) else Jet.constant(v, k, shape=n) for v in values]
    k = len(values)
    return [Jet.variable(v, i, k) for i, v in enumerate(values)]


def _terms(z: np.ndarray) -> np.ndarray:
    """A term budget growing with the argument (the series of 1F1 and 0F1 peak near ``|z|``)."""
    return (600 + 3 * np.abs(z)).astype(np.int64)


# ---- 2F1 --------------------------------------------------------------------------------------------
def hyp2f1_jet(a: Any, b: Any, c: Any, z: np.ndarray) -> Jet:
    """2F1(a, b; c; z) and its derivatives in (a, b, c) (1-D float64 parameters, real or complex z).

    Parameters given as jets are differentiated in the caller's parameters instead.
    """
    n = z.shape[0]
    A, B, C = _variables(a, b, c)
    z = np.asarray(z)
    complex_z = z.dtype.kind == "c"
    with np.errstate(all="ignore"):
        w = z / (z - 1)
        ratios = [np.abs(z), np.abs(w), np.abs(w), np.abs(1 - z), 1 / np.abs(z), 1 / np.abs(1 - z),
                  np.abs(1 - 1 / z), np.where(z == 1, 0.0, np.inf)]
        # a numerator parameter that is a non-positive integer and not differentiated ends
        # the series (a polynomial in z): the direct sum then converges for every z
        for P in (A, B):
            if not np.any(P.d != 0):
                ratios[0] = np.where((P.v <= 0) & (P.v == np.round(P.v)), 0.0, ratios[0])
        if not complex_z:  # for real z > 1 only the terminating series are defined (the cut)
            for i in (3, 4, 5, 6):
                ratios[i] = np.where(z > 1, np.inf, ratios[i])
            ratios[4] = np.where(z < 0, ratios[4], np.inf)
            ratios[5] = np.where(z < 1, ratios[5], np.inf)
            ratios[6] = np.where(z > 0, ratios[6], np.inf)

    def take(index: np.ndarray) -> tuple[Jet, Jet, Jet, np.ndarray]:
        return A.take(index), B.take(index), C.take(index), z[index]

    def direct(index: np.ndarray) -> Jet:
        a_, b_, c_, z_ = take(index)
        return pfq_jet([a_, b_], [c_], z_)

    def pfaff_a(index: np.ndarray) -> Jet:
        a_, b_, c_, z_ = take(index)
        return power(1 - z_, -a_) * pfq_jet([a_, c_ - b_], [c_], z_ / (z_ - 1))

    def pfaff_b(index: np.ndarray) -> Jet:
        a_, b_, c_, z_ = take(index)
        return power(1 - z_, -b_) * pfq_jet([c_ - a_, b_], [c_], z_ / (z_ - 1))

    def one_minus_z(index: np.ndarray) -> Jet:
        a_, b_, c_, z_ = take(index)
        s = c_ - a_ - b_
        t1 = gamma_ratio([c_, s], [c_ - a_, c_ - b_]) * pfq_jet([a_, b_], [1 - s], 1 - z_)
        t2 = (power(1 - z_, s) * gamma_ratio([c_, -s], [a_, b_])) * pfq_jet([c_ - a_, c_ - b_], [s + 1], 1 - z_)
        return t1 + t2

    def inverse_z(index: np.ndarray) -> Jet:
        a_, b_, c_, z_ = take(index)
        t1 = gamma_ratio([c_, b_ - a_], [b_, c_ - a_]) * power(-z_, -a_) * pfq_jet([a_, a_ - c_ + 1], [a_ - b_ + 1],
                                                                                    1 / z_)
        t2 = gamma_ratio([c_, a_ - b_], [a_, c_ - b_]) * power(-z_, -b_) * pfq_jet([b_, b_ - c_ + 1], [b_ - a_ + 1],
                                                                                    1 / z_)
        return t1 + t2

    def inverse_one_minus_z(index: np.ndarray) -> Jet:
        a_, b_, c_, z_ = take(index)
        t1 = gamma_ratio([c_, b_ - a_], [b_, c_ - a_]) * power(1 - z_, -a_) * pfq_jet([a_, c_ - b_], [a_ - b_ + 1],
                                                                                       1 / (1 - z_))
        t2 = gamma_ratio([c_, a_ - b_], [a_, c_ - b_]) * power(1 - z_, -b_) * pfq_jet([b_, c_ - a_], [b_ - a_ + 1],
                                                                                       1 / (1 - z_))
        return t1 + t2

    def one_minus_inverse_z(index: np.ndarray) -> Jet:
        a_, b_, c_, z_ = take(index)
        s = c_ - a_ - b_
        t1 = gamma_ratio([c_, s], [c_ - a_, c_ - b_]) * power(z_, -a_) * pfq_jet([a_, a_ - c_ + 1], [1 - s],
                                                                                 1 - 1 / z_)
        t2 = (gamma_ratio([c_, -s], [a_, b_]) * power(1 - z_, s) * power(z_, a_ - c_)
              * pfq_jet([c_ - a_, 1 - a_], [s + 1], 1 - 1 / z_))
        return t1 + t2

    def gauss(index: np.ndarray) -> Jet:
        a_, b_, c_, _ = take(index)
        s = c_ - a_ - b_
        out = gamma_ratio([c_, s], [c_ - a_, c_ - b_])
        if complex_z:
            out = out * Jet.constant(np.ones(index.size, np.complex128), A.k)
        return out

    return best_of(n, A.k, [direct, pfaff_a, pfaff_b, one_minus_z, inverse_z, inverse_one_minus_z,
                          one_minus_inverse_z, gauss], ratios,
                   preferred=[True, True, True, False, False, False, False, True], tries=4)


# ---- 1F1 and 0F1 ------------------------------------------------------------------------------------
def hyp1f1_jet(a: Any, b: Any, z: np.ndarray) -> Jet:
    """1F1(a; b; z) and its derivatives in (a, b) (1-D float64 parameters, real or complex z).

    Parameters given as jets are differentiated in the caller's parameters instead.
    """
    n = z.shape[0]
    A, B = _variables(a, b)
    z = np.asarray(z)
    budget = _terms(z)

    def direct(index: np.ndarray) -> Jet:
        return pfq_jet([A.take(index)], [B.take(index)], z[index], budget[index])

    def kummer(index: np.ndarray) -> Jet:
        a_, b_, z_ = A.take(index), B.take(index), z[index]
        return Jet.constant(np.exp(z_), A.k, FUNCTION_ERROR * np.abs(np.exp(z_)) * (1 + np.abs(z_))) * pfq_jet(
            [b_ - a_], [b_], -z_, budget[index])

    left = np.real(z) < 0
    ratios = [np.where(left, 0.5, 0.0), np.where(left, 0.0, 0.5)]
    return best_of(n, A.k, [direct, kummer], ratios, tries=2)


FUNCTION_ERROR = 8 * U


def _hankel_0f1(b: Jet, z: np.ndarray, max_terms: int = 200) -> Jet:
    """``0F1(; b; z)`` for real ``z < 0`` from Hankel's expansion of ``J_{b-1}`` (DLMF 10.17.3).

    With ``x = 2 sqrt(-z)`` and ``nu = b - 1``, ``0F1(; b; -x^2/4) = Gamma(b) (x/2)^(1-b)
    J_nu(x)`` (DLMF 10.16.9) and ``J_nu(x) ~ sqrt(2/(pi x)) (cos w P - sin w Q)``,
    ``w = x - nu pi/2 - pi/4``, ``P = sum (-1)^k a_2k / x^2k``, ``Q = sum (-1)^k a_2k+1 /
    x^2k+1``, ``a_k = a_{k-1} (4 nu^2 - (2k-1)^2) / (8k)`` (DLMF 10.17.1). The sums stop
    before their smallest term; the first omitted term (value and derivative), twice, is
    the truncation bound (DLMF 10.17(iii): for real ``nu`` and ``x`` the remainders are
    bounded by the first omitted term once ``k > nu - 1/2``).
    """
    n = z.shape[0]
    k = b.k
    x = 2 * np.sqrt(-z)
    nu = b - 1
    four_nu2 = 4 * nu * nu
    term = Jet.constant(np.ones(n), k)
    P = Jet.constant(np.ones(n), k)
    Q = Jet.constant(np.zeros(n), k)
    active = np.ones(n, dtype=bool)
    omitted_v = np.zeros(n)
    omitted_d = np.zeros((k, n))
    last = np.ones(n)
    for j in range(1, max_terms):
        nxt = term * (four_nu2 - (2 * j - 1) ** 2) * Jet.constant(1.0 / (8 * j * x), k)
        size = np.abs(nxt.v) + np.sum(np.abs(nxt.d), axis=0)
        stop = active & (((size > last) & (j > np.abs(nu.v) + 1))
                         | (size <= U * (np.abs(P.v) + np.abs(Q.v))))
        omitted_v = np.where(stop, np.abs(nxt.v), omitted_v)
        omitted_d = np.where(stop, np.abs(nxt.d), omitted_d)
        active &= ~stop
        if not np.any(active):
            break
        sign = 1.0 if (j // 2) % 2 == 0 else -1.0
        keep = Jet(np.where(active, sign * nxt.v, 0.0), np.where(active, sign * nxt.d, 0.0),
                   np.where(active, nxt.ev, 0.0), np.where(active, nxt.ed, 0.0))
        if j % 2 == 0:
            P = P + keep
        else:
            Q = Q + keep
        term = nxt
        last = np.where(active, size, last)
    omitted_v = np.where(active, np.inf, omitted_v)
    omitted_d = np.where(active, np.inf, omitted_d)
    P = Jet(P.v, P.d, P.ev + 2 * omitted_v, P.ed + 2 * omitted_d)
    Q = Jet(Q.v, Q.d, Q.ev + 2 * omitted_v, Q.ed + 2 * omitted_d)
    w = Jet.constant(x - np.pi / 4, k, error=2 * U * x) - nu * (np.pi / 2)
    bessel = Jet.constant(np.sqrt(2 / (np.pi * x)), k, error=2 * U * np.sqrt(2 / (np.pi * x))) * (
        cos(w) * P - sin(w) * Q)
    return gamma_ratio([b], []) * power(x / 2, 1 - b) * bessel


def hyp0f1_jet(b: np.ndarray, z: np.ndarray) -> Jet:
    """0F1(; b; z) and its derivative in b (1-D float64 parameter, real or complex z).

    The series, and for real ``z < 0`` Hankel's expansion (:func:`_hankel_0f1`), where the
    series cancels (``|z|`` beyond a few tens).
    """
    n = z.shape[0]
    (B,) = _variables(b)
    z = np.asarray(z)
    real_negative = (np.imag(z) == 0) & (np.real(z) < 0)
    x = 2 * np.sqrt(np.abs(z))

    def series(index: np.ndarray) -> Jet:
        return pfq_jet([], [B.take(index)], z[index], _terms(x[index] * 2))

    def hankel(index: np.ndarray) -> Jet:
        out = _hankel_0f1(B.take(index), np.real(z[index]))
        if z.dtype.kind == "c":
            out = out * Jet.constant(np.ones(index.size, np.complex128), 1)
        return out

    with np.errstate(all="ignore"):
        ratios = [np.minimum(x / 40, 0.9), np.where(real_negative, np.minimum(10 * (np.abs(b - 1) + 1) / x, 0.9),
                                                    np.inf)]
    return best_of(n, 1, [series, hankel], ratios, tries=2)


# ---- U ----------------------------------------------------------------------------------------------
def _asymptotic_u(a: Jet, b: Jet, z: np.ndarray, max_terms: int = 200) -> Jet:
    """``z^-a sum_s (a)_s (a-b+1)_s / s! (-z)^-s`` (DLMF 13.7.3), truncated before the smallest term.

    The error bound is the first omitted term (value and derivatives, absolute) times 2,
    plus the rounding bound of the sum; elements whose terms never decrease below the
    tolerance get an infinite bound.
    """
    n = z.shape[0]
    k = a.k
    x = a - b + 1
    T = Jet.constant(np.ones(n), k)
    S = Jet.constant(np.ones(n), k)
    active = np.ones(n, dtype=bool)
    omitted_v = np.zeros(n)
    omitted_d = np.zeros((k, n))
    inv = -1.0 / z
    last = np.abs(T.v) + np.sum(np.abs(T.d), axis=0)
    for s in range(max_terms):
        nxt = T * (a + s) * (x + s) * Jet.constant(inv / (s + 1), k)
        size = np.abs(nxt.v) + np.sum(np.abs(nxt.d), axis=0)
        # stop before the terms start growing (the smallest term), or once negligible
        stop = active & ((size > last) | (size <= U * (np.abs(S.v) + np.sum(np.abs(S.d), axis=0))))
        omitted_v = np.where(stop, np.abs(nxt.v), omitted_v)
        omitted_d = np.where(stop, np.abs(nxt.d), omitted_d)
        active &= ~stop
        if not np.any(active):
            break
        keep = Jet(np.where(active, nxt.v, 0.0), np.where(active, nxt.d, 0.0), np.where(active, nxt.ev, 0.0),
                   np.where(active, nxt.ed, 0.0))
        S = S + keep
        T = nxt
        last = np.where(active, size, last)
    omitted_v = np.where(active, np.inf, omitted_v)
    omitted_d = np.where(active, np.inf, omitted_d)
    S = Jet(S.v, S.d, S.ev + 2 * omitted_v, S.ed + 2 * omitted_d)
    return power(z, -a) * S


def _u_integral(a: Jet, b: Jet, z: np.ndarray) -> Jet:
    """``U(a, b, z)`` for ``a >= 1`` from its integral (DLMF 13.4.4), by exp-sinh quadrature.

    ``U = z^-a / Gamma(a) int_0^inf e^-s s^(a-1) (1 + s/z)^(b-a-1) ds``; with ``f`` the
    integrand, ``d/da (z^-a int f) = -z^-a int f log1p(z/s)`` and ``d/db = z^-a int f
    log1p(s/z)``: all three integrands have one sign, so the sums do not cancel. The nodes
    (:func:`~chainrules.rulesets.special._quadrature.exp_sinh`) are centred on the
    integrand's peak ``s0``, the positive root of ``s^2 + (z - b + 2) s - (a - 1) z = 0``;
    the omitted left tail is bounded by ``s_min^a / a``.
    """
    k = a.k
    av, bv = a.v[:, None], b.v[:, None]
    zc = z[:, None]
    with np.errstate(all="ignore"):
        lin = z - b.v + 2
        s0 = (np.sqrt(lin * lin + 4 * np.maximum(a.v - 1, 0) * z) - lin) / 2
        s0 = np.where(np.isfinite(s0), np.clip(s0, 1e-2 * np.minimum(1.0, z), None), 1.0)

    def integrands(s: np.ndarray) -> list[np.ndarray]:
        l1 = np.log1p(s / zc)
        f = np.exp((av - 1) * np.log(s) + (bv - av - 1) * l1 - s)
        return [f, -f * np.log1p(zc / s), f * l1]

    (i0, e0), (ia, ea), (ib, eb) = exp_sinh(integrands, s0, tails=False)
    with np.errstate(all="ignore"):
        smin = s0 * exp_sinh_nodes()[0]
        tail = smin ** a.v / a.v * np.maximum(1.0, (1 + smin / z) ** (b.v - a.v - 1))
    e0 = e0 + tail
    ea = ea + tail * (np.abs(np.log(smin)) + 1 / a.v)
    eb = eb + tail
    zpow = z ** -a.v
    # G = z^-a int f as a jet in (a, b): its derivatives are the integrals above (times z^-a)
    d = np.zeros((k, z.size))
    ed = np.zeros((k, z.size))
    for i in range(k):
        d[i] = zpow * (ia * a.d[i] + ib * b.d[i])
        ed[i] = zpow * (ea * np.abs(a.d[i]) + eb * np.abs(b.d[i]))
    G = Jet(zpow * i0, d, zpow * e0 + FUNCTION_ERROR * np.abs(zpow * i0) * (1 + np.abs(a.v * np.log(z))), ed)
    return rgamma(a) * G


def _u_recurrence(a: Jet, b: Jet, z: np.ndarray, max_steps: int = 60) -> Jet:
    """``U(a, b, z)`` for any real ``a``: the integral at ``a + n`` and ``a + n + 1`` (``a + n >= 1``),
    then ``n`` steps of ``U(a) = -(b - 2a - 2 - z) U(a + 1) - (a + 1)(a - b + 2) U(a + 2)``
    (DLMF 13.3.7), the direction in which ``U`` is the recessive solution (stable).

    For ``a < 1`` and ``b < 1`` Kummer's relation ``U(a, b, z) = z^(1-b) U(a - b + 1, 2 - b, z)``
    (DLMF 13.2.40) is applied first (a larger first parameter, fewer steps).
    """
    swap = (b.v < 1) & (a.v < 1)
    out = Jet.constant(np.full(z.size, np.nan), a.k, np.inf)
    out.ed[:] = np.inf
    for flip in (False, True):
        index = np.flatnonzero(swap == flip)
        if index.size == 0:
            continue
        a_, b_, z_ = a.take(index), b.take(index), z[index]
        if flip:
            a_, b_ = a_ - b_ + 1, 2 - b_
        steps = np.maximum(0, np.ceil(1 - a_.v)).astype(np.int64)
        ok = steps <= max_steps
        steps = np.where(ok, steps, 0)
        n = steps.astype(np.float64)
        u1 = _u_integral(a_ + n, b_, z_)
        u2 = _u_integral(a_ + n + 1, b_, z_)
        for j in range(int(steps.max(initial=0)) - 1, -1, -1):
            live = steps > j
            if not np.any(live):
                continue
            aj = a_ + float(j) if False else a_ + np.where(live, float(j), n)
            u0 = -(b_ - 2 * aj - 2 - z_) * u1 - (aj + 1) * (aj - b_ + 2) * u2
            u2 = Jet(np.where(live, u1.v, u2.v), np.where(live, u1.d, u2.d), np.where(live, u1.ev, u2.ev),
                     np.where(live, u1.ed, u2.ed))
            u1 = Jet(np.where(live, u0.v, u1.v), np.where(live, u0.d, u1.d), np.where(live, u0.ev, u1.ev),
                     np.where(live, u0.ed, u1.ed))
        if flip:
            u1 = power(z_, 1 - b.take(index)) * u1
        u1.ev[~ok] = np.inf
        u1.ed[:, ~ok] = np.inf
        out.put(index, u1)
    return out


def hyperu_jet(a: Any, b: Any, z: np.ndarray) -> Jet:
    """U(a, b, z) and its derivatives in (a, b) (1-D float64 arrays, ``z > 0``).

    Parameters given as jets are differentiated in the caller's parameters instead.
    """
    n = z.shape[0]
    A, B = _variables(a, b)
    budget = _terms(z)

    def kummer_pair(index: np.ndarray) -> Jet:
        a_, b_, z_ = A.take(index), B.take(index), z[index]
        t1 = gamma_ratio([1 - b_], [a_ - b_ + 1]) * pfq_jet([a_], [b_], z_, budget[index])
        t2 = (gamma_ratio([b_ - 1], [a_]) * power(z_, 1 - b_)) * pfq_jet([a_ - b_ + 1], [2 - b_], z_, budget[index])
        return t1 + t2

    def integral(index: np.ndarray) -> Jet:
        return _u_recurrence(A.take(index), B.take(index), z[index])

    def asymptotic(index: np.ndarray) -> Jet:
        return _asymptotic_u(A.take(index), B.take(index), z[index])

    with np.errstate(all="ignore"):
        size = np.abs(A.v) + np.abs(A.v - B.v + 1) + 1
        ratios = [np.minimum(z / 4, 0.9), np.full(n, 0.5), np.minimum(4 * size / z, 0.9)]
    return best_of(n, A.k, [kummer_pair, integral, asymptotic], ratios, tries=3)
