"""Extrema: ``np.max``/``np.amax``, ``np.min``/``np.amin``, ``np.nanmax``, ``np.nanmin``, ``np.ptp``.

Also the methods ``ndarray.max`` and ``ndarray.min``.

The subgradient convention: ties share equally
----------------------------------------------
``max`` is differentiable wherever one entry of each slice is strictly largest; there the
cotangent goes to that entry. Where several entries tie for the maximum, the rules of this
module **split the cotangent equally among all tied entries** (and, with ``initial=``,
``initial`` counts as one more candidate when it ties). The pushforward is the matching
linear map: the mean of the tied entries' tangents. This is the minimum-norm subgradient;
it does not depend on the order of the entries and is what JAX and PyTorch's ``amax`` do.
(ChainRules.jl gives everything to the first maximal element instead.) ``min``,
``nanmax``, ``nanmin`` and the two halves of ``ptp`` follow the same convention; the
order statistics (``median``, ``quantile``) share a tied value's weight the same way, so
``np.quantile(x, 1.0)`` and ``np.max(x)`` have the same cotangent.

NaN
---
``max``/``min`` propagate NaN: a slice containing NaN has output NaN and its cotangent goes
to its NaN entries (split equally), the entries the output came from. ``nanmax``/``nanmin``
ignore NaN entries (zero cotangent); an all-NaN slice (NumPy warns and returns NaN) gives
its entries a zero cotangent.

Keywords: ``axis`` (int, tuple, ``None``, negative), ``keepdims``, ``initial`` (by position
it is differentiated), ``where``; ``out=`` raises
:class:`~chainrules_core.UnsupportedKeywordError`. Complex input (ordered
lexicographically by NumPy) is accepted: the output equals one of the entries, whose
cotangent it receives.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from chainrules.rulesets.reductions._axes import keepdims_shape, reduced_axes
from chainrules.rulesets.reductions._reduction_samples import axis_samples, sample_array
from chainrules.rulesets.reductions._registration import (
    NOVALUE,
    given,
    name_pullback,
    register_method,
    register_rules,
    reject_out,
)
from chainrules.rulesets.reductions._tangent_values import output_tangent, passed_on, tangent_value, to_tangent_dtype
from chainrules_core import (
    NUMERIC,
    NoTangent,
    NotImplementedTangent,
    Sample,
    Thunk,
    cotangent_projector,
    differentiable,
    frule,
    passes_through,
    read_cotangent,
    rrule,
    sample_inputs,
)

_NO = NoTangent()


class Extremum:
    """Which entries a max or min over ``axes`` came from, and their equal shares.

    Parameters
    ----------
    a : array_like
        The input.
    axis : int, tuple of int or None
        The reduced axes.
    y : array_like
        The output of the reduction.
    initial : scalar or NumPy's no-value
        The ``initial=`` candidate, if given.
    where : array_like of bool or NumPy's no-value
        The ``where=`` mask, if given.
    skip_nan : bool
        ``True`` for ``nanmax``/``nanmin`` (NaN entries never win); ``False`` for
        ``max``/``min``, where NaN entries win (the output is NaN).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.reductions.extrema import Extremum
    >>> x = np.array([1.0, 3.0, 3.0])
    >>> Extremum(x, None, np.max(x), np._NoValue, np._NoValue, skip_nan=False).shares()
    array([0. , 0.5, 0.5])
    """

    __slots__ = ("axes", "count", "hit", "initial_hit", "shape")

    def __init__(self, a: Any, axis: Any, y: Any, initial: Any, where: Any, *, skip_nan: bool) -> None:
        x = np.asarray(a)
        self.shape = x.shape
        self.axes = reduced_axes(axis, x.ndim)
        y_k = np.reshape(y, keepdims_shape(self.shape, self.axes))
        hit = x == y_k
        if not skip_nan and x.dtype.kind in "fc" and np.isnan(y_k).any():
            hit = hit | (np.isnan(x) & np.isnan(y_k))
        if where is not NOVALUE:
            hit = hit & np.asarray(where, dtype=bool)
        self.hit = np.broadcast_to(hit, self.shape)
        count = np.sum(self.hit, axis=self.axes, keepdims=True)
        self.initial_hit: Any = None
        if initial is not NOVALUE:
            self.initial_hit = np.broadcast_to(np.asarray(initial) == y_k, y_k.shape)
            count = count + self.initial_hit
        self.count = np.maximum(count, 1)  # no winner: an all-NaN slice of nanmax (zero cotangent)

    def shares(self) -> np.ndarray:
        """The share of each entry in the output: ``1 / ties`` for the winners, else ``0``."""
        return np.where(self.hit, 1.0 / self.count, 0.0)

    def cotangent(self, dy: np.ndarray, like: Any) -> np.ndarray:
        """Each winner gets ``dy / ties`` of its slice, the other entries zero (dtype of ``like``)."""
        dy_k = to_tangent_dtype(np.reshape(dy, self.count.shape), like) / self.count
        return np.where(self.hit, dy_k, np.zeros((), dy_k.dtype))

    def initial_cotangent(self, dy: np.ndarray) -> Any:
        """The cotangent of ``initial``: its share of every slice where it ties for the extremum."""
        return np.sum(np.where(self.initial_hit, np.reshape(dy, self.count.shape) / self.count, 0))

    def tangent(self, dx: Any, dinitial: Any) -> Any:
        """The pushforward: the mean of the winners' tangents in each slice (reduced axes kept)."""
        total: Any = 0
        if dx is not None:
            total = np.sum(np.where(self.hit, dx, 0), axis=self.axes, keepdims=True)
        if dinitial is not None and self.initial_hit is not None:
            total = total + np.where(self.initial_hit, dinitial, 0)
        return total / self.count


def _extremum_rrule(f: Callable[..., Any], a: Any, axis: Any, keepdims: Any, initial: Any, where: Any,
                    *, skip_nan: bool) -> tuple[Any, Callable[[Any], tuple[Any, Any]]]:
    y = f(a, axis, **given(keepdims=keepdims, initial=initial, where=where))
    project_a = cotangent_projector(a)
    project_initial = cotangent_projector(initial) if initial is not NOVALUE else None

    def extremum_pullback(dy: Any) -> tuple[Any, Any]:
        dy = read_cotangent(dy, y, f)
        if passes_through(dy):
            zero = passed_on(dy)
            return project_a(zero), project_initial(zero) if project_initial else _NO
        winners = Extremum(a, axis, y, initial, where, skip_nan=skip_nan)
        da = project_a(winners.cotangent(dy, a)) if differentiable(a) else _NO
        dinitial: Any = _NO
        if project_initial is not None:
            dinitial = Thunk(lambda: project_initial(winners.initial_cotangent(dy)))
        return da, dinitial

    return y, extremum_pullback


def _extremum_frule(f: Callable[..., Any], tangents: tuple[Any, ...], a: Any, axis: Any, keepdims: Any, initial: Any,
                    where: Any, initial_slot: int, *, skip_nan: bool) -> tuple[Any, Any]:
    y = f(a, axis, **given(keepdims=keepdims, initial=initial, where=where))
    da = tangent_value(tangents[1]) if differentiable(a) else None
    dinitial = tangent_value(tangents[initial_slot]) if initial is not NOVALUE else None
    for t in (da, dinitial):
        if isinstance(t, NotImplementedTangent):
            return y, t
    if da is None and dinitial is None:
        return y, output_tangent(None, y)
    winners = Extremum(a, axis, y, initial, where, skip_nan=skip_nan)
    return y, output_tangent(np.reshape(winners.tangent(da, dinitial), np.shape(y)), y)


def _register_extremum(f: Callable[..., Any], name: str, skip_nan: bool) -> None:
    """Register the frule and rrule of one of ``max``, ``amax``, ``min``, ``amin``, ``nanmax``, ``nanmin``."""
    short = name.removeprefix("np.")

    def extremum_rrule(a: Any, axis: Any = None, out: Any = None, keepdims: Any = NOVALUE, initial: Any = NOVALUE,
                       where: Any = NOVALUE) -> tuple[Any, Callable[[Any], tuple[Any, ...]]]:
        reject_out(f, out)
        y, cotangents = _extremum_rrule(f, a, axis, keepdims, initial, where, skip_nan=skip_nan)

        def extremum_pullback(dy: Any) -> tuple[Any, ...]:
            da, dinitial = cotangents(dy)
            return _NO, da, _NO, _NO, _NO, dinitial, _NO

        return y, name_pullback(extremum_pullback, short)

    def extremum_frule(tangents: tuple[Any, ...], a: Any, axis: Any = None, out: Any = None, keepdims: Any = NOVALUE,
                       initial: Any = NOVALUE, where: Any = NOVALUE) -> tuple[Any, Any]:
        reject_out(f, out)
        return _extremum_frule(f, tangents, a, axis, keepdims, initial, where, 5, skip_nan=skip_nan)

    register_rules(f, short, extremum_rrule, extremum_frule)


_register_extremum(np.max, "np.max", skip_nan=False)
_register_extremum(np.amax, "np.amax", skip_nan=False)
_register_extremum(np.min, "np.min", skip_nan=False)
_register_extremum(np.amin, "np.amin", skip_nan=False)
_register_extremum(np.nanmax, "np.nanmax", skip_nan=True)
_register_extremum(np.nanmin, "np.nanmin", skip_nan=True)


register_method(np.ndarray.max, np.max, ("axis", "out"), ("keepdims", "initial", "where"))
register_method(np.ndarray.min, np.min, ("axis", "out"), ("keepdims", "initial", "where"))


# ---- np.ptp -------------------------------------------------------------------------------------
@rrule.register(np.ptp, NUMERIC)
def ptp_rrule(a: Any, axis: Any = None, out: Any = None,
              keepdims: Any = NOVALUE) -> tuple[Any, Callable[[Any], tuple[Any, ...]]]:
    """Reverse rule of ``np.ptp`` (``max - min``; ties share equally, as for ``max``/``min``).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> y, pb = rrule(np.ptp, np.array([2.0, 5.0, 1.0]))
    >>> pb(1.0)[1]
    array([ 0.,  1., -1.])
    """
    reject_out(np.ptp, out)
    kwargs = given(keepdims=keepdims)
    y = np.ptp(a, axis, **kwargs)
    project_a = cotangent_projector(a)

    def ptp_pullback(dy: Any) -> tuple[Any, ...]:
        dy = read_cotangent(dy, y, np.ptp)
        if passes_through(dy) or not differentiable(a):
            return _NO, project_a(passed_on(dy)), _NO, _NO, _NO
        top = Extremum(a, axis, np.max(a, axis, **kwargs), NOVALUE, NOVALUE, skip_nan=False)
        bottom = Extremum(a, axis, np.min(a, axis, **kwargs), NOVALUE, NOVALUE, skip_nan=False)
        return _NO, project_a(top.cotangent(dy, a) - bottom.cotangent(dy, a)), _NO, _NO, _NO

    return y, ptp_pullback


@frule.register(np.ptp, NUMERIC)
def ptp_frule(tangents: tuple[Any, ...], a: Any, axis: Any = None, out: Any = None,
              keepdims: Any = NOVALUE) -> tuple[Any, Any]:
    """Forward rule of ``np.ptp``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> frule((NoTangent(), np.array([1.0, 3.0, 0.0])), np.ptp, np.array([2.0, 5.0, 1.0]))
    (np.float64(4.0), np.float64(3.0))
    """
    reject_out(np.ptp, out)
    kwargs = given(keepdims=keepdims)
    y = np.ptp(a, axis, **kwargs)
    da = tangent_value(tangents[1]) if differentiable(a) else None
    if da is None or isinstance(da, NotImplementedTangent):
        return y, da if da is not None else output_tangent(None, y)
    top = Extremum(a, axis, np.max(a, axis, **kwargs), NOVALUE, NOVALUE, skip_nan=False)
    bottom = Extremum(a, axis, np.min(a, axis, **kwargs), NOVALUE, NOVALUE, skip_nan=False)
    return y, output_tangent(np.reshape(top.tangent(da, None) - bottom.tangent(da, None), np.shape(y)), y)


# ---- sample inputs ----------------------------------------------------------------------------------
_TIES = np.array([[1.5, -0.5, 1.5, 0.2], [0.3, -1.0, 0.3, -1.0], [2.0, -2.0, 0.1, 0.4]])
"""Rows with a tie for the maximum, ties for both extrema, and none: ties share the cotangent equally.

Two-way ties only: there the central finite differences, ``(max(d) + min(d)) / 2`` of the tied
tangents, are their mean, the rules' equal split; at a three-way tie they are not the mean
(no finite differences single out a subgradient), so the unit tests pin that convention."""


@sample_inputs(np.max, np.amax, np.min, np.amin, np.nanmax, np.nanmin)
def _extremum_samples(rng: np.random.Generator) -> list[Sample]:
    y = sample_array((2, 3), rng)
    return [*axis_samples(sample_array((2, 3, 2), rng), before_keepdims=(None,), rng=rng, empty=False),
            Sample(_TIES, 1, label="ties in a slice"), Sample(_TIES, label="ties, all axes"),
            Sample(y, 1, None, False, 0.25, label="initial by position (differentiated)"),
            Sample(np.array([[0.25, -1.0], [0.5, 0.0]]), 1, None, False, 0.25, label="initial ties with an entry"),
            Sample(y, fkwargs={"axis": 0, "initial": -5.0, "where": y > -1.0}, label="where= with initial="),
            Sample(np.zeros((2, 0)), 0, label="an empty output")]


@sample_inputs(np.nanmax, np.nanmin)
def _nan_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(np.array([[1.5, np.nan, 0.5], [-0.5, 2.0, np.nan]]), 1, label="NaN entries are skipped")]


@sample_inputs(np.ndarray.max, np.ndarray.min)
def _method_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(_TIES), Sample(_TIES, 1, label="axis by position"),
            Sample(_TIES.astype(np.float32), fkwargs={"axis": 0, "keepdims": True}, label="float32, keywords")]


@sample_inputs(np.ptp)
def _ptp_samples(rng: np.random.Generator) -> list[Sample]:
    return [*axis_samples(sample_array((2, 3, 2), rng), before_keepdims=(None,), rng=rng, empty=False),
            Sample(_TIES, 1, label="ties in a slice")]
