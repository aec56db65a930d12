"""``numpy.linalg`` and ``scipy.linalg`` functions declared non-differentiable: ranks, parameter-free matrices,
structure tests, tools.

Their outputs are integers or booleans (which have no tangent space), matrices whose
values depend on no differentiable argument, or objects that are not numbers at all; their
rules return ``NoTangent()`` for every argument (:func:`chainrules_core.non_differentiable`),
so an AD system that meets them stops differentiating there instead of failing to find a
rule.

* **matrices of an integer size**: ``dft(n, scale)``, ``hadamard(n)``, ``helmert(n, full)``,
  ``hilbert(n)``, ``invhilbert(n, exact)``, ``pascal(n, kind, exact)``, ``invpascal(n, kind,
  exact)``: their entries are fixed numbers of ``n`` (``scale`` and ``kind`` are strings);
* **ranks**: ``np.linalg.matrix_rank(A)`` (an integer: locally constant where it is defined);
* **structure tests**: ``bandwidth(a)`` (a pair of integers), ``ishermitian(a, atol, rtol)``
  and ``issymmetric(a, atol, rtol)`` (booleans: piecewise constant in ``a``, so their
  derivative is zero wherever it exists);
* **BLAS/LAPACK lookup**: ``find_best_blas_type``, ``get_blas_funcs``, ``get_lapack_funcs``
  (a type prefix, a dtype and a flag; wrapped Fortran routines).

Examples
--------
>>> import numpy as np
>>> import scipy.linalg
>>> from chainrules import rrule
>>> y, pullback = rrule(scipy.linalg.issymmetric, np.array([[1.0, 2.0], [2.0, 1.0]]))
>>> y, pullback(None)
(True, (NoTangent(), NoTangent()))
"""

from __future__ import annotations

import numpy as np
import scipy.linalg

from chainrules_core import Sample, non_differentiable, sample_inputs

CONSTANT_MATRICES = (
    scipy.linalg.dft, scipy.linalg.hadamard, scipy.linalg.helmert, scipy.linalg.hilbert, scipy.linalg.invhilbert,
    scipy.linalg.pascal, scipy.linalg.invpascal,
)
"""Matrices whose entries are fixed numbers of an integer size."""

RANKS = (np.linalg.matrix_rank,)
"""Integers: locally constant where they are defined."""

STRUCTURE_TESTS = (scipy.linalg.bandwidth, scipy.linalg.ishermitian, scipy.linalg.issymmetric)
"""Functions returning integers or booleans about a matrix's structure."""

BLAS_TOOLS = (scipy.linalg.find_best_blas_type, scipy.linalg.get_blas_funcs, scipy.linalg.get_lapack_funcs)
"""Lookup of BLAS and LAPACK routines: their outputs are not numbers."""

for _f in RANKS + CONSTANT_MATRICES + STRUCTURE_TESTS + BLAS_TOOLS:
    non_differentiable(_f)


# ---- sample inputs ----------------------------------------------------------------------------------------
@sample_inputs(np.linalg.matrix_rank)
def _matrix_rank_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(rng.standard_normal((3, 3)), label="full rank"),
            Sample(rng.standard_normal((3, 2)) @ rng.standard_normal((2, 3)), fkwargs={"tol": 1e-8}, label="rank 2")]


@sample_inputs(*CONSTANT_MATRICES)
def _constant_matrix_samples() -> list[Sample]:
    return [Sample(4, label="n = 4")]


@sample_inputs(*STRUCTURE_TESTS)
def _structure_test_samples(rng: np.random.Generator) -> list[Sample]:
    a = rng.standard_normal((3, 3))
    return [Sample(a + a.T, label="symmetric"), Sample(np.triu(a), label="upper triangular")]


@sample_inputs(scipy.linalg.find_best_blas_type)
def _blas_type_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample((rng.standard_normal(2),), label="one float64 array")]


@sample_inputs(scipy.linalg.get_blas_funcs, scipy.linalg.get_lapack_funcs)
def _routine_lookup_samples(rng: np.random.Generator) -> list[Sample]:
    # No names: the Fortran routines a lookup returns cannot be deep-copied, which the testers do with every
    # output; the empty list they return for no names can, and the rule is the same (NoTangent() for all).
    return [Sample((), (rng.standard_normal((2, 2)),), label="no names, an array")]
