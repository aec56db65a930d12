"""``JaxConfig``: JAX's rrule_via_ad/frule_via_ad under chainrules' testers; higher-order rules driven by JAX."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

jax = pytest.importorskip("jax")
import jax.numpy as jnp  # noqa: E402

from chainrules import (  # noqa: E402
    HasForwardsMode,
    HasReverseMode,
    NoTangent,
    Tangent,
    ZeroTangent,
    frule_via_ad,
    rrule,
    rrule_via_ad,
    unthunk,
)
from chainrules.interop.jax import JAX_CONFIG, JaxConfig, primitive  # noqa: E402
from chainrules.testing import test_frule, test_rrule  # noqa: E402

CONFIG = JaxConfig()
RNG = np.random.default_rng(15)


def numpy_out(f: Any) -> Any:
    """``f`` returning NumPy arrays when called on NumPy values (the testers' finite differences), JAX arrays
    when JAX traces it (``rrule_via_ad``)."""

    def on_numpy_values(*args: Any) -> Any:
        y = f(*args)
        traced = any(isinstance(a, jax.core.Tracer) for a in jax.tree_util.tree_leaves(args))
        return y if traced else jax.tree_util.tree_map(np.asarray, y)

    return on_numpy_values


def test_traits() -> None:
    assert isinstance(CONFIG, HasReverseMode) and isinstance(CONFIG, HasForwardsMode)
    assert isinstance(JAX_CONFIG, JaxConfig) and repr(CONFIG) == "JaxConfig()"


@pytest.mark.parametrize("f", [jnp.tanh, lambda x: jnp.sum(x ** 3), lambda x: jnp.cumsum(x) * x],
                         ids=["tanh", "sum-cube", "cumsum"])
def test_jaxs_own_gradients_through_chainrules_testers(f: Any) -> None:
    f = numpy_out(f)
    x = RNG.standard_normal(4)
    test_rrule(f, x, config=CONFIG, rrule_f=rrule_via_ad, frule_f=frule_via_ad, check_inplace_add=False)
    test_frule(f, x, config=CONFIG, frule_f=frule_via_ad, rrule_f=rrule_via_ad)


def test_linear_algebra_complex_and_containers() -> None:
    a = RNG.standard_normal((3, 3)) + 3 * np.eye(3)
    test_rrule(numpy_out(jnp.linalg.det), a, config=CONFIG, rrule_f=rrule_via_ad, check_inplace_add=False)
    z = RNG.standard_normal(3) + 1j * RNG.standard_normal(3)
    test_rrule(numpy_out(lambda w: jnp.sum(jnp.abs(jnp.sin(w)) ** 2)), z, config=CONFIG, rrule_f=rrule_via_ad,
               check_inplace_add=False)
    test_rrule(numpy_out(jnp.exp), z, config=CONFIG, rrule_f=rrule_via_ad, frule_f=frule_via_ad,
               check_inplace_add=False)
    _y, pullback = rrule_via_ad(CONFIG, lambda pair, n: pair[0] * pair[1] ** n, (2.0, np.array([1.0, 3.0])), 2)
    _df, dpair, dn = pullback(np.ones(2))
    assert isinstance(dpair, Tangent) and dn == NoTangent()
    np.testing.assert_allclose(unthunk(dpair[0]), 10.0)
    np.testing.assert_allclose(dpair[1], [4.0, 12.0])
    assert all(isinstance(d, (NoTangent, ZeroTangent, Tangent)) for d in pullback(ZeroTangent())[1:])
    with pytest.raises(NotImplementedError, match="tangent of the function itself"):
        frule_via_ad(CONFIG, (1.0, 1.0), jnp.sin, 0.5)


def test_the_testers_catch_a_wrong_jax_gradient() -> None:
    @jax.custom_vjp
    def wrong_sin(x: Any) -> Any:
        return jnp.sin(x)

    wrong_sin.defvjp(lambda x: (jnp.sin(x), x), lambda x, g: (g * jnp.sin(x),))  # should be cos
    with pytest.raises(AssertionError):
        test_rrule(numpy_out(wrong_sin), np.array([0.3, 0.5]), config=CONFIG, rrule_f=rrule_via_ad,
                   check_inplace_add=False, check_frule_consistency=False)


def test_a_higher_order_rule_differentiates_a_jax_callable_eagerly_and_under_jit() -> None:
    def apply_to_each(f: Any, xs: np.ndarray) -> np.ndarray:
        return np.array([f(x) for x in xs])

    @rrule.register(apply_to_each, object, np.ndarray, config=HasReverseMode)
    def apply_to_each_rrule(config: Any, f: Any, xs: np.ndarray) -> Any:
        results = [rrule_via_ad(config, f, x) for x in xs]

        def apply_to_each_pullback(dys: Any) -> Any:
            dys = unthunk(dys)
            dxs = np.array([unthunk(pullback(dy)[1]) for (_, pullback), dy in zip(results, dys)])
            return NoTangent(), NoTangent(), dxs

        return np.array([np.asarray(y) for y, _ in results]), apply_to_each_pullback

    mapped = primitive(apply_to_each)
    xs = jnp.asarray([0.0, 1.0])

    def loss(v: Any) -> Any:
        return jnp.sum(mapped(lambda x: x * jnp.sin(x), v))

    expected = np.sin([0.0, 1.0]) + np.array([0.0, 1.0]) * np.cos([0.0, 1.0])
    np.testing.assert_allclose(jax.grad(loss)(xs), expected)
    np.testing.assert_allclose(jax.jit(jax.grad(loss))(xs), expected)


def test_forward_mode_of_a_higher_order_rule_runs_frule_via_ad_with_jax() -> None:
    from chainrules.interop.jax.forward import numpy as forward_numpy

    x, dx = jnp.asarray([[0.1, 0.2], [0.3, 0.4]]), jnp.asarray([[1.0, -1.0], [0.5, 2.0]])

    def mapped(m: Any) -> Any:
        return forward_numpy.apply_along_axis(lambda r: jnp.sin(r) * r[0], 1, m)

    def own(m: Any) -> Any:
        return jnp.sin(m) * m[:, :1]

    expected = jax.jvp(own, (x,), (dx,))[1]
    np.testing.assert_allclose(jax.jvp(mapped, (x,), (dx,))[1], expected)
    np.testing.assert_allclose(jax.jit(lambda a, b: jax.jvp(mapped, (a,), (b,))[1])(x, dx), expected)
