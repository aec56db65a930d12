"""Rules of the orthogonal polynomials ``eval_*``: in ``x``, in their real parameters, and in a real degree.

``eval_legendre``, ``eval_chebyt``, ``eval_chebyu``, ``eval_chebyc``, ``eval_chebys``,
``eval_jacobi``, ``eval_gegenbauer``, ``eval_genlaguerre``, ``eval_laguerre``,
``eval_hermite``, ``eval_hermitenorm``, ``eval_sh_legendre``, ``eval_sh_chebyt``,
``eval_sh_chebyu``, ``eval_sh_jacobi``, and ``assoc_laguerre(x, n, k)`` (``eval_genlaguerre(n, k, x)``).

An integer degree ``n`` (a Python or NumPy integer) is an index: ``NoTangent()``. A float
degree is a real degree: SciPy continues the polynomials through the hypergeometric
functions (below), and the rules differentiate in it (at integer values too: the
continuation is smooth there). ``eval_hermite`` and ``eval_hermitenorm`` take integer
degrees only.

The maths
---------
**x** (DLMF 18.9.15, 18.9.19, 18.9.23, 18.9.25-26; they hold for a real degree, by
differentiating the hypergeometric forms): ``d/dx P^(a,b)_n = (n + a + b + 1)/2
P^(a+1,b+1)_(n-1)``, ``d/dx C^(a)_n = 2a C^(a+1)_(n-1)``, ``d/dx L^(a)_n = -L^(a+1)_(n-1)``,
``T_n' = n U_(n-1)``, ``U_n' = 2 C^(2)_(n-1)``, ``H_n' = 2n H_(n-1)``, ``He_n' = n He_(n-1)``,
and the shifted and scaled variants by the chain rule, all evaluated with SciPy.

**The parameters and a real degree**, from the hypergeometric forms (DLMF 18.5.7, 18.5.9,
18.5.12, SciPy's definitions)::

    P^(a,b)_n(x) = Gamma(n+a+1) / (Gamma(a+1) Gamma(n+1)) 2F1(-n, n+a+b+1; a+1; (1-x)/2)
    C^(a)_n(x)   = Gamma(n+2a) / (Gamma(n+1) Gamma(2a)) 2F1(-n, n+2a; a+1/2; (1-x)/2)
    L^(a)_n(x)   = Gamma(n+a+1) / (Gamma(n+1) Gamma(a+1)) 1F1(-n; a+1; x)
    P_n = P^(0,0)_n,  T_n(x) = cos(n arccos x),  U_n(x) = sin((n+1) arccos x) / sin(arccos x)

carried in forward mode with error bounds through the hypergeometric machinery of
:mod:`~chainrules.rulesets.special.hypergeometric` (series and connection formulas). For an
integer degree the parameters are differentiated instead through the three-term
recurrences SciPy itself evaluates (DLMF 18.9.1-2: Jacobi, Gegenbauer, Laguerre), in
forward mode with error bounds: stable, and exact for every ``x``. Chebyshev's real-degree
derivatives are closed forms: ``dT/dn = -t sin(n t)``, ``dU/dn = t cos((n+1) t) / sin t``
with ``t = arccos x`` (complex past ``x = 1``, giving the ``cosh`` forms). Where a bound
exceeds ``1e-9`` of the derivative, extrapolated differences of SciPy's function are used
where SciPy is accurate (real ``x``, hypergeometric parameters at most 5 in size), and
otherwise the cotangent is ``not_implemented`` (near ``x = -1`` with a non-integer degree,
where the functions have logarithmic singularities).

Examples
--------
>>> import numpy as np
>>> import scipy.special as sc
>>> import chainrules
>>> from chainrules import frule
>>> frule((None, 0.0, 1.0), sc.eval_legendre, 2.0, 0.5)[1]        # P_2' = 3x
np.float64(1.5)
>>> round(float(frule((None, 1.0, 0.0), sc.eval_chebyt, 2.0, 0.5)[1]), 12)   # -arccos(x) sin(2 arccos(x))
-0.906899682117
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import scipy.special as sc

from chainrules.rulesets.special._hypergeometric_jets import hyp1f1_jet, hyp2f1_jet
from chainrules.rulesets.special._jet import Jet, gamma_ratio
from chainrules.rulesets.special._parameter_rules import float64, parameter, shared_partials
from chainrules_core import (
    NoTangent,
    Sample,
    Varargs,
    ZeroTangent,
    frule,
    read_cotangent,
    rrule,
    sample_inputs,
    scalar_rule,
)
from chainrules_core.scalar_rules import NUMERIC


# ---- the jets -------------------------------------------------------------------------------------------
def _integer_valued(n: np.ndarray) -> np.ndarray:
    return np.isfinite(n) & (n == np.round(n)) & (n >= 0)


def _jacobi_recurrence(n: np.ndarray, A: Jet, B: Jet, x: Any) -> Jet:
    """``P^(a,b)_n(x)`` for integer ``n >= 0`` by DLMF 18.9.2, as a jet in the parameters of ``A``, ``B``
    (and of ``x``, if it is a jet)."""
    k = A.k
    X = x if isinstance(x, Jet) else Jet.constant(x, k, shape=A.v.shape)
    p0 = Jet.constant(np.ones(A.v.shape, dtype=X.v.dtype), k)
    p1 = (A + 1) + (A + B + 2) * (X - 1) * 0.5
    out = Jet(np.where(n == 0, p0.v, p1.v), np.where(n == 0, p0.d, p1.d), np.where(n == 0, p0.ev, p1.ev),
              np.where(n == 0, p0.ed, p1.ed))
    ab = A + B
    for j in range(1, int(np.max(n, initial=0))):
        c = ab + 2 * j
        p2 = ((c + 1) * ((c + 2) * c * X + (A * A - B * B)) * p1
              - 2 * (A + j) * (B + j) * (c + 2) * p0) / (2 * (j + 1) * (ab + j + 1) * c)
        live = n == j + 1
        out = _select(live, p2, out)
        p0, p1 = p1, p2
    return out


def _gegenbauer_recurrence(n: np.ndarray, A: Jet, x: Any) -> Jet:
    """``C^(a)_n(x)`` for integer ``n >= 0``: ``(j+1) C_(j+1) = 2 (j+a) x C_j - (j+2a-1) C_(j-1)`` (DLMF 18.9.1)."""
    k = A.k
    X = x if isinstance(x, Jet) else Jet.constant(x, k, shape=A.v.shape)
    p0 = Jet.constant(np.ones(A.v.shape, dtype=X.v.dtype), k)
    p1 = 2 * A * X
    out = _select(n == 0, p0, p1)
    for j in range(1, int(np.max(n, initial=0))):
        p2 = (2 * (A + j) * X * p1 - (2 * A + (j - 1)) * p0) / (j + 1)
        out = _select(n == j + 1, p2, out)
        p0, p1 = p1, p2
    return out


def _laguerre_recurrence(n: np.ndarray, A: Jet, x: Any) -> Jet:
    """``L^(a)_n(x)`` for integer ``n >= 0``: ``(j+1) L_(j+1) = (2j+a+1-x) L_j - (j+a) L_(j-1)`` (DLMF 18.9.1)."""
    k = A.k
    X = x if isinstance(x, Jet) else Jet.constant(x, k, shape=A.v.shape)
    p0 = Jet.constant(np.ones(A.v.shape, dtype=X.v.dtype), k)
    p1 = (A + 1) - X
    out = _select(n == 0, p0, p1)
    for j in range(1, int(np.max(n, initial=0))):
        p2 = ((A + (2 * j + 1)) * p1 - X * p1 - (A + j) * p0) / (j + 1)
        out = _select(n == j + 1, p2, out)
        p0, p1 = p1, p2
    return out


_EXTENDED = np.finfo(np.longdouble).eps < np.finfo(np.float64).eps / 100


def _jacobi_dual(n: np.ndarray, a: Any, b: Any, x: Any) -> tuple[Any, Any]:
    """``P^(a,b)_n(x)`` and its derivatives in ``(a, b)`` by DLMF 18.9.2, in the arrays' precision."""
    one = np.ones_like(x * a)
    p0, d0 = one, np.zeros((2, *one.shape), dtype=one.dtype)
    p1 = (a + 1) + (a + b + 2) * (x - 1) / 2
    d1 = np.stack([one + (x - 1) / 2, (x - 1) / 2 * one])
    out, dout = np.where(n == 0, p0, p1), np.where(n == 0, d0, d1)
    for j in range(1, int(np.max(n, initial=0))):
        c = a + b + 2 * j
        inner = (c + 2) * c * x + a * a - b * b
        big_a = (c + 1) * inner
        big_b = 2 * (j + a) * (j + b) * (c + 2)
        den = 2 * (j + 1) * (a + b + j + 1) * c
        p2 = (big_a * p1 - big_b * p0) / den
        da = inner + (c + 1) * ((2 * c + 2) * x + 2 * a)
        db = inner + (c + 1) * ((2 * c + 2) * x - 2 * b)
        dba = 2 * (j + b) * (c + 2 + j + a)
        dbb = 2 * (j + a) * (c + 2 + j + b)
        dden = 2 * (j + 1) * (c + a + b + j + 1)
        d2 = np.stack([(da * p1 + big_a * d1[0] - dba * p0 - big_b * d0[0] - p2 * dden) / den,
                       (db * p1 + big_a * d1[1] - dbb * p0 - big_b * d0[1] - p2 * dden) / den])
        live = n == j + 1
        out, dout = np.where(live, p2, out), np.where(live, d2, dout)
        p0, p1, d0, d1 = p1, p2, d1, d2
    return out, dout


def _gegenbauer_dual(n: np.ndarray, a: Any, x: Any) -> tuple[Any, Any]:
    """``C^(a)_n(x)`` and its derivative in ``a`` (DLMF 18.9.1), in the arrays' precision."""
    one = np.ones_like(x * a)
    p0, d0 = one, np.zeros((1, *one.shape), dtype=one.dtype)
    p1, d1 = 2 * a * x, (2 * x * one)[None]
    out, dout = np.where(n == 0, p0, p1), np.where(n == 0, d0, d1)
    for j in range(1, int(np.max(n, initial=0))):
        p2 = (2 * (j + a) * x * p1 - (j + 2 * a - 1) * p0) / (j + 1)
        d2 = (2 * x * p1 + 2 * (j + a) * x * d1 - 2 * p0 - (j + 2 * a - 1) * d0) / (j + 1)
        live = n == j + 1
        out, dout = np.where(live, p2, out), np.where(live, d2, dout)
        p0, p1, d0, d1 = p1, p2, d1, d2
    return out, dout


def _laguerre_dual(n: np.ndarray, a: Any, x: Any) -> tuple[Any, Any]:
    """``L^(a)_n(x)`` and its derivative in ``a`` (DLMF 18.9.1), in the arrays' precision."""
    one = np.ones_like(x * a)
    p0, d0 = one, np.zeros((1, *one.shape), dtype=one.dtype)
    p1, d1 = (a + 1) - x, one[None]
    out, dout = np.where(n == 0, p0, p1), np.where(n == 0, d0, d1)
    for j in range(1, int(np.max(n, initial=0))):
        p2 = ((2 * j + a + 1 - x) * p1 - (j + a) * p0) / (j + 1)
        d2 = (p1 + (2 * j + a + 1 - x) * d1 - p0 - (j + a) * d0) / (j + 1)
        live = n == j + 1
        out, dout = np.where(live, p2, out), np.where(live, d2, dout)
        p0, p1, d0, d1 = p1, p2, d1, d2
    return out, dout


_DUALS: dict[Any, Callable[..., tuple[Any, Any]]] = {}  # the jet recurrence -> its plain (value, derivatives) twin


def _checked_recurrence(recurrence: Callable[..., Jet], n: np.ndarray, params: list[np.ndarray], x: np.ndarray,
                        k: int) -> Jet:
    """The recurrence's jet (parameters ``1..k-1``), with an error estimate from a second run in extended precision.

    The running error bounds of a three-term recurrence grow like the *dominant*
    solution of the recurrence with absolute coefficients, far above the actual errors
    of the stable forward recurrence in the oscillatory region (Gautschi, *SIAM Review* 9
    (1967) 24). Where ``long double`` is wider than ``double`` (x86), the recurrence is
    run in both (its plain twin: values and derivatives, without the bounds): the extended
    result is returned, and twice the difference bounds the error of the double one (so,
    with a margin of about 2000, that of the extended one). Elsewhere the jets' running
    bounds are kept.
    """
    if not _EXTENDED:
        P = [Jet.variable(np.asarray(p, dtype=np.float64), i + 1, k) for i, p in enumerate(params)]
        return recurrence(n, *P, x)
    dual = _DUALS[recurrence]
    dtype = np.result_type(x, np.float64)
    v64, d64 = dual(n, *(np.asarray(p, dtype=np.float64) for p in params), x)
    wide = np.result_type(x, np.longdouble)
    vw, dw = dual(n, *(np.asarray(p, dtype=np.longdouble) for p in params), np.asarray(x, dtype=wide))
    v, d = vw.astype(dtype), dw.astype(dtype)
    ev = 2 * np.abs(v64 - v).astype(np.float64) + 2 ** -53 * np.abs(v)
    ed = 2 * np.abs(d64 - d).astype(np.float64) + 2 ** -53 * np.abs(d)
    zero = np.zeros((1, *v.shape), dtype=dtype)
    return Jet(v, np.concatenate([zero, d]), ev, np.concatenate([np.zeros((1, *v.shape)), ed]))


_DUALS.update({_jacobi_recurrence: _jacobi_dual, _gegenbauer_recurrence: _gegenbauer_dual,
               _laguerre_recurrence: _laguerre_dual})


def _select(mask: np.ndarray, a: Jet, b: Jet) -> Jet:
    return Jet(np.where(mask, a.v, b.v), np.where(mask, a.d, b.d), np.where(mask, a.ev, b.ev),
               np.where(mask, a.ed, b.ed))


def _jacobi_hypergeometric(N: Jet, A: Jet, B: Jet, x: Any) -> Jet:
    """``P^(a,b)_nu(x)`` for a real degree (DLMF 18.5.7)."""
    return gamma_ratio([N + A + 1], [A + 1, N + 1]) * hyp2f1_jet(-N, N + A + B + 1, A + 1, (1 - x) / 2)


def _gegenbauer_hypergeometric(N: Jet, A: Jet, x: Any) -> Jet:
    """``C^(a)_nu(x)`` for a real degree (DLMF 18.5.9 with 15.9.15)."""
    return gamma_ratio([N + 2 * A], [N + 1, 2 * A]) * hyp2f1_jet(-N, N + 2 * A, A + 0.5, (1 - x) / 2)


def _laguerre_hypergeometric(N: Jet, A: Jet, x: Any) -> Jet:
    """``L^(a)_nu(x)`` for a real degree (DLMF 18.5.12)."""
    return gamma_ratio([N + A + 1], [N + 1, A + 1]) * hyp1f1_jet(-N, A + 1, x)


def _family_jet(recurrence: Callable[..., Jet], hypergeometric: Callable[..., Jet], n: np.ndarray,
                params: list[np.ndarray], x: np.ndarray) -> Jet:
    """The jet of a family in (degree, *params): the recurrence for the parameters where the
    degree is an integer, the hypergeometric form for the degree and elsewhere.

    An integer-typed degree is not differentiated (its derivative row is left at zero).
    """
    k = 1 + len(params)
    size = x.shape[0]
    real_degree = n.dtype.kind == "f"
    n = np.asarray(n, dtype=np.float64)
    N = Jet.variable(n, 0, k) if real_degree else Jet.constant(n, k)
    P = [Jet.variable(p, i + 1, k) for i, p in enumerate(params)]
    integer = _integer_valued(n)
    out = Jet(np.full(size, np.nan, dtype=np.result_type(x, np.float64)), np.zeros((k, size), np.result_type(x, 1.0)),
              np.full(size, np.inf), np.full((k, size), np.inf))
    index = np.flatnonzero(integer)
    if index.size:
        out.put(index, _checked_recurrence(recurrence, n[index].astype(np.int64), [p[index] for p in params],
                                           x[index], k))
    hyp_index = np.flatnonzero(~integer) if not real_degree else np.arange(size)
    if hyp_index.size:
        hyp = hypergeometric(N.take(hyp_index), *(p.take(hyp_index) for p in P), x[hyp_index])
        if real_degree and index.size:
            # keep the recurrence's parameter derivatives where the degree is an integer
            keep = integer[hyp_index]
            rows = np.arange(k)[:, None] >= 1
            hyp = Jet(np.where(keep, out.v[hyp_index], hyp.v),
                      np.where(keep & rows, out.d[:, hyp_index], hyp.d),
                      np.where(keep, out.ev[hyp_index], hyp.ev),
                      np.where(keep & rows, out.ed[:, hyp_index], hyp.ed))
        out.put(hyp_index, hyp)
    if not real_degree:
        out.d[0] = 0.0
        out.ed[0] = 0.0
    return out


def jacobi_jet(n: np.ndarray, a: np.ndarray, b: np.ndarray, x: np.ndarray) -> Jet:
    """``P^(a,b)_n(x)`` in ``(n, a, b)``."""
    return _family_jet(_jacobi_recurrence, _jacobi_hypergeometric, n, [a, b], x)


def gegenbauer_jet(n: np.ndarray, a: np.ndarray, x: np.ndarray) -> Jet:
    """``C^(a)_n(x)`` in ``(n, a)``."""
    return _family_jet(_gegenbauer_recurrence, _gegenbauer_hypergeometric, n, [a], x)


def genlaguerre_jet(n: np.ndarray, a: np.ndarray, x: np.ndarray) -> Jet:
    """``L^(a)_n(x)`` in ``(n, a)``."""
    return _family_jet(_laguerre_recurrence, _laguerre_hypergeometric, n, [a], x)


def legendre_jet(n: np.ndarray, x: np.ndarray) -> Jet:
    """``P_n(x)`` in ``n`` (a real degree)."""
    N = Jet.variable(np.asarray(n, dtype=np.float64), 0, 1)
    zero = Jet.constant(np.zeros(x.shape[0]), 1)
    return _jacobi_hypergeometric(N, zero, zero, x)


def laguerre_jet(n: np.ndarray, x: np.ndarray) -> Jet:
    """``L_n(x)`` in ``n`` (a real degree)."""
    N = Jet.variable(np.asarray(n, dtype=np.float64), 0, 1)
    return _laguerre_hypergeometric(N, Jet.constant(np.zeros(x.shape[0]), 1), x)


def sh_legendre_jet(n: np.ndarray, x: np.ndarray) -> Jet:
    """``P_n(2x - 1)`` in ``n``."""
    return legendre_jet(n, 2 * x - 1)


def sh_jacobi_jet(n: np.ndarray, p: np.ndarray, q: np.ndarray, x: np.ndarray) -> Jet:
    """``G^(p,q)_n(x) = P^(p-q, q-1)_n(2x - 1) / binom(2n + p - 1, n)`` in ``(n, p, q)``."""
    inner = jacobi_jet(n, p - q, q - 1, 2 * x - 1)  # derivatives in (n, alpha, beta)
    k = 3
    nf = np.asarray(n, dtype=np.float64)
    N = Jet.variable(nf, 0, k) if n.dtype.kind == "f" else Jet.constant(nf, k)
    Pj = Jet.variable(p, 1, k)
    # chain rule: alpha = p - q, beta = q - 1
    d = np.stack([inner.d[0], inner.d[1], inner.d[2] - inner.d[1]])
    ed = np.stack([inner.ed[0], inner.ed[1], inner.ed[2] + inner.ed[1]])
    J = Jet(inner.v, d, inner.ev, ed)
    return J * gamma_ratio([N + 1, N + Pj], [2 * N + Pj])


# ---- Chebyshev's closed forms -------------------------------------------------------------------------------
def _angle(x: Any) -> Any:
    """``arccos x``, complex past ``|x| = 1`` (``i arccosh x`` for ``x > 1``)."""
    x = np.asarray(x)
    if x.dtype.kind == "c":
        return np.arccos(x)
    with np.errstate(invalid="ignore"):
        return np.where(np.abs(x) <= 1, np.arccos(np.clip(x, -1, 1)) + 0j, np.arccos(x + 0j))


def chebyt_n(n: Any, x: Any) -> Any:
    """``dT_n(x)/dn = -t sin(n t)``, ``t = arccos x``."""
    n, x = float64(n), float64(x)
    t = _angle(x)
    out = -t * np.sin(n * t)
    return out if x.dtype.kind == "c" else np.where(x >= -1, out.real, np.nan)


def chebyu_n(n: Any, x: Any) -> Any:
    """``dU_n(x)/dn = t cos((n+1) t) / sin t``, ``t = arccos x`` (``1`` at ``x = 1``)."""
    n, x = float64(n), float64(x)
    t = _angle(x)
    with np.errstate(invalid="ignore", divide="ignore"):
        ratio = np.where(t == 0, 1.0, t / np.sin(t))
    out = ratio * np.cos((n + 1) * t)
    return out if x.dtype.kind == "c" else np.where(x > -1, out.real, np.nan)


# ---- the rules ------------------------------------------------------------------------------------------------
def _within(x: Any, *parameters: Any) -> Any:
    """Real ``x`` and every hypergeometric parameter at most 5 in size: where SciPy's 2F1 (and so
    its real-degree polynomials) is accurate to about ``1e-10`` (measured against mpmath; beyond,
    it loses digits near ``x = -1``: ``2F1(-1.075, 8.075; 4; 0.935)`` is off by 35%)."""
    return (np.imag(x) == 0) & np.all([np.abs(q) <= 5 for q in parameters], axis=0)


def _jacobi_accurate(n: Any, a: Any, b: Any, x: Any) -> Any:
    return _within(x, n, n + a + b + 1, a + 1)


def _sh_jacobi_accurate(n: Any, p: Any, q: Any, x: Any) -> Any:
    return _within(x, n, n + p, p - q + 1)


def _gegenbauer_accurate(n: Any, a: Any, x: Any) -> Any:
    return _within(x, n, n + 2 * a, a + 0.5)


def _legendre_accurate(n: Any, x: Any) -> Any:
    return _within(x, n, n + 1)


def _laguerre_accurate(n: Any, *rest: Any) -> Any:
    """SciPy's 1F1 at real arguments (Boost) is accurate to about ``1e-13``."""
    return (np.imag(rest[-1]) == 0) & np.all([np.abs(q) <= 10 for q in (n, *rest[:-1])], axis=0)


def _rule(f: Any, x_partial: Callable[..., Any], jet_fn: Callable[..., Any] | None, names: tuple[str, ...],
          n_partial: Any = None, accurate: Callable[..., Any] | None = None) -> None:
    """Register ``f(n, *params, x)``: the degree and parameters from the jet, ``x`` in closed form."""
    nparams = len(names)

    def x_with_shared(*args: Any) -> Any:
        return x_partial(*args[:nparams + 1])

    x_with_shared.__name__ = x_partial.__name__
    if n_partial is not None:
        def n_with_shared(*args: Any) -> Any:
            return n_partial(*args[:2])
        partials: list[Any] = [n_with_shared, *(parameter(i) for i in range(1, nparams))]
    else:
        partials = [parameter(i) for i in range(nparams)]
    if jet_fn is not None:
        shared: Callable[..., Any] = shared_partials(f, jet_fn, tuple(range(nparams)), names,
                                                     fallback=accurate if accurate is not None else False)
    else:
        def shared(*args_and_y: Any) -> None:
            return None
    scalar_rule(f, *partials, x_with_shared, shared=shared)


def _degree_of(n: Any) -> np.ndarray:
    """The degree as given: integer arrays stay integer (an index), floats are real degrees."""
    n = np.asarray(n)
    return n if n.dtype.kind in "iu" else n.astype(np.float64)


def _jet_with_degree(jet_fn: Callable[..., Jet]) -> Callable[..., Jet]:
    def wrapped(n: Any, *rest: Any) -> Jet:
        return jet_fn(_degree_of(n), *rest)
    wrapped.__name__ = jet_fn.__name__
    return wrapped


# x-partials (the primal arguments first, then the output)
def jacobi_x(n: Any, a: Any, b: Any, x: Any) -> Any:
    """``(n + a + b + 1)/2 P^(a+1,b+1)_(n-1)(x)``."""
    a, b = float64(a), float64(b)
    return (np.asarray(n) + a + b + 1) / 2 * sc.eval_jacobi(np.asarray(n) - 1, a + 1, b + 1, float64(x))


def sh_jacobi_x(n: Any, p: Any, q: Any, x: Any) -> Any:
    """``(n + p) P^(p-q+1, q)_(n-1)(2x - 1) / binom(2n + p - 1, n)``."""
    n, p, q = np.asarray(n), float64(p), float64(q)
    return (n + p) * sc.eval_jacobi(n - 1, p - q + 1, q, 2 * float64(x) - 1) / sc.binom(2 * n + p - 1, n)


def gegenbauer_x(n: Any, a: Any, x: Any) -> Any:
    """``2a C^(a+1)_(n-1)(x)``."""
    a = float64(a)
    return 2 * a * sc.eval_gegenbauer(np.asarray(n) - 1, a + 1, float64(x))


def genlaguerre_x(n: Any, a: Any, x: Any) -> Any:
    """``-L^(a+1)_(n-1)(x)``."""
    return -sc.eval_genlaguerre(np.asarray(n) - 1, float64(a) + 1, float64(x))


def laguerre_x(n: Any, x: Any) -> Any:
    """``-L^(1)_(n-1)(x)``."""
    return -sc.eval_genlaguerre(np.asarray(n) - 1, 1.0, float64(x))


def legendre_x(n: Any, x: Any) -> Any:
    """``(n + 1)/2 P^(1,1)_(n-1)(x)``."""
    return (np.asarray(n) + 1) / 2 * sc.eval_jacobi(np.asarray(n) - 1, 1.0, 1.0, float64(x))


def sh_legendre_x(n: Any, x: Any) -> Any:
    """``(n + 1) P^(1,1)_(n-1)(2x - 1)``."""
    return (np.asarray(n) + 1) * sc.eval_jacobi(np.asarray(n) - 1, 1.0, 1.0, 2 * float64(x) - 1)


def chebyt_x(n: Any, x: Any) -> Any:
    """``n U_(n-1)(x)``."""
    return np.asarray(n) * sc.eval_chebyu(np.asarray(n) - 1, float64(x))


def chebyu_x(n: Any, x: Any) -> Any:
    """``2 C^(2)_(n-1)(x)``."""
    return 2 * sc.eval_gegenbauer(np.asarray(n) - 1, 2.0, float64(x))


def chebyc_x(n: Any, x: Any) -> Any:
    """``d/dx 2 T_n(x/2) = n S_(n-1)(x)``."""
    return np.asarray(n) * sc.eval_chebys(np.asarray(n) - 1, float64(x))


def chebys_x(n: Any, x: Any) -> Any:
    """``d/dx U_n(x/2) = C^(2)_(n-1)(x/2)``."""
    return sc.eval_gegenbauer(np.asarray(n) - 1, 2.0, float64(x) / 2)


def sh_chebyt_x(n: Any, x: Any) -> Any:
    """``2n U_(n-1)(2x - 1)``."""
    return 2 * np.asarray(n) * sc.eval_sh_chebyu(np.asarray(n) - 1, float64(x))


def sh_chebyu_x(n: Any, x: Any) -> Any:
    """``4 C^(2)_(n-1)(2x - 1)``."""
    return 4 * sc.eval_gegenbauer(np.asarray(n) - 1, 2.0, 2 * float64(x) - 1)


def hermite_x(n: Any, x: Any) -> Any:
    """``2n H_(n-1)(x)`` (zero for ``n = 0``)."""
    n = np.asarray(n)
    with np.errstate(invalid="ignore"):
        return np.where(n > 0, 2 * n * sc.eval_hermite(np.maximum(n - 1, 0), float64(x)), 0.0)


def hermitenorm_x(n: Any, x: Any) -> Any:
    """``n He_(n-1)(x)`` (zero for ``n = 0``)."""
    n = np.asarray(n)
    with np.errstate(invalid="ignore"):
        return np.where(n > 0, n * sc.eval_hermitenorm(np.maximum(n - 1, 0), float64(x)), 0.0)


# degree partials of the scaled and shifted Chebyshev forms
def chebyc_n(n: Any, x: Any) -> Any:
    """``d/dn 2 T_n(x/2)``."""
    return 2 * chebyt_n(n, float64(x) / 2)


def chebys_n(n: Any, x: Any) -> Any:
    """``d/dn U_n(x/2)``."""
    return chebyu_n(n, float64(x) / 2)


def sh_chebyt_n(n: Any, x: Any) -> Any:
    """``d/dn T_n(2x - 1)``."""
    return chebyt_n(n, 2 * float64(x) - 1)


def sh_chebyu_n(n: Any, x: Any) -> Any:
    """``d/dn U_n(2x - 1)``."""
    return chebyu_n(n, 2 * float64(x) - 1)


_rule(sc.eval_jacobi, jacobi_x, _jet_with_degree(jacobi_jet), ("n", "alpha", "beta"), accurate=_jacobi_accurate)
_rule(sc.eval_sh_jacobi, sh_jacobi_x, _jet_with_degree(sh_jacobi_jet), ("n", "p", "q"), accurate=_sh_jacobi_accurate)
_rule(sc.eval_gegenbauer, gegenbauer_x, _jet_with_degree(gegenbauer_jet), ("n", "alpha"),
      accurate=_gegenbauer_accurate)
_rule(sc.eval_genlaguerre, genlaguerre_x, _jet_with_degree(genlaguerre_jet), ("n", "alpha"),
      accurate=_laguerre_accurate)
_rule(sc.eval_laguerre, laguerre_x, laguerre_jet, ("n",), accurate=_laguerre_accurate)
_rule(sc.eval_legendre, legendre_x, legendre_jet, ("n",), accurate=_legendre_accurate)
_rule(sc.eval_sh_legendre, sh_legendre_x, sh_legendre_jet, ("n",), accurate=_legendre_accurate)
_rule(sc.eval_chebyt, chebyt_x, None, ("n",), n_partial=chebyt_n)
_rule(sc.eval_chebyu, chebyu_x, None, ("n",), n_partial=chebyu_n)
_rule(sc.eval_chebyc, chebyc_x, None, ("n",), n_partial=chebyc_n)
_rule(sc.eval_chebys, chebys_x, None, ("n",), n_partial=chebys_n)
_rule(sc.eval_sh_chebyt, sh_chebyt_x, None, ("n",), n_partial=sh_chebyt_n)
_rule(sc.eval_sh_chebyu, sh_chebyu_x, None, ("n",), n_partial=sh_chebyu_n)
scalar_rule(sc.eval_hermite, NoTangent(), hermite_x)
scalar_rule(sc.eval_hermitenorm, NoTangent(), hermitenorm_x)


# assoc_laguerre(x, n, k=0.0) is eval_genlaguerre(n, k, x): its rules are those, reordered
@rrule.register(sc.assoc_laguerre, NUMERIC, NUMERIC, Varargs(NUMERIC))
def assoc_laguerre_rrule(x: Any, n: Any, *k: Any, **keywords: Any) -> Any:
    """``eval_genlaguerre(n, k, x)`` with the arguments in ``assoc_laguerre``'s order."""
    order = k[0] if k else keywords.pop("k", 0.0)
    if keywords:
        raise TypeError(f"scipy.special.assoc_laguerre: unexpected keyword arguments {sorted(keywords)}")
    y, pullback = rrule(sc.eval_genlaguerre, n, order, x)

    def assoc_laguerre_pullback(dy: Any) -> tuple[Any, ...]:
        df, dn, dk, dx = pullback(read_cotangent(dy, y, sc.assoc_laguerre))
        return (df, dx, dn, dk) if k else (df, dx, dn)

    return y, assoc_laguerre_pullback


@frule.register(sc.assoc_laguerre, NUMERIC, NUMERIC, Varargs(NUMERIC))
def assoc_laguerre_frule(tangents: Any, x: Any, n: Any, *k: Any, **keywords: Any) -> Any:
    """Pushforward of ``assoc_laguerre`` through ``eval_genlaguerre``'s."""
    order = k[0] if k else keywords.pop("k", 0.0)
    if keywords:
        raise TypeError(f"scipy.special.assoc_laguerre: unexpected keyword arguments {sorted(keywords)}")
    dk = tangents[3] if k else ZeroTangent()
    return frule((tangents[0], tangents[2], dk, tangents[1]), sc.eval_genlaguerre, n, order, x)


# ---- samples -----------------------------------------------------------------------------------------------------
_X = np.array([-0.7, 0.2, 0.95, 1.6])


@sample_inputs(sc.eval_legendre, sc.eval_chebyt, sc.eval_chebyu, sc.eval_laguerre)
def _one_parameter_samples(rng: np.random.Generator) -> Any:
    yield Sample(np.array([0, 1, 3, 6]), _X, label="integer degrees")
    yield Sample(np.array([0.5, 2.0, 2.7, 4.25]), np.array([-0.6, 0.2, 0.9, 1.45]), label="real degrees")
    yield Sample(np.array([0.5, 2.0], np.float32), np.array([0.3, 0.8], np.float32), label="float32")
    yield Sample(3, np.array([0.3 + 0.2j, -0.5 + 0.1j]), label="complex x")


@sample_inputs(sc.eval_sh_legendre, sc.eval_sh_chebyt, sc.eval_sh_chebyu)
def _shifted_samples(rng: np.random.Generator) -> Any:
    # shifted to [0, 1]: x = 0.2 is 2x - 1 = -0.6
    yield Sample(np.array([0, 1, 3, 6]), np.array([0.15, 0.6, 0.975, 1.3]), label="integer degrees")
    yield Sample(np.array([0.5, 2.0, 2.7, 4.25]), np.array([0.2, 0.6, 0.95, 1.2]), label="real degrees")
    yield Sample(np.array([0.5, 2.0], np.float32), np.array([0.65, 0.9], np.float32), label="float32")
    yield Sample(3, np.array([0.65 + 0.1j, 0.25 + 0.05j]), label="complex x")


@sample_inputs(sc.eval_chebyc, sc.eval_chebys)
def _scaled_samples(rng: np.random.Generator) -> Any:
    # scaled to [-2, 2]: x = 0.4 is x/2 = 0.2
    yield Sample(np.array([0, 1, 3, 6]), 2 * _X, label="integer degrees")
    yield Sample(np.array([0.5, 2.0, 2.7, 4.25]), np.array([-1.2, 0.4, 1.8, 2.9]), label="real degrees")
    yield Sample(np.array([0.5, 2.0], np.float32), np.array([0.6, 1.6], np.float32), label="float32")
    yield Sample(3, np.array([0.6 + 0.4j, -1.0 + 0.2j]), label="complex x")


@sample_inputs(sc.assoc_laguerre)
def _assoc_laguerre_samples(rng: np.random.Generator) -> Any:
    yield Sample(np.array([0.2, 1.5, 7.0]), 3, 1.5, label="integer degree")
    yield Sample(np.array([0.2, 1.5, 7.0]), 2.5, fkwargs={"k": 0.75}, label="real degree, k by keyword")
    yield Sample(np.array([0.2, 1.5]), 4, label="k omitted")


@sample_inputs(sc.eval_hermite, sc.eval_hermitenorm)
def _hermite_samples(rng: np.random.Generator) -> Any:
    yield Sample(np.array([0, 1, 3, 6]), np.array([-1.5, 0.2, 0.9, 2.5]), label="integer degrees")
    yield Sample(4, np.float32(0.7), label="float32")


@sample_inputs(sc.eval_jacobi, sc.eval_sh_jacobi)
def _jacobi_samples(rng: np.random.Generator) -> Any:
    a = np.array([0.5, 1.5, 2.5, 3.0])
    b = np.array([0.25, 1.5, 1.25, 1.75])
    x = np.array([0.3, 0.2, 0.7, 0.6])
    yield Sample(np.array([0, 1, 3, 6]), a, b, x, label="integer degrees")
    yield Sample(np.array([0.5, 2.0, 2.7, 4.25]), a, b, x, label="real degrees")
    yield Sample(np.array([1.5, 2.0], np.float32), np.float32(1.5), np.float32(1.25), np.array([0.3, 0.8], np.float32),
                 label="float32")


@sample_inputs(sc.eval_gegenbauer, sc.eval_genlaguerre)
def _two_parameter_samples(rng: np.random.Generator) -> Any:
    a = np.array([0.5, 1.5, 2.5, 0.25])
    x = np.array([-0.6, 0.2, 0.9, 0.45])
    yield Sample(np.array([0, 1, 3, 6]), a, x, label="integer degrees")
    yield Sample(np.array([0.5, 2.0, 2.7, 4.25]), a, x, label="real degrees")
    yield Sample(np.array([1.5, 2.0], np.float32), np.float32(1.5), np.array([0.3, 0.8], np.float32), label="float32")
    yield Sample(3, 1.5, np.array([0.3 + 0.2j, -0.5 + 0.1j]), label="complex x")
