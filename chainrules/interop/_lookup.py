"""Looking a rule up for a bridge: with the framework's config when the function needs one.

Rules for higher-order functions require a config trait (``HasReverseMode``) and must be
looked up with the framework's config; every other rule is found faster without one. The
bridges ask :func:`find_rrule` / :func:`find_frule`, which know, from the registries'
new-rule hooks, which functions have a rule requiring a trait.

Examples
--------
>>> import numpy as np
>>> from chainrules import RulesOnlyConfig
>>> from chainrules.interop._lookup import find_rrule
>>> y, pullback = find_rrule(RulesOnlyConfig(), np.sin, (0.0,), {})
>>> float(pullback(1.0)[1])
1.0
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
from chainrules_core import RuleConfig, frule, rrule

__all__ = ["find_frule", "find_rrule", "needs_config", "no_rule_error"]

_CONFIG_RULES: set[Any] = set()
_hooks: list[Any] = []
_lock = threading.Lock()
_watching = False
_PLAIN_CALLABLES = (types.FunctionType, types.BuiltinFunctionType, np.ufunc)


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


def find_rrule(config: RuleConfig, f: Any, args: Sequence[Any], kwargs: dict[str, Any], alt: Any = None) -> Any:
    """``rrule(f, *args, **kwargs)`` (with ``config`` where needed), then under ``alt``; ``None`` if no rule.

    A framework's scalars arrive as 0-d arrays (``jax.grad(f)(2.0)``); when no rule takes
    those, the rule is looked up again with NumPy scalars in their place, so that a rule
    registered for ``float`` is found.
    """
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
    NumPy scalars for 0-d arrays, as :func:`find_rrule`)."""
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
