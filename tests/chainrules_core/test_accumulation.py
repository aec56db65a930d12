"""add_ (accumulate, in place when the accumulator allows it) and is_inplaceable_destination."""

import numpy as np
import pytest
from numpy.lib.stride_tricks import as_strided

from chainrules_core import (
    InplaceableThunk,
    NoTangent,
    Tangent,
    Thunk,
    ZeroTangent,
    add_,
    is_inplaceable_destination,
    not_implemented,
)


def test_writable_float_array_is_added_in_place():
    acc = np.zeros(3)
    out = add_(acc, np.array([1.0, 2.0, 3.0]))
    assert out is acc
    np.testing.assert_array_equal(acc, [1.0, 2.0, 3.0])
    assert add_(acc, 1.0) is acc  # a scalar broadcasts into the accumulator
    np.testing.assert_array_equal(acc, [2.0, 3.0, 4.0])


def test_real_into_complex_is_in_place():
    acc = np.zeros(2, dtype=complex)
    assert add_(acc, np.array([1.0, 2.0])) is acc
    np.testing.assert_array_equal(acc, [1.0, 2.0])


@pytest.mark.parametrize("make_acc", [
    lambda: np.zeros(3, dtype=int),                       # integers: the sum is a float
    lambda: np.broadcast_to(np.zeros(1), (3,)),           # a read-only view with a zero stride
    lambda: np.zeros(3),                                  # float into float, but complex dx below
], ids=["int array", "broadcast_to view", "complex into real"])
def test_out_of_place_when_the_accumulator_cannot_hold_the_sum(make_acc):
    acc = make_acc()
    before = acc.copy()
    dx = np.array([1j, 2j, 3j]) if acc.dtype == float and acc.flags.writeable else np.array([1.0, 2.0, 3.0])
    out = add_(acc, dx)
    assert out is not acc
    np.testing.assert_array_equal(out, before + dx)
    np.testing.assert_array_equal(acc, before)  # not modified


def test_larger_cotangent_is_added_out_of_place():
    acc = np.zeros(3)
    out = add_(acc, np.ones((2, 3)))
    assert out.shape == (2, 3) and out is not acc
    np.testing.assert_array_equal(acc, np.zeros(3))


def test_read_only_array_is_not_written():
    acc = np.zeros(2)
    acc.flags.writeable = False
    out = add_(acc, np.ones(2))
    assert out is not acc
    np.testing.assert_array_equal(acc, np.zeros(2))


def test_inplaceable_thunk_uses_add_fn_only_for_a_destination():
    used = []

    def add_fn(acc):
        used.append("add_fn")
        acc += 2.0
        return acc

    def value():
        used.append("value")
        return np.full(2, 2.0)

    acc = np.ones(2)
    assert add_(acc, InplaceableThunk(add_fn, value)) is acc
    np.testing.assert_array_equal(acc, [3.0, 3.0])
    assert used == ["add_fn"]
    ints = np.ones(2, dtype=int)
    np.testing.assert_array_equal(add_(ints, InplaceableThunk(add_fn, value)), [3.0, 3.0])
    assert used == ["add_fn", "value"]


def test_thunk_is_unthunked_and_added_in_place():
    acc = np.zeros(2)
    assert add_(acc, Thunk(lambda: np.ones(2))) is acc
    np.testing.assert_array_equal(acc, np.ones(2))
    assert add_(1.0, Thunk(lambda: 2.0)) == 3.0


def test_zeros_and_not_implemented():
    acc = np.ones(2)
    assert add_(acc, ZeroTangent()) is acc
    assert add_(acc, NoTangent()) is acc
    np.testing.assert_array_equal(add_(ZeroTangent(), Thunk(lambda: np.ones(2))), np.ones(2))
    assert add_(ZeroTangent(), NoTangent()) is NoTangent()
    ni = not_implemented("missing")
    assert add_(acc, ni) is ni
    assert add_(ni, acc) is ni
    np.testing.assert_array_equal(acc, np.ones(2))


def test_structural_tangents_accumulate():
    total = add_(Tangent(tuple, 1.0, ZeroTangent()), Tangent(tuple, 2.0, 3.0))
    assert total == Tangent(tuple, 3.0, 3.0)


@pytest.mark.parametrize("x, expected", [
    (np.zeros(3), True),
    (np.zeros((3, 4)).T, True),
    (np.zeros((4, 5))[::2, 1::2], True),
    (np.zeros((4, 5))[:, 0], True),
    (np.zeros((), dtype=np.float32), True),
    (np.zeros(2, dtype=np.complex64), True),
    (np.zeros(3, dtype=int), False),
    (np.zeros(3, dtype=bool), False),
    (np.broadcast_to(0.0, (3,)), False),
    (as_strided(np.zeros(4), (3, 2), (8, 8)), False),  # overlapping windows share memory
    ([1.0, 2.0], False),
    (1.0, False),
], ids=["contiguous", "transpose", "strided slice", "column", "0-d", "complex64", "int", "bool",
        "broadcast", "overlapping windows", "list", "float"])
def test_is_inplaceable_destination(x, expected):
    assert is_inplaceable_destination(x) is expected


def test_overlapping_destination_is_not_corrupted():
    base = np.zeros(4)
    windows = as_strided(base, (3, 2), (8, 8))  # writable, elements overlap
    assert windows.flags.writeable
    out = add_(windows, np.ones((3, 2)))
    np.testing.assert_array_equal(out, np.ones((3, 2)))  # each element got exactly one 1
    np.testing.assert_array_equal(base, np.zeros(4))
