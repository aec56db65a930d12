"""Tests of chainrules/rulesets/stats/means.py: gmean, hmean, pmean, trim_mean (the conventions the module
docstring states; the rules at their samples run in tests/chainrules/test_every_rule.py)."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.stats as st

import chainrules  # noqa: F401  (registers the rules)
from chainrules import frule, rrule, unthunk
from chainrules.testing import jvp, test_frule, test_rrule
from chainrules_core import NoTangent


def test_weights_by_position_are_differentiated_and_by_keyword_are_not():
    a = np.array([1.0, 2.0, 4.0])
    w = np.array([0.5, 1.0, 2.0])
    _, pullback = rrule(st.gmean, a, 0, None, w)
    assert not isinstance(unthunk(pullback(1.0)[4]), NoTangent)
    _, pullback = rrule(st.gmean, a, weights=w)
    assert len(pullback(1.0)) == 2  # the function, a: keywords get no cotangent
    test_rrule(st.gmean, a, fkwargs={"weights": w})


def test_gmean_at_a_zero_entry_is_the_one_sided_limit():
    # G = (x y z)^(1/3): at x = 0 the slope in x is +inf (x^(1/3)), in y and z it is 0
    _, pullback = rrule(st.gmean, np.array([0.0, 2.0, 4.0]))
    np.testing.assert_array_equal(pullback(1.0)[1], [np.inf, 0.0, 0.0])
    # two zeros: G = 0 in a neighbourhood of either alone
    _, pullback = rrule(st.gmean, np.array([0.0, 0.0, 4.0]))
    np.testing.assert_array_equal(pullback(1.0)[1], [0.0, 0.0, 0.0])


def test_hmean_at_a_zero_entry_is_the_limit_n_over_w():
    # H ~ n a_i near a_i = 0 (the other entries positive): slope n = 3
    _, pullback = rrule(st.hmean, np.array([0.0, 2.0, 4.0]))
    np.testing.assert_allclose(pullback(1.0)[1], [3.0, 0.0, 0.0])
    h = lambda t: st.hmean(np.array([t, 2.0, 4.0]))  # noqa: E731
    assert (h(1e-9) - h(0.0)) / 1e-9 == pytest.approx(3.0, rel=1e-6)


@pytest.mark.parametrize("p", [0.0, 1e-8, -1e-5, 1e-3, 2.5])
def test_pmean_derivative_in_p_near_zero_against_mpmath(p):
    # SciPy's (mean a^p)^(1/p) loses eps/p; the rule recomputes M and forms dM/dp = M KL/p^2 without cancellation
    mpmath = pytest.importorskip("mpmath")
    mpmath.mp.dps = 40
    a = np.array([0.5, 1.5, 3.0, 7.0])

    def power_mean(q):
        if q == 0:
            return mpmath.exp(sum(mpmath.log(x) for x in a) / len(a))
        return (sum(mpmath.mpf(x) ** q for x in a) / len(a)) ** (1 / q)

    expected = float(mpmath.diff(power_mean, mpmath.mpf(p) if p else mpmath.mpf("1e-30")))
    assert frule((None, None, 1.0), st.pmean, a, p)[1] == pytest.approx(expected, rel=1e-14)


def test_pmean_integer_p_is_not_differentiated():
    _, pullback = rrule(st.pmean, np.array([1.0, 2.0]), 2)
    assert isinstance(pullback(1.0)[2], NoTangent)


def test_trim_mean_ties_across_the_cut_share_equally():
    # [1, 2, 2, 2, 3, 5] trims one entry at each end (k = 1 of n = 6 at 0.2): ranks 1..4 kept, the three 2's
    # hold ranks 1..3 (all kept) and 3 rank 4: each 2 gets 1/4
    a = np.array([3.0, 1.0, 2.0, 2.0, 5.0, 2.0])
    _, pullback = rrule(st.trim_mean, a, 0.2)
    np.testing.assert_allclose(pullback(1.0)[1], [0.25, 0, 0.25, 0.25, 0, 0.25])
    # k = 2: ranks 2, 3 kept: two of the three 2's ranks: each 2 gets (2/3) / 2; the frule is the same map
    _, pullback = rrule(st.trim_mean, a, 0.34)
    np.testing.assert_allclose(pullback(1.0)[1], [0, 0, 1 / 3, 1 / 3, 0, 1 / 3])
    # moving the tied entries together is differentiable: finite differences agree
    direction = np.array([0.0, 0.0, 1.0, 1.0, 0.0, 1.0])
    fd = jvp(None, lambda x: st.trim_mean(x, 0.34), (a, direction))
    assert frule((None, direction, None), st.trim_mean, a, 0.34)[1] == pytest.approx(fd)


def test_trim_mean_proportion_has_a_zero_derivative():
    _, pullback = rrule(st.trim_mean, np.arange(10.0), 0.25)
    assert pullback(1.0)[2] == 0.0


@pytest.mark.parametrize("f, extra", [(st.gmean, ()), (st.hmean, ()), (st.pmean, (1.5,))])
def test_means_over_a_tuple_of_axes_with_keepdims(f, extra):
    a = 0.5 + np.random.default_rng(3).random((2, 3, 2))
    test_rrule(f, a, *extra, fkwargs={"axis": (0, 2), "keepdims": True})
    test_frule(f, a, *extra, fkwargs={"axis": (0, 2), "keepdims": True})
