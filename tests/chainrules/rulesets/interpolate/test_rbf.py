"""Rules of chainrules/rulesets/interpolate/rbf.py.

The samples of the constructor and of calling the object (every kernel, smoothing per point,
degree 2, vector and complex values) are checked against finite differences by
tests/chainrules/test_every_rule.py. Here: calling the object with its own tangent (sites,
values, smoothing, epsilon) and ``neighbors``.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.interpolate as si

from chainrules import NotImplementedTangent, rrule, unthunk
from chainrules.testing import PrimalAndTangent, rand_tangent, test_frule, test_rrule

SITES = np.array([[0.0, 0.1], [1.1, -0.1], [2.0, 0.2], [0.1, 1.0], [0.9, 1.1], [2.1, 0.9], [0.0, 2.1], [1.0, 1.9]])
QUERIES = np.array([[0.4, 0.6], [1.3, 1.4], [1.7, 0.5]])


@pytest.mark.parametrize("kernel", ["thin_plate_spline", "gaussian"])
def test_calling_the_object_differentiates_its_data(kernel, rand):
    obj = si.RBFInterpolator(SITES, rand((8, 2)), smoothing=0.05, kernel=kernel, epsilon=1.2)
    dobj = rand_tangent(obj)
    test_rrule(PrimalAndTangent(obj, dobj), QUERIES)
    test_frule(PrimalAndTangent(obj, dobj), QUERIES)


def test_neighbors_is_not_implemented(rand):
    obj = si.RBFInterpolator(SITES, rand(8), neighbors=5)
    _, pullback = rrule(obj, QUERIES)
    assert all(isinstance(unthunk(c), NotImplementedTangent) for c in pullback(np.ones(3)))
