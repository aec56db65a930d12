"""Rules of chainrules/rulesets/linalg/banded_cholesky_solve.py, checked against finite differences."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import scipy.linalg as sla

import chainrules  # registers the rules
import chainrules.rulesets.linalg.banded_cholesky_solve  # noqa: F401
from chainrules import NoTangent, ProjectionError, Tangent, Thunk, ZeroTangent, rrule, unthunk
from chainrules.testing import PrimalAndTangent, test_frule, test_rrule


def check(f: Any, *args: Any, **kwargs: Any) -> None:
    test_rrule(f, *args, **kwargs)
    test_frule(f, *args, **kwargs)


def factor(rand, k: int, n: int, lower: bool, dtype: Any, batch: tuple[int, ...] = ()) -> np.ndarray:
    """A banded Cholesky factor (band storage) of a well-conditioned Hermitian positive definite matrix."""
    g = rand(batch + (k + 1, n), dtype) / 3
    row = 0 if lower else k
    g[..., row, :] = 2 + np.abs(g[..., row, :])
    return sla.cholesky_banded(g, lower=lower) if not batch else np.stack(
        [sla.cholesky_banded(gi, lower=lower) for gi in g])


@pytest.mark.parametrize("k", [0, 1, 2])
@pytest.mark.parametrize("lower", [False, True])
@pytest.mark.parametrize("b_shape", [(4,), (4, 2)])
def test_cho_solve_banded(k, lower, b_shape, dtype, rand):
    cb = factor(rand, k, 4, lower, dtype)
    check(sla.cho_solve_banded, (cb, lower), rand(b_shape, dtype))


def test_cho_solve_banded_any_band_and_options(rand):
    cb = rand((2, 4)) + np.array([[0.0], [3.0]])               # not from cholesky_banded: junk in the corner
    check(sla.cho_solve_banded, (cb, False), rand((4, 3)), False, True)
    check(sla.cho_solve_banded, (cb, False), rand((4,)), fkwargs={"check_finite": False})
    check(sla.cho_solve_banded, [cb, True], rand((4,)))


def test_cho_solve_banded_stacked(rand):
    cb = factor(rand, 1, 3, False, np.float64, (2,))
    check(sla.cho_solve_banded, (cb, False), rand((3,)))
    check(sla.cho_solve_banded, (cb, False), rand((2, 3, 2)))
    check(sla.cho_solve_banded, (cb[0], True), rand((2, 3, 1)))


def test_cho_solve_banded_cotangent_kinds(rand):
    cb, b = factor(rand, 1, 3, False, np.float64), rand((3,))
    _, pullback = rrule(sla.cho_solve_banded, (cb, False), b)
    _, d_cb, db = pullback(rand((3,)))
    assert isinstance(d_cb, Thunk) and isinstance(db, Thunk)
    assert isinstance(unthunk(d_cb), Tangent) and unthunk(d_cb)[1] is NoTangent()
    assert np.all(unthunk(d_cb)[0][0, 0] == 0)                  # the unused corner of the band
    zeros = pullback(ZeroTangent())
    assert isinstance(zeros[2], ZeroTangent)
    test_frule(sla.cho_solve_banded, PrimalAndTangent((cb, False), ZeroTangent()), b)


def test_cotangent_shape_is_checked(rand):
    _, pullback = rrule(sla.cho_solve_banded, (factor(rand, 1, 3, False, np.float64), False), rand((3,)))
    with pytest.raises(ProjectionError, match="cho_solve_banded"):
        pullback(np.ones(2))
