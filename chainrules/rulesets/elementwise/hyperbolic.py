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

from chainrules_core import scalar_rule


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
