"""Rules of chainrules/rulesets/optimize/least_squares.py: least_squares and curve_fit.

Closed forms: a linear residual ``A x - b`` has the solution of the normal equations
``x* = (A^T A)^{-1} A^T b``, so ``b_bar = A (A^T A)^{-1} x_bar`` and
``A_bar = -(r u^T + A u x*^T)`` with ``u = (A^T A)^{-1} x_bar``, ``r = A x* - b``; a straight line
fitted by ``curve_fit`` has ``popt = (X^T W X)^{-1} X^T W y`` and ``pcov = kappa (X^T W X)^{-1}``.
The nonlinear cases (where the curvature term of the Hessian matters) are checked against
finite differences of the whole call at tight tolerances.
"""

from __future__ import annotations

import autograd.numpy as anp
import numpy as np
import pytest
import scipy.optimize as so

from chainrules.rulesets.optimize import ImplicitDerivativeError, _problems
from chainrules.testing import PrimalAndTangent, central_fdm
from chainrules_core import NoTangent, NotImplementedTangent, ProjectionError, Tangent, ZeroTangent, frule, rrule

from .conftest import check

RNG = np.random.default_rng(11)
A = RNG.standard_normal((6, 3))
B = RNG.standard_normal(6)
XBAR = np.array([1.0, -0.5, 2.0])
TIGHT = {"xtol": 1e-15, "ftol": 1e-15, "gtol": 1e-15}
LM_TIGHT = {"xtol": 1e-14, "ftol": 1e-14, "gtol": 1e-14}
NOISY = {"fdm": central_fdm(5, 1, condition=1e5, max_range=1e-2), "rtol": 1e-5, "atol": 1e-6}


def linear(x, a, b):
    return a @ x - b


def linear_jacobian(x, a, b):
    return a


def lsq_fields(res):
    return res.x, res.cost, res.fun


def position_of_args(*before, wrap=False):
    """``least_squares``' positional arguments up to ``args`` (index 17); ``wrap``: the floats among them (tolerances,
    scales) marked constant for the testers."""
    def constant(v):
        return PrimalAndTangent(v, NoTangent()) if wrap else v

    return [*before, *(constant(v) for v in (1e-14, 1e-14, 1e-14)), constant(1.0), "linear", constant(1.0), None,
            None, None, None, None, 0]


# ---- least_squares ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("method", ["trf", "dogbox", "lm"])
def test_least_squares_normal_equations(method, autograd_config):
    jac = "3-point" if method == "lm" else linear_jacobian  # the rule differentiates jac, or fun twice
    res, pullback = rrule(autograd_config, so.least_squares, linear, np.zeros(3), *position_of_args(
        jac, (-np.inf, np.inf), method), (A, B))
    ata = A.T @ A
    x = np.linalg.solve(ata, A.T @ B)
    np.testing.assert_allclose(res.x, x, rtol=1e-8)
    r = A @ x - B
    da, db = pullback(Tangent(type(res), {"x": XBAR}))[18]
    u = np.linalg.solve(ata, XBAR)
    np.testing.assert_allclose(db, A @ u, rtol=1e-8)
    np.testing.assert_allclose(da, -(np.outer(r, u) + np.outer(A @ u, x)), rtol=1e-7, atol=1e-10)
    # the cost by the envelope theorem (d cost / db = -r), the residual through x*
    _, db_cost = pullback(Tangent(type(res), {"cost": 1.0}))[18]
    np.testing.assert_allclose(db_cost, -r, rtol=1e-8, atol=1e-12)
    rbar = RNG.standard_normal(6)
    _, db_res = pullback(Tangent(type(res), {"fun": rbar}))[18]
    np.testing.assert_allclose(db_res, A @ np.linalg.solve(ata, A.T @ rbar) - rbar, rtol=1e-8, atol=1e-12)


@pytest.fixture
def decay():
    t = np.linspace(0.0, 2.0, 8)
    return t, 2.0 * np.exp(-1.5 * t) + 0.05 * np.sin(9 * t)


def decay_residual(p, t, y):
    return p[0] * anp.exp(-p[1] * t) - y


def test_least_squares_second_derivatives_through_autograd(decay, autograd_config):
    # a nonzero residual: the curvature term of the Hessian matters, and comes from autograd twice
    t, y = decay
    positional = position_of_args("3-point", (-np.inf, np.inf), "trf", wrap=True)
    check(so.least_squares, decay_residual, np.ones(2), *positional, (t, y), config=autograd_config,
          gauge_invariant=lsq_fields, **NOISY)


def test_least_squares_with_rules_only_and_jac(decay, rules_only):
    t, y = decay
    check(so.least_squares, _problems.exp_decay_residual, np.ones(2), *position_of_args(
        _problems.exp_decay_jacobian, (-np.inf, np.inf), "dogbox", wrap=True), (t, y), config=rules_only,
          gauge_invariant=lsq_fields, **NOISY)


def test_least_squares_active_bounds(decay, autograd_config):
    t, y = decay
    res, _ = rrule(autograd_config, so.least_squares, decay_residual, np.ones(2), bounds=([0.0, 0.0], [1.8, 5.0]),
                   args=(t, y), **TIGHT)
    assert res.x[0] == pytest.approx(1.8) and res.active_mask[0] == 1
    check(so.least_squares, decay_residual, np.ones(2), *position_of_args(
        "2-point", PrimalAndTangent(([0.0, 0.0], [1.8, 5.0]), NoTangent()), "trf", wrap=True), (t, y),
          config=autograd_config, gauge_invariant=lsq_fields,
          **dict(NOISY, rtol=1e-4, atol=1e-5))  # '2-point' Jacobians: x* to ~1e-8, its finite differences noisier


def test_least_squares_robust_loss_is_not_implemented(decay, autograd_config):
    t, y = decay
    res, pullback = rrule(autograd_config, so.least_squares, decay_residual, np.ones(2), "2-point", (-np.inf, np.inf),
                          "trf", 1e-12, 1e-12, 1e-12, 1.0, "soft_l1", 1.0, None, None, None, None, None, 0, (t, y))
    dargs = pullback(Tangent(type(res), {"x": np.ones(2)}))[18]
    assert isinstance(dargs, NotImplementedTangent) and "soft_l1" in dargs.info


def test_least_squares_not_converged_raises(decay, autograd_config):
    t, y = decay
    res, pullback = rrule(autograd_config, so.least_squares, decay_residual, np.ones(2), max_nfev=2, args=(t, y))
    assert res.status == 0
    with pytest.raises(ImplicitDerivativeError, match="did not converge"):
        pullback(Tangent(type(res), {"x": np.ones(2)}))
    assert pullback(ZeroTangent())[2] == ZeroTangent()


def test_least_squares_jacobian_field_is_not_implemented_and_bad_cotangents(decay, autograd_config):
    t, y = decay
    res, pullback = rrule(autograd_config, so.least_squares, decay_residual, np.ones(2), *position_of_args(
        "2-point", (-np.inf, np.inf), "trf"), (t, y))
    dargs = pullback(Tangent(type(res), {"x": np.ones(2), "jac": np.ones((8, 2))}))[18]
    assert isinstance(dargs, NotImplementedTangent) and "'jac'" in dargs.info
    with pytest.raises(ProjectionError, match="least_squares"):
        pullback(np.ones(2))


# ---- curve_fit ----------------------------------------------------------------------------------------------------
XDATA = np.linspace(-1.0, 2.0, 7)
YDATA = 0.5 + 1.5 * XDATA + 0.1 * np.cos(4 * XDATA)
SIGMA = 0.1 + 0.05 * np.abs(np.sin(3 * XDATA))


def line(x, a, b):
    return a * x + b


def popt_pcov(out):
    return out[0], out[1]


@pytest.mark.parametrize("method", ["lm", "trf", "dogbox"])
@pytest.mark.parametrize("absolute_sigma", [False, True])
def test_curve_fit_weighted_line_closed_form(method, absolute_sigma, autograd_config):
    (popt, _pcov), pullback = rrule(autograd_config, so.curve_fit, line, XDATA, YDATA, None, SIGMA, absolute_sigma,
                                   method=method)
    x = np.stack([XDATA, np.ones_like(XDATA)], axis=-1)
    w = 1 / SIGMA ** 2
    normal = x.T @ (w[:, None] * x)
    np.testing.assert_allclose(popt, np.linalg.solve(normal, x.T @ (w * YDATA)), rtol=1e-7)
    pbar = np.array([1.0, -2.0])
    cotangents = pullback(Tangent(tuple, pbar, ZeroTangent()))
    np.testing.assert_allclose(cotangents[3], w * (x @ np.linalg.solve(normal, pbar)), rtol=1e-6)   # d popt / d y
    check(so.curve_fit, line, XDATA, YDATA, PrimalAndTangent(np.ones(2), ZeroTangent()), SIGMA,
          PrimalAndTangent(absolute_sigma, NoTangent()), fkwargs={"method": method}, config=autograd_config,
          gauge_invariant=popt_pcov, **NOISY)


def decay_model(t, a, k):
    return a * anp.exp(-k * t)


def test_curve_fit_nonlinear_through_autograd(decay, autograd_config):
    # no jac: the curvature of the model and d/dxdata come from autograd's second derivatives
    t, y = decay
    check(so.curve_fit, decay_model, t, y, PrimalAndTangent(np.ones(2), ZeroTangent()), 0.05 + 0.01 * t,
          fkwargs={"method": "trf", **TIGHT}, config=autograd_config, gauge_invariant=popt_pcov, **NOISY)


def test_curve_fit_covariance_sigma(decay, autograd_config):
    t, y = decay
    # of order one, so that the finite differences' steps keep it positive definite
    covariance = 0.25 * np.eye(t.size) + 0.05 * np.exp(-np.abs(np.subtract.outer(t, t)))
    check(so.curve_fit, decay_model, t, y, PrimalAndTangent(np.ones(2), ZeroTangent()), covariance,
          fkwargs={"method": "lm", **LM_TIGHT}, config=autograd_config, gauge_invariant=popt_pcov, **NOISY)


def test_curve_fit_covariance_reads_only_its_lower_triangle(decay, autograd_config):
    t, y = decay
    covariance = np.diag((0.05 + 0.01 * t) ** 2) + 3e-4 * np.exp(-np.abs(np.subtract.outer(t, t)))
    _, pullback = rrule(autograd_config, so.curve_fit, decay_model, t, y, None, covariance, **LM_TIGHT)
    dsigma = pullback(Tangent(tuple, np.array([1.0, 1.0]), np.ones((2, 2))))[5]
    np.testing.assert_array_equal(np.triu(dsigma, 1), 0.0)


def test_curve_fit_bounds_and_full_output(decay, autograd_config):
    t, y = decay
    out, pullback = rrule(autograd_config, so.curve_fit, decay_model, t, y, bounds=([0.0, 0.0], [1.9, 5.0]),
                          full_output=True, **TIGHT)
    assert len(out) == 5 and out[0][0] == pytest.approx(1.9)
    cotangents = pullback(Tangent(tuple, np.array([1.0, 1.0]), ZeroTangent(), ZeroTangent(), NoTangent(), NoTangent()))
    _, dres = frule(autograd_config, (NoTangent(), NoTangent(), ZeroTangent(), np.ones(8)), so.curve_fit, decay_model,
                    t, y, bounds=([0.0, 0.0], [1.9, 5.0]), full_output=True, **TIGHT)
    # the amplitude is held at its bound; the inner products of forward and reverse agree
    assert dres[0][0] == 0.0
    assert float(cotangents[3] @ np.ones(8)) == pytest.approx(float(np.sum(dres[0])), rel=1e-8)


def test_curve_fit_with_rules_only_without_jac_is_not_implemented(decay, rules_only):
    t, y = decay
    _, pullback = rrule(rules_only, so.curve_fit, _problems.exp_decay, t, y)
    dydata = pullback(Tangent(tuple, np.ones(2), ZeroTangent()))[3]
    assert isinstance(dydata, NotImplementedTangent) and "jac" in dydata.info


# ---- leastsq ------------------------------------------------------------------------------------------------------
def test_leastsq_normal_equations(autograd_config):
    (x, _, _, _, ier), pullback = rrule(autograd_config, so.leastsq, linear, np.zeros(3), (A, B),
                                         full_output=True, **LM_TIGHT)
    assert ier in (1, 2, 3, 4)
    ata = A.T @ A
    np.testing.assert_allclose(x, np.linalg.solve(ata, A.T @ B), rtol=1e-8)
    u = np.linalg.solve(ata, XBAR)
    rbar = RNG.standard_normal(6)
    no = NoTangent()
    da, db = pullback(Tangent(tuple, XBAR, no, Tangent(dict, {"fvec": rbar}), no, no))[3]
    np.testing.assert_allclose(db, A @ u + A @ np.linalg.solve(ata, A.T @ rbar) - rbar, rtol=1e-8, atol=1e-12)
    # A's cotangent: -(r u^T + (A u) x^T) from x_bar, plus the residual's direct and through-x terms
    r = A @ x - B
    v = np.linalg.solve(ata, A.T @ rbar)
    w = u + v
    np.testing.assert_allclose(da, -(np.outer(r, w) + np.outer(A @ w, x)) + np.outer(rbar, x), rtol=1e-7,
                               atol=1e-10)
    dargs = pullback(Tangent(tuple, no, np.ones((3, 3)), no, no, no))[3]
    assert isinstance(dargs, NotImplementedTangent) and "cov_x" in dargs.info
    _, dout = frule(autograd_config, (no, no, ZeroTangent(), Tangent(tuple, ZeroTangent(), rbar)), so.leastsq,
                    linear, np.zeros(3), (A, B), full_output=True, **LM_TIGHT)
    dx = np.linalg.solve(ata, A.T @ rbar)
    np.testing.assert_allclose(dout[0], dx, rtol=1e-8)
    np.testing.assert_allclose(dout[2]["fvec"], A @ dx - rbar, rtol=1e-8, atol=1e-12)
    assert isinstance(dout[1], NotImplementedTangent)


def test_leastsq_through_autograd_and_failures(decay, autograd_config):
    t, y = decay
    check(so.leastsq, decay_residual, np.ones(2), (t, y), fkwargs=LM_TIGHT, config=autograd_config,
          gauge_invariant=lambda out: out[0], **NOISY)
    with pytest.warns(RuntimeWarning, match="maxfev"):
        _, pullback = rrule(autograd_config, so.leastsq, decay_residual, np.ones(2), (t, y), maxfev=3)
    with pytest.raises(ImplicitDerivativeError, match="leastsq did not converge"):
        pullback(Tangent(tuple, np.ones(2), NoTangent()))
    with pytest.raises(ProjectionError, match="leastsq"):
        pullback(np.ones(2))
