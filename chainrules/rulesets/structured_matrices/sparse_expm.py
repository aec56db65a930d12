"""``scipy.sparse.linalg.expm_multiply(A, B)``: the action of the matrix exponential, differentiated with
respect to the stored entries of ``A`` and to ``B``.

The maths
---------
``Y = e^A B``. Its derivative in ``A`` along ``E`` is ``L(A, E) B``, with ``L`` the Fréchet
derivative of the exponential, which is the upper-right block of the exponential of a
block-triangular matrix (Al-Mohy & Higham 2009, "Computing the Fréchet derivative of the
matrix exponential, with an application to condition number estimation", SIAM J. Matrix
Anal. Appl. 30(4), eq. (2.3); Higham, *Functions of Matrices*, 2008, Thm 3.6)::

    exp([[A, E], [0, A]]) = [[e^A, L(A, E)], [0, e^A]]

* frule: one ``expm_multiply`` of size ``2n``: the top half of
  ``exp([[A, dA], [0, A]]) [dB; B]`` is ``e^A dB + L(A, dA) B = dY``; with a time grid
  (``start``, ``stop``, ``num``) the same call gives ``dY(t)`` at every ``t``, since
  ``exp(t [[A, dA], [0, A]])`` holds ``L(tA, t dA)``.
* pullback: ``dB = e^{A^H} dY`` (one adjoint ``expm_multiply``) and
  ``dA = L(A^H, dY B^H)`` (the adjoint of ``E -> L(A, E) B``; ``L(A, .)^* = L(A^H, .)``)
  at the stored entries of ``A``, read off the upper-right block of
  ``exp([[A^H, dY B^H], [0, A^H]])`` column by column (a ``LinearOperator``: ``dY B^H`` is
  never formed). That is ``n`` columns of a ``2n`` ``expm_multiply``: ``dA`` is a thunk,
  computed only when it is used (hold ``A`` fixed for large ``n``: ``dB`` alone costs one
  solve-sized call). The time-grid form has no pullback yet (``not_implemented``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg

from chainrules.rulesets.structured_matrices._samples import sparse
from chainrules.rulesets.structured_matrices._tangents import NO, conj, read_output, tangent_of
from chainrules.structured.base import inexact
from chainrules.structured.sparse import SPARSE_TYPES, is_sparse
from chainrules_core import (
    ProjectTo,
    Sample,
    Thunk,
    ZeroTangent,
    cotangent_projector,
    frule,
    not_implemented,
    passes_through,
    rrule,
    sample_inputs,
)

MATRIX = (*SPARSE_TYPES, np.ndarray)
_COLUMNS = 64  # columns of the Fréchet derivative computed per expm_multiply call


def _trace(A: Any) -> Any:
    return A.trace() if is_sparse(A) else np.trace(A)


def _grid(start: Any, stop: Any, num: Any, endpoint: Any) -> dict[str, Any]:
    return {"start": start, "stop": stop, "num": num, "endpoint": endpoint}


def _frechet_columns(AH: Any, Ybar: np.ndarray, B: np.ndarray, cols: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """Columns ``cols`` of ``L(A^H, Ybar B^H)``: the top half of ``exp([[A^H, Ybar B^H], [0, A^H]]) [0; e_j]``."""
    n = AH.shape[0]
    BH = conj(B).T

    def matmat(X: np.ndarray) -> np.ndarray:
        X = np.asarray(X).reshape(2 * n, -1)
        top, bottom = X[:n], X[n:]
        return np.vstack([np.asarray(AH @ top) + Ybar @ (BH @ bottom), np.asarray(AH @ bottom)])

    def rmatmat(X: np.ndarray) -> np.ndarray:
        X = np.asarray(X).reshape(2 * n, -1)
        top, bottom = X[:n], X[n:]
        A = conj(AH).T
        return np.vstack([np.asarray(A @ top), B @ (conj(Ybar).T @ top) + np.asarray(A @ bottom)])

    M = scipy.sparse.linalg.LinearOperator((2 * n, 2 * n), matvec=matmat, rmatvec=rmatmat, matmat=matmat,
                                           rmatmat=rmatmat, dtype=dtype)
    E = np.zeros((2 * n, len(cols)), dtype=dtype)
    E[n + cols, np.arange(len(cols))] = 1
    return np.asarray(scipy.sparse.linalg.expm_multiply(M, E, traceA=2 * _trace(AH)))[:n]


@rrule.register(scipy.sparse.linalg.expm_multiply, MATRIX, np.ndarray)
def expm_multiply_rrule(A: Any, B: np.ndarray, start: Any = None, stop: Any = None, num: Any = None,
                        endpoint: Any = None, traceA: Any = None) -> Any:
    """Reverse rule of ``scipy.sparse.linalg.expm_multiply(A, B)`` (see the module docstring).

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.sparse as sp
    >>> import scipy.sparse.linalg
    >>> from chainrules import rrule, unthunk
    >>> A = sp.csc_array(np.diag([0.0, np.log(2.0)]))
    >>> y, pullback = rrule(scipy.sparse.linalg.expm_multiply, A, np.array([1.0, 1.0]))
    >>> _, dA, dB = pullback(np.array([1.0, 1.0]))
    >>> np.round(y, 12), np.round(unthunk(dA).toarray(), 12), np.round(unthunk(dB), 12)
    (array([1., 2.]), array([[1., 0.],
           [0., 2.]]), array([1., 2.]))
    """
    grid = _grid(start, stop, num, endpoint)
    y = scipy.sparse.linalg.expm_multiply(A, B, **grid, traceA=traceA)
    project_A: Any = cotangent_projector(A)
    project_B, project_y = cotangent_projector(B), ProjectTo(y)
    on_grid = start is not None or stop is not None or num is not None
    dtype = np.result_type(inexact(A.dtype), inexact(B.dtype))

    def expm_multiply_pullback(dy: Any) -> tuple[Any, ...]:
        Ybar = read_output(dy, y, "scipy.sparse.linalg.expm_multiply", project_y)
        rest = (NO,) * 5
        if passes_through(Ybar):
            return NO, project_A(Ybar), project_B(Ybar), *rest
        if on_grid:
            reason = "scipy.sparse.linalg.expm_multiply: no pullback for the time-grid form (start/stop/num) yet"
            return NO, not_implemented(reason), not_implemented(reason), *rest
        AH = conj(A).T
        if is_sparse(AH):
            AH = sp.csr_array(AH)
        Ybar = np.asarray(Ybar, dtype=dtype)

        def cotangent_of_a() -> Any:
            Y2, B2 = Ybar.reshape(Ybar.shape[0], -1), np.asarray(B, dtype=dtype).reshape(B.shape[0], -1)
            if not is_sparse(A):
                columns = _frechet_columns(AH, Y2, B2, np.arange(A.shape[1]), dtype)
                return project_A(columns)
            pattern = project_A.pattern
            values = np.zeros(pattern.size, dtype=dtype)
            wanted = np.unique(pattern.cols)
            for start_at in range(0, len(wanted), _COLUMNS):
                cols = wanted[start_at:start_at + _COLUMNS]
                block = _frechet_columns(AH, Y2, B2, cols, dtype)
                where = np.searchsorted(cols, pattern.cols)
                inside = (where < len(cols)) & (cols[np.minimum(where, len(cols) - 1)] == pattern.cols)
                values[inside] = block[pattern.rows[inside], where[inside]]
            return project_A.from_values(values)

        def cotangent_of_b() -> Any:
            return project_B(scipy.sparse.linalg.expm_multiply(AH, Ybar, traceA=np.conj(_trace(A))))

        return NO, Thunk(cotangent_of_a), Thunk(cotangent_of_b), *rest

    return y, expm_multiply_pullback


@frule.register(scipy.sparse.linalg.expm_multiply, MATRIX, np.ndarray)
def expm_multiply_frule(tangents: Any, A: Any, B: np.ndarray, start: Any = None, stop: Any = None, num: Any = None,
                        endpoint: Any = None, traceA: Any = None) -> Any:
    """Forward rule of ``expm_multiply(A, B)``: the top half of ``exp([[A, dA], [0, A]]) [dB; B]``.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.sparse as sp
    >>> import scipy.sparse.linalg
    >>> from chainrules import frule, NoTangent
    >>> A = sp.csc_array(np.diag([0.0, np.log(2.0)]))
    >>> np.round(frule((NoTangent(), A, np.zeros(2)), scipy.sparse.linalg.expm_multiply, A, np.ones(2))[1], 6)
    array([0.      , 1.386294])
    """
    grid = _grid(start, stop, num, endpoint)
    y = scipy.sparse.linalg.expm_multiply(A, B, **grid, traceA=traceA)
    dA, dB = tangent_of(tangents[1]), tangent_of(tangents[2])
    if dA is None and dB is None:
        return y, ZeroTangent()
    n = A.shape[0]
    dtype = np.result_type(inexact(A.dtype), inexact(B.dtype),
                           *(inexact(np.asarray(d.dtype if hasattr(d, "dtype") else d).dtype) for d in (dA, dB)
                             if d is not None))
    if dA is None:
        return y, ProjectTo(y)(scipy.sparse.linalg.expm_multiply(A, np.asarray(dB), **grid, traceA=traceA))
    dA = ProjectTo(A)(dA)
    if is_sparse(A):
        big = sp.block_array([[A, dA], [None, A]], format="csr", dtype=dtype)
    else:
        big = np.block([[A, dA], [np.zeros_like(A), A]]).astype(dtype)
    B = np.asarray(B)
    top = np.zeros(B.shape, dtype=dtype) if dB is None else np.asarray(dB, dtype=dtype)
    stacked = np.concatenate([top, B.astype(dtype)], axis=0)
    both = scipy.sparse.linalg.expm_multiply(big, stacked, **grid, traceA=None if traceA is None else 2 * traceA)
    return y, ProjectTo(y)(np.asarray(both)[..., :n, :] if B.ndim == 2 else np.asarray(both)[..., :n])


# ---- sample inputs ----------------------------------------------------------------------------------------
@sample_inputs(scipy.sparse.linalg.expm_multiply)
def _expm_multiply_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample(sparse(rng, "csc", (4, 4)), rng.standard_normal(4), label="csc, a vector"),
        Sample(sparse(rng, "csr", (4, 4), np.complex128), rng.standard_normal((4, 2)) + 0j, label="complex, matrix B"),
        Sample(sparse(rng, "coo", (3, 3)) * 2.0, rng.standard_normal(3), label="coo, larger norm"),
        Sample(rng.standard_normal((3, 3)) * 0.5, rng.standard_normal((3, 2)), label="a dense A"),
        Sample(sparse(rng, "csr", (3, 3)), rng.standard_normal(3), fkwargs={"traceA": None}, label="traceA keyword"),
    ]


# ---- expm -------------------------------------------------------------------------------------------------------
def _upper_right(A: Any, E: Any) -> Any:
    """``L(A, E)``: the upper-right block of ``expm([[A, E], [0, A]])`` (sparse in, sparse out)."""
    n = A.shape[0]
    big = sp.block_array([[A, E], [None, A]], format="csc")
    return sp.csc_array(scipy.sparse.linalg.expm(big))[:n, n:]


@rrule.register(scipy.sparse.linalg.expm, SPARSE_TYPES)
def sparse_expm_rrule(A: Any) -> Any:
    """Reverse rule of ``scipy.sparse.linalg.expm(A)``: ``dA = L(A^H, dY)`` on ``A``'s pattern.

    ``L`` is read off the block-triangular exponential ``expm([[A^H, dY], [0, A^H]])`` (Al-Mohy &
    Higham 2009, eq. (2.3)), a sparse ``expm`` of size ``2n`` with ``dY`` on the output's pattern.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.sparse as sp
    >>> import scipy.sparse.linalg
    >>> from chainrules import rrule
    >>> A = sp.csc_array(np.diag([0.0, np.log(2.0)]))
    >>> y, pullback = rrule(scipy.sparse.linalg.expm, A)
    >>> np.round(pullback(np.eye(2))[1].toarray(), 12)
    array([[1., 0.],
           [0., 2.]])
    """
    y = scipy.sparse.linalg.expm(A)
    project_A: Any = cotangent_projector(A)
    project_y = ProjectTo(y)

    def expm_pullback(dy: Any) -> tuple[Any, Any]:
        Ybar = read_output(dy, y, "scipy.sparse.linalg.expm", project_y)
        if passes_through(Ybar):
            return NO, project_A(Ybar)
        dtype = np.result_type(inexact(A.dtype), Ybar.dtype)
        AH = sp.csc_array(conj(A).T, dtype=dtype)
        return NO, project_A(_upper_right(AH, sp.csc_array(Ybar, dtype=dtype)))

    return y, expm_pullback


@frule.register(scipy.sparse.linalg.expm, SPARSE_TYPES)
def sparse_expm_frule(tangents: Any, A: Any) -> Any:
    """Forward rule of ``scipy.sparse.linalg.expm(A)``: ``L(A, dA)``, the upper-right block of
    ``expm([[A, dA], [0, A]])``, on the output's pattern.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.sparse as sp
    >>> import scipy.sparse.linalg
    >>> from chainrules import frule, NoTangent
    >>> A = sp.csc_array(np.diag([0.0, np.log(2.0)]))
    >>> np.round(frule((NoTangent(), A), scipy.sparse.linalg.expm, A)[1].toarray(), 12)
    array([[0.      , 0.      ],
           [0.      , 1.386294]])
    """
    y = scipy.sparse.linalg.expm(A)
    dA = tangent_of(tangents[1])
    if dA is None:
        return y, ZeroTangent()
    dA = ProjectTo(A)(dA)
    dtype = np.result_type(inexact(A.dtype), dA.dtype)
    return y, ProjectTo(y)(_upper_right(sp.csc_array(A, dtype=dtype), sp.csc_array(dA, dtype=dtype)))


@sample_inputs(scipy.sparse.linalg.expm)
def _expm_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample(sparse(rng, "csc", (4, 4)), label="csc"),
        Sample(sparse(rng, "csr", (3, 3), np.complex128), label="complex csr"),
        Sample(sparse(rng, "coo", (3, 3)) * 3.0, label="coo, larger norm (scaling and squaring)"),
        Sample(sparse(rng, "csc", (3, 3), matrix=True), label="csc_matrix"),
    ]


# ---- matrix_power -------------------------------------------------------------------------------------------
@rrule.register(scipy.sparse.linalg.matrix_power, SPARSE_TYPES, (int, np.integer))
def sparse_matrix_power_rrule(A: Any, power: int) -> Any:
    """Reverse rule of ``scipy.sparse.linalg.matrix_power(A, p)``: ``dA = sum_k (A^H)^k dY (A^H)^(p-1-k)``
    on ``A``'s pattern (the product rule), with sparse products.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.sparse as sp
    >>> import scipy.sparse.linalg
    >>> from chainrules import rrule
    >>> A = sp.csr_array(np.diag([2.0, 3.0]))
    >>> y, pullback = rrule(scipy.sparse.linalg.matrix_power, A, 3)
    >>> pullback(np.eye(2))[1].toarray()
    array([[12.,  0.],
           [ 0., 27.]])
    """
    y = scipy.sparse.linalg.matrix_power(A, power)
    project_A: Any = cotangent_projector(A)
    project_y = ProjectTo(y)

    def matrix_power_pullback(dy: Any) -> tuple[Any, Any, Any]:
        Ybar = read_output(dy, y, "scipy.sparse.linalg.matrix_power", project_y)
        if passes_through(Ybar):
            return NO, project_A(Ybar), NO
        AH = sp.csr_array(conj(A).T)
        left = [sp.eye_array(A.shape[0], format="csr")]  # (A^H)^k, k = 0 .. p-1
        for _ in range(power - 1):
            left.append(left[-1] @ AH)
        total = None
        for k in range(power):
            term = left[k] @ sp.csr_array(Ybar) @ left[power - 1 - k]
            total = term if total is None else total + term
        return NO, project_A(total) if total is not None else ZeroTangent(), NO

    return y, matrix_power_pullback


@frule.register(scipy.sparse.linalg.matrix_power, SPARSE_TYPES, (int, np.integer))
def sparse_matrix_power_frule(tangents: Any, A: Any, power: int) -> Any:
    """Forward rule of ``matrix_power(A, p)``: ``sum_k A^k dA A^(p-1-k)`` on the output's pattern.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.sparse as sp
    >>> import scipy.sparse.linalg
    >>> from chainrules import frule, NoTangent
    >>> A = sp.csr_array(np.diag([2.0, 3.0]))
    >>> frule((NoTangent(), A, NoTangent()), scipy.sparse.linalg.matrix_power, A, 2)[1].toarray()
    array([[ 8.,  0.],
           [ 0., 18.]])
    """
    y = scipy.sparse.linalg.matrix_power(A, power)
    dA = tangent_of(tangents[1])
    if dA is None or power == 0:
        return y, ZeroTangent()
    dA = sp.csr_array(ProjectTo(A)(dA))
    powers = [sp.eye_array(A.shape[0], format="csr")]
    for _ in range(power - 1):
        powers.append(powers[-1] @ sp.csr_array(A))
    total = sum((powers[k] @ dA @ powers[power - 1 - k] for k in range(1, power)), powers[0] @ dA @ powers[power - 1])
    return y, ProjectTo(y)(total)


@sample_inputs(scipy.sparse.linalg.matrix_power)
def _matrix_power_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample(sparse(rng, "csr", (4, 4)), 3, label="csr, cube"),
        Sample(sparse(rng, "csc", (3, 3), np.complex128), 2, label="complex square"),
        Sample(sparse(rng, "coo", (3, 3), matrix=True), 1, label="coo_matrix, first power"),
        Sample(sparse(rng, "csr", (3, 3), np.float32), 4, label="float32", rtol=1e-3),
    ]
