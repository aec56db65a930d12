"""Building structured matrices and leaving them: the constructors, ``to_dense`` and ``np.asarray``.

A constructor is linear in its arrays, so its pullback is the adjoint map from a
cotangent of the matrix (first projected onto the matrix's structure) to cotangents of
the arrays:

* ``Diagonal(d)``: ``dd`` is the diagonal of the cotangent;
* ``UpperTriangular(A)``, ``LowerTriangular(A)``: ``dA`` is the triangle (zero elsewhere:
  the other triangle of ``A`` is never read);
* ``Symmetric(A)``: an entry of the stored triangle is two entries of the matrix, so
  ``dA = triu(C) + triu(C.T, 1)`` (``lower=True``: the lower triangles); ``Hermitian``
  uses ``C^H`` and keeps the real part of the diagonal (its imaginary part is ignored);
* ``Bidiagonal``, ``Tridiagonal``: the stored diagonals; ``SymTridiagonal``: ``dev`` is
  the sum of the two off-diagonals of the cotangent (``2 *`` the projected one).

``to_dense()``, ``np.asarray`` and ``np.array`` go the other way: the cotangent of the
structured matrix is ``ProjectTo`` of the dense cotangent, of the same structured type.
The frules build the matrix from the tangents with the same constructor.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from chainrules.rulesets.structured_matrices._samples import every_kind, structured
from chainrules.rulesets.structured_matrices._tangents import NO, STRUCTURED, read_output, tangent_of
from chainrules.structured import (
    Bidiagonal,
    Diagonal,
    Hermitian,
    LowerTriangular,
    StructuredMatrix,
    Symmetric,
    SymTridiagonal,
    Tridiagonal,
    UpperTriangular,
)
from chainrules.structured._wrapped import triangle
from chainrules_core import (
    ProjectTo,
    Sample,
    ZeroTangent,
    cotangent_projector,
    frule,
    passes_through,
    rrule,
    sample_inputs,
)


def _self_adjoint_cotangent(C: Any, lower: bool, hermitian: bool) -> np.ndarray:
    """The cotangent of the wrapped array of ``Symmetric``/``Hermitian`` from one of the matrix."""
    G = C.to_dense()
    mirrored = G.conj().T if hermitian else G.T
    dA = triangle(G, lower) + triangle(mirrored, lower, 1)
    if hermitian:
        np.fill_diagonal(dA, np.diagonal(G).real)
    return dA


_ADJOINTS: dict[type, Callable[[Any, tuple[Any, ...]], tuple[Any, ...]]] = {
    Diagonal: lambda C, flags: (C.d,),
    UpperTriangular: lambda C, flags: (C.to_dense(),),
    LowerTriangular: lambda C, flags: (C.to_dense(),),
    Symmetric: lambda C, flags: (_self_adjoint_cotangent(C, flags[0], False),),
    Hermitian: lambda C, flags: (_self_adjoint_cotangent(C, flags[0], True),),
    Bidiagonal: lambda C, flags: (C.dv, C.ev),
    Tridiagonal: lambda C, flags: (C.dl, C.d, C.du),
    SymTridiagonal: lambda C, flags: (C.dv, 2 * C.ev),
}
"""For each type: the cotangents of the constructor's arrays from a (projected) cotangent ``C``."""


def _constructor_rrule(cls: type, arrays: tuple[np.ndarray, ...], flags: tuple[Any, ...]) -> Any:
    y = cls(*arrays, *flags)
    project_y = ProjectTo(y)
    projectors = tuple(cotangent_projector(a) for a in arrays)
    trailing = (NO,) * len(flags)
    adjoint = _ADJOINTS[cls]
    name = cls.__name__

    def constructor_pullback(dy: Any) -> tuple[Any, ...]:
        C = read_output(dy, y, f"chainrules.structured.{name}", project_y)
        if passes_through(C):
            return (NO, *(p(C) for p in projectors), *trailing)
        if len(arrays) == 1:
            return (NO, projectors[0](adjoint(C, flags)[0]), *trailing)
        parts = adjoint(C, flags)
        return (NO, *(p(part) for p, part in zip(projectors, parts)), *trailing)

    constructor_pullback.__name__ = constructor_pullback.__qualname__ = f"{name}_pullback"
    return y, constructor_pullback


def _constructor_frule(cls: type, tangents: tuple[Any, ...], arrays: tuple[np.ndarray, ...],
                       flags: tuple[Any, ...]) -> Any:
    y = cls(*arrays, *flags)
    dxs = [tangent_of(t) for t in tangents[1:1 + len(arrays)]]
    if all(dx is None for dx in dxs):
        return y, ZeroTangent()
    parts = [np.zeros_like(a) if dx is None else np.asarray(dx) for a, dx in zip(arrays, dxs)]
    return y, ProjectTo(y)(cls(*parts, *flags))


# ---- the constructors ------------------------------------------------------------------------------------
@rrule.register(Diagonal, np.ndarray)
def diagonal_rrule(d: np.ndarray) -> Any:
    """Reverse rule of ``Diagonal(d)``: ``dd`` is the diagonal of the cotangent.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> from chainrules.structured import Diagonal
    >>> y, pullback = rrule(Diagonal, np.array([1.0, 2.0]))
    >>> pullback(np.array([[1.0, 2.0], [3.0, 4.0]]))[1]
    array([1., 4.])
    """
    return _constructor_rrule(Diagonal, (d,), ())


@frule.register(Diagonal, np.ndarray)
def diagonal_frule(tangents: Any, d: np.ndarray) -> Any:
    """Forward rule of ``Diagonal(d)``: ``Diagonal(dd)``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> from chainrules.structured import Diagonal
    >>> frule((NoTangent(), np.ones(2)), Diagonal, np.array([1.0, 2.0]))
    (Diagonal(array([1., 2.])), Diagonal(array([1., 1.])))
    """
    return _constructor_frule(Diagonal, tangents, (d,), ())


@rrule.register(UpperTriangular, np.ndarray)
def upper_triangular_rrule(data: np.ndarray) -> Any:
    """Reverse rule of ``UpperTriangular(A)``: ``dA`` is the upper triangle of the cotangent.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> from chainrules.structured import UpperTriangular
    >>> y, pullback = rrule(UpperTriangular, np.zeros((2, 2)))
    >>> pullback(np.ones((2, 2)))[1]
    array([[1., 1.],
           [0., 1.]])
    """
    return _constructor_rrule(UpperTriangular, (data,), ())


@frule.register(UpperTriangular, np.ndarray)
def upper_triangular_frule(tangents: Any, data: np.ndarray) -> Any:
    """Forward rule of ``UpperTriangular(A)``: ``UpperTriangular(dA)``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> from chainrules.structured import UpperTriangular
    >>> frule((NoTangent(), np.ones((2, 2))), UpperTriangular, np.zeros((2, 2)))[1]
    UpperTriangular(array([[1., 1.],
                           [0., 1.]]))
    """
    return _constructor_frule(UpperTriangular, tangents, (data,), ())


@rrule.register(LowerTriangular, np.ndarray)
def lower_triangular_rrule(data: np.ndarray) -> Any:
    """Reverse rule of ``LowerTriangular(A)``: ``dA`` is the lower triangle of the cotangent.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> from chainrules.structured import LowerTriangular
    >>> y, pullback = rrule(LowerTriangular, np.zeros((2, 2)))
    >>> pullback(np.ones((2, 2)))[1]
    array([[1., 0.],
           [1., 1.]])
    """
    return _constructor_rrule(LowerTriangular, (data,), ())


@frule.register(LowerTriangular, np.ndarray)
def lower_triangular_frule(tangents: Any, data: np.ndarray) -> Any:
    """Forward rule of ``LowerTriangular(A)``: ``LowerTriangular(dA)``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> from chainrules.structured import LowerTriangular
    >>> frule((NoTangent(), np.ones((2, 2))), LowerTriangular, np.zeros((2, 2)))[1]
    LowerTriangular(array([[1., 0.],
                           [1., 1.]]))
    """
    return _constructor_frule(LowerTriangular, tangents, (data,), ())


@rrule.register(Symmetric, np.ndarray)
def symmetric_rrule(data: np.ndarray, lower: Any = False) -> Any:
    """Reverse rule of ``Symmetric(A, lower)``: the stored triangle gets ``C + C.T`` off the diagonal.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> from chainrules.structured import Symmetric
    >>> y, pullback = rrule(Symmetric, np.eye(2))
    >>> pullback(np.array([[1.0, 2.0], [4.0, 1.0]]))[1]
    array([[1., 6.],
           [0., 1.]])
    """
    return _constructor_rrule(Symmetric, (data,), (bool(lower),))


@frule.register(Symmetric, np.ndarray)
def symmetric_frule(tangents: Any, data: np.ndarray, lower: Any = False) -> Any:
    """Forward rule of ``Symmetric(A, lower)``: ``Symmetric(dA, lower)``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> from chainrules.structured import Symmetric
    >>> frule((NoTangent(), np.array([[1.0, 2.0], [9.0, 3.0]])), Symmetric, np.eye(2))[1]
    Symmetric(array([[1., 2.],
                     [0., 3.]]))
    """
    return _constructor_frule(Symmetric, tangents, (data,), (bool(lower),))


@rrule.register(Hermitian, np.ndarray)
def hermitian_rrule(data: np.ndarray, lower: Any = False) -> Any:
    """Reverse rule of ``Hermitian(A, lower)``: the stored triangle gets ``C + C^H`` off the diagonal,
    the real part of ``C`` on it.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> from chainrules.structured import Hermitian
    >>> y, pullback = rrule(Hermitian, np.eye(2, dtype=complex))
    >>> pullback(np.array([[1j, 2.0], [0.0, 1.0]]))[1]
    array([[0.+0.j, 2.+0.j],
           [0.+0.j, 1.+0.j]])
    """
    return _constructor_rrule(Hermitian, (data,), (bool(lower),))


@frule.register(Hermitian, np.ndarray)
def hermitian_frule(tangents: Any, data: np.ndarray, lower: Any = False) -> Any:
    """Forward rule of ``Hermitian(A, lower)``: ``Hermitian(dA, lower)``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> from chainrules.structured import Hermitian
    >>> frule((NoTangent(), np.array([[1.0, 1j], [0.0, 2.0]])), Hermitian, np.eye(2, dtype=complex))[1]
    Hermitian(array([[1.+0.j, 0.+1.j],
                     [0.+0.j, 2.+0.j]]))
    """
    return _constructor_frule(Hermitian, tangents, (data,), (bool(lower),))


@rrule.register(Bidiagonal, np.ndarray, np.ndarray)
def bidiagonal_rrule(dv: np.ndarray, ev: np.ndarray, lower: Any = False) -> Any:
    """Reverse rule of ``Bidiagonal(dv, ev, lower)``: the two stored diagonals of the cotangent.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> from chainrules.structured import Bidiagonal
    >>> y, pullback = rrule(Bidiagonal, np.ones(2), np.ones(1))
    >>> pullback(np.array([[1.0, 2.0], [3.0, 4.0]]))[1:]
    (array([1., 4.]), array([2.]))
    """
    return _constructor_rrule(Bidiagonal, (dv, ev), (bool(lower),))


@frule.register(Bidiagonal, np.ndarray, np.ndarray)
def bidiagonal_frule(tangents: Any, dv: np.ndarray, ev: np.ndarray, lower: Any = False) -> Any:
    """Forward rule of ``Bidiagonal(dv, ev, lower)``: ``Bidiagonal(ddv, dev, lower)``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> from chainrules.structured import Bidiagonal
    >>> frule((NoTangent(), np.ones(2), np.zeros(1)), Bidiagonal, np.ones(2), np.ones(1))[1]
    Bidiagonal(array([1., 1.]), array([0.]))
    """
    return _constructor_frule(Bidiagonal, tangents, (dv, ev), (bool(lower),))


@rrule.register(Tridiagonal, np.ndarray, np.ndarray, np.ndarray)
def tridiagonal_rrule(dl: np.ndarray, d: np.ndarray, du: np.ndarray) -> Any:
    """Reverse rule of ``Tridiagonal(dl, d, du)``: the three diagonals of the cotangent.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> from chainrules.structured import Tridiagonal
    >>> y, pullback = rrule(Tridiagonal, np.ones(1), np.ones(2), np.ones(1))
    >>> pullback(np.array([[1.0, 2.0], [3.0, 4.0]]))[1:]
    (array([3.]), array([1., 4.]), array([2.]))
    """
    return _constructor_rrule(Tridiagonal, (dl, d, du), ())


@frule.register(Tridiagonal, np.ndarray, np.ndarray, np.ndarray)
def tridiagonal_frule(tangents: Any, dl: np.ndarray, d: np.ndarray, du: np.ndarray) -> Any:
    """Forward rule of ``Tridiagonal(dl, d, du)``: ``Tridiagonal(ddl, dd, ddu)``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> from chainrules.structured import Tridiagonal
    >>> frule((NoTangent(), np.ones(1), np.zeros(2), np.ones(1)), Tridiagonal, np.ones(1), np.ones(2), np.ones(1))[1]
    Tridiagonal(array([1.]), array([0., 0.]), array([1.]))
    """
    return _constructor_frule(Tridiagonal, tangents, (dl, d, du), ())


@rrule.register(SymTridiagonal, np.ndarray, np.ndarray)
def symtridiagonal_rrule(dv: np.ndarray, ev: np.ndarray) -> Any:
    """Reverse rule of ``SymTridiagonal(dv, ev)``: ``ddv`` the diagonal, ``dev`` the sum of the
    two off-diagonals of the cotangent (``ev`` fills both).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> from chainrules.structured import SymTridiagonal
    >>> y, pullback = rrule(SymTridiagonal, np.ones(2), np.ones(1))
    >>> pullback(np.array([[1.0, 2.0], [3.0, 4.0]]))[1:]
    (array([1., 4.]), array([5.]))
    """
    return _constructor_rrule(SymTridiagonal, (dv, ev), ())


@frule.register(SymTridiagonal, np.ndarray, np.ndarray)
def symtridiagonal_frule(tangents: Any, dv: np.ndarray, ev: np.ndarray) -> Any:
    """Forward rule of ``SymTridiagonal(dv, ev)``: ``SymTridiagonal(ddv, dev)``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> from chainrules.structured import SymTridiagonal
    >>> frule((NoTangent(), np.zeros(2), np.ones(1)), SymTridiagonal, np.ones(2), np.ones(1))[1]
    SymTridiagonal(array([0., 0.]), array([1.]))
    """
    return _constructor_frule(SymTridiagonal, tangents, (dv, ev), ())


# ---- leaving the structure: to_dense, np.asarray, np.array ------------------------------------------------
def _densify_rrule(y: np.ndarray, S: StructuredMatrix, n_options: int, name: str) -> Any:
    project_S, project_y = cotangent_projector(S), ProjectTo(y)
    trailing = (NO,) * n_options

    def to_dense_pullback(dy: Any) -> tuple[Any, ...]:
        dY = read_output(dy, y, name, project_y)
        if not passes_through(dY):
            dY = np.reshape(dY, S.shape)  # np.array(S, ndmin=3) adds a leading axis
        return (NO, project_S(dY), *trailing)

    return y, to_dense_pullback


def _densify_frule(y: np.ndarray, tangents: Any) -> Any:
    dS = tangent_of(tangents[1])
    if dS is None:
        return y, ZeroTangent()
    return y, ProjectTo(y)(np.asarray(dS))


@rrule.register(StructuredMatrix.to_dense, STRUCTURED)
def to_dense_rrule(S: StructuredMatrix) -> Any:
    """Reverse rule of ``S.to_dense()``: ``dS = ProjectTo(S)(dY)``, of ``S``'s structured type.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> from chainrules.structured import UpperTriangular
    >>> y, pullback = rrule(UpperTriangular(np.ones((2, 2))).to_dense)
    >>> pullback(np.ones((2, 2)))[1]
    UpperTriangular(array([[1., 1.],
                           [0., 1.]]))
    """
    return _densify_rrule(S.to_dense(), S, 0, "StructuredMatrix.to_dense")


@frule.register(StructuredMatrix.to_dense, STRUCTURED)
def to_dense_frule(tangents: Any, S: StructuredMatrix) -> Any:
    """Forward rule of ``S.to_dense()``: the dense tangent.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> from chainrules.structured import Diagonal
    >>> D = Diagonal(np.array([1.0, 2.0]))
    >>> frule((NoTangent(), Diagonal(np.ones(2))), D.to_dense)[1]
    array([[1., 0.],
           [0., 1.]])
    """
    return _densify_frule(S.to_dense(), tangents)


@rrule.register(np.asarray, STRUCTURED)
def asarray_rrule(a: StructuredMatrix, dtype: Any = None, order: Any = None, **kwargs: Any) -> Any:
    """Reverse rule of ``np.asarray(S)``: the cotangent is projected back onto ``S``'s structure.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> from chainrules.structured import Diagonal
    >>> D = Diagonal(np.array([1.0, 2.0]))
    >>> y, pullback = rrule(np.asarray, D)
    >>> pullback(np.ones((2, 2)))[1]
    Diagonal(array([1., 1.]))
    """
    return _densify_rrule(np.asarray(a, dtype, order, **kwargs), a, 2, "numpy.asarray")


@frule.register(np.asarray, STRUCTURED)
def asarray_frule(tangents: Any, a: StructuredMatrix, dtype: Any = None, order: Any = None, **kwargs: Any) -> Any:
    """Forward rule of ``np.asarray(S)``: the dense tangent.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> from chainrules.structured import Diagonal
    >>> D = Diagonal(np.array([1.0, 2.0]))
    >>> frule((NoTangent(), D), np.asarray, D)[1]
    array([[1., 0.],
           [0., 2.]])
    """
    return _densify_frule(np.asarray(a, dtype, order, **kwargs), tangents)


@rrule.register(np.array, STRUCTURED)
def array_rrule(a: StructuredMatrix, dtype: Any = None, **kwargs: Any) -> Any:
    """Reverse rule of ``np.array(S)``: the cotangent is projected back onto ``S``'s structure.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> from chainrules.structured import Diagonal
    >>> D = Diagonal(np.array([1.0, 2.0]))
    >>> y, pullback = rrule(np.array, D, np.float32)
    >>> pullback(np.ones((2, 2), np.float32))[1]
    Diagonal(array([1., 1.]))
    """
    return _densify_rrule(np.array(a, dtype, **kwargs), a, 1, "numpy.array")


@frule.register(np.array, STRUCTURED)
def array_frule(tangents: Any, a: StructuredMatrix, dtype: Any = None, **kwargs: Any) -> Any:
    """Forward rule of ``np.array(S)``: the dense tangent.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> from chainrules.structured import Diagonal
    >>> D = Diagonal(np.array([1.0, 2.0]))
    >>> frule((NoTangent(), D), np.array, D)[1]
    array([[1., 0.],
           [0., 2.]])
    """
    return _densify_frule(np.array(a, dtype, **kwargs), tangents)


# ---- sample inputs ----------------------------------------------------------------------------------------
@sample_inputs(Diagonal)
def _diagonal_samples(rng: np.random.Generator) -> list[Sample]:
    d = rng.standard_normal(3)
    return [Sample(d, label="real"), Sample(d.astype(np.float32), label="float32"),
            Sample(d + 1j * rng.standard_normal(3), label="complex")]


@sample_inputs(UpperTriangular, LowerTriangular)
def _triangular_samples(rng: np.random.Generator) -> list[Sample]:
    a = rng.standard_normal((3, 3))
    return [Sample(a, label="real"), Sample(a.astype(np.float32), label="float32"),
            Sample(a + 1j * rng.standard_normal((3, 3)), label="complex")]


@sample_inputs(Symmetric, Hermitian)
def _self_adjoint_samples(rng: np.random.Generator) -> list[Sample]:
    a = rng.standard_normal((3, 3))
    return [Sample(a, label="upper triangle"), Sample(a, True, label="lower=True by position"),
            Sample(a.astype(np.float32), fkwargs={"lower": True}, label="float32, lower by keyword"),
            Sample(a + 1j * rng.standard_normal((3, 3)), label="complex")]


@sample_inputs(Bidiagonal)
def _bidiagonal_samples(rng: np.random.Generator) -> list[Sample]:
    dv, ev = rng.standard_normal(3), rng.standard_normal(2)
    return [Sample(dv, ev, label="upper"), Sample(dv, ev, True, label="lower=True by position"),
            Sample(dv.astype(np.float32), ev.astype(np.float32), fkwargs={"lower": True}, label="float32, lower"),
            Sample(dv + 1j, ev, label="complex")]


@sample_inputs(Tridiagonal)
def _tridiagonal_samples(rng: np.random.Generator) -> list[Sample]:
    dl, d, du = rng.standard_normal(2), rng.standard_normal(3), rng.standard_normal(2)
    return [Sample(dl, d, du, label="real"), Sample(dl.astype(np.float32), d.astype(np.float32),
                                                    du.astype(np.float32), label="float32"),
            Sample(dl, d + 1j, du, label="complex")]


@sample_inputs(SymTridiagonal)
def _symtridiagonal_samples(rng: np.random.Generator) -> list[Sample]:
    dv, ev = rng.standard_normal(3), rng.standard_normal(2)
    return [Sample(dv, ev, label="real"), Sample(dv.astype(np.float32), ev.astype(np.float32), label="float32"),
            Sample(dv + 1j, ev - 1j, label="complex")]


@sample_inputs(StructuredMatrix.to_dense, np.asarray, np.array)
def _densify_samples(rng: np.random.Generator) -> list[Sample]:
    out = [Sample(m, label=label) for label, m in every_kind(rng)]
    out.append(Sample(structured(rng, Symmetric, False, 3, np.complex128), label="complex Symmetric"))
    out.append(Sample(structured(rng, Diagonal, False, 3, np.float32), label="float32 Diagonal"))
    return out


@sample_inputs(np.asarray, np.array)
def _densify_with_dtype_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(structured(rng, Bidiagonal, False, 3, np.float32), np.float64, label="float32 to float64 (dtype)")]
