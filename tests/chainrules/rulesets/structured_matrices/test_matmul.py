"""``A @ B`` and ``np.matmul(A, B)`` with structured factors, in every combination with ndarrays."""

from __future__ import annotations

import operator

import numpy as np
import pytest

from chainrules import Tangent, rrule, unthunk
from chainrules.structured import Diagonal, StructuredMatrix
from chainrules.testing import test_frule, test_rrule
from chainrules.testing.structured import STRUCTURED_KINDS, random_structured

SHAPES = [(3,), (3, 2), (2, 3, 2)]


@pytest.mark.parametrize("shape", SHAPES, ids=["vector", "matrix", "stack"])
def test_structured_times_array(make, rand, dtype, shape, fdm):
    A, B = make(dtype), rand(shape, dtype)
    test_rrule(operator.matmul, A, B, fdm=fdm)
    test_frule(np.matmul, A, B, fdm=fdm)


@pytest.mark.parametrize("shape", SHAPES, ids=["vector", "matrix", "stack"])
def test_array_times_structured(make, rand, dtype, shape, fdm):
    A, B = make(dtype), rand(shape[::-1] if len(shape) < 3 else (2, 2, 3), dtype)
    test_rrule(np.matmul, B, A, fdm=fdm)
    test_frule(operator.matmul, B, A, fdm=fdm)


def test_structured_times_structured(make, dtype, fdm):
    """Every left factor against every type of right factor (real), and against a sample at each dtype."""
    A = make(dtype)
    others = STRUCTURED_KINDS[::2] if dtype == np.float64 else STRUCTURED_KINDS[1::4]
    for i, (cls, lower) in enumerate(others):
        B = random_structured(cls, 3, dtype, rng=10 + i, lower=lower)
        test_rrule(operator.matmul, A, B, check_thunked_output_tangent=False, fdm=fdm)
        test_frule(np.matmul, A, B, fdm=fdm)


def test_structured_cotangent_is_structured(make, rand):
    A = make()
    _, pullback = rrule(np.matmul, A, rand((3, 4)))
    assert type(unthunk(pullback(rand((3, 4)))[1])) is type(A)


def test_structured_output_accepts_dense_and_structural_cotangents(rand, fdm):
    D, E = random_structured(Diagonal, 3, rng=1), random_structured(Diagonal, 3, rng=2)
    test_rrule(operator.matmul, D, E, output_tangent=rand((3, 3)), fdm=fdm)
    test_rrule(operator.matmul, D, E, output_tangent=Tangent(Diagonal, d=rand(3)), fdm=fdm)


def test_keywords_are_rejected(make, rand):
    from chainrules import UnsupportedKeywordError
    with pytest.raises(UnsupportedKeywordError):
        rrule(np.matmul, make(), rand((3, 3)), out=np.empty((3, 3)))


def test_wrong_output_cotangent_shape_names_the_pullback(make, rand):
    from chainrules import ProjectionError
    _, pullback = rrule(np.matmul, make(), rand((3, 2)))
    with pytest.raises(ProjectionError, match=r"numpy\.matmul pullback: output cotangent has shape \(2, 2\), "
                                              r"expected shape \(3, 2\)"):
        pullback(rand((2, 2)))
    with pytest.raises(ProjectionError, match=r"numpy\.matmul pullback: output cotangent is a NoneType"):
        pullback(None)


def test_diagonal_pullback_never_forms_the_dense_product():
    """``dA`` of ``Diagonal @ B`` reads only ``diag(dY @ B^H)`` (one pass over ``dY`` and ``B``; the
    timings and the O(n) memory are measured in ``benchmarks/test_structured.py``)."""
    n = 1000
    rng = np.random.default_rng(0)
    D, B = Diagonal(rng.standard_normal(n)), rng.standard_normal((n, n))
    _, pullback = rrule(operator.matmul, D, B)
    dY = rng.standard_normal((n, n))
    dD = unthunk(pullback(dY)[1])
    assert isinstance(dD, StructuredMatrix) and dD.d.shape == (n,)
    np.testing.assert_allclose(dD.d[:5], np.einsum("ij,ij->i", dY[:5], B[:5]))
