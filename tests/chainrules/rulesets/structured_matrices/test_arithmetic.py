"""``+``, ``-``, scaling and negation of structured matrices."""

from __future__ import annotations

import operator

import numpy as np
import pytest

from chainrules import rrule, unthunk
from chainrules.structured import Diagonal, Hermitian, Tridiagonal, UpperTriangular
from chainrules.testing import test_frule, test_rrule
from chainrules.testing.structured import random_structured

OTHERS = {
    "same-type": None,
    "Diagonal": lambda dtype: random_structured(Diagonal, 3, dtype, rng=7),
    "UpperTriangular": lambda dtype: random_structured(UpperTriangular, 3, dtype, rng=8),
    "Tridiagonal": lambda dtype: random_structured(Tridiagonal, 3, dtype, rng=9),
    "matrix": lambda dtype: np.random.default_rng(1).standard_normal((3, 3)).astype(dtype),
    "row": lambda dtype: np.random.default_rng(2).standard_normal(3).astype(dtype),
    "stack": lambda dtype: np.random.default_rng(3).standard_normal((2, 3, 3)).astype(dtype),
    "number": lambda dtype: 1.5,
}


@pytest.mark.parametrize("other", list(OTHERS), ids=list(OTHERS))
def test_sums(make, other, fdm):
    A = make()
    B = make(seed=5) if OTHERS[other] is None else OTHERS[other](np.float64)
    for f in (operator.add, operator.sub):
        test_rrule(f, A, B, fdm=fdm)
        test_rrule(f, B, A, fdm=fdm)
    test_frule(operator.add, A, B, fdm=fdm)
    test_frule(operator.sub, B, A, fdm=fdm)


@pytest.mark.parametrize("dtype", [np.float32, np.complex128], ids=["float32", "complex128"])
@pytest.mark.parametrize("other", ["same-type", "Diagonal", "matrix", "number"])
def test_sums_at_other_precisions(make, dtype, other, fdm):
    A = make(dtype)
    B = make(dtype, seed=5) if OTHERS[other] is None else OTHERS[other](dtype)
    test_rrule(operator.sub, A, B, fdm=fdm)
    test_frule(operator.add, B, A, fdm=fdm)


def test_scaling(make, dtype, fdm):
    A = make(dtype)
    c = np.float32(3.0) if dtype == np.float32 else 2.5
    for f, args in ((operator.mul, (A, c)), (operator.mul, (c, A)), (operator.truediv, (A, c))):
        test_rrule(f, *args, fdm=fdm)
        test_frule(f, *args, fdm=fdm)
    if dtype == np.float64:
        test_rrule(operator.mul, np.array(-0.5), A, fdm=fdm)  # a 0-d array scales too


def test_complex_scaling(make, fdm):
    """A real matrix times a complex number: complex output, real cotangent for the matrix."""
    A = make()
    test_rrule(operator.mul, 1.0 - 2.0j, A, fdm=fdm)
    test_frule(operator.mul, A, 0.5 + 1.0j, fdm=fdm)
    test_rrule(operator.truediv, make(np.complex128), 2.0 + 1.0j, fdm=fdm)


def test_elementwise_product_with_an_array(make, rand, fdm):
    A = make()
    M = 2.0 + np.abs(rand((3, 3)))  # away from zero: A / M
    for f in (operator.mul, operator.truediv):
        test_rrule(f, A, M, fdm=fdm)
        test_frule(f, A, M, fdm=fdm)
    test_rrule(operator.mul, rand((2, 3, 3)), A, fdm=fdm)


def test_negation(make, dtype, fdm):
    test_rrule(operator.neg, make(dtype), fdm=fdm)
    test_frule(operator.neg, make(dtype), fdm=fdm)


def test_hermitian_times_complex_gives_dense_output_and_hermitian_cotangent(fdm):
    H = random_structured(Hermitian, 3, np.complex128, rng=0)
    y, pullback = rrule(operator.mul, 2.0 - 1.0j, H)
    assert type(y) is np.ndarray
    assert type(unthunk(pullback(np.ones((3, 3)))[2])) is Hermitian
    test_rrule(operator.mul, 2.0 - 1.0j, H, fdm=fdm)


def test_scaling_cotangent_reads_only_the_band():
    """``dc`` of ``c * D`` is ``sum(conj(D) * dY)`` over the diagonal only: O(n)."""
    D = Diagonal(np.arange(1.0, 4.0))
    _, pullback = rrule(operator.mul, 2.0, D)
    dY = np.full((3, 3), 1.0)
    assert unthunk(pullback(dY)[1]) == 6.0
