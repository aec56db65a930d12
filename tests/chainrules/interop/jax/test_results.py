"""SciPy's result objects through ``chainrules.interop.jax.primitive``: ``solve_ivp``'s ``OdeResult``,
``minimize``'s ``OptimizeResult``, ``odeint``'s ``(y, infodict)``.

Every derivative is checked against central differences of the whole SciPy call (tight
solver tolerances); the non-differentiable fields must come back plain.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import scipy.integrate
import scipy.optimize

jax = pytest.importorskip("jax")
import jax.numpy as jnp  # noqa: E402

from chainrules import NoTangent, Tangent, ZeroTangent, backing, read_cotangent, rrule  # noqa: E402
from chainrules.interop.jax import primitive  # noqa: E402
from chainrules.testing import grad, jvp  # noqa: E402

TOL = {"rtol": 1e-10, "atol": 1e-10}
T_EVAL = [0.5, 1.0]
Y0 = np.array([1.0, 0.5])
K = 0.7


def rhs(t: Any, y: Any, k: Any) -> Any:
    return -k * y ** 2 + 0.3 * y


def ivp_loss_np(y0: Any, k: Any) -> float:
    return float(np.sum(scipy.integrate.solve_ivp(rhs, (0.0, 1.0), y0, args=(float(k),), t_eval=T_EVAL, **TOL).y ** 2))


def test_solve_ivp_grad_and_plain_fields() -> None:
    solve_ivp = primitive(scipy.integrate.solve_ivp)
    seen = {}

    def loss(y0: Any, k: Any) -> Any:
        res = solve_ivp(rhs, (0.0, 1.0), y0, args=(k,), t_eval=T_EVAL, **TOL)
        seen.update(res)
        return jnp.sum(res.y ** 2)

    g_y0, g_k = jax.grad(loss, (0, 1))(jnp.asarray(Y0), K)
    assert type(seen["success"]) is bool and isinstance(seen["message"], str) and type(seen["nfev"]) is int
    assert seen["sol"] is None and isinstance(seen["y"], jax.Array)
    np.testing.assert_allclose(g_y0, grad(None, lambda y: ivp_loss_np(y, K), Y0), rtol=1e-5)
    np.testing.assert_allclose(g_k, grad(None, lambda k: ivp_loss_np(Y0, k), K), rtol=1e-5)


def test_solve_ivp_result_type_and_eager_call() -> None:
    res = primitive(scipy.integrate.solve_ivp)(rhs, (0.0, 1.0), jnp.asarray(Y0), args=(K,), t_eval=T_EVAL)
    assert type(res).__name__ == "OdeResult" and isinstance(res.y, jax.Array) and isinstance(res.message, str)


def test_solve_ivp_forward_mode() -> None:
    solve_ivp = primitive(scipy.integrate.solve_ivp, mode="forward")
    dy0 = np.array([0.3, -1.0])
    _, dy = jax.jvp(lambda y0: solve_ivp(rhs, (0.0, 1.0), y0, args=(K,), t_eval=T_EVAL, **TOL).y,
                    (jnp.asarray(Y0),), (jnp.asarray(dy0),))
    fd = jvp(None, lambda y0: scipy.integrate.solve_ivp(rhs, (0.0, 1.0), y0, args=(K,), t_eval=T_EVAL, **TOL).y,
             (Y0, dy0))
    np.testing.assert_allclose(dy, fd, rtol=1e-5, atol=1e-9)


def test_solve_ivp_events() -> None:
    solve_ivp = primitive(scipy.integrate.solve_ivp)

    def half(t: Any, y: Any, k: Any) -> Any:
        return y[0] - 0.5

    def crossing(k: Any) -> Any:
        res = solve_ivp(lambda t, y, k: -k * y, (0.0, 5.0), jnp.array([1.0]), args=(k,), events=half, **TOL)
        assert isinstance(res.t_events, list) and isinstance(res.t_events[0], jax.Array)
        return res.t_events[0][0]

    np.testing.assert_allclose(jax.grad(crossing)(K), -np.log(2) / K ** 2, rtol=1e-7)  # t = log 2 / k


def test_solve_ivp_under_jit_is_a_clear_error() -> None:
    solve_ivp = primitive(scipy.integrate.solve_ivp)
    with pytest.raises(TypeError, match=r"solve_ivp returns a result object \(OdeResult\).*outside jax.jit"):
        jax.jit(lambda y0: solve_ivp(rhs, (0.0, 1.0), y0, args=(K,), t_eval=T_EVAL).y)(jnp.asarray(Y0))


def objective(x: Any, b: Any) -> Any:
    return ((x - b) ** 2).sum() + (x ** 4).sum() / 4


def gradient(x: Any, b: Any) -> Any:
    return 2 * (x - b) + x ** 3


def argmin_np(b: Any) -> np.ndarray:
    return scipy.optimize.minimize(objective, np.zeros(2), (b,), method="BFGS", jac=gradient,
                                   options={"gtol": 1e-12}).x


def test_minimize_grad() -> None:
    minimize = primitive(scipy.optimize.minimize)
    b = np.array([1.0, 2.0])

    def loss(b: Any) -> Any:
        res = minimize(objective, np.zeros(2), (b,), method="BFGS", jac=gradient, options={"gtol": 1e-12})
        assert type(res.nit) is int and isinstance(res.message, str)
        return res.x[0] + 2 * res.x[1]

    g = jax.grad(loss)(jnp.asarray(b))
    np.testing.assert_allclose(g, grad(None, lambda b: float(argmin_np(b) @ [1.0, 2.0]), b), rtol=1e-5)


def test_odeint_full_output_tuple() -> None:
    odeint = primitive(scipy.integrate.odeint)

    def f(y: Any, t: Any, k: Any) -> Any:
        return -k * y

    def loss(k: Any) -> Any:
        y, info = odeint(f, jnp.array([1.0]), np.array([0.0, 1.0]), args=(k,), full_output=True,
                         rtol=1e-12, atol=1e-12)
        assert isinstance(info["message"], str)
        return y[-1, 0]

    np.testing.assert_allclose(jax.grad(loss)(K), -np.exp(-K), rtol=1e-7)  # y(1) = exp(-k)


def test_minimize_forward_mode() -> None:
    minimize = primitive(scipy.optimize.minimize, mode="forward")
    b, db = np.array([1.0, 2.0]), np.array([1.0, -0.5])
    _, dx = jax.jvp(lambda b: minimize(objective, np.zeros(2), (b,), method="BFGS", jac=gradient,
                                       options={"gtol": 1e-12}).x, (jnp.asarray(b),), (jnp.asarray(db),))
    np.testing.assert_allclose(dx, jvp(None, argmin_np, (b, db)), rtol=1e-5)


def test_fsolve_full_output_tuple() -> None:
    fsolve = primitive(scipy.optimize.fsolve)

    def g(x: Any, b: Any) -> Any:
        return x ** 3 + x - b

    def root(b: Any) -> Any:
        x, info, _ier, mesg = fsolve(g, np.array([0.5]), args=(b,), full_output=True, xtol=1e-12)
        assert isinstance(mesg, str) and isinstance(info, dict)
        return x[0]

    np.testing.assert_allclose(jax.grad(root)(2.0), 0.25, rtol=1e-8)  # x = 1: dx/db = 1 / (3 x**2 + 1)


def test_the_rule_gets_a_structural_tangent_of_the_result() -> None:
    seen = []

    def scaled(x: np.ndarray) -> Any:
        return scipy.optimize.OptimizeResult(x=2 * x, fun=float(x @ x), nit=3, message="done", success=True)

    @rrule.register(scaled, np.ndarray)
    def scaled_rrule(x: np.ndarray) -> Any:
        def scaled_pullback(dres: Any) -> Any:
            seen.append(dres)
            dx, dfun = read_cotangent(dres["x"], 2 * x, scaled), read_cotangent(dres["fun"], 1.0, scaled)
            return NoTangent(), 2 * dx + 2 * x * dfun

        return scaled(x), scaled_pullback

    res = primitive(scaled)(jnp.array([1.0, 3.0]))
    assert type(res) is scipy.optimize.OptimizeResult and res.message == "done" and res.nit == 3
    g = jax.grad(lambda x: primitive(scaled)(x).x[1])(jnp.array([1.0, 3.0]))
    np.testing.assert_allclose(g, [0.0, 2.0])
    (dres,) = seen
    assert isinstance(dres, Tangent) and set(backing(dres)) == {"x", "fun"}
    assert isinstance(dres["fun"], ZeroTangent)  # an unused field: a zero the rule skips


def test_solve_ivp_under_vmap_is_a_clear_error() -> None:
    solve_ivp = primitive(scipy.integrate.solve_ivp)
    with pytest.raises(TypeError, match=r"solve_ivp returns a result object \(OdeResult\).*jax.jit or jax.vmap"):
        jax.vmap(lambda y0: solve_ivp(rhs, (0.0, 1.0), y0, args=(K,), t_eval=T_EVAL).y)(jnp.stack([Y0, 2 * Y0]))
