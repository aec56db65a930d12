"""Rules of chainrules/rulesets/signal/resampling.py."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.signal

from chainrules import NotImplementedTangent, frule, rrule, unthunk
from chainrules.testing import test_rrule


@pytest.mark.parametrize("mode", ["constant", "symmetric", "reflect", "edge", "wrap", "smooth", "antisymmetric",
                                  "antireflect", "line"])
def test_upfirdn_pullback_is_the_transpose(mode):
    rng = np.random.default_rng(0)
    h, x = rng.standard_normal(5), rng.standard_normal(6)
    U = np.stack([scipy.signal.upfirdn(h, e, 3, 2, mode=mode) for e in np.eye(6)], axis=1)
    dy = rng.standard_normal(U.shape[0])
    np.testing.assert_allclose(unthunk(rrule(scipy.signal.upfirdn, h, x, 3, 2, -1, mode)[1](dy)[2]), U.T @ dy,
                               atol=1e-12)


def test_resample_poly_named_window_parameters_are_not_implemented():
    x = np.random.default_rng(1).standard_normal(12)
    y, pullback = rrule(scipy.signal.resample_poly, x, 2, 3, 0, ("kaiser", 5.0))
    assert isinstance(pullback(np.ones(y.shape))[5], NotImplementedTangent)
    assert isinstance(frule((None, None, None, None, None, chainrules_tangent()), scipy.signal.resample_poly, x, 2, 3,
                            0, ("kaiser", 5.0))[1], NotImplementedTangent)
    test_rrule(scipy.signal.resample_poly, x, 2, 3, 0, np.kaiser(21, 5.0))   # the same filter as an array: exact


def chainrules_tangent():
    from chainrules import NoTangent, Tangent

    return Tangent(tuple, NoTangent(), 1.0)


def test_resample_is_linear_through_the_unpaired_bin():
    rng = np.random.default_rng(2)
    for n, num in ((8, 6), (8, 12), (7, 10), (9, 4)):
        x = rng.standard_normal(n)
        R = np.stack([scipy.signal.resample(e, num) for e in np.eye(n)], axis=1)
        dy = rng.standard_normal(num)
        np.testing.assert_allclose(rrule(scipy.signal.resample, x, num)[1](dy)[1], R.T @ dy, atol=1e-12)
