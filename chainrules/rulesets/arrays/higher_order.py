"""Higher-order array functions: ``np.apply_along_axis``, ``np.apply_over_axes``, ``np.piecewise`` and
``np.fromfunction``.

Each of them calls a function the user passes. Like the rules of ChainRules.jl for ``map``,
their rules differentiate that function through the calling AD: a rule registered with
``config=HasReverseMode`` calls :func:`~chainrules_core.rrule_via_ad` once per call of the
function (per slice, per axis, per piece), and one registered with
``config=HasForwardsMode`` calls :func:`~chainrules_core.frule_via_ad`; the pullback
sums what the per-call pullbacks return. Besides the array, the cotangents cover the extra
positional arguments NumPy passes on to the function (``*args`` of ``apply_along_axis``
and ``piecewise``, summed over the calls) and the function's own tangent (its fields or
closure, as the AD reports them; ``NoTangent()`` for a plain function). Keyword arguments
passed through to the function are not differentiated.

Without a config (a plain ``rrule(np.apply_along_axis, f, 0, x)``), the same rules look
up chainrules' own rule for the function at the argument types of each call
(``rrule(f, slice, *args)``): ``np.apply_along_axis(np.sum, 0, x)`` works with no AD
behind it. When the function has no rule for those arguments the rule returns ``None``
(no rule), so the caller's AD traces through NumPy's implementation if it can.

* ``apply_along_axis(func1d, axis, arr, *args)``: ``func1d`` runs on each 1-d slice along
  ``axis``; its output dimensions replace ``axis``, as in NumPy.
* ``apply_over_axes(func, a, axes)``: ``func(a, axis)`` for each axis in turn, with the
  dimension put back (``expand_dims``) when ``func`` removed it.
* ``piecewise(x, condlist, funclist, *args)``: each function of ``funclist`` runs on
  ``x[cond]``; where conditions overlap the last one wins (NumPy's assignment order), and
  entries no condition selects are ``0``, with zero derivative. Constants in ``funclist``
  are differentiated too (the cotangent of ``funclist`` is a ``Tangent`` of the list, with
  the functions' own tangents and the constants' cotangents). The conditions are booleans:
  ``NoTangent()``.
* ``fromfunction(function, shape)``: the output depends on no differentiable argument of
  ``np.fromfunction`` (``shape`` is an integer tuple, the index grids are constants): its
  only derivative is with respect to values the function carries (a closure, a functor's
  fields). With a config the rule asks the AD for it; without one it uses a chainrules rule
  of ``function`` if there is one, gives ``NoTangent()`` for functions that carry no values
  (ufuncs, NumPy functions, Python functions whose closure and defaults hold no numbers or
  arrays) and ``not_implemented`` for other callables, whose captured values it cannot see.
  Values read from global variables are invisible to every rule.

The per-call pullbacks produce all cotangents at once, so the pullbacks here run them
eagerly (there is no work to save by thunking one cotangent).
"""

from __future__ import annotations

import types
from collections.abc import Callable, Iterator
from typing import Any, SupportsIndex

import numpy as np
from numpy.lib.array_utils import normalize_axis_index

from chainrules.rulesets.arrays._linear_maps import dense_tangent, read_nested_cotangent
from chainrules.rulesets.arrays._sample_arrays import normal, with_dtypes
from chainrules_core import (
    AbstractZero,
    HasForwardsMode,
    HasReverseMode,
    NoTangent,
    NotImplementedTangent,
    ProjectTo,
    RulesOnlyConfig,
    Sample,
    Tangent,
    ZeroTangent,
    backing,
    cotangent_projector,
    differentiable,
    frule,
    frule_via_ad,
    not_implemented,
    passes_through,
    read_cotangent,
    reject_keywords,
    rrule,
    rrule_via_ad,
    sample_inputs,
    unbroadcast,
    unthunk,
)

ReverseRule = Callable[..., Any]
"""``rule(f, *args, **kwargs) -> None | (y, pullback)``: ``rrule`` or ``rrule_via_ad`` bound to a config."""

ForwardRule = Callable[..., Any]
"""``rule(tangents, f, *args, **kwargs) -> None | (y, dy)``."""


def _reverse_via(config: Any) -> ReverseRule:
    def reverse_via_ad(f: Any, *args: Any, **kwargs: Any) -> Any:
        return rrule_via_ad(config, f, *args, **kwargs)

    return reverse_via_ad


def _forward_via(config: Any) -> ForwardRule:
    def forward_via_ad(tangents: Any, f: Any, *args: Any, **kwargs: Any) -> Any:
        return frule_via_ad(config, tangents, f, *args, **kwargs)

    return forward_via_ad


# ---- accumulating cotangents over calls -------------------------------------------------------------------
class _Sum:
    """A running sum of cotangents; ``None`` until the first non-zero one, not-implemented wins."""

    __slots__ = ("total",)

    def __init__(self) -> None:
        self.total: Any = None

    def add(self, value: Any) -> None:
        value = unthunk(value)
        if value is None or isinstance(self.total, NotImplementedTangent):
            return
        if isinstance(value, NotImplementedTangent):
            self.total = value
        elif isinstance(value, AbstractZero):  # ZeroTangent() outranks NoTangent(): a differentiable zero
            if self.total is None or (isinstance(self.total, NoTangent) and isinstance(value, ZeroTangent)):
                self.total = value
        elif self.total is None or isinstance(self.total, AbstractZero):
            self.total = value
        else:
            self.total = self.total + value

    def result(self, primal: Any) -> Any:
        """The sum, projected onto ``primal`` (``NoTangent()`` for an input without a tangent space)."""
        project = cotangent_projector(primal) if _is_numeric(primal) else None
        if self.total is None or isinstance(self.total, AbstractZero):
            if project is not None:
                return project(ZeroTangent())
            return NoTangent() if self.total is None else self.total
        if project is None or isinstance(self.total, NotImplementedTangent):
            return self.total
        return project(self.total)


def _is_numeric(x: Any) -> bool:
    return isinstance(x, (int, float, complex, np.number, np.bool_, np.ndarray)) or (
        isinstance(x, (list, tuple)) and not hasattr(x, "_fields"))


def _function_tangent(acc: _Sum) -> Any:
    """The cotangent of a called function: the summed tangents the calls reported."""
    total = acc.total
    if total is None:
        return NoTangent()
    return total


def _zero_output_tangent(y: Any) -> Any:
    return ZeroTangent() if differentiable(np.asarray(y)) else NoTangent()


# ---- apply_along_axis -----------------------------------------------------------------------------------------
def _outer_indices(shape: tuple[int, ...]) -> list[tuple[Any, ...]]:
    return [ind + (Ellipsis,) for ind in np.ndindex(shape)]


def _apply_along_axis_rrule(rule: ReverseRule, func1d: Any, axis: Any, arr: np.ndarray, args: tuple[Any, ...],
                            kwargs: dict[str, Any]) -> Any:
    ax = normalize_axis_index(axis, arr.ndim)
    moved = np.moveaxis(arr, ax, -1)
    outer = moved.shape[:-1]
    if 0 in outer:
        return None  # NumPy raises: nothing to differentiate
    indices = _outer_indices(outer)
    results, pullbacks = [], []
    for ind in indices:
        out = rule(func1d, moved[ind], *args, **kwargs)
        if out is None:
            return None
        res, pullback = out
        results.append(np.asanyarray(res))
        pullbacks.append(pullback)
    first = results[0]
    buff = np.zeros(outer + first.shape, dtype=first.dtype)
    for ind, res in zip(indices, results):
        buff[ind] = res
    rnd = first.ndim
    res_axes = tuple(range(len(outer), buff.ndim))
    y = np.moveaxis(buff, res_axes, tuple(range(ax, ax + rnd)))
    project_arr = cotangent_projector(arr)

    def apply_along_axis_pullback(dy: Any) -> tuple[Any, ...]:
        dy = read_cotangent(dy, y, "np.apply_along_axis")
        if passes_through(dy):
            zero = dy if isinstance(dy, NotImplementedTangent) else ZeroTangent()
            return (NoTangent(), NoTangent(), NoTangent(), project_arr(zero),
                    *(_Sum().result(a) if not isinstance(dy, NotImplementedTangent) else dy for a in args))
        dy_moved = np.moveaxis(dy, tuple(range(ax, ax + rnd)), res_axes)
        func_acc = _Sum()
        arr_acc: Any = None
        arg_accs = [_Sum() for _ in args]
        for ind, pullback in zip(indices, pullbacks):
            piece = dy_moved[ind]
            cotangents = pullback(piece[()] if rnd == 0 else piece)
            func_acc.add(cotangents[0])
            dslice = unthunk(cotangents[1])
            if isinstance(dslice, NotImplementedTangent):
                arr_acc = dslice
            elif not isinstance(dslice, AbstractZero) and not isinstance(arr_acc, NotImplementedTangent):
                if arr_acc is None:
                    arr_acc = np.zeros(moved.shape, dtype=np.result_type(dslice, moved.dtype))
                arr_acc[ind] += dslice
            for acc, ct in zip(arg_accs, cotangents[2:]):
                acc.add(ct)
        if arr_acc is None:
            darr: Any = project_arr(ZeroTangent())
        elif isinstance(arr_acc, NotImplementedTangent):
            darr = arr_acc
        else:
            darr = project_arr(np.moveaxis(arr_acc, -1, ax))
        return (NoTangent(), _function_tangent(func_acc), NoTangent(), darr,
                *(acc.result(a) for acc, a in zip(arg_accs, args)))

    return y, apply_along_axis_pullback


def _apply_along_axis_frule(rule: ForwardRule, tangents: Any, func1d: Any, axis: Any, arr: np.ndarray,
                            args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    ax = normalize_axis_index(axis, arr.ndim)
    moved = np.moveaxis(arr, ax, -1)
    outer = moved.shape[:-1]
    if 0 in outer:
        return None
    dfunc = tangents[1] if len(tangents) > 1 else NoTangent()
    darr = dense_tangent(tangents[3], arr) if len(tangents) > 3 else None
    if isinstance(darr, NotImplementedTangent):
        return np.apply_along_axis(func1d, axis, arr, *args, **kwargs), darr
    darr_moved = None if darr is None else np.moveaxis(np.broadcast_to(darr, arr.shape), ax, -1)
    dargs = list(tangents[4:]) + [ZeroTangent()] * (len(args) - len(tangents[4:]))
    indices = _outer_indices(outer)
    results, dresults = [], []
    for ind in indices:
        dslice = ZeroTangent() if darr_moved is None else darr_moved[ind]
        out = rule((dfunc, dslice, *dargs), func1d, moved[ind], *args, **kwargs)
        if out is None:
            return None
        res, dres = out
        results.append(np.asanyarray(res))
        dresults.append(unthunk(dres))
    first = results[0]
    buff = np.zeros(outer + first.shape, dtype=first.dtype)
    for ind, res in zip(indices, results):
        buff[ind] = res
    rnd = first.ndim
    res_axes = tuple(range(len(outer), buff.ndim))
    destination = tuple(range(ax, ax + rnd))
    y = np.moveaxis(buff, res_axes, destination)
    for d in dresults:
        if isinstance(d, NotImplementedTangent):
            return y, d
    if all(isinstance(d, AbstractZero) for d in dresults):
        return y, _zero_output_tangent(y)
    dtype = np.result_type(buff.dtype, *(np.asarray(d).dtype for d in dresults if not isinstance(d, AbstractZero)))
    dbuff = np.zeros(buff.shape, dtype=dtype)
    for ind, d in zip(indices, dresults):
        if not isinstance(d, AbstractZero):
            dbuff[ind] = d
    return y, ProjectTo(y)(np.moveaxis(dbuff, res_axes, destination))


@rrule.register(np.apply_along_axis, object, SupportsIndex, np.ndarray, config=HasReverseMode)
def apply_along_axis_rrule_via_ad(config: Any, func1d: Any, axis: SupportsIndex, arr: np.ndarray, *args: Any,
                                  **kwargs: Any) -> Any:
    """Reverse rule of ``np.apply_along_axis`` for an AD: ``rrule_via_ad`` on every slice.

    Examples
    --------
    >>> from chainrules import RuleConfig, HasReverseMode, rrule, unthunk
    >>> class RulesAD(RuleConfig, HasReverseMode):
    ...     def rrule_via_ad(self, f, *args, **kwargs):
    ...         return rrule(f, *args, **kwargs)
    >>> y, pullback = rrule(RulesAD(), np.apply_along_axis, np.cumsum, 1, np.ones((2, 3)))
    >>> unthunk(pullback(np.ones((2, 3)))[3])
    array([[3., 2., 1.],
           [3., 2., 1.]])
    """
    return _apply_along_axis_rrule(_reverse_via(config), func1d, axis, arr, args, kwargs)


@rrule.register(np.apply_along_axis, object, SupportsIndex, np.ndarray)
def apply_along_axis_rrule(func1d: Any, axis: SupportsIndex, arr: np.ndarray, *args: Any, **kwargs: Any) -> Any:
    """Reverse rule of ``np.apply_along_axis`` from chainrules' rule of ``func1d`` (``None`` if it has none).

    Examples
    --------
    >>> from chainrules import rrule, unthunk
    >>> y, pullback = rrule(np.apply_along_axis, np.sum, 0, np.array([[1.0, 2.0], [3.0, 4.0]]))
    >>> y, unthunk(pullback(np.array([1.0, 10.0]))[3])
    (array([4., 6.]), array([[ 1., 10.],
           [ 1., 10.]]))
    """
    return _apply_along_axis_rrule(rrule, func1d, axis, arr, args, kwargs)


@frule.register(np.apply_along_axis, object, SupportsIndex, np.ndarray, config=HasForwardsMode)
def apply_along_axis_frule_via_ad(config: Any, tangents: Any, func1d: Any, axis: SupportsIndex, arr: np.ndarray,
                                  *args: Any, **kwargs: Any) -> Any:
    """Forward rule of ``np.apply_along_axis`` for an AD: ``frule_via_ad`` on every slice.

    Examples
    --------
    >>> from chainrules import RuleConfig, HasForwardsMode, frule, NoTangent
    >>> class RulesAD(RuleConfig, HasForwardsMode):
    ...     def frule_via_ad(self, tangents, f, *args, **kwargs):
    ...         return frule(tangents, f, *args, **kwargs)
    >>> frule(RulesAD(), (NoTangent(), NoTangent(), NoTangent(), np.ones((2, 2))),
    ...       np.apply_along_axis, np.sum, 1, np.ones((2, 2)))[1]
    array([2., 2.])
    """
    return _apply_along_axis_frule(_forward_via(config), tangents, func1d, axis, arr, args, kwargs)


@frule.register(np.apply_along_axis, object, SupportsIndex, np.ndarray)
def apply_along_axis_frule(tangents: Any, func1d: Any, axis: SupportsIndex, arr: np.ndarray, *args: Any,
                           **kwargs: Any) -> Any:
    """Forward rule of ``np.apply_along_axis`` from chainrules' frule of ``func1d`` (``None`` if it has none).

    Examples
    --------
    >>> from chainrules import frule, NoTangent
    >>> frule((NoTangent(), NoTangent(), NoTangent(), np.ones((2, 2))), np.apply_along_axis, np.cumsum, 0,
    ...       np.ones((2, 2)))[1]
    array([[1., 1.],
           [2., 2.]])
    """
    return _apply_along_axis_frule(frule, tangents, func1d, axis, arr, args, kwargs)


# The samples pass functions that have chainrules rules: without a config the rules use them directly, and
# with RulesOnlyConfig() the rules registered for an AD (rrule_via_ad / frule_via_ad) are checked.
@sample_inputs(np.apply_along_axis)
def _apply_along_axis_samples(rng: np.random.Generator) -> Iterator[Sample]:
    x = normal(rng, 3, 4)
    yield from with_dtypes(Sample(np.sum, 0, x, label="a scalar per slice"))
    yield Sample(np.cumsum, 1, x, config=RulesOnlyConfig(), label="a vector per slice, through a config")
    yield Sample(np.sort, -1, normal(rng, 2, 3, 2), label="a 3-d array")
    yield Sample(np.multiply, 0, x, 2.5, label="an extra argument (summed over the slices)")
    yield Sample(np.multiply, 1, x, 2.5, config=RulesOnlyConfig(), label="an extra argument, through a config")


# ---- apply_over_axes -------------------------------------------------------------------------------------------
def _axes_tuple(axes: Any) -> tuple[int, ...]:
    return (axes,) if np.array(axes).ndim == 0 else tuple(axes)


_SHAPE_ERROR = "function is not returning an array of the correct shape"


def _apply_over_axes_rrule(rule: ReverseRule, func: Any, a: np.ndarray, axes: Any) -> Any:
    val = np.asarray(a)
    n = a.ndim
    steps = []
    for axis in _axes_tuple(axes):
        if axis < 0:
            axis = n + axis
        out = rule(func, val, axis)
        if out is None:
            return None
        res, pullback = out
        shape = np.shape(res)
        if np.ndim(res) != val.ndim:
            res = np.expand_dims(res, axis)
            if res.ndim != val.ndim:
                raise ValueError(_SHAPE_ERROR)
        steps.append((pullback, shape))
        val = res
    project_a = cotangent_projector(a)

    def apply_over_axes_pullback(dy: Any) -> tuple[Any, ...]:
        dval = read_cotangent(dy, val, "np.apply_over_axes")
        func_acc = _Sum()
        for pullback, shape in reversed(steps):
            if passes_through(dval):
                break
            cotangents = pullback(np.reshape(dval, shape))
            func_acc.add(cotangents[0])
            dval = unthunk(cotangents[1])
        if isinstance(dval, NotImplementedTangent):
            da = dval
        elif isinstance(dval, AbstractZero):
            da = project_a(ZeroTangent())
        else:
            da = project_a(dval)
        return NoTangent(), _function_tangent(func_acc), da, NoTangent()

    return val, apply_over_axes_pullback


def _apply_over_axes_frule(rule: ForwardRule, tangents: Any, func: Any, a: np.ndarray, axes: Any) -> Any:
    dfunc = tangents[1]
    dval: Any = tangents[2]
    val = np.asarray(a)
    n = a.ndim
    for axis in _axes_tuple(axes):
        if axis < 0:
            axis = n + axis
        out = rule((dfunc, dval, NoTangent()), func, val, axis)
        if out is None:
            return None
        res, dres = out
        dres = unthunk(dres)
        if np.ndim(res) != val.ndim:
            res = np.expand_dims(res, axis)
            if res.ndim != val.ndim:
                raise ValueError(_SHAPE_ERROR)
            if not isinstance(dres, (AbstractZero, NotImplementedTangent)):
                dres = np.expand_dims(dres, axis)
        val, dval = res, dres
    if isinstance(dval, AbstractZero):
        return val, _zero_output_tangent(val)
    if isinstance(dval, NotImplementedTangent):
        return val, dval
    return val, ProjectTo(val)(dval)


@rrule.register(np.apply_over_axes, object, np.ndarray, object, config=HasReverseMode)
def apply_over_axes_rrule_via_ad(config: Any, func: Any, a: np.ndarray, axes: Any) -> Any:
    """Reverse rule of ``np.apply_over_axes`` for an AD: ``rrule_via_ad`` on each ``func(a, axis)``.

    Examples
    --------
    >>> from chainrules import RuleConfig, HasReverseMode, rrule, unthunk
    >>> class RulesAD(RuleConfig, HasReverseMode):
    ...     def rrule_via_ad(self, f, *args, **kwargs):
    ...         return rrule(f, *args, **kwargs)
    >>> y, pullback = rrule(RulesAD(), np.apply_over_axes, np.sum, np.ones((2, 3)), [0, 1])
    >>> y, unthunk(pullback(np.ones((1, 1)))[2])
    (array([[6.]]), array([[1., 1., 1.],
           [1., 1., 1.]]))
    """
    return _apply_over_axes_rrule(_reverse_via(config), func, a, axes)


@rrule.register(np.apply_over_axes, object, np.ndarray, object)
def apply_over_axes_rrule(func: Any, a: np.ndarray, axes: Any) -> Any:
    """Reverse rule of ``np.apply_over_axes`` from chainrules' rule of ``func`` (``None`` if it has none).

    Examples
    --------
    >>> from chainrules import rrule, unthunk
    >>> y, pullback = rrule(np.apply_over_axes, np.cumsum, np.ones((2, 2)), 1)
    >>> unthunk(pullback(np.ones((2, 2)))[2])
    array([[2., 1.],
           [2., 1.]])
    """
    return _apply_over_axes_rrule(rrule, func, a, axes)


@frule.register(np.apply_over_axes, object, np.ndarray, object, config=HasForwardsMode)
def apply_over_axes_frule_via_ad(config: Any, tangents: Any, func: Any, a: np.ndarray, axes: Any) -> Any:
    """Forward rule of ``np.apply_over_axes`` for an AD: ``frule_via_ad`` on each ``func(a, axis)``.

    Examples
    --------
    >>> from chainrules import RuleConfig, HasForwardsMode, frule, NoTangent
    >>> class RulesAD(RuleConfig, HasForwardsMode):
    ...     def frule_via_ad(self, tangents, f, *args, **kwargs):
    ...         return frule(tangents, f, *args, **kwargs)
    >>> frule(RulesAD(), (NoTangent(), NoTangent(), np.ones((2, 2)), NoTangent()),
    ...       np.apply_over_axes, np.sum, np.ones((2, 2)), 0)[1]
    array([[2., 2.]])
    """
    return _apply_over_axes_frule(_forward_via(config), tangents, func, a, axes)


@frule.register(np.apply_over_axes, object, np.ndarray, object)
def apply_over_axes_frule(tangents: Any, func: Any, a: np.ndarray, axes: Any) -> Any:
    """Forward rule of ``np.apply_over_axes`` from chainrules' frule of ``func`` (``None`` if it has none).

    Examples
    --------
    >>> from chainrules import frule, NoTangent
    >>> frule((NoTangent(), NoTangent(), np.ones((2, 2)), NoTangent()), np.apply_over_axes, np.sum,
    ...       np.ones((2, 2)), (0, 1))[1]
    array([[4.]])
    """
    return _apply_over_axes_frule(frule, tangents, func, a, axes)


@sample_inputs(np.apply_over_axes)
def _apply_over_axes_samples(rng: np.random.Generator) -> Iterator[Sample]:
    x = normal(rng, 2, 3, 2)
    yield from with_dtypes(Sample(np.sum, x, [0, 2], label="two axes"))
    yield Sample(np.mean, x, 1, config=RulesOnlyConfig(), label="one axis, through a config")
    yield Sample(np.cumsum, x, (-1,), label="a function keeping the axis")


# ---- piecewise ----------------------------------------------------------------------------------------------
def _piecewise_conditions(x: np.ndarray, condlist: Any, n_funcs: int) -> np.ndarray:
    """NumPy's normalisation of ``condlist``: a boolean array, one row per function."""
    if np.isscalar(condlist) or (not isinstance(condlist[0], (list, np.ndarray)) and x.ndim != 0):
        condlist = [condlist]
    conds = np.asarray(condlist, dtype=bool)
    if len(conds) == n_funcs - 1:
        conds = np.concatenate([conds, ~np.any(conds, axis=0, keepdims=True)], axis=0)
    elif len(conds) != n_funcs:
        raise ValueError(f"with {len(conds)} condition(s), either {len(conds)} or {len(conds) + 1} functions are "
                         "expected")
    return conds


def _funclist_cotangent(funclist: Any, parts: list[Any]) -> Any:
    if all(isinstance(p, NoTangent) for p in parts):
        return NoTangent()
    return Tangent(type(funclist), *parts)


def _piecewise_rrule(rule: ReverseRule, x: np.ndarray, condlist: Any, funclist: Any, args: tuple[Any, ...],
                     kwargs: dict[str, Any]) -> Any:
    conds = _piecewise_conditions(x, condlist, len(funclist))
    y = np.zeros_like(x)
    owner = np.full(x.shape, -1)
    calls: list[Any] = []
    for k, (cond, func) in enumerate(zip(conds, funclist)):
        if not callable(func):
            y[cond] = func
            owner[cond] = k
            calls.append(None)
            continue
        vals = x[cond]
        if vals.size == 0:
            calls.append(None)
            continue
        out = rule(func, vals, *args, **kwargs)
        if out is None:
            return None
        res, pullback = out
        y[cond] = res
        owner[cond] = k
        calls.append((pullback, np.shape(res)))
    project_x = cotangent_projector(x)

    def piecewise_pullback(dy: Any) -> tuple[Any, ...]:
        dy = read_cotangent(dy, y, "np.piecewise")
        if passes_through(dy):
            if isinstance(dy, NotImplementedTangent):
                return NoTangent(), dy, NoTangent(), dy, *(dy for _ in args)
            constants = [NoTangent() if callable(f) else cotangent_projector(f)(ZeroTangent()) for f in funclist]
            return (NoTangent(), project_x(ZeroTangent()), NoTangent(), _funclist_cotangent(funclist, constants),
                    *(_Sum().result(a) for a in args))
        dx: Any = None
        parts: list[Any] = []
        arg_accs = [_Sum() for _ in args]
        for k, (cond, func, call) in enumerate(zip(conds, funclist, calls)):
            mine = np.where(owner[cond] == k, dy[cond], 0)
            if not callable(func):
                parts.append(cotangent_projector(func)(unbroadcast(mine, np.shape(func))))
                continue
            if call is None:
                parts.append(NoTangent())
                continue
            pullback, shape = call
            cotangents = pullback(unbroadcast(mine, shape) if shape != mine.shape else mine)
            func_acc = _Sum()
            func_acc.add(cotangents[0])
            parts.append(_function_tangent(func_acc))
            dvals = unthunk(cotangents[1])
            if isinstance(dvals, NotImplementedTangent):
                dx = dvals
            elif not isinstance(dvals, AbstractZero) and not isinstance(dx, NotImplementedTangent):
                if dx is None:
                    dx = np.zeros(x.shape, dtype=np.result_type(dvals, x.dtype))
                dx[cond] += dvals
            for acc, ct in zip(arg_accs, cotangents[2:]):
                acc.add(ct)
        if dx is None:
            dx = project_x(ZeroTangent())
        elif not isinstance(dx, NotImplementedTangent):
            dx = project_x(dx)
        return (NoTangent(), dx, NoTangent(), _funclist_cotangent(funclist, parts),
                *(acc.result(a) for acc, a in zip(arg_accs, args)))

    return y, piecewise_pullback


def _funclist_tangents(dfunclist: Any, n: int) -> list[Any]:
    dfunclist = unthunk(dfunclist)
    if isinstance(dfunclist, AbstractZero) or dfunclist is None:
        return [dfunclist if dfunclist is not None else NoTangent()] * n
    parts = backing(dfunclist) if isinstance(dfunclist, Tangent) else dfunclist
    return [unthunk(p) for p in parts]


def _piecewise_frule(rule: ForwardRule, tangents: Any, x: np.ndarray, condlist: Any, funclist: Any,
                     args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    conds = _piecewise_conditions(x, condlist, len(funclist))
    dx = dense_tangent(tangents[1], x)
    if isinstance(dx, NotImplementedTangent):
        return np.piecewise(x, condlist, funclist, *args, **kwargs), dx
    dfuncs = _funclist_tangents(tangents[3], len(funclist))
    dargs = list(tangents[4:]) + [ZeroTangent()] * (len(args) - len(tangents[4:]))
    y = np.zeros_like(x)
    dy: Any = None
    for cond, func, dfunc in zip(conds, funclist, dfuncs):
        if not callable(func):
            y[cond] = func
            piece: Any = dfunc
        else:
            vals = x[cond]
            if vals.size == 0:
                continue
            out = rule((dfunc, ZeroTangent() if dx is None else dx[cond], *dargs), func, vals, *args, **kwargs)
            if out is None:
                return None
            res, piece = out
            y[cond] = res
            piece = unthunk(piece)
        if isinstance(piece, NotImplementedTangent):
            return y, piece
        if isinstance(piece, AbstractZero):
            if dy is not None:
                dy[cond] = 0
            continue
        if dy is None:
            dy = np.zeros(x.shape, dtype=np.result_type(x.dtype, np.asarray(piece).dtype, np.float64))
        dy[cond] = piece
    if dy is None:
        return y, _zero_output_tangent(y)
    return y, ProjectTo(y)(dy)


@rrule.register(np.piecewise, np.ndarray, object, (list, tuple), config=HasReverseMode)
def piecewise_rrule_via_ad(config: Any, x: np.ndarray, condlist: Any, funclist: Any, *args: Any,
                           **kw: Any) -> Any:
    """Reverse rule of ``np.piecewise`` for an AD: ``rrule_via_ad`` on each piece ``func(x[cond], *args)``.

    Examples
    --------
    >>> from chainrules import RuleConfig, HasReverseMode, rrule, unthunk
    >>> class RulesAD(RuleConfig, HasReverseMode):
    ...     def rrule_via_ad(self, f, *args, **kwargs):
    ...         return rrule(f, *args, **kwargs)
    >>> x = np.array([-1.0, 2.0])
    >>> y, pullback = rrule(RulesAD(), np.piecewise, x, [x < 0, x >= 0], [np.negative, np.square])
    >>> y, unthunk(pullback(np.ones(2))[1])
    (array([1., 4.]), array([-1.,  4.]))
    """
    return _piecewise_rrule(_reverse_via(config), x, condlist, funclist, args, kw)


@rrule.register(np.piecewise, np.ndarray, object, (list, tuple))
def piecewise_rrule(x: np.ndarray, condlist: Any, funclist: Any, *args: Any, **kw: Any) -> Any:
    """Reverse rule of ``np.piecewise`` from chainrules' rules of the pieces (``None`` if one has none).

    Examples
    --------
    >>> from chainrules import rrule, unthunk
    >>> x = np.array([-1.0, 2.0])
    >>> y, pullback = rrule(np.piecewise, x, [x < 0], [np.sin, 0.5])    # 0.5 where x >= 0
    >>> [unthunk(c) for c in pullback(np.ones(2))[1:4:2]]
    [array([0.54030231, 0.        ]), Tangent(list, NoTangent(), 1.0)]
    """
    return _piecewise_rrule(rrule, x, condlist, funclist, args, kw)


@frule.register(np.piecewise, np.ndarray, object, (list, tuple), config=HasForwardsMode)
def piecewise_frule_via_ad(config: Any, tangents: Any, x: np.ndarray, condlist: Any, funclist: Any, *args: Any,
                           **kw: Any) -> Any:
    """Forward rule of ``np.piecewise`` for an AD: ``frule_via_ad`` on each piece.

    Examples
    --------
    >>> from chainrules import RuleConfig, HasForwardsMode, frule, NoTangent
    >>> class RulesAD(RuleConfig, HasForwardsMode):
    ...     def frule_via_ad(self, tangents, f, *args, **kwargs):
    ...         return frule(tangents, f, *args, **kwargs)
    >>> x = np.array([-1.0, 2.0])
    >>> frule(RulesAD(), (NoTangent(), np.ones(2), NoTangent(), NoTangent()), np.piecewise, x,
    ...       [x < 0, x >= 0], [np.negative, np.square])[1]
    array([-1.,  4.])
    """
    return _piecewise_frule(_forward_via(config), tangents, x, condlist, funclist, args, kw)


@frule.register(np.piecewise, np.ndarray, object, (list, tuple))
def piecewise_frule(tangents: Any, x: np.ndarray, condlist: Any, funclist: Any, *args: Any, **kw: Any) -> Any:
    """Forward rule of ``np.piecewise`` from chainrules' frules of the pieces (``None`` if one has none).

    Examples
    --------
    >>> from chainrules import frule, NoTangent
    >>> x = np.array([-1.0, 2.0])
    >>> frule((NoTangent(), np.ones(2), NoTangent(), NoTangent()), np.piecewise, x, [x < 0], [np.exp, 1.0])[1]
    array([0.36787944, 0.        ])
    """
    return _piecewise_frule(frule, tangents, x, condlist, funclist, args, kw)


@sample_inputs(np.piecewise)
def _piecewise_samples(rng: np.random.Generator) -> Iterator[Sample]:
    x = np.array([-1.5, -0.5, 0.25, 1.0, 2.0])
    pieces = [x < 0, x > 1.5]
    yield from with_dtypes(Sample(x, pieces, [np.negative, np.square], label="two functions, the rest 0"))
    yield Sample(x, pieces, [np.sin, 0.5, np.exp], label="a constant piece, an otherwise function")
    yield Sample(x, pieces, [np.multiply, np.add], 2.5, config=RulesOnlyConfig(), label="an extra argument, config")
    yield Sample(x, [x > 5], [np.sin], label="a condition that selects nothing")


# ---- fromfunction --------------------------------------------------------------------------------------------
def _holds_values(value: Any) -> bool:
    if isinstance(value, (bool, np.bool_, int, np.integer, str, bytes, type(None))):
        return False
    if isinstance(value, (float, complex, np.number, np.ndarray)):
        return True
    if isinstance(value, (list, tuple, dict)):
        items = value.values() if isinstance(value, dict) else value
        return any(_holds_values(v) for v in items)
    return False


def carries_no_values(f: Any) -> bool:
    """Whether the callable ``f`` visibly carries no numbers or arrays (so it has no tangent of its own).

    True for ufuncs, builtins, NumPy's functions, classes, and Python functions whose closure
    cells and default arguments hold no floats, complex numbers or arrays; False for anything
    else (closures over values, ``functools.partial`` objects, callable instances, bound methods).

    Examples
    --------
    >>> a = 2.0
    >>> carries_no_values(np.add), carries_no_values(lambda i, j: i + j), carries_no_values(lambda i: a * i)
    (True, True, True)
    >>> def scaled(a):
    ...     return lambda i: a * i
    >>> carries_no_values(scaled(2.0)), carries_no_values(scaled(2))
    (False, True)
    """
    if isinstance(f, (np.ufunc, types.BuiltinFunctionType, type)) or type(f).__name__ == "_ArrayFunctionDispatcher":
        return True
    if isinstance(f, types.FunctionType):
        cells = [c.cell_contents for c in (f.__closure__ or ()) if _cell_filled(c)]
        defaults = list(f.__defaults__ or ()) + list((f.__kwdefaults__ or {}).values())
        return not any(_holds_values(v) for v in cells + defaults)
    return False


def _cell_filled(cell: Any) -> bool:
    try:
        cell.cell_contents  # noqa: B018
    except ValueError:  # an empty cell
        return False
    return True


_CAPTURED = ("np.fromfunction: the function carries values (a closure, a functor, a partial) and has no chainrules "
             "rule; differentiate it with a config whose AD can (rrule_via_ad / frule_via_ad)")


def _grids(shape: Any, dtype: Any) -> np.ndarray:
    return np.indices(shape, dtype=dtype)


def _fromfunction_rrule(rule: ReverseRule | None, function: Any, shape: Any, dtype: Any,
                        kwargs: dict[str, Any]) -> Any:
    grids = _grids(shape, dtype)
    out = None if rule is None else rule(function, *grids, **kwargs)
    if out is None:
        y = function(*grids, **kwargs)
        dfunction = NoTangent() if carries_no_values(function) else not_implemented(_CAPTURED)

        def fromfunction_constant_pullback(dy: Any) -> tuple[Any, ...]:
            read_nested_cotangent(dy, y, "np.fromfunction")
            return NoTangent(), dfunction, NoTangent()

        return y, fromfunction_constant_pullback
    y, pullback = out

    def fromfunction_pullback(dy: Any) -> tuple[Any, ...]:
        dy = read_nested_cotangent(dy, y, "np.fromfunction")
        if isinstance(dy, AbstractZero):
            return NoTangent(), NoTangent() if carries_no_values(function) else ZeroTangent(), NoTangent()
        acc = _Sum()
        acc.add(pullback(dy)[0])
        return NoTangent(), _function_tangent(acc), NoTangent()

    return y, fromfunction_pullback


def _fromfunction_frule(rule: ForwardRule | None, tangents: Any, function: Any, shape: Any, dtype: Any,
                        kwargs: dict[str, Any]) -> Any:
    grids = _grids(shape, dtype)
    dfunction = unthunk(tangents[1]) if len(tangents) > 1 else NoTangent()
    constant = ZeroTangent() if np.dtype(grids.dtype).kind in "fc" else NoTangent()
    out = None if rule is None else rule((dfunction, *(constant for _ in grids)), function, *grids, **kwargs)
    if out is None:
        y = function(*grids, **kwargs)
        if isinstance(dfunction, AbstractZero):
            return y, _zero_output_tangent(y)
        return y, not_implemented(_CAPTURED)
    y, dy = out
    dy = unthunk(dy)
    if isinstance(dy, AbstractZero):
        return y, _zero_output_tangent(y)
    return y, dy


@rrule.register(np.fromfunction, object, object, config=HasReverseMode)
def fromfunction_rrule_via_ad(config: Any, function: Any, shape: Any, *, dtype: Any = float, like: Any = None,
                              **kwargs: Any) -> Any:
    """Reverse rule of ``np.fromfunction`` for an AD: the tangent of ``function``'s own values, by ``rrule_via_ad``.

    Examples
    --------
    >>> from chainrules import RuleConfig, HasReverseMode, rrule
    >>> class RulesAD(RuleConfig, HasReverseMode):
    ...     def rrule_via_ad(self, f, *args, **kwargs):
    ...         return rrule(f, *args, **kwargs)
    >>> y, pullback = rrule(RulesAD(), np.fromfunction, np.add, (2, 2))
    >>> pullback(np.ones((2, 2)))
    (NoTangent(), NoTangent(), NoTangent())
    """
    reject_keywords(np.fromfunction, {"like": like}, ("like",))
    return _fromfunction_rrule(_reverse_via(config), function, shape, dtype, kwargs)


@rrule.register(np.fromfunction, object, object)
def fromfunction_rrule(function: Any, shape: Any, *, dtype: Any = float, like: Any = None, **kwargs: Any) -> Any:
    """Reverse rule of ``np.fromfunction``: ``NoTangent()`` for a function that carries no values.

    A function with a chainrules rule gets the cotangent its rule reports; another function
    that carries values (a closure over numbers, a functor) gets ``not_implemented``.

    Examples
    --------
    >>> from chainrules import rrule
    >>> y, pullback = rrule(np.fromfunction, lambda i, j: i * j, (2, 2))
    >>> y, pullback(np.ones((2, 2)))
    (array([[0., 0.],
           [0., 1.]]), (NoTangent(), NoTangent(), NoTangent()))
    """
    reject_keywords(np.fromfunction, {"like": like}, ("like",))
    return _fromfunction_rrule(rrule, function, shape, dtype, kwargs)


@frule.register(np.fromfunction, object, object, config=HasForwardsMode)
def fromfunction_frule_via_ad(config: Any, tangents: Any, function: Any, shape: Any, *, dtype: Any = float,
                              like: Any = None, **kwargs: Any) -> Any:
    """Forward rule of ``np.fromfunction`` for an AD: pushes the tangent of ``function`` forward by ``frule_via_ad``.

    Examples
    --------
    >>> from chainrules import RuleConfig, HasForwardsMode, frule, NoTangent
    >>> class RulesAD(RuleConfig, HasForwardsMode):
    ...     def frule_via_ad(self, tangents, f, *args, **kwargs):
    ...         return frule(tangents, f, *args, **kwargs)
    >>> frule(RulesAD(), (NoTangent(), NoTangent(), NoTangent()), np.fromfunction, np.add, (2, 2))[1]
    ZeroTangent()
    """
    reject_keywords(np.fromfunction, {"like": like}, ("like",))
    return _fromfunction_frule(_forward_via(config), tangents, function, shape, dtype, kwargs)


@frule.register(np.fromfunction, object, object)
def fromfunction_frule(tangents: Any, function: Any, shape: Any, *, dtype: Any = float, like: Any = None,
                       **kwargs: Any) -> Any:
    """Forward rule of ``np.fromfunction``: a zero tangent unless ``function`` has a tangent of its own.

    Examples
    --------
    >>> from chainrules import frule, NoTangent
    >>> frule((NoTangent(), NoTangent(), NoTangent()), np.fromfunction, lambda i: i ** 2, (3,))
    (array([0., 1., 4.]), ZeroTangent())
    """
    reject_keywords(np.fromfunction, {"like": like}, ("like",))
    return _fromfunction_frule(frule, tangents, function, shape, dtype, kwargs)


@sample_inputs(np.fromfunction)
def _fromfunction_samples(rng: np.random.Generator) -> Iterator[Sample]:
    # The output depends on no differentiable argument of np.fromfunction: these samples check that the rules
    # say so (NoTangent for functions carrying no values) with the function's own rules and through a config.
    yield Sample(np.add, (2, 3), label="a ufunc with rules")
    yield Sample(np.hypot, (2, 2), config=RulesOnlyConfig(), label="through a config")
    yield Sample(np.multiply, (3, 2), fkwargs={"dtype": np.float32}, label="dtype by keyword")
