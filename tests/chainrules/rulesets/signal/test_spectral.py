"""Rules of chainrules/rulesets/signal/spectral.py."""

from __future__ import annotations

import numpy as np
import scipy.signal

from chainrules import NotImplementedTangent, ZeroTangent, rrule, unthunk
from chainrules.rulesets.signal.spectral import Segments
from chainrules.testing import test_rrule


def test_segments_reproduce_scipys_stft():
    # the rules recompute SciPy's segment spectra: they must be the same numbers
    rng = np.random.default_rng(0)
    x = rng.standard_normal(30)
    w = scipy.signal.get_window("hann", 8)
    for boundary, mode in ((None, None), ("zeros", "constant"), ("even", "reflect"), ("odd", "antireflect"),
                           ("constant", "edge")):
        _f, _t, Z = scipy.signal.stft(x, window="hann", nperseg=8, boundary=boundary, padded=True, detrend=False)
        X = Segments(w, 8, 4, 8, True, False, 30, mode, True).spectra(x)
        np.testing.assert_allclose(X.T / np.sum(w), Z, atol=1e-12)


def test_window_arrays_and_callable_detrending_are_not_implemented():
    x = np.random.default_rng(1).standard_normal(16)
    _, pullback = rrule(scipy.signal.welch, x, 1.0, np.hanning(8))
    cotangents = pullback((ZeroTangent(), np.ones(5)))
    assert isinstance(cotangents[3], NotImplementedTangent) and not isinstance(cotangents[1], NotImplementedTangent)
    _, pullback = rrule(scipy.signal.welch, x, nperseg=8, detrend=lambda d: d - d.mean())
    assert isinstance(pullback((ZeroTangent(), np.ones(5)))[1], NotImplementedTangent)


def test_median_average_sends_the_cotangent_to_the_median_segment():
    x = np.zeros(16)
    x[:4] = [1.0, -1.0, 2.0, 0.5]                    # only the first segment has power
    _, pullback = rrule(scipy.signal.welch, x, nperseg=4, noverlap=0, detrend=False, average="median")
    g = unthunk(pullback((ZeroTangent(), np.ones(3)))[1])
    assert np.all(g == 0)                            # the median segment is one of the zero ones
    # away from ties (a ramp would make every detrended segment alike), against finite differences
    test_rrule(scipy.signal.welch, np.random.default_rng(2).standard_normal(16),
               fkwargs={"nperseg": 4, "average": "median"})
