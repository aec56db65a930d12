"""Rules of chainrules/rulesets/arrays/editing.py, checked against finite differences."""

from __future__ import annotations

import numpy as np
import pytest

import chainrules  # noqa: F401  (registers the rules)
from chainrules.testing import PrimalAndTangent, test_frule, test_rrule


def test_delete(dtype, rand):
    x = rand(3, 4, dtype=dtype)
    test_rrule(np.delete, x, 1)
    test_rrule(np.delete, x, [0, 2], 1)
    test_rrule(np.delete, x, slice(0, 2), 0)
    test_frule(np.delete, x, [0, 2], 1)
    test_rrule(np.delete, x, 1, fkwargs={"axis": 0})
    test_rrule(np.delete, x, fkwargs={"obj": [1, 3]})


def test_insert(dtype, rand):
    x = rand(3, 4, dtype=dtype)
    test_rrule(np.insert, x, 1, 5.0)
    test_rrule(np.insert, x, [1, 1], rand(2, 4, dtype=dtype), 0)  # repeated positions
    test_rrule(np.insert, x, 2, rand(3, dtype=dtype), 1)
    test_rrule(np.insert, x, 2, rand(1, dtype=dtype), 1)  # one value broadcast into a column
    test_frule(np.insert, x, [0, 3], rand(2, dtype=dtype))
    test_rrule(np.insert, x, 1, rand(4, dtype=dtype), fkwargs={"axis": 0})


CASES = [((1,), ()), ((1,), ("f",)), ((1,), ("b",)), (None, ("fb", None)), (None, ("f", 1)), (None, ("fb", 0))]


@pytest.mark.parametrize(("row", "args"), CASES)
def test_trim_zeros(row, args, dtype):
    """Finite differences along directions that keep the trimmed zeros at zero (elsewhere no derivative)."""
    z = np.array([[0, 0, 0, 0], [0, 1.5, 2, 0], [0, 3, 0.5, 0], [0, 0, 0, 0]]).astype(dtype)
    x = z[row[0]] if row else z
    direction = (np.random.default_rng(0).standard_normal(x.shape) * (x != 0)).astype(dtype)
    test_frule(np.trim_zeros, PrimalAndTangent(x, direction), *args)  # also checks the rrule against the frule
