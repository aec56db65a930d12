"""B-spline interpolation as ``scipy.ndimage`` does it: its prefilter, its sampling, and their adjoints (private).

The maths
---------
``map_coordinates`` (and ``affine_transform``, ``shift``, ``zoom``, ``rotate``) computes, for
``order >= 2`` with ``prefilter=True``, the B-spline coefficients ``C = S x`` of the input
(``spline_filter``: one recursive filter per axis, Unser, Aldroubi & Eden, IEEE PAMI 13(3),
1991; for the ``nearest`` and ``grid-constant`` modes the input is first padded by 12 samples,
by edge values or ``cval``), then at each point ``p`` the tensor-product spline

    ``y(p) = sum_l prod_h beta_n(c_h - t_{h,l_h}) C[m(t_{1,l_1}), ..., m(t_{d,l_d})]``,

where ``beta_n`` is the centred B-spline of degree ``n = order``, ``c_h`` the coordinate along
axis ``h`` after SciPy maps it into the array by the mode (``map_coordinate`` in
``scipy/ndimage/src/ni_interpolation.c``: a reflection, a period, or ``cval`` outside in the
``constant`` mode), ``t_{h,0..n}`` the ``n + 1`` knots nearest to it (``floor(c) - n // 2 + l``,
or ``floor(c + 0.5) - n // 2 + l`` for even ``n``) and ``m`` the boundary map of the knots (a
mirror for ``constant`` and ``wrap``, the mode itself otherwise; ``cval`` as the
coefficient for ``grid-constant``). This module reproduces those steps exactly, so that:

* ``y`` is linear in ``(x, cval)``: its adjoint is the transposed sampling (a scatter-add of
  the weights, :meth:`Sampler.transpose`) followed by the transposed prefilter
  (:func:`prefilter_transpose`);
* the derivative in the coordinates is the spline's gradient: ``beta_n`` replaced by its
  derivative ``beta_n'(t) = beta_{n-1}(t + 1/2) - beta_{n-1}(t - 1/2)`` along the axis
  (de Boor, *A Practical Guide to Splines*, 2001, ch. X), times the slope of the mode's map
  (``+1`` inside or after a period, ``-1`` after a reflection, ``0`` where it clamps or
  returns ``cval``).

The prefilter of the whole-sample mirror extension (modes ``mirror``, ``constant``, ``wrap``,
``grid-constant``) is ``S = B^{-1}`` for the interpolation matrix ``B = M D`` of that extension,
``M`` symmetric and ``D = diag(1/2, 1, ..., 1, 1/2)``, so ``S^T = D S D^{-1}``; the periodic one
(``grid-wrap``) is symmetric, ``S^T = S``: both adjoints are one more call of SciPy's filter.
The half-sample initialisation of ``reflect``, ``grid-mirror`` and ``nearest`` makes ``S``
slightly unsymmetric on lines shorter than about 24 samples (by up to 1e-3 at 4 samples,
order 5): there the adjoint is the transpose of SciPy's own filter matrix, elsewhere ``S``
itself (:func:`_reflect_filter_transpose`).
"""

from __future__ import annotations

import functools
import math
from typing import Any

import numpy as np
import scipy.ndimage as ndi

from chainrules.rulesets.ndimage._boundary import fold

__all__ = ["Sampler", "bspline", "bspline_derivative", "map_coordinate", "padding", "prefilter",
           "prefilter_transpose", "spline_filter1d_transpose"]

_PADDED = ("nearest", "grid-constant")
"""Modes whose input SciPy pads by 12 samples before the prefilter."""
_PAD = 12

_CODE = {"grid-mirror": "reflect"}
"""The interpolation modes under another name (``grid-mirror`` is ``reflect``)."""


def _mode(mode: str) -> str:
    name = _CODE.get(mode, mode)
    if name not in ("nearest", "wrap", "reflect", "mirror", "constant", "grid-wrap", "grid-constant"):
        raise RuntimeError("boundary mode not supported")
    return name


def bspline(n: int, t: np.ndarray) -> np.ndarray:
    """The centred B-spline of degree ``n``: ``beta_n(t) = sum_k (-1)^k C(n+1, k) (t + (n+1)/2 - k)_+^n / n!``.

    Examples
    --------
    >>> bspline(3, np.array([0.0, 1.0, 2.0]))          # 2/3, 1/6, 0
    array([0.66666667, 0.16666667, 0.        ])
    """
    t = np.asarray(t, dtype=np.float64)
    if n == 0:
        return ((t >= -0.5) & (t < 0.5)).astype(np.float64)
    total = np.zeros(t.shape)
    for k in range(n + 2):
        shifted = t + (n + 1) / 2 - k
        total += (-1) ** k * math.comb(n + 1, k) * np.where(shifted > 0, shifted, 0.0) ** n
    total /= math.factorial(n)
    return np.where(np.abs(t) < (n + 1) / 2, total, 0.0)


def bspline_derivative(n: int, t: np.ndarray) -> np.ndarray:
    """``beta_n'(t) = beta_{n-1}(t + 1/2) - beta_{n-1}(t - 1/2)`` (zero for ``n = 0``).

    Examples
    --------
    >>> bspline_derivative(1, np.array([-0.5, 0.5]))
    array([ 1., -1.])
    """
    t = np.asarray(t, dtype=np.float64)
    if n == 0:
        return np.zeros(t.shape)
    return bspline(n - 1, t + 0.5) - bspline(n - 1, t - 0.5)


def _trunc(x: np.ndarray) -> np.ndarray:
    """C's ``(npy_intp)`` cast: toward zero."""
    return np.trunc(x)


def map_coordinate(c: np.ndarray, length: int, mode: str) -> tuple[np.ndarray, np.ndarray]:
    """SciPy's ``map_coordinate`` of ``ni_interpolation.c``, and its slope (``+1``, ``-1`` or ``0``).

    Coordinates inside ``[0, length - 1]`` are kept; the others are reflected, wrapped or
    clamped by the mode, or set to ``-1`` (``constant``, where the result is ``cval``).

    Examples
    --------
    >>> map_coordinate(np.array([-0.5, 3.5, 5.0]), 4, "mirror")      # (3, 4) is left to the mirrored knots
    (array([0.5, 3.5, 1. ]), array([-1.,  1., -1.]))
    >>> map_coordinate(np.array([-0.5, 3.5]), 4, "wrap")           # period length - 1
    (array([2.5, 0.5]), array([1., 1.]))
    """
    c = np.asarray(c, dtype=np.float64)
    out, slope = c.copy(), np.ones(c.shape)
    low, high = c < 0, c > length - 1
    if mode in ("mirror", "reflect", "wrap", "grid-wrap") and length <= 1:
        out[low | high] = 0.0
        slope[low | high] = 0.0
        return out, slope
    if mode == "nearest":
        out[low], out[high] = 0.0, length - 1
        slope[low | high] = 0.0
    elif mode == "constant":
        out[low | high] = -1.0
        slope[low | high] = 0.0
    elif mode == "mirror":
        period = 2 * length - 2
        v = c[low]
        v = period * _trunc(-v / period) + v
        flip = ~(v <= 1 - length)
        out[low] = np.where(flip, -v, v + period)
        slope[low] = np.where(flip, -1.0, 1.0)
        v = c[high]
        v = v - period * _trunc(v / period)
        flip = v >= length
        out[high] = np.where(flip, period - v, v)
        slope[high] = np.where(flip, -1.0, 1.0)
    elif mode == "reflect":
        period = 2 * length
        v = c[low]
        v = np.where(v < -period, period * _trunc(-v / period) + v, v)
        far = v < -length
        tiny = v > -1e-15
        out[low] = np.where(far, v + period, np.where(tiny, 1e-15, -v) - 1)
        slope[low] = np.where(far, 1.0, np.where(tiny, 0.0, -1.0))
        v = c[high]
        v = v - period * _trunc(v / period)
        flip = v >= length
        out[high] = np.where(flip, period - v - 1, v)
        slope[high] = np.where(flip, -1.0, 1.0)
    elif mode == "wrap":
        period = length - 1
        v = c[low]
        out[low] = v + period * (_trunc(-v / period) + 1)
        v = c[high]
        out[high] = v - period * _trunc(v / period)
    elif mode == "grid-wrap":
        v = c[low]
        out[low] = v + length * (_trunc((-1 - v) / length) + 1)
        v = c[high]
        out[high] = v - length * _trunc(v / length)
    return out, slope


def _knot_mode(mode: str) -> str:
    """How SciPy maps knots beyond the edges (``_get_spline_boundary_mode``)."""
    return "mirror" if mode in ("constant", "wrap") else mode


@functools.cache
def _weight_polynomials(order: int) -> tuple[np.ndarray, np.ndarray]:
    """The ``order + 1`` weights as polynomials of the position within the knot interval.

    With ``u = c - floor(c)`` (odd order) or ``u = c - floor(c + 1/2)`` (even order), knot ``l``
    sits at distance ``t_l = u + order // 2 - l``, and ``beta_n(t_l)`` is one polynomial in ``u``
    on the whole interval: the terms ``(-1)^k C(n+1, k) (t + (n+1)/2 - k)^n / n!`` of the
    truncated-power form that are active there, expanded with exact rational arithmetic and
    rounded once. Returns the coefficient tables (highest power first) of the weights and of
    their derivatives, one row per knot.

    Examples
    --------
    >>> weights, _ = _weight_polynomials(1)
    >>> weights                                   # 1 - u and u
    array([[-1.,  1.],
           [ 1.,  0.]])
    """
    from fractions import Fraction

    n = order
    low = Fraction(0) if n & 1 else Fraction(-1, 2)
    weights = np.zeros((n + 1, n + 1))
    for l in range(n + 1):
        shift = Fraction(n // 2 - l) + Fraction(n + 1, 2)  # t + (n+1)/2 = u + shift
        coefficients = [Fraction(0)] * (n + 1)  # of u^0 .. u^n
        for k in range(n + 2):
            if low + shift - k < 0:  # (u + shift - k)_+ vanishes on the interval
                continue
            scale = Fraction((-1) ** k * math.comb(n + 1, k), math.factorial(n))
            a = shift - k
            for j in range(n + 1):  # (u + a)^n = sum_j C(n, j) a^(n-j) u^j
                coefficients[j] += scale * math.comb(n, j) * a ** (n - j)
        weights[l] = [float(coefficients[j]) for j in reversed(range(n + 1))]
    derivatives = np.array([np.polyder(w) if n else np.zeros(1) for w in weights])
    return weights, derivatives


def _horner(table: np.ndarray, u: np.ndarray) -> np.ndarray:
    """Each row's polynomial at ``u``: shape ``(rows, len(u))`` (one contiguous row per knot)."""
    out = np.empty((table.shape[0], u.size))
    for l in range(table.shape[0]):
        value = np.full(u.size, table[l, 0])
        for k in range(1, table.shape[1]):
            value *= u
            value += table[l, k]
        out[l] = value
    return out


class Sampler:
    """The B-spline sampling of a coefficient array at given points, as ``NI_GeometricTransform`` does it.

    Parameters
    ----------
    points : ndarray
        Shape ``(d, P)``: the coordinates of ``P`` points in the input's frame (SciPy adds the
        prefilter's padding).
    shape : tuple of int
        The coefficient array's shape (the padded one, if padded).
    order : int
    mode : str
    pad : int
        The padding added before the prefilter (12 for ``nearest``/``grid-constant``, else 0).

    Each point reads ``(order + 1)^d`` coefficients, one per combination of its knots along the
    axes. Per axis the sampler keeps ``(order + 1, P)`` tables of knots and weights; the values,
    the adjoint (one ``bincount`` per combination: a scatter-add) and the derivatives (one
    gather per combination, shared by every axis) loop over the combinations. A knot the
    ``grid-constant`` mode reads as ``cval`` points at an extra last coefficient.

    Examples
    --------
    >>> sampler = Sampler(np.array([[0.5, 1.0]]), (3,), 1, "mirror", 0)
    >>> sampler.values(np.array([0.0, 2.0, 4.0]), 0.0)
    array([1., 2.])
    >>> sampler.transpose(np.array([1.0, 1.0]))[0]
    array([0.5, 1.5, 0. ])
    """

    def __init__(self, points: np.ndarray, shape: tuple[int, ...], order: int, mode: str, pad: int) -> None:
        mode = _mode(mode)
        self.order, self.mode, self.shape = order, mode, tuple(shape)
        points = np.asarray(points, dtype=np.float64)
        self.n_points = points.shape[1]
        self.size = int(np.prod(self.shape, dtype=np.int64))
        self.outside = np.zeros(self.n_points, dtype=bool)  # the constant mode's cval points
        self.knots: list[np.ndarray] = []      # (order + 1, P) flat offsets: knot index times stride
        self.cval_knots: list[Any] = []        # grid-constant: (order + 1, P) masks of knots beyond the edges
        self.weights: list[np.ndarray] = []
        self._positions: list[np.ndarray] = []  # within the knot interval, for the derivative weights
        self._dweights: list[np.ndarray] | None = None
        self.slopes: list[np.ndarray] = []
        knot_mode = _knot_mode(mode)
        table, _ = _weight_polynomials(order)
        strides = [int(np.prod(self.shape[h + 1:], dtype=np.int64)) for h in range(len(self.shape))]
        for h, length in enumerate(self.shape):
            c = points[h] + pad
            slope = np.ones(c.shape)
            if mode not in ("grid-constant", "nearest") and c.size and (c.min() < 0 or c.max() > length - 1):
                c, slope = map_coordinate(c, length, mode)
            if mode == "constant":
                self.outside |= ~(c > -1.0)
            base = np.floor(c) if order & 1 else np.floor(c + 0.5)
            knots = (base.astype(np.int64) - order // 2) + np.arange(order + 1)[:, None]
            beyond = (knots < 0) | (knots > length - 1)
            if mode == "grid-constant":
                self.cval_knots.append(beyond if beyond.any() else None)
                knots = np.where(beyond, 0, knots)
            elif beyond.any():
                knots[beyond] = map_coordinate(knots[beyond].astype(np.float64), length, knot_mode)[0].astype(np.int64)
            self.knots.append(knots * strides[h])
            u = c - base
            self._positions.append(u)
            self.weights.append(np.ones(knots.shape) if order == 0 else _horner(table, u))
            self.slopes.append(slope)

    @property
    def dweights(self) -> list[np.ndarray]:
        """The weights' derivatives, per axis (computed when first asked for)."""
        if self._dweights is None:
            _, dtable = _weight_polynomials(self.order)
            self._dweights = [np.zeros(w.shape) if self.order == 0 else _horner(dtable, u)
                              for w, u in zip(self.weights, self._positions)]
        return self._dweights

    def _combinations(self) -> Any:
        """Every combination of knots: ``(flat index, cval mask or None, weight factors per axis)``.

        Walked depth first, so the partial sums of the flat index along the first axes are
        shared between combinations.
        """
        d = len(self.shape)

        def walk(h: int, flat: Any, mask: Any, picks: tuple[int, ...]) -> Any:
            if h == d:
                yield flat, mask, picks
                return
            for l in range(self.order + 1):
                part = self.knots[h][l]
                cv = self.cval_knots[h][l] if self.cval_knots and self.cval_knots[h] is not None else None
                new_mask = cv if mask is None else (mask if cv is None else mask | cv)
                yield from walk(h + 1, part if flat is None else flat + part, new_mask, (*picks, l))

        return walk(0, None, None, ())

    def _weight(self, picks: tuple[int, ...], tables: list[np.ndarray]) -> np.ndarray:
        total = tables[0][picks[0]]
        for h in range(1, len(picks)):
            total = total * tables[h][picks[h]]
        return total

    def _extended(self, coefficients: np.ndarray, cval: Any) -> np.ndarray:
        c = np.asarray(coefficients).reshape(-1)
        return np.concatenate((c, np.asarray([cval], dtype=np.result_type(c, cval))))

    def _gather(self, c: np.ndarray, flat: np.ndarray, mask: Any) -> np.ndarray:
        return c[flat] if mask is None else np.where(mask, c[-1], c[flat])

    # ---- what the rules need -------------------------------------------------------------------------
    def values(self, coefficients: np.ndarray, cval: Any) -> np.ndarray:
        """The sampled values (what SciPy computes; for checking)."""
        c = self._extended(coefficients, cval)
        out = np.zeros(self.n_points, dtype=c.dtype)
        for flat, mask, picks in self._combinations():
            out += self._weight(picks, self.weights) * self._gather(c, flat, mask)
        return np.where(self.outside, cval, out)

    def transpose(self, dy: np.ndarray) -> tuple[np.ndarray, Any]:
        """The adjoint of the sampling: the cotangents of the coefficients and of ``cval``."""
        dy = np.asarray(dy).reshape(-1)
        inside = np.where(self.outside, 0, dy) if self.outside.any() else dy
        complex_ = np.iscomplexobj(dy)
        out = np.zeros(self.size + 1, dtype=np.complex128 if complex_ else np.float64)
        scaled = [self.weights[0] * inside] + self.weights[1:]
        for flat, mask, picks in self._combinations():
            w = self._weight(picks, scaled)
            index = flat if mask is None else np.where(mask, self.size, flat)
            if complex_:
                out += np.bincount(index, w.real, self.size + 1) + 1j * np.bincount(index, w.imag, self.size + 1)
            else:
                out += np.bincount(index, w, self.size + 1)
        dcval = out[-1] + (np.sum(dy[self.outside]) if self.outside.any() else 0.0)
        return out[:-1].reshape(self.shape), dcval

    def gradient(self, coefficients: np.ndarray, cval: Any) -> list[np.ndarray]:
        """``dy/dp_h`` at each point for each axis ``h``: the spline's derivative times the map's slope."""
        c = self._extended(coefficients, cval)
        d = len(self.shape)
        out = [np.zeros(self.n_points, dtype=c.dtype) for _ in range(d)]
        if self.order > 0:
            derivatives = self.dweights
            for flat, mask, picks in self._combinations():
                value = self._gather(c, flat, mask)
                for h in range(d):
                    tables = [derivatives[k] if k == h else self.weights[k] for k in range(d)]
                    out[h] += self._weight(picks, tables) * value
        return [np.where(self.outside, 0, g * slope) for g, slope in zip(out, self.slopes)]


# ---- the prefilter ------------------------------------------------------------------------------------
def padding(mode: str) -> int:
    """How many samples SciPy pads the input with before the prefilter, in this mode.

    Examples
    --------
    >>> padding("nearest"), padding("mirror")
    (12, 0)
    """
    return _PAD if _mode(mode) in _PADDED else 0


def prefilter(x: np.ndarray, order: int, mode: str, cval: Any) -> tuple[np.ndarray, int]:
    """The coefficients SciPy interpolates (``spline_filter`` of the padded input) and the padding.

    Examples
    --------
    >>> c, pad = prefilter(np.array([0.0, 1.0, 0.0]), 3, "mirror", 0.0)
    >>> np.round(c, 4), pad                       # (c[i-1] + 4 c[i] + c[i+1]) / 6 = x[i], mirrored
    (array([-1.,  2., -1.]), 0)
    """
    mode = _mode(mode) if mode != "grid-mirror" else "reflect"
    pad = 0
    if mode in _PADDED:
        pad = _PAD
        x = np.pad(x, pad, mode="edge") if mode == "nearest" else np.pad(x, pad, mode="constant",
                                                                          constant_values=cval)
    return ndi.spline_filter(x, order, output=np.float64 if not np.iscomplexobj(x) else np.complex128,
                             mode=mode), pad


def _filter_kind(mode: str) -> str:
    """Which boundary initialisation ``apply_filter`` uses: its matrix's symmetry."""
    if mode in ("grid-wrap",):
        return "periodic"
    if mode in ("nearest", "reflect", "grid-mirror"):
        return "reflect"
    return "mirror"


_SYMMETRIC_FROM = 32
"""From this line length on, SciPy's half-sample prefilter is symmetric to rounding.

Measured with SciPy 1.17 (``max |S - S^T|`` of ``spline_filter1d(eye(n), order, mode='reflect')``,
the same for ``'nearest'``): order 5: 1e-3 at n = 4, 2e-12 at 16, 3e-15 at 20, 4e-16 from 24 on;
order 2 reaches 1e-16 at n = 12. Below it, the rule transposes the filter's own matrix."""


def _reflect_filter_transpose(v: np.ndarray, order: int, axis: int, mode: str) -> np.ndarray:
    """``S^T v`` for the prefilter with the half-sample initialisation (``reflect``, ``nearest``).

    Its boundary initialisation makes ``S`` slightly unsymmetric on short lines (see
    :data:`_SYMMETRIC_FROM`): there the rule builds ``S`` (``n`` by ``n``, SciPy's filter of the
    identity) and applies its transpose; on longer lines ``S^T = S`` to rounding.
    """
    n = v.shape[axis]
    dtype = np.complex128 if np.iscomplexobj(v) else np.float64
    if n >= _SYMMETRIC_FROM:
        return ndi.spline_filter1d(v, order, axis, output=dtype, mode=mode)
    matrix = ndi.spline_filter1d(np.eye(n), order, axis=0, mode=mode)
    return np.moveaxis(np.tensordot(matrix.T, np.moveaxis(np.asarray(v, dtype=dtype), axis, 0), axes=1), 0, axis)


def spline_filter1d_transpose(v: np.ndarray, order: int, axis: int, mode: str) -> np.ndarray:
    """``S^T v`` for the 1-d prefilter ``S`` along ``axis`` (see the module docstring).

    Examples
    --------
    >>> S = ndi.spline_filter1d(np.eye(4), 3, axis=0, mode="mirror")
    >>> v = np.array([1.0, 2.0, 0.5, -1.0])
    >>> bool(np.allclose(spline_filter1d_transpose(v, 3, 0, "mirror"), S.T @ v))
    True
    """
    if order in (0, 1) or v.shape[axis] <= 1:
        return np.array(v, copy=True)
    dtype = np.complex128 if np.iscomplexobj(v) else np.float64
    kind = _filter_kind(mode)
    if kind == "reflect":
        return _reflect_filter_transpose(v, order, axis, mode)
    if kind == "periodic" or v.shape[axis] == 2:
        return ndi.spline_filter1d(v, order, axis, output=dtype, mode=mode)
    ends: list[Any] = [slice(None)] * v.ndim
    scaled = np.array(v, dtype=dtype, copy=True)
    for index in (0, -1):
        ends[axis] = index
        scaled[tuple(ends)] *= 2.0
    out = ndi.spline_filter1d(scaled, order, axis, output=dtype, mode=mode)
    for index in (0, -1):
        ends[axis] = index
        out[tuple(ends)] *= 0.5
    return out


def prefilter_transpose(dc: np.ndarray, order: int, mode: str, pad: int) -> tuple[np.ndarray, Any]:
    """The adjoint of :func:`prefilter`: the cotangents of the input and of ``cval`` (the padding's)."""
    mode = _mode(mode) if mode != "grid-mirror" else "reflect"
    u = dc
    for axis in reversed(range(u.ndim)):
        u = spline_filter1d_transpose(u, order, axis, mode)
    dcval: Any = None
    if pad:
        fold_mode = "nearest" if mode == "nearest" else "constant"
        total: Any = 0
        for axis in range(u.ndim):
            u, pad_sum = fold(u, axis, pad, u.shape[axis] - 2 * pad, fold_mode)
            if pad_sum is not None:
                total = total + pad_sum
        dcval = total if fold_mode == "constant" else None
    return u, dcval
