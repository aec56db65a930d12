"""Tests of chainrules/rulesets/reductions/prod.py: prod, nanprod and ndarray.prod."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import chainrules  # noqa: F401  (registers the rules)
from chainrules.rulesets.reductions.prod import product_of_others
from chainrules.testing import test_frule, test_rrule
from chainrules_core import NoTangent, ProjectionError, UnsupportedKeywordError, ZeroTangent, frule, rrule

PRODUCTS = [np.prod, np.nanprod]


def with_zeros(x: np.ndarray, count: int) -> np.ndarray:
    """``x`` with ``count`` zeros in its first slice along the last axis and one in its second."""
    x = x.copy()
    flat = x.reshape(-1, x.shape[-1])
    flat[0, :count] = 0
    if count and flat.shape[0] > 1:
        flat[1, -1] = 0
    return x


@pytest.mark.parametrize("f", PRODUCTS)
@pytest.mark.parametrize("zeros", [0, 1, 2, 3], ids=lambda n: f"{n}-zeros")
def test_axis_forms_with_zeros(f, zeros, axis_form, rand):
    # float64 here: float32 and complex inputs are among the sample inputs (test_every_rule.py) and the
    # property tests, which draw every dtype with random axes
    args, kwargs = axis_form
    x = with_zeros(rand((2, 3, 4)), zeros)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no division by zero anywhere
        test_rrule(f, x, *args, fkwargs=kwargs)
        test_frule(f, x, *args, fkwargs=kwargs)


@pytest.mark.parametrize("f", PRODUCTS)
@pytest.mark.parametrize("x", [1.5, 0.0, np.float32(-2.0), np.array(1.5), 2.0 - 1.0j, np.array([0.5])], ids=repr)
def test_scalars_and_zero_d(f, x):
    test_rrule(f, x)
    test_frule(f, x)


def test_exact_zero_handling():
    _, pullback = rrule(np.prod, np.array([[2.0, 0.0, 5.0], [0.0, 3.0, 0.0], [1.0, 2.0, 4.0]]), 1)
    dx = pullback(np.ones(3))[1]
    assert np.array_equal(dx[0], [0.0, 10.0, 0.0])    # one zero: the product of the others at the zero
    assert np.array_equal(dx[1], [0.0, 0.0, 0.0])     # two zeros: zero everywhere
    assert np.allclose(dx[2], [8.0, 4.0, 2.0])
    assert np.array_equal(product_of_others(np.array([0.0, 0.0]), (0,)), [0.0, 0.0])


@pytest.mark.parametrize("f", PRODUCTS)
def test_dtype(f, rand):
    x = with_zeros(rand((3, 4)), 1)
    _, low = rrule(f, x, 1, np.dtype(np.float32))   # float32 output: too coarse for finite differences
    _, high = rrule(f, x, 1)
    dx = low(np.ones(3, np.float32))[1]
    assert dx.dtype == np.float64 and np.allclose(dx, high(np.ones(3))[1], rtol=1e-6)
    test_rrule(f, x, fkwargs={"dtype": np.complex128})
    test_frule(f, x.astype(np.float32), fkwargs={"axis": 0, "dtype": np.float64})
    with pytest.warns(np.exceptions.ComplexWarning):
        test_rrule(f, x + 1j, fkwargs={"axis": 1, "dtype": np.float64})  # the product of the real parts


@pytest.mark.parametrize("f", PRODUCTS)
def test_initial_and_where(f, rand):
    x = with_zeros(rand((3, 4)), 1)
    test_rrule(f, x, None, None, None, False, 2.5)
    test_rrule(f, x, 1, None, None, True, -1.5)
    test_frule(f, x, 0, None, None, False, 2.5)
    test_rrule(f, x, 1, fkwargs={"initial": 2.0, "where": x > -0.5})
    test_frule(f, x, 1, fkwargs={"where": x > -0.5})
    test_rrule(f, x + 1j * x, 0, fkwargs={"where": np.array([True, False, True, True])})


def test_nanprod_skips_nan(dtype, rand):
    x = with_zeros(rand((3, 4), dtype), 1)
    x[1, 1] = np.nan
    x[2, 0] = np.nan
    for args in [(), (0,), (1,)]:
        test_rrule(np.nanprod, x, *args)
        test_frule(np.nanprod, x, *args)
    dx = rrule(np.nanprod, x, 1)[1](np.ones(3, dtype))[1]
    assert dx[1, 1] == 0 and dx[2, 0] == 0


def test_integer_input_gets_no_tangent():
    x = np.arange(1, 7).reshape(2, 3)
    test_rrule(np.prod, x, 0)
    assert isinstance(rrule(np.prod, x)[1](1.0)[1], NoTangent)


def test_ndarray_prod(dtype, rand):
    x = with_zeros(rand((2, 3, 4), dtype), 1)
    test_rrule(np.ndarray.prod, x, 2)
    test_rrule(np.ndarray.prod, x, fkwargs={"axis": (0, 1), "keepdims": True})
    test_frule(np.ndarray.prod, x, None, np.dtype(np.complex128))
    y, pullback = rrule(x.prod, 1)
    assert np.allclose(pullback(np.ones(y.shape, dtype))[1], rrule(np.prod, x, 1)[1](np.ones(y.shape, dtype))[1])


def test_errors(rand):
    x = rand((3, 4))
    _, pullback = rrule(np.prod, x, 1)
    with pytest.raises(ProjectionError, match=r"numpy\.prod pullback.*\(4,\).*\(3,\)"):
        pullback(np.ones(4))
    with pytest.raises(UnsupportedKeywordError, match="out="):
        rrule(np.nanprod, x, out=np.zeros(()))
    with pytest.raises(UnsupportedKeywordError, match="out="):
        frule((NoTangent(), x), np.prod, x, out=np.zeros(()))
    assert isinstance(pullback(ZeroTangent())[1], ZeroTangent)
