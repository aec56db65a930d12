"""Rules of chainrules/rulesets/interpolate/bspline.py (and the B-spline maths of _bspline.py).

The samples of the constructor, ``BSpline.__call__`` (every degree 0 to 3, clamped and distinct
knots, periodic, no extrapolation, axis=1, complex), ``derivative``, ``antiderivative`` and
``integrate`` are checked against finite differences by tests/chainrules/test_every_rule.py.
Here: calling the object itself (the functor rule, with the object's tangent), the basis and
its knot derivatives for every degree and derivative order, and the conventions.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.interpolate as si

import chainrules  # noqa: F401  (registers the rules)
from chainrules import rrule, unthunk
from chainrules.rulesets.interpolate._bspline import SplineEval
from chainrules.testing import PrimalAndTangent, jvp, rand_tangent, test_frule, test_rrule

Q = np.array([-0.4, 0.35, 1.2, 2.1, 2.9, 3.4])


def _knots(k):
    """Distinct knots around the base interval [0, 3]."""
    return np.concatenate((np.linspace(-0.9, -0.2, k), [0.0, 0.8, 1.7, 3.0], np.linspace(3.3, 4.0, k)))


@pytest.mark.parametrize("extrapolate", [True, "periodic"])
def test_calling_the_object_differentiates_its_fields(extrapolate, rand):
    b = si.BSpline(_knots(3), rand((6, 2)), 3, extrapolate=extrapolate)
    db = rand_tangent(b)
    test_rrule(PrimalAndTangent(b, db), Q)
    test_frule(PrimalAndTangent(b, db), Q)
    test_rrule(PrimalAndTangent(b, db), Q, 2)


@pytest.mark.parametrize("k", [0, 1, 2, 4, 5])
def test_values_and_derivatives_in_knots_points_and_coefficients_for_every_degree(k, rand):
    t = _knots(k)
    c = rand((t.size - k - 1, 1))
    for nu in range(k + 2):
        ev = SplineEval(t, c, k, Q, nu, "extrapolate")
        np.testing.assert_allclose(ev.values()[:, 0], si.BSpline(t, c[:, 0], k)(Q, nu), rtol=1e-12, atol=1e-12)
        dt, dc, dq = 0.05 * rand(t.size), rand(c.shape), rand(Q.size)
        expected = jvp(None, lambda a, b, q, nu=nu: si.BSpline(a, b[:, 0], k)(q, nu), (t, dt), (c, dc), (Q, dq))
        np.testing.assert_allclose(ev.tangent(dt, dc, dq)[:, 0], expected, rtol=1e-7, atol=1e-8)


def test_a_point_on_an_interior_knot_takes_the_interval_to_the_right():
    b = si.BSpline(np.array([0.0, 0.0, 1.0, 2.0, 2.0]), np.array([0.0, 1.0, 0.0]), 1)   # the hat
    _, pullback = rrule(b, np.array([1.0]))
    assert unthunk(pullback(np.ones(1))[1]) == -1.0


def test_outside_without_extrapolation_is_nan_with_no_derivative(rand):
    b = si.BSpline(_knots(3), rand(6), 3, extrapolate=False)
    y, pullback = rrule(b, np.array([-1.0, 1.0]))
    assert np.isnan(y[0])
    db, dx = (unthunk(c) for c in pullback(np.array([1.0, 0.0])))
    assert np.all(db.c == 0) and np.all(db.t == 0) and np.all(dx == 0)


def test_padded_coefficients_get_zero_cotangents(rand):
    b = si.BSpline(_knots(3), rand(10), 3)          # FITPACK's convention: len(c) == len(t)
    _, pullback = rrule(b, Q)
    db = unthunk(pullback(rand(6))[0])
    assert db.c.shape == (10,) and np.all(db.c[6:] == 0)
