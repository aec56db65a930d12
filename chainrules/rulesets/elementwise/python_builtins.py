"""Builtins on numbers: abs, pow, divmod, round, sum, min, max.

* ``abs``, ``pow`` and ``divmod`` share the rules of ``np.abs``, ``np.power`` and
  ``np.divmod`` (on Python and NumPy numbers and on ndarrays); ``pow(a, b, mod)`` takes
  integers only and is non-differentiable. ``round(x)`` returns an integer
  (non-differentiable); ``round(x, ndigits)`` is piecewise constant (a zero cotangent).
* ``sum(iterable, start=0)`` over a list or tuple of numbers or arrays (broadcast against
  each other), or over the first axis of an ndarray: every element gets the output
  cotangent (summed back to its shape); for an ndarray the cotangent is a read-only
  ``np.broadcast_to`` view, so no array of the input's size is allocated.
* ``min``/``max`` of an iterable or of several arguments (``key=`` and ``default=`` are
  accepted, never differentiated): the cotangent goes to the elements equal to the
  result, **split equally among ties** (the convention of ``np.maximum``), and the other
  elements get zeros. A NaN result (Python's ``max`` returns a NaN element that comes
  first) sends the cotangent to that element.

A list or tuple argument gets a ``Tangent`` of its type (integer elements get
``NoTangent()``), an ndarray an ndarray.

Examples
--------
>>> import chainrules
>>> from chainrules import rrule
>>> y, pullback = rrule(max, [1.0, 3.0, 3.0, 2])
>>> y, pullback(1.0)
(3.0, (NoTangent(), Tangent(list, 0.0, 0.5, 0.5, NoTangent())))
"""

from __future__ import annotations

import builtins
import numbers
from typing import Any

import numpy as np

from chainrules.rulesets.elementwise import arithmetic, powers
from chainrules.rulesets.elementwise._sequences import SEQUENCE, sequence_cotangent, sequence_tangents
from chainrules.rulesets.elementwise._unary import no_keywords, unary_rule, zero_backward, zero_forward
from chainrules.rulesets.elementwise.complex_parts import abs_backward, abs_forward
from chainrules_core import (
    AbstractZero,
    NotImplementedTangent,
    Sample,
    Thunk,
    Varargs,
    differentiable,
    frule,
    non_differentiable,
    read_cotangent,
    rrule,
    sample_inputs,
    scalar_rule,
    unbroadcast,
)
from chainrules_core.scalar_rules import NO, NUMERIC, ZERO_TANGENT, fit_tangent, project_argument

unary_rule(builtins.abs, abs_backward, abs_forward, keywords=no_keywords, positional_out=False)
scalar_rule(builtins.pow, *powers.POWER_PARTIALS, keywords=no_keywords, positional_out=False)
non_differentiable(builtins.pow, numbers.Integral, numbers.Integral, numbers.Integral)
scalar_rule(builtins.divmod, *arithmetic.DIVMOD_ROWS, keywords=no_keywords, positional_out=False)
unary_rule(builtins.round, zero_backward, zero_forward, keywords=no_keywords, extra=(("ndigits", object),))


# ---- sum ---------------------------------------------------------------------------------------------
@rrule.register(builtins.sum, SEQUENCE, NUMERIC)
def sum_rrule(iterable: Any, start: Any = 0) -> Any:
    """Reverse rule of ``sum(iterable, start=0)``."""
    y = builtins.sum(iterable, start)

    def iterable_cotangent(dy: Any) -> Any:
        if isinstance(iterable, np.ndarray):
            row = unbroadcast(dy, iterable.shape[1:])
            return sequence_cotangent(iterable, np.broadcast_to(row, iterable.shape))
        return sequence_cotangent(iterable, [dy] * len(iterable))

    def sum_pullback(dy: Any) -> tuple[Any, ...]:
        dy = read_cotangent(dy, y, builtins.sum)
        if isinstance(dy, (AbstractZero, NotImplementedTangent)):
            zero = ZERO_TANGENT if isinstance(dy, AbstractZero) else dy
            return NO, zero, zero if differentiable(start) else NO
        return (NO, Thunk(lambda: iterable_cotangent(dy)),
                Thunk(lambda: project_argument(start, dy)) if differentiable(start) else NO)

    return y, sum_pullback


@frule.register(builtins.sum, SEQUENCE, NUMERIC)
def sum_frule(tangents: Any, iterable: Any, start: Any = 0) -> Any:
    """Forward rule of ``sum(iterable, start=0)``."""
    y = builtins.sum(iterable, start)
    terms = [dx for dx in sequence_tangents(tangents[1], iterable) if dx is not None]
    dstart = tangents[2] if len(tangents) > 2 else None
    if not (dstart is None or isinstance(dstart, AbstractZero)) and differentiable(start):
        terms.append(dstart)
    if not terms:
        return y, ZERO_TANGENT
    return y, fit_tangent(builtins.sum(terms[1:], terms[0]), y)


# ---- min, max ----------------------------------------------------------------------------------------
def _ties(elements: Any, result: Any) -> list[bool]:
    """Which elements the result of ``min``/``max`` equals (NaN counts as equal to a NaN result)."""
    if isinstance(elements, np.ndarray):
        return list(np.equal(elements, result) | (np.isnan(elements) & np.isnan(result)))
    if result != result:  # a NaN result: the element it is (Python returns the element itself)
        return [e is result for e in elements]
    return [bool(e == result) for e in elements]


def _extremum_rules(f: Any) -> None:
    """Register the rules of ``min`` or ``max`` for an iterable and for several arguments."""
    name = f.__name__

    def shares(elements: Any, y: Any) -> list[float]:
        ties = _ties(elements, y)
        k = builtins.sum(ties)
        return [1.0 / k if t else 0.0 for t in ties]

    def extremum_rrule(*args: Any, **kwargs: Any) -> Any:
        y = f(*args, **kwargs)
        elements = args[0] if len(args) == 1 else args
        if not len(elements) or not differentiable(y):  # default= was returned, or an integer

            def constant_pullback(dy: Any) -> tuple[Any, ...]:
                read_cotangent(dy, y, f)  # rejects what is not a cotangent; nothing is differentiated
                return (NO, *(NO for _ in args))

            constant_pullback.__name__ = constant_pullback.__qualname__ = f"{name}_pullback"
            return y, constant_pullback

        def extremum_pullback(dy: Any) -> tuple[Any, ...]:
            dy = read_cotangent(dy, y, f)
            if isinstance(dy, (AbstractZero, NotImplementedTangent)):
                zero = ZERO_TANGENT if isinstance(dy, AbstractZero) else dy
                if len(args) == 1:
                    return NO, zero
                return (NO, *(zero if differentiable(a) else NO for a in args))
            values = [w * dy for w in shares(elements, y)]
            if len(args) == 1:
                if isinstance(elements, np.ndarray):
                    values = np.array(values)  # type: ignore[assignment]
                return NO, sequence_cotangent(elements, values)
            return (NO, *(project_argument(a, v) if differentiable(a) else NO for a, v in zip(args, values)))

        extremum_pullback.__name__ = extremum_pullback.__qualname__ = f"{name}_pullback"
        return y, extremum_pullback

    def extremum_frule(tangents: Any, *args: Any, **kwargs: Any) -> Any:
        y = f(*args, **kwargs)
        elements = args[0] if len(args) == 1 else args
        if not len(elements) or not differentiable(y):
            return y, ZERO_TANGENT if differentiable(y) else NO
        dxs = sequence_tangents(tangents[1], elements) if len(args) == 1 else sequence_tangents(tangents[1:], args)
        terms = [w * dx for w, dx in zip(shares(elements, y), dxs) if w and dx is not None]
        return y, fit_tangent(builtins.sum(terms[1:], terms[0]), y) if terms else ZERO_TANGENT

    extremum_rrule.__name__ = extremum_rrule.__qualname__ = f"{name}_rrule"
    extremum_frule.__name__ = extremum_frule.__qualname__ = f"{name}_frule"
    for types in ((SEQUENCE,), (NUMERIC, NUMERIC, Varargs(NUMERIC))):
        rrule.register(f, *types)(extremum_rrule)
        frule.register(f, *types)(extremum_frule)


_extremum_rules(builtins.min)
_extremum_rules(builtins.max)


# ---- sample inputs ----------------------------------------------------------------------------------
@sample_inputs(builtins.abs)
def _abs_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(-1.5), Sample(3 - 4j, label="complex"), Sample(np.array([0.7, -1.3]), label="array"),
            Sample(np.float32(-2.5), label="float32")]


@sample_inputs(builtins.pow)
def _pow_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(1.7, 2.5), Sample(-8.0, 1 / 3, label="a complex result (Python's principal power)"),
            Sample(2.5, 3, label="an integer exponent (not differentiated)"),
            Sample(np.array([0.5, 2.0]), 1.5, label="array"), Sample(3, 4, 5, label="modular: integers")]


@sample_inputs(builtins.divmod)
def _divmod_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(7.3, 2.0), Sample(-7.3, 2.0, label="negative dividend"),
            Sample(np.array([2.3, -1.7]), 1.5, label="array")]


@sample_inputs(builtins.round)
def _round_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(2.37, label="an integer result (non-differentiable)"), Sample(2.37, 1, label="ndigits"),
            Sample(np.float64(-1.234), 2, label="NumPy scalar")]


@sample_inputs(builtins.sum)
def _sum_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample([0.5, -1.5, 2.0]), Sample((0.5, 2, np.float32(1.5)), label="a tuple with an integer"),
            Sample([np.ones(3), rng.standard_normal((2, 3))], label="arrays broadcast together"),
            Sample(rng.standard_normal((3, 2)), label="an array: summed over its rows"),
            Sample([0.5, 1.5], 2.5, label="start")]


@sample_inputs(builtins.max, builtins.min)
def _extremum_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample([1.0, 3.5, -2.0]), Sample([1.0, 3.5, 3.5, -3.5, 2], label="ties are split"),
            Sample(1.5, -2.5, 0.5, label="several arguments"),
            Sample(np.array([0.5, -1.5, 2.5]), label="an array"),
            Sample([1.0, -3.5, 2.0], fkwargs={"key": abs}, label="key="),
            Sample([], fkwargs={"default": 0.0}, label="empty with default= (constant)")]
