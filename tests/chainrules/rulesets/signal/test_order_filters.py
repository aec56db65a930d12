"""Rules of chainrules/rulesets/signal/order_filters.py."""

from __future__ import annotations

import numpy as np
import scipy.signal

from chainrules import frule, rrule
from chainrules.rulesets.signal.order_filters import selected_sources


def test_selection_reproduces_scipy():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((6, 7))
    domain = np.array([[0, 1, 0], [1, 1, 1], [0, 1, 0]])
    for rank in range(5):
        src = selected_sources(x, domain != 0, rank)
        values = np.where(src >= 0, x.ravel()[np.maximum(src, 0)], 0.0)
        np.testing.assert_array_equal(values, scipy.signal.order_filter(x, domain, rank))


def test_ties_follow_the_window_order_and_padding_gives_nothing():
    x = np.array([2.0, 2.0, 2.0])
    _, pullback = rrule(scipy.signal.medfilt, x, 3)
    # windows [0,x0,x1], [x0,x1,x2], [x1,x2,0] sorted stably: rank 1 is x0, x1, x1
    np.testing.assert_array_equal(pullback(np.ones(3))[1], [1.0, 2.0, 0.0])
    _y, dy = frule((None, np.array([1.0, 10.0, 100.0]), None), scipy.signal.medfilt, np.array([5.0, 1.0, 5.0]), 3)
    np.testing.assert_array_equal(dy, [10.0, 1.0, 10.0])   # medians x1, x0 (the first 5 in window order), x1
