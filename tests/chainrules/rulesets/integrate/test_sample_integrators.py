"""Rules of the sample-based integrators (trapezoid.py, simpson.py, romberg.py).

Their samples (checked against finite differences in ``tests/chainrules/test_every_rule.py``)
cover one point per regime; here:

* closed forms: a rule exact for a polynomial integrates ``p(x)`` sampled at ``x`` to
  ``P(x[-1]) - P(x[0])``, whatever the interior points, so the total derivative with respect
  to the points (through ``y = p(x)`` and through ``x``) is zero inside and ``-p(x[0])``,
  ``p(x[-1])`` at the ends;
* the keyword-only arguments of SciPy's Simpson functions are constants;
* property tests: random shapes, axes and dtypes, frule against rrule (no finite differences).
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.integrate
from hypothesis import given, settings
from hypothesis import strategies as hs

import chainrules  # noqa: F401  (registers the rules)
from chainrules import NoTangent, ZeroTangent, frule, rrule, unthunk
from chainrules.rulesets.integrate.romberg import romberg_weights
from chainrules.testing import test_frule, test_rrule

PROPERTY = settings(max_examples=12, deadline=None, derandomize=True, database=None)


def _points(rng, n):
    return np.cumsum(rng.uniform(0.3, 1.0, n))


def _total_gradient(f, p, dp, x):
    """d/dx of f(p(x), x) from the rule's pullback: x_bar + y_bar * p'(x)."""
    _, pullback = rrule(f, p(x), x)
    _, y_bar, x_bar = (unthunk(c) for c in pullback(1.0))
    return x_bar + y_bar * dp(x)


@pytest.mark.parametrize("n", [5, 6])
def test_simpson_is_exact_for_parabolas(n):
    x = _points(np.random.default_rng(n), n)
    grad = _total_gradient(scipy.integrate.simpson, lambda t: 3 * t ** 2 - t, lambda t: 6 * t - 1, x)
    expected = np.zeros(n)
    expected[[0, -1]] = [-(3 * x[0] ** 2 - x[0]), 3 * x[-1] ** 2 - x[-1]]
    np.testing.assert_allclose(grad, expected, atol=1e-10 * np.max(x) ** 2)


@pytest.mark.parametrize("f", [scipy.integrate.trapezoid, np.trapezoid])
def test_trapezoid_is_exact_for_lines(f):
    x = _points(np.random.default_rng(1), 5)
    grad = _total_gradient(f, lambda t: 2 * t + 1, lambda t: 2 + 0 * t, x)
    np.testing.assert_allclose(grad, [-(2 * x[0] + 1), 0, 0, 0, 2 * x[-1] + 1], atol=1e-12)


def test_cumulative_simpson_is_exact_for_parabolas():
    """Every running integral of a parabola is exact, so its frule along y = p(x) gives p's integral."""
    x = _points(np.random.default_rng(2), 7)
    _, dI = frule((NoTangent(), x ** 2), scipy.integrate.cumulative_simpson, x ** 2 / 2, x=x)
    np.testing.assert_allclose(dI, (x[1:] ** 3 - x[0] ** 3) / 3, rtol=1e-12)


def test_romb_is_exact_for_polynomials_and_scales_with_dx():
    """romb with 2^k + 1 samples integrates polynomials of degree 2k + 1 exactly: d/d(dx) of the integral of
    t^5 over [0, 8 dx] is 8^6 dx^5."""
    dx = 0.3
    i = np.arange(9.0)
    _, dI = frule((NoTangent(), 5 * (i * dx) ** 4 * i, 1.0), scipy.integrate.romb, (i * dx) ** 5, dx)
    np.testing.assert_allclose(dI, 8.0 ** 6 * dx ** 5, rtol=1e-12)
    np.testing.assert_allclose(romberg_weights(5), np.array([7, 32, 12, 32, 7]) * 2 / 45, rtol=1e-14)  # Boole


def test_romberg_weights_reject_other_lengths():
    with pytest.raises(ValueError, match="not one plus a power of 2"):
        romberg_weights(6)


def test_keyword_only_arguments_are_constants():
    """SciPy takes simpson's dx and cumulative_simpson's x, dx and initial by keyword only: one cotangent per
    positional argument, and the keywords are held fixed in the checks."""
    rng = np.random.default_rng(3)
    y, x = rng.standard_normal(5), _points(rng, 5)
    _, pullback = rrule(scipy.integrate.simpson, y, dx=0.5)
    assert len(pullback(1.0)) == 2
    test_rrule(scipy.integrate.cumulative_simpson, y, fkwargs={"x": x, "initial": 0.5})
    test_frule(scipy.integrate.cumulative_simpson, y, fkwargs={"x": x, "initial": 0.5})
    _, pullback = rrule(scipy.integrate.cumulative_trapezoid, y, x)
    assert len(pullback(np.ones(4))) == 3


def test_cumulative_trapezoid_initial_and_dx_unused():
    rng = np.random.default_rng(4)
    y, x = rng.standard_normal(4), _points(rng, 4)
    _, pullback = rrule(scipy.integrate.cumulative_trapezoid, y, x, 2.0, -1, 0)
    cotangents = [unthunk(c) for c in pullback(np.ones(4))]
    assert isinstance(cotangents[3], ZeroTangent)   # dx is not used when x is given
    assert isinstance(cotangents[5], NoTangent)     # initial can only be 0


# ---- property tests ---------------------------------------------------------------------------------------
@hs.composite
def sampled(draw, min_n=2, power_of_two=False):
    """y of 1 to 3 dimensions, an axis, and points or a spacing (1-d, or of y's shape)."""
    ndim = draw(hs.integers(1, 3))
    axis = draw(hs.integers(-ndim, ndim - 1))
    n = 2 ** draw(hs.integers(0, 3)) + 1 if power_of_two else draw(hs.integers(min_n, 7))
    shape = [draw(hs.integers(1, 3)) for _ in range(ndim)]
    shape[axis] = n
    rng = np.random.default_rng(draw(hs.integers(0, 2 ** 16)))
    dtype = draw(hs.sampled_from([np.float64, np.float32, np.complex128]))
    y = rng.standard_normal(shape)
    if dtype == np.complex128:
        y = y + 1j * rng.standard_normal(shape)
    y = y.astype(dtype)
    x_kind = draw(hs.sampled_from(["none", "1d", "nd"]))
    x = None
    if x_kind == "1d":
        x = _points(rng, n)
    elif x_kind == "nd":
        x = np.moveaxis(np.cumsum(rng.uniform(0.3, 1.0, (*np.delete(shape, axis % ndim), n)), -1), -1, axis)
    return y, x, axis, rng


@PROPERTY
@given(case=sampled())
def test_trapezoids_adjoint(case, adjoint_check):
    y, x, axis, rng = case
    assert adjoint_check(scipy.integrate.trapezoid, y, x, float(rng.uniform(0.5, 2)), axis) == "checked"
    assert adjoint_check(scipy.integrate.cumulative_trapezoid, y, x, 0.5, axis, 0) == "checked"


@PROPERTY
@given(case=sampled())
def test_simpsons_adjoint(case, adjoint_check):
    y, x, axis, _ = case
    assert adjoint_check(scipy.integrate.simpson, y, x, fkwargs={"axis": axis}) == "checked"
    assert adjoint_check(scipy.integrate.cumulative_simpson, y, fkwargs={"x": x, "axis": axis}) == "checked"


@PROPERTY
@given(case=sampled(power_of_two=True))
def test_romb_adjoint(case, adjoint_check):
    y, _, axis, rng = case
    assert adjoint_check(scipy.integrate.romb, y, float(rng.uniform(0.5, 2)), axis) == "checked"
