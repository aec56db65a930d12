"""Tests of chainrules/rulesets/linalg/cholesky.py against finite differences."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import scipy.linalg

from chainrules import NoTangent, ProjectTo, ZeroTangent, frule, rrule, unthunk
from chainrules.rulesets.linalg._utils import hermitian_part, mH
from chainrules.rulesets.linalg.cholesky import _band_unused
from chainrules.structured import Diagonal, Hermitian, Symmetric
from chainrules.testing import PrimalAndTangent, jvp, test_frule, test_rrule

SHAPES = [(3, 3), (2, 3, 3)]


# ---- dense ------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("upper", [False, True])
def test_numpy_cholesky(spd: Any, dtype: Any, shape: Any, upper: bool) -> None:
    a = spd(shape, dtype)
    test_rrule(np.linalg.cholesky, a, fkwargs={"upper": upper})
    test_frule(np.linalg.cholesky, a, fkwargs={"upper": upper})


@pytest.mark.parametrize("shape", SHAPES)
def test_scipy_cholesky(spd: Any, dtype: Any, shape: Any) -> None:
    a = spd(shape, dtype)
    test_rrule(scipy.linalg.cholesky, a)
    test_frule(scipy.linalg.cholesky, a)
    test_rrule(scipy.linalg.cholesky, a, True)                      # lower= by position
    test_rrule(scipy.linalg.cholesky, a, fkwargs={"lower": True})   # ... and by keyword
    test_frule(scipy.linalg.cholesky, a, fkwargs={"lower": True})


def test_cotangent_lives_on_the_triangle_read(spd: Any, rand: Any) -> None:
    """NumPy reads the lower triangle (upper with upper=True), SciPy the upper one (lower with lower=True)."""
    a = spd((3, 3), np.complex128)
    dy = rand((3, 3), np.complex128)
    for f, kwargs, lower in [(np.linalg.cholesky, {}, True), (np.linalg.cholesky, {"upper": True}, False),
                             (scipy.linalg.cholesky, {}, False), (scipy.linalg.cholesky, {"lower": True}, True)]:
        da = rrule(f, a, **kwargs)[1](dy)[1]
        other = np.triu(da, 1) if lower else np.tril(da, -1)
        assert not np.any(other)
        assert not np.any(np.diagonal(da).imag)


def sym_cholesky(a: np.ndarray) -> np.ndarray:
    """``cholesky((A + A^H) / 2)``: the Cholesky factor of a symmetrized argument."""
    return np.linalg.cholesky(hermitian_part(a))


@rrule.register(sym_cholesky, np.ndarray)
def sym_cholesky_rrule(a: np.ndarray) -> Any:
    """The chain rule through ``hermitian_part`` (linear, self-adjoint) and the library's cholesky rule."""
    y, pullback = rrule(np.linalg.cholesky, hermitian_part(a))

    def sym_cholesky_pullback(dy: Any) -> tuple[Any, Any]:
        ds = unthunk(pullback(dy)[1])
        if isinstance(ds, ZeroTangent):
            return NoTangent(), ds
        return NoTangent(), ProjectTo(a)(hermitian_part(ds))

    return y, sym_cholesky_pullback


@pytest.mark.parametrize("dtype_", [np.float64, np.complex128])
def test_symmetrized_argument(spd: Any, dtype_: Any) -> None:
    """For a loss of ``(A + A^H) / 2`` the triangle convention gives the symmetric derivative."""
    test_rrule(sym_cholesky, spd((3, 3), dtype_) + 0.1 * np.triu(np.ones((3, 3)), 1),
               check_frule_consistency=False)


def test_symmetric_cotangent_of_hermitian_part(spd: Any, rand: Any) -> None:
    a = spd((3, 3), np.complex128)
    ds = unthunk(sym_cholesky_rrule(a)[1](rand((3, 3), np.complex128))[1])
    assert np.allclose(ds, mH(ds))


@pytest.mark.parametrize("dtype_", [np.float64, np.complex128, np.float32])
@pytest.mark.parametrize("upper", [False, True])
def test_large_order_against_directional_finite_differences(spd: Any, rand: Any, dtype_: Any, upper: bool) -> None:
    """Order 100 takes the ``?sygst`` path: check ``<Abar, dA> == d/dt <Lbar, L(A + t dA)>`` and the frule."""
    n = 100
    a, da, dl = spd((n, n), dtype_), rand((n, n), dtype_), rand((n, n), dtype_)
    _, pullback = rrule(np.linalg.cholesky, a, upper=upper)
    abar = pullback(dl)[1]
    directional = jvp(None, lambda x: np.linalg.cholesky(x, upper=upper), (a, da))
    _, tangent = frule((NoTangent(), da), np.linalg.cholesky, a, upper=upper)
    tol = 1e-3 if dtype_ == np.float32 else 1e-7
    scale = np.abs(dl).sum() * np.abs(directional).max()
    assert abs(np.vdot(dl, directional).real - np.vdot(abar, da).real) <= tol * scale
    assert np.abs(tangent - directional).max() <= tol * np.abs(directional).max()


@pytest.mark.parametrize("dtype_", [np.float64, np.complex128, np.float32])
def test_blocked_pullback_against_directional_finite_differences(spd: Any, rand: Any, dtype_: Any) -> None:
    """Order 150 takes the blocked pullback (two full blocks of 64 and a partial one)."""
    n = 150
    a, da, dl = spd((n, n), dtype_), rand((n, n), dtype_), rand((n, n), dtype_)
    _, pullback = rrule(np.linalg.cholesky, a)
    abar = pullback(dl)[1]
    assert abar.dtype == np.dtype(dtype_)
    directional = jvp(None, np.linalg.cholesky, (a, da))
    tol = 1e-3 if dtype_ == np.float32 else 1e-7
    scale = np.abs(dl).sum() * np.abs(directional).max()
    assert abs(np.vdot(dl, directional).real - np.vdot(abar, da).real) <= tol * scale


@pytest.mark.parametrize("shape", [(10, 10), (2, 7, 7)])
def test_blocked_pullback_with_small_blocks(spd: Any, dtype: Any, shape: Any, monkeypatch: Any) -> None:
    """The blocked algorithm through the full tester, with blocks of 3 (uneven last block), stacked too."""
    from chainrules.rulesets.linalg import cholesky as module

    monkeypatch.setattr(module, "_BLOCKED_FROM", 4)
    monkeypatch.setattr(module, "_BLOCK", 3)
    a = spd(shape, dtype)
    test_rrule(np.linalg.cholesky, a)
    test_rrule(scipy.linalg.cholesky, a[..., :, :] if a.ndim == 2 else a[0])


def test_integer_input() -> None:
    a = np.array([[4, 2], [2, 5]])
    y, pullback = rrule(np.linalg.cholesky, a)
    assert y.dtype == np.float64
    assert pullback(np.ones((2, 2)))[1] == NoTangent()
    test_rrule(np.linalg.cholesky, PrimalAndTangent(a, NoTangent()))


def test_not_positive_definite_passes_through() -> None:
    a = np.array([[1.0, 2.0], [2.0, 1.0]])
    with pytest.raises(np.linalg.LinAlgError):
        rrule(np.linalg.cholesky, a)
    with pytest.raises(scipy.linalg.LinAlgError):
        frule((NoTangent(), np.ones((2, 2))), scipy.linalg.cholesky, a)


def test_one_part_of_a_stack(spd: Any) -> None:
    a = spd((2, 3, 3), np.float64)
    dy = np.zeros((2, 3, 3))
    dy[1] = np.tril(np.ones((3, 3)))
    test_rrule(np.linalg.cholesky, a, output_tangent=dy)


def test_wrong_cotangent_shape(spd: Any) -> None:
    _, pullback = rrule(np.linalg.cholesky, spd((3, 3), np.float64))
    with pytest.raises(Exception, match="cholesky"):
        pullback(np.ones((2, 2)))


def test_float32_stays_float32(spd: Any) -> None:
    a = spd((3, 3), np.float32)
    y, pullback = rrule(scipy.linalg.cholesky, a)
    assert y.dtype == np.float32 and pullback(np.ones((3, 3), np.float32))[1].dtype == np.float32


# ---- structured ------------------------------------------------------------------------------------------------
def _structured(kind: str, a: np.ndarray) -> Any:
    if kind == "Symmetric":
        return Symmetric(a.real.astype(a.dtype) if a.dtype.kind == "c" else a)
    if kind == "SymmetricLower":
        return Symmetric(a.real.astype(a.dtype) if a.dtype.kind == "c" else a, lower=True)
    return Hermitian(a)


@pytest.mark.parametrize("kind", ["Symmetric", "SymmetricLower", "Hermitian"])
@pytest.mark.parametrize("f", [np.linalg.cholesky, scipy.linalg.cholesky], ids=["numpy", "scipy"])
def test_self_adjoint_inputs(spd: Any, dtype: Any, kind: str, f: Any) -> None:
    S = _structured(kind, spd((3, 3), dtype))
    test_rrule(f, S)
    test_frule(f, S)
    assert type(unthunk(rrule(f, S)[1](np.ones((3, 3), dtype))[1])) is type(S)


def test_self_adjoint_keywords(spd: Any) -> None:
    S = Hermitian(spd((3, 3), np.complex128))
    test_rrule(np.linalg.cholesky, S, fkwargs={"upper": True})
    test_rrule(scipy.linalg.cholesky, S, True)
    test_frule(scipy.linalg.cholesky, S, fkwargs={"lower": True})


@pytest.mark.parametrize("f", [np.linalg.cholesky, scipy.linalg.cholesky], ids=["numpy", "scipy"])
def test_diagonal_input(dtype: Any, f: Any) -> None:
    d = Diagonal(np.array([1.0, 2.0, 3.0], dtype=dtype))
    test_rrule(f, d)
    test_frule(f, d)
    assert type(unthunk(rrule(f, d)[1](np.ones((3, 3), dtype))[1])) is Diagonal


def test_diagonal_not_positive_definite() -> None:
    with pytest.raises(np.linalg.LinAlgError):
        rrule(np.linalg.cholesky, Diagonal(np.array([1.0, -2.0])))


# ---- banded ------------------------------------------------------------------------------------------------------
def _band_storage(rand: Any, n: int, k: int, dtype: Any, lower: bool) -> np.ndarray:
    """A positive definite band matrix with ``k`` off-diagonals in LAPACK's storage, a nonzero unused corner."""
    g = rand((n, n), dtype)
    a = np.triu(np.tril(g @ mH(g), k), -k)
    a = a + np.eye(n) * (np.abs(a).sum(axis=1).max() + 1)
    ab = np.zeros((k + 1, n), dtype=dtype)
    for t in range(k + 1):
        if lower:
            ab[t, : n - t] = np.diagonal(a, -t)
        else:
            ab[k - t, t:] = np.diagonal(a, t)
    ab[_band_unused(k, n, lower)] = 7.0  # never read; passed through
    return ab


@pytest.mark.parametrize("n, k", [(5, 2), (4, 1), (3, 0), (4, 3)])
@pytest.mark.parametrize("lower", [False, True])
def test_cholesky_banded(rand: Any, dtype: Any, n: int, k: int, lower: bool) -> None:
    ab = _band_storage(rand, n, k, dtype, lower)
    test_rrule(scipy.linalg.cholesky_banded, ab, fkwargs={"lower": lower})
    test_frule(scipy.linalg.cholesky_banded, ab, fkwargs={"lower": lower})


def test_cholesky_banded_positional_and_stacked(rand: Any) -> None:
    ab = np.stack([_band_storage(rand, 4, 1, np.float64, True) for _ in range(2)])
    test_rrule(scipy.linalg.cholesky_banded, ab, False, True)
    test_frule(scipy.linalg.cholesky_banded, ab, False, True)


def test_cholesky_banded_matches_dense_rule(rand: Any) -> None:
    """The band algorithm and the dense rule agree (both are checked against finite differences above)."""
    n, k = 5, 2
    ab = _band_storage(rand, n, k, np.float64, lower=True)
    dc = np.where(_band_unused(k, n, True), 0, rand((k + 1, n)))
    dab = rrule(scipy.linalg.cholesky_banded, ab, lower=True)[1](dc)[1]
    a = np.zeros((n, n))
    dL = np.zeros((n, n))
    for t in range(k + 1):
        a += np.diag(ab[t, : n - t], -t)
        dL += np.diag(dc[t, : n - t], -t)
    da = rrule(np.linalg.cholesky, a)[1](dL)[1]
    for t in range(k + 1):
        assert np.allclose(dab[t, : n - t], np.diagonal(da, -t))


def test_cholesky_banded_not_positive_definite() -> None:
    with pytest.raises(np.linalg.LinAlgError):
        rrule(scipy.linalg.cholesky_banded, np.array([[0.0, 3.0], [1.0, 1.0]]))
