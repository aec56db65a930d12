"""Filters that select one element of each window: the element, and where it came from (private).

Minimum, maximum, rank, median and percentile filters and grey-scale morphology return, at
each output position ``i``, one element of the extended input in the window ``i + F`` (the
footprint ``F``), plus or minus a structuring element ``s`` for grey morphology:

    ``y[i] = x_ext[i + f(i) - c] + sign s[f(i)]``,

with ``f(i)`` the selected footprint offset. Wherever the selection is locally constant (no
two window entries tie), ``y`` is differentiable with

    ``dy[i] = dx_ext[i + f(i) - c] + sign ds[f(i)]``:

the cotangent of ``y[i]`` goes to the input sample that position copies (through the
boundary mode: :mod:`._boundary`), to ``cval`` if it is ``constant`` padding, and to the
structuring element's entry ``f(i)``.

:class:`Selection` finds ``f(i)`` as SciPy does. For the minimum and maximum (``NI_MinOrMaxFilter``
in ``scipy/ndimage/src/ni_filters.c``) the candidates ``x_ext + s`` (``- s`` for a minimum)
are scanned over the footprint in C order and a later one replaces the current best only
when strictly better, so at a tie the *first* footprint element wins. A rank, median or
percentile filter's output is a copy of a window entry: ``f(i)`` is the first footprint
element (C order) equal to it (then, should none be, the first entry of the window's box:
SciPy's 1-d rank filter reads the whole box of a 1-d footprint). At ties the function has no
derivative; the rules return the one-sided derivative of that choice (a valid subgradient
for the minimum and maximum).

The source of each extended position is found by extending the array of flat indices
``arange(x.size)`` exactly as the data (``-1`` for ``constant`` padding), so a pullback is a
``bincount`` of the output cotangent onto the selected sources.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from chainrules.rulesets.ndimage._boundary import extend

__all__ = ["Selection"]

_UNMATCHED = -2


class Selection:
    """The window entry each output position selects.

    Parameters
    ----------
    x : ndarray
        The input.
    footprint : ndarray of bool
        The footprint, one axis per axis of ``x`` (length 1 along the unfiltered ones).
    origins, modes : sequence
        One per axis of ``x``.
    cval : number
    kind : {"max", "min", "match"}
        Maximum or minimum (``structure`` added or subtracted), or the first entry equal to ``y``.
    y : ndarray, optional
        The output, for ``"match"``.
    structure : ndarray, optional
        The structuring element (the footprint's shape), for grey morphology.

    Examples
    --------
    >>> sel = Selection(np.array([3.0, 1.0, 2.0]), np.ones(3, bool), [0], ["nearest"], 0.0, "max")
    >>> sel.source                      # windows (3, 3, 1), (3, 1, 2), (1, 2, 2): the maxima's sources
    array([0, 0, 2])
    >>> sel.cotangents(np.ones(3))[0]
    array([2., 0., 1.])
    """

    def __init__(self, x: np.ndarray, footprint: np.ndarray, origins: Any, modes: Any, cval: Any, kind: str,
                 y: np.ndarray | None = None, structure: np.ndarray | None = None) -> None:
        self.shape = x.shape
        self.cval = cval
        footprint = np.asarray(footprint, dtype=bool)
        self.footprint_shape = footprint.shape
        source = np.arange(x.size).reshape(x.shape)
        for d, (L, o, mode) in enumerate(zip(footprint.shape, origins, modes)):
            c = L // 2 + int(o)
            source = extend(source, d, c, L - 1 - c, mode, -1)
        flat = x.reshape(-1)
        if kind == "match":
            assert y is not None
            values = np.where(source >= 0, flat[np.maximum(source, 0)], np.asarray(cval, dtype=x.dtype))
            values = values.astype(y.dtype, copy=False)
        else:
            values = np.where(source >= 0, flat[np.maximum(source, 0)].astype(np.float64), float(cval))
        positions = [tuple(p) for p in np.argwhere(footprint)]
        if kind == "match":
            positions += [tuple(p) for p in np.argwhere(~footprint)]
        self.positions = positions
        self.source = np.full(x.shape, _UNMATCHED, dtype=np.int64)
        self.offset = np.zeros(x.shape, dtype=np.int64)
        best = None
        structure_values = None if structure is None else np.asarray(structure, dtype=np.float64)
        for k, p in enumerate(positions):
            window = tuple(slice(q, q + n) for q, n in zip(p, x.shape))
            view, view_source = values[window], source[window]
            if kind == "match":
                chosen = (view == y) & (self.source == _UNMATCHED)
            else:
                candidate = view
                if structure_values is not None:
                    s = structure_values[p]
                    candidate = view + s if kind == "max" else view - s
                if best is None:
                    chosen = np.ones(x.shape, dtype=bool)
                    best = np.array(candidate, dtype=np.float64)
                else:
                    chosen = candidate > best if kind == "max" else candidate < best
                    best = np.where(chosen, candidate, best)
            self.source = np.where(chosen, view_source, self.source)
            self.offset = np.where(chosen, k, self.offset)
        self.sign = 1.0 if kind == "max" else -1.0

    def cotangents(self, dy: np.ndarray) -> tuple[np.ndarray, Any, np.ndarray]:
        """The cotangents of the input, of ``cval`` and of the structuring element (footprint's shape)."""
        dy = np.asarray(dy)
        inside = self.source >= 0
        dx = np.bincount(self.source[inside], weights=dy[inside], minlength=int(np.prod(self.shape)))
        dcval = dy[self.source == -1].sum()
        dstructure = np.zeros(self.footprint_shape)
        picked = self.source != _UNMATCHED
        per_offset = np.bincount(self.offset[picked], weights=dy[picked], minlength=len(self.positions))
        for k, p in enumerate(self.positions):
            dstructure[p] += self.sign * per_offset[k]
        return dx.reshape(self.shape), dcval, dstructure

    def tangent(self, dx: Any, dcval: Any, dstructure: Any) -> np.ndarray:
        """``dx_ext`` at the selected entries (``dcval`` at ``constant`` padding), plus ``sign ds``."""
        out = np.zeros(self.shape)
        if dx is not None:
            flat = np.asarray(dx, dtype=np.float64).reshape(-1)
            out = np.where(self.source >= 0, flat[np.maximum(self.source, 0)], 0.0)
        if dcval is not None:
            out = out + np.where(self.source == -1, float(dcval), 0.0)
        if dstructure is not None:
            ds = np.asarray(dstructure, dtype=np.float64)
            by_offset = np.array([ds[p] for p in self.positions]) if self.positions else np.zeros(0)
            out = out + self.sign * np.where(self.source != _UNMATCHED, by_offset[self.offset], 0.0)
        return out
