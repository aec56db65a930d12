"""Rules of chainrules/rulesets/signal/smoothing.py."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.signal

from chainrules import NoTangent, rrule
from chainrules.testing import test_rrule


@pytest.mark.parametrize("kind", ["linear", "constant"])
def test_detrend_is_a_symmetric_projection(kind):
    rng = np.random.default_rng(0)
    x, dy = rng.standard_normal(10), rng.standard_normal(10)
    _, pullback = rrule(scipy.signal.detrend, x, -1, kind, [4])
    np.testing.assert_allclose(pullback(dy)[1], scipy.signal.detrend(dy, -1, kind, [4]), atol=1e-12)


def test_savgol_interp_edges_against_the_dense_matrix():
    rng = np.random.default_rng(1)
    x = rng.standard_normal(9)
    S = np.stack([scipy.signal.savgol_filter(e, 5, 2, 1, 0.5) for e in np.eye(9)], axis=1)
    dy = rng.standard_normal(9)
    np.testing.assert_allclose(rrule(scipy.signal.savgol_filter, x, 5, 2, 1, 0.5)[1](dy)[1], S.T @ dy, atol=1e-12)


def test_savgol_delta_by_keyword_is_not_differentiated():
    x = np.random.default_rng(2).standard_normal(9)
    _, pullback = rrule(scipy.signal.savgol_filter, x, 5, 2, deriv=1, delta=0.5)
    assert len(pullback(np.ones(9))) == 4
    _, pullback = rrule(scipy.signal.savgol_filter, x, 5, 2, 0, 0.5)       # deriv 0: y does not depend on delta
    assert pullback(np.ones(9))[5] == 0.0
    test_rrule(scipy.signal.savgol_filter, x, 5, 2, 0, 0.5)
    assert rrule(scipy.signal.savgol_filter, x, 5, 2)[1](np.ones(9))[2] == NoTangent()
