"""Frozen distributions (chainrules/rulesets/stats/frozen.py): the freeze rules, the frozen methods' rules, their
structural tangent, keywords as constants, what a frozen cotangent may be."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.stats as st

import chainrules  # noqa: F401  (registers the rules)
from chainrules import frule, rrule, unthunk
from chainrules.rulesets.stats.frozen import register_for_testing
from chainrules.testing import test_frule, test_rrule
from chainrules_core import NoTangent, ProjectionError, Tangent, ZeroTangent


@pytest.fixture(autouse=True, scope="module")
def _tree_nodes():
    register_for_testing()


def test_frozen_chain_equals_the_positional_call():
    x = np.array([0.3, 1.7])
    frozen, freeze_pullback = rrule(st.norm, 0.5, 2.0)
    y, pullback = rrule(frozen.logpdf, x)
    _, dfrozen, dx = pullback(np.ones(2))
    dfrozen = unthunk(dfrozen)
    assert isinstance(dfrozen, Tangent) and dfrozen.primal_type is type(frozen)
    _, dmu, dsigma = freeze_pullback(dfrozen)  # the distribution's own tangent, then its arguments
    y2, direct = rrule(st.norm.logpdf, x, 0.5, 2.0)
    expected = [unthunk(c) for c in direct(np.ones(2))]
    np.testing.assert_array_equal(y, y2)
    np.testing.assert_allclose(unthunk(dx), expected[2], rtol=1e-15)
    assert float(dmu) == pytest.approx(float(expected[3]), rel=1e-15)
    assert float(dsigma) == pytest.approx(float(expected[4]), rel=1e-15)


def test_freeze_in_every_spelling():
    for f in (st.norm, st.norm.freeze, st.norm.__call__):
        test_rrule(f, 0.5, 2.0)
        test_frule(f, 0.5, 2.0)


def test_frozen_keywords_are_constants():
    frozen, freeze_pullback = rrule(st.norm, 0.5, scale=2.0)
    assert frozen.args == (0.5,) and frozen.kwds == {"scale": 2.0}
    _, pullback = rrule(frozen.cdf, 1.0)
    dfrozen = unthunk(pullback(1.0)[1])
    assert len(freeze_pullback(dfrozen)) == 2  # the distribution's own tangent, mu
    test_rrule(frozen.cdf, 1.0)


def test_frozen_method_frule_takes_the_structural_tangent():
    frozen = st.norm(0.5, 2.0)
    dfrozen = Tangent(type(frozen), args=Tangent(tuple, 1.0, 0.0))
    _, dy = frule((NoTangent(), dfrozen, 0.0), frozen.logpdf, 1.0)
    assert float(dy) == pytest.approx(0.125)  # d logpdf / d mu at z = 0.25: z / sigma
    _y, dy = frule((NoTangent(), ZeroTangent(), 1.0), frozen.logpdf, 1.0)
    assert float(dy) == pytest.approx(-0.125)  # d logpdf / dx: -z / sigma


def test_integer_frozen_arguments_have_no_tangent():
    frozen, _freeze_pullback = rrule(st.norm, 1, 2)
    _, pullback = rrule(frozen.logpdf, 0.5)
    assert isinstance(pullback(1.0)[1], NoTangent)


def test_a_frozen_cotangent_with_other_fields_is_rejected():
    frozen, freeze_pullback = rrule(st.norm, 0.5, 2.0)
    with pytest.raises(ProjectionError, match="field 'a'"):
        freeze_pullback(Tangent(type(frozen), a=1.0))
    with pytest.raises(ProjectionError, match="expected 2"):
        freeze_pullback(Tangent(type(frozen), args=(1.0,)))
    with pytest.raises(ProjectionError, match="norm"):
        freeze_pullback(1.0)
