"""Rules of chainrules/rulesets/contractions/matrix_vector_products.py, checked against finite differences."""

from __future__ import annotations

import operator

import numpy as np
import pytest

import chainrules  # noqa: F401  (registers the rules)
from chainrules import (
    NoTangent,
    ProjectionError,
    Thunk,
    UnsupportedKeywordError,
    ZeroTangent,
    frule,
    rrule,
    unthunk,
)
from chainrules.testing import PrimalAndTangent, test_frule, test_rrule

MATMUL_SHAPES = [
    ((3, 4), (4, 2)),        # matrix @ matrix
    ((4,), (4, 2)),          # 1-d on the left
    ((3, 4), (4,)),          # 1-d on the right
    ((4,), (4,)),            # both 1-d: a scalar
    ((2, 3, 4), (4, 2)),     # stack @ matrix (folded batch for b's cotangent)
    ((3, 4), (2, 4, 2)),     # matrix @ stack (folded batch for a's cotangent)
    ((2, 1, 3, 4), (3, 4, 2)),  # broadcast batch axes
    ((1, 3, 4), (2, 4, 2)),  # a length-1 batch axis
    ((4,), (2, 4, 3)),       # 1-d against a stack
    ((2, 3, 4), (4,)),
]


@pytest.mark.parametrize("f", [np.matmul, operator.matmul], ids=["np.matmul", "operator.matmul"])
@pytest.mark.parametrize(("shape_a", "shape_b"), MATMUL_SHAPES)
def test_matmul(f, shape_a, shape_b, dtype, rand):
    a, b = rand(shape_a, dtype), rand(shape_b, dtype)
    test_rrule(f, a, b)
    test_frule(f, a, b)


@pytest.mark.parametrize(("shape_a", "shape_b"), [((3, 4), (4, 2)), ((2, 3, 4), (4,))])
def test_matmul_mixed_real_complex(shape_a, shape_b, rand):
    test_rrule(np.matmul, rand(shape_a), rand(shape_b, np.complex128))
    test_rrule(np.matmul, rand(shape_a, np.complex128), rand(shape_b, np.float32))
    test_frule(np.matmul, rand(shape_a), rand(shape_b, np.complex128))


def test_matmul_frule_with_one_tangent_absent(rand):
    a, b = rand((3, 4)), rand((4, 2))
    test_frule(np.matmul, a, PrimalAndTangent(b, NoTangent()))
    test_frule(np.matmul, PrimalAndTangent(a, ZeroTangent()), b)


def test_matmul_returns_thunks_and_projects(rand):
    a, b = rand((3, 4), np.float32), rand((4, 2), np.float32)
    _, pullback = rrule(np.matmul, a, b)
    _, da, db = pullback(rand((3, 2)))            # a float64 cotangent
    assert isinstance(da, Thunk) and isinstance(db, Thunk)
    assert unthunk(da).dtype == np.float32 and unthunk(db).dtype == np.float32
    assert pullback(ZeroTangent())[1:] == (ZeroTangent(), ZeroTangent())


def test_matmul_integer_operand_gets_no_tangent(rand):
    a = np.arange(12).reshape(3, 4)
    test_rrule(np.matmul, a, rand((4, 2)))
    assert isinstance(rrule(np.matmul, a, rand((4, 2)))[1](np.ones((3, 2)))[1], NoTangent)


def test_matmul_rejects_wrong_cotangent_and_out(rand):
    a, b = rand((3, 4)), rand((4, 2))
    _, pullback = rrule(np.matmul, a, b)
    with pytest.raises(ProjectionError, match=r"matmul pullback: output cotangent has shape \(2, 3\)"):
        pullback(np.ones((2, 3)))
    # a Python float for a matrix output: the cotangent reader's message, not NumPy's matmul error
    with pytest.raises(ProjectionError, match=r"numpy\.matmul pullback: output cotangent is a number \(float\), "
                                              r"expected an array of shape \(3, 2\)"):
        pullback(1.5)
    with pytest.raises(UnsupportedKeywordError, match="out="):
        rrule(np.matmul, a, b, out=np.empty((3, 2)))
    with pytest.raises(UnsupportedKeywordError, match="axes="):
        rrule(np.matmul, a, b, axes=[(0, 1), (0, 1), (0, 1)])


def test_matmul_primal_errors_pass_through(rand):
    with pytest.raises(ValueError, match="matmul"):
        rrule(np.matmul, rand((3, 4)), rand((3, 4)))
    assert rrule(np.matmul, [[1.0]], [[2.0]]) is None   # lists are not covered: no rule, no error


DOT_SHAPES = [((3, 4), (4, 2)), ((4,), (4,)), ((3, 4), (4,)), ((4,), (4, 2)), ((2, 3, 4), (2, 4, 3)),
              ((2, 3), ()), ((), (3,)), ((), ())]
INNER_SHAPES = [((3, 4), (2, 4)), ((4,), (4,)), ((2, 3, 4), (4,)), ((4,), (2, 4)), ((2, 3), ()), ((), ())]


@pytest.mark.parametrize(("shape_a", "shape_b"), DOT_SHAPES)
def test_dot(shape_a, shape_b, dtype, rand):
    a, b = rand(shape_a, dtype), rand(shape_b, dtype)
    test_rrule(np.dot, a, b)
    test_frule(np.dot, a, b)


@pytest.mark.parametrize(("shape_a", "shape_b"), INNER_SHAPES)
def test_inner(shape_a, shape_b, dtype, rand):
    a, b = rand(shape_a, dtype), rand(shape_b, dtype)
    test_rrule(np.inner, a, b)
    test_frule(np.inner, a, b)


def test_dot_python_scalars(rand):
    test_rrule(np.dot, 2.5, rand(3))
    test_rrule(np.dot, rand((2, 2)), 1.5)
    test_frule(np.dot, 2.5, rand(3))
    test_rrule(np.dot, 1.5 - 0.5j, rand(3, np.complex128))
    test_rrule(np.inner, 2.5, rand((2, 3)))
    test_rrule(np.dot, 2.0, 3.0)


def test_dot_out_argument_both_spellings(rand):
    a, b = rand((2, 3)), rand(3)
    test_rrule(np.dot, a, b, None)                 # out given positionally (as None)
    test_rrule(np.dot, a, b, fkwargs={"out": None})
    with pytest.raises(UnsupportedKeywordError):
        rrule(np.dot, a, b, np.empty(2))
    with pytest.raises(UnsupportedKeywordError):
        rrule(np.dot, a, b, out=np.empty(2))


def test_ndarray_dot_method(dtype, rand):
    a, b = rand((2, 3), dtype), rand((3, 2), dtype)
    test_rrule(np.ndarray.dot, a, b)
    test_frule(np.ndarray.dot, a, b)
    y, pullback = rrule(a.dot, b)              # a bound method: the array becomes the first argument
    assert np.array_equal(y, a.dot(b))
    assert len(pullback(np.ones((2, 2)))) == 3


@pytest.mark.parametrize(("shape_a", "shape_b"), [((3,), (3,)), ((2, 3), (3, 2)), ((2, 3), (6,)), ((), ())])
def test_vdot(shape_a, shape_b, dtype, rand):
    a, b = rand(shape_a, dtype), rand(shape_b, dtype)
    test_rrule(np.vdot, a, b)
    test_frule(np.vdot, a, b)


def test_vdot_conjugates_its_first_argument_only(rand):
    # real against complex in both orders: the finite differences see the conjugation
    test_rrule(np.vdot, rand(3), rand(3, np.complex128))
    test_rrule(np.vdot, rand(3, np.complex128), rand(3))
    test_rrule(np.vdot, 1.5 + 2j, 0.5 - 1j)


@pytest.mark.parametrize(("shape_a", "shape_b"), [((3,), (2,)), ((2, 2), (3,)), ((), (3,)), ((2,), ())])
def test_outer(shape_a, shape_b, dtype, rand):
    a, b = rand(shape_a, dtype), rand(shape_b, dtype)
    test_rrule(np.outer, a, b)
    test_frule(np.outer, a, b)


def test_outer_python_scalar_and_out(rand):
    test_rrule(np.outer, 2.0, rand(3))
    test_rrule(np.outer, rand(2), rand(3), None)
    with pytest.raises(UnsupportedKeywordError):
        rrule(np.outer, rand(2), rand(3), out=np.empty((2, 3)))


@pytest.mark.parametrize(("shape_a", "shape_b", "kwargs"), [
    ((3,), (3,), {}),
    ((2, 3), (3,), {}),
    ((2, 1, 3), (4, 3), {}),
    ((3, 2), (3, 2), {"axis": 0}),
    ((2, 3, 2), (3, 1), {"axis": -2}),
])
def test_vecdot(shape_a, shape_b, kwargs, dtype, rand):
    a, b = rand(shape_a, dtype), rand(shape_b, dtype)
    test_rrule(np.vecdot, a, b, fkwargs=kwargs)
    test_frule(np.vecdot, a, b, fkwargs=kwargs)


def test_vecdot_mixed_and_rejected_keywords(rand):
    test_rrule(np.vecdot, rand(3), rand(3, np.complex128))
    test_rrule(np.vecdot, rand(3, np.complex128), rand(3))
    with pytest.raises(UnsupportedKeywordError):
        rrule(np.vecdot, rand(3), rand(3), axes=[(0,), (0,), ()])


needs_matvec = pytest.mark.skipif(not hasattr(np, "matvec"), reason="np.matvec and np.vecmat need NumPy >= 2.2")


@needs_matvec
@pytest.mark.parametrize(("shape_a", "shape_b"), [((2, 3), (3,)), ((4, 2, 3), (3,)), ((2, 3), (4, 3)),
                                                  ((1, 2, 3), (4, 3))])
def test_matvec(shape_a, shape_b, dtype, rand):
    a, b = rand(shape_a, dtype), rand(shape_b, dtype)
    test_rrule(np.matvec, a, b)
    test_frule(np.matvec, a, b)


@needs_matvec
@pytest.mark.parametrize(("shape_a", "shape_b"), [((3,), (3, 2)), ((4, 3), (3, 2)), ((3,), (4, 3, 2)),
                                                  ((4, 1, 3), (2, 3, 2))])
def test_vecmat(shape_a, shape_b, dtype, rand):
    a, b = rand(shape_a, dtype), rand(shape_b, dtype)
    test_rrule(np.vecmat, a, b)
    test_frule(np.vecmat, a, b)


@needs_matvec
def test_vecmat_conjugates_the_vector(rand):
    test_rrule(np.vecmat, rand(3, np.complex128), rand((3, 2)))
    test_rrule(np.vecmat, rand(3), rand((3, 2), np.complex128))


@pytest.mark.parametrize(("shape_a", "shape_b"), [((2,), (3,)), ((2, 2), (3, 2)), ((2, 1, 3), (2, 2)),
                                                  ((2,), (2, 3)), ((), (2, 2)), ((), ())])
def test_kron(shape_a, shape_b, dtype, rand):
    a, b = rand(shape_a, dtype), rand(shape_b, dtype)
    test_rrule(np.kron, a, b)
    test_frule(np.kron, a, b)


def test_kron_python_scalar(rand):
    test_rrule(np.kron, 2.0, rand((2, 2)))
    test_frule(np.kron, rand(3), 0.5)


def test_product_frules_with_zero_tangents(rand):
    a, b = rand((2, 3)), rand((3, 2))
    for f, second in ((np.matmul, b), (np.dot, b), (np.kron, b), (np.outer, b), (np.inner, b.T), (np.vdot, b.T)):
        _, dy = frule((NoTangent(), ZeroTangent(), NoTangent()), f, a, second)
        assert dy == ZeroTangent()
