"""Rules of chainrules/rulesets/special/agm.py: finite differences, mpmath, Euler's relation, the signs."""

from __future__ import annotations

import mpmath as mp
import numpy as np
import pytest
import scipy.special as sc

import chainrules  # noqa: F401  (registers the rules)
from chainrules.rulesets.special.agm import agm_partials
from chainrules.testing import test_frule, test_rrule

mp.mp.dps = 30


@pytest.mark.parametrize(("a", "b"), [(1.0, 3.0), (2.0, 2.0), (1e-8, 1.0), (1e6, 1e-3), (-2.0, -5.0), (0.3, 0.31)])
def test_against_finite_differences(a, b):
    test_rrule(sc.agm, a, b)
    test_frule(sc.agm, a, b)


def test_against_mpmath():
    for a, b in ((1.0, 3.0), (1e-8, 1.0), (1e6, 1e-3), (0.3, 0.31), (1.0, 1e-300)):
        # in log coordinates (d/da = d/du at u = log a, over a): mpmath's steps then never leave a, b > 0
        expected = [mp.diff(lambda u: mp.agm(mp.exp(u), b), mp.log(a)) / a,  # noqa: B023
                    mp.diff(lambda u: mp.agm(a, mp.exp(u)), mp.log(b)) / b]  # noqa: B023
        for got, e in zip(agm_partials(a, b), expected):
            assert abs(float((got - e) / e)) < 1e-13


def test_homogeneity_and_edges():
    a, b = np.array([1.0, 7.0, 2.0]), np.array([4.0, 0.5, 2.0])
    da, db = agm_partials(a, b)
    np.testing.assert_allclose(a * da + b * db, sc.agm(a, b), rtol=1e-14)
    assert all(np.isnan(agm_partials(-1.0, 2.0)))  # opposite signs: NaN, like the primal
