"""``Tridiagonal``: a tridiagonal matrix stored as its three diagonals."""

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
from chainrules.structured.projection import projector_for
from chainrules_core import ProjectTo

__all__ = ["Tridiagonal"]


class Tridiagonal(TridiagonalMatrix):
    """A tridiagonal matrix: subdiagonal ``dl``, diagonal ``d``, superdiagonal ``du``.

    Storage is ``3n - 2`` numbers. Products cost ``O(n)``; solves and determinants use
    LAPACK's tridiagonal LU (``?gttrf``/``?gttrs``, ``O(n)``), and a pullback reuses the
    factorization for its adjoint solve. The inverse is dense.

    Parameters
    ----------
    dl : array_like, shape (n - 1,)
    d : array_like, shape (n,)
    du : array_like, shape (n - 1,)

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.structured import Tridiagonal
    >>> T = Tridiagonal(np.array([1.0, 1.0]), np.array([4.0, 4.0, 4.0]), np.array([2.0, 2.0]))
    >>> np.asarray(T)
    array([[4., 2., 0.],
           [1., 4., 2.],
           [0., 1., 4.]])
    >>> np.linalg.solve(T, T @ np.array([1.0, 2.0, 3.0]))
    array([1., 2., 3.])
    >>> float(np.linalg.det(T))
    48.0
    """

    __slots__ = ("d", "dl", "du")
    _fields = ("dl", "d", "du")
    _offsets: ClassVar[dict[str, int]] = {"dl": -1, "d": 0, "du": 1}

    def __init__(self, dl: Any, d: Any, du: Any) -> None:
        dl, d, du = (as_vector("Tridiagonal", name, v) for name, v in (("dl", dl), ("d", d), ("du", du)))
        check_off_diagonals("Tridiagonal", len(d), dl=dl, du=du)
        self.dl, self.d, self.du = common_dtype(dl, d, du)

    def _bands(self) -> dict[int, np.ndarray]:
        return {-1: self.dl, 0: self.d, 1: self.du}

    def _from_band_dict(self, bands: dict[int, np.ndarray]) -> Tridiagonal:
        return Tridiagonal(bands[-1], bands[0], bands[1])

    def _transpose(self) -> Tridiagonal:
        return Tridiagonal(self.du, self.d, self.dl)

    def _inv(self) -> np.ndarray:
        return self._dense_inverse()


ProjectTo.register(Tridiagonal)(projector_for(BandedProjector))
