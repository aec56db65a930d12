"""``scipy.integrate.odeint`` (ODEPACK's LSODA), differentiated with respect to ``y0``, the times ``t`` (the
first one is the initial time) and the parameters in ``args``: reverse mode by the adjoint method, forward
mode by the forward sensitivity equations.

Higher-order rules (``config=HasReverseMode`` / ``config=HasForwardsMode``): ``func`` is differentiated
through the calling AD, one pullback (pushforward) per evaluation of the adjoint (sensitivity) equations;
the maths is in :mod:`chainrules.rulesets.integrate._sensitivity`.

``odeint`` keeps no dense output: its outputs ``y(t_j)`` are the **checkpoints**. The pullback sweeps the
intervals between output times from the last one back to ``t[0]``; on each, it integrates the state
forwards again from the checkpoint at the interval's start (``solve_ivp`` with LSODA, ``odeint``'s
``rtol``/``atol``/``hmax`` and ``Dfun``, keeping that interval's interpolants only while the adjoint is
integrated backwards over it). The frule integrates state and sensitivities interval by interval in the
same way. Derivatives are those of the exact solution, to the solve's tolerances.

With ``full_output``, ``infodict`` gets ``NoTangent()``. A solve that did not succeed (ODEPACK's message is
not ``"Integration successful."``: excess work, repeated error test failures...) has no derivative: the
pullback and the frule raise :class:`~chainrules.rulesets.integrate.initial_value_problems.IntegrationFailedError`.
``Dfun``, ``col_deriv``, the tolerances and ODEPACK's settings are not differentiated; ``tfirst`` is honoured.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from typing import Any

import numpy as np
import scipy.integrate

from chainrules.rulesets.integrate._callables import NotImplementedDerivativeError, is_zero_tangent, split_tangent
from chainrules.rulesets.integrate._sensitivity import (
    DenseState,
    IntegrationFailedError,
    Integrator,
    Jump,
    RightHandSide,
    State,
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
    read_cotangent,
    rrule,
    sample_inputs,
    unthunk,
)

_DEFAULT_TOLERANCE = 1.49012e-8


class _OdeintCall:
    """One ``odeint`` call: the solve (its outputs are the checkpoints) and what the rules share."""

    def __init__(self, config: Any, func: Any, y0: Any, t: Any, args: Any, Dfun: Any, col_deriv: Any,
                 full_output: Any, rtol: Any, atol: Any, hmax: Any, tfirst: Any, odepack: dict[str, Any]) -> None:
        self.config, self.func, self.y0_given, self.t_given = config, func, y0, t
        self.args = args if isinstance(args, tuple) else (args,)
        self.full_output = full_output
        y, info = scipy.integrate.odeint(func, y0, t, args, Dfun, col_deriv, True, rtol=rtol, atol=atol, hmax=hmax,
                                         tfirst=tfirst, **odepack)
        self.y, self.info = y, info
        self.out = (y, info) if full_output else y
        self.success = info["message"] == "Integration successful."
        self.t = np.asarray(t, dtype=np.float64)
        self.y0 = np.asarray(y0).reshape(-1)
        self.order = "ty" if tfirst else "yt"
        self.dtype = np.result_type(self.y0, np.float64)
        self.rtol = _DEFAULT_TOLERANCE if rtol is None else rtol
        self.atol = _DEFAULT_TOLERANCE if atol is None else atol
        self.max_step = np.inf if not hmax else float(hmax)
        self.Dfun, self.col_deriv = Dfun, col_deriv
        if not self.success:
            return
        self.integrator = Integrator("LSODA", self.rtol, self.atol, self.max_step)

    @functools.cached_property
    def rhs(self) -> RightHandSide:
        """``func`` and its derivatives through the config (built when a derivative is first asked for)."""
        return RightHandSide(self.config, self.func, self.args, float(self.t[0]), self.y0.astype(self.dtype),
                             order=self.order, jac=self.Dfun, jac_transposed=bool(self.col_deriv))

    def check_success(self) -> None:
        if not self.success:
            raise IntegrationFailedError(f"odeint failed ({self.info['message']!r}); a failed solve has no derivative "
                                         "(raise mxstep, loosen the tolerances)")

    def standard_rhs(self, t: float, y: np.ndarray) -> np.ndarray:
        return self.rhs.value(t, y)

    def state_between(self, j: int, t_far: float) -> State:
        """``y(t)`` from the checkpoint ``y(t[j])`` to ``t_far``: the state integrated forwards again."""
        t_near = float(self.t[j])
        if t_far == t_near:
            value = self.y[j].astype(self.dtype)
            return lambda time: value
        jac = None
        if self.rhs.jac is not None:
            def jac(time: float, y: np.ndarray) -> Any:
                return self.rhs.user_jacobian(time, y)
        result = self.integrator.solve(self.standard_rhs, (t_near, t_far), self.y[j].astype(self.dtype), jac,
                                       "checkpoint", dense=True)
        return DenseState(result.sol)


# ---- reverse mode -------------------------------------------------------------------------------------------
def _odeint_cotangents(call: _OdeintCall, y_bar: Any) -> tuple[Any, Any, Any, Any]:
    """``(func_bar, y0_bar, t_bar, args_bar)`` for the cotangent of the output array."""
    project_y0, project_t = cotangent_projector(call.y0_given), cotangent_projector(call.t_given)
    project_args = cotangent_projector(call.args) if call.args else (lambda v: NoTangent())
    if isinstance(y_bar, (AbstractZero, NotImplementedTangent)):
        zero = ZeroTangent() if isinstance(y_bar, AbstractZero) else y_bar
        return NoTangent(), project_y0(zero), project_t(zero), project_args(zero)
    call.check_success()
    t, y = call.t, call.y
    t_bar = np.zeros(t.size)
    jumps = []
    index: dict[float, int] = {}
    for j in range(t.size):
        index.setdefault(float(t[j]), j)
        lam = np.asarray(y_bar[j], dtype=call.dtype)
        if not np.any(lam):
            continue
        jumps.append(Jump(float(t[j]), lam=lam))
        t_bar[j] += float(np.real(np.vdot(lam, call.standard_rhs(float(t[j]), y[j]))))
    if not jumps:
        return NoTangent(), project_y0(ZeroTangent()), project_t(ZeroTangent()), project_args(ZeroTangent())

    def state_on(t_near: float, t_far: float) -> State:
        return call.state_between(index[t_near], t_far)

    lam0, mu = adjoint_sweep(call.rhs, call.integrator, float(t[0]), jumps, state_on, call.dtype)
    t_bar[0] -= float(np.real(np.vdot(lam0, call.standard_rhs(float(t[0]), call.y0.astype(call.dtype)))))
    func_bar, args_bar = call.rhs.derivatives.cotangents(mu)
    return (func_bar, project_y0(lam0.reshape(np.shape(call.y0_given))), project_t(t_bar),
            project_args(args_bar) if call.args else NoTangent())


def _read_output_cotangent(call: _OdeintCall, d_out: Any) -> Any:
    if not call.full_output:
        return read_cotangent(d_out, call.y, scipy.integrate.odeint)
    d_out = unthunk(d_out)
    if isinstance(d_out, (AbstractZero, NotImplementedTangent)):
        return d_out
    if isinstance(d_out, Tangent) and isinstance(backing(d_out), tuple):
        parts = backing(d_out)
    elif isinstance(d_out, (tuple, list)):
        parts = tuple(d_out)
    else:
        raise ProjectionError(f"scipy.integrate.odeint pullback: output cotangent is a {type(d_out).__name__}, "
                              "expected a Tangent, tuple or list of 2 parts (y, infodict)")
    if len(parts) != 2:
        raise ProjectionError(f"scipy.integrate.odeint pullback: output cotangent has {len(parts)} parts, expected 2 "
                              "(y, infodict)")
    return read_cotangent(parts[0], call.y, scipy.integrate.odeint, "cotangent of y")  # infodict: not differentiable


def _odepack(ml: Any, mu: Any, tcrit: Any, h0: Any, hmin: Any, ixpr: Any, mxstep: Any, mxhnil: Any, mxordn: Any,
             mxords: Any, printmessg: Any) -> dict[str, Any]:
    return dict(ml=ml, mu=mu, tcrit=tcrit, h0=h0, hmin=hmin, ixpr=ixpr, mxstep=mxstep, mxhnil=mxhnil, mxordn=mxordn,
                mxords=mxords, printmessg=printmessg)


@rrule.register(scipy.integrate.odeint, object, object, object, config=HasReverseMode)
def odeint_rrule(config: Any, func: Any, y0: Any, t: Any, args: Any = (), Dfun: Any = None, col_deriv: Any = 0,
                 full_output: Any = 0, ml: Any = None, mu: Any = None, rtol: Any = None, atol: Any = None,
                 tcrit: Any = None, h0: Any = 0.0, hmax: Any = 0.0, hmin: Any = 0.0, ixpr: Any = 0, mxstep: Any = 0,
                 mxhnil: Any = 0, mxordn: Any = 12, mxords: Any = 5, printmessg: Any = 0, tfirst: Any = False) -> Any:
    """Reverse rule of ``scipy.integrate.odeint`` by the adjoint method, with checkpoints at the output times.

    Examples
    --------
    >>> import chainrules
    >>> from chainrules import RulesOnlyConfig, unthunk
    >>> from chainrules.rulesets.integrate._sample_functions import exponential_decay
    >>> y, pullback = rrule(RulesOnlyConfig(), scipy.integrate.odeint, exponential_decay, np.array([1.0]),
    ...                     np.array([0.0, 2.0]), (0.5,), tfirst=True, rtol=1e-10, atol=1e-12)
    >>> y_bar = np.array([[0.0], [1.0]])                      # of y(2) = exp(-2 k)
    >>> y0_bar, t_bar, args_bar = (unthunk(c) for c in pullback(y_bar)[2:5])
    >>> np.round(y0_bar, 7), np.round(t_bar, 7), round(float(args_bar[0]), 7)
    (array([0.3678794]), array([ 0.1839397, -0.1839397]), -0.7357589)
    """
    call = _OdeintCall(config, func, y0, t, args, Dfun, col_deriv, full_output, rtol, atol, hmax, tfirst,
                       _odepack(ml, mu, tcrit, h0, hmin, ixpr, mxstep, mxhnil, mxordn, mxords, printmessg))

    def odeint_pullback(d_out: Any) -> tuple[Any, ...]:
        y_bar = _read_output_cotangent(call, d_out)
        func_bar, y0_bar, t_bar, args_bar = _odeint_cotangents(call, y_bar)
        return (NoTangent(), func_bar, y0_bar, t_bar, args_bar, *(NoTangent() for _ in range(18)))

    return call.out, odeint_pullback


# ---- forward mode -------------------------------------------------------------------------------------------
def _odeint_tangent(call: _OdeintCall, tangents: tuple[Any, ...]) -> Any:
    t = tuple(tangents) + (NoTangent(),) * (5 - len(tangents))
    dfunc, dy0, dt, dargs_tuple = t[1], unthunk(t[2]), unthunk(t[3]), t[4]
    dargs = split_tangent(dargs_tuple, call.args) if isinstance(dargs_tuple, Tangent) or is_zero_tangent(
        dargs_tuple) or isinstance(dargs_tuple, tuple) else (dargs_tuple,)
    moves = not (is_zero_tangent(dfunc) and all(is_zero_tangent(d) for d in dargs))
    times, y = call.t, call.y
    dt = np.zeros(times.size) if is_zero_tangent(dt) else np.asarray(dt, dtype=np.float64)
    y0 = call.y0.astype(call.dtype)
    s = np.zeros_like(y0) if is_zero_tangent(dy0) else np.asarray(dy0, dtype=call.dtype).reshape(y0.shape)
    out = np.zeros(y.shape, dtype=call.dtype)
    out[0] = s
    s = s - call.standard_rhs(float(times[0]), y0) * dt[0]
    for j in range(times.size - 1):
        a, b = float(times[j]), float(times[j + 1])
        if a != b and (moves or np.any(s)):
            state = call.state_between(j, b)
            s = sensitivity_solve(call.rhs, call.integrator, state, (a, b), s, dfunc, dargs, moves, dense=False)
            s = s.y[:, -1]
        out[j + 1] = s + call.standard_rhs(b, y[j + 1]) * dt[j + 1]
    dY = out.astype(y.dtype, copy=False)
    return Tangent(tuple, dY, NoTangent()) if call.full_output else dY


@frule.register(scipy.integrate.odeint, object, object, object, config=HasForwardsMode)
def odeint_frule(config: Any, tangents: Any, func: Any, y0: Any, t: Any, args: Any = (), Dfun: Any = None,
                 col_deriv: Any = 0, full_output: Any = 0, ml: Any = None, mu: Any = None, rtol: Any = None,
                 atol: Any = None, tcrit: Any = None, h0: Any = 0.0, hmax: Any = 0.0, hmin: Any = 0.0, ixpr: Any = 0,
                 mxstep: Any = 0, mxhnil: Any = 0, mxordn: Any = 12, mxords: Any = 5, printmessg: Any = 0,
                 tfirst: Any = False) -> Any:
    """Forward rule of ``scipy.integrate.odeint`` by the forward sensitivity equations, interval by interval.

    Examples
    --------
    >>> import chainrules
    >>> from chainrules import RulesOnlyConfig, Tangent
    >>> from chainrules.rulesets.integrate._sample_functions import exponential_decay
    >>> tangents = (NoTangent(), NoTangent(), np.array([1.0]), np.zeros(3), Tangent(tuple, 0.0))
    >>> y, dy = frule(RulesOnlyConfig(), tangents, scipy.integrate.odeint,
    ...               exponential_decay, np.array([1.0]), np.array([0.0, 1.0, 2.0]), (0.5,), tfirst=True,
    ...               rtol=1e-10, atol=1e-12)
    >>> np.round(dy, 8)                       # d y(t) / d y0 = exp(-k t)
    array([[1.        ],
           [0.60653066],
           [0.36787944]])
    """
    call = _OdeintCall(config, func, y0, t, args, Dfun, col_deriv, full_output, rtol, atol, hmax, tfirst,
                       _odepack(ml, mu, tcrit, h0, hmin, ixpr, mxstep, mxhnil, mxordn, mxords, printmessg))
    call.check_success()
    try:
        return call.out, _odeint_tangent(call, tuple(tangents))
    except NotImplementedDerivativeError as err:
        return call.out, err.tangent


# ---- sample inputs -----------------------------------------------------------------------------------------
@sample_inputs(scipy.integrate.odeint)
def _odeint_samples(rng: np.random.Generator) -> Iterator[Sample]:
    from chainrules.rulesets.integrate._sample_functions import exponential_decay, lotka_volterra

    tight = {"rtol": 1e-10, "atol": 1e-12, "tfirst": True}
    options: dict[str, Any] = {"config": RulesOnlyConfig(), "rtol": 1e-6}
    yield Sample(exponential_decay, np.array([1.0, -0.5]), np.array([0.0, 0.4, 1.0]), (0.7,), fkwargs=tight,
                 **options, label="decay, the times differentiated")
    yield Sample(lotka_volterra, np.array([1.2, 0.8]), np.array([0.5, 1.0, 2.0]), (np.array([1.0, 0.5, 0.9, 0.3]),),
                 fkwargs={"full_output": 1, **tight}, gauge_invariant=_first, **options,
                 label="Lotka-Volterra, full_output")


def _first(out: tuple[Any, ...]) -> Any:
    return out[0]
