"""Rules of ``np.pad``, every mode.

The maths
---------
``np.pad`` pads one axis after the other: when axis ``k`` is padded, axes before it are
already padded and axes after it are not (NumPy's own order, which fixes the values in
the corners). Along one axis, each padded entry of a line is a function of the entries of
the same line:

===================================  =========================================================
mode                                 padded entry, along the axis
===================================  =========================================================
``constant``, ``empty``              independent of the array: derivative zero
``edge``, ``wrap``, ``reflect``,     a copy of one entry (``reflect_type='even'``)
``symmetric``
``reflect``, ``symmetric`` with      ``2 * edge - mirrored entry``, recursively for pads
``reflect_type='odd'``               longer than the axis: a fixed linear combination
``linear_ramp``                      ``t * edge`` (``t`` runs from 0 at ``end_values`` to 1)
``mean``                             the mean of the first/last ``stat_length`` entries
``maximum``, ``minimum``             the largest/smallest of those entries
``median``                           the middle one, or the mean of the middle two
===================================  =========================================================

All modes but the last three are linear in the array (with ``constant_values`` and
``end_values`` held fixed): the frule pads the tangent with the same mode (zero constants),
and the pullback applies the adjoint axis by axis in reverse order: the centre of the
cotangent, plus the padded entries' cotangents folded back onto the entries they were
computed from (summed where an entry was copied several times).

``maximum``, ``minimum`` and ``median`` are piecewise linear. Their derivative is a
subgradient, the one NumPy's choice of element defines: the padded entries follow the
element ``np.argmax``/``np.argmin`` picks (the first of tied ones), and for the median
the middle element(s) of a stable sort, each with weight 1/2 when two are averaged. The
derivative is exact wherever the extremum (or the middle pair) is unique.

Keywords and limits
-------------------
``constant_values`` and ``end_values`` are keyword arguments, so (like every keyword)
they are not differentiated: their values get no cotangent. A callable ``mode`` (a user
function writing into the padded array) has no rule: its cotangent is
``not_implemented``. ``mode='empty'`` leaves the padded entries uninitialised: they do
not depend on the array, so their tangent is zero and their cotangent is dropped.

Cost: one pass over the cotangent per axis. The linear modes precompute, per axis and
side, only the map from the padded entries to the few entries they depend on (for the
odd reflections, a small dense block computed by padding an identity matrix of the
pad's width).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
from numpy.lib.array_utils import normalize_axis_index

from chainrules.rulesets.arrays._linear_maps import NO, cast_like, output_tangent, tangent_array, zero_result
from chainrules.rulesets.arrays._sample_arrays import normal, with_dtypes
from chainrules.rulesets.arrays._signatures import ARRAY_LIKE, REQUIRED, require
from chainrules_core import (
    Sample,
    cotangent_projector,
    differentiable,
    frule,
    not_implemented,
    passes_through,
    read_cotangent,
    rrule,
    sample_inputs,
)

Pullback = Callable[[Any], tuple[Any, ...]]

_pad: Any = np.pad  # called with modes and keywords only known at run time

_LINEAR_INDEX_MODES = ("edge", "wrap")
_REFLECTIONS = ("reflect", "symmetric")
_STATISTICS = ("maximum", "minimum", "median")


def pad_pairs(x: Any, ndim: int) -> list[tuple[Any, Any]]:
    """``pad_width`` or ``stat_length`` as one ``(before, after)`` pair per axis, as ``np.pad`` reads it.

    Examples
    --------
    >>> from chainrules.rulesets.arrays.padding import pad_pairs
    >>> pad_pairs(1, 2), pad_pairs((1, 2), 2), pad_pairs({1: (0, 3)}, 2), pad_pairs(None, 1)
    ([(1, 1), (1, 1)], [(1, 2), (1, 2)], [(0, 0), (0, 3)], [(None, None)])
    """
    if x is None:
        return [(None, None)] * ndim
    if isinstance(x, dict):
        pairs: list[tuple[Any, Any]] = [(0, 0)] * ndim
        for axis, width in x.items():
            pairs[normalize_axis_index(axis, ndim)] = pad_pairs(width, 1)[0]
        return pairs
    arr = np.round(np.asarray(x)).astype(np.intp)
    if arr.ndim < 3:
        if arr.size == 1:
            v = int(arr.ravel()[0])
            return [(v, v)] * ndim
        if arr.size == 2 and arr.shape != (2, 1):
            flat = arr.ravel()
            return [(int(flat[0]), int(flat[1]))] * ndim
    return [(int(a), int(b)) for a, b in np.broadcast_to(arr, (ndim, 2)).tolist()]


# ---- one side of one axis: how its padded entries depend on the line ------------------------------------
class _Side:
    """The padded entries on one side of one axis, as a linear function of the line (axis last)."""

    rows = 0

    def forward(self, t: np.ndarray) -> np.ndarray:
        """The padded entries' tangents, shape ``t.shape[:-1] + (rows,)``."""
        return np.zeros(t.shape[:-1] + (self.rows,), dtype=t.dtype)

    def adjoint(self, d: np.ndarray, out: np.ndarray) -> None:
        """Add the adjoint of :meth:`forward` applied to ``d`` (the padded entries' cotangents) into ``out``."""


class _Constant(_Side):
    """Padded entries independent of the line (``constant``, ``empty``, and empty pads)."""

    def __init__(self, rows: int) -> None:
        self.rows = rows


class _Copies(_Side):
    """Each padded entry is a copy of entry ``source[i]`` of the line."""

    def __init__(self, source: np.ndarray) -> None:
        self.source = source
        self.rows = source.size

    def forward(self, t: np.ndarray) -> np.ndarray:
        return t[..., self.source]

    def adjoint(self, d: np.ndarray, out: np.ndarray) -> None:
        where: Any = (Ellipsis, self.source)
        np.add.at(out, where, d)


class _Combinations(_Side):
    """Each padded entry is a fixed combination ``weights[i] @ line[columns]``."""

    def __init__(self, columns: np.ndarray, weights: np.ndarray) -> None:
        self.columns = columns
        self.weights = weights
        self.rows = weights.shape[0]

    def forward(self, t: np.ndarray) -> np.ndarray:
        return t[..., self.columns] @ self.weights.T.astype(t.dtype, copy=False)

    def adjoint(self, d: np.ndarray, out: np.ndarray) -> None:
        out[..., self.columns] += d @ self.weights.astype(d.dtype, copy=False)


class _Statistic(_Side):
    """Every padded entry equals ``weights @ line[index]``; ``index`` may differ from line to line."""

    def __init__(self, rows: int, index: np.ndarray, weights: np.ndarray, shared: bool) -> None:
        self.rows = rows
        self.index = index  # shape (m,) if shared, else line shape + (m,)
        self.weights = weights
        self.shared = shared

    def _gather(self, t: np.ndarray) -> np.ndarray:
        return t[..., self.index] if self.shared else np.take_along_axis(t, self.index, axis=-1)

    def forward(self, t: np.ndarray) -> np.ndarray:
        value = self._gather(t) @ self.weights.astype(t.dtype, copy=False)
        return np.repeat(value[..., None], self.rows, axis=-1)

    def adjoint(self, d: np.ndarray, out: np.ndarray) -> None:
        total = d.sum(axis=-1)
        if self.shared:
            out[..., self.index] += total[..., None] * self.weights.astype(d.dtype, copy=False)
            return
        for j, w in enumerate(self.weights):
            part = np.zeros_like(out)
            np.put_along_axis(part, self.index[..., j:j + 1], (total * w)[..., None], axis=-1)
            out += part


def _identity_padded(n: int, width: tuple[int, int], mode: Any, kwargs: dict[str, Any]) -> np.ndarray:
    """``np.pad`` of the columns of ``eye(n)`` along the axis: the matrix of a linear 1-d pad."""
    return _pad(np.eye(n), (width, (0, 0)), mode, **kwargs)


def _linear_sides(n: int, width: tuple[int, int], mode: Any, kwargs: dict[str, Any]) -> tuple[_Side, _Side]:
    """The two sides of a linear mode along an axis of length ``n`` (no data needed)."""
    before, after = width
    if n == 0 or mode in ("constant", "empty"):
        return _Constant(before), _Constant(after)
    if mode in _LINEAR_INDEX_MODES or (mode in _REFLECTIONS and kwargs.get("reflect_type", "even") == "even"):
        source = _pad(np.arange(n), (before, after), mode, **kwargs)
        return _Copies(source[:before]), _Copies(source[before + n:])
    if mode == "linear_ramp":
        ramp_before = _pad(np.ones(1), (before, 0), mode, end_values=0)[:before]
        ramp_after = _pad(np.ones(1), (0, after), mode, end_values=0)[1:]
        return (_Combinations(np.array([0]), ramp_before[:, None]),
                _Combinations(np.array([n - 1]), ramp_after[:, None]))
    if mode == "mean":
        left, right = _stat_lengths(n, kwargs.get("stat_length"))
        return (_Statistic(before, np.arange(left), np.full(left, 1.0 / left), shared=True),
                _Statistic(after, np.arange(n - right, n), np.full(right, 1.0 / right), shared=True))
    # odd reflections: each side depends on the entries near its own edge, unless the pad is
    # longer than the axis (then repeated reflections mix the whole line).
    reach = 1 if mode == "reflect" else 0
    if n > 1 and before + reach < n and after + reach < n:
        m_before, m_after = min(n, before + 1), min(n, after + 1)
        left_block = _identity_padded(m_before, (before, 0), mode, kwargs)[:before]
        right_block = _identity_padded(m_after, (0, after), mode, kwargs)[m_after:]
        return (_Combinations(np.arange(m_before), left_block),
                _Combinations(np.arange(n - m_after, n), right_block))
    full = _identity_padded(n, width, mode, kwargs)
    columns = np.arange(n)
    return _Combinations(columns, full[:before]), _Combinations(columns, full[before + n:])


def _stat_lengths(n: int, stat_length: Any) -> tuple[int, int]:
    left, right = stat_length if stat_length is not None else (None, None)
    left = n if left is None or left > n else int(left)
    right = n if right is None or right > n else int(right)
    return left, right


def _statistic_sides(line: np.ndarray, width: tuple[int, int], mode: str,
                     stat_length: tuple[Any, Any]) -> tuple[_Side, _Side]:
    """The two sides of ``maximum``/``minimum``/``median`` for the lines of ``line`` (axis last)."""
    n = line.shape[-1]
    left, right = _stat_lengths(n, stat_length)
    sides: list[_Side] = []
    for rows, start, length in ((width[0], 0, left), (width[1], n - right, right)):
        chunk = line[..., start:start + length]
        if rows == 0 or length == 0:
            sides.append(_Constant(rows))
            continue
        if mode == "maximum":
            index, weights = np.argmax(chunk, axis=-1)[..., None], np.ones(1)
        elif mode == "minimum":
            index, weights = np.argmin(chunk, axis=-1)[..., None], np.ones(1)
        else:
            order = np.argsort(chunk, axis=-1, kind="stable")
            index, weights = order[..., [(length - 1) // 2, length // 2]], np.array([0.5, 0.5])
        sides.append(_Statistic(rows, index + start, weights, shared=False))
    return sides[0], sides[1]


class _PadPlan:
    """How ``np.pad(array, pad_width, mode, **kwargs)`` acts on tangents, axis by axis."""

    def __init__(self, array: Any, pad_width: Any, mode: Any, kwargs: dict[str, Any]) -> None:
        arr = np.asarray(array)
        self.shape = arr.shape
        self.widths = pad_pairs(pad_width, arr.ndim)
        self.sides: list[tuple[_Side, _Side]] = []
        if mode in _STATISTICS:
            lengths = pad_pairs(kwargs.get("stat_length"), arr.ndim)
            current = arr
            for k, width in enumerate(self.widths):
                line = np.moveaxis(current, k, -1)
                if current.shape[k] == 0:
                    self.sides.append((_Constant(width[0]), _Constant(width[1])))
                else:
                    self.sides.append(_statistic_sides(line, width, mode, lengths[k]))
                axis_only = [(0, 0)] * arr.ndim
                axis_only[k] = width
                current = _pad(current, axis_only, mode, **kwargs)
        else:
            linear = {k: v for k, v in kwargs.items() if k not in ("constant_values", "end_values")}
            if mode == "mean":
                lengths = pad_pairs(kwargs.get("stat_length"), arr.ndim)
            for k, (n, width) in enumerate(zip(self.shape, self.widths)):
                axis_kwargs = dict(linear)
                if mode == "mean":
                    axis_kwargs["stat_length"] = lengths[k]
                self.sides.append(_linear_sides(n, width, mode, axis_kwargs))

    def forward(self, t: np.ndarray) -> np.ndarray:
        for k, (before, after) in enumerate(self.sides):
            line = np.moveaxis(t, k, -1)
            padded = np.concatenate([before.forward(line), line, after.forward(line)], axis=-1)
            t = np.moveaxis(padded, -1, k)
        return t

    def adjoint(self, d: np.ndarray) -> np.ndarray:
        for k in reversed(range(len(self.sides))):
            before, after = self.sides[k]
            b = self.widths[k][0]
            n = self.shape[k]
            line = np.moveaxis(d, k, -1)
            out = line[..., b:b + n].copy()
            before.adjoint(line[..., :b], out)
            after.adjoint(line[..., b + n:], out)
            d = np.moveaxis(out, -1, k)
        return d


@rrule.register(np.pad, ARRAY_LIKE)
def pad_rrule(array: Any, pad_width: Any = REQUIRED, mode: Any = "constant", **kwargs: Any) -> tuple[Any, Pullback]:
    """Reverse rule of ``np.pad``: the centre of the cotangent plus the padding folded back.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> y, pb = rrule(np.pad, np.zeros(3), 2, "reflect")
    >>> y.shape, pb(np.ones(7))[1]
    ((7,), array([1., 3., 3.]))
    >>> rrule(np.pad, np.zeros(2), 1, "maximum")[1](np.ones(4))[1]    # ties: the first maximum
    array([3., 1.])
    """
    require("pad", pad_width=pad_width)
    y = np.pad(array, pad_width, mode, **kwargs)
    project_array = cotangent_projector(array)
    if callable(mode):
        reason = "np.pad with a callable mode: the derivative of a user padding function"

        def pad_callable_pullback(dy: Any) -> tuple[Any, ...]:
            read_cotangent(dy, y, "np.pad")
            return NO, not_implemented(reason) if differentiable(array) else NO, NO, NO

        return y, pad_callable_pullback
    plan = _PadPlan(array, pad_width, mode, kwargs) if differentiable(array) else None

    def pad_pullback(dy: Any) -> tuple[Any, ...]:
        dy = read_cotangent(dy, y, "np.pad")
        if plan is None:
            return NO, NO, NO, NO
        if passes_through(dy):
            return NO, zero_result(dy), NO, NO
        return NO, project_array(plan.adjoint(cast_like(dy, array))), NO, NO

    return y, pad_pullback


@frule.register(np.pad, ARRAY_LIKE)
def pad_frule(tangents: tuple[Any, ...], array: Any, pad_width: Any = REQUIRED, mode: Any = "constant",
              **kwargs: Any) -> tuple[Any, Any]:
    """Forward rule of ``np.pad``: the tangent padded by the linear part of the mode.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> frule((NoTangent(), np.array([1.0, 2.0]), NoTangent()), np.pad, np.zeros(2), 1, constant_values=5.0)[1]
    array([0., 1., 2., 0.])
    """
    require("pad", pad_width=pad_width)
    y = np.pad(array, pad_width, mode, **kwargs)
    if not differentiable(y) or not differentiable(array):
        return y, output_tangent(None, y)
    if callable(mode):
        return y, not_implemented("np.pad with a callable mode: the derivative of a user padding function")
    value = tangent_array(tangents[1], array)
    if value is None or passes_through(value):
        return y, output_tangent(value, y)
    plan = _PadPlan(array, pad_width, mode, kwargs)
    return y, output_tangent(plan.forward(cast_like(np.asarray(value), array)), y)


def _user_padding(vector: np.ndarray, width: tuple[int, int], axis: int, kwargs: dict[str, Any]) -> None:
    """A callable ``mode`` for the samples: pads with the edge values doubled (NumPy's callable protocol)."""
    if width[0]:
        vector[:width[0]] = 2 * vector[width[0]]
    if width[1]:
        vector[-width[1]:] = 2 * vector[-width[1] - 1]


@sample_inputs(np.pad)
def _pad_samples(rng: np.random.Generator) -> Iterator[Sample]:
    # Every mode but 'empty', whose padded entries are uninitialised memory (tests/.../test_padding.py compares
    # it with 'constant' on the centre). Distinct values: the extrema and medians of the statistic modes are
    # unique, where their derivative exists.
    x = normal(rng, 3, 4)
    yield from with_dtypes(Sample(x, 1, label="constant (default mode)"))
    yield Sample(x, (1, 2), "constant", fkwargs={"constant_values": 2.5}, label="constant, constant_values")
    yield Sample(x, ((2, 0), (1, 3)), "edge", label="edge")
    yield Sample(x, ((5, 1), (0, 6)), "wrap", label="wrap, longer than the axes")
    yield Sample(x, 2, "reflect", label="reflect")
    yield Sample(x, ((4, 1), (7, 2)), "reflect", fkwargs={"reflect_type": "odd"}, label="reflect odd, long")
    yield Sample(x, ((1, 2), (3, 0)), "symmetric", label="symmetric")
    yield Sample(x, 3, "symmetric", fkwargs={"reflect_type": "odd"}, label="symmetric odd")
    yield Sample(x, {1: (2, 1)}, "linear_ramp", fkwargs={"end_values": (1.0, -2.0)}, label="linear_ramp, dict width")
    yield Sample(x, 2, "mean", fkwargs={"stat_length": ((1, 2), (3, 1))}, label="mean, stat_length")
    yield Sample(x, (1, 2), "maximum", label="maximum")
    yield Sample(x.astype(np.float32), 1, "minimum", fkwargs={"stat_length": 2}, label="minimum (float32)")
    yield Sample(x, ((2, 1), (0, 2)), "median", label="median")
    yield Sample([1.0, 2.5, -1.0], fkwargs={"pad_width": 2, "mode": "wrap"}, label="a list, by keyword")
    yield Sample(normal(rng, 2), 1, _user_padding, label="a callable mode (not implemented)")
