"""The ``operator`` module on numbers and arrays: add, sub, mul, truediv, pow, mod, neg, pos, abs.

``operator.add(a, b)`` is what ``a + b`` calls, so these are the rules an AD framework
reaches when it traces Python arithmetic. On Python and NumPy numbers and on ndarrays
(with broadcasting) they share the partial derivatives and conventions of the NumPy ufuncs
(``np.add``, ..., ``np.power``, ``np.mod``, ``np.abs``); for Python scalars the output
is a Python number, as the operator returns it (``(-8.0) ** (1/3)`` is complex in
Python, and its rule differentiates the complex principal power). Arguments of other
types (lists, strings) have no rule here.

Non-differentiable (boolean or integer results): ``lt``, ``le``, ``eq``, ``ne``, ``ge``,
``gt``, ``not_``, ``truth``, ``is_``, ``is_not``, ``and_``, ``or_``, ``xor``,
``invert``/``inv``, ``lshift``, ``rshift``, ``floordiv``, ``index``. ``operator.matmul``
and ``operator.getitem`` have rules in the contraction and indexing rulesets; the
in-place operators (``iadd``...) have none (they mutate arrays).

Examples
--------
>>> import operator
>>> import chainrules
>>> from chainrules import rrule, unthunk
>>> y, pullback = rrule(operator.truediv, 1.0, 4.0)
>>> y, [unthunk(c) for c in pullback(1.0)[1:]]
(0.25, [0.25, -0.0625])
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from chainrules.rulesets.elementwise import arithmetic, powers
from chainrules.rulesets.elementwise._unary import no_keywords, unary_rule
from chainrules.rulesets.elementwise.complex_parts import abs_backward, abs_forward
from chainrules_core import Sample, non_differentiable, sample_inputs, scalar_rule

PARTIALS: dict[Any, tuple[Any, ...]] = {
    operator.add: arithmetic.PARTIALS[np.add],
    operator.sub: arithmetic.PARTIALS[np.subtract],
    operator.mul: arithmetic.PARTIALS[np.multiply],
    operator.truediv: arithmetic.PARTIALS[np.divide],
    operator.mod: arithmetic.PARTIALS[np.mod],
    operator.neg: arithmetic.PARTIALS[np.negative],
    operator.pos: arithmetic.PARTIALS[np.positive],
    operator.pow: powers.POWER_PARTIALS,
}
"""Partial derivatives of the operators with elementwise rules, by operator."""

for _f, _partials in PARTIALS.items():
    scalar_rule(_f, *_partials, keywords=no_keywords, positional_out=False)
unary_rule(operator.abs, abs_backward, abs_forward, keywords=no_keywords, positional_out=False)

NON_DIFFERENTIABLE = (
    operator.lt, operator.le, operator.eq, operator.ne, operator.ge, operator.gt,
    operator.not_, operator.truth, operator.is_, operator.is_not,
    operator.and_, operator.or_, operator.xor, operator.invert, operator.lshift, operator.rshift,
    operator.floordiv, operator.index,
)
"""The operators this module declares non-differentiable (``operator.inv`` is ``operator.invert``)."""

for _f in NON_DIFFERENTIABLE:
    non_differentiable(_f)


# ---- sample inputs ----------------------------------------------------------------------------------
_A = np.array([[0.7, -1.3, 2.1], [-0.4, 1.8, -2.6]])
_B = np.array([1.2, -0.8, 1.7])


@sample_inputs(operator.add, operator.sub, operator.mul, operator.truediv)
def _arithmetic_samples() -> list[Sample]:
    return [Sample(1.5, -0.5), Sample(_A, _B, label="arrays, broadcast"), Sample(2 + 1j, 0.5, label="complex"),
            Sample(_A.astype(np.float32), 2, label="float32 and an integer")]


@sample_inputs(operator.mod)
def _mod_samples() -> list[Sample]:
    return [Sample(7.3, 2.0), Sample(-7.3, 2.0, label="negative dividend (floored)"),
            Sample(np.array([2.3, -1.7]), 1.5, label="array")]


@sample_inputs(operator.neg, operator.pos, operator.abs)
def _unary_samples() -> list[Sample]:
    return [Sample(-1.5), Sample(_A, label="array"), Sample(3 - 4j, label="complex")]


@sample_inputs(operator.pow)
def _pow_samples() -> list[Sample]:
    return [Sample(1.7, 2.5), Sample(-8.0, 1 / 3, label="a complex result (Python's principal power)"),
            Sample(np.abs(_A) + 0.1, _B, label="arrays"), Sample(_A, 2, label="an integer exponent")]


@sample_inputs(operator.lt, operator.le, operator.eq, operator.ne, operator.ge, operator.gt, operator.is_,
               operator.is_not, operator.floordiv)
def _comparison_samples() -> list[Sample]:
    return [Sample(1.5, 2.5), Sample(_A, _B, label="arrays")]


@sample_inputs(operator.not_, operator.truth)
def _truth_samples() -> list[Sample]:
    return [Sample(1.5), Sample(0.0)]


@sample_inputs(operator.and_, operator.or_, operator.xor, operator.lshift, operator.rshift)
def _bit_samples() -> list[Sample]:
    return [Sample(12, 3), Sample(np.array([12, 7]), np.array([3, 1]), label="integer arrays")]


@sample_inputs(operator.invert, operator.index)
def _integer_samples() -> list[Sample]:
    return [Sample(12), Sample(np.int64(-3), label="NumPy integer")]
