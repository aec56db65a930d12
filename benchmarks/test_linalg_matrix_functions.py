"""The matrix exponential: pullback time / primal time for ``scipy.linalg.expm``, chainrules against JAX and
PyTorch (autograd has no expm derivative: ``autograd.scipy.linalg.expm`` raises "VJP of expm wrt argnums (0,)
not defined", so its groups skip themselves).

For a random ``A`` (entries N(0, 1/n), spectral radius about 1) at n = 50 and 500 and a random
output cotangent, one group per library holds its primal (the baseline) and its pullback, so
each group's ratio is that library's pullback time over its own primal time:

* ``chainrules``: primal ``scipy.linalg.expm(a)``; pullback ``pullback(dy)`` of the rrule (forward
  pass done beforehand); also the rrule's forward pass (which computes the exponential itself
  and keeps the Padé intermediates the pullback reuses), and SciPy's
  ``expm_frechet(a.T, dy, compute_expm=False)`` (the pullback without the kept intermediates);
* ``jax``: jitted ``jax.scipy.linalg.expm`` on the CPU in float64; pullback the jitted ``vjp_fn(dy)``;
* ``torch``: ``torch.linalg.matrix_exp`` on the CPU in float64; pullback ``torch.autograd.grad``
  on a retained graph.

Run with every library pinned to one thread (the machine is shared)::

    OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 \\
    XLA_FLAGS="--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1" \\
    python -m pytest benchmarks/test_linalg_matrix_functions.py --benchmark-only -q

The ratio table (median / the group's primal median) is printed at the end and written to
``benchmarks/ratios.txt``.
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest
import scipy.linalg

import chainrules  # noqa: F401  (registers the rules)
from chainrules import rrule, unthunk

HAVE_JAX = importlib.util.find_spec("jax") is not None
HAVE_TORCH = importlib.util.find_spec("torch") is not None


@dataclass
class Case:
    """``expm`` at one size: the input and an output cotangent."""

    name: str
    a: np.ndarray
    dy: np.ndarray


def _case(n: int) -> Case:
    r = np.random.default_rng(31)
    return Case(f"expm n={n}", r.standard_normal((n, n)) / np.sqrt(n), r.standard_normal((n, n)))


CASES = [_case(50), _case(500)]
IDS = [case.name for case in CASES]


def _group(case: Case, library: str) -> str:
    return f"{case.name} | {library}: pullback / primal"


# ---- NumPy-based first: JAX and PyTorch start thread pools --------------------------------------------------------
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_chainrules_primal(benchmark: Any, case: Case) -> None:
    benchmark.group = _group(case, "chainrules")
    benchmark.extra_info["baseline"] = True
    benchmark(scipy.linalg.expm, case.a)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_chainrules_pullback(benchmark: Any, case: Case) -> None:
    benchmark.group = _group(case, "chainrules")
    _, pullback = rrule(scipy.linalg.expm, case.a)
    benchmark(lambda: unthunk(pullback(case.dy)[1]))


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_chainrules_rrule_forward(benchmark: Any, case: Case) -> None:
    """The rrule's forward pass (the exponential with its kept intermediates), against SciPy's ``expm``."""
    benchmark.group = _group(case, "chainrules")
    benchmark(rrule, scipy.linalg.expm, case.a)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_scipy_expm_frechet_adjoint(benchmark: Any, case: Case) -> None:
    """``L(A^T, dY)`` by SciPy's ``expm_frechet``: the same algorithm, every intermediate recomputed."""
    benchmark.group = _group(case, "chainrules")
    benchmark(scipy.linalg.expm_frechet, case.a.T, case.dy, compute_expm=False)


def test_autograd_has_no_expm_derivative() -> None:
    pytest.skip("autograd has no expm derivative (autograd.scipy.linalg.expm: 'VJP of expm wrt argnums (0,) "
                "not defined')")


def _jax() -> Any:
    if not HAVE_JAX:
        pytest.skip("jax is not installed")
    import jax
    import jax.scipy.linalg

    jax.config.update("jax_enable_x64", True)
    jax.config.update("jax_platforms", "cpu")
    return jax


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_jax_primal(benchmark: Any, case: Case) -> None:
    jax = _jax()
    benchmark.group = _group(case, "jax")
    benchmark.extra_info["baseline"] = True
    f = jax.jit(jax.scipy.linalg.expm)
    a = jax.numpy.asarray(case.a)
    jax.block_until_ready(f(a))
    benchmark(lambda: jax.block_until_ready(f(a)))


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_jax_pullback(benchmark: Any, case: Case) -> None:
    jax = _jax()
    benchmark.group = _group(case, "jax")
    a = jax.numpy.asarray(case.a)
    _, vjp_fn = jax.vjp(jax.scipy.linalg.expm, a)
    backward = jax.jit(vjp_fn)
    dy = jax.numpy.asarray(case.dy)
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
    benchmark(torch.linalg.matrix_exp, a)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_torch_pullback(benchmark: Any, case: Case) -> None:
    torch = _torch()
    benchmark.group = _group(case, "torch")
    a = torch.from_numpy(case.a.copy()).requires_grad_(True)
    y = torch.linalg.matrix_exp(a)
    dy = torch.from_numpy(case.dy.copy())
    benchmark(lambda: torch.autograd.grad([y], [a], [dy], retain_graph=True))
