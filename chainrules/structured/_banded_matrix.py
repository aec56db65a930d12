"""The base class of the banded types (``Diagonal``, ``Bidiagonal``, ``Tridiagonal``, ``SymTridiagonal``),
their projector and their solvers (private).

Each banded type stores a few diagonals and maps them to offsets (``_bands()``). From
that map this module derives the dense form, the diagonals, the bandwidths, and the
projector: it keeps the diagonals of the type, averaging the two off-diagonals of a
``SymTridiagonal``, without ever forming an ``n x n`` matrix. Tridiagonal solves reuse
LAPACK's ``?gttrf`` factorization (LU with partial pivoting, ``O(n)``) for ``A``,
``A^T`` and ``A^H``. The arithmetic on the diagonals themselves (``{offset: values}``
dicts) is in :mod:`chainrules.structured._band_arithmetic`.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
import scipy.linalg
from scipy.linalg.lapack import get_lapack_funcs

from chainrules.structured import _band_arithmetic
from chainrules.structured._linalg import LUFactorization, SlogdetResult
from chainrules.structured.base import StructuredMatrix, inexact
from chainrules.structured.projection import StructuredProjector
from chainrules_core import AbstractZero, unthunk


def as_vector(name: str, what: str, values: Any) -> np.ndarray:
    """``values`` as a 1-d ndarray, or a ``ValueError`` naming the constructor argument."""
    arr = np.asarray(values)
    if arr.ndim != 1:
        raise ValueError(f"{name}: {what} must be 1-dimensional, got shape {arr.shape}")
    return arr


def check_off_diagonals(name: str, n: int, **arrays: np.ndarray) -> None:
    """Each off-diagonal must have length ``n - 1``."""
    for what, values in arrays.items():
        if len(values) != max(n - 1, 0):
            raise ValueError(f"{name}: {what} must have length {max(n - 1, 0)} (one less than the diagonal), "
                             f"got {len(values)}")


def common_dtype(*arrays: np.ndarray) -> tuple[np.ndarray, ...]:
    """The arrays cast to their common dtype (no copy when they already share it)."""
    dtype = np.result_type(*arrays)
    return tuple(a.astype(dtype, copy=False) for a in arrays)


class BandedMatrix(StructuredMatrix):
    """Base of the matrices stored as a few diagonals."""

    __slots__ = ()

    _offsets: ClassVar[dict[str, int]] = {}
    """Which diagonal each stored array is (``SymTridiagonal.ev`` is both 1 and -1)."""

    @property
    def n(self) -> int:
        return len(self._bands()[0])

    @property
    def dtype(self) -> np.dtype:
        return self._arrays()[0].dtype  # the constructors give every stored array one dtype

    def _arrays(self) -> tuple[np.ndarray, ...]:
        return tuple(getattr(self, name) for name in self._fields)

    def _replace(self, *arrays: np.ndarray) -> StructuredMatrix:
        return type(self)(*arrays, *self._flags())

    def _bands(self) -> dict[int, np.ndarray]:
        raise NotImplementedError

    def _bandwidths(self) -> tuple[int | None, int | None]:
        offsets = self._bands().keys()
        return -min(min(offsets), 0), max(max(offsets), 0)

    def _to_dense(self) -> np.ndarray:
        return _band_arithmetic.to_dense(self._bands(), self.n, self.dtype)

    def _diagonal(self, offset: int) -> np.ndarray:
        return _band_arithmetic.diagonal(self._bands(), self.n, offset, self.dtype)

    def _from_band_dict(self, bands: dict[int, np.ndarray]) -> StructuredMatrix:
        """A matrix of this type and flags with the given diagonals (those of the type only)."""
        raise NotImplementedError


class BandedProjector(StructuredProjector):
    """Projector of a banded type: keeps the type's diagonals (``O(n)`` memory).

    ``symmetric`` (``SymTridiagonal``) averages the diagonals ``k`` and ``-k``: the
    orthogonal projection onto symmetric banded matrices.
    """

    __slots__ = ("offsets", "symmetric", "template")

    def __init__(self, x: BandedMatrix, dtype: np.dtype) -> None:
        super().__init__(x, dtype)
        self.offsets = tuple(sorted(x._bands()))
        self.symmetric = x._is_symmetric() and len(self.offsets) > 1
        self.template = x  # only its type and flags are used: it builds the cotangent

    def _finish(self, bands: dict[int, Any]) -> Any:
        out: dict[int, np.ndarray] = {}
        for o in self.offsets:
            values = bands.get(o)
            length = max(self.n - abs(o), 0)
            if values is None or isinstance(values, AbstractZero):
                out[o] = np.zeros(length, dtype=self.dtype)
            else:
                out[o] = np.array(np.broadcast_to(self.cast(values), (length,)))
        if self.symmetric:
            for o in self.offsets:
                if o > 0:
                    mean = (out[o] + out[-o]) / 2
                    out[o] = out[-o] = mean
        return self.template._from_band_dict(out)

    def _from_matrix(self, dx: Any) -> Any:
        if not isinstance(dx, (np.ndarray, StructuredMatrix)) and not hasattr(dx, "diagonal"):
            dx = np.asarray(dx)
        return self._finish(_band_arithmetic.gather(dx, self.offsets))

    def product(self, L: np.ndarray, R: np.ndarray) -> Any:
        return self._finish(_band_arithmetic.gather_product(L, R, self.offsets, self.n))

    def diagonals(self, bands: dict[int, Any]) -> Any:
        return self._finish(bands)

    def constant(self, value: Any) -> Any:
        return self._finish(dict.fromkeys(self.offsets, value))

    def _from_fields(self, fields: dict[str, Any]) -> Any:
        bands: dict[int, Any] = {}
        for name, offset in self.template._offsets.items():
            value = unthunk(fields.get(name))
            if value is None or isinstance(value, AbstractZero):
                continue
            value = np.asarray(value)
            if self.symmetric and offset != 0:
                # a stored array that fills two diagonals: its derivative is the sum of theirs
                bands[offset] = bands[-offset] = value / 2
            else:
                bands[offset] = value
        return self._finish(bands)


class TridiagonalFactorization:
    """LU factorization with partial pivoting of a tridiagonal matrix (LAPACK ``?gttrf``/``?gttrs``).

    ``solve(b, trans)`` solves ``op(A) x = b`` in ``O(n)`` per column for ``trans`` in
    ``"N"``, ``"T"``, ``"C"``; ``det()`` and ``slogdet()`` read the factors.
    """

    __slots__ = ("factors", "gttrs", "n", "small", "swaps")

    def __init__(self, dl: np.ndarray, d: np.ndarray, du: np.ndarray) -> None:
        dtype = inexact(np.result_type(dl, d, du))
        if dtype == np.float16:
            dtype = np.dtype(np.float32)
        dl, d, du = (a.astype(dtype) for a in (dl, d, du))
        gttrf, self.gttrs = get_lapack_funcs(("gttrf", "gttrs"), (dl, d, du))
        self.n = len(d)
        self.factors: Any = None
        self.small: Any = None
        self.swaps = 0
        if self.n < 3:
            # SciPy's ?gttrf wrapper rejects n < 3 (its du2 has n - 2 entries): use a dense LU
            dense = _band_arithmetic.to_dense({-1: dl, 0: d, 1: du}, self.n, dtype)
            self.small = (dense, LUFactorization(dense) if self.n else None)
            return
        dl_f, d_f, du_f, du2, ipiv, info = gttrf(dl, d, du)
        if info > 0:
            raise np.linalg.LinAlgError("Singular matrix")
        self.factors = (dl_f, d_f, du_f, du2, ipiv)
        self.swaps = int(np.count_nonzero(ipiv != np.arange(1, self.n + 1)))

    def solve(self, b: np.ndarray, trans: str = "N") -> np.ndarray:
        if self.small is not None:
            lu = self.small[1]
            return np.array(b, copy=True) if lu is None else lu.solve(b, trans)
        x, _ = self.gttrs(*self.factors, b, trans=trans)
        return x

    def det(self) -> Any:
        if self.small is not None:
            return np.linalg.det(self.small[0])
        u = self.factors[1]
        sign = -1 if self.swaps % 2 else 1
        return u.dtype.type(sign * np.prod(u))

    def slogdet(self) -> Any:
        if self.small is not None:
            return np.linalg.slogdet(self.small[0])
        u = self.factors[1]
        magnitude = np.abs(u)
        sign = np.prod(u / magnitude) if u.dtype.kind == "c" else np.prod(np.sign(u))
        if self.swaps % 2:
            sign = -sign
        return SlogdetResult(u.dtype.type(sign), magnitude.dtype.type(np.sum(np.log(magnitude))))


class SingularFactorization:
    """Stands for the factorization of a singular matrix: its determinant is 0 (``slogdet``: 0, ``-inf``)."""

    __slots__ = ("dtype",)

    def __init__(self, dtype: np.dtype) -> None:
        self.dtype = inexact(dtype)

    def det(self) -> Any:
        return self.dtype.type(0)

    def slogdet(self) -> Any:
        return SlogdetResult(self.dtype.type(0), np.abs(np.zeros((), self.dtype)).dtype.type(-np.inf))


class TridiagonalMatrix(BandedMatrix):
    """Base of ``Tridiagonal`` and ``SymTridiagonal``: solves and determinants by ``?gttrf``."""

    __slots__ = ()

    def _bands(self) -> dict[int, np.ndarray]:
        raise NotImplementedError

    def _factorize(self) -> TridiagonalFactorization:
        bands = self._bands()
        return TridiagonalFactorization(bands[-1], bands[0], bands[1])

    def _factorize_any(self) -> TridiagonalFactorization | SingularFactorization:
        """The factorization, or a stand-in for a singular matrix (whose determinant is 0)."""
        try:
            return self._factorize()
        except np.linalg.LinAlgError:
            return SingularFactorization(self.dtype)

    def _det(self) -> Any:
        return self._factorize_any().det()

    def _slogdet(self) -> Any:
        return self._factorize_any().slogdet()

    def _dense_inverse(self) -> np.ndarray:
        return self._factorize().solve(np.eye(self.n, dtype=inexact(self.dtype)))

    def _inverse_adjoint_in(self, project: Any) -> Any:
        return project(self._dense_inverse().conj().T)

    def _adjugate_adjoint_in(self, project: Any) -> Any:
        factorization = self._factorize()
        inverse = factorization.solve(np.eye(self.n, dtype=inexact(self.dtype)))
        return project(np.conj(factorization.det()) * inverse.conj().T)


class BidiagonalSolver:
    """Solves with a bidiagonal matrix by ``scipy.linalg.solve_banded`` (``O(n)``, no factorization needed)."""

    __slots__ = ("dv", "ev", "lower")

    def __init__(self, dv: np.ndarray, ev: np.ndarray, lower: bool) -> None:
        self.dv, self.ev, self.lower = dv, ev, lower

    def solve(self, b: np.ndarray, trans: str = "N") -> np.ndarray:
        dv, ev, lower = self.dv, self.ev, self.lower
        if trans != "N":
            lower = not lower
            if trans == "C":
                dv, ev = np.conj(dv), np.conj(ev)
        n = len(dv)
        ab = np.zeros((2, n), dtype=np.result_type(dv, ev))
        if lower:
            ab[0] = dv
            ab[1, :-1] = ev
            return scipy.linalg.solve_banded((1, 0), ab, b, check_finite=False)
        ab[0, 1:] = ev
        ab[1] = dv
        return scipy.linalg.solve_banded((0, 1), ab, b, check_finite=False)
