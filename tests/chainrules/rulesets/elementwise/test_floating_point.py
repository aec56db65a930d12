"""Rules of chainrules/rulesets/elementwise/floating_point.py, checked against finite differences."""

from __future__ import annotations

import numpy as np
import pytest

import chainrules  # noqa: F401  (registers the rules)
from chainrules import NoTangent, Tangent, ZeroTangent, frule, rrule
from chainrules.testing import test_frule, test_rrule

POINTS = np.array([[0.3, -0.2, 1.4], [2.1, -1.3, 0.1]])


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_ldexp(dtype):
    x, n = POINTS.astype(dtype), np.array([1, -2, 3])
    test_rrule(np.ldexp, x, n)
    test_frule(np.ldexp, x, n)
    test_rrule(np.ldexp, x[0, 0], 2)
    test_rrule(np.ldexp, 0.7, n)
    _, pullback = rrule(np.ldexp, x, n)
    assert pullback(np.ones((2, 3)))[2] == NoTangent()


@pytest.mark.parametrize("f", [np.frexp, np.modf])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_two_outputs(f, dtype):
    x = POINTS.astype(dtype)
    test_rrule(f, x)
    test_frule(f, x)
    test_rrule(f, x[1, 0])
    test_rrule(f, float(x[1, 2]))
    test_frule(f, np.asarray(x[0, 1]))


def test_two_output_cotangent_kinds():
    _, pullback = rrule(np.modf, POINTS)
    d = np.ones((2, 3))
    for cotangent in ((d, d), [d, ZeroTangent()], Tangent(tuple, d, d), Tangent(tuple, ZeroTangent(), d)):
        assert pullback(cotangent)[1].shape == (2, 3)
    assert pullback(ZeroTangent()) == (NoTangent(), ZeroTangent())
    with pytest.raises(ValueError, match="modf pullback"):
        pullback((d,))
    with pytest.raises(ValueError, match="modf pullback"):
        pullback(d)


def test_frexp_exponent_has_no_tangent():
    _, (dm, de) = frule((NoTangent(), np.ones((2, 3))), np.frexp, POINTS)
    assert de == NoTangent() and dm.shape == (2, 3)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_nextafter_and_spacing(dtype):
    x = POINTS.astype(dtype)
    test_rrule(np.nextafter, x, np.array([5.0, -5.0, 0.0], dtype))
    test_frule(np.nextafter, x, np.array([5.0, -5.0, 0.0], dtype))
    test_rrule(np.spacing, x)
    test_frule(np.spacing, x)
    test_rrule(np.nextafter, x[0, 0], dtype(2.0))
    test_rrule(np.nextafter, 0.5, np.asarray(2.0, dtype))
    test_rrule(np.spacing, x[1, 1])
    test_rrule(np.spacing, 0.3)
