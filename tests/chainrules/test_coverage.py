"""Tests of chainrules/coverage.py and of ``chainrules coverage``."""

from __future__ import annotations

import sys
import types

import numpy as np
import pytest

from chainrules.__main__ import main
from chainrules.coverage import (
    CATEGORIES,
    NOT_NUMERIC,
    UnknownModuleError,
    classify,
    counts,
    coverage,
    entries_of,
    public_callables,
)
from chainrules_core import NoTangent, Sample, frule, non_differentiable, not_implemented, rrule, sample_inputs


@pytest.fixture(scope="module")
def numpy_report():
    return coverage("numpy")


def test_every_public_numpy_function_and_ufunc_is_classified(numpy_report):
    names = set(public_callables("numpy"))
    assert set(numpy_report) == names
    assert {"sin", "add", "reshape", "concatenate", "pad", "sort"} <= names  # ufuncs and dispatchers
    assert "ndarray" not in names and "dtype" not in names  # classes are excluded
    assert set(numpy_report.values()) <= set(CATEGORIES)


@pytest.mark.parametrize(("name", "category"), [
    ("sin", "frule+rrule"), ("arctan2", "frule+rrule"),  # rules, run at their samples
    ("argsort", "non-differentiable"), ("zeros", "non-differentiable"),
    ("put", "in-place (error)"), ("copyto", "in-place (error)"), ("savetxt", "not numeric"),
])
def test_categories_of_known_functions(numpy_report, name, category):
    assert numpy_report[name] == category


def test_functions_with_rules_are_never_reported_as_not_covered(numpy_report):
    # every public NumPy function has rules or a declaration, or takes no numbers
    assert counts(numpy_report)["not covered"] == 0


def _module(name: str, **functions) -> types.ModuleType:
    module = types.ModuleType(name)
    module.__all__ = list(functions)
    for attribute, f in functions.items():
        setattr(module, attribute, f)
    sys.modules[name] = module
    return module


def _fixture_module():
    """A module with one function in each category the rules decide."""

    def covered(x):
        return 2 * x

    def half(x, y):
        return x * y

    def unwritten(x):
        return x ** 3

    def unsampled(x):
        return x

    def integer_only(n):
        return n

    def bare(x):
        return x

    @rrule.register(covered, float)
    def covered_rrule(x):
        def covered_pullback(dy):
            return NoTangent(), 2 * dy
        return covered(x), covered_pullback

    @rrule.register(half, float, float)
    def half_rrule(x, y):
        def half_pullback(dy):
            return NoTangent(), y * dy, not_implemented("the derivative in y is not written")
        return half(x, y), half_pullback

    @rrule.register(unwritten, float)
    def unwritten_rrule(x):
        def unwritten_pullback(dy):
            return NoTangent(), not_implemented("nobody wrote it")
        return unwritten(x), unwritten_pullback

    @frule.register(unsampled, float)
    def unsampled_frule(tangents, x):
        return x, tangents[1]

    non_differentiable(integer_only, int)
    for f in (covered, unwritten, unsampled):
        f.__module__ = "coverage_fixture"
    sample_inputs(covered, unwritten)(lambda: [Sample(1.5)])
    sample_inputs(half)(lambda: [Sample(1.5, 2.0)])
    return _module("coverage_fixture", covered=covered, half=half, unwritten=unwritten, unsampled=unsampled,
                   integer_only=integer_only, bare=bare)


def test_a_rule_whose_every_derivative_is_not_implemented_is_not_coverage():
    _fixture_module()
    report = coverage("coverage_fixture")
    assert report == {"covered": "rrule only", "half": "rrule only", "unwritten": "not implemented",
                      "unsampled": "no samples", "integer_only": "non-differentiable", "bare": "not covered"}
    category, entry = entries_of("coverage_fixture")["half"]
    assert category == "rrule only" and entry.partly_not_implemented
    assert entry.not_implemented == {"the derivative in y is not written": ["y"]}


def test_the_command_lists_the_categories_and_the_reasons(capsys):
    _fixture_module()
    assert main(["coverage", "coverage_fixture"]) == 0
    out = capsys.readouterr().out
    assert "not implemented (1) [rules registered, but every derivative is not_implemented]:\n  unwritten" in out
    assert "no samples (1) [rules registered, but no sample inputs declared" in out
    assert "  unwritten (x): nobody wrote it" in out  # the reasons, with the argument
    assert "  half (y): the derivative in y is not written" in out
    tally = out.strip().splitlines()[-1]
    assert tally.startswith("frule+rrule: 0, rrule only: 2, frule only: 0, not implemented: 1, no samples: 1")
    assert tally.endswith("not covered: 1; total 6")


def test_classify_single_functions():
    assert classify(np.sin) == "frule+rrule"
    assert classify(np.put) == "in-place (error)"
    assert classify(np.save, "save", "numpy") == "not numeric"
    assert classify(np.save) == "not covered"  # without its module, the not-numeric list does not apply


def test_submodules_classes_and_bound_methods():
    assert coverage("numpy.ndarray")["sort"] == "in-place (error)"
    assert coverage("numpy.random.Generator")["standard_normal"] == "non-differentiable"
    random_report = coverage("numpy.random")
    assert random_report["seed"] == "non-differentiable"  # a bound method of the global RandomState
    assert random_report["shuffle"] == "in-place (error)"
    assert "save" in NOT_NUMERIC["numpy"] and "geterr" in NOT_NUMERIC["scipy.special"]


def test_counts_sum_to_the_total(numpy_report):
    tally = counts(numpy_report)
    assert list(tally) == list(CATEGORIES)
    assert sum(tally.values()) == len(numpy_report)


@pytest.mark.parametrize(("name", "message"), [
    ("nump", "'nump' is not a module or a class"),
    ("numpy.nothing_here", "'numpy.nothing_here' is not a module or a class"),
    ("numpy.sin", "'numpy.sin' is a ufunc, not a module or a class"),
])
def test_an_unknown_module_is_a_clear_error(name, message):
    with pytest.raises(UnknownModuleError, match=message):
        public_callables(name)


def test_the_command_gives_a_one_line_error_for_an_unknown_module(capsys):
    assert main(["coverage", "nump"], prog="chainrules") == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("chainrules coverage: error: 'nump' is not a module or a class (try numpy, ")
