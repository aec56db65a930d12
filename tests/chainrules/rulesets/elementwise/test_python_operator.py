"""Rules of chainrules/rulesets/elementwise/python_operator.py, checked against finite differences."""

from __future__ import annotations

import operator

import numpy as np
import pytest

import chainrules  # noqa: F401  (registers the rules)
from chainrules import NoTangent, frule, rrule
from chainrules.rulesets.elementwise.python_operator import NON_DIFFERENTIABLE
from chainrules.testing import test_frule, test_rrule, test_scalar

BINARY = [operator.add, operator.sub, operator.mul, operator.truediv, operator.pow]


@pytest.mark.parametrize("f", BINARY)
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.complex128])
def test_binary(f, dtype, check_binary):
    check_binary(f, ((0.3, 2.0), (0.5, 2.0)), dtype)


@pytest.mark.parametrize("f", BINARY + [operator.mod])
def test_python_scalars(f):
    test_rrule(f, 2.3, 0.7)
    test_frule(f, 2.3, 0.7)
    test_rrule(f, 2.3, 3)
    y, _ = rrule(f, 2.3, 0.7)
    assert type(y) is float


def test_mod(sample):
    x = np.array([[2.3, -1.7, 0.4], [5.9, -3.2, 1.1]])
    y = np.array([0.7, 0.45, -1.3])
    test_rrule(operator.mod, x, y)
    test_frule(operator.mod, x, y)


def test_pow_of_a_negative_python_float_is_complex():
    y, _ = rrule(operator.pow, -8.0, 1 / 3)
    assert type(y) is complex
    test_rrule(operator.pow, -8.0, 1 / 3)
    test_frule(operator.pow, -8.0, 1 / 3)


@pytest.mark.parametrize("f", [operator.neg, operator.pos, operator.abs])
def test_unary(f, sample):
    test_rrule(f, sample((2, 3), low=0.2))
    test_frule(f, sample((2, 3), np.float32, low=-2.0, high=-0.2))
    test_scalar(f, 0.3)
    test_scalar(f, -0.3 + 0.2j)


def test_other_types_have_no_rule():
    assert rrule(operator.add, [1.0], [2.0]) is None
    assert rrule(operator.mul, "a", 3) is None


@pytest.mark.parametrize("f", NON_DIFFERENTIABLE, ids=lambda f: f.__name__)
def test_non_differentiable(f):
    args = (3,) if f in (operator.not_, operator.truth, operator.invert, operator.index) else (6, 2)
    y, pullback = rrule(f, *args)
    assert y == f(*args)
    assert pullback(1.0) == (NoTangent(),) * (len(args) + 1)
    assert frule((NoTangent(),) * (len(args) + 1), f, *args)[1] == NoTangent()
