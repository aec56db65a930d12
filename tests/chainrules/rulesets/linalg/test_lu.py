"""Tests of chainrules/rulesets/linalg/lu.py (scipy.linalg.lu) against finite differences."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import scipy.linalg

from chainrules import NoTangent, Tangent, ZeroTangent, rrule
from chainrules.testing import test_frule, test_rrule

SHAPES = [(3, 3), (4, 3), (3, 4)]


@pytest.mark.parametrize("shape", SHAPES)
def test_lu(rand: Any, dtype: Any, shape: Any) -> None:
    a = rand(shape, dtype)
    test_rrule(scipy.linalg.lu, a)
    test_frule(scipy.linalg.lu, a)


@pytest.mark.parametrize("shape", [(2, 3, 3), (2, 4, 3)])
def test_lu_stacked(rand: Any, shape: Any) -> None:
    a = rand(shape, np.complex128)
    test_rrule(scipy.linalg.lu, a)
    test_frule(scipy.linalg.lu, a)


@pytest.mark.parametrize("shape", SHAPES)
def test_lu_permute_l(rand: Any, dtype: Any, shape: Any) -> None:
    a = rand(shape, dtype)
    test_rrule(scipy.linalg.lu, a, True)                         # permute_l by position
    test_frule(scipy.linalg.lu, a, fkwargs={"permute_l": True})  # ... and by keyword


@pytest.mark.parametrize("shape", [(3, 3), (3, 4)])
def test_lu_p_indices(rand: Any, dtype: Any, shape: Any) -> None:
    a = rand(shape, dtype)
    test_rrule(scipy.linalg.lu, a, fkwargs={"p_indices": True})
    test_frule(scipy.linalg.lu, a, fkwargs={"p_indices": True})
    test_rrule(scipy.linalg.lu, a, False, False, True, True)
    test_rrule(scipy.linalg.lu, a, fkwargs={"p_indices": True, "permute_l": True})


def test_one_factor_given(rand: Any) -> None:
    a = rand((4, 3))
    _, low, u = scipy.linalg.lu(a)
    test_rrule(scipy.linalg.lu, a, output_tangent=Tangent(tuple, ZeroTangent(), rand(low.shape), ZeroTangent()))
    test_rrule(scipy.linalg.lu, a, output_tangent=(ZeroTangent(), ZeroTangent(), rand(u.shape)))


def test_permutation_gets_no_cotangent(rand: Any) -> None:
    a = rand((3, 3))
    _, pullback = rrule(scipy.linalg.lu, a, p_indices=True)
    da = pullback((NoTangent(), ZeroTangent(), ZeroTangent()))[1]
    assert isinstance(da, ZeroTangent)


def test_singular_leading_block_raises() -> None:
    a = np.array([[0.0, 0.0], [0.0, 0.0], [1.0, 1.0]])  # U has a zero pivot
    _, pullback = rrule(scipy.linalg.lu, a)
    with pytest.raises(np.linalg.LinAlgError):
        pullback((ZeroTangent(), np.ones((3, 2)), np.ones((2, 2))))


def test_integer_input() -> None:
    a = np.array([[2, 1], [1, 3]])
    _, pullback = rrule(scipy.linalg.lu, a)
    assert pullback((ZeroTangent(), np.ones((2, 2)), np.ones((2, 2))))[1] == NoTangent()


def test_wrong_cotangent_shape(rand: Any) -> None:
    _, pullback = rrule(scipy.linalg.lu, rand((3, 3)))
    with pytest.raises(Exception, match="lu"):
        pullback((ZeroTangent(), np.ones((2, 2)), ZeroTangent()))
