"""Loading the built-in rulesets on first use, from a generated index.

``import chainrules`` does not import the ruleset modules. It reads
:mod:`chainrules.rulesets._index` (which functions each module registers rules for) and
declares each module with :func:`chainrules_core.declare_lazy_rules`; the first lookup of
one of its functions imports the module. Everything that asks about all rules
(``rrule.functions()``, ``on_new_rule`` hooks, the coverage report) imports all of them.
Modules whose functions cannot be named by a public ``module:qualname`` reference are
imported at once.

The environment variable ``CHAINRULES_RULESETS`` chooses: ``lazy`` (default), ``eager``
(import every ruleset module at ``import chainrules``).

The index is generated, never edited by hand::

    python -m chainrules index --write

and a test checks it is up to date, so a rule added without regenerating it fails CI with
that command in the message.
"""

from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
import sys
import warnings
from pathlib import Path
from typing import Any

PACKAGE = "chainrules.rulesets"
PUBLIC_MODULES = ("numpy", "numpy.linalg", "numpy.fft", "scipy.linalg", "scipy.special", "scipy.stats", "scipy.sparse",
                  "scipy.sparse.linalg", "scipy.fft", "scipy.signal", "scipy.signal.windows", "scipy.integrate",
                  "scipy.optimize", "scipy.ndimage", "scipy.interpolate", "operator", "math",
                  "builtins", "chainrules.structured")
"""Modules searched first for a public name of a function with rules."""

DEFERRED_MODULES = ("scipy.signal", "scipy.signal.windows")
"""Modules ``import chainrules`` does not import to declare rules for their functions: they are
costly to import (``scipy.signal`` brings ``scipy.stats``, ``scipy.interpolate``,
``scipy.ndimage`` and ``scipy.spatial``, about 0.9 s on a loaded two-core machine). Their
functions are declared by name and looked up once the user has imported the module
(:func:`chainrules_core.lazy.declare_deferred_rules`)."""


def ruleset_modules() -> list[str]:
    """Every module of the rulesets that can hold rules (private helper modules excluded).

    Examples
    --------
    >>> from chainrules.rulesets._lazy import ruleset_modules
    >>> "chainrules.rulesets.elementwise.trigonometric" in ruleset_modules()
    True
    """
    package = importlib.import_module(PACKAGE)
    out = []
    for info in pkgutil.walk_packages(package.__path__, PACKAGE + "."):
        last = info.name.rsplit(".", 1)[-1]
        if not info.ispkg and not last.startswith("_"):
            out.append(info.name)
    return sorted(out)


def resolve(reference: str) -> Any:
    """The object a ``module:qualname`` reference names.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets._lazy import resolve
    >>> resolve("numpy:ndarray.sum") is np.ndarray.sum
    True
    """
    module, _, qualname = reference.partition(":")
    obj: Any = importlib.import_module(module)
    for part in qualname.split("."):
        obj = getattr(obj, part)
    return obj


def reference(f: Any) -> str | None:
    """A public ``module:qualname`` reference that resolves to ``f`` itself, or None.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets._lazy import reference
    >>> reference(np.sin), reference(np.ndarray.sum), reference(np.linalg.det)
    ('numpy:sin', 'numpy:ndarray.sum', 'numpy.linalg:det')
    """
    name = getattr(f, "__name__", None)
    qualname = getattr(f, "__qualname__", None) or name
    owner = getattr(f, "__objclass__", None)
    candidates = []
    if owner is not None and name:  # a method descriptor: Class.method
        for module in (*PUBLIC_MODULES, owner.__module__):
            candidates.append(f"{module}:{owner.__name__}.{name}")
    if name:
        candidates.extend(f"{module}:{name}" for module in PUBLIC_MODULES)
    module_name = getattr(f, "__module__", None)
    if module_name and qualname:
        candidates.append(f"{module_name}:{qualname}")
        candidates.append(f"{module_name}:{qualname}.fget")  # a property's getter (``x.T``)
    for candidate in candidates:
        try:
            with warnings.catch_warnings():  # probing names such as numpy:bytes may warn
                warnings.simplefilter("ignore")
                if resolve(candidate) is f:
                    return candidate
        except (ImportError, AttributeError):
            continue
    return None


def build_index() -> tuple[dict[str, list[str]], list[str]]:
    """Import every ruleset module and record, per module, the functions it registers rules for.

    Run in a fresh interpreter with ``CHAINRULES_RULESETS=none`` (as ``--write`` does), so
    that nothing is registered before the recording starts.

    Returns
    -------
    (index, eager) : module -> sorted references; modules with a function no reference names.
    """
    from chainrules_core import frule, rrule

    found: dict[str, set[str]] = {}
    eager: set[str] = set()
    members = set(ruleset_modules())

    def record(f: Any, signature: Any) -> None:
        frame: Any = sys._getframe(1)
        while frame is not None:  # the ruleset module whose top level is registering
            name = frame.f_globals.get("__name__", "")
            if name in members and frame.f_code.co_name == "<module>":
                break
            frame = frame.f_back
        if frame is None:
            return
        module = frame.f_globals["__name__"]
        ref = reference(f)
        if ref is None:
            eager.add(module)
        else:
            found.setdefault(module, set()).add(ref)

    handles = [rrule.on_new_rule(record), frule.on_new_rule(record)]
    try:
        for module in sorted(members):
            importlib.import_module(module)
    finally:
        for handle in handles:
            handle.remove()
    index = {m: sorted(refs) for m, refs in sorted(found.items()) if m not in eager}
    return index, sorted(eager)


def index_source(index: dict[str, list[str]], eager: list[str]) -> str:
    """The text of ``_index.py`` for an index."""
    header = ('"""Generated by ``python -m chainrules index --write``: do not edit.\n\n'
              "Which functions each ruleset module registers rules for (``module:qualname``), and the\n"
              'modules imported at once because some function they cover has no public name.\n"""\n\n')
    lines = [header + "RULE_INDEX: dict[str, list[str]] = {"]
    for module, references in index.items():
        lines.append(f"    {module!r}: [")
        lines.extend(f"        {ref!r}," for ref in references)
        lines.append("    ],")
    lines.append("}\n")
    lines.append("EAGER_MODULES: list[str] = [")
    lines.extend(f"    {module!r}," for module in eager)
    lines.append("]\n")
    return "\n".join(lines)


def declare_rulesets() -> None:
    """Declare (or, in eager mode, import) the built-in rulesets; called by ``chainrules.rulesets``."""
    mode = os.environ.get("CHAINRULES_RULESETS", "lazy")
    if mode == "none":
        return
    try:
        from chainrules.rulesets._index import EAGER_MODULES, RULE_INDEX
    except ImportError:  # no index yet: import everything
        mode = "eager"
    if mode == "eager":
        for module in ruleset_modules():
            importlib.import_module(module)
        return
    from chainrules_core import declare_lazy_rules
    from chainrules_core.lazy import declare_deferred_rules

    indexed = set(RULE_INDEX) | set(EAGER_MODULES)
    for module in EAGER_MODULES:
        importlib.import_module(module)
    for module, references in RULE_INDEX.items():
        functions = []
        deferred: dict[str, list[str]] = {}
        for ref in references:
            owner, _, qualname = ref.partition(":")
            if owner in DEFERRED_MODULES and owner not in sys.modules:
                deferred.setdefault(owner, []).append(qualname)
                continue
            try:
                functions.append(resolve(ref))
            except (ImportError, AttributeError):  # another NumPy/SciPy version: not there
                continue
        declare_lazy_rules(module, functions)
        for owner, qualnames in deferred.items():
            declare_deferred_rules(module, owner, qualnames)
    for module in ruleset_modules():  # a module the index does not know yet: import it now
        if module not in indexed:
            importlib.import_module(module)


def main(argv: list[str] | None = None) -> int:
    """``python -m chainrules index [--write | --check]``."""
    parser = argparse.ArgumentParser(prog="python -m chainrules index")
    parser.add_argument("--write", action="store_true", help="regenerate chainrules/rulesets/_index.py")
    parser.add_argument("--check", action="store_true", help="exit 1 if _index.py is out of date")
    args = parser.parse_args(argv)
    if os.environ.get("CHAINRULES_RULESETS") != "none":
        import subprocess

        env = dict(os.environ, CHAINRULES_RULESETS="none", CHAINRULES_NO_PLUGINS="1")
        code = "import sys; from chainrules.rulesets._lazy import main; sys.exit(main(sys.argv[1:]))"
        return subprocess.call([sys.executable, "-c", code, *(sys.argv[1:] if argv is None else argv)], env=env)
    text = index_source(*build_index())
    path = Path(__file__).with_name("_index.py")
    if args.write:
        path.write_text(text)
        print(f"wrote {path}")
        return 0
    if args.check:
        current = path.read_text() if path.exists() else ""
        if current != text:
            print(f"{path} is out of date: run python -m chainrules index --write")
            return 1
        print(f"{path} is up to date")
        return 0
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
