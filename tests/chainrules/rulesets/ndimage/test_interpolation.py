"""Rules of chainrules/rulesets/ndimage/interpolation.py and the spline machinery of _splines.py.

The samples (every order 0 to 5, every mode, prefilter on and off, float32, complex, 1-d to
3-d, points far outside) are checked against finite differences by
tests/chainrules/test_every_rule.py. Here: the reproduction of SciPy's sampling that the
derivatives rest on, the exact transposes of the prefilter and of the whole interpolation
(against matrices built from the primal alone), and the conventions of the module docstring.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.ndimage as ndi

import chainrules  # noqa: F401  (registers the rules)
from chainrules import NotImplementedTangent, ZeroTangent, rrule, unthunk
from chainrules.rulesets.ndimage._splines import Sampler, prefilter, spline_filter1d_transpose
from chainrules.testing import test_rrule

MODES = ["constant", "grid-constant", "nearest", "reflect", "grid-mirror", "mirror", "wrap", "grid-wrap"]


@pytest.mark.parametrize("mode", MODES)
def test_the_sampler_reproduces_scipy(mode, rand):
    # every order, points far outside (repeated reflections, periods), with and without the prefilter
    x = rand((5, 4))
    points = np.random.default_rng(1).uniform(-12, 16, (2, 60))
    for order in range(6):
        raw = ndi.map_coordinates(x, points, order=order, mode=mode, cval=0.7, prefilter=False)
        np.testing.assert_allclose(Sampler(points, x.shape, order, mode, 0).values(x, 0.7), raw, atol=1e-12)
        if order > 1:
            c, pad = prefilter(x, order, mode, 0.7)
            filtered = ndi.map_coordinates(x, points, order=order, mode=mode, cval=0.7)
            np.testing.assert_allclose(Sampler(points, c.shape, order, mode, pad).values(c, 0.7), filtered,
                                       atol=1e-12)


@pytest.mark.parametrize("mode", MODES)
def test_prefilter_transpose_is_exact(mode, rand):
    # short lines too, where the half-sample filter is not symmetric
    for order in range(2, 6):
        for n in (2, 3, 6, 17, 33):
            S = ndi.spline_filter1d(np.eye(n), order, axis=0, mode=mode)
            v = rand((n, 2))
            np.testing.assert_allclose(spline_filter1d_transpose(v, order, 0, mode), S.T @ v, atol=1e-12)


def _matrix(f, shape):
    n = int(np.prod(shape))
    return np.array([f(np.eye(n)[j].reshape(shape)).ravel() for j in range(n)]).T


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("order", [1, 3, 4])
def test_map_coordinates_pullback_is_the_transpose(mode, order, rand):
    x, points = rand((3, 4)), np.random.default_rng(2).uniform(-3, 6, (2, 7))
    M = _matrix(lambda a: ndi.map_coordinates(a, points, order=order, mode=mode), x.shape)
    _, pullback = rrule(ndi.map_coordinates, x, points, None, order, mode)
    dy = rand(7)
    np.testing.assert_allclose(unthunk(pullback(dy)[1]), (M.T @ dy).reshape(x.shape), atol=1e-11)


def test_a_homogeneous_matrix_is_the_matrix_and_the_offset(rand):
    x, dy = rand((4, 5)), rand((4, 5))
    m, offset = np.array([[0.9, 0.2], [-0.1, 1.1]]), np.array([0.3, -0.4])
    h = np.eye(3)
    h[:2, :2], h[:2, 2] = m, offset
    _, pullback = rrule(ndi.affine_transform, x, h, 0.0, None, None, 3, "nearest")
    _, reference = rrule(ndi.affine_transform, x, m, offset, None, None, 3, "nearest")
    dh, dunused = unthunk(pullback(dy)[2]), unthunk(pullback(dy)[3])
    np.testing.assert_allclose(dh[:2, :2], unthunk(reference(dy)[2]), rtol=1e-12)
    np.testing.assert_allclose(dh[:2, 2], unthunk(reference(dy)[3]), rtol=1e-12)
    assert np.all(dh[2] == 0) and dunused == ZeroTangent()


def test_zoom_factor_has_a_zero_derivative(rand):
    _, pullback = rrule(ndi.zoom, rand((3, 4)), 1.3)
    assert unthunk(pullback(rand((4, 5)))[2]) == ZeroTangent()


def test_points_outside_in_constant_mode_read_cval_only(rand):
    # a point outside the input is cval exactly: no derivative in the input or the point, 1 in cval
    x = rand((3, 3))
    _, pullback = rrule(ndi.map_coordinates, x, np.array([[5.2], [1.0]]), None, 3, "constant", 0.5)
    cotangents = pullback(np.ones(1))
    assert np.all(unthunk(cotangents[1]) == 0) and np.all(unthunk(cotangents[2]) == 0)
    assert unthunk(cotangents[6]) == 1.0


def test_geometric_transform_with_values_it_cannot_see(rand):
    scale = 0.7

    def carried(o):
        return tuple(scale * c for c in o)

    _, pullback = rrule(ndi.geometric_transform, rand((3, 3)), carried)
    cotangents = pullback(rand((3, 3)))
    assert isinstance(unthunk(cotangents[2]), NotImplementedTangent)   # the mapping's closure (scale)
    test_rrule(ndi.geometric_transform, rand((3, 3)), lambda o: (0.5 * o[0], o[1] + 0.25), fkwargs={"order": 2})
