"""Selection: ``np.where(condition, x, y)`` and ``np.nan_to_num``.

* ``where(condition, x, y)`` takes each entry from ``x`` where ``condition`` holds and from
  ``y`` elsewhere (all three broadcast): the cotangent of ``x`` is the output cotangent
  where ``condition`` holds, zero elsewhere (summed back to ``x``'s shape), and the other
  way round for ``y``. ``condition`` is not differentiated. ``where(condition)`` with one
  argument returns indices and is non-differentiable.
* ``nan_to_num(x, copy, nan, posinf, neginf)`` replaces NaN and infinite entries (for
  complex input, of the real and imaginary parts separately): the cotangent of ``x`` is
  the output cotangent at the finite entries; a replacement value given by position gets
  the sum of the output cotangent over the entries it replaced (``None``, the default for
  the infinities, has no tangent); values given as keywords are not differentiated.
  ``copy=False`` on an array (NumPy then overwrites ``x``) raises
  :class:`~chainrules_core.UnsupportedKeywordError`.

Examples
--------
>>> import numpy as np
>>> import chainrules
>>> from chainrules import rrule, unthunk
>>> y, pullback = rrule(np.where, np.array([True, False]), np.array([1.0, 2.0]), 0.0)
>>> _, dc, dx, dy = pullback(np.array([10.0, 20.0]))
>>> dc, unthunk(dx), unthunk(dy)
(NoTangent(), array([10.,  0.]), 20.0)
"""

from __future__ import annotations

import functools
import numbers
from typing import Any

import numpy as np

from chainrules.rulesets.elementwise.complex_parts import real_part
from chainrules_core import (
    AbstractZero,
    NotImplementedTangent,
    Sample,
    Thunk,
    UnsupportedKeywordError,
    differentiable,
    frule,
    non_differentiable,
    read_cotangent,
    rrule,
    sample_inputs,
    unthunk,
)
from chainrules_core.scalar_rules import (
    NO,
    NUMERIC,
    ZERO_TANGENT,
    fit_tangent,
    is_complex,
    is_zero_tangent,
    project_argument,
)


# ---- where --------------------------------------------------------------------------------------------
@rrule.register(np.where, object, NUMERIC, NUMERIC)
def where_rrule(condition: Any, x: Any, y: Any) -> Any:
    """Reverse rule of ``np.where(condition, x, y)``."""
    out = np.where(condition, x, y)
    live = differentiable(out)
    diff_x, diff_y = live and differentiable(x), live and differentiable(y)

    def where_pullback(dout: Any) -> tuple[Any, ...]:
        dout = read_cotangent(dout, out, np.where)
        if isinstance(dout, (AbstractZero, NotImplementedTangent)):
            zero = ZERO_TANGENT if isinstance(dout, AbstractZero) else dout
            return NO, NO, zero if diff_x else NO, zero if diff_y else NO
        dx = Thunk(lambda: project_argument(x, np.where(condition, dout, 0))) if diff_x else NO
        dy = Thunk(lambda: project_argument(y, np.where(condition, 0, dout))) if diff_y else NO
        return NO, NO, dx, dy

    return out, where_pullback


@frule.register(np.where, object, NUMERIC, NUMERIC)
def where_frule(tangents: Any, condition: Any, x: Any, y: Any) -> Any:
    """Forward rule of ``np.where(condition, x, y)``."""
    out = np.where(condition, x, y)
    if not differentiable(out):
        return out, NO
    _, _, dx, dy = (unthunk(t) for t in tangents)
    dx = None if is_zero_tangent(dx) or not differentiable(x) else dx
    dy = None if is_zero_tangent(dy) or not differentiable(y) else dy
    for t in (dx, dy):
        if isinstance(t, NotImplementedTangent):
            return out, t
    if dx is None and dy is None:
        return out, ZERO_TANGENT
    return out, fit_tangent(np.where(condition, 0 if dx is None else dx, 0 if dy is None else dy), out)


non_differentiable(np.where, object)  # where(condition): the indices of the nonzero entries


# ---- nan_to_num ---------------------------------------------------------------------------------------
_REPLACEMENT = (numbers.Number, np.ndarray, type(None))


def _masks(x: Any) -> tuple[Any, ...]:
    """(finite, nan, +inf, -inf) masks of the real part, and of the imaginary part if complex."""
    parts = (np.real(x), np.imag(x)) if is_complex(x) else (x,)
    return tuple((np.isfinite(p), np.isnan(p), np.isposinf(p), np.isneginf(p)) for p in parts)


def _parts(d: Any, complex_input: bool) -> tuple[Any, ...]:
    return (np.real(d), np.imag(d)) if complex_input else (real_part(d),)


@rrule.register(np.nan_to_num, NUMERIC, object, _REPLACEMENT, _REPLACEMENT, _REPLACEMENT)
def nan_to_num_rrule(x: Any, copy: Any = True, nan: Any = 0.0, posinf: Any = None, neginf: Any = None) -> Any:
    """Reverse rule of ``np.nan_to_num``."""
    _check_copy(x, copy)
    y = np.nan_to_num(x, copy, nan, posinf, neginf)
    complex_input = is_complex(x)
    live = differentiable(y) and differentiable(x)
    replacements = (nan, posinf, neginf)
    diff = [live and v is not None and differentiable(v) for v in replacements]

    def x_cotangent(dy: Any) -> Any:
        parts = _parts(dy, complex_input)
        masked = [np.where(m[0], p, 0) for m, p in zip(_masks(x), parts)]
        return project_argument(x, masked[0] + 1j * masked[1] if complex_input else masked[0])

    def replacement_cotangent(k: int, dy: Any) -> Any:
        total = sum(np.sum(np.where(m[1 + k], p, 0)) for m, p in zip(_masks(x), _parts(dy, complex_input)))
        return project_argument(replacements[k], total)

    def nan_to_num_pullback(dy: Any) -> tuple[Any, ...]:
        dy = read_cotangent(dy, y, np.nan_to_num)
        if not live:
            return NO, NO, NO, NO, NO, NO
        if isinstance(dy, (AbstractZero, NotImplementedTangent)):
            zero = ZERO_TANGENT if isinstance(dy, AbstractZero) else dy
            return NO, zero, NO, *(zero if d else NO for d in diff)
        dx = Thunk(lambda: x_cotangent(dy))
        return (NO, dx, NO,
                *(Thunk(functools.partial(replacement_cotangent, k, dy)) if diff[k] else NO for k in range(3)))

    return y, nan_to_num_pullback


@frule.register(np.nan_to_num, NUMERIC, object, _REPLACEMENT, _REPLACEMENT, _REPLACEMENT)
def nan_to_num_frule(tangents: Any, x: Any, copy: Any = True, nan: Any = 0.0, posinf: Any = None,
                     neginf: Any = None) -> Any:
    """Forward rule of ``np.nan_to_num``."""
    _check_copy(x, copy)
    y = np.nan_to_num(x, copy, nan, posinf, neginf)
    if not (differentiable(y) and differentiable(x)):
        return y, NO
    dx = unthunk(tangents[1])
    complex_input = is_complex(x)
    replacement_tangents = [unthunk(t) for t in tangents[3:6]]
    parts = []
    for k, m in enumerate(_masks(x)):
        part: Any = 0
        if not is_zero_tangent(dx):
            if isinstance(dx, NotImplementedTangent):
                return y, dx
            part = np.where(m[0], _parts(dx, complex_input)[k], 0)
        for j, (value, dv) in enumerate(zip((nan, posinf, neginf), replacement_tangents)):
            if value is None or is_zero_tangent(dv) or not differentiable(value):
                continue
            part = part + np.where(m[1 + j], real_part(dv), 0)  # a real value replaces either part
        parts.append(part)
    total = parts[0] + 1j * parts[1] if complex_input else parts[0]
    return y, fit_tangent(total, y)


def _check_copy(x: Any, copy: Any) -> None:
    if not copy and isinstance(x, np.ndarray):
        raise UnsupportedKeywordError("numpy.nan_to_num: copy=False replaces the entries of x in place, which is "
                                      "not differentiable; call with copy=True")


# ---- sample inputs ----------------------------------------------------------------------------------
_CONDITION = np.array([[True, False, True], [False, False, True]])


@sample_inputs(np.where)
def _where_samples(rng: np.random.Generator) -> list[Sample]:
    x, y = rng.standard_normal((2, 3)), rng.standard_normal(3)
    return [Sample(_CONDITION, x, y, label="y broadcast"),
            Sample(_CONDITION, x.astype(np.float32), np.float32(0.5), label="float32, a scalar y"),
            Sample(_CONDITION[0], 1.5, y, label="a scalar x"),
            Sample(_CONDITION, x + 1j * x[::-1], y, label="complex x"),
            Sample(np.array([0.0, 1.5, -2.0]) > 0, np.arange(3), y, label="integer x (not differentiated)"),
            Sample(_CONDITION, label="where(condition): indices, non-differentiable")]


_SPECIAL = np.array([[np.nan, 1.5, np.inf], [-np.inf, -0.3, np.nan]])


@sample_inputs(np.nan_to_num)
def _nan_to_num_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(_SPECIAL, label="NaN, +inf and -inf replaced by the defaults"),
            Sample(_SPECIAL, True, 0.5, 10.0, -10.0, label="replacement values by position (differentiated)"),
            Sample(_SPECIAL.astype(np.float32), True, *np.array([0.5, 10.0, -10.0], np.float32), label="float32"),
            Sample(_SPECIAL, fkwargs={"nan": 2.0, "posinf": 5.0}, label="replacement values by keyword"),
            Sample(_SPECIAL[0] + 1j * _SPECIAL[1], True, 0.5, 10.0, -10.0,
                   label="complex: real and imaginary parts replaced separately"),
            Sample(np.array([0.5, -1.0]), label="nothing to replace")]
