"""Rules of chainrules/rulesets/elementwise/arithmetic.py, checked against finite differences."""

from __future__ import annotations

import numpy as np
import pytest

import chainrules  # noqa: F401  (registers the rules)
from chainrules import NoTangent, Tangent, ZeroTangent, rrule, unthunk
from chainrules.testing import test_frule, test_rrule

DTYPES = [np.float64, np.float32, np.complex128]


@pytest.mark.parametrize("f", [np.add, np.subtract, np.multiply, np.divide])
@pytest.mark.parametrize("dtype", DTYPES)
def test_binary(f, dtype, check_binary):
    check_binary(f, ((-2.0, 2.0), (0.5, 2.0)), dtype)


def test_true_divide_is_divide():
    assert np.true_divide is np.divide


UNARY = [
    (np.negative, (-2.0, 2.0), (-2.0, 2.0)),
    (np.positive, (-2.0, 2.0), (-2.0, 2.0)),
]


def test_unary(unary_case, check_unary):
    f, real_range, complex_range, dtype = unary_case
    check_unary(f, *real_range, dtype, complex_range=complex_range)


@pytest.mark.parametrize("f", [np.add, np.subtract, np.multiply, np.divide])
def test_mixed_precision_and_real_complex(f, sample):
    test_rrule(f, sample((2, 3), np.float32), sample((3,), np.float64, 0.5, 2.0))
    test_rrule(f, sample((2, 3), np.float64), sample((3,), np.complex128, 0.5, 2.0))
    test_frule(f, sample((2, 3), np.complex128), sample((3,), np.float32, 0.5, 2.0))


@pytest.mark.parametrize("f", [np.add, np.subtract, np.multiply, np.divide])
def test_integer_arguments_are_not_differentiated(f, sample):
    x = sample((2, 3), np.float32)
    test_rrule(f, x, 2)
    test_rrule(f, 3, x + 2)
    test_frule(f, x, np.array([1, 2, 3]))
    _, pullback = rrule(f, np.array([1, 2]), np.array([3, 4]))
    assert pullback(np.ones(2)) == (NoTangent(), NoTangent(), NoTangent())


@pytest.mark.parametrize("f", [np.mod, np.fmod])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_remainders(f, dtype, sample):
    # Quotients away from integers: x / y never an integer, so both functions are smooth here.
    x = np.array([[2.3, -1.7, 0.4], [5.9, -3.2, 1.1]], dtype=dtype)
    y = np.array([0.7, 0.45, -1.3], dtype=dtype)
    test_rrule(f, x, y)
    test_frule(f, x, y)
    test_rrule(f, 7.3, y)
    test_rrule(f, x, 2)
    test_rrule(f, x[0, 0], y[2])          # NumPy scalars
    test_frule(f, np.asarray(x[1, 0]), y)  # a 0-d array against a vector


def test_remainder_is_mod():
    assert np.remainder is np.mod


def test_mod_quotient_is_the_one_numpy_used():
    # fmod(1, 0.1) has quotient 9 although 1 / 0.1 == 10 in floating point.
    _, pullback = rrule(np.fmod, 1.0, 0.1)
    assert unthunk(pullback(1.0)[2]) == -9.0


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_divmod(dtype):
    x = np.array([[2.3, -1.7, 0.4], [5.9, -3.2, 1.1]], dtype=dtype)
    y = np.array([0.7, 0.45, -1.3], dtype=dtype)
    test_rrule(np.divmod, x, y)
    test_frule(np.divmod, x, y)
    test_rrule(np.divmod, 7.3, 2.1)
    _, pullback = rrule(np.divmod, x, y)
    dq, dr = np.ones((2, 3), dtype), np.ones((2, 3), dtype)
    for cotangent in ((dq, dr), Tangent(tuple, dq, dr), Tangent(tuple, ZeroTangent(), dr)):
        assert np.allclose(unthunk(pullback(cotangent)[1]), 1.0)
    assert unthunk(pullback((dq, ZeroTangent()))[1]).tolist() == np.zeros((2, 3)).tolist()


def test_add_cotangent_is_not_copied(sample):
    x, dy = sample((2, 3)), sample((2, 3))
    _, pullback = rrule(np.add, x, x)
    assert all(unthunk(c) is dy for c in pullback(dy)[1:])
