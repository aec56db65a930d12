"""``ProjectTo`` for ``scipy.sparse`` arrays and matrices: cotangents live on the stored pattern.

The tangent space of a sparse array is the set of matrices that are zero outside its
stored entries (explicit zeros included): a cotangent has the primal's format, shape
and sparsity pattern. ``ProjectTo(A)`` gathers a dense (or differently sparse) cotangent
onto the pattern of ``A`` without densifying ``A``; a cotangent that already has ``A``'s
structure passes through (only its dtype may be cast).

Every format is supported: ``csr``, ``csc``, ``coo``, ``bsr`` and ``dia`` keep ``A``'s
index arrays (the cotangent shares them; duplicate entries of a non-canonical ``A`` get
the value once, on their first slot; ``dia`` padding stays zero); ``lil`` and ``dok``
are rebuilt from coordinates (these formats do not store zeros, so the cotangent's
pattern is the part of ``A``'s where it is nonzero).

:class:`SparsePattern` describes the stored entries once (``O(nnz log nnz)``, computed
on first use) and is what the testing utilities perturb: the values at the distinct
stored positions.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.sparse as sp

from chainrules_core import AbstractTangent, ProjectTo, Tangent
from chainrules_core.projection import NoTangentProjector, Projector, _tangent_dtype

__all__ = ["SPARSE_TYPES", "SparsePattern", "SparseProjector", "gather", "is_sparse"]

SPARSE_TYPES = (sp.sparray, sp.spmatrix)
"""The base classes of SciPy's sparse arrays and sparse matrices (for rule signatures)."""

_SLOT_FORMATS = ("csr", "csc", "coo", "bsr", "dia")


def is_sparse(x: Any) -> bool:
    """Whether ``x`` is a SciPy sparse array or matrix.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.sparse as sp
    >>> from chainrules.structured.sparse import is_sparse
    >>> is_sparse(sp.eye_array(2)), is_sparse(sp.csr_matrix(np.eye(2))), is_sparse(np.eye(2))
    (True, True, False)
    """
    return isinstance(x, SPARSE_TYPES)


def _slots(x: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Row, column and validity of every slot of ``x.data`` (flattened), for slot-based formats."""
    fmt = x.format
    size = x.data.size
    valid = np.ones(size, dtype=bool)
    if fmt in ("csr", "csc"):
        nnz = int(x.indptr[-1])
        major = np.repeat(np.arange(len(x.indptr) - 1), np.diff(x.indptr))
        minor = np.asarray(x.indices[:nnz])
        rows, cols = (major, minor) if fmt == "csr" else (minor, major)
        pad = size - nnz
        if pad:
            valid[nnz:] = False
            rows = np.concatenate([rows, np.zeros(pad, rows.dtype)])
            cols = np.concatenate([cols, np.zeros(pad, cols.dtype)])
        return rows.astype(np.int64), cols.astype(np.int64), valid
    if fmt == "coo":
        return np.asarray(x.row, dtype=np.int64), np.asarray(x.col, dtype=np.int64), valid
    if fmt == "bsr":
        R, C = x.blocksize
        nblocks = x.data.shape[0]
        brow = np.repeat(np.arange(len(x.indptr) - 1), np.diff(x.indptr))[:nblocks]
        bcol = np.asarray(x.indices[:nblocks])
        r, c = np.meshgrid(np.arange(R), np.arange(C), indexing="ij")
        rows = (brow[:, None, None] * R + r[None]).ravel()
        cols = (bcol[:, None, None] * C + c[None]).ravel()
        return rows.astype(np.int64), cols.astype(np.int64), valid
    if fmt == "dia":
        M, N = x.shape
        ndiag, length = x.data.shape
        cols = np.broadcast_to(np.arange(length), (ndiag, length))
        rows = cols - np.asarray(x.offsets)[:, None]
        valid = ((rows >= 0) & (rows < M) & (cols < N)).ravel()
        rows, cols = np.where(valid, rows.ravel(), 0), np.where(valid, cols.ravel(), 0)
        return rows.astype(np.int64), cols.astype(np.int64), valid
    raise TypeError(f"no slots for the sparse format {fmt!r}")


class SparsePattern:
    """The stored entries of a sparse array: their distinct positions and where they sit in ``data``.

    Attributes
    ----------
    rows, cols : ndarray of int64
        The distinct stored positions, sorted row-major (``len(rows)`` free parameters).
        For a 1-d or n-d ``coo`` array (``flat``), ``rows`` is zero and ``cols`` the
        position in the flattened array.
    shape : tuple of int

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.sparse as sp
    >>> from chainrules.structured.sparse import SparsePattern
    >>> A = sp.csr_array(np.array([[1.0, 0.0], [2.0, 3.0]]))
    >>> p = SparsePattern(A)
    >>> p.rows, p.cols
    (array([0, 1, 1]), array([0, 0, 1]))
    >>> p.gather(np.arange(4.0).reshape(2, 2))
    array([0., 2., 3.])
    >>> p.build(A, np.array([5.0, 6.0, 7.0])).toarray()
    array([[5., 0.],
           [6., 7.]])
    """

    __slots__ = ("cols", "first_slot", "flat", "format", "rows", "shape", "slot_based", "slot_position")

    def __init__(self, x: Any) -> None:
        self.shape = tuple(x.shape)
        self.format = x.format
        self.flat = len(self.shape) != 2
        self.slot_based = self.format in _SLOT_FORMATS and not self.flat
        if self.slot_based:
            rows, cols, valid = _slots(x)
        elif self.flat:  # a 1-d or n-d coo array: its positions in the flattened array, on one row
            coords = x.tocoo().coords
            cols = np.ravel_multi_index(coords, self.shape).astype(np.int64) if len(coords[0]) else \
                np.zeros(0, np.int64)
            rows = np.zeros_like(cols)
            valid = np.ones(len(rows), dtype=bool)
        else:
            coo = x.tocoo()
            rows, cols = coo.row.astype(np.int64), coo.col.astype(np.int64)
            valid = np.ones(len(rows), dtype=bool)
        ncols = int(np.prod(self.shape)) if self.flat else self.shape[1]
        keys = rows[valid] * ncols + cols[valid]
        unique, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
        self.rows, self.cols = unique // max(ncols, 1), unique % max(ncols, 1)
        slot_index = np.flatnonzero(valid)
        self.first_slot = slot_index[first]     # the slot that carries each position's value
        self.slot_position = inverse            # position of each valid slot

    @property
    def size(self) -> int:
        """The number of distinct stored positions."""
        return len(self.rows)

    def gather(self, G: Any) -> np.ndarray:
        """The values of ``G`` (dense or sparse, shape ``self.shape``) at the stored positions.

        Examples
        --------
        >>> import numpy as np
        >>> import scipy.sparse as sp
        >>> from chainrules.structured.sparse import SparsePattern
        >>> SparsePattern(sp.eye_array(2, format="csr")).gather(np.array([[1.0, 2.0], [3.0, 4.0]]))
        array([1., 4.])
        """
        if self.flat:
            G = G.reshape((1, -1)) if is_sparse(G) else np.reshape(np.asarray(G), (1, -1))
        if is_sparse(G):
            return gather(G, self.rows, self.cols)
        return np.asarray(G)[self.rows, self.cols]

    def build(self, template: Any, values: np.ndarray) -> Any:
        """A sparse array with ``template``'s format and pattern holding ``values`` at the positions.

        Examples
        --------
        >>> import numpy as np
        >>> import scipy.sparse as sp
        >>> from chainrules.structured.sparse import SparsePattern
        >>> A = sp.eye_array(2, format="coo")
        >>> SparsePattern(A).build(A, np.array([5.0, 6.0])).toarray()
        array([[5., 0.],
               [0., 6.]])
        """
        values = np.asarray(values)
        if self.slot_based:
            data = np.zeros(template.data.size, dtype=values.dtype)
            data[self.first_slot] = values
            return template._with_data(data.reshape(template.data.shape), copy=True)  # never share index arrays
        if self.flat:
            return sp.coo_array((values, np.unravel_index(self.cols, self.shape)), shape=self.shape)
        coo = sp.coo_array((values, (self.rows, self.cols)), shape=self.shape)
        return type(template)(coo)


def gather(G: Any, rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
    """The values of the sparse ``G`` at the positions ``(rows, cols)`` (zero where it stores nothing).

    ``O((nnz(G) + len(rows)) log nnz(G))``; ``G`` is never densified.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.sparse as sp
    >>> from chainrules.structured.sparse import gather
    >>> gather(sp.coo_array(np.array([[0.0, 2.0], [3.0, 0.0]])), np.array([0, 1]), np.array([1, 1]))
    array([2., 0.])
    """
    coo = sp.coo_array(G)
    coo.sum_duplicates()
    ncols = coo.shape[1]
    keys = coo.row.astype(np.int64) * ncols + coo.col
    order = np.argsort(keys)
    keys, data = keys[order], coo.data[order]
    wanted = np.asarray(rows, dtype=np.int64) * ncols + np.asarray(cols, dtype=np.int64)
    where = np.searchsorted(keys, wanted)
    where = np.minimum(where, max(len(keys) - 1, 0))
    found = (keys[where] == wanted) if len(keys) else np.zeros(len(wanted), dtype=bool)
    out = np.zeros(len(wanted), dtype=data.dtype)
    out[found] = data[where[found]]
    return out


class SparseProjector(Projector):
    """``ProjectTo`` of a sparse array: keeps its format, shape and stored pattern.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.sparse as sp
    >>> from chainrules import ProjectTo
    >>> A = sp.csr_array(np.array([[1.0, 0.0], [0.0, 2.0]]))
    >>> dA = ProjectTo(A)(np.array([[1.0, 5.0], [6.0, 2.0]]))
    >>> type(dA).__name__, dA.toarray()
    ('csr_array', array([[1., 0.],
           [0., 2.]]))
    """

    __slots__ = ("_pattern", "dtype", "real", "shape", "template")

    def __init__(self, x: Any, dtype: np.dtype) -> None:
        self.template = x
        self.shape = tuple(x.shape)
        self.dtype = dtype
        self.real = dtype.kind == "f"
        self._pattern: SparsePattern | None = None

    @property
    def pattern(self) -> SparsePattern:
        """The primal's :class:`SparsePattern` (computed on first use).

        Examples
        --------
        >>> import numpy as np
        >>> import scipy.sparse as sp
        >>> from chainrules import ProjectTo
        >>> ProjectTo(sp.eye_array(3, format="csc")).pattern.size
        3
        """
        if self._pattern is None:
            self._pattern = SparsePattern(self.template)
        return self._pattern

    def cast(self, values: np.ndarray) -> np.ndarray:
        """Stored values in the tangent dtype (the real part for a real primal).

        Examples
        --------
        >>> import numpy as np
        >>> import scipy.sparse as sp
        >>> from chainrules import ProjectTo
        >>> ProjectTo(sp.eye_array(2, dtype=np.float32)).cast(np.array([1 + 1j]))
        array([1.], dtype=float32)
        """
        if self.real and values.dtype.kind == "c":
            values = values.real
        return values.astype(self.dtype, copy=False)

    def _same_structure(self, dx: Any) -> bool:
        t = self.template
        if type(dx) is not type(t) or dx.shape != t.shape or dx.format not in _SLOT_FORMATS:
            return False
        if dx.data.shape != t.data.shape:
            return False
        if dx.format in ("csr", "csc", "bsr"):
            return _same(dx.indptr, t.indptr) and _same(dx.indices, t.indices)
        if dx.format == "coo":
            return len(dx.coords) == len(t.coords) and all(_same(a, b) for a, b in zip(dx.coords, t.coords))
        return _same(dx.offsets, t.offsets)

    def __call__(self, dx: Any) -> Any:
        if is_sparse(dx) and dx.dtype == self.dtype and self._same_structure(dx):
            return dx
        return Projector.__call__(self, dx)

    def project(self, dx: Any) -> Any:
        """Project a cotangent (dense, sparse of any format, or array-like) onto the stored pattern.

        Examples
        --------
        >>> import numpy as np
        >>> import scipy.sparse as sp
        >>> from chainrules import ProjectTo
        >>> ProjectTo(sp.eye_array(2, format="csr")).project(sp.csr_array(np.ones((2, 2)))).toarray()
        array([[1., 0.],
               [0., 1.]])
        """
        if isinstance(dx, (AbstractTangent, Tangent)):
            raise self.fail(f"a sparse primal got a cotangent of type {type(dx).__name__}")
        if is_sparse(dx) and self._same_structure(dx):
            return dx._with_data(self.cast(np.asarray(dx.data)), copy=True)
        shape = tuple(getattr(dx, "shape", np.shape(dx)))
        if shape != self.shape:
            raise self.fail(f"cotangent has shape {shape}, expected shape {self.shape}")
        if not is_sparse(dx):
            dx = np.asarray(dx)
            if dx.dtype.kind not in "fciub":
                raise self.fail(f"a sparse primal got a cotangent of dtype {dx.dtype}")
        values = self.cast(np.asarray(self.pattern.gather(dx)))
        return self.pattern.build(self.template, values)

    def gather_product(self, L: np.ndarray, R: np.ndarray) -> Any:
        """``self(L @ R)`` for ``L`` of shape ``(m, k)`` and ``R`` of shape ``(k, n)``, computed only
        at the stored entries: ``O(nnz k)`` time, no dense ``m x n`` temporary.

        Examples
        --------
        >>> import numpy as np
        >>> import scipy.sparse as sp
        >>> from chainrules import ProjectTo
        >>> ProjectTo(sp.eye_array(2, format="csr")).gather_product(np.ones((2, 3)), np.ones((3, 2))).toarray()
        array([[3., 0.],
               [0., 3.]])
        """
        p = self.pattern
        values = np.einsum("ij,ji->i", L[p.rows], R[:, p.cols]) if len(p.rows) else np.zeros(0, self.dtype)
        return p.build(self.template, self.cast(values))

    def from_values(self, values: np.ndarray) -> Any:
        """The cotangent with ``values`` at the stored positions (in :class:`SparsePattern` order).

        Examples
        --------
        >>> import numpy as np
        >>> import scipy.sparse as sp
        >>> from chainrules import ProjectTo
        >>> ProjectTo(sp.eye_array(2, format="dia")).from_values(np.array([7.0, 8.0])).toarray()
        array([[7., 0.],
               [0., 8.]])
        """
        return self.pattern.build(self.template, self.cast(np.asarray(values)))

    def describe(self) -> str:
        """The primal this projector was made for, for error messages.

        Examples
        --------
        >>> import numpy as np
        >>> import scipy.sparse as sp
        >>> from chainrules import ProjectTo
        >>> ProjectTo(sp.eye_array(2, format="csr")).describe()
        'csr_array of shape (2, 2) with 2 stored entries'
        """
        return f"{type(self.template).__name__} of shape {self.shape} with {self.template.nnz} stored entries"


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    return a is b or (a.shape == b.shape and bool(np.array_equal(a, b)))


def _project_sparse(x: Any) -> Projector:
    dtype = _tangent_dtype(np.dtype(x.dtype))
    if dtype is None:
        return NoTangentProjector()
    return SparseProjector(x, dtype)


# dok arrays are also dicts: register them by name, or the dict projector would win
for _cls in (*SPARSE_TYPES, sp.dok_array, sp.dok_matrix):
    ProjectTo.register(_cls)(_project_sparse)
