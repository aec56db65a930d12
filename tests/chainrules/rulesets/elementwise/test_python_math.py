"""Rules of chainrules/rulesets/elementwise/python_math.py, checked against finite differences."""

from __future__ import annotations

import math

import numpy as np
import pytest

import chainrules  # noqa: F401  (registers the rules)
from chainrules import NoTangent, Tangent, rrule
from chainrules.rulesets.elementwise.python_math import PARTIALS
from chainrules.testing import test_frule, test_rrule, test_scalar

# Arguments inside each function's domain, away from its kinks and jumps.
POINTS = {
    math.acosh: (1.7,), math.atan2: (0.37, -1.3), math.pow: (0.37, 1.3), math.copysign: (0.37, -1.3),
    math.fmod: (2.3, 0.7), math.remainder: (2.3, 0.7), math.ldexp: (0.7, 3), math.nextafter: (0.37, 2.0),
    math.log: (2.5,), math.gamma: (2.5,), math.lgamma: (-1.5,), math.degrees: (0.37,), math.radians: (20.0,),
}


@pytest.mark.parametrize("f", list(PARTIALS), ids=lambda f: f.__name__)
def test_math_function(f):
    args = POINTS.get(f, (0.37,) * len(PARTIALS[f]))
    test_rrule(f, *args)
    test_frule(f, *args)
    if len(args) == 1:
        test_scalar(f, np.float32(args[0]))
    else:
        test_rrule(f, *(np.float32(a) if isinstance(a, float) else a for a in args))


def test_log_with_a_base():
    test_rrule(math.log, 8.0, 2.0)
    test_frule(math.log, 8.0, 2.0)
    test_rrule(math.log, 8.0, 10)


@pytest.mark.parametrize("f", [math.frexp, math.modf])
def test_two_outputs(f):
    test_rrule(f, 2.3)
    test_frule(f, -0.7)


def test_fabs():
    test_scalar(math.fabs, -0.3)
    test_scalar(math.fabs, np.float32(0.3))


def test_integer_arguments_are_not_differentiated():
    assert rrule(math.sin, 1)[1](1.0) == (NoTangent(), NoTangent())
    test_rrule(math.pow, 2, 0.5)
    test_rrule(math.atan2, 1, 0.5)


@pytest.mark.parametrize("f", [math.ceil, math.floor, math.trunc, math.isnan, math.isfinite, math.isinf])
def test_non_differentiable(f):
    y, pullback = rrule(f, 2.5)
    assert y == f(2.5) and pullback(1.0) == (NoTangent(), NoTangent())


def test_integer_functions_are_non_differentiable():
    for f, args in ((math.comb, (5, 2)), (math.perm, (5, 2)), (math.factorial, (4,)), (math.gcd, (4, 6)),
                    (math.lcm, (4, 6)), (math.isqrt, (17,)), (math.isclose, (1.0, 1.0))):
        assert rrule(f, *args)[1](1.0) == (NoTangent(),) * (len(args) + 1)


def test_hypot():
    test_rrule(math.hypot, 0.3, -0.4, 1.2)
    test_frule(math.hypot, 0.3, -0.4, 1.2)
    test_rrule(math.hypot, 0.3, 2)
    test_rrule(math.hypot, np.float32(0.3))
    assert rrule(math.hypot, 0.0, 0.0)[1](1.0) == (NoTangent(), 0.0, 0.0)


@pytest.mark.parametrize(("p", "q"), [([0.3, 1.0], (1.5, 2.0)), (np.array([0.3, 1.0, -2.0]), np.array([1.5, 2.0, 0.0])),
                                      ([0.3, 1], [1, 2.5])])
def test_dist(p, q):
    test_rrule(math.dist, p, q)
    test_frule(math.dist, p, q)


def test_fsum():
    test_rrule(math.fsum, [0.1, 0.2, 3])
    test_frule(math.fsum, (0.1, 0.2, 0.3))
    test_rrule(math.fsum, np.array([0.1, 0.2]))
    assert rrule(math.fsum, [1, 2])[1](1.0) == (NoTangent(), NoTangent())


@pytest.mark.parametrize("xs", [[0.1, 0.7, 3.0], [0.1, 0.0, 3.0], [0.0, 0.0, 2.0], (2.0, 3, 0.5),
                                np.array([0.5, -1.5, 2.0])])
def test_prod(xs):
    test_rrule(math.prod, xs)
    test_frule(math.prod, xs)
    test_rrule(math.prod, xs, fkwargs={"start": 2.0})


def test_sequence_cotangents_have_the_sequence_type():
    _, pullback = rrule(math.fsum, (0.5, 2, 1.5))
    assert pullback(1.0)[1] == Tangent(tuple, 1.0, NoTangent(), 1.0)
