"""Rules of chainrules/rulesets/contractions/integration.py, checked against finite differences."""

from __future__ import annotations

import numpy as np
import pytest

import chainrules  # noqa: F401  (registers the rules)
from chainrules import NoTangent, ProjectionError, ZeroTangent, rrule
from chainrules.testing import test_frule, test_rrule


def _points(rand, shape, dtype=np.float64, axis=-1):
    """Increasing sample points along ``axis``."""
    return np.cumsum(0.5 + np.abs(rand(shape, dtype)), axis=axis).astype(dtype)


TRAPEZOID_CASES = [
    ((4,), None, (), {}),
    ((4,), (4,), (), {}),                          # x by position
    ((4,), None, (None, 0.3), {}),                 # dx by position
    ((3, 4), (4,), (), {}),                        # 1-d x along the last axis
    ((4, 3), (4,), (1.0, 0), {"axis_is_zero": True}),  # 1-d x along axis 0
    ((3, 4), None, (), {"dx": 0.5, "axis": 0}),    # by keyword
    ((3, 4), (3, 4), (), {}),                      # x of y's shape
    ((2, 4), (3, 1, 4), (), {}),                   # x broadcast against y
    ((3, 4), None, (None, "array"), {}),           # an array dx (broadcast)
    ((4,), (4,), (2.0,), {}),                      # dx given but unused
]


@pytest.mark.parametrize(("shape", "x_shape", "args", "kwargs"), TRAPEZOID_CASES)
def test_trapezoid(shape, x_shape, args, kwargs, dtype, rand):
    real = np.float32 if dtype == np.float32 else np.float64
    kwargs = dict(kwargs)
    axis = 0 if kwargs.pop("axis_is_zero", False) or kwargs.get("axis") == 0 else -1
    y = rand(shape, dtype)
    positional = [y]
    if x_shape is not None:
        positional.append(_points(rand, x_shape, real, axis if len(x_shape) > 1 else -1))
    for value in args:
        positional.append(rand((shape[0], 1), real) if value == "array" else value)
    test_rrule(np.trapezoid, *positional, fkwargs=kwargs)
    test_frule(np.trapezoid, *positional, fkwargs=kwargs)


def test_trapezoid_keywords_and_unused_dx(rand):
    y, x = rand(4), _points(rand, 4)
    test_rrule(np.trapezoid, y, fkwargs={"x": x})
    test_rrule(np.trapezoid, y, x, 2.0)
    assert rrule(np.trapezoid, y, x, 2.0)[1](1.0)[3] == ZeroTangent()       # dx is not used with x
    test_rrule(np.trapezoid, y, np.arange(4))                                  # integer x: no tangent
    assert rrule(np.trapezoid, y, np.arange(4))[1](1.0)[2] == NoTangent()


def test_trapezoid_wrong_cotangent(rand):
    _, pullback = rrule(np.trapezoid, rand((3, 4)))
    with pytest.raises(ProjectionError, match=r"numpy\.trapezoid pullback: output cotangent"):
        pullback(np.ones(4))
