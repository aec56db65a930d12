"""The Gaussian-process example (``examples/gaussian_process.py``), at N = 20."""

from __future__ import annotations

import doctest
import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import autograd
import numpy as np
import pytest
import scipy.linalg

from chainrules import rrule_via_ad
from chainrules.interop.autograd import AutogradConfig, primitive
from chainrules.testing import PrimalAndTangent, check_approx, jvp, test_rrule

CONFIG = AutogradConfig()
EXAMPLES = Path(__file__).resolve().parents[4] / "examples"


def load_example(name: str) -> ModuleType:
    """Import ``examples/<name>.py`` once per process (its rules register on import)."""
    module_name = f"chainrules_examples.{name}"
    if module_name not in sys.modules:
        spec = importlib.util.spec_from_file_location(module_name, EXAMPLES / f"{name}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[module_name] = module
        spec.loader.exec_module(module)
    return sys.modules[module_name]


gp = load_example("gaussian_process")
N = 20
PARAMS = np.array([0.2, -0.3, np.log(0.1)])


@pytest.fixture
def data() -> tuple[np.ndarray, np.ndarray]:
    return gp.make_data(N)


def _kernel(X: np.ndarray, params: np.ndarray = PARAMS) -> np.ndarray:
    return np.asarray(gp.rbf_kernel(params, gp.squared_distances(X)))


def test_the_example_module_doctests() -> None:
    failures, tried = doctest.testmod(gp, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert tried > 0 and failures == 0


def test_gaussian_nlml_is_the_gaussian_log_density(data: tuple[np.ndarray, np.ndarray]) -> None:
    from scipy.stats import multivariate_normal

    X, y = data
    Kf = _kernel(X)
    expected = -multivariate_normal(cov=Kf + 0.1 * np.eye(N)).logpdf(y)
    assert np.isclose(gp.gaussian_nlml(Kf, 0.1, y), expected)


def test_gaussian_nlml_rule(data: tuple[np.ndarray, np.ndarray]) -> None:
    X, y = data
    Kf = _kernel(X)
    rng = np.random.default_rng(1)
    direction = rng.standard_normal((N, N))
    # the tangent of Kf stays symmetric so that Kf + noise I stays positive definite along it
    test_rrule(gp.gaussian_nlml, PrimalAndTangent(Kf, direction + direction.T), 0.1, y)
    test_rrule(gp.gaussian_nlml, Kf, 0.05, y, output_tangent=2.5)


def test_the_pullback_can_run_twice(data: tuple[np.ndarray, np.ndarray]) -> None:
    X, y = data
    Kf = _kernel(X)
    _, pullback = gp.gaussian_nlml_rrule(Kf, 0.1, y)
    first = pullback(1.0)  # turns the factor into K^{-1} in place
    second = pullback(1.0)  # factors again
    for a, b in zip(first[1:], second[1:]):
        check_approx(a, b)


def test_rbf_kernel_rule(data: tuple[np.ndarray, np.ndarray]) -> None:
    X, _ = data
    D2 = gp.squared_distances(X[:6])
    test_rrule(gp.rbf_kernel, PARAMS, D2)
    test_rrule(gp.rbf_kernel, PARAMS.astype(np.float32), D2)
    check_approx(gp.rbf_kernel(PARAMS, D2), gp.rbf_kernel_traceable(PARAMS, D2))


def test_gaussian_nlml_reads_the_upper_triangle(data: tuple[np.ndarray, np.ndarray]) -> None:
    X, y = data
    Kf = _kernel(X)
    garbage = Kf + np.tril(np.full((N, N), 7.0), -1)
    assert gp.gaussian_nlml(garbage, 0.1, y) == gp.gaussian_nlml(Kf, 0.1, y)


def test_cho_inverse(data: tuple[np.ndarray, np.ndarray]) -> None:
    X, _ = data
    K = _kernel(X) + 0.1 * np.eye(N)
    lower = gp.cho_inverse(np.linalg.cholesky(K))
    assert np.all(np.triu(lower, 1) == 0)
    check_approx(np.tril(lower) + np.tril(lower, -1).T, np.linalg.inv(K))
    big = np.eye(100) * 2.0 + 0.01  # several levels of blocks
    lower = gp.cho_inverse(np.linalg.cholesky(big))
    check_approx(np.tril(lower) + np.tril(lower, -1).T, np.linalg.inv(big))
    with pytest.raises(np.linalg.LinAlgError):
        gp.gaussian_nlml(-np.eye(3), 0.0, np.ones(3))


def test_nlml_gradient_by_autograd(data: tuple[np.ndarray, np.ndarray]) -> None:
    X, y = data
    test_rrule(lambda p: gp.nlml(p, X, y), PARAMS, config=CONFIG, rrule_f=rrule_via_ad, check_inplace_add=False)
    value, grad = gp.nlml_and_grad(PARAMS, X, y)
    assert value == gp.nlml(PARAMS, X, y)
    for direction in np.eye(3):
        check_approx(grad @ direction, jvp(None, lambda p: gp.nlml(p, X, y), (PARAMS, direction)))


def test_the_kernel_differentiated_by_autograd(data: tuple[np.ndarray, np.ndarray]) -> None:
    X, y = data
    assert np.isclose(gp.nlml_autograd_kernel(PARAMS, X, y), gp.nlml(PARAMS, X, y))
    test_rrule(lambda p: gp.nlml_autograd_kernel(p, X, y), PARAMS, config=CONFIG, rrule_f=rrule_via_ad,
               check_inplace_add=False)


def test_the_composed_likelihood_three_ways(data: tuple[np.ndarray, np.ndarray]) -> None:
    X, y = data
    assert np.isclose(gp.nlml_composed(PARAMS, X, y), gp.nlml(PARAMS, X, y))
    cholesky = primitive(scipy.linalg.cholesky)
    solve_triangular = primitive(scipy.linalg.solve_triangular)

    def with_chainrules(p: Any) -> Any:
        return gp.nlml_composed(p, X, y, cholesky=lambda K: cholesky(K, lower=True), solve_triangular=solve_triangular)

    test_rrule(with_chainrules, PARAMS, config=CONFIG, rrule_f=rrule_via_ad, check_inplace_add=False)
    test_rrule(lambda p: gp.nlml_composed(p, X, y), PARAMS, config=CONFIG, rrule_f=rrule_via_ad,
               check_inplace_add=False)  # autograd's own rules
    check_approx(autograd.grad(with_chainrules)(PARAMS), gp.nlml_and_grad(PARAMS, X, y)[1])


def test_fit(data: tuple[np.ndarray, np.ndarray]) -> None:
    X, y = data
    result = gp.fit(X, y)
    assert result.success
    assert result.fun < gp.nlml(np.array([0.0, 0.0, np.log(0.1)]), X, y)
    assert np.linalg.norm(result.jac) < 1e-3  # a stationary point
    check_approx(result.jac, gp.nlml_and_grad(result.x, X, y)[1])


def test_main_prints_the_fit(capsys: pytest.CaptureFixture[str]) -> None:
    result = gp.main(N)
    out = capsys.readouterr().out
    assert f"fitted a GP to {N} points" in out and "lengthscale" in out
    assert result.success
