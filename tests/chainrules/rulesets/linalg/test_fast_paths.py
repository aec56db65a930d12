"""The small-matrix fast paths of ``np.linalg.det`` and ``np.linalg.solve`` against the general rules.

The general rules (``_general_det_rrule``, ``_general_solve_rrule``: LU factors kept for the
pullback) are the specification. On the same inputs the fast path must give the same output and
cotangents (to rounding: NumPy's and SciPy's LAPACK calls round differently), the same types,
the same thunks, and raise the same errors (bad cotangents included).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from chainrules.rulesets.linalg.determinants import _general_det_rrule, det_rrule
from chainrules.rulesets.linalg.solves import _general_solve_rrule, solve_rrule
from chainrules_core import NoTangent, Tangent, Thunk, ZeroTangent, not_implemented, rrule, unthunk

RNG = np.random.default_rng(3)


def _outcome(call: Any) -> Any:
    try:
        return ("value", call())
    except Exception as error:  # (the comparison is the point)
        return ("error", type(error), str(error))


def _close(a: Any, b: Any) -> None:
    if isinstance(a, Thunk) or isinstance(b, Thunk):
        assert type(a) is type(b), (a, b)
        _close(unthunk(a), unthunk(b))
        return
    assert type(a) is type(b), (a, b)
    if isinstance(a, tuple):
        assert len(a) == len(b)
        for x, y in zip(a, b):
            _close(x, y)
    elif isinstance(a, (np.ndarray, np.generic)):
        assert a.dtype == b.dtype and a.shape == b.shape, (a, b)
        np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-12 * max(1.0, float(np.max(np.abs(b), initial=0))))
    else:
        assert a == b or repr(a) == repr(b), (a, b)


def _compare(fast_rule: Any, general_rule: Any, args: tuple[Any, ...], cotangents: list[Any]) -> None:
    fast, general = _outcome(lambda: fast_rule(*args)), _outcome(lambda: general_rule(*args))
    assert fast[0] == general[0], (fast, general)
    if fast[0] == "error":
        assert fast[1:] == general[1:]
        return
    (y_fast, pb_fast), (y_general, pb_general) = fast[1], general[1]
    _close(y_fast, y_general)
    assert pb_fast.__name__ == pb_general.__name__
    for dy in cotangents:
        out_fast = _outcome(lambda dy=dy: tuple(unthunk(d) for d in pb_fast(dy)))
        out_general = _outcome(lambda dy=dy: tuple(unthunk(d) for d in pb_general(dy)))
        assert out_fast[0] == out_general[0], (dy, out_fast, out_general)
        if out_fast[0] == "error":
            assert out_fast[1:] == out_general[1:], dy
        else:
            _close(out_fast[1], out_general[1])
            assert [type(d) for d in pb_fast(dy)] == [type(d) for d in pb_general(dy)], dy  # the same thunks


def _scalar_cotangents() -> list[Any]:
    return [1.5, np.float64(-2.0), np.array(0.5), np.float32(2.0), 2, 1j, ZeroTangent(), not_implemented("x"),
            Thunk(lambda: 3.0), None, "abc", np.ones(2), Tangent(tuple, 1.0)]


def _well_conditioned(n: int) -> np.ndarray:
    return RNG.standard_normal((n, n)) + n * np.eye(n)


MATRICES = [
    ("3x3", _well_conditioned(3)), ("1x1", np.array([[2.5]])), ("16x16", _well_conditioned(16)),
    ("17x17 (general)", _well_conditioned(17)), ("negative det", np.diag([1.0, -2.0, 3.0])),
    ("singular", np.array([[1.0, 2.0], [2.0, 4.0]])), ("zero pivot", np.zeros((2, 2))),
    ("underflowing det", np.eye(3) * 1e-120), ("overflowing det", np.eye(3) * 1e120),
    ("nan", np.array([[1.0, np.nan], [0.0, 1.0]])), ("float32 (general)", _well_conditioned(3).astype(np.float32)),
    ("complex (general)", _well_conditioned(2) + 1j * np.eye(2)), ("stack (general)", RNG.standard_normal((2, 3, 3))),
    ("Fortran order", np.asfortranarray(_well_conditioned(3))), ("integer (general)", np.array([[2, 1], [1, 3]])),
    ("0x0 (general)", np.zeros((0, 0))),
]


@pytest.mark.parametrize("label, a", MATRICES, ids=[m[0] for m in MATRICES])
def test_det_fast_path_is_the_general_rule(label: str, a: np.ndarray) -> None:
    with np.errstate(all="ignore"):
        _compare(det_rrule, _general_det_rrule, (a,), _scalar_cotangents())


def test_det_fast_path_is_taken_and_found() -> None:
    a = _well_conditioned(3)
    _, pullback = rrule(np.linalg.det, a)
    assert pullback.__qualname__.startswith("_small_det_rrule")
    np.testing.assert_allclose(pullback(1.0)[1], np.linalg.det(a) * np.linalg.inv(a).T, rtol=1e-12)


def _array_cotangents(shape: tuple[int, ...]) -> list[Any]:
    return [np.ones(shape), np.full(shape, 0.5, np.float32), np.full(shape, 2 + 1j), np.ones(shape, int),
            ZeroTangent(), not_implemented("x"), Thunk(lambda: np.ones(shape)), None, "abc", np.ones((*shape, 2)),
            1.5, Tangent(tuple, 1.0), np.ones(shape).tolist(), np.ones((*shape, 2))[..., 0]]


def _solution_shape(a: np.ndarray, b: np.ndarray) -> tuple[int, ...]:
    """The shape of ``solve(a, b)`` (``b``'s where NumPy raises)."""
    solved = _outcome(lambda: np.linalg.solve(a, b))
    return solved[1].shape if solved[0] == "value" else b.shape


@pytest.mark.parametrize("label, a", MATRICES, ids=[m[0] for m in MATRICES])
@pytest.mark.parametrize("columns", [None, 1, 2, 0])
def test_solve_fast_path_is_the_general_rule(label: str, a: np.ndarray, columns: int | None) -> None:
    n = a.shape[-1]
    b = RNG.standard_normal(n if columns is None else (n, columns))
    with np.errstate(all="ignore"):
        shape = _solution_shape(a, b)
        _compare(solve_rrule, _general_solve_rrule, (a, b), _array_cotangents(shape))


@pytest.mark.parametrize("b", [np.ones(3, np.float32), np.ones(3, int), np.ones((2, 3, 1)), np.ones(4),
                               np.ones((3, 2)).T])
def test_solve_fast_path_other_right_hand_sides(b: np.ndarray) -> None:
    a = _well_conditioned(3)
    shape = _solution_shape(a, b)
    _compare(solve_rrule, _general_solve_rrule, (a, b), _array_cotangents(shape))


def test_solve_fast_path_thunks_share_one_solve() -> None:
    a, b = _well_conditioned(3), RNG.standard_normal(3)
    x, pullback = rrule(np.linalg.solve, a, b)
    assert pullback.__qualname__.startswith("_small_solve_rrule")
    df, da, db = pullback(np.ones(3))
    assert isinstance(df, NoTangent) and isinstance(da, Thunk) and isinstance(db, Thunk)
    adjoint = unthunk(db)
    np.testing.assert_allclose(a.T @ adjoint, np.ones(3), rtol=1e-12)
    np.testing.assert_allclose(unthunk(da), -np.outer(adjoint, x), rtol=1e-12)
