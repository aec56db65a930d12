"""The reduced axes of a reduction and the layout of its cotangent (private).

A reduction over ``axes`` maps an array of shape ``shape`` to an array whose reduced axes
are dropped (or kept with length one, ``keepdims=True``). Its pullback needs the output
cotangent back in the input's shape: :func:`keepdims_shape` gives the shape with the
reduced axes kept as length one, and :func:`broadcast_view` broadcasts a cotangent there
without copying it (a read-only view with zero strides, as ``np.broadcast_to`` gives).
"""

from __future__ import annotations

import numpy as np
from numpy.lib.array_utils import normalize_axis_tuple

__all__ = ["broadcast_view", "keepdims_shape", "reduced_axes"]


def reduced_axes(axis: object, ndim: int) -> tuple[int, ...]:
    """The reduced axes as sorted non-negative ints (``None``: all of them).

    Examples
    --------
    >>> from chainrules.rulesets.reductions._axes import reduced_axes
    >>> reduced_axes(None, 3), reduced_axes(-1, 3), reduced_axes((2, 0), 3)
    ((0, 1, 2), (2,), (0, 2))
    """
    if axis is None:
        return tuple(range(ndim))
    if type(axis) is int and -ndim <= axis < ndim:
        return (axis % ndim,)
    return tuple(sorted(normalize_axis_tuple(axis, ndim)))  # type: ignore[arg-type]


def keepdims_shape(shape: tuple[int, ...], axes: tuple[int, ...]) -> tuple[int, ...]:
    """``shape`` with the reduced ``axes`` set to length one.

    Examples
    --------
    >>> from chainrules.rulesets.reductions._axes import keepdims_shape
    >>> keepdims_shape((2, 3, 4), (0, 2))
    (1, 3, 1)
    """
    if len(axes) == len(shape):
        return (1,) * len(shape)
    return tuple(1 if i in axes else n for i, n in enumerate(shape))


def broadcast_view(small: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """A read-only view of ``small`` (of ``shape`` with some axes of length one) broadcast to ``shape``.

    What ``np.broadcast_to`` returns, built directly (zero strides on the broadcast axes)
    for a C-contiguous ``small`` of the same number of dimensions; other arrays go through
    ``np.broadcast_to``. The memory used is that of ``small``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.reductions._axes import broadcast_view
    >>> out = broadcast_view(np.array([[1.0, 2.0]]), (3, 2))
    >>> out, out.flags.writeable, out.strides
    (array([[1., 2.],
           [1., 2.],
           [1., 2.]]), False, (0, 8))
    """
    if small.ndim != len(shape) or not small.flags.c_contiguous:
        return np.broadcast_to(small, shape)
    strides = tuple(0 if m == 1 else stride for m, stride in zip(small.shape, small.strides))
    view = np.ndarray(shape, small.dtype, small, 0, strides)
    view.flags.writeable = False
    return view
