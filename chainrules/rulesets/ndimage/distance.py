"""Euclidean distance transforms of ``scipy.ndimage``: ``distance_transform_edt`` and
``distance_transform_bf`` (metric ``'euclidean'``), with respect to ``sampling``.

The maths
---------
The distance of an entry ``i`` to its nearest background entry ``b(i)`` is
``d(i) = sqrt(sum_k (s_k (i_k - b_k(i)))^2)`` with the sampling ``s`` (the spacing along each
axis). Wherever the nearest background entry does not change (no tie between two of them),

    ``dd(i)/ds_k = s_k (i_k - b_k(i))^2 / d(i)``

(0 for the background itself, ``d = 0``), and for one ``sampling`` for every axis,
``dd/ds = d / s``. SciPy returns ``b`` with ``return_indices=True``; the rules ask for it.

The input is read as a binary image (its nonzero entries are the foreground): the distances
are piecewise constant in its values, and their derivative is zero where it exists (a
floating input gets ``ZeroTangent()``; where an entry is exactly 0 the transform jumps). The
indices SciPy can return are integers, and the ``'taxicab'`` and ``'chessboard'`` metrics of
``distance_transform_bf`` and ``distance_transform_cdt`` return integer distances: no
derivative (``distance_transform_cdt`` is declared in :mod:`chainrules.rulesets.ndimage.non_differentiable`). The
``distances``/``indices`` output arrays are written in place and refused.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.ndimage as ndi

from chainrules.rulesets.arrays._linear_maps import read_nested_cotangent
from chainrules.rulesets.contractions._multilinear import lazy_cotangent
from chainrules.rulesets.ndimage._rules import output_tangent, tangent_array, tangent_value
from chainrules.rulesets.ndimage.smoothing import per_axis
from chainrules.rulesets.reductions._registration import name_pullback
from chainrules_core import (
    AbstractZero,
    NoTangent,
    NotImplementedTangent,
    Sample,
    Tangent,
    UnsupportedKeywordError,
    ZeroTangent,
    cotangent_projector,
    frule,
    rrule,
    sample_inputs,
)

__all__: list[str] = []


def _refuse_outputs(f: Any, distances: Any, indices: Any) -> None:
    if distances is not None or indices is not None:
        raise UnsupportedKeywordError(f"scipy.ndimage.{f.__name__}: distances= and indices= are written in place, "
                                      "which is not differentiable; use the returned arrays")


class _Distances:
    """The distances of one call and their derivative in each axis's sampling."""

    def __init__(self, f: Any, input: Any, sampling: Any, metric: Any) -> None:
        x = np.asarray(input)
        self.ndim = x.ndim
        self.euclidean = metric == "euclidean"
        self.sampling = sampling
        self.scalar = sampling is None or not np.iterable(sampling)
        self.partials: list[np.ndarray] = []
        if not self.euclidean or sampling is None:
            return
        args = (x, metric) if f is ndi.distance_transform_bf else (x,)
        distance, nearest = f(*args, sampling=sampling, return_distances=True, return_indices=True)
        spacing = np.asarray(per_axis(sampling, x.ndim), dtype=np.float64)
        grid = np.indices(x.shape)
        safe = np.where(distance == 0, 1.0, distance)
        for k in range(x.ndim):
            offset = (grid[k] - nearest[k]).astype(np.float64)
            self.partials.append(np.where(distance == 0, 0.0, spacing[k] * offset * offset / safe))

    def cotangent(self, dd: np.ndarray) -> Any:
        values = np.array([float(np.sum(p * dd)) for p in self.partials])
        return values.sum() if self.scalar else values

    def tangent(self, ds: Any) -> np.ndarray:
        steps = per_axis(float(ds) if self.scalar else ds, self.ndim)
        total = np.zeros(self.partials[0].shape)
        for p, step in zip(self.partials, steps):
            total = total + p * float(step)
        return total


def _rules(f: Any, input: Any, metric: Any, sampling: Any, return_distances: Any, return_indices: Any,
           distances: Any, indices: Any) -> tuple[Any, _Distances]:
    _refuse_outputs(f, distances, indices)
    args = (input, metric) if f is ndi.distance_transform_bf else (input,)
    y = f(*args, sampling=sampling, return_distances=return_distances, return_indices=return_indices)
    return y, _Distances(f, input, sampling, metric)


def _distance_part(y: Any, return_distances: Any, return_indices: Any) -> Any:
    """The distances in the output (``None`` when only indices are returned)."""
    if not return_distances:
        return None
    return y[0] if return_indices else y


def _pullback(f: Any, y: Any, stats: _Distances, values: tuple[Any, ...], sampling_position: int,
              return_distances: Any, return_indices: Any) -> Any:
    project_input = cotangent_projector(values[0])
    project_sampling = cotangent_projector(values[sampling_position])
    n = len(values)

    def pullback(dy: Any) -> tuple[Any, ...]:
        read = read_nested_cotangent(dy, y, f"scipy.ndimage.{f.__name__}")
        out: list[Any] = [NoTangent()] * (n + 1)
        if isinstance(read, NotImplementedTangent):
            out[1], out[sampling_position + 1] = project_input(read), project_sampling(read)
            return tuple(out)
        part = read[0] if (return_distances and return_indices) else read if return_distances else ZeroTangent()
        out[1] = project_input(ZeroTangent())  # piecewise constant in the input's values
        if isinstance(part, AbstractZero) or not stats.partials:
            out[sampling_position + 1] = project_sampling(ZeroTangent())
        else:
            out[sampling_position + 1] = lazy_cotangent(project_sampling, lambda: stats.cotangent(np.asarray(part)))
        return tuple(out)

    return name_pullback(pullback, f.__name__)


def _tangent(y: Any, stats: _Distances, dsampling: Any, return_distances: Any, return_indices: Any) -> Any:
    distance = _distance_part(y, return_distances, return_indices)
    if isinstance(dsampling, NotImplementedTangent):
        return dsampling
    dd = None if (dsampling is None or distance is None or not stats.partials) else stats.tangent(dsampling)
    if distance is None:
        return NoTangent()
    if return_indices:
        return Tangent(tuple, output_tangent(dd, distance), NoTangent())
    return output_tangent(dd, distance)


def _sampling_tangent(tangent: Any, sampling: Any) -> Any:
    if sampling is not None and np.iterable(sampling):
        return tangent_array(tangent, sampling)
    return tangent_value(tangent)


@rrule.register(ndi.distance_transform_edt)
def distance_transform_edt_rrule(input: Any, sampling: Any = None, return_distances: Any = True,
                                 return_indices: Any = False, distances: Any = None, indices: Any = None) -> Any:
    """Reverse rule of ``scipy.ndimage.distance_transform_edt``: ``sampling`` (the input: zero).

    Examples
    --------
    >>> from chainrules import unthunk
    >>> y, pullback = rrule(ndi.distance_transform_edt, np.array([0, 1, 1]), [2.0])
    >>> y, unthunk(pullback(np.array([0.0, 1.0, 1.0]))[2])       # d = 2 |i - 0|: dd/ds = |i|
    (array([0., 2., 4.]), Tangent(list, 3.0))
    """
    y, stats = _rules(ndi.distance_transform_edt, input, "euclidean", sampling, return_distances, return_indices,
                      distances, indices)
    values = (input, sampling, return_distances, return_indices, distances, indices)
    return y, _pullback(ndi.distance_transform_edt, y, stats, values, 1, return_distances, return_indices)


@frule.register(ndi.distance_transform_edt)
def distance_transform_edt_frule(tangents: Any, input: Any, sampling: Any = None, return_distances: Any = True,
                                 return_indices: Any = False, distances: Any = None, indices: Any = None) -> Any:
    """Forward rule of ``scipy.ndimage.distance_transform_edt``: ``sum_k dd/ds_k ds_k``.

    Examples
    --------
    >>> from chainrules import NoTangent
    >>> frule((NoTangent(), NoTangent(), 1.0), ndi.distance_transform_edt, np.array([0, 1, 1]), 2.0)[1]
    array([0., 1., 2.])
    """
    y, stats = _rules(ndi.distance_transform_edt, input, "euclidean", sampling, return_distances, return_indices,
                      distances, indices)
    return y, _tangent(y, stats, _sampling_tangent(tangents[2], sampling), return_distances, return_indices)


@rrule.register(ndi.distance_transform_bf)
def distance_transform_bf_rrule(input: Any, metric: Any = "euclidean", sampling: Any = None,
                                return_distances: Any = True, return_indices: Any = False, distances: Any = None,
                                indices: Any = None) -> Any:
    """Reverse rule of ``scipy.ndimage.distance_transform_bf``: ``sampling``, for the Euclidean metric.

    Examples
    --------
    >>> from chainrules import unthunk
    >>> y, pullback = rrule(ndi.distance_transform_bf, np.array([[0, 1]]), "euclidean", 3.0)
    >>> unthunk(pullback(np.ones((1, 2)))[3])
    1.0
    """
    y, stats = _rules(ndi.distance_transform_bf, input, metric, sampling, return_distances, return_indices,
                      distances, indices)
    values = (input, metric, sampling, return_distances, return_indices, distances, indices)
    return y, _pullback(ndi.distance_transform_bf, y, stats, values, 2, return_distances, return_indices)


@frule.register(ndi.distance_transform_bf)
def distance_transform_bf_frule(tangents: Any, input: Any, metric: Any = "euclidean", sampling: Any = None,
                                return_distances: Any = True, return_indices: Any = False, distances: Any = None,
                                indices: Any = None) -> Any:
    """Forward rule of ``scipy.ndimage.distance_transform_bf``: ``sum_k dd/ds_k ds_k`` (Euclidean).

    Examples
    --------
    >>> from chainrules import NoTangent
    >>> frule((NoTangent(), NoTangent(), NoTangent(), 1.0), ndi.distance_transform_bf, np.array([0, 1]),
    ...       "euclidean", 3.0)[1]
    array([0., 1.])
    """
    y, stats = _rules(ndi.distance_transform_bf, input, metric, sampling, return_distances, return_indices,
                      distances, indices)
    return y, _tangent(y, stats, _sampling_tangent(tangents[3], sampling), return_distances, return_indices)


# ---- sample inputs ----------------------------------------------------------------------------------
_IMAGE = np.array([[0, 1, 1, 1, 0], [0, 1, 1, 1, 1], [1, 1, 1, 0, 1], [1, 1, 1, 1, 1]], dtype=bool)
"""A binary image whose foreground entries each have one nearest background entry."""


@sample_inputs(ndi.distance_transform_edt)
def _edt_samples() -> list[Sample]:
    return [Sample(_IMAGE, [1.5, 0.7], label="a sampling per axis"), Sample(_IMAGE, 1.3, label="one sampling"),
            Sample(_IMAGE, label="no sampling"), Sample(_IMAGE.astype(int), [0.8, 1.1], True, True,
                                                        label="distances and indices, an integer image"),
            Sample(_IMAGE, fkwargs={"sampling": [1.2, 0.9], "return_indices": True}, label="options by keyword"),
            Sample(_IMAGE, [1.5, 0.7], False, True, label="only indices (no derivative)")]


@sample_inputs(ndi.distance_transform_bf)
def _bf_samples() -> list[Sample]:
    return [Sample(_IMAGE, "euclidean", [1.5, 0.7], label="Euclidean, a sampling per axis"),
            Sample(_IMAGE, "euclidean", 1.3, True, True, label="Euclidean, distances and indices"),
            Sample(_IMAGE, fkwargs={"metric": "euclidean", "sampling": [0.6, 1.4]}, label="options by keyword"),
            Sample(_IMAGE, "taxicab", [1.5, 0.7], label="taxicab (integer distances: no derivative)")]
