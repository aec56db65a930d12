"""Linear least squares with bounds: ``scipy.optimize.nnls`` and ``scipy.optimize.lsq_linear``.

The maths
---------
Both minimise ``||A x - b||^2 / 2`` subject to ``lb <= x <= ub`` (``nnls``: ``x >= 0``). At the
solution, with the residual ``r = A x - b`` and the gradient ``g = A^T r``, a coordinate at a bound
with a nonzero multiplier (``g_i > 0`` at ``lb``, ``< 0`` at ``ub``) is *active* and stays at its
bound under small changes of the data; the free coordinates ``F`` solve the normal equations
restricted to them, ``A_F^T (A x - b) = 0``. Differentiating (the implicit function theorem on
the KKT conditions at a fixed, strictly complementary active set; Lawson & Hanson 1974,
"Solving Least Squares Problems", ch. 23, for the active-set characterisation):

``A_F^T A_F dx_F = -(dA_F^T r + A_F^T (dA x + A_N dx_N - db))``, ``dx_N = d bound_N``.

Reverse mode solves ``A_F^T A_F u_F = x_bar_F`` once (``u`` zero off ``F``) and returns
``b_bar = A u``, ``A_bar = -(r u^T + (A u) x^T)`` and, for the active bounds,
``bound_bar_N = x_bar_N - (A^T A u)_N``. The outputs that are functions of the residual
(``nnls``' ``rnorm = ||r||``, ``lsq_linear``'s ``fun = r`` and ``cost = ||r||^2 / 2``) add
``r_bar`` terms through ``dr = dA x + A dx - db``.

No derivative where the active set is not locally fixed: a coordinate at its bound with a zero
multiplier (weakly active: below ``1e-9 max(1, max|A^T b|)``), or ``A_F`` without full column
rank (the solution is not unique): :class:`~chainrules.rulesets.optimize.ImplicitDerivativeError`.
``nnls``' ``rnorm`` has no derivative at an exact fit (``r = 0``): its cotangent then gives
``not_implemented``. "At a bound" means within ``1e-10 (1 + |bound|)`` (``nnls`` returns exact
zeros; ``lsq_linear``'s ``trf`` iterates are strictly feasible, so ask it for a tight ``tol``).
A dense ``A`` is differentiated; a sparse matrix or ``LinearOperator`` ``A`` gets
``not_implemented``. ``lsq_linear``'s ``optimality``, ``active_mask`` and ``unbounded_sol``
have no tangent; a result with ``success=False`` raises in the pullback.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import scipy.linalg
import scipy.optimize

from chainrules.rulesets.optimize._implicit import (
    ImplicitDerivativeError,
    bind,
    read_result_cotangent,
)
from chainrules.rulesets.optimize.roots import result_tangent
from chainrules_core import (
    AbstractZero,
    NoTangent,
    NotImplementedTangent,
    ProjectTo,
    Sample,
    Tangent,
    ZeroTangent,
    backing,
    differentiable,
    frule,
    not_implemented,
    read_cotangents,
    rrule,
    sample_inputs,
    unthunk,
)

__all__: list[str] = []

NO = NoTangent()
ZERO = ZeroTangent()
_NNLS = "scipy.optimize.nnls"
_LSQ = "scipy.optimize.lsq_linear"
_AT_BOUND = 1e-10
_WEAK = 1e-9


class _Problem:
    """``min ||A x - b||^2 / 2`` over ``lb <= x <= ub`` at its solution ``x``: the free set and its factor."""

    def __init__(self, name: str, a: np.ndarray, b: np.ndarray, x: np.ndarray, lb: np.ndarray, ub: np.ndarray,
                 success: bool = True, message: str = "") -> None:
        self.name = name
        self.a, self.b, self.x = a, b, x
        self.r = a @ x - b
        self.success, self.message = success, message
        self.lb, self.ub = lb, ub
        self._factor: Any = None
        self._free: np.ndarray | None = None

    def free(self) -> np.ndarray:
        if self._free is not None:
            return self._free
        if not self.success:
            raise ImplicitDerivativeError(f"{self.name} did not converge ({self.message}): the implicit derivative "
                                          "at a point that is not a solution would be wrong")
        g = self.a.T @ self.r
        scale = _WEAK * max(1.0, float(np.max(np.abs(self.a.T @ self.b), initial=0.0)))
        with np.errstate(invalid="ignore"):
            at_lb = np.isfinite(self.lb) & (np.abs(self.x - self.lb) <= _AT_BOUND * (1 + np.abs(self.lb)))
            at_ub = np.isfinite(self.ub) & (np.abs(self.x - self.ub) <= _AT_BOUND * (1 + np.abs(self.ub)))
        at = at_lb | at_ub
        multiplier = np.where(at_lb, g, -g)
        for i in np.flatnonzero(at):
            if at_lb[i] and at_ub[i]:
                continue  # lb == ub: fixed
            if abs(multiplier[i]) <= scale:
                raise ImplicitDerivativeError(
                    f"{self.name}: x[{i}] is at its bound with a zero multiplier (weakly active): the solution is "
                    "only one-sidedly differentiable there")
            if multiplier[i] < 0:
                raise ImplicitDerivativeError(f"{self.name}: x[{i}] is at its bound but the gradient points inwards: "
                                              "not a solution, so no implicit derivative")
        self._free = ~at
        return self._free

    def solve(self, v: np.ndarray) -> np.ndarray:
        """``(A_F^T A_F)^{-1} v`` (``v`` over the free coordinates), by a QR of ``A_F``."""
        free = self.free()
        af = self.a[:, free]
        if self._factor is None:
            r = np.linalg.qr(af, mode="r")
            d = np.abs(np.diag(r))
            if d.size and (d.min() <= 1e-12 * d.max() or af.shape[0] < af.shape[1]):
                raise ImplicitDerivativeError(f"{self.name}: the columns of A at the free coordinates are linearly "
                                              "dependent: the solution is not unique, so it has no derivative")
            self._factor = r
        r = self._factor
        return scipy.linalg.solve_triangular(r, scipy.linalg.solve_triangular(r, v, trans="T"))

    def pull(self, xbar: np.ndarray, rbar: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(A_bar, b_bar, bound_bar)`` for cotangents on ``x`` and on the residual ``r = A x - b``.

        ``bound_bar`` is the cotangent of the position of each active bound (zero on the free ones)."""
        free = self.free()
        xbar = xbar + self.a.T @ rbar  # r depends on x
        u = np.zeros_like(self.x)
        if np.any(free):
            u[free] = self.solve(xbar[free])
        au = self.a @ u
        abar = -np.outer(self.r, u) - np.outer(au, self.x) + np.outer(rbar, self.x)
        bbar = au - rbar
        bound_bar = np.where(free, 0.0, xbar - self.a.T @ au)
        return abar, bbar, bound_bar

    def push(self, da: np.ndarray | None, db: np.ndarray | None, dbound: np.ndarray | None
             ) -> tuple[np.ndarray, np.ndarray]:
        """``(dx, dr)``; ``dbound`` is the tangent of the bound each coordinate sits at (used on the active ones)."""
        free = self.free()
        dx = np.zeros_like(self.x)
        if dbound is not None:
            dx[~free] = dbound[~free]
        rhs = self.a @ dx
        if da is not None:
            rhs = rhs + da @ self.x
        if db is not None:
            rhs = rhs - db
        if np.any(free):
            v = self.a[:, free].T @ rhs
            if da is not None:
                v = v + da[:, free].T @ self.r
            dx[free] = -self.solve(v)
        dr = self.a @ dx - (0.0 if db is None else db) + (0.0 if da is None else da @ self.x)
        return dx, np.asarray(dr, dtype=np.float64)


def _dense(a: Any) -> np.ndarray | None:
    return np.asarray(a, dtype=np.float64) if isinstance(a, np.ndarray) else None


def _tangent(t: Any, like: Any) -> np.ndarray | None:
    t = unthunk(t)
    if t is None or isinstance(t, AbstractZero):
        return None
    if isinstance(t, NotImplementedTangent):
        raise _Missing(t)
    return np.broadcast_to(np.asarray(t, dtype=np.float64), np.shape(like))


class _Missing(Exception):  # noqa: N818  (carries a tangent)
    def __init__(self, tangent: NotImplementedTangent) -> None:
        super().__init__(tangent.info)
        self.tangent = tangent


_SPARSE = ("{name}: the derivative with respect to a sparse or LinearOperator A is not implemented; pass A as a "
           "dense array")


# ---- nnls ----------------------------------------------------------------------------------------------------------
@rrule.register(scipy.optimize.nnls, object, object)
def nnls_rrule(a: Any, b: Any, **kwargs: Any) -> Any:
    """Reverse rule of ``scipy.optimize.nnls``: the least-squares solution on the free (positive) coordinates.

    Examples
    --------
    >>> import numpy as np, scipy.optimize
    >>> from chainrules import rrule, Tangent, NoTangent
    >>> a, b = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]), np.array([2.0, -1.0, 1.0])
    >>> (x, rnorm), pullback = rrule(scipy.optimize.nnls, a, b)
    >>> x                                            # x[1] held at 0: x[0] fits b[0] and b[2]
    array([1.5, 0. ])
    >>> pullback(Tangent(tuple, np.array([1.0, 0.0]), NoTangent()))[2]   # x[0] = (b[0] + b[2]) / 2
    array([0.5, 0. , 0.5])
    """
    x, rnorm = scipy.optimize.nnls(a, b, **kwargs)
    dense = _dense(a)
    problem = None if dense is None else _Problem(_NNLS, dense, np.asarray(b, dtype=np.float64), x,
                                                  np.zeros_like(x), np.full_like(x, np.inf))
    project_a, project_b = ProjectTo(a), ProjectTo(b)

    def nnls_pullback(dy: Any) -> tuple[Any, Any, Any]:
        bars = read_cotangents(dy, (x, rnorm), scipy.optimize.nnls)
        if isinstance(bars, AbstractZero):
            return NO, ZERO, ZERO
        if isinstance(bars, NotImplementedTangent):
            return NO, bars, bars
        xbar, rho_bar = bars
        for bar in (xbar, rho_bar):
            if isinstance(bar, NotImplementedTangent):
                return NO, bar, bar
        if xbar is None and rho_bar is None:
            return NO, ZERO, ZERO
        if problem is None:
            t = not_implemented(_SPARSE.format(name=_NNLS))
            return NO, t, t
        rbar = np.zeros_like(problem.r)
        if rho_bar is not None and float(rho_bar) != 0.0:
            if rnorm == 0.0:
                t = not_implemented(f"{_NNLS}: rnorm = ||A x - b|| has no derivative at an exact fit (rnorm = 0)")
                return NO, t, t
            rbar = float(rho_bar) * problem.r / rnorm
        abar, bbar, _ = problem.pull(np.zeros_like(x) if xbar is None else np.asarray(xbar, dtype=np.float64), rbar)
        return NO, project_a(abar), project_b(bbar)

    return (x, rnorm), nnls_pullback


@frule.register(scipy.optimize.nnls, object, object)
def nnls_frule(tangents: Any, a: Any, b: Any, **kwargs: Any) -> Any:
    """Forward rule of ``scipy.optimize.nnls``: ``A_F^T A_F dx_F = -(dA_F^T r + A_F^T (dA x - db))``."""
    x, rnorm = scipy.optimize.nnls(a, b, **kwargs)
    try:
        da = _tangent(tangents[1] if len(tangents) > 1 else None, a)
        db = _tangent(tangents[2] if len(tangents) > 2 else None, b)
    except _Missing as missing:
        return (x, rnorm), missing.tangent
    if da is None and db is None:
        return (x, rnorm), ZERO
    dense = _dense(a)
    if dense is None:
        return (x, rnorm), not_implemented(_SPARSE.format(name=_NNLS))
    problem = _Problem(_NNLS, dense, np.asarray(b, dtype=np.float64), x, np.zeros_like(x), np.full_like(x, np.inf))
    dx, dr = problem.push(da, db, None)
    if rnorm == 0.0:
        drho: Any = not_implemented(f"{_NNLS}: rnorm = ||A x - b|| has no derivative at an exact fit (rnorm = 0)")
    else:
        drho = float(problem.r @ dr) / rnorm
    return (x, rnorm), Tangent(tuple, dx, drho)


@sample_inputs(scipy.optimize.nnls)
def _nnls_samples(rng: np.random.Generator) -> Iterator[Sample]:
    a = rng.standard_normal((6, 3))
    x = np.array([0.8, 0.0, 1.5])
    g = np.array([0.0, 0.7, 0.0])  # a positive multiplier on the held coordinate
    # b = A x - r with A^T r = g: r = pinv(A^T) g (least norm)
    b = a @ x - np.linalg.pinv(a.T) @ g
    yield Sample(a, b, label="one coordinate held at 0")
    yield Sample(a, a @ np.array([0.5, 1.0, 2.0]) + 0.1 * rng.standard_normal(6), label="all free")


# ---- lsq_linear ----------------------------------------------------------------------------------------------------
def _bound_arrays(bounds: Any, n: int) -> tuple[np.ndarray, np.ndarray]:
    lb, ub = (bounds.lb, bounds.ub) if isinstance(bounds, scipy.optimize.Bounds) else bounds
    return (np.broadcast_to(np.asarray(lb, dtype=np.float64), (n,)),
            np.broadcast_to(np.asarray(ub, dtype=np.float64), (n,)))


def _lsq_problem(a: Any, b: Any, bounds: Any, res: Any) -> _Problem | None:
    dense = _dense(a)
    if dense is None:
        return None
    lb, ub = _bound_arrays(bounds, res.x.size)
    return _Problem(_LSQ, dense, np.asarray(b, dtype=np.float64), res.x, lb, ub, bool(res.success),
                    str(res.message))


def _bounds_cotangent(bounds: Any, problem: _Problem, bound_bar: np.ndarray) -> Any:
    if isinstance(bounds, scipy.optimize.Bounds) or not differentiable(bounds):
        return NO
    free = problem.free()
    with np.errstate(invalid="ignore"):
        at_lb = ~free & (np.abs(problem.x - problem.lb) <= _AT_BOUND * (1 + np.abs(problem.lb)))
    parts = []
    for value, mask in ((bounds[0], at_lb & ~free), (bounds[1], ~at_lb & ~free)):
        bar = np.where(mask, bound_bar, 0.0)
        if not differentiable(value):
            parts.append(NO)
        elif np.ndim(value) == 0:
            parts.append(ProjectTo(value)(float(np.sum(bar))))
        else:
            parts.append(ProjectTo(value)(bar.reshape(np.shape(value))))
    return Tangent(tuple, *parts) if isinstance(bounds, tuple) else Tangent(type(bounds), *parts)


@rrule.register(scipy.optimize.lsq_linear, object, object)
def lsq_linear_rrule(a: Any, b: Any, *rest: Any, **kwargs: Any) -> Any:
    """Reverse rule of ``scipy.optimize.lsq_linear``: the least-squares solution on the free coordinates; active
    bounds hold theirs (and pass ``x_bar`` minus the normal-equations coupling to the bounds given by position).

    Examples
    --------
    >>> import numpy as np, scipy.optimize
    >>> from chainrules import rrule, Tangent
    >>> a, b = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]), np.array([2.0, 3.0, 0.5])
    >>> res, pullback = rrule(scipy.optimize.lsq_linear, a, b, (0.0, 1.0), method="bvls")
    >>> res.x                                        # x[1] at its upper bound 1: x[0] fits b[0] and b[2] - 1
    array([0.75, 1.  ])
    >>> cts = pullback(Tangent(type(res), {"x": np.array([1.0, 0.0])}))
    >>> cts[2], cts[3]                              # x[0] = (b[0] + b[2] - x[1]) / 2
    (array([0.5, 0. , 0.5]), Tangent(tuple, 0.0, -0.5))
    """
    res = scipy.optimize.lsq_linear(a, b, *rest, **kwargs)
    params = bind(scipy.optimize.lsq_linear, (a, b, *rest), kwargs)
    problem = _lsq_problem(a, b, params["bounds"], res)
    npos = 2 + len(rest)
    project_a, project_b = ProjectTo(a), ProjectTo(b)

    def cotangents(da: Any, db: Any, dbounds: Any) -> tuple[Any, ...]:
        return (NO, da, db, *([dbounds] if npos > 2 else []), *([NO] * (npos - 3)))

    def lsq_linear_pullback(dy: Any) -> tuple[Any, ...]:
        bars = read_result_cotangent(dy, res, ("x", "fun", "cost"), scipy.optimize.lsq_linear)
        zero_bounds = ZERO if differentiable(params["bounds"]) else NO
        if isinstance(bars, NotImplementedTangent):
            return cotangents(bars, bars, bars)
        if isinstance(bars, AbstractZero) or all(v is None for v in bars.values()):
            return cotangents(ZERO, ZERO, zero_bounds)
        if problem is None:
            t = not_implemented(_SPARSE.format(name=_LSQ))
            return cotangents(t, t, t)
        rbar = np.zeros_like(problem.r)
        if bars["fun"] is not None:
            rbar = rbar + np.asarray(bars["fun"], dtype=np.float64)
        if bars["cost"] is not None:
            rbar = rbar + float(bars["cost"]) * problem.r
        xbar = np.zeros_like(res.x) if bars["x"] is None else np.asarray(bars["x"], dtype=np.float64)
        abar, bbar, bound_bar = problem.pull(xbar, rbar)
        dbounds = _bounds_cotangent(params["bounds"], problem, bound_bar) if npos > 2 else NO
        return cotangents(project_a(abar), project_b(bbar), dbounds)

    return res, lsq_linear_pullback


@frule.register(scipy.optimize.lsq_linear, object, object)
def lsq_linear_frule(tangents: Any, a: Any, b: Any, *rest: Any, **kwargs: Any) -> Any:
    """Forward rule of ``scipy.optimize.lsq_linear``: ``dx_N = d bound_N``, ``A_F^T A_F dx_F = -(...)``."""
    res = scipy.optimize.lsq_linear(a, b, *rest, **kwargs)
    params = bind(scipy.optimize.lsq_linear, (a, b, *rest), kwargs)
    try:
        da = _tangent(tangents[1] if len(tangents) > 1 else None, a)
        db = _tangent(tangents[2] if len(tangents) > 2 else None, b)
        dbounds = unthunk(tangents[3]) if len(tangents) > 3 and rest else None
        dbound = None
        if dbounds is not None and not isinstance(dbounds, AbstractZero):
            if isinstance(dbounds, NotImplementedTangent):
                raise _Missing(dbounds)
            parts = backing(dbounds) if isinstance(dbounds, Tangent) else dbounds
            lb_t = _tangent(parts[0], params["bounds"][0])
            ub_t = _tangent(parts[1], params["bounds"][1])
            dbound = (lb_t, ub_t)
    except _Missing as missing:
        return res, missing.tangent
    if da is None and db is None and dbound is None:
        return res, ZERO
    problem = _lsq_problem(a, b, params["bounds"], res)
    if problem is None:
        return res, not_implemented(_SPARSE.format(name=_LSQ))
    n = res.x.size
    moved = None
    if dbound is not None:
        with np.errstate(invalid="ignore"):
            at_lb = np.abs(problem.x - problem.lb) <= _AT_BOUND * (1 + np.abs(problem.lb))
        lb_t = np.zeros(n) if dbound[0] is None else np.broadcast_to(dbound[0], (n,))
        ub_t = np.zeros(n) if dbound[1] is None else np.broadcast_to(dbound[1], (n,))
        moved = np.where(at_lb, lb_t, ub_t)
    dx, dr = problem.push(da, db, moved)
    return res, result_tangent(res, {"x": dx, "fun": dr, "cost": float(problem.r @ dr)})


@sample_inputs(scipy.optimize.lsq_linear)
def _lsq_linear_samples(rng: np.random.Generator) -> Iterator[Sample]:
    a = rng.standard_normal((6, 3))
    x = np.array([0.8, -0.2, 1.0])
    g = np.array([0.0, 0.0, -0.9])  # x[2] at its upper bound 1 with a positive multiplier
    b = a @ x - np.linalg.pinv(a.T) @ g
    gauge = {"gauge_invariant": lambda res: (res.x, res.fun, res.cost)}
    yield Sample(a, b, (np.array([-1.0, -1.0, -1.0]), np.array([1.0, 1.0, 1.0])),
                 fkwargs={"method": "bvls"}, label="bvls, an active upper bound (bounds by position)", **gauge)
    yield Sample(a, b, fkwargs={"bounds": (-1.0, 1.0), "tol": 1e-14},
                 label="trf, an active upper bound (bounds by keyword)", **gauge)
