"""Linear solves: ``np.linalg.solve``, ``np.linalg.tensorsolve``, ``scipy.linalg.solve`` (every
``assume_a``), ``solve_banded``, ``solveh_banded``, ``solve_toeplitz``, ``solve_circulant``,
``lu_factor``/``lu_solve`` and ``cho_factor``/``cho_solve``. (Least squares, ``lstsq``, is
in :mod:`~chainrules.rulesets.linalg.least_squares`.)

Every solve ``x = A^{-1} b`` has the same adjoint (Giles 2008, "An extended collection of
matrix derivative results for forward and reverse mode algorithmic differentiation",
section 2.3.1): ``db = A^{-H} dx`` (one solve with the adjoint matrix) and
``dA = -db x^H``, then projected onto what the function reads of ``A``; the pushforward is
``dx = A^{-1} (db - dA x)``. What differs is the solve and the projection:

* ``np.linalg.solve``, ``tensorsolve``: the primal is computed from the LU factorization
  (LAPACK ``?getrf``/``?getrs``, what NumPy's ``?gesv`` does) and the pullback reuses it
  (``?getrs`` with ``trans='C'``): ``O(n^2)`` per right-hand side, no second factorization.
  A singular ``A`` raises NumPy's own ``LinAlgError`` in the primal. (Stacks of many small
  matrices, order ``<= 16``, use NumPy's batched ``solve`` both ways: cheaper than a Python
  loop over LAPACK calls. So does ``np.linalg.solve`` of one float64 matrix of order
  ``<= 16``: at that size a second factorization in C costs less than keeping one from Python.)
* ``scipy.linalg.solve``: the primal is SciPy's own call (its structure detection, its
  ill-conditioning warnings and errors are kept); SciPy does not return its factorization,
  so the adjoint solve is one more SciPy solve with the adjoint matrix and the same
  ``assume_a`` (conjugate-transposed triangle for ``'sym'``/``'her'``/``'pos'``, the other
  triangle for triangular ones). ``dA`` is folded onto the entries ``assume_a`` reads: one
  triangle for ``'sym'``/``'her'``/``'pos'`` (both mirror images summed, Hermitian
  diagonals real), one triangle, the diagonal or three diagonals for the triangular,
  ``'diagonal'`` and ``'tridiagonal'`` solvers; every entry for ``None``, ``'general'`` and
  ``'banded'`` (whose structure is detected from the matrix itself). Use ``lu_factor``/
  ``lu_solve`` or ``cho_factor``/``cho_solve`` to keep a factorization yourself.
* ``solve_banded``, ``solveh_banded``, ``solve_toeplitz``: the adjoint solve uses the same
  solver on the adjoint band, Hermitian band or Toeplitz matrix (first column ``conj(r)``,
  first row ``conj(c)``), ``O(n k^2)`` or ``O(n^2)`` like the primal, and ``dA`` is
  gathered onto the band (a band-storage cotangent) or summed along the diagonals (the
  Toeplitz cotangent of ``c`` and ``r``; ``r = conj(c)`` when only ``c`` is given).
* ``solve_circulant``: everything is diagonal in the Fourier basis, ``x = ifft(fft(b) /
  fft(c))``; the cotangents are FFTs. With ``singular='lstsq'`` the discarded eigenvalues
  (``|fft(c)| <= tol``) stay discarded under small perturbations, so their derivative is zero.
* ``lu_factor``: the packed output ``lu`` (``L`` below the diagonal, ``U`` on and above it)
  is differentiated as a structured output (de Hoog, Anderssen & Lukas 2011, "Differentiation
  of matrix functionals using triangular factorization", Math. Comp. 80): with ``P^T A = L U``
  and ``F = L^{-1} P^T dA U^{-1}``, ``dL = L tril(F, -1)`` and ``dU = triu(F) U``; the pullback
  is ``dA = P L^{-H} (tril(L^H dL, -1) + triu(dU U^H)) U^{-H}``, with triangular solves.
  Tall and wide matrices add ``dL2 = (dB2 - L2 dU) U^{-1}`` or ``dU2 = L^{-1} (dB2 - dL U2)``
  for the rows or columns beyond the square block. The pivots are locally constant
  (``NoTangent()``). A zero pivot makes the pullback's triangular solve raise
  ``LinAlgError``: the derivative does not exist there.
* ``lu_solve``: ``x = op(A)^{-1} b`` with ``A = P L U`` rebuilt from the packed factors; the
  adjoint solve reuses them, and ``dA = -db x^H`` is pulled back through ``A = P L U``:
  ``dL = tril(P^T dA U^H, -1)``, ``dU = triu(L^H P^T dA)``, in ``O(n^2 k)`` (``dA`` is never formed).
* ``cho_factor``: its output ``c`` holds the Cholesky factor in one triangle and ``a``'s
  other triangle unchanged (LAPACK ``?potrf`` does not touch it), so ``c`` is the Cholesky
  factor of the Hermitian matrix read from one triangle plus the identity on the other.
  Cholesky's pullback (Murray 2016, "Differentiation of the Cholesky decomposition", with
  complex numbers): for ``A = L L^H`` and ``Y = L^H dL``,
  ``dA = L^{-H} Z L^{-1}`` with ``Z = (tril(Y, -1) + tril(Y, -1)^H + Re(diag(Y))) / 2``
  (Hermitian), folded onto the triangle read. SciPy's default is the upper factor
  (``lower=False``, ``A = U^H U``), NumPy's ``cholesky`` the lower one.
* ``cho_solve``: ``A = L L^H`` from the factor triangle (the other one is not read);
  ``db = A^{-1} dx`` reuses the factor and ``dL = tril((dA + dA^H) L)`` for
  ``dA = -db x^H`` (``dU = triu(U (dA + dA^H))`` for the upper factor), in ``O(n^2 k)``.

Stacked inputs follow each function's own rules (NumPy's: ``b`` is a vector only when it
is 1-d). float32 stays float32 where the function computes in float32; cotangents have
their input's dtype.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Any

import numpy as np
import scipy.linalg

from chainrules.rulesets._samples import spd, well_conditioned
from chainrules.rulesets.linalg._utils import (
    LU,
    NO,
    SMALL,
    SmallStack,
    assumed_structure,
    conj,
    factorize,
    from_triangle,
    linalg_dtype,
    mH,
    mT,
    not_implemented_in,
    outer_columns,
    primal_error,
    solve_columns,
    structure_cotangent,
    structured_matrix,
    tangent_parts,
    tangent_value,
    triangle_cotangent,
)
from chainrules_core import (
    ProjectTo,
    Sample,
    Tangent,
    Thunk,
    ZeroTangent,
    cotangent_projector,
    frule,
    passes_through,
    read_cotangent,
    read_cotangents,
    rrule,
    sample_inputs,
    unbroadcast,
)


def _matvec(m: np.ndarray, x: np.ndarray, vector: bool) -> np.ndarray:
    """``m @ x`` for a stack of columns, or of vectors when ``vector``."""
    return (m @ x[..., None])[..., 0] if vector else m @ x


def _sum_tangents(*terms: Any) -> Any:
    """The sum of the terms that are not ``None`` (``None`` if all are)."""
    present = [t for t in terms if t is not None]
    if not present:
        return None
    total = present[0]
    for t in present[1:]:
        total = total + t
    return total


# ---- np.linalg.solve -------------------------------------------------------------------------------------------
def _numpy_solve_layout(a: np.ndarray, b: np.ndarray) -> bool | None:
    """Whether ``b`` is a vector (``b.ndim == 1``) for NumPy's ``solve``; ``None`` if NumPy rejects the shapes."""
    if a.ndim < 2 or a.shape[-1] != a.shape[-2] or b.ndim < 1:
        return None
    n = a.shape[-1]
    if b.ndim == 1:
        return True if b.shape[0] == n else None
    if b.shape[-2] != n:
        return None
    try:
        np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    except ValueError:
        return None
    return False


def _factorized_solve(f: Any, a: np.ndarray, b: np.ndarray) -> tuple[LU | SmallStack, bool, np.ndarray] | None:
    """``(LU of a, vector, x)`` for ``np.linalg.solve(a, b)``; NumPy's own error for input it rejects.

    A :class:`SmallStack` solves with NumPy's ``solve``, which raises for a singular matrix itself.
    """
    vector = _numpy_solve_layout(a, b)
    dtype = linalg_dtype(a, b)
    if vector is None or dtype is None:
        return primal_error(f, a, b)
    lu = factorize(a.astype(dtype, copy=False))
    if isinstance(lu, LU) and lu.singular.any():
        return primal_error(f, a, b)
    return lu, vector, solve_columns(lu.solve, b, vector)


def _lu_solve_cotangents(lu: LU | SmallStack, a: np.ndarray, b: np.ndarray, x: np.ndarray, dx: np.ndarray, vector: bool,
                         project_a: Callable[[Any], Any], project_b: Callable[[Any], Any]) -> tuple[Any, Any]:
    """Thunked ``(da, db)`` of ``x = solve(A, b)``: one adjoint solve with the kept factors, shared by both."""

    @functools.cache
    def adjoint() -> np.ndarray:
        return solve_columns(lambda c: lu.solve(c, trans=2), dx, vector)

    da = Thunk(lambda: project_a(unbroadcast(-outer_columns(adjoint(), x, vector), a.shape)))
    db = Thunk(lambda: project_b(unbroadcast(adjoint(), b.shape)))
    return da, db


def _lu_solve_tangent(lu: LU | SmallStack, x: np.ndarray, da: Any, db: Any, vector: bool) -> Any:
    """``solve(A, db - dA x)`` with the kept factors (``None`` for zero tangents)."""
    rhs = _sum_tangents(db, None if da is None else -_matvec(da, x, vector))
    if rhs is None:
        return None
    rhs = np.broadcast_to(rhs, np.broadcast_shapes(np.shape(rhs), x.shape))
    return solve_columns(lu.solve, rhs, vector)


_F64 = np.dtype(np.float64)


def _small_solve_rrule(a: np.ndarray, b: np.ndarray) -> Any:
    """The rrule of ``np.linalg.solve`` for one small float64 matrix (order ``<= SMALL``) and a float64
    right-hand side ``(n,)`` or ``(n, k)``, or ``None``.

    At that size refactorizing costs less than keeping factors from Python: the output is
    NumPy's own ``solve(A, b)``, and the pullback of a float64 cotangent ``dx`` of the
    output's shape solves ``A^T db = dx`` with NumPy's ``solve`` (once, when the first of its
    two thunks is read) and returns ``dA = -db x^T`` and ``db`` as the general rule does.
    ``None`` (the general rule, which raises NumPy's error) for a matrix NumPy finds
    singular; every other cotangent goes to the general rule's pullback. Tested against the
    general rule (``tests/chainrules/rulesets/linalg/test_fast_paths.py``).
    """
    try:
        x = np.linalg.solve(a, b)
    except np.linalg.LinAlgError:
        return None
    vector = b.ndim == 1

    def solve_pullback(dy: Any) -> tuple[Any, Any, Any]:
        if type(dy) is not np.ndarray or dy.dtype is not _F64 or dy.shape != x.shape:
            return _general_solve_rrule(a, b)[1](dy)
        solved: list[np.ndarray] = []

        def adjoint() -> np.ndarray:
            if not solved:
                solved.append(np.linalg.solve(a.T, dy))
            return solved[0]

        da = Thunk(lambda: -(adjoint()[:, None] * x) if vector else -(adjoint() @ x.T))
        return NO, da, Thunk(adjoint)

    return x, solve_pullback


@rrule.register(np.linalg.solve, np.ndarray, np.ndarray)
def solve_rrule(a: np.ndarray, b: np.ndarray) -> Any:
    """Reverse rule of ``np.linalg.solve(A, b)``: ``db = A^{-H} dx`` with the primal's LU factors, ``dA = -db x^H``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule, unthunk
    >>> x, pullback = rrule(np.linalg.solve, np.array([[2.0, 0.0], [0.0, 4.0]]), np.array([2.0, 4.0]))
    >>> _, da, db = pullback(np.array([1.0, 1.0]))
    >>> x, unthunk(da), unthunk(db)
    (array([1., 1.]), array([[-0.5 , -0.5 ],
           [-0.25, -0.25]]), array([0.5 , 0.25]))
    """
    if (a.dtype is _F64 and b.dtype is _F64 and a.ndim == 2 and 0 < a.shape[0] == a.shape[1] <= SMALL
            and 0 < b.ndim <= 2 and b.shape[0] == a.shape[0] and type(a) is np.ndarray and type(b) is np.ndarray):
        fast = _small_solve_rrule(a, b)
        if fast is not None:
            return fast
    return _general_solve_rrule(a, b)


def _general_solve_rrule(a: np.ndarray, b: np.ndarray) -> Any:
    """:func:`solve_rrule` without its small-matrix fast path: the specification the fast path is tested against."""
    solved = _factorized_solve(np.linalg.solve, a, b)
    if solved is None:
        return None
    lu, vector, x = solved
    project_a, project_b = cotangent_projector(a), cotangent_projector(b)

    def solve_pullback(dy: Any) -> tuple[Any, Any, Any]:
        dx = read_cotangent(dy, x, "numpy.linalg.solve")
        if passes_through(dx):
            return NO, project_a(dx), project_b(dx)
        return (NO, *_lu_solve_cotangents(lu, a, b, x, dx, vector, project_a, project_b))

    return x, solve_pullback


@frule.register(np.linalg.solve, np.ndarray, np.ndarray)
def solve_frule(tangents: Any, a: np.ndarray, b: np.ndarray) -> Any:
    """Forward rule of ``np.linalg.solve(A, b)``: ``dx = A^{-1} (db - dA x)`` with the same LU factors.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent, ZeroTangent
    >>> frule((NoTangent(), np.eye(2), ZeroTangent()), np.linalg.solve, 2 * np.eye(2), np.array([2.0, 4.0]))[1]
    array([-0.5, -1. ])
    """
    solved = _factorized_solve(np.linalg.solve, a, b)
    if solved is None:
        return None
    lu, vector, x = solved
    da, db = tangent_value(tangents[1]), tangent_value(tangents[2])
    missing = not_implemented_in(da, db)
    if missing is not None:
        return x, missing
    dx = _lu_solve_tangent(lu, x, da, db, vector)
    return x, ZeroTangent() if dx is None else ProjectTo(x)(dx)


# ---- np.linalg.tensorsolve -----------------------------------------------------------------------------------
def _tensorsolve_order(a: np.ndarray, axes: Any) -> list[int]:
    """NumPy's reordering of ``a``'s axes: those in ``axes`` moved to the end, in order."""
    order = list(range(a.ndim))
    if axes is not None:
        for k in axes:
            order.remove(k)
            order.insert(a.ndim, k)
    return order


def _factorized_tensorsolve(a: np.ndarray, b: np.ndarray, axes: Any) -> Any:
    try:
        order = _tensorsolve_order(a, axes)
    except (ValueError, TypeError, IndexError):
        return primal_error(np.linalg.tensorsolve, a, b, axes)
    moved = a.transpose(order)
    x_shape = moved.shape[-(a.ndim - b.ndim):]
    size = math.prod(x_shape)
    dtype = linalg_dtype(a, b)
    if dtype is None or moved.size != size ** 2 or b.size != size:
        return primal_error(np.linalg.tensorsolve, a, b, axes)
    lu = LU(moved.reshape(size, size).astype(dtype, copy=False))
    if lu.singular.any():
        return primal_error(np.linalg.tensorsolve, a, b, axes)
    x = lu.solve(b.reshape(size, 1))[:, 0].reshape(x_shape)
    return lu, order, moved.shape, x


@rrule.register(np.linalg.tensorsolve, np.ndarray, np.ndarray)
def tensorsolve_rrule(a: np.ndarray, b: np.ndarray, axes: Any = None) -> Any:
    """Reverse rule of ``np.linalg.tensorsolve(a, b, axes)``: the ``solve`` rule on the matrix form, one LU.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule, unthunk
    >>> a = 2 * np.eye(6).reshape(2, 3, 6)
    >>> x, pullback = rrule(np.linalg.tensorsolve, a, np.ones((2, 3)))
    >>> x.shape, unthunk(pullback(np.ones(6))[2])
    ((6,), array([[0.5, 0.5, 0.5],
           [0.5, 0.5, 0.5]]))
    """
    solved = _factorized_tensorsolve(a, b, axes)
    if solved is None:
        return None
    lu, order, moved_shape, x = solved
    project_a, project_b = cotangent_projector(a), cotangent_projector(b)
    undo = np.argsort(order)

    def tensorsolve_pullback(dy: Any) -> tuple[Any, Any, Any, Any]:
        dx = read_cotangent(dy, x, "numpy.linalg.tensorsolve")
        if passes_through(dx):
            return NO, project_a(dx), project_b(dx), NO

        @functools.cache
        def adjoint() -> np.ndarray:
            return lu.solve(dx.reshape(-1, 1), trans=2)[:, 0]

        def cotangent_a() -> Any:
            da = -outer_columns(adjoint(), x.reshape(-1), vector=True)
            return project_a(da.reshape(moved_shape).transpose(undo))

        return NO, Thunk(cotangent_a), Thunk(lambda: project_b(adjoint().reshape(b.shape))), NO

    return x, tensorsolve_pullback


@frule.register(np.linalg.tensorsolve, np.ndarray, np.ndarray)
def tensorsolve_frule(tangents: Any, a: np.ndarray, b: np.ndarray, axes: Any = None) -> Any:
    """Forward rule of ``np.linalg.tensorsolve``: ``dx = A^{-1} (db - dA x)`` on the matrix form.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent, ZeroTangent
    >>> a = 2 * np.eye(4).reshape(2, 2, 4)
    >>> frule((NoTangent(), ZeroTangent(), np.ones((2, 2))), np.linalg.tensorsolve, a, np.ones((2, 2)))[1]
    array([0.5, 0.5, 0.5, 0.5])
    """
    solved = _factorized_tensorsolve(a, b, axes)
    if solved is None:
        return None
    lu, order, _, x = solved
    da, db = tangent_value(tangents[1]), tangent_value(tangents[2])
    missing = not_implemented_in(da, db)
    if missing is not None:
        return x, missing
    size = x.size
    da_matrix = None if da is None else da.transpose(order).reshape(size, size)
    dx = _lu_solve_tangent(lu, x.reshape(-1), da_matrix, None if db is None else db.reshape(-1), vector=True)
    return x, ZeroTangent() if dx is None else ProjectTo(x)(dx.reshape(x.shape))


# ---- scipy.linalg.solve -----------------------------------------------------------------------------------------
_ADJOINT_STRUCTURE = {"upper triangular": "lower triangular", "lower triangular": "upper triangular"}


def _scipy_adjoint_solve(a: np.ndarray, dx: np.ndarray, lower: bool, assume_a: str | None,
                         transposed: bool) -> np.ndarray:
    """Solve with the adjoint of ``op(S)`` (``S`` what ``assume_a`` reads of ``a``) by SciPy, same structure."""
    if transposed:  # real only: the adjoint of S^T is S
        return scipy.linalg.solve(a, dx, lower=lower, check_finite=False, assume_a=assume_a)
    flip = assumed_structure(assume_a) in ("symmetric", "hermitian")
    return scipy.linalg.solve(mH(a), dx, lower=(not lower) if flip else lower, check_finite=False,
                              assume_a=_ADJOINT_STRUCTURE.get(assume_a, assume_a))  # type: ignore[arg-type]


@rrule.register(scipy.linalg.solve, np.ndarray, np.ndarray)
def scipy_solve_rrule(a: np.ndarray, b: np.ndarray, lower: bool = False, overwrite_a: bool = False,
                      overwrite_b: bool = False, check_finite: bool = True, assume_a: str | None = None,
                      transposed: bool = False) -> Any:
    """Reverse rule of ``scipy.linalg.solve``: ``db = op(S)^{-H} dx``, ``da`` = ``-db x^H`` on what ``assume_a`` reads.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.linalg
    >>> from chainrules import rrule, unthunk
    >>> a = np.array([[2.0, 1.0], [99.0, 4.0]])      # 'sym' with lower=False reads the upper triangle
    >>> x, pullback = rrule(scipy.linalg.solve, a, np.array([1.0, 0.0]), assume_a="sym")
    >>> np.round(unthunk(pullback(np.array([1.0, 0.0]))[1]), 4)
    array([[-0.3265,  0.1633],
           [ 0.    , -0.0204]])
    """
    x = scipy.linalg.solve(a, b, lower=lower, check_finite=check_finite, assume_a=assume_a,  # type: ignore[arg-type]
                           transposed=transposed)
    structure = assumed_structure(assume_a)
    vector = b.ndim == 1
    project_a, project_b = cotangent_projector(a), cotangent_projector(b)

    def scipy_solve_pullback(dy: Any) -> tuple[Any, ...]:
        dx = read_cotangent(dy, x, "scipy.linalg.solve")
        tail = (NO,) * 6
        if passes_through(dx):
            return (NO, project_a(dx), project_b(dx), *tail)
        if a.size == 1:  # SciPy divides by a 1 x 1 matrix, whatever b's shape
            scalar = a.reshape(())
            db = dx / conj(scalar)
            da = Thunk(lambda: project_a(np.reshape(-np.sum(db * conj(x)), a.shape)))
            return (NO, da, Thunk(lambda: project_b(unbroadcast(db, b.shape))), *tail)

        @functools.cache
        def adjoint() -> np.ndarray:
            return solve_columns(lambda c: _scipy_adjoint_solve(a, c, lower, assume_a, transposed), dx, vector)

        def cotangent_a() -> Any:
            g = -outer_columns(adjoint(), x, vector)
            g = mT(g) if transposed else g
            return project_a(unbroadcast(structure_cotangent(g, structure, lower), a.shape))

        return (NO, Thunk(cotangent_a), Thunk(lambda: project_b(unbroadcast(adjoint(), b.shape))), *tail)

    return x, scipy_solve_pullback


@frule.register(scipy.linalg.solve, np.ndarray, np.ndarray)
def scipy_solve_frule(tangents: Any, a: np.ndarray, b: np.ndarray, lower: bool = False, overwrite_a: bool = False,
                      overwrite_b: bool = False, check_finite: bool = True, assume_a: str | None = None,
                      transposed: bool = False) -> Any:
    """Forward rule of ``scipy.linalg.solve``: ``dx = op(S)^{-1} (db - op(dS) x)``.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.linalg
    >>> from chainrules import frule, NoTangent, ZeroTangent
    >>> frule((NoTangent(), np.eye(2), ZeroTangent()), scipy.linalg.solve, 2 * np.eye(2), np.array([2.0, 4.0]))[1]
    array([-0.5, -1. ])
    """
    options = dict(lower=lower, check_finite=check_finite, assume_a=assume_a, transposed=transposed)
    x = scipy.linalg.solve(a, b, **options)  # type: ignore[arg-type]
    da, db = tangent_value(tangents[1]), tangent_value(tangents[2])
    missing = not_implemented_in(da, db)
    if missing is not None:
        return x, missing
    vector = b.ndim == 1
    if a.size == 1:
        scalar = a.reshape(())
        rhs = _sum_tangents(db, None if da is None else -da.reshape(()) * x)
        return x, ZeroTangent() if rhs is None else ProjectTo(x)(np.broadcast_to(rhs / scalar, x.shape))
    ds = None if da is None else structured_matrix(da, assumed_structure(assume_a), lower)
    if ds is not None and transposed:
        ds = mT(ds)
    rhs = _sum_tangents(db, None if ds is None else -_matvec(ds, x, vector))
    if rhs is None:
        return x, ZeroTangent()
    options["check_finite"] = False
    rhs = np.broadcast_to(rhs, np.broadcast_shapes(np.shape(rhs), x.shape))
    dx = solve_columns(lambda c: scipy.linalg.solve(a, c, **options), rhs, vector)  # type: ignore[arg-type]
    return x, ProjectTo(x)(dx)


# ---- solve_banded, solveh_banded -----------------------------------------------------------------------------------
def _band_of_outer(p: np.ndarray, q: np.ndarray, offsets: Any, vector: bool, row_of: Callable[[int], int],
                  shape: tuple[int, ...]) -> np.ndarray:
    """Band storage of ``p q^H`` (columns summed): row ``row_of(k)``, column ``j`` holds ``(p q^H)[j + k, j]``.

    Entries outside the matrix are zero. ``O(n * bands * columns)``, no ``n x n`` array.
    """
    n = p.shape[-1] if vector else p.shape[-2]
    out = np.zeros(shape, dtype=np.result_type(p, q))
    for k in offsets:
        if abs(k) >= n:
            continue
        lo, hi = max(0, -k), min(n, n - k)  # columns j with 0 <= j + k < n
        if vector:
            values = p[..., lo + k:hi + k] * conj(q[..., lo:hi])
        else:
            values = np.sum(p[..., lo + k:hi + k, :] * conj(q[..., lo:hi, :]), axis=-1)
        out[..., row_of(k), lo:hi] += values
    return out


def _adjoint_band(ab: np.ndarray, lower_bw: int, upper_bw: int) -> np.ndarray:
    """Band storage (``upper_bw`` sub- and ``lower_bw`` superdiagonals) of ``A^H`` from that of ``A``."""
    out = np.zeros_like(ab)
    n = ab.shape[-1]
    for k in range(-upper_bw, lower_bw + 1):  # offsets i - j of A; A^H holds conj(A[j, i]) at offset -k
        lo, hi = max(0, -k), min(n, n - k)
        # A[j + k, j] sits at ab[upper_bw + k, j]; in A^H it is entry (j, j + k): row lower_bw - k, column j + k
        out[..., lower_bw - k, lo + k:hi + k] = conj(ab[..., upper_bw + k, lo:hi])
    return out


def _banded_tangent(dab: np.ndarray, x: np.ndarray, l_and_u: tuple[int, int], vector: bool) -> np.ndarray:
    """``dA x`` for ``dA`` in band storage."""
    lower_bw, upper_bw = l_and_u
    n = dab.shape[-1]
    out = np.zeros(np.broadcast_shapes(dab.shape[:-2] + ((n,) if vector else (n, 1)), x.shape),
                   dtype=np.result_type(dab, x))
    for k in range(-upper_bw, lower_bw + 1):
        lo, hi = max(0, -k), min(n, n - k)
        diagonal = dab[..., upper_bw + k, lo:hi]
        if vector:
            out[..., lo + k:hi + k] += diagonal * x[..., lo:hi]
        else:
            out[..., lo + k:hi + k, :] += diagonal[..., None] * x[..., lo:hi, :]
    return out


@rrule.register(scipy.linalg.solve_banded, tuple, np.ndarray, np.ndarray)
def solve_banded_rrule(l_and_u: tuple[int, int], ab: np.ndarray, b: np.ndarray, overwrite_ab: bool = False,
                       overwrite_b: bool = False, check_finite: bool = True) -> Any:
    """Reverse rule of ``scipy.linalg.solve_banded``: the adjoint band solve; ``dab`` is ``-db x^H`` on the band.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.linalg
    >>> from chainrules import rrule, unthunk
    >>> ab = np.array([[0.0, 1.0], [2.0, 2.0]])           # [[2, 1], [0, 2]], one superdiagonal
    >>> x, pullback = rrule(scipy.linalg.solve_banded, (0, 1), ab, np.array([1.0, 2.0]))
    >>> unthunk(pullback(np.array([1.0, 0.0]))[2])
    array([[-0.  , -0.5 ],
           [-0.  ,  0.25]])
    """
    x = scipy.linalg.solve_banded(l_and_u, ab, b, check_finite=check_finite)
    lower_bw, upper_bw = (int(v) for v in l_and_u)
    vector = b.ndim == 1
    project_ab, project_b = cotangent_projector(ab), cotangent_projector(b)

    def solve_banded_pullback(dy: Any) -> tuple[Any, ...]:
        dx = read_cotangent(dy, x, "scipy.linalg.solve_banded")
        if passes_through(dx):
            return NO, NO, project_ab(dx), project_b(dx), NO, NO, NO

        @functools.cache
        def adjoint() -> np.ndarray:
            adjoint_ab = _adjoint_band(ab.astype(np.result_type(ab, 1.0)), lower_bw, upper_bw)
            return scipy.linalg.solve_banded((upper_bw, lower_bw), adjoint_ab, dx, check_finite=False)

        def cotangent_ab() -> Any:
            band = _band_of_outer(adjoint(), x, range(-upper_bw, lower_bw + 1), vector, lambda k: upper_bw + k,
                                 np.broadcast_shapes(ab.shape, x.shape[:-1 if vector else -2] + ab.shape[-2:]))
            return project_ab(unbroadcast(-band, ab.shape))

        return (NO, NO, Thunk(cotangent_ab), Thunk(lambda: project_b(unbroadcast(adjoint(), b.shape))),
                NO, NO, NO)

    return x, solve_banded_pullback


@frule.register(scipy.linalg.solve_banded, tuple, np.ndarray, np.ndarray)
def solve_banded_frule(tangents: Any, l_and_u: tuple[int, int], ab: np.ndarray, b: np.ndarray,
                       overwrite_ab: bool = False, overwrite_b: bool = False, check_finite: bool = True) -> Any:
    """Forward rule of ``scipy.linalg.solve_banded``: ``dx = A^{-1} (db - dA x)``.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.linalg
    >>> from chainrules import frule, NoTangent, ZeroTangent
    >>> ab = np.array([[2.0, 2.0]])
    >>> tangents = (NoTangent(), NoTangent(), np.ones((1, 2)), ZeroTangent())
    >>> frule(tangents, scipy.linalg.solve_banded, (0, 0), ab, np.array([2.0, 4.0]))[1]
    array([-0.5, -1. ])
    """
    x = scipy.linalg.solve_banded(l_and_u, ab, b, check_finite=check_finite)
    dab, db = tangent_value(tangents[2]), tangent_value(tangents[3])
    missing = not_implemented_in(dab, db)
    if missing is not None:
        return x, missing
    vector = b.ndim == 1
    bands = (int(l_and_u[0]), int(l_and_u[1]))
    rhs = _sum_tangents(db, None if dab is None else -_banded_tangent(dab, x, bands, vector))
    if rhs is None:
        return x, ZeroTangent()
    rhs = np.broadcast_to(rhs, np.broadcast_shapes(np.shape(rhs), x.shape))
    return x, ProjectTo(x)(scipy.linalg.solve_banded(l_and_u, ab, rhs, check_finite=False))


def _hermitian_band_matrix_rows(ab: np.ndarray, lower: bool) -> tuple[int, Callable[[int], int]]:
    """``(bandwidth, row_of)`` of a Hermitian band storage; ``row_of(k)`` holds offset ``k = i - j``."""
    bandwidth = ab.shape[-2] - 1
    return bandwidth, ((lambda k: k) if lower else (lambda k: bandwidth + k))


@rrule.register(scipy.linalg.solveh_banded, np.ndarray, np.ndarray)
def solveh_banded_rrule(ab: np.ndarray, b: np.ndarray, overwrite_ab: bool = False, overwrite_b: bool = False,
                        lower: bool = False, check_finite: bool = True) -> Any:
    """Reverse rule of ``scipy.linalg.solveh_banded``: ``db = A^{-1} dx``, ``dab`` is ``-db x^H`` folded onto the band.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.linalg
    >>> from chainrules import rrule, unthunk
    >>> ab = np.array([[0.0, 1.0], [2.0, 2.0]])           # [[2, 1], [1, 2]], upper form
    >>> x, pullback = rrule(scipy.linalg.solveh_banded, ab, np.array([1.0, 1.0]))
    >>> np.round(unthunk(pullback(np.array([1.0, 0.0]))[1]), 4)
    array([[-0.    , -0.1111],
           [-0.2222,  0.1111]])
    """
    x = scipy.linalg.solveh_banded(ab, b, lower=lower, check_finite=check_finite)
    vector = b.ndim == 1
    bandwidth, row_of = _hermitian_band_matrix_rows(ab, lower)
    project_ab, project_b = cotangent_projector(ab), cotangent_projector(b)

    def solveh_banded_pullback(dy: Any) -> tuple[Any, ...]:
        dx = read_cotangent(dy, x, "scipy.linalg.solveh_banded")
        if passes_through(dx):
            return NO, project_ab(dx), project_b(dx), NO, NO, NO, NO

        @functools.cache
        def adjoint() -> np.ndarray:  # A is Hermitian: its adjoint solve is the same solve
            return scipy.linalg.solveh_banded(ab, dx, lower=lower, check_finite=False)

        def cotangent_ab() -> Any:
            db = adjoint()
            offsets = range(0, bandwidth + 1) if lower else range(-bandwidth, 1)
            shape = np.broadcast_shapes(ab.shape, x.shape[:-1 if vector else -2] + ab.shape[-2:])
            # the stored entry at offset k stands for G[j + k, j] and conj(G[j, j + k]), G = -db x^H
            band = _band_of_outer(db, x, offsets, vector, row_of, shape)
            band = band + _band_of_outer(x, db, offsets, vector, row_of, shape)
            diagonal = row_of(0)
            band[..., diagonal, :] = np.real(band[..., diagonal, :]) / 2
            return project_ab(unbroadcast(-band, ab.shape))

        return (NO, Thunk(cotangent_ab), Thunk(lambda: project_b(unbroadcast(adjoint(), b.shape))),
                NO, NO, NO, NO)

    return x, solveh_banded_pullback


def _hermitian_band_tangent(dab: np.ndarray, x: np.ndarray, lower: bool, vector: bool) -> np.ndarray:
    """``dA x`` for the Hermitian ``dA`` stored (one triangle, real diagonal) in band storage."""
    bandwidth = dab.shape[-2] - 1
    diagonal_row = 0 if lower else bandwidth
    stored = dab.copy()
    stored[..., diagonal_row, :] = np.real(stored[..., diagonal_row, :])
    if lower:
        full = _banded_tangent(stored, x, (bandwidth, 0), vector)
        mirror = _adjoint_band(stored, bandwidth, 0)
        mirror[..., bandwidth, :] = 0
        return full + _banded_tangent(mirror, x, (0, bandwidth), vector)
    full = _banded_tangent(stored, x, (0, bandwidth), vector)
    mirror = _adjoint_band(stored, 0, bandwidth)
    mirror[..., 0, :] = 0
    return full + _banded_tangent(mirror, x, (bandwidth, 0), vector)


@frule.register(scipy.linalg.solveh_banded, np.ndarray, np.ndarray)
def solveh_banded_frule(tangents: Any, ab: np.ndarray, b: np.ndarray, overwrite_ab: bool = False,
                        overwrite_b: bool = False, lower: bool = False, check_finite: bool = True) -> Any:
    """Forward rule of ``scipy.linalg.solveh_banded``: ``dx = A^{-1} (db - dA x)`` with ``dA`` Hermitian.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.linalg
    >>> from chainrules import frule, NoTangent, ZeroTangent
    >>> ab = np.array([[0.0, 1.0], [2.0, 2.0]])
    >>> tangents = (NoTangent(), ZeroTangent(), np.array([1.0, 0.0]))
    >>> frule(tangents, scipy.linalg.solveh_banded, ab, np.array([1.0, 1.0]))[1]
    array([ 0.66666667, -0.33333333])
    """
    x = scipy.linalg.solveh_banded(ab, b, lower=lower, check_finite=check_finite)
    dab, db = tangent_value(tangents[1]), tangent_value(tangents[2])
    missing = not_implemented_in(dab, db)
    if missing is not None:
        return x, missing
    vector = b.ndim == 1
    rhs = _sum_tangents(db, None if dab is None else -_hermitian_band_tangent(dab, x, lower, vector))
    if rhs is None:
        return x, ZeroTangent()
    rhs = np.broadcast_to(rhs, np.broadcast_shapes(np.shape(rhs), x.shape))
    return x, ProjectTo(x)(scipy.linalg.solveh_banded(ab, rhs, lower=lower, check_finite=False))


# ---- solve_toeplitz ----------------------------------------------------------------------------------------------
def diagonal_sums(p: np.ndarray, q: np.ndarray, vector: bool) -> np.ndarray:
    """``s[..., n - 1 + k] = sum_j (p q^H)[j + k, j]`` for ``k = -(n-1) .. n-1`` (columns summed), by FFT.

    The sums of ``p q^H`` along its diagonals, the adjoint of building a Toeplitz matrix.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.linalg.solves import diagonal_sums
    >>> np.round(diagonal_sums(np.array([1.0, 2.0]), np.array([3.0, 4.0]), vector=True), 12)
    array([ 4., 11.,  6.])
    """
    if vector:
        p, q = p[..., None], q[..., None]
    n = p.shape[-2]
    size = 2 * n - 1
    fast = 1 << max(size - 1, 0).bit_length()
    spectrum = np.sum(np.fft.fft(p, fast, axis=-2) * np.conj(np.fft.fft(q, fast, axis=-2)), axis=-1)
    circular = np.fft.ifft(spectrum, axis=-1)
    sums = np.concatenate([circular[..., fast - (n - 1):], circular[..., :n]], axis=-1)
    return sums if np.iscomplexobj(p) or np.iscomplexobj(q) else sums.real


def _toeplitz_parts(c_or_cr: Any) -> tuple[np.ndarray, np.ndarray | None]:
    if isinstance(c_or_cr, tuple):
        return np.asarray(c_or_cr[0]), np.asarray(c_or_cr[1])
    return np.asarray(c_or_cr), None


@rrule.register(scipy.linalg.solve_toeplitz, (np.ndarray, tuple), np.ndarray)
def solve_toeplitz_rrule(c_or_cr: Any, b: np.ndarray, check_finite: bool = True) -> Any:
    """Reverse rule of ``scipy.linalg.solve_toeplitz``: a Toeplitz adjoint solve, ``-db x^H`` summed along diagonals.

    ``c_or_cr`` is ``c`` (then ``r = conj(c)``) or ``(c, r)``; its cotangent has the same form
    (``r[0]`` is not read and gets zero).

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.linalg
    >>> from chainrules import rrule, unthunk
    >>> x, pullback = rrule(scipy.linalg.solve_toeplitz, (np.array([2.0, 1.0]), np.array([2.0, 0.0])),
    ...                     np.array([2.0, 1.0]))
    >>> unthunk(pullback(np.array([1.0, 0.0]))[1])
    Tangent(tuple, array([-0.5, -0. ]), array([ 0., -0.]))
    """
    x = scipy.linalg.solve_toeplitz(c_or_cr, b, check_finite=check_finite)
    c, r = _toeplitz_parts(c_or_cr)
    n = c.shape[-1]
    vector = b.ndim == 1
    project_c_or_cr, project_b = cotangent_projector(c_or_cr), cotangent_projector(b)

    def solve_toeplitz_pullback(dy: Any) -> tuple[Any, Any, Any, Any]:
        dx = read_cotangent(dy, x, "scipy.linalg.solve_toeplitz")
        if passes_through(dx):
            return NO, project_c_or_cr(dx), project_b(dx), NO

        @functools.cache
        def adjoint() -> np.ndarray:  # T^H is Toeplitz: first column conj(r) (conj(c[0]) on top), first row conj(c)
            row = conj(c) if r is None else r
            column = np.concatenate([c[..., :1], row[..., 1:]], axis=-1)
            return scipy.linalg.solve_toeplitz((conj(column), conj(c)), dx, check_finite=False)

        def cotangent_c_or_cr() -> Any:
            sums = -diagonal_sums(adjoint(), x, vector)  # index n - 1 + k: the sum over i - j = k
            dc = unbroadcast(sums[..., n - 1:], c.shape)
            above = sums[..., n - 1::-1]                   # index k: the sum over j - i = k
            above = np.concatenate([np.zeros_like(above[..., :1]), above[..., 1:]], axis=-1)
            if r is None:
                return project_c_or_cr(dc + unbroadcast(conj(above), c.shape))
            return project_c_or_cr((dc, unbroadcast(above, r.shape)))

        return NO, Thunk(cotangent_c_or_cr), Thunk(lambda: project_b(unbroadcast(adjoint(), b.shape))), NO

    return x, solve_toeplitz_pullback


def _toeplitz_matvec(column: np.ndarray, row: np.ndarray, x: np.ndarray, vector: bool) -> np.ndarray:
    """``T x`` for the Toeplitz matrix with first column ``column`` and first row ``row`` (stacks too)."""
    n = column.shape[-1]
    i = np.arange(n)
    offsets = i[:, None] - i[None, :]
    values = np.where(offsets >= 0, np.take(column, np.abs(offsets), axis=-1),
                      np.take(row, np.abs(offsets), axis=-1))
    return _matvec(values, x, vector)


@frule.register(scipy.linalg.solve_toeplitz, (np.ndarray, tuple), np.ndarray)
def solve_toeplitz_frule(tangents: Any, c_or_cr: Any, b: np.ndarray, check_finite: bool = True) -> Any:
    """Forward rule of ``scipy.linalg.solve_toeplitz``: ``dx = T^{-1} (db - dT x)``.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.linalg
    >>> from chainrules import frule, NoTangent, ZeroTangent
    >>> tangents = (NoTangent(), ZeroTangent(), np.array([1.0, 0.0]))
    >>> frule(tangents, scipy.linalg.solve_toeplitz, np.array([2.0, 1.0]), np.array([1.0, 1.0]))[1]
    array([ 0.66666667, -0.33333333])
    """
    x = scipy.linalg.solve_toeplitz(c_or_cr, b, check_finite=check_finite)
    dcr, db = tangents[1], tangent_value(tangents[2])
    if isinstance(c_or_cr, tuple):
        parts = tangent_parts(dcr, ("c", "r"), "scipy.linalg.solve_toeplitz frule: tangent of (c, r)")
        dc, dr = (None if p is None else np.asarray(p) for p in parts)
        if dc is not None or dr is not None:
            c, r = _toeplitz_parts(c_or_cr)
            dc = np.zeros_like(c, dtype=np.result_type(c, r, 1.0)) if dc is None else dc
            dr = np.zeros_like(r, dtype=np.result_type(c, r, 1.0)) if dr is None else dr
    else:
        dc = tangent_value(dcr)
        dr = None if dc is None else conj(dc)
    missing = not_implemented_in(dc, db)
    if missing is not None:
        return x, missing
    vector = b.ndim == 1
    dtx = None if dc is None else _toeplitz_matvec(dc, dr, x, vector)  # type: ignore[arg-type]
    rhs = _sum_tangents(db, None if dtx is None else -dtx)
    if rhs is None:
        return x, ZeroTangent()
    rhs = np.broadcast_to(rhs, np.broadcast_shapes(np.shape(rhs), x.shape))
    return x, ProjectTo(x)(scipy.linalg.solve_toeplitz(c_or_cr, rhs, check_finite=False))


# ---- solve_circulant -----------------------------------------------------------------------------------------------
def _circulant_spectra(c: np.ndarray, b: np.ndarray, singular: str, tol: Any, caxis: int,
                       baxis: int) -> tuple[np.ndarray, np.ndarray, int]:
    """``(w, fb, n)``: ``w = 1 / fft(c)`` (0 where SciPy discards an eigenvalue) and ``fb = fft(b)``."""
    fc = np.fft.fft(np.moveaxis(np.atleast_1d(c), caxis, -1), axis=-1)
    magnitude = np.abs(fc)
    n = fc.shape[-1]
    if tol is None:
        tol = magnitude.max(axis=-1, keepdims=True) * n * np.finfo(np.float64).eps
    discarded = magnitude <= tol
    with np.errstate(divide="ignore", invalid="ignore"):
        w = np.where(discarded, 0, 1 / np.where(discarded, 1, fc))
    fb = np.fft.fft(np.moveaxis(np.atleast_1d(b), baxis, -1), axis=-1)
    return w, fb, n


@rrule.register(scipy.linalg.solve_circulant, np.ndarray, np.ndarray)
def solve_circulant_rrule(c: np.ndarray, b: np.ndarray, singular: str = "raise", tol: Any = None, caxis: int = -1,
                          baxis: int = 0, outaxis: int = 0) -> Any:
    """Reverse rule of ``scipy.linalg.solve_circulant``: ``x = ifft(fft(b) w)``, ``w = 1/fft(c)``, all adjoints FFTs.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.linalg
    >>> from chainrules import rrule, unthunk
    >>> x, pullback = rrule(scipy.linalg.solve_circulant, np.array([2.0, 0.0, 0.0]), np.array([2.0, 4.0, 6.0]))
    >>> _, dc, db = pullback(np.ones(3))[:3]
    >>> x, np.round(unthunk(dc), 12), np.round(unthunk(db), 12)
    (array([1., 2., 3.]), array([-3., -3., -3.]), array([0.5, 0.5, 0.5]))
    """
    x = scipy.linalg.solve_circulant(c, b, singular, tol, caxis, baxis, outaxis)
    w, fb, n = _circulant_spectra(c, b, singular, tol, caxis, baxis)
    real = not (np.iscomplexobj(c) or np.iscomplexobj(b))
    project_c, project_b = cotangent_projector(c), cotangent_projector(b)

    def solve_circulant_pullback(dy: Any) -> tuple[Any, ...]:
        dx = read_cotangent(dy, x, "scipy.linalg.solve_circulant")
        tail = (NO,) * 5
        if passes_through(dx):
            return (NO, project_c(dx), project_b(dx), *tail)
        moved = np.moveaxis(dx.real if real else dx, outaxis, -1)
        dq = np.fft.fft(moved, axis=-1) / n                 # the adjoint of ifft
        dfb = unbroadcast(dq * np.conj(w), fb.shape)

        def cotangent_c() -> Any:
            dw = unbroadcast(dq * np.conj(fb), w.shape)
            dfc = -dw * np.conj(w) ** 2                     # d(1/f) = -df / f^2; zero where discarded
            dc = np.fft.ifft(dfc, axis=-1) * n             # the adjoint of fft
            return project_c(np.moveaxis(dc, -1, caxis).reshape(c.shape))

        def cotangent_b() -> Any:
            db = np.fft.ifft(dfb, axis=-1) * n
            return project_b(np.moveaxis(db, -1, baxis).reshape(b.shape))

        return (NO, Thunk(cotangent_c), Thunk(cotangent_b), *tail)

    return x, solve_circulant_pullback


@frule.register(scipy.linalg.solve_circulant, np.ndarray, np.ndarray)
def solve_circulant_frule(tangents: Any, c: np.ndarray, b: np.ndarray, singular: str = "raise", tol: Any = None,
                          caxis: int = -1, baxis: int = 0, outaxis: int = 0) -> Any:
    """Forward rule of ``scipy.linalg.solve_circulant``: ``dx = ifft(fft(db) w - fft(b) w^2 fft(dc))``.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.linalg
    >>> from chainrules import frule, NoTangent, ZeroTangent
    >>> tangents = (NoTangent(), np.array([1.0, 0.0, 0.0]), ZeroTangent())
    >>> frule(tangents, scipy.linalg.solve_circulant, np.array([2.0, 0.0, 0.0]), np.array([2.0, 4.0, 6.0]))[1]
    array([-0.5, -1. , -1.5])
    """
    x = scipy.linalg.solve_circulant(c, b, singular, tol, caxis, baxis, outaxis)
    dc, db = tangent_value(tangents[1]), tangent_value(tangents[2])
    missing = not_implemented_in(dc, db)
    if missing is not None:
        return x, missing
    if dc is None and db is None:
        return x, ZeroTangent()
    w, fb, _ = _circulant_spectra(c, b, singular, tol, caxis, baxis)
    dq = 0
    if db is not None:
        dq = dq + np.fft.fft(np.moveaxis(np.atleast_1d(db), baxis, -1), axis=-1) * w
    if dc is not None:
        dq = dq - fb * w ** 2 * np.fft.fft(np.moveaxis(np.atleast_1d(dc), caxis, -1), axis=-1)
    dx: Any = np.fft.ifft(dq, axis=-1)
    if not (np.iscomplexobj(c) or np.iscomplexobj(b)):
        dx = dx.real
    return x, ProjectTo(x)(np.moveaxis(np.broadcast_to(dx, np.moveaxis(x, outaxis, -1).shape), -1, outaxis))


# ---- lu_factor, lu_solve -------------------------------------------------------------------------------------------
def pivots_to_permutation(piv: np.ndarray, m: int) -> np.ndarray:
    """The permutations ``perm`` with ``A[perm] = L U`` from LAPACK's 0-based row swaps (stacks: last axis).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.linalg.solves import pivots_to_permutation
    >>> pivots_to_permutation(np.array([2, 2, 2]), 3)
    array([2, 0, 1])
    """
    flat = np.asarray(piv).reshape(-1, piv.shape[-1])
    out = np.empty((flat.shape[0], m), dtype=np.intp)
    for row, swaps in enumerate(flat.tolist()):
        perm = list(range(m))
        for i, p in enumerate(swaps):
            perm[i], perm[p] = perm[p], perm[i]
        out[row] = perm
    return out.reshape(piv.shape[:-1] + (m,))


def _rows(x: np.ndarray, perm: np.ndarray) -> np.ndarray:
    """``x[..., perm, :]`` with a permutation per matrix of the stack (``P^T x``; batch axes broadcast)."""
    batch = np.broadcast_shapes(x.shape[:-2], perm.shape[:-1])
    x = np.broadcast_to(x, batch + x.shape[-2:])
    return np.take_along_axis(x, np.broadcast_to(perm[..., :, None], batch + x.shape[-2:]), axis=-2)


def _unrows(x: np.ndarray, perm: np.ndarray) -> np.ndarray:
    """The inverse of :func:`_rows` (``P x``)."""
    return _rows(x, np.argsort(perm, axis=-1))


def _lu_parts(lu: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``L`` (``m x k``, unit lower trapezoidal) and ``U`` (``k x n``, upper trapezoidal) from packed factors."""
    m, n = lu.shape[-2:]
    k = min(m, n)
    L = np.tril(lu[..., :, :k], -1) + np.eye(m, k, dtype=lu.dtype)
    return L, np.triu(lu[..., :k, :])


def _solve_unit_lower(L: np.ndarray, b: np.ndarray, trans: int = 0) -> np.ndarray:
    return scipy.linalg.solve_triangular(L, b, trans=trans, lower=True, unit_diagonal=True, check_finite=False)


def _solve_upper(U: np.ndarray, b: np.ndarray, trans: int = 0) -> np.ndarray:
    return scipy.linalg.solve_triangular(U, b, trans=trans, lower=False, check_finite=False)


def lu_factor_pullback_of(lu: np.ndarray, perm: np.ndarray, dlu: np.ndarray) -> np.ndarray:
    """The cotangent of ``A`` from that of the packed factors ``lu`` of ``P^T A = L U`` (de Hoog et al. 2011).

    Square, tall and wide matrices; stacks too.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.linalg
    >>> from chainrules.rulesets.linalg.solves import lu_factor_pullback_of, pivots_to_permutation
    >>> lu, piv = scipy.linalg.lu_factor(np.array([[4.0, 2.0], [2.0, 3.0]]))
    >>> lu_factor_pullback_of(lu, pivots_to_permutation(piv, 2), np.array([[0.0, 0.0], [1.0, 0.0]]))
    array([[-0.125,  0.   ],
           [ 0.25 ,  0.   ]])
    """
    m, n = lu.shape[-2:]
    k = min(m, n)
    L, U = _lu_parts(lu)
    dL, dU = np.tril(dlu[..., :, :k], -1), np.triu(dlu[..., :k, :])
    L1, U1 = L[..., :k, :], U[..., :, :k]
    dL1, dU1 = dL[..., :k, :], dU[..., :, :k]
    extra = None
    if m > n:  # rows below the square block: L2 = B2 U^{-1}
        extra = mH(_solve_upper(U1, mH(dL[..., k:, :])))
        dU1 = dU1 - mH(L[..., k:, :]) @ extra
    elif n > m:  # columns right of the square block: U2 = L^{-1} B2
        extra = _solve_unit_lower(L1, dU[..., :, k:], trans=2)
        dL1 = dL1 - extra @ mH(U[..., :, k:])
    df = np.tril(mH(L1) @ dL1, -1) + np.triu(dU1 @ mH(U1))
    square = mH(_solve_upper(U1, mH(_solve_unit_lower(L1, df, trans=2))))
    if extra is None:
        db = square
    else:
        db = np.concatenate([square, extra], axis=-2 if m > n else -1)
    return _unrows(db, perm)


def lu_factor_pushforward_of(lu: np.ndarray, perm: np.ndarray, da: np.ndarray) -> np.ndarray:
    """The tangent of the packed factors ``lu`` of ``P^T A = L U`` for a tangent ``da`` of ``A``.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.linalg
    >>> from chainrules.rulesets.linalg.solves import lu_factor_pushforward_of, pivots_to_permutation
    >>> lu, piv = scipy.linalg.lu_factor(np.array([[4.0, 2.0], [2.0, 3.0]]))
    >>> lu_factor_pushforward_of(lu, pivots_to_permutation(piv, 2), np.array([[0.0, 0.0], [1.0, 0.0]]))
    array([[ 0.  ,  0.  ],
           [ 0.25, -0.5 ]])
    """
    m, n = lu.shape[-2:]
    k = min(m, n)
    L, U = _lu_parts(lu)
    L1, U1 = L[..., :k, :], U[..., :, :k]
    db = _rows(da, perm)
    f = mH(_solve_upper(U1, mH(_solve_unit_lower(L1, db[..., :k, :k])), trans=2))
    dL1, dU1 = L1 @ np.tril(f, -1), np.triu(f) @ U1
    out = np.tril(dL1, -1) + dU1
    if m > n:
        dL2 = mH(_solve_upper(U1, mH(db[..., k:, :] - L[..., k:, :] @ dU1), trans=2))
        out = np.concatenate([out, dL2], axis=-2)
    elif n > m:
        dU2 = _solve_unit_lower(L1, db[..., :, k:] - dL1 @ U[..., :, k:])
        out = np.concatenate([out, dU2], axis=-1)
    return out


@rrule.register(scipy.linalg.lu_factor, np.ndarray)
def lu_factor_rrule(a: np.ndarray, overwrite_a: bool = False, check_finite: bool = True) -> Any:
    """Reverse rule of ``scipy.linalg.lu_factor``: the cotangent of the packed ``lu`` pulled back (de Hoog et al. 2011).

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.linalg
    >>> from chainrules import rrule, NoTangent
    >>> (lu, piv), pullback = rrule(scipy.linalg.lu_factor, np.array([[4.0, 2.0], [2.0, 3.0]]))
    >>> pullback((np.array([[0.0, 0.0], [1.0, 0.0]]), NoTangent()))[1]
    array([[-0.125,  0.   ],
           [ 0.25 ,  0.   ]])
    """
    out = scipy.linalg.lu_factor(a, check_finite=check_finite)   # a tuple; a list for stacks
    lu, piv = out
    perm = pivots_to_permutation(piv, lu.shape[-2])
    project_a = cotangent_projector(a)

    def lu_factor_pullback(dy: Any) -> tuple[Any, Any, Any, Any]:
        parts = read_cotangents(dy, out, "scipy.linalg.lu_factor")
        dlu = parts if passes_through(parts) else parts[0]   # the pivots are integers: no cotangent
        if dlu is None:
            return NO, project_a(ZeroTangent()), NO, NO
        if passes_through(dlu):
            return NO, project_a(dlu), NO, NO
        return NO, project_a(lu_factor_pullback_of(lu, perm, dlu)), NO, NO

    return out, lu_factor_pullback


@frule.register(scipy.linalg.lu_factor, np.ndarray)
def lu_factor_frule(tangents: Any, a: np.ndarray, overwrite_a: bool = False, check_finite: bool = True) -> Any:
    """Forward rule of ``scipy.linalg.lu_factor``: ``dL = L tril(F, -1)``, ``dU = triu(F) U``.

    ``F = L^{-1} P^T dA U^{-1}``; tall and wide matrices add the rows or columns beyond the square block.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.linalg
    >>> from chainrules import frule, NoTangent
    >>> da = np.array([[0.0, 0.0], [1.0, 0.0]])
    >>> frule((NoTangent(), da), scipy.linalg.lu_factor, np.array([[4.0, 2.0], [2.0, 3.0]]))[1]
    Tangent(tuple, array([[ 0.  ,  0.  ],
           [ 0.25, -0.5 ]]), NoTangent())
    """
    out = scipy.linalg.lu_factor(a, check_finite=check_finite)
    lu, piv = out
    da = tangent_value(tangents[1])
    if da is None or passes_through(da):
        return out, ZeroTangent() if da is None else da
    perm = pivots_to_permutation(piv, lu.shape[-2])
    dlu = lu_factor_pushforward_of(lu, perm, da)
    return out, Tangent(type(out), ProjectTo(lu)(dlu), NO)


def _lu_solve_adjoint_terms(lu: np.ndarray, perm: np.ndarray, u: np.ndarray, v: np.ndarray,
                            vector: bool) -> np.ndarray:
    """The packed cotangent of ``A = P L U`` for ``dA = -u v^H`` (rank ``k``), without forming ``dA``.

    ``dL = tril(P^T dA U^H, -1) = -tril((P^T u)(U v)^H, -1)``, ``dU = triu(L^H P^T dA) = -triu((L^H P^T u) v^H)``.
    """
    L, U = _lu_parts(lu)
    cols_u = u[..., None] if vector else u
    cols_v = v[..., None] if vector else v
    pu = _rows(cols_u, perm)
    dL = -np.tril(pu @ mH(U @ cols_v), -1)
    dU = -np.triu((mH(L) @ pu) @ mH(cols_v))
    return dL + dU


@rrule.register(scipy.linalg.lu_solve, (tuple, list), np.ndarray)
def lu_solve_rrule(lu_and_piv: Any, b: np.ndarray, trans: int = 0,
                   overwrite_b: bool = False, check_finite: bool = True) -> Any:
    """Reverse rule of ``scipy.linalg.lu_solve``: adjoint solve with the same factors; ``dlu`` through ``A = P L U``.

    The cotangent of ``lu_and_piv`` is a ``Tangent(tuple, dlu, NoTangent())``.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.linalg
    >>> from chainrules import rrule, unthunk
    >>> factors = scipy.linalg.lu_factor(np.array([[2.0, 0.0], [0.0, 4.0]]))
    >>> x, pullback = rrule(scipy.linalg.lu_solve, factors, np.array([2.0, 4.0]))
    >>> _, dfactors, db = pullback(np.array([1.0, 1.0]))[:3]
    >>> unthunk(dfactors)
    Tangent(tuple, array([[-0.5 , -0.5 ],
           [-0.5 , -0.25]]), NoTangent())
    """
    lu, piv = lu_and_piv
    x = scipy.linalg.lu_solve(lu_and_piv, b, trans=trans, check_finite=check_finite)
    vector = b.ndim == 1
    perm = pivots_to_permutation(np.asarray(piv), lu.shape[-1])
    project_lu, project_b = cotangent_projector(lu), cotangent_projector(b)

    def lu_solve_pullback(dy: Any) -> tuple[Any, ...]:
        dx = read_cotangent(dy, x, "scipy.linalg.lu_solve")
        tail = (NO, NO, NO)
        if passes_through(dx):
            return (NO, Tangent(type(lu_and_piv), project_lu(dx), NO), project_b(dx), *tail)

        @functools.cache
        def adjoint() -> np.ndarray:
            if trans == 1:  # (A^T)^{-H} = conj(A)^{-1}
                return conj(scipy.linalg.lu_solve(lu_and_piv, conj(dx), trans=0, check_finite=False))
            return scipy.linalg.lu_solve(lu_and_piv, dx, trans=2 if trans == 0 else 0, check_finite=False)

        def cotangent_factors() -> Any:
            db = adjoint()
            # dA = -u v^H for each op: A (u, v) = (db, x); A^T: (conj x, conj db); A^H: (x, db)
            u, v = {0: (db, x), 1: (conj(x), conj(db)), 2: (x, db)}[trans]
            dlu = _lu_solve_adjoint_terms(lu, perm, u, v, vector)
            return Tangent(type(lu_and_piv), project_lu(unbroadcast(dlu, lu.shape)), NO)

        return (NO, Thunk(cotangent_factors), Thunk(lambda: project_b(unbroadcast(adjoint(), b.shape))), *tail)

    return x, lu_solve_pullback


@frule.register(scipy.linalg.lu_solve, (tuple, list), np.ndarray)
def lu_solve_frule(tangents: Any, lu_and_piv: Any, b: np.ndarray, trans: int = 0,
                   overwrite_b: bool = False, check_finite: bool = True) -> Any:
    """Forward rule of ``scipy.linalg.lu_solve``: ``dx = op(A)^{-1} (db - op(dA) x)``, ``dA = P (dL U + L dU)``.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.linalg
    >>> from chainrules import frule, NoTangent, ZeroTangent
    >>> factors = scipy.linalg.lu_factor(2 * np.eye(2))
    >>> tangents = (NoTangent(), ZeroTangent(), np.array([1.0, 0.0]))
    >>> frule(tangents, scipy.linalg.lu_solve, factors, np.array([2.0, 4.0]))[1]
    array([0.5, 0. ])
    """
    lu, piv = lu_and_piv
    x = scipy.linalg.lu_solve(lu_and_piv, b, trans=trans, check_finite=check_finite)
    dlu = tangent_parts(tangents[1], ("lu", "piv"), "scipy.linalg.lu_solve frule: tangent of lu_and_piv")[0]
    db = tangent_value(tangents[2])
    missing = not_implemented_in(dlu, db)
    if missing is not None:
        return x, missing
    vector = b.ndim == 1
    term = None
    if dlu is not None:
        dlu = np.asarray(dlu)
        perm = pivots_to_permutation(np.asarray(piv), lu.shape[-1])
        L, U = _lu_parts(lu)
        dL, dU = np.tril(dlu, -1), np.triu(dlu)
        cols = x[..., None] if vector else x
        if trans == 0:  # P (dL U x + L dU x)
            prod = _unrows(dL @ (U @ cols) + L @ (dU @ cols), perm)
        else:  # (dL U + L dU)^T P^T x, conjugated for trans == 2
            op = mT if trans == 1 else mH
            px = _rows(cols, perm)
            prod = op(U) @ (op(dL) @ px) + op(dU) @ (op(L) @ px)
        term = -(prod[..., 0] if vector else prod)
    rhs = _sum_tangents(db, term)
    if rhs is None:
        return x, ZeroTangent()
    rhs = np.broadcast_to(rhs, np.broadcast_shapes(np.shape(rhs), x.shape))
    return x, ProjectTo(x)(scipy.linalg.lu_solve(lu_and_piv, rhs, trans=trans, check_finite=False))


# ---- cho_factor, cho_solve --------------------------------------------------------------------------------------
def cholesky_pullback_of(L: np.ndarray, dL: np.ndarray) -> np.ndarray:
    """The Hermitian cotangent of ``A = L L^H`` from that of its lower Cholesky factor ``L`` (Murray 2016).

    ``dA = L^{-H} Z L^{-1}``, ``Z = (tril(Y, -1) + tril(Y, -1)^H + Re(diag(Y))) / 2``, ``Y = L^H tril(dL)``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.linalg.solves import cholesky_pullback_of
    >>> cholesky_pullback_of(np.array([[2.0]]), np.array([[1.0]]))     # d sqrt(a) / da at a = 4
    array([[0.25]])
    """
    y = mH(L) @ np.tril(dL)
    strict = np.tril(y, -1)
    z = (strict + mH(strict)) / 2
    idx = np.arange(L.shape[-1])
    z[..., idx, idx] = np.real(y[..., idx, idx]) / 2
    w = scipy.linalg.solve_triangular(L, z, lower=True, trans=2, check_finite=False)      # L^{-H} Z
    return mH(scipy.linalg.solve_triangular(L, mH(w), lower=True, trans=2, check_finite=False))


def cholesky_pushforward_of(L: np.ndarray, dA: np.ndarray) -> np.ndarray:
    """The tangent of the lower Cholesky factor: ``dL = L Phi(L^{-1} dA L^{-H})``.

    ``Phi`` keeps the strictly lower triangle and half the (real) diagonal.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.linalg.solves import cholesky_pushforward_of
    >>> cholesky_pushforward_of(np.array([[2.0]]), np.array([[1.0]]))     # d sqrt(a) at a = 4
    array([[0.25]])
    """
    m = scipy.linalg.solve_triangular(L, dA, lower=True, check_finite=False)
    m = mH(scipy.linalg.solve_triangular(L, mH(m), lower=True, check_finite=False))
    phi = np.tril(m, -1)
    idx = np.arange(L.shape[-1])
    phi[..., idx, idx] = np.real(m[..., idx, idx]) / 2
    return L @ phi


@rrule.register(scipy.linalg.cho_factor, np.ndarray)
def cho_factor_rrule(a: np.ndarray, lower: bool = False, overwrite_a: bool = False, check_finite: bool = True) -> Any:
    """Reverse rule of ``scipy.linalg.cho_factor``: Cholesky's pullback on the factor's triangle, identity on the other.

    The output is ``(c, lower)``; the cotangent of ``lower`` (a bool) is ``NoTangent()``.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.linalg
    >>> from chainrules import rrule, NoTangent
    >>> (c, lower), pullback = rrule(scipy.linalg.cho_factor, np.array([[4.0, 0.0], [5.0, 9.0]]))
    >>> c                                                   # upper factor; the lower triangle is a's
    array([[2., 0.],
           [5., 3.]])
    >>> pullback((np.ones((2, 2)), NoTangent()))[1]
    array([[0.25      , 0.5       ],
           [1.        , 0.16666667]])
    """
    out = scipy.linalg.cho_factor(a, lower, False, check_finite)   # a tuple; a list for stacks
    c = out[0]
    project_a = cotangent_projector(a)
    factor = np.tril(c) if lower else mH(np.triu(c))       # the lower factor L, A = L L^H

    def cho_factor_pullback(dy: Any) -> tuple[Any, ...]:
        parts = read_cotangents(dy, out, "scipy.linalg.cho_factor")
        dc = parts if passes_through(parts) else parts[0]   # lower is a flag: no cotangent
        tail = (NO, NO, NO)
        if dc is None:
            return (NO, project_a(ZeroTangent()), *tail)
        if passes_through(dc):
            return (NO, project_a(dc), *tail)
        dL = np.tril(dc) if lower else mH(np.triu(dc))
        dA = triangle_cotangent(cholesky_pullback_of(factor, dL), lower, hermitian=True)
        untouched = np.triu(dc, 1) if lower else np.tril(dc, -1)
        return (NO, project_a(dA + untouched), *tail)

    return out, cho_factor_pullback


@frule.register(scipy.linalg.cho_factor, np.ndarray)
def cho_factor_frule(tangents: Any, a: np.ndarray, lower: bool = False, overwrite_a: bool = False,
                     check_finite: bool = True) -> Any:
    """Forward rule of ``scipy.linalg.cho_factor``: Cholesky's pushforward on the factor, the identity elsewhere.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.linalg
    >>> from chainrules import frule, NoTangent
    >>> frule((NoTangent(), np.eye(2)), scipy.linalg.cho_factor, np.diag([4.0, 9.0]))[1]
    Tangent(tuple, array([[0.25      , 0.        ],
           [0.        , 0.16666667]]), NoTangent())
    """
    out = scipy.linalg.cho_factor(a, lower, False, check_finite)
    c = out[0]
    da = tangent_value(tangents[1])
    if da is None or passes_through(da):
        return out, ZeroTangent() if da is None else da
    factor = np.tril(c) if lower else mH(np.triu(c))
    dL = cholesky_pushforward_of(factor, from_triangle(da, lower, hermitian=True))
    dc = (dL + np.triu(da, 1)) if lower else (mH(dL) + np.tril(da, -1))
    return out, Tangent(type(out), ProjectTo(c)(dc), NO)


@rrule.register(scipy.linalg.cho_solve, (tuple, list), np.ndarray)
def cho_solve_rrule(c_and_lower: Any, b: np.ndarray, overwrite_b: bool = False,
                    check_finite: bool = True) -> Any:
    """Reverse rule of ``scipy.linalg.cho_solve``: ``db = A^{-1} dx`` with the same factor; the factor's cotangent.

    For ``A = L L^H``: ``dL = tril((dA + dA^H) L)``; for ``A = U^H U``: ``dU = triu(U (dA + dA^H))``,
    with ``dA = -db x^H``; the triangle not read gets zero.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.linalg
    >>> from chainrules import rrule, unthunk
    >>> factor = scipy.linalg.cho_factor(np.array([[4.0, 0.0], [0.0, 9.0]]))
    >>> x, pullback = rrule(scipy.linalg.cho_solve, factor, np.array([4.0, 9.0]))
    >>> np.round(unthunk(pullback(np.array([1.0, 0.0]))[1])[0], 4)
    array([[-1. , -0.5],
           [-0. , -0. ]])
    """
    c, lower = c_and_lower[0], bool(np.all(c_and_lower[1]))    # stacks hold one flag per matrix
    x = scipy.linalg.cho_solve(c_and_lower, b, check_finite=check_finite)
    vector = b.ndim == 1
    project_c, project_b = cotangent_projector(c), cotangent_projector(b)

    def cho_solve_pullback(dy: Any) -> tuple[Any, ...]:
        dx = read_cotangent(dy, x, "scipy.linalg.cho_solve")
        tail = (NO, NO)
        if passes_through(dx):
            return (NO, Tangent(type(c_and_lower), project_c(dx), NO), project_b(dx), *tail)

        @functools.cache
        def adjoint() -> np.ndarray:  # A is Hermitian
            return scipy.linalg.cho_solve(c_and_lower, dx, check_finite=False)

        def cotangent_factor() -> Any:
            db = adjoint()
            if lower:  # (dA + dA^H) L = -(db (x^H L) + x (db^H L))
                dc = -np.tril(_rank_update(db, x, np.tril(c), vector, left=False))
            else:  # U (dA + dA^H) = -((U db) x^H + (U x) db^H)
                dc = -np.triu(_rank_update(db, x, np.triu(c), vector, left=True))
            return Tangent(type(c_and_lower), project_c(unbroadcast(dc, c.shape)), NO)

        return (NO, Thunk(cotangent_factor), Thunk(lambda: project_b(unbroadcast(adjoint(), b.shape))), *tail)

    return x, cho_solve_pullback


def _columns(x: np.ndarray, vector: bool) -> np.ndarray:
    return x[..., None] if vector else x


def _rank_update(p: np.ndarray, q: np.ndarray, factor: np.ndarray, vector: bool, left: bool) -> np.ndarray:
    """``(p q^H + q p^H) F`` (``left=False``) or ``F (p q^H + q p^H)`` (``left=True``) in ``O(n^2 k)``."""
    p, q = _columns(p, vector), _columns(q, vector)
    if left:
        return (factor @ p) @ mH(q) + (factor @ q) @ mH(p)
    return p @ (mH(q) @ factor) + q @ (mH(p) @ factor)


@frule.register(scipy.linalg.cho_solve, (tuple, list), np.ndarray)
def cho_solve_frule(tangents: Any, c_and_lower: Any, b: np.ndarray, overwrite_b: bool = False,
                    check_finite: bool = True) -> Any:
    """Forward rule of ``scipy.linalg.cho_solve``: ``dx = A^{-1} (db - dA x)``, ``dA = dL L^H + L dL^H``.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.linalg
    >>> from chainrules import frule, NoTangent, ZeroTangent
    >>> factor = scipy.linalg.cho_factor(np.diag([4.0, 9.0]))
    >>> tangents = (NoTangent(), ZeroTangent(), np.array([4.0, 0.0]))
    >>> frule(tangents, scipy.linalg.cho_solve, factor, np.array([4.0, 9.0]))[1]
    array([1., 0.])
    """
    c, lower = c_and_lower[0], bool(np.all(c_and_lower[1]))
    x = scipy.linalg.cho_solve(c_and_lower, b, check_finite=check_finite)
    dc = tangent_parts(tangents[1], ("c", "lower"), "scipy.linalg.cho_solve frule: tangent of c_and_lower")[0]
    db = tangent_value(tangents[2])
    missing = not_implemented_in(dc, db)
    if missing is not None:
        return x, missing
    vector = b.ndim == 1
    term = None
    if dc is not None:
        dc = np.asarray(dc)
        cols = _columns(x, vector)
        if lower:
            factor, dfactor = np.tril(c), np.tril(dc)
            prod = dfactor @ (mH(factor) @ cols) + factor @ (mH(dfactor) @ cols)
        else:
            factor, dfactor = np.triu(c), np.triu(dc)
            prod = mH(dfactor) @ (factor @ cols) + mH(factor) @ (dfactor @ cols)
        term = -(prod[..., 0] if vector else prod)
    rhs = _sum_tangents(db, term)
    if rhs is None:
        return x, ZeroTangent()
    rhs = np.broadcast_to(rhs, np.broadcast_shapes(np.shape(rhs), x.shape))
    return x, ProjectTo(x)(scipy.linalg.cho_solve(c_and_lower, rhs, check_finite=False))


# ---- sample inputs ----------------------------------------------------------------------------------------
@sample_inputs(np.linalg.solve)
def _solve_samples(rng: np.random.Generator) -> list[Sample]:
    a, b = well_conditioned(3, rng), rng.standard_normal(3)
    return [
        Sample(a, b, label="3x3, vector b"),
        Sample(a, rng.standard_normal((3, 2)), label="3x3, two columns"),
        Sample(a.astype(np.float32), b.astype(np.float32), label="float32"),
        Sample(well_conditioned(3, rng, np.complex128), b + 1j * rng.standard_normal(3), label="complex"),
        Sample(np.stack([well_conditioned(2, rng), well_conditioned(2, rng)]), rng.standard_normal((2, 1)),
               label="stack of 2x2, b broadcast"),
    ]


@sample_inputs(np.linalg.tensorsolve)
def _tensorsolve_samples(rng: np.random.Generator) -> list[Sample]:
    a = well_conditioned(6, rng).reshape(2, 3, 6)
    return [
        Sample(a, rng.standard_normal((2, 3)), label="(2, 3, 6), b (2, 3)"),
        Sample(np.moveaxis(a, 2, 0), rng.standard_normal((2, 3)), (0,), label="axes by position"),
        Sample(well_conditioned(4, rng, np.complex128).reshape(4, 2, 2), rng.standard_normal(4),
               fkwargs={"axes": None}, label="complex, axes by keyword"),
    ]


@sample_inputs(scipy.linalg.solve)
def _scipy_solve_samples(rng: np.random.Generator) -> list[Sample]:
    a, b = well_conditioned(3, rng), rng.standard_normal((3, 2))
    s, h = spd(3, rng), spd(3, rng, np.complex128)
    tridiagonal = np.triu(np.tril(a, 1), -1)
    out = [
        Sample(a, b[:, 0], label="vector b"),
        Sample(a, b, label="two columns"),
        Sample(a.astype(np.float32), b.astype(np.float32), label="float32"),
        Sample(well_conditioned(3, rng, np.complex128), b, label="complex a, real b"),
        Sample(np.array([[2.5]]), rng.standard_normal((1, 3)), label="1x1"),
        Sample(np.triu(a), b, label="upper triangular a, no assume_a (structure detected)"),
        Sample(a, b, False, False, False, False, label="lower, overwrite_a, overwrite_b, check_finite by position"),
        Sample(a, b, fkwargs={"transposed": True}, label="transposed=True"),
    ]
    for kind in ("general", "gen", "diagonal", "upper triangular", "lower triangular", "banded"):
        out.append(Sample(a, b, fkwargs={"assume_a": kind}, label=f"assume_a={kind!r}"))
    out.append(Sample(tridiagonal, b, fkwargs={"assume_a": "tridiagonal"}, label="assume_a='tridiagonal'"))
    for kind, m in (("sym", s), ("her", h), ("pos", s), ("pos", h)):
        for lower in (False, True):
            out.append(Sample(m, b, fkwargs={"assume_a": kind, "lower": lower},
                              label=f"assume_a={kind!r}, {m.dtype}, lower={lower}"))
    return out


def _band_storage(a: np.ndarray, lower: int, upper: int) -> np.ndarray:
    """LAPACK band storage of ``a``: row ``upper + i - j`` holds ``a[i, j]``."""
    n = a.shape[-1]
    ab = np.zeros((lower + upper + 1, n), dtype=a.dtype)
    for i in range(n):
        for j in range(max(0, i - lower), min(n, i + upper + 1)):
            ab[upper + i - j, j] = a[i, j]
    return ab


@sample_inputs(scipy.linalg.solve_banded)
def _solve_banded_samples(rng: np.random.Generator) -> list[Sample]:
    a = well_conditioned(4, rng)
    ab = _band_storage(a, 1, 2)
    b = rng.standard_normal(4)
    return [
        Sample((1, 2), ab, b, label="one sub-, two superdiagonals, vector b"),
        Sample((1, 1), _band_storage(a, 1, 1), rng.standard_normal((4, 2)), label="tridiagonal, two columns"),
        Sample((1, 2), ab.astype(np.float32), b.astype(np.float32), label="float32"),
        Sample((0, 1), _band_storage(well_conditioned(4, rng, np.complex128), 0, 1), b, label="complex bidiagonal"),
        Sample((1, 2), ab, b, False, False, False, label="overwrite_ab, overwrite_b, check_finite by position"),
    ]


@sample_inputs(scipy.linalg.solveh_banded)
def _solveh_banded_samples(rng: np.random.Generator) -> list[Sample]:
    s, h = spd(4, rng), spd(4, rng, np.complex128)
    b = rng.standard_normal(4)
    upper, lower = _band_storage(s, 0, 1), _band_storage(s, 1, 0)
    return [
        Sample(upper, b, label="upper form, one superdiagonal"),
        Sample(upper, rng.standard_normal((4, 2)), label="two columns"),
        Sample(upper.astype(np.float32), b.astype(np.float32), label="float32"),
        Sample(lower, b, fkwargs={"lower": True}, label="lower form (keyword)"),
        Sample(lower, b, False, False, True, label="overwrite_ab, overwrite_b, lower by position"),
        Sample(_band_storage(h, 0, 2), b, label="complex Hermitian, two superdiagonals"),
    ]


@sample_inputs(scipy.linalg.solve_toeplitz)
def _solve_toeplitz_samples(rng: np.random.Generator) -> list[Sample]:
    c, r = np.array([3.0, 0.5, -0.3, 0.2]), np.array([3.0, -0.4, 0.6, 0.1])
    b = rng.standard_normal(4)
    return [
        Sample(c, b, label="c only (Hermitian Toeplitz)"),
        Sample((c, r), b, label="(c, r)"),
        Sample((c, r), rng.standard_normal((4, 2)), label="(c, r), two columns"),
        Sample(c + 0.2j * rng.standard_normal(4), b, label="complex c"),
        Sample((c, r), b, False, label="check_finite by position"),
    ]


@sample_inputs(scipy.linalg.solve_circulant)
def _solve_circulant_samples(rng: np.random.Generator) -> list[Sample]:
    c = np.array([4.0, 1.0, -0.5, 0.3])
    b = rng.standard_normal(4)
    return [
        Sample(c, b, label="vector b"),
        Sample(c, rng.standard_normal((4, 2)), label="two columns"),
        Sample(c + 0.3j * rng.standard_normal(4), b, label="complex c"),
        Sample(np.array([1.0, -1.0, 1.0, -1.0]) + np.array([1.0, 0.0, 0.0, 0.0]), b,
               fkwargs={"singular": "lstsq"}, label="singular='lstsq' (an eigenvalue discarded)"),
        Sample(c, rng.standard_normal((2, 4)), "raise", None, -1, 1, 1, label="options by position, baxis=outaxis=1"),
    ]


@sample_inputs(scipy.linalg.lu_factor)
def _lu_factor_samples(rng: np.random.Generator) -> list[Sample]:
    a = rng.standard_normal((3, 3))
    return [
        Sample(a, label="3x3"),
        Sample(a.astype(np.float32), label="float32"),
        Sample(a + 1j * rng.standard_normal((3, 3)), label="complex"),
        Sample(rng.standard_normal((4, 2)), label="tall 4x2"),
        Sample(rng.standard_normal((2, 4)), False, False, label="wide 2x4, overwrite_a, check_finite by position"),
    ]


@sample_inputs(scipy.linalg.lu_solve)
def _lu_solve_samples(rng: np.random.Generator) -> list[Sample]:
    a = rng.standard_normal((3, 3))
    factors = scipy.linalg.lu_factor(a)
    complex_factors = scipy.linalg.lu_factor(a + 1j * rng.standard_normal((3, 3)))
    b = rng.standard_normal(3)
    return [
        Sample(factors, b, label="vector b"),
        Sample(factors, rng.standard_normal((3, 2)), label="two columns"),
        Sample(factors, b, 1, label="trans=1 by position"),
        Sample(complex_factors, b, fkwargs={"trans": 2}, label="complex, trans=2 by keyword"),
        Sample(complex_factors, b, fkwargs={"trans": 1}, label="complex, trans=1"),
        Sample(scipy.linalg.lu_factor(a.astype(np.float32)), b.astype(np.float32), label="float32"),
    ]


@sample_inputs(scipy.linalg.cho_factor)
def _cho_factor_samples(rng: np.random.Generator) -> list[Sample]:
    s = spd(3, rng)
    return [
        Sample(s, label="upper factor (default)"),
        Sample(s, True, label="lower=True by position"),
        Sample(s.astype(np.float32), fkwargs={"lower": True}, label="float32, lower by keyword"),
        Sample(spd(3, rng, np.complex128), label="complex Hermitian"),
    ]


@sample_inputs(scipy.linalg.cho_solve)
def _cho_solve_samples(rng: np.random.Generator) -> list[Sample]:
    s, b = spd(3, rng), rng.standard_normal(3)
    return [
        Sample(scipy.linalg.cho_factor(s), b, label="upper factor, vector b"),
        Sample(scipy.linalg.cho_factor(s, lower=True), rng.standard_normal((3, 2)), label="lower factor, two columns"),
        Sample(scipy.linalg.cho_factor(spd(3, rng, np.complex128)), b, label="complex"),
        Sample(scipy.linalg.cho_factor(s.astype(np.float32)), b.astype(np.float32), False, False,
               label="float32, overwrite_b and check_finite by position"),
    ]
