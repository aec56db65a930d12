"""Loading third-party rule packages declared under the entry-point group ``chainrules.rulesets``.

A package that ships rules declares, in its ``pyproject.toml``::

    [project.entry-points."chainrules.rulesets"]
    mypackage = "mypackage.chainrules_rules"

``import chainrules`` then imports ``mypackage.chainrules_rules`` after the built-in
rulesets, which registers whatever rules that module defines. If the entry point names a
callable instead of a module (``"mypackage.rules:register"``), it is called with no
arguments. Set the environment variable ``CHAINRULES_NO_PLUGINS=1`` to skip plugins. A
plugin that fails to load is reported with a :class:`PluginLoadWarning`; it never breaks
``import chainrules``.

Finding the entry points is on the path of every ``import chainrules``, so it reads the
``entry_points.txt`` files of the installed distributions directly (the ``*.dist-info`` and
``*.egg-info`` directories of each ``sys.path`` directory, first distribution of a name
wins, as :func:`importlib.metadata.entry_points` does) rather than importing
:mod:`importlib.metadata`, which alone costs about as much as the core. When ``sys.path``
holds a zip archive, whose metadata that scan cannot read, it falls back on
:mod:`importlib.metadata`.
"""

from __future__ import annotations

import importlib
import os
import sys
import types
import warnings
from typing import Any

PLUGIN_GROUP = "chainrules.rulesets"
"""The entry-point group scanned by :func:`load_plugins`."""

DISABLE_VARIABLE = "CHAINRULES_NO_PLUGINS"
"""Environment variable that, when set to a non-empty value other than ``0``, skips plugins."""

_loaded: dict[str, Any] = {}


class PluginLoadWarning(UserWarning):
    """A ``chainrules.rulesets`` entry point could not be loaded."""


def plugins_disabled() -> bool:
    """Return whether plugin loading is switched off by ``CHAINRULES_NO_PLUGINS``.

    Examples
    --------
    >>> import os
    >>> from chainrules._plugins import plugins_disabled
    >>> isinstance(plugins_disabled(), bool)
    True
    """
    return os.environ.get(DISABLE_VARIABLE, "") not in ("", "0")


def load_plugins() -> dict[str, Any]:
    """Import every rule package declared under ``chainrules.rulesets``; return them by name.

    Each entry point is loaded once; loading twice is a no-op.

    Examples
    --------
    >>> from chainrules import load_plugins
    >>> isinstance(load_plugins(), dict)
    True
    """
    for name, value in declared_entry_points():
        if name in _loaded:
            continue
        try:
            obj = _load(value)
            if callable(obj) and not isinstance(obj, types.ModuleType):
                obj()
        except Exception as err:  # a broken plugin must not break `import chainrules`
            warnings.warn(PluginLoadWarning(f"chainrules plugin {name!r} ({value}) failed to load: "
                                            f"{type(err).__name__}: {err}"), stacklevel=2)
            continue
        _loaded[name] = obj
    return dict(_loaded)


def declared_entry_points() -> list[tuple[str, str]]:
    """Return ``(name, value)`` of every entry point declared under ``chainrules.rulesets``.

    Examples
    --------
    >>> from chainrules._plugins import declared_entry_points
    >>> isinstance(declared_entry_points(), list)
    True
    """
    found: list[tuple[str, str]] = []
    seen: set[str] = set()
    for entry in sys.path:
        directory = entry or "."
        if not os.path.isdir(directory):
            if os.path.isfile(directory):  # a zip archive: only importlib.metadata reads those
                from importlib.metadata import entry_points

                return [(ep.name, ep.value) for ep in entry_points(group=PLUGIN_GROUP)]
            continue
        try:
            names = sorted(os.listdir(directory))
        except OSError:
            continue
        for child in names:
            if not child.endswith((".dist-info", ".egg-info")):
                continue
            distribution = _normalised(child.rpartition(".")[0].partition("-")[0])
            if distribution in seen:
                continue
            seen.add(distribution)
            found.extend(_entry_points_in(os.path.join(directory, child, "entry_points.txt")))
    return found


def _normalised(name: str) -> str:
    """A distribution's name as installers write it in metadata directory names (PEP 503-like)."""
    return name.replace("-", "_").replace(".", "_").lower()


def _entry_points_in(path: str) -> list[tuple[str, str]]:
    """The ``(name, value)`` pairs of the plugin group in one ``entry_points.txt`` (an INI file)."""
    try:
        with open(path, encoding="utf-8") as file:
            text = file.read()
    except OSError:
        return []
    if PLUGIN_GROUP not in text:
        return []
    pairs, in_group = [], False
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("[") and line.endswith("]"):
            in_group = line[1:-1].strip() == PLUGIN_GROUP
        elif in_group and "=" in line:
            name, _, value = line.partition("=")
            pairs.append((name.strip(), value.split("[")[0].strip()))  # drop "[extras]"
    return pairs


def _load(value: str) -> Any:
    """Import ``"package.module"`` or ``"package.module:attribute.path"`` (an entry point's value)."""
    module_name, _, attributes = value.partition(":")
    obj: Any = importlib.import_module(module_name.strip())
    for attribute in filter(None, attributes.strip().split(".")):
        obj = getattr(obj, attribute)
    return obj


def loaded_plugins() -> dict[str, Any]:
    """Return the plugins loaded so far, by entry-point name.

    Examples
    --------
    >>> from chainrules import loaded_plugins
    >>> isinstance(loaded_plugins(), dict)
    True
    """
    return dict(_loaded)
