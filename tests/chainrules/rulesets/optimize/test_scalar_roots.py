"""Rules of chainrules/rulesets/optimize/scalar_roots.py.

Closed form: the root of ``x**2 - t`` moves as ``1 / (2 sqrt(t))``. Everything else against
finite differences of the whole call at tight tolerances.
"""

from __future__ import annotations

import autograd.numpy as anp
import numpy as np
import pytest
import scipy.optimize as so

from chainrules.rulesets.optimize import ImplicitDerivativeError, _problems
from chainrules_core import NoTangent, Tangent, ZeroTangent, frule, rrule

from .conftest import check

BRACKETING = [so.brentq, so.brenth, so.ridder, so.bisect, so.toms748]


# ---- bracketing ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("method", BRACKETING, ids=lambda f: f.__name__)
def test_bracketing_closed_form(method, rules_only):
    x, pullback = rrule(rules_only, method, _problems.square_residual, 0.0, 3.0, (2.0,), xtol=1e-14)
    assert x == pytest.approx(np.sqrt(2.0), rel=1e-13)
    cotangents = pullback(1.0)
    assert cotangents[2] == ZeroTangent() and cotangents[3] == ZeroTangent()  # the bracket does not move the root
    assert cotangents[4][0] == pytest.approx(1 / (2 * np.sqrt(2.0)), rel=1e-12)
    _, dx = frule(rules_only, (NoTangent(), NoTangent(), 0.0, 0.0, Tangent(tuple, 1.0)), method,
                  _problems.square_residual, 0.0, 3.0, (2.0,), xtol=1e-14)
    assert dx == pytest.approx(1 / (2 * np.sqrt(2.0)), rel=1e-12)


@pytest.mark.parametrize("method", BRACKETING, ids=lambda f: f.__name__)
def test_bracketing_with_autograd_full_output(method, autograd_config):
    def f(x, a, b):
        return anp.tanh(a * x) - b

    check(method, f, -1.0, 2.0, (1.5, 0.3), fkwargs={"xtol": 1e-14, "full_output": True}, config=autograd_config)


def test_brentq_full_output_cotangents_of_both_roots_add(rules_only):
    (_x, results), pullback = rrule(rules_only, so.brentq, _problems.square_residual, 0.0, 3.0, (4.0,), xtol=1e-14,
                                   full_output=True)
    both = pullback(Tangent(tuple, 1.0, Tangent(type(results), {"root": 2.0})))[4][0]
    assert both == pytest.approx(3 * 0.25, rel=1e-12)


def test_brentq_args_by_keyword_are_not_differentiated(rules_only):
    _, pullback = rrule(rules_only, so.brentq, _problems.square_residual, 0.0, 3.0, args=(2.0,), xtol=1e-14)
    assert pullback(1.0) == (NoTangent(), NoTangent(), ZeroTangent(), ZeroTangent())


def test_brentq_not_converged_raises(rules_only):
    _x, pullback = rrule(rules_only, so.brentq, _problems.square_residual, 0.0, 3.0, (2.0,), maxiter=2, disp=False)
    with pytest.raises(ImplicitDerivativeError, match="brentq did not converge"):
        pullback(1.0)
    with pytest.raises(RuntimeError, match="Failed to converge"):  # disp=True: SciPy's own error passes through
        rrule(rules_only, so.brentq, _problems.square_residual, 0.0, 3.0, (2.0,), maxiter=2)


def test_brentq_at_a_jump_has_no_derivative(autograd_config):
    x, pullback = rrule(autograd_config, so.brentq, lambda x, t: anp.sign(x - t), 0.0, 1.0, (0.3,))
    assert x == pytest.approx(0.3)
    with pytest.raises(ImplicitDerivativeError, match="singular"):
        pullback(1.0)


# ---- root_scalar -----------------------------------------------------------------------------------------------
ROOT_SCALAR = {
    "bisect": {"bracket": [0.0, 3.0]},
    "brentq": {"bracket": [0.0, 3.0]},
    "brenth": {"bracket": [0.0, 3.0]},
    "ridder": {"bracket": [0.0, 3.0]},
    "toms748": {"bracket": [0.0, 3.0]},
    "secant": {"x0": 1.0, "x1": 2.0},
    "newton": {"x0": 1.0, "fprime": True},
    "halley": {"x0": 1.0, "fprime": True, "fprime2": True},
}


@pytest.mark.parametrize("method", list(ROOT_SCALAR))
def test_root_scalar_every_method(method, autograd_config):
    def f(x, t):
        return x ** 3 + x - t

    def f_fprime(x, t):
        return x ** 3 + x - t, 3 * x ** 2 + 1

    def f_fprime_fprime2(x, t):
        return x ** 3 + x - t, 3 * x ** 2 + 1, 6 * x

    options = dict(ROOT_SCALAR[method], method=method, xtol=1e-14)
    fun = f_fprime_fprime2 if options.get("fprime2") else f_fprime if options.get("fprime") else f
    check(so.root_scalar, fun, (3.0,), fkwargs=options, config=autograd_config)
    res, pullback = rrule(autograd_config, so.root_scalar, fun, (3.0,), **options)
    assert res.converged
    assert pullback(Tangent(type(res), {"root": 1.0}))[2][0] == pytest.approx(1 / (3 * res.root ** 2 + 1), rel=1e-10)


def test_root_scalar_fprime_callable(rules_only):
    def fprime(x, t):
        return 2 * x

    check(so.root_scalar, _problems.square_residual, (5.0,), fkwargs={"x0": 2.0, "fprime": fprime, "xtol": 1e-14},
          config=rules_only)


def test_root_scalar_not_converged_raises(rules_only):
    res, pullback = rrule(rules_only, so.root_scalar, _problems.square_residual, (2.0,), bracket=[0.0, 3.0],
                          maxiter=2)
    assert not res.converged
    with pytest.raises(ImplicitDerivativeError, match="root_scalar did not converge"):
        pullback(Tangent(type(res), {"root": 1.0}))


# ---- newton ------------------------------------------------------------------------------------------------------
def test_newton_scalar_with_fprime_and_fprime2(rules_only, autograd_config):
    check(so.newton, _problems.square_residual, 1.0, lambda x, t: 2 * x, (3.0,), fkwargs={"tol": 1e-14},
          config=rules_only)
    check(so.newton, lambda x, t: x ** 3 - t, 1.0, lambda x, t: 3 * x ** 2, (3.0,),
          fkwargs={"tol": 1e-14, "fprime2": lambda x, t: 6 * x, "full_output": True}, config=autograd_config)


def test_newton_array_closed_form_and_full_output(rules_only):
    t = np.array([4.0, 9.0, 2.0])
    out, pullback = rrule(rules_only, so.newton, _problems.square_residual, np.ones(3), None, (t,), tol=1e-14,
                          full_output=True)
    np.testing.assert_allclose(out.root, np.sqrt(t))
    dt = pullback(Tangent(type(out), root=np.ones(3)))[4][0]
    np.testing.assert_allclose(dt, 0.5 / np.sqrt(t), rtol=1e-12)
    check(so.newton, _problems.square_residual, np.ones(3), None, (t,), fkwargs={"tol": 1e-14, "full_output": True},
          config=rules_only, gauge_invariant=lambda res: res.root)


def test_newton_array_of_a_coupled_function_gets_the_general_solve(autograd_config):
    # SciPy updates entry by entry; a weakly coupled system still converges, and the rule notices the coupling
    def coupled(x, t):
        return x ** 3 + x + 0.1 * anp.sum(x) - t

    t = np.array([1.0, 2.0, 3.0])
    out, _pullback = rrule(autograd_config, so.newton, coupled, np.ones(3), None, (t,), tol=1e-14, maxiter=200)
    np.testing.assert_allclose(coupled(out, t), 0.0, atol=1e-12)
    check(so.newton, coupled, np.ones(3), None, (t,), fkwargs={"tol": 1e-14, "maxiter": 200}, config=autograd_config)


def test_newton_array_partly_failed_raises(rules_only):
    t = np.array([4.0, -1.0])  # no real root for the second entry
    with pytest.warns(RuntimeWarning):
        _out, pullback = rrule(rules_only, so.newton, _problems.square_residual, np.ones(2), None, (t,), disp=False)
    with pytest.raises(ImplicitDerivativeError, match="1 of 2 entries failed"):
        pullback(np.ones(2))
