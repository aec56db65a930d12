"""Tests of chainrules/rulesets/linalg/polar.py (scipy.linalg.polar) against finite differences."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import scipy.linalg

from chainrules import NoTangent, ZeroTangent, frule, rrule
from chainrules.testing import test_frule, test_rrule

SHAPES = [(3, 3), (4, 3), (3, 4)]


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("side", ["right", "left"])
def test_polar(rand: Any, dtype: Any, shape: Any, side: str) -> None:
    a = rand(shape, dtype)
    test_rrule(scipy.linalg.polar, a, side)                       # side by position
    test_frule(scipy.linalg.polar, a, fkwargs={"side": side})     # ... and by keyword


def test_default_side_and_stack(rand: Any) -> None:
    a = rand((2, 4, 3), np.complex128)
    test_rrule(scipy.linalg.polar, a)
    test_frule(scipy.linalg.polar, a)


@pytest.mark.parametrize("side", ["right", "left"])
def test_one_factor_given(rand: Any, side: str) -> None:
    a = rand((3, 4))
    u, p = scipy.linalg.polar(a, side)
    test_rrule(scipy.linalg.polar, a, side, output_tangent=(rand(u.shape), ZeroTangent()))
    test_rrule(scipy.linalg.polar, a, side, output_tangent=(ZeroTangent(), rand(p.shape)))


def test_rank_deficient_raises() -> None:
    a = np.array([[1.0, 0.0], [0.0, 0.0]])
    _, pullback = rrule(scipy.linalg.polar, a)
    with pytest.raises(np.linalg.LinAlgError, match="rank deficient"):
        pullback((np.ones((2, 2)), np.ones((2, 2))))
    with pytest.raises(np.linalg.LinAlgError, match="rank deficient"):
        frule((NoTangent(), np.ones((2, 2))), scipy.linalg.polar, a)


def test_bad_side_passes_through(rand: Any) -> None:
    with pytest.raises(ValueError, match="side"):
        rrule(scipy.linalg.polar, rand((2, 2)), "up")


def test_integer_input() -> None:
    _, pullback = rrule(scipy.linalg.polar, np.array([[2, 1], [1, 3]]))
    assert pullback((np.ones((2, 2)), np.ones((2, 2))))[1] == NoTangent()
