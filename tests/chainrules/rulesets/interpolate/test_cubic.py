"""Rules of chainrules/rulesets/interpolate/cubic.py (and the slope maths of _cubic.py).

The samples of the four constructors and of ``pchip_interpolate`` (every ``bc_type`` but
``'periodic'``, two and three points, axis=1, vector values, PCHIP's clipped and zeroed
slopes, ``makima``, float32, complex) are checked against finite differences by
tests/chainrules/test_every_rule.py. Here: ``CubicSpline(x, y)(xq)`` end to end, periodic
splines along tangents keeping ``y[0] == y[-1]``, and that the slope conditions are SciPy's.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.interpolate as si

import chainrules  # noqa: F401  (registers the rules)
from chainrules import NoTangent, ProjectionError, Tangent, ZeroTangent, frule, rrule, unthunk
from chainrules.rulesets.interpolate._cubic import CubicSplineSlopes
from chainrules.rulesets.interpolate.cubic import CubicBuild, _end_conditions
from chainrules.testing import PrimalAndTangent, jvp, test_frule, vjp

X = np.array([0.0, 0.7, 1.5, 2.6, 3.2])
Q = np.array([-0.3, 0.35, 1.1, 2.0, 2.9, 3.5])


def _spline_at(x, y, xq, bc_type="not-a-knot"):
    return si.CubicSpline(x, y, bc_type=bc_type)(xq)


def _pull_through(x, y, xq, dy, bc_type="not-a-knot"):
    """The chain ``CubicSpline(x, y, 0, bc_type)`` then ``obj(xq)`` run backwards with the rules alone."""
    obj, construct_pullback = rrule(si.CubicSpline, x, y, 0, bc_type)
    _, call_pullback = rrule(obj, xq)
    dobj, dxq = call_pullback(dy)
    parts = construct_pullback(unthunk(dobj))
    return unthunk(parts[1]), unthunk(parts[2]), unthunk(dxq)


@pytest.mark.parametrize("bc_type", ["not-a-knot", "natural", ((1, 0.5), (2, -1.0))])
def test_cubicspline_then_calling_it_is_differentiable_in_x_y_and_xq(bc_type, rand):
    y, dy = np.sin(X) + 0.2 * rand(5), rand(6)
    xbar, ybar, qbar = _pull_through(X, y, Q, dy, bc_type)
    expected = vjp(None, lambda a, b, c: _spline_at(a, b, c, bc_type), dy, X, y, Q)
    np.testing.assert_allclose(xbar, expected[0], rtol=1e-7, atol=1e-8)
    np.testing.assert_allclose(ybar, expected[1], rtol=1e-7, atol=1e-8)
    np.testing.assert_allclose(qbar, expected[2], rtol=1e-7, atol=1e-8)
    # forward: the constructor's tangent fed to the call's frule
    dx, dyv, dq = 0.1 * rand(5), rand(5), rand(6)
    obj, dobj = frule((NoTangent(), dx, dyv, ZeroTangent(), NoTangent()), si.CubicSpline, X, y, 0, bc_type)
    _, out = frule((dobj, dq), obj, Q)
    along = jvp(None, lambda a, b, c: _spline_at(a, b, c, bc_type), (X, dx), (y, dyv), (Q, dq))
    np.testing.assert_allclose(out, along, rtol=1e-7, atol=1e-8)


def _periodic_data(rand, shape=()):
    y = rand((5,) + shape)
    y[-1] = y[0]
    return y


@pytest.mark.parametrize("n", [3, 5])
def test_periodic_spline_along_tangents_that_keep_it_periodic(n, rand):
    x, y = X[:n], _periodic_data(rand, (2,))[:n]
    y[-1] = y[0]
    dy = rand((n, 2))
    dy[-1] = dy[0]
    test_frule(si.CubicSpline, PrimalAndTangent(x, 0.1 * rand(n)), PrimalAndTangent(y, dy),
               fkwargs={"bc_type": "periodic"})
    # the rrule agrees with the (checked) frule along such tangents: <cbar, J dy> = <J^T cbar, dy>
    dx = 0.1 * rand(n)
    obj, pullback = rrule(si.CubicSpline, x, y, bc_type="periodic")
    _, tangent = frule((NoTangent(), dx, dy), si.CubicSpline, x, y, bc_type="periodic")
    cbar, xcbar = rand(np.shape(obj.c)), rand(n)
    parts = pullback(Tangent(si.CubicSpline, c=cbar, x=xcbar))
    lhs = np.sum(cbar * tangent.c) + xcbar @ tangent.x
    rhs = unthunk(parts[1]) @ dx + np.sum(unthunk(parts[2]) * dy)
    np.testing.assert_allclose(lhs, rhs, rtol=1e-12)


@pytest.mark.parametrize("n", [2, 3, 4, 6])
@pytest.mark.parametrize("bc_type", ["not-a-knot", "periodic", "clamped", "natural", ((1, 0.3), (2, -0.4)),
                                     ("not-a-knot", (2, 0.2))])
def test_the_slope_conditions_are_scipys(n, bc_type, rand):
    x = np.cumsum(0.5 + rand(n) ** 2)
    y = rand(n)
    if bc_type == "periodic":
        y[-1] = y[0]
    build = CubicBuild(si.CubicSpline(x, y, bc_type=bc_type), y)
    bc = tuple(c if isinstance(c, str) else (c[0], np.atleast_1d(c[1])) for c in _end_conditions(bc_type))
    residual = CubicSplineSlopes(build.x, build.y, build.d, bc).residual()
    np.testing.assert_allclose(residual, 0, atol=1e-12 * (1 + np.max(np.abs(build.d))))


def test_a_bad_object_cotangent_names_the_function(rand):
    _, pullback = rrule(si.CubicSpline, X, rand(5))
    with pytest.raises(ProjectionError, match="CubicSpline pullback: output cotangent is a ndarray"):
        pullback(np.ones(3))
    with pytest.raises(ProjectionError, match="output cotangent field 'c'"):
        pullback(Tangent(si.CubicSpline, c=np.ones(3)))


def test_pchip_slopes_at_a_turn_do_not_move(rand):
    y = np.array([0.0, 1.0, 0.3, 0.9, -0.4])   # a turn at every interior site: PCHIP's slopes are 0
    obj, dobj = frule((NoTangent(), ZeroTangent(), rand(5)), si.PchipInterpolator, X, y)
    assert np.all(obj.c[2, 1:] == 0)
    np.testing.assert_array_equal(dobj.c[2, 1:], 0)


def test_each_pullback_call_uses_its_own_cotangent(rand):
    _, pullback = rrule(si.CubicSpline, X, rand(5))
    first, second = rand((4, 4)), rand((4, 4))
    a = unthunk(pullback(Tangent(si.CubicSpline, c=first))[2])
    b = unthunk(pullback(Tangent(si.CubicSpline, c=second))[2])
    c = unthunk(pullback(Tangent(si.CubicSpline, c=first + second))[2])
    np.testing.assert_allclose(a + b, c, rtol=1e-12, atol=1e-12)
    assert not np.allclose(a, b)
