"""Rank statistics of ``scipy.stats`` (``rankdata``, ``spearmanr``, ``kendalltau``: non-differentiable) and
``mode`` (a selection of the data).

Ranks are piecewise constant functions of the data: they change only where two entries
cross. Every statistic built from ranks alone (the ranks themselves, Spearman's rho,
Kendall's tau and their p-values) therefore has derivative zero wherever it is
differentiable and jumps elsewhere; their rules give ``NoTangent()`` to every argument, so
a gradient-based method gets no signal from them (use a smooth surrogate such as
``pearsonr`` of the data, or a soft ranking).

``mode`` is different: its ``mode`` field *is* an entry of the data (the smallest of the
most frequent values), so it moves with that entry, and only its ``count`` is an integer
(``NoTangent()``). Where the most frequent value is unique to one entry (every entry
distinct, the usual case for continuous data), ``mode`` is the minimum of the slice and
its cotangent goes to that entry. Where the mode is shared by several tied entries the
function is discontinuous (moving one of them alone lowers its count), and the rule
shares the cotangent equally among them: the derivative along moving them together, the
convention of the extrema rules (:mod:`chainrules.rulesets.reductions.extrema`).

Examples
--------
>>> import numpy as np, scipy.stats as st
>>> import chainrules
>>> from chainrules import rrule, Tangent
>>> y, pullback = rrule(st.rankdata, np.array([0.3, 0.1, 0.2]))
>>> y, pullback(np.ones(3))
(array([3., 1., 2.]), (NoTangent(), NoTangent()))
>>> res, pullback = rrule(st.mode, np.array([0.3, 0.1, 0.2]))
>>> pullback(Tangent(type(res), mode=1.0))[1]  # the mode of distinct values is their minimum
array([0., 1., 0.])
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import scipy.stats as st

from chainrules.rulesets.stats._calls import ABSENT, bind, primal_args
from chainrules.rulesets.stats._slices import (
    NO,
    Slices,
    argument_cotangent,
    check_nan_policy,
    fit_output,
    tangent_value,
    zero_like,
)
from chainrules_core import (
    NotImplementedTangent,
    Sample,
    Tangent,
    differentiable,
    frule,
    non_differentiable,
    passes_through,
    read_cotangents,
    rrule,
    sample_inputs,
)

__all__ = ["mode_frule", "mode_rrule"]

for _f in (st.rankdata, st.spearmanr, st.kendalltau):
    non_differentiable(_f)

_MODE = ("a", "axis", "nan_policy")
_MODE_DEFAULTS = {"axis": 0, "nan_policy": "propagate", "keepdims": False}


def _mode_shares(a: Any, mode: Any, b: dict[str, Any]) -> tuple[Slices, np.ndarray]:
    """The equal shares of the entries of each slice equal to its mode (slice layout)."""
    s = Slices(a, b["axis"], check_nan_policy(st.mode, b["nan_policy"]))
    hit = s.masked((s.x.real == s.lift(mode)).astype(np.float64))
    with np.errstate(invalid="ignore", divide="ignore"):
        return s, hit / np.sum(hit, axis=-1, keepdims=True)


def mode_rrule(a: Any, axis: Any = ABSENT, nan_policy: Any = ABSENT, /,
               **kwargs: Any) -> tuple[Any, Callable[[Any], tuple[Any, ...]]]:
    """Reverse rule of ``scipy.stats.mode`` (see the module docstring)."""
    res = st.mode(a, *primal_args(axis, nan_policy), **kwargs)
    b = bind(_MODE, _MODE_DEFAULTS, (a, axis, nan_policy), kwargs)

    def mode_pullback(dres: Any) -> tuple[Any, ...]:
        parts = read_cotangents(dres, res, st.mode)
        if not differentiable(a):
            return NO, NO, NO, NO
        if passes_through(parts):
            return NO, parts if isinstance(parts, NotImplementedTangent) else zero_like(a), NO, NO
        if parts[0] is None:
            return NO, zero_like(a), NO, NO
        s, shares = _mode_shares(a, res.mode, b)
        return NO, argument_cotangent(a, s.restore(shares * s.lift(parts[0]))), NO, NO

    return res, mode_pullback


def mode_frule(tangents: tuple[Any, ...], a: Any, axis: Any = ABSENT, nan_policy: Any = ABSENT, /,
               **kwargs: Any) -> tuple[Any, Any]:
    """Forward rule of ``scipy.stats.mode``: a ``Tangent`` of the ``ModeResult``."""
    res = st.mode(a, *primal_args(axis, nan_policy), **kwargs)
    b = bind(_MODE, _MODE_DEFAULTS, (a, axis, nan_policy), kwargs)
    da = tangent_value(tangents[1]) if differentiable(a) else None
    if isinstance(da, NotImplementedTangent):
        return res, da
    if da is None:
        return res, Tangent(type(res), mode=fit_output(None, res.mode), count=NO)
    s, shares = _mode_shares(a, res.mode, b)
    with np.errstate(invalid="ignore"):
        dmode = np.sum(shares * s.masked(s.take(da).real), axis=-1)
    return res, Tangent(type(res), mode=fit_output(dmode, res.mode), count=NO)


rrule.register(st.mode)(mode_rrule)
frule.register(st.mode)(mode_frule)


@sample_inputs(st.rankdata)
def _rankdata_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(rng.standard_normal(5)), Sample(rng.standard_normal((2, 3)), fkwargs={"axis": 1}, label="rows")]


@sample_inputs(st.mode)
def _mode_samples(rng: np.random.Generator) -> list[Sample]:
    x = rng.standard_normal((4, 3))
    return [Sample(x[:, 0], label="distinct values (the minimum)"), Sample(x, 1, label="rows, axis by position"),
            Sample(x.astype(np.float32), fkwargs={"keepdims": True}, label="float32, keepdims"),
            Sample(np.array([1, 2, 2, 3]), label="integer data (NoTangent)")]


@sample_inputs(st.spearmanr, st.kendalltau)
def _two_samples(rng: np.random.Generator) -> list[Sample]:
    x = rng.standard_normal(6)
    return [Sample(x, x + rng.standard_normal(6))]
