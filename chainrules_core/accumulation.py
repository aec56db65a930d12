"""Gradient accumulation: ``add_`` (add, in place when it can) and its destination test."""

from __future__ import annotations

from typing import Any

import numpy as np

from chainrules_core.arithmetic import add
from chainrules_core.tangents.not_implemented import NotImplementedTangent
from chainrules_core.tangents.thunks import InplaceableThunk, unthunk
from chainrules_core.tangents.zeros import AbstractZero


def is_inplaceable_destination(x: Any) -> bool:
    """Return whether ``add_`` may write into ``x`` in place.

    True for a writable floating or complex ``ndarray`` whose elements do not overlap in
    memory (``np.broadcast_to`` views and ``as_strided`` windows do: writing one element
    would change others).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules_core import is_inplaceable_destination
    >>> is_inplaceable_destination(np.zeros(3)), is_inplaceable_destination(np.zeros(3, int))
    (True, False)
    >>> is_inplaceable_destination(np.broadcast_to(1.0, (3,)))
    False
    """
    if not isinstance(x, np.ndarray) or not x.flags.writeable or x.dtype.kind not in "fc":
        return False
    return x.size <= 1 or x.flags.c_contiguous or x.flags.f_contiguous or _elements_disjoint(x)


def _elements_disjoint(x: np.ndarray) -> bool:
    """Whether no two elements of ``x`` share memory (a sufficient test on the strides).

    Sorting the axes of length > 1 by stride, each stride must step over the whole extent
    spanned by the axes before it; slices and transposes of an array pass, zero strides and
    overlapping windows fail.
    """
    span = x.itemsize
    for stride, n in sorted((abs(st), n) for st, n in zip(x.strides, x.shape) if n > 1):
        if stride < span:
            return False
        span = stride * (n - 1) + span
    return True


def add_(acc: Any, dx: Any) -> Any:
    """Return ``acc + dx``, writing into ``acc`` in place when it is an inplaceable destination.

    This is how an AD accumulates the cotangents of a value used several times. With an
    :class:`~chainrules_core.InplaceableThunk`, its ``add_fn`` adds into ``acc`` directly
    (for example one entry for the pullback of ``x[i]``), with no dense temporary.

    Parameters
    ----------
    acc : Any
        The accumulator. It may be modified: pass an array you own.
    dx : Any
        A tangent of any kind.

    Returns
    -------
    Any
        The sum; ``acc`` itself when the addition was done in place.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules_core import add_, ZeroTangent
    >>> acc = np.zeros(2)
    >>> out = add_(acc, np.array([1.0, 2.0]))
    >>> out is acc, acc
    (True, array([1., 2.]))
    >>> add_(acc, ZeroTangent()) is acc
    True
    """
    if isinstance(dx, AbstractZero):
        return acc if not isinstance(acc, AbstractZero) else add(acc, dx)
    if isinstance(acc, AbstractZero):
        return add(acc, unthunk(dx))
    if isinstance(acc, NotImplementedTangent) or isinstance(dx, NotImplementedTangent):
        return add(acc, dx)
    if is_inplaceable_destination(acc):
        if isinstance(dx, InplaceableThunk):
            return dx.add_fn(acc)
        value = unthunk(dx)
        if isinstance(value, (AbstractZero, NotImplementedTangent)):
            return add(acc, value)
        if (isinstance(value, (np.ndarray, np.generic, int, float, complex))
                and np.result_type(acc, value) == acc.dtype
                and np.broadcast_shapes(acc.shape, np.shape(value)) == acc.shape):
            np.add(acc, value, out=acc)
            return acc
        return add(acc, value)
    return add(acc, dx)
