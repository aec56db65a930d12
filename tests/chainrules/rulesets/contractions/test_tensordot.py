"""Rules of chainrules/rulesets/contractions/tensordot.py, checked against finite differences."""

from __future__ import annotations

import numpy as np
import pytest

import chainrules  # noqa: F401  (registers the rules)
from chainrules import ProjectionError, rrule
from chainrules.testing import test_frule, test_rrule

AXES_FORMS = [
    ((2, 3), (3, 2), 1),                    # an int N
    ((2, 3, 4), (3, 4, 2), 2),              # the default N = 2
    ((2, 3), (2, 3), 0),                    # N = 0: an outer product
    ((2, 3), (3, 2), (1, 0)),               # a pair of ints
    ((2, 3, 4), (4, 3, 2), ([1, 2], [1, 0])),  # a pair of sequences, in a different order
    ((2, 3), (2, 3), ((0, 1), (0, 1))),     # everything contracted: a scalar
    ((3, 2), (3, 2), (-2, -2)),             # negative axes
    ((2, 3, 4), (4, 2), ([-1, 0], [0, 1])),
]


@pytest.mark.parametrize(("shape_a", "shape_b", "axes"), AXES_FORMS)
def test_tensordot(shape_a, shape_b, axes, dtype, rand):
    a, b = rand(shape_a, dtype), rand(shape_b, dtype)
    test_rrule(np.tensordot, a, b, axes)
    test_frule(np.tensordot, a, b, axes)


def test_tensordot_axes_by_keyword_and_default(rand):
    a, b = rand((2, 3, 4)), rand((3, 4, 2))
    test_rrule(np.tensordot, a, b)
    test_rrule(np.tensordot, a, b, fkwargs={"axes": 2})
    test_frule(np.tensordot, rand((2, 3)), rand((3, 2)), fkwargs={"axes": 1})


def test_tensordot_scalars_and_mixed_dtypes(rand):
    test_rrule(np.tensordot, 2.0, rand(3), 0)
    test_rrule(np.tensordot, rand((2, 3)), rand((3, 2), np.complex128), 1)
    test_rrule(np.tensordot, rand((2, 3), np.float32), rand((3, 2)), 1)


def test_tensordot_wrong_cotangent_shape(rand):
    _, pullback = rrule(np.tensordot, rand((2, 3)), rand((3, 2)), 1)
    with pytest.raises(ProjectionError, match=r"numpy\.tensordot pullback: output cotangent"):
        pullback(np.ones((3, 3)))
