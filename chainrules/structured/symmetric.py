"""``Symmetric``: a symmetric matrix stored as one triangle of a wrapped array."""

from __future__ import annotations

from typing import Any

from chainrules.structured._symmetric import SelfAdjointMatrix, SelfAdjointProjector
from chainrules.structured.projection import projector_for
from chainrules_core import ProjectTo

__all__ = ["Symmetric"]


class Symmetric(SelfAdjointMatrix):
    """A symmetric matrix (``A == A.T``), read from one triangle of ``data``.

    ``Symmetric(A)`` stands for ``np.triu(A) + np.triu(A, 1).T`` (``lower=True``: the
    lower triangle). Complex matrices are complex symmetric (transpose, not conjugate
    transpose: see ``Hermitian``). The cotangent (``ProjectTo``) of a ``Symmetric`` is the
    symmetric part ``(dX + dX.T) / 2`` of a dense cotangent.

    Parameters
    ----------
    data : array_like, square
        Wrapped, not copied; only one triangle is read.
    lower : bool
        Read the lower triangle instead of the upper one.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.structured import Symmetric
    >>> S = Symmetric(np.array([[2.0, 1.0], [99.0, 3.0]]))
    >>> np.asarray(S)
    array([[2., 1.],
           [1., 3.]])
    >>> S.T is S, np.linalg.det(S)
    (True, np.float64(5.0))
    """

    __slots__ = ()

    def _transpose(self) -> Symmetric:
        return self

    def _is_symmetric(self) -> bool:
        return True

    def _is_hermitian(self) -> bool:
        return self.dtype.kind != "c"

    def _keeps_structure_when_scaled(self, c: Any) -> bool:
        return True


ProjectTo.register(Symmetric)(projector_for(SelfAdjointProjector))
