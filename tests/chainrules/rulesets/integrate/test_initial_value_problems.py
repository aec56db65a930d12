"""Rules of initial_value_problems.py (scipy.integrate.solve_ivp): the adjoint and forward sensitivities.

* accuracy (issue 13): the gradient of a loss on the solution, by the adjoint (and the frule along a
  direction), against a finite difference of the solver run at rtol 1e-10, on non-stiff systems
  (Lotka-Volterra, a damped pendulum) and stiff ones (Van der Pol with mu = 1000, Robertson), for every
  method: agreement to 1e-6 relative;
* closed forms: exponential decay (every method, both modes, every input: y0, the rate, both end points,
  the output times) and a ball thrown upwards that stops when it lands (a terminal event);
* the contract: ``t_eval=None`` holds the interior steps fixed, a dense output's tangent, events,
  complex states, integration backwards in time, keywords, a failed solve, right-hand sides written with
  autograd (AutogradConfig) against finite differences of the whole call.
"""

from __future__ import annotations

import autograd.numpy as anp
import numpy as np
import pytest
import scipy.integrate
from scipy.integrate._ivp.ivp import OdeResult

import chainrules  # noqa: F401  (registers the rules)
from chainrules import NoTangent, NotImplementedTangent, RulesOnlyConfig, Tangent, ZeroTangent, frule, rrule, unthunk
from chainrules.interop.autograd import AutogradConfig
from chainrules.rulesets.integrate._sample_functions import (
    damped_pendulum,
    exponential_decay,
    lotka_volterra,
    robertson,
    van_der_pol,
)
from chainrules.rulesets.integrate.initial_value_problems import IntegrationFailedError, final_state, solution
from chainrules.testing import test_frule, test_rrule

RULES = RulesOnlyConfig()
AUTOGRAD = AutogradConfig()
METHODS = ["RK45", "RK23", "DOP853", "Radau", "BDF", "LSODA"]


def _solve(config, fun, t_span, y0, method, t_eval, args, **options):
    """rrule of solve_ivp with every differentiated argument by position."""
    return rrule(config, scipy.integrate.solve_ivp, fun, t_span, y0, method, t_eval, False, None, False, args,
                 **options)


def _cotangents(pullback, y_bar, t_bar=None):
    fields = {"y": y_bar} if t_bar is None else {"y": y_bar, "t": t_bar}
    cotangents = [unthunk(c) for c in pullback(Tangent(OdeResult, fields))]
    return {"t_span": cotangents[2], "y0": cotangents[3], "t_eval": cotangents[5], "args": cotangents[9]}


# ---- accuracy against finite differences of the solver ---------------------------------------------------
def _central(loss, x, h):
    """A five-point central difference of ``loss`` along each entry of ``x`` with steps ``h`` (the solver's
    noise, about its tolerance, divided by ``h``, bounds its accuracy)."""
    out = np.zeros(x.size)
    for i in range(x.size):
        e = np.zeros(x.size)
        e[i] = h[i]
        values = [loss(x + k * e) for k in (-2, -1, 1, 2)]
        out[i] = (values[0] - 8 * values[1] + 8 * values[2] - values[3]) / (12 * h[i])
    return out


SYSTEMS = {
    # name: (fun, t_span, y0, params, t_eval, atol); params is one array, perturbed relatively (log scale)
    "Lotka-Volterra": (lotka_volterra, (0.0, 5.0), np.array([1.2, 0.8]), np.array([1.0, 0.5, 0.9, 0.3]),
                       np.array([1.0, 2.5, 4.5]), 1e-12),
    "damped pendulum": (damped_pendulum, (0.0, 3.0), np.array([1.0, 0.0]), (9.81, 0.3), np.array([1.5, 2.8]), 1e-12),
    "Van der Pol, mu = 1000": (van_der_pol, (0.0, 1.0), np.array([2.0, 0.0]), (1000.0,), np.array([0.5, 0.9]),
                               1e-12),
    "Robertson": (robertson, (0.0, 10.0), np.array([0.9, 1e-5, 0.1]), np.array([0.04, 3e7, 1e4]),
                  np.array([1.0, 9.0]), 1e-14),
}
ACCURACY_CASES = [("Lotka-Volterra", "RK45"), ("Lotka-Volterra", "DOP853"), ("damped pendulum", "DOP853"),
                  ("damped pendulum", "RK45"), ("Van der Pol, mu = 1000", "Radau"), ("Van der Pol, mu = 1000", "BDF"),
                  ("Van der Pol, mu = 1000", "LSODA"), ("Robertson", "BDF"), ("Robertson", "LSODA")]


@pytest.mark.parametrize(("system", "method"), ACCURACY_CASES, ids=[f"{s}, {m}" for s, m in ACCURACY_CASES])
def test_gradient_against_finite_differences_of_the_solver(system, method):
    """d/d(y0, log p, t0, t_eval) of a weighted sum of y(t_eval): adjoint and frule vs the solver at rtol 1e-10."""
    fun, (t0, t1), y0, params, t_eval, atol = SYSTEMS[system]
    tight = {"rtol": 1e-10, "atol": atol}
    array_params = isinstance(params, np.ndarray)
    p = params if array_params else np.array(params)
    n, n_p = y0.size, p.size
    scale = np.maximum(np.abs(np.array([_solve_values(fun, (t0, t1), y0, method, t_eval, params, tight)]))[0], 1e-3)
    weights = np.random.default_rng(0).uniform(0.5, 1.5, (n, t_eval.size)) / scale  # every component matters

    def unpack(x):
        pk = p * np.exp(x[n:n + n_p])
        args = (pk,) if array_params else tuple(pk)
        return x[:n], args, x[n + n_p], x[n + n_p + 1:]

    def loss(x):
        y0_x, args, t0_x, t_eval_x = unpack(x)
        return float(np.sum(weights * _solve_values(fun, (t0_x, t1), y0_x, method, t_eval_x, args, tight)))

    # Each input moves relative to its size (a parameter on a log scale), and the gradients are compared in
    # those units: Robertson's y0[1] = 1e-5 then counts as much as it moves the loss, no more.
    x = np.concatenate([y0, np.zeros(n_p), [t0], t_eval])
    size = np.where(x == 0, 1.0, np.abs(x))
    size[n:n + n_p] = 1.0
    fd = _central(loss, x, 1e-3 * size) * size

    args = (p,) if array_params else tuple(p)
    _, pullback = _solve(RULES, fun, (t0, t1), y0, method, t_eval, args, **tight)
    c = _cotangents(pullback, weights)
    p_bar = c["args"][0] if array_params else np.array([c["args"][i] for i in range(n_p)])
    adjoint = np.concatenate([c["y0"], p_bar * p, [c["t_span"][0]], c["t_eval"]]) * size
    assert np.max(np.abs(adjoint - fd)) <= 1e-6 * np.max(np.abs(fd)), (adjoint, fd)

    direction = np.random.default_rng(1).standard_normal(x.size) * size
    y0_d, _, t0_d, t_eval_d = (direction[:n], None, direction[n + n_p], direction[n + n_p + 1:])
    p_d = direction[n:n + n_p] * p
    args_d = Tangent(tuple, p_d) if array_params else Tangent(tuple, *p_d)
    tangents = (NoTangent(), NoTangent(), Tangent(tuple, t0_d, 0.0), y0_d, NoTangent(), t_eval_d, NoTangent(),
                NoTangent(), NoTangent(), args_d)
    _, d_result = frule(RULES, tangents, scipy.integrate.solve_ivp, fun, (t0, t1), y0, method, t_eval, False, None,
                        False, args, **tight)
    forward = float(np.sum(weights * unthunk(d_result)["y"]))
    assert abs(forward - (fd / size) @ direction) <= 1e-6 * np.abs(fd / size) @ np.abs(direction)


def _solve_values(fun, t_span, y0, method, t_eval, args, options):
    result = scipy.integrate.solve_ivp(fun, t_span, y0, method, t_eval, args=args if isinstance(args, tuple)
                                       else (args,), **options)
    assert result.success, result.message
    return result.y


# ---- closed forms ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("method", METHODS)
def test_exponential_decay_closed_form(method):
    """y(t) = y0 exp(-k (t - t0)): every derivative, in both modes, to 1e-6 at rtol 1e-9 (RK23: 1e-7)."""
    rtol = 1e-7 if method == "RK23" else 1e-9
    t0, t1, k = 0.2, 1.5, 0.7
    y0, t_eval = np.array([1.0, -2.0]), np.array([0.5, 1.2])
    _result, pullback = _solve(RULES, exponential_decay, (t0, t1), y0, method, t_eval, (k,), rtol=rtol, atol=1e-12)
    decay = np.exp(-k * (t_eval - t0))
    w = np.array([[1.0, 0.5], [-0.3, 2.0]])
    c = _cotangents(pullback, w)
    tol = 100 * rtol
    np.testing.assert_allclose(c["y0"], (w * decay).sum(1), rtol=tol)
    assert c["args"][0] == pytest.approx(np.sum(w * -(t_eval - t0) * y0[:, None] * decay), rel=tol)
    assert c["t_span"][0] == pytest.approx(np.sum(w * k * y0[:, None] * decay), rel=tol)
    assert c["t_span"][1] == 0.0                               # with t_eval the end point does not matter
    np.testing.assert_allclose(c["t_eval"], np.sum(w * -k * y0[:, None] * decay, axis=0), rtol=tol)
    tangents = (NoTangent(), NoTangent(), Tangent(tuple, 0.3, 1.0), np.array([0.5, 1.0]), NoTangent(),
                np.array([0.1, -0.2]), NoTangent(), NoTangent(), NoTangent(), Tangent(tuple, 0.25))
    _, d = frule(RULES, tangents, scipy.integrate.solve_ivp, exponential_decay, (t0, t1), y0, method, t_eval,
                 False, None, False, (k,), rtol=rtol, atol=1e-12)
    dt0, dy0, dt_eval, dk = 0.3, np.array([0.5, 1.0]), np.array([0.1, -0.2]), 0.25
    expected = decay * (dy0[:, None] + y0[:, None] * (k * dt0 - k * dt_eval - (t_eval - t0) * dk))
    np.testing.assert_allclose(unthunk(d)["y"], expected, rtol=tol, atol=tol)
    np.testing.assert_array_equal(unthunk(d)["t"], dt_eval)


def _height(t, y, g):
    return y[0]


def _ball(t, y, g):
    return anp.array([y[1], -g])


_height.terminal = True
_height.direction = -1


def test_a_terminal_event_closed_form():
    """A ball thrown up at v0 lands at te = 2 v0 / g with velocity -v0: dte/dv0 = 2/g, dte/dg = -2 v0 / g^2;
    the solve ends there, so the last output is the landing."""
    v0, g = 3.0, 9.81
    result, pullback = rrule(AUTOGRAD, scipy.integrate.solve_ivp, _ball, (0.0, 10.0), np.array([0.0, v0]), "RK45",
                             None, False, _height, False, (g,), rtol=1e-10, atol=1e-12)
    assert result.status == 1 and result.t[-1] == pytest.approx(2 * v0 / g)
    fields = {"t_events": Tangent(list, np.array([1.0])), "y_events": Tangent(list, np.zeros((1, 2)))}
    cotangents = [unthunk(c) for c in pullback(Tangent(OdeResult, fields))]
    np.testing.assert_allclose(cotangents[3], [1.0 / v0, 2 / g], rtol=1e-8)   # dte/dh0 = 1/v0 (starting higher)
    assert cotangents[9][0] == pytest.approx(-2 * v0 / g ** 2, rel=1e-8)
    assert cotangents[2][1] == 0.0                                          # the solve ended before t_span[1]
    last = {"t": np.eye(result.t.size)[-1]}                                  # the last output time is the landing
    cotangents = [unthunk(c) for c in pullback(Tangent(OdeResult, last))]
    np.testing.assert_allclose(cotangents[3], [1.0 / v0, 2 / g], rtol=1e-8)
    tangents = (NoTangent(), NoTangent(), ZeroTangent(), np.array([0.0, 1.0]), NoTangent(), NoTangent(), NoTangent(),
                NoTangent(), NoTangent(), Tangent(tuple, 0.0))
    _, d = frule(AUTOGRAD, tangents, scipy.integrate.solve_ivp, _ball, (0.0, 10.0), np.array([0.0, v0]), "RK45",
                 None, False, _height, False, (g,), rtol=1e-10, atol=1e-12)
    d = unthunk(d)
    assert d["t_events"][0][0] == pytest.approx(2 / g, rel=1e-8)
    np.testing.assert_allclose(d["y_events"][0][0], [0.0, -1.0], atol=1e-8)  # lands at 0, at -v0
    assert d["t"][-1] == pytest.approx(2 / g, rel=1e-8)


# ---- the contract ----------------------------------------------------------------------------------------
def _lotka_volterra(t, y, a, b, c, d):
    return anp.array([a * y[0] - b * y[0] * y[1], -c * y[1] + d * y[0] * y[1]])


def _crossing(t, y, a, b, c, d):
    return y[0] - 1.0


@pytest.mark.parametrize("method", ["RK45", "LSODA"])
def test_through_autograd_with_events(method):
    """An autograd right-hand side, four parameters, non-terminal events: t, y, t_events and y_events
    against finite differences of the whole call."""
    tight = {"rtol": 1e-10, "atol": 1e-12}
    args = (1.0, 0.5, 0.9, 0.3)
    test_rrule(scipy.integrate.solve_ivp, _lotka_volterra, (0.0, 3.0), np.array([1.2, 0.8]), method,
               np.array([0.5, 2.5]), False, _crossing, False, args, fkwargs=tight, config=AUTOGRAD,
               gauge_invariant=_with_events, rtol=1e-5)
    test_frule(scipy.integrate.solve_ivp, _lotka_volterra, (0.0, 3.0), np.array([1.2, 0.8]), method,
               np.array([0.5, 2.5]), False, _crossing, False, args, fkwargs=tight, config=AUTOGRAD,
               gauge_invariant=_with_events, rtol=1e-5)


def _with_events(result):
    return result.t, result.y, result.t_events[0], result.y_events[0]


def test_steps_without_t_eval_are_held_fixed():
    """Without t_eval, the pullback is that of the solve at t_eval = the steps it took (interior times fixed)."""
    tight = {"rtol": 1e-9, "atol": 1e-12}
    y0, args = np.array([1.2, 0.8]), (np.array([1.0, 0.5, 0.9, 0.3]),)
    result, pullback = _solve(RULES, lotka_volterra, (0.0, 1.0), y0, "RK45", None, args, **tight)
    steps = result.t
    rng = np.random.default_rng(3)
    y_bar = rng.standard_normal(result.y.shape)
    free = _cotangents(pullback, y_bar)
    _, pullback_fixed = _solve(RULES, lotka_volterra, (0.0, 1.0), y0, "RK45", steps[1:-1], args, **tight)
    fixed = _cotangents(pullback_fixed, y_bar[:, 1:-1])
    # the first and last columns are y0 and y(t1): their cotangents go to y0 and through the adjoint from t1
    _, pullback_end = _solve(RULES, lotka_volterra, (0.0, 1.0), y0, "RK45", [1.0], args, **tight)
    end = _cotangents(pullback_end, y_bar[:, -1:])
    np.testing.assert_allclose(free["y0"], fixed["y0"] + end["y0"] + y_bar[:, 0], rtol=1e-6)
    np.testing.assert_allclose(free["args"][0], fixed["args"][0] + end["args"][0], rtol=1e-6)
    f1 = lotka_volterra(1.0, result.y[:, -1], *args)
    assert free["t_span"][1] == pytest.approx(y_bar[:, -1] @ f1, rel=1e-6)
    test_rrule(scipy.integrate.solve_ivp, lotka_volterra, (0.0, 1.0), y0, "RK45", None, False, None, False, args,
               fkwargs=tight, config=RULES, gauge_invariant=final_state, rtol=1e-5)


def test_the_dense_output():
    """Forward mode: sol's tangent is the dense sensitivity t -> s(t). Reverse mode: sol's cotangent is not
    implemented (no AD can hand over a cotangent of a function)."""
    tight = {"rtol": 1e-10, "atol": 1e-12}
    y0, k = np.array([1.0, -0.5]), 0.7
    tangents = (NoTangent(), NoTangent(), ZeroTangent(), np.array([1.0, 0.0]), NoTangent(), NoTangent(), NoTangent(),
                NoTangent(), NoTangent(), Tangent(tuple, 0.0))
    _result, d = frule(RULES, tangents, scipy.integrate.solve_ivp, exponential_decay, (0.0, 2.0), y0, "RK45", None,
                      True, None, False, (k,), **tight)
    s = unthunk(d)["sol"]
    np.testing.assert_allclose(s(1.3), [np.exp(-k * 1.3), 0.0], rtol=1e-7, atol=1e-12)
    _, pullback = rrule(RULES, scipy.integrate.solve_ivp, exponential_decay, (0.0, 2.0), y0, "RK45", None, True, None,
                        False, (k,), **tight)
    missing = unthunk(pullback(Tangent(OdeResult, {"sol": Tangent(object, x=1.0)}))[3])
    assert isinstance(missing, NotImplementedTangent) and "t_eval" in missing.info


def test_complex_states_and_backwards_in_time():
    tight = {"rtol": 1e-10, "atol": 1e-12}
    y0 = np.array([1.0 + 0.5j, -0.3j])
    test_rrule(scipy.integrate.solve_ivp, exponential_decay, (0.0, 1.0), y0, "RK45", [0.4, 0.8], False, None, False,
               (0.7,), fkwargs=tight, config=RULES, gauge_invariant=solution, rtol=1e-6)
    test_frule(scipy.integrate.solve_ivp, exponential_decay, (0.0, 1.0), y0, "DOP853", [0.4, 0.8], False, None, False,
               (0.7,), fkwargs=tight, config=RULES, gauge_invariant=solution, rtol=1e-6)
    y0 = np.array([1.2, 0.8])
    args = (np.array([1.0, 0.5, 0.9, 0.3]),)
    test_rrule(scipy.integrate.solve_ivp, lotka_volterra, (2.0, 0.5), y0, "RK45", [1.5, 0.8], False, None, False, args,
               fkwargs=tight, config=RULES, gauge_invariant=solution, rtol=1e-6)


def test_keywords_are_not_differentiated():
    y0 = np.array([1.0, -0.5])
    _, pullback = rrule(RULES, scipy.integrate.solve_ivp, exponential_decay, (0.0, 1.0), y0, t_eval=[0.5],
                        args=(0.7,))
    cotangents = pullback(Tangent(OdeResult, {"y": np.ones((2, 1))}))
    assert len(cotangents) == 4


def _blow_up(t, y):
    return y ** 2


def test_a_failed_solve_has_no_derivative():
    result, pullback = rrule(AUTOGRAD, scipy.integrate.solve_ivp, _blow_up, (0.0, 2.0), np.array([1.0]))
    assert not result.success
    with pytest.raises(IntegrationFailedError, match="solve_ivp failed"):
        pullback(Tangent(OdeResult, {"y": np.ones(result.y.shape)}))
    assert isinstance(pullback(ZeroTangent())[3], ZeroTangent)              # nothing asked, nothing raised
    with pytest.raises(IntegrationFailedError, match="solve_ivp failed"):
        frule(AUTOGRAD, (NoTangent(), NoTangent(), ZeroTangent(), np.ones(1)), scipy.integrate.solve_ivp, _blow_up,
              (0.0, 2.0), np.array([1.0]))


def _pendulum_as_a_list(t, y, a):
    return [y[1], -a * anp.sin(y[0])]


@pytest.mark.parametrize("method", ["RK45", "BDF"])
def test_a_right_hand_side_returning_a_list(method):
    """SciPy's examples return lists: their (co)tangents are structural, read part by part (the implicit
    method's Jacobian too)."""
    options = {"rtol": 1e-10 if method == "RK45" else 1e-9, "atol": 1e-12}
    args = (_pendulum_as_a_list, (0.0, 1.0), np.array([0.5, 0.0]), method, [0.4, 0.9], False, None, False, (2.0,))
    test_rrule(scipy.integrate.solve_ivp, *args, config=AUTOGRAD, gauge_invariant=solution, fkwargs=options,
               rtol=1e-5)
    test_frule(scipy.integrate.solve_ivp, *args, config=AUTOGRAD, gauge_invariant=solution, fkwargs=options,
               rtol=1e-5)
