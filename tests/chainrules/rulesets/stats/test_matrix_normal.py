"""Tests of chainrules/rulesets/stats/matrix_normal.py: plain covariance arrays along symmetric directions."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import matrix_normal, multivariate_normal

import chainrules  # noqa: F401  (registers the rules)
from chainrules import rrule, unthunk
from chainrules.rulesets._samples import spd


def test_matrix_normal_is_the_multivariate_normal_of_vec():
    # vec(X) ~ N(vec(M), V (x) U): the cotangents must agree with those of multivariate_normal (column-major vec)
    rng = np.random.default_rng(9)
    u, v = spd(3, rng), spd(2, rng)
    x, m = rng.standard_normal((3, 2)), rng.standard_normal((3, 2))
    y, pullback = rrule(matrix_normal.logpdf, x, m, u, v)
    dx, dm, du, dv = (unthunk(c) for c in pullback(1.0)[2:])
    y2, pull2 = rrule(multivariate_normal.logpdf, x.ravel(order="F"), m.ravel(order="F"), np.kron(v, u))
    assert y == pytest.approx(y2, rel=1e-13)
    np.testing.assert_allclose(dx.ravel(order="F"), unthunk(pull2(1.0)[2]), rtol=1e-12)
    # through K = V (x) U: U_bar = sum_ij V_ij K_bar[i-block, j-block], V_bar_ij = <U, K_bar[i-block, j-block]>
    big = unthunk(pull2(1.0)[4]).reshape(2, 3, 2, 3)
    np.testing.assert_allclose(du, np.einsum("ij,ikjl->kl", v, big), rtol=1e-11)
    np.testing.assert_allclose(dv, np.einsum("kl,ikjl->ij", u, big), rtol=1e-11)
    np.testing.assert_allclose(du, du.T, atol=1e-14)
    np.testing.assert_allclose(dv, dv.T, atol=1e-14)
    np.testing.assert_allclose(dm, -dx, rtol=1e-14)
