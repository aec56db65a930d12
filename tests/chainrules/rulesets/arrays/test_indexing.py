"""Rules of chainrules/rulesets/arrays/indexing.py (``x[index]``, ``x.item``), checked against finite differences."""

from __future__ import annotations

import operator

import numpy as np
import pytest

import chainrules  # noqa: F401  (registers the rules)
from chainrules import InplaceableThunk, NoTangent, ProjectionError, ZeroTangent, add_, rrule, unthunk
from chainrules.testing import PrimalAndTangent, check_approx, test_frule, test_rrule

INDICES = [
    1, -1, (1, 2), slice(None, None, 2), (Ellipsis, 0), (None, 1), (slice(1, None), None, [0, 0, 3]),
    [0, 0, 2], np.array([[1, 1], [0, 2]]), (np.array([0, 0]), np.array([1, 1])), (slice(None), [3, 3, 0]),
    np.array([True, False, True]), (np.array([True, False, True]), slice(1, 3)), (0, [1, 1]),
    (np.array([0, 2]), Ellipsis, np.array([1, 1])), (),
]


@pytest.mark.parametrize("index", INDICES, ids=repr)
@pytest.mark.parametrize("f", [operator.getitem, np.ndarray.__getitem__], ids=["operator.getitem", "__getitem__"])
def test_getitem(f, index, dtype, rand):
    x = rand(3, 4, dtype=dtype)
    test_rrule(f, x, PrimalAndTangent(index, NoTangent()))
    test_frule(f, x, PrimalAndTangent(index, NoTangent()))


def test_repeated_indices_accumulate(rand):
    x = rand(4)
    _, pullback = rrule(operator.getitem, x, [1, 1, 3, 1])
    d = pullback(np.array([1.0, 2.0, 3.0, 4.0]))[1]
    check_approx(unthunk(d), np.array([0.0, 7.0, 0.0, 3.0]))


def test_cotangent_adds_into_an_accumulator_in_place(rand):
    x = rand(1000)
    _, pullback = rrule(operator.getitem, x, 7)
    d = pullback(2.0)[1]
    assert isinstance(d, InplaceableThunk)
    acc = np.ones(1000)
    assert add_(acc, d) is acc
    assert acc[7] == 3.0 and acc.sum() == 1002.0
    acc32 = np.zeros(1000, np.float32)  # a float32 accumulator stays float32
    assert add_(acc32, rrule(operator.getitem, x.astype(np.float32), slice(0, 2))[1](np.ones(2))[1]) is acc32


def test_bound_method_reaches_the_rule(rand):
    x = rand(3)
    y, pullback = rrule(x.__getitem__, 2)
    assert y == x[2]
    check_approx(unthunk(pullback(1.5)[1]), np.array([0.0, 0.0, 1.5]))


def test_integer_arrays_and_complex_cotangents(rand):
    test_rrule(operator.getitem, np.arange(3), 1)
    _, pullback = rrule(operator.getitem, rand(3), 0)
    check_approx(unthunk(pullback(1.0 + 2.0j)[1]), np.array([1.0, 0.0, 0.0]))  # a real input: the real part
    assert pullback(ZeroTangent())[1] == ZeroTangent()


def test_wrong_cotangent_shape_raises(rand):
    _, pullback = rrule(operator.getitem, rand(3, 4), 0)
    with pytest.raises(ProjectionError, match=r"getitem \(x\[index\]\) pullback: output cotangent has shape \(3,\)"):
        pullback(np.ones(3))


@pytest.mark.parametrize("bad", [None, "abc", 1.5, object()], ids=["None", "str", "float", "object"])
@pytest.mark.parametrize("index", [[1, 1], slice(0, 2), 2], ids=["advanced", "basic", "integer"])
def test_what_is_not_a_cotangent_raises(bad, index, rand):
    # Regression (issue 16): the pullback returned None or "abc" unchanged as the cotangent of x.
    y, pullback = rrule(operator.getitem, rand(4), index)
    if np.ndim(y) == 0 and isinstance(bad, float):
        check_approx(unthunk(pullback(bad)[1]), np.eye(4)[index] * bad)  # a number is the cotangent of a scalar
        return
    with pytest.raises(ProjectionError, match="getitem"):
        pullback(bad)
    _, pullback = rrule(operator.getitem, np.arange(4), index)  # an integer array: still read, then NoTangent()
    with pytest.raises(ProjectionError, match="getitem"):
        pullback(bad)


@pytest.mark.parametrize("args", [(5,), (1, 2), ((2, 3),)])
def test_item(args, dtype, rand):
    x = rand(3, 4, dtype=dtype)
    test_rrule(np.ndarray.item, x, *args)
    test_frule(np.ndarray.item, x, *args)


def test_item_of_a_single_entry(rand):
    test_rrule(np.ndarray.item, rand(1, 1))


def test_tuple_element_cotangents_are_read():
    _, pullback = rrule(operator.getitem, (1.0, np.ones(2)), 1)
    with pytest.raises(ProjectionError, match=r"getitem pullback: output cotangent has shape \(3,\)"):
        pullback(np.ones(3))
    _, pullback = rrule(operator.getitem, (1.0, 2.0, 3.0), slice(0, 2))
    with pytest.raises(ProjectionError, match="getitem pullback: cotangent of output 1 is a NoneType"):
        pullback((1.0, None))


def test_tuple_and_list_indexing():
    test_rrule(operator.getitem, (1.0, 2.0, 3.0), 1)
    test_rrule(operator.getitem, [1.0, np.ones(2), 3.0], slice(0, 2))
    test_frule(operator.getitem, (1.0, 2.0, 3.0), -1)
    test_frule(operator.getitem, [1.0, np.ones(2), 3.0], slice(1, None))
