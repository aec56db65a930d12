"""Rules of chainrules/rulesets/ndimage/measurements.py.

The samples (no labels, positive labels, a scalar index, index lists and arrays with repeats,
keywords, float32, broadcast and complex inputs) are checked against finite differences by
tests/chainrules/test_every_rule.py. Here: the conventions of the module docstring where the
finite differences say nothing (absent labels, zero variance, ties) or where the rule picks
one of several subgradients.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.ndimage as ndi

import chainrules  # noqa: F401  (registers the rules)
from chainrules import Tangent, frule, rrule, unthunk
from chainrules.testing import test_frule, test_rrule
from chainrules_core import NoTangent

LABELS = np.array([[1, 1, 2], [2, 0, 3]])


@pytest.mark.filterwarnings("ignore:invalid value encountered in divide:RuntimeWarning")
def test_an_absent_label_gives_no_cotangent(rand):
    # the mean of an absent label is NaN whatever the input: its entries get no cotangent
    x = rand((2, 3))
    y, pullback = rrule(ndi.mean, x, LABELS, [2, 9])
    assert np.isnan(y[1])
    np.testing.assert_array_equal(unthunk(pullback(np.array([0.0, 1.0]))[1]), np.zeros((2, 3)))


def test_standard_deviation_of_equal_values_has_the_zero_subgradient():
    x = np.array([[1.0, 1.0, 2.0], [5.0, 0.0, 3.0]])
    _, pullback = rrule(ndi.standard_deviation, x, LABELS, 1)   # label 1: two equal entries, std 0
    np.testing.assert_array_equal(unthunk(pullback(1.0)[1]), np.zeros((2, 3)))


def test_median_of_an_even_count_splits_between_the_middle_entries():
    x = np.array([[4.0, 1.0, 2.0], [3.0, 0.0, 9.0]])
    y, pullback = rrule(ndi.median, x, np.ones((2, 3), int))   # six entries: mean of 2 and 3
    assert y == 2.5
    np.testing.assert_array_equal(unthunk(pullback(1.0)[1]), [[0.0, 0.0, 0.5], [0.5, 0.0, 0.0]])


def test_maximum_at_a_tie_goes_to_the_first_entry():
    x = np.array([[2.0, 5.0, 5.0], [1.0, 5.0, 0.0]])
    _, pullback = rrule(ndi.maximum, x)
    np.testing.assert_array_equal(unthunk(pullback(1.0)[1]), [[0.0, 1.0, 0.0], [0.0, 0.0, 0.0]])


def test_center_of_mass_of_several_labels(rand):
    x = np.abs(rand((2, 3))) + 1.0
    y, pullback = rrule(ndi.center_of_mass, x, LABELS, [1, 3])
    assert isinstance(y, list) and isinstance(y[0], tuple)
    dx = unthunk(pullback(Tangent(list, Tangent(tuple, 1.0, 0.0), (0.0, 0.0)))[1])
    assert np.all(dx[LABELS != 1] == 0)                     # only label 1's entries move its centre
    _, dy = frule((NoTangent(), rand((2, 3)), NoTangent(), NoTangent()), ndi.center_of_mass, x, LABELS, [1, 3])
    assert isinstance(dy, Tangent) and isinstance(dy[0], Tangent)
    test_rrule(ndi.center_of_mass, x, LABELS, [1, 3])
    test_frule(ndi.center_of_mass, x, LABELS, [1, 3])
