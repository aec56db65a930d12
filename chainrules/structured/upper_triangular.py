"""``UpperTriangular``: an upper triangular matrix (the wrapped array's lower triangle is ignored)."""

from __future__ import annotations

from chainrules.structured._triangular import TriangularMatrix, TriangularProjector
from chainrules.structured.projection import projector_for
from chainrules_core import ProjectTo

__all__ = ["UpperTriangular"]


class UpperTriangular(TriangularMatrix):
    """An upper triangular matrix: ``UpperTriangular(A)`` stands for ``np.triu(A)``.

    The array is wrapped, not copied; its strictly lower triangle is never read.
    ``np.linalg.solve`` uses ``scipy.linalg.solve_triangular``, the determinant is the
    product of the diagonal, ``.T`` is a ``LowerTriangular``; the cotangent
    (``ProjectTo``) keeps the upper triangle.

    Parameters
    ----------
    data : array_like, square
        The matrix whose upper triangle (diagonal included) is used.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.structured import UpperTriangular
    >>> U = UpperTriangular(np.array([[2.0, 1.0], [5.0, 4.0]]))
    >>> U
    UpperTriangular(array([[2., 1.],
                           [0., 4.]]))
    >>> np.linalg.solve(U, np.array([3.0, 4.0])), np.linalg.det(U)
    (array([1., 1.]), np.float64(8.0))
    >>> U.T
    LowerTriangular(array([[2., 0.],
                           [1., 4.]]))
    """

    __slots__ = ()
    _lower = False


ProjectTo.register(UpperTriangular)(projector_for(TriangularProjector))
