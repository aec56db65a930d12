"""Rules of chainrules/rulesets/interpolate/ppoly.py (and the PPoly maths of _piecewise.py).

The samples of the constructor, ``PPoly.__call__``, ``derivative``, ``antiderivative`` and
``integrate`` (extrapolation, periodic, descending breakpoints, vector values, axis=1, complex)
are checked against finite differences by tests/chainrules/test_every_rule.py. Here: calling
the object itself (the functor rule, with the object's own tangent), and the conventions of
the module docstring.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.interpolate as si

import chainrules  # noqa: F401  (registers the rules)
from chainrules import ProjectionError, Tangent, rrule, unthunk
from chainrules.rulesets.interpolate._piecewise import antiderivative_coefficients
from chainrules.testing import PrimalAndTangent, rand_tangent, test_frule, test_rrule

X = np.array([0.0, 0.8, 1.7, 3.0])
Q = np.array([-0.4, 0.35, 1.2, 2.1, 2.9, 3.6])


@pytest.mark.parametrize("extrapolate", [True, "periodic"])
def test_calling_the_object_differentiates_its_fields(extrapolate, rand):
    p = si.PPoly(rand((4, 3, 2)), X, extrapolate=extrapolate)
    dp = rand_tangent(p)
    test_rrule(PrimalAndTangent(p, dp), Q)
    test_frule(PrimalAndTangent(p, dp), Q)
    test_rrule(PrimalAndTangent(p, dp), Q, 1)


def test_antiderivative_coefficients_are_scipys(rand):
    for nu in (1, 2, 3):
        c = rand((3, 3, 2))
        expected = si.PPoly(c, X).antiderivative(nu).c
        np.testing.assert_allclose(antiderivative_coefficients(c, X, nu), expected, rtol=1e-13)


def test_at_a_breakpoint_the_interval_to_the_right_counts():
    p = si.PPoly(np.array([[1.0, -1.0], [0.0, 0.5]]), np.array([0.0, 1.0, 2.0]))  # slopes 1 then -1
    _, pullback = rrule(p, np.array([1.0]))
    assert unthunk(pullback(np.ones(1))[1]) == -1.0


def test_outside_without_extrapolation_is_nan_with_no_derivative(rand):
    p = si.PPoly(rand((2, 3)), X, extrapolate=False)
    y, pullback = rrule(p, np.array([-1.0, 1.0]))
    assert np.isnan(y[0])
    dp, dx = (unthunk(c) for c in pullback(np.array([1.0, 0.0])))
    assert np.all(dp.c == 0) and np.all(dp.x == 0) and np.all(dx == 0)


def test_a_bad_object_cotangent_names_the_function(rand):
    _, pullback = rrule(si.PPoly, rand((2, 3)), X)
    with pytest.raises(ProjectionError, match="PPoly pullback: output cotangent is a ndarray"):
        pullback(np.ones(3))
    with pytest.raises(ProjectionError, match="Tangent of BSpline, expected a Tangent of PPoly"):
        pullback(Tangent(si.BSpline, c=np.ones(3)))
