"""``ignore_derivatives``: mark a value, or the result of a computation, as constant for AD."""

from __future__ import annotations

import functools
import types
from typing import Any, TypeVar

from chainrules_core.definition_tools import non_differentiable

T = TypeVar("T")

_THUNK_TYPES = (types.FunctionType, types.MethodType, functools.partial)


def _takes_no_arguments(fn: Any) -> bool:
    code = getattr(getattr(fn, "__func__", fn), "__code__", None)
    if isinstance(fn, functools.partial) or code is None:
        return False
    bound = 1 if isinstance(fn, types.MethodType) else 0
    defaults = len(getattr(getattr(fn, "__func__", fn), "__defaults__", None) or ())
    return bool(code.co_argcount - bound - defaults == 0)


def ignore_derivatives(x: T) -> T:
    """Return ``x`` (or, for a function of no arguments, its result) as a constant for AD.

    ``ignore_derivatives`` is declared non-differentiable, so an AD that meets this call
    treats what it returns as a constant: no tangent flows through it. Pass a value, or a
    function of no arguments (a lambda, or use it as a decorator) to have it called.

    Parameters
    ----------
    x : Any
        A value, or a Python function taking no arguments.

    Returns
    -------
    Any
        ``x``, or ``x()`` when ``x`` is a function of no arguments.

    Examples
    --------
    >>> from chainrules_core import ignore_derivatives, rrule
    >>> ignore_derivatives(3.0)
    3.0
    >>> ignore_derivatives(lambda: 2.0 + 2.0)
    4.0
    >>> y, pb = rrule(ignore_derivatives, 3.0)
    >>> pb(1.0)
    (NoTangent(), NoTangent())
    """
    if isinstance(x, _THUNK_TYPES) and _takes_no_arguments(x):
        return x()  # type: ignore[no-any-return,operator]
    return x


non_differentiable(ignore_derivatives)
