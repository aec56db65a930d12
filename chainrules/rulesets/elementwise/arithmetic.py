"""Arithmetic ufuncs: add, subtract, multiply, divide, negative, positive, mod, fmod, divmod.

Every rule works on Python and NumPy scalars and elementwise on ndarrays with
broadcasting: each cotangent is summed back over the broadcast axes and projected onto its
input (float32 stays float32, a real input gets a real cotangent). Integer and boolean
arguments are not differentiated (``NoTangent()``). Complex inputs follow the holomorphic
convention (the pullback multiplies by the conjugate partial derivative).

The cotangents of ``add`` and ``positive`` (and the first one of ``subtract``) are the
output cotangent itself when no broadcasting or cast is needed: no copy is made, as in
ChainRules.jl, autograd and PyTorch. An AD that accumulates in place must own its
accumulator (``add_`` never mutates the cotangent it adds).

``mod``/``remainder`` (floored) and ``fmod`` (truncated) are ``x1 - q * x2`` with an
integer quotient ``q``; their partials are ``1`` and ``-q``, with ``q`` recovered from
the output as ``rint((x1 - y) / x2)`` so that it is the quotient NumPy actually used.
The quotient of ``divmod`` has zero derivative (a dense zero, see
``docs/rules/elementwise.md``); ``floor_divide`` alone is non-differentiable
(:mod:`~chainrules.rulesets.elementwise.non_differentiable`).

Examples
--------
>>> import numpy as np
>>> import chainrules
>>> from chainrules import rrule, unthunk
>>> y, pullback = rrule(np.divide, np.array([1.0, 2.0]), 4.0)
>>> _, dx1, dx2 = pullback(np.ones(2))
>>> unthunk(dx1), unthunk(dx2)
(array([0.25, 0.25]), -0.1875)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from chainrules.rulesets._samples import elementwise_samples
from chainrules_core import Sample, sample_inputs, scalar_rule
from chainrules_core.scalar_rules import MINUS_ONE, ONE, ZERO, Partial


def _second(x1: Any, x2: Any, y: Any) -> Any:
    return x2


def _first(x1: Any, x2: Any, y: Any) -> Any:
    return x1


def _divide_x1(x1: Any, x2: Any, y: Any) -> Any:
    return np.divide(1.0, x2)


def _divide_x2(x1: Any, x2: Any, y: Any) -> Any:
    return -y / x2


def quotient(x1: Any, x2: Any, remainder: Any) -> Any:
    """The integer quotient ``q`` of ``x1 = q * x2 + remainder`` (as a float)."""
    return np.rint((x1 - remainder) / x2)


def _remainder_x2(x1: Any, x2: Any, y: Any) -> Any:
    return -quotient(x1, x2, y)


def _divmod_remainder_x2(x1: Any, x2: Any, ys: Any) -> Any:
    return -ys[0]


PARTIALS: dict[Any, tuple[Any, ...]] = {
    np.add: (ONE, ONE),
    np.subtract: (ONE, MINUS_ONE),
    np.multiply: (_second, _first),
    np.divide: (_divide_x1, _divide_x2),  # also np.true_divide: the same object
    np.negative: (MINUS_ONE,),
    np.positive: (ONE,),
    np.mod: (ONE, _remainder_x2),  # also np.remainder
    np.fmod: (ONE, _remainder_x2),
}
"""Partial derivatives of the ufuncs of this module, by ufunc."""

DIVMOD_ROWS: list[tuple[Partial, ...]] = [(ZERO, ZERO), (ONE, _divmod_remainder_x2)]
"""Partials of ``divmod``'s outputs (quotient, remainder) with respect to its two arguments."""

for _f, _partials in PARTIALS.items():
    scalar_rule(_f, *_partials)
scalar_rule(np.divmod, *DIVMOD_ROWS)


# ---- sample inputs ----------------------------------------------------------------------------------
_A = np.array([[0.7, -1.3, 2.1], [-0.4, 1.8, -2.6]])
_B = np.array([1.2, -0.8, 1.7])


@sample_inputs(np.add, np.subtract, np.multiply)
def _bilinear_samples(rng: np.random.Generator) -> list[Sample]:
    return [*elementwise_samples(_A, _B, complex_inputs=True, rng=rng),
            Sample(_A, 3, label="an integer argument (not differentiated)"),
            Sample(np.array(0.5), _B[:, None], label="0-d array against a column")]


@sample_inputs(np.divide)
def _divide_samples(rng: np.random.Generator) -> list[Sample]:
    return [*elementwise_samples(_A, _B, complex_inputs=True, rng=rng),
            Sample(np.arange(6).reshape(2, 3), _B, label="integer numerator")]


@sample_inputs(np.negative, np.positive)
def _sign_samples(rng: np.random.Generator) -> list[Sample]:
    return elementwise_samples(_A, complex_inputs=True, rng=rng)


@sample_inputs(np.mod, np.fmod, np.divmod)
def _remainder_samples(rng: np.random.Generator) -> list[Sample]:
    # quotients away from integers (the remainder jumps there); negative dividends and divisors,
    # where the floored (mod) and truncated (fmod) remainders differ
    x1 = np.array([[2.3, -1.7, 5.2], [-4.1, 0.6, 3.35]])
    x2 = np.array([1.5, 1.5, -2.0])
    return elementwise_samples(x1, x2, rng=rng)
