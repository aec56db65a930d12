"""Rules of chainrules/rulesets/linalg/aliases.py, checked against finite differences."""

from __future__ import annotations

import numpy as np
import pytest

import chainrules  # noqa: F401  (registers the rules)
from chainrules import rrule
from chainrules.testing import test_frule, test_rrule


# ---- the numpy.linalg spellings -------------------------------------------------------------------------------------
def test_linalg_matmul(dtype, rand):
    test_rrule(np.linalg.matmul, rand((2, 3, 4), dtype), rand((4, 2), dtype))
    test_frule(np.linalg.matmul, rand((3,), dtype), rand((2, 3, 4), dtype))


def test_linalg_outer(dtype, rand):
    test_rrule(np.linalg.outer, rand((3,), dtype), rand((4,), dtype))
    test_frule(np.linalg.outer, rand((3,), dtype), rand((4,), dtype))
    with pytest.raises(ValueError, match="one-dimensional"):
        rrule(np.linalg.outer, rand((2, 2)), rand((2,)))


def test_linalg_trace(dtype, rand):
    test_rrule(np.linalg.trace, rand((2, 3, 4), dtype))
    test_frule(np.linalg.trace, rand((2, 3, 4), dtype), fkwargs={"offset": 1})
    test_rrule(np.linalg.trace, rand((3, 4), dtype), fkwargs={"offset": -1})


def test_linalg_cross(dtype, rand):
    test_rrule(np.linalg.cross, rand((2, 3), dtype), rand((3,), dtype))
    test_frule(np.linalg.cross, rand((3, 2), dtype), rand((3, 2), dtype), fkwargs={"axis": 0})
    with pytest.raises(ValueError, match="3-dimensional vectors"):
        rrule(np.linalg.cross, rand((2,)), rand((2,)))


def test_linalg_vecdot(dtype, rand):
    test_rrule(np.linalg.vecdot, rand((2, 3), dtype), rand((3,), dtype))
    test_frule(np.linalg.vecdot, rand((3, 2), dtype), rand((3, 2), dtype), fkwargs={"axis": 0})


def test_linalg_tensordot(dtype, rand):
    test_rrule(np.linalg.tensordot, rand((2, 3, 4), dtype), rand((3, 4, 2), dtype))
    test_frule(np.linalg.tensordot, rand((2, 3), dtype), rand((3, 4), dtype), fkwargs={"axes": 1})


def test_linalg_diagonal_and_matrix_transpose_have_rules(rand):
    """Registered with the array functions; checked here as part of numpy.linalg's coverage."""
    test_rrule(np.linalg.diagonal, rand((2, 3, 4)))
    test_rrule(np.linalg.matrix_transpose, rand((2, 3, 4)))
