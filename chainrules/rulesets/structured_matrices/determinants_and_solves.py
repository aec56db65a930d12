"""Determinants, inverses and solves of structured matrices: ``np.linalg.det``, ``np.linalg.slogdet``,
``np.linalg.inv`` and ``np.linalg.solve``.

The formulas are the dense ones (Giles 2008, "An extended collection of matrix derivative
results for forward and reverse mode AD"), evaluated with the structure:

* ``y = det(A)``: ``dy = tr(adj(A) dA)``, ``dA = dy * adj(A)^H`` projected onto ``A``. For
  ``Diagonal``, triangular and bidiagonal ``A`` only the diagonal survives the projection
  and ``adj(A)_ii = prod_{j != i} a_jj``, computed without division (``O(n)``, exact for
  a singular ``A``). Other types use ``adj(A) = det(A) inv(A)``.
* ``(sign, logabsdet) = slogdet(A)``: with ``t = tr(inv(A) dA)``, ``d logabsdet = Re(t)``
  and ``d sign = sign * 1j * Im(t)`` (zero for real ``A``); the pullback is
  ``dA = g * inv(A)^H`` projected, ``g = d_logabsdet - 1j * Im(conj(d_sign) * sign)``.
* ``Y = inv(A)`` (a structured inverse where the structure has one: ``Diagonal``,
  triangular, ``Symmetric``, ``Hermitian``; bidiagonal gives triangular): ``dY = -Y dA Y``,
  ``dA = -ProjectTo(A)(Y^H dY Y^H)``, with structured products.
* ``x = solve(A, b)``: ``db = solve(A^H, dx)`` and ``dA = -ProjectTo(A)(db x^H)``. The
  factorization of the forward solve (LU for dense types, LAPACK ``?gttrf`` for
  tridiagonal ones, none needed for diagonal, triangular and bidiagonal ones) is reused
  for the adjoint solve, and ``dA`` is computed only on ``A``'s structure (``O(n k)`` for
  banded ``A``). The frule is ``dx = solve(A, db - dA x)``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from chainrules.rulesets.structured_matrices._samples import every_kind, structured
from chainrules.rulesets.structured_matrices._tangents import (
    NO,
    STRUCTURED,
    add_tangents,
    conj,
    dense,
    read_output,
    tangent_of,
)
from chainrules.structured import (
    Bidiagonal,
    Diagonal,
    Hermitian,
    StructuredMatrix,
    Symmetric,
    Tridiagonal,
    UpperTriangular,
)
from chainrules.structured._linalg import products_except_each, solve
from chainrules.structured.base import as_columns, inexact
from chainrules_core import (
    ProjectTo,
    Sample,
    Thunk,
    ZeroTangent,
    cotangent_projector,
    frule,
    passes_through,
    read_cotangent,
    read_cotangents,
    rrule,
    sample_inputs,
)


def _triangular_like(A: StructuredMatrix) -> bool:
    """``Diagonal``, triangular and bidiagonal: determinant and ``tr(inv(A) dA)`` from the diagonals."""
    lower, upper = A._bandwidths()
    return lower == 0 or upper == 0


def _trace_of_inverse_times(A: StructuredMatrix, dA: Any) -> Any:
    """``tr(inv(A) dA)`` for a tangent ``dA`` of ``A`` (``O(n)`` for triangular-like ``A``)."""
    if _triangular_like(A):
        return np.sum(np.diagonal(dA) / A.diagonal())
    return np.trace(solve(A, dense(dA)))


# ---- det -------------------------------------------------------------------------------------------------------
@rrule.register(np.linalg.det, STRUCTURED)
def det_rrule(a: StructuredMatrix) -> Any:
    """Reverse rule of ``np.linalg.det(A)``: ``dA = dy * adj(A)^H``, projected onto ``A``'s structure.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> from chainrules.structured import Diagonal
    >>> y, pullback = rrule(np.linalg.det, Diagonal(np.array([2.0, 0.0, 3.0])))
    >>> y, pullback(1.0)[1]
    (np.float64(0.0), Diagonal(array([0., 6., 0.])))
    """
    y = a._det()
    project_a: Any = cotangent_projector(a)

    def det_pullback(dy: Any) -> tuple[Any, Any]:
        dy = read_cotangent(dy, y, "numpy.linalg.det")
        if passes_through(dy):
            return NO, project_a(dy)
        return NO, project_a(dy * a._adjugate_adjoint_in(project_a))

    return y, det_pullback


@frule.register(np.linalg.det, STRUCTURED)
def det_frule(tangents: Any, a: StructuredMatrix) -> Any:
    """Forward rule of ``np.linalg.det(A)``: ``tr(adj(A) dA)``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> from chainrules.structured import Diagonal
    >>> D = Diagonal(np.array([1.0, 2.0]))
    >>> frule((NoTangent(), Diagonal(np.array([1.0, 0.0]))), np.linalg.det, D)
    (np.float64(2.0), 2.0)
    """
    y = a._det()
    dA = tangent_of(tangents[1])
    if dA is None:
        return y, ZeroTangent()
    if _triangular_like(a):
        adjugate = products_except_each(a.diagonal().astype(inexact(a.dtype)))
        dy = np.sum(adjugate * np.diagonal(dA))
    else:
        dy = y * _trace_of_inverse_times(a, dA)
    return y, ProjectTo(y)(dy)


# ---- slogdet ----------------------------------------------------------------------------------------------------
@rrule.register(np.linalg.slogdet, STRUCTURED)
def slogdet_rrule(a: StructuredMatrix) -> Any:
    """Reverse rule of ``np.linalg.slogdet(A)``: ``dA = g * inv(A)^H`` projected (see the module docstring).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> from chainrules.structured import UpperTriangular
    >>> y, pullback = rrule(np.linalg.slogdet, UpperTriangular(np.array([[2.0, 5.0], [0.0, 4.0]])))
    >>> pullback((0.0, 1.0))[1]
    UpperTriangular(array([[0.5 , 0.  ],
                           [0.  , 0.25]]))
    """
    y = a._slogdet()
    sign = y[0]
    project_a: Any = cotangent_projector(a)

    def slogdet_pullback(dy: Any) -> tuple[Any, Any]:
        parts = read_cotangents(dy, y, "numpy.linalg.slogdet")
        if passes_through(parts):
            return NO, project_a(parts)
        for part in parts:
            if passes_through(part):  # a not-implemented part
                return NO, project_a(part)
        d_sign, d_logabsdet = parts
        if d_logabsdet is None and (d_sign is None or not np.iscomplexobj(sign)):
            return NO, project_a(ZeroTangent())
        g: Any = 0.0 if d_logabsdet is None else np.real(d_logabsdet)
        if np.iscomplexobj(sign) and d_sign is not None:
            g = g - 1j * np.imag(np.conj(d_sign) * sign)
        return NO, project_a(g * a._inverse_adjoint_in(project_a))

    return y, slogdet_pullback


@frule.register(np.linalg.slogdet, STRUCTURED)
def slogdet_frule(tangents: Any, a: StructuredMatrix) -> Any:
    """Forward rule of ``np.linalg.slogdet(A)``: ``(sign * 1j * Im(t), Re(t))`` with ``t = tr(inv(A) dA)``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> from chainrules.structured import Diagonal
    >>> D = Diagonal(np.array([1.0, 2.0]))
    >>> frule((NoTangent(), Diagonal(np.array([1.0, 0.0]))), np.linalg.slogdet, D)[1]
    Tangent(SlogdetResult, sign=0.0, logabsdet=1.0)
    """
    y = a._slogdet()
    dA = tangent_of(tangents[1])
    if dA is None:
        return y, ZeroTangent()
    t = _trace_of_inverse_times(a, dA)
    sign = y[0]
    d_sign = sign * 1j * np.imag(t) if np.iscomplexobj(sign) else sign * 0
    return y, ProjectTo(y)((d_sign, np.real(t)))


# ---- inv --------------------------------------------------------------------------------------------------------
def _adjoint_of(x: Any) -> Any:
    return x.adjoint() if isinstance(x, StructuredMatrix) else np.conj(x).T


@rrule.register(np.linalg.inv, STRUCTURED)
def inv_rrule(a: StructuredMatrix) -> Any:
    """Reverse rule of ``np.linalg.inv(A)``: ``dA = -ProjectTo(A)(Y^H dY Y^H)`` with ``Y = inv(A)``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> from chainrules.structured import Diagonal
    >>> y, pullback = rrule(np.linalg.inv, Diagonal(np.array([2.0, 4.0])))
    >>> y, pullback(Diagonal(np.array([1.0, 1.0])))[1]
    (Diagonal(array([0.5 , 0.25])), Diagonal(array([-0.25  , -0.0625])))
    """
    y = a._inv()
    project_a, project_y = cotangent_projector(a), ProjectTo(y)
    yh = _adjoint_of(y)

    def inv_pullback(dy: Any) -> tuple[Any, Any]:
        dY = read_output(dy, y, "numpy.linalg.inv", project_y)
        if passes_through(dY):
            return NO, project_a(dY)
        return NO, project_a(-(yh @ dY @ yh))

    return y, inv_pullback


@frule.register(np.linalg.inv, STRUCTURED)
def inv_frule(tangents: Any, a: StructuredMatrix) -> Any:
    """Forward rule of ``np.linalg.inv(A)``: ``-Y dA Y``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> from chainrules.structured import Diagonal
    >>> D = Diagonal(np.array([1.0, 2.0]))
    >>> frule((NoTangent(), Diagonal(np.array([1.0, 1.0]))), np.linalg.inv, D)[1]
    Diagonal(array([-1.  , -0.25]))
    """
    y = a._inv()
    dA = tangent_of(tangents[1])
    if dA is None:
        return y, ZeroTangent()
    return y, ProjectTo(y)(-(y @ dA @ y))


# ---- solve -------------------------------------------------------------------------------------------------------
@rrule.register(np.linalg.solve, STRUCTURED, np.ndarray)
@rrule.register(np.linalg.solve, STRUCTURED, STRUCTURED)
def solve_rrule(a: StructuredMatrix, b: Any) -> Any:
    """Reverse rule of ``np.linalg.solve(A, b)``: ``db = solve(A^H, dx)``, ``dA = -ProjectTo(A)(db x^H)``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule, unthunk
    >>> from chainrules.structured import Diagonal
    >>> y, pullback = rrule(np.linalg.solve, Diagonal(np.array([2.0, 4.0])), np.array([2.0, 4.0]))
    >>> _, dA, db = pullback(np.array([1.0, 1.0]))
    >>> y, unthunk(dA), unthunk(db)
    (array([1., 1.]), Diagonal(array([-0.5 , -0.25])), array([0.5 , 0.25]))
    """
    factorization = a._factorize()
    b_dense = dense(b)
    x = solve(a, b_dense, factorization)
    project_a: Any = cotangent_projector(a)
    project_b, project_x = cotangent_projector(b), ProjectTo(x)

    def solve_pullback(dy: Any) -> tuple[Any, Any, Any]:
        dx = read_output(dy, x, "numpy.linalg.solve", project_x)
        if passes_through(dx):
            return NO, project_a(dx), project_b(dx)
        db = solve(a, dx, factorization, trans="C")

        def cotangent_a() -> Any:
            db_cols, _ = as_columns(db, a.n, "solve pullback")
            x_cols, _ = as_columns(x, a.n, "solve pullback")
            return project_a.product(-db_cols, conj(x_cols).T)

        return NO, Thunk(cotangent_a), Thunk(lambda: project_b(db))

    return x, solve_pullback


@frule.register(np.linalg.solve, STRUCTURED, np.ndarray)
@frule.register(np.linalg.solve, STRUCTURED, STRUCTURED)
def solve_frule(tangents: Any, a: StructuredMatrix, b: Any) -> Any:
    """Forward rule of ``np.linalg.solve(A, b)``: ``dx = solve(A, db - dA x)``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> from chainrules.structured import Diagonal
    >>> D = Diagonal(np.array([1.0, 2.0]))
    >>> frule((NoTangent(), Diagonal(np.zeros(2)), np.ones(2)), np.linalg.solve, D, np.ones(2))
    (array([1. , 0.5]), array([1. , 0.5]))
    """
    factorization = a._factorize()
    x = solve(a, dense(b), factorization)
    dA, db = tangent_of(tangents[1]), tangent_of(tangents[2])
    rhs = add_tangents(None if db is None else dense(db), None if dA is None else -(dA @ x))
    if rhs is None:
        return x, ZeroTangent()
    return x, ProjectTo(x)(solve(a, rhs, factorization))


# ---- sample inputs ----------------------------------------------------------------------------------------
@sample_inputs(np.linalg.det, np.linalg.slogdet, np.linalg.inv)
def _structured_determinant_samples(rng: np.random.Generator) -> list[Sample]:
    out = [Sample(m, label=label) for label, m in every_kind(rng)]
    out += [Sample(structured(rng, Tridiagonal, False, 4, np.complex128), label="complex Tridiagonal"),
            Sample(structured(rng, Hermitian, True, 3, np.complex128), label="complex Hermitian"),
            Sample(structured(rng, UpperTriangular, False, 3, np.float32), label="float32 UpperTriangular")]
    return out


@sample_inputs(np.linalg.solve)
def _structured_solve_samples(rng: np.random.Generator) -> list[Sample]:
    out = [Sample(m, rng.standard_normal(3), label=f"{label}, vector b") for label, m in every_kind(rng)]
    out += [Sample(structured(rng, Tridiagonal, False, 4), rng.standard_normal((4, 2)), label="two columns"),
            Sample(structured(rng, Symmetric, False, 3, np.complex128), rng.standard_normal(3), label="complex"),
            Sample(structured(rng, Diagonal), structured(rng, Bidiagonal), label="a structured right-hand side")]
    return out
