"""Property tests of the contraction rules: random shapes (empty dimensions included), batch broadcasting, dtypes.

hypothesis draws operands of compatible shapes and ``adjoint_check``
(``tests/chainrules/rulesets/conftest.py``) checks, without finite differences, that the
frule and the rrule agree (``<dy, J dx> = <J^T dy, dx>``) and that the cotangents keep the
operands' shapes and dtypes. The last test shows the property catching a pullback that
forgets a complex conjugate.
"""

from __future__ import annotations

import operator

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs
from hypothesis.extra import numpy as hnp

import chainrules  # noqa: F401  (registers the rules)
from chainrules.rulesets.contractions import matrix_vector_products

PROPERTY = settings(max_examples=15, deadline=None, derandomize=True, database=None)

DTYPES = (np.float32, np.float64, np.complex128)
SIDE = hs.integers(0, 3)


@hs.composite
def operands(draw: hs.DrawFn, *shapes: tuple[int, ...], dtypes: tuple[type, ...] = DTYPES,
             mixed: bool = True) -> tuple[np.ndarray, ...]:
    """Arrays of the given shapes: one dtype for all or, with ``mixed``, one each."""
    common = draw(hs.sampled_from(dtypes))
    out = []
    for shape in shapes:
        dtype = np.dtype(draw(hs.sampled_from(dtypes)) if mixed and draw(hs.booleans()) else common)
        x = draw(hnp.arrays(np.float64, shape, elements=hs.floats(-2, 2, width=32)))
        if dtype.kind == "c":
            x = x + 1j * draw(hnp.arrays(np.float64, shape, elements=hs.floats(-2, 2, width=32)))
        out.append(x.astype(dtype))
    return tuple(out)


@hs.composite
def matmul_shapes(draw: hs.DrawFn) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Shapes of ``a @ b``: broadcast batch axes, 1-d operands on either side, empty dimensions."""
    n, k, m = draw(SIDE), draw(SIDE), draw(SIDE)
    batch_a, batch_b = draw(hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=2, max_side=2)).input_shapes
    a = (k,) if draw(hs.booleans()) and not batch_a else (*batch_a, n, k)
    b = (k,) if draw(hs.booleans()) and not batch_b else (*batch_b, k, m)
    return a, b


@pytest.mark.parametrize("f", [np.matmul, operator.matmul], ids=["np.matmul", "operator.matmul"])
@PROPERTY
@given(data=hs.data())
def test_matmul(f, data, adjoint_check):
    a, b = data.draw(operands(*data.draw(matmul_shapes())))
    assert adjoint_check(f, a, b) == "checked"


@pytest.mark.parametrize("f", [np.dot, np.inner, np.outer, np.vdot, np.kron])
@PROPERTY
@given(data=hs.data())
def test_products(f, data, adjoint_check):
    k = data.draw(SIDE)
    if f is np.dot:
        shapes = data.draw(hs.sampled_from([((k,), (k,)), ((2, k), (k, 3)), ((2, 1, k), (3, k, 2)), ((), (2, k))]))
    elif f is np.inner:
        shapes = data.draw(hs.sampled_from([((k,), (k,)), ((2, k), (3, k)), ((), (2, k))]))
    elif f is np.vdot:
        shapes = data.draw(hs.sampled_from([((k,), (k,)), ((2, k), (k, 2))]))
    else:
        shapes = (data.draw(hnp.array_shapes(min_dims=0, max_dims=2, min_side=0, max_side=3)),
                  data.draw(hnp.array_shapes(min_dims=0, max_dims=2, min_side=0, max_side=3)))
    assert adjoint_check(f, *data.draw(operands(*shapes))) == "checked"


@PROPERTY
@given(data=hs.data())
def test_tensordot(data, adjoint_check):
    free_a, contracted, free_b = (data.draw(hnp.array_shapes(min_dims=0, max_dims=2, min_side=0, max_side=3))
                                  for _ in range(3))
    a, b = data.draw(operands((*free_a, *contracted), (*contracted, *free_b)))
    assert adjoint_check(np.tensordot, a, b, len(contracted)) == "checked"


EINSUM = [("ij,jk->ik", "ij,jk"), ("ij->j", "ij"), ("ii->i", "ii"), ("ij,ij->", "ij,ij"), ("i,j->ij", "i,j"),
          ("iij->j", "iij"), ("ijk,jl,lk->i", "ijk,jl,lk"), ("...ij,...jk->...ik", "aij,jk"), ("ii", "ii")]


@pytest.mark.parametrize(("subscripts", "layout"), EINSUM, ids=[s for s, _ in EINSUM])
@PROPERTY
@given(data=hs.data())
def test_einsum(subscripts, layout, data, adjoint_check):
    sizes = {c: data.draw(SIDE) for c in set(layout.replace(",", ""))}
    args = data.draw(operands(*(tuple(sizes[c] for c in term) for term in layout.split(","))))
    assert adjoint_check(np.einsum, subscripts, *args) == "checked"


@PROPERTY
@given(data=hs.data())
def test_trace(data, adjoint_check):
    (a,) = data.draw(operands(data.draw(hnp.array_shapes(min_dims=2, max_dims=3, min_side=0, max_side=3))))
    offset = data.draw(hs.integers(-3, 3))
    axis1, axis2 = data.draw(hs.permutations(range(a.ndim)))[:2]
    assert adjoint_check(np.trace, a, offset, axis1, axis2) == "checked"


@pytest.mark.filterwarnings("ignore:Arrays of 2-dimensional vectors are deprecated")  # NumPy's own
@PROPERTY
@given(data=hs.data())
def test_cross(data, adjoint_check):
    batch_a, batch_b = data.draw(hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=2, max_side=2)).input_shapes
    a, b = data.draw(operands((*batch_a, data.draw(hs.sampled_from([2, 3]))),
                              (*batch_b, data.draw(hs.sampled_from([2, 3])))))
    assert adjoint_check(np.cross, a, b) == "checked"


@pytest.mark.parametrize("f", [np.convolve, np.correlate])
@PROPERTY
@given(data=hs.data())
def test_signal(f, data, adjoint_check):
    a, v = data.draw(operands((data.draw(hs.integers(1, 5)),), (data.draw(hs.integers(1, 5)),)))
    assert adjoint_check(f, a, v, data.draw(hs.sampled_from(["full", "same", "valid"]))) == "checked"


@PROPERTY
@given(data=hs.data())
def test_diff(data, adjoint_check):
    (a,) = data.draw(operands(data.draw(hnp.array_shapes(min_dims=1, max_dims=3, min_side=0, max_side=4))))
    axis = data.draw(hs.integers(-a.ndim, a.ndim - 1))
    assert adjoint_check(np.diff, a, data.draw(hs.integers(0, 3)), axis) == "checked"


@PROPERTY
@given(data=hs.data())
def test_trapezoid(data, adjoint_check):
    n = data.draw(hs.integers(1, 4))
    y, x = data.draw(operands((data.draw(SIDE), n), (n,), dtypes=(np.float32, np.float64)))
    assert adjoint_check(np.trapezoid, y, np.cumsum(np.abs(x) + 0.5)) == "checked"


@PROPERTY
@given(data=hs.data())
def test_polyval(data, adjoint_check):
    p, x = data.draw(operands((data.draw(hs.integers(1, 4)),),
                              data.draw(hnp.array_shapes(min_dims=0, max_dims=2, min_side=0, max_side=3))))
    assert adjoint_check(np.polyval, p, x) == "checked"


def test_the_property_catches_a_pullback_that_forgets_a_conjugate(adjoint_check, monkeypatch):
    """A deliberately broken matmul pullback (``dy @ b.T`` instead of ``dy @ conj(b).T``) fails the property."""
    rng = np.random.default_rng(1)
    a = rng.standard_normal((2, 3)) + 1j * rng.standard_normal((2, 3))
    b = rng.standard_normal((3, 2)) + 1j * rng.standard_normal((3, 2))
    assert adjoint_check(np.matmul, a, b) == "checked"
    monkeypatch.setattr(matrix_vector_products, "matmul_cotangent_a", lambda a, b, dy: dy @ b.T)
    with pytest.raises(AssertionError, match="the frule and the rrule disagree"):
        adjoint_check(np.matmul, a, b)
