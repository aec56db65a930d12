"""Tests of chainrules/rulesets/reductions/moments.py: var, std, nanvar, nanstd and ndarray.var/std."""

from __future__ import annotations

import numpy as np
import pytest

import chainrules  # noqa: F401  (registers the rules)
from chainrules.testing import PrimalAndTangent, test_frule, test_rrule
from chainrules_core import NoTangent, ProjectionError, UnsupportedKeywordError, ZeroTangent, frule, rrule, unthunk

MOMENTS = [np.var, np.std, np.nanvar, np.nanstd]


@pytest.mark.parametrize("f", MOMENTS)
def test_axis_forms(f, axis_form, rand):
    # float64 here: float32 and complex inputs are among the sample inputs (test_every_rule.py) and the
    # property tests, which draw every dtype with random axes
    args, kwargs = axis_form
    x = rand((2, 3, 4))
    test_rrule(f, x, *args, fkwargs=kwargs)
    test_frule(f, x, *args, fkwargs=kwargs)


@pytest.mark.parametrize("f", MOMENTS)
def test_complex_input_has_real_output(f, rand):
    x = rand((3, 4), np.complex128)
    y, pullback = rrule(f, x, 1)
    assert y.dtype == np.float64
    assert pullback(np.ones(3))[1].dtype == np.complex128
    test_rrule(f, x, 1, output_tangent=np.array([1.0, -2.0, 0.5]))


@pytest.mark.parametrize("f", MOMENTS)
@pytest.mark.parametrize("x", [1.5, np.float32(-2.0), np.array(1.5), 2.0 - 1.0j, np.array([0.5, 2.0])], ids=repr)
def test_scalars_and_zero_d(f, x):
    test_rrule(f, x)
    test_frule(f, x)


@pytest.mark.parametrize("f", MOMENTS)
def test_ddof_spellings(f, dtype, rand):
    x = rand((3, 4), dtype)
    test_rrule(f, x, 1, None, None, 1)                 # an integer ddof by position: NoTangent
    test_rrule(f, x, fkwargs={"axis": 0, "ddof": 1})
    test_rrule(f, x, fkwargs={"axis": 0, "correction": 1})   # the array-API spelling
    test_frule(f, x, 1, None, None, 2)
    test_rrule(f, x, 0, None, None, 0.5)               # a floating ddof is differentiated
    test_frule(f, x, None, None, None, 1.5)
    with pytest.raises(ValueError):                    # NumPy's own error passes through
        rrule(f, x, ddof=1, correction=1)


@pytest.mark.parametrize("f", MOMENTS)
def test_mean_keyword(f, dtype, rand):
    x = rand((3, 4), dtype)
    test_rrule(f, x, 1, fkwargs={"mean": np.mean(x, axis=1, keepdims=True)})
    test_rrule(f, x, 1, fkwargs={"mean": np.full((3, 1), 0.25, dtype)})   # any constant centre
    test_frule(f, x, 0, fkwargs={"mean": np.zeros((1, 4), dtype), "keepdims": True})


@pytest.mark.parametrize("f", MOMENTS)
def test_dtype(f, rand):
    x = rand((3, 4))
    test_rrule(f, x.astype(np.float32), 1, np.dtype(np.float64))
    test_frule(f, x.astype(np.float32), fkwargs={"dtype": np.float64})
    test_rrule(f, x + 1j, fkwargs={"dtype": np.complex128})
    # A float32 output of float64 input is too coarse for finite differences of a nonlinear
    # function: compare with the float64 rule, whose precision the cotangent keeps.
    _, low = rrule(f, x, 1, np.dtype(np.float32))
    _, high = rrule(f, x, 1)
    dx = low(np.ones(3, np.float32))[1]
    assert dx.dtype == np.float64 and np.allclose(dx, high(np.ones(3))[1], rtol=1e-6)
    with pytest.raises(UnsupportedKeywordError, match="dtype="):
        rrule(f, x + 1j, dtype=np.float64)


@pytest.mark.parametrize("f", MOMENTS)
def test_where_mask(f, dtype, rand):
    x = rand((3, 4), dtype)
    where = np.array([True, False, True, True])
    test_rrule(f, x, 1, fkwargs={"where": where})
    test_frule(f, x, 1, fkwargs={"where": where, "ddof": 1})
    assert np.all(rrule(f, x, 1, where=where)[1](np.ones(3))[1][:, 1] == 0)


@pytest.mark.parametrize("f", [np.nanvar, np.nanstd])
def test_nan_entries_are_skipped(f, dtype, rand):
    x = rand((3, 4), dtype)
    x[0, 1] = np.nan
    x[2, 2] = np.nan
    for args in [(), (0,), (1, None, None, 1)]:
        test_rrule(f, x, *args)
        test_frule(f, x, *args)
    dx = rrule(f, x, 1)[1](np.ones(3))[1]
    assert dx[0, 1] == 0 and dx[2, 2] == 0 and np.all(np.isfinite(dx))


@pytest.mark.parametrize("f", [np.std, np.nanstd])
def test_std_of_a_constant_slice_has_the_zero_subgradient(f, dtype, rand):
    x = rand((3, 4), dtype)
    x[1] = x[1, 0]   # std of row 1 is 0: not differentiable, the rule returns 0 (not NaN)
    dx = rrule(f, x, 1)[1](np.ones(3))[1]
    assert np.all(dx[1] == 0) and np.all(np.isfinite(dx))
    test_rrule(f, x, 1)   # central differences of |t| give 0 as well
    test_frule(f, x, 1)


def test_integer_input_gets_no_tangent():
    x = np.arange(6).reshape(2, 3)
    test_rrule(np.var, x, 1)
    test_frule(np.std, x)


@pytest.mark.parametrize(("method", "f"), [(np.ndarray.var, np.var), (np.ndarray.std, np.std)])
def test_ndarray_methods(method, f, dtype, rand):
    x = rand((2, 3, 4), dtype)
    test_rrule(method, x, 1)
    test_rrule(method, x, (0, 2), None, None, 1)
    test_rrule(method, x, fkwargs={"axis": -1, "keepdims": True, "mean": np.mean(x, -1, keepdims=True)})
    with pytest.raises(TypeError):   # the methods have no correction= (NumPy's neither)
        rrule(method, x, correction=1)
    test_frule(method, x, 0, None, None, 0.5)
    y, pullback = rrule(x.var if f is np.var else x.std, 2)
    dy = rand(y.shape)
    assert np.allclose(pullback(dy)[1], rrule(f, x, 2)[1](dy)[1])


@pytest.mark.parametrize("f", MOMENTS)
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
    _, pullback = rrule(f, x, 0, None, None, 1.5)
    assert isinstance(unthunk(pullback(ZeroTangent())[5]), ZeroTangent)


def test_var_pushforward_along_a_constant_shift_is_zero(rand):
    """var(x + t) = var(x): checked against finite differences along that direction."""
    x = rand((3, 4))
    test_frule(np.var, PrimalAndTangent(x, np.ones((3, 4))), 1)


@pytest.mark.filterwarnings("ignore:Degrees of freedom", "ignore:invalid value encountered", "ignore:divide by zero")
@pytest.mark.parametrize("f", MOMENTS)
@pytest.mark.parametrize(("shape", "args"), [((0,), ()), ((3, 0), (1,))], ids=["vector", "empty-rows"])
def test_empty_slices_have_zero_derivatives(f, shape, args):
    """The variance of no entries is NaN whatever ``ddof`` is: a constant, with a zero tangent
    (as for ``np.mean``; the rules of ``var`` divided by zero there)."""
    x = np.zeros(shape)
    test_rrule(f, x, *args)
    test_frule(f, x, *args)
    full = (*args, *(None,) * (3 - len(args)), 0.5)  # ddof = 0.5 by position (differentiated)
    y, pullback = rrule(f, x, *full)
    assert np.all(np.isnan(y)) and unthunk(pullback(np.ones(np.shape(y)))[5]) == 0.0
    _, dy = frule((NoTangent(), np.ones(shape), NoTangent(), NoTangent(), NoTangent(), 1.0), f, x, *full)
    assert not np.any(np.isnan(dy)) and not np.any(dy)


@pytest.mark.filterwarnings("ignore:Degrees of freedom", "ignore:invalid value encountered")
@pytest.mark.parametrize("f", [np.nanvar, np.nanstd])
def test_all_nan_slice_gets_zero_derivatives(f, rand):
    """An all-NaN slice of nanvar/nanstd is an empty slice: zero cotangent, zero tangent (as nanmean).

    Found by the property tests (test_properties.py): the pullback gave NaN at those entries
    (0 * (2 / 0)) where the frule gave 0."""
    x = rand((2, 3))
    x[0] = np.nan
    y, pullback = rrule(f, x, 1)
    assert np.isnan(y[0])
    dx = unthunk(pullback(np.ones(2))[1])
    assert np.all(dx[0] == 0) and np.all(np.isfinite(dx))
    _, dy = frule((NoTangent(), np.ones((2, 3)), NoTangent()), f, x, 1)
    assert dy[0] == 0
    test_rrule(f, x[1:], 1)  # the other slice is unaffected
