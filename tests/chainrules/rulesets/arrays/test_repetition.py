"""Rules of chainrules/rulesets/arrays/repetition.py, checked against finite differences."""

from __future__ import annotations

import numpy as np
import pytest

import chainrules  # noqa: F401  (registers the rules)
from chainrules import rrule
from chainrules.testing import check_approx, test_frule, test_rrule


@pytest.mark.parametrize("reps", [2, (2, 1), (1, 2, 3), (3,), (2, 2)])
def test_tile(reps, dtype, rand):
    x = rand(2, 3, dtype=dtype)
    test_rrule(np.tile, x, reps)
    test_frule(np.tile, x, reps)


def test_tile_spellings(rand):
    test_rrule(np.tile, rand(3), (2, 2))
    test_rrule(np.tile, 2.0, 3)
    test_rrule(np.tile, rand(3), fkwargs={"reps": 2})


@pytest.mark.parametrize(("repeats", "axis"), [(2, None), (2, 0), (3, 1), ([1, 0, 2], 1), ([2, 1], 0),
                                               ([1, 2, 0, 0, 3, 1], None), (np.array([2]), 1)])
@pytest.mark.parametrize("f", [np.repeat, np.ndarray.repeat])
def test_repeat(f, repeats, axis, dtype, rand):
    x = rand(2, 3, dtype=dtype)
    test_rrule(f, x, repeats, axis)
    test_frule(f, x, repeats, axis)


def test_repeat_spellings_and_zero_repeats(rand):
    x = rand(2, 3)
    test_rrule(np.repeat, x, 2, fkwargs={"axis": 0})
    test_rrule(np.repeat, [1.0, 2.0], [1, 2])
    _, pullback = rrule(np.repeat, x, 0, 1)  # an empty output: the cotangent is zero
    check_approx(pullback(np.zeros((2, 0)))[1], np.zeros((2, 3)))


@pytest.mark.parametrize("new_shape", [5, (2, 2), (4, 5), (3, 4)])
def test_resize(new_shape, dtype, rand):
    x = rand(2, 3, dtype=dtype)
    test_rrule(np.resize, x, new_shape)
    test_frule(np.resize, x, new_shape)


def test_repeat_of_a_0d_array_along_axis_0():
    # Found by test_properties.py: NumPy repeats a 0-d array along axis 0 (or -1) as a 1-d one; the rules raised
    # AxisError.
    for axis in (0, -1):
        test_rrule(np.repeat, np.array(1.5), 3, axis)
        test_frule(np.repeat, np.array(1.5), [2], axis)
