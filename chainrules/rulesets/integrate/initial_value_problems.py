"""``scipy.integrate.solve_ivp``: every method (RK45, RK23, DOP853, Radau, BDF, LSODA, or an ``OdeSolver``
class), differentiated with respect to ``y0``, the parameters in ``args``, the end points of ``t_span``, the
times in ``t_eval`` and the right-hand side's own values: reverse mode by the adjoint method, forward mode
by the forward sensitivity equations.

Higher-order rules (``config=HasReverseMode`` / ``config=HasForwardsMode``): the right-hand side ``fun``
(and the event functions) are differentiated through the calling AD, one ``rrule_via_ad`` pullback (or
``frule_via_ad`` pushforward) per evaluation of the adjoint (or sensitivity) equations. The maths, and
how the forward solution's dense output is used rather than integrating the state backwards, are in
:mod:`chainrules.rulesets.integrate._sensitivity`. The derivatives are those of the exact solution of the
ODE (optimise-then-discretise), computed to the solve's tolerances: they agree with finite differences of
the solver to about its ``rtol``, not to rounding.

The result is an ``OdeResult``; its cotangent or tangent is a structural ``Tangent(OdeResult, {...})``:

* ``y``: the solution at the output times;
* ``t``: with ``t_eval``, the output times are ``t_eval`` (their tangents are its tangents). Without it
  they are the steps the solver took: ``t[0]`` and ``t[-1]`` move with ``t_span`` (or with a terminal
  event), and the interior steps are **held fixed** (the step-size controller's choices are not a
  differentiable function of the inputs in any useful sense), so ``y``'s derivative there is that of
  the solution at those times, as if they had been given as ``t_eval``;
* ``t_events`` and ``y_events``: an event at ``g(t_e, y(t_e), *args) = 0`` moves by
  ``dt_e = -(dg along the sensitivity) / (dg/dt + dg/dy . f)`` (the implicit function theorem; undefined,
  hence ``not_implemented``, where the event is tangential: ``dg/dt + dg/dy . f = 0``), and
  ``dy_e = s(t_e) + f(t_e, y_e) dt_e``. A terminal event ends the solve: the last output moves with it,
  and ``t_span[1]`` gets a zero;
* ``sol`` (``dense_output=True``): forward mode gives the dense output of the sensitivities, an
  ``OdeSolution`` ``t -> s(t)`` (the tangent of ``y(t)`` at a fixed ``t``). No AD can hand a pullback a
  cotangent of a function, so a non-zero cotangent of ``sol`` is ``not_implemented``: evaluate the
  solution where you need it with ``t_eval`` instead.

``nfev``, ``njev``, ``nlu``, ``status``, ``message`` and ``success`` are not differentiable, nor are
``method``, ``dense_output``, ``events``, ``vectorized`` and the options (tolerances, ``first_step``,
``max_step``, ``jac``...). A solve that failed (``success=False``) has no derivative: the pullback and the
frule raise :class:`IntegrationFailedError`.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from typing import Any

import numpy as np
import scipy.integrate
from scipy.integrate._ivp.ivp import OdeResult

from chainrules.rulesets.integrate._callables import (
    NotImplementedDerivativeError,
    is_zero_tangent,
    split_tangent,
)
from chainrules.rulesets.integrate._sensitivity import (
    DenseState,
    IntegrationFailedError,
    Integrator,
    Jump,
    RightHandSide,
    adjoint_sweep,
    sensitivity_solve,
)
from chainrules_core import (
    AbstractZero,
    HasForwardsMode,
    HasReverseMode,
    NoTangent,
    NotImplementedTangent,
    ProjectionError,
    RulesOnlyConfig,
    Sample,
    Tangent,
    ZeroTangent,
    backing,
    cotangent_projector,
    frule,
    frule_via_ad,
    not_implemented,
    read_cotangent,
    rrule,
    rrule_via_ad,
    sample_inputs,
    unthunk,
)

__all__ = ["IntegrationFailedError"]

_SOL_COTANGENT = ("solve_ivp: a cotangent of the dense output `sol` (an OdeSolution, a function of t) is not "
                  "supported; evaluate the solution at the times you need with t_eval instead")
_TANGENTIAL = ("solve_ivp: an event where the event function is tangent to the trajectory (dg/dt + dg/dy . f = 0) "
               "has no derivative")


_FREE_DENSE_OUTPUT = ("RK45", "RK23", "Radau", "BDF", "LSODA")


def _events_list(events: Any) -> list[Any]:
    if events is None:
        return []
    return [events] if callable(events) else list(events)


class _IvpCall:
    """One ``solve_ivp`` call: its inputs, the solve (with dense output), and what its rules share."""

    def __init__(self, config: Any, fun: Any, t_span: Any, y0: Any, method: Any, t_eval: Any, dense_output: Any,
                 events: Any, vectorized: Any, args: Any, options: dict[str, Any]) -> None:
        self.config, self.fun, self.t_span, self.y0_given = config, fun, t_span, y0
        self.t_eval, self.dense_output, self.options = t_eval, dense_output, options
        self.args = () if args is None else tuple(args)
        self.events = _events_list(events)
        self.method, self.vectorized = method, vectorized
        # Dense output is free for every method but DOP853 (three more evaluations per step): the solve runs
        # with it (the adjoint reads the state from it) unless it would change the primal's nfev.
        dense = bool(dense_output) or method in _FREE_DENSE_OUTPUT
        self.full = scipy.integrate.solve_ivp(fun, t_span, y0, method, t_eval, dense, events, vectorized, args,
                                              **options)
        self.result = OdeResult(self.full)
        if not dense_output:
            self.result["sol"] = None
        self.t0, self.t1 = map(float, t_span)
        self.y0 = np.asarray(y0)
        self.dtype = np.result_type(self.y0, np.float64)
        if not self.full.success:
            return
        rtol, atol = options.get("rtol", 1e-3), options.get("atol", 1e-6)
        self.integrator = Integrator(method, rtol, atol, options.get("max_step", np.inf))
        self._sol = self.full.sol
        self.t_final = float(self.full.t[-1]) if self.t_eval is None else self._final_time()
        self.terminal = self._terminal_event()

    @functools.cached_property
    def rhs(self) -> RightHandSide:
        """``fun`` and its derivatives through the config (built when a derivative is first asked for)."""
        return RightHandSide(self.config, self.fun, self.args, self.t0, self.y0.astype(self.dtype),
                             jac=self.options.get("jac"))

    def _final_time(self) -> float:
        if self.full.status == 1:  # a terminal event: its time ended the solve
            return max((float(te[-1]) for te in self.full.t_events if len(te)), key=lambda t: abs(t - self.t0))
        return self.t1

    @property
    def sol(self) -> Any:
        """The dense output of the solve (solved again, with it, if the primal ran without)."""
        if self._sol is None:
            self._sol = scipy.integrate.solve_ivp(self.fun, self.t_span, self.y0_given, self.method, self.t_eval,
                                                  True, self.events or None, self.vectorized,
                                                  self.args or None, **self.options).sol
        return self._sol

    def check_success(self) -> None:
        if not self.full.success:
            raise IntegrationFailedError(f"solve_ivp failed (status {self.full.status}: {self.full.message}); a "
                                         "failed solve has no derivative (loosen the tolerances, or change method)")

    def _terminal_event(self) -> tuple[int, int] | None:
        """``(event, occurrence)`` of the event that ended the solve, or ``None``."""
        if self.full.status != 1:
            return None
        for i, times in enumerate(self.full.t_events):
            if len(times) and float(times[-1]) == self.t_final and getattr(self.events[i], "terminal", False):
                return i, len(times) - 1
        return None

    def output_time_kind(self, j: int) -> Any:
        """What moves the output time ``t[j]``: ``("t_eval", j)``, ``"t0"``, ``"t1"``, ``("event", i, k)``,
        or ``None`` (an interior step, held fixed)."""
        if self.t_eval is not None:
            return ("t_eval", j)
        m = self.full.t.size
        if j == 0:
            return "t0"
        if j == m - 1:
            return ("event", *self.terminal) if self.terminal is not None else "t1"
        return None

    @functools.cached_property
    def state(self) -> DenseState:
        """``y(t)`` from the dense output."""
        return DenseState(self.sol)

    def event_jacobians(self, i: int, te: float, ye: np.ndarray) -> tuple[float, Any, Any, np.ndarray]:
        """``(g_dot, grad_y g, grad_args g flattened, f(te, ye))`` of event ``i`` at ``(te, ye)``."""
        g = self.events[i]
        _, pullback = rrule_via_ad(self.config, g, te, ye, *self.args)
        cotangents = pullback(1.0)
        g_t = unthunk(cotangents[1])
        g_t = 0.0 if g_t is None or isinstance(g_t, AbstractZero) else float(np.real(g_t))
        g_y = unthunk(cotangents[2])
        g_y = np.zeros_like(ye) if g_y is None or isinstance(g_y, AbstractZero) else np.asarray(g_y)
        g_p = self.rhs.derivatives.parameters.flatten(Tangent(tuple, *cotangents[3:]))
        f = self.rhs.value(te, ye)
        return g_t + float(np.real(np.vdot(g_y, f))), g_y, g_p, f


# ---- reading the cotangent of an OdeResult ----------------------------------------------------------------
_FIELDS = ("t", "y", "sol", "t_events", "y_events", "nfev", "njev", "nlu", "status", "message", "success")


def _read_list(value: Any, primals: Any, name: str) -> list[Any] | None:
    value = unthunk(value)
    if value is None or isinstance(value, AbstractZero) or primals is None:
        return None
    if isinstance(value, NotImplementedTangent):
        raise NotImplementedDerivativeError(value)
    parts = backing(value) if isinstance(value, Tangent) else value
    if not isinstance(parts, (list, tuple)) or len(parts) != len(primals):
        raise ProjectionError(f"scipy.integrate.solve_ivp pullback: the cotangent of {name} must have one part per "
                              f"event ({len(primals)}), got {type(value).__name__}")
    out = []
    for k, (part, primal) in enumerate(zip(parts, primals)):
        read = read_cotangent(part, primal, scipy.integrate.solve_ivp, f"cotangent of {name}[{k}]")
        if isinstance(read, NotImplementedTangent):
            raise NotImplementedDerivativeError(read)
        out.append(None if isinstance(read, AbstractZero) else np.asarray(read))
    return out


def read_result_cotangent(d_out: Any, result: Any, f: Any) -> Any:
    """The cotangents of the fields of an ``OdeResult`` (a ``dict`` of ``t``, ``y``, ``t_events``, ``y_events``,
    ``sol``; ``None`` for a zero), or a zero / not-implemented cotangent of the whole.

    A structural ``Tangent(OdeResult, {...})`` or a plain ``dict`` is accepted; anything else raises
    :class:`~chainrules_core.ProjectionError` naming the function.
    """
    d_out = unthunk(d_out)
    if isinstance(d_out, (AbstractZero, NotImplementedTangent)):
        return d_out
    if isinstance(d_out, Tangent) and isinstance(backing(d_out), dict):
        fields = backing(d_out)
    elif isinstance(d_out, dict) and not isinstance(d_out, OdeResult):
        fields = d_out
    else:
        raise ProjectionError(f"scipy.integrate.solve_ivp pullback: output cotangent is a {type(d_out).__name__}, "
                              "expected a Tangent(OdeResult, {...}) (or a dict) of its fields t, y, ...")
    unknown = set(fields) - set(_FIELDS)
    if unknown:
        raise ProjectionError(f"scipy.integrate.solve_ivp pullback: output cotangent has fields {sorted(unknown)} "
                              f"that an OdeResult does not have")
    out: dict[str, Any] = {}
    for name in ("t", "y"):
        value = read_cotangent(fields.get(name, ZeroTangent()), result[name], f, f"cotangent of {name}")
        if isinstance(value, NotImplementedTangent):
            return value
        out[name] = None if isinstance(value, AbstractZero) else np.asarray(value)
    try:
        out["t_events"] = _read_list(fields.get("t_events"), result["t_events"], "t_events")
        out["y_events"] = _read_list(fields.get("y_events"), result["y_events"], "y_events")
    except NotImplementedDerivativeError as err:
        return err.tangent
    sol = unthunk(fields.get("sol"))
    out["sol"] = None if sol is None or isinstance(sol, AbstractZero) else sol
    return out


# ---- reverse mode -----------------------------------------------------------------------------------------
def _real_inner(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.real(np.vdot(a, b)))


class _Pullback:
    """The adjoint sweep of one cotangent of a solve_ivp result."""

    def __init__(self, call: _IvpCall, fields: dict[str, Any]) -> None:
        self.call, self.fields = call, fields
        self.size = call.rhs.size
        self.t0_bar, self.t1_bar = 0.0, 0.0
        self.t_eval_bar = np.zeros(np.size(call.t_eval)) if call.t_eval is not None else None
        self.event_time_bar: dict[tuple[int, int], float] = {}

    def jumps(self) -> list[Jump]:
        call, fields = self.call, self.fields
        t, y = call.full.t, call.full.y
        y_bar, t_bar = fields["y"], fields["t"]
        jumps: list[Jump] = []
        for j in range(t.size):
            lam = None if y_bar is None else y_bar[:, j]
            if lam is not None and not np.any(lam):
                lam = None
            kind = call.output_time_kind(j)
            time_bar = 0.0 if t_bar is None else float(np.real(t_bar[j]))
            if kind is not None and lam is not None:
                time_bar += _real_inner(lam, call.rhs.value(t[j], y[:, j]))
            if lam is not None:
                jumps.append(Jump(float(t[j]), lam=lam.astype(call.dtype)))
            self._add_time_bar(kind, j, time_bar)
        jumps.extend(self._event_jumps())
        return jumps

    def _add_time_bar(self, kind: Any, j: int, value: float) -> None:
        if kind is None or value == 0.0:
            return
        if kind == "t0":
            self.t0_bar += value
        elif kind == "t1":
            self.t1_bar += value
        elif kind[0] == "t_eval":
            assert self.t_eval_bar is not None
            self.t_eval_bar[j] += value
        else:
            key = (kind[1], kind[2])
            self.event_time_bar[key] = self.event_time_bar.get(key, 0.0) + value

    def _event_jumps(self) -> list[Jump]:
        call, fields = self.call, self.fields
        jumps = []
        t_events, y_events = call.full.t_events or [], call.full.y_events or []
        te_bars, ye_bars = fields.get("t_events"), fields.get("y_events")
        for i, (times, states) in enumerate(zip(t_events, y_events)):
            for k, te in enumerate(times):
                ye = np.asarray(states[k])
                c = self.event_time_bar.get((i, k), 0.0)
                if te_bars is not None and te_bars[i] is not None:
                    c += float(np.real(te_bars[i][k]))
                ye_bar = None if ye_bars is None or ye_bars[i] is None else ye_bars[i][k]
                if ye_bar is not None and not np.any(ye_bar):
                    ye_bar = None
                if ye_bar is None and c == 0.0:
                    continue
                g_dot, g_y, g_p, f = call.event_jacobians(i, float(te), ye)
                if ye_bar is not None:
                    c += _real_inner(ye_bar, f)
                if g_dot == 0.0:
                    raise NotImplementedDerivativeError(not_implemented(_TANGENTIAL))
                scale = -c / g_dot
                lam = scale * g_y if ye_bar is None else ye_bar + scale * g_y
                mu = np.zeros(self.size, dtype=np.result_type(g_p, np.float64))
                mu[:g_p.size] = scale * g_p
                jumps.append(Jump(float(te), lam=np.asarray(lam, dtype=call.dtype), mu=mu))
        return jumps

    def run(self) -> tuple[np.ndarray, np.ndarray]:
        call = self.call
        jumps = self.jumps()
        if not jumps:
            return np.zeros(call.y0.shape, call.dtype), np.zeros(self.size)
        dtype = np.result_type(call.dtype, *(j.mu.dtype for j in jumps if j.mu is not None))
        lam0, mu = adjoint_sweep(call.rhs, call.integrator, call.t0, jumps, lambda a, b: call.state, dtype)
        self.t0_bar -= _real_inner(lam0, call.rhs.value(call.t0, call.y0.astype(call.dtype)))
        return lam0, mu


def _solve_ivp_cotangents(call: _IvpCall, fields: Any) -> tuple[Any, ...]:
    """``(fun_bar, t_span_bar, y0_bar, t_eval_bar, args_bar)``."""
    project_t_span, project_y0 = cotangent_projector(call.t_span), cotangent_projector(call.y0_given)
    project_t_eval = cotangent_projector(call.t_eval)
    project_args = cotangent_projector(call.args) if call.args else (lambda v: NoTangent())
    if isinstance(fields, (AbstractZero, NotImplementedTangent)):
        zero = ZeroTangent() if isinstance(fields, AbstractZero) else fields
        return NoTangent(), project_t_span(zero), project_y0(zero), project_t_eval(zero), project_args(zero)
    if fields.get("sol") is not None:
        missing = not_implemented(_SOL_COTANGENT)
        return missing, missing, missing, missing, missing
    pullback = _Pullback(call, fields)
    try:
        lam0, mu = pullback.run()
    except NotImplementedDerivativeError as err:
        missing = err.tangent
        return missing, missing, missing, missing, missing
    d = call.rhs.derivatives
    fun_bar, args_bar = d.cotangents(mu)
    if call.args:
        args_bar = project_args(args_bar)
    t_span_bar = project_t_span(Tangent(type(call.t_span), pullback.t0_bar, pullback.t1_bar)
                                if isinstance(call.t_span, (tuple, list)) else np.array([pullback.t0_bar,
                                                                                         pullback.t1_bar]))
    t_eval_bar = NoTangent() if call.t_eval is None else project_t_eval(pullback.t_eval_bar)
    return fun_bar, t_span_bar, project_y0(lam0.reshape(np.shape(call.y0_given))), t_eval_bar, args_bar


@rrule.register(scipy.integrate.solve_ivp, object, object, object, config=HasReverseMode)
def solve_ivp_rrule(config: Any, fun: Any, t_span: Any, y0: Any, method: Any = "RK45", t_eval: Any = None,
                    dense_output: Any = False, events: Any = None, vectorized: Any = False, args: Any = None,
                    **options: Any) -> Any:
    """Reverse rule of ``scipy.integrate.solve_ivp`` by the adjoint method (see the module docstring).

    Examples
    --------
    >>> import chainrules
    >>> from chainrules import RulesOnlyConfig, Tangent, unthunk
    >>> from chainrules.rulesets.integrate._sample_functions import exponential_decay
    >>> result, pullback = rrule(RulesOnlyConfig(), scipy.integrate.solve_ivp, exponential_decay, (0.0, 2.0),
    ...                          np.array([1.0]), "RK45", [2.0], False, None, False, (0.5,), rtol=1e-10, atol=1e-12)
    >>> cotangents = pullback(Tangent(OdeResult, {"y": np.array([[1.0]])}))   # of y(2) = exp(-k (2 - t0)) y0
    >>> t_span_bar, y0_bar, args_bar = (unthunk(cotangents[i]) for i in (2, 3, 9))
    >>> [round(float(v), 8) for v in (t_span_bar[0], t_span_bar[1], y0_bar[0], args_bar[0])]
    [0.18393972, 0.0, 0.36787944, -0.73575888]
    """
    call = _IvpCall(config, fun, t_span, y0, method, t_eval, dense_output, events, vectorized, args, options)
    result = call.result

    def solve_ivp_pullback(d_out: Any) -> tuple[Any, ...]:
        fields = read_result_cotangent(d_out, result, scipy.integrate.solve_ivp)
        if not isinstance(fields, (AbstractZero, NotImplementedTangent)):
            call.check_success()
        fun_bar, t_span_bar, y0_bar, t_eval_bar, args_bar = _solve_ivp_cotangents(call, fields)
        return (NoTangent(), fun_bar, t_span_bar, y0_bar, NoTangent(), t_eval_bar, NoTangent(), NoTangent(),
                NoTangent(), args_bar)

    return result, solve_ivp_pullback


# ---- forward mode -------------------------------------------------------------------------------------------
def _value(t: Any) -> Any:
    t = unthunk(t)
    return None if t is None or isinstance(t, AbstractZero) else t


def _solve_ivp_tangent(call: _IvpCall, tangents: tuple[Any, ...]) -> Any:
    t = tuple(tangents) + (NoTangent(),) * (10 - len(tangents))
    dfun, dt_span, dy0, dt_eval, dargs_tuple = t[1], t[2], t[3], t[5], t[9]
    full = call.full
    dt0, dt1 = (_value(v) for v in split_tangent(dt_span, tuple(call.t_span)))
    dt0 = 0.0 if dt0 is None else float(dt0)
    dt1 = 0.0 if dt1 is None else float(dt1)
    dy0 = _value(dy0)
    dargs = split_tangent(dargs_tuple, call.args) if call.args else ()
    moves = not (is_zero_tangent(dfun) and all(is_zero_tangent(d) for d in dargs))
    y0 = call.y0.astype(call.dtype)
    s0 = np.zeros_like(y0) if dy0 is None else np.asarray(dy0, dtype=call.dtype).reshape(y0.shape)
    if dt0:
        s0 = s0 - call.rhs.value(call.t0, y0) * dt0
    sensitivity = None
    if moves or np.any(s0):
        sensitivity = sensitivity_solve(call.rhs, call.integrator, call.state, (call.t0, call.t_final), s0,
                                        dfun, dargs, moves).sol

    def s_at(time: float) -> np.ndarray:
        return np.zeros_like(y0) if sensitivity is None else sensitivity(time)

    # the events first: a terminal one moves the last output
    dte: dict[tuple[int, int], float] = {}
    t_events_tangent: Any = NoTangent()
    y_events_tangent: Any = NoTangent()
    if full.t_events is not None:
        te_parts, ye_parts = [], []
        for i, (times, states) in enumerate(zip(full.t_events, full.y_events)):
            te_i, ye_i = np.zeros(len(times)), np.zeros((len(times), y0.size), dtype=call.dtype)
            for k, te in enumerate(times):
                ye = np.asarray(states[k])
                s_e = s_at(float(te))
                dte[(i, k)] = _event_time_tangent(call, i, float(te), ye, s_e, dargs)
                te_i[k] = dte[(i, k)]
                ye_i[k] = s_e + call.rhs.value(float(te), ye) * dte[(i, k)]
            te_parts.append(te_i)
            ye_parts.append(ye_i.reshape(np.shape(states)))
        t_events_tangent = Tangent(list, *te_parts) if te_parts else NoTangent()
        y_events_tangent = Tangent(list, *ye_parts) if ye_parts else NoTangent()

    dt_eval_values = _value(dt_eval)
    m = full.t.size
    dt_out = np.zeros(m)
    dY = np.zeros(full.y.shape, dtype=call.dtype)
    for j in range(m):
        kind = call.output_time_kind(j)
        if kind is None:
            dtau = 0.0
        elif kind == "t0":
            dtau = dt0
        elif kind == "t1":
            dtau = dt1
        elif kind[0] == "t_eval":
            dtau = 0.0 if dt_eval_values is None else float(np.asarray(dt_eval_values)[j])
        else:
            dtau = dte[(kind[1], kind[2])]
        dt_out[j] = dtau
        dY[:, j] = s_at(float(full.t[j]))
        if dtau:
            dY[:, j] += call.rhs.value(float(full.t[j]), full.y[:, j]) * dtau
    fields: dict[str, Any] = {"t": dt_out, "y": dY.astype(full.y.dtype, copy=False)}
    if full.t_events is not None:
        fields["t_events"], fields["y_events"] = t_events_tangent, y_events_tangent
    if call.dense_output:
        fields["sol"] = sensitivity if sensitivity is not None else ZeroTangent()
    return Tangent(OdeResult, fields)


def _event_time_tangent(call: _IvpCall, i: int, te: float, ye: np.ndarray, s_e: np.ndarray,
                        dargs: tuple[Any, ...]) -> float:
    """``dt_e = -(dg along (s, dp)) / (dg/dt + dg/dy . f)`` (the implicit function theorem)."""
    g = call.events[i]
    zeros = tuple(ZeroTangent() for _ in call.args)
    f = call.rhs.value(te, ye)
    _, g_dot = frule_via_ad(call.config, (NoTangent(), 1.0, f, *zeros), g, te, ye, *call.args)
    g_dot = float(np.real(0.0 if _value(g_dot) is None else unthunk(g_dot)))
    _, dg = frule_via_ad(call.config, (NoTangent(), ZeroTangent(), s_e, *(dargs or zeros)), g, te, ye, *call.args)
    dg = 0.0 if _value(dg) is None else float(np.real(unthunk(dg)))
    if dg == 0.0:
        return 0.0
    if g_dot == 0.0:
        raise NotImplementedDerivativeError(not_implemented(_TANGENTIAL))
    return -dg / g_dot


@frule.register(scipy.integrate.solve_ivp, object, object, object, config=HasForwardsMode)
def solve_ivp_frule(config: Any, tangents: Any, fun: Any, t_span: Any, y0: Any, method: Any = "RK45",
                    t_eval: Any = None, dense_output: Any = False, events: Any = None, vectorized: Any = False,
                    args: Any = None, **options: Any) -> Any:
    """Forward rule of ``scipy.integrate.solve_ivp`` by the forward sensitivity equations.

    Examples
    --------
    >>> import chainrules
    >>> from chainrules import RulesOnlyConfig, Tangent
    >>> from chainrules.rulesets.integrate._sample_functions import exponential_decay
    >>> tangents = (NoTangent(), NoTangent(), NoTangent(), np.array([1.0]), NoTangent(), NoTangent(), NoTangent(),
    ...             NoTangent(), NoTangent(), Tangent(tuple, 0.0))
    >>> result, d_result = frule(RulesOnlyConfig(), tangents, scipy.integrate.solve_ivp, exponential_decay,
    ...                          (0.0, 2.0), np.array([1.0]), "RK45", [1.0, 2.0], False, None, False, (0.5,),
    ...                          rtol=1e-10, atol=1e-12)
    >>> np.round(d_result["y"], 8)         # d y(t) / d y0 = exp(-k t)
    array([[0.60653066, 0.36787944]])
    """
    call = _IvpCall(config, fun, t_span, y0, method, t_eval, dense_output, events, vectorized, args, options)
    call.check_success()
    try:
        return call.result, _solve_ivp_tangent(call, tuple(tangents))
    except NotImplementedDerivativeError as err:
        return call.result, err.tangent


# ---- sample inputs -----------------------------------------------------------------------------------------
def final_state(result: Any) -> Any:
    """The solution at the last output time and that time (what a loss on a solve without t_eval sees)."""
    return result.y[:, -1], result.t[-1]


def solution(result: Any) -> Any:
    """``(t, y)`` of a result: with ``t_eval``, everything differentiable but the dense output."""
    return result.t, result.y


@sample_inputs(scipy.integrate.solve_ivp)
def _solve_ivp_samples(rng: np.random.Generator) -> Iterator[Sample]:
    from chainrules.rulesets.integrate._sample_functions import exponential_decay, lotka_volterra

    tight = {"rtol": 1e-10, "atol": 1e-12}
    options: dict[str, Any] = {"config": RulesOnlyConfig(), "rtol": 1e-6}
    y0 = np.array([1.0, -0.5])
    yield Sample(exponential_decay, (0.0, 1.0), y0, "RK45", [0.3, 0.9], False, None, False, (0.7,), fkwargs=tight,
                 gauge_invariant=solution, **options, label="decay, t_eval and args by position")
    yield Sample(lotka_volterra, (0.0, 2.0), np.array([1.2, 0.8]), "DOP853", None, False, None, False,
                 (np.array([1.0, 0.5, 0.9, 0.3]),), fkwargs=tight, gauge_invariant=final_state, **options,
                 label="Lotka-Volterra, DOP853, the last step")
    # The implicit methods are slow at tight tolerances in Python: finite differences of a solve at rtol 1e-8 agree
    # with the derivative to about 1e-5 (the accuracy tests in tests/ go further).
    loose = {"rtol": 1e-8, "atol": 1e-10}
    yield Sample(exponential_decay, (0, 1), y0, "Radau", [0.9], False, None, False, (np.array([0.7, 1.3]),),
                 fkwargs=loose, gauge_invariant=solution, config=RulesOnlyConfig(), rtol=1e-5,
                 label="Radau, rates, integer end points (not differentiated)")
    yield Sample(exponential_decay, [0, 1], y0, fkwargs={"args": (0.7,), "method": "BDF", "t_eval": [0.4, 0.9],
                                                         **loose},
                 gauge_invariant=solution, config=RulesOnlyConfig(), rtol=1e-5,
                 label="BDF, t_eval and args by keyword (constant)")
