"""Rules of chainrules/rulesets/special/incomplete_gamma.py: finite differences at every regime, the shape
derivatives against mpmath at 30 digits, the edges, the switch between the series and the continued fraction."""

from __future__ import annotations

import mpmath as mp
import numpy as np
import pytest
import scipy.special as sc

import chainrules  # noqa: F401  (registers the rules)
import chainrules.rulesets.special.incomplete_gamma as ig
from chainrules.testing import PrimalAndTangent, test_frule, test_rrule
from chainrules_core import NoTangent, NotImplementedTangent, frule, rrule, unthunk

mp.mp.dps = 30

# (a, x): small a, series, series at x ~ a, the fraction, integer a (terminating fraction), large a on both sides
REGIMES = [(0.05, 1e-3), (0.05, 3.0), (0.7, 0.5), (3.0, 2.5), (3.0, 9.0), (4.0, 30.0), (0.3, 60.0), (150.0, 140.0),
           (150.0, 165.0), (1.5, 1e-4)]


@pytest.mark.parametrize("f", [sc.gammainc, sc.gammaincc])
@pytest.mark.parametrize(("a", "x"), REGIMES)
def test_against_finite_differences_in_every_regime(f, a, x):
    test_frule(f, a, x)
    test_rrule(f, a, x)


@pytest.mark.parametrize("f", [sc.gammainc, sc.gammaincc])
def test_arrays_broadcasting_float32_and_integer_shape(f):
    a = np.array([[0.8], [6.0]])
    x = np.array([0.3, 7.0, 12.0])
    test_rrule(f, a, x)
    test_frule(f, a, x)
    test_rrule(f, a.astype(np.float32), x.astype(np.float32))
    _, pullback = rrule(f, a.astype(np.float32), x.astype(np.float32))
    _, da, dx = pullback(np.ones((2, 3), dtype=np.float32))
    assert unthunk(da).dtype == np.float32 and unthunk(dx).dtype == np.float32
    _, pullback = rrule(f, 3, x)
    assert pullback(np.ones(3))[1] == NoTangent()  # an integer shape is not differentiated
    test_rrule(f, 3, x)


def _mp_dp_da(a, x):
    """d/da P(a, x) by mpmath at 30 digits (differentiating the smaller of P and Q, which mpmath resolves)."""
    if x > a:
        return -mp.diff(lambda t: mp.gammainc(t, x, mp.inf, regularized=True), a)
    return mp.diff(lambda t: mp.gammainc(t, 0, x, regularized=True), a)


# a from small to large, x / a from 0.01 to 4 (both expansions, both sides of x ~ a), and far tails
MP_GRID = ([(a, r * a) for a in (0.05, 1.0, 7.5, 200.0) for r in (0.01, 0.6, 1.0, 1.3, 4.0)
            if (a, r) != (200.0, 0.01)]  # dP/da(200, 2) ~ 1e-315 is subnormal
           + [(0.05, 2.0), (2.0, 40.0), (200.0, 120.0)])


def test_shape_derivative_against_mpmath():
    worst = 0.0
    for a, x in MP_GRID:
        expected = _mp_dp_da(a, x)
        got = ig.gammainc_da(a, x)
        worst = max(worst, abs(float((got - expected) / expected)))
        _, pullback = rrule(sc.gammaincc, a, x)
        dq = unthunk(pullback(1.0)[1])
        worst = max(worst, abs(float((dq + expected) / expected)))
    assert worst <= 1e-12, worst


def _mp_solve(a, p, upper):
    """x with P(a, x) = p (or Q(a, x) = p) by mpmath's root finder, from SciPy's float64 solution."""
    if upper:
        def target(z):
            return mp.gammainc(a, z, mp.inf, regularized=True) - p
    else:
        def target(z):
            return mp.gammainc(a, 0, z, regularized=True) - p
    start = sc.gammainccinv(float(a), float(p)) if upper else sc.gammaincinv(float(a), float(p))
    return mp.findroot(target, mp.mpf(start))


def _mp_inverse(a, p, upper):
    """(dx/da, dx/dp) of the inverse, differentiating mpmath's root in each argument."""
    return mp.diff(lambda t: _mp_solve(t, p, upper), a), mp.diff(lambda q: _mp_solve(a, q, upper), p)


@pytest.mark.parametrize(("f", "upper"), [(sc.gammaincinv, False), (sc.gammainccinv, True)])
def test_inverse_derivatives_against_mpmath(f, upper):
    worst = 0.0
    for a, p in [(0.3, 0.2), (2.5, 0.5), (2.5, 0.97), (40.0, 0.05), (40.0, 0.9)]:
        expected_a, expected_p = _mp_inverse(a, p, upper)
        _, pullback = rrule(f, a, p)
        _, da, dp = (unthunk(c) for c in pullback(1.0))
        worst = max(worst, abs(float((da - expected_a) / expected_a)), abs(float((dp - expected_p) / expected_p)))
    assert worst <= 1e-10, worst


@pytest.mark.parametrize("f", [sc.gammaincinv, sc.gammainccinv])
@pytest.mark.parametrize(("a", "p"), [(0.05, 0.3), (0.7, 0.5), (3.0, 0.02), (3.0, 0.98), (150.0, 0.4)])
def test_inverses_against_finite_differences(f, a, p):
    test_rrule(f, a, p)
    test_frule(f, a, p)


def test_series_and_fraction_agree_at_the_switch():
    # The series runs for x < a + 1, the fraction from x = a + 1: the derivative is continuous there.
    for a in (0.5, 5.0, 300.0):
        below, above = np.nextafter(a + 1, 0), a + 1.0
        assert np.isclose(ig.gammainc_da(a, below), ig.gammainc_da(a, above), rtol=1e-13, atol=0)


def test_edges():
    # P(a, 0) = 0 and P(a, inf) = 1 for every a: no derivative in a; at a = 0 the one-sided limit -E1(x).
    assert ig.gammainc_da(2.0, 0.0) == 0.0 and ig.gammainc_da(2.0, np.inf) == 0.0
    h = mp.mpf("1e-25")  # a one-sided difference at 60 digits (mpmath's diff steps through a = 0)
    with mp.workdps(60):
        right = (mp.gammainc(h, 0, 1.5, regularized=True) - 1) / h
    assert np.isclose(ig.gammainc_da(0.0, 1.5), float(right), rtol=1e-12)
    assert ig.gammainc_dx(1.0, 0.0) == 1.0 and ig.gammainc_dx(0.5, 0.0) == np.inf and ig.gammainc_dx(2.0, 0.0) == 0
    assert np.isnan(ig.gammainc_da(-1.0, 1.0))  # outside the domain, like the primal
    # inverse at p = 0: x = 0 for every a
    _, pullback = rrule(sc.gammaincinv, 2.0, 0.0)
    assert unthunk(pullback(1.0)[1]) == 0.0 and unthunk(pullback(1.0)[2]) == np.inf


def test_not_implemented_beyond_the_term_budget(monkeypatch):
    monkeypatch.setattr(ig, "MAX_TERMS", 40)
    _, pullback = rrule(sc.gammainc, np.array([2.0, 1e4]), np.array([1.0, 1e4]))
    _, da, dx = (unthunk(c) for c in pullback(np.ones(2)))
    assert isinstance(da, NotImplementedTangent) and "did not converge" in da.info
    assert np.all(np.isfinite(dx))  # the x derivative is unaffected
    _, dy = frule((NoTangent(), np.ones(2), np.zeros(2)), sc.gammainc, np.array([2.0, 1e4]), np.array([1.0, 1e4]))
    assert isinstance(dy, NotImplementedTangent)
    test_rrule(sc.gammainc, PrimalAndTangent(np.array([2.0, 1e4]), NoTangent()), np.array([1.0, 1e4]))


def test_large_shape_converges_within_the_budget():
    # a = 1e5 at x ~ a: about 3000 terms, accurate against mpmath
    a, x = 1e5, 1e5 + 100.0
    expected = _mp_dp_da(a, x)
    assert abs(float((ig.gammainc_da(a, x) - expected) / expected)) < 1e-10
