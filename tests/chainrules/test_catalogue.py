"""Tests of chainrules/catalogue.py: what the rule catalogue and the coverage report know of each function."""

from __future__ import annotations

import math

import numpy as np
import pytest
import scipy.sparse

import chainrules
from chainrules.catalogue import (
    CATEGORIES,
    RULE_CATEGORIES,
    argument_names,
    describe,
    entries,
    lookup_key,
    public_module,
    public_name,
    signature_reports,
)
from chainrules_core import (
    NoTangent,
    Sample,
    ZeroTangent,
    frule,
    non_differentiable,
    not_implemented,
    rrule,
    sample_inputs,
)


def _scale(x, s):
    return x * s


def _rules_for_scale(f, rrule_s=None, frule_s=None, frule_x=None, rrule_x=None):
    """Register an rrule and an frule for ``f(x, s) = x * s`` with chosen derivatives in s (and x)."""

    @rrule.register(f, float, float)
    def scale_rrule(x, s):
        def scale_pullback(dy):
            dx = s * dy if rrule_x is None else rrule_x
            ds = x * dy if rrule_s is None else rrule_s
            return NoTangent(), dx, ds
        return f(x, s), scale_pullback

    @frule.register(f, float, float)
    def scale_frule(tangents, x, s):
        _, dx, ds = tangents
        tx = s * dx if frule_x is None else frule_x
        ts = x * ds if frule_s is None else (ZeroTangent() if isinstance(ds, ZeroTangent) else frule_s)
        return f(x, s), tx + ts


def _function(name):
    def f(x, s):
        return x * s
    f.__name__ = f.__qualname__ = name
    return f


def test_a_function_whose_every_derivative_is_not_implemented():
    f = _function("all_unwritten")
    reason = "the derivative of all_unwritten is not written"
    unwritten = not_implemented(reason)
    _rules_for_scale(f, rrule_s=unwritten, rrule_x=unwritten, frule_s=unwritten, frule_x=unwritten)
    sample_inputs(f)(lambda: [Sample(1.0, 2.0)])
    entry = describe(f)
    assert entry.category == "not implemented"
    assert [(a.name, a.status) for a in entry.arguments] == [("x", "not implemented"), ("s", "not implemented")]
    assert entry.not_implemented == {reason: ["x", "s"]}
    assert not entry.rrule_implemented and not entry.frule_implemented


def test_one_argument_not_implemented_is_coverage_with_the_reason():
    f = _function("half_written")
    _rules_for_scale(f, rrule_s=not_implemented("d/ds in reverse"), frule_s=not_implemented("d/ds forward"))
    sample_inputs(f)(lambda: [Sample(1.0, 2.0)])
    entry = describe(f)
    assert entry.category == "frule+rrule"
    assert entry.partly_not_implemented
    x, s = entry.arguments
    assert (x.name, x.status, x.reasons) == ("x", "differentiated", [])
    # the frule's reason is traced to s by pushing forward one tangent at a time
    assert (s.name, s.status, s.reasons) == ("s", "not implemented", ["d/ds in reverse", "d/ds forward"])


def test_an_frule_that_is_never_implemented_makes_it_rrule_only():
    f = _function("reverse_only_in_effect")
    _rules_for_scale(f, frule_s=not_implemented("no forward rule"), frule_x=not_implemented("no forward rule"))
    sample_inputs(f)(lambda: [Sample(1.0, 2.0)])
    entry = describe(f)
    assert entry.category == "rrule only"
    assert entry.not_implemented == {"no forward rule": ["x", "s"]}


def test_a_differentiable_argument_held_fixed_still_reports_its_cotangent():
    from chainrules.testing import PrimalAndTangent

    f = _function("held_fixed")
    _rules_for_scale(f, rrule_s=not_implemented("s is held fixed in the sample"))
    sample_inputs(f)(lambda: [Sample(1.0, PrimalAndTangent(2.0, NoTangent()))])
    entry = describe(f)
    assert entry.category == "frule+rrule"
    assert entry.not_implemented == {"s is held fixed in the sample": ["s"]}


def test_without_samples_nothing_is_guessed():
    f = _function("no_samples_declared")
    _rules_for_scale(f)
    entry = describe(f)
    assert entry.category == "no samples"
    assert entry.samples == 0 and entry.arguments == []
    assert [(s.text, s.modes, s.kind) for s in entry.signatures] == [("x: float, s: float", ("frule", "rrule"),
                                                                       "rule")]


def test_probe_false_reads_the_registrations_only():
    entry = describe(np.sin, probe=False)
    assert entry.category == "no samples" and entry.probed == 0
    assert describe(np.sin).category == "frule+rrule"


def test_integer_arguments_get_notangent_and_a_rule_that_differentiates_nothing_is_non_differentiable():
    f = _function("integers_only")
    _rules_for_scale(f)

    @rrule.register(f, int, int)
    def integers_only_rrule(x, s):
        def integers_only_pullback(dy):
            return NoTangent(), NoTangent(), NoTangent()
        return f(x, s), integers_only_pullback

    sample_inputs(f)(lambda: [Sample(1, 2)])
    entry = describe(f)
    assert entry.category == "non-differentiable"
    assert [(a.name, a.status) for a in entry.arguments] == [("x", "NoTangent"), ("s", "NoTangent")]


def test_declarations():
    g = _function("declared")
    non_differentiable(g)
    assert describe(g).category == "non-differentiable"
    assert describe(np.put).category == "in-place (error)"
    assert [s.kind for s in signature_reports(np.put)] == ["in-place"]
    assert "writes into its first argument in place" in signature_reports(np.put)[0].message


def test_a_rule_that_raises_at_its_sample_is_reported_not_counted():
    f = _function("raises_at_sample")

    @rrule.register(f, float, float)
    def raises_at_sample_rrule(x, s):
        raise ValueError("broken rule")

    sample_inputs(f)(lambda: [Sample(1.0, 2.0)])
    entry = describe(f)
    assert entry.category == "no samples"
    assert entry.problems == ["rrule at 1.0, 2.0: ValueError: broken rule"]


def test_probing_leaves_numpys_global_random_state_alone():
    f = _function("draws")

    @rrule.register(f, float, float)
    def draws_rrule(x, s):
        noise = np.random.standard_normal()

        def draws_pullback(dy):
            return NoTangent(), s * dy, (x + noise) * dy
        return (x + noise) * s, draws_pullback

    sample_inputs(f)(lambda: [Sample(1.0, 2.0)])
    np.random.seed(123)
    before = np.random.get_state()[1].copy()
    entry = describe(f)
    assert entry.category == "rrule only"
    assert np.array_equal(np.random.get_state()[1], before)


def test_entries_are_the_same_on_every_run():
    first = [(e.name, e.category, [(a.name, a.status) for a in e.arguments]) for e in entries([np.sin, np.arctan2])]
    second = [(e.name, e.category, [(a.name, a.status) for a in e.arguments]) for e in entries([np.arctan2, np.sin])]
    assert first == second
    assert [name for name, _, _ in first] == ["numpy.arctan2", "numpy.sin"]


def test_every_function_with_rules_has_an_entry_with_a_rule_category():
    found = entries(probe=False)
    assert len(found) > 500
    assert {e.category for e in found} <= set(RULE_CATEGORIES)
    built_in = [e for e in found if e.rulesets and e.rulesets[0].startswith("chainrules.rulesets.")]
    assert len(built_in) > 500
    assert len({e.name for e in built_in}) == len(built_in)  # public names are unique
    assert set(RULE_CATEGORIES) < set(CATEGORIES)


@pytest.mark.parametrize(("f", "name"), [
    (np.sin, "numpy.sin"),
    (np.linalg.det, "numpy.linalg.det"),
    (np.ndarray.sum, "numpy.ndarray.sum"),
    (np.random.normal, "numpy.random.RandomState.normal"),  # a bound method: its class's method
    (np.random.Generator.normal, "numpy.random.Generator.normal"),  # not numpy.random._generator
    (math.sin, "math.sin"),
    (abs, "abs"),
    (scipy.sparse.csr_array.transpose, "scipy.sparse.csr_array.transpose"),
    (chainrules.ignore_derivatives, "chainrules_core.ignore_derivatives"),  # as the package exports it
])
def test_public_names(f, name):
    assert public_name(f) == name


def test_public_modules_and_lookup_keys():
    assert public_module("numpy.random.Generator.normal") == "numpy.random"
    assert public_module("scipy.linalg.expm") == "scipy.linalg"
    assert lookup_key(np.random.normal) is np.random.RandomState.normal


def test_argument_names():
    assert argument_names(np.sin) == ["x", "out"]
    assert argument_names(np.divmod) == ["x1", "x2", "out1", "out2"]
    assert argument_names(np.concatenate, 3)[:1] == ["arrays"]
    assert argument_names(len, 2) == ["obj", "x2"]


def test_signatures_name_the_arguments_and_mark_optional_ones():
    texts = {s.text: s for s in signature_reports(np.linalg.cholesky)}
    assert texts["a: ndarray"].modes == ("frule", "rrule")
    cholesky = [s.text for s in signature_reports(__import__("scipy.linalg").linalg.cholesky)]
    assert "a: ndarray, [lower: bool, overwrite_a: bool, check_finite: bool]" in cholesky
    kinds = {s.kind for s in signature_reports(np.sin)}
    assert kinds == {"rule", "error"}  # np.sin(x, out) by position raises
