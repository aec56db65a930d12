"""Tests of chainrules/rulesets/reductions/extrema.py: max/amax, min/amin, nanmax, nanmin, ptp, ndarray.max/min."""

from __future__ import annotations

import numpy as np
import pytest

import chainrules  # noqa: F401  (registers the rules)
from chainrules.testing import PrimalAndTangent, test_frule, test_rrule
from chainrules_core import NoTangent, ProjectionError, UnsupportedKeywordError, ZeroTangent, frule, rrule, unthunk

EXTREMA = [np.max, np.amax, np.min, np.amin, np.nanmax, np.nanmin]


@pytest.mark.parametrize("f", [*EXTREMA, np.ptp])
def test_axis_forms(f, axis_form, rand):
    # float64 here: float32 and complex inputs are among the sample inputs (test_every_rule.py) and the
    # property tests, which draw every dtype with random axes
    args, kwargs = axis_form
    x = rand((2, 3, 4))
    test_rrule(f, x, *args, fkwargs=kwargs)
    test_frule(f, x, *args, fkwargs=kwargs)


@pytest.mark.parametrize("f", [*EXTREMA, np.ptp])
@pytest.mark.parametrize("x", [1.5, np.float32(-2.0), np.array(1.5), np.array([0.5])], ids=repr)
def test_scalars_and_zero_d(f, x):
    test_rrule(f, x)
    test_frule(f, x)


@pytest.mark.parametrize("f", [*EXTREMA, np.ptp])
def test_two_way_ties_share_equally(f):
    """At a two-way tie, central differences along each entry see half the slope: the equal split."""
    x = np.array([[1.0, 3.0, 3.0, 0.5], [-2.0, -1.0, -2.0, 0.25]])
    test_rrule(f, x, 1)
    test_rrule(f, x, None, fkwargs={"keepdims": True})


@pytest.mark.parametrize("f", [np.max, np.min, np.nanmax, np.nanmin])
def test_many_way_ties(f):
    x = np.array([2.0, 2.0, 2.0, 2.0])
    # max(x + t * 1) = max(x) + t even at a tie, so this direction is checked by finite differences:
    test_frule(f, PrimalAndTangent(x, np.ones(4)))
    shares = rrule(f, x)[1](1.0)[1]
    assert np.allclose(shares, 0.25)  # the documented convention: equal shares of the tied entries
    assert np.isclose(unthunk(frule((NoTangent(), np.array([1.0, 2.0, 3.0, 6.0])), f, x)[1]), 3.0)


def test_complex_input_routes_to_the_chosen_entry(rand):
    x = rand((3, 4), np.complex128)
    test_rrule(np.max, x, 1)
    test_rrule(np.min, x, 0)
    test_frule(np.nanmax, x, 1)


@pytest.mark.parametrize("f", EXTREMA)
def test_initial_and_where(f, rand):
    x = rand((3, 4))
    test_rrule(f, x, None, None, False, 0.1)                  # initial by position is differentiated
    test_rrule(f, x, 1, None, True, 0.1)
    test_frule(f, x, 1, None, False, 0.1)
    test_rrule(f, x, 1, fkwargs={"initial": 0.1})
    where = np.array([True, False, True, False])
    test_rrule(f, x, 1, fkwargs={"initial": 5.0 if "min" in f.__name__ else -5.0, "where": where})
    test_frule(f, x, 1, None, False, 0.1, where)


def test_initial_tie_shares_with_the_entries():
    x = np.array([1.0, 2.0])
    _, pullback = rrule(np.max, x, None, None, False, 2.0)
    cotangents = pullback(1.0)
    assert np.allclose(cotangents[1], [0.0, 0.5]) and np.isclose(unthunk(cotangents[5]), 0.5)


@pytest.mark.parametrize("f", [np.max, np.min, np.ptp])
def test_nan_propagates_and_gets_the_cotangent(f):
    x = np.array([[1.0, np.nan, 3.0, np.nan], [1.0, 2.0, 3.0, 4.0]])
    y, pullback = rrule(f, x, 1)
    assert np.isnan(y[0])
    dx = pullback(np.array([1.0, 1.0]))[1]
    if f is np.ptp:   # max and min of a NaN slice are both NaN: their shares cancel
        assert np.all(dx[0] == 0)
    else:
        assert np.array_equal(dx[0], [0.0, 0.5, 0.0, 0.5])
    test_rrule(f, x[1:], 1)


@pytest.mark.parametrize("f", [np.nanmax, np.nanmin])
def test_nan_entries_are_skipped(f, real_dtype, rand):
    x = rand((3, 4), real_dtype)
    x[0, 1] = np.nan
    x[2, 2] = np.nan
    for args in [(), (0,), (1,)]:
        test_rrule(f, x, *args)
        test_frule(f, x, *args)
    x[1] = np.nan
    with pytest.warns(RuntimeWarning):
        _, pullback = rrule(f, x, 1)
    assert np.all(pullback(np.ones(3))[1][1] == 0)   # an all-NaN slice gets a zero cotangent


@pytest.mark.parametrize(("method", "f"), [(np.ndarray.max, np.max), (np.ndarray.min, np.min)])
def test_ndarray_methods(method, f, real_dtype, rand):
    x = rand((2, 3, 4), real_dtype)
    test_rrule(method, x, 1)
    test_rrule(method, x, fkwargs={"axis": (0, 2), "keepdims": True})
    test_frule(method, x, -1)
    test_rrule(method, x, 1, fkwargs={"initial": 0.0})
    y, pullback = rrule(x.max if f is np.max else x.min, 0)
    dy = rand(y.shape, real_dtype)
    assert np.allclose(pullback(dy)[1], rrule(f, x, 0)[1](dy)[1])
    with pytest.raises(TypeError):
        rrule(method, x, dtype=np.float64)   # the methods have no dtype= (NumPy's neither)


def test_integer_input_gets_no_tangent():
    x = np.arange(6).reshape(2, 3)
    test_rrule(np.max, x, 1)
    test_rrule(np.ptp, x)
    test_frule(np.min, x)


@pytest.mark.parametrize("f", [*EXTREMA, np.ptp])
def test_errors_and_zero_cotangents(f, rand):
    x = rand((3, 4))
    _, pullback = rrule(f, x, 0)
    with pytest.raises(ProjectionError, match=rf"numpy\.{f.__name__} pullback.*\(3,\).*\(4,\)"):
        pullback(np.ones(3))
    with pytest.raises(UnsupportedKeywordError, match="out="):
        rrule(f, x, 0, out=np.zeros(4))
    with pytest.raises(UnsupportedKeywordError, match="out="):
        frule((NoTangent(), x, NoTangent()), f, x, 0, out=np.zeros(4))
    assert isinstance(pullback(ZeroTangent())[1], ZeroTangent)
