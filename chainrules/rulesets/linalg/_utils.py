"""Helpers shared by the linear-algebra rules (private).

Conventions of the ``linalg`` rules, implemented once:

* **stacks**: a matrix argument may carry leading batch axes, ``(..., m, n)``; :func:`mH`
  and :func:`mT` transpose the last two axes (``mH`` conjugates complex values only);
* **tangents in**: pullbacks read their output cotangents with the core's
  :func:`~chainrules_core.read_cotangent` / :func:`~chainrules_core.read_cotangents` (one
  policy for the whole library) and project their inputs' cotangents with
  :func:`~chainrules_core.cotangent_projector`; frules read their input tangents with
  :func:`tangent_value` (``None`` for a zero) and, for a tuple argument (``lu_solve``'s
  ``(lu, piv)``), :func:`tangent_parts`;
* **factorizations reused**: :class:`LU` keeps the pivoted LU factorizations of a stack of
  square matrices (LAPACK ``?getrf``) for the solves, inverses and determinants of the
  pullbacks;
* **one triangle read**: SciPy functions that take ``lower=`` (``assume_a='sym'/'her'/'pos'``,
  ``cho_factor``, ``pinvh``...) read one triangle of their argument and treat the matrix as
  symmetric or Hermitian. :func:`from_triangle` builds that matrix and
  :func:`triangle_cotangent` is its adjoint: the cotangent of the full matrix folded onto
  the triangle that was read;
* **NumPy's dtypes**: :func:`linalg_dtype` is the precision ``numpy.linalg`` computes in
  (integers as float64, float32 as float32); unsupported dtypes give ``None`` and the rule
  calls the NumPy function so that NumPy raises its own error.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from scipy.linalg import lapack

from chainrules_core import (
    AbstractZero,
    NoTangent,
    NotImplementedTangent,
    Tangent,
    backing,
    read_cotangent,
    read_cotangents,
    unthunk,
)

NO = NoTangent()


# ---- transposes and symmetric parts ------------------------------------------------------------------
def conj(x: Any) -> Any:
    """``np.conj(x)`` for complex values, ``x`` itself (no copy) otherwise.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.linalg._utils import conj
    >>> a = np.ones(2)
    >>> conj(a) is a, conj(np.array([2j]))
    (True, array([0.-2.j]))
    """
    return np.conj(x) if np.iscomplexobj(x) else x


def mT(x: np.ndarray) -> np.ndarray:  # noqa: N802  (NumPy's name: ndarray.mT)
    """The transpose of each matrix of a stack (a view).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.linalg._utils import mT
    >>> mT(np.zeros((4, 2, 3))).shape
    (4, 3, 2)
    """
    return np.swapaxes(x, -1, -2)


def mH(x: np.ndarray) -> np.ndarray:  # noqa: N802  (the Array API's mT, conjugated)
    """The conjugate transpose of each matrix of a stack (a view for real ``x``).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.linalg._utils import mH
    >>> mH(np.array([[1, 2j], [3, 4]]))
    array([[1.-0.j, 3.-0.j],
           [0.-2.j, 4.-0.j]])
    """
    return conj(np.swapaxes(x, -1, -2))


def hermitian_part(x: np.ndarray) -> np.ndarray:
    """``(x + x^H) / 2`` for each matrix of a stack.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.linalg._utils import hermitian_part
    >>> hermitian_part(np.array([[1.0, 2.0], [0.0, 1.0]]))
    array([[1., 1.],
           [1., 1.]])
    """
    return (x + mH(x)) / 2


def from_triangle(a: np.ndarray, lower: bool, hermitian: bool) -> np.ndarray:
    """The symmetric (or Hermitian) matrices whose lower (or upper) triangle is that of ``a``.

    For ``hermitian=True`` the diagonal is real (LAPACK's Hermitian routines read its real
    part only).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.linalg._utils import from_triangle
    >>> from_triangle(np.array([[1.0, 2.0], [3.0, 4.0]]), lower=True, hermitian=False)
    array([[1., 3.],
           [3., 4.]])
    """
    part = np.tril(a, -1) if lower else np.triu(a, 1)
    other = mH(part) if hermitian else mT(part)
    diagonal = np.diagonal(a, axis1=-2, axis2=-1)
    if hermitian:
        diagonal = diagonal.real
    out = part + other
    idx = np.arange(a.shape[-1])
    out[..., idx, idx] = diagonal
    return out


def triangle_cotangent(g: np.ndarray, lower: bool, hermitian: bool) -> np.ndarray:
    """The adjoint of :func:`from_triangle`: fold a cotangent ``g`` of the full matrix onto the triangle read.

    Entry ``(i, j)`` of the triangle stands for both ``(i, j)`` and ``(j, i)`` of the
    matrix, so it collects ``g[i, j] + g[j, i]`` (conjugated for Hermitian matrices); the
    diagonal keeps ``g[i, i]`` (its real part for Hermitian matrices); the other triangle
    gets zero.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.linalg._utils import triangle_cotangent
    >>> triangle_cotangent(np.array([[1.0, 2.0], [3.0, 4.0]]), lower=False, hermitian=False)
    array([[1., 5.],
           [0., 4.]])
    """
    part, other = (np.tril(g, -1), np.triu(g, 1)) if lower else (np.triu(g, 1), np.tril(g, -1))
    out = part + (mH(other) if hermitian else mT(other))
    idx = np.arange(g.shape[-1])
    diagonal = np.diagonal(g, axis1=-2, axis2=-1)
    out[..., idx, idx] = diagonal.real if hermitian else diagonal
    return out


_ASSUMED = {None: "general", "general": "general", "gen": "general", "banded": "general",
            "sym": "symmetric", "symmetric": "symmetric", "her": "hermitian", "hermitian": "hermitian",
            "pos": "hermitian", "positive definite": "hermitian", "diagonal": "diagonal",
            "tridiagonal": "tridiagonal", "upper triangular": "upper", "lower triangular": "lower"}


def assumed_structure(assume_a: str | None) -> str:
    """What SciPy's ``assume_a=`` makes a solver read of its matrix (``KeyError`` for unknown values).

    ``general`` (every entry: also ``None``, whose structure detection is an optimization
    only, and ``'banded'``, whose band is detected from the matrix), ``symmetric`` or
    ``hermitian`` (one triangle, chosen by ``lower``; ``'pos'`` is Hermitian), ``upper``,
    ``lower``, ``diagonal``, ``tridiagonal``.

    Examples
    --------
    >>> from chainrules.rulesets.linalg._utils import assumed_structure
    >>> assumed_structure("pos"), assumed_structure(None)
    ('hermitian', 'general')
    """
    return _ASSUMED[assume_a]


def structured_matrix(a: np.ndarray, structure: str, lower: bool) -> np.ndarray:
    """The matrix a solver with this :func:`assumed_structure` works with (linear in ``a``).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.linalg._utils import structured_matrix
    >>> structured_matrix(np.arange(9.0).reshape(3, 3), "tridiagonal", False)
    array([[0., 1., 0.],
           [3., 4., 5.],
           [0., 7., 8.]])
    """
    if structure in ("symmetric", "hermitian"):
        return from_triangle(a, lower, structure == "hermitian")
    return _structure_mask(a, structure)


def structure_cotangent(g: np.ndarray, structure: str, lower: bool) -> np.ndarray:
    """The adjoint of :func:`structured_matrix`: the cotangent of ``a`` from that of the structured matrix.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.linalg._utils import structure_cotangent
    >>> structure_cotangent(np.ones((2, 2)), "symmetric", lower=True)
    array([[1., 0.],
           [2., 1.]])
    """
    if structure in ("symmetric", "hermitian"):
        return triangle_cotangent(g, lower, structure == "hermitian")
    return _structure_mask(g, structure)


def _structure_mask(a: np.ndarray, structure: str) -> np.ndarray:
    """The entries of ``a`` a general, triangular, diagonal or tridiagonal solver reads (zeros elsewhere)."""
    if structure == "upper":
        return np.triu(a)
    if structure == "lower":
        return np.tril(a)
    if structure == "diagonal":
        return np.triu(np.tril(a))
    if structure == "tridiagonal":
        return np.triu(np.tril(a, 1), -1)
    return a


# ---- reading tangents ------------------------------------------------------------------------------------
def cotangent_parts(dy: Any, outputs: Sequence[Any], f: Any) -> list[Any]:
    """The output cotangent of a tuple-valued output, one entry per output, read by the core's
    :func:`~chainrules_core.read_cotangents` (its policy and its errors, which name ``f``).

    ``None`` stands for a zero part (also for every part of a zero cotangent), and a
    ``NotImplementedTangent`` for the whole output is repeated in every place, so that the
    pullback can unpack the list and pass it on (:func:`not_implemented_in`). ``outputs`` is
    the primal output itself: a namedtuple's fields then read a ``Tangent`` with named fields.

    An output that is itself a tuple (``scipy.linalg.qr(mode='raw')``'s ``(qr, tau)``,
    ``matrix_balance(separate=True)``'s ``(scale, perm)``) gets a list of its own parts, read
    the same way: ``read_cotangents`` reads one level, so the top level is split here (a
    ``Tangent`` of a tuple, or a tuple or list) and every leaf is read by
    :func:`~chainrules_core.read_cotangent`.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import Tangent, ZeroTangent
    >>> from chainrules.rulesets.linalg._utils import cotangent_parts
    >>> y = np.linalg.eigh(np.eye(2))
    >>> cotangent_parts(Tangent(type(y), eigenvalues=np.ones(2)), y, np.linalg.eigh)
    [array([1., 1.]), None]
    >>> cotangent_parts(ZeroTangent(), y, np.linalg.eigh)
    [None, None]
    >>> cotangent_parts((np.ones(2), (ZeroTangent(), 2.0)), (np.zeros(2), (np.zeros(2), 1.0)), "f")
    [array([1., 1.]), [None, 2.0]]
    >>> cotangent_parts((np.ones(2), ZeroTangent()), (np.zeros(2), (np.zeros(2), 1.0)), "f")
    [array([1., 1.]), None]
    """
    nested = [k for k, y in enumerate(outputs) if _is_plain_sequence(y)]
    if not nested:
        parts = read_cotangents(dy, outputs, f)
    else:
        dy = unthunk(dy)
        top = backing(dy) if isinstance(dy, Tangent) and not isinstance(backing(dy), dict) else dy
        if not (type(top) in (tuple, list) and len(top) == len(outputs)):
            parts = read_cotangents(dy, outputs, f)  # zeros pass; anything else gets the core's error
        else:
            parts = [_nested_part(cotangent_parts(part, y, f)) if k in nested else
                     read_cotangent(part, y, f, f"cotangent of output {k}")
                     for k, (part, y) in enumerate(zip(top, outputs))]
            parts = [None if isinstance(p, AbstractZero) else p for p in parts]
    if isinstance(parts, AbstractZero):
        return [None] * len(outputs)
    if isinstance(parts, NotImplementedTangent):
        return [parts] * len(outputs)
    return list(parts)


def _is_plain_sequence(y: Any) -> bool:
    return type(y) in (tuple, list)


def _nested_part(parts: list[Any]) -> Any:
    """The parts of a tuple-valued output: ``None`` if all are zeros, the ``NotImplementedTangent`` if one is."""
    if all(p is None for p in parts):
        return None
    missing = not_implemented_in(*parts)
    return parts if missing is None else missing


def tangent_parts(dx: Any, names: Sequence[str], where: str) -> list[Any]:
    """The parts of an frule's tangent of a tuple argument (``lu_solve``'s ``(lu, piv)``), ``None`` for each zero.

    ``dx`` may be a ``Tangent`` (of a tuple, list or namedtuple), a tuple or a list with one
    entry per name, or a zero (every part is then ``None``); each part is unthunked.
    ``where`` names the rule and the argument in error messages. (Output cotangents are
    read with :func:`chainrules_core.read_cotangents`.)

    Examples
    --------
    >>> from chainrules import Tangent, ZeroTangent
    >>> from chainrules.rulesets.linalg._utils import tangent_parts
    >>> tangent_parts(Tangent(tuple, 1.0, ZeroTangent()), ["lu", "piv"], "lu_solve frule: tangent of lu_and_piv")
    [1.0, None]
    """
    dx = unthunk(dx)
    if isinstance(dx, AbstractZero):
        return [None] * len(names)
    stored = backing(dx) if isinstance(dx, Tangent) else dx
    if isinstance(stored, dict):
        parts = [stored.get(name, None) for name in names]
    elif isinstance(stored, (tuple, list)):
        if len(stored) != len(names):
            raise ValueError(f"{where}: got {len(stored)} parts, expected {len(names)} ({', '.join(names)})")
        parts = list(stored)
    else:
        raise TypeError(f"{where}: expected a tuple ({', '.join(names)}) or a Tangent of one, got "
                        f"{type(dx).__name__}")
    out = []
    for part in parts:
        part = unthunk(part)
        out.append(None if part is None or isinstance(part, AbstractZero) else part)
    return out


def tangent_value(dx: Any) -> Any:
    """An frule's input tangent as an array, or ``None`` for a zero (``ZeroTangent``, ``NoTangent``).

    A not-implemented tangent is returned as it is (the frule passes it on).

    Examples
    --------
    >>> from chainrules import ZeroTangent
    >>> from chainrules.rulesets.linalg._utils import tangent_value
    >>> tangent_value(ZeroTangent()) is None, tangent_value(2.0)
    (True, array(2.))
    """
    dx = unthunk(dx)
    if isinstance(dx, AbstractZero):
        return None
    return dx if isinstance(dx, NotImplementedTangent) else np.asarray(dx)


def not_implemented_in(*tangents: Any) -> NotImplementedTangent | None:
    """The first not-implemented tangent among an frule's input tangents (the frule passes it on).

    Examples
    --------
    >>> from chainrules import ZeroTangent, not_implemented
    >>> from chainrules.rulesets.linalg._utils import not_implemented_in
    >>> not_implemented_in(ZeroTangent(), 1.0) is None
    True
    """
    for t in tangents:
        if isinstance(t, NotImplementedTangent):
            return t
    return None


def outer_columns(u: np.ndarray, v: np.ndarray, vector: bool) -> np.ndarray:
    """``u v^H`` for stacks of columns ``(..., n, k)`` (of vectors ``(..., n)`` when ``vector``).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.linalg._utils import outer_columns
    >>> outer_columns(np.array([1.0, 2.0]), np.array([1j, 1.0]), vector=True)
    array([[0.-1.j, 1.+0.j],
           [0.-2.j, 2.+0.j]])
    """
    if vector:
        return u[..., :, None] * conj(v)[..., None, :]
    return u @ mH(v)


# ---- dtypes ---------------------------------------------------------------------------------------------
_LAPACK_CHARS = {"f": np.float32, "d": np.float64, "F": np.complex64, "D": np.complex128}


def linalg_dtype(*arrays: np.ndarray) -> np.dtype | None:
    """The dtype ``numpy.linalg`` computes in for these operands, or ``None`` if it rejects them.

    Integers and booleans count as float64; float32 stays float32 unless an operand is
    float64; float16 and long doubles are rejected (NumPy raises ``TypeError``).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.linalg._utils import linalg_dtype
    >>> linalg_dtype(np.ones(2, np.float32)), linalg_dtype(np.ones(2, int), np.ones(2, np.complex64))
    (dtype('float32'), dtype('complex128'))
    """
    double, complex_ = False, False
    for a in arrays:
        kind = a.dtype.kind
        if kind in "fc":
            if a.dtype.char not in _LAPACK_CHARS:
                return None
            complex_ = complex_ or kind == "c"
            double = double or a.dtype.itemsize == (16 if kind == "c" else 8)
        elif kind in "biu":
            double = True
        else:
            return None
    if complex_:
        return np.dtype(np.complex128 if double else np.complex64)
    return np.dtype(np.float64 if double else np.float32)


_LAPACK_CACHE: dict[tuple[tuple[str, ...], str], tuple[Any, ...]] = {}


def lapack_functions(names: tuple[str, ...], dtype: np.dtype) -> tuple[Any, ...]:
    """SciPy's LAPACK wrappers ``names`` for ``dtype`` (cached: the lookup costs more than a small solve).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.linalg._utils import lapack_functions
    >>> [f.typecode for f in lapack_functions(("getrf", "getrs"), np.dtype(np.complex64))]
    ['c', 'c']
    """
    key = (names, np.dtype(dtype).char)
    funcs = _LAPACK_CACHE.get(key)
    if funcs is None:
        funcs = _LAPACK_CACHE[key] = tuple(lapack.get_lapack_funcs(names, dtype=np.dtype(dtype)))
    return funcs


def primal_error(f: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Call ``f`` on input a rule does not take, so that NumPy or SciPy raises its own error.

    Rules that compute their primal their own way (to keep a factorization) check their
    input first; for input they do not take, the library's own error is the one the user
    must see, unchanged. If ``f`` accepts the input after all, the rule answers ``None``
    (no rule applies), which this function returns.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.linalg._utils import primal_error
    >>> primal_error(np.linalg.det, np.ones((2, 3)))
    Traceback (most recent call last):
    ...
    numpy.linalg.LinAlgError: Last 2 dimensions of the array must be square
    """
    f(*args, **kwargs)
    return None


# ---- LU factorizations of a stack ------------------------------------------------------------------------
class LU:
    """Pivoted LU factorizations ``A = P L U`` of a stack of square matrices (LAPACK ``?getrf``).

    The factors are kept so that pullbacks solve with ``A``, ``A^T`` or ``A^H`` in
    ``O(n^2)`` per right-hand side, invert in ``O(n^3)`` without refactorizing (``?getri``)
    and read determinants off ``U``'s diagonal.

    Parameters
    ----------
    a : ndarray, shape (..., n, n)
        Of a LAPACK dtype (float32, float64, complex64, complex128); never modified.

    Attributes
    ----------
    lu, piv : list of ndarray
        LAPACK's packed factors and 0-based pivot indices, one per matrix of the stack.
    singular : ndarray of bool, shape (...)
        Where ``U`` has an exactly zero pivot.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.linalg._utils import LU
    >>> a = np.array([[2.0, 1.0], [1.0, 3.0]])
    >>> f = LU(a)
    >>> bool(np.allclose(a @ f.solve(np.eye(2)), np.eye(2))), f.singular
    (True, array(False))
    """

    def __init__(self, a: np.ndarray) -> None:
        self.dtype = a.dtype
        self.n = a.shape[-1]
        self.batch_shape = a.shape[:-2]
        getrf, self._getrs, self._getri, self._getri_lwork = lapack_functions(
            ("getrf", "getrs", "getri", "getri_lwork"), a.dtype)
        self.lu: list[np.ndarray]
        self.piv: list[np.ndarray]
        if a.ndim == 2 and self.n:  # one matrix (the common case): the loop below without its reshapes
            lu, piv, info = getrf(a)
            if info < 0:  # pragma: no cover  (an invalid argument: a bug, not a property of a)
                raise ValueError(f"LAPACK getrf: illegal value in argument {-info}")
            self.lu, self.piv = [lu], [piv]
            self.singular = np.array(info > 0)
            return
        self.lu = []
        self.piv = []
        singular = []
        for m in a.reshape((math.prod(self.batch_shape), self.n, self.n)):
            if self.n == 0:
                self.lu.append(m.copy())
                self.piv.append(np.zeros(0, dtype=np.int32))
                singular.append(False)
                continue
            lu, piv, info = getrf(m)
            if info < 0:  # pragma: no cover  (an invalid argument: a bug, not a property of a)
                raise ValueError(f"LAPACK getrf: illegal value in argument {-info}")
            self.lu.append(lu)
            self.piv.append(piv)
            singular.append(info > 0)
        self.singular = np.array(singular, dtype=bool).reshape(self.batch_shape)

    def diagonal(self) -> np.ndarray:
        """``U``'s diagonals, shape ``(..., n)``."""
        if len(self.lu) == 1:
            return self.lu[0].diagonal().reshape(self.batch_shape + (self.n,))
        return np.array([lu.diagonal() for lu in self.lu]).reshape(self.batch_shape + (self.n,))

    def permutation_sign(self) -> np.ndarray:
        """``det(P)`` (+1 or -1) of each factorization, shape ``(...)``."""
        return 1.0 - 2.0 * (self._swaps() % 2)

    def solve(self, b: np.ndarray, trans: int = 0) -> np.ndarray:
        """Solve ``op(A) x = b`` with ``op`` = identity, transpose (1) or conjugate transpose (2).

        ``b`` has shape ``(..., n, k)``; its batch axes broadcast against the stack's. A
        complex ``b`` with real factors is solved as its real and imaginary parts.
        """
        if np.iscomplexobj(b) and self.dtype.kind == "f":
            return self.solve(np.ascontiguousarray(b.real), trans) + 1j * self.solve(
                np.ascontiguousarray(b.imag), trans)
        if self.dtype.kind == "f":
            trans = min(trans, 1)
        b = b.astype(self.dtype, copy=False)
        n, k = self.n, b.shape[-1]
        if n == 0 or b.size == 0:
            return np.zeros(np.broadcast_shapes(self.batch_shape, b.shape[:-2]) + (n, k), dtype=self.dtype)
        if not self.batch_shape:  # one matrix: every right-hand side of the stack in one call
            if b.ndim == 2:  # (n, k): LAPACK's layout already
                return self._getrs(self.lu[0], self.piv[0], b, trans=trans)[0]
            cols = np.moveaxis(b, -2, 0).reshape(n, -1)
            x = self._getrs(self.lu[0], self.piv[0], cols, trans=trans)[0]
            return np.moveaxis(x.reshape((n,) + b.shape[:-2] + (k,)), 0, -2)
        batch = np.broadcast_shapes(self.batch_shape, b.shape[:-2])
        which = np.broadcast_to(np.arange(len(self.lu)).reshape(self.batch_shape), batch).ravel()
        rhs = np.broadcast_to(b, batch + (n, k)).reshape((-1, n, k))
        out = np.empty((len(which), n, k), dtype=self.dtype)
        for j, i in enumerate(which):
            out[j] = self._getrs(self.lu[i], self.piv[i], rhs[j], trans=trans)[0]
        return out.reshape(batch + (n, k))

    def slogdet(self) -> tuple[np.ndarray, np.ndarray]:
        """``(sign, logabsdet)`` as NumPy computes them from the same factors (``(0, -inf)`` where singular)."""
        d = self.diagonal()
        magnitude = np.abs(d)
        if self.singular.any():
            with np.errstate(divide="ignore", invalid="ignore"):
                return self._slogdet(d, magnitude)
        return self._slogdet(d, magnitude)

    def _slogdet(self, d: np.ndarray, magnitude: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        logabsdet = np.log(magnitude).sum(axis=-1)
        if d.dtype.kind == "c":
            sign = np.asarray(self.permutation_sign() * np.prod(d / magnitude, axis=-1), dtype=d.dtype)
        else:  # the parity of the row swaps and of the negative pivots
            odd = (np.count_nonzero(d < 0, axis=-1) + self._swaps()) % 2
            sign = np.asarray(1 - 2 * odd, dtype=d.dtype)
        if self.singular.any():
            singular = self.singular | (logabsdet == -np.inf)
            sign = np.where(singular, 0, sign).astype(d.dtype)
            logabsdet = np.where(singular, -np.inf, logabsdet)
        return sign, np.asarray(logabsdet, dtype=magnitude.dtype)

    def _swaps(self) -> np.ndarray:
        """The number of row swaps of each factorization."""
        steps = _steps(self.n)
        if len(self.piv) == 1:
            return np.asarray(np.count_nonzero(self.piv[0] != steps)).reshape(self.batch_shape)
        return np.array([np.count_nonzero(piv != steps) for piv in self.piv]).reshape(self.batch_shape)

    def inverse(self) -> np.ndarray:
        """``inv(A)`` of each (nonsingular) matrix from its factors (LAPACK ``?getri``), shape ``(..., n, n)``."""
        if self.n == 0:
            return np.empty(self.batch_shape + (0, 0), dtype=self.dtype)
        lwork = _getri_lwork(self._getri_lwork, self.n)
        if len(self.lu) == 1:  # one matrix: LAPACK's (Fortran-ordered) result as it is
            return self._getri(self.lu[0], self.piv[0], lwork=lwork)[0].reshape(self.batch_shape + (self.n, self.n))
        out = np.empty((len(self.lu), self.n, self.n), dtype=self.dtype)
        for j, (lu, piv) in enumerate(zip(self.lu, self.piv)):
            out[j] = self._getri(lu, piv, lwork=lwork)[0]
        return out.reshape(self.batch_shape + (self.n, self.n))


@functools.lru_cache(maxsize=64)
def _steps(n: int) -> np.ndarray:
    """``arange(n)`` as LAPACK's pivot dtype (a pivot equal to its step is no swap)."""
    return np.arange(n, dtype=np.int32)


_LWORK: dict[tuple[Any, int], int] = {}


def _getri_lwork(query: Any, n: int) -> int:
    """LAPACK's optimal workspace for ``?getri`` of order ``n`` (cached)."""
    key = (query, n)
    lwork = _LWORK.get(key)
    if lwork is None:
        lwork = _LWORK[key] = max(1, int(np.real(query(n)[0])))
    return lwork


class SmallStack:
    """Many small square matrices, for NumPy's batched routines: the interface of :class:`LU` without factors.

    For a stack of small matrices a Python loop over LAPACK calls costs far more than the
    arithmetic, and refactorizing inside NumPy's batched (gufunc) ``solve``, ``inv`` and
    ``slogdet`` is faster than keeping factors: ``solve`` and ``inverse`` factorize again, in C.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.linalg._utils import SmallStack
    >>> f = SmallStack(np.stack([2 * np.eye(2), 4 * np.eye(2)]))
    >>> f.slogdet()[1], f.solve(np.ones((2, 1)))[:, 0, 0]
    (array([1.38629436, 2.77258872]), array([0.5 , 0.25]))
    """

    def __init__(self, a: np.ndarray) -> None:
        self.a = a
        self.dtype = a.dtype
        self.n = a.shape[-1]
        self.batch_shape = a.shape[:-2]
        self._slogdet: tuple[np.ndarray, np.ndarray] | None = None

    def slogdet(self) -> tuple[np.ndarray, np.ndarray]:
        """NumPy's ``slogdet``."""
        if self._slogdet is None:
            sign, logabsdet = np.linalg.slogdet(self.a)
            self._slogdet = (np.asarray(sign), np.asarray(logabsdet))
        return self._slogdet

    @property
    def singular(self) -> np.ndarray:
        """Where a matrix has an exactly zero pivot (its ``slogdet`` sign is 0)."""
        return self.slogdet()[0] == 0

    def solve(self, b: np.ndarray, trans: int = 0) -> np.ndarray:
        """``op(A)^{-1} b`` for right-hand sides ``(..., n, k)`` (NumPy's error for a singular matrix)."""
        op = self.a if trans == 0 else (mT(self.a) if trans == 1 else mH(self.a))
        return np.linalg.solve(op, b)

    def inverse(self) -> np.ndarray:
        """``inv(A)``, zeros for the singular matrices (whose cotangents need another formula)."""
        singular = self.singular
        if not singular.any():
            return np.linalg.inv(self.a)
        out = np.zeros(self.a.shape, dtype=self.dtype)
        out[~singular] = np.linalg.inv(self.a[~singular])
        return out


SMALL = 16
"""Stacks of matrices of order at most ``SMALL`` use :class:`SmallStack` (see :func:`factorize`)."""


def factorize(a: np.ndarray) -> LU | SmallStack:
    """:class:`LU` of ``a``, or a :class:`SmallStack` for a stack of several matrices of order ``<= SMALL``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.linalg._utils import factorize
    >>> type(factorize(np.eye(3))).__name__, type(factorize(np.ones((100, 3, 3)))).__name__
    ('LU', 'SmallStack')
    """
    if a.ndim > 2 and a.shape[-1] <= SMALL and math.prod(a.shape[:-2]) > 1:
        return SmallStack(a)
    return LU(a)


def solve_columns(solve: Callable[[np.ndarray], np.ndarray], b: np.ndarray, vector: bool) -> np.ndarray:
    """Apply a solve taking ``(..., n, k)`` right-hand sides to ``b``, a vector ``(n,)`` when ``vector``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.linalg._utils import solve_columns
    >>> solve_columns(lambda c: 2 * c, np.ones(3), vector=True)
    array([2., 2., 2.])
    """
    return solve(b[..., None])[..., 0] if vector else solve(b)
