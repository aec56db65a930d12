"""``Symmetric``: one triangle read (``lower``), complex symmetric (not Hermitian)."""

from __future__ import annotations

import numpy as np
import pytest

from chainrules.structured import Symmetric


@pytest.mark.parametrize("lower", [False, True])
def test_reads_one_triangle(lower):
    data = np.arange(1.0, 10.0).reshape(3, 3)
    S = Symmetric(data, lower)
    dense = np.asarray(S)
    np.testing.assert_array_equal(dense, dense.T)
    triangle = np.tril(data) if lower else np.triu(data)
    np.testing.assert_array_equal(np.tril(dense) if lower else np.triu(dense), triangle)
    assert S.lower is lower and S.T is S
    assert ("lower=True" in repr(S)) is lower


def test_upper_and_lower_storage_of_one_matrix_are_equal():
    data = np.array([[1.0, 2.0], [2.0, 3.0]])
    assert Symmetric(data) == Symmetric(data, lower=True)


def test_complex_symmetric_is_not_conjugated():
    S = Symmetric(np.array([[1.0, 2.0 + 1j], [0.0, 3.0]]))
    dense = np.asarray(S)
    np.testing.assert_array_equal(dense, dense.T)
    assert dense[1, 0] == 2.0 + 1j


def test_inverse_is_symmetric():
    S = Symmetric(np.array([[2.0, 1.0], [0.0, 3.0]]), lower=False)
    inverse = np.linalg.inv(S)
    assert type(inverse) is Symmetric
    np.testing.assert_allclose(np.asarray(inverse), np.linalg.inv(np.asarray(S)))
