"""Rules of chainrules/rulesets/ndimage/smoothing.py.

The samples (every mode, orders 0 to 3, per-axis sigma, float32, complex, both spellings) are
checked against finite differences by tests/chainrules/test_every_rule.py. Here: the pullback
is the transpose of the filter's matrix (built from the primal alone) with kernels wider than
the image, and the conventions of the module docstring.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.ndimage as ndi

import chainrules  # noqa: F401  (registers the rules)
from chainrules import NoTangent, Tangent, ZeroTangent, rrule, unthunk
from chainrules.rulesets.ndimage._samples import MODES
from chainrules.testing import test_frule, test_rrule


def _matrix(f, shape):
    n = int(np.prod(shape))
    return np.array([f(np.eye(n)[j].reshape(shape)).ravel() for j in range(n)]).T


@pytest.mark.parametrize("mode", MODES)
def test_gaussian_pullback_is_the_transpose(mode, rand):
    x, dy = rand((3, 2)), rand((3, 2))
    options = dict(sigma=(1.7, 0.9), order=(1, 0), mode=mode)  # radius 7 and 4: wider than the image
    M = _matrix(lambda a: ndi.gaussian_filter(a, **options), x.shape)
    _, pullback = rrule(ndi.gaussian_filter, x, options["sigma"], options["order"], None, mode)
    np.testing.assert_allclose(unthunk(pullback(dy)[1]), (M.T @ dy.ravel()).reshape(x.shape), atol=1e-12)


@pytest.mark.parametrize("mode", MODES)
def test_uniform_pullback_is_the_transpose(mode, rand):
    x, dy = rand((3, 4)), rand((3, 4))
    M = _matrix(lambda a: ndi.uniform_filter(a, (4, 6), None, mode, 0.0, (-2, 2)), x.shape)
    _, pullback = rrule(ndi.uniform_filter, x, (4, 6), None, mode, 0.0, (-2, 2))
    np.testing.assert_allclose(unthunk(pullback(dy)[1]), (M.T @ dy.ravel()).reshape(x.shape), atol=1e-12)


def test_truncate_has_a_zero_derivative(rand):
    _, pullback = rrule(ndi.gaussian_filter1d, rand(6), 0.8, -1, 0, None, "reflect", 0.0, 3.0)
    assert unthunk(pullback(rand(6))[8]) == ZeroTangent()
    _, pullback = rrule(ndi.gaussian_filter, rand((3, 3)), 0.8, 0, None, "reflect", 0.0, 3.0)
    assert unthunk(pullback(rand((3, 3)))[7]) == ZeroTangent()


def test_a_skipped_axis_has_a_zero_sigma_cotangent(rand):
    # sigma <= 1e-15 skips the axis (SciPy copies it through): its entry of the cotangent is zero
    _, pullback = rrule(ndi.gaussian_filter, rand((3, 4)), [0.8, 0.0])
    dsigma = unthunk(pullback(rand((3, 4)))[2])
    assert isinstance(dsigma, Tangent) and dsigma[1] == 0.0 and dsigma[0] != 0.0


def test_sigma_derivative_of_every_order(rand):
    # the exact kernel derivative, checked against finite differences of the filter itself
    x = rand((5,))
    for order in range(4):
        test_rrule(ndi.gaussian_filter1d, x, 1.1, -1, order)
        test_frule(ndi.gaussian_filter1d, x, 1.1, -1, order)


def test_integer_sigma_and_size_are_not_differentiated(rand):
    _, pullback = rrule(ndi.gaussian_filter, rand((3, 3)), 1)
    assert pullback(rand((3, 3)))[2] == NoTangent()
    _, pullback = rrule(ndi.uniform_filter1d, rand(5), 3)
    assert pullback(rand(5))[2] == NoTangent()
