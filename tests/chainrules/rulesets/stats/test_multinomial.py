"""Tests of chainrules/rulesets/stats/multinomial.py: the completion of the last probability."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import multinomial

import chainrules  # noqa: F401  (registers the rules)
from chainrules import rrule
from chainrules.testing import jvp


def test_along_the_simplex_the_cotangent_is_the_plain_gradient():
    x, n, p = np.array([2, 1, 3]), 6, np.array([0.2, 0.5, 0.3])
    _, pullback = rrule(multinomial.logpmf, x, n, p)
    g = pullback(1.0)[4]
    assert g[-1] == 0.0  # p_K is recomputed by SciPy: its own entry has no effect
    plain = x / p
    direction = np.array([0.1, -0.3, 0.2])  # sums to zero: stays on the simplex
    assert float(g @ direction) == pytest.approx(float(plain @ direction), rel=1e-14)
    assert float(g @ direction) == pytest.approx(jvp(None, lambda q: multinomial.logpmf(x, n, q), (p, direction)),
                                                  rel=1e-8)


def test_softmax_parameterisation_is_unaffected():
    # a constant added to every entry of the cotangent (the difference between conventions) is annihilated
    theta = np.array([0.3, -0.2, 0.9])
    p = np.exp(theta) / np.exp(theta).sum()
    x, n = np.array([2, 1, 3]), 6
    _, pullback = rrule(multinomial.logpmf, x, n, p)
    g = pullback(1.0)[4]
    dtheta = p * (g - g @ p)  # the softmax pullback
    np.testing.assert_allclose(dtheta, x - n * p, atol=1e-13)  # the exponential family's score
