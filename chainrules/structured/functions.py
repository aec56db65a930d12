"""NumPy functions on structured matrices (``__array_function__``).

``np.shape``, ``np.ndim``, ``np.transpose``, ``np.matrix_transpose``, ``np.trace``,
``np.diagonal``, ``np.diag``, ``np.sum``, ``np.dot``, ``np.linalg.matmul``,
``np.linalg.det``, ``np.linalg.slogdet``, ``np.linalg.inv`` and ``np.linalg.solve`` use
the structure; a handler returns :data:`DENSE` for arguments it does not cover (an
``out=`` array, other axes), and every other NumPy function receives the dense matrix.

Examples
--------
>>> import numpy as np
>>> from chainrules.structured import Diagonal
>>> D = Diagonal(np.array([1.0, 2.0]))
>>> np.sum(D, axis=0), np.linalg.inv(D)
(array([1., 2.]), Diagonal(array([1. , 0.5])))
>>> np.exp(D)                       # any other function sees the dense matrix
array([[2.71828183, 1.        ],
       [1.        , 7.3890561 ]])
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from chainrules.structured._linalg import solve
from chainrules.structured.base import StructuredMatrix, is_scalar
from chainrules.structured.operations import densify, matmul

DENSE = object()  # returned by a handler that leaves the call to the dense fallback
HANDLERS: dict[Any, Callable[..., Any]] = {}


def _implements(*funcs: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    def decorator(handler: Callable[..., Any]) -> Callable[..., Any]:
        for f in funcs:
            HANDLERS[f] = handler
        return handler
    return decorator


def normalise_axes(axis: Any) -> tuple[int, ...] | None:
    """Axes of a 2-d reduction as a sorted tuple of 0 and 1 (``None`` means both).

    Examples
    --------
    >>> from chainrules.structured.functions import normalise_axes
    >>> normalise_axes(None), normalise_axes(-1), normalise_axes((1, 0))
    ((0, 1), (1,), (0, 1))
    """
    if axis is None:
        return (0, 1)
    axes = axis if isinstance(axis, tuple) else (axis,)
    out = []
    for ax in axes:
        ax = int(ax)
        if not -2 <= ax < 2:
            raise np.exceptions.AxisError(ax, 2)
        out.append(ax % 2)
    return tuple(sorted(set(out)))


@_implements(np.shape)
def _shape(a: Any) -> Any:
    return a.shape


@_implements(np.ndim)
def _ndim(a: Any) -> Any:
    return 2


@_implements(np.transpose, np.permute_dims)
def _transpose_function(a: Any, axes: Any = None) -> Any:
    if not isinstance(a, StructuredMatrix):
        return DENSE
    return a.transpose() if axes is None else a.transpose(axes)


@_implements(np.matrix_transpose)
def _matrix_transpose(x: Any) -> Any:
    return x.T if isinstance(x, StructuredMatrix) else DENSE


@_implements(np.trace)
def _trace(a: Any, offset: int = 0, axis1: int = 0, axis2: int = 1, dtype: Any = None, out: Any = None) -> Any:
    if not isinstance(a, StructuredMatrix) or out is not None:
        return DENSE
    order = (axis1 % 2, axis2 % 2)
    if order == (0, 1):
        return a.trace(offset, dtype)
    if order == (1, 0):
        return a.trace(-offset, dtype)
    return DENSE


@_implements(np.diagonal)
def _diagonal_function(a: Any, offset: int = 0, axis1: int = 0, axis2: int = 1) -> Any:
    if not isinstance(a, StructuredMatrix):
        return DENSE
    order = (axis1 % 2, axis2 % 2)
    if order == (0, 1):
        return a.diagonal(offset)
    if order == (1, 0):
        return a.diagonal(-offset)
    return DENSE


@_implements(np.diag)
def _diag_function(v: Any, k: int = 0) -> Any:
    return v.diagonal(k) if isinstance(v, StructuredMatrix) else DENSE


@_implements(np.sum)
def _sum_function(a: Any, axis: Any = None, dtype: Any = None, out: Any = None, keepdims: Any = np._NoValue,
                  initial: Any = np._NoValue, where: Any = np._NoValue) -> Any:
    if not isinstance(a, StructuredMatrix) or out is not None or initial is not np._NoValue \
            or where is not np._NoValue:
        return DENSE
    return a.sum(axis, dtype, keepdims=bool(keepdims) if keepdims is not np._NoValue else False)


@_implements(np.dot, np.linalg.matmul)
def _dot(a: Any, b: Any, out: Any = None) -> Any:
    if out is not None or is_scalar(a) or is_scalar(b):
        return DENSE
    if np.ndim(a) > 2 or np.ndim(b) > 2:
        return DENSE
    return matmul(a, b)


@_implements(np.linalg.det)
def _det_function(a: Any) -> Any:
    return a._det() if isinstance(a, StructuredMatrix) else DENSE


@_implements(np.linalg.slogdet)
def _slogdet_function(a: Any) -> Any:
    return a._slogdet() if isinstance(a, StructuredMatrix) else DENSE


@_implements(np.linalg.inv)
def _inv_function(a: Any) -> Any:
    return a._inv() if isinstance(a, StructuredMatrix) else DENSE


@_implements(np.linalg.solve)
def _solve_function(a: Any, b: Any) -> Any:
    if not isinstance(a, StructuredMatrix):
        return DENSE
    return solve(a, densify(b))
