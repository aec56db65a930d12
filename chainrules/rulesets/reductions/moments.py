"""Variance and standard deviation: ``np.var``, ``np.std``, ``np.nanvar``, ``np.nanstd``.

Also the methods ``ndarray.var`` and ``ndarray.std``.

The maths
---------
With ``c`` the mean over the reduced axes and ``N`` the number of entries,
``var = sum(|x - c|^2) / (N - ddof)`` and ``std = sqrt(var)``. The output is real for
complex input too (NumPy's convention). The gradient of the real function ``var`` is
``2 (x - c) / (N - ddof)``: the term through ``c`` vanishes because ``sum(x - c) = 0``;
for complex ``x`` that is ``dvar/dRe(x) + 1j dvar/dIm(x)``, the library's convention. The
same formula holds when the caller passes NumPy 2's ``mean=`` keyword: ``c`` is then a
constant and differentiating ``sum(|x - c|^2)`` gives the same expression (so the
cotangent with respect to the given mean, which is never differentiated as a keyword, is
zero whenever it is the true mean). ``std`` divides by ``2 std``; where ``std == 0`` (all
entries of a slice equal) the derivative does not exist and the rule returns the zero
subgradient instead of NaN. A floating ``ddof`` passed by position is differentiated:
``dvar/dddof = var / (N - ddof)``; an integer ``ddof`` gets ``NoTangent()``. The variance
of an empty slice (or of an all-NaN slice, for ``nanvar``/``nanstd``) is NaN whatever
``ddof`` is: its tangent, its entries' cotangent and its derivative in ``ddof`` are zero (as
for ``np.mean``/``np.nanmean``). Where ``ddof`` equals the count of a non-empty slice the
output is NaN or infinite (NumPy warns) and so are the derivatives.

``correction=`` (the array-API spelling of ``ddof``) and ``mean=`` are supported as
keywords, ``where=`` masks entries (zero cotangent), ``nanvar``/``nanstd`` skip NaNs the
same way. ``dtype=`` is honoured (the cotangent keeps the input's precision), except a
real ``dtype`` for complex input, whose NumPy result mixes a real mean with complex
deviations: that combination raises :class:`~chainrules_core.UnsupportedKeywordError`, as
does ``out=``.

Examples
--------
>>> import numpy as np
>>> from chainrules import rrule, frule, NoTangent
>>> y, pb = rrule(np.var, np.array([1.0, 2.0, 6.0]))
>>> pb(1.0)[1]
array([-1.33333333, -0.66666667,  2.        ])
>>> y, pb = rrule(np.std, np.array([1.0, 3.0]))
>>> pb(1.0)[1]
array([-0.5,  0.5])
>>> y, pb = rrule(np.nanvar, np.array([1.0, np.nan, 3.0]))
>>> pb(1.0)[1]
array([-1.,  0.,  1.])
>>> frule((NoTangent(), np.array([-1.0, 5.0, 1.0])), np.nanstd, np.array([1.0, np.nan, 3.0]))
(np.float64(1.0), np.float64(1.0))
"""

from __future__ import annotations

import math
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
from chainrules.rulesets.reductions._tangent_values import output_tangent, passed_on, tangent_value
from chainrules.rulesets.reductions.sums import summation_mask
from chainrules_core import (
    NoTangent,
    NotImplementedTangent,
    Sample,
    Thunk,
    UnsupportedKeywordError,
    cotangent_projector,
    differentiable,
    passes_through,
    read_cotangent,
    sample_inputs,
)
from chainrules_core.rules import _callable_name

_NO = NoTangent()


class _Deviations:
    """The centred input ``x - c`` of a variance over ``axes`` and what its derivatives need."""

    __slots__ = ("axes", "centred", "count", "denominator", "empty", "mask", "shape")

    def __init__(self, a: Any, axis: Any, dtype: Any, ddof: Any, mask: np.ndarray | None, mean: Any) -> None:
        x = np.asarray(a)
        if dtype is not None and np.dtype(dtype).kind in "fc" and x.dtype.kind in "fc":
            x = x.astype(np.result_type(x.dtype, dtype), copy=False)
        self.shape = x.shape
        self.axes = reduced_axes(axis, x.ndim)
        self.mask = mask
        if mask is None:
            self.count: Any = math.prod(self.shape[i] for i in self.axes)
        else:
            self.count = np.sum(mask, axis=self.axes, keepdims=True)
        if mean is NOVALUE:
            where: dict[str, Any] = {} if mask is None else {"where": mask}
            with np.errstate(invalid="ignore", divide="ignore"):
                centre = np.sum(x, axis=self.axes, keepdims=True, **where) / self.count
        else:
            centre = np.reshape(mean, keepdims_shape(self.shape, self.axes))
        centred = x - centre
        if mask is not None:
            centred = np.where(mask, centred, np.zeros((), centred.dtype))
        self.centred = centred
        # N - ddof as an array of the real working precision: a zero denominator (ddof = N) gives
        # inf or NaN as NumPy's variance does, never a ZeroDivisionError.
        real = np.finfo(x.dtype).dtype if x.dtype.kind in "fc" else np.dtype(np.float64)
        self.denominator = np.asarray(np.subtract(self.count, ddof), dtype=real)
        self.empty = np.equal(self.count, 0)

    def zero_empty(self, values: Any) -> Any:
        """``values`` (reduced axes kept) with zeros for the empty slices.

        The variance of an empty slice is NaN (NumPy warns) whatever its (no) entries and
        ``ddof``: a constant, whose tangent is zero, as ``np.mean`` of an empty slice.
        """
        if np.any(self.empty):
            return np.where(self.empty, 0, values)
        return values

    def variance_cotangent(self, scale: np.ndarray) -> np.ndarray:
        """``dvar/dx`` times ``scale`` (real, reduced axes kept); for complex ``x`` the derivative
        is ``dvar/dRe(x) + 1j dvar/dIm(x)``. Overwrites the centred values (call once).

        An empty slice (all NaN for ``nanvar``) gives its entries zero, as its tangent is zero."""
        with np.errstate(invalid="ignore", divide="ignore"):
            factor = self.zero_empty(scale * (2 / self.denominator))
        out = self.centred
        if np.result_type(out, factor) == out.dtype:
            out *= factor
            return out
        return out * factor

    def variance_tangent(self, dx: Any) -> np.ndarray:
        """The pushforward of ``dx`` through ``var``, with the reduced axes kept."""
        products = (np.conj(self.centred) * dx).real
        if self.mask is not None:
            products = np.where(self.mask, products, 0)
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.sum(products, axis=self.axes, keepdims=True) * (2 / self.denominator)


def _std_factor(y: Any, kshape: tuple[int, ...]) -> np.ndarray:
    """``1 / (2 std)``, or ``0`` where ``std == 0`` (the zero subgradient), with the reduced axes kept."""
    std = np.reshape(y, kshape)
    safe = np.where(std == 0, 1, std)
    return np.where(std == 0, 0, 0.5 / safe)


def _check_dtype(f: Any, a: Any, dtype: Any) -> None:
    if dtype is not None and np.iscomplexobj(a) and np.dtype(dtype).kind != "c":
        raise UnsupportedKeywordError(f"{_callable_name(f)}: a real dtype= for complex input is not differentiable "
                                      "(NumPy mixes a real mean with complex deviations); call without it")


def _moment_rrule(f: Callable[..., Any], a: Any, axis: Any, dtype: Any, ddof: Any, keepdims: Any,
                  where: Any, mean: Any, correction: Any, *, skip_nan: bool,
                  root: bool) -> tuple[Any, Callable[[Any], tuple[Any, Any]]]:
    _check_dtype(f, a, dtype)
    y = f(a, axis, dtype, None, ddof, **given(keepdims=keepdims, where=where, mean=mean, correction=correction))
    project_a = cotangent_projector(a)
    project_ddof = cotangent_projector(ddof)
    effective_ddof = ddof if correction is NOVALUE else correction

    def moment_pullback(dy: Any) -> tuple[Any, Any]:
        dy = read_cotangent(dy, y, f)
        if passes_through(dy):
            zero = passed_on(dy)
            return project_a(zero), project_ddof(zero)
        deviations = _Deviations(a, axis, dtype, effective_ddof, summation_mask(a, where, skip_nan), mean)
        kshape = keepdims_shape(deviations.shape, deviations.axes)
        dy_k = np.reshape(np.real(dy), kshape)
        scale = dy_k * _std_factor(y, kshape) if root else dy_k
        da = project_a(deviations.variance_cotangent(scale)) if differentiable(a) else _NO

        def moment_ddof() -> Any:
            # dvar/dddof = var / (N - ddof); dstd/dddof = std / (2 (N - ddof))
            with np.errstate(invalid="ignore", divide="ignore"):
                partial = deviations.zero_empty(np.reshape(y, kshape) / deviations.denominator)
            return project_ddof(np.sum(partial * (0.5 * dy_k if root else dy_k)))

        return da, Thunk(moment_ddof) if differentiable(ddof) else _NO

    return y, moment_pullback


def _moment_frule(f: Callable[..., Any], tangents: tuple[Any, ...], a: Any, axis: Any, dtype: Any, ddof: Any,
                  keepdims: Any, where: Any, mean: Any, correction: Any, *, skip_nan: bool,
                  root: bool) -> tuple[Any, Any]:
    _check_dtype(f, a, dtype)
    y = f(a, axis, dtype, None, ddof, **given(keepdims=keepdims, where=where, mean=mean, correction=correction))
    da = tangent_value(tangents[1]) if differentiable(a) else None
    dddof = tangent_value(tangents[5]) if differentiable(ddof) else None
    for t in (da, dddof):
        if isinstance(t, NotImplementedTangent):
            return y, t
    if da is None and dddof is None:
        return y, output_tangent(None, y)
    effective_ddof = ddof if correction is NOVALUE else correction
    deviations = _Deviations(a, axis, dtype, effective_ddof, summation_mask(a, where, skip_nan), mean)
    kshape = keepdims_shape(deviations.shape, deviations.axes)
    dvar: Any = 0
    if da is not None:
        dvar = deviations.variance_tangent(np.asarray(da))
    if dddof is not None:
        variance = np.reshape(y, kshape) ** 2 if root else np.reshape(y, kshape)
        with np.errstate(invalid="ignore", divide="ignore"):
            dvar = dvar + variance / deviations.denominator * dddof
    dy = deviations.zero_empty(dvar * _std_factor(y, kshape) if root else dvar)
    return y, output_tangent(np.reshape(dy, np.shape(y)), y)


def _register_moment(f: Callable[..., Any], short: str, *, skip_nan: bool,
                     root: bool) -> tuple[Callable[..., Any], Callable[..., Any]]:
    """Register the rules of ``f(a, axis, dtype, out, ddof, keepdims, *, where, mean, correction)``."""
    def moment_rrule(a: Any, axis: Any = None, dtype: Any = None, out: Any = None, ddof: Any = 0,
                     keepdims: Any = NOVALUE, *, where: Any = NOVALUE, mean: Any = NOVALUE,
                     correction: Any = NOVALUE) -> tuple[Any, Callable[[Any], tuple[Any, ...]]]:
        reject_out(f, out)
        y, cotangents = _moment_rrule(f, a, axis, dtype, ddof, keepdims, where, mean, correction,
                                      skip_nan=skip_nan, root=root)

        def moment_pullback(dy: Any) -> tuple[Any, ...]:
            da, dddof = cotangents(dy)
            return _NO, da, _NO, _NO, _NO, dddof, _NO

        return y, name_pullback(moment_pullback, short)

    def moment_frule(tangents: tuple[Any, ...], a: Any, axis: Any = None, dtype: Any = None, out: Any = None,
                     ddof: Any = 0, keepdims: Any = NOVALUE, *, where: Any = NOVALUE, mean: Any = NOVALUE,
                     correction: Any = NOVALUE) -> tuple[Any, Any]:
        reject_out(f, out)
        return _moment_frule(f, tangents, a, axis, dtype, ddof, keepdims, where, mean, correction,
                             skip_nan=skip_nan, root=root)

    return register_rules(f, short, moment_rrule, moment_frule)


var_rrule, var_frule = _register_moment(np.var, "var", skip_nan=False, root=False)
std_rrule, std_frule = _register_moment(np.std, "std", skip_nan=False, root=True)
nanvar_rrule, nanvar_frule = _register_moment(np.nanvar, "nanvar", skip_nan=True, root=False)
nanstd_rrule, nanstd_frule = _register_moment(np.nanstd, "nanstd", skip_nan=True, root=True)


register_method(np.ndarray.var, np.var, ("axis", "dtype", "out", "ddof"), ("keepdims", "where", "mean"))
register_method(np.ndarray.std, np.std, ("axis", "dtype", "out", "ddof"), ("keepdims", "where", "mean"))


# ---- sample inputs ----------------------------------------------------------------------------------
@sample_inputs(np.var, np.std, np.nanvar, np.nanstd)
def _moment_samples(rng: np.random.Generator) -> list[Sample]:
    x = sample_array((2, 3, 2), rng)
    y = sample_array((3, 4), rng)
    return [*axis_samples(x, before_keepdims=(None, None, 1), rng=rng, scalars=False),
            Sample(y, 1, None, None, 1, label="integer ddof by position"),
            Sample(y, 1, None, None, 0.5, label="floating ddof by position (differentiated)"),
            Sample(y, fkwargs={"axis": 0, "ddof": 1}, label="ddof by keyword"),
            Sample(y, fkwargs={"axis": 1, "correction": 1.5}, label="correction= (the array API's ddof)"),
            Sample(y, fkwargs={"axis": 1, "where": y > -1.0}, label="where= mask"),
            Sample(y.astype(np.float32), None, np.float64, label="dtype by position (float32 input)"),
            Sample(np.array([[1.5, 1.5, 1.5], [0.5, -1.0, 2.0]]), 1, label="a constant slice (std: zero subgradient)")]


@sample_inputs(np.var, np.std)
def _mean_keyword_samples(rng: np.random.Generator) -> list[Sample]:
    y = sample_array((3, 4), rng)
    return [Sample(y, fkwargs={"axis": 1, "mean": np.mean(y, axis=1, keepdims=True)},
                   label="mean= (NumPy 2, not differentiated)")]


@sample_inputs(np.nanvar, np.nanstd)
def _nan_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(np.array([[1.5, np.nan, 0.5, -1.0], [-0.5, 2.0, np.nan, 0.7]]), 1, label="NaN entries are skipped")]


@sample_inputs(np.ndarray.var, np.ndarray.std)
def _method_samples(rng: np.random.Generator) -> list[Sample]:
    y = sample_array((3, 4), rng)
    return [Sample(y), Sample(y, 1, None, None, 1, label="axis and ddof by position"),
            Sample(y.astype(np.float32), fkwargs={"axis": 0, "keepdims": True}, label="float32, keywords")]
