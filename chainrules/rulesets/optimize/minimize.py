"""Minima: ``scipy.optimize.minimize`` (every method) and ``scipy.optimize.minimize_scalar``.

The maths
---------
At a local minimum ``x*`` of ``f(x, theta)`` in the interior of the bounds, the gradient
vanishes: ``G(x*, theta) = grad_x f(x*, theta) = 0``. Where the Hessian ``H = dG/dx`` is
nonsingular, the implicit function theorem gives ``H dx* = -M dtheta`` with the mixed second
derivative ``M = d(grad_x f)/dtheta`` (Gould et al. 2016, "On differentiating
parameterized argmin and argmax problems with application to bi-level optimization",
arXiv:1607.05447, Lemma 3.2). Reverse mode solves ``H u = x*_bar`` and returns
``theta_bar = -M^T u``. The optimal value moves by the envelope theorem (Milgrom & Segal
2002, Econometrica 70): ``df* = (df/dtheta)(x*, theta) dtheta``, one first-order product.
The result's gradient field (``jac``; ``grad`` for trust-constr) is zero along interior
solutions; at active bounds it holds the multipliers, and moves as ``H dx* + M dtheta``.

**Bounds.** A coordinate at its bound with the gradient pushing outwards (a positive
multiplier) is *active*: the bound holds it (``dx_A = 0``, the bounds are constants), and the
free coordinates solve ``H_FF dx_F = -M_F dtheta`` (the KKT system of the bound constraints
reduced to the free variables). A coordinate at its bound with a (numerically) zero
gradient is weakly active: the solution is only one-sidedly differentiable there, and the
rule raises :class:`~chainrules.rulesets.optimize.ImplicitDerivativeError`, as it does for
a bound point whose gradient points inwards (not a minimum). "At its bound" means within
``1e-7 (1 + |bound|)``; a zero multiplier is one below ``1e-8 max(1, max|grad|)``.

**Where G and its derivatives come from.**

* ``jac`` a callable: ``G = jac(x, *args)``, differentiated once by the config (reverse:
  the pullback of ``jac`` gives ``H u`` and ``M^T u`` together);
* ``jac=True``: ``fun`` returns ``(f, g)``; ``G`` is its second output, differentiated once;
* a gradient declared with :func:`register_gradient` (for configs that cannot differentiate
  twice, such as :class:`~chainrules_core.RulesOnlyConfig`);
* otherwise (``jac`` ``None`` or a finite-difference scheme): ``G`` is the config's own
  gradient of ``fun`` (``rrule_via_ad``), and its derivatives are second derivatives of
  ``fun``: in reverse mode by reverse-over-reverse (``rrule_via_ad`` of that gradient: its
  pullback at ``u`` gives ``H u`` and ``M^T u``, the cotangent of ``args``, in one reverse
  sweep of a tape recorded once for all the products the solve needs), in forward mode by
  forward-over-reverse (``frule_via_ad`` of the gradient along ``(dx, dtheta)`` gives
  ``H dx + M dtheta`` in one pushforward). A config that cannot differentiate the gradient
  it returned gets ``not_implemented`` cotangents naming the workaround (pass ``jac``).

A ``hess`` callable returning a dense matrix is used for the solve and checked against
the AD's own ``H u`` (corrected, with a warning, where it disagrees), as ``root`` does with
``jac``. The solve itself is that of :mod:`chainrules.rulesets.optimize._implicit` on the
free variables (``H`` formed for a few of them, MINRES first above).

**Constraints** (``constraints=`` of COBYLA, COBYQA, SLSQP, trust-constr): inequality
constraints that are inactive at the solution (slack above ``1e-7 (1 + |bound|)``) do not
change the local solution, and the rule proceeds as without them; an equality constraint,
or an active inequality, makes every cotangent ``not_implemented`` (the KKT system with the
constraints' multipliers and second derivatives is not implemented).

Outputs: an ``OptimizeResult``; its differentiable fields are ``x``, ``fun`` and the
gradient field. Solver internals (``hess_inv``, ``final_simplex``, ``direc``, ``hess``,
``multipliers``...) have no tangent: ``NoTangent()`` forward, their cotangents ignored.
``x0`` gets ``ZeroTangent()``; ``method``, ``tol``, ``options``... ``NoTangent()``. A result
with ``success=False`` raises :class:`~chainrules.rulesets.optimize.ImplicitDerivativeError`
unless it is certified a stationary point anyway: the Newton step ``H_FF^{-1} g_F`` from it is
below ``CERTIFIED = 1e-8`` relative to ``1 + max|x|`` (BFGS and CG report a ``tol`` below what
they can reach as "precision loss", at points that are minima to working precision; the
derivative's error is of the order of that step). ``bounds`` passed by position get ``ZeroTangent()`` when none is
active and ``not_implemented`` otherwise (pass them by keyword: they are constants).

``minimize_scalar`` (Brent, golden section, bounded) is the one-dimensional case: ``f''(x*)``
and ``df'/dtheta`` through the config. The bounded method stops ``xatol`` short of an end of
the interval when the minimum is at that end (a corner solution, with ``f' != 0``): the rule
takes the Newton step ``-f'/f''`` from ``x*`` and raises if it leaves the interval.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import scipy.optimize

from chainrules.rulesets.arrays.higher_order import carries_no_values
from chainrules.rulesets.optimize import _problems
from chainrules.rulesets.optimize._implicit import (
    ForwardLinearization,
    ImplicitDerivativeError,
    MissingDerivative,
    ReverseLinearization,
    args_cotangent,
    args_tangents,
    args_tuple,
    args_zero_cotangent,
    bind,
    flat,
    is_zero,
    read_result_cotangent,
    refine_adjoint,
    shaped,
    solve,
    solve_adjoint,
    zero_cotangent,
)
from chainrules.rulesets.optimize.roots import result_tangent
from chainrules.testing import central_fdm
from chainrules_core import (
    AbstractZero,
    HasForwardsMode,
    HasReverseMode,
    NoTangent,
    NotImplementedTangent,
    RulesOnlyConfig,
    Sample,
    Tangent,
    ZeroTangent,
    frule,
    not_implemented,
    rrule,
    rrule_via_ad,
    sample_inputs,
    unthunk,
)

__all__ = ["register_gradient"]

NO = NoTangent()
ZERO = ZeroTangent()
_MINIMIZE = "scipy.optimize.minimize"
_SCALAR = "scipy.optimize.minimize_scalar"
_AT_BOUND = 1e-7
_ZERO_MULTIPLIER = 1e-8
_SLACK = 1e-7
_WHAT = "the Hessian of the objective (on the free variables)"

_GRADIENTS: dict[Any, Callable[..., Any]] = {}
_lock = threading.Lock()


def register_gradient(f: Callable[..., Any], gradient: Callable[..., Any]) -> None:
    """Declare ``gradient(x, *args)`` as the gradient of ``f(x, *args)`` in ``x``, for the rules of minimize.

    The rules of ``minimize`` (without ``jac``) and ``minimize_scalar`` need the derivatives of
    the gradient of the objective. With a declared gradient they differentiate it once,
    through the config, instead of differentiating ``f`` twice: this is what a config that
    cannot differentiate twice (:class:`~chainrules_core.RulesOnlyConfig`, with a ``gradient``
    that has rules of its own) needs, and it is cheaper for any config. ``gradient`` is
    trusted to be the gradient (as ``minimize``'s ``jac`` is trusted by SciPy).

    Examples
    --------
    >>> import numpy as np, scipy.optimize
    >>> from chainrules import rrule, RulesOnlyConfig, Tangent
    >>> from chainrules.rulesets.optimize import _problems, register_gradient
    >>> _problems.register()                # x.a.x / 2 - b.x + sum(x**4) / 4, and its gradient, with rules
    >>> register_gradient(_problems.objective, _problems.objective_gradient)
    >>> a, b = np.eye(2), np.array([1.0, 0.0])
    >>> res, pullback = rrule(RulesOnlyConfig(), scipy.optimize.minimize, _problems.objective, np.zeros(2), (a, b),
    ...                       method="Nelder-Mead", options={"xatol": 1e-10, "fatol": 1e-14})
    >>> db = pullback(Tangent(type(res), {"x": np.array([1.0, 0.0])}))[3][1]
    >>> bool(np.allclose(db, [1 / (1 + 3 * res.x[0] ** 2), 0.0]))   # x + x**3 = b: dx/db = 1 / (1 + 3x**2)
    True
    """
    if not callable(f) or not callable(gradient):
        raise TypeError("register_gradient(f, gradient) takes two callables")
    with _lock:
        _GRADIENTS[f] = gradient


# ---- the gradient as a function the config differentiates ---------------------------------------------------------
class ConfigGradient:
    """``x, *args -> grad_x fun(x, *args)`` computed by the config's reverse mode.

    Differentiating it through the same config gives second derivatives of ``fun``
    (reverse-over-reverse with ``rrule_via_ad``, forward-over-reverse with ``frule_via_ad``):
    the config must then differentiate values it is itself tracing.
    """

    def __init__(self, config: Any, fun: Callable[..., Any], part: int | None = None) -> None:
        self.config = config
        self.fun = fun
        self.part = part

    def __call__(self, x: Any, *args: Any) -> Any:
        y, pullback = rrule_via_ad(self.config, self.fun, x, *args)
        if self.part is None:
            return pullback(1.0)[1]
        parts: list[Any] = [ZERO] * len(y)
        parts[self.part] = 1.0
        return pullback(Tangent(tuple, *parts))[1]

    def __repr__(self) -> str:
        return f"ConfigGradient({getattr(self.fun, '__qualname__', self.fun)!r})"


_TWICE = ("{name}: the derivative of the minimiser needs second derivatives of the objective {fun}, and {config} "
          "could not differentiate its gradient ({error}); pass jac= (the gradient, which the config then "
          "differentiates once), declare it with chainrules.rulesets.optimize.register_gradient, or use an AD "
          "config that differentiates twice")


def _twice_failed(name: str, fun: Any, config: Any, error: BaseException) -> NotImplementedTangent:
    return not_implemented(_TWICE.format(name=name, fun=getattr(fun, "__qualname__", repr(fun)),
                                         config=type(config).__name__, error=f"{type(error).__name__}: {error}"))


class _Source:
    """Where ``G`` (the gradient in ``x``) comes from, and the tangent of the callable that computes it."""

    def __init__(self, config: Any, fun: Any, jac: Any, name: str) -> None:
        self.config = config
        self.fun = fun
        self.name = name
        self.value_part = 0 if jac is True else None
        if callable(jac):
            self.gradient, self.part, self.second_order = jac, None, False
        elif jac is True:
            self.gradient, self.part, self.second_order = fun, 1, False
        elif fun in _GRADIENTS:
            self.gradient, self.part, self.second_order = _GRADIENTS[fun], None, False
        else:
            self.gradient, self.part, self.second_order = ConfigGradient(config, fun), None, True

    def reverse(self, x: Any, items: tuple[Any, ...]) -> ReverseLinearization:
        try:
            lin = _HessianReverse(self.config, self.gradient, x, items, part=self.part)
        except MissingDerivative:
            raise
        except Exception as err:
            if self.second_order:
                raise MissingDerivative(_twice_failed(self.name, self.fun, self.config, err)) from err
            raise
        lin.second_order = self.second_order
        lin.source = self
        return lin

    def forward(self, x: Any, items: tuple[Any, ...]) -> ForwardLinearization:
        lin = _HessianForward(self.config, self.gradient, x, items, part=self.part)
        lin.source = self
        return lin

    def gradient_tangent(self, dfun: Any, djac: Any) -> Any:
        """The tangent to give the callable computing ``G``: ``fun``'s for ``jac=True``, ``jac``'s for a callable."""
        if self.part is not None:
            return dfun
        if self.gradient is self.fun:
            return dfun
        if isinstance(self.gradient, ConfigGradient):
            if not is_zero(dfun):
                raise MissingDerivative(not_implemented(
                    f"{self.name}: the derivative with respect to values the objective carries (a closure, a "
                    "functor's fields) needs the derivative of its gradient with respect to them, which is not "
                    "implemented; pass those values through args"))
            return NO
        return djac if djac is not None else NO

    def value_gradient(self, x: Any, items: tuple[Any, ...]) -> np.ndarray:
        """``G(x*)``, flat."""
        if callable(self.gradient) and not isinstance(self.gradient, ConfigGradient) and self.part is None:
            return flat(self.gradient(x, *items), x)
        if self.part is not None:
            return flat(self.fun(x, *items)[self.part], x)
        _y, pullback = rrule_via_ad(self.config, self.fun, x, *items)
        return flat(pullback(1.0)[1], x)


class _HessianReverse(ReverseLinearization):
    """``G`` linearised in reverse mode; the first product is checked not to be an exact zero (a config that
    silently cannot differentiate twice returns zeros)."""

    second_order = False
    source: Any = None

    def adjoint(self, v: np.ndarray) -> np.ndarray:
        out = super().adjoint(v)
        if self.second_order and np.any(v) and not np.any(out):
            raise ImplicitDerivativeError(
                f"{self.source.name}: the Hessian-vector product of the objective is exactly zero: either the Hessian "
                f"vanishes at the solution (no isolated minimum) or {type(self.source.config).__name__} cannot "
                "differentiate the gradient it computed (pass jac=)")
        return out


class _HessianForward(ForwardLinearization):
    source: Any = None


class _Restricted:
    """A linearisation restricted to the free variables (active bounds fixed)."""

    def __init__(self, lin: Any, free: np.ndarray) -> None:
        self.lin = lin
        self.free = free
        self.n = int(np.count_nonzero(free))
        self.x = lin.x

    def _embed(self, v: np.ndarray) -> np.ndarray:
        full = np.zeros(self.free.size)
        full[self.free] = v
        return full

    def adjoint(self, v: np.ndarray) -> np.ndarray:
        return self.lin.adjoint(self._embed(v))[self.free]

    def matvec(self, v: np.ndarray) -> np.ndarray:
        return self.lin.matvec(self._embed(v))[self.free]

    def jacobian(self) -> np.ndarray:
        eye = np.eye(self.n)
        op = self.adjoint if hasattr(self.lin, "adjoint") else self.matvec
        cols = [op(eye[j]) for j in range(self.n)]
        jac = np.stack(cols) if hasattr(self.lin, "adjoint") else np.stack(cols, axis=-1)
        return jac.reshape(self.n, self.n)


# ---- bounds and constraints ----------------------------------------------------------------------------------------
def _bound_arrays(bounds: Any, n: int) -> tuple[np.ndarray, np.ndarray] | None:
    if bounds is None:
        return None
    if isinstance(bounds, scipy.optimize.Bounds):
        lb = np.broadcast_to(np.asarray(bounds.lb, dtype=np.float64), (n,))
        ub = np.broadcast_to(np.asarray(bounds.ub, dtype=np.float64), (n,))
        return lb, ub
    pairs = list(bounds)
    lb = np.array([-np.inf if p[0] is None else float(p[0]) for p in pairs], dtype=np.float64)
    ub = np.array([np.inf if p[1] is None else float(p[1]) for p in pairs], dtype=np.float64)
    return np.broadcast_to(lb, (n,)), np.broadcast_to(ub, (n,))


def _free_variables(name: str, x: np.ndarray, g: np.ndarray, bounds: Any) -> np.ndarray:
    """The mask of free variables; raises where a bound is weakly active or the point is not a minimum."""
    n = x.size
    arrays = _bound_arrays(bounds, n)
    free = np.ones(n, dtype=bool)
    if arrays is None:
        return free
    lb, ub = arrays
    gscale = _ZERO_MULTIPLIER * max(1.0, float(np.max(np.abs(g))) if g.size else 1.0)
    for i in range(n):
        for bound, outward in ((lb[i], 1.0), (ub[i], -1.0)):
            if not np.isfinite(bound) or abs(x[i] - bound) > _AT_BOUND * (1 + abs(bound)):
                continue
            multiplier = outward * g[i]
            if multiplier > gscale:
                free[i] = False
            elif multiplier >= -gscale:
                raise ImplicitDerivativeError(
                    f"{name}: x[{i}] = {x[i]:.17g} is at its bound with a zero gradient there (a weakly active "
                    "bound): the solution is only one-sidedly differentiable")
            else:
                raise ImplicitDerivativeError(
                    f"{name}: x[{i}] is at its bound but the gradient points inwards ({g[i]:.3e}): the result is not "
                    "a minimum, so it has no implicit derivative")
    return free


def _constraint_status(constraints: Any, x: np.ndarray) -> str | None:
    """``None`` when every constraint is inactive at ``x`` (the unconstrained rule holds), else the reason."""
    if constraints is None:
        return None
    items = [constraints] if isinstance(constraints, (dict, scipy.optimize.NonlinearConstraint,
                                                      scipy.optimize.LinearConstraint)) else list(constraints)
    for k, c in enumerate(items):
        if isinstance(c, dict):
            if c.get("type") == "eq":
                return f"constraint {k} is an equality constraint"
            value = np.atleast_1d(np.asarray(c["fun"](x, *c.get("args", ())), dtype=np.float64))
            if np.any(value <= _SLACK):
                return f"inequality constraint {k} is active at the solution (value {float(np.min(value)):.3e})"
            continue
        if isinstance(c, scipy.optimize.LinearConstraint):
            value = np.atleast_1d(np.asarray(c.A @ x, dtype=np.float64))
        else:
            value = np.atleast_1d(np.asarray(c.fun(x), dtype=np.float64))
        lb = np.broadcast_to(np.asarray(c.lb, dtype=np.float64), value.shape)
        ub = np.broadcast_to(np.asarray(c.ub, dtype=np.float64), value.shape)
        if np.any((value - lb <= _SLACK * (1 + np.abs(lb))) | (ub - value <= _SLACK * (1 + np.abs(ub)))):
            return f"constraint {k} is active at the solution"
    return None


_CONSTRAINED = ("{name}: {why}: the derivative of a solution with active constraints (the KKT system with the "
                "constraints' multipliers and second derivatives) is not implemented; with bounds only, pass them "
                "as bounds=, whose active set the rule handles")


# ---- the pieces of the rules ---------------------------------------------------------------------------------------
def _gradient_field(result: Any, method: Any) -> str | None:
    """The result field holding the objective's gradient at the solution (``jac``; ``grad`` for trust-constr)."""
    if isinstance(method, str) and method.lower() == "trust-constr":
        return "grad" if "grad" in result else None
    return "jac" if "jac" in result else None


def _add(a: Any, b: Any) -> Any:
    a, b = unthunk(a), unthunk(b)
    if a is None or isinstance(a, AbstractZero):
        return b
    if b is None or isinstance(b, AbstractZero):
        return a
    if isinstance(a, NotImplementedTangent):
        return a
    if isinstance(b, NotImplementedTangent):
        return b
    return a + b


CERTIFIED = 1e-8
"""A result reported as failed is accepted when the Newton step from it is at most this, relative to ``1 + max|x|``."""


def _not_converged(name: str, message: Any) -> ImplicitDerivativeError:
    return ImplicitDerivativeError(f"{name} did not converge ({str(message).strip()}): the implicit derivative at a "
                                   "point that is not a minimum would be wrong")


class _Minimum:
    """One call of a minimiser: the solution, the objective, how to reach its gradient, and the active bounds."""

    def __init__(self, name: str, config: Any, fun: Any, x: Any, args: Any, jac: Any, hess: Any, bounds: Any,
                 constraints: Any, success: bool, message: Any, interval: tuple[float, float] | None = None,
                 unsupported: str | None = None) -> None:
        self.name = name
        self.unsupported = unsupported
        self.config = config
        self.fun = fun
        self.x = x
        self.args = args
        self.items = args_tuple(args)
        self.hess = hess
        self.bounds = bounds
        self.constraints = constraints
        self.success = success
        self.message = message
        self.interval = interval
        self.source = _Source(config, fun, jac, name)
        self._free: np.ndarray | None = None

    def check_interval(self, lin: Any) -> None:
        """``minimize_scalar(method='bounded')``: the stationary point the Newton step from ``x*`` points to must lie
        inside the interval; if it does not, the minimum is at an end (a corner solution, where the bounded method
        stops ``xatol`` short of the end) and has no implicit derivative."""
        if self.interval is None:
            return
        lo, hi = self.interval
        g = float(self.source.value_gradient(self.x, self.items)[0])
        h = float(lin.jacobian()[0, 0])
        target = float(self.x) - g / h if h > 0 else np.inf
        if not lo < target < hi:
            raise ImplicitDerivativeError(
                f"{self.name}: the minimum is at an end of the interval ({lo}, {hi}) (a corner solution: f'(x) = "
                f"{g:.3e} does not vanish there), where the implicit function theorem does not apply")

    def certify(self, restricted: Any, symmetric: bool) -> None:
        """A result the solver reported as failed stands if it is a stationary point to working precision: the
        Newton step ``H_FF^{-1} g_F`` from it is at most ``CERTIFIED (1 + max|x|)`` (gradient methods report a
        tolerance below what they can reach as a failure: BFGS's "precision loss"). Else raise."""
        if self.success:
            return
        g = self.source.value_gradient(self.x, self.items)[restricted.free]
        x = np.atleast_1d(np.asarray(self.x, dtype=np.float64))
        step = solve_adjoint(restricted, g, self.name, _WHAT, symmetric=symmetric) if np.any(g) else g
        size = float(np.max(np.abs(step))) if step.size else 0.0
        if size <= CERTIFIED * (1 + float(np.max(np.abs(x)))):
            return
        raise _not_converged(self.name, f"{str(self.message).strip()}; the Newton step from the result is {size:.1e}")

    def check(self) -> None:
        if self.unsupported is not None:
            raise MissingDerivative(not_implemented(f"{self.name}: {self.unsupported}"))
        why = _constraint_status(self.constraints, np.atleast_1d(np.asarray(self.x, dtype=np.float64)))
        if why is not None:
            raise MissingDerivative(not_implemented(_CONSTRAINED.format(name=self.name, why=why)))

    def free(self) -> np.ndarray:
        if self._free is None:
            if self.bounds is None:
                self._free = np.ones(int(np.size(self.x)), dtype=bool)
            else:
                g = self.source.value_gradient(self.x, self.items)
                self._free = _free_variables(self.name, np.atleast_1d(np.asarray(self.x, dtype=np.float64)), g,
                                             self.bounds)
        return self._free

    def user_hessian(self, free: np.ndarray) -> np.ndarray | None:
        if not callable(self.hess) or isinstance(self.hess, scipy.optimize.HessianUpdateStrategy):
            return None
        h = self.hess(self.x, *self.items)
        if not isinstance(h, np.ndarray) or h.size != free.size ** 2:
            return None
        return np.asarray(h, dtype=np.float64).reshape(free.size, free.size)[np.ix_(free, free)]

    # reverse mode
    def cotangents(self, xbar: Any, fbar: Any, gbar: Any, djac_unused: Any = None) -> tuple[Any, Any, Any]:
        """``(d_fun, d_args, d_bounds_needed)`` for the cotangents of ``x``, ``fun`` and the gradient field."""
        self.check()
        n = int(np.size(self.x))
        dfun: Any = None
        dargs: list[Any] = [None] * len(self.items)
        if xbar is not None or gbar is not None:
            free = self.free()
            lin = self.source.reverse(self.x, self.items)
            xb = np.zeros(n) if xbar is None else flat(xbar, self.x)
            gb = np.zeros(n) if gbar is None else flat(gbar, self.x)
            rhs = xb.copy()
            if np.any(gb):
                rhs = rhs + lin.adjoint(gb)  # H g_bar (H symmetric)
            self.check_interval(lin)
            restricted = _Restricted(lin, free)
            symmetric = not self.source.part and self.source.second_order
            self.certify(restricted, symmetric)
            user = self.user_hessian(free)
            u_free = solve_adjoint(restricted, rhs[free], self.name, _WHAT, jacobian=user, symmetric=symmetric)
            u = np.zeros(n)
            u[free] = u_free
            cts = lin.pull(gb - u)
            if user is not None:
                hu = -flat(cts[1], self.x)[free] + (lin.adjoint(gb)[free] if np.any(gb) else 0.0)
                refined = refine_adjoint(restricted, rhs[free], u_free, hu, user, self.name, _WHAT)
                if refined is not None:
                    u = np.zeros(n)
                    u[free] = refined
                    cts = lin.pull(gb - u)
            if self.source.gradient is self.fun:
                dfun = cts[0]
            elif self.source.second_order and not carries_no_values(self.fun):
                dfun = not_implemented(f"{self.name}: the derivative with respect to values the objective carries (a "
                                       "closure, a functor's fields) is not implemented; pass them through args")
            dargs = [_add(a, b) for a, b in zip(dargs, cts[2:])]
        elif not self.success:
            self.certify(_Restricted(self.source.reverse(self.x, self.items), self.free()), False)
        if fbar is not None:
            value = ReverseLinearization(self.config, self.fun, self.x, self.items, part=self.source.value_part)
            cts = value.pull(np.atleast_1d(np.asarray(fbar, dtype=np.float64)))
            dfun = _add(dfun, cts[0])
            dargs = [_add(a, b) for a, b in zip(dargs, cts[2:])]
        return (NO if dfun is None else dfun), dargs, None

    # forward mode
    def tangents(self, dfun: Any, djac: Any, dargs: Any) -> tuple[Any, Any, Any]:
        """``(dx, dfun_value, dgrad)`` (flat arrays; ``dfun_value`` a float)."""
        self.check()
        items_t = args_tangents(dargs, self.args)
        free = self.free()
        n = int(np.size(self.x))
        lin = self.source.forward(self.x, self.items)
        gtan = self.source.gradient_tangent(dfun, djac)
        try:
            _, rhs = lin.push(gtan, ZERO, items_t)
        except MissingDerivative:
            raise
        except Exception as err:
            if self.source.second_order:
                raise MissingDerivative(_twice_failed(self.name, self.fun, self.config, err)) from err
            raise
        self.check_interval(lin)
        restricted = _Restricted(lin, free)
        self.certify(restricted, self.source.second_order)
        dx = np.zeros(n)
        if np.any(rhs[free]):
            dx[free] = -solve(restricted, rhs[free], self.name, _WHAT, jacobian=self.user_hessian(free),
                              symmetric=self.source.second_order)
        value = ForwardLinearization(self.config, self.fun, self.x, self.items, part=self.source.value_part)
        _, dvalue = value.push(dfun, ZERO, items_t)
        dgrad = np.zeros(n)
        if not np.all(free):
            _, dgrad = lin.push(gtan, shaped(dx, self.x), items_t)
            dgrad[free] = 0.0
        return dx, float(dvalue[0]), dgrad

    def missing_fun(self, t: NotImplementedTangent) -> Any:
        return NO if carries_no_values(self.fun) else t

    def missing_args(self, t: NotImplementedTangent) -> Any:
        return t if args_zero_cotangent(self.args) is ZERO else NO


def _bounds_cotangent(bounds: Any, minimum: _Minimum) -> Any:
    if bounds is None:
        return NO
    try:
        free = minimum.free()
    except ImplicitDerivativeError:
        raise
    if np.all(free):
        return zero_cotangent(bounds) if not isinstance(bounds, scipy.optimize.Bounds) else NO
    return not_implemented(f"{minimum.name}: the derivative with respect to active bounds (dx_A = d bound_A) is not "
                           "implemented; pass bounds by keyword (they are then constants)")


def _missing_bounds(bounds: Any, t: NotImplementedTangent) -> Any:
    return t if zero_cotangent(bounds) is ZERO else NO


# ---- minimize ------------------------------------------------------------------------------------------------------
_MINIMIZE_NAMES = ("fun", "x0", "args", "method", "jac", "hess", "hessp", "bounds", "constraints", "tol", "callback",
                   "options")


def _minimize_cotangents(npos: int, params: dict[str, Any], dfun: Any, dargs: Any, dbounds: Any) -> tuple[Any, ...]:
    out: list[Any] = [NO]
    for name in _MINIMIZE_NAMES[:npos]:
        if name == "fun":
            out.append(dfun)
        elif name == "x0":
            out.append(zero_cotangent(params["x0"]))
        elif name == "args":
            out.append(dargs)
        elif name == "bounds":
            out.append(dbounds)
        else:
            out.append(NO)
    return tuple(out)


def _minimize_parts(config: Any, fun: Any, x0: Any, rest: tuple[Any, ...],
                    kwargs: dict[str, Any]) -> tuple[Any, dict[str, Any], _Minimum]:
    res = scipy.optimize.minimize(fun, x0, *rest, **kwargs)
    params = bind(scipy.optimize.minimize, (fun, x0, *rest), kwargs)
    minimum = _Minimum(_MINIMIZE, config, fun, res.x, params["args"], params["jac"], params["hess"],
                       params["bounds"], params["constraints"] or None, bool(res.success), res.message)
    return res, params, minimum


@rrule.register(scipy.optimize.minimize, object, object, config=HasReverseMode)
def minimize_rrule(config: Any, fun: Any, x0: Any, *rest: Any, **kwargs: Any) -> Any:
    """Reverse rule of ``scipy.optimize.minimize``: ``H u = x_bar`` on the free variables, ``args_bar = -M^T u``,
    plus the envelope term ``fun_bar * df/dargs``.

    Examples
    --------
    >>> import numpy as np, scipy.optimize
    >>> from chainrules import rrule, RulesOnlyConfig, Tangent
    >>> from chainrules.rulesets.optimize import _problems
    >>> _problems.register()
    >>> a, b = np.diag([2.0, 4.0]), np.array([1.0, 1.0])
    >>> res, pullback = rrule(RulesOnlyConfig(), scipy.optimize.minimize, _problems.objective, np.zeros(2), (a, b),
    ...                       jac=_problems.objective_gradient, tol=1e-8)
    >>> dargs = pullback(Tangent(type(res), {"fun": 1.0}))[3]     # the envelope theorem: df*/db = -x*
    >>> bool(np.allclose(dargs[1], -res.x))
    True
    """
    res, params, minimum = _minimize_parts(config, fun, x0, rest, kwargs)
    npos = 2 + len(rest)
    gfield = _gradient_field(res, params["method"])
    fields = ("x", "fun") + ((gfield,) if gfield else ())

    def minimize_pullback(dy: Any) -> tuple[Any, ...]:
        cts = read_result_cotangent(dy, res, fields, scipy.optimize.minimize)
        if isinstance(cts, NotImplementedTangent):
            return _minimize_cotangents(npos, params, minimum.missing_fun(cts), minimum.missing_args(cts),
                                        _missing_bounds(params["bounds"], cts))
        if isinstance(cts, AbstractZero) or all(v is None for v in cts.values()):
            return _minimize_cotangents(npos, params, NO, args_zero_cotangent(params["args"]),
                                        zero_cotangent(params["bounds"]))
        try:
            dfun, dargs, _ = minimum.cotangents(cts["x"], cts["fun"], cts.get(gfield) if gfield else None)
            dbounds = _bounds_cotangent(params["bounds"], minimum) if npos > 7 else NO
        except MissingDerivative as missing:
            t = missing.tangent
            return _minimize_cotangents(npos, params, minimum.missing_fun(t), minimum.missing_args(t),
                                        _missing_bounds(params["bounds"], t))
        return _minimize_cotangents(npos, params, dfun, args_cotangent(params["args"], dargs), dbounds)

    return res, minimize_pullback


@frule.register(scipy.optimize.minimize, object, object, config=HasForwardsMode)
def minimize_frule(config: Any, tangents: Any, fun: Any, x0: Any, *rest: Any, **kwargs: Any) -> Any:
    """Forward rule of ``scipy.optimize.minimize``: ``H_FF dx_F = -M_F dargs``, ``dfun = df/dargs dargs``."""
    res, params, minimum = _minimize_parts(config, fun, x0, rest, kwargs)
    dfun = tangents[1] if len(tangents) > 1 else NO
    dargs = tangents[3] if len(tangents) > 3 else ZERO
    djac = tangents[5] if len(tangents) > 5 else None
    if is_zero(dfun) and is_zero(dargs):
        return res, ZERO
    try:
        dx, dvalue, dgrad = minimum.tangents(dfun, djac, dargs)
    except MissingDerivative as missing:
        return res, missing.tangent
    values: dict[str, Any] = {"x": shaped(dx, res.x), "fun": dvalue}
    gfield = _gradient_field(res, params["method"])
    if gfield:
        values[gfield] = shaped(dgrad, res[gfield])
    return res, result_tangent(res, values)


# ---- minimize_scalar ---------------------------------------------------------------------------------------------
_SCALAR_NAMES = ("fun", "bracket", "bounds", "args", "method", "tol", "options")


def _scalar_cotangents(npos: int, params: dict[str, Any], dfun: Any, dargs: Any) -> tuple[Any, ...]:
    out: list[Any] = [NO]
    for name in _SCALAR_NAMES[:npos]:
        if name == "fun":
            out.append(dfun)
        elif name == "args":
            out.append(dargs)
        elif name in ("bracket", "bounds"):
            out.append(zero_cotangent(params[name]))
        else:
            out.append(NO)
    return tuple(out)


def _scalar_parts(config: Any, fun: Any, rest: tuple[Any, ...],
                  kwargs: dict[str, Any]) -> tuple[Any, dict[str, Any], _Minimum]:
    res = scipy.optimize.minimize_scalar(fun, *rest, **kwargs)
    params = bind(scipy.optimize.minimize_scalar, (fun, *rest), kwargs)
    bounds = params["bounds"]
    interval = None if bounds is None else (float(bounds[0]), float(bounds[1]))
    minimum = _Minimum(_SCALAR, config, fun, res.x, params["args"], None, None, None, None, bool(res.success),
                       res.message, interval)
    return res, params, minimum


@rrule.register(scipy.optimize.minimize_scalar, object, config=HasReverseMode)
def minimize_scalar_rrule(config: Any, fun: Any, *rest: Any, **kwargs: Any) -> Any:
    """Reverse rule of ``scipy.optimize.minimize_scalar``: ``args_bar = -x_bar (d f'/d args) / f''`` at the minimum.

    Examples
    --------
    >>> import numpy as np, scipy.optimize
    >>> from chainrules import rrule, RulesOnlyConfig, Tangent
    >>> from chainrules.rulesets.optimize import _problems, register_gradient
    >>> _problems.register()                           # x**4 / 4 + x**2 / 2 - t x, and its gradient x**3 + x - t
    >>> register_gradient(_problems.quartic, _problems.quartic_gradient)
    >>> res, pullback = rrule(RulesOnlyConfig(), scipy.optimize.minimize_scalar, _problems.quartic, None, None,
    ...                       (2.0,), tol=1e-12)
    >>> float(res.x), pullback(Tangent(type(res), {"x": 1.0}))[4]     # x**3 + x = t: dx/dt = 1 / (3x**2 + 1)
    (1.0, Tangent(tuple, 0.25))
    """
    res, params, minimum = _scalar_parts(config, fun, rest, kwargs)
    npos = 1 + len(rest)

    def minimize_scalar_pullback(dy: Any) -> tuple[Any, ...]:
        cts = read_result_cotangent(dy, res, ("x", "fun"), scipy.optimize.minimize_scalar)
        if isinstance(cts, NotImplementedTangent):
            return _scalar_cotangents(npos, params, minimum.missing_fun(cts), minimum.missing_args(cts))
        if isinstance(cts, AbstractZero) or all(v is None for v in cts.values()):
            return _scalar_cotangents(npos, params, NO, args_zero_cotangent(params["args"]))
        try:
            dfun, dargs, _ = minimum.cotangents(cts["x"], cts["fun"], None)
        except MissingDerivative as missing:
            t = missing.tangent
            return _scalar_cotangents(npos, params, minimum.missing_fun(t), minimum.missing_args(t))
        return _scalar_cotangents(npos, params, dfun, args_cotangent(params["args"], dargs))

    return res, minimize_scalar_pullback


@frule.register(scipy.optimize.minimize_scalar, object, config=HasForwardsMode)
def minimize_scalar_frule(config: Any, tangents: Any, fun: Any, *rest: Any, **kwargs: Any) -> Any:
    """Forward rule of ``scipy.optimize.minimize_scalar``: ``dx = -(d f'/d args) dargs / f''``."""
    res, _params, minimum = _scalar_parts(config, fun, rest, kwargs)
    dfun = tangents[1] if len(tangents) > 1 else NO
    dargs = tangents[4] if len(tangents) > 4 else ZERO
    if is_zero(dfun) and is_zero(dargs):
        return res, ZERO
    try:
        dx, dvalue, _ = minimum.tangents(dfun, None, dargs)
    except MissingDerivative as missing:
        return res, missing.tangent
    return res, result_tangent(res, {"x": shaped(dx, res.x), "fun": dvalue})


# ---- samples -------------------------------------------------------------------------------------------------------
_NOISY = central_fdm(5, 1, condition=1e7, max_range=1e-2)
"""Finite differences of a whole minimiser call: its answer carries errors of ~1e-9 (a minimiser's gradient
tolerance), so the step is chosen for a function with that much noise (``condition * eps``), and the checks of
the samples ask for 1e-5 (1e-4 for derivative-free methods; the rules themselves are exact at the returned point,
as the tests against closed forms show to 1e-8). ``x0``'s cotangent is zero, and its finite difference is the
solver's noise over the step, hence ``atol``."""


def _solution(res: Any) -> tuple[Any, Any]:
    return res.x, res.fun


def _spd(rng: np.random.Generator, n: int) -> np.ndarray:
    g = rng.standard_normal((n, n))
    return g @ g.T / n + np.eye(n)


@sample_inputs(scipy.optimize.minimize)
def _minimize_samples(rng: np.random.Generator) -> Iterator[Sample]:
    _problems.register()
    register_gradient(_problems.objective, _problems.objective_gradient)
    config = RulesOnlyConfig()
    a, b = _spd(rng, 3), rng.standard_normal(3)
    grad = _problems.objective_gradient
    check = {"config": config, "gauge_invariant": _solution, "fdm": _NOISY, "rtol": 1e-5, "atol": 1e-5}
    yield Sample(_problems.objective, np.zeros(3), (a, b), fkwargs={"jac": grad, "options": {"gtol": 1e-9}},
                 label="BFGS with jac", **check)
    yield Sample(_problems.objective, np.zeros(3), (a, b), "L-BFGS-B", grad,
                 fkwargs={"bounds": [(-1.0, 1.0), (0.2, 1.0), (None, None)],
                          "options": {"gtol": 1e-14, "ftol": 1e-16}},
                 label="L-BFGS-B with bounds (some active), jac by position", **check)
    yield Sample(_problems.objective, np.zeros(3), (a, b),
                 fkwargs={"jac": grad, "method": "Newton-CG", "options": {"xtol": 1e-14}},
                 label="Newton-CG", **check)
    yield Sample(_problems.objective, np.zeros(3), (a, b), fkwargs={"method": "SLSQP", "options": {"ftol": 1e-16}},
                 label="SLSQP, the gradient declared with register_gradient", **check)


@sample_inputs(scipy.optimize.minimize_scalar)
def _minimize_scalar_samples(rng: np.random.Generator) -> Iterator[Sample]:
    _problems.register()
    register_gradient(_problems.quartic, _problems.quartic_gradient)
    check = {"config": RulesOnlyConfig(), "gauge_invariant": _solution, "fdm": _NOISY, "rtol": 1e-5, "atol": 1e-5}
    yield Sample(_problems.quartic, None, None, (0.7,), fkwargs={"tol": 1e-12},
                 label="Brent, the gradient declared with register_gradient", **check)
    yield Sample(_problems.quartic, None, (-2.0, 3.0), (np.float32(-1.5),),
                 fkwargs={"method": "bounded", "options": {"xatol": 1e-12}}, label="bounded, a float32 parameter",
                 **check)
    yield Sample(_problems.quartic, fkwargs={"args": (0.3,), "method": "golden", "tol": 1e-12},
                 label="golden (args by keyword: not differentiated)", **check)
