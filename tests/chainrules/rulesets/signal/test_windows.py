"""Rules of chainrules/rulesets/signal/windows.py and non_differentiable.py."""

from __future__ import annotations

import numpy as np
import scipy.signal
import scipy.signal.windows as windows

from chainrules import NoTangent, NotImplementedTangent, Tangent, rrule
from chainrules.testing import test_frule, test_rrule


def test_shape_parameters_without_a_derivative_are_not_implemented():
    for f, args in ((windows.chebwin, (9, 60.0)), (windows.dpss, (9, 2.5)), (windows.taylor, (9, 4, 35.0))):
        y, pullback = rrule(f, *args)
        assert isinstance(pullback(np.ones(y.shape))[-1], NotImplementedTangent)


def test_get_window_differentiates_the_parameters_of_a_tuple():
    _y, pullback = rrule(scipy.signal.get_window, ("gaussian", 1.5), 7)
    ct = pullback(np.ones(7))[1]
    assert isinstance(ct, Tangent)
    expected = rrule(windows.gaussian, 7, 1.5, False)[1](np.ones(7))[2]
    assert np.isclose(ct[1], expected)
    test_rrule(scipy.signal.get_window, ("exponential", None, 2.0), 8)
    test_frule(scipy.signal.get_window, ("tukey", 0.4), 9, False)
    assert rrule(scipy.signal.get_window, "hann", 8)[1](np.ones(8))[1] == NoTangent()
    assert isinstance(rrule(scipy.signal.get_window, ("chebwin", 60.0), 8)[1](np.ones(8))[1][1], NotImplementedTangent)


def test_peaks_are_indices():
    (peaks, _props), pullback = rrule(scipy.signal.find_peaks, np.array([0.0, 2.0, 1.0, 3.0, 0.0]), height=0.5)
    np.testing.assert_array_equal(peaks, [1, 3])
    assert pullback(None) == (NoTangent(), NoTangent())
