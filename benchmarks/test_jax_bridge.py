"""The JAX bridge: the Gaussian-process likelihood gradient with chainrules' linear algebra, and the per-call cost.

Two groups, each with its baseline:

* ``GP nlml gradient N=400 | JAX``: the gradient of the negative log marginal likelihood of
  ``benchmarks/test_gaussian_process.py`` (RBF kernel of 400 points in 2-d, three
  hyperparameters), written in ``jax.numpy``, float64. Baseline: JAX's own eager
  gradient (``jax.grad``, ``jnp.linalg.cholesky`` and ``jax.scipy.linalg.solve_triangular``).
  Against it: JAX's own under ``jax.jit``, and the same function with the Cholesky
  factorization and the triangular solve from chainrules' rules through the bridge
  (``chainrules.interop.jax.scipy.linalg``), eager and under ``jax.jit``.
  The goal: the bridge at most 1.5 times JAX's own eager gradient.
* ``JAX primitive per call``: ``np.sin`` of 3 numbers. Baseline: the NumPy call. Against
  it: the primitive called on a JAX array (nothing traced), the rule itself (``rrule`` and
  its pullback, no bridge), ``jax.grad`` through the primitive eagerly and under
  ``jax.jit``, and JAX's own ``jax.grad(jnp.sin)`` eagerly and under ``jit``.

Run (one thread everywhere, the convention of these benchmarks)::

    OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 \\
    XLA_FLAGS="--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1" \\
    MALLOC_MMAP_THRESHOLD_=67108864 MALLOC_TRIM_THRESHOLD_=268435456 \\
    python -m pytest benchmarks/test_jax_bridge.py --benchmark-only -q
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from test_gaussian_process import EXPECTED_GRAD, PARAMS, X, Y

jax = pytest.importorskip("jax", reason="JAX is not installed: no JAX bridge benchmarks")
jax.config.update("jax_enable_x64", True)
jax.config.update("jax_platforms", "cpu")
import jax.numpy as jnp  # noqa: E402
import jax.scipy.linalg as jsl  # noqa: E402

from chainrules.interop.jax import scipy as jsp  # noqa: E402

GP = "GP nlml gradient N=400 | JAX: time / JAX's own eager gradient"
CALL = "JAX primitive per call (np.sin of 3 numbers): time / NumPy call"


def _nlml(cholesky: Any, solve_triangular: Any) -> Any:
    def nlml(params: Any, X: Any, y: Any) -> Any:
        sq = jnp.sum(X * X, axis=1)
        D2 = jnp.maximum(sq[:, None] + sq[None, :] - 2.0 * X @ X.T, 0.0)
        K = jnp.exp(D2 * (-0.5 * jnp.exp(-2.0 * params[0])) + params[1]) + jnp.exp(params[2]) * jnp.eye(y.shape[0])
        L = cholesky(K)
        a = solve_triangular(L, y, lower=True)
        return 0.5 * a @ a + jnp.sum(jnp.log(jnp.diag(L))) + 0.5 * y.shape[0] * math.log(2 * math.pi)

    return nlml


OWN = _nlml(jnp.linalg.cholesky, jsl.solve_triangular)
BRIDGE = _nlml(lambda K: jsp.linalg.cholesky(K, lower=True), jsp.linalg.solve_triangular)
ARGS = (jnp.asarray(PARAMS), jnp.asarray(X), jnp.asarray(Y))


def _check(grad: Any) -> None:
    np.testing.assert_allclose(np.asarray(grad, dtype=np.float64), EXPECTED_GRAD, rtol=1e-6)


def _run(benchmark: Any, f: Any) -> None:
    _check(f(*ARGS))
    benchmark(lambda: jax.block_until_ready(f(*ARGS)))


def test_gp_jax_own_eager(benchmark: Any) -> None:
    benchmark.group = GP
    benchmark.extra_info["baseline"] = True
    _run(benchmark, jax.grad(OWN))


def test_gp_jax_own_jit(benchmark: Any) -> None:
    benchmark.group = GP
    _run(benchmark, jax.jit(jax.grad(OWN)))


def test_gp_bridge_eager(benchmark: Any) -> None:
    benchmark.group = GP
    _run(benchmark, jax.grad(BRIDGE))


def test_gp_bridge_jit(benchmark: Any) -> None:
    benchmark.group = GP
    _run(benchmark, jax.jit(jax.grad(BRIDGE)))


# ---- per call --------------------------------------------------------------------------------------------------
XN = np.array([0.1, 0.2, 0.3])
XJ = jnp.asarray(XN)


def test_call_numpy(benchmark: Any) -> None:
    benchmark.group = CALL
    benchmark.extra_info["baseline"] = True
    benchmark(np.sin, XN)


def test_call_primitive_untraced(benchmark: Any) -> None:
    from chainrules.interop.jax import numpy as jnr

    benchmark.group = CALL
    benchmark(lambda: jax.block_until_ready(jnr.sin(XJ)))


def test_call_rule_without_bridge(benchmark: Any) -> None:
    from chainrules import rrule

    benchmark.group = CALL

    def rule_and_pullback() -> Any:
        _y, pullback = rrule(np.sin, XN)
        return pullback(np.ones(3))

    benchmark(rule_and_pullback)


def test_call_grad_through_primitive_eager(benchmark: Any) -> None:
    from chainrules.interop.jax import numpy as jnr

    benchmark.group = CALL
    grad = jax.grad(lambda x: jnp.sum(jnr.sin(x)))
    np.testing.assert_allclose(grad(XJ), np.cos(XN))
    benchmark(lambda: jax.block_until_ready(grad(XJ)))


def test_call_grad_through_primitive_jit(benchmark: Any) -> None:
    from chainrules.interop.jax import numpy as jnr

    benchmark.group = CALL
    grad = jax.jit(jax.grad(lambda x: jnp.sum(jnr.sin(x))))
    np.testing.assert_allclose(grad(XJ), np.cos(XN))
    benchmark(lambda: jax.block_until_ready(grad(XJ)))


def test_call_jax_own_grad_eager(benchmark: Any) -> None:
    benchmark.group = CALL
    grad = jax.grad(lambda x: jnp.sum(jnp.sin(x)))
    benchmark(lambda: jax.block_until_ready(grad(XJ)))


def test_call_jax_own_grad_jit(benchmark: Any) -> None:
    benchmark.group = CALL
    grad = jax.jit(jax.grad(lambda x: jnp.sum(jnp.sin(x))))
    grad(XJ)
    benchmark(lambda: jax.block_until_ready(grad(XJ)))


def interleaved_table(repeats: int = 15) -> str:
    """Each gradient's fastest of ``repeats`` interleaved runs, as a ratio to JAX's own eager gradient.

    On a shared machine pytest-benchmark's medians drift between benchmarks run seconds
    apart; interleaving the calls and keeping each one's fastest run gives steadier ratios.
    Run: ``python benchmarks/test_jax_bridge.py`` (with the environment of the module's
    docstring).
    """
    import time

    from chainrules.interop.jax import numpy as jnr

    xj = jnp.asarray(XN)
    cases = {
        "GP: JAX's own, eager": jax.grad(OWN),
        "GP: JAX's own, jit": jax.jit(jax.grad(OWN)),
        "GP: bridge, eager": jax.grad(BRIDGE),
        "GP: bridge, jit": jax.jit(jax.grad(BRIDGE)),
    }
    calls = {
        "sin(3): JAX's own grad, eager": (jax.grad(lambda x: jnp.sum(jnp.sin(x))), xj),
        "sin(3): JAX's own grad, jit": (jax.jit(jax.grad(lambda x: jnp.sum(jnp.sin(x)))), xj),
        "sin(3): grad through the bridge, eager": (jax.grad(lambda x: jnp.sum(jnr.sin(x))), xj),
        "sin(3): grad through the bridge, jit": (jax.jit(jax.grad(lambda x: jnp.sum(jnr.sin(x)))), xj),
        "sin(3): the primitive, nothing traced": (jnr.sin, xj),
    }
    best = {name: math.inf for name in [*cases, *calls]}
    for f in cases.values():
        jax.block_until_ready(f(*ARGS))
    for f, x in calls.values():
        jax.block_until_ready(f(x))
    for _ in range(repeats):
        for name, f in cases.items():
            start = time.perf_counter()
            jax.block_until_ready(f(*ARGS))
            best[name] = min(best[name], time.perf_counter() - start)
        for name, (f, x) in calls.items():
            start = time.perf_counter()
            jax.block_until_ready(f(x))
            best[name] = min(best[name], time.perf_counter() - start)
    base = best["GP: JAX's own, eager"]
    lines = [f"{'gradient':42} {'fastest':>10} {'/ own eager':>11}"]
    lines += [f"{name:42} {best[name] * 1e3:8.2f}ms {best[name] / base:11.2f}" for name in cases]
    lines += [f"{name:42} {best[name] * 1e6:8.1f}us" for name in calls]
    return "\n".join(lines)


if __name__ == "__main__":
    print(interleaved_table())
