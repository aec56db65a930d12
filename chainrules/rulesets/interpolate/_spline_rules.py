"""How the rules of functions returning a spline object build their pullbacks and read tangents (private).

A *fit* (``make_interp_spline``, ``splrep``, ...) knows, at one call, how to push tangents of
its differentiated arguments to the fields of its output (``forward``) and how to pull the
fields' cotangents back to those arguments (``backward``); :func:`fit_rrule` and
:func:`fit_frule` wrap that in the rule contract: one cotangent per positional parameter,
projected and lazy, zeros and not-implemented tangents passed through, bad cotangents
reported naming the function.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from chainrules.rulesets.arrays._linear_maps import tangent_array
from chainrules.rulesets.contractions._multilinear import lazy_cotangent
from chainrules.rulesets.interpolate._objects import object_tangent, read_object
from chainrules.rulesets.reductions._registration import name_pullback
from chainrules.rulesets.reductions._tangent_values import passed_on
from chainrules_core import (
    AbstractZero,
    NoTangent,
    NotImplementedTangent,
    ProjectionError,
    Tangent,
    ZeroTangent,
    backing,
    cotangent_projector,
    passes_through,
    read_cotangent,
    unthunk,
)

__all__ = ["Fit", "fit_frule", "fit_rrule", "part", "read_structure", "read_tangents"]


class Fit:
    """One call of a function returning an object with differentiated fields.

    Subclasses set ``self.y`` and implement :meth:`forward` (``{position: tangent}`` to
    ``{field: tangent}``) and :meth:`backward` (``{field: cotangent}`` to
    ``{position: cotangent}``); ``None`` is a zero everywhere.
    """

    y: Any
    differentiated: tuple[int, ...] = ()
    structural: tuple[int, ...] = ()
    """Differentiated positions whose tangents are structures (``bc_type``, a list of arrays): read as given."""

    def forward(self, tangents: dict[int, Any]) -> dict[str, Any]:
        raise NotImplementedError

    def backward(self, cotangents: dict[str, Any]) -> dict[int, Any]:
        raise NotImplementedError


def read_tangents(tangents: Any, values: Sequence[Any], positions: Sequence[int],
                  structural: Sequence[int] = ()) -> Any:
    """The dense tangents of the arguments at ``positions`` (``None`` for zeros, and for arguments
    not given by position), or the first ``NotImplementedTangent``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules_core import NoTangent, ZeroTangent
    >>> read_tangents((NoTangent(), np.ones(2), ZeroTangent()), [np.zeros(2), np.zeros(2)], [0, 1])
    {0: array([1., 1.]), 1: None}
    """
    out: dict[int, Any] = {}
    for position in positions:
        if len(tangents) <= position + 1:
            out[position] = None
            continue
        if position in structural:
            out[position] = unthunk(tangents[position + 1])
        else:
            out[position] = tangent_array(tangents[position + 1], values[position])
        if isinstance(out[position], NotImplementedTangent):
            return out[position]
        if isinstance(out[position], AbstractZero):
            out[position] = None
    return out


def part(tangent: Any, index: int) -> Any:
    """Entry ``index`` of a structural tangent (a ``Tangent`` of a sequence, or a sequence); ``None`` for zeros.

    Examples
    --------
    >>> from chainrules_core import NoTangent
    >>> part(Tangent(tuple, NoTangent(), 2.0), 1), part(NoTangent(), 0)
    (2.0, None)
    """
    tangent = unthunk(tangent)
    if tangent is None or isinstance(tangent, AbstractZero):
        return None
    stored = backing(tangent) if isinstance(tangent, Tangent) else tangent
    if isinstance(stored, np.ndarray) and stored.ndim:
        return stored[index]
    if not isinstance(stored, (tuple, list)) or index >= len(stored):
        return None
    value = unthunk(stored[index])
    if value is None or isinstance(value, AbstractZero):
        return None
    if isinstance(value, NotImplementedTangent):
        raise MissingTangentError(value)
    return value


class MissingTangentError(Exception):
    """A not-implemented tangent met inside a structural tangent."""

    def __init__(self, tangent: NotImplementedTangent) -> None:
        super().__init__(tangent.info)
        self.tangent = tangent


def fit_rrule(f: Any, label: str, fit: Fit, values: Sequence[Any]) -> Any:
    """``(y, pullback)`` for a fit: one cotangent per positional parameter (``values``, defaults filled in)."""
    projectors = [cotangent_projector(v) if i in fit.differentiated else None for i, v in enumerate(values)]
    y = fit.y

    def pullback(dy: Any) -> tuple[Any, ...]:
        read = read_object(dy, y, f)
        if passes_through(read):
            zero = passed_on(read)
            return (NoTangent(), *(NoTangent() if p is None else p(zero) for p in projectors))
        memo: dict[int, Any] = {}

        def compute(position: int) -> Callable[[], Any]:
            def value() -> Any:
                if not memo:
                    memo.update(fit.backward(read))
                    memo[-1] = True
                found = memo.get(position)
                return ZeroTangent() if found is None else found

            return value

        out: list[Any] = [NoTangent()]
        for i, project in enumerate(projectors):
            out.append(NoTangent() if project is None else lazy_cotangent(project, compute(i)))
        return tuple(out)

    return y, name_pullback(pullback, label)


def fit_frule(fit: Fit, tangents: Any, values: Sequence[Any]) -> Any:
    """``(y, dy)`` for a fit: the object's ``Tangent`` from the tangents of the differentiated arguments."""
    read = read_tangents(tangents, values, fit.differentiated, fit.structural)
    if isinstance(read, NotImplementedTangent):
        return fit.y, read
    if all(v is None for v in read.values()):
        return fit.y, object_tangent(fit.y, {})
    try:
        fields = fit.forward(read)
    except MissingTangentError as missing:
        return fit.y, missing.tangent
    return fit.y, object_tangent(fit.y, fields)


def read_structure(dy: Any, y: Any, f: Any) -> Any:
    """Read the cotangent of a nested tuple/list output (``splprep``'s ``([t, [c, ...], k], u)``).

    Returns the same nesting as lists, ``None`` for a zero part (and for integers), the
    array or number of each leaf; a zero or not-implemented cotangent of the whole is
    returned as it is. Anything else raises a ``ProjectionError`` naming ``f``.

    Examples
    --------
    >>> from chainrules_core import NoTangent
    >>> read_structure(Tangent(tuple, Tangent(list, NoTangent(), 2.0), 1.0), ([1, 3.0], 0.5), "f")
    [[None, 2.0], 1.0]
    """
    dy = unthunk(dy)
    if isinstance(y, (tuple, list)):
        if isinstance(dy, (AbstractZero, NotImplementedTangent)):
            return dy
        if isinstance(dy, Tangent) and isinstance(backing(dy), (tuple, list)):
            parts = list(backing(dy))
        elif isinstance(dy, (tuple, list)):
            parts = list(dy)
        else:
            raise ProjectionError(f"{_name(f)} pullback: output cotangent is a {type(dy).__name__}, expected a "
                                  f"Tangent of a {type(y).__name__} of {len(y)} parts")
        if len(parts) != len(y):
            raise ProjectionError(f"{_name(f)} pullback: output cotangent has {len(parts)} parts, expected "
                                  f"{len(y)} (one per output part)")
        out = []
        for part_dy, part_y in zip(parts, y):
            value = read_structure(part_dy, part_y, f)
            out.append(None if isinstance(value, AbstractZero) else value)
        return out
    if isinstance(y, (int, np.integer)) and not isinstance(y, bool):
        return None
    value = read_cotangent(dy, y, f)
    return None if isinstance(value, AbstractZero) else value


def _name(f: Any) -> str:
    from chainrules_core.rules import _callable_name

    return f if isinstance(f, str) else _callable_name(f)
