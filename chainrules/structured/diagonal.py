"""``Diagonal``: a diagonal matrix stored as its diagonal (``n`` numbers, never ``n^2``)."""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from chainrules.structured._banded_matrix import BandedMatrix, BandedProjector, as_vector
from chainrules.structured._linalg import (
    check_nonsingular_diagonal,
    det_of_diagonal,
    products_except_each,
    slogdet_of_diagonal,
)
from chainrules.structured.base import inexact
from chainrules.structured.projection import projector_for
from chainrules_core import ProjectTo

__all__ = ["Diagonal"]


class Diagonal(BandedMatrix):
    """A diagonal matrix: ``Diagonal(d)`` stands for ``np.diag(d)`` and stores only ``d``.

    Products, sums, solves, determinants and inverses cost ``O(n)`` (``O(n k)`` against an
    ``n x k`` array); its cotangent (``ProjectTo``) is a ``Diagonal`` too.

    Parameters
    ----------
    d : array_like, 1-d
        The diagonal (not copied).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.structured import Diagonal
    >>> D = Diagonal(np.array([1.0, 2.0, 4.0]))
    >>> D @ np.ones((3, 2))
    array([[1., 1.],
           [2., 2.],
           [4., 4.]])
    >>> np.linalg.solve(D, np.ones(3)), np.linalg.det(D)
    (array([1.  , 0.5 , 0.25]), np.float64(8.0))
    >>> np.linalg.inv(D)
    Diagonal(array([1.  , 0.5 , 0.25]))
    """

    __slots__ = ("d",)
    _fields = ("d",)
    _offsets: ClassVar[dict[str, int]] = {"d": 0}

    def __init__(self, d: Any) -> None:
        self.d = as_vector("Diagonal", "d", d)

    @property
    def n(self) -> int:
        return len(self.d)

    def _bands(self) -> dict[int, np.ndarray]:
        return {0: self.d}

    def _from_band_dict(self, bands: dict[int, np.ndarray]) -> Diagonal:
        return Diagonal(bands[0])

    def _to_dense(self) -> np.ndarray:
        return np.diag(self.d)

    def _transpose(self) -> Diagonal:
        return self

    def _is_symmetric(self) -> bool:
        return True

    def _is_hermitian(self) -> bool:
        return self.dtype.kind != "c"

    def _matmul_right(self, B: np.ndarray) -> np.ndarray:
        if B.ndim == 0 or B.shape[0 if B.ndim == 1 else -2] != self.n:
            raise ValueError(f"matmul: a matrix of shape {self.shape} cannot multiply an array of shape {B.shape}")
        return self.d * B if B.ndim == 1 else self.d[:, None] * B

    def _matmul_left(self, B: np.ndarray) -> np.ndarray:
        if B.ndim == 0 or B.shape[-1] != self.n:
            raise ValueError(f"matmul: an array of shape {B.shape} cannot multiply a matrix of shape {self.shape}")
        return B * self.d

    def _det(self) -> Any:
        return det_of_diagonal(self.d)

    def _slogdet(self) -> Any:
        return slogdet_of_diagonal(self.d)

    def _inv(self) -> Diagonal:
        check_nonsingular_diagonal(self.d)
        return Diagonal(np.true_divide(1, self.d, dtype=inexact(self.dtype)))

    def _factorize(self) -> _DiagonalSolver:
        check_nonsingular_diagonal(self.d)
        return _DiagonalSolver(self.d)

    def _inverse_adjoint_in(self, project: Any) -> Any:
        return project.diagonals({0: 1 / np.conj(self.d)})

    def _adjugate_adjoint_in(self, project: Any) -> Any:
        return project.diagonals({0: np.conj(products_except_each(self.d.astype(inexact(self.dtype))))})


class _DiagonalSolver:
    """``op(D) x = b`` by division, ``O(n)`` per column."""

    __slots__ = ("d",)

    def __init__(self, d: np.ndarray) -> None:
        self.d = d

    def solve(self, b: np.ndarray, trans: str = "N") -> np.ndarray:
        d = np.conj(self.d) if trans == "C" else self.d
        return b / d[:, None]


class DiagonalProjector(BandedProjector):
    """``ProjectTo(Diagonal)``: keeps the diagonal of a cotangent.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import ProjectTo
    >>> from chainrules.structured import Diagonal
    >>> ProjectTo(Diagonal(np.ones(2)))(np.array([[1.0, 2.0], [3.0, 4.0]]))
    Diagonal(array([1., 4.]))
    """

    __slots__ = ()

    def constant(self, value: Any) -> Any:
        """A ``Diagonal`` of ``value`` (the projection of a constant matrix), ``O(n)``.

        Examples
        --------
        >>> import numpy as np
        >>> from chainrules import ProjectTo
        >>> from chainrules.structured import Diagonal
        >>> ProjectTo(Diagonal(np.ones(3))).constant(2.0)
        Diagonal(array([2., 2., 2.]))
        """
        return Diagonal(self.cast(np.full(self.n, value)))

    def product(self, L: np.ndarray, R: np.ndarray) -> Any:
        """``Diagonal(diag(L @ R))`` in ``O(n k)`` time and ``O(n)`` memory (the ``Diagonal @ B`` pullback).

        Examples
        --------
        >>> import numpy as np
        >>> from chainrules import ProjectTo
        >>> from chainrules.structured import Diagonal
        >>> ProjectTo(Diagonal(np.ones(2))).product(np.ones((2, 3)), np.ones((3, 2)))
        Diagonal(array([3., 3.]))
        """
        return Diagonal(self.cast(np.einsum("ik,ki->i", L, R)))


ProjectTo.register(Diagonal)(projector_for(DiagonalProjector))
