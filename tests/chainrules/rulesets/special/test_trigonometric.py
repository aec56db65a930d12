"""Rules of chainrules/rulesets/special/trigonometric.py: degrees at multiples of 90, radian, cosm1, round,
the Dirichlet kernel on both sides of its series near 2 pi k."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.special as sc

import chainrules  # noqa: F401  (registers the rules)
from chainrules import frule, rrule, unthunk
from chainrules.testing import PrimalAndTangent, central_fdm, test_frule, test_rrule, test_scalar
from chainrules_core import NoTangent, NotImplementedTangent


@pytest.mark.parametrize("f", [sc.sindg, sc.cosdg])
@pytest.mark.parametrize("x", [-135.0, 0.0, 30.0, 90.0, 180.0, 405.0])
def test_sine_cosine_degrees(f, x):
    test_scalar(f, x)
    test_scalar(f, np.float32(x))


@pytest.mark.parametrize("f", [sc.tandg, sc.cotdg])
@pytest.mark.parametrize("x", [-135.0, 30.0, 45.0, 60.0, 400.0])
def test_tangent_cotangent_degrees(f, x):
    test_scalar(f, x)


def test_exact_at_multiples_of_90():
    assert frule((NoTangent(), 1.0), sc.sindg, 90.0)[1] == 0.0
    assert frule((NoTangent(), 1.0), sc.cosdg, 180.0)[1] == 0.0


def test_radian_cosm1_round():
    test_rrule(sc.radian, np.array([30.0, -5.0]), np.array([15.0, 30.0]), 10.0)
    test_frule(sc.radian, 30.0, 15.0, 10.0)
    for x in (-2.0, -1e-9, 0.0, 1e-5, 3.0):
        test_scalar(sc.cosm1, x)
    _, pullback = rrule(sc.round, np.array([0.3, 1.7]))
    np.testing.assert_array_equal(pullback(np.ones(2))[1], 0.0)
    test_rrule(sc.round, np.array([0.3, 1.7, -2.2]))


@pytest.mark.parametrize("n", [1, 2, 3, 4, 7])
@pytest.mark.parametrize("x", [0.7, 3.0, -1.0, 1e-5, 2 * np.pi + 1e-6, 4 * np.pi - 0.3, 2 * np.pi + 0.02, 1e-3])
def test_diric(n, x):
    test_rrule(sc.diric, x, n)
    test_frule(sc.diric, x, n)


def test_diric_series_and_formula_agree_at_the_switch():
    # the series runs for n |t| < 1e-3; both sides agree with finite differences of SciPy's diric
    for n in (3, 8):
        for x in (0.999e-3 / n, 1.001e-3 / n, 2 * np.pi + 1.001e-3 / n):
            got = frule((NoTangent(), 1.0, NoTangent()), sc.diric, x, n)[1]
            expected = central_fdm(5, 1)(lambda t, n=n: sc.diric(t, n), x)
            assert np.isclose(got, expected, rtol=1e-7, atol=1e-12)


def test_diric_order_is_an_integer():
    _, pullback = rrule(sc.diric, 0.7, 3.0)  # a float n: NaN between integers, no derivative in it
    assert isinstance(unthunk(pullback(1.0)[2]), NotImplementedTangent)
    test_rrule(sc.diric, 0.7, PrimalAndTangent(3.0, NoTangent()))
