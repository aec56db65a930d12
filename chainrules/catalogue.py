"""What the rules of each function do: the data behind the rule catalogue and the coverage report.

For every function with rules, :func:`describe` gathers

* its **signatures**: the argument types each rrule and frule accepts (optional arguments
  in brackets), and what kind of registration each is (a rule, a non-differentiable
  declaration, an in-place operation whose rule raises, an argument form that raises);
* **what the rules do at the function's sample inputs** (declared next to the rules with
  :func:`chainrules_core.sample_inputs`): the rrule is called at each sample and its
  pullback is given a random cotangent; the frule is given random tangents. Each argument
  is then *differentiated* (it gets a cotangent: an array, a number, a structural
  ``Tangent``, or ``ZeroTangent()``), gets ``NoTangent()`` (integers, flags, indices), or
  is *not implemented* (``not_implemented(reason)``, with the reason). No finite
  differences are computed (``python -m chainrules check`` does that), so this is cheap;
* the **ruleset modules** that register the rules (the source and the documentation);
* its **category** (:data:`CATEGORIES`): a function whose every derivative is
  ``not_implemented`` is ``"not implemented"``, not covered, and a function whose rules
  declare no samples is ``"no samples"`` (nothing is guessed).

The Sphinx rule catalogue (``docs/``) and :mod:`chainrules.coverage` (``python -m
chainrules coverage``) both read these entries.

Examples
--------
>>> import numpy as np
>>> import chainrules
>>> from chainrules.catalogue import describe
>>> entry = describe(np.arctan2)
>>> entry.name, entry.category
('numpy.arctan2', 'frule+rrule')
>>> [(a.name, a.status) for a in entry.arguments]
[('x1', 'differentiated'), ('x2', 'differentiated')]
>>> entry.rulesets
('chainrules.rulesets.elementwise.trigonometric',)
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import warnings
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np

from chainrules_core import (
    AbstractZero,
    NoTangent,
    NotImplementedTangent,
    RuleSignature,
    Sample,
    Tangent,
    Varargs,
    ZeroTangent,
    backing,
    frule,
    rrule,
    samples_of,
    unthunk,
)
from chainrules_core.rules import _unbind

__all__ = [
    "CATEGORIES",
    "RULE_CATEGORIES",
    "ArgumentReport",
    "CatalogueEntry",
    "SignatureReport",
    "describe",
    "entries",
    "lookup_key",
    "public_name",
]

RULE_CATEGORIES = ("frule+rrule", "rrule only", "frule only", "not implemented", "no samples", "non-differentiable",
                   "in-place (error)")
"""The categories of a function that has registrations, best first.

``frule+rrule``, ``rrule only``, ``frule only``
    At some sample, the rule differentiates some argument (its cotangent or tangent is a
    value or ``ZeroTangent()``, not ``NoTangent()`` nor ``not_implemented``).
``not implemented``
    Rules are registered, but at every sample every derivative is ``not_implemented``
    (an honest "not written yet"): not coverage.
``no samples``
    Rules are registered but the function declares no sample inputs (or none of them
    reached a rule), so what the rules do is not known.
``non-differentiable``
    Every registration is a :func:`~chainrules_core.non_differentiable` declaration, or
    every argument gets ``NoTangent()`` at every sample.
``in-place (error)``
    The function writes into an array it was given; its rule raises a clear error.
"""

CATEGORIES = (*RULE_CATEGORIES, "not numeric", "not covered")
"""Every category of the coverage report: :data:`RULE_CATEGORIES`, then ``not numeric``
(printing, files, configuration: nothing to differentiate) and ``not covered`` (no rules)."""

_SIGNATURE_KINDS = ("rule", "non-differentiable", "in-place", "error")


@dataclasses.dataclass(frozen=True)
class SignatureReport:
    """One registration, as the catalogue shows it.

    Attributes
    ----------
    text : str
        The arguments it accepts: ``"a: ndarray, [axis]"`` (optional ones in brackets,
        ``object`` types left out, ``*name`` for a variadic tail).
    modes : tuple of str
        ``("frule", "rrule")``, ``("rrule",)`` or ``("frule",)``.
    kind : str
        ``"rule"``, ``"non-differentiable"`` (a declaration), ``"in-place"`` (the rule
        raises: the function writes into its argument) or ``"error"`` (this form of call
        raises, e.g. a ufunc's output given by position).
    config : str or None
        The config trait the rule requires (higher-order rules), if any.
    module : str
        The module the implementation was written in.
    implementation : str
        The implementation's qualified name.
    message : str
        For an ``"in-place"`` registration, the error it raises (the implementation's
        docstring), else ``""``.
    """

    text: str
    modes: tuple[str, ...]
    kind: str
    config: str | None
    module: str
    implementation: str
    message: str = ""


@dataclasses.dataclass
class ArgumentReport:
    """What the rules do with one positional argument, over every sample.

    Attributes
    ----------
    name : str
        The parameter's name (from the function's signature, else ``x1``, ``x2``...).
    status : str
        ``"differentiated"`` (some sample gives it a cotangent), ``"not implemented"``
        (only ``not_implemented`` and ``NoTangent()``), or ``"NoTangent"`` (always
        ``NoTangent()``: an integer, flag or index argument).
    reasons : list of str
        The ``not_implemented`` reasons seen for it (rrule or frule), without repeats.
    partly : bool
        Differentiated at some samples, ``not_implemented`` at others (or in some fields).
    """

    name: str
    status: str
    reasons: list[str] = dataclasses.field(default_factory=list)
    partly: bool = False


@dataclasses.dataclass
class CatalogueEntry:
    """Everything the catalogue and the coverage report know about one function.

    Attributes
    ----------
    function : callable
        The callable rules are registered on (a method of its class for bound methods).
    name : str
        A public dotted name (``numpy.linalg.cholesky``, ``numpy.random.Generator.normal``).
    signatures : list of SignatureReport
    rulesets : tuple of str
        The ruleset modules that register its rules (for the built-in ones, from the
        generated index), else the modules the implementations were written in.
    samples : int
        How many sample inputs are declared.
    probed : int
        At how many of them a rule ran (``rrule`` or ``frule``).
    arguments : list of ArgumentReport
    rrule_implemented, frule_implemented : bool
        Whether some sample got a real derivative from the rrule / the frule.
    frule_not_implemented : list of str
        The reasons the frule gave ``not_implemented`` (when it was not per argument).
    problems : list of str
        What went wrong while probing (a sample generator or a rule that raised).
    """

    function: Any
    name: str
    signatures: list[SignatureReport] = dataclasses.field(default_factory=list)
    rulesets: tuple[str, ...] = ()
    samples: int = 0
    probed: int = 0
    arguments: list[ArgumentReport] = dataclasses.field(default_factory=list)
    rrule_implemented: bool = False
    frule_implemented: bool = False
    frule_not_implemented: list[str] = dataclasses.field(default_factory=list)
    problems: list[str] = dataclasses.field(default_factory=list)
    _not_implemented_seen: bool = dataclasses.field(default=False, repr=False)

    @property
    def has_rules(self) -> bool:
        """Whether anything is registered for the function (rules or declarations)."""
        return bool(self.signatures)

    def kinds(self, mode: str | None = None) -> set[str]:
        """The kinds of the registrations (of one mode, ``"rrule"`` or ``"frule"``, if given)."""
        return {s.kind for s in self.signatures if mode is None or mode in s.modes}

    @property
    def category(self) -> str | None:
        """One of :data:`RULE_CATEGORIES`, or ``None`` for a function without registrations."""
        if not self.signatures:
            return None
        r_rule, f_rule = "rule" in self.kinds("rrule"), "rule" in self.kinds("frule")
        if not (r_rule or f_rule):
            if "in-place" in self.kinds():
                return "in-place (error)"
            return "non-differentiable"
        if self.probed == 0:
            return "no samples"
        r_ok, f_ok = r_rule and self.rrule_implemented, f_rule and self.frule_implemented
        if r_ok and f_ok:
            return "frule+rrule"
        if r_ok:
            return "rrule only"
        if f_ok:
            return "frule only"
        if self._not_implemented_seen:
            return "not implemented"
        return "non-differentiable"

    @property
    def not_implemented(self) -> dict[str, list[str]]:
        """``not_implemented`` reasons, each with the arguments it was given for.

        The frule's reasons that were not traced to an argument are listed under ``"frule"``.
        """
        out: dict[str, list[str]] = {}
        for arg in self.arguments:
            for reason in arg.reasons:
                out.setdefault(reason, []).append(arg.name)
        for reason in self.frule_not_implemented:
            if reason not in out:
                out.setdefault(reason, []).append("frule")
        return out

    @property
    def partly_not_implemented(self) -> bool:
        """Covered, but some derivative of some argument is ``not_implemented``."""
        return self.category in ("frule+rrule", "rrule only", "frule only") and bool(self.not_implemented)

    @property
    def area(self) -> str:
        """The family of the first ruleset module (``"elementwise"``, ``"linalg"``, ...), or ``""``."""
        for module in self.rulesets:
            area = _area(module)
            if area:
                return area
        return ""


def _area(module: str) -> str:
    """``"linalg"`` for ``chainrules.rulesets.linalg.cholesky``; ``""`` outside the built-in rulesets."""
    parts = module.split(".")
    return parts[2] if parts[:2] == ["chainrules", "rulesets"] and len(parts) > 2 else ""


# ---- names ----------------------------------------------------------------------------------------
_PUBLIC_OWNERS = ("numpy.random", "scipy.sparse", "chainrules.structured", "numpy")
"""Modules searched for a public class that a method of a private class is reached through."""


def lookup_key(f: Any) -> Any:
    """The callable rules are registered on: the class's function for a bound method.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.catalogue import lookup_key
    >>> lookup_key(np.random.normal) is np.random.RandomState.normal
    True
    >>> lookup_key(np.sin) is np.sin
    True
    """
    unbound = _unbind(f)
    return f if unbound is None else unbound[0]


def _public_owner(owner_name: str, attribute: str, f: Any, modules: tuple[str, ...] = _PUBLIC_OWNERS) -> str | None:
    """``module.Class`` of a public class whose ``attribute`` is ``f`` (a private base's method)."""
    for module_name in modules:
        try:
            module = importlib.import_module(module_name)
        except ImportError:
            continue
        names = getattr(module, "__all__", None) or dir(module)
        found: list[tuple[int, bool, str]] = []
        for name in names:
            cls = getattr(module, name, None)
            if name.startswith("_") or not isinstance(cls, type):
                continue
            attr = inspect.getattr_static(cls, attribute, None)
            if isinstance(attr, property):
                attr = attr.fget
            if attr is not f:
                continue
            # the class nearest to the one defining it (an array class before its matrix twin)
            distance = next((i for i, base in enumerate(cls.__mro__) if base.__name__ == owner_name), len(cls.__mro__))
            found.append((distance, not name.endswith("_array"), name))
        if found:
            return f"{module_name}.{min(found)[2]}"
    return None


def _exported_from_package(module: str, qualname: str, f: Any) -> str | None:
    """``package.Class.method`` when ``module`` is private (``scipy.stats._distn_infrastructure``) and the
    public package above it (``scipy.stats``) exports the class the method is reached through."""
    parts = module.split(".")
    private = next((k for k, part in enumerate(parts) if part.startswith("_")), None)
    if private is None or private == 0:
        return None
    package_name = ".".join(parts[:private])
    try:
        value: Any = importlib.import_module(package_name)
    except ImportError:
        return None
    package = value
    owner, _, attribute = qualname.rpartition(".")
    for name in qualname.split("."):
        value = inspect.getattr_static(value, name, None) if isinstance(value, type) else getattr(value, name, None)
        if value is None:
            break
    if isinstance(value, property):
        value = value.fget
    if isinstance(value, (classmethod, staticmethod)):
        value = value.__func__
    if value is f:
        return f"{package_name}.{qualname}"
    if "." in owner:
        return None
    # a method of a private class: a public class of the package that inherits it (rv_generic.mean is
    # scipy.stats.rv_continuous.mean), or a public instance of the class (dirichlet_gen.logpdf is
    # scipy.stats.dirichlet.logpdf)
    found = _public_owner(owner, attribute, f, (package_name,))
    if found is not None:
        return f"{found}.{attribute}"
    for name in sorted(getattr(package, "__all__", None) or dir(package)):
        obj = getattr(package, name, None)
        if not name.startswith("_") and type(obj).__name__ == owner and not isinstance(obj, type):
            return f"{package_name}.{name}.{attribute}"
    return None


def public_name(f: Any) -> str:
    """A public dotted name of a callable with rules.

    NumPy and SciPy functions get the name users call them by (``numpy.linalg.det``,
    ``scipy.special.gamma``), methods their public class's (``numpy.ndarray.sum``,
    ``numpy.random.Generator.normal``, ``scipy.sparse.csr_array.transpose``), Python's
    builtins their bare name (``abs``), properties their attribute (``...StructuredMatrix.T``).

    Examples
    --------
    >>> import numpy as np, math
    >>> from chainrules.catalogue import public_name
    >>> public_name(np.random.Generator.normal), public_name(math.sin), public_name(abs)
    ('numpy.random.Generator.normal', 'math.sin', 'abs')
    """
    from chainrules.rulesets._lazy import reference

    f = lookup_key(f)
    ref = reference(f)
    if ref is None:
        from chainrules.testing.testers import _describe

        return _describe(f)
    module, _, qualname = ref.partition(":")
    if qualname.endswith(".fget"):
        qualname = qualname[: -len(".fget")]
    if module == "builtins":
        return qualname
    if module.split(".")[0] in ("chainrules", "chainrules_core") and "." not in qualname:  # the package exporting it
        parts = module.split(".")
        for k in range(1, len(parts)):
            try:
                package = importlib.import_module(".".join(parts[:k]))
            except ImportError:  # a module loaded from a file under a made-up package name
                continue
            if getattr(package, qualname, None) is f:
                return f"{'.'.join(parts[:k])}.{qualname}"
    if "." in qualname:
        owner, _, attribute = qualname.rpartition(".")
        exported = _exported_from_package(module, qualname, f)
        if exported is not None:
            return exported
        if "._" in f".{module}" or owner.startswith("_") or module == "chainrules.structured.base":
            public = _public_owner(owner.split(".")[-1], attribute, f)
            if public is not None:
                return f"{public}.{attribute}"
    return f"{module}.{qualname}"


def public_module(name: str) -> str:
    """The module part of a public name: ``numpy.linalg`` for ``numpy.linalg.det``,
    ``numpy.random`` for ``numpy.random.Generator.normal``, ``builtins`` for ``abs``.

    Examples
    --------
    >>> from chainrules.catalogue import public_module
    >>> public_module("numpy.linalg.det"), public_module("numpy.ndarray.sum"), public_module("abs")
    ('numpy.linalg', 'numpy', 'builtins')
    """
    parts = name.split(".")
    if len(parts) == 1:
        return "builtins"
    module = parts[0]
    for i in range(1, len(parts) - 1):
        candidate = ".".join(parts[: i + 1])
        try:
            importlib.import_module(candidate)
        except ImportError:
            break
        module = candidate
    return module


# ---- signatures -----------------------------------------------------------------------------------
def _type_text(t: Any) -> str:
    if isinstance(t, tuple):
        return " | ".join(_type_text(x) for x in t)
    if isinstance(t, Varargs):
        return _type_text(t.type)
    return getattr(t, "__name__", None) or repr(t)


def _impl_parameter_names(impl: Any) -> list[str]:
    try:
        params = inspect.signature(impl).parameters.values()
    except (TypeError, ValueError):
        return []
    return [p.name for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]


def _signature_kind(sig: RuleSignature) -> str:
    name = getattr(sig.impl, "__name__", "") or ""
    if name.startswith("non_differentiable_"):
        return "non-differentiable"
    if name.startswith("in_place_"):
        return "in-place"
    if name.endswith("positional_out_rule"):
        return "error"
    return "rule"


def _signature_text(sig: RuleSignature, names: list[str]) -> str:
    impl_names = _impl_parameter_names(getattr(sig.impl, "__wrapped__", sig.impl))
    if sig.config is not None and impl_names:
        impl_names = impl_names[1:]  # the config
    if impl_names and impl_names[0] in ("tangents", "dargs", "Δargs"):
        impl_names = impl_names[1:]
    parts: list[str] = []
    optional: list[str] = []
    for i, t in enumerate(sig.types):
        label = names[i] if i < len(names) else (impl_names[i] if i < len(impl_names) else f"x{i + 1}")
        text = label if t is object else f"{label}: {_type_text(t)}"
        (parts if i < sig.n_required else optional).append(text)
    if optional:
        parts.append("[" + ", ".join(optional) + "]")
    if sig.varargs is not None:
        parts.append("*args" if sig.varargs is object else f"*args: {_type_text(sig.varargs)}")
    return ", ".join(parts)


def argument_names(f: Any, n: int | None = None, instance: Any = None) -> list[str]:
    """Names of the positional parameters of ``f`` (``self`` first for a method), as far as known.

    With ``instance`` (the ``self`` of a call of the method ``f``), a variadic tail that the
    instance parses with a ``_parse_args`` method (``scipy.stats`` distributions: ``*args``
    are the shape parameters, ``loc`` and ``scale``) is named after that method's parameters.

    Examples
    --------
    >>> import numpy as np, scipy.stats
    >>> from chainrules.catalogue import argument_names
    >>> argument_names(np.add), argument_names(np.random.RandomState.normal)
    (['x1', 'x2', 'out'], ['self', 'loc', 'scale', 'size'])
    >>> argument_names(type(scipy.stats.gamma).logpdf, 5, instance=scipy.stats.gamma)
    ['self', 'x', 'a', 'loc', 'scale']
    """
    names: list[str] = []
    if isinstance(f, np.ufunc):  # inputs, then outputs by position
        names = ["x"] if f.nin == 1 else [f"x{i + 1}" for i in range(f.nin)]
        names += ["out"] if f.nout == 1 else [f"out{i + 1}" for i in range(f.nout)]
        return names + [f"x{i + 1}" for i in range(len(names), n or 0)]
    try:
        params = list(inspect.signature(f).parameters.values())
    except (TypeError, ValueError):
        params = []
    for p in params:
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            names.append(p.name)
        elif p.kind is p.VAR_POSITIONAL:
            names.extend(_parsed_names(instance))
            if n is not None:
                names.extend(f"{p.name}[{i}]" for i in range(n - len(names)))
            break
    if n is not None and len(names) < n:
        names += [f"x{i + 1}" for i in range(len(names), n)]
    return names


def _accepts_first(sig: RuleSignature, cls: type) -> bool:
    """Whether the registration accepts an object of class ``cls`` as its first positional argument."""
    first = sig.types[0] if sig.types else sig.varargs
    if first is None:
        return False
    try:
        return issubclass(cls, first)
    except TypeError:  # not a class (or a tuple of classes): accepts anything it was given
        return True


def _parsed_names(instance: Any) -> list[str]:
    """The parameters ``instance._parse_args`` binds a method's ``*args`` to (``scipy.stats`` distributions)."""
    parse = getattr(instance, "_parse_args", None)
    if instance is None or not callable(parse):
        return []
    try:
        params = inspect.signature(parse).parameters.values()
    except (TypeError, ValueError):
        return []
    return [p.name for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]


def signature_reports(f: Any, instance: Any = None) -> list[SignatureReport]:
    """The registrations of ``f`` (rrule and frule merged when they accept the same arguments).

    With ``instance``, only the registrations whose first positional argument accepts its
    class (a method's ``self``: ``rv_continuous.logpdf`` registered for ``gamma_gen`` accepts
    ``scipy.stats.gamma``, not ``scipy.stats.levy_stable``).

    Examples
    --------
    >>> import numpy as np
    >>> import chainrules
    >>> from chainrules.catalogue import signature_reports
    >>> [(s.text, s.modes, s.kind) for s in signature_reports(np.linalg.cholesky)][0]
    ('a: ndarray', ('frule', 'rrule'), 'rule')
    """
    key = lookup_key(f)
    names = argument_names(key)
    merged: dict[tuple[str, str, str | None], SignatureReport] = {}
    for registry in (rrule, frule):  # an rrule's implementation is the one a merged report names
        for sig in registry.signatures(key):
            if sig.opt_out or sig.impl is None:
                continue
            if instance is not None and not _accepts_first(sig, type(instance)):
                continue
            text = _signature_text(sig, names)
            if sig.functor:
                text = f"<instance>, {text}" if text else "<instance>"
            kind = _signature_kind(sig)
            config = None if sig.config is None else _type_text(sig.config)
            k = (text, kind, config)
            impl = getattr(sig.impl, "__wrapped__", sig.impl)
            if k in merged:
                old = merged[k]
                merged[k] = dataclasses.replace(old, modes=tuple(sorted({*old.modes, registry.kind})))
            else:
                message = (inspect.getdoc(impl) or "") if kind == "in-place" else ""
                merged[k] = SignatureReport(text, (registry.kind,), kind, config,
                                            getattr(impl, "__module__", "") or "",
                                            getattr(impl, "__qualname__", "") or "", message)
    return list(merged.values())


# ---- what a tangent holds -------------------------------------------------------------------------
def _leaves(t: Any, depth: int = 0) -> tuple[set[str], list[str]]:
    """The kinds of the parts of a (co)tangent: ``value``, ``zero``, ``none``, ``not implemented``."""
    t = unthunk(t)
    if isinstance(t, NotImplementedTangent):
        return {"not implemented"}, [t.info]
    if isinstance(t, NoTangent) or t is None:
        return {"none"}, []
    if isinstance(t, AbstractZero):
        return {"zero"}, []
    parts: Iterable[Any] | None = None
    if isinstance(t, Tangent):
        stored = backing(t)
        parts = stored.values() if isinstance(stored, Mapping) else stored
    elif isinstance(t, (tuple, list)) and depth < 4:
        parts = t
    if parts is None:
        return {"value"}, []
    kinds: set[str] = set()
    reasons: list[str] = []
    for part in parts:
        k, r = _leaves(part, depth + 1)
        kinds |= k
        reasons += r
    return (kinds or {"zero"}), reasons


def _implemented(kinds: set[str]) -> bool:
    return bool(kinds & {"value", "zero"})


@dataclasses.dataclass
class _ArgumentTally:
    kinds: set[str] = dataclasses.field(default_factory=set)
    reasons: list[str] = dataclasses.field(default_factory=list)
    mixed: bool = False

    def add(self, kinds: set[str], reasons: list[str]) -> None:
        if "not implemented" in kinds and _implemented(kinds):
            self.mixed = True
        self.kinds |= kinds
        self.reasons += [r for r in reasons if r not in self.reasons]

    def report(self, name: str) -> ArgumentReport:
        if _implemented(self.kinds):
            status = "differentiated"
        elif "not implemented" in self.kinds:
            status = "not implemented"
        else:
            status = "NoTangent"
        partly = self.mixed or (status == "differentiated" and "not implemented" in self.kinds)
        return ArgumentReport(name, status, list(self.reasons), partly)


# ---- probing the rules at the samples -------------------------------------------------------------
def _is_primal_and_tangent(a: Any) -> bool:
    return type(a).__name__ == "PrimalAndTangent" and hasattr(a, "primal") and hasattr(a, "tangent")


def _call_rrule(config: Any, f: Any, args: tuple[Any, ...], fkwargs: dict[str, Any]) -> Any:
    return rrule(config, f, *args, **fkwargs) if config is not None else rrule(f, *args, **fkwargs)


def _call_frule(config: Any, tangents: tuple[Any, ...], f: Any, args: tuple[Any, ...],
                fkwargs: dict[str, Any]) -> Any:
    if config is not None:
        return frule(config, tangents, f, *args, **fkwargs)
    return frule(tangents, f, *args, **fkwargs)


def _describe_error(err: BaseException) -> str:
    text = str(err).splitlines()[0] if str(err) else ""
    text = text if len(text) < 200 else text[:200] + " ..."
    return f"{type(err).__name__}: {text}" if text else type(err).__name__


class _Probe:
    """Runs the rules of one function at its samples and tallies what each argument gets."""

    def __init__(self, f: Any, entry: CatalogueEntry, seed: int, instance: Any = None) -> None:
        from chainrules.testing.random_tangents import rand_tangent

        self.f = f
        self.instance = instance
        self.entry = entry
        self.rand_tangent = rand_tangent
        self.rng = np.random.default_rng(seed)
        self.tallies: dict[str, _ArgumentTally] = {}
        self.order: list[str] = []

    def tally(self, name: str) -> _ArgumentTally:
        if name not in self.tallies:
            self.tallies[name] = _ArgumentTally()
            self.order.append(name)
        return self.tallies[name]

    def run(self, sample: Any) -> None:
        args = tuple(a.primal if _is_primal_and_tangent(a) else a for a in sample.args)
        given = tuple(a.tangent if _is_primal_and_tangent(a) else None for a in sample.args)
        config = sample.options.get("config")
        names = argument_names(self.f, len(args), self.instance)
        label = sample.describe()
        ran = False
        if "rule" in self.entry.kinds("rrule") or "non-differentiable" in self.entry.kinds("rrule"):
            ran |= self._rrule(config, args, sample, names, label)
        if self.entry.kinds("frule") & {"rule", "non-differentiable"}:
            ran |= self._frule(config, args, given, sample, names, label)
        if ran:
            self.entry.probed += 1

    def _rrule(self, config: Any, args: tuple[Any, ...], sample: Any, names: list[str], label: str) -> bool:
        try:
            result = _call_rrule(config, self.f, args, sample.fkwargs)
        except Exception as err:
            self.entry.problems.append(f"rrule at {label}: {_describe_error(err)}")
            return False
        if result is None:
            return False
        try:
            y, pullback = result
            dy = sample.options.get("output_tangent")
            if dy is None:
                dy = self.rand_tangent(y, self.rng)
            cotangents = pullback(dy)
            found = [_leaves(ct) for ct in tuple(cotangents)[1:]]
        except Exception as err:
            self.entry.problems.append(f"pullback at {label}: {_describe_error(err)}")
            return False
        for name, (kinds, reasons) in zip(names, found):
            self.tally(name).add(kinds, reasons)
            if _implemented(kinds):
                self.entry.rrule_implemented = True
            if "not implemented" in kinds:
                self.entry._not_implemented_seen = True
        return True

    def _frule(self, config: Any, args: tuple[Any, ...], given: tuple[Any, ...], sample: Any, names: list[str],
               label: str) -> bool:
        tangents = [g if g is not None else self.rand_tangent(a, self.rng) for a, g in zip(args, given)]
        live = [i for i, t in enumerate(tangents) if not isinstance(t, NoTangent)]
        try:
            result = _call_frule(config, (NoTangent(), *tangents), self.f, args, sample.fkwargs)
            if result is None:
                return False
            kinds, reasons = _leaves(result[1])
        except Exception as err:
            self.entry.problems.append(f"frule at {label}: {_describe_error(err)}")
            return False
        if _implemented(kinds) and (live or "value" in kinds):
            self.entry.frule_implemented = True
        if "not implemented" not in kinds:
            return True
        self.entry._not_implemented_seen = True
        if len(live) < 2:
            for i in live:
                self.tally(names[i]).add({"not implemented"}, reasons)
            if not live:
                self.entry.frule_not_implemented += [r for r in reasons if r not in self.entry.frule_not_implemented]
            return True
        for i in live:  # which argument's tangent is not implemented: one direction at a time
            alone = [t if j == i else (t if isinstance(t, NoTangent) else ZeroTangent())
                     for j, t in enumerate(tangents)]
            try:
                one = _call_frule(config, (NoTangent(), *alone), self.f, args, sample.fkwargs)
                k, r = _leaves(one[1])
            except Exception as err:
                self.entry.problems.append(f"frule at {label}, tangent of {names[i]} only: {_describe_error(err)}")
                continue
            if _implemented(k):
                self.entry.frule_implemented = True
            if "not implemented" in k:
                self.tally(names[i]).add({"not implemented"}, r)
        return True


def _index_modules() -> dict[str, tuple[str, ...]]:
    """``module:qualname`` reference -> the built-in ruleset modules that register rules for it."""
    from chainrules.rulesets._index import RULE_INDEX

    out: dict[str, list[str]] = {}
    for module, references in RULE_INDEX.items():
        for ref in references:
            out.setdefault(ref, []).append(module)
    return {ref: tuple(modules) for ref, modules in out.items()}


def _rulesets(key: Any, signatures: list[SignatureReport], index: Mapping[str, tuple[str, ...]]) -> tuple[str, ...]:
    from chainrules.rulesets._lazy import reference

    ref = reference(key)
    if ref is not None and ref in index:
        modules = index[ref]
        # the area that owns the function first, the rules for structured matrices after
        return tuple(sorted(modules, key=lambda m: (_area(m).startswith("structured"), m)))
    skip = ("chainrules_core.", "chainrules.rulesets._")
    return tuple(dict.fromkeys(s.module for s in signatures if s.module and not s.module.startswith(skip)))


def describe(f: Any, *, seed: int = 0, probe: bool = True, index: Mapping[str, tuple[str, ...]] | None = None,
             instance: Any = None, samples: list[Sample] | None = None) -> CatalogueEntry:
    """The catalogue entry of one callable (with or without rules).

    Parameters
    ----------
    f : callable
        A function, ufunc, method (bound methods stand for their class's method) or class.
    seed : int
        Seeds the samples and the random (co)tangents, so the entry is the same on every run.
    probe : bool
        Run the rules at the samples (else only the signatures and modules are gathered,
        and the category of a function with rules is ``"no samples"``).
    index : mapping, optional
        Reference -> ruleset modules (computed from the generated index if not given).
    instance : object, optional
        The entry of ``f`` for calls with this object first, for a method whose rules are
        chosen by the class of ``self`` (a ``scipy.stats`` distribution: ``describe(f,
        instance=scipy.stats.gamma)`` with ``f = rv_continuous.logpdf``): only the
        registrations whose first argument accepts its class, and only the samples whose
        first argument is this object.
    samples : list of Sample, optional
        The samples to run the rules at (default: those declared for ``f``, generated with
        ``seed``); with ``instance``, those whose first argument is not ``instance`` are
        left out. Lets a caller generate a function's samples once for several instances.

    Examples
    --------
    >>> import numpy as np
    >>> import chainrules
    >>> from chainrules.catalogue import describe
    >>> describe(np.argsort).category, describe(np.put).category, describe(np.sin).category
    ('non-differentiable', 'in-place (error)', 'frule+rrule')
    >>> describe(len).has_rules
    False
    >>> import scipy.stats
    >>> describe(scipy.stats.norm.logpdf, instance=scipy.stats.norm).category
    'frule+rrule'
    """
    key = lookup_key(f)
    entry = CatalogueEntry(key, public_name(key))
    entry.signatures = signature_reports(key, instance)
    if not entry.signatures:
        return entry
    entry.rulesets = _rulesets(key, entry.signatures, _index_modules() if index is None else index)
    if not probe or not (entry.kinds() & {"rule", "non-differentiable"}):
        return entry
    probe_state = _Probe(key, entry, seed, instance)
    state = np.random.get_state()  # samplers of NumPy's global RandomState draw from it
    try:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")  # the rules' and the samples' own warnings are the checker's business
            if samples is None:
                try:
                    samples = samples_of(key, seed=seed)
                except Exception as err:
                    entry.problems.append(f"the sample generator raised {_describe_error(err)}")
                    samples = []
            if instance is not None:
                samples = [s for s in samples if s.args and s.args[0] is instance]
            entry.samples = len(samples)
            for sample in samples:
                probe_state.run(sample)
    finally:
        np.random.set_state(state)
    if not samples:
        return entry
    entry.arguments = [probe_state.tallies[name].report(name) for name in probe_state.order]
    return entry


def functions_with_rules() -> list[Any]:
    """Every callable with registrations (rules or declarations), loading every ruleset."""
    return list(dict.fromkeys([*rrule.functions(), *frule.functions()]))


def entries(functions: Iterable[Any] | None = None, *, seed: int = 0, probe: bool = True) -> list[CatalogueEntry]:
    """Catalogue entries of ``functions`` (default: every function with rules), sorted by name.

    Examples
    --------
    >>> import numpy as np
    >>> import chainrules
    >>> from chainrules.catalogue import entries
    >>> [e.name for e in entries([np.cos, np.sin])]
    ['numpy.cos', 'numpy.sin']
    """
    index = _index_modules()
    chosen = functions_with_rules() if functions is None else list(functions)
    found = [describe(f, seed=seed, probe=probe, index=index) for f in chosen]
    return sorted(found, key=lambda e: e.name)
