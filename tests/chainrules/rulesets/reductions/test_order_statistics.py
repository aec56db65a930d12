"""Tests of chainrules/rulesets/reductions/order_statistics.py: median, nanmedian, quantile, nanquantile,
percentile, nanpercentile."""

from __future__ import annotations

import numpy as np
import pytest

import chainrules  # noqa: F401  (registers the rules)
from chainrules.testing import PrimalAndTangent, test_frule, test_rrule
from chainrules_core import (
    NoTangent,
    NotImplementedTangent,
    ProjectionError,
    Tangent,
    UnsupportedKeywordError,
    ZeroTangent,
    frule,
    rrule,
    unthunk,
)

MEDIANS = [np.median, np.nanmedian]
QUANTILES = [np.quantile, np.nanquantile, np.percentile, np.nanpercentile]
METHODS = ["inverted_cdf", "averaged_inverted_cdf", "closest_observation", "interpolated_inverted_cdf", "hazen",
           "weibull", "linear", "median_unbiased", "normal_unbiased", "lower", "higher", "midpoint", "nearest"]


def q_for(f, q):
    """``q`` in the scale ``f`` takes: fractions for quantile, percent for percentile."""
    if "percentile" not in f.__name__:
        return q
    return [100.0 * v for v in q] if isinstance(q, list) else np.multiply(q, 100.0)


@pytest.mark.parametrize("f", MEDIANS)
def test_median_axis_forms(f, axis_form, rand):
    # float64 here: float32 and complex inputs are among the sample inputs (test_every_rule.py) and the
    # property tests, which draw every dtype with random axes
    args, kwargs = axis_form
    x = rand((2, 3, 4))
    test_rrule(f, x, *args, fkwargs=kwargs)
    test_frule(f, x, *args, fkwargs=kwargs)


@pytest.mark.parametrize("f", [np.quantile, np.nanquantile])  # (percentile is the same code, q scaled by 100:
@pytest.mark.parametrize("q", [0.33, np.array([0.21, 0.67]), np.array([[0.13], [0.91]])],  # its samples check that)
                         ids=["scalar", "1d", "2d"])
def test_quantile_axis_forms(f, q, axis_form, rand):
    # float64 here: float32 and complex inputs are among the sample inputs (test_every_rule.py) and the
    # property tests, which draw every dtype with random axes
    args, kwargs = axis_form
    x = rand((2, 3, 4))
    if f in (np.nanquantile, np.nanpercentile) and np.ndim(q) == 2 and np.ndim(kwargs.get("axis")) == 1:
        # NumPy misorders this output (see test_numpy_nanquantile_layout_bug): not implemented
        cotangents = rrule(f, x, q_for(f, q), *args, **kwargs)[1](np.ones(f(x, q_for(f, q), *args, **kwargs).shape))
        assert all(isinstance(unthunk(c), NotImplementedTangent) for c in cotangents[1:3])
        tangents = (NoTangent(), x, np.ones(np.shape(q)), *(NoTangent(),) * len(args))
        assert isinstance(frule(tangents, f, x, q_for(f, q), *args, **kwargs)[1], NotImplementedTangent)
        return
    test_rrule(f, x, q_for(f, q), *args, fkwargs=kwargs)
    test_frule(f, x, q_for(f, q), *args, fkwargs=kwargs)


def test_numpy_nanquantile_layout_bug():
    """The NumPy bug the rules guard against; when NumPy fixes it, the guard turns itself off."""
    from chainrules.rulesets.reductions.order_statistics import _NAN_LAYOUT_IS_BROKEN

    x = np.arange(24.0).reshape(2, 3, 4)
    q = np.array([[0.25], [0.75]])
    broken = np.nanquantile(x, q, axis=(0, 2)).shape != np.quantile(x, q, axis=(0, 2)).shape
    assert broken == _NAN_LAYOUT_IS_BROKEN
    if not broken:
        test_rrule(np.nanquantile, x, q, (0, 2))


@pytest.mark.parametrize("f", QUANTILES)
@pytest.mark.parametrize("method", METHODS)
def test_every_method(f, method, rand):
    x = rand((3, 5))
    q = q_for(f, np.array([0.17, 0.58]))   # away from the jumps of the discrete methods
    test_rrule(f, x, q, 1, None, False, method)             # by position
    test_rrule(f, x, q, fkwargs={"axis": 0, "method": method})
    test_frule(f, x, q, 1, fkwargs={"method": method})


@pytest.mark.parametrize("f", [*MEDIANS, *QUANTILES])
@pytest.mark.parametrize("x", [1.5, np.float32(-2.0), np.array(1.5), np.array([0.5])], ids=repr)
def test_scalars_and_zero_d(f, x):
    args = () if f in MEDIANS else (q_for(f, 0.4),)
    test_rrule(f, x, *args)
    test_frule(f, x, *args)


@pytest.mark.parametrize("f", QUANTILES)
def test_q_spellings(f, rand):
    x = rand((3, 5))
    test_rrule(f, x, q_for(f, [0.3, 0.6]), 1)                          # a list: a Tangent(list, ...)
    test_rrule(f, x, fkwargs={"q": q_for(f, 0.3), "axis": 1})          # by keyword: not differentiated
    test_rrule(f, x, np.float32(q_for(f, 0.3)), 0)
    dq = rrule(f, x, q_for(f, [0.3, 0.6]), 1)[1](np.ones((2, 3)))[2]
    assert isinstance(unthunk(dq), Tangent)
    test_frule(f, x, fkwargs={"q": q_for(f, 0.3), "axis": 1})
    with pytest.raises(TypeError):   # q is required
        rrule(f, x)


def test_ties_share_equally():
    x = np.array([[1.0, 3.0, 3.0, 0.5], [2.0, -1.0, 2.0, 0.3]])
    test_rrule(np.median, x, 1)            # two-way ties: central differences see the equal split
    test_rrule(np.quantile, x, 0.99, 1)
    triple = np.array([2.0, 2.0, 2.0, 1.0])
    # the median moves with a common shift of the tied entries even at a tie:
    test_frule(np.median, PrimalAndTangent(triple, np.array([1.0, 1.0, 1.0, 0.0])))
    assert np.allclose(rrule(np.median, triple)[1](1.0)[1], [1 / 3, 1 / 3, 1 / 3, 0.0])
    # quantile 1 is the max, with the same cotangent as np.max:
    assert np.allclose(rrule(np.quantile, triple, 1.0)[1](1.0)[1], rrule(np.max, triple)[1](1.0)[1])


@pytest.mark.parametrize("f", [np.nanmedian, np.nanquantile, np.nanpercentile])
def test_nan_entries_are_skipped(f, real_dtype, rand):
    x = rand((3, 5), real_dtype)
    x[0, 1] = np.nan
    x[2, 3] = np.nan
    x[2, 0] = np.nan
    args = () if f is np.nanmedian else (q_for(f, np.array([0.23, 0.71])),)
    for axis in [(), (0,), (1,)]:
        test_rrule(f, x, *args, *axis)
        test_frule(f, x, *args, *axis)
    x[1] = np.nan
    with pytest.warns(RuntimeWarning):
        _, pullback = rrule(f, x, *args, 1)
        y = f(x, *args, 1)
        dx = pullback(np.ones(y.shape))[1]
    assert np.all(dx[1] == 0) and np.all(np.isfinite(dx))   # an all-NaN slice gets a zero cotangent


@pytest.mark.parametrize("f", [np.median, np.quantile])
def test_nan_propagates_and_gets_the_cotangent(f):
    x = np.array([[1.0, np.nan, 3.0, 2.0], [1.0, 2.0, 3.0, 4.0]])
    args = () if f is np.median else (np.array([0.3, 0.8]),)
    y = f(x, *args, 1)
    cotangents = rrule(f, x, *args, 1)[1](np.ones(y.shape))
    assert np.array_equal(cotangents[1][0], [0.0, y.size // 2, 0.0, 0.0])   # all of row 0's weight
    if f is np.quantile:
        assert np.all(np.isfinite(unthunk(cotangents[2])))


def test_complex_median(rand):
    x = rand((3, 4), np.complex128)
    test_rrule(np.median, x, 1)
    test_frule(np.median, x, 0)


def test_overwrite_input_never_mutates(rand):
    x = rand((3, 5))
    test_rrule(np.median, x, 1, None, True)           # the tester checks the input is unchanged
    test_rrule(np.quantile, x, 0.3, 1, None, True)
    test_frule(np.nanpercentile, x, 30.0, 0, None, True)


def test_integer_input_gets_no_tangent():
    x = np.arange(12).reshape(3, 4)
    test_rrule(np.median, x, 1)
    test_rrule(np.quantile, x, 0.3)
    test_frule(np.percentile, x, 40.0, 0)


@pytest.mark.parametrize("f", [*MEDIANS, *QUANTILES])
def test_errors_and_zero_cotangents(f, rand):
    x = rand((3, 4))
    args = () if f in MEDIANS else (q_for(f, 0.5),)
    _, pullback = rrule(f, x, *args, 0)
    with pytest.raises(ProjectionError, match=rf"numpy\.{f.__name__} pullback.*\(3,\).*\(4,\)"):
        pullback(np.ones(3))
    with pytest.raises(UnsupportedKeywordError, match="out="):
        rrule(f, x, *args, 0, np.zeros(4))
    tangents = (NoTangent(), x, *(NoTangent(),) * (len(args) + 1))
    with pytest.raises(UnsupportedKeywordError, match="out="):
        frule(tangents, f, x, *args, 0, out=np.zeros(4))
    assert isinstance(pullback(ZeroTangent())[1], ZeroTangent)
    if f in QUANTILES:
        with pytest.raises(UnsupportedKeywordError, match="weights="):
            rrule(f, x, *args, 0, method="inverted_cdf", weights=np.ones((3, 4)))


@pytest.mark.filterwarnings("ignore:Mean of empty slice", "ignore:All-NaN slice", "ignore:invalid value encountered")
@pytest.mark.parametrize("f", [*MEDIANS, np.nanquantile, np.nanpercentile])
@pytest.mark.parametrize(("shape", "axis"), [((0,), None), ((3, 0), 1)], ids=["vector", "empty-rows"])
def test_empty_slices_have_zero_derivatives(f, shape, axis):
    """The median of no entries is NaN (NumPy warns): a constant, with a zero tangent, also in ``q``
    (the rules indexed the empty sorted slices). ``np.quantile`` of an empty array is NumPy's IndexError."""
    x = np.zeros(shape)
    q = () if f in MEDIANS else (q_for(f, 0.5),)
    keywords = {"axis": axis} if f in MEDIANS else {"q": q[0], "axis": axis}  # q by keyword: not differentiated
    test_rrule(f, x, fkwargs=keywords)
    test_frule(f, x, fkwargs=keywords)
    if q:
        y, pullback = rrule(f, x, *q, axis)
        assert np.all(np.isnan(y)) and unthunk(pullback(np.ones(np.shape(y)))[2]) == 0.0
        _, dy = frule((NoTangent(), np.ones(shape), 1.0, NoTangent()), f, x, *q, axis)
        assert not np.any(np.isnan(dy)) and not np.any(dy)
