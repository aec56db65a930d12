"""Contractions: the pullback of chainrules against a hand-written NumPy pullback, autograd, JAX and PyTorch.

For each case (``matmul`` at n = 50 and 500, a 3-operand ``einsum``, ``tensordot``,
``convolve``) two groups are measured:

* ``<case> pullback``: the backward pass alone, the forward pass done beforehand: the
  hand-written NumPy cotangents (the baseline), ``pullback(dy)`` of chainrules with both
  cotangents unthunked, autograd's ``vjp(dy)`` from ``make_vjp``, JAX's ``vjp_fn(dy)``
  (jitted) and PyTorch's ``torch.autograd.grad`` on a retained graph;
* ``<case> forward+pullback``: the same, forward pass included (NumPy: primal + hand
  pullback; chainrules: ``rrule`` + pullback; autograd: ``make_vjp`` + ``vjp``; JAX: a
  jitted ``vjp``; PyTorch: forward + ``autograd.grad``).

Competitors that are not installed, or that have no rule for the function (autograd has no
VJP for ``numpy.convolve``), skip themselves. JAX runs on the CPU in float64.

Run: ``python -m pytest benchmarks/test_contractions.py --benchmark-only -q``; the ratio
table (median / the NumPy baseline's median) is printed at the end and written to
``benchmarks/ratios.txt``. On a shared or small machine, pin every library to one thread
so that BLAS thread pools do not fight each other (and other processes)::

    OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 \
    XLA_FLAGS="--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1" \
    python -m pytest benchmarks/test_contractions.py --benchmark-only -q
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
    """One contraction: NumPy inputs, the output cotangent, and how each competitor spells it."""

    name: str
    args: tuple[np.ndarray, ...]
    dy: np.ndarray
    numpy_f: Callable[..., Any]               # the primal, positional array arguments
    hand_pullback: Callable[..., Any]         # (dy, *args) -> cotangents, hand-written NumPy
    rule_call: Callable[..., Any]             # (*args) -> rrule(...) result
    autograd_f: Callable[..., Any] | None     # (*args) with autograd.numpy, None if autograd lacks it
    jax_f: Callable[..., Any] | None
    torch_f: Callable[..., Any] | None


def _rng() -> np.random.Generator:
    return np.random.default_rng(7)


def _matmul_case(n: int) -> Case:
    r = _rng()
    a, b = r.standard_normal((n, n)), r.standard_normal((n, n))

    def hand(dy: np.ndarray, a: np.ndarray, b: np.ndarray) -> Any:
        return dy @ b.T, a.T @ dy

    return Case(f"matmul n={n}", (a, b), r.standard_normal((n, n)), np.matmul, hand,
                lambda a, b: rrule(np.matmul, a, b),
                lambda a, b: a @ b, lambda a, b: a @ b, lambda a, b: a @ b)


def _einsum_case() -> Case:
    r = _rng()
    a, b, c = r.standard_normal((60, 80)), r.standard_normal((80, 70)), r.standard_normal((70, 50))
    subscripts = "ij,jk,kl->il"

    def hand(dy: np.ndarray, a: np.ndarray, b: np.ndarray, c: np.ndarray) -> Any:
        return dy @ (b @ c).T, a.T @ dy @ c.T, (a @ b).T @ dy

    def ours(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> Any:
        return rrule(np.einsum, subscripts, a, b, c, optimize="greedy")

    def autograd_f(a: Any, b: Any, c: Any) -> Any:
        import autograd.numpy as anp
        return anp.einsum(subscripts, a, b, c, optimize="greedy")

    def jax_f(a: Any, b: Any, c: Any) -> Any:
        import jax.numpy as jnp
        return jnp.einsum(subscripts, a, b, c, optimize="greedy")

    def torch_f(a: Any, b: Any, c: Any) -> Any:
        import torch
        return torch.einsum(subscripts, a, b, c)

    return Case("einsum ij,jk,kl->il", (a, b, c), r.standard_normal((60, 50)),
                lambda a, b, c: np.einsum(subscripts, a, b, c, optimize="greedy"), hand, ours, autograd_f, jax_f,
                torch_f)


def _tensordot_case() -> Case:
    r = _rng()
    a, b = r.standard_normal((20, 30, 40)), r.standard_normal((30, 40, 50))

    def hand(dy: np.ndarray, a: np.ndarray, b: np.ndarray) -> Any:
        return np.tensordot(dy, b, axes=([1], [2])), np.tensordot(a, dy, axes=([0], [0]))

    def autograd_f(a: Any, b: Any) -> Any:
        import autograd.numpy as anp
        return anp.tensordot(a, b, 2)

    def jax_f(a: Any, b: Any) -> Any:
        import jax.numpy as jnp
        return jnp.tensordot(a, b, 2)

    def torch_f(a: Any, b: Any) -> Any:
        import torch
        return torch.tensordot(a, b, 2)

    return Case("tensordot axes=2", (a, b), r.standard_normal((20, 50)), lambda a, b: np.tensordot(a, b, 2), hand,
                lambda a, b: rrule(np.tensordot, a, b, 2), autograd_f, jax_f, torch_f)


def _convolve_case() -> Case:
    r = _rng()
    a, v = r.standard_normal(20000), r.standard_normal(101)

    def hand(dy: np.ndarray, a: np.ndarray, v: np.ndarray) -> Any:
        return np.correlate(dy, v, "valid"), np.correlate(dy, a, "valid")

    def jax_f(a: Any, v: Any) -> Any:
        import jax.numpy as jnp
        return jnp.convolve(a, v, "full")

    def torch_f(a: Any, v: Any) -> Any:
        import torch
        out = torch.nn.functional.conv1d(a[None, None], v.flip(0)[None, None], padding=v.shape[0] - 1)
        return out[0, 0]

    return Case("convolve full 20000*101", (a, v), r.standard_normal(20000 + 101 - 1),
                lambda a, v: np.convolve(a, v, "full"), hand, lambda a, v: rrule(np.convolve, a, v, "full"),
                None, jax_f, torch_f)


CASES = [_matmul_case(50), _matmul_case(500), _einsum_case(), _tensordot_case(), _convolve_case()]
IDS = [case.name for case in CASES]


def _unthunk_all(cotangents: tuple[Any, ...]) -> list[Any]:
    return [unthunk(c) for c in cotangents[1:]]


def _autograd_vjp(case: Case) -> Callable[[Any], Any]:
    from autograd import make_vjp

    assert case.autograd_f is not None
    f = case.autograd_f
    vjp, _ = make_vjp(lambda args: f(*args))(case.args)
    return vjp


def _jax_setup() -> Any:
    import jax

    jax.config.update("jax_enable_x64", True)
    jax.config.update("jax_platforms", "cpu")
    return jax


def _torch_inputs(case: Case) -> tuple[Any, ...]:
    import torch

    return tuple(torch.from_numpy(x.copy()).requires_grad_(True) for x in case.args)


# ---- NumPy, chainrules and autograd first: JAX and PyTorch start thread pools that would slow the rest ----
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_pullback_numpy_by_hand(benchmark: Any, case: Case) -> None:
    benchmark.group = f"{case.name} pullback"
    benchmark.extra_info["baseline"] = True
    benchmark(case.hand_pullback, case.dy, *case.args)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_pullback_chainrules(benchmark: Any, case: Case) -> None:
    benchmark.group = f"{case.name} pullback"
    _, pullback = case.rule_call(*case.args)
    benchmark(lambda: _unthunk_all(pullback(case.dy)))


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_pullback_autograd(benchmark: Any, case: Case) -> None:
    benchmark.group = f"{case.name} pullback"
    if not HAVE_AUTOGRAD:
        pytest.skip("autograd is not installed")
    if case.autograd_f is None:
        pytest.skip(f"autograd has no VJP for {case.name}")
    vjp = _autograd_vjp(case)
    benchmark(vjp, case.dy)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_forward_pullback_numpy_by_hand(benchmark: Any, case: Case) -> None:
    benchmark.group = f"{case.name} forward+pullback"
    benchmark.extra_info["baseline"] = True

    def run() -> Any:
        return case.numpy_f(*case.args), case.hand_pullback(case.dy, *case.args)

    benchmark(run)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_forward_pullback_chainrules(benchmark: Any, case: Case) -> None:
    benchmark.group = f"{case.name} forward+pullback"

    def run() -> Any:
        y, pullback = case.rule_call(*case.args)
        return y, _unthunk_all(pullback(case.dy))

    benchmark(run)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_forward_pullback_autograd(benchmark: Any, case: Case) -> None:
    benchmark.group = f"{case.name} forward+pullback"
    if not HAVE_AUTOGRAD:
        pytest.skip("autograd is not installed")
    if case.autograd_f is None:
        pytest.skip(f"autograd has no VJP for {case.name}")
    benchmark(lambda: _autograd_vjp(case)(case.dy))


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_pullback_jax(benchmark: Any, case: Case) -> None:
    benchmark.group = f"{case.name} pullback"
    if not HAVE_JAX:
        pytest.skip("jax is not installed")
    jax = _jax_setup()
    assert case.jax_f is not None
    args = tuple(jax.numpy.asarray(x) for x in case.args)
    _, vjp_fn = jax.vjp(case.jax_f, *args)
    backward = jax.jit(vjp_fn)
    dy = jax.numpy.asarray(case.dy)
    jax.block_until_ready(backward(dy))
    benchmark(lambda: jax.block_until_ready(backward(dy)))


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_forward_pullback_jax(benchmark: Any, case: Case) -> None:
    benchmark.group = f"{case.name} forward+pullback"
    if not HAVE_JAX:
        pytest.skip("jax is not installed")
    jax = _jax_setup()
    assert case.jax_f is not None
    f = case.jax_f

    @jax.jit
    def value_and_cotangents(dy: Any, *args: Any) -> Any:
        y, vjp_fn = jax.vjp(f, *args)
        return y, vjp_fn(dy)

    args = tuple(jax.numpy.asarray(x) for x in case.args)
    dy = jax.numpy.asarray(case.dy)
    jax.block_until_ready(value_and_cotangents(dy, *args))
    benchmark(lambda: jax.block_until_ready(value_and_cotangents(dy, *args)))


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_pullback_torch(benchmark: Any, case: Case) -> None:
    benchmark.group = f"{case.name} pullback"
    if not HAVE_TORCH:
        pytest.skip("torch is not installed")
    import torch

    assert case.torch_f is not None
    inputs = _torch_inputs(case)
    y = case.torch_f(*inputs)
    dy = torch.from_numpy(case.dy)
    benchmark(lambda: torch.autograd.grad(y, inputs, dy, retain_graph=True))


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_forward_pullback_torch(benchmark: Any, case: Case) -> None:
    benchmark.group = f"{case.name} forward+pullback"
    if not HAVE_TORCH:
        pytest.skip("torch is not installed")
    import torch

    assert case.torch_f is not None
    inputs = _torch_inputs(case)
    dy = torch.from_numpy(case.dy)

    def run() -> Any:
        y = case.torch_f(*inputs)
        return y, torch.autograd.grad(y, inputs, dy)

    benchmark(run)
