"""Structured matrices (``chainrules.structured``) as values autograd can differentiate.

autograd differentiates a value only if it has a *box* type (to record operations on it)
and a *vector space* (zeros, addition). This module registers both for every structured
matrix type (``Diagonal``, the triangular, symmetric, Hermitian and banded matrices):

* :class:`StructuredVSpace`: zeros of the same type, addition, scaling and the real inner
  product; a cotangent of a structured matrix is a structured matrix of its type (what
  ``ProjectTo`` gives), and the bridge passes it to autograd as is;
* :class:`StructuredBox`: arithmetic (``+ - * / @``, unary ``-``), ``.T``, ``.mT``,
  ``.conj()``, ``.transpose()``, ``.diagonal()``, ``.trace()``, ``.sum()`` and
  ``.to_dense()`` on a boxed structured matrix go through chainrules primitives
  (:func:`~chainrules.interop.autograd.primitive`), whose rules keep the cotangent in the
  matrix's subspace. It subclasses autograd's ``ArrayBox``, so ``x @ D`` with ``x`` an
  ``ArrayBox`` also reaches the chainrules rule (Python tries the subclass's reflected
  operator first).

A structured cotangent reaching a dense (ndarray) argument is made dense
(:func:`~chainrules.interop.autograd.cotangent_to_autograd`). autograd's own derivatives
(functions it wraps and :func:`~chainrules.interop.autograd.use_chainrules` has not
replaced) see a structured matrix as the dense array it stands for, and may give a dense
cotangent; ``ProjectTo(D)(g)`` maps it back.
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np
from autograd.extend import VSpace
from autograd.numpy.numpy_boxes import ArrayBox
from autograd.tracer import getval

from chainrules.interop.autograd.primitive import primitive
from chainrules.structured import STRUCTURED_TYPES, StructuredMatrix
from chainrules_core import rrule

__all__ = ["StructuredBox", "StructuredVSpace"]


class StructuredVSpace(VSpace):
    """The vector space of a structured matrix: same type, same stored shapes and dtype.

    Examples
    --------
    >>> import numpy as np
    >>> from autograd.extend import vspace
    >>> from chainrules.structured import Diagonal
    >>> vs = vspace(Diagonal(np.array([1.0, 2.0])))
    >>> vs.zeros()
    Diagonal(array([0., 0.]))
    >>> float(vs.inner_prod(Diagonal(np.array([1.0, 2.0])), Diagonal(np.array([3.0, 4.0]))))
    11.0
    """

    def __init__(self, value: StructuredMatrix) -> None:
        self.template = value
        self.kind = type(value)
        self.shape = value.shape
        self.dtype = np.dtype(value.dtype)
        self.iscomplex = self.dtype.kind == "c"

    def __eq__(self, other: object) -> bool:
        return (type(other) is type(self) and other.kind is self.kind  # type: ignore[attr-defined]
                and other.shape == self.shape and other.dtype == self.dtype)  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash((self.kind, self.shape, self.dtype))

    def __repr__(self) -> str:
        return f"StructuredVSpace({self.kind.__name__}, n={self.shape[0]}, {self.dtype})"

    @property
    def size(self) -> int:
        """The number of real parameters."""
        count = sum(a.size for a in self.template._arrays())
        return 2 * count if self.iscomplex else count

    def _like(self, make: Any) -> StructuredMatrix:
        return self.template._replace(*[make(a) for a in self.template._arrays()])

    def zeros(self) -> StructuredMatrix:
        return self._like(np.zeros_like)

    def ones(self) -> StructuredMatrix:
        return self._like(np.ones_like)

    def randn(self) -> StructuredMatrix:
        def draw(a: np.ndarray) -> np.ndarray:
            x = np.random.randn(*a.shape)
            if self.iscomplex:
                x = x + 1j * np.random.randn(*a.shape)
            return x.astype(a.dtype)

        return self._like(draw)

    def standard_basis(self) -> Any:
        arrays = self.template._arrays()
        for k, a in enumerate(arrays):
            for index in np.ndindex(*a.shape):
                for unit in ((1.0, 1j) if self.iscomplex else (1.0,)):
                    parts = [np.zeros_like(b) for b in arrays]
                    parts[k][index] = unit
                    yield self.template._replace(*parts)

    def _add(self, x: Any, y: Any) -> Any:
        return x + y

    def _mut_add(self, x: Any, y: Any) -> Any:
        return x + y

    def _scalar_mul(self, x: Any, a: Any) -> Any:
        return x * a

    def _inner_prod(self, x: Any, y: Any) -> Any:
        return np.real(np.vdot(np.asarray(x), np.asarray(y)))

    def _covector(self, x: Any) -> Any:
        return x.conj() if self.iscomplex else x


_add = primitive(operator.add)
_sub = primitive(operator.sub)
_mul = primitive(operator.mul)
_truediv = primitive(operator.truediv)
_matmul = primitive(operator.matmul)
_neg = primitive(operator.neg)
_T = primitive(StructuredMatrix.T.fget)  # type: ignore[attr-defined]
_matrix_transpose = primitive(StructuredMatrix.mT.fget)  # type: ignore[attr-defined]
_conj = primitive(StructuredMatrix.conj)
_transpose = primitive(StructuredMatrix.transpose)
_diagonal = primitive(StructuredMatrix.diagonal)
_trace = primitive(StructuredMatrix.trace)
_sum = primitive(StructuredMatrix.sum)
_to_dense = primitive(StructuredMatrix.to_dense)
_UFUNCS: dict[Any, Any] = {}


class StructuredBox(ArrayBox):
    """autograd's box for a structured matrix: operations go through chainrules' rules.

    Examples
    --------
    >>> import numpy as np
    >>> import autograd
    >>> from chainrules.structured import Diagonal
    >>> x = np.array([1.0, 2.0])
    >>> autograd.grad(lambda D: (D @ x).sum())(Diagonal(np.array([3.0, 4.0])))
    Diagonal(array([1., 2.]))
    """

    __slots__ = ()
    __array_priority__ = 110.0

    shape = property(lambda self: self._value.shape)
    ndim = property(lambda self: 2)
    size = property(lambda self: self._value.size)
    dtype = property(lambda self: self._value.dtype)
    T = property(lambda self: _T(self))
    mT = property(lambda self: _matrix_transpose(self))  # noqa: N815  (mirrors ndarray.mT)

    def __len__(self) -> int:
        return len(self._value)

    def __array_ufunc__(self, ufunc: Any, method: str, *inputs: Any, **kwargs: Any) -> Any:
        """NumPy ufuncs (``x @ D`` with ``x`` an ndarray) reach the chainrules rule when one covers the types."""
        if (method == "__call__" and "out" not in kwargs
                and rrule.find(ufunc, *(type(getval(x)) for x in inputs)) is not None):
            bridged = _UFUNCS.get(ufunc)
            if bridged is None:
                bridged = _UFUNCS[ufunc] = primitive(ufunc)
            return bridged(*inputs, **kwargs)
        return super().__array_ufunc__(ufunc, method, *inputs, **kwargs)

    def __add__(self, other: Any) -> Any:
        return _add(self, other)

    def __radd__(self, other: Any) -> Any:
        return _add(other, self)

    def __sub__(self, other: Any) -> Any:
        return _sub(self, other)

    def __rsub__(self, other: Any) -> Any:
        return _sub(other, self)

    def __mul__(self, other: Any) -> Any:
        return _mul(self, other)

    def __rmul__(self, other: Any) -> Any:
        return _mul(other, self)

    def __truediv__(self, other: Any) -> Any:
        return _truediv(self, other)

    def __matmul__(self, other: Any) -> Any:
        return _matmul(self, other)

    def __rmatmul__(self, other: Any) -> Any:
        return _matmul(other, self)

    def __neg__(self) -> Any:
        return _neg(self)

    def conj(self) -> Any:
        """The complex conjugate, of the same type."""
        return _conj(self)

    def transpose(self, *axes: Any) -> Any:
        """The transpose, of the matching structured type."""
        return _transpose(self, *axes)

    def diagonal(self, offset: int = 0) -> Any:
        """A diagonal of the matrix (an ndarray)."""
        return _diagonal(self, offset)

    def trace(self, offset: int = 0) -> Any:
        """The sum of a diagonal."""
        return _trace(self, offset)

    def sum(self, axis: Any = None) -> Any:  # type: ignore[override]
        """The sum of the entries of the dense matrix (over ``axis``)."""
        return _sum(self, axis)

    def to_dense(self) -> Any:
        """The dense ndarray the matrix stands for."""
        return _to_dense(self)


for _kind in STRUCTURED_TYPES:
    StructuredVSpace.register(_kind)
    StructuredBox.register(_kind)
