"""Factorizations: pullback time / primal time for ``cholesky`` and ``qr``: chainrules, autograd, JAX, PyTorch.

For each function (``np.linalg.cholesky`` of an SPD matrix, ``np.linalg.qr`` reduced of a
square matrix) and n = 50 and 500, one group per library holds two benchmarks: its primal
(the baseline) and its pullback, so each group's ratio is that library's pullback time
divided by its own primal time:

* ``chainrules``: primal ``np.linalg.cholesky(a)`` / ``np.linalg.qr(a)``; pullback
  ``pullback(dy)`` of the rrule (the forward pass done beforehand), cotangent unthunked;
* ``autograd``: the same NumPy primal; pullback ``vjp(dy)`` from ``make_vjp`` (autograd has
  no rule for ``qr``: skipped);
* ``jax``: jitted ``jnp.linalg.cholesky``/``qr`` on the CPU in float64; pullback the jitted
  ``vjp_fn(dy)``;
* ``torch``: ``torch.linalg.cholesky``/``qr`` on the CPU; pullback ``torch.autograd.grad``
  on a retained graph.

Run with every library pinned to one thread (the machine is shared; BLAS thread pools
that fight each other make the numbers meaningless)::

    OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 \
    XLA_FLAGS="--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1" \
    python -m pytest benchmarks/test_linalg_factorizations.py --benchmark-only -q

The ratio table (median / the group's primal median) is printed at the end and written to
``benchmarks/ratios.txt``.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

import chainrules  # noqa: F401  (registers the rules)
from chainrules import rrule, unthunk

HAVE_AUTOGRAD = importlib.util.find_spec("autograd") is not None
HAVE_JAX = importlib.util.find_spec("jax") is not None
HAVE_TORCH = importlib.util.find_spec("torch") is not None


@dataclass
class Case:
    """One factorization at one size: the input, an output cotangent, and each library's spelling."""

    name: str
    a: np.ndarray
    dy: Any                                # the output cotangent (an array, or a tuple for QR)
    numpy_f: Callable[[np.ndarray], Any]
    autograd_f: Callable[[Any], Any] | None
    jax_f: Callable[[Any], Any]
    torch_f: Callable[[Any], Any]


def _cholesky_case(n: int) -> Case:
    r = np.random.default_rng(11)
    g = r.standard_normal((n, n))
    a = g @ g.T / n + np.eye(n)
    dy = np.tril(r.standard_normal((n, n)))

    def autograd_f(x: Any) -> Any:
        import autograd.numpy as anp
        return anp.linalg.cholesky(x)

    def jax_f(x: Any) -> Any:
        import jax.numpy as jnp
        return jnp.linalg.cholesky(x)

    def torch_f(x: Any) -> Any:
        import torch
        return torch.linalg.cholesky(x)

    return Case(f"cholesky n={n}", a, dy, np.linalg.cholesky, autograd_f, jax_f, torch_f)


def _qr_case(n: int) -> Case:
    r = np.random.default_rng(12)
    a = r.standard_normal((n, n))
    dy = (r.standard_normal((n, n)), np.triu(r.standard_normal((n, n))))

    def jax_f(x: Any) -> Any:
        import jax.numpy as jnp
        return tuple(jnp.linalg.qr(x))

    def torch_f(x: Any) -> Any:
        import torch
        return tuple(torch.linalg.qr(x))

    return Case(f"qr n={n}", a, dy, np.linalg.qr, None, jax_f, torch_f)


CASES = [_cholesky_case(50), _cholesky_case(500), _qr_case(50), _qr_case(500)]
IDS = [case.name for case in CASES]


def _group(case: Case, library: str) -> str:
    return f"{case.name} | {library}: pullback / primal"


def _pullback_of_rule(case: Case) -> Callable[[], Any]:
    _, pullback = rrule(case.numpy_f, case.a)
    return lambda: unthunk(pullback(case.dy)[1])


# ---- NumPy-based first: JAX and PyTorch start thread pools --------------------------------------------------------
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_chainrules_primal(benchmark: Any, case: Case) -> None:
    benchmark.group = _group(case, "chainrules")
    benchmark.extra_info["baseline"] = True
    benchmark(case.numpy_f, case.a)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_chainrules_pullback(benchmark: Any, case: Case) -> None:
    benchmark.group = _group(case, "chainrules")
    benchmark(_pullback_of_rule(case))


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_chainrules_rrule_forward(benchmark: Any, case: Case) -> None:
    """The rrule's forward pass (primal plus what the pullback keeps), for the overhead over the plain call."""
    benchmark.group = _group(case, "chainrules")
    benchmark(rrule, case.numpy_f, case.a)


def _autograd_skip(case: Case) -> None:
    if not HAVE_AUTOGRAD:
        pytest.skip("autograd is not installed")
    if case.autograd_f is None:
        pytest.skip(f"autograd has no VJP for {case.name}")


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_autograd_primal(benchmark: Any, case: Case) -> None:
    _autograd_skip(case)
    benchmark.group = _group(case, "autograd")
    benchmark.extra_info["baseline"] = True
    benchmark(case.numpy_f, case.a)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_autograd_pullback(benchmark: Any, case: Case) -> None:
    _autograd_skip(case)
    from autograd import make_vjp

    assert case.autograd_f is not None
    benchmark.group = _group(case, "autograd")
    vjp, _ = make_vjp(case.autograd_f)(case.a)
    benchmark(vjp, case.dy)


def _jax() -> Any:
    if not HAVE_JAX:
        pytest.skip("jax is not installed")
    import jax

    jax.config.update("jax_enable_x64", True)
    jax.config.update("jax_platforms", "cpu")
    return jax


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_jax_primal(benchmark: Any, case: Case) -> None:
    jax = _jax()
    benchmark.group = _group(case, "jax")
    benchmark.extra_info["baseline"] = True
    f = jax.jit(case.jax_f)
    a = jax.numpy.asarray(case.a)
    jax.block_until_ready(f(a))
    benchmark(lambda: jax.block_until_ready(f(a)))


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_jax_pullback(benchmark: Any, case: Case) -> None:
    jax = _jax()
    benchmark.group = _group(case, "jax")
    a = jax.numpy.asarray(case.a)
    _, vjp_fn = jax.vjp(case.jax_f, a)
    backward = jax.jit(vjp_fn)
    dy = jax.tree_util.tree_map(jax.numpy.asarray, case.dy)
    jax.block_until_ready(backward(dy))
    benchmark(lambda: jax.block_until_ready(backward(dy)))


def _torch() -> Any:
    if not HAVE_TORCH:
        pytest.skip("torch is not installed")
    import torch

    torch.set_num_threads(1)
    return torch


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_torch_primal(benchmark: Any, case: Case) -> None:
    torch = _torch()
    benchmark.group = _group(case, "torch")
    benchmark.extra_info["baseline"] = True
    a = torch.from_numpy(case.a.copy())
    benchmark(case.torch_f, a)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_torch_pullback(benchmark: Any, case: Case) -> None:
    torch = _torch()
    benchmark.group = _group(case, "torch")
    a = torch.from_numpy(case.a.copy()).requires_grad_(True)
    out = case.torch_f(a)
    outputs = list(out) if isinstance(out, tuple) else [out]
    dys = [torch.from_numpy(np.array(d)) for d in (case.dy if isinstance(case.dy, tuple) else (case.dy,))]
    benchmark(lambda: torch.autograd.grad(outputs, [a], dys, retain_graph=True))
