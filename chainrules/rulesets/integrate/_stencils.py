"""Sample-based integration rules as stencils over the samples and the spacings (private).

Every sample-based rule of ``scipy.integrate`` (trapezoid, Simpson, their cumulative forms)
adds up *segments*: one interval, or two for a Simpson parabola. Each segment is a sum of a
few samples weighted by coefficients that are rational functions of the spacings
``h_k = x[k+1] - x[k]`` (or of ``dx``)::

    S[m] = sum_t c_t(h) * y[s_t(m)]

The integral is ``sum(S)`` (``trapezoid``, ``simpson``) or ``cumsum(S)`` (the cumulative
rules). :class:`Stencil` holds the terms ``t``: which segments a term adds to, which samples
it weights, its coefficients and their partial derivatives with respect to the spacings it
reads. ``S`` is linear in ``y``, so

* the tangent is ``dS = sum_t c_t dy[s_t] + sum_t (dc_t/dh . dh) y[s_t]``;
* the pullback of a segment cotangent ``G`` is ``y_bar[s_t] += conj(c_t) G`` and
  ``h_bar += conj(dc_t/dh y[s_t]) G``, from which ``x_bar`` is the adjoint of ``diff``
  and ``dx_bar`` the sum over where ``dx`` was broadcast.

The integration axis is moved last before a stencil is built (:func:`move_last`), and the
spacings are given in the same layout (:func:`spacings`).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from chainrules.rulesets.contractions.differences import diff_adjoint
from chainrules_core import unbroadcast


@dataclasses.dataclass(frozen=True)
class Term:
    """One term of a stencil: ``S[..., segments] += coef * y[..., samples]``.

    ``partials`` lists ``(spacings, dcoef)``: the derivative of ``coef`` with respect to
    ``h[..., spacings]`` (arrays of the shape of ``coef``).
    """

    segments: slice
    samples: slice
    coef: np.ndarray
    partials: tuple[tuple[slice, np.ndarray], ...] = ()


class Stencil:
    """The segments of a sample-based rule, as terms over samples and spacings.

    Parameters
    ----------
    terms : list of Term
    n_segments : int
        The number of segments ``S`` has along its last axis.
    y_shape : tuple of int
        The shape of the samples (integration axis last).
    h_shape : tuple of int
        The shape of the spacings (integration axis last, broadcastable against the samples).

    Examples
    --------
    >>> import numpy as np
    >>> h = np.array([0.5, 1.0])
    >>> half = h / 2
    >>> ones = np.full(2, 0.5)
    >>> s = Stencil([Term(slice(None), slice(0, 2), half, ((slice(None), ones),)),
    ...              Term(slice(None), slice(1, 3), half, ((slice(None), ones),))], 2, (3,), h.shape)
    >>> s.apply(np.array([1.0, 2.0, 3.0]))      # the trapezoids over [0, 0.5] and [0.5, 1.5]
    array([0.75, 2.5 ])
    """

    def __init__(self, terms: list[Term], n_segments: int, y_shape: tuple[int, ...],
                 h_shape: tuple[int, ...]) -> None:
        self.terms = terms
        self.y_shape = tuple(y_shape)
        self.h_shape = tuple(h_shape)
        batch = np.broadcast_shapes(self.y_shape[:-1], self.h_shape[:-1])
        self.shape = (*batch, n_segments)

    def _empty(self, *operands: Any) -> np.ndarray:
        dtype = np.result_type(*operands, *(t.coef for t in self.terms), np.float64)
        return np.zeros(self.shape, dtype=dtype)

    def apply(self, y: np.ndarray) -> np.ndarray:
        """The segments ``S`` of the samples ``y`` (linear in ``y``)."""
        out = self._empty(y)
        for t in self.terms:
            out[..., t.segments] += t.coef * y[..., t.samples]
        return out

    def tangent(self, y: np.ndarray, dy: np.ndarray | None, dh: np.ndarray | None) -> np.ndarray:
        """``dS`` for the tangents ``dy`` of the samples and ``dh`` of the spacings (``None``: zero)."""
        out = self._empty(y, *(d for d in (dy, dh) if d is not None))
        if dy is not None:
            out += self.apply(dy)
        if dh is not None:
            for t in self.terms:
                for spacings, dcoef in t.partials:
                    out[..., t.segments] += dcoef * dh[..., spacings] * y[..., t.samples]
        return out

    def sample_cotangent(self, g: np.ndarray) -> np.ndarray:
        """``y_bar`` for the segment cotangent ``g`` (the adjoint of :meth:`apply`), of the samples' shape."""
        out = np.zeros((*self.shape[:-1], self.y_shape[-1]), dtype=np.result_type(g, np.float64))
        for t in self.terms:
            out[..., t.samples] += np.conj(t.coef) * g[..., t.segments]
        return unbroadcast(out, self.y_shape)

    def spacing_cotangent(self, y: np.ndarray, g: np.ndarray) -> np.ndarray:
        """``h_bar`` for the segment cotangent ``g``, of the spacings' shape."""
        full = (*self.shape[:-1], self.h_shape[-1])
        out = np.zeros(full, dtype=np.result_type(g, y, np.float64))
        for t in self.terms:
            for spacings, dcoef in t.partials:
                out[..., spacings] += np.conj(dcoef * y[..., t.samples]) * g[..., t.segments]
        return unbroadcast(out, self.h_shape)


# ---- the integration axis last ------------------------------------------------------------------------------
def move_last(a: Any, axis: int, ndim: int) -> np.ndarray:
    """``a`` (broadcastable against an array of ``ndim`` dimensions) with ``axis`` moved last.

    Missing leading dimensions are added first, so a spacing array that broadcasts against
    ``y`` keeps broadcasting once both have their integration axis last.

    Examples
    --------
    >>> move_last(np.ones((3, 1)), 0, 2).shape
    (1, 3)
    """
    a = np.asarray(a)
    a = a.reshape((1,) * (ndim - a.ndim) + a.shape)
    return np.moveaxis(a, axis, -1)


def put_back(a: np.ndarray, axis: int, shape: tuple[int, ...]) -> np.ndarray:
    """The inverse of :func:`move_last` for an array that had ``shape``.

    Examples
    --------
    >>> put_back(np.ones((1, 3)), 0, (3, 1)).shape
    (3, 1)
    """
    return np.moveaxis(a, -1, axis).reshape(shape)


def spacings(x: np.ndarray, axis: int, ndim: int) -> np.ndarray:
    """``diff(x)`` along the integration axis moved last (``x`` 1-d, or of ``y``'s number of dimensions).

    Examples
    --------
    >>> spacings(np.array([0.0, 1.0, 3.0]), 0, 2)
    array([1., 2.])
    """
    x = np.asarray(x)
    if x.ndim == 1:
        return np.diff(x)
    return np.diff(np.moveaxis(x, axis, -1), axis=-1)


def points_cotangent(h_bar: np.ndarray, x: np.ndarray, axis: int) -> np.ndarray:
    """``x_bar`` from the cotangent of :func:`spacings` (the adjoint of ``diff``), of ``x``'s shape.

    Examples
    --------
    >>> points_cotangent(np.array([1.0, 2.0]), np.zeros(3), 0)
    array([-1., -1.,  2.])
    """
    x = np.asarray(x)
    if x.ndim == 1:
        return diff_adjoint(h_bar.reshape(-1), 1, 0)
    return np.moveaxis(diff_adjoint(h_bar, 1, h_bar.ndim - 1), -1, axis)


# ---- the stencils of SciPy's rules ------------------------------------------------------------------------
def trapezoid_stencil(y_shape: tuple[int, ...], h: np.ndarray) -> Stencil:
    """One segment per interval: ``h_k (y_k + y_{k+1}) / 2``.

    Examples
    --------
    >>> trapezoid_stencil((3,), np.array([1.0, 2.0])).apply(np.array([0.0, 1.0, 1.0]))
    array([0.5, 2. ])
    """
    n = y_shape[-1]
    h = np.broadcast_to(h, np.broadcast_shapes(h.shape, (n - 1,)))
    half, d_half = h / 2.0, np.full(h.shape, 0.5)
    every = slice(None)
    terms = [Term(every, slice(0, n - 1), half, ((every, d_half),)),
             Term(every, slice(1, n), half, ((every, d_half),))]
    return Stencil(terms, n - 1, y_shape, h.shape)


def _parabola_coefficients(h0: np.ndarray, h1: np.ndarray) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Simpson's rule over two intervals of widths ``h0``, ``h1``: for ``y0, y1, y2`` the coefficient and
    its derivatives with respect to ``h0`` and ``h1``.

    ``(h0 + h1)/6 [(2 - h1/h0) y0 + (h0 + h1)^2/(h0 h1) y1 + (2 - h0/h1) y2]``, the integral of the
    parabola through the three points (Cartwright 2017, eq. 3).
    """
    s = h0 + h1
    c0 = (2 * h0 + h1 - h1 ** 2 / h0) / 6
    c1 = s ** 3 / (6 * h0 * h1)
    c2 = (2 * h1 + h0 - h0 ** 2 / h1) / 6
    return [(c0, (2 + (h1 / h0) ** 2) / 6, (1 - 2 * h1 / h0) / 6),
            (c1, s ** 2 * (2 * h0 - h1) / (6 * h0 ** 2 * h1), s ** 2 * (2 * h1 - h0) / (6 * h0 * h1 ** 2)),
            (c2, (1 - 2 * h0 / h1) / 6, (2 + (h0 / h1) ** 2) / 6)]


def _last_interval_coefficients(h0: np.ndarray, h1: np.ndarray) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """The last interval of an even number of samples (width ``h1``, after one of width ``h0``): for
    ``y[-3], y[-2], y[-1]`` the coefficient and its derivatives with respect to ``h0`` and ``h1``.

    ``-eta y[-3] + beta y[-2] + alpha y[-1]`` with ``alpha = (2 h1^2 + 3 h0 h1) / (6 (h0 + h1))``,
    ``beta = (h1^2 + 3 h0 h1) / (6 h0)``, ``eta = h1^3 / (6 h0 (h0 + h1))``: the integral of the
    parabola through the last three points over the last interval (Cartwright 2017, eq. 8, as
    SciPy writes it).
    """
    s = h0 + h1
    eta = h1 ** 3 / (6 * h0 * s)
    beta = (h1 ** 2 + 3 * h0 * h1) / (6 * h0)
    alpha = (2 * h1 ** 2 + 3 * h0 * h1) / (6 * s)
    return [(-eta, h1 ** 3 * (2 * h0 + h1) / (6 * h0 ** 2 * s ** 2), -h1 ** 2 * (3 * h0 + 2 * h1) / (6 * h0 * s ** 2)),
            (beta, -h1 ** 2 / (6 * h0 ** 2), h1 / (3 * h0) + 0.5),
            (alpha, h1 ** 2 / (6 * s ** 2), (3 * h0 ** 2 + 4 * h0 * h1 + 2 * h1 ** 2) / (6 * s ** 2))]


def simpson_stencil(y_shape: tuple[int, ...], h: np.ndarray) -> Stencil:
    """SciPy's composite Simpson's rule: parabolas over pairs of intervals, and for an even number of
    samples the last interval from the last three points; two samples: one trapezoid.

    Examples
    --------
    >>> x = np.linspace(0.0, 1.0, 4)
    >>> float(simpson_stencil((4,), np.diff(x)).apply(x ** 2).sum())    # exact for a parabola
    0.3333333333333333
    """
    n = y_shape[-1]
    if n == 2:
        return trapezoid_stencil(y_shape, h)
    h = np.broadcast_to(h, np.broadcast_shapes(h.shape, (n - 1,))).astype(np.float64, copy=False)
    pairs = (n - 1) // 2 if n % 2 else (n - 2) // 2
    terms = []
    if pairs:
        first, second = slice(0, 2 * pairs, 2), slice(1, 2 * pairs, 2)
        coefficients = _parabola_coefficients(h[..., first], h[..., second])
        for k, (c, dc0, dc1) in enumerate(coefficients):
            terms.append(Term(slice(0, pairs), slice(k, k + 2 * pairs, 2), c, ((first, dc0), (second, dc1))))
    if n % 2 == 0:
        first, second = slice(n - 3, n - 2), slice(n - 2, n - 1)
        coefficients = _last_interval_coefficients(h[..., first], h[..., second])
        for k, (c, dc0, dc1) in enumerate(coefficients):
            terms.append(Term(slice(pairs, pairs + 1), slice(n - 3 + k, n - 2 + k), c, ((first, dc0), (second, dc1))))
    return Stencil(terms, pairs + (n % 2 == 0), y_shape, h.shape)


def _interval_from_three(h0: np.ndarray, h1: np.ndarray) -> list[np.ndarray]:
    """The integral over an interval of width ``h0`` of the parabola through its two ends and a third
    point ``h1`` beyond its second end: the coefficients of the near end, the far end and the third point.

    ``h0/6 [(3 - h0/s) y1 + (3 + h0^2/(s h1) + h0/s) y2 - h0^2/(s h1) y3]`` with ``s = h0 + h1``
    (Cartwright 2017, eq. 8; SciPy's ``cumulative_simpson``).
    """
    s = h0 + h1
    c3 = -h0 ** 3 / (6 * s * h1)
    c1 = h0 / 2 - h0 ** 2 / (6 * s)
    return [c1, h0 - c1 - c3, c3]


def cumulative_simpson_stencil(y_shape: tuple[int, ...], h: np.ndarray) -> Stencil:
    """SciPy's ``cumulative_simpson``: each interval from the parabola through it and one neighbour
    (the next point for even intervals, the previous one for odd intervals and the last interval).

    Only the samples are differentiated (SciPy takes ``x`` and ``dx`` by keyword only), so the terms
    carry no partials.

    Examples
    --------
    >>> x = np.linspace(0.0, 1.0, 4)
    >>> np.cumsum(cumulative_simpson_stencil((4,), np.diff(x)).apply(x ** 2))[-1]
    np.float64(0.3333333333333333)
    """
    n = y_shape[-1]
    h = np.broadcast_to(h, np.broadcast_shapes(h.shape, (n - 1,))).astype(np.float64, copy=False)
    even = np.arange(n - 2) % 2 == 0
    # the interval j (even) from points j, j+1 and j+2: h0 = h[j], h1 = h[j+1]
    terms = [Term(slice(0, n - 2), slice(k, n - 2 + k), c * even)
             for k, c in enumerate(_interval_from_three(h[..., :-1], h[..., 1:]))]
    # the interval j+1 (odd, or the last one) from points j+2, j+1 and j: h0 = h[j+1], h1 = h[j]
    odd_or_last = even.copy()
    odd_or_last[-1] = True
    terms += [Term(slice(1, n - 1), slice(2 - k, n - k), c * odd_or_last)
              for k, c in enumerate(_interval_from_three(h[..., 1:], h[..., :-1]))]
    return Stencil(terms, n - 1, y_shape, h.shape)


# ---- where the spacings come from ---------------------------------------------------------------------------
class Spacings:
    """The spacings of a call, from the sample points ``x`` or the spacing ``dx``, integration axis last.

    Also maps an input tangent to the spacings' tangent (:meth:`tangent`) and the spacings'
    cotangent back to ``x`` or ``dx`` (:meth:`cotangent`).

    Parameters
    ----------
    y : ndarray
        The samples.
    x : array_like or None
        The sample points (1-d, or with ``y``'s number of dimensions).
    dx : number or array_like
        The spacing, used when ``x`` is ``None`` (broadcast against the intervals).
    axis : int
        The integration axis, already normalised.
    broadcast_x : bool
        Broadcast an n-d ``x`` to ``y``'s shape first (SciPy's ``trapezoid`` does).

    Examples
    --------
    >>> s = Spacings(np.ones((2, 3)), None, 0.5, 1)
    >>> s.h.shape, s.cotangent(np.ones((1, 1)))
    ((1, 1), np.float64(1.0))
    """

    def __init__(self, y: np.ndarray, x: Any, dx: Any, axis: int, broadcast_x: bool = False) -> None:
        self.ndim, self.axis, self.x, self.dx, self.y_shape = y.ndim, axis, x, dx, y.shape
        self.from_points = x is not None
        self.broadcast_x = broadcast_x and self.from_points and np.ndim(x) > 1
        if self.from_points:
            self.h = spacings(self._points(x), axis, y.ndim)
        else:
            self.h = move_last(dx, axis, y.ndim)

    def _points(self, x: Any) -> np.ndarray:
        x = np.asarray(x)
        return np.broadcast_to(x, self.y_shape) if self.broadcast_x else x

    def tangent(self, d: Any) -> np.ndarray | None:
        """The spacings' tangent from the tangent of ``x`` (or of ``dx`` when no ``x`` is given)."""
        if d is None:
            return None
        if self.from_points:
            return spacings(self._points(np.broadcast_to(d, np.shape(self.x))), self.axis, self.ndim)
        return move_last(d, self.axis, self.ndim)

    def cotangent(self, h_bar: np.ndarray) -> Any:
        """``x_bar`` (or ``dx_bar``) from the spacings' cotangent ``h_bar`` (broadcastable to :attr:`h`)."""
        h_bar = unbroadcast(np.broadcast_to(h_bar, np.broadcast_shapes(h_bar.shape, self.h.shape)), self.h.shape)
        if self.from_points:
            x = np.asarray(self.x)
            full = points_cotangent(h_bar, self._points(x), self.axis)
            return unbroadcast(full, x.shape) if self.broadcast_x else full
        shape = np.shape(self.dx)
        out = put_back(h_bar, self.axis, (1,) * (self.ndim - len(shape)) + shape).reshape(shape)
        return out[()] if out.ndim == 0 else out


class SampledIntegral:
    """A call of a sample-based rule: its stencil, and how the segments make the output.

    ``cumulative=False``: the output is the sum of the segments (the integration axis removed).
    ``cumulative=True``: the running sum, along ``axis``, after ``leading`` entries that do not
    depend on the samples (``initial``).

    Examples
    --------
    >>> y, h = np.array([1.0, 2.0, 4.0]), np.array([1.0])
    >>> call = SampledIntegral(y, 0, trapezoid_stencil(y.shape, h), cumulative=True)
    >>> call.tangent(np.ones(3), None), call.y_cotangent(call.segment_cotangent(np.array([1.0, 1.0])))
    (array([1., 2.]), array([1. , 1.5, 0.5]))
    """

    def __init__(self, y: np.ndarray, axis: int, stencil: Stencil, cumulative: bool = False, leading: int = 0) -> None:
        self.y, self.axis, self.stencil = y, axis, stencil
        self.moved = np.moveaxis(y, axis, -1)
        self.cumulative, self.leading = cumulative, leading

    def segment_cotangent(self, d_out: Any) -> np.ndarray:
        """The cotangent of the segments from the output cotangent (an array or number, already read)."""
        d_out = np.asarray(d_out)
        if not self.cumulative:
            return np.broadcast_to(d_out[..., None], self.stencil.shape)
        g = np.moveaxis(d_out, self.axis, -1)[..., self.leading:]
        return np.flip(np.cumsum(np.flip(g, -1), -1), -1)  # the adjoint of cumsum

    def y_cotangent(self, g: np.ndarray) -> np.ndarray:
        return np.moveaxis(self.stencil.sample_cotangent(g), -1, self.axis)

    def spacing_cotangent(self, g: np.ndarray) -> np.ndarray:
        return self.stencil.spacing_cotangent(self.moved, g)

    def tangent(self, dy: Any, dh: np.ndarray | None) -> np.ndarray | None:
        """The output tangent (``None`` if both tangents are zero) for ``dy`` and the spacings' ``dh``."""
        if dy is None and dh is None:
            return None
        moved_dy = None if dy is None else np.moveaxis(np.asarray(dy), self.axis, -1)
        ds = self.stencil.tangent(self.moved, moved_dy, dh)
        if not self.cumulative:
            return ds.sum(-1)
        out = np.cumsum(ds, -1)
        if self.leading:
            out = np.concatenate([np.zeros((*out.shape[:-1], self.leading), out.dtype), out], -1)
        return np.moveaxis(out, -1, self.axis)
