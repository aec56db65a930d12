"""Non-differentiable elementwise functions: comparisons, logic, bits, predicates, integer division.

Their outputs are booleans or integers, which have no tangent space, so every argument's
cotangent is ``NoTangent()`` and the pushforward is ``NoTangent()``
(:func:`chainrules_core.non_differentiable`). An AD framework that reaches one of them
stops differentiating there instead of failing to find a rule.

* comparisons: ``equal``, ``not_equal``, ``less``, ``less_equal``, ``greater``,
  ``greater_equal``, ``isclose``, ``allclose``, ``array_equal``, ``array_equiv``;
* logic: ``logical_and``, ``logical_or``, ``logical_xor``, ``logical_not``;
* bits: ``bitwise_and``, ``bitwise_or``, ``bitwise_xor``, ``invert`` (also
  ``bitwise_not``/``bitwise_invert``), ``left_shift``, ``right_shift`` (and their
  ``bitwise_*`` names), ``bitwise_count``;
* predicates: ``isnan``, ``isinf``, ``isfinite``, ``isnat``, ``signbit``, ``isposinf``,
  ``isneginf``, ``isreal``, ``iscomplex``, ``isrealobj``, ``iscomplexobj``;
* integer-valued: ``floor_divide`` (its float result is piecewise constant but it is
  declared non-differentiable, as ChainRules.jl declares ``div``/``fld``), ``gcd``, ``lcm``.

Examples
--------
>>> import numpy as np
>>> import chainrules
>>> from chainrules import rrule
>>> y, pullback = rrule(np.less, np.array([1.0, 3.0]), 2.0)
>>> y, pullback(None)
(array([ True, False]), (NoTangent(), NoTangent(), NoTangent()))
"""

from __future__ import annotations

import numpy as np

from chainrules_core import Sample, non_differentiable, sample_inputs

NON_DIFFERENTIABLE = (
    # comparisons
    np.equal, np.not_equal, np.less, np.less_equal, np.greater, np.greater_equal,
    np.isclose, np.allclose, np.array_equal, np.array_equiv,
    # logic
    np.logical_and, np.logical_or, np.logical_xor, np.logical_not,
    # bits (np.bitwise_not and np.bitwise_invert are np.invert; np.bitwise_left_shift is np.left_shift...)
    np.bitwise_and, np.bitwise_or, np.bitwise_xor, np.invert, np.left_shift, np.right_shift, np.bitwise_count,
    # predicates
    np.isnan, np.isinf, np.isfinite, np.isnat, np.signbit, np.isposinf, np.isneginf,
    np.isreal, np.iscomplex, np.isrealobj, np.iscomplexobj,
    # integer-valued
    np.floor_divide, np.gcd, np.lcm,
)
"""The NumPy functions this module declares non-differentiable."""

for _f in NON_DIFFERENTIABLE:
    non_differentiable(_f)


# ---- sample inputs ----------------------------------------------------------------------------------
# A non-differentiable function's rules give NoTangent() for every argument, floating ones included.
_X = np.array([[0.7, -1.3, np.nan], [np.inf, 1.8, -2.6]])
_Y = np.array([0.7, 1.0, 2.5])
_I, _J = np.array([[12, 7, -3], [5, 0, 9]]), np.array([3, 2, 1])


@sample_inputs(np.equal, np.not_equal, np.less, np.less_equal, np.greater, np.greater_equal, np.isclose,
               np.allclose, np.array_equal, np.array_equiv, np.logical_and, np.logical_or, np.logical_xor)
def _comparison_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(_X, _Y), Sample(1.5, 2.0, label="scalars")]


@sample_inputs(np.floor_divide)
def _floor_divide_samples(rng: np.random.Generator) -> list[Sample]:
    # piecewise constant: between its jumps the finite differences agree that nothing moves
    return [Sample(np.array([[2.3, -1.7, 5.2], [-4.1, 0.6, 3.35]]), np.array([1.5, 1.5, -2.0])), Sample(_I, _J)]


@sample_inputs(np.logical_not, np.isnan, np.isinf, np.isfinite, np.isreal, np.iscomplex, np.isrealobj,
               np.iscomplexobj)
def _predicate_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(_X), Sample(_X + 0.5j, label="complex")]


@sample_inputs(np.signbit, np.isposinf, np.isneginf)
def _real_predicate_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(_X)]


@sample_inputs(np.bitwise_and, np.bitwise_or, np.bitwise_xor, np.left_shift, np.right_shift, np.gcd, np.lcm)
def _integer_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(_I, _J)]


@sample_inputs(np.invert, np.bitwise_count)
def _bit_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(_I), Sample(np.array([True, False]), label="booleans")]


@sample_inputs(np.isnat)
def _isnat_samples(rng: np.random.Generator) -> list[Sample]:
    # (no NaT in the sample: the testers' mutation check compares NaT unequal to itself)
    return [Sample(np.array(["2026-01-01", "2026-11-25"], dtype="datetime64[D]"))]
