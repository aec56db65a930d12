"""Traced values inside tuple, list and dict arguments, and keyword arguments bound to their positions.

Through ``primitive(f)``: rules that take a sequence of arrays (``np.concatenate``,
``np.stack``, ``np.block``), functions of this module with rules that take ``args=(...)``
by keyword, and a stand-in for ``scipy.integrate.quad``'s rule (a higher-order rule, which
differentiates the integrand's parameters through ``rrule_via_ad``): the end-to-end target
of the quad rule, ``grad(lambda th: quad(lambda x, t: anp.sin(t * x), 0.0, th, (th,))[0])``,
with ``(th,)`` by position and by keyword. Every derivative is checked against finite
differences of the primal.
"""

from __future__ import annotations

from typing import Any

import autograd
import autograd.numpy as anp
import numpy as np
import pytest
import scipy.integrate

from chainrules import (
    HasForwardsMode,
    HasReverseMode,
    NoTangent,
    ProjectTo,
    Tangent,
    frule,
    frule_via_ad,
    not_implemented,
    passes_through,
    read_cotangent,
    read_cotangents,
    rrule,
    rrule_via_ad,
    unthunk,
)
from chainrules.interop.autograd import (
    AutogradConfig,
    HigherOrderDerivativeError,
    KeywordArgumentError,
    NotImplementedDerivativeError,
    primitive,
)
from chainrules.testing import check_approx, jvp, test_frule, test_rrule

CONFIG = AutogradConfig()
RNG = np.random.default_rng(1315)


def via_autograd_rrule(f: Any, *args: Any, **kwargs: Any) -> None:
    """autograd's reverse mode of ``f`` (through the bridge) against finite differences."""
    test_rrule(f, *args, config=CONFIG, rrule_f=rrule_via_ad, check_inplace_add=False, **kwargs)


def via_autograd_frule(f: Any, *args: Any, **kwargs: Any) -> None:
    """autograd's forward mode of ``f`` (through the bridge) against finite differences."""
    test_frule(f, *args, config=CONFIG, frule_f=frule_via_ad, rrule_f=rrule_via_ad, **kwargs)


concatenate = primitive(np.concatenate)
stack = primitive(np.stack)
block = primitive(np.block)


# ---- sequences of arrays: rules that exist today -----------------------------------------------------------
def test_concatenate_a_list_of_traced_arrays() -> None:
    a, b = RNG.standard_normal(2), RNG.standard_normal(3)
    w = RNG.standard_normal(5)
    via_autograd_rrule(lambda x, y: anp.sum(concatenate([x, y]) * w), a, b)
    via_autograd_frule(lambda x, y: concatenate([x, y]), a, b)


def test_a_tuple_mixing_traced_and_constant_arrays() -> None:
    a, c = RNG.standard_normal(2), RNG.standard_normal(2)
    w = RNG.standard_normal((3, 2))
    via_autograd_rrule(lambda x: anp.sum(stack((x, c, 2.0 * x)) * w), a)
    via_autograd_frule(lambda x: stack((x, c, 2.0 * x)), a)


def test_nested_lists() -> None:
    a, b, d = RNG.standard_normal((2, 2)), RNG.standard_normal((2, 1)), RNG.standard_normal((1, 1))
    c = RNG.standard_normal((1, 2))
    w = RNG.standard_normal((3, 3))
    via_autograd_rrule(lambda x, y, z: anp.sum(block([[x, y], [c, z]]) * w), a, b, d)
    via_autograd_frule(lambda x, y, z: block([[x, y], [c, z]]), a, b, d)


def test_a_sequence_passed_by_keyword() -> None:
    a, b = RNG.standard_normal(3), RNG.standard_normal(3)
    w = RNG.standard_normal((3, 2))
    via_autograd_rrule(lambda x, y: anp.sum(stack(arrays=[x, y], axis=1) * w), a, b)
    via_autograd_frule(lambda x, y: stack(arrays=[x, y], axis=1), a, b)


def test_einsum_operands_with_keywords_and_sublists() -> None:
    einsum = primitive(np.einsum)
    a, x = RNG.standard_normal((2, 3)), RNG.standard_normal(3)
    w = RNG.standard_normal(2)
    via_autograd_rrule(lambda m, v: anp.sum(einsum("ij,j->i", m, v, optimize=True) * w), a, x)
    # the sublist form: lists of integers beside the traced operands
    via_autograd_rrule(lambda m, v: anp.sum(einsum(m, [0, 1], v, [1], [0]) * w), a, x)
    via_autograd_frule(lambda m, v: einsum(m, [0, 1], v, [1], [0]), a, x)


def test_the_callers_list_is_not_mutated() -> None:
    a = RNG.standard_normal(2)
    held: list[Any] = []

    def f(x: Any) -> Any:
        pieces = [x, np.ones(1)]
        held.append(pieces)
        return anp.sum(concatenate(pieces) ** 2)

    autograd.grad(f)(a)
    assert type(held[0][0]).__name__ == "ArrayBox"  # still the caller's own values


# ---- keyword arguments bound to their positions -----------------------------------------------------------
def scaled_sum(x: Any, args: tuple[Any, ...] = (), full_output: int = 0, *, weight: Any = 1.0) -> Any:
    """``weight * sum(x) * args[0] ** 2 + args[1]``, a function taking parameters in ``args``."""
    t, s = args
    return weight * np.sum(x) * t ** 2 + s


@rrule.register(scaled_sum, np.ndarray, tuple, int)
def scaled_sum_rrule(x: np.ndarray, args: tuple[Any, ...], full_output: int = 0, *, weight: Any = 1.0) -> Any:
    t, s = args
    project_x, project_t, project_s = ProjectTo(x), ProjectTo(t), ProjectTo(s)

    def scaled_sum_pullback(dy: Any) -> tuple[Any, ...]:
        dy = read_cotangent(dy, 0.0, scaled_sum)
        if passes_through(dy):
            return NoTangent(), dy, dy, NoTangent()
        dx = project_x(weight * dy * t ** 2 * np.ones_like(x))
        dargs = Tangent(tuple, project_t(2 * weight * dy * np.sum(x) * t), project_s(dy))
        return NoTangent(), dx, dargs, NoTangent()

    return scaled_sum(x, args, weight=weight), scaled_sum_pullback


@frule.register(scaled_sum, np.ndarray, tuple, int)
def scaled_sum_frule(tangents: Any, x: np.ndarray, args: tuple[Any, ...], full_output: int = 0, *,
                     weight: Any = 1.0) -> Any:
    t = args[0]
    dx, dargs = unthunk(tangents[1]), unthunk(tangents[2])
    dt = 0.0 if passes_through(dargs) else unthunk(dargs[0])
    ds = 0.0 if passes_through(dargs) else unthunk(dargs[1])
    dx = 0.0 if passes_through(dx) else dx
    dt = 0.0 if passes_through(dt) else dt
    ds = 0.0 if passes_through(ds) else ds
    dy = weight * (np.sum(dx) * t ** 2 + 2 * np.sum(x) * t * dt) + ds
    return scaled_sum(x, args, weight=weight), dy


bridged_scaled_sum = primitive(scaled_sum)


@pytest.mark.parametrize("spelling", ["by position", "by keyword", "by keyword after another keyword"])
def test_args_by_position_or_by_keyword(spelling: str) -> None:
    x = RNG.standard_normal(3)

    def f(t: Any, s: Any) -> Any:
        if spelling == "by position":
            return bridged_scaled_sum(x, (t, s), 0, weight=2.0)
        if spelling == "by keyword":
            return bridged_scaled_sum(x, args=(t, s), weight=2.0)
        return bridged_scaled_sum(x, weight=2.0, full_output=0, args=(t, s))

    via_autograd_rrule(f, 0.7, -0.2)
    via_autograd_frule(f, 0.7, -0.2)


def test_an_unused_default_in_between_is_filled_in() -> None:
    seen: list[Any] = []

    def spy(x: Any, a: Any = "a", b: Any = None) -> Any:
        return x * b

    @rrule.register(spy, float, str, float)
    def spy_rrule(x: float, a: str, b: float) -> Any:
        seen.append(a)
        return x * b, lambda dy: (NoTangent(), b * unthunk(dy), NoTangent(), x * unthunk(dy))

    g = autograd.grad(lambda t: primitive(spy)(2.0, b=t))(0.5)
    check_approx(g, jvp(None, lambda t: spy(2.0, b=t), (0.5, 1.0)))
    assert seen == ["a"]


def test_a_traced_keyword_only_argument_is_an_error() -> None:
    x = RNG.standard_normal(3)
    with pytest.raises(KeywordArgumentError, match=r"scaled_sum: the keyword argument 'weight' holds a traced value, "
                                                   r"but \S*scaled_sum takes it only by keyword"):
        autograd.grad(lambda w: bridged_scaled_sum(x, (1.0, 2.0), weight=w))(0.5)


def test_a_not_implemented_part_names_the_place_in_the_container() -> None:
    def partial(x: Any, args: tuple[Any, ...] = ()) -> Any:
        return x * args[0]

    @rrule.register(partial, float, tuple)
    def partial_rrule(x: float, args: tuple[Any, ...]) -> Any:
        def partial_pullback(dy: Any) -> Any:
            dy = unthunk(dy)
            return NoTangent(), dy * args[0], Tangent(tuple, not_implemented("d/dt of partial"))

        return partial(x, args), partial_pullback

    with pytest.raises(NotImplementedDerivativeError) as info:
        autograd.grad(lambda t: primitive(partial)(2.0, args=(t,)))(0.5)
    assert "partial with respect to argument 1 ('args')[0]" in str(info.value)
    assert "d/dt of partial" in str(info.value)


def test_a_second_derivative_through_a_container_is_an_error_not_a_wrong_answer() -> None:
    a, b = RNG.standard_normal(2), RNG.standard_normal(2)

    def f(t: Any) -> Any:  # autograd's own derivatives take arrays by position: none to fall back to
        return anp.sum(concatenate([t * a, t ** 2 * b]) ** 2)

    check_approx(autograd.grad(f)(0.3), jvp(None, f, (0.3, 1.0)), rtol=1e-7)
    with pytest.raises(HigherOrderDerivativeError, match=r"derivative of numpy\.concatenate \(a derivative of order"):
        autograd.grad(autograd.grad(f))(0.3)


# ---- a higher-order rule: a stand-in for scipy.integrate.quad's ------------------------------------------------
def integrate(f: Any, a: float, b: float, args: tuple[Any, ...] = ()) -> tuple[float, float]:
    """``quad(f, a, b, args)``: the integral of ``f(x, *args)`` over ``[a, b]`` and its error estimate."""
    return scipy.integrate.quad(f, a, b, args=args, epsabs=1e-13, epsrel=1e-13)


def _parameter_cotangents(config: Any, f: Any, x: float, args: tuple[Any, ...]) -> np.ndarray:
    """``d f(x, *args) / d args`` (a row per parameter; zero for those with no tangent space)."""
    _, pullback = rrule_via_ad(config, f, x, *args)
    parts = pullback(1.0)[2:]
    return np.array([0.0 if passes_through(unthunk(p)) else float(np.real(unthunk(p))) for p in parts])


@rrule.register(integrate, object, float, float, tuple, config=HasReverseMode)
def integrate_rrule(config: Any, f: Any, a: float, b: float, args: tuple[Any, ...] = ()) -> Any:
    """The fundamental theorem of calculus for the limits; under the integral sign for the parameters."""
    y = integrate(f, a, b, args)
    project_args = ProjectTo(args)

    def integrate_pullback(dy: Any) -> tuple[Any, ...]:
        parts = read_cotangents(dy, y, integrate)
        value_ct = None if passes_through(parts) else parts[0]
        if value_ct is None:
            return NoTangent(), NoTangent(), 0.0, 0.0, project_args(Tangent(tuple, *([0.0] * len(args))))
        da = -value_ct * f(a, *args)
        db = value_ct * f(b, *args)
        dargs, _ = scipy.integrate.quad_vec(lambda x: _parameter_cotangents(config, f, x, args), a, b, epsabs=1e-13,
                                            epsrel=1e-13)
        return NoTangent(), NoTangent(), da, db, project_args(Tangent(tuple, *(value_ct * dargs)))

    return y, integrate_pullback


@frule.register(integrate, object, float, float, tuple, config=HasForwardsMode)
def integrate_frule(config: Any, tangents: Any, f: Any, a: float, b: float, args: tuple[Any, ...] = ()) -> Any:
    da, db, dargs = (unthunk(t) for t in tangents[2:5])
    da = 0.0 if passes_through(da) else da
    db = 0.0 if passes_through(db) else db
    d_parameters = tuple(NoTangent() if passes_through(dargs) else dargs[i] for i in range(len(args)))

    def pushforward(x: float) -> float:
        dfx = frule_via_ad(config, (NoTangent(), NoTangent(), *d_parameters), f, x, *args)[1]
        return 0.0 if passes_through(unthunk(dfx)) else float(unthunk(dfx))

    inner, _ = scipy.integrate.quad(pushforward, a, b, epsabs=1e-13, epsrel=1e-13)
    y = integrate(f, a, b, args)
    return y, Tangent(tuple, db * f(b, *args) - da * f(a, *args) + inner, NoTangent())


quad = primitive(integrate)


def _integrand(x: Any, t: Any) -> Any:
    return anp.sin(t * x)


def _plain_integral(th: Any) -> float:
    th = float(np.squeeze(th))
    return scipy.integrate.quad(lambda x: np.sin(th * x), 0.0, th, epsabs=1e-13, epsrel=1e-13)[0]


@pytest.mark.parametrize("by_keyword", [False, True], ids=["args by position", "args by keyword"])
def test_the_quad_target_of_issue_13(by_keyword: bool) -> None:
    def f(th: Any) -> Any:
        if by_keyword:
            return quad(_integrand, 0.0, th, args=(th,))[0]
        return quad(_integrand, 0.0, th, (th,))[0]

    expected = jvp(None, _plain_integral, (0.7, 1.0))
    check_approx(autograd.grad(f)(0.7), expected, rtol=1e-7)
    check_approx(autograd.make_jvp(f)(0.7)(1.0)[1], expected, rtol=1e-7)


def test_quad_with_a_constant_in_args_and_a_traced_lower_limit() -> None:
    def integrand(x: Any, t: Any, n: int) -> Any:
        return anp.cos(t * x) ** n

    def f(a: Any, t: Any) -> Any:
        return quad(integrand, a, 1.5, args=(t, 2))[0]

    def plain(a: Any, t: Any) -> float:
        a, t = float(np.squeeze(a)), float(np.squeeze(t))
        return scipy.integrate.quad(lambda x: np.cos(t * x) ** 2, a, 1.5, epsabs=1e-13, epsrel=1e-13)[0]

    da, dt = autograd.grad(f, (0, 1))(0.2, 0.9)
    check_approx(da, jvp(None, lambda a: plain(a, 0.9), (0.2, 1.0)), rtol=1e-7)
    check_approx(dt, jvp(None, lambda t: plain(0.2, t), (0.9, 1.0)), rtol=1e-7)
