"""Products: ``matmul`` (and ``@``), ``dot``, ``vdot``, ``inner``, ``outer``, ``vecdot``,
``matvec``, ``vecmat``, ``kron`` and the ``ndarray.dot`` method.

All of them are bilinear, so each cotangent is one more product of the output cotangent
with the *conjugate* of the other operand (the adjoint in the real inner product
``Re(sum(conj(a) * b))``, see the rule-writing guide):

* ``y = a @ b``: ``da = dy @ b^H`` and ``db = a^H @ dy``. Batch axes that broadcasting
  added or stretched are summed back; when one operand is a plain matrix and the other is
  stacked, that sum is folded into one BLAS call (``np.tensordot`` over the batch axes),
  so no per-batch temporaries are made. 1-d operands are promoted the way ``matmul``
  promotes them and the added axis is dropped again.
* ``np.dot``, ``np.inner``, ``np.tensordot`` are tensordots over fixed axes (see
  :mod:`~chainrules.rulesets.contractions.tensordot`); with a scalar operand they are
  products.
* ``np.vdot``, ``np.vecdot`` and ``np.vecmat`` conjugate their *first* argument, so their
  output is antilinear in it: ``y = vdot(a, b)`` has ``da = b * conj(dy)`` and
  ``db = a * dy``. ``np.dot``, ``np.inner``, ``np.matmul`` and ``np.matvec`` conjugate
  nothing.
* ``np.kron(a, b)``: the output cotangent reshaped to interleaved axes
  ``(a0, b0, a1, b1, ...)`` is contracted with ``conj(b)`` (for ``a``) or ``conj(a)`` (for
  ``b``): one ``tensordot`` each.

Each cotangent is a ``Thunk`` (only the ones asked for are computed), projected onto its
input (float32 stays float32, a real input gets a real cotangent); integer and boolean
inputs get ``NoTangent()``. ``out=`` (and the gufunc keywords ``axes=``/``axis=`` where
the rule does not support them) raise :class:`~chainrules_core.UnsupportedKeywordError`.
"""

from __future__ import annotations

import functools
import operator
from typing import Any

import numpy as np

from chainrules.rulesets.contractions._multilinear import lazy_cotangent, sum_tangents
from chainrules.rulesets.contractions.tensordot import tensordot_cotangent_a, tensordot_cotangent_b
from chainrules.rulesets.reductions._tangent_values import passed_on, tangent_value
from chainrules_core import (
    NUMERIC,
    NoTangent,
    ProjectTo,
    Sample,
    Thunk,
    cotangent_projector,
    frule,
    passes_through,
    read_cotangent,
    reject_keywords,
    rrule,
    sample_inputs,
    unbroadcast,
)
from chainrules_core.scalar_rules import conj_if_complex

_UFUNC_REJECTED = ("out", "where", "axes", "axis")


def _bilinear_frule(f: Any, tangents: Any, a: Any, b: Any, y: Any) -> Any:
    """``f(da, b) + f(a, db)`` for a function ``f`` linear in each argument, projected onto ``y``."""
    da, db = tangent_value(tangents[1]), tangent_value(tangents[2])
    return sum_tangents((None if da is None else f(da, b), None if db is None else f(a, db)), ProjectTo(y))


# ---- matmul ---------------------------------------------------------------------------------------
def _promote(a: np.ndarray, b: np.ndarray, dy: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Matrices for 1-d operands (``(k,) -> (1, k)`` on the left, ``(k, 1)`` on the right) and
    the output cotangent with the dropped axes put back."""
    if b.ndim == 1:
        b = b[:, np.newaxis]
        dy = dy[..., np.newaxis]
    if a.ndim == 1:
        a = a[np.newaxis, :]
        dy = dy[..., np.newaxis, :]
    return a, b, dy


def matmul_cotangent_a(a: np.ndarray, b: np.ndarray, dy: np.ndarray) -> np.ndarray:
    """``dy @ b^H`` summed back to the shape of ``a`` (not projected).

    Examples
    --------
    >>> a, b = np.ones((2, 3)), np.arange(12.0).reshape(4, 3, 1)
    >>> matmul_cotangent_a(a, b, np.ones((4, 2, 1))).shape       # summed over the batch of b
    (2, 3)
    """
    if a.ndim == 2 and b.ndim == 2:  # the common case, without the general machinery
        return dy @ conj_if_complex(b).T
    a2, b2, dy2 = _promote(a, b, dy)
    bh = conj_if_complex(b2)
    if a2.ndim == 2 and dy2.ndim > 2:
        # a plain matrix against a stack: contract the batch axes and n in one call
        batch = list(range(dy2.ndim - 2))
        da = np.tensordot(dy2, bh, axes=(batch + [dy2.ndim - 1], batch + [bh.ndim - 1]))
    else:
        da = unbroadcast(np.matmul(dy2, np.swapaxes(bh, -1, -2)), a2.shape)
    return np.reshape(da, a.shape)


def matmul_cotangent_b(a: np.ndarray, b: np.ndarray, dy: np.ndarray) -> np.ndarray:
    """``a^H @ dy`` summed back to the shape of ``b`` (not projected).

    Examples
    --------
    >>> a, b = np.ones((5, 2, 3)), np.ones((3, 4))
    >>> matmul_cotangent_b(a, b, np.ones((5, 2, 4)))        # summed over the batch of a
    array([[10., 10., 10., 10.],
           [10., 10., 10., 10.],
           [10., 10., 10., 10.]])
    """
    if a.ndim == 2 and b.ndim == 2:
        return conj_if_complex(a).T @ dy
    a2, b2, dy2 = _promote(a, b, dy)
    ah = conj_if_complex(a2)
    if b2.ndim == 2 and dy2.ndim > 2:
        batch = list(range(dy2.ndim - 2))
        db = np.tensordot(ah, dy2, axes=(batch + [ah.ndim - 2], batch + [dy2.ndim - 2]))
    else:
        db = unbroadcast(np.matmul(np.swapaxes(ah, -1, -2), dy2), b2.shape)
    return np.reshape(db, b.shape)


@rrule.register(np.matmul, np.ndarray, np.ndarray)
@rrule.register(operator.matmul, np.ndarray, np.ndarray)
def matmul_rrule(a: np.ndarray, b: np.ndarray, **kwargs: Any) -> Any:
    """Reverse rule of ``np.matmul(a, b)`` and ``a @ b`` on ndarrays: ``da = dy @ b^H``, ``db = a^H @ dy``.

    Stacked operands broadcast; each cotangent is summed back to its operand's shape.

    Examples
    --------
    >>> from chainrules import unthunk
    >>> y, pullback = rrule(np.matmul, np.eye(2), np.ones((2, 3)))
    >>> unthunk(pullback(np.ones((2, 3)))[2])
    array([[1., 1., 1.],
           [1., 1., 1.]])
    >>> rrule(operator.matmul, np.eye(2), np.ones(2))[0]
    array([1., 1.])
    """
    # The fast path, written out here (a call less): two real matrices of one dtype (the same
    # dtype object) and no keyword. A cotangent that is an ndarray of the output's shape and
    # dtype gives the thunks ``dy @ b.T`` and ``a.T @ dy`` at once (already in the operands'
    # spaces: the same dtype and shape, nothing to project); any other cotangent goes through
    # the general pullback (built when first needed), which reads, validates and projects it.
    # Both give the same results (``tests/chainrules_core/test_fast_paths.py``).
    if (not kwargs and type(a) is _ndarray and type(b) is _ndarray and (dtype := a.dtype) is b.dtype
            and (dtype is _F64 or dtype is _F32) and a.ndim == 2 and b.ndim == 2):
        y = _matmul(a, b)
        general = None

        def matmul_pullback(dy: Any) -> tuple[Any, ...]:
            if type(dy) is _ndarray and dy.dtype is dtype and dy.shape == y.shape:
                da, db = _new_thunk(Thunk), _new_thunk(Thunk)  # Thunk(fn) without its check that fn is callable
                da.fn = lambda: dy @ b.T
                db.fn = lambda: a.T @ dy
                return _NO, da, db
            nonlocal general
            if general is None:
                general = _matmul_rrule_general(a, b)[1]
            return general(dy)  # type: ignore[no-any-return]

        return y, matmul_pullback
    return _matmul_rrule_general(a, b, **kwargs)


# The dtypes whose tangent dtype is their own: a cotangent of that dtype needs no cast (NumPy's
# own dtype objects, compared by identity: an equal dtype that is another object takes the general path).
_F64, _F32 = np.dtype(np.float64), np.dtype(np.float32)
_new_thunk = object.__new__
_NO = NoTangent()
_ndarray = np.ndarray
_matmul = np.matmul


def _matmul_rrule_general(a: np.ndarray, b: np.ndarray, **kwargs: Any) -> Any:
    """:func:`matmul_rrule` without its fast path: the specification the fast path is tested against."""
    reject_keywords(np.matmul, kwargs, _UFUNC_REJECTED)
    y = np.matmul(a, b, **kwargs) if kwargs else np.matmul(a, b)
    project_a, project_b = cotangent_projector(a), cotangent_projector(b)

    def matmul_pullback(dy: Any) -> tuple[Any, ...]:
        dy = read_cotangent(dy, y, np.matmul)
        if passes_through(dy):
            zero = passed_on(dy)
            return NoTangent(), project_a(zero), project_b(zero)
        dy = np.asarray(dy)
        da = lazy_cotangent(project_a, lambda: matmul_cotangent_a(a, b, dy))
        db = lazy_cotangent(project_b, lambda: matmul_cotangent_b(a, b, dy))
        return NoTangent(), da, db

    return y, matmul_pullback


@frule.register(np.matmul, np.ndarray, np.ndarray)
@frule.register(operator.matmul, np.ndarray, np.ndarray)
def matmul_frule(tangents: Any, a: np.ndarray, b: np.ndarray, **kwargs: Any) -> Any:
    """Forward rule of ``np.matmul(a, b)`` and ``a @ b`` on ndarrays: ``da @ b + a @ db``.

    Examples
    --------
    >>> frule((NoTangent(), np.eye(2), np.zeros((2, 2))), np.matmul, np.eye(2), 2 * np.eye(2))[1]
    array([[2., 0.],
           [0., 2.]])
    """
    reject_keywords(np.matmul, kwargs, _UFUNC_REJECTED)
    y = np.matmul(a, b, **kwargs) if kwargs else np.matmul(a, b)
    return y, _bilinear_frule(np.matmul, tangents, a, b, y)


# ---- dot, inner (tensordots), vdot, outer ------------------------------------------------------------
def _product_cotangents(a: Any, b: Any, axes_a: list[int], axes_b: list[int], dy: Any,
                        project_a: Any, project_b: Any) -> tuple[Any, Any]:
    """Thunked cotangents of ``tensordot(a, b, (axes_a, axes_b))``, or of ``a * b`` if either is a scalar."""
    if np.ndim(a) == 0 or np.ndim(b) == 0:
        return (lazy_cotangent(project_a, lambda: unbroadcast(conj_if_complex(b) * dy, np.shape(a))),
                lazy_cotangent(project_b, lambda: unbroadcast(conj_if_complex(a) * dy, np.shape(b))))
    a, b, dy = np.asarray(a), np.asarray(b), np.asarray(dy)
    return (lazy_cotangent(project_a, lambda: tensordot_cotangent_a(a, b, axes_a, axes_b, dy)),
            lazy_cotangent(project_b, lambda: tensordot_cotangent_b(a, b, axes_a, axes_b, dy)))


@rrule.register(np.dot, NUMERIC, NUMERIC)
@rrule.register(np.ndarray.dot, np.ndarray, NUMERIC)
def dot_rrule(a: Any, b: Any, out: Any = None) -> Any:
    """Reverse rule of ``np.dot(a, b)`` and ``a.dot(b)`` (no conjugation).

    ``dot`` contracts the last axis of ``a`` with the second-to-last of ``b`` (the only
    one for a 1-d ``b``); a scalar operand makes it a product.

    Examples
    --------
    >>> from chainrules import unthunk
    >>> y, pullback = rrule(np.dot, np.array([1.0, 2.0]), np.array([3.0, 4.0]))
    >>> tuple(map(unthunk, pullback(1.0)[1:3]))
    (array([3., 4.]), array([1., 2.]))
    """
    reject_keywords(np.dot, {"out": out})
    y = np.dot(a, b)
    project_a, project_b = cotangent_projector(a), cotangent_projector(b)

    def dot_pullback(dy: Any) -> tuple[Any, ...]:
        dy = read_cotangent(dy, y, np.dot)
        if passes_through(dy):
            zero = passed_on(dy)
            return NoTangent(), project_a(zero), project_b(zero), NoTangent()
        axes_a, axes_b = [np.ndim(a) - 1], [max(np.ndim(b) - 2, 0)]
        return NoTangent(), *_product_cotangents(a, b, axes_a, axes_b, dy, project_a, project_b), NoTangent()

    return y, dot_pullback


@frule.register(np.dot, NUMERIC, NUMERIC)
@frule.register(np.ndarray.dot, np.ndarray, NUMERIC)
def dot_frule(tangents: Any, a: Any, b: Any, out: Any = None) -> Any:
    """Forward rule of ``np.dot(a, b)`` and ``a.dot(b)``: ``dot(da, b) + dot(a, db)``.

    Examples
    --------
    >>> frule((NoTangent(), np.ones(2), np.zeros(2)), np.dot, np.ones(2), np.array([3.0, 4.0]))[1]
    7.0
    """
    reject_keywords(np.dot, {"out": out})
    y = np.dot(a, b)
    return y, _bilinear_frule(np.dot, tangents, a, b, y)


@rrule.register(np.inner, NUMERIC, NUMERIC)
def inner_rrule(a: Any, b: Any) -> Any:
    """Reverse rule of ``np.inner(a, b)``: contracts the last axes of both (no conjugation).

    Examples
    --------
    >>> from chainrules import unthunk
    >>> y, pullback = rrule(np.inner, np.ones((2, 3)), np.arange(3.0))
    >>> unthunk(pullback(np.ones(2))[2])
    array([2., 2., 2.])
    """
    y = np.inner(a, b)
    project_a, project_b = cotangent_projector(a), cotangent_projector(b)

    def inner_pullback(dy: Any) -> tuple[Any, ...]:
        dy = read_cotangent(dy, y, np.inner)
        if passes_through(dy):
            zero = passed_on(dy)
            return NoTangent(), project_a(zero), project_b(zero)
        axes_a, axes_b = [np.ndim(a) - 1], [np.ndim(b) - 1]
        return NoTangent(), *_product_cotangents(a, b, axes_a, axes_b, dy, project_a, project_b)

    return y, inner_pullback


@frule.register(np.inner, NUMERIC, NUMERIC)
def inner_frule(tangents: Any, a: Any, b: Any) -> Any:
    """Forward rule of ``np.inner``: ``inner(da, b) + inner(a, db)``.

    Examples
    --------
    >>> frule((NoTangent(), np.ones(2), np.zeros(2)), np.inner, np.ones(2), np.array([3.0, 4.0]))[1]
    7.0
    """
    y = np.inner(a, b)
    return y, _bilinear_frule(np.inner, tangents, a, b, y)


@rrule.register(np.vdot, NUMERIC, NUMERIC)
def vdot_rrule(a: Any, b: Any) -> Any:
    """Reverse rule of ``np.vdot(a, b) = sum(conj(a) * b)`` (flattened): ``da = b conj(dy)``, ``db = a dy``.

    Examples
    --------
    >>> from chainrules import unthunk
    >>> y, pullback = rrule(np.vdot, np.array([1j, 2.0]), np.array([3.0, 4j]))
    >>> tuple(map(unthunk, pullback(1.0)[1:]))
    (array([3.+0.j, 0.+4.j]), array([0.+1.j, 2.+0.j]))
    """
    y = np.vdot(a, b)
    project_a, project_b = cotangent_projector(a), cotangent_projector(b)

    def vdot_pullback(dy: Any) -> tuple[Any, ...]:
        dy = read_cotangent(dy, y, np.vdot)
        if passes_through(dy):
            zero = passed_on(dy)
            return NoTangent(), project_a(zero), project_b(zero)
        da = lazy_cotangent(project_a, lambda: np.reshape(b, np.shape(a)) * np.conj(dy))
        db = lazy_cotangent(project_b, lambda: np.reshape(a, np.shape(b)) * dy)
        return NoTangent(), da, db

    return y, vdot_pullback


@frule.register(np.vdot, NUMERIC, NUMERIC)
def vdot_frule(tangents: Any, a: Any, b: Any) -> Any:
    """Forward rule of ``np.vdot``: ``vdot(da, b) + vdot(a, db)``.

    Examples
    --------
    >>> frule((NoTangent(), np.ones(2), np.zeros(2)), np.vdot, np.ones(2), np.array([3.0, 4.0]))[1]
    7.0
    """
    y = np.vdot(a, b)
    return y, _bilinear_frule(np.vdot, tangents, a, b, y)


@rrule.register(np.outer, NUMERIC, NUMERIC)
def outer_rrule(a: Any, b: Any, out: Any = None) -> Any:
    """Reverse rule of ``np.outer(a, b)`` (inputs flattened): ``da = dy @ conj(b)``, ``db = conj(a) @ dy``.

    Examples
    --------
    >>> from chainrules import unthunk
    >>> y, pullback = rrule(np.outer, np.array([1.0, 2.0]), np.array([1.0, 0.0, 3.0]))
    >>> tuple(map(unthunk, pullback(np.ones((2, 3)))[1:3]))
    (array([4., 4.]), array([3., 3., 3.]))
    """
    reject_keywords(np.outer, {"out": out})
    y = np.outer(a, b)
    project_a, project_b = cotangent_projector(a), cotangent_projector(b)

    def outer_pullback(dy: Any) -> tuple[Any, ...]:
        dy = read_cotangent(dy, y, np.outer)
        if passes_through(dy):
            zero = passed_on(dy)
            return NoTangent(), project_a(zero), project_b(zero), NoTangent()
        dy = np.asarray(dy)
        da = lazy_cotangent(project_a, lambda: np.reshape(dy @ conj_if_complex(np.ravel(b)), np.shape(a)))
        db = lazy_cotangent(project_b, lambda: np.reshape(conj_if_complex(np.ravel(a)) @ dy, np.shape(b)))
        return NoTangent(), da, db, NoTangent()

    return y, outer_pullback


@frule.register(np.outer, NUMERIC, NUMERIC)
def outer_frule(tangents: Any, a: Any, b: Any, out: Any = None) -> Any:
    """Forward rule of ``np.outer``: ``outer(da, b) + outer(a, db)``.

    Examples
    --------
    >>> frule((NoTangent(), np.ones(2), np.zeros(2)), np.outer, np.ones(2), np.ones(2))[1]
    array([[1., 1.],
           [1., 1.]])
    """
    reject_keywords(np.outer, {"out": out})
    y = np.outer(a, b)
    return y, _bilinear_frule(np.outer, tangents, a, b, y)


# ---- vecdot, matvec, vecmat (gufuncs) ------------------------------------------------------------------
def _vecdot_axis(kwargs: dict[str, Any]) -> int:
    axis = kwargs.get("axis", -1)
    return -1 if axis is None else int(axis)


@rrule.register(np.vecdot, np.ndarray, np.ndarray)
def vecdot_rrule(x1: np.ndarray, x2: np.ndarray, **kwargs: Any) -> Any:
    """Reverse rule of ``np.vecdot(x1, x2) = sum(conj(x1) * x2, axis)``: ``dx1 = x2 conj(dy)``, ``dx2 = x1 dy``.

    Batch axes are summed back to each input's shape; ``axis=`` is supported.

    Examples
    --------
    >>> from chainrules import unthunk
    >>> y, pullback = rrule(np.vecdot, np.ones((2, 3)), np.arange(3.0))
    >>> unthunk(pullback(np.ones(2))[2])
    array([2., 2., 2.])
    """
    reject_keywords(np.vecdot, kwargs, ("out", "where", "axes"))
    y = np.vecdot(x1, x2, **kwargs)
    axis = _vecdot_axis(kwargs)
    project_x1, project_x2 = cotangent_projector(x1), cotangent_projector(x2)

    def vecdot_pullback(dy: Any) -> tuple[Any, ...]:
        dy = read_cotangent(dy, y, np.vecdot)
        if passes_through(dy):
            zero = passed_on(dy)
            return NoTangent(), project_x1(zero), project_x2(zero)
        dy_vec = np.asarray(dy)[..., np.newaxis]
        x1m, x2m = np.moveaxis(x1, axis, -1), np.moveaxis(x2, axis, -1)
        dx1 = lazy_cotangent(project_x1, lambda: np.moveaxis(unbroadcast(x2m * np.conj(dy_vec), x1m.shape), -1, axis))
        dx2 = lazy_cotangent(project_x2, lambda: np.moveaxis(unbroadcast(x1m * dy_vec, x2m.shape), -1, axis))
        return NoTangent(), dx1, dx2

    return y, vecdot_pullback


@frule.register(np.vecdot, np.ndarray, np.ndarray)
def vecdot_frule(tangents: Any, x1: np.ndarray, x2: np.ndarray, **kwargs: Any) -> Any:
    """Forward rule of ``np.vecdot``: ``vecdot(dx1, x2) + vecdot(x1, dx2)``.

    Examples
    --------
    >>> frule((NoTangent(), np.ones(2), np.zeros(2)), np.vecdot, np.ones(2), np.array([3.0, 4.0]))[1]
    7.0
    """
    reject_keywords(np.vecdot, kwargs, ("out", "where", "axes"))
    y = np.vecdot(x1, x2, **kwargs)
    return y, _bilinear_frule(functools.partial(np.vecdot, **kwargs), tangents, x1, x2, y)


if hasattr(np, "matvec"):  # NumPy >= 2.2

    @rrule.register(np.matvec, np.ndarray, np.ndarray)
    def matvec_rrule(x1: np.ndarray, x2: np.ndarray, **kwargs: Any) -> Any:
        """Reverse rule of ``np.matvec(x1, x2) = (x1 @ x2[..., None])[..., 0]`` (no conjugation).

        Examples
        --------
        >>> from chainrules import unthunk
        >>> y, pullback = rrule(np.matvec, np.eye(2), np.array([1.0, 2.0]))
        >>> unthunk(pullback(np.ones(2))[1])
        array([[1., 2.],
               [1., 2.]])
        """
        reject_keywords(np.matvec, kwargs, _UFUNC_REJECTED)
        y = np.matvec(x1, x2, **kwargs)
        project_x1, project_x2 = cotangent_projector(x1), cotangent_projector(x2)

        def matvec_pullback(dy: Any) -> tuple[Any, ...]:
            dy = read_cotangent(dy, y, np.matvec)
            if passes_through(dy):
                zero = passed_on(dy)
                return NoTangent(), project_x1(zero), project_x2(zero)
            dy_col, x2_col = np.asarray(dy)[..., np.newaxis], x2[..., np.newaxis]
            dx1 = lazy_cotangent(project_x1, lambda: matmul_cotangent_a(x1, x2_col, dy_col))
            dx2 = lazy_cotangent(project_x2, lambda: matmul_cotangent_b(x1, x2_col, dy_col)[..., 0])
            return NoTangent(), dx1, dx2

        return y, matvec_pullback

    @frule.register(np.matvec, np.ndarray, np.ndarray)
    def matvec_frule(tangents: Any, x1: np.ndarray, x2: np.ndarray, **kwargs: Any) -> Any:
        """Forward rule of ``np.matvec``: ``matvec(dx1, x2) + matvec(x1, dx2)``.

        Examples
        --------
        >>> frule((NoTangent(), np.eye(2), np.zeros(2)), np.matvec, np.eye(2), np.array([3.0, 4.0]))[1]
        array([3., 4.])
        """
        reject_keywords(np.matvec, kwargs, _UFUNC_REJECTED)
        y = np.matvec(x1, x2, **kwargs)
        return y, _bilinear_frule(np.matvec, tangents, x1, x2, y)

    @rrule.register(np.vecmat, np.ndarray, np.ndarray)
    def vecmat_rrule(x1: np.ndarray, x2: np.ndarray, **kwargs: Any) -> Any:
        """Reverse rule of ``np.vecmat(x1, x2) = (conj(x1)[..., None, :] @ x2)[..., 0, :]``.

        The output is antilinear in ``x1``: ``dx1 = x2 @ conj(dy)``, ``dx2 = x1 dy^T``.

        Examples
        --------
        >>> from chainrules import unthunk
        >>> y, pullback = rrule(np.vecmat, np.array([1.0, 2.0]), np.eye(2))
        >>> unthunk(pullback(np.ones(2))[2])
        array([[1., 1.],
               [2., 2.]])
        """
        reject_keywords(np.vecmat, kwargs, _UFUNC_REJECTED)
        y = np.vecmat(x1, x2, **kwargs)
        project_x1, project_x2 = cotangent_projector(x1), cotangent_projector(x2)

        def vecmat_pullback(dy: Any) -> tuple[Any, ...]:
            dy = read_cotangent(dy, y, np.vecmat)
            if passes_through(dy):
                zero = passed_on(dy)
                return NoTangent(), project_x1(zero), project_x2(zero)
            dy_row, x1_row = np.asarray(dy)[..., np.newaxis, :], conj_if_complex(x1)[..., np.newaxis, :]
            dx1 = lazy_cotangent(project_x1, lambda: np.conj(matmul_cotangent_a(x1_row, x2, dy_row)[..., 0, :]))
            dx2 = lazy_cotangent(project_x2, lambda: matmul_cotangent_b(x1_row, x2, dy_row))
            return NoTangent(), dx1, dx2

        return y, vecmat_pullback

    @frule.register(np.vecmat, np.ndarray, np.ndarray)
    def vecmat_frule(tangents: Any, x1: np.ndarray, x2: np.ndarray, **kwargs: Any) -> Any:
        """Forward rule of ``np.vecmat``: ``vecmat(dx1, x2) + vecmat(x1, dx2)``.

        Examples
        --------
        >>> frule((NoTangent(), np.ones(2), np.zeros((2, 2))), np.vecmat, np.ones(2), np.eye(2))[1]
        array([1., 1.])
        """
        reject_keywords(np.vecmat, kwargs, _UFUNC_REJECTED)
        y = np.vecmat(x1, x2, **kwargs)
        return y, _bilinear_frule(np.vecmat, tangents, x1, x2, y)


# ---- kron -----------------------------------------------------------------------------------------------
def _kron_layout(a: Any, b: Any, dy: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """Both operands at the output's ndim, and ``dy`` reshaped to axes ``(a0, b0, a1, b1, ...)``."""
    a, b = np.asarray(a), np.asarray(b)
    nd = max(a.ndim, b.ndim)
    a_p = np.reshape(a, (1,) * (nd - a.ndim) + a.shape)
    b_p = np.reshape(b, (1,) * (nd - b.ndim) + b.shape)
    interleaved = [n for pair in zip(a_p.shape, b_p.shape) for n in pair]
    return a_p, b_p, np.reshape(dy, interleaved), nd


def kron_cotangent_a(a: Any, b: Any, dy: np.ndarray) -> np.ndarray:
    """The cotangent of ``a`` in ``np.kron(a, b)`` (not projected): one tensordot with ``conj(b)``.

    Examples
    --------
    >>> kron_cotangent_a(np.ones(2), np.array([1.0, 2.0, 3.0]), np.ones(6))
    array([6., 6.])
    """
    _, b_p, dy_r, nd = _kron_layout(a, b, dy)
    da = np.tensordot(dy_r, conj_if_complex(b_p), axes=(list(range(1, 2 * nd, 2)), list(range(nd))))
    return np.reshape(da, np.shape(a))


def kron_cotangent_b(a: Any, b: Any, dy: np.ndarray) -> np.ndarray:
    """The cotangent of ``b`` in ``np.kron(a, b)`` (not projected): one tensordot with ``conj(a)``.

    Examples
    --------
    >>> kron_cotangent_b(np.array([1.0, 2.0]), np.ones(3), np.ones(6))
    array([3., 3., 3.])
    """
    a_p, _, dy_r, nd = _kron_layout(a, b, dy)
    db = np.tensordot(conj_if_complex(a_p), dy_r, axes=(list(range(nd)), list(range(0, 2 * nd, 2))))
    return np.reshape(db, np.shape(b))


@rrule.register(np.kron, NUMERIC, NUMERIC)
def kron_rrule(a: Any, b: Any) -> Any:
    """Reverse rule of ``np.kron(a, b)`` (any ndim; the smaller operand gets leading unit axes).

    Examples
    --------
    >>> from chainrules import unthunk
    >>> y, pullback = rrule(np.kron, np.eye(2), np.ones((2, 2)))
    >>> unthunk(pullback(np.ones((4, 4)))[1])
    array([[4., 4.],
           [4., 4.]])
    """
    y = np.kron(a, b)
    project_a, project_b = cotangent_projector(a), cotangent_projector(b)

    def kron_pullback(dy: Any) -> tuple[Any, ...]:
        dy = read_cotangent(dy, y, np.kron)
        if passes_through(dy):
            zero = passed_on(dy)
            return NoTangent(), project_a(zero), project_b(zero)
        dy = np.asarray(dy)
        da = lazy_cotangent(project_a, lambda: kron_cotangent_a(a, b, dy))
        db = lazy_cotangent(project_b, lambda: kron_cotangent_b(a, b, dy))
        return NoTangent(), da, db

    return y, kron_pullback


@frule.register(np.kron, NUMERIC, NUMERIC)
def kron_frule(tangents: Any, a: Any, b: Any) -> Any:
    """Forward rule of ``np.kron``: ``kron(da, b) + kron(a, db)``.

    Examples
    --------
    >>> frule((NoTangent(), np.ones(2), np.zeros(2)), np.kron, np.ones(2), np.array([1.0, 2.0]))[1]
    array([1., 2., 1., 2.])
    """
    y = np.kron(a, b)
    return y, _bilinear_frule(np.kron, tangents, a, b, y)


# ---- sample inputs ----------------------------------------------------------------------------------
def _with_dtypes(samples: list[Sample]) -> list[Sample]:
    """The samples, then the first one in float32 and in complex128."""
    first = samples[0]
    return [*samples, first.as_dtype(np.float32, label="float32"),
            Sample(*(a + 0.5j * a[::-1] for a in first.args), label="complex")]


@sample_inputs(np.matmul, operator.matmul)
def _matmul_samples(rng: np.random.Generator) -> list[Sample]:
    def r(*shape: int) -> np.ndarray:
        return rng.standard_normal(shape)

    return _with_dtypes([
        Sample(r(3, 4), r(4, 2), label="matrix @ matrix"), Sample(r(4), r(4, 2), label="1-d on the left"),
        Sample(r(3, 4), r(4), label="1-d on the right"), Sample(r(4), r(4), label="both 1-d: a scalar"),
        Sample(r(2, 3, 4), r(4, 2), label="stack @ matrix"), Sample(r(3, 4), r(2, 4, 2), label="matrix @ stack"),
        Sample(r(2, 1, 3, 4), r(3, 4, 2), label="broadcast batch axes"),
        Sample(r(3, 4), r(4, 2) + 1j * r(4, 2), label="real @ complex"),
        Sample(np.arange(12).reshape(3, 4), r(4, 2), label="an integer operand (not differentiated)")])


@sample_inputs(np.dot)
def _dot_samples(rng: np.random.Generator) -> list[Sample]:
    def r(*shape: int) -> np.ndarray:
        return rng.standard_normal(shape)

    return _with_dtypes([Sample(r(3, 4), r(4, 2), label="matrices"), Sample(r(4), r(4), label="vectors"),
                         Sample(r(2, 3, 4), r(5, 4, 2), label="N-d: last axis with second-to-last"),
                         Sample(r(3, 4), 2.5, label="a scalar operand"), Sample(1.5, -0.5, label="two scalars")])


@sample_inputs(np.ndarray.dot)
def _dot_method_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(rng.standard_normal((3, 4)), rng.standard_normal((4, 2))),
            Sample(rng.standard_normal(4), rng.standard_normal(4), label="vectors")]


@sample_inputs(np.inner)
def _inner_samples(rng: np.random.Generator) -> list[Sample]:
    def r(*shape: int) -> np.ndarray:
        return rng.standard_normal(shape)

    return _with_dtypes([Sample(r(3, 4), r(2, 4), label="last axes"), Sample(r(4), r(4), label="vectors"),
                         Sample(r(3, 4), 2.5, label="a scalar operand")])


@sample_inputs(np.vdot)
def _vdot_samples(rng: np.random.Generator) -> list[Sample]:
    return _with_dtypes([Sample(rng.standard_normal((2, 3)), rng.standard_normal((3, 2)), label="flattened"),
                         Sample(rng.standard_normal(4), rng.standard_normal(4), label="vectors")])


@sample_inputs(np.outer)
def _outer_samples(rng: np.random.Generator) -> list[Sample]:
    return _with_dtypes([Sample(rng.standard_normal(3), rng.standard_normal(4), label="vectors"),
                         Sample(rng.standard_normal((2, 2)), rng.standard_normal(3), label="flattened")])


@sample_inputs(np.vecdot)
def _vecdot_samples(rng: np.random.Generator) -> list[Sample]:
    def r(*shape: int) -> np.ndarray:
        return rng.standard_normal(shape)

    return _with_dtypes([Sample(r(2, 3), r(3), label="a batch against a vector"),
                         Sample(r(3, 2), r(3, 2), fkwargs={"axis": 0}, label="axis= keyword")])


@sample_inputs(np.kron)
def _kron_samples(rng: np.random.Generator) -> list[Sample]:
    def r(*shape: int) -> np.ndarray:
        return rng.standard_normal(shape)

    return _with_dtypes([Sample(r(2, 3), r(2, 2), label="matrices"), Sample(r(3), r(2, 2), label="different ndim"),
                         Sample(2.5, r(3), label="a scalar operand")])


if hasattr(np, "matvec"):

    @sample_inputs(np.matvec)
    def _matvec_samples(rng: np.random.Generator) -> list[Sample]:
        return _with_dtypes([Sample(rng.standard_normal((3, 4)), rng.standard_normal(4), label="matrix, vector"),
                             Sample(rng.standard_normal((2, 3, 4)), rng.standard_normal((1, 4)), label="batches")])

    @sample_inputs(np.vecmat)
    def _vecmat_samples(rng: np.random.Generator) -> list[Sample]:
        return _with_dtypes([Sample(rng.standard_normal(3), rng.standard_normal((3, 4)), label="vector, matrix"),
                             Sample(rng.standard_normal((2, 3)), rng.standard_normal((3, 4)), label="batches")])
