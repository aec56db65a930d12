"""``scipy.sparse.linalg.svds``: the singular values against finite differences and against the dense SVD; the
singular vectors' derivative is not implemented."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.linalg as spla

from chainrules import NotImplementedTangent, Tangent, ZeroTangent, rrule
from chainrules.testing import test_frule, test_rrule
from chainrules.testing.structured import random_sparse

VALUES = {"return_singular_vectors": False, "rng": 0, "tol": 0}


def _matrix(dtype=np.float64, shape=(6, 4), seed=0):
    return (random_sparse("csr", shape, dtype, rng=seed)
            + sp.diags_array(np.arange(1.0, min(shape) + 1) * 1.5, shape=shape)).tocsr()


@pytest.mark.parametrize("dtype", [np.float64, np.complex128], ids=["float64", "complex128"])
def test_singular_values(dtype, fdm):
    A = _matrix(dtype)
    test_rrule(spla.svds, A, 2, fkwargs=VALUES, fdm=fdm)
    test_frule(spla.svds, A, fkwargs={**VALUES, "k": 1}, fdm=fdm)


def test_against_the_dense_svd():
    A = _matrix(seed=1)
    s, pullback = rrule(spla.svds, A, 2, **VALUES)
    dA = pullback(np.array([1.0, 0.0]))[1]
    U, S, Vh = np.linalg.svd(A.toarray())
    i = int(np.argmin(np.abs(S - s[0])))
    expected = np.outer(U[:, i], Vh[i])
    np.testing.assert_allclose(dA.toarray(), np.where(A.toarray() != 0, expected, 0.0), atol=1e-12)
    assert type(dA) is sp.csr_array and dA.nnz == A.nnz


def test_singular_vectors_are_not_implemented():
    A = _matrix(seed=2)
    (U, _, _), pullback = rrule(spla.svds, A, 1, rng=0)
    assert isinstance(pullback(Tangent(tuple, np.ones_like(U), ZeroTangent(), ZeroTangent()))[1],
                      NotImplementedTangent)
    dA = pullback(Tangent(tuple, ZeroTangent(), np.ones(1), ZeroTangent()))[1]   # values only: implemented
    assert sp.issparse(dA)
