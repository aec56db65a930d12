"""The ``numpy`` and ``scipy`` namespaces of a bridge, generated from the rule index.

``from chainrules.interop.jax import scipy as jsp; jsp.special.jv(v, x)``: every public
NumPy/SciPy function that has a chainrules rule, wrapped by the bridge's ``primitive``
when its attribute is first read (never before: building a namespace imports no ruleset
and wraps nothing). The names come from :data:`chainrules.rulesets._index.RULE_INDEX`
(``'scipy.special:jv'``), which ``python -m chainrules index --write`` regenerates, so a
rule added to the library appears in every bridge's namespaces with nothing else to do.

A wrapped function keeps the function's own ``__doc__``, ``__name__`` and signature
(``functools.wraps``); functions of private modules (``scipy.sparse._base``) are left out.
A name the NumPy/SciPy module has but no rule covers raises ``AttributeError`` saying so,
rather than handing out a function the framework cannot differentiate.

Methods with rules (``scipy.stats._distn_infrastructure:rv_continuous.logpdf``) reach a
namespace through the module's public *objects*: ``scipy.stats.norm`` is an instance of a
class whose methods have rules, so ``sp.stats.norm`` is a :class:`RuleObject`, whose
methods with a rule for that object (``sp.stats.norm.logpdf``) are the bound methods
wrapped by the bridge's ``primitive`` (the object is a constant), whose other attributes
are the object's own, and whose call (freezing a distribution, ``sp.stats.norm(0.5, 2.0)``)
gives the frozen distribution as a :class:`RuleObject` too.

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

import functools
import importlib
import sys
import types
from collections.abc import Callable
from typing import Any

__all__ = ["RuleNamespace", "RuleObject", "methods_with_rules", "public_rule_names", "rule_namespace"]


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


@functools.lru_cache(maxsize=1)
def _indexed_methods() -> dict[str, frozenset[str]]:
    """``{"module:Class": {method names}}`` of every method in the rule index."""
    from chainrules.rulesets._index import RULE_INDEX

    out: dict[str, set[str]] = {}
    for references in RULE_INDEX.values():
        for reference in references:
            module, _, qualname = reference.partition(":")
            owner, dot, method = qualname.rpartition(".")
            if dot:
                out.setdefault(f"{module}:{owner}", set()).add(method)
    return {k: frozenset(v) for k, v in out.items()}


def _has_rule_for(method: Any, obj: Any) -> bool:
    """Whether a reverse rule of the class's function ``method`` takes ``obj`` as its object (loads its ruleset)."""
    from chainrules_core import rrule

    for record in rrule.signatures(method):
        first = record.types[0] if record.types else record.varargs
        try:
            if first is None or isinstance(obj, first):
                return True
        except TypeError:  # not a class (a parametric type): let the call decide
            return True
    return False


def methods_with_rules(obj: Any) -> frozenset[str]:
    """The names of ``obj``'s methods that have a rule for ``obj`` (``frozenset()`` for a class, module or function).

    Examples
    --------
    >>> import scipy.stats
    >>> from chainrules.interop._namespaces import methods_with_rules
    >>> sorted({"logpdf", "cdf", "mean"} & methods_with_rules(scipy.stats.norm))
    ['cdf', 'logpdf', 'mean']
    >>> methods_with_rules(scipy.stats.norm.logpdf), methods_with_rules(scipy.stats)
    (frozenset(), frozenset())
    """
    if isinstance(obj, (type, types.ModuleType, types.FunctionType, types.MethodType, types.BuiltinFunctionType)):
        return frozenset()
    indexed = _indexed_methods()
    names: set[str] = set()
    for cls in type(obj).__mro__:
        names.update(indexed.get(f"{cls.__module__}:{cls.__qualname__}", ()))
    return frozenset(name for name in names
                     if _has_rule_for(getattr(type(obj), name, None), obj))


class RuleObject:
    """An object whose methods have rules (``scipy.stats.norm``), as a bridge's namespace gives it.

    Its methods with a rule for the object are wrapped by the bridge's ``primitive`` on first
    use (bound to the object, which is a constant); other attributes are the object's own,
    except methods without a rule, which raise ``AttributeError`` saying so (as a namespace's
    functions without one do). Calling it calls the object; a result that has methods with
    rules (a frozen distribution) is given as a ``RuleObject`` too, and so is ``freeze``'s.
    Freezing is a plain call and takes plain parameters (a frozen distribution is not a value
    the frameworks trace): to differentiate with respect to a distribution's parameters, pass
    them to the unfrozen methods (``sp.stats.norm.logpdf(x, loc, scale)``).

    Examples
    --------
    >>> import scipy.stats
    >>> from chainrules.interop._namespaces import RuleObject
    >>> norm = RuleObject(scipy.stats.norm, lambda f: f, "scipy.stats.norm", "a bridge")
    >>> norm.logpdf == scipy.stats.norm.logpdf, norm.name
    (True, 'norm')
    >>> isinstance(norm(0.5, 2.0), RuleObject), round(float(norm(0.5, 2.0).cdf(0.5)), 6)
    (True, 0.5)
    """

    def __init__(self, obj: Any, wrap: Callable[[Any], Any], label: str, bridge: str) -> None:
        self.__dict__.update(_obj=obj, _wrap=wrap, _label=label, _bridge=bridge, _methods=methods_with_rules(obj))
        self.__doc__ = type(obj).__doc__

    def __getattr__(self, name: str) -> Any:
        obj = self.__dict__["_obj"]
        value = getattr(obj, name)
        if name == "freeze":  # freezing is a plain call, as calling the object is
            return functools.wraps(value)(functools.partial(_freeze, self, value))
        if name in self._methods:
            bridged = self._wrap(value)
            self.__dict__[name] = bridged  # later reads are plain attribute reads
            return bridged
        if callable(value) and not name.startswith("_") and not isinstance(value, type):
            raise AttributeError(
                f"{self._label}.{name} has no chainrules rule (for {type(obj).__name__}), so {self._bridge} cannot "
                f"differentiate it through chainrules; call it on the object itself for plain values")
        return value

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return _freeze(self, self._obj, *args, **kwargs)

    def __dir__(self) -> list[str]:
        return sorted(self._methods)

    def __repr__(self) -> str:
        return (f"<chainrules {self._bridge} object {self._label}: {self._obj!r}, "
                f"{len(self._methods)} methods with rules>")


def _freeze(owner: RuleObject, call: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    out = call(*args, **kwargs)
    return RuleObject(out, owner._wrap, f"{owner._label}(...)", owner._bridge) if methods_with_rules(out) else out


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
            value = getattr(module, name, None)
            if not name.startswith("_") and methods_with_rules(value):
                bridged_object = RuleObject(value, self._wrap, f"{self.target}.{name}", self._bridge)
                setattr(self, name, bridged_object)
                return bridged_object
            if isinstance(value, types.ModuleType):
                raise AttributeError(
                    f"{self.__name__} has no {name!r}: no function of {self.target}.{name} has a chainrules rule yet, "
                    f"so {self._bridge} cannot differentiate it through chainrules")
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
        names = set(super().__dir__()) | self._names | set(self._children)
        if any(key.partition(":")[0].partition("._")[0] == self.target for key in _indexed_methods()):
            module = importlib.import_module(self.target)  # its objects with methods with rules (scipy.stats.norm)
            names.update(n for n in dir(module)
                         if not n.startswith("_") and methods_with_rules(getattr(module, n, None)))
        return sorted(names)

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
