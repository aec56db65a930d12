"""The rule registries: calling convention, registration, lookup, configs, functors, constructors,
bound methods, specificity, ambiguity, introspection, hooks, opt-out, caching and threads.

Each test registers rules on functions of its own (``make_function``), so tests do not see each
other's rules. Where a derivative is checked it is checked with ``chainrules.testing``; elsewhere
the rules return markers that say which implementation ran.
"""

from __future__ import annotations

import abc
import array
import dataclasses
import numbers
import sys
import threading
import typing
import warnings
from collections.abc import Sequence

import numpy as np
import pytest

from chainrules.testing import PrimalAndTangent, test_frule, test_rrule
from chainrules_core import (
    OPTED_OUT,
    AmbiguousRuleWarning,
    HasForwardsMode,
    HasReverseMode,
    NoForwardsMode,
    NoReverseMode,
    NoTangent,
    ProjectTo,
    RuleConfig,
    RuleHookWarning,
    RuleOverwriteWarning,
    RuleSignature,
    Tangent,
    Varargs,
    ZeroTangent,
    frule,
    opt_out,
    rrule,
    unthunk,
)


def make_function(name="f"):
    """A new function object (each has its own rule table)."""

    def function(*args, **kwargs):
        return ("called", args, kwargs)

    function.__name__ = function.__qualname__ = name
    return function


def marker_rrule(label):
    """An rrule implementation that returns ``label`` as its output (which rule ran)."""

    def implementation(*args, **kwargs):
        def marker_pullback(dy):
            return (NoTangent(),) + (dy,) * len(args)

        return (label, args, kwargs), marker_pullback

    implementation.__name__ = implementation.__qualname__ = f"rrule_{label}"
    return implementation


def text(signature):
    """A signature as text, without this module's name."""
    return str(signature).replace(f"{__name__}.", "")


def ran(result):
    """The label of the rule that produced ``result`` (None when no rule applied)."""
    return None if result is None else result[0][0]


class Reverse(RuleConfig, HasReverseMode, NoForwardsMode):
    pass


class Forward(RuleConfig, HasForwardsMode, NoReverseMode):
    pass


class Both(RuleConfig, HasReverseMode, HasForwardsMode):
    pass


class Neither(RuleConfig, NoReverseMode, NoForwardsMode):
    pass


# ---- a real rule, checked against finite differences -----------------------------------------------
def scaled_square(x, scale=2.0):
    return scale * x**2


@rrule.register(scaled_square, (float, np.ndarray))
def scaled_square_rrule(x, scale=2.0):
    project_x, project_scale = ProjectTo(x), ProjectTo(scale)

    def scaled_square_pullback(dy):
        dy = unthunk(dy)
        dscale = project_scale(np.sum(np.conj(x**2) * dy)) if np.ndim(scale) == 0 else ZeroTangent()
        return NoTangent(), project_x(2 * np.conj(scale * x) * dy), dscale

    return scaled_square(x, scale), scaled_square_pullback


@frule.register(scaled_square, (float, np.ndarray))
def scaled_square_frule(tangents, x, scale=2.0):
    _, dx, dscale = tangents
    dscale = 0.0 if isinstance(dscale, NoTangent) else dscale
    return scaled_square(x, scale), 2 * scale * x * dx + x**2 * dscale


def test_calling_convention_checked_against_finite_differences():
    x = np.array([0.5, -1.0, 2.0])
    y, pullback = rrule(scaled_square, x)
    np.testing.assert_array_equal(y, scaled_square(x))
    cotangents = pullback(np.ones(3))
    assert isinstance(cotangents, tuple) and len(cotangents) == 2 and cotangents[0] is NoTangent()
    test_rrule(scaled_square, x)
    test_frule(scaled_square, x)
    test_rrule(scaled_square, 1.5)
    test_rrule(scaled_square, x.astype(np.float32))


def test_optional_positional_parameters_by_position_and_by_keyword():
    x = np.array([0.5, -1.0, 2.0])
    test_rrule(scaled_square, x, 3.0)                        # by position: differentiated
    test_frule(scaled_square, x, 3.0)
    test_rrule(scaled_square, x, fkwargs={"scale": 3.0})    # by keyword: never differentiated
    test_frule(scaled_square, x, fkwargs={"scale": 3.0})


def test_optional_parameters_padding_and_trimming():
    f = make_function()
    seen = []

    @rrule.register(f, float)
    def f_rrule(x, a=1.0, b=2.0):
        seen.append((x, a, b))

        def f_pullback(dy):
            return NoTangent(), "dx", "da", "db"  # the implementation always answers for all

        return "y", f_pullback

    @frule.register(f, float)
    def f_frule(tangents, x, a=1.0, b=2.0):
        seen.append(tangents)
        return "y", "dy"

    assert rrule(f, 1.0)[1](1.0) == (NoTangent(), "dx")                 # trimmed to what was passed
    assert rrule(f, 1.0, 5.0)[1](1.0) == (NoTangent(), "dx", "da")
    assert rrule(f, 1.0, 5.0, 6.0)[1](1.0) == (NoTangent(), "dx", "da", "db")
    assert rrule(f, 1.0, b=6.0)[1](1.0) == (NoTangent(), "dx")          # keywords are not differentiated
    assert seen[-1] == (1.0, 1.0, 6.0)
    frule(("df", "dx"), f, 1.0)
    assert seen[-1] == ("df", "dx", NoTangent(), NoTangent())           # padded with NoTangent()
    frule(("df", "dx", "da"), f, 1.0, 5.0, b=3.0)
    assert seen[-1] == ("df", "dx", "da", NoTangent())
    assert rrule(f, 1.0, 5.0, 6.0, 7.0) is None                         # more than the rule takes
    assert text(rrule.signatures(f)[0]) == "f(float, [object], [object])"


def test_no_rule_answers_none():
    f = make_function()
    assert rrule(f, 1.0) is None
    assert frule((NoTangent(), 1.0), f, 1.0) is None
    assert rrule(Both(), f, 1.0) is None
    assert rrule(f) is None
    assert rrule(len, [1]) is None  # a builtin
    assert rrule("not callable", 1.0) is None


def test_keywords_reach_the_rule_and_never_take_part_in_dispatch():
    f = make_function()
    rrule.register(f, float)(marker_rrule("float"))
    y, _ = rrule(f, 1.0, axis=0, anything="x")
    assert y == ("float", (1.0,), {"axis": 0, "anything": "x"})
    assert ran(rrule(f, 1, axis=0)) is None

    @frule.register(f, float)
    def f_frule(tangents, x, *, keepdims=False):
        return ("frule", keepdims), tangents[1]

    assert frule((NoTangent(), 2.0), f, 1.0, keepdims=True) == (("frule", True), 2.0)


@pytest.mark.parametrize("n", [0, 1, 2, 3, 5])
def test_any_number_of_arguments(n):
    f = make_function()
    if n:  # given types that reach into *args fix those positions
        rrule.register(f, *([float] * n))(marker_rrule(f"n{n}"))
        frule.register(f, *([float] * n))(lambda tangents, *xs: (("frule", len(xs)), sum(tangents[1:])))
    else:  # with no types, *args would stay open: a rule of no arguments takes none
        rrule.register(f)(lambda: (("n0", (), {}), None))
        frule.register(f)(lambda tangents: (("frule", 0), 0))

    args = (1.0,) * n
    assert ran(rrule(f, *args)) == f"n{n}"
    assert ran(rrule(f, *args, 2.0)) is None
    assert frule((NoTangent(),) + (1.0,) * n, f, *args) == (("frule", n), n)
    if n:
        assert ran(rrule(f, *args[:-1], 1)) is None
    with pytest.raises(TypeError, match=f"got {n + 2} tangents for {n} argument"):
        frule((NoTangent(),) + (1.0,) * (n + 1), f, *args)


# ---- how argument types are declared ---------------------------------------------------------------
def test_types_from_explicit_types_annotations_or_nothing():
    f, g, h = make_function("f"), make_function("g"), make_function("h")
    rrule.register(f, float, np.ndarray)(marker_rrule("explicit"))

    @rrule.register(g)
    def g_rrule(x: float, y: np.ndarray):
        return ("annotated", x, y), None

    @rrule.register(h)
    def h_rrule(x, y: int):  # an unannotated parameter matches anything
        return ("partly annotated", x, y), None

    assert ran(rrule(f, 1.0, np.ones(1))) == "explicit"
    assert rrule(f, 1, np.ones(1)) is None
    assert ran(rrule(g, 1.0, np.ones(1))) == "annotated"
    assert rrule(g, 1.0, 1.0) is None
    assert ran(rrule(h, "anything", 3)) == "partly annotated"
    assert ran(rrule(h, None, 3)) == "partly annotated"
    assert rrule(h, "anything", 3.0) is None


def test_explicit_types_cover_the_first_parameters_and_annotations_the_rest():
    f = make_function()

    @rrule.register(f, np.ndarray)
    def f_rrule(x, y: int):
        return ("mixed", x, y), None

    assert ran(rrule(f, np.ones(1), 2)) == "mixed"
    assert rrule(f, np.ones(1), 2.0) is None


def test_string_annotations_resolve_classes_defined_next_to_the_rule():
    # This module uses `from __future__ import annotations`: every annotation is a string.
    class Local:
        pass

    f = make_function()

    @rrule.register(f)
    def f_rrule(x: Local, y: np.ndarray | None = None):
        return ("local", x, y), None

    assert ran(rrule(f, Local())) == "local"
    assert ran(rrule(f, Local(), None)) == "local"
    assert rrule(f, 1.0) is None


def test_unresolvable_annotation_is_a_clear_error():
    f = make_function()

    def f_rrule(x: NotDefinedAnywhere):  # noqa: F821
        return x, None

    with pytest.raises(TypeError, match=r"cannot resolve the annotations of .*f_rrule.*NotDefinedAnywhere.*"
                                        r"pass the argument types to register"):
        rrule.register(f)(f_rrule)


class Shape(abc.ABC):
    @abc.abstractmethod
    def area(self): ...


class Square(Shape):
    def area(self):
        return 1.0


class Registered:  # a virtual subclass of Shape
    pass


Shape.register(Registered)


@pytest.mark.parametrize("declared, accepted, rejected", [
    (numbers.Real, [1.0, 2, np.float32(1.0), np.int64(3), True], [1j, "a", np.ones(1)]),
    (numbers.Number, [1.0, 1j, np.complex64(1)], ["a", np.ones(1)]),
    (np.floating, [np.float32(1), np.float64(1), np.float16(1)], [1.0, 1, np.int32(1)]),
    (np.ndarray, [np.ones(2), np.ma.masked_array([1.0]), np.ones((), int)], [1.0, [1.0]]),
    (Sequence, [[1], (1,), "ab", range(2)], [{1}, {"a": 1}, 1.0]),
    (Shape, [Square(), Registered()], [1.0, object()]),
], ids=["numbers.Real", "numbers.Number", "np.floating", "np.ndarray", "Sequence", "user ABC"])
def test_abstract_types(declared, accepted, rejected):
    f = make_function()
    rrule.register(f, declared)(marker_rrule("abstract"))
    for value in accepted:
        assert ran(rrule(f, value)) == "abstract", value
    for value in rejected:
        assert rrule(f, value) is None, value


def test_unions():
    f, g, h = make_function("f"), make_function("g"), make_function("h")
    rrule.register(f, (float, np.ndarray), int)(marker_rrule("tuple union"))

    @rrule.register(g)
    def g_rrule(x: float | np.ndarray):
        return ("pipe union", x), None

    @rrule.register(h)
    def h_rrule(x: typing.Union[int, str], y: typing.Optional[float] = None):  # noqa: UP007, UP045
        return ("typing union", x, y), None

    assert ran(rrule(f, 1.0, 1)) == ran(rrule(f, np.ones(1), 1)) == "tuple union"
    assert rrule(f, 1, 1) is None
    assert ran(rrule(g, 1.0)) == ran(rrule(g, np.ones(1))) == "pipe union"
    assert ran(rrule(h, 1)) == ran(rrule(h, "a", None)) == ran(rrule(h, "a", 2.0)) == "typing union"
    assert rrule(h, 1.0) is None
    assert text(rrule.signatures(f)[0]) == "f((float | ndarray), int)"


def test_variadic_tails():
    f, g = make_function("f"), make_function("g")
    rrule.register(f, np.ndarray, Varargs(float))(marker_rrule("explicit varargs"))

    @rrule.register(g)
    def g_rrule(first: int, *rest: float):
        return ("annotated varargs", first, rest), None

    assert ran(rrule(f, np.ones(1))) == "explicit varargs"
    assert ran(rrule(f, np.ones(1), 1.0, 2.0, 3.0)) == "explicit varargs"
    assert rrule(f, np.ones(1), 1.0, 2) is None
    assert rrule(f) is None
    assert ran(rrule(g, 1)) == ran(rrule(g, 1, 2.0, 3.0)) == "annotated varargs"
    assert rrule(g, 1, "a") is None
    assert text(rrule.signatures(f)[0]) == "f(ndarray, *float)"
    assert repr(Varargs(float)) == "Varargs(float)"
    h = make_function("h")
    rrule.register(h, Varargs(int, float))(marker_rrule("union varargs"))
    assert ran(rrule(h, 1, 2.0, 3)) == "union varargs"


def test_a_rule_of_no_arguments():
    f = make_function()

    @rrule.register(f)
    def f_rrule():
        return "nothing", lambda dy: (NoTangent(),)

    @frule.register(f)
    def f_frule(tangents):
        return "nothing", ZeroTangent()

    assert rrule(f)[0] == "nothing"
    assert frule((NoTangent(),), f) == ("nothing", ZeroTangent())
    assert rrule(f, 1.0) is None


# ---- configs ----------------------------------------------------------------------------------------
def test_rule_requiring_a_trait_is_found_only_for_configs_with_it():
    f = make_function()

    @rrule.register(f, float, config=HasReverseMode)
    def f_rrule(config, x):
        return ("needs reverse", config, x), None

    assert rrule(Reverse(), f, 1.0)[0][:2] == ("needs reverse", Reverse()) or ran(rrule(Reverse(), f, 1.0))
    y, _ = rrule(Both(), f, 1.0)
    assert y[0] == "needs reverse" and isinstance(y[1], Both)  # the implementation receives the config
    assert rrule(Forward(), f, 1.0) is None
    assert rrule(Neither(), f, 1.0) is None
    assert rrule(f, 1.0) is None  # no config at all
    assert rrule(Both(), f, 1) is None


def test_rules_without_a_config_serve_every_config():
    f = make_function()
    rrule.register(f, float)(marker_rrule("general"))
    for config in (Reverse(), Forward(), Both(), Neither()):
        y, _ = rrule(config, f, 1.0)
        assert y == ("general", (1.0,), {})  # the config is not passed to it


def test_a_trait_rule_is_more_specific_than_a_general_one():
    f = make_function()
    rrule.register(f, float)(marker_rrule("general"))

    @rrule.register(f, float, config=HasForwardsMode)
    def f_rrule(config, x):
        return ("forward-capable", x), None

    assert ran(rrule(Forward(), f, 1.0)) == "forward-capable"
    assert ran(rrule(Both(), f, 1.0)) == "forward-capable"
    assert ran(rrule(Reverse(), f, 1.0)) == "general"
    assert ran(rrule(f, 1.0)) == "general"


def test_rule_for_one_config_class():
    f = make_function()

    @frule.register(f, float, config=Forward)
    def f_frule(config, tangents, x):
        return ("only Forward", type(config).__name__, tangents), tangents[1]

    assert frule(Forward(), (NoTangent(), 2.0), f, 1.0) == (("only Forward", "Forward", (NoTangent(), 2.0)), 2.0)
    assert frule(Both(), (NoTangent(), 2.0), f, 1.0) is None
    assert frule((NoTangent(), 2.0), f, 1.0) is None


def test_config_paths_with_several_arguments_and_keywords():
    f = make_function()

    @rrule.register(f, float, float, config=HasReverseMode)
    def f_rrule(config, x, y, *, k=0):
        return ("two", x, y, k), None

    @frule.register(f, float, float, config=HasForwardsMode)
    def f_frule(config, tangents, x, y, *, k=0):
        return ("two", x, y, k), tangents[1] + tangents[2]

    assert rrule(Both(), f, 1.0, 2.0, k=3)[0] == ("two", 1.0, 2.0, 3)
    assert frule(Both(), (NoTangent(), 1.0, 2.0), f, 1.0, 2.0, k=3) == (("two", 1.0, 2.0, 3), 3.0)
    with pytest.raises(TypeError, match="got 2 tangents for 2 arguments"):
        frule(Both(), (NoTangent(), 1.0), f, 1.0, 2.0)


# ---- functors ----------------------------------------------------------------------------------------
@dataclasses.dataclass
class Polynomial:
    """A callable object: its coefficients are differentiable (and it is unhashable: eq=True)."""

    coefficients: np.ndarray

    def __call__(self, x):
        return np.polyval(self.coefficients, x)


@rrule.register_functor(Polynomial, float)
def polynomial_rrule(p, x):
    c = p.coefficients
    n = len(c)
    powers = x ** np.arange(n - 1, -1, -1)
    derivative = np.polyval(np.polyder(c), x) if n > 1 else 0.0

    def polynomial_pullback(dy):
        dy = unthunk(dy)
        return Tangent(Polynomial, coefficients=powers * dy), derivative * dy

    return p(x), polynomial_pullback


@frule.register_functor(Polynomial, float)
def polynomial_frule(tangents, p, x):
    dp, dx = tangents
    c = p.coefficients
    dy = np.polyval(np.polyder(c), x) * dx if len(c) > 1 else 0.0
    if not isinstance(dp, NoTangent):
        dy = dy + np.polyval(dp.coefficients, x)
    return p(x), dy


def test_functor_receives_the_instance_and_returns_its_tangent_first():
    p = Polynomial(np.array([1.0, -2.0, 0.5]))
    with pytest.raises(TypeError):
        hash(p)  # unhashable instances are looked up by their class
    dp = Tangent(Polynomial, coefficients=np.array([0.1, 0.2, -0.3]))
    test_rrule(PrimalAndTangent(p, dp), 0.7)
    test_frule(PrimalAndTangent(p, dp), 0.7)
    test_rrule(p, 0.7)
    _, pullback = rrule(p, 0.7)
    assert isinstance(pullback(1.0)[0], Tangent)
    assert rrule(p, 1) is None
    assert rrule(Both(), p, 0.7)[0] == p(0.7)


def test_functor_rules_serve_subclasses_and_hashable_instances():
    class Adder:
        def __init__(self, a):
            self.a = a

        def __call__(self, x):
            return self.a + x

    class LoudAdder(Adder):
        pass

    @rrule.register_functor(Adder, float)
    def adder_rrule(adder, x):
        return ("functor", adder.a, x), None

    assert ran(rrule(Adder(1.0), 2.0)) == "functor"
    assert ran(rrule(LoudAdder(1.0), 2.0)) == "functor"
    assert rrule(Adder, 2.0) is None  # calling the class is a constructor, not the functor
    assert rrule.find(Adder(1.0), float) is adder_rrule
    assert [s.functor for s in rrule.signatures(Adder)] == [True]
    assert str(rrule.signatures(Adder)[0]).startswith("<instance of ")


def test_functor_registered_after_an_instance_was_looked_up():
    class Late:
        def __call__(self, x):
            return x

    @dataclasses.dataclass
    class LateUnhashable:
        def __call__(self, x):
            return x

    hashable, unhashable = Late(), LateUnhashable()
    assert rrule(hashable, 1.0) is None and rrule(unhashable, 1.0) is None  # negative answers, cached
    assert frule((NoTangent(), 1.0), hashable, 1.0) is None
    rrule.register_functor(Late, float)(marker_rrule("late"))
    rrule.register_functor(LateUnhashable, float)(marker_rrule("late unhashable"))
    frule.register_functor(Late, float)(lambda tangents, late, x: ("late frule", tangents[1]))
    assert ran(rrule(hashable, 1.0)) == "late"
    assert ran(rrule(unhashable, 1.0)) == "late unhashable"
    assert frule((NoTangent(), 1.0), hashable, 1.0) == ("late frule", 1.0)


# ---- constructors -----------------------------------------------------------------------------------
class Celsius:
    def __init__(self, degrees):
        self.degrees = degrees


class Reading(Celsius):
    pass


def test_constructor_rule():
    class Kelvin:
        def __init__(self, degrees):
            self.degrees = degrees

    class Warm(Kelvin):
        pass

    @rrule.register(Kelvin, float)
    def kelvin_rrule(degrees):
        def kelvin_pullback(dk):
            return NoTangent(), unthunk(dk).degrees

        return Kelvin(degrees), kelvin_pullback

    y, pullback = rrule(Kelvin, 300.0)
    assert type(y) is Kelvin and y.degrees == 300.0
    assert pullback(Tangent(Kelvin, degrees=2.0)) == (NoTangent(), 2.0)
    assert rrule(Warm, 300.0) is None  # not extended to subclasses by default
    assert rrule(Kelvin, 300) is None


def test_constructor_rule_for_subclasses_receives_the_class():
    class Base:
        def __init__(self, value, scale=1.0):
            self.value, self.scale = value, scale

    class Child(Base):
        pass

    class Grandchild(Child):
        pass

    @rrule.register(Base, float, subclasses=True)
    def base_rrule(cls, value, scale=1.0):
        def base_pullback(dbase):
            dbase = unthunk(dbase)
            return NoTangent(), dbase.value, dbase.scale

        return cls(value, scale), base_pullback

    @frule.register(Base, float, subclasses=True)
    def base_frule(tangents, cls, value, scale=1.0):
        return cls(value, scale), Tangent(cls, value=tangents[1])

    for cls in (Base, Child, Grandchild):
        y, pullback = rrule(cls, 2.0)
        assert type(y) is cls and y.value == 2.0
        assert pullback(Tangent(cls, value=1.0, scale=3.0)) == (NoTangent(), 1.0)  # trimmed: scale not passed
        assert pullback is not None and rrule(cls, 2.0, 3.0)[1](Tangent(cls, value=1.0, scale=3.0)) == (
            NoTangent(), 1.0, 3.0)
        y, dy = frule((NoTangent(), 5.0), cls, 2.0)
        assert type(y) is cls and dy == Tangent(cls, value=5.0)
    assert rrule.find(Grandchild, float) is base_rrule
    assert str(rrule.signatures(Base)[0]) == f"{Base.__module__}.{Base.__qualname__}(float, [object]) " \
                                            "[and subclasses]"

    @rrule.register(Child, float)
    def child_rrule(value):  # a rule of the subclass itself wins there (and only there)
        return ("child's own", value), None

    assert ran(rrule(Child, 2.0)) == "child's own"
    assert type(rrule(Grandchild, 2.0)[0]) is Grandchild
    assert type(rrule(Base, 2.0)[0]) is Base


def test_subclass_constructor_rule_registered_after_a_lookup():
    class Late:
        def __init__(self, x):
            self.x = x

    class LateChild(Late):
        pass

    assert rrule(LateChild, 1.0) is None
    rrule.register(Late, float, subclasses=True)(lambda cls, x: (("late", cls), None))
    assert rrule(LateChild, 1.0)[0] == ("late", LateChild)


def test_subclass_constructor_rule_with_a_config():
    class Thing:
        def __init__(self, x):
            self.x = x

    class SubThing(Thing):
        pass

    @rrule.register(Thing, float, subclasses=True, config=HasReverseMode)
    def thing_rrule(config, cls, x):
        return ("configured", type(config).__name__, cls), None

    assert rrule(Reverse(), SubThing, 1.0)[0] == ("configured", "Reverse", SubThing)
    assert rrule(SubThing, 1.0) is None


# ---- bound methods ----------------------------------------------------------------------------------
def test_bound_ndarray_method_is_the_method_on_the_class_with_the_array_first():
    # Uses the library's own rule for np.ndarray.sum (registering one here would replace it).
    a = np.array([[1.0, 2.0], [3.0, 4.0]])
    assert rrule.find(np.ndarray.sum, np.ndarray) is not None
    assert rrule.find(a.sum) is rrule.find(np.ndarray.sum, np.ndarray)
    for bound_args, unbound_args in [((), (a,)), ((0,), (a, 0))]:
        y, pullback = rrule(a.sum, *bound_args)
        y_ref, pullback_ref = rrule(np.ndarray.sum, *unbound_args)
        np.testing.assert_array_equal(y, y_ref)
        dy = np.ones(np.shape(y))
        cotangents = pullback(dy)
        assert len(cotangents) == 1 + len(unbound_args)  # the function's, the array's, then the rest
        for got, expected in zip(cotangents, pullback_ref(dy)):
            np.testing.assert_array_equal(unthunk(got), unthunk(expected))


def test_bound_builtin_method_of_a_c_type():
    def tolist_rrule(arr):
        def tolist_pullback(dlist):
            return NoTangent(), array.array(arr.typecode, unthunk(dlist))

        return arr.tolist(), tolist_pullback

    rrule.register(array.array.tolist, array.array)(tolist_rrule)
    values = array.array("d", [1.0, 2.0])
    y, pullback = rrule(values.tolist)
    assert y == [1.0, 2.0]
    df, dvalues = pullback([3.0, 4.0])
    assert df is NoTangent() and dvalues == array.array("d", [3.0, 4.0])
    assert rrule.find(values.tolist) is tolist_rrule
    assert rrule(values.count, 1.0) is None  # another method of the same class has no rule


class Account:
    def __init__(self, balance):
        self.balance = balance

    def interest(self, rate):
        return self.balance * rate


class Savings(Account):
    pass


@rrule.register(Account.interest, Account, float)
def interest_rrule(account, rate):
    def interest_pullback(dy):
        dy = unthunk(dy)
        return NoTangent(), Tangent(Account, balance=rate * dy), account.balance * dy

    return account.interest(rate), interest_pullback


@frule.register(Account.interest, Account, float)
def interest_frule(tangents, account, rate):
    _, daccount, drate = tangents
    dbalance = 0.0 if isinstance(daccount, NoTangent) else daccount.balance
    return account.interest(rate), dbalance * rate + account.balance * drate


def test_bound_python_method_finds_the_rule_on_the_class():
    account = Savings(100.0)
    y, pullback = rrule(account.interest, 0.05)
    assert y == 5.0
    df, daccount, drate = pullback(1.0)
    assert df is NoTangent()
    assert daccount == Tangent(Account, balance=0.05) and drate == 100.0
    assert frule((NoTangent(), Tangent(Account, balance=1.0), 1.0), account.interest, 0.05) == (5.0, 100.05)
    assert rrule(Reverse(), account.interest, 0.05)[0] == 5.0
    assert rrule.find(account.interest, float) is interest_rrule
    assert rrule(account.interest, 1) is None


# ---- specificity and ambiguity ------------------------------------------------------------------
def test_the_most_specific_signature_wins_whatever_the_order():
    for order in ([object, numbers.Real, float], [float, numbers.Real, object]):
        f = make_function()
        for t in order:
            rrule.register(f, t)(marker_rrule(t.__name__))
        assert ran(rrule(f, 1.0)) == "float"
        assert ran(rrule(f, 1)) == "Real"
        assert ran(rrule(f, "x")) == "object"
    g = make_function()
    rrule.register(g, np.ndarray, np.ndarray)(marker_rrule("both arrays"))
    rrule.register(g, object, object)(marker_rrule("anything"))
    rrule.register(g, np.ndarray, object)(marker_rrule("first array"))
    assert ran(rrule(g, np.ones(1), np.ones(1))) == "both arrays"
    assert ran(rrule(g, np.ones(1), 1.0)) == "first array"
    assert ran(rrule(g, 1.0, np.ones(1))) == "anything"
    h = make_function()
    rrule.register(h, np.ndarray)(marker_rrule("ndarray"))
    rrule.register(h, np.ma.MaskedArray)(marker_rrule("masked"))
    assert ran(rrule(h, np.ma.masked_array([1.0]))) == "masked"
    assert ran(rrule(h, np.ones(1))) == "ndarray"


def test_ambiguous_registrations_are_reported_when_registered():
    f = make_function()
    rrule.register(f, float, object)(marker_rrule("first"))
    with pytest.warns(AmbiguousRuleWarning, match=r"\(object, float\) and \(float, object\) .* are ambiguous"):
        rrule.register(f, object, float)(marker_rrule("second"))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the rule for the intersection resolves it, silently
        rrule.register(f, float, float)(marker_rrule("intersection"))
    assert ran(rrule(f, 1.0, 1.0)) == "intersection"
    assert ran(rrule(f, 1.0, "x")) == "first"
    assert ran(rrule(f, "x", 1.0)) == "second"


def test_replacing_a_rule_warns_but_redefining_it_does_not():
    f = make_function()
    rrule.register(f, float)(marker_rrule("old"))
    with pytest.warns(RuleOverwriteWarning, match="replaces"):
        rrule.register(f, float)(marker_rrule("new"))
    assert ran(rrule(f, 1.0)) == "new"
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the same function redefined (same module and name): no warning
        rrule.register(f, float)(marker_rrule("new"))


# ---- introspection ------------------------------------------------------------------------------
def test_functions_signatures_and_find():
    f = make_function("introspected")
    calls = []

    @rrule.register(f, np.ndarray)
    def f_rrule(x, axis=None):
        calls.append(x)
        return x, None

    @rrule.register(f, float, config=HasReverseMode)
    def f_config_rrule(config, x):
        calls.append(x)
        return x, None

    assert f in rrule.functions()
    assert f not in frule.functions()
    sigs = rrule.signatures(f)
    assert all(isinstance(s, RuleSignature) for s in sigs)
    assert [(s.types, s.n_required, s.config, s.impl) for s in sigs] == [
        ((np.ndarray, object), 1, None, f_rrule), ((float,), 1, HasReverseMode, f_config_rrule)]
    assert [text(s) for s in sigs] == ["introspected(ndarray, [object])",
                                      "introspected(float) [config: HasReverseMode]"]
    assert rrule.find(f, np.ndarray) is f_rrule
    assert rrule.find(f, np.ndarray, int) is f_rrule
    assert rrule.find(f, float) is None
    assert rrule.find(f, float, config=Reverse) is f_config_rrule
    assert rrule.find(f, float, config=Reverse()) is f_config_rrule
    assert rrule.find(f, float, config=Forward()) is None
    assert rrule.find(make_function(), float) is None
    assert calls == []  # nothing was called
    assert rrule.signatures(make_function()) == []


def test_opt_out_answers_none_even_when_a_general_rule_matches():
    f = make_function("total")
    rrule.register(f, np.ndarray)(marker_rrule("general"))
    frule.register(f, np.ndarray)(lambda tangents, x: ("general frule", tangents[1]))
    masked = np.ma.masked_array([1.0, 2.0], mask=[False, True])
    assert ran(rrule(f, masked)) == "general"  # looked up (and cached) before the opt-out
    record = opt_out(rrule, f, np.ma.MaskedArray)
    opt_out(frule, f, np.ma.MaskedArray)
    assert record.opt_out and text(record) == "total(MaskedArray) [opted out]"
    assert rrule(f, masked) is None
    assert frule((NoTangent(), masked), f, masked) is None
    assert rrule(Both(), f, masked) is None
    assert rrule.find(f, np.ma.MaskedArray) is OPTED_OUT
    assert repr(OPTED_OUT) == "OPTED_OUT"
    assert ran(rrule(f, np.ones(2))) == "general"  # other types keep the rule
    assert frule((NoTangent(), 1.0), f, np.ones(2))[0] == "general frule"


def test_opt_out_for_one_trait_only():
    f = make_function()
    rrule.register(f, float)(marker_rrule("general"))
    rrule.opt_out(f, float, config=HasForwardsMode)
    assert rrule(Forward(), f, 1.0) is None
    assert rrule.find(f, float, config=Forward) is OPTED_OUT
    assert ran(rrule(Reverse(), f, 1.0)) == "general"
    assert ran(rrule(f, 1.0)) == "general"


# ---- hooks ----------------------------------------------------------------------------------------
def test_on_new_rule_replays_existing_rules_then_reports_new_ones():
    f = make_function("hooked")
    rrule.register(f, float)(marker_rrule("existing"))
    seen = []
    handle = rrule.on_new_rule(lambda fn, sig: seen.append((fn, text(sig))))
    assert (f, "hooked(float)") in seen
    assert len(seen) >= len(rrule.functions())  # every existing rule, once
    seen.clear()
    rrule.register(f, int)(marker_rrule("later"))
    frule.register(f, int)(lambda tangents, x: (x, tangents[1]))  # a different registry
    assert seen == [(f, "hooked(int)")]
    handle.remove()
    rrule.register(f, str)(marker_rrule("after unsubscribing"))
    assert seen == [(f, "hooked(int)")]
    handle.remove()  # removing twice is harmless


def test_hook_handle_as_callable_and_context_manager():
    f = make_function()
    seen = []
    with frule.on_new_rule(lambda fn, sig: seen.append(fn) if fn is f else None):
        frule.register(f, float)(lambda tangents, x: (x, tangents[1]))
    frule.register(f, int)(lambda tangents, x: (x, tangents[1]))
    assert seen == [f]
    handle = frule.on_new_rule(lambda fn, sig: seen.append(fn) if fn is f else None)
    assert seen == [f, f, f]  # the two existing rules of f were replayed
    handle()
    frule.register(f, str)(lambda tangents, x: (x, tangents[1]))
    assert seen == [f, f, f]


def test_a_raising_hook_is_a_warning_and_registration_still_works():
    def broken_hook(fn, sig):
        raise RuntimeError("hook bug")

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuleHookWarning)  # the replay of existing rules warns too
        handle = rrule.on_new_rule(broken_hook)
    try:
        f = make_function("guarded")
        with pytest.warns(RuleHookWarning, match=r"broken_hook raised RuntimeError: hook bug for .*guarded\(float\)"):
            rrule.register(f, float)(marker_rrule("registered anyway"))
        assert ran(rrule(f, 1.0)) == "registered anyway"
    finally:
        handle.remove()


# ---- caching ------------------------------------------------------------------------------------
def test_registering_for_g_does_not_change_the_answers_for_f():
    f, g = make_function("f"), make_function("g")
    rrule.register(f, float)(marker_rrule("f"))
    impl_before = rrule.find(f, float)
    assert ran(rrule(f, 1.0)) == "f" and rrule(f, 1) is None
    rrule.register(g, float)(marker_rrule("g"))
    rrule.register(g, int)(marker_rrule("g int"))
    assert ran(rrule(f, 1.0)) == "f" and rrule(f, 1) is None
    assert rrule.find(f, float) is impl_before


def test_a_negative_answer_becomes_positive_after_registration():
    f = make_function()
    assert rrule(f, 1.0) is None and rrule(Both(), f, 1.0) is None
    assert frule((NoTangent(), 1.0), f, 1.0) is None and frule(Both(), (NoTangent(), 1.0), f, 1.0) is None
    rrule.register(f, float)(marker_rrule("now"))
    frule.register(f, float)(lambda tangents, x: ("now", tangents[1]))
    assert ran(rrule(f, 1.0)) == "now" and ran(rrule(Both(), f, 1.0)) == "now"
    assert frule((NoTangent(), 1.0), f, 1.0)[0] == "now"
    assert frule(Both(), (NoTangent(), 1.0), f, 1.0)[0] == "now"
    assert rrule(f, 1) is None  # still negative for other types
    rrule.register(f, object)(marker_rrule("general"))
    assert ran(rrule(f, 1)) == "general"
    assert ran(rrule(f, 1.0)) == "now"


def test_a_more_specific_rule_replaces_a_cached_answer():
    f = make_function()
    rrule.register(f, object)(marker_rrule("general"))
    assert ran(rrule(f, 1.0)) == "general" and ran(rrule(Both(), f, 1.0)) == "general"
    rrule.register(f, float)(marker_rrule("specific"))
    assert ran(rrule(f, 1.0)) == "specific" and ran(rrule(Both(), f, 1.0)) == "specific"


def test_concurrent_registration_and_lookup_never_leave_a_stale_answer():
    n_functions, n_readers = 40, 4
    functions = [make_function(f"threaded{i}") for i in range(n_functions)]
    registered = [False] * n_functions   # set by the writer right after each registration returns
    refined = [False] * n_functions
    stale = []
    stop = threading.Event()
    config = Both()

    def reader():
        while not stop.is_set():
            for i, f in enumerate(functions):
                done, specific = registered[i], refined[i]   # read the flags before looking up
                answers = (ran(rrule(f, 1.0)), ran(rrule(config, f, 1.0)),
                           frule((NoTangent(), 1.0), f, 1.0))
                expected = "specific" if specific else "general" if done else None
                if specific:
                    ok = answers[0] == answers[1] == "specific" and answers[2] is not None
                elif done:
                    ok = answers[0] in ("general", "specific") and answers[1] in ("general", "specific")
                else:
                    ok = True
                if not ok:
                    stale.append((i, expected, answers))

    old_interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)  # switch threads often
    threads = [threading.Thread(target=reader) for _ in range(n_readers)]
    try:
        for t in threads:
            t.start()
        for i, f in enumerate(functions):
            rrule.register(f, object)(marker_rrule("general"))
            frule.register(f, object)(lambda tangents, x: ("general", tangents[1]))
            registered[i] = True
        for i, f in enumerate(functions):
            rrule.register(f, float)(marker_rrule("specific"))
            refined[i] = True
    finally:
        stop.set()
        for t in threads:
            t.join()
        sys.setswitchinterval(old_interval)
    assert stale == []
    for f in functions:  # after join every lookup reflects every registration
        assert ran(rrule(f, 1.0)) == "specific"
        assert ran(rrule(config, f, 1.0)) == "specific"
        assert ran(rrule(f, 1)) == "general"
        assert frule((NoTangent(), 1.0), f, 1.0)[0] == "general"


# ---- wrong use ----------------------------------------------------------------------------------
def test_wrong_registrations_are_clear_errors():
    f = make_function("target")
    with pytest.raises(TypeError, match=r"rrule.register\(.*target\): 1.0 is not a type"):
        rrule.register(f, 1.0)(lambda x: (x, None))
    with pytest.raises(TypeError, match="Varargs may only be the last type"):
        rrule.register(f, Varargs(float), float)(lambda *xs: (xs, None))
    with pytest.raises(TypeError, match=r"2 types given but .* takes 1 primal arguments"):
        rrule.register(f, float, float)(lambda x: (x, None))
    with pytest.raises(TypeError, match="config must be a trait or config class"):
        rrule.register(f, float, config=Both())(lambda config, x: (x, None))
    with pytest.raises(TypeError, match="takes 0 positional parameters but needs at least 1"):
        frule.register(f)(lambda: None)  # an frule needs the tangents
    with pytest.raises(TypeError, match="needs a class"):
        rrule.register_functor(f, float)
    with pytest.raises(TypeError, match="subclasses=True\\) needs a class"):
        rrule.register(f, float, subclasses=True)
    assert rrule.signatures(f) == []  # nothing half-registered


def test_wrong_calls_are_clear_errors():
    f = make_function("target")
    frule.register(f, float)(lambda tangents, x: (x, tangents[1]))
    with pytest.raises(TypeError, match=r"tangents must be a tuple .* did you forget the tangents"):
        frule(f, 1.0)
    with pytest.raises(TypeError, match="tangents must be a tuple"):
        frule(np.sin, 0.5)
    with pytest.raises(TypeError, match=r"got 1 tangents for 1 argument; pass \(df, dx\), 2 in all"):
        frule((1.0,), f, 1.0)
    with pytest.raises(TypeError, match="pass an instance of Both, not the class"):
        rrule(Both, f, 1.0)
    with pytest.raises(TypeError, match="missing the function f"):
        rrule(Both())
    with pytest.raises(TypeError, match="missing the function f"):
        frule(Both(), (NoTangent(),))
