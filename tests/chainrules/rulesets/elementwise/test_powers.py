"""Rules of chainrules/rulesets/elementwise/powers.py, checked against finite differences."""

from __future__ import annotations

import numpy as np
import pytest

import chainrules  # noqa: F401  (registers the rules)
from chainrules import NoTangent, Thunk, rrule, unthunk
from chainrules.testing import test_frule, test_rrule

UNARY = [
    (np.square, (-2.0, 2.0), (-1.5, 1.5)),
    (np.sqrt, (0.2, 3.0), (-2.0, 2.0)),
    (np.cbrt, (-3.0, 3.0), None),
    (np.reciprocal, (0.3, 3.0), (-2.0, 2.0)),
]


def test_unary(unary_case, check_unary):
    f, real_range, complex_range, dtype = unary_case
    check_unary(f, *real_range, dtype, complex_range=complex_range)


def test_cbrt_of_negative_numbers(sample):
    test_rrule(np.cbrt, sample((2, 3), low=-3.0, high=-0.3))


@pytest.mark.parametrize("f", [np.power, np.float_power])
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.complex128])
def test_power(f, dtype, check_binary):
    check_binary(f, ((0.3, 2.0), (-2.0, 2.0)), dtype)


def test_pow_is_power():
    assert np.pow is np.power


@pytest.mark.parametrize("f", [np.power, np.float_power])
def test_power_integer_exponent_is_not_differentiated(f, sample):
    x = sample((2, 3), low=-2.0, high=2.0)
    test_rrule(f, x, 3)
    test_frule(f, x, 3)
    test_rrule(f, x.astype(np.float32), np.array([1, 2, 3]))
    _, pullback = rrule(f, x, 3)
    assert pullback(np.ones((2, 3)))[2] == NoTangent()


def test_power_integer_base_gets_no_tangent(sample):
    test_rrule(np.power, np.array([1, 2, 3]), sample((3,), low=0.3, high=2.0))
    test_rrule(np.power, 2, sample((3,)))


def test_float_power_keeps_float32_cotangents(sample):
    x, p = sample((2, 3), np.float32, 0.3, 2.0), sample((3,), np.float32)
    y, _pullback = rrule(np.float_power, x, p)
    assert y.dtype == np.float64
    test_rrule(np.float_power, x, p)


def test_power_at_zero():
    x, p = np.zeros(4), np.array([0.0, 1.0, 2.0, 0.5])
    with np.errstate(divide="ignore"):
        _, pullback = rrule(np.power, x, p)
    dx, dp = (unthunk(c) for c in pullback(np.ones(4))[1:])
    assert np.array_equal(dx, [0.0, 1.0, 0.0, np.inf])  # x**0 is constant; no 0 * inf
    assert np.array_equal(dp, np.zeros(4))  # 0**p is 0 for p > 0
    test_rrule(np.power, np.array([0.0, 1.0]), np.array([2.0, 0.0]))  # finite differences agree where defined


def test_power_exponent_of_a_negative_base_is_the_projected_complex_derivative(sample):
    x = sample((2, 3), low=-2.0, high=-0.3)
    test_rrule(np.power, x + 0j, 2.0 + 0j)  # the complex derivative, checked by finite differences
    _, real_pullback = rrule(np.power, x, 2.0)
    _, complex_pullback = rrule(np.power, x + 0j, 2.0 + 0j)
    dy = sample((2, 3))
    assert np.isclose(unthunk(real_pullback(dy)[2]), unthunk(complex_pullback(dy)[2]).real)
    test_rrule(np.power, x, 3)  # an integer exponent: the base alone, checked by finite differences


def test_power_exponent_cotangent_is_lazy(sample):
    _, pullback = rrule(np.power, sample((3,), low=0.3, high=2.0), sample((3,)))
    _, dx, dp = pullback(np.ones(3))
    assert isinstance(dx, Thunk) and isinstance(dp, Thunk)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_hypot(dtype, check_binary):
    check_binary(np.hypot, ((-2.0, 2.0), (-2.0, 2.0)), dtype)


def test_hypot_at_the_origin_is_zero():
    _, pullback = rrule(np.hypot, np.zeros(2), np.array([0.0, 1.0]))
    dx, dy = (unthunk(c) for c in pullback(np.ones(2))[1:])
    assert np.array_equal(dx, [0.0, 0.0]) and np.array_equal(dy, [0.0, 1.0])
