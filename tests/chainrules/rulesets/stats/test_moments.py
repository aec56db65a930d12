"""Tests of chainrules/rulesets/stats/moments.py: moment, skew, kurtosis, variation, sem, gstd, zscore, describe."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.stats as st

import chainrules  # noqa: F401  (registers the rules)
from chainrules import frule, rrule, unthunk
from chainrules.testing import test_rrule
from chainrules_core import NoTangent, NotImplementedTangent, ProjectionError, Tangent, UnsupportedKeywordError


@pytest.fixture
def data():
    return np.random.default_rng(7).standard_normal((6, 3)) + 1.0


def test_moment_about_a_given_centre_is_not_centred(data):
    # m_k about a constant c: (k/n) (x - c)^(k-1), without the mean's term
    _, pullback = rrule(st.moment, data[:, 0], 3, center=0.5)
    expected = 3 / 6 * (data[:, 0] - 0.5) ** 2
    np.testing.assert_allclose(pullback(1.0)[1], expected, rtol=1e-14)
    assert isinstance(pullback(1.0)[2], NoTangent)  # the order is an integer


def test_ddof_by_position_is_differentiated_by_keyword_not(data):
    _, pullback = rrule(st.sem, data, 0, 1.5)
    assert not isinstance(unthunk(pullback(np.ones(3))[3]), NoTangent)
    _, pullback = rrule(st.sem, data, 0, ddof=1.5)
    assert len(pullback(np.ones(3))) == 3  # the function, a, axis


def test_complex_data_is_not_implemented():
    z = np.array([1.0 + 1j, 2.0, 3.0 - 1j, 0.5j])
    _y, pullback = rrule(st.moment, z, 2)
    assert isinstance(unthunk(pullback(np.complex128(1.0))[1]), NotImplementedTangent)
    _, dy = frule((None, np.ones(4, complex), None), st.moment, z, 2)
    assert isinstance(dy, NotImplementedTangent)


def test_zscore_jacobian_is_symmetric(data):
    # J = (I - 1 1^T / n) / s - z z^T / ((n - ddof) s): the pullback of e_i is the pushforward of e_i
    x = data[:, 0]
    _, pullback = rrule(st.zscore, x, 0, 1)
    jac_rows = np.array([pullback(np.eye(6)[i])[1] for i in range(6)])
    jac_cols = np.array([frule((None, np.eye(6)[i], None, None), st.zscore, x, 0, 1)[1] for i in range(6)])
    np.testing.assert_allclose(jac_rows, jac_cols.T, atol=1e-14)
    np.testing.assert_allclose(jac_rows, jac_rows.T, atol=1e-14)


def test_describe_reads_every_spelling_of_its_cotangent(data):
    res, pullback = rrule(st.describe, data)
    named = Tangent(type(res), mean=np.ones(3), minmax=Tangent(tuple, np.ones(3), np.zeros(3)))
    positional = Tangent(type(res), NoTangent(), (np.ones(3), np.zeros(3)), np.ones(3), np.zeros(3), np.zeros(3),
                         np.zeros(3))
    plain = (NoTangent(), (np.ones(3), np.zeros(3)), np.ones(3), np.zeros(3), np.zeros(3), np.zeros(3))
    a, b, c = (unthunk(pullback(d)[1]) for d in (named, positional, plain))
    np.testing.assert_allclose(a, b)
    np.testing.assert_allclose(a, c)
    # the minimum's cotangent goes to the entry that is the minimum, the mean's is 1/n everywhere
    expected = np.full((6, 3), 1 / 6)
    expected[np.argmin(data, axis=0), np.arange(3)] += 1.0
    np.testing.assert_allclose(a, expected)
    with pytest.raises(ProjectionError, match="describe"):
        pullback(np.ones(3))


def test_describe_minmax_ties_share_the_cotangent():
    res, pullback = rrule(st.describe, np.array([1.0, 3.0, 1.0, 2.0]))
    da = unthunk(pullback(Tangent(type(res), minmax=(1.0, 0.0)))[1])
    np.testing.assert_allclose(da, [0.5, 0.0, 0.5, 0.0])


def test_describe_omit_is_unsupported(data):
    with pytest.raises(UnsupportedKeywordError, match="omit"):
        rrule(st.describe, data, nan_policy="omit")


def test_skew_bias_false_against_finite_differences(data):
    test_rrule(st.skew, data, 0, False)
    test_rrule(st.kurtosis, data, 0, False, False)  # Pearson's definition, unbiased
