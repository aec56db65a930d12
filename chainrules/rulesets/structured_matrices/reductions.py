"""Reductions of structured matrices: ``np.trace``, ``np.sum``, ``np.diag``, ``np.diagonal`` and the
methods ``A.trace()``, ``A.sum()``, ``A.diagonal()``.

Each is linear, and its cotangent is built directly in the input's structure, never as a
dense matrix first:

* ``trace`` (of the ``offset`` diagonal): ``dy`` on that diagonal
  (:meth:`~chainrules.structured.StructuredProjector.diagonals`): a ``Diagonal`` input
  gets ``Diagonal(full(n, dy))``, ``O(n)``;
* ``diag``/``diagonal``: the output cotangent placed on the diagonal;
* ``sum`` over all entries, or along an axis: the (broadcast) output cotangent on every
  entry the structure keeps, i.e. the projection of the rank-one matrix ``u v^T``
  (:meth:`~chainrules.structured.StructuredProjector.product`): ``O(n)`` for banded
  types, where the generic rule would build ``np.full((n, n), dy)`` (see
  ``docs/structured.md``, "the array dilemma").

``out=``, and ``initial=``/``where=`` for ``np.sum``, raise
:class:`~chainrules_core.UnsupportedKeywordError`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from chainrules.rulesets.structured_matrices._samples import every_kind, structured
from chainrules.rulesets.structured_matrices._tangents import NO, STRUCTURED, read_output, tangent_of
from chainrules.structured import (
    Bidiagonal,
    LowerTriangular,
    StructuredMatrix,
    SymTridiagonal,
    Tridiagonal,
    UpperTriangular,
)
from chainrules.structured.functions import normalise_axes
from chainrules_core import (
    ProjectTo,
    Sample,
    UnsupportedKeywordError,
    ZeroTangent,
    cotangent_projector,
    frule,
    passes_through,
    rrule,
    sample_inputs,
)
from chainrules_core.rules import _callable_name

_NOVALUE: Any = np._NoValue


def _reject(f: Any, **given: Any) -> None:
    for name, value in given.items():
        if value is not None and value is not _NOVALUE:
            raise UnsupportedKeywordError(f"{_callable_name(f)}: the keyword {name}= is not differentiable for "
                                          "a structured matrix; call without it")


def _diagonal_offset(offset: int, axis1: int, axis2: int) -> int:
    order = (axis1 % 2, axis2 % 2)
    if order == (0, 1):
        return int(offset)
    if order == (1, 0):
        return -int(offset)
    raise ValueError(f"axis1 and axis2 cannot be the same: {axis1}, {axis2}")


def _on_diagonal_rrule(y: Any, A: StructuredMatrix, offset: int, n_options: int, name: str) -> Any:
    """Pullback of a function whose output is (the sum of) the ``offset`` diagonal of ``A``."""
    project_A: Any = cotangent_projector(A)
    trailing = (NO,) * n_options
    length = max(A.n - abs(offset), 0)

    def diagonal_pullback(dy: Any) -> tuple[Any, ...]:
        dy = read_output(dy, y, name)
        if passes_through(dy):
            return (NO, project_A(dy), *trailing)
        return (NO, project_A.diagonals({offset: np.broadcast_to(dy, (length,))}), *trailing)

    diagonal_pullback.__name__ = diagonal_pullback.__qualname__ = f"{name}_pullback"
    return y, diagonal_pullback


def _frule_of(y: Any, tangents: Any, apply: Any) -> Any:
    dA = tangent_of(tangents[1])
    return y, ZeroTangent() if dA is None else ProjectTo(y)(apply(dA))


# ---- trace ---------------------------------------------------------------------------------------------------
@rrule.register(np.trace, STRUCTURED)
def trace_rrule(a: StructuredMatrix, offset: int = 0, axis1: int = 0, axis2: int = 1, dtype: Any = None,
                out: Any = None) -> Any:
    """Reverse rule of ``np.trace(A)``: ``dy`` on the diagonal, in ``A``'s structure.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> from chainrules.structured import Diagonal
    >>> y, pullback = rrule(np.trace, Diagonal(np.array([1.0, 2.0, 3.0])))
    >>> pullback(2.0)[1]
    Diagonal(array([2., 2., 2.]))
    """
    _reject(np.trace, out=out)
    k = _diagonal_offset(offset, axis1, axis2)
    return _on_diagonal_rrule(np.trace(a, offset, axis1, axis2, dtype), a, k, 5, "numpy.trace")


@frule.register(np.trace, STRUCTURED)
def trace_frule(tangents: Any, a: StructuredMatrix, offset: int = 0, axis1: int = 0, axis2: int = 1,
                dtype: Any = None, out: Any = None) -> Any:
    """Forward rule of ``np.trace(A)``: the trace of ``dA``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> from chainrules.structured import Diagonal
    >>> D = Diagonal(np.array([1.0, 2.0]))
    >>> frule((NoTangent(), Diagonal(np.array([1.0, 1.0]))), np.trace, D)
    (np.float64(3.0), 2.0)
    """
    _reject(np.trace, out=out)
    return _frule_of(np.trace(a, offset, axis1, axis2, dtype), tangents,
                     lambda dA: np.trace(dA, offset, axis1, axis2, dtype))


@rrule.register(StructuredMatrix.trace, STRUCTURED)
def trace_method_rrule(a: StructuredMatrix, offset: int = 0, dtype: Any = None) -> Any:
    """Reverse rule of the method ``A.trace()`` (as :func:`trace_rrule`).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> from chainrules.structured import Diagonal
    >>> D = Diagonal(np.array([1.0, 2.0]))
    >>> y, pullback = rrule(D.trace)
    >>> pullback(2.0)[1]
    Diagonal(array([2., 2.]))
    """
    return _on_diagonal_rrule(a.trace(offset, dtype), a, int(offset), 2, "StructuredMatrix.trace")


@frule.register(StructuredMatrix.trace, STRUCTURED)
def trace_method_frule(tangents: Any, a: StructuredMatrix, offset: int = 0, dtype: Any = None) -> Any:
    """Forward rule of the method ``A.trace()``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> from chainrules.structured import Diagonal
    >>> D = Diagonal(np.array([1.0, 2.0]))
    >>> frule((NoTangent(), D), D.trace)[1]
    3.0
    """
    return _frule_of(a.trace(offset, dtype), tangents, lambda dA: np.trace(dA, offset, dtype=dtype))


# ---- diag, diagonal --------------------------------------------------------------------------------------------
@rrule.register(np.diag, STRUCTURED)
def diag_rrule(v: StructuredMatrix, k: int = 0) -> Any:
    """Reverse rule of ``np.diag(A)`` (the ``k`` diagonal): the cotangent on that diagonal, in ``A``'s structure.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> from chainrules.structured import Tridiagonal
    >>> T = Tridiagonal(np.ones(1), np.ones(2), np.ones(1))
    >>> y, pullback = rrule(np.diag, T, 1)
    >>> pullback(np.array([5.0]))[1]
    Tridiagonal(array([0.]), array([0., 0.]), array([5.]))
    """
    return _on_diagonal_rrule(np.diag(v, k), v, int(k), 1, "numpy.diag")


@frule.register(np.diag, STRUCTURED)
def diag_frule(tangents: Any, v: StructuredMatrix, k: int = 0) -> Any:
    """Forward rule of ``np.diag(A)``: the diagonal of ``dA``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> from chainrules.structured import Diagonal
    >>> D = Diagonal(np.array([1.0, 2.0]))
    >>> frule((NoTangent(), D), np.diag, D)[1]
    array([1., 2.])
    """
    return _frule_of(np.diag(v, k), tangents, lambda dA: np.diag(dA, k))


@rrule.register(np.diagonal, STRUCTURED)
def diagonal_rrule(a: StructuredMatrix, offset: int = 0, axis1: int = 0, axis2: int = 1) -> Any:
    """Reverse rule of ``np.diagonal(A)``: the cotangent on that diagonal, in ``A``'s structure.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> from chainrules.structured import Diagonal
    >>> D = Diagonal(np.array([1.0, 2.0]))
    >>> y, pullback = rrule(np.diagonal, D)
    >>> pullback(np.array([5.0, 6.0]))[1]
    Diagonal(array([5., 6.]))
    """
    k = _diagonal_offset(offset, axis1, axis2)
    return _on_diagonal_rrule(np.diagonal(a, offset, axis1, axis2), a, k, 3, "numpy.diagonal")


@frule.register(np.diagonal, STRUCTURED)
def diagonal_frule(tangents: Any, a: StructuredMatrix, offset: int = 0, axis1: int = 0, axis2: int = 1) -> Any:
    """Forward rule of ``np.diagonal(A)``: the diagonal of ``dA``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> from chainrules.structured import Diagonal
    >>> D = Diagonal(np.array([1.0, 2.0]))
    >>> frule((NoTangent(), D), np.diagonal, D)[1]
    array([1., 2.])
    """
    return _frule_of(np.diagonal(a, offset, axis1, axis2), tangents,
                     lambda dA: np.diagonal(dA, offset, axis1, axis2))


@rrule.register(StructuredMatrix.diagonal, STRUCTURED)
def diagonal_method_rrule(a: StructuredMatrix, offset: int = 0) -> Any:
    """Reverse rule of the method ``A.diagonal(offset)``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> from chainrules.structured import Diagonal
    >>> D = Diagonal(np.array([1.0, 2.0]))
    >>> y, pullback = rrule(D.diagonal)
    >>> pullback(np.array([5.0, 6.0]))[1]
    Diagonal(array([5., 6.]))
    """
    return _on_diagonal_rrule(a.diagonal(offset), a, int(offset), 1, "StructuredMatrix.diagonal")


@frule.register(StructuredMatrix.diagonal, STRUCTURED)
def diagonal_method_frule(tangents: Any, a: StructuredMatrix, offset: int = 0) -> Any:
    """Forward rule of the method ``A.diagonal(offset)``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> from chainrules.structured import Diagonal
    >>> D = Diagonal(np.array([1.0, 2.0]))
    >>> frule((NoTangent(), D), D.diagonal)[1]
    array([1., 2.])
    """
    return _frule_of(a.diagonal(offset), tangents, lambda dA: np.diagonal(dA, offset))


# ---- sum -------------------------------------------------------------------------------------------------------
def _sum_rrule(y: Any, A: StructuredMatrix, axis: Any, keepdims: bool, n_options: int, name: str) -> Any:
    project_A: Any = cotangent_projector(A)
    axes = normalise_axes(axis)
    trailing = (NO,) * n_options
    n = A.n

    def sum_pullback(dy: Any) -> tuple[Any, ...]:
        dy = read_output(dy, y, name)
        if passes_through(dy):
            return (NO, project_A(dy), *trailing)
        if axes == ():
            return (NO, project_A(dy), *trailing)
        values = np.ravel(dy)
        ones = np.ones((1, n), dtype=values.dtype)
        if axes == (0, 1):
            dA = project_A.constant(values[0])  # dy on every entry the structure keeps
        elif axes == (0,):
            dA = project_A.product(ones.T, values[None, :])      # entry (i, j) gets dy[j]
        else:
            dA = project_A.product(values[:, None], ones)        # entry (i, j) gets dy[i]
        return (NO, dA, *trailing)

    return y, sum_pullback


@rrule.register(np.sum, STRUCTURED)
def sum_rrule(a: StructuredMatrix, axis: Any = None, dtype: Any = None, out: Any = None, keepdims: Any = _NOVALUE,
              initial: Any = _NOVALUE, where: Any = _NOVALUE) -> Any:
    """Reverse rule of ``np.sum(A)`` (all entries, or along ``axis``): ``dy`` on the kept entries of ``A``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> from chainrules.structured import Bidiagonal
    >>> y, pullback = rrule(np.sum, Bidiagonal(np.ones(3), np.ones(2)))
    >>> y, pullback(1.0)[1]
    (np.float64(5.0), Bidiagonal(array([1., 1., 1.]), array([1., 1.])))
    """
    _reject(np.sum, out=out, initial=initial, where=where)
    keep = bool(keepdims) if keepdims is not _NOVALUE else False
    return _sum_rrule(a.sum(axis, dtype, keepdims=keep), a, axis, keep, 6, "numpy.sum")


@frule.register(np.sum, STRUCTURED)
def sum_frule(tangents: Any, a: StructuredMatrix, axis: Any = None, dtype: Any = None, out: Any = None,
              keepdims: Any = _NOVALUE, initial: Any = _NOVALUE, where: Any = _NOVALUE) -> Any:
    """Forward rule of ``np.sum(A)``: the sum of ``dA``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> from chainrules.structured import Diagonal
    >>> D = Diagonal(np.array([1.0, 2.0]))
    >>> frule((NoTangent(), D, NoTangent()), np.sum, D, 0)[1]
    array([1., 2.])
    """
    _reject(np.sum, out=out, initial=initial, where=where)
    keep = bool(keepdims) if keepdims is not _NOVALUE else False
    return _frule_of(a.sum(axis, dtype, keepdims=keep), tangents, lambda dA: np.sum(dA, axis, dtype, keepdims=keep))


@rrule.register(StructuredMatrix.sum, STRUCTURED)
def sum_method_rrule(a: StructuredMatrix, axis: Any = None, dtype: Any = None, out: Any = None,
                     keepdims: bool = False) -> Any:
    """Reverse rule of the method ``A.sum(axis)`` (as :func:`sum_rrule`).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> from chainrules.structured import Diagonal
    >>> D = Diagonal(np.array([1.0, 2.0]))
    >>> y, pullback = rrule(D.sum, 1)
    >>> pullback(np.array([1.0, 2.0]))[1]
    Diagonal(array([1., 2.]))
    """
    _reject(StructuredMatrix.sum, out=out)
    return _sum_rrule(a.sum(axis, dtype, keepdims=bool(keepdims)), a, axis, bool(keepdims), 4,
                      "StructuredMatrix.sum")


@frule.register(StructuredMatrix.sum, STRUCTURED)
def sum_method_frule(tangents: Any, a: StructuredMatrix, axis: Any = None, dtype: Any = None, out: Any = None,
                     keepdims: bool = False) -> Any:
    """Forward rule of the method ``A.sum(axis)``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> from chainrules.structured import Diagonal
    >>> D = Diagonal(np.array([1.0, 2.0]))
    >>> frule((NoTangent(), D), D.sum)[1]
    3.0
    """
    _reject(StructuredMatrix.sum, out=out)
    return _frule_of(a.sum(axis, dtype, keepdims=bool(keepdims)), tangents,
                     lambda dA: np.sum(dA, axis, dtype, keepdims=bool(keepdims)))


# ---- sample inputs ----------------------------------------------------------------------------------------
@sample_inputs(np.trace, StructuredMatrix.trace, np.diag, np.diagonal, StructuredMatrix.diagonal, np.sum,
               StructuredMatrix.sum)
def _structured_reduction_samples(rng: np.random.Generator) -> list[Sample]:
    out = [Sample(m, label=label) for label, m in every_kind(rng)]
    out += [Sample(structured(rng, Tridiagonal, False, 3, np.complex128), label="complex Tridiagonal"),
            Sample(structured(rng, Bidiagonal, False, 3, np.float32), label="float32 Bidiagonal")]
    return out


@sample_inputs(np.trace, np.diag, np.diagonal, StructuredMatrix.trace, StructuredMatrix.diagonal)
def _off_diagonal_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(structured(rng, Tridiagonal), 1, label="Tridiagonal, offset 1 by position"),
            Sample(structured(rng, LowerTriangular), -1, label="LowerTriangular, offset -1")]


@sample_inputs(np.sum, StructuredMatrix.sum)
def _axis_sum_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(structured(rng, SymTridiagonal), 0, label="SymTridiagonal, axis=0 by position"),
            Sample(structured(rng, UpperTriangular), fkwargs={"axis": 1, "keepdims": True},
                   label="UpperTriangular, axis=1, keepdims")]
