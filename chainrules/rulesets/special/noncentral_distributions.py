"""Noncentral chi-square, F and t distributions: chndtr, chndtridf, chndtrinc, chndtrix, ncfdtr, ncfdtri, ncfdtridfd,
ncfdtridfn, ncfdtrinc, nctdtr, nctdtridf, nctdtrinc, nctdtrit, in every continuous argument.

The maths
---------
The noncentral chi-square and F distributions are Poisson mixtures of central ones
(DLMF 8.21; Johnson, Kotz & Balakrishnan, *Continuous Univariate Distributions 2*, 29.2, 30.2),
with weights ``w_j = e^-mu mu^j / j!``, ``mu = nc/2``:

* ``chndtr(x, k, nc) = sum_j w_j P(k/2 + j, x/2)``: ``d/dx = sum_j w_j P_z(k/2 + j, x/2) / 2``,
  ``d/dk = sum_j w_j P_s(k/2 + j, x/2) / 2`` and, from ``dw_j/dmu = w_(j-1) - w_j`` and
  ``P(s+1, z) - P(s, z) = -P_z(s+1, z)``, ``d/dnc = -sum_j w_j P_z(k/2 + 1 + j, x/2) / 2``
  (minus the density with ``k + 2`` degrees of freedom); at ``nc = 0`` the right derivative
  (SciPy is NaN for ``nc < 0``);
* ``ncfdtr(m, n, nc, f) = sum_j w_j I_u(m/2 + j, n/2)``, ``u = m f/(m f + n)``: the chain rule
  through ``u`` for ``f``, ``m``, ``n`` (with ``dI/da``, ``dI/db`` of
  :mod:`~chainrules.rulesets.special.incomplete_beta`), and
  ``d/dnc = -sum_j w_j u^(a_j) (1-u)^(n/2) / (2 a_j B(a_j, n/2))``, ``a_j = m/2 + j``.

The noncentral t distribution (Guenther 1978; Lenth 1989, AS 243) for ``t >= 0``:
``F = Phi(-d) + (1/2) sum_j (p_j I_x(j + 1/2, v/2) + q_j I_x(j + 1, v/2))``, ``x = t^2/(v + t^2)``,
``p_j = e^(-d^2/2) (d^2/2)^j / j!``, ``q_j = d e^(-d^2/2) (d^2/2)^j / (sqrt 2 Gamma(j + 3/2))``;
for ``t < 0``, ``F(t; v, d) = 1 - F(-t; v, -d)``. Where ``x > 1/2`` the complement
``1 - F = (1/2) sum_j (p_j I_(1-x)(v/2, j + 1/2) + q_j I_(1-x)(v/2, j + 1))`` (the sums of ``p_j``
and ``q_j`` are 1 and ``1 - 2 Phi(-d)``) is differentiated instead, so the upper tail keeps
its relative accuracy. ``dp_j/dd = d (p_(j-1) - p_j)``, ``dq_j/dd = q_j/d + d (r_(j-1) j/(j + 1/2) - r_j) d``
with ``r_j = q_j / d``; at ``t = 0`` the ``t`` derivative is the density
``Gamma((v+1)/2) e^(-d^2/2) / (Gamma(v/2) sqrt(v pi))``.

The sums run over a window of ``j`` around the Poisson mode, ``mu +- (9 sqrt(mu) + 25)``
(the Poisson mass outside is below ``exp(-t^2 / (2 (mu + t/3)))``, 1e-17, by Bernstein's
inequality). For the ``t`` family the terms of
the ``d`` and ``v`` sums can have both signs (``d < 0``): the rule adds up their absolute
values too, and where the sum has cancelled more than eight digits
(:data:`CANCELLATION_LIMIT`) the cotangent is ``not_implemented`` rather than a loose number.

The inverses (``chndtridf``: ``k``; ``chndtrinc``: ``nc``; ``chndtrix``: ``x``; ``ncfdtri``: ``f``;
``ncfdtridfd``: ``n``; ``ncfdtridfn``: ``m``; ``ncfdtrinc``: ``nc``; ``nctdtridf``: ``v``;
``nctdtrinc``: ``d``; ``nctdtrit``: ``t``) by the implicit function theorem at their output.
SciPy's root finders (cdflib) stop at a residual of about 1e-7 for some of them, and return
a bound of their search interval (1e-100, 1e100...) when there is no solution: there the
output is constant and the partials are 0 (residual above :data:`SOLVED_TOLERANCE`).

Examples
--------
>>> import scipy.special as sc
>>> import chainrules
>>> from chainrules import rrule, unthunk
>>> y, pullback = rrule(sc.chndtr, 3.0, 2.5, 1.5)
>>> [round(float(unthunk(c)), 10) for c in pullback(1.0)[1:]]  # mpmath: 0.1385172474, -0.1418494453, -0.1231237164
[0.1385172474, -0.1418494453, -0.1231237164]
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import scipy.special as sc

from chainrules.rulesets.special._precision import upcast
from chainrules.rulesets.special.beta_distributions import betainc_partials_pair
from chainrules.rulesets.special.gamma_distributions import inverse_partial
from chainrules.rulesets.special.incomplete_beta import _log_prefactor as _log_beta_prefactor
from chainrules.rulesets.special.incomplete_gamma import gammainc_da, gammainc_dx
from chainrules_core import Sample, not_implemented, sample_inputs, scalar_rule
from chainrules_core.tangents.not_implemented import NotImplementedTangent

__all__ = ["CANCELLATION_LIMIT", "SOLVED_TOLERANCE"]

SOLVED_TOLERANCE = 1e-5
"""How far ``F(output)`` may be from the target for an inverse to count as solved (cdflib's
solvers stop at residuals of ~3e-7 here; the search bounds they return on failure are far)."""

CANCELLATION_LIMIT = 1e8
"""Largest ``sum |terms| / |sum terms|`` accepted in the ``t`` family's sums (eight digits lost)."""

_CANCELLED = ("{name}: the series of the derivative in {what} cancels by a factor {factor:.1e} at {where} (more "
              "than eight digits lost: d < 0 deep in a tail); no derivative of the promised accuracy there")


def _f64(*args: Any) -> list[np.ndarray]:
    return [np.array(v, dtype=np.float64).reshape(-1) for v in np.broadcast_arrays(*(upcast(a) for a in args))]


def _shape(*args: Any) -> tuple[int, ...]:
    return np.broadcast(*(np.asarray(a) for a in args)).shape


def _poisson_sum(mu: np.ndarray, term: Callable[[np.ndarray, np.ndarray], tuple[Any, ...]],
                 count: int) -> tuple[Any, ...]:
    """``sum_j w_j term_j`` over a window of ``j`` around the Poisson(``mu``) mode, for ``count`` outputs.

    ``term(j, index)`` gets the ``j`` of the elements ``index`` (1-D) and returns ``count``
    arrays (or a ``NotImplementedTangent``, returned as the whole result).
    """
    width = 9 * np.sqrt(mu) + 25  # Poisson tails beyond: below exp(-t^2 / (2 (mu + t/3))) < 1e-17
    lo = np.maximum(0.0, np.floor(mu - width))
    hi = np.ceil(mu + width)
    totals = [np.zeros(mu.shape) for _ in range(count)]
    with np.errstate(divide="ignore", invalid="ignore"):
        log_mu = np.log(mu)
        for step in range(int(np.max(hi - lo, initial=0.0)) + 1):
            j = lo + step
            index = np.nonzero(j <= hi)[0]
            if index.size == 0:
                break
            jj = j[index]
            weight = np.where(mu[index] == 0, (jj == 0) * 1.0,
                              np.exp(jj * log_mu[index] - mu[index] - sc.gammaln(jj + 1)))
            live = weight > 0
            if not np.any(live):
                continue
            index, jj, weight = index[live], jj[live], weight[live]
            parts = term(jj, index)
            for total, part in zip(totals, parts):
                if isinstance(part, NotImplementedTangent):
                    return (part,) * count
                total[index] += weight * part
    return tuple(totals)


# ---- noncentral chi-square -----------------------------------------------------------------------------
def _chndtr_partials(x: Any, k: Any, nc: Any) -> tuple[Any, Any, Any]:
    shape = _shape(x, k, nc)
    x, k, nc = _f64(x, k, nc)

    def term(j: np.ndarray, i: np.ndarray) -> tuple[Any, ...]:
        s, z = k[i] / 2 + j, x[i] / 2
        ds = gammainc_da(s, z)
        return gammainc_dx(s, z) / 2, (ds if isinstance(ds, NotImplementedTangent) else ds / 2), \
            -gammainc_dx(s + 1, z) / 2

    parts = _poisson_sum(nc / 2, term, 3)
    return tuple(p if isinstance(p, NotImplementedTangent) else p.reshape(shape)[()] for p in parts)  # type: ignore


def _picker(which: int, name: str) -> Callable[..., Any]:
    """A partial of a rule whose ``shared`` work computed all of them (a tuple)."""
    def pick(*args_y_shared: Any) -> Any:
        return args_y_shared[-1][which]

    pick.__name__ = name
    return pick


def _chndtr_shared(x: Any, k: Any, nc: Any, y: Any) -> Any:
    return _chndtr_partials(x, k, nc)


scalar_rule(sc.chndtr, _picker(0, "chndtr_dx"), _picker(1, "chndtr_ddf"), _picker(2, "chndtr_dnc"),
            shared=_chndtr_shared)


def _inverse_rule(f: Any, partials: Callable[..., Any], value: Callable[..., Any], solved: int,
                  slots: tuple[int | None, ...]) -> None:
    """Register ``f``, the inverse of a forward function in its argument ``solved``, by the implicit function theorem.

    ``slots[i]`` is the forward position of ``f``'s argument ``i`` (``None`` for the probability).
    The forward partials are computed once per rule call (``shared``).
    """
    p_index = slots.index(None)

    def shared(*args_y: Any) -> Any:
        args, y = args_y[:-1], args_y[-1]
        forward: list[Any] = [None] * len(slots)
        for i, slot in enumerate(slots):
            if slot is not None:
                forward[slot] = args[i]
        forward[solved] = y
        return partials(*forward), value(*forward), args[p_index]

    def make(position: int | None) -> Callable[..., Any]:
        def inverse_partial_of(*args_y_shared: Any) -> Any:
            parts, reached, target = args_y_shared[-1]
            d_other = None if position is None else parts[position]
            return where_solved_loose(inverse_partial(parts[solved], d_other), reached, target)

        inverse_partial_of.__name__ = f"{f.__name__}_partial_{len(slots)}"
        return inverse_partial_of

    # scalar_rule checks the partials' arity: one parameter per argument, the output and the shared value
    def with_arity(partial: Callable[..., Any]) -> Callable[..., Any]:
        n = len(slots)
        if n == 3:
            def partial3(a0: Any, a1: Any, a2: Any, y: Any, s: Any) -> Any:
                return partial(a0, a1, a2, y, s)
            return partial3

        def partial4(a0: Any, a1: Any, a2: Any, a3: Any, y: Any, s: Any) -> Any:
            return partial(a0, a1, a2, a3, y, s)
        return partial4

    def shared_with_arity(*args_y: Any) -> Any:
        return shared(*args_y)

    scalar_rule(f, *(with_arity(make(slot)) for slot in slots), shared=shared_with_arity)


def where_solved_loose(partial: Any, value: Any, target: Any) -> Any:
    """``where_solved`` (:mod:`~chainrules.rulesets.special.gamma_distributions`) at :data:`SOLVED_TOLERANCE`."""
    with np.errstate(invalid="ignore"):
        solved = ~(np.abs(np.asarray(value) - target) > SOLVED_TOLERANCE)
    if isinstance(partial, NotImplementedTangent):  # not available somewhere: fine if only where nothing was solved
        return np.zeros(solved.shape)[()] if not np.any(solved) else partial
    return np.where(solved, partial, 0.0)[()]



# chndtridf(x, p, nc) = k; chndtrinc(x, k, p) = nc; chndtrix(p, k, nc) = x
_inverse_rule(sc.chndtridf, _chndtr_partials, sc.chndtr, 1, (0, None, 2))
_inverse_rule(sc.chndtrinc, _chndtr_partials, sc.chndtr, 2, (0, 1, None))
_inverse_rule(sc.chndtrix, _chndtr_partials, sc.chndtr, 0, (None, 1, 2))


# ---- noncentral F -----------------------------------------------------------------------------------------
def _ncfdtr_partials(m: Any, n: Any, nc: Any, f: Any) -> tuple[Any, Any, Any, Any]:
    """``(d/dm, d/dn, d/dnc, d/df)`` of ``ncfdtr(m, n, nc, f)``."""
    shape = _shape(m, n, nc, f)
    m, n, nc, f = _f64(m, n, nc, f)
    with np.errstate(divide="ignore", invalid="ignore"):
        denominator = m * f + n
        u, v = m * f / denominator, n / denominator
        du_dm = f * n / denominator ** 2
        du_dn = -m * f / denominator ** 2
        du_df = m * n / denominator ** 2

    def term(j: np.ndarray, i: np.ndarray) -> tuple[Any, ...]:
        a, b = m[i] / 2 + j, n[i] / 2
        ia, ib, iu = betainc_partials_pair(a, b, u[i], v[i])
        if isinstance(ia, NotImplementedTangent):
            return (ia,) * 4
        with np.errstate(divide="ignore", invalid="ignore", under="ignore"):
            k = np.exp(_log_beta_prefactor(a, b, u[i]) - np.log(a))
        return (ia / 2 + iu * du_dm[i], ib / 2 + iu * du_dn[i], -k / 2, iu * du_df[i])

    parts = _poisson_sum(nc / 2, term, 4)
    return tuple(p if isinstance(p, NotImplementedTangent) else p.reshape(shape)[()] for p in parts)  # type: ignore


def _ncfdtr_shared(m: Any, n: Any, nc: Any, f: Any, y: Any) -> Any:
    return _ncfdtr_partials(m, n, nc, f)


scalar_rule(sc.ncfdtr, _picker(0, "ncfdtr_ddfn"), _picker(1, "ncfdtr_ddfd"), _picker(2, "ncfdtr_dnc"),
            _picker(3, "ncfdtr_df"), shared=_ncfdtr_shared)
_inverse_rule(sc.ncfdtri, _ncfdtr_partials, sc.ncfdtr, 3, (0, 1, 2, None))  # ncfdtri(m, n, nc, p) = f
_inverse_rule(sc.ncfdtridfd, _ncfdtr_partials, sc.ncfdtr, 1, (0, None, 2, 3))  # ncfdtridfd(m, p, nc, f) = n
_inverse_rule(sc.ncfdtridfn, _ncfdtr_partials, sc.ncfdtr, 0, (None, 1, 2, 3))  # ncfdtridfn(p, n, nc, f) = m
_inverse_rule(sc.ncfdtrinc, _ncfdtr_partials, sc.ncfdtr, 2, (0, 1, None, 3))  # ncfdtrinc(m, n, p, f) = nc


# ---- noncentral t ------------------------------------------------------------------------------------------
def _nct_nonnegative(v: np.ndarray, d: np.ndarray, t: np.ndarray) -> tuple[Any, ...]:
    """``(G_v, G_d, G_t)`` of ``G(t; v, d)`` for ``t > 0`` (1-D arrays), with the absolute sums of their terms."""
    t2 = t * t
    denominator = v + t2
    x, y = t2 / denominator, v / denominator
    dx_dv = -t2 / denominator ** 2
    dx_dt = 2 * t * v / denominator ** 2
    upper = x > 0.5
    m = d * d / 2
    width = 9 * np.sqrt(m) + 25
    lo = np.maximum(0.0, np.floor(m - width))
    hi = np.ceil(m + width)
    phi_d = np.exp(-m) / np.sqrt(2 * np.pi)
    sums = {name: np.zeros(v.shape) for name in ("v", "d", "t", "av", "ad", "at")}
    sums["d"] = np.where(upper, 0.0, -phi_d)
    sums["ad"] = np.where(upper, 0.0, phi_d)
    with np.errstate(divide="ignore", invalid="ignore", under="ignore"):
        log_m = np.log(m)

        def coefficient(j: np.ndarray, i: np.ndarray, offset: float) -> np.ndarray:
            """``e^-m m^j / Gamma(j + offset)`` (0 for ``j < 0``)."""
            mm = m[i]
            value = np.exp(-mm + j * log_m[i] - sc.gammaln(np.maximum(j, 0) + offset))
            value = np.where(mm == 0, (j == 0) / sc.gamma(offset), value)
            return np.where(j < 0, 0.0, value)

        largest = np.zeros(v.shape)
        for step in range(int(np.max(hi - lo, initial=0.0)) + 1):
            j_all = lo + step
            i = np.nonzero(j_all <= hi)[0]
            if i.size == 0:
                break
            j, dd = j_all[i], d[i]
            p, p_prev = coefficient(j, i, 1.0), coefficient(j - 1, i, 1.0)
            r, r_prev = coefficient(j, i, 1.5) / np.sqrt(2), coefficient(j - 1, i, 1.5) / np.sqrt(2)
            largest[i] = np.maximum(largest[i], np.maximum(p, r))
            spent = (j > m[i]) & (np.maximum(p_prev, r_prev) < 1e-30 * largest[i])  # past the mode, negligible
            hi[i[spent]] = -1.0
            keep = ~spent
            if not np.any(keep):
                continue
            i, j, dd, p, p_prev, r, r_prev = i[keep], j[keep], dd[keep], p[keep], p_prev[keep], r[keep], r_prev[keep]
            q = dd * r
            dp = dd * (p_prev - p)
            dq = r + dd * dd * (r_prev * j / (j + 0.5) - r)
            b = v[i] / 2
            first = betainc_partials_pair(j + 0.5, b, x[i], y[i])
            second = betainc_partials_pair(j + 1.0, b, x[i], y[i])
            if isinstance(first[0], NotImplementedTangent) or isinstance(second[0], NotImplementedTangent):
                return (first[0] if isinstance(first[0], NotImplementedTangent) else second[0],) * 6
            term_v = 0.5 * (p * (0.5 * first[1] + first[2] * dx_dv[i]) + q * (0.5 * second[1] + second[2] * dx_dv[i]))
            term_t = 0.5 * (p * first[2] + q * second[2]) * dx_dt[i]
            up = upper[i]
            lower_1 = sc.betainc(j + 0.5, b, x[i])
            lower_2 = sc.betainc(j + 1.0, b, x[i])
            upper_1 = sc.betainc(b, j + 0.5, y[i])
            upper_2 = sc.betainc(b, j + 1.0, y[i])
            term_d = np.where(up, -0.5 * (dp * upper_1 + dq * upper_2), 0.5 * (dp * lower_1 + dq * lower_2))
            for name, term in (("v", term_v), ("d", term_d), ("t", term_t)):
                term = np.where(np.isfinite(term), term, 0.0) if name != "t" else term
                sums[name][i] += term
                sums["a" + name][i] += np.abs(term)
    return sums["v"], sums["d"], sums["t"], sums["av"], sums["ad"], sums["at"]


def _nctdtr_partials(v: Any, d: Any, t: Any) -> tuple[Any, Any, Any]:
    """``(d/ddf, d/dnc, d/dt)`` of ``nctdtr(df, nc, t)``."""
    shape = _shape(v, d, t)
    v, d, t = _f64(v, d, t)
    flip = t < 0  # F(t; v, d) = 1 - G(-t; v, -d)
    dd, tt = np.where(flip, -d, d), np.abs(t)
    gv, gd, gt = np.full(v.shape, np.nan), np.full(v.shape, np.nan), np.full(v.shape, np.nan)
    with np.errstate(invalid="ignore", over="ignore", under="ignore"):
        zero = tt == 0  # G(0) = Phi(-d): no dependence on v; the t derivative is the density at 0
        if np.any(zero):
            vz, dz = v[zero], dd[zero]
            gv[zero] = 0.0
            gd[zero] = -np.exp(-dz * dz / 2) / np.sqrt(2 * np.pi)
            gt[zero] = np.exp(sc.gammaln((vz + 1) / 2) - sc.gammaln(vz / 2) - dz * dz / 2) / np.sqrt(vz * np.pi)
        inside = (tt > 0) & np.isfinite(tt) & (v > 0)
        if np.any(inside):
            parts = _nct_nonnegative(v[inside], dd[inside], tt[inside])
            if isinstance(parts[0], NotImplementedTangent):
                return parts[0], parts[0], parts[0]
            failed: dict[str, NotImplementedTangent] = {}
            for out, total, magnitude, what in ((gv, parts[0], parts[3], "df"), (gd, parts[1], parts[4], "nc"),
                                                (gt, parts[2], parts[5], "t")):
                with np.errstate(divide="ignore"):
                    factor = magnitude / np.abs(total)
                bad = factor > CANCELLATION_LIMIT
                if np.any(bad):
                    k = np.nonzero(inside)[0][bad][0]
                    failed[what] = not_implemented(_CANCELLED.format(
                        name="nctdtr", what=what, factor=float(factor[bad][0]),
                        where=f"df = {v[k]!r}, nc = {d[k]!r}, t = {t[k]!r}"))
                out[inside] = total
    gv = np.where(flip, -gv, gv)
    result: list[Any] = [gv.reshape(shape)[()], gd.reshape(shape)[()], gt.reshape(shape)[()]]
    for position, what in enumerate(("df", "nc", "t")):
        if what in (failed if np.any(inside) else {}):
            result[position] = failed[what]
    return result[0], result[1], result[2]


def _nctdtr_shared(v: Any, d: Any, t: Any, y: Any) -> Any:
    return _nctdtr_partials(v, d, t)


scalar_rule(sc.nctdtr, _picker(0, "nctdtr_ddf"), _picker(1, "nctdtr_dnc"), _picker(2, "nctdtr_dt"),
            shared=_nctdtr_shared)
_inverse_rule(sc.nctdtridf, _nctdtr_partials, sc.nctdtr, 0, (None, 1, 2))  # nctdtridf(p, nc, t) = df
_inverse_rule(sc.nctdtrinc, _nctdtr_partials, sc.nctdtr, 1, (0, None, 2))  # nctdtrinc(df, p, t) = nc
_inverse_rule(sc.nctdtrit, _nctdtr_partials, sc.nctdtr, 2, (0, 1, None))  # nctdtrit(df, nc, p) = t


# ---- samples ----------------------------------------------------------------------------------------------
@sample_inputs(sc.chndtr)
def _chndtr_samples() -> Any:
    yield Sample(3.0, 2.5, 1.5, label="scalars")
    yield Sample(np.array([0.5, 3.0, 50.0, 8.0, 2.0]), np.array([0.7, 2.5, 10.0, 3.0, 4.0]),
                 np.array([4.0, 1.5, 30.0, 1e-3, 60.0]), label="small df, moderate, large, nearly central, large nc")


@sample_inputs(sc.chndtridf)
def _chndtridf_samples() -> Any:
    yield Sample(3.0, 0.4, 1.5, label="scalars", rtol=1e-5)
    yield Sample(np.array([3.0, 20.0]), np.array([0.4, 0.7]), np.array([1.5, 6.0]), label="arrays", rtol=1e-5)


@sample_inputs(sc.chndtrinc)
def _chndtrinc_samples() -> Any:
    yield Sample(3.0, 2.5, 0.2, label="scalars", rtol=1e-5)
    yield Sample(np.array([3.0, 20.0]), np.array([2.5, 5.0]), np.array([0.2, 0.3]), label="arrays", rtol=1e-5)


@sample_inputs(sc.chndtrix)
def _chndtrix_samples() -> Any:
    yield Sample(0.4, 2.5, 1.5, label="scalars", rtol=1e-5)
    yield Sample(np.array([0.1, 0.9]), np.array([2.5, 10.0]), np.array([1.5, 20.0]), label="arrays", rtol=1e-5)


@sample_inputs(sc.ncfdtr)
def _ncfdtr_samples() -> Any:
    yield Sample(3.0, 7.0, 1.5, 1.2, label="scalars")
    yield Sample(np.array([3.0, 10.0, 2.0]), np.array([7.0, 20.0, 5.0]), np.array([1.5, 12.0, 1e-3]),
                 np.array([1.2, 3.0, 40.0]), label="moderate, large nc, central far tail")


@sample_inputs(sc.ncfdtri)
def _ncfdtri_samples() -> Any:
    yield Sample(3.0, 7.0, 1.5, 0.4, label="scalars", rtol=1e-5)


@sample_inputs(sc.ncfdtridfd)
def _ncfdtridfd_samples() -> Any:
    yield Sample(3.0, 0.4, 1.5, 1.2, label="scalars", rtol=1e-3)


@sample_inputs(sc.ncfdtridfn)
def _ncfdtridfn_samples() -> Any:
    yield Sample(0.5, 7.0, 1.5, 1.2, label="scalars", rtol=1e-3)
    yield Sample(0.4, 7.0, 1.5, 1.2, label="no solution (1e-100 returned): zero derivative")


@sample_inputs(sc.ncfdtrinc)
def _ncfdtrinc_samples() -> Any:
    yield Sample(3.0, 7.0, 0.4, 1.2, label="scalars", rtol=1e-3)


@sample_inputs(sc.nctdtr)
def _nctdtr_samples() -> Any:
    yield Sample(5.0, 1.5, 1.2, label="scalars")
    yield Sample(np.array([5.0, 5.0, 12.0, 2.5, 4.0]), np.array([-1.5, 1.5, 2.5, 0.0, 2.0]),
                 np.array([1.2, -1.2, 4.0, -0.3, 0.0]),
                 label="both signs of nc and t, the upper form (t^2 > df), central, t = 0")


@sample_inputs(sc.nctdtridf)
def _nctdtridf_samples() -> Any:
    yield Sample(0.3, 1.5, 1.2, label="scalars", rtol=1e-3)


@sample_inputs(sc.nctdtrinc)
def _nctdtrinc_samples() -> Any:
    yield Sample(5.0, 0.4, 1.2, label="scalars", rtol=1e-3)


@sample_inputs(sc.nctdtrit)
def _nctdtrit_samples() -> Any:
    yield Sample(5.0, 1.5, 0.4, label="scalars", rtol=1e-3)
