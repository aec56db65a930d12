"""``scipy.linalg.solve_triangular(a, b, trans, lower, unit_diagonal)``: on ndarrays and on
``UpperTriangular``/``LowerTriangular`` matrices.

Let ``T`` be the triangle of ``a`` SciPy reads (``lower`` or upper, with ones on the
diagonal if ``unit_diagonal``) and ``op(T)`` it, its transpose or its conjugate transpose
(``trans`` 0/``"N"``, 1/``"T"``, 2/``"C"``), so that ``op(T) x = b``. Then (Giles 2008):

* ``db = solve(op(T)^H, dx)``: one more triangular solve with the same ``a``
  (``trans="C"`` for ``"N"`` and the reverse; for ``"T"``, ``conj(T) z = dx`` is
  ``T conj(z) = conj(dx)``);
* ``d op(T) = -db x^H``, mapped back through ``op`` (a transpose, or a conjugate
  transpose) to ``dT``, which is restricted to the triangle SciPy read (and to the strict
  triangle for ``unit_diagonal``: the diagonal is not read) and projected onto ``a``
  (a structured ``a`` gets its own type back).

The frule is ``dx = solve(op(T), db - op(dT) x)``. Stacked ``a`` and ``b`` follow SciPy's
batching (``b`` of shape ``(n,)`` is a vector, ``(..., n, k)`` a stack of matrices); the
cotangents are summed back over broadcast axes. ``overwrite_b`` is ignored (the rule
never overwrites an input).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.linalg

from chainrules.rulesets.structured_matrices._tangents import (
    NO,
    add_tangents,
    conj,
    read_output,
    tangent_of,
)
from chainrules.structured import LowerTriangular, UpperTriangular
from chainrules.structured._triangular import TriangularMatrix
from chainrules_core import (
    ProjectTo,
    Sample,
    Thunk,
    ZeroTangent,
    cotangent_projector,
    frule,
    passes_through,
    rrule,
    sample_inputs,
    unbroadcast,
)

_TRANS = {0: "N", 1: "T", 2: "C", "N": "N", "T": "T", "C": "C", "n": "N", "t": "T", "c": "C"}


def _mode(trans: Any) -> str:
    try:
        return _TRANS[trans]
    except (KeyError, TypeError):
        raise ValueError(f"solve_triangular: trans must be 0, 1, 2, 'N', 'T' or 'C', got {trans!r}") from None


def _restrict(dT: np.ndarray, lower: bool, unit_diagonal: bool) -> np.ndarray:
    """Keep the entries of the triangle SciPy reads (the strict one for a unit diagonal)."""
    k = 1 if unit_diagonal else 0
    return np.tril(dT, -k) if lower else np.triu(dT, k)


def _apply_op(M: np.ndarray, mode: str) -> np.ndarray:
    if mode == "N":
        return M
    swapped = np.swapaxes(M, -1, -2)
    return np.conj(swapped) if mode == "C" else swapped


def _solve(a: np.ndarray, b: np.ndarray, mode: str, lower: bool, unit_diagonal: bool, check_finite: bool) -> Any:
    return scipy.linalg.solve_triangular(a, b, trans=mode, lower=lower, unit_diagonal=unit_diagonal,
                                         overwrite_b=False, check_finite=check_finite)


def _adjoint_solve(a: np.ndarray, dx: np.ndarray, mode: str, lower: bool, unit_diagonal: bool) -> np.ndarray:
    """``solve(op(T)^H, dx)``."""
    if mode == "N":
        return _solve(a, dx, "C", lower, unit_diagonal, False)
    if mode == "C":
        return _solve(a, dx, "N", lower, unit_diagonal, False)
    return np.conj(_solve(a, np.conj(dx), "N", lower, unit_diagonal, False))


def _as_matrix(v: np.ndarray, vector: bool) -> np.ndarray:
    return v[..., None] if vector else v


def _prepare(a: Any, lower: Any) -> tuple[np.ndarray, bool]:
    dense_a = a.to_dense() if isinstance(a, TriangularMatrix) else a
    return dense_a, bool(lower)


def _solve_triangular_rrule(a: Any, b: np.ndarray, trans: Any = 0, lower: Any = False, unit_diagonal: Any = False,
                            overwrite_b: Any = False, check_finite: Any = True) -> Any:
    mode = _mode(trans)
    dense_a, lower = _prepare(a, lower)
    unit = bool(unit_diagonal)
    x = _solve(dense_a, b, mode, lower, unit, bool(check_finite))
    project_a, project_b, project_x = cotangent_projector(a), cotangent_projector(b), ProjectTo(x)
    vector = b.ndim == 1

    def solve_triangular_pullback(dy: Any) -> tuple[Any, ...]:
        dx = read_output(dy, x, "scipy.linalg.solve_triangular", project_x)
        if passes_through(dx):
            return NO, project_a(dx), project_b(dx), NO, NO, NO, NO, NO
        db = _adjoint_solve(dense_a, _as_matrix(np.asarray(dx), vector), mode, lower, unit)
        if vector:
            db = db[..., 0]

        def cotangent_a() -> Any:
            d_op = -(_as_matrix(db, vector) @ np.swapaxes(conj(_as_matrix(x, vector)), -1, -2))
            dT = _apply_op(d_op, mode)  # the adjoint of a (conjugate) transpose is itself
            return project_a(_restrict(unbroadcast(dT, dense_a.shape), lower, unit))

        return (NO, Thunk(cotangent_a), Thunk(lambda: project_b(unbroadcast(db, b.shape))), NO, NO, NO, NO, NO)

    return x, solve_triangular_pullback


def _solve_triangular_frule(tangents: Any, a: Any, b: np.ndarray, trans: Any = 0, lower: Any = False,
                            unit_diagonal: Any = False, overwrite_b: Any = False, check_finite: Any = True) -> Any:
    mode = _mode(trans)
    dense_a, lower = _prepare(a, lower)
    unit = bool(unit_diagonal)
    x = _solve(dense_a, b, mode, lower, unit, bool(check_finite))
    da, db = tangent_of(tangents[1]), tangent_of(tangents[2])
    vector = b.ndim == 1
    term = None
    if da is not None:
        dT = _restrict(np.asarray(da), lower, unit)
        term = -(_apply_op(dT, mode) @ _as_matrix(x, vector))
        if vector:
            term = term[..., 0]
    rhs = add_tangents(None if db is None else np.asarray(db), term)
    if rhs is None:
        return x, ZeroTangent()
    dx = _solve(dense_a, _as_matrix(np.broadcast_to(rhs, np.shape(x)), vector), mode, lower, unit, False)
    return x, ProjectTo(x)(dx[..., 0] if vector else dx)


@rrule.register(scipy.linalg.solve_triangular, np.ndarray, np.ndarray)
def solve_triangular_rrule(a: np.ndarray, b: np.ndarray, trans: Any = 0, lower: Any = False, unit_diagonal: Any = False,
                           overwrite_b: Any = False, check_finite: Any = True) -> Any:
    """Reverse rule of ``scipy.linalg.solve_triangular`` (see the module docstring).

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.linalg
    >>> from chainrules import rrule, unthunk
    >>> a = np.array([[2.0, 1.0], [0.0, 4.0]])
    >>> x, pullback = rrule(scipy.linalg.solve_triangular, a, np.array([3.0, 4.0]))
    >>> _, da, db, *_ = pullback(np.array([1.0, 0.0]))
    >>> x, unthunk(da), unthunk(db)
    (array([1., 1.]), array([[-0.5  , -0.5  ],
           [ 0.   ,  0.125]]), array([ 0.5  , -0.125]))
    """
    return _solve_triangular_rrule(a, b, trans, lower, unit_diagonal, overwrite_b, check_finite)


@frule.register(scipy.linalg.solve_triangular, np.ndarray, np.ndarray)
def solve_triangular_frule(tangents: Any, a: np.ndarray, b: np.ndarray, trans: Any = 0, lower: Any = False,
                           unit_diagonal: Any = False, overwrite_b: Any = False, check_finite: Any = True) -> Any:
    """Forward rule of ``scipy.linalg.solve_triangular``: ``solve(op(T), db - op(dT) x)``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> import scipy.linalg
    >>> a = np.array([[2.0, 1.0], [0.0, 4.0]])
    >>> frule((NoTangent(), np.zeros((2, 2)), np.ones(2)), scipy.linalg.solve_triangular, a, np.zeros(2))
    (array([0., 0.]), array([0.375, 0.25 ]))
    """
    return _solve_triangular_frule(tangents, a, b, trans, lower, unit_diagonal, overwrite_b, check_finite)


@rrule.register(scipy.linalg.solve_triangular, (UpperTriangular, LowerTriangular), np.ndarray)
def structured_solve_triangular_rrule(a: Any, b: np.ndarray, trans: Any = 0, lower: Any = False,
                                      unit_diagonal: Any = False, overwrite_b: Any = False,
                                      check_finite: Any = True) -> Any:
    """Reverse rule of ``scipy.linalg.solve_triangular`` on a triangular matrix (SciPy reads its dense form;
    ``lower`` should match the type). The cotangent of ``a`` is of ``a``'s type.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule, unthunk
    >>> import scipy.linalg
    >>> from chainrules.structured import UpperTriangular
    >>> U = UpperTriangular(np.array([[2.0, 1.0], [0.0, 4.0]]))
    >>> x, pullback = rrule(scipy.linalg.solve_triangular, U, np.array([3.0, 4.0]))
    >>> unthunk(pullback(np.array([1.0, 0.0]))[1])
    UpperTriangular(array([[-0.5  , -0.5  ],
                           [ 0.   ,  0.125]]))
    """
    return _solve_triangular_rrule(a, b, trans, lower, unit_diagonal, overwrite_b, check_finite)


@frule.register(scipy.linalg.solve_triangular, (UpperTriangular, LowerTriangular), np.ndarray)
def structured_solve_triangular_frule(tangents: Any, a: Any, b: np.ndarray, trans: Any = 0, lower: Any = False,
                                      unit_diagonal: Any = False, overwrite_b: Any = False,
                                      check_finite: Any = True) -> Any:
    """Forward rule of ``scipy.linalg.solve_triangular`` on a triangular matrix.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> import scipy.linalg
    >>> from chainrules.structured import UpperTriangular
    >>> U = UpperTriangular(np.array([[2.0, 1.0], [0.0, 4.0]]))
    >>> frule((NoTangent(), U, np.zeros(2)), scipy.linalg.solve_triangular, U, np.array([3.0, 4.0]))[1]
    array([-1., -1.])
    """
    return _solve_triangular_frule(tangents, a, b, trans, lower, unit_diagonal, overwrite_b, check_finite)


# ---- sample inputs ----------------------------------------------------------------------------------------
@sample_inputs(scipy.linalg.solve_triangular)
def _solve_triangular_samples(rng: np.random.Generator) -> list[Sample]:
    a = rng.standard_normal((3, 3)) + 3 * np.eye(3)
    b = rng.standard_normal(3)
    return [
        Sample(a, b, label="upper (the lower triangle not read)"),
        Sample(a, rng.standard_normal((3, 2)), 0, True, label="lower, by position, two columns"),
        Sample(a, b, fkwargs={"trans": "T"}, label="trans='T'"),
        Sample(a + 1j * rng.standard_normal((3, 3)), b, fkwargs={"trans": 2, "lower": True}, label="complex, trans=2"),
        Sample(a, b, fkwargs={"unit_diagonal": True}, label="unit_diagonal (the diagonal not read)"),
        Sample(a.astype(np.float32), b.astype(np.float32), label="float32"),
        Sample(np.stack([a, a.T]), rng.standard_normal((2, 3, 1)), label="a stack"),
        Sample(UpperTriangular(a), b, label="UpperTriangular"),
        Sample(LowerTriangular(a.T), b, 1, label="LowerTriangular, trans=1"),
    ]
