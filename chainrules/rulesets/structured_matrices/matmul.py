"""Matrix products with structured matrices: ``A @ B`` and ``np.matmul(A, B)``.

``y = A @ B`` has the cotangents ``dA = ProjectTo(A)(dY @ B^H)`` and
``dB = ProjectTo(B)(A^H @ dY)``, in every combination of structured matrix and ndarray
(``B`` of shape ``(n,)``, ``(n, k)`` or stacked ``(..., n, k)``; on the left ``(n,)``,
``(k, n)`` or ``(..., k, n)``). The cost is that of the structure:

* the cotangent of a structured factor is computed only where the structure keeps it:
  for a ``Diagonal`` ``A`` in ``A @ B`` it is ``dA_i = sum_k dY_ik conj(B_ik)``, ``O(n k)``
  time and ``O(n)`` extra memory, never the ``n x n`` product ``dY @ B^H``; banded types
  compute their two or three diagonals the same way
  (:meth:`~chainrules.structured.StructuredProjector.product`);
* the cotangent of the other factor is a product with ``A^H``, a structured matrix of the
  same kind (``O(n k)`` for a banded ``A``).

The output cotangent is first projected onto the output's own space (a structured output,
such as ``Diagonal @ Diagonal``, accepts its own type, a dense matrix or a structural
``Tangent``). The frule is ``dA @ B + A @ dB``, projected onto the output.
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from chainrules.rulesets.structured_matrices._samples import every_kind, structured
from chainrules.rulesets.structured_matrices._tangents import (
    NO,
    STRUCTURED,
    conj,
    pushforward,
    read_output,
    tangent_of,
)
from chainrules.structured import (
    Bidiagonal,
    Diagonal,
    Hermitian,
    LowerTriangular,
    Symmetric,
    Tridiagonal,
    UpperTriangular,
)
from chainrules.structured.base import StructuredMatrix, as_columns, as_rows
from chainrules.structured.projection import StructuredProjector
from chainrules_core import (
    ProjectTo,
    Sample,
    Thunk,
    cotangent_projector,
    frule,
    passes_through,
    reject_keywords,
    rrule,
    sample_inputs,
)

_REJECTED = ("out", "axes", "axis", "dtype", "casting", "order", "subok", "signature")


def _left_factor_cotangent(A: Any, B: Any, dY: Any, project_A: Any) -> Any:
    """``project_A(dY @ B^H)``, the cotangent of ``A`` in ``A @ B``, at the cost of ``A``'s structure."""
    if isinstance(A, StructuredMatrix):
        if isinstance(B, StructuredMatrix):
            if isinstance(dY, np.ndarray) and isinstance(project_A, StructuredProjector):
                return project_A.product(dY, B.adjoint().to_dense())
            return project_A(dY @ B.adjoint())
        dY_cols, _ = as_columns(np.asarray(dY), A.n, "matmul pullback")
        B_cols, _ = as_columns(B, A.n, "matmul pullback")
        return project_A.product(dY_cols, conj(B_cols).T)
    # A is an ndarray of shape (n,) or (..., k, n): dY @ B^H has A's shape
    return project_A(B.adjoint()._matmul_left(np.asarray(dY)))


def _right_factor_cotangent(A: Any, B: Any, dY: Any, project_B: Any) -> Any:
    """``project_B(A^H @ dY)``, the cotangent of ``B`` in ``A @ B``, at the cost of ``B``'s structure."""
    if isinstance(B, StructuredMatrix):
        if isinstance(A, StructuredMatrix):
            if isinstance(dY, np.ndarray) and isinstance(project_B, StructuredProjector):
                return project_B.product(A.adjoint().to_dense(), dY)
            return project_B(A.adjoint() @ dY)
        A_rows, _ = as_rows(A, B.n, "matmul pullback")
        dY_rows, _ = as_rows(np.asarray(dY), B.n, "matmul pullback")
        return project_B.product(conj(A_rows).T, dY_rows)
    return project_B(A.adjoint()._matmul_right(np.asarray(dY)))


def _matmul_rrule(f: Any, A: Any, B: Any, kwargs: dict[str, Any]) -> Any:
    reject_keywords(f, kwargs, _REJECTED)
    y = A @ B
    project_A, project_B, project_y = cotangent_projector(A), cotangent_projector(B), ProjectTo(y)

    def matmul_pullback(dy: Any) -> tuple[Any, Any, Any]:
        dY = read_output(dy, y, "numpy.matmul" if f is np.matmul else "operator.matmul", project_y)
        if passes_through(dY):
            return NO, project_A(dY), project_B(dY)
        dA = Thunk(lambda: _left_factor_cotangent(A, B, dY, project_A))
        dB = Thunk(lambda: _right_factor_cotangent(A, B, dY, project_B))
        return NO, dA, dB

    return y, matmul_pullback


def _matmul_frule(f: Any, tangents: Any, A: Any, B: Any, kwargs: dict[str, Any]) -> Any:
    reject_keywords(f, kwargs, _REJECTED)
    y = A @ B
    dA, dB = tangent_of(tangents[1]), tangent_of(tangents[2])
    return pushforward(y, None if dA is None else dA @ B, None if dB is None else A @ dB)


def _register(f: Any) -> None:
    for types in ((STRUCTURED, np.ndarray), (np.ndarray, STRUCTURED), (STRUCTURED, STRUCTURED)):
        rrule.register(f, *types)(matmul_rrule if f is np.matmul else operator_matmul_rrule)
        frule.register(f, *types)(matmul_frule if f is np.matmul else operator_matmul_frule)


def matmul_rrule(A: Any, B: Any, **kwargs: Any) -> Any:
    """Reverse rule of ``np.matmul(A, B)`` with a structured factor (see the module docstring).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule, unthunk
    >>> from chainrules.structured import Diagonal
    >>> y, pullback = rrule(np.matmul, Diagonal(np.array([1.0, 2.0])), np.ones((2, 3)))
    >>> unthunk(pullback(np.ones((2, 3)))[1])
    Diagonal(array([3., 3.]))
    """
    return _matmul_rrule(np.matmul, A, B, kwargs)


def matmul_frule(tangents: Any, A: Any, B: Any, **kwargs: Any) -> Any:
    """Forward rule of ``np.matmul(A, B)`` with a structured factor: ``dA @ B + A @ dB``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> from chainrules.structured import Diagonal
    >>> D = Diagonal(np.array([1.0, 2.0]))
    >>> frule((NoTangent(), Diagonal(np.ones(2)), np.zeros(2)), np.matmul, D, np.array([3.0, 4.0]))
    (array([3., 8.]), array([3., 4.]))
    """
    return _matmul_frule(np.matmul, tangents, A, B, kwargs)


def operator_matmul_rrule(A: Any, B: Any) -> Any:
    """Reverse rule of ``A @ B`` with a structured factor (as :func:`matmul_rrule`).

    Examples
    --------
    >>> import operator
    >>> import numpy as np
    >>> from chainrules import rrule, unthunk
    >>> from chainrules.structured import Diagonal
    >>> y, pullback = rrule(operator.matmul, np.ones(2), Diagonal(np.array([1.0, 2.0])))
    >>> y, unthunk(pullback(np.array([1.0, 1.0]))[2])
    (array([1., 2.]), Diagonal(array([1., 1.])))
    """
    return _matmul_rrule(operator.matmul, A, B, {})


def operator_matmul_frule(tangents: Any, A: Any, B: Any) -> Any:
    """Forward rule of ``A @ B`` with a structured factor: ``dA @ B + A @ dB``.

    Examples
    --------
    >>> import operator
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> from chainrules.structured import Diagonal
    >>> D = Diagonal(np.array([1.0, 2.0]))
    >>> frule((NoTangent(), np.ones(2), D), operator.matmul, np.ones(2), D)[1]
    array([2., 4.])
    """
    return _matmul_frule(operator.matmul, tangents, A, B, {})


_register(np.matmul)
_register(operator.matmul)


# ---- sample inputs ----------------------------------------------------------------------------------------
@sample_inputs(np.matmul, operator.matmul)
def _structured_matmul_samples(rng: np.random.Generator) -> list[Sample]:
    out = [Sample(m, rng.standard_normal((3, 2)), label=f"{label} @ a matrix") for label, m in every_kind(rng)]
    out += [
        Sample(structured(rng, Tridiagonal), rng.standard_normal(3), label="Tridiagonal @ a vector"),
        Sample(rng.standard_normal((2, 3)), structured(rng, Bidiagonal, True), label="a matrix @ Bidiagonal"),
        Sample(rng.standard_normal((2, 2, 3)), structured(rng, Symmetric), label="a stack @ Symmetric"),
        Sample(structured(rng, Diagonal), structured(rng, UpperTriangular), label="Diagonal @ UpperTriangular"),
        Sample(structured(rng, Hermitian, False, 3, np.complex128), rng.standard_normal(3), label="complex"),
        Sample(structured(rng, LowerTriangular, False, 3, np.float32), rng.standard_normal(3).astype(np.float32),
               label="float32"),
    ]
    return out
