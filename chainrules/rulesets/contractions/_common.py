"""Helpers shared by the contraction rules (private).

* :func:`project_to` is ``ProjectTo`` except that integer and boolean inputs (Python
  ``int``, integer or boolean ndarrays and NumPy scalars) get ``NoTangent()``: they are
  index-like or counting arguments, and the testers of :mod:`chainrules.testing` hold them
  fixed.
* :func:`lazy_cotangent` thunks a cotangent, except that of an input without a tangent space.
* :func:`tangent_value` turns a tangent of any kind into an array value, or ``None`` for
  a zero.
* :func:`sum_tangents` adds the non-zero terms of a pushforward.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from chainrules_core import (
    AbstractZero,
    NoTangent,
    NotImplementedTangent,
    ProjectTo,
    Thunk,
    ZeroTangent,
    unthunk,
)
from chainrules_core.projection import NoTangentProjector

NUMBER_OR_ARRAY = (numbers.Number, np.ndarray)
"""Argument types of the rules that accept Python/NumPy numbers as well as ndarrays."""


def _no_tangent(dx: Any) -> NoTangent:
    return NoTangent()


def differentiable(x: Any) -> bool:
    """Whether ``x`` has a tangent space (a floating or complex number or array).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.contractions._common import differentiable
    >>> differentiable(np.ones(2)), differentiable(np.arange(2)), differentiable(3), differentiable(2.0)
    (True, False, False, True)
    """
    if isinstance(x, (bool, int, np.bool_)):
        return False
    dtype = getattr(x, "dtype", None)
    if dtype is not None:
        return bool(np.dtype(dtype).kind in "fc")
    return isinstance(x, (float, complex))


def project_to(x: Any) -> Callable[[Any], Any]:
    """``ProjectTo(x)``, except integer and boolean inputs, which get ``NoTangent()``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.contractions._common import project_to
    >>> project_to(np.arange(3))(np.ones(3)), project_to(np.ones(2, np.float32))(np.ones(2))
    (NoTangent(), array([1., 1.], dtype=float32))
    """
    if isinstance(x, (numbers.Number, np.ndarray, np.generic)) and not differentiable(x):
        return _no_tangent
    return ProjectTo(x)


def lazy_cotangent(project: Callable[[Any], Any], compute: Callable[[], Any]) -> Any:
    """``Thunk(lambda: project(compute()))``, or ``NoTangent()`` at once for an input without a tangent space.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.contractions._common import lazy_cotangent, project_to
    >>> lazy_cotangent(project_to(np.ones(2)), lambda: np.zeros(2))
    Thunk(...)
    >>> lazy_cotangent(project_to(np.arange(2)), lambda: np.zeros(2))
    NoTangent()
    """
    if project is _no_tangent or isinstance(project, NoTangentProjector):
        return NoTangent()
    return Thunk(lambda: project(compute()))


def tangent_value(dx: Any) -> Any:
    """The value of a tangent, or ``None`` for a zero (``ZeroTangent()``, ``NoTangent()``).

    Examples
    --------
    >>> from chainrules_core import Thunk, ZeroTangent
    >>> from chainrules.rulesets.contractions._common import tangent_value
    >>> tangent_value(Thunk(lambda: 2.0)), tangent_value(ZeroTangent())
    (2.0, None)
    """
    dx = unthunk(dx)
    if isinstance(dx, AbstractZero) or dx is None:
        return None
    return dx


def sum_tangents(terms: Iterable[Any], project_y: Callable[[Any], Any]) -> Any:
    """Add the terms that are not ``None`` and project the sum (``ZeroTangent()`` if none).

    A ``NotImplementedTangent`` term makes the whole sum not implemented.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules_core import ProjectTo
    >>> from chainrules.rulesets.contractions._common import sum_tangents
    >>> sum_tangents([None, np.ones(2), 2 * np.ones(2)], ProjectTo(np.zeros(2)))
    array([3., 3.])
    >>> sum_tangents([None], ProjectTo(np.zeros(2)))
    ZeroTangent()
    """
    total: Any = None
    for term in terms:
        if term is None:
            continue
        if isinstance(term, NotImplementedTangent):
            return term
        total = term if total is None else total + term
    if total is None:
        return ZeroTangent()
    return project_y(total)


def conj(x: Any) -> Any:
    """The complex conjugate, without copying a real array.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.contractions._common import conj
    >>> x = np.ones(2)
    >>> conj(x) is x, conj(np.array([1j]))
    (True, array([-0.-1.j]))
    """
    if np.iscomplexobj(x):
        return np.conj(x)
    return x


def as_array(dy: Any) -> np.ndarray:
    """An output cotangent (number or array) as an ndarray, without copying arrays."""
    return dy if isinstance(dy, np.ndarray) else np.asarray(dy)


def not_differentiated(n: int) -> tuple[NoTangent, ...]:
    """``n`` times ``NoTangent()``: the cotangents of index, mode and keyword-like arguments."""
    return (NoTangent(),) * n
