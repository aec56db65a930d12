"""Tests of chainrules/rulesets/linalg/ldl.py (scipy.linalg.ldl) against finite differences."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import scipy.linalg

from chainrules import NoTangent, Tangent, ZeroTangent, frule, rrule
from chainrules.rulesets.linalg._utils import mH, mT
from chainrules.testing import test_frule, test_rrule

# hetrf ignores the imaginary part of the diagonal; SciPy warns when the finite differences put one there
pytestmark = pytest.mark.filterwarnings("ignore::numpy.exceptions.ComplexWarning")


def indefinite(rand: Any, shape: Any, dtype: Any, hermitian: bool = True, seed_shift: float = 0.05) -> np.ndarray:
    """A symmetric (Hermitian) matrix with a small diagonal: Bunch-Kaufman takes 2x2 pivots."""
    a = rand(shape, dtype)
    a = a + (mH(a) if hermitian else mT(a))
    idx = np.arange(shape[-1])
    a[..., idx, idx] *= seed_shift
    return a


def blocks(a: np.ndarray, lower: bool, hermitian: bool) -> int:
    d = scipy.linalg.ldl(a, lower=lower, hermitian=hermitian)[1]
    return int(np.count_nonzero(np.diagonal(d, -1, axis1=-2, axis2=-1)))


@pytest.mark.parametrize("lower", [True, False])
@pytest.mark.parametrize("hermitian", [True, False])
def test_ldl_with_2x2_pivots(rand: Any, dtype: Any, lower: bool, hermitian: bool) -> None:
    a = indefinite(rand, (4, 4), dtype, hermitian)
    assert blocks(a, lower, hermitian) > 0  # the test covers 2x2 blocks
    test_rrule(scipy.linalg.ldl, a, lower, hermitian)
    test_frule(scipy.linalg.ldl, a, fkwargs={"lower": lower, "hermitian": hermitian})


@pytest.mark.parametrize("lower", [True, False])
def test_ldl_positive_definite(spd: Any, dtype: Any, lower: bool) -> None:
    """1x1 pivots only."""
    a = spd((3, 3), dtype)
    assert blocks(a, lower, True) == 0
    test_rrule(scipy.linalg.ldl, a, fkwargs={"lower": lower})
    test_frule(scipy.linalg.ldl, a, lower)


def test_ldl_stacked(rand: Any) -> None:
    a = indefinite(rand, (2, 4, 4), np.float64)
    test_rrule(scipy.linalg.ldl, a)
    test_frule(scipy.linalg.ldl, a)


def test_one_output_given(rand: Any) -> None:
    a = indefinite(rand, (4, 4), np.complex128)
    lu, d, _ = scipy.linalg.ldl(a)
    test_rrule(scipy.linalg.ldl, a, output_tangent=Tangent(tuple, ZeroTangent(), rand(d.shape, np.complex128),
                                                            NoTangent()))
    test_rrule(scipy.linalg.ldl, a, output_tangent=(rand(lu.shape, np.complex128), ZeroTangent(), NoTangent()))


def test_cotangent_on_the_triangle_read(rand: Any) -> None:
    a = indefinite(rand, (4, 4), np.float64)
    lu, d, _ = scipy.linalg.ldl(a, lower=False)
    da = rrule(scipy.linalg.ldl, a, lower=False)[1]((np.ones(lu.shape), np.ones(d.shape), NoTangent()))[1]
    assert not np.any(np.tril(da, -1))


def test_singular_matrix_raises() -> None:
    a = np.array([[1.0, 1.0, 0.0], [1.0, 1.0, 0.0], [0.0, 0.0, 1.0]])  # D has a zero pivot above a nonzero row
    y, pullback = rrule(scipy.linalg.ldl, a)
    if np.all(np.diagonal(y[1])):
        pytest.fail("the example is expected to give a zero pivot")
    with pytest.raises(np.linalg.LinAlgError, match="ldl"):
        pullback((np.ones((3, 3)), np.ones((3, 3)), NoTangent()))
    with pytest.raises(np.linalg.LinAlgError, match="ldl"):
        frule((NoTangent(), np.ones((3, 3))), scipy.linalg.ldl, a)


def test_integer_input() -> None:
    _, pullback = rrule(scipy.linalg.ldl, np.array([[2, 1], [1, 3]]))
    assert pullback((np.ones((2, 2)), np.ones((2, 2)), NoTangent()))[1] == NoTangent()
