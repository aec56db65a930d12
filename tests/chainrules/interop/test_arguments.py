"""``chainrules.interop._arguments``: binding a call's arguments, for every bridge (no framework needed here).

The traced values are marked by wrapping them in :class:`Traced`, the stand-in for a
framework's boxes, tracers or tensors.
"""

from __future__ import annotations

import collections
from typing import Any, NamedTuple

import numpy as np
import pytest

from chainrules import NoTangent, Tangent, Thunk, ZeroTangent, not_implemented
from chainrules.interop._arguments import BoundCall, argument_label, function_name, locate
from chainrules.interop.errors import KeywordArgumentError


class Traced:
    def __init__(self, value: Any) -> None:
        self.value = value

    def __repr__(self) -> str:
        return f"Traced({self.value!r})"


def traced(x: Any) -> bool:
    return isinstance(x, Traced)


def integrate(f: Any, a: Any, b: Any, args: Any = (), full_output: int = 0, *, weight: Any = None,
              **options: Any) -> Any:
    """The shape of scipy.integrate.quad's signature, with a keyword-only parameter and **options."""


class Pair(NamedTuple):
    x: Any
    t: Any


# ---- finding traced values ---------------------------------------------------------------------------------
def test_nothing_traced_is_none() -> None:
    assert locate(integrate, (None, 0.0, 1.0), {"args": (2.0,)}, traced) is None


def test_direct_positional_arguments() -> None:
    a, b = Traced(1.0), Traced(2.0)
    call = locate(integrate, (None, a, b), {}, traced)
    assert call is not None
    assert call.slots == ((1, ()), (2, ())) and call.values == (a, b) and call.flat
    assert call.positions == (1, 2)


def test_nested_containers_in_order() -> None:
    t0, t1, t2, t3 = (Traced(float(i)) for i in range(4))
    args = ([t0, 3, (t1, "s")], {"k": t2, "n": None, "deep": {"z": [t3]}})
    call = locate(integrate, args, {}, traced)
    assert call is not None
    assert call.slots == ((0, (0,)), (0, (2, 0)), (1, ("k",)), (1, ("deep", "z", 0)))
    assert call.values == (t0, t1, t2, t3)
    assert not call.flat


def test_the_predicate_is_asked_before_a_container_is_searched() -> None:
    class TracedTuple(tuple):  # a framework's own traced container (autograd's SequenceBox, say)
        pass

    box = TracedTuple((1.0, 2.0))
    call = locate(integrate, (box,), {}, lambda v: isinstance(v, TracedTuple))
    assert call is not None and call.slots == ((0, ()),)


# ---- keyword arguments -------------------------------------------------------------------------------------
def test_a_keyword_argument_is_bound_to_its_position() -> None:
    t = Traced(0.7)
    call = locate(integrate, (None, 0.0, 1.0), {"args": (t,), "full_output": 1}, traced)
    assert call is not None
    assert call.args == (None, 0.0, 1.0, (t,)) and call.kwargs == {"full_output": 1}
    assert call.slots == ((3, (0,)),)
    assert call.label(0) == "argument 3 ('args')[0]"


def test_positions_in_between_take_the_keywords_given_or_the_defaults() -> None:
    t = Traced(0.7)

    def f(x: Any, a: Any = "default a", b: Any = "default b", c: Any = None) -> Any:
        return None

    call = locate(f, (1.0,), {"b": "given b", "c": t}, traced)
    assert call is not None
    assert call.args == (1.0, "default a", "given b", t) and call.kwargs == {}
    # a traced keyword argument before another traced one
    call = locate(f, (1.0,), {"c": t, "a": t}, traced)
    assert call is not None
    assert call.args == (1.0, t, "default b", t) and call.slots == ((1, ()), (3, ()))


def test_untraced_keyword_arguments_stay_keywords() -> None:
    call = locate(integrate, (None, Traced(0.0), 1.0), {"args": (2.0,), "weight": "cos"}, traced)
    assert call is not None and call.args == (None, call.values[0], 1.0)
    assert call.kwargs == {"args": (2.0,), "weight": "cos"}


def test_keywords_are_not_searched_when_asked_not_to() -> None:
    assert locate(integrate, (None, 0.0, 1.0), {"args": (Traced(1.0),)}, traced, bind_keywords=False) is None


@pytest.mark.parametrize(("kwargs", "how"), [
    ({"weight": Traced(1.0)}, "takes it only by keyword"),
    ({"epsabs": Traced(1.0)}, r"takes it through \*\*kwargs"),
])
def test_a_traced_keyword_without_a_position_is_an_error(kwargs: dict[str, Any], how: str) -> None:
    key = next(iter(kwargs))
    with pytest.raises(KeywordArgumentError, match=rf"integrate: the keyword argument '{key}' holds a traced value, "
                                                   rf"but \S*integrate {how}"):
        locate(integrate, (None, 0.0, 1.0), kwargs, traced)


def test_a_traced_keyword_of_a_function_without_a_readable_signature_is_an_error() -> None:
    with pytest.raises(KeywordArgumentError, match=r"max: the keyword argument 'key' holds a traced value, and the "
                                                   "signature of max cannot be read"):
        locate(max, (1.0, 2.0), {"key": [Traced(1.0)]}, traced)


def test_a_traced_keyword_of_a_positional_only_parameter_is_an_error() -> None:
    with pytest.raises(KeywordArgumentError, match=r"'arrays' .* takes it only by position"):
        locate(np.concatenate, (), {"arrays": [Traced(1.0)]}, traced)


def test_binding_errors_python_would_raise() -> None:
    def f(x: Any, y: Any, z: Any = None) -> Any:
        return None

    with pytest.raises(TypeError, match="multiple values for argument 'x'"):
        locate(f, (1.0,), {"x": Traced(1.0)}, traced)
    with pytest.raises(TypeError, match="missing required argument 'y'"):
        locate(f, (1.0,), {"z": Traced(1.0)}, traced)


# ---- rebuilding the arguments ------------------------------------------------------------------------------
def test_rebuild_makes_new_containers_of_the_same_types() -> None:
    t0, t1, t2 = Traced(0.0), Traced(1.0), Traced(2.0)
    ordered = collections.OrderedDict([("a", t1), ("b", 5)])
    args = ([t0, 3], Pair(x=t2, t=4), ordered, "unchanged")
    call = locate(integrate, args, {}, traced)
    assert call is not None
    assert call.values == (t0, t2, t1)  # in the order of the arguments
    rebuilt = call.rebuild([10.0, 12.0, 11.0])
    assert rebuilt == [[10.0, 3], Pair(x=12.0, t=4), collections.OrderedDict([("a", 11.0), ("b", 5)]), "unchanged"]
    assert type(rebuilt[1]) is Pair and type(rebuilt[2]) is collections.OrderedDict
    assert args[0] == [t0, 3] and ordered["a"] is t1  # the caller's containers are untouched


def test_select_keeps_the_other_traced_values_in_place() -> None:
    t0, t1 = Traced(0.0), Traced(1.0)
    call = locate(integrate, ((t0, t1),), {}, traced)
    assert call is not None
    inner = call.select([False, True])
    assert inner.slots == ((0, (1,)),) and inner.values == (t1,)
    assert inner.rebuild([5.0]) == [(t0, 5.0)]


# ---- cotangents of the traced values ------------------------------------------------------------------------
def test_take_reads_structural_and_plain_cotangents() -> None:
    t = [Traced(float(i)) for i in range(5)]
    args = ((t[0], 1), [t[1]], {"k": t[2]}, Pair(x=t[3], t=2), [t[4], 7])
    call = locate(integrate, args, {}, traced)
    assert call is not None
    cts = [Thunk(lambda: Tangent(tuple, 1.5, NoTangent())), [2.5], {"k": 3.5}, Tangent(Pair, x=4.5),
           np.array([5.5, 0.0])]
    assert call.take(cts) == [1.5, 2.5, 3.5, 4.5, 5.5]
    lazy = Thunk(lambda: 3.5)
    assert call.take([ZeroTangent(), ZeroTangent(), {"k": lazy}, ZeroTangent(), ZeroTangent()])[2] is lazy


def test_take_passes_zeros_and_not_implemented_down() -> None:
    call = locate(integrate, ((Traced(0.0), {"k": Traced(1.0)}), [Traced(2.0)]), {}, traced)
    assert call is not None
    missing = not_implemented("no derivative for the list")
    taken = call.take([Tangent(tuple, ZeroTangent(), Tangent(dict, {})), missing])
    assert isinstance(taken[0], ZeroTangent) and isinstance(taken[1], ZeroTangent)  # a missing key is a zero
    assert taken[2] is missing


def test_take_refuses_a_cotangent_that_is_not_structural() -> None:
    call = locate(integrate, ((Traced(0.0), 1.0),), {}, traced)
    assert call is not None
    with pytest.raises(TypeError, match=r"integrate: the rule gave argument 0 \('f'\)\[0\] the \(co\)tangent float"):
        call.take([3.0])


def test_put_assembles_structural_tangents() -> None:
    t0, t1, t2 = Traced(0.0), Traced(1.0), Traced(2.0)
    args = (t0, (t1, 3), {"a": [t2, 1.0], "b": "s"}, 4.0)
    call = locate(integrate, args, {}, traced)
    assert call is not None
    plain = call.rebuild([0.0, 1.0, 2.0])

    def fill(x: Any) -> Any:
        return ZeroTangent() if isinstance(x, float) else NoTangent()

    out = call.put([10.0, 11.0, 12.0], fill, plain)
    assert out[0] == 10.0
    assert out[1] == Tangent(tuple, 11.0, NoTangent())
    assert out[2] == Tangent(dict, {"a": Tangent(list, 12.0, ZeroTangent()), "b": NoTangent()})
    assert isinstance(out[3], ZeroTangent)


def test_a_bound_call_can_be_made_for_plain_positions() -> None:
    call = BoundCall(np.add, (1.0, 2.0), {}, ((1, ()),), (2.0,))
    assert call.flat and call.take([None, 7.0]) == [7.0]


# ---- names -------------------------------------------------------------------------------------------------
def test_names_for_messages() -> None:
    assert function_name(np.linalg.eigh) == "numpy.linalg.eigh"
    assert argument_label(integrate, 3, (0,)) == "argument 3 ('args')[0]"
    assert argument_label(integrate, 2, ("k", 1)) == "argument 2 ('b')['k'][1]"
    assert argument_label(lambda *xs: None, 1) == "argument 1 ('xs[1]')"


def test_a_distributions_method_binds_shapes_loc_and_scale_by_keyword():
    import scipy.stats as st

    p, scale = Traced(0.3), Traced(2.0)
    call = locate(st.binom.pmf, (np.arange(3),), {"n": 5, "p": p}, traced)
    assert call.args[1:] == (5, p) and call.slots == ((2, ()),) and call.kwargs == {}
    call = locate(st.norm.logpdf, (np.zeros(2),), {"scale": scale}, traced)  # loc takes its default
    assert call.args[1:] == (0, scale) and call.slots == ((2, ()),)
    assert argument_label(st.norm.logpdf, 1) == "argument 1 ('loc')"
    with pytest.raises(KeywordArgumentError, match="'bogus'"):
        locate(st.norm.logpdf, (np.zeros(2),), {"bogus": scale}, traced)
