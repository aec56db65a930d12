"""Rules of chainrules/rulesets/linalg/balancing.py, checked against finite differences."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import scipy.linalg as sla

import chainrules  # registers the rules
import chainrules.rulesets.linalg.balancing  # noqa: F401
from chainrules import NoTangent, ProjectionError, Tangent, ZeroTangent, rrule
from chainrules.testing import PrimalAndTangent, test_frule, test_rrule


def check(f: Any, *args: Any, **kwargs: Any) -> None:
    test_rrule(f, *args, **kwargs)
    test_frule(f, *args, **kwargs)


BASE = np.array([[1.84, 1.39, 1.97], [1.63, 1.69, 1.52], [1.31, 1.4, 1.94]])
SCALE = np.array([8.0, 32.0, 2.0])


def unbalanced(rand, dtype: Any, batch: tuple[int, ...] = ()) -> np.ndarray:
    """A matrix whose rows and columns differ in scale (``gebal`` scales it), with a scaling that stays
    the same under perturbations of the size finite differences use (it is piecewise constant)."""
    a = BASE * SCALE[None, :] / SCALE[:, None] + 0.02 * rand(batch + (3, 3), dtype)
    return a.astype(dtype)


def test_matrix_balance(dtype, rand):
    a = unbalanced(rand, dtype)
    t = sla.matrix_balance(a)[1]
    assert not np.allclose(t, np.eye(3))              # the scaling is not trivial
    rng = np.random.default_rng(0)
    assert all(np.array_equal(sla.matrix_balance(a + 0.02 * rng.standard_normal((3, 3)))[1], t) for _ in range(50))
    check(sla.matrix_balance, a)
    check(sla.matrix_balance, a, True, True, True)
    check(sla.matrix_balance, a, fkwargs={"permute": False, "separate": True})
    check(sla.matrix_balance, a, False, False)


def test_matrix_balance_with_a_permutation(rand):
    a = np.tril(rand((3, 3)) + 3)                      # isolated eigenvalues: gebal permutes
    a[2, 1] *= 1e3
    _, (_scaling, perm) = sla.matrix_balance(a, separate=True)
    assert not np.array_equal(perm, np.arange(3))
    # the zero pattern picks the permutation: along it (a lower-triangular direction) B is smooth
    test_frule(sla.matrix_balance, PrimalAndTangent(a, np.tril(rand((3, 3)))))


def test_matrix_balance_stacked(rand):
    check(sla.matrix_balance, unbalanced(rand, np.float64, (2,)))


def test_matrix_balance_cotangents(rand):
    a = unbalanced(rand, np.float64)
    _, pullback = rrule(sla.matrix_balance, a)
    assert pullback(Tangent(tuple, ZeroTangent(), rand((3, 3))))[1] == ZeroTangent()   # T is locally constant
    assert pullback(ZeroTangent())[1] == ZeroTangent()
    _, pullback = rrule(sla.matrix_balance, a, separate=True)
    assert pullback((rand((3, 3)), (ZeroTangent(), NoTangent())))[1].shape == (3, 3)
    with pytest.raises(ProjectionError, match="matrix_balance"):
        pullback((np.ones((2, 2)), ZeroTangent()))
