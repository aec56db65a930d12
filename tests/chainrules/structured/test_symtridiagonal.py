"""``SymTridiagonal``: a diagonal and one off-diagonal standing for two."""

from __future__ import annotations

import numpy as np
import pytest

from chainrules import ProjectTo
from chainrules.structured import Symmetric, SymTridiagonal


def test_dense_form_is_symmetric():
    S = SymTridiagonal(np.array([1.0, 2.0, 3.0]), np.array([4.0, 5.0]))
    dense = np.asarray(S)
    np.testing.assert_array_equal(dense, dense.T)
    np.testing.assert_array_equal(np.diagonal(dense, 1), [4.0, 5.0])
    assert S.T is S


def test_rejects_bad_lengths():
    with pytest.raises(ValueError, match="SymTridiagonal: ev must have length 2"):
        SymTridiagonal(np.ones(3), np.ones(1))


def test_inverse_is_symmetric():
    S = SymTridiagonal(np.array([2.0, 2.0, 2.0]), np.array([1.0, 1.0]))
    assert type(np.linalg.inv(S)) is Symmetric


def test_projection_is_symmetric():
    S = SymTridiagonal(np.ones(3), np.ones(2))
    G = np.random.default_rng(0).standard_normal((3, 3))
    P = np.asarray(ProjectTo(S)(G))
    np.testing.assert_allclose(P, P.T)
