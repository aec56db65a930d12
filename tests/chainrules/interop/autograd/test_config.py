"""``AutogradConfig``: ``rrule_via_ad``/``frule_via_ad`` by autograd, and higher-order rules driven by autograd.

autograd's own gradients are tested here through chainrules' testers
(``test_rrule(AutogradConfig(), f, x, rrule_f=rrule_via_ad)``), against finite
differences.
"""

from __future__ import annotations

from typing import Any

import autograd
import autograd.numpy as anp
import autograd.scipy.linalg as asl
import numpy as np
import pytest

from chainrules import (
    HasForwardsMode,
    HasReverseMode,
    NoTangent,
    RuleConfig,
    Tangent,
    ZeroTangent,
    frule,
    frule_via_ad,
    rrule,
    rrule_via_ad,
    unthunk,
)
from chainrules.interop.autograd import AUTOGRAD_CONFIG, AutogradConfig, is_differentiable, primitive
from chainrules.testing import check_approx, jvp, test_frule, test_rrule, vjp

CONFIG = AutogradConfig()


@pytest.fixture
def rng() -> np.random.Generator:
    return np.random.default_rng(7)


def test_traits() -> None:
    assert isinstance(CONFIG, RuleConfig)
    assert isinstance(CONFIG, HasReverseMode) and isinstance(CONFIG, HasForwardsMode)
    assert isinstance(AUTOGRAD_CONFIG, AutogradConfig)
    assert repr(CONFIG) == "AutogradConfig()"


# ---- autograd's own gradients, through chainrules' testers -------------------------------------------------
@pytest.mark.parametrize("f", [anp.tanh, anp.exp, lambda x: anp.sum(x ** 3), lambda x: anp.cumsum(x) * x],
                         ids=["tanh", "exp", "sum-cube", "cumsum"])
def test_autograds_elementwise_gradients(f: Any, rng: np.random.Generator) -> None:
    x = rng.standard_normal(4)
    test_rrule(f, x, config=CONFIG, rrule_f=rrule_via_ad, frule_f=frule_via_ad, check_inplace_add=False)
    test_frule(f, x, config=CONFIG, frule_f=frule_via_ad, rrule_f=rrule_via_ad)


def test_autograds_linear_algebra_gradients(rng: np.random.Generator) -> None:
    a = rng.standard_normal((3, 3)) + 3 * np.eye(3)
    b = rng.standard_normal(3)
    test_rrule(CONFIG, anp.linalg.det, a, rrule_f=rrule_via_ad, check_inplace_add=False)
    test_rrule(anp.linalg.solve, a, b, config=CONFIG, rrule_f=rrule_via_ad, check_inplace_add=False)
    test_rrule(lambda m: asl.solve_triangular(m, b, lower=True), np.tril(a), config=CONFIG, rrule_f=rrule_via_ad,
               check_inplace_add=False)


def test_autograds_gradients_in_float32_and_complex(rng: np.random.Generator) -> None:
    x = rng.standard_normal(3).astype(np.float32)
    test_rrule(CONFIG, anp.sin, x, rrule_f=rrule_via_ad, check_inplace_add=False)
    z = rng.standard_normal(3) + 1j * rng.standard_normal(3)
    test_rrule(lambda w: anp.sum(anp.abs(anp.sin(w)) ** 2), z, config=CONFIG, rrule_f=rrule_via_ad,
               check_inplace_add=False)
    test_rrule(anp.exp, z, config=CONFIG, rrule_f=rrule_via_ad, frule_f=frule_via_ad, check_inplace_add=False)


def test_the_testers_catch_a_wrong_autograd_gradient() -> None:
    from autograd.extend import defvjp
    from autograd.extend import primitive as autograd_primitive

    @autograd_primitive
    def wrong_square(x: Any) -> Any:
        return x * x

    defvjp(wrong_square, lambda ans, x: lambda g: g * x)  # wrong: should be 2 x
    with pytest.raises(AssertionError, match="differ"):
        test_rrule(wrong_square, np.array([1.0, 2.0]), config=CONFIG, rrule_f=rrule_via_ad, check_inplace_add=False)


# ---- rrule_via_ad and frule_via_ad directly ----------------------------------------------------------------
def test_non_differentiable_arguments_get_no_tangent(rng: np.random.Generator) -> None:
    x = rng.standard_normal(3)
    y, pullback = rrule_via_ad(CONFIG, lambda v, n, label: anp.sum(v ** n), x, 3, "label")
    check_approx(y, np.sum(x ** 3))
    df, dx, dn, dlabel = pullback(1.0)
    assert isinstance(df, NoTangent) and isinstance(dn, NoTangent) and isinstance(dlabel, NoTangent)
    check_approx(dx, vjp(None, lambda v: np.sum(v ** 3), 1.0, x)[0])
    assert is_differentiable(x) and not is_differentiable(3) and not is_differentiable(np.arange(3))
    assert not is_differentiable(True) and not is_differentiable("s") and not is_differentiable(())
    assert is_differentiable({"a": 1.0}) and not is_differentiable((1.0, 2))


def test_zero_and_thunked_output_cotangents(rng: np.random.Generator) -> None:
    from chainrules import Thunk

    x = rng.standard_normal(2)
    _, pullback = rrule_via_ad(CONFIG, anp.sin, x)
    assert isinstance(pullback(ZeroTangent())[1], ZeroTangent)
    check_approx(pullback(Thunk(lambda: np.ones(2)))[1], np.cos(x))


def test_a_function_of_no_differentiable_argument() -> None:
    y, pullback = rrule_via_ad(CONFIG, lambda n: float(n) * 2, 3)
    assert y == 6.0 and pullback(1.0) == (NoTangent(), NoTangent())
    assert frule_via_ad(CONFIG, (NoTangent(), NoTangent()), lambda n: n + 1, 3) == (4, ZeroTangent())


def test_an_output_independent_of_the_input(rng: np.random.Generator) -> None:
    x = rng.standard_normal(2)
    y, pullback = rrule_via_ad(CONFIG, lambda v: 1.0, x)
    assert y == 1.0
    check_approx(pullback(1.0)[1], np.zeros(2))


def test_tuple_outputs_and_inputs(rng: np.random.Generator) -> None:
    x = rng.standard_normal(3)

    def f(pair: Any) -> Any:
        a, b = pair[0], pair[1]
        return a * b, anp.sum(a)

    test_rrule(f, (x, 2.0), config=CONFIG, rrule_f=rrule_via_ad, check_inplace_add=False)
    y, pullback = rrule_via_ad(CONFIG, f, (x, 2.0))
    assert type(y) is tuple and not any(isinstance(v, autograd.tracer.Box) for v in y)
    (_, dpair) = pullback(Tangent(tuple, np.ones(3), ZeroTangent()))
    check_approx(dpair, Tangent(tuple, 2.0 * np.ones(3), np.sum(x)))
    test_rrule(lambda v: {"double": 2 * v, "list": [v, anp.sum(v)]}, x, config=CONFIG, rrule_f=rrule_via_ad,
               check_inplace_add=False)


def test_values_inside_containers_are_differentiated(rng: np.random.Generator) -> None:
    x = rng.standard_normal(3)

    def f(v: Any, params: Any, options: Any) -> Any:  # params: (t, n) with n an integer; options: a dict
        t, n = params
        return anp.sum(v ** n) * t + options["scale"] * anp.sum(options["shift"][0] * v)

    params, options = (0.7, 2), {"scale": 1.5, "shift": [rng.standard_normal(3)], "label": "x"}
    y, pullback = rrule_via_ad(CONFIG, f, x, params, options)
    check_approx(y, f(x, params, options))
    _, dx, dparams, doptions = pullback(1.0)
    assert isinstance(dparams, Tangent) and isinstance(dparams[1], NoTangent)  # the integer in the tuple
    assert isinstance(doptions, Tangent) and isinstance(doptions["label"], NoTangent)
    assert isinstance(doptions["shift"], Tangent)  # a list inside the dict
    expected = vjp(None, lambda v, t, scale, shift: f(v, (t, 2), {"scale": scale, "shift": [shift]}), 1.0, x, 0.7,
                   1.5, options["shift"][0])
    check_approx(dx, expected[0])
    check_approx(dparams[0], expected[1])
    check_approx(doptions["scale"], expected[2])
    check_approx(doptions["shift"][0], expected[3])
    assert isinstance(pullback(ZeroTangent())[2][0], ZeroTangent)
    # forward mode: the tangent of a container argument is a structural Tangent, or a plain tuple
    dv = rng.standard_normal(3)
    dshift = rng.standard_normal(3)
    _, dy = frule_via_ad(CONFIG, (NoTangent(), dv, (0.3, NoTangent()),
                                  Tangent(dict, {"shift": Tangent(list, dshift)})), f, x, params, options)
    check_approx(dy, jvp(None, lambda v, t, shift: f(v, (t, 2), {"scale": 1.5, "shift": [shift]}), (x, dv), (0.7, 0.3),
                         (options["shift"][0], dshift)))


def test_frule_via_ad_rejects_a_tangent_of_the_function() -> None:
    with pytest.raises(NotImplementedError, match="function itself"):
        frule_via_ad(CONFIG, (1.0, 1.0), anp.sin, 0.5)
    with pytest.raises(TypeError, match="tangents"):
        frule_via_ad(CONFIG, (NoTangent(),), anp.sin, 0.5)


def test_frule_via_ad_matches_finite_differences(rng: np.random.Generator) -> None:
    a = rng.standard_normal((3, 3)) + 3 * np.eye(3)
    da = rng.standard_normal((3, 3))
    y, dy = frule_via_ad(CONFIG, (NoTangent(), da), lambda m: anp.tanh(m @ m.T), a)
    check_approx(y, np.tanh(a @ a.T))
    check_approx(dy, jvp(None, lambda m: np.tanh(m @ m.T), (a, da)))


# ---- higher-order rules driven by autograd -----------------------------------------------------------------
def apply_to_each(f: Any, xs: np.ndarray) -> np.ndarray:
    """``[f(x) for x in xs]``: a map-like function whose rule calls back into the AD."""
    return np.array([f(x) for x in xs])


@rrule.register(apply_to_each, object, np.ndarray, config=HasReverseMode)
def apply_to_each_rrule(config: Any, f: Any, xs: np.ndarray) -> Any:
    assert isinstance(config, AutogradConfig)
    results = [rrule_via_ad(config, f, x) for x in xs]

    def apply_to_each_pullback(dys: Any) -> Any:
        dys = unthunk(dys)
        dxs = np.array([unthunk(pullback(dy)[1]) for (_, pullback), dy in zip(results, dys)])
        return NoTangent(), NoTangent(), dxs

    return np.array([y for y, _ in results]), apply_to_each_pullback


@frule.register(apply_to_each, object, np.ndarray, config=HasForwardsMode)
def apply_to_each_frule(config: Any, tangents: Any, f: Any, xs: np.ndarray) -> Any:
    dxs = unthunk(tangents[2])
    pushed = [frule_via_ad(config, (NoTangent(), dx), f, x) for x, dx in zip(xs, dxs)]
    return np.array([y for y, _ in pushed]), np.array([unthunk(dy) for _, dy in pushed])


def _bump(x: Any) -> Any:
    return anp.sin(x) * x ** 2  # written for autograd


def test_a_higher_order_rule_in_reverse_mode(rng: np.random.Generator) -> None:
    xs = rng.standard_normal(4)
    bridged = primitive(apply_to_each)
    w = rng.standard_normal(4)
    g = autograd.grad(lambda v: anp.sum(bridged(_bump, v) * w))(xs)
    check_approx(g, vjp(None, lambda v: np.sum(apply_to_each(lambda x: np.sin(x) * x ** 2, v) * w), 1.0, xs)[0])


def test_a_higher_order_rule_in_forward_mode(rng: np.random.Generator) -> None:
    xs = rng.standard_normal(3)
    dxs = rng.standard_normal(3)
    y, dy = autograd.make_jvp(lambda v: primitive(apply_to_each)(_bump, v))(xs)(dxs)
    check_approx(y, np.sin(xs) * xs ** 2)
    check_approx(dy, jvp(None, lambda v: apply_to_each(lambda x: np.sin(x) * x ** 2, v), (xs, dxs)))


def test_the_higher_order_rule_is_not_found_without_a_reverse_mode() -> None:
    assert rrule(apply_to_each, _bump, np.ones(2)) is None  # no config: no rule
    assert rrule(CONFIG, apply_to_each, _bump, np.ones(2)) is not None


class Scaler:
    """A callable object whose rule requires a reverse mode (registered on its class)."""

    def __init__(self, k: float) -> None:
        self.k = k

    def __call__(self, x: Any) -> Any:
        return self.k * x


@rrule.register_functor(Scaler, np.ndarray, config=HasReverseMode)
def scaler_rrule(config: Any, scaler: Scaler, x: np.ndarray) -> Any:
    assert isinstance(config, AutogradConfig)

    def scaler_pullback(dy: Any) -> Any:
        return NoTangent(), scaler.k * unthunk(dy)

    return scaler(x), scaler_pullback


def test_a_functor_whose_rule_requires_the_config(rng: np.random.Generator) -> None:
    x = rng.standard_normal(3)
    bridged = primitive(Scaler(3.0))
    expected = vjp(None, lambda v: np.sum((3.0 * v) ** 2), 1.0, x)[0]
    check_approx(autograd.grad(lambda v: anp.sum(bridged(v) ** 2))(x), expected)
