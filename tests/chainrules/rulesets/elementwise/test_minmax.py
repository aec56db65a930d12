"""Rules of chainrules/rulesets/elementwise/minmax.py, checked against finite differences."""

from __future__ import annotations

import numpy as np
import pytest

import chainrules  # noqa: F401  (registers the rules)
from chainrules import NoTangent, UnsupportedKeywordError, frule, rrule, unthunk
from chainrules.testing import PrimalAndTangent, test_frule, test_rrule

EXTREMA = [np.maximum, np.minimum, np.fmax, np.fmin]


@pytest.mark.parametrize("f", EXTREMA)
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.complex128])
def test_extrema(f, dtype, check_binary):
    check_binary(f, ((-2.0, 2.0), (-2.0, 2.0)), dtype)


@pytest.mark.parametrize("f", EXTREMA)
def test_ties_share_equally(f):
    # The documented convention (finite differences cannot see a tie): 1/2 each.
    x = np.array([1.0, 2.0, 3.0])
    _, pullback = rrule(f, x, 2.0)
    dx, dy = (unthunk(c) for c in pullback(np.ones(3))[1:])
    x_wins = [0.0, 0.5, 1.0] if f in (np.maximum, np.fmax) else [1.0, 0.5, 0.0]
    assert np.array_equal(dx, x_wins) and dy == 1.5
    _, pullback = rrule(f, 2.0, 2.0)
    assert [unthunk(c) for c in pullback(1.0)[1:]] == [0.5, 0.5]
    _, tangent = frule((NoTangent(), 1.0, 3.0), f, 2.0, 2.0)
    assert tangent == 2.0


@pytest.mark.parametrize(("f", "to_nan"), [(np.maximum, True), (np.minimum, True), (np.fmax, False), (np.fmin, False)])
def test_nan(f, to_nan):
    x = np.array([np.nan, 1.0, np.nan])
    y = np.array([1.0, np.nan, np.nan])
    _, pullback = rrule(f, x, y)
    dx, dy = (unthunk(c) for c in pullback(np.ones(3))[1:])
    assert np.array_equal(dx, [1.0, 0.0, 1.0] if to_nan else [0.0, 1.0, 1.0])
    assert np.array_equal(dx + dy, np.ones(3))


BOUNDS = [
    pytest.param((-0.5, 1.0), id="scalars"),
    pytest.param((np.array([-0.5, 0.0, 0.2]), 1.0), id="array-min"),
    pytest.param((None, np.array([0.5, 0.0, 1.2])), id="no-min"),
    pytest.param((-0.5, None), id="no-max"),
]


@pytest.mark.parametrize("bounds", BOUNDS)
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_clip(bounds, dtype, sample):
    a = sample((2, 3), dtype, -2.0, 2.0)
    lo, hi = (b.astype(dtype) if isinstance(b, np.ndarray) else b for b in bounds)
    test_rrule(np.clip, a, lo, hi)
    test_frule(np.clip, a, lo, hi)
    test_rrule(np.ndarray.clip, a, lo, hi)


def test_clip_scalars(sample):
    test_rrule(np.clip, 0.3, -0.5, 1.0)
    test_frule(np.clip, np.float32(1.3), np.float32(-0.5), np.float32(1.0))
    test_rrule(np.clip, np.asarray(-0.7), -0.5, sample((3,)))


def test_clip_complex(sample):
    test_rrule(np.clip, sample((2, 3), np.complex128, -2.0, 2.0), -0.5 + 0j, 1.0 + 0j)


@pytest.mark.parametrize("keywords", [{"a_min": -0.5, "a_max": 1.0}, {"min": -0.5}, {"max": 0.5},
                                      {"min": -0.5, "max": 0.5}])
def test_clip_bounds_by_keyword_are_not_differentiated(keywords, sample):
    a = sample((2, 3), low=-2.0, high=2.0)
    test_rrule(np.clip, a, fkwargs=keywords)
    test_frule(np.clip, a, fkwargs=keywords)
    method_keywords = {k.removeprefix("a_"): v for k, v in keywords.items()}
    test_rrule(np.ndarray.clip, a, fkwargs=method_keywords)


def test_clip_at_the_bounds_shares_equally():
    _, pullback = rrule(np.clip, np.array([0.0, 1.0, 0.5, -1.0]), 0.0, 1.0)
    da, dlo, dhi = (unthunk(c) for c in pullback(np.ones(4))[1:])
    assert np.array_equal(da, [0.5, 0.5, 1.0, 0.0]) and dlo == 1.5 and dhi == 0.5


def test_clip_with_crossed_bounds_gives_everything_to_a_max(sample):
    a = sample((2, 3), low=-2.0, high=2.0)
    test_rrule(np.clip, a, 1.0, -0.5)  # NumPy: minimum(a_max, maximum(a, a_min)) is a_max everywhere
    _, pullback = rrule(np.clip, a, 1.0, -0.5)
    da, dlo, dhi = (unthunk(c) for c in pullback(np.ones((2, 3)))[1:])
    assert not np.any(da) and dlo == 0 and dhi == 6


@pytest.mark.parametrize("bounds", [(0.0, 1.0), (np.zeros(4), 1.0)], ids=["scalar", "array"])
def test_clip_nan_and_ties(bounds):
    a = np.array([np.nan, 0.0, 1.0, 0.5])
    _, pullback = rrule(np.clip, a, *bounds)
    da, dlo, dhi = (unthunk(c) for c in pullback(np.ones(4))[1:])
    assert np.array_equal(da, [1.0, 0.5, 0.5, 1.0])
    assert np.sum(dlo) == 0.5 and dhi == 0.5


def test_clip_integer_bounds_are_not_differentiated(sample):
    a = sample((2, 3), low=-2.0, high=2.0)
    test_rrule(np.clip, a, -1, 1)
    test_rrule(np.clip, a, PrimalAndTangent(-0.5, NoTangent()), 1.0, rrule_f=_hold_lo, check_frule_consistency=False)


def _hold_lo(f, a, lo, hi):
    y, pullback = rrule(f, a, lo, hi)

    def held_pullback(dy):
        df, da, _, dhi = pullback(dy)
        return df, da, NoTangent(), dhi

    return y, held_pullback


def test_clip_out_raises(sample):
    a = sample((3,))
    with pytest.raises(UnsupportedKeywordError):
        rrule(np.clip, a, 0.0, 1.0, np.empty(3))
    with pytest.raises(UnsupportedKeywordError):
        rrule(np.clip, a, 0.0, 1.0, out=np.empty(3))
    with pytest.raises(UnsupportedKeywordError):
        rrule(np.clip, a, 0.0, 1.0, where=a > 0)
