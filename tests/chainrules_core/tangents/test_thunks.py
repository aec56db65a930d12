"""Thunk, InplaceableThunk and unthunk: delayed tangents that behave like their values."""

import numpy as np
import pytest

from chainrules_core import (
    AbstractThunk,
    InplaceableThunk,
    NoTangent,
    Tangent,
    Thunk,
    ZeroTangent,
    add_,
    not_implemented,
    thunk,
    unthunk,
)

A = np.array([[1.0, 2.0], [3.0, 4.0]])


def counting(value):
    """A thunk that counts how often it is evaluated."""
    calls = []

    def compute():
        calls.append(1)
        return np.array(value, dtype=float) if not np.isscalar(value) else value

    return Thunk(compute), calls


def test_a_thunk_is_evaluated_only_when_needed():
    t, calls = counting([1.0, 2.0])
    assert calls == []
    np.testing.assert_array_equal(unthunk(t), [1.0, 2.0])
    assert calls == [1]


def test_a_thunk_does_not_cache_its_value():
    # The decision (see chainrules_core.tangents.thunks): every unthunk returns a fresh value
    # its caller owns, so accumulating into one value in place cannot change another's.
    t, calls = counting([1.0, 2.0])
    first = unthunk(t)
    first += 100.0
    second = unthunk(t)
    np.testing.assert_array_equal(second, [1.0, 2.0])
    assert calls == [1, 1]


def test_unthunk_passes_everything_else_through():
    x = np.ones(2)
    assert unthunk(x) is x
    assert unthunk(ZeroTangent()) is ZeroTangent()
    assert unthunk(3.0) == 3.0
    assert unthunk(Thunk(lambda: Thunk(lambda: 5.0))) == 5.0  # nested thunks unwrap fully


def test_thunk_decorator():
    @thunk
    def dx():
        return 2.0 * 3.0

    assert isinstance(dx, Thunk) and isinstance(dx, AbstractThunk)
    assert unthunk(dx) == 6.0


def test_thunk_needs_a_callable():
    with pytest.raises(TypeError, match="needs a callable"):
        Thunk(3.0)
    with pytest.raises(TypeError, match="needs a callable add_fn"):
        InplaceableThunk(3.0, lambda: 1.0)


def test_arithmetic_and_numpy_operands():
    t = Thunk(lambda: A.copy())
    np.testing.assert_array_equal(2.0 * t, 2.0 * A)
    np.testing.assert_array_equal(t * 2.0, 2.0 * A)
    np.testing.assert_array_equal(t / 2.0, A / 2.0)
    np.testing.assert_array_equal(t @ A, A @ A)
    np.testing.assert_array_equal(A @ t, A @ A)
    np.testing.assert_array_equal(A + t, 2 * A)
    np.testing.assert_array_equal(t - A, np.zeros((2, 2)))
    np.testing.assert_array_equal(-t, -A)
    np.testing.assert_array_equal(np.add(A, t), 2 * A)
    np.testing.assert_array_equal(np.multiply(t, A), A * A)
    for result in (2.0 * t, t @ A, A + t, np.add(A, t)):
        assert type(result) is np.ndarray and result.dtype == np.float64


def test_numpy_functions_unthunk():
    t = Thunk(lambda: A.copy())
    arr = np.asarray(t)
    assert type(arr) is np.ndarray
    np.testing.assert_array_equal(arr, A)
    assert np.asarray(t, dtype=np.float32).dtype == np.float32
    np.testing.assert_allclose(np.sin(t), np.sin(A))
    np.testing.assert_allclose(np.exp(t), np.exp(A))
    assert np.sum(t) == A.sum()  # a ufunc method (np.add.reduce)
    np.testing.assert_array_equal(np.cumsum(t), np.cumsum(A))
    np.testing.assert_array_equal(t[0], A[0])
    np.testing.assert_array_equal(t.T, A.T)
    c = Thunk(lambda: np.array([1 + 2j]))
    np.testing.assert_array_equal(c.conj(), [1 - 2j])
    np.testing.assert_array_equal(c.real, [1.0])
    np.testing.assert_array_equal(c.imag, [2.0])


def test_inplace_add_of_a_thunk():
    acc = np.ones(2)
    alias = acc
    acc += Thunk(lambda: np.array([1.0, 2.0]))
    assert acc is alias
    np.testing.assert_array_equal(acc, [2.0, 3.0])
    with pytest.raises(TypeError, match="same_kind"):  # as NumPy: complex does not fit into a real array
        acc += Thunk(lambda: np.array([1j, 1j]))


def test_zero_is_the_identity_and_absorbs_without_evaluating():
    t, calls = counting([1.0])
    assert t + ZeroTangent() is t
    assert NoTangent() + t is t
    assert ZeroTangent() * t is ZeroTangent()
    assert t @ NoTangent() is NoTangent()
    assert calls == []
    ni = not_implemented("reason")
    assert t + ni is ni


def test_thunk_of_a_structural_tangent():
    t = Thunk(lambda: Tangent(tuple, 1.0, 2.0))
    assert 2.0 * t == Tangent(tuple, 2.0, 4.0)
    assert t + Tangent(tuple, 1.0, 1.0) == Tangent(tuple, 2.0, 3.0)


def test_inplaceable_thunk():
    calls = {"add_fn": 0, "val": 0}

    def add_at_1(acc):
        calls["add_fn"] += 1
        acc[1] += 5.0
        return acc

    def dense():
        calls["val"] += 1
        out = np.zeros(3)
        out[1] = 5.0
        return out

    it = InplaceableThunk(add_at_1, dense)
    assert isinstance(it.val, Thunk)  # a plain callable is wrapped
    np.testing.assert_array_equal(unthunk(it), [0.0, 5.0, 0.0])
    assert calls == {"add_fn": 0, "val": 1}
    acc = np.ones(3)
    assert add_(acc, it) is acc  # a writable float array: add_fn, no dense temporary
    np.testing.assert_array_equal(acc, [1.0, 6.0, 1.0])
    assert calls == {"add_fn": 1, "val": 1}
    ints = np.ones(3, dtype=int)
    summed = add_(ints, it)  # not a destination: the value is computed instead
    np.testing.assert_array_equal(summed, [1.0, 6.0, 1.0])
    np.testing.assert_array_equal(ints, [1, 1, 1])
    assert calls == {"add_fn": 1, "val": 2}
    np.testing.assert_array_equal(2.0 * it, [0.0, 10.0, 0.0])
    wrapped = InplaceableThunk(add_at_1, Thunk(dense))
    assert isinstance(wrapped.val, Thunk)
    assert "add_at_1" in repr(wrapped)
