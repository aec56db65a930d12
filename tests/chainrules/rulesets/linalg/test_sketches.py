"""Rules of chainrules/rulesets/linalg/sketches.py, checked against finite differences."""

from __future__ import annotations

import copy
from typing import Any

import numpy as np
import pytest
import scipy.linalg as sla

import chainrules  # registers the rules
import chainrules.rulesets.linalg.sketches  # noqa: F401
from chainrules import NoTangent, NotImplementedTangent, ProjectionError, ZeroTangent, frule, rrule
from chainrules.testing import test_frule, test_rrule


def check(f: Any, *args: Any, **kwargs: Any) -> None:
    test_rrule(f, *args, **kwargs)
    test_frule(f, *args, **kwargs)


@pytest.mark.parametrize("shape", [(5, 3), (2, 5, 3), (6, 1)])
def test_clarkson_woodruff_transform_seeded(shape, dtype, rand):
    a = rand(shape, dtype)
    check(sla.clarkson_woodruff_transform, a, 3, 7)
    check(sla.clarkson_woodruff_transform, a, 3, fkwargs={"rng": 7})
    check(sla.clarkson_woodruff_transform, a, 2, fkwargs={"seed": 11})
    check(sla.clarkson_woodruff_transform, a, 3, fkwargs={"rng": np.random.SeedSequence(3)})


def test_clarkson_woodruff_transform_generator_is_replayed(rand):
    """A ``Generator`` is advanced by the call; the rule differentiates the sketch it drew."""
    a, g = rand((5, 3)), np.random.default_rng(4)
    expected_state = copy.deepcopy(g)
    y, pullback = rrule(sla.clarkson_woodruff_transform, a, 3, g)
    s = sla.clarkson_woodruff_transform(np.eye(5), 3, rng=expected_state)        # the sketch that was drawn
    np.testing.assert_array_equal(y, s @ a)
    ct = rand((3, 3))
    np.testing.assert_allclose(pullback(ct)[1], s.T @ ct)
    assert g.bit_generator.state != np.random.default_rng(4).bit_generator.state   # the call advanced g
    legacy, da = np.random.RandomState(2), rand((5, 3))
    s = sla.clarkson_woodruff_transform(np.eye(5), 3, seed=copy.deepcopy(legacy))
    y, dy = frule((NoTangent(), da, NoTangent()), sla.clarkson_woodruff_transform, a, 3, seed=legacy)
    np.testing.assert_allclose(dy, s @ da)


def test_clarkson_woodruff_transform_global_state(rand, composite):
    """``rng=None``: SciPy draws from NumPy's global state; seeded before each call, the rules see that draw."""
    def program(call: Any, x: Any) -> Any:
        np.random.seed(5)
        return call(sla.clarkson_woodruff_transform, x, 3)

    check(composite(program, "seeded_sketch"), rand((5, 2)))


def test_clarkson_woodruff_transform_lost_global_state(rand, monkeypatch):
    """A draw the rule cannot replay gives not_implemented, never the derivative of another sketch."""
    a = rand((5, 2))
    _, pullback = rrule(sla.clarkson_woodruff_transform, a, 3)
    np.random.seed(1)                                  # harmless: the rule replays from its snapshot
    assert isinstance(pullback(rand((3, 2)))[1], np.ndarray)
    original = np.random.get_state

    calls = []

    def drifting() -> Any:                             # another thread draws between the snapshot and the call
        calls.append(1)
        state = original()
        if len(calls) == 1:
            np.random.random()
        return state

    monkeypatch.setattr(np.random, "get_state", drifting)
    _, pullback = rrule(sla.clarkson_woodruff_transform, a, 3)
    monkeypatch.setattr(np.random, "get_state", original)
    assert isinstance(pullback(rand((3, 2)))[1], NotImplementedTangent)


def test_clarkson_woodruff_transform_cotangents(rand):
    a = rand((5, 2), np.float32)
    y, pullback = rrule(sla.clarkson_woodruff_transform, a, 3, 0)
    assert y.dtype == np.float64 and pullback(rand((3, 2)))[1].dtype == np.float32
    assert pullback(ZeroTangent())[1] == ZeroTangent()
    with pytest.raises(ProjectionError, match="clarkson_woodruff_transform"):
        pullback(np.ones((2, 2)))
