"""Hyperbolic ufuncs: sinh, cosh, tanh, arcsinh, arccosh, arctanh.

Elementwise with broadcasting, the input's precision, and complex inputs under the
holomorphic convention. The partials of the inverses follow NumPy's principal branches:
``arccosh'(z) = 1 / (sqrt(z - 1) sqrt(z + 1))`` (not ``1 / sqrt(z**2 - 1)``, which has the
wrong sign for ``Re z < 0``), ``arcsinh'(z) = 1 / sqrt(1 + z**2)``,
``arctanh'(z) = 1 / ((1 - z) (1 + z))``.

Examples
--------
>>> import numpy as np
>>> import chainrules
>>> from chainrules import rrule
>>> y, pullback = rrule(np.tanh, 0.0)
>>> pullback(2.0)
(NoTangent(), 2.0)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from chainrules.rulesets._samples import elementwise_samples
from chainrules_core import Sample, sample_inputs, scalar_rule


def _sinh_partial(x: Any, y: Any) -> Any:
    return np.cosh(x)


def _cosh_partial(x: Any, y: Any) -> Any:
    return np.sinh(x)


def _tanh_partial(x: Any, y: Any) -> Any:
    return 1 - y * y


def _arcsinh_partial(x: Any, y: Any) -> Any:
    return np.divide(1.0, np.sqrt(np.add(1, np.multiply(x, x))))


def _arccosh_partial(x: Any, y: Any) -> Any:
    return np.divide(1.0, np.multiply(np.sqrt(np.subtract(x, 1)), np.sqrt(np.add(x, 1))))


def _arctanh_partial(x: Any, y: Any) -> Any:
    return np.divide(1.0, np.multiply(np.subtract(1, x), np.add(1, x)))


PARTIALS: dict[Any, tuple[Any, ...]] = {
    np.sinh: (_sinh_partial,),
    np.cosh: (_cosh_partial,),
    np.tanh: (_tanh_partial,),
    np.arcsinh: (_arcsinh_partial,),  # also np.asinh (the same object), and so on below
    np.arccosh: (_arccosh_partial,),
    np.arctanh: (_arctanh_partial,),
}
"""Partial derivatives of the ufuncs of this module, by ufunc."""

for _f, _partials in PARTIALS.items():
    scalar_rule(_f, *_partials)


# ---- sample inputs ----------------------------------------------------------------------------------
@sample_inputs(np.sinh, np.cosh, np.tanh, np.arcsinh)
def _hyperbolic_samples(rng: np.random.Generator) -> list[Sample]:
    return elementwise_samples(np.array([[-1.2, 0.3, 0.9], [0.1, -0.4, 1.6]]), complex_inputs=True, rng=rng)


@sample_inputs(np.arccosh)
def _arccosh_samples(rng: np.random.Generator) -> list[Sample]:
    # x > 1 (the real domain); complex values on both sides of the imaginary axis (the principal branch)
    return [*elementwise_samples(np.array([1.2, 2.5, 7.0]), complex_inputs=True, rng=rng),
            Sample(np.array([-1.5 + 0.5j, -0.3 - 0.8j]), label="complex, negative real part")]


@sample_inputs(np.arctanh)
def _arctanh_samples(rng: np.random.Generator) -> list[Sample]:
    return elementwise_samples(np.array([-0.7, 0.2, 0.6]), complex_inputs=True, rng=rng)
