"""``scipy.ndimage`` minimum, maximum, rank, median and percentile filters: with respect to the input
and ``cval`` (the selected element's; see :mod:`._selection`).

The maths
---------
Each output entry is one entry of its window of the extended input: the derivative sends the
output cotangent to the input sample that entry copies (through the boundary mode), or to
``cval`` when it is ``constant`` padding. Where entries of a window tie the filter has no
derivative; the rules pick the first footprint element in C order (for the minimum and
maximum this is the element SciPy's own loop keeps, and the result is a subgradient), so
the cotangent goes to one of the tied entries, never split. The percentile and the rank are
piecewise constant in ``percentile``: its derivative is zero. ``size``, ``rank``, ``axis``/``axes``,
``origin``, ``mode`` and ``output`` (``None`` or a dtype) are not differentiated; a floating
``footprint`` is read as booleans, with a zero derivative.

SciPy computes ``maximum_filter(x, size=...)`` (and an all-true footprint) as a minimum or
maximum along one axis after another; the box's minimum or maximum is the same entry, so
the rules treat every footprint alike.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np
import scipy.ndimage as ndi
from numpy.lib.array_utils import normalize_axis_index

from chainrules.rulesets.ndimage._boundary import check_output
from chainrules.rulesets.ndimage._rules import make_pullback, output_tangent, tangent_array, tangent_value
from chainrules.rulesets.ndimage._samples import modes_samples
from chainrules.rulesets.ndimage._selection import Selection
from chainrules.rulesets.ndimage.correlation import normalize_axes
from chainrules.rulesets.ndimage.smoothing import per_axis
from chainrules_core import NotImplementedTangent, Sample, ZeroTangent, frule, rrule, sample_inputs

__all__ = ["min_max_geometry", "rank_geometry", "selection_pullback", "selection_tangent"]


def _modes(mode: Any, ndim: int, chosen: tuple[int, ...]) -> list[str]:
    """One mode per axis: a string for all, or a sequence over the filtered axes ('constant' elsewhere)."""
    if isinstance(mode, str) or not isinstance(mode, Iterable):
        return [mode] * ndim
    modes = ["constant"] * ndim
    for m, a in zip(per_axis(mode, len(chosen)), chosen):
        modes[a] = m
    return modes


def _origins(origin: Any, ndim: int, chosen: tuple[int, ...]) -> list[int]:
    origins = [0] * ndim
    for o, a in zip(per_axis(origin, len(chosen)), chosen):
        origins[a] = int(o)
    return origins


def _expanded(array: np.ndarray, ndim: int, chosen: tuple[int, ...]) -> np.ndarray:
    """A footprint over the filtered axes as one over every axis (SciPy's ``_expand_footprint``)."""
    if len(chosen) < ndim:
        return np.expand_dims(array, tuple(a for a in range(ndim) if a not in chosen))
    return array


def rank_geometry(x: np.ndarray, size: Any, footprint: Any, mode: Any, origin: Any,
                  axes: Any) -> tuple[np.ndarray, list[int], list[str]]:
    """The footprint (over every axis), origins and modes of a rank, median or percentile filter.

    Examples
    --------
    >>> fp, origins, modes = rank_geometry(np.zeros((4, 5)), 3, None, "wrap", 0, (1,))
    >>> fp.shape, origins, modes
    ((1, 3), [0, 0], ['wrap', 'wrap'])
    """
    chosen = normalize_axes(axes, x.ndim)
    if footprint is None:
        fp = np.ones([int(s) for s in per_axis(size, len(chosen))], dtype=bool)
    else:
        fp = np.asarray(footprint, dtype=bool)
    return _expanded(fp, x.ndim, chosen), _origins(origin, x.ndim, chosen), _modes(mode, x.ndim, chosen)


def min_max_geometry(x: np.ndarray, size: Any, footprint: Any, structure: Any, mode: Any, origin: Any,
                     axes: Any) -> tuple[np.ndarray, list[int], list[str], np.ndarray | None]:
    """Footprint, origins, modes and structuring element (over every axis) of a minimum or maximum
    filter, as SciPy's ``_min_or_max_filter`` sets them up."""
    chosen = normalize_axes(axes, x.ndim)
    ndim = x.ndim
    if structure is None and (footprint is None or np.asarray(footprint, dtype=bool).all()):
        sizes = per_axis(size, len(chosen)) if footprint is None else list(np.shape(footprint))
        origins_given, modes_given = per_axis(origin, len(chosen)), per_axis(mode, len(chosen))
        shape, origins, modes = [1] * ndim, [0] * ndim, ["constant"] * ndim
        for a, s, o, m in zip(chosen, sizes, origins_given, modes_given):
            modes[a] = m
            if s > 1:
                shape[a], origins[a] = int(s), int(o)
        return np.ones(shape, dtype=bool), origins, modes, None
    s = None if structure is None else np.asarray(structure, dtype=np.float64)
    fp = np.ones(s.shape, dtype=bool) if (footprint is None and s is not None) else np.asarray(footprint, dtype=bool)
    fp = _expanded(fp, ndim, chosen)
    if s is not None and s.ndim != ndim:
        s = np.expand_dims(s, tuple(a for a in range(s.ndim) if a not in chosen))
    return fp, _origins(origin, ndim, chosen), [mode] * ndim, s


def selection_pullback(f: Any, y: np.ndarray, selection: Selection, values: tuple[Any, ...],
                       positions: dict[str, int], structure_map: Any = None) -> Any:
    """The pullback of a selecting filter: ``"input"``, ``"cval"``, ``"structure"`` and ``"zero"``
    (a zero cotangent: a floating footprint, the percentile) at the given parameter positions."""

    def input_cotangent(dy: np.ndarray, memo: dict[str, Any]) -> Any:
        return selection.cotangents(dy)[0]

    def cval_cotangent(dy: np.ndarray, memo: dict[str, Any]) -> Any:
        return selection.cotangents(dy)[1]

    def structure_cotangent(dy: np.ndarray, memo: dict[str, Any]) -> Any:
        ds = selection.cotangents(dy)[2]
        return ds if structure_map is None else structure_map(ds)

    def zero_cotangent(dy: np.ndarray, memo: dict[str, Any]) -> Any:
        return ZeroTangent()

    computes = {"input": input_cotangent, "cval": cval_cotangent, "structure": structure_cotangent,
                "zero": zero_cotangent, "zero2": zero_cotangent}
    return make_pullback(f, f.__name__, y, values, {p: computes[name] for name, p in positions.items()})


def selection_tangent(y: np.ndarray, selection: Selection, dx: Any, dcval: Any, dstructure: Any = None) -> Any:
    """The frule's output tangent of a selecting filter."""
    for t in (dx, dcval, dstructure):
        if isinstance(t, NotImplementedTangent):
            return t
    if dx is None and dcval is None and dstructure is None:
        return output_tangent(None, y)
    return output_tangent(selection.tangent(dx, dcval, dstructure), y)


# ---- minimum_filter1d and maximum_filter1d ------------------------------------------------------------
def _filter1d_selection(f: Any, minimum: bool, input: Any, size: Any, axis: Any, output: Any, mode: Any,
                        cval: Any, origin: Any) -> tuple[np.ndarray, Selection]:
    check_output(f, output)
    y = f(input, size, axis, output, mode, cval, origin)
    x = np.asarray(input)
    axis = normalize_axis_index(int(axis), x.ndim)
    shape, origins = [1] * x.ndim, [0] * x.ndim
    shape[axis], origins[axis] = int(size), int(origin)
    selection = Selection(x, np.ones(shape, bool), origins, [mode] * x.ndim, cval, "min" if minimum else "max")
    return y, selection


@rrule.register(ndi.maximum_filter1d)
def maximum_filter1d_rrule(input: Any, size: Any, axis: Any = -1, output: Any = None, mode: Any = "reflect",
                           cval: Any = 0.0, origin: Any = 0) -> Any:
    """Reverse rule of ``scipy.ndimage.maximum_filter1d``: the input and ``cval`` (the selected entries).

    Examples
    --------
    >>> from chainrules import unthunk
    >>> y, pullback = rrule(ndi.maximum_filter1d, np.array([1.0, 3.0, 2.0]), 2, -1, None, "constant", 0.0)
    >>> unthunk(pullback(np.ones(3))[1])
    array([0., 2., 1.])
    """
    y, selection = _filter1d_selection(ndi.maximum_filter1d, False, input, size, axis, output, mode, cval, origin)
    values = (input, size, axis, output, mode, cval, origin)
    return y, selection_pullback(ndi.maximum_filter1d, y, selection, values, {"input": 0, "cval": 5})


@frule.register(ndi.maximum_filter1d)
def maximum_filter1d_frule(tangents: Any, input: Any, size: Any, axis: Any = -1, output: Any = None,
                           mode: Any = "reflect", cval: Any = 0.0, origin: Any = 0) -> Any:
    """Forward rule of ``scipy.ndimage.maximum_filter1d``: the input's tangent at the selected entries.

    Examples
    --------
    >>> from chainrules import NoTangent
    >>> frule((NoTangent(), np.array([10.0, 20.0, 30.0]), NoTangent()), ndi.maximum_filter1d,
    ...       np.array([1.0, 3.0, 2.0]), 3)[1]
    array([20., 20., 20.])
    """
    y, selection = _filter1d_selection(ndi.maximum_filter1d, False, input, size, axis, output, mode, cval, origin)
    return y, selection_tangent(y, selection, tangent_array(tangents[1], input), tangent_value(tangents[6]))


@rrule.register(ndi.minimum_filter1d)
def minimum_filter1d_rrule(input: Any, size: Any, axis: Any = -1, output: Any = None, mode: Any = "reflect",
                           cval: Any = 0.0, origin: Any = 0) -> Any:
    """Reverse rule of ``scipy.ndimage.minimum_filter1d``: the input and ``cval`` (the selected entries).

    Examples
    --------
    >>> from chainrules import unthunk
    >>> y, pullback = rrule(ndi.minimum_filter1d, np.array([1.0, 3.0, 2.0]), 2)
    >>> unthunk(pullback(np.ones(3))[1])
    array([2., 0., 1.])
    """
    y, selection = _filter1d_selection(ndi.minimum_filter1d, True, input, size, axis, output, mode, cval, origin)
    values = (input, size, axis, output, mode, cval, origin)
    return y, selection_pullback(ndi.minimum_filter1d, y, selection, values, {"input": 0, "cval": 5})


@frule.register(ndi.minimum_filter1d)
def minimum_filter1d_frule(tangents: Any, input: Any, size: Any, axis: Any = -1, output: Any = None,
                           mode: Any = "reflect", cval: Any = 0.0, origin: Any = 0) -> Any:
    """Forward rule of ``scipy.ndimage.minimum_filter1d``: the input's tangent at the selected entries.

    Examples
    --------
    >>> from chainrules import NoTangent
    >>> frule((NoTangent(), np.array([10.0, 20.0, 30.0]), NoTangent()), ndi.minimum_filter1d,
    ...       np.array([1.0, 3.0, 2.0]), 3)[1]
    array([10., 10., 30.])
    """
    y, selection = _filter1d_selection(ndi.minimum_filter1d, True, input, size, axis, output, mode, cval, origin)
    return y, selection_tangent(y, selection, tangent_array(tangents[1], input), tangent_value(tangents[6]))


# ---- minimum_filter and maximum_filter ----------------------------------------------------------------
def _min_max_call(f: Any, minimum: bool, input: Any, size: Any, footprint: Any, output: Any, mode: Any, cval: Any,
                  origin: Any, axes: Any) -> tuple[np.ndarray, Selection]:
    check_output(f, output)
    y = f(input, size, footprint, output, mode, cval, origin, axes=axes)
    x = np.asarray(input)
    fp, origins, modes, _ = min_max_geometry(x, size, footprint, None, mode, origin, axes)
    return y, Selection(x, fp, origins, modes, cval, "min" if minimum else "max")


@rrule.register(ndi.maximum_filter)
def maximum_filter_rrule(input: Any, size: Any = None, footprint: Any = None, output: Any = None,
                         mode: Any = "reflect", cval: Any = 0.0, origin: Any = 0, *, axes: Any = None) -> Any:
    """Reverse rule of ``scipy.ndimage.maximum_filter``: the input and ``cval`` (the selected entries).

    Examples
    --------
    >>> from chainrules import unthunk
    >>> y, pullback = rrule(ndi.maximum_filter, np.array([[1.0, 4.0], [3.0, 2.0]]), 2, None, None, "nearest")
    >>> unthunk(pullback(np.ones((2, 2)))[1])       # windows: rows i-1..i, columns j-1..j
    array([[1., 2.],
           [1., 0.]])
    """
    y, selection = _min_max_call(ndi.maximum_filter, False, input, size, footprint, output, mode, cval, origin, axes)
    values = (input, size, footprint, output, mode, cval, origin)
    return y, selection_pullback(ndi.maximum_filter, y, selection, values, {"input": 0, "zero": 2, "cval": 5})


@frule.register(ndi.maximum_filter)
def maximum_filter_frule(tangents: Any, input: Any, size: Any = None, footprint: Any = None, output: Any = None,
                         mode: Any = "reflect", cval: Any = 0.0, origin: Any = 0, *, axes: Any = None) -> Any:
    """Forward rule of ``scipy.ndimage.maximum_filter``: the input's tangent at the selected entries.

    Examples
    --------
    >>> from chainrules import NoTangent
    >>> t = (NoTangent(), np.array([0.0, 1.0, 0.0]), NoTangent())
    >>> frule(t, ndi.maximum_filter, np.array([1.0, 2.0, 0.0]), 2)[1]
    array([0., 1., 1.])
    """
    y, selection = _min_max_call(ndi.maximum_filter, False, input, size, footprint, output, mode, cval, origin, axes)
    return y, selection_tangent(y, selection, tangent_array(tangents[1], input), tangent_value(tangents[6]))


@rrule.register(ndi.minimum_filter)
def minimum_filter_rrule(input: Any, size: Any = None, footprint: Any = None, output: Any = None,
                         mode: Any = "reflect", cval: Any = 0.0, origin: Any = 0, *, axes: Any = None) -> Any:
    """Reverse rule of ``scipy.ndimage.minimum_filter``: the input and ``cval`` (the selected entries).

    Examples
    --------
    >>> from chainrules import unthunk
    >>> y, pullback = rrule(ndi.minimum_filter, np.array([1.0, 4.0, 3.0]), 3, None, None, "constant", 2.0)
    >>> unthunk(pullback(np.ones(3))[1]), unthunk(pullback(np.ones(3))[6])   # y[2] = min(4, 3, cval)
    (array([2., 0., 0.]), 1.0)
    """
    y, selection = _min_max_call(ndi.minimum_filter, True, input, size, footprint, output, mode, cval, origin, axes)
    values = (input, size, footprint, output, mode, cval, origin)
    return y, selection_pullback(ndi.minimum_filter, y, selection, values, {"input": 0, "zero": 2, "cval": 5})


@frule.register(ndi.minimum_filter)
def minimum_filter_frule(tangents: Any, input: Any, size: Any = None, footprint: Any = None, output: Any = None,
                         mode: Any = "reflect", cval: Any = 0.0, origin: Any = 0, *, axes: Any = None) -> Any:
    """Forward rule of ``scipy.ndimage.minimum_filter``: the input's tangent at the selected entries.

    Examples
    --------
    >>> from chainrules import NoTangent
    >>> t = (NoTangent(), np.array([0.0, 1.0, 0.0]), NoTangent())
    >>> frule(t, ndi.minimum_filter, np.array([1.0, 2.0, 3.0]), 2)[1]
    array([0., 0., 1.])
    """
    y, selection = _min_max_call(ndi.minimum_filter, True, input, size, footprint, output, mode, cval, origin, axes)
    return y, selection_tangent(y, selection, tangent_array(tangents[1], input), tangent_value(tangents[6]))


# ---- rank_filter, median_filter, percentile_filter ---------------------------------------------------
def _rank_call(f: Any, head: tuple[Any, ...], input: Any, size: Any, footprint: Any, output: Any, mode: Any,
               cval: Any, origin: Any, axes: Any) -> tuple[np.ndarray, Selection]:
    check_output(f, output)
    y = f(input, *head, size, footprint, output, mode, cval, origin, axes=axes)
    x = np.asarray(input)
    fp, origins, modes = rank_geometry(x, size, footprint, mode, origin, axes)
    return y, Selection(x, fp, origins, modes, cval, "match", y=y)


@rrule.register(ndi.rank_filter)
def rank_filter_rrule(input: Any, rank: Any, size: Any = None, footprint: Any = None, output: Any = None,
                      mode: Any = "reflect", cval: Any = 0.0, origin: Any = 0, *, axes: Any = None) -> Any:
    """Reverse rule of ``scipy.ndimage.rank_filter``: the input and ``cval`` (the selected entries).

    Examples
    --------
    >>> from chainrules import unthunk
    >>> y, pullback = rrule(ndi.rank_filter, np.array([5.0, 1.0, 3.0, 2.0]), 1, 3)
    >>> y, unthunk(pullback(np.ones(4))[1])
    (array([5., 3., 2., 2.]), array([1., 0., 1., 2.]))
    """
    y, selection = _rank_call(ndi.rank_filter, (rank,), input, size, footprint, output, mode, cval, origin, axes)
    values = (input, rank, size, footprint, output, mode, cval, origin)
    return y, selection_pullback(ndi.rank_filter, y, selection, values, {"input": 0, "zero": 3, "cval": 6})


@frule.register(ndi.rank_filter)
def rank_filter_frule(tangents: Any, input: Any, rank: Any, size: Any = None, footprint: Any = None,
                      output: Any = None, mode: Any = "reflect", cval: Any = 0.0, origin: Any = 0, *,
                      axes: Any = None) -> Any:
    """Forward rule of ``scipy.ndimage.rank_filter``: the input's tangent at the selected entries.

    Examples
    --------
    >>> from chainrules import NoTangent
    >>> t = (NoTangent(), np.array([1.0, 2.0, 3.0, 4.0]), NoTangent(), NoTangent())
    >>> frule(t, ndi.rank_filter, np.array([5.0, 1.0, 3.0, 2.0]), 1, 3)[1]
    array([1., 3., 4., 4.])
    """
    y, selection = _rank_call(ndi.rank_filter, (rank,), input, size, footprint, output, mode, cval, origin, axes)
    return y, selection_tangent(y, selection, tangent_array(tangents[1], input), tangent_value(tangents[7]))


@rrule.register(ndi.median_filter)
def median_filter_rrule(input: Any, size: Any = None, footprint: Any = None, output: Any = None,
                        mode: Any = "reflect", cval: Any = 0.0, origin: Any = 0, *, axes: Any = None) -> Any:
    """Reverse rule of ``scipy.ndimage.median_filter``: the input and ``cval`` (the selected entries).

    Examples
    --------
    >>> from chainrules import unthunk
    >>> y, pullback = rrule(ndi.median_filter, np.array([5.0, 1.0, 3.0, 2.0]), 3)
    >>> y, unthunk(pullback(np.ones(4))[1])
    (array([5., 3., 2., 2.]), array([1., 0., 1., 2.]))
    """
    y, selection = _rank_call(ndi.median_filter, (), input, size, footprint, output, mode, cval, origin, axes)
    values = (input, size, footprint, output, mode, cval, origin)
    return y, selection_pullback(ndi.median_filter, y, selection, values, {"input": 0, "zero": 2, "cval": 5})


@frule.register(ndi.median_filter)
def median_filter_frule(tangents: Any, input: Any, size: Any = None, footprint: Any = None, output: Any = None,
                        mode: Any = "reflect", cval: Any = 0.0, origin: Any = 0, *, axes: Any = None) -> Any:
    """Forward rule of ``scipy.ndimage.median_filter``: the input's tangent at the selected entries.

    Examples
    --------
    >>> from chainrules import NoTangent
    >>> frule((NoTangent(), np.array([1.0, 2.0, 3.0, 4.0]), NoTangent()), ndi.median_filter,
    ...       np.array([5.0, 1.0, 3.0, 2.0]), 3)[1]
    array([1., 3., 4., 4.])
    """
    y, selection = _rank_call(ndi.median_filter, (), input, size, footprint, output, mode, cval, origin, axes)
    return y, selection_tangent(y, selection, tangent_array(tangents[1], input), tangent_value(tangents[6]))


@rrule.register(ndi.percentile_filter)
def percentile_filter_rrule(input: Any, percentile: Any, size: Any = None, footprint: Any = None,
                            output: Any = None, mode: Any = "reflect", cval: Any = 0.0, origin: Any = 0, *,
                            axes: Any = None) -> Any:
    """Reverse rule of ``scipy.ndimage.percentile_filter``: the input and ``cval`` (``percentile``: zero).

    Examples
    --------
    >>> from chainrules import unthunk
    >>> y, pullback = rrule(ndi.percentile_filter, np.array([5.0, 1.0, 3.0, 2.0]), 50.0, 3)
    >>> unthunk(pullback(np.ones(4))[1]), unthunk(pullback(np.ones(4))[2])
    (array([1., 0., 1., 2.]), ZeroTangent())
    """
    y, selection = _rank_call(ndi.percentile_filter, (percentile,), input, size, footprint, output, mode, cval,
                              origin, axes)
    values = (input, percentile, size, footprint, output, mode, cval, origin)
    return y, selection_pullback(ndi.percentile_filter, y, selection, values,
                                 {"input": 0, "zero": 1, "zero2": 3, "cval": 6})


@frule.register(ndi.percentile_filter)
def percentile_filter_frule(tangents: Any, input: Any, percentile: Any, size: Any = None, footprint: Any = None,
                            output: Any = None, mode: Any = "reflect", cval: Any = 0.0, origin: Any = 0, *,
                            axes: Any = None) -> Any:
    """Forward rule of ``scipy.ndimage.percentile_filter``: the input's tangent at the selected entries.

    Examples
    --------
    >>> from chainrules import NoTangent
    >>> t = (NoTangent(), np.array([1.0, 2.0, 3.0, 4.0]), 1.0, NoTangent())
    >>> frule(t, ndi.percentile_filter, np.array([5.0, 1.0, 3.0, 2.0]), 50.0, 3)[1]
    array([1., 3., 4., 4.])
    """
    y, selection = _rank_call(ndi.percentile_filter, (percentile,), input, size, footprint, output, mode, cval,
                              origin, axes)
    return y, selection_tangent(y, selection, tangent_array(tangents[1], input), tangent_value(tangents[7]))


# ---- sample inputs ----------------------------------------------------------------------------------
def _distinct(rng: np.random.Generator, shape: tuple[int, ...]) -> np.ndarray:
    """An image with well separated values (no ties within a finite-difference step)."""
    values = rng.permutation(int(np.prod(shape))).astype(np.float64)
    return (values + 0.25 * rng.random(values.size)).reshape(shape)


@sample_inputs(ndi.maximum_filter1d, ndi.minimum_filter1d)
def _filter1d_samples(rng: np.random.Generator) -> list[Sample]:
    x = _distinct(rng, (3, 5))
    out = modes_samples(x, 3, -1, None, cval=2.6)
    out += [Sample(x, 2, 0, None, "wrap", 0.0, -1, label="even size, origin -1"),
            Sample(x, 4, fkwargs={"axis": 1, "mode": "constant", "cval": 7.3, "origin": 1},
                   label="options by keyword"),
            Sample(x.astype(np.float32), 3, 1, None, "constant", np.float32(6.4), label="float32"),
            Sample(x, 9, 1, None, "reflect", label="a window larger than the line")]
    return out


def _footprint_samples(rng: np.random.Generator, head: tuple[Any, ...] = (), mode_per_axis: bool = False
                       ) -> list[Sample]:
    """Samples of ``f(x, *head, size, footprint, output, mode, cval, origin)``; a mode per axis only for
    the minimum and maximum (SciPy's other rank filters take one mode)."""
    x = _distinct(rng, (4, 5))
    cross = np.array([[0, 1, 0], [1, 1, 1], [0, 1, 0]], dtype=bool)
    out = modes_samples(x, *head, None, cross, None, cval=9.6)
    mode = ("wrap", "mirror") if mode_per_axis else "wrap"
    out += [Sample(x, *head, 3, label="size 3"), Sample(x, *head, (2, 3), None, None, mode, 0.0, (0, -1),
                                                     label=f"per-axis sizes and origins, mode {mode}"),
            Sample(x, *head, fkwargs={"footprint": cross, "mode": "constant", "cval": 2.6},
                   label="options by keyword"),
            Sample(x, *head, 3, fkwargs={"axes": (1,)}, label="one axis"),
            Sample(x, *head, None, np.ones((2, 2)), label="a floating all-true footprint (a zero derivative)"),
            Sample(x.astype(np.float32), *head, None, cross, None, "constant", np.float32(6.6), label="float32"),
            Sample(_distinct(rng, (7,)), *head, None, np.array([1, 0, 1, 1, 1], bool), None, "reflect",
                   label="1-d, a footprint with a hole")]
    return out


@sample_inputs(ndi.maximum_filter, ndi.minimum_filter)
def _min_max_samples(rng: np.random.Generator) -> list[Sample]:
    return _footprint_samples(rng, mode_per_axis=True)


@sample_inputs(ndi.median_filter)
def _median_samples(rng: np.random.Generator) -> list[Sample]:
    return _footprint_samples(rng)


@sample_inputs(ndi.rank_filter)
def _rank_filter_samples(rng: np.random.Generator) -> list[Sample]:
    return [*_footprint_samples(rng, (1,)), Sample(_distinct(rng, (3, 4)), -2, 3, label="a negative rank")]


@sample_inputs(ndi.percentile_filter)
def _percentile_filter_samples(rng: np.random.Generator) -> list[Sample]:
    return [*_footprint_samples(rng, (30.0,)), Sample(_distinct(rng, (3, 4)), -20.0, 3, label="a negative percentile")]
