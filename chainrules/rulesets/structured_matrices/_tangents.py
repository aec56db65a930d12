"""Helpers shared by the rules for structured matrices and sparse arrays (private).

Conventions of this package, implemented once:

* the output cotangent is read by :func:`read_output`: thunks are unthunked, zeros and
  not-implemented tangents come back unchanged (the pullback passes them on); anything
  else is projected onto the output's tangent space with ``project_y``, which raises a
  :class:`~chainrules_core.ProjectionError` naming the pullback for a wrong shape. A
  structured output so accepts its own type, a dense matrix or a structural ``Tangent``;
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

from chainrules.structured.base import StructuredMatrix
from chainrules_core import AbstractZero, NoTangent, NotImplementedTangent, ProjectTo, Thunk, ZeroTangent, unthunk

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


def passes_through(dy: Any) -> bool:
    """Whether a cotangent is a zero or a not-implemented tangent (the pullback passes it on)."""
    return isinstance(dy, (AbstractZero, NotImplementedTangent))


def read_output(dy: Any, project_y: Callable[[Any], Any]) -> Any:
    """The output cotangent, unthunked and projected onto the output's space (zeros pass).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import ProjectTo, Thunk, ZeroTangent
    >>> from chainrules.structured import Diagonal
    >>> from chainrules.rulesets.structured_matrices._tangents import read_output
    >>> project_y = ProjectTo(Diagonal(np.ones(2)))
    >>> read_output(Thunk(lambda: np.eye(2)), project_y)
    Diagonal(array([1., 1.]))
    >>> read_output(ZeroTangent(), project_y)
    ZeroTangent()
    """
    dy = unthunk(dy)
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
