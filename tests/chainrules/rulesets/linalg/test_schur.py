"""Tests of chainrules/rulesets/linalg/schur.py (scipy.linalg.schur, rsf2csf) against finite differences.

The complex Schur vectors have a free phase each, and LAPACK's choice jumps under small
perturbations: those rules are tested through losses invariant under that freedom,
``Z (T o M) Z^H`` and symmetric functions of the eigenvalues. The float32 real form is
tested the same way: the float64 finite differences may pick other signs for the Schur
vectors.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import scipy.linalg

from chainrules import NoTangent, NotImplementedTangent, ZeroTangent, frule, rrule, unthunk
from chainrules.rulesets.linalg._utils import mH
from chainrules.testing import PrimalAndTangent, test_frule, test_rrule


# ---- real Schur form -------------------------------------------------------------------------------------------
def _pairs(a: np.ndarray) -> int:
    t = scipy.linalg.schur(a)[0]
    return int(np.count_nonzero(np.diagonal(t, -1, axis1=-2, axis2=-1)))


@pytest.mark.parametrize("n", [3, 4])
def test_real_schur(rand: Any, n: int) -> None:
    a = rand((n, n))
    test_rrule(scipy.linalg.schur, a)
    test_frule(scipy.linalg.schur, a)
    test_rrule(scipy.linalg.schur, a, "real")                   # output by position
    test_frule(scipy.linalg.schur, a, fkwargs={"output": "real"})


def test_real_schur_with_and_without_2x2_blocks(rand: Any) -> None:
    with_pair = np.array([[1.0, 2.0, 0.5], [-3.0, 1.5, 0.2], [0.1, 0.3, -2.0]])
    v = rand((3, 3)) + 2 * np.eye(3)
    real_spectrum = v @ np.diag([1.0, 2.0, 4.0]) @ np.linalg.inv(v)
    assert _pairs(with_pair) == 1 and _pairs(real_spectrum) == 0
    for a in (with_pair, real_spectrum):
        test_rrule(scipy.linalg.schur, a)
        test_frule(scipy.linalg.schur, a)


def test_real_schur_stacked(rand: Any) -> None:
    a = rand((2, 4, 4))
    test_rrule(scipy.linalg.schur, a)
    test_frule(scipy.linalg.schur, a)


def test_sorted(rand: Any) -> None:
    a = rand((4, 4))
    y, _ = rrule(scipy.linalg.schur, a, sort="lhp")
    assert len(y) == 3
    test_rrule(scipy.linalg.schur, a, fkwargs={"sort": "lhp"})
    test_frule(scipy.linalg.schur, a, fkwargs={"sort": "lhp"})


def test_only_t_given(rand: Any) -> None:
    a = rand((4, 4))
    t, _ = scipy.linalg.schur(a)
    test_rrule(scipy.linalg.schur, a, output_tangent=(rand(t.shape), ZeroTangent()))


def test_repeated_eigenvalues_raise() -> None:
    a = np.array([[1.0, 1.0], [0.0, 1.0]])
    _, pullback = rrule(scipy.linalg.schur, a)
    with pytest.raises(np.linalg.LinAlgError, match="eigenvalues"):
        pullback((np.ones((2, 2)), np.ones((2, 2))))


def test_normal_2x2_block_raises() -> None:
    a = np.array([[0.0, 1.0], [-1.0, 0.0]])  # a rotation: T = A, b + c = 0
    with pytest.raises(np.linalg.LinAlgError, match="normal"):
        frule((NoTangent(), np.ones((2, 2))), scipy.linalg.schur, a)


# ---- gauge-invariant losses ---------------------------------------------------------------------------------------
def invariant(a: np.ndarray, m: np.ndarray, output: str) -> np.ndarray:
    """``Z (T o M) Z^H``: unchanged by ``Z -> Z D``, ``T -> D^H T D`` (D diagonal unitary, or signs)."""
    t, z = scipy.linalg.schur(a, output)
    return z @ (t * m) @ mH(z)


@rrule.register(invariant, np.ndarray, np.ndarray, str)
def invariant_rrule(a: np.ndarray, m: np.ndarray, output: str) -> Any:
    """The chain rule: the library's schur rule, then the (bilinear) outer product ``Z (T o M) Z^H``."""
    (t, z), schur_pullback = rrule(scipy.linalg.schur, a, output)
    tm = t * m

    def invariant_pullback(dy: Any) -> tuple[Any, ...]:
        dy = unthunk(dy)
        if isinstance(dy, ZeroTangent):
            return NoTangent(), ZeroTangent(), NoTangent(), NoTangent()
        dt = (mH(z) @ dy @ z) * np.conj(m)
        dz = dy @ z @ mH(tm) + mH(dy) @ z @ tm
        return NoTangent(), schur_pullback((dt, dz))[1], NoTangent(), NoTangent()

    return z @ tm @ mH(z), invariant_pullback


@frule.register(invariant, np.ndarray, np.ndarray, str)
def invariant_frule(tangents: Any, a: np.ndarray, m: np.ndarray, output: str) -> Any:
    (t, z), d = frule((NoTangent(), tangents[1], NoTangent()), scipy.linalg.schur, a, output)
    d = unthunk(d)
    if isinstance(d, ZeroTangent):
        return z @ (t * m) @ mH(z), d
    dt, dz = unthunk(d[0]), unthunk(d[1])
    tm = t * m
    return z @ tm @ mH(z), dz @ tm @ mH(z) + z @ (dt * m) @ mH(z) + z @ tm @ mH(dz)


def power_sum(a: np.ndarray, output: str) -> Any:
    """``sum(diag(T)^3)``: a symmetric function of the eigenvalues (of their real parts for 2x2 real blocks),
    unchanged by the gauge and by the order LAPACK gives the eigenvalues."""
    t = scipy.linalg.schur(a, output)[0]
    return np.sum(np.diagonal(t, axis1=-2, axis2=-1) ** 3, axis=-1)


@rrule.register(power_sum, np.ndarray, str)
def power_sum_rrule(a: np.ndarray, output: str) -> Any:
    (t, _), schur_pullback = rrule(scipy.linalg.schur, a, output)
    d = np.diagonal(t, axis1=-2, axis2=-1)

    def power_sum_pullback(dy: Any) -> tuple[Any, ...]:
        dy = unthunk(dy)
        if isinstance(dy, ZeroTangent):
            return NoTangent(), ZeroTangent(), NoTangent()
        dt = np.zeros(t.shape, dtype=t.dtype)
        idx = np.arange(t.shape[-1])
        dt[..., idx, idx] = np.conj(3 * d**2) * np.asarray(dy)[..., None]
        return NoTangent(), schur_pullback((dt, ZeroTangent()))[1], NoTangent()

    return np.sum(d**3, axis=-1), power_sum_pullback


@frule.register(power_sum, np.ndarray, str)
def power_sum_frule(tangents: Any, a: np.ndarray, output: str) -> Any:
    (t, _), d = frule((NoTangent(), tangents[1], NoTangent()), scipy.linalg.schur, a, output)
    diag = np.diagonal(t, axis1=-2, axis2=-1)
    d = unthunk(d)
    if isinstance(d, ZeroTangent):
        return np.sum(diag**3, axis=-1), d
    return np.sum(diag**3, axis=-1), np.sum(3 * diag**2 * np.diagonal(unthunk(d[0]), axis1=-2, axis2=-1), axis=-1)


def _real_spectrum(rand: Any, n: int, dtype: Any) -> np.ndarray:
    v = rand((n, n)) + 2 * np.eye(n)
    return (v @ np.diag(2.0 ** np.arange(n)) @ np.linalg.inv(v)).astype(dtype)


@pytest.mark.parametrize("shape", [(3, 3), (4, 4), (2, 3, 3)])
def test_complex_schur_invariant_losses(rand: Any, shape: Any) -> None:
    a = rand(shape, np.complex128)
    m = PrimalAndTangent(rand(shape[-2:], np.complex128), NoTangent())
    test_rrule(invariant, a, m, "complex")
    test_frule(invariant, a, m, "complex")


def test_complex_schur_of_real_input(rand: Any) -> None:
    """Real input, output='complex'. (A conjugate pair's order in the complex form is decided by rounding, so
    losses tied to positions are tested on a real spectrum; ``power_sum`` does not depend on the order.)"""
    a = _real_spectrum(rand, 3, np.float64)
    m = PrimalAndTangent(rand((3, 3), np.complex128), NoTangent())
    test_rrule(invariant, a, m, "complex")
    test_frule(invariant, a, m, "complex")
    with_pair = np.array([[1.0, 2.0, 0.5], [-3.0, 1.5, 0.2], [0.1, 0.3, -2.0]])
    test_rrule(power_sum, with_pair, "complex")
    test_frule(power_sum, with_pair, "complex")


def test_float32_real_schur(rand: Any) -> None:
    """float32: the float64 finite differences may order the eigenvalues and sign the vectors differently."""
    a = _real_spectrum(rand, 4, np.float32)
    m = PrimalAndTangent(rand((4, 4), np.float32), NoTangent())
    test_rrule(invariant, a, m, "real")
    test_frule(invariant, a, m, "real")
    with_pair = np.array([[1.0, 2.0, 0.5], [-3.0, 1.5, 0.2], [0.1, 0.3, -2.0]], dtype=np.float32)
    test_rrule(power_sum, with_pair, "real")
    test_frule(power_sum, with_pair, "real")
    _, pullback = rrule(scipy.linalg.schur, a)
    assert pullback((np.ones((4, 4), np.float32), ZeroTangent()))[1].dtype == np.float32


def test_complex_schur_gauge_dependent_cotangent(rand: Any) -> None:
    a = rand((3, 3), np.complex128)
    _, pullback = rrule(scipy.linalg.schur, a)
    da = unthunk(pullback((ZeroTangent(), rand((3, 3), np.complex128)))[1])
    assert isinstance(da, NotImplementedTangent)
    # the eigenvalues alone are gauge invariant
    assert isinstance(unthunk(pullback((np.diag(rand(3, np.complex128)), ZeroTangent()))[1]), np.ndarray)


# ---- rsf2csf -------------------------------------------------------------------------------------------------------
def _structure_mask(t: np.ndarray) -> np.ndarray:
    """The entries of a Schur form that are not structural zeros (upper part, 2x2 blocks' subdiagonals)."""
    n = t.shape[-1]
    return np.triu(np.ones((n, n), dtype=bool)) | (t != 0)


def rsf2csf_of_form(t: np.ndarray, z: np.ndarray, mask: np.ndarray) -> Any:
    """``rsf2csf`` with ``T``'s structural zeros held at zero (where ``rsf2csf`` is discontinuous)."""
    return scipy.linalg.rsf2csf(np.where(mask, t, 0), z)


@rrule.register(rsf2csf_of_form, np.ndarray, np.ndarray, np.ndarray)
def rsf2csf_of_form_rrule(t: np.ndarray, z: np.ndarray, mask: np.ndarray) -> Any:
    y, pullback = rrule(scipy.linalg.rsf2csf, np.where(mask, t, 0), z)

    def rsf2csf_of_form_pullback(dy: Any) -> tuple[Any, ...]:
        _, dt, dz = pullback(dy)[:3]
        dt = unthunk(dt)
        return NoTangent(), dt if isinstance(dt, ZeroTangent) else np.where(mask, dt, 0), dz, NoTangent()

    return y, rsf2csf_of_form_pullback


@frule.register(rsf2csf_of_form, np.ndarray, np.ndarray, np.ndarray)
def rsf2csf_of_form_frule(tangents: Any, t: np.ndarray, z: np.ndarray, mask: np.ndarray) -> Any:
    dt = unthunk(tangents[1])
    dt = dt if isinstance(dt, ZeroTangent) else np.where(mask, dt, 0)
    return frule((NoTangent(), dt, tangents[2]), scipy.linalg.rsf2csf, np.where(mask, t, 0), z)


@pytest.mark.parametrize("shape", [(3, 3), (4, 4), (5, 5), (2, 4, 4)])
@pytest.mark.parametrize("dtype_", [np.float64, np.float32])
def test_rsf2csf(rand: Any, shape: Any, dtype_: Any) -> None:
    t, z = scipy.linalg.schur(rand(shape, dtype_))
    mask = PrimalAndTangent(_structure_mask(t), NoTangent())
    test_rrule(rsf2csf_of_form, t, z, mask)
    test_frule(rsf2csf_of_form, t, z, mask)


def test_rsf2csf_of_a_complex_form(rand: Any) -> None:
    """Complex input is already triangular: no rotation."""
    t, z = scipy.linalg.schur(rand((3, 3), np.complex128))
    mask = PrimalAndTangent(_structure_mask(t), NoTangent())
    test_rrule(rsf2csf_of_form, t, z, mask)
    test_frule(rsf2csf_of_form, t, z, mask)


def test_rsf2csf_direct(rand: Any) -> None:
    """The rules registered for rsf2csf itself: positional check_finite, one output cotangent given."""
    t, z = scipy.linalg.schur(np.array([[1.0, 2.0, 0.5], [-3.0, 1.5, 0.2], [0.1, 0.3, -2.0]]))
    y, pullback = rrule(scipy.linalg.rsf2csf, t, z, False)
    dt, dz = pullback((ZeroTangent(), rand(y[1].shape, np.complex128)))[1:3]
    assert dt.dtype == np.float64 and dz.dtype == np.float64
    assert all(isinstance(c, ZeroTangent) for c in pullback(ZeroTangent())[1:3])
