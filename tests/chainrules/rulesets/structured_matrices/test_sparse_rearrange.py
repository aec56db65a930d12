"""``scipy.sparse.find``, ``expand_dims``, ``swapaxes``, ``permute_dims`` (n-d coo arrays included)."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

from chainrules import NoTangent, Tangent, rrule
from chainrules.testing import test_frule, test_rrule
from chainrules.testing.structured import random_sparse


def _coo3(seed, dtype=np.float64):
    rng = np.random.default_rng(seed)
    values = rng.standard_normal((2, 3, 2)).astype(dtype)
    values[rng.random((2, 3, 2)) < 0.5] = 0
    return sp.coo_array(values)


@pytest.mark.parametrize("fmt", ["csr", "csc", "coo", "bsr", "lil", "dok"])
def test_find(fmt, fdm):
    A = random_sparse(fmt, (3, 4), rng=1)
    test_rrule(sp.find, A, fdm=fdm)
    test_frule(sp.find, A, fdm=fdm)


def test_find_index_outputs_have_no_tangent(rand):
    A = sp.csr_array(np.array([[0.0, 2.0], [3.0, 0.0]]))
    _, pullback = rrule(sp.find, A)
    dA = pullback(Tangent(tuple, NoTangent(), NoTangent(), np.array([1.0, 2.0])))[1]
    assert type(dA) is sp.csr_array
    np.testing.assert_array_equal(dA.toarray(), [[0.0, 1.0], [2.0, 0.0]])
    test_rrule(sp.find, rand((2, 3), np.complex128))


def test_axes(fdm):
    A = random_sparse("csr", (3, 4), rng=2)
    test_rrule(sp.expand_dims, A, fkwargs={"axis": 1}, fdm=fdm)
    test_frule(sp.expand_dims, A, fkwargs={"axis": -1}, fdm=fdm)
    test_rrule(sp.swapaxes, A, 1, 0, fdm=fdm)
    test_rrule(sp.permute_dims, A, fdm=fdm)
    B = _coo3(3, np.complex128)
    test_rrule(sp.expand_dims, B, fkwargs={"axis": 2}, fdm=fdm)
    test_rrule(sp.swapaxes, B, 0, -1, fdm=fdm)
    test_frule(sp.swapaxes, B, 1, 2, fdm=fdm)
    test_rrule(sp.permute_dims, B, (1, 2, 0), fdm=fdm)
    test_frule(sp.permute_dims, _coo3(4, np.float32), fkwargs={"axes": (2, 0, 1)}, fdm=fdm)


def test_permute_dims_never_mutates_its_input():
    """SciPy's permute_dims(A, copy=False) permutes a coo A in place; the rule works on a copy."""
    A = _coo3(5)
    shape = A.shape
    y, pullback = rrule(sp.permute_dims, A, (2, 0, 1))
    assert A.shape == shape and y.shape == (2, 2, 3)
    dA = pullback(y)[1]
    assert dA.shape == shape
    np.testing.assert_array_equal(dA.toarray(), A.toarray())
