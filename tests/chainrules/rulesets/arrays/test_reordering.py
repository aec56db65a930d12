"""Rules of chainrules/rulesets/arrays/reordering.py, checked against finite differences."""

from __future__ import annotations

import numpy as np
import pytest

import chainrules  # noqa: F401  (registers the rules)
from chainrules.testing import test_frule, test_rrule


@pytest.mark.parametrize("axis", [None, 0, -1, (0, 2)])
def test_flip(axis, dtype, rand):
    x = rand(2, 3, 4, dtype=dtype)
    test_rrule(np.flip, x, axis)
    test_frule(np.flip, x, axis)
    test_rrule(np.flip, x, fkwargs={"axis": axis})


@pytest.mark.parametrize("f", [np.fliplr, np.flipud])
def test_fliplr_flipud(f, dtype, rand):
    test_rrule(f, rand(2, 3, dtype=dtype))
    test_frule(f, rand(2, 3, 4, dtype=dtype))
    test_rrule(np.flip, [1.0, 2.0])


@pytest.mark.parametrize("k", [0, 1, 2, 3, -1, 5])
def test_rot90(k, dtype, rand):
    x = rand(2, 3, 4, dtype=dtype)
    test_rrule(np.rot90, x, k)
    test_frule(np.rot90, x, k, (1, 2))
    test_rrule(np.rot90, x, fkwargs={"k": k, "axes": (2, 0)})


def test_rot90_default(rand):
    test_rrule(np.rot90, rand(2, 3))


@pytest.mark.parametrize(("shift", "axis"), [(1, None), (-2, 0), ((1, 2), (0, 2)), (7, -1), (2, (0, 1))])
def test_roll(shift, axis, dtype, rand):
    x = rand(2, 3, 4, dtype=dtype)
    test_rrule(np.roll, x, shift, axis)
    test_frule(np.roll, x, shift, axis)
    test_rrule(np.roll, x, shift, fkwargs={"axis": axis})
    test_rrule(np.roll, x, fkwargs={"shift": shift, "axis": axis})


def test_roll_of_a_scalar():
    test_rrule(np.roll, 1.0, 1)
