"""Tangent values of the reduction and contraction rules: reading input tangents, fitting outputs (private).

* :func:`tangent_value` reads an frule's input tangent (``None`` for a zero);
* :func:`to_tangent_dtype` casts a cotangent to an input's tangent dtype *before* it is
  broadcast, so a ``dtype=`` keyword never makes a pullback allocate a full-size array just
  to change precision, and float32 inputs keep float32 cotangents;
* :func:`output_tangent` fits an frule's result to the output's tangent space;
* :func:`passed_on` is what a differentiable input gets when the output cotangent is a zero
  or a not-implemented tangent;
* :func:`as_computed` is the array a reduction with ``dtype=`` actually works on.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from chainrules_core import AbstractZero, NoTangent, NotImplementedTangent, ZeroTangent, differentiable, unthunk
from chainrules_core.scalar_rules import tangent_dtype

__all__ = ["as_computed", "output_tangent", "passed_on", "tangent_value", "to_tangent_dtype"]


def tangent_value(dx: Any) -> Any:
    """The value of an input tangent, or ``None`` for a zero (``ZeroTangent()``, ``NoTangent()``, ``None``).

    Examples
    --------
    >>> from chainrules_core import Thunk, ZeroTangent
    >>> from chainrules.rulesets.reductions._tangent_values import tangent_value
    >>> tangent_value(Thunk(lambda: 2.0)), tangent_value(ZeroTangent()), tangent_value(None)
    (2.0, None, None)
    """
    dx = unthunk(dx)
    return None if dx is None or isinstance(dx, AbstractZero) else dx


def to_tangent_dtype(dy: Any, x: Any) -> np.ndarray:
    """``dy`` as an array of ``x``'s tangent dtype: the real part for a real ``x``, then cast.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.reductions._tangent_values import to_tangent_dtype
    >>> to_tangent_dtype(np.array([1 + 2j]), np.ones(3, np.float32))
    array([1.], dtype=float32)
    """
    dy = np.asarray(dy)
    want = tangent_dtype(x)
    if want.kind == "f" and dy.dtype.kind == "c":
        dy = dy.real
    return dy.astype(want, copy=False)


def passed_on(dy: Any) -> Any:
    """The cotangent of a differentiable input when the output cotangent ``dy`` passes through.

    A zero output cotangent (``ZeroTangent()`` or ``NoTangent()``) gives ``ZeroTangent()``; a
    not-implemented one is passed on as it is.

    Examples
    --------
    >>> from chainrules_core import NoTangent, not_implemented
    >>> from chainrules.rulesets.reductions._tangent_values import passed_on
    >>> missing = not_implemented("upstream")
    >>> passed_on(NoTangent()), passed_on(missing) is missing
    (ZeroTangent(), True)
    """
    return dy if isinstance(dy, NotImplementedTangent) else ZeroTangent()


def output_tangent(value: Any, y: Any) -> Any:
    """An frule's output tangent in the output's tangent space (dtype and shape of ``y``).

    ``None`` (all input tangents zero) gives ``ZeroTangent()``; a non-differentiable output
    (integer or boolean) gives ``NoTangent()``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.reductions._tangent_values import output_tangent
    >>> output_tangent(np.array([1.0 + 1j]), np.float32(2.0)), output_tangent(None, 1.0)
    (np.float32(1.0), ZeroTangent())
    """
    if not differentiable(y):
        return NoTangent()
    if value is None:
        return ZeroTangent()
    if isinstance(value, NotImplementedTangent):
        return value
    value = to_tangent_dtype(value, y)
    if isinstance(y, np.ndarray):
        return np.asarray(value).reshape(y.shape)
    return value.reshape(())[()] if isinstance(value, np.ndarray) else value


def as_computed(a: Any, dtype: Any) -> np.ndarray:
    """The values a reduction with ``dtype=`` works on: the real part when a real ``dtype``
    is asked of complex input (NumPy casts, discarding the imaginary part), else ``a``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.reductions._tangent_values import as_computed
    >>> as_computed(np.array([1 + 2j]), np.float64)
    array([1.])
    """
    arr = np.asarray(a)
    if dtype is not None and arr.dtype.kind == "c" and np.dtype(dtype).kind != "c":
        return arr.real
    return arr
