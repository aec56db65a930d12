"""Piecewise polynomials (``scipy.interpolate.PPoly``): evaluation, antiderivative and integral,
with their derivatives in the coefficients, the breakpoints and the points (private).

The maths
---------
On interval ``i`` (``x_i <= q < x_{i+1}``, the last one closed; the first and last serve points
outside when extrapolating) a ``PPoly`` is ``p_i(q) = sum_m c[m, i] (q - x_i)^(K-1-m)``, ``K``
coefficients per interval, highest power first (``_ppoly.evaluate``). Its ``nu``-th derivative
``p_i^(nu)`` is the same sum with falling factorials. Hence, with ``s = q - x_i``:

* ``dy/dc[m, i] = d^nu/ds^nu s^(K-1-m)``: the cotangent of ``c`` is a scatter-add over the points;
* ``dy/dq = p_i^(nu+1)(s)`` and ``dy/dx_i = -p_i^(nu+1)(s)`` (only the left breakpoint of the
  interval enters the polynomial; which interval is used is piecewise constant);
* with ``extrapolate='periodic'`` the point is first mapped to ``x_0 + (q - x_0) mod L``,
  ``L = x_end - x_0``, whose derivatives in ``x_0`` and ``x_end`` are ``floor((q - x_0) / L)`` and
  its negative.

``antiderivative(nu)`` divides the coefficients by rising factorials and adds ``nu`` lower
coefficients per interval, chosen so that the result and its first ``nu - 1`` derivatives are
continuous (``_ppoly.fix_continuity``): row ``R`` of interval ``i`` is
``c[R, i-1] + sum_{r<R} c[r, i-1] C(N-1-r, N-1-R) h^(R-r)`` with ``h = x_i - x_{i-1}`` and ``N`` the
new number of coefficients, i.e. a cumulative sum over the intervals, row after row. Its
tangent is the same recursion differentiated, its adjoint the suffix sums run the other way.

``integrate(a, b)`` is ``sum_i Q_i(hi_i - x_i) - Q_i(lo_i - x_i)`` over the intervals meeting
``[a, b]`` (``Q_i`` the antiderivative of ``p_i``, ``lo_i = max(a, x_i)``, ``hi_i = min(b, x_{i+1})``,
unbounded at the ends when extrapolating), so
``dI = sum_i p_i(hi_i - x_i) (dhi_i - dx_i) - p_i(lo_i - x_i) (dlo_i - dx_i)``, each bound moving
with ``a``, ``b`` or the breakpoint it is.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

__all__ = ["Integral", "Located", "antiderivative_coefficients", "antiderivative_tangent",
           "antiderivative_transpose", "coefficient_cotangent", "evaluate", "falling", "slope"]


def falling(q: np.ndarray | int, nu: int) -> Any:
    """The falling factorial ``q (q-1) ... (q-nu+1)`` (1 for ``nu = 0``).

    Examples
    --------
    >>> falling(np.array([3, 2, 1, 0]), 2)
    array([6, 2, 0, 0])
    """
    out: Any = np.ones_like(q) if isinstance(q, np.ndarray) else 1
    for j in range(nu):
        out = out * (q - j)
    return out


class Located:
    """Points located in the intervals of a breakpoint array, as ``_ppoly.evaluate`` finds them.

    Attributes
    ----------
    interval : ndarray of int
        The interval of each point (``-1`` where the result is NaN: outside without extrapolation).
    s : ndarray
        ``q - x_interval``.
    turns : ndarray or None
        For periodic extrapolation, ``floor((q - x_0) / L)``.

    Examples
    --------
    >>> loc = Located(np.array([0.0, 1.0, 3.0]), np.array([-0.5, 1.0, 3.0, 4.0]), True)
    >>> loc.interval, loc.s
    (array([0, 1, 1, 1]), array([-0.5,  0. ,  2. ,  3. ]))
    """

    def __init__(self, breakpoints: np.ndarray, q: np.ndarray, extrapolate: Any) -> None:
        x = np.asarray(breakpoints, dtype=np.float64)
        q = np.asarray(q, dtype=np.float64).reshape(-1)
        self.turns = None
        if extrapolate == "periodic":
            period = x[-1] - x[0]
            self.turns = np.floor((q - x[0]) / period)
            q = x[0] + (q - x[0]) % period
            extrapolate = False
        self.q = q
        m = x.size - 1
        ascending = x[-1] >= x[0]
        key, points = (x, q) if ascending else (-x, -q)
        interval = np.searchsorted(key, points, side="right") - 1
        interval = np.where(points == key[-1], m - 1, interval)
        inside = (points >= key[0]) & (points <= key[-1])
        if extrapolate:
            interval = np.clip(interval, 0, m - 1)
            valid = ~np.isnan(q)
        else:
            valid = inside
        self.interval = np.where(valid, np.clip(interval, 0, m - 1), -1)
        self.valid = valid
        self.s = np.where(valid, q - x[np.clip(self.interval, 0, m - 1)], 0.0)


def _basis(K: int, s: np.ndarray, nu: int) -> np.ndarray:
    """``d^nu/ds^nu s^(K-1-m)`` for every coefficient row ``m``: shape ``(K, P)``."""
    powers = K - 1 - np.arange(K)
    exponents = np.maximum(powers - nu, 0)
    return falling(powers, nu)[:, None] * s[None, :] ** exponents[:, None]


def evaluate(c: np.ndarray, located: Located, nu: int) -> np.ndarray:
    """``p^(nu)`` at the located points: shape ``(P, T)`` for ``c`` of shape ``(K, m, T)`` (NaN where invalid)."""
    K = c.shape[0]
    basis = _basis(K, located.s, nu)
    rows = c[:, np.maximum(located.interval, 0), :]  # (K, P, T)
    out = np.einsum("kp,kpt->pt", basis, rows)
    return np.where(located.valid[:, None], out, np.nan)


def coefficient_cotangent(shape: tuple[int, ...], located: Located, nu: int, dy: np.ndarray) -> np.ndarray:
    """The cotangent of ``c`` (shape ``(K, m, T)``) for the output cotangent ``dy`` (shape ``(P, T)``)."""
    K, m = shape[0], shape[1]
    basis = _basis(K, located.s, nu)
    weights = np.where(located.valid[:, None], dy, 0)
    out = np.zeros(shape, dtype=np.result_type(dy, np.float64))
    index = np.maximum(located.interval, 0)
    for row in range(K):  # a scatter-add per coefficient row and column (bincount: no np.add.at)
        contributions = basis[row][:, None] * weights
        for column in range(weights.shape[1]):
            values = contributions[:, column]
            if np.iscomplexobj(values):
                out[row, :, column] = (np.bincount(index, values.real, m) + 1j * np.bincount(index, values.imag, m))
            else:
                out[row, :, column] = np.bincount(index, values, m)
    return out


def slope(c: np.ndarray, located: Located, nu: int) -> np.ndarray:
    """``p^(nu+1)`` at the located points (0 where invalid): how the value moves with the point."""
    return np.where(located.valid[:, None], evaluate(c, located, nu + 1), 0)


# ---- antiderivative ---------------------------------------------------------------------------------
def _binomial(n: int, k: int) -> int:
    return math.comb(n, k) if 0 <= k <= n else 0


def _rising_factors(K: int, nu: int) -> np.ndarray:
    """``poch(K - m, nu)`` for each row ``m``: what ``derivative``/``antiderivative`` multiply/divide by."""
    return np.array([math.prod(range(K - m, K - m + nu)) for m in range(K)], dtype=np.float64)


def _coefficient(N: int, R: int, r: int, h: np.ndarray, derivative: bool = False) -> np.ndarray:
    """How row ``r`` of an interval enters row ``R`` of the next: ``C(N-1-r, N-1-R) h^(R-r)`` (or its
    derivative in ``h``)."""
    b = _binomial(N - 1 - r, N - 1 - R)
    if derivative:
        return b * (R - r) * h ** (R - r - 1) if R - r >= 1 else np.zeros_like(h)
    return b * h ** (R - r)


def antiderivative_coefficients(c: np.ndarray, x: np.ndarray, nu: int) -> np.ndarray:
    """The coefficients of ``PPoly.antiderivative(nu)`` (for ``c`` of shape ``(K, m, T)``).

    Row ``R`` of the ``nu`` added ones is 0 on the first interval and, on interval ``i``, the
    running sum over ``j < i`` of ``inc_j = sum_{r<R} c[r, j] C(N-1-r, N-1-R) h_j^(R-r)``.

    Examples
    --------
    >>> antiderivative_coefficients(np.array([[2.0, 1.0]])[:, :, None], np.array([0.0, 1.0, 3.0]), 1)[:, :, 0]
    array([[2., 1.],
           [0., 2.]])
    """
    K, m = c.shape[0], c.shape[1]
    N = K + nu
    out = np.zeros((N, m) + c.shape[2:], dtype=c.dtype)
    out[:K] = c / _rising_factors(K, nu)[(slice(None),) + (None,) * (c.ndim - 1)]
    h = np.diff(np.asarray(x, dtype=np.float64))[:-1]  # h_j = x_{j+1} - x_j, j = 0 .. m-2
    for R in range(K, N):
        increment = sum((out[r, :m - 1] * _coefficient(N, R, r, h)[:, None] for r in range(R)),
                        start=np.zeros_like(out[R, :m - 1]))
        out[R, 1:] = np.cumsum(increment, axis=0)
    return out


def antiderivative_tangent(c: np.ndarray, x: np.ndarray, nu: int, dc: Any, dx: Any) -> np.ndarray:
    """The tangent of :func:`antiderivative_coefficients` for tangents ``dc`` and ``dx`` (``None`` for zeros)."""
    K, m = c.shape[0], c.shape[1]
    N = K + nu
    value = antiderivative_coefficients(c, x, nu)
    dtype = value.dtype if dc is None else np.result_type(value, np.asarray(dc))
    tangent = np.zeros(value.shape, dtype=dtype)
    if dc is not None:
        tangent[:K] = np.asarray(dc) / _rising_factors(K, nu)[(slice(None),) + (None,) * (c.ndim - 1)]
    h = np.diff(np.asarray(x, dtype=np.float64))[:-1]
    dh = np.zeros_like(h) if dx is None else np.diff(np.asarray(dx, dtype=np.float64))[:-1]
    for R in range(K, N):
        increment = np.zeros_like(tangent[R, :m - 1])
        for r in range(R):
            increment = increment + tangent[r, :m - 1] * _coefficient(N, R, r, h)[:, None]
            increment = increment + value[r, :m - 1] * (_coefficient(N, R, r, h, True) * dh)[:, None]
        tangent[R, 1:] = np.cumsum(increment, axis=0)
    return tangent


def antiderivative_transpose(c: np.ndarray, x: np.ndarray, nu: int, dout: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The cotangents of ``c`` and ``x`` for the cotangent ``dout`` of :func:`antiderivative_coefficients`."""
    K, m = c.shape[0], c.shape[1]
    N = K + nu
    value = antiderivative_coefficients(c, x, nu)
    g = np.array(dout, dtype=np.result_type(dout, value, np.float64), copy=True)
    h = np.diff(np.asarray(x, dtype=np.float64))[:-1]
    dh = np.zeros(max(m - 1, 0))
    for R in reversed(range(K, N)):
        # row R on interval i is sum_{j<i} inc_j: inc_j's cotangent is sum_{i>j} g[R, i]
        increment_bar = np.cumsum(g[R, 1:][::-1], axis=0)[::-1]
        for r in range(R):
            g[r, :m - 1] += increment_bar * _coefficient(N, R, r, h)[:, None]
            partial = value[r, :m - 1] * _coefficient(N, R, r, h, True)[:, None]
            dh += np.real(np.sum(np.conj(partial) * increment_bar, axis=tuple(range(1, partial.ndim))))
        g[R] = 0
    dc = g[:K] / _rising_factors(K, nu)[(slice(None),) + (None,) * (c.ndim - 1)]
    dxb = np.zeros(m + 1)
    dxb[1:m] += dh
    dxb[0:m - 1] -= dh
    return dc, dxb


# ---- integral --------------------------------------------------------------------------------------
class Integral:
    """``PPoly.integrate(a, b, extrapolate)`` as a sum of pieces, with its derivatives.

    Each piece is ``weight * (Q_i(hi - x_i) - Q_i(lo - x_i))`` on one interval ``i``; each bound
    records what it moves with, as a linear combination of ``'a'``, ``'b'`` and breakpoint
    indices. Periodic extrapolation is split as SciPy splits it: whole periods and the rest.

    Examples
    --------
    >>> c, x = np.array([[1.0, 2.0, 3.0]])[:, :, None], np.array([0.0, 1.0, 2.0, 3.0])
    >>> Integral(c, x, 0.5, 2.5, True).value()
    array([4.])
    """

    def __init__(self, c: np.ndarray, x: np.ndarray, a: float, b: float, extrapolate: Any) -> None:
        self.c = c
        self.x = np.asarray(x, dtype=np.float64)
        self.sign = 1.0
        a, b = float(a), float(b)
        base_a, base_b = {"a": 1.0}, {"b": 1.0}
        if b < a:
            a, b, base_a, base_b = b, a, base_b, base_a
            self.sign = -1.0
        self.pieces: list[tuple[int, float, float, dict[Any, float], dict[Any, float], float]] = []
        self.nan = False
        m = self.x.size - 1
        if extrapolate == "periodic":
            xs, xe = self.x[0], self.x[-1]
            period = xe - xs
            n, left = divmod(b - a, period)
            d_period = {m: 1.0, 0: -1.0}
            if n > 0:
                self._range(xs, xe, {0: 1.0}, {m: 1.0}, False, n)
            turns = np.floor((a - xs) / period)
            a2 = xs + (a - xs) % period
            d_a2 = _combine(base_a, _scale(d_period, -turns))  # d(xs + (a - xs) mod P) = da - floor dP
            d_left = _combine(base_b, _scale(base_a, -1.0), _scale(d_period, -n))
            b2 = a2 + left
            d_b2 = _combine(d_a2, d_left)
            if b2 <= xe:
                self._range(a2, b2, d_a2, d_b2, False, 1.0)
            else:
                self._range(a2, xe, d_a2, {m: 1.0}, False, 1.0)
                top = xs + left + a2 - xe
                self._range(xs, top, {0: 1.0}, _combine({0: 1.0}, d_left, d_a2, {m: -1.0}), False, 1.0)
        else:
            self._range(a, b, base_a, base_b, bool(extrapolate), 1.0)

    def _range(self, lo: float, hi: float, d_lo: dict[Any, float], d_hi: dict[Any, float], extrapolate: bool,
               weight: float) -> None:
        x = self.x
        m = x.size - 1
        low_end, high_end = min(x[0], x[-1]), max(x[0], x[-1])
        if not extrapolate and (lo < low_end or hi > high_end):
            self.nan = True
            return
        for i in range(m):
            left, right = sorted((x[i], x[i + 1]))
            left_index, right_index = (i, i + 1) if x[i] <= x[i + 1] else (i + 1, i)
            unbounded_low = extrapolate and left == low_end
            unbounded_high = extrapolate and right == high_end
            if (lo >= left or unbounded_low) and lo <= right:
                piece_lo, d_piece_lo = lo, d_lo
            elif lo < left:
                piece_lo, d_piece_lo = left, {left_index: 1.0}
            else:
                continue
            if (hi <= right or unbounded_high) and hi >= left:
                piece_hi, d_piece_hi = hi, d_hi
            elif hi > right:
                piece_hi, d_piece_hi = right, {right_index: 1.0}
            else:
                continue
            if piece_hi > piece_lo:
                self.pieces.append((i, piece_lo, piece_hi, d_piece_lo, d_piece_hi, weight))

    def _antiderivative_rows(self, s: float) -> np.ndarray:
        K = self.c.shape[0]
        powers = K - np.arange(K)  # Q = sum_m c_m s^(K-m) / (K-m)
        return s ** powers / powers

    def _value_at(self, i: int, s: float) -> np.ndarray:
        K = self.c.shape[0]
        return np.einsum("k,k...->...", s ** (K - 1 - np.arange(K)), self.c[:, i])

    def value(self) -> np.ndarray:
        T = self.c.shape[2:]
        if self.nan:
            return np.full(T, np.nan)
        total = np.zeros(T, dtype=np.result_type(self.c, np.float64))
        for i, lo, hi, _, _, w in self.pieces:
            rows = self._antiderivative_rows(hi - self.x[i]) - self._antiderivative_rows(lo - self.x[i])
            total = total + w * np.einsum("k,k...->...", rows, self.c[:, i])
        return self.sign * total

    def tangent(self, dc: Any, dx: Any, da: Any, db: Any) -> np.ndarray:
        """The tangent of the integral (``None`` for zero input tangents)."""
        T = self.c.shape[2:]
        if self.nan:
            return np.zeros(T)
        bases: dict[Any, float] = {"a": 0.0 if da is None else float(da), "b": 0.0 if db is None else float(db)}
        dxs = None if dx is None else np.asarray(dx, dtype=np.float64)

        def move(d: dict[Any, float]) -> float:
            return sum(w * (bases[k] if isinstance(k, str) else (0.0 if dxs is None else dxs[k])) for k, w in d.items())

        total = np.zeros(T, dtype=np.result_type(self.c, np.float64, *(() if dc is None else (np.asarray(dc),))))
        for i, lo, hi, d_lo, d_hi, w in self.pieces:
            s_lo, s_hi = lo - self.x[i], hi - self.x[i]
            if dc is not None:
                rows = self._antiderivative_rows(s_hi) - self._antiderivative_rows(s_lo)
                total = total + w * np.einsum("k,k...->...", rows, np.asarray(dc)[:, i])
            d_xi = 0.0 if dxs is None else dxs[i]
            upper = self._value_at(i, s_hi) * (move(d_hi) - d_xi)
            total = total + w * (upper - self._value_at(i, s_lo) * (move(d_lo) - d_xi))
        return self.sign * total

    def transpose(self, dy: np.ndarray) -> tuple[np.ndarray, np.ndarray, float, float]:
        """The cotangents of ``c``, the breakpoints, ``a`` and ``b``."""
        dy = self.sign * np.asarray(dy)
        dc = np.zeros(self.c.shape, dtype=np.result_type(self.c, dy, np.float64))
        dx = np.zeros(self.x.size)
        bars: dict[Any, float] = {"a": 0.0, "b": 0.0}
        if self.nan:
            return dc, dx, 0.0, 0.0

        def spread(d: dict[Any, float], amount: float) -> None:
            for k, w in d.items():
                if isinstance(k, str):
                    bars[k] += w * amount
                else:
                    dx[k] += w * amount

        for i, lo, hi, d_lo, d_hi, w in self.pieces:
            s_lo, s_hi = lo - self.x[i], hi - self.x[i]
            rows = self._antiderivative_rows(s_hi) - self._antiderivative_rows(s_lo)
            dc[:, i] += w * rows.reshape((-1,) + (1,) * (dc.ndim - 2)) * dy
            at_hi = float(np.real(np.sum(np.conj(self._value_at(i, s_hi)) * dy))) * w
            at_lo = float(np.real(np.sum(np.conj(self._value_at(i, s_lo)) * dy))) * w
            spread(d_hi, at_hi)
            spread(d_lo, -at_lo)
            dx[i] += at_lo - at_hi
        return dc, dx, bars["a"], bars["b"]


def _scale(d: dict[Any, float], w: float) -> dict[Any, float]:
    return {k: w * v for k, v in d.items()}


def _combine(*ds: dict[Any, float]) -> dict[Any, float]:
    out: dict[Any, float] = {}
    for d in ds:
        for k, v in d.items():
            out[k] = out.get(k, 0.0) + v
    return out
