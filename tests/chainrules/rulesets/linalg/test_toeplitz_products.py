"""Rules of chainrules/rulesets/linalg/toeplitz_products.py, checked against finite differences."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import scipy.linalg as sla

import chainrules  # registers the rules
import chainrules.rulesets.linalg.toeplitz_products  # noqa: F401
from chainrules import ProjectionError, Tangent, rrule, unthunk
from chainrules.rulesets.linalg.toeplitz_products import toeplitz_diagonal_correlation
from chainrules.testing import test_frule, test_rrule


def check(f: Any, *args: Any, **kwargs: Any) -> None:
    test_rrule(f, *args, **kwargs)
    test_frule(f, *args, **kwargs)


@pytest.mark.parametrize(("m", "n", "x_shape"), [(3, 3, (3,)), (4, 3, (3, 2)), (2, 4, (4, 1)), (3, 2, (2,))],
                         ids=["square-vector", "tall", "wide", "tall-vector"])
def test_matmul_toeplitz_c_and_r(m, n, x_shape, dtype, rand):
    check(sla.matmul_toeplitz, (rand((m,), dtype), rand((n,), dtype)), rand(x_shape, dtype))


@pytest.mark.parametrize("x_shape", [(3,), (3, 2)])
def test_matmul_toeplitz_hermitian(x_shape, dtype, rand):
    check(sla.matmul_toeplitz, rand((3,), dtype), rand(x_shape, dtype))


def test_matmul_toeplitz_optional_arguments(rand):
    cr, x = (rand((3,)), rand((3,))), rand((3, 2))
    check(sla.matmul_toeplitz, cr, x, True)
    check(sla.matmul_toeplitz, cr, x, fkwargs={"check_finite": True, "workers": 1})
    check(sla.matmul_toeplitz, cr, x, False, 1)


def test_matmul_toeplitz_mixed_dtypes(rand):
    check(sla.matmul_toeplitz, (rand((3,), np.float32), rand((2,))), rand((2,), np.complex128))
    check(sla.matmul_toeplitz, rand((3,), np.complex128), rand((3, 2), np.float32))


@pytest.mark.parametrize(("c_shape", "r_shape", "x_shape"), [((2, 3), (3,), (3,)), ((3,), (2, 4), (2, 4, 2)),
                                                             ((2, 3), (2, 3), (3, 1))],
                         ids=["batched-c", "batched-r-and-x", "batched-cr"])
def test_matmul_toeplitz_batched(c_shape, r_shape, x_shape, rand):
    check(sla.matmul_toeplitz, (rand(c_shape), rand(r_shape)), rand(x_shape))


def test_matmul_toeplitz_batched_hermitian(rand):
    check(sla.matmul_toeplitz, rand((2, 3), np.complex128), rand((3,), np.complex128))


def test_pullback_never_forms_the_dense_product(rand):
    g, x = rand((5, 2)), rand((4, 2))
    dense = g @ x.T
    expected = [np.trace(dense, offset=-d) for d in range(-3, 5)]    # i - j = d
    np.testing.assert_allclose(toeplitz_diagonal_correlation(g, x), expected, atol=1e-12)


def test_first_entry_of_r_is_not_read(rand):
    _, pullback = rrule(sla.matmul_toeplitz, (rand((3,)), rand((3,))), rand((3,)))
    d_cr = unthunk(pullback(rand((3,)))[1])
    assert isinstance(d_cr, Tangent) and d_cr[1][0] == 0


def test_cotangent_shape_is_checked(rand):
    _, pullback = rrule(sla.matmul_toeplitz, rand((3,)), rand((3,)))
    with pytest.raises(ProjectionError, match="matmul_toeplitz"):
        pullback(np.ones(2))


def test_primal_errors_pass_through(rand):
    with pytest.raises(ValueError, match="Incompatible dimensions"):
        rrule(sla.matmul_toeplitz, (rand((3,)), rand((2,))), rand((3,)))
