"""``np.trace``, ``np.sum``, ``np.diag``, ``np.diagonal`` and the methods, on structured matrices."""

from __future__ import annotations

import numpy as np
import pytest

from chainrules import UnsupportedKeywordError, rrule
from chainrules.structured import Diagonal, StructuredMatrix
from chainrules.testing import test_frule, test_rrule


@pytest.mark.parametrize("offset", [0, -2])
def test_trace(make, dtype, offset, fdm):
    A = make(dtype)
    test_rrule(np.trace, A, offset, fdm=fdm)
    test_frule(np.trace, A, offset, fdm=fdm)
    test_rrule(np.trace, A, fkwargs={"offset": offset, "axis1": 1, "axis2": 0}, fdm=fdm)
    test_rrule(StructuredMatrix.trace, A, offset, fdm=fdm)
    test_frule(StructuredMatrix.trace, A, fkwargs={"offset": offset}, fdm=fdm)


@pytest.mark.parametrize("axis", [None, 0, -1], ids=str)
def test_sum(make, dtype, axis, fdm):
    A = make(dtype)
    test_rrule(np.sum, A, axis, fdm=fdm)
    test_frule(np.sum, A, axis, fdm=fdm)
    test_rrule(np.sum, A, fkwargs={"axis": axis, "keepdims": True}, fdm=fdm)
    test_rrule(StructuredMatrix.sum, A, axis, fdm=fdm)
    test_frule(StructuredMatrix.sum, A, fkwargs={"axis": axis, "keepdims": True}, fdm=fdm)


@pytest.mark.parametrize("k", [0, 1, -2])
def test_diagonals(make, dtype, k, fdm):
    A = make(dtype)
    for f in (np.diag, np.diagonal, StructuredMatrix.diagonal):
        test_rrule(f, A, k, fdm=fdm)
        test_frule(f, A, k, fdm=fdm)
    test_rrule(np.diagonal, A, fkwargs={"offset": k, "axis1": 1, "axis2": 0}, fdm=fdm)


def test_cotangents_are_structured_without_dense_temporaries():
    n = 100_000  # a dense n x n cotangent would need 80 GB
    D = Diagonal(np.ones(n))
    for f in (np.trace, np.sum):
        _y, pullback = rrule(f, D)
        dD = pullback(1.0)[1]
        assert type(dD) is Diagonal and dD.d.shape == (n,)


def test_unsupported_keywords(make):
    A = make()
    with pytest.raises(UnsupportedKeywordError, match="out="):
        rrule(np.sum, A, out=np.empty(()))
    with pytest.raises(UnsupportedKeywordError, match="initial="):
        rrule(np.sum, A, initial=1.0)
    with pytest.raises(UnsupportedKeywordError, match="out="):
        rrule(np.trace, A, out=np.empty(()))
