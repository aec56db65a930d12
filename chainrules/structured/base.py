"""``StructuredMatrix``: what every structured matrix type shares.

A structured matrix is a square matrix that stores only its free parameters (a
``Diagonal`` stores its diagonal) and behaves like the dense matrix it stands for:

* ``shape``, ``dtype``, ``ndim``, ``size``, ``.T``, ``conj()``, ``diagonal()``,
  ``trace()``, ``sum()``, ``astype()``, ``copy()``, indexing; ``np.asarray(x)`` and
  ``x.to_dense()`` give the dense ndarray;
* ``@`` with ndarrays and with each other, ``+``, ``-``, scaling by a number (``*``,
  ``/``), unary ``-``; each keeps the structure when the result has it (``Diagonal @
  Diagonal`` is a ``Diagonal``, ``Diagonal + UpperTriangular`` an ``UpperTriangular``,
  ``Diagonal @ Bidiagonal`` a ``Bidiagonal``) and is a dense ndarray otherwise;
* ``==`` compares whole matrices and returns a ``bool`` (as ``np.array_equal``), also as
  ``dense == A`` (and so ``np.equal``); compare ``np.asarray(A)`` for an elementwise result;
* NumPy functions: ufuncs go through ``__array_ufunc__`` (``np.matmul``, ``np.add``,
  ``np.multiply`` by a number, ``np.negative`` and ``np.conjugate`` keep the structure;
  every other ufunc is applied to the dense matrix), and functions through
  ``__array_function__``: ``np.trace``, ``np.diag``, ``np.diagonal``, ``np.sum``,
  ``np.transpose``, ``np.dot``, ``np.linalg.det``, ``np.linalg.slogdet``,
  ``np.linalg.inv`` and ``np.linalg.solve`` use the structure (``O(n)`` for a
  ``Diagonal`` or a banded matrix); any other NumPy function receives the dense matrix
  (:mod:`chainrules.structured.functions`).

Subclasses describe their structure (bandwidths below and above the diagonal, symmetry)
and implement a handful of private hooks; the arithmetic
(:mod:`chainrules.structured.operations`), the NumPy protocols and the projector
(:mod:`chainrules.structured.projection`) are written once.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from chainrules.structured import _band_arithmetic
from chainrules_core import AbstractTangent

if TYPE_CHECKING:
    from chainrules.structured.projection import StructuredProjector

__all__ = ["StructuredMatrix", "as_columns", "as_rows", "inexact", "is_scalar"]


def is_scalar(x: Any) -> bool:
    """Whether ``x`` is a number (Python, NumPy scalar or 0-d array): what scales a matrix.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.structured.base import is_scalar
    >>> is_scalar(2.0), is_scalar(np.float32(1)), is_scalar(np.array(3.0)), is_scalar(np.ones(2))
    (True, True, True, False)
    """
    if isinstance(x, (numbers.Number, np.generic)):
        return not isinstance(x, (bool, np.bool_))
    return isinstance(x, np.ndarray) and x.ndim == 0 and x.dtype.kind in "iufc"


def inexact(dtype: Any) -> np.dtype:
    """The floating dtype a linear-algebra result has: integers become float64.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.structured.base import inexact
    >>> inexact(np.int32), inexact(np.float32)
    (dtype('float64'), dtype('float32'))
    """
    dtype = np.dtype(dtype)
    return dtype if dtype.kind in "fc" else np.dtype(np.float64)


def as_columns(b: np.ndarray, n: int, name: str) -> tuple[np.ndarray, Callable[[np.ndarray], np.ndarray]]:
    """View ``b`` of shape ``(n,)`` or ``(..., n, k)`` as an ``(n, m)`` matrix, and the way back.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.structured.base import as_columns
    >>> cols, back = as_columns(np.ones((2, 3, 4)), 3, "b")
    >>> cols.shape, back(cols).shape
    ((3, 8), (2, 3, 4))
    """
    if b.ndim == 0 or b.shape[0 if b.ndim == 1 else -2] != n:
        raise ValueError(f"{name}: the matrix has order {n}, but the other operand has shape {b.shape}")
    if b.ndim == 1:
        return b[:, None], lambda x: x[:, 0]
    if b.ndim == 2:
        return b, lambda x: x
    moved = np.moveaxis(b, -2, 0)
    shape = moved.shape
    return moved.reshape(n, -1), lambda x: np.moveaxis(x.reshape(shape), 0, -2)


def as_rows(b: np.ndarray, n: int, name: str) -> tuple[np.ndarray, Callable[[np.ndarray], np.ndarray]]:
    """View ``b`` of shape ``(n,)`` or ``(..., k, n)`` as an ``(m, n)`` matrix, and the way back.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.structured.base import as_rows
    >>> rows, back = as_rows(np.ones((2, 4, 3)), 3, "b")
    >>> rows.shape, back(rows).shape
    ((8, 3), (2, 4, 3))
    """
    if b.ndim == 0 or b.shape[-1] != n:
        raise ValueError(f"{name}: the matrix has order {n}, but the other operand has shape {b.shape}")
    if b.ndim == 1:
        return b[None, :], lambda x: x[0]
    if b.ndim == 2:
        return b, lambda x: x
    shape = b.shape
    return b.reshape(-1, n), lambda x: x.reshape(shape)


class StructuredMatrix:
    """Base class of ``Diagonal``, the triangular, symmetric, Hermitian and banded matrices.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.structured import Diagonal, UpperTriangular
    >>> D = Diagonal(np.array([1.0, 2.0]))
    >>> D.shape, D.dtype, D.ndim
    ((2, 2), dtype('float64'), 2)
    >>> np.asarray(D)
    array([[1., 0.],
           [0., 2.]])
    >>> D @ D
    Diagonal(array([1., 4.]))
    >>> D + UpperTriangular(np.ones((2, 2)))
    UpperTriangular(array([[2., 1.],
                           [0., 3.]]))
    >>> np.trace(D), np.linalg.det(D)
    (np.float64(3.0), np.float64(2.0))
    """

    __slots__ = ()

    ndim: ClassVar[int] = 2
    _fields: ClassVar[tuple[str, ...]] = ()
    """Names of the stored arrays, in constructor order (also the fields of a structural ``Tangent``)."""
    _kinds: ClassVar[dict[str, Any]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if not cls.__name__.startswith("_"):
            StructuredMatrix._kinds[cls.__name__] = cls

    # ---- hooks each type implements ---------------------------------------------------------------
    @property
    def n(self) -> int:
        """The order of the matrix (it is ``n x n``)."""
        raise NotImplementedError

    @property
    def dtype(self) -> np.dtype:
        """The dtype of the stored values."""
        raise NotImplementedError

    def _arrays(self) -> tuple[np.ndarray, ...]:
        """The stored arrays, in constructor order."""
        raise NotImplementedError

    def _replace(self, *arrays: np.ndarray) -> StructuredMatrix:
        """A matrix of the same type and flags storing ``arrays``."""
        raise NotImplementedError

    def _flags(self) -> tuple[Any, ...]:
        """Constructor options other than the arrays (``lower`` ...)."""
        return ()

    def _to_dense(self) -> np.ndarray:
        raise NotImplementedError

    def _transpose(self) -> StructuredMatrix:
        raise NotImplementedError

    def _diagonal(self, offset: int) -> np.ndarray:
        return np.diagonal(self._to_dense(), offset).copy()

    def _bands(self) -> dict[int, np.ndarray] | None:
        """The diagonals of a banded matrix (``None`` for a matrix stored densely)."""
        return None

    def _bandwidths(self) -> tuple[int | None, int | None]:
        """How many diagonals below and above the main one may be nonzero (``None``: all)."""
        return None, None

    def _is_symmetric(self) -> bool:
        """Whether every matrix of this type and dtype equals its transpose."""
        return False

    def _is_hermitian(self) -> bool:
        """Whether every matrix of this type and dtype equals its conjugate transpose."""
        return False

    # ---- array attributes ----------------------------------------------------------------------------
    @property
    def shape(self) -> tuple[int, int]:
        """``(n, n)``."""
        return (self.n, self.n)

    @property
    def size(self) -> int:
        """``n * n``, the number of entries of the dense matrix."""
        return self.n * self.n

    def __len__(self) -> int:
        return self.n

    def to_dense(self) -> np.ndarray:
        """The dense ndarray this matrix stands for (a new array).

        Examples
        --------
        >>> import numpy as np
        >>> from chainrules.structured import Bidiagonal
        >>> Bidiagonal(np.array([1.0, 2.0]), np.array([3.0])).to_dense()
        array([[1., 3.],
               [0., 2.]])
        """
        return self._to_dense()

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        if copy is False:
            raise ValueError(f"{type(self).__name__}: a dense array cannot be made without a copy")
        dense = self._to_dense()
        return dense if dtype is None else dense.astype(dtype, copy=False)

    @property
    def T(self) -> StructuredMatrix:  # noqa: N802  (mirrors ndarray.T)
        """The transpose, of the matching structured type (``UpperTriangular.T`` is lower)."""
        return self._transpose()

    @property
    def mT(self) -> StructuredMatrix:  # noqa: N802  (mirrors ndarray.mT)
        return self._transpose()

    def transpose(self, *axes: Any) -> StructuredMatrix:
        """The transpose (``axes`` may only be ``(1, 0)``, or ``(0, 1)`` for no change).

        Examples
        --------
        >>> import numpy as np
        >>> from chainrules.structured import Bidiagonal
        >>> B = Bidiagonal(np.ones(2), np.array([5.0]))
        >>> B.transpose(), B.transpose(0, 1) is B
        (Bidiagonal(array([1., 1.]), array([5.]), lower=True), True)
        """
        if len(axes) == 1 and isinstance(axes[0], (tuple, list)):
            axes = tuple(axes[0])
        if axes in ((), (1, 0), (-1, -2)):
            return self._transpose()
        if axes in ((0, 1), (-2, -1)):
            return self
        raise ValueError(f"axes don't match a matrix: {axes}")

    def conj(self) -> StructuredMatrix:
        """The complex conjugate, of the same type.

        Examples
        --------
        >>> import numpy as np
        >>> from chainrules.structured import Diagonal
        >>> Diagonal(np.array([1j, 2.0])).conj()
        Diagonal(array([0.-1.j, 2.-0.j]))
        """
        if self.dtype.kind != "c":
            return self
        return self._replace(*(np.conj(a) for a in self._arrays()))

    conjugate = conj

    def adjoint(self) -> StructuredMatrix:
        """The conjugate transpose ``A^H``.

        Examples
        --------
        >>> import numpy as np
        >>> from chainrules.structured import UpperTriangular
        >>> UpperTriangular(np.array([[1.0, 1j], [0.0, 2.0]])).adjoint()
        LowerTriangular(array([[1.-0.j, 0.+0.j],
                               [0.-1.j, 2.-0.j]]))
        """
        return self.conj()._transpose()

    def astype(self, dtype: Any, copy: bool = True) -> StructuredMatrix:
        """The same matrix with its values cast to ``dtype``.

        Examples
        --------
        >>> import numpy as np
        >>> from chainrules.structured import Diagonal
        >>> Diagonal(np.ones(2)).astype(np.float32)
        Diagonal(array([1., 1.], dtype=float32))
        """
        return self._replace(*(a.astype(dtype, copy=copy) for a in self._arrays()))

    def copy(self) -> StructuredMatrix:
        """A copy that shares no memory with this matrix.

        Examples
        --------
        >>> import numpy as np
        >>> from chainrules.structured import Diagonal
        >>> d = np.ones(2)
        >>> Diagonal(d).copy().d is d
        False
        """
        return self._replace(*(a.copy() for a in self._arrays()))

    def diagonal(self, offset: int = 0) -> np.ndarray:
        """The ``offset`` diagonal, as a new 1-d array (``np.diagonal(A.to_dense(), offset)``).

        Examples
        --------
        >>> import numpy as np
        >>> from chainrules.structured import Diagonal
        >>> Diagonal(np.array([1.0, 2.0, 3.0])).diagonal(1)
        array([0., 0.])
        """
        return self._diagonal(int(offset))

    def trace(self, offset: int = 0, dtype: Any = None) -> Any:
        """The sum of the ``offset`` diagonal, as ``np.trace``.

        Examples
        --------
        >>> import numpy as np
        >>> from chainrules.structured import Tridiagonal
        >>> T = Tridiagonal(np.array([1.0]), np.array([2.0, 3.0]), np.array([4.0]))
        >>> T.trace(), T.trace(1)
        (np.float64(5.0), np.float64(4.0))
        """
        return np.sum(self._diagonal(int(offset)), dtype=dtype)

    def sum(self, axis: Any = None, dtype: Any = None, out: Any = None, keepdims: bool = False) -> Any:
        """The sum of all entries, or along an axis (``O(n)`` for banded matrices), as ``np.sum``.

        Examples
        --------
        >>> import numpy as np
        >>> from chainrules.structured import Diagonal
        >>> D = Diagonal(np.array([1.0, 2.0]))
        >>> D.sum(), D.sum(axis=0)
        (np.float64(3.0), array([1., 2.]))
        """
        if out is not None:
            return np.sum(self._to_dense(), axis=axis, dtype=dtype, out=out, keepdims=keepdims)
        bands = self._bands()
        if axis is None and not keepdims and bands is not None:  # the common case, O(n) and quick
            total: Any = None
            for values in bands.values():
                part = values.sum(dtype=dtype)
                total = part if total is None else total + part
            return total
        axes = _functions.normalise_axes(axis)
        if bands is None or axes == ():
            return np.sum(self._to_dense(), axis=axis, dtype=dtype, keepdims=keepdims)
        sum_dtype = np.sum(np.zeros(1, self.dtype), dtype=dtype).dtype
        if axes == (0, 1):
            total = sum(np.sum(v, dtype=sum_dtype) for v in bands.values())
            result = np.asarray(total, dtype=sum_dtype)
            return result.reshape(1, 1) if keepdims else result[()]
        values = (_band_arithmetic.column_sums if axes == (0,) else _band_arithmetic.row_sums)(bands, self.n, sum_dtype)
        if keepdims:
            return values[None, :] if axes == (0,) else values[:, None]
        return values

    def __getitem__(self, key: Any) -> Any:
        if (isinstance(key, tuple) and len(key) == 2
                and all(isinstance(k, (int, np.integer)) and not isinstance(k, bool) for k in key)):
            n = self.n
            i, j = (int(k) + n if int(k) < 0 else int(k) for k in key)
            if not (0 <= i < n and 0 <= j < n):
                raise IndexError(f"index {key} is out of bounds for a matrix of shape {self.shape}")
            return self._diagonal(j - i)[min(i, j)]
        return self._to_dense()[key]

    def __iter__(self) -> Any:
        return iter(self._to_dense())

    # ---- comparison and display --------------------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        if isinstance(other, AbstractTangent):
            return NotImplemented
        if not isinstance(other, (StructuredMatrix, np.ndarray)) and not hasattr(other, "toarray"):
            return NotImplemented
        if getattr(other, "shape", None) != self.shape:
            return False
        mine, theirs = self._bands(), other._bands() if isinstance(other, StructuredMatrix) else None
        if mine is not None and theirs is not None:
            for offset in set(mine) | set(theirs):
                a = mine.get(offset)
                b = theirs.get(offset)
                if a is None:
                    a = np.zeros_like(b)
                if b is None:
                    b = np.zeros_like(a)
                if not np.array_equal(a, b):
                    return False
            return True
        dense = other.toarray() if hasattr(other, "toarray") else np.asarray(other)
        return bool(np.array_equal(self._to_dense(), dense))

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    __hash__ = None  # type: ignore[assignment]

    def _repr_arrays(self) -> tuple[np.ndarray, ...]:
        """The arrays shown by ``repr`` (the stored ones, with ignored entries zeroed)."""
        return self._arrays()

    def __repr__(self) -> str:
        name = type(self).__name__
        indent = " " * (len(name) + 1)
        parts = [repr(a).replace("\n", "\n" + indent) for a in self._repr_arrays()]
        parts += [f"{k}={v!r}" for k, v in self._flag_items()]
        return f"{name}({', '.join(parts)})"

    def _flag_items(self) -> list[tuple[str, Any]]:
        return []

    # ---- arithmetic -----------------------------------------------------------------------------------
    def __matmul__(self, other: Any) -> Any:
        return _operations.matmul(self, other)

    def __rmatmul__(self, other: Any) -> Any:
        return _operations.matmul(other, self)

    def __add__(self, other: Any) -> Any:
        return _operations.add(self, other)

    def __radd__(self, other: Any) -> Any:
        return _operations.add(other, self)

    def __sub__(self, other: Any) -> Any:
        return _operations.add(self, other, -1)

    def __rsub__(self, other: Any) -> Any:
        return _operations.add(other, self, -1)

    def __neg__(self) -> StructuredMatrix:
        return self._replace(*(-a for a in self._arrays()))

    def __pos__(self) -> StructuredMatrix:
        return self

    def __mul__(self, other: Any) -> Any:
        return _operations.multiply(self, other)

    def __rmul__(self, other: Any) -> Any:
        return _operations.multiply(other, self)

    def __truediv__(self, other: Any) -> Any:
        if isinstance(other, AbstractTangent):
            return NotImplemented
        if is_scalar(other):
            return self._scaled(other, divide=True)
        if isinstance(other, (np.ndarray, StructuredMatrix)):
            return np.true_divide(self._to_dense(), np.asarray(other))
        return NotImplemented

    def _scaled(self, c: Any, divide: bool = False) -> Any:
        """``c * A`` (or ``A / c``); a Hermitian matrix times a complex number becomes dense."""
        if self._keeps_structure_when_scaled(c):
            if divide:
                return self._replace(*(a / c for a in self._arrays()))
            return self._replace(*(c * a for a in self._arrays()))
        dense = self._to_dense()
        return dense / c if divide else c * dense

    def _keeps_structure_when_scaled(self, c: Any) -> bool:
        return True

    def vdot(self, G: Any) -> Any:
        """``sum(conj(A) * G)`` over all entries (``G`` dense, structured or sparse), cheaply for bands.

        Examples
        --------
        >>> import numpy as np
        >>> from chainrules.structured import Diagonal
        >>> Diagonal(np.array([1.0, 2.0])).vdot(np.array([[3.0, 9.0], [9.0, 4.0]]))
        np.float64(11.0)
        """
        bands = self._bands()
        if bands is not None:
            return _band_arithmetic.vdot(bands, G)
        other = G._to_dense() if isinstance(G, StructuredMatrix) else (
            G.toarray() if hasattr(G, "toarray") else np.asarray(G))
        return np.vdot(self._to_dense(), other)

    def _matmul_right(self, B: np.ndarray) -> np.ndarray:
        """``self @ B`` for an ndarray ``B`` of shape ``(n,)`` or ``(..., n, k)``."""
        bands = self._bands()
        if bands is None:
            return self._to_dense() @ B
        if B.ndim == 0 or B.shape[0 if B.ndim == 1 else -2] != self.n:
            raise ValueError(f"matmul: a matrix of shape {self.shape} cannot multiply an array of shape {B.shape}")
        return _band_arithmetic.matmul_right(bands, self.n, B)

    def _matmul_left(self, B: np.ndarray) -> np.ndarray:
        """``B @ self`` for an ndarray ``B`` of shape ``(n,)`` or ``(..., k, n)``."""
        bands = self._bands()
        if bands is None:
            return B @ self._to_dense()
        if B.ndim == 0 or B.shape[-1] != self.n:
            raise ValueError(f"matmul: an array of shape {B.shape} cannot multiply a matrix of shape {self.shape}")
        return _band_arithmetic.matmul_left(B, bands, self.n)

    # ---- linear algebra (dense defaults; types override with their structure) ----------------------
    def _det(self) -> Any:
        return np.linalg.det(self._to_dense())

    def _slogdet(self) -> Any:
        return np.linalg.slogdet(self._to_dense())

    def _inv(self) -> Any:
        return np.linalg.inv(self._to_dense())

    def _factorize(self) -> Any:
        """An object whose ``solve(b, trans)`` solves ``op(A) x = b`` for ``b`` of shape ``(n, m)``."""
        return _linalg.LUFactorization(self._to_dense())

    def _inverse_adjoint_in(self, project: StructuredProjector) -> Any:
        """``project(inv(A)^H)``: what the pullback of ``slogdet`` needs."""
        return project(np.linalg.inv(self._to_dense()).conj().T)

    def _adjugate_adjoint_in(self, project: StructuredProjector) -> Any:
        """``project(adj(A)^H)`` with ``adj(A) = det(A) inv(A)``: what the pullback of ``det`` needs."""
        dense = self._to_dense()
        return project(np.conj(np.linalg.det(dense)) * np.linalg.inv(dense).conj().T)

    # ---- NumPy protocols --------------------------------------------------------------------------------
    def __array_ufunc__(self, ufunc: Any, method: str, *inputs: Any, **kwargs: Any) -> Any:
        if any(isinstance(x, AbstractTangent) for x in inputs):
            return NotImplemented
        if not all(isinstance(x, (StructuredMatrix, np.ndarray, numbers.Number, np.generic, list, tuple))
                   for x in inputs):
            return NotImplemented
        if method == "__call__" and not kwargs:
            handler = _operations.UFUNCS.get(ufunc)
            if handler is not None:
                return handler(*inputs)
            if ufunc in (np.equal, np.not_equal) and len(inputs) == 2:
                # `dense == A` (NumPy calls np.equal) compares whole matrices, as `A == dense` does
                a, b = inputs
                first, second = (a, b) if isinstance(a, StructuredMatrix) else (b, a)
                result = first.__eq__(second)
                if result is NotImplemented:
                    return NotImplemented
                return result if ufunc is np.equal else not result
        out = kwargs.get("out")
        outs = out if isinstance(out, tuple) else (out,)
        if any(isinstance(o, StructuredMatrix) for o in outs):
            return NotImplemented
        return getattr(ufunc, method)(*_operations.densify(inputs), **kwargs)

    def __array_function__(self, func: Any, types: Any, args: Any, kwargs: Any) -> Any:
        handler = _functions.HANDLERS.get(func)
        if handler is not None:
            result = handler(*args, **kwargs)
            if result is not _functions.DENSE:
                return result
        return func(*_operations.densify(args), **_operations.densify(kwargs))


# The operations and NumPy protocols need the class above.
from chainrules.structured import _linalg  # noqa: E402
from chainrules.structured import functions as _functions  # noqa: E402
from chainrules.structured import operations as _operations  # noqa: E402
