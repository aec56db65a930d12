"""The ``numpy`` and ``scipy`` namespaces of a bridge, generated from the rule index.

``from chainrules.interop.jax import scipy as jsp; jsp.special.jv(v, x)``: every public
NumPy/SciPy function that has a chainrules rule, wrapped by the bridge's ``primitive``
when its attribute is first read (never before: building a namespace imports no ruleset
and wraps nothing). The names come from :data:`chainrules.rulesets._index.RULE_INDEX`
(``'scipy.special:jv'``), which ``python -m chainrules index --write`` regenerates, so a
rule added to the library appears in every bridge's namespaces with nothing else to do.

A wrapped function keeps the function's own ``__doc__``, ``__name__`` and signature
(``functools.wraps``); methods (``numpy:ndarray.sum``) and functions of private modules
(``scipy.sparse._base``) have no place in a module namespace and are left out. A name the
NumPy/SciPy module has but no rule covers raises ``AttributeError`` saying so, rather than
handing out a function the framework cannot differentiate.

Each namespace is a module object registered in ``sys.modules`` under the bridge's name
(``chainrules.interop.jax.scipy.special``), so both ``import ... as`` and attribute access
work.

Examples
--------
>>> import numpy as np
>>> from chainrules.interop._namespaces import rule_namespace
>>> wrapped = []
>>> def wrap(f):
...     wrapped.append(f)
...     return f
>>> sp = rule_namespace("scipy", wrap, "example_bridge")
>>> "jv" in dir(sp.special), wrapped
(True, [])
>>> sp.special.jv is __import__("scipy.special").special.jv, len(wrapped)
(True, 1)
"""

from __future__ import annotations

import importlib
import sys
import types
from collections.abc import Callable
from typing import Any

__all__ = ["RuleNamespace", "public_rule_names", "rule_namespace"]


def public_rule_names(root: str) -> dict[str, set[str]]:
    """``{module: {names}}`` of the public functions under ``root`` (``"numpy"``, ``"scipy"``) with rules.

    Examples
    --------
    >>> from chainrules.interop._namespaces import public_rule_names
    >>> names = public_rule_names("scipy")
    >>> "expm" in names["scipy.linalg"], "jv" in names["scipy.special"]
    (True, True)
    """
    from chainrules.rulesets._index import RULE_INDEX

    out: dict[str, set[str]] = {}
    for references in RULE_INDEX.values():
        for reference in references:
            module, _, qualname = reference.partition(":")
            if module != root and not module.startswith(root + "."):
                continue
            if "." in qualname or any(part.startswith("_") for part in module.split(".")):
                continue  # a method, or a private module
            out.setdefault(module, set()).add(qualname)
    return out


class RuleNamespace(types.ModuleType):
    """A module of bridged functions, each wrapped on first access (``__getattr__``), then cached.

    Attributes
    ----------
    target : str
        The NumPy/SciPy module it mirrors (``"scipy.special"``).
    """

    def __init__(self, name: str, target: str, names: set[str], wrap: Callable[[Any], Any], bridge: str) -> None:
        super().__init__(name, f"The functions of {target} that have chainrules rules, differentiable in {bridge} "
                               f"(each wrapped by {bridge}'s primitive on first use).")
        self.target = target
        self.__all__ = sorted(names)  # ``from ... import *`` wraps every function
        self._names = frozenset(names)
        self._wrap = wrap
        self._bridge = bridge
        self._children: dict[str, RuleNamespace] = {}

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or name not in self._names:
            if name.startswith("__"):
                raise AttributeError(name)
            module = importlib.import_module(self.target)
            if hasattr(module, name):
                raise AttributeError(
                    f"{self.__name__} has no {name!r}: {self.target}.{name} has no chainrules rule, so {self._bridge} "
                    f"cannot differentiate it through chainrules (call {self.target}.{name} on plain arrays, or "
                    "register a rule and wrap it with primitive())")
            raise AttributeError(f"module {self.__name__!r} has no attribute {name!r} ({self.target} has none)")
        f = getattr(importlib.import_module(self.target), name)
        bridged = self._wrap(f)
        setattr(self, name, bridged)  # later reads are plain attribute reads
        return bridged

    def __dir__(self) -> list[str]:
        return sorted(set(super().__dir__()) | self._names | set(self._children))

    def __repr__(self) -> str:
        return f"<chainrules namespace {self.__name__!r}: {len(self._names)} functions of {self.target}>"


def rule_namespace(root: str, wrap: Callable[[Any], Any], package: str, bridge: str | None = None) -> RuleNamespace:
    """The namespace ``package.root`` (and its submodules) of every public ``root`` function with a rule.

    Parameters
    ----------
    root : {"numpy", "scipy"}
        The library mirrored.
    wrap : callable
        The bridge's ``primitive``; called on a function when its attribute is first read.
    package : str
        The bridge's package (``"chainrules.interop.jax"``): the namespaces are registered
        in ``sys.modules`` as ``package.root``, ``package.root.special``...
    bridge : str, optional
        The framework's name, for messages (default: the last part of ``package``).
    """
    bridge = bridge or package.rsplit(".", 1)[-1]
    names = public_rule_names(root)
    modules = set(names)
    for module in list(modules):  # the parents of every module with rules (scipy.sparse for scipy.sparse.linalg)
        parts = module.split(".")
        modules.update(".".join(parts[:k]) for k in range(1, len(parts)))
    modules.add(root)
    made: dict[str, RuleNamespace] = {}
    for module in sorted(modules, key=lambda m: m.count(".")):
        name = f"{package}.{module}"
        namespace = RuleNamespace(name, module, names.get(module, set()), wrap, bridge)
        made[module] = namespace
        sys.modules[name] = namespace
        if "." in module:
            parent, _, last = module.rpartition(".")
            made[parent]._children[last] = namespace
            setattr(made[parent], last, namespace)
    return made[root]
