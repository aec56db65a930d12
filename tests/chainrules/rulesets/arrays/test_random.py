"""Rules of chainrules/rulesets/arrays/random.py: pathwise derivatives of samplers.

A draw advances its generator, so the testers (which require inputs left unchanged)
cannot call the samplers themselves; these tests compare the rules with finite
differences of the draw from a copy of the generator, in the same state each time.
"""

from __future__ import annotations

import copy

import numpy as np
import pytest

import chainrules  # noqa: F401  (registers the rules)
from chainrules import NoTangent, NotImplementedTangent, frule, rrule, unthunk
from chainrules.rulesets.arrays.mutation import InPlaceOperationError
from chainrules.testing import check_approx, jvp, rand_tangent, vjp

GENERATORS = [np.random.default_rng(5), np.random.RandomState(5)]


def check_draw(method, source, args, differentiated, extra=()):
    """The rrule and the frule of ``method(source, *args, *extra)`` against finite differences."""

    def draw(*params):
        full = list(args)
        for k, v in zip(differentiated, params):
            full[k] = v
        return method(copy.deepcopy(source), *full, *extra)

    inputs = [args[k] for k in differentiated]
    y, pullback = rrule(method, copy.deepcopy(source), *args, *extra)
    check_approx(y, draw(*inputs))
    dy = rand_tangent(y, 1)
    cotangents = pullback(dy)
    for k, expected in zip(differentiated, vjp(None, draw, dy, *inputs)):
        check_approx(unthunk(cotangents[2 + k]), expected, rtol=1e-6, atol=1e-6)
    tangents = [NoTangent()] * (len(args) + len(extra))
    directions = [rand_tangent(v, 2) for v in inputs]
    for k, d in zip(differentiated, directions):
        tangents[k] = d
    _, ydot = frule((NoTangent(), NoTangent(), *tangents), method, copy.deepcopy(source), *args, *extra)
    check_approx(ydot, jvp(None, draw, *zip(inputs, directions)), rtol=1e-6, atol=1e-6)


PATHWISE = [
    ("normal", (0.3, 1.5), (0, 1), ((3,),)), ("normal", (np.array([0.1, 0.2]), 2.0), (0, 1), ()),
    ("laplace", (1.0, 0.5), (0, 1), (4,)), ("gumbel", (1.0, 0.5), (0, 1), ()),
    ("logistic", (np.array([1.0, 2.0]), np.array([[0.5], [1.5]])), (0, 1), ()),
    ("uniform", (-1.0, 2.0), (0, 1), (5,)), ("lognormal", (0.2, 0.3), (0, 1), (3,)),
    ("exponential", (2.0,), (0,), (3,)), ("rayleigh", (np.array([1.0, 2.0]),), (0,), ()),
    ("gamma", (2.0, 3.0), (1,), (4,)),
]


@pytest.mark.parametrize("source", GENERATORS, ids=lambda g: type(g).__name__)
@pytest.mark.parametrize(("name", "args", "differentiated", "extra"), PATHWISE, ids=lambda v: str(v))
def test_pathwise_derivatives(source, name, args, differentiated, extra):
    check_draw(getattr(type(source), name), source, args, differentiated, extra)


@pytest.mark.parametrize("source", GENERATORS, ids=lambda g: type(g).__name__)
def test_choice_and_permutation_are_gathers(source):
    x = np.random.default_rng(0).standard_normal((5, 2))
    cls = type(source)
    check_draw(cls.permutation, source, (x,), (0,))
    check_draw(cls.choice, source, (x[:, 1],), (0,), (7,))
    check_draw(cls.choice, source, (x[:, 0],), (0,), ((2, 2), True, np.ones(5) / 5))
    if cls is np.random.Generator:
        check_draw(cls.choice, source, (x,), (0,), (2, False, None, 1))
        check_draw(cls.permutation, source, (x,), (0,), (1,))


def test_the_global_generator_reaches_the_rules():
    np.random.seed(3)
    y, pullback = rrule(np.random.normal, 1.0, 2.0, 3)
    np.random.seed(3)
    check_approx(y, np.random.normal(1.0, 2.0, 3))
    check_approx(unthunk(pullback(np.ones(3))[2]), 3.0)


def test_shape_parameters_are_not_implemented():
    _, pullback = rrule(np.random.default_rng(0).beta, 2.0, 3.0)
    assert all(isinstance(c, NotImplementedTangent) for c in pullback(1.0)[2:])
    _, pullback = rrule(np.random.default_rng(0).gamma, 2.0, 3.0)
    assert isinstance(pullback(1.0)[2], NotImplementedTangent)


def test_parameter_free_and_discrete_samplers_are_non_differentiable():
    rng = np.random.default_rng(0)
    for method, args in [(rng.standard_normal, (3,)), (rng.poisson, (2.0, 3)), (rng.integers, (0, 5))]:
        y, pullback = rrule(method, *args)
        assert all(isinstance(c, NoTangent) for c in pullback(np.ones(np.shape(y))))


def test_shuffle_raises():
    with pytest.raises(InPlaceOperationError, match="shuffle"):
        rrule(np.random.default_rng(0).shuffle, np.ones(3))
