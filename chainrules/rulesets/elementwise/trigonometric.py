"""Trigonometric ufuncs: sin, cos, tan, their inverses, arctan2 and the degree/radian conversions.

Every rule is elementwise with broadcasting and keeps the input's precision. sin, cos,
tan, arcsin, arccos and arctan take complex inputs (holomorphic convention; the partials
of the inverses are written so that their branch cuts are those of NumPy's principal
values: ``1 / sqrt((1 - z) (1 + z))``). ``arctan2``, ``deg2rad``/``radians`` and
``rad2deg``/``degrees`` are real.

``arctan2(x1, x2)`` has the partials ``x2 / (x1**2 + x2**2)`` and ``-x1 / (x1**2 + x2**2)``;
at the origin, where the angle is not continuous, they are NaN (as in JAX and PyTorch).
``np.radians`` and ``np.deg2rad`` are distinct ufunc objects with the same rule, as are
``np.degrees`` and ``np.rad2deg``; ``np.asin`` and the other short names are the same
objects as ``np.arcsin``...

``np.unwrap(p, discont, axis)`` adds multiples of the period to remove jumps: a piecewise
constant correction, so its pullback is the identity. ``discont`` and ``axis`` (and the
keyword ``period``) only choose the correction and are not differentiated.

Examples
--------
>>> import numpy as np
>>> import chainrules
>>> from chainrules import frule
>>> frule((None, 1.0, 0.0), np.arctan2, 1.0, 1.0)
(np.float64(0.7853981633974483), np.float64(0.5))
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from chainrules.rulesets._samples import elementwise_samples
from chainrules.rulesets.elementwise._unary import no_keywords, unary_rule
from chainrules_core import Sample, sample_inputs, scalar_rule

DEGREE = math.pi / 180
"""d radians / d degrees."""


def _sin_partial(x: Any, y: Any) -> Any:
    return np.cos(x)


def _cos_partial(x: Any, y: Any) -> Any:
    return -np.sin(x)


def _tan_partial(x: Any, y: Any) -> Any:
    return 1 + y * y


def _arcsin_partial(x: Any, y: Any) -> Any:
    return np.divide(1.0, np.sqrt(np.multiply(np.subtract(1, x), np.add(1, x))))


def _arccos_partial(x: Any, y: Any) -> Any:
    return -_arcsin_partial(x, y)


def _arctan_partial(x: Any, y: Any) -> Any:
    return np.divide(1.0, np.add(1, np.multiply(x, x)))


def _arctan2_x1(x1: Any, x2: Any, y: Any) -> Any:
    return np.divide(x2, np.add(np.multiply(x1, x1), np.multiply(x2, x2)))


def _arctan2_x2(x1: Any, x2: Any, y: Any) -> Any:
    return np.divide(np.negative(x1), np.add(np.multiply(x1, x1), np.multiply(x2, x2)))


def _to_radians_partial(x: Any, y: Any) -> Any:
    return DEGREE


def _to_degrees_partial(x: Any, y: Any) -> Any:
    return 1 / DEGREE


PARTIALS: dict[Any, tuple[Any, ...]] = {
    np.sin: (_sin_partial,),
    np.cos: (_cos_partial,),
    np.tan: (_tan_partial,),
    np.arcsin: (_arcsin_partial,),  # also np.asin (the same object), and so on below
    np.arccos: (_arccos_partial,),
    np.arctan: (_arctan_partial,),
    np.arctan2: (_arctan2_x1, _arctan2_x2),
    np.deg2rad: (_to_radians_partial,),
    np.radians: (_to_radians_partial,),
    np.rad2deg: (_to_degrees_partial,),
    np.degrees: (_to_degrees_partial,),
}
"""Partial derivatives of the ufuncs of this module, by ufunc."""

for _f, _partials in PARTIALS.items():
    scalar_rule(_f, *_partials)


def _unwrap_backward(p: Any, y: Any, dy: Any, **params: Any) -> Any:
    return dy


def _unwrap_forward(p: Any, y: Any, dp: Any, **params: Any) -> Any:
    return dp


unary_rule(np.unwrap, _unwrap_backward, _unwrap_forward, keywords=no_keywords,
           extra=(("discont", object), ("axis", object)))


# ---- sample inputs ----------------------------------------------------------------------------------
@sample_inputs(np.sin, np.cos, np.tan, np.arctan)
def _trigonometric_samples(rng: np.random.Generator) -> list[Sample]:
    return elementwise_samples(np.array([[-1.2, 0.3, 0.9], [0.1, -0.4, 1.1]]), complex_inputs=True, rng=rng)


@sample_inputs(np.arcsin, np.arccos)
def _inverse_samples(rng: np.random.Generator) -> list[Sample]:
    return elementwise_samples(np.array([-0.7, 0.2, 0.6]), complex_inputs=True, rng=rng)


@sample_inputs(np.arctan2)
def _arctan2_samples(rng: np.random.Generator) -> list[Sample]:
    return elementwise_samples(np.array([[1.0, -0.5, 0.3], [-2.0, 0.7, 1.5]]), np.array([0.8, 1.3, -0.6]))


@sample_inputs(np.deg2rad, np.radians, np.rad2deg, np.degrees)
def _conversion_samples(rng: np.random.Generator) -> list[Sample]:
    return elementwise_samples(np.array([-30.0, 45.0, 90.5]))


@sample_inputs(np.unwrap)
def _unwrap_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(np.array([0.1, 3.0, 6.5, 0.2])), Sample(np.array([[0.1, 3.5], [6.2, -2.9]]), 2.5, 0,
                                                            label="discont and axis by position")]
