"""The ``math`` module: rules for its functions of real numbers.

The functions that are also NumPy ufuncs share the partial derivatives of their NumPy
counterparts (``math.sin`` those of ``np.sin``, ``math.pow`` those of ``np.power``...,
including their conventions at special points); ``math.fabs`` shares the rule of
``np.abs``. The rest:

* ``math.log(x, base)``: partials ``1 / (x log(base))`` and ``-log(x) / (base log(base)**2)``;
* ``math.erf``, ``math.erfc``: ``±2 / sqrt(pi) exp(-x**2)``; ``math.gamma``:
  ``gamma(x) digamma(x)``; ``math.lgamma`` (``log|gamma(x)|``): ``digamma(x)``
  (``scipy.special.digamma``);
* ``math.hypot(*coordinates)``: ``x_i / y`` (zero at the origin, the convention of
  ``np.hypot``); ``math.dist(p, q)``: ``(p - q) / y`` and its negative;
* ``math.fsum(iterable)``: one per element; ``math.prod(iterable, start=...)``: the
  product of the other factors (computed from prefix and suffix products, so zeros are
  exact); ``start`` is keyword-only and not differentiated;
* ``math.frexp``, ``math.modf``: as ``np.frexp``, ``np.modf``; ``math.ulp``: zero derivative.

Integer arguments are not differentiated (``math.sin(1)`` gives ``NoTangent()``), and
functions with integer or boolean outputs are non-differentiable: ``ceil``, ``floor``,
``trunc``, ``comb``, ``perm``, ``factorial``, ``gcd``, ``lcm``, ``isqrt``, ``isclose``,
``isfinite``, ``isinf``, ``isnan``. Sequences (``fsum``, ``prod``, ``dist``) get a
``Tangent`` of their type (a list gets ``Tangent(list, ...)``), an ndarray an ndarray.

Examples
--------
>>> import math
>>> import chainrules
>>> from chainrules import rrule
>>> y, pullback = rrule(math.log, 8.0, 2.0)
>>> y, [round(float(c), 6) for c in (chainrules.unthunk(t) for t in pullback(1.0)[1:])]
(3.0, [0.180337, -2.164043])
"""

from __future__ import annotations

import math
import numbers
from typing import Any

import numpy as np

from chainrules.rulesets.elementwise import (
    arithmetic,
    exponential,
    floating_point,
    hyperbolic,
    powers,
    signs,
    trigonometric,
)
from chainrules.rulesets.elementwise._sequences import SEQUENCE, sequence_cotangent, sequence_tangents
from chainrules.rulesets.elementwise._unary import no_keywords, unary_rule
from chainrules.rulesets.elementwise.complex_parts import abs_backward, abs_forward
from chainrules_core import (
    AbstractZero,
    NotImplementedTangent,
    Sample,
    Thunk,
    Varargs,
    differentiable,
    frule,
    non_differentiable,
    read_cotangent,
    rrule,
    sample_inputs,
    scalar_rule,
)
from chainrules_core.scalar_rules import NO, ZERO, ZERO_TANGENT, fit_tangent, project_argument

REAL = numbers.Real
"""Argument type of the ``math`` rules: Python and NumPy real numbers."""

_SHARED = {
    math.sin: trigonometric.PARTIALS[np.sin],
    math.cos: trigonometric.PARTIALS[np.cos],
    math.tan: trigonometric.PARTIALS[np.tan],
    math.asin: trigonometric.PARTIALS[np.arcsin],
    math.acos: trigonometric.PARTIALS[np.arccos],
    math.atan: trigonometric.PARTIALS[np.arctan],
    math.atan2: trigonometric.PARTIALS[np.arctan2],
    math.degrees: trigonometric.PARTIALS[np.degrees],
    math.radians: trigonometric.PARTIALS[np.radians],
    math.sinh: hyperbolic.PARTIALS[np.sinh],
    math.cosh: hyperbolic.PARTIALS[np.cosh],
    math.tanh: hyperbolic.PARTIALS[np.tanh],
    math.asinh: hyperbolic.PARTIALS[np.arcsinh],
    math.acosh: hyperbolic.PARTIALS[np.arccosh],
    math.atanh: hyperbolic.PARTIALS[np.arctanh],
    math.exp: exponential.PARTIALS[np.exp],
    math.expm1: exponential.PARTIALS[np.expm1],
    math.log2: exponential.PARTIALS[np.log2],
    math.log10: exponential.PARTIALS[np.log10],
    math.log1p: exponential.PARTIALS[np.log1p],
    math.sqrt: powers.PARTIALS[np.sqrt],
    math.pow: powers.POWER_PARTIALS,
    math.copysign: signs.PARTIALS[np.copysign],
    math.fmod: arithmetic.PARTIALS[np.fmod],
    math.remainder: arithmetic.PARTIALS[np.fmod],  # x - n y: the same partials, with n rounded to nearest
    math.ldexp: floating_point.PARTIALS[np.ldexp],
    math.nextafter: floating_point.PARTIALS[np.nextafter],
    math.ulp: (ZERO,),
}
# Python 3.11 added math.exp2 and math.cbrt.
if hasattr(math, "exp2"):
    _SHARED[math.exp2] = exponential.PARTIALS[np.exp2]
if hasattr(math, "cbrt"):
    _SHARED[math.cbrt] = powers.PARTIALS[np.cbrt]

_TWO_OVER_SQRT_PI = 2 / math.sqrt(math.pi)


def _erf_partial(x: Any, y: Any) -> Any:
    return _TWO_OVER_SQRT_PI * np.exp(-np.square(x))


def _erfc_partial(x: Any, y: Any) -> Any:
    return -_erf_partial(x, y)


def _gamma_partial(x: Any, y: Any) -> Any:
    from scipy.special import digamma

    return y * digamma(x)


def _lgamma_partial(x: Any, y: Any) -> Any:
    from scipy.special import digamma

    return digamma(x)


def _log_x(x: Any, base: Any, y: Any) -> Any:
    return np.divide(1.0, np.multiply(x, np.log(base)))


def _log_base(x: Any, base: Any, y: Any) -> Any:
    return np.divide(-y, np.multiply(base, np.log(base)))


PARTIALS: dict[Any, tuple[Any, ...]] = {
    **_SHARED,
    math.log: exponential.PARTIALS[np.log],
    math.erf: (_erf_partial,),
    math.erfc: (_erfc_partial,),
    math.gamma: (_gamma_partial,),
    math.lgamma: (_lgamma_partial,),
}
"""Partial derivatives of the ``math`` functions with elementwise rules, by function."""

for _f, _partials in PARTIALS.items():
    scalar_rule(_f, *_partials, keywords=no_keywords, types=(REAL,) * len(_partials), positional_out=False)
scalar_rule(math.log, _log_x, _log_base, keywords=no_keywords, types=(REAL, REAL), positional_out=False)
scalar_rule(math.frexp, *floating_point.ROWS[np.frexp], keywords=no_keywords, types=(REAL,),
                  positional_out=False)
scalar_rule(math.modf, *floating_point.ROWS[np.modf], keywords=no_keywords, types=(REAL,),
                  positional_out=False)
unary_rule(math.fabs, abs_backward, abs_forward, keywords=no_keywords, types=(REAL,), positional_out=False)

for _f in (math.ceil, math.floor, math.trunc, math.comb, math.perm, math.factorial, math.gcd, math.lcm,
           math.isqrt, math.isclose, math.isfinite, math.isinf, math.isnan):
    non_differentiable(_f)


# ---- hypot, dist -------------------------------------------------------------------------------------
def _safe_ratio(x: Any, y: float) -> Any:
    return 0.0 if y == 0 else x / y


@rrule.register(math.hypot, Varargs(REAL))
def hypot_rrule(*coordinates: Any) -> Any:
    """Reverse rule of ``math.hypot(*coordinates)``."""
    y = math.hypot(*coordinates)

    def hypot_pullback(dy: Any) -> tuple[Any, ...]:
        dy = read_cotangent(dy, y, math.hypot)
        if isinstance(dy, (AbstractZero, NotImplementedTangent)):
            zero = ZERO_TANGENT if isinstance(dy, AbstractZero) else dy
            return (NO, *(zero if differentiable(x) else NO for x in coordinates))
        return (NO, *(project_argument(x, _safe_ratio(x, y) * dy) if differentiable(x) else NO
                      for x in coordinates))

    return y, hypot_pullback


@frule.register(math.hypot, Varargs(REAL))
def hypot_frule(tangents: Any, *coordinates: Any) -> Any:
    """Forward rule of ``math.hypot(*coordinates)``."""
    y = math.hypot(*coordinates)
    dxs = sequence_tangents(tangents[1:], coordinates)
    if all(dx is None for dx in dxs):
        return y, ZERO_TANGENT
    return y, fit_tangent(sum(_safe_ratio(x, y) * dx for x, dx in zip(coordinates, dxs) if dx is not None), y)


@rrule.register(math.dist, SEQUENCE, SEQUENCE)
def dist_rrule(p: Any, q: Any) -> Any:
    """Reverse rule of ``math.dist(p, q)`` (Euclidean distance of two points)."""
    y = math.dist(p, q)

    def dist_pullback(dy: Any) -> tuple[Any, ...]:
        dy = read_cotangent(dy, y, math.dist)
        if isinstance(dy, (AbstractZero, NotImplementedTangent)):
            zero = ZERO_TANGENT if isinstance(dy, AbstractZero) else dy
            return NO, zero, zero
        weights = [_safe_ratio(float(a) - float(b), y) * dy for a, b in zip(p, q)]
        return (NO, Thunk(lambda: sequence_cotangent(p, weights)),
                Thunk(lambda: sequence_cotangent(q, [-w for w in weights])))

    return y, dist_pullback


@frule.register(math.dist, SEQUENCE, SEQUENCE)
def dist_frule(tangents: Any, p: Any, q: Any) -> Any:
    """Forward rule of ``math.dist(p, q)``."""
    y = math.dist(p, q)
    dps, dqs = sequence_tangents(tangents[1], p), sequence_tangents(tangents[2], q)
    terms = [_safe_ratio(float(a) - float(b), y) * ((0 if da is None else da) - (0 if db is None else db))
             for a, b, da, db in zip(p, q, dps, dqs) if da is not None or db is not None]
    return y, fit_tangent(sum(terms), y) if terms else ZERO_TANGENT


# ---- fsum, prod --------------------------------------------------------------------------------------
@rrule.register(math.fsum, SEQUENCE)
def fsum_rrule(iterable: Any) -> Any:
    """Reverse rule of ``math.fsum(iterable)``."""
    y = math.fsum(iterable)

    def fsum_pullback(dy: Any) -> tuple[Any, ...]:
        dy = read_cotangent(dy, y, math.fsum)
        if isinstance(dy, (AbstractZero, NotImplementedTangent)):
            return NO, ZERO_TANGENT if isinstance(dy, AbstractZero) else dy
        if isinstance(iterable, np.ndarray):
            return NO, sequence_cotangent(iterable, np.broadcast_to(dy, iterable.shape))
        return NO, sequence_cotangent(iterable, [dy] * len(iterable))

    return y, fsum_pullback


@frule.register(math.fsum, SEQUENCE)
def fsum_frule(tangents: Any, iterable: Any) -> Any:
    """Forward rule of ``math.fsum(iterable)``."""
    y = math.fsum(iterable)
    dxs = [dx for dx in sequence_tangents(tangents[1], iterable) if dx is not None]
    return y, fit_tangent(math.fsum(dxs), y) if dxs else ZERO_TANGENT


def products_of_others(xs: list[Any]) -> list[Any]:
    """``[prod(xs[:i] + xs[i+1:]) for i]`` from prefix and suffix products (no division).

    Examples
    --------
    >>> from chainrules.rulesets.elementwise.python_math import products_of_others
    >>> products_of_others([2.0, 0.0, 3.0])
    [0.0, 6.0, 0.0]
    """
    n = len(xs)
    prefix, suffix = [1] * (n + 1), [1] * (n + 1)
    for i in range(n):
        prefix[i + 1] = prefix[i] * xs[i]
        suffix[n - 1 - i] = suffix[n - i] * xs[n - 1 - i]
    return [prefix[i] * suffix[i + 1] for i in range(n)]


@rrule.register(math.prod, SEQUENCE)
def prod_rrule(iterable: Any, *, start: Any = 1) -> Any:
    """Reverse rule of ``math.prod(iterable, start=1)`` (``start`` is not differentiated)."""
    y = math.prod(iterable, start=start)

    def prod_pullback(dy: Any) -> tuple[Any, ...]:
        dy = read_cotangent(dy, y, math.prod)
        if isinstance(dy, (AbstractZero, NotImplementedTangent)):
            return NO, ZERO_TANGENT if isinstance(dy, AbstractZero) else dy
        others = products_of_others(list(iterable))
        values = [np.conj(start * other) * dy for other in others]
        if isinstance(iterable, np.ndarray):
            return NO, sequence_cotangent(iterable, np.array(values))
        return NO, sequence_cotangent(iterable, values)

    return y, prod_pullback


@frule.register(math.prod, SEQUENCE)
def prod_frule(tangents: Any, iterable: Any, *, start: Any = 1) -> Any:
    """Forward rule of ``math.prod(iterable, start=1)``."""
    y = math.prod(iterable, start=start)
    dxs = sequence_tangents(tangents[1], iterable)
    others = products_of_others(list(iterable))
    terms = [start * other * dx for other, dx in zip(others, dxs) if dx is not None]
    return y, fit_tangent(sum(terms), y) if terms else ZERO_TANGENT


# ---- sample inputs ----------------------------------------------------------------------------------
_POINTS: dict[Any, tuple[tuple[Any, ...], ...]] = {
    math.sin: ((0.7,), (-2.3,)), math.cos: ((0.7,), (-2.3,)), math.tan: ((0.7,), (-1.2,)),
    math.asin: ((0.4,), (-0.8,)), math.acos: ((0.4,), (-0.8,)), math.atan: ((0.7,), (-3.0,)),
    math.atan2: ((0.7, 1.2), (-0.5, -2.0)), math.degrees: ((0.7,),), math.radians: ((45.0,),),
    math.sinh: ((0.7,), (-1.3,)), math.cosh: ((0.7,), (-1.3,)), math.tanh: ((0.7,), (-1.3,)),
    math.asinh: ((0.7,), (-1.3,)), math.acosh: ((1.4,), (6.0,)), math.atanh: ((0.4,), (-0.8,)),
    math.exp: ((0.7,), (-1.3,)), math.expm1: ((1e-3,), (-1.3,)), math.log2: ((0.7,), (9.0,)),
    math.log10: ((0.7,), (9.0,)), math.log1p: ((1e-3,), (-0.6,)), math.sqrt: ((0.7,), (9.0,)),
    math.pow: ((1.7, 2.5), (0.5, -1.5), (-2.0, 3)),  # a negative base: an integer exponent (else NaN)
    math.copysign: ((1.5, -2.0), (-0.5, 3.0)),
    math.fmod: ((7.3, 2.0), (-7.3, 2.0)), math.remainder: ((7.3, 2.0), (-6.7, 2.0)),
    math.ldexp: ((1.5, 3), (-0.7, -2)), math.nextafter: ((1.5, 2.0), (1.5, -2.0)), math.ulp: ((1.5,), (-3e5,)),
    math.erf: ((0.7,), (-1.3,)), math.erfc: ((0.7,), (-1.3,)), math.gamma: ((0.7,), (3.5,), (-1.5,)),
    math.lgamma: ((0.7,), (3.5,), (-1.5,)), math.frexp: ((5.3,), (-0.7,)), math.modf: ((5.3,), (-0.7,)),
    math.fabs: ((-1.5,), (2.5,)), math.log: ((0.7,), (9.0, 2.0), (9.0, 0.5)),
    math.hypot: ((3.0, 4.0), (1.0, -2.0, 2.0), (0.0, 0.0), (2.5,)),
}
if hasattr(math, "exp2"):  # Python >= 3.11
    _POINTS[math.exp2] = ((0.7,), (-1.3,))
if hasattr(math, "cbrt"):
    _POINTS[math.cbrt] = ((0.7,), (-8.5,))


def _math_samples(f: Any) -> Any:
    def samples() -> list[Sample]:
        return [Sample(*args) for args in _POINTS[f]]

    samples.__qualname__ = f"_{f.__name__}_samples"
    return samples


for _f in _POINTS:
    sample_inputs(_f)(_math_samples(_f))


@sample_inputs(math.exp, math.sin)
def _integer_argument_samples() -> list[Sample]:
    return [Sample(2, label="an integer argument (not differentiated)")]


@sample_inputs(math.dist)
def _dist_samples() -> list[Sample]:
    return [Sample([0.5, -1.5, 2.0], [1.0, 0.5, -1.0]), Sample((1.0, 2), (0.5, 0.5), label="tuples, an integer"),
            Sample(np.array([0.5, 2.0]), np.array([1.5, -1.0]), label="arrays")]


@sample_inputs(math.fsum)
def _fsum_samples() -> list[Sample]:
    return [Sample([0.5, -1.5, 2.0]), Sample((0.1, 2.5, -1.0, 2), label="a tuple with an integer"),
            Sample(np.array([0.5, 2.0]), label="an array")]


@sample_inputs(math.prod)
def _prod_samples() -> list[Sample]:
    return [Sample([0.5, -1.5, 2.0]), Sample([2.0, 0.0, 3.0], label="a zero factor"),
            Sample([2.0, 0.0, 0.0], label="two zero factors"),
            Sample([1.5, 2.0], fkwargs={"start": 3.0}, label="start= (not differentiated)")]


@sample_inputs(math.ceil, math.floor, math.trunc, math.isfinite, math.isinf, math.isnan)
def _integer_valued_samples() -> list[Sample]:
    return [Sample(2.7), Sample(-0.4)]


@sample_inputs(math.comb, math.perm, math.gcd, math.lcm)
def _combinatorial_samples() -> list[Sample]:
    return [Sample(12, 4)]


@sample_inputs(math.factorial, math.isqrt)
def _integer_function_samples() -> list[Sample]:
    return [Sample(7)]


@sample_inputs(math.isclose)
def _isclose_samples() -> list[Sample]:
    return [Sample(1.0, 1.0 + 1e-12), Sample(1.0, 1.5)]
