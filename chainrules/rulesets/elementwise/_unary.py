"""``unary_rule``: hand-written rules of elementwise functions of one argument (private).

Elementwise functions with holomorphic partials are defined with the core's
:func:`chainrules_core.scalar_rule`, as a user would. :func:`unary_rule` is for the
functions of one argument whose derivative is not a holomorphic partial (``abs``,
``angle``, ``real``, ``sign`` of complex input) or that take extra non-differentiated
parameters (``round`` with ``decimals``, ``unwrap``); :func:`zero_backward` and
:func:`zero_forward` are the derivative of a piecewise-constant function.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from chainrules_core import (
    AbstractZero,
    NotImplementedTangent,
    differentiable,
    frule,
    read_cotangent,
    rrule,
    unthunk,
)
from chainrules_core.rules import _callable_name
from chainrules_core.scalar_rules import (
    NO,
    NUMERIC,
    ZERO_TANGENT,
    _register_positional_out,
    check_ufunc_keywords,
    fit_tangent,
    is_zero_tangent,
    project_argument,
    zero_cotangent,
    zero_tangent_of,
)

__all__ = ["no_keywords", "unary_rule", "zero_backward", "zero_forward"]


def no_keywords(f: Any, kwargs: dict[str, Any]) -> None:
    """The keyword check of functions with no keyword a rule must refuse (``math``, ``operator``).

    Such functions raise ``TypeError`` themselves for keywords they do not take.
    """


def unary_rule(f: Any, backward: Callable[..., Any], forward: Callable[..., Any], *, name: str | None = None,
               keywords: Callable[[Any, dict[str, Any]], None] = check_ufunc_keywords,
               extra: Sequence[tuple[str, Any]] = (), types: tuple[Any, ...] = (NUMERIC,),
               positional_out: bool | None = None) -> None:
    """Register hand-written rules of a function of one differentiable argument.

    For functions whose derivative is not a holomorphic partial (``abs``, ``angle``,
    ``conj``, ``real``, ``sign``...) or that take extra non-differentiable parameters
    (``np.round(a, decimals)``). The shared work is done here: keyword checks, integer
    inputs and outputs (``NoTangent()``), zero and not-implemented cotangents, the shape
    check, projection onto the input and fitting the tangent to the output.

    Parameters
    ----------
    f : callable
    backward : callable
        ``backward(x, y, dy, **params)``: the cotangent of ``x`` for a nonzero output
        cotangent ``dy`` (before projection; a real input keeps the real part).
    forward : callable
        ``forward(x, y, dx, **params)``: the tangent of the output for a nonzero ``dx``.
    extra : sequence of (name, type)
        Optional positional parameters after ``x`` (NumPy's names), never differentiated;
        ``params`` holds every one of them that was given, by position or keyword (other
        keywords, such as a ufunc's ``dtype=``, are checked by ``keywords`` and passed to
        ``f`` only).
    keywords, types, positional_out, name
        As for :func:`chainrules_core.scalar_rule`.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> from chainrules.rulesets.elementwise._unary import unary_rule
    >>> def mirror(x):
    ...     return -x
    >>> unary_rule(mirror, lambda x, y, dy: -dy, lambda x, y, dx: -dx)
    >>> rrule(mirror, np.float32(2.0))[1](1.0)
    (NoTangent(), np.float32(-1.0))
    """
    name = str(name or getattr(f, "__name__", "f"))
    names = tuple(n for n, _ in extra)
    n_rest = len(names)

    def given(rest: tuple[Any, ...], kwargs: dict[str, Any]) -> dict[str, Any]:
        """Check the keywords; return the extra parameters given, by position or keyword."""
        keywords(f, {**kwargs, **dict(zip(names, rest))} if rest else kwargs)
        params = {k: kwargs[k] for k in names if k in kwargs}
        params.update(zip(names, rest))
        return params

    def unary_rrule(x: Any, *rest: Any, **kwargs: Any) -> Any:
        params = given(rest, kwargs)
        y = f(x, *rest, **kwargs)
        live = differentiable(y) and differentiable(x)
        tail = (NO,) * len(rest)

        def unary_pullback(dy: Any) -> tuple[Any, ...]:
            dy = read_cotangent(dy, y, f)
            if not live:
                return (NO, NO, *tail)
            if isinstance(dy, AbstractZero):
                return (NO, ZERO_TANGENT, *tail)
            if isinstance(dy, NotImplementedTangent):
                return (NO, dy, *tail)
            with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
                dx = backward(x, y, dy, **params)
            return (NO, project_argument(x, dx), *tail)

        unary_pullback.__name__ = unary_pullback.__qualname__ = f"{name}_pullback"
        return y, unary_pullback

    def unary_frule(tangents: Any, x: Any, *rest: Any, **kwargs: Any) -> Any:
        params = given(rest, kwargs)
        y = f(x, *rest, **kwargs)
        if not differentiable(y):
            return y, NO
        dx = unthunk(tangents[1])
        if is_zero_tangent(dx) or not differentiable(x):
            return y, ZERO_TANGENT
        if isinstance(dx, NotImplementedTangent):
            return y, dx
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            dy = forward(x, y, dx, **params)
        return y, fit_tangent(dy, y)

    unary_rrule.__name__ = unary_rrule.__qualname__ = f"{name}_rrule"
    unary_frule.__name__ = unary_frule.__qualname__ = f"{name}_frule"
    unary_rrule.__doc__ = unary_frule.__doc__ = f"Rule of ``{_callable_name(f)}``."
    all_types = tuple(types) + tuple(t for _, t in extra)
    for k in range(len(types), len(all_types) + 1):
        rrule.register(f, *all_types[:k])(unary_rrule)
        frule.register(f, *all_types[:k])(unary_frule)
    if n_rest == 0 and (positional_out if positional_out is not None else isinstance(f, np.ufunc)):
        _register_positional_out(f, 1, getattr(f, "nout", 1))


def zero_backward(x: Any, y: Any, dy: Any, **params: Any) -> Any:
    """``backward`` of a function whose derivative is zero everywhere: a dense zero."""
    return zero_cotangent(x)


def zero_forward(x: Any, y: Any, dx: Any, **params: Any) -> Any:
    """``forward`` of a function whose derivative is zero everywhere: a dense zero."""
    return zero_tangent_of(y)
