"""Rules of chainrules/rulesets/special/struve.py, with the order derivative against mpmath."""

from __future__ import annotations

import mpmath as mp
import numpy as np
import pytest
import scipy.special as sc

import chainrules  # noqa: F401  (registers the rules)
from chainrules import frule, rrule
from chainrules.rulesets.special._struve_order import reciprocal_gamma_derivative, struve_order
from chainrules.testing import test_frule, test_rrule, test_scalar
from chainrules_core import NotImplementedTangent, unthunk

# one point per representation: series (small x; order large against x), H through Y and L
# through I (x large), H for orders above x (11.5.1), negative orders, x = 300
GRID = [(0.5, 1.0), (-2.3, 0.4), (12.0, 3.0), (0.3, 15.0), (2.0, 40.0), (-0.7, 30.0), (60.0, 50.0), (130.0, 80.0),
        (1.0, 300.0), (0.0, 25.0)]


@pytest.mark.parametrize("modified", [False, True], ids=["struve", "modstruve"])
def test_order_derivative_matches_mpmath(modified):
    f = mp.struvel if modified else mp.struveh
    v = np.array([p[0] for p in GRID])
    x = np.array([p[1] for p in GRID])
    ours, available = struve_order(v, x, modified)
    assert available.all()
    for vi, xi, d in zip(v, x, ours):
        with mp.workdps(60):
            expected = float(mp.diff(lambda s, xi=xi: f(s, xi), vi))
        assert abs(d - expected) <= 1e-10 * abs(expected), (vi, xi, d, expected)


@pytest.mark.parametrize("f", [sc.struve, sc.modstruve])
def test_both_arguments(f):
    v = np.array([0.5, -2.3, 12.0, 0.3, 2.0, -0.7])
    x = np.array([1.0, 0.4, 3.0, 15.0, 40.0, 30.0])
    if f is sc.modstruve:
        x = np.minimum(x, 20.0)
    test_rrule(f, v, x)
    test_frule(f, v, x)
    test_rrule(f, v[:2].astype(np.float32), x[:2].astype(np.float32))


@pytest.mark.parametrize("f", [sc.struve, sc.modstruve])
def test_at_zero_and_integer_orders_at_negative_x(f):
    _, pullback = rrule(f, np.array([0.0, 1.0, 2.5]), np.zeros(3))
    dv, dx = (unthunk(c) for c in pullback(np.ones(3))[1:])
    np.testing.assert_array_equal(dv, 0.0)
    np.testing.assert_allclose(dx, [2 / np.pi, 0.0, 0.0], atol=1e-15)  # H_0 ~ (2/pi) x, L_0 too
    test_rrule(f, np.array([0, 1, 2]), np.array([-0.5, -2.0, -4.0]))


def test_not_implemented_where_no_representation_holds():
    # L at v <= -1/2 and very large x: the series needs too many terms, 11.5.4 needs v > -1/2
    d, available = struve_order(-0.7, 2000.0, True)
    assert not available and np.isnan(d)
    _, pullback = rrule(sc.modstruve, np.array([-0.7, 0.5]), np.array([2000.0, 1.0]))
    assert isinstance(unthunk(pullback(np.ones(2))[1]), NotImplementedTangent)
    _, dy = frule((None, 1.0, 0.0), sc.modstruve, -0.7, 2000.0)
    assert isinstance(dy, NotImplementedTangent)


def test_reciprocal_gamma_derivative_at_the_poles():
    s = np.array([-2.0, -2.0 + 1e-9, -1.0, 0.0, 1e-9, 3.5])
    expected = [float(mp.diff(mp.rgamma, si)) for si in s]
    np.testing.assert_allclose(reciprocal_gamma_derivative(s), expected, rtol=1e-7)


@pytest.mark.parametrize("f", [sc.itstruve0, sc.it2struve0, sc.itmodstruve0])
def test_integrals(f):
    test_rrule(f, np.array([0.1, 1.0, 6.0, 12.0]))
    test_frule(f, np.array([0.1, 1.0, 6.0, 12.0]))
    test_scalar(f, 2.0)
    if f is not sc.it2struve0:
        test_rrule(f, np.array([-3.0, -0.5]))
