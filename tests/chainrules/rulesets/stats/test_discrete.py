"""Tests of chainrules/rulesets/stats/discrete.py and _discrete.py: counts are not differentiated, the tails in log
space (against mpmath where SciPy's own value is not accurate enough for finite differences), the generic sums."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.stats as st

import chainrules  # noqa: F401  (registers the rules)
from chainrules import rrule, unthunk
from chainrules.testing import test_rrule
from chainrules_core import NoTangent, NotImplementedTangent

mpmath = pytest.importorskip("mpmath")


def _parameter_cotangents(method, *args):
    _, pullback = rrule(method, *args)
    return [unthunk(c) for c in pullback(np.ones(np.shape(method(*args))))[2:]]


def test_counts_and_loc_get_no_tangent_whatever_their_type():
    k, n = np.array([2.0, 3.0]), 10.0  # floats, but counts
    dk, dn, dp, dloc = _parameter_cotangents(st.binom.pmf, k, n, 0.3, 1.0)
    assert isinstance(dk, NoTangent) and isinstance(dn, NoTangent) and isinstance(dloc, NoTangent)
    assert not isinstance(dp, NoTangent)
    # nbinom's n is real: differentiated
    _, dn, _ = _parameter_cotangents(st.nbinom.logpmf, 3, 2.5, 0.4)
    assert not isinstance(dn, NoTangent)


def test_poisson_logsf_far_in_the_right_tail():
    # S(60; mu = 3) = 1e-50: d log S / dmu = p_60 / S, from mpmath's sum
    mpmath.mp.dps = 50
    mu, k = mpmath.mpf(3), 60
    terms = [mpmath.exp(-mu) * mu ** j / mpmath.factorial(j) for j in range(k + 1, k + 200)]
    expected = float(mpmath.exp(-mu) * mu ** k / mpmath.factorial(k) / mpmath.fsum(terms))
    (_, dmu) = _parameter_cotangents(st.poisson.logsf, k, 3.0)
    assert float(dmu) == pytest.approx(expected, rel=1e-12)


def test_nbinom_logcdf_far_in_the_left_tail_in_n():
    # F(0) = p^n: d log F / dn = log p, although F = 1e-32 (n = 60, p = 0.3)
    _, dn, dp = _parameter_cotangents(st.nbinom.logcdf, 0, 60.0, 0.3)
    assert float(dn) == pytest.approx(np.log(0.3), rel=1e-12)
    assert float(dp) == pytest.approx(60 / 0.3, rel=1e-12)


def test_zipf_logsf_where_scipy_is_not_accurate():
    # SciPy's sf is 1 - cdf: at k = 1e6 it keeps no digit; the rule uses the Hurwitz zeta function
    mpmath.mp.dps = 30
    a, k = 3.5, 10 ** 6
    expected = float(mpmath.diff(lambda s: mpmath.log(mpmath.zeta(s, k + 1)) - mpmath.log(mpmath.zeta(s)), a))
    _, pullback = rrule(st.zipf.logsf, k, a)
    assert float(unthunk(pullback(1.0)[3])) == pytest.approx(expected, rel=1e-10)


def test_yulesimon_logsf_far_in_the_tail():
    mpmath.mp.dps = 30
    alpha, k = 3.5, 10 ** 5
    expected = float(mpmath.diff(lambda s: mpmath.log(k * mpmath.beta(k, s + 1)), alpha))
    (_, dalpha) = _parameter_cotangents(st.yulesimon.logsf, k, alpha)
    assert float(dalpha) == pytest.approx(expected, rel=1e-12)


def test_generic_sums_both_sides_of_the_median():
    # betabinom and betanbinom have no closed form: the side with the smaller mass is summed
    for args in ((np.array([1, 9]), 10, 2.5, 1.5), (np.array([0, 12]), 4, 5.5, 2.0)):
        dist = st.betabinom if args[1] == 10 else st.betanbinom
        test_rrule(dist.logcdf, *args)
        test_rrule(dist.logsf, *args)


def test_a_sum_too_long_is_not_implemented():
    # beyond 2^17 terms on both sides: not_implemented, not a loose number
    _, pullback = rrule(st.betanbinom.logsf, 10 ** 6, 3, 0.8, 2.0)
    assert isinstance(unthunk(pullback(1.0)[4]), NotImplementedTangent)


def test_frozen_discrete_chain():
    frozen, freeze_pullback = rrule(st.nbinom, 2.5, 0.4)
    _, pullback = rrule(frozen.logpmf, np.array([1, 4]))
    _, dfrozen, _ = pullback(np.ones(2))
    _, dn, dp = freeze_pullback(unthunk(dfrozen))
    direct = _parameter_cotangents(st.nbinom.logpmf, np.array([1, 4]), 2.5, 0.4)
    assert float(dn) == pytest.approx(float(direct[1]), rel=1e-14)
    assert float(dp) == pytest.approx(float(direct[2]), rel=1e-14)
