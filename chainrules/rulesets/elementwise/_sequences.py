"""Functions of sequences of numbers: the cotangents and tangents of their elements (private).

``sum``, ``min``, ``max``, ``math.fsum``, ``math.prod`` and ``math.dist`` take a list, a
tuple or an ndarray. The cotangent of a list or tuple is a ``Tangent`` of its type with
one entry per element (``NoTangent()`` for integer elements), that of an ndarray an
ndarray (:func:`sequence_cotangent`); :func:`sequence_tangents` reads the tangents of the
elements an frule receives.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from chainrules_core import Tangent, backing, differentiable, unthunk
from chainrules_core.scalar_rules import NO, is_zero_tangent, project_argument

__all__ = ["SEQUENCE", "sequence_cotangent", "sequence_tangents"]

SEQUENCE = (list, tuple, np.ndarray)
"""Types of the iterable argument of ``sum``, ``min``, ``max``, ``math.fsum``, ``math.prod``..."""


def sequence_cotangent(xs: Any, values: Any) -> Any:
    """The cotangent of a list, tuple or array ``xs`` from one cotangent value per element.

    A list or tuple gets a ``Tangent`` of its type with each element projected (integer
    elements get ``NoTangent()``; ``NoTangent()`` if no element is differentiable); an
    array gets an array.

    Examples
    --------
    >>> from chainrules.rulesets.elementwise._sequences import sequence_cotangent
    >>> sequence_cotangent([1.0, 2], [0.5, 0.5])
    Tangent(list, 0.5, NoTangent())
    """
    if isinstance(xs, np.ndarray):
        return project_argument(xs, values) if differentiable(xs) else NO
    elements = [project_argument(x, v) if differentiable(x) else NO for x, v in zip(xs, values)]
    if all(e is NO for e in elements):
        return NO
    return Tangent(type(xs), *elements)


def sequence_tangents(dxs: Any, xs: Any) -> list[Any]:
    """The tangents of the elements of ``xs`` (``None`` for zero or absent ones)."""
    dxs = unthunk(dxs)
    n = len(xs)
    if is_zero_tangent(dxs):
        return [None] * n
    if isinstance(xs, np.ndarray) and not isinstance(dxs, Tangent):
        parts = list(np.broadcast_to(dxs, xs.shape))
    else:
        parts = list(backing(dxs)) if isinstance(dxs, Tangent) else list(dxs)
    out = []
    for x, dx in zip(xs, parts):
        dx = unthunk(dx)
        out.append(None if is_zero_tangent(dx) or not differentiable(x) else dx)
    return out
