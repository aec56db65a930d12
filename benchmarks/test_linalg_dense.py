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

from typing import Any

import numpy as np
from _linalg_harness import Case, Suite


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
        # PyTorch differentiates logabsdet only: a real sign has no derivative (and no graph)
        Case(f"slogdet n={n}", (a,), (0.0, 0.7), np.linalg.slogdet, lambda a: anp().linalg.slogdet(a),
             lambda a: tuple(jnp().linalg.slogdet(a)), lambda a: tuple(torch().linalg.slogdet(a)), torch_output=1),
        Case(f"inv n={n}", (a,), r.standard_normal((n, n)), np.linalg.inv, lambda a: anp().linalg.inv(a),
             lambda a: jnp().linalg.inv(a), lambda a: torch().linalg.inv(a)),
        Case(f"solve n={n}", (a, b), r.standard_normal(n), np.linalg.solve, lambda a, b: anp().linalg.solve(a, b),
             lambda a, b: jnp().linalg.solve(a, b), lambda a, b: torch().linalg.solve(a, b)),
    ]


CASES = _cases(50) + _cases(500)
SUITE = Suite(CASES, group_format="{case} {library}")

# ---- NumPy, chainrules and autograd first: JAX and PyTorch start thread pools that would slow the rest ----
test_chainrules_primal, test_chainrules_pullback, test_chainrules_rrule_forward = SUITE.chainrules_tests()
test_autograd_primal, test_autograd_pullback = SUITE.autograd_tests()
test_jax_primal, test_jax_pullback = SUITE.jax_tests()
test_torch_primal, test_torch_pullback = SUITE.torch_tests()
