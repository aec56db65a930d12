"""``Hermitian``: one triangle read, the other its conjugate, a real diagonal."""

from __future__ import annotations

import numpy as np
import pytest

from chainrules import ProjectTo
from chainrules.structured import Hermitian, Symmetric


@pytest.mark.parametrize("lower", [False, True])
def test_dense_form_is_hermitian_with_real_diagonal(lower):
    data = np.array([[1.0 + 7j, 2.0 + 1j], [5.0 - 1j, 3.0 - 2j]])
    H = Hermitian(data, lower)
    dense = np.asarray(H)
    np.testing.assert_array_equal(dense, dense.conj().T)
    np.testing.assert_array_equal(np.diagonal(dense), [1.0, 3.0])
    assert dense[0, 1] == (2.0 + 1j if not lower else 5.0 + 1j)


def test_transpose_is_the_conjugate():
    H = Hermitian(np.array([[1.0, 2.0 + 1j], [0.0, 3.0]]))
    assert type(H.T) is Hermitian
    np.testing.assert_array_equal(np.asarray(H.T), np.asarray(H).conj())


def test_real_hermitian_is_symmetric():
    data = np.array([[1.0, 2.0], [0.0, 3.0]])
    assert Hermitian(data) == Symmetric(data)
    assert type(Hermitian(data) + Symmetric(data)) is Hermitian


def test_projection_of_a_complex_cotangent_has_a_real_diagonal():
    H = Hermitian(np.eye(2, dtype=complex))
    P = np.asarray(ProjectTo(H)(np.array([[1j, 2.0], [0.0, 1.0 + 3j]])))
    assert np.all(np.diagonal(P).imag == 0)


def test_determinant_is_real_valued():
    H = Hermitian(np.array([[2.0, 1j], [0.0, 3.0]]))
    assert abs(np.linalg.det(H).imag) < 1e-12
    assert type(np.linalg.inv(H)) is Hermitian
