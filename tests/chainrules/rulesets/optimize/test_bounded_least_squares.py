"""Rules of chainrules/rulesets/optimize/bounded_least_squares.py: nnls and lsq_linear.

Closed form: with the active set fixed, the free coordinates are the least-squares solution
``x_F = pinv(A_F) (b - A_N x_N)``, so ``dx_F/db = pinv(A_F)`` and ``dx_F/d x_N = -pinv(A_F) A_N``;
checked against that, and against finite differences of the whole call at the samples
(``python -m chainrules check``, ``tests/chainrules/test_every_rule.py``).
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.optimize as so
import scipy.sparse

from chainrules.rulesets.optimize import ImplicitDerivativeError
from chainrules_core import NoTangent, NotImplementedTangent, Tangent, ZeroTangent, frule, rrule

from .conftest import check

RNG = np.random.default_rng(3)
A = RNG.standard_normal((7, 4))
X = np.array([0.8, 0.0, 1.5, 0.3])
G = np.array([0.0, 0.6, 0.0, 0.0])  # x[1] held at 0 by a positive multiplier
B = A @ X - np.linalg.pinv(A.T) @ G
FREE = np.array([True, False, True, True])
XBAR = np.array([0.3, -1.0, 2.0, 0.5])


def test_nnls_closed_form():
    (x, _), pullback = rrule(so.nnls, A, B)
    np.testing.assert_allclose(x, X, atol=1e-12)
    pinv = np.linalg.pinv(A[:, FREE])
    db = pullback(Tangent(tuple, XBAR, NoTangent()))[2]
    np.testing.assert_allclose(db, pinv.T @ XBAR[FREE], rtol=1e-10, atol=1e-12)
    _, (dx, _) = frule((NoTangent(), ZeroTangent(), XBAR[:3] @ np.ones(3) * np.ones(7)), so.nnls, A, B)
    expected = np.zeros(4)
    expected[FREE] = pinv @ (XBAR[:3].sum() * np.ones(7))
    np.testing.assert_allclose(dx, expected, rtol=1e-10, atol=1e-12)


def test_nnls_against_finite_differences():
    check(so.nnls, A, B)
    check(so.nnls, A.astype(np.float32), B.astype(np.float32), rtol=1e-3, atol=1e-3)


def test_lsq_linear_closed_form_with_the_bounds():
    # x[1] at its upper bound 0.1 (the multiplier of the nnls problem above, mirrored): x_F moves with the bound
    ub = np.array([5.0, 0.1, 5.0, 5.0])
    b = A @ np.where(FREE, X, 0.1) + np.linalg.pinv(A.T) @ G
    res, pullback = rrule(so.lsq_linear, A, b, (-5.0, ub), method="bvls")
    assert res.x[1] == 0.1
    pinv = np.linalg.pinv(A[:, FREE])
    cts = pullback(Tangent(type(res), {"x": XBAR}))
    np.testing.assert_allclose(cts[2], pinv.T @ XBAR[FREE], rtol=1e-10, atol=1e-12)
    dlb, dub = cts[3]
    assert dlb == 0.0
    coupling = -pinv @ A[:, 1]  # dx_F / d ub[1]
    np.testing.assert_allclose(dub, [0.0, XBAR[1] + XBAR[FREE] @ coupling, 0.0, 0.0], rtol=1e-10, atol=1e-12)
    _, dres = frule((NoTangent(), ZeroTangent(), ZeroTangent(), Tangent(tuple, 0.0, np.array([0, 1.0, 0, 0]))),
                    so.lsq_linear, A, b, (-5.0, ub), method="bvls")
    np.testing.assert_allclose(dres["x"][FREE], coupling, rtol=1e-10)
    assert dres["x"][1] == 1.0


@pytest.mark.parametrize("method", ["trf", "bvls"])
def test_lsq_linear_against_finite_differences(method):
    b = A @ np.where(FREE, X, 0.1) + np.linalg.pinv(A.T) @ G
    gauge = {"gauge_invariant": lambda res: (res.x, res.fun, res.cost)}
    check(so.lsq_linear, A, b, (-5.0, np.array([5.0, 0.1, 5.0, 5.0])), fkwargs={"method": method, "tol": 1e-14},
          **gauge)
    bounds = so.Bounds(np.full(4, -5.0), [5.0, 0.1, 5.0, 5.0])
    check(so.lsq_linear, A, b, fkwargs={"bounds": bounds, "method": method, "tol": 1e-14}, **gauge)


def test_weakly_active_and_rank_deficient_raise():
    b = A @ X  # x[1] = 0 exactly fits: at its bound with a zero multiplier
    _, pullback = rrule(so.nnls, A, b)
    with pytest.raises(ImplicitDerivativeError, match="weakly active"):
        pullback(Tangent(tuple, XBAR, NoTangent()))
    twice = np.hstack([A[:, :2], A[:, :1]])  # a repeated column: no unique solution
    _, pullback = rrule(so.lsq_linear, twice, B, method="bvls")
    with pytest.raises(ImplicitDerivativeError, match="not unique"):
        pullback(Tangent(so.OptimizeResult, {"x": np.ones(3)}))


def test_sparse_a_and_exact_fit_are_not_implemented():
    res, pullback = rrule(so.lsq_linear, scipy.sparse.csr_array(A), B)
    da = pullback(Tangent(type(res), {"x": XBAR}))[1]
    assert isinstance(da, NotImplementedTangent) and "sparse" in da.info
    (_, rnorm), pullback = rrule(so.nnls, np.eye(2), np.array([1.0, 2.0]))  # an exact fit: ||r|| is not smooth at 0
    assert rnorm == 0.0
    assert isinstance(pullback(Tangent(tuple, ZeroTangent(), 1.0))[2], NotImplementedTangent)
    np.testing.assert_allclose(pullback(Tangent(tuple, np.array([1.0, -1.0]), NoTangent()))[2], [1.0, -1.0])
