"""Rules of chainrules/rulesets/special/information.py: finite differences, the conventions at zero, Huber zones."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.special as sc

import chainrules  # noqa: F401  (registers the rules)
from chainrules import rrule, unthunk
from chainrules.testing import test_frule, test_rrule, test_scalar


@pytest.mark.parametrize("f", [sc.xlogy, sc.xlog1py])
@pytest.mark.parametrize(("x", "y"), [(0.7, 2.5), (-2.0, 0.4), (3.0, 1e-3), (0.7 + 0.2j, 2.5 - 0.5j)])
def test_xlogy(f, x, y):
    test_rrule(f, x, y)
    test_frule(f, x, y)


def test_xlogy_at_x_zero():
    # xlogy(0, y) = 0 for every y (also y = 0): no dependence on y there; d/dx is log y
    for f, expected_dx in ((sc.xlogy, np.log(2.0)), (sc.xlog1py, np.log1p(2.0))):
        _, pullback = rrule(f, np.array([0.0, 0.0]), np.array([2.0, 0.0 if f is sc.xlogy else -1.0]))
        dx, dy = (unthunk(c) for c in pullback(np.ones(2))[1:])
        assert dy.tolist() == [0.0, 0.0] and dx[0] == expected_dx


@pytest.mark.parametrize("x", [1e-4, 0.3, 1 / np.e, 1.0, 50.0])
def test_entr(x):
    test_scalar(sc.entr, x)


@pytest.mark.parametrize("f", [sc.rel_entr, sc.kl_div])
@pytest.mark.parametrize(("x", "y"), [(1e-4, 0.5), (0.3, 0.3), (2.0, 1e-3), (5.0, 40.0)])
def test_divergences(f, x, y):
    test_rrule(f, x, y)
    test_frule(f, x, y)


def test_divergences_at_x_zero():
    _, pullback = rrule(sc.rel_entr, 0.0, 2.0)
    assert unthunk(pullback(1.0)[1]) == -np.inf and unthunk(pullback(1.0)[2]) == 0.0
    _, pullback = rrule(sc.kl_div, 0.0, 2.0)  # kl_div(0, y) = y
    assert unthunk(pullback(1.0)[2]) == 1.0


@pytest.mark.parametrize("f", [sc.huber, sc.pseudo_huber])
@pytest.mark.parametrize(("delta", "r"), [(1.0, 0.4), (1.0, -3.0), (0.5, 0.7), (2.0, -1e-4), (1e-3, 5.0)])
def test_huber(f, delta, r):
    test_rrule(f, delta, r)
    test_frule(f, delta, r)


def test_pseudo_huber_at_delta_zero():
    # SciPy returns 0 at delta = 0; the right derivatives: d/ddelta = |r|, d/dr = 0
    _, pullback = rrule(sc.pseudo_huber, 0.0, -3.0)
    ddelta, dr = (unthunk(c) for c in pullback(1.0)[1:])
    assert ddelta == 3.0 and dr == 0.0
    h = 1e-7
    assert np.isclose((sc.pseudo_huber(h, -3.0) - sc.pseudo_huber(0.0, -3.0)) / h, 3.0, rtol=1e-6)
