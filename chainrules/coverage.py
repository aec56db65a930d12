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

Examples
--------
>>> from chainrules.coverage import coverage
>>> report = coverage("numpy")
>>> report["sin"], report["argmax"], report["save"]
('frule+rrule', 'non-differentiable', 'not numeric')
"""

from __future__ import annotations

import importlib
import types
from collections import Counter
from typing import Any

from chainrules.catalogue import CATEGORIES, CatalogueEntry, describe, lookup_key

__all__ = ["CATEGORIES", "NOT_NUMERIC", "UnknownModuleError", "classify", "counts", "coverage", "entries_of",
           "print_coverage", "public_callables"]


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


def public_callables(module_name: str) -> dict[str, Any]:
    """Public callables of a module (functions, ufuncs, dispatchers, bound methods), by name.

    Classes are excluded; for a class name (``"numpy.ndarray"``), its public methods.

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
    try:
        owner = _resolve(module_name)
    except Exception:  # ImportError, or any error a module raises while being imported
        raise UnknownModuleError(f"{module_name!r} is not a module or a class (try numpy, numpy.linalg, numpy.fft, "
                                 "numpy.random, numpy.ndarray, scipy.linalg, scipy.special)") from None
    if not isinstance(owner, (type, types.ModuleType)):
        raise UnknownModuleError(f"{module_name!r} is a {type(owner).__name__}, not a module or a class: the report "
                                 "covers the public functions of a module (or the methods of a class)")
    if isinstance(owner, type):
        names = [n for n in dir(owner) if not n.startswith("_")]
    else:
        names = getattr(owner, "__all__", None) or [n for n in dir(owner) if not n.startswith("_")]
    out = {}
    for name in names:
        obj = getattr(owner, name, None)
        if obj is None or isinstance(obj, type) or not callable(obj) or isinstance(obj, types.ModuleType):
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
    """
    import chainrules  # noqa: F401  (registers the rules)

    return _category(describe(f), name, module_name)


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

    callables = public_callables(module_name)
    index = _index_modules()
    seen: dict[int, CatalogueEntry] = {}
    out = {}
    for name, f in callables.items():
        key = lookup_key(f)
        entry = seen.get(id(key))
        if entry is None:
            entry = seen[id(key)] = describe(key, index=index)
        out[name] = (_category(entry, name, module_name), entry)
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


def print_coverage(module_name: str) -> int:
    """Print the coverage report of ``module_name`` and the counts per category; return 0.

    After the categories come the not-implemented reasons (of the functions that are ``not
    implemented`` and of covered functions with some derivative not implemented) and what
    went wrong while running a rule at its samples, if anything did.
    """
    found = entries_of(module_name)
    report = {name: category for name, (category, _) in found.items()}
    for category in CATEGORIES:
        names = sorted(n for n, c in report.items() if c == category)
        if names:
            note = f" [{_EXPLAIN[category]}]" if category in _EXPLAIN else ""
            print(f"{category} ({len(names)}){note}:")
            print(_wrap(names))
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
    tally = counts(report)
    print("\n" + ", ".join(f"{c}: {n}" for c, n in tally.items()) + f"; total {len(report)}")
    return 0
