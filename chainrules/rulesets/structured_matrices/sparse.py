"""Rules for ``scipy.sparse`` arrays and matrices: ``A @ x``, ``x @ A``, ``A @ B``, ``A.T`` /
``A.transpose()``, ``A.sum()`` and ``A.multiply(B)``.

Every cotangent of a sparse input is a sparse array of the input's format and stored
pattern (``ProjectTo``, see :mod:`chainrules.structured.sparse`), computed at the stored
entries only, never as a dense matrix:

* ``y = A @ x`` (``x`` dense, ``(n,)`` or ``(n, k)``): ``dA_ij = sum_k dY_ik conj(x_jk)`` at
  each stored ``(i, j)``, ``O(nnz k)``; ``dx = A^H @ dY``, a sparse product. ``x @ A``
  likewise; ``A @ B`` with both sparse uses sparse products (``dA = dY @ B^H`` restricted
  to ``A``'s pattern).
* ``A.T``: ``dA = dY.T`` (a relabelling: ``csr.T`` is a ``csc`` with the same arrays).
* ``A.sum(axis)``: the output cotangent spread over the stored entries.
* ``A.multiply(B)`` (elementwise, ``B`` a number, a dense array that broadcasts, or
  sparse): ``dA = ProjectTo(A)(conj(B) * dY)``, ``dB = conj(A) * dY`` (summed back over
  broadcast axes for a dense ``B``).

The output cotangent of a sparse output is first projected onto the output's own
pattern. ``np.matmul`` does not accept sparse operands (NumPy cannot convert them), so
the products are registered on ``operator.matmul``; the method ``spmatrix * x`` (matrix
product for the legacy matrix classes) has no rule: write ``A @ x``.
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np
import scipy.sparse as sp

from chainrules.rulesets.structured_matrices._samples import FORMATS, sparse
from chainrules.rulesets.structured_matrices._tangents import (
    NO,
    NUMBER_OR_ARRAY,
    conj,
    pushforward,
    read_output,
    tangent_of,
)
from chainrules.structured.base import as_columns, as_rows, is_scalar
from chainrules.structured.sparse import SPARSE_TYPES, is_sparse
from chainrules_core import (
    ProjectTo,
    Sample,
    Thunk,
    UnsupportedKeywordError,
    ZeroTangent,
    cotangent_projector,
    frule,
    passes_through,
    rrule,
    sample_inputs,
    unbroadcast,
)

SPARSE = SPARSE_TYPES
_CLASSES = (sp.csr_array, sp.csc_array, sp.coo_array, sp.bsr_array, sp.dia_array, sp.lil_array, sp.dok_array,
            sp.csr_matrix, sp.csc_matrix, sp.coo_matrix, sp.bsr_matrix, sp.dia_matrix, sp.lil_matrix, sp.dok_matrix)


def _methods(name: str) -> list[Any]:
    """The distinct functions ``cls.<name>`` resolves to over every sparse class (what bound methods unbind to)."""
    found: list[Any] = []
    for cls in _CLASSES:
        method = getattr(cls, name)
        if all(method is not seen for seen in found):
            found.append(method)
    return found


def _sparse_adjoint(A: Any) -> Any:
    """``A^H`` (``A.T`` for real ``A``, no conjugated copy)."""
    return conj(A).T


def _dense_of(x: Any) -> np.ndarray:
    return np.asarray(x.toarray()) if is_sparse(x) else np.asarray(x)


# ---- products -----------------------------------------------------------------------------------------------
def _sparse_dense_rrule(a: Any, b: Any) -> Any:
    """``a @ b`` with one sparse and one dense operand: ``dA`` at the stored entries, the dense one by a
    sparse product with ``A^H``."""
    y = a @ b
    sparse_first = is_sparse(a)
    A, x = (a, b) if sparse_first else (b, a)
    project_A: Any = cotangent_projector(A)
    project_x, project_y = cotangent_projector(x), ProjectTo(y)
    m, n = A.shape

    def matmul_pullback(dy: Any) -> tuple[Any, Any, Any]:
        dY = read_output(dy, y, "operator.matmul", project_y)
        if passes_through(dY):
            zero_A, zero_x = project_A(dY), project_x(dY)
            return (NO, zero_A, zero_x) if sparse_first else (NO, zero_x, zero_A)
        dY = np.asarray(dY)

        def cotangent_of_sparse() -> Any:
            if sparse_first:  # y = A @ x: dA = dY @ x^H at the stored entries
                dY_cols, _ = as_columns(dY, m, "matmul pullback")
                x_cols, _ = as_columns(x, n, "matmul pullback")
                return project_A.gather_product(dY_cols, conj(x_cols).T)
            x_rows, _ = as_rows(x, m, "matmul pullback")   # y = x @ A: dA = x^H @ dY
            dY_rows, _ = as_rows(dY, n, "matmul pullback")
            return project_A.gather_product(conj(x_rows).T, dY_rows)

        def cotangent_of_dense() -> Any:
            return project_x(_sparse_adjoint(A) @ dY if sparse_first else dY @ _sparse_adjoint(A))

        d_sparse, d_dense = Thunk(cotangent_of_sparse), Thunk(cotangent_of_dense)
        return (NO, d_sparse, d_dense) if sparse_first else (NO, d_dense, d_sparse)

    return y, matmul_pullback


def _sparse_both_rrule(A: Any, B: Any) -> Any:
    y = A @ B
    project_A, project_B, project_y = cotangent_projector(A), cotangent_projector(B), ProjectTo(y)

    def matmul_pullback(dy: Any) -> tuple[Any, Any, Any]:
        dY = read_output(dy, y, "operator.matmul", project_y)
        if passes_through(dY):
            return NO, project_A(dY), project_B(dY)
        return (NO, Thunk(lambda: project_A(dY @ _sparse_adjoint(B))),
                Thunk(lambda: project_B(_sparse_adjoint(A) @ dY)))

    return y, matmul_pullback


@rrule.register(operator.matmul, SPARSE, np.ndarray)
@rrule.register(operator.matmul, np.ndarray, SPARSE)
@rrule.register(operator.matmul, SPARSE, SPARSE)
def sparse_matmul_rrule(a: Any, b: Any) -> Any:
    """Reverse rule of ``a @ b`` with a sparse operand; the sparse cotangents stay on their pattern.

    Examples
    --------
    >>> import operator
    >>> import numpy as np
    >>> import scipy.sparse as sp
    >>> from chainrules import rrule, unthunk
    >>> A = sp.csr_array(np.array([[1.0, 0.0], [0.0, 2.0]]))
    >>> y, pullback = rrule(operator.matmul, A, np.array([3.0, 4.0]))
    >>> _, dA, dx = pullback(np.array([1.0, 1.0]))
    >>> y, unthunk(dA).toarray(), unthunk(dx)
    (array([3., 8.]), array([[3., 0.],
           [0., 4.]]), array([1., 2.]))
    """
    if is_sparse(a) and is_sparse(b):
        return _sparse_both_rrule(a, b)
    return _sparse_dense_rrule(a, b)


@frule.register(operator.matmul, SPARSE, np.ndarray)
@frule.register(operator.matmul, np.ndarray, SPARSE)
@frule.register(operator.matmul, SPARSE, SPARSE)
def sparse_matmul_frule(tangents: Any, a: Any, b: Any) -> Any:
    """Forward rule of ``a @ b`` with a sparse operand: ``da @ b + a @ db``.

    Examples
    --------
    >>> import operator
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> import scipy.sparse as sp
    >>> A = sp.csr_array(np.eye(2))
    >>> frule((NoTangent(), A, np.zeros(2)), operator.matmul, A, np.array([1.0, 2.0]))
    (array([1., 2.]), array([1., 2.]))
    """
    y = a @ b
    da, db = tangent_of(tangents[1]), tangent_of(tangents[2])
    return pushforward(y, None if da is None else da @ b, None if db is None else a @ db)


# ---- transpose ---------------------------------------------------------------------------------------------------
def sparse_transpose_rrule(A: Any, axes: Any = None, copy: Any = False) -> Any:
    """Reverse rule of ``A.transpose()`` and ``A.T``: ``dA = dY.T`` on ``A``'s pattern.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.sparse as sp
    >>> from chainrules import rrule
    >>> A = sp.csr_array(np.array([[1.0, 2.0], [0.0, 3.0]]))
    >>> y, pullback = rrule(A.transpose)
    >>> pullback(np.ones((2, 2)))[1].toarray()
    array([[1., 1.],
           [0., 1.]])
    """
    y = A.transpose(axes, copy)
    project_A: Any = cotangent_projector(A)
    project_y = ProjectTo(y)

    def transpose_pullback(dy: Any) -> tuple[Any, Any, Any, Any]:
        dY = read_output(dy, y, "scipy.sparse A.transpose (A.T)", project_y)
        return NO, project_A(dY if passes_through(dY) else dY.T), NO, NO

    return y, transpose_pullback


def sparse_transpose_frule(tangents: Any, A: Any, axes: Any = None, copy: Any = False) -> Any:
    """Forward rule of ``A.transpose()``: ``dA.T``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> import scipy.sparse as sp
    >>> A = sp.csr_array(np.array([[1.0, 2.0], [0.0, 3.0]]))
    >>> frule((NoTangent(), A), A.transpose)[1].toarray()
    array([[1., 0.],
           [2., 3.]])
    """
    y = A.transpose(axes, copy)
    dA = tangent_of(tangents[1])
    return y, ZeroTangent() if dA is None else ProjectTo(y)(dA.T)


def sparse_T_rrule(A: Any) -> Any:  # noqa: N802  (the property A.T)
    """Reverse rule of the property ``A.T`` (as :func:`sparse_transpose_rrule`).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> import scipy.sparse as sp
    >>> A = sp.csr_array(np.array([[1.0, 2.0], [0.0, 3.0]]))
    >>> y, pullback = rrule(type(A).T.fget, A)
    >>> pullback(np.ones((2, 2)))[1].toarray()
    array([[1., 1.],
           [0., 1.]])
    """
    y, pullback = sparse_transpose_rrule(A)

    def T_pullback(dy: Any) -> tuple[Any, Any]:  # noqa: N802
        return pullback(dy)[:2]

    return y, T_pullback


def sparse_T_frule(tangents: Any, A: Any) -> Any:  # noqa: N802
    """Forward rule of the property ``A.T``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> import scipy.sparse as sp
    >>> A = sp.csr_array(np.array([[1.0, 2.0], [0.0, 3.0]]))
    >>> frule((NoTangent(), A), type(A).T.fget, A)[1].toarray()
    array([[1., 0.],
           [2., 3.]])
    """
    return sparse_transpose_frule(tangents, A)


# ---- sum -----------------------------------------------------------------------------------------------------------
def _reject_out(out: Any) -> None:
    if out is not None:
        raise UnsupportedKeywordError("scipy.sparse sum: the keyword out= is not differentiable; call without it")


def sparse_sum_rrule(A: Any, axis: Any = None, dtype: Any = None, out: Any = None) -> Any:
    """Reverse rule of ``A.sum(axis)``: the output cotangent on every stored entry of ``A``.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.sparse as sp
    >>> from chainrules import rrule
    >>> A = sp.csr_array(np.array([[1.0, 2.0], [0.0, 3.0]]))
    >>> y, pullback = rrule(A.sum, 0)
    >>> y, pullback(np.array([10.0, 20.0]))[1].toarray()
    (array([1., 5.]), array([[10., 20.],
           [ 0., 20.]]))
    """
    _reject_out(out)
    y = A.sum(axis, dtype)
    project_A: Any = cotangent_projector(A)
    project_y = ProjectTo(y)
    axis_n = None if axis is None else int(axis) % 2

    def sum_pullback(dy: Any) -> tuple[Any, Any, Any, Any]:
        d = read_output(dy, y, "scipy.sparse A.sum", project_y)
        if passes_through(d):
            return NO, project_A(d), NO, NO
        values = np.ravel(np.asarray(d))
        p = project_A.pattern
        if axis_n is None:
            spread = np.broadcast_to(values[0], (p.size,))
        else:
            spread = values[p.cols] if axis_n == 0 else values[p.rows]
        return NO, project_A.from_values(spread), NO, NO

    return y, sum_pullback


def sparse_sum_frule(tangents: Any, A: Any, axis: Any = None, dtype: Any = None, out: Any = None) -> Any:
    """Forward rule of ``A.sum(axis)``: the sum of ``dA``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> import scipy.sparse as sp
    >>> A = sp.csr_array(np.array([[1.0, 2.0], [0.0, 3.0]]))
    >>> frule((NoTangent(), A, NoTangent()), A.sum, 1)[1]
    array([3., 3.])
    """
    _reject_out(out)
    y = A.sum(axis, dtype)
    dA = tangent_of(tangents[1])
    return y, ZeroTangent() if dA is None else ProjectTo(y)(dA.sum(axis, dtype))


# ---- multiply ---------------------------------------------------------------------------------------------------
def _hadamard(X: Any, other: Any) -> Any:
    """``X * other`` elementwise for a sparse ``X`` and a number, dense array or sparse ``other``."""
    if is_scalar(other):
        return X * other
    return X.multiply(other)


def sparse_multiply_rrule(A: Any, other: Any) -> Any:
    """Reverse rule of ``A.multiply(B)``: ``dA = conj(B) * dY`` on ``A``'s pattern, ``dB = conj(A) * dY``.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.sparse as sp
    >>> from chainrules import rrule, unthunk
    >>> A = sp.csr_array(np.array([[1.0, 0.0], [0.0, 2.0]]))
    >>> y, pullback = rrule(A.multiply, np.array([[3.0, 4.0], [5.0, 6.0]]))
    >>> _, dA, dB = pullback(np.ones((2, 2)))
    >>> unthunk(dA).toarray(), unthunk(dB)
    (array([[3., 0.],
           [0., 6.]]), array([[1., 0.],
           [0., 2.]]))
    """
    y = A.multiply(other)
    project_A, project_other, project_y = cotangent_projector(A), cotangent_projector(other), ProjectTo(y)
    scalar = is_scalar(other)

    def multiply_pullback(dy: Any) -> tuple[Any, Any, Any]:
        dY = read_output(dy, y, "scipy.sparse A.multiply", project_y)
        if passes_through(dY):
            return NO, project_A(dY), project_other(dY)
        dY = dY if is_sparse(dY) else sp.coo_array(np.asarray(dY))

        def cotangent_other() -> Any:
            weighted = _hadamard(dY, conj(A))
            if scalar:
                return project_other(weighted.sum())
            if is_sparse(other):
                return project_other(weighted)
            return project_other(unbroadcast(_dense_of(weighted), np.shape(other)))

        return NO, Thunk(lambda: project_A(_hadamard(dY, conj(other)))), Thunk(cotangent_other)

    return y, multiply_pullback


def sparse_multiply_frule(tangents: Any, A: Any, other: Any) -> Any:
    """Forward rule of ``A.multiply(B)``: ``dA * B + A * dB``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> import scipy.sparse as sp
    >>> A = sp.csr_array(np.array([[1.0, 2.0], [0.0, 3.0]]))
    >>> frule((NoTangent(), A, 0.0), A.multiply, 2.0)[1].toarray()
    array([[2., 4.],
           [0., 6.]])
    """
    y = A.multiply(other)
    dA, dB = tangent_of(tangents[1]), tangent_of(tangents[2])
    return pushforward(y, None if dA is None else _hadamard(dA, other), None if dB is None else _hadamard(A, dB))


# ---- registration ----------------------------------------------------------------------------------------------
for _f in _methods("transpose"):
    rrule.register(_f, SPARSE)(sparse_transpose_rrule)
    frule.register(_f, SPARSE)(sparse_transpose_frule)
rrule.register(sp.csr_array.T.fget, SPARSE)(sparse_T_rrule)  # type: ignore[attr-defined]
frule.register(sp.csr_array.T.fget, SPARSE)(sparse_T_frule)  # type: ignore[attr-defined]
for _f in _methods("sum"):
    rrule.register(_f, SPARSE)(sparse_sum_rrule)
    frule.register(_f, SPARSE)(sparse_sum_frule)
for _f in _methods("multiply"):
    for _types in ((SPARSE, NUMBER_OR_ARRAY), (SPARSE, SPARSE)):
        rrule.register(_f, *_types)(sparse_multiply_rrule)
        frule.register(_f, *_types)(sparse_multiply_frule)


# ---- sample inputs ----------------------------------------------------------------------------------------
def _formats_of(name: str, method: Any) -> list[tuple[str, bool]]:
    """``(format, legacy matrix?)`` of the sparse classes whose ``name`` method is ``method``."""
    return [(cls.__name__.split("_")[0], cls.__name__.endswith("_matrix")) for cls in _CLASSES
            if getattr(cls, name) is method]


def _declare_method_samples(name: str, build: Any) -> None:
    for method in _methods(name):
        formats = _formats_of(name, method)

        def method_samples(rng: np.random.Generator, formats: list[tuple[str, bool]] = formats) -> list[Sample]:
            out: list[Sample] = []
            for fmt, legacy in formats:
                out.extend(build(rng, fmt, legacy))
            return out

        sample_inputs(method)(method_samples)


def _transpose_samples(rng: np.random.Generator, fmt: str, legacy: bool) -> list[Sample]:
    kind = f"{fmt}_{'matrix' if legacy else 'array'}"
    return [Sample(sparse(rng, fmt, (3, 4), matrix=legacy), label=kind)] + (
        [] if legacy else [Sample(sparse(rng, fmt, (3, 3), np.complex128), label=f"complex {kind}")])


def _sum_samples(rng: np.random.Generator, fmt: str, legacy: bool) -> list[Sample]:
    kind = f"{fmt}_{'matrix' if legacy else 'array'}"
    a = sparse(rng, fmt, (3, 4), matrix=legacy)
    return [Sample(a, label=f"{kind}, every entry"), Sample(a, 0, label=f"{kind}, axis=0 by position")] + (
        [] if legacy else [Sample(sparse(rng, fmt, (3, 3), np.complex128), fkwargs={"axis": 1},
                                  label=f"complex {kind}, axis=1 by keyword")])


def _multiply_samples(rng: np.random.Generator, fmt: str, legacy: bool) -> list[Sample]:
    kind = f"{fmt}_{'matrix' if legacy else 'array'}"
    if legacy:
        return [Sample(sparse(rng, fmt, (3, 3), matrix=True), 2.5, label=f"{kind} by a number")]
    out = [Sample(sparse(rng, fmt, (3, 3)), 2.5, label=f"{kind} by a number"),
           Sample(sparse(rng, fmt, (3, 3)), rng.standard_normal((3, 3)), label=f"{kind} by an ndarray"),
           Sample(sparse(rng, fmt, (3, 3)), rng.standard_normal(3), label=f"{kind} by a row (broadcast)"),
           Sample(sparse(rng, fmt, (3, 3), np.complex128), 1.0 - 2.0j, label=f"complex {kind} by a number")]
    if fmt != "dia":
        # (dia stores the zeros that pad its diagonals: their products with another sparse array are dropped
        # from the output's pattern, which finite differences then change; the rule is the same)
        out.append(Sample(sparse(rng, fmt, (3, 3), np.complex128), sparse(rng, "csr", (3, 3)),
                          label=f"complex {kind} by a csr array"))
    return out


_declare_method_samples("transpose", _transpose_samples)
_declare_method_samples("sum", _sum_samples)
_declare_method_samples("multiply", _multiply_samples)


@sample_inputs(sp.csr_array.T.fget)  # type: ignore[attr-defined]
def _sparse_T_samples(rng: np.random.Generator) -> list[Sample]:  # noqa: N802
    return [Sample(sparse(rng, fmt, (3, 4)), label=fmt) for fmt in FORMATS] + [
        Sample(sparse(rng, "csr", (3, 3), np.complex128, matrix=True), label="complex csr_matrix")]


@sample_inputs(operator.matmul)
def _sparse_matmul_samples(rng: np.random.Generator) -> list[Sample]:
    out = [Sample(sparse(rng, fmt, (3, 4)), rng.standard_normal(4), label=f"{fmt} @ a vector") for fmt in FORMATS]
    out += [
        Sample(sparse(rng, "csr", (3, 4), matrix=True), rng.standard_normal((4, 2)), label="csr_matrix @ a matrix"),
        Sample(rng.standard_normal((2, 3)), sparse(rng, "csc", (3, 4)), label="a matrix @ csc"),
        Sample(sparse(rng, "csr", (3, 4)), sparse(rng, "csc", (4, 2)), label="csr @ csc"),
        Sample(sparse(rng, "coo", (3, 3), np.complex128), rng.standard_normal(3), label="complex coo @ a vector"),
        Sample(sparse(rng, "csr", (3, 3), np.float32), rng.standard_normal(3).astype(np.float32), label="float32"),
    ]
    return out
