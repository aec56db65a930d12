"""Tangent: the structural tangent of tuples, namedtuples, dicts, dataclasses and objects."""

import dataclasses
from collections import namedtuple

import numpy as np
import pytest

from chainrules_core import NoTangent, Tangent, Thunk, ZeroTangent, backing, canonicalize, not_implemented

Point = namedtuple("Point", "x y")


@dataclasses.dataclass
class Foo:
    A: np.ndarray
    c: float


@dataclasses.dataclass(frozen=True)
class Frozen:
    a: float
    b: float


class Plain:
    """A class that declares no fields: they are known per instance only."""

    def __init__(self, u, v):
        self.u = u
        self.v = v


class Slotted:
    __slots__ = ("p", "q")

    def __init__(self, p, q):
        self.p = p
        self.q = q


def fields_of(x):
    return backing(x)


Case = namedtuple("Case", "primal tangent missing present")
"""A primal, a tangent of it with one field missing, the missing field, a field it has."""

CASES = {k: Case(*v) for k, v in {
    "tuple": ((1.0, 2.0, 3.0), Tangent(tuple, 0.5, ZeroTangent(), 2.0), None, 0),
    "list": ([1.0, 2.0], Tangent(list, 0.5, 1.0), None, 1),
    "namedtuple": (Point(1.0, 2.0), Tangent(Point, y=0.5), "x", "y"),
    "dict": ({"a": 1.0, "b": 2.0}, Tangent(dict, a=0.5), "b", "a"),
    "dataclass": (Foo(np.array([1.0, 2.0]), 3.0), Tangent(Foo, A=np.array([0.5, 0.25])), "c", "A"),
    "frozen dataclass": (Frozen(1.0, 2.0), Tangent(Frozen, b=0.5), "a", "b"),
    "plain object": (Plain(1.0, 2.0), Tangent(Plain, u=0.5), "v", "u"),
    "slots class": (Slotted(1.0, 2.0), Tangent(Slotted, q=0.5), "p", "q"),
}.items()}


@pytest.mark.parametrize("kind", list(CASES))
def test_missing_fields_read_as_zero(kind):
    _, t, missing, present = CASES[kind]
    if missing is None:  # sequences have no missing elements; a given zero stays a zero
        assert t[0] == 0.5
        return
    assert t[missing] is ZeroTangent()
    if kind != "dict":
        assert getattr(t, missing) is ZeroTangent()
        assert getattr(t, present) is t[present]


@pytest.mark.parametrize("kind", ["namedtuple", "dataclass", "frozen dataclass", "slots class"])
def test_unknown_field_is_an_error(kind):
    primal, t, _, _ = CASES[kind]
    P = type(primal)
    with pytest.raises(TypeError, match=r"unknown field\(s\) \['nope'\]"):
        Tangent(P, nope=1.0)
    with pytest.raises(AttributeError, match="no field 'nope'"):
        _ = t.nope
    with pytest.raises(KeyError, match="no field 'nope'"):
        t["nope"]


def test_unknown_field_of_a_plain_object_fails_when_added_to_the_primal():
    t = Tangent(Plain, w=1.0)  # Plain declares no fields, so this is only known to be wrong later
    with pytest.raises(AttributeError, match="Plain has no field 'w'"):
        Plain(1.0, 2.0) + t


def test_tangent_of_a_plain_object_does_not_answer_duck_typing_probes():
    t = Tangent(Plain, u=1.0)
    assert t.v is ZeroTangent()
    for name in ("shape", "dtype", "toarray", "nnz", "_private"):
        assert not hasattr(t, name)
    assert getattr(t, "dtype", None) is None
    assert Tangent(Plain, shape=2.0).shape == 2.0  # a stored field of that name is still found


@pytest.mark.parametrize("kind", list(CASES))
def test_sum_of_two_tangents_adds_field_by_field(kind):
    primal, t, missing, present = CASES[kind]
    total = t + t
    assert isinstance(total, Tangent)
    assert total.primal_type is type(primal)
    np.testing.assert_allclose(total[present], 2 * t[present])
    if missing is not None:
        assert total[missing] is ZeroTangent()
        other = Tangent(type(primal), {missing: 1.0}) if kind == "dict" else Tangent(type(primal), **{missing: 1.0})
        both = t + other
        assert both[missing] == 1.0
        np.testing.assert_allclose(both[present], t[present])


def test_tangents_of_different_types_do_not_add():
    with pytest.raises(TypeError, match=r"cannot add Tangent\(Point\) and Tangent\(Frozen\)"):
        Tangent(Point, x=1.0) + Tangent(Frozen, a=1.0)
    with pytest.raises(ValueError, match="lengths 1 and 2"):
        Tangent(tuple, 1.0) + Tangent(tuple, 1.0, 2.0)


@pytest.mark.parametrize("kind", list(CASES))
@pytest.mark.parametrize("scale", [2.0, np.float64(2.0), 2])
def test_scaling_by_numbers(kind, scale):
    primal, t, missing, present = CASES[kind]
    for scaled in (scale * t, t * scale):
        assert isinstance(scaled, Tangent) and scaled.primal_type is type(primal)
        np.testing.assert_allclose(scaled[present], 2 * np.asarray(t[present]))
        if missing is not None:
            assert scaled[missing] is ZeroTangent()
    halved = t / 2
    np.testing.assert_allclose(halved[present], np.asarray(t[present]) / 2)
    negated = -t
    np.testing.assert_allclose(negated[present], -np.asarray(t[present]))


def test_two_structural_tangents_do_not_multiply():
    with pytest.raises(TypeError, match="cannot multiply two structural Tangents"):
        Tangent(tuple, 1.0) * Tangent(tuple, 1.0)
    with pytest.raises(TypeError, match="not defined for structural Tangents"):
        Tangent(tuple, 1.0) @ np.eye(1)


@pytest.mark.parametrize("kind", ["namedtuple", "dataclass", "frozen dataclass", "slots class"])
def test_canonicalize_fills_every_declared_field_in_order(kind):
    primal, t, missing, _ = CASES[kind]
    full = canonicalize(t)
    assert list(backing(full)) == list(fields_of(primal))
    assert full[missing] is ZeroTangent()
    assert full == t


def test_canonicalize_leaves_sequences_dicts_and_plain_objects():
    for kind in ("tuple", "dict", "plain object"):
        t = CASES[kind][1]
        assert canonicalize(t) is t
    with pytest.raises(TypeError, match="needs a Tangent"):
        canonicalize((1.0, 2.0))


@pytest.mark.parametrize("kind", list(CASES))
def test_backing_of_a_tangent_is_a_plain_container(kind):
    _, t, missing, _ = CASES[kind]
    stored = backing(t)
    assert type(stored) is (tuple if kind in ("tuple", "list") else dict)
    if missing is not None:
        assert missing not in stored  # backing holds what was given, canonicalize fills the rest


def test_backing_of_primals():
    assert backing((1, 2)) == (1, 2)
    assert backing(Point(1, 2)) == {"x": 1, "y": 2}
    assert backing({"a": 1}) == {"a": 1}
    assert backing(Frozen(1.0, 2.0)) == {"a": 1.0, "b": 2.0}
    assert backing(Slotted(1, 2)) == {"p": 1, "q": 2}
    assert backing(Plain(1, 2)) == {"u": 1, "v": 2}
    with pytest.raises(TypeError, match="float has no fields"):
        backing(1.0)


@pytest.mark.parametrize("kind", list(CASES))
def test_primal_plus_tangent_rebuilds_a_new_primal(kind):
    primal, t, _, _ = CASES[kind]
    before = fields_of(primal)
    before = {k: np.copy(v) for k, v in before.items()} if isinstance(before, dict) else tuple(before)
    for moved in (primal + t, t + primal):
        assert type(moved) is type(primal)
        assert moved is not primal
        after = fields_of(moved)
        keys = range(len(after)) if isinstance(after, tuple) else after.keys()
        for k in keys:
            expected = np.asarray(before[k]) + (0 if isinstance(t[k], ZeroTangent) else np.asarray(t[k]))
            np.testing.assert_allclose(after[k], expected)
    now = fields_of(primal)
    keys = range(len(now)) if isinstance(now, tuple) else now.keys()
    for k in keys:  # the primal was not modified
        np.testing.assert_array_equal(now[k], before[k])


def test_adding_a_tangent_to_the_wrong_primal_is_an_error():
    with pytest.raises(TypeError, match=r"cannot add Tangent\(Point\) to a tuple"):
        (1.0, 2.0) + Tangent(Point, x=1.0)
    with pytest.raises(ValueError, match="length 1 to a tuple of length 2"):
        (1.0, 2.0) + Tangent(tuple, 1.0)
    with pytest.raises(KeyError, match="'c': not in the primal"):
        {"a": 1.0} + Tangent(dict, c=1.0)


def test_construction_errors():
    with pytest.raises(TypeError, match="needs the primal's type"):
        Tangent(1.0)
    with pytest.raises(TypeError, match="takes elements by position"):
        Tangent(tuple, a=1.0)
    with pytest.raises(TypeError, match="got 3 positional elements"):
        Tangent(Point, 1.0, 2.0, 3.0)
    with pytest.raises(TypeError, match="got field 'x' twice"):
        Tangent(Point, 1.0, x=2.0)
    with pytest.raises(TypeError, match="one mapping or keyword fields"):
        Tangent(dict, 1.0)
    with pytest.raises(AttributeError, match="immutable"):
        Tangent(Point, x=1.0).x = 2.0


def test_access_by_position_and_iteration():
    t = Tangent(Point, 1.0)  # namedtuples accept their elements positionally
    assert t.x == 1.0 and t[0] == 1.0 and t[1] is ZeroTangent()
    assert list(t) == [1.0, ZeroTangent()]
    assert list(Tangent(tuple, 1.0, 2.0)) == [1.0, 2.0]
    assert len(Tangent(tuple, 1.0, 2.0)) == 2
    with pytest.raises(TypeError, match="not iterable"):
        iter(Tangent(Foo, c=1.0))
    d = Tangent(dict, {1: 2.0})  # non-string keys through a mapping
    assert d[1] == 2.0
    with pytest.raises(AttributeError, match=r"index it with t\[key\]"):
        _ = Tangent(dict, a=1.0).a


def test_equality_treats_missing_fields_as_zero():
    assert Tangent(Foo, c=1.0) == Tangent(Foo, c=1.0, A=ZeroTangent())
    assert Tangent(Foo, c=1.0) != Tangent(Foo, c=2.0)
    assert Tangent(Point, x=1.0) != Tangent(Foo, c=1.0)


def test_tangents_nest_and_combine_with_other_kinds():
    inner = Tangent(tuple, Tangent(Point, x=1.0), 2.0) + Tangent(tuple, Tangent(Point, y=1.0), 1.0)
    assert inner[0] == Tangent(Point, x=1.0, y=1.0)
    assert inner[1] == 3.0
    t = Tangent(Foo, c=1.0)
    assert t + ZeroTangent() is t
    assert NoTangent() + t is t
    assert (t + Thunk(lambda: Tangent(Foo, c=2.0))).c == 3.0
    ni = not_implemented("field c")
    assert t + ni is ni
    assert ZeroTangent() * t is ZeroTangent()
