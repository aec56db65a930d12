"""Tests of chainrules/rulesets/stats/sampling.py: the pathwise derivative in loc and scale with NumPy's own
generators, and the implicit reparameterisation of gamma, beta and Dirichlet draws against finite differences of
the quantile function at the draw's probability level."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.special as sc
import scipy.stats as st

import chainrules  # noqa: F401  (registers the rules)
from chainrules import frule, rrule, unthunk
from chainrules.testing import jvp
from chainrules_core import NotImplementedTangent


def test_loc_and_scale_with_a_generator_object():
    # the rule copies the generator before the draw: the standard draw it uses is the one behind the output
    rng = np.random.default_rng(4)
    twin = np.random.default_rng(4)
    y, pullback = rrule(st.logistic.rvs, 1.0, 2.5, 5, random_state=rng)
    z = st.logistic.rvs(size=5, random_state=twin)
    np.testing.assert_allclose(y, 1.0 + 2.5 * z, rtol=1e-15)
    dloc, dscale = (unthunk(c) for c in pullback(np.arange(5.0))[2:4])
    assert float(dloc) == pytest.approx(10.0)
    assert float(dscale) == pytest.approx(float(np.arange(5.0) @ z), rel=1e-14)


@pytest.mark.parametrize("dist, shapes", [(st.gamma, (2.5,)), (st.gamma, (0.4,)), (st.chi2, (3.5,)),
                                          (st.beta, (2.0, 0.7))])
def test_shape_derivative_is_the_quantile_derivative_at_the_draws_level(dist, shapes):
    # NumPy's rejection samplers (the default generator here): the rule gives dF^-1(u; theta)/dtheta at u = F(y)
    y, pullback = rrule(dist.rvs, *shapes, 0.0, 1.5, 4, random_state=3)
    u = dist.cdf(y, *shapes, 0.0, 1.5)
    for i in range(len(shapes)):
        direction = [0.0] * len(shapes)
        direction[i] = 1.0

        def quantile(*theta):
            return dist.ppf(u, *theta, 0.0, 1.5)

        expected = jvp(None, quantile, *((s, d) for s, d in zip(shapes, direction)))
        tangents = (None, None, *direction, None, None, None)
        np.testing.assert_allclose(frule(tangents, dist.rvs, *shapes, 0.0, 1.5, 4, random_state=3)[1], expected,
                                   rtol=1e-6)
        w = np.array([1.0, -0.5, 2.0, 0.25])
        assert float(unthunk(pullback(w)[2 + i])) == pytest.approx(float(w @ expected), rel=1e-6)


def test_dirichlet_through_its_stick_breaking_levels():
    alpha = np.array([1.5, 2.0, 0.7])
    x, pullback = rrule(st.dirichlet.rvs, alpha, 3, 9)
    beta = np.cumsum(alpha[::-1])[::-1][1:]
    remaining = 1.0 - np.concatenate([np.zeros((3, 1)), np.cumsum(x[:, :-1], axis=1)], axis=1)
    levels = sc.betainc(alpha[:-1], beta, x[:, :-1] / remaining[:, :-1])

    def inverse(a):  # the same levels, other alpha: the inverse-CDF path of the stick-breaking representation
        b = np.cumsum(a[::-1])[::-1][1:]
        v = sc.betaincinv(a[:-1], b, levels)
        out = np.empty((3, 3))
        rest = np.ones(3)
        for i in range(2):
            out[:, i] = rest * v[:, i]
            rest = rest * (1 - v[:, i])
        out[:, 2] = rest
        return out

    np.testing.assert_allclose(inverse(alpha), x, rtol=1e-10)
    direction = np.array([0.3, -1.0, 0.5])
    expected = jvp(None, inverse, (alpha, direction))
    np.testing.assert_allclose(frule((None, None, direction, None, None), st.dirichlet.rvs, alpha, 3, 9)[1],
                               expected, rtol=1e-6, atol=1e-12)
    xbar = np.random.default_rng(0).standard_normal((3, 3))
    assert float(unthunk(pullback(xbar)[2]) @ direction) == pytest.approx(float(np.sum(xbar * expected)), rel=1e-6)


def test_other_shape_parameters_are_not_implemented_with_the_workaround():
    _, pullback = rrule(st.weibull_min.rvs, 1.7, 0.0, 2.0, 3, random_state=0)
    missing = unthunk(pullback(np.ones(3))[2])
    assert isinstance(missing, NotImplementedTangent) and "ppf" in missing.info
    assert float(unthunk(pullback(np.ones(3))[4])) != 0.0  # the scale is still differentiated
