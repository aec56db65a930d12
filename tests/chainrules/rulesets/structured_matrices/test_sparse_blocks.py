"""Block constructors of ``scipy.sparse``: ``hstack``, ``vstack``, ``bmat``, ``block_array``, ``block_diag``."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

from chainrules import NoTangent, Tangent, frule, rrule
from chainrules.testing import test_frule, test_rrule
from chainrules.testing.structured import random_sparse

FORMATS = ["csr", "csc", "coo", "bsr", "lil", "dok"]


@pytest.mark.parametrize("fmt", FORMATS)
def test_stacks_of_every_format(fmt, fdm):
    a, b = random_sparse(fmt, (2, 3), rng=1), random_sparse("csr", (2, 3), rng=2)
    for f in (sp.hstack, sp.vstack, sp.block_diag):
        test_rrule(f, [a, b], fdm=fdm)
        test_frule(f, (a, b), fdm=fdm)
    test_rrule(sp.hstack, [a, b], "csc", fdm=fdm)
    test_rrule(sp.vstack, [a, b], fkwargs={"format": "dia"}, fdm=fdm)


def test_grids_with_empty_and_dense_blocks(rand, fdm):
    a, b = random_sparse("csr", (2, 2), rng=3), random_sparse("coo", (1, 3), rng=4)
    grid = [[a, None], [rand((1, 2)), b]]
    for f in (sp.bmat, sp.block_array):
        test_rrule(f, grid, fdm=fdm)
        test_frule(f, grid, fkwargs={"format": "csr"}, fdm=fdm)
    test_rrule(sp.block_diag, [a, rand((2, 3)), b], "csc", fdm=fdm)


@pytest.mark.parametrize("dtype", [np.float32, np.complex128], ids=["float32", "complex128"])
def test_precisions(dtype, fdm):
    a, b = random_sparse("csr", (2, 2), dtype, rng=5), random_sparse("csc", (2, 2), rng=6)
    test_rrule(sp.hstack, [a, b], fdm=fdm)
    test_frule(sp.bmat, [[a], [b]], fdm=fdm)
    y, pullback = rrule(sp.block_diag, [a, b])
    da, db = pullback(np.ones(y.shape, y.dtype))[1]
    assert da.dtype == dtype and db.dtype == np.float64


def test_cotangent_structure():
    """A list of blocks gets a Tangent(list, ...); a None block gets NoTangent(); each piece keeps its format."""
    a, b = sp.csr_array(np.array([[1.0, 0.0]])), sp.coo_array(np.array([[0.0, 2.0]]))
    _, pullback = rrule(sp.bmat, [[a, None], [None, b]])
    d = pullback(np.arange(8.0).reshape(2, 4))[1]
    assert isinstance(d, Tangent)
    (da, none_1), (none_2, db) = d
    assert none_1 == NoTangent() and none_2 == NoTangent()
    assert type(da) is sp.csr_array and type(db) is sp.coo_array
    np.testing.assert_array_equal(da.toarray(), [[0.0, 0.0]])    # a's pattern: only (0, 0)
    np.testing.assert_array_equal(db.toarray(), [[0.0, 7.0]])


def test_large_block_diag_stays_sparse():
    blocks = [sp.random_array((2000, 2000), density=1e-3, format="csr", rng=i) for i in range(5)]
    y, pullback = rrule(sp.block_diag, blocks, "csr")
    pieces = pullback(y)[1]
    for block, piece in zip(blocks, pieces):
        assert type(piece) is sp.csr_array and piece.nnz == block.nnz
        np.testing.assert_array_equal(piece.data, block.data)
    _, dy = frule((None, blocks, None), sp.block_diag, blocks, "csr")
    assert dy.nnz == y.nnz
