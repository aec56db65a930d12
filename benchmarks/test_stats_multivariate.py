"""The gradient of a multivariate normal log-likelihood, N = 10^5 points in d = 50: chainrules, autograd and JAX.

The function is ``L(mean, cov) = sum_k multivariate_normal.logpdf(x_k, mean, cov)`` over
a fixed sample ``x`` (``N x d``), the quantity a maximum-likelihood fit differentiates. Every
gradient is with respect to ``mean`` and ``cov`` (the data are constants). One group's
baseline is SciPy's primal (``multivariate_normal.logpdf(x, mean, cov).sum()``), so its ratios
are "gradient time / SciPy primal time":

* ``chainrules rrule + pullback``: the rule's primal (SciPy's own call) and the pullback of a
  cotangent of ones, unthunked for ``mean`` and ``cov`` (the cotangent of ``x`` is a thunk
  never evaluated);
* ``autograd + chainrules``: ``autograd.grad`` through ``primitive(multivariate_normal_gen.logpdf)``
  (called with the distribution object first);
* ``autograd own``: ``autograd.grad`` of ``autograd.scipy.stats.multivariate_normal.logpdf``;
* ``jax eager`` / ``jax jit``: ``jax.grad`` of ``jax.scipy.stats.multivariate_normal.logpdf``
  (float64, CPU).

The frameworks' gradient / own-primal ratios are in one group per framework. Run every
library on one thread (the convention of these benchmarks)::

    OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 \\
    XLA_FLAGS="--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1" \\
    MALLOC_MMAP_THRESHOLD_=268435456 MALLOC_TRIM_THRESHOLD_=1073741824 \\
    python -m pytest benchmarks/test_stats_multivariate.py --benchmark-only -q

(the ``MALLOC_`` settings keep glibc from handing the ``N x d`` temporaries, 40 MB each,
back to the system after every call: see ``test_gaussian_process.py``). ``interleaved_table()``
prints a fastest-of-7 table measured round-robin, steadier on a shared machine.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from scipy.stats import multivariate_normal
from scipy.stats._multivariate import multivariate_normal_gen

import chainrules  # noqa: F401  (registers the rules)
from chainrules import rrule, unthunk

N, D = 100_000, 50
GROUP = f"multivariate_normal logpdf N={N} d={D}: gradient (mean, cov) / scipy primal"

_rng = np.random.default_rng(0)
_A = _rng.standard_normal((D, D)) / np.sqrt(D)
COV = _A @ _A.T + np.eye(D)
MEAN = _rng.standard_normal(D)
X = _rng.multivariate_normal(MEAN, COV, size=N)
MEAN0 = MEAN + 0.1  # the gradient is taken away from the maximum


def scipy_primal() -> float:
    return float(np.sum(multivariate_normal.logpdf(X, MEAN0, COV)))


def chainrules_gradient() -> tuple[np.ndarray, np.ndarray]:
    y, pullback = rrule(multivariate_normal.logpdf, X, MEAN0, COV)
    cotangents = pullback(np.ones_like(y))
    return unthunk(cotangents[3]), unthunk(cotangents[4])


EXPECTED = chainrules_gradient()


def _check(grad: Any) -> None:
    dmean, dcov = (np.asarray(g, dtype=np.float64) for g in grad)
    np.testing.assert_allclose(dmean, EXPECTED[0], rtol=1e-7, atol=1e-6)
    # frameworks that differentiate an unsymmetrised cov give a non-symmetric gradient: compare its symmetric part
    np.testing.assert_allclose((dcov + dcov.T) / 2, EXPECTED[1], rtol=1e-7, atol=1e-6)


# ---- SciPy and chainrules, then autograd: JAX starts thread pools --------------------------------------------
def test_scipy_primal(benchmark: Any) -> None:
    benchmark.group = GROUP
    benchmark.extra_info["baseline"] = True
    benchmark(scipy_primal)


def test_chainrules_rrule_and_pullback(benchmark: Any) -> None:
    benchmark.group = GROUP
    _check(chainrules_gradient())
    benchmark(chainrules_gradient)


def _autograd_chainrules() -> Callable[[], Any]:
    import autograd
    import autograd.numpy as anp

    from chainrules.interop.autograd import primitive

    # the method on its class, the distribution object first (what primitive(multivariate_normal.logpdf) does)
    logpdf = primitive(multivariate_normal_gen.logpdf)
    grad = autograd.grad(lambda m, c: anp.sum(logpdf(multivariate_normal, X, m, c)), argnum=(0, 1))
    return lambda: grad(MEAN0, COV)


def _autograd_own() -> tuple[Callable[[], Any], Callable[[], Any]]:
    import autograd
    import autograd.numpy as anp
    import autograd.scipy.stats.multivariate_normal as amvn

    def loglik(m: Any, c: Any) -> Any:
        return anp.sum(amvn.logpdf(X, m, c))

    grad = autograd.grad(loglik, argnum=(0, 1))
    return (lambda: grad(MEAN0, COV)), (lambda: loglik(MEAN0, COV))


def test_autograd_chainrules_gradient(benchmark: Any) -> None:
    benchmark.group = GROUP
    f = _autograd_chainrules()
    _check(f())
    benchmark(f)


def test_autograd_own_gradient(benchmark: Any) -> None:
    benchmark.group = GROUP
    grad, _ = _autograd_own()
    _check(grad())
    benchmark(grad)


def test_autograd_own_primal(benchmark: Any) -> None:
    benchmark.group = f"mvn N={N} d={D} | autograd own: gradient / own primal"
    benchmark.extra_info["baseline"] = True
    _, primal = _autograd_own()
    benchmark(primal)


def test_autograd_own_gradient_vs_own_primal(benchmark: Any) -> None:
    benchmark.group = f"mvn N={N} d={D} | autograd own: gradient / own primal"
    grad, _ = _autograd_own()
    benchmark(grad)


# ---- JAX --------------------------------------------------------------------------------------------------------
def _jax() -> tuple[Any, Callable[..., Any], tuple[Any, ...]]:
    jax = pytest.importorskip("jax", reason="JAX is not installed: no JAX column")
    jax.config.update("jax_enable_x64", True)
    jax.config.update("jax_platforms", "cpu")
    import jax.numpy as jnp
    import jax.scipy.stats as jst

    def loglik(m: Any, c: Any, x: Any) -> Any:
        return jnp.sum(jst.multivariate_normal.logpdf(x, m, c))

    return jax, loglik, (jnp.asarray(MEAN0), jnp.asarray(COV), jnp.asarray(X))


def _run(jax: Any, f: Callable[..., Any], args: tuple[Any, ...]) -> Callable[[], Any]:
    return lambda: jax.block_until_ready(f(*args))


def test_jax_eager_gradient(benchmark: Any) -> None:
    jax, loglik, args = _jax()
    benchmark.group = GROUP
    grad = jax.grad(loglik, argnums=(0, 1))
    _check(grad(*args))
    benchmark(_run(jax, grad, args))


def test_jax_jit_gradient(benchmark: Any) -> None:
    jax, loglik, args = _jax()
    benchmark.group = GROUP
    grad = jax.jit(jax.grad(loglik, argnums=(0, 1)))
    _check(grad(*args))
    benchmark(_run(jax, grad, args))


@pytest.mark.parametrize("jit", [False, True], ids=["eager", "jit"])
def test_jax_primal(benchmark: Any, jit: bool) -> None:
    jax, loglik, args = _jax()
    benchmark.group = f"mvn N={N} d={D} | jax {'jit' if jit else 'eager'}: gradient / own primal"
    benchmark.extra_info["baseline"] = True
    f = jax.jit(loglik) if jit else loglik
    benchmark(_run(jax, f, args))


@pytest.mark.parametrize("jit", [False, True], ids=["eager", "jit"])
def test_jax_gradient_vs_own_primal(benchmark: Any, jit: bool) -> None:
    jax, loglik, args = _jax()
    benchmark.group = f"mvn N={N} d={D} | jax {'jit' if jit else 'eager'}: gradient / own primal"
    grad = jax.grad(loglik, argnums=(0, 1))
    benchmark(_run(jax, jax.jit(grad) if jit else grad, args))


# ---- an interleaved table ---------------------------------------------------------------------------------------
def interleaved_table(repeats: int = 7) -> list[tuple[str, float]]:
    """The fastest of ``repeats`` round-robin timings of each variant, in seconds (SciPy's primal first)."""
    variants: dict[str, Callable[[], Any]] = {"scipy primal": scipy_primal, "chainrules rrule + pullback":
                                              chainrules_gradient}
    try:
        variants["autograd + chainrules"] = _autograd_chainrules()
        variants["autograd own gradient"] = _autograd_own()[0]
        variants["autograd own primal"] = _autograd_own()[1]
    except ImportError:
        pass
    try:
        jax, loglik, args = _jax()
        grad = jax.jit(jax.grad(loglik, argnums=(0, 1)))
        primal = jax.jit(loglik)
        variants["jax jit gradient"] = _run(jax, grad, args)
        variants["jax jit primal"] = _run(jax, primal, args)
        variants["jax eager gradient"] = _run(jax, jax.grad(loglik, argnums=(0, 1)), args)
    except pytest.skip.Exception:
        pass
    for f in variants.values():
        f()  # warm up (and compile)
    best = dict.fromkeys(variants, float("inf"))
    for _ in range(repeats):
        for name, f in variants.items():
            start = time.perf_counter()
            f()
            best[name] = min(best[name], time.perf_counter() - start)
    return list(best.items())


if __name__ == "__main__":
    table = interleaved_table()
    base = dict(table)["scipy primal"]
    for name, seconds in table:
        print(f"{name:32s} {seconds * 1e3:9.1f} ms  {seconds / base:6.2f}x scipy primal")
