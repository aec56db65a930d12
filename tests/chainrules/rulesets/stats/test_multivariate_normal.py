"""Tests of chainrules/rulesets/stats/multivariate_normal.py and covariance.py: the symmetric convention for a
plain array cov, singular covariances (the rank-preserving derivative), the support, Covariance objects and
frozen distributions."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import Covariance, multivariate_normal

import chainrules  # noqa: F401  (registers the rules)
from chainrules import frule, rrule, unthunk
from chainrules.rulesets._samples import spd
from chainrules.rulesets.stats.multivariate_normal import register_for_testing
from chainrules.testing import jvp, test_frule, test_rrule, vjp
from chainrules_core import NoTangent, ProjectionError, Tangent


@pytest.fixture(autouse=True, scope="module")
def _tree_nodes():
    register_for_testing()


@pytest.fixture
def problem():
    rng = np.random.default_rng(12)
    return rng.standard_normal((5, 3)), rng.standard_normal(3), spd(3, rng)


def _symmetric(a):
    return (a + a.T) / 2


@pytest.mark.parametrize("method", [multivariate_normal.logpdf, multivariate_normal.pdf])
def test_a_plain_array_cov_gets_the_symmetric_part_of_the_gradient(problem, method):
    x, mean, cov = problem
    dy = np.linspace(0.5, 1.5, 5)
    _, pullback = rrule(method, x, mean, cov)
    dcov = unthunk(pullback(dy)[4])
    (fd,) = vjp(None, lambda c: method(x, mean, c), dy, cov)  # SciPy reads one triangle: fd is not symmetric
    np.testing.assert_allclose(dcov, dcov.T, atol=1e-15)
    np.testing.assert_allclose(dcov, _symmetric(fd), rtol=1e-7, atol=1e-10)
    # the frule symmetrises its tangent: along a symmetric direction it is the derivative
    e = np.random.default_rng(1).standard_normal((3, 3))
    fd_dir = jvp(None, lambda c: method(x, mean, c), (cov, e + e.T))
    # (tangents: the method's, the distribution object's, then x, mean, cov)
    np.testing.assert_allclose(frule((None, None, None, None, e + e.T), method, x, mean, cov)[1], fd_dir, rtol=1e-7)
    np.testing.assert_allclose(frule((None, None, None, None, e), method, x, mean, cov)[1], fd_dir / 2, rtol=1e-7)


def test_singular_covariance_along_rank_preserving_directions():
    rng = np.random.default_rng(3)
    b = rng.standard_normal((3, 2))
    cov = b @ b.T  # rank 2
    x = rng.standard_normal((4, 2)) @ b.T
    mean = rng.standard_normal(2) @ b.T
    dx, dmean = rng.standard_normal((4, 2)) @ b.T, rng.standard_normal(2) @ b.T
    e = rng.standard_normal((2, 2))
    dcov = b @ (e + e.T) @ b.T  # keeps the range: the pseudo-determinant moves smoothly

    def f(x, mean, cov):
        return multivariate_normal.logpdf(x, mean, cov, allow_singular=True)

    expected = jvp(None, f, (x, dx), (mean, dmean), (cov, dcov))
    pushed = frule((None, None, dx, dmean, dcov, None), multivariate_normal.logpdf, x, mean, cov, True)[1]
    np.testing.assert_allclose(pushed, expected, rtol=1e-6)
    w = np.array([1.0, -0.5, 2.0, 0.3])
    _, pullback = rrule(multivariate_normal.logpdf, x, mean, cov, True)
    cx, cmean, ccov = (unthunk(c) for c in pullback(w)[2:5])
    adjoint = np.sum(cx * dx) + np.sum(cmean * dmean) + np.sum(ccov * dcov)
    assert adjoint == pytest.approx(float(w @ expected), rel=1e-6)
    # a direction that changes the rank jumps (SciPy counts a new eigenvalue once it exceeds its cutoff)
    nullspace = np.linalg.svd(b.T)[2][-1]
    jump = np.outer(nullspace, nullspace)
    assert abs(f(x, mean, cov + 1e-3 * jump)[0] - f(x, mean, cov)[0]) > 1.0


def test_points_outside_the_support_have_zero_cotangents():
    cov = np.diag([1.0, 0.0])
    x = np.array([[0.5, 0.0], [0.5, 1.0]])  # the second point leaves the support
    y, pullback = rrule(multivariate_normal.logpdf, x, np.zeros(2), cov, True)
    assert y[1] == -np.inf
    cx = unthunk(pullback(np.ones(2))[2])
    np.testing.assert_array_equal(cx[1], 0.0)
    assert cx[0, 0] == pytest.approx(-0.5)


def test_keywords_are_constants(problem):
    x, mean, cov = problem
    _, pullback = rrule(multivariate_normal.logpdf, x, mean=mean, cov=cov)
    assert len(pullback(np.ones(5))) == 3  # the method, the distribution object, x
    _, pullback = rrule(multivariate_normal.logpdf, x, mean, cov, False)
    assert isinstance(pullback(np.ones(5))[5], NoTangent)  # allow_singular


@pytest.mark.parametrize("factory, make", [
    (Covariance.from_diagonal, lambda s: np.diag(s).copy()),
    (Covariance.from_cholesky, np.linalg.cholesky),
    (Covariance.from_precision, np.linalg.inv),
])
def test_covariance_objects_chain_through_their_factories(problem, factory, make):
    x, mean, cov = problem
    arg = make(cov)
    dy = np.linspace(0.5, 1.5, 5)
    obj, factory_pullback = rrule(factory, arg)
    _, pullback = rrule(multivariate_normal.logpdf, x, mean, obj)
    dobj = unthunk(pullback(dy)[4])
    assert isinstance(dobj, Tangent) and dobj.primal_type is type(obj)
    darg = factory_pullback(dobj)[1]
    (fd,) = vjp(None, lambda a: multivariate_normal.logpdf(x, mean, factory(a)), dy, arg)
    np.testing.assert_allclose(darg, fd, rtol=1e-7, atol=1e-10)  # exact derivative of what SciPy reads


def test_eigendecomposition_covariance_in_w_and_v(problem):
    x, mean, cov = problem
    w, v = np.linalg.eigh(cov)
    obj, factory_pullback = rrule(Covariance.from_eigendecomposition, (w, v))
    _, pullback = rrule(multivariate_normal.logpdf, x, mean, obj)
    dw, dv = factory_pullback(unthunk(pullback(np.ones(5))[4]))[1]
    fd_w, fd_v = vjp(None, lambda a, b: multivariate_normal.logpdf(x, mean, Covariance.from_eigendecomposition((a, b))),
                     np.ones(5), w, v)
    np.testing.assert_allclose(dw, fd_w, rtol=1e-7)
    np.testing.assert_allclose(dv, fd_v, rtol=1e-7, atol=1e-10)


def test_frozen_chain_equals_the_positional_call(problem):
    x, mean, cov = problem
    dy = np.linspace(0.5, 1.5, 5)
    frozen, freeze_pullback = rrule(multivariate_normal, mean, cov)
    y, pullback = rrule(frozen.logpdf, x)
    _, dfrozen, dx = pullback(dy)
    dfrozen = unthunk(dfrozen)
    assert dfrozen.primal_type is type(frozen)
    _, dmean, dcov = freeze_pullback(dfrozen)
    y2, direct = rrule(multivariate_normal.logpdf, x, mean, cov)
    expected = [unthunk(c) for c in direct(dy)]
    np.testing.assert_allclose(y, y2, rtol=1e-15)
    np.testing.assert_allclose(unthunk(dx), expected[2], rtol=1e-13)
    np.testing.assert_allclose(dmean, expected[3], rtol=1e-13)
    np.testing.assert_allclose(dcov, expected[4], rtol=1e-13)
    with pytest.raises(ProjectionError, match="multivariate_normal"):
        freeze_pullback(Tangent(type(frozen), loc=1.0))


def test_frozen_methods_against_finite_differences(problem):
    x, mean, cov = problem
    frozen = multivariate_normal(mean, cov)
    test_rrule(frozen.logpdf, x)
    test_frule(frozen.entropy)
