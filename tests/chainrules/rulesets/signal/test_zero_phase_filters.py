"""Rules of chainrules/rulesets/signal/zero_phase_filters.py."""

from __future__ import annotations

import numpy as np
import scipy.signal

from chainrules import NoTangent, NotImplementedTangent, frule, rrule, unthunk
from chainrules.testing import PrimalAndTangent, test_rrule


def test_gustafsson_is_exact_in_x_and_not_implemented_in_the_coefficients():
    rng = np.random.default_rng(0)
    b, a, x = np.array([0.25, 0.3, 0.1]), np.array([1.3, -0.5, 0.15]), rng.standard_normal(20)
    _, pullback = rrule(scipy.signal.filtfilt, b, a, x, method="gust")
    cotangents = [unthunk(c) for c in pullback(np.ones(20))]
    assert isinstance(cotangents[1], NotImplementedTangent) and isinstance(cotangents[2], NotImplementedTangent)
    assert "method='pad'" in cotangents[1].info
    test_rrule(scipy.signal.filtfilt, PrimalAndTangent(b, NoTangent()), PrimalAndTangent(a, NoTangent()), x,
               fkwargs={"method": "gust", "irlen": 5})
    _, dy = frule((None, np.ones(3), None, None), scipy.signal.filtfilt, b, a, x, method="gust")
    assert isinstance(dy, NotImplementedTangent)
