"""Rules of chainrules/rulesets/optimize/minimize.py: minimize (every method) and minimize_scalar.

A quadratic ``f = x.A.x / 2 - b.x`` has the minimiser ``x* = A^{-1} b`` for every method: the
derivatives ``db = A^{-1} x_bar``, ``dA = -(u x*^T + x* u^T) / 2`` (``u = A^{-1} x_bar``) and, by the
envelope theorem, ``d f*/db = -x*`` are checked against these closed forms at 1e-7, whatever
the method's own accuracy (H and M are constant for a quadratic). The rest is checked against
finite differences of the whole call, with a step chosen for the solver's noise (a minimiser
returns ``x*`` to ~1e-9 at best) and 1e-5 relative tolerance.
"""

from __future__ import annotations

import warnings

import autograd
import autograd.numpy as anp
import numpy as np
import pytest
import scipy.optimize as so

from chainrules.rulesets.optimize import ImplicitDerivativeError, _problems, register_gradient
from chainrules.rulesets.optimize.minimize import _NOISY
from chainrules_core import (
    HasReverseMode,
    NoTangent,
    NotImplementedTangent,
    ProjectionError,
    RuleConfig,
    Tangent,
    ZeroTangent,
    frule,
    rrule,
)

from .conftest import check

A = np.array([[3.0, 0.5, 0.2], [0.5, 2.5, 0.3], [0.2, 0.3, 2.0]])
B = np.array([1.0, -0.5, 0.7])
X = np.linalg.solve(A, B)
XBAR = np.array([0.3, -1.0, 2.0])
NOISY = {"fdm": _NOISY, "rtol": 1e-5, "atol": 1e-5}


def quadratic(x, a, b):
    return 0.5 * x @ a @ x - b @ x


def quadratic_gradient(x, a, b):
    return 0.5 * (a + a.T) @ x - b


def quadratic_hessian(x, a, b):
    return 0.5 * (a + a.T)


def fields(res):
    return res.x, res.fun


def x_of(res, xbar=XBAR, **more):
    return Tangent(type(res), dict({"x": xbar}, **more))


TIGHT = {"xatol": 1e-12, "fatol": 1e-16, "maxiter": 40000, "maxfev": 40000}
METHODS = {  # options that reach success=True on the quadratic
    "Nelder-Mead": {"options": TIGHT},
    "Powell": {"options": {"xtol": 1e-12, "ftol": 1e-16}},
    "CG": {"jac": quadratic_gradient, "options": {"gtol": 1e-10}},
    "BFGS": {"jac": quadratic_gradient, "options": {"gtol": 1e-10}},
    "Newton-CG": {"jac": quadratic_gradient, "hess": quadratic_hessian, "options": {"xtol": 1e-12}},
    "L-BFGS-B": {"options": {"gtol": 1e-12, "ftol": 1e-16}},
    "TNC": {"jac": quadratic_gradient, "options": {"gtol": 1e-12, "xtol": 1e-12}},
    "COBYLA": {"options": {"tol": 1e-12, "maxiter": 20000}},
    "COBYQA": {"options": {"final_tr_radius": 1e-12, "maxfev": 20000}},
    "SLSQP": {"jac": quadratic_gradient, "options": {"ftol": 1e-16}},
    "trust-constr": {"jac": quadratic_gradient, "hess": quadratic_hessian, "options": {"gtol": 1e-12, "xtol": 1e-12}},
    "dogleg": {"jac": quadratic_gradient, "hess": quadratic_hessian, "options": {"gtol": 1e-10}},
    "trust-ncg": {"jac": quadratic_gradient, "hess": quadratic_hessian, "options": {"gtol": 1e-10}},
    "trust-exact": {"jac": quadratic_gradient, "hess": quadratic_hessian, "options": {"gtol": 1e-10}},
    "trust-krylov": {"jac": quadratic_gradient, "hess": quadratic_hessian, "options": {"gtol": 1e-10}},
}


# ---- closed forms, every method -----------------------------------------------------------------------------
@pytest.mark.parametrize("method", list(METHODS))
def test_quadratic_minimiser_closed_form_every_method(method, autograd_config):
    options = dict(METHODS[method], method=method)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # trust-constr / COBYQA talk
        res, pullback = rrule(autograd_config, so.minimize, quadratic, np.zeros(3), (A, B), **options)
        assert res.success, res.message
        np.testing.assert_allclose(res.x, X, rtol=1e-6, atol=1e-8)
        da, db = pullback(x_of(res, fun=1.0))[3]
        u = np.linalg.solve(A, XBAR)
        np.testing.assert_allclose(db, u - res.x, rtol=1e-7, atol=1e-9)          # A^{-1} x_bar, plus -x* (envelope)
        np.testing.assert_allclose(da, -0.5 * (np.outer(u, res.x) + np.outer(res.x, u)) + 0.5 * np.outer(res.x, res.x),
                                   rtol=1e-6, atol=1e-8)
        _, dres = frule(autograd_config, (NoTangent(), NoTangent(), ZeroTangent(), Tangent(tuple, ZeroTangent(), XBAR)),
                        so.minimize, quadratic, np.zeros(3), (A, B), **options)
    np.testing.assert_allclose(dres["x"], np.linalg.solve(A, XBAR), rtol=1e-7, atol=1e-9)
    assert dres["fun"] == pytest.approx(-res.x @ XBAR, rel=1e-7)


def test_quadratic_closed_form_with_rules_only_and_jac(rules_only):
    res, pullback = rrule(rules_only, so.minimize, _problems.objective, np.zeros(3), (A, B),
                          jac=_problems.objective_gradient, options={"gtol": 1e-10})
    x = res.x
    h = A + np.diag(3 * x ** 2)
    np.testing.assert_allclose(pullback(x_of(res))[3][1], np.linalg.solve(h, XBAR), rtol=1e-7)


# ---- finite differences of the whole call ---------------------------------------------------------------------
def softplus_objective(x, a, t):
    return anp.sum(anp.logaddexp(0.0, a @ x - t)) + 0.5 * anp.sum(x ** 2)


@pytest.fixture
def softplus():
    rng = np.random.default_rng(0)
    return rng.standard_normal((3, 2)), rng.standard_normal(3)


def test_minimize_second_derivatives_through_autograd(softplus, autograd_config):
    # no jac: the rule differentiates autograd's own gradient again (reverse-over-reverse and forward-over-reverse);
    # L-BFGS-B then uses finite-difference gradients, so x* (and the finite differences of the call) carry ~1e-8
    a, t = softplus
    check(so.minimize, softplus_objective, np.zeros(2), (a, t),
          fkwargs={"method": "L-BFGS-B", "options": {"gtol": 1e-14, "ftol": 1e-16}}, config=autograd_config,
          gauge_invariant=fields, **dict(NOISY, rtol=1e-4, atol=1e-4))


def test_minimize_jac_true_and_jac_callable(softplus, autograd_config):
    a, t = softplus
    value_and_grad = autograd.value_and_grad(softplus_objective)
    check(so.minimize, value_and_grad, np.zeros(2), (a, t), fkwargs={"jac": True, "options": {"gtol": 1e-9}},
          config=autograd_config, gauge_invariant=fields, **NOISY)
    check(so.minimize, softplus_objective, np.zeros(2), (a, t), "BFGS", autograd.grad(softplus_objective),
          fkwargs={"options": {"gtol": 1e-9}}, config=autograd_config, gauge_invariant=fields, **NOISY)


def test_minimize_with_rules_only_and_registered_gradient(rules_only):
    register_gradient(_problems.objective, _problems.objective_gradient)
    check(so.minimize, _problems.objective, np.zeros(3), (A, B), fkwargs={"method": "L-BFGS-B", "options": {
        "gtol": 1e-14, "ftol": 1e-16}}, config=rules_only, gauge_invariant=fields, **NOISY)


# ---- bounds ---------------------------------------------------------------------------------------------------
BOUNDS = [(-1.0, 1.0), (0.0, 1.0), (None, 0.2)]  # x* = (0.347, -0.299, 0.341): x[1] and x[2] at their bounds


BOUNDED = {"L-BFGS-B": {"gtol": 1e-14, "ftol": 1e-16}, "TNC": {"gtol": 1e-14, "xtol": 1e-14},
           "SLSQP": {"ftol": 1e-16}, "trust-constr": {"gtol": 1e-12, "xtol": 1e-14, "barrier_tol": 1e-12},
           "Powell": {"xtol": 1e-13, "ftol": 1e-16}}


@pytest.mark.parametrize("method", list(BOUNDED))
def test_minimize_active_bounds_closed_form(method, autograd_config):
    # the active coordinates do not move; the free one moves as 1 / H_00 (H of the quartic at x*)
    jac = None if method == "Powell" else quartic_gradient
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res, pullback = rrule(autograd_config, so.minimize, quartic, np.zeros(3), (A, B), method=method, jac=jac,
                              bounds=BOUNDS, options=BOUNDED[method])
    assert res.success
    np.testing.assert_allclose(res.x[1:], [0.0, 0.2], atol=1e-7)
    dargs = pullback(x_of(res, np.array([1.0, 1.0, 1.0])))[3]
    h00 = A[0, 0] + 3 * res.x[0] ** 2
    np.testing.assert_allclose(dargs[1], [1 / h00, 0.0, 0.0], rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("method", ["L-BFGS-B", "TNC", "SLSQP"])
def test_minimize_active_bounds(method, autograd_config):
    # (trust-constr reports its execution_time, which no two calls share; Powell's bound handling is too coarse
    # for finite differences of the whole call: both are checked by the closed form above)
    options = BOUNDED[method]
    jac = quartic_gradient
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res, _ = rrule(autograd_config, so.minimize, quartic, np.zeros(3), (A, B), method=method, jac=jac,
                       bounds=BOUNDS, options=options)
    gfield = "grad" if method == "trust-constr" else "jac"
    gauge = (lambda r: (r.x, r.fun, r[gfield])) if gfield in res else fields
    check(so.minimize, quartic, np.zeros(3), (A, B), fkwargs={
        "method": method, "jac": jac, "bounds": BOUNDS, "options": options}, config=autograd_config,
          gauge_invariant=gauge, **NOISY)


def quartic(x, a, b):
    return 0.5 * x @ a @ x - b @ x + 0.25 * anp.sum(x ** 4)


def quartic_gradient(x, a, b):
    return 0.5 * (a + a.T) @ x - b + x ** 3


def test_minimize_weakly_active_bound_raises(autograd_config):
    b = A @ np.array([0.5, 0.0, 0.25])  # the unconstrained minimiser of the quadratic touches the bound x[1] >= 0
    res, pullback = rrule(autograd_config, so.minimize, quadratic, np.ones(3), (A, b), method="L-BFGS-B",
                          bounds=[(None, None), (0.0, None), (None, None)], options={"gtol": 1e-14, "ftol": 1e-16})
    assert res.success
    with pytest.raises(ImplicitDerivativeError, match="weakly active"):
        pullback(x_of(res))


def test_minimize_bounds_by_position(autograd_config):
    inactive = [(-5.0, 5.0)] * 3
    res, pullback = rrule(autograd_config, so.minimize, quadratic, np.zeros(3), (A, B), "L-BFGS-B", None, None, None,
                          inactive, options={"gtol": 1e-12})
    assert pullback(x_of(res))[8] == ZeroTangent()
    res, pullback = rrule(autograd_config, so.minimize, quadratic, np.zeros(3), (A, B), "L-BFGS-B", None, None, None,
                          BOUNDS, options={"gtol": 1e-12})
    assert isinstance(pullback(x_of(res))[8], NotImplementedTangent)


# ---- constraints ----------------------------------------------------------------------------------------------
def test_minimize_inactive_inequality_constraint_is_ignored(autograd_config):
    far = {"type": "ineq", "fun": lambda x: 10.0 - anp.sum(x ** 2)}
    check(so.minimize, quartic, np.zeros(3), (A, B), fkwargs={
        "method": "SLSQP", "jac": quartic_gradient, "constraints": [far], "options": {"ftol": 1e-16}},
          config=autograd_config, gauge_invariant=fields, **NOISY)


ROW = np.array([[1.0, 1.0, 1.0]])  # the plane sum(x) = 2 (the quadratic's free minimum has sum(x) = 0.51)
SLSQP_TIGHT = {"ftol": 1e-15}
TRUST_TIGHT = {"gtol": 1e-12, "xtol": 1e-12}
PLANE = {
    "SLSQP, equality": ("SLSQP", {"type": "eq", "fun": lambda x: anp.sum(x) - 2.0}),
    "SLSQP, active inequality": ("SLSQP", {"type": "ineq", "fun": lambda x: anp.sum(x) - 2.0}),
    "SLSQP, LinearConstraint": ("SLSQP", so.LinearConstraint(ROW, 2.0, np.inf)),
    "trust-constr, LinearConstraint equality": ("trust-constr", so.LinearConstraint(ROW, 2.0, 2.0)),
    "trust-constr, NonlinearConstraint, upper side": (
        "trust-constr", so.NonlinearConstraint(lambda x: -anp.sum(x), -np.inf, -2.0)),
    "COBYQA, NonlinearConstraint": ("COBYQA", so.NonlinearConstraint(lambda x: anp.sum(x), 2.0, np.inf)),
    "COBYLA, active inequality": ("COBYLA", {"type": "ineq", "fun": lambda x: anp.sum(x) - 2.0}),
}


def _options(method):
    return {"SLSQP": SLSQP_TIGHT, "trust-constr": TRUST_TIGHT, "COBYQA": {"final_tr_radius": 1e-12, "maxfev": 20000},
            "COBYLA": {"tol": 1e-12, "maxiter": 20000}}[method]


@pytest.mark.parametrize("case", list(PLANE))
def test_minimize_quadratic_program_closed_form(case, autograd_config):
    # min x.A.x/2 - b.x subject to sum(x) = 2 (active): [[A, C^T], [C, 0]] [x; nu] = [b; 2], so dx*/db is the
    # top-left block P of that matrix's inverse, and df*/db = -x* (the envelope theorem: the constraint does
    # not depend on b)
    method, constraint = PLANE[case]
    kkt = np.block([[A, ROW.T], [ROW, np.zeros((1, 1))]])
    x_star = np.linalg.solve(kkt, np.concatenate([B, [2.0]]))[:3]
    p = np.linalg.inv(kkt)[:3, :3]
    options = {"method": method, "constraints": constraint, "options": _options(method)}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res, pullback = rrule(autograd_config, so.minimize, quadratic, np.zeros(3), (A, B), **options)
        _, dres = frule(autograd_config, (NoTangent(), NoTangent(), ZeroTangent(), Tangent(tuple, ZeroTangent(), XBAR)),
                        so.minimize, quadratic, np.zeros(3), (A, B), **options)
    assert res.success, res.message
    np.testing.assert_allclose(res.x, x_star, rtol=1e-6, atol=1e-7)
    db = pullback(x_of(res, fun=1.0))[3][1]
    np.testing.assert_allclose(db, p.T @ XBAR - res.x, rtol=1e-7, atol=1e-9)
    np.testing.assert_allclose(dres["x"], p @ XBAR, rtol=1e-7, atol=1e-9)
    assert dres["fun"] == pytest.approx(-res.x @ XBAR, rel=1e-7)


def distance(x, t):
    return 0.5 * anp.sum((x - t) ** 2)


BALL = {  # |x| <= 1, written three ways
    "SLSQP, ineq": ("SLSQP", {"type": "ineq", "fun": lambda x: 1.0 - anp.sum(x ** 2)}, {"ftol": 1e-10}),
    # without jac, SLSQP reports "Positive directional derivative for linesearch" at ftol 1e-15, at a point
    # accurate to 3e-9: the rule certifies it by the Newton step on the KKT conditions
    "SLSQP, NonlinearConstraint, certified": (
        "SLSQP", so.NonlinearConstraint(lambda x: anp.sum(x ** 2), -np.inf, 1.0), SLSQP_TIGHT),
    "trust-constr, NonlinearConstraint": ("trust-constr", so.NonlinearConstraint(lambda x: x @ x, 0.0, 1.0),
                                          TRUST_TIGHT),
}


@pytest.mark.parametrize("case", list(BALL))
def test_minimize_projection_on_the_ball_closed_form(case, autograd_config):
    # the nearest point of the unit ball to t outside it is x* = t / |t|, and dx*/dt = (I - x* x*^T) / |t|:
    # a curved constraint, whose second derivative (multiplier |t| - 1) enters the KKT system
    method, constraint, tolerances = BALL[case]
    t = np.array([1.2, -0.9, 0.5])
    r = np.linalg.norm(t)
    jac = None if "certified" in case else autograd.grad(distance)
    options = {"method": method, "jac": jac, "constraints": constraint, "options": tolerances}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res, pullback = rrule(autograd_config, so.minimize, distance, np.zeros(3), (t,), **options)
        _, dres = frule(autograd_config, (NoTangent(), NoTangent(), ZeroTangent(), Tangent(tuple, XBAR)),
                        so.minimize, distance, np.zeros(3), (t,), **options)
    assert res.success == ("certified" not in case), res.message
    # the uncertified runs reach x* to 1e-8; the certified one stops where SLSQP's finite-difference
    # gradients do, 3e-9 to 1.1e-8 depending on the BLAS threads (CI runs with two)
    np.testing.assert_allclose(res.x, t / r, rtol=3e-8 if "certified" in case else 1e-8)
    jac = (np.eye(3) - np.outer(t, t) / r ** 2) / r
    np.testing.assert_allclose(pullback(x_of(res))[3][0], jac.T @ XBAR, rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(dres["x"], jac @ XBAR, rtol=1e-6, atol=1e-8)


def test_minimize_equality_and_active_bound_closed_form(autograd_config):
    # sum(x) = 2 with the bound x[2] <= 0.3 active: the bound is the row e_2 of the KKT system
    rows = np.vstack([ROW, [0.0, 0.0, 1.0]])
    kkt = np.block([[A, rows.T], [rows, np.zeros((2, 2))]])
    x_star = np.linalg.solve(kkt, np.concatenate([B, [2.0, 0.3]]))[:3]
    p = np.linalg.inv(kkt)[:3, :3]
    constraint = {"type": "eq", "fun": lambda x: anp.sum(x) - 2.0}
    bounds = [(None, None), (None, None), (-1.0, 0.3)]
    res, pullback = rrule(autograd_config, so.minimize, quadratic, np.zeros(3), (A, B), "SLSQP", None, None, None,
                          bounds, constraints=constraint, options=SLSQP_TIGHT)
    assert res.success
    np.testing.assert_allclose(res.x, x_star, rtol=1e-7, atol=1e-8)
    cts = pullback(x_of(res))
    np.testing.assert_allclose(cts[3][1], p.T @ XBAR, rtol=1e-7, atol=1e-9)
    assert isinstance(cts[8], NotImplementedTangent) and "active bounds" in cts[8].info  # bounds by position


RING = [{"type": "eq", "fun": lambda x: x[0] + x[1] ** 2 - 0.5},
        {"type": "ineq", "fun": lambda x: 0.64 - anp.sum(x ** 2)}]


def ring(x, a, b):  # a quartic with a sine: the objective, both constraints and the Lagrangian are curved
    return quartic(x, a, b) + 0.1 * anp.sum(anp.sin(x))


def test_minimize_active_nonlinear_constraints(autograd_config):
    method = "SLSQP"
    b = np.array([4.0, 3.0, 2.0])  # pushes the solution onto the sphere |x| = 0.8 (multipliers -2.2 and 0.23)
    fkwargs = {"method": method, "jac": autograd.grad(ring), "constraints": RING, "options": _options(method)}
    res = so.minimize(ring, np.zeros(3), (A, b), **fkwargs)
    assert res.success and res.x @ res.x == pytest.approx(0.64, rel=1e-7)
    check(so.minimize, ring, np.zeros(3), (A, b), fkwargs=fkwargs, config=autograd_config,
          gauge_invariant=lambda r: (r.x, r.fun, r.jac), **NOISY)


def test_minimize_active_nonlinear_constraints_trust_constr(autograd_config):
    # trust-constr's result carries its execution_time, which no two calls share (the tester compares whole
    # results): the rule's dx*/db against a central difference of x* alone (step 1e-4: error ~1e-8 + noise 1e-5)
    constraints = [so.NonlinearConstraint(lambda x: x[0] + x[1] ** 2, 0.5, 0.5),
                   so.NonlinearConstraint(lambda x: anp.sum(x ** 2), -np.inf, 0.64)]
    b, v, h = np.array([4.0, 3.0, 2.0]), np.array([0.3, -0.2, 0.5]), 1e-4
    fkwargs = {"method": "trust-constr", "jac": autograd.grad(ring), "constraints": constraints,
               "options": TRUST_TIGHT}

    def x_star(b):
        return so.minimize(ring, np.zeros(3), (A, b), **fkwargs).x

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res, pullback = rrule(autograd_config, so.minimize, ring, np.zeros(3), (A, b), **fkwargs)
        _, dres = frule(autograd_config, (NoTangent(), NoTangent(), ZeroTangent(), Tangent(tuple, ZeroTangent(), v)),
                        so.minimize, ring, np.zeros(3), (A, b), **fkwargs)
        fd = (x_star(b + h * v) - x_star(b - h * v)) / (2 * h)
    assert res.success
    np.testing.assert_allclose(dres["x"], fd, rtol=1e-4, atol=1e-6)
    assert pullback(x_of(res))[3][1] @ v == pytest.approx(XBAR @ fd, rel=1e-4)


def test_minimize_linear_constraint_with_rules_only(rules_only):
    register_gradient(_problems.objective, _problems.objective_gradient)
    check(so.minimize, _problems.objective, np.zeros(3), (A, B), fkwargs={
        "method": "SLSQP", "constraints": so.LinearConstraint(ROW, -np.inf, -0.5), "options": SLSQP_TIGHT},
          config=rules_only, gauge_invariant=fields, **NOISY)


def test_minimize_nonlinear_constraint_without_rules_is_not_implemented(rules_only):
    register_gradient(_problems.objective, _problems.objective_gradient)
    res, pullback = rrule(rules_only, so.minimize, _problems.objective, np.zeros(3), (A, B), method="SLSQP",
                          constraints={"type": "eq", "fun": lambda x: x[0] - 0.1}, options=SLSQP_TIGHT)
    dargs = pullback(x_of(res))[3]
    assert isinstance(dargs, NotImplementedTangent) and "constraint 0" in dargs.info


@pytest.mark.parametrize("degenerate, reason", [
    ([{"type": "ineq", "fun": lambda x: x[0] - X[0]}], "weakly active"),  # the free minimum lies on it
    ([{"type": "ineq", "fun": lambda x: 0.1 - x[0]}, {"type": "ineq", "fun": lambda x: 0.2 - 2.0 * x[0]}],
     "LICQ"),  # the same active half-space twice
], ids=["weakly active", "dependent gradients"])
def test_minimize_degenerate_constraints_are_not_implemented(degenerate, reason, autograd_config):
    options = {"method": "SLSQP", "constraints": degenerate, "options": SLSQP_TIGHT}
    res, pullback = rrule(autograd_config, so.minimize, quadratic, np.zeros(3), (A, B), **options)
    assert res.success
    dargs = pullback(x_of(res))[3]
    assert isinstance(dargs, NotImplementedTangent) and reason in dargs.info
    _, dres = frule(autograd_config, (NoTangent(), NoTangent(), ZeroTangent(), Tangent(tuple, ZeroTangent(), XBAR)),
                    so.minimize, quadratic, np.zeros(3), (A, B), **options)
    assert isinstance(dres, NotImplementedTangent) and reason in dres.info


def test_minimize_constrained_not_a_minimum_raises(autograd_config):
    # a "solution" on the plane sum(x) = 2 whose gradient pulls back into the feasible side (sum(x) >= 2 there):
    # an interrupted run, reported as success by a callback-free hand-made result is not needed: maxiter=1 fails
    res, pullback = rrule(autograd_config, so.minimize, quadratic, np.zeros(3), (A, B), method="SLSQP",
                          constraints={"type": "eq", "fun": lambda x: anp.sum(x) - 2.0}, options={"maxiter": 1})
    assert not res.success
    with pytest.raises(ImplicitDerivativeError, match="did not converge"):
        pullback(x_of(res))


# ---- where there is no derivative, or none this config can give ---------------------------------------------
def test_minimize_not_converged_raises(autograd_config):
    res, pullback = rrule(autograd_config, so.minimize, quadratic, np.zeros(3), (A, B), method="BFGS",
                          options={"maxiter": 1})
    assert not res.success
    with pytest.raises(ImplicitDerivativeError, match="did not converge"):
        pullback(x_of(res))


def test_minimize_rules_only_without_a_gradient_is_not_implemented(rules_only):
    def lonely(x, t):
        return np.sum((x - t) ** 2)

    @rrule.register(lonely, np.ndarray, np.ndarray)
    def lonely_rrule(x, t):
        def lonely_pullback(dy):
            return NoTangent(), 2 * (x - t) * dy, -2 * (x - t) * dy

        return lonely(x, t), lonely_pullback

    res, pullback = rrule(rules_only, so.minimize, lonely, np.zeros(2), (np.array([1.0, 2.0]),))
    dt = pullback(x_of(res, np.ones(2)))[3]
    assert isinstance(dt, NotImplementedTangent) and "pass jac=" in dt.info


def test_minimize_a_config_that_cannot_differentiate_twice_is_caught():
    class FlatAD(RuleConfig, HasReverseMode):
        """A config whose second derivatives are silently zero (what a naive nested AD does)."""

        def rrule_via_ad(self, f, *args):
            y = f(*args)
            return y, lambda dy: (NoTangent(), np.zeros_like(args[0]), *[np.zeros_like(a) for a in args[1:]])

    res, pullback = rrule(FlatAD(), so.minimize, quadratic, np.zeros(3), (A, B), method="Nelder-Mead",
                          options=TIGHT)
    with pytest.raises(ImplicitDerivativeError, match="exactly zero"):
        pullback(x_of(res))


def test_minimize_user_hessian_is_checked(autograd_config):
    def wrong_hessian(x, a, b):
        return 1.3 * quadratic_hessian(x, a, b)

    res, pullback = rrule(autograd_config, so.minimize, quadratic, np.zeros(3), (A, B), method="Newton-CG",
                          jac=quadratic_gradient, hess=wrong_hessian, options={"xtol": 1e-12})
    assert res.success
    with pytest.warns(RuntimeWarning, match="disagrees"):
        db = pullback(x_of(res))[3][1]
    np.testing.assert_allclose(db, np.linalg.solve(A, XBAR), rtol=1e-8)


def test_minimize_cotangents_of_internals_and_bad_cotangents(autograd_config):
    res, pullback = rrule(autograd_config, so.minimize, quadratic, np.zeros(3), (A, B), method="BFGS",
                          jac=quadratic_gradient, options={"gtol": 1e-10})
    dargs = pullback(Tangent(type(res), {"x": XBAR, "hess_inv": np.ones((3, 3))}))[3]   # BFGS's approximation:
    np.testing.assert_allclose(dargs[1], np.linalg.solve(A, XBAR), rtol=1e-8)            # no tangent, ignored
    for bad in (None, np.ones(3), Tangent(tuple, 1.0)):
        with pytest.raises(ProjectionError, match="minimize"):
            pullback(bad)
    assert pullback(ZeroTangent())[2:4] == (ZeroTangent(), ZeroTangent())


def test_minimize_args_by_keyword_are_not_differentiated(autograd_config):
    res, pullback = rrule(autograd_config, so.minimize, quadratic, np.zeros(3), args=(A, B), method="BFGS",
                          jac=quadratic_gradient)
    assert pullback(x_of(res)) == (NoTangent(), NoTangent(), ZeroTangent())


# ---- minimize_scalar ------------------------------------------------------------------------------------------
def scalar_quartic(x, t):
    return 0.25 * x ** 4 + 0.5 * x ** 2 - t * x


@pytest.mark.parametrize("method", ["brent", "golden", "bounded"])
def test_minimize_scalar_closed_form(method, autograd_config):
    bounds = (-3.0, 4.0) if method == "bounded" else None
    options = {"options": {"xatol": 1e-12}} if method == "bounded" else {"tol": 1e-12}
    res, pullback = rrule(autograd_config, so.minimize_scalar, scalar_quartic, None, bounds, (2.0,), method=method,
                          **options)
    assert res.x == pytest.approx(1.0, abs=1e-8)   # x**3 + x = 2
    dt = pullback(Tangent(type(res), {"x": 1.0, "fun": 1.0}))[4][0]
    assert dt == pytest.approx(1 / (3 * res.x ** 2 + 1) - res.x, rel=1e-7)   # dx/dt, and df*/dt = -x*
    check(so.minimize_scalar, scalar_quartic, None, bounds, (2.0,), fkwargs=dict(options, method=method),
          config=autograd_config, gauge_invariant=fields, **NOISY)


def test_minimize_scalar_corner_solution_raises(autograd_config):
    res, pullback = rrule(autograd_config, so.minimize_scalar, scalar_quartic, None, (-1.0, 0.5), (2.0,),
                          method="bounded")
    with pytest.raises(ImplicitDerivativeError, match="corner"):
        pullback(Tangent(type(res), {"x": 1.0}))


def test_minimize_precision_loss_at_a_minimum_is_certified(autograd_config):
    # BFGS reports "precision loss" (success=False) at a gtol it cannot reach, at a minimum to working precision:
    # the Newton step from it certifies the point, and the derivative is the closed form's
    res, pullback = rrule(autograd_config, so.minimize, quadratic, np.zeros(3), (A, B), method="BFGS",
                          jac=quadratic_gradient, options={"gtol": 1e-15})
    assert not res.success and "precision" in res.message
    np.testing.assert_allclose(pullback(x_of(res))[3][1], np.linalg.solve(A, XBAR), rtol=1e-9)
