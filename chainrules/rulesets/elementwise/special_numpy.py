"""NumPy's special functions: ``np.sinc`` and ``np.i0``.

* ``sinc(x) = sin(pi x) / (pi x)`` (normalised, ``sinc(0) = 1``) has the derivative
  ``(cos(pi x) - sinc(x)) / x``, which cancels catastrophically near ``0``; there the rule
  uses its Taylor series ``-pi t / 3 (1 - t**2/10 + t**4/280 - t**6/15120)`` with
  ``t = pi x`` (for ``|t| < 0.1``, or ``< 0.5`` below double precision; truncation error
  below the rounding error of the direct formula). ``sinc`` is holomorphic: complex
  inputs follow the holomorphic convention.
* ``i0(x)``, the modified Bessel function of the first kind of order zero, has the
  derivative ``I1(x)`` (Abramowitz and Stegun 9.6.27), evaluated with
  ``scipy.special.i1``. NumPy's ``i0`` is real only.

Examples
--------
>>> import numpy as np
>>> import chainrules
>>> from chainrules import rrule
>>> y, pullback = rrule(np.sinc, np.array([0.25, 0.5]))
>>> pullback(np.ones(2))[1]
array([-0.77283814, -1.27323954])
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from chainrules.rulesets._samples import elementwise_samples
from chainrules.rulesets.elementwise._unary import no_keywords
from chainrules_core import Sample, sample_inputs, scalar_rule


def sinc_derivative(x: Any, y: Any) -> Any:
    """``d sinc(x) / dx``, accurate near ``0`` (see the module docstring)."""
    x = np.asarray(x)
    t = math.pi * x
    t2 = t * t
    series = -math.pi * t / 3 * (1 - t2 / 10 * (1 - t2 / 28 * (1 - t2 / 54)))
    direct = np.divide(np.cos(t) - y, x)
    limit = 0.1 if np.finfo(np.result_type(t, np.float16)).bits >= 64 else 0.5
    return np.where(np.abs(t) < limit, series, direct)[()]


def i0_derivative(x: Any, y: Any) -> Any:
    """``d I0(x) / dx = I1(x)``."""
    from scipy.special import i1

    return i1(x)


scalar_rule(np.sinc, sinc_derivative, keywords=no_keywords, positional_out=False)
scalar_rule(np.i0, i0_derivative, keywords=no_keywords, positional_out=False)


# ---- sample inputs ----------------------------------------------------------------------------------
@sample_inputs(np.sinc)
def _sinc_samples(rng: np.random.Generator) -> list[Sample]:
    return [*elementwise_samples(np.array([[0.25, -1.3, 2.7], [3.5, 0.6, -0.8]]), complex_inputs=True, rng=rng),
            Sample(np.array([0.0, 1e-3, -0.02]), label="near 0 (the Taylor series)"),
            Sample(np.array([0.0, 0.04], dtype=np.float32), label="near 0, float32")]


@sample_inputs(np.i0)
def _i0_samples(rng: np.random.Generator) -> list[Sample]:
    return elementwise_samples(np.array([[0.0, -1.3, 2.7], [3.5, 0.6, -0.8]]), rng=rng)
