"""Tests of chainrules/rulesets/reductions/scans.py: cumsum, cumprod, cumulative_sum, cumulative_prod,
nancumsum, nancumprod and ndarray.cumsum/cumprod."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import chainrules  # noqa: F401  (registers the rules)
from chainrules.testing import test_frule, test_rrule
from chainrules_core import NoTangent, ProjectionError, UnsupportedKeywordError, ZeroTangent, frule, rrule

SCANS = [np.cumsum, np.cumprod, np.nancumsum, np.nancumprod]
SCAN_AXES = [
    pytest.param((), {}, id="flattened"),
    pytest.param((0,), {}, id="axis0-positional"),
    pytest.param((), {"axis": 1}, id="axis1-keyword"),
    pytest.param((-1,), {}, id="axis-negative"),
    pytest.param((None,), {}, id="none-positional"),
]


def with_zeros(x: np.ndarray, pattern: str) -> np.ndarray:
    """Zeros in the input: none, one per slice, or several (adjacent and apart) along the last axis."""
    x = x.copy()
    flat = x.reshape(-1, x.shape[-1])
    if pattern in ("one", "several"):
        flat[0, 1] = 0
        flat[-1, 0] = 0
    if pattern == "several":
        flat[0, 2] = 0
        flat[1, 0] = 0
        flat[1, -1] = 0
    return x


@pytest.mark.parametrize("f", SCANS)
@pytest.mark.parametrize("zeros", ["none", "one", "several"])
@pytest.mark.parametrize(("args", "kwargs"), SCAN_AXES)
def test_axis_forms_with_zeros(f, zeros, args, kwargs, rand):
    # float64 here: float32 and complex inputs are among the sample inputs (test_every_rule.py) and the
    # property tests, which draw every dtype with random axes
    x = with_zeros(rand((2, 3, 4)), zeros)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no division by zero anywhere
        test_rrule(f, x, *args, fkwargs=kwargs)
        test_frule(f, x, *args, fkwargs=kwargs)


@pytest.mark.parametrize("f", SCANS)
@pytest.mark.parametrize("x", [1.5, 0.0, np.float32(-2.0), np.array(1.5), 2.0 - 1.0j], ids=repr)
def test_scalars_and_zero_d(f, x):
    test_rrule(f, x)
    test_frule(f, x)


@pytest.mark.parametrize("f", SCANS)
def test_dtype(f, rand):
    x = with_zeros(rand((3, 4)), "one")
    test_rrule(f, x, 1, np.dtype(np.complex128))
    test_rrule(f, x.astype(np.float32), fkwargs={"axis": 0, "dtype": np.float64})
    test_frule(f, x.astype(np.float32), 1, np.dtype(np.float64))
    dx = rrule(f, x.astype(np.float32), 1, np.float64)[1](np.ones((3, 4)))[1]
    assert dx.dtype == np.float32


@pytest.mark.parametrize("f", [np.nancumsum, np.nancumprod])
def test_nan_entries_count_as_the_identity(f, dtype, rand):
    x = with_zeros(rand((3, 4), dtype), "one")
    x[1, 1] = np.nan
    x[2, 3] = np.nan
    for args in [(), (0,), (1,)]:
        test_rrule(f, x, *args)
        test_frule(f, x, *args)
    dx = rrule(f, x, 1)[1](np.ones((3, 4), dtype))[1]
    assert dx[1, 1] == 0 and dx[2, 3] == 0


@pytest.mark.parametrize("f", [np.cumulative_sum, np.cumulative_prod])
@pytest.mark.parametrize("include_initial", [False, True])
def test_cumulative_functions(f, include_initial, dtype, rand):
    x = with_zeros(rand((3, 4), dtype), "several")
    for axis in (0, 1, -1):
        test_rrule(f, x, fkwargs={"axis": axis, "include_initial": include_initial})
        test_frule(f, x, fkwargs={"axis": axis, "include_initial": include_initial})
    test_rrule(f, x[0], fkwargs={"include_initial": include_initial})   # 1-d: axis may be omitted
    test_rrule(f, x[1], fkwargs={"dtype": np.complex128, "include_initial": include_initial})


@pytest.mark.parametrize(("method", "f"), [(np.ndarray.cumsum, np.cumsum), (np.ndarray.cumprod, np.cumprod)])
def test_ndarray_methods(method, f, dtype, rand):
    x = with_zeros(rand((2, 3, 4), dtype), "one")
    test_rrule(method, x, 1)
    test_rrule(method, x)
    test_frule(method, x, fkwargs={"axis": -1})
    y, pullback = rrule(x.cumsum if f is np.cumsum else x.cumprod, 2)
    dy = rand(y.shape, dtype)
    assert np.allclose(pullback(dy)[1], rrule(f, x, 2)[1](dy)[1])


def test_integer_input_gets_no_tangent():
    x = np.arange(6).reshape(2, 3)
    test_rrule(np.cumsum, x, 1)
    test_frule(np.cumprod, x)


@pytest.mark.parametrize("f", [*SCANS, np.cumulative_sum, np.cumulative_prod])
def test_errors_and_zero_cotangents(f, rand):
    x = rand((3, 4))
    _, pullback = rrule(f, x, axis=0)
    with pytest.raises(ProjectionError, match=rf"numpy\.{f.__name__} pullback.*\(4, 3\).*\(3, 4\)"):
        pullback(np.ones((4, 3)))
    with pytest.raises(UnsupportedKeywordError, match="out="):
        rrule(f, x, axis=0, out=np.zeros((3, 4)))
    with pytest.raises(UnsupportedKeywordError, match="out="):
        frule((NoTangent(), x), f, x, axis=0, out=np.zeros((3, 4)))
    assert isinstance(pullback(ZeroTangent())[1], ZeroTangent)
