"""Arithmetic on matrices stored by their diagonals (private).

A banded matrix of order ``n`` is a dict ``{offset: values}``: ``values`` is the diagonal
``np.diagonal(A, offset)``, of length ``n - |offset|`` (``A[i, i + offset]`` for
``offset >= 0``, ``A[i - offset, i]`` below). ``Diagonal``, ``Bidiagonal``, ``Tridiagonal``
and ``SymTridiagonal`` are views of such dicts, and every operation here costs
``O(n)`` per diagonal (times the number of right-hand columns): products with dense
matrices and with each other, the diagonals of a product ``L @ R`` (what the cotangent
of a banded factor needs), inner products, sums and dense conversion.
"""

from __future__ import annotations

from typing import Any

import numpy as np

Bands = dict[int, np.ndarray]


def index(n: int, offset: int) -> tuple[slice, slice]:
    """Row and column slices of the ``offset`` diagonal of an ``n x n`` matrix.

    Examples
    --------
    >>> from chainrules.structured._band_arithmetic import index
    >>> index(4, 1), index(4, -1)
    ((slice(0, 3, None), slice(1, 4, None)), (slice(1, 4, None), slice(0, 3, None)))
    """
    if offset >= 0:
        return slice(0, max(n - offset, 0)), slice(min(offset, n), n)
    return slice(min(-offset, n), n), slice(0, max(n + offset, 0))


def result_dtype(bands: Bands, *others: Any) -> np.dtype:
    """The dtype of an operation between the bands and ``others`` (arrays or dtypes)."""
    return np.result_type(*bands.values(), *others)


def to_dense(bands: Bands, n: int, dtype: Any) -> np.ndarray:
    """The ``n x n`` ndarray with these diagonals.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.structured._band_arithmetic import to_dense
    >>> to_dense({0: np.array([1.0, 2.0]), 1: np.array([3.0])}, 2, np.float64)
    array([[1., 3.],
           [0., 2.]])
    """
    out = np.zeros((n, n), dtype=dtype)
    for offset, values in bands.items():
        if len(values):
            rows, cols = index(n, offset)
            np.fill_diagonal(out[rows, cols], values)
    return out


def diagonal(bands: Bands, n: int, offset: int, dtype: Any) -> np.ndarray:
    """The ``offset`` diagonal (a new array; zeros outside the band)."""
    values = bands.get(offset)
    if values is not None:
        return np.array(values, dtype=dtype)
    return np.zeros(max(n - abs(offset), 0), dtype=dtype)


def matmul_right(bands: Bands, n: int, B: np.ndarray) -> np.ndarray:
    """``A @ B`` for the banded ``A`` and ``B`` of shape ``(n,)`` or ``(..., n, k)``."""
    vector = B.ndim == 1
    Bm = B[:, None] if vector else B
    out = np.zeros(Bm.shape, dtype=result_dtype(bands, Bm))
    for offset, values in bands.items():
        rows, cols = index(n, offset)
        out[..., rows, :] += values[:, None] * Bm[..., cols, :]
    return out[:, 0] if vector else out


def matmul_left(B: np.ndarray, bands: Bands, n: int) -> np.ndarray:
    """``B @ A`` for the banded ``A`` and ``B`` of shape ``(n,)`` or ``(..., k, n)``."""
    out = np.zeros(B.shape, dtype=result_dtype(bands, B))
    for offset, values in bands.items():
        rows, cols = index(n, offset)
        out[..., cols] += B[..., rows] * values
    return out


def product(a: Bands, b: Bands, n: int) -> Bands:
    """The diagonals of ``A @ B`` for two banded matrices (offsets add)."""
    dtype = np.result_type(*a.values(), *b.values())
    out: Bands = {}
    for oa, va in a.items():
        for ob, vb in b.items():
            offset = oa + ob
            # A diagonal outside the matrix is kept (empty): the result's type must not depend on n.
            target = out.setdefault(offset, np.zeros(max(n - abs(offset), 0), dtype=dtype))
            if target.size == 0:
                continue
            # Entry (i, i + oa + ob) sums A[i, i + oa] * B[i + oa, i + oa + ob] over the middle index j.
            rows, _ = index(n, offset)
            i = np.arange(rows.start, rows.stop)
            j = i + oa
            valid = (j >= 0) & (j < n)
            ia = np.minimum(i, i + oa)[valid]          # position of A[i, j] within its diagonal
            ib = np.minimum(j, j + ob)[valid]          # position of B[j, i + offset] within its diagonal
            k = np.minimum(i, i + offset)[valid]
            target[k] += va[ia] * vb[ib]
    return out


def gather_product(L: np.ndarray, R: np.ndarray, offsets: Any, n: int) -> Bands:
    """The diagonals ``offsets`` of ``L @ R`` without forming it: ``O(n k)`` per diagonal.

    ``L`` has shape ``(n, k)`` and ``R`` shape ``(k, n)``; no ``n x n`` temporary is made.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.structured._band_arithmetic import gather_product
    >>> L, R = np.arange(6.0).reshape(3, 2), np.arange(6.0).reshape(2, 3)
    >>> gather_product(L, R, (0, 1), 3)[0], np.diagonal(L @ R)
    (array([ 3., 14., 33.]), array([ 3., 14., 33.]))
    """
    out: Bands = {}
    for offset in offsets:
        rows, cols = index(n, offset)
        out[offset] = np.einsum("ik,ki->i", L[rows], R[:, cols])
    return out


def gather(G: Any, offsets: Any) -> Bands:
    """The diagonals ``offsets`` of ``G`` (ndarray, structured matrix or sparse array), as new arrays."""
    if isinstance(G, np.ndarray):
        return {o: np.diagonal(G, o).copy() for o in offsets}
    return {o: np.asarray(G.diagonal(o)) for o in offsets}


def vdot(a: Bands, G: Any) -> Any:
    """``sum(conj(A) * G)`` over the band of ``A`` (``G`` dense, structured or sparse)."""
    total: Any = 0
    others = gather(G, a.keys())
    for offset, values in a.items():
        total = total + np.vdot(values, others[offset])
    return total


def transpose(bands: Bands) -> Bands:
    """The diagonals of ``A.T``."""
    return {-o: v for o, v in bands.items()}


def add(a: Bands, b: Bands, sign: int = 1) -> Bands:
    """The diagonals of ``A + sign * B``."""
    dtype = np.result_type(*a.values(), *b.values())
    out = {o: np.array(v, dtype=dtype) for o, v in a.items()}
    for o, v in b.items():
        if o in out:
            out[o] = out[o] + sign * v
        else:
            out[o] = (sign * v).astype(dtype, copy=False)
    return out


def row_sums(bands: Bands, n: int, dtype: Any) -> np.ndarray:
    """``A.sum(axis=1)``."""
    out = np.zeros(n, dtype=dtype)
    for offset, values in bands.items():
        rows, _ = index(n, offset)
        out[rows] += values
    return out


def column_sums(bands: Bands, n: int, dtype: Any) -> np.ndarray:
    """``A.sum(axis=0)``."""
    out = np.zeros(n, dtype=dtype)
    for offset, values in bands.items():
        _, cols = index(n, offset)
        out[cols] += values
    return out
