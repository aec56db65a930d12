"""Rules of chainrules/rulesets/interpolate/polynomial.py (barycentric_interpolate, krogh_interpolate).

The samples (values, nodes and points; axes, orders by position and keyword, lists of orders,
complex, float32, Hermite data in the values) are checked against finite differences by
tests/chainrules/test_every_rule.py. Here: the nodes of Hermite data are not implemented.
"""

from __future__ import annotations

import numpy as np
import scipy.interpolate as si

from chainrules import NoTangent, NotImplementedTangent, ZeroTangent, frule, rrule, unthunk


def test_repeated_nodes_are_not_differentiated_in_the_nodes(rand):
    xi, yi, x = np.array([0.0, 0.0, 1.5, 3.0]), rand(4), np.array([0.4, 2.0])
    _, pullback = rrule(si.krogh_interpolate, xi, yi, x)
    dxi, dyi = (unthunk(c) for c in pullback(np.ones(2))[1:3])
    assert isinstance(dxi, NotImplementedTangent)
    np.testing.assert_allclose(dyi @ yi, si.krogh_interpolate(xi, yi, x).sum(), rtol=1e-12)   # linear in yi
    _, moved = frule((NoTangent(), np.ones(4), ZeroTangent(), ZeroTangent()), si.krogh_interpolate, xi, yi, x)
    assert isinstance(moved, NotImplementedTangent)
