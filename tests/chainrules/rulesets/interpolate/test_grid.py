"""Rules of chainrules/rulesets/interpolate/grid.py (and the tensor-product maths of _tensor.py).

The samples of the constructor (a descending axis), of calling the object (every method, ``nu``,
extrapolation, constant fills, tuple points, complex values) and of ``interpn`` are checked
against finite differences by tests/chainrules/test_every_rule.py. Here: calling the object
with its own tangent in 1 to 3 dimensions, NaN fills, and ``pchip``.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.interpolate as si
import scipy.sparse.linalg as ssl

from chainrules import NotImplementedTangent, rrule, unthunk
from chainrules.testing import PrimalAndTangent, rand_tangent, test_frule, test_rrule

GRIDS = (np.array([0.0, 0.7, 1.5, 2.6, 3.2, 4.0]), np.array([-1.0, -0.2, 0.5, 1.4, 2.0]),
         np.array([0.0, 0.4, 1.0, 1.9, 2.5]))
POINTS = np.array([[0.2, -0.75, 0.1], [1.85, 0.75, 1.2], [3.4, 1.6, 2.2]])


@pytest.mark.parametrize(("dims", "method"), [(1, "quintic"), (2, "cubic"), (3, "linear")])
def test_calling_the_object_differentiates_its_grid_and_values(dims, method, rand):
    grid = GRIDS[:dims]
    obj = si.RegularGridInterpolator(grid, rand(tuple(g.size for g in grid)), method,
                                     **({"solver": ssl.spsolve} if method != "linear" else {}))
    dobj = rand_tangent(obj)
    test_rrule(PrimalAndTangent(obj, dobj), POINTS[:, :dims])
    test_frule(PrimalAndTangent(obj, dobj), POINTS[:, :dims])


def test_points_filled_with_nan_have_no_derivative(rand):
    obj = si.RegularGridInterpolator(GRIDS[:2], rand((6, 5)), bounds_error=False)
    y, pullback = rrule(obj, np.array([[-1.0, 0.0], [1.0, 0.0]]))
    assert np.isnan(y[0])
    dobj, dxi = (unthunk(c) for c in pullback(np.array([1.0, 0.0])))
    assert np.all(dobj.values == 0) and np.all(dxi == 0)


def test_pchip_is_not_implemented(rand):
    obj = si.RegularGridInterpolator(GRIDS[:2], rand((6, 5)), "pchip")
    _, pullback = rrule(obj, POINTS[:, :2])
    _, dxi = (unthunk(c) for c in pullback(np.ones(3)))
    assert isinstance(dxi, NotImplementedTangent) and "cubic" in dxi.info


def test_interpn_fill_value_gets_the_cotangent_of_the_points_outside(rand):
    grid = (np.array([0.0, 1.0, 2.5]), np.array([0.0, 2.0]))
    points = np.array([[-1.0, 0.5], [1.5, 1.5], [9.0, 1.0]])
    y, pullback = rrule(si.interpn, grid, rand((3, 2)), points, "linear", False, 0.25)
    assert y[0] == 0.25 and y[2] == 0.25
    cotangents = pullback(np.array([1.0, 10.0, 100.0]))
    assert cotangents[6] == 101.0
    assert np.all(unthunk(cotangents[3])[[0, 2]] == 0)       # the points outside do not move the output
