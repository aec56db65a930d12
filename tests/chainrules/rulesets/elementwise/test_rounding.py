"""Rules of chainrules/rulesets/elementwise/rounding.py, checked against finite differences."""

from __future__ import annotations

import numpy as np
import pytest

import chainrules  # noqa: F401  (registers the rules)
from chainrules import NoTangent, UnsupportedKeywordError, rrule
from chainrules.testing import test_frule, test_rrule, test_scalar

# Points away from integers and half-integers, where these functions jump.
POINTS = np.array([[0.3, -0.2, 1.4], [2.1, -1.3, 0.1]])

UNARY = [np.floor, np.ceil, np.trunc, np.rint, np.fix, np.round, np.around]
COMPLEX = [np.rint, np.round, np.around]


@pytest.mark.parametrize("f", UNARY)
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.complex128])
def test_zero_derivative(f, dtype):
    if np.dtype(dtype).kind == "c" and f not in COMPLEX:
        with pytest.raises(TypeError):  # NumPy's own error passes through
            rrule(f, POINTS.astype(dtype))
        return
    x = (POINTS + 1j * POINTS[::-1] if np.dtype(dtype).kind == "c" else POINTS).astype(dtype)
    test_rrule(f, x)
    test_frule(f, x)
    test_rrule(f, x[0, 0])
    test_scalar(f, x[1, 2])
    test_scalar(f, x[1, 0].item())  # a Python scalar
    test_rrule(f, np.asarray(x[0, 1]))
    _, pullback = rrule(f, x)
    dx = pullback(np.ones(x.shape, dtype))[1]
    assert dx.dtype == x.dtype and dx.shape == x.shape and not np.any(dx)


@pytest.mark.parametrize("f", [np.round, np.around, np.ndarray.round])
def test_decimals_by_position_and_keyword(f):
    test_rrule(f, POINTS * 10, 1)
    test_rrule(f, POINTS * 10, fkwargs={"decimals": 1})
    test_frule(f, POINTS.astype(np.float32) / 10, 2)
    _, pullback = rrule(f, POINTS, 1)
    assert pullback(np.ones((2, 3)))[2] == NoTangent()


def test_round_method_is_found_from_the_bound_method():
    _, pullback = rrule(POINTS.round, 1)
    _, dx, ddecimals = pullback(np.ones((2, 3)))
    assert not np.any(dx) and ddecimals == NoTangent()


@pytest.mark.parametrize("f", [np.round, np.fix])
def test_out_raises(f):
    with pytest.raises(UnsupportedKeywordError):
        rrule(f, POINTS, out=np.empty((2, 3)))
    args = (0, np.empty((2, 3))) if f is np.round else (np.empty((2, 3)),)
    with pytest.raises(UnsupportedKeywordError):
        rrule(f, POINTS, *args)


@pytest.mark.parametrize("f", UNARY)
def test_integer_input_has_no_tangent(f):
    _, pullback = rrule(f, np.arange(3))
    assert pullback(np.ones(3))[1] == NoTangent()
