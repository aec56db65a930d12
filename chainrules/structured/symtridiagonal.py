"""``SymTridiagonal``: a symmetric tridiagonal matrix stored as its diagonal and one off-diagonal."""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from chainrules.structured._banded_matrix import (
    BandedProjector,
    TridiagonalMatrix,
    as_vector,
    check_off_diagonals,
    common_dtype,
)
from chainrules.structured.base import StructuredMatrix
from chainrules.structured.projection import projector_for
from chainrules_core import ProjectTo

__all__ = ["SymTridiagonal"]


class SymTridiagonal(TridiagonalMatrix):
    """A symmetric tridiagonal matrix: diagonal ``dv``, off-diagonal ``ev`` (above and below).

    Storage is ``2n - 1`` numbers. Solves and determinants use LAPACK's tridiagonal LU
    (``O(n)``); the inverse is a ``Symmetric`` (dense) matrix. The cotangent
    (``ProjectTo``) averages the two off-diagonals of a dense cotangent. Complex values
    make a complex symmetric matrix.

    Parameters
    ----------
    dv : array_like, shape (n,)
    ev : array_like, shape (n - 1,)

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import ProjectTo
    >>> from chainrules.structured import SymTridiagonal
    >>> S = SymTridiagonal(np.array([2.0, 2.0]), np.array([1.0]))
    >>> np.asarray(S), float(np.linalg.det(S))
    (array([[2., 1.],
           [1., 2.]]), 3.0)
    >>> ProjectTo(S)(np.array([[1.0, 4.0], [2.0, 1.0]]))
    SymTridiagonal(array([1., 1.]), array([3.]))
    """

    __slots__ = ("dv", "ev")
    _fields = ("dv", "ev")
    _offsets: ClassVar[dict[str, int]] = {"dv": 0, "ev": 1}

    def __init__(self, dv: Any, ev: Any) -> None:
        dv, ev = as_vector("SymTridiagonal", "dv", dv), as_vector("SymTridiagonal", "ev", ev)
        check_off_diagonals("SymTridiagonal", len(dv), ev=ev)
        self.dv, self.ev = common_dtype(dv, ev)

    def _bands(self) -> dict[int, np.ndarray]:
        return {-1: self.ev, 0: self.dv, 1: self.ev}

    def _from_band_dict(self, bands: dict[int, np.ndarray]) -> SymTridiagonal:
        return SymTridiagonal(bands[0], bands[1])

    def _transpose(self) -> SymTridiagonal:
        return self

    def _is_symmetric(self) -> bool:
        return True

    def _is_hermitian(self) -> bool:
        return self.dtype.kind != "c"

    def _inv(self) -> StructuredMatrix:
        return StructuredMatrix._kinds["Symmetric"](self._dense_inverse())


ProjectTo.register(SymTridiagonal)(projector_for(BandedProjector))
