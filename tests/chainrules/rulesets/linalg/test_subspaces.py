"""Rules of chainrules/rulesets/linalg/subspaces.py, checked against finite differences.

A basis of a subspace is defined up to ``Q -> Q W``; the bases themselves are checked where
LAPACK's choice is smooth (real matrices, distinct singular values, a one-dimensional null
space), everything else through the projector ``Q Q^H`` (``composite`` fixture: the rules of
each step chained, compared with finite differences of the whole).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import scipy.linalg as sla

import chainrules  # registers the rules
import chainrules.rulesets.linalg.subspaces  # noqa: F401
from chainrules import ProjectionError, Thunk, ZeroTangent, rrule, unthunk
from chainrules.rulesets.linalg import degeneracy_tolerance
from chainrules.testing import test_frule, test_rrule


def check(f: Any, *args: Any, **kwargs: Any) -> None:
    test_rrule(f, *args, **kwargs)
    test_frule(f, *args, **kwargs)


def projector(basis: Callable[..., Any]) -> Callable[..., Any]:
    """``Q Q^H`` for the basis ``Q = basis(call, a)``: invariant under ``Q -> Q W``."""
    def program(call: Callable[..., Any], a: Any) -> Any:
        q = basis(call, a)
        return call(np.matmul, q, call(np.conj, call(np.swapaxes, q, -1, -2)))
    return program


def rank_two(rand: Callable[..., np.ndarray], shape: tuple[int, int], dtype: Any = np.float64) -> np.ndarray:
    """A matrix of rank two with well separated singular values."""
    return (rand((shape[0], 2), dtype) * np.array([3.0, 1.0])) @ rand((2, shape[1]), dtype)


# ---- orth -------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("shape", [(4, 2), (3, 3), (2, 4)], ids=["tall", "square", "wide"])
def test_orth_basis_real(shape, rand):
    a = rand(shape)
    check(sla.orth, a)
    check(sla.orth, a, 1e-10)
    check(sla.orth, a, fkwargs={"rcond": 1e-10})


def test_orth_basis_float32(rand):
    check(sla.orth, rand((4, 2), np.float32))


@pytest.mark.parametrize("shape", [(4, 2), (3, 3)])
def test_orth_projector(shape, dtype, rand, composite):
    f = composite(projector(lambda call, a: call(sla.orth, a)), "orth_projector")
    check(f, rand(shape, dtype))


def test_orth_stacked(rand):
    check(sla.orth, rand((2, 4, 2)))


def test_orth_rank_deficient_along_rank_preserving_perturbations(dtype, rand, composite):
    """``orth(X A0)`` for a rank-two ``A0``: the rank (and the output's shape) stays two near ``X = I``."""
    a0 = rank_two(rand, (4, 3), dtype)
    assert sla.orth(a0).shape == (4, 2)
    f = composite(projector(lambda call, x: call(sla.orth, call(np.matmul, x, a0))), "orth_of_product")
    check(f, np.eye(4, dtype=dtype) + rand((4, 4), dtype) / 10)
    g = composite(projector(lambda call, y: call(sla.orth, call(np.matmul, a0, y))), "orth_of_product_right")
    check(g, np.eye(3, dtype=dtype) + rand((3, 3), dtype) / 10)


def test_orth_repeated_singular_values(composite):
    a = np.diag([2.0, 2.0, 1.0])[:, :2]                    # orth(a) spans e_0, e_1: a repeated singular value
    f = composite(projector(lambda call, a: call(sla.orth, a)), "orth_projector")
    check(f, a)


def test_orth_output_equals_scipys(rand):
    for a in (rand((4, 2)), rank_two(rand, (4, 3)), rand((2, 3, 3), np.complex128), np.zeros((3, 2))):
        np.testing.assert_array_equal(rrule(sla.orth, a)[0], sla.orth(a))


# ---- null_space -------------------------------------------------------------------------------------------------
def test_null_space_basis_one_dimensional(rand):
    check(sla.null_space, rand((2, 3)))
    check(sla.null_space, rand((2, 3)), fkwargs={"lapack_driver": "gesvd", "check_finite": False})
    check(sla.null_space, rand((2, 3)), 1e-10)


@pytest.mark.parametrize("shape", [(2, 4), (1, 3), (2, 3)])
def test_null_space_projector(shape, dtype, rand, composite):
    f = composite(projector(lambda call, a: call(sla.null_space, a)), "null_space_projector")
    check(f, rand(shape, dtype))


def test_null_space_rank_deficient_along_rank_preserving_perturbations(dtype, rand, composite):
    a0 = rank_two(rand, (3, 4), dtype)
    assert sla.null_space(a0).shape == (4, 2)
    f = composite(projector(lambda call, y: call(sla.null_space, call(np.matmul, a0, y))), "null_space_product")
    check(f, np.eye(4, dtype=dtype) + rand((4, 4), dtype) / 10)
    square = rank_two(rand, (3, 3), dtype)                   # square and rank-deficient: X A0 X keeps the rank
    g = composite(projector(lambda call, x: call(sla.null_space, call(np.matmul, call(np.matmul, x, square), x))),
                  "null_space_similar")
    check(g, np.eye(3, dtype=dtype) + rand((3, 3), dtype) / 10)


def test_null_space_stacked_and_empty(rand, composite):
    f = composite(projector(lambda call, a: call(sla.null_space, a)), "null_space_projector")
    check(f, rand((2, 2, 4)))
    n, pullback = rrule(sla.null_space, rand((4, 2)))         # full column rank: an empty basis
    assert n.shape == (2, 0) and np.array_equal(pullback(np.zeros((2, 0)))[1], np.zeros((4, 2)))


# ---- subspace_angles ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("a_shape", "b_shape"),
                         [((4, 2), (4, 2)), ((5, 3), (5, 1)), ((5, 1), (5, 3)), ((3, 1), (3, 1))],
                         ids=["equal", "larger-a", "larger-b", "lines"])
def test_subspace_angles(a_shape, b_shape, dtype, rand):
    check(sla.subspace_angles, rand(a_shape, dtype), rand(b_shape, dtype))


def test_subspace_angles_small_and_large_angles(rand):
    a = rand((5, 3))
    b = a @ rand((3, 2)) + 1e-3 * rand((5, 2))              # nearly inside range(a): small angles
    check(sla.subspace_angles, a, b)
    q = np.linalg.qr(rand((5, 5)))[0]
    check(sla.subspace_angles, q[:, :2] + 0.01 * rand((5, 2)), q[:, 2:4] + 0.01 * rand((5, 2)))   # near pi/2


def test_subspace_angles_forced_zero_angle(rand):
    """``rank A + rank B > m``: the ranges intersect, one angle stays 0 and its derivative is 0.

    (SciPy computes that angle as ``arccos`` of a cosine rounded near 1: noise of size
    ``sqrt(eps)``, which finite differences cannot resolve, so it is left out of their loss.)
    """
    a, b = rand((3, 2)), rand((3, 2))
    theta, pullback = rrule(sla.subspace_angles, a, b)
    assert theta[-1] < 1e-7
    test_rrule(sla.subspace_angles, a, b, output_tangent=np.array([1.0, 0.0]))
    da, db = (unthunk(c) for c in pullback(np.array([0.0, 1.0]))[1:])
    assert np.abs(da).max() < 1e-6 and np.abs(db).max() < 1e-6


def test_subspace_angles_repeated_angles_symmetric_loss():
    a = np.eye(4)[:, :2]
    b = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 0.0], [0.0, 1.0]])       # two angles of pi/4
    with degeneracy_tolerance(1e-6):
        test_rrule(sla.subspace_angles, a, b, output_tangent=np.array([1.0, 1.0]))


def test_subspace_angles_float32_and_stacks(rand):
    check(sla.subspace_angles, rand((4, 2), np.float32), rand((4, 2), np.float32))
    check(sla.subspace_angles, rand((2, 4, 2)), rand((4, 1)))


def test_subspace_angles_cotangent_kinds(rand):
    a, b = rand((4, 2)), rand((4, 2))
    _, pullback = rrule(sla.subspace_angles, a, b)
    _, da, db = pullback(np.ones(2))
    assert isinstance(da, Thunk) and isinstance(db, Thunk)
    assert pullback(ZeroTangent())[1:] == (ZeroTangent(), ZeroTangent())
    with pytest.raises(ProjectionError, match="subspace_angles"):
        pullback(np.ones(3))
