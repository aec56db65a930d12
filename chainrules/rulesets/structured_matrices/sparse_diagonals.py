"""Diagonals and triangles of ``scipy.sparse``: ``diags``, ``diags_array``, ``spdiags``, ``tril`` and ``triu``.

The maths
---------
All are linear: the frule applies the function to the tangents, and the pullback gathers
the output cotangent (read on the output's stored pattern) back where each input value went.

* ``diags_array(diagonals, offsets=k)`` (and the legacy ``diags``) puts ``diagonals[j][i]``
  at ``(c - k_j, c)``, ``c = max(0, k_j) + i``, for ``i`` below the diagonal's length in the
  output (longer diagonals are truncated, a length-one diagonal is broadcast along the
  whole diagonal). The cotangent of ``diagonals[j][i]`` is the cotangent at that position
  (zero for a truncated value; the sum along the diagonal for a broadcast one).
* ``spdiags(data, diags, m, n)`` stores ``data[j, c]`` at ``(c - diags[j], c)`` when that is
  inside the ``m x n`` output; the cotangent of ``data`` is the output cotangent gathered
  there, zero elsewhere.
* ``tril(A, k)`` / ``triu(A, k)`` keep the stored entries on one side of the ``k``-th
  diagonal: the output cotangent, which lives on those entries, projected onto ``A``'s
  pattern (``O(nnz)``), or an array for a dense ``A``.

The ``format=`` keyword is honoured: the output cotangent is read on the pattern of the
output in that format.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import scipy.sparse as sp

from chainrules.rulesets.structured_matrices._samples import banded, sparse
from chainrules.rulesets.structured_matrices._sparse_linear import linear_frule
from chainrules.rulesets.structured_matrices._tangents import NO, read_output
from chainrules.structured.sparse import SPARSE_TYPES, gather
from chainrules_core import (
    ProjectTo,
    Sample,
    cotangent_projector,
    frule,
    passes_through,
    rrule,
    sample_inputs,
)

DIAGONALS = (list, tuple, np.ndarray)
MATRIX = (*SPARSE_TYPES, np.ndarray)


# ---- diags / diags_array ----------------------------------------------------------------------------------
def _diagonal_positions(y_shape: tuple[int, int], offsets: Any, count: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """The output positions ``(rows, cols)`` of the entries of each of the ``count`` diagonals."""
    m, n = y_shape
    offsets = np.atleast_1d(np.asarray(offsets)).tolist()
    positions = []
    for j in range(count):
        k = int(offsets[j])
        length = max(min(m + k, n - k, min(m, n)), 0)
        cols = max(0, k) + np.arange(length)
        positions.append((cols - k, cols))
    return positions


def _diags_cotangent(diagonals: Any, offsets: Any, y: Any, dY: Any) -> Any:
    """The cotangent of ``diagonals`` (as given: a list, a 2-d array, or one diagonal) from the output's."""
    single = np.ndim(offsets) == 0 and (len(diagonals) == 0 or np.ndim(diagonals[0]) == 0)
    rows_of = [np.asarray(diagonals)] if single else list(diagonals)
    pieces = []
    for (rows, cols), diagonal in zip(_diagonal_positions(y.shape, offsets, len(rows_of)), rows_of):
        values = gather(dY, rows, cols)
        size = np.shape(diagonal)[-1] if np.ndim(diagonal) else 1
        piece = np.zeros(size, dtype=values.dtype)
        if size == 1 and len(values) != 1:
            piece[0] = values.sum()                 # broadcast along the diagonal
        else:
            piece[:len(values)] = values[:size]     # values past the output's length are dropped
        pieces.append(piece if np.ndim(diagonal) else piece[0])
    if single:
        return pieces[0] if isinstance(diagonals, np.ndarray) else list(pieces[0])
    if isinstance(diagonals, np.ndarray):
        return np.stack(pieces) if pieces else np.zeros(diagonals.shape)
    return pieces


def _diags_rule(f: Callable[..., Any], name: str, offsets_position: bool) -> tuple[Any, Any]:
    def diags_rrule(diagonals: Any, *args: Any, **kwargs: Any) -> Any:
        y = f(diagonals, *args, **kwargs)
        offsets = args[0] if offsets_position and args else kwargs.get("offsets", 0)
        project_diagonals, project_y = cotangent_projector(diagonals), ProjectTo(y)
        nargs = len(args)

        def diags_pullback(dy: Any) -> tuple[Any, ...]:
            dY = read_output(dy, y, name, project_y)
            if passes_through(dY):
                return NO, dY, *(NO,) * nargs
            return NO, project_diagonals(_diags_cotangent(diagonals, offsets, y, dY)), *(NO,) * nargs

        diags_pullback.__name__ = f"{f.__name__}_pullback"
        return y, diags_pullback

    def diags_frule(tangents: Any, diagonals: Any, *args: Any, **kwargs: Any) -> Any:
        y = f(diagonals, *args, **kwargs)
        return linear_frule(f, y, (diagonals, *args), tangents, (0,), kwargs)

    diags_rrule.__name__ = diags_rrule.__qualname__ = f"{f.__name__}_rrule"
    diags_frule.__name__ = diags_frule.__qualname__ = f"{f.__name__}_frule"
    diags_rrule.__doc__ = f"Reverse rule of ``{name}``: the output cotangent gathered along each diagonal."
    diags_frule.__doc__ = f"Forward rule of ``{name}``: the same diagonals of the tangents."
    return diags_rrule, diags_frule


for _f, _name, _positional in ((sp.diags, "scipy.sparse.diags", True),
                               (sp.diags_array, "scipy.sparse.diags_array", False)):
    _r, _fr = _diags_rule(_f, _name, _positional)
    rrule.register(_f, DIAGONALS)(_r)
    frule.register(_f, DIAGONALS)(_fr)


# ---- spdiags -----------------------------------------------------------------------------------------------
@rrule.register(sp.spdiags, DIAGONALS)
def spdiags_rrule(data: Any, diags: Any, m: Any = None, n: Any = None, format: Any = None) -> Any:
    """Reverse rule of ``scipy.sparse.spdiags``: the output cotangent gathered where each ``data[j, c]`` went.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.sparse as sp
    >>> from chainrules import rrule
    >>> y, pullback = rrule(sp.spdiags, np.array([[1.0, 2.0, 3.0]]), 1, 3, 3)
    >>> pullback(np.arange(9.0).reshape(3, 3))[1]
    array([[0., 1., 5.]])
    """
    y = sp.spdiags(data, diags, m, n, format)
    project_data, project_y = cotangent_projector(data), ProjectTo(y)
    shape2d = np.atleast_2d(np.asarray(data)).shape
    offsets = np.atleast_1d(np.asarray(diags))
    rows = np.arange(shape2d[1])[None, :] - offsets[:, None]
    cols = np.broadcast_to(np.arange(shape2d[1]), shape2d)
    inside = (rows >= 0) & (rows < y.shape[0]) & (cols < y.shape[1])

    def spdiags_pullback(dy: Any) -> tuple[Any, ...]:
        dY = read_output(dy, y, "scipy.sparse.spdiags", project_y)
        if passes_through(dY):
            return NO, project_data(dY), NO, NO, NO, NO
        values = gather(dY, rows[inside], cols[inside])
        d_data = np.zeros(shape2d, dtype=values.dtype)
        d_data[inside] = values
        return NO, project_data(d_data.reshape(np.shape(data))), NO, NO, NO, NO

    return y, spdiags_pullback


@frule.register(sp.spdiags, DIAGONALS)
def spdiags_frule(tangents: Any, data: Any, diags: Any, m: Any = None, n: Any = None,
                  format: Any = None) -> Any:
    """Forward rule of ``scipy.sparse.spdiags``: the same diagonals of the tangent of ``data``.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.sparse as sp
    >>> from chainrules import frule, NoTangent
    >>> data = np.array([[1.0, 2.0]])
    >>> frule((NoTangent(), data, NoTangent()), sp.spdiags, data, 0)[1].toarray()
    array([[1., 0.],
           [0., 2.]])
    """
    y = sp.spdiags(data, diags, m, n, format)
    return linear_frule(sp.spdiags, y, (data, diags, m, n, format), tangents + (None,) * (6 - len(tangents)),
                        (0,), {})


# ---- tril / triu -------------------------------------------------------------------------------------------
def _triangle_rule(f: Callable[..., Any], name: str) -> tuple[Any, Any]:
    def triangle_rrule(A: Any, k: Any = 0, format: Any = None) -> Any:
        y = f(A, k, format)
        project_A, project_y = cotangent_projector(A), ProjectTo(y)

        def triangle_pullback(dy: Any) -> tuple[Any, Any, Any, Any]:
            dY = read_output(dy, y, name, project_y)  # on y's pattern: the kept entries only
            if passes_through(dY):
                return NO, project_A(dY), NO, NO
            return NO, project_A(dY if sp.issparse(A) else dY.toarray()), NO, NO

        triangle_pullback.__name__ = f"{f.__name__}_pullback"
        return y, triangle_pullback

    def triangle_frule(tangents: Any, A: Any, k: Any = 0, format: Any = None) -> Any:
        y = f(A, k, format)
        return linear_frule(f, y, (A, k, format), tangents + (None,) * (4 - len(tangents)), (0,), {})

    triangle_rrule.__name__ = triangle_rrule.__qualname__ = f"{f.__name__}_rrule"
    triangle_frule.__name__ = triangle_frule.__qualname__ = f"{f.__name__}_frule"
    triangle_rrule.__doc__ = f"Reverse rule of ``{name}``: the output cotangent (kept entries) on ``A``'s pattern."
    triangle_frule.__doc__ = f"Forward rule of ``{name}``: the same triangle of the tangent."
    return triangle_rrule, triangle_frule


for _f, _name in ((sp.tril, "scipy.sparse.tril"), (sp.triu, "scipy.sparse.triu")):
    _r, _fr = _triangle_rule(_f, _name)
    rrule.register(_f, MATRIX)(_r)
    frule.register(_f, MATRIX)(_fr)


# ---- sample inputs ----------------------------------------------------------------------------------------
def _normal(rng: np.random.Generator, *shape: int, dtype: Any = np.float64) -> np.ndarray:
    v = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        v = v + 1j * rng.standard_normal(shape)
    return v.astype(dtype)


@sample_inputs(sp.diags_array)
def _diags_array_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample(_normal(rng, 3), label="the main diagonal"),
        Sample([_normal(rng, 2), _normal(rng, 3), _normal(rng, 2)], fkwargs={"offsets": [-1, 0, 1]},
               label="three diagonals, a list"),
        Sample(_normal(rng, 2, 3), fkwargs={"offsets": [0, 1], "shape": (3, 4), "format": "csr"},
               label="a 2-d array of diagonals, rectangular, csr"),
        Sample([_normal(rng, 1), _normal(rng, 4)], fkwargs={"offsets": [1, 0], "shape": (3, 3)},
               label="a broadcast diagonal and a truncated one"),
        Sample(_normal(rng, 3, dtype=np.complex128), fkwargs={"offsets": -1, "shape": (4, 3)}, label="complex"),
        Sample(_normal(rng, 3, dtype=np.float32), fkwargs={"dtype": None}, label="float32"),
    ]


@sample_inputs(sp.diags)
def _diags_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample(_normal(rng, 3), label="the main diagonal"),
        Sample([_normal(rng, 2), _normal(rng, 3)], [1, 0], label="two diagonals, offsets by position"),
        Sample(_normal(rng, 2, 3), fkwargs={"offsets": [0, -1], "shape": (4, 3), "format": "csc"},
               label="a 2-d array of diagonals, csc"),
        Sample(_normal(rng, 2, dtype=np.complex128), 1, label="complex"),
        Sample(_normal(rng, 3, dtype=np.float32), fkwargs={"dtype": None}, label="float32"),
    ]


@sample_inputs(sp.spdiags)
def _spdiags_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample(_normal(rng, 3, 4), np.array([0, -1, 2]), 4, 4, label="square, three diagonals"),
        Sample(_normal(rng, 2, 3), [0, 1], 3, 2, "csr", label="rectangular, csr by position"),
        Sample(_normal(rng, 1, 3), 0, fkwargs={"m": (3, 3), "format": "coo"}, label="shape as m, by keyword"),
        Sample(_normal(rng, 2, 3, dtype=np.complex128), [0, -1], 3, 3, label="complex"),
        Sample(_normal(rng, 1, 3, dtype=np.float32), 1, 3, 3, label="float32"),
    ]


def _triangle_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample(sparse(rng, "csr", (4, 4)), label="csr"),
        Sample(sparse(rng, "coo", (3, 4)), 1, label="coo, k=1 by position"),
        Sample(sparse(rng, "csc", (4, 3)), fkwargs={"k": -1, "format": "csr"}, label="csc, k=-1, csr output"),
        Sample(banded(rng, (3, 3)), 0, "lil", label="dia, lil output by position"),
        Sample(sparse(rng, "bsr", (4, 4), matrix=True), label="bsr_matrix"),
        Sample(sparse(rng, "dok", (3, 3), np.complex128), label="complex dok"),
        Sample(sparse(rng, "csr", (3, 3), np.float32), label="float32"),
        Sample(rng.standard_normal((3, 3)), label="a dense array"),
    ]


sample_inputs(sp.tril)(_triangle_samples)
sample_inputs(sp.triu)(_triangle_samples)
