"""The gradient of a Gaussian process's negative log marginal likelihood, N = 400: autograd + chainrules and the rest.

The function (``examples/gaussian_process.py``): the RBF kernel of 400 points in 2-d for
three hyperparameters ``[log l, log s2, log n2]``, its Cholesky factor, a solve and the
log-determinant. Every benchmark is in one group whose baseline is the NumPy primal
(``nlml(params, X, y)`` on plain arrays), so each ratio is "gradient time / NumPy primal
time":

* ``autograd + chainrules (user rules)``: ``autograd.grad(nlml)``; the kernel
  (``rbf_kernel``) and the Gaussian part (``gaussian_nlml``: factor reused, ``K^{-1}`` by
  blocks in the factor's memory) have rules in the example;
* ``autograd + chainrules (user rule, autograd kernel)``: the same, the kernel
  differentiated by autograd itself (``nlml_autograd_kernel``);
* ``autograd + chainrules (linalg rules)``: the likelihood composed from a Cholesky
  factorization and a triangular solve (``nlml_composed``), differentiated through
  chainrules' ``scipy.linalg.cholesky`` and ``solve_triangular`` rules (``primitive``);
* ``autograd own rules``: the same composition with autograd's own derivatives;
* ``jax eager`` / ``jax jit``: ``jax.grad`` of the same computation in ``jax.numpy``
  (float64, CPU), without and with ``jax.jit``;
* ``torch eager``: ``torch.autograd.grad`` of the same computation (float64, CPU).

Each framework's own primal is in a second group per framework, for the
gradient/own-primal ratio. Run with every library on one thread (the convention of these
benchmarks)::

    OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 \\
    XLA_FLAGS="--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1" \\
    MALLOC_MMAP_THRESHOLD_=67108864 MALLOC_TRIM_THRESHOLD_=268435456 \\
    python -m pytest benchmarks/test_gaussian_process.py --benchmark-only -q

The two ``MALLOC_`` settings keep glibc from handing the N x N temporaries (1.3 MB each)
back to the system after every call: without them every call pays the page faults of
fresh memory (expensive in a virtual machine), which inflates the primal more than the
gradient and makes the ratios look better than the arithmetic is.

JAX and PyTorch skip themselves (with the reason printed) when they are not installed.
"""

from __future__ import annotations

import importlib.util
import math
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest

N = 400
GROUP = f"GP nlml gradient N={N}: time / numpy primal"
EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def _load(name: str) -> ModuleType:
    module_name = f"chainrules_examples.{name}"
    if module_name not in sys.modules:
        spec = importlib.util.spec_from_file_location(module_name, EXAMPLES / f"{name}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[module_name] = module
        spec.loader.exec_module(module)
    return sys.modules[module_name]


gp = _load("gaussian_process")
X, Y = gp.make_data(N)
PARAMS = np.array([0.0, 0.0, math.log(0.1)])
EXPECTED_GRAD = gp.nlml_and_grad(PARAMS, X, Y)[1]


def _check(grad: Any) -> None:
    np.testing.assert_allclose(np.asarray(grad, dtype=np.float64), EXPECTED_GRAD, rtol=1e-6)


# ---- NumPy and autograd first: JAX and PyTorch start thread pools ------------------------------------------
def test_numpy_primal(benchmark: Any) -> None:
    benchmark.group = GROUP
    benchmark.extra_info["baseline"] = True
    benchmark(gp.nlml, PARAMS, X, Y)


def test_autograd_chainrules_user_rules(benchmark: Any) -> None:
    import autograd

    benchmark.group = GROUP
    grad = autograd.grad(gp.nlml)
    _check(grad(PARAMS, X, Y))
    benchmark(grad, PARAMS, X, Y)


def test_autograd_chainrules_user_rule_autograd_kernel(benchmark: Any) -> None:
    import autograd

    benchmark.group = GROUP
    grad = autograd.grad(gp.nlml_autograd_kernel)
    _check(grad(PARAMS, X, Y))
    benchmark(grad, PARAMS, X, Y)


def test_autograd_chainrules_linalg_rules(benchmark: Any) -> None:
    import autograd
    import scipy.linalg

    from chainrules.interop.autograd import primitive

    cholesky = primitive(scipy.linalg.cholesky)
    solve_triangular = primitive(scipy.linalg.solve_triangular)

    def nlml(params: Any) -> Any:
        return gp.nlml_composed(params, X, Y, cholesky=lambda K: cholesky(K, lower=True),
                                solve_triangular=solve_triangular)

    benchmark.group = GROUP
    grad = autograd.grad(nlml)
    _check(grad(PARAMS))
    benchmark(grad, PARAMS)


def test_autograd_own_rules(benchmark: Any) -> None:
    import autograd

    from chainrules.interop.autograd import active_registration

    assert active_registration() is None  # autograd's own derivatives only
    benchmark.group = GROUP
    grad = autograd.grad(lambda p: gp.nlml_composed(p, X, Y))
    _check(grad(PARAMS))
    benchmark(grad, PARAMS)


# ---- JAX ------------------------------------------------------------------------------------------------------
def _jax() -> Any:
    jax = pytest.importorskip("jax", reason="JAX is not installed: no JAX column")
    jax.config.update("jax_enable_x64", True)
    jax.config.update("jax_platforms", "cpu")
    return jax


def _jax_nlml() -> Any:
    jax = _jax()
    import jax.numpy as jnp
    import jax.scipy.linalg as jsl

    def nlml(params: Any, X: Any, y: Any) -> Any:
        sq = jnp.sum(X * X, axis=1)
        D2 = jnp.maximum(sq[:, None] + sq[None, :] - 2.0 * X @ X.T, 0.0)
        K = jnp.exp(D2 * (-0.5 * jnp.exp(-2.0 * params[0])) + params[1]) + jnp.exp(params[2]) * jnp.eye(y.shape[0])
        L = jnp.linalg.cholesky(K)
        a = jsl.solve_triangular(L, y, lower=True)
        return 0.5 * a @ a + jnp.sum(jnp.log(jnp.diag(L))) + 0.5 * y.shape[0] * math.log(2 * math.pi)

    return jax, nlml, (jnp.asarray(PARAMS), jnp.asarray(X), jnp.asarray(Y))


def test_jax_eager_gradient(benchmark: Any) -> None:
    jax, nlml, args = _jax_nlml()
    benchmark.group = GROUP
    grad = jax.grad(nlml)
    _check(grad(*args))
    benchmark(lambda: jax.block_until_ready(grad(*args)))


def test_jax_jit_gradient(benchmark: Any) -> None:
    jax, nlml, args = _jax_nlml()
    benchmark.group = GROUP
    grad = jax.jit(jax.grad(nlml))
    _check(grad(*args))
    benchmark(lambda: jax.block_until_ready(grad(*args)))


def test_jax_jit_primal(benchmark: Any) -> None:
    jax, nlml, args = _jax_nlml()
    benchmark.group = "GP N=400 | jax jit: gradient / own primal"
    benchmark.extra_info["baseline"] = True
    f = jax.jit(nlml)
    jax.block_until_ready(f(*args))
    benchmark(lambda: jax.block_until_ready(f(*args)))


def test_jax_jit_gradient_vs_own_primal(benchmark: Any) -> None:
    jax, nlml, args = _jax_nlml()
    benchmark.group = "GP N=400 | jax jit: gradient / own primal"
    grad = jax.jit(jax.grad(nlml))
    jax.block_until_ready(grad(*args))
    benchmark(lambda: jax.block_until_ready(grad(*args)))


def test_jax_eager_primal(benchmark: Any) -> None:
    jax, nlml, args = _jax_nlml()
    benchmark.group = "GP N=400 | jax eager: gradient / own primal"
    benchmark.extra_info["baseline"] = True
    benchmark(lambda: jax.block_until_ready(nlml(*args)))


def test_jax_eager_gradient_vs_own_primal(benchmark: Any) -> None:
    jax, nlml, args = _jax_nlml()
    benchmark.group = "GP N=400 | jax eager: gradient / own primal"
    grad = jax.grad(nlml)
    benchmark(lambda: jax.block_until_ready(grad(*args)))


# ---- PyTorch --------------------------------------------------------------------------------------------------
def _torch_nlml() -> Any:
    torch = pytest.importorskip("torch", reason="PyTorch is not installed: no PyTorch column")
    torch.set_num_threads(1)
    Xt = torch.tensor(X, dtype=torch.float64)
    yt = torch.tensor(Y, dtype=torch.float64)
    eye = torch.eye(N, dtype=torch.float64)

    def nlml(params: Any) -> Any:
        sq = (Xt * Xt).sum(1)
        D2 = torch.clamp(sq[:, None] + sq[None, :] - 2.0 * Xt @ Xt.T, min=0.0)
        K = torch.exp(D2 * (-0.5 * torch.exp(-2.0 * params[0])) + params[1]) + torch.exp(params[2]) * eye
        L = torch.linalg.cholesky(K)
        a = torch.linalg.solve_triangular(L, yt[:, None], upper=False)[:, 0]
        return 0.5 * a @ a + torch.log(torch.diagonal(L)).sum() + 0.5 * N * math.log(2 * math.pi)

    def gradient() -> Any:
        params = torch.tensor(PARAMS, dtype=torch.float64, requires_grad=True)
        (g,) = torch.autograd.grad(nlml(params), params)
        return g

    return torch, nlml, gradient


def test_torch_eager_gradient(benchmark: Any) -> None:
    _, _, gradient = _torch_nlml()
    benchmark.group = GROUP
    _check(gradient().numpy())
    benchmark(gradient)


def test_torch_primal(benchmark: Any) -> None:
    torch, nlml, _ = _torch_nlml()
    benchmark.group = "GP N=400 | torch eager: gradient / own primal"
    benchmark.extra_info["baseline"] = True
    params = torch.tensor(PARAMS, dtype=torch.float64)

    def primal() -> Any:
        with torch.no_grad():
            return nlml(params)

    benchmark(primal)


def test_torch_gradient_vs_own_primal(benchmark: Any) -> None:
    _, _, gradient = _torch_nlml()
    benchmark.group = "GP N=400 | torch eager: gradient / own primal"
    benchmark(gradient)
