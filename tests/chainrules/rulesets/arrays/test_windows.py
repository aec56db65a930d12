"""Rules of chainrules/rulesets/arrays/windows.py, checked against finite differences."""

from __future__ import annotations

import numpy as np
import pytest

import chainrules  # registers the rules
import chainrules.rulesets.arrays.windows  # noqa: F401  (until registration discovery lands)
from chainrules import NoTangent, ProjectionError, ZeroTangent, frule, rrule, unthunk
from chainrules.testing import PrimalAndTangent, test_frule, test_rrule


@pytest.mark.parametrize("M", [0, 1, 2, 5, 8])
@pytest.mark.parametrize("beta", [0.0, 0.5, 6.0, -3.0, 80.0])
def test_kaiser(M, beta):
    test_rrule(np.kaiser, M, beta)
    test_frule(np.kaiser, M, beta)


def test_kaiser_beta_types():
    test_rrule(np.kaiser, 6, np.float32(2.5))              # NumPy computes in float64; the cotangent is float32
    assert unthunk(rrule(np.kaiser, 6, np.float32(2.5))[1](np.ones(6))[2]).dtype == np.float32
    test_rrule(np.kaiser, 6, np.array(2.5))
    test_frule(np.kaiser, 6, np.float64(2.5))
    test_rrule(np.kaiser, 6, 3)                            # an integer beta is not differentiated
    assert rrule(np.kaiser, 6, 3)[1](np.ones(6))[2] == NoTangent()
    assert rrule(np.kaiser, 6, 2.0 + 1j) is None           # complex beta: no rule


def test_kaiser_length_is_not_differentiated():
    test_rrule(np.kaiser, PrimalAndTangent(7.0, NoTangent()), 4.0)
    assert rrule(np.kaiser, 7.0, 4.0)[1](np.ones(7))[1] == NoTangent()
    assert frule((NoTangent(), NoTangent(), ZeroTangent()), np.kaiser, 4, 2.0)[1] == ZeroTangent()


def test_kaiser_large_beta_does_not_overflow():
    _, pullback = rrule(np.kaiser, 9, 500.0)
    assert np.isfinite(unthunk(pullback(np.ones(9))[2]))
    test_rrule(np.kaiser, 9, 500.0)


def test_kaiser_wrong_cotangent():
    _, pullback = rrule(np.kaiser, 4, 2.0)
    with pytest.raises(ProjectionError, match=r"np\.kaiser pullback: output cotangent"):
        pullback(np.ones(5))
