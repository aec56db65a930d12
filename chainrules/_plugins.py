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
"""

from __future__ import annotations

import os
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
    from importlib.metadata import entry_points

    for ep in entry_points(group=PLUGIN_GROUP):
        if ep.name in _loaded:
            continue
        try:
            obj = ep.load()
            if callable(obj) and not isinstance(obj, types.ModuleType):
                obj()
        except Exception as err:  # a broken plugin must not break `import chainrules`
            warnings.warn(PluginLoadWarning(f"chainrules plugin {ep.name!r} ({ep.value}) failed to load: "
                                            f"{type(err).__name__}: {err}"), stacklevel=2)
            continue
        _loaded[ep.name] = obj
    return dict(_loaded)


def loaded_plugins() -> dict[str, Any]:
    """Return the plugins loaded so far, by entry-point name.

    Examples
    --------
    >>> from chainrules import loaded_plugins
    >>> isinstance(loaded_plugins(), dict)
    True
    """
    return dict(_loaded)
