"""``Diagonal``: storage, constructor checks, the O(n) operations."""

from __future__ import annotations

import numpy as np
import pytest

from chainrules import ProjectTo
from chainrules.structured import Diagonal


def test_stores_only_the_diagonal():
    d = np.array([1.0, 2.0, 3.0])
    D = Diagonal(d)
    assert D.d is d and D._arrays() == (d,)
    np.testing.assert_array_equal(np.asarray(D), np.diag(d))
    assert Diagonal([1, 2]).dtype == np.dtype(int)


@pytest.mark.parametrize("bad", [np.ones((2, 2)), np.float64(1.0)])
def test_rejects_non_vectors(bad):
    with pytest.raises(ValueError, match="Diagonal: d must be 1-dimensional"):
        Diagonal(bad)


def test_transpose_is_itself():
    D = Diagonal(np.ones(2))
    assert D.T is D


def test_operations_stay_diagonal():
    D, E = Diagonal(np.array([1.0, 2.0])), Diagonal(np.array([3.0, 4.0]))
    for result in (D @ E, D + E, D - E, 2 * D, np.linalg.inv(D), D.conj()):
        assert type(result) is Diagonal
    np.testing.assert_array_equal((D @ E).d, np.array([3.0, 8.0]))


def test_determinant_of_a_singular_diagonal_is_exact():
    assert np.linalg.det(Diagonal(np.array([2.0, 0.0, 3.0]))) == 0.0


def test_projector_reads_the_diagonal_only():
    """The cotangent of a Diagonal from a product: O(n) memory (checked in the benchmarks), right values."""
    project = ProjectTo(Diagonal(np.ones(3)))
    rng = np.random.default_rng(0)
    L, R = rng.standard_normal((3, 5)), rng.standard_normal((5, 3))
    np.testing.assert_allclose(project.product(L, R).d, np.diagonal(L @ R))
