"""``unbroadcast``: the adjoint of NumPy broadcasting (sum a cotangent back to a shape)."""

from __future__ import annotations

from typing import Any

import numpy as np

from chainrules_core.tangents.not_implemented import NotImplementedTangent
from chainrules_core.tangents.zeros import AbstractZero


def unbroadcast(dx: Any, shape: tuple[int, ...]) -> Any:
    """Sum ``dx`` over the axes that broadcasting added or stretched to reach its shape.

    If ``x`` of shape ``shape`` was broadcast against other operands, the cotangent of
    ``x`` is the output cotangent summed over the leading axes broadcasting added and
    over the axes where ``x`` had length one.

    Parameters
    ----------
    dx : array_like or tangent
        A cotangent of the broadcast result.
    shape : tuple of int
        The shape of the input before broadcasting.

    Returns
    -------
    Any
        An array of shape ``shape`` (zeros and not-implemented tangents pass through; a
        ``dx`` with fewer dimensions than ``shape`` is returned unchanged for the
        projector to reject).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules_core import unbroadcast
    >>> unbroadcast(np.ones((2, 3)), (3,))
    array([2., 2., 2.])
    >>> unbroadcast(np.ones((2, 3)), (2, 1))
    array([[3.],
           [3.]])
    >>> unbroadcast(np.ones((2, 3)), ())
    np.float64(6.0)
    """
    if type(dx) is np.ndarray:  # the common case: NumPy's reduction called directly
        dx_shape = dx.shape
        if dx_shape == shape:
            return dx
        lead = len(dx_shape) - len(shape)
        if lead < 0:
            return dx
        if not shape:
            return _add_reduce(dx, None)  # np.sum(dx)
        if lead and dx_shape[lead:] == shape:  # leading axes added, none stretched
            return _add_reduce(dx, 0 if lead == 1 else tuple(range(lead)))
        stretched = tuple(lead + i for i, n in enumerate(shape) if n == 1 and dx_shape[lead + i] != 1)
        return _add_reduce(dx, tuple(range(lead)) + stretched, keepdims=True).reshape(shape)
    return unbroadcast_general(dx, shape)


_add_reduce = np.add.reduce  # what np.sum calls for an ndarray


def unbroadcast_general(dx: Any, shape: tuple[int, ...]) -> Any:
    """:func:`unbroadcast` without its fast path for ndarrays: the specification it is tested against."""
    if isinstance(dx, (AbstractZero, NotImplementedTangent)):
        return dx
    dx_shape = np.shape(dx)
    if dx_shape == shape:
        return dx
    lead = len(dx_shape) - len(shape)
    if lead < 0:
        return dx
    axes = tuple(range(lead)) + tuple(
        lead + i for i, n in enumerate(shape) if n == 1 and dx_shape[lead + i] != 1)
    if not shape:
        return np.sum(dx)
    return np.sum(dx, axis=axes, keepdims=True).reshape(shape)
