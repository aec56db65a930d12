"""Rules of chainrules/rulesets/contractions/interpolation.py, checked against finite differences."""

from __future__ import annotations

import numpy as np
import pytest

import chainrules  # noqa: F401  (registers the rules)
from chainrules import NoTangent, ProjectionError, ZeroTangent, rrule, unthunk
from chainrules.testing import test_frule, test_rrule

XP = np.array([0.0, 0.7, 1.5, 2.6, 3.0])


def _queries():
    # below, inside several segments, above; never exactly on a knot (the derivative jumps there)
    return np.array([-0.4, 0.3, 1.1, 2.0, 2.9, 3.5])


@pytest.mark.parametrize(("args", "kwargs"), [
    ((), {}),
    ((-1.0, 2.0), {}),                     # left and right by position
    ((), {"left": 0.5}),                   # by keyword
    ((), {"right": 3.0}),
])
def test_interp(args, kwargs, dtype, rand):
    real = np.float32 if dtype == np.float32 else np.float64
    x, xp, fp = _queries().astype(real), XP.astype(real), rand(5, dtype)
    args = tuple(np.asarray(a, dtype)[()] if dtype == np.complex128 else a for a in args)
    test_rrule(np.interp, x, xp, fp, *args, fkwargs=kwargs)
    test_frule(np.interp, x, xp, fp, *args, fkwargs=kwargs)


def test_interp_shapes_and_scalars(rand):
    fp = rand(5)
    test_rrule(np.interp, _queries().reshape(2, 3), XP, fp)
    test_rrule(np.interp, 1.1, XP, fp)
    test_frule(np.interp, 1.1, XP, fp)
    test_rrule(np.interp, np.array(2.0), XP, fp)
    test_rrule(np.interp, _queries(), XP[:1], fp[:1])       # a single knot: constant
    test_rrule(np.interp, _queries(), XP, rand(5, np.complex128), 1j, 2.0)


def test_interp_integer_knots(rand):
    test_rrule(np.interp, np.array([0.5, 1.5, 2.5]), np.arange(4), rand(4))   # integer xp: no tangent
    assert rrule(np.interp, np.array([0.5]), np.arange(4), rand(4))[1](np.ones(1))[2] == NoTangent()


@pytest.mark.parametrize("knot", [0, 1, 3, 4])
def test_interp_at_a_knot_is_the_right_sided_derivative(knot, rand):
    # the documented convention: the segment NumPy picks, i.e. the one to the right of the knot
    fp, h = rand(5), 1e-7
    _, pullback = rrule(np.interp, XP[knot], XP, fp)
    dx = unthunk(pullback(1.0)[1])
    right_sided = (np.interp(XP[knot] + h, XP, fp) - np.interp(XP[knot], XP, fp)) / h
    assert abs(dx - right_sided) < 1e-5


@pytest.mark.parametrize("period", [2 * np.pi, -2 * np.pi])
def test_interp_period(period, dtype, rand):
    real = np.float32 if dtype == np.float32 else np.float64
    # knots given unsorted and outside [0, period); queries on several turns
    xp = (np.array([0.3, 1.2, 2.5, 4.0, 5.5]) + np.array([0.0, 6.3, -6.2, 0.0, 12.6])).astype(real)
    x = np.array([0.7, 2.0, 6.9, -1.0, 5.9, 6.1]).astype(real)
    fp = rand(5, dtype)
    test_rrule(np.interp, x, xp, fp, fkwargs={"period": period})
    test_frule(np.interp, x, xp, fp, fkwargs={"period": period})
    test_rrule(np.interp, x, xp, fp, None, None, period)


def test_interp_period_ignores_left_right(rand):
    _, pullback = rrule(np.interp, np.array([0.5]), XP, rand(5), 1.0, 2.0, 4.0)
    assert pullback(np.ones(1))[4:6] == (ZeroTangent(), ZeroTangent())


def test_interp_errors(rand):
    _, pullback = rrule(np.interp, _queries(), XP, rand(5))
    with pytest.raises(ProjectionError, match=r"numpy\.interp pullback: output cotangent"):
        pullback(np.ones(5))
    with pytest.raises(ValueError):
        rrule(np.interp, _queries(), XP, rand(4))
