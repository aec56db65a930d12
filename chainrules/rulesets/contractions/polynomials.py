"""NumPy's polynomial functions (coefficients highest power first): ``np.polyval``, ``np.polyadd``,
``np.polysub``, ``np.polymul``, ``np.polyder``, ``np.polyint`` and ``np.vander``.

``np.polyval(p, x)``

``y = sum_i p[i] x^(N-1-i)`` is linear in ``p``, so ``p_bar[i] = sum conj(x)^(N-1-i) dy``;
the pullback computes these sums with a running product ``dy * conj(x)^k`` (Horner's
scheme in reverse), in ``O(N)`` passes over ``x`` and ``O(size(x))`` memory, never
building the Vandermonde matrix. With respect to ``x``,
``x_bar = conj(polyval(p', x)) dy`` where ``p'`` are the coefficients of the derivative.
A 2-d ``p`` (one polynomial per column, broadcast against ``x`` as NumPy does) works the
same way, each cotangent summed back to its input's shape.

The others are linear in their inputs (``polymul`` is bilinear: a full convolution, whose
adjoint is a correlation with the other factor), except ``vander``, whose columns are
powers of ``x``: ``x_bar = sum_j conj(p_j x^(p_j - 1)) V_bar[:, j]``. ``polyder`` and
``polyint`` multiply each coefficient by a constant that depends only on its position and
``m``; the rules get those constants by applying NumPy's own function to a vector of ones
(``polyint``'s integration constants ``k`` likewise), so they follow NumPy's definitions
exactly. ``polyder`` and ``polyint`` have rules for 1-d coefficient arrays (``rrule``
returns ``None`` for others, which NumPy does not treat as polynomials). ``np.poly1d``
inputs are not covered; ``polydiv``, ``polyfit``, ``roots`` and ``poly`` are in
:mod:`chainrules.rulesets.contractions.polynomial_fitting`.
"""

from __future__ import annotations

import functools
import numbers
import operator
from typing import Any, SupportsIndex

import numpy as np

from chainrules.rulesets.contractions._multilinear import lazy_cotangent, sum_tangents
from chainrules.rulesets.reductions._tangent_values import passed_on, tangent_value
from chainrules_core import (
    NUMERIC,
    NoTangent,
    ProjectTo,
    Sample,
    ZeroTangent,
    cotangent_projector,
    frule,
    passes_through,
    read_cotangent,
    rrule,
    sample_inputs,
    unbroadcast,
)
from chainrules_core.scalar_rules import conj_if_complex


def derivative_coefficients(p: np.ndarray) -> np.ndarray:
    """Coefficients (highest power first) of the derivative of the polynomial ``p``.

    Examples
    --------
    >>> derivative_coefficients(np.array([3.0, 2.0, 1.0]))    # 3x^2 + 2x + 1 -> 6x + 2
    array([6., 2.])
    """
    n = p.shape[0]
    if n <= 1:
        return np.zeros((1,) + p.shape[1:], dtype=np.result_type(p, np.float64))
    powers = np.arange(n - 1, 0, -1).reshape((-1,) + (1,) * (p.ndim - 1))
    return p[:-1] * powers


def polyval_cotangent_p(p: np.ndarray, x: Any, dy: np.ndarray) -> np.ndarray:
    """``p_bar[i] = sum(conj(x)^(N-1-i) dy)`` (summed back to the shape of ``p[i]``), by a running product.

    Examples
    --------
    >>> polyval_cotangent_p(np.zeros(3), np.array([1.0, 2.0]), np.ones(2))    # [sum x^2, sum x, sum 1]
    array([5., 3., 2.])
    """
    n = p.shape[0]
    xc = conj_if_complex(np.asarray(x))
    out = np.zeros(p.shape, dtype=np.result_type(dy, xc, np.float64))
    running = dy
    for i in range(n - 1, -1, -1):
        out[i] = unbroadcast(running, p.shape[1:])
        if i:
            running = running * xc
    return out


@rrule.register(np.polyval, np.ndarray, NUMERIC)
def polyval_rrule(p: np.ndarray, x: Any) -> Any:
    """Reverse rule of ``np.polyval(p, x)``: ``p_bar[i] = sum(conj(x)^(N-1-i) dy)``, ``x_bar = conj(p'(x)) dy``.

    Examples
    --------
    >>> from chainrules import unthunk
    >>> y, pullback = rrule(np.polyval, np.array([1.0, 0.0, -1.0]), 3.0)     # x^2 - 1
    >>> tuple(map(unthunk, pullback(1.0)[1:]))
    (array([9., 3., 1.]), 6.0)
    """
    y = np.polyval(p, x)
    project_p, project_x = cotangent_projector(p), cotangent_projector(x)

    def polyval_pullback(dy: Any) -> tuple[Any, ...]:
        dy = read_cotangent(dy, y, np.polyval)
        if passes_through(dy):
            zero = passed_on(dy)
            return NoTangent(), project_p(zero), project_x(zero)
        dy = np.asarray(dy)
        dp = lazy_cotangent(project_p, lambda: polyval_cotangent_p(p, x, dy))
        slope = functools.partial(np.polyval, derivative_coefficients(p), x)
        dx = lazy_cotangent(project_x, lambda: unbroadcast(conj_if_complex(slope()) * dy, np.shape(x)))
        return NoTangent(), dp, dx

    return y, polyval_pullback


@frule.register(np.polyval, np.ndarray, NUMERIC)
def polyval_frule(tangents: Any, p: np.ndarray, x: Any) -> Any:
    """Forward rule of ``np.polyval``: ``polyval(dp, x) + polyval(p', x) dx``.

    Examples
    --------
    >>> frule((NoTangent(), np.zeros(3), 1.0), np.polyval, np.array([1.0, 0.0, -1.0]), 3.0)[1]
    6.0
    """
    y = np.polyval(p, x)
    dp, dx = tangent_value(tangents[1]), tangent_value(tangents[2])
    terms = (None if dp is None else np.polyval(dp, x),
             None if dx is None else np.polyval(derivative_coefficients(p), x) * dx)
    return y, sum_tangents(terms, ProjectTo(y))


# ---- polyadd, polysub, polymul -----------------------------------------------------------------------
def _trailing_part(dy: np.ndarray, x: Any) -> np.ndarray:
    """The cotangent of a summand of ``polyadd``: the trailing ``len(x)`` coefficients, in ``x``'s shape."""
    x1 = np.atleast_1d(x)
    part = dy[dy.shape[0] - x1.shape[0]:]
    return np.reshape(unbroadcast(part, x1.shape), np.shape(x))


def _poly_sum_rrule(f: Any, sign: float, a1: Any, a2: Any) -> Any:
    y = f(a1, a2)
    project_a1, project_a2 = cotangent_projector(a1), cotangent_projector(a2)

    def polyadd_pullback(dy: Any) -> tuple[Any, ...]:
        dy = read_cotangent(dy, y, f)
        if passes_through(dy):
            zero = passed_on(dy)
            return NoTangent(), project_a1(zero), project_a2(zero)
        dy = np.asarray(dy)
        return (NoTangent(), lazy_cotangent(project_a1, lambda: _trailing_part(dy, a1)),
                lazy_cotangent(project_a2, lambda: sign * _trailing_part(dy, a2)))

    return y, polyadd_pullback


@rrule.register(np.polyadd, NUMERIC, NUMERIC)
def polyadd_rrule(a1: Any, a2: Any) -> Any:
    """Reverse rule of ``np.polyadd``: each summand gets the trailing part of the cotangent.

    Examples
    --------
    >>> from chainrules import unthunk
    >>> y, pullback = rrule(np.polyadd, np.array([1.0, 2.0, 3.0]), np.array([1.0, 1.0]))
    >>> unthunk(pullback(np.array([1.0, 2.0, 3.0]))[2])
    array([2., 3.])
    """
    return _poly_sum_rrule(np.polyadd, 1.0, a1, a2)


@rrule.register(np.polysub, NUMERIC, NUMERIC)
def polysub_rrule(a1: Any, a2: Any) -> Any:
    """Reverse rule of ``np.polysub``: the trailing parts of the cotangent, negated for ``a2``.

    Examples
    --------
    >>> from chainrules import unthunk
    >>> y, pullback = rrule(np.polysub, np.array([1.0, 2.0, 3.0]), np.array([1.0, 1.0]))
    >>> unthunk(pullback(np.array([1.0, 2.0, 3.0]))[2])
    array([-2., -3.])
    """
    return _poly_sum_rrule(np.polysub, -1.0, a1, a2)


def _sum_frule(f: Any, tangents: Any, a1: Any, a2: Any) -> Any:
    """``polyadd``/``polysub`` are linear in both arguments together: the tangent is ``f(da1, da2)``."""
    y = f(a1, a2)
    d1, d2 = tangent_value(tangents[1]), tangent_value(tangents[2])
    if d1 is None and d2 is None:
        return y, ZeroTangent()
    d1 = np.zeros(np.shape(a1)) if d1 is None else d1
    d2 = np.zeros(np.shape(a2)) if d2 is None else d2
    return y, ProjectTo(y)(f(d1, d2))


@frule.register(np.polyadd, NUMERIC, NUMERIC)
def polyadd_frule(tangents: Any, a1: Any, a2: Any) -> Any:
    """Forward rule of ``np.polyadd``: ``polyadd(da1, da2)``.

    Examples
    --------
    >>> frule((NoTangent(), np.ones(3), np.ones(2)), np.polyadd, np.ones(3), np.ones(2))[1]
    array([1., 2., 2.])
    """
    return _sum_frule(np.polyadd, tangents, a1, a2)


@frule.register(np.polysub, NUMERIC, NUMERIC)
def polysub_frule(tangents: Any, a1: Any, a2: Any) -> Any:
    """Forward rule of ``np.polysub``: ``polysub(da1, da2)``.

    Examples
    --------
    >>> frule((NoTangent(), np.ones(3), np.ones(2)), np.polysub, np.ones(3), np.ones(2))[1]
    array([1., 0., 0.])
    """
    return _sum_frule(np.polysub, tangents, a1, a2)


def _poly1d_coefficients(a: Any) -> tuple[np.ndarray, slice]:
    """The coefficients ``np.poly1d(a)`` keeps (leading zeros stripped) and where they sit in ``a``."""
    kept = np.poly1d(a).coeffs
    n = np.atleast_1d(a).shape[0]
    return kept, slice(n - kept.shape[0], n)


def _polymul_cotangent(dy: np.ndarray, a: Any, where: slice, other: np.ndarray) -> np.ndarray:
    out = np.zeros(np.atleast_1d(a).shape, dtype=np.result_type(dy, other, np.float64))
    out[where] = np.correlate(dy, other, "valid")
    return np.reshape(out, np.shape(a))


@rrule.register(np.polymul, NUMERIC, NUMERIC)
def polymul_rrule(a1: Any, a2: Any) -> Any:
    """Reverse rule of ``np.polymul`` (a full convolution): correlations of the cotangent with the other factor.

    NumPy strips leading zero coefficients first (through ``np.poly1d``); they get a zero
    cotangent (a nonzero value there would change the output's length).

    Examples
    --------
    >>> from chainrules import unthunk
    >>> y, pullback = rrule(np.polymul, np.array([1.0, 2.0]), np.array([1.0, 3.0]))
    >>> tuple(map(unthunk, pullback(np.array([0.0, 1.0, 0.0]))[1:]))
    (array([3., 1.]), array([2., 1.]))
    """
    y = np.polymul(a1, a2)
    project_a1, project_a2 = cotangent_projector(a1), cotangent_projector(a2)
    (b1, where1), (b2, where2) = _poly1d_coefficients(a1), _poly1d_coefficients(a2)

    def polymul_pullback(dy: Any) -> tuple[Any, ...]:
        dy = read_cotangent(dy, y, np.polymul)
        if passes_through(dy):
            zero = passed_on(dy)
            return NoTangent(), project_a1(zero), project_a2(zero)
        dy = np.asarray(dy)
        return (NoTangent(), lazy_cotangent(project_a1, lambda: _polymul_cotangent(dy, a1, where1, b2)),
                lazy_cotangent(project_a2, lambda: _polymul_cotangent(dy, a2, where2, b1)))

    return y, polymul_pullback


@frule.register(np.polymul, NUMERIC, NUMERIC)
def polymul_frule(tangents: Any, a1: Any, a2: Any) -> Any:
    """Forward rule of ``np.polymul``: ``convolve(da1, a2) + convolve(a1, da2)`` on the kept coefficients.

    Examples
    --------
    >>> frule((NoTangent(), np.ones(2), np.zeros(2)), np.polymul, np.ones(2), np.ones(2))[1]
    array([1., 2., 1.])
    """
    y = np.polymul(a1, a2)
    (b1, where1), (b2, where2) = _poly1d_coefficients(a1), _poly1d_coefficients(a2)
    d1, d2 = tangent_value(tangents[1]), tangent_value(tangents[2])
    terms = (None if d1 is None else np.convolve(np.atleast_1d(d1)[where1], b2),
             None if d2 is None else np.convolve(b1, np.atleast_1d(d2)[where2]))
    return y, sum_tangents(terms, ProjectTo(y))


# ---- polyder, polyint ---------------------------------------------------------------------------------------
@rrule.register(np.polyder, np.ndarray, SupportsIndex)
def polyder_rrule(p: np.ndarray, m: SupportsIndex = 1) -> Any:
    """Reverse rule of ``np.polyder(p, m)``: ``p_bar[i] = c_i dy[i]`` with NumPy's factors ``c = polyder(1, m)``.

    Examples
    --------
    >>> from chainrules import unthunk
    >>> y, pullback = rrule(np.polyder, np.array([1.0, 1.0, 1.0]))
    >>> unthunk(pullback(np.array([1.0, 1.0]))[1])
    array([2., 1., 0.])
    """
    if p.ndim != 1:
        return None
    m = operator.index(m)
    y = np.polyder(p, m)
    project_p = cotangent_projector(p)
    factors = np.polyder(np.ones(p.shape[0]), m)

    def polyder_pullback(dy: Any) -> tuple[Any, ...]:
        dy = read_cotangent(dy, y, np.polyder)
        if passes_through(dy):
            zero = passed_on(dy)
            return NoTangent(), project_p(zero), NoTangent()

        def p_cotangent() -> np.ndarray:
            out = np.zeros(p.shape, dtype=np.result_type(dy, np.float64))
            out[:factors.size] = factors * dy
            return out

        return NoTangent(), lazy_cotangent(project_p, p_cotangent), NoTangent()

    return y, polyder_pullback


@frule.register(np.polyder, np.ndarray, SupportsIndex)
def polyder_frule(tangents: Any, p: np.ndarray, m: SupportsIndex = 1) -> Any:
    """Forward rule of ``np.polyder``: the derivative of the tangent.

    Examples
    --------
    >>> frule((NoTangent(), np.array([1.0, 0.0, 0.0])), np.polyder, np.ones(3))[1]
    array([2., 0.])
    """
    if p.ndim != 1:
        return None
    y = np.polyder(p, m)
    dp = tangent_value(tangents[1])
    return y, sum_tangents([None if dp is None else np.polyder(dp, m)], ProjectTo(y))


def _integration_constants(k: Any, m: int) -> np.ndarray:
    """``k`` as ``np.polyint`` uses it: ``m`` constants (a single one is repeated)."""
    k = np.zeros(m) if k is None else np.atleast_1d(k)
    if k.shape[0] == 1 and m > 1:
        k = k[0] * np.ones(m)
    return k


@rrule.register(np.polyint, np.ndarray, SupportsIndex, (numbers.Number, np.ndarray, type(None)))
def polyint_rrule(p: np.ndarray, m: SupportsIndex = 1, k: Any = None) -> Any:
    """Reverse rule of ``np.polyint(p, m, k)``, with respect to ``p`` and the integration constants ``k``.

    Examples
    --------
    >>> from chainrules import unthunk
    >>> y, pullback = rrule(np.polyint, np.array([3.0, 2.0]), 1, 5.0)
    >>> tuple(map(unthunk, pullback(np.array([1.0, 1.0, 1.0]))[1:]))
    (array([0.5, 1. ]), NoTangent(), 1.0)
    """
    if p.ndim != 1:
        return None
    m = operator.index(m)
    y = np.polyint(p, m, k)
    project_p, project_k = cotangent_projector(p), cotangent_projector(k)
    n = p.shape[0]
    p_factors = np.polyint(np.ones(n), m)[:n]
    k_factors = np.polyint(np.zeros(n), m, np.ones(m))[n:] if m else np.zeros(0)

    def polyint_pullback(dy: Any) -> tuple[Any, ...]:
        dy = read_cotangent(dy, y, np.polyint)
        if passes_through(dy):
            zero = passed_on(dy)
            return NoTangent(), project_p(zero), NoTangent(), project_k(zero)
        dy = np.asarray(dy)

        def k_cotangent() -> Any:
            constants = k_factors * dy[n:]
            if np.size(k) == 1:
                return np.reshape(np.sum(constants), np.shape(k))
            out = np.zeros(np.shape(k), dtype=constants.dtype)
            out[:m] = constants
            return out

        dk = project_k(ZeroTangent()) if m == 0 else lazy_cotangent(project_k, k_cotangent)
        return NoTangent(), lazy_cotangent(project_p, lambda: p_factors * dy[:n]), NoTangent(), dk

    return y, polyint_pullback


@frule.register(np.polyint, np.ndarray, SupportsIndex, (numbers.Number, np.ndarray, type(None)))
def polyint_frule(tangents: Any, p: np.ndarray, m: SupportsIndex = 1, k: Any = None) -> Any:
    """Forward rule of ``np.polyint``: the antiderivative of the tangent with the tangents of the constants.

    Examples
    --------
    >>> frule((NoTangent(), np.array([2.0, 0.0])), np.polyint, np.ones(2))[1]
    array([1., 0., 0.])
    """
    if p.ndim != 1:
        return None
    m = operator.index(m)
    y = np.polyint(p, m, k)
    dp, dk = tangent_value(tangents[1]), tangent_value(tangents[3]) if k is not None else None
    if dp is None and dk is None:
        return y, ZeroTangent()
    dp = np.zeros(p.shape) if dp is None else dp
    dk = None if dk is None or m == 0 else _integration_constants(dk, m)
    return y, ProjectTo(y)(np.polyint(dp, m, dk))


# ---- vander ---------------------------------------------------------------------------------------------------
def _vander_rates(x: np.ndarray, V: np.ndarray, increasing: bool) -> np.ndarray:
    """``d V[:, j] / d x = p_j x^(p_j - 1)``, from the neighbouring column of ``V`` (``p_j`` the power)."""
    N = V.shape[1]
    rates = np.zeros(V.shape, dtype=np.result_type(V, np.float64))
    if N < 2:
        return rates
    if increasing:
        rates[:, 1:] = np.arange(1, N) * V[:, :-1]
    else:
        rates[:, :-1] = np.arange(N - 1, 0, -1) * V[:, 1:]
    return rates


@rrule.register(np.vander, np.ndarray)
def vander_rrule(x: np.ndarray, N: Any = None, increasing: bool = False) -> Any:
    """Reverse rule of ``np.vander(x, N, increasing)``: ``x_bar = sum_j conj(p_j x^(p_j - 1)) V_bar[:, j]``.

    Examples
    --------
    >>> from chainrules import unthunk
    >>> V, pullback = rrule(np.vander, np.array([2.0, 3.0]), 3)
    >>> unthunk(pullback(np.ones((2, 3)))[1])          # 2x + 1
    array([5., 7.])
    """
    V = np.vander(x, N, increasing)
    project_x = cotangent_projector(x)

    def vander_pullback(dV: Any) -> tuple[Any, ...]:
        dV = read_cotangent(dV, V, np.vander)
        if passes_through(dV):
            zero = passed_on(dV)
            return NoTangent(), project_x(zero), NoTangent(), NoTangent()
        dx = lazy_cotangent(project_x, lambda: np.sum(conj_if_complex(_vander_rates(x, V, increasing)) * dV, axis=1))
        return NoTangent(), dx, NoTangent(), NoTangent()

    return V, vander_pullback


@frule.register(np.vander, np.ndarray)
def vander_frule(tangents: Any, x: np.ndarray, N: Any = None, increasing: bool = False) -> Any:
    """Forward rule of ``np.vander``: ``dV[:, j] = p_j x^(p_j - 1) dx``.

    Examples
    --------
    >>> frule((NoTangent(), np.ones(2), NoTangent()), np.vander, np.array([2.0, 3.0]), 3)[1]
    array([[4., 1., 0.],
           [6., 1., 0.]])
    """
    V = np.vander(x, N, increasing)
    dx = tangent_value(tangents[1])
    if dx is None:
        return V, ZeroTangent()
    return V, ProjectTo(V)(_vander_rates(x, V, increasing) * np.asarray(dx)[:, np.newaxis])


# ---- sample inputs ----------------------------------------------------------------------------------
@sample_inputs(np.polyval)
def _polyval_samples(rng: np.random.Generator) -> list[Sample]:
    p, x = rng.standard_normal(4), rng.standard_normal((2, 3))
    return [Sample(p, x), Sample(p, 0.7, label="a scalar x"), Sample(p[:1], x, label="a constant polynomial"),
            Sample(rng.standard_normal((3, 2)), rng.standard_normal(2), label="one polynomial per column"),
            Sample(p, 2, label="an integer x (not differentiated)"),
            Sample(np.array([1, 2, 3]), x, label="integer coefficients (not differentiated)"),
            Sample(p.astype(np.float32), x.astype(np.float32), label="float32"),
            Sample(p + 1j * rng.standard_normal(4), x, label="complex coefficients"),
            Sample(p, x + 1j * x[::-1], label="complex x")]


@sample_inputs(np.polyadd, np.polysub, np.polymul)
def _arithmetic_samples(rng: np.random.Generator) -> list[Sample]:
    a, b = rng.standard_normal(4), rng.standard_normal(2)
    return [Sample(a, b, label="different degrees"), Sample(b, a, label="the shorter first"),
            Sample(2.0, a, label="a scalar"), Sample(a.astype(np.float32), b.astype(np.float32), label="float32"),
            Sample(a + 1j * a[::-1], b, label="complex")]


@sample_inputs(np.polyder)
def _polyder_samples(rng: np.random.Generator) -> list[Sample]:
    p = rng.standard_normal(5)
    return [Sample(p), Sample(p, 2, label="m by position"), Sample(p, fkwargs={"m": 3}, label="m by keyword"),
            Sample(p, 0, label="m = 0"), Sample(p[:2], 3, label="m above the degree: zero"),
            Sample(p.astype(np.float32), label="float32"), Sample(p + 1j * p[::-1], label="complex")]


@sample_inputs(np.polyint)
def _polyint_samples(rng: np.random.Generator) -> list[Sample]:
    p = rng.standard_normal(3)
    return [Sample(p), Sample(p, 2, label="m by position"), Sample(p, 1, 1.5, label="an integration constant"),
            Sample(p, 2, rng.standard_normal(2), label="one constant per integration"),
            Sample(p, 3, 0.5, label="one constant repeated"),
            Sample(p, fkwargs={"m": 2, "k": np.array([0.5, -1.0])}, label="m and k by keyword"),
            Sample(p.astype(np.float32), label="float32"), Sample(p + 1j * p[::-1], 1, 0.5j, label="complex")]


@sample_inputs(np.vander)
def _vander_samples(rng: np.random.Generator) -> list[Sample]:
    x = rng.standard_normal(3)
    return [Sample(x), Sample(x, 4, label="N by position"), Sample(x, fkwargs={"increasing": True}, label="increasing"),
            Sample(x, 2, True, label="N and increasing by position"), Sample(x, 1, label="N = 1: constant"),
            Sample(x.astype(np.float32), label="float32"), Sample(x + 1j * x[::-1], label="complex")]
