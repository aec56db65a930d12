"""Pearson's correlation, ``scipy.stats.pearsonr``: its statistic and its p-value, in ``x`` and ``y``.

The maths
---------
With the centred slices ``xm = x - mean x``, ``ym = y - mean y`` and their unit vectors
``u = xm / |xm|``, ``v = ym / |ym|``, ``r = <u, v>`` and (the centring is absorbed: ``u``
and ``v`` sum to zero)::

    dr/dx = (v - r u) / |xm|,    dr/dy = (u - r v) / |ym|.

SciPy clips ``r`` to ``[-1, 1]`` and rounds it for ``n = 2``; there ``v = +-u`` and the
derivative is 0. Under the null hypothesis ``r`` has the density
``f(r) = (1 - r^2)^(n/2 - 2) / B(1/2, n/2 - 1)`` (the Beta(n/2 - 1, n/2 - 1) law on
``[-1, 1]`` SciPy uses), so the p-value's derivative in ``r`` is ``-2 sign(r) f(|r|)``
(``alternative='two-sided'``), ``f(r)`` (``'less'``) or ``-f(r)`` (``'greater'``), with
``f`` evaluated in log space; for ``n = 2`` the p-value is the constant 1. A p-value from
a resampling ``method`` (permutation or Monte Carlo) is random, not a function of the
data: its cotangent is ``not_implemented``.

The output is a ``PearsonRResult``: its cotangent is a ``Tangent`` with the fields
``statistic`` and ``pvalue`` (or a tuple of the two).

Examples
--------
>>> import numpy as np, scipy.stats as st
>>> import chainrules
>>> from chainrules import rrule, unthunk, Tangent
>>> x, y = np.array([1.0, 2.0, 4.0]), np.array([1.0, 3.0, 2.0])
>>> res, pullback = rrule(st.pearsonr, x, y)
>>> dx = unthunk(pullback(Tangent(type(res), statistic=1.0))[1])
>>> bool(abs(dx.sum()) < 1e-15)  # shifting x does not change r
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import scipy.special as sc
import scipy.stats as st

from chainrules.rulesets.stats._slices import NO, argument_cotangent, fit_output, tangent_value, zero_like
from chainrules_core import (
    NotImplementedTangent,
    Sample,
    Tangent,
    Thunk,
    differentiable,
    frule,
    not_implemented,
    passes_through,
    read_cotangents,
    rrule,
    sample_inputs,
)

__all__ = ["pearsonr_frule", "pearsonr_rrule"]

_RESAMPLED = ("the p-value of a resampling method (PermutationMethod, MonteCarloMethod) is random, not a function "
              "of the data; use method=None for the p-value of the exact null distribution")


class _Pearson:
    """The correlation's partials on each slice (the reduced axis last)."""

    def __init__(self, x: Any, y: Any, axis: Any) -> None:
        xa, ya = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
        self.flat = axis is None
        if axis is None:
            xa, ya, axis = xa.reshape(-1), ya.reshape(-1), -1
        ndim = max(xa.ndim, ya.ndim)
        xa = xa.reshape((1,) * (ndim - xa.ndim) + xa.shape)
        ya = ya.reshape((1,) * (ndim - ya.ndim) + ya.shape)
        shape = np.broadcast_shapes(xa.shape, ya.shape)
        self.axis = int(axis)
        self.padded_shape = shape
        xm = np.moveaxis(np.broadcast_to(xa, shape), self.axis, -1)
        ym = np.moveaxis(np.broadcast_to(ya, shape), self.axis, -1)
        self.n = xm.shape[-1]
        xm = xm - np.mean(xm, axis=-1, keepdims=True)
        ym = ym - np.mean(ym, axis=-1, keepdims=True)
        self.nx = np.linalg.norm(xm, axis=-1, keepdims=True)
        self.ny = np.linalg.norm(ym, axis=-1, keepdims=True)
        with np.errstate(invalid="ignore", divide="ignore"):
            self.u, self.v = xm / self.nx, ym / self.ny
        self.r = np.clip(np.sum(self.u * self.v, axis=-1, keepdims=True), -1.0, 1.0)

    def dx(self) -> np.ndarray:
        if self.n == 2:  # SciPy rounds r to +-1: a constant
            return np.zeros_like(self.u)
        with np.errstate(invalid="ignore", divide="ignore"):
            return (self.v - self.r * self.u) / self.nx

    def dy(self) -> np.ndarray:
        if self.n == 2:
            return np.zeros_like(self.v)
        with np.errstate(invalid="ignore", divide="ignore"):
            return (self.u - self.r * self.v) / self.ny

    def back(self, g: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
        """A slice-layout array back to the layout of an argument of ``shape`` (summing broadcast axes)."""
        full = np.moveaxis(g, -1, self.axis)
        if self.flat:
            return full.reshape(shape)
        total = full
        target = (1,) * (full.ndim - len(shape)) + tuple(shape)
        axes = tuple(i for i, (a, b) in enumerate(zip(full.shape, target)) if b == 1 and a != 1)
        if axes:
            total = np.sum(total, axis=axes, keepdims=True)
        return total.reshape(shape)

    def take(self, dx: Any) -> np.ndarray:
        """A tangent of an argument in the slice layout (broadcast like the data)."""
        d = np.asarray(dx, dtype=np.float64)
        if self.flat:
            d = d.reshape(-1)
        d = d.reshape((1,) * (len(self.padded_shape) - d.ndim) + d.shape)
        return np.moveaxis(np.broadcast_to(d, self.padded_shape), self.axis, -1)

    def p_partial(self, alternative: str) -> np.ndarray:
        """``dp/dr`` for SciPy's exact null distribution (``batch + (1,)``)."""
        n = self.n
        if n == 2:
            return np.zeros_like(self.r)
        a = n / 2.0 - 1.0
        r = self.r
        with np.errstate(divide="ignore", invalid="ignore"):
            log_f = (a - 1.0) * np.log1p(-r * r) - sc.betaln(0.5, a)
            f = np.exp(log_f)
        if alternative == "less":
            return f
        if alternative == "greater":
            return -f
        return -2.0 * np.sign(r) * f


def pearsonr_rrule(x: Any, y: Any, /, **kwargs: Any) -> tuple[Any, Callable[[Any], tuple[Any, ...]]]:
    """Reverse rule of ``scipy.stats.pearsonr`` (see the module docstring)."""
    res = st.pearsonr(x, y, **kwargs)
    axis = kwargs.get("axis", 0)
    alternative = kwargs.get("alternative", "two-sided")
    resampled = kwargs.get("method") is not None
    diff_x, diff_y = differentiable(x), differentiable(y)

    def pearsonr_pullback(dres: Any) -> tuple[Any, Any, Any]:
        parts = read_cotangents(dres, res, st.pearsonr)
        if passes_through(parts):
            fill = [parts if isinstance(parts, NotImplementedTangent) else zero_like(v) for v in (x, y)]
            return NO, fill[0] if diff_x else NO, fill[1] if diff_y else NO
        d_stat, d_p = parts
        if d_p is not None and resampled:
            missing = not_implemented(_RESAMPLED)
            return NO, missing if diff_x else NO, missing if diff_y else NO
        p = _Pearson(x, y, axis)
        weight = np.zeros_like(p.r)
        if d_stat is not None:
            weight = weight + np.reshape(d_stat, p.r.shape)
        if d_p is not None:
            weight = weight + np.reshape(d_p, p.r.shape) * p.p_partial(alternative)

        def cot_x() -> Any:
            return argument_cotangent(x, p.back(p.dx() * weight, np.shape(x)))

        def cot_y() -> Any:
            return argument_cotangent(y, p.back(p.dy() * weight, np.shape(y)))

        several = diff_x and diff_y
        return (NO, (Thunk(cot_x) if several else cot_x()) if diff_x else NO,
                (Thunk(cot_y) if several else cot_y()) if diff_y else NO)

    return res, pearsonr_pullback


def pearsonr_frule(tangents: tuple[Any, ...], x: Any, y: Any, /, **kwargs: Any) -> tuple[Any, Any]:
    """Forward rule of ``scipy.stats.pearsonr``: a ``Tangent`` of the ``PearsonRResult``."""
    res = st.pearsonr(x, y, **kwargs)
    dx = tangent_value(tangents[1]) if differentiable(x) else None
    dy = tangent_value(tangents[2]) if differentiable(y) else None
    if dx is None and dy is None:
        return res, Tangent(type(res), statistic=fit_output(None, res.statistic), pvalue=fit_output(None, res.pvalue))
    for t in (dx, dy):
        if isinstance(t, NotImplementedTangent):
            return res, t
    p = _Pearson(x, y, kwargs.get("axis", 0))
    dr = np.zeros(p.r.shape)
    if dx is not None:
        dr = dr + np.sum(p.dx() * p.take(dx), axis=-1, keepdims=True)
    if dy is not None:
        dr = dr + np.sum(p.dy() * p.take(dy), axis=-1, keepdims=True)
    dp: Any = (not_implemented(_RESAMPLED) if kwargs.get("method") is not None
               else fit_output(dr * p.p_partial(kwargs.get("alternative", "two-sided")), res.pvalue))
    return res, Tangent(type(res), statistic=fit_output(dr, res.statistic), pvalue=dp)


rrule.register(st.pearsonr)(pearsonr_rrule)
frule.register(st.pearsonr)(pearsonr_frule)


@sample_inputs(st.pearsonr)
def _pearsonr_samples(rng: np.random.Generator) -> list[Sample]:
    x = rng.standard_normal(6)
    y = 0.6 * x + rng.standard_normal(6)
    xs, ys = rng.standard_normal((5, 3)), rng.standard_normal((5, 3))
    return [Sample(x, y), Sample(x, -y, fkwargs={"alternative": "less"}, label="alternative='less'"),
            Sample(x, y, fkwargs={"alternative": "greater"}, label="alternative='greater'"),
            Sample(xs, ys, label="columns (axis=0)"), Sample(xs, ys[:, :1], fkwargs={"axis": 0},
                                                            label="y broadcast against x"),
            Sample(xs.T, ys.T, fkwargs={"axis": 1}, label="rows (axis=1)"),
            Sample(xs, ys, fkwargs={"axis": None}, label="axis=None"),
            Sample(x.astype(np.float32), y.astype(np.float32), label="float32")]
