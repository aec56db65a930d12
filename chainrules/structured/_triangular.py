"""What ``UpperTriangular`` and ``LowerTriangular`` share (private).

A triangular matrix wraps a square array and reads one triangle of it (diagonal
included); the other triangle is ignored, as LAPACK does. Solves use
``scipy.linalg.solve_triangular`` on the wrapped array directly (no copy); the
determinant is the product of the diagonal.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
import scipy.linalg

from chainrules.structured._linalg import (
    check_nonsingular_diagonal,
    det_of_diagonal,
    products_except_each,
    slogdet_of_diagonal,
)
from chainrules.structured._wrapped import WrappedMatrix, triangle
from chainrules.structured.base import StructuredMatrix, inexact
from chainrules.structured.projection import StructuredProjector
from chainrules_core import AbstractZero, unthunk


class TriangularMatrix(WrappedMatrix):
    """Base of ``UpperTriangular`` and ``LowerTriangular``."""

    __slots__ = ()
    _lower: ClassVar[bool] = False

    def _replace(self, *arrays: np.ndarray) -> StructuredMatrix:
        return type(self)(*arrays)

    def _repr_arrays(self) -> tuple[np.ndarray, ...]:
        return (self._to_dense(),)

    def _bandwidths(self) -> tuple[int | None, int | None]:
        return (None, 0) if self._lower else (0, None)

    def _to_dense(self) -> np.ndarray:
        return triangle(self.data, self._lower)

    def _diagonal(self, offset: int) -> np.ndarray:
        kept = offset <= 0 if self._lower else offset >= 0
        if kept:
            return np.diagonal(self.data, offset).copy()
        return np.zeros(max(self.n - abs(offset), 0), dtype=self.dtype)

    def _transpose(self) -> StructuredMatrix:
        other = "UpperTriangular" if self._lower else "LowerTriangular"
        return StructuredMatrix._kinds[other](self.data.T)

    def _det(self) -> Any:
        return det_of_diagonal(np.diagonal(self.data))

    def _slogdet(self) -> Any:
        return slogdet_of_diagonal(np.diagonal(self.data))

    def _inv(self) -> StructuredMatrix:
        check_nonsingular_diagonal(np.diagonal(self.data))
        identity = np.eye(self.n, dtype=inexact(self.dtype))
        return type(self)(scipy.linalg.solve_triangular(self.data, identity, lower=self._lower,
                                                        check_finite=False))

    def _factorize(self) -> TriangularSolver:
        check_nonsingular_diagonal(np.diagonal(self.data))
        return TriangularSolver(self.data, self._lower)

    def _inverse_adjoint_in(self, project: Any) -> Any:
        # inv(A) has A's triangle, inv(A)^H the other one: only the diagonal survives projection
        return project.diagonals({0: 1 / np.conj(np.diagonal(self.data))})

    def _adjugate_adjoint_in(self, project: Any) -> Any:
        diag = np.diagonal(self.data).astype(inexact(self.dtype))
        return project.diagonals({0: np.conj(products_except_each(diag))})


class TriangularSolver:
    """``op(A) x = b`` with ``scipy.linalg.solve_triangular`` (reads one triangle; no copy of ``A``)."""

    __slots__ = ("data", "lower")

    def __init__(self, data: np.ndarray, lower: bool) -> None:
        self.data, self.lower = data, lower

    def solve(self, b: np.ndarray, trans: str = "N") -> np.ndarray:
        return scipy.linalg.solve_triangular(self.data, b, trans=trans, lower=self.lower, check_finite=False)


class TriangularProjector(StructuredProjector):
    """Projector of a triangular matrix: keeps the triangle of the cotangent (diagonal included)."""

    __slots__ = ()

    def _from_matrix(self, dx: Any) -> Any:
        return self.cls(triangle(self.cast(self.dense(dx)), self.cls._lower))

    def _from_fields(self, fields: dict[str, Any]) -> Any:
        data = unthunk(fields.get("data"))
        if data is None or isinstance(data, AbstractZero):
            return self.cls(np.zeros((self.n, self.n), dtype=self.dtype))
        return self._from_matrix(data)
