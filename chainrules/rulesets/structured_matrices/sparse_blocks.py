"""Block constructors of ``scipy.sparse``: ``hstack``, ``vstack``, ``bmat``, ``block_array`` and ``block_diag``.

The maths
---------
Each builds a matrix out of blocks (sparse arrays or matrices, dense arrays, ``None`` for
an empty block of ``bmat``/``block_array``) without changing a value: it is linear. The
frule builds the same matrix out of the blocks' tangents; the pullback reads the output
cotangent on the output's stored pattern, cuts it into the blocks (``csr`` slices,
``O(nnz)`` for the whole grid of a ``block_diag``) and projects each piece onto its
block's pattern (a dense block gets a dense piece of its own shape).

The blocks argument and its cotangent
-------------------------------------
The argument holding the blocks is a list (nested for ``bmat``/``block_array``) or a
tuple; its cotangent is a structural ``Tangent`` of the same type
(``Tangent(list, dA, dB)``, nested ``Tangent(list, Tangent(list, dA, NoTangent()), ...)``
with ``NoTangent()`` for a ``None`` block), as for ``np.concatenate``. The ``format=``
and ``dtype=`` keywords are honoured: the output cotangent is read on the pattern of the
output in that format, and cast back to each block's dtype.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import scipy.sparse as sp

from chainrules.rulesets.structured_matrices._samples import banded, sparse
from chainrules.rulesets.structured_matrices._sparse_linear import linear_frule
from chainrules.rulesets.structured_matrices._tangents import NO, read_output
from chainrules.structured.sparse import is_sparse
from chainrules_core import (
    ProjectTo,
    Sample,
    cotangent_projector,
    frule,
    passes_through,
    rrule,
    sample_inputs,
)

SEQUENCE = (list, tuple)

Grid = list[list[Any]]


def _shape2d(block: Any) -> tuple[int, int]:
    """The shape a block takes in the grid (a 1-d array is a row, as SciPy treats it)."""
    shape = block.shape if is_sparse(block) else np.shape(block)
    if len(shape) == 2:
        return int(shape[0]), int(shape[1])
    return (1, int(np.prod(shape)))


def _bounds(grid: Grid) -> tuple[list[int], list[int]]:
    """The row offsets of the grid's block rows and the column offsets of its block columns."""
    nrows, ncols = len(grid), max((len(r) for r in grid), default=0)
    heights, widths = [0] * nrows, [0] * ncols
    for i, row in enumerate(grid):
        for j, block in enumerate(row):
            if block is not None:
                heights[i], widths[j] = _shape2d(block)
    return np.concatenate(([0], np.cumsum(heights))).tolist(), np.concatenate(([0], np.cumsum(widths))).tolist()


def _cut(grid: Grid, dY: Any) -> Grid:
    """The piece of the output cotangent ``dY`` each block of the grid contributed, in its block's shape."""
    row_at, col_at = _bounds(grid)
    csr = sp.csr_array(dY)
    pieces: Grid = []
    for i, row in enumerate(grid):
        out: list[Any] = []
        for j, block in enumerate(row):
            if block is None:
                out.append(None)
                continue
            piece = csr[row_at[i]:row_at[i + 1], col_at[j]:col_at[j + 1]]
            shape = block.shape if is_sparse(block) else np.shape(block)
            if is_sparse(block):
                out.append(piece if piece.shape == shape else piece.reshape(shape))
            else:
                out.append(piece.toarray().reshape(shape))
        pieces.append(out)
    return pieces


def _blocks_rule(f: Callable[..., Any], name: str, to_grid: Callable[[Any], Grid],
                 from_grid: Callable[[Grid], Any]) -> Callable[..., Any]:
    """The rrule of a block constructor ``f(blocks, ...)``: ``to_grid`` lays the argument out as a grid
    of blocks, ``from_grid`` puts a grid of cotangent pieces back into the argument's form."""

    def blocks_rrule(blocks: Any, *args: Any, **kwargs: Any) -> Any:
        y = f(blocks, *args, **kwargs)
        grid = to_grid(blocks)
        project_blocks, project_y = cotangent_projector(blocks), ProjectTo(y)
        nargs = len(args)

        def blocks_pullback(dy: Any) -> tuple[Any, ...]:
            dY = read_output(dy, y, name, project_y)
            if passes_through(dY):
                return NO, dY, *(NO,) * nargs
            return NO, project_blocks(from_grid(_cut(grid, dY))), *(NO,) * nargs

        blocks_pullback.__name__ = f"{f.__name__}_pullback"
        return y, blocks_pullback

    blocks_rrule.__name__ = blocks_rrule.__qualname__ = f"{f.__name__}_rrule"
    blocks_rrule.__doc__ = f"""Reverse rule of ``{name}``: the cotangent cut into the blocks (see the module docstring).

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.sparse as sp
    >>> from chainrules import rrule
    >>> y, pullback = rrule({name}, [sp.eye_array(1, format="csr"), sp.eye_array(1, format="csr")])
    >>> [d.toarray() for d in pullback(np.array([[1.0, 2.0], [3.0, 4.0]])[:y.shape[0], :y.shape[1]])[1]]
    [array([[1.]]), array([[{'4' if f is sp.block_diag else ('3' if f is sp.vstack else '2')}.]])]
    """
    return blocks_rrule


def _blocks_frule(f: Callable[..., Any], name: str) -> Callable[..., Any]:
    def blocks_frule(tangents: Any, blocks: Any, *args: Any, **kwargs: Any) -> Any:
        y = f(blocks, *args, **kwargs)
        return linear_frule(f, y, (blocks, *args), tangents, (0,), kwargs)

    blocks_frule.__name__ = blocks_frule.__qualname__ = f"{f.__name__}_frule"
    blocks_frule.__doc__ = f"""Forward rule of ``{name}``: the same blocks of the tangents.

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> from chainrules import frule, NoTangent
    >>> blocks = [sp.eye_array(1, format="csr"), sp.eye_array(1, format="csr")]
    >>> frule((NoTangent(), blocks), {name}, blocks)[1].toarray().sum()
    np.float64(2.0)
    """
    return blocks_frule


def _row(blocks: Sequence[Any]) -> Grid:
    return [list(blocks)]


def _column(blocks: Sequence[Any]) -> Grid:
    return [[b] for b in blocks]


def _nested(blocks: Sequence[Sequence[Any]]) -> Grid:
    return [list(r) for r in blocks]


def _diagonal(mats: Sequence[Any]) -> Grid:
    return [[m if i == j else None for j in range(len(mats))] for i, m in enumerate(mats)]


def _from_row(grid: Grid) -> list[Any]:
    return grid[0]


def _from_column(grid: Grid) -> list[Any]:
    return [r[0] for r in grid]


def _from_nested(grid: Grid) -> list[Any]:
    return grid


def _from_diagonal(grid: Grid) -> list[Any]:
    return [r[i] for i, r in enumerate(grid)]


_GEOMETRY = {
    sp.hstack: ("scipy.sparse.hstack", _row, _from_row),
    sp.vstack: ("scipy.sparse.vstack", _column, _from_column),
    sp.bmat: ("scipy.sparse.bmat", _nested, _from_nested),
    sp.block_array: ("scipy.sparse.block_array", _nested, _from_nested),
    sp.block_diag: ("scipy.sparse.block_diag", _diagonal, _from_diagonal),
}

for _f, (_name, _to_grid, _from_grid) in _GEOMETRY.items():
    rrule.register(_f, SEQUENCE)(_blocks_rule(_f, _name, _to_grid, _from_grid))
    frule.register(_f, SEQUENCE)(_blocks_frule(_f, _name))


# ---- sample inputs ----------------------------------------------------------------------------------------
@sample_inputs(sp.hstack)
def _hstack_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample([sparse(rng, "csr", (3, 2)), sparse(rng, "csc", (3, 3))], label="csr, csc"),
        Sample([sparse(rng, "coo", (2, 2)), banded(rng, (2, 3)), sparse(rng, "lil", (2, 1))], "csc",
               label="coo, dia, lil; format by position"),
        Sample((sparse(rng, "dok", (2, 2), matrix=True), sparse(rng, "bsr", (2, 2), matrix=True)),
               fkwargs={"format": "csr"}, label="a tuple of legacy matrices; format by keyword"),
        Sample([sparse(rng, "csr", (2, 2), np.complex128), sparse(rng, "csr", (2, 1))], label="complex and real"),
        Sample([sparse(rng, "csr", (2, 2), np.float32), sparse(rng, "csr", (2, 2), np.float32)], label="float32"),
        Sample([sparse(rng, "csr", (2, 2)), sparse(rng, "csr", (2, 2))], fkwargs={"dtype": np.complex128},
               label="float64 made complex by dtype="),
    ]


@sample_inputs(sp.vstack)
def _vstack_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample([sparse(rng, "csr", (2, 3)), sparse(rng, "csc", (1, 3))], label="csr, csc"),
        Sample([sparse(rng, "coo", (2, 2)), banded(rng, (3, 2), (0, -1))], "csr", label="coo, dia; format by position"),
        Sample([sparse(rng, "lil", (2, 2), matrix=True), sparse(rng, "dok", (2, 2), matrix=True)],
               fkwargs={"format": "coo"}, label="legacy matrices; format by keyword"),
        Sample([sparse(rng, "csr", (2, 2), np.complex128), sparse(rng, "bsr", (2, 2), np.complex128)],
               label="complex"),
        Sample([sparse(rng, "csr", (1, 2), np.float32), sparse(rng, "csr", (2, 2), np.float32)], label="float32"),
    ]


def _grid_samples(rng: np.random.Generator, keyword_only: bool = False) -> list[Sample]:
    dense_block = [[sparse(rng, "csr", (2, 2)), rng.standard_normal((2, 2))]]
    return [
        Sample([[sparse(rng, "csr", (2, 2)), None], [sparse(rng, "coo", (1, 2)), sparse(rng, "csc", (1, 3))]],
               label="csr, None / coo, csc"),
        Sample(dense_block, fkwargs={"format": "csc"}, label="a sparse and a dense block; format by keyword")
        if keyword_only else Sample(dense_block, "csc", label="a sparse and a dense block; format by position"),
        Sample([[banded(rng, (2, 2)), sparse(rng, "lil", (2, 1))], [sparse(rng, "dok", (1, 2)), None]],
               fkwargs={"format": "csr"}, label="dia, lil / dok, None; format by keyword"),
        Sample([[sparse(rng, "csr", (2, 2), np.complex128)], [sparse(rng, "bsr", (2, 2), np.complex128)]],
               label="complex"),
        Sample([[sparse(rng, "csr", (2, 2), np.float32), sparse(rng, "csr", (2, 1), np.float32)]], label="float32"),
    ]


@sample_inputs(sp.bmat)
def _bmat_samples(rng: np.random.Generator) -> list[Sample]:
    return [*_grid_samples(rng),
            Sample([[sparse(rng, "csr", (2, 2), matrix=True), None], [None, sparse(rng, "csc", (1, 1), matrix=True)]],
                   label="legacy matrices")]


@sample_inputs(sp.block_array)
def _block_array_samples(rng: np.random.Generator) -> list[Sample]:
    return _grid_samples(rng, keyword_only=True)


@sample_inputs(sp.block_diag)
def _block_diag_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample([sparse(rng, "csr", (2, 2)), sparse(rng, "csc", (1, 3)), sparse(rng, "coo", (2, 1))],
               label="csr, csc, coo"),
        Sample([sparse(rng, "lil", (2, 2)), rng.standard_normal((2, 3))], "csr",
               label="lil, dense; format by position"),
        Sample((banded(rng, (2, 2), matrix=True), sparse(rng, "dok", (2, 2), matrix=True)),
               fkwargs={"format": "csc"}, label="a tuple of legacy matrices; format by keyword"),
        Sample([sparse(rng, "csr", (2, 2), np.complex128), sparse(rng, "bsr", (2, 2), np.complex128)],
               label="complex"),
        Sample([sparse(rng, "csr", (2, 2), np.float32), sparse(rng, "csr", (1, 1), np.float32)], label="float32"),
    ]
