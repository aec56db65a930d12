"""The private helpers of chainrules/rulesets/linalg/_utils.py that several rule modules share."""

from __future__ import annotations

import numpy as np
import pytest

from chainrules import NoTangent, ProjectionError, Tangent, ZeroTangent, not_implemented
from chainrules.rulesets.linalg._utils import (
    LU,
    cotangent_parts,
    from_triangle,
    linalg_dtype,
    structure_cotangent,
    structured_matrix,
    tangent_parts,
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


def test_tangent_parts_reads_every_form():
    """The frule side: the tangent of a tuple argument (``lu_solve``'s ``(lu, piv)``)."""
    names = ("lu", "piv")
    assert tangent_parts(ZeroTangent(), names, "f") == [None, None]
    assert tangent_parts((1.0, ZeroTangent()), names, "f") == [1.0, None]
    assert tangent_parts(Tangent(tuple, 2.0, 3), names, "f") == [2.0, 3]
    with pytest.raises(ValueError, match="f: got 3 parts, expected 2"):
        tangent_parts((1.0, 2.0, 3.0), names, "f")
    with pytest.raises(TypeError, match="f: expected a tuple"):
        tangent_parts(np.ones(2), names, "f")


def test_cotangent_parts_reads_through_the_core():
    """Output cotangents: one entry per output, ``None`` for zeros, the core's errors (naming the function)."""
    y = (np.zeros(2), np.int64(3))
    assert cotangent_parts(ZeroTangent(), y, "scipy.linalg.f") == [None, None]
    parts = cotangent_parts((np.ones(2), NoTangent()), y, "scipy.linalg.f")
    assert parts[1] is None and np.array_equal(parts[0], np.ones(2))
    missing = not_implemented("reason")
    assert cotangent_parts(missing, y, "scipy.linalg.f") == [missing, missing]
    with pytest.raises(ProjectionError, match=r"scipy\.linalg\.f pullback: output cotangent has 3 parts, expected 2"):
        cotangent_parts((1.0, 2.0, 3.0), y, "scipy.linalg.f")
    with pytest.raises(ProjectionError, match=r"scipy\.linalg\.f pullback: cotangent of output 0 has shape"):
        cotangent_parts((np.ones(3), NoTangent()), y, "scipy.linalg.f")
    with pytest.raises(ProjectionError, match=r"scipy\.linalg\.f pullback: output cotangent is a float"):
        cotangent_parts(1.0, y, "scipy.linalg.f")


def test_cotangent_parts_of_a_nested_output():
    """An output that is itself a tuple (``qr(mode='raw')``'s ``(qr, tau)``) is read part by part as well."""
    y = ((np.zeros((2, 2)), np.zeros(2)), np.zeros((2, 2)))
    parts = cotangent_parts(Tangent(tuple, Tangent(tuple, np.ones((2, 2)), ZeroTangent()), ZeroTangent()), y, "g")
    assert parts[1] is None and parts[0][1] is None and np.array_equal(parts[0][0], np.ones((2, 2)))
    assert cotangent_parts((ZeroTangent(), np.ones((2, 2))), y, "g")[0] is None
    with pytest.raises(ProjectionError, match="g pullback: cotangent of output 0 is a str"):
        cotangent_parts((("abc", np.zeros(2)), np.ones((2, 2))), y, "g")
