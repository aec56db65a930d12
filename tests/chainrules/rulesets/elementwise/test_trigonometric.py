"""Rules of chainrules/rulesets/elementwise/trigonometric.py, checked against finite differences."""

from __future__ import annotations

import numpy as np
import pytest

import chainrules
from chainrules import NoTangent, rrule
from chainrules.testing import PrimalAndTangent, test_frule, test_rrule

REAL_DTYPES = [np.float64, np.float32]

# (function, real range, complex range or None for real-only functions)
UNARY = [
    (np.sin, (-3.0, 3.0), (-1.5, 1.5)),
    (np.cos, (-3.0, 3.0), (-1.5, 1.5)),
    (np.tan, (-1.2, 1.2), (-0.7, 0.7)),
    (np.arcsin, (-0.9, 0.9), (-1.5, 1.5)),
    (np.arccos, (-0.9, 0.9), (-1.5, 1.5)),
    (np.arctan, (-3.0, 3.0), (-0.9, 0.9)),
    (np.deg2rad, (-200.0, 200.0), None),
    (np.radians, (-200.0, 200.0), None),
    (np.rad2deg, (-3.0, 3.0), None),
    (np.degrees, (-3.0, 3.0), None),
]


def test_unary(unary_case, check_unary):
    f, real_range, complex_range, dtype = unary_case
    check_unary(f, *real_range, dtype, complex_range=complex_range)


def test_short_names_are_the_same_objects():
    assert np.asin is np.arcsin and np.acos is np.arccos and np.atan is np.arctan and np.atan2 is np.arctan2
    assert np.radians is not np.deg2rad and np.degrees is not np.rad2deg
    for f in (np.radians, np.deg2rad, np.degrees, np.rad2deg):
        assert rrule.find(f, float) is not None


@pytest.mark.parametrize("dtype", REAL_DTYPES, ids=["float64", "float32"])
def test_arctan2(dtype, check_binary):
    check_binary(np.arctan2, ((-2.0, 2.0), (0.3, 2.0)), dtype)
    check_binary(np.arctan2, ((-2.0, 2.0), (-2.0, -0.3)), dtype)


def test_arctan2_at_the_origin_is_nan():
    _, pullback = rrule(np.arctan2, 0.0, 0.0)
    assert all(np.isnan(chainrules.unthunk(c)) for c in pullback(1.0)[1:])


def test_trig_integer_input_is_not_differentiated():
    y, pullback = rrule(np.sin, np.arange(3))
    assert y.dtype == np.float64
    assert pullback(np.ones(3)) == (NoTangent(), NoTangent())


def test_sin_with_dtype_keyword(sample):
    x = sample((2, 3))
    # A float32 output limits the finite differences (not the rule) to about 1e-3.
    test_rrule(np.sin, x, fkwargs={"dtype": np.float32}, rtol=2e-3)
    test_frule(np.sin, x, fkwargs={"dtype": np.float32}, rtol=2e-3)
    test_rrule(np.cos, x, fkwargs={"dtype": np.complex128})


@pytest.mark.parametrize("args", [(), (4.0,), (4.0, 0)], ids=["default", "discont", "discont-axis"])
def test_unwrap(args, sample):
    p = np.array([[0.1, 3.0, -2.9, 0.5], [6.0, 0.2, -3.5, 1.0]])
    held = tuple(PrimalAndTangent(a, NoTangent()) if isinstance(a, float) else a for a in args)
    test_rrule(np.unwrap, p, *held)
    test_frule(np.unwrap, p, *held)
    test_rrule(np.unwrap, p.astype(np.float32), *held)
    test_rrule(np.unwrap, p, fkwargs={"axis": 0, "period": 5.0})
