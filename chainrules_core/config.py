"""Rule configurations: what the calling AD can do, and how rules call back into it.

An AD framework describes itself with a subclass of :class:`RuleConfig` that also inherits
the capability traits it has::

    class MyADConfig(RuleConfig, HasReverseMode, NoForwardsMode):
        def rrule_via_ad(self, f, *args, **kwargs):
            ...  # differentiate f with my AD, return (y, pullback)

A rule registered with ``config=HasReverseMode`` is found only for such configs and
receives the config as its first argument; it can then call :func:`rrule_via_ad` to
differentiate a function it was given (an integrand, an objective, a mapped function).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class RuleConfig:
    """Base class of rule configurations; AD frameworks subclass it with their traits.

    Examples
    --------
    >>> from chainrules_core import RuleConfig, HasReverseMode
    >>> class MyConfig(RuleConfig, HasReverseMode):
    ...     def rrule_via_ad(self, f, *args, **kwargs):
    ...         raise NotImplementedError
    >>> isinstance(MyConfig(), HasReverseMode)
    True
    """

    __slots__ = ()

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class HasReverseMode:
    """Trait: the config implements ``rrule_via_ad(f, *args, **kwargs) -> (y, pullback)``.

    Examples
    --------
    >>> from chainrules_core import RuleConfig, HasReverseMode
    >>> class C(RuleConfig, HasReverseMode):
    ...     pass
    >>> issubclass(C, HasReverseMode)
    True
    """

    __slots__ = ()

    def rrule_via_ad(self, f: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """Differentiate ``f`` at ``args`` in reverse mode; return ``(y, pullback)``."""
        raise NotImplementedError(f"{type(self).__name__} declares HasReverseMode but does not "
                                  "implement rrule_via_ad")


class NoReverseMode:
    """Trait: the config cannot differentiate in reverse mode.

    Examples
    --------
    >>> from chainrules_core import RuleConfig, NoReverseMode
    >>> class C(RuleConfig, NoReverseMode):
    ...     pass
    >>> isinstance(C(), NoReverseMode)
    True
    """

    __slots__ = ()


class HasForwardsMode:
    """Trait: the config implements ``frule_via_ad(tangents, f, *args, **kwargs) -> (y, dy)``.

    Examples
    --------
    >>> from chainrules_core import RuleConfig, HasForwardsMode
    >>> class C(RuleConfig, HasForwardsMode):
    ...     pass
    >>> issubclass(C, HasForwardsMode)
    True
    """

    __slots__ = ()

    def frule_via_ad(self, tangents: tuple[Any, ...], f: Callable[..., Any], *args: Any,
                     **kwargs: Any) -> Any:
        """Differentiate ``f`` at ``args`` in forward mode; return ``(y, dy)``."""
        raise NotImplementedError(f"{type(self).__name__} declares HasForwardsMode but does not "
                                  "implement frule_via_ad")


class NoForwardsMode:
    """Trait: the config cannot differentiate in forward mode.

    Examples
    --------
    >>> from chainrules_core import RuleConfig, NoForwardsMode
    >>> class C(RuleConfig, NoForwardsMode):
    ...     pass
    >>> isinstance(C(), NoForwardsMode)
    True
    """

    __slots__ = ()


def rrule_via_ad(config: RuleConfig, f: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Ask the AD behind ``config`` for ``(y, pullback)`` of ``f(*args, **kwargs)``.

    Raises
    ------
    TypeError
        When ``config`` is not a :class:`RuleConfig` with the :class:`HasReverseMode` trait.

    Examples
    --------
    >>> from chainrules_core import RuleConfig, HasReverseMode, rrule_via_ad
    >>> class Doubler(RuleConfig, HasReverseMode):
    ...     def rrule_via_ad(self, f, x):
    ...         return f(x), lambda dy: (None, 2 * dy)
    >>> y, pb = rrule_via_ad(Doubler(), lambda x: 2 * x, 3.0)
    >>> y, pb(1.0)
    (6.0, (None, 2.0))
    """
    if not isinstance(config, HasReverseMode):
        raise TypeError(f"rrule_via_ad: {type(config).__name__} has no HasReverseMode trait, so "
                        f"it cannot differentiate {getattr(f, '__name__', f)!s} in reverse mode")
    return config.rrule_via_ad(f, *args, **kwargs)


def frule_via_ad(config: RuleConfig, tangents: tuple[Any, ...], f: Callable[..., Any], *args: Any,
                 **kwargs: Any) -> Any:
    """Ask the AD behind ``config`` for ``(y, dy)`` of ``f(*args, **kwargs)`` along ``tangents``.

    Raises
    ------
    TypeError
        When ``config`` is not a :class:`RuleConfig` with the :class:`HasForwardsMode` trait.

    Examples
    --------
    >>> from chainrules_core import RuleConfig, HasForwardsMode, frule_via_ad
    >>> class Linear(RuleConfig, HasForwardsMode):
    ...     def frule_via_ad(self, tangents, f, x):
    ...         return f(x), 3 * tangents[1]
    >>> frule_via_ad(Linear(), (None, 1.0), lambda x: 3 * x, 2.0)
    (6.0, 3.0)
    """
    if not isinstance(config, HasForwardsMode):
        raise TypeError(f"frule_via_ad: {type(config).__name__} has no HasForwardsMode trait, so "
                        f"it cannot differentiate {getattr(f, '__name__', f)!s} in forward mode")
    return config.frule_via_ad(tangents, f, *args, **kwargs)


class NoRuleError(TypeError):
    """A :class:`RulesOnlyConfig` was asked to differentiate a callable that has no rule."""


class RulesOnlyConfig(RuleConfig, HasReverseMode, HasForwardsMode):
    """A config that needs no AD framework: it differentiates a callable through that callable's own rules.

    Higher-order rules (``quad``, ``solve_ivp``, ``root``, ``apply_along_axis``...) call
    :func:`rrule_via_ad` / :func:`frule_via_ad` on the function they were given. With this
    config those calls look up ``rrule(config, f, *args)`` / ``frule(config, tangents, f,
    *args)``: an integrand such as ``scipy.special.jv``, or a user function with a
    registered rule, is differentiated without any AD framework. A callable with no rule
    raises :class:`NoRuleError` naming it (an AD framework's config would trace it instead).

    Examples
    --------
    >>> import numpy as np
    >>> import chainrules
    >>> from chainrules_core import RulesOnlyConfig, rrule_via_ad
    >>> y, pullback = rrule_via_ad(RulesOnlyConfig(), np.sin, 0.5)
    >>> bool(np.isclose(pullback(1.0)[1], np.cos(0.5)))
    True
    >>> rrule_via_ad(RulesOnlyConfig(), lambda x: x ** 2, 0.5)
    Traceback (most recent call last):
    ...
    chainrules_core.config.NoRuleError: RulesOnlyConfig.rrule_via_ad: <lambda> has no rrule for arguments (float); ...
    """

    __slots__ = ()

    def rrule_via_ad(self, f: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """``rrule(self, f, *args, **kwargs)``; :class:`NoRuleError` if ``f`` has no rule for these arguments."""
        from chainrules_core.rules import rrule

        result = rrule(self, f, *args, **kwargs)
        if result is None:
            raise NoRuleError(_no_rule_message("rrule", f, args))
        return result

    def frule_via_ad(self, tangents: tuple[Any, ...], f: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """``frule(self, tangents, f, *args, **kwargs)``; :class:`NoRuleError` if ``f`` has no rule."""
        from chainrules_core.rules import frule

        result = frule(self, tangents, f, *args, **kwargs)
        if result is None:
            raise NoRuleError(_no_rule_message("frule", f, args))
        return result


def _no_rule_message(kind: str, f: Any, args: tuple[Any, ...]) -> str:
    name = getattr(f, "__qualname__", None) or getattr(f, "__name__", None) or repr(f)
    types = ", ".join(type(a).__name__ for a in args)
    return (f"RulesOnlyConfig.{kind}_via_ad: {name} has no {kind} for arguments ({types}); register one, or "
            "differentiate through an AD framework's config (chainrules.interop)")
