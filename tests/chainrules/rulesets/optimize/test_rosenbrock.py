"""Rules of chainrules/rulesets/optimize/rosenbrock.py: each Rosenbrock function's derivative is the next one."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.optimize as so

from chainrules.rulesets.optimize.rosenbrock import rosen_hess_pullback_of, rosen_hess_pushforward
from chainrules_core import NoTangent, frule, rrule

from .conftest import check

X = np.array([0.3, -1.2, 0.8, 1.1, -0.4])


@pytest.mark.parametrize("f", [so.rosen, so.rosen_der, so.rosen_hess], ids=lambda f: f.__name__)
def test_against_finite_differences(f):
    check(f, X)
    check(f, X[:2].astype(np.float32))


def test_rosen_hess_prod_against_finite_differences():
    check(so.rosen_hess_prod, X, np.linspace(-1.0, 1.0, 5))


def test_the_chain_of_derivatives():
    _, pullback = rrule(so.rosen, X)
    np.testing.assert_allclose(pullback(1.0)[1], so.rosen_der(X))
    _, dg = frule((NoTangent(), np.eye(5)[2]), so.rosen_der, X)
    np.testing.assert_allclose(dg, so.rosen_hess(X)[:, 2])


def test_third_derivatives_are_adjoint():
    rng = np.random.default_rng(1)
    dx, hbar = rng.standard_normal(5), rng.standard_normal((5, 5))
    assert np.sum(hbar * rosen_hess_pushforward(X, dx)) == pytest.approx(rosen_hess_pullback_of(X, hbar) @ dx)


def test_points_as_columns_have_no_rule():
    assert rrule(so.rosen, np.ones((3, 2))) is None
