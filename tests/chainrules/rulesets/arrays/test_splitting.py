"""Rules of chainrules/rulesets/arrays/splitting.py, checked against finite differences.

The output is a list (a tuple for ``np.unstack``); its cotangent is given as a
``Tangent``, a list or a tuple, with ``ZeroTangent()`` for pieces that are not used.
"""

from __future__ import annotations

import numpy as np
import pytest

import chainrules  # noqa: F401  (registers the rules)
from chainrules import ProjectionError, Tangent, ZeroTangent, rrule
from chainrules.testing import check_approx, test_frule, test_rrule


@pytest.mark.parametrize("f", [np.split, np.array_split])
def test_split(f, dtype, rand):
    a = rand(4, 6, 2, dtype=dtype)
    test_rrule(f, a, 2)
    test_frule(f, a, 2)
    test_rrule(f, a, [1, 3], 1)
    test_rrule(f, a, 3, fkwargs={"axis": 1})
    test_rrule(f, a, fkwargs={"indices_or_sections": 2})
    test_rrule(f, a, 2, output_tangent=Tangent(list, ZeroTangent(), rand(2, 6, 2, dtype=dtype)))
    test_rrule(f, a, 2, output_tangent=[rand(2, 6, 2, dtype=dtype), ZeroTangent()])


def test_array_split_unequal_pieces_and_lists(rand):
    test_rrule(np.array_split, rand(5, 2), 3)
    test_frule(np.array_split, rand(2, 5), 4, 1)
    test_rrule(np.array_split, [1.0, 2.0, 3.0, 4.0], 2)


@pytest.mark.parametrize(("f", "shape", "sections"), [(np.hsplit, (2, 4), 2), (np.hsplit, (4,), [1]),
                                                      (np.vsplit, (4, 2), 2), (np.dsplit, (1, 2, 4), [1, 3])])
def test_directional_splits(f, shape, sections, dtype, rand):
    a = rand(*shape, dtype=dtype)
    test_rrule(f, a, sections)
    test_frule(f, a, sections)


def test_unstack(dtype, rand):
    a = rand(3, 2, dtype=dtype)
    test_rrule(np.unstack, a)
    test_rrule(np.unstack, a, fkwargs={"axis": 1})
    test_frule(np.unstack, a, fkwargs={"axis": -1})
    test_rrule(np.unstack, a, output_tangent=(ZeroTangent(), rand(2, dtype=dtype), ZeroTangent()))


def test_unused_pieces_give_zeros(rand):
    _, pullback = rrule(np.split, rand(4), 2)
    check_approx(pullback((ZeroTangent(), np.ones(2)))[1], np.array([0.0, 0.0, 1.0, 1.0]))
    assert pullback(ZeroTangent())[1] == ZeroTangent()
    assert pullback([ZeroTangent(), ZeroTangent()])[1] == ZeroTangent()


def test_wrong_cotangents_raise(rand):
    _, pullback = rrule(np.split, rand(4), 2)
    with pytest.raises(ProjectionError, match=r"np\.split pullback: output cotangent has 3 parts, expected 2"):
        pullback([np.ones(2)] * 3)
    with pytest.raises(ProjectionError, match=r"np\.split pullback: cotangent of output 1 has shape"):
        pullback([np.ones(2), np.ones(3)])
    with pytest.raises(ProjectionError, match=r"np\.split pullback: output cotangent is a ndarray, expected a Tangent"):
        pullback(np.ones(4))
