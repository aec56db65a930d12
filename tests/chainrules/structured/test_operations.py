"""``@``, ``+``, ``-`` and scaling: values equal the dense operations, and the structure is kept exactly
where the result has it (judged from the types, never from the values)."""

from __future__ import annotations

import numpy as np
import pytest

from chainrules.structured import (
    Bidiagonal,
    Diagonal,
    Hermitian,
    LowerTriangular,
    StructuredMatrix,
    Symmetric,
    SymTridiagonal,
    Tridiagonal,
    UpperTriangular,
)
from chainrules.structured.operations import from_bands
from chainrules.testing.structured import STRUCTURED_KINDS, kind_name, random_structured


def _all(dtype=np.float64, n=3):
    return [random_structured(cls, n, dtype, rng=i, lower=lower) for i, (cls, lower) in enumerate(STRUCTURED_KINDS)]


@pytest.mark.parametrize("shape", [(3,), (3, 2), (2, 3, 2)])
def test_matmul_with_arrays_matches_dense(make, rand, shape):
    A = make(np.complex128)
    dense = np.asarray(A)
    B = rand(shape, np.complex128)
    np.testing.assert_allclose(A @ B, dense @ B)
    np.testing.assert_allclose(np.matmul(A, B), dense @ B)
    left = np.swapaxes(B, -1, -2) if B.ndim > 1 else B
    np.testing.assert_allclose(left @ A, left @ dense)


def test_matmul_keeps_precision(make, rand):
    A = make(np.float32)
    assert (A @ rand((3, 2), np.float32)).dtype == np.float32
    assert (rand(3, np.float32) @ A).dtype == np.float32


def test_matmul_shape_mismatch_raises(make, rand):
    A = make()
    with pytest.raises(ValueError):
        A @ rand((4, 2))
    with pytest.raises(ValueError):
        rand((2, 4)) @ A
    with pytest.raises(ValueError):
        A @ Diagonal(np.ones(4))


def test_products_between_types_match_dense():
    mats = _all(np.complex128)
    for A in mats:
        for B in mats:
            product = A @ B
            np.testing.assert_allclose(np.asarray(product), np.asarray(A) @ np.asarray(B), atol=1e-12)


_PRODUCT_TYPES = [
    (Diagonal, Diagonal, Diagonal), (Diagonal, UpperTriangular, UpperTriangular),
    (LowerTriangular, Diagonal, LowerTriangular), (Diagonal, Bidiagonal, Bidiagonal),
    (Diagonal, Tridiagonal, Tridiagonal), (Diagonal, SymTridiagonal, Tridiagonal),
    (UpperTriangular, UpperTriangular, UpperTriangular), (LowerTriangular, LowerTriangular, LowerTriangular),
    (Bidiagonal, Bidiagonal, UpperTriangular), (Bidiagonal, UpperTriangular, UpperTriangular),
    (Diagonal, Symmetric, np.ndarray), (UpperTriangular, LowerTriangular, np.ndarray),
    (Tridiagonal, Tridiagonal, np.ndarray), (Symmetric, Hermitian, np.ndarray),
]


@pytest.mark.parametrize(("left", "right", "expected"), _PRODUCT_TYPES,
                         ids=[f"{a.__name__}@{b.__name__}" for a, b, _ in _PRODUCT_TYPES])
@pytest.mark.parametrize("n", [1, 2, 4])
def test_product_types_depend_on_types_only(left, right, expected, n):
    A, B = random_structured(left, n, rng=1), random_structured(right, n, rng=2)
    assert type(A @ B) is expected


def test_lower_times_upper_bidiagonal_is_tridiagonal():
    L, U = random_structured(Bidiagonal, 4, rng=1, lower=True), random_structured(Bidiagonal, 4, rng=2)
    assert type(L @ U) is Tridiagonal
    np.testing.assert_allclose(np.asarray(L @ U), np.asarray(L) @ np.asarray(U))


def test_sums_match_dense():
    mats = _all(np.complex128)
    for A in mats:
        for B in mats:
            np.testing.assert_allclose(np.asarray(A + B), np.asarray(A) + np.asarray(B))
            np.testing.assert_allclose(np.asarray(A - B), np.asarray(A) - np.asarray(B))


_SUM_TYPES = [
    (Diagonal, Diagonal, Diagonal), (Diagonal, UpperTriangular, UpperTriangular),
    (Diagonal, Symmetric, Symmetric), (Diagonal, SymTridiagonal, SymTridiagonal),
    (Diagonal, Bidiagonal, Bidiagonal), (Bidiagonal, Tridiagonal, Tridiagonal),
    (Tridiagonal, SymTridiagonal, Tridiagonal), (Symmetric, Hermitian, Hermitian),
    (Bidiagonal, UpperTriangular, UpperTriangular), (UpperTriangular, LowerTriangular, np.ndarray),
    (Symmetric, UpperTriangular, np.ndarray),
]


@pytest.mark.parametrize(("left", "right", "expected"), _SUM_TYPES,
                         ids=[f"{a.__name__}+{b.__name__}" for a, b, _ in _SUM_TYPES])
def test_sum_types(left, right, expected):
    A, B = random_structured(left, 3, rng=1), random_structured(right, 3, rng=2)
    assert type(A + B) is expected
    assert type(B - A) is expected


def test_upper_plus_lower_bidiagonal_is_tridiagonal():
    U, L = random_structured(Bidiagonal, 3, rng=1), random_structured(Bidiagonal, 3, rng=2, lower=True)
    assert type(U + L) is Tridiagonal


def test_same_type_operations_keep_the_type(make):
    A, B = make(seed=1), make(seed=2)
    for result in (A + B, A - B, -A, 2.0 * A, A * 2.0, A / 4.0, +A):
        assert type(result) is type(A)
    np.testing.assert_allclose(np.asarray(A / 4.0), np.asarray(A) / 4.0)
    np.testing.assert_allclose(np.asarray(np.negative(A)), -np.asarray(A))
    np.testing.assert_allclose(np.asarray(np.multiply(3.0, A)), 3.0 * np.asarray(A))


def test_leaving_the_structure_gives_ndarrays(make, rand):
    A = make()
    dense = np.asarray(A)
    M = rand((3, 3))
    for result, expected in ((A + M, dense + M), (M - A, M - dense), (A + 1.0, dense + 1.0),
                             (A * M, dense * M), (A / M, dense / M), (np.add(M, A), M + dense)):
        assert type(result) is np.ndarray
        np.testing.assert_allclose(result, expected)


def test_scaling_keeps_float32(make):
    A = make(np.float32)
    assert (2.0 * A).dtype == np.float32 and (A / 3).dtype == np.float32


def test_hermitian_times_complex_is_dense():
    H = random_structured(Hermitian, 3, np.complex128, rng=0)
    assert type(2.0 * H) is Hermitian
    scaled = 1j * H
    assert type(scaled) is np.ndarray
    np.testing.assert_allclose(scaled, 1j * np.asarray(H))


def test_scalar_matmul_raises(make):
    with pytest.raises(ValueError, match="dimensions"):
        make() @ 2.0


_BANDED_KINDS = [k for k in STRUCTURED_KINDS if k[0] in (Diagonal, Bidiagonal, Tridiagonal, SymTridiagonal)]


@pytest.mark.parametrize("kind", _BANDED_KINDS, ids=kind_name)
def test_from_bands_round_trip(kind):
    cls, lower = kind
    A = random_structured(cls, 4, rng=3, lower=lower)
    B = from_bands(A._bands(), 4, A._is_symmetric())
    assert type(B) is cls and B == A
    assert isinstance(B, StructuredMatrix)
