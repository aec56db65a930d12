"""The hypergeometric series with its derivatives in the parameters, and bounds on its errors.

``pFq(a; b; z) = sum_k T_k``, ``T_{k+1} = T_k r_k``, ``r_k = prod(a_i + k) / prod(b_j + k) *
z / (k + 1)`` (DLMF 16.2.1), summed together with the partial derivatives of every term in
every parameter by the product rule on the ratios::

    dT_{k+1}/dp = dT_k/dp * r_k + T_k * dr_k/dp,
    dr_k/da_i = prod_{l != i}(a_l + k) / prod(b_j + k) * z / (k + 1),   dr_k/db_j = -r_k / (b_j + k).

This is the term-by-term differentiated series (for 2F1, Ancarani and Gasaneo, *J. Math.
Phys.* 50, 063508 (2009), eq. (9); for 1F1 the same with one numerator parameter):
``dF/da = sum_k T_k (psi(a+k) - psi(a))``, but the recurrence never divides by ``a + k``, so
``a = -n`` (a terminating series, whose derivative in ``a`` is *not* terminating) needs no
special case.

Error bounds (returned with the sums, for the callers' accept/fallback decisions):

* rounding: each term carries a relative error of at most about ``(p + q + 4) k u``
  (``k`` products of ratios of ``p + q + 3`` rounded operations, and the rounding of ``z``
  itself, whose effect ``z dF/dz = sum k T_k`` has the same form); the bound used is
  ``8 u sum_k (k + 1) |T_k|`` for the value and the same with the absolute recurrence
  ``|dT_{k+1}| <= |dT_k| |r_k| + |T_k| |dr_k|`` for each derivative. Cancellation between
  terms shows up as a bound much larger than the sum.
* truncation: once the ratios have settled (``k`` past twice the largest parameter, and
  ``|r_j| <= rho < 1`` for ``j >= k``: ``rho = |r_k|`` for ``p <= q``, ``max(|r_k|, |z|)``
  for ``p = q + 1``), the tail is at most ``|T_k| rho / (1 - rho)`` and, for a derivative,
  ``rho/(1 - rho) (|dT_k| + |T_k| g / (1 - rho))`` with ``g = 1 / |p + k|``. Summation
  stops when both are below ``u`` times the sums of absolute values; elements not converged
  after ``max_terms`` get an infinite bound.

Examples
--------
>>> import numpy as np
>>> from scipy.special import hyp1f1, psi
>>> from chainrules.rulesets.special._jet import Jet
>>> from chainrules.rulesets.special._hypergeometric_series import pfq_jet
>>> a, b = Jet.variable(np.array([0.5]), 0, 2), Jet.variable(np.array([1.5]), 1, 2)
>>> f = pfq_jet([a], [b], np.array([2.0]))
>>> bool(np.isclose(f.v[0], hyp1f1(0.5, 1.5, 2.0), rtol=1e-15)), bool(f.ed.max() < 1e-13)
(True, True)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from chainrules.rulesets.special._jet import Jet, U

__all__ = ["pfq_jet"]

_ROUNDING = 8.0  # the constant of the rounding bound, in units of U per term index


def pfq_jet(a: list[Jet], b: list[Jet], z: Any, max_terms: int | Any = 2000) -> Jet:
    """``pFq(a; b; z)`` as a :class:`Jet` in the parameters of ``a`` and ``b`` (all 1-D, same length).

    Parameters
    ----------
    a, b : list of Jet
        The numerator and denominator parameters (real), as jets in the caller's parameters.
    z : ndarray
        The argument (real or complex), exact or rounded to a few ulps (covered by the bound).
    max_terms : int or ndarray
        At most this many terms per element; elements that have not converged by then get
        an infinite error bound.

    Returns
    -------
    Jet
        The sum and its partial derivatives in the caller's parameters, with error bounds
        (rounding, truncation, and the parameters' own errors to first order).
    """
    p, q = len(a), len(b)
    params = [x.v for x in a] + [x.v for x in b]
    k_out = (a or b)[0].k
    z = np.asarray(z)
    n = z.shape[0]
    cdtype = np.result_type(z.dtype, np.float64)
    m = p + q
    # parameters that do not depend on the caller's (an integer degree held fixed) are not
    # differentiated: their derivative series would only delay convergence (it does not
    # terminate with a terminating series)
    needed = np.array([bool(np.any(x.d != 0)) for x in list(a) + list(b)], dtype=bool)
    value = np.zeros(n, cdtype)
    deriv = np.zeros((m, n), cdtype)
    abs_value = np.zeros(n)
    err_value = np.full(n, np.inf)
    err_deriv = np.full((m, n), np.inf)
    limit = np.broadcast_to(np.asarray(max_terms), (n,))

    # state of the active elements
    idx = np.arange(n)
    pv = [np.asarray(x, dtype=np.float64).copy() for x in params]
    zz = z.astype(cdtype)
    azz = np.abs(zz)
    T = np.ones(n, cdtype)
    Ud = np.zeros((m, n), cdtype)
    Ua = np.zeros((m, n))
    S = np.ones(n, cdtype)
    D = np.zeros((m, n), cdtype)
    AT = np.ones(n)  # sum (k+1) |T_k|
    A0 = np.ones(n)  # sum |T_k|
    AU = np.zeros((m, n))  # sum (k+1) |dT_k| (absolute recurrence)
    AU0 = np.zeros((m, n))
    settle = 2.0 * np.max(np.abs(np.stack(pv)), axis=0) + 4 if m else np.full(n, 4.0)
    settle = np.minimum(settle, np.asarray(limit, dtype=np.float64))
    lim = np.asarray(limit, dtype=np.float64)
    k = 0
    with np.errstate(all="ignore"):
        while idx.size:
            fac = [x + k for x in pv]
            den = np.ones_like(azz) * (k + 1)
            for j in range(p, m):
                den = den * fac[j]
            num = np.ones_like(azz)
            for i in range(p):
                num = num * fac[i]
            zd = zz / den
            r = num * zd
            dr = []
            for i in range(p):
                other = np.ones_like(azz)
                for l in range(p):
                    if l != i:
                        other = other * fac[l]
                dr.append(other * zd)
            for j in range(p, m):
                dr.append(-r / fac[j])
            ar = np.abs(r)
            aT = np.abs(T)
            for i in range(m):
                if needed[i]:
                    Ud[i] = Ud[i] * r + T * dr[i]
                    Ua[i] = Ua[i] * ar + aT * np.abs(dr[i])
            T = T * r
            k += 1
            aT = np.abs(T)
            S = S + T
            D = D + Ud
            AT = AT + (k + 1) * aT
            A0 = A0 + aT
            AU = AU + (k + 1) * Ua
            AU0 = AU0 + Ua
            # tail bounds (valid once the ratios have settled)
            if p <= q:
                rho = ar
            else:
                rho = np.maximum(ar, azz)
            ok = (k >= settle) & (rho < 1)
            q1 = rho / (1 - rho)
            tail_T = aT * q1
            g = np.stack([1.0 / np.abs(x) for x in fac]) if m else np.zeros((0, idx.size))
            tail_U = q1 * (Ua + np.where(aT == 0, 0.0, aT * g) / (1 - rho))
            # a terminating series (T and every needed derivative term exactly zero) is done
            terminated = (aT == 0) & np.all(Ua[needed] == 0, axis=0)
            tail_T = np.where(terminated, 0.0, tail_T)
            tail_U = np.where(terminated, 0.0, tail_U)
            done = terminated | (ok & (tail_T <= U * A0)
                                 & np.all(tail_U[needed] <= U * np.maximum(AU0[needed], 1e-300), axis=0))
            # non-finite sums will not converge: stop them (their bound stays infinite)
            bad = ~np.isfinite(S) | ~np.all(np.isfinite(D), axis=0)
            over = k >= lim
            stop = done | bad | over
            if np.any(stop):
                out = idx[stop]
                value[out] = S[stop]
                deriv[:, out] = D[:, stop]
                abs_value[out] = A0[stop]
                conv = done[stop] & ~bad[stop]
                ev = np.where(conv, _ROUNDING * U * AT[stop] + tail_T[stop], np.inf)
                ed = np.where(conv, _ROUNDING * U * AU[:, stop] + tail_U[:, stop], np.inf)
                err_value[out] = ev
                err_deriv[:, out] = ed
                keep = ~stop
                idx = idx[keep]
                pv = [x[keep] for x in pv]
                zz, azz, T, S, AT, A0 = zz[keep], azz[keep], T[keep], S[keep], AT[keep], A0[keep]
                Ud, Ua, D, AU, AU0 = Ud[:, keep], Ua[:, keep], D[:, keep], AU[:, keep], AU0[:, keep]
                settle, lim = settle[keep], lim[keep]

    # chain rule to the caller's parameters, with the parameters' own errors
    d = np.zeros((k_out, n), cdtype)
    ed_out = np.zeros((k_out, n))
    ev_out = err_value.copy()
    err_deriv[~needed] = 0.0
    for i, x in enumerate(list(a) + list(b)):
        if not needed[i]:
            ev_out = ev_out + np.abs(deriv[i]) * x.ev
            continue
        d = d + deriv[i] * x.d
        ed_out = ed_out + err_deriv[i] * np.abs(x.d) + np.abs(deriv[i]) * x.ed
        ev_out = ev_out + np.abs(deriv[i]) * x.ev
    return Jet(value, d, ev_out, ed_out)
