"""Iterative solvers of ``scipy.sparse.linalg`` by the implicit function theorem: finite differences of the
solve at tight tolerances, agreement with ``spsolve``'s rule, zero tangent for ``x0``, non-convergence."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.linalg as spla

from chainrules import Tangent, ZeroTangent, frule, rrule, unthunk
from chainrules.testing import test_frule, test_rrule
from chainrules.testing.structured import random_sparse


def _spd(fmt="csr", dtype=np.float64, seed=0, n=5):
    A = random_sparse("coo", (n, n), dtype, rng=seed)
    return (A @ A.conj().T + 4.0 * sp.eye_array(n)).asformat(fmt)


def _general(fmt="csr", dtype=np.float64, seed=0, n=5):
    return (random_sparse("coo", (n, n), dtype, rng=seed) + 3.0 * sp.eye_array(n)).asformat(fmt)


def _x(y):
    return y[0]


SQUARE = [(spla.cg, _spd), (spla.minres, _spd), (spla.gmres, _general), (spla.bicgstab, _general)]


# SciPy's minres does not solve complex Hermitian systems (it fails with "indefinite preconditioner" or returns
# x = 0 with info = 0), so its complex case is not one: cg has it.
CASES = [(solver, make, dtype) for solver, make in SQUARE for dtype in (np.float64, np.complex128)
         if not (solver is spla.minres and dtype == np.complex128)]


@pytest.mark.parametrize(("solver", "make", "dtype"), CASES,
                         ids=[f"{s.__name__}-{np.dtype(d).name}" for s, _, d in CASES])
def test_square_solvers_against_finite_differences(solver, make, dtype, rand, fdm):
    A, b = make(dtype=dtype), rand(5, dtype)
    test_rrule(solver, A, b, fkwargs={"rtol": 1e-13}, fdm=fdm)
    test_frule(solver, A, b, fkwargs={"rtol": 1e-13}, fdm=fdm)


@pytest.mark.parametrize(("solver", "make"), SQUARE, ids=lambda v: getattr(v, "__name__", ""))
def test_square_solvers_agree_with_spsolve(solver, make, rand):
    A, b, dx = make("csc"), rand(5), rand(5)
    (x, info), pullback = rrule(solver, A, b, rtol=1e-13)
    _, dA, db = (unthunk(d) for d in pullback(Tangent(tuple, dx, ZeroTangent())))
    x_ref, pullback_ref = rrule(spla.spsolve, A, b)
    _, dA_ref, db_ref, *_ = (unthunk(d) for d in pullback_ref(dx))
    assert info == 0
    np.testing.assert_allclose(x, x_ref, rtol=1e-10)
    np.testing.assert_allclose(db, db_ref, rtol=1e-9)
    assert type(dA) is sp.csc_array and dA.nnz == A.nnz
    np.testing.assert_allclose(dA.toarray(), dA_ref.toarray(), rtol=1e-9, atol=1e-12)
    _, (dx_f, _) = frule((None, None, b), solver, A, b, rtol=1e-13)
    np.testing.assert_allclose(dx_f, x_ref, rtol=1e-9)    # d/db (A^{-1} b) along b is x


def test_x0_and_preconditioner(rand, fdm):
    A, b = _general(), rand(5)
    M = sp.diags_array(1.0 / A.diagonal())
    test_rrule(spla.gmres, A, b, rand(5), fkwargs={"rtol": 1e-13, "M": M}, fdm=fdm)
    _, pullback = rrule(spla.bicgstab, A, b, rand(5), rtol=1e-13)
    assert pullback(Tangent(tuple, rand(5), ZeroTangent()))[3] == ZeroTangent()


def test_no_convergence_raises(rand):
    A, b = _general(n=30, seed=3), rand(30)
    (_, info), pullback = rrule(spla.gmres, A, b, rtol=1e-14, restart=2, maxiter=1)
    assert info != 0
    with pytest.raises(ValueError, match=r"gmres pullback: the solve did not converge \(info="):
        pullback(Tangent(tuple, np.ones(30), ZeroTangent()))
    with pytest.raises(ValueError, match="gmres frule"):
        frule((None, None, b), spla.gmres, A, b, rtol=1e-14, restart=2, maxiter=1)


@pytest.mark.parametrize("solver", [spla.lsqr, spla.lsmr])
def test_least_squares(solver, rand, fdm):
    tight = {"atol": 1e-14, "btol": 1e-14, ("iter_lim" if solver is spla.lsqr else "maxiter"): 200}
    A = random_sparse("csr", (6, 4), rng=4) + sp.eye_array(6, 4)
    b = rand(6)
    test_rrule(solver, A, b, fkwargs=tight, gauge_invariant=_x, fdm=fdm)
    test_frule(solver, A, b, 0.4, fkwargs=tight, gauge_invariant=_x, fdm=fdm)
    Ac = random_sparse("csc", (6, 4), np.complex128, rng=5) + sp.eye_array(6, 4)
    test_rrule(solver, Ac, rand(6, np.complex128), 0.2, fkwargs=tight, gauge_invariant=_x, fdm=fdm)


def test_least_squares_agrees_with_the_normal_equations(rand):
    A = random_sparse("csr", (6, 4), rng=6) + sp.eye_array(6, 4)
    b, dx = rand(6), rand(4)
    y, pullback = rrule(spla.lsqr, A, b, atol=1e-14, btol=1e-14)
    _, dA, db = (unthunk(d) for d in pullback(Tangent(tuple, dx, *(ZeroTangent(),) * 9)))
    Ad = A.toarray()
    z = np.linalg.solve(Ad.T @ Ad, dx)
    np.testing.assert_allclose(db, Ad @ z, rtol=1e-8)
    r = b - Ad @ y[0]
    expected = np.outer(r, z) - np.outer(Ad @ z, y[0])
    np.testing.assert_allclose(dA.toarray(), np.where(Ad != 0, expected, 0.0), rtol=1e-7, atol=1e-10)


@pytest.mark.parametrize("solver", [spla.bicg, spla.cgs, spla.gcrotmk, spla.lgmres, spla.qmr, spla.tfqmr],
                         ids=lambda f: f.__name__)
def test_more_krylov_solvers(solver, rand, fdm):
    A, b = _general("csr", np.complex128, seed=7), rand(5, np.complex128)
    test_rrule(solver, A, b, fkwargs={"rtol": 1e-13}, fdm=fdm)
    test_frule(solver, A, b, fkwargs={"rtol": 1e-13}, fdm=fdm)


def test_recycled_subspaces_are_left_alone(rand):
    """lgmres's outer_v is the forward system's: the adjoint solve does not read or extend it."""
    A, b = _general(seed=8), rand(5)
    outer_v = []
    _, pullback = rrule(spla.lgmres, A, b, rtol=1e-13, outer_v=outer_v)
    kept = len(outer_v)
    dx = rand(5)
    db = unthunk(pullback(Tangent(tuple, dx, ZeroTangent()))[2])
    assert len(outer_v) == kept
    np.testing.assert_allclose(db, np.linalg.solve(A.toarray().T, dx), rtol=1e-10)
