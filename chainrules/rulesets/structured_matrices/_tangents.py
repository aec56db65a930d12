"""How the rules for structured matrices and sparse arrays read and build tangents (private).

Conventions of this package, implemented once:

* the output cotangent is read by :func:`read_output`: the core's
  :func:`~chainrules_core.read_cotangent` (its one policy: zeros and not-implemented
  tangents come back unchanged, ``None``, strings, wrong shapes... raise a
  :class:`~chainrules_core.ProjectionError` naming the function), then the projection onto
  the output's tangent space. A structured or sparse output also accepts the cotangents
  only its type has: its own type (or another structured type, a sparse array) and a
  structural ``Tangent`` of its fields, which go to the projector (whose errors are
  re-raised naming the function);
* the frules read their input tangents with :func:`tangent_of` (``None`` for a zero);
* each input's cotangent is a ``Thunk`` when a pullback returns several
  (:func:`lazy`), and is projected with ``ProjectTo`` of that input;
* conjugation is skipped for real arrays (:func:`conj`), so real pullbacks allocate no
  conjugated copies.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable
from typing import Any

import numpy as np
import scipy.sparse as sp

from chainrules.structured.base import StructuredMatrix
from chainrules_core import (
    AbstractZero,
    NoTangent,
    NotImplementedTangent,
    ProjectionError,
    ProjectTo,
    Tangent,
    Thunk,
    ZeroTangent,
    passes_through,
    read_cotangent,
    unthunk,
)

NO = NoTangent()
NUMBER = (numbers.Number,)
NUMBER_OR_ARRAY = (numbers.Number, np.ndarray)
"""Argument types of the ndarray side of a rule (Python/NumPy numbers and ndarrays)."""
STRUCTURED = StructuredMatrix


def conj(x: Any) -> Any:
    """``np.conj(x)`` for complex values; ``x`` itself otherwise (no copy).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.structured_matrices._tangents import conj
    >>> a = np.ones(2)
    >>> conj(a) is a, conj(np.array([1j]))
    (True, array([-0.-1.j]))
    """
    if isinstance(x, StructuredMatrix):
        return x.conj()
    if np.iscomplexobj(x):
        return x.conj() if hasattr(x, "toarray") else np.conj(x)  # scipy.sparse: its own conj
    return x


def read_output(dy: Any, y: Any, f: str, project_y: Callable[[Any], Any] | None = None) -> Any:
    """The output cotangent of ``f`` (its public name) at its output ``y``, read and projected onto ``y``'s
    tangent space.

    Zeros and not-implemented tangents are returned unchanged (the pullback passes them
    on). ``project_y`` defaults to ``ProjectTo(y)``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import Thunk, ZeroTangent
    >>> from chainrules.structured import Diagonal
    >>> from chainrules.rulesets.structured_matrices._tangents import read_output
    >>> y = Diagonal(np.ones(2))
    >>> read_output(Thunk(lambda: np.eye(2)), y, "f")
    Diagonal(array([1., 1.]))
    >>> read_output(ZeroTangent(), y, "f")
    ZeroTangent()
    >>> read_output(None, y, "mymodule.f")
    Traceback (most recent call last):
    ...
    chainrules_core.projection.ProjectionError: mymodule.f pullback: output cotangent is a NoneType, ...
    """
    project_y = ProjectTo(y) if project_y is None else project_y
    dy = unthunk(dy)
    structured_y = isinstance(y, StructuredMatrix) or sp.issparse(y)
    if structured_y and (isinstance(dy, (StructuredMatrix, Tangent)) or sp.issparse(dy)):
        try:
            return unthunk(project_y(dy))
        except ProjectionError as err:
            raise ProjectionError(f"{f} pullback: output cotangent: {err}") from None
    dy = read_cotangent(dy, y, f)
    if passes_through(dy):
        return dy
    return unthunk(project_y(dy))


def lazy(project: Callable[[Any], Any], compute: Callable[[], Any]) -> Thunk:
    """A thunk of ``project(compute())``."""
    return Thunk(lambda: project(compute()))


def tangent_of(dx: Any) -> Any:
    """An frule's input tangent: ``None`` for a zero, else the unthunked value."""
    dx = unthunk(dx)
    return None if isinstance(dx, AbstractZero) else dx


def add_tangents(*terms: Any) -> Any:
    """The sum of the terms that are not ``None`` (``None`` if all are)."""
    total = None
    for term in terms:
        if term is None:
            continue
        if isinstance(term, NotImplementedTangent):
            return term
        total = term if total is None else total + term
    return total


def pushforward(y: Any, *terms: Any) -> tuple[Any, Any]:
    """``(y, dy)`` for an frule: ``dy`` the sum of the terms that are not ``None``, projected onto ``y``
    (``ZeroTangent()`` when every term is ``None``)."""
    dy = add_tangents(*terms)
    return y, ZeroTangent() if dy is None else ProjectTo(y)(dy)


def dense(x: Any) -> np.ndarray:
    """A structured matrix, sparse array or array-like as a dense ndarray."""
    if isinstance(x, StructuredMatrix):
        return x.to_dense()
    if hasattr(x, "toarray"):
        return np.asarray(x.toarray())
    return np.asarray(x)
