"""``scipy.sparse.linalg.expm_multiply`` and ``expm``: the block-triangular Fréchet derivative against finite
differences, and ``inv``."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.linalg
import scipy.sparse as sp
import scipy.sparse.linalg as spla

from chainrules import NotImplementedTangent, frule, rrule, unthunk
from chainrules.testing import test_frule, test_rrule
from chainrules.testing.structured import random_sparse


@pytest.mark.parametrize("dtype", [np.float64, np.complex128, np.float32], ids=["float64", "complex128", "float32"])
def test_expm_multiply(dtype, rand):
    A = random_sparse("csc", (4, 4), dtype, rng=1)
    rtol = 1e-3 if dtype == np.float32 else None
    test_rrule(spla.expm_multiply, A, rand(4, dtype), rtol=rtol)
    test_frule(spla.expm_multiply, A, rand((4, 2), dtype), rtol=rtol)


def test_expm_multiply_pullback_matches_the_dense_frechet_derivative(rand):
    """dA = L(A^H, dY B^H) at A's stored entries, against scipy.linalg.expm_frechet of the dense matrix."""
    A = random_sparse("csr", (70, 70), rng=2, density=0.05)   # more than one chunk of 64 columns
    B, Ybar = rand((70, 2)), rand((70, 2))
    _, pullback = rrule(spla.expm_multiply, A, B)
    _, dA, dB = (unthunk(d) for d in pullback(Ybar))
    Ad = A.toarray()
    expected = scipy.linalg.expm_frechet(Ad.T, Ybar @ B.T, compute_expm=False)
    assert type(dA) is sp.csr_array and dA.nnz == A.nnz
    np.testing.assert_allclose(dA.toarray(), np.where(Ad != 0, expected, 0.0), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(dB, scipy.linalg.expm(Ad.T) @ Ybar, rtol=1e-10)


def test_expm_multiply_time_grid(rand, fdm):
    A, B = random_sparse("csc", (3, 3), rng=3), rand(3)
    test_frule(spla.expm_multiply, A, B, fkwargs={"start": 0.0, "stop": 1.0, "num": 3, "endpoint": True}, fdm=fdm)
    y, pullback = rrule(spla.expm_multiply, A, B, start=0.0, stop=1.0, num=3, endpoint=True)
    assert isinstance(pullback(np.ones(y.shape))[1], NotImplementedTangent)


@pytest.mark.parametrize("dtype", [np.float64, np.complex128], ids=["float64", "complex128"])
def test_expm(dtype, fdm):
    A = random_sparse("csc", (3, 3), dtype, rng=4)
    test_rrule(spla.expm, A, fdm=fdm)
    test_frule(spla.expm, A, fdm=fdm)
    test_rrule(spla.expm, 3.0 * A, fdm=fdm)   # a larger norm: scaling and squaring


@pytest.mark.parametrize("dtype", [np.float64, np.complex128], ids=["float64", "complex128"])
def test_inv(dtype):
    A = (random_sparse("coo", (4, 4), dtype, rng=5) + 3.0 * sp.eye_array(4)).tocsc()
    test_rrule(spla.inv, A)
    test_frule(spla.inv, A)
    _, dy = frule((None, A), spla.inv, A)
    assert sp.issparse(dy)


@pytest.mark.parametrize("power", [0, 1, 2, 3])
def test_matrix_power(power, fdm):
    A = random_sparse("csr", (4, 4), np.complex128, rng=6)
    test_rrule(spla.matrix_power, A, power, fdm=fdm)
    test_frule(spla.matrix_power, A, np.int64(power), fdm=fdm)
