"""Rules of chainrules/rulesets/interpolate/bivariate.py (bisplev).

The samples (distinct knots, derivative orders by position and keyword, a scalar point, points
outside the base interval) are checked against finite differences by
tests/chainrules/test_every_rule.py. Here: a ``tck`` from ``bisplrep`` (repeated end knots,
held fixed), and the derivative in the points against SciPy's own partial derivatives.
"""

from __future__ import annotations

import numpy as np
import scipy.interpolate as si

from chainrules import NoTangent, Tangent, rrule, unthunk
from chainrules.testing import PrimalAndTangent, test_frule, test_rrule


def _fitted():
    x, y = np.meshgrid(np.linspace(0.0, 1.0, 6), np.linspace(0.0, 2.0, 7), indexing="ij")
    return si.bisplrep(x.ravel(), y.ravel(), (np.sin(x + y) + x * y).ravel(), s=0)


def test_a_bisplrep_tck_with_its_knots_fixed(rand):
    tck = _fitted()
    dtck = Tangent(list, NoTangent(), NoTangent(), rand(np.shape(tck[2])), NoTangent(), NoTangent())
    for f in (test_frule, test_rrule):
        f(si.bisplev, np.array([0.1, 0.45, 0.9]), np.array([0.3, 1.2]), PrimalAndTangent(tck, dtck), 1, 0)


def test_the_point_cotangents_are_scipys_partial_derivatives():
    tck = _fitted()
    x, y = np.array([0.1, 0.45, 0.9]), np.array([0.3, 1.2])
    _, pullback = rrule(si.bisplev, x, y, tck)
    dz = np.arange(6.0).reshape(3, 2)
    _, dx, dy, _ = pullback(dz)
    np.testing.assert_allclose(unthunk(dx), (dz * si.bisplev(x, y, tck, dx=1)).sum(axis=1), rtol=1e-12)
    np.testing.assert_allclose(unthunk(dy), (dz * si.bisplev(x, y, tck, dy=1)).sum(axis=0), rtol=1e-12)
