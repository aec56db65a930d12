"""``LowerTriangular``: a lower triangular matrix (the wrapped array's upper triangle is ignored)."""

from __future__ import annotations

from chainrules.structured._triangular import TriangularMatrix, TriangularProjector
from chainrules.structured.projection import projector_for
from chainrules_core import ProjectTo

__all__ = ["LowerTriangular"]


class LowerTriangular(TriangularMatrix):
    """A lower triangular matrix: ``LowerTriangular(A)`` stands for ``np.tril(A)``.

    The array is wrapped, not copied; its strictly upper triangle is never read.
    ``np.linalg.solve`` uses ``scipy.linalg.solve_triangular``, the determinant is the
    product of the diagonal, ``.T`` is an ``UpperTriangular``; the cotangent
    (``ProjectTo``) keeps the lower triangle.

    Parameters
    ----------
    data : array_like, square
        The matrix whose lower triangle (diagonal included) is used.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.structured import LowerTriangular
    >>> L = LowerTriangular(np.array([[2.0, 7.0], [1.0, 4.0]]))
    >>> L
    LowerTriangular(array([[2., 0.],
                           [1., 4.]]))
    >>> np.linalg.solve(L, np.array([2.0, 5.0])), np.linalg.det(L)
    (array([1., 1.]), np.float64(8.0))
    >>> L.T
    UpperTriangular(array([[2., 1.],
                           [0., 4.]]))
    """

    __slots__ = ()
    _lower = True


ProjectTo.register(LowerTriangular)(projector_for(TriangularProjector))
