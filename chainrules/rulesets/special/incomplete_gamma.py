"""Regularised incomplete gamma functions and their inverses, in every argument (the shape ``a`` too).

Rules for ``gammainc`` ``P(a, x)``, ``gammaincc`` ``Q(a, x) = 1 - P(a, x)``,
``gammaincinv`` (``x`` with ``P(a, x) = p``) and ``gammainccinv`` (``x`` with
``Q(a, x) = q``), with respect to both arguments.

The maths
---------
**In x** (DLMF 8.8.13): ``dP/dx = -dQ/dx = x^(a-1) e^(-x) / Gamma(a)``, computed in log
space from ``e^L``, ``L = a log x - x - log Gamma(a)``. For ``a >= 10``, ``L`` is written as
``a (log1p(d) - d) + log(a / 2 pi)/2 - S(a)`` with ``d = (x - a)/a`` and Stirling's
correction ``S`` (Temme's form of the prefactor, also used by DiDonato & Morris 1986, ACM
TOMS 12:377; DLMF 8.12), which keeps the relative accuracy of ``e^L`` at the level of
rounding where the naive ``a log x - x - gammaln(a)`` subtracts numbers of size ``a log a``.

**In a** there is no closed form. Following Moore (1982), "Algorithm AS 187: derivatives
of the incomplete gamma integral", *Appl. Statist.* 31:330, the derivative is carried
through the same expansions that compute the function:

* ``x < a + 1`` (and ``x > 0``): the series DLMF 8.7.1, ``P = e^L sum_n c_n`` with
  ``c_0 = 1/a``, ``c_n = c_(n-1) x / (a + n)``. Differentiating each term,
  ``dP/da = e^L sum_n c_n (log x - psi(a + n + 1))`` (the log-derivative of
  ``x^(a+n) / Gamma(a+n+1)``); ``log x - psi(a + n + 1)`` is built by the recurrence
  ``psi(t + 1) = psi(t) + 1/t`` from ``log x - psi(a + 1)``, computed without cancellation
  for large ``a`` (:func:`~chainrules.rulesets.special._gamma_tools.log_minus_psi`). The terms
  decrease from the first (``x/(a+n) < 1``) and the sum stops when both the term and its
  derivative are below ``2^-53`` of the partial sums.
* ``x >= a + 1``: Legendre's continued fraction DLMF 8.9.2,
  ``Q = e^L / (b_0 + a_1/(b_1 + a_2/(b_2 + ...)))`` with ``b_n = x + 2n + 1 - a`` and
  ``a_n = n (a - n)``. The convergents ``A_n / B_n`` obey ``A_n = b_n A_(n-1) + a_n A_(n-2)``;
  differentiating that recurrence in ``a`` (``db_n/da = -1``, ``da_n/da = n``) gives the
  derivative of every convergent alongside it (AS 187's scheme; the same four sequences are
  rescaled together, so the ratios are exact). Then
  ``dQ/da = Q (log x - psi(a)) - e^L f'/f^2``; both terms are positive (no cancellation).
  For integer ``a`` the fraction terminates (``a_n = 0`` at ``n = a``) while its derivative
  does not: the recurrence handles both.

``dP/da = -dQ/da`` is one number, computed on the side where its expansion converges;
since it is the same quantity either way, it has full relative accuracy whether ``P`` or
``Q`` is close to 1 (no ``1 - P`` cancellation). Both expansions need ``O(sqrt(a))`` terms
near the transition ``x ~ a``; at most :data:`MAX_TERMS` terms are summed (enough up to
``a ~ 1e6``), and an argument whose expansion did not converge in that budget gets a
``not_implemented`` cotangent instead of a loose number. At the edges: ``P(a, 0) = 0`` and
``P(a, inf) = 1`` for every ``a`` (the derivative in ``a`` is 0); at ``a = 0`` SciPy
returns the limit ``P(0, x) = 1`` and the one-sided derivative is ``dP/da = -E_1(x)``
(DLMF 8.4.4 and 8.19.1).

**Inverses** by the implicit function theorem at the computed ``x``: ``P(a, x) = p`` gives
``dx/dp = 1 / (dP/dx)`` and ``dx/da = -(dP/da) / (dP/dx)``; for ``Q(a, x) = q``,
``dx/dq = -1 / (dP/dx)`` and the same ``dx/da``. At ``p = 0`` (``x = 0`` for every ``a``)
``dx/da = 0``; at ``p = 1`` (``x = inf``) it is NaN and ``dx/dp = inf``.

Private API (for the distribution rules, here and in ``scipy.stats``)
---------------------------------------------------------------------
:func:`gammainc_partials` ``(a, x) -> (dP/da, dP/dx)`` (the partials of ``Q`` are their
negatives), :func:`gammainc_da` and :func:`gammainc_dx` separately, and
:func:`gammaincinv_partials` ``(a, x) -> (dx/da, dx/dp)`` at a solution ``x`` of
``P(a, x) = p``. They take anything broadcastable, compute in float64 and return float64
arrays of the broadcast shape; ``gammainc_da`` returns a ``NotImplementedTangent`` when
an expansion did not converge (check with ``isinstance``).

Accuracy (measured against mpmath at 30 digits, ``tests/.../test_incomplete_gamma.py``):
relative error below 1e-13 for ``dP/da`` on ``a`` in [0.05, 1000], ``x/a`` in [1e-3, 30].

Examples
--------
>>> import numpy as np, scipy.special as sc
>>> import chainrules
>>> from chainrules import rrule, unthunk
>>> y, pullback = rrule(sc.gammainc, 2.5, 1.5)
>>> _, da, dx = pullback(1.0)
>>> round(float(unthunk(da)), 10), round(float(unthunk(dx)), 10)  # dP/dx = x^1.5 e^-x / Gamma(2.5)
(-0.2521754004, 0.3083606596)
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.special as sc

from chainrules.rulesets.special._gamma_tools import log1pmx, log_minus_psi, stirling_correction
from chainrules_core import Sample, not_implemented, sample_inputs, scalar_rule
from chainrules_core.tangents.not_implemented import NotImplementedTangent

__all__ = ["MAX_TERMS", "gammainc_da", "gammainc_dx", "gammainc_partials", "gammaincinv_partials",
           "log_gammainc_dx"]

MAX_TERMS = 20000
"""The most terms of the series or the continued fraction summed for one derivative in ``a``.

Near ``x ~ a`` both expansions need about ``9 sqrt(a)`` terms for full accuracy (measured:
300 at ``a = 1e3``, 9000 at ``a = 1e6``); beyond the budget the cotangent is
``not_implemented``."""

_EPS = 2.0 ** -53
_TINY = 1e-300


def _as_float64(*args: Any) -> list[np.ndarray]:
    return [np.array(v, dtype=np.float64) for v in np.broadcast_arrays(*[np.asarray(a) for a in args])]


def _log_prefactor(a: np.ndarray, x: np.ndarray) -> np.ndarray:
    """``L = log(x^a e^-x / Gamma(a))`` (float64 arrays of one shape), accurate for large ``a``."""
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        out = np.asarray(sc.xlogy(a, x) - x - sc.gammaln(a))
        large = (a >= 10) & (x > 0) & np.isfinite(x)
        if np.any(large):
            al, xl = a[large], x[large]
            out[large] = al * log1pmx((xl - al) / al) + 0.5 * np.log(al / (2 * np.pi)) - stirling_correction(al)
    return out


def log_gammainc_dx(a: Any, x: Any) -> np.ndarray:
    """``log(dP/dx) = (a - 1) log x - x - log Gamma(a)``, the log-density of the gamma distribution.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.special.incomplete_gamma import log_gammainc_dx
    >>> float(np.exp(log_gammainc_dx(1.0, 2.0)))  # e^-2
    0.1353352832366127
    """
    a, x = _as_float64(a, x)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.asarray(_log_prefactor(a, x) - np.log(x))
        at_zero = x == 0
        if np.any(at_zero):  # x^(a-1): 0, 1 or inf
            out[at_zero] = sc.xlogy(a[at_zero] - 1, 0.0) - sc.gammaln(a[at_zero])
    return out


def gammainc_dx(a: Any, x: Any) -> np.ndarray:
    """``dP/dx = x^(a-1) e^-x / Gamma(a)`` (DLMF 8.8.13), float64.

    Examples
    --------
    >>> from chainrules.rulesets.special.incomplete_gamma import gammainc_dx
    >>> float(gammainc_dx(1.0, 0.0)), float(gammainc_dx(0.5, 0.0)), float(gammainc_dx(2.0, 0.0))
    (1.0, inf, 0.0)
    """
    return np.exp(log_gammainc_dx(a, x))


def _compact(keep: np.ndarray, *arrays: np.ndarray) -> list[np.ndarray]:
    return [v[keep] for v in arrays]


def _p_series_da(a: np.ndarray, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``sum_n c_n (log x - psi(a+n+1))`` of the series DLMF 8.7.1 (1-D, ``0 < x < a + 1``), and convergence."""
    size = a.size
    total = np.full(size, np.nan)
    done = np.zeros(size, dtype=bool)
    index = np.arange(size)
    c = 1.0 / a
    g = log_minus_psi(x, a + 1)
    s = c.copy()
    d = c * g
    aa, xx = a, x
    for n in range(1, MAX_TERMS + 1):
        c = c * xx / (aa + n)
        g = g - 1.0 / (aa + n)
        term = c * g
        s = s + c
        d = d + term
        finished = (c <= _EPS * s) & (np.abs(term) <= _EPS * np.abs(d))
        if np.any(finished):
            total[index[finished]] = d[finished]
            done[index[finished]] = True
            keep = ~finished
            index, aa, xx, c, g, s, d = _compact(keep, index, aa, xx, c, g, s, d)
            if index.size == 0:
                break
    return total, done


def _q_fraction_da(a: np.ndarray, x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``f`` and ``df/da`` of the continued fraction DLMF 8.9.2 (1-D, ``x >= a + 1``), and convergence."""
    size = a.size
    f_out = np.full(size, np.nan)
    df_out = np.full(size, np.nan)
    done = np.zeros(size, dtype=bool)
    index = np.arange(size)
    aa, xx = a, x
    # convergents A/B of f = b0 + a1/(b1 + a2/(b2 + ...)) and their derivatives in a
    a_prev, a_cur = np.ones(size), xx + 1 - aa
    b_prev, b_cur = np.zeros(size), np.ones(size)
    da_prev, da_cur = np.zeros(size), -np.ones(size)
    db_prev, db_cur = np.zeros(size), np.zeros(size)
    f = a_cur.copy()
    df = -np.ones(size)
    for n in range(1, MAX_TERMS + 1):
        bn = xx + (2 * n + 1) - aa
        an = n * (aa - n)
        a_new = bn * a_cur + an * a_prev
        b_new = bn * b_cur + an * b_prev
        da_new = -a_cur + bn * da_cur + n * a_prev + an * da_prev
        db_new = -b_cur + bn * db_cur + n * b_prev + an * db_prev
        scale = 1.0 / np.maximum(np.abs(a_new), _TINY)
        a_prev, a_cur = a_cur * scale, a_new * scale
        b_prev, b_cur = b_cur * scale, b_new * scale
        da_prev, da_cur = da_cur * scale, da_new * scale
        db_prev, db_cur = db_cur * scale, db_new * scale
        f_new = a_cur / b_cur
        df_new = (da_cur - f_new * db_cur) / b_cur
        finished = (np.abs(f_new - f) <= _EPS * np.abs(f_new)) & (np.abs(df_new - df) <= _EPS * np.abs(df_new))
        f, df = f_new, df_new
        if np.any(finished):
            f_out[index[finished]] = f[finished]
            df_out[index[finished]] = df[finished]
            done[index[finished]] = True
            keep = ~finished
            (index, aa, xx, a_prev, a_cur, b_prev, b_cur, da_prev, da_cur, db_prev, db_cur, f,
             df) = _compact(keep, index, aa, xx, a_prev, a_cur, b_prev, b_cur, da_prev, da_cur, db_prev, db_cur,
                            f, df)
            if index.size == 0:
                break
    return f_out, df_out, done


_NOT_CONVERGED = ("d/da of the regularised incomplete gamma function: the series / continued fraction did not "
                  "converge in {terms} terms at a = {a!r}, x = {x!r} (a beyond about 1e6 near x ~ a); no "
                  "derivative of the promised accuracy is available there")


def _dp_da(a: np.ndarray, x: np.ndarray) -> np.ndarray | NotImplementedTangent:
    """``dP/da`` for float64 arrays of one shape."""
    out = np.full(a.shape, np.nan)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore", under="ignore"):
        inside = (a > 0) & (x > 0) & np.isfinite(x) & np.isfinite(a)
        out[(x == 0) & (a > 0)] = 0.0
        out[(x == np.inf) & (a >= 0)] = 0.0
        at_zero = (a == 0) & (x > 0)
        out[at_zero] = -sc.exp1(x[at_zero])
        series = inside & (x < a + 1)
        fraction = inside & ~series
        if np.any(series):
            aa, xx = a[series], x[series]
            total, done = _p_series_da(aa, xx)
            if not np.all(done):
                return _not_converged(aa[~done], xx[~done])
            out[series] = np.exp(_log_prefactor(aa, xx)) * total
        if np.any(fraction):
            aa, xx = a[fraction], x[fraction]
            f, df, done = _q_fraction_da(aa, xx)
            if not np.all(done):
                return _not_converged(aa[~done], xx[~done])
            prefactor = np.exp(_log_prefactor(aa, xx))
            dq_da = prefactor * (log_minus_psi(xx, aa) / f - df / (f * f))
            out[fraction] = -dq_da
    return out


def _not_converged(a: np.ndarray, x: np.ndarray) -> NotImplementedTangent:
    return not_implemented(_NOT_CONVERGED.format(terms=MAX_TERMS, a=float(a[0]), x=float(x[0])))


def gammainc_da(a: Any, x: Any) -> np.ndarray | NotImplementedTangent:
    """``dP/da`` of ``P(a, x) = gammainc(a, x)`` (``-dQ/da``), float64 of the broadcast shape.

    Returns a ``NotImplementedTangent`` if an expansion did not converge within
    :data:`MAX_TERMS` terms at some element (see the module docstring).

    Examples
    --------
    >>> from chainrules.rulesets.special.incomplete_gamma import gammainc_da
    >>> round(float(gammainc_da(1.0, 1.0)), 12)  # small x: the series
    -0.431729710635
    >>> round(float(gammainc_da(1.0, 10.0)), 12)  # large x: the continued fraction
    -0.000134899721
    """
    a, x = _as_float64(a, x)
    out = _dp_da(a, x)
    return out if isinstance(out, NotImplementedTangent) else out[()]


def gammainc_partials(a: Any, x: Any) -> tuple[Any, np.ndarray]:
    """``(dP/da, dP/dx)`` of ``P(a, x) = gammainc(a, x)``; those of ``gammaincc`` are their negatives.

    Examples
    --------
    >>> from chainrules.rulesets.special.incomplete_gamma import gammainc_partials
    >>> da, dx = gammainc_partials([1.0, 2.0], 0.5)
    >>> da.shape, dx.shape
    ((2,), (2,))
    """
    return gammainc_da(a, x), gammainc_dx(a, x)


def gammaincinv_partials(a: Any, x: Any) -> tuple[Any, np.ndarray]:
    """``(dx/da, dx/dp)`` at a solution ``x`` of ``P(a, x) = p`` (the implicit function theorem).

    For ``Q(a, x) = q`` (``gammainccinv``), ``dx/da`` is the same and ``dx/dq = -dx/dp``.

    Examples
    --------
    >>> import scipy.special as sc
    >>> from chainrules.rulesets.special.incomplete_gamma import gammaincinv_partials
    >>> x = sc.gammaincinv(3.0, 0.4)
    >>> dx_da, dx_dp = gammaincinv_partials(3.0, x)
    >>> round(float(dx_dp), 10)  # 1 / (x^2 e^-x / 2)
    3.7637835884
    """
    a, x = _as_float64(a, x)
    log_density = log_gammainc_dx(a, x)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        dx_dp = np.asarray(np.exp(-log_density))
    da = _dp_da(a, x)
    if isinstance(da, NotImplementedTangent):
        return da, dx_dp[()]
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        dx_da = np.asarray(-da * dx_dp)
    dx_da[x == 0] = 0.0
    dx_da[x == np.inf] = np.nan
    return dx_da[()], dx_dp[()]


# ---- rules ---------------------------------------------------------------------------------------------
def _gammainc_a(a: Any, x: Any) -> Any:
    return gammainc_da(a, x)


def _gammainc_x(a: Any, x: Any) -> Any:
    return gammainc_dx(a, x)


def _gammaincc_a(a: Any, x: Any) -> Any:
    da = gammainc_da(a, x)
    return da if isinstance(da, NotImplementedTangent) else -da


def _gammaincc_x(a: Any, x: Any) -> Any:
    return -gammainc_dx(a, x)


def _gammaincinv_a(a: Any, p: Any, x: Any) -> Any:
    return gammaincinv_partials(a, x)[0]


def _gammaincinv_p(a: Any, p: Any, x: Any) -> Any:
    with np.errstate(over="ignore"):
        return np.exp(-log_gammainc_dx(a, x))


def _gammainccinv_q(a: Any, q: Any, x: Any) -> Any:
    with np.errstate(over="ignore"):
        return -np.exp(-log_gammainc_dx(a, x))


scalar_rule(sc.gammainc, _gammainc_a, _gammainc_x)
scalar_rule(sc.gammaincc, _gammaincc_a, _gammaincc_x)
scalar_rule(sc.gammaincinv, _gammaincinv_a, _gammaincinv_p)
scalar_rule(sc.gammainccinv, _gammaincinv_a, _gammainccinv_q)


# ---- samples: one point per regime of the expansions --------------------------------------------------
_A = np.array([0.05, 0.7, 3.0, 3.0, 4.0, 150.0, 150.0])
_X = np.array([1e-3, 0.5, 2.5, 9.0, 30.0, 140.0, 165.0])
_REGIMES = "a small; series; series near x ~ a; fraction; fraction, integer a; large a, series; large a, fraction"


@sample_inputs(sc.gammainc, sc.gammaincc)
def _gammainc_samples() -> Any:
    yield Sample(2.5, 1.5, label="scalars")
    yield Sample(_A, _X, label=_REGIMES)
    yield Sample(_A.astype(np.float32), _X.astype(np.float32), label="float32")
    yield Sample(np.array([[0.8], [6.0]]), np.array([0.3, 7.0, 12.0]), label="broadcast")
    yield Sample(3, np.array([0.5, 8.0]), label="integer a (not differentiated)")


@sample_inputs(sc.gammaincinv, sc.gammainccinv)
def _gammaincinv_samples() -> Any:
    p = np.array([0.01, 0.3, 0.5, 0.9, 0.999, 0.2, 0.95])
    yield Sample(2.5, 0.4, label="scalars")
    yield Sample(_A[1:], p[1:], label="shapes from small to large, p from 0.3 to 0.999")
    yield Sample(_A[1:].astype(np.float32), p[1:].astype(np.float32), label="float32", rtol=1e-3)
    yield Sample(np.array([[0.8], [6.0]]), np.array([0.1, 0.6]), label="broadcast")
