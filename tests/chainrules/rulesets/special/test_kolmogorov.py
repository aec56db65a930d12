"""Rules of chainrules/rulesets/special/kolmogorov.py: Kolmogorov-Smirnov against exact sums in mpmath, Tukey's
lambda against finite differences and mpmath (its quantile function), truncated sample sizes."""

from __future__ import annotations

import mpmath as mp
import numpy as np
import pytest
import scipy.special as sc

import chainrules  # noqa: F401  (registers the rules)
from chainrules import frule, rrule, unthunk
from chainrules.testing import test_frule, test_rrule, test_scalar
from chainrules_core import NoTangent

mp.mp.dps = 30


def _mp_smirnov(n, d):  # Birnbaum & Tingey (1951)
    return d * mp.fsum(mp.binomial(n, j) * (1 - d - mp.mpf(j) / n) ** (n - j) * (d + mp.mpf(j) / n) ** (j - 1)
                       for j in range(int(mp.floor(n * (1 - d))) + 1))


def _mp_kolmogorov(y):
    return 2 * mp.nsum(lambda k: (-1) ** (k - 1) * mp.exp(-2 * k * k * y * y), [1, mp.inf])


def test_kolmogorov_against_mpmath():
    for y in (0.3, 0.8, 1.2, 2.5):
        expected = mp.diff(_mp_kolmogorov, y)
        got = frule((NoTangent(), 1.0), sc.kolmogorov, y)[1]
        assert abs(float((got - expected) / expected)) < 1e-12
        test_scalar(sc.kolmogorov, y)
    for p in (0.001, 0.3, 0.9):
        test_scalar(sc.kolmogi, p)


def test_smirnov_against_mpmath():
    for n, d in ((1, 0.4), (5, 0.33), (20, 0.13), (200, 0.07)):
        expected = mp.diff(lambda t: _mp_smirnov(n, t), d)  # noqa: B023
        got = unthunk(rrule(sc.smirnov, n, d)[1](1.0)[2])
        assert abs(float((got - expected) / expected)) < 1e-12
    test_rrule(sc.smirnovi, np.array([1, 5, 20]), np.array([0.4, 0.3, 0.8]))
    test_frule(sc.smirnovi, 5, 0.3)


@pytest.mark.filterwarnings("ignore:floating point number truncated to an integer")  # SciPy, on its float n
def test_smirnov_sample_size_is_a_count():
    _, pullback = rrule(sc.smirnov, 5, 0.33)
    assert pullback(1.0)[1] == NoTangent()
    _, pullback = rrule(sc.smirnov, 5.5, 0.33)  # truncated by SciPy: piecewise constant
    assert unthunk(pullback(1.0)[1]) == 0.0 and sc.smirnov(5.7, 0.33) == sc.smirnov(5.5, 0.33)


def _mp_tklmbda(x, lmbda):
    """The cdf by Newton's method on the quantile function (mpmath), from SciPy's value."""
    def quantile(p):
        return mp.log(p / (1 - p)) if lmbda == 0 else (p ** lmbda - (1 - p) ** lmbda) / lmbda

    def slope(p):
        return p ** (lmbda - 1) + (1 - p) ** (lmbda - 1)

    return mp.findroot(lambda p: quantile(p) - x, mp.mpf(sc.tklmbda(float(x), float(lmbda))), solver="newton",
                       df=slope)


@pytest.mark.parametrize(("x", "lmbda"), [(0.5, 0.3), (-2.0, -0.03), (3.0, -0.5), (0.2, 2.0), (5.0, 0.14),
                                          (0.1, 0.9), (5.0, 0.3), (-5.0, 0.3), (0.5, 0.02)])
def test_tklmbda(x, lmbda):
    test_rrule(sc.tklmbda, x, lmbda)
    test_frule(sc.tklmbda, x, lmbda)


def test_tklmbda_against_mpmath_also_at_lambda_zero():
    # at lambda = 0 (the logistic distribution) SciPy is flat in lambda for |lambda| < 1e-5; mpmath's quantile is not
    for x, lmbda in ((0.5, 0.0), (-1.5, 0.0), (0.5, 0.3), (5.0, 0.14), (3.0, -0.5)):
        _, pullback = rrule(sc.tklmbda, x, lmbda)
        got = [unthunk(c) for c in pullback(1.0)[1:]]
        expected = [mp.diff(lambda t: _mp_tklmbda(t, lmbda), x),  # noqa: B023
                    mp.diff(lambda t: _mp_tklmbda(x, t), lmbda)]  # noqa: B023
        for g, e in zip(got, expected):
            assert abs(float((g - e) / e)) < 1e-10


def test_normal_parameters_from_a_quantile():
    for f, args in ((sc.nrdtrimn, (np.array([0.01, 0.3, 0.97]), np.array([2.0, 0.5, 3.0]), np.array([1.0, -2.0, 4.0]))),
                    (sc.nrdtrisd, (np.array([0.5, -2.0]), np.array([0.01, 0.97]), np.array([-1.0, 4.0])))):
        test_rrule(f, *args)
        test_frule(f, *args)
