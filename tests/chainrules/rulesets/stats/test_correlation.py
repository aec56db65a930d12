"""Tests of chainrules/rulesets/stats/correlation.py: pearsonr's statistic and p-value."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.stats as st

import chainrules  # noqa: F401  (registers the rules)
from chainrules import rrule, unthunk
from chainrules_core import NotImplementedTangent, Tangent


def test_statistic_is_invariant_to_shifts_and_scalings():
    rng = np.random.default_rng(2)
    x, y = rng.standard_normal(7), rng.standard_normal(7)
    res, pullback = rrule(st.pearsonr, x, y)
    dx = unthunk(pullback(Tangent(type(res), statistic=1.0))[1])
    assert float(dx.sum()) == pytest.approx(0.0, abs=1e-15)
    assert float(dx @ x) == pytest.approx(0.0, abs=1e-15)


def test_a_resampled_p_value_is_not_implemented_the_statistic_still_is():
    rng = np.random.default_rng(2)
    x, y = rng.standard_normal(6), rng.standard_normal(6)
    method = st.PermutationMethod(n_resamples=50, rng=0)
    res, pullback = rrule(st.pearsonr, x, y, method=method)
    assert isinstance(unthunk(pullback(Tangent(type(res), pvalue=1.0))[1]), NotImplementedTangent)
    assert not isinstance(unthunk(pullback(Tangent(type(res), statistic=1.0))[1]), NotImplementedTangent)


def test_two_points_give_a_constant():
    res, pullback = rrule(st.pearsonr, np.array([0.0, 1.0]), np.array([2.0, 5.0]))
    dx = unthunk(pullback(Tangent(type(res), statistic=1.0, pvalue=1.0))[1])
    np.testing.assert_array_equal(dx, 0.0)
