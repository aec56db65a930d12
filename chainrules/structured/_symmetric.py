"""What ``Symmetric`` and ``Hermitian`` share (private).

Both wrap a square array and read one triangle of it (``lower=False``: the upper one, as
``scipy.linalg`` does); the other triangle is the transpose (``Symmetric``) or the
conjugate transpose (``Hermitian``, whose diagonal is real: the imaginary part of the
wrapped diagonal is ignored). The tangent space is the space of symmetric (Hermitian)
matrices, so the projector symmetrises: ``(dX + dX^T) / 2`` (``(dX + dX^H) / 2``), the
orthogonal projection in the Frobenius inner product.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from chainrules.structured._wrapped import WrappedMatrix, triangle
from chainrules.structured.base import StructuredMatrix
from chainrules.structured.projection import StructuredProjector
from chainrules_core import AbstractZero, unthunk


class SelfAdjointMatrix(WrappedMatrix):
    """Base of ``Symmetric`` and ``Hermitian``."""

    __slots__ = ("lower",)
    _conjugate: ClassVar[bool] = False

    def __init__(self, data: Any, lower: bool = False) -> None:
        super().__init__(data)
        self.lower = bool(lower)

    def _replace(self, *arrays: np.ndarray) -> StructuredMatrix:
        return type(self)(arrays[0], self.lower)

    def _flags(self) -> tuple[Any, ...]:
        return (self.lower,)

    def _flag_items(self) -> list[tuple[str, Any]]:
        return [("lower", True)] if self.lower else []

    def _repr_arrays(self) -> tuple[np.ndarray, ...]:
        return (triangle(self.data, self.lower),)

    def _mirror(self, strict: np.ndarray) -> np.ndarray:
        """The other strict triangle, from the stored one."""
        return strict.T.conj() if self._conjugate else strict.T

    def _to_dense(self) -> np.ndarray:
        strict = triangle(self.data, self.lower, 1)
        dense = strict + self._mirror(strict)
        diag = np.diagonal(self.data)
        np.fill_diagonal(dense, diag.real if self._conjugate else diag)
        return dense

    def _diagonal(self, offset: int) -> np.ndarray:
        stored = offset <= 0 if self.lower else offset >= 0
        values = np.diagonal(self.data, offset if stored else -offset)
        if offset == 0 and self._conjugate:
            return values.real.astype(self.dtype)
        if not stored and self._conjugate:
            return np.conj(values)
        return values.copy()

    def _inv(self) -> StructuredMatrix:
        return type(self)(np.linalg.inv(self._to_dense()), self.lower)


class SelfAdjointProjector(StructuredProjector):
    """Projector of ``Symmetric``/``Hermitian``: ``(dX + dX^T) / 2`` (``dX^H`` for ``Hermitian``)."""

    __slots__ = ()

    def _from_matrix(self, dx: Any) -> Any:
        G = self.cast(self.dense(dx))
        mirrored = G.T.conj() if self.cls._conjugate else G.T
        return self.cls((G + mirrored) / 2, *self.flags)

    def _from_fields(self, fields: dict[str, Any]) -> Any:
        # The fields are derivatives with respect to the wrapped array: only its stored
        # triangle counts, and each strict entry stands for two entries of the matrix.
        data = unthunk(fields.get("data"))
        if data is None or isinstance(data, AbstractZero):
            return self.cls(np.zeros((self.n, self.n), dtype=self.dtype), *self.flags)
        return self._from_matrix(triangle(np.asarray(data), self.flags[0]))
