"""``scipy.sparse.linalg.norm``: every supported order against finite differences; the others not implemented."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.linalg as spla

from chainrules import NotImplementedTangent, rrule
from chainrules.testing import test_frule, test_rrule
from chainrules.testing.structured import random_sparse


@pytest.mark.parametrize("order", [None, "fro", 1, -1, np.inf, -np.inf, 2], ids=str)
@pytest.mark.parametrize("dtype", [np.float64, np.complex128, np.float32], ids=["float64", "complex128", "float32"])
def test_matrix_norms(order, dtype):
    """(The adaptive finite differences: |a| of a complex entry is not a polynomial.)"""
    A = random_sparse("csr", (4, 3), dtype, rng=1) + sp.eye_array(4, 3, dtype=dtype)
    rtol = 1e-3 if dtype == np.float32 else None
    test_rrule(spla.norm, A, order, rtol=rtol)
    test_frule(spla.norm, A, fkwargs={"ord": order}, rtol=rtol)


@pytest.mark.parametrize("fmt", ["csc", "coo", "lil", "dok", "bsr"])
@pytest.mark.parametrize(("order", "axis"), [(None, 0), (1, 1), (3, -1), (np.inf, 0)], ids=str)
def test_vector_norms_along_an_axis(fmt, order, axis, fdm):
    A = (random_sparse("coo", (4, 4), rng=2) + sp.eye_array(4)).asformat(fmt)
    test_rrule(spla.norm, A, order, axis, fdm=fdm)
    test_frule(spla.norm, A, order, axis, fdm=fdm)


def test_cotangent_on_the_pattern_of_a_large_matrix():
    A = sp.random_array((20_000, 20_000), density=2e-5, format="csr", rng=0)
    for order in (None, 1, np.inf):
        _, pullback = rrule(spla.norm, A, order)
        dA = pullback(1.0)[1]
        assert type(dA) is sp.csr_array and dA.nnz == A.nnz


def test_unsupported_orders_are_not_implemented():
    A = random_sparse("csr", (3, 3), rng=3) + sp.eye_array(3)
    _, pullback = rrule(spla.norm, A, -np.inf, 0)
    assert isinstance(pullback(np.ones(3))[1], NotImplementedTangent)
    _, pullback = rrule(spla.norm, A, ord=0.5, axis=1)
    assert "ord=0.5" in pullback(np.ones(3))[1].info
