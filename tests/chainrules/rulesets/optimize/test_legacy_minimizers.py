"""Rules of chainrules/rulesets/optimize/legacy_minimizers.py: fmin, fmin_powell, fmin_cg, fmin_bfgs, fmin_ncg,
fmin_l_bfgs_b, fmin_tnc, fminbound, brent, golden.

Closed forms: the quadratic ``x.A.x / 2 - b.x`` has ``x* = A^{-1} b`` and ``dx*/db = A^{-1}``
whatever the solver's accuracy; the scalar quartic ``x**4/4 + x**2/2 - t x`` has ``x* = 1`` at
``t = 2`` and ``dx*/dt = 1 / (3 x*^2 + 1) = 1/4``. Finite differences of the whole call run at
each function's samples (``python -m chainrules check``, and ``tests/chainrules/test_every_rule.py``).
"""

from __future__ import annotations

import autograd
import autograd.numpy as anp
import numpy as np
import pytest
import scipy.optimize as so

from chainrules.rulesets.optimize import ImplicitDerivativeError
from chainrules_core import NoTangent, NotImplementedTangent, ProjectionError, Tangent, ZeroTangent, frule, rrule

from .conftest import check

A = np.array([[3.0, 0.5, 0.2], [0.5, 2.5, 0.3], [0.2, 0.3, 2.0]])
B = np.array([1.0, -0.5, 0.7])
XBAR = np.array([0.3, -1.0, 2.0])


def quadratic(x, a, b):
    return 0.5 * x @ a @ x - b @ x


gradient = autograd.grad(quadratic)


def value_and_gradient(x, a, b):
    return quadratic(x, a, b), gradient(x, a, b)


def quartic(x, t):
    return 0.25 * x ** 4 + 0.5 * x ** 2 - t * x


CASES = {  # positional arguments (args last), keywords
    "fmin": (so.fmin, (quadratic, np.zeros(3), (A, B)),
             {"xtol": 1e-12, "ftol": 1e-15, "disp": 0, "maxiter": 20000, "maxfun": 20000}),
    "fmin_powell": (so.fmin_powell, (quadratic, np.zeros(3), (A, B)), {"xtol": 1e-12, "ftol": 1e-15, "disp": 0}),
    "fmin_cg": (so.fmin_cg, (quadratic, np.zeros(3), gradient, (A, B)), {"gtol": 1e-10, "disp": 0}),
    "fmin_bfgs": (so.fmin_bfgs, (quadratic, np.zeros(3), gradient, (A, B)), {"gtol": 1e-10, "disp": 0}),
    "fmin_ncg": (so.fmin_ncg, (quadratic, np.zeros(3), gradient, None, None, (A, B)), {"avextol": 1e-12, "disp": 0}),
    "fmin_l_bfgs_b": (so.fmin_l_bfgs_b, (quadratic, np.zeros(3), gradient, (A, B)), {"pgtol": 1e-12, "factr": 10}),
    "fmin_l_bfgs_b, func returns (f, g)": (so.fmin_l_bfgs_b, (value_and_gradient, np.zeros(3), None, (A, B)),
                                           {"pgtol": 1e-12, "factr": 10}),
    "fmin_tnc": (so.fmin_tnc, (quadratic, np.zeros(3), gradient, (A, B)),
                 {"pgtol": 1e-12, "xtol": 1e-14, "ftol": 1e-16, "messages": 0}),
}


def _tangents(positional, darg):
    return (NoTangent(), *(NoTangent() for _ in positional[:-1]), darg)


@pytest.mark.parametrize("case", list(CASES))
def test_quadratic_closed_form(case, autograd_config):
    f, positional, kwargs = CASES[case]
    out, pullback = rrule(autograd_config, f, *positional, **kwargs)
    x = out[0] if isinstance(out, tuple) else out
    np.testing.assert_allclose(x, np.linalg.solve(A, B), rtol=1e-6, atol=1e-8)
    parts = len(out) - 1 if isinstance(out, tuple) else 0
    ct = Tangent(tuple, XBAR, *[NoTangent()] * parts) if parts else XBAR
    cts = pullback(ct)
    assert cts[2] == ZeroTangent()  # x0
    np.testing.assert_allclose(cts[-1][1], np.linalg.solve(A, XBAR), rtol=1e-7, atol=1e-9)
    _, dout = frule(autograd_config, _tangents(positional, Tangent(tuple, ZeroTangent(), XBAR)), f, *positional,
                    **kwargs)
    np.testing.assert_allclose(dout[0] if parts else dout, np.linalg.solve(A, XBAR), rtol=1e-7, atol=1e-9)


@pytest.mark.parametrize("f", [so.fminbound, so.brent, so.golden])
def test_scalar_closed_form(f, autograd_config):
    positional = (quartic, -2.0, 3.0, (2.0,)) if f is so.fminbound else (quartic, (2.0,))
    kwargs = {"xtol": 1e-12} if f is so.fminbound else {"tol": 1e-12}
    x, pullback = rrule(autograd_config, f, *positional, **kwargs)
    assert x == pytest.approx(1.0, abs=2e-8)
    (dt,) = pullback(1.0)[-1]
    assert dt == pytest.approx(1 / (3 * x ** 2 + 1), rel=1e-8)
    assert dt == pytest.approx(0.25, rel=1e-7)
    _, dx = frule(autograd_config, _tangents(positional, Tangent(tuple, 1.0)), f, *positional, **kwargs)
    assert dx == pytest.approx(0.25, rel=1e-7)


def test_full_output_and_retall_layouts(autograd_config):
    # (xopt, fopt, gopt, Bopt, func_calls, grad_calls, warnflag, allvecs): x, fun (envelope: -x*) and gopt (zero)
    f, positional, kwargs = CASES["fmin_bfgs"]
    out, pullback = rrule(autograd_config, f, *positional, full_output=True, retall=True, **kwargs)
    assert len(out) == 8
    cts = pullback(Tangent(tuple, XBAR, 1.0, np.ones(3), *[NoTangent()] * 5))
    u = np.linalg.solve(A, XBAR)
    # gopt = A x - b moves as A dx - db = 0 along the minimum, so its cotangent contributes nothing
    np.testing.assert_allclose(cts[-1][1], u - out[0], rtol=1e-7, atol=1e-9)
    _, dout = frule(autograd_config, _tangents(positional, Tangent(tuple, ZeroTangent(), XBAR)), f, *positional,
                    full_output=True, retall=True, **kwargs)
    assert isinstance(dout[3], NoTangent) and isinstance(dout[7], NoTangent)
    np.testing.assert_allclose(dout[2], 0.0, atol=1e-12)
    assert dout[1] == pytest.approx(-out[0] @ XBAR, rel=1e-7)
    out, pullback = rrule(autograd_config, f, *positional, retall=True, **kwargs)   # (xopt, allvecs)
    assert len(out) == 2 and isinstance(out[1], list)
    np.testing.assert_allclose(pullback(Tangent(tuple, XBAR, NoTangent()))[-1][1], u, rtol=1e-7)
    with pytest.raises(ProjectionError, match="fmin_bfgs"):
        pullback(Tangent(tuple, XBAR))


def test_active_bound_of_fmin_l_bfgs_b(autograd_config):
    # x[2] <= 0.2 active: it does not move, the free coordinates solve the reduced system
    bounds = [(None, None), (None, None), (None, 0.2)]
    out, pullback = rrule(autograd_config, so.fmin_l_bfgs_b, quadratic, np.zeros(3), gradient, (A, B),
                          bounds=bounds, pgtol=1e-12, factr=10)
    assert out[0][2] == 0.2
    db = pullback(Tangent(tuple, XBAR, NoTangent(), NoTangent()))[4][1]
    expected = np.zeros(3)
    expected[:2] = np.linalg.solve(A[:2, :2], XBAR[:2])
    np.testing.assert_allclose(db, expected, rtol=1e-7, atol=1e-9)
    _, pullback = rrule(autograd_config, so.fmin_l_bfgs_b, quadratic, np.zeros(3), gradient, (A, B), 0, bounds,
                        pgtol=1e-12, factr=10)
    assert isinstance(pullback(Tangent(tuple, XBAR, NoTangent(), NoTangent()))[6], NotImplementedTangent)


def test_not_converged_raises(autograd_config):
    _, pullback = rrule(autograd_config, so.fmin_bfgs, quadratic, np.zeros(3), gradient, (A, B), maxiter=1, disp=0)
    with pytest.raises(ImplicitDerivativeError, match="fmin_bfgs did not converge"):
        pullback(XBAR)
    for f in (so.brent, so.golden):  # no flag: maxiter used up, and the Newton step from x is not small
        _, pullback = rrule(autograd_config, f, quartic, (0.7,), maxiter=2)
        with pytest.raises(ImplicitDerivativeError, match=f"{f.__name__} did not converge"):
            pullback(1.0)
    # brent at its maxiter on a point it happened to hit exactly (x = 1 at t = 2) is certified by the Newton step
    _, pullback = rrule(autograd_config, so.brent, quartic, (2.0,), maxiter=2)
    assert pullback(1.0)[-1][0] == pytest.approx(0.25, rel=1e-10)


def test_args_by_keyword_are_constants(autograd_config):
    _, pullback = rrule(autograd_config, so.fmin_cg, quadratic, np.zeros(3), gradient, args=(A, B), gtol=1e-10,
                        disp=0)
    assert len(pullback(XBAR)) == 4  # no slot for args


# ---- fmin_slsqp: constraints that take the objective's args -------------------------------------------------------
def shifted(x, a, b, s):
    return quadratic(x, a, b)


def plane(x, a, b, s):  # sum(x) = s: the constraint moves with the parameter s
    return anp.sum(x) - s


SLSQP = {"iprint": 0, "acc": 1e-15, "full_output": True}


def test_fmin_slsqp_live_constraint_closed_form(autograd_config):
    # [[A, 1], [1^T, 0]] [x; nu] = [b; s]: dx/db and dx/ds are blocks of that matrix's inverse; f* = q(x*(b, s))
    ones = np.ones((1, 3))
    kkt_inverse = np.linalg.inv(np.block([[A, ones.T], [ones, np.zeros((1, 1))]]))
    s = 2.0
    positional = (shifted, np.zeros(3), [plane], None, (), None, (), autograd.grad(shifted), None, None, (A, B, s))
    out, pullback = rrule(autograd_config, so.fmin_slsqp, *positional, **SLSQP)
    x = out[0]
    assert out[3] == 0
    np.testing.assert_allclose(x, kkt_inverse[:3] @ np.r_[B, s], rtol=1e-10)
    no = NoTangent()
    _, db, ds = pullback(Tangent(tuple, XBAR, 1.0, no, no, no))[11]
    dfdx = A @ x - B  # grad f at x*: not zero (the constraint holds x*), so f* moves with x*
    np.testing.assert_allclose(db, kkt_inverse[:3, :3].T @ (XBAR + dfdx) - x, rtol=1e-9, atol=1e-12)
    assert ds == pytest.approx(kkt_inverse[:3, 3] @ (XBAR + dfdx), rel=1e-9)
    tangents = [no] * 12
    tangents[11] = Tangent(tuple, ZeroTangent(), ZeroTangent(), 1.0)
    _, dout = frule(autograd_config, tuple(tangents), so.fmin_slsqp, *positional, **SLSQP)
    np.testing.assert_allclose(dout[0], kkt_inverse[:3, 3], rtol=1e-9)
    assert dout[1] == pytest.approx(dfdx @ kkt_inverse[:3, 3], rel=1e-9)


def curved(x, a, t):
    return 0.5 * x @ a @ x - t * anp.sum(x) + 0.1 * anp.sum(anp.sin(x))


def ball(x, a, t):  # a ball of radius^2 0.4 whose centre moves with t: its gradient does too, across its normal
    return 0.4 - anp.sum((x - 0.1 * t * anp.array([1.0, 0.0, 0.0])) ** 2)


def test_fmin_slsqp_live_nonlinear_constraint_against_finite_differences(autograd_config):
    from chainrules.rulesets.optimize.minimize import _NOISY

    args = (A, 3.0)
    options = {"iprint": 0, "acc": 1e-14, "full_output": True}  # at 1e-15 its line search gives up (imode 8)
    out = so.fmin_slsqp(curved, np.zeros(3), ieqcons=[ball], args=args, fprime=autograd.grad(curved), **options)
    assert out[3] == 0 and abs(ball(out[0], *args)) < 1e-12  # the ball is active
    check(so.fmin_slsqp, curved, np.zeros(3), (), None, [ball], None, (), autograd.grad(curved), None, None, args,
          fkwargs=options, config=autograd_config, gauge_invariant=lambda out: (out[0], out[1]), fdm=_NOISY, rtol=1e-5,
          atol=1e-5)


def test_active_bounds_by_position_have_no_forward_derivative(autograd_config):
    bounds = [(None, None), (None, None), (None, 0.2)]
    no = NoTangent()
    tangents = (no, no, ZeroTangent(), ZeroTangent(), no, no, no, no, [(0.0, 0.0), (0.0, 0.0), (0.0, 1.0)])
    _, dres = frule(autograd_config, tangents, so.minimize, quadratic, np.zeros(3), (A, B), "L-BFGS-B", gradient,
                    None, None, bounds, options={"gtol": 1e-12, "ftol": 1e-16})
    assert isinstance(dres, NotImplementedTangent) and "active bounds" in dres.info
