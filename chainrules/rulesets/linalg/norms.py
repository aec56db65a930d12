"""Norms and condition numbers: ``np.linalg.norm`` (every ``ord``, vector and matrix, ``axis``,
``keepdims``), ``np.linalg.vector_norm``, ``np.linalg.matrix_norm``, ``scipy.linalg.norm`` and
``np.linalg.cond``.

Every norm here is ``y = N(x)`` with a real output; the cotangent of a complex output
cotangent is its real part. With ``sgn(x) = x / |x|`` (``0`` at ``0``) and
``d|x| = Re(conj(sgn(x)) dx)``:

* vector norms, ``p = ord``: ``p = 2`` (and ``'fro'``): ``dx = dy x / y``; ``p = 1``:
  ``dy sgn(x)``; other ``p``: ``dy (|x| / y)^(p-1) sgn(x)``; ``p = inf`` / ``-inf``: the
  cotangent goes to the entries of largest / smallest magnitude; ``p = 0`` counts non-zeros
  and has zero derivative. At a zero entry ``sgn(0) = 0``: for ``p <= 1`` that is the
  subgradient central differences see; the norm of a zero vector gets a zero cotangent.
  A floating ``ord`` given by position (``norm(x, 1.5)``) is differentiated too: with
  ``S = sum |x_i|^p``, ``d y / d p = y (sum |x_i|^p log|x_i| / (p S) - log(S) / p^2)``
  (zero entries contribute nothing for ``p > 0``). An integer ``ord``, the matrix orders
  and ``inf`` (which stays ``inf``) get ``NoTangent()``; a floating ``ord = 0.0`` (the count
  of non-zeros, discontinuous in ``ord``) gets ``not_implemented``.
* induced matrix norms: ``ord = 1`` / ``-1`` (largest / smallest column sum of ``|x|``):
  ``dy sgn(x)`` on the extreme columns; ``inf`` / ``-inf`` the same on rows. Spectral norms
  use the SVD ``x = U S V^H`` (Magnus & Neudecker, "Matrix Differential Calculus", ch. 8;
  Giles 2008): ``ord = 2``: ``dy u_1 v_1^H``; ``ord = -2``: ``dy u_k v_k^H`` for the smallest
  singular value; ``'nuc'``: ``dy U V^H`` over the non-zero singular values.
* ``cond(x, p)``: for ``p`` in ``None, 2, -2`` it is ``s_max / s_min`` (or its inverse):
  ``d cond = (d s_max - cond d s_min) / s_min``; for the other ``p`` it is
  ``N(x) N(inv(x))``, differentiated with the norm rules above and ``d inv(x) = -Y dx Y``.
  A singular ``x`` (``cond = inf``) has no derivative: the pullback raises ``LinAlgError``.

Ties (several entries, columns, rows or singular values at the maximum or minimum, within
``4 n eps``) are non-differentiable points: the cotangent is shared equally among them, the
minimum-norm subgradient (the same convention as the ``max``/``min`` reductions). Singular
values at rounding level (``<= max(m, n) eps s_max``) are treated as zero: ``'nuc'`` and
``ord = -2`` give them the zero subgradient.

The primals are NumPy's and SciPy's own calls (errors such as ``ValueError`` for an invalid
``ord`` pass through); cotangents have the input's dtype (float32 stays float32).
"""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np
import scipy.linalg

from chainrules.rulesets._samples import well_conditioned
from chainrules.rulesets.linalg._utils import NO, mH, not_implemented_in, tangent_value
from chainrules.rulesets.linalg.inverses import inv_pullback_of, inv_pushforward_of
from chainrules_core import (
    ProjectTo,
    Sample,
    ZeroTangent,
    cotangent_projector,
    differentiable,
    frule,
    not_implemented,
    passes_through,
    read_cotangent,
    rrule,
    sample_inputs,
)

_SPECTRAL = (2, -2, "nuc")


def sgn(x: np.ndarray) -> np.ndarray:
    """``x / |x|``, ``0`` where ``x == 0`` (``np.sign`` for real ``x``).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.linalg.norms import sgn
    >>> sgn(np.array([3 + 4j, 0j]))
    array([0.6+0.8j, 0. +0.j ])
    """
    if not np.iscomplexobj(x):
        return np.sign(x)
    magnitude = np.abs(x)
    return np.where(magnitude == 0, 0, x / np.where(magnitude == 0, 1, magnitude))


def _ties(values: np.ndarray, extreme: np.ndarray, axes: tuple[int, ...]) -> np.ndarray:
    """Weights sharing one unit equally among the entries at ``extreme`` (within ``4 n eps``) along ``axes``."""
    count = max(1, int(np.prod([values.shape[a] for a in axes])))
    tol = 4 * count * np.finfo(values.dtype).eps * np.abs(extreme)
    mask = np.abs(values - extreme) <= tol
    return mask / np.maximum(np.sum(mask, axis=axes, keepdims=True), 1)


# ---- weights: x's cotangent is dy * w * sgn(x), its pushforward sum(w * d|x|) ------------------------------------
def vector_norm_weights(x: np.ndarray, y: np.ndarray, ord: Any, axes: tuple[int, ...]) -> np.ndarray:
    """The weights ``w`` of a vector ``ord``-norm over ``axes`` (``y`` with the axes kept).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.linalg.norms import vector_norm_weights
    >>> vector_norm_weights(np.array([3.0, -4.0]), np.array([5.0]), 2, (0,))
    array([0.6, 0.8])
    """
    magnitude = np.abs(x)
    if ord is None or ord == 2:
        return np.where(y == 0, 0, magnitude / np.where(y == 0, 1, y))
    if ord == np.inf or ord == -np.inf:
        return _ties(magnitude, y, axes)
    if ord == 0:
        return np.zeros_like(magnitude)
    if ord == 1:
        return np.ones_like(magnitude)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        w = (magnitude / y) ** (ord - 1)
    return np.where(magnitude == 0, 0, w)


def _induced_weights(x: np.ndarray, y: np.ndarray, ord: Any) -> np.ndarray:
    """Weights of the induced 1 / -1 (column sums) and inf / -inf (row sums) norms; ``y`` is ``(..., 1, 1)``."""
    magnitude = np.abs(x)
    along = -2 if ord in (1, -1) else -1           # 1: sum down each column; inf: along each row
    sums = np.sum(magnitude, axis=along, keepdims=True)
    return np.broadcast_to(_ties(sums, y, (-1 if along == -2 else -2,)), x.shape)


def _spectral_weights(s: np.ndarray, y: np.ndarray, ord: Any, shape: tuple[int, ...]) -> np.ndarray:
    """Weights ``c`` on the singular values (``y`` shaped ``(..., 1)``): the cotangent is ``dy U diag(c) V^H``."""
    zero = s <= max(shape[-2:]) * np.finfo(s.dtype).eps * s.max(axis=-1, keepdims=True, initial=0)
    if ord == "nuc":
        return np.where(zero, 0, 1.0)
    weights = _ties(s, y, (-1,))
    return np.where(zero, 0, weights) if ord == -2 else weights


class _NormDerivative:
    """The derivative of a vector or matrix norm of ``x`` at ``y`` (reduced ``axes``, in NumPy's semantics)."""

    def __init__(self, x: np.ndarray, ord: Any, axes: tuple[int, ...], matrix: bool, y: np.ndarray) -> None:
        self.x, self.ord, self.axes, self.matrix = x, ord, axes, matrix
        self.y_kept = np.asarray(y).reshape(_kept_shape(x.shape, axes)) if np.ndim(y) else \
            np.reshape(y, (1,) * x.ndim)
        self._svd: Any = None

    def _moved(self) -> np.ndarray:
        return np.moveaxis(self.x, self.axes, (-2, -1))

    def _spectral(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(U, c, V^H)``: the SVD and the weights on the singular values (computed once)."""
        if self._svd is None:
            moved = self._moved()
            u, s, vh = np.linalg.svd(moved, full_matrices=False)
            y = np.moveaxis(self.y_kept, self.axes, (-2, -1))[..., 0]
            self._svd = (u, _spectral_weights(s, y, self.ord, moved.shape), vh)
        return self._svd

    def _weights(self) -> np.ndarray:
        if not self.matrix or self.ord in (None, "fro"):
            return vector_norm_weights(self.x, self.y_kept, 2 if self.ord == "fro" else self.ord, self.axes)
        moved = self._moved()
        y = np.moveaxis(self.y_kept, self.axes, (-2, -1))
        return np.moveaxis(_induced_weights(moved, y, self.ord), (-2, -1), self.axes)

    def cotangent(self, dy: np.ndarray) -> np.ndarray:
        g = np.real(np.reshape(dy, self.y_kept.shape))
        if self.matrix and self.ord in _SPECTRAL:
            u, c, vh = self._spectral()
            gm = np.moveaxis(g, self.axes, (-2, -1))
            return np.moveaxis(gm * (u @ (c[..., :, None] * vh)), (-2, -1), self.axes)
        return g * self._weights() * sgn(self.x)

    def tangent(self, dx: np.ndarray) -> np.ndarray:
        if self.matrix and self.ord in _SPECTRAL:
            u, c, vh = self._spectral()
            dxm = np.moveaxis(dx, self.axes, (-2, -1))
            ds = np.real(np.sum(np.conj(u) * (dxm @ mH(vh)), axis=-2))
            return np.sum(c * ds, axis=-1)
        d_magnitude = np.real(np.conj(sgn(self.x)) * dx)
        return np.sum(self._weights() * d_magnitude, axis=self.axes)


def _kept_shape(shape: tuple[int, ...], axes: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(1 if i in axes else n for i, n in enumerate(shape))


def _normalize_axes(axis: Any, ndim: int) -> tuple[int, ...]:
    axes = (axis,) if isinstance(axis, numbers.Integral) else tuple(axis)
    return tuple(int(a) % ndim if ndim else 0 for a in axes)


def _norm_layout(x: np.ndarray, ord: Any, axis: Any) -> tuple[tuple[int, ...], bool, Any]:
    """NumPy's ``norm`` semantics: ``(reduced axes, matrix norm?, effective ord)``."""
    if axis is None:
        if ord is None or x.ndim == 1:
            return tuple(range(x.ndim)), False, 2 if ord is None else ord
        return (0, 1), True, ord
    axes = _normalize_axes(axis, x.ndim)
    if len(axes) == 1:
        return axes, False, 2 if ord is None else ord
    return axes, True, "fro" if ord is None else ord


def _tangent_dtype(y: Any) -> Any:
    return ProjectTo(y)


_ORDER_ZERO = ("norm: ord=0.0 counts the non-zero entries, which is discontinuous in ord (any other ord is a "
               "p-norm): no derivative with respect to ord there")


def _order_is_differentiated(ord: Any, matrix: bool, nargs: int) -> bool:
    """Whether a positional ``ord`` gets a derivative: a floating, finite ``ord`` of a vector norm."""
    return nargs > 0 and not matrix and differentiable(ord) and np.ndim(ord) == 0 and bool(np.isfinite(ord))


def order_derivative(x: np.ndarray, y_kept: np.ndarray, p: float, axes: tuple[int, ...]) -> np.ndarray:
    """``d ||x||_p / d p`` over ``axes`` (the shape of ``y_kept``, the norm with those axes kept).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.linalg.norms import order_derivative
    >>> x = np.array([3.0, 4.0])
    >>> h = 1e-6
    >>> fd = (np.linalg.norm(x, 2 + h) - np.linalg.norm(x, 2 - h)) / (2 * h)
    >>> bool(np.isclose(order_derivative(x, np.array([5.0]), 2.0, (0,))[0], fd))
    True
    """
    magnitude = np.abs(x)
    zero = magnitude == 0
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        powers = magnitude ** p
        logs = np.log(np.where(zero, 1, magnitude))
        total = np.sum(powers, axis=axes, keepdims=True)
        weighted = np.sum(np.where(zero, 0, powers * logs), axis=axes, keepdims=True)
        d = y_kept * (weighted / (p * total) - np.log(total) / p ** 2)
    return np.where((y_kept == 0) | ~np.isfinite(total), 0, d)


def _norm_rule(f: Any, x: np.ndarray, y: Any, axes: tuple[int, ...], matrix: bool, ord: Any, nargs: int,
               where: str) -> Any:
    """The pullback shared by the norm functions (``nargs`` positional parameters after ``x``, ``ord`` first)."""
    derivative = _NormDerivative(np.asarray(x), ord, axes, matrix, y)
    project_x = cotangent_projector(x)
    tail = (NO,) * nargs
    by_order = _order_is_differentiated(ord, matrix, nargs)
    project_ord = cotangent_projector(ord)

    def norm_pullback(dy: Any) -> tuple[Any, ...]:
        dy = read_cotangent(dy, y, where)
        if passes_through(dy):
            return (NO, project_x(dy), *((project_ord(dy),) + tail[1:] if by_order else tail))
        dx = project_x(derivative.cotangent(dy))
        if not by_order:
            return (NO, dx, *tail)
        if ord == 0:
            return (NO, dx, not_implemented(_ORDER_ZERO), *tail[1:])
        g = np.real(np.reshape(dy, derivative.y_kept.shape))
        d_ord = np.sum(g * order_derivative(np.asarray(x), derivative.y_kept, float(ord), axes))
        return (NO, dx, project_ord(d_ord), *tail[1:])

    norm_pullback.__name__ = f"{where.rsplit('.', 1)[-1]}_pullback"
    norm_pullback.__qualname__ = norm_pullback.__name__
    return y, norm_pullback


def _norm_pushforward(x: np.ndarray, y: Any, axes: tuple[int, ...], matrix: bool, ord: Any, dx: Any,
                      d_ord: Any = None) -> Any:
    """``dy`` for the tangent ``dx`` of ``x`` and, when ``ord`` is differentiated, ``d_ord`` of ``ord``."""
    dx = tangent_value(dx)
    d_ord = tangent_value(d_ord) if d_ord is not None and _order_is_differentiated(ord, matrix, 1) else None
    missing = not_implemented_in(dx, d_ord)
    if missing is not None:
        return missing
    if d_ord is not None and ord == 0:
        return not_implemented(_ORDER_ZERO)
    if dx is None and d_ord is None:
        return ZeroTangent()
    derivative = _NormDerivative(np.asarray(x), ord, axes, matrix, y)
    dy: Any = 0
    if dx is not None:
        dy = derivative.tangent(np.broadcast_to(dx, np.shape(x)))
    if d_ord is not None:
        by_order = order_derivative(np.asarray(x), derivative.y_kept, float(ord), axes)
        dy = dy + np.real(d_ord) * np.reshape(by_order, np.shape(dy) if np.ndim(dy) else np.shape(by_order))
    return ProjectTo(y)(np.reshape(dy, np.shape(y)))


# ---- np.linalg.norm, scipy.linalg.norm -------------------------------------------------------------------------
def _order_tangent(tangents: Any) -> Any:
    """The tangent of a positional ``ord`` (``None`` when ``ord`` was not given by position)."""
    return tangents[2] if len(tangents) > 2 else None


@rrule.register(np.linalg.norm, np.ndarray)
def norm_rrule(x: np.ndarray, ord: Any = None, axis: Any = None, keepdims: bool = False) -> Any:
    """Reverse rule of ``np.linalg.norm``: every vector and matrix ``ord``, any ``axis``, ``keepdims``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> y, pullback = rrule(np.linalg.norm, np.array([[3.0, 0.0], [0.0, -1.0]]), 2)
    >>> y, pullback(1.0)[1]                             # the top singular pair
    (np.float64(3.0), array([[1., 0.],
           [0., 0.]]))
    """
    y = np.linalg.norm(x, ord, axis, keepdims)
    axes, matrix, effective = _norm_layout(x, ord, axis)
    return _norm_rule(np.linalg.norm, x, y, axes, matrix, effective, 3, "numpy.linalg.norm")


@frule.register(np.linalg.norm, np.ndarray)
def norm_frule(tangents: Any, x: np.ndarray, ord: Any = None, axis: Any = None, keepdims: bool = False) -> Any:
    """Forward rule of ``np.linalg.norm``: ``dy = sum(w d|x|)`` (spectral norms: ``sum(c Re(diag(U^H dx V)))``).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> frule((NoTangent(), np.array([1.0, 0.0])), np.linalg.norm, np.array([3.0, 4.0]))
    (np.float64(5.0), 0.6)
    """
    y = np.linalg.norm(x, ord, axis, keepdims)
    axes, matrix, effective = _norm_layout(x, ord, axis)
    return y, _norm_pushforward(x, y, axes, matrix, effective, tangents[1], _order_tangent(tangents))


@rrule.register(scipy.linalg.norm, np.ndarray)
def scipy_norm_rrule(a: np.ndarray, ord: Any = None, axis: Any = None, keepdims: bool = False,
                     check_finite: bool = True) -> Any:
    """Reverse rule of ``scipy.linalg.norm`` (NumPy's semantics, and ``check_finite``).

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.linalg
    >>> from chainrules import rrule
    >>> y, pullback = rrule(scipy.linalg.norm, np.array([3.0, -4.0]), 1)
    >>> y, pullback(1.0)[1]
    (np.float64(7.0), array([ 1., -1.]))
    """
    y = scipy.linalg.norm(a, ord, axis, keepdims, check_finite)
    axes, matrix, effective = _norm_layout(a, ord, axis)
    return _norm_rule(scipy.linalg.norm, a, y, axes, matrix, effective, 4, "scipy.linalg.norm")


@frule.register(scipy.linalg.norm, np.ndarray)
def scipy_norm_frule(tangents: Any, a: np.ndarray, ord: Any = None, axis: Any = None, keepdims: bool = False,
                     check_finite: bool = True) -> Any:
    """Forward rule of ``scipy.linalg.norm``.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.linalg
    >>> from chainrules import frule, NoTangent
    >>> frule((NoTangent(), np.array([1.0, 1.0])), scipy.linalg.norm, np.array([3.0, -4.0]), ord=1)[1]
    0.0
    """
    y = scipy.linalg.norm(a, ord, axis, keepdims, check_finite)
    axes, matrix, effective = _norm_layout(a, ord, axis)
    return y, _norm_pushforward(a, y, axes, matrix, effective, tangents[1], _order_tangent(tangents))


# ---- np.linalg.vector_norm, matrix_norm ------------------------------------------------------------------------
def _vector_norm_axes(x: np.ndarray, axis: Any) -> tuple[int, ...]:
    return tuple(range(x.ndim)) if axis is None else _normalize_axes(axis, x.ndim)


@rrule.register(np.linalg.vector_norm, np.ndarray)
def vector_norm_rrule(x: np.ndarray, *, axis: Any = None, keepdims: bool = False, ord: Any = 2) -> Any:
    """Reverse rule of ``np.linalg.vector_norm`` (``axis`` may name several axes: their entries form the vector).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> y, pullback = rrule(np.linalg.vector_norm, np.array([[1.0, -5.0], [2.0, 3.0]]), ord=np.inf)
    >>> y, pullback(1.0)[1]
    (np.float64(5.0), array([[ 0., -1.],
           [ 0.,  0.]]))
    """
    y = np.linalg.vector_norm(x, axis=axis, keepdims=keepdims, ord=ord)
    return _norm_rule(np.linalg.vector_norm, x, y, _vector_norm_axes(x, axis), False, ord, 0,
                      "numpy.linalg.vector_norm")


@frule.register(np.linalg.vector_norm, np.ndarray)
def vector_norm_frule(tangents: Any, x: np.ndarray, *, axis: Any = None, keepdims: bool = False, ord: Any = 2) -> Any:
    """Forward rule of ``np.linalg.vector_norm``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> frule((NoTangent(), np.array([1.0, 1.0])), np.linalg.vector_norm, np.array([3.0, -4.0]), ord=np.inf)[1]
    -1.0
    """
    y = np.linalg.vector_norm(x, axis=axis, keepdims=keepdims, ord=ord)
    return y, _norm_pushforward(x, y, _vector_norm_axes(x, axis), False, ord, tangents[1])


def _matrix_axes(x: np.ndarray) -> tuple[int, ...]:
    return (x.ndim - 2, x.ndim - 1)


@rrule.register(np.linalg.matrix_norm, np.ndarray)
def matrix_norm_rrule(x: np.ndarray, *, keepdims: bool = False, ord: Any = "fro") -> Any:
    """Reverse rule of ``np.linalg.matrix_norm`` (the last two axes; stacks too).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> y, pullback = rrule(np.linalg.matrix_norm, np.diag([1.0, 2.0]), ord="nuc")
    >>> y, pullback(1.0)[1]
    (np.float64(3.0), array([[1., 0.],
           [0., 1.]]))
    """
    y = np.linalg.matrix_norm(x, keepdims=keepdims, ord=ord)
    return _norm_rule(np.linalg.matrix_norm, x, y, _matrix_axes(x), True, ord, 0, "numpy.linalg.matrix_norm")


@frule.register(np.linalg.matrix_norm, np.ndarray)
def matrix_norm_frule(tangents: Any, x: np.ndarray, *, keepdims: bool = False, ord: Any = "fro") -> Any:
    """Forward rule of ``np.linalg.matrix_norm``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> frule((NoTangent(), np.eye(2)), np.linalg.matrix_norm, np.diag([1.0, 2.0]), ord='nuc')[1]
    2.0
    """
    y = np.linalg.matrix_norm(x, keepdims=keepdims, ord=ord)
    return y, _norm_pushforward(x, y, _matrix_axes(x), True, ord, tangents[1])


# ---- np.linalg.cond ----------------------------------------------------------------------------------------------
def _check_finite_condition(y: Any, where: str) -> None:
    if not np.all(np.isfinite(y)):
        raise np.linalg.LinAlgError(f"{where}: the matrix is singular (cond = inf); the condition number has no "
                                    "derivative there")


def _cond_parts(x: np.ndarray, p: Any) -> tuple[Any, Any]:
    """``(cotangent(dy), tangent(dx))`` of ``cond(x, p)`` as functions (the SVD or the inverse computed once)."""
    axes = (x.ndim - 2, x.ndim - 1)
    if p in (None, 2, -2):
        u, s, vh = np.linalg.svd(x, full_matrices=False)
        big, small = s[..., :1], s[..., -1:]
        top, bottom = _ties(s, big, (-1,)), _ties(s, small, (-1,))
        numerator, denominator = (top, bottom) if p != -2 else (bottom, top)
        ratio = (big / small) if p != -2 else (small / big)
        base = small if p != -2 else big
        c = (numerator - ratio * denominator) / base   # d cond = sum(c * ds)

        def cotangent(dy: np.ndarray) -> np.ndarray:
            return np.real(dy)[..., None, None] * (u @ (c[..., :, None] * vh))

        def tangent(dx: np.ndarray) -> np.ndarray:
            ds = np.real(np.sum(np.conj(u) * (dx @ mH(vh)), axis=-2))
            return np.sum(c * ds, axis=-1)

        return cotangent, tangent
    inverse = np.linalg.inv(x)
    norm_x = np.linalg.norm(x, p, axes, True)
    norm_inverse = np.linalg.norm(inverse, p, axes, True)
    of_x = _NormDerivative(x, p, axes, True, norm_x)
    of_inverse = _NormDerivative(inverse, p, axes, True, norm_inverse)

    def product_cotangent(dy: np.ndarray) -> np.ndarray:
        g = np.real(dy)[..., None, None]
        return (of_x.cotangent(g * norm_inverse)
                + inv_pullback_of(inverse, of_inverse.cotangent(g * norm_x)))

    def product_tangent(dx: np.ndarray) -> np.ndarray:
        d_inverse = inv_pushforward_of(inverse, dx)
        return (of_x.tangent(dx) * norm_inverse[..., 0, 0] + norm_x[..., 0, 0] * of_inverse.tangent(d_inverse))

    return product_cotangent, product_tangent


@rrule.register(np.linalg.cond, np.ndarray)
def cond_rrule(x: np.ndarray, p: Any = None) -> Any:
    """Reverse rule of ``np.linalg.cond(x, p)``: through the SVD (``p`` in ``None, 2, -2``) or ``N(x) N(inv(x))``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> y, pullback = rrule(np.linalg.cond, np.diag([4.0, 2.0]))
    >>> y, pullback(1.0)[1]
    (np.float64(2.0), array([[ 0.5,  0. ],
           [ 0. , -1. ]]))
    """
    y = np.linalg.cond(x, p)
    project_x = cotangent_projector(x)

    def cond_pullback(dy: Any) -> tuple[Any, Any, Any]:
        dy = read_cotangent(dy, y, "numpy.linalg.cond")
        if passes_through(dy):
            return NO, project_x(dy), NO
        _check_finite_condition(y, "cond pullback")
        return NO, project_x(_cond_parts(x, p)[0](np.asarray(dy))), NO

    return y, cond_pullback


@frule.register(np.linalg.cond, np.ndarray)
def cond_frule(tangents: Any, x: np.ndarray, p: Any = None) -> Any:
    """Forward rule of ``np.linalg.cond(x, p)``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> frule((NoTangent(), np.eye(2)), np.linalg.cond, np.diag([4.0, 2.0]))[1]
    -0.5
    """
    y = np.linalg.cond(x, p)
    dx = tangent_value(tangents[1])
    if dx is None or passes_through(dx):
        return y, ZeroTangent() if dx is None else dx
    _check_finite_condition(y, "cond frule")
    return y, ProjectTo(y)(np.reshape(_cond_parts(x, p)[1](dx), np.shape(y)))


# ---- sample inputs ----------------------------------------------------------------------------------------
@sample_inputs(np.linalg.norm, scipy.linalg.norm)
def _norm_samples(rng: np.random.Generator) -> list[Sample]:
    v = np.array([0.5, -1.5, 2.0, -0.3])
    m = rng.standard_normal((3, 4))
    out = [
        Sample(v, label="vector, 2-norm"),
        Sample(v.astype(np.float32), label="float32"),
        Sample(v + 1j * rng.standard_normal(4), label="complex vector"),
        Sample(m, label="matrix, Frobenius"),
        Sample(rng.standard_normal((2, 3, 4)), fkwargs={"axis": (1, 2), "keepdims": True}, label="stack, keepdims"),
        Sample(m, None, 1, label="axis=1 by position"),
    ]
    vector_orders: tuple[Any, ...] = (1, 3, np.inf, -np.inf, 0.5, -1.5, 2.5)
    for order in vector_orders:
        out.append(Sample(v, order, label=f"vector, ord={order} by position"))
    matrix_orders: tuple[Any, ...] = ("fro", "nuc", 1, -1, 2, -2, np.inf, -np.inf)
    for order in matrix_orders:
        out.append(Sample(m, fkwargs={"ord": order}, label=f"matrix, ord={order!r}"))
    return out


@sample_inputs(np.linalg.vector_norm)
def _vector_norm_samples(rng: np.random.Generator) -> list[Sample]:
    m = rng.standard_normal((3, 4))
    return [
        Sample(m, label="every entry"),
        Sample(m.astype(np.float32), fkwargs={"axis": 0}, label="float32, axis=0"),
        Sample(m + 1j * rng.standard_normal((3, 4)), fkwargs={"ord": 1, "keepdims": True}, label="complex, ord=1"),
        Sample(m, fkwargs={"ord": np.inf, "axis": (0, 1)}, label="ord=inf, both axes"),
        Sample(m, fkwargs={"ord": 3}, label="ord=3"),
    ]


@sample_inputs(np.linalg.matrix_norm)
def _matrix_norm_samples(rng: np.random.Generator) -> list[Sample]:
    m = rng.standard_normal((2, 3, 4))
    return [
        Sample(m, label="stack, Frobenius"),
        Sample(m.astype(np.float32), fkwargs={"ord": "nuc"}, label="float32, nuclear"),
        Sample(m[0] + 1j * rng.standard_normal((3, 4)), fkwargs={"ord": 2}, label="complex, spectral"),
        Sample(m, fkwargs={"ord": 1, "keepdims": True}, label="ord=1, keepdims"),
        Sample(m, fkwargs={"ord": -np.inf}, label="ord=-inf"),
    ]


@sample_inputs(np.linalg.cond)
def _cond_samples(rng: np.random.Generator) -> list[Sample]:
    a = well_conditioned(3, rng)
    return [
        Sample(a, label="2-norm condition number"),
        Sample(a.astype(np.float32), label="float32"),
        Sample(well_conditioned(3, rng, np.complex128), label="complex"),
        Sample(rng.standard_normal((4, 2)), label="rectangular"),
        *(Sample(a, order, label=f"p={order!r} by position") for order in ("fro", 1, -2, np.inf)),
        Sample(a, fkwargs={"p": "nuc"}, label="p='nuc' by keyword"),
    ]
