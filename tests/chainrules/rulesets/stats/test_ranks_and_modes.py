"""Tests of chainrules/rulesets/stats/ranks_and_modes.py."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.stats as st

import chainrules  # noqa: F401  (registers the rules)
from chainrules import frule, rrule
from chainrules_core import NoTangent, Tangent


@pytest.mark.parametrize("f, args", [(st.rankdata, (np.array([0.3, 0.1]),)),
                                     (st.spearmanr, (np.array([0.3, 0.1, 0.7]), np.array([1.0, 2.0, 0.5]))),
                                     (st.kendalltau, (np.array([0.3, 0.1, 0.7]), np.array([1.0, 2.0, 0.5])))])
def test_rank_statistics_are_non_differentiable(f, args):
    _y, pullback = rrule(f, *args)
    assert all(isinstance(c, NoTangent) for c in pullback(None))
    assert isinstance(frule((None,) + tuple(np.ones_like(a) for a in args), f, *args)[1], NoTangent)


def test_mode_of_tied_entries_shares_the_cotangent():
    res, pullback = rrule(st.mode, np.array([[2.0, 1.0, 2.0, 3.0]]), 1)
    np.testing.assert_allclose(pullback(Tangent(type(res), mode=np.array([1.0])))[1], [[0.5, 0, 0.5, 0]])
    assert isinstance(frule((None, np.ones((1, 4)), None), st.mode, np.array([[2.0, 1.0, 2.0, 3.0]]), 1)[1].count,
                      NoTangent)
