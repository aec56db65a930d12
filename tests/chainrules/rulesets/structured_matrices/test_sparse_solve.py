"""``scipy.sparse.linalg.spsolve``: one SuperLU factorization serves the solve and the adjoint solve."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.linalg

from chainrules import NotImplementedTangent, rrule, unthunk
from chainrules.testing import test_frule, test_rrule
from chainrules.testing.structured import random_sparse

spsolve = scipy.sparse.linalg.spsolve


@pytest.mark.parametrize("fmt", ["csc", "csr"])
@pytest.mark.parametrize("b_shape", [(4,), (4, 2), (4, 1)], ids=["vector", "matrix", "column"])
def test_spsolve(fmt, dtype, b_shape, rand, fdm):
    A = random_sparse(fmt, (4, 4), dtype, rng=0, shift=3.0)
    b = rand(b_shape, dtype)
    test_rrule(spsolve, A, b, fdm=fdm)
    test_frule(spsolve, A, b, fdm=fdm)


@pytest.mark.filterwarnings("ignore::scipy.sparse.SparseEfficiencyWarning")
@pytest.mark.parametrize("fmt", ["coo", "dia", "lil"])
def test_other_formats(fmt, rand, fdm):
    A = random_sparse(fmt, (4, 4), rng=1, shift=3.0, matrix=True)
    test_rrule(spsolve, A, rand(4), fdm=fdm)


def test_options_by_position_and_keyword(rand, fdm):
    A = random_sparse("csc", (4, 4), rng=0, shift=3.0)
    test_rrule(spsolve, A, rand(4), "NATURAL", fdm=fdm)
    test_rrule(spsolve, A, rand(4), fkwargs={"permc_spec": "MMD_AT_PLUS_A", "use_umfpack": False}, fdm=fdm)


def test_one_factorization_for_both_solves(rand, monkeypatch):
    calls = []
    original = scipy.sparse.linalg.splu

    def counting(*args, **kwargs):
        calls.append(1)
        return original(*args, **kwargs)

    monkeypatch.setattr(scipy.sparse.linalg, "splu", counting)
    A = random_sparse("csc", (6, 6), rng=0, shift=3.0)
    _x, pullback = rrule(spsolve, A, rand(6))
    dA, _db = (unthunk(c) for c in pullback(rand(6))[1:])
    assert len(calls) == 1
    assert type(dA) is type(A) and dA.nnz == A.nnz


def test_singular_matrix_gives_nan_like_spsolve():
    A = sp.csc_array(np.array([[1.0, 0.0], [0.0, 0.0]]))
    with pytest.warns(scipy.sparse.linalg.MatrixRankWarning):
        x, pullback = rrule(spsolve, A, np.ones(2))
    assert np.all(np.isnan(x))
    assert np.all(np.isnan(unthunk(pullback(np.ones(2))[2])))


# ---- spsolve_triangular -----------------------------------------------------------------------------------------
def _triangle(fmt, dtype=np.float64, upper=False, seed=0):
    A = random_sparse("coo", (4, 4), dtype, rng=seed) + 3.0 * sp.eye_array(4)
    return (sp.triu(A) if upper else sp.tril(A)).asformat(fmt)


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.complex128], ids=["float64", "float32", "complex"])
@pytest.mark.parametrize("upper", [False, True], ids=["lower", "upper"])
def test_spsolve_triangular(dtype, upper, rand):
    spla = scipy.sparse.linalg
    A, b = _triangle("csr", dtype, upper), rand((4, 2), dtype)
    test_rrule(spla.spsolve_triangular, A, b, not upper)
    test_frule(spla.spsolve_triangular, A, b[:, 0], fkwargs={"lower": not upper})
    test_rrule(spla.spsolve_triangular, A, b, fkwargs={"lower": not upper, "unit_diagonal": True})


def test_spsolve_triangular_of_a_full_matrix_is_not_implemented(rand):
    spla = scipy.sparse.linalg
    A = sp.csr_array(np.array([[2.0, 5.0], [1.0, 4.0]]))
    _, pullback = rrule(spla.spsolve_triangular, A, rand(2))
    dA = unthunk(pullback(rand(2))[1])
    assert isinstance(dA, NotImplementedTangent) and "outside its lower triangle" in dA.info
