"""Fourier transforms: the pullback of chainrules against the primal, autograd, JAX and PyTorch.

For ``fft`` (complex input) and ``rfft`` (real input) of length ``n = 2**16`` (NumPy's and
SciPy's), one group per case, ``<case> pullback / primal``:

* the baseline is the primal itself (NumPy or SciPy), so each ratio is a pullback/primal
  ratio (the goal of issue 14: at most 2.5x the primal for the linear transforms);
* ``chainrules``: ``pullback(dy)`` from ``rrule``, the forward pass done beforehand;
* ``autograd``: ``vjp(dy)`` from ``make_vjp`` (it has both functions);
* ``jax``: the jitted ``vjp_fn(dy)`` and, for reference, JAX's own jitted primal;
* ``torch``: ``torch.autograd.grad`` on a retained graph and, for reference, its primal.

JAX runs on the CPU in double precision. Run::

    OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 \
    XLA_FLAGS="--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1" \
    python -m pytest benchmarks/test_fft.py --benchmark-only -q

The ratio table is printed at the end and written to ``benchmarks/ratios.txt``.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest
import scipy.fft

import chainrules  # noqa: F401  (registers the rules)
from chainrules import rrule, unthunk

HAVE_AUTOGRAD = importlib.util.find_spec("autograd") is not None
HAVE_JAX = importlib.util.find_spec("jax") is not None
HAVE_TORCH = importlib.util.find_spec("torch") is not None
N = 2 ** 16


@dataclass
class Case:
    """One transform: the input, the output cotangent and each library's spelling."""

    name: str
    x: np.ndarray
    dy: np.ndarray
    primal: Callable[[Any], Any]
    autograd_f: str | None      # the function's name in autograd.numpy.fft
    jax_f: str                  # in jax.numpy.fft
    torch_f: str                # in torch.fft


def _cases() -> list[Case]:
    rng = np.random.default_rng(14)
    z = rng.standard_normal(N) + 1j * rng.standard_normal(N)
    x = rng.standard_normal(N)
    dz = rng.standard_normal(N) + 1j * rng.standard_normal(N)
    dr = rng.standard_normal(N // 2 + 1) + 1j * rng.standard_normal(N // 2 + 1)
    return [
        Case("numpy.fft.fft n=2^16", z, dz, np.fft.fft, "fft", "fft", "fft"),
        Case("scipy.fft.fft n=2^16", z, dz, scipy.fft.fft, "fft", "fft", "fft"),
        Case("numpy.fft.rfft n=2^16", x, dr, np.fft.rfft, "rfft", "rfft", "rfft"),
        Case("scipy.fft.rfft n=2^16", x, dr, scipy.fft.rfft, "rfft", "rfft", "rfft"),
    ]


CASES = _cases()
IDS = [c.name for c in CASES]


def _jax() -> Any:
    import jax

    jax.config.update("jax_enable_x64", True)
    jax.config.update("jax_platforms", "cpu")
    return jax


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_primal(benchmark: Any, case: Case) -> None:
    benchmark.group = f"{case.name} pullback / primal"
    benchmark.extra_info["baseline"] = True
    benchmark(case.primal, case.x)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_pullback_chainrules(benchmark: Any, case: Case) -> None:
    benchmark.group = f"{case.name} pullback / primal"
    _, pullback = rrule(case.primal, case.x)
    benchmark(lambda: unthunk(pullback(case.dy)[1]))


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_pullback_autograd(benchmark: Any, case: Case) -> None:
    benchmark.group = f"{case.name} pullback / primal"
    if not HAVE_AUTOGRAD or case.autograd_f is None:
        pytest.skip("autograd is not installed")
    import autograd.numpy as anp
    from autograd import make_vjp

    f = getattr(anp.fft, case.autograd_f)
    vjp, _ = make_vjp(f)(case.x)
    dy = np.conj(case.dy)  # autograd's cotangents are the conjugates of ours
    benchmark(vjp, dy)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_pullback_jax(benchmark: Any, case: Case) -> None:
    benchmark.group = f"{case.name} pullback / primal"
    if not HAVE_JAX:
        pytest.skip("jax is not installed")
    jax = _jax()
    f = getattr(jax.numpy.fft, case.jax_f)
    _, vjp_fn = jax.vjp(f, jax.numpy.asarray(case.x))
    backward = jax.jit(vjp_fn)
    dy = jax.numpy.asarray(np.conj(case.dy))
    jax.block_until_ready(backward(dy))
    benchmark(lambda: jax.block_until_ready(backward(dy)))


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_primal_jax(benchmark: Any, case: Case) -> None:
    benchmark.group = f"{case.name} pullback / primal"
    if not HAVE_JAX:
        pytest.skip("jax is not installed")
    jax = _jax()
    f = jax.jit(getattr(jax.numpy.fft, case.jax_f))
    x = jax.numpy.asarray(case.x)
    jax.block_until_ready(f(x))
    benchmark(lambda: jax.block_until_ready(f(x)))


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_pullback_torch(benchmark: Any, case: Case) -> None:
    benchmark.group = f"{case.name} pullback / primal"
    if not HAVE_TORCH:
        pytest.skip("torch is not installed")
    import torch

    torch.set_num_threads(1)
    x = torch.from_numpy(case.x.copy()).requires_grad_(True)
    y = getattr(torch.fft, case.torch_f)(x)
    dy = torch.from_numpy(case.dy.copy())
    benchmark(lambda: torch.autograd.grad(y, x, dy, retain_graph=True))


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_primal_torch(benchmark: Any, case: Case) -> None:
    benchmark.group = f"{case.name} pullback / primal"
    if not HAVE_TORCH:
        pytest.skip("torch is not installed")
    import torch

    torch.set_num_threads(1)
    x = torch.from_numpy(case.x.copy())
    f = getattr(torch.fft, case.torch_f)
    benchmark(lambda: f(x))
