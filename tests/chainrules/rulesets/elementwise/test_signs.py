"""Rules of chainrules/rulesets/elementwise/signs.py, checked against finite differences."""

from __future__ import annotations

import numpy as np
import pytest

import chainrules  # noqa: F401  (registers the rules)
from chainrules import NoTangent, rrule, unthunk
from chainrules.testing import PrimalAndTangent, test_rrule

POINTS = np.array([[0.3, -0.2, 1.4], [2.1, -1.3, 0.1]])

UNARY = [(np.sign, (0.1, 2.0), (-2.0, 2.0))]


def test_unary(unary_case, check_unary):
    f, real_range, complex_range, dtype = unary_case
    check_unary(f, *real_range, dtype, complex_range=complex_range)


def test_sign_of_negative_reals_and_zero():
    test_rrule(np.sign, -POINTS)
    _, pullback = rrule(np.sign, np.array([0.0, 0j]))
    assert not np.any(pullback(np.ones(2, complex))[1])


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_copysign(dtype, check_binary):
    check_binary(np.copysign, ((0.2, 2.0), (-2.0, 2.0)), dtype)
    check_binary(np.copysign, ((-2.0, -0.2), (-2.0, 2.0)), dtype)


def test_copysign_second_argument_gets_a_dense_zero():
    _, pullback = rrule(np.copysign, POINTS, np.float32(-1.0))
    d = unthunk(pullback(np.ones((2, 3)))[2])
    assert d == 0 and type(d) is np.float32


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_heaviside_away_from_zero(dtype, check_binary):
    check_binary(np.heaviside, ((0.2, 2.0), (-2.0, 2.0)), dtype)


def _rrule_holding_x1(f, x1, x2):
    """The rrule with the first argument's cotangent replaced by NoTangent (held fixed)."""
    y, pullback = rrule(f, x1, x2)

    def held_pullback(dy):
        df, _, dx2 = pullback(dy)
        return df, NoTangent(), dx2

    return y, held_pullback


def test_heaviside_second_argument_where_the_first_is_zero():
    x1 = np.array([0.0, 1.5, 0.0, -2.0])
    x2 = np.array([0.5, 0.3, -0.7, 0.2])
    # heaviside jumps at x1 == 0, so x1 is held fixed and only x2 is checked there.
    test_rrule(np.heaviside, PrimalAndTangent(x1, NoTangent()), x2,
               rrule_f=lambda f, a, b: _rrule_holding_x1(f, a, b), check_frule_consistency=False)
    _, pullback = rrule(np.heaviside, x1, x2)
    assert np.array_equal(unthunk(pullback(np.ones(4))[2]), [1.0, 0.0, 1.0, 0.0])
