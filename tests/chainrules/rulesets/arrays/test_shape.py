"""Rules of chainrules/rulesets/arrays/shape.py, checked against finite differences."""

from __future__ import annotations

import numpy as np
import pytest

import chainrules
from chainrules import ProjectionError, Tangent, ZeroTangent, frule, rrule, unthunk
from chainrules.testing import PrimalAndTangent, check_approx, jvp, rand_tangent, test_frule, test_rrule, vjp
from chainrules_core import NoTangent


@pytest.mark.parametrize("args", [((3, 2),), ((6,), "F"), ((-1, 3), "C"), ((1, 6), "A")])
def test_reshape(args, dtype, rand):
    x = rand(2, 3, dtype=dtype)
    test_rrule(np.reshape, x, *args)
    test_frule(np.reshape, x, *args)


def test_reshape_keywords_methods_and_scalars(rand):
    x = rand(2, 3)
    test_rrule(np.reshape, x, (3, 2), fkwargs={"order": "F"})
    test_rrule(np.reshape, x, fkwargs={"shape": (6,), "copy": True})
    test_rrule(np.ndarray.reshape, x, 3, 2)
    test_rrule(np.ndarray.reshape, x, (6,), fkwargs={"order": "F"})
    test_frule(np.ndarray.reshape, x, 6)
    test_rrule(np.reshape, 2.5, (1, 1))
    test_rrule(np.reshape, np.array(1.5, dtype=np.float32), (1,))


def test_reshape_of_nested_lists_gives_structural_cotangents():
    test_rrule(np.reshape, [[1.0, 2.0], [3.0, np.float32(4.0)]], (4,))
    test_frule(np.reshape, [[1.0, 2.0], [3.0, 4.0]], (4,))
    test_rrule(np.reshape, [1.0, 2, 3.0, 4.5], (2, 2))  # the int gets NoTangent()
    _, pullback = rrule(np.reshape, [1.0, 2], (2, 1))
    assert pullback(np.ones((2, 1)))[1] == Tangent(list, 1.0, NoTangent())


def test_integer_input_gets_no_tangent():
    test_rrule(np.reshape, np.arange(6), (2, 3))
    _, pullback = rrule(np.reshape, np.arange(6), (2, 3))
    assert pullback(np.ones((2, 3)))[1] == NoTangent()


@pytest.mark.parametrize("order", ["C", "F", "A", "K"])
def test_ravel_and_flatten(order, dtype, rand):
    x = rand(2, 3, dtype=dtype)
    for f in (np.ravel, np.ndarray.ravel, np.ndarray.flatten):
        test_rrule(f, x, order)
        test_frule(f, x, order)
    test_rrule(np.ravel, x, fkwargs={"order": order})


VIEWS = {
    "transposed": lambda base: base.T,
    "reversed": lambda base: base[:, ::-1],
    "fortran-sliced": lambda base: np.asfortranarray(base)[::-1, 1:],
}


@pytest.mark.parametrize("layout", sorted(VIEWS))
@pytest.mark.parametrize(("f", "order"), [(np.ravel, "A"), (np.ravel, "K"), (np.ndarray.flatten, "K"),
                                          (np.ndarray.ravel, "A")])
def test_layout_dependent_orders(layout, f, order, rand):
    """'A' and 'K' read the primal's memory layout: finite differences with the layout held fixed."""
    view = VIEWS[layout]
    x = view(rand(3, 4))

    def with_layout(v):
        out = view(np.empty((3, 4)))  # a fresh array with the layout of x
        out[...] = v
        return f(out, order)

    y, pullback = rrule(f, x, order)
    check_approx(y, with_layout(x))
    dy = rand_tangent(y, 1)
    check_approx(pullback(dy)[1], vjp(None, with_layout, dy, x)[0])
    dx = rand_tangent(x, 2)
    check_approx(frule((NoTangent(), dx, NoTangent()), f, x, order)[1], jvp(None, with_layout, (x, dx)))


def test_reshape_order_a_follows_the_layout(rand):
    x = rand(3, 4).T  # Fortran-contiguous: 'A' reads in Fortran order

    def with_layout(v):
        out = np.empty((3, 4)).T
        out[...] = v
        return np.reshape(out, (-1,), "A")

    y, pullback = rrule(np.reshape, x, (-1,), "A")
    check_approx(y, with_layout(x))
    dy = rand_tangent(y, 1)
    check_approx(pullback(dy)[1], vjp(None, with_layout, dy, x)[0])


@pytest.mark.parametrize(("shape", "axis"), [((1, 3, 1), None), ((1, 3, 1), 0), ((1, 3, 1), (0, 2)), ((1,), None)])
def test_squeeze(shape, axis, dtype, rand):
    x = rand(*shape, dtype=dtype)
    test_rrule(np.squeeze, x, axis)
    test_frule(np.squeeze, x, axis)
    test_rrule(np.ndarray.squeeze, x, axis)
    test_frule(np.ndarray.squeeze, x, fkwargs={"axis": axis})


@pytest.mark.parametrize("axis", [0, -1, (0, 2)])
def test_expand_dims(axis, dtype, rand):
    x = rand(2, 3, dtype=dtype)
    test_rrule(np.expand_dims, x, axis)
    test_frule(np.expand_dims, x, axis)
    test_rrule(np.expand_dims, x, fkwargs={"axis": axis})


@pytest.mark.parametrize("f", [np.atleast_1d, np.atleast_2d, np.atleast_3d])
def test_atleast(f, dtype, rand):
    test_rrule(f, rand(3, dtype=dtype))
    test_frule(f, rand(2, 2, dtype=dtype))
    test_rrule(f, 2.0)
    test_rrule(f, rand(3, dtype=dtype), 1.5, np.float32(2.0))  # several arguments: a tuple output
    test_frule(f, rand(3, dtype=dtype), 1.5)
    _, pullback = rrule(f, rand(2), rand(3))
    assert pullback((ZeroTangent(), ZeroTangent()))[1:] == (ZeroTangent(), ZeroTangent())


def test_broadcast_to(dtype, rand):
    test_rrule(np.broadcast_to, rand(3, dtype=dtype), (4, 3))
    test_rrule(np.broadcast_to, rand(2, 1, dtype=dtype), (3, 2, 5))
    test_frule(np.broadcast_to, rand(2, 1, dtype=dtype), (2, 3))
    test_rrule(np.broadcast_to, 1.5, (2,))
    test_rrule(np.broadcast_to, rand(3, dtype=dtype), fkwargs={"shape": (2, 3)})


def test_broadcast_arrays(dtype, rand):
    test_rrule(np.broadcast_arrays, rand(3, dtype=dtype), rand(2, 1, dtype=dtype), 2.0)
    test_frule(np.broadcast_arrays, rand(3, dtype=dtype), rand(2, 1, dtype=dtype))
    _, pullback = rrule(np.broadcast_arrays, rand(3), rand(2, 1))
    partial = pullback(Tangent(tuple, ZeroTangent(), np.ones((2, 3))))
    assert partial[1] == ZeroTangent()
    check_approx(partial[2], np.full((2, 1), 3.0))


def test_ix(dtype, rand):
    test_rrule(np.ix_, rand(2, dtype=dtype), np.array([0, 1]), np.array([True, False, True]))
    test_frule(np.ix_, rand(2, dtype=dtype), rand(3, dtype=dtype))


def test_views_of_the_cotangent_are_read_only(rand):
    _, pullback = rrule(np.reshape, rand(2, 3), (6,))
    dy = np.ones(6)
    dx = pullback(dy)[1]
    assert np.shares_memory(dx, dy) and not dx.flags.writeable
    acc = np.zeros((2, 3))
    assert chainrules.add_(acc, dx) is acc  # the accumulator, not the view, is written


def test_wrong_cotangent_shapes_raise(rand):
    _, pullback = rrule(np.reshape, rand(2, 3), (6,))
    with pytest.raises(ProjectionError, match=r"np.reshape pullback: output cotangent has shape \(5,\)"):
        pullback(np.ones(5))
    _, pullback = rrule(np.broadcast_arrays, rand(3), rand(2, 1))
    with pytest.raises(ProjectionError, match=r"np\.broadcast_arrays pullback"):
        pullback((np.ones((2, 3)),))


def test_zero_and_thunked_cotangents(rand):
    _, pullback = rrule(np.squeeze, rand(1, 3))
    assert pullback(ZeroTangent())[1] == ZeroTangent()
    check_approx(unthunk(pullback(chainrules.Thunk(lambda: np.ones(3)))[1]), np.ones((1, 3)))
    test_frule(np.reshape, PrimalAndTangent(rand(2, 2), ZeroTangent()), (4,))
