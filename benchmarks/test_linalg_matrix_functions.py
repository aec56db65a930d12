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

from typing import Any

import numpy as np
import pytest
import scipy.linalg
from _linalg_harness import Case, Suite


def _jax_expm(x: Any) -> Any:
    import jax.scipy.linalg
    return jax.scipy.linalg.expm(x)


def _torch_expm(x: Any) -> Any:
    import torch
    return torch.linalg.matrix_exp(x)


def _case(n: int) -> Case:
    r = np.random.default_rng(31)
    a, dy = r.standard_normal((n, n)) / np.sqrt(n), r.standard_normal((n, n))
    return Case(f"expm n={n}", (a,), dy, scipy.linalg.expm, None, _jax_expm, _torch_expm)


CASES = [_case(50), _case(500)]
SUITE = Suite(CASES)

# ---- NumPy-based first: JAX and PyTorch start thread pools --------------------------------------------------------
test_chainrules_primal, test_chainrules_pullback, test_chainrules_rrule_forward = SUITE.chainrules_tests()


@SUITE.parametrize
def test_scipy_expm_frechet_adjoint(benchmark: Any, case: Case) -> None:
    """``L(A^T, dY)`` by SciPy's ``expm_frechet``: the same algorithm, every intermediate recomputed."""
    benchmark.group = SUITE.group(case, "chainrules")
    a, = case.args
    benchmark(scipy.linalg.expm_frechet, a.T, case.dy, compute_expm=False)


def test_autograd_has_no_expm_derivative() -> None:
    pytest.skip("autograd has no expm derivative (autograd.scipy.linalg.expm: 'VJP of expm wrt argnums (0,) "
                "not defined')")


test_jax_primal, test_jax_pullback = SUITE.jax_tests()
test_torch_primal, test_torch_pullback = SUITE.torch_tests()
