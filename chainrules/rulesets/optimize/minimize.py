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

**Constraints** (``constraints=`` of COBYLA, COBYQA, SLSQP, trust-constr: dicts, ``LinearConstraint``,
``NonlinearConstraint``). Inequality constraints that are inactive at the solution (slack above
``1e-7 (1 + |bound|)``) do not change the local solution and are ignored. The active ones
(equalities, inequalities at a bound, and with them the active ``bounds`` as rows ``x_i = bound_i``)
enter the KKT system of the Lagrangian ``L = f - lam . c``: differentiating ``grad f - J_c^T lam = 0``
and ``c(x*) = const`` gives ``[[H_L, -J_c^T], [J_c, 0]] [dx; dlam] = [-M dtheta; 0]`` with
``H_L = H_f - sum_i lam_i d^2 c_i`` (Gould et al. 2016, section 4, equality constraints;
Fiacco 1976, "Sensitivity analysis for nonlinear programming using penalty methods", Math.
Programming 10, the basic sensitivity theorem, which needs LICQ, strict complementarity and
second-order sufficiency). Reverse mode solves the transposed system for ``[x_bar; 0]``.
``J_c`` comes from pullbacks of the constraint functions, ``lam`` from least squares on
``J_c^T lam = grad f``, ``sum_i lam_i d^2 c_i`` from ``n`` second-order products of
``x -> lam . c(x)`` through the config (zero for linear constraints, so a
:class:`~chainrules_core.RulesOnlyConfig` handles ``LinearConstraint`` without rules for anything but
the objective). The constraints' own ``args`` and bounds are constants (they sit inside keywords).
Degenerate solutions get ``not_implemented`` with the reason: active constraints whose gradients are
linearly dependent (LICQ fails: smallest singular value of ``J_c`` below ``1e-9`` of the largest),
or an active inequality with a zero multiplier (below ``1e-6 max(1, max|grad f|)``: weakly active,
only one-sidedly differentiable). A multiplier of the wrong sign (not a minimum), a gradient outside
the span of the active constraints' (not a KKT point) and a singular KKT matrix raise
:class:`~chainrules.rulesets.optimize.ImplicitDerivativeError`. A result reported as failed stands
when the Newton step on the KKT conditions from it is below ``CERTIFIED`` (SLSQP's "Positive
directional derivative for linesearch" at a tolerance it cannot reach). The gradient field moves as
``H dx + M dtheta``.

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
import warnings
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import scipy.linalg
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
    frule_via_ad,
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

_UNSET: Any = object()
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


def _constraint_items(constraints: Any) -> list[Any]:
    if constraints is None:
        return []
    if isinstance(constraints, (dict, scipy.optimize.NonlinearConstraint, scipy.optimize.LinearConstraint)):
        return [constraints]
    return list(constraints)


class _Piece:
    """The active components of one constraint at the solution: ``c(x)[index] = target``.

    ``sides[j]`` is the sign the multiplier of component ``index[j]`` must have at a minimum (the
    Lagrangian is ``f - lam . c``): ``+1`` at a lower bound (``c >= lb``, SciPy's ``'ineq'``), ``-1`` at
    an upper bound, ``0`` for an equality (either sign).
    """

    def __init__(self, what: str, fun: Any, args: tuple[Any, ...], index: np.ndarray, sides: np.ndarray,
                 gap: np.ndarray, scalar: bool, matrix: np.ndarray | None = None) -> None:
        self.what = what
        self.gap = gap  # c(x)[index] - target (the solver's constraint violation)
        self.fun = fun
        self.args = args
        self.index = index
        self.sides = sides
        self.scalar = scalar
        self.matrix = matrix  # the rows of a LinearConstraint or of active bounds (no curvature)
        self.live = False  # its args are the objective's (differentiated): fmin_slsqp's and fmin_cobyla's constraints


def _two_sided(value: np.ndarray, lb: Any, ub: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """The active components of ``lb <= value <= ub``, their sides and their gaps, or ``None``."""
    lb = np.broadcast_to(np.asarray(lb, dtype=np.float64), value.shape)
    ub = np.broadcast_to(np.asarray(ub, dtype=np.float64), value.shape)
    with np.errstate(invalid="ignore"):
        at_lb = np.isfinite(lb) & (value - lb <= _SLACK * (1 + np.abs(lb)))
        at_ub = np.isfinite(ub) & (ub - value <= _SLACK * (1 + np.abs(ub)))
    active = at_lb | at_ub
    if not np.any(active):
        return None
    index = np.flatnonzero(active)
    sides = np.where(at_lb & at_ub, 0.0, np.where(at_lb, 1.0, -1.0))[index]
    gap = np.where(at_lb, value - lb, value - ub)[index]
    return index, sides, gap


def _active_pieces(constraints: Any, x: np.ndarray) -> list[_Piece]:
    """The active components of ``constraints`` at ``x``: equalities, and inequalities at a bound."""
    pieces = []
    for k, c in enumerate(_constraint_items(constraints)):
        what = f"constraint {k}"
        if isinstance(c, dict):
            args = tuple(c.get("args", ()))
            raw = c["fun"](x, *args)
            value = np.atleast_1d(np.asarray(raw, dtype=np.float64))
            equality = c.get("type") == "eq"
            active = np.ones(value.size, bool) if equality else value <= _SLACK
            if np.any(active):
                index = np.flatnonzero(active)
                sides = np.full(index.size, 0.0 if equality else 1.0)
                pieces.append(_Piece(what, c["fun"], args, index, sides, value[index], np.ndim(raw) == 0))
                pieces[-1].live = bool(c.get(LIVE))
            continue
        if isinstance(c, scipy.optimize.LinearConstraint):
            a = np.atleast_2d(np.asarray(c.A.toarray() if hasattr(c.A, "toarray") else c.A, dtype=np.float64))
            found = _two_sided(a @ x, c.lb, c.ub)
            if found is not None:
                pieces.append(_Piece(what, None, (), *found, False, a[found[0]]))
            continue
        raw = c.fun(x)
        found = _two_sided(np.atleast_1d(np.asarray(raw, dtype=np.float64)), c.lb, c.ub)
        if found is not None:
            pieces.append(_Piece(what, c.fun, (), *found, np.ndim(raw) == 0))
    return pieces


def _bound_piece(bounds: Any, x: np.ndarray) -> _Piece | None:
    """The active bounds at ``x`` as linear constraint rows ``x_i = bound_i`` (with active constraints)."""
    arrays = _bound_arrays(bounds, x.size)
    if arrays is None:
        return None
    lb, ub = arrays
    with np.errstate(invalid="ignore"):
        at_lb = np.isfinite(lb) & (np.abs(x - lb) <= _AT_BOUND * (1 + np.abs(lb)))
        at_ub = np.isfinite(ub) & (np.abs(x - ub) <= _AT_BOUND * (1 + np.abs(ub)))
    active = at_lb | at_ub
    if not np.any(active):
        return None
    index = np.flatnonzero(active)
    sides = np.where(at_lb & at_ub, 0.0, np.where(at_lb, 1.0, -1.0))[index]
    gap = np.where(at_lb, x - lb, x - ub)[index]
    return _Piece("the bounds", None, (), index, sides, gap, False, np.eye(x.size)[index])


LIVE = "_chainrules_live"
"""A private key of a constraint dict: its ``args`` are the objective's, differentiated (the legacy interfaces)."""


class _ConstraintCurvature:
    """``x, *args -> sum_i lam_i c_i(x)`` over the active components (its Hessian is the constraints' part of the
    Lagrangian's); differentiated twice through the config. ``args`` reach the live constraints only (default:
    the objective's own)."""

    def __init__(self, pieces: list[_Piece], lam: list[np.ndarray], items: tuple[Any, ...]) -> None:
        self.pieces = pieces
        self.lam = lam
        self.items = items

    def __call__(self, x: Any, *items: Any) -> Any:
        items = items or self.items
        total: Any = 0.0
        for piece, lam in zip(self.pieces, self.lam):
            if piece.matrix is not None:
                continue
            value = piece.fun(x, *(items if piece.live else piece.args))
            total = total + (lam[0] * value if piece.scalar else value[piece.index] @ lam)
        return total

    def __repr__(self) -> str:
        return "the active constraints weighted by their multipliers"


_LICQ = 1e-9
"""The active constraints' gradients are taken as dependent (LICQ fails) when the smallest singular value of
their Jacobian is below this, relative to the largest."""
_WEAK = 1e-6
"""An active inequality whose multiplier is below this, relative to ``max(1, max|grad f|)``, is weakly active."""


class _KKT:
    """The KKT system of the active constraints at the solution (Lagrangian ``L = f - lam . c``).

    Differentiating ``grad f(x*, theta) - J_c(x*)^T lam = 0`` and ``c(x*) = const`` gives
    ``[[H_L, -J_c^T], [J_c, 0]] [dx; dlam] = [-M dtheta; 0]`` with ``H_L = H_f - sum_i lam_i d^2 c_i``
    (Gould et al. 2016, arXiv:1607.05447, section 4, for equality constraints; an active inequality
    with a multiplier of the right sign and bounded away from zero, strict complementarity, stays
    active under small perturbations and is one of them: Fiacco 1976, Math. Programming 10, the basic
    sensitivity theorem).
    ``J_c`` by pullbacks of the constraints, ``lam`` by least squares on ``J_c^T lam = grad f``, the
    constraints' curvature by second derivatives through the config. The constraints' own ``args``
    are constants (they sit inside ``constraints``, a keyword argument).
    """

    def __init__(self, minimum: Any, pieces: list[_Piece]) -> None:
        self.minimum = minimum
        self.pieces = pieces
        name = minimum.name
        x = minimum.x
        self.n = int(np.size(x))
        rows = []
        for piece in pieces:
            if piece.matrix is not None:
                rows.append(piece.matrix)
                continue
            try:
                y, pullback = rrule_via_ad(minimum.config, piece.fun, x, *piece.args)
                for i in piece.index:
                    ct: Any = 1.0
                    if not piece.scalar:
                        ct = np.zeros(np.shape(y))
                        ct[i] = 1.0
                    rows.append(flat(pullback(ct)[1], x, "the constraint's gradient")[None, :])
            except MissingDerivative:
                raise
            except Exception as err:
                raise MissingDerivative(not_implemented(
                    f"{name}: the KKT system needs the gradients of the active {piece.what}, and "
                    f"{type(minimum.config).__name__} could not differentiate it ({type(err).__name__}: {err})"
                )) from err
        self.jc = np.concatenate(rows, axis=0)
        self.k = self.jc.shape[0]
        sides = np.concatenate([piece.sides for piece in pieces])
        what = [piece.what for piece in pieces for _ in piece.index]
        singular = np.linalg.svd(self.jc, compute_uv=False)
        if self.k > self.n or singular[-1] <= _LICQ * singular[0]:
            raise MissingDerivative(not_implemented(
                f"{name}: the gradients of the {self.k} active constraints are linearly dependent at the solution "
                "(LICQ fails: the multipliers are not unique, and the solution may be only directionally "
                "differentiable); the derivative of such a degenerate solution is not implemented; drop the "
                "redundant constraints"))
        g = minimum.source.value_gradient(x, minimum.items)
        lam, *_ = np.linalg.lstsq(self.jc.T, g, rcond=None)
        gscale = max(1.0, float(np.max(np.abs(g))))
        self.residual = np.concatenate([g - self.jc.T @ lam, np.concatenate([piece.gap for piece in pieces])])
        residual = float(np.linalg.norm(self.residual[:self.n]))
        if residual > 1e-6 * gscale:
            if not minimum.success:
                raise _not_converged(name, minimum.message)
            raise ImplicitDerivativeError(f"{name}: the gradient at the solution is not a combination of the active "
                                          f"constraints' gradients (residual {residual:.1e}): not a KKT point, so no "
                                          "implicit derivative")
        for j in np.flatnonzero(sides != 0):
            if sides[j] * lam[j] < -_WEAK * gscale:
                raise ImplicitDerivativeError(f"{name}: the multiplier of the active {what[j]} has the wrong sign "
                                              f"({lam[j]:.3e}): the result is not a minimum, so it has no implicit "
                                              "derivative")
            if abs(lam[j]) <= _WEAK * gscale:
                raise MissingDerivative(not_implemented(
                    f"{name}: the active {what[j]} has a zero multiplier ({lam[j]:.1e}; weakly active, strict "
                    "complementarity fails): the solution is only one-sidedly differentiable, and that derivative "
                    "is not implemented"))
        self.lam = lam
        split, start = [], 0
        for piece in pieces:
            split.append(lam[start:start + piece.index.size])
            start += piece.index.size
        self.curvature = _ConstraintCurvature(pieces, split, minimum.items)
        self.live = any(piece.live for piece in pieces)
        self.linear = all(piece.matrix is not None for piece in pieces)
        self.bounds_active = any(piece.what == "the bounds" for piece in pieces)

    def matrix(self, hessian_of_f: np.ndarray, constraints_hessian: np.ndarray) -> np.ndarray:
        """The KKT matrix; for a result the solver reported as failed, certified first (see :meth:`certify`)."""
        n, k = self.n, self.k
        kkt = np.zeros((n + k, n + k))
        kkt[:n, :n] = hessian_of_f - constraints_hessian
        kkt[:n, n:] = -self.jc.T
        kkt[n:, :n] = self.jc
        self.certify(kkt)
        return kkt

    def certify(self, kkt: np.ndarray) -> None:
        """A result reported as failed stands if it is a KKT point to working precision: the Newton step on the KKT
        conditions from it is at most ``CERTIFIED (1 + max|x|)`` in ``x`` (SLSQP reports a tolerance below what its
        line search can reach as "Positive directional derivative for linesearch", at points accurate to 1e-10)."""
        minimum = self.minimum
        if minimum.success:
            return
        step = _kkt_solve(kkt, self.residual, minimum.name)[:self.n]
        size = float(np.max(np.abs(step)))
        x = np.atleast_1d(np.asarray(minimum.x, dtype=np.float64))
        if size > CERTIFIED * (1 + float(np.max(np.abs(x)))):
            raise _not_converged(minimum.name, f"{str(minimum.message).strip()}; the Newton step on the KKT "
                                 f"conditions from the result is {size:.1e}")

    def constraints_hessian(self, forward: bool) -> np.ndarray:
        """``sum_i lam_i d^2 c_i`` (dense), by ``n`` second-order products through the config."""
        if self.linear:
            return np.zeros((self.n, self.n))
        config, x = self.minimum.config, self.minimum.x
        gradient = ConfigGradient(config, self.curvature)
        eye = np.eye(self.n)
        try:
            if forward:
                cols = [flat(frule_via_ad(config, (NO, shaped(eye[j], x)), gradient, x)[1], x) for j in range(self.n)]
                return np.stack(cols, axis=-1)
            _, pullback = rrule_via_ad(config, gradient, x)
            return np.stack([flat(pullback(shaped(eye[j], x))[1], x) for j in range(self.n)])
        except Exception as err:
            raise MissingDerivative(not_implemented(
                f"{self.minimum.name}: the KKT system needs second derivatives of the active constraints, and "
                f"{type(config).__name__} could not differentiate them twice ({type(err).__name__}: {err}); "
                "write linear constraints as LinearConstraint (no curvature)")) from err


    # constraints that depend on the parameters (live): the KKT system's right-hand side gains their terms
    def args_tangent(self, items_t: list[Any]) -> tuple[np.ndarray, np.ndarray]:
        """``(d_theta(sum_i lam_i grad c_i) dtheta, C_theta dtheta)`` over the live constraints."""
        mx, mc = np.zeros(self.n), np.zeros(self.k)
        if not self.live:
            return mx, mc
        config, x, items = self.minimum.config, self.minimum.x, self.minimum.items
        zero_x = shaped(np.zeros(self.n), x)
        try:
            _, d = frule_via_ad(config, (NO, zero_x, *items_t), ConfigGradient(config, self.curvature), x, *items)
            mx = flat(d, x, "the constraints' mixed derivative")
            start = 0
            for piece in self.pieces:
                if piece.live:
                    _, dc = frule_via_ad(config, (NO, zero_x, *items_t), piece.fun, x, *items)
                    mc[start:start + piece.index.size] = np.atleast_1d(np.asarray(unthunk(dc), dtype=np.float64))[
                        [0] if piece.scalar else piece.index]
                start += piece.index.size
        except Exception as err:
            raise MissingDerivative(self._live_failed(err)) from err
        return mx, mc

    def args_cotangents(self, u: np.ndarray, w: np.ndarray) -> list[Any]:
        """``(d_theta(sum_i lam_i grad c_i))^T u - C_theta^T w`` over the live constraints, per element of args."""
        config, x, items = self.minimum.config, self.minimum.x, self.minimum.items
        try:
            _, pullback = rrule_via_ad(config, ConfigGradient(config, self.curvature), x, *items)
            cts = list(pullback(shaped(u, x))[2:])
            start = 0
            for piece in self.pieces:
                if piece.live:
                    y, pull_c = rrule_via_ad(config, piece.fun, x, *items)
                    part = w[start:start + piece.index.size]
                    ct: Any = float(part[0])
                    if not piece.scalar:
                        ct = np.zeros(np.shape(y))
                        ct[piece.index] = part
                    cts = [_add(a, _negated(b)) for a, b in zip(cts, pull_c(ct)[2:])]
                start += piece.index.size
        except Exception as err:
            raise MissingDerivative(self._live_failed(err)) from err
        return cts

    def _live_failed(self, err: BaseException) -> NotImplementedTangent:
        return not_implemented(f"{self.minimum.name}: constraints that depend on the parameters need their mixed "
                               f"second derivatives, and {type(self.minimum.config).__name__} could not give them "
                               f"({type(err).__name__}: {err})")


def _negated(t: Any) -> Any:
    t = unthunk(t)
    if t is None or isinstance(t, (AbstractZero, NotImplementedTangent)):
        return t
    if isinstance(t, (np.ndarray, float, int, np.number)):
        return -t
    raise MissingDerivative(not_implemented(f"a constraint's cotangent of type {type(t).__name__} cannot be negated"))


def _kkt_solve(matrix: np.ndarray, rhs: np.ndarray, name: str) -> np.ndarray:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", scipy.linalg.LinAlgWarning)
            return scipy.linalg.solve(matrix, rhs)
    except (np.linalg.LinAlgError, scipy.linalg.LinAlgWarning) as err:
        raise ImplicitDerivativeError(f"{name}: the KKT system of the active constraints is singular ({err}): the "
                                      "Hessian of the Lagrangian is singular on the constraints' tangent space (no "
                                      "isolated minimum); no derivative") from None


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
        self._kkt: Any = _UNSET

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
        self.kkt()

    def kkt(self) -> _KKT | None:
        """The KKT system of the active constraints, or ``None`` when none is active."""
        if self._kkt is _UNSET:
            x = np.atleast_1d(np.asarray(self.x, dtype=np.float64))
            pieces = _active_pieces(self.constraints, x)
            if not pieces:
                self._kkt = None
            else:
                bound = _bound_piece(self.bounds, x)
                self._kkt = _KKT(self, pieces + ([bound] if bound is not None else []))
        return self._kkt

    def check_bounds_tangent(self, dbounds: Any) -> None:
        if is_zero(dbounds) or self.bounds is None:
            return
        kkt = self.kkt()
        if kkt.bounds_active if kkt is not None else not np.all(self.free()):
            raise MissingDerivative(not_implemented(
                f"{self.name}: the derivative with respect to active bounds (dx_A = d bound_A) is not implemented; "
                "pass bounds by keyword (they are then constants)"))

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
        kkt = self.kkt()
        if kkt is not None and (xbar is not None or gbar is not None):
            # x_bar . dx + g_bar . dG with dG = H dx + M dtheta: the KKT adjoint of x_bar + H^T g_bar, then the
            # pullback of G at g_bar - u (as without constraints)
            lin = self.source.reverse(self.x, self.items)
            h = lin.jacobian()
            gb = np.zeros(n) if gbar is None else flat(gbar, self.x)
            rhs = (np.zeros(n) if xbar is None else flat(xbar, self.x)) + h.T @ gb
            if kkt.live and fbar is not None:  # f* moves with x* too: grad f . dx is not zero when C_theta is not
                rhs = rhs + float(np.asarray(fbar)) * self.source.value_gradient(self.x, self.items)
            matrix = kkt.matrix(h, kkt.constraints_hessian(forward=False))
            uw = _kkt_solve(matrix.T, np.concatenate([rhs, np.zeros(kkt.k)]), self.name)
            u = uw[:n]
            cts = lin.pull(gb - u)
            if kkt.live:
                cts = (*cts[:2], *[_add(a, b) for a, b in zip(cts[2:], kkt.args_cotangents(u, uw[n:]))])
            if self.source.gradient is self.fun:
                dfun = cts[0]
            elif self.source.second_order and not carries_no_values(self.fun):
                dfun = not_implemented(f"{self.name}: the derivative with respect to values the objective carries (a "
                                       "closure, a functor's fields) is not implemented; pass them through args")
            dargs = [_add(a, b) for a, b in zip(dargs, cts[2:])]
        elif xbar is not None or gbar is not None:
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
    def tangents(self, dfun: Any, djac: Any, dargs: Any, dbounds: Any = None) -> tuple[Any, Any, Any]:
        """``(dx, dfun_value, dgrad)`` (flat arrays; ``dfun_value`` a float). ``dbounds``: the tangent of bounds
        passed by position (a nonzero one on an active bound is not implemented)."""
        self.check()
        self.check_bounds_tangent(dbounds)
        items_t = args_tangents(dargs, self.args)
        kkt = self.kkt()
        free = self.free() if kkt is None else np.ones(int(np.size(self.x)), dtype=bool)
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
        if kkt is not None:
            matrix = kkt.matrix(lin.jacobian(), kkt.constraints_hessian(forward=True))
            mx, mc = kkt.args_tangent(items_t)
            dx = -_kkt_solve(matrix, np.concatenate([rhs - mx, mc]), self.name)[:n]
            value = ForwardLinearization(self.config, self.fun, self.x, self.items, part=self.source.value_part)
            _, dvalue = value.push(dfun, ZERO, items_t)
            if kkt.live:  # f* moves with x* too: grad f . dx is not zero when C_theta is not
                dvalue = dvalue + self.source.value_gradient(self.x, self.items) @ dx
            _, dgrad = lin.push(gtan, shaped(dx, self.x), items_t)  # the gradient is J_c^T lam there, and moves
            return dx, float(dvalue[0]), dgrad
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
    kkt = minimum.kkt()
    if (not kkt.bounds_active) if kkt is not None else np.all(minimum.free()):
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
    dbounds = tangents[8] if len(tangents) > 8 else None
    if is_zero(dfun) and is_zero(dargs) and is_zero(dbounds):
        return res, ZERO
    try:
        dx, dvalue, dgrad = minimum.tangents(dfun, djac, dargs, dbounds)
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
    plane = [scipy.optimize.LinearConstraint(np.ones((1, 3)), 0.5, 0.5),
             scipy.optimize.LinearConstraint(np.array([[1.0, -1.0, 0.0]]), -np.inf, 0.25)]
    yield Sample(_problems.objective, np.zeros(3), (a, b),
                 fkwargs={"method": "SLSQP", "jac": grad, "constraints": plane, "options": {"ftol": 1e-16}},
                 label="SLSQP, an active LinearConstraint (the KKT system)", **check)


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
