"""Rules of chainrules/rulesets/linalg/solves.py, checked against finite differences."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.linalg

import chainrules  # noqa: F401  (registers the rules)
from chainrules import NoTangent, ProjectionError, Tangent, Thunk, ZeroTangent, rrule, unthunk
from chainrules.rulesets.linalg import _utils
from chainrules.testing import PrimalAndTangent, test_frule, test_rrule

FIXED = NoTangent()
SOLVE_SHAPES = [
    ((3, 3), (3,)),
    ((3, 3), (3, 2)),
    ((2, 3, 3), (3,)),            # a stack and one vector
    ((2, 3, 3), (2, 3, 1)),
    ((3, 3), (2, 3, 2)),          # one matrix, a stack of right-hand sides
    ((2, 1, 3, 3), (4, 3, 2)),    # broadcast batch axes
    ((2, 17, 17), (17,)),         # a stack of larger matrices: one LAPACK factorization each
    ((2, 1, 17, 17), (3, 17, 1)),
]


# ---- np.linalg.solve, scipy.linalg.solve --------------------------------------------------------------------
@pytest.mark.parametrize("f", [np.linalg.solve, scipy.linalg.solve], ids=["np.linalg.solve", "scipy.linalg.solve"])
@pytest.mark.parametrize(("shape_a", "shape_b"), SOLVE_SHAPES)
def test_solve(f, shape_a, shape_b, dtype, matrix, rand):
    a, b = matrix(shape_a, dtype), rand(shape_b, dtype)
    test_rrule(f, a, b)
    test_frule(f, a, b)


def test_solve_mixed_dtypes(matrix, rand):
    test_rrule(np.linalg.solve, matrix((3, 3)), rand((3,), np.complex128))
    test_rrule(np.linalg.solve, matrix((3, 3), np.complex128), rand((3, 2), np.float32))
    test_frule(np.linalg.solve, matrix((3, 3), np.float32), rand((3,)))
    test_rrule(np.linalg.solve, matrix((3, 3)), np.array([1, 2, 3]))      # integer b: no tangent


def test_solve_result_equals_numpy(matrix, rand):
    a, b = matrix((2, 5, 5)), rand((2, 5, 3))
    np.testing.assert_allclose(rrule(np.linalg.solve, a, b)[0], np.linalg.solve(a, b), rtol=1e-13)
    a32 = a.astype(np.float32)
    assert rrule(np.linalg.solve, a32, b.astype(np.float32))[0].dtype == np.float32


def test_solve_pullback_reuses_the_factorization(matrix, rand, monkeypatch):
    calls = []
    original = _utils.LU.__init__

    def counting(self, a):
        calls.append(a.shape)
        original(self, a)

    monkeypatch.setattr(_utils.LU, "__init__", counting)
    n = _utils.SMALL + 1  # (a single float64 matrix of order <= SMALL takes the fast path: test_fast_paths.py)
    _, pullback = rrule(np.linalg.solve, matrix((n, n)), rand((n, 2)))
    _, da, db = pullback(rand((n, 2)))
    unthunk(da), unthunk(db)
    assert calls == [(n, n)]


def test_solve_returns_thunks(matrix, rand):
    _, pullback = rrule(np.linalg.solve, matrix((3, 3)), rand((3,)))
    _, da, db = pullback(rand((3,)))
    assert isinstance(da, Thunk) and isinstance(db, Thunk)
    assert pullback(ZeroTangent())[1:] == (ZeroTangent(), ZeroTangent())


SINGULAR = np.array([[1.0, 2.0], [2.0, 4.0]])


@pytest.mark.parametrize(("f", "a"), [
    (np.linalg.solve, SINGULAR), (scipy.linalg.solve, SINGULAR), (np.linalg.tensorsolve, SINGULAR),
    (np.linalg.solve, np.stack([SINGULAR, np.eye(2)])), (scipy.linalg.solve, np.stack([SINGULAR, np.eye(2)])),
    (np.linalg.solve, np.stack([np.pad(SINGULAR, (0, 15)) + np.diag([0, 0] + [1] * 15), np.eye(17)])),
], ids=["np.linalg.solve", "scipy.linalg.solve", "np.linalg.tensorsolve", "np-small-stack", "scipy-stack",
        "np-lapack-stack"])
def test_singular_matrix_raises_the_library_error(f, a):
    b = np.ones(a.shape[-1])
    with pytest.raises(np.linalg.LinAlgError) as ours:
        rrule(f, a, b)
    with pytest.raises(np.linalg.LinAlgError) as theirs:
        f(a, b)
    assert str(ours.value) == str(theirs.value)


def test_solve_shape_errors_pass_through(matrix):
    for a, b in [(np.ones((2, 3)), np.ones(2)), (matrix((3, 3)), np.ones(2)), (matrix((3, 3)), np.ones((2, 2)))]:
        with pytest.raises(Exception) as ours:
            rrule(np.linalg.solve, a, b)
        with pytest.raises(type(ours.value)) as theirs:
            np.linalg.solve(a, b)
        assert str(ours.value) == str(theirs.value)


def test_solve_wrong_cotangent_shape(matrix, rand):
    _, pullback = rrule(np.linalg.solve, matrix((3, 3)), rand((3,)))
    message = r"solve pullback: output cotangent has shape \(2,\), expected shape \(3,\)"
    with pytest.raises(ProjectionError, match=message):
        pullback(np.ones(2))


@pytest.mark.parametrize("assume_a", [None, "general", "sym", "her", "pos", "diagonal", "tridiagonal",
                                      "upper triangular", "lower triangular", "banded"])
@pytest.mark.parametrize("lower", [False, True])
def test_scipy_solve_assume_a(assume_a, lower, dtype, matrix, spd, rand):
    """The cotangent lands on what ``assume_a``/``lower`` read (``a`` is not symmetric: the rest is ignored)."""
    if assume_a in ("her", "pos"):     # positive definite in the triangle read, anything in the other
        a = spd((3, 3), dtype) + (np.triu(rand((3, 3), dtype), 1) if lower else np.tril(rand((3, 3), dtype), -1))
    else:
        a = matrix((3, 3), dtype)
    b = rand((3, 2), dtype)
    test_rrule(scipy.linalg.solve, a, b, lower, fkwargs={"assume_a": assume_a})
    test_frule(scipy.linalg.solve, a, b, fkwargs={"assume_a": assume_a, "lower": lower})
    if dtype != np.complex128:
        test_rrule(scipy.linalg.solve, a, b, fkwargs={"assume_a": assume_a, "lower": lower, "transposed": True})
        test_frule(scipy.linalg.solve, a, b, lower, False, False, True, assume_a, True)


def test_scipy_solve_stacked_structures(spd, rand):
    a = spd((2, 3, 3))
    test_rrule(scipy.linalg.solve, a, rand((3,)), fkwargs={"assume_a": "pos"})
    test_rrule(scipy.linalg.solve, a, rand((2, 3, 2)), fkwargs={"assume_a": "sym", "lower": True})


def test_scipy_solve_one_by_one_matrix(dtype, rand):
    """SciPy divides by a 1 x 1 ``a`` whatever ``b``'s shape."""
    a = np.array([[2.5]], dtype=dtype)
    test_rrule(scipy.linalg.solve, a, rand((4,), dtype))
    test_frule(scipy.linalg.solve, a, rand((4, 2), dtype))


def test_scipy_solve_errors_and_warnings_are_scipys(matrix):
    with pytest.raises(NotImplementedError):
        rrule(scipy.linalg.solve, matrix((3, 3), np.complex128), np.ones(3), transposed=True)
    with pytest.raises(ValueError, match="array must not contain infs or NaNs"):
        rrule(scipy.linalg.solve, np.full((2, 2), np.nan), np.ones(2))
    with pytest.raises(np.linalg.LinAlgError):
        rrule(scipy.linalg.solve, np.zeros((2, 2)), np.ones(2))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        rrule(scipy.linalg.solve, scipy.linalg.hilbert(13), np.ones(13))
    assert any("ll-conditioned" in str(w.message) for w in caught)


# ---- tensorsolve -----------------------------------------------------------------------------------------------
def test_tensorsolve(dtype, rand):
    a = np.asarray((3 * np.eye(6) + rand((6, 6), dtype) / 3).reshape(2, 3, 6), dtype=dtype)
    test_rrule(np.linalg.tensorsolve, a, rand((2, 3), dtype))
    test_frule(np.linalg.tensorsolve, a, rand((2, 3), dtype))
    moved = np.moveaxis(np.asarray((3 * np.eye(6) + rand((6, 6), dtype) / 3).reshape(6, 2, 3), dtype=dtype), 0, 1)
    test_rrule(np.linalg.tensorsolve, moved, rand((6,), dtype), PrimalAndTangent((0, 2), FIXED))
    test_frule(np.linalg.tensorsolve, moved, rand((6,), dtype), fkwargs={"axes": (0, 2)})


# ---- banded ----------------------------------------------------------------------------------------------------
def banded(rand, l_and_u, n, dtype, batch=()):
    lower, upper = l_and_u
    ab = rand(batch + (lower + upper + 1, n), dtype)
    ab[..., upper, :] += 4
    return ab


@pytest.mark.parametrize("l_and_u", [(1, 1), (0, 1), (2, 1), (0, 0)])
@pytest.mark.parametrize("shape_b", [(5,), (5, 2)])
def test_solve_banded(l_and_u, shape_b, dtype, rand):
    ab, b = banded(rand, l_and_u, 5, dtype), rand(shape_b, dtype)
    test_rrule(scipy.linalg.solve_banded, l_and_u, ab, b)
    test_frule(scipy.linalg.solve_banded, l_and_u, ab, b)


def test_solve_banded_stacked_and_options(rand):
    ab = banded(rand, (1, 2), 4, np.float64, (2,))
    test_rrule(scipy.linalg.solve_banded, (1, 2), ab, rand((2, 4, 3)))
    test_frule(scipy.linalg.solve_banded, (1, 2), ab, rand((2, 4, 3)), fkwargs={"check_finite": False})
    test_rrule(scipy.linalg.solve_banded, (1, 2), ab[0], rand((4,)), False, False, False)


def hermitian_band(rand, bandwidth, n, lower, dtype, batch=()):
    ab = rand(batch + (bandwidth + 1, n), dtype) / 3
    diagonal = 0 if lower else bandwidth
    ab[..., diagonal, :] = 3 + np.abs(ab[..., diagonal, :])
    return ab


@pytest.mark.parametrize("bandwidth", [1, 2])
@pytest.mark.parametrize("lower", [False, True])
@pytest.mark.parametrize("shape_b", [(5,), (5, 2)])
def test_solveh_banded(bandwidth, lower, shape_b, dtype, rand):
    ab, b = hermitian_band(rand, bandwidth, 5, lower, dtype), rand(shape_b, dtype)
    test_rrule(scipy.linalg.solveh_banded, ab, b, fkwargs={"lower": lower})
    test_frule(scipy.linalg.solveh_banded, ab, b, False, False, lower)


def test_solveh_banded_stacked(rand):
    ab = hermitian_band(rand, 1, 4, False, np.float64, (2,))
    test_rrule(scipy.linalg.solveh_banded, ab, rand((2, 4, 2)))
    test_frule(scipy.linalg.solveh_banded, ab, rand((2, 4, 2)))


# ---- Toeplitz, circulant -----------------------------------------------------------------------------------------
def toeplitz_parts(rand, n, dtype):
    c, r = rand((n,), dtype) / 3, rand((n,), dtype) / 3
    c[0] += 3
    r[0] = c[0]
    return c, r


@pytest.mark.parametrize("shape_b", [(4,), (4, 2)])
def test_solve_toeplitz(shape_b, dtype, rand):
    c, r = toeplitz_parts(rand, 4, dtype)
    b = rand(shape_b, dtype)
    test_rrule(scipy.linalg.solve_toeplitz, c, b)                     # r = conj(c)
    test_frule(scipy.linalg.solve_toeplitz, c, b)
    test_rrule(scipy.linalg.solve_toeplitz, (c, r), b)
    test_frule(scipy.linalg.solve_toeplitz, (c, r), b, fkwargs={"check_finite": False})


def test_solve_toeplitz_cotangent_of_c_and_r(rand):
    c, r = toeplitz_parts(rand, 4, np.float64)
    _, pullback = rrule(scipy.linalg.solve_toeplitz, (c, r), rand((4,)))
    dcr = unthunk(pullback(rand((4,)))[1])
    assert isinstance(dcr, Tangent) and dcr[1][0] == 0        # r[0] is not read


def test_solve_toeplitz_stacked(rand):
    c = rand((2, 4)) / 3
    c[:, 0] += 3
    test_rrule(scipy.linalg.solve_toeplitz, c, rand((2, 4, 2)))


def circulant_column(rand, n, dtype, batch=()):
    c = rand(batch + (n,), dtype) / 3
    c[..., 0] += 3
    return c


@pytest.mark.parametrize("shape_b", [(4,), (4, 2)])
def test_solve_circulant(shape_b, dtype, rand):
    c, b = circulant_column(rand, 4, dtype), rand(shape_b, dtype)
    test_rrule(scipy.linalg.solve_circulant, c, b)
    test_frule(scipy.linalg.solve_circulant, c, b)


def test_solve_circulant_axes(dtype, rand):
    c = circulant_column(rand, 4, dtype, (2,))
    test_rrule(scipy.linalg.solve_circulant, c, rand((4, 2), dtype), "raise", None, -1, 0, 0)
    test_frule(scipy.linalg.solve_circulant, c, rand((4, 2), dtype))
    cT = np.ascontiguousarray(c.T)
    test_rrule(scipy.linalg.solve_circulant, cT, rand((2, 4), dtype), fkwargs={"caxis": 0, "baxis": 1, "outaxis": 1})
    test_frule(scipy.linalg.solve_circulant, cT, rand((2, 4), dtype), fkwargs={"caxis": 0, "baxis": 1, "outaxis": 1})


def test_solve_circulant_singular_lstsq(rand):
    """With ``singular='lstsq'`` the discarded eigenvalue stays discarded: its derivative is zero."""
    c = np.array([1.0, 1.0, 1.0, 1.0]) / 4 + np.array([0.5, -0.5, 0.5, -0.5])    # eigenvalues 1, 0, 2, 0
    b = rand((4,))
    with pytest.raises(np.linalg.LinAlgError):
        rrule(scipy.linalg.solve_circulant, c, b)
    test_rrule(scipy.linalg.solve_circulant, c, b, "lstsq", PrimalAndTangent(1e-3, FIXED))
    test_frule(scipy.linalg.solve_circulant, c, b, fkwargs={"singular": "lstsq", "tol": 1e-3})


# ---- lu_factor, lu_solve -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("shape", [(3, 3), (4, 3), (3, 4), (2, 3, 3), (1, 1)])
def test_lu_factor(shape, dtype, rand):
    a = rand(shape, dtype)
    test_rrule(scipy.linalg.lu_factor, a)
    test_frule(scipy.linalg.lu_factor, a)
    test_rrule(scipy.linalg.lu_factor, a, False, False)


def test_lu_factor_of_singular_matrix_raises_in_the_pullback():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", scipy.linalg.LinAlgWarning)
        _, pullback = rrule(scipy.linalg.lu_factor, np.array([[1.0, 2.0], [2.0, 4.0]]))
    with pytest.raises(np.linalg.LinAlgError, match="singular"):
        pullback(Tangent(tuple, np.ones((2, 2)), NoTangent()))


@pytest.mark.parametrize("shape_b", [(3,), (3, 2)])
@pytest.mark.parametrize("trans", [0, 1, 2])
def test_lu_solve(shape_b, trans, dtype, matrix, rand):
    factors = scipy.linalg.lu_factor(matrix((3, 3), dtype))
    b = rand(shape_b, dtype)
    test_rrule(scipy.linalg.lu_solve, factors, b, trans)
    test_frule(scipy.linalg.lu_solve, factors, b, fkwargs={"trans": trans})


def test_lu_solve_stacked(matrix, rand):
    factors = scipy.linalg.lu_factor(matrix((2, 3, 3)))
    test_rrule(scipy.linalg.lu_solve, factors, rand((2, 3, 2)))
    test_frule(scipy.linalg.lu_solve, factors, rand((2, 3, 2)), 1)
    factors = scipy.linalg.lu_factor(matrix((3, 3)))
    test_rrule(scipy.linalg.lu_solve, factors, rand((2, 3, 2)), PrimalAndTangent(2, FIXED))


def test_lu_factor_then_lu_solve_is_solve(matrix, rand):
    """The two rules compose to the derivative of ``solve`` (checked by finite differences of the composition)."""
    a, b = matrix((3, 3)), rand((3,))
    factors, factor_pullback = rrule(scipy.linalg.lu_factor, a)
    _, solve_pullback = rrule(scipy.linalg.lu_solve, factors, b)
    dx = rand((3,))
    dfactors, _ = solve_pullback(dx)[1:3]
    da = factor_pullback(unthunk(dfactors))[1]
    _, da_solve, _ = rrule(np.linalg.solve, a, b)[1](dx)
    np.testing.assert_allclose(unthunk(da), unthunk(da_solve), rtol=1e-10, atol=1e-12)


# ---- cho_factor, cho_solve ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("lower", [False, True])
@pytest.mark.parametrize("shape", [(3, 3), (2, 3, 3)])
def test_cho_factor(lower, shape, dtype, spd, rand):
    """``c``'s other triangle is ``a``'s, untouched: its derivative is the identity there."""
    a = spd(shape, dtype) + (np.triu if lower else np.tril)(rand(shape, dtype), 1 if lower else -1)
    test_rrule(scipy.linalg.cho_factor, a, lower)
    test_frule(scipy.linalg.cho_factor, a, fkwargs={"lower": lower})


@pytest.mark.parametrize("lower", [False, True])
@pytest.mark.parametrize("shape_b", [(3,), (3, 2)])
def test_cho_solve(lower, shape_b, dtype, spd, rand):
    factor = scipy.linalg.cho_factor(spd((3, 3), dtype), lower)
    b = rand(shape_b, dtype)
    test_rrule(scipy.linalg.cho_solve, factor, b)
    test_frule(scipy.linalg.cho_solve, factor, b, fkwargs={"check_finite": False})


def test_cho_solve_stacked(spd, rand):
    factor = scipy.linalg.cho_factor(spd((2, 3, 3)), True)
    test_rrule(scipy.linalg.cho_solve, factor, rand((2, 3, 2)))
    test_frule(scipy.linalg.cho_solve, factor, rand((2, 3, 2)))


def test_cho_factor_not_positive_definite_raises_scipys_error():
    with pytest.raises(np.linalg.LinAlgError, match="not positive definite"):
        rrule(scipy.linalg.cho_factor, -np.eye(2))
