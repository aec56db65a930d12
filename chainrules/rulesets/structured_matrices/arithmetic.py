"""``+``, ``-``, scaling and negation of structured matrices (``operator.add``, ``sub``, ``mul``,
``truediv``, ``neg``).

* ``y = A + B`` (or ``A - B``): each operand gets the output cotangent (negated for the
  subtrahend), projected onto its own structure; an ndarray or number operand that was
  broadcast gets it summed back (``unbroadcast``). A structured ``dY`` is projected
  without a dense detour (a ``Diagonal`` reads the diagonal of a ``Bidiagonal`` cotangent).
* ``y = c * A`` for a number ``c``: ``dA = ProjectTo(A)(conj(c) * dY)`` and
  ``dc = sum(conj(A) * dY)`` (``O(n)`` for banded ``A``: only its diagonals are read);
  ``A / c`` is ``(1 / c) * A``. With an array ``M`` instead of a number the product is
  elementwise on the dense matrix: ``dA = ProjectTo(A)(conj(M) * dY)``,
  ``dM = conj(A) * dY``.
* ``y = -A``: ``dA = -dY``.

The frules add (scale) the tangents with the same operations, projected onto the output.
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from chainrules.rulesets.structured_matrices._samples import KINDS, every_kind, structured
from chainrules.rulesets.structured_matrices._tangents import (
    NO,
    NUMBER_OR_ARRAY,
    STRUCTURED,
    add_tangents,
    conj,
    dense,
    pushforward,
    read_output,
    tangent_of,
)
from chainrules.structured import (
    Bidiagonal,
    Diagonal,
    Hermitian,
    LowerTriangular,
    Symmetric,
    SymTridiagonal,
    Tridiagonal,
    UpperTriangular,
)
from chainrules.structured.base import StructuredMatrix, is_scalar
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


def _fit(dY: Any, x: Any) -> Any:
    """The output cotangent brought to the shape of the operand ``x`` (summed over broadcast axes)."""
    if isinstance(x, StructuredMatrix):
        if isinstance(dY, StructuredMatrix):
            return dY
        dY = np.asarray(dY)
        return dY if dY.shape == x.shape else unbroadcast(dY, x.shape)
    return unbroadcast(dense(dY), np.shape(x))


# ---- + and - -----------------------------------------------------------------------------------------------
def _sum_rrule(sign: int, a: Any, b: Any) -> Any:
    y = a + b if sign == 1 else a - b
    project_a, project_b, project_y = cotangent_projector(a), cotangent_projector(b), ProjectTo(y)

    def add_pullback(dy: Any) -> tuple[Any, Any, Any]:
        dY = read_output(dy, y, "operator.add" if sign == 1 else "operator.sub", project_y)
        if passes_through(dY):
            return NO, project_a(dY), project_b(dY)
        da = Thunk(lambda: project_a(_fit(dY, a)))
        db = Thunk(lambda: project_b(_fit(dY if sign == 1 else -dY, b)))
        return NO, da, db

    if sign == -1:
        add_pullback.__name__ = add_pullback.__qualname__ = "sub_pullback"
    return y, add_pullback


def _sum_frule(sign: int, tangents: Any, a: Any, b: Any) -> Any:
    y = a + b if sign == 1 else a - b
    da, db = tangent_of(tangents[1]), tangent_of(tangents[2])
    dy = add_tangents(da, None if db is None else (db if sign == 1 else -db))
    if dy is None:
        return y, ZeroTangent()
    if not isinstance(dy, StructuredMatrix) and np.shape(dy) != np.shape(y):
        dy = np.broadcast_to(dy, np.shape(y))  # a number's tangent, added to every entry
    return y, ProjectTo(y)(dy)


@rrule.register(operator.add, STRUCTURED, STRUCTURED)
@rrule.register(operator.add, STRUCTURED, NUMBER_OR_ARRAY)
@rrule.register(operator.add, NUMBER_OR_ARRAY, STRUCTURED)
def add_rrule(a: Any, b: Any) -> Any:
    """Reverse rule of ``a + b`` with a structured operand: each gets ``dY``, projected.

    Examples
    --------
    >>> import operator
    >>> import numpy as np
    >>> from chainrules import rrule, unthunk
    >>> from chainrules.structured import Diagonal
    >>> y, pullback = rrule(operator.add, Diagonal(np.ones(2)), np.ones((2, 2)))
    >>> unthunk(pullback(np.array([[1.0, 2.0], [3.0, 4.0]]))[1])
    Diagonal(array([1., 4.]))
    """
    return _sum_rrule(1, a, b)


@frule.register(operator.add, STRUCTURED, STRUCTURED)
@frule.register(operator.add, STRUCTURED, NUMBER_OR_ARRAY)
@frule.register(operator.add, NUMBER_OR_ARRAY, STRUCTURED)
def add_frule(tangents: Any, a: Any, b: Any) -> Any:
    """Forward rule of ``a + b`` with a structured operand: ``da + db``.

    Examples
    --------
    >>> import operator
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> from chainrules.structured import Diagonal
    >>> D = Diagonal(np.array([1.0, 2.0]))
    >>> frule((NoTangent(), D, np.ones((2, 2))), operator.add, D, np.zeros((2, 2)))[1]
    array([[2., 1.],
           [1., 3.]])
    """
    return _sum_frule(1, tangents, a, b)


@rrule.register(operator.sub, STRUCTURED, STRUCTURED)
@rrule.register(operator.sub, STRUCTURED, NUMBER_OR_ARRAY)
@rrule.register(operator.sub, NUMBER_OR_ARRAY, STRUCTURED)
def sub_rrule(a: Any, b: Any) -> Any:
    """Reverse rule of ``a - b`` with a structured operand: ``dY`` and ``-dY``, projected.

    Examples
    --------
    >>> import operator
    >>> import numpy as np
    >>> from chainrules import rrule, unthunk
    >>> from chainrules.structured import Diagonal
    >>> D = Diagonal(np.array([1.0, 2.0]))
    >>> y, pullback = rrule(operator.sub, D, 2.0)
    >>> _, dD, dc = pullback(np.ones((2, 2)))
    >>> unthunk(dD), unthunk(dc)
    (Diagonal(array([1., 1.])), -4.0)
    """
    return _sum_rrule(-1, a, b)


@frule.register(operator.sub, STRUCTURED, STRUCTURED)
@frule.register(operator.sub, STRUCTURED, NUMBER_OR_ARRAY)
@frule.register(operator.sub, NUMBER_OR_ARRAY, STRUCTURED)
def sub_frule(tangents: Any, a: Any, b: Any) -> Any:
    """Forward rule of ``a - b`` with a structured operand: ``da - db``.

    Examples
    --------
    >>> import operator
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> from chainrules.structured import Diagonal
    >>> D = Diagonal(np.array([1.0, 2.0]))
    >>> frule((NoTangent(), D, D), operator.sub, D, 2 * D)[1]
    Diagonal(array([0., 0.]))
    """
    return _sum_frule(-1, tangents, a, b)


# ---- scaling ------------------------------------------------------------------------------------------------
def _scale_cotangents(A: StructuredMatrix, c: Any, dY: Any, project_A: Any, project_c: Any,
                      divide: bool) -> tuple[Thunk, Thunk]:
    """Thunked cotangents of ``A`` and the number ``c`` in ``c * A`` (``A / c`` if ``divide``)."""
    factor = 1 / c if divide else c

    def cotangent_of_a() -> Any:
        return project_A(conj(factor) * dY)

    def cotangent_c() -> Any:
        inner = A.vdot(dY)  # sum(conj(A) * dY), over A's structure only
        if divide:
            inner = -inner * np.conj(factor) ** 2
        return project_c(inner)

    return Thunk(cotangent_of_a), Thunk(cotangent_c)


def _elementwise_cotangents(A: StructuredMatrix, M: np.ndarray, y: Any, dY: Any, project_A: Any, project_M: Any,
                            divide: bool) -> tuple[Thunk, Thunk]:
    """Thunked cotangents of ``A * M`` (``A / M``) for an array ``M`` (elementwise, dense)."""
    G = dense(dY)

    def cotangent_of_a() -> Any:
        weight = 1 / M if divide else M
        return project_A(unbroadcast(np.conj(weight) * G, A.shape))

    def cotangent_of_m() -> Any:
        partial = -y / M if divide else A.to_dense()
        return project_M(unbroadcast(np.conj(partial) * G, np.shape(M)))

    return Thunk(cotangent_of_a), Thunk(cotangent_of_m)


def _product_rrule(A: StructuredMatrix, c: Any, matrix_first: bool, divide: bool) -> Any:
    y = A / c if divide else (A * c if matrix_first else c * A)
    project_A, project_c, project_y = cotangent_projector(A), cotangent_projector(c), ProjectTo(y)
    scalar = is_scalar(c)

    def mul_pullback(dy: Any) -> tuple[Any, Any, Any]:
        dY = read_output(dy, y, "operator.truediv" if divide else "operator.mul", project_y)
        if passes_through(dY):
            dA, dc = project_A(dY), project_c(dY)
        elif scalar:
            dA, dc = _scale_cotangents(A, c, dY, project_A, project_c, divide)
        else:
            dA, dc = _elementwise_cotangents(A, np.asarray(c), y, dY, project_A, project_c, divide)
        return (NO, dA, dc) if matrix_first else (NO, dc, dA)

    if divide:
        mul_pullback.__name__ = mul_pullback.__qualname__ = "truediv_pullback"
    return y, mul_pullback


def _product_frule(tangents: Any, A: StructuredMatrix, c: Any, matrix_first: bool, divide: bool) -> Any:
    y = A / c if divide else (A * c if matrix_first else c * A)
    dA, dc = (tangent_of(tangents[1]), tangent_of(tangents[2]))
    if not matrix_first:
        dA, dc = dc, dA
    scaled = None if dA is None else (dA / c if divide else dA * c)
    return pushforward(y, scaled, None if dc is None else (-(y / c) * dc if divide else A * dc))


@rrule.register(operator.mul, STRUCTURED, NUMBER_OR_ARRAY)
def mul_rrule(A: StructuredMatrix, c: Any) -> Any:
    """Reverse rule of ``A * c``: scaling by a number keeps ``A``'s structure (see the module docstring).

    Examples
    --------
    >>> import operator
    >>> import numpy as np
    >>> from chainrules import rrule, unthunk
    >>> from chainrules.structured import Diagonal
    >>> y, pullback = rrule(operator.mul, Diagonal(np.array([1.0, 2.0])), 3.0)
    >>> _, dA, dc = pullback(Diagonal(np.array([1.0, 1.0])))
    >>> y, unthunk(dA), unthunk(dc)
    (Diagonal(array([3., 6.])), Diagonal(array([3., 3.])), 3.0)
    """
    return _product_rrule(A, c, True, False)


@rrule.register(operator.mul, NUMBER_OR_ARRAY, STRUCTURED)
def rmul_rrule(c: Any, A: StructuredMatrix) -> Any:
    """Reverse rule of ``c * A`` (as :func:`mul_rrule`).

    Examples
    --------
    >>> import operator
    >>> import numpy as np
    >>> from chainrules import rrule, unthunk
    >>> from chainrules.structured import Diagonal
    >>> D = Diagonal(np.array([1.0, 2.0]))
    >>> y, pullback = rrule(operator.mul, 3.0, D)
    >>> unthunk(pullback(Diagonal(np.ones(2)))[2])
    Diagonal(array([3., 3.]))
    """
    return _product_rrule(A, c, False, False)


@frule.register(operator.mul, STRUCTURED, NUMBER_OR_ARRAY)
def mul_frule(tangents: Any, A: StructuredMatrix, c: Any) -> Any:
    """Forward rule of ``A * c``: ``dA * c + A * dc``.

    Examples
    --------
    >>> import operator
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> from chainrules.structured import Diagonal
    >>> D = Diagonal(np.array([1.0, 2.0]))
    >>> frule((NoTangent(), D, 1.0), operator.mul, D, 3.0)[1]
    Diagonal(array([4., 8.]))
    """
    return _product_frule(tangents, A, c, True, False)


@frule.register(operator.mul, NUMBER_OR_ARRAY, STRUCTURED)
def rmul_frule(tangents: Any, c: Any, A: StructuredMatrix) -> Any:
    """Forward rule of ``c * A``: ``dc * A + c * dA``.

    Examples
    --------
    >>> import operator
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> from chainrules.structured import Diagonal
    >>> D = Diagonal(np.array([1.0, 2.0]))
    >>> frule((NoTangent(), 1.0, D), operator.mul, 3.0, D)[1]
    Diagonal(array([4., 8.]))
    """
    return _product_frule(tangents, A, c, False, False)


@rrule.register(operator.truediv, STRUCTURED, NUMBER_OR_ARRAY)
def truediv_rrule(A: StructuredMatrix, c: Any) -> Any:
    """Reverse rule of ``A / c``: ``dA = dY / conj(c)``, ``dc = -sum(conj(A) * dY) / conj(c)^2``.

    Examples
    --------
    >>> import operator
    >>> import numpy as np
    >>> from chainrules import rrule, unthunk
    >>> from chainrules.structured import Diagonal
    >>> D = Diagonal(np.array([1.0, 2.0]))
    >>> y, pullback = rrule(operator.truediv, D, 2.0)
    >>> _, dD, dc = pullback(Diagonal(np.ones(2)))
    >>> unthunk(dD), unthunk(dc)
    (Diagonal(array([0.5, 0.5])), -0.75)
    """
    return _product_rrule(A, c, True, True)


@frule.register(operator.truediv, STRUCTURED, NUMBER_OR_ARRAY)
def truediv_frule(tangents: Any, A: StructuredMatrix, c: Any) -> Any:
    """Forward rule of ``A / c``: ``dA / c - (A / c) * dc / c``.

    Examples
    --------
    >>> import operator
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> from chainrules.structured import Diagonal
    >>> D = Diagonal(np.array([1.0, 2.0]))
    >>> frule((NoTangent(), D, 0.0), operator.truediv, D, 2.0)[1]
    Diagonal(array([0.5, 1. ]))
    """
    return _product_frule(tangents, A, c, True, True)


# ---- negation -------------------------------------------------------------------------------------------------
@rrule.register(operator.neg, STRUCTURED)
def neg_rrule(A: StructuredMatrix) -> Any:
    """Reverse rule of ``-A``: ``dA = -dY``, of ``A``'s structure.

    Examples
    --------
    >>> import operator
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> from chainrules.structured import Diagonal
    >>> D = Diagonal(np.array([1.0, 2.0]))
    >>> y, pullback = rrule(operator.neg, D)
    >>> pullback(np.eye(2))[1]
    Diagonal(array([-1., -1.]))
    """
    y = -A
    project_A, project_y = cotangent_projector(A), ProjectTo(y)

    def neg_pullback(dy: Any) -> tuple[Any, Any]:
        dY = read_output(dy, y, "operator.neg", project_y)
        return NO, project_A(dY if passes_through(dY) else -dY)

    return y, neg_pullback


@frule.register(operator.neg, STRUCTURED)
def neg_frule(tangents: Any, A: StructuredMatrix) -> Any:
    """Forward rule of ``-A``: ``-dA``.

    Examples
    --------
    >>> import operator
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> from chainrules.structured import Diagonal
    >>> D = Diagonal(np.array([1.0, 2.0]))
    >>> frule((NoTangent(), D), operator.neg, D)[1]
    Diagonal(array([-1., -2.]))
    """
    dA = tangent_of(tangents[1])
    return -A, ZeroTangent() if dA is None else ProjectTo(A)(-dA)


# ---- sample inputs ----------------------------------------------------------------------------------------
@sample_inputs(operator.add, operator.sub)
def _sum_samples(rng: np.random.Generator) -> list[Sample]:
    out = [Sample(m, structured(rng, cls, lower), label=f"{label} and the same kind")
           for (label, m), (cls, lower) in zip(every_kind(rng), KINDS)]
    out += [
        Sample(structured(rng, Diagonal), structured(rng, Bidiagonal), label="Diagonal and Bidiagonal"),
        Sample(structured(rng, UpperTriangular), rng.standard_normal((3, 3)), label="UpperTriangular and an ndarray"),
        Sample(rng.standard_normal(3), structured(rng, Symmetric, True), label="a row and Symmetric (broadcast)"),
        Sample(structured(rng, Hermitian, False, 3, np.complex128), 1.5, label="complex Hermitian and a number"),
        Sample(structured(rng, Tridiagonal, False, 3, np.float32), structured(rng, Tridiagonal), label="float32"),
    ]
    return out


@sample_inputs(operator.mul)
def _mul_samples(rng: np.random.Generator) -> list[Sample]:
    out = [Sample(m, 1.7, label=f"{label} times a number") for label, m in every_kind(rng)]
    out += [
        Sample(-0.8, structured(rng, LowerTriangular), label="a number times LowerTriangular"),
        Sample(structured(rng, Diagonal, False, 3, np.complex128), 2.0 - 1.0j, label="complex"),
        Sample(structured(rng, SymTridiagonal), rng.standard_normal((3, 3)), label="elementwise by an ndarray"),
        Sample(rng.standard_normal(3), structured(rng, Bidiagonal, True), label="a row times Bidiagonal"),
    ]
    return out


@sample_inputs(operator.truediv)
def _truediv_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(structured(rng, Symmetric), 2.5, label="Symmetric by a number"),
            Sample(structured(rng, Bidiagonal, False, 3, np.complex128), 1.0 + 0.5j, label="complex"),
            Sample(structured(rng, Diagonal), rng.standard_normal((3, 3)) + 3, label="elementwise by an ndarray")]


@sample_inputs(operator.neg)
def _neg_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(m, label=label) for label, m in every_kind(rng)]
