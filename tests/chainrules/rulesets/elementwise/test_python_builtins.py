"""Rules of chainrules/rulesets/elementwise/python_builtins.py, checked against finite differences."""

from __future__ import annotations

import numpy as np
import pytest

import chainrules  # noqa: F401  (registers the rules)
from chainrules import NoTangent, Tangent, rrule
from chainrules.testing import test_frule, test_rrule, test_scalar


def test_abs(sample):
    test_rrule(abs, sample((2, 3), low=0.2))
    test_rrule(abs, sample((2, 3), np.complex128))
    test_scalar(abs, -0.3)
    test_scalar(abs, 0.3 - 0.4j)
    test_scalar(abs, np.float32(-0.3))


def test_pow(sample):
    test_rrule(pow, 0.3, 0.7)
    test_frule(pow, 0.3, 0.7)
    test_rrule(pow, sample((2, 3), low=0.2), 3)
    test_rrule(pow, 2, sample((3,)))
    test_rrule(pow, 0.3 + 0.1j, 0.7 - 0.2j)
    assert rrule(pow, 3, 4, 5)[1](None) == (NoTangent(),) * 4


def test_divmod():
    test_rrule(divmod, 7.3, 2.1)
    test_frule(divmod, 7.3, 2.1)
    test_rrule(divmod, np.array([[2.3, -1.7, 0.4], [5.9, -3.2, 1.1]]), np.array([0.7, 0.45, -1.3]))


def test_round():
    test_rrule(round, 0.33, 1)
    test_rrule(round, np.float32(0.33), 1)
    assert rrule(round, 0.3)[1](1.0) == (NoTangent(), NoTangent())  # round(x) is an int


@pytest.mark.parametrize("iterable", [
    pytest.param([0.3, 2, 0.5], id="list"),
    pytest.param((0.3, np.array([[0.1, 0.2, 0.4]]), np.array([0.4, -0.2, 0.7])), id="tuple-broadcast"),
    pytest.param(np.array([[0.3, -0.2, 1.4], [2.1, -1.3, 0.1]]), id="ndarray-rows"),
    pytest.param(np.array([0.3, -0.2], np.float32), id="ndarray-float32"),
])
def test_sum(iterable):
    test_rrule(sum, iterable)
    test_frule(sum, iterable)
    test_rrule(sum, iterable, 1.5)
    if isinstance(iterable, np.ndarray) and iterable.ndim == 2:
        test_rrule(sum, iterable, np.array([[1.0], [2.0], [3.0]]))  # start broadcasts against the rows


def test_sum_of_an_array_does_not_copy_the_cotangent():
    x = np.ones((1000, 3))
    _, pullback = rrule(sum, x)
    dx = pullback(np.ones(3))[1]
    dx = dx.unthunk() if hasattr(dx, "unthunk") else dx
    assert dx.shape == (1000, 3) and dx.strides[0] == 0


@pytest.mark.parametrize("f", [min, max])
@pytest.mark.parametrize("args", [
    pytest.param(([0.3, -0.5, 1.2, 0.7],), id="list"),
    pytest.param(((0.3, 2, 2.2),), id="tuple-with-int"),
    pytest.param((np.array([0.3, -0.5, 1.2]),), id="ndarray"),
    pytest.param((0.3, -0.5, 1.2), id="arguments"),
    pytest.param((np.float32(0.3), np.float32(-0.5)), id="float32-arguments"),
])
def test_min_max(f, args):
    test_rrule(f, *args)
    test_frule(f, *args)


def test_min_max_ties_share_equally():
    _, pullback = rrule(max, [1.0, 3.0, 3.0, 2])
    assert pullback(1.0) == (NoTangent(), Tangent(list, 0.0, 0.5, 0.5, NoTangent()))
    _, pullback = rrule(min, 2.0, 2.0, 5.0)
    assert pullback(1.0) == (NoTangent(), 0.5, 0.5, 0.0)


def test_min_max_integer_result_has_no_tangent():
    _, pullback = rrule(max, [0.3, 2, 1.2])
    assert pullback(1.0) == (NoTangent(), NoTangent())


def test_min_max_key_and_default():
    test_rrule(max, [0.3, -0.5], fkwargs={"key": abs})
    y, pullback = rrule(max, [], default=1.0)
    assert y == 1.0 and pullback(1.0) == (NoTangent(), NoTangent())


def test_max_with_nan_sends_the_cotangent_to_the_nan():
    _, pullback = rrule(max, [float("nan"), 1.0])
    assert pullback(1.0) == (NoTangent(), Tangent(list, 1.0, 0.0))
