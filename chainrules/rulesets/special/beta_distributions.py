"""Distribution helpers built on the incomplete beta function: bdtr, bdtrc, bdtri, bdtrik, bdtrin, btdtria, btdtrib,
fdtr, fdtrc, fdtri, fdtridfd, nbdtr, nbdtrc, nbdtri, nbdtrik, nbdtrin, stdtr, stdtridf, stdtrit, in every continuous
argument.

The maths
---------
Each function is ``I_u(a, b)`` (or ``1 - I_u(a, b)``) with ``a``, ``b``, ``u`` simple functions of
the arguments, or an inverse of one; the partials of ``I`` are those of
:mod:`chainrules.rulesets.special.incomplete_beta` (``dI/da``, ``dI/db`` by the
differentiated continued fraction, ``dI/du`` the beta density), with the chain rule:

* binomial: ``bdtr(k, n, p) = I_(1-p)(n - k, k + 1)``, ``bdtrc = I_p(k + 1, n - k)``;
* negative binomial: ``nbdtr(k, n, p) = I_p(n, k + 1)``, ``nbdtrc = I_(1-p)(k + 1, n)``;
* F: ``fdtr(m, n, x) = I_u(m/2, n/2)``, ``u = m x / (m x + n)``, ``fdtrc = 1 - fdtr``;
* Student t: ``stdtr(df, t) = 1 - I_z(df/2, 1/2) / 2`` for ``t >= 0`` (``I_z(df/2, 1/2) / 2``
  below), ``z = df / (df + t^2)``; ``d/dt`` is the t density, written directly (it is
  finite at ``t = 0`` where ``dI/dz`` is not), and ``d/ddf = 0`` at ``t = 0`` (``F = 1/2``).
  For large ``df`` the two terms of ``d/ddf`` cancel (the limit is the normal cdf, which
  does not depend on ``df``); past a cancellation of :data:`STDTR_CANCELLATION_LIMIT`
  (``df`` around 2000 for ``|t|`` near 2) it is ``not_implemented``.

Where ``u`` is close to 1 the complement ``1 - u`` is formed from the arguments
(``n / (m x + n)``, ``t^2 / (df + t^2)``) and the symmetry ``I_u(a, b) = 1 - I_(1-u)(b, a)``
used, so no accuracy is lost to ``1 - u``.

Inverses (``bdtri``: ``p``; ``bdtrik``: ``k``; ``bdtrin``: ``n``; ``btdtria``, ``btdtrib``:
``a``, ``b`` of ``I_x(a, b)``; ``fdtri``: ``x``; ``fdtridfd``: ``n``; ``nbdtri``: ``p``;
``nbdtrik``: ``k``; ``nbdtrin``: ``n``; ``stdtridf``: ``df``; ``stdtrit``: ``t``) by the
implicit function theorem at their output. SciPy's root finders return a bound of their
search interval where the equation has no solution; the output is then constant and its
partials are 0 (:func:`~chainrules.rulesets.special.gamma_distributions.where_solved`).

Counts: SciPy floors ``k`` and ``n`` in ``bdtr``, ``bdtrc``, ``bdtri``, ``nbdtr``,
``nbdtrc``, ``nbdtri``: those functions are piecewise constant in them (an integer gets
``NoTangent()``, a float gets 0: the derivative away from the integers, the right
derivative at them). ``bdtrik``, ``bdtrin``, ``nbdtrik``, ``nbdtrin`` solve the continuous
extensions above and are differentiated in every argument.

Examples
--------
>>> import scipy.special as sc
>>> import chainrules
>>> from chainrules import rrule, unthunk
>>> y, pullback = rrule(sc.stdtr, 3.5, 1.2)
>>> [round(float(unthunk(c)), 10) for c in pullback(1.0)[1:]]  # mpmath: 0.00978866969, 0.17121607779
[0.0097886697, 0.1712160778]
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.special as sc

from chainrules.rulesets.special._precision import upcast
from chainrules.rulesets.special.gamma_distributions import inverse_partial, where_solved
from chainrules.rulesets.special.incomplete_beta import betainc_dab, betainc_dx
from chainrules_core import Sample, not_implemented, sample_inputs, scalar_rule
from chainrules_core.scalar_rules import ZERO
from chainrules_core.tangents.not_implemented import NotImplementedTangent

__all__ = ["STDTR_CANCELLATION_LIMIT", "betainc_partials_pair"]


def _f64(*args: Any) -> list[np.ndarray]:
    return [np.array(v, dtype=np.float64) for v in np.broadcast_arrays(*(upcast(a) for a in args))]


def betainc_partials_pair(a: Any, b: Any, u: Any, v: Any) -> tuple[Any, Any, np.ndarray]:
    """``(dI/da, dI/db, dI/du)`` of ``I_u(a, b)`` given ``u`` and ``v = 1 - u`` both computed accurately.

    Where ``u > 1/2`` the symmetric form ``1 - I_v(b, a)`` is differentiated, so ``v``
    enters without the rounding of ``1 - u``. A ``NotImplementedTangent`` replaces both
    shape partials where the fraction did not converge.

    Examples
    --------
    >>> from chainrules.rulesets.special.beta_distributions import betainc_partials_pair
    >>> da, db, du = betainc_partials_pair(2.0, 3.0, 0.4, 0.6)
    >>> round(float(du), 12)  # 12 u (1 - u)^2
    1.728
    """
    a, b, u, v = _f64(a, b, u, v)
    flip = u > 0.5
    p, q, w = np.where(flip, b, a), np.where(flip, a, b), np.where(flip, v, u)
    dab = betainc_dab(p, q, w)
    dw = betainc_dx(p, q, w)
    if isinstance(dab, NotImplementedTangent):
        return dab, dab, np.asarray(dw)
    dp, dq = np.asarray(dab[0]), np.asarray(dab[1])
    return np.where(flip, -dq, dp), np.where(flip, -dp, dq), np.asarray(dw)


def _scale(value: Any, factor: Any) -> Any:
    return value if isinstance(value, NotImplementedTangent) else value * factor


def _add(x: Any, y: Any) -> Any:
    if isinstance(x, NotImplementedTangent):
        return x
    if isinstance(y, NotImplementedTangent):
        return y
    return x + y


def _neg(value: Any) -> Any:
    return value if isinstance(value, NotImplementedTangent) else -value


# ---- binomial: F(k, n, p) = I_(1-p)(n - k, k + 1), continuous in k and n for the inverses ---------------------
class _Binomial:
    """Partials of the continuous binomial cdf ``I_(1-p)(n - k, k + 1)``."""

    @staticmethod
    def parts(k: Any, n: Any, p: Any) -> tuple[Any, Any, np.ndarray]:
        k, n, p = _f64(k, n, p)
        return betainc_partials_pair(n - k, k + 1, 1 - p, p)

    @staticmethod
    def dk(k: Any, n: Any, p: Any) -> Any:
        ia, ib, _ = _Binomial.parts(k, n, p)
        return _add(_neg(ia), ib)

    @staticmethod
    def dn(k: Any, n: Any, p: Any) -> Any:
        return _Binomial.parts(k, n, p)[0]

    @staticmethod
    def dp(k: Any, n: Any, p: Any) -> Any:
        return -_Binomial.parts(k, n, p)[2]


def _bdtr_p(k: Any, n: Any, p: Any) -> Any:
    return _Binomial.dp(np.floor(upcast(k)), np.floor(upcast(n)), p)


def _bdtrc_p(k: Any, n: Any, p: Any) -> Any:
    return -_Binomial.dp(np.floor(upcast(k)), np.floor(upcast(n)), p)


def _bdtri_y(k: Any, n: Any, y: Any, p: Any) -> Any:
    return inverse_partial(_bdtr_p(k, n, p))


def _bdtrik_y(y: Any, n: Any, p: Any, k: Any) -> Any:
    return where_solved(inverse_partial(_Binomial.dk(k, n, p)), sc.betainc(np.subtract(n, k), np.add(k, 1), 1 - p), y)


def _bdtrik_n(y: Any, n: Any, p: Any, k: Any) -> Any:
    return where_solved(inverse_partial(_Binomial.dk(k, n, p), _Binomial.dn(k, n, p)),
                        sc.betainc(np.subtract(n, k), np.add(k, 1), 1 - p), y)


def _bdtrik_p(y: Any, n: Any, p: Any, k: Any) -> Any:
    return where_solved(inverse_partial(_Binomial.dk(k, n, p), _Binomial.dp(k, n, p)),
                        sc.betainc(np.subtract(n, k), np.add(k, 1), 1 - p), y)


def _bdtrin_k(k: Any, y: Any, p: Any, n: Any) -> Any:
    return where_solved(inverse_partial(_Binomial.dn(k, n, p), _Binomial.dk(k, n, p)),
                        sc.betainc(np.subtract(n, k), np.add(k, 1), 1 - p), y)


def _bdtrin_y(k: Any, y: Any, p: Any, n: Any) -> Any:
    return where_solved(inverse_partial(_Binomial.dn(k, n, p)), sc.betainc(np.subtract(n, k), np.add(k, 1), 1 - p), y)


def _bdtrin_p(k: Any, y: Any, p: Any, n: Any) -> Any:
    return where_solved(inverse_partial(_Binomial.dn(k, n, p), _Binomial.dp(k, n, p)),
                        sc.betainc(np.subtract(n, k), np.add(k, 1), 1 - p), y)


scalar_rule(sc.bdtr, ZERO, ZERO, _bdtr_p)
scalar_rule(sc.bdtrc, ZERO, ZERO, _bdtrc_p)
scalar_rule(sc.bdtri, ZERO, ZERO, _bdtri_y)
scalar_rule(sc.bdtrik, _bdtrik_y, _bdtrik_n, _bdtrik_p)
scalar_rule(sc.bdtrin, _bdtrin_k, _bdtrin_y, _bdtrin_p)


# ---- negative binomial: F(k, n, p) = I_p(n, k + 1) ------------------------------------------------------------
class _NegativeBinomial:
    """Partials of the continuous negative binomial cdf ``I_p(n, k + 1)``."""

    @staticmethod
    def parts(k: Any, n: Any, p: Any) -> tuple[Any, Any, np.ndarray]:
        k, n, p = _f64(k, n, p)
        return betainc_partials_pair(n, k + 1, p, 1 - p)

    @staticmethod
    def dk(k: Any, n: Any, p: Any) -> Any:
        return _NegativeBinomial.parts(k, n, p)[1]

    @staticmethod
    def dn(k: Any, n: Any, p: Any) -> Any:
        return _NegativeBinomial.parts(k, n, p)[0]

    @staticmethod
    def dp(k: Any, n: Any, p: Any) -> Any:
        return _NegativeBinomial.parts(k, n, p)[2]


def _nbdtr_p(k: Any, n: Any, p: Any) -> Any:
    return _NegativeBinomial.dp(np.floor(upcast(k)), np.floor(upcast(n)), p)


def _nbdtrc_p(k: Any, n: Any, p: Any) -> Any:
    return -_NegativeBinomial.dp(np.floor(upcast(k)), np.floor(upcast(n)), p)


def _nbdtri_y(k: Any, n: Any, y: Any, p: Any) -> Any:
    return inverse_partial(_nbdtr_p(k, n, p))


def _nb_value(k: Any, n: Any, p: Any) -> Any:
    return sc.betainc(n, np.add(k, 1), p)


def _nbdtrik_y(y: Any, n: Any, p: Any, k: Any) -> Any:
    return where_solved(inverse_partial(_NegativeBinomial.dk(k, n, p)), _nb_value(k, n, p), y)


def _nbdtrik_n(y: Any, n: Any, p: Any, k: Any) -> Any:
    return where_solved(inverse_partial(_NegativeBinomial.dk(k, n, p), _NegativeBinomial.dn(k, n, p)),
                        _nb_value(k, n, p), y)


def _nbdtrik_p(y: Any, n: Any, p: Any, k: Any) -> Any:
    return where_solved(inverse_partial(_NegativeBinomial.dk(k, n, p), _NegativeBinomial.dp(k, n, p)),
                        _nb_value(k, n, p), y)


def _nbdtrin_k(k: Any, y: Any, p: Any, n: Any) -> Any:
    return where_solved(inverse_partial(_NegativeBinomial.dn(k, n, p), _NegativeBinomial.dk(k, n, p)),
                        _nb_value(k, n, p), y)


def _nbdtrin_y(k: Any, y: Any, p: Any, n: Any) -> Any:
    return where_solved(inverse_partial(_NegativeBinomial.dn(k, n, p)), _nb_value(k, n, p), y)


def _nbdtrin_p(k: Any, y: Any, p: Any, n: Any) -> Any:
    return where_solved(inverse_partial(_NegativeBinomial.dn(k, n, p), _NegativeBinomial.dp(k, n, p)),
                        _nb_value(k, n, p), y)


scalar_rule(sc.nbdtr, ZERO, ZERO, _nbdtr_p)
scalar_rule(sc.nbdtrc, ZERO, ZERO, _nbdtrc_p)
scalar_rule(sc.nbdtri, ZERO, ZERO, _nbdtri_y)
scalar_rule(sc.nbdtrik, _nbdtrik_y, _nbdtrik_n, _nbdtrik_p)
scalar_rule(sc.nbdtrin, _nbdtrin_k, _nbdtrin_y, _nbdtrin_p)


# ---- beta: btdtria, btdtrib (inverses of I_x(a, b) in a and b) ------------------------------------------------
def _beta_parts(a: Any, b: Any, x: Any) -> tuple[Any, Any, np.ndarray]:
    a, b, x = _f64(a, b, x)
    return betainc_partials_pair(a, b, x, 1 - x)


def _btdtria_p(p: Any, b: Any, x: Any, a: Any) -> Any:
    ia, _, _ = _beta_parts(a, b, x)
    return where_solved(inverse_partial(ia), sc.betainc(a, b, x), p)


def _btdtria_b(p: Any, b: Any, x: Any, a: Any) -> Any:
    ia, ib, _ = _beta_parts(a, b, x)
    return where_solved(inverse_partial(ia, ib), sc.betainc(a, b, x), p)


def _btdtria_x(p: Any, b: Any, x: Any, a: Any) -> Any:
    ia, _, ix = _beta_parts(a, b, x)
    return where_solved(inverse_partial(ia, ix), sc.betainc(a, b, x), p)


def _btdtrib_a(a: Any, p: Any, x: Any, b: Any) -> Any:
    ia, ib, _ = _beta_parts(a, b, x)
    return where_solved(inverse_partial(ib, ia), sc.betainc(a, b, x), p)


def _btdtrib_p(a: Any, p: Any, x: Any, b: Any) -> Any:
    _, ib, _ = _beta_parts(a, b, x)
    return where_solved(inverse_partial(ib), sc.betainc(a, b, x), p)


def _btdtrib_x(a: Any, p: Any, x: Any, b: Any) -> Any:
    _, ib, ix = _beta_parts(a, b, x)
    return where_solved(inverse_partial(ib, ix), sc.betainc(a, b, x), p)


scalar_rule(sc.btdtria, _btdtria_p, _btdtria_b, _btdtria_x)
scalar_rule(sc.btdtrib, _btdtrib_a, _btdtrib_p, _btdtrib_x)


# ---- F: fdtr(m, n, x) = I_u(m/2, n/2), u = m x / (m x + n) ------------------------------------------------------
class _F:
    """Partials of ``fdtr(m, n, x)``."""

    @staticmethod
    def parts(m: Any, n: Any, x: Any) -> tuple[Any, Any, Any]:
        m, n, x = _f64(m, n, x)
        with np.errstate(divide="ignore", invalid="ignore"):
            denominator = m * x + n
            u, v = m * x / denominator, n / denominator
            ia, ib, iu = betainc_partials_pair(m / 2, n / 2, u, v)
            du_dm = x * n / (denominator * denominator)
            du_dn = -m * x / (denominator * denominator)
            du_dx = m * n / (denominator * denominator)
        return (_add(_scale(ia, 0.5), iu * du_dm), _add(_scale(ib, 0.5), iu * du_dn), iu * du_dx)

    @staticmethod
    def dm(m: Any, n: Any, x: Any) -> Any:
        return _F.parts(m, n, x)[0]

    @staticmethod
    def dn(m: Any, n: Any, x: Any) -> Any:
        return _F.parts(m, n, x)[1]

    @staticmethod
    def dx(m: Any, n: Any, x: Any) -> Any:
        return _F.parts(m, n, x)[2]


class _Fc:
    """Partials of ``fdtrc = 1 - fdtr``."""

    @staticmethod
    def dm(m: Any, n: Any, x: Any) -> Any:
        return _neg(_F.dm(m, n, x))

    @staticmethod
    def dn(m: Any, n: Any, x: Any) -> Any:
        return _neg(_F.dn(m, n, x))

    @staticmethod
    def dx(m: Any, n: Any, x: Any) -> Any:
        return _neg(_F.dx(m, n, x))


def _fdtri_m(m: Any, n: Any, p: Any, x: Any) -> Any:
    return inverse_partial(_F.dx(m, n, x), _F.dm(m, n, x))


def _fdtri_n(m: Any, n: Any, p: Any, x: Any) -> Any:
    return inverse_partial(_F.dx(m, n, x), _F.dn(m, n, x))


def _fdtri_p(m: Any, n: Any, p: Any, x: Any) -> Any:
    return inverse_partial(_F.dx(m, n, x))


def _fdtridfd_m(m: Any, p: Any, x: Any, n: Any) -> Any:
    return where_solved(inverse_partial(_F.dn(m, n, x), _F.dm(m, n, x)), sc.fdtr(m, n, x), p)


def _fdtridfd_p(m: Any, p: Any, x: Any, n: Any) -> Any:
    return where_solved(inverse_partial(_F.dn(m, n, x)), sc.fdtr(m, n, x), p)


def _fdtridfd_x(m: Any, p: Any, x: Any, n: Any) -> Any:
    return where_solved(inverse_partial(_F.dn(m, n, x), _F.dx(m, n, x)), sc.fdtr(m, n, x), p)


scalar_rule(sc.fdtr, _F.dm, _F.dn, _F.dx)
scalar_rule(sc.fdtrc, _Fc.dm, _Fc.dn, _Fc.dx)
scalar_rule(sc.fdtri, _fdtri_m, _fdtri_n, _fdtri_p)
scalar_rule(sc.fdtridfd, _fdtridfd_m, _fdtridfd_p, _fdtridfd_x)


# ---- Student t ---------------------------------------------------------------------------------------------
STDTR_CANCELLATION_LIMIT = 2e3
"""The largest cancellation accepted between the two terms of ``d stdtr / d df``.

``d/ddf I_z(df/2, 1/2) = dI/da / 2 + dI/dz t^2/(df + t^2)^2``: the terms nearly cancel for
large ``df`` (the distribution tends to the normal one), by a factor that grows like
``df``. Against mpmath: relative error 1.5e-9 at ``df = 2000`` (factor 1.6e3), 6e-9 at
5000 (4e3), 1.5e-8 at 1e4 (8e3), 7e-7 at 1e5, for ``t = 2``. Beyond the limit the
cotangent is ``not_implemented``."""

_STDTR_CANCELS = ("stdtr's derivative in df: its two terms cancel by a factor {factor:.1e} at df = {df!r}, t = {t!r} "
                  "(large df: the t distribution is nearly normal), leaving fewer than 8 correct digits; use the "
                  "normal approximation's derivative there, or hold df fixed")

class _T:
    """Partials of ``stdtr(df, t)``."""

    @staticmethod
    def ddf(df: Any, t: Any) -> Any:
        df, t = _f64(df, t)
        with np.errstate(divide="ignore", invalid="ignore"):
            t2 = t * t
            denominator = df + t2
            ia, _, iz = betainc_partials_pair(df / 2, 0.5, df / denominator, t2 / denominator)
            if isinstance(ia, NotImplementedTangent):
                return ia
            through_a, through_z = 0.5 * ia, iz * t2 / (denominator * denominator)
            d_i = through_a + through_z  # d/ddf of I_z(df/2, 1/2)
            factor = (np.abs(through_a) + np.abs(through_z)) / np.abs(d_i)
            bad = (factor > STDTR_CANCELLATION_LIMIT) & (t != 0)
            if np.any(bad):
                return not_implemented(_STDTR_CANCELS.format(factor=float(factor[bad].flat[0]),
                                                             df=float(df[bad].flat[0]), t=float(t[bad].flat[0])))
            return np.where(t == 0, 0.0, -0.5 * np.sign(t) * d_i)[()]

    @staticmethod
    def dt(df: Any, t: Any) -> Any:
        df, t = _f64(df, t)
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            log_density = (sc.gammaln((df + 1) / 2) - sc.gammaln(df / 2) - 0.5 * np.log(df * np.pi)
                           - (df + 1) / 2 * np.log1p(t * t / df))
            return np.exp(log_density)


def _stdtrit_df(df: Any, p: Any, t: Any) -> Any:
    return inverse_partial(_T.dt(df, t), _T.ddf(df, t))


def _stdtrit_p(df: Any, p: Any, t: Any) -> Any:
    return inverse_partial(_T.dt(df, t))


def _stdtridf_p(p: Any, t: Any, df: Any) -> Any:
    return where_solved(inverse_partial(_T.ddf(df, t)), sc.stdtr(df, t), p)


def _stdtridf_t(p: Any, t: Any, df: Any) -> Any:
    return where_solved(inverse_partial(_T.ddf(df, t), _T.dt(df, t)), sc.stdtr(df, t), p)


scalar_rule(sc.stdtr, _T.ddf, _T.dt)
scalar_rule(sc.stdtrit, _stdtrit_df, _stdtrit_p)
scalar_rule(sc.stdtridf, _stdtridf_p, _stdtridf_t)


# ---- samples ----------------------------------------------------------------------------------------------
@sample_inputs(sc.bdtr, sc.bdtrc)
def _bdtr_samples() -> Any:
    yield Sample(3, 10, 0.3, label="integer counts")
    yield Sample(np.array([0, 3, 40]), np.array([5, 10, 100]), np.array([0.3, 0.45, 0.35]), label="arrays")
    yield Sample(np.array([2.5, 30.5]), np.array([10.5, 80.5]), np.array([0.2, 0.4]), label="float counts (floored)")
    yield Sample(3, 10, np.array([0.2, 0.6], dtype=np.float32), label="float32")


@sample_inputs(sc.bdtri)
def _bdtri_samples() -> Any:
    yield Sample(3, 10, 0.4, label="integer counts")
    yield Sample(np.array([0, 3, 40]), np.array([5, 10, 100]), np.array([0.3, 0.6, 0.5]), label="arrays")
    yield Sample(2.5, 10.5, np.array([0.3, 0.6]), label="float counts (floored)")


@sample_inputs(sc.bdtrik)
def _bdtrik_samples() -> Any:
    yield Sample(0.4, 10.0, 0.3, label="scalars")
    yield Sample(np.array([0.2, 0.7, 0.5]), np.array([6.0, 10.0, 120.0]), np.array([0.3, 0.45, 0.2]), label="arrays")


@sample_inputs(sc.bdtrin)
def _bdtrin_samples() -> Any:
    yield Sample(3.0, 0.4, 0.3, label="scalars")
    yield Sample(np.array([1.5, 3.0, 30.0]), np.array([0.2, 0.7, 0.5]), np.array([0.3, 0.45, 0.2]), label="arrays")


@sample_inputs(sc.btdtria)
def _btdtria_samples() -> Any:
    yield Sample(0.3, 2.5, 0.4, label="scalars")
    yield Sample(np.array([0.2, 0.7, 0.5]), np.array([0.6, 2.5, 40.0]), np.array([0.3, 0.8, 0.5]), label="arrays")


@sample_inputs(sc.btdtrib)
def _btdtrib_samples() -> Any:
    yield Sample(2.0, 0.3, 0.4, label="scalars")
    yield Sample(np.array([0.6, 2.5, 40.0]), np.array([0.2, 0.7, 0.5]), np.array([0.3, 0.8, 0.5]), label="arrays")


@sample_inputs(sc.fdtr, sc.fdtrc)
def _fdtr_samples() -> Any:
    yield Sample(3.5, 7.2, 1.3, label="scalars")
    yield Sample(np.array([1.0, 3.5, 30.0, 2.0]), np.array([2.0, 7.2, 40.0, 5.0]), np.array([0.05, 1.3, 1.1, 300.0]),
                 label="small x, moderate, large dfs, far tail (u near 1)")
    yield Sample(np.float32(3.5), np.float32(7.2), np.array([0.5, 1.3], dtype=np.float32), label="float32")


@sample_inputs(sc.fdtri)
def _fdtri_samples() -> Any:
    yield Sample(3.5, 7.2, 0.3, label="scalars")
    yield Sample(np.array([1.0, 3.5, 30.0]), np.array([2.0, 7.2, 40.0]), np.array([0.1, 0.5, 0.95]), label="arrays")


@sample_inputs(sc.fdtridfd)
def _fdtridfd_samples() -> Any:
    yield Sample(3.5, 0.3, 1.3, label="scalars")
    yield Sample(np.array([1.0, 3.5, 30.0]), np.array([0.2, 0.6, 0.7]), np.array([0.5, 1.5, 1.5]), label="arrays")


@sample_inputs(sc.nbdtr, sc.nbdtrc)
def _nbdtr_samples() -> Any:
    yield Sample(3, 5, 0.3, label="integer counts")
    yield Sample(np.array([0, 3, 40]), np.array([1, 5, 30]), np.array([0.3, 0.45, 0.4]), label="arrays")
    yield Sample(np.array([2.5, 30.5]), np.array([5.5, 20.5]), np.array([0.3, 0.4]), label="float counts (floored)")
    yield Sample(3, 5, np.array([0.3, 0.6], dtype=np.float32), label="float32")


@sample_inputs(sc.nbdtri)
def _nbdtri_samples() -> Any:
    yield Sample(3, 5, 0.4, label="integer counts")
    yield Sample(np.array([0, 3, 40]), np.array([1, 5, 30]), np.array([0.3, 0.6, 0.5]), label="arrays")


@sample_inputs(sc.nbdtrik)
def _nbdtrik_samples() -> Any:
    yield Sample(0.4, 5.0, 0.3, label="scalars")
    yield Sample(np.array([0.2, 0.7, 0.5]), np.array([1.5, 5.0, 60.0]), np.array([0.3, 0.45, 0.6]), label="arrays")


@sample_inputs(sc.nbdtrin)
def _nbdtrin_samples() -> Any:
    yield Sample(3.0, 0.4, 0.3, label="scalars")
    yield Sample(np.array([1.5, 3.0, 30.0]), np.array([0.2, 0.5, 0.6]), np.array([0.3, 0.45, 0.6]), label="arrays")


@sample_inputs(sc.stdtr)
def _stdtr_samples() -> Any:
    yield Sample(3.5, 1.2, label="scalars")
    yield Sample(np.array([0.7, 3.5, 3.5, 30.0, 400.0, 4.0]), np.array([-2.0, 1.2, 0.0, -0.4, 1.5, 60.0]),
                 label="both signs, t = 0, large df, far tail")
    yield Sample(np.float32(3.5), np.array([-1.0, 1.2], dtype=np.float32), label="float32")


@sample_inputs(sc.stdtrit)
def _stdtrit_samples() -> Any:
    yield Sample(3.5, 0.7, label="scalars")
    yield Sample(np.array([0.7, 3.5, 3.5, 300.0]), np.array([0.2, 0.5, 0.99, 0.3]), label="arrays")


@sample_inputs(sc.stdtridf)
def _stdtridf_samples() -> Any:
    yield Sample(0.7, 1.2, label="scalars")
    yield Sample(np.array([0.8, 0.95, 0.1, 0.99]), np.array([1.0, 2.5, -2.0, 2.5]), label="arrays")
