"""``np.diag``, ``np.diagflat``, ``np.triu`` and ``np.tril`` on ndarrays (and triu/tril on structured matrices)."""

from __future__ import annotations

import numpy as np
import pytest

from chainrules import InplaceableThunk, add_, rrule
from chainrules.testing import test_frule, test_rrule


@pytest.mark.parametrize("k", [0, 1, -2])
def test_diag(rand, dtype, k):
    for v in (rand(3, dtype), rand((3, 4), dtype), rand((4, 3), dtype)):
        test_rrule(np.diag, v, k)
        test_frule(np.diag, v, k)
    test_rrule(np.diag, rand((3, 3), dtype), fkwargs={"k": k})


def test_diag_of_a_matrix_accumulates_in_place(rand):
    A = rand((4, 4))
    _, pullback = rrule(np.diag, A, 1)
    dA = pullback(np.array([1.0, 2.0, 3.0]))[1]
    assert isinstance(dA, InplaceableThunk)
    acc = np.zeros((4, 4))
    assert add_(acc, dA) is acc
    np.testing.assert_array_equal(acc, np.diag([1.0, 2.0, 3.0], 1))


def test_diag_of_integers_has_no_tangent():
    _, pullback = rrule(np.diag, np.arange(9).reshape(3, 3))
    from chainrules import NoTangent
    assert pullback(np.ones(3))[1] is NoTangent()


@pytest.mark.parametrize("k", [0, 2, -1])
def test_diagflat(rand, dtype, k):
    for v in (rand(3, dtype), rand((2, 2), dtype)):
        test_rrule(np.diagflat, v, k)
        test_frule(np.diagflat, v, fkwargs={"k": k})


@pytest.mark.parametrize("f", [np.triu, np.tril])
@pytest.mark.parametrize("k", [0, 1, -1])
def test_triangles(rand, dtype, f, k):
    for m in (rand((3, 4), dtype), rand((2, 3, 3), dtype), rand(3, dtype)):
        test_rrule(f, m, k)
        test_frule(f, m, k)
    test_rrule(f, rand((3, 3), dtype), fkwargs={"k": k})


@pytest.mark.parametrize("f", [np.triu, np.tril])
def test_triangles_of_structured_matrices(make, f):
    A = make()
    test_rrule(f, A)
    test_rrule(f, A, 1)
    test_frule(f, A, -1)
