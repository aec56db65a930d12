"""Rules of chainrules/rulesets/arrays/gathering.py, checked against finite differences.

The cotangents of gathers are ``InplaceableThunk`` s; ``test_rrule`` checks that their
``add_`` accumulation equals ``acc + cotangent``.
"""

from __future__ import annotations

import numpy as np
import pytest

import chainrules  # noqa: F401  (registers the rules)
from chainrules import InplaceableThunk, ProjectionError, UnsupportedKeywordError, add_, rrule, unthunk
from chainrules.testing import check_approx, test_frule, test_rrule

TAKES = [([0, 2, 0], None, "raise"), ([[1, 1], [0, -1]], 1, "raise"), (np.array([5, -7, 2]), 0, "wrap"),
         ([9, -3, 1], 1, "clip"), (2, None, "raise"), (1, 0, "raise")]


@pytest.mark.parametrize(("indices", "axis", "mode"), TAKES)
@pytest.mark.parametrize("f", [np.take, np.ndarray.take])
def test_take(f, indices, axis, mode, dtype, rand):
    x = rand(3, 4, dtype=dtype)
    test_rrule(f, x, indices, axis, None, mode)
    test_frule(f, x, indices, axis, None, mode)


def test_take_spellings_and_out(rand):
    x = rand(3, 4)
    test_rrule(np.take, x, [1, 1])
    test_rrule(np.take, x, [1, 1], fkwargs={"axis": 1, "mode": "wrap"})
    test_rrule(np.take, x, fkwargs={"indices": [3, 3]})
    test_rrule(np.take, [1.0, 2.0, 3], [0, 0, 2])
    with pytest.raises(UnsupportedKeywordError, match="out="):
        rrule(np.take, x, [0], 0, np.zeros(4))


def test_take_accumulates_repeats_in_place(rand):
    x = rand(5)
    _, pullback = rrule(np.take, x, [1, 1, 1, 4])
    d = pullback(np.array([1.0, 2.0, 3.0, 4.0]))[1]
    assert isinstance(d, InplaceableThunk)
    acc = np.zeros(5)
    assert add_(acc, d) is acc
    check_approx(acc, np.array([0.0, 6.0, 0.0, 0.0, 4.0]))


@pytest.mark.parametrize(("indices", "axis"), [(np.array([[0, 0, 2, 1], [1, 1, 1, 1], [2, 0, 0, 2]]), 0),
                                               (np.array([[0, 3], [1, 1], [2, 2]]), 1),
                                               (np.array([[0, 3, 3]]).T, -1), (np.array([[0, 0, 1, 2]]), 0),
                                               (np.array([0, 11, 11]), None)])
def test_take_along_axis(indices, axis, dtype, rand):
    x = rand(3, 4, dtype=dtype)
    test_rrule(np.take_along_axis, x, indices, axis)
    test_frule(np.take_along_axis, x, indices, axis)


def test_take_along_axis_default_axis(rand):
    test_rrule(np.take_along_axis, rand(3, 4), np.array([[0, 0], [3, 1], [2, 2]]))
    test_rrule(np.take_along_axis, rand(3, 4), np.array([[0, 0], [3, 1], [2, 2]]), fkwargs={"axis": 1})


def test_compress_and_extract(dtype, rand):
    x = rand(3, 4, dtype=dtype)
    test_rrule(np.compress, [True, False, True], x, 0)
    test_rrule(np.compress, [False, True], x, 1)
    test_rrule(np.compress, np.arange(12) % 3 == 0, x)
    test_frule(np.compress, [True, False, True], x, 0)
    test_rrule(np.compress, [True, False, True], x, fkwargs={"axis": 0})
    test_rrule(np.ndarray.compress, x, [True, False, True], 0)
    test_frule(np.ndarray.compress, x, [0, 1, 1])
    test_rrule(np.extract, x.real > 0, x)
    test_frule(np.extract, x.real > 0, x)


@pytest.mark.parametrize(("offset", "axis1", "axis2"), [(0, 0, 1), (1, 0, 1), (-1, 0, 1), (2, 1, 2), (0, 2, 0),
                                                        (-2, -1, 0)])
@pytest.mark.parametrize("f", [np.diagonal, np.ndarray.diagonal])
def test_diagonal(f, offset, axis1, axis2, dtype, rand):
    x = rand(2, 3, 4, dtype=dtype)
    test_rrule(f, x, offset, axis1, axis2)
    test_frule(f, x, offset, axis1, axis2)


def test_diagonal_spellings(dtype, rand):
    x = rand(3, 4, dtype=dtype)
    test_rrule(np.diagonal, x)
    test_rrule(np.diagonal, x, fkwargs={"offset": 1})
    test_rrule(np.linalg.diagonal, rand(2, 3, 3, dtype=dtype))
    test_rrule(np.linalg.diagonal, rand(3, 3, dtype=dtype), fkwargs={"offset": -1})
    test_frule(np.linalg.diagonal, rand(2, 3, 3, dtype=dtype))


@pytest.mark.parametrize("f", [np.choose, np.ndarray.choose])
def test_choose(f, dtype, rand):
    if f is np.choose:  # broadcasts choices of different shapes; the method does not
        choices = [rand(3, dtype=dtype), rand(2, 3, dtype=dtype), rand(1, dtype=dtype)]
    else:
        choices = [rand(2, 3, dtype=dtype), rand(2, 3, dtype=dtype), rand(2, 3, dtype=dtype)]
    picks = np.array([[0, 1, 2], [2, 2, 0]])
    test_rrule(f, picks, choices)
    test_frule(f, picks, choices)
    test_rrule(f, picks, tuple(choices))
    test_rrule(f, np.array([4, -1, 1]), choices, fkwargs={"mode": "wrap"})
    test_rrule(f, np.array([1, 0]), rand(2, 2, dtype=dtype))  # the choices as one array
    test_frule(f, np.array([1, 0]), rand(2, 2, dtype=dtype))


def test_choose_mode_keyword(rand):
    test_rrule(np.choose, [4, -1, 1], [rand(3), rand(3)], fkwargs={"mode": "clip"})


def test_select(dtype, rand):
    x = rand(4)
    conditions = [x < 0, x > 1]
    test_rrule(np.select, conditions, [rand(4, dtype=dtype), rand(1, dtype=dtype)])
    test_rrule(np.select, conditions, [rand(4, dtype=dtype), rand(4, dtype=dtype)], rand(4, dtype=dtype))
    test_rrule(np.select, conditions, [rand(4, dtype=dtype), 2.0], fkwargs={"default": 1.5})
    test_frule(np.select, conditions, [rand(4, dtype=dtype), rand(4, dtype=dtype)], 3.0)
    test_frule(np.select, conditions, [rand(4, dtype=dtype), rand(4, dtype=dtype)])


def test_bincount(rand):
    for dtype in (np.float64, np.float32):
        weights = rand(4, dtype=dtype)
        bins = np.array([0, 2, 0, 4])
        test_rrule(np.bincount, bins, weights)
        test_frule(np.bincount, bins, weights)
        test_rrule(np.bincount, bins, weights, 7)
    test_rrule(np.bincount, np.array([0, 2]))  # counts: integers, nothing differentiated


def test_wrong_cotangent_shape(rand):
    _, pullback = rrule(np.take, rand(4), [0, 1])
    with pytest.raises(ProjectionError, match=r"np\.take pullback: output cotangent"):
        unthunk(pullback(np.ones(3))[1])
