"""Rules of chainrules/rulesets/optimize/global_optimizers.py.

The global optimisers that end with a local minimisation are checked against the closed form
of a quadratic's minimiser (``db = A^{-1} x_bar``, exact whatever the local solver's accuracy,
since ``H`` and ``M`` are constant); those that return a sampled point are not differentiated.
"""

from __future__ import annotations

import autograd.numpy as anp
import numpy as np
import pytest
import scipy.optimize as so

from chainrules.rulesets.optimize import ImplicitDerivativeError
from chainrules_core import NoTangent, NotImplementedTangent, Tangent, ZeroTangent, frule, rrule

A = np.array([[3.0, 0.5], [0.5, 2.0]])
B = np.array([1.0, -0.5])
BOX = [(-2.0, 2.0), (-2.0, 2.0)]
XBAR = np.array([1.0, -2.0])


def quadratic(x, a, b):
    return 0.5 * x @ a @ x - b @ x


CALLS = {
    "differential_evolution": (so.differential_evolution, (BOX, (A, B)), {"rng": 1, "popsize": 5, "maxiter": 20}),
    "dual_annealing": (so.dual_annealing, (BOX, (A, B)), {"rng": 1, "maxiter": 20}),
    "shgo": (so.shgo, (BOX, (A, B)), {"n": 8, "iters": 1, "sampling_method": "halton"}),
    "basinhopping": (so.basinhopping, (np.zeros(2), 3, 1.0, 0.5, {"args": (A, B), "method": "BFGS"}), {"rng": 1}),
}


@pytest.mark.parametrize("name", list(CALLS))
def test_global_optimiser_closed_form(name, autograd_config):
    f, args, kwargs = CALLS[name]
    res, pullback = rrule(autograd_config, f, quadratic, *args, **kwargs)
    assert res.success
    np.testing.assert_allclose(res.x, np.linalg.solve(A, B), atol=1e-5)
    cotangents = pullback(Tangent(type(res), {"x": XBAR}))
    position = 6 if name == "basinhopping" else 3  # the cotangent of minimizer_kwargs, or of args
    dparams = cotangents[position]
    db = dparams["args"][1] if name == "basinhopping" else dparams[1]
    np.testing.assert_allclose(db, np.linalg.solve(A, XBAR), rtol=1e-7)
    if name != "basinhopping":
        assert cotangents[2] == ZeroTangent()  # the box is inactive
        _, dres = frule(autograd_config, (NoTangent(), NoTangent(), ZeroTangent(), Tangent(tuple, ZeroTangent(),
                                                                                           XBAR)),
                        f, quadratic, *args, **kwargs)
        np.testing.assert_allclose(dres["x"], np.linalg.solve(A, XBAR), rtol=1e-7)
        assert dres["fun"] == pytest.approx(-res.x @ XBAR, rel=1e-5)


def test_differential_evolution_active_bound(autograd_config):
    # the box cuts the minimiser's second coordinate off: it stays on the bound
    res, pullback = rrule(autograd_config, so.differential_evolution, quadratic, [(-2.0, 2.0), (0.0, 2.0)], (A, B),
                          rng=1, popsize=5, maxiter=20)
    assert res.x[1] == pytest.approx(0.0, abs=1e-12)
    db = pullback(Tangent(type(res), {"x": XBAR}))[3][1]
    np.testing.assert_allclose(db, [XBAR[0] / A[0, 0], 0.0], rtol=1e-7, atol=1e-12)
    assert isinstance(pullback(Tangent(type(res), {"x": XBAR}))[2], NotImplementedTangent)  # active bounds by position


@pytest.mark.parametrize(("f", "options"), [(so.differential_evolution, {"polish": False, "rng": 1}),
                                             (so.dual_annealing, {"no_local_search": True, "rng": 1})],
                         ids=["de-unpolished", "annealing-without-local-search"])
def test_sampled_answers_are_not_differentiated(f, options, autograd_config):
    res, pullback = rrule(autograd_config, f, quadratic, BOX, (A, B), **options)
    dargs = pullback(Tangent(type(res), {"x": XBAR}))[3]
    assert isinstance(dargs, NotImplementedTangent) and "minimize(x0=res.x)" in dargs.info


def test_direct_is_not_differentiated():
    def f(x, t):
        return float(np.sum((x - 0.3) ** 2))

    res, pullback = rrule(so.direct, lambda x: f(x, 0.0), BOX)
    assert isinstance(pullback(Tangent(type(res), {"x": XBAR}))[2], NotImplementedTangent)
    assert pullback(ZeroTangent())[2] == ZeroTangent()
    _, dres = frule((NoTangent(), NoTangent(), [(1.0, 0.0), (0.0, 0.0)]), so.direct, lambda x: f(x, 0.0), BOX)
    assert isinstance(dres, NotImplementedTangent)


def test_shgo_inactive_constraint_with_autograd(autograd_config):
    far = {"type": "ineq", "fun": lambda x: 10.0 - anp.sum(x ** 2)}
    res, pullback = rrule(autograd_config, so.shgo, quadratic, BOX, (A, B), far, n=8, iters=1,
                          sampling_method="halton")
    np.testing.assert_allclose(pullback(Tangent(type(res), {"x": XBAR}))[3][1], np.linalg.solve(A, XBAR), rtol=1e-7)


# ---- brute --------------------------------------------------------------------------------------------------------
def _brute_quadratic(x, a, b):
    return 0.5 * x @ a @ x - b @ x


def _tight_fmin(func, x0, args=(), full_output=0, disp=0):
    return so.fmin(func, x0, args, xtol=1e-13, ftol=1e-15, maxiter=20000, maxfun=20000, full_output=full_output,
                   disp=disp)


def test_brute_closed_form_and_outputs(autograd_config):
    a, b = np.array([[3.0, 0.5], [0.5, 2.0]]), np.array([1.0, -0.5])
    ranges = ((-2.0, 2.0), (-2.0, 2.0))
    out, pullback = rrule(autograd_config, so.brute, _brute_quadratic, ranges, (a, b), 9, True, _tight_fmin)
    x = out[0]
    np.testing.assert_allclose(x, np.linalg.solve(a, b), rtol=1e-7)  # Nelder-Mead: ~1e-8 at best
    xbar = np.array([1.0, -2.0])
    no = NoTangent()
    cts = pullback(Tangent(tuple, xbar, 1.0, no, no))
    np.testing.assert_allclose(cts[3][1], np.linalg.solve(a, xbar) - x, rtol=1e-8, atol=1e-10)  # IFT + envelope
    assert cts[2] == ZeroTangent()  # ranges
    jout = pullback(Tangent(tuple, no, no, no, np.ones_like(out[3])))[3]
    assert isinstance(jout, NotImplementedTangent) and "Jout" in jout.info
    _, dout = frule(autograd_config, (no, no, no, Tangent(tuple, ZeroTangent(), xbar), no, no, no), so.brute,
                    _brute_quadratic, ranges, (a, b), 9, True, _tight_fmin)
    np.testing.assert_allclose(dout[0], np.linalg.solve(a, xbar), rtol=1e-8)
    assert dout[1] == pytest.approx(-x @ xbar, rel=1e-8)


def test_brute_grid_point_and_loose_finish(autograd_config):
    a, b = np.array([[3.0, 0.5], [0.5, 2.0]]), np.array([1.0, -0.5])
    ranges = ((-2.0, 2.0), (-2.0, 2.0))
    _, pullback = rrule(autograd_config, so.brute, _brute_quadratic, ranges, (a, b), finish=None)
    dargs = pullback(np.ones(2))[3]
    assert isinstance(dargs, NotImplementedTangent) and "grid point" in dargs.info
    # the default finish (fmin, xtol=1e-4) stops too early for an implicit derivative: the Newton step says so
    _, pullback = rrule(autograd_config, so.brute, _brute_quadratic, ranges, (a, b))
    with pytest.raises(ImplicitDerivativeError, match="Newton step"):
        pullback(np.ones(2))
