"""Rules of chainrules/rulesets/arrays/joining.py, checked against finite differences.

The sequence argument of ``concatenate``/``stack``/... is given as a list and as a tuple:
its cotangent is a ``Tangent(list, ...)``/``Tangent(tuple, ...)``, checked element by
element (and projected onto each element's space) by ``test_rrule``.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import chainrules  # noqa: F401  (registers the rules)
from chainrules import NoTangent, ProjectionError, Tangent, UnsupportedKeywordError, ZeroTangent, rrule
from chainrules.testing import test_frule, test_rrule


@pytest.mark.parametrize("container", [list, tuple])
def test_concatenate(container, dtype, rand):
    a, b = rand(2, 3, dtype=dtype), rand(1, 3, dtype=dtype)
    test_rrule(np.concatenate, container([a, b]))
    test_frule(np.concatenate, container([a, b]))
    test_rrule(np.concatenate, container([a, rand(2, 2, dtype=dtype)]), 1)
    test_rrule(np.concatenate, container([a, rand(2, 2, dtype=dtype)]), fkwargs={"axis": -1})
    test_rrule(np.concatenate, container([a, b]), None)
    test_frule(np.concatenate, container([a, rand(4, dtype=dtype)]), None)
    test_rrule(np.concat, container([a, b]))


def test_concatenate_of_an_array_and_of_mixed_elements(dtype, rand):
    test_rrule(np.concatenate, rand(3, 2, 2, dtype=dtype))  # joins the rows: an ndarray cotangent
    test_frule(np.concatenate, rand(3, 2, 2, dtype=dtype), 1)
    test_rrule(np.concatenate, [[1.0, 2.0], rand(1, dtype=dtype), [4, 5]])  # Python floats and ints
    test_frule(np.concatenate, [[1.0, 2.0], rand(1, dtype=dtype), [4, 5]])
    test_rrule(np.concatenate, [rand(2).astype(np.float32), rand(2)])
    test_rrule(np.concatenate, [rand(2, dtype=dtype), np.arange(2)])
    test_rrule(np.concatenate, [np.arange(2), np.arange(2)])


def test_concatenate_cotangent_structure_and_keywords(rand):
    _, pullback = rrule(np.concatenate, [rand(2), [1.0, 2]])
    d = pullback(np.array([1.0, 2.0, 3.0, 4.0]))[1]
    assert isinstance(d, Tangent) and d.primal_type is list
    assert d[1] == Tangent(list, 3.0, NoTangent())
    assert pullback(ZeroTangent())[1] == ZeroTangent()
    test_rrule(np.concatenate, [rand(2), rand(2)], fkwargs={"dtype": np.float32}, rtol=1e-3, atol=1e-3)
    with pytest.raises(UnsupportedKeywordError, match="out="):
        rrule(np.concatenate, [rand(2)], 0, np.zeros(2))


@pytest.mark.parametrize("container", [list, tuple])
def test_stack(container, dtype, rand):
    a = rand(2, 3, dtype=dtype)
    test_rrule(np.stack, container([a, 2 * a]))
    test_rrule(np.stack, container([a, a]), 2)
    test_rrule(np.stack, container([a, a]), fkwargs={"axis": -1})
    test_frule(np.stack, container([a, a]), 1)
    test_rrule(np.stack, rand(3, 2, dtype=dtype), 1)
    test_rrule(np.stack, container([1.0, 2.5, np.float32(3.0)]))


PROMOTING = {
    np.hstack: [((2,), (2,)), ((2, 1), (2, 2))],
    np.vstack: [((2,), (2,)), ((2,), (3, 2))],
    np.dstack: [((2,), (2,)), ((2, 2), (2, 2, 1))],
    np.column_stack: [((2,), (2,)), ((2, 1), (2, 2))],
}


@pytest.mark.parametrize("f", list(PROMOTING), ids=lambda f: f.__name__)
def test_promoting_stacks(f, dtype, rand):
    for shapes in PROMOTING[f]:
        tup = [rand(*s, dtype=dtype) for s in shapes]
        test_rrule(f, tup)
        test_frule(f, tup)
        test_rrule(f, tuple(tup))
    test_rrule(f, [1.5, rand(1, dtype=dtype)] if f in (np.hstack, np.vstack, np.dstack) else [rand(2), rand(2)])


def test_hstack_keywords_and_row_stack(rand):
    # a cast to float32: finite differences of the rounded output need a float32 tolerance
    test_rrule(np.hstack, [rand(2), rand(3)], fkwargs={"dtype": np.float32}, rtol=1e-3, atol=1e-3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        test_rrule(np.row_stack, [rand(2), rand(2)])
        test_frule(np.row_stack, [rand(2), rand(2)])


def test_block(dtype, rand):
    test_rrule(np.block, [[rand(2, 3, dtype=dtype), rand(2, 1, dtype=dtype)],
                          [rand(1, 3, dtype=dtype), rand(1, 1, dtype=dtype)]])
    test_frule(np.block, [[rand(2, 3, dtype=dtype), rand(2, 1, dtype=dtype)], [rand(1, 4, dtype=dtype)]])
    test_rrule(np.block, [rand(2, dtype=dtype), rand(2, dtype=dtype)])
    test_rrule(np.block, [[1.5, rand(1, dtype=dtype)]])


@pytest.mark.filterwarnings("ignore::PendingDeprecationWarning")  # np.matrix
def test_bmat(dtype, rand):
    test_rrule(np.bmat, [[rand(2, 2, dtype=dtype), rand(2, 1, dtype=dtype)],
                         [rand(1, 2, dtype=dtype), rand(1, 1, dtype=dtype)]])
    test_rrule(np.bmat, [rand(2, 2, dtype=dtype), rand(2, 1, dtype=dtype)])
    test_frule(np.bmat, [[rand(2, 2, dtype=dtype), rand(2, 1, dtype=dtype)]])


def test_append(dtype, rand):
    a, b = rand(2, 3, dtype=dtype), rand(1, 3, dtype=dtype)
    test_rrule(np.append, a, b, 0)
    test_rrule(np.append, a, b)
    test_rrule(np.append, a, b, fkwargs={"axis": 0})
    test_frule(np.append, a, rand(3, dtype=dtype))
    test_rrule(np.append, [1.0, 2.0], 3.0)


def test_wrong_cotangent_shape(rand):
    _, pullback = rrule(np.stack, [rand(2), rand(2)])
    with pytest.raises(ProjectionError, match=r"np\.stack pullback: output cotangent"):
        pullback(np.ones(4))
