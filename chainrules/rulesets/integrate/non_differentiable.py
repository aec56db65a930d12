"""Functions of ``scipy.integrate`` whose outputs are constants of integer arguments: ``lebedev_rule(n)``
(the points and weights of the Lebedev quadrature of order ``n`` on the sphere) and ``newton_cotes(rn)``
for an integer ``rn`` (the weights of the closed Newton-Cotes rule on ``rn + 1`` equally spaced points,
and its error coefficient).

Their rules say so (``NoTangent()`` everywhere). ``newton_cotes`` given an array of sample positions
``rn`` has weights that depend on them: no rule covers that form.

Examples
--------
>>> import numpy as np
>>> import scipy.integrate
>>> import chainrules
>>> from chainrules import rrule
>>> (weights, error), pullback = rrule(scipy.integrate.newton_cotes, 2)
>>> weights * 3, pullback(None)           # Simpson's 1 4 1 / 3
(array([1., 4., 1.]), (NoTangent(), NoTangent()))
>>> rrule(scipy.integrate.newton_cotes, np.array([0.0, 0.7, 2.0])) is None    # positions: no rule
True
"""

from __future__ import annotations

import numbers
from collections.abc import Iterator

import numpy as np
import scipy.integrate

from chainrules_core import Sample, Varargs, non_differentiable, sample_inputs

# numbers.Integral, not SupportsIndex: an ndarray of positions has __index__ too, and must find no rule here
non_differentiable(scipy.integrate.lebedev_rule, numbers.Integral)
non_differentiable(scipy.integrate.newton_cotes, numbers.Integral, Varargs(numbers.Integral))


@sample_inputs(scipy.integrate.lebedev_rule)
def _lebedev_rule_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample(7)


@sample_inputs(scipy.integrate.newton_cotes)
def _newton_cotes_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample(4)
    yield Sample(3, 1, label="equal spacing declared")
