"""Powers and roots: power/pow, float_power, square, sqrt, cbrt, reciprocal, hypot.

``power(x, p) = x ** p`` has the partials ``p * x ** (p - 1)`` and ``x ** p * log(x)``.
Special points, chosen so that no finite derivative becomes NaN:

* at ``x = 0`` the base's partial is computed as written (``0`` for ``p > 1``, ``1`` for
  ``p = 1``, ``inf`` for ``0 < p < 1``), except ``p = 0``, where ``x ** 0 = 1`` is
  constant and the partial is ``0`` (not ``0 * inf``);
* at ``x = 0`` the exponent's partial is ``0`` (``0 ** p = 0`` for every ``p > 0``);
* for a real negative base (integer-valued exponents) the exponent's partial is the real
  part of ``x ** p * log(complex(x))``, that is ``x ** p * log(abs(x))``: the
  projection of the complex derivative onto the real exponent. When the output is
  complex (a complex base or exponent, or Python's ``(-8.0) ** (1/3)``) the principal
  complex logarithm is used.

The partials are evaluated in the output's precision (``float_power`` in float64), and
the exponent's cotangent is a thunk: its logarithm is only computed if it is used. An
integer exponent (``x ** 2``) is not differentiated.

``hypot(x1, x2)`` has partials ``x1 / y`` and ``x2 / y``; at the origin both are ``0``
(the minimum-norm subgradient, the convention of ``docs/rules/elementwise.md``).
``sqrt`` and ``cbrt`` have infinite derivatives at ``0``, returned as ``inf``.

Examples
--------
>>> import numpy as np
>>> import chainrules
>>> from chainrules import rrule, unthunk
>>> y, pullback = rrule(np.power, np.array([0.0, 2.0]), 3.0)
>>> _, dx, dp = pullback(np.ones(2))
>>> unthunk(dx), unthunk(dp)
(array([ 0., 12.]), 5.545177444479562)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from chainrules.rulesets._samples import elementwise_samples
from chainrules_core import Sample, sample_inputs, scalar_rule


def working_dtype(y: Any) -> np.dtype:
    """The dtype partials of a power are computed in: the output's, or float64 for integers."""
    dtype = np.result_type(y)
    return dtype if dtype.kind in "fc" else np.dtype(np.float64)


def _zero_where(condition: Any, d: Any) -> Any:
    """``d`` with zeros where ``condition`` holds (no pass over ``d`` when it holds nowhere)."""
    if np.any(condition):
        return np.where(condition, 0, d)[()]
    return d


def power_base_partial(power: Callable[[Any, Any], Any]) -> Callable[[Any, Any, Any], Any]:
    """The partial ``p * x ** (p - 1)`` of ``power(x, p)``, ``0`` where ``p == 0``."""

    def base_partial(x: Any, p: Any, y: Any) -> Any:
        base = np.asarray(x, dtype=working_dtype(y))
        return _zero_where(np.equal(p, 0), p * power(base, np.subtract(p, 1)))

    base_partial.__name__ = f"{getattr(power, '__name__', 'power')}_base_partial"
    return base_partial


def power_exponent_partial(x: Any, p: Any, y: Any) -> Any:
    """The partial ``x ** p * log(x)`` of ``x ** p`` (see the module docstring), ``0`` where ``x == 0``."""
    base = np.asarray(x, dtype=working_dtype(y))
    # One expression, so that NumPy multiplies into the logarithm's temporary.
    return _zero_where(np.equal(x, 0), y * (np.log(base) if base.dtype.kind == "c" else _log_abs(base)))


def _log_abs(x: np.ndarray) -> Any:
    """``log|x|`` of a real array (``log(x)``, with the negative entries fixed if there are any)."""
    negative = x < 0
    if np.any(negative):
        return np.log(np.abs(x))
    return np.log(x)


def _square_partial(x: Any, y: Any) -> Any:
    return 2 * x


def _sqrt_partial(x: Any, y: Any) -> Any:
    return np.divide(0.5, y)


def _cbrt_partial(x: Any, y: Any) -> Any:
    return np.divide(1.0, 3 * (y * y))


def _reciprocal_partial(x: Any, y: Any) -> Any:
    return -(y * y)


def _hypot_partial(x: Any, y: Any) -> Any:
    return np.where(np.equal(y, 0), 0, np.divide(x, y))[()]


def _hypot_x1(x1: Any, x2: Any, y: Any) -> Any:
    return _hypot_partial(x1, y)


def _hypot_x2(x1: Any, x2: Any, y: Any) -> Any:
    return _hypot_partial(x2, y)


POWER_PARTIALS = (power_base_partial(np.power), power_exponent_partial)
"""Partials of ``np.power`` (shared with ``operator.pow``, ``pow`` and ``math.pow``)."""

PARTIALS: dict[Any, tuple[Any, ...]] = {
    np.power: POWER_PARTIALS,  # also np.pow: the same object
    np.float_power: (power_base_partial(np.float_power), power_exponent_partial),
    np.square: (_square_partial,),
    np.sqrt: (_sqrt_partial,),
    np.cbrt: (_cbrt_partial,),
    np.reciprocal: (_reciprocal_partial,),
    np.hypot: (_hypot_x1, _hypot_x2),
}
"""Partial derivatives of the ufuncs of this module, by ufunc."""

for _f, _partials in PARTIALS.items():
    scalar_rule(_f, *_partials)


# ---- sample inputs ----------------------------------------------------------------------------------
_BASE = np.array([[0.4, 1.3, 2.7], [5.0, 0.9, 1.1]])


@sample_inputs(np.power, np.float_power)
def _power_samples(rng: np.random.Generator) -> list[Sample]:
    return [*elementwise_samples(_BASE, np.array([1.5, -0.7, 2.2]), complex_inputs=True, rng=rng),
            Sample(_BASE, 3, label="an integer exponent (not differentiated)"),
            # (a real power of a negative base is NaN off the integers: the exponent's partial there,
            # the real part of the complex one, has no finite differences to compare with)
            Sample(np.array([-1.5, -0.4, 2.0]), np.array([2, 3, -1]), label="negative bases, integer exponents"),
            Sample(np.array([0.0, 0.0, 1.2]), np.array([2, 1, 0]), label="a zero base, integer exponents 2, 1, 0"),
            Sample(np.array([0.5, 2.0]), 0.0, label="a zero exponent")]


@sample_inputs(np.square, np.reciprocal)
def _square_samples(rng: np.random.Generator) -> list[Sample]:
    return elementwise_samples(np.array([[-1.2, 0.3, 0.9], [2.1, -0.4, 1.6]]), complex_inputs=True, rng=rng)


@sample_inputs(np.sqrt)
def _sqrt_samples(rng: np.random.Generator) -> list[Sample]:
    return [*elementwise_samples(_BASE, complex_inputs=True, rng=rng),
            Sample(np.array([-1.5 + 0.5j, -0.3 - 0.8j]), label="complex, negative real part")]


@sample_inputs(np.cbrt)
def _cbrt_samples(rng: np.random.Generator) -> list[Sample]:
    return elementwise_samples(np.array([[-8.0, 0.3, 2.7], [-0.5, 0.9, 27.5]]), rng=rng)  # real only


@sample_inputs(np.hypot)
def _hypot_samples(rng: np.random.Generator) -> list[Sample]:
    return [*elementwise_samples(np.array([[0.7, -1.3, 2.1], [-0.4, 1.8, -2.6]]), np.array([1.2, -0.8, 0.0]),
                                 rng=rng),
            Sample(np.array([0.0, 1.0]), np.array([0.0, 0.0]), label="the origin (zero subgradient)")]
