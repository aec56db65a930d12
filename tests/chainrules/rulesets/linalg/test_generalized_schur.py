"""Rules of chainrules/rulesets/linalg/generalized_schur.py, checked against finite differences.

The real form of a pencil with real eigenvalues is unique up to locally constant signs, so
its outputs are checked as they are; the complex form has a free common phase per pair of
Schur vectors, and is checked through gauge-invariant outputs (``composite`` fixture: the
rules of each step chained, compared with finite differences of the whole): the
generalized eigenvalues, ``|S|^2``, ``|T|^2`` and projectors onto deflating subspaces.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import scipy.linalg as sla

import chainrules  # registers the rules
import chainrules.rulesets.linalg.generalized_schur  # noqa: F401
from chainrules import NotImplementedTangent, ZeroTangent, rrule, unthunk
from chainrules.testing import test_frule, test_rrule

Call = Callable[..., Any]


def check(f: Any, *args: Any, **kwargs: Any) -> None:
    test_rrule(f, *args, **kwargs)
    test_frule(f, *args, **kwargs)


def definite_pencil(rand: Callable[..., np.ndarray], n: int, dtype: Any = np.float64) -> tuple[np.ndarray, np.ndarray]:
    """A symmetric (Hermitian) ``A`` and a positive definite ``B``: real, distinct generalized eigenvalues."""
    a = rand((n, n), dtype)
    g = rand((n, n), dtype) / 2
    return a + np.conj(a).T + np.diag(np.arange(n) * 2.0), g @ np.conj(g).T + 2 * np.eye(n)


def invariants(decompose: Call, k: int) -> Call:
    """``|S|^2 + |T|^2 + Q_k Q_k^H + Z_k Z_k^H + sum(eigenvalues) + sum(diag(S) + 2 diag(T))``.

    Each term is invariant under the common phase ``D``; ``diag(S)`` and ``diag(T)`` depend on
    LAPACK's normalization (``T``'s diagonal real), which the rules must follow.
    """
    def program(call: Call, x: Any) -> Any:
        a, b = call(operator.getitem, x, 0), call(operator.getitem, x, 1)
        s, t, q, z = decompose(call, a, b)
        ratios = call(np.divide, call(np.diagonal, s), call(np.diagonal, t))
        moduli = call(np.add, call(np.multiply, s, call(np.conj, s)), call(np.multiply, t, call(np.conj, t)))
        qk, zk = call(np.take, q, list(range(k)), axis=-1), call(np.take, z, list(range(k)), axis=-1)
        projectors = call(np.add, call(np.matmul, qk, call(np.conj, call(np.transpose, qk))),
                          call(np.matmul, zk, call(np.conj, call(np.transpose, zk))))
        total = call(np.add, call(np.real, moduli), call(np.real, projectors))
        diagonals = call(np.add, call(np.diagonal, s), call(np.multiply, call(np.diagonal, t), 2.0))
        scalars = call(np.add, call(np.sum, call(np.real, ratios)), call(np.sum, call(np.imag, diagonals)))
        return call(np.add, call(np.add, total, scalars), call(np.sum, call(np.real, diagonals)))
    return program


def qz_of(**kwargs: Any) -> Call:
    def decompose(call: Call, a: Any, b: Any) -> Any:
        return call(sla.qz, a, b, **kwargs)
    return decompose


def ordqz_of(**kwargs: Any) -> Call:
    def decompose(call: Call, a: Any, b: Any) -> Any:
        s, t, _, _, q, z = call(sla.ordqz, a, b, **kwargs)
        return s, t, q, z
    return decompose


# ---- qz ----------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("n", [2, 3])
def test_qz_real_form_real_eigenvalues(n, rand):
    a, b = definite_pencil(rand, n)
    check(sla.qz, a, b)
    check(sla.qz, a, b, "real")
    check(sla.qz, a, b, fkwargs={"output": "real", "check_finite": False})
    with pytest.raises(ValueError, match="ordqz"):                  # SciPy's own error: qz's sort= is disabled
        rrule(sla.qz, a, b, sort="lhp")


def test_qz_float32(rand):
    a, b = definite_pencil(rand, 3)
    check(sla.qz, a.astype(np.float32), b.astype(np.float32))


@pytest.mark.parametrize("dtype_", [np.float64, np.complex128])
def test_qz_complex_form_invariants(dtype_, rand, composite):
    x = np.stack([rand((3, 3), dtype_), rand((3, 3), dtype_) + 2 * np.eye(3)])
    check(composite(invariants(qz_of(output="complex"), 2), "qz_invariants"), x)
    check(composite(invariants(qz_of(output="complex"), 1), "qz_invariants_first"), x)


def test_qz_stacked(rand):
    pencils = [definite_pencil(rand, 3) for _ in range(2)]
    check(sla.qz, np.stack([p[0] for p in pencils]), np.stack([p[1] for p in pencils]))


def test_qz_not_implemented_cases(rand):
    a, b = rand((3, 3)), rand((3, 3)) + 2 * np.eye(3)
    _, pullback = rrule(sla.qz, np.array([[0.0, -1.0], [1.0, 0.0]]), np.eye(2))     # eigenvalues +-i: 2x2 blocks
    assert isinstance(unthunk(pullback((np.ones((2, 2)), ZeroTangent(), ZeroTangent(), ZeroTangent()))[1]),
                      NotImplementedTangent)
    _, pullback = rrule(sla.qz, a + 0j, b + 0j)                                       # a phase-dependent loss
    cotangents = pullback((ZeroTangent(), ZeroTangent(), rand((3, 3), np.complex128), ZeroTangent()))
    assert isinstance(unthunk(cotangents[1]), NotImplementedTangent)
    _, pullback = rrule(sla.qz, np.diag([1.0, 2.0]), np.diag([1.0, 0.0]))            # an infinite eigenvalue
    assert isinstance(unthunk(pullback((np.eye(2), ZeroTangent(), ZeroTangent(), ZeroTangent()))[1]),
                      NotImplementedTangent)


def test_qz_repeated_eigenvalue_raises():
    _, pullback = rrule(sla.qz, np.diag([1.0, 1.0]), np.eye(2))
    with pytest.raises(np.linalg.LinAlgError, match="repeated"):
        unthunk(pullback((np.eye(2), ZeroTangent(), ZeroTangent(), ZeroTangent()))[1])


# ---- ordqz -------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("sort", ["lhp", "rhp", "iuc", "ouc"])
def test_ordqz_real_form(sort, rand):
    a, b = definite_pencil(rand, 3)
    a = a - 3 * b                                   # eigenvalues on both sides of 0 and of the unit circle
    check(sla.ordqz, a, b, sort)


def test_ordqz_callable_sort_and_keywords(rand):
    a, b = definite_pencil(rand, 3)
    check(sla.ordqz, a, b, fkwargs={"sort": lambda alpha, beta: np.real(alpha / beta) > 2.0, "check_finite": False})


@pytest.mark.parametrize("dtype_", [np.float64, np.complex128])
def test_ordqz_complex_form_invariants(dtype_, rand, composite):
    x = np.stack([rand((3, 3), dtype_), rand((3, 3), dtype_) + 2 * np.eye(3)])
    check(composite(invariants(ordqz_of(output="complex", sort="ouc"), 1), "ordqz_invariants"), x)
    eigenvalues = composite(lambda call, x: call(np.divide, *call(sla.ordqz, call(operator.getitem, x, 0),
                                                                    call(operator.getitem, x, 1),
                                                                    output="complex")[2:4]), "ordqz_eigenvalues")
    check(eigenvalues, x)


def test_ordqz_alpha_beta_cotangents(rand):
    a, b = definite_pencil(rand, 3)
    y = sla.ordqz(a, b)
    zero = ZeroTangent()
    test_rrule(sla.ordqz, a, b, output_tangent=(zero, zero, rand((3,), np.complex128), rand((3,)), zero, zero))
    assert y[2].dtype == np.complex128 and y[3].dtype == np.float64
