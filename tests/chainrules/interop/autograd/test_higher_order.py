"""Derivatives of derivatives through the bridge: autograd's own where it has one, an error where it has none.

Each kind of failure autograd's own test suite and examples met under
``use_chainrules(replace=True)`` is reproduced here (written for this suite):

* second derivatives (``grad(grad(f))``, Hessians, forward over reverse, ``check_grads``'
  default ``order=2``) of functions autograd has a derivative of;
* first-order gradients whose computation differentiates a vector-Jacobian product:
  ``autograd.misc.flatten`` inside a differentiated function (a node whose VJP is never
  called), its ``unflatten`` called on traced values (a traced cotangent), autograd's
  ``odeint`` derivative;
* an error raised while NumPy dispatches ``ndarray * box``, replaced by NumPy's "operand
  type(s) all returned NotImplemented" when it was a ``NotImplementedError``.

Every derivative is checked against finite differences of what it differentiates
(``chainrules.testing.jvp``); a second derivative against finite differences of the
gradient, itself checked against finite differences of the function.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterator
from typing import Any

import autograd
import autograd.numpy as anp
import autograd.scipy.linalg as asl
import numpy as np
import pytest
import scipy.integrate
import scipy.linalg
from autograd.builtins import tuple as ag_tuple
from autograd.core import primitive_vjps
from autograd.extend import primitive as autograd_primitive
from autograd.misc import flatten
from autograd.scipy.integrate import odeint
from autograd.test_util import check_grads

from chainrules import frule, not_implemented
from chainrules.interop.autograd import (
    AutogradRegistration,
    HigherOrderDerivativeError,
    HigherOrderNotImplementedError,
    KeywordArgumentError,
    NotImplementedDerivativeError,
    primitive,
    use_chainrules,
    vjp_maker,
)
from chainrules.testing import check_approx, jvp

RNG = np.random.default_rng(16)
A = np.array([[0.0, 1.0], [-1.0, 0.0]])
expm = primitive(scipy.linalg.expm)  # autograd has no derivative of expm to fall back to


@pytest.fixture
def replaced() -> Iterator[AutogradRegistration]:
    with use_chainrules(replace=True) as registration:
        yield registration


def check_gradient(f: Callable[[Any], Any], x: Any, grad: Any, rtol: float = 1e-7) -> None:
    """``grad`` (autograd's gradient of a real ``f``) against finite differences of ``f``, along two directions."""
    for _ in range(2):
        v = RNG.standard_normal(np.shape(x))
        check_approx(np.sum(grad * v), jvp(None, f, (x, v)), rtol=rtol, atol=1e-9)


def check_second_derivatives(f: Callable[[Any], Any], x: np.ndarray) -> None:
    """The Hessian, forward over reverse and reverse over reverse, against finite differences of the gradient."""
    g = autograd.grad(f)
    check_gradient(f, x, g(x))
    v = RNG.standard_normal(x.shape)
    expected = jvp(None, g, (x, v))
    check_approx(autograd.hessian(f)(x).reshape(x.size, x.size) @ v.ravel(), np.ravel(expected), rtol=1e-6,
                 atol=1e-8)
    check_approx(autograd.make_jvp(g)(x)(v)[1], expected, rtol=1e-6, atol=1e-8)
    check_approx(autograd.grad(lambda y: anp.sum(g(y) * v))(x), expected, rtol=1e-6, atol=1e-8)


# ---- second derivatives: autograd's own derivative where it has one --------------------------------------
M = RNG.standard_normal((3, 3)) + 3 * np.eye(3)
B = RNG.standard_normal(3)
SECOND_ORDER = {
    "sin and multiply": lambda x: anp.sum(anp.sin(x) * x),
    "power with two traced arguments": lambda x: anp.sum(anp.abs(x) ** (x + 2.0)),
    "einsum": lambda x: anp.einsum("i,ij,j->", x, M, x ** 2),
    "tensordot and reshape": lambda x: anp.sum(anp.tensordot(anp.reshape(x, (1, 3)), M, axes=1) ** 2),
    "linalg.solve": lambda x: anp.sum(anp.linalg.solve(M + anp.diag(x), B)),
    "linalg.norm": lambda x: anp.linalg.norm(x * 2.0 + 1.0),
    "max and cumsum": lambda x: anp.max(anp.cumsum(x ** 2)),
}


@pytest.mark.parametrize("name", sorted(SECOND_ORDER))
def test_second_derivatives_use_autograds_own_derivative(replaced: AutogradRegistration, name: str) -> None:
    f = SECOND_ORDER[name]
    x = np.array([0.3, -0.7, 1.1])
    check_second_derivatives(f, x)


def test_the_first_derivatives_inside_come_from_the_rules(replaced: AutogradRegistration) -> None:
    for wrapper in (anp.sin, anp.multiply, anp.einsum, anp.linalg.solve, anp.reshape, anp.ravel):
        assert primitive_vjps[wrapper].chainrules_function is wrapper.fun  # type: ignore[attr-defined]


def test_check_grads_of_order_two_and_three(replaced: AutogradRegistration) -> None:
    x = np.array([0.3, -0.7, 1.1])
    check_grads(SECOND_ORDER["sin and multiply"], modes=["fwd", "rev"], order=3)(x)
    check_grads(SECOND_ORDER["einsum"], modes=["fwd", "rev"], order=2)(x)


def test_autograds_second_order_operators(replaced: AutogradRegistration) -> None:
    f = SECOND_ORDER["einsum"]
    x, v = np.array([0.3, -0.7, 1.1]), np.array([1.0, -2.0, 0.5])
    g = autograd.grad(f)
    expected = jvp(None, g, (x, v))
    check_approx(autograd.make_hvp(f)(x)[0](v), expected, rtol=1e-6, atol=1e-8)
    check_approx(autograd.hessian_tensor_product(f)(x, v), expected, rtol=1e-6, atol=1e-8)
    check_approx(autograd.grad(lambda y: anp.dot(autograd.value_and_grad(f)(y)[1], v))(x), expected, rtol=1e-6,
                 atol=1e-8)

    def residuals(y: Any) -> Any:  # Gauss-Newton: J^T J v through make_ggnvp
        return anp.sin(anp.outer(y, y)).ravel()

    jacobian = autograd.jacobian(residuals)(x)
    check_approx(jacobian, np.stack([jvp(None, residuals, (x, e)) for e in np.eye(3)], axis=1), rtol=1e-6, atol=1e-8)
    check_approx(autograd.make_ggnvp(residuals)(x)(v), jacobian.T @ (jacobian @ v), rtol=1e-10, atol=1e-12)


def test_a_third_derivative(replaced: AutogradRegistration) -> None:
    def f(t: Any) -> Any:
        return anp.sin(t) * anp.exp(0.5 * t)

    d2 = autograd.grad(autograd.grad(f))
    check_approx(autograd.grad(d2)(0.4), jvp(None, d2, (0.4, 1.0)), rtol=1e-7)


def test_primitive_falls_back_to_autograds_own_derivative_too() -> None:
    sin = primitive(np.sin)
    d1 = autograd.grad(sin)
    check_approx(autograd.grad(d1)(0.5), jvp(None, d1, (0.5, 1.0)), rtol=1e-7)
    check_approx(autograd.make_jvp(d1)(0.5)(1.0)[1], jvp(None, d1, (0.5, 1.0)), rtol=1e-7)


# ---- where autograd has no derivative: an error, only when the second derivative is needed ----------------
def test_a_second_derivative_without_autograds_own_is_an_error() -> None:
    assert asl.expm not in primitive_vjps  # autograd wraps expm without a derivative

    def f(t: Any) -> Any:
        return anp.sum(asl.expm(t * A))

    with use_chainrules(replace=True):
        check_gradient(f, 0.3, autograd.grad(f)(0.3))
        for second in (autograd.grad(autograd.grad(f)), lambda t: autograd.make_jvp(autograd.grad(f))(t)(1.0)):
            with pytest.raises(HigherOrderDerivativeError) as info:
                second(0.3)
            message = str(info.value)
            assert "derivative of scipy.linalg.expm (a derivative of order two or more" in message
            assert "autograd has no derivative of its own for scipy.linalg.expm" in message


def test_an_argument_autograd_does_not_differentiate_is_an_error_at_second_order() -> None:
    x = np.array([0.1, 0.5, 0.9])

    def f(lo: Any) -> Any:  # autograd differentiates clip's x only; the rule gives the bound's derivative
        return anp.sum(anp.clip(x, lo, 0.8) ** 2)

    with use_chainrules(replace=True):
        check_gradient(f, 0.3, autograd.grad(f)(0.3))
        with pytest.raises(HigherOrderDerivativeError, match=r"derivative of numpy\.clip \(a derivative of order"):
            autograd.grad(autograd.grad(f))(0.3)


def test_a_recorded_derivative_never_used_costs_no_error() -> None:
    def f(a: Any) -> Any:  # make_vjp records expm's derivative at traced values and never calls it
        _, value = autograd.make_vjp(expm)(a)
        return anp.sum(value * A)

    a = 0.3 * RNG.standard_normal((2, 2))
    check_gradient(f, a, autograd.grad(f)(a))


# ---- first-order gradients that differentiate a VJP -----------------------------------------------------------
def test_flatten_inside_a_gradient(replaced: AutogradRegistration) -> None:
    params = [(RNG.standard_normal((2, 2)), RNG.standard_normal(2))]

    def f(p: Any) -> Any:
        return anp.sum(flatten(p)[0] ** 2)

    g = autograd.grad(f)(params)
    flat_g, _ = flatten(g)
    flat_p, unflatten = flatten(params)
    check_gradient(lambda v: f(unflatten(v)), flat_p, flat_g)


def test_unflatten_on_traced_values(replaced: AutogradRegistration) -> None:
    flat_p, unflatten = flatten({"w": RNG.standard_normal((2, 3)), "b": RNG.standard_normal(3)})

    def f(v: Any) -> Any:  # unflatten is a VJP made on plain values, called on traced ones
        p = unflatten(v)
        return anp.sum(anp.tanh(p["w"] @ p["b"])) + anp.sum(p["b"] ** 3)

    check_gradient(f, flat_p, autograd.grad(f)(flat_p))


def test_a_vjp_called_on_traced_values_without_autograds_own_is_an_error_that_says_so() -> None:
    a = 0.3 * RNG.standard_normal((2, 2))
    vjp, _ = autograd.make_vjp(expm)(a)

    def f(c: Any) -> Any:
        return anp.sum(vjp(c) ** 2)

    with pytest.raises(HigherOrderDerivativeError) as info:
        autograd.grad(f)(np.ones((2, 2)))
    message = str(info.value)
    assert "vector-Jacobian product of scipy.linalg.expm with respect to the cotangent" in message
    assert "order two" not in message and "second" not in message
    np.testing.assert_allclose(f(np.ones((2, 2))), np.sum(vjp(np.ones((2, 2))) ** 2))  # the value is there


def test_odeint_gradient(replaced: AutogradRegistration) -> None:
    def rhs(y: Any, t: Any, k: Any) -> Any:
        return anp.array([y[1], -k[0] * anp.sin(y[0])])

    times = np.array([0.0, 0.5, 1.0])

    def f(y0: Any, k: Any) -> Any:  # autograd's odeint VJP flattens the parameters and unflattens traced values
        return anp.sum(odeint(rhs, y0, times, ag_tuple((k,)), rtol=1e-11, atol=1e-11)[-1] ** 2)

    def f_plain(y0: Any, k: Any) -> Any:
        k = float(np.squeeze(k))
        return np.sum(scipy.integrate.odeint(lambda y, t: [y[1], -k * np.sin(y[0])], y0, times, rtol=1e-11,
                                             atol=1e-11)[-1] ** 2)

    y0, k = np.array([0.4, 0.1]), np.array([1.3])
    # the adjoint ODE and the finite differences each carry the solver's error (tolerances 1e-11)
    check_gradient(lambda y: f_plain(y, k), y0, autograd.grad(f, 0)(y0, k), rtol=1e-5)
    check_gradient(lambda s: f_plain(y0, s), k, autograd.grad(f, 1)(y0, k), rtol=1e-5)


def test_a_jvp_called_with_a_traced_tangent() -> None:
    x0 = np.array([0.3, 0.5])

    def f(v: Any) -> Any:  # reverse mode over forward mode: the tangent is traced, the point is not
        return anp.sum(autograd.make_jvp(primitive(np.sin))(x0)(v)[1] ** 2)

    v = np.array([1.0, 2.0])
    check_gradient(f, v, autograd.grad(f)(v))  # autograd's own JVP of sin, differentiated
    a = 0.3 * RNG.standard_normal((2, 2))

    def g(w: Any) -> Any:
        return anp.sum(autograd.make_jvp(expm)(a)(w)[1] ** 2)

    with pytest.raises(HigherOrderDerivativeError) as info:
        autograd.grad(g)(np.eye(2))
    message = str(info.value)
    assert "Jacobian-vector product of scipy.linalg.expm with respect to the tangent" in message
    assert "order two" not in message


# ---- errors keep their message inside NumPy's ufunc dispatch ---------------------------------------------------
def test_an_error_in_ndarray_times_box_is_not_swallowed() -> None:
    product = np.frompyfunc(operator.mul, 2, 1)  # a ufunc autograd wraps (below) and NumPy dispatches to the box
    autograd_primitive(product)

    @frule.register(product, np.ndarray, float)
    def product_frule(tangents: Any, x: np.ndarray, s: float) -> Any:
        return product(x, s), not_implemented("no pushforward, to test the dispatch")

    with use_chainrules(), pytest.raises(NotImplementedDerivativeError, match="no pushforward, to test the dispatch"):
        autograd.make_jvp(lambda s: product(np.ones(2), s))(0.5)(1.0)


def test_a_higher_order_error_in_ndarray_times_box_is_not_swallowed() -> None:
    product = np.frompyfunc(operator.mul, 2, 1)
    autograd_primitive(product)

    @frule.register(product, np.ndarray, float)
    def product_frule(tangents: Any, x: np.ndarray, s: float) -> Any:
        return product(x, s), product(x, tangents[2])

    def inner(s: Any) -> Any:
        return autograd.make_jvp(lambda t: product(np.ones(2), t))(s)(1.0)[1]

    with use_chainrules(), pytest.raises(HigherOrderDerivativeError, match="order two or more"):
        autograd.make_jvp(inner)(0.5)(1.0)


# ---- keyword arguments autograd does not trace ------------------------------------------------------------------
def test_a_traced_keyword_argument_of_an_autograd_primitive_is_an_error() -> None:
    maker = vjp_maker(np.clip)

    def probe(lo: Any) -> Any:
        with pytest.raises(KeywordArgumentError, match=r"numpy\.clip: the keyword argument 'a_min' holds a value "
                                                       r"autograd traces"):
            maker((0,), np.ones(2), (np.ones(2),), {"a_min": lo})
        return lo * 2.0

    autograd.grad(probe)(0.5)


# ---- where autograd's own derivative is not implemented -------------------------------------------------------
def test_where_autograd_raises_not_implemented_the_rule_gives_the_first_order_and_the_second_raises_as_autograd():
    # autograd has no gradient of rfftn with an odd last length (NotImplementedError); the rule has one. Its
    # derivative needs autograd's, which is not implemented there either: the error is a NotImplementedError,
    # as autograd's own, so that code (and autograd's own test suite) catching autograd's error catches it
    x = np.linspace(-0.5, 0.7, 5 * 5 * 5).reshape(5, 5, 5)
    w = np.cos(np.arange(5 * 5 * 3)).reshape(5, 5, 3)

    def loss(m: Any) -> Any:
        return anp.sum(anp.real(anp.fft.rfftn(m)) * w)

    with pytest.raises(NotImplementedError):
        autograd.grad(loss)(x)  # autograd alone
    with use_chainrules(replace=True):
        gradient = autograd.grad(loss)(x)
        direction = np.sin(np.arange(x.size)).reshape(x.shape)
        expected = jvp(None, lambda m: np.sum(np.real(np.fft.rfftn(m)) * w), (x, direction))
        check_approx(np.sum(gradient * direction), expected, rtol=1e-8, name="odd-length rfftn, first order")
        with pytest.raises(HigherOrderNotImplementedError, match="not implemented here"):
            autograd.grad(lambda m: anp.sum(autograd.grad(loss)(m) ** 2))(x)
    assert issubclass(HigherOrderNotImplementedError, (NotImplementedError, HigherOrderDerivativeError))
