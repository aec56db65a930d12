"""Transposes, conjugates and adjoints of structured matrices."""

from __future__ import annotations

import numpy as np
import pytest

from chainrules import rrule
from chainrules.structured import StructuredMatrix
from chainrules.testing import test_frule, test_rrule

FUNCTIONS = [np.transpose, np.matrix_transpose, StructuredMatrix.T.fget, StructuredMatrix.mT.fget,
             StructuredMatrix.transpose, StructuredMatrix.conj, StructuredMatrix.adjoint]


@pytest.mark.parametrize("f", FUNCTIONS, ids=lambda f: getattr(f, "__qualname__", str(f)))
def test_transposes(make, dtype, f, fdm):
    test_rrule(f, make(dtype), fdm=fdm)
    test_frule(f, make(dtype), fdm=fdm)


def test_axes_by_position_and_keyword(make, fdm):
    A = make()
    test_rrule(np.transpose, A, (1, 0), fdm=fdm)
    test_rrule(np.transpose, A, fkwargs={"axes": (0, 1)}, fdm=fdm)
    test_rrule(StructuredMatrix.transpose, A, 1, 0, fdm=fdm)
    test_frule(StructuredMatrix.transpose, A, (0, 1), fdm=fdm)


def test_cotangent_has_the_input_type(make):
    A = make()
    y, pullback = rrule(A.transpose)
    assert type(pullback(np.ones((3, 3)))[1]) is type(A)
    assert type(rrule(np.transpose, A)[1](y)[1]) is type(A)
