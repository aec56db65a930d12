"""Floating-point decomposition: ldexp, frexp, modf, nextafter, spacing.

* ``ldexp(x1, n) = x1 * 2**n``: the partial with respect to ``x1`` is ``2**n``; the integer
  exponent ``n`` is not differentiated.
* ``frexp(x) = (m, e)`` with ``x = m * 2**e``: ``dm/dx = 2**-e``; the integer exponent has
  no tangent (``NoTangent()``) and its cotangent is ignored.
* ``modf(x) = (fractional part, integral part)``: the fractional part has derivative one,
  the integral part zero (a dense zero tangent, as for ``floor``).
* ``nextafter(x1, x2)`` moves ``x1`` by one unit in the last place towards ``x2``: its
  partials are ``1`` and ``0``.
* ``spacing(x)`` (the distance to the next float) is piecewise constant: a zero derivative.

The tangent of a two-output function is a ``Tangent`` of a tuple; its pullback accepts such
a ``Tangent`` or a plain tuple of cotangents (either may be a zero).

Examples
--------
>>> import numpy as np
>>> import chainrules
>>> from chainrules import frule
>>> frule((None, 1.0), np.frexp, 12.0)
((np.float64(0.75), np.int32(4)), Tangent(tuple, np.float64(0.0625), NoTangent()))
"""

from __future__ import annotations

from typing import Any

import numpy as np

from chainrules.rulesets._samples import elementwise_samples
from chainrules_core import Sample, sample_inputs, scalar_rule
from chainrules_core.scalar_rules import ONE, ZERO, tangent_dtype


def _one(x: Any) -> Any:
    return tangent_dtype(x).type(1)


def _ldexp_x1(x1: Any, n: Any, y: Any) -> Any:
    return np.ldexp(_one(x1), n)


def _frexp_mantissa_partial(x: Any, ys: Any) -> Any:
    return np.ldexp(_one(x), np.negative(ys[1]))


PARTIALS: dict[Any, tuple[Any, ...]] = {
    np.ldexp: (_ldexp_x1, ZERO),
    np.nextafter: (ONE, ZERO),
    np.spacing: (ZERO,),
}
"""Partial derivatives of the single-output ufuncs of this module, by ufunc."""

ROWS: dict[Any, list[tuple[Any, ...]]] = {
    np.frexp: [(_frexp_mantissa_partial,), (ZERO,)],
    np.modf: [(ONE,), (ZERO,)],
}
"""Partials of the two-output ufuncs (one row per output), by ufunc."""

for _f, _partials in PARTIALS.items():
    scalar_rule(_f, *_partials)
for _f, _rows in ROWS.items():
    scalar_rule(_f, *_rows)


# ---- sample inputs ----------------------------------------------------------------------------------
_X = np.array([[0.7, -1.3, 2.9], [-0.45, 5.3, -12.6]])  # away from powers of two and integers


@sample_inputs(np.ldexp)
def _ldexp_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(_X, np.array([1, -2, 3]), label="integer exponents (not differentiated)"),
            Sample(_X.astype(np.float32), 2, label="float32"), Sample(1.5, 4, label="scalar")]


@sample_inputs(np.frexp, np.modf, np.spacing)
def _decomposition_samples(rng: np.random.Generator) -> list[Sample]:
    return elementwise_samples(_X, rng=rng)


@sample_inputs(np.nextafter)
def _nextafter_samples(rng: np.random.Generator) -> list[Sample]:
    return elementwise_samples(_X, np.array([10.0, -10.0, 0.0]), rng=rng)
