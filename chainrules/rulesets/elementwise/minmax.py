"""Elementwise extrema: maximum, minimum, fmax, fmin, clip (and ``ndarray.clip``).

The output is one of the inputs, so its cotangent goes to the input it came from.

The subgradient convention: ties share equally
----------------------------------------------
Where the arguments tie (``x1 == x2``) the functions are not differentiable; the rules
then **split the cotangent equally**: each argument gets half (the minimum-norm
subgradient, the convention of JAX, PyTorch and autograd, and of this library's ``np.max``
reduction). The pushforward is the matching mean of the two tangents. ``abs`` at ``0``
and ``hypot`` at the origin follow the same principle (a zero derivative).

NaN
---
``maximum``/``minimum`` propagate NaN: the cotangent goes to the NaN argument (to the first
one if both are NaN). ``fmax``/``fmin`` ignore NaN: the cotangent goes to the other
argument.

clip
----
``np.clip(a, a_min, a_max)`` is differentiated as NumPy defines it,
``minimum(a_max, maximum(a, a_min))``, with the convention above: inside the interval the
cotangent goes to ``a``, outside to the bound that was hit, and at a bound it is split
between ``a`` and that bound. Bounds may be ``None``, scalars or arrays (broadcast); they
are differentiated when given by position (``a_min``/``a_max``) and never when given as
keywords (``min=``, ``max=``, ``a_min=``...). ``out=`` raises
:class:`~chainrules_core.UnsupportedKeywordError`. Complex inputs (ordered
lexicographically by NumPy) are accepted.

Examples
--------
>>> import numpy as np
>>> import chainrules
>>> from chainrules import rrule, unthunk
>>> y, pullback = rrule(np.maximum, np.array([1.0, 2.0, 3.0]), 2.0)
>>> _, dx1, dx2 = pullback(np.ones(3))
>>> unthunk(dx1), unthunk(dx2)
(array([0. , 0.5, 1. ]), 1.5)
>>> y, pullback = rrule(np.clip, np.array([-1.0, 0.5, 2.0]), 0.0, 1.0)
>>> [unthunk(c) for c in pullback(np.ones(3))[1:]]
[array([0., 1., 0.]), 1.0, 1.0]
"""

from __future__ import annotations

import functools
import numbers
from collections.abc import Callable
from typing import Any

import numpy as np

from chainrules.rulesets._samples import elementwise_samples
from chainrules_core import (
    AbstractZero,
    NotImplementedTangent,
    Sample,
    Thunk,
    UnsupportedKeywordError,
    differentiable,
    frule,
    read_cotangent,
    rrule,
    sample_inputs,
    scalar_rule,
    unthunk,
)
from chainrules_core.scalar_rules import (
    NO,
    NUMERIC,
    ZERO_TANGENT,
    check_ufunc_keywords,
    fit_tangent,
    is_zero_tangent,
    project_argument,
)


def real_dtype(y: Any) -> np.dtype:
    """The real dtype of the output (the dtype of the selection weights)."""
    dtype = np.result_type(y)
    if dtype.kind == "c":
        return np.finfo(dtype).dtype
    return dtype if dtype.kind == "f" else np.dtype(np.float64)


def selection_weight(x1: Any, x2: Any, y: Any, wins: Callable[[Any, Any], Any], nan_wins: Any) -> Any:
    """The share of ``x1`` in a binary extremum: 1 where it wins, 1/2 where it ties, else 0.

    ``wins(x1, x2)`` says where ``x1`` is strictly selected; where ``nan_wins`` (an
    argument) is NaN, ``x1`` is selected (``maximum(nan, x)``, ``fmax(x, nan)``). Without
    ties the share is returned as booleans (no float array is built; ``bool * dy`` is the
    cotangent), with ties in the real dtype of ``y``.
    """
    selected = wins(x1, x2)
    nan = np.isnan(nan_wins)
    if np.any(nan):
        selected = selected | nan
    ties = np.equal(x1, x2)
    if not np.any(ties):
        return selected
    weight = np.asarray(selected, dtype=real_dtype(y))
    weight[np.broadcast_to(ties, weight.shape)] = 0.5
    return weight[()]


def complement(w: Any) -> Any:
    """``1 - w`` for a share ``w`` (booleans stay booleans)."""
    return np.logical_not(w) if np.result_type(w) == np.bool_ else 1 - w


def _product(a: Any, b: Any) -> Any:
    """``a * b`` for shares (booleans stay booleans)."""
    return np.logical_and(a, b) if np.result_type(a) == np.bool_ == np.result_type(b) else a * b


def _extremum_partials(wins: Callable[[Any, Any], Any], nan_is_first: bool) -> dict[str, Any]:
    """The ``scalar_rule`` arguments of a binary extremum: the shared weight and two partials."""

    def weight(x1: Any, x2: Any, y: Any) -> Any:
        return selection_weight(x1, x2, y, wins, x1 if nan_is_first else x2)

    def first_partial(x1: Any, x2: Any, y: Any, w: Any) -> Any:
        return w

    def second_partial(x1: Any, x2: Any, y: Any, w: Any) -> Any:
        return complement(w)

    return {"partials": (first_partial, second_partial), "shared": weight}


EXTREMA: dict[Any, dict[str, Any]] = {
    np.maximum: _extremum_partials(np.greater, nan_is_first=True),
    np.minimum: _extremum_partials(np.less, nan_is_first=True),
    np.fmax: _extremum_partials(np.greater, nan_is_first=False),
    np.fmin: _extremum_partials(np.less, nan_is_first=False),
}
"""The partials (selection weights) of the ufuncs of this module and the work they share, by ufunc."""

for _f, _rule in EXTREMA.items():
    scalar_rule(_f, *_rule["partials"], shared=_rule["shared"])


# ---- clip ---------------------------------------------------------------------------------------------
_NOVALUE: Any = np._NoValue
BOUND = (numbers.Number, np.ndarray, type(None))
"""Types of a bound of ``clip``: numbers, arrays, or ``None`` (no bound)."""


def _bound(positional: Any, kwargs: dict[str, Any], *names: str) -> Any:
    """The effective bound: given by position, else by one of the keyword ``names``, else ``None``."""
    if positional is not _NOVALUE and positional is not None:
        return positional
    for name in names:
        value = kwargs.get(name, _NOVALUE)
        if value is not _NOVALUE and value is not None:
            return value
    return None


class ClipWeights:
    """The shares of ``a``, ``a_min`` and ``a_max`` in ``minimum(a_max, maximum(a, a_min))``.

    Computed when the first share is asked for and kept. With scalar bounds and
    ``a_min < a_max`` (the common case) the shares are read off three comparisons of ``a``
    (inside, below, above) and its ties with the bounds; otherwise from the two selections
    of the composition. Shares are booleans unless there are ties.
    """

    def __init__(self, a: Any, lo: Any, hi: Any, y: Any) -> None:
        self.a, self.lo, self.hi, self.y = a, lo, hi, y
        self._shares: dict[int, Any] = {}
        self._parts: tuple[Any, ...] | None = None
        self.simple = all(b is None or np.ndim(b) == 0 for b in (lo, hi)) and (
            lo is None or hi is None or bool(np.less(lo, hi)))

    def _simple_parts(self) -> tuple[Any, ...]:
        """Ties of ``a`` with each bound and the NaN entries of ``a`` (``None`` where there are none)."""
        if self._parts is None:
            a, lo, hi = self.a, self.lo, self.hi
            ties_lo = None if lo is None else np.equal(a, lo)
            ties_hi = None if hi is None else np.equal(a, hi)
            nan = np.isnan(a)
            self._parts = tuple(p if p is not None and np.any(p) else None for p in (ties_lo, ties_hi, nan))
        return self._parts

    def _selections(self) -> tuple[Any, Any]:
        """The share of ``a`` in ``maximum(a, a_min)`` and of ``a_max`` in the final ``minimum``."""
        if self._parts is None:
            a, lo, hi, y = self.a, self.lo, self.hi, self.y
            if lo is None:
                w_a_in_m, m = np.True_, a
            else:
                w_a_in_m = selection_weight(a, lo, y, np.greater, a)
                m = np.maximum(a, lo)
            w_hi = np.False_ if hi is None else selection_weight(hi, m, y, np.less, hi)
            self._parts = (w_a_in_m, w_hi)
        return self._parts  # type: ignore[return-value]

    def share(self, k: int) -> Any:
        """The share of ``a`` (``k = 0``), ``a_min`` (1) or ``a_max`` (2)."""
        if k not in self._shares:
            self._shares[k] = self._simple_share(k) if self.simple else self._composed_share(k)
        return self._shares[k]

    def _composed_share(self, k: int) -> Any:
        w_a_in_m, w_hi = self._selections()
        if k == 2:
            return w_hi
        w_m = complement(w_hi)
        return _product(w_m, w_a_in_m if k == 0 else complement(w_a_in_m))

    def _simple_share(self, k: int) -> Any:
        a, lo, hi = self.a, self.lo, self.hi
        ties_lo, ties_hi, nan = self._simple_parts()
        if k == 0:
            share = np.greater(a, lo) if lo is not None else np.True_
            if hi is not None:
                share = share & np.less(a, hi)
            ties = [t for t in (ties_lo, ties_hi) if t is not None]
        else:
            share = np.less(a, lo) if k == 1 else np.greater(a, hi)
            ties = [t for t in ((ties_lo,) if k == 1 else (ties_hi,)) if t is not None]
        if not ties and (nan is None or k != 0):
            return share
        weight = np.asarray(np.broadcast_to(share, np.shape(a)), dtype=real_dtype(self.y))
        for t in ties:
            weight[t] = 0.5
        if nan is not None and k == 0:
            weight[nan] = 1.0
        return weight[()]


def _clip_call(clip: Any, a: Any, a_min: Any, a_max: Any, kwargs: dict[str, Any]) -> Any:
    positional = [v for v in (a_min, a_max) if v is not _NOVALUE]
    if a_max is not _NOVALUE and a_min is _NOVALUE:
        positional = [None, a_max]
    return clip(a, *positional, **kwargs)


def _check_clip(clip: Any, out: Any, kwargs: dict[str, Any]) -> None:
    if out is not None:
        raise UnsupportedKeywordError(f"{getattr(clip, '__qualname__', 'clip')}: the keyword out= is not "
                                      "differentiable; call without it")
    check_ufunc_keywords(clip, kwargs)


def _clip_rules(clip: Any, name: str, min_names: tuple[str, ...], max_names: tuple[str, ...],
                types: tuple[Any, ...]) -> None:
    """Register the rules of ``np.clip`` or ``ndarray.clip`` (which name the bounds differently)."""

    def clip_rrule(a: Any, a_min: Any = _NOVALUE, a_max: Any = _NOVALUE, out: Any = None, **kwargs: Any) -> Any:
        _check_clip(clip, out, kwargs)
        y = _clip_call(clip, a, a_min, a_max, kwargs)
        lo, hi = _bound(a_min, kwargs, *min_names), _bound(a_max, kwargs, *max_names)
        live = differentiable(y)
        diff = [live and differentiable(v) for v in (a, lo, hi)]
        weights = ClipWeights(a, lo, hi, y)

        def cotangent(k: int, dy: Any) -> Any:
            return project_argument((a, lo, hi)[k], weights.share(k) * dy)

        def clip_pullback(dy: Any) -> tuple[Any, ...]:
            dy = read_cotangent(dy, y, clip)
            if isinstance(dy, (AbstractZero, NotImplementedTangent)):
                zero = ZERO_TANGENT if isinstance(dy, AbstractZero) else dy
                return (NO, *(zero if d else NO for d in diff), NO)
            return (NO, *(Thunk(functools.partial(cotangent, k, dy)) if diff[k] else NO for k in range(3)), NO)

        clip_pullback.__name__ = clip_pullback.__qualname__ = f"{name}_pullback"
        return y, clip_pullback

    def clip_frule(tangents: Any, a: Any, a_min: Any = _NOVALUE, a_max: Any = _NOVALUE, out: Any = None,
                   **kwargs: Any) -> Any:
        _check_clip(clip, out, kwargs)
        y = _clip_call(clip, a, a_min, a_max, kwargs)
        if not differentiable(y):
            return y, NO
        lo, hi = _bound(a_min, kwargs, *min_names), _bound(a_max, kwargs, *max_names)
        # Bounds given as keywords have no tangent: only the first three tangents can count.
        values = (a, a_min if a_min is not _NOVALUE else None, a_max if a_max is not _NOVALUE else None)
        weights = ClipWeights(a, lo, hi, y)
        total: Any = None
        for k in range(3):
            dx = unthunk(tangents[1 + k])
            if is_zero_tangent(dx) or values[k] is None or not differentiable(values[k]):
                continue
            if isinstance(dx, NotImplementedTangent):
                return y, dx
            term = weights.share(k) * dx
            total = term if total is None else total + term
        return y, ZERO_TANGENT if total is None else fit_tangent(total, y)

    clip_rrule.__name__ = clip_rrule.__qualname__ = f"{name}_rrule"
    clip_frule.__name__ = clip_frule.__qualname__ = f"{name}_frule"
    rrule.register(clip, *types)(clip_rrule)
    frule.register(clip, *types)(clip_frule)


_clip_rules(np.clip, "clip", ("a_min", "min"), ("a_max", "max"), (NUMERIC, BOUND, BOUND, object))
_clip_rules(np.ndarray.clip, "ndarray.clip", ("min",), ("max",), (np.ndarray, BOUND, BOUND, object))


# ---- sample inputs ----------------------------------------------------------------------------------
_X1 = np.array([[0.7, -1.3, 2.1], [-0.4, 1.8, -2.6]])
_X2 = np.array([0.2, -1.3, 2.5])  # ties with the first argument in the middle column


@sample_inputs(np.maximum, np.minimum, np.fmax, np.fmin)
def _extremum_samples(rng: np.random.Generator) -> list[Sample]:
    return [*elementwise_samples(_X1, _X2, rng=rng),
            Sample(np.array([1.0, -2.0]), np.array([1.0, -2.0]), label="all ties: the cotangent is split"),
            Sample(_X1, 0.5, label="a scalar bound")]


_A = np.array([[-1.5, -0.3, 0.2], [0.5, 0.9, 1.6]])


@sample_inputs(np.clip)
def _clip_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(_A, -0.5, 1.0, label="below, inside and above scalar bounds"),
            Sample(_A.astype(np.float32), np.float32(-0.5), np.float32(1.0), label="float32"),
            Sample(_A, 0.5, 0.9, label="ties with both bounds (the cotangent is split)"),
            Sample(_A, None, 0.4, label="no lower bound"), Sample(_A, -0.2, None, label="no upper bound"),
            Sample(_A, np.array([-1.0, 0.0, 0.1]), np.array([[0.0], [1.0]]), label="array bounds, broadcast"),
            Sample(_A, np.array([-1.0, 0.0, 0.1]), -0.5, label="crossed bounds (a_min > a_max)"),
            Sample(_A, fkwargs={"a_min": -0.5, "a_max": 1.0}, label="bounds by keyword (not differentiated)"),
            Sample(_A, fkwargs={"min": -0.5}, label="NumPy 2's min= keyword"),
            Sample(_A + 0.25j * _A[::-1], -0.5, 1.0, label="complex (ordered lexicographically)")]


@sample_inputs(np.ndarray.clip)
def _clip_method_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(_A, -0.5, 1.0, label="bounds by position"),
            Sample(_A, fkwargs={"min": -0.5, "max": 0.9}, label="bounds by keyword")]
