"""Tests of chainrules/rulesets/linalg/hessenberg.py (scipy.linalg.hessenberg) against finite differences."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import scipy.linalg

from chainrules import NoTangent, ZeroTangent, frule, rrule
from chainrules.testing import test_frule, test_rrule


@pytest.mark.parametrize("n", [3, 4, 5])
def test_hessenberg(rand: Any, dtype: Any, n: int) -> None:
    a = rand((n, n), dtype)
    test_rrule(scipy.linalg.hessenberg, a)
    test_frule(scipy.linalg.hessenberg, a)


@pytest.mark.parametrize("n", [3, 5])
def test_hessenberg_calc_q(rand: Any, dtype: Any, n: int) -> None:
    a = rand((n, n), dtype)
    test_rrule(scipy.linalg.hessenberg, a, True)                       # calc_q by position
    test_frule(scipy.linalg.hessenberg, a, fkwargs={"calc_q": True})  # ... and by keyword


@pytest.mark.parametrize("n", [1, 2])
def test_already_hessenberg(rand: Any, dtype: Any, n: int) -> None:
    """Orders 1 and 2: SciPy returns ``A`` itself and ``Q = I``."""
    a = rand((n, n), dtype)
    test_rrule(scipy.linalg.hessenberg, a, True)
    test_frule(scipy.linalg.hessenberg, a)


def test_stacked(rand: Any) -> None:
    a = rand((2, 4, 4), np.complex128)
    test_rrule(scipy.linalg.hessenberg, a, True)
    test_frule(scipy.linalg.hessenberg, a, True)


def test_only_q_given(rand: Any) -> None:
    a = rand((4, 4))
    test_rrule(scipy.linalg.hessenberg, a, True, output_tangent=(ZeroTangent(), rand((4, 4))))


def test_reduced_hessenberg_raises() -> None:
    a = np.diag([1.0, 2.0, 3.0])  # H = A, zero subdiagonal
    _, pullback = rrule(scipy.linalg.hessenberg, a)
    with pytest.raises(np.linalg.LinAlgError, match="hessenberg"):
        pullback(np.ones((3, 3)))
    with pytest.raises(np.linalg.LinAlgError, match="hessenberg"):
        frule((NoTangent(), np.ones((3, 3))), scipy.linalg.hessenberg, a)


def test_integer_input() -> None:
    _, pullback = rrule(scipy.linalg.hessenberg, np.array([[1, 2, 0], [3, 4, 1], [4, 0, 2]]))
    assert pullback(np.ones((3, 3)))[1] == NoTangent()
