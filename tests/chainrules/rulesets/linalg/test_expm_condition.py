"""Rules of chainrules/rulesets/linalg/expm_condition.py, checked against finite differences."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import scipy.linalg as sla

import chainrules  # registers the rules
import chainrules.rulesets.linalg.expm_condition  # noqa: F401
from chainrules import ProjectionError, ZeroTangent, rrule
from chainrules.rulesets.linalg.expm_condition import kronecker_form
from chainrules.testing import test_frule, test_rrule


def check(f: Any, *args: Any, **kwargs: Any) -> None:
    test_rrule(f, *args, **kwargs)
    test_frule(f, *args, **kwargs)


@pytest.mark.parametrize("n", [1, 2, 3])
def test_expm_cond(n, dtype, rand):
    check(sla.expm_cond, rand((n, n), dtype) / 2)


def test_expm_cond_spellings(rand):
    a = rand((3, 3)) / 2
    check(sla.expm_cond, a, False)
    check(sla.expm_cond, a, fkwargs={"check_finite": False})


def test_expm_cond_normal_matrix(rand):
    q = np.linalg.qr(rand((3, 3)))[0]
    check(sla.expm_cond, q @ np.diag([0.5, -1.0, 2.0]) @ q.T)          # symmetric: distinct top value


def test_kronecker_form_is_scipys(rand):
    from scipy.linalg._expm_frechet import expm_frechet_kronform

    a = rand((3, 3), np.complex128) / 2
    np.testing.assert_allclose(kronecker_form(a), expm_frechet_kronform(a), rtol=1e-13, atol=1e-14)


def test_expm_cond_ties_and_zero():
    """``A = c I``: every singular value of ``K`` is equal; the cluster's mean is differentiated (finite)."""
    _, pullback = rrule(sla.expm_cond, 0.3 * np.eye(2))
    g = pullback(1.0)[1]
    assert np.all(np.isfinite(g)) and np.allclose(g, g.T)
    kappa, pullback = rrule(sla.expm_cond, np.zeros((2, 2)))
    assert kappa == 0 and np.array_equal(pullback(1.0)[1], np.zeros((2, 2)))


def test_expm_cond_cotangent_kinds(rand):
    _, pullback = rrule(sla.expm_cond, rand((2, 2)))
    assert pullback(ZeroTangent())[1] == ZeroTangent()
    with pytest.raises(ProjectionError, match="expm_cond"):
        pullback(np.ones(2))
