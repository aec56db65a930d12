"""Coverage of a module's public functions by rules.

``coverage("numpy")`` classifies every public callable of a module (functions, ufuncs,
NumPy's array-function dispatchers, bound methods such as ``np.random.normal``; classes
excluded) or of a class (``"numpy.ndarray"``, ``"numpy.random.Generator"``: its public
methods) into one of :data:`CATEGORIES`:

``frule+rrule``, ``rrule only``, ``frule only``
    Rules are registered (at least one signature is not a non-differentiable declaration).
``non-differentiable``
    Every registered signature is a :func:`~chainrules_core.non_differentiable`
    declaration (outputs are integers, booleans, or do not depend on the arguments' values).
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

from chainrules_core import frule, rrule

CATEGORIES = ("frule+rrule", "rrule only", "frule only", "non-differentiable", "in-place (error)", "not numeric",
              "not covered")
"""The categories of the report, in the order they are printed."""

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
}
"""Public callables that take no numbers to differentiate, per module."""


def _rule_kinds(registry: Any, f: Any) -> set[str]:
    """The kinds of the rules registered for ``f``: ``"rule"``, ``"non-differentiable"``, ``"in-place"``."""
    kinds = set()
    for sig in registry.signatures(f):
        if sig.opt_out or sig.impl is None:
            continue
        name = getattr(sig.impl, "__name__", "")
        if name.startswith("non_differentiable_"):
            kinds.add("non-differentiable")
        elif name.startswith("in_place_"):
            kinds.add("in-place")
        else:
            kinds.add("rule")
    return kinds


def _lookup_key(f: Any) -> Any:
    """The callable rules are registered on: a bound method's function (``np.random.normal``)."""
    if isinstance(f, types.MethodType):
        return f.__func__
    return f


def _resolve(name: str) -> Any:
    """A module, or a class inside one (``"numpy.random.Generator"``)."""
    try:
        return importlib.import_module(name)
    except ImportError:
        module_name, _, attribute = name.rpartition(".")
        if not module_name:
            raise
        return getattr(_resolve(module_name), attribute)


def public_callables(module_name: str) -> dict[str, Any]:
    """Public callables of a module (functions, ufuncs, dispatchers, bound methods), by name.

    Classes are excluded; for a class name (``"numpy.ndarray"``), its public methods.

    Examples
    --------
    >>> from chainrules.coverage import public_callables
    >>> "sin" in public_callables("numpy"), "reshape" in public_callables("numpy.ndarray")
    (True, True)
    """
    owner = _resolve(module_name)
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


def classify(f: Any, name: str = "", module_name: str = "") -> str:
    """The category of one callable (see :data:`CATEGORIES`).

    Examples
    --------
    >>> import numpy as np
    >>> import chainrules
    >>> from chainrules.coverage import classify
    >>> classify(np.reshape), classify(np.put)
    ('frule+rrule', 'in-place (error)')
    """
    import chainrules  # noqa: F401  (registers the rules)

    key = _lookup_key(f)
    r_kinds, f_kinds = _rule_kinds(rrule, key), _rule_kinds(frule, key)
    if "rule" in r_kinds or "rule" in f_kinds:
        if "rule" in r_kinds and "rule" in f_kinds:
            return "frule+rrule"
        return "rrule only" if "rule" in r_kinds else "frule only"
    if "in-place" in r_kinds:
        return "in-place (error)"
    if "non-differentiable" in r_kinds:
        return "non-differentiable"
    if name in NOT_NUMERIC.get(module_name, ()):
        return "not numeric"
    return "not covered"


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
    return {name: classify(f, name, module_name) for name, f in public_callables(module_name).items()}


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


def print_coverage(module_name: str) -> int:
    """Print the coverage report of ``module_name`` and the counts per category; return 0."""
    report = coverage(module_name)
    for category in CATEGORIES:
        names = sorted(n for n, c in report.items() if c == category)
        if names:
            print(f"{category} ({len(names)}):")
            print("  " + ", ".join(names))
    tally = counts(report)
    print("\n" + ", ".join(f"{c}: {n}" for c, n in tally.items()) + f"; total {len(report)}")
    return 0
