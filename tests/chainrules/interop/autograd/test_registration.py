"""``use_chainrules``: chainrules' rules as the derivatives of the functions autograd wraps."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import autograd
import autograd.numpy as anp
import autograd.scipy.linalg as asl
import numpy as np
import pytest
from autograd.core import primitive_jvps, primitive_vjps
from autograd.extend import defjvp, defvjp
from autograd.extend import primitive as autograd_primitive

from chainrules import NoTangent, frule, frule_via_ad, rrule, rrule_via_ad, unthunk
from chainrules.interop.autograd import (
    AutogradConfig,
    AutogradRegistration,
    NoRuleError,
    active_registration,
    autograd_primitives_of,
    use_chainrules,
)
from chainrules.testing import check_approx, test_frule, test_rrule, vjp

CONFIG = AutogradConfig()


def via_autograd_rrule(f: Any, *args: Any) -> None:
    test_rrule(f, *args, config=CONFIG, rrule_f=rrule_via_ad, check_inplace_add=False)


def via_autograd_frule(f: Any, *args: Any) -> None:
    test_frule(f, *args, config=CONFIG, frule_f=frule_via_ad, rrule_f=rrule_via_ad)


@pytest.fixture
def rng() -> np.random.Generator:
    return np.random.default_rng(3)


@pytest.fixture
def untouched() -> Iterator[None]:
    """Check that autograd's tables are as before once the test is done (the test's own primitives aside)."""
    vjps, jvps = dict(primitive_vjps), dict(primitive_jvps)
    assert active_registration() is None
    yield
    assert active_registration() is None
    for table, saved in ((primitive_vjps, vjps), (primitive_jvps, jvps)):
        assert all(table[k] is v for k, v in saved.items())
        assert not any(hasattr(table[k], "chainrules_function") for k in table.keys() - saved.keys())


class Counter:
    """A function autograd wraps with its own VJP and JVP, and that also has chainrules rules, counting calls."""

    def __init__(self) -> None:
        self.rule_calls = 0
        self.autograd_calls = 0

        def double(x: Any) -> Any:
            return 2.0 * x

        self.raw = double
        self.wrapped = autograd_primitive(double)

        def autograd_vjp(ans: Any, x: Any) -> Any:
            self.autograd_calls += 1
            return lambda g: 2.0 * g

        defvjp(self.wrapped, autograd_vjp)
        defjvp(self.wrapped, lambda g, ans, x: 2.0 * g)

        @rrule.register(double, np.ndarray)
        def double_rrule(x: np.ndarray) -> Any:
            self.rule_calls += 1
            return 2.0 * x, lambda dy: (NoTangent(), 2.0 * unthunk(dy))


# ---- gaps autograd has -------------------------------------------------------------------------------------
def test_a_function_autograd_wraps_without_a_derivative(rng: np.random.Generator, untouched: None) -> None:
    a = 0.4 * rng.standard_normal((3, 3))
    with pytest.raises(NotImplementedError):
        autograd.grad(lambda m: anp.sum(asl.expm(m)))(a)
    with use_chainrules() as registration:
        assert asl.expm in registration.vjps() and asl.expm in registration.jvps()
        via_autograd_rrule(asl.expm, a)
        via_autograd_frule(asl.expm, a)
    with pytest.raises(NotImplementedError):
        autograd.grad(lambda m: anp.sum(asl.expm(m)))(a)


def test_forward_mode_where_autograd_has_only_reverse(rng: np.random.Generator, untouched: None) -> None:
    a = rng.standard_normal((3, 3)) + 3 * np.eye(3)
    with pytest.raises(NotImplementedError):
        autograd.make_jvp(anp.linalg.inv)(a)(np.eye(3))
    with use_chainrules():
        via_autograd_frule(anp.linalg.inv, a)
        via_autograd_frule(lambda m: anp.linalg.slogdet(m)[1], a)


def test_an_argument_autograd_does_not_differentiate(rng: np.random.Generator, untouched: None) -> None:
    x = np.array([0.1, 0.5, 0.9])

    def clipped(lo: Any) -> Any:
        return anp.sum(anp.clip(x, lo, 0.8) ** 2)

    with pytest.raises(NotImplementedError):
        autograd.grad(clipped)(0.3)
    with use_chainrules():
        check_approx(autograd.grad(clipped)(0.3), vjp(None, lambda lo: np.sum(np.clip(x, lo, 0.8) ** 2), 1.0, 0.3)[0])
        # autograd's own derivative for the argument it does differentiate is kept
        via_autograd_rrule(lambda v: anp.sum(anp.clip(v, 0.2, 0.8) ** 2), x + 0.01)


def test_no_rule_for_the_types_keeps_autograds_error(untouched: None) -> None:
    def only_floats(x: Any) -> Any:
        return x + 1

    wrapped = autograd_primitive(only_floats)

    @rrule.register(only_floats, float)
    def only_floats_rrule(x: float) -> Any:
        return x + 1, lambda dy: (NoTangent(), dy)

    with use_chainrules():
        check_approx(autograd.grad(wrapped)(1.0), vjp(None, only_floats, 1.0, 1.0)[0])
        with pytest.raises(NoRuleError, match=r"only_floats\(ndarray\)"):
            autograd.grad(lambda v: anp.sum(wrapped(v)))(np.ones(2))


# ---- replace: whose derivative autograd uses ---------------------------------------------------------------
def test_replace_false_keeps_autograds_own(untouched: None) -> None:
    counter = Counter()
    x = np.array([1.0, 2.0])
    with use_chainrules(replace=False):
        g = autograd.grad(lambda v: anp.sum(counter.wrapped(v)))(x)
    check_approx(g, vjp(None, lambda v: np.sum(2.0 * v), 1.0, x)[0])
    assert (counter.autograd_calls, counter.rule_calls) == (1, 0)


def test_replace_true_uses_the_rule(untouched: None) -> None:
    counter = Counter()
    x = np.array([1.0, 2.0])
    with use_chainrules(replace=True):
        g = autograd.grad(lambda v: anp.sum(counter.wrapped(v)))(x)
        check_approx(g, vjp(None, lambda v: np.sum(2.0 * v), 1.0, x)[0])
        assert (counter.autograd_calls, counter.rule_calls) == (0, 1)
        autograd.grad(counter.wrapped)(3.0)  # no rule for a float: autograd's own
        assert (counter.autograd_calls, counter.rule_calls) == (1, 1)
    autograd.grad(lambda v: anp.sum(counter.wrapped(v)))(x)
    assert (counter.autograd_calls, counter.rule_calls) == (2, 1)


def test_replace_true_on_numpy_functions_matches_finite_differences(rng: np.random.Generator,
                                                                     untouched: None) -> None:
    a = rng.standard_normal((3, 3)) + 3 * np.eye(3)
    x = rng.standard_normal(4)
    with use_chainrules(replace=True) as registration:
        assert primitive_vjps[anp.sin].chainrules_function is np.sin
        assert anp.linalg.det in registration.vjps()
        via_autograd_rrule(lambda v: anp.sum(anp.sin(v) * anp.exp(v)) / anp.sum(v ** 2), x)
        via_autograd_rrule(anp.linalg.det, a)
        via_autograd_rrule(lambda m: anp.sum(anp.linalg.cholesky(m @ m.T) ** 2), a)
        via_autograd_frule(lambda v: anp.tanh(v) * v, x)


# ---- rules registered later, primitives made later ---------------------------------------------------------
def test_rules_registered_after_use_chainrules_are_picked_up(untouched: None) -> None:
    def shift(x: Any) -> Any:
        return x + 3.0

    wrapped = autograd_primitive(shift)
    with use_chainrules() as registration:
        assert wrapped not in registration.vjps()
        with pytest.raises(NotImplementedError):
            autograd.grad(lambda v: anp.sum(wrapped(v)))(np.ones(2))

        @rrule.register(shift, np.ndarray)
        def shift_rrule(x: np.ndarray) -> Any:
            return x + 3.0, lambda dy: (NoTangent(), unthunk(dy))

        assert wrapped in registration.vjps() and wrapped not in registration.jvps()
        via_autograd_rrule(lambda v: anp.sum(wrapped(v) ** 2), np.array([1.0, -1.0]))

        @frule.register(shift, np.ndarray)
        def shift_frule(tangents: Any, x: np.ndarray) -> Any:
            return x + 3.0, unthunk(tangents[1])

        assert wrapped in registration.jvps()
        via_autograd_frule(wrapped, np.array([1.0, -1.0]))


def test_a_primitive_made_after_use_chainrules_is_found_when_its_rule_arrives(untouched: None) -> None:
    with use_chainrules():
        def negate(x: Any) -> Any:
            return -x

        wrapped = autograd_primitive(negate)
        assert autograd_primitives_of(negate) == [wrapped]

        @rrule.register(negate, np.ndarray)
        def negate_rrule(x: np.ndarray) -> Any:
            return -x, lambda dy: (NoTangent(), -unthunk(dy))

        expected = vjp(None, lambda v: np.sum(negate(v)), 1.0, np.ones(2))[0]
        check_approx(autograd.grad(lambda v: anp.sum(wrapped(v)))(np.ones(2)), expected)


def test_autograd_primitives_of_numpy_functions() -> None:
    assert autograd_primitives_of(np.sin) == [anp.sin]
    assert asl.expm in autograd_primitives_of(__import__("scipy.linalg").linalg.expm)
    assert autograd_primitives_of(lambda x: x) == []
    assert autograd_primitives_of([]) == []  # unhashable


# ---- stacking and undoing ----------------------------------------------------------------------------------
def test_registrations_stack_and_restore(untouched: None) -> None:
    counter = Counter()
    x = np.array([1.0])
    outer = use_chainrules(replace=False)
    try:
        assert active_registration() is outer
        with use_chainrules(replace=True) as inner:
            assert active_registration() is inner
            autograd.grad(lambda v: anp.sum(counter.wrapped(v)))(x)
            assert counter.rule_calls == 1
            assert "suspended" in repr(outer)
        assert active_registration() is outer and "removed" in repr(inner)
        autograd.grad(lambda v: anp.sum(counter.wrapped(v)))(x)
        assert (counter.autograd_calls, counter.rule_calls) == (1, 1)
    finally:
        outer.remove()
    outer.remove()  # twice is harmless
    assert isinstance(outer, AutogradRegistration) and outer.replace is False


def test_removing_a_suspended_registration_first(untouched: None) -> None:
    outer = use_chainrules()
    inner = use_chainrules(replace=True)
    outer.remove()  # not active: nothing to restore, and it will not come back
    assert active_registration() is inner
    inner.remove()


def test_higher_order_rules_through_a_registration(rng: np.random.Generator, untouched: None) -> None:
    from chainrules import HasReverseMode, rrule_via_ad

    def integrate_each(f: Any, xs: Any) -> Any:
        return np.array([f(x) for x in xs])

    wrapped = autograd_primitive(integrate_each)

    @rrule.register(integrate_each, object, np.ndarray, config=HasReverseMode)
    def integrate_each_rrule(config: Any, f: Any, xs: np.ndarray) -> Any:
        results = [rrule_via_ad(config, f, x) for x in xs]

        def integrate_each_pullback(dys: Any) -> Any:
            dys = unthunk(dys)
            return NoTangent(), NoTangent(), np.array([unthunk(pb(dy)[1]) for (_, pb), dy in zip(results, dys)])

        return np.array([y for y, _ in results]), integrate_each_pullback

    xs = rng.standard_normal(3)
    with use_chainrules():
        g = autograd.grad(lambda v: anp.sum(wrapped(anp.tanh, v)))(xs)
    check_approx(g, vjp(None, lambda v: np.sum(np.tanh(v)), 1.0, xs)[0])


def test_a_rule_requiring_the_config_registered_after_a_plain_one_is_used(untouched: None) -> None:
    """The VJP maker calls ``rrule(f, *args)`` directly while no rule of ``f`` needs the config;
    a rule that does, registered later and more specific, must then be the one called."""
    from chainrules import HasReverseMode

    def scale(x: Any) -> Any:
        return 2.0 * x

    wrapped = autograd_primitive(scale)
    calls: list[str] = []

    @rrule.register(scale, object)
    def scale_rrule(x: Any) -> Any:
        calls.append("plain")
        return 2.0 * x, lambda dy: (NoTangent(), 2.0 * unthunk(dy))

    x = np.array([1.0, -2.0])
    with use_chainrules(replace=True):
        check_approx(autograd.grad(lambda v: anp.sum(wrapped(v)))(x), np.full(2, 2.0))
        assert calls == ["plain"]

        @rrule.register(scale, np.ndarray, config=HasReverseMode)
        def scale_config_rrule(config: Any, x: np.ndarray) -> Any:
            calls.append("config")
            return 2.0 * x, lambda dy: (NoTangent(), 2.0 * unthunk(dy))

        check_approx(autograd.grad(lambda v: anp.sum(wrapped(v)))(x), np.full(2, 2.0))
        assert calls == ["plain", "config"]
