"""Tests of chainrules/rulesets/stats/multivariate_t.py: the degrees of freedom far from the samples' range."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import multivariate_t

import chainrules  # noqa: F401  (registers the rules)
from chainrules import frule, rrule, unthunk


@pytest.mark.parametrize("df", [2.5, 300.0, 3e4])
def test_df_derivative_against_mpmath(df):
    # finite differences cannot resolve it at large df (the derivative is O(df^-2), SciPy's value rounds at 1e-16)
    mpmath = pytest.importorskip("mpmath")
    mpmath.mp.dps = 40
    x, shape = np.array([0.4, -1.1, 0.7]), np.eye(3) + 0.2
    m = float(x @ np.linalg.solve(shape, x))
    d = 3

    def logpdf(v):
        return (mpmath.loggamma((v + d) / 2) - mpmath.loggamma(v / 2) - d / mpmath.mpf(2) * mpmath.log(v * mpmath.pi)
                - (v + d) / 2 * mpmath.log(1 + m / v))

    expected = float(mpmath.diff(logpdf, mpmath.mpf(df)))
    _, pullback = rrule(multivariate_t.logpdf, x, np.zeros(3), shape, df)
    assert float(unthunk(pullback(1.0)[5])) == pytest.approx(expected, rel=1e-10)


def test_df_inf_is_the_normal_limit():
    x, shape = np.array([[0.4, -1.1], [0.2, 0.3]]), np.eye(2)
    dy = frule((None, None, None, None, None, 1.0), multivariate_t.logpdf, x, np.zeros(2), shape, np.inf)[1]
    np.testing.assert_array_equal(dy, 0.0)
