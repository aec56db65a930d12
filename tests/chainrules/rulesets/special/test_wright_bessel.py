"""Rules of chainrules/rulesets/special/wright_bessel.py: every argument against mpmath's sum of the series,
b = 0, a = 0, x = 0, log_wright_bessel where wright_bessel overflows, the term budget."""

from __future__ import annotations

import mpmath as mp
import numpy as np
import pytest
import scipy.special as sc

import chainrules  # noqa: F401  (registers the rules)
import chainrules.rulesets.special.wright_bessel as wb
from chainrules import rrule, unthunk
from chainrules.testing import PrimalAndTangent, test_frule, test_rrule
from chainrules_core import NoTangent, NotImplementedTangent

mp.mp.dps = 30


def _mp_phi(a, b, x):
    return mp.nsum(lambda k: x ** k * mp.rgamma(a * k + b) / mp.factorial(k), [0, mp.inf])


def _mp_partials(fun, *args):
    return [mp.diff(lambda t, i=i: fun(*args[:i], t, *args[i + 1:]), args[i]) for i in range(len(args))]


@pytest.mark.parametrize(("a", "b", "x"), [(0.5, 1.0, 2.0), (1.5, 0.3, 0.05), (0.1, 2.0, 12.0), (3.0, 0.7, 8.0),
                                           (0.2, 5.0, 0.6), (0.5, 0.0, 2.0), (1.0, 1.0, 100.0), (0.0, 1.5, 2.0)])
def test_against_mpmath(a, b, x):
    _, pullback = rrule(sc.wright_bessel, a, b, x)
    got = [unthunk(c) for c in pullback(1.0)[1:]]
    for g, e in zip(got, _mp_partials(_mp_phi, a, b, x)):
        assert abs(float((g - e) / e)) < 1e-12
    _, pullback = rrule(sc.log_wright_bessel, a, b, x)
    got = [unthunk(c) for c in pullback(1.0)[1:]]
    for g, e in zip(got, _mp_partials(lambda *args: mp.log(_mp_phi(*args)), a, b, x)):
        assert abs(float((g - e) / e)) < 1e-12


@pytest.mark.parametrize("f", [sc.wright_bessel, sc.log_wright_bessel])
def test_against_finite_differences(f):
    a, b, x = np.array([0.5, 1.5, 0.1, 3.0]), np.array([1.0, 0.3, 2.0, 0.7]), np.array([2.0, 0.05, 30.0, 8.0])
    test_rrule(f, a, b, x)
    test_frule(f, a, b, x)


def test_log_where_the_function_overflows():
    _, pullback = rrule(sc.log_wright_bessel, 0.05, 1.0, 800.0)
    assert all(np.isfinite(unthunk(c)) for c in pullback(1.0)[1:])
    test_rrule(sc.log_wright_bessel, np.array([0.5, 0.2]), np.array([1.0, 2.0]), np.array([700.0, 300.0]))


def test_not_implemented_beyond_the_term_budget(monkeypatch):
    monkeypatch.setattr(wb, "MAX_TERMS", 10)
    _, pullback = rrule(sc.wright_bessel, 0.1, 1.0, 30.0)
    da, db, dx = (unthunk(c) for c in pullback(1.0)[1:])
    assert isinstance(da, NotImplementedTangent) and isinstance(db, NotImplementedTangent) and np.isfinite(dx)
    test_rrule(sc.wright_bessel, PrimalAndTangent(0.1, NoTangent()), PrimalAndTangent(1.0, NoTangent()), 30.0)
