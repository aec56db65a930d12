"""Rules of chainrules/rulesets/elementwise/selection.py, checked against finite differences."""

from __future__ import annotations

import numpy as np
import pytest

import chainrules  # noqa: F401  (registers the rules)
from chainrules import NoTangent, UnsupportedKeywordError, frule, rrule, unthunk
from chainrules.testing import test_frule, test_rrule

DTYPES = [np.float64, np.float32, np.complex128]


@pytest.mark.parametrize("dtype", DTYPES)
def test_where(dtype, sample):
    x, y = sample((2, 3), dtype), sample((3,), dtype)
    condition = np.array([[True, False, True], [False, False, True]])
    test_rrule(np.where, condition, x, y)
    test_frule(np.where, condition, x, y)
    test_rrule(np.where, condition[0], sample((2, 1), dtype), y)  # every argument broadcast
    test_rrule(np.where, True, sample(None, dtype), sample(None, dtype))
    python_type = complex if np.dtype(dtype).kind == "c" else float
    test_rrule(np.where, condition, x, sample(None, python_type))


def test_where_integer_branch_and_condition(sample):
    x = sample((2, 3))
    test_rrule(np.where, x > 0, x, 0)
    _, pullback = rrule(np.where, x > 0, x, 0)
    assert pullback(np.ones((2, 3)))[1] == NoTangent() and pullback(np.ones((2, 3)))[3] == NoTangent()
    _y, pullback = rrule(np.where, x > 0, 1, 2)
    assert pullback(np.ones((2, 3))) == (NoTangent(),) * 4


def test_where_with_one_argument_is_non_differentiable(sample):
    x = sample((2, 3))
    _y, pullback = rrule(np.where, x > 0)
    assert pullback(None) == (NoTangent(), NoTangent())
    assert frule((NoTangent(), NoTangent()), np.where, x > 0)[1] == NoTangent()


VALUES = np.array([[0.3, np.nan, np.inf], [-np.inf, -1.3, 0.1]])


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_nan_to_num(dtype):
    x = VALUES.astype(dtype)
    finite = {"posinf": 1e3, "neginf": -1e3}  # keeps finite differences of float32 outputs in range
    test_rrule(np.nan_to_num, x, fkwargs=finite)
    test_frule(np.nan_to_num, x, fkwargs=finite)
    test_rrule(np.nan_to_num, x, True, 1.5, 3.0, -2.0)  # replacement values by position: differentiated
    test_frule(np.nan_to_num, x, True, 1.5, 3.0, -2.0)
    test_rrule(np.nan_to_num, x, fkwargs={"nan": 2.0, **finite})
    test_rrule(np.nan_to_num, x[0, 1])
    test_rrule(np.nan_to_num, float(x[0, 0]))


def test_nan_to_num_complex_entries_the_testers_can_rebuild():
    # The testers' finite differences rebuild complex inputs as re + 1j * im, which turns
    # (0.3 - inf j) into (nan - inf j); these entries survive that.
    z = np.array([0.3 - 0.2j, complex(np.nan, np.inf), complex(np.nan, -np.inf), complex(np.nan, np.nan),
                  complex(np.inf, 0.5)])
    test_rrule(np.nan_to_num, z, True, 1.5, 3.0, -2.0)
    test_frule(np.nan_to_num, z, True, 1.5, 3.0, -2.0)


def _shift(z, t, dz):
    # .real/.imag assignment keeps (0.3 - inf j) intact, unlike z + t * dz.
    out = z.copy()
    out.real = z.real + t * np.real(dz)
    out.imag = z.imag + t * np.imag(dz)
    return out


def test_nan_to_num_complex_parts_are_replaced_separately():
    z = np.array([0.3 - 0.2j, 0.3 - 0.2j, 0.5 + 1j, 1.5 + 2j, 0.5 + 0.5j])
    z.imag[0], z.real[1], z.imag[2], z.real[3] = -np.inf, np.nan, np.nan, np.inf
    values = np.array([1.5, 3.0, -2.0])  # nan, posinf, neginf
    dz = np.array([0.7 + 0.3j, -0.4 + 1.1j, 0.9 - 0.5j, 0.2 + 0.6j, -0.3 - 0.8j])
    dvalues = np.array([0.4, -1.3, 0.8])
    h = 1e-6

    def f(t):
        return np.nan_to_num(_shift(z, t, dz), True, *(values + t * dvalues))

    expected = (f(h) - f(-h)) / (2 * h)  # central differences of the primal along (dz, dvalues)
    _, tangent = frule((NoTangent(), dz, NoTangent(), *dvalues), np.nan_to_num, z, True, *values)
    assert np.allclose(tangent, expected)
    # The pullback is the adjoint: <dy, J d> = <J^T dy, d> in the real inner product.
    dy = np.array([1.2 - 0.3j, 0.5 + 0.5j, -0.7 + 0.2j, 0.1 + 0.9j, 0.4 - 0.4j])
    _, pullback = rrule(np.nan_to_num, z, True, *values)
    _, dz_bar, _, *dvalues_bar = (unthunk(c) for c in pullback(dy))
    lhs = np.real(np.vdot(dy, expected))
    rhs = np.real(np.vdot(dz_bar, dz)) + sum(float(b) * d for b, d in zip(dvalues_bar, dvalues))
    assert np.isclose(lhs, rhs)


def test_nan_to_num_copy_false_raises():
    with pytest.raises(UnsupportedKeywordError, match="copy=False"):
        rrule(np.nan_to_num, VALUES.copy(), False)
    with pytest.raises(UnsupportedKeywordError, match="copy=False"):
        rrule(np.nan_to_num, VALUES.copy(), copy=False)
    with pytest.raises(ValueError, match="Unable to avoid copy"):  # NumPy's own error for a scalar
        rrule(np.nan_to_num, 0.5, False)


def test_nan_to_num_integer_input():
    _, pullback = rrule(np.nan_to_num, np.arange(3))
    assert pullback(np.ones(3))[1] == NoTangent()
