"""Building blocks of the sample inputs of the structured and sparse rules (private).

Every structured type with each value of its ``lower`` flag, well conditioned (the diagonal
shifted away from zero, so that determinants, inverses and solves are defined), and random
sparse arrays of every format, as arrays and as legacy matrices.

Examples
--------
>>> import numpy as np
>>> from chainrules.rulesets.structured_matrices._samples import every_kind, sparse
>>> [label for label, _ in every_kind(np.random.default_rng(0))][:3]
['Diagonal', 'UpperTriangular', 'LowerTriangular']
>>> sparse(np.random.default_rng(0), "csc", (3, 3)).format
'csc'
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.sparse as sp

from chainrules.structured import (
    Bidiagonal,
    Diagonal,
    Hermitian,
    LowerTriangular,
    StructuredMatrix,
    Symmetric,
    SymTridiagonal,
    Tridiagonal,
    UpperTriangular,
)

__all__ = ["FORMATS", "KINDS", "banded", "every_kind", "sparse", "structured"]

KINDS: tuple[tuple[type, bool], ...] = (
    (Diagonal, False), (UpperTriangular, False), (LowerTriangular, False), (Symmetric, False), (Symmetric, True),
    (Hermitian, False), (Hermitian, True), (Bidiagonal, False), (Bidiagonal, True), (Tridiagonal, False),
    (SymTridiagonal, False),
)
"""Every structured type with each value of its ``lower`` flag (``False`` where it has none)."""

FORMATS = ("csr", "csc", "coo", "bsr", "dia", "lil", "dok")
"""Every ``scipy.sparse`` format."""


def _values(rng: np.random.Generator, dtype: np.dtype, *shape: int) -> np.ndarray:
    v = rng.standard_normal(shape)
    if dtype.kind == "c":
        v = v + 1j * rng.standard_normal(shape)
    return v.astype(dtype)


def structured(rng: np.random.Generator, cls: type, lower: bool = False, n: int = 3,
               dtype: Any = np.float64) -> StructuredMatrix:
    """A random matrix of the structured type ``cls``, its diagonal shifted by 3 (well conditioned)."""
    dtype = np.dtype(dtype)
    d = _values(rng, dtype, n) + 3
    if cls is Diagonal:
        return Diagonal(d)
    if cls is Bidiagonal:
        return Bidiagonal(d, _values(rng, dtype, n - 1), lower)
    if cls is Tridiagonal:
        return Tridiagonal(_values(rng, dtype, n - 1), d, _values(rng, dtype, n - 1))
    if cls is SymTridiagonal:
        return SymTridiagonal(d, _values(rng, dtype, n - 1))
    data = _values(rng, dtype, n, n) + 3 * np.eye(n, dtype=dtype)
    if cls in (Symmetric, Hermitian):
        return cls(data, lower)
    return cls(data)


def every_kind(rng: np.random.Generator, dtype: Any = np.float64, n: int = 3) -> list[tuple[str, StructuredMatrix]]:
    """``(label, matrix)`` for every entry of :data:`KINDS`."""
    return [(f"{cls.__name__}{'-lower' if lower else ''}", structured(rng, cls, lower, n, dtype))
            for cls, lower in KINDS]


def sparse(rng: np.random.Generator, fmt: str, shape: tuple[int, int] = (3, 3), dtype: Any = np.float64, *,
           matrix: bool = False, shift: float = 0.0) -> Any:
    """A random sparse array (a legacy matrix for ``matrix=True``) of format ``fmt``, about half its entries stored.

    ``shift`` adds that multiple of the identity (a square array then solves well).
    """
    dtype = np.dtype(dtype)
    A = sp.random_array(shape, density=0.5, format="coo", rng=rng)
    if dtype.kind == "c":
        A = A + 1j * sp.random_array(shape, density=0.5, format="coo", rng=rng)
    if shift:
        A = A + shift * sp.eye_array(*shape)
    A = sp.coo_array(A).astype(dtype)
    if matrix:
        A = sp.coo_matrix(A)
    return A.asformat(fmt)


def banded(rng: np.random.Generator, shape: tuple[int, int] = (3, 3), offsets: tuple[int, ...] = (-1, 0, 1),
           dtype: Any = np.float64, *, matrix: bool = False) -> Any:
    """A random ``dia`` array (a legacy ``dia_matrix`` for ``matrix=True``) whose stored diagonals hold no zero.

    ``sparse(rng, "dia")`` stores the zeros of its random diagonals explicitly; functions
    that convert to another format drop them (``dia`` to ``coo`` removes zeros), so their
    output's pattern changes when finite differences perturb a stored zero. These
    diagonals have no zeros, so the output's pattern is the same at every nearby point.
    """
    dtype = np.dtype(dtype)
    data = _values(rng, dtype, len(offsets), shape[1])
    data = data + np.where(data.real >= 0, 0.5, -0.5).astype(dtype)  # away from zero
    cls = sp.dia_matrix if matrix else sp.dia_array
    return cls((data, np.asarray(offsets)), shape=shape)
