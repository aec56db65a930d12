"""Tests of chainrules/rulesets/reductions/counting.py: count_nonzero, all, any (non-differentiable)."""

from __future__ import annotations

import numpy as np
import pytest

import chainrules  # noqa: F401  (registers the rules)
from chainrules.coverage import coverage
from chainrules_core import NoTangent, frule, rrule


@pytest.mark.parametrize("f", [np.count_nonzero, np.all, np.any, np.ndarray.all, np.ndarray.any])
def test_non_differentiable(f, rand):
    x = rand((3, 4))
    x[0, 1] = 0
    # The testers cannot take integer or boolean outputs yet (their finite differences fail
    # on an output with no tangent space), so the contract is checked directly.
    for args, kwargs in [((), {}), ((1,), {}), ((), {"axis": 0, "keepdims": True})]:
        y, pullback = rrule(f, x, *args, **kwargs)
        assert np.array_equal(y, f(x, *args, **kwargs))
        assert pullback(np.ones(np.shape(y))) == (NoTangent(),) * (2 + len(args))
    y, pullback = rrule(f, x, 0)
    assert np.array_equal(y, f(x, 0))
    assert all(isinstance(c, NoTangent) for c in pullback(np.ones(np.shape(y))))
    assert isinstance(frule((NoTangent(), x, NoTangent()), f, x, 0)[1], NoTangent)


def test_bound_methods(rand):
    x = rand((3, 4))
    y, pullback = rrule(x.any, 1)
    assert np.array_equal(y, x.any(1)) and pullback(None) == (NoTangent(), NoTangent(), NoTangent())


def test_coverage_of_the_reductions():
    report = coverage("numpy")
    for name in ["sum", "nansum", "mean", "nanmean", "average", "prod", "nanprod", "var", "std", "nanvar",
                 "nanstd", "max", "amax", "min", "amin", "nanmax", "nanmin", "ptp", "cumsum", "cumprod",
                 "cumulative_sum", "cumulative_prod", "nancumsum", "nancumprod", "median", "nanmedian",
                 "quantile", "nanquantile", "percentile", "nanpercentile", "cov", "corrcoef"]:
        assert report[name] == "frule+rrule", name
    for name in ["count_nonzero", "all", "any"]:
        assert report[name] == "non-differentiable", name
