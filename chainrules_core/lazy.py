"""Rules registered on first use: a module declares the functions its import registers.

A library with hundreds of rules would make its own import slow if every rule module ran at
import time. Instead it can declare, cheaply, which functions each module has rules for::

    declare_lazy_rules("mypackage.rules.trig", [np.sin, np.cos])

The first lookup that needs one of those functions (``rrule``, ``frule``, ``find``,
``signatures``, a cache miss) imports the module, whose registrations then answer as if
they had always been there. Anything that asks about *all* rules (``functions()``,
``on_new_rule``) imports every declared module first. Imports happen outside the
registries' locks, so two threads can never deadlock on the import lock and a registry
lock.

Functions of a module that is costly to import (``scipy.signal`` brings ``scipy.stats``,
``scipy.interpolate``, ``scipy.ndimage`` and ``scipy.spatial`` with it) can be declared by
name, without importing that module::

    declare_deferred_rules("mypackage.rules.filters", "scipy.signal", ["lfilter", "convolve"])

Nobody can call those functions before importing their module, so they are looked up by name
once it has been imported (at the next lookup that misses the registries' caches), and then
declared as above.

``chainrules`` uses this for its built-in rulesets (see ``chainrules.rulesets``); set the
environment variable ``CHAINRULES_RULESETS=eager`` to import every ruleset at once instead.
"""

from __future__ import annotations

import contextlib
import importlib
import sys
import threading
from collections.abc import Iterable
from typing import Any

_PENDING: dict[Any, set[str]] = {}  # callable -> modules whose import registers rules for it
_BY_MODULE: dict[str, list[Any]] = {}  # module -> the callables it declared
_IN_FLIGHT: dict[Any, set[str]] = {}  # callable -> its modules being imported now
_DEFERRED: dict[str, list[tuple[str, str]]] = {}  # owner module not imported yet -> [(rule module, qualname)]
_lock = threading.Lock()


def declare_lazy_rules(module: str, functions: Iterable[Any]) -> None:
    r"""Declare that importing ``module`` registers rules for ``functions``.

    Parameters
    ----------
    module : str
        The module to import on first use.
    functions : iterable of callables
        Every callable (function, ufunc, class, method) the module registers rules for.

    Examples
    --------
    >>> import pathlib, sys, tempfile
    >>> from chainrules_core import rrule, declare_lazy_rules
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "halving.py").write_text("def halve(x):\n    return x / 2\n")
    >>> _ = (folder / "halving_rules.py").write_text(
    ...     "from chainrules_core import rrule, NoTangent\n"
    ...     "from halving import halve\n"
    ...     "@rrule.register(halve, float)\n"
    ...     "def halve_rrule(x):\n"
    ...     "    def halve_pullback(dy):\n"
    ...     "        return NoTangent(), dy / 2\n"
    ...     "    return halve(x), halve_pullback\n")
    >>> sys.path.insert(0, str(folder))
    >>> from halving import halve
    >>> declare_lazy_rules("halving_rules", [halve])
    >>> "halving_rules" in sys.modules
    False
    >>> rrule(halve, 3.0)[0]
    1.5
    >>> "halving_rules" in sys.modules
    True
    >>> sys.path.remove(str(folder))
    """
    functions = list(functions)
    with _lock:
        _BY_MODULE.setdefault(module, []).extend(functions)
        for f in functions:
            with contextlib.suppress(TypeError):  # unhashable: rules cannot be keyed on it anyway
                _PENDING.setdefault(f, set()).add(module)


def declare_deferred_rules(module: str, owner: str, qualnames: Iterable[str]) -> None:
    r"""Declare that importing ``module`` registers rules for the functions ``owner.<qualname>``,
    without importing ``owner``.

    The functions are looked up in ``owner`` once it has been imported (by the user: nobody can
    call them before), at the next lookup that misses the registries' caches, and from then on
    behave as if declared with :func:`declare_lazy_rules`. If ``owner`` is imported already,
    they are declared at once. A name ``owner`` does not have (another version) is skipped.

    Examples
    --------
    >>> import pathlib, sys, tempfile
    >>> from chainrules_core import rrule
    >>> from chainrules_core.lazy import declare_deferred_rules
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "thirds.py").write_text("def third(x):\n    return x / 3\n")
    >>> _ = (folder / "thirds_rules.py").write_text(
    ...     "from chainrules_core import rrule, NoTangent\n"
    ...     "from thirds import third\n"
    ...     "@rrule.register(third, float)\n"
    ...     "def third_rrule(x):\n"
    ...     "    def third_pullback(dy):\n"
    ...     "        return NoTangent(), dy / 3\n"
    ...     "    return third(x), third_pullback\n")
    >>> sys.path.insert(0, str(folder))
    >>> declare_deferred_rules("thirds_rules", "thirds", ["third"])
    >>> "thirds" in sys.modules, "thirds_rules" in sys.modules
    (False, False)
    >>> from thirds import third
    >>> rrule(third, 3.0)[0]
    1.0
    >>> sys.path.remove(str(folder))
    """
    with _lock:
        _DEFERRED.setdefault(owner, []).extend((module, q) for q in qualnames)
        _resolve_deferred()


def _initialized(name: str) -> Any:
    """The module ``name`` if it is imported and its import has finished, else ``None``."""
    module = sys.modules.get(name)
    if module is None or getattr(getattr(module, "__spec__", None), "_initializing", False):
        return None
    return module


def _resolve_deferred() -> None:
    """Declare the deferred functions whose module has been imported (called under ``_lock``).

    Only ``getattr`` on finished modules: nothing is imported, so holding the lock is safe.
    """
    for owner in [o for o in _DEFERRED if _initialized(o) is not None]:
        namespace = sys.modules[owner]
        for module, qualname in _DEFERRED.pop(owner):
            f: Any = namespace
            try:
                for part in qualname.split("."):
                    f = getattr(f, part)
            except AttributeError:  # another version of the library: no such function
                continue
            _BY_MODULE.setdefault(module, []).append(f)
            with contextlib.suppress(TypeError):
                _PENDING.setdefault(f, set()).add(module)


def _candidates(f: Any) -> list[Any]:
    """The keys a lookup of ``f`` may resolve through: ``f``, its bases (constructors), its
    type's classes (functors)."""
    out = [f]
    if isinstance(f, type):
        out.extend(f.__mro__[1:])
    out.extend(type(f).__mro__)
    return out


def _claim(modules: set[str]) -> None:
    """Move the callables of ``modules`` from pending to in flight (called under ``_lock``).

    From here until the import of a module has finished, a lookup of any of its callables
    finds it in flight and imports (that is, waits for) the module itself, so no lookup
    ever answers "no rule" for a callable whose rules are being registered.
    """
    for module in modules:
        for g in _BY_MODULE.pop(module, ()):
            _IN_FLIGHT.setdefault(g, set()).add(module)
            pending = _PENDING.get(g)
            if pending is not None:
                pending.discard(module)
                if not pending:
                    del _PENDING[g]


def _import(modules: set[str]) -> None:
    """Import ``modules`` (claimed first), then take them off the in-flight table."""
    imported: set[str] = set()
    try:
        for module in sorted(modules):
            importlib.import_module(module)  # waits if another thread is importing it
            imported.add(module)
    finally:  # a module whose import failed stays in flight: the next lookup retries (and raises)
        with _lock:
            for key in list(_IN_FLIGHT):
                left = _IN_FLIGHT[key] - imported
                if left:
                    _IN_FLIGHT[key] = left
                else:
                    del _IN_FLIGHT[key]


def load_pending(f: Any) -> None:
    """Import the modules declared for ``f`` (and for what ``f`` resolves through), if any.

    A thread that arrives while another is importing one of those modules (for ``f``, or
    for :func:`load_all`) waits for that import to finish (through the module's import
    lock), so no lookup ever sees a module's rules half-registered.
    """
    if not _PENDING and not _IN_FLIGHT and not _DEFERRED:
        return
    modules: set[str] = set()
    with _lock:
        if _DEFERRED:
            _resolve_deferred()
        for key in _candidates(f):
            try:
                found = _PENDING.get(key)
                loading = _IN_FLIGHT.get(key)
            except TypeError:
                continue
            if found:
                modules |= found
            if loading:
                modules |= loading
        _claim(modules)
    if modules:
        _import(modules)


def load_all() -> None:
    """Import every declared module (for questions about all rules).

    Every declared module is claimed (put in flight) before the first import, so lookups
    running meanwhile in other threads wait for the modules they need instead of finding
    no rule.
    """
    with _lock:
        _resolve_deferred()
        deferred = {module for entries in _DEFERRED.values() for module, _ in entries}
        _DEFERRED.clear()  # importing their rule modules imports the owners and registers the rules
        modules = set(_BY_MODULE).union(*_IN_FLIGHT.values())  # in flight elsewhere: wait for them
        _claim(modules)
        modules |= deferred
    if modules:
        _import(modules)


def pending_modules() -> list[str]:
    """The declared modules not imported yet.

    Examples
    --------
    >>> from chainrules_core.lazy import pending_modules
    >>> isinstance(pending_modules(), list)
    True
    """
    with _lock:
        return sorted(set(_BY_MODULE) | {module for entries in _DEFERRED.values() for module, _ in entries})
