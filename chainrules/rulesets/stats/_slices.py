"""The slices an axis-reducing statistic of ``scipy.stats`` reads, and its keywords (private).

``scipy.stats.gmean(a, axis)``, ``skew``, ``entropy`` ... reduce ``a`` over one axis, a
tuple of axes or all of them (``axis=None``): each output entry is a function of one
*slice* of ``a``. :class:`Slices` moves the reduced axes last and merges them, so every
formula is written once for an array of shape ``batch + (n,)`` with sums over the last
axis; it maps an output (or its cotangent) to ``batch + (1,)`` and a per-slice gradient
back to the shape of ``a``.

The keywords of SciPy's ``_axis_nan_policy`` decorator:

* ``nan_policy='omit'`` drops the NaN entries of each slice: the formulas then take a
  mask (``Slices.mask``, ``None`` when nothing is dropped), the NaN entries are replaced by
  zeros and get a zero cotangent; ``'propagate'`` and ``'raise'`` need nothing (NaN
  propagates through the formulas, SciPy raises);
* ``keepdims=True`` only inserts length-one axes in the output: the cotangent is reshaped.

The entries of such a statistic are real: complex data get a ``not_implemented``
cotangent (:data:`COMPLEX_REASON`) where the function is not holomorphic.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from chainrules.rulesets.reductions._axes import reduced_axes
from chainrules_core import (
    AbstractZero,
    NoTangent,
    NotImplementedTangent,
    ProjectTo,
    UnsupportedKeywordError,
    ZeroTangent,
    differentiable,
    not_implemented,
    unbroadcast,
    unthunk,
)
from chainrules_core.rules import _callable_name
from chainrules_core.scalar_rules import tangent_dtype

__all__ = ["COMPLEX_REASON", "NO", "Slices", "argument_cotangent", "check_nan_policy", "fit_output", "omits",
           "tangent_value", "zero_like"]

NO = NoTangent()

COMPLEX_REASON = ("complex data: the statistic is not a holomorphic function of its entries (it uses |x|^2 or "
                  "an ordering); differentiate the real and imaginary parts as separate real arrays")


def check_nan_policy(f: Any, nan_policy: Any) -> bool:
    """Whether ``nan_policy`` drops NaN entries (``'omit'``); other values SciPy checks itself.

    Examples
    --------
    >>> import scipy.stats as st
    >>> from chainrules.rulesets.stats._slices import check_nan_policy
    >>> check_nan_policy(st.gmean, "propagate"), check_nan_policy(st.gmean, "omit")
    (False, True)
    """
    return isinstance(nan_policy, str) and nan_policy == "omit"


def omits(f: Any, nan_policy: Any) -> bool:
    """``check_nan_policy`` for functions that cannot drop NaN entries: ``'omit'`` raises.

    Examples
    --------
    >>> import scipy.stats as st
    >>> from chainrules.rulesets.stats._slices import omits
    >>> omits(st.describe, "propagate")
    False
    >>> omits(st.describe, "omit")
    Traceback (most recent call last):
    ...
    chainrules_core.scalar_rules.UnsupportedKeywordError: scipy.stats._stats_py.describe: nan_policy='omit' ...
    """
    if check_nan_policy(f, nan_policy):
        raise UnsupportedKeywordError(f"{_callable_name(f)}: nan_policy='omit' is not differentiable here (SciPy "
                                      "returns masked arrays); drop the NaN entries before the call")
    return False


def tangent_value(dx: Any) -> Any:
    """The value of an frule's input tangent, or ``None`` for a zero one."""
    dx = unthunk(dx)
    return None if dx is None or isinstance(dx, AbstractZero) else dx


class Slices:
    """The slices of ``a`` an axis-reducing statistic reads, as an array of shape ``batch + (n,)``.

    Parameters
    ----------
    a : array_like
        The data (a 0-d array counts as one slice of one entry).
    axis : int, tuple of ints or None
        The reduced axes, as the statistic takes them.
    omit : bool
        NaN entries are dropped (``nan_policy='omit'``): they become zeros of ``x`` and
        :attr:`mask` is ``False`` there.
    extra_nan : array_like, optional
        Another array broadcast with ``a`` whose NaN entries are dropped too (weights).

    Attributes
    ----------
    x : ndarray
        The data, reduced axes last and merged, as float64 (complex128 for complex data).
    mask : ndarray of bool or None
        Which entries are kept (``None``: all of them).
    n : ndarray or int
        The number of kept entries of each slice (shape ``batch + (1,)`` with a mask).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.stats._slices import Slices
    >>> s = Slices(np.arange(6.0).reshape(2, 3), 0)
    >>> s.x
    array([[0., 3.],
           [1., 4.],
           [2., 5.]])
    >>> s.restore(s.x)
    array([[0., 1., 2.],
           [3., 4., 5.]])
    """

    __slots__ = ("axes", "batch", "mask", "moved_shape", "n", "shape", "x")

    def __init__(self, a: Any, axis: Any, omit: bool = False, extra_nan: Any = None) -> None:
        arr = np.asarray(a)
        self.shape = arr.shape
        if arr.ndim == 0:
            arr = arr.reshape(1)
        axes = reduced_axes(axis, arr.ndim)
        kept = tuple(i for i in range(arr.ndim) if i not in axes)
        self.axes = axes
        moved = np.moveaxis(arr, axes, tuple(range(len(kept), arr.ndim))) if axes != tuple(
            range(len(kept), arr.ndim)) else arr
        self.moved_shape = moved.shape
        self.batch = moved.shape[:len(kept)]
        n = math.prod(moved.shape[len(kept):])
        kind = "c" if arr.dtype.kind == "c" else "f"
        x = moved.reshape(self.batch + (n,)).astype(np.complex128 if kind == "c" else np.float64, copy=False)
        self.mask: np.ndarray | None = None
        self.n: Any = n
        self.x = x
        if omit:
            nan = np.isnan(x)
            if extra_nan is not None:
                nan = nan | self.take(np.isnan(np.asarray(extra_nan, dtype=float))).astype(bool)
            if nan.any():
                self.mask = ~nan
                self.x = np.where(nan, 0.0, x)
                self.n = np.sum(self.mask, axis=-1, keepdims=True)

    def take(self, b: Any) -> np.ndarray:
        """Another array of ``a``'s shape (broadcast to it), in the same layout, as float64."""
        arr = np.broadcast_to(np.asarray(b), self.shape)
        if arr.ndim == 0:
            arr = arr.reshape(1)
        kept = len(self.batch)
        if self.axes != tuple(range(kept, arr.ndim)):
            arr = np.moveaxis(arr, self.axes, tuple(range(kept, arr.ndim)))
        out = arr.reshape(self.batch + (-1,))
        return out if out.dtype.kind in "fcb" else out.astype(np.float64)

    def masked(self, b: np.ndarray) -> np.ndarray:
        """``b`` (in the slice layout) with zeros at the dropped entries."""
        return b if self.mask is None else np.where(self.mask, b, 0.0)

    def lift(self, r: Any) -> np.ndarray:
        """An output of the statistic (or its cotangent, any ``keepdims``) as ``batch + (1,)``."""
        return np.reshape(np.asarray(r), self.batch + (1,))

    def restore(self, g: np.ndarray) -> np.ndarray:
        """A per-entry array of the slice layout back in the shape of ``a``."""
        moved = np.reshape(g, self.moved_shape)
        kept = len(self.batch)
        if self.axes != tuple(range(kept, moved.ndim)):
            moved = np.moveaxis(moved, tuple(range(kept, moved.ndim)), self.axes)
        return moved.reshape(self.shape)

    def total(self, b: np.ndarray) -> np.ndarray:
        """Sum over each slice, kept as ``batch + (1,)`` (the dropped entries excluded)."""
        return np.sum(self.masked(b), axis=-1, keepdims=True)

    def mean(self, b: np.ndarray) -> np.ndarray:
        """Mean over each slice's kept entries, as ``batch + (1,)``."""
        with np.errstate(invalid="ignore", divide="ignore"):
            return self.total(b) / self.n


def zero_like(x: Any) -> Any:
    """The zero cotangent of ``x`` (``NoTangent()`` for a non-differentiable ``x``)."""
    if not differentiable(x):
        return NO
    return ProjectTo(x)(np.zeros(np.shape(x), tangent_dtype(x)))


def argument_cotangent(x: Any, g: Any) -> Any:
    """``g`` summed over the axes broadcasting added to ``x``, projected onto ``x``'s tangent space.

    A ``NotImplementedTangent`` passes through; ``x`` that is not differentiable gets ``NoTangent()``.
    """
    if not differentiable(x):
        return NO
    if isinstance(g, (NotImplementedTangent, AbstractZero)):
        return g
    g = np.asarray(g)
    if g.shape != np.shape(x):
        g = unbroadcast(g, np.shape(x))
    if np.shape(x) == () and not isinstance(x, np.ndarray):
        g = g[()] if isinstance(g, np.ndarray) else g
    return ProjectTo(x)(g)


def fit_output(value: Any, y: Any) -> Any:
    """An frule's output tangent in the tangent space of the output ``y`` (shape and dtype).

    ``None`` gives ``ZeroTangent()``; a not-implemented tangent passes through.
    """
    if not differentiable(y):
        return NO
    if value is None:
        return ZeroTangent()
    if isinstance(value, NotImplementedTangent):
        return value
    value = np.asarray(value)
    want = tangent_dtype(y)
    if want.kind == "f" and value.dtype.kind == "c":
        value = value.real
    value = value.astype(want, copy=False).reshape(np.shape(y))
    if isinstance(y, np.ndarray):
        return value
    return value[()]


def not_for_complex(x: Any) -> Any:
    """``not_implemented(COMPLEX_REASON)`` for complex ``x``, else ``None``."""
    if np.iscomplexobj(x):
        return not_implemented(COMPLEX_REASON)
    return None
