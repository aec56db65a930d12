"""Arithmetic with structured matrices: ``@``, ``+``, ``-``, scaling, and the ufuncs that keep structure.

Results keep the structure when it holds, judged from the operands' types only (never
from their values, so the type of a result does not depend on the data): products of
banded matrices are banded with added bandwidths (``Diagonal @ Bidiagonal`` is a
``Bidiagonal``, two upper bidiagonals give an ``UpperTriangular``), sums take the wider
band, symmetry survives sums of symmetric types, and everything else is a dense ndarray.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable
from typing import Any

import numpy as np

from chainrules.structured import _band_arithmetic
from chainrules.structured.base import StructuredMatrix, is_scalar
from chainrules_core import AbstractTangent


def _bw_max(a: int | None, b: int | None) -> int | None:
    return None if a is None or b is None else max(a, b)


def _bw_add(a: int | None, b: int | None) -> int | None:
    return None if a is None or b is None else a + b


# ---- the structure of results -------------------------------------------------------------------------------
def from_bands(bands: dict[int, np.ndarray], n: int, symmetric: bool = False) -> Any:
    """The structured matrix with these diagonals: the narrowest type that holds them.

    Offsets ``{0}`` make a ``Diagonal``, ``{0, 1}`` or ``{0, -1}`` a ``Bidiagonal``,
    ``{-1, 0, 1}`` a ``Tridiagonal`` (a ``SymTridiagonal`` if ``symmetric``), wider upper or
    lower bands an ``UpperTriangular`` or ``LowerTriangular``, anything else a dense ndarray.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.structured.operations import from_bands
    >>> from_bands({0: np.ones(2), -1: np.ones(1)}, 2)
    Bidiagonal(array([1., 1.]), array([1.]), lower=True)
    """
    kinds = StructuredMatrix._kinds
    dtype = np.result_type(*bands.values()) if bands else np.dtype(np.float64)

    def band(offset: int) -> np.ndarray:
        return _band_arithmetic.diagonal(bands, n, offset, dtype)

    offsets = {o for o, v in bands.items()}
    if offsets <= {0}:
        return kinds["Diagonal"](band(0))
    if offsets <= {0, 1}:
        return kinds["Bidiagonal"](band(0), band(1), lower=False)
    if offsets <= {0, -1}:
        return kinds["Bidiagonal"](band(0), band(-1), lower=True)
    if offsets <= {-1, 0, 1}:
        if symmetric:
            return kinds["SymTridiagonal"](band(0), band(1))
        return kinds["Tridiagonal"](band(-1), band(0), band(1))
    dense = _band_arithmetic.to_dense(bands, n, dtype)
    if min(offsets) >= 0:
        return kinds["UpperTriangular"](dense)
    if max(offsets) <= 0:
        return kinds["LowerTriangular"](dense)
    return dense


def _wrap(dense: np.ndarray, lower: int | None, upper: int | None, symmetric: bool, hermitian: bool,
          prefer_hermitian: bool) -> Any:
    """A dense result wrapped in the structured type its bandwidths and symmetry allow."""
    kinds = StructuredMatrix._kinds
    if lower == 0:
        return kinds["UpperTriangular"](dense)
    if upper == 0:
        return kinds["LowerTriangular"](dense)
    if lower is None and upper is None:
        if hermitian and (prefer_hermitian or not symmetric):
            return kinds["Hermitian"](dense)
        if symmetric:
            return kinds["Symmetric"](dense)
    return dense


def _operand(x: Any) -> Any:
    """An operand for arithmetic with a structured matrix: ndarray, number or structured; else None."""
    if isinstance(x, (StructuredMatrix, np.ndarray)):
        return x
    if isinstance(x, (numbers.Number, np.generic)):
        return x
    if isinstance(x, (list, tuple)):
        return np.asarray(x)
    return None


def _operands(a: Any, b: Any) -> tuple[Any, Any] | None:
    """Both operands ready for arithmetic, or ``None`` (answer ``NotImplemented``): tangents of the core
    and foreign objects handle the operation themselves."""
    if isinstance(a, AbstractTangent) or isinstance(b, AbstractTangent):
        return None
    a, b = _operand(a), _operand(b)
    return None if a is None or b is None else (a, b)


def matmul(a: Any, b: Any) -> Any:
    """``a @ b`` where at least one operand is structured; see the module docstring.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.structured import Diagonal
    >>> from chainrules.structured.operations import matmul
    >>> matmul(np.ones((1, 2)), Diagonal(np.array([1.0, 2.0])))
    array([[1., 2.]])
    """
    operands = _operands(a, b)
    if operands is None:
        return NotImplemented
    a, b = operands
    if is_scalar(a) or is_scalar(b):
        raise ValueError("matmul: Input operand does not have enough dimensions (a scalar cannot be "
                         "multiplied by a matrix with @; use *)")
    if isinstance(a, StructuredMatrix) and isinstance(b, StructuredMatrix):
        return _matmul_structured(a, b)
    if isinstance(a, StructuredMatrix):
        return a._matmul_right(np.asarray(b))
    return b._matmul_left(np.asarray(a))


def _matmul_structured(a: StructuredMatrix, b: StructuredMatrix) -> Any:
    if a.n != b.n:
        raise ValueError(f"matmul: the operands have shapes {a.shape} and {b.shape}")
    bands_a, bands_b = a._bands(), b._bands()
    if bands_a is not None and bands_b is not None:
        return from_bands(_band_arithmetic.product(bands_a, bands_b, a.n), a.n)
    if bands_a is not None:
        dense = _band_arithmetic.matmul_right(bands_a, a.n, b._to_dense())
    elif bands_b is not None:
        dense = _band_arithmetic.matmul_left(a._to_dense(), bands_b, b.n)
    else:
        dense = a._to_dense() @ b._to_dense()
    (la, ua), (lb, ub) = a._bandwidths(), b._bandwidths()
    return _wrap(dense, _bw_add(la, lb), _bw_add(ua, ub), False, False, False)


def add(a: Any, b: Any, sign: int = 1) -> Any:
    """``a + sign * b`` where at least one operand is structured; see the module docstring.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.structured import Diagonal, SymTridiagonal
    >>> from chainrules.structured.operations import add
    >>> add(Diagonal(np.ones(2)), SymTridiagonal(np.ones(2), np.ones(1)), -1)
    SymTridiagonal(array([0., 0.]), array([-1.]))
    """
    operands = _operands(a, b)
    if operands is None:
        return NotImplemented
    a, b = operands
    if not (isinstance(a, StructuredMatrix) and isinstance(b, StructuredMatrix)):
        dense_a = a._to_dense() if isinstance(a, StructuredMatrix) else a
        dense_b = b._to_dense() if isinstance(b, StructuredMatrix) else b
        return np.add(dense_a, dense_b) if sign == 1 else np.subtract(dense_a, dense_b)
    if a.n != b.n:
        raise ValueError(f"operands could not be broadcast together with shapes {a.shape} {b.shape}")
    if type(a) is type(b) and a._flags() == b._flags():
        return a._replace(*(x + sign * y for x, y in zip(a._arrays(), b._arrays())))
    symmetric = a._is_symmetric() and b._is_symmetric()
    bands_a, bands_b = a._bands(), b._bands()
    if bands_a is not None and bands_b is not None:
        return from_bands(_band_arithmetic.add(bands_a, bands_b, sign), a.n, symmetric)
    hermitian = a._is_hermitian() and b._is_hermitian()
    prefer_hermitian = type(a).__name__ == "Hermitian" or type(b).__name__ == "Hermitian"
    dense = a._to_dense() + sign * b._to_dense()
    (la, ua), (lb, ub) = a._bandwidths(), b._bandwidths()
    return _wrap(dense, _bw_max(la, lb), _bw_max(ua, ub), symmetric, hermitian, prefer_hermitian)


def multiply(a: Any, b: Any) -> Any:
    """``a * b``: scaling when one operand is a number, else elementwise on the dense matrices.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.structured import Diagonal
    >>> from chainrules.structured.operations import multiply
    >>> multiply(2.0, Diagonal(np.ones(2)))
    Diagonal(array([2., 2.]))
    >>> multiply(Diagonal(np.ones(2)), np.full((2, 2), 3.0))
    array([[3., 0.],
           [0., 3.]])
    """
    operands = _operands(a, b)
    if operands is None:
        return NotImplemented
    a, b = operands
    if is_scalar(a) and isinstance(b, StructuredMatrix):
        return b._scaled(a)
    if is_scalar(b) and isinstance(a, StructuredMatrix):
        return a._scaled(b)
    return np.multiply(*densify((a, b)))


def _divide(a: Any, b: Any) -> Any:
    if isinstance(a, StructuredMatrix) and is_scalar(b):
        return a._scaled(b, divide=True)
    return np.true_divide(*densify((a, b)))


def densify(value: Any) -> Any:
    """Replace structured matrices by their dense arrays inside args, lists, tuples and dicts.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.structured import Diagonal
    >>> from chainrules.structured.operations import densify
    >>> densify([Diagonal(np.ones(2)), 3])
    [array([[1., 0.],
           [0., 1.]]), 3]
    """
    if isinstance(value, StructuredMatrix):
        return value._to_dense()
    if isinstance(value, tuple):
        return tuple(densify(v) for v in value)
    if isinstance(value, list):
        return [densify(v) for v in value]
    if isinstance(value, dict):
        return {k: densify(v) for k, v in value.items()}
    return value


UFUNCS: dict[Any, Callable[..., Any]] = {
    np.matmul: matmul,
    np.add: add,
    np.subtract: lambda a, b: add(a, b, -1),
    np.multiply: multiply,
    np.true_divide: _divide,
    np.negative: lambda a: -a,
    np.positive: lambda a: a,
    np.conjugate: lambda a: a.conj(),
}
