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


def test_objects_whose_methods_have_rules() -> None:
    import scipy.stats

    from chainrules.interop._namespaces import RuleObject

    wrapped: list[Any] = []

    def wrap(f: Any) -> Any:
        wrapped.append(f)
        return f

    sp = rule_namespace("scipy", wrap, "test_namespaces_objects")
    norm = sp.stats.norm
    assert isinstance(norm, RuleObject) and sp.stats.norm is norm and wrapped == []
    assert norm.logpdf == scipy.stats.norm.logpdf and wrapped == [scipy.stats.norm.logpdf]
    assert norm.name == "norm" and {"logpdf", "cdf", "mean"} <= set(dir(norm))
    assert "norm" in dir(sp.stats) and "multivariate_normal" in dir(sp.stats)
    frozen = norm(0.5, 2.0)
    assert isinstance(frozen, RuleObject) and frozen.cdf(0.5) == pytest.approx(0.5)
    assert isinstance(norm.freeze(0.5, 2.0), RuleObject)
    with pytest.raises(AttributeError, match=r"scipy\.stats\.norm\.fit has no chainrules rule"):
        norm.fit  # noqa: B018
    with pytest.raises(AttributeError, match=r"scipy\.stats\.rv_continuous has no chainrules rule"):
        sp.stats.rv_continuous  # noqa: B018  (a class, not an object)
    for name in list(sys.modules):
        if name.startswith("test_namespaces_objects"):
            del sys.modules[name]


def test_distributions_through_every_bridges_namespace() -> None:
    import scipy.stats

    x, mean, cov = np.array([[0.3, -1.2], [1.0, 0.4]]), np.array([0.1, -0.2]), np.array([[2.0, 0.3], [0.3, 1.0]])
    # d/dmean sum_i log N(x_i; mean, cov) = sum_i cov^-1 (x_i - mean), from the density's formula alone
    expected = np.linalg.solve(cov, (x - mean).sum(axis=0))
    autograd = pytest.importorskip("autograd")
    import autograd.numpy as anp

    from chainrules.interop.autograd import scipy as asp

    got = autograd.grad(lambda m: anp.sum(asp.stats.multivariate_normal.logpdf(x, m, cov)))(mean)
    np.testing.assert_allclose(got, expected, rtol=1e-12)
    got = autograd.grad(lambda v: anp.sum(asp.stats.multivariate_normal(mean, cov).logpdf(v)))(x)
    np.testing.assert_allclose(got, -np.linalg.solve(cov, (x - mean).T).T, rtol=1e-12)
    jax = pytest.importorskip("jax")
    from chainrules.interop.jax import scipy as jsp

    previous = jax.config.read("jax_enable_x64")
    jax.config.update("jax_enable_x64", True)
    try:
        logpdf = jsp.stats.multivariate_normal.logpdf
        got = jax.grad(lambda m: jax.numpy.sum(logpdf(x, m, cov)))(jax.numpy.asarray(mean))
    finally:
        jax.config.update("jax_enable_x64", previous)
    np.testing.assert_allclose(np.asarray(got), expected, rtol=1e-12)
    torch = pytest.importorskip("torch")
    from chainrules.interop.torch import scipy as tsp

    m = torch.tensor(mean, requires_grad=True)
    tsp.stats.multivariate_normal.logpdf(torch.tensor(x), m, torch.tensor(cov)).sum().backward()
    np.testing.assert_allclose(m.grad.numpy(), expected, rtol=1e-12)
    assert tsp.stats.norm.name == scipy.stats.norm.name


def test_every_family_with_rules_is_a_namespace_and_one_without_says_so() -> None:
    sp = rule_namespace("scipy", lambda f: f, "test_namespaces_families")
    for module, names in public_rule_names("scipy").items():
        namespace = importlib.import_module(module.replace("scipy", "test_namespaces_families.scipy", 1))
        assert set(namespace.__all__) == names and namespace.target == module
    for family in ("special", "stats", "integrate", "optimize", "fft", "signal"):
        assert getattr(sp, family).__all__, family
    with pytest.raises(AttributeError, match=r"no function of scipy\.cluster has a chainrules rule yet"):
        sp.cluster  # noqa: B018
    for name in list(sys.modules):
        if name.startswith("test_namespaces_families"):
            del sys.modules[name]
