"""Rules of chainrules/rulesets/ndimage/correlation.py.

Every sample of the four functions (every mode, float32, complex inputs and weights, both
spellings of the options) is checked against finite differences by
tests/chainrules/test_every_rule.py; the tests here check what the samples cannot: the
pullback is exactly the transpose of the matrix of the filter (built from the primal alone),
for every mode and kernels longer than the image, and the documented conventions.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.ndimage as ndi

import chainrules  # noqa: F401  (registers the rules)
from chainrules import NoTangent, UnsupportedKeywordError, ZeroTangent, frule, rrule, unthunk
from chainrules.rulesets.ndimage._samples import MODES
from chainrules.testing import test_rrule


def _matrix(f, shape):
    """The matrix of the linear map f (columns: f of each unit array)."""
    n = int(np.prod(shape))
    columns = [f(np.eye(n)[j].reshape(shape)).ravel() for j in range(n)]
    return np.array(columns).T


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("function", [ndi.correlate1d, ndi.convolve1d])
def test_pullback_is_the_transpose_1d(function, mode, rand):
    x, w, dy = rand((2, 3)), rand(8), rand((2, 3))  # a kernel longer than the lines: the extension repeats
    M = _matrix(lambda a: function(a, w, 1, None, mode, 0.0, 1), x.shape)
    _, pullback = rrule(function, x, w, 1, None, mode, 0.0, 1)
    np.testing.assert_allclose(unthunk(pullback(dy)[1]), (M.T @ dy.ravel()).reshape(x.shape), atol=1e-12)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("function", [ndi.correlate, ndi.convolve])
def test_pullback_is_the_transpose_nd(function, mode, rand):
    x, w, dy = rand((2, 3)), rand((3, 4)), rand((2, 3))
    M = _matrix(lambda a: function(a, w, None, mode, 0.0, (1, -1)), x.shape)
    _, pullback = rrule(function, x, w, None, mode, 0.0, (1, -1))
    np.testing.assert_allclose(unthunk(pullback(dy)[1]), (M.T @ dy.ravel()).reshape(x.shape), atol=1e-12)


@pytest.mark.parametrize("mode", ["reflect", "nearest", "mirror", "wrap"])
def test_cval_is_unused_outside_the_constant_mode(mode, rand):
    _, pullback = rrule(ndi.correlate1d, rand(5), rand(3), -1, None, mode, 0.5)
    assert unthunk(pullback(rand(5))[6]) == ZeroTangent()


def test_cval_cotangent_in_constant_mode(rand):
    # y = correlate1d(x, w) + cval * (sum of the weights reading the padding): checked against finite differences
    test_rrule(ndi.correlate1d, rand(4), rand(5), -1, None, "constant", 0.25)
    test_rrule(ndi.correlate, rand((3, 3)), rand((3, 2)), None, "grid-constant", -1.5)


def test_integer_input_with_a_float_output(rand):
    # the input is not differentiated; the weights still are (output=np.float64 keeps the result real)
    x = np.arange(6).reshape(2, 3)
    test_rrule(ndi.correlate1d, x, rand(3), 1, np.float64, "reflect")
    _, pullback = rrule(ndi.correlate1d, x, rand(3), 1, np.float64)
    assert pullback(rand((2, 3)))[1] == NoTangent()


def test_integer_output_has_no_derivative(rand):
    # SciPy keeps an integer input's dtype: the output is rounded, its cotangent is read as zero
    _, pullback = rrule(ndi.correlate1d, np.arange(6), rand(3))
    assert unthunk(pullback(np.ones(6))[2]) == ZeroTangent()


def test_an_output_array_is_refused(rand):
    with pytest.raises(UnsupportedKeywordError, match=r"scipy\.ndimage\.correlate1d: output= an array"):
        rrule(ndi.correlate1d, rand(4), rand(3), -1, np.zeros(4))
    with pytest.raises(UnsupportedKeywordError, match=r"scipy\.ndimage\.convolve: output= an array"):
        frule((NoTangent(), rand((2, 2)), rand((2, 2))), ndi.convolve, rand((2, 2)), rand((2, 2)),
              output=np.zeros((2, 2)))


def test_bad_primal_input_raises_scipys_error(rand):
    with pytest.raises(ValueError, match="Invalid origin"):
        rrule(ndi.correlate1d, rand(4), rand(3), -1, None, "reflect", 0.0, 2)
    with pytest.raises(RuntimeError, match="boundary mode not supported"):
        rrule(ndi.correlate, rand((2, 2)), rand((2, 2)), None, "periodic")
