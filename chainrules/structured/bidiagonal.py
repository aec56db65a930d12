"""``Bidiagonal``: an upper or lower bidiagonal matrix stored as two diagonals."""

from __future__ import annotations

from typing import Any

import numpy as np

from chainrules.structured._banded_matrix import (
    BandedMatrix,
    BandedProjector,
    BidiagonalSolver,
    as_vector,
    common_dtype,
)
from chainrules.structured._linalg import (
    check_nonsingular_diagonal,
    det_of_diagonal,
    products_except_each,
    slogdet_of_diagonal,
)
from chainrules.structured.base import StructuredMatrix, inexact
from chainrules.structured.projection import projector_for
from chainrules_core import ProjectTo

__all__ = ["Bidiagonal"]


class Bidiagonal(BandedMatrix):
    """A bidiagonal matrix: diagonal ``dv`` and one off-diagonal ``ev`` above (or below) it.

    Storage is ``2n - 1`` numbers. Products, solves (``scipy.linalg.solve_banded``) and
    determinants cost ``O(n)``; the inverse is an ``UpperTriangular`` (``LowerTriangular``)
    matrix; ``.T`` flips ``lower``.

    Parameters
    ----------
    dv : array_like, shape (n,)
        The diagonal.
    ev : array_like, shape (n - 1,)
        The superdiagonal (``lower=False``) or the subdiagonal (``lower=True``).
    lower : bool

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.structured import Bidiagonal
    >>> B = Bidiagonal(np.array([1.0, 2.0, 3.0]), np.array([4.0, 5.0]))
    >>> np.asarray(B)
    array([[1., 4., 0.],
           [0., 2., 5.],
           [0., 0., 3.]])
    >>> B.T
    Bidiagonal(array([1., 2., 3.]), array([4., 5.]), lower=True)
    >>> np.linalg.det(B), B @ np.ones(3)
    (np.float64(6.0), array([5., 7., 3.]))
    """

    __slots__ = ("dv", "ev", "lower")
    _fields = ("dv", "ev")

    def __init__(self, dv: Any, ev: Any, lower: bool = False) -> None:
        dv, ev = as_vector("Bidiagonal", "dv", dv), as_vector("Bidiagonal", "ev", ev)
        if len(ev) != max(len(dv) - 1, 0):
            raise ValueError(f"Bidiagonal: ev must have length len(dv) - 1 = {max(len(dv) - 1, 0)}, "
                             f"got {len(ev)}")
        self.dv, self.ev = common_dtype(dv, ev)
        self.lower = bool(lower)

    @property
    def _offsets(self) -> dict[str, int]:  # type: ignore[override]
        return {"dv": 0, "ev": -1 if self.lower else 1}

    def _flags(self) -> tuple[Any, ...]:
        return (self.lower,)

    def _flag_items(self) -> list[tuple[str, Any]]:
        return [("lower", True)] if self.lower else []

    def _bands(self) -> dict[int, np.ndarray]:
        return {0: self.dv, (-1 if self.lower else 1): self.ev}

    def _from_band_dict(self, bands: dict[int, np.ndarray]) -> Bidiagonal:
        return Bidiagonal(bands[0], bands[-1 if self.lower else 1], self.lower)

    def _transpose(self) -> Bidiagonal:
        return Bidiagonal(self.dv, self.ev, not self.lower)

    def _det(self) -> Any:
        return det_of_diagonal(self.dv)

    def _slogdet(self) -> Any:
        return slogdet_of_diagonal(self.dv)

    def _factorize(self) -> BidiagonalSolver:
        check_nonsingular_diagonal(self.dv)
        dtype = inexact(self.dtype)
        return BidiagonalSolver(self.dv.astype(dtype, copy=False), self.ev.astype(dtype, copy=False), self.lower)

    def _inv(self) -> StructuredMatrix:
        identity = np.eye(self.n, dtype=inexact(self.dtype))
        inverse = self._factorize().solve(identity)
        return StructuredMatrix._kinds["LowerTriangular" if self.lower else "UpperTriangular"](inverse)

    def _inverse_adjoint_in(self, project: Any) -> Any:
        # inv(A) is triangular on A's side, inv(A)^H on the other: only the diagonal is kept
        return project.diagonals({0: 1 / np.conj(self.dv)})

    def _adjugate_adjoint_in(self, project: Any) -> Any:
        return project.diagonals({0: np.conj(products_except_each(self.dv.astype(inexact(self.dtype))))})


ProjectTo.register(Bidiagonal)(projector_for(BandedProjector))
