"""The finite-difference core: grids and weights, adaptive step, max_range, NaN retry, Richardson."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from chainrules.testing import FiniteDifferenceMethod, backward_fdm, central_fdm, extrapolate, forward_fdm

CONSTRUCTORS = {"central": central_fdm, "forward": forward_fdm, "backward": backward_fdm}


class Recorder:
    """Wraps ``f`` and records every point it is evaluated at."""

    def __init__(self, f: Callable[[float], Any]) -> None:
        self.f = f
        self.points: list[float] = []

    def __call__(self, t: float) -> Any:
        self.points.append(float(t))
        return self.f(t)

    @property
    def count(self) -> int:
        return len(self.points)


def rel_error(estimate: Any, exact: Any) -> float:
    return float(np.max(np.abs(np.asarray(estimate) - exact) / np.abs(exact)))


# ---- grids and weights ----------------------------------------------------------------------------
@pytest.mark.parametrize(("make", "p", "grid"), [
    (central_fdm, 3, [-1, 0, 1]),
    (central_fdm, 4, [-2, -1, 1, 2]),
    (central_fdm, 5, [-2, -1, 0, 1, 2]),
    (forward_fdm, 3, [0, 1, 2]),
    (backward_fdm, 3, [-2, -1, 0]),
])
def test_grids(make, p, grid):
    assert make(p, 1).grid.astype(int).tolist() == grid


def test_textbook_weights():
    # Central differences: f'(x) ~ (f(x+h) - f(x-h)) / 2h and f''(x) ~ (f(x-h) - 2f(x) + f(x+h)) / h^2;
    # forward: f'(x) ~ (-3f(x) + 4f(x+h) - f(x+2h)) / 2h.
    np.testing.assert_allclose(central_fdm(3, 1).coefs, [-0.5, 0.0, 0.5], atol=1e-14)
    np.testing.assert_allclose(central_fdm(3, 2).coefs, [1.0, -2.0, 1.0], atol=1e-13)
    np.testing.assert_allclose(forward_fdm(3, 1).coefs, [-1.5, 2.0, -0.5], atol=1e-13)
    np.testing.assert_allclose(backward_fdm(2, 1).coefs, [-1.0, 1.0], atol=1e-14)


@pytest.mark.parametrize("kind", sorted(CONSTRUCTORS))
@pytest.mark.parametrize("p", [2, 3, 4, 5, 6, 7])
def test_polynomials_below_degree_p_are_differentiated_exactly(kind, p):
    rng = np.random.default_rng(p)
    for q in range(1, min(p, 4)):
        method = CONSTRUCTORS[kind](p, q, adapt=0)
        for degree in range(p):
            coefs = rng.standard_normal(degree + 1)
            poly = np.polynomial.Polynomial(coefs)
            exact = poly.deriv(q)(0.3) if degree >= q else 0.0
            estimate = method(poly, 0.3, step=0.5)
            assert abs(estimate - exact) <= 1e-9 * (1 + np.sum(np.abs(coefs))), (kind, p, q, degree)


@pytest.mark.parametrize("kind", sorted(CONSTRUCTORS))
def test_a_polynomial_of_degree_p_is_not_exact(kind):
    """Degree p is the first the weights cannot see: the estimate is then off by O(h^(p-q))."""
    method = CONSTRUCTORS[kind](5, 1, adapt=0)
    x5 = np.polynomial.Polynomial([0, 0, 0, 0, 0, 1])
    assert abs(method(x5, 0.3, step=0.5) - 5 * 0.3 ** 4) > 1e-3


@pytest.mark.parametrize(("kind", "p", "order"), [("central", 3, 2), ("central", 5, 4), ("forward", 3, 2),
                                                  ("backward", 4, 3)])
def test_order_of_accuracy(kind, p, order):
    """Halving the step divides the truncation error by about 2^(p - q) (2^(p - 1 - q) + 1 for odd central)."""
    method = CONSTRUCTORS[kind](p, 1, adapt=0)
    errors = [abs(method(np.sin, 1.0, step=h) - np.cos(1.0)) for h in (0.2, 0.1)]
    assert 2 ** (order - 0.3) < errors[0] / errors[1] < 2 ** (order + 0.3)


def test_zero_weights_are_not_evaluated():
    f = Recorder(np.sin)
    central_fdm(5, 1, adapt=0)(f, 1.0)
    assert f.count == 4 and 1.0 not in f.points


def test_invalid_methods_are_rejected():
    with pytest.raises(ValueError, match="cannot estimate a derivative of order 3"):
        central_fdm(3, 3)
    with pytest.raises(ValueError, match="distinct"):
        FiniteDifferenceMethod([0, 1, 1], 1)
    with pytest.raises(ValueError, match="max_range must be positive"):
        central_fdm(5, 1, max_range=0.0)


def test_repr_names_the_method():
    assert repr(central_fdm(3, 1)) == "FiniteDifferenceMethod(central, grid=[-1, 0, 1], q=1, adapt=1, max_range=inf)"


# ---- derivatives of higher order ------------------------------------------------------------------
@pytest.mark.parametrize(("method", "f", "x", "exact", "tol"), [
    (central_fdm(5, 2), np.sin, 1.0, -np.sin(1.0), 1e-7),
    (central_fdm(7, 3), np.exp, 0.5, np.exp(0.5), 1e-5),
    (central_fdm(9, 4), np.cos, 0.3, np.cos(0.3), 1e-3),
    (forward_fdm(6, 2), np.log, 2.0, -0.25, 1e-6),
    (backward_fdm(6, 2), np.exp, -1.0, np.exp(-1.0), 1e-6),
])
def test_derivatives_of_higher_order(method, f, x, exact, tol):
    assert rel_error(method(f, x), exact) < tol


# ---- the adaptive step ------------------------------------------------------------------------------
@pytest.mark.parametrize(("f", "x", "exact", "tol"), [
    (np.exp, 30.0, np.exp(30.0), 1e-10),
    (np.sin, 1.0, np.cos(1.0), 1e-11),
    (lambda t: 1 / t, 0.01, -1e4, 1e-9),
    (lambda t: 1e8 * np.sin(t), 1.0, 1e8 * np.cos(1.0), 1e-10),
    (lambda t: 1e-8 * np.sin(t), 1.0, 1e-8 * np.cos(1.0), 1e-10),
])
def test_adaptive_step_is_accurate_over_scales(f, x, exact, tol):
    assert rel_error(central_fdm(5, 1)(f, x), exact) < tol


def test_adaptive_step_follows_the_function():
    """A function that varies faster needs a smaller step; a noisier one (float32) a larger one."""
    method = central_fdm(5, 1)
    slow, _ = method.estimate_step(np.sin, 1.0)
    fast, _ = method.estimate_step(lambda t: np.sin(100 * t), 1.0)
    coarse, _ = method.estimate_step(lambda t: np.sin(np.float32(t)), 1.0)
    assert fast < slow / 10
    assert coarse > 10 * slow


def test_adaptive_step_beats_the_default_step_on_a_badly_scaled_function():
    f = lambda t: np.exp(50 * t)  # noqa: E731
    exact = 50 * np.exp(50 * 0.2)
    adaptive = rel_error(central_fdm(5, 1)(f, 0.2), exact)
    fixed = rel_error(central_fdm(5, 1, adapt=0)(f, 0.2), exact)
    assert adaptive < 1e-9 < fixed


def test_function_rounding_like_float32_is_differentiated_to_float32_accuracy():
    """The round-off estimate follows the precision of f's values."""
    estimate = central_fdm(5, 1)(lambda t: np.sin(np.float32(t)), 0.7)
    assert rel_error(estimate, np.cos(0.7)) < 1e-5


def test_vector_valued_function():
    f = lambda t: np.array([np.sin(t), np.exp(t), t ** 3])  # noqa: E731
    exact = np.array([np.cos(0.7), np.exp(0.7), 3 * 0.7 ** 2])
    assert rel_error(central_fdm(5, 1)(f, 0.7), exact) < 1e-11


# ---- max_range --------------------------------------------------------------------------------------
@pytest.mark.parametrize("max_range", [1e-1, 1e-2, 1e-4])
@pytest.mark.parametrize("kind", sorted(CONSTRUCTORS))
def test_max_range_bounds_every_evaluation(kind, max_range):
    f = Recorder(np.exp)
    estimate = CONSTRUCTORS[kind](5, 1, max_range=max_range)(f, 2.0)
    assert max(abs(t - 2.0) for t in f.points) <= max_range + 4 * np.spacing(2.0)
    assert f.count <= 12  # the bound estimator (6 points) and the method (at most 5)
    assert rel_error(estimate, np.exp(2.0)) < 1e-6


def test_forward_and_backward_stay_on_their_side():
    right, left = Recorder(np.sqrt), Recorder(lambda t: np.sqrt(-t))
    forward_fdm(5, 1)(right, 0.0 + 1e-2)
    backward_fdm(5, 1)(left, -1e-2)
    assert min(right.points) >= 1e-2 and max(left.points) <= -1e-2


def test_max_range_keeps_the_steps_off_a_nearby_kink():
    f = lambda t: abs(t - 0.05) + t ** 2  # noqa: E731  -- a kink 0.05 to the right of 0
    recorder = Recorder(f)
    estimate = central_fdm(5, 1, max_range=0.04)(recorder, 0.0)
    assert max(recorder.points) < 0.05
    assert abs(estimate + 1.0) < 1e-10


# ---- retrying closer in when f is not finite --------------------------------------------------------
@pytest.mark.parametrize(("f", "x", "exact"), [
    (np.log, 1e-3, 1e3),
    (np.log, 1e-6, 1e6),
    (np.sqrt, 1e-4, 0.5 / np.sqrt(1e-4)),
    (np.sqrt, 1e-8, 0.5 / np.sqrt(1e-8)),
    (np.arcsin, 1 - 1e-4, 1 / np.sqrt(1 - (1 - 1e-4) ** 2)),
])
def test_steps_are_halved_until_f_is_finite(f, x, exact):
    recorder = Recorder(f)
    estimate = central_fdm(5, 1)(recorder, x)
    assert rel_error(estimate, exact) < 1e-8
    assert recorder.count < 60  # a failed attempt costs one evaluation (outermost point first)


def test_no_step_helps_when_f_is_not_finite_at_x():
    recorder = Recorder(np.log)
    estimate = central_fdm(5, 1)(recorder, -1.0)
    assert np.isnan(estimate)
    assert recorder.count < 30


# ---- Richardson extrapolation ---------------------------------------------------------------------
@pytest.mark.parametrize(("method", "f", "x", "exact", "tol"), [
    (central_fdm(3, 1, adapt=0), np.sin, 1.0, np.cos(1.0), 1e-11),
    (central_fdm(4, 1, adapt=0), np.sin, 1.0, np.cos(1.0), 1e-11),
    (forward_fdm(2, 1, adapt=0), np.exp, 0.5, np.exp(0.5), 1e-9),
    (central_fdm(3, 2, adapt=0), np.exp, 0.5, np.exp(0.5), 1e-8),  # second derivative: round-off / h^2
    (central_fdm(3, 1, adapt=0), np.log, 1e-3, 1e3, 1e-9),
])
def test_richardson_extrapolation(method, f, x, exact, tol):
    estimate, error = extrapolate(method, f, x)
    plain = method(f, x, step=0.1 if x > 0.1 else x / 2)
    assert rel_error(estimate, exact) < tol
    assert rel_error(estimate, exact) < rel_error(plain, exact) / 100
    assert error < 1e-6 * abs(exact)


def test_richardson_stops_at_the_requested_tolerance():
    f = Recorder(np.sin)
    estimate, _ = extrapolate(central_fdm(3, 1, adapt=0), f, 1.0, rtol=1e-6)
    loose = f.count
    f.points.clear()
    extrapolate(central_fdm(3, 1, adapt=0), f, 1.0)
    assert loose < f.count
    assert abs(estimate - np.cos(1.0)) < 1e-6


def test_richardson_respects_max_range():
    f = Recorder(np.exp)
    extrapolate(central_fdm(3, 1, adapt=0, max_range=1e-3), f, 1.0)
    assert max(abs(t - 1.0) for t in f.points) <= 1e-3 + 4 * np.spacing(1.0)


def test_richardson_rejects_a_bad_contraction():
    with pytest.raises(ValueError, match="contract"):
        extrapolate(central_fdm(3, 1), np.sin, 1.0, contract=1.5)


def test_the_default_step_is_the_classical_optimum():
    """With |f| ~ |f'''| ~ 1 the 3-point central step is (3 * condition * eps)^(1/3) (Sauer, section 5.1)."""
    eps = np.finfo(np.float64).eps
    # c1 = condition * eps * sum|c| = 10 eps, c2 = sum|c g^3| / 3! = 1/6: h = (c1 / (2 c2))^(1/3).
    assert math.isclose(central_fdm(3, 1).default_step(), (30 * eps) ** (1 / 3), rel_tol=1e-12)
