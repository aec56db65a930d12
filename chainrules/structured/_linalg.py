"""Determinants, factorizations and solves shared by the structured types (private).

``solve(A, b, factorization, trans)`` solves ``op(A) x = b`` with a factorization object
(``A._factorize()``: LU for dense types, others per type) so that a pullback can reuse
the forward factorization for its adjoint solve; the helpers for matrices whose
determinant is the product of their diagonal (diagonal, triangular, bidiagonal) compute
``det``, ``slogdet`` and the adjugate's diagonal in ``O(n)``.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import scipy.linalg

from chainrules.structured.base import StructuredMatrix, as_columns, inexact

# ---- matrices whose determinant is the product of their diagonal -------------------------------------------
SlogdetResult = type(np.linalg.slogdet(np.ones((1, 1))))
"""NumPy's result type of ``np.linalg.slogdet`` (a namedtuple ``(sign, logabsdet)``)."""


def products_except_each(v: np.ndarray) -> np.ndarray:
    """``out[i] = prod(v[j] for j != i)`` in ``O(n)``, without dividing (exact when ``v`` has zeros).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.structured._linalg import products_except_each
    >>> products_except_each(np.array([2.0, 0.0, 3.0]))
    array([0., 6., 0.])
    """
    n = len(v)
    before = np.ones(n, dtype=v.dtype)
    after = np.ones(n, dtype=v.dtype)
    if n > 1:
        before[1:] = np.cumprod(v[:-1])
        after[:-1] = np.cumprod(v[::-1][:-1])[::-1]
    return before * after


def det_of_diagonal(diag: np.ndarray) -> Any:
    """The determinant of a triangular matrix: the product of its diagonal (as ``np.linalg.det``)."""
    return np.prod(diag, dtype=inexact(diag.dtype))


def slogdet_of_diagonal(diag: np.ndarray) -> Any:
    """``np.linalg.slogdet`` of a triangular matrix with this diagonal."""
    dtype = inexact(diag.dtype)
    diag = diag.astype(dtype, copy=False)
    magnitude = np.abs(diag)
    real_dtype = magnitude.dtype
    if np.any(magnitude == 0):
        return SlogdetResult(dtype.type(0), real_dtype.type(-np.inf))
    sign = np.prod(diag / magnitude) if dtype.kind == "c" else np.prod(np.sign(diag))
    return SlogdetResult(dtype.type(sign), real_dtype.type(np.sum(np.log(magnitude))))


def check_nonsingular_diagonal(diag: np.ndarray) -> None:
    """Raise ``LinAlgError("Singular matrix")``, as ``np.linalg.inv``, if ``diag`` has a zero."""
    if np.any(diag == 0):
        raise np.linalg.LinAlgError("Singular matrix")


# ---- factorizations --------------------------------------------------------------------------------------
_TRANS = {"N": 0, "T": 1, "C": 2}


class LUFactorization:
    """LU factorization of a dense square matrix, reused for ``op(A) x = b`` solves (SciPy ``lu_factor``)."""

    __slots__ = ("lu_piv",)

    def __init__(self, dense: np.ndarray) -> None:
        if dense.dtype.kind not in "fc":
            dense = dense.astype(np.float64)
        with warnings.catch_warnings():  # a singular matrix raises LinAlgError below, as np.linalg does
            warnings.simplefilter("ignore", scipy.linalg.LinAlgWarning)
            lu, piv = scipy.linalg.lu_factor(dense, check_finite=False)
        if np.any(np.diagonal(lu) == 0):
            raise np.linalg.LinAlgError("Singular matrix")
        self.lu_piv = (lu, piv)

    def solve(self, b: np.ndarray, trans: str = "N") -> np.ndarray:
        return scipy.linalg.lu_solve(self.lu_piv, b, trans=_TRANS[trans], check_finite=False)


def solve(A: StructuredMatrix, b: Any, factorization: Any = None, trans: str = "N") -> np.ndarray:
    """``x`` with ``op(A) @ x = b`` (``op``: ``"N"`` none, ``"T"`` transpose, ``"C"`` conjugate transpose).

    ``b`` has shape ``(n,)`` or ``(..., n, k)``, as for ``np.linalg.solve``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.structured import Diagonal
    >>> from chainrules.structured._linalg import solve
    >>> solve(Diagonal(np.array([2.0, 4.0])), np.array([1.0, 1.0]))
    array([0.5 , 0.25])
    """
    b = np.asarray(b)
    fact = A._factorize() if factorization is None else factorization
    cols, back = as_columns(b, A.n, "solve")
    dtype = np.result_type(inexact(A.dtype), inexact(b.dtype))
    return back(np.asarray(fact.solve(cols.astype(dtype, copy=False), trans), dtype=dtype))
