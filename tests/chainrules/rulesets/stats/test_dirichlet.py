"""Tests of chainrules/rulesets/stats/dirichlet.py: K components of x move on the simplex."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import dirichlet

import chainrules  # noqa: F401  (registers the rules)
from chainrules import frule, rrule, unthunk
from chainrules.testing import jvp


@pytest.mark.parametrize("method", [dirichlet.logpdf, dirichlet.pdf])
def test_k_components_along_the_simplex(method):
    # SciPy raises off the simplex: the derivative in x is checked along directions whose entries sum to zero
    alpha = np.array([1.5, 0.7, 3.0, 2.2])
    x = np.array([[0.2, 0.15], [0.1, 0.2], [0.3, 0.25], [0.4, 0.4]])
    dx = np.array([[0.3, -0.2], [-0.1, 0.1], [0.2, 0.3], [-0.4, -0.2]])
    expected = jvp(None, lambda v: method(v, alpha), (x, dx))
    np.testing.assert_allclose(frule((None, None, dx, None), method, x, alpha)[1], expected, rtol=1e-7)
    _, pullback = rrule(method, x, alpha)
    w = np.array([1.0, -2.0])
    assert float(np.sum(unthunk(pullback(w)[2]) * dx)) == pytest.approx(float(w @ expected), rel=1e-7)


def test_k_minus_one_components_complete_the_last():
    alpha = np.array([1.5, 0.7, 3.0])
    full, partial = np.array([0.2, 0.5, 0.3]), np.array([0.2, 0.5])
    _, pull_full = rrule(dirichlet.logpdf, full, alpha)
    _, pull_partial = rrule(dirichlet.logpdf, partial, alpha)
    g = unthunk(pull_full(1.0)[2])
    np.testing.assert_allclose(unthunk(pull_partial(1.0)[2]), g[:2] - g[2], rtol=1e-14)
