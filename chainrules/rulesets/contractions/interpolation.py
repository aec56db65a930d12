"""``np.interp(x, xp, fp, left=None, right=None, period=None)``: piecewise-linear interpolation,
with respect to the query points ``x``, the knots ``xp``, the values ``fp`` (real or complex),
``left``, ``right`` and ``period``.

The maths
---------
NumPy finds for each ``x`` the segment ``j`` with ``xp[j] <= x < xp[j+1]`` and returns
``y = fp[j] + t (fp[j+1] - fp[j])`` with ``t = (x - xp[j]) / (xp[j+1] - xp[j])``; below
``xp[0]`` it returns ``left`` (default ``fp[0]``), above ``xp[-1]`` ``right`` (default
``fp[-1]``), and at ``x == xp[-1]`` exactly ``fp[-1]``. With the slope
``s = (fp[j+1] - fp[j]) / (xp[j+1] - xp[j])``, the partial derivatives inside a segment are

* ``dy/dx = s``;
* ``dy/dfp[j] = 1 - t`` and ``dy/dfp[j+1] = t`` (the cotangent of ``fp`` is a scatter-add
  of ``(1 - t) dy`` and ``t dy`` onto the two knots, ``np.bincount``);
* ``dy/dxp[j] = -(1 - t) s`` and ``dy/dxp[j+1] = -t s`` (the chain rule through ``t``).

Outside the knots ``y`` is ``left``, ``right`` or an end value, constant in ``x``. The
segment search is locally constant, so it is not differentiated: at a knot the derivative
is the one-sided derivative of the segment NumPy picks (the segment to the right of the
knot; at ``xp[-1]`` and beyond, the constant extension). ``xp`` must be increasing, as
NumPy requires (it does not check).

With ``period``, NumPy reduces ``x`` and ``xp`` modulo ``|period|``, sorts the knots and adds
one periodic copy of the last knot before the first and of the first after the last; the
rule follows the same construction: ``x mod p`` has derivative 1 in ``x`` and
``-floor(x / p)`` in ``p``, the sort permutes the knots' cotangents back, and the two
copies contribute to their originals (and ``-1``/``+1`` times their cotangent to ``p``).
``left`` and ``right`` are ignored with ``period``, as in NumPy.
"""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np

from chainrules.rulesets.contractions._multilinear import lazy_cotangent, sum_tangents
from chainrules.rulesets.reductions._tangent_values import passed_on, tangent_value
from chainrules_core import (
    NUMERIC,
    NoTangent,
    ProjectTo,
    Sample,
    ZeroTangent,
    cotangent_projector,
    frule,
    passes_through,
    read_cotangent,
    rrule,
    sample_inputs,
)
from chainrules_core.scalar_rules import conj_if_complex

_OPTIONAL_NUMBER = (numbers.Number, np.ndarray, type(None))


def _scatter(index: np.ndarray, weights: np.ndarray, n: int) -> np.ndarray:
    """``out[index[k]] += weights[k]`` for real or complex weights (``np.bincount``)."""
    if np.iscomplexobj(weights):
        return _scatter(index, weights.real, n) + 1j * _scatter(index, weights.imag, n)
    return np.bincount(index.ravel(), weights=weights.ravel(), minlength=n)


class LinearInterpolation:
    """The segment geometry of ``np.interp(x, xp, fp, left, right)`` (no period) and its derivatives.

    Examples
    --------
    >>> lin = LinearInterpolation(np.array([0.5, 2.0]), np.array([0.0, 1.0]), np.array([1.0, 3.0]), None, None)
    >>> lin.cotangent_fp(np.array([1.0, 1.0]))
    array([0.5, 1.5])
    """

    def __init__(self, x: Any, xp: Any, fp: Any, left: Any, right: Any) -> None:
        self.x = np.asarray(x, dtype=np.float64)
        self.xp = np.asarray(xp, dtype=np.float64)
        self.fp = np.asarray(fp)
        self.left, self.right = left, right
        n = self.xp.size
        j = np.searchsorted(self.xp, self.x, side="right") - 1
        self.below = j < 0
        self.inside = (j >= 0) & (j < n - 1)
        self.above = (j == n - 1) & (self.x > self.xp[-1])
        self.at_end = (j == n - 1) & ~self.above
        self.j = np.clip(j, 0, max(n - 2, 0))
        if n > 1:
            width = self.xp[self.j + 1] - self.xp[self.j]
            self.t = np.where(self.inside, (self.x - self.xp[self.j]) / width, 0.0)
            self.slope = np.where(self.inside, (self.fp[self.j + 1] - self.fp[self.j]) / width, 0.0)
        else:
            self.t = np.zeros(self.x.shape)
            self.slope = np.zeros(self.x.shape, dtype=np.result_type(self.fp, np.float64))

    def _masks_of_ends(self) -> tuple[np.ndarray, np.ndarray]:
        """Where ``y`` is ``fp[0]`` and where it is ``fp[-1]`` outside the segments."""
        first = self.below if self.left is None else np.zeros_like(self.below)
        last = self.at_end | (self.above if self.right is None else np.zeros_like(self.above))
        return first, last

    def _inside(self, dy: Any) -> np.ndarray:
        return np.where(self.inside, np.broadcast_to(dy, self.x.shape), 0)

    def cotangent_x(self, dy: Any) -> np.ndarray:
        """``conj(s) dy`` inside the segments, zero elsewhere."""
        return conj_if_complex(self.slope) * self._inside(dy)

    def cotangent_xp(self, dy: Any) -> np.ndarray:
        """``-conj(s) (1 - t) dy`` onto ``xp[j]`` and ``-conj(s) t dy`` onto ``xp[j+1]`` (real part)."""
        n = self.xp.size
        if n < 2:
            return np.zeros(n)
        weighted = -conj_if_complex(self.slope) * self._inside(dy)
        return np.real(_scatter(self.j, (1 - self.t) * weighted, n) + _scatter(self.j + 1, self.t * weighted, n))

    def cotangent_fp(self, dy: Any) -> np.ndarray:
        """``(1 - t) dy`` onto ``fp[j]``, ``t dy`` onto ``fp[j+1]``, and the end values' ``dy``."""
        n = self.xp.size
        dy = np.broadcast_to(dy, self.x.shape)
        dfp = np.zeros(n, dtype=np.result_type(dy, np.float64))
        if n > 1:
            inside = self._inside(dy)
            dfp += _scatter(self.j, (1 - self.t) * inside, n) + _scatter(self.j + 1, self.t * inside, n)
        first, last = self._masks_of_ends()
        dfp[0] += np.sum(np.where(first, dy, 0))
        dfp[-1] += np.sum(np.where(last, dy, 0))
        return dfp

    def cotangent_left(self, dy: Any) -> Any:
        return np.sum(np.where(self.below, dy, 0))

    def cotangent_right(self, dy: Any) -> Any:
        return np.sum(np.where(self.above, dy, 0))

    def pushforward(self, dx: Any, dxp: Any, dfp: Any, dleft: Any, dright: Any) -> np.ndarray:
        """The output tangent for the given input tangents (``None`` for zeros)."""
        out = np.zeros(self.x.shape, dtype=np.result_type(self.fp, np.float64,
                                                          *(t for t in (dfp, dleft, dright) if t is not None)))
        n = self.xp.size
        if dx is not None:
            out += self.slope * dx
        if dxp is not None and n > 1:
            dxp = np.asarray(dxp)
            out -= self.slope * ((1 - self.t) * dxp[self.j] + self.t * dxp[self.j + 1]) * self.inside
        if dfp is not None:
            dfp = np.asarray(dfp)
            if n > 1:
                out += ((1 - self.t) * dfp[self.j] + self.t * dfp[self.j + 1]) * self.inside
            first, last = self._masks_of_ends()
            out += np.where(first, dfp[0], 0) + np.where(last, dfp[-1], 0)
        if dleft is not None and self.left is not None:
            out += np.where(self.below, dleft, 0)
        if dright is not None and self.right is not None:
            out += np.where(self.above, dright, 0)
        return out


class PeriodicInterpolation:
    """``np.interp(x, xp, fp, period=period)`` as NumPy builds it: knots reduced, sorted and extended."""

    def __init__(self, x: Any, xp: Any, fp: Any, period: Any) -> None:
        self.sign = np.sign(period)
        self.period = p = abs(float(period))
        self.x_turns = np.floor(np.asarray(x, dtype=np.float64) / p)
        self.xp_turns = np.floor(np.asarray(xp, dtype=np.float64) / p)
        x_mod = np.asarray(x, dtype=np.float64) % p
        xp_mod = np.asarray(xp, dtype=np.float64) % p
        order = np.argsort(xp_mod)
        self.n = order.size
        self.source = np.concatenate((order[-1:], order, order[:1]))  # the knot each extended knot copies
        xp_ext = np.concatenate((xp_mod[order][-1:] - p, xp_mod[order], xp_mod[order][:1] + p))
        self.linear = LinearInterpolation(x_mod, xp_ext, np.asarray(fp)[self.source], None, None)

    def cotangent_x(self, dy: Any) -> np.ndarray:
        return self.linear.cotangent_x(dy)

    def cotangent_xp(self, dy: Any) -> np.ndarray:
        return _scatter(self.source, self.linear.cotangent_xp(dy), self.n)

    def cotangent_fp(self, dy: Any) -> np.ndarray:
        return _scatter(self.source, self.linear.cotangent_fp(dy), self.n)

    def cotangent_period(self, dy: Any) -> Any:
        """Through ``x mod p``, ``xp mod p`` and the two periodic copies of the end knots."""
        dxp_ext = self.linear.cotangent_xp(dy)
        dxp = _scatter(self.source, dxp_ext, self.n)
        dperiod = (-np.sum(np.real(self.linear.cotangent_x(dy)) * self.x_turns) - np.sum(dxp * self.xp_turns)
                   - dxp_ext[0] + dxp_ext[-1])
        return self.sign * dperiod

    def pushforward(self, dx: Any, dxp: Any, dfp: Any, dperiod: Any) -> np.ndarray:
        """The output tangent for the given input tangents (``None`` for zeros)."""
        dp = None if dperiod is None else self.sign * dperiod
        dx_mod = dx if dp is None else (0 if dx is None else dx) - self.x_turns * dp
        dxp_mod = dxp if dp is None else (0 if dxp is None else np.asarray(dxp)) - self.xp_turns * dp
        dxp_ext = None
        if dxp_mod is not None:
            dxp_ext = np.asarray(np.broadcast_to(dxp_mod, (self.n,)))[self.source].astype(np.float64)
            if dp is not None:
                dxp_ext[0] -= dp
                dxp_ext[-1] += dp
        dfp_ext = None if dfp is None else np.asarray(dfp)[self.source]
        return self.linear.pushforward(dx_mod, dxp_ext, dfp_ext, None, None)


@rrule.register(np.interp, NUMERIC, np.ndarray, np.ndarray, *(_OPTIONAL_NUMBER,) * 3)
def interp_rrule(x: Any, xp: np.ndarray, fp: np.ndarray, left: Any = None, right: Any = None,
                 period: Any = None) -> Any:
    """Reverse rule of ``np.interp``, with respect to every argument (see the module docstring).

    Examples
    --------
    >>> from chainrules import unthunk
    >>> y, pullback = rrule(np.interp, 0.25, np.array([0.0, 1.0]), np.array([1.0, 3.0]))
    >>> tuple(map(unthunk, pullback(1.0)[1:4]))
    (2.0, array([-1.5, -0.5]), array([0.75, 0.25]))
    """
    y = np.interp(x, xp, fp, left, right, period)
    project_x, project_xp, project_fp, project_left, project_right, project_period = (
        cotangent_projector(v) for v in (x, xp, fp, left, right, period))
    shape = np.shape(x)
    if period is None:
        geometry: Any = LinearInterpolation(x, xp, fp, left, right)
    else:
        geometry = PeriodicInterpolation(x, xp, fp, period)

    def interp_pullback(dy: Any) -> tuple[Any, ...]:
        dy = read_cotangent(dy, y, np.interp)
        if passes_through(dy):
            zero = passed_on(dy)
            return (NoTangent(), project_x(zero), project_xp(zero), project_fp(zero),
                    *(p(zero) for p in (project_left, project_right, project_period)))
        dy = np.asarray(dy)
        unused = ZeroTangent()
        if period is None:
            dleft = lazy_cotangent(project_left, lambda: geometry.cotangent_left(dy))
            dright = lazy_cotangent(project_right, lambda: geometry.cotangent_right(dy))
            dperiod: Any = NoTangent()
        else:
            dleft, dright = project_left(unused), project_right(unused)
            dperiod = lazy_cotangent(project_period, lambda: geometry.cotangent_period(dy))
        return (NoTangent(), lazy_cotangent(project_x, lambda: np.reshape(geometry.cotangent_x(dy), shape)),
                lazy_cotangent(project_xp, lambda: geometry.cotangent_xp(dy)),
                lazy_cotangent(project_fp, lambda: geometry.cotangent_fp(dy)), dleft, dright, dperiod)

    return y, interp_pullback


@frule.register(np.interp, NUMERIC, np.ndarray, np.ndarray, *(_OPTIONAL_NUMBER,) * 3)
def interp_frule(tangents: Any, x: Any, xp: np.ndarray, fp: np.ndarray, left: Any = None, right: Any = None,
                 period: Any = None) -> Any:
    """Forward rule of ``np.interp``, with respect to every argument.

    Examples
    --------
    >>> t = (NoTangent(), 1.0, np.zeros(2), np.zeros(2))
    >>> frule(t, np.interp, 0.25, np.array([0.0, 1.0]), np.array([1.0, 3.0]))[1]
    2.0
    """
    y = np.interp(x, xp, fp, left, right, period)
    values = [tangent_value(t) if t is not None else None for t in tangents[1:]]
    dx, dxp, dfp, dleft, dright, dperiod = values
    if all(v is None for v in values):
        return y, ZeroTangent()
    if period is None:
        dy = LinearInterpolation(x, xp, fp, left, right).pushforward(dx, dxp, dfp, dleft, dright)
    else:
        dy = PeriodicInterpolation(x, xp, fp, period).pushforward(dx, dxp, dfp, dperiod)
    return y, sum_tangents([np.reshape(dy, np.shape(y))], ProjectTo(y))


# ---- sample inputs ----------------------------------------------------------------------------------
_XP = np.array([0.0, 0.7, 1.5, 2.6, 3.0])
_X = np.array([-0.4, 0.3, 1.1, 2.0, 2.9, 3.5])
"""Below, inside several segments and above the knots; never on a knot (the derivative jumps there)."""


@sample_inputs(np.interp)
def _interp_samples(rng: np.random.Generator) -> list[Sample]:
    fp = rng.standard_normal(5)
    xp_turns = np.array([0.3, 1.2, 2.5, 4.0, 5.5]) + np.array([0.0, 6.3, -6.2, 0.0, 12.6])
    return [Sample(_X, _XP, fp), Sample(_X, _XP, fp, -1.0, 2.0, label="left and right by position"),
            Sample(_X, _XP, fp, fkwargs={"left": 0.5, "right": 3.0}, label="left and right by keyword"),
            Sample(_X.reshape(2, 3), _XP, fp, label="2-d queries"), Sample(1.1, _XP, fp, label="a scalar query"),
            Sample(_X, _XP[:1], fp[:1], label="a single knot: constant"),
            Sample(_X, _XP, fp + 1j * rng.standard_normal(5), 1j, 2.0, label="complex values"),
            Sample(_X.astype(np.float32), _XP.astype(np.float32), fp.astype(np.float32), label="float32"),
            Sample(np.array([0.7, 2.0, 6.9, -1.0, 5.9, 6.1]), xp_turns, fp, None, None, 2 * np.pi,
                   label="period by position: knots unsorted, on several turns"),
            Sample(np.array([0.7, 2.0, 6.9]), xp_turns, fp, fkwargs={"period": -2 * np.pi},
                   label="a negative period by keyword"),
            Sample(np.array([0.5, 1.5, 2.5]), np.arange(4), fp[:4], label="integer knots (not differentiated)")]
