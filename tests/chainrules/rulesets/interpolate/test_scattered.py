"""Rules of chainrules/rulesets/interpolate/scattered.py (griddata).

The samples (linear in 2-d, rescaled, tuple coordinates, nearest, cubic in the values, 1-d data)
are checked against finite differences by tests/chainrules/test_every_rule.py. Here: points
outside the convex hull, and the derivatives of cubic that are not implemented.
"""

from __future__ import annotations

import numpy as np
import scipy.interpolate as si

from chainrules import NotImplementedTangent, rrule, unthunk

POINTS = np.array([[0.0, 0.0], [1.0, 0.1], [0.1, 1.0], [1.1, 1.0], [0.5, 0.55]])


def test_points_outside_the_hull_have_no_derivative(rand):
    y, pullback = rrule(si.griddata, POINTS, rand(5), np.array([[2.0, 2.0], [0.4, 0.5]]))
    assert np.isnan(y[0]) and not np.isnan(y[1])
    _, dpoints, dvalues, dxi = (unthunk(c) for c in pullback(np.array([1.0, 0.0])))
    assert np.all(dpoints == 0) and np.all(dvalues == 0) and np.all(dxi == 0)


def test_cubic_is_differentiated_in_the_values_only(rand):
    values = rand(5)
    _, pullback = rrule(si.griddata, POINTS, values, np.array([[0.4, 0.5]]), "cubic")
    _, dpoints, dvalues, dxi, _ = (unthunk(c) for c in pullback(np.ones(1)))
    assert isinstance(dpoints, NotImplementedTangent) and isinstance(dxi, NotImplementedTangent)
    # the values enter linearly: the cotangent reproduces the output
    np.testing.assert_allclose(dvalues @ values, si.griddata(POINTS, values, np.array([[0.4, 0.5]]), "cubic")[0],
                               rtol=1e-6)


def test_fill_value_gets_the_cotangent_of_the_points_outside(rand):
    # regression: cubic once read a finite fill_value as a value of the interpolant of each unit vector
    for method in ("linear", "cubic"):
        _, pullback = rrule(si.griddata, POINTS, rand(5), np.array([[2.0, 2.0], [0.4, 0.5], [-3.0, 0.0]]), method,
                            0.5)
        cotangents = pullback(np.array([1.0, 0.0, 2.0]))
        assert np.all(unthunk(cotangents[2]) == 0)
        assert unthunk(cotangents[5]) == 3.0
