"""``np.diag``, ``np.diagflat``, ``np.triu`` and ``np.tril``: the dense ways in and out of structure.

All four are linear maps that pick or place entries, and their pullbacks pick or place
the same entries of the cotangent:

* ``np.diag(v, k)`` of a vector builds a matrix with ``v`` on diagonal ``k``:
  ``dv = np.diagonal(dY, k)``; of a matrix it reads diagonal ``k``: ``dA`` is ``dy`` on
  that diagonal and zero elsewhere. That cotangent is an ``InplaceableThunk``: an
  accumulator gets ``dy`` added to its diagonal in place, ``O(n)`` instead of a dense
  ``n x n`` temporary (the dense-input counterpart of the ``Diagonal`` cotangent a
  structured input gets);
* ``np.diagflat(v, k)``: ``dv = np.diagonal(dY, k)`` in the shape of ``v``;
* ``np.triu(m, k)``, ``np.tril(m, k)`` (stacks too): ``dm = np.triu(dY, k)``
  (``np.tril``); a 1-d ``m`` (broadcast to a square by NumPy) gets the column sums.

The same four functions on a structured matrix read its dense form; their cotangent is
projected back onto the structure.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from chainrules.rulesets.structured_matrices._samples import structured
from chainrules.rulesets.structured_matrices._tangents import NO, STRUCTURED, read_output, tangent_of
from chainrules.structured import Symmetric, Tridiagonal
from chainrules_core import (
    InplaceableThunk,
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


def _add_to_diagonal(acc: np.ndarray, values: np.ndarray, k: int) -> np.ndarray:
    """Add ``values`` to the ``k`` diagonal of the matrix ``acc``, in place."""
    rows = np.arange(max(0, -k), max(0, -k) + len(values))
    acc[rows, rows + k] += values
    return acc


def _placed_on_diagonal(values: np.ndarray, shape: tuple[int, int], k: int, dtype: Any) -> np.ndarray:
    out = np.zeros(shape, dtype=dtype)
    return _add_to_diagonal(out, values, k)


# ---- np.diag ---------------------------------------------------------------------------------------------------
@rrule.register(np.diag, np.ndarray)
def diag_rrule(v: np.ndarray, k: int = 0) -> Any:
    """Reverse rule of ``np.diag(v, k)`` on an ndarray (vector to matrix, or matrix to its diagonal).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule, unthunk
    >>> y, pullback = rrule(np.diag, np.array([[1.0, 2.0], [3.0, 4.0]]))
    >>> unthunk(pullback(np.array([5.0, 6.0]))[1])
    array([[5., 0.],
           [0., 6.]])
    >>> y, pullback = rrule(np.diag, np.array([1.0, 2.0]), 1)
    >>> pullback(np.arange(9.0).reshape(3, 3))[1]
    array([1., 5.])
    """
    y = np.diag(v, k)
    k = int(k)
    project_v, project_y = cotangent_projector(v), ProjectTo(y)

    def diag_pullback(dy: Any) -> tuple[Any, Any, Any]:
        d = read_output(dy, y, "numpy.diag", project_y)
        if passes_through(d):
            return NO, project_v(d), NO
        if v.ndim == 1:
            return NO, project_v(np.diagonal(d, k).copy()), NO
        if v.dtype.kind not in "fc":
            return NO, NO, NO
        values = d.real if v.dtype.kind == "f" and np.iscomplexobj(d) else d

        def add_to(acc: np.ndarray) -> np.ndarray:
            return _add_to_diagonal(acc, values, k)

        thunk = Thunk(lambda: project_v(_placed_on_diagonal(values, v.shape, k, v.dtype)))
        return NO, InplaceableThunk(add_to, thunk), NO

    return y, diag_pullback


@frule.register(np.diag, np.ndarray)
def diag_frule(tangents: Any, v: np.ndarray, k: int = 0) -> Any:
    """Forward rule of ``np.diag(v, k)``: ``np.diag(dv, k)``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> frule((NoTangent(), np.ones(2), NoTangent()), np.diag, np.array([1.0, 2.0]), 1)[1]
    array([[0., 1., 0.],
           [0., 0., 1.],
           [0., 0., 0.]])
    """
    y = np.diag(v, k)
    dv = tangent_of(tangents[1])
    return y, ZeroTangent() if dv is None else ProjectTo(y)(np.diag(np.asarray(dv), k))


@rrule.register(np.diagflat, np.ndarray)
def diagflat_rrule(v: np.ndarray, k: int = 0) -> Any:
    """Reverse rule of ``np.diagflat(v, k)``: the ``k`` diagonal of the cotangent, in the shape of ``v``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> y, pullback = rrule(np.diagflat, np.array([[1.0, 2.0]]))
    >>> pullback(np.array([[3.0, 9.0], [9.0, 4.0]]))[1]
    array([[3., 4.]])
    """
    y = np.diagflat(v, k)
    project_v, project_y = cotangent_projector(v), ProjectTo(y)

    def diagflat_pullback(dy: Any) -> tuple[Any, Any, Any]:
        d = read_output(dy, y, "numpy.diagflat", project_y)
        if passes_through(d):
            return NO, project_v(d), NO
        return NO, project_v(np.diagonal(d, int(k)).reshape(v.shape)), NO

    return y, diagflat_pullback


@frule.register(np.diagflat, np.ndarray)
def diagflat_frule(tangents: Any, v: np.ndarray, k: int = 0) -> Any:
    """Forward rule of ``np.diagflat(v, k)``: ``np.diagflat(dv, k)``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> frule((NoTangent(), np.ones((1, 2))), np.diagflat, np.zeros((1, 2)))[1]
    array([[1., 0.],
           [0., 1.]])
    """
    y = np.diagflat(v, k)
    dv = tangent_of(tangents[1])
    return y, ZeroTangent() if dv is None else ProjectTo(y)(np.diagflat(np.asarray(dv), k))


# ---- np.triu, np.tril ------------------------------------------------------------------------------------------
def _triangle_rrule(f: Any, m: Any, k: Any) -> Any:
    dense_m = m.to_dense() if isinstance(m, STRUCTURED) else m
    y = f(dense_m, k)
    project_m, project_y = cotangent_projector(m), ProjectTo(y)
    shape = np.shape(m)
    name = f.__name__

    def triangle_pullback(dy: Any) -> tuple[Any, Any, Any]:
        d = read_output(dy, y, f"numpy.{name}", project_y)
        if passes_through(d):
            return NO, project_m(d), NO
        return NO, project_m(unbroadcast(f(d, k), shape)), NO

    triangle_pullback.__name__ = triangle_pullback.__qualname__ = f"{name}_pullback"
    return y, triangle_pullback


def _triangle_frule(f: Any, tangents: Any, m: Any, k: Any) -> Any:
    y = f(m.to_dense() if isinstance(m, STRUCTURED) else m, k)
    dm = tangent_of(tangents[1])
    return y, ZeroTangent() if dm is None else ProjectTo(y)(f(np.asarray(dm), k))


@rrule.register(np.triu, np.ndarray)
@rrule.register(np.triu, STRUCTURED)
def triu_rrule(m: Any, k: int = 0) -> Any:
    """Reverse rule of ``np.triu(m, k)``: ``dm = np.triu(dY, k)``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> y, pullback = rrule(np.triu, np.ones((2, 2)))
    >>> pullback(np.array([[1.0, 2.0], [3.0, 4.0]]))[1]
    array([[1., 2.],
           [0., 4.]])
    """
    return _triangle_rrule(np.triu, m, k)


@frule.register(np.triu, np.ndarray)
@frule.register(np.triu, STRUCTURED)
def triu_frule(tangents: Any, m: Any, k: int = 0) -> Any:
    """Forward rule of ``np.triu(m, k)``: ``np.triu(dm, k)``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> frule((NoTangent(), np.ones((2, 2))), np.triu, np.zeros((2, 2)))[1]
    array([[1., 1.],
           [0., 1.]])
    """
    return _triangle_frule(np.triu, tangents, m, k)


@rrule.register(np.tril, np.ndarray)
@rrule.register(np.tril, STRUCTURED)
def tril_rrule(m: Any, k: int = 0) -> Any:
    """Reverse rule of ``np.tril(m, k)``: ``dm = np.tril(dY, k)``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> y, pullback = rrule(np.tril, np.ones((2, 2)), -1)
    >>> pullback(np.array([[1.0, 2.0], [3.0, 4.0]]))[1]
    array([[0., 0.],
           [3., 0.]])
    """
    return _triangle_rrule(np.tril, m, k)


@frule.register(np.tril, np.ndarray)
@frule.register(np.tril, STRUCTURED)
def tril_frule(tangents: Any, m: Any, k: int = 0) -> Any:
    """Forward rule of ``np.tril(m, k)``: ``np.tril(dm, k)``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> frule((NoTangent(), np.ones((2, 2))), np.tril, np.zeros((2, 2)))[1]
    array([[1., 0.],
           [1., 1.]])
    """
    return _triangle_frule(np.tril, tangents, m, k)


# ---- sample inputs ----------------------------------------------------------------------------------------
@sample_inputs(np.diag)
def _diag_samples(rng: np.random.Generator) -> list[Sample]:
    v, m = rng.standard_normal(3), rng.standard_normal((3, 4))
    return [
        Sample(v, label="a vector: a diagonal matrix"),
        Sample(v, -1, label="a vector on diagonal k=-1 (by position)"),
        Sample(m, label="a matrix: its diagonal"),
        Sample(m, fkwargs={"k": 1}, label="a matrix, k=1 by keyword"),
        Sample(m.astype(np.float32), label="float32"),
        Sample(v + 1j * rng.standard_normal(3), label="complex"),
    ]


@sample_inputs(np.diagflat)
def _diagflat_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample(rng.standard_normal((2, 2)), label="a matrix, flattened"),
        Sample(rng.standard_normal(3), 1, label="k=1 by position"),
        Sample(rng.standard_normal(3).astype(np.float32), fkwargs={"k": -2}, label="float32, k by keyword"),
        Sample(rng.standard_normal(2) + 1j, label="complex"),
    ]


@sample_inputs(np.triu, np.tril)
def _triangle_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample(rng.standard_normal((3, 4)), label="a matrix"),
        Sample(rng.standard_normal((2, 3, 3)), -1, label="a stack, k=-1 by position"),
        Sample(rng.standard_normal(3), fkwargs={"k": 1}, label="a vector (broadcast to a square), k by keyword"),
        Sample(rng.standard_normal((3, 3)).astype(np.float32) + 1j, label="complex64"),
        Sample(structured(rng, Tridiagonal), label="Tridiagonal"),
        Sample(structured(rng, Symmetric, True), 1, label="Symmetric, k=1"),
    ]
