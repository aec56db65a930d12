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

from typing import Any

import numpy as np
from _linalg_harness import Case, Suite


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

    return Case(f"cholesky n={n}", (a,), dy, np.linalg.cholesky, autograd_f, jax_f, torch_f)


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

    return Case(f"qr n={n}", (a,), dy, np.linalg.qr, None, jax_f, torch_f)


CASES = [_cholesky_case(50), _cholesky_case(500), _qr_case(50), _qr_case(500)]
SUITE = Suite(CASES)

# ---- NumPy-based first: JAX and PyTorch start thread pools --------------------------------------------------------
test_chainrules_primal, test_chainrules_pullback, test_chainrules_rrule_forward = SUITE.chainrules_tests()
test_autograd_primal, test_autograd_pullback = SUITE.autograd_tests()
test_jax_primal, test_jax_pullback = SUITE.jax_tests()
test_torch_primal, test_torch_pullback = SUITE.torch_tests()
