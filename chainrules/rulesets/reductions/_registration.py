"""How the reduction rules take NumPy's signatures and are registered (private).

* NumPy's "no value" default (``np._NoValue``) marks keywords the caller did not pass;
  :func:`given` drops them before the primal call;
* ``out=`` cannot be differentiated (:func:`reject_out`);
* :func:`register_rules` names and registers a generated rule pair, and
  :func:`register_method` gives an ``ndarray`` method (``x.sum()``) the rules of its function.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from chainrules_core import NUMERIC, UnsupportedKeywordError, frule, rrule
from chainrules_core.rules import _callable_name

__all__ = ["NOVALUE", "given", "name_pullback", "register_method", "register_rules", "reject_out"]

NOVALUE: Any = np._NoValue
"""NumPy's default for keywords that were not passed (``keepdims=<no value>``)."""


def given(**kwargs: Any) -> dict[str, Any]:
    """The keyword arguments whose value is not NumPy's "no value" default.

    Examples
    --------
    >>> from chainrules.rulesets.reductions._registration import NOVALUE, given
    >>> given(keepdims=True, initial=NOVALUE)
    {'keepdims': True}
    """
    return {k: v for k, v in kwargs.items() if v is not NOVALUE}


def reject_out(f: Any, out: Any) -> None:
    """Raise :class:`UnsupportedKeywordError` when ``out=`` is given (a rule cannot write into it).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.reductions._registration import reject_out
    >>> reject_out(np.sum, None)
    >>> reject_out(np.sum, np.zeros(()))
    Traceback (most recent call last):
    ...
    chainrules_core.scalar_rules.UnsupportedKeywordError: numpy.sum: the keyword out= is not ...
    """
    if out is not None:
        raise UnsupportedKeywordError(f"{_callable_name(f)}: the keyword out= is not differentiable; "
                                      "call without it")


def name_pullback(pullback: Callable[..., Any], label: str) -> Callable[..., Any]:
    """Name a generated pullback ``<label>_pullback`` (tracebacks and error messages read it)."""
    pullback.__name__ = f"{label}_pullback"
    pullback.__qualname__ = f"{label}_rrule.<locals>.{label}_pullback"
    return pullback


def register_rules(f: Any, label: str, rrule_impl: Callable[..., Any], frule_impl: Callable[..., Any],
                   types: tuple[Any, ...] = (NUMERIC,),
                   what: str = "") -> tuple[Callable[..., Any], Callable[..., Any]]:
    """Name a generated rule pair ``<label>_rrule``/``<label>_frule``, document and register it for ``f``.

    Parameters
    ----------
    f : callable
        The function (or ``ndarray`` method) the rules differentiate.
    label : str
        Its short name (``"nansum"``, ``"ndarray_max"``).
    rrule_impl, frule_impl : callable
        The rules.
    types : tuple
        The types of the leading positional arguments (default: a number or an ndarray).
    what : str
        How ``f`` is spelled in the docstrings (default ``np.<label>``).

    Returns
    -------
    tuple
        ``(rrule_impl, frule_impl)``.
    """
    spelled = what or f"np.{label}"
    for rule, kind, direction in ((rrule_impl, "rrule", "Reverse"), (frule_impl, "frule", "Forward")):
        rule.__name__ = rule.__qualname__ = f"{label}_{kind}"
        rule.__doc__ = f"{direction} rule of ``{spelled}`` (see the module docstring)."
    rrule.register(f, *types)(rrule_impl)
    frule.register(f, *types)(frule_impl)
    return rrule_impl, frule_impl


def register_method(method: Any, f: Any, positional: tuple[str, ...], keywords: tuple[str, ...]) -> None:
    """Give the ``ndarray`` method ``method`` the rules of the function ``f``.

    ``x.sum(...)`` is ``np.sum(x, ...)`` for an ndarray, so the method's rules call the
    function's rules with ``x`` first. The method takes fewer arguments than the function:
    ``positional`` are the names it takes by position after ``self``, ``keywords`` the ones
    it takes only by keyword; anything else raises ``TypeError`` as the method does.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> x = np.array([[1.0, 2.0], [3.0, 4.0]])
    >>> y, pullback = rrule(x.sum, 1)        # rrule(np.ndarray.sum, x, 1)
    >>> pullback(np.array([1.0, 2.0]))[1]
    array([[1., 1.],
           [2., 2.]])
    """
    label = f"ndarray_{method.__name__}"
    allowed = frozenset(positional) | frozenset(keywords)

    def check(args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        if len(args) > len(positional):
            raise TypeError(f"ndarray.{method.__name__}() takes at most {len(positional)} positional arguments "
                            f"({len(args)} given)")
        for name in kwargs:
            if name not in allowed or name in positional[:len(args)]:
                raise TypeError(f"ndarray.{method.__name__}() got an unexpected or repeated keyword argument "
                                f"{name!r}")

    def method_rrule(a: Any, *args: Any, **kwargs: Any) -> Any:
        check(args, kwargs)
        return rrule(f, a, *args, **kwargs)

    def method_frule(tangents: tuple[Any, ...], a: Any, *args: Any, **kwargs: Any) -> Any:
        check(args, kwargs)
        return frule(tuple(tangents), f, a, *args, **kwargs)

    register_rules(method, label, method_rrule, method_frule, (np.ndarray,), f"x.{method.__name__}(...)")
