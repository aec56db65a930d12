"""Tests of chainrules/rulesets/linalg/qr.py (np.linalg.qr, scipy.linalg.qr and rq) against finite differences."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import scipy.linalg

from chainrules import NotImplementedTangent, Tangent, ZeroTangent, frule, rrule, unthunk
from chainrules.rulesets.linalg._utils import mH
from chainrules.testing import test_frule, test_rrule

SHAPES = [(3, 3), (4, 3), (3, 4)]
STACKS = [(2, 3, 3), (2, 4, 3), (2, 3, 4)]


def gauge_free(q: np.ndarray, dq: np.ndarray, n: int) -> np.ndarray:
    """``dq`` with its last columns made invariant under ``Q2 -> Q2 W``: ``Q2^H dQ2`` Hermitian."""
    dq = dq.copy()
    q2 = q[..., :, n:]
    g = mH(q2) @ dq[..., :, n:]
    dq[..., :, n:] -= q2 @ ((g - mH(g)) / 2)
    return dq


# ---- np.linalg.qr ----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("mode", ["reduced", "r"])
def test_numpy_qr(rand: Any, dtype: Any, shape: Any, mode: str) -> None:
    a = rand(shape, dtype)
    test_rrule(np.linalg.qr, a, mode)
    test_frule(np.linalg.qr, a, fkwargs={"mode": mode})


@pytest.mark.parametrize("shape", STACKS)
def test_numpy_qr_stacked(rand: Any, shape: Any) -> None:
    a = rand(shape, np.complex128)
    test_rrule(np.linalg.qr, a)
    test_frule(np.linalg.qr, a)


def test_numpy_qr_default_mode(rand: Any) -> None:
    a = rand((4, 3))
    test_rrule(np.linalg.qr, a)
    test_rrule(np.linalg.qr, a, fkwargs={"mode": "reduced"})


@pytest.mark.parametrize("shape", [(3, 3), (3, 4)])
def test_numpy_qr_complete_square_and_wide(rand: Any, dtype: Any, shape: Any) -> None:
    a = rand(shape, dtype)
    test_rrule(np.linalg.qr, a, "complete")
    test_frule(np.linalg.qr, a, "complete")


@pytest.mark.parametrize("shape", [(4, 2), (2, 5, 3)])
def test_numpy_qr_complete_tall(rand: Any, dtype: Any, shape: Any) -> None:
    """The complete Q of a tall matrix: exact for losses invariant under Q2 -> Q2 W, else not_implemented."""
    a = rand(shape, dtype)
    y = np.linalg.qr(a, "complete")
    n = shape[-1]
    dq = gauge_free(y.Q, rand(y.Q.shape, dtype), n)
    dr = rand(y.R.shape, dtype)
    # (the testers cannot yet compare an frule output with one not-implemented part: consistency off)
    test_rrule(np.linalg.qr, a, "complete", output_tangent=Tangent(type(y), Q=dq, R=dr), check_frule_consistency=False)
    test_rrule(np.linalg.qr, a, "complete", output_tangent=Tangent(type(y), Q=ZeroTangent(), R=dr),
               check_frule_consistency=False)
    _, pullback = rrule(np.linalg.qr, a, "complete")
    general = unthunk(pullback(Tangent(type(y), Q=rand(y.Q.shape, dtype), R=dr))[1])
    assert isinstance(general, NotImplementedTangent)


def qr_r_of_complete(a: np.ndarray) -> np.ndarray:
    """``R`` of the complete QR (its tangent is exact even where ``Q``'s is not implemented)."""
    return np.linalg.qr(a, "complete").R


@frule.register(qr_r_of_complete, np.ndarray)
def qr_r_of_complete_frule(tangents: Any, a: np.ndarray) -> Any:
    y, dy = frule((tangents[0], tangents[1], None), np.linalg.qr, a, "complete")
    dy = unthunk(dy)
    return y.R, dy if isinstance(dy, ZeroTangent) else dy.R


@pytest.mark.parametrize("dtype_", [np.float64, np.complex128])
def test_numpy_qr_complete_tall_forward(rand: Any, dtype_: Any) -> None:
    a = rand((5, 2), dtype_)
    test_frule(qr_r_of_complete, a)
    _, dy = frule((None, rand((5, 2), dtype_), None), np.linalg.qr, a, "complete")
    assert isinstance(unthunk(dy).Q, NotImplementedTangent)


def test_numpy_qr_complete_one_extra_row_real(rand: Any) -> None:
    """Real input with m - n == 1: Q2 is unique up to sign, so the complete Q is differentiable."""
    a = rand((2, 4, 3))
    test_rrule(np.linalg.qr, a, "complete")
    test_frule(np.linalg.qr, a, "complete")


@pytest.mark.parametrize("shape", [(4, 3), (3, 4)])
def test_numpy_qr_raw(rand: Any, dtype: Any, shape: Any) -> None:
    """mode='raw': the cotangent of the entries holding R is exact, that of the reflectors not_implemented."""
    a = rand(shape, dtype)
    h, tau = np.linalg.qr(a, "raw")
    on_r = mH(np.triu(mH(rand(h.shape, dtype)))).conj()  # h is the transpose of LAPACK's array
    test_rrule(np.linalg.qr, a, "raw", output_tangent=Tangent(tuple, on_r, ZeroTangent()),
               check_frule_consistency=False)
    _, pullback = rrule(np.linalg.qr, a, "raw")
    assert isinstance(unthunk(pullback((rand(h.shape, dtype), ZeroTangent()))[1]), NotImplementedTangent)
    assert isinstance(unthunk(pullback((ZeroTangent(), rand(tau.shape, dtype)))[1]), NotImplementedTangent)
    _, dy = frule((None, rand(shape, dtype), None), np.linalg.qr, a, "raw")
    assert isinstance(unthunk(dy), NotImplementedTangent)   # one for the whole output


def test_rank_deficient_raises() -> None:
    a = np.array([[1.0, 0.0], [0.0, 0.0], [0.0, 0.0]])  # R[1, 1] == 0 exactly
    _, pullback = rrule(np.linalg.qr, a)
    with pytest.raises(np.linalg.LinAlgError):
        pullback((np.ones((3, 2)), np.ones((2, 2))))
    with pytest.raises(np.linalg.LinAlgError):
        frule((None, np.ones((3, 2))), np.linalg.qr, a)


def test_zero_pivot_raises() -> None:
    a = np.zeros((3, 2))
    _, pullback = rrule(np.linalg.qr, a)
    with pytest.raises(np.linalg.LinAlgError, match="qr"):
        pullback((np.ones((3, 2)), np.ones((2, 2))))


def test_integer_input() -> None:
    _, pullback = rrule(np.linalg.qr, np.array([[1, 2], [3, 4]]))
    assert str(pullback((np.ones((2, 2)), np.ones((2, 2))))[1]) == "NoTangent()"


def test_wrong_cotangent_shape(rand: Any) -> None:
    _, pullback = rrule(np.linalg.qr, rand((3, 3)))
    with pytest.raises(Exception, match="qr"):
        pullback((np.ones((2, 3)), ZeroTangent()))


# ---- scipy.linalg.qr ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("mode", ["economic", "r"])
@pytest.mark.parametrize("pivoting", [False, True])
def test_scipy_qr(rand: Any, dtype: Any, shape: Any, mode: str, pivoting: bool) -> None:
    a = rand(shape, dtype)
    test_rrule(scipy.linalg.qr, a, fkwargs={"mode": mode, "pivoting": pivoting})
    test_frule(scipy.linalg.qr, a, fkwargs={"mode": mode, "pivoting": pivoting})


@pytest.mark.parametrize("shape", [(3, 3), (3, 4)])
def test_scipy_qr_full_positional(rand: Any, dtype: Any, shape: Any) -> None:
    a = rand(shape, dtype)
    test_rrule(scipy.linalg.qr, a)
    test_rrule(scipy.linalg.qr, a, False, None, "full", True)
    test_frule(scipy.linalg.qr, a, False, None, "full", True)


@pytest.mark.parametrize("shape", [(2, 3, 3), (2, 4, 3)])
@pytest.mark.parametrize("mode", ["economic", "r"])
def test_scipy_qr_stacked(rand: Any, shape: Any, mode: str) -> None:
    a = rand(shape)
    test_rrule(scipy.linalg.qr, a, fkwargs={"mode": mode, "pivoting": True})
    test_rrule(scipy.linalg.qr, a, fkwargs={"mode": mode})
    test_frule(scipy.linalg.qr, a, fkwargs={"mode": mode})


@pytest.mark.parametrize("pivoting", [False, True])
def test_scipy_qr_full_tall(rand: Any, dtype: Any, pivoting: bool) -> None:
    a = rand((5, 3), dtype)
    y = scipy.linalg.qr(a, pivoting=pivoting)
    dq = gauge_free(y[0], rand(y[0].shape, dtype), 3)
    parts = [dq, rand(y[1].shape, dtype)] + ([ZeroTangent()] if pivoting else [])
    test_rrule(scipy.linalg.qr, a, fkwargs={"pivoting": pivoting}, output_tangent=Tangent(tuple, *parts),
               check_frule_consistency=False)


@pytest.mark.parametrize("shape", [(4, 3), (3, 4)])
@pytest.mark.parametrize("pivoting", [False, True])
def test_scipy_qr_raw(rand: Any, dtype: Any, shape: Any, pivoting: bool) -> None:
    a = rand(shape, dtype)
    y = scipy.linalg.qr(a, mode="raw", pivoting=pivoting)
    (qr, _), r = y[0], y[1]
    tail = [ZeroTangent()] if pivoting else []
    on_r = Tangent(tuple, Tangent(tuple, np.triu(rand(qr.shape, dtype)), ZeroTangent()), rand(r.shape, dtype), *tail)
    test_rrule(scipy.linalg.qr, a, fkwargs={"mode": "raw", "pivoting": pivoting}, output_tangent=on_r,
               check_frule_consistency=False)
    _, pullback = rrule(scipy.linalg.qr, a, mode="raw", pivoting=pivoting)
    reflectors = Tangent(tuple, Tangent(tuple, rand(qr.shape, dtype), ZeroTangent()), ZeroTangent(), *tail)
    assert isinstance(unthunk(pullback(reflectors)[1]), NotImplementedTangent)
    _, dy = frule((None, rand(shape, dtype)), scipy.linalg.qr, a, mode="raw", pivoting=pivoting)
    assert isinstance(unthunk(dy), NotImplementedTangent)   # one for the whole output, R's tangent included


# ---- scipy.linalg.rq ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("mode", ["economic", "r"])
def test_rq(rand: Any, dtype: Any, shape: Any, mode: str) -> None:
    a = rand(shape, dtype)
    test_rrule(scipy.linalg.rq, a, fkwargs={"mode": mode})
    test_frule(scipy.linalg.rq, a, fkwargs={"mode": mode})


@pytest.mark.parametrize("shape", [(3, 3), (4, 3), (2, 4, 3)])
def test_rq_full_square_and_tall(rand: Any, dtype: Any, shape: Any) -> None:
    a = rand(shape, dtype)
    test_rrule(scipy.linalg.rq, a)
    test_frule(scipy.linalg.rq, a, False, None, "full")


def test_rq_full_wide(rand: Any, dtype: Any) -> None:
    """``mode='full'`` of a wide matrix: Q's first n - m rows are the free basis (gauge-invariant losses)."""
    a = rand((2, 4), dtype)
    r, q = scipy.linalg.rq(a)
    # rows of Q <-> columns of the QR factor of J A^H J: make Q1 Q1bar^H Hermitian for the free rows Q1
    dq = mH(gauge_free(mH(q)[..., ::-1], mH(rand(q.shape, dtype))[..., ::-1], 2)[..., ::-1])
    test_rrule(scipy.linalg.rq, a, output_tangent=(rand(r.shape, dtype), dq), check_frule_consistency=False)
    _, pullback = rrule(scipy.linalg.rq, a)
    assert isinstance(unthunk(pullback((ZeroTangent(), rand(q.shape, dtype)))[1]), NotImplementedTangent)
