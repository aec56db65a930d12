"""``scipy.sparse.linalg.spsolve(A, b)`` (the sparse direct solve, with one factorization for both ways) and
``spsolve_triangular(A, b)``.

For ``x = A^{-1} b`` (Giles 2008): ``db = A^{-H} dx`` and ``dA = -db x^H``, restricted to
the stored pattern of ``A`` (``ProjectTo``): ``dA_ij = -sum_k db_ik conj(x_jk)`` at each
stored ``(i, j)``, ``O(nnz k)``, never a dense ``n x n`` matrix.

The rule factorizes ``A`` once with SuperLU (``scipy.sparse.linalg.splu``, honouring
``permc_spec``), solves the forward system with it, and the pullback solves the adjoint
system ``A^H db = dx`` with the same factors (``solve(trans="H")``): the cost of a
pullback is two triangular sweeps, not a second factorization. (``use_umfpack`` is
accepted and ignored: the result is the same solution.) The output has ``spsolve``'s
shape: a vector for ``b`` of shape ``(n,)`` or ``(n, 1)``.

A singular ``A`` is left to ``spsolve`` itself, which warns and returns NaN; the
cotangents are then NaN as well. ``b`` must be dense.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg

from chainrules.rulesets.structured_matrices._samples import sparse
from chainrules.rulesets.structured_matrices._tangents import (
    NO,
    add_tangents,
    conj,
    read_output,
    tangent_of,
)
from chainrules.structured.base import as_columns, inexact
from chainrules.structured.sparse import SPARSE_TYPES
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


class _SparseLU:
    """SuperLU factors of ``A`` (or ``None`` for a singular ``A``) and the dtype of the solution."""

    __slots__ = ("dtype", "lu")

    def __init__(self, A: Any, b: np.ndarray, permc_spec: Any) -> None:
        self.dtype = np.result_type(inexact(A.dtype), inexact(b.dtype))
        try:
            self.lu = scipy.sparse.linalg.splu(sp.csc_array(A, dtype=self.dtype), permc_spec=permc_spec)
        except RuntimeError:  # "Factor is exactly singular": spsolve decides what the primal is
            self.lu = None

    def solve(self, rhs: np.ndarray, trans: str = "N") -> np.ndarray:
        if self.lu is None:
            return np.full(rhs.shape, np.nan, dtype=self.dtype)
        return self.lu.solve(np.asarray(rhs, dtype=self.dtype), trans=trans)


def _solution(A: Any, b: np.ndarray, factors: _SparseLU, permc_spec: Any, use_umfpack: Any) -> np.ndarray:
    if factors.lu is None:
        return scipy.sparse.linalg.spsolve(A, b, permc_spec, use_umfpack)
    x = factors.solve(b)
    vector = b.ndim == 1 or (b.ndim == 2 and b.shape[1] == 1)
    return x.ravel() if vector else x


def _check_shapes(A: Any, b: np.ndarray) -> None:
    if A.shape[0] != A.shape[1] or b.shape[0] != A.shape[0]:
        # spsolve's own message for bad input
        scipy.sparse.linalg.spsolve(A, b)


@rrule.register(scipy.sparse.linalg.spsolve, SPARSE_TYPES, np.ndarray)
def spsolve_rrule(A: Any, b: np.ndarray, permc_spec: Any = None, use_umfpack: Any = True) -> Any:
    """Reverse rule of ``scipy.sparse.linalg.spsolve(A, b)`` (see the module docstring).

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.sparse as sp
    >>> import scipy.sparse.linalg
    >>> from chainrules import rrule, unthunk
    >>> A = sp.csc_array(np.array([[2.0, 0.0], [1.0, 4.0]]))
    >>> x, pullback = rrule(scipy.sparse.linalg.spsolve, A, np.array([2.0, 5.0]))
    >>> _, dA, db = pullback(np.array([1.0, 0.0]))
    >>> x, unthunk(dA).toarray(), unthunk(db)
    (array([1., 1.]), array([[-0.5,  0. ],
           [ 0. ,  0. ]]), array([0.5, 0. ]))
    """
    _check_shapes(A, b)
    factors = _SparseLU(A, b, permc_spec)
    x = _solution(A, b, factors, permc_spec, use_umfpack)
    project_A: Any = cotangent_projector(A)
    project_b, project_x = cotangent_projector(b), ProjectTo(x)
    n = A.shape[0]

    def spsolve_pullback(dy: Any) -> tuple[Any, ...]:
        dx = read_output(dy, x, "scipy.sparse.linalg.spsolve", project_x)
        if passes_through(dx):
            return NO, project_A(dx), project_b(dx), NO, NO
        dx_cols, _ = as_columns(np.asarray(dx), n, "spsolve pullback")
        db_cols = factors.solve(dx_cols, trans="H")  # the adjoint solve, with the forward factors

        def cotangent_of_a() -> Any:
            x_cols, _ = as_columns(x, n, "spsolve pullback")
            return project_A.gather_product(-db_cols, conj(x_cols).T)

        return NO, Thunk(cotangent_of_a), Thunk(lambda: project_b(db_cols.reshape(b.shape))), NO, NO

    return x, spsolve_pullback


@frule.register(scipy.sparse.linalg.spsolve, SPARSE_TYPES, np.ndarray)
def spsolve_frule(tangents: Any, A: Any, b: np.ndarray, permc_spec: Any = None, use_umfpack: Any = True) -> Any:
    """Forward rule of ``spsolve(A, b)``: ``dx = A^{-1} (db - dA x)``, with the same factorization.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> import scipy.sparse as sp
    >>> import scipy.sparse.linalg
    >>> A = sp.csc_array(np.diag([2.0, 4.0]))
    >>> frule((NoTangent(), A, np.ones(2)), scipy.sparse.linalg.spsolve, A, np.zeros(2))
    (array([0., 0.]), array([0.5 , 0.25]))
    """
    _check_shapes(A, b)
    factors = _SparseLU(A, b, permc_spec)
    x = _solution(A, b, factors, permc_spec, use_umfpack)
    dA, db = tangent_of(tangents[1]), tangent_of(tangents[2])
    x_cols, _ = as_columns(x, A.shape[0], "spsolve")
    rhs = add_tangents(None if db is None else np.asarray(db).reshape(x_cols.shape),
                       None if dA is None else -(dA @ x_cols))
    if rhs is None:
        return x, ZeroTangent()
    return x, ProjectTo(x)(factors.solve(np.asarray(rhs)).reshape(x.shape))


# ---- sample inputs ----------------------------------------------------------------------------------------
@sample_inputs(scipy.sparse.linalg.spsolve)
def _spsolve_samples(rng: np.random.Generator) -> list[Sample]:
    b = rng.standard_normal(4)
    return [
        Sample(sparse(rng, "csc", (4, 4), shift=3.0), b, label="csc, vector b"),
        Sample(sparse(rng, "csr", (4, 4), shift=3.0), rng.standard_normal((4, 2)), label="csr, two columns"),
        Sample(sparse(rng, "csc", (4, 4), np.complex128, shift=3.0), b, label="complex"),
        Sample(sparse(rng, "csc", (4, 4), shift=3.0, matrix=True), b, "NATURAL", label="csc_matrix, permc_spec"),
        Sample(sparse(rng, "coo", (4, 4), shift=3.0), b, fkwargs={"use_umfpack": False}, label="coo, use_umfpack"),
    ]


# ---- spsolve_triangular ---------------------------------------------------------------------------------------
def _triangle(A: Any, lower: bool, unit_diagonal: bool) -> Any:
    """The triangle of ``A`` that ``spsolve_triangular`` reads (without the diagonal for a unit one)."""
    k = (-1 if lower else 1) if unit_diagonal else 0
    return sp.tril(A, k, format="csr") if lower else sp.triu(A, k, format="csr")


def _is_triangular(A: Any, lower: bool) -> bool:
    outside = sp.triu(A, 1) if lower else sp.tril(A, -1)
    return outside.count_nonzero() == 0


def _used_mask(pattern: Any, lower: bool, unit_diagonal: bool) -> np.ndarray:
    rows, cols = pattern.rows, pattern.cols
    if lower:
        return rows > cols if unit_diagonal else rows >= cols
    return rows < cols if unit_diagonal else rows <= cols


_NOT_TRIANGULAR = ("scipy.sparse.linalg.spsolve_triangular: A has stored nonzeros outside its {} triangle, where "
                   "SciPy's result is not a triangular solve; pass sp.{}(A) to solve with the triangle")


@rrule.register(scipy.sparse.linalg.spsolve_triangular, SPARSE_TYPES, np.ndarray)
def spsolve_triangular_rrule(A: Any, b: np.ndarray, lower: Any = True, overwrite_A: Any = False,
                             overwrite_b: Any = False, unit_diagonal: Any = False) -> Any:
    """Reverse rule of ``scipy.sparse.linalg.spsolve_triangular(A, b)``.

    ``x = T^{-1} b`` for the triangle ``T`` of ``A`` (its strict triangle with a unit
    diagonal): ``db = T^{-H} dx`` (a triangular solve of the other side with ``A^H``) and
    ``dA = -db x^H`` at the stored entries of the triangle, ``O(nnz k)`` (Giles 2008). The
    ``overwrite_*`` flags are ignored (the rule never overwrites its inputs). A ``dA`` for an
    ``A`` that is not triangular is not implemented (SciPy's result is then not a solve
    with its triangle).

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.sparse as sp
    >>> import scipy.sparse.linalg
    >>> from chainrules import rrule, unthunk
    >>> A = sp.csr_array(np.array([[2.0, 0.0], [1.0, 4.0]]))
    >>> x, pullback = rrule(scipy.sparse.linalg.spsolve_triangular, A, np.array([2.0, 5.0]))
    >>> _, dA, db = pullback(np.array([1.0, 0.0]))
    >>> x, unthunk(dA).toarray(), unthunk(db)
    (array([1., 1.]), array([[-0.5,  0. ],
           [ 0. ,  0. ]]), array([0.5, 0. ]))
    """
    lower, unit = bool(lower), bool(unit_diagonal)
    x = scipy.sparse.linalg.spsolve_triangular(A, b, lower=lower, unit_diagonal=unit)
    project_A: Any = cotangent_projector(A)
    project_b, project_x = cotangent_projector(b), ProjectTo(x)
    triangular = _is_triangular(A, lower)
    n = A.shape[0]

    def spsolve_triangular_pullback(dy: Any) -> tuple[Any, ...]:
        dx = read_output(dy, x, "scipy.sparse.linalg.spsolve_triangular", project_x)
        if passes_through(dx):
            return NO, project_A(dx), project_b(dx), NO, NO, NO, NO
        adjoint = sp.csr_array(conj(A).T)
        dx_cols, _ = as_columns(np.asarray(dx), n, "spsolve_triangular pullback")
        db_cols = np.asarray(scipy.sparse.linalg.spsolve_triangular(adjoint, dx_cols.astype(
            np.result_type(dx_cols, x), copy=False), lower=not lower, unit_diagonal=unit))

        def cotangent_of_a() -> Any:
            if not triangular:
                return not_implemented(_NOT_TRIANGULAR.format("lower" if lower else "upper",
                                                              "tril" if lower else "triu"))
            x_cols, _ = as_columns(x, n, "spsolve_triangular pullback")
            full = project_A.gather_product(-db_cols, conj(x_cols).T)
            values = project_A.pattern.gather(full) * _used_mask(project_A.pattern, lower, unit)
            return project_A.from_values(values)

        return (NO, Thunk(cotangent_of_a), Thunk(lambda: project_b(db_cols.reshape(b.shape))), NO, NO, NO, NO)

    return x, spsolve_triangular_pullback


@frule.register(scipy.sparse.linalg.spsolve_triangular, SPARSE_TYPES, np.ndarray)
def spsolve_triangular_frule(tangents: Any, A: Any, b: np.ndarray, lower: Any = True,
                             overwrite_A: Any = False, overwrite_b: Any = False, unit_diagonal: Any = False) -> Any:
    """Forward rule of ``spsolve_triangular(A, b)``: ``dx = T^{-1} (db - dT x)``, ``dT`` the triangle of ``dA``.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.sparse as sp
    >>> import scipy.sparse.linalg
    >>> from chainrules import frule, NoTangent
    >>> A = sp.csr_array(np.diag([2.0, 4.0]))
    >>> frule((NoTangent(), A, np.ones(2)), scipy.sparse.linalg.spsolve_triangular, A, np.zeros(2))
    (array([0., 0.]), array([0.5 , 0.25]))
    """
    lower, unit = bool(lower), bool(unit_diagonal)
    x = scipy.sparse.linalg.spsolve_triangular(A, b, lower=lower, unit_diagonal=unit)
    dA, db = tangent_of(tangents[1]), tangent_of(tangents[2])
    if dA is not None and not _is_triangular(A, lower):
        return x, not_implemented(_NOT_TRIANGULAR.format("lower" if lower else "upper", "tril" if lower else "triu"))
    rhs = add_tangents(None if db is None else np.asarray(db),
                       None if dA is None else -(_triangle(ProjectTo(A)(dA), lower, unit) @ x))
    if rhs is None:
        return x, ZeroTangent()
    rhs = np.asarray(rhs).astype(np.result_type(rhs, x), copy=False)
    return x, ProjectTo(x)(scipy.sparse.linalg.spsolve_triangular(A, rhs, lower=lower, unit_diagonal=unit))


@sample_inputs(scipy.sparse.linalg.spsolve_triangular)
def _spsolve_triangular_samples(rng: np.random.Generator) -> list[Sample]:
    def lower_triangle(fmt: str, dtype: Any = np.float64, upper: bool = False) -> Any:
        A = sparse(rng, "coo", (4, 4), dtype, shift=3.0)
        return (sp.triu(A) if upper else sp.tril(A)).asformat(fmt)

    return [
        Sample(lower_triangle("csr"), rng.standard_normal(4), label="lower, vector b"),
        Sample(lower_triangle("csr", upper=True), rng.standard_normal((4, 2)), False, label="upper by position"),
        Sample(lower_triangle("csc"), rng.standard_normal(4), fkwargs={"unit_diagonal": True},
               label="unit diagonal (stored diagonal ignored)"),
        Sample(lower_triangle("csr", np.complex128), rng.standard_normal(4) + 1j, label="complex"),
        Sample(lower_triangle("csr", np.float32), rng.standard_normal(4).astype(np.float32), label="float32"),
    ]


# ---- inv -----------------------------------------------------------------------------------------------------
@rrule.register(scipy.sparse.linalg.inv, SPARSE_TYPES)
def sparse_inv_rrule(A: Any) -> Any:
    """Reverse rule of ``scipy.sparse.linalg.inv(A)``: ``dA = -Y^H dY Y^H`` on ``A``'s pattern (Giles 2008).

    ``dY`` is read on the pattern of the output ``Y = A^{-1}`` (itself sparse) and the
    products are sparse products.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.sparse as sp
    >>> import scipy.sparse.linalg
    >>> from chainrules import rrule
    >>> A = sp.csc_array(np.diag([2.0, 4.0]))
    >>> y, pullback = rrule(scipy.sparse.linalg.inv, A)
    >>> pullback(np.eye(2))[1].toarray()
    array([[-0.25  ,  0.    ],
           [ 0.    , -0.0625]])
    """
    y = scipy.sparse.linalg.inv(A)
    project_A: Any = cotangent_projector(A)
    project_y = ProjectTo(y)

    def inv_pullback(dy: Any) -> tuple[Any, Any]:
        Ybar = read_output(dy, y, "scipy.sparse.linalg.inv", project_y)
        if passes_through(Ybar):
            return NO, project_A(Ybar)
        YH = conj(y).T
        return NO, project_A(-(YH @ Ybar @ YH))

    return y, inv_pullback


@frule.register(scipy.sparse.linalg.inv, SPARSE_TYPES)
def sparse_inv_frule(tangents: Any, A: Any) -> Any:
    """Forward rule of ``scipy.sparse.linalg.inv(A)``: ``-Y dA Y`` on the output's pattern.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.sparse as sp
    >>> import scipy.sparse.linalg
    >>> from chainrules import frule, NoTangent
    >>> A = sp.csc_array(np.diag([2.0, 4.0]))
    >>> frule((NoTangent(), A), scipy.sparse.linalg.inv, A)[1].toarray()
    array([[-0.5 ,  0.  ],
           [ 0.  , -0.25]])
    """
    y = scipy.sparse.linalg.inv(A)
    dA = tangent_of(tangents[1])
    if dA is None:
        return y, ZeroTangent()
    return y, ProjectTo(y)(-(y @ ProjectTo(A)(dA) @ y))


@sample_inputs(scipy.sparse.linalg.inv)
def _inv_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample(sparse(rng, "csc", (4, 4), shift=3.0), label="csc"),
        Sample(sparse(rng, "csr", (3, 3), np.complex128, shift=3.0), label="complex csr"),
        Sample(sp.csc_array(sp.diags_array([1.5, 2.0, -3.0])), label="diagonal (a sparse inverse)"),
        Sample(sparse(rng, "csc", (3, 3), shift=3.0, matrix=True), label="csc_matrix"),
    ]
