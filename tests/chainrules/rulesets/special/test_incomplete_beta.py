"""Rules of chainrules/rulesets/special/incomplete_beta.py: finite differences in every regime, the shape
derivatives against mpmath at 30 digits, the edges, the switch to the symmetric fraction, the term budget."""

from __future__ import annotations

import mpmath as mp
import numpy as np
import pytest
import scipy.special as sc

import chainrules  # noqa: F401  (registers the rules)
import chainrules.rulesets.special.incomplete_beta as ib
from chainrules.testing import PrimalAndTangent, test_frule, test_rrule
from chainrules_core import NoTangent, NotImplementedTangent, frule, rrule, unthunk

mp.mp.dps = 30

# (a, b, x): small parameters; the fraction; its symmetric form; integer b (terminating fraction); x near 0 and 1;
# a << b and a >> b (one Stirling form of the prefactor); large a, b at the mode (the other)
REGIMES = [(0.3, 0.4, 0.2), (2.0, 3.0, 0.1), (2.0, 3.0, 0.8), (5.0, 1.0, 0.95), (0.5, 9.0, 1e-3), (3.0, 4.0, 0.999),
           (0.7, 400.0, 2e-3), (300.0, 2.5, 0.993), (80.0, 120.0, 0.38), (120.0, 80.0, 0.62)]


@pytest.mark.parametrize("f", [sc.betainc, sc.betaincc])
@pytest.mark.parametrize(("a", "b", "x"), REGIMES)
def test_against_finite_differences_in_every_regime(f, a, b, x):
    test_frule(f, a, b, x)
    test_rrule(f, a, b, x)


@pytest.mark.parametrize("f", [sc.betainc, sc.betaincc])
def test_arrays_broadcasting_float32_and_integer_parameters(f):
    a, b, x = np.array([[0.7], [4.0]]), 2.5, np.array([0.2, 0.5, 0.9])
    test_rrule(f, a, b, x)
    test_frule(f, a, b, x)
    test_rrule(f, a.astype(np.float32), np.float32(b), x.astype(np.float32))
    _, pullback = rrule(f, a.astype(np.float32), np.float32(b), x.astype(np.float32))
    cotangents = [unthunk(c) for c in pullback(np.ones((2, 3), dtype=np.float32))[1:]]
    assert all(c.dtype == np.float32 for c in cotangents[::2]) and isinstance(cotangents[1], np.float32)
    _, pullback = rrule(f, 2, 3, x)
    assert pullback(np.ones(3))[1:3] == (NoTangent(), NoTangent())  # integer shapes are not differentiated
    test_rrule(f, 2, 3, x)


def _lower(a, b, x):
    return mp.betainc(a, b, 0, x, regularized=True)


def _mp_dab(a, b, x):
    """(dI/da, dI/db) by mpmath: the smaller tail is differentiated, the upper one as I_(1-x)(b, a)."""
    if _lower(a, b, x) < 0.5:
        return mp.diff(lambda t: _lower(t, b, x), a), mp.diff(lambda t: _lower(a, t, x), b)
    y = 1 - mp.mpf(x)
    return -mp.diff(lambda t: _lower(b, t, y), a), -mp.diff(lambda t: _lower(t, a, y), b)


# small and large a and b, x below, at and above the mode and in both tails
MP_GRID = [(0.05, 0.5, 0.3), (0.5, 2.5, 0.01), (1.0, 1.0, 0.3), (2.0, 3.0, 0.4), (2.0, 3.0, 0.97), (7.0, 0.8, 0.9),
           (0.02, 900.0, 1e-4), (40.0, 60.0, 0.4), (40.0, 60.0, 0.55), (700.0, 900.0, 0.4375), (700.0, 60.0, 0.99),
           (2e4, 2.5, 0.999)]


def test_shape_derivatives_against_mpmath():
    worst = 0.0
    for a, b, x in MP_GRID:
        expected_a, expected_b = _mp_dab(a, b, x)
        _, pullback = rrule(sc.betainc, a, b, x)
        _, da, db, _ = (unthunk(c) for c in pullback(1.0))
        _, pullback_c = rrule(sc.betaincc, a, b, x)
        _, dca, dcb, _ = (unthunk(c) for c in pullback_c(1.0))
        for got, expected in ((da, expected_a), (db, expected_b), (-dca, expected_a), (-dcb, expected_b)):
            worst = max(worst, abs(float((got - expected) / expected)))
    assert worst <= 1e-11, worst


def _mp_partials(fun, *args):
    """The derivatives of ``fun`` in each of its arguments, by mpmath."""
    return [mp.diff(lambda t, i=i: fun(*args[:i], t, *args[i + 1:]), args[i]) for i in range(len(args))]


def _mp_solve(a, b, y, upper):
    """x with I_x(a, b) = y (or 1 - I_x(a, b) = y): mpmath's Newton iteration from SciPy's solution."""
    sign = -1 if upper else 1

    def target(z):
        return (1 - _lower(a, b, z) if upper else _lower(a, b, z)) - y

    def slope(z):
        return sign * z ** (a - 1) * (1 - z) ** (b - 1) / mp.beta(a, b)

    start = sc.betainccinv(float(a), float(b), float(y)) if upper else sc.betaincinv(float(a), float(b), float(y))
    return mp.findroot(target, mp.mpf(start), solver="newton", df=slope)


@pytest.mark.parametrize(("f", "upper"), [(sc.betaincinv, False), (sc.betainccinv, True)])
def test_inverse_derivatives_against_mpmath(f, upper):
    worst = 0.0
    for a, b, y in [(0.5, 0.7, 0.3), (2.0, 3.0, 0.5), (2.0, 3.0, 0.95), (30.0, 12.0, 0.1)]:
        expected = _mp_partials(lambda *args: _mp_solve(*args, upper), a, b, y)
        _, pullback = rrule(f, a, b, y)
        got = [unthunk(c) for c in pullback(1.0)[1:]]
        worst = max(worst, *(abs(float((g - e) / e)) for g, e in zip(got, expected)))
    assert worst <= 1e-9, worst


@pytest.mark.parametrize("f", [sc.betaincinv, sc.betainccinv])
@pytest.mark.parametrize(("a", "b", "y"), [(0.3, 0.4, 0.3), (2.0, 3.0, 0.05), (2.0, 3.0, 0.9), (80.0, 120.0, 0.6)])
def test_inverses_against_finite_differences(f, a, b, y):
    test_rrule(f, a, b, y)
    test_frule(f, a, b, y)


def test_direct_and_symmetric_fraction_agree_at_the_switch():
    # The fraction runs directly for x <= (a+1)/(a+b+2), on I_(1-x)(b, a) above: the derivatives are continuous.
    for a, b in ((0.5, 0.8), (3.0, 5.0), (200.0, 300.0)):
        t = (a + 1) / (a + b + 2)
        below, above = ib.betainc_dab(a, b, t), ib.betainc_dab(a, b, np.nextafter(t, 1))
        assert np.allclose(below, above, rtol=1e-12, atol=0)


def test_edges():
    # I_0 = 0 and I_1 = 1 for every a, b > 0: no derivative in a or b there
    assert ib.betainc_dab(2.0, 3.0, 0.0) == (0.0, 0.0) and ib.betainc_dab(2.0, 3.0, 1.0) == (0.0, 0.0)
    assert np.isclose(ib.betainc_dx(1.0, 3.0, 0.0), 3.0, rtol=1e-15) and ib.betainc_dx(0.5, 3.0, 0.0) == np.inf
    assert ib.betainc_dx(2.0, 3.0, 0.0) == 0.0
    assert all(np.isnan(ib.betainc_dab(-1.0, 3.0, 0.5)))  # outside the domain, like the primal
    _, pullback = rrule(sc.betaincinv, 2.0, 3.0, 0.0)  # x = 0 for every a, b
    assert [unthunk(c) for c in pullback(1.0)[1:3]] == [0.0, 0.0]


def test_not_implemented_beyond_the_term_budget(monkeypatch):
    monkeypatch.setattr(ib, "MAX_TERMS", 30)
    a, b, x = np.array([2.0, 1e4]), np.array([3.0, 1e4]), np.array([0.3, 0.5])
    _, pullback = rrule(sc.betainc, a, b, x)
    _, da, db, dx = (unthunk(c) for c in pullback(np.ones(2)))
    assert isinstance(da, NotImplementedTangent) and isinstance(db, NotImplementedTangent)
    assert "did not converge" in da.info and np.all(np.isfinite(dx))
    _, dy = frule((NoTangent(), np.zeros(2), np.ones(2), np.zeros(2)), sc.betainc, a, b, x)
    assert isinstance(dy, NotImplementedTangent)
    test_rrule(sc.betainc, PrimalAndTangent(a, NoTangent()), PrimalAndTangent(b, NoTangent()), x)


def _mp_quad_betainc(a, b, x):
    """I_x(a, b) for large a, b by mpmath's quadrature around the peak (its hypergeometric series gives up)."""
    log_beta = mp.loggamma(a) + mp.loggamma(b) - mp.loggamma(a + b)
    mode, width = (a - 1) / (a + b - 2), mp.sqrt(a * b / (a + b) ** 3)
    points = [mode - 40 * width] + [mode + k * width for k in range(-8, 1)] + [x]
    return mp.quad(lambda u: mp.exp((a - 1) * mp.log(u) + (b - 1) * mp.log(1 - u) - log_beta), points)


def test_large_parameters_converge_within_the_budget():
    a = b = mp.mpf(1e5)
    x = 0.5005
    expected_a = mp.diff(lambda t: _mp_quad_betainc(t, b, x), a)
    expected_b = mp.diff(lambda t: _mp_quad_betainc(a, t, x), b)
    da, db = ib.betainc_dab(1e5, 1e5, x)
    assert abs(float((da - expected_a) / expected_a)) < 1e-10 and abs(float((db - expected_b) / expected_b)) < 1e-10
