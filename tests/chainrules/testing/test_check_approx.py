"""check_approx: every tangent kind, breadcrumbs, zeros, NaN and infinities, shapes, tolerances."""

from __future__ import annotations

import dataclasses
from collections import namedtuple
from typing import Any

import numpy as np
import pytest
import scipy.sparse as sp

from chainrules.testing import check_approx, default_tolerances
from chainrules_core import InplaceableThunk, NoTangent, Tangent, Thunk, ZeroTangent, not_implemented

Foo = namedtuple("Foo", "A b")


@dataclasses.dataclass
class Layer:
    weights: np.ndarray
    bias: float
    name: str = "layer"


class Plain:
    def __init__(self, v: Any, label: str) -> None:
        self.v, self.label = v, label


class Band:
    """A structured matrix: compared as its dense form."""

    def __init__(self, d: np.ndarray) -> None:
        self.d = d

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        return np.diag(self.d) if dtype is None else np.diag(self.d).astype(dtype)


def fails(actual: Any, expected: Any, match: str, **kwargs: Any) -> None:
    with pytest.raises(AssertionError, match=match):
        check_approx(actual, expected, **kwargs)


# ---- leaves ---------------------------------------------------------------------------------------
def test_numbers_and_arrays():
    check_approx(1.0, 1.0 + 1e-12)
    check_approx(np.array([1.0, 2.0]), np.array([1.0, 2.0 + 1e-10]))
    check_approx(1 + 2j, np.complex64(1 + 2j))
    check_approx(np.float32(0.1), 0.1)
    fails(1.0, 1.1, r"value: arrays differ: \|\|actual - expected\|\| = 0.1 > tolerance")
    fails(np.array([1.0, 2.0]), np.array([1.0, 2.0 + 1j]), r"largest difference 1 at index \(1,\)")


def test_message_gives_sizes_index_values_and_shape():
    with pytest.raises(AssertionError) as info:
        check_approx(np.array([[1.0, 2.0], [3.0, 4.0]]), np.array([[1.0, 2.0], [3.0, 5.0]]), name="dA")
    message = str(info.value)
    for part in ("dA: arrays differ", "||actual - expected|| = 1", "tolerance", "at index (1, 1)",
                 "(actual 4, expected 5)", "shape (2, 2)"):
        assert part in message


def test_shapes_must_match():
    fails(np.ones(3), np.ones((3, 1)), r"shapes differ: actual \(3,\), expected \(3, 1\)")
    fails(np.ones(2), np.ones(3), r"shapes differ")
    check_approx(np.array([2.0]), 2.0)  # one element each: compared as scalars
    check_approx(np.ones((1, 1)), np.array(1.0))


def test_nan_and_infinity_must_be_at_the_same_places():
    check_approx(np.array([1.0, np.nan, np.inf, -np.inf]), np.array([1.0, np.nan, np.inf, -np.inf]))
    fails(np.array([1.0, np.nan]), np.array([1.0, 2.0]),
          r"NaNs differ: actual has 1, expected 0, first at index \(1,\)")
    fails(np.array([np.inf, 1.0]), np.array([-np.inf, 1.0]), r"infinities differ.*of other signs")
    fails(np.array([np.inf, 1.0]), np.array([1.0, 1.0]), r"infinities differ: actual has 1, expected 0")
    fails(np.array([1.0 + np.nan * 1j]), np.array([1.0]), r"NaNs differ")


def test_tolerances():
    check_approx(1.0, 1.05, rtol=0.1)
    check_approx(0.0, 1e-3, atol=1e-2)
    fails(0.0, 1e-3, "arrays differ", atol=1e-4)
    check_approx(np.float32(1.0), np.float32(1.0 + 5e-5))  # float32: default rtol 1e-4
    fails(1.0, 1.0 + 5e-5, "arrays differ")  # float64: default rtol 1e-7


def test_default_tolerances_follow_the_lowest_precision():
    assert default_tolerances(1.0, np.ones(2)) == (1e-7, 1e-9)
    assert default_tolerances(np.ones(2, np.float32), 1.0) == (1e-4, 1e-6)
    assert default_tolerances(np.ones(2, np.complex64)) == (1e-4, 1e-6)
    assert default_tolerances((np.float16(1), [np.ones(1)])) == (3e-2, 1e-2)
    assert default_tolerances(Tangent(tuple, np.float32(1.0), 2.0)) == (1e-4, 1e-6)
    assert default_tolerances(Layer(np.ones(2, np.float32), 1.0)) == (1e-4, 1e-6)
    assert default_tolerances(3, "x", None) == (1e-7, 1e-9)


# ---- zeros, thunks, not-implemented ---------------------------------------------------------------
def test_zeros_are_zero_arrays():
    check_approx(ZeroTangent(), np.zeros(3))
    check_approx(np.zeros((2, 2)), NoTangent())
    check_approx(ZeroTangent(), NoTangent())
    check_approx(Tangent(tuple, ZeroTangent(), 1.0), (np.zeros(2), 1.0))
    check_approx(ZeroTangent(), (0.0, {"a": np.zeros(2)}))
    fails(ZeroTangent(), np.array([0.0, 1.0]), r"arrays differ.*\(actual is a zero tangent\)")
    fails(np.array([0.0, 1.0]), NoTangent(), r"arrays differ.*\(expected is a zero tangent\)")
    fails(ZeroTangent(), Foo(np.zeros(2), 1.0), r"^Foo.b: arrays differ")


def test_thunks_are_unthunked():
    check_approx(Thunk(lambda: np.ones(2)), np.ones(2))
    check_approx(InplaceableThunk(lambda acc: acc, lambda: 2.0), 2.0)
    check_approx(Tangent(tuple, Thunk(lambda: 1.0)), (1.0,))
    fails(Thunk(lambda: np.ones(2)), np.zeros(2), "arrays differ")


def test_not_implemented_never_passes():
    fails(not_implemented("d/dnu"), np.ones(2), r"not implemented: d/dnu \(created at .*\)")
    fails((1.0, not_implemented("later")), (1.0, 1.0), r"value\[1\]: not implemented: later")


# ---- structures and breadcrumbs -------------------------------------------------------------------
def test_tangents_compare_with_their_natural_containers():
    check_approx(Tangent(tuple, 1.0, np.ones(2)), (1.0, np.ones(2)))
    check_approx(Tangent(Foo, A=np.ones(2), b=2.0), Foo(np.ones(2), 2.0))
    check_approx(Tangent(dict, {"a": 1.0}), {"a": 1.0, "b": ZeroTangent()})
    check_approx(Tangent(Layer, weights=np.ones(2), bias=1.0), Layer(np.ones(2), 1.0))
    check_approx(Tangent(Plain, v=np.ones(2)), Plain(np.ones(2), "label"))  # a plain object: by its fields
    check_approx([1.0, 2.0], Tangent(list, 1.0, 2.0))


def test_missing_fields_are_zero():
    check_approx(Tangent(Foo, A=np.zeros(2)), Foo(np.zeros(2), 0.0))
    fails(Tangent(Foo, A=np.zeros(2)), Foo(np.zeros(2), 1.0), r"Foo.b: arrays differ.*actual is a zero tangent")


def test_breadcrumbs_name_the_type_and_the_path():
    actual = Tangent(Foo, A=(1.0, np.array([1.0, 2.0])), b=0.0)
    expected = Foo(A=(1.0, np.array([1.0, 3.0])), b=0.0)
    fails(actual, expected, r"^Foo\.A\[1\]: arrays differ")
    fails(actual, expected, r"^dx: Foo\.A\[1\]: arrays differ", name="dx")
    fails({"w": [np.ones(2), {"deep key": 1.0}]}, {"w": [np.ones(2), {"deep key": 2.0}]},
          r"^value\['w'\]\[1\]\['deep key'\]: arrays differ")
    fails((Layer(np.ones(2), 1.0),), (Layer(np.ones(2), 2.0),), r"^g\[0\]\.bias: arrays differ", name="g")


def test_structure_mismatches():
    fails((1.0, 2.0), (1.0,), r"lengths differ: 2 vs 1")
    fails(Tangent(Foo, A=1.0), Tangent(Layer, bias=1.0), r"Tangent\(Foo\) vs Tangent\(Layer\)")
    fails((1.0, 2.0), {"a": 1.0}, r"different structure")
    fails(np.ones(2), (1.0, 1.0), r"a ndarray cannot be compared with a tuple")


def test_structured_and_sparse_matrices_compare_as_dense():
    check_approx(Band(np.array([1.0, 2.0])), np.diag([1.0, 2.0]))
    fails(Band(np.array([1.0, 2.0])), np.ones((2, 2)), r"arrays differ")
    check_approx(sp.csr_array(np.eye(2)), np.eye(2))
    fails(sp.csr_array(np.eye(2)), 2 * np.eye(2), r"arrays differ")


def test_non_numeric_leaves_compare_by_equality():
    check_approx(("label", None, 3), ("label", None, 3))
    fails(("label",), ("other",), r"value\[0\]: cannot compare a str with a str")
    fails((None,), (np.ones(2),), r"cannot compare a NoneType with a ndarray")


def test_object_arrays_compare_element_by_element():
    check_approx(np.array([1.0, ZeroTangent()], dtype=object), np.array([1.0, 0.0], dtype=object))
    fails(np.array([1.0, 2.0], dtype=object), np.array([1.0, 3.0], dtype=object), r"value\[1\]: arrays differ")
