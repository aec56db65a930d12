"""``WrappedMatrix``: the base of the types that wrap a square array and read part of it (private).

``UpperTriangular``, ``LowerTriangular``, ``Symmetric`` and ``Hermitian`` store the array they
are given (no copy) and read one triangle of it, as LAPACK does.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from chainrules.structured.base import StructuredMatrix


def as_square(name: str, data: Any) -> np.ndarray:
    """``data`` as a square 2-d ndarray, or a ``ValueError`` naming the constructor."""
    arr = np.asarray(data)
    if arr.ndim != 2 or arr.shape[0] != arr.shape[1]:
        raise ValueError(f"{name}: expected a square matrix, got shape {arr.shape}")
    return arr


def triangle(data: np.ndarray, lower: bool, k: int = 0) -> np.ndarray:
    """The lower (``np.tril``) or upper (``np.triu``) triangle of ``data``, a new array.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.structured._wrapped import triangle
    >>> triangle(np.ones((2, 2)), lower=True, k=1)     # strictly below the diagonal
    array([[0., 0.],
           [1., 0.]])
    """
    return np.tril(data, -k) if lower else np.triu(data, k)


class WrappedMatrix(StructuredMatrix):
    """A structured matrix read from (part of) a wrapped square array ``data``."""

    __slots__ = ("data",)
    _fields = ("data",)

    def __init__(self, data: Any) -> None:
        self.data = as_square(type(self).__name__, data)

    @property
    def n(self) -> int:
        return self.data.shape[0]

    @property
    def dtype(self) -> np.dtype:
        return self.data.dtype

    def _arrays(self) -> tuple[np.ndarray, ...]:
        return (self.data,)
