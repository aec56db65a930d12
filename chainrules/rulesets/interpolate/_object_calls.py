"""Calling an interpolator object: the rules every ``obj(x)`` of this package shares.

An interpolator's call is described by a *call object* built from the object and the points
(``PPolyCall``, ``BSplineCall``, ``Interp1dCall``, ``RBFCall``, ``GridCall``) with the value
``y``, the tangent ``tangent(fields, dx)`` (forward mode) and the cotangents of the object's
fields and of the points (reverse mode): either ``cotangents(dy)``, both from one pass, or
``object_cotangent(dy)`` and ``point_cotangent(dy)`` separately. What is around them is the same
for every interpolator and lives here: reading the output cotangent, passing zeros through,
projecting each cotangent (the object's to a structural ``Tangent`` of its fields), computing
each lazily (an unused one is never computed; a joint pass is run once), and the frule's
handling of zero and not-implemented tangents.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from chainrules.rulesets.arrays._linear_maps import output_tangent, tangent_array
from chainrules.rulesets.contractions._multilinear import lazy_cotangent
from chainrules.rulesets.interpolate._objects import object_fields
from chainrules.rulesets.reductions._registration import name_pullback
from chainrules.rulesets.reductions._tangent_values import passed_on
from chainrules_core import (
    NoTangent,
    NotImplementedTangent,
    ProjectTo,
    cotangent_projector,
    passes_through,
    read_cotangent,
)

__all__ = ["PointsAlongAxis", "object_call_frule", "object_call_rrule"]


class PointsAlongAxis:
    """The output layout of a call ``obj(q)`` of an object that interpolates along ``axis``.

    SciPy puts the points' shape ``q.shape`` where ``axis`` stood among the trailing axes of the
    coefficients: the output has the shape ``trailing[:axis] + q.shape + trailing[axis:]``. The maths
    works on ``(points, trailing)`` arrays; ``_out`` and ``_in`` move between the two layouts.
    Subclasses set ``q_shape``, ``q_ndim``, ``trailing``, ``axis`` and ``npoints``.
    """

    q_shape: tuple[int, ...]
    q_ndim: int
    trailing: tuple[int, ...]
    axis: int
    npoints: int

    def _permutation(self, ndim: int) -> list[int]:
        order = list(range(ndim))
        return order[self.q_ndim:self.q_ndim + self.axis] + order[:self.q_ndim] + order[self.q_ndim + self.axis:]

    def _out(self, values: np.ndarray) -> np.ndarray:
        """A ``(points, trailing)`` array in the output's layout."""
        out = values.reshape(self.q_shape + self.trailing)
        return out.transpose(self._permutation(out.ndim)) if self.axis != 0 else out

    def _in(self, dy: Any) -> np.ndarray:
        """An output-shaped array back to ``(points, trailing)``."""
        dy = np.asarray(dy)
        if self.axis != 0:
            dy = dy.transpose(np.argsort(self._permutation(dy.ndim)))
        return dy.reshape(self.npoints, -1)


def _lazy_parts(call: Any, dy: Any) -> tuple[Any, Any]:
    """The two cotangent computations of ``call`` at ``dy``: one joint pass run at most once, or two separate ones."""
    if not hasattr(call, "cotangents"):
        return (lambda: call.object_cotangent(dy)), (lambda: call.point_cotangent(dy))
    memo: list[Any] = []

    def pick(i: int) -> Any:
        def value() -> Any:
            if not memo:
                memo.extend(call.cotangents(dy))
            return memo[i]

        return value

    return pick(0), pick(1)


def object_call_rrule(call: Any, obj: Any, x: Any, name: str, label: str, with_self: bool,
                      constants: int = 0) -> tuple[Any, Any]:
    """``(y, pullback)`` of calling ``obj`` at ``x``, described by ``call``.

    ``name`` is the public name the errors use, ``label`` the pullback's name stem
    (``"ppoly"`` gives ``ppoly_call``, or ``ppoly___call__`` for the method form),
    ``with_self`` whether the call was ``Class.__call__(obj, x)`` (a leading ``NoTangent()``
    for the function), ``constants`` how many trailing arguments get ``NoTangent()``.
    """
    project_obj, project_x = ProjectTo(obj), cotangent_projector(x)
    tail = (NoTangent(),) * constants

    def pullback(dy: Any) -> tuple[Any, ...]:
        dy = read_cotangent(dy, call.y, name)
        if passes_through(dy):
            zero = passed_on(dy)
            parts: tuple[Any, ...] = (project_obj(zero), project_x(zero), *tail)
        else:
            first, second = _lazy_parts(call, dy)
            parts = (lazy_cotangent(project_obj, first), lazy_cotangent(project_x, second), *tail)
        return (NoTangent(), *parts) if with_self else parts

    return call.y, name_pullback(pullback, f"{label}___call__" if with_self else f"{label}_call")


def object_call_frule(call: Any, tangents: Any, obj: Any, x: Any, position: int) -> tuple[Any, Any]:
    """``(y, dy)`` of calling ``obj`` at ``x``; the object's tangent is ``tangents[position]``, the points' next."""
    fields = object_fields(tangents[position], obj)
    dx = tangent_array(tangents[position + 1], x)
    for t in (fields, dx):
        if isinstance(t, NotImplementedTangent):
            return call.y, t
    if fields is None and dx is None:
        return call.y, output_tangent(None, call.y)
    value = call.tangent(fields, dx)
    return call.y, value if isinstance(value, NotImplementedTangent) else output_tangent(value, call.y)
