"""The gradient of a univariate log-likelihood, N = 10^5 points: chainrules, autograd and JAX.

Two models, the quantity a maximum-likelihood fit differentiates, over a fixed sample ``x``
(the data are constants):

* ``norm``: ``L(mu, sigma) = sum_k norm.logpdf(x_k, mu, sigma)``, the gradient in ``loc`` and
  ``scale``;
* ``gamma``: ``L(a) = sum_k gamma.logpdf(x_k, a)``, the gradient in the shape ``a`` (given by
  position; ``loc = 0``, ``scale = 1``, the form autograd's ``gamma.logpdf(x, a)`` takes).

For each, one group's baseline is SciPy's primal (``dist.logpdf(x, *params).sum()``), so its
ratios are "gradient time / SciPy primal time":

* ``chainrules rrule + pullback``: the rule's primal (SciPy's own call) and the pullback of a
  cotangent of ones, unthunked for the parameters (the cotangent of ``x`` is a thunk never
  evaluated);
* ``autograd + chainrules``: ``autograd.grad`` through ``primitive(st.norm.logpdf)`` (the
  bound method; the bridge passes the distribution object first);
* ``autograd own``: ``autograd.grad`` of ``autograd.scipy.stats.norm.logpdf`` /
  ``gamma.logpdf``;
* ``jax eager`` / ``jax jit``: ``jax.grad`` of ``jax.scipy.stats.norm.logpdf`` /
  ``gamma.logpdf`` (float64, CPU).

The frameworks' gradient / own-primal ratios are in one group per framework and model. Run
every library on one thread (the convention of these benchmarks)::

    OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 \\
    XLA_FLAGS="--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1" \\
    MALLOC_MMAP_THRESHOLD_=268435456 MALLOC_TRIM_THRESHOLD_=1073741824 \\
    python -m pytest benchmarks/test_stats.py --benchmark-only -q

(the ``MALLOC_`` settings keep glibc from handing the 800 kB temporaries back to the system
after every call: without them the page faults of fresh memory cost about as much as the
arithmetic, on the primal as on every gradient, and the ratios measure the allocator; see
``test_gaussian_process.py``). ``python benchmarks/test_stats.py`` prints a fastest-of-7 table
measured round-robin, steadier on a shared machine.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import scipy.stats as st

import chainrules  # noqa: F401  (registers the rules)
from chainrules import rrule, unthunk

N = 100_000
MODELS = ("norm", "gamma")

_rng = np.random.default_rng(0)
DATA = {"norm": _rng.normal(1.0, 2.0, size=N), "gamma": _rng.gamma(2.5, size=N)}
PARAMS: dict[str, tuple[float, ...]] = {"norm": (1.1, 1.9), "gamma": (2.3,)}  # away from the maximum
DIST = {"norm": st.norm, "gamma": st.gamma}


def group(model: str) -> str:
    which = "(loc, scale)" if model == "norm" else "(a)"
    return f"{model} logpdf N={N}: gradient {which} / scipy primal"


def scipy_primal(model: str) -> Callable[[], float]:
    dist, x, params = DIST[model], DATA[model], PARAMS[model]
    return lambda: float(np.sum(dist.logpdf(x, *params)))


def chainrules_gradient(model: str) -> Callable[[], tuple[Any, ...]]:
    dist, x, params = DIST[model], DATA[model], PARAMS[model]

    def gradient() -> tuple[Any, ...]:
        y, pullback = rrule(dist.logpdf, x, *params)
        cotangents = pullback(np.ones_like(y))  # (logpdf, the distribution, x, *params)
        return tuple(unthunk(c) for c in cotangents[3:])

    return gradient


EXPECTED = {model: chainrules_gradient(model)() for model in MODELS}


def _check(model: str, grad: Any) -> None:
    """Every gradient against chainrules', and chainrules' against central differences of SciPy's primal."""
    np.testing.assert_allclose(np.asarray(grad, dtype=np.float64).ravel(), np.ravel(EXPECTED[model]), rtol=1e-8)


def test_chainrules_gradient_matches_finite_differences() -> None:
    for model in MODELS:
        dist, x, params = DIST[model], DATA[model], PARAMS[model]
        h = 1e-6
        fd = []
        for i in range(len(params)):
            up = list(params)
            down = list(params)
            up[i] += h
            down[i] -= h
            fd.append((np.sum(dist.logpdf(x, *up)) - np.sum(dist.logpdf(x, *down))) / (2 * h))
        np.testing.assert_allclose(np.ravel(EXPECTED[model]), fd, rtol=1e-6)


# ---- SciPy and chainrules, then autograd: JAX starts thread pools --------------------------------------------
@pytest.mark.parametrize("model", MODELS)
def test_scipy_primal(benchmark: Any, model: str) -> None:
    benchmark.group = group(model)
    benchmark.extra_info["baseline"] = True
    benchmark(scipy_primal(model))


@pytest.mark.parametrize("model", MODELS)
def test_chainrules_rrule_and_pullback(benchmark: Any, model: str) -> None:
    benchmark.group = group(model)
    f = chainrules_gradient(model)
    _check(model, f())
    benchmark(f)


def _autograd_chainrules(model: str) -> Callable[[], Any]:
    import autograd
    import autograd.numpy as anp

    from chainrules.interop.autograd import primitive

    logpdf = primitive(DIST[model].logpdf)
    x, params = DATA[model], PARAMS[model]
    argnum = tuple(range(len(params)))
    grad = autograd.grad(lambda *p: anp.sum(logpdf(x, *p)), argnum=argnum)
    return lambda: grad(*params)


def _autograd_own(model: str) -> tuple[Callable[[], Any], Callable[[], Any]]:
    import autograd
    import autograd.numpy as anp
    import autograd.scipy.stats as ast

    logpdf = ast.norm.logpdf if model == "norm" else ast.gamma.logpdf
    x, params = DATA[model], PARAMS[model]

    def loglik(*p: Any) -> Any:
        return anp.sum(logpdf(x, *p))

    grad = autograd.grad(loglik, argnum=tuple(range(len(params))))
    return (lambda: grad(*params)), (lambda: loglik(*params))


@pytest.mark.parametrize("model", MODELS)
def test_autograd_chainrules_gradient(benchmark: Any, model: str) -> None:
    benchmark.group = group(model)
    f = _autograd_chainrules(model)
    _check(model, f())
    benchmark(f)


@pytest.mark.parametrize("model", MODELS)
def test_autograd_own_gradient(benchmark: Any, model: str) -> None:
    benchmark.group = group(model)
    grad, _ = _autograd_own(model)
    _check(model, grad())
    benchmark(grad)


@pytest.mark.parametrize("model", MODELS)
def test_autograd_own_primal(benchmark: Any, model: str) -> None:
    benchmark.group = f"{model} N={N} | autograd own: gradient / own primal"
    benchmark.extra_info["baseline"] = True
    _, primal = _autograd_own(model)
    benchmark(primal)


@pytest.mark.parametrize("model", MODELS)
def test_autograd_own_gradient_vs_own_primal(benchmark: Any, model: str) -> None:
    benchmark.group = f"{model} N={N} | autograd own: gradient / own primal"
    grad, _ = _autograd_own(model)
    benchmark(grad)


# ---- JAX --------------------------------------------------------------------------------------------------------
def _jax(model: str) -> tuple[Any, Callable[..., Any], tuple[Any, ...], tuple[int, ...]]:
    jax = pytest.importorskip("jax", reason="JAX is not installed: no JAX column")
    jax.config.update("jax_enable_x64", True)
    jax.config.update("jax_platforms", "cpu")
    import jax.numpy as jnp
    import jax.scipy.stats as jst

    logpdf = jst.norm.logpdf if model == "norm" else jst.gamma.logpdf

    def loglik(x: Any, *p: Any) -> Any:
        return jnp.sum(logpdf(x, *p))

    params = PARAMS[model]
    args = (jnp.asarray(DATA[model]), *(jnp.asarray(p) for p in params))
    return jax, loglik, args, tuple(range(1, len(params) + 1))


def _run(jax: Any, f: Callable[..., Any], args: tuple[Any, ...]) -> Callable[[], Any]:
    return lambda: jax.block_until_ready(f(*args))


@pytest.mark.parametrize("jit", [False, True], ids=["eager", "jit"])
@pytest.mark.parametrize("model", MODELS)
def test_jax_gradient(benchmark: Any, model: str, jit: bool) -> None:
    jax, loglik, args, argnums = _jax(model)
    benchmark.group = group(model)
    grad = jax.grad(loglik, argnums=argnums)
    grad = jax.jit(grad) if jit else grad
    _check(model, grad(*args))
    benchmark(_run(jax, grad, args))


@pytest.mark.parametrize("jit", [False, True], ids=["eager", "jit"])
@pytest.mark.parametrize("model", MODELS)
def test_jax_primal(benchmark: Any, model: str, jit: bool) -> None:
    jax, loglik, args, _ = _jax(model)
    benchmark.group = f"{model} N={N} | jax {'jit' if jit else 'eager'}: gradient / own primal"
    benchmark.extra_info["baseline"] = True
    f = jax.jit(loglik) if jit else loglik
    benchmark(_run(jax, f, args))


@pytest.mark.parametrize("jit", [False, True], ids=["eager", "jit"])
@pytest.mark.parametrize("model", MODELS)
def test_jax_gradient_vs_own_primal(benchmark: Any, model: str, jit: bool) -> None:
    jax, loglik, args, argnums = _jax(model)
    benchmark.group = f"{model} N={N} | jax {'jit' if jit else 'eager'}: gradient / own primal"
    grad = jax.grad(loglik, argnums=argnums)
    benchmark(_run(jax, jax.jit(grad) if jit else grad, args))


# ---- an interleaved table ---------------------------------------------------------------------------------------
def interleaved_table(model: str, repeats: int = 7) -> list[tuple[str, float]]:
    """The fastest of ``repeats`` round-robin timings of each variant, in seconds (SciPy's primal first)."""
    variants: dict[str, Callable[[], Any]] = {"scipy primal": scipy_primal(model),
                                              "chainrules rrule + pullback": chainrules_gradient(model)}
    try:
        variants["autograd + chainrules"] = _autograd_chainrules(model)
        variants["autograd own gradient"], variants["autograd own primal"] = _autograd_own(model)
    except ImportError:
        pass
    try:
        jax, loglik, args, argnums = _jax(model)
        variants["jax jit gradient"] = _run(jax, jax.jit(jax.grad(loglik, argnums=argnums)), args)
        variants["jax jit primal"] = _run(jax, jax.jit(loglik), args)
        variants["jax eager gradient"] = _run(jax, jax.grad(loglik, argnums=argnums), args)
        variants["jax eager primal"] = _run(jax, loglik, args)
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
    for model in MODELS:
        table = interleaved_table(model)
        base = dict(table)["scipy primal"]
        print(group(model))
        for name, seconds in table:
            print(f"    {name:30s} {seconds * 1e3:9.2f} ms  {seconds / base:6.2f}x scipy primal")
