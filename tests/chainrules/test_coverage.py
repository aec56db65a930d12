"""Tests of chainrules/coverage.py and of ``python -m chainrules coverage``."""

from __future__ import annotations

import numpy as np
import pytest

import chainrules
from chainrules.__main__ import main
from chainrules.coverage import CATEGORIES, NOT_NUMERIC, classify, counts, coverage, public_callables
from chainrules_core import frule, non_differentiable, rrule


def test_every_public_numpy_function_and_ufunc_is_classified():
    report = coverage("numpy")
    names = set(public_callables("numpy"))
    assert set(report) == names
    assert {"sin", "add", "reshape", "concatenate", "pad", "sort"} <= names  # ufuncs and dispatchers
    assert "ndarray" not in names and "dtype" not in names  # classes are excluded
    assert set(report.values()) <= set(CATEGORIES)


@pytest.mark.parametrize(("name", "category"), [
    ("reshape", "frule+rrule"), ("pad", "frule+rrule"), ("argsort", "non-differentiable"),
    ("zeros", "non-differentiable"),
    ("put", "in-place (error)"), ("copyto", "in-place (error)"), ("savetxt", "not numeric"),
    ("full", "frule+rrule"), ("linspace", "frule+rrule"), ("where", "frule+rrule"),
])
def test_categories_of_known_functions(name, category):
    assert coverage("numpy")[name] == category


def test_a_function_with_both_rules_and_non_differentiable_signatures_counts_as_covered():
    # np.where(condition) is non-differentiable, np.where(condition, x, y) has rules
    assert classify(np.where) == "frule+rrule"


def test_rrule_only_frule_only_and_uncovered():
    def only_reverse(x):
        return x

    def only_forward(x):
        return x

    def nothing(x):
        return x

    def integer_only(x):
        return x

    @rrule.register(only_reverse, float)
    def only_reverse_rrule(x):
        return x, lambda dy: (None, dy)

    @frule.register(only_forward, float)
    def only_forward_frule(tangents, x):
        return x, tangents[1]

    non_differentiable(integer_only, int)
    assert classify(only_reverse) == "rrule only"
    assert classify(only_forward) == "frule only"
    assert classify(nothing) == "not covered"
    assert classify(integer_only) == "non-differentiable"


def test_submodules_classes_and_bound_methods():
    assert coverage("numpy.ndarray")["reshape"] == "frule+rrule"
    assert coverage("numpy.ndarray")["sort"] == "in-place (error)"
    assert coverage("numpy.random")["normal"] == "frule+rrule"  # a bound method of the global RandomState
    assert coverage("numpy.random.Generator")["standard_normal"] == "non-differentiable"
    assert "save" in NOT_NUMERIC["numpy"]


def test_counts_sum_to_the_total():
    report = coverage("numpy")
    tally = counts(report)
    assert list(tally) == list(CATEGORIES)
    assert sum(tally.values()) == len(report)
    assert tally["frule+rrule"] > 200


def test_command_prints_the_report(capsys):
    assert main(["coverage", "numpy"]) == 0
    out = capsys.readouterr().out
    assert "frule+rrule (" in out and "non-differentiable (" in out
    assert out.strip().splitlines()[-1].startswith("frule+rrule: ")
    assert chainrules.__version__
