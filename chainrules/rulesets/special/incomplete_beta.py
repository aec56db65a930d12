"""Regularised incomplete beta functions and their inverses, in every argument (``a`` and ``b`` too).

Rules for ``betainc`` ``I_x(a, b)``, ``betaincc`` ``1 - I_x(a, b)``, ``betaincinv`` (``x``
with ``I_x(a, b) = y``) and ``betainccinv`` (``x`` with ``1 - I_x(a, b) = y``), with
respect to all three arguments.

The maths
---------
**In x** (DLMF 8.17.2): ``dI/dx = x^(a-1) (1-x)^(b-1) / B(a, b)``, computed in log space.

**In a and b** there is no closed form. Following Boik & Robison-Cox (1998), "Derivatives
of the incomplete beta function", *J. Statist. Software* 3(1), the derivatives are carried
through the continued fraction that computes the function (DLMF 8.17.22):

``I_x(a, b) = K F``, ``K = x^a (1-x)^b / (a B(a, b))``, ``F = 1 / (1 + d_1/(1 + d_2/(1 + ...)))``,

``d_(2m+1) = -(a+m)(a+b+m) x / ((a+2m)(a+2m+1))``, ``d_(2m) = m (b-m) x / ((a+2m-1)(a+2m))``.

The convergents ``A_n / B_n`` of the fraction obey ``A_n = A_(n-1) + d_n A_(n-2)``;
differentiating that recurrence in ``a`` and in ``b`` (the partials of ``d_n`` are
rational, written so that nothing cancels: ``1/(a+m) - 1/(a+2m) = m/((a+m)(a+2m))``)
gives the derivatives of every convergent with it; all sequences are rescaled together.
Then ``dI/da = K (F d(log K)/da + dF/da)`` with
``d(log K)/da = log x - psi(a+1) + psi(a+b)`` and ``d(log K)/db = log(1-x) - psi(b) + psi(a+b)``
(digamma differences without cancellation for large parameters,
:func:`~chainrules.rulesets.special._gamma_tools.psi_increment`).

The fraction converges fast for ``x <= (a+1)/(a+b+2)`` (DLMF 8.17.22, Numerical Recipes
6.4); above, the symmetry ``I_x(a, b) = 1 - I_(1-x)(b, a)`` (DLMF 8.17.4) is used with
the roles of ``a`` and ``b`` swapped: ``dI/da = -dJ/d(second)``, ``dI/db = -dJ/d(first)``
for ``J = I_(1-x)(b, a)``, so the derivative never comes from ``1 - (value near 1)``. Near
the mode with large ``a + b`` the fraction needs ``O(sqrt(a + b))`` terms; at most
:data:`MAX_TERMS` are summed (enough for ``a + b`` up to about ``1e7``), and beyond that
budget the cotangent is ``not_implemented``. At ``x = 0`` and ``x = 1`` the function is
0 or 1 for every ``a, b > 0`` and the derivatives in ``a`` and ``b`` are 0. SciPy returns
the limits ``I = 1`` at ``a = 0`` and ``I = 0`` at ``b = 0``; the derivatives in ``a`` and
``b`` are NaN there (as they are outside the domain).

**Inverses** by the implicit function theorem at the computed ``x``:
``dx/dy = 1 / (dI/dx)``, ``dx/da = -(dI/da) / (dI/dx)``, ``dx/db = -(dI/db) / (dI/dx)``;
for ``betainccinv`` ``dx/dy = -1 / (dI/dx)`` and the same ``dx/da``, ``dx/db``. At
``y = 0`` or ``1`` (``x = 0`` or ``1`` for every ``a, b``) ``dx/da = dx/db = 0``.

Private API (for the distribution rules, here and in ``scipy.stats``)
---------------------------------------------------------------------
:func:`betainc_partials` ``(a, b, x) -> (dI/da, dI/db, dI/dx)``, :func:`betainc_dab`
``(a, b, x) -> (dI/da, dI/db)``, :func:`betainc_dx` and :func:`log_betainc_dx`, and
:func:`betaincinv_partials` ``(a, b, x) -> (dx/da, dx/db, dx/dy)`` at a solution ``x`` of
``I_x(a, b) = y``. Broadcastable inputs, float64 outputs of the broadcast shape; where a
fraction did not converge, ``betainc_dab`` returns a ``NotImplementedTangent`` in place
of the pair (check with ``isinstance``).

Examples
--------
>>> import scipy.special as sc
>>> import chainrules
>>> from chainrules import rrule, unthunk
>>> y, pullback = rrule(sc.betainc, 2.0, 3.0, 0.4)
>>> [round(float(unthunk(c)), 10) for c in pullback(1.0)[1:]]  # mpmath: -0.2408693761, 0.1563443364, 1.728
[-0.2408693761, 0.1563443364, 1.728]
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.special as sc

from chainrules.rulesets.special._gamma_tools import log1pmx, psi_increment, stirling_correction
from chainrules_core import Sample, not_implemented, sample_inputs, scalar_rule
from chainrules_core.tangents.not_implemented import NotImplementedTangent

__all__ = ["MAX_TERMS", "betainc_dab", "betainc_dx", "betainc_partials", "betaincinv_partials", "log_betainc_dx"]

MAX_TERMS = 40000
"""The most terms of the continued fraction summed for one derivative in ``a`` and ``b``.

Near the mode the fraction needs about ``6 sqrt(a + b)`` terms (measured: 2000 at
``a = b = 5e4``); beyond the budget the cotangents are ``not_implemented``."""

_EPS = 2.0 ** -53
_TINY = 1e-300


def _as_float64(*args: Any) -> list[np.ndarray]:
    return [np.array(v, dtype=np.float64) for v in np.broadcast_arrays(*[np.asarray(a) for a in args])]


def _scaled_log1pmx(a: np.ndarray, num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """``a (log r - (r - 1))`` for ``r = num / den``: the series near ``r = 1``, else ``log(num) - log(den)``.

    Far from 1, ``log1p(r - 1)`` would take the logarithm of ``1 + (r - 1)``, whose rounding
    is relative to 1, not to ``r`` (``a = 40``, ``r = 2.5e-4``: relative error 1e-11).
    """
    r = num / den
    near = np.abs(r - 1) < 0.3
    with np.errstate(divide="ignore", invalid="ignore"):
        far = np.log(num) - np.log(den) - (r - 1)
    return a * np.where(near, log1pmx(np.where(near, (num - den) / den, 0.0)), far)


def _log_prefactor(a: np.ndarray, b: np.ndarray, x: np.ndarray) -> np.ndarray:
    """``log(x^a (1-x)^b / B(a, b))`` for float64 arrays of one shape, accurate for large ``a``, ``b``.

    ``a log x + b log(1-x) - log B(a, b)`` subtracts numbers of size ``(a + b) log(a + b)``
    (SciPy's ``betaln`` alone is off by 5e-11 at ``(1e4, 2e4)``). DiDonato & Morris (1992,
    ACM TOMS 18:360, "brcomp") combine the terms first, with Stirling's series ``S``
    (DLMF 5.11.1): for ``a, b >= 10``, with ``x0 = a/(a+b)``, ``y0 = b/(a+b)``,
    ``a log1pmx(x/x0 - 1) + b log1pmx((1-x)/y0 - 1) + log(ab/(a+b))/2 - log(2 pi)/2 - S(a) - S(b) + S(a+b)``
    (``log1pmx(u) = log(1 + u) - u``)
    (the linear terms cancel exactly); for ``a >= 10 > b``,
    ``log B = lgamma(b) - (lgamma(a+b) - lgamma(a))`` with the difference
    ``(a - 1/2) log1p(b/a) + b log(a+b) - b + S(a+b) - S(a)`` (and symmetrically).
    """
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        out = np.asarray(sc.xlogy(a, x) + sc.xlog1py(b, -x) - sc.betaln(a, b))
        interior = (x > 0) & (x < 1)
        both = interior & (a >= 10) & (b >= 10)
        if np.any(both):
            aa, bb, xx = a[both], b[both], x[both]
            total = aa + bb
            out[both] = (_scaled_log1pmx(aa, xx * total, aa) + _scaled_log1pmx(bb, (1 - xx) * total, bb)
                         + 0.5 * np.log(aa / total * bb) - 0.5 * np.log(2 * np.pi)
                         - stirling_correction(aa) - stirling_correction(bb) + stirling_correction(total))
        for big, little in ((a, b), (b, a)):
            one = interior & (big >= 10) & (little < 10) & (little > 0)
            if np.any(one):
                p, q = big[one], little[one]
                log_gamma_ratio = ((p - 0.5) * np.log1p(q / p) + q * np.log(p + q) - q  # lgamma(p+q) - lgamma(p)
                                   + stirling_correction(p + q) - stirling_correction(p))
                out[one] = (a[one] * np.log(x[one]) + b[one] * np.log1p(-x[one]) - sc.gammaln(q)
                            + log_gamma_ratio)
    return out


def log_betainc_dx(a: Any, b: Any, x: Any) -> np.ndarray:
    """``log(dI/dx) = (a-1) log x + (b-1) log(1-x) - log B(a, b)``, the beta log-density.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.special.incomplete_beta import log_betainc_dx
    >>> float(np.exp(log_betainc_dx(2.0, 3.0, 0.5)))  # 12 x (1-x)^2
    1.5
    """
    a, b, x = _as_float64(a, b, x)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.asarray(_log_prefactor(a, b, x) - np.log(x) - np.log1p(-x))
        edge = (x == 0) | (x == 1)
        if np.any(edge):  # x^(a-1) (1-x)^(b-1): 0, 1 or inf
            ae, be, xe = a[edge], b[edge], x[edge]
            out[edge] = sc.xlogy(ae - 1, xe) + sc.xlog1py(be - 1, -xe) - sc.betaln(ae, be)
    return out


def betainc_dx(a: Any, b: Any, x: Any) -> np.ndarray:
    """``dI/dx = x^(a-1) (1-x)^(b-1) / B(a, b)`` (DLMF 8.17.2), float64.

    Examples
    --------
    >>> from chainrules.rulesets.special.incomplete_beta import betainc_dx
    >>> float(betainc_dx(2.0, 3.0, 0.5)), float(betainc_dx(0.5, 2.0, 0.0)), float(betainc_dx(2.0, 1.0, 1.0))
    (1.5, inf, 2.0)
    """
    return np.exp(log_betainc_dx(a, b, x))[()]


def _fraction(a: np.ndarray, b: np.ndarray, x: np.ndarray) -> tuple[np.ndarray, ...]:
    """``F``, ``dF/da``, ``dF/db`` of the fraction DLMF 8.17.22 (1-D arrays), and convergence."""
    size = a.size
    out = [np.full(size, np.nan) for _ in range(3)]
    done = np.zeros(size, dtype=bool)
    index = np.arange(size)
    aa, bb, xx = a, b, x
    ones, zeros = np.ones(size), np.zeros(size)
    # convergents of f = 1 + d1/(1 + d2/(1 + ...)): A_-1 = 1, A_0 = 1, B_-1 = 0, B_0 = 1
    p_prev, p_cur, q_prev, q_cur = ones, ones.copy(), zeros, ones.copy()
    pa_prev, pa_cur, qa_prev, qa_cur = zeros, zeros, zeros, zeros
    pb_prev, pb_cur, qb_prev, qb_cur = zeros, zeros, zeros, zeros
    f, fa, fb = ones.copy(), zeros.copy(), zeros.copy()
    for n in range(1, MAX_TERMS + 1):
        if n % 2:  # d_(2m+1)
            m = (n - 1) // 2
            a2m = aa + 2 * m
            d = -(aa + m) * (aa + bb + m) * xx / (a2m * (a2m + 1))
            d_a = d * (1.0 / (aa + bb + m) - 1.0 / (a2m + 1) + m / ((aa + m) * a2m))
            d_b = d / (aa + bb + m)
        else:  # d_(2m)
            m = n // 2
            a2m = aa + 2 * m
            denominator = (a2m - 1) * a2m
            d = m * (bb - m) * xx / denominator
            d_a = -d * (1.0 / (a2m - 1) + 1.0 / a2m)
            d_b = m * xx / denominator
        p_new = p_cur + d * p_prev
        q_new = q_cur + d * q_prev
        pa_new = pa_cur + d_a * p_prev + d * pa_prev
        qa_new = qa_cur + d_a * q_prev + d * qa_prev
        pb_new = pb_cur + d_b * p_prev + d * pb_prev
        qb_new = qb_cur + d_b * q_prev + d * qb_prev
        scale = 1.0 / np.maximum(np.abs(p_new), _TINY)
        p_prev, p_cur, q_prev, q_cur = p_cur * scale, p_new * scale, q_cur * scale, q_new * scale
        pa_prev, pa_cur, qa_prev, qa_cur = pa_cur * scale, pa_new * scale, qa_cur * scale, qa_new * scale
        pb_prev, pb_cur, qb_prev, qb_cur = pb_cur * scale, pb_new * scale, qb_cur * scale, qb_new * scale
        # F = B/A (= q/p), dF = (dq - F dp) / p
        f_new = q_cur / p_cur
        fa_new = (qa_cur - f_new * pa_cur) / p_cur
        fb_new = (qb_cur - f_new * pb_cur) / p_cur
        floor = 1e-3 * _EPS * np.abs(f_new)
        finished = ((np.abs(f_new - f) <= _EPS * np.abs(f_new))
                    & (np.abs(fa_new - fa) <= _EPS * np.abs(fa_new) + floor)
                    & (np.abs(fb_new - fb) <= _EPS * np.abs(fb_new) + floor))
        f, fa, fb = f_new, fa_new, fb_new
        if n >= 2 and np.any(finished):
            for target, value in zip(out, (f, fa, fb)):
                target[index[finished]] = value[finished]
            done[index[finished]] = True
            keep = ~finished
            (index, aa, bb, xx, p_prev, p_cur, q_prev, q_cur, pa_prev, pa_cur, qa_prev, qa_cur, pb_prev, pb_cur,
             qb_prev, qb_cur, f, fa, fb) = (v[keep] for v in (
                index, aa, bb, xx, p_prev, p_cur, q_prev, q_cur, pa_prev, pa_cur, qa_prev, qa_cur, pb_prev, pb_cur,
                qb_prev, qb_cur, f, fa, fb))
            if index.size == 0:
                break
    return out[0], out[1], out[2], done


def _direct_dab(a: np.ndarray, b: np.ndarray, x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(dI/da, dI/db)`` by the fraction at ``x <= (a+1)/(a+b+2)`` (1-D, ``0 < x < 1``), and convergence."""
    f, fa, fb, done = _fraction(a, b, x)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore", under="ignore"):
        k = np.exp(_log_prefactor(a, b, x) - np.log(a))
        log_k_a = np.log(x) + psi_increment(a + 1, b - 1)
        log_k_b = np.log1p(-x) + psi_increment(b, a)
        return k * (f * log_k_a + fa), k * (f * log_k_b + fb), done


_NOT_CONVERGED = ("d/da, d/db of the regularised incomplete beta function: the continued fraction did not converge "
                  "in {terms} terms at a = {a!r}, b = {b!r}, x = {x!r} (a + b beyond about 1e7 near the mode); no "
                  "derivative of the promised accuracy is available there")


def _dab(a: np.ndarray, b: np.ndarray, x: np.ndarray) -> tuple[np.ndarray, np.ndarray] | NotImplementedTangent:
    da = np.full(a.shape, np.nan)
    db = np.full(a.shape, np.nan)
    positive = (a > 0) & (b > 0) & np.isfinite(a) & np.isfinite(b)
    edge = positive & ((x == 0) | (x == 1))
    da[edge] = 0.0
    db[edge] = 0.0
    inside = positive & (x > 0) & (x < 1)
    direct = inside & (x * (a + b + 2) <= a + 1)
    swapped = inside & ~direct
    if np.any(direct):
        pa, pb, done = _direct_dab(a[direct], b[direct], x[direct])
        if not np.all(done):
            return _not_converged(a[direct][~done], b[direct][~done], x[direct][~done])
        da[direct], db[direct] = pa, pb
    if np.any(swapped):  # I_x(a, b) = 1 - I_(1-x)(b, a)
        jb, ja, done = _direct_dab(b[swapped], a[swapped], 1 - x[swapped])
        if not np.all(done):
            return _not_converged(a[swapped][~done], b[swapped][~done], x[swapped][~done])
        da[swapped], db[swapped] = -ja, -jb
    return da, db


def _not_converged(a: np.ndarray, b: np.ndarray, x: np.ndarray) -> NotImplementedTangent:
    return not_implemented(_NOT_CONVERGED.format(terms=MAX_TERMS, a=float(a[0]), b=float(b[0]), x=float(x[0])))


def betainc_dab(a: Any, b: Any, x: Any) -> tuple[np.ndarray, np.ndarray] | NotImplementedTangent:
    """``(dI/da, dI/db)`` of ``I_x(a, b) = betainc(a, b, x)``, float64 of the broadcast shape.

    Returns a ``NotImplementedTangent`` if the fraction did not converge within
    :data:`MAX_TERMS` terms at some element (see the module docstring).

    Examples
    --------
    >>> from chainrules.rulesets.special.incomplete_beta import betainc_dab
    >>> da, db = betainc_dab(1.0, 1.0, 0.3)  # I_x(a, 1) = x^a and I_x(1, b) = 1 - (1-x)^b
    >>> round(float(da), 12), round(float(db), 12)  # x log x and -(1-x) log(1-x) (mpmath agrees)
    (-0.361191841298, 0.249672460757)
    """
    a, b, x = _as_float64(a, b, x)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore", under="ignore"):
        result = _dab(a, b, x)
    if isinstance(result, NotImplementedTangent):
        return result
    return result[0][()], result[1][()]


def betainc_partials(a: Any, b: Any, x: Any) -> tuple[Any, Any, np.ndarray]:
    """``(dI/da, dI/db, dI/dx)`` of ``I_x(a, b) = betainc(a, b, x)``; ``betaincc``'s are their negatives.

    The first two are one ``NotImplementedTangent`` each where :func:`betainc_dab` is.

    Examples
    --------
    >>> from chainrules.rulesets.special.incomplete_beta import betainc_partials
    >>> [p.shape for p in betainc_partials([1.0, 2.0], 3.0, 0.5)]
    [(2,), (2,), (2,)]
    """
    dab = betainc_dab(a, b, x)
    dx = betainc_dx(a, b, x)
    if isinstance(dab, NotImplementedTangent):
        return dab, dab, dx
    return dab[0], dab[1], dx


def betaincinv_partials(a: Any, b: Any, x: Any) -> tuple[Any, Any, np.ndarray]:
    """``(dx/da, dx/db, dx/dy)`` at a solution ``x`` of ``I_x(a, b) = y`` (the implicit function theorem).

    For ``1 - I_x(a, b) = y`` (``betainccinv``) ``dx/da``, ``dx/db`` are the same and
    ``dx/dy`` changes sign.

    Examples
    --------
    >>> import scipy.special as sc
    >>> from chainrules.rulesets.special.incomplete_beta import betaincinv_partials
    >>> x = sc.betaincinv(2.0, 2.0, 0.5)  # the median of Beta(2, 2) is 1/2
    >>> [round(float(v), 10) for v in betaincinv_partials(2.0, 2.0, x)]  # symmetric: dx/da = -dx/db
    [0.1477157269, -0.1477157269, 0.6666666667]
    """
    a, b, x = _as_float64(a, b, x)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore", under="ignore"):
        dx_dy = np.asarray(np.exp(-log_betainc_dx(a, b, x)))
        dab = _dab(a, b, x)
        if isinstance(dab, NotImplementedTangent):
            return dab, dab, dx_dy[()]
        dx_da, dx_db = np.asarray(-dab[0] * dx_dy), np.asarray(-dab[1] * dx_dy)
    edge = (x == 0) | (x == 1)
    dx_da[edge] = 0.0
    dx_db[edge] = 0.0
    return dx_da[()], dx_db[()], dx_dy[()]


# ---- rules ---------------------------------------------------------------------------------------------
class _Shape:
    """The partial of one shape parameter (0: ``a``, 1: ``b``), of the function or of its inverse."""

    def __init__(self, which: int, sign: float = 1.0, inverse: bool = False) -> None:
        self.which, self.sign, self.inverse = which, sign, inverse

    def __call__(self, a: Any, b: Any, third: Any, output: Any) -> Any:
        if self.inverse:  # third is the probability, output the solution x
            return betaincinv_partials(a, b, output)[self.which]
        dab = betainc_dab(a, b, third)
        if isinstance(dab, NotImplementedTangent):
            return dab
        return self.sign * dab[self.which]


def _betainc_x(a: Any, b: Any, x: Any) -> Any:
    return betainc_dx(a, b, x)


def _betaincc_x(a: Any, b: Any, x: Any) -> Any:
    return -betainc_dx(a, b, x)


def _betaincinv_y(a: Any, b: Any, y: Any, x: Any) -> Any:
    with np.errstate(over="ignore"):
        return np.exp(-log_betainc_dx(a, b, x))[()]


def _betainccinv_y(a: Any, b: Any, y: Any, x: Any) -> Any:
    with np.errstate(over="ignore"):
        return -np.exp(-log_betainc_dx(a, b, x))[()]


scalar_rule(sc.betainc, _Shape(0), _Shape(1), _betainc_x)
scalar_rule(sc.betaincc, _Shape(0, -1.0), _Shape(1, -1.0), _betaincc_x)
scalar_rule(sc.betaincinv, _Shape(0, inverse=True), _Shape(1, inverse=True), _betaincinv_y)
scalar_rule(sc.betainccinv, _Shape(0, inverse=True), _Shape(1, inverse=True), _betainccinv_y)


# ---- samples: one point per regime ----------------------------------------------------------------------
_A = np.array([0.3, 2.0, 2.0, 5.0, 0.5, 80.0, 120.0])
_B = np.array([0.4, 3.0, 3.0, 1.0, 9.0, 120.0, 80.0])
_X = np.array([0.2, 0.1, 0.8, 0.95, 1e-3, 0.38, 0.62])
_LABEL = ("small a, b; fraction; symmetry (1 - x); integer b, terminating fraction; x near 0; "
          "large a, b near the mode on both sides")


@sample_inputs(sc.betainc, sc.betaincc)
def _betainc_samples() -> Any:
    yield Sample(2.0, 3.0, 0.4, label="scalars")
    yield Sample(_A, _B, _X, label=_LABEL)
    yield Sample(_A.astype(np.float32), _B.astype(np.float32), _X.astype(np.float32), label="float32")
    yield Sample(np.array([[0.7], [4.0]]), 2.5, np.array([0.2, 0.5, 0.9]), label="broadcast")
    yield Sample(2, 3, np.array([0.3, 0.7]), label="integer a, b (not differentiated)")


@sample_inputs(sc.betaincinv, sc.betainccinv)
def _betaincinv_samples() -> Any:
    y = np.array([0.3, 0.05, 0.5, 0.9, 0.2, 0.4, 0.7])
    yield Sample(2.0, 3.0, 0.4, label="scalars")
    yield Sample(_A, _B, y, label="small to large a, b; y from 0.05 to 0.9")
    yield Sample(_A.astype(np.float32), _B.astype(np.float32), y.astype(np.float32), label="float32", rtol=1e-3)
    yield Sample(np.array([[0.7], [4.0]]), 2.5, np.array([0.2, 0.6]), label="broadcast")
