"""How the ``scipy.ndimage`` rules build their pullbacks and read their tangents (private).

A pullback of this family returns one cotangent per positional parameter of the function:
``NoTangent()`` for axes, modes, origins, sizes, dtypes; a lazily computed, projected
cotangent (:func:`~chainrules.rulesets.contractions._multilinear.lazy_cotangent`) for each
differentiated argument. :func:`make_pullback` builds that pullback from one function per
differentiated argument, each called with the output cotangent (an ndarray) and a ``memo``
dict shared by the cotangents of one call (the input and ``cval`` come from one adjoint
computation).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from chainrules.rulesets.arrays._linear_maps import output_tangent, tangent_array
from chainrules.rulesets.contractions._multilinear import lazy_cotangent
from chainrules.rulesets.reductions._registration import name_pullback
from chainrules.rulesets.reductions._tangent_values import passed_on, tangent_value
from chainrules_core import NoTangent, ZeroTangent, cotangent_projector, passes_through, read_cotangent

__all__ = [
    "Cotangent",
    "make_pullback",
    "memoized",
    "output_tangent",
    "tangent_array",
    "tangent_value",
    "transposed_cotangents",
]

Cotangent = Callable[[np.ndarray, dict[str, Any]], Any]
"""``compute(dy, memo)``: the (unprojected) cotangent of one argument."""


def memoized(memo: dict[str, Any], key: str, compute: Callable[[], Any]) -> Any:
    """``memo[key]``, computed by ``compute()`` the first time it is asked for.

    Examples
    --------
    >>> memo = {}
    >>> memoized(memo, "a", lambda: 1), memoized(memo, "a", lambda: 2)
    (1, 1)
    """
    if key not in memo:
        memo[key] = compute()
    return memo[key]


def transposed_cotangents(transpose: Callable[[np.ndarray], tuple[Any, ...]]) -> tuple[Cotangent, Cotangent, Cotangent]:
    """``(adjoint, input_cotangent, cval_cotangent)`` of a linear filter whose transpose is ``transpose(dy)``.

    ``transpose(dy)`` returns the input's cotangent, then ``cval``'s (``None`` where the
    boundary never reads ``cval``: a zero), then anything else the caller reads from
    ``adjoint(dy, memo)`` (a parameter's partials). It runs once per pullback call: the three
    share the call's memo under ``"adjoint"``.

    Examples
    --------
    >>> adjoint, dinput, dcval = transposed_cotangents(lambda dy: (2 * dy, None))
    >>> memo = {}
    >>> dinput(np.ones(2), memo), dcval(np.ones(2), memo)
    (array([2., 2.]), ZeroTangent())
    """

    def adjoint(dy: np.ndarray, memo: dict[str, Any]) -> Any:
        return memoized(memo, "adjoint", lambda: transpose(dy))

    def input_cotangent(dy: np.ndarray, memo: dict[str, Any]) -> Any:
        return adjoint(dy, memo)[0]

    def cval_cotangent(dy: np.ndarray, memo: dict[str, Any]) -> Any:
        pad = adjoint(dy, memo)[1]
        return ZeroTangent() if pad is None else pad

    return adjoint, input_cotangent, cval_cotangent


def make_pullback(f: Any, label: str, y: Any, values: Sequence[Any],
                  cotangents: Mapping[int, Cotangent]) -> Callable[[Any], tuple[Any, ...]]:
    """The pullback of ``f`` at the call whose positional parameters are ``values``.

    Parameters
    ----------
    f : callable
        The function (named in the errors of a bad output cotangent).
    label : str
        Names the pullback ``<label>_pullback``.
    y : ndarray
        The primal output.
    values : sequence
        Every positional parameter of the call, defaults filled in.
    cotangents : dict
        Position -> ``compute(dy, memo)`` for each differentiated parameter; the others
        get ``NoTangent()``, and so does any whose value is not differentiable (an integer
        ``cval``).

    Examples
    --------
    >>> from chainrules_core import unthunk
    >>> def double(x):
    ...     return 2 * x
    >>> x = np.ones(2)
    >>> pullback = make_pullback(double, "double", double(x), [x], {0: lambda dy, memo: 2 * dy})
    >>> [np.asarray(c) if i else c for i, c in enumerate(map(unthunk, pullback(np.ones(2))))]
    [NoTangent(), array([2., 2.])]
    """
    projectors = [cotangent_projector(v) if i in cotangents else None for i, v in enumerate(values)]

    def pullback(dy: Any) -> tuple[Any, ...]:
        dy = read_cotangent(dy, y, f)
        if passes_through(dy):
            zero = passed_on(dy)
            return (NoTangent(), *(NoTangent() if p is None else p(zero) for p in projectors))
        dy = np.asarray(dy)
        memo: dict[str, Any] = {}
        out: list[Any] = [NoTangent()]
        for i, project in enumerate(projectors):
            if project is None:
                out.append(NoTangent())
            else:
                out.append(lazy_cotangent(project, _bind(cotangents[i], dy, memo)))
        return tuple(out)

    return name_pullback(pullback, label)


def _bind(compute: Cotangent, dy: np.ndarray, memo: dict[str, Any]) -> Callable[[], Any]:
    def bound() -> Any:
        return compute(dy, memo)

    return bound
