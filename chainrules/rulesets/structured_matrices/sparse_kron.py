"""``scipy.sparse.kron`` and ``scipy.sparse.kronsum``: Kronecker products and sums of sparse (or dense) matrices.

The maths
---------
For ``A`` of shape ``(m, n)`` and ``B`` of shape ``(p, q)``, ``Y = kron(A, B)`` has
``Y[i p + k, j q + l] = A[i, j] B[k, l]`` (bilinear). The frule is
``kron(dA, B) + kron(A, dB)``; the pullback reads ``dY`` on ``Y``'s stored pattern and, for
each stored entry ``(r, c)`` with ``(i, k) = divmod(r, p)``, ``(j, l) = divmod(c, q)``, adds
``dY[r, c] conj(B[k, l])`` to ``dA[i, j]`` and ``dY[r, c] conj(A[i, j])`` to ``dB[k, l]``:
``O(nnz(Y) log nnz)``, each cotangent on its input's stored pattern (an array for a dense
input).

``kronsum(A, B) = kron(I_n, A) + kron(B, I_m)`` for square ``A`` (``m x m``) and ``B``
(``n x n``) is linear: ``dA[i, j]`` sums the cotangent over the diagonal blocks
(``r // m == c // m``, at ``(r mod m, c mod m)``) and ``dB[b, b']`` over the block
diagonals (``r mod m == c mod m``, at ``(r // m, c // m)``). See Horn & Johnson, *Topics
in Matrix Analysis* (1991), ch. 4, for both.

The ``format=`` keyword is honoured: the output cotangent is read on the pattern of the
output in the format asked for.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.sparse as sp

from chainrules.rulesets.structured_matrices._samples import banded, sparse
from chainrules.rulesets.structured_matrices._sparse_linear import (
    cotangent_at,
    linear_frule,
    output_entries,
    tangent_arguments,
)
from chainrules.rulesets.structured_matrices._tangents import NO, conj, pushforward, tangent_of
from chainrules.structured.sparse import SPARSE_TYPES, gather, is_sparse
from chainrules_core import (
    ProjectTo,
    Sample,
    Thunk,
    cotangent_projector,
    frule,
    rrule,
    sample_inputs,
)

MATRIX = (*SPARSE_TYPES, np.ndarray)
"""A sparse array or matrix, or a dense 2-d ndarray."""


def _values_at(X: Any, rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
    """``X[rows, cols]`` for a sparse or dense ``X`` (zero where a sparse ``X`` stores nothing)."""
    return gather(X, rows, cols) if is_sparse(X) else np.asarray(X)[rows, cols]


def _two_dimensional(*xs: Any) -> bool:
    return all(np.ndim(x) == 2 if not is_sparse(x) else x.ndim == 2 for x in xs)


@rrule.register(sp.kron, MATRIX, MATRIX)
def kron_rrule(A: Any, B: Any, format: Any = None) -> Any:
    """Reverse rule of ``scipy.sparse.kron(A, B)``: see the module docstring.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.sparse as sp
    >>> from chainrules import rrule, unthunk
    >>> A = sp.csr_array(np.array([[1.0, 0.0], [0.0, 2.0]]))
    >>> y, pullback = rrule(sp.kron, A, np.array([[3.0, 4.0]]))
    >>> _, dA, dB = pullback(np.ones((2, 4)))
    >>> unthunk(dA).toarray(), unthunk(dB)
    (array([[7., 0.],
           [0., 7.]]), array([[3., 3.]]))
    """
    if not _two_dimensional(A, B):
        return None
    y = sp.kron(A, B, format=format)
    project_A, project_B, project_y = cotangent_projector(A), cotangent_projector(B), ProjectTo(y)
    p, q = B.shape

    def kron_pullback(dy: Any) -> tuple[Any, Any, Any, Any]:
        entries = output_entries(dy, y, "scipy.sparse.kron", project_y)
        if not isinstance(entries, tuple):
            return NO, project_A(entries), project_B(entries), NO
        (r, c), v = entries
        i, k = np.divmod(r, p)
        j, l = np.divmod(c, q)
        return (NO, Thunk(lambda: cotangent_at(A, project_A, v * conj(_values_at(B, k, l)), (i, j))),
                Thunk(lambda: cotangent_at(B, project_B, v * conj(_values_at(A, i, j)), (k, l))), NO)

    return y, kron_pullback


@frule.register(sp.kron, MATRIX, MATRIX)
def kron_frule(tangents: Any, A: Any, B: Any, format: Any = None) -> Any:
    """Forward rule of ``scipy.sparse.kron(A, B)``: ``kron(dA, B) + kron(A, dB)`` on the output's pattern.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.sparse as sp
    >>> from chainrules import frule, NoTangent, ZeroTangent
    >>> A = sp.eye_array(2, format="csr")
    >>> frule((NoTangent(), A, ZeroTangent()), sp.kron, A, np.ones((1, 2)))[1].toarray()
    array([[1., 1., 0., 0.],
           [0., 0., 1., 1.]])
    """
    if not _two_dimensional(A, B):
        return None
    y = sp.kron(A, B, format=format)
    dA, dB = tangent_of(tangents[1]), tangent_of(tangents[2])
    return pushforward(y, None if dA is None else sp.kron(tangent_arguments(dA, A), B, format=format),
                       None if dB is None else sp.kron(A, tangent_arguments(dB, B), format=format))


@rrule.register(sp.kronsum, MATRIX, MATRIX)
def kronsum_rrule(A: Any, B: Any, format: Any = None) -> Any:
    """Reverse rule of ``scipy.sparse.kronsum(A, B)``: see the module docstring.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.sparse as sp
    >>> from chainrules import rrule, unthunk
    >>> A, B = sp.csr_array(np.ones((2, 2))), sp.csr_array(np.array([[5.0]]))
    >>> y, pullback = rrule(sp.kronsum, A, B)
    >>> _, dA, dB = pullback(np.array([[1.0, 2.0], [3.0, 4.0]]))
    >>> unthunk(dA).toarray(), unthunk(dB).toarray()
    (array([[1., 2.],
           [3., 4.]]), array([[5.]]))
    """
    if not _two_dimensional(A, B):
        return None
    y = sp.kronsum(A, B, format=format)
    project_A, project_B, project_y = cotangent_projector(A), cotangent_projector(B), ProjectTo(y)
    m = A.shape[0]

    def kronsum_pullback(dy: Any) -> tuple[Any, Any, Any, Any]:
        entries = output_entries(dy, y, "scipy.sparse.kronsum", project_y)
        if not isinstance(entries, tuple):
            return NO, project_A(entries), project_B(entries), NO
        (r, c), v = entries
        block_r, i = np.divmod(r, m)
        block_c, j = np.divmod(c, m)
        in_A, in_B = block_r == block_c, i == j
        return (NO, Thunk(lambda: cotangent_at(A, project_A, v[in_A], (i[in_A], j[in_A]))),
                Thunk(lambda: cotangent_at(B, project_B, v[in_B], (block_r[in_B], block_c[in_B]))), NO)

    return y, kronsum_pullback


@frule.register(sp.kronsum, MATRIX, MATRIX)
def kronsum_frule(tangents: Any, A: Any, B: Any, format: Any = None) -> Any:
    """Forward rule of ``scipy.sparse.kronsum(A, B)``: ``kronsum(dA, dB)`` on the output's pattern.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.sparse as sp
    >>> from chainrules import frule, NoTangent
    >>> A, B = sp.csr_array(np.ones((2, 2))), sp.csr_array(np.array([[5.0]]))
    >>> frule((NoTangent(), A, B), sp.kronsum, A, B)[1].toarray()
    array([[6., 1.],
           [1., 6.]])
    """
    if not _two_dimensional(A, B):
        return None
    y = sp.kronsum(A, B, format=format)
    return linear_frule(sp.kronsum, y, (A, B), tangents, (0, 1), {"format": format})


# ---- sample inputs ----------------------------------------------------------------------------------------
@sample_inputs(sp.kron)
def _kron_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample(sparse(rng, "csr", (2, 3)), sparse(rng, "csc", (3, 2)), label="csr, csc"),
        Sample(sparse(rng, "coo", (2, 2)), rng.standard_normal((2, 3)), label="coo, dense (a bsr output)"),
        Sample(rng.standard_normal((2, 2)), banded(rng, (3, 3)), "csc", label="dense, dia; format by position"),
        Sample(sparse(rng, "lil", (2, 2), matrix=True), sparse(rng, "dok", (2, 2), matrix=True),
               fkwargs={"format": "csr"}, label="lil_matrix, dok_matrix; format by keyword"),
        Sample(sparse(rng, "csr", (2, 2), np.complex128), sparse(rng, "bsr", (2, 2), np.complex128), label="complex"),
        Sample(sparse(rng, "csr", (2, 2), np.float32), sparse(rng, "csr", (2, 2), np.float32), label="float32"),
    ]


@sample_inputs(sp.kronsum)
def _kronsum_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample(sparse(rng, "csr", (3, 3)), sparse(rng, "csc", (2, 2)), label="csr, csc"),
        Sample(rng.standard_normal((2, 2)), sparse(rng, "coo", (3, 3)), "csr", label="dense, coo; format by position"),
        Sample(banded(rng, (2, 2), matrix=True), sparse(rng, "lil", (2, 2), matrix=True),
               fkwargs={"format": "bsr"}, label="dia_matrix, lil_matrix; format by keyword"),
        Sample(sparse(rng, "csr", (2, 2), np.complex128), sparse(rng, "dok", (2, 2), np.complex128), label="complex"),
        Sample(sparse(rng, "csr", (2, 2), np.float32), sparse(rng, "csr", (3, 3), np.float32), label="float32"),
    ]
