"""The adjoint and forward sensitivity equations of an initial value problem, solved with SciPy (private).

For ``y' = f(t, y, p)``, ``y(t0) = y0``, and outputs ``y(tau_j)``:

* **Forward sensitivities** (Hindmarsh et al. 2005, section 3): the tangent ``s(t)`` of ``y(t)`` at a
  fixed time solves ``s' = J s + f_p dp`` (``J = df/dy``), ``s(t0) = dy0 - f(t0, y0) dt0``; the right-hand
  side is one ``frule_via_ad`` of ``f`` per evaluation. An output at a moving time ``tau`` gets
  ``s(tau) + f(tau, y(tau)) dtau``.
* **The adjoint** (Hindmarsh et al. 2005, section 4; Cao, Li, Petzold & Serban 2003; the augmented
  system of Chen et al. 2018, appendix C): backwards from the last output time,
  ``lambda' = -J^H lambda`` and ``mu' = -f_p^H lambda`` with ``lambda`` jumping by ``y_bar_j`` at every
  output time ``tau_j`` whose cotangent is not zero; then ``y0_bar = lambda(t0)``,
  ``p_bar = mu(t0)`` and ``t0_bar = -Re <lambda(t0), f(t0, y0)>``. The right-hand side is one
  ``rrule_via_ad`` pullback of ``f`` per evaluation, given ``lambda``.

Both read the state ``y(t)`` from the forward solution, never by integrating ``f`` backwards from the
final state (which is unstable for dissipative, stiff systems, and inexact after any step the forward
solve rejected): from ``solve_ivp``'s dense output (every step's interpolant), or, for ``odeint``, by
integrating forwards again from the checkpoint at the start of each interval between output times,
keeping that interval's interpolants only while it is swept (CVODES' checkpointing scheme).

Where this departs from CVODES and from Chen et al.: the adjoint is solved with SciPy's integrator of
the forward method (an implicit one for stiff systems, with the exact Jacobian ``-J^H`` from ``n``
pullbacks or from the user's ``jac``), and the quadrature ``mu`` is a part of its state, so SciPy's
error control covers the parameters' cotangents too (CVODES makes that optional); Chen et al. also
integrate ``y`` backwards, which is what the checkpoints replace. The adjoint and the sensitivities use
the forward solve's ``rtol`` and the smallest of its ``atol``.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import scipy.integrate
import scipy.sparse
from scipy.integrate._ivp.bdf import BDF
from scipy.integrate._ivp.ivp import METHODS
from scipy.integrate._ivp.lsoda import LSODA
from scipy.integrate._ivp.radau import Radau
from scipy.integrate._ivp.rk import RungeKutta

from chainrules.rulesets.integrate._callables import CallableDerivatives, NotImplementedDerivativeError
from chainrules_core import (
    AbstractZero,
    NotImplementedTangent,
    Tangent,
    ZeroTangent,
    unthunk,
)

State = Callable[[float], np.ndarray]
"""``y(t)`` on some interval (a dense output)."""


class IntegrationFailedError(RuntimeError):
    """A solve failed (``success=False``), or the adjoint or sensitivity solve of a derivative did."""


def is_implicit(method: Any) -> bool:
    """Whether the solver is one of SciPy's implicit ones (it then uses a Jacobian).

    Examples
    --------
    >>> is_implicit("Radau"), is_implicit("RK45")
    (True, False)
    """
    implicit = (Radau, BDF, LSODA)
    if isinstance(method, str):
        return method in ("Radau", "BDF", "LSODA")
    return inspect.isclass(method) and issubclass(method, implicit)


def _dense(value: Any, like: np.ndarray) -> np.ndarray:
    value = unthunk(value)
    if value is None or isinstance(value, AbstractZero):
        return np.zeros_like(like)
    if isinstance(value, NotImplementedTangent):
        raise NotImplementedDerivativeError(value)
    if isinstance(value, (Tangent, list, tuple)):  # the (co)tangent of a list or tuple output, part by part
        parts = [unthunk(v) for v in value]
        for part in parts:
            if isinstance(part, NotImplementedTangent):
                raise NotImplementedDerivativeError(part)
        parts = [0.0 if part is None or isinstance(part, AbstractZero) else part for part in parts]
        dtype = np.result_type(like, *(np.asarray(part).dtype for part in parts))
        return np.asarray(parts, dtype=dtype).reshape(np.shape(like))
    return np.asarray(value)


class RightHandSide:
    """``f(t, y, *args)`` of an ODE (or ``f(y, t, *args)``: ``order="yt"``) and its derivatives through a config.

    Parameters
    ----------
    config : RuleConfig
        The calling AD's config.
    fun : callable
        The right-hand side, called with the head ``(t, y)`` (or ``(y, t)``) then ``args``.
    args : tuple
        The extra arguments (differentiated).
    t0, y0 : float, ndarray
        A point at which ``fun`` is evaluated once, to learn the kind of its output (an array or a list)
        and the layout of ``fun``'s own cotangent, when the config reports one.
    order : str
        ``"ty"`` (``solve_ivp``, ``odeint(tfirst=True)``) or ``"yt"`` (``odeint``).
    jac : callable or array_like, optional
        The user's Jacobian ``df/dy`` (called like ``fun``), used for the implicit solvers' Jacobians.
    jac_transposed : bool
        ``jac`` returns ``(df/dy)^T`` (``odeint``'s ``col_deriv``).
    """

    def __init__(self, config: Any, fun: Callable[..., Any], args: tuple[Any, ...], t0: float, y0: np.ndarray,
                 order: str = "ty", jac: Any = None, jac_transposed: bool = False) -> None:
        self.config, self.fun, self.args, self.order = config, fun, tuple(args), order
        self.jac, self.jac_transposed = jac, jac_transposed
        self.n = y0.size
        self.derivatives = CallableDerivatives(config, fun, self.args, n_head=2)
        probe = fun(*self.head(t0, y0), *self.args)
        self.output_type = type(probe) if isinstance(probe, (list, tuple)) else None
        self.derivatives.probe(self.head(t0, y0), self.cotangent(np.ones_like(y0)))

    @property
    def size(self) -> int:
        """The number of parameter values: those in ``args``, then ``fun``'s own."""
        return self.derivatives.size

    def head(self, t: float, y: np.ndarray) -> tuple[Any, Any]:
        return (t, y) if self.order == "ty" else (y, t)

    def cotangent(self, lam: np.ndarray) -> Any:
        """An output cotangent of ``fun`` from an array (a structural one for a list output)."""
        if self.output_type is None:
            return lam
        return Tangent(self.output_type, *lam)

    def value(self, t: float, y: np.ndarray) -> np.ndarray:
        return np.asarray(self.fun(*self.head(t, y), *self.args))

    def vjp(self, t: float, y: np.ndarray, lam: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(f, J^H lam, (df/dp)^H lam)`` at ``(t, y)``; the last flattened (args, then ``fun``'s own values)."""
        f, vector, heads = self.derivatives.pullback_at(self.head(t, y), self.cotangent(lam))
        y_bar = heads[1] if self.order == "ty" else heads[0]
        if type(y_bar) is not np.ndarray:
            y_bar = _dense(y_bar, y)
        return f, y_bar, vector

    def adjoint_function(self, state: State) -> Callable[[float, np.ndarray], np.ndarray]:
        """The right-hand side ``z' = -(J^H lambda, f_p^H lambda)`` of the adjoint ``z = (lambda, mu)`` along
        ``state``: :meth:`vjp` with one pullback per evaluation, the parameters' cotangents written straight
        into the output (no look-ups, conversions or copies per evaluation beyond the pullback's own)."""
        n, derivatives, cotangent = self.n, self.derivatives, self.cotangent
        ty, structural = self.order == "ty", self.output_type is not None

        def adjoint_rhs(t: float, z: np.ndarray) -> np.ndarray:
            y = state(t)
            out = np.empty_like(z)
            lam = z[:n]
            _, heads = derivatives.pullback_into((t, y) if ty else (y, t), cotangent(lam) if structural else lam,
                                                 out[n:])
            y_bar = heads[1] if ty else heads[0]
            if type(y_bar) is not np.ndarray:
                y_bar = _dense(y_bar, y)
            np.negative(y_bar, out=out[:n])
            np.negative(out[n:], out=out[n:])
            return out

        return adjoint_rhs

    def jvp(self, t: float, y: np.ndarray, dy: np.ndarray | None, dfun: Any, dargs: Sequence[Any]) -> np.ndarray:
        """``J dy + f_p dp`` (plus the tangent of ``fun``'s own values) at ``(t, y)``."""
        dy_tangent: Any = ZeroTangent() if dy is None else dy
        heads = (ZeroTangent(), dy_tangent) if self.order == "ty" else (dy_tangent, ZeroTangent())
        f, df = self.derivatives.forward_at(self.head(t, y), heads, dfun, tuple(dargs))
        return _dense(df, np.asarray(f, dtype=np.result_type(y, np.float64)))

    def user_jacobian(self, t: float, y: np.ndarray) -> Any:
        """``df/dy`` from the user's ``jac`` (``None`` without one)."""
        if self.jac is None:
            return None
        J = self.jac(*self.head(t, y), *self.args) if callable(self.jac) else self.jac
        J = J if scipy.sparse.issparse(J) else np.asarray(J)
        return J.T if self.jac_transposed else J

    def jacobian(self, t: float, y: np.ndarray, adjoint: bool) -> Any:
        """``df/dy`` (``adjoint=False``, from ``n`` pushforwards) or its conjugate transpose (``adjoint=True``,
        from ``n`` pullbacks), or from the user's ``jac`` when given."""
        J = self.user_jacobian(t, y)
        if J is not None:
            return J.conj().T if adjoint else J
        dtype = np.result_type(y, np.float64)
        columns = []
        for k in range(self.n):
            unit = np.zeros(self.n, dtype=dtype)
            unit[k] = 1.0
            if adjoint:
                columns.append(self.vjp(t, y, unit)[1])  # J^H e_k
            else:
                columns.append(self.jvp(t, y, unit, ZeroTangent(), [ZeroTangent()] * len(self.args)))
        return np.stack(columns, axis=1)


class Integrator:
    """The settings of the forward solve that the adjoint and sensitivity solves reuse."""

    def __init__(self, method: Any, rtol: float, atol: Any, max_step: float = np.inf) -> None:
        self.method, self.rtol, self.max_step = method, rtol, max_step
        self.atol = float(np.min(atol))

    def stepper(self, fun: Callable[[float, np.ndarray], np.ndarray], jac: Callable[[float, np.ndarray], Any] | None,
                what: str, atol: Any = None) -> Stepper:
        """A :class:`Stepper` of ``z' = fun(t, z)`` with these settings (``atol`` replaces the forward one)."""
        return Stepper(self, fun, jac, what, atol)

    def solve(self, fun: Callable[[float, np.ndarray], np.ndarray], t_span: tuple[float, float], z0: np.ndarray,
              jac: Callable[[float, np.ndarray], Any] | None, what: str, dense: bool = False) -> Any:
        options: dict[str, Any] = dict(method=self.method, rtol=self.rtol, atol=self.atol, max_step=self.max_step)
        if jac is not None and is_implicit(self.method):
            options["jac"] = jac
        if not dense:
            options["t_eval"] = [t_span[1]]
        result = scipy.integrate.solve_ivp(fun, t_span, z0, dense_output=dense, **options)
        if not result.success:
            raise IntegrationFailedError(f"the {what} solve failed over [{t_span[0]}, {t_span[1]}]: {result.message}")
        return result


class Stepper:
    """Integrates one system over successive intervals, ``z`` possibly jumping between them (the adjoint
    sweep from one output time to the next).

    SciPy's solver object is stepped directly. Each interval starts with the step size the previous one
    ended with (cut to the interval) instead of selecting an initial step again; an explicit Runge-Kutta
    solver (RK23, RK45, DOP853) is moreover kept from one interval to the next, restarted in place at the
    new state (its right-hand side evaluated there: one evaluation, as a new solver's first), which gives
    the same steps as a new solver started with that step size without building one per interval.
    """

    def __init__(self, integrator: Integrator, fun: Callable[[float, np.ndarray], np.ndarray],
                 jac: Callable[[float, np.ndarray], Any] | None, what: str, atol: Any = None) -> None:
        method = integrator.method
        self.solver_class = METHODS[method] if isinstance(method, str) else method
        self.fun, self.what = fun, what
        self.options: dict[str, Any] = dict(rtol=integrator.rtol, atol=integrator.atol if atol is None else atol,
                                            max_step=integrator.max_step)
        if jac is not None and is_implicit(method):
            self.options["jac"] = jac
        self.restartable = issubclass(self.solver_class, RungeKutta)
        self.solver: Any = None
        self.step: float | None = None

    def run(self, t_from: float, t_to: float, z0: np.ndarray) -> np.ndarray:
        """Integrate from ``t_from`` to ``t_to`` starting at ``z0``; return ``z(t_to)``."""
        solver = self.solver
        if (self.restartable and solver is not None and solver.t == t_from and t_to != t_from
                and np.sign(t_to - t_from) == solver.direction and self.step is not None):
            solver.t_bound, solver.status, solver.t_old = t_to, "running", None
            solver.y = np.array(z0, dtype=solver.y.dtype)
            solver.f = solver.fun(solver.t, solver.y)
            solver.h_abs, solver.h_previous = self.step, None
        else:
            options = dict(self.options)
            if self.step is not None and self.step > 0 and t_to != t_from:  # cut to the interval
                options["first_step"] = min(self.step, abs(t_to - t_from))
            solver = self.solver = self.solver_class(self.fun, t_from, z0, t_to, **options)
        proposal = None
        while solver.status == "running":
            message = solver.step()
            if solver.status == "failed":
                raise IntegrationFailedError(f"the {self.what} solve failed over [{t_from}, {t_to}]: {message}")
            if solver.t_old is not None:
                self.step = abs(solver.t - solver.t_old)
            if solver.status == "running":
                proposal = getattr(solver, "h_abs", None)
        # The next interval starts with the step the controller proposed after the last step that was not cut
        # to this interval's end (the last step is often cut short, and its error then proposes a step up to
        # ten times too long, which the next interval rejects), or after the last one if that proposes less.
        last = getattr(solver, "h_abs", None)
        self.step = (min(proposal, last) if proposal is not None and last is not None else last) or self.step
        return solver.y


class _SwitchableState:
    """``y(t)`` from the state of the interval being swept (the adjoint's right-hand side keeps one)."""

    __slots__ = ("current",)

    def __init__(self) -> None:
        self.current: State | None = None

    def __call__(self, t: float) -> np.ndarray:
        return self.current(t)  # type: ignore[misc]


# ---- the adjoint --------------------------------------------------------------------------------------------
class Jump:
    """What lands on the adjoint at one time: ``lambda += lam``, ``mu += mu`` (either may be ``None``)."""

    __slots__ = ("lam", "mu", "t")

    def __init__(self, t: float, lam: np.ndarray | None = None, mu: np.ndarray | None = None) -> None:
        self.t, self.lam, self.mu = t, lam, mu


def adjoint_sweep(rhs: RightHandSide, integrator: Integrator, t0: float, jumps: list[Jump],
                  state_on: Callable[[float, float], State], dtype: Any) -> tuple[np.ndarray, np.ndarray]:
    """``(lambda(t0), mu(t0))``: the adjoint integrated from the last jump back to ``t0``.

    ``jumps`` are sorted from ``t0`` outwards; ``state_on(t_near, t_far)`` gives ``y(t)`` on the interval
    between two successive jump times (``t_near`` the one nearer to ``t0``).
    """
    n, size = rhs.n, rhs.size
    z = np.zeros(n + size, dtype=dtype)
    stops = sorted({j.t for j in jumps}, key=lambda t: abs(t - t0), reverse=True)
    at: dict[float, list[Jump]] = {}
    for j in jumps:
        at.setdefault(j.t, []).append(j)
    state = _SwitchableState()
    stepper = _adjoint_stepper(rhs, integrator, state)
    t_cur: float | None = None
    for t_stop in stops if t0 in at else [*stops, t0]:
        if t_cur is not None and t_stop != t_cur:
            state.current = state_on(t_stop, t_cur)
            z = stepper.run(t_cur, t_stop, z)
        for j in at.get(t_stop, []):
            if j.lam is not None:
                z[:n] += j.lam
            if j.mu is not None:
                z[n:] += j.mu
        t_cur = t_stop
    return z[:n], z[n:]


def _adjoint_stepper(rhs: RightHandSide, integrator: Integrator, state: State) -> Stepper:
    n, size = rhs.n, rhs.size
    adjoint_rhs = rhs.adjoint_function(state)

    def adjoint_jacobian(t: float, z: np.ndarray) -> Any:
        # d/dz of the right-hand side: [[-J^H, 0], [-f_p^H, 0]]. The block of the quadrature mu is left out:
        # the right-hand side does not depend on mu, so the Newton iteration on lambda alone decides
        # convergence, and a block-diagonal matrix costs n pullbacks instead of n + size.
        JH = rhs.jacobian(t, state(t), adjoint=True)
        if scipy.sparse.issparse(JH):
            return scipy.sparse.block_diag([-JH, scipy.sparse.csr_matrix((size, size))], format="csc")
        out = np.zeros((n + size, n + size), dtype=np.result_type(JH, z))
        out[:n, :n] = -JH
        return out

    # The quadrature mu starts at zero: an absolute tolerance on it drives BDF's first, first-order steps below
    # the spacing of the floats (Robertson's adjoint fails so). The implicit methods leave mu out of the error
    # control, as CVODES does by default for quadratures: it is integrated with the steps that resolve lambda.
    atol = np.full(n + size, integrator.atol)
    if is_implicit(integrator.method):
        atol[n:] = np.inf
    return integrator.stepper(adjoint_rhs, adjoint_jacobian, "adjoint", atol)


# ---- forward sensitivities -----------------------------------------------------------------------------------
def sensitivity_solve(rhs: RightHandSide, integrator: Integrator, state: State, t_span: tuple[float, float],
                      s0: np.ndarray, dfun: Any, dargs: Sequence[Any], moves: bool, dense: bool = True) -> Any:
    """Solve ``s' = J s + f_p dp`` over ``t_span`` along ``state``; ``moves`` says whether ``dp`` (or ``fun``'s
    own tangent) is non-zero. Returns the ``OdeResult`` (dense output on by default)."""
    zeros = [ZeroTangent()] * len(dargs)

    def sensitivity_rhs(t: float, s: np.ndarray) -> np.ndarray:
        return rhs.jvp(t, state(t), s, dfun if moves else ZeroTangent(), dargs if moves else zeros)

    def sensitivity_jacobian(t: float, s: np.ndarray) -> Any:
        return rhs.jacobian(t, state(t), adjoint=False)

    return integrator.solve(sensitivity_rhs, t_span, s0, sensitivity_jacobian, "sensitivity", dense=dense)


class DenseState:
    """``y(t)`` from an ``OdeSolution``, remembering the last interpolant used.

    The adjoint and sensitivity solves ask for the state at times that move monotonically
    through the steps: the interpolant of the last call is checked first, before
    ``OdeSolution``'s search over every step. The Runge-Kutta interpolants (RK23, RK45:
    ``y_old + h Q [x, x^2, ...]`` with ``x = (t - t_old)/h``) are evaluated directly, without
    the array conversions of ``DenseOutput.__call__``.
    """

    def __init__(self, sol: Any) -> None:
        self.sol = sol
        self.ts = np.asarray(sol.ts_sorted)
        self.interpolants = list(sol.interpolants) if sol.ascending else list(sol.interpolants)[::-1]
        self.lo, self.hi = np.inf, -np.inf
        self.current: Any = None
        self.polynomial: tuple[float, float, np.ndarray, np.ndarray, np.ndarray] | None = None

    def __call__(self, t: float) -> np.ndarray:
        if not self.lo <= t <= self.hi:
            if len(self.interpolants) == 0:
                return self.sol(t)
            k = int(np.searchsorted(self.ts, t, side="right")) - 1
            k = min(max(k, 0), len(self.interpolants) - 1)
            self.lo, self.hi, self.current = self.ts[k], self.ts[k + 1], self.interpolants[k]
            self.polynomial = _runge_kutta_polynomial(self.current)
        if self.polynomial is not None:
            t_old, h, y_old, Q, powers = self.polynomial
            return y_old + h * (Q @ ((t - t_old) / h) ** powers)
        return self.current(t)


def _runge_kutta_polynomial(interpolant: Any) -> tuple[float, float, np.ndarray, np.ndarray, np.ndarray] | None:
    if type(interpolant).__name__ != "RkDenseOutput" or not all(
            hasattr(interpolant, a) for a in ("t_old", "h", "y_old", "Q")):
        return None
    Q = interpolant.Q
    return interpolant.t_old, interpolant.h, interpolant.y_old, Q, np.arange(1.0, Q.shape[1] + 1.0)
