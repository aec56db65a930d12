"""not_implemented: the honest answer for a derivative nobody has written yet."""

import inspect

import numpy as np
import pytest

from chainrules_core import (
    NoTangent,
    NotImplementedTangent,
    ProjectTo,
    Tangent,
    Thunk,
    ZeroTangent,
    not_implemented,
)


def make_one():
    return not_implemented("d/dnu of the Bessel function"), inspect.currentframe().f_lineno


def test_records_its_message_and_where_it_was_created():
    t, line = make_one()
    assert isinstance(t, NotImplementedTangent)
    assert t.info == "d/dnu of the Bessel function"
    assert t.location == f"{__file__}:{line} (make_one)"
    assert "d/dnu of the Bessel function" in repr(t)
    assert __file__ in repr(t)


@pytest.mark.parametrize("other", [1.0, np.ones(2), ZeroTangent(), NoTangent(), Thunk(lambda: 1.0),
                                   Tangent(tuple, 1.0)], ids=repr)
def test_wins_addition(other):
    t = not_implemented("unknown")
    assert t + other is t
    assert other + t is t
    assert t - other is t
    assert other - t is t
    if isinstance(other, np.ndarray):
        assert np.add(other, t) is t
        assert np.subtract(t, other) is t


@pytest.mark.parametrize("zero", [ZeroTangent(), NoTangent()])
def test_loses_multiplication_against_the_zeros(zero):
    t = not_implemented("unknown")
    assert t * zero is zero
    assert zero * t is zero
    assert t @ zero is zero
    assert zero @ t is zero


@pytest.mark.parametrize("other", [2.0, np.ones(2), Thunk(lambda: 2.0)], ids=repr)
def test_wins_multiplication_against_everything_else(other):
    t = not_implemented("unknown")
    assert t * other is t
    assert other * t is t
    assert t / 2.0 is t
    assert -t is t
    assert np.sin(t) is t
    assert np.conj(t) is t


def test_passes_through_projection_and_indexing():
    t = not_implemented("unknown")
    assert ProjectTo(np.ones(3))(t) is t
    assert ProjectTo(1.0)(t) is t
    assert t[1] is t and t.T is t and t.real is t and t.conj() is t


def test_cannot_become_an_array():
    t = not_implemented("the order derivative")
    with pytest.raises(TypeError, match="the order derivative"):
        np.asarray(t)
    acc = np.ones(2)
    acc += t  # the accumulated value becomes unknown; it is never silently dropped
    assert acc is t
