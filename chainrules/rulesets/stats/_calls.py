"""Binding the arguments of a ``scipy.stats`` call the way the rules differentiate them (private).

The library's convention: arguments given **by position** may be differentiated, keywords
never are. The rules of the statistics functions therefore take their optional arguments
as positional-only parameters with the default :data:`ABSENT`, and every keyword in
``**kwargs``; :func:`bind` gives each parameter its effective value (by position, else by
keyword, else SciPy's default) and says which were given by position, and
:func:`primal_args` rebuilds the positional part of the call exactly as the caller wrote
it, so the primal is SciPy's own result.
"""

from __future__ import annotations

from typing import Any

__all__ = ["ABSENT", "Bound", "bind", "primal_args"]


class _Absent:
    """The default of an optional positional parameter the caller did not pass."""

    _instance: _Absent | None = None

    def __new__(cls) -> _Absent:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "ABSENT"


ABSENT: Any = _Absent()


def primal_args(*args: Any) -> tuple[Any, ...]:
    """The positional arguments the caller gave (the trailing :data:`ABSENT` ones dropped).

    Examples
    --------
    >>> from chainrules.rulesets.stats._calls import ABSENT, primal_args
    >>> primal_args(1.0, 0, ABSENT, ABSENT)
    (1.0, 0)
    """
    end = len(args)
    while end and args[end - 1] is ABSENT:
        end -= 1
    if any(a is ABSENT for a in args[:end]):
        raise TypeError("a positional argument is missing before a given one")
    return args[:end]


class Bound(dict):  # type: ignore[type-arg]
    """Effective argument values by name; ``positional`` names those given by position."""

    positional: frozenset[str]

    def by_position(self, name: str) -> bool:
        """Whether ``name`` was given by position (so it may be differentiated)."""
        return name in self.positional


def bind(names: tuple[str, ...], defaults: dict[str, Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Bound:
    """The effective value of each parameter of a call ``f(*args, **kwargs)``.

    Parameters
    ----------
    names : tuple of str
        The positional parameters, in order.
    defaults : dict
        SciPy's defaults (for parameters by position or by keyword).
    args : tuple
        The positional arguments, possibly with trailing :data:`ABSENT` entries.
    kwargs : dict
        The keywords of the call.

    Examples
    --------
    >>> from chainrules.rulesets.stats._calls import ABSENT, bind
    >>> b = bind(("a", "axis", "weights"), {"axis": 0, "weights": None}, (1.0, ABSENT, ABSENT), {"weights": 2.0})
    >>> b["axis"], b["weights"], b.by_position("weights")
    (0, 2.0, False)
    """
    out = Bound(defaults)
    out.update({k: v for k, v in kwargs.items()})
    given = []
    for name, value in zip(names, args):
        if value is not ABSENT:
            out[name] = value
            given.append(name)
    out.positional = frozenset(given)
    return out
