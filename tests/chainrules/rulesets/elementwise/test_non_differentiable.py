"""Declarations of chainrules/rulesets/elementwise/non_differentiable.py."""

from __future__ import annotations

import numpy as np
import pytest

import chainrules  # noqa: F401  (registers the rules)
from chainrules import NoTangent, frule, rrule
from chainrules.coverage import coverage
from chainrules.rulesets.elementwise.non_differentiable import NON_DIFFERENTIABLE


def _arguments(f):
    if f in (np.bitwise_and, np.bitwise_or, np.bitwise_xor, np.left_shift, np.right_shift, np.gcd, np.lcm):
        return np.array([3, 5]), np.array([1, 2])
    if f in (np.invert, np.bitwise_count):
        return (np.array([3, 5]),)
    if f is np.isnat:
        return (np.array(["2020-01-01", "NaT"], dtype="datetime64[D]"),)
    nin = getattr(f, "nin", 2 if f in (np.isclose, np.allclose, np.array_equal, np.array_equiv) else 1)
    return (np.array([0.5, np.nan, 2.0]),) * nin if nin == 1 else (np.array([0.5, 1.0, 2.0]), 1.0)


@pytest.mark.parametrize("f", NON_DIFFERENTIABLE, ids=lambda f: f.__name__)
def test_non_differentiable(f):
    args = _arguments(f)
    y, pullback = rrule(f, *args)
    assert np.array_equal(y, f(*args), equal_nan=False) or np.all(np.asarray(y) == np.asarray(f(*args)))
    assert pullback(np.ones(np.shape(y))) == (NoTangent(),) * (len(args) + 1)
    assert frule((NoTangent(),) * (len(args) + 1), f, *args)[1] == NoTangent()
    assert coverage("numpy")[f.__name__] == "non-differentiable"
