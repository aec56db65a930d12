"""Declarations of chainrules/rulesets/arrays/non_differentiable.py and the errors of mutation.py."""

from __future__ import annotations

import numpy as np
import pytest

import chainrules  # noqa: F401  (registers the rules)
from chainrules import NoTangent, frule, rrule
from chainrules.rulesets.arrays.mutation import IN_PLACE, InPlaceOperationError
from chainrules.rulesets.arrays.non_differentiable import CONSTANT_ARRAYS, INDEX_FUNCTIONS, SHAPE_AND_DTYPE_QUERIES
from chainrules.testing import test_frule, test_rrule

CALLS = [
    (np.shape, (np.ones((2, 3)),)), (np.argmax, (np.array([1.0, 3.0, 2.0]),)), (np.argsort, (np.array([2.0, 1.0]),)),
    (np.searchsorted, (np.array([1.0, 2.0]), 1.5)), (np.digitize, (np.array([0.5, 1.5]), np.array([1.0]))),
    (np.nonzero, (np.array([0.0, 1.0]),)), (np.zeros_like, (np.ones(2),)), (np.ones, (3,)),
    (np.ndarray.argmax, (np.array([1.0, 3.0]),)),
]


@pytest.mark.parametrize(("f", "args"), CALLS, ids=lambda v: getattr(v, "__name__", ""))
def test_declared_non_differentiable(f, args):
    _, pullback = rrule(f, *args)
    assert all(c is NoTangent() for c in pullback(None))
    assert frule((NoTangent(),) * (len(args) + 1), f, *args)[1] is NoTangent()


def test_testers_accept_them():
    test_rrule(np.argmax, np.array([1.0, 3.0, 2.0]))
    test_frule(np.zeros_like, np.array([1.0, 3.0]))


def test_declarations_are_listed():
    assert np.argsort in INDEX_FUNCTIONS and np.shape in SHAPE_AND_DTYPE_QUERIES and np.eye in CONSTANT_ARRAYS
    assert np.full not in CONSTANT_ARRAYS and np.linspace not in CONSTANT_ARRAYS  # these have rules


@pytest.mark.parametrize("f", list(IN_PLACE), ids=lambda f: getattr(f, "__qualname__", str(f)))
def test_in_place_operations_raise(f):
    x = np.array([2.0, 1.0])
    with pytest.raises(InPlaceOperationError, match="in place"):
        rrule(f, x, 0)
    with pytest.raises(InPlaceOperationError, match="in place"):
        frule((NoTangent(), NoTangent(), NoTangent()), f, x, 0)
    assert np.array_equal(x, [2.0, 1.0])


def test_sort_method_names_its_functional_replacement():
    with pytest.raises(InPlaceOperationError, match=r"use np.sort\(x, axis\)"):
        rrule(np.array([2.0, 1.0]).sort)
