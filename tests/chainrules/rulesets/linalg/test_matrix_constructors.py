"""Rules of chainrules/rulesets/linalg/matrix_constructors.py, checked against finite differences."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import scipy.linalg as sla

import chainrules  # registers the rules
import chainrules.rulesets.linalg.matrix_constructors  # noqa: F401
from chainrules import NoTangent, ProjectionError, ZeroTangent, frule, rrule
from chainrules.testing import PrimalAndTangent, test_frule, test_rrule

FIXED = NoTangent()


def check(f: Any, *args: Any, **kwargs: Any) -> None:
    test_rrule(f, *args, **kwargs)
    test_frule(f, *args, **kwargs)


def coefficients(rand, shape, dtype):
    a = rand(shape, dtype)
    a[..., 0] += 2  # a leading coefficient away from zero
    return a


# ---- companion, fiedler_companion ---------------------------------------------------------------------------------
@pytest.mark.parametrize("shape", [(2,), (4,), (2, 3)], ids=["n=2", "n=4", "batched"])
def test_companion(shape, dtype, rand):
    check(sla.companion, coefficients(rand, shape, dtype))


def test_companion_integer_coefficients():
    y, pullback = rrule(sla.companion, np.array([1, 2, 3]))
    assert y.dtype == np.float64 and pullback(np.ones((2, 2)))[1] is NoTangent()
    test_rrule(sla.companion, np.array([1, 2, 3]))


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 7])
def test_fiedler_companion(n, dtype, rand):
    check(sla.fiedler_companion, coefficients(rand, (n,), dtype))


def test_fiedler_companion_batched_and_degenerate(rand):
    check(sla.fiedler_companion, coefficients(rand, (2, 5), np.float64))
    y, pullback = rrule(sla.fiedler_companion, np.array([2.0]))     # an empty matrix
    assert y.size == 0 and np.array_equal(pullback(np.zeros(y.shape))[1], [0.0])


def test_fiedler_companion_has_the_companion_polynomial(rand):
    """The rule is of the right function: the eigenvalues are the polynomial's roots (a sanity check)."""
    a = coefficients(rand, (5,), np.float64)
    y, _ = rrule(sla.fiedler_companion, a)
    np.testing.assert_allclose(np.sort_complex(np.linalg.eigvals(y)), np.sort_complex(np.roots(a)), rtol=1e-8)


# ---- leslie ------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("f_shape", "s_shape"), [((3,), (2,)), ((2,), (1,)), ((3,), (2, 2)), ((2, 4), (3,))],
                         ids=["n=3", "n=2", "batched-s", "batched-f"])
def test_leslie(f_shape, s_shape, dtype, rand):
    check(sla.leslie, rand(f_shape, dtype), rand(s_shape, dtype))


def test_leslie_mixed_and_integer(rand):
    check(sla.leslie, rand((3,), np.float32), rand((2,)))
    test_rrule(sla.leslie, np.array([1, 2, 3]), rand((2,)))
    _, pullback = rrule(sla.leslie, np.array([1, 2, 3]), np.array([1, 2]))
    assert pullback(np.ones((3, 3)))[1:] == (NoTangent(), NoTangent())


# ---- convolution_matrix ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("mode", ["full", "same", "valid"])
@pytest.mark.parametrize(("m", "n"), [(3, 5), (5, 3), (4, 4), (1, 3)])
def test_convolution_matrix(mode, m, n, dtype, rand):
    check(sla.convolution_matrix, rand((m,), dtype), n, mode)


def test_convolution_matrix_spellings_and_batches(rand):
    a = rand((4,))
    check(sla.convolution_matrix, a, 3, fkwargs={"mode": "same"})
    check(sla.convolution_matrix, a, np.int64(3))
    check(sla.convolution_matrix, rand((2, 3)), 4, "valid")


# ---- diagsvd -----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("k", "m", "n"), [(2, 2, 3), (2, 4, 2), (3, 3, 3)])
def test_diagsvd(k, m, n, dtype, rand):
    check(sla.diagsvd, rand((k,), dtype), m, n)


def test_diagsvd_batched(rand):
    check(sla.diagsvd, rand((2, 3)), 3, 4)
    check(sla.diagsvd, rand((3,)), np.int64(4), 3)


# ---- fiedler -----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("shape", [(4,), (2, 3), (1,)], ids=["vector", "batched", "one"])
def test_fiedler(shape, dtype, rand):
    check(sla.fiedler, rand(shape, dtype))


def test_fiedler_ties_get_the_symmetric_subgradient():
    a = np.array([1.0, 3.0, 3.0, -2.0])           # a_1 == a_2
    check(sla.fiedler, a)                          # central differences agree with sgn(0) = 0 here
    _, pullback = rrule(sla.fiedler, a)
    g = np.zeros((4, 4))
    g[1, 2] = 1.0                                  # |a_1 - a_2| at its kink
    assert np.array_equal(pullback(g)[1], np.zeros(4))


def test_fiedler_integer_input_is_not_differentiated():
    y, pullback = rrule(sla.fiedler, np.array([1, 4, 2]))
    assert y.dtype.kind == "i" and pullback(np.ones((3, 3)))[1] is NoTangent()
    assert frule((NoTangent(), NoTangent()), sla.fiedler, np.array([1, 4, 2]))[1] in (NoTangent(), ZeroTangent())


# ---- contract ----------------------------------------------------------------------------------------------------
def test_cotangent_shape_is_checked(rand):
    _, pullback = rrule(sla.companion, coefficients(rand, (3,), np.float64))
    with pytest.raises(ProjectionError, match="companion"):
        pullback(np.ones((3, 3)))


def test_primal_errors_pass_through():
    with pytest.raises(ValueError, match="must not be zero"):
        rrule(sla.companion, np.array([0.0, 1.0, 2.0]))
    with pytest.raises(ValueError, match="mode"):
        rrule(sla.convolution_matrix, np.ones(2), 2, "wrap")


def test_fixed_integer_arguments(rand):
    test_rrule(sla.diagsvd, rand((2,)), PrimalAndTangent(2, FIXED), PrimalAndTangent(3, FIXED))
