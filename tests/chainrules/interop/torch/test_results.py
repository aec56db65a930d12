"""SciPy's result objects through ``chainrules.interop.torch.primitive``: ``solve_ivp``'s ``OdeResult``,
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

torch = pytest.importorskip("torch")

from chainrules import NoTangent, Tangent, ZeroTangent, backing, read_cotangent, rrule  # noqa: E402
from chainrules.interop.torch import primitive  # noqa: E402
from chainrules.testing import grad, jvp  # noqa: E402

TOL = {"rtol": 1e-10, "atol": 1e-10}
T_EVAL = [0.5, 1.0]
Y0 = np.array([1.0, 0.5])
K = 0.7


def rhs(t: Any, y: Any, k: Any) -> Any:
    return -k * y ** 2 + 0.3 * y


def ivp_loss_np(y0: Any, k: Any) -> float:
    return float(np.sum(scipy.integrate.solve_ivp(rhs, (0.0, 1.0), y0, args=(float(k),), t_eval=T_EVAL, **TOL).y ** 2))


def tensor(x: Any, grad: bool = True) -> Any:
    return torch.tensor(x, dtype=torch.float64, requires_grad=grad)


def test_solve_ivp_grad_and_plain_fields() -> None:
    solve_ivp = primitive(scipy.integrate.solve_ivp)
    y0, k = tensor(Y0), tensor(K)
    res = solve_ivp(rhs, (0.0, 1.0), y0, args=(k,), t_eval=T_EVAL, **TOL)
    assert type(res).__name__ == "OdeResult" and isinstance(res.y, torch.Tensor)
    assert type(res.success) is bool and isinstance(res.message, str) and type(res.nfev) is int and res.sol is None
    (res.y ** 2).sum().backward()
    np.testing.assert_allclose(y0.grad, grad(None, lambda y: ivp_loss_np(y, K), Y0), rtol=1e-5)
    np.testing.assert_allclose(k.grad, grad(None, lambda k: ivp_loss_np(Y0, k), K), rtol=1e-5)


def test_solve_ivp_without_grad() -> None:
    res = primitive(scipy.integrate.solve_ivp)(rhs, (0.0, 1.0), tensor(Y0, False), args=(K,), t_eval=T_EVAL)
    assert type(res).__name__ == "OdeResult" and isinstance(res.y, torch.Tensor) and isinstance(res.message, str)


def test_solve_ivp_forward_mode() -> None:
    solve_ivp = primitive(scipy.integrate.solve_ivp)
    dy0 = np.array([0.3, -1.0])
    _, dy = torch.func.jvp(lambda y0: solve_ivp(rhs, (0.0, 1.0), y0, args=(K,), t_eval=T_EVAL, **TOL).y,
                           (tensor(Y0, False),), (tensor(dy0, False),))
    fd = jvp(None, lambda y0: scipy.integrate.solve_ivp(rhs, (0.0, 1.0), y0, args=(K,), t_eval=T_EVAL, **TOL).y,
             (Y0, dy0))
    np.testing.assert_allclose(dy, fd, rtol=1e-5, atol=1e-9)


def test_solve_ivp_events() -> None:
    solve_ivp = primitive(scipy.integrate.solve_ivp)

    def half(t: Any, y: Any, k: Any) -> Any:
        return y[0] - 0.5

    k = tensor(K)
    res = solve_ivp(lambda t, y, k: -k * y, (0.0, 5.0), tensor([1.0], False), args=(k,), events=half, **TOL)
    assert isinstance(res.t_events, list) and isinstance(res.t_events[0], torch.Tensor)
    res.t_events[0][0].backward()
    np.testing.assert_allclose(k.grad, -np.log(2) / K ** 2, rtol=1e-7)  # t = log 2 / k


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
    bt = tensor(b)
    res = minimize(objective, np.zeros(2), (bt,), method="BFGS", jac=gradient, options={"gtol": 1e-12})
    assert type(res.nit) is int and isinstance(res.message, str)
    (res.x[0] + 2 * res.x[1]).backward()
    np.testing.assert_allclose(bt.grad, grad(None, lambda b: float(argmin_np(b) @ [1.0, 2.0]), b), rtol=1e-5)


def test_odeint_full_output_tuple() -> None:
    odeint = primitive(scipy.integrate.odeint)

    def f(y: Any, t: Any, k: Any) -> Any:
        return -k * y

    k = tensor(K)
    y, info = odeint(f, tensor([1.0], False), np.array([0.0, 1.0]), args=(k,), full_output=True,
                     rtol=1e-12, atol=1e-12)
    assert isinstance(info["message"], str)
    y[-1, 0].backward()
    np.testing.assert_allclose(k.grad, -np.exp(-K), rtol=1e-7)  # y(1) = exp(-k)


def test_minimize_forward_mode() -> None:
    minimize = primitive(scipy.optimize.minimize)
    b, db = np.array([1.0, 2.0]), np.array([1.0, -0.5])
    _, dx = torch.func.jvp(lambda b: minimize(objective, np.zeros(2), (b,), method="BFGS", jac=gradient,
                                              options={"gtol": 1e-12}).x, (tensor(b, False),), (tensor(db, False),))
    np.testing.assert_allclose(dx, jvp(None, argmin_np, (b, db)), rtol=1e-5)


def test_fsolve_full_output_tuple() -> None:
    fsolve = primitive(scipy.optimize.fsolve)

    def g(x: Any, b: Any) -> Any:
        return x ** 3 + x - b

    b = tensor(2.0)
    x, info, _ier, mesg = fsolve(g, np.array([0.5]), args=(b,), full_output=True, xtol=1e-12)
    assert isinstance(mesg, str) and isinstance(info, dict)
    x[0].backward()
    np.testing.assert_allclose(b.grad, 0.25, rtol=1e-8)  # x = 1: dx/db = 1 / (3 x**2 + 1)


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

    x = tensor([1.0, 3.0])
    res = primitive(scaled)(x)
    assert type(res) is scipy.optimize.OptimizeResult and res.message == "done" and res.nit == 3
    res.x[1].backward()
    np.testing.assert_allclose(x.grad, [0.0, 2.0])
    (dres,) = seen
    assert isinstance(dres, Tangent) and set(backing(dres)) == {"x", "fun"}
    assert isinstance(dres["fun"], ZeroTangent)  # an unused field: a zero the rule skips


def test_solve_ivp_under_vmap_is_a_clear_error() -> None:
    solve_ivp = primitive(scipy.integrate.solve_ivp)
    with pytest.raises(TypeError, match=r"solve_ivp returns a result object \(OdeResult\).*torch.func.vmap"):
        torch.func.vmap(lambda y0: solve_ivp(rhs, (0.0, 1.0), y0, args=(K,), t_eval=T_EVAL).y)(
            tensor(np.stack([Y0, 2 * Y0]), False))


def test_solve_ivp_under_torch_func_grad() -> None:
    solve_ivp = primitive(scipy.integrate.solve_ivp)
    g = torch.func.grad(lambda y0: (solve_ivp(rhs, (0.0, 1.0), y0, args=(K,), t_eval=T_EVAL, **TOL).y ** 2).sum())(
        tensor(Y0, False))
    np.testing.assert_allclose(g, grad(None, lambda y: ivp_loss_np(y, K), Y0), rtol=1e-5)
