"""``scipy.sparse.kron`` and ``kronsum``: finite differences in every sparse/dense combination, the format
keyword, and cotangents that stay on the inputs' patterns for large inputs."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

from chainrules import ProjectionError, frule, rrule, unthunk
from chainrules.testing import test_frule, test_rrule
from chainrules.testing.structured import random_sparse


@pytest.mark.parametrize("fmt", ["csr", "csc", "coo", "bsr", "lil", "dok"])
def test_kron_of_every_format(fmt, rand, fdm):
    A, B = random_sparse(fmt, (2, 3), rng=1), random_sparse("csr", (3, 2), rng=2)
    test_rrule(sp.kron, A, B, fdm=fdm)
    test_frule(sp.kron, B, A, fdm=fdm)
    test_rrule(sp.kron, A, rand((2, 2)), fdm=fdm)   # a dense B: a bsr output storing B's zeros too
    test_rrule(sp.kron, rand((2, 2)), A, "csr", fdm=fdm)
    test_frule(sp.kron, A, B, fkwargs={"format": "coo"}, fdm=fdm)


@pytest.mark.parametrize("dtype", [np.float32, np.complex128], ids=["float32", "complex128"])
def test_kron_and_kronsum_precisions(dtype, fdm):
    A, B = random_sparse("csr", (2, 2), dtype, rng=3), random_sparse("coo", (3, 3), dtype, rng=4)
    for f in (sp.kron, sp.kronsum):
        test_rrule(f, A, B, fdm=fdm)
        test_frule(f, A, B, fdm=fdm)
    _, pullback = rrule(sp.kron, A, B)
    assert unthunk(pullback(np.ones((6, 6), dtype))[1]).dtype == dtype


def test_kronsum(rand, fdm):
    A, B = random_sparse("csc", (3, 3), rng=5), random_sparse("lil", (2, 2), rng=6)
    test_rrule(sp.kronsum, A, B, fdm=fdm)
    test_frule(sp.kronsum, A, B, "csr", fdm=fdm)
    test_rrule(sp.kronsum, rand((2, 2)), B, fkwargs={"format": "dia"}, fdm=fdm)


def test_kronsum_matches_its_definition(rand):
    """kronsum(A, B) = kron(I_n, A) + kron(B, I_m): the two rules give the same cotangents."""
    A, B = random_sparse("csr", (3, 3), rng=7), random_sparse("csr", (2, 2), rng=8)
    dY = rand((6, 6))
    _, pullback = rrule(sp.kronsum, A, B)
    _, dA, dB = (unthunk(d) for d in pullback(dY))
    _, left = rrule(sp.kron, sp.eye_array(2, format="csr"), A)
    _, right = rrule(sp.kron, B, sp.eye_array(3, format="csr"))
    np.testing.assert_allclose(dA.toarray(), unthunk(left(dY)[2]).toarray(), rtol=1e-14)
    np.testing.assert_allclose(dB.toarray(), unthunk(right(dY)[1]).toarray(), rtol=1e-14)


def test_large_inputs_stay_sparse():
    """A 10^4 x 10^4 input: the cotangents are computed at the stored entries, never densified."""
    n = 10_000
    A = sp.random_array((n, n), density=1e-4, format="csr", rng=0)
    B = sp.csr_array(np.array([[1.0, 2.0], [0.0, 3.0]]))
    y, pullback = rrule(sp.kron, A, B)
    _, dA, dB = (unthunk(d) for d in pullback(y))
    assert type(dA) is sp.csr_array and dA.nnz == A.nnz and dB.nnz == B.nnz
    np.testing.assert_allclose(dA.data, A.data * 14.0)  # sum of B^2 at every stored entry of A
    _, pullback = rrule(sp.kronsum, A, B)
    dA = unthunk(pullback(sp.kronsum(A, B))[1])
    assert type(dA) is sp.csr_array and dA.nnz == A.nnz
    _, dy = frule((None, A, None), sp.kron, A, B)
    assert sp.issparse(dy) and dy.shape == (2 * n, 2 * n)


def test_bad_cotangent_names_the_function():
    A = random_sparse("csr", (2, 2), rng=0)
    _, pullback = rrule(sp.kron, A, A)
    with pytest.raises(ProjectionError, match=r"scipy\.sparse\.kron"):
        pullback(np.ones((3, 3)))
