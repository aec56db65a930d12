"""Transposes and conjugates of structured matrices: ``np.transpose``, ``np.matrix_transpose``,
``A.T``, ``A.mT``, ``A.transpose()``, ``A.conj()`` and ``A.adjoint()``.

The transpose is linear and its own adjoint: ``dA = ProjectTo(A)(dY.T)``, where ``dY``
is first projected onto the output (``UpperTriangular.T`` is a ``LowerTriangular``, so
its cotangent is lower triangular and its transpose upper); for banded types that is a
relabelling of the stored diagonals, ``O(1)`` work. The conjugate is antilinear:
``dA = conj(dY)``; ``A.adjoint()`` combines both.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from chainrules.rulesets.structured_matrices._samples import every_kind, structured
from chainrules.rulesets.structured_matrices._tangents import NO, STRUCTURED, read_output, tangent_of
from chainrules.structured import Bidiagonal, Hermitian, StructuredMatrix, Tridiagonal, UpperTriangular
from chainrules_core import (
    ProjectTo,
    Sample,
    Varargs,
    ZeroTangent,
    cotangent_projector,
    frule,
    passes_through,
    rrule,
    sample_inputs,
)


def _linear_rrule(y: Any, A: StructuredMatrix, adjoint: Callable[[Any], Any], n_options: int, name: str) -> Any:
    project_A, project_y = cotangent_projector(A), ProjectTo(y)
    trailing = (NO,) * n_options

    def transpose_pullback(dy: Any) -> tuple[Any, ...]:
        dY = read_output(dy, y, name, project_y)
        return (NO, project_A(dY if passes_through(dY) else adjoint(dY)), *trailing)

    transpose_pullback.__name__ = transpose_pullback.__qualname__ = f"{name}_pullback"
    return y, transpose_pullback


def _linear_frule(y: Any, tangents: Any, apply: Callable[[Any], Any]) -> Any:
    dA = tangent_of(tangents[1])
    return y, ZeroTangent() if dA is None else ProjectTo(y)(apply(dA))


def _transposed(x: Any) -> Any:
    return x.T if isinstance(x, StructuredMatrix) else np.swapaxes(x, -1, -2)


def _adjoint(x: Any) -> Any:
    return x.adjoint() if isinstance(x, StructuredMatrix) else np.conj(np.swapaxes(x, -1, -2))


def _check_axes(axes: tuple[Any, ...]) -> bool:
    """Whether ``axes`` transposes (True) or leaves the matrix as it is (False)."""
    if len(axes) == 1 and (axes[0] is None or isinstance(axes[0], (tuple, list))):
        axes = () if axes[0] is None else tuple(axes[0])
    if axes in ((), (1, 0), (-1, -2)):
        return True
    if axes in ((0, 1), (-2, -1)):
        return False
    raise ValueError(f"axes don't match a matrix: {axes}")


@rrule.register(np.transpose, STRUCTURED)
def transpose_rrule(a: StructuredMatrix, axes: Any = None) -> Any:
    """Reverse rule of ``np.transpose(A)``: ``dA = dY.T``, projected onto ``A``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> from chainrules.structured import UpperTriangular
    >>> y, pullback = rrule(np.transpose, UpperTriangular(np.ones((2, 2))))
    >>> pullback(np.array([[1.0, 2.0], [3.0, 4.0]]))[1]
    UpperTriangular(array([[1., 3.],
                           [0., 4.]]))
    """
    flip = _check_axes((axes,))
    return _linear_rrule(np.transpose(a, axes), a, _transposed if flip else (lambda d: d), 1, "numpy.transpose")


@frule.register(np.transpose, STRUCTURED)
def transpose_frule(tangents: Any, a: StructuredMatrix, axes: Any = None) -> Any:
    """Forward rule of ``np.transpose(A)``: ``dA.T``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> from chainrules.structured import UpperTriangular
    >>> U = UpperTriangular(np.ones((2, 2)))
    >>> frule((NoTangent(), U), np.transpose, U)[1]
    LowerTriangular(array([[1., 0.],
                           [1., 1.]]))
    """
    flip = _check_axes((axes,))
    return _linear_frule(np.transpose(a, axes), tangents, _transposed if flip else (lambda d: d))


@rrule.register(np.matrix_transpose, STRUCTURED)
@rrule.register(StructuredMatrix.T.fget, STRUCTURED)  # type: ignore[attr-defined]
@rrule.register(StructuredMatrix.mT.fget, STRUCTURED)  # type: ignore[attr-defined]
def matrix_transpose_rrule(a: StructuredMatrix) -> Any:
    """Reverse rule of ``A.T``, ``A.mT`` and ``np.matrix_transpose(A)``: ``dA = dY.T``, projected.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> from chainrules.structured import Bidiagonal
    >>> B = Bidiagonal(np.ones(2), np.ones(1))
    >>> y, pullback = rrule(type(B).T.fget, B)
    >>> pullback(np.array([[1.0, 2.0], [3.0, 4.0]]))[1]
    Bidiagonal(array([1., 4.]), array([3.]))
    """
    return _linear_rrule(a.T, a, _transposed, 0, "matrix_transpose (A.T, A.mT)")


@frule.register(np.matrix_transpose, STRUCTURED)
@frule.register(StructuredMatrix.T.fget, STRUCTURED)  # type: ignore[attr-defined]
@frule.register(StructuredMatrix.mT.fget, STRUCTURED)  # type: ignore[attr-defined]
def matrix_transpose_frule(tangents: Any, a: StructuredMatrix) -> Any:
    """Forward rule of ``A.T``: ``dA.T``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> from chainrules.structured import Bidiagonal
    >>> B = Bidiagonal(np.ones(2), np.ones(1))
    >>> frule((NoTangent(), B), np.matrix_transpose, B)[1]
    Bidiagonal(array([1., 1.]), array([1.]), lower=True)
    """
    return _linear_frule(a.T, tangents, _transposed)


@rrule.register(StructuredMatrix.transpose, STRUCTURED, Varargs(object))
def transpose_method_rrule(a: StructuredMatrix, *axes: Any) -> Any:
    """Reverse rule of the method ``A.transpose(*axes)``: ``dA = dY.T`` (or ``dY`` for ``(0, 1)``).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> from chainrules.structured import Bidiagonal
    >>> B = Bidiagonal(np.ones(2), np.ones(1))
    >>> y, pullback = rrule(B.transpose)
    >>> pullback(np.array([[1.0, 2.0], [3.0, 4.0]]))[1]
    Bidiagonal(array([1., 4.]), array([3.]))
    """
    flip = _check_axes(axes)
    return _linear_rrule(a.transpose(*axes), a, _transposed if flip else (lambda d: d), len(axes),
                         "StructuredMatrix.transpose")


@frule.register(StructuredMatrix.transpose, STRUCTURED, Varargs(object))
def transpose_method_frule(tangents: Any, a: StructuredMatrix, *axes: Any) -> Any:
    """Forward rule of the method ``A.transpose(*axes)``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> from chainrules.structured import Bidiagonal
    >>> B = Bidiagonal(np.ones(2), np.ones(1))
    >>> frule((NoTangent(), B), B.transpose)[1]
    Bidiagonal(array([1., 1.]), array([1.]), lower=True)
    """
    flip = _check_axes(axes)
    return _linear_frule(a.transpose(*axes), tangents, _transposed if flip else (lambda d: d))


@rrule.register(StructuredMatrix.conj, STRUCTURED)
def conj_rrule(a: StructuredMatrix) -> Any:
    """Reverse rule of ``A.conj()``: ``dA = conj(dY)``, of ``A``'s structure.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> from chainrules.structured import Diagonal
    >>> D = Diagonal(np.array([1j, 2.0]))
    >>> y, pullback = rrule(D.conj)
    >>> pullback(Diagonal(np.array([1j, 1.0])))[1]
    Diagonal(array([0.-1.j, 1.-0.j]))
    """
    return _linear_rrule(a.conj(), a, lambda d: d.conj() if isinstance(d, StructuredMatrix) else np.conj(d), 0,
                         "StructuredMatrix.conj")


@frule.register(StructuredMatrix.conj, STRUCTURED)
def conj_frule(tangents: Any, a: StructuredMatrix) -> Any:
    """Forward rule of ``A.conj()``: ``conj(dA)``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> from chainrules.structured import Diagonal
    >>> D = Diagonal(np.array([1j, 2.0]))
    >>> frule((NoTangent(), D), D.conj)[1]
    Diagonal(array([0.-1.j, 2.-0.j]))
    """
    return _linear_frule(a.conj(), tangents, lambda d: d.conj() if isinstance(d, StructuredMatrix) else np.conj(d))


@rrule.register(StructuredMatrix.adjoint, STRUCTURED)
def adjoint_rrule(a: StructuredMatrix) -> Any:
    """Reverse rule of ``A.adjoint()`` (``A^H``): ``dA = dY^H``, projected.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> from chainrules.structured import UpperTriangular
    >>> U = UpperTriangular(np.ones((2, 2), dtype=complex))
    >>> y, pullback = rrule(U.adjoint)
    >>> pullback(np.array([[1.0, 2.0], [1j, 4.0]]))[1]
    UpperTriangular(array([[1.-0.j, 0.-1.j],
                           [0.+0.j, 4.-0.j]]))
    """
    return _linear_rrule(a.adjoint(), a, _adjoint, 0, "StructuredMatrix.adjoint")


@frule.register(StructuredMatrix.adjoint, STRUCTURED)
def adjoint_frule(tangents: Any, a: StructuredMatrix) -> Any:
    """Forward rule of ``A.adjoint()``: ``dA^H``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> from chainrules.structured import UpperTriangular
    >>> U = UpperTriangular(np.ones((2, 2), dtype=complex))
    >>> frule((NoTangent(), U), U.adjoint)[1]
    LowerTriangular(array([[1.-0.j, 0.+0.j],
                           [1.-0.j, 1.-0.j]]))
    """
    return _linear_frule(a.adjoint(), tangents, _adjoint)


# ---- sample inputs ----------------------------------------------------------------------------------------
@sample_inputs(np.transpose, np.matrix_transpose, StructuredMatrix.T.fget,  # type: ignore[attr-defined]
               StructuredMatrix.mT.fget, StructuredMatrix.transpose, StructuredMatrix.conj,  # type: ignore[attr-defined]
               StructuredMatrix.adjoint)
def _structured_transpose_samples(rng: np.random.Generator) -> list[Sample]:
    out = [Sample(m, label=label) for label, m in every_kind(rng)]
    out += [Sample(structured(rng, Bidiagonal, True, 3, np.complex128), label="complex Bidiagonal"),
            Sample(structured(rng, Hermitian, False, 3, np.complex128), label="complex Hermitian")]
    return out


@sample_inputs(np.transpose, StructuredMatrix.transpose)
def _axes_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(structured(rng, UpperTriangular), (1, 0), label="axes (1, 0)"),
            Sample(structured(rng, Tridiagonal), (0, 1), label="axes (0, 1): no transpose")]
