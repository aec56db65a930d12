"""Looking a rule up for a bridge: with the framework's config when the function needs one.

Rules for higher-order functions require a config trait (``HasReverseMode``) and must be
looked up with the framework's config; every other rule is found faster without one. The
bridges ask :func:`find_rrule` / :func:`find_frule`, which know, from the registries'
new-rule hooks, which functions have a rule requiring a trait.

A bound method (``scipy.stats.norm.logpdf``, a frozen distribution's ``logpdf``, ``a.dot``)
is a function of its arguments only: its object is fixed when the method is read, so no
framework can trace it. The core finds a bound method's rules on its class's function,
with the object as first argument (``rrule(a.dot, v)`` is ``rrule(np.ndarray.dot, a, v)``),
and its pullback gives the object's cotangent right after the function's own. The lookup
here hides that: the pullback handed to a bridge drops the object's cotangent, and the
frule is given a zero tangent for the object (``NoTangent()`` for one that is not
differentiable, ``chainrules_core.differentiable``), so every bridge sees the call it
made: one cotangent or tangent per argument it passed.

Examples
--------
>>> import numpy as np
>>> from chainrules import RulesOnlyConfig, unthunk
>>> from chainrules.interop._lookup import find_rrule
>>> y, pullback = find_rrule(RulesOnlyConfig(), np.sin, (0.0,), {})
>>> float(pullback(1.0)[1])
1.0
>>> a = np.array([[1.0, 2.0], [3.0, 4.0]])
>>> y, pullback = find_rrule(RulesOnlyConfig(), a.dot, (np.ones(2),), {})    # the object's cotangent dropped
>>> df, dv = pullback(np.ones(2))
>>> unthunk(dv)
array([4., 6.])
"""

from __future__ import annotations

import contextlib
import threading
import types
from collections.abc import Sequence
from typing import Any

import numpy as np

from chainrules.interop._arguments import function_name
from chainrules.interop.errors import NoRuleError
from chainrules_core import NoTangent, RuleConfig, ZeroTangent, differentiable, frule, rrule
from chainrules_core.rules import _unbind

__all__ = ["bound_method", "find_frule", "find_rrule", "needs_config", "no_rule_error"]

_CONFIG_RULES: set[Any] = set()
_hooks: list[Any] = []
_lock = threading.Lock()
_watching = False
_PLAIN_CALLABLES = (types.FunctionType, types.BuiltinFunctionType, np.ufunc)
_METHOD_TYPES = (types.MethodType, types.BuiltinMethodType, type((1).__add__))


def _record(f: Any, signature: Any) -> None:
    if signature.config is not None:
        with contextlib.suppress(TypeError):
            _CONFIG_RULES.add(f)


def _watch() -> None:
    global _watching
    with _lock:
        if not _watching:
            _hooks.append(rrule.on_new_rule(_record))
            _hooks.append(frule.on_new_rule(_record))
            _watching = True


def needs_config(f: Any) -> bool:
    """Whether ``f``'s rules must be looked up with the config (a rule requires a trait, or ``f``
    is a class, a functor or a bound method, whose rules live under another key)."""
    if not _watching:
        _watch()
    try:
        return type(f) not in _PLAIN_CALLABLES or f in _CONFIG_RULES
    except TypeError:  # unhashable
        return True


def _scalars(args: Sequence[Any]) -> list[Any] | None:
    """``args`` with every 0-d array made a NumPy scalar (``np.float64`` is a ``float``); ``None`` if none is."""
    if not any(type(a) is np.ndarray and a.ndim == 0 for a in args):
        return None
    return [a[()] if type(a) is np.ndarray and a.ndim == 0 else a for a in args]


def bound_method(f: Any) -> tuple[Any, Any] | None:
    """``(function, object)`` when ``f`` is a method bound to an object (not to a module or a class); else ``None``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.interop._lookup import bound_method
    >>> a = np.ones(2)
    >>> bound_method(a.sum) == (np.ndarray.sum, a), bound_method(np.sum), bound_method(np.add)
    (True, None, None)
    """
    if not isinstance(f, _METHOD_TYPES):
        return None
    return _unbind(f)


def _object_tangent(obj: Any) -> Any:
    return ZeroTangent() if differentiable(obj) else NoTangent()


def _without_object(pullback: Any) -> Any:
    """The pullback of a bound method's rule with its object's cotangent (the second entry) left out."""

    def bound_method_pullback(dy: Any) -> tuple[Any, ...]:
        cotangents = pullback(dy)
        return (cotangents[0], *cotangents[2:])

    return bound_method_pullback


def find_rrule(config: RuleConfig, f: Any, args: Sequence[Any], kwargs: dict[str, Any], alt: Any = None) -> Any:
    """``rrule(f, *args, **kwargs)`` (with ``config`` where needed), then under ``alt``; ``None`` if no rule.

    A framework's scalars arrive as 0-d arrays (``jax.grad(f)(2.0)``); when no rule takes
    those, the rule is looked up again with NumPy scalars in their place, so that a rule
    registered for ``float`` is found.

    For a bound method, the rule of its class's function is called with the object first,
    and its pullback gives no cotangent for the object (see the module's docstring).
    """
    method = bound_method(f)
    if method is not None:
        function, obj = method
        result = find_rrule(config, function, (obj, *args), kwargs)
        if result is not None:
            return result[0], _without_object(result[1])
        return None if alt is None else rrule(config, alt, *args, **kwargs)
    if needs_config(f):
        result = rrule(config, f, *args, **kwargs)
    else:
        result = rrule(f, *args, **kwargs) if kwargs else rrule(f, *args)
    if result is None and alt is not None:
        result = rrule(config, alt, *args, **kwargs)
    if result is None:
        scalars = _scalars(args)
        if scalars is not None:
            return find_rrule(config, f, scalars, kwargs, alt)
    return result


def find_frule(config: RuleConfig, tangents: tuple[Any, ...], f: Any, args: Sequence[Any], kwargs: dict[str, Any],
               alt: Any = None) -> Any:
    """``frule(tangents, f, *args, **kwargs)`` (with ``config`` where needed), then under ``alt`` (and with
    NumPy scalars for 0-d arrays, as :func:`find_rrule`); a bound method's frule gets a zero tangent for
    its object."""
    method = bound_method(f)
    if method is not None:
        function, obj = method
        result = find_frule(config, (tangents[0], _object_tangent(obj), *tangents[1:]), function, (obj, *args), kwargs)
        if result is not None:
            return result
        return None if alt is None else frule(config, tangents, alt, *args, **kwargs)
    if needs_config(f):
        result = frule(config, tangents, f, *args, **kwargs)
    else:
        result = frule(tangents, f, *args, **kwargs)
    if result is None and alt is not None:
        result = frule(config, tangents, alt, *args, **kwargs)
    if result is None:
        scalars = _scalars(args)
        if scalars is not None:
            return find_frule(config, tangents, f, scalars, kwargs, alt)
    return result


def no_rule_error(f: Any, kind: str, args: Sequence[Any], positions: Sequence[int], bridge: str) -> NoRuleError:
    """The error for a call no rule covers, naming the function, the argument types and the mode."""
    mode = "reverse mode" if kind == "rrule" else "forward mode"
    name = function_name(f)
    types_ = ", ".join(type(a).__name__ for a in args)
    return NoRuleError(f"no chainrules {kind} for {name}({types_}) ({bridge}, {mode}, differentiated arguments "
                       f"{tuple(positions)}); register one with @{kind}.register({name.rsplit('.', 1)[-1]}, ...)")
