"""Tests of chainrules/coverage.py and of ``chainrules coverage``."""

from __future__ import annotations

import sys
import types

import numpy as np
import pytest
from scipy.stats._multivariate import multi_rv_generic

from chainrules.__main__ import main
from chainrules.coverage import (
    CATEGORIES,
    NOT_NUMERIC,
    UnknownModuleError,
    classify,
    counts,
    coverage,
    distribution_methods,
    distribution_objects,
    entries_of,
    public_callables,
)
from chainrules_core import (
    NoTangent,
    Sample,
    frule,
    non_differentiable,
    not_implemented,
    rrule,
    sample_inputs,
    samples_of,
)


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


# ---- scipy.stats: distribution objects are reported method by method -------------------------------------
def test_a_distribution_is_reported_method_by_method():
    import scipy.stats as st

    report = coverage("scipy.stats.norm")
    assert set(report) == set(distribution_methods(st.norm)) == set(public_callables("scipy.stats.norm"))
    assert {"__call__", "pdf", "logpdf", "cdf", "ppf", "isf", "mean", "entropy", "interval", "rvs", "fit"} <= \
        set(report)
    for method in ("pdf", "logpdf", "cdf", "logcdf", "sf", "logsf", "ppf", "isf", "mean", "var", "std", "entropy",
                   "median", "moment", "interval", "rvs", "__call__"):
        assert report[method] == "frule+rrule", method
    assert report["fit"] == "not covered" and report["nnlf"] == "not covered"
    assert "pmf" not in report and "pmf" in distribution_methods(st.poisson)


def test_a_method_is_covered_for_the_distributions_its_rule_accepts_only():
    # rv_continuous.logpdf has rules for some distributions: levy_stable (no closed form) is not one of them;
    # the freezing rule accepts every distribution, but only norm declares samples for it
    import scipy.stats as st

    levy = coverage("scipy.stats.levy_stable")
    assert levy["logpdf"] == "not covered" and levy["cdf"] == "not covered"
    assert levy["freeze"] == "no samples"
    assert classify(st.levy_stable.logpdf) == "not covered" and classify(st.norm.logpdf) == "frule+rrule"
    _, entry = entries_of("scipy.stats.norm")["logpdf"]
    own = [s for s in samples_of(type(st.norm).logpdf) if s.args[0] is st.norm]
    assert 0 < entry.samples == len(own)  # norm's samples only
    # SciPy's names for *args (the cotangent of self, the distribution, is NoTangent())
    assert [(a.name, a.status) for a in entry.arguments] == [
        ("self", "NoTangent"), ("x", "differentiated"), ("loc", "differentiated"), ("scale", "differentiated")]


class _toy_gen(multi_rv_generic):  # noqa: N801  (SciPy's naming of distribution classes)
    """A distribution object with a method in each category."""

    def logpdf(self, x, theta):  # covered
        return -0.5 * (x - theta) ** 2

    def cdf(self, x, theta):  # a rule whose derivative in theta is not written
        return x - theta

    def entropy(self, theta):  # a rule without samples
        return theta

    def rvs(self, theta):  # no rule
        return theta


def _toy_module():
    toy = _toy_gen()

    @rrule.register(_toy_gen.logpdf, _toy_gen, float, float)
    def toy_logpdf_rrule(self, x, theta):
        def toy_logpdf_pullback(dy):
            return NoTangent(), NoTangent(), -(x - theta) * dy, (x - theta) * dy
        return self.logpdf(x, theta), toy_logpdf_pullback

    @rrule.register(_toy_gen.cdf, _toy_gen, float, float)
    def toy_cdf_rrule(self, x, theta):
        def toy_cdf_pullback(dy):
            return NoTangent(), NoTangent(), not_implemented("x: not yet"), not_implemented("theta: not yet")
        return self.cdf(x, theta), toy_cdf_pullback

    @rrule.register(_toy_gen.entropy, _toy_gen, float)
    def toy_entropy_rrule(self, theta):
        def toy_entropy_pullback(dy):
            return NoTangent(), NoTangent(), dy
        return self.entropy(theta), toy_entropy_pullback

    sample_inputs(_toy_gen.logpdf, _toy_gen.cdf)(lambda: [Sample(toy, 0.5, 1.5), Sample(_toy_gen(), 0.5, 1.5)])
    sample_inputs(_toy_gen.entropy)(lambda: [Sample(_toy_gen(), 1.5)])  # another object's samples: not the toy's

    def statistic(x):
        return x

    return _module("coverage_distribution_fixture", toy=toy, statistic=statistic), toy


def test_the_methods_of_a_module_s_distributions_are_classified_and_counted(capsys):
    _, toy = _toy_module()
    assert distribution_objects("coverage_distribution_fixture") == {"toy": toy}
    assert set(public_callables("coverage_distribution_fixture")) == {"statistic"}  # the object is taken apart
    report = coverage("coverage_distribution_fixture")
    assert report == {"statistic": "not covered", "toy.logpdf": "rrule only",
                      "toy.cdf": "not implemented", "toy.entropy": "no samples", "toy.rvs": "not covered"}
    _, entry = entries_of("coverage_distribution_fixture")["toy.logpdf"]
    assert entry.samples == 1  # the sample of another object of the same class is not the toy's

    assert main(["coverage", "coverage_distribution_fixture"]) == 0
    out = capsys.readouterr().out
    assert "distributions (1), their methods by category" in out
    assert "toy (multivariate):\n  rrule only (1): logpdf\n  not implemented (1): cdf\n  no samples (1): entropy" in out
    assert "not implemented, and why:\n  toy.cdf (x): x: not yet\n  toy.cdf (theta): theta: not yet" in out
    assert "functions (1): not covered: 1" in out
    assert "methods of the 1 distributions (4): rrule only: 1, not implemented: 1, no samples: 1, not covered: 1" in out
    assert out.strip().splitlines()[-1].endswith("not covered: 2; total 5")


class _late_gen(multi_rv_generic):  # noqa: N801  (SciPy's naming of distribution classes)
    """A distribution whose rules arrive after a first report."""

    def logpdf(self, x, theta):
        return -0.5 * (x - theta) ** 2


def test_a_distribution_that_gets_rules_later_is_reported_covered_from_then_on():
    late = _late_gen()
    _module("coverage_late_fixture", late=late)
    assert coverage("coverage_late_fixture") == {"late.logpdf": "not covered"}

    @rrule.register(_late_gen.logpdf, _late_gen, float, float)
    def late_logpdf_rrule(self, x, theta):
        def late_logpdf_pullback(dy):
            return NoTangent(), NoTangent(), -(x - theta) * dy, (x - theta) * dy
        return self.logpdf(x, theta), late_logpdf_pullback

    assert coverage("coverage_late_fixture") == {"late.logpdf": "no samples"}
    sample_inputs(_late_gen.logpdf)(lambda: [Sample(late, 0.5, 1.5)])
    assert coverage("coverage_late_fixture") == {"late.logpdf": "rrule only"}
