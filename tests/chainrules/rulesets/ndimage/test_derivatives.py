"""Rules of chainrules/rulesets/ndimage/derivatives.py.

The samples (every mode, a mode per axis, float32, complex, through a config) are checked
against finite differences by tests/chainrules/test_every_rule.py. Here: the pullbacks of the
linear ones are transposes of their matrices (built from the primal alone), the zero
subgradient of the gradient magnitude where it vanishes, and the higher-order rules'
handling of filters with and without rules and of ``extra_arguments``.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.ndimage as ndi

import chainrules  # noqa: F401  (registers the rules)
from chainrules import NoTangent, RulesOnlyConfig, frule, rrule, unthunk
from chainrules.rulesets.ndimage._samples import MODES
from chainrules.testing import test_frule, test_rrule
from chainrules_core import ProjectTo, cotangent_projector


def _matrix(f, shape):
    n = int(np.prod(shape))
    return np.array([f(np.eye(n)[j].reshape(shape)).ravel() for j in range(n)]).T


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("function", [ndi.sobel, ndi.prewitt])
def test_edge_filters_pullback_is_the_transpose(function, mode, rand):
    x, dy = rand((3, 2, 2)), rand((3, 2, 2))
    M = _matrix(lambda a: function(a, 1, None, mode), x.shape)
    _, pullback = rrule(function, x, 1, None, mode)
    np.testing.assert_allclose(unthunk(pullback(dy)[1]), (M.T @ dy.ravel()).reshape(x.shape), atol=1e-12)


@pytest.mark.parametrize("mode", MODES)
def test_laplace_pullbacks_are_the_transpose(mode, rand):
    x, dy = rand((2, 3)), rand((2, 3))
    for f, args in [(ndi.laplace, (None, mode)), (ndi.gaussian_laplace, (1.3, None, mode))]:
        M = _matrix(lambda a, f=f, args=args: f(a, *args), x.shape)
        _, pullback = rrule(f, x, *args)
        np.testing.assert_allclose(unthunk(pullback(dy)[1]), (M.T @ dy.ravel()).reshape(x.shape), atol=1e-12)


def test_gradient_magnitude_of_a_flat_image_has_the_zero_subgradient():
    # every Gaussian derivative vanishes: y = 0, a cone point; the rules use the subgradient 0
    x = np.full((3, 4), 2.0)
    y, pullback = rrule(ndi.gaussian_gradient_magnitude, x, 1.0)
    assert np.all(y == 0)
    dx = unthunk(pullback(np.ones((3, 4)))[1])
    assert np.all(dx == 0)
    _, dy = frule((NoTangent(), np.ones((3, 4)), 0.0), ndi.gaussian_gradient_magnitude, x, 1.0)
    assert np.all(np.isfinite(dy))


def test_generic_filters_need_a_rule_for_the_filter(rand):
    def anonymous(input, axis, output, mode, cval):
        return ndi.sobel(input, axis, output, mode, cval)

    assert rrule(ndi.generic_gradient_magnitude, rand((3, 3)), anonymous) is None
    assert frule((NoTangent(), rand((3, 3)), NoTangent()), ndi.generic_laplace, rand((3, 3)), anonymous) is None


def _scaled_sobel(input, axis, output, mode, cval, scale):
    """A filter with an extra argument and rules of its own, for the higher-order rules.

    It keeps SciPy's contract: the result goes into ``output`` when that is an array (SciPy
    reads its output array back after the first call and ignores what the filter returns).
    """
    result = ndi.sobel(input, axis, output, mode, cval)
    result *= scale
    return result


@rrule.register(_scaled_sobel)
def _scaled_sobel_rrule(input, axis, output, mode, cval, scale):
    y0, pullback0 = rrule(ndi.sobel, input, axis, output, mode, cval)
    project_scale = cotangent_projector(scale)

    def _scaled_sobel_pullback(dy):
        cotangents = pullback0(scale * np.asarray(unthunk(dy)))
        return (*cotangents, project_scale(np.vdot(y0, unthunk(dy))))

    return scale * y0, _scaled_sobel_pullback


@frule.register(_scaled_sobel)
def _scaled_sobel_frule(tangents, input, axis, output, mode, cval, scale):
    y0, dy0 = frule(tangents[:6], ndi.sobel, input, axis, output, mode, cval)
    ds = unthunk(tangents[6])
    dy = scale * unthunk(dy0) + (0 if isinstance(ds, NoTangent) or ds is None else ds * y0)
    return scale * y0, ProjectTo(y0)(dy)


@pytest.mark.parametrize("function", [ndi.generic_gradient_magnitude, ndi.generic_laplace])
def test_generic_filters_differentiate_extra_arguments(function, rand):
    x = rand((3, 4))
    for config in (None, RulesOnlyConfig()):
        test_rrule(function, x, _scaled_sobel, None, "constant", 0.3, (1.7,), config=config)
        test_frule(function, x, _scaled_sobel, None, "constant", 0.3, (1.7,), config=config)


@pytest.mark.parametrize("function", [ndi.generic_gradient_magnitude, ndi.generic_laplace])
def test_generic_filters_match_scipy(function, rand):
    x = rand((3, 4))
    for args in [(ndi.sobel,), (ndi.prewitt, None, ("wrap", "constant"), 0.5)]:
        y, _ = rrule(function, x, *args)
        np.testing.assert_allclose(y, function(x, *args), rtol=1e-14)
