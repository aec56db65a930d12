"""The private helpers of chainrules/rulesets/linalg/_utils.py that several rule modules share."""

from __future__ import annotations

import numpy as np
import pytest

from chainrules import Tangent, ZeroTangent
from chainrules.rulesets.linalg._utils import (
    LU,
    from_triangle,
    linalg_dtype,
    output_parts,
    structure_cotangent,
    structured_matrix,
    triangle_cotangent,
)


def inner(a, b):
    return float(np.real(np.vdot(a, b)))


@pytest.mark.parametrize("trans", [0, 1, 2])
@pytest.mark.parametrize(("shape_a", "shape_b"), [((3, 3), (3, 2)), ((3, 3), (2, 3, 2)), ((2, 3, 3), (3, 1)),
                                                  ((2, 1, 3, 3), (4, 3, 2))])
def test_lu_solves_like_numpy(trans, shape_a, shape_b, dtype, matrix, rand):
    a, b = matrix(shape_a, dtype), rand(shape_b, dtype)
    op = {0: a, 1: np.swapaxes(a, -1, -2), 2: np.conj(np.swapaxes(a, -1, -2))}[trans]
    got = LU(a).solve(b, trans)
    np.testing.assert_allclose(got, np.linalg.solve(op, b), rtol=1e-4 if dtype == np.float32 else 1e-12)
    assert got.dtype == a.dtype


def test_lu_complex_right_hand_side_with_real_factors(matrix, rand):
    a, b = matrix((3, 3)), rand((3, 2), np.complex128)
    np.testing.assert_allclose(LU(a).solve(b, 2), np.linalg.solve(a.T, b), rtol=1e-12)


def test_lu_inverse_determinant_parts_and_singularity(matrix):
    a = matrix((2, 4, 4))
    f = LU(a)
    np.testing.assert_allclose(f.inverse(), np.linalg.inv(a), rtol=1e-12)
    np.testing.assert_allclose(f.permutation_sign() * np.prod(f.diagonal(), axis=-1), np.linalg.det(a), rtol=1e-12)
    assert not f.singular.any()
    assert LU(np.array([[1.0, 2.0], [2.0, 4.0]])).singular


@pytest.mark.parametrize("lower", [False, True])
@pytest.mark.parametrize("hermitian", [False, True])
def test_triangle_cotangent_is_the_adjoint_of_from_triangle(lower, hermitian, dtype, rand):
    """<g, from_triangle(d)> == <triangle_cotangent(g), d> in the real inner product."""
    g, d = rand((2, 4, 4), dtype), rand((2, 4, 4), dtype)
    lhs = inner(g, from_triangle(d, lower, hermitian))
    rhs = inner(triangle_cotangent(g, lower, hermitian), d)
    assert lhs == pytest.approx(rhs, rel=1e-5 if dtype == np.float32 else 1e-12)


@pytest.mark.parametrize("structure", ["general", "symmetric", "hermitian", "upper", "lower", "diagonal",
                                       "tridiagonal"])
def test_structure_cotangent_is_the_adjoint_of_structured_matrix(structure, dtype, rand):
    g, d = rand((4, 4), dtype), rand((4, 4), dtype)
    lhs = inner(g, structured_matrix(d, structure, True))
    rhs = inner(structure_cotangent(g, structure, True), d)
    assert lhs == pytest.approx(rhs, rel=1e-5 if dtype == np.float32 else 1e-12)


def test_linalg_dtype_mirrors_numpy():
    for dtypes in [(np.float32,), (np.float32, np.int64), (np.complex64, np.float32), (np.int8,), (np.bool_,),
                   (np.complex64, np.float64)]:
        arrays = [np.eye(2, dtype=t) for t in dtypes]
        numpy_result = np.linalg.solve(*arrays) if len(arrays) == 2 else np.linalg.inv(arrays[0])
        assert linalg_dtype(*arrays) == numpy_result.dtype
    assert linalg_dtype(np.ones(2, np.float16)) is None


def test_output_parts_reads_every_form():
    names = ("x", "rank")
    assert output_parts(ZeroTangent(), names, "f") == [None, None]
    assert output_parts((1.0, ZeroTangent()), names, "f") == [1.0, None]
    assert output_parts(Tangent(tuple, 2.0, 3), names, "f") == [2.0, 3]
    with pytest.raises(ValueError, match="f: got 3 parts, expected 2"):
        output_parts((1.0, 2.0, 3.0), names, "f")
    with pytest.raises(TypeError, match="f: expected a tuple"):
        output_parts(np.ones(2), names, "f")
