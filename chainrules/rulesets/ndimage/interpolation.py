"""Spline interpolation and geometric transforms of ``scipy.ndimage``: ``map_coordinates``,
``affine_transform``, ``shift``, ``zoom``, ``rotate``, ``geometric_transform``, ``spline_filter``
and ``spline_filter1d``; with respect to the input, ``cval`` and the coordinates (or the
transform's parameters), every ``order`` 0 to 5, every ``mode``, with and without ``prefilter``.

The maths
---------
Each function samples the B-spline of degree ``order`` of the input at points ``p`` (see
:mod:`._splines` for how SciPy computes it, which the rules reproduce exactly):

* ``map_coordinates``: ``p`` is the ``coordinates`` array;
* ``affine_transform``: ``p = M o + offset`` for the output index ``o`` (a 1-d ``matrix`` is a
  diagonal, a ``(d, d+1)`` or ``(d+1, d+1)`` one carries the offset in its last column);
* ``shift``: ``p = o - shift``; ``zoom``: ``p = o (n_in - 1) / (n_out - 1)`` (``grid_mode``:
  ``(o + 1/2) n_in / n_out - 1/2``), which depends on ``zoom`` only through the output shape;
* ``rotate``: ``p = R(angle) (o - c_out) + c_in`` in the plane of ``axes``, ``R`` the rotation by
  ``angle`` degrees and ``c`` the planes' centres (SciPy applies ``affine_transform`` plane by
  plane);
* ``geometric_transform``: ``p = mapping(o, *extra_arguments)``.

The output is linear in ``(input, cval)``: the forward rule is the function itself applied to
``(dx, dcval)``, and the pullback is the transposed sampling followed by the transposed
prefilter (one extra spline filter). With respect to the points it is the spline's gradient
``dy/dp`` (``order`` 0 is piecewise constant: zero; order 1 is piecewise linear: the one-sided
derivative at the knots), pushed through ``p``: ``Mbar = sum_o pbar o^T``, ``offsetbar = sum_o
pbar``, ``shiftbar = -sum_o pbar``, ``anglebar = (pi / 180) sum_o pbar . R'(o - c_out)``.
In the ``constant`` mode a point outside the input is ``cval``: its derivative in the input
and the point is zero (the jump at the border has none).

``spline_filter1d`` and ``spline_filter`` are the prefilter alone (linear). ``order``,
``mode``, ``axes``, ``reshape``, ``output_shape``, ``grid_mode``, ``prefilter`` and ``output``
(``None`` or a dtype) are not differentiated; ``zoom`` has a zero derivative (the output
shape is piecewise constant in it). ``geometric_transform``'s mapping is differentiated only
in what it returns, not in values it carries (a closure, ``extra_arguments`` of floating
type): those are ``not_implemented``; compute the coordinates and call ``map_coordinates``.
"""

from __future__ import annotations

import itertools
import types
import typing
from typing import Any

import numpy as np
import scipy.ndimage as ndi
import scipy.special
from numpy.lib.array_utils import normalize_axis_index

from chainrules.rulesets.ndimage._boundary import check_output
from chainrules.rulesets.ndimage._rules import (
    make_pullback,
    memoized,
    output_tangent,
    tangent_array,
    tangent_value,
    transposed_cotangents,
)
from chainrules.rulesets.ndimage._samples import image, linear_fdm
from chainrules.rulesets.ndimage._splines import (
    Sampler,
    padding,
    prefilter,
    prefilter_transpose,
    spline_filter1d_transpose,
)
from chainrules.rulesets.ndimage.smoothing import per_axis
from chainrules_core import (
    NotImplementedTangent,
    Sample,
    ZeroTangent,
    differentiable,
    frule,
    not_implemented,
    rrule,
    sample_inputs,
)

__all__ = ["Interpolation"]


class Interpolation:
    """The spline sampling of one input at given points, with its adjoint and gradient.

    The coefficients (the prefilter) and the sampling's geometry are computed on first use,
    so that a rule whose pullback is never called costs the primal alone.

    Parameters
    ----------
    x : ndarray
        The input.
    points : ndarray
        Shape ``(x.ndim, P)``.
    order, mode, cval, use_prefilter :
        As the SciPy function takes them.

    Examples
    --------
    >>> interp = Interpolation(np.array([0.0, 1.0, 4.0]), np.array([[0.5, 1.5]]), 1, "nearest", 0.0, True)
    >>> interp.values()
    array([0.5, 2.5])
    >>> interp.gradient()[0]                        # the slopes of the linear pieces
    array([1., 3.])
    """

    def __init__(self, x: np.ndarray, points: np.ndarray, order: int, mode: str, cval: Any,
                 use_prefilter: bool) -> None:
        self.x, self.points = x, points
        self.order, self.mode, self.cval = int(order), mode, cval
        self.filtered = bool(use_prefilter) and self.order > 1
        self._coefficients: Any = None
        self._sampler: Any = None
        self._gradient: Any = None

    @property
    def coefficients(self) -> np.ndarray:
        if self._coefficients is None:
            work = self.x if self.x.dtype.kind in "fc" else self.x.astype(np.float64)
            self._coefficients, self.pad = prefilter(work, self.order, self.mode, self.cval) if self.filtered \
                else (work, 0)
        return typing.cast(np.ndarray, self._coefficients)

    @property
    def sampler(self) -> Sampler:
        if self._sampler is None:  # the geometry needs the padded shape, not the coefficients
            pad = padding(self.mode) if self.filtered else 0
            shape = tuple(n + 2 * pad for n in self.x.shape)
            self._sampler = Sampler(self.points, shape, self.order, self.mode, pad)
        return typing.cast(Sampler, self._sampler)

    def values(self) -> np.ndarray:
        return self.sampler.values(self.coefficients, self.cval)

    def transpose(self, dy: np.ndarray) -> tuple[np.ndarray, Any]:
        """The cotangents of the input and of ``cval``."""
        dc, dcval = self.sampler.transpose(dy)
        if not self.filtered:
            return dc, dcval
        dx, dpad = prefilter_transpose(dc, self.order, self.mode, padding(self.mode))
        return dx, dcval if dpad is None else dcval + dpad

    def gradient(self) -> list[np.ndarray]:
        """``dy/dp_h`` at each point, one array per axis (computed once)."""
        if self._gradient is None:
            self._gradient = self.sampler.gradient(self.coefficients, self.cval)
        return typing.cast(list, self._gradient)

    def point_cotangents(self, dy: np.ndarray) -> np.ndarray:
        """``pbar_h = Re(conj(dy/dp_h) dy)``: the points are real. Shape ``(d, P)``."""
        dy = np.asarray(dy).reshape(-1)
        return np.array([np.real(np.conj(g) * dy) for g in self.gradient()])


def _point_tangent(interp: Interpolation, dpoints: np.ndarray) -> np.ndarray:
    """``sum_h dy/dp_h dp_h``, one value per point."""
    total: Any = 0.0
    for g, dp in zip(interp.gradient(), dpoints):
        total = total + g * dp
    return np.asarray(total)


def _linear_tangent(call: Any, dx: Any, dcval: Any, x: np.ndarray) -> Any:
    """The function applied to ``(dx, dcval)`` (``None`` if both are zero): the output is linear in them."""
    if dx is None and dcval is None:
        return None
    if dx is None:
        kind = x.dtype if x.dtype.kind in "fc" else np.dtype(np.float64)
        dx = np.zeros(x.shape, np.result_type(kind, dcval))
    return call(dx, 0.0 if dcval is None else dcval)


def _sum_terms(*terms: Any) -> Any:
    total: Any = None
    for t in terms:
        if t is not None:
            total = t if total is None else total + t
    return total


def _missing(*tangents: Any) -> Any:
    for t in tangents:
        if isinstance(t, NotImplementedTangent):
            return t
    return None


# ---- map_coordinates -----------------------------------------------------------------------------
@rrule.register(ndi.map_coordinates)
def map_coordinates_rrule(input: Any, coordinates: Any, output: Any = None, order: Any = 3, mode: Any = "constant",
                          cval: Any = 0.0, prefilter: Any = True) -> Any:
    """Reverse rule of ``scipy.ndimage.map_coordinates``: the input, the coordinates and ``cval``.

    Examples
    --------
    >>> from chainrules import unthunk
    >>> x = np.array([0.0, 1.0, 4.0, 9.0])
    >>> y, pullback = rrule(ndi.map_coordinates, x, np.array([[1.5]]), order=1)
    >>> y, unthunk(pullback(np.array([1.0]))[1]), unthunk(pullback(np.array([1.0]))[2])
    (array([2.5]), array([0. , 0.5, 0.5, 0. ]), array([[3.]]))
    """
    check_output(ndi.map_coordinates, output)
    y = ndi.map_coordinates(input, coordinates, output, order, mode, cval, prefilter)
    x, points = np.asarray(input), np.asarray(coordinates, dtype=np.float64)
    interp = Interpolation(x, points.reshape(points.shape[0], -1), order, mode, cval, prefilter)

    _, input_cotangent, cval_cotangent = transposed_cotangents(interp.transpose)

    def coordinates_cotangent(dy: np.ndarray, memo: dict[str, Any]) -> Any:
        return interp.point_cotangents(dy).reshape(points.shape)

    values = (input, coordinates, output, order, mode, cval, prefilter)
    cotangents = {0: input_cotangent, 1: coordinates_cotangent, 5: cval_cotangent}
    return y, make_pullback(ndi.map_coordinates, "map_coordinates", y, values, cotangents)


@frule.register(ndi.map_coordinates)
def map_coordinates_frule(tangents: Any, input: Any, coordinates: Any, output: Any = None, order: Any = 3,
                          mode: Any = "constant", cval: Any = 0.0, prefilter: Any = True) -> Any:
    """Forward rule of ``scipy.ndimage.map_coordinates``: ``f(dx, cval=dcval) + grad y . dp``.

    Examples
    --------
    >>> from chainrules import NoTangent
    >>> x = np.array([0.0, 1.0, 4.0, 9.0])
    >>> frule((NoTangent(), np.zeros(4), np.array([[1.0]])), ndi.map_coordinates, x, np.array([[1.5]]), order=1)[1]
    array([3.])
    """
    check_output(ndi.map_coordinates, output)
    y = ndi.map_coordinates(input, coordinates, output, order, mode, cval, prefilter)
    x = np.asarray(input)
    dx, dp, dc = tangent_array(tangents[1], input), tangent_array(tangents[2], coordinates), tangent_value(tangents[6])
    missing = _missing(dx, dp, dc)
    if missing is not None:
        return y, missing
    points = np.asarray(coordinates, dtype=np.float64)

    def call(a: Any, c: Any) -> Any:
        return ndi.map_coordinates(a, points, None, order, mode, c, prefilter)

    moving = None
    if dp is not None:
        interp = Interpolation(x, points.reshape(points.shape[0], -1), order, mode, cval, prefilter)
        moving = _point_tangent(interp, np.asarray(dp).reshape(points.shape[0], -1)).reshape(y.shape)
    return y, output_tangent(_sum_terms(_linear_tangent(call, dx, dc, x), moving), y)


# ---- affine_transform, shift, zoom --------------------------------------------------------------------
def _affine_parts(x: np.ndarray, matrix: Any, offset: Any, output_shape: tuple[int, ...]) -> dict[str, Any]:
    """The points of ``affine_transform`` and how they depend on the matrix and offset, as SciPy reads them."""
    d = x.ndim
    m = np.asarray(matrix, dtype=np.float64)
    homogeneous = m.ndim == 2 and m.shape[1] == d + 1 and m.shape[0] in (d, d + 1)
    if homogeneous:
        linear, shift = m[:d, :d], m[:d, d]
    else:
        linear, shift = m, np.asarray(per_axis(offset, d), dtype=np.float64)
    grid = np.indices(output_shape, dtype=np.float64).reshape(len(output_shape), -1)
    if linear.ndim == 1:  # SciPy's zoom_shift: (o + offset / m) * m
        points = (grid + (shift / linear)[:, None]) * linear[:, None]
    else:
        points = shift[:, None] + linear @ grid
    return {"points": points, "grid": grid, "homogeneous": homogeneous, "diagonal": linear.ndim == 1,
            "shape": m.shape}


def _affine_matrix_cotangent(parts: dict[str, Any], pbar: np.ndarray) -> np.ndarray:
    grid = parts["grid"]
    if parts["diagonal"]:
        return np.sum(pbar * grid, axis=1)
    linear = pbar @ grid.T
    if not parts["homogeneous"]:
        return linear
    out = np.zeros(parts["shape"])
    d = linear.shape[0]
    out[:d, :d] = linear
    out[:d, d] = pbar.sum(axis=1)
    return out


def _affine_matrix_tangent(parts: dict[str, Any], dmatrix: np.ndarray) -> np.ndarray:
    grid = parts["grid"]
    dm = np.asarray(dmatrix, dtype=np.float64)
    if parts["diagonal"]:
        return dm[:, None] * grid
    d = grid.shape[0] if not parts["homogeneous"] else parts["shape"][1] - 1
    if parts["homogeneous"]:
        return dm[:d, :d] @ grid + dm[:d, d][:, None]
    return dm @ grid


def _output_shape(x: np.ndarray, output_shape: Any) -> tuple[int, ...]:
    return tuple(x.shape) if output_shape is None else tuple(int(n) for n in output_shape)


@rrule.register(ndi.affine_transform)
def affine_transform_rrule(input: Any, matrix: Any, offset: Any = 0.0, output_shape: Any = None, output: Any = None,
                           order: Any = 3, mode: Any = "constant", cval: Any = 0.0, prefilter: Any = True) -> Any:
    """Reverse rule of ``scipy.ndimage.affine_transform``: the input, the matrix, the offset and ``cval``.

    Examples
    --------
    >>> from chainrules import unthunk
    >>> x = np.array([0.0, 1.0, 4.0, 9.0])
    >>> y, pullback = rrule(ndi.affine_transform, x, np.array([[0.5]]), 1.0, order=1)
    >>> y, unthunk(pullback(np.array([0.0, 1.0, 0.0, 0.0]))[2])    # y[1] = x(1.5): slope 3, dp/dM = o = 1
    (array([1. , 2.5, 4. , 6.5]), array([[3.]]))
    """
    check_output(ndi.affine_transform, output)
    y = ndi.affine_transform(input, matrix, offset, output_shape, output, order, mode, cval, prefilter)
    x = np.asarray(input)
    parts = _affine_parts(x, matrix, offset, _output_shape(x, output_shape))
    interp = Interpolation(x, parts["points"], order, mode, cval, prefilter)
    scalar_offset = np.ndim(offset) == 0

    _, input_cotangent, cval_cotangent = transposed_cotangents(interp.transpose)

    def points_bar(dy: np.ndarray, memo: dict[str, Any]) -> Any:
        return memoized(memo, "points", lambda: interp.point_cotangents(dy))

    def matrix_cotangent(dy: np.ndarray, memo: dict[str, Any]) -> Any:
        return _affine_matrix_cotangent(parts, points_bar(dy, memo))

    def offset_cotangent(dy: np.ndarray, memo: dict[str, Any]) -> Any:
        if parts["homogeneous"]:
            return ZeroTangent()  # the matrix's last column is the offset: this one is unused
        per = points_bar(dy, memo).sum(axis=1)
        return per.sum() if scalar_offset else per

    values = (input, matrix, offset, output_shape, output, order, mode, cval, prefilter)
    cotangents = {0: input_cotangent, 1: matrix_cotangent, 2: offset_cotangent, 7: cval_cotangent}
    return y, make_pullback(ndi.affine_transform, "affine_transform", y, values, cotangents)


@frule.register(ndi.affine_transform)
def affine_transform_frule(tangents: Any, input: Any, matrix: Any, offset: Any = 0.0, output_shape: Any = None,
                           output: Any = None, order: Any = 3, mode: Any = "constant", cval: Any = 0.0,
                           prefilter: Any = True) -> Any:
    """Forward rule of ``scipy.ndimage.affine_transform``: the input, matrix, offset and ``cval``.

    Examples
    --------
    >>> from chainrules import NoTangent
    >>> x = np.array([0.0, 1.0, 4.0, 9.0])
    >>> t = (NoTangent(), np.zeros(4), np.zeros((1, 1)), 1.0)
    >>> frule(t, ndi.affine_transform, x, np.array([[0.5]]), 1.0, order=1)[1]   # p = 1, 1.5, 2, 2.5: right slopes
    array([3., 3., 5., 5.])
    """
    check_output(ndi.affine_transform, output)
    y = ndi.affine_transform(input, matrix, offset, output_shape, output, order, mode, cval, prefilter)
    x = np.asarray(input)
    dx, dm = tangent_array(tangents[1], input), tangent_array(tangents[2], matrix)
    doff = tangent_array(tangents[3], offset) if np.ndim(offset) else tangent_value(tangents[3])
    dc = tangent_value(tangents[8])
    missing = _missing(dx, dm, doff, dc)
    if missing is not None:
        return y, missing
    shape = _output_shape(x, output_shape)

    def call(a: Any, c: Any) -> Any:
        return ndi.affine_transform(a, matrix, offset, output_shape, None, order, mode, c, prefilter)

    moving = None
    parts = _affine_parts(x, matrix, offset, shape)
    dpoints: Any = None
    if dm is not None:
        dpoints = _affine_matrix_tangent(parts, dm)
    if doff is not None and not parts["homogeneous"]:
        step = np.asarray(per_axis(doff, x.ndim), dtype=np.float64)[:, None]
        dpoints = step if dpoints is None else dpoints + step
    if dpoints is not None:
        interp = Interpolation(x, parts["points"], order, mode, cval, prefilter)
        moving = _point_tangent(interp, np.broadcast_to(dpoints, parts["points"].shape)).reshape(y.shape)
    return y, output_tangent(_sum_terms(_linear_tangent(call, dx, dc, x), moving), y)


def _shift_points(x: np.ndarray, shift: Any) -> np.ndarray:
    grid = np.indices(x.shape, dtype=np.float64).reshape(x.ndim, -1)
    return grid + np.asarray([-s for s in per_axis(shift, x.ndim)], dtype=np.float64)[:, None]


@rrule.register(ndi.shift)
def shift_rrule(input: Any, shift: Any, output: Any = None, order: Any = 3, mode: Any = "constant", cval: Any = 0.0,
                prefilter: Any = True) -> Any:
    """Reverse rule of ``scipy.ndimage.shift``: the input, the shift and ``cval``.

    Examples
    --------
    >>> from chainrules import unthunk
    >>> y, pullback = rrule(ndi.shift, np.array([0.0, 1.0, 4.0, 9.0]), 0.5, order=1, mode="nearest")
    >>> y, unthunk(pullback(np.array([0.0, 0.0, 1.0, 0.0]))[2])          # y[2] = x(1.5): slope 3, dp/dshift = -1
    (array([0. , 0.5, 2.5, 6.5]), -3.0)
    """
    check_output(ndi.shift, output)
    y = ndi.shift(input, shift, output, order, mode, cval, prefilter)
    x = np.asarray(input)
    interp = Interpolation(x, _shift_points(x, shift), order, mode, cval, prefilter)
    scalar = np.ndim(shift) == 0

    _, input_cotangent, cval_cotangent = transposed_cotangents(interp.transpose)

    def shift_cotangent(dy: np.ndarray, memo: dict[str, Any]) -> Any:
        per = -interp.point_cotangents(dy).sum(axis=1)
        return per.sum() if scalar else per

    values = (input, shift, output, order, mode, cval, prefilter)
    return y, make_pullback(ndi.shift, "shift", y, values, {0: input_cotangent, 1: shift_cotangent, 5: cval_cotangent})


@frule.register(ndi.shift)
def shift_frule(tangents: Any, input: Any, shift: Any, output: Any = None, order: Any = 3, mode: Any = "constant",
                cval: Any = 0.0, prefilter: Any = True) -> Any:
    """Forward rule of ``scipy.ndimage.shift``: ``shift(dx, cval=dcval) - grad y . dshift``.

    Examples
    --------
    >>> from chainrules import NoTangent
    >>> x = np.array([0.0, 1.0, 4.0, 9.0])
    >>> frule((NoTangent(), np.zeros(4), 1.0), ndi.shift, x, 0.5, order=1, mode="nearest")[1] + 0.0
    array([ 0., -1., -3., -5.])
    """
    check_output(ndi.shift, output)
    y = ndi.shift(input, shift, output, order, mode, cval, prefilter)
    x = np.asarray(input)
    dx, dc = tangent_array(tangents[1], input), tangent_value(tangents[6])
    ds = tangent_array(tangents[2], shift) if np.ndim(shift) else tangent_value(tangents[2])
    missing = _missing(dx, ds, dc)
    if missing is not None:
        return y, missing

    def call(a: Any, c: Any) -> Any:
        return ndi.shift(a, shift, None, order, mode, c, prefilter)

    moving = None
    if ds is not None:
        interp = Interpolation(x, _shift_points(x, shift), order, mode, cval, prefilter)
        step = -np.asarray(per_axis(ds, x.ndim), dtype=np.float64)[:, None]
        moving = _point_tangent(interp, np.broadcast_to(step, (x.ndim, x.size))).reshape(y.shape)
    return y, output_tangent(_sum_terms(_linear_tangent(call, dx, dc, x), moving), y)


def _zoom_points(x: np.ndarray, zoom: Any, grid_mode: bool) -> tuple[np.ndarray, tuple[int, ...]]:
    """SciPy's zoom coordinates: they depend on the input and output shapes only."""
    factors = per_axis(zoom, x.ndim)
    out_shape = tuple(int(np.rint(n * z)) for n, z in zip(x.shape, factors))  # round half to even, as SciPy
    div = np.array(out_shape, dtype=np.float64)
    num = np.array(x.shape, dtype=np.float64)
    if not grid_mode:
        div, num = div - 1, num - 1
    ratio = np.divide(num, div, out=np.ones(x.ndim), where=div != 0)
    grid = np.indices(out_shape, dtype=np.float64).reshape(x.ndim, -1)
    points = ((grid + 0.5) * ratio[:, None] - 0.5) if grid_mode else grid * ratio[:, None]
    return points, out_shape


def _zoom_identity(zoom: Any, ndim: int, prefilter: Any) -> bool:
    """SciPy returns the input itself for a zoom of 1 along every axis (with ``prefilter``)."""
    return all(z == 1 for z in per_axis(zoom, ndim)) and bool(prefilter)


@rrule.register(ndi.zoom)
def zoom_rrule(input: Any, zoom: Any, output: Any = None, order: Any = 3, mode: Any = "constant", cval: Any = 0.0,
               prefilter: Any = True, *, grid_mode: Any = False) -> Any:
    """Reverse rule of ``scipy.ndimage.zoom``: the input and ``cval`` (the zoom factor: zero).

    Examples
    --------
    >>> from chainrules import unthunk
    >>> y, pullback = rrule(ndi.zoom, np.array([0.0, 2.0]), 2.0, order=1)
    >>> y, unthunk(pullback(np.ones(4))[1]), unthunk(pullback(np.ones(4))[2])
    (array([0.        , 0.66666667, 1.33333333, 2.        ]), array([2., 2.]), ZeroTangent())
    """
    check_output(ndi.zoom, output)
    y = ndi.zoom(input, zoom, output, order, mode, cval, prefilter, grid_mode=grid_mode)
    x = np.asarray(input)
    values = (input, zoom, output, order, mode, cval, prefilter)
    if _zoom_identity(zoom, x.ndim, prefilter):
        return y, make_pullback(ndi.zoom, "zoom", y, values, {0: lambda dy, memo: np.array(dy, copy=True),
                                                             1: lambda dy, memo: ZeroTangent(),
                                                             5: lambda dy, memo: ZeroTangent()})
    points, _ = _zoom_points(x, zoom, grid_mode)
    interp = Interpolation(x, points, order, mode, cval, prefilter)

    _, input_cotangent, cval_cotangent = transposed_cotangents(interp.transpose)

    def zoom_cotangent(dy: np.ndarray, memo: dict[str, Any]) -> Any:
        return ZeroTangent()  # the points depend on the shapes only

    return y, make_pullback(ndi.zoom, "zoom", y, values, {0: input_cotangent, 1: zoom_cotangent, 5: cval_cotangent})


@frule.register(ndi.zoom)
def zoom_frule(tangents: Any, input: Any, zoom: Any, output: Any = None, order: Any = 3, mode: Any = "constant",
               cval: Any = 0.0, prefilter: Any = True, *, grid_mode: Any = False) -> Any:
    """Forward rule of ``scipy.ndimage.zoom``: ``zoom(dx, cval=dcval)``.

    Examples
    --------
    >>> from chainrules import NoTangent
    >>> frule((NoTangent(), np.array([0.0, 3.0]), 0.0), ndi.zoom, np.zeros(2), 2.0, order=1)[1]
    array([0., 1., 2., 3.])
    """
    check_output(ndi.zoom, output)
    y = ndi.zoom(input, zoom, output, order, mode, cval, prefilter, grid_mode=grid_mode)
    x = np.asarray(input)
    dx, dc = tangent_array(tangents[1], input), tangent_value(tangents[6])
    missing = _missing(dx, dc)
    if missing is not None:
        return y, missing

    def call(a: Any, c: Any) -> Any:
        return ndi.zoom(a, zoom, None, order, mode, c, prefilter, grid_mode=grid_mode)

    return y, output_tangent(_linear_tangent(call, dx, dc, x), y)


# ---- rotate ---------------------------------------------------------------------------------------------
def _rotation(x: np.ndarray, angle: Any, axes: Any, reshape: Any) -> dict[str, Any]:
    """SciPy's rotation in the plane of ``axes``: matrix, offset and output shape, and the matrix's
    derivative in the angle (per degree)."""
    axes = sorted(normalize_axis_index(int(a), x.ndim) for a in axes)
    c, s = scipy.special.cosdg(angle), scipy.special.sindg(angle)
    matrix = np.array([[c, s], [-s, c]])
    dmatrix = np.pi / 180 * np.array([[-s, c], [-c, -s]])
    in_plane = np.asarray(x.shape)[axes]
    if reshape:
        iy, ix = in_plane
        bounds = matrix @ [[0, 0, iy, iy], [0, ix, 0, ix]]
        out_plane = (np.ptp(bounds, axis=1) + 0.5).astype(int)
    else:
        out_plane = in_plane
    out_centre = (out_plane - 1) / 2
    offset = (in_plane - 1) / 2 - matrix @ out_centre
    return {"axes": axes, "matrix": matrix, "dmatrix": dmatrix, "offset": offset, "out_plane": tuple(out_plane),
            "out_centre": out_centre}


def _planes(x: np.ndarray, axes: list[int]) -> list[tuple[Any, ...]]:
    """The index of every plane parallel to ``axes`` (SciPy's loop over them)."""
    return list(itertools.product(*[[slice(None)] if a in axes else range(x.shape[a]) for a in range(x.ndim)]))


def _rotation_parts(x: np.ndarray, angle: Any, axes: Any, reshape: Any) -> tuple[dict[str, Any], np.ndarray,
                                                                                  np.ndarray]:
    rot = _rotation(x, angle, axes, reshape)
    grid = np.indices(rot["out_plane"], dtype=np.float64).reshape(2, -1)
    points = rot["offset"][:, None] + rot["matrix"] @ grid
    dpoints = rot["dmatrix"] @ (grid - rot["out_centre"][:, None])
    return rot, points, dpoints


@rrule.register(ndi.rotate)
def rotate_rrule(input: Any, angle: Any, axes: Any = (1, 0), reshape: Any = True, output: Any = None, order: Any = 3,
                 mode: Any = "constant", cval: Any = 0.0, prefilter: Any = True) -> Any:
    """Reverse rule of ``scipy.ndimage.rotate``: the input, the angle (degrees) and ``cval``.

    Examples
    --------
    >>> from chainrules import unthunk
    >>> x = np.arange(9.0).reshape(3, 3)
    >>> y, pullback = rrule(ndi.rotate, x, 90.0, order=1)
    >>> float(np.round(unthunk(pullback(np.ones((3, 3)))[2]), 12))    # a turn moves no mass
    0.0
    """
    check_output(ndi.rotate, output)
    y = ndi.rotate(input, angle, axes, reshape, output, order, mode, cval, prefilter)
    x = np.asarray(input)
    rot, points, dpoints = _rotation_parts(x, angle, axes, reshape)
    planes = _planes(x, rot["axes"])
    out_planes = _planes(y, rot["axes"])
    interps = [Interpolation(x[p], points, order, mode, cval, prefilter) for p in planes]

    def transpose(dy: np.ndarray) -> tuple[np.ndarray, Any]:  # plane by plane
        dx = np.zeros(x.shape, dtype=np.result_type(dy, np.float64))
        dcval: Any = 0.0
        for interp, p, q in zip(interps, planes, out_planes):
            d, c = interp.transpose(dy[q])
            dx[p] = d
            dcval = dcval + c
        return dx, dcval

    _, input_cotangent, cval_cotangent = transposed_cotangents(transpose)

    def angle_cotangent(dy: np.ndarray, memo: dict[str, Any]) -> Any:
        return sum(float(np.sum(interp.point_cotangents(dy[q]) * dpoints)) for interp, q in zip(interps, out_planes))

    values = (input, angle, axes, reshape, output, order, mode, cval, prefilter)
    return y, make_pullback(ndi.rotate, "rotate", y, values, {0: input_cotangent, 1: angle_cotangent,
                                                             7: cval_cotangent})


@frule.register(ndi.rotate)
def rotate_frule(tangents: Any, input: Any, angle: Any, axes: Any = (1, 0), reshape: Any = True, output: Any = None,
                 order: Any = 3, mode: Any = "constant", cval: Any = 0.0, prefilter: Any = True) -> Any:
    """Forward rule of ``scipy.ndimage.rotate``: ``rotate(dx, cval=dcval) + grad y . dp/dangle dangle``.

    Examples
    --------
    >>> from chainrules import NoTangent
    >>> x = np.arange(9.0).reshape(3, 3)
    >>> t = (NoTangent(), np.zeros((3, 3)), 1.0)
    >>> dy = frule(t, ndi.rotate, x, 0.0, reshape=False, order=1, mode="nearest")[1]
    >>> bool(abs(dy[1, 1]) < 1e-12)                                     # the centre does not move
    True
    """
    check_output(ndi.rotate, output)
    y = ndi.rotate(input, angle, axes, reshape, output, order, mode, cval, prefilter)
    x = np.asarray(input)
    dx, da, dc = tangent_array(tangents[1], input), tangent_value(tangents[2]), tangent_value(tangents[8])
    missing = _missing(dx, da, dc)
    if missing is not None:
        return y, missing

    def call(a: Any, c: Any) -> Any:
        return ndi.rotate(a, angle, axes, reshape, None, order, mode, c, prefilter)

    moving = None
    if da is not None:
        rot, points, dpoints = _rotation_parts(x, angle, axes, reshape)
        moving = np.zeros(y.shape, dtype=np.result_type(x.dtype if x.dtype.kind in "fc" else np.float64, cval))
        for p, q in zip(_planes(x, rot["axes"]), _planes(y, rot["axes"])):
            interp = Interpolation(x[p], points, order, mode, cval, prefilter)
            moving[q] = (_point_tangent(interp, dpoints) * float(da)).reshape(moving[q].shape)
    return y, output_tangent(_sum_terms(_linear_tangent(call, dx, dc, x), moving), y)


# ---- geometric_transform -------------------------------------------------------------------------------
_CARRIED = ("scipy.ndimage.geometric_transform: the derivative in values the mapping carries (a closure, "
            "floating extra_arguments) is not implemented; compute the coordinates with your AD and call "
            "scipy.ndimage.map_coordinates, whose rules differentiate them")


def _carries_values(mapping: Any) -> bool:
    """Whether the mapping holds numbers the rules cannot see (a closure or defaults with floats or arrays)."""
    if isinstance(mapping, types.FunctionType):
        cells = [c.cell_contents for c in (mapping.__closure__ or ())]
        held = list(cells) + list(mapping.__defaults__ or ())
        return any(differentiable(v) for v in held if isinstance(v, (float, complex, np.ndarray, np.generic)))
    return not isinstance(mapping, (types.BuiltinFunctionType, np.ufunc))


def _mapped_points(mapping: Any, shape: tuple[int, ...], ndim: int, extra_arguments: Any,
                   extra_keywords: Any) -> np.ndarray:
    points = np.empty((ndim, int(np.prod(shape, dtype=np.int64))))
    for k, index in enumerate(np.ndindex(*shape)):
        points[:, k] = mapping(index, *extra_arguments, **extra_keywords)
    return points


@rrule.register(ndi.geometric_transform)
def geometric_transform_rrule(input: Any, mapping: Any, output_shape: Any = None, output: Any = None,
                              order: Any = 3, mode: Any = "constant", cval: Any = 0.0, prefilter: Any = True,
                              extra_arguments: Any = (), extra_keywords: Any = None) -> Any:
    """Reverse rule of ``scipy.ndimage.geometric_transform``: the input and ``cval``.

    Examples
    --------
    >>> from chainrules import unthunk
    >>> def half(o):
    ...     return (o[0] / 2,)
    >>> y, pullback = rrule(ndi.geometric_transform, np.array([0.0, 2.0, 4.0]), half, order=1)
    >>> y, unthunk(pullback(np.array([0.0, 1.0, 0.0]))[1])
    (array([0., 1., 2.]), array([0.5, 0.5, 0. ]))
    """
    check_output(ndi.geometric_transform, output)
    y = ndi.geometric_transform(input, mapping, output_shape, output, order, mode, cval, prefilter, extra_arguments,
                                extra_keywords)
    x = np.asarray(input)
    keywords = {} if extra_keywords is None else extra_keywords
    points = _mapped_points(mapping, _output_shape(x, output_shape), x.ndim, extra_arguments, keywords)
    interp = Interpolation(x, points, order, mode, cval, prefilter)
    carried = _carries_values(mapping)

    _, input_cotangent, cval_cotangent = transposed_cotangents(interp.transpose)

    def missing(dy: np.ndarray, memo: dict[str, Any]) -> Any:
        return not_implemented(_CARRIED)

    values = (input, mapping, output_shape, output, order, mode, cval, prefilter, extra_arguments, extra_keywords)
    cotangents = {0: input_cotangent, 6: cval_cotangent, 8: missing}
    pullback = make_pullback(ndi.geometric_transform, "geometric_transform", y, values, cotangents)
    if not carried:
        return y, pullback

    def geometric_transform_pullback(dy: Any) -> tuple[Any, ...]:
        out = pullback(dy)
        return (out[0], out[1], not_implemented(_CARRIED), *out[3:])  # the mapping's carried values

    return y, geometric_transform_pullback


@frule.register(ndi.geometric_transform)
def geometric_transform_frule(tangents: Any, input: Any, mapping: Any, output_shape: Any = None, output: Any = None,
                              order: Any = 3, mode: Any = "constant", cval: Any = 0.0, prefilter: Any = True,
                              extra_arguments: Any = (), extra_keywords: Any = None) -> Any:
    """Forward rule of ``scipy.ndimage.geometric_transform``: ``geometric_transform(dx, cval=dcval)``.

    Examples
    --------
    >>> from chainrules import NoTangent
    >>> def half(o):
    ...     return (o[0] / 2,)
    >>> frule((NoTangent(), np.array([0.0, 2.0, 4.0]), NoTangent()), ndi.geometric_transform, np.zeros(3), half,
    ...       order=1)[1]
    array([0., 1., 2.])
    """
    check_output(ndi.geometric_transform, output)
    y = ndi.geometric_transform(input, mapping, output_shape, output, order, mode, cval, prefilter, extra_arguments,
                                extra_keywords)
    x = np.asarray(input)
    dx, dc = tangent_array(tangents[1], input), tangent_value(tangents[7])
    dextra = tangent_value(tangents[9])
    if (tangent_value(tangents[2]) is not None and _carries_values(mapping)) or dextra is not None:
        return y, not_implemented(_CARRIED)
    missing = _missing(dx, dc)
    if missing is not None:
        return y, missing

    def call(a: Any, c: Any) -> Any:
        return ndi.geometric_transform(a, mapping, output_shape, None, order, mode, c, prefilter, extra_arguments,
                                       extra_keywords)

    return y, output_tangent(_linear_tangent(call, dx, dc, x), y)


# ---- spline_filter and spline_filter1d ------------------------------------------------------------------
@rrule.register(ndi.spline_filter1d)
def spline_filter1d_rrule(input: Any, order: Any = 3, axis: Any = -1, output: Any = np.float64,
                          mode: Any = "mirror") -> Any:
    """Reverse rule of ``scipy.ndimage.spline_filter1d``: the transposed prefilter.

    Examples
    --------
    >>> from chainrules import unthunk
    >>> y, pullback = rrule(ndi.spline_filter1d, np.array([0.0, 6.0, 0.0]))
    >>> y, unthunk(pullback(np.array([0.0, 1.0, 0.0]))[1])      # S^T = D S D^-1 for mirror: the ends halved
    (array([-6., 12., -6.]), array([-0.5,  2. , -0.5]))
    """
    check_output(ndi.spline_filter1d, output)
    y = ndi.spline_filter1d(input, order, axis, output, mode)
    x = np.asarray(input)
    ax = normalize_axis_index(int(axis), x.ndim) if x.ndim else 0

    def input_cotangent(dy: np.ndarray, memo: dict[str, Any]) -> Any:
        return spline_filter1d_transpose(dy, int(order), ax, mode)

    values = (input, order, axis, output, mode)
    return y, make_pullback(ndi.spline_filter1d, "spline_filter1d", y, values, {0: input_cotangent})


@frule.register(ndi.spline_filter1d)
def spline_filter1d_frule(tangents: Any, input: Any, order: Any = 3, axis: Any = -1, output: Any = np.float64,
                          mode: Any = "mirror") -> Any:
    """Forward rule of ``scipy.ndimage.spline_filter1d``: the filter of the tangent.

    Examples
    --------
    >>> from chainrules import NoTangent
    >>> frule((NoTangent(), np.array([0.0, 6.0, 0.0])), ndi.spline_filter1d, np.zeros(3))[1]
    array([-6., 12., -6.])
    """
    check_output(ndi.spline_filter1d, output)
    y = ndi.spline_filter1d(input, order, axis, output, mode)
    dx = tangent_array(tangents[1], input)
    if dx is None or isinstance(dx, NotImplementedTangent):
        return y, output_tangent(dx, y)
    return y, output_tangent(ndi.spline_filter1d(dx, order, axis, y.dtype, mode), y)


@rrule.register(ndi.spline_filter)
def spline_filter_rrule(input: Any, order: Any = 3, output: Any = np.float64, mode: Any = "mirror") -> Any:
    """Reverse rule of ``scipy.ndimage.spline_filter``: the transposed prefilter along every axis.

    Examples
    --------
    >>> from chainrules import unthunk
    >>> y, pullback = rrule(ndi.spline_filter, np.ones((2, 2)), 3, np.float64, "grid-wrap")
    >>> unthunk(pullback(np.ones((2, 2)))[1])
    array([[1., 1.],
           [1., 1.]])
    """
    check_output(ndi.spline_filter, output)
    y = ndi.spline_filter(input, order, output, mode)
    x = np.asarray(input)

    def input_cotangent(dy: np.ndarray, memo: dict[str, Any]) -> Any:
        u = dy
        for axis in reversed(range(x.ndim)):
            u = spline_filter1d_transpose(u, int(order), axis, mode)
        return u

    values = (input, order, output, mode)
    return y, make_pullback(ndi.spline_filter, "spline_filter", y, values, {0: input_cotangent})


@frule.register(ndi.spline_filter)
def spline_filter_frule(tangents: Any, input: Any, order: Any = 3, output: Any = np.float64,
                        mode: Any = "mirror") -> Any:
    """Forward rule of ``scipy.ndimage.spline_filter``: the filter of the tangent.

    Examples
    --------
    >>> from chainrules import NoTangent
    >>> frule((NoTangent(), np.ones((2, 2))), ndi.spline_filter, np.zeros((2, 2)))[1]
    array([[1., 1.],
           [1., 1.]])
    """
    check_output(ndi.spline_filter, output)
    y = ndi.spline_filter(input, order, output, mode)
    dx = tangent_array(tangents[1], input)
    if dx is None or isinstance(dx, NotImplementedTangent):
        return y, output_tangent(dx, y)
    return y, output_tangent(ndi.spline_filter(dx, order, y.dtype, mode), y)


# ---- sample inputs ----------------------------------------------------------------------------------
_MODES = ("constant", "grid-constant", "nearest", "reflect", "grid-mirror", "mirror", "wrap", "grid-wrap")


def _points(rng: np.random.Generator, shape: tuple[int, ...], count: int, low: float = -1.7,
            high: float | None = None) -> np.ndarray:
    """Points away from the knots (and from the constant mode's border) so no derivative jumps nearby."""
    out = []
    for n in shape:
        top = (n + 0.7) if high is None else high
        values = rng.uniform(low, top, count)
        values = np.floor(values) + np.clip(values - np.floor(values), 0.15, 0.85)  # off the integers
        values = np.where(np.abs(values + 1) < 0.2, values + 0.4, values)          # off -1 (the constant border)
        values = np.where(np.abs(values - n) < 0.2, values - 0.4, values)          # and n
        out.append(values)
    return np.array(out)


@sample_inputs(ndi.map_coordinates)
def _map_coordinates_samples(rng: np.random.Generator) -> list[Sample]:
    x = image(rng, (4, 5))
    pts = _points(rng, x.shape, 6)
    out = [Sample(x, pts, None, order, "mirror", label=f"order {order}") for order in range(6)]
    out += [Sample(x, pts, None, 3, mode, 0.6, label=f"mode {mode!r}") for mode in _MODES]
    out += [Sample(x, pts, None, 1, mode, 0.6, label=f"order 1, mode {mode!r}") for mode in ("constant", "wrap")]
    out += [Sample(x, pts.reshape(2, 2, 3), label="defaults, 2-d coordinates"),
            Sample(x, pts, fkwargs={"order": 2, "mode": "grid-wrap", "prefilter": False}, label="prefilter=False"),
            Sample(x, pts, None, 5, "nearest", fkwargs={"prefilter": True}, label="order 5, nearest, keyword"),
            Sample(x.astype(np.float32), pts.astype(np.float32), None, 3, "reflect", label="float32"),
            Sample(x + 1j * image(rng, (4, 5)), pts, None, 3, "grid-constant", 0.5 - 0.5j, label="complex input"),
            Sample(image(rng, (7,)), _points(rng, (7,), 5, -9.0, 15.0), None, 3, "mirror",
                   label="1-d, points far outside (repeated reflections)"),
            Sample(image(rng, (7,)), _points(rng, (7,), 5, -9.0, 15.0), None, 4, "wrap", label="1-d, far, wrap"),
            Sample(image(rng, (3, 2, 3)), _points(rng, (3, 2, 3), 4), None, 2, "reflect", label="3-d")]
    return out


@sample_inputs(ndi.affine_transform)
def _affine_transform_samples(rng: np.random.Generator) -> list[Sample]:
    x = image(rng, (4, 5))
    m = np.array([[0.9, 0.23], [-0.17, 1.1]])
    out = [Sample(x, m, (0.3, -0.2), None, None, 3, mode, 0.5, label=f"mode {mode!r}") for mode in _MODES[:4]]
    out += [Sample(x, m, 0.35, label="defaults, a scalar offset"),
            Sample(x, np.array([0.8, 1.15]), (0.3, 0.4), None, None, 2, "mirror", label="a diagonal matrix"),
            Sample(x, np.array([[0.9, 0.2, 0.3], [-0.1, 1.1, -0.4]]), 0.0, (3, 4), None, 1, "nearest",
                   label="a (d, d+1) matrix, another output shape"),
            # (a homogeneous (d+1, d+1) matrix is tested in tests/: finite differences of its fixed last row fail)
            Sample(x.astype(np.float32), m.astype(np.float32), (0.3, -0.2), None, None, 3, "nearest",
                   label="float32"),
            Sample(x + 1j * image(rng, (4, 5)), m, (0.3, -0.2), None, None, 3, "constant", 0.5j,
                   label="complex input")]
    return out


@sample_inputs(ndi.shift)
def _shift_samples(rng: np.random.Generator) -> list[Sample]:
    x = image(rng, (4, 5))
    out = [Sample(x, (0.35, -0.6), None, 3, mode, 0.5, label=f"mode {mode!r}") for mode in _MODES]
    out += [Sample(x, 0.45, label="defaults, a scalar shift"), Sample(x, [1.3, 0.7], None, 1, "wrap",
                                                                       label="order 1, a list"),
            Sample(x, np.array([0.3, 0.2]), fkwargs={"order": 5, "mode": "mirror"}, label="order 5, keywords"),
            Sample(x.astype(np.float32), (0.35, -0.6), None, 3, "nearest", label="float32"),
            Sample(x + 1j * image(rng, (4, 5)), (0.35, -0.6), None, 2, "constant", 1j, label="complex input")]
    return out


@sample_inputs(ndi.zoom)
def _zoom_samples(rng: np.random.Generator) -> list[Sample]:
    x = image(rng, (3, 4))
    out = [Sample(x, 1.6, None, 3, mode, 0.5, label=f"mode {mode!r}") for mode in ("constant", "nearest", "mirror")]
    out += [Sample(x, (1.4, 0.8), label="defaults, per-axis zoom"),
            Sample(x, 1.7, fkwargs={"order": 1, "mode": "grid-constant", "grid_mode": True},
                   label="grid_mode, keywords"),
            Sample(x, 1.0, label="zoom 1 (the input itself)"),
            Sample(x.astype(np.float32), 1.6, None, 2, "reflect", label="float32"),
            Sample(x + 1j * image(rng, (3, 4)), 1.4, None, 3, "constant", 0.2j, label="complex input")]
    return out


@sample_inputs(ndi.rotate)
def _rotate_samples(rng: np.random.Generator) -> list[Sample]:
    x = image(rng, (4, 5))
    out = [Sample(x, 23.0, (1, 0), True, None, 3, mode, 0.5, label=f"mode {mode!r}")
           for mode in ("constant", "nearest", "mirror", "grid-wrap")]
    out += [Sample(x, 17.0, label="defaults"), Sample(x, -31.0, (0, 1), False, None, 1, "reflect",
                                                      label="reshape=False, order 1"),
            Sample(x, 12.0, fkwargs={"order": 5, "mode": "nearest", "reshape": False}, label="order 5, keywords"),
            Sample(image(rng, (3, 4, 2)), 35.0, (0, 1), True, None, 2, "mirror", label="3-d, a plane per slice"),
            Sample(x.astype(np.float32), 23.0, (1, 0), True, None, 3, "nearest", label="float32"),
            Sample(x + 1j * image(rng, (4, 5)), 23.0, (1, 0), True, None, 3, "constant", 0.5j, label="complex")]
    return out


def _double_scale(o: tuple[int, ...]) -> tuple[float, ...]:
    """A plain mapping for the samples: every coordinate times 0.7, plus 0.3."""
    return tuple(0.7 * c + 0.3 for c in o)


@sample_inputs(ndi.geometric_transform)
def _geometric_transform_samples(rng: np.random.Generator) -> list[Sample]:
    x = image(rng, (4, 5))
    return [Sample(x, _double_scale, None, None, 3, mode, 0.5, label=f"mode {mode!r}")
            for mode in ("constant", "nearest", "mirror")] + [
        Sample(x, _double_scale, fkwargs={"order": 1, "output_shape": (3, 3)}, label="order 1, output shape"),
        Sample(x.astype(np.float32), _double_scale, None, None, 2, "reflect", label="float32")]


@sample_inputs(ndi.spline_filter1d)
def _spline_filter1d_samples(rng: np.random.Generator) -> list[Sample]:
    x = image(rng, (4, 5))
    out = [Sample(x, 3, -1, np.float64, mode, label=f"mode {mode!r}") for mode in _MODES]
    out += [Sample(x, order, 0, label=f"order {order}") for order in range(6)]
    out += [Sample(x, fkwargs={"order": 4, "axis": 0, "mode": "reflect"}, label="keywords"),
            Sample(x.astype(np.float32), 3, 1, np.float32, "mirror", fdm=linear_fdm(), label="float32"),
            Sample(x + 1j * image(rng, (4, 5)), 5, 1, np.complex128, "nearest", label="complex")]
    return out


@sample_inputs(ndi.spline_filter)
def _spline_filter_samples(rng: np.random.Generator) -> list[Sample]:
    x = image(rng, (4, 5))
    out = [Sample(x, 3, np.float64, mode, label=f"mode {mode!r}") for mode in _MODES]
    out += [Sample(x, order, label=f"order {order}") for order in (2, 4, 5)]
    out += [Sample(x, fkwargs={"order": 2, "mode": "reflect"}, label="keywords"),
            Sample(x.astype(np.float32), 3, np.float32, "mirror", fdm=linear_fdm(), label="float32"),
            Sample(x + 1j * image(rng, (4, 5)), 3, np.complex128, "nearest", label="complex")]
    return out
