"""``scipy.integrate.fixed_quad``: ``n``-point Gauss-Legendre quadrature, differentiated with respect
to the limits, the parameters in ``args`` and the integrand's own values.

A higher-order rule (``config=HasReverseMode`` / ``config=HasForwardsMode``): the integrand is
differentiated through the calling AD, in one call at all the nodes (``fixed_quad`` calls it on
the array of nodes).

The maths
---------
``fixed_quad`` is not adaptive: it returns the fixed sum ``Q = s sum_i w_i f(y_i)`` with
``s = (b - a)/2`` and the nodes ``y_i = a + s (x_i + 1)`` (``x_i``, ``w_i`` the Gauss-Legendre
nodes and weights; Abramowitz & Stegun 25.4.29-30). Its output is a smooth function of ``a``,
``b`` and the parameters, and the rules differentiate that sum exactly (not the integral it
approximates: the fundamental theorem of calculus would give ``f(b)``, which is not the
derivative of ``Q``):

* ``dQ/db = sum_i w_i f(y_i) / 2 + s sum_i w_i f'(y_i) (x_i + 1)/2`` and
  ``dQ/da = -sum_i w_i f(y_i) / 2 + s sum_i w_i f'(y_i) (1 - x_i)/2``, with ``f'`` at the nodes
  from the integrand's pullback (``f_bar = conj(s w) Q_bar``) or pushforward;
* ``dQ/dp = s sum_i w_i df/dp(y_i)``, from the same pullback.

The second output (always ``None``) and ``n`` get ``NoTangent()``.
"""

from __future__ import annotations

import numbers
from collections.abc import Iterator
from typing import Any

import numpy as np
import scipy.integrate
import scipy.special

from chainrules.rulesets.integrate._callables import Leaves, is_zero_tangent, split_tangent
from chainrules_core import (
    AbstractZero,
    HasForwardsMode,
    HasReverseMode,
    NoTangent,
    NotImplementedTangent,
    ProjectTo,
    RulesOnlyConfig,
    Sample,
    Tangent,
    ZeroTangent,
    cotangent_projector,
    frule,
    frule_via_ad,
    read_cotangents,
    rrule,
    rrule_via_ad,
    sample_inputs,
    unthunk,
)


def _nodes(a: Any, b: Any, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, Any]:
    """``(x, w, y, s)``: the Gauss-Legendre nodes and weights, the nodes on ``[a, b]`` and ``(b - a)/2``."""
    x, w = scipy.special.roots_legendre(n)
    x = np.real(x)
    s = (b - a) / 2.0
    return x, w, s * (x + 1) + a, s


def _differentiable_limit(limit: Any) -> bool:
    return not isinstance(limit, (bool, numbers.Integral, np.integer))


@rrule.register(scipy.integrate.fixed_quad, object, numbers.Real, numbers.Real, config=HasReverseMode)
def fixed_quad_rrule(config: Any, func: Any, a: Any, b: Any, args: Any = (), n: Any = 5) -> Any:
    """Reverse rule of ``scipy.integrate.fixed_quad`` with respect to ``a``, ``b``, ``args`` and ``func``'s values.

    Examples
    --------
    >>> import chainrules
    >>> from chainrules import RulesOnlyConfig, unthunk
    >>> out, pullback = rrule(RulesOnlyConfig(), scipy.integrate.fixed_quad, np.multiply, 0.0, 2.0, (3.0,))
    >>> out[0], [unthunk(c) for c in pullback((1.0, NoTangent()))[2:5]]      # exact for t x: t b^2 / 2
    (np.float64(6.0), [0.0, 6.0, Tangent(tuple, 2.0)])
    """
    out = scipy.integrate.fixed_quad(func, a, b, args, n)
    args_tuple = args if isinstance(args, tuple) else (args,)
    x, w, y, s = _nodes(a, b, n)
    values, pullback = rrule_via_ad(config, func, y, *args_tuple)
    parameters = Leaves(args_tuple)
    project_a, project_b, project_args = cotangent_projector(a), cotangent_projector(b), cotangent_projector(args)

    def fixed_quad_pullback(d_out: Any) -> tuple[Any, ...]:
        parts = read_cotangents(d_out, (out[0], NoTangent()), scipy.integrate.fixed_quad)
        dQ = parts if isinstance(parts, (AbstractZero, NotImplementedTangent)) else parts[0]
        if dQ is None or isinstance(dQ, (AbstractZero, NotImplementedTangent)):
            zero = ZeroTangent() if dQ is None or isinstance(dQ, AbstractZero) else dQ
            return NoTangent(), NoTangent(), project_a(zero), project_b(zero), project_args(zero), NoTangent()
        dQ = np.asarray(dQ)
        node_bar = np.conj(s) * w * dQ[..., None]
        if not np.iscomplexobj(values):
            node_bar = node_bar.real
        cotangents = pullback(np.broadcast_to(node_bar, np.shape(values)).copy())
        y_bar = unthunk(cotangents[1])
        y_bar = np.zeros_like(y) if y_bar is None or isinstance(y_bar, AbstractZero) else np.asarray(y_bar)
        half_sum = np.conj(np.sum(w * values, axis=-1) / 2.0)
        b_bar = np.sum(half_sum * dQ) + np.sum(y_bar * (x + 1) / 2.0)
        a_bar = -np.sum(half_sum * dQ) + np.sum(y_bar * (1 - x) / 2.0)
        args_bar = parameters.cotangent(parameters.flatten(Tangent(tuple, *cotangents[2:])))
        if not isinstance(args, tuple):
            args_bar = project_args(args_bar[0])
        func_bar = unthunk(cotangents[0])
        func_bar = NoTangent() if func_bar is None or isinstance(func_bar, AbstractZero) else func_bar
        return (NoTangent(), func_bar, project_a(a_bar) if _differentiable_limit(a) else NoTangent(),
                project_b(b_bar) if _differentiable_limit(b) else NoTangent(), args_bar, NoTangent())

    return out, fixed_quad_pullback


@frule.register(scipy.integrate.fixed_quad, object, numbers.Real, numbers.Real, config=HasForwardsMode)
def fixed_quad_frule(config: Any, tangents: Any, func: Any, a: Any, b: Any, args: Any = (), n: Any = 5) -> Any:
    """Forward rule of ``scipy.integrate.fixed_quad``.

    Examples
    --------
    >>> import chainrules
    >>> from chainrules import RulesOnlyConfig
    >>> tangents = (NoTangent(), NoTangent(), 0.0, 1.0)
    >>> frule(RulesOnlyConfig(), tangents, scipy.integrate.fixed_quad, np.sin, 0.0, 1.0)[1]   # sin(1) = 0.841470984808
    Tangent(tuple, 0.8414709848101365, NoTangent())
    """
    out = scipy.integrate.fixed_quad(func, a, b, args, n)
    args_tuple = args if isinstance(args, tuple) else (args,)
    t = tuple(tangents) + (NoTangent(),) * (6 - len(tangents))
    x, w, y, s = _nodes(a, b, n)
    da = 0.0 if is_zero_tangent(t[2]) else unthunk(t[2])
    db = 0.0 if is_zero_tangent(t[3]) else unthunk(t[3])
    dargs = split_tangent(t[4], args_tuple) if isinstance(args, tuple) else (t[4],)
    dy = (x + 1) / 2.0 * db + (1 - x) / 2.0 * da
    values, dvalues = frule_via_ad(config, (t[1], dy, *dargs), func, y, *args_tuple)
    dvalues = unthunk(dvalues)
    if isinstance(dvalues, NotImplementedTangent):
        return out, Tangent(tuple, dvalues, NoTangent())
    total = (db - da) / 2.0 * np.sum(w * values, axis=-1)
    if not isinstance(dvalues, AbstractZero):
        total = total + s * np.sum(w * dvalues, axis=-1)
    if is_zero_tangent(total) or (np.ndim(total) == 0 and total == 0):
        return out, Tangent(tuple, ZeroTangent(), NoTangent())
    return out, Tangent(tuple, ProjectTo(out[0])(total), NoTangent())


def _value_only(out: tuple[Any, ...]) -> Any:
    return out[0]


@sample_inputs(scipy.integrate.fixed_quad)
def _fixed_quad_samples(rng: np.random.Generator) -> Iterator[Sample]:
    options: dict[str, Any] = {"config": RulesOnlyConfig(), "gauge_invariant": _value_only}
    yield Sample(np.sin, 0.0, 1.5, **options, label="no parameters")
    yield Sample(np.hypot, -0.5, 1.5, (0.7,), 7, **options, label="a parameter, n by position")
    yield Sample(np.multiply, 0.2, 1.0, (np.array([[1.0], [2.0]]),), **options, label="a vector-valued integrand")
    yield Sample(np.hypot, 1.0, 0.0, fkwargs={"args": (0.7,), "n": 3}, **options, label="a > b, keywords")
