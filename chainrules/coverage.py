"""Coverage of a module's public functions by rules.

``coverage("numpy")`` classifies every public callable of a module (functions, ufuncs,
NumPy's array-function dispatchers, bound methods such as ``np.random.normal``; classes
excluded) or of a class (``"numpy.ndarray"``, ``"numpy.random.Generator"``: its public
methods) into one of :data:`CATEGORIES`. Functions with registrations are classified by
:mod:`chainrules.catalogue` (the data behind the documentation's rule catalogue), which
runs each rule at the function's sample inputs:

``frule+rrule``, ``rrule only``, ``frule only``
    At some sample, the rule gives some argument a real derivative.
``not implemented``
    Rules are registered but every derivative they give is ``not_implemented(...)``: not
    coverage.
``no samples``
    Rules are registered but no sample inputs are declared, so what they do is unknown
    (declare them with :func:`chainrules_core.sample_inputs`).
``non-differentiable``
    Every registered signature is a :func:`~chainrules_core.non_differentiable`
    declaration (outputs are integers, booleans, or do not depend on the arguments'
    values), or the rules give ``NoTangent()`` to every argument at every sample.
``in-place (error)``
    The function writes into an array it was given; its rule raises a clear error (see
    :mod:`chainrules.rulesets.arrays.mutation`).
``not numeric``
    No rule is needed: printing, file I/O, configuration, dates, Python-callback
    constructors (the list :data:`NOT_NUMERIC`, per module).
``not covered``
    Everything else: numeric functions still without rules.

The command ``python -m chainrules coverage numpy`` prints the report and the counts.

Distributions
-------------
``scipy.stats`` holds, besides functions, distribution *objects*: ``norm`` is an instance of
``norm_gen`` (``rv_continuous``), ``poisson`` of ``poisson_gen`` (``rv_discrete``),
``multivariate_normal`` of ``multivariate_normal_gen`` (``multi_rv_generic``). Their methods'
rules are registered on the class's function (``rv_continuous.logpdf``, shared by every
continuous distribution) and chosen by the class of ``self``, so the report takes each
distribution object apart (:func:`distribution_objects`, :func:`distribution_methods`):
``coverage("scipy.stats")`` has an entry ``"norm.logpdf"`` per distribution and public
method (``pdf``, ``logpdf``, ``cdf``, ... ``rvs``, ``pmf`` for a discrete one, and
``__call__``, the freezing call ``norm(mu, sigma)``) instead of one entry ``"norm"``, and
``coverage("scipy.stats.norm")`` reports the methods of one distribution. A pair is
classified like a function (:data:`CATEGORIES`), from the registrations whose first argument
accepts the distribution's class and the samples whose first argument is the distribution
object (``describe(method, instance=dist)`` of :mod:`chainrules.catalogue`): a method whose
rule serves other distributions only is ``not covered`` for this one, and one whose rule
accepts it without samples for it is ``no samples``. Nothing is listed by hand: a
distribution that gets rules (and samples) is reported as covered from then on.

Examples
--------
>>> from chainrules.coverage import coverage
>>> report = coverage("numpy")
>>> report["sin"], report["argmax"], report["save"]
('frule+rrule', 'non-differentiable', 'not numeric')
>>> gamma = coverage("scipy.stats.gamma")
>>> gamma["logpdf"], gamma["fit"]
('frule+rrule', 'not covered')
"""

from __future__ import annotations

import importlib
import inspect
import sys
import types
import warnings
from collections import Counter
from typing import Any

import numpy as np

from chainrules.catalogue import CATEGORIES, CatalogueEntry, describe, lookup_key
from chainrules_core import Sample

__all__ = ["CATEGORIES", "NOT_NUMERIC", "UnknownModuleError", "classify", "counts", "coverage",
           "distribution_methods", "distribution_objects", "entries_of", "is_distribution", "print_coverage",
           "public_callables"]


class UnknownModuleError(ValueError):
    """The name given to the coverage report is not an importable module or class."""


NOT_NUMERIC: dict[str, frozenset[str]] = {
    "numpy": frozenset({
        # printing and formatting
        "array2string", "array_repr", "array_str", "base_repr", "binary_repr", "format_float_positional",
        "format_float_scientific", "get_printoptions", "set_printoptions", "printoptions", "typename",
        # files and buffers
        "load", "loadtxt", "save", "savetxt", "savez", "savez_compressed", "genfromtxt", "fromfile", "fromregex",
        "fromstring", "frombuffer", "fromiter", "from_dlpack",
        # configuration, errors, introspection
        "getbufsize", "setbufsize", "geterr", "seterr", "geterrcall", "seterrcall", "get_include", "show_config",
        "show_runtime", "info", "test", "nested_iters",
        # dates
        "busday_count", "busday_offset", "is_busday", "datetime_as_string", "datetime_data",
        # wrappers that build Python-callback ufuncs
        "frompyfunc",
    }),
    "numpy.random": frozenset({"get_bit_generator", "set_bit_generator"}),
    # backend and thread-pool settings
    "scipy.fft": frozenset({"get_workers", "set_workers", "register_backend", "set_backend", "set_global_backend",
                            "skip_backend"}),
    "numpy.ndarray": frozenset({"dump", "dumps", "tobytes", "tofile", "setflags"}),
    # option listings and printing callbacks
    "scipy.optimize": frozenset({"show_options", "linprog_verbose_callback"}),
    # error handling of the special functions (errstate is a class, listed for completeness)
    "scipy.special": frozenset({"geterr", "seterr", "errstate"}),
}
"""Public callables that take no numbers to differentiate, per module."""


def _resolve(name: str) -> Any:
    """A module, or a class inside one (``"numpy.random.Generator"``)."""
    try:
        return importlib.import_module(name)
    except ImportError:
        module_name, _, attribute = name.rpartition(".")
        if not module_name:
            raise
        owner = _resolve(module_name)
        try:
            return getattr(owner, attribute)
        except AttributeError:
            raise ImportError(f"no module named {name!r}") from None


def is_distribution(obj: Any) -> bool:
    """Whether ``obj`` is a ``scipy.stats`` distribution object (``norm``, ``poisson``, ``multivariate_normal``).

    Examples
    --------
    >>> import scipy.stats
    >>> from chainrules.coverage import is_distribution
    >>> is_distribution(scipy.stats.norm), is_distribution(scipy.stats.norm(0, 1)), is_distribution(len)
    (True, False, False)
    """
    if "scipy.stats" not in sys.modules or isinstance(obj, type):
        return False
    from scipy.stats._distn_infrastructure import rv_generic
    from scipy.stats._multivariate import multi_rv_generic

    return isinstance(obj, (rv_generic, multi_rv_generic))


def distribution_objects(module_name: str) -> dict[str, Any]:
    """The public distribution objects of a module (``scipy.stats``), by name; empty for other modules.

    Examples
    --------
    >>> from chainrules.coverage import distribution_objects
    >>> found = distribution_objects("scipy.stats")
    >>> [name in found for name in ("norm", "poisson", "multivariate_normal", "entropy")]
    [True, True, True, False]
    """
    owner = _owner(module_name)
    if not isinstance(owner, types.ModuleType):
        return {}
    names = getattr(owner, "__all__", None) or [n for n in dir(owner) if not n.startswith("_")]
    return {name: obj for name in names if is_distribution(obj := getattr(owner, name, None))}


def distribution_methods(dist: Any) -> dict[str, Any]:
    """The public methods of a distribution object, bound, by name; ``__call__`` (freezing) first.

    The methods its class defines or inherits (``pdf``, ``logpdf``, ``cdf``, ..., ``rvs``,
    ``fit``, ``freeze``; ``pmf`` for a discrete one), not its other attributes.

    Examples
    --------
    >>> import scipy.stats
    >>> from chainrules.coverage import distribution_methods
    >>> methods = distribution_methods(scipy.stats.poisson)
    >>> list(methods)[:3], "pmf" in methods, "pdf" in methods
    (['__call__', 'cdf', 'entropy'], True, False)
    """
    cls = type(dist)
    out = {"__call__": dist.__call__} if callable(dist) else {}
    for name in dir(cls):
        if not name.startswith("_") and inspect.isfunction(getattr(cls, name, None)):
            out[name] = getattr(dist, name)
    return out


def _owner(module_name: str) -> Any:
    """The module, class or distribution object ``module_name`` names, or a clear error."""
    try:
        owner = _resolve(module_name)
    except Exception:  # ImportError, or any error a module raises while being imported
        raise UnknownModuleError(f"{module_name!r} is not a module or a class (try numpy, numpy.linalg, numpy.fft, "
                                 "numpy.random, numpy.ndarray, scipy.linalg, scipy.special, scipy.stats, "
                                 "scipy.stats.norm)") from None
    if not isinstance(owner, (type, types.ModuleType)) and not is_distribution(owner):
        raise UnknownModuleError(f"{module_name!r} is a {type(owner).__name__}, not a module or a class: the report "
                                 "covers the public functions of a module (or the methods of a class, or of a "
                                 "scipy.stats distribution)")
    return owner


def public_callables(module_name: str) -> dict[str, Any]:
    """Public callables of a module (functions, ufuncs, dispatchers, bound methods), by name.

    Classes are excluded; for a class name (``"numpy.ndarray"``), its public methods; for a
    distribution (``"scipy.stats.norm"``), its methods (:func:`distribution_methods`). The
    distribution objects of a module are not callables here: :func:`distribution_objects`
    lists them.

    Raises
    ------
    UnknownModuleError
        When ``module_name`` names no importable module or class.

    Examples
    --------
    >>> from chainrules.coverage import public_callables
    >>> "sin" in public_callables("numpy"), "reshape" in public_callables("numpy.ndarray")
    (True, True)
    >>> public_callables("nump")
    Traceback (most recent call last):
    ...
    chainrules.coverage.UnknownModuleError: 'nump' is not a module or a class (try numpy, numpy.linalg, ...)
    """
    owner = _owner(module_name)
    if is_distribution(owner):
        return distribution_methods(owner)
    if isinstance(owner, type):
        names = [n for n in dir(owner) if not n.startswith("_")]
    else:
        names = getattr(owner, "__all__", None) or [n for n in dir(owner) if not n.startswith("_")]
    out = {}
    for name in names:
        obj = getattr(owner, name, None)
        if obj is None or isinstance(obj, type) or not callable(obj) or isinstance(obj, types.ModuleType) or \
                is_distribution(obj):
            continue
        out[name] = obj
    return out


def _category(entry: CatalogueEntry, name: str, module_name: str) -> str:
    category = entry.category
    if category is not None:
        return category
    if name in NOT_NUMERIC.get(module_name, ()):
        return "not numeric"
    return "not covered"


def classify(f: Any, name: str = "", module_name: str = "") -> str:
    """The category of one callable (see :data:`CATEGORIES`).

    Examples
    --------
    >>> import numpy as np
    >>> import chainrules
    >>> from chainrules.coverage import classify
    >>> classify(np.sin), classify(np.put), classify(np.save, "save", "numpy")
    ('frule+rrule', 'in-place (error)', 'not numeric')

    A bound method of a distribution is classified for that distribution:

    >>> import scipy.stats
    >>> classify(scipy.stats.gamma.cdf), classify(scipy.stats.levy_stable.cdf)
    ('frule+rrule', 'not covered')
    """
    import chainrules  # noqa: F401  (registers the rules)

    owner = getattr(f, "__self__", None)
    return _category(describe(f, instance=owner if is_distribution(owner) else None), name, module_name)


def entries_of(module_name: str) -> dict[str, tuple[str, CatalogueEntry]]:
    """Name -> (category, catalogue entry) for every public callable of ``module_name``.

    Examples
    --------
    >>> from chainrules.coverage import entries_of
    >>> category, entry = entries_of("numpy.linalg")["det"]
    >>> entry.name, entry.rulesets[0]
    ('numpy.linalg.det', 'chainrules.rulesets.linalg.determinants')
    """
    import chainrules  # noqa: F401  (registers the rules)
    from chainrules.catalogue import _index_modules

    index = _index_modules()
    owner = _owner(module_name)
    if is_distribution(owner):
        return _distribution_entries({"": owner}, index)
    callables = public_callables(module_name)
    seen: dict[int, CatalogueEntry] = {}
    out = {}
    for name, f in callables.items():
        key = lookup_key(f)
        entry = seen.get(id(key))
        if entry is None:
            entry = seen[id(key)] = describe(key, index=index)
        out[name] = (_category(entry, name, module_name), entry)
    out.update(_distribution_entries(distribution_objects(module_name), index))
    return out


def _distribution_entries(dists: dict[str, Any], index: Any) -> dict[str, tuple[str, CatalogueEntry]]:
    """``"norm.logpdf"`` -> (category, entry) for every method of every distribution (``"logpdf"`` for the name ``""``).

    Each method's samples are generated once and shared out among the distributions by their
    first argument (``describe(..., instance=dist, samples=...)``).
    """
    from chainrules_core import samples_of
    from chainrules_core.samples import has_samples

    shared: dict[Any, dict[int, list[Sample]] | None] = {}
    out = {}
    for dist_name, dist in dists.items():
        for method_name, method in distribution_methods(dist).items():
            key = lookup_key(method)
            if key not in shared:
                groups: dict[int, list[Sample]] | None = {}
                try:
                    with warnings.catch_warnings(), np.errstate(all="ignore"):
                        warnings.simplefilter("ignore")  # the samples' own warnings are the checker's business
                        found = samples_of(key) if has_samples(key) else []
                    for sample in found:
                        if sample.args:
                            groups.setdefault(id(sample.args[0]), []).append(sample)  # type: ignore[union-attr]
                except Exception:  # describe() generates them again and reports what went wrong
                    groups = None
                shared[key] = groups
            groups = shared[key]
            given = None if groups is None else groups.get(id(dist), [])
            entry = describe(key, index=index, instance=dist, samples=given)
            name = f"{dist_name}.{method_name}" if dist_name else method_name
            out[name] = (_category(entry, name, ""), entry)
    return out


def coverage(module_name: str) -> dict[str, str]:
    """Classify every public callable of ``module_name`` (a module, or a class such as ``"numpy.ndarray"``).

    Returns
    -------
    dict
        Name -> one of :data:`CATEGORIES`.

    Examples
    --------
    >>> from chainrules.coverage import coverage
    >>> coverage("numpy")["sin"]
    'frule+rrule'
    >>> coverage("numpy.ndarray")["sort"]
    'in-place (error)'
    """
    return {name: category for name, (category, _) in entries_of(module_name).items()}


def counts(report: dict[str, str]) -> dict[str, int]:
    """How many callables fall in each category, in the order of :data:`CATEGORIES`.

    Examples
    --------
    >>> from chainrules.coverage import counts
    >>> counts({"sin": "frule+rrule", "save": "not numeric"})["frule+rrule"]
    1
    """
    tally = Counter(report.values())
    return {c: tally.get(c, 0) for c in CATEGORIES}


_EXPLAIN = {
    "not implemented": "rules registered, but every derivative is not_implemented",
    "no samples": "rules registered, but no sample inputs declared: what they do is unknown",
}


def _wrap(names: list[str], width: int = 100, indent: str = "  ") -> str:
    lines, line = [], indent
    for name in names:
        piece = name if line == indent else ", " + name
        if len(line) + len(piece) > width and line != indent:
            lines.append(line + ",")
            line, piece = indent, name
        line += piece
    lines.append(line)
    return "\n".join(lines)


def _kind(dist: Any) -> str:
    names = [k.__name__ for k in type(dist).__mro__]
    return next((kind for base, kind in (("rv_continuous", "continuous"), ("rv_discrete", "discrete"),
                                         ("multi_rv_generic", "multivariate")) if base in names), "distribution")


def print_coverage(module_name: str) -> int:
    """Print the coverage report of ``module_name`` and the counts per category; return 0.

    After the categories come the not-implemented reasons (of the functions that are ``not
    implemented`` and of covered functions with some derivative not implemented) and what
    went wrong while running a rule at its samples, if anything did.
    """
    found = entries_of(module_name)
    report = {name: category for name, (category, _) in found.items()}
    dists = distribution_objects(module_name)
    functions = {n: c for n, c in report.items() if n.split(".")[0] not in dists}
    for category in CATEGORIES:
        names = sorted(n for n, c in functions.items() if c == category)
        if names:
            note = f" [{_EXPLAIN[category]}]" if category in _EXPLAIN else ""
            print(f"{category} ({len(names)}){note}:")
            print(_wrap(names))
    methods = {n: c for n, c in report.items() if n not in functions}
    if dists:
        print(f"\ndistributions ({len(dists)}), their methods by category (__call__: freezing, dist(*args)):")
        for dist_name, dist in dists.items():
            own = {n.partition(".")[2]: c for n, c in methods.items() if n.partition(".")[0] == dist_name}
            print(f"{dist_name} ({_kind(dist)}):")
            for category in CATEGORIES:
                names = sorted(n for n, c in own.items() if c == category)
                if names:
                    print(_wrap([f"{category} ({len(names)}): {names[0]}", *names[1:]], indent="  "))
    missing = [(n, e) for n, (c, e) in sorted(found.items()) if c == "not implemented" or e.partly_not_implemented]
    if missing:
        print("\nnot implemented, and why:")
        for name, entry in missing:
            for reason, arguments in entry.not_implemented.items():
                print(f"  {name} ({', '.join(arguments)}): {reason}")
    problems = [(n, e) for n, (_, e) in sorted(found.items()) if e.problems]
    if problems:
        print("\nrules that raised at their samples (python -m chainrules check NAME shows more):")
        for name, entry in problems:
            print(f"  {name}: {entry.problems[0]}")
    if dists:
        print()
        for what, part in ((f"functions ({len(functions)})", functions),
                           (f"methods of the {len(dists)} distributions ({len(methods)})", methods)):
            print(f"{what}: " + ", ".join(f"{c}: {n}" for c, n in counts(part).items() if n))
    tally = counts(report)
    print("\n" + ", ".join(f"{c}: {n}" for c, n in tally.items()) + f"; total {len(report)}")
    return 0
