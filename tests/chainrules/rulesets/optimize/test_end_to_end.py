"""scipy.optimize through autograd, end to end: ``primitive(f)`` and ``autograd.grad`` / ``make_jvp``.

``args`` by position and by keyword (the bridge binds a traced keyword to its position), outputs
that are arrays, tuples and ``OptimizeResult`` s (autograd traces their floating fields:
:mod:`chainrules.interop.autograd.results`), checked against closed forms.
"""

from __future__ import annotations

import autograd
import autograd.numpy as anp
import numpy as np
import pytest
import scipy.optimize as so

from chainrules.interop.autograd import primitive

T = np.array([2.0, 3.0])


def square(x, t):
    return x ** 2 - t


@pytest.mark.parametrize("keyword", [False, True], ids=["args by position", "args by keyword"])
def test_root_and_fsolve(keyword):
    root, fsolve = primitive(so.root), primitive(so.fsolve)

    def via_root(t):
        res = root(square, np.ones(2), args=(t,), tol=1e-13) if keyword else root(square, np.ones(2), (t,), tol=1e-13)
        return anp.sum(res.x)

    def via_fsolve(t):
        x = fsolve(square, np.ones(2), args=(t,), xtol=1e-13) if keyword else fsolve(square, np.ones(2), (t,),
                                                                                       xtol=1e-13)
        return anp.sum(x)

    for f in (via_root, via_fsolve):
        np.testing.assert_allclose(autograd.grad(f)(T), 0.5 / np.sqrt(T), rtol=1e-10)


def test_scalar_roots_and_fixed_point():
    brentq, newton, fixed_point = primitive(so.brentq), primitive(so.newton), primitive(so.fixed_point)
    root_scalar = primitive(so.root_scalar)
    assert autograd.grad(lambda t: brentq(square, 0.0, 3.0, (t,), xtol=1e-14))(2.0) == pytest.approx(
        0.5 / np.sqrt(2.0), rel=1e-12)
    assert autograd.grad(lambda t: root_scalar(square, (t,), bracket=[0.0, 3.0], xtol=1e-14).root)(
        2.0) == pytest.approx(0.5 / np.sqrt(2.0), rel=1e-12)
    np.testing.assert_allclose(autograd.grad(lambda t: anp.sum(newton(square, np.ones(2), args=(t,), tol=1e-14)))(T),
                               0.5 / np.sqrt(T), rtol=1e-12)
    x = so.fixed_point(lambda x, t: t * np.cos(x), 0.3, (0.5,), xtol=1e-14)
    assert autograd.grad(lambda t: fixed_point(lambda x, t: t * anp.cos(x), 0.3, (t,), xtol=1e-14))(
        0.5) == pytest.approx(np.cos(x) / (1 + 0.5 * np.sin(x)), rel=1e-10)


def test_minimize_reverse_and_forward():
    minimize = primitive(so.minimize)
    a = np.array([[3.0, 0.5], [0.5, 2.0]])

    def objective(x, b):
        return 0.5 * x @ a @ x - b @ x

    def argmin(b):
        return minimize(objective, np.zeros(2), args=(b,), jac=lambda x, b: a @ x - b, tol=1e-10).x

    b = np.array([1.0, -0.5])
    np.testing.assert_allclose(autograd.jacobian(argmin)(b), np.linalg.inv(a), rtol=1e-8)
    np.testing.assert_allclose(autograd.make_jvp(argmin)(b)(np.array([1.0, 0.0]))[1], np.linalg.inv(a)[:, 0],
                               rtol=1e-8)
    value = autograd.grad(lambda b: minimize(objective, np.zeros(2), (b,), tol=1e-10).fun)(b)
    np.testing.assert_allclose(value, -np.linalg.solve(a, b), rtol=1e-6)      # the envelope theorem: -x*


def test_least_squares_and_curve_fit():
    least_squares, curve_fit = primitive(so.least_squares), primitive(so.curve_fit)
    a = np.array([[1.0, 0.0], [1.0, 1.0], [1.0, 2.0]])

    def solution(y):
        return least_squares(lambda p, y: a @ p - y, np.zeros(2), args=(y,), xtol=1e-15, ftol=1e-15).x

    y = np.array([1.0, 2.5, 2.9])
    np.testing.assert_allclose(autograd.jacobian(solution)(y), np.linalg.pinv(a), rtol=1e-8, atol=1e-12)
    line = autograd.jacobian(lambda y: curve_fit(lambda t, m, c: m * t + c, np.arange(3.0), y)[0])(y)
    np.testing.assert_allclose(line, np.linalg.pinv(a)[::-1], rtol=1e-8, atol=1e-12)      # (slope, intercept)


def test_minimize_scalar_and_a_global_optimiser():
    minimize_scalar, shgo = primitive(so.minimize_scalar), primitive(so.shgo)

    def quartic(x, t):
        return 0.25 * x ** 4 + 0.5 * x ** 2 - t * x

    assert autograd.grad(lambda t: minimize_scalar(quartic, args=(t,), tol=1e-12).x)(2.0) == pytest.approx(
        0.25, rel=1e-7)                                                    # x**3 + x = t at x = 1
    b = np.array([1.0, -0.5])
    grad = autograd.grad(lambda b: shgo(lambda x, b: anp.sum((x - b) ** 2), [(-2.0, 2.0)] * 2, (b,), n=8, iters=1,
                                        sampling_method="halton").x[0])(b)
    np.testing.assert_allclose(grad, [1.0, 0.0], atol=1e-8)
