"""Rules of chainrules/rulesets/linalg/special_matrices.py, checked against finite differences."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import scipy.linalg as sla

from chainrules import NoTangent, NotImplementedTangent, ProjectionError, Tangent, ZeroTangent, rrule
from chainrules.testing import test_frule, test_rrule


def check(f: Any, *args: Any, **kwargs: Any) -> None:
    test_rrule(f, *args, **kwargs)
    test_frule(f, *args, **kwargs)


# ---- block_diag ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("shapes", [[(2, 2), (3,), (1, 3)], [(2, 2, 2), (3,)], [(), (2, 1)], [(2, 3)]],
                         ids=["mixed", "batched", "0-d", "one"])
def test_block_diag(shapes, dtype, rand):
    check(sla.block_diag, *(rand(s, dtype) for s in shapes))


def test_block_diag_mixed_dtypes_and_scalars(rand):
    check(sla.block_diag, rand((2, 2), np.float32), 1.5, rand((1, 2), np.complex128))
    _, pullback = rrule(sla.block_diag, rand((2, 2)), np.arange(2))
    assert pullback(np.ones((3, 4)))[2] == NoTangent()


def test_block_diag_no_arguments():
    y, pullback = rrule(sla.block_diag)
    assert y.shape == (1, 0) and pullback(np.zeros((1, 0))) == (NoTangent(),)


# ---- toeplitz, circulant, hankel ---------------------------------------------------------------------------------
@pytest.mark.parametrize(("c_shape", "r_shape"), [((3,), None), ((3,), (4,)), ((2, 3), (4,)), ((4,), (2, 2))],
                         ids=["hermitian", "c-r", "batched-c", "batched-r"])
def test_toeplitz(c_shape, r_shape, dtype, rand):
    args = [rand(c_shape, dtype)] + ([] if r_shape is None else [rand(r_shape, dtype)])
    check(sla.toeplitz, *args)


def test_toeplitz_keyword_r(rand):
    check(sla.toeplitz, rand((3,), np.complex128), fkwargs={"r": rand((2,), np.complex128)})


def test_toeplitz_first_entry_of_r_is_not_read(rand):
    _, pullback = rrule(sla.toeplitz, rand((3,)), rand((4,)))
    assert pullback(np.ones((3, 4)))[2][0] == 0


@pytest.mark.parametrize("shape", [(4,), (2, 4), ()])
def test_circulant(shape, dtype, rand):
    check(sla.circulant, rand(shape, dtype))


@pytest.mark.parametrize(("c_shape", "r_shape"), [((3,), None), ((3,), (4,)), ((4,), (2,))],
                         ids=["c", "c-r", "short-r"])
def test_hankel(c_shape, r_shape, dtype, rand):
    args = [rand(c_shape, dtype)] + ([] if r_shape is None else [rand(r_shape, dtype)])
    check(sla.hankel, *args)


@pytest.mark.filterwarnings("ignore:Beginning in SciPy 1.19:FutureWarning")
def test_hankel_ravels_multidimensional_input(rand):
    check(sla.hankel, rand((2, 2)), rand((3,)))


# ---- khatri_rao ----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("a_shape", "b_shape"), [((2, 3), (4, 3)), ((2, 2, 3), (4, 3)), ((1, 2), (3, 2))],
                         ids=["plain", "batched", "one-row"])
def test_khatri_rao(a_shape, b_shape, dtype, rand):
    check(sla.khatri_rao, rand(a_shape, dtype), rand(b_shape, dtype))


def test_khatri_rao_errors_pass_through(rand):
    with pytest.raises(ValueError, match="columns"):
        rrule(sla.khatri_rao, rand((2, 3)), rand((2, 2)))


# ---- orthogonal_procrustes -----------------------------------------------------------------------------------------
@pytest.mark.parametrize(("a_shape", "b_shape"), [((4, 3), (4, 3)), ((3, 3), (3, 3)), ((2, 4, 3), (4, 3))],
                         ids=["tall", "square", "batched"])
def test_orthogonal_procrustes(a_shape, b_shape, dtype, rand):
    check(sla.orthogonal_procrustes, rand(a_shape, dtype), rand(b_shape, dtype))


def test_orthogonal_procrustes_one_output(rand):
    a, b = rand((4, 3)), rand((4, 3))
    test_rrule(sla.orthogonal_procrustes, a, b, output_tangent=Tangent(tuple, rand((3, 3)), ZeroTangent()))
    test_rrule(sla.orthogonal_procrustes, a, b, output_tangent=Tangent(tuple, ZeroTangent(), 0.7))


def test_orthogonal_procrustes_check_finite_spelling(rand):
    check(sla.orthogonal_procrustes, rand((4, 3)), rand((4, 3)), False)
    check(sla.orthogonal_procrustes, rand((4, 3)), rand((4, 3)), fkwargs={"check_finite": False})


def test_orthogonal_procrustes_singular_is_not_implemented(rand):
    a = rand((4, 3))
    b = np.zeros((4, 3))
    b[:, 0] = rand((4,))  # A^H B has rank one
    _, pullback = rrule(sla.orthogonal_procrustes, a, b)
    assert isinstance(pullback(Tangent(tuple, rand((3, 3)), 1.0))[1], NotImplementedTangent)


def test_cotangent_shape_is_checked(rand):
    _, pullback = rrule(sla.circulant, rand((3,)))
    with pytest.raises(ProjectionError, match="circulant"):
        pullback(np.ones((2, 2)))
