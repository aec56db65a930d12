"""Rules for ``scipy.sparse``: ``A @ x``, ``x @ A``, ``A @ B``, ``A.T``, ``A.sum`` and ``A.multiply``,
in every format, for sparse arrays and the legacy sparse matrices."""

from __future__ import annotations

import operator

import numpy as np
import pytest
import scipy.sparse as sp

from chainrules import rrule, unthunk
from chainrules.testing import test_frule, test_rrule
from chainrules.testing.structured import random_sparse

FORMATS = ["csr", "csc", "coo", "bsr", "dia", "lil", "dok"]


@pytest.fixture(params=[(fmt, matrix) for fmt in FORMATS for matrix in (False, True)],
                ids=[f"{fmt}_{'matrix' if m else 'array'}" for fmt in FORMATS for m in (False, True)])
def sparse_kind(request):
    return request.param


@pytest.fixture
def make_sparse(sparse_kind):
    fmt, matrix = sparse_kind
    return lambda dtype=np.float64, shape=(4, 4), seed=1: random_sparse(fmt, shape, dtype, rng=seed, matrix=matrix)


def test_products(make_sparse, rand, fdm):
    A = make_sparse(shape=(4, 3))
    test_rrule(operator.matmul, A, rand(3), fdm=fdm)
    test_frule(operator.matmul, A, rand((3, 2)), fdm=fdm)
    test_rrule(operator.matmul, rand((2, 4)), A, fdm=fdm)
    test_frule(operator.matmul, rand(4), A, fdm=fdm)
    B = make_sparse(shape=(3, 4), seed=2)
    test_rrule(operator.matmul, A, B, fdm=fdm)
    test_frule(operator.matmul, A, B, fdm=fdm)


def test_transpose_and_sum(make_sparse, fdm):
    A = make_sparse(shape=(4, 3))
    test_rrule(type(A).transpose, A, fdm=fdm)
    test_frule(type(A).transpose, A, fdm=fdm)
    test_rrule(type(A).T.fget, A, fdm=fdm)
    for axis in (None, 0, 1, -1):
        test_rrule(type(A).sum, A, axis, fdm=fdm)
        test_frule(type(A).sum, A, fkwargs={"axis": axis}, fdm=fdm)


def test_multiply(make_sparse, rand, fdm):
    A = make_sparse(shape=(4, 3))
    for other in (2.5, rand((4, 3)), rand(3), make_sparse(shape=(4, 3), seed=3)):
        test_rrule(type(A).multiply, A, other, fdm=fdm)
        test_frule(type(A).multiply, A, other, fdm=fdm)


@pytest.mark.parametrize("dtype", [np.float32, np.complex128], ids=["float32", "complex128"])
@pytest.mark.parametrize("fmt", ["csr", "coo"])
def test_precisions(fmt, dtype, rand, fdm):
    A = random_sparse(fmt, (4, 3), dtype, rng=0)
    x, y = rand(3, dtype), rand(4, dtype)
    test_rrule(operator.matmul, A, rand((3, 2), dtype), fdm=fdm)
    test_rrule(operator.matmul, y, A, fdm=fdm)
    test_frule(operator.matmul, A, x, fdm=fdm)
    test_rrule(type(A).sum, A, 0, fdm=fdm)
    test_rrule(type(A).multiply, A, rand((4, 3), dtype), fdm=fdm)
    test_rrule(type(A).multiply, A, 1.5 - 0.5j if dtype == np.complex128 else 1.5, fdm=fdm)
    test_rrule(type(A).transpose, A, fdm=fdm)


def test_method_calls_find_the_rules(rand):
    A = random_sparse("csr", rng=0)
    for method, args in ((A.transpose, ()), (A.sum, (1,)), (A.multiply, (rand((4, 4)),))):
        y, pullback = rrule(method, *args)
        dA = unthunk(pullback(rand(np.shape(y)) if np.ndim(y) else 1.0)[1])
        assert type(dA) is type(A)


def test_cotangent_stays_on_the_pattern(rand):
    A = random_sparse("csr", (50, 40), rng=0, density=0.05)
    _, pullback = rrule(operator.matmul, A, rand((40, 3)))
    dA = unthunk(pullback(rand((50, 3)))[1])
    assert type(dA) is sp.csr_array and dA.nnz == A.nnz
    np.testing.assert_array_equal(dA.indices, A.indices)
