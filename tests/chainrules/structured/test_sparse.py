"""``ProjectTo`` of ``scipy.sparse`` arrays and matrices: the cotangent lives on the stored pattern."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

from chainrules import NoTangent, ProjectionError, ProjectTo, ZeroTangent
from chainrules.structured.sparse import SparsePattern, gather
from chainrules.testing.structured import random_sparse

FORMATS = ["csr", "csc", "coo", "bsr", "dia", "lil", "dok"]


def _pattern_mask(A):
    p = SparsePattern(A)
    mask = np.zeros(A.shape, dtype=bool)
    mask[p.rows, p.cols] = True
    return mask


@pytest.mark.parametrize("matrix", [False, True], ids=["array", "matrix"])
@pytest.mark.parametrize("fmt", FORMATS)
def test_projection_keeps_format_and_pattern(fmt, matrix):
    A = random_sparse(fmt, (4, 5), rng=1, matrix=matrix)
    G = np.random.default_rng(2).standard_normal((4, 5))
    dA = ProjectTo(A)(G)
    assert type(dA) is type(A) and dA.format == fmt and dA.dtype == np.float64
    mask = _pattern_mask(A)
    np.testing.assert_array_equal(dA.toarray(), np.where(mask, G, 0.0))
    # the stored pattern is A's (explicit zeros included: dia stores whole diagonals)
    assert mask.sum() >= A.count_nonzero()
    # a sparse cotangent gives the same, and so does projecting twice
    np.testing.assert_array_equal(ProjectTo(A)(sp.csr_array(G)).toarray(), dA.toarray())
    np.testing.assert_array_equal(ProjectTo(A)(dA).toarray(), dA.toarray())


@pytest.mark.parametrize("fmt", ["csr", "csc", "coo", "bsr", "dia"])
def test_a_cotangent_with_the_same_structure_passes_through(fmt):
    A = random_sparse(fmt, rng=1)
    dA = ProjectTo(A)(np.ones(A.shape))
    assert ProjectTo(A)(dA) is dA


@pytest.mark.parametrize("fmt", ["csr", "csc", "coo", "bsr", "dia"])
def test_cotangents_share_no_index_arrays_with_the_primal(fmt):
    A = random_sparse(fmt, rng=1)
    dA = ProjectTo(A)(np.ones(A.shape))
    for name in ("indices", "indptr", "row", "col", "offsets"):
        if hasattr(A, name):
            assert not np.shares_memory(getattr(A, name), getattr(dA, name))


def test_precision_and_real_part():
    A = random_sparse("csr", rng=0).astype(np.float32)
    G = np.ones(A.shape, dtype=np.complex128) * (1 + 2j)
    dA = ProjectTo(A)(G)
    assert dA.dtype == np.float32 and np.all(dA.data == 1)
    assert ProjectTo(random_sparse("csr", rng=0, dtype=np.complex128))(np.ones(A.shape)).dtype == np.complex128


def test_integer_and_boolean_primals():
    A = sp.csr_array(np.array([[1, 0], [2, 3]]))
    assert ProjectTo(A)(np.ones((2, 2))).dtype == np.float64
    assert ProjectTo(A.astype(bool))(np.ones((2, 2))) is NoTangent()


def test_duplicates_of_a_coo_array_hold_the_value_once():
    A = sp.coo_array((np.array([1.0, 5.0, 2.0]), (np.array([0, 1, 1]), np.array([0, 1, 1]))), shape=(2, 2))
    dA = ProjectTo(A)(np.array([[1.0, 2.0], [3.0, 4.0]]))
    np.testing.assert_array_equal(dA.toarray(), [[1.0, 0.0], [0.0, 4.0]])
    assert SparsePattern(A).size == 2


def test_zeros_pass_and_bad_cotangents_raise():
    A = random_sparse("csr", rng=0)
    assert ProjectTo(A)(ZeroTangent()) is ZeroTangent()
    with pytest.raises(ProjectionError, match=r"\(3, 3\).*\(4, 4\)"):
        ProjectTo(A)(np.ones((3, 3)))
    with pytest.raises(ProjectionError, match="dtype"):
        ProjectTo(A)(np.array([["a"] * 4] * 4))
    assert "4 stored entries" in ProjectTo(sp.eye_array(4, format="csr")).describe()


def test_nothing_is_densified():
    """A 10^6 x 10^6 array (dense: 8 TB) projects, gathers and multiplies at the cost of its entries."""
    n = 1_000_000
    rows = np.array([0, 5, 999_999])
    A = sp.csr_array((np.array([1.0, 2.0, 3.0]), (rows, rows)), shape=(n, n))
    G = sp.coo_array((np.array([7.0, 8.0]), (np.array([5, 4]), np.array([5, 4]))), shape=(n, n))
    dA = ProjectTo(A)(G)
    np.testing.assert_array_equal(dA.data, [0.0, 7.0, 0.0])
    L = np.zeros((n, 1))
    L[rows, 0] = 1.0
    np.testing.assert_array_equal(ProjectTo(A).gather_product(L, L.T).data, [1.0, 1.0, 1.0])


def test_gather_reads_stored_values_only():
    G = sp.csc_array(np.array([[0.0, 2.0], [3.0, 0.0]]))
    np.testing.assert_array_equal(gather(G, np.array([0, 1, 1]), np.array([1, 0, 1])), [2.0, 3.0, 0.0])
    empty = sp.csr_array((2, 2))
    np.testing.assert_array_equal(gather(empty, np.array([0]), np.array([1])), [0.0])
