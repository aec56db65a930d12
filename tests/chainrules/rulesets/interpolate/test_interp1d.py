"""Rules of chainrules/rulesets/interpolate/interp1d.py.

The samples of the constructor (unsorted sites, axis) and of calling the object (every
``kind``, constant and extrapolated fills, 2-d points) are checked against finite differences by
tests/chainrules/test_every_rule.py. Here: calling the object with its own tangent, the chain
``interp1d(x, y, kind)(xq)`` end to end, and points filled with NaN.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.interpolate as si

from chainrules import rrule, unthunk
from chainrules.testing import PrimalAndTangent, rand_tangent, test_frule, test_rrule, vjp

X = np.array([0.0, 0.6, 1.3, 1.9, 2.8, 3.4, 4.1])
Q = np.array([0.35, 1.1, 2.0, 2.5, 3.9])


@pytest.mark.parametrize("kind", ["linear", "cubic", "previous"])
def test_calling_the_object_differentiates_its_sites_and_values(kind, rand):
    obj = si.interp1d(X, rand((2, 7)), kind)
    dobj = rand_tangent(obj)
    test_rrule(PrimalAndTangent(obj, dobj), Q)
    test_frule(PrimalAndTangent(obj, dobj), Q)


@pytest.mark.parametrize("kind", ["linear", "quadratic"])
def test_interp1d_then_calling_it_is_differentiable_in_x_y_and_xq(kind, rand):
    shuffled = np.array([3, 0, 6, 1, 5, 2, 4])
    x, y, dy = X[shuffled], rand(7), rand(5)
    obj, construct_pullback = rrule(si.interp1d, x, y, kind)
    _, call_pullback = rrule(obj, Q)
    dobj, dq = call_pullback(dy)
    parts = construct_pullback(unthunk(dobj))
    expected = vjp(None, lambda a, v, q: si.interp1d(a, v, kind)(q), dy, x, y, Q)
    for got, want in zip((unthunk(parts[1]), unthunk(parts[2]), unthunk(dq)), expected):
        np.testing.assert_allclose(got, want, rtol=1e-7, atol=1e-8)


def test_points_filled_with_nan_have_no_derivative(rand):
    obj = si.interp1d(X, rand(7), bounds_error=False)
    y, pullback = rrule(obj, np.array([-1.0, 1.0, 5.0]))
    assert np.isnan(y[0]) and np.isnan(y[2])
    dobj, dq = (unthunk(c) for c in pullback(np.array([1.0, 0.0, 1.0])))
    assert np.all(dobj.x == 0) and np.all(dobj.y == 0) and np.all(dq == 0)
