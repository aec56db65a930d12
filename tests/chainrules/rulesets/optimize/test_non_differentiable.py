"""Rules of chainrules/rulesets/optimize/non_differentiable.py."""

from __future__ import annotations

import numpy as np
import scipy.optimize as so

from chainrules_core import NoTangent, frule, rrule


def test_linear_sum_assignment_is_not_differentiable():
    cost = np.array([[4.0, 1.0, 3.0], [2.0, 0.0, 5.0], [3.0, 2.0, 2.0]])
    (rows, cols), pullback = rrule(so.linear_sum_assignment, cost)
    assert pullback(None) == (NoTangent(), NoTangent())
    assert frule((NoTangent(), np.ones((3, 3))), so.linear_sum_assignment, cost)[1] == NoTangent()
    assert cost[rows, cols].sum() == 5.0
