"""Coverage of a module's public functions by rules: frule+rrule, rrule only, non-differentiable, or none."""

from __future__ import annotations

import importlib
from collections import Counter
from typing import Any

from chainrules_core import frule, rrule

CATEGORIES = ("frule+rrule", "rrule only", "frule only", "non-differentiable", "not covered")


def _is_non_differentiable(f: Any) -> bool:
    for sig in rrule.signatures(f):
        impl = sig.impl
        if impl is not None and getattr(impl, "__name__", "") == "non_differentiable_rrule":
            return True
    return False


def public_callables(module_name: str) -> dict[str, Any]:
    """Public callables of a module (functions, ufuncs, dispatchers), by name, excluding classes.

    Examples
    --------
    >>> from chainrules.coverage import public_callables
    >>> "sin" in public_callables("numpy")
    True
    """
    module = importlib.import_module(module_name)
    names = getattr(module, "__all__", None) or [n for n in dir(module) if not n.startswith("_")]
    out = {}
    for name in names:
        obj = getattr(module, name, None)
        if obj is None or isinstance(obj, type) or not callable(obj) or type(obj).__name__ == "module":
            continue
        out[name] = obj
    return out


def coverage(module_name: str) -> dict[str, str]:
    """Classify every public callable of ``module_name``.

    Returns
    -------
    dict
        Name -> one of ``CATEGORIES``.

    Examples
    --------
    >>> import chainrules
    >>> from chainrules.coverage import coverage
    >>> coverage("numpy")["sin"]
    'frule+rrule'
    """
    import chainrules  # noqa: F401  (registers the rules)

    report = {}
    for name, f in public_callables(module_name).items():
        has_r = bool(rrule.signatures(f))
        has_f = bool(frule.signatures(f))
        if has_r and _is_non_differentiable(f):
            report[name] = "non-differentiable"
        elif has_r and has_f:
            report[name] = "frule+rrule"
        elif has_r:
            report[name] = "rrule only"
        elif has_f:
            report[name] = "frule only"
        else:
            report[name] = "not covered"
    return report


def print_coverage(module_name: str) -> int:
    """Print the coverage report of ``module_name`` and the counts per category."""
    report = coverage(module_name)
    for category in CATEGORIES:
        names = sorted(n for n, c in report.items() if c == category)
        if names:
            print(f"{category} ({len(names)}):")
            print("  " + ", ".join(names))
    counts = Counter(report.values())
    print("\n" + ", ".join(f"{c}: {counts.get(c, 0)}" for c in CATEGORIES) + f"; total {len(report)}")
    return 0
