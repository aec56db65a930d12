"""Rules of chainrules/rulesets/linalg/qr_updates.py, checked against finite differences.

``qr_update``/``qr_insert``/``qr_delete`` take a QR factorization; their rules differentiate
along the manifold of factorizations (see the module docstring), so they are checked
composed with ``scipy.linalg.qr``'s rules: ``f(x) = qr_update(*qr(A), u, v)`` with ``A``,
``u``, ``v`` cut from one flat vector ``x`` (``composite`` fixture: the rules of each step
chained, compared with finite differences of ``f`` itself, i.e. of SciPy's update).
Complex factors carry phases that the rotations choose, and a complete ``Q1`` of a tall
matrix a free basis of the complement: those are checked through gauge-invariant outputs.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import scipy.linalg as sla

import chainrules  # registers the rules
import chainrules.rulesets.linalg.qr_updates  # this module's rules, whatever the loading mode
from chainrules import NotImplementedTangent, Tangent, UnsupportedKeywordError, ZeroTangent, rrule, unthunk
from chainrules.testing import PrimalAndTangent, test_frule, test_rrule

Call = Callable[..., Any]


def check(f: Any, *args: Any, **kwargs: Any) -> None:
    test_rrule(f, *args, **kwargs)
    test_frule(f, *args, **kwargs)


def unpack(call: Call, x: Any, shapes: list[tuple[int, ...]]) -> list[Any]:
    """Arrays of ``shapes`` cut from the flat vector ``x`` (through rules, so that they are tracked)."""
    parts, start = [], 0
    for shape in shapes:
        size = math.prod(shape)
        parts.append(call(np.reshape, call(operator.getitem, x, slice(start, start + size)), shape))
        start += size
    return parts


def thin(call: Call, q1: Any, r1: Any) -> Any:
    """A scalar of the first ``n`` columns of ``Q1`` and of ``R1`` (what a complete ``Q1`` owes to ``A1``)."""
    n = min(r1.shape[-1], q1.shape[-1])
    q_part = call(np.take, q1, list(range(n)), axis=-1)
    return call(np.add, call(np.sum, call(np.sin, q_part)), call(np.sum, call(np.sin, r1)))


def invariant(call: Call, q1: Any, r1: Any) -> Any:
    """``sum(Q1 R1) + sum(R1^H R1)``: invariant under the factors' phases."""
    gram = call(np.matmul, call(np.conj, call(np.swapaxes, r1, -1, -2)), r1)
    return call(np.add, call(np.sum, call(np.matmul, q1, r1)), call(np.sum, gram))


def after_qr(composite: Any, shapes: list[tuple[int, ...]], mode: str, step: Call, output: str) -> Any:
    """``x -> output(step(call, *qr(A, mode), *extras))`` with ``A, *extras`` cut from ``x``."""
    def program(call: Call, x: Any) -> Any:
        a, *extras = unpack(call, x, shapes)
        q, r = call(sla.qr, a, mode=mode)
        q1, r1 = factors = step(call, q, r, *extras)
        if output == "raw":
            return factors
        return thin(call, q1, r1) if output == "thin" else invariant(call, q1, r1)
    return composite(program, f"{getattr(step, '__name__', 'step')}_{mode}_{output}")


def flat(rand: Callable[..., np.ndarray], shapes: list[tuple[int, ...]], dtype: Any) -> np.ndarray:
    return rand((sum(math.prod(s) for s in shapes),), dtype)


def output_for(dtype: Any, complete: bool) -> str:
    if np.dtype(dtype).kind == "c":
        return "invariant"
    return "thin" if complete else "raw"


def verify(f: Any, x: np.ndarray, extra_rows: list[int]) -> None:
    """``check(f, x)``; reverse mode only where a complete ``Q`` (of ``qr``'s or of the update) has no tangent.

    ``extra_rows``: ``m - n`` of each complete factorization in the chain. Forward mode has the
    tangent of a complete ``Q`` only for real input with ``m - n == 1``.
    """
    if any(e > 1 for e in extra_rows) or (extra_rows and np.iscomplexobj(x)):
        test_rrule(f, x, check_frule_consistency=False)
    else:
        check(f, x)


# ---- qr_update -------------------------------------------------------------------------------------------------
def update(call: Call, q: Any, r: Any, u: Any, v: Any) -> Any:
    return call(sla.qr_update, q, r, u, v)


@pytest.mark.parametrize(("m", "n", "mode", "k"), [(3, 3, "full", None), (3, 4, "full", None), (4, 3, "full", None),
                                                   (4, 3, "economic", None), (3, 3, "full", 2), (5, 3, "economic", 2)],
                         ids=["square", "wide", "tall-complete", "tall-economic", "rank-2", "economic-rank-2"])
def test_qr_update(m, n, mode, k, dtype, rand, composite):
    shapes = [(m, n), (m,) if k is None else (m, k), (n,) if k is None else (n, k)]
    extra = [m - n] if mode == "full" and m > n else []
    verify(after_qr(composite, shapes, mode, update, output_for(dtype, bool(extra))), flat(rand, shapes, dtype), extra)


def test_qr_update_forward_in_u_and_v(rand):
    """With ``(Q, R)`` held fixed, the frule along ``(du, dv)`` matches finite differences of the call itself."""
    q, r = sla.qr(rand((3, 3)))
    fixed = [PrimalAndTangent(x, ZeroTangent()) for x in (q, r)]
    test_frule(sla.qr_update, *fixed, rand((3,)), rand((3,)))
    test_frule(sla.qr_update, *fixed, rand((3,)), rand((3,)), False, True)
    test_frule(sla.qr_update, *fixed, rand((3,)), rand((3,)), fkwargs={"check_finite": False})


def test_qr_update_float32_and_stacked(rand, composite):
    shapes = [(3, 3), (3,), (3,)]
    check(after_qr(composite, shapes, "full", update, "raw"), flat(rand, shapes, np.float32))
    stacked = [(2, 3, 3), (2, 3, 1), (3, 1)]          # SciPy: u and v of ndim >= 2 are matrices
    check(after_qr(composite, stacked, "full", update, "raw"), flat(rand, stacked, np.float64))


def test_qr_update_gauge_dependent_cotangents_are_not_implemented(rand):
    q, r = sla.qr(rand((3, 3), np.complex128))
    _, pullback = rrule(sla.qr_update, q, r, rand((3,), np.complex128), rand((3,), np.complex128))
    cotangents = pullback((rand((3, 3), np.complex128), ZeroTangent()))         # depends on the phases
    assert all(isinstance(unthunk(c), NotImplementedTangent) for c in cotangents[1:5])
    q, r = sla.qr(rand((4, 2)))                                                  # a complete Q1
    _, pullback = rrule(sla.qr_update, q, r, rand((4,)), rand((2,)))
    assert isinstance(unthunk(pullback((rand((4, 4)), ZeroTangent()))[1]), NotImplementedTangent)
    assert not isinstance(unthunk(pullback((ZeroTangent(), rand((4, 2))))[1]), NotImplementedTangent)


def test_qr_update_complete_forward_with_one_extra_row(rand, composite):
    """Real ``A1`` with ``m - n = 1``: the last column of ``Q1`` is unique up to its sign, and has a tangent."""
    shapes = [(3, 2), (3,), (2,)]
    test_frule(after_qr(composite, shapes, "full", update, "raw"), flat(rand, shapes, np.float64))
    q, r = sla.qr(rand((4, 2)))
    _, (dq1, dr1) = chainrules.frule((chainrules.NoTangent(), rand((4, 4)), rand((4, 2)), rand((4,)), rand((2,))),
                                     sla.qr_update, q, r, rand((4,)), rand((2,)))
    assert isinstance(dq1, NotImplementedTangent) and isinstance(dr1, np.ndarray)


def test_qr_update_cotangent_kinds(rand):
    q, r = sla.qr(rand((3, 3)))
    _, pullback = rrule(sla.qr_update, q, r, rand((3,)), rand((3,)))
    assert pullback(ZeroTangent())[1:] == (ZeroTangent(),) * 4
    assert isinstance(pullback(Tangent(tuple, rand((3, 3)), ZeroTangent()))[3], chainrules.Thunk)


# ---- qr_insert ---------------------------------------------------------------------------------------------------
def insert_row(k: int) -> Call:
    def step(call: Call, q: Any, r: Any, u: Any) -> Any:
        return call(sla.qr_insert, q, r, u, k)
    step.__name__ = f"insert_row_{k}"
    return step


def insert_column(k: int) -> Call:
    def step(call: Call, q: Any, r: Any, u: Any) -> Any:
        return call(sla.qr_insert, q, r, u, k, "col")
    step.__name__ = f"insert_column_{k}"
    return step


@pytest.mark.parametrize(("m", "n", "u_shape", "k"), [(2, 3, (3,), 1), (2, 4, (2, 4), 0), (3, 2, (2,), 3)],
                         ids=["one-row", "two-rows-first", "last-complete"])
def test_qr_insert_rows(m, n, u_shape, k, dtype, rand, composite):
    shapes = [(m, n), u_shape]
    m1 = m + (1 if len(u_shape) == 1 else u_shape[0])
    extra = [e for e in (m - n, m1 - n) if e > 0]
    verify(after_qr(composite, shapes, "full", insert_row(k), output_for(dtype, m1 > n)), flat(rand, shapes, dtype),
           extra)


@pytest.mark.parametrize(("m", "n", "u_shape", "k", "mode"), [(3, 2, (3,), 1, "full"), (4, 2, (4,), 2, "economic"),
                                                              (4, 2, (4, 2), 0, "economic"), (2, 2, (2,), 1, "full")],
                         ids=["full-complete", "economic", "economic-two", "wide-result"])
def test_qr_insert_columns(m, n, u_shape, k, mode, dtype, rand, composite):
    shapes = [(m, n), u_shape]
    width = 1 if len(u_shape) == 1 else u_shape[1]
    extra = [e for e in (m - n, m - n - width) if e > 0] if mode == "full" else []
    verify(after_qr(composite, shapes, mode, insert_column(k), output_for(dtype, m > n + width and mode == "full")),
           flat(rand, shapes, dtype), extra)


def test_qr_insert_economic_rows(rand, composite):
    shapes = [(4, 2), (2,)]
    check(after_qr(composite, shapes, "economic", insert_row(1), "raw"), flat(rand, shapes, np.float64))


# ---- qr_delete ---------------------------------------------------------------------------------------------------
def delete(k: int, p: int, which: str) -> Call:
    def step(call: Call, q: Any, r: Any) -> Any:
        return call(sla.qr_delete, q, r, k, p, which)
    step.__name__ = f"delete_{which}_{k}_{p}"
    return step


@pytest.mark.parametrize(("shape", "mode", "k", "p", "which"),
                         [((4, 3), "full", 1, 1, "row"), ((5, 3), "full", 0, 2, "row"), ((3, 4), "full", 1, 1, "col"),
                          ((5, 3), "economic", 1, 1, "col"), ((5, 3), "economic", 4, 1, "row"),
                          ((5, 2), "full", 2, 1, "row")],
                         ids=["row", "two-rows", "col", "economic-col", "economic-last-row", "complete"])
def test_qr_delete(shape, mode, k, p, which, dtype, rand, composite):
    shapes = [shape]
    m, n = shape
    m1, n1 = (m - p, n) if which == "row" else (m, n - p)
    extra = [e for e in (m - n, m1 - n1) if e > 0] if mode == "full" else []
    verify(after_qr(composite, shapes, mode, delete(k, p, which), output_for(dtype, mode == "full" and m1 > n1)),
           flat(rand, shapes, dtype), extra)


def test_keyword_spellings(rand, composite):
    """``which``, ``p``, ``rcond`` and ``check_finite`` by keyword find the same rules."""
    def steps(call: Call, q: Any, r: Any, u: Any) -> Any:
        q1, r1 = call(sla.qr_insert, q, r, u, 1, which="col", rcond=None, check_finite=False)
        return call(sla.qr_delete, q1, r1, 0, p=1, which="row", overwrite_qr=False)

    shapes = [(3, 3), (3,)]
    check(after_qr(composite, shapes, "full", steps, "raw"), flat(rand, shapes, np.float64))
    shapes = [(3, 3), (3,), (3,)]
    keyword = composite(lambda call, x: call(sla.qr_update, *call(sla.qr, unpack(call, x, shapes)[0]),
                                             *unpack(call, x, shapes)[1:], overwrite_qruv=False, check_finite=True),
                        "update_keywords")
    check(keyword, flat(rand, shapes, np.float64))


def test_qr_delete_deleted_rows_get_zero(rand):
    q, r = sla.qr(rand((4, 3)))
    _, pullback = rrule(sla.qr_delete, q, r, 1)
    dr = unthunk(pullback((rand((3, 3)), rand((3, 3))))[2])
    a_bar = q @ dr                                   # R_bar = Q^H A_bar with a unitary Q
    np.testing.assert_allclose(a_bar[1], 0.0, atol=1e-12)
    assert np.abs(a_bar).max() > 0.1


# ---- qr_multiply -------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("shape", "mode"), [((4, 3), "left"), ((4, 3), "right"), ((3, 4), "left"), ((3, 4), "right"),
                                             ((3, 3), "right")])
@pytest.mark.parametrize("pivoting", [False, True])
def test_qr_multiply(shape, mode, pivoting, dtype, rand):
    m, n = shape
    k = min(m, n)
    c = rand((k, 2), dtype) if mode == "left" else rand((2, m), dtype)
    check(sla.qr_multiply, rand(shape, dtype), c, mode, pivoting)


@pytest.mark.parametrize("mode", ["left", "right"])
def test_qr_multiply_conjugate_and_vectors(mode, rand):
    a = rand((4, 3), np.complex128)
    c = rand((3,) if mode == "left" else (4,), np.complex128)
    check(sla.qr_multiply, a, c, mode, False, True)
    check(sla.qr_multiply, a, c, fkwargs={"mode": mode, "conjugate": True})
    check(sla.qr_multiply, a, c, mode)


def test_qr_multiply_stacked(rand):
    check(sla.qr_multiply, rand((2, 4, 3)), rand((2, 4)))


def test_qr_multiply_one_output_and_errors(rand):
    a, c = rand((4, 3)), rand((2, 4))
    test_rrule(sla.qr_multiply, a, c, output_tangent=(ZeroTangent(), rand((3, 3))))
    test_rrule(sla.qr_multiply, a, c, output_tangent=Tangent(tuple, rand((2, 3)), ZeroTangent()))
    with pytest.raises(UnsupportedKeywordError, match="overwrite_c"):
        rrule(sla.qr_multiply, a, rand((4, 2)), "left", overwrite_c=True)
    with pytest.raises(ValueError, match="not compatible"):
        rrule(sla.qr_multiply, a, rand((2, 3)))
