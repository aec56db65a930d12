"""Exponentials and logarithms: exp, exp2, expm1, log, log2, log10, log1p, logaddexp, logaddexp2.

Every rule is elementwise with broadcasting, keeps the input's precision and, for complex
inputs, follows the holomorphic convention (principal branch of the logarithm). The
partials reuse the output where it is cheaper (``exp``: ``y``; ``expm1``: ``y + 1``).

``logaddexp(x1, x2) = log(exp(x1) + exp(x2))`` has the partials ``exp(x1 - y)`` and
``exp(x2 - y)`` (a softmax of the two arguments, never overflowing); where ``x1 == x2``
each is exactly ``1/2``, also when both are the same infinity (where ``x1 - y`` is NaN).
``logaddexp2`` is the same in base 2.

Examples
--------
>>> import numpy as np
>>> import chainrules
>>> from chainrules import rrule, unthunk
>>> y, pullback = rrule(np.logaddexp, np.array([0.0, -np.inf]), np.array([0.0, -np.inf]))
>>> unthunk(pullback(np.ones(2))[1])
array([0.5, 0.5])
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from chainrules.rulesets._samples import elementwise_samples
from chainrules_core import Sample, sample_inputs, scalar_rule

LN2 = math.log(2.0)
LN10 = math.log(10.0)


def _exp_partial(x: Any, y: Any) -> Any:
    return y


def _exp2_partial(x: Any, y: Any) -> Any:
    return y * LN2


def _expm1_partial(x: Any, y: Any) -> Any:
    return y + 1


def _log_partial(x: Any, y: Any) -> Any:
    return np.divide(1.0, x)


def _log2_partial(x: Any, y: Any) -> Any:
    return np.divide(1 / LN2, x)


def _log10_partial(x: Any, y: Any) -> Any:
    return np.divide(1 / LN10, x)


def _log1p_partial(x: Any, y: Any) -> Any:
    return np.divide(1.0, np.add(1, x))


def _softmax_share(exp: Any) -> Any:
    """The partial of ``logaddexp``-like functions with respect to their first argument."""

    def share(a: Any, b: Any, y: Any) -> Any:
        return np.where(np.equal(a, b), 0.5, exp(np.subtract(a, y)))[()]

    return share


def _swap(partial: Any) -> Any:
    def swapped(a: Any, b: Any, y: Any) -> Any:
        return partial(b, a, y)

    return swapped


_logaddexp_x1 = _softmax_share(np.exp)
_logaddexp2_x1 = _softmax_share(np.exp2)

PARTIALS: dict[Any, tuple[Any, ...]] = {
    np.exp: (_exp_partial,),
    np.exp2: (_exp2_partial,),
    np.expm1: (_expm1_partial,),
    np.log: (_log_partial,),
    np.log2: (_log2_partial,),
    np.log10: (_log10_partial,),
    np.log1p: (_log1p_partial,),
    np.logaddexp: (_logaddexp_x1, _swap(_logaddexp_x1)),
    np.logaddexp2: (_logaddexp2_x1, _swap(_logaddexp2_x1)),
}
"""Partial derivatives of the ufuncs of this module, by ufunc."""

for _f, _partials in PARTIALS.items():
    scalar_rule(_f, *_partials)


# ---- sample inputs ----------------------------------------------------------------------------------
@sample_inputs(np.exp, np.exp2, np.expm1)
def _exponential_samples(rng: np.random.Generator) -> list[Sample]:
    return elementwise_samples(np.array([[-1.2, 0.3, 0.9], [0.1, -0.4, 1.6]]), complex_inputs=True, rng=rng)


@sample_inputs(np.log, np.log2, np.log10)
def _logarithm_samples(rng: np.random.Generator) -> list[Sample]:
    # positive reals (the domain); complex values off the branch cut on the negative real axis
    return [*elementwise_samples(np.array([[0.4, 1.3, 2.7], [5.0, 0.9, 1.1]]), complex_inputs=True, rng=rng),
            Sample(np.array([-1.5 + 0.5j, -0.3 - 0.8j]), label="complex, negative real part")]


@sample_inputs(np.log1p)
def _log1p_samples(rng: np.random.Generator) -> list[Sample]:
    return elementwise_samples(np.array([[-0.6, 0.3, 2.7], [1e-3, -0.2, 0.9]]), complex_inputs=True, rng=rng)


@sample_inputs(np.logaddexp, np.logaddexp2)
def _logaddexp_samples(rng: np.random.Generator) -> list[Sample]:
    x1 = np.array([[-1.2, 0.3, 0.9], [30.0, -0.4, 1.6]])
    x2 = np.array([0.5, -2.0, 1.1])
    return [*elementwise_samples(x1, x2, rng=rng),
            Sample(np.array([0.7, -1.5]), np.array([0.7, -1.5]), label="ties: each argument gets 1/2")]
