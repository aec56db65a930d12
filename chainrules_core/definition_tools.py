"""Tools that define rules: ``scalar_rule``, ``non_differentiable``, ``opt_out``, ``not_implemented``.

``scalar_rule`` (elementwise functions from their partial derivatives) lives in
:mod:`chainrules_core.scalar_rules` and is re-exported here with the keyword tools it uses.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from chainrules_core.rules import RuleSignature, Varargs, _RuleRegistry, frule, rrule
from chainrules_core.scalar_rules import NUMERIC, UnsupportedKeywordError, reject_keywords, scalar_rule
from chainrules_core.tangents.not_implemented import not_implemented
from chainrules_core.tangents.zeros import NoTangent

__all__ = ["NUMERIC", "UnsupportedKeywordError", "non_differentiable", "not_implemented", "opt_out",
           "reject_keywords", "scalar_rule"]


def non_differentiable(f: Callable[..., Any], *types: Any) -> None:
    """Declare ``f`` non-differentiable: its frule gives ``NoTangent()``, its pullback too.

    Parameters
    ----------
    f : callable
    *types : type, tuple of types or Varargs
        Argument types the declaration covers (default: any arguments).

    Examples
    --------
    >>> from chainrules_core import rrule, frule, non_differentiable
    >>> def concat(a, b):
    ...     return a + b
    >>> non_differentiable(concat, str, str)
    >>> y, pb = rrule(concat, "ab", "cd")
    >>> y, pb(None)
    ('abcd', (NoTangent(), NoTangent(), NoTangent()))
    >>> frule((None, None, None), concat, "ab", "cd")
    ('abcd', NoTangent())
    """
    name = getattr(f, "__name__", "f")

    def non_differentiable_frule(tangents: Any, *args: Any, **kwargs: Any) -> Any:
        return f(*args, **kwargs), NoTangent()

    def non_differentiable_rrule(*args: Any, **kwargs: Any) -> Any:
        y = f(*args, **kwargs)
        result = (NoTangent(),) * (len(args) + 1)

        def non_differentiable_pullback(dy: Any) -> tuple[Any, ...]:
            return result

        non_differentiable_pullback.__name__ = f"{name}_pullback"
        return y, non_differentiable_pullback

    if not types:
        types = (Varargs(object),)
    frule.register(f, *types)(non_differentiable_frule)
    rrule.register(f, *types)(non_differentiable_rrule)


def opt_out(registry: _RuleRegistry, f: Callable[..., Any], *types: Any,
            config: type | None = None) -> RuleSignature:
    """Make ``registry(f, ...)`` answer ``None`` for these argument types.

    Use it where a more general rule would match but the AD should differentiate through
    ``f`` instead (for example because ``f`` is cheap to differentiate for that type, or
    the general rule would lose structure). ``registry.find`` reports ``OPTED_OUT``.

    Parameters
    ----------
    registry : rrule or frule
    f : callable
    *types : type, tuple of types or Varargs
        Exactly the positional argument types to opt out (a trailing ``Varargs`` covers
        more arguments).
    config : type, optional
        Opt out only for configs with this trait.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules_core import rrule, opt_out, OPTED_OUT
    >>> def total(x):
    ...     return np.sum(x)
    >>> @rrule.register(total, object)
    ... def total_rrule(x):
    ...     def total_pullback(dy):
    ...         return None, dy
    ...     return total(x), total_pullback
    >>> _ = opt_out(rrule, total, list)
    >>> rrule(total, [1.0, 2.0]) is None, rrule.find(total, list) is OPTED_OUT
    (True, True)
    """
    return registry.opt_out(f, *types, config=config)
