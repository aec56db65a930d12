"""``scipy.sparse`` functions declared non-differentiable: constant and random constructors, type and
index-dtype queries, and file input/output.

Their rules return ``NoTangent()`` for every argument
(:func:`chainrules_core.non_differentiable`), so an AD system that meets them stops
differentiating there instead of failing to find a rule:

* constant arrays: ``eye``, ``eye_array`` and ``identity`` (their arguments are shapes, an
  offset, a dtype and a format: the stored values are ones whatever they are);
* random arrays: ``rand``, ``random`` and ``random_array``. Their values are *drawn*: the
  arguments are a shape, a density, a format, a dtype and a random generator (or a
  sampler callable), none of them a parameter the values depend on smoothly, so there is
  nothing to differentiate. To differentiate with respect to the values, draw the pattern
  once and scale it: ``R.multiply(theta)`` or ``R @ x`` have rules;
* queries: ``issparse`` and ``isspmatrix``, ``isspmatrix_bsr``, ``isspmatrix_coo``,
  ``isspmatrix_csc``, ``isspmatrix_csr``, ``isspmatrix_dia``, ``isspmatrix_dok``,
  ``isspmatrix_lil`` (booleans), ``get_index_dtype`` (a dtype) and
  ``safely_cast_index_arrays`` (the index arrays of a sparse array, integers);
* files: ``save_npz`` (returns ``None``) and ``load_npz`` (reads values from a file: no
  argument they depend on);
* ``scipy.sparse.linalg``: ``is_sptriangular`` (booleans), ``spbandwidth`` (integers) and
  ``use_solver`` (a setting; returns ``None``).

Examples
--------
>>> import scipy.sparse as sp
>>> from chainrules import rrule
>>> y, pullback = rrule(sp.eye_array, 2)
>>> y.toarray(), pullback(None)
(array([[1., 0.],
       [0., 1.]]), (NoTangent(), NoTangent()))
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg

from chainrules.rulesets.structured_matrices._samples import sparse
from chainrules_core import Sample, non_differentiable, sample_inputs

__all__: list[str] = []

CONSTANT = (sp.eye, sp.eye_array, sp.identity)
"""Constructors whose stored values are ones."""

RANDOM = (sp.rand, sp.random, sp.random_array)
"""Constructors whose values are drawn at random."""

QUERIES = (
    sp.issparse, sp.isspmatrix, sp.isspmatrix_bsr, sp.isspmatrix_coo, sp.isspmatrix_csc, sp.isspmatrix_csr,
    sp.isspmatrix_dia, sp.isspmatrix_dok, sp.isspmatrix_lil, sp.get_index_dtype, sp.safely_cast_index_arrays,
)
"""Type tests, index dtypes and index arrays."""

FILES = (sp.save_npz, sp.load_npz)
"""Reading and writing ``.npz`` files."""

LINALG = (scipy.sparse.linalg.is_sptriangular, scipy.sparse.linalg.spbandwidth, scipy.sparse.linalg.use_solver)
"""Structure queries and the solver setting of ``scipy.sparse.linalg``."""

for _f in CONSTANT + RANDOM + QUERIES + FILES + LINALG:
    non_differentiable(_f)


def _saved(A: Any) -> io.BytesIO:
    buffer = io.BytesIO()
    sp.save_npz(buffer, A)
    return io.BytesIO(buffer.getvalue())


def _calls(rng: np.random.Generator) -> dict[Any, list[Sample]]:
    """A few valid calls of every function declared here."""
    A = sparse(rng, "csr", (3, 4))
    legacy = sparse(rng, "coo", (3, 3), matrix=True)
    calls: dict[Any, list[Sample]] = {
        sp.eye: [Sample(3), Sample(2, 3, 1, label="rectangular, offset by position")],
        sp.eye_array: [Sample(3), Sample(2, 3, fkwargs={"k": -1, "format": "csr"}, label="offset by keyword")],
        sp.identity: [Sample(3), Sample(2, np.float32, "csc", label="dtype and format by position")],
        sp.rand: [Sample(3, 4, 0.5, fkwargs={"rng": 0})],
        sp.random: [Sample(3, 4, fkwargs={"density": 0.5, "rng": 1})],
        sp.random_array: [Sample((3, 4), fkwargs={"density": 0.5, "rng": 2, "format": "csr"})],
        sp.get_index_dtype: [Sample((np.arange(3),)), Sample(fkwargs={"maxval": 2**40})],
        sp.safely_cast_index_arrays: [Sample(A)],
        sp.save_npz: [Sample(io.BytesIO(), A)],
        sp.load_npz: [Sample(_saved(A))],
        scipy.sparse.linalg.is_sptriangular: [Sample(A), Sample(sp.tril(legacy), label="a lower triangle")],
        scipy.sparse.linalg.spbandwidth: [Sample(A)],
        scipy.sparse.linalg.use_solver: [Sample(fkwargs={"useUmfpack": False})],
    }
    for query in QUERIES[:9]:
        calls[query] = [Sample(A), Sample(legacy, label="legacy matrix")]
    return calls


def _declared_samples(f: Any) -> Callable[[np.random.Generator], Iterator[Sample]]:
    def non_differentiable_samples(rng: np.random.Generator) -> Iterator[Sample]:
        yield from _calls(rng)[f]

    non_differentiable_samples.__qualname__ = f"non_differentiable_samples[{f.__name__}]"
    return non_differentiable_samples


for _f in CONSTANT + RANDOM + QUERIES + FILES + LINALG:
    sample_inputs(_f)(_declared_samples(_f))
