"""``np.linalg.det``, ``slogdet``, ``inv`` and ``solve`` of structured matrices."""

from __future__ import annotations

import numpy as np
import pytest

from chainrules import Tangent, ZeroTangent, rrule, unthunk
from chainrules.structured import Bidiagonal, Diagonal, Hermitian, LowerTriangular, UpperTriangular
from chainrules.testing import test_frule, test_rrule
from chainrules.testing.structured import random_structured


@pytest.mark.parametrize("f", [np.linalg.det, np.linalg.slogdet, np.linalg.inv], ids=["det", "slogdet", "inv"])
def test_det_slogdet_inv(make, dtype, f, fdm):
    A = make(dtype)
    test_rrule(f, A, fdm=fdm)
    test_frule(f, A, fdm=fdm)


@pytest.mark.parametrize("shape", [(3,), (3, 2), (2, 3, 2)], ids=["vector", "matrix", "stack"])
def test_solve(make, rand, dtype, shape, fdm):
    A, b = make(dtype), rand(shape, dtype)
    test_rrule(np.linalg.solve, A, b, fdm=fdm)
    test_frule(np.linalg.solve, A, b, fdm=fdm)


def test_solve_with_a_structured_right_hand_side(make, fdm):
    A, B = make(), random_structured(Diagonal, 3, rng=4)
    test_rrule(np.linalg.solve, A, B, fdm=fdm)
    test_frule(np.linalg.solve, A, B, fdm=fdm)


@pytest.mark.parametrize("cls", [Diagonal, UpperTriangular, LowerTriangular, Bidiagonal])
def test_det_of_a_singular_matrix(cls, fdm):
    """The adjugate of a triangular-like matrix is computed without dividing: exact at a zero pivot."""
    A = random_structured(cls, 3, rng=0)
    arrays = [a.copy() for a in A._arrays()]
    if cls in (UpperTriangular, LowerTriangular):
        arrays[0][1, 1] = 0.0
    else:
        arrays[0][1] = 0.0
    singular = A._replace(*arrays)
    assert np.linalg.det(singular) == 0.0
    test_rrule(np.linalg.det, singular, fdm=fdm)
    test_frule(np.linalg.det, singular, fdm=fdm)


def test_slogdet_cotangent_forms(make, fdm):
    """The output cotangent as the namedtuple, a structural Tangent (one field given) or a plain tuple."""
    A = make(np.complex128)
    result = type(np.linalg.slogdet(A))
    test_rrule(np.linalg.slogdet, A, output_tangent=result(1.0 + 0.5j, 0.25), fdm=fdm)
    test_rrule(np.linalg.slogdet, A, output_tangent=Tangent(result, logabsdet=1.0), fdm=fdm)
    _, pullback = rrule(np.linalg.slogdet, A)
    assert pullback((1.0 + 0.5j, 0.25))[1] == pullback(result(1.0 + 0.5j, 0.25))[1]
    assert np.all(np.asarray(pullback((ZeroTangent(), ZeroTangent()))[1]) == 0)


def test_hermitian_slogdet_is_real(fdm):
    H = random_structured(Hermitian, 3, np.complex128, rng=2, shift=4.0)
    test_rrule(np.linalg.slogdet, H, fdm=fdm)
    test_frule(np.linalg.det, H, fdm=fdm)


def test_cotangent_types(make, rand):
    A = make()
    for f, args in ((np.linalg.det, (A,)), (np.linalg.inv, (A,)), (np.linalg.solve, (A, rand(3)))):
        _, pullback = rrule(f, *args)
        y = f(*args)
        dy = np.ones_like(np.asarray(y)) if not np.isscalar(y) else 1.0
        assert type(unthunk(pullback(dy)[1])) is type(A)


def test_solve_pullback_reuses_the_factorization(make, rand, monkeypatch):
    A = make()
    calls = []
    original = type(A)._factorize

    def counting(self):
        calls.append(1)
        return original(self)

    monkeypatch.setattr(type(A), "_factorize", counting)
    _, pullback = rrule(np.linalg.solve, A, rand(3))
    unthunk(pullback(rand(3))[1])
    assert len(calls) == 1
