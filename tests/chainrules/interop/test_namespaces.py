"""The ``scipy``/``numpy`` namespaces of the bridges, generated from the rule index."""

from __future__ import annotations

import importlib
import inspect
import sys
from typing import Any

import numpy as np
import pytest
import scipy.linalg
import scipy.special

from chainrules.interop._namespaces import RuleNamespace, public_rule_names, rule_namespace
from chainrules.rulesets._index import RULE_INDEX


def test_every_public_function_of_the_index_is_there_and_nothing_else() -> None:
    names = public_rule_names("scipy")
    indexed = {ref for refs in RULE_INDEX.values() for ref in refs if ref.startswith("scipy.special:")}
    assert names["scipy.special"] == {ref.partition(":")[2] for ref in indexed}
    assert all("." not in name for module in names.values() for name in module)  # no methods
    assert not any(part.startswith("_") for module in names for part in module.split("."))  # no private modules
    assert "cholesky" in public_rule_names("numpy")["numpy.linalg"]


def test_functions_are_wrapped_on_first_use_once_and_keep_their_names() -> None:
    wrapped: list[Any] = []

    def wrap(f: Any) -> Any:
        wrapped.append(f)

        def bridged(*args: Any, **kwargs: Any) -> Any:
            return f(*args, **kwargs)

        bridged.__wrapped__ = f  # type: ignore[attr-defined]
        bridged.__doc__ = f.__doc__
        return bridged

    sp = rule_namespace("scipy", wrap, "test_namespaces_bridge")
    assert isinstance(sp, RuleNamespace) and wrapped == []
    assert sys.modules["test_namespaces_bridge.scipy.linalg"] is sp.linalg
    assert importlib.import_module("test_namespaces_bridge.scipy.sparse.linalg") is sp.sparse.linalg
    expm = sp.linalg.expm
    assert sp.linalg.expm is expm and wrapped == [scipy.linalg.expm]
    assert inspect.signature(expm) == inspect.signature(scipy.linalg.expm)
    assert "expm" in dir(sp.linalg) and "linalg" in dir(sp)
    with pytest.raises(AttributeError, match=r"scipy\.special\.geterr has no chainrules rule"):
        sp.special.geterr  # noqa: B018
    with pytest.raises(AttributeError, match="has no attribute 'nonexistent'"):
        sp.special.nonexistent  # noqa: B018
    assert "functions of scipy.special" in repr(sp.special)
    for name in list(sys.modules):
        if name.startswith("test_namespaces_bridge"):
            del sys.modules[name]


def test_the_autograd_bridges_namespaces() -> None:
    autograd = pytest.importorskip("autograd")
    import autograd.numpy as anp

    from chainrules.interop.autograd import numpy as anr
    from chainrules.interop.autograd import scipy as asp

    g = autograd.grad(lambda a: anp.trace(asp.linalg.sqrtm(a)))(np.array([[2.0, 0.5], [0.5, 1.0]]))
    np.testing.assert_allclose(g, 0.5 * np.linalg.inv(scipy.linalg.sqrtm(np.array([[2.0, 0.5], [0.5, 1.0]]))).T)
    assert anr.linalg.eigvalsh.fun is np.linalg.eigvalsh
    assert asp.special.jv.__doc__ == scipy.special.jv.__doc__


def test_star_import_takes_every_function() -> None:
    sp = rule_namespace("scipy", lambda f: f, "test_namespaces_star")
    scope: dict[str, Any] = {}
    exec("from test_namespaces_star.scipy.linalg import *", scope)
    assert scope["expm"] is scipy.linalg.expm and set(sp.linalg.__all__) <= set(scope)
    for name in list(sys.modules):
        if name.startswith("test_namespaces_star"):
            del sys.modules[name]
