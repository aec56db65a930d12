"""Bound methods as autograd primitives: ``primitive(scipy.stats.norm.logpdf)``, frozen distributions, ndarrays.

The object of a bound method is fixed when the method is read, so it is a constant: the
bridge's lookup (``chainrules.interop._lookup``) calls the rule of the class's function with
the object first and leaves the object's cotangent out. Each gradient is checked against
finite differences of the method itself.
"""

from __future__ import annotations

import autograd
import autograd.numpy as anp
import numpy as np
import pytest
import scipy.stats as st
from autograd import make_jvp

from chainrules.interop.autograd import primitive
from chainrules.interop.errors import KeywordArgumentError
from chainrules.testing import central_fdm, grad

_X = np.array([0.3, -1.2, 2.1])
_C = np.array([[2.0, 0.3], [0.3, 1.0]])
_X2 = np.array([[0.3, -1.2], [1.0, 0.4]])


def check(method, at, make_args):
    """autograd's gradient of ``sum(method(*make_args(v)))`` at ``at`` against finite differences (and the JVP)."""
    traced = primitive(method)
    got = autograd.grad(lambda v: anp.sum(traced(*make_args(v)[0], **make_args(v)[1])))(at)
    expected = grad(central_fdm(5, 1), lambda v: np.sum(method(*make_args(v)[0], **make_args(v)[1])), at)
    np.testing.assert_allclose(got, expected, rtol=1e-8, atol=1e-10)
    direction = np.linspace(1.0, -0.5, np.size(at)).reshape(np.shape(at))
    _, jvp = make_jvp(lambda v: anp.sum(traced(*make_args(v)[0], **make_args(v)[1])))(at)(direction)
    assert jvp == pytest.approx(np.sum(expected * direction), rel=1e-8, abs=1e-10)


@pytest.mark.parametrize("wrt", ["x", "loc", "scale", "loc=", "scale="])
def test_a_distributions_method(wrt):
    args = {"x": lambda v: ((v, 0.5, 2.0), {}),
            "loc": lambda v: ((_X, v, 2.0), {}),
            "scale": lambda v: ((_X, 0.5, v), {}),
            "loc=": lambda v: ((_X,), {"loc": v, "scale": 2.0}),       # keywords bound to their positions
            "scale=": lambda v: ((_X,), {"scale": v})}[wrt]
    check(st.norm.logpdf, _X if wrt == "x" else (0.5 if "loc" in wrt else 2.0), args)


def test_a_distribution_with_shapes_by_keyword():
    k = np.array([0, 2, 5])
    check(st.poisson.logpmf, 1.7, lambda mu: ((k,), {"mu": mu}))
    check(st.binom.pmf, 0.3, lambda p: ((k,), {"n": 6, "p": p}))


@pytest.mark.parametrize("wrt", ["x", "mean", "cov", "mean="])
def test_multivariate_normal_logpdf(wrt):
    args = {"x": lambda v: ((v, np.zeros(2), _C), {}),
            "mean": lambda v: ((_X2, v, _C), {}),
            "cov": lambda v: ((_X2, np.zeros(2), (v + v.T) / 2), {}),
            "mean=": lambda v: ((_X2,), {"mean": v, "cov": _C})}[wrt]
    at = {"x": _X2, "mean": np.array([0.1, -0.2]), "cov": _C, "mean=": np.array([0.1, -0.2])}[wrt]
    check(st.multivariate_normal.logpdf, at, args)


@pytest.mark.parametrize("frozen", [st.norm(0.5, 2.0), st.expon(scale=1.5)], ids=["norm", "expon"])
def test_a_frozen_distributions_method(frozen):
    check(frozen.logpdf, np.array([0.5, 2.0]), lambda x: ((x,), {}))
    check(frozen.cdf, np.array([0.5, 2.0]), lambda x: ((x,), {}))


def test_a_frozen_multivariate_normal():
    check(st.multivariate_normal(np.zeros(2), _C).logpdf, _X2, lambda x: ((x,), {}))


def test_ndarray_methods():
    a = np.array([[1.0, 2.0, -1.0], [0.5, 3.0, 2.0]])
    check(a.dot, np.array([1.0, -2.0, 0.5]), lambda v: ((v,), {}))
    check(a.T.dot, np.array([1.0, -2.0]), lambda v: ((v,), {}))


def test_a_keyword_without_a_position_still_raises():
    def f(v):
        return primitive(st.norm.logpdf)(_X, bogus=v)

    with pytest.raises(KeywordArgumentError, match="bogus"):
        autograd.grad(f)(1.0)
