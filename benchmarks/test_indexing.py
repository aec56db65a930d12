"""Gradient of k scalar reads ``x[i]`` of an n-vector: O(k) with ``add_``, not O(k n).

The loss is ``sum(x[i] for i in idx)`` with k = 100 random indices, for n = 1e4, 1e5 and
1e6. Each group (one n) times, on the same indices:

* ``primal``: the reads alone (the baseline);
* ``chainrules, add_ into an existing accumulator``: for each read, ``rrule(operator.getitem,
  x, i)``, its pullback, and ``add_(acc, dx)`` into one accumulator that already exists
  (what an AD does for a variable it accumulates into): the ``InplaceableThunk`` adds one
  entry, so the cost does not depend on n;
* ``chainrules, add_ into a new accumulator``: the same plus ``np.zeros(n)`` for the
  accumulator (once per gradient);
* ``chainrules, dense cotangent per read``: what accumulating without ``add_`` costs,
  ``acc += unthunk(dx)`` (one dense array of n entries per read: O(k n));
* ``autograd``: ``autograd.grad`` of the same loss (its ``x[i]`` VJP is a sparse object that
  autograd adds into one dense gradient: O(n + k), plus its tracing overhead);
* ``jax (eager)`` and ``jax (jit)``: ``jax.grad`` of the same loss, without and with
  compilation (compiled once, outside the timing);
* ``torch``: ``backward()`` of the same loss (each read's backward builds a dense gradient).

Run: ``python -m pytest benchmarks/test_indexing.py --benchmark-only -q``; the ratio table
(median / primal median) is printed and written to ``benchmarks/ratios.txt``. Compare the
``add_`` rows across the three groups: their time stays flat while n grows 100-fold.
"""

from __future__ import annotations

import importlib.util
import operator
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from chainrules import add_, rrule, unthunk

K = 100
SIZES = [10_000, 100_000, 1_000_000]


def _reads(n: int) -> tuple[np.ndarray, list[int]]:
    rng = np.random.default_rng(n)
    return rng.standard_normal(n), [int(i) for i in rng.integers(0, n, K)]


def _run(benchmark: Any, n: int, fn: Callable[[], Any], baseline: bool = False) -> None:
    benchmark.group = f"indexing: gradient of {K} reads x[i], n = {n:.0e}"
    if baseline:
        benchmark.extra_info["baseline"] = True
    rounds = 5 if n >= 1_000_000 else 20
    benchmark.pedantic(fn, rounds=rounds, iterations=1, warmup_rounds=1)


def chainrules_gradient(x: np.ndarray, idx: list[int], acc: np.ndarray) -> np.ndarray:
    """The loss and its gradient through the rules, accumulating with ``add_``."""
    getitem = operator.getitem
    total = 0.0
    pullbacks = []
    for i in idx:
        y, pullback = rrule(getitem, x, i)
        total += y
        pullbacks.append(pullback)
    for pullback in reversed(pullbacks):
        acc = add_(acc, pullback(1.0)[1])
    return acc


def chainrules_dense_gradient(x: np.ndarray, idx: list[int]) -> np.ndarray:
    """The same, with each cotangent made dense (no in-place accumulation)."""
    getitem = operator.getitem
    acc = np.zeros_like(x)
    for i in idx:
        _, pullback = rrule(getitem, x, i)
        acc += unthunk(pullback(1.0)[1])
    return acc


@pytest.mark.parametrize("n", SIZES)
def test_primal(benchmark: Any, n: int) -> None:
    x, idx = _reads(n)
    _run(benchmark, n, lambda: sum(x[i] for i in idx), baseline=True)


@pytest.mark.parametrize("n", SIZES)
def test_chainrules_add_into_existing_accumulator(benchmark: Any, n: int) -> None:
    x, idx = _reads(n)
    acc = np.zeros(n)
    expected = np.bincount(idx, minlength=n).astype(float)
    grad = chainrules_gradient(x, idx, np.zeros(n))
    np.testing.assert_allclose(grad, expected)
    _run(benchmark, n, lambda: chainrules_gradient(x, idx, acc))


@pytest.mark.parametrize("n", SIZES)
def test_chainrules_add_into_new_accumulator(benchmark: Any, n: int) -> None:
    x, idx = _reads(n)
    _run(benchmark, n, lambda: chainrules_gradient(x, idx, np.zeros(n)))


@pytest.mark.parametrize("n", SIZES)
def test_chainrules_dense_cotangent_per_read(benchmark: Any, n: int) -> None:
    x, idx = _reads(n)
    np.testing.assert_allclose(chainrules_dense_gradient(x, idx), np.bincount(idx, minlength=n))
    _run(benchmark, n, lambda: chainrules_dense_gradient(x, idx))


@pytest.mark.parametrize("n", SIZES)
def test_autograd(benchmark: Any, n: int) -> None:
    if importlib.util.find_spec("autograd") is None:
        pytest.skip("autograd is not installed")
    import autograd

    x, idx = _reads(n)

    def loss(v: Any) -> Any:
        return sum(v[i] for i in idx)

    grad = autograd.grad(loss)
    np.testing.assert_allclose(grad(x), np.bincount(idx, minlength=n))
    _run(benchmark, n, lambda: grad(x))


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("jit", [False, True], ids=["eager", "jit"])
def test_jax(benchmark: Any, n: int, jit: bool) -> None:
    if importlib.util.find_spec("jax") is None:
        pytest.skip("jax is not installed")
    import jax
    import jax.numpy as jnp

    jax.config.update("jax_enable_x64", True)
    x, idx = _reads(n)
    xj = jnp.asarray(x)

    def loss(v: Any) -> Any:
        return sum(v[i] for i in idx)

    grad = jax.jit(jax.grad(loss)) if jit else jax.grad(loss)
    np.testing.assert_allclose(np.asarray(grad(xj)), np.bincount(idx, minlength=n))
    _run(benchmark, n, lambda: grad(xj).block_until_ready())


@pytest.mark.parametrize("n", SIZES)
def test_torch(benchmark: Any, n: int) -> None:
    if importlib.util.find_spec("torch") is None:
        pytest.skip("torch is not installed")
    import torch

    x, idx = _reads(n)
    xt = torch.tensor(x, requires_grad=True)

    def gradient() -> Any:
        xt.grad = None
        loss = sum(xt[i] for i in idx)
        loss.backward()
        return xt.grad

    np.testing.assert_allclose(gradient().numpy(), np.bincount(idx, minlength=n))
    _run(benchmark, n, gradient)
