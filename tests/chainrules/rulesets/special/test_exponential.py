"""Rules of chainrules/rulesets/special/exponential.py: finite differences, exprel on both sides of its series."""

from __future__ import annotations

import mpmath as mp
import numpy as np
import pytest
import scipy.special as sc

import chainrules  # noqa: F401  (registers the rules)
from chainrules.rulesets.special.exponential import exprel_derivative
from chainrules.testing import test_frule, test_rrule, test_scalar

mp.mp.dps = 30


@pytest.mark.parametrize(("f", "points"), [
    (sc.expm1, [-3.0, -1e-9, 0.0, 1e-6, 0.5, 30.0]), (sc.log1p, [-0.9, -1e-9, 0.0, 1e-6, 3.0, 1e5]),
    (sc.exp2, [-40.0, 0.0, 2.5, 100.0]), (sc.exp10, [-12.0, 0.0, 1.5, 30.0]),
    (sc.exprel, [-700.0, -30.0, -0.50001, -0.49999, -1e-9, 0.0, 1e-9, 0.49999, 0.50001, 30.0, 300.0]),
    (sc.cbrt, [-27.0, -0.3, 0.05, 8.0, 300.0]),
])
def test_one_argument(f, points):
    for x in points:
        test_scalar(f, x)
    test_scalar(f, np.float32(points[1]))


@pytest.mark.parametrize("f", [sc.expm1, sc.log1p])
def test_complex(f):
    for z in (0.3 + 0.4j, -0.2 - 0.1j, 2.0 + 3.0j):
        test_scalar(f, z)


def test_exprel_derivative_against_mpmath():
    # the series near 0, and the two closed forms, agree with mpmath to rounding on both sides of |x| = 1/2
    def exprel(t):
        return mp.expm1(t) / t

    for x in (-800.0, -30.0, -0.5, -0.4999, -1e-9, 1e-9, 0.4999, 0.5, 0.6, 30.0, 700.0):
        expected = mp.diff(exprel, x)
        assert abs(float((exprel_derivative(x) - expected) / expected)) < 1e-15
    assert exprel_derivative(0.0) == 0.5
    assert exprel_derivative(1000.0) == np.inf  # exprel overflows from 709.8; so does its derivative


@pytest.mark.parametrize(("x", "y"), [(1.5, 0.3), (0.5, 2.5), (1.0, 1e-8), (1 + 1e-9, 3.0), (3.0, -1.5), (20.0, 0.01),
                                      (-2.0, 3.0)])
def test_powm1(x, y):
    if x < 0:  # an integer power of a negative base: y is not differentiable there (x^y is real at integers only)
        from chainrules.testing import PrimalAndTangent
        from chainrules_core import ZeroTangent
        test_frule(sc.powm1, x, PrimalAndTangent(y, ZeroTangent()))
        return
    test_rrule(sc.powm1, x, y)
    test_frule(sc.powm1, x, y)


def test_powm1_at_zero_base():
    # 0^y = 0 for y > 0: the y-derivative is 0, not 0 * log 0
    from chainrules import rrule, unthunk
    _, pullback = rrule(sc.powm1, 0.0, 2.5)
    dx, dy = (unthunk(c) for c in pullback(1.0)[1:])
    assert dy == 0.0 and dx == 0.0
