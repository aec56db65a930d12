"""Rules of chainrules/rulesets/contractions/einsum.py, checked against finite differences."""

from __future__ import annotations

import numpy as np
import pytest

import chainrules  # noqa: F401  (registers the rules)
from chainrules import NoTangent, ProjectionError, UnsupportedKeywordError, ZeroTangent, rrule, unthunk
from chainrules.rulesets.contractions.einsum import parse_subscripts
from chainrules.testing import test_frule, test_rrule

SUBSCRIPTS = [
    ("ij,jk->ik", [(2, 3), (3, 4)]),            # matmul
    ("ij,jk", [(2, 3), (3, 4)]),                # implicit output
    ("ij,ij->", [(2, 3), (2, 3)]),              # full contraction
    ("i,j->ij", [(2,), (3,)]),                  # outer product
    ("ij->ji", [(2, 3)]),                       # transpose
    ("ji", [(2, 3)]),                           # implicit transpose
    ("ij->", [(2, 3)]),                         # sum
    ("ij->j", [(2, 3)]),                        # index summed out: broadcast back
    ("ii->i", [(3, 3)]),                        # diagonal: scatter into zeros
    ("ii", [(3, 3)]),                           # trace
    ("iij->j", [(2, 2, 3)]),                    # repeated index with a free one
    ("iji->j", [(2, 3, 2)]),                    # repeated index, not adjacent
    ("iii->", [(2, 2, 2)]),
    ("ii,i->i", [(3, 3), (3,)]),                # diagonal times a vector
    ("ijk,jl,lk->i", [(2, 3, 2), (3, 2), (2, 2)]),  # three operands
    ("ij,jk,kl->il", [(2, 3), (3, 2), (2, 4)]),     # a chain
    ("...ij,...jk->...ik", [(2, 2, 3), (3, 4)]),    # ellipsis, broadcast batch
    ("...ij,...jk", [(1, 2, 3), (2, 3, 4)]),        # ellipsis, implicit output, length-1 batch axis
    ("i...,i...", [(2, 3), (2, 3)]),
    ("...,...", [(2, 1), (3,)]),                     # ellipsis only, broadcasting
    ("i,i->i", [(1,), (3,)]),                        # a broadcast length-1 index
    ("ij,j->i", [(2, 1), (3,)]),
    ("bA,c", [(2, 3), (3,)]),                        # upper case sorts first in implicit mode
    (",i->i", [(), (3,)]),                           # a scalar operand
    (" ij , jk -> ik ", [(2, 3), (3, 2)]),           # spaces
]


@pytest.mark.parametrize(("subscripts", "shapes"), SUBSCRIPTS, ids=[s for s, _ in SUBSCRIPTS])
def test_einsum(subscripts, shapes, dtype, rand):
    operands = [rand(shape, dtype) for shape in shapes]
    test_rrule(np.einsum, subscripts, *operands)
    test_frule(np.einsum, subscripts, *operands)


def test_einsum_python_scalar_operand(rand):
    test_rrule(np.einsum, ",i->i", 2.5, rand(3))
    test_frule(np.einsum, ",i->i", 2.5, rand(3))


def test_einsum_mixed_real_complex(rand):
    test_rrule(np.einsum, "ij,jk->ik", rand((2, 3)), rand((3, 2), np.complex128))
    test_rrule(np.einsum, "ii,i->i", rand((3, 3), np.complex128), rand(3, np.float32))


@pytest.mark.parametrize("optimize", [False, True, "greedy", "optimal"])
def test_einsum_optimize_is_passed_through(optimize, rand):
    operands = [rand((2, 3)), rand((3, 2)), rand((2, 4))]
    test_rrule(np.einsum, "ij,jk,kl->il", *operands, fkwargs={"optimize": optimize})
    test_frule(np.einsum, "ij,jk,kl->il", *operands, fkwargs={"optimize": optimize})


def test_einsum_explicit_path(rand):
    operands = [rand((2, 3)), rand((3, 2)), rand((2, 4))]
    path, _ = np.einsum_path("ij,jk,kl->il", *operands, optimize="optimal")
    test_rrule(np.einsum, "ij,jk,kl->il", *operands, fkwargs={"optimize": path})


@pytest.mark.parametrize("args", [
    lambda r: (r((2, 3)), [0, 1], r((3, 2)), [1, 2], [0, 2]),
    lambda r: (r((2, 3)), [0, 1], r(3), [1]),                    # implicit output
    lambda r: (r((3, 3)), [0, 0], [0]),                           # diagonal
    lambda r: (r((2, 3)), [30, 1]),                               # labels past 25 (lower case)
    lambda r: (r((2, 2, 3)), [Ellipsis, 1], r(3), [1], [Ellipsis]),
])
def test_einsum_interleaved_form(args, dtype, rand):
    values = args(lambda shape: rand(shape, dtype))
    test_rrule(np.einsum, *values)
    test_frule(np.einsum, *values)


def test_einsum_dtype_keyword_and_out(rand):
    a, b = rand((2, 3), np.float32), rand((3, 2), np.float32)
    test_rrule(np.einsum, "ij,jk->ik", a, b, fkwargs={"dtype": np.float64})
    with pytest.raises(UnsupportedKeywordError):
        rrule(np.einsum, "ij,jk->ik", a, b, out=np.empty((2, 2), np.float32))


def test_einsum_subscripts_get_no_tangent_and_zero_cotangent(rand):
    a, b = rand((2, 3)), rand((3, 2))
    _, pullback = rrule(np.einsum, "ij,jk->ik", a, b)
    df, ds, da, db = pullback(ZeroTangent())
    assert (df, ds, da, db) == (NoTangent(), NoTangent(), ZeroTangent(), ZeroTangent())
    _, ds, da, _ = pullback(np.ones((2, 2)))
    assert ds == NoTangent() and unthunk(da).shape == a.shape
    with pytest.raises(ProjectionError, match=r"numpy\.einsum pullback: output cotangent has shape"):
        pullback(np.ones(2))
    with pytest.raises(ProjectionError, match=r"numpy\.einsum pullback: output cotangent is a number \(float\), "
                                              r"expected an array of shape \(2, 2\)"):
        pullback(1.5)  # a Python float for a matrix output (NumPy's einsum error before)


def test_parse_subscripts_matches_numpy_output_shapes(rand):
    for subscripts, shapes in SUBSCRIPTS:
        operands = [rand(shape) for shape in shapes]
        spec = parse_subscripts(subscripts, shapes)
        explicit = np.einsum(spec.subscripts(), *operands)
        np.testing.assert_allclose(explicit, np.einsum(subscripts, *operands))


def test_einsum_path_is_not_differentiable(rand):
    a, b = rand((2, 3)), rand((3, 2))
    y, pullback = rrule(np.einsum_path, "ij,jk->ik", a, b)
    assert y[0] == np.einsum_path("ij,jk->ik", a, b)[0]
    assert pullback(None) == (NoTangent(),) * 4
