"""Rules of chainrules/rulesets/elementwise/exponential.py, checked against finite differences."""

from __future__ import annotations

import numpy as np
import pytest

import chainrules  # noqa: F401  (registers the rules)
from chainrules import rrule, unthunk
from chainrules.testing import test_rrule

UNARY = [
    (np.exp, (-2.0, 2.0), (-1.5, 1.5)),
    (np.exp2, (-2.0, 2.0), (-1.5, 1.5)),
    (np.expm1, (-2.0, 2.0), (-1.5, 1.5)),
    (np.log, (0.2, 3.0), (-2.0, 2.0)),
    (np.log2, (0.2, 3.0), (-2.0, 2.0)),
    (np.log10, (0.2, 3.0), (-2.0, 2.0)),
    (np.log1p, (-0.8, 3.0), (-0.5, 2.0)),
]


def test_unary(unary_case, check_unary):
    f, real_range, complex_range, dtype = unary_case
    check_unary(f, *real_range, dtype, complex_range=complex_range)


@pytest.mark.parametrize("f", [np.logaddexp, np.logaddexp2])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_logaddexp(f, dtype, check_binary):
    check_binary(f, ((-3.0, 3.0), (-3.0, 3.0)), dtype)
    test_rrule(f, np.array([-800.0, 800.0]), np.array([-801.0, 799.0]))  # exp would overflow


@pytest.mark.parametrize("f", [np.logaddexp, np.logaddexp2])
def test_logaddexp_ties_and_infinities_share_equally(f):
    x = np.array([0.5, -np.inf, np.inf, -np.inf])
    y = np.array([0.5, -np.inf, np.inf, 1.0])
    _, pullback = rrule(f, x, y)
    dx, dy = (unthunk(c) for c in pullback(np.ones(4))[1:])
    assert np.array_equal(dx, [0.5, 0.5, 0.5, 0.0])
    assert np.array_equal(dy, [0.5, 0.5, 0.5, 1.0])


def test_log_at_zero_is_infinite():
    with np.errstate(divide="ignore"):
        _, pullback = rrule(np.log, np.array([0.0, 1.0]))
    assert np.array_equal(pullback(np.ones(2))[1], [np.inf, 1.0])
