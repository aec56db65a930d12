"""Rules of chainrules/rulesets/optimize/roots.py: root (every method) and fsolve.

Each derivative is checked against finite differences of the whole solver call at tight
tolerances (``test_rrule``/``test_frule``), and against the closed form of the root of
``x**2 - t`` (``dx/dt = 1 / (2 sqrt(t))``).
"""

from __future__ import annotations

import warnings

import autograd.numpy as anp
import numpy as np
import pytest
import scipy.optimize as so

from chainrules.rulesets.optimize import ImplicitDerivativeError, _implicit, _problems
from chainrules.rulesets.optimize.roots import solution_fields
from chainrules_core import (
    NoTangent,
    NotImplementedTangent,
    ProjectionError,
    Tangent,
    ZeroTangent,
    frule,
    rrule,
    unthunk,
)

from .conftest import check

METHODS = {
    "hybr": {"tol": 1e-13},
    "lm": {"tol": 1e-13},
    "broyden1": {"tol": 1e-13},
    "broyden2": {"tol": 1e-13},
    "anderson": {"tol": 1e-13},
    "linearmixing": {"tol": 1e-13, "options": {"jac_options": {"alpha": -0.4}, "maxiter": 500}},
    "diagbroyden": {"tol": 1e-13},
    "excitingmixing": {"tol": 1e-13, "options": {"jac_options": {"alpha": 0.3, "alphamax": 0.45}, "maxiter": 500}},
    "krylov": {"tol": 1e-13},
    "df-sane": {"tol": 1e-13},
}


def x_tangent(res, dx):
    return Tangent(type(res), {"x": dx})


# ---- closed form -------------------------------------------------------------------------------------------------
# excitingmixing's mixing needs J near -I / alpha (negative definite): test_root_every_method covers it
@pytest.mark.parametrize("method", [m for m in METHODS if m != "excitingmixing"])
def test_root_of_x_squared_minus_t_closed_form(method, rules_only):
    t = np.array([2.0, 3.0, 5.0])
    fkw = dict(METHODS[method], method=method)
    res, pullback = rrule(rules_only, so.root, _problems.square_residual, np.full(3, 1.5), (t,), **fkw)
    assert res.success
    np.testing.assert_allclose(np.abs(res.x), np.sqrt(t), rtol=1e-10)  # diagbroyden finds a negative root
    dargs = pullback(x_tangent(res, np.ones(3)))[3]
    np.testing.assert_allclose(dargs[0], 0.5 / res.x, rtol=1e-8)
    _, dres = frule(rules_only, (NoTangent(), NoTangent(), ZeroTangent(), Tangent(tuple, np.ones(3))), so.root,
                    _problems.square_residual, np.full(3, 1.5), (t,), **fkw)
    np.testing.assert_allclose(dres["x"], 0.5 / res.x, rtol=1e-8)
    np.testing.assert_array_equal(dres["fun"], 0.0)


# ---- every method against finite differences ---------------------------------------------------------------------
@pytest.mark.parametrize("method", list(METHODS))
def test_root_every_method(method, coupled, rules_only):
    a, b = coupled
    if method == "excitingmixing":
        a, b = -a, -b  # excitingmixing's Jacobian guess -1/alpha needs a negative definite J
    check(so.root, _problems.coupled_residual, np.zeros(3), (a, b), fkwargs=dict(METHODS[method], method=method),
          config=rules_only, gauge_invariant=solution_fields)


def test_root_method_by_position_and_two_dimensional_x0(rules_only):
    t = np.array([[2.0, 3.0], [5.0, 7.0]])
    check(so.root, _problems.square_residual, np.sqrt(t) + 0.2, (t,), "broyden1", fkwargs={"tol": 1e-13},
          config=rules_only, gauge_invariant=solution_fields)


def test_root_args_by_keyword_are_not_differentiated(coupled, rules_only):
    a, b = coupled
    res, pullback = rrule(rules_only, so.root, _problems.coupled_residual, np.zeros(3), args=(a, b), tol=1e-13)
    cotangents = pullback(x_tangent(res, np.ones(3)))
    assert cotangents == (NoTangent(), NoTangent(), ZeroTangent())


def test_root_single_non_tuple_args(rules_only):
    # SciPy wraps a single non-tuple args in a tuple; its cotangent is the value's own
    res, pullback = rrule(rules_only, so.root, _problems.square_residual, np.array([1.0]), np.array([4.0]),
                          tol=1e-13)
    np.testing.assert_allclose(pullback(x_tangent(res, np.array([1.0])))[3], [0.25], rtol=1e-10)


def test_root_with_autograd(autograd_config):
    def fun(x, a, t):
        return anp.tanh(a @ x) + x - t

    a, t = np.array([[1.0, 0.3], [0.2, 0.8]]), np.array([0.5, -0.2])
    check(so.root, fun, np.zeros(2), (a, t), fkwargs={"tol": 1e-13}, config=autograd_config,
          gauge_invariant=solution_fields)


def test_root_with_autograd_and_jac_true(autograd_config):
    def fun_and_jac(x, t):
        return x ** 3 + x - t, anp.diag(3 * x ** 2 + 1)

    check(so.root, fun_and_jac, np.zeros(2), (np.array([1.0, 3.0]),), fkwargs={"jac": True, "tol": 1e-13},
          config=autograd_config, gauge_invariant=solution_fields)


# ---- the user's Jacobian ------------------------------------------------------------------------------------------
def test_root_user_jacobian_is_checked_and_a_wrong_one_is_corrected(coupled, rules_only):
    a, b = coupled
    good, _ = rrule(rules_only, so.root, _problems.coupled_residual, np.zeros(3), (a, b), tol=1e-13)
    _, pullback_good = rrule(rules_only, so.root, _problems.coupled_residual, np.zeros(3), (a, b), tol=1e-13)

    def wrong_jac(x, a, b):  # 20% off: the solver still converges, more slowly
        return 1.2 * _problems.coupled_jacobian(x, a, b)

    res, pullback = rrule(rules_only, so.root, _problems.coupled_residual, np.zeros(3), (a, b), jac=wrong_jac,
                          tol=1e-13)
    assert res.success
    xbar = np.array([1.0, -2.0, 0.5])
    with pytest.warns(RuntimeWarning, match="disagrees with the derivative"):
        wrong = pullback(x_tangent(res, xbar))[3]
    right = pullback_good(x_tangent(good, xbar))[3]
    np.testing.assert_allclose(wrong[0], right[0], rtol=1e-9)
    np.testing.assert_allclose(wrong[1], right[1], rtol=1e-9)


def test_root_user_jacobian_that_is_right_raises_no_warning(coupled, rules_only):
    a, b = coupled
    res, pullback = rrule(rules_only, so.root, _problems.coupled_residual, np.zeros(3), (a, b),
                          jac=_problems.coupled_jacobian, tol=1e-13)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        pullback(x_tangent(res, np.ones(3)))


# ---- large systems: the matrix-free path ------------------------------------------------------------------------
def test_root_matrix_free_path_agrees_with_dense(monkeypatch, rules_only):
    rng = np.random.default_rng(3)
    n = 12
    a, b = 2.0 * np.eye(n) + 0.2 * rng.standard_normal((n, n)), rng.standard_normal(n)
    xbar = rng.standard_normal(n)
    res, pullback = rrule(rules_only, so.root, _problems.coupled_residual, np.zeros(n), (a, b), tol=1e-13)
    dense = pullback(x_tangent(res, xbar))[3]  # 12 unknowns: J formed at once
    calls = []
    original = _implicit.ReverseLinearization.jacobian
    monkeypatch.setattr(_implicit.ReverseLinearization, "jacobian", lambda self: calls.append(1) or original(self))
    monkeypatch.setattr(_implicit, "DIRECT_UP_TO", 4)
    matrix_free = pullback(x_tangent(res, xbar))[3]
    assert not calls  # GMRES converged: J was never formed
    np.testing.assert_allclose(matrix_free[0], dense[0], rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(matrix_free[1], dense[1], rtol=1e-9, atol=1e-12)
    check(so.root, _problems.coupled_residual, np.zeros(n), (a, b), fkwargs={"tol": 1e-13}, config=rules_only,
          gauge_invariant=solution_fields)
    # a Krylov solve that does not converge: J is completed from its products, and the answer is the same
    monkeypatch.setattr(_implicit, "RTOL", 1e-30)
    products = []
    adjoint = _implicit.ReverseLinearization.adjoint
    monkeypatch.setattr(_implicit.ReverseLinearization, "adjoint", lambda self, v: products.append(1) or adjoint(
        self, v))
    fallback = pullback(x_tangent(res, xbar))[3]
    assert not calls and len(products) <= n + 2  # n Krylov products, its residual check, and no more
    np.testing.assert_allclose(fallback[0], dense[0], rtol=1e-10)
    np.testing.assert_allclose(fallback[1], dense[1], rtol=1e-10)


# ---- where there is no derivative ------------------------------------------------------------------------------
def test_root_not_converged_raises_in_the_pullback_and_the_frule(coupled, rules_only):
    a, b = coupled
    fkw = {"method": "linearmixing", "options": {"jac_options": {"alpha": 0.3}, "maxiter": 20}}
    res, pullback = rrule(rules_only, so.root, _problems.coupled_residual, np.zeros(3), (a, b), **fkw)
    assert not res.success
    with pytest.raises(ImplicitDerivativeError, match="did not converge"):
        pullback(x_tangent(res, np.ones(3)))
    assert pullback(ZeroTangent())[3] == ZeroTangent()  # nothing asked: nothing raised
    with pytest.raises(ImplicitDerivativeError, match="did not converge"):
        frule(rules_only, (NoTangent(), NoTangent(), ZeroTangent(), Tangent(tuple, np.ones((3, 3)), np.ones(3))),
              so.root, _problems.coupled_residual, np.zeros(3), (a, b), **fkw)


def test_root_singular_jacobian_raises(autograd_config):
    def dependent(x, t):  # two copies of one equation: a line of roots
        s = x[0] + x[1] - t
        return anp.stack([s, 2 * s])

    res, pullback = rrule(autograd_config, so.root, dependent, np.zeros(2), (1.0,), method="lm")
    assert res.success
    with pytest.raises(ImplicitDerivativeError, match="singular"):
        pullback(x_tangent(res, np.ones(2)))


def test_root_lm_least_squares_system_is_not_implemented(autograd_config):
    def overdetermined(x, t):
        return anp.stack([x[0] - t, x[0] + t, x[0]])

    res, pullback = rrule(autograd_config, so.root, overdetermined, np.zeros(1), (1.0,), method="lm")
    dt = pullback(x_tangent(res, np.ones(1)))[3]
    assert isinstance(dt, NotImplementedTangent) and "least_squares" in dt.info


def test_root_cotangent_of_a_solver_internal_is_ignored(coupled, rules_only):
    # fjac (MINPACK's approximate Jacobian factor) has no tangent, like quad's error estimate
    a, b = coupled
    res, pullback = rrule(rules_only, so.root, _problems.coupled_residual, np.zeros(3), (a, b), tol=1e-13)
    with_internal = pullback(Tangent(type(res), {"x": np.ones(3), "fjac": np.ones((3, 3))}))
    without = pullback(Tangent(type(res), {"x": np.ones(3)}))
    np.testing.assert_array_equal(with_internal[3][0], without[3][0])
    _, dres = frule(rules_only, (NoTangent(), NoTangent(), ZeroTangent(), Tangent(tuple, np.ones((3, 3)), np.ones(3))),
                    so.root, _problems.coupled_residual, np.zeros(3), (a, b), tol=1e-13)
    assert dres["fjac"] == NoTangent()


@pytest.mark.parametrize("bad", [None, "abc", np.ones(3), Tangent(tuple, 1.0)])
def test_root_bad_cotangents_name_root(bad, coupled, rules_only):
    a, b = coupled
    res, pullback = rrule(rules_only, so.root, _problems.coupled_residual, np.zeros(3), (a, b))
    with pytest.raises(ProjectionError, match="root"):
        pullback(bad)
    with pytest.raises(ProjectionError, match="root"):
        pullback(Tangent(type(res), {"x": np.ones(4)}))


# ---- fsolve ----------------------------------------------------------------------------------------------------
def test_fsolve_closed_form(rules_only):
    t = np.array([4.0, 9.0])
    x, pullback = rrule(rules_only, so.fsolve, _problems.square_residual, np.ones(2), (t,), xtol=1e-13)
    np.testing.assert_allclose(x, [2.0, 3.0])
    np.testing.assert_allclose(pullback(np.ones(2))[3][0], 0.5 / np.sqrt(t), rtol=1e-10)


def test_fsolve_full_output_and_fprime_with_col_deriv(coupled, rules_only):
    a, b = coupled

    def transposed_jacobian(x, a, b):
        return _problems.coupled_jacobian(x, a, b).T

    check(so.fsolve, _problems.coupled_residual, np.zeros(3), (a, b), transposed_jacobian,
          fkwargs={"full_output": True, "col_deriv": True, "xtol": 1e-13}, config=rules_only,
          gauge_invariant=lambda out: (out[0], out[1]["fvec"]))


def test_fsolve_scalar_x0_and_autograd(autograd_config):
    check(so.fsolve, lambda x, t: anp.exp(x) - t, 0.5, (3.0,), fkwargs={"xtol": 1e-12}, config=autograd_config)


def test_fsolve_not_converged_raises(rules_only):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        _, pullback = rrule(rules_only, so.fsolve, _problems.square_residual, np.array([1.0]), (np.array([-1.0]),))
    with pytest.raises(ImplicitDerivativeError, match="fsolve did not converge"):
        pullback(np.ones(1))
    assert isinstance(unthunk(pullback(ZeroTangent())[3]), ZeroTangent)
