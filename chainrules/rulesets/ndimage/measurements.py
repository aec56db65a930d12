"""Labelled measurements of ``scipy.ndimage``: ``sum_labels`` (and ``sum``), ``mean``, ``variance``,
``standard_deviation``, ``center_of_mass``, ``maximum``, ``minimum``, ``median`` and ``extrema``,
with respect to the input.

The maths
---------
Each output ``k`` reads a group ``G_k`` of the input's entries (the input broadcast with
``labels``): every entry (no ``labels``), the entries with a positive label (no ``index``),
or the entries labelled ``index[k]``. With ``n = |G|``, ``S = sum_G x`` and ``m = S / n``:

* ``sum = S``: each entry of ``G`` gets the output cotangent;
* ``mean = m``: ``dy / n``;
* ``variance = sum_G |x - m|^2 / n``: ``2 (x - m) Re(dy) / n`` (the mean's own derivative
  cancels: ``sum_G (x - m) = 0``); SciPy returns a complex dtype for a complex input, whose
  imaginary part is zero;
* ``standard_deviation = sqrt(variance)``: the variance's, times ``1 / (2 std)``, and zero
  where ``std == 0`` (all entries equal: no derivative, the zero subgradient, as ``np.std``);
* ``center_of_mass``: ``c_d = sum_G x p_d / S`` (``p`` the entries' indices), so
  ``dc_d/dx = (p_d - c_d) / S``;
* ``maximum``, ``minimum`` (and the values of ``extrema``): the selected entry (at ties, the
  first in C order); ``median``: the middle entry of the sorted group, or the mean of the two
  middle ones for an even count (``np.median``), each getting half.

An index with no entries gives SciPy's NaN (or 0 for a sum) and no cotangent. ``labels``,
``index`` and the positions ``extrema`` returns are integers (or labels): not differentiated.
A cotangent of the broadcast input is summed back to the input's shape.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.ndimage as ndi

from chainrules.rulesets.arrays._linear_maps import read_nested_cotangent
from chainrules.rulesets.contractions._multilinear import lazy_cotangent
from chainrules.rulesets.ndimage._rules import output_tangent, tangent_array
from chainrules.rulesets.reductions._registration import name_pullback
from chainrules_core import (
    AbstractZero,
    NoTangent,
    NotImplementedTangent,
    Sample,
    Tangent,
    ZeroTangent,
    cotangent_projector,
    frule,
    passes_through,
    read_cotangent,
    rrule,
    sample_inputs,
    unbroadcast,
)

__all__ = ["Groups"]


class Groups:
    """The group of input entries each output of a labelled measurement reads.

    ``member`` is the group of each entry of the broadcast input (``-1``: none), ``chosen``
    the group of each output (``-1``: an index no entry carries), of the output's shape.

    Examples
    --------
    >>> g = Groups(np.arange(4.0), np.array([1, 2, 2, 0]), [2, 5])
    >>> g.member, g.chosen, g.counts
    (array([1, 2, 2, 0]), array([ 2, -1]), array([1, 1, 2]))
    """

    def __init__(self, input: Any, labels: Any, index: Any) -> None:
        x = np.asarray(input)
        self.input_shape = x.shape
        if labels is None:
            self.x = x
            self.member = np.zeros(x.shape, dtype=np.int64)
            self.chosen = np.zeros((), dtype=np.int64)
            self.n_groups = 1
        else:
            self.x, lab = np.broadcast_arrays(x, np.asarray(labels))
            if index is None or np.isscalar(index):
                inside = lab > 0 if index is None else lab == index
                self.member = np.where(inside, 0, -1)
                self.chosen = np.zeros((), dtype=np.int64)
                self.n_groups = 1
            else:
                unique, inverse = np.unique(lab, return_inverse=True)
                self.member = inverse.reshape(lab.shape)
                wanted = np.asarray(index)
                if unique.size:
                    at = np.clip(np.searchsorted(unique, wanted), 0, unique.size - 1)
                    self.chosen = np.where(unique[at] == wanted, at, -1)
                else:
                    self.chosen = np.full(wanted.shape, -1)
                self.n_groups = unique.size
        inside = self.member >= 0
        self.counts = np.bincount(self.member[inside], minlength=self.n_groups)

    def group_sums(self, values: np.ndarray) -> np.ndarray:
        """``sum_G values`` for every group (complex values too)."""
        inside = self.member >= 0
        v = np.broadcast_to(values, self.member.shape)[inside]
        if np.iscomplexobj(v):
            return (np.bincount(self.member[inside], v.real, self.n_groups)
                    + 1j * np.bincount(self.member[inside], v.imag, self.n_groups))
        return np.bincount(self.member[inside], v, self.n_groups)

    def per_group(self, dy: Any) -> np.ndarray:
        """The output cotangents added up per group (an output whose index is absent adds nothing)."""
        dy = np.asarray(dy)
        found = self.chosen >= 0
        target = self.chosen[found]
        values = np.broadcast_to(dy, self.chosen.shape)[found]
        out = np.zeros(self.n_groups, dtype=np.result_type(dy.dtype, np.float64))
        np.add.at(out, target, values)
        return out

    def spread(self, per_group: np.ndarray) -> np.ndarray:
        """A value per group onto the group's entries (zero outside every group), on the broadcast input."""
        out = np.where(self.member >= 0, per_group[np.maximum(self.member, 0)], 0)
        return np.asarray(out)

    def gather(self, per_group: np.ndarray) -> np.ndarray:
        """A value per group at each output (0 for an absent index)."""
        return np.where(self.chosen >= 0, per_group[np.maximum(self.chosen, 0)], 0)

    def to_input(self, dx_broadcast: np.ndarray) -> np.ndarray:
        """A cotangent of the broadcast input summed back to the input's shape."""
        return np.asarray(unbroadcast(dx_broadcast, self.input_shape))


def _safe_divide(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.where(b == 0, 0, a / np.where(b == 0, 1, b))


# ---- the statistics: cotangents and tangents by group -------------------------------------------------
class _Moments:
    """Sum, mean, variance and standard deviation of each group, with their derivatives."""

    def __init__(self, groups: Groups, kind: str, y: Any) -> None:
        self.groups, self.kind = groups, kind
        n = groups.counts.astype(np.float64)
        self.n = n
        sums = groups.group_sums(groups.x)
        self.mean = _safe_divide(sums, n)
        if kind in ("variance", "standard_deviation"):
            self.centred = groups.x - groups.spread(self.mean)
            variance = _safe_divide(groups.group_sums(np.abs(self.centred) ** 2), n)
            std = np.sqrt(variance)
            self.root = np.where(std == 0, 0, 0.5 / np.where(std == 0, 1, std)) if kind == "standard_deviation" else 1

    def _weights(self, per_group: np.ndarray) -> np.ndarray:
        """What each entry's derivative is multiplied by, as a value per group."""
        if self.kind == "sum":
            return per_group
        scale = _safe_divide(per_group, self.n)
        if self.kind == "mean":
            return scale
        return 2 * scale * self.root

    def cotangent(self, dy: Any) -> np.ndarray:
        g = self.groups
        if self.kind in ("variance", "standard_deviation"):
            dy = np.real(np.asarray(dy))
        weights = g.spread(self._weights(g.per_group(dy)))
        if self.kind in ("variance", "standard_deviation"):
            weights = weights * self.centred
        return g.to_input(weights)

    def tangent(self, dx: np.ndarray) -> np.ndarray:
        g = self.groups
        dxb = np.broadcast_to(dx, g.member.shape)
        if self.kind in ("variance", "standard_deviation"):
            per = g.group_sums(np.real(np.conj(self.centred) * dxb))
            return g.gather(_safe_divide(2 * per, self.n) * (self.root if np.ndim(self.root) else 1))
        per = g.group_sums(dxb)
        return g.gather(per if self.kind == "sum" else _safe_divide(per, self.n))


class _Selected:
    """The entry (or two, for an even median) each group's maximum, minimum or median reads."""

    def __init__(self, groups: Groups, kind: str) -> None:
        self.groups = groups
        x = groups.x.reshape(-1)
        member = groups.member.reshape(-1)
        position = np.arange(x.size)
        key = -x if kind == "max" else x
        order = np.lexsort((position, key, member))  # by group, then value, first position first
        order = order[member[order] >= 0]
        sorted_member = member[order]
        starts = np.searchsorted(sorted_member, np.arange(groups.n_groups))
        counts = groups.counts
        self.first = np.full(groups.n_groups, -1)
        self.second = np.full(groups.n_groups, -1)
        has = counts > 0
        if kind in ("max", "min"):
            self.first[has] = order[starts[has]]
        else:
            lower = starts + (counts - 1) // 2
            upper = starts + counts // 2
            self.first[has] = order[lower[has]]
            self.second[has] = np.where(counts[has] % 2 == 0, order[upper[has]], -1)

    def cotangent(self, dy: Any) -> np.ndarray:
        g = self.groups
        per = g.per_group(dy)
        out = np.zeros(g.member.size, dtype=per.dtype)
        halves = np.where(self.second >= 0, 0.5, 1.0)
        for picks in (self.first, self.second):
            ok = picks >= 0
            np.add.at(out, picks[ok], (per * halves)[ok])
        return g.to_input(out.reshape(g.member.shape))

    def tangent(self, dx: np.ndarray) -> np.ndarray:
        g = self.groups
        flat = np.broadcast_to(dx, g.member.shape).reshape(-1)
        value = np.where(self.first >= 0, flat[np.maximum(self.first, 0)], 0.0)
        value = np.where(self.second >= 0, 0.5 * (value + flat[np.maximum(self.second, 0)]), value)
        return g.gather(value)


def _value_rules(f: Any, kind: str) -> None:
    """Register the rules of a measurement returning one value per group."""
    name = f.__name__

    def build(input: Any, labels: Any, index: Any) -> Any:
        groups = Groups(input, labels, index)
        if kind in ("max", "min", "median"):
            return _Selected(groups, kind)
        return _Moments(groups, kind, None)

    def measurement_rrule(input: Any, labels: Any = None, index: Any = None) -> Any:
        y = f(input, labels, index)
        stat = build(input, labels, index)
        project_input = cotangent_projector(input)

        def pullback(dy: Any) -> tuple[Any, ...]:
            dy = read_cotangent(dy, y, f)
            if passes_through(dy):
                return NoTangent(), project_input(dy if isinstance(dy, NotImplementedTangent) else ZeroTangent()), \
                    NoTangent(), NoTangent()
            return (NoTangent(), lazy_cotangent(project_input, lambda: stat.cotangent(dy)), NoTangent(), NoTangent())

        return y, name_pullback(pullback, name)

    def measurement_frule(tangents: Any, input: Any, labels: Any = None, index: Any = None) -> Any:
        y = f(input, labels, index)
        dx = tangent_array(tangents[1], input)
        if dx is None or isinstance(dx, NotImplementedTangent):
            return y, output_tangent(dx, y)
        return y, output_tangent(build(input, labels, index).tangent(dx), y)

    measurement_rrule.__name__ = measurement_rrule.__qualname__ = f"{name}_rrule"
    measurement_frule.__name__ = measurement_frule.__qualname__ = f"{name}_frule"
    measurement_rrule.__doc__ = f"Reverse rule of ``scipy.ndimage.{name}``, with respect to the input."
    measurement_frule.__doc__ = f"Forward rule of ``scipy.ndimage.{name}``, with respect to the input."
    rrule.register(f)(measurement_rrule)
    frule.register(f)(measurement_frule)


for _f, _kind in [(ndi.sum_labels, "sum"), (ndi.sum, "sum"), (ndi.mean, "mean"), (ndi.variance, "variance"),
                  (ndi.standard_deviation, "standard_deviation"), (ndi.maximum, "max"), (ndi.minimum, "min"),
                  (ndi.median, "median")]:
    _value_rules(_f, _kind)


# ---- center_of_mass ----------------------------------------------------------------------------------
class _CenterOfMass:
    """The centre of mass of each group, in the coordinates of the input's own axes (SciPy's grid is
    the input's, broadcast with ``labels`` after)."""

    def __init__(self, groups: Groups, ndim: int) -> None:
        self.groups, self.ndim = groups, ndim
        grids = [np.broadcast_to(g, groups.member.shape) for g in np.indices(groups.input_shape, dtype=np.float64)]
        self.grids = grids
        self.total = groups.group_sums(groups.x)
        self.centre = [_safe_divide(groups.group_sums(groups.x * grids[d]), self.total) for d in range(ndim)]

    def cotangent(self, parts: list[Any]) -> np.ndarray:
        """``parts[d]``: the cotangent of coordinate ``d`` at each output (an array of the outputs' shape)."""
        g = self.groups
        out: Any = 0.0
        for d, part in enumerate(parts):
            if part is None:
                continue
            per = g.per_group(part)
            coefficient = np.conj(_safe_divide(np.ones(g.n_groups), self.total))
            out = out + g.spread(per * coefficient) * (self.grids[d] - g.spread(np.conj(self.centre[d])))
        return g.to_input(np.broadcast_to(out, g.member.shape).copy())

    def tangent(self, dx: np.ndarray) -> list[np.ndarray]:
        g = self.groups
        dxb = np.broadcast_to(dx, g.member.shape)
        out = []
        for d in range(self.ndim):
            per = g.group_sums(dxb * (self.grids[d] - g.spread(self.centre[d])))
            out.append(g.gather(_safe_divide(per, self.total)))
        return out


def _coordinate_parts(dy: Any, y: Any, ndim: int, scalar: bool) -> list[Any]:
    """The cotangent of each coordinate as an array of the outputs' shape (``None`` for a zero)."""
    read = read_nested_cotangent(dy, y, "scipy.ndimage.center_of_mass")
    if scalar:
        entries = [read]
    else:
        entries = read if isinstance(read, list) else [read] * len(y)
    parts: list[Any] = []
    for d in range(ndim):
        values = []
        for entry in entries:
            v = ZeroTangent() if isinstance(entry, AbstractZero) else entry[d]
            values.append(0.0 if isinstance(v, AbstractZero) else v)
        column = np.asarray(values)
        parts.append(column[0] if scalar else column)
    return parts


@rrule.register(ndi.center_of_mass)
def center_of_mass_rrule(input: Any, labels: Any = None, index: Any = None) -> Any:
    """Reverse rule of ``scipy.ndimage.center_of_mass``, with respect to the input.

    Examples
    --------
    >>> from chainrules import unthunk
    >>> y, pullback = rrule(ndi.center_of_mass, np.array([1.0, 3.0]))
    >>> y, unthunk(pullback((1.0,))[1])                 # c = 3 / 4: dc/dx = (p - c) / S
    ((np.float64(0.75),), array([-0.1875,  0.0625]))
    """
    y = ndi.center_of_mass(input, labels, index)
    groups = Groups(input, labels, index)
    ndim = len(groups.input_shape)
    com = _CenterOfMass(groups, ndim)
    scalar = isinstance(y, tuple)
    project_input = cotangent_projector(input)

    def center_of_mass_pullback(dy: Any) -> tuple[Any, ...]:
        read = read_nested_cotangent(dy, y, "scipy.ndimage.center_of_mass")
        if isinstance(read, (AbstractZero, NotImplementedTangent)):
            zero = read if isinstance(read, NotImplementedTangent) else ZeroTangent()
            return NoTangent(), project_input(zero), NoTangent(), NoTangent()
        parts = _coordinate_parts(dy, y, ndim, scalar)
        return NoTangent(), lazy_cotangent(project_input, lambda: com.cotangent(parts)), NoTangent(), NoTangent()

    return y, center_of_mass_pullback


@frule.register(ndi.center_of_mass)
def center_of_mass_frule(tangents: Any, input: Any, labels: Any = None, index: Any = None) -> Any:
    """Forward rule of ``scipy.ndimage.center_of_mass``: ``sum_G dx (p - c) / S`` per coordinate.

    Examples
    --------
    >>> from chainrules import NoTangent
    >>> frule((NoTangent(), np.array([0.0, 1.0])), ndi.center_of_mass, np.array([1.0, 3.0]))[1]
    Tangent(tuple, np.float64(0.0625))
    """
    y = ndi.center_of_mass(input, labels, index)
    dx = tangent_array(tangents[1], input)
    if dx is None or isinstance(dx, NotImplementedTangent):
        return y, ZeroTangent() if dx is None else dx
    groups = Groups(input, labels, index)
    columns = _CenterOfMass(groups, len(groups.input_shape)).tangent(dx)
    if isinstance(y, tuple):
        return y, Tangent(tuple, *(output_tangent(c, yk) for c, yk in zip(columns, y)))
    rows = [Tangent(tuple, *(output_tangent(c[k], yk) for c, yk in zip(columns, point))) for k, point in enumerate(y)]
    return y, Tangent(list, *rows)


# ---- extrema --------------------------------------------------------------------------------------------
@rrule.register(ndi.extrema)
def extrema_rrule(input: Any, labels: Any = None, index: Any = None) -> Any:
    """Reverse rule of ``scipy.ndimage.extrema``: the minima and maxima (their positions are integers).

    Examples
    --------
    >>> from chainrules import Tangent, unthunk
    >>> y, pullback = rrule(ndi.extrema, np.array([2.0, 0.5, 3.0]))
    >>> unthunk(pullback(Tangent(tuple, 1.0, 10.0, None, None))[1])
    array([ 0.,  1., 10.])
    """
    y = ndi.extrema(input, labels, index)
    groups = Groups(input, labels, index)
    low, high = _Selected(groups, "min"), _Selected(groups, "max")
    project_input = cotangent_projector(input)

    def extrema_pullback(dy: Any) -> tuple[Any, ...]:
        read = read_nested_cotangent(_without_positions(dy), y[:2] + (0, 0), "scipy.ndimage.extrema")
        if isinstance(read, (AbstractZero, NotImplementedTangent)):
            zero = read if isinstance(read, NotImplementedTangent) else ZeroTangent()
            return NoTangent(), project_input(zero), NoTangent(), NoTangent()
        dmin, dmax = read[0], read[1]

        def total() -> Any:
            out: Any = 0.0
            if not isinstance(dmin, AbstractZero):
                out = out + low.cotangent(dmin)
            if not isinstance(dmax, AbstractZero):
                out = out + high.cotangent(dmax)
            return np.broadcast_to(out, groups.input_shape).copy()

        return NoTangent(), lazy_cotangent(project_input, total), NoTangent(), NoTangent()

    return y, extrema_pullback


def _without_positions(dy: Any) -> Any:
    """The output cotangent with its position parts (integers: no tangent) read as zeros."""
    from chainrules_core import backing, unthunk

    dy = unthunk(dy)
    parts = backing(dy) if isinstance(dy, Tangent) else dy
    if isinstance(parts, (tuple, list)) and len(parts) == 4:
        return (parts[0], parts[1], ZeroTangent(), ZeroTangent())
    return dy


@frule.register(ndi.extrema)
def extrema_frule(tangents: Any, input: Any, labels: Any = None, index: Any = None) -> Any:
    """Forward rule of ``scipy.ndimage.extrema``: the tangents at the minima and maxima.

    Examples
    --------
    >>> from chainrules import NoTangent
    >>> frule((NoTangent(), np.array([1.0, 2.0, 3.0])), ndi.extrema, np.array([2.0, 0.5, 3.0]))[1]
    Tangent(tuple, np.float64(2.0), np.float64(3.0), NoTangent(), NoTangent())
    """
    y = ndi.extrema(input, labels, index)
    dx = tangent_array(tangents[1], input)
    if dx is None or isinstance(dx, NotImplementedTangent):
        return y, ZeroTangent() if dx is None else dx
    groups = Groups(input, labels, index)
    dmin, dmax = _Selected(groups, "min").tangent(dx), _Selected(groups, "max").tangent(dx)
    return y, Tangent(tuple, output_tangent(dmin, y[0]), output_tangent(dmax, y[1]), NoTangent(), NoTangent())


# ---- sample inputs ----------------------------------------------------------------------------------
_LABELS = np.array([[1, 1, 2, 0], [2, 2, 0, 3], [3, 1, 1, 2]])


def _label_samples(rng: np.random.Generator, broadcast: bool = True) -> list[Sample]:
    x = rng.permutation(12).reshape(3, 4) + 0.3 * rng.random((3, 4))
    out = [Sample(x, label="no labels"), Sample(x, _LABELS, label="positive labels"),
           Sample(x, _LABELS, 2, label="one index"), Sample(x, _LABELS, [3, 1, 2], label="an index list"),
           Sample(x, _LABELS, np.array([[2, 3], [1, 1]]), label="an index array (a repeated label)"),
           Sample(x, fkwargs={"labels": _LABELS, "index": [1, 3]}, label="labels and index by keyword"),
           Sample(x.astype(np.float32), _LABELS, [1, 2], label="float32")]
    if broadcast:  # (SciPy's extrema fails on a broadcast input)
        out.append(Sample(x[0], _LABELS, [1, 2], label="an input broadcast against the labels"))
    return out


def _absent(rng: np.random.Generator) -> Sample:
    """An index no entry carries: a sum of nothing (0), a maximum SciPy reports as 0."""
    x = rng.permutation(12).reshape(3, 4) + 0.3 * rng.random((3, 4))
    return Sample(x, _LABELS, [2, 7], label="an absent label")


def _complex(rng: np.random.Generator) -> Sample:
    """Complex input (SciPy's bincount takes no complex weights: one index, not a list)."""
    return Sample(rng.standard_normal((3, 4)) + 1j * rng.standard_normal((3, 4)), _LABELS, 2, label="complex")


@sample_inputs(ndi.sum_labels, ndi.sum)
def _sum_samples(rng: np.random.Generator) -> list[Sample]:
    return [*_label_samples(rng), _absent(rng), _complex(rng)]


@sample_inputs(ndi.mean, ndi.variance, ndi.standard_deviation)
def _moment_samples(rng: np.random.Generator) -> list[Sample]:
    return [*_label_samples(rng), _complex(rng)]


@sample_inputs(ndi.maximum, ndi.minimum)
def _extremum_samples(rng: np.random.Generator) -> list[Sample]:
    return [*_label_samples(rng), _absent(rng)]


@sample_inputs(ndi.median)
def _median_samples(rng: np.random.Generator) -> list[Sample]:
    return _label_samples(rng)


@sample_inputs(ndi.extrema)
def _extrema_samples(rng: np.random.Generator) -> list[Sample]:
    return [*_label_samples(rng, broadcast=False), _absent(rng)]


@sample_inputs(ndi.center_of_mass)
def _center_of_mass_samples(rng: np.random.Generator) -> list[Sample]:
    return [s for s in _label_samples(rng) if s.label != "an index array (a repeated label)"]
