"""Rounding: floor, ceil, trunc, rint, fix, round/around (and ``ndarray.round``).

These functions are piecewise constant: their derivative is zero wherever it exists. For
floating (and complex) inputs the rules return **dense zeros of the input's shape and
dtype** as cotangents and zeros of the output's shape and dtype as tangents (the
convention of ``docs/rules/elementwise.md``; a ``ZeroTangent()`` output cotangent still
gives ``ZeroTangent()``). Integer inputs, whose outputs are integers, get ``NoTangent()``.
``decimals`` is never differentiated; ``out=`` (by keyword or position) raises
:class:`~chainrules_core.UnsupportedKeywordError`.

Examples
--------
>>> import numpy as np
>>> import chainrules
>>> from chainrules import rrule
>>> y, pullback = rrule(np.round, np.array([1.26, 2.5], dtype=np.float32), 1)
>>> y, pullback(np.ones(2))
(array([1.3, 2.5], dtype=float32), (NoTangent(), array([0., 0.], dtype=float32), NoTangent()))
"""

from __future__ import annotations

import numbers

import numpy as np

from chainrules.rulesets._samples import elementwise_samples
from chainrules.rulesets.elementwise._unary import unary_rule, zero_backward, zero_forward
from chainrules_core import Sample, sample_inputs, scalar_rule
from chainrules_core.scalar_rules import ZERO, check_ufunc_keywords

for _f in (np.floor, np.ceil, np.trunc, np.rint):
    scalar_rule(_f, ZERO)

_DECIMALS_OUT = (("decimals", numbers.Integral), ("out", object))

unary_rule(np.round, zero_backward, zero_forward, extra=_DECIMALS_OUT)
unary_rule(np.around, zero_backward, zero_forward, extra=_DECIMALS_OUT)
unary_rule(np.ndarray.round, zero_backward, zero_forward, name="ndarray.round", extra=_DECIMALS_OUT,
           types=(np.ndarray,))
unary_rule(np.fix, zero_backward, zero_forward, extra=(("out", object),), keywords=check_ufunc_keywords)


# ---- sample inputs ----------------------------------------------------------------------------------
_X = np.array([[0.72, -1.31, 2.14], [-0.43, 1.86, -2.68]])  # away from integers and from the rounding points


@sample_inputs(np.floor, np.ceil, np.trunc, np.rint, np.fix)
def _rounding_samples(rng: np.random.Generator) -> list[Sample]:
    return [*elementwise_samples(_X, rng=rng), Sample(np.arange(3), label="integers (not differentiated)")]


@sample_inputs(np.round, np.around)
def _round_samples(rng: np.random.Generator) -> list[Sample]:
    return [*elementwise_samples(_X, rng=rng), Sample(_X, 1, label="decimals by position"),
            Sample(_X, fkwargs={"decimals": -1}, label="decimals by keyword"),
            Sample(_X + 0.37j, label="complex")]


@sample_inputs(np.ndarray.round)
def _round_method_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(_X), Sample(_X.astype(np.float32), 1, label="float32, decimals by position")]
