"""Rules of chainrules/rulesets/interpolate/splines.py (and the fitting maths of _fitting.py).

The samples of ``make_interp_spline`` (degrees 0 to 5, every non-periodic ``bc_type``, end
values, knots given, axis=1, complex, float32), ``make_lsq_spline`` and
``make_smoothing_spline`` (``lam`` given) are checked against finite differences by
tests/chainrules/test_every_rule.py. Here: ``make_interp_spline(x, y)(xq)`` end to end,
periodic splines along tangents keeping ``y[0] == y[-1]``, and ``lam`` chosen by GCV.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.interpolate as si

import chainrules  # noqa: F401  (registers the rules)
from chainrules import NoTangent, NotImplementedTangent, Tangent, ZeroTangent, frule, rrule, unthunk
from chainrules.testing import PrimalAndTangent, test_frule, vjp

X = np.array([0.0, 0.6, 1.3, 1.9, 2.8, 3.4, 4.1])
Q = np.array([-0.3, 0.35, 1.1, 2.0, 2.9, 3.9, 4.4])


@pytest.mark.parametrize("k", [1, 3, 4])
def test_make_interp_spline_then_calling_it_is_differentiable_in_x_y_and_xq(k, rand):
    y, dy = np.sin(X) + 0.2 * rand(7), rand(7)
    b, construct_pullback = rrule(si.make_interp_spline, X, y, k)
    _, call_pullback = rrule(b, Q)
    db, dq = call_pullback(dy)
    parts = construct_pullback(unthunk(db))
    expected = vjp(None, lambda a, v, q: si.make_interp_spline(a, v, k)(q), dy, X, y, Q)
    for got, want in zip((unthunk(parts[1]), unthunk(parts[2]), unthunk(dq)), expected):
        np.testing.assert_allclose(got, want, rtol=1e-7, atol=1e-8)


@pytest.mark.parametrize(("k", "n"), [(3, 7), (4, 7), (5, 3)])
def test_periodic_spline_along_tangents_that_keep_it_periodic(k, n, rand):
    x, y = X[:n], rand((n, 2))
    y[-1] = y[0]
    dy = rand((n, 2))
    dy[-1] = dy[0]
    dx = 0.05 * rand(n)
    test_frule(si.make_interp_spline, PrimalAndTangent(x, dx), PrimalAndTangent(y, dy),
               fkwargs={"k": k, "bc_type": "periodic"})
    b, pullback = rrule(si.make_interp_spline, x, y, k, bc_type="periodic")
    _, tangent = frule((NoTangent(), dx, dy), si.make_interp_spline, x, y, k=k, bc_type="periodic")
    cbar, tbar = rand(np.shape(b.c)), rand(np.shape(b.t))
    parts = pullback(Tangent(si.BSpline, t=tbar, c=cbar))
    lhs = np.sum(cbar * tangent.c) + tbar @ tangent.t
    rhs = unthunk(parts[1]) @ dx + np.sum(unthunk(parts[2]) * dy)
    np.testing.assert_allclose(lhs, rhs, rtol=1e-10)
    assert np.all(unthunk(parts[2])[-1] == 0)    # the conditions read y[0], not y[-1]


def test_smoothing_with_lam_chosen_by_gcv_is_not_implemented(rand):
    y = np.sin(X) + 0.2 * rand(7)
    b, pullback = rrule(si.make_smoothing_spline, X, y)
    parts = [unthunk(p) for p in pullback(Tangent(si.BSpline, c=rand(np.shape(b.c))))]
    assert isinstance(parts[1], NotImplementedTangent) and isinstance(parts[2], NotImplementedTangent)
    assert "lam=" in parts[2].info
    _, tangent = frule((NoTangent(), ZeroTangent(), np.ones(7)), si.make_smoothing_spline, X, y)
    assert isinstance(unthunk(tangent), NotImplementedTangent) or isinstance(unthunk(tangent.c), NotImplementedTangent)
