"""Tests of chainrules/rulesets/reductions/sums.py: sum, nansum, mean, nanmean, average and ndarray.sum/mean."""

from __future__ import annotations

import numpy as np
import pytest

import chainrules  # noqa: F401  (registers the rules)
from chainrules.testing import PrimalAndTangent, test_frule, test_rrule
from chainrules_core import (
    InplaceableThunk,
    NoTangent,
    ProjectionError,
    Tangent,
    Thunk,
    UnsupportedKeywordError,
    ZeroTangent,
    add_,
    frule,
    not_implemented,
    rrule,
    unthunk,
)

SUMMATIONS = [np.sum, np.nansum, np.mean, np.nanmean]


@pytest.mark.parametrize("f", SUMMATIONS)
def test_axis_forms(f, axis_form, rand):
    # float64 here: float32 and complex inputs are among the sample inputs (test_every_rule.py) and the
    # property tests, which draw every dtype with random axes
    args, kwargs = axis_form
    x = rand((2, 3, 4))
    test_rrule(f, x, *args, fkwargs=kwargs)
    test_frule(f, x, *args, fkwargs=kwargs)


@pytest.mark.parametrize("f", SUMMATIONS)
@pytest.mark.parametrize("x", [1.5, np.float32(1.5), np.array(1.5), 2.0 - 1.0j, np.array([0.5])], ids=repr)
def test_scalars_and_zero_d(f, x):
    test_rrule(f, x)
    test_frule(f, x)


@pytest.mark.parametrize("f", SUMMATIONS)
def test_dtype_keyword_and_position(f, rand):
    x = rand((3, 4))
    test_rrule(f, x, 1, np.dtype(np.complex128))          # complex output of a real input
    test_rrule(f, x, fkwargs={"axis": 0, "dtype": np.complex128})
    test_frule(f, x, 1, np.dtype(np.complex128))
    test_rrule(f, x.astype(np.float32), fkwargs={"dtype": np.float64})
    test_frule(f, x.astype(np.float32), fkwargs={"axis": 1, "dtype": np.float64})
    with pytest.warns(np.exceptions.ComplexWarning):
        test_rrule(f, x + 1j, fkwargs={"dtype": np.float64})  # NumPy drops the imaginary part
    # A float32 output of float64 input is too coarse for finite differences: compare with
    # the float64 rule instead; the cotangent keeps the input's precision.
    _, low = rrule(f, x, 1, np.dtype(np.float32))
    _, high = rrule(f, x, 1)
    dy = rand(3)
    dx = low(dy.astype(np.float32))[1]
    assert dx.dtype == np.float64 and np.allclose(dx, high(dy)[1], rtol=1e-6)
    _, pullback = rrule(f, x.astype(np.float32), dtype=np.float64)
    assert pullback(np.float64(1.0))[1].dtype == np.float32


@pytest.mark.parametrize("f", SUMMATIONS)
def test_where_mask(f, rand):
    x = rand((3, 4))
    where = np.array([True, False, True, True])
    test_rrule(f, x, 1, fkwargs={"where": where})
    test_frule(f, x, 1, fkwargs={"where": where})
    test_rrule(f, x + 2j * x, fkwargs={"where": x > 0})


@pytest.mark.parametrize("f", [np.nansum, np.nanmean])
def test_nan_entries_are_skipped(f, dtype, rand):
    x = rand((3, 4), dtype)
    x[0, 1] = np.nan
    x[2, 3] = np.nan
    for args in [(), (0,), (1,)]:
        test_rrule(f, x, *args)
        test_frule(f, x, *args)
    _, pullback = rrule(f, x, 1)
    dx = pullback(np.ones(3, dtype))[1]
    assert dx[0, 1] == 0 and dx[2, 3] == 0 and np.all(np.isfinite(dx))


def test_nanmean_all_nan_slice_gets_zero_cotangent(rand):
    x = rand((2, 3))
    x[0] = np.nan
    with pytest.warns(RuntimeWarning):
        _, pullback = rrule(np.nanmean, x, 1)
    dx = pullback(np.ones(2))[1]
    assert np.all(dx[0] == 0)
    test_rrule(np.nanmean, x[1:], 1)  # the other slice is unaffected


@pytest.mark.parametrize("f", [np.sum, np.nansum])
def test_initial(f, rand):
    x = rand((3, 4))
    test_rrule(f, x, None, None, None, False, 2.5)     # initial by position is differentiated
    test_rrule(f, x, 1, None, None, True, 2.5)
    test_frule(f, x, 0, None, None, False, 2.5)
    test_rrule(f, x, 1, fkwargs={"initial": 2.5})      # by keyword it is not


@pytest.mark.parametrize("f", SUMMATIONS)
def test_integer_input_gets_no_tangent(f):
    x = np.arange(6).reshape(2, 3)
    test_rrule(f, x, 1)
    test_frule(f, x)
    assert isinstance(rrule(f, x)[1](1.0)[1], NoTangent)


def test_sum_cotangent_is_a_read_only_broadcast_view(rand):
    x = rand((1000, 200))
    _, pullback = rrule(np.sum, x, 0)
    dy = np.arange(200.0)
    dx = pullback(dy)[1]
    assert dx.shape == x.shape and not dx.flags.writeable and dx.strides[0] == 0
    dy[:] = -1.0  # the cotangent does not alias the caller's output cotangent
    assert dx[5, 7] == 7.0
    acc = np.ones(x.shape)
    out = add_(acc, dx)  # accumulates in place into a writable accumulator
    assert out is acc and acc[3, 7] == 8.0
    again = add_(dx, dx)  # never writes into the read-only view
    assert again is not dx and again[0, 7] == 14.0 and dx[0, 7] == 7.0


@pytest.mark.parametrize("f", [np.mean, np.sum])
def test_masked_cotangent_is_dense_and_writable(f, rand):
    x = rand((3, 4))
    dx = rrule(f, x, 1, where=x > 0)[1](np.ones(3))[1]
    assert dx.flags.writeable and np.all(dx[x <= 0] == 0)


@pytest.mark.parametrize("f", SUMMATIONS)
def test_wrong_shaped_cotangent_names_the_function(f, rand):
    x = rand((3, 4))
    _, pullback = rrule(f, x, 0)
    with pytest.raises(ProjectionError, match=rf"numpy\.{f.__name__} pullback.*\(3,\).*\(4,\)"):
        pullback(np.ones(3))


@pytest.mark.parametrize("f", SUMMATIONS)
def test_out_is_rejected(f, rand):
    x = rand((3, 4))
    with pytest.raises(UnsupportedKeywordError, match="out="):
        rrule(f, x, 0, out=np.zeros(4))
    with pytest.raises(UnsupportedKeywordError, match="out="):
        frule((NoTangent(), x, NoTangent()), f, x, 0, out=np.zeros(4))


@pytest.mark.parametrize("f", SUMMATIONS)
def test_zero_and_not_implemented_cotangents_pass_through(f, rand):
    x = rand((3, 4))
    _, pullback = rrule(f, x, 1)
    assert isinstance(pullback(ZeroTangent())[1], ZeroTangent)
    missing = not_implemented("upstream")
    assert pullback(missing)[1] is missing
    assert np.array_equal(unthunk(pullback(Thunk(lambda: np.ones(3)))[1]), unthunk(pullback(np.ones(3))[1]))


@pytest.mark.parametrize(("method", "f"), [(np.ndarray.sum, np.sum), (np.ndarray.mean, np.mean)])
def test_ndarray_methods(method, f, dtype, rand):
    x = rand((2, 3, 4), dtype)
    test_rrule(method, x, 1)
    test_rrule(method, x, fkwargs={"axis": (0, 2), "keepdims": True})
    test_rrule(method, x, None, np.dtype(np.complex128))
    test_frule(method, x, -1)
    y, pullback = rrule(x.sum if f is np.sum else x.mean, axis=1)   # a bound method: x comes first
    dy = rand(y.shape, dtype)
    assert np.allclose(pullback(dy)[1], rrule(f, x, axis=1)[1](dy)[1])


# ---- average ----------------------------------------------------------------------------------------
def test_average_without_weights(axis_form, rand):
    # float64 here: float32 and complex inputs are among the sample inputs (test_every_rule.py) and the
    # property tests, which draw every dtype with random axes
    args, kwargs = axis_form
    x = rand((2, 3, 4))
    test_rrule(np.average, x, *args, fkwargs=kwargs)
    test_frule(np.average, x, *args, fkwargs=kwargs)


@pytest.mark.parametrize("returned", [False, True])
def test_average_with_weights(dtype, returned, rand):
    x = rand((2, 3, 4), dtype)
    w = np.abs(rand((2, 3, 4))) + 0.5
    test_rrule(np.average, x, None, w, returned)
    test_rrule(np.average, x, 1, w, returned)
    test_rrule(np.average, x, -1, w[0, 0], returned)                # weights along one axis
    test_rrule(np.average, x, (2, 0), w[:, 0].T.copy(), returned)   # along a tuple of axes, in its order
    test_frule(np.average, x, (2, 0), w[:, 0].T.copy(), returned)
    test_rrule(np.average, x, 1, w.astype(dtype), returned, fkwargs={"keepdims": True})
    test_frule(np.average, x, 1, w.astype(dtype), returned)


def test_average_weights_spellings(rand):
    x = rand((3, 4))
    w = np.abs(rand(4)) + 0.5
    test_rrule(np.average, x, 1, list(w))                            # a list of weights
    test_rrule(np.average, x, fkwargs={"axis": 1, "weights": w})      # by keyword: not differentiated
    test_rrule(np.average, x, 1, np.arange(1, 5))                     # integer weights: not differentiated
    test_rrule(np.average, x, 1, None, True)                          # returned count is a constant
    test_rrule(np.average, 1.5, None, 2.0, True)


def test_average_tuple_cotangents(rand):
    x = rand((3, 4))
    w = np.abs(rand(4)) + 0.5
    (avg, total), pullback = rrule(np.average, x, 1, w, True)
    d_avg, d_total = rand(avg.shape), rand(total.shape)
    as_tangent = pullback(Tangent(tuple, d_avg, d_total))
    as_tuple = pullback((d_avg, d_total))
    only_total = pullback(Tangent(tuple, ZeroTangent(), d_total))
    for k in (1, 3):
        assert np.allclose(unthunk(as_tangent[k]), unthunk(as_tuple[k]))
    assert isinstance(unthunk(only_total[1]), ZeroTangent)
    test_rrule(np.average, x, 1, w, True, output_tangent=Tangent(tuple, ZeroTangent(), d_total))
    with pytest.raises(ProjectionError, match=r"numpy\.average pullback: output cotangent is a ndarray"):
        pullback(d_avg)
    with pytest.raises(ProjectionError, match=r"numpy\.average pullback: cotangent of output 1 has shape \(5,\)"):
        pullback((d_avg, np.ones(5)))


def test_average_weights_along_axis_in_frule(rand):
    x = rand((3, 4))
    w = np.abs(rand(4)) + 0.5
    test_frule(np.average, x, 1, PrimalAndTangent(w, rand(4)), True)
    test_frule(np.average, x, 1, PrimalAndTangent(w, NoTangent()))


def test_sum_inplaceable_accumulation_of_mean_pullback(rand):
    """add_ of a mean cotangent into a writable accumulator adds in place (no dense temporary needed)."""
    x = rand((50, 40))
    dx = rrule(np.mean, x)[1](1.0)[1]
    assert not isinstance(dx, InplaceableThunk) and dx.strides == (0, 0)
    acc = np.zeros(x.shape)
    assert add_(acc, dx) is acc and np.allclose(acc, 1 / x.size)


@pytest.mark.parametrize("f", [np.sum, np.nansum, np.prod, np.cumsum, np.cumprod])
def test_integer_output_dtype_has_zero_cotangent(f, rand):
    x = rand((3, 4))
    y, pullback = rrule(f, x, 0, np.int64)
    assert y.dtype == np.int64 and np.array_equal(y, f(x, 0, np.int64))
    assert isinstance(pullback(np.ones(y.shape))[1], ZeroTangent)
    assert isinstance(frule((NoTangent(), x, NoTangent(), NoTangent()), f, x, 0, np.int64)[1], NoTangent)


@pytest.mark.filterwarnings("ignore:Mean of empty slice", "ignore:invalid value encountered")
@pytest.mark.parametrize("f", [np.mean, np.nanmean, np.average])
@pytest.mark.parametrize(("shape", "args"), [((0,), ()), ((3, 0), (1,)), ((0, 2), (None,))],
                         ids=["vector", "empty-rows", "all-axes"])
def test_mean_of_an_empty_slice(f, shape, args):
    """Regression (issue 16): the frule of ``np.mean(np.zeros(0))`` gave NaN where the rrule gave 0.

    The mean of no entries is NaN (NumPy warns) and depends on nothing: its derivative with
    respect to the (no) entries is an empty array, and the tangent of the NaN output is the
    empty sum, 0. The frule and the rrule agree on that.
    """
    x = np.zeros(shape)
    test_rrule(f, x, *args)
    test_frule(f, x, *args)
    y, dy = frule((NoTangent(), np.ones(shape), *(NoTangent(),) * len(args)), f, x, *args)
    assert np.all(np.isnan(y))
    assert np.shape(dy) == np.shape(y) and not np.any(np.isnan(dy)) and not np.any(dy)
    _, pullback = rrule(f, x, *args)
    dx = pullback(np.ones(np.shape(y)))[1]
    assert dx.shape == shape and dx.dtype == x.dtype


def test_python_float_cotangent_of_an_array_output_names_the_function(rand):
    _, pullback = rrule(np.sum, rand((2, 3)), 0)
    with pytest.raises(ProjectionError, match=r"numpy\.sum pullback: output cotangent is a number \(float\), "
                                              r"expected an array of shape \(3,\)"):
        pullback(1.5)


@pytest.mark.parametrize("f", [np.mean, np.nanmean])
def test_mean_keepdims_by_position(f, rand):
    """Regression: the pullback had no cotangent for keepdims, so np.mean(x, 1, None, None, True) got 5 of 6.

    Found by the sample inputs (keepdims by position)."""
    x = rand((2, 3))
    test_rrule(f, x, 1, None, None, True)
    test_frule(f, x, 1, None, None, True)
