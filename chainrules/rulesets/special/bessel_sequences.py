"""Functions returning a sequence of orders at one point: ``riccati_jn``, ``riccati_yn``, ``lmbda``.

``riccati_jn(n, x)`` returns ``(S, S')`` for the orders ``0..n``, with ``S_k(x) = x
j_k(x)`` (``riccati_yn``: ``C_k(x) = x y_k(x)``, for ``x > 0`` only: SciPy returns ``-1e300``
sentinels for ``x <= 0``, and the rule NaN). Both parts are differentiated in the
scalar ``x``: ``S_k`` has the derivative ``S'_k`` and ``S'_k`` the derivative ``S''_k =
(k(k+1)/x^2 - 1) S_k`` (the Riccati-Bessel equation, DLMF 10.47.1 with ``w = x j_k``); at
``x = 0``, where ``S_k ~ x^(k+1) / (2k+1)!!``, its limit ``S''_1(0) = 2/3`` (``0`` for the
other orders; ``C_k`` is infinite there). ``n`` is an integer: ``NoTangent()``.

``lmbda(v, x)`` returns the Jahnke-Emden functions ``Lambda_u(x) = Gamma(u+1) J_u(x) /
(x/2)^u = 0F1(; u+1; -x^2/4)`` and their derivatives ``Lambda'_u(x) = -x/(2(u+1))
Lambda_{u+1}(x)``, for the orders ``u = v - floor(v) + k``, ``k = 0..floor(v)``. Both parts
are differentiated in ``x`` (``Lambda''_u = -Lambda_u - (2u+1)/x Lambda'_u``, from ``x
Lambda'' + (2u+1) Lambda' + x Lambda = 0``; ``-1/(2(u+1))`` at ``x = 0``) and in the real
order ``v`` (every ``u`` moves with ``v``)::

    d/du Lambda_u(x) = -sum_k (-x^2/4)^k / (k! (u+1)_k) (psi(u+k+1) - psi(u+1))            (|x| <= 2)
                     = Lambda_u (psi(u+1) - log(|x|/2)) + Gamma(u+1) (|x|/2)^-u dJ_u(|x|)/du   (|x| > 2)
    d/du Lambda'_u(x) = -Lambda'_u / (u+1) - x/(2(u+1)) d/du Lambda_{u+1}(x)

(the series is the order derivative of the hypergeometric series term by term; the second
form uses the order derivative of ``J`` of :mod:`chainrules.rulesets.special.bessel`).
For ``x < 0`` SciPy returns ``Lambda_u(|x|)`` and ``Lambda'_u(|x|)`` (both even in ``x``, so
the second part is not the derivative of the first there): the rule differentiates what
SciPy returns. The number of orders is ``floor(v) + 1``: it changes at the integers, where the output is
continuous from the right and the rule gives the derivative from the right.

Examples
--------
>>> import numpy as np, scipy.special as sc
>>> import chainrules
>>> from chainrules import frule
>>> (s, ds), tangent = frule((None, None, 1.0), sc.riccati_jn, 2, 1.5)
>>> bool(np.allclose(tangent[0], ds))
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import scipy.special as sc

from chainrules.rulesets.special._bessel_order import jy_order
from chainrules_core import (
    AbstractZero,
    NoTangent,
    NotImplementedTangent,
    Sample,
    Tangent,
    ZeroTangent,
    cotangent_projector,
    differentiable,
    frule,
    read_cotangents,
    rrule,
    sample_inputs,
    unthunk,
)

NO = NoTangent()


# ---- riccati_jn, riccati_yn -------------------------------------------------------------------------
def riccati_second_derivative(f: Any, x: Any, values: np.ndarray) -> np.ndarray:
    """``S''_k(x) = (k(k+1)/x^2 - 1) S_k(x)`` for ``k = 0..n``, with its limit at ``x = 0``.

    Examples
    --------
    >>> import numpy as np, scipy.special as sc
    >>> from chainrules.rulesets.special.bessel_sequences import riccati_second_derivative
    >>> riccati_second_derivative(sc.riccati_jn, 0.0, sc.riccati_jn(2, 0.0)[0])
    array([0.        , 0.66666667, 0.        ])
    """
    k = np.arange(len(values), dtype=np.float64)
    if x == 0:
        out = np.zeros(len(values)) if f is sc.riccati_jn else np.full(len(values), np.nan)
        if f is sc.riccati_jn and len(values) > 1:
            out[1] = 2 / 3
        return out
    return (k * (k + 1) / (x * x) - 1) * values


Partials = Callable[[Any, Any, tuple[np.ndarray, np.ndarray]], Any]


def _sequence_rules(f: Any, first: Partials, second: Partials, order_partials: Partials | None) -> None:
    """Rules of ``f(order, x) -> (values, slopes)``: ``d values/dx = first(...)``, ``d slopes/dx = second(...)``.

    Each is called as ``partial(order, x, (values, slopes))``; ``order_partials`` gives
    ``(d values/d order, d slopes/d order)`` (None: the order is an integer index).
    """
    name = f.__name__

    def sequence_rrule(order: Any, x: Any) -> Any:
        ys = f(order, x)
        project_x = cotangent_projector(x)
        project_order = cotangent_projector(order) if order_partials is not None and differentiable(order) else None

        def sequence_pullback(dy: Any) -> tuple[Any, Any, Any]:
            parts = read_cotangents(dy, ys, f)
            d_order: Any = NO if project_order is None else ZeroTangent()
            if isinstance(parts, AbstractZero) or all(p is None for p in parts):
                return NO, d_order, ZeroTangent() if differentiable(x) else NO
            if isinstance(parts, NotImplementedTangent):
                return NO, NO if project_order is None else parts, parts
            for part in parts:
                if isinstance(part, NotImplementedTangent):
                    return NO, NO if project_order is None else part, part
            dvalues, dslopes = (np.zeros(len(ys[0])) if p is None else p for p in parts)
            dx = np.sum(dvalues * first(order, x, ys)) + np.sum(dslopes * second(order, x, ys))
            if project_order is not None:
                partials = order_partials(order, x, ys)  # type: ignore[misc]
                if isinstance(partials, NotImplementedTangent):
                    d_order = partials
                else:
                    d_order = project_order(np.sum(dvalues * partials[0]) + np.sum(dslopes * partials[1]))
            return NO, d_order, project_x(dx) if differentiable(x) else NO

        sequence_pullback.__name__ = f"{name}_pullback"
        return ys, sequence_pullback

    def sequence_frule(tangents: Any, order: Any, x: Any) -> Any:
        ys = f(order, x)
        dvalues: Any = None
        dslopes: Any = None
        dx = unthunk(tangents[2])
        if differentiable(x) and not isinstance(dx, AbstractZero) and dx is not None:
            if isinstance(dx, NotImplementedTangent):
                return ys, Tangent(tuple, dx, dx)
            dvalues, dslopes = first(order, x, ys) * dx, second(order, x, ys) * dx
        dorder = unthunk(tangents[1])
        if (order_partials is not None and differentiable(order) and not isinstance(dorder, AbstractZero)
                and dorder is not None):
            if isinstance(dorder, NotImplementedTangent):
                return ys, Tangent(tuple, dorder, dorder)
            partials = order_partials(order, x, ys)
            if isinstance(partials, NotImplementedTangent):
                return ys, Tangent(tuple, partials, partials)
            dvalues = partials[0] * dorder if dvalues is None else dvalues + partials[0] * dorder
            dslopes = partials[1] * dorder if dslopes is None else dslopes + partials[1] * dorder
        if dvalues is None:
            return ys, ZeroTangent()
        return ys, Tangent(tuple, np.asarray(dvalues, dtype=np.float64), np.asarray(dslopes, dtype=np.float64))

    sequence_rrule.__name__ = f"{name}_rrule"
    sequence_frule.__name__ = f"{name}_frule"
    rrule.register(f, object, object)(sequence_rrule)
    frule.register(f, object, object)(sequence_frule)


def _riccati_partials(f: Any) -> tuple[Partials, Partials]:
    def first(order: Any, x: Any, ys: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
        if f is sc.riccati_yn and x <= 0:  # SciPy returns -1e300 sentinels there
            return np.full(len(ys[1]), np.nan)
        return ys[1]

    def second(order: Any, x: Any, ys: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
        if f is sc.riccati_yn and x <= 0:
            return np.full(len(ys[0]), np.nan)
        return riccati_second_derivative(f, x, ys[0])

    return first, second


_sequence_rules(sc.riccati_jn, *_riccati_partials(sc.riccati_jn), None)
_sequence_rules(sc.riccati_yn, *_riccati_partials(sc.riccati_yn), None)


# ---- lmbda --------------------------------------------------------------------------------------------
def lambda_order_derivative(u: np.ndarray, x: float) -> np.ndarray:
    """``d Lambda_u(x) / du`` at the orders ``u`` (see the module docstring).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.special.bessel_sequences import lambda_order_derivative
    >>> lambda_order_derivative(np.array([0.5, 1.5]), 0.0)
    array([0., 0.])
    """
    u = np.asarray(u, dtype=np.float64)
    a = abs(float(x))
    if a <= 2:
        q = -a * a / 4
        term = np.ones_like(u)
        shift = np.zeros_like(u)  # psi(u+k+1) - psi(u+1)
        total = np.zeros_like(u)
        for k in range(40):
            total -= term * shift
            term = term * q / ((k + 1) * (u + k + 1))
            shift = shift + 1 / (u + k + 1)
        return total
    lam = np.exp(sc.gammaln(u + 1) - u * np.log(a / 2))
    return sc.jv(u, a) * lam * (sc.psi(u + 1) - np.log(a / 2)) + lam * jy_order(u, a)[0]


def _lmbda_orders(v: Any, count: int) -> np.ndarray:
    v = float(v)
    return v - np.floor(v) + np.arange(count, dtype=np.float64)


def _lmbda_first(v: Any, x: Any, ys: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    return np.sign(x) * ys[1]  # SciPy returns Lambda(|x|), Lambda'(|x|)


def _lmbda_second(v: Any, x: Any, ys: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    values, slopes = ys
    u = _lmbda_orders(v, len(values))
    if x == 0:
        return -1 / (2 * (u + 1))
    return np.sign(x) * (-values - (2 * u + 1) / abs(x) * slopes)


def _lmbda_order(v: Any, x: Any, ys: tuple[np.ndarray, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    values, slopes = ys
    u = _lmbda_orders(v, len(values) + 1)
    d = lambda_order_derivative(u, x)
    du = u[:-1]
    return d[:-1], -slopes / (du + 1) - abs(x) / (2 * (du + 1)) * d[1:]


_sequence_rules(sc.lmbda, _lmbda_first, _lmbda_second, _lmbda_order)


# ---- samples ------------------------------------------------------------------------------------------
@sample_inputs(sc.riccati_jn, sc.riccati_yn)
def _riccati_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(3, 1.5), Sample(0, 0.4, label="order 0"), Sample(5, 9.0, label="large x")]


@sample_inputs(sc.riccati_jn)
def _riccati_jn_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(3, -1.5, label="negative x")]


@sample_inputs(sc.lmbda)
def _lmbda_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(2.5, 1.5, label="x <= 2 (series)"), Sample(0.3, 0.7, label="one order"),
            Sample(3.7, 6.0, label="x > 2 (through dJ/dv)"), Sample(1.25, -3.0, label="negative x")]
