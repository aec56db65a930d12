"""Rules of chainrules/rulesets/arrays/padding.py (every mode of ``np.pad``), checked against finite differences."""

from __future__ import annotations

import numpy as np
import pytest

import chainrules
from chainrules import rrule, unthunk
from chainrules.testing import check_approx, test_frule, test_rrule

WIDTHS = [1, (1, 2), ((2, 0), (1, 3)), {1: (2, 0)}, ((7, 1), (0, 8))]
LINEAR_MODES = [
    ("constant", {}), ("constant", {"constant_values": 2.0}), ("edge", {}), ("wrap", {}), ("reflect", {}),
    ("symmetric", {}), ("reflect", {"reflect_type": "odd"}), ("symmetric", {"reflect_type": "odd"}),
    ("linear_ramp", {}), ("linear_ramp", {"end_values": (1.0, -2.0)}), ("mean", {}), ("mean", {"stat_length": 2}),
    ("mean", {"stat_length": ((1, 2), (3, 1))}),
]
STAT_MODES = [("maximum", {}), ("minimum", {"stat_length": 2}), ("median", {}), ("median", {"stat_length": (2, 3)})]


@pytest.mark.parametrize("width", WIDTHS, ids=str)
@pytest.mark.parametrize(("mode", "kwargs"), LINEAR_MODES, ids=lambda v: str(v))
def test_linear_modes(mode, kwargs, width, dtype, rand):
    x = rand(3, 4, dtype=dtype)
    test_rrule(np.pad, x, width, mode, fkwargs=kwargs)
    test_frule(np.pad, x, width, mode, fkwargs=kwargs)


@pytest.mark.parametrize("width", WIDTHS, ids=str)
@pytest.mark.parametrize(("mode", "kwargs"), STAT_MODES, ids=lambda v: str(v))
def test_statistic_modes(mode, kwargs, width, rand):
    for dtype in (np.float64, np.float32):
        x = rand(3, 4, dtype=dtype)  # distinct values: the extrema and medians are unique
        test_rrule(np.pad, x, width, mode, fkwargs=kwargs)
        test_frule(np.pad, x, width, mode, fkwargs=kwargs)


@pytest.mark.parametrize(("mode", "kwargs"), LINEAR_MODES + STAT_MODES, ids=lambda v: str(v))
@pytest.mark.parametrize("length", [1, 2, 3])
def test_short_axes_and_long_pads(mode, kwargs, length, rand):
    if isinstance(kwargs.get("stat_length"), tuple) and np.ndim(kwargs["stat_length"]) == 2:
        return
    for width in [(0, 3), (5, 6)]:
        test_rrule(np.pad, rand(length), width, mode, fkwargs=kwargs)


def test_mode_spellings(rand):
    x = rand(3)
    test_rrule(np.pad, x, 1)
    test_rrule(np.pad, x, 1, fkwargs={"mode": "edge"})
    test_rrule(np.pad, x, fkwargs={"pad_width": 2, "mode": "wrap"})
    test_rrule(np.pad, [1.0, 2.5], 1, "reflect")


def test_ties_follow_numpy_choice_of_element():
    """At ties the subgradient goes to the element NumPy's argmax picks (the first)."""
    _, pullback = rrule(np.pad, np.array([1.0, 1.0, 0.0]), (1, 0), "maximum")
    check_approx(pullback(np.array([5.0, 1.0, 1.0, 1.0]))[1], np.array([6.0, 1.0, 1.0]))


def test_empty_mode_matches_constant_mode_on_the_centre(rand):
    """'empty' pads with values independent of the array: its cotangent is the centre, as for 'constant'."""
    x = rand(3, 2)
    dy = rand(5, 4)
    _, empty = rrule(np.pad, x, 1, "empty")
    _, constant = rrule(np.pad, x, 1, "constant")
    check_approx(empty(dy)[1], constant(dy)[1])


def test_callable_mode_is_not_implemented(rand):
    def zero_pad(vector, width, axis, kwargs):
        vector[:width[0]] = 0
        if width[1]:
            vector[-width[1]:] = 0

    _, pullback = rrule(np.pad, rand(3), 1, zero_pad)
    assert isinstance(unthunk(pullback(np.ones(5))[1]), chainrules.NotImplementedTangent)
