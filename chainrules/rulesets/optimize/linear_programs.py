"""Linear programs: ``scipy.optimize.linprog`` (at a nondegenerate vertex) and ``scipy.optimize.milp``.

The maths
---------
``linprog`` minimises ``c^T x`` subject to ``A_ub x <= b_ub``, ``A_eq x = b_eq`` and bounds; HiGHS
returns a vertex. At a **nondegenerate** vertex exactly ``n`` constraints are active (the
equalities, the inequalities with zero slack, the bounds the solution sits on), their rows
``M`` are linearly independent, and every active inequality and bound has a nonzero multiplier
(strict complementarity). Then the same ``n`` constraints stay active for small changes of the
data, and the solution is the solution of the square system ``M x = r`` (the active right-hand
sides): the implicit function theorem on it gives ``M dx = dr - dM x`` (a basis's sensitivity,
as in the parametric analysis of the simplex method, Dantzig 1963, ch. 12). Reverse mode solves
``M^T lam = x_bar`` and returns ``r_bar = lam``, ``M_bar = -lam x^T``, scattered onto ``b_eq``,
``A_eq``, the active rows of ``b_ub``, ``A_ub`` and the active bounds. ``x`` is piecewise constant
in ``c`` (the vertex does not move): ``c`` reaches the output only through ``fun = c^T x``
(``c_bar = fun_bar x``). ``slack = b_ub - A_ub x`` and ``con = b_eq - A_eq x`` (zero) are
differentiated through ``x``. Where the vertex is degenerate (more than ``n`` constraints active, or
an active constraint with a zero multiplier: the optimum may be a whole face, or the active set
may change in some directions) or not a vertex (fewer than ``n`` active), the solution has no
derivative: :class:`~chainrules.rulesets.optimize.ImplicitDerivativeError`. "Active" means a
slack below ``1e-9 (1 + |b|)``; a zero multiplier one below ``1e-9 (1 + max|c|)``.

The multipliers (``ineqlin``, ``eqlin``, ``lower``, ``upper``: the dual solution, piecewise
constant in ``b`` and ``A``) are not differentiated (``not_implemented``). ``bounds`` given by
position get ``ZeroTangent()`` when none is active and ``not_implemented`` otherwise (pass them
by keyword: constants). ``integrality`` makes the problem a MILP (below).

``milp`` takes everything but ``c`` by keyword only (constants): its solution, a vertex of the
LP with the integer variables fixed, is piecewise constant in ``c``, so ``x`` has a zero
derivative (almost everywhere) and ``fun = c^T x`` has ``c_bar = fun_bar x``: exact where the
optimum is unique (a tie between solutions is a jump).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import scipy.linalg
import scipy.optimize

from chainrules.rulesets.optimize._implicit import (
    NEGLIGIBLE,
    ImplicitDerivativeError,
    bind,
    flat,
    is_zero,
    read_result_cotangent,
    zero_cotangent,
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
    frule,
    not_implemented,
    rrule,
    sample_inputs,
    unthunk,
)

__all__: list[str] = []

NO = NoTangent()
ZERO = ZeroTangent()
_NAME = "scipy.optimize.linprog"
_ACTIVE = 1e-9
_NAMES = ("c", "A_ub", "b_ub", "A_eq", "b_eq", "bounds", "method", "callback", "options", "x0", "integrality")
_DUALS = ("ineqlin", "eqlin", "lower", "upper")


def _bounds(bounds: Any, n: int) -> tuple[np.ndarray, np.ndarray]:
    if isinstance(bounds, scipy.optimize.Bounds):
        return (np.broadcast_to(np.asarray(bounds.lb, dtype=np.float64), (n,)),
                np.broadcast_to(np.asarray(bounds.ub, dtype=np.float64), (n,)))
    if bounds is None:
        return np.full(n, -np.inf), np.full(n, np.inf)
    pairs = [bounds] * n if len(bounds) == 2 and not isinstance(bounds[0], (tuple, list)) else list(bounds)
    if len(pairs) == 1:
        pairs = pairs * n
    lb = np.array([-np.inf if p[0] is None else float(p[0]) for p in pairs])
    ub = np.array([np.inf if p[1] is None else float(p[1]) for p in pairs])
    return lb, ub


class _Vertex:
    """The active set of a linprog solution and its square system."""

    def __init__(self, res: Any, params: dict[str, Any]) -> None:
        self.res = res
        self.params = params
        c = np.asarray(params["c"], dtype=np.float64)
        self.c = c
        n = c.size
        self.n = n
        x = np.asarray(res.x, dtype=np.float64)
        self.x = x
        self.a_ub = None if params["A_ub"] is None else np.atleast_2d(np.asarray(params["A_ub"], dtype=np.float64))
        self.a_eq = None if params["A_eq"] is None else np.atleast_2d(np.asarray(params["A_eq"], dtype=np.float64))
        self.lb, self.ub = _bounds(params["bounds"], n)
        dual_tol = _ACTIVE * (1 + float(np.max(np.abs(c))) if c.size else 1.0)
        rows: list[np.ndarray] = []
        kinds: list[tuple[str, int]] = []
        if self.a_eq is not None:
            for i in range(self.a_eq.shape[0]):
                rows.append(self.a_eq[i])
                kinds.append(("eq", i))
        if self.a_ub is not None:
            b_ub = np.asarray(params["b_ub"], dtype=np.float64)
            slack = b_ub - self.a_ub @ x
            marg = np.asarray(res.ineqlin.marginals, dtype=np.float64)
            for i in range(self.a_ub.shape[0]):
                if slack[i] <= _ACTIVE * (1 + abs(b_ub[i])):
                    self._strict(marg[i], dual_tol, f"inequality row {i}")
                    rows.append(self.a_ub[i])
                    kinds.append(("ub", i))
        for j in range(n):
            for bound, kind, marg in ((self.lb[j], "lower", res.lower.marginals), (self.ub[j], "upper",
                                                                                    res.upper.marginals)):
                if np.isfinite(bound) and abs(x[j] - bound) <= _ACTIVE * (1 + abs(bound)):
                    self._strict(float(marg[j]), dual_tol, f"the {kind} bound of x[{j}]")
                    e = np.zeros(n)
                    e[j] = 1.0
                    rows.append(e)
                    kinds.append((kind, j))
        if len(rows) != n:
            what = "more" if len(rows) > n else "fewer"
            raise ImplicitDerivativeError(
                f"{_NAME}: {len(rows)} constraints are active at the solution for {n} variables ({what} than a "
                "nondegenerate vertex has): the active set may change in some directions, or the optimum is a face; "
                "the solution has no derivative there")
        self.m = np.stack(rows) if rows else np.zeros((0, n))
        self.kinds = kinds
        try:
            self.lu = scipy.linalg.lu_factor(self.m, check_finite=True)
            if np.min(np.abs(np.diag(self.lu[0]))) <= 1e-12 * np.max(np.abs(np.diag(self.lu[0]))):
                raise np.linalg.LinAlgError("singular active constraints")
        except (ValueError, np.linalg.LinAlgError) as err:
            raise ImplicitDerivativeError(f"{_NAME}: the active constraints are linearly dependent ({err}): a "
                                          "degenerate vertex has no derivative") from None

    @staticmethod
    def _strict(multiplier: float, tol: float, what: str) -> None:
        if abs(multiplier) <= tol:
            raise ImplicitDerivativeError(f"{_NAME}: {what} is active with a zero multiplier (a dual degenerate "
                                          "vertex: the optimum may be a face, or the active set changes): no "
                                          "derivative")

    # reverse
    def cotangents(self, xbar: np.ndarray, fbar: float, sbar: np.ndarray | None) -> dict[str, Any]:
        xb = xbar + fbar * self.c
        out: dict[str, Any] = {}
        if sbar is not None and self.a_ub is not None:
            xb = xb - self.a_ub.T @ sbar
        lam = scipy.linalg.lu_solve(self.lu, xb, trans=1)
        db_ub = np.zeros(0 if self.a_ub is None else self.a_ub.shape[0])
        da_ub = None if self.a_ub is None else np.zeros_like(self.a_ub)
        db_eq = np.zeros(0 if self.a_eq is None else self.a_eq.shape[0])
        da_eq = None if self.a_eq is None else np.zeros_like(self.a_eq)
        dlb, dub = np.zeros(self.n), np.zeros(self.n)
        for k, (kind, i) in enumerate(self.kinds):
            if kind == "eq":
                db_eq[i] += lam[k]
                assert da_eq is not None
                da_eq[i] -= lam[k] * self.x
            elif kind == "ub":
                db_ub[i] += lam[k]
                assert da_ub is not None
                da_ub[i] -= lam[k] * self.x
            elif kind == "lower":
                dlb[i] += lam[k]
            else:
                dub[i] += lam[k]
        if sbar is not None and self.a_ub is not None:
            assert da_ub is not None
            db_ub = db_ub + sbar
            da_ub = da_ub - np.outer(sbar, self.x)
        out["c"] = fbar * self.x
        out["A_ub"], out["b_ub"], out["A_eq"], out["b_eq"] = da_ub, db_ub, da_eq, db_eq
        out["bounds_active"] = bool(np.any(dlb) or np.any(dub)) or any(k in ("lower", "upper") for k, _ in self.kinds)
        return out

    # forward
    def tangent(self, dc: Any, da_ub: Any, db_ub: Any, da_eq: Any, db_eq: Any) -> tuple[np.ndarray, float, Any]:
        rhs = np.zeros(self.n)
        for k, (kind, i) in enumerate(self.kinds):
            if kind == "eq":
                rhs[k] = (0.0 if is_zero(db_eq) else flat(db_eq, self.params["b_eq"])[i]) - (
                    0.0 if is_zero(da_eq) else np.asarray(unthunk(da_eq), dtype=np.float64)[i] @ self.x)
            elif kind == "ub":
                rhs[k] = (0.0 if is_zero(db_ub) else flat(db_ub, self.params["b_ub"])[i]) - (
                    0.0 if is_zero(da_ub) else np.asarray(unthunk(da_ub), dtype=np.float64)[i] @ self.x)
        dx = scipy.linalg.lu_solve(self.lu, rhs)
        dfun = float(self.c @ dx) + (0.0 if is_zero(dc) else float(flat(dc, self.c) @ self.x))
        dslack: Any = None
        if self.a_ub is not None:
            dslack = -self.a_ub @ dx
            if not is_zero(db_ub):
                dslack = dslack + flat(db_ub, self.params["b_ub"])
            if not is_zero(da_ub):
                dslack = dslack - np.asarray(unthunk(da_ub), dtype=np.float64) @ self.x
        return dx, dfun, dslack


def _project(params: dict[str, Any], name: str, value: Any) -> Any:
    primal = params[name]
    if primal is None or zero_cotangent(primal) is NO:
        return NO
    if value is None:
        return ZERO
    return ProjectTo(primal)(np.reshape(value, np.shape(primal)))


def _linprog_cotangents(npos: int, params: dict[str, Any], values: dict[str, Any]) -> tuple[Any, ...]:
    out: list[Any] = [NO]
    for name in _NAMES[:npos]:
        if name in values:
            out.append(values[name])
        elif name in ("x0",):
            out.append(zero_cotangent(params[name]) if params[name] is not None else NO)
        else:
            out.append(NO)
    return tuple(out)


def _missing(npos: int, params: dict[str, Any], t: NotImplementedTangent) -> tuple[Any, ...]:
    values = {name: (t if params[name] is not None and zero_cotangent(params[name]) is ZERO else NO)
              for name in ("c", "A_ub", "b_ub", "A_eq", "b_eq", "bounds")}
    return _linprog_cotangents(npos, params, values)


def _dual_cotangent(dy: Any, scale: float) -> NotImplementedTangent | None:
    """A cotangent on the multipliers (``ineqlin``...) above round-off (``NEGLIGIBLE * scale``): not implemented."""
    dy = unthunk(dy)
    stored = backing(dy) if isinstance(dy, Tangent) else dy
    if not isinstance(stored, dict):
        return None
    for key in _DUALS:
        if key in stored and _nested_magnitude(stored[key]) > NEGLIGIBLE * scale:
            return not_implemented(f"{_NAME}: the derivative of the multipliers ({key}) is not implemented")
    return None


def _nested_magnitude(value: Any) -> float:
    value = unthunk(value)
    if isinstance(value, Tangent):
        value = backing(value)
    if isinstance(value, dict):
        return max((_nested_magnitude(v) for v in value.values()), default=0.0)
    if value is None or isinstance(value, (AbstractZero, str, bool)):
        return 0.0
    try:
        arr = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError):
        return np.inf
    return float(np.max(np.abs(arr))) if arr.size else 0.0


@rrule.register(scipy.optimize.linprog, object)
def linprog_rrule(c: Any, *rest: Any, **kwargs: Any) -> Any:
    """Reverse rule of ``scipy.optimize.linprog`` at a nondegenerate vertex: ``M^T lam = x_bar`` on the active rows.

    Examples
    --------
    >>> import numpy as np, scipy.optimize
    >>> from chainrules import rrule, Tangent
    >>> c, a, b = np.array([-1.0, -2.0]), np.array([[1.0, 1.0], [1.0, -1.0]]), np.array([4.0, 1.0])
    >>> res, pullback = rrule(scipy.optimize.linprog, c, a, b, bounds=[(0, None), (0, 3.0)])
    >>> res.x                                       # x0 + x1 <= 4 and x1 <= 3 are active
    array([1., 3.])
    >>> pullback(Tangent(type(res), {"x": np.array([1.0, 0.0])}))[3]     # d x0 / d b_ub
    array([1., 0.])
    """
    res = scipy.optimize.linprog(c, *rest, **kwargs)
    params = bind(scipy.optimize.linprog, (c, *rest), kwargs)
    npos = 1 + len(rest)
    if params["integrality"] is not None and np.any(params["integrality"]):
        reason = not_implemented(f"{_NAME}: with integrality the problem is a MILP: see scipy.optimize.milp's rule "
                                 "(its solution is piecewise constant)")

        def linprog_integer_pullback(dy: Any) -> tuple[Any, ...]:
            read_result_cotangent(dy, res, ("x", "fun", "slack", "con"), scipy.optimize.linprog)
            return _missing(npos, params, reason)

        return res, linprog_integer_pullback

    def linprog_pullback(dy: Any) -> tuple[Any, ...]:
        cts = read_result_cotangent(_without_duals(dy), res, ("x", "fun", "slack", "con"), scipy.optimize.linprog)
        if isinstance(cts, NotImplementedTangent):
            return _missing(npos, params, cts)
        scale = max((_nested_magnitude(v) for v in cts.values()), default=0.0) if isinstance(cts, dict) else 0.0
        duals = _dual_cotangent(dy, scale)
        if duals is not None:
            return _missing(npos, params, duals)
        if isinstance(cts, AbstractZero) or all(cts[k] is None for k in ("x", "fun", "slack")):
            return _linprog_cotangents(npos, params, {k: _project(params, k, None) for k in (
                "c", "A_ub", "b_ub", "A_eq", "b_eq")} | {"bounds": zero_cotangent(params["bounds"])})
        if not res.success:
            raise ImplicitDerivativeError(f"{_NAME} did not solve the problem ({res.message})")
        vertex = _Vertex(res, params)
        xbar = np.zeros(vertex.n) if cts["x"] is None else flat(cts["x"], res.x)
        fbar = 0.0 if cts["fun"] is None else float(np.asarray(cts["fun"]))
        sbar = None if cts["slack"] is None else flat(cts["slack"], res.slack)
        out = vertex.cotangents(xbar, fbar, sbar)
        values = {k: _project(params, k, out[k]) for k in ("c", "A_ub", "b_ub", "A_eq", "b_eq")}
        bounds = params["bounds"]
        if zero_cotangent(bounds) is ZERO and npos > 5:
            values["bounds"] = not_implemented(f"{_NAME}: the derivative with respect to active bounds is not "
                                               "implemented; pass bounds by keyword") if out["bounds_active"] else ZERO
        return _linprog_cotangents(npos, params, values)

    return res, linprog_pullback


def _without_duals(dy: Any) -> Any:
    dy = unthunk(dy)
    if isinstance(dy, Tangent) and isinstance(backing(dy), dict):
        return Tangent(dy.primal_type, {k: v for k, v in backing(dy).items() if k not in _DUALS})
    if isinstance(dy, dict):
        return {k: v for k, v in dy.items() if k not in _DUALS}
    return dy


@frule.register(scipy.optimize.linprog, object)
def linprog_frule(tangents: Any, c: Any, *rest: Any, **kwargs: Any) -> Any:
    """Forward rule of ``scipy.optimize.linprog`` at a nondegenerate vertex: ``M dx = dr - dM x``."""
    res = scipy.optimize.linprog(c, *rest, **kwargs)
    params = bind(scipy.optimize.linprog, (c, *rest), kwargs)
    t = list(tangents[1:]) + [ZERO] * (len(_NAMES) - len(tangents) + 1)
    dc, da_ub, db_ub, da_eq, db_eq, dbounds = t[:6]
    if all(is_zero(v) for v in (dc, da_ub, db_ub, da_eq, db_eq)) and (is_zero(dbounds) or isinstance(
            unthunk(dbounds), NoTangent)):
        return res, ZERO
    if params["integrality"] is not None and np.any(params["integrality"]):
        return res, not_implemented(f"{_NAME}: with integrality, see scipy.optimize.milp's rule")
    if not is_zero(dbounds) and not isinstance(unthunk(dbounds), NoTangent):
        return res, not_implemented(f"{_NAME}: the derivative with respect to the bounds is not implemented")
    if not res.success:
        raise ImplicitDerivativeError(f"{_NAME} did not solve the problem ({res.message})")
    vertex = _Vertex(res, params)
    dx, dfun, dslack = vertex.tangent(dc, da_ub, db_ub, da_eq, db_eq)
    values: dict[str, Any] = {"x": dx, "fun": dfun, "con": np.zeros(np.shape(res.con))}
    if dslack is not None:
        values["slack"] = dslack
    return res, result_tangent(res, values)


# ---- milp ----------------------------------------------------------------------------------------------------------
@rrule.register(scipy.optimize.milp, object)
def milp_rrule(c: Any, **kwargs: Any) -> Any:
    """Reverse rule of ``scipy.optimize.milp``: ``x`` is piecewise constant in ``c``; ``c_bar = fun_bar x``.

    Examples
    --------
    >>> import numpy as np, scipy.optimize
    >>> from chainrules import rrule, Tangent
    >>> res, pullback = rrule(scipy.optimize.milp, np.array([-1.0, -2.0]), integrality=np.ones(2),
    ...                       bounds=scipy.optimize.Bounds(0, 2.5))
    >>> res.x, pullback(Tangent(type(res), {"fun": 1.0}))[1]
    (array([2., 2.]), array([2., 2.]))
    """
    res = scipy.optimize.milp(c, **kwargs)
    project = ProjectTo(c) if zero_cotangent(c) is ZERO else None

    def milp_pullback(dy: Any) -> tuple[Any, ...]:
        cts = read_result_cotangent(dy, res, ("x", "fun"), scipy.optimize.milp)
        if isinstance(cts, NotImplementedTangent):
            return NO, cts if project is not None else NO
        if isinstance(cts, AbstractZero) or cts["fun"] is None or project is None:
            return NO, ZERO if project is not None else NO
        if not res.success:
            raise ImplicitDerivativeError(f"scipy.optimize.milp did not solve the problem ({res.message})")
        return NO, project(float(np.asarray(cts["fun"])) * np.asarray(res.x, dtype=np.float64))

    return res, milp_pullback


@frule.register(scipy.optimize.milp, object)
def milp_frule(tangents: Any, c: Any, **kwargs: Any) -> Any:
    """Forward rule of ``scipy.optimize.milp``: ``dx = 0``, ``dfun = dc^T x``."""
    res = scipy.optimize.milp(c, **kwargs)
    dc = tangents[1] if len(tangents) > 1 else ZERO
    if is_zero(dc):
        return res, ZERO
    if not res.success:
        raise ImplicitDerivativeError(f"scipy.optimize.milp did not solve the problem ({res.message})")
    x = np.asarray(res.x, dtype=np.float64)
    return res, result_tangent(res, {"x": np.zeros_like(x), "fun": float(flat(dc, c) @ x)})


# ---- samples -------------------------------------------------------------------------------------------------------
def _lp_fields(res: Any) -> tuple[Any, Any, Any]:
    return res.x, res.fun, res.slack


@sample_inputs(scipy.optimize.linprog)
def _linprog_samples(rng: np.random.Generator) -> Iterator[Sample]:
    c = np.array([-1.0, -2.0, 0.5])
    a_ub, b_ub = np.array([[1.0, 1.0, 1.0], [1.0, -1.0, 2.0]]), np.array([4.0, 1.0])
    a_eq, b_eq = np.array([[1.0, 0.0, 1.0]]), np.array([1.5])
    yield Sample(c, a_ub, b_ub, fkwargs={"bounds": [(0, 3), (0, 2.5), (0, None)]}, gauge_invariant=_lp_fields,
                 label="inequalities and active bounds")
    yield Sample(c, a_ub, b_ub, a_eq, b_eq, fkwargs={"bounds": (0, None)}, gauge_invariant=_lp_fields,
                 label="an equality too")


@sample_inputs(scipy.optimize.milp)
def _milp_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample(np.array([-1.0, -2.0, 0.5]), fkwargs={
        "integrality": np.ones(3), "bounds": scipy.optimize.Bounds(0, [3.0, 2.5, 10.0]),
        "constraints": scipy.optimize.LinearConstraint(np.array([[1.0, 1.0, 1.0], [1.0, -1.0, 2.0]]), -np.inf,
                                                       np.array([4.0, 1.0]))},
                 gauge_invariant=lambda res: (res.x, res.fun), label="integer variables")
