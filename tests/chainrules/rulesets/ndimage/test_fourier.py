"""Rules of chainrules/rulesets/ndimage/fourier.py.

The samples (complex and real transforms along either axis, a parameter per axis, one to
three axes, float32 and complex64) are checked against finite differences by
tests/chainrules/test_every_rule.py. Here: the factor the rules differentiate is the one
SciPy multiplies by (the filter applied to ones), and the Gaussian's cut-off.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.ndimage as ndi

import chainrules  # noqa: F401  (registers the rules)
from chainrules import rrule, unthunk
from chainrules.rulesets.ndimage.fourier import fourier_factor
from chainrules.testing import test_rrule

FILTERS = [(ndi.fourier_gaussian, "gaussian", [0.7, 1.9, 0.4]), (ndi.fourier_uniform, "uniform", [1.3, 2.2, 0.6]),
           (ndi.fourier_ellipsoid, "ellipsoid", [1.3, 2.2, 0.6]), (ndi.fourier_shift, "shift", [0.4, -1.1, 2.5])]


@pytest.mark.parametrize(("function", "kind", "values"), FILTERS, ids=[k for _, k, _ in FILTERS])
@pytest.mark.parametrize(("shape", "n", "axis"), [((7,), -1, 0), ((4, 5), -1, 1), ((4, 5), 8, 1), ((3, 1, 4), 6, 0),
                                                  ((1, 6), -1, 0)])
def test_the_factor_is_scipys(function, kind, values, shape, n, axis):
    ones = np.ones(shape, dtype=np.complex128)
    parameters = values[:len(shape)]
    H, _ = fourier_factor(kind, shape, parameters, n, axis)
    np.testing.assert_allclose(H * ones, function(ones, parameters, n, axis), rtol=1e-13, atol=1e-15)


def test_gaussian_cut_off_has_a_zero_derivative(rand):
    # SciPy sets a factor to 0 where |a k^2| > 50: no derivative there (the finite differences agree)
    x = np.fft.fft(rand(16))
    _, dH = fourier_factor("gaussian", (16,), [9.0], -1, 0)
    assert np.any(dH[0] == 0) and np.any(dH[0] != 0)
    test_rrule(ndi.fourier_gaussian, x, 9.0)


def test_a_sequence_parameter_gets_one_cotangent_per_axis(rand):
    x = np.fft.fft2(rand((3, 4)))
    _, pullback = rrule(ndi.fourier_shift, x, np.array([0.3, 0.8]))
    dshift = unthunk(pullback(rand((3, 4), np.complex128))[2])
    assert isinstance(dshift, np.ndarray) and dshift.shape == (2,)
