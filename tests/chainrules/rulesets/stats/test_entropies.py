"""Tests of chainrules/rulesets/stats/entropies.py: entropy (pk, qk, base) and differential_entropy."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.stats as st

import chainrules  # noqa: F401  (registers the rules)
from chainrules import rrule, unthunk
from chainrules.testing import test_frule, test_rrule
from chainrules_core import NoTangent


def test_entropy_gradient_sums_to_zero_along_scaling():
    # S does not change when pk is scaled: <grad, pk> = 0
    pk = np.array([0.2, 1.3, 0.5])
    _, pullback = rrule(st.entropy, pk)
    assert float(pullback(1.0)[1] @ pk) == pytest.approx(0.0, abs=1e-15)


def test_entropy_at_a_zero_probability_is_the_one_sided_limit():
    _, pullback = rrule(st.entropy, np.array([0.0, 0.5, 0.5]))
    assert pullback(1.0)[1][0] == np.inf  # d/dp (-p log p) -> +inf as p -> 0+


def test_entropy_base_integer_is_not_differentiated_float_is():
    pk = np.array([0.2, 0.3, 0.5])
    _, pullback = rrule(st.entropy, pk, None, 2)
    assert isinstance(pullback(1.0)[3], NoTangent)
    test_rrule(st.entropy, pk, None, 3.0)
    test_frule(st.entropy, pk, np.array([0.3, 0.3, 0.4]), 3.0)


@pytest.mark.parametrize("method", ["vasicek", "van es", "ebrahimi", "correa"])
def test_differential_entropy_is_invariant_to_the_order_of_the_sample(method):
    x = np.random.default_rng(4).standard_normal(14)
    perm = np.random.default_rng(5).permutation(14)
    _, pull = rrule(st.differential_entropy, x, method=method)
    _, pull_perm = rrule(st.differential_entropy, x[perm], method=method)
    np.testing.assert_allclose(pull_perm(1.0)[1], pull(1.0)[1][perm], rtol=1e-13)
    # a shift changes nothing; a scaling by c adds log c: the gradient sums to 0 and <grad, x> = 1
    g = unthunk(pull(1.0)[1])
    assert float(g.sum()) == pytest.approx(0.0, abs=1e-12)
    assert float(g @ x) == pytest.approx(1.0, rel=1e-12)
