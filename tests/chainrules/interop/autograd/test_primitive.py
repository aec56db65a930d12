"""``primitive(f)``: functions with chainrules rules as autograd primitives.

Every derivative is checked against finite differences: autograd's gradient through the
bridge is run by ``rrule_via_ad``/``frule_via_ad`` of ``AutogradConfig`` and handed to
``chainrules.testing``'s testers.
"""

from __future__ import annotations

from typing import Any

import autograd
import autograd.numpy as anp
import numpy as np
import pytest
import scipy.linalg

from chainrules import (
    NoTangent,
    ProjectTo,
    Tangent,
    Thunk,
    ZeroTangent,
    frule,
    frule_via_ad,
    not_implemented,
    rrule,
    rrule_via_ad,
    unthunk,
)
from chainrules.interop.autograd import (
    AutogradConfig,
    HigherOrderDerivativeError,
    NoRuleError,
    NotImplementedDerivativeError,
    primitive,
)
from chainrules.structured import Diagonal
from chainrules.testing import check_approx, grad, jvp, test_frule, test_rrule, vjp

CONFIG = AutogradConfig()


def via_autograd_rrule(f: Any, *args: Any, **kwargs: Any) -> None:
    """autograd's reverse mode of ``f`` (through the bridge) against finite differences."""
    test_rrule(f, *args, config=CONFIG, rrule_f=rrule_via_ad, check_inplace_add=False,
               **kwargs)


def via_autograd_frule(f: Any, *args: Any, **kwargs: Any) -> None:
    """autograd's forward mode of ``f`` (through the bridge) against finite differences."""
    test_frule(f, *args, config=CONFIG, frule_f=frule_via_ad, rrule_f=rrule_via_ad, **kwargs)


@pytest.fixture
def rng() -> np.random.Generator:
    return np.random.default_rng(20261124)


def _spd(rng: np.random.Generator, n: int) -> np.ndarray:
    a = rng.standard_normal((n, n))
    return a @ a.T + n * np.eye(n)


# ---- SciPy and NumPy functions autograd has no derivative of -----------------------------------------------
expm = primitive(scipy.linalg.expm)
eigh = primitive(np.linalg.eigh)
eigvalsh = primitive(np.linalg.eigvalsh)


def test_autograd_itself_has_no_derivative_of_expm() -> None:
    import autograd.scipy.linalg as asl

    from chainrules.interop.autograd import active_registration

    assert active_registration() is None  # primitive() needs no registration
    with pytest.raises(NotImplementedError):
        autograd.grad(lambda a: anp.sum(asl.expm(a)))(np.eye(2))


def test_expm_reverse_and_forward(rng: np.random.Generator) -> None:
    a = 0.5 * rng.standard_normal((3, 3))
    via_autograd_rrule(expm, a)
    via_autograd_frule(expm, a)


def test_expm_inside_autograd_code(rng: np.random.Generator) -> None:
    a = 0.3 * rng.standard_normal((3, 3))
    w = rng.standard_normal((3, 3))

    def loss(t: Any) -> Any:
        return anp.sum(anp.sin(expm(t * a)) * w)

    via_autograd_rrule(loss, 0.7)
    via_autograd_frule(loss, 0.7)


def test_tuple_outputs_eigh(rng: np.random.Generator) -> None:
    a = _spd(rng, 3)
    c = rng.standard_normal((3, 3))

    def loss(x: Any) -> Any:  # eigenvectors squared: invariant to their signs
        w, v = eigh(x)
        return anp.sum(w ** 2) + anp.sum(v ** 2 * c)

    via_autograd_rrule(loss, a)
    via_autograd_frule(loss, a)


def test_only_the_used_part_of_a_tuple_output_is_pulled_back(rng: np.random.Generator) -> None:
    a = _spd(rng, 3)
    seen: list[Any] = []

    def spy(x: np.ndarray) -> Any:
        return np.linalg.eigh(x)

    @rrule.register(spy, np.ndarray)
    def spy_rrule(x: np.ndarray) -> Any:
        y, pullback = rrule(np.linalg.eigh, x)

        def spy_pullback(dy: Any) -> Any:
            seen.append(dy)
            return pullback(dy)

        return y, spy_pullback

    autograd.grad(lambda x: anp.sum(primitive(spy)(x)[0]))(a)
    (dy,) = seen
    assert isinstance(dy, Tangent)
    assert isinstance(dy[1], ZeroTangent)  # autograd's zeros for the unused eigenvectors


def test_eigvalsh_sum_is_the_trace_gradient(rng: np.random.Generator) -> None:
    a = _spd(rng, 4)
    via_autograd_rrule(lambda x: anp.sum(eigvalsh(x)), a)


def test_float32_stays_float32(rng: np.random.Generator) -> None:
    a = (0.5 * rng.standard_normal((3, 3))).astype(np.float32)
    g = autograd.grad(lambda x: anp.sum(expm(x)))(a)
    assert g.dtype == np.float32
    via_autograd_rrule(expm, a)


def test_complex_inputs_follow_autograds_convention(rng: np.random.Generator) -> None:
    z = rng.standard_normal(3) + 1j * rng.standard_normal(3)
    exp = primitive(np.exp)

    def ours(w: Any) -> Any:
        return anp.sum(anp.abs(exp(w)) ** 2 + anp.real(exp(w)))

    def autograds(w: Any) -> Any:
        return anp.sum(anp.abs(anp.exp(w)) ** 2 + anp.real(anp.exp(w)))

    check_approx(autograd.grad(ours)(z), autograd.grad(autograds)(z))  # the same convention as autograd's own
    via_autograd_rrule(ours, z)  # and against finite differences, in chainrules' convention
    via_autograd_frule(exp, z)
    a = 0.3 * (rng.standard_normal((2, 2)) + 1j * rng.standard_normal((2, 2)))
    via_autograd_rrule(lambda x: anp.real(anp.sum(expm(x) * np.array([[1.0, 2j], [0.5, -1.0]]))), a)


def test_plain_calls_are_the_function_itself(rng: np.random.Generator) -> None:
    a = rng.standard_normal((2, 2))
    np.testing.assert_array_equal(expm(a), scipy.linalg.expm(a))
    assert expm.fun is scipy.linalg.expm
    assert expm.__name__ == "expm"
    assert primitive(anp.sin).fun is np.sin  # an autograd primitive is unwrapped


def test_keyword_arguments_reach_the_rule(rng: np.random.Generator) -> None:
    x = rng.standard_normal((3, 4))
    total = primitive(np.sum)
    w = rng.standard_normal(4)
    via_autograd_rrule(lambda a: anp.sum(total(a, axis=0) * w), x)
    via_autograd_rrule(lambda a: anp.sum(total(a, 0) * w), x)  # and by position
    via_autograd_frule(lambda a: total(a, axis=1), x)


# ---- user functions, rules registered in their own modules, before or after --------------------------------
def test_a_rule_registered_after_the_primitive_was_made(rng: np.random.Generator) -> None:
    def softplus(x: Any) -> Any:
        return np.log1p(np.exp(x))

    bridged = primitive(softplus)  # no rule yet
    x = rng.standard_normal(4)
    with pytest.raises(NoRuleError, match="softplus"):
        autograd.grad(lambda v: anp.sum(bridged(v)))(x)

    @rrule.register(softplus, np.ndarray)
    def softplus_rrule(x: np.ndarray) -> Any:
        project_x = ProjectTo(x)

        def softplus_pullback(dy: Any) -> Any:
            return NoTangent(), project_x(unthunk(dy) / (1 + np.exp(-x)))

        return softplus(x), softplus_pullback

    @frule.register(softplus, np.ndarray)
    def softplus_frule(tangents: Any, x: np.ndarray) -> Any:
        return softplus(x), unthunk(tangents[1]) / (1 + np.exp(-x))

    via_autograd_rrule(lambda v: anp.sum(bridged(v) ** 2), x)
    via_autograd_frule(bridged, x)


def test_as_a_decorator_with_the_rule_on_the_primitive(rng: np.random.Generator) -> None:
    @primitive
    def cube(x: Any) -> Any:
        return x ** 3

    @rrule.register(cube, np.ndarray)
    def cube_rrule(x: np.ndarray) -> Any:
        def cube_pullback(dy: Any) -> Any:
            return NoTangent(), 3 * x ** 2 * unthunk(dy)

        return x ** 3, cube_pullback

    x = rng.standard_normal(3)
    np.testing.assert_array_equal(cube(x), x ** 3)
    via_autograd_rrule(lambda v: anp.sum(cube(v)), x)


def test_the_output_is_computed_once(rng: np.random.Generator) -> None:
    calls = {"f": 0, "rule": 0}

    def square(x: Any) -> Any:
        calls["f"] += 1
        return x * x

    @rrule.register(square, np.ndarray)
    def square_rrule(x: np.ndarray) -> Any:
        calls["rule"] += 1

        def square_pullback(dy: Any) -> Any:
            return NoTangent(), 2 * x * unthunk(dy)

        return x * x, square_pullback

    autograd.grad(lambda v: anp.sum(primitive(square)(v)))(rng.standard_normal(3))
    assert calls == {"f": 0, "rule": 1}


def test_integer_and_flag_arguments_get_no_tangent_in_forward_mode(rng: np.random.Generator) -> None:
    received: list[Any] = []

    def scale(x: Any, k: int, flag: bool) -> Any:
        return x * k if flag else x

    @frule.register(scale, np.ndarray, int, bool)
    def scale_frule(tangents: Any, x: np.ndarray, k: int, flag: bool) -> Any:
        received.append(tangents)
        return scale(x, k, flag), unthunk(tangents[1]) * (k if flag else 1)

    x = rng.standard_normal(2)
    y, dy = autograd.make_jvp(lambda v: primitive(scale)(v, 3, True))(x)(np.ones(2))
    np.testing.assert_array_equal(y, 3 * x)
    check_approx(dy, jvp(None, lambda v: scale(v, 3, True), (x, np.ones(2))))
    assert isinstance(received[0][0], NoTangent)
    assert isinstance(received[0][2], NoTangent) and isinstance(received[0][3], NoTangent)


def test_a_float_argument_not_differentiated_gets_a_zero_tangent(rng: np.random.Generator) -> None:
    received: list[Any] = []

    def axpy(a: float, x: Any) -> Any:
        return a * x

    @frule.register(axpy, float, np.ndarray)
    def axpy_frule(tangents: Any, a: float, x: np.ndarray) -> Any:
        received.append(tangents)
        da, dx = unthunk(tangents[1]), unthunk(tangents[2])
        return a * x, da * x + a * dx

    autograd.make_jvp(lambda v: primitive(axpy)(2.0, v))(rng.standard_normal(2))(np.ones(2))
    assert isinstance(received[0][1], ZeroTangent)


# ---- structural arguments and outputs ----------------------------------------------------------------------
def test_tuple_and_dict_arguments(rng: np.random.Generator) -> None:
    def weighted(pair: tuple[Any, Any], scales: dict[str, Any]) -> Any:
        return np.sum(pair[0] * scales["a"]) + pair[1] * scales["b"]

    @rrule.register(weighted, tuple, dict)
    def weighted_rrule(pair: tuple[Any, Any], scales: dict[str, Any]) -> Any:
        x, t = pair

        def weighted_pullback(dy: Any) -> Any:
            dy = unthunk(dy)
            dpair = Tangent(tuple, Thunk(lambda: dy * scales["a"] * np.ones_like(x)), dy * scales["b"])
            dscales = Tangent(dict, a=dy * np.sum(x), b=dy * t)
            return NoTangent(), dpair, dscales

        return weighted(pair, scales), weighted_pullback

    pair = (rng.standard_normal(3), 0.5)
    scales = {"a": 1.5, "b": -2.0}
    via_autograd_rrule(primitive(weighted), pair, scales)


def test_a_zero_structural_field_becomes_autograds_zeros(rng: np.random.Generator) -> None:
    def first(pair: tuple[Any, Any]) -> Any:
        return pair[0]

    @rrule.register(first, tuple)
    def first_rrule(pair: tuple[Any, Any]) -> Any:
        def first_pullback(dy: Any) -> Any:
            return NoTangent(), Tangent(tuple, unthunk(dy), ZeroTangent())

        return pair[0], first_pullback

    g = autograd.grad(lambda p: anp.sum(primitive(first)(p)))((np.ones(2), np.ones(3)))
    np.testing.assert_array_equal(g[0], np.ones(2))
    np.testing.assert_array_equal(g[1], np.zeros(3))


# ---- structured matrices -----------------------------------------------------------------------------------
def test_structured_inputs_get_structured_cotangents(rng: np.random.Generator) -> None:
    D = Diagonal(rng.standard_normal(3))
    x = rng.standard_normal(3)
    g = autograd.grad(lambda M: anp.sum(M @ x))(D)
    assert isinstance(g, Diagonal)
    via_autograd_rrule(lambda M: anp.sum(M @ x), D)
    via_autograd_rrule(lambda M: anp.sum(x @ M), D)  # an ndarray on the left reaches the rule too
    via_autograd_rrule(lambda M: (M * 2.0 - M.T).sum() + M.trace(), D)


def test_structured_outputs_flow_into_autograd_code(rng: np.random.Generator) -> None:
    d = rng.standard_normal(3)
    x = rng.standard_normal((3, 2))
    make_diagonal = primitive(Diagonal)
    via_autograd_rrule(lambda v: anp.sum(anp.tanh(make_diagonal(v) @ x)), d)


# ---- errors ------------------------------------------------------------------------------------------------
def test_no_rule_for_the_argument_types() -> None:
    def halve(x: Any) -> Any:
        return x / 2

    @rrule.register(halve, float)
    def halve_rrule(x: float) -> Any:
        return x / 2, lambda dy: (NoTangent(), dy / 2)

    with pytest.raises(NoRuleError, match=r"halve\(ndarray\)"):
        autograd.grad(lambda v: anp.sum(primitive(halve)(v)))(np.ones(2))
    with pytest.raises(NoRuleError, match="forward mode"):
        autograd.make_jvp(primitive(halve))(1.0)(1.0)


def test_a_not_implemented_derivative_names_function_and_argument() -> None:
    def bessel(nu: float, x: float) -> float:
        return float(scipy.special.jv(nu, x))

    @rrule.register(bessel, float, float)
    def bessel_rrule(nu: float, x: float) -> Any:
        def bessel_pullback(dy: Any) -> Any:
            dx = unthunk(dy) * (scipy.special.jv(nu - 1, x) - scipy.special.jv(nu + 1, x)) / 2
            return NoTangent(), not_implemented("d/dnu of the Bessel function"), dx

        return bessel(nu, x), bessel_pullback

    import scipy.special

    bridged = primitive(bessel)
    dx = autograd.grad(bridged, 1)(1.5, 2.0)  # the implemented argument works
    check_approx(dx, jvp(None, lambda x: bessel(1.5, x), (2.0, 1.0)))
    with pytest.raises(NotImplementedDerivativeError) as info:
        autograd.grad(bridged, 0)(1.5, 2.0)
    message = str(info.value)
    assert "bessel" in message and "argument 0 ('nu')" in message and "d/dnu of the Bessel function" in message


def test_a_second_derivative_is_an_error_not_a_wrong_answer() -> None:
    a = np.array([[0.0, 1.0], [-1.0, 0.0]])

    def loss(t: Any) -> Any:  # autograd has no derivative of expm to fall back to
        return anp.sum(expm(t * a))

    with pytest.raises(HigherOrderDerivativeError, match=r"derivative of scipy\.linalg\.expm \(a derivative of order"):
        autograd.grad(autograd.grad(loss))(0.5)
    with pytest.raises(HigherOrderDerivativeError, match="order two or more"):
        autograd.make_jvp(autograd.grad(loss))(0.5)(1.0)


def test_a_pullback_returning_the_wrong_number_of_cotangents_is_reported() -> None:
    def bad(x: Any) -> Any:
        return 2 * x

    @rrule.register(bad, float)
    def bad_rrule(x: float) -> Any:
        return 2 * x, lambda dy: (NoTangent(),)

    with pytest.raises(TypeError, match="returned 1 cotangents for 1 arguments"):
        autograd.grad(primitive(bad))(1.0)


def test_a_wrong_rule_fails_the_testers_through_the_bridge() -> None:
    def triple(x: Any) -> Any:
        return 3 * x

    @rrule.register(triple, np.ndarray)
    def triple_rrule(x: np.ndarray) -> Any:
        return 3 * x, lambda dy: (NoTangent(), 2 * unthunk(dy))  # wrong: 2 instead of 3

    with pytest.raises(AssertionError, match="differ"):
        via_autograd_rrule(lambda v: anp.sum(primitive(triple)(v) ** 2), np.array([1.0, 2.0]))


def test_finite_differences_agree_with_the_bridge_on_a_composition(rng: np.random.Generator) -> None:
    a = _spd(rng, 3)
    b = rng.standard_normal(3)
    cholesky = primitive(np.linalg.cholesky)
    solve = primitive(scipy.linalg.solve_triangular)

    def loss(m: Any, v: Any) -> Any:
        L = cholesky(m)
        z = solve(L, v, lower=True)
        return anp.dot(z, z) + anp.sum(anp.log(anp.diag(L)))

    grads = autograd.grad(loss, (0, 1))(a, b)
    expected = vjp(None, lambda m, v: float(loss(m, v)), 1.0, a, b)
    check_approx(grads[0], expected[0])
    check_approx(grads[1], expected[1])


def test_a_bound_method_is_the_primitive_of_its_class_s_function_with_the_object_first():
    # the core's rules of a bound method return the object's cotangent after the function's own: the primitive
    # passes the object first, so autograd's argument positions and the pullback's entries agree
    import scipy.stats as st

    logpdf = primitive(st.gamma.logpdf)
    assert logpdf.fun == st.gamma.logpdf
    x = np.array([0.5, 1.5, 4.0])

    def loglik(p):
        return anp.sum(logpdf(x, p[0], 0.0, p[1]))

    p = np.array([2.5, 1.5])
    g = autograd.grad(loglik)(p)
    fd = grad(None, lambda q: float(loglik(q)), p)
    np.testing.assert_allclose(g, fd, rtol=1e-6)
    _, dy = autograd.make_jvp(lambda a: logpdf(x, a, 0.0, 1.5))(2.5)(1.0)  # forward mode: the frule
    fd_a = jvp(None, lambda a: st.gamma.logpdf(x, a, 0, 1.5), (2.5, 1.0))
    np.testing.assert_allclose(dy, fd_a, rtol=1e-6)
    normal = primitive(np.random.RandomState(0).normal)  # a builtin bound method
    assert float(autograd.grad(lambda m: anp.sum(normal(m, 2.0, size=3)))(1.0)) == 3.0
