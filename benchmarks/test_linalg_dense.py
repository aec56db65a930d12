"""Dense linear algebra: pullback time / primal time for ``det``, ``slogdet``, ``inv`` and ``solve``,
chainrules against autograd, JAX and PyTorch.

For each function and n = 50 and 500, one group per library holds its primal (the baseline)
and its pullback, so each group's ratio is that library's pullback time divided by its own
primal time (the issue's aim: <= 2 for ``solve``, ``det`` and ``slogdet``):

* ``chainrules``: primal ``np.linalg.<f>(a[, b])``; pullback ``pullback(dy)`` of the rrule (the
  forward pass done beforehand), every cotangent unthunked; also the rrule's own forward pass
  (``rrule(...)``, which keeps the LU factors the pullback reuses) against the same primal;
* ``autograd``: the same NumPy primal; pullback ``vjp(dy)`` from ``make_vjp``;
* ``jax``: jitted ``jnp.linalg.<f>`` on the CPU in float64; pullback the jitted ``vjp_fn(dy)``;
* ``torch``: ``torch.linalg.<f>`` on the CPU in float64; pullback ``torch.autograd.grad`` on a
  retained graph.

``solve`` has a vector right-hand side and both cotangents; ``slogdet`` a cotangent on
``logabsdet`` (a real sign has no derivative).

Run with every library pinned to one thread (the machine is shared; BLAS thread pools that
fight each other make the numbers meaningless)::

    OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 \
    XLA_FLAGS="--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1" \
    python -m pytest benchmarks/test_linalg_dense.py --benchmark-only -q

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
    """One function at one size: NumPy inputs, the output cotangent, and each library's spelling."""

    name: str
    args: tuple[np.ndarray, ...]
    dy: Any                                   # an array, or a (d_sign, d_logabsdet) pair for slogdet
    numpy_f: Callable[..., Any]
    autograd_f: Callable[..., Any]
    jax_f: Callable[..., Any]
    torch_f: Callable[..., Any]


def _matrix(r: np.random.Generator, n: int) -> np.ndarray:
    return r.standard_normal((n, n)) / np.sqrt(n) + 2 * np.eye(n)


def _cases(n: int) -> list[Case]:
    r = np.random.default_rng(17)
    a, b = _matrix(r, n), r.standard_normal(n)

    def anp() -> Any:
        import autograd.numpy
        return autograd.numpy

    def jnp() -> Any:
        import jax.numpy
        return jax.numpy

    def torch() -> Any:
        import torch
        return torch

    return [
        Case(f"det n={n}", (a,), np.float64(0.7), np.linalg.det, lambda a: anp().linalg.det(a),
             lambda a: jnp().linalg.det(a), lambda a: torch().linalg.det(a)),
        Case(f"slogdet n={n}", (a,), (0.0, 0.7), np.linalg.slogdet, lambda a: anp().linalg.slogdet(a),
             lambda a: tuple(jnp().linalg.slogdet(a)), lambda a: tuple(torch().linalg.slogdet(a))),
        Case(f"inv n={n}", (a,), r.standard_normal((n, n)), np.linalg.inv, lambda a: anp().linalg.inv(a),
             lambda a: jnp().linalg.inv(a), lambda a: torch().linalg.inv(a)),
        Case(f"solve n={n}", (a, b), r.standard_normal(n), np.linalg.solve, lambda a, b: anp().linalg.solve(a, b),
             lambda a, b: jnp().linalg.solve(a, b), lambda a, b: torch().linalg.solve(a, b)),
    ]


CASES = _cases(50) + _cases(500)
IDS = [case.name for case in CASES]


def _group(case: Case, library: str) -> str:
    return f"{case.name} {library}"


def _unthunk_all(cotangents: tuple[Any, ...]) -> list[Any]:
    return [unthunk(c) for c in cotangents[1:]]


# ---- NumPy, chainrules and autograd first: JAX and PyTorch start thread pools that would slow the rest ----
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_chainrules_primal(benchmark: Any, case: Case) -> None:
    benchmark.group = _group(case, "chainrules")
    benchmark.extra_info["baseline"] = True
    benchmark(case.numpy_f, *case.args)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_chainrules_pullback(benchmark: Any, case: Case) -> None:
    benchmark.group = _group(case, "chainrules")
    _, pullback = rrule(case.numpy_f, *case.args)
    benchmark(lambda: _unthunk_all(pullback(case.dy)))


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_chainrules_rrule_forward(benchmark: Any, case: Case) -> None:
    """The rrule's forward pass (primal and kept factorization) against the plain primal."""
    benchmark.group = _group(case, "chainrules")
    benchmark(rrule, case.numpy_f, *case.args)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_autograd_primal(benchmark: Any, case: Case) -> None:
    if not HAVE_AUTOGRAD:
        pytest.skip("autograd is not installed")
    benchmark.group = _group(case, "autograd")
    benchmark.extra_info["baseline"] = True
    benchmark(case.numpy_f, *case.args)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_autograd_pullback(benchmark: Any, case: Case) -> None:
    if not HAVE_AUTOGRAD:
        pytest.skip("autograd is not installed")
    from autograd import make_vjp

    benchmark.group = _group(case, "autograd")
    f = case.autograd_f
    vjp, _ = make_vjp(lambda args: f(*args))(case.args)
    benchmark(vjp, case.dy)


def _jax() -> Any:
    import jax

    jax.config.update("jax_enable_x64", True)
    jax.config.update("jax_platforms", "cpu")
    return jax


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_jax_primal(benchmark: Any, case: Case) -> None:
    if not HAVE_JAX:
        pytest.skip("jax is not installed")
    jax = _jax()
    benchmark.group = _group(case, "jax")
    benchmark.extra_info["baseline"] = True
    forward = jax.jit(case.jax_f)
    args = tuple(jax.numpy.asarray(x) for x in case.args)
    jax.block_until_ready(forward(*args))
    benchmark(lambda: jax.block_until_ready(forward(*args)))


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_jax_pullback(benchmark: Any, case: Case) -> None:
    if not HAVE_JAX:
        pytest.skip("jax is not installed")
    jax = _jax()
    benchmark.group = _group(case, "jax")
    args = tuple(jax.numpy.asarray(x) for x in case.args)
    _, vjp_fn = jax.vjp(case.jax_f, *args)
    backward = jax.jit(vjp_fn)
    dy = jax.tree_util.tree_map(jax.numpy.asarray, case.dy)
    jax.block_until_ready(backward(dy))
    benchmark(lambda: jax.block_until_ready(backward(dy)))


def _torch_inputs(case: Case) -> tuple[Any, ...]:
    import torch

    return tuple(torch.from_numpy(x.copy()).requires_grad_(True) for x in case.args)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_torch_primal(benchmark: Any, case: Case) -> None:
    if not HAVE_TORCH:
        pytest.skip("torch is not installed")
    import torch

    benchmark.group = _group(case, "torch")
    benchmark.extra_info["baseline"] = True
    inputs = tuple(torch.from_numpy(x.copy()) for x in case.args)
    with torch.no_grad():
        benchmark(case.torch_f, *inputs)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_torch_pullback(benchmark: Any, case: Case) -> None:
    if not HAVE_TORCH:
        pytest.skip("torch is not installed")
    import torch

    benchmark.group = _group(case, "torch")
    inputs = _torch_inputs(case)
    y = case.torch_f(*inputs)
    if isinstance(y, tuple):        # slogdet: the cotangent of logabsdet only
        outputs, dy = y[1], torch.tensor(case.dy[1], dtype=torch.float64)
    else:
        outputs, dy = y, torch.as_tensor(np.asarray(case.dy))
    benchmark(lambda: torch.autograd.grad(outputs, inputs, dy, retain_graph=True))
