"""Grey-scale morphology of ``scipy.ndimage``: ``grey_erosion``, ``grey_dilation``, ``grey_opening``,
``grey_closing``, ``morphological_gradient``, ``morphological_laplace``, ``white_tophat`` and
``black_tophat``: with respect to the input, the structuring element and ``cval``.

The maths
---------
``grey_dilation`` is ``max_{j in F} x_ext[i + j - c] + s[j]`` and ``grey_erosion`` is
``min_{j in F} x_ext[i + j - c] - s[j]`` (Soille, *Morphological Image Analysis*, 2003, ch. 3;
SciPy reverses the footprint and the structuring element of a dilation and negates its
origin, and the rules follow it). Each is differentiable where the extremum is unique, with
the derivative of the selected term: ``1`` for that input sample (or ``cval``) and ``+1``
(dilation) or ``-1`` (erosion) for that entry of the structuring element
(:mod:`._selection`; at ties, the first footprint element in C order: a subgradient). The
others are compositions:

* ``grey_opening = dilation(erosion(x))``, ``grey_closing = erosion(dilation(x))``;
* ``morphological_gradient = dilation(x) - erosion(x)``,
  ``morphological_laplace = dilation(x) + erosion(x) - 2 x``;
* ``white_tophat = x - opening(x)``, ``black_tophat = closing(x) - x``,

and their rules chain the selections (the structuring element's cotangent collects both
steps'). ``size``, ``axes``, ``origin``, ``mode`` and ``output`` (``None`` or a dtype) are not
differentiated; a floating ``footprint`` is read as booleans, with a zero derivative.

Examples
--------
>>> import numpy as np
>>> import scipy.ndimage as ndi
>>> from chainrules import rrule, unthunk
>>> x, s = np.array([0.0, 3.0, 1.0]), np.array([0.5, 0.0, 0.25])
>>> y, pullback = rrule(ndi.grey_dilation, x, None, None, s, None, "nearest")
>>> y                                     # max(x[i-1] + s[2], x[i] + s[1], x[i+1] + s[0])
array([3.5 , 3.  , 3.25])
>>> dx, ds = (unthunk(c) for c in pullback(np.ones(3))[1:5:3])
>>> dx, ds                                # every maximum reads x[1], through s[0], s[1], s[2] in turn
(array([0., 3., 0.]), array([1., 1., 1.]))
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.ndimage as ndi

from chainrules.rulesets.ndimage._boundary import check_output
from chainrules.rulesets.ndimage._rules import make_pullback, memoized, output_tangent, tangent_array, tangent_value
from chainrules.rulesets.ndimage._samples import modes_samples
from chainrules.rulesets.ndimage._selection import Selection
from chainrules.rulesets.ndimage.correlation import normalize_axes
from chainrules.rulesets.ndimage.rank_filters import _distinct, min_max_geometry
from chainrules.rulesets.ndimage.smoothing import per_axis
from chainrules_core import NotImplementedTangent, Sample, ZeroTangent, frule, rrule, sample_inputs

__all__: list[str] = []

_PROGRAMS: dict[Any, tuple[list[tuple[str, int]], tuple[float, ...]]] = {
    # steps: (operation, input slot: 0 is x, k > 0 the k-th step's output); output: coefficients on the slots
    ndi.grey_erosion: ([("erosion", 0)], (0.0, 1.0)),
    ndi.grey_dilation: ([("dilation", 0)], (0.0, 1.0)),
    ndi.grey_opening: ([("erosion", 0), ("dilation", 1)], (0.0, 0.0, 1.0)),
    ndi.grey_closing: ([("dilation", 0), ("erosion", 1)], (0.0, 0.0, 1.0)),
    ndi.morphological_gradient: ([("dilation", 0), ("erosion", 0)], (0.0, 1.0, -1.0)),
    ndi.morphological_laplace: ([("dilation", 0), ("erosion", 0)], (-2.0, 1.0, 1.0)),
    ndi.white_tophat: ([("erosion", 0), ("dilation", 1)], (1.0, 0.0, -1.0)),
    ndi.black_tophat: ([("dilation", 0), ("erosion", 1)], (-1.0, 0.0, 1.0)),
}
"""Each function as erosions and dilations and a linear combination of their results."""


def _reversed(a: np.ndarray) -> np.ndarray:
    return a[(slice(None, None, -1),) * a.ndim]


class _Morphology:
    """One call of a grey-scale morphology function: its steps' selections and how to read them back."""

    def __init__(self, f: Any, input: Any, size: Any, footprint: Any, structure: Any, output: Any, mode: Any,
                 cval: Any, origin: Any, axes: Any) -> None:
        check_output(f, output)
        self.y = f(input, size, footprint, structure, output, mode, cval, origin, axes=axes)
        x = np.asarray(input)
        self.x = x
        self.structure_shape = None if structure is None else np.shape(structure)
        steps, self.coefficients = _PROGRAMS[f]
        self.steps = steps
        args = (size, footprint, structure, None, mode, cval, origin)
        slots: list[np.ndarray] = [x]
        self.selections: list[Selection] = []
        for operation, source in steps:
            image = slots[source]
            if operation == "erosion":
                geometry = min_max_geometry(image, size, footprint, structure, mode, origin, axes)
                result = ndi.grey_erosion(image, *args, axes=axes)
                kind = "min"
            else:
                fp, st, origins = _dilation_arguments(image.ndim, size, footprint, structure, origin, axes)
                geometry = min_max_geometry(image, size, fp, st, mode, origins, axes)
                result = ndi.grey_dilation(image, *args, axes=axes)
                kind = "max"
            fp_full, origins_full, modes_full, structure_full = geometry
            self.selections.append(Selection(image, fp_full, origins_full, modes_full, cval, kind,
                                             structure=structure_full))
            slots.append(result)

    def _structure_of(self, ds: np.ndarray, operation: str) -> np.ndarray:
        """A step's structuring-element cotangent (over every axis) as one of the user's structure."""
        assert self.structure_shape is not None
        ds = ds.reshape(self.structure_shape)
        return _reversed(ds) if operation == "dilation" else ds

    def cotangents(self, dy: np.ndarray) -> tuple[Any, Any, Any]:
        """The cotangents of the input, ``cval`` and the structuring element."""
        n = len(self.steps)
        slot_bars: list[Any] = [None] * (n + 1)
        for k, c in enumerate(self.coefficients):
            if c:
                slot_bars[k] = c * dy
        dcval: Any = 0.0
        dstructure: Any = None
        for k in reversed(range(n)):
            bar = slot_bars[k + 1]
            if bar is None:
                continue
            operation, source = self.steps[k]
            dimage, dc, ds = self.selections[k].cotangents(bar)
            slot_bars[source] = dimage if slot_bars[source] is None else slot_bars[source] + dimage
            dcval = dcval + dc
            if self.structure_shape is not None:
                ds = self._structure_of(ds, operation)
                dstructure = ds if dstructure is None else dstructure + ds
        return slot_bars[0], dcval, dstructure

    def tangent(self, dx: Any, dcval: Any, dstructure: Any) -> Any:
        slots: list[Any] = [dx]
        for k, (operation, source) in enumerate(self.steps):
            ds = None
            if dstructure is not None and self.structure_shape is not None:
                ds = np.asarray(dstructure, dtype=np.float64)
                ds = (_reversed(ds) if operation == "dilation" else ds).reshape(self.selections[k].footprint_shape)
            if slots[source] is None and dcval is None and ds is None:
                slots.append(None)
            else:
                slots.append(self.selections[k].tangent(slots[source], dcval, ds))
        value: Any = None
        for c, t in zip(self.coefficients, slots):
            if c and t is not None:
                value = c * t if value is None else value + c * t
        return output_tangent(value, self.y)


def _dilation_arguments(ndim: int, size: Any, footprint: Any, structure: Any, origin: Any,
                        axes: Any) -> tuple[Any, Any, list[int]]:
    """The footprint, structuring element and origins ``grey_dilation`` hands to the maximum filter:
    both reversed, each origin negated (one less along an axis of even length)."""
    st = None if structure is None else _reversed(np.asarray(structure))
    fp = None if footprint is None else _reversed(np.asarray(footprint))
    chosen = normalize_axes(axes, ndim)
    origins = [-int(o) for o in per_axis(origin, len(chosen))]
    for i in range(len(origins)):
        if fp is not None:
            length = fp.shape[i]
        elif st is not None:
            length = st.shape[i]
        else:
            length = int(per_axis(size, len(chosen))[i])
        if not length & 1:
            origins[i] -= 1
    return fp, st, origins


def _rrule(f: Any, input: Any, size: Any, footprint: Any, structure: Any, output: Any, mode: Any, cval: Any,
           origin: Any, axes: Any) -> Any:
    call = _Morphology(f, input, size, footprint, structure, output, mode, cval, origin, axes)

    def all_cotangents(dy: np.ndarray, memo: dict[str, Any]) -> Any:
        return memoized(memo, "all", lambda: call.cotangents(dy))

    def input_cotangent(dy: np.ndarray, memo: dict[str, Any]) -> Any:
        return all_cotangents(dy, memo)[0]

    def cval_cotangent(dy: np.ndarray, memo: dict[str, Any]) -> Any:
        return all_cotangents(dy, memo)[1]

    def structure_cotangent(dy: np.ndarray, memo: dict[str, Any]) -> Any:
        return all_cotangents(dy, memo)[2]

    def zero_cotangent(dy: np.ndarray, memo: dict[str, Any]) -> Any:
        return ZeroTangent()

    values = (input, size, footprint, structure, output, mode, cval, origin)
    cotangents = {0: input_cotangent, 2: zero_cotangent, 3: structure_cotangent, 6: cval_cotangent}
    return call.y, make_pullback(f, f.__name__, call.y, values, cotangents)


def _frule(f: Any, tangents: Any, input: Any, size: Any, footprint: Any, structure: Any, output: Any, mode: Any,
           cval: Any, origin: Any, axes: Any) -> Any:
    call = _Morphology(f, input, size, footprint, structure, output, mode, cval, origin, axes)
    dx, ds = tangent_array(tangents[1], input), tangent_array(tangents[4], structure)
    dc = tangent_value(tangents[7])
    for t in (dx, ds, dc):
        if isinstance(t, NotImplementedTangent):
            return call.y, t
    return call.y, call.tangent(dx, dc, ds)


def _register(f: Any) -> None:
    name = f.__name__

    def rule_rrule(input: Any, size: Any = None, footprint: Any = None, structure: Any = None, output: Any = None,
                   mode: Any = "reflect", cval: Any = 0.0, origin: Any = 0, *, axes: Any = None) -> Any:
        return _rrule(f, input, size, footprint, structure, output, mode, cval, origin, axes)

    def rule_frule(tangents: Any, input: Any, size: Any = None, footprint: Any = None, structure: Any = None,
                   output: Any = None, mode: Any = "reflect", cval: Any = 0.0, origin: Any = 0, *,
                   axes: Any = None) -> Any:
        return _frule(f, tangents, input, size, footprint, structure, output, mode, cval, origin, axes)

    rule_rrule.__name__ = rule_rrule.__qualname__ = f"{name}_rrule"
    rule_frule.__name__ = rule_frule.__qualname__ = f"{name}_frule"
    rule_rrule.__doc__ = f"Reverse rule of ``scipy.ndimage.{name}``: the input, the structuring element and ``cval``."
    rule_frule.__doc__ = f"Forward rule of ``scipy.ndimage.{name}``: the input, the structuring element and ``cval``."
    rrule.register(f)(rule_rrule)
    frule.register(f)(rule_frule)


for _f in _PROGRAMS:
    _register(_f)


# ---- sample inputs ----------------------------------------------------------------------------------
@sample_inputs(ndi.grey_erosion, ndi.grey_dilation)
def _morphology_samples(rng: np.random.Generator) -> list[Sample]:
    x = _distinct(rng, (4, 5))
    structure = 0.1 * rng.standard_normal((3, 2))
    cross = np.array([[0, 1, 0], [1, 1, 1], [0, 1, 0]], dtype=bool)
    out = modes_samples(x, None, None, structure, None, cval=9.6)
    out += [Sample(x, 3, label="size 3 (flat)"), Sample(x, None, cross, label="a footprint"),
            Sample(x, (2, 3), None, None, None, ("wrap", "nearest"), 0.0, (0, -1),
                   label="per-axis sizes and origins, a mode per axis"),
            Sample(x, None, cross, 0.1 * rng.standard_normal((3, 3)), None, "mirror", 0.0, 1,
                   label="footprint, structure and origin"),
            Sample(x, fkwargs={"structure": structure, "mode": "constant", "cval": 2.4, "origin": (1, 0)},
                   label="options by keyword"),
            Sample(x, None, None, rng.standard_normal(2) * 0.1, fkwargs={"axes": (1,)}, label="one axis"),
            Sample(x, None, np.ones((2, 2)), label="a floating all-true footprint (a zero derivative)"),
            Sample(x.astype(np.float32), None, None, structure.astype(np.float32), None, "constant",
                   np.float32(6.6), label="float32"),
            Sample(x, None, None, np.array([[1, 0], [2, 1]]), label="an integer structure (not differentiated)")]
    return out


@sample_inputs(*(f for f in _PROGRAMS if f not in (ndi.grey_erosion, ndi.grey_dilation)))
def _compound_samples(rng: np.random.Generator) -> list[Sample]:
    """The compound operations run the erosion and dilation above (every mode checked there): one
    point per kind of argument, to check how they are combined."""
    x = _distinct(rng, (4, 5))
    structure = 0.1 * rng.standard_normal((3, 2))
    return [Sample(x, None, None, structure, label="a structure"),
            Sample(x, None, np.array([[0, 1, 0], [1, 1, 1], [0, 1, 0]], dtype=bool),
                   0.1 * rng.standard_normal((3, 3)), None, "mirror", 0.0, 1, label="footprint, structure and origin"),
            Sample(x, fkwargs={"structure": structure, "mode": "constant", "cval": 2.4, "origin": (1, 0)},
                   label="constant mode, options by keyword"),
            Sample(x.astype(np.float32), None, None, structure.astype(np.float32), None, "wrap",
                   label="float32, wrap")]
