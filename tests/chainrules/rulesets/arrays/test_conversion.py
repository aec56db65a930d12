"""Rules of chainrules/rulesets/arrays/conversion.py, checked against finite differences."""

from __future__ import annotations

import numpy as np
import pytest

import chainrules
from chainrules import NoTangent, Tangent, ZeroTangent, frule, rrule, unthunk
from chainrules.testing import check_approx, test_frule, test_rrule

CONVERTERS = [np.array, np.asarray, np.asanyarray, np.ascontiguousarray, np.asfortranarray, np.asarray_chkfinite,
              np.require, np.copy, np.ndarray.copy]


@pytest.mark.parametrize("f", CONVERTERS, ids=lambda f: f.__qualname__)
def test_converters(f, dtype, rand):
    x = rand(2, 3, dtype=dtype)
    test_rrule(f, x)
    test_frule(f, x)


def test_array_keywords_and_scalars(dtype, rand):
    x = rand(2, 3, dtype=dtype)
    test_rrule(np.array, x, fkwargs={"ndmin": 4})
    test_frule(np.array, x, fkwargs={"ndmin": 3})
    test_rrule(np.ascontiguousarray, np.asarray(rand(dtype=dtype)))
    test_rrule(np.asarray, 2.5)
    with pytest.warns(PendingDeprecationWarning):  # NumPy discourages np.matrix
        test_rrule(np.asmatrix, rand(3, dtype=dtype))
    test_rrule(np.ndarray.to_device, x, "cpu")
    test_rrule(np.ndarray.view, x)
    test_frule(np.ndarray.view, x)


def test_array_of_lists_and_arrays(rand):
    test_rrule(np.array, [[1.0, 2.0], [3.0, 4]])
    test_frule(np.array, [[1.0, 2.0], [3.0, 4]])
    test_rrule(np.array, [rand(2), rand(2)])
    test_rrule(np.array, (rand(2), [1.0, np.float32(2.0)]))
    test_frule(np.array, [rand(2), rand(2)])
    test_rrule(np.array, [1.5 + 2j, 1.0])
    _, pullback = rrule(np.array, [1.0, 2, np.ones(0) + 3.0][:2])
    assert pullback(np.array([5.0, 6.0]))[1] == Tangent(list, 5.0, NoTangent())


CASTS = [np.dtype(t) for t in (np.float64, np.float32, np.complex128, np.complex64)]


@pytest.mark.filterwarnings("ignore::numpy.exceptions.ComplexWarning")  # complex-to-real casts, on purpose
@pytest.mark.parametrize("to", CASTS, ids=str)
@pytest.mark.parametrize("f", [np.astype, np.ndarray.astype, np.array])
def test_casts_cast_the_cotangent_back(f, to, dtype, rand):
    x = rand(2, 3, dtype=dtype)
    # finite differences of an output rounded to single precision need a single-precision tolerance
    tolerance = {"rtol": 3e-3, "atol": 3e-3} if to.itemsize in (4, 8) and to != np.float64 else {}
    test_rrule(f, x, to, **tolerance)
    test_frule(f, x, to, **tolerance)
    y, pullback = rrule(f, x, to)
    assert unthunk(pullback(np.ones(y.shape, y.dtype))[1]).dtype == x.dtype
    test_rrule(np.asarray, x, fkwargs={"dtype": to}, **tolerance)


def test_cast_to_integers_has_zero_derivative(rand):
    y, pullback = rrule(np.astype, rand(3), np.dtype(np.int64))
    assert y.dtype == np.int64
    assert pullback(NoTangent())[1] == ZeroTangent()


def test_tolist(dtype, rand):
    x = rand(2, 2, dtype=dtype)
    test_rrule(np.ndarray.tolist, x)
    test_frule(np.ndarray.tolist, x)
    test_rrule(np.ndarray.tolist, np.asarray(rand(dtype=dtype)))
    _, pullback = rrule(np.ndarray.tolist, x)
    partial = pullback(Tangent(list, ZeroTangent(), [1.0, 2.0]))[1]
    check_approx(partial, np.array([[0.0, 0.0], [1.0, 2.0]]).astype(dtype))


def test_view_with_another_dtype_is_not_implemented(rand):
    x = rand(2)
    _, pullback = rrule(np.ndarray.view, x, np.int64)
    assert isinstance(pullback(np.ones(2))[1], chainrules.NotImplementedTangent)


def test_getfield_of_its_own_dtype_is_the_identity(rand):
    # It was declared non-differentiable: a silent zero for x.getfield(x.dtype), which is x.
    x = rand(2, 3)
    test_rrule(np.ndarray.getfield, x, np.float64)
    test_frule(np.ndarray.getfield, x, np.float64, 0)


@pytest.mark.parametrize(("f", "args"), [(np.ndarray.getfield, (np.int32, 4)), (np.ndarray.byteswap, ())],
                         ids=["getfield", "byteswap"])
def test_bit_reinterpretations_are_not_implemented(f, args, rand):
    x = rand(3)
    y, pullback = rrule(f, x, *args)
    assert isinstance(pullback(np.zeros(np.shape(y), y.dtype))[1], chainrules.NotImplementedTangent)
    assert isinstance(frule((NoTangent(), np.ones(3), *(NoTangent(),) * len(args)), f, x, *args)[1],
                      chainrules.NotImplementedTangent)
    integers = np.arange(3)
    y, pullback = rrule(f, integers, *args)
    assert pullback(np.zeros(np.shape(y), y.dtype))[1] == NoTangent()  # integers have no tangent at all


def test_byteswap_in_place_raises(rand):
    from chainrules.rulesets.arrays.mutation import InPlaceOperationError

    with pytest.raises(InPlaceOperationError, match="in place"):
        rrule(np.ndarray.byteswap, rand(2), True)
