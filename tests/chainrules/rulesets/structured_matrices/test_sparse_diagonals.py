"""``scipy.sparse.diags``, ``diags_array``, ``spdiags``, ``tril`` and ``triu``."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

from chainrules import Tangent, rrule
from chainrules.testing import test_frule, test_rrule
from chainrules.testing.structured import random_sparse


def test_diags_array(rand, fdm):
    test_rrule(sp.diags_array, rand(3), fdm=fdm)
    test_frule(sp.diags_array, [rand(2), rand(3)], fkwargs={"offsets": [1, 0], "format": "csr"}, fdm=fdm)
    test_rrule(sp.diags_array, rand((2, 3)), fkwargs={"offsets": [0, -1], "shape": (4, 3)}, fdm=fdm)
    # a broadcast diagonal (length 1) and a truncated one (longer than the output's diagonal)
    test_rrule(sp.diags_array, [rand(1), rand(5)], fkwargs={"offsets": [-1, 0], "shape": (3, 3)}, fdm=fdm)
    test_rrule(sp.diags, [rand(2), rand(3)], [1, 0], fdm=fdm)
    test_frule(sp.diags, rand(2, np.complex128), 1, (3, 3), "csc", fdm=fdm)


def test_diags_cotangent_of_a_broadcast_and_a_truncated_diagonal():
    _, pullback = rrule(sp.diags_array, [np.ones(1), np.ones(4)], offsets=[1, 0], shape=(3, 3))
    d = pullback(np.arange(9.0).reshape(3, 3))[1]
    assert isinstance(d, Tangent)
    d_broadcast, d_truncated = d
    np.testing.assert_array_equal(d_broadcast, [1.0 + 5.0])           # the superdiagonal, summed
    np.testing.assert_array_equal(d_truncated, [0.0, 4.0, 8.0, 0.0])  # the fourth value is never used


def test_spdiags(rand, fdm):
    test_rrule(sp.spdiags, rand((3, 4)), np.array([0, -1, 2]), 4, 4, fdm=fdm)
    test_frule(sp.spdiags, rand((2, 3)), [0, 1], 3, 2, "csr", fdm=fdm)
    test_rrule(sp.spdiags, rand((1, 3), np.float32), 0, fkwargs={"m": (3, 3)}, fdm=fdm)


@pytest.mark.parametrize("f", [sp.tril, sp.triu])
@pytest.mark.parametrize("fmt", ["csr", "csc", "coo", "bsr", "lil", "dok"])
def test_triangles(f, fmt, fdm):
    A = random_sparse(fmt, (4, 3), rng=2)
    test_rrule(f, A, fdm=fdm)
    test_rrule(f, A, 1, "csr", fdm=fdm)
    test_frule(f, A, fkwargs={"k": -1, "format": "coo"}, fdm=fdm)


@pytest.mark.parametrize("dtype", [np.float32, np.complex128], ids=["float32", "complex128"])
def test_triangle_precisions(dtype, rand, fdm):
    A = random_sparse("csr", (3, 3), dtype, rng=3)
    test_rrule(sp.triu, A, fdm=fdm)
    test_frule(sp.tril, rand((3, 3), dtype), fdm=fdm)


def test_triangle_cotangent_is_on_the_kept_part_of_the_pattern():
    n = 5000
    A = sp.random_array((n, n), density=1e-3, format="csr", rng=0)
    y, pullback = rrule(sp.tril, A, -1)
    dA = pullback(y)[1]
    assert type(dA) is sp.csr_array and dA.nnz == A.nnz   # A's pattern; zero above the kept part
    kept = sp.tril(A, -1)
    assert abs(dA - kept).sum() == 0.0
