"""Structured matrices: the array dilemma, the ``Diagonal @ B`` pullback, and its memory.

Groups (ratios are medians over the baseline's median):

* ``dilemma sum n=<n>`` (n = 10, 100, 1000), the ChainRules documentation's example: the
  sum of the entries of a ``Diagonal`` matrix, rule call plus pullback. Baseline: the
  specialised path an AD takes after ``opt_out(rrule, matrix_sum, Diagonal)`` (the rule
  of ``A.sum()`` for structured matrices, which builds ``Diagonal(full(n, dy))``). Against
  it: the generic rule written once for every matrix kind, which builds
  ``np.full((n, n), dy)`` and projects it with ``ProjectTo`` (correct, ``O(n^2)``), and the
  same without the projection (a dense, wrong-kind cotangent), for reference.
* ``Diagonal @ B pullback n=<n>`` (n = 100, 1000): the backward pass of ``D @ B`` for an
  ``n x n`` ``B``, both cotangents computed. Baseline: the dense pullback written in NumPy
  (``dA = dY @ B.T``, ``dB = A.T @ dY`` with ``A = np.diag(d)``, ``O(n^3)``); against it
  the chainrules ``Diagonal`` pullback (``O(n^2)``: ``dd_i = sum_k dY_ik B_ik``), the
  chainrules dense-matrix rule on ``np.diag(d)``, the same ``O(n^2)`` formula by hand, and
  autograd / JAX (jitted) / PyTorch on the elementwise spelling ``d[:, None] * B`` (how one
  writes a diagonal product there).
* ``spsolve pullback n=<n>``: a 2-d Laplacian (``n = 10^4`` unknowns). Baseline: the primal
  ``spsolve``; against it the chainrules pullback (one adjoint solve with the forward
  SuperLU factors, and ``dA`` on the stored pattern).

``test_diagonal_pullback_memory`` measures with ``tracemalloc`` the peak memory the
cotangent of ``D`` takes in the ``D @ B`` pullback (``n`` = 100 ... 4000) against the dense
``dY @ B.T``, and writes ``benchmarks/memory_structured.txt``. Nothing is asserted.

Run: ``python -m pytest benchmarks/test_structured.py --benchmark-only -q``.
"""

from __future__ import annotations

import importlib.util
import operator
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.linalg

from chainrules import NoTangent, ProjectTo, opt_out, rrule, unthunk
from chainrules.structured import Diagonal, StructuredMatrix

HAVE_AUTOGRAD = importlib.util.find_spec("autograd") is not None
HAVE_JAX = importlib.util.find_spec("jax") is not None
HAVE_TORCH = importlib.util.find_spec("torch") is not None


# ---- the array dilemma ------------------------------------------------------------------------------
def matrix_sum(A: Any) -> Any:
    """The sum of the entries of a matrix of any kind."""
    return A.sum()


@rrule.register(matrix_sum, (np.ndarray, StructuredMatrix))
def matrix_sum_rrule(A: Any) -> Any:
    """The generic rule, written once for every matrix kind, projected onto the input."""
    project_A = ProjectTo(A)

    def matrix_sum_pullback(dy: Any) -> tuple[Any, Any]:
        return NoTangent(), project_A(np.full(A.shape, unthunk(dy)))

    return matrix_sum(A), matrix_sum_pullback


def unprojected_matrix_sum_rrule(A: Any) -> Any:
    """The generic rule without ``ProjectTo``: a dense cotangent for every kind (wrong for a Diagonal)."""
    def matrix_sum_pullback(dy: Any) -> tuple[Any, Any]:
        return NoTangent(), np.full(A.shape, unthunk(dy))

    return matrix_sum(A), matrix_sum_pullback


opt_out(rrule, matrix_sum, Diagonal)


def specialised(D: Diagonal) -> Any:
    """What the AD runs once the generic rule is opted out for Diagonal: the rule of ``D.sum()``."""
    assert rrule(matrix_sum, D) is None
    _, pullback = rrule(D.sum)
    return pullback(1.0)[1]


DILEMMA_SIZES = [10, 100, 1000]


@pytest.mark.parametrize("n", DILEMMA_SIZES)
def test_dilemma_specialised(benchmark: Any, n: int) -> None:
    benchmark.group = f"dilemma sum n={n}"
    benchmark.extra_info["baseline"] = True
    D = Diagonal(np.random.default_rng(0).standard_normal(n))
    benchmark(specialised, D)


@pytest.mark.parametrize("n", DILEMMA_SIZES)
def test_dilemma_generic_projected(benchmark: Any, n: int) -> None:
    benchmark.group = f"dilemma sum n={n}"
    D = Diagonal(np.random.default_rng(0).standard_normal(n))
    benchmark(lambda: matrix_sum_rrule(D)[1](1.0)[1])


@pytest.mark.parametrize("n", DILEMMA_SIZES)
def test_dilemma_generic_unprojected(benchmark: Any, n: int) -> None:
    benchmark.group = f"dilemma sum n={n}"
    D = Diagonal(np.random.default_rng(0).standard_normal(n))
    benchmark(lambda: unprojected_matrix_sum_rrule(D)[1](1.0)[1])


# ---- Diagonal @ B ---------------------------------------------------------------------------------------
PRODUCT_SIZES = [100, 1000]


def _product_inputs(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(1)
    return rng.standard_normal(n), rng.standard_normal((n, n)), rng.standard_normal((n, n))


@pytest.mark.parametrize("n", PRODUCT_SIZES)
def test_product_numpy_dense(benchmark: Any, n: int) -> None:
    benchmark.group = f"Diagonal @ B pullback n={n}"
    benchmark.extra_info["baseline"] = True
    d, B, dY = _product_inputs(n)
    A = np.diag(d)
    benchmark(lambda: (dY @ B.T, A.T @ dY))


@pytest.mark.parametrize("n", PRODUCT_SIZES)
def test_product_chainrules_diagonal(benchmark: Any, n: int) -> None:
    benchmark.group = f"Diagonal @ B pullback n={n}"
    d, B, dY = _product_inputs(n)
    _, pullback = rrule(operator.matmul, Diagonal(d), B)
    benchmark(lambda: [unthunk(c) for c in pullback(dY)[1:]])


@pytest.mark.parametrize("n", PRODUCT_SIZES)
def test_product_chainrules_dense(benchmark: Any, n: int) -> None:
    benchmark.group = f"Diagonal @ B pullback n={n}"
    d, B, dY = _product_inputs(n)
    result = rrule(operator.matmul, np.diag(d), B)
    if result is None:
        pytest.skip("no dense matmul rule registered")
    _, pullback = result
    benchmark(lambda: [unthunk(c) for c in pullback(dY)[1:]])


@pytest.mark.parametrize("n", PRODUCT_SIZES)
def test_product_numpy_diagonal(benchmark: Any, n: int) -> None:
    benchmark.group = f"Diagonal @ B pullback n={n}"
    d, B, dY = _product_inputs(n)
    benchmark(lambda: (np.einsum("ij,ij->i", dY, B), d[:, None] * dY))


@pytest.mark.parametrize("n", PRODUCT_SIZES)
def test_product_autograd(benchmark: Any, n: int) -> None:
    benchmark.group = f"Diagonal @ B pullback n={n}"
    if not HAVE_AUTOGRAD:
        pytest.skip("autograd is not installed")
    from autograd import make_vjp

    d, B, dY = _product_inputs(n)
    vjp_d, _ = make_vjp(lambda d: d[:, None] * B)(d)
    vjp_B, _ = make_vjp(lambda B: d[:, None] * B)(B)
    benchmark(lambda: (vjp_d(dY), vjp_B(dY)))


# ---- spsolve --------------------------------------------------------------------------------------------
def _laplacian(m: int) -> Any:
    one = sp.diags_array([-np.ones(m - 1), 2 * np.ones(m), -np.ones(m - 1)], offsets=[-1, 0, 1])
    return sp.csc_array(sp.kronsum(one, one))


@pytest.mark.parametrize("m", [100])
def test_spsolve_primal(benchmark: Any, m: int) -> None:
    benchmark.group = f"spsolve pullback n={m * m}"
    benchmark.extra_info["baseline"] = True
    A, b = _laplacian(m), np.ones(m * m)
    benchmark(scipy.sparse.linalg.spsolve, A, b)


@pytest.mark.parametrize("m", [100])
def test_spsolve_chainrules_pullback(benchmark: Any, m: int) -> None:
    benchmark.group = f"spsolve pullback n={m * m}"
    A, b = _laplacian(m), np.ones(m * m)
    _, pullback = rrule(scipy.sparse.linalg.spsolve, A, b)
    dx = np.random.default_rng(2).standard_normal(m * m)
    benchmark(lambda: [unthunk(c) for c in pullback(dx)[1:]])


# ---- memory of the Diagonal pullback --------------------------------------------------------------------
def _peak_bytes(run: Callable[[], Any]) -> int:
    """Peak memory allocated while ``run()`` executes and its result is alive (NumPy reports to tracemalloc)."""
    tracemalloc.start()
    result = run()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    del result
    return peak


def test_diagonal_pullback_memory(benchmark: Any, capsys: Any) -> None:
    benchmark.group = "Diagonal pullback memory"
    lines = ["peak memory allocated for the cotangent of D in the pullback of D @ B (tracemalloc; "
             "B and dY are n x n float64, allocated before)"]
    for n in (100, 1000, 2000, 4000):
        d, B, dY = _product_inputs(n)
        _, pullback = rrule(operator.matmul, Diagonal(d), B)
        structured = _peak_bytes(lambda pullback=pullback, dY=dY: unthunk(pullback(dY)[1]))
        dense = _peak_bytes(lambda dY=dY, B=B: dY @ B.T)
        benchmark.extra_info[f"n={n}"] = {"Diagonal": structured, "dense": dense}
        lines.append(f"    n={n:<5}  chainrules Diagonal dA: {structured:>9,d} bytes ({structured / n:5.1f} per row)"
                     f"   dense dY @ B.T: {dense:>12,d} bytes")
    Path(__file__).with_name("memory_structured.txt").write_text("\n".join(lines) + "\n")
    with capsys.disabled():
        print("\n" + "\n".join(lines))
    d, B, dY = _product_inputs(100)
    _, pullback = rrule(operator.matmul, Diagonal(d), B)
    benchmark(lambda: unthunk(pullback(dY)[1]))


# ---- JAX and PyTorch last (they start thread pools) ----------------------------------------------------------
@pytest.mark.parametrize("n", PRODUCT_SIZES)
def test_product_jax(benchmark: Any, n: int) -> None:
    benchmark.group = f"Diagonal @ B pullback n={n}"
    if not HAVE_JAX:
        pytest.skip("jax is not installed")
    import jax

    jax.config.update("jax_enable_x64", True)
    jax.config.update("jax_platforms", "cpu")
    d, B, dY = (jax.numpy.asarray(a) for a in _product_inputs(n))
    _, vjp_fn = jax.vjp(lambda d, B: d[:, None] * B, d, B)
    backward = jax.jit(vjp_fn)
    jax.block_until_ready(backward(dY))
    benchmark(lambda: jax.block_until_ready(backward(dY)))


@pytest.mark.parametrize("n", PRODUCT_SIZES)
def test_product_torch(benchmark: Any, n: int) -> None:
    benchmark.group = f"Diagonal @ B pullback n={n}"
    if not HAVE_TORCH:
        pytest.skip("torch is not installed")
    import torch

    d, B, dY = (torch.from_numpy(a) for a in _product_inputs(n))
    d.requires_grad_(True)
    B.requires_grad_(True)
    y = d[:, None] * B
    benchmark(lambda: torch.autograd.grad(y, (d, B), dY, retain_graph=True))
