"""``Hermitian``: a Hermitian matrix stored as one triangle of a wrapped array."""

from __future__ import annotations

from typing import Any

import numpy as np

from chainrules.structured._symmetric import SelfAdjointMatrix, SelfAdjointProjector
from chainrules.structured.projection import projector_for
from chainrules_core import ProjectTo

__all__ = ["Hermitian"]


class Hermitian(SelfAdjointMatrix):
    """A Hermitian matrix (``A == A.conj().T``), read from one triangle of ``data``.

    ``Hermitian(A)`` stands for the matrix whose upper triangle is that of ``A``
    (``lower=True``: the lower one), whose other triangle is its conjugate transpose and
    whose diagonal is ``A``'s real part (the imaginary part of ``A``'s diagonal is
    ignored). A real ``Hermitian`` is a real symmetric matrix. The cotangent
    (``ProjectTo``) is the Hermitian part ``(dX + dX^H) / 2`` of a dense cotangent.
    Multiplying by a complex number leaves the structure (the result is dense).

    Parameters
    ----------
    data : array_like, square
        Wrapped, not copied; only one triangle (and the real part of the diagonal) is read.
    lower : bool
        Read the lower triangle instead of the upper one.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.structured import Hermitian
    >>> H = Hermitian(np.array([[2.0 + 5j, 1j], [0.0, 3.0]]))
    >>> np.asarray(H)
    array([[2.+0.j, 0.+1.j],
           [0.-1.j, 3.+0.j]])
    >>> bool(np.isclose(np.linalg.det(H), 5.0))
    True
    """

    __slots__ = ()
    _conjugate = True

    def _transpose(self) -> Hermitian:
        return self.conj()  # type: ignore[return-value]

    def _is_symmetric(self) -> bool:
        return self.dtype.kind != "c"

    def _is_hermitian(self) -> bool:
        return True

    def _keeps_structure_when_scaled(self, c: Any) -> bool:
        return not np.iscomplexobj(c)


ProjectTo.register(Hermitian)(projector_for(SelfAdjointProjector))
