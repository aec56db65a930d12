"""``StructuredProjector``: ``ProjectTo`` for the structured matrices (the base of each type's projector)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from chainrules.structured import _band_arithmetic
from chainrules.structured.base import StructuredMatrix
from chainrules_core import AbstractTangent, Tangent, backing
from chainrules_core.projection import NoTangentProjector, Projector, _tangent_dtype

__all__ = ["StructuredProjector", "projector_for"]


class StructuredProjector(Projector):
    """Projector onto the tangent space of a structured matrix: matrices of the same type.

    ``projector(dx)`` accepts a cotangent of the same type (passed through, or cast to the
    tangent dtype), a structural ``Tangent`` of the type (its fields are derivatives with
    respect to the stored arrays), or any ``n x n`` matrix: ndarray, another structured
    matrix or a sparse array, which is projected orthogonally (in the Frobenius inner
    product) onto the structure. Two more entry points let pullbacks skip dense
    temporaries: :meth:`product` projects ``L @ R`` and :meth:`diagonals` a banded matrix.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import ProjectTo
    >>> from chainrules.structured import Hermitian
    >>> project = ProjectTo(Hermitian(np.eye(2, dtype=complex)))
    >>> project(np.array([[1j, 2.0], [0.0, 1.0]]))
    Hermitian(array([[0.+0.j, 1.+0.j],
                     [0.+0.j, 1.+0.j]]))
    """

    __slots__ = ("cls", "dtype", "flags", "n", "real")

    def __init__(self, x: StructuredMatrix, dtype: np.dtype) -> None:
        self.cls: Any = type(x)
        self.n = x.n
        self.dtype = dtype
        self.real = dtype.kind == "f"
        self.flags = x._flags()

    def __call__(self, dx: Any) -> Any:
        if type(dx) is self.cls and dx.dtype == self.dtype and dx.n == self.n and dx._flags() == self.flags:
            return dx
        return Projector.__call__(self, dx)

    def project(self, dx: Any) -> Any:
        """Project a concrete cotangent: a structural ``Tangent``, the same type, or any ``n x n`` matrix.

        Examples
        --------
        >>> import numpy as np
        >>> from chainrules import ProjectTo, Tangent
        >>> from chainrules.structured import Symmetric
        >>> ProjectTo(Symmetric(np.eye(2))).project(Tangent(Symmetric, data=np.array([[1.0, 4.0], [0.0, 1.0]])))
        Symmetric(array([[1., 2.],
                         [0., 1.]]))
        """
        if isinstance(dx, Tangent):
            if not issubclass(dx.primal_type, self.cls):
                raise self.fail(f"got a Tangent({dx.primal_type.__name__})")
            stored = backing(dx)
            fields = dict(zip(self.cls._fields, stored)) if isinstance(stored, tuple) else dict(stored)
            unknown = set(fields) - set(self.cls._fields)
            if unknown:
                raise self.fail(f"the Tangent has fields {sorted(unknown)}, which {self.cls.__name__} does not have")
            return self._from_fields(fields)
        if isinstance(dx, (AbstractTangent, dict)) or (callable(dx) and not hasattr(dx, "shape")):
            raise self.fail(f"a matrix primal got a cotangent of type {type(dx).__name__}")
        shape = tuple(getattr(dx, "shape", np.shape(dx)))
        if shape != (self.n, self.n):
            raise self.fail(f"cotangent has shape {shape}, expected shape {(self.n, self.n)}")
        if isinstance(dx, StructuredMatrix) and type(dx) is self.cls and dx._flags() == self.flags:
            return self.cls._replace(dx, *(self.cast(a) for a in dx._arrays()))
        return self._from_matrix(dx)

    def cast(self, arr: Any) -> np.ndarray:
        """``arr`` in the tangent dtype (the real part for a real primal).

        Examples
        --------
        >>> import numpy as np
        >>> from chainrules import ProjectTo
        >>> from chainrules.structured import UpperTriangular
        >>> ProjectTo(UpperTriangular(np.eye(2, dtype=np.float32))).cast(np.array([1 + 2j]))
        array([1.], dtype=float32)
        """
        arr = np.asarray(arr)
        if self.real and arr.dtype.kind == "c":
            arr = arr.real
        return arr.astype(self.dtype, copy=False)

    def dense(self, dx: Any) -> np.ndarray:
        """A matrix cotangent (ndarray, structured, sparse or number-like) as a dense ndarray.

        Examples
        --------
        >>> import numpy as np
        >>> from chainrules import ProjectTo
        >>> from chainrules.structured import Diagonal, Symmetric
        >>> ProjectTo(Symmetric(np.eye(2))).dense(Diagonal(np.ones(2)))
        array([[1., 0.],
               [0., 1.]])
        """
        if isinstance(dx, StructuredMatrix):
            return dx._to_dense()
        if hasattr(dx, "toarray"):
            return np.asarray(dx.toarray())
        return np.asarray(dx)

    def product(self, L: np.ndarray, R: np.ndarray) -> Any:
        """``self(L @ R)`` for ``L`` of shape ``(n, k)`` and ``R`` of shape ``(k, n)``.

        Banded types compute only the diagonals they keep (``O(n k)`` time and ``O(n)``
        extra memory for a ``Diagonal``); dense types project the product.

        Examples
        --------
        >>> import numpy as np
        >>> from chainrules import ProjectTo
        >>> from chainrules.structured import LowerTriangular
        >>> ProjectTo(LowerTriangular(np.eye(2))).product(np.ones((2, 1)), np.ones((1, 2)))
        LowerTriangular(array([[1., 0.],
                               [1., 1.]]))
        """
        return self(L @ R)

    def constant(self, value: Any) -> Any:
        """``self(np.full((n, n), value))``: the cotangent of a sum of all entries (``O(n)`` for bands).

        Examples
        --------
        >>> import numpy as np
        >>> from chainrules import ProjectTo
        >>> from chainrules.structured import UpperTriangular
        >>> ProjectTo(UpperTriangular(np.eye(2))).constant(3.0)
        UpperTriangular(array([[3., 3.],
                               [0., 3.]]))
        """
        n = self.n
        return self.product(np.full((n, 1), value), np.ones((1, n), dtype=np.result_type(value, np.float32)))

    def diagonals(self, bands: dict[int, Any]) -> Any:
        """``self(M)`` for the matrix ``M`` whose only nonzero diagonals are ``bands``.

        Examples
        --------
        >>> import numpy as np
        >>> from chainrules import ProjectTo
        >>> from chainrules.structured import Symmetric
        >>> ProjectTo(Symmetric(np.eye(2))).diagonals({1: 4.0})
        Symmetric(array([[0., 2.],
                         [0., 0.]]))
        """
        values = {o: np.broadcast_to(v, (max(self.n - abs(o), 0),)) for o, v in bands.items()}
        dtype = np.result_type(*values.values()) if values else self.dtype
        return self(_band_arithmetic.to_dense(values, self.n, dtype))

    def _from_matrix(self, dx: Any) -> Any:
        raise NotImplementedError

    def _from_fields(self, fields: dict[str, Any]) -> Any:
        raise NotImplementedError

    def describe(self) -> str:
        """The primal this projector was made for, for error messages.

        Examples
        --------
        >>> import numpy as np
        >>> from chainrules import ProjectTo
        >>> from chainrules.structured import Diagonal
        >>> ProjectTo(Diagonal(np.ones(3))).describe()
        'Diagonal of order 3, float64'
        """
        return f"{self.cls.__name__} of order {self.n}, {self.dtype}"


def projector_for(cls: type[StructuredProjector]) -> Callable[[StructuredMatrix], Projector]:
    """The ``ProjectTo`` implementation for a structured type whose projector class is ``cls``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.structured import Diagonal
    >>> from chainrules.structured.diagonal import DiagonalProjector
    >>> from chainrules.structured.projection import projector_for
    >>> projector_for(DiagonalProjector)(Diagonal(np.arange(3))).dtype
    dtype('float64')
    >>> projector_for(DiagonalProjector)(Diagonal(np.ones(2, dtype=bool)))(np.eye(2))
    NoTangent()
    """
    def make(x: StructuredMatrix) -> Projector:
        dtype = _tangent_dtype(x.dtype)
        if dtype is None:
            return NoTangentProjector()
        return cls(x, dtype)
    return make
