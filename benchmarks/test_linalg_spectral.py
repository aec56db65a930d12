"""Spectral factorizations: pullback time / primal time for ``eigh`` and ``svd``, chainrules against
autograd, JAX and PyTorch.

For ``np.linalg.eigh`` of a symmetric matrix and ``np.linalg.svd(full_matrices=False)`` of a
square one, at n = 50 and 500, one group per library holds its primal (the baseline) and its
pullback, so each group's ratio is that library's pullback time over its own primal time.
The output cotangent is random in every output (eigenvalues and eigenvectors; U, s and V^H):

* ``chainrules``: primal ``np.linalg.eigh(a)`` / ``np.linalg.svd(a, full_matrices=False)``;
  pullback ``pullback(dy)`` of the rrule (the forward pass done beforehand); also the rrule's
  forward pass, for its overhead over the plain call;
* ``autograd``: the same NumPy primal; pullback ``vjp(dy)`` from ``make_vjp``;
* ``jax``: jitted ``jnp.linalg.eigh``/``svd`` on the CPU in float64; pullback the jitted
  ``vjp_fn(dy)``;
* ``torch``: ``torch.linalg.eigh``/``svd`` on the CPU in float64; pullback
  ``torch.autograd.grad`` on a retained graph.

Run with every library pinned to one thread (the machine is shared; BLAS thread pools that
fight each other make the numbers meaningless)::

    OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 \\
    XLA_FLAGS="--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1" \\
    python -m pytest benchmarks/test_linalg_spectral.py --benchmark-only -q

The ratio table (median / the group's primal median) is printed at the end and written to
``benchmarks/ratios.txt``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from _linalg_harness import Case, Suite


def _eigh_case(n: int) -> Case:
    r = np.random.default_rng(21)
    g = r.standard_normal((n, n))
    a = (g + g.T) / 2
    dy = (r.standard_normal(n), r.standard_normal((n, n)))

    def autograd_f(x: Any) -> Any:
        import autograd.numpy as anp
        return anp.linalg.eigh(x)

    def jax_f(x: Any) -> Any:
        import jax.numpy as jnp
        return tuple(jnp.linalg.eigh(x))

    def torch_f(x: Any) -> Any:
        import torch
        return tuple(torch.linalg.eigh(x))

    return Case(f"eigh n={n}", (a,), dy, np.linalg.eigh, autograd_f, jax_f, torch_f)


def _svd_case(n: int) -> Case:
    r = np.random.default_rng(22)
    a = r.standard_normal((n, n))
    dy = (r.standard_normal((n, n)), r.standard_normal(n), r.standard_normal((n, n)))

    def numpy_f(x: np.ndarray) -> Any:
        return np.linalg.svd(x, full_matrices=False)

    def autograd_f(x: Any) -> Any:
        import autograd.numpy as anp
        return anp.linalg.svd(x, full_matrices=False)

    def jax_f(x: Any) -> Any:
        import jax.numpy as jnp
        return tuple(jnp.linalg.svd(x, full_matrices=False))

    def torch_f(x: Any) -> Any:
        import torch
        return tuple(torch.linalg.svd(x, full_matrices=False))

    # the rule is looked up on np.linalg.svd itself, full_matrices=False passed positionally
    return Case(f"svd n={n}", (a,), dy, numpy_f, autograd_f, jax_f, torch_f, rrule_args=(np.linalg.svd, a, False))


CASES = [_eigh_case(50), _eigh_case(500), _svd_case(50), _svd_case(500)]
SUITE = Suite(CASES)

# ---- NumPy-based first: JAX and PyTorch start thread pools --------------------------------------------------------
test_chainrules_primal, test_chainrules_pullback, test_chainrules_rrule_forward = SUITE.chainrules_tests()
test_autograd_primal, test_autograd_pullback = SUITE.autograd_tests()
test_jax_primal, test_jax_pullback = SUITE.jax_tests()
test_torch_primal, test_torch_pullback = SUITE.torch_tests()
