"""Building blocks of the rules of multilinear functions (private).

A contraction is linear in each operand, so its pullback returns one cotangent per operand,
each computed only if asked for (:func:`lazy_cotangent`), and its pushforward is a sum of
one term per operand whose tangent is not zero (:func:`sum_tangents`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from chainrules_core import NoTangent, NotImplementedTangent, Thunk, ZeroTangent
from chainrules_core.projection import NoTangentProjector

__all__ = ["lazy_cotangent", "sum_tangents"]


def lazy_cotangent(project: Callable[[Any], Any], compute: Callable[[], Any]) -> Any:
    """``Thunk(lambda: project(compute()))``, or ``NoTangent()`` at once for an input without a tangent space.

    ``project`` is the input's :func:`~chainrules_core.cotangent_projector`.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules_core import cotangent_projector
    >>> from chainrules.rulesets.contractions._multilinear import lazy_cotangent
    >>> lazy_cotangent(cotangent_projector(np.ones(2)), lambda: np.zeros(2))
    Thunk(...)
    >>> lazy_cotangent(cotangent_projector(np.arange(2)), lambda: np.zeros(2))
    NoTangent()
    """
    if isinstance(project, NoTangentProjector):
        return NoTangent()
    return Thunk(lambda: project(compute()))


def sum_tangents(terms: Iterable[Any], project_y: Callable[[Any], Any]) -> Any:
    """Add the terms that are not ``None`` and project the sum (``ZeroTangent()`` if none).

    A ``NotImplementedTangent`` term makes the whole sum not implemented.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules_core import ProjectTo
    >>> from chainrules.rulesets.contractions._multilinear import sum_tangents
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
