"""Build the intersphinx inventories of NumPy, SciPy and Python offline, from the installed packages.

The documentation links to NumPy, SciPy and Python through intersphinx. With the network,
Sphinx reads each project's published ``objects.inv``; without it, it reads the files this
script writes to ``docs/_inventories/``. They list the public objects of the installed
NumPy, SciPy and Python (found by introspection) at the URLs each project's documentation
gives them:

* NumPy: ``reference/generated/numpy.NAME.html`` for functions, ufuncs, ``numpy.linalg``,
  ``numpy.fft`` and ``ndarray`` members; ``reference/random/generated/...`` for
  ``numpy.random``, ``Generator`` and ``RandomState``; scalar types on
  ``reference/arrays.scalars.html``;
* SciPy: ``reference/generated/scipy.MODULE.NAME.html`` (and the methods of the sparse
  array classes), modules on ``reference/MODULE.html``;
* Python: builtins on ``library/functions.html`` and ``library/stdtypes.html``, exceptions
  on ``library/exceptions.html``, a standard module's members on ``library/MODULE.html``.

Run it after upgrading NumPy or SciPy::

    python docs/_ext/inventories.py
"""

from __future__ import annotations

import builtins
import importlib
import inspect
import sys
import zlib
from collections.abc import Iterable
from pathlib import Path
from typing import Any

OUT = Path(__file__).resolve().parent.parent / "_inventories"

Entry = tuple[str, str, str]  # (name, domain:role, uri)


def _role(obj: Any) -> str:
    if inspect.ismodule(obj):
        return "py:module"
    if isinstance(obj, type):
        return "py:exception" if issubclass(obj, BaseException) else "py:class"
    if inspect.isroutine(obj) or type(obj).__name__ == "_ArrayFunctionDispatcher":
        return "py:function"
    return "py:data"  # ufuncs and constants are documented as data by NumPy and SciPy


def _public(module: Any) -> list[str]:
    names = getattr(module, "__all__", None) or [n for n in dir(module) if not n.startswith("_")]
    return sorted(n for n in names if not n.startswith("_") and hasattr(module, n))


def _members(cls: type) -> Iterable[tuple[str, str]]:
    for name in sorted(dir(cls)):
        if name.startswith("_"):
            continue
        attr = inspect.getattr_static(cls, name, None)
        if attr is None:
            continue
        kind = "py:attribute" if isinstance(attr, property) or type(attr).__name__ == "getset_descriptor" else \
            "py:method"
        yield name, kind


def numpy_entries() -> list[Entry]:
    import numpy as np

    out: list[Entry] = [("numpy", "py:module", "reference/index.html#module-numpy")]
    scalar_types = {"generic", "number", "integer", "signedinteger", "unsignedinteger", "inexact", "floating",
                    "complexfloating", "bool", "bool_", "int8", "int16", "int32", "int64", "uint8", "uint16",
                    "uint32", "uint64", "intp", "uintp", "float16", "float32", "float64", "longdouble",
                    "complex64", "complex128", "clongdouble", "object_", "str_", "bytes_", "void", "datetime64",
                    "timedelta64"}
    for name in _public(np):
        obj = getattr(np, name)
        full = f"numpy.{name}"
        if inspect.ismodule(obj):
            continue
        if name in scalar_types:
            out.append((full, "py:class", "reference/arrays.scalars.html#$"))
        elif isinstance(obj, type) and name not in ("ndarray", "ufunc", "dtype", "errstate", "vectorize",
                                                        "nditer", "broadcast", "ndenumerate", "ndindex",
                                                        "memmap", "recarray", "record", "matrix", "flatiter",
                                                        "finfo", "iinfo", "poly1d", "busdaycalendar"):
            continue  # other classes live on pages with other layouts
        else:
            out.append((full, _role(obj), "reference/generated/$.html#$"))
    for cls_name in ("ndarray", "ufunc", "dtype"):
        for member, kind in _members(getattr(np, cls_name)):
            out.append((f"numpy.{cls_name}.{member}", kind, "reference/generated/$.html#$"))
    for sub, page in (("linalg", "routines.linalg"), ("fft", "routines.fft")):
        module = importlib.import_module(f"numpy.{sub}")
        out.append((f"numpy.{sub}", "py:module", f"reference/{page}.html#module-$"))
        for name in _public(module):
            obj = getattr(module, name)
            if not isinstance(obj, type) and callable(obj):
                out.append((f"numpy.{sub}.{name}", _role(obj), "reference/generated/$.html#$"))
    out.append(("numpy.random", "py:module", "reference/random/index.html#module-$"))
    out.append(("numpy.random.Generator", "py:class", "reference/random/generator.html#$"))
    out.append(("numpy.random.default_rng", "py:function", "reference/random/generator.html#$"))
    out.append(("numpy.random.RandomState", "py:class", "reference/random/legacy.html#$"))
    for name in _public(np.random):
        obj = getattr(np.random, name)
        if callable(obj) and not isinstance(obj, type) and name != "default_rng":
            out.append((f"numpy.random.{name}", "py:function", "reference/random/generated/$.html#$"))
    for cls_name in ("Generator", "RandomState"):
        for member, kind in _members(getattr(np.random, cls_name)):
            out.append((f"numpy.random.{cls_name}.{member}", kind, "reference/random/generated/$.html#$"))
    return out


SCIPY_MODULES = ("linalg", "special", "sparse", "sparse.linalg", "integrate", "optimize", "fft", "interpolate",
                 "signal", "stats", "ndimage")


def scipy_entries() -> list[Entry]:
    out: list[Entry] = [("scipy", "py:module", "reference/index.html#module-scipy")]
    for sub in SCIPY_MODULES:
        try:
            module = importlib.import_module(f"scipy.{sub}")
        except ImportError:
            continue
        out.append((f"scipy.{sub}", "py:module", f"reference/{sub}.html#module-$"))
        for name in _public(module):
            obj = getattr(module, name)
            if inspect.ismodule(obj):
                continue
            full = f"scipy.{sub}.{name}"
            out.append((full, _role(obj), "reference/generated/$.html#$"))
            if sub == "sparse" and isinstance(obj, type) and name.endswith(("_array", "_matrix")):
                for member, kind in _members(obj):
                    out.append((f"{full}.{member}", kind, "reference/generated/$.html#$"))
    return out


STDTYPES = {"list", "tuple", "dict", "set", "frozenset", "str", "bytes", "bytearray", "range", "memoryview"}
PYTHON_MODULES = ("math", "cmath", "operator", "typing", "collections.abc", "numbers", "dataclasses", "functools",
                  "itertools", "warnings", "threading", "contextlib", "inspect", "importlib", "argparse", "os")


def python_entries() -> list[Entry]:
    out: list[Entry] = []
    for name in sorted(dir(builtins)):
        if name.startswith("_"):
            continue
        obj = getattr(builtins, name)
        if isinstance(obj, type) and issubclass(obj, BaseException):
            out.append((name, "py:exception", "library/exceptions.html#$"))
        elif name in STDTYPES:
            out.append((name, "py:class", "library/stdtypes.html#$"))
        elif isinstance(obj, type) or callable(obj):
            out.append((name, _role(obj), "library/functions.html#$"))
    out.append(("None", "py:data", "library/constants.html#$"))
    out.append(("NotImplemented", "py:data", "library/constants.html#$"))
    out.append(("Ellipsis", "py:data", "library/constants.html#$"))
    for module_name in PYTHON_MODULES:
        module = importlib.import_module(module_name)
        out.append((module_name, "py:module", f"library/{module_name}.html#module-$"))
        for name in _public(module):
            obj = getattr(module, name)
            if inspect.ismodule(obj):
                continue
            out.append((f"{module_name}.{name}", _role(obj), f"library/{module_name}.html#$"))
    return out


def write_inventory(path: Path, project: str, version: str, entries: Iterable[Entry]) -> int:
    """Write an intersphinx inventory (version 2); return the number of entries."""
    seen: dict[tuple[str, str], str] = {}
    for name, role, uri in entries:  # a "$" ending the URI stands for the name; one inside is spelled out
        head, tail = (uri[:-1], "$") if uri.endswith("$") else (uri, "")
        seen.setdefault((name, role), head.replace("$", name) + tail)
    lines = [f"{name} {role} 1 {uri} -" for (name, role), uri in sorted(seen.items())]
    header = (f"# Sphinx inventory version 2\n# Project: {project}\n# Version: {version}\n"
              "# The remainder of this file is compressed using zlib.\n").encode()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(header + zlib.compress(("\n".join(lines) + "\n").encode()))
    return len(lines)


def main() -> int:
    import numpy
    import scipy

    python_version = f"{sys.version_info.major}.{sys.version_info.minor}"
    for name, project, version, entries in (
        ("numpy", "NumPy", numpy.__version__, numpy_entries()),
        ("scipy", "SciPy", scipy.__version__, scipy_entries()),
        ("python", "Python", python_version, python_entries()),
    ):
        n = write_inventory(OUT / f"{name}.inv", project, version, entries)
        print(f"wrote {OUT / (name + '.inv')}: {n} objects ({project} {version})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
