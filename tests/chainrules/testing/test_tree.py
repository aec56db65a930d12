"""tree_flatten / unflatten: primals and tangents read and rebuilt with one TreeDef, losslessly."""

from __future__ import annotations

import dataclasses
from collections import namedtuple
from typing import Any

import numpy as np
import pytest
import scipy.sparse as sp

from chainrules.testing import register_tree_node, tree_flatten
from chainrules.testing.tree import leaves_to_vec, vec_to_leaves
from chainrules_core import NoTangent, Tangent, Thunk, ZeroTangent, not_implemented

Pair = namedtuple("Pair", "first second")


@dataclasses.dataclass(frozen=True)
class Frozen:
    weights: np.ndarray
    label: str
    scale: float


class Scaled:
    """A registered type: only ``v`` is free; ``tag`` rebuilds it."""

    def __init__(self, v: Any, tag: str) -> None:
        self.v, self.tag = v, tag


register_tree_node(Scaled, lambda s: ([s.v], s.tag), lambda tag, children: Scaled(children[0], tag))


def same(a: Any, b: Any) -> bool:
    """Exact equality including types and dtypes."""
    if type(a) is not type(b):
        return False
    if isinstance(a, np.ndarray):
        return a.dtype == b.dtype and a.shape == b.shape and bool(np.array_equal(a, b))
    if isinstance(a, np.generic):
        return a.dtype == b.dtype and a == b
    if isinstance(a, (tuple, list)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if dataclasses.is_dataclass(a):
        return all(same(getattr(a, f.name), getattr(b, f.name)) for f in dataclasses.fields(a))
    if isinstance(a, Scaled):
        return same(a.v, b.v) and a.tag == b.tag
    if sp.issparse(a):
        return a.format == b.format and same(a.toarray(), b.toarray())
    return a == b


VALUES = {
    "float": 1.5,
    "complex": 1.0 - 2.0j,
    "float32 scalar": np.float32(2.5),
    "complex64 array": np.array([1 + 1j, 2 - 1j], dtype=np.complex64),
    "0-d array": np.array(3.0),
    "int array": np.arange(3),
    "bool": True,
    "string": "label",
    "none": None,
    "tuple": (1.0, np.ones(2), "x", 3),
    "list": [np.float32(1.0), [2.0, (3.0 + 1j,)]],
    "namedtuple": Pair(np.arange(4.0).reshape(2, 2), 7),
    "dict": {"a": np.ones(2), "n": 2, "nested": {"b": 0.5}},
    "dataclass": Frozen(np.array([1.0, 2.0], dtype=np.float32), "w", 0.25),
    "registered": Scaled(np.array([1.0, -1.0]), "tag"),
    "sparse": sp.csr_array(np.array([[1.0, 0.0], [0.0, 2.0]])),
    "mixed": ({"p": Pair(1.0, "s")}, [Frozen(np.zeros(1), "z", 1.0)], 5, None),
}


@pytest.mark.parametrize("case", sorted(VALUES))
def test_flatten_unflatten_round_trip(case):
    x = VALUES[case]
    leaves, treedef = tree_flatten(x)
    assert same(treedef.unflatten(leaves), x)
    specs = treedef.leaf_specs()
    assert len(specs) == len(leaves) == treedef.num_leaves()
    vec = leaves_to_vec(leaves, specs)
    assert vec.dtype == np.float64 and vec.size == sum(s.size for s in specs)
    assert same(treedef.unflatten(vec_to_leaves(vec, specs)), x)


@pytest.mark.parametrize("case", sorted(VALUES))
def test_tangent_round_trip(case):
    x = VALUES[case]
    _, treedef = tree_flatten(x)
    specs = treedef.leaf_specs()
    rng = np.random.default_rng(0)
    vec = rng.standard_normal(sum(s.size for s in specs))
    tangent = treedef.unflatten_tangent(vec_to_leaves(vec, specs, promote=True))
    again = leaves_to_vec(treedef.flatten_tangent(tangent), specs)
    np.testing.assert_array_equal(again, vec)


def test_only_floating_values_are_leaves():
    leaves, _ = tree_flatten(VALUES["mixed"])
    assert leaves == [1.0, VALUES["mixed"][1][0].weights, 1.0]
    assert tree_flatten(VALUES["int array"])[0] == []
    assert tree_flatten(VALUES["string"])[0] == []


def test_complex_leaves_are_real_then_imaginary():
    leaves, treedef = tree_flatten(np.array([1 + 2j, 3 - 4j]))
    np.testing.assert_array_equal(leaves_to_vec(leaves, treedef.leaf_specs()), [1.0, 3.0, 2.0, -4.0])


def test_scalars_come_back_as_the_same_kind_of_scalar():
    _, treedef = tree_flatten((1.0, np.float32(2.0), np.array(3.0), 1j))
    rebuilt = treedef.unflatten(vec_to_leaves(np.array([4.0, 5.0, 6.0, 7.0, 8.0]), treedef.leaf_specs()))
    assert same(rebuilt, (4.0, np.float32(5.0), np.array(6.0), 7.0 + 8.0j))
    promoted = treedef.unflatten(vec_to_leaves(np.arange(5.0), treedef.leaf_specs(), promote=True))
    assert type(promoted[1]) is np.float64 and promoted[2].dtype == np.float64


def test_unflatten_tangent_gives_tangents_and_no_tangent_for_static_parts():
    _, treedef = tree_flatten(VALUES["namedtuple"])
    t = treedef.unflatten_tangent([np.ones((2, 2))])
    assert isinstance(t, Tangent) and t.primal_type is Pair and isinstance(t.second, NoTangent)
    _, treedef = tree_flatten(VALUES["dataclass"])
    t = treedef.unflatten_tangent([np.ones(2, dtype=np.float32), 2.0])
    assert t.primal_type is Frozen and isinstance(t.label, NoTangent) and t.scale == 2.0


def test_tangents_in_any_form_read_the_same():
    x = VALUES["tuple"]
    _, treedef = tree_flatten(x)
    forms = [
        (0.5, np.array([1.0, 2.0]), NoTangent(), NoTangent()),
        Tangent(tuple, 0.5, np.array([1.0, 2.0]), NoTangent(), NoTangent()),
        Tangent(tuple, Thunk(lambda: 0.5), Thunk(lambda: np.array([1.0, 2.0])), NoTangent(), NoTangent()),
        Thunk(lambda: (0.5, np.array([1.0, 2.0]), "x", 3)),
    ]
    for form in forms:
        first, second = treedef.flatten_tangent(form)
        assert float(np.asarray(first)) == 0.5
        np.testing.assert_array_equal(second, [1.0, 2.0])


def test_zeros_read_as_zero_leaves():
    x = VALUES["dict"]
    _, treedef = tree_flatten(x)
    for zero in (ZeroTangent(), NoTangent(), Tangent(dict, {"a": ZeroTangent()})):
        read = treedef.flatten_tangent(zero)
        assert [np.asarray(r).tolist() for r in read] == [[0.0, 0.0], 0.0]


def test_missing_fields_of_a_structural_tangent_read_as_zero():
    _, treedef = tree_flatten(VALUES["dataclass"])
    read = treedef.flatten_tangent(Tangent(Frozen, scale=3.0))
    assert np.all(read[0] == 0) and read[1] == 3.0


def test_registered_type_and_its_tangents():
    x = VALUES["registered"]
    _, treedef = tree_flatten(x)
    t = treedef.unflatten_tangent([np.array([2.0, 3.0])])
    assert isinstance(t, Scaled) and t.tag == "tag"
    np.testing.assert_array_equal(treedef.flatten_tangent(Tangent(Scaled, v=np.array([4.0, 5.0])))[0], [4.0, 5.0])


def test_sparse_arrays_perturb_only_their_stored_entries():
    x = VALUES["sparse"]
    leaves, treedef = tree_flatten(x)
    assert len(leaves) == 1 and leaves[0].shape == (2,)
    read = treedef.flatten_tangent(np.array([[1.0, 9.0], [9.0, 2.0]]))  # a dense tangent: read on the pattern
    np.testing.assert_array_equal(read[0], [1.0, 2.0])


def test_a_tangent_of_the_wrong_shape_is_an_error_with_a_breadcrumb():
    _, treedef = tree_flatten({"a": (np.ones(3), 1.0)})
    with pytest.raises(ValueError, match=r"\['a'\]\[0\]: tangent of shape \(2,\), expected \(3,\)"):
        treedef.flatten_tangent({"a": (np.ones(2), 1.0)})
    with pytest.raises(ValueError, match=r"\['a'\]: tangent has 3 elements, expected 2"):
        treedef.flatten_tangent({"a": (np.ones(3), 1.0, 2.0)})


def test_a_not_implemented_tangent_has_no_value():
    _, treedef = tree_flatten((np.ones(2), 1.0))
    with pytest.raises(TypeError, match=r"\[1\]: a not-implemented tangent has no value"):
        treedef.flatten_tangent((np.ones(2), not_implemented("later")))
