"""Elementwise rules of functions with keyword options (``comb(N, k, exact=...)``, ``lambertw(z, k, tol)``, ...).

``scalar_rule`` builds the rules of an elementwise function whose partials depend on its
positional arguments only. These two helpers serve the few ``scipy.special`` functions
whose partials also depend on keywords or optional positional options: the rule computes
the output, builds one zero-argument callable per argument for its partial (``None``
where nothing is differentiated), and hands them here. Cotangents are read with
``read_cotangent``, projected with ``project_argument`` (unbroadcast, float32 kept), thunked
when there are several; a partial may return ``not_implemented(...)``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from chainrules_core import NoTangent, Thunk, ZeroTangent, differentiable, read_cotangent, unthunk
from chainrules_core.scalar_rules import conj_if_complex, fit_tangent, project_argument
from chainrules_core.tangents.not_implemented import NotImplementedTangent
from chainrules_core.tangents.zeros import AbstractZero

__all__ = ["Partials", "elementwise_frule", "elementwise_rrule"]

_NO = NoTangent()
Partials = Sequence[Callable[[], Any] | None]
"""One zero-argument callable per argument computing its partial derivative (None: not differentiated)."""


def _cotangent(partial: Callable[[], Any], x: Any, dy: Any) -> Any:
    p = partial()
    if isinstance(p, NotImplementedTangent):
        return p
    with np.errstate(invalid="ignore", over="ignore"):
        return project_argument(x, conj_if_complex(p) * dy)


def elementwise_rrule(f: Any, name: str, args: tuple[Any, ...], y: Any, partials: Partials | None,
                       options: int = 0) -> Any:
    """``(y, pullback)`` of an elementwise function from lazy partials (``None``: nothing differentiable).

    The pullback returns ``NoTangent()`` for the ``options`` optional positional parameters
    after ``args`` (``exact``, ``extend``); the registry keeps those the caller passed.
    """
    extra = (_NO,) * options
    live = partials is not None and differentiable(y)
    diff = [live and partials is not None and partials[i] is not None and differentiable(a)
            for i, a in enumerate(args)]
    several = sum(diff) > 1

    def pullback(dy: Any) -> tuple[Any, ...]:
        if not any(diff):
            return (_NO, *(_NO for _ in args), *extra)
        dy = read_cotangent(dy, y, f)
        if isinstance(dy, AbstractZero):
            return (_NO, *(ZeroTangent() if d else _NO for d in diff), *extra)
        if isinstance(dy, NotImplementedTangent):
            return (_NO, *(dy if d else _NO for d in diff), *extra)
        assert partials is not None
        out: list[Any] = [_NO]
        for i, a in enumerate(args):
            if not diff[i]:
                out.append(_NO)
                continue
            partial = partials[i]
            assert partial is not None
            body = functools.partial(_cotangent, partial, a, dy)
            out.append(Thunk(body) if several else body())
        return (*out, *extra)

    pullback.__name__ = pullback.__qualname__ = f"{name}_pullback"
    return y, pullback


def elementwise_frule(args: tuple[Any, ...], y: Any, partials: Partials | None, tangents: Sequence[Any]) -> Any:
    """``(y, dy)``: the sum of partial times tangent over the differentiated arguments."""
    if partials is None or not differentiable(y):
        return y, _NO
    total: Any = None
    for i, a in enumerate(args):
        partial = partials[i]
        dx = unthunk(tangents[i]) if i < len(tangents) else None
        if partial is None or dx is None or isinstance(dx, AbstractZero) or not differentiable(a):
            continue
        if isinstance(dx, NotImplementedTangent):
            return y, dx
        p = partial()
        if isinstance(p, NotImplementedTangent):
            return y, p
        with np.errstate(invalid="ignore", over="ignore"):
            term = p * dx
        total = term if total is None else total + term
    return y, (ZeroTangent() if total is None else fit_tangent(total, y))
