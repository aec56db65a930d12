"""Rules of chainrules/rulesets/contractions/trace_cross.py, checked against finite differences."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import chainrules  # noqa: F401  (registers the rules)
from chainrules import InplaceableThunk, NoTangent, ProjectionError, UnsupportedKeywordError, add_, rrule
from chainrules.testing import test_frule, test_rrule

TRACE_CASES = [
    ((3, 3), (), {}),
    ((3, 4), (1,), {}),                        # offset by position
    ((3, 4), (), {"offset": -1}),              # ... and by keyword
    ((4, 3), (), {"offset": 5}),               # an empty diagonal
    ((2, 3, 4), (0, 1, 2), {}),                # axes by position
    ((2, 3, 4), (), {"offset": 2, "axis1": -1, "axis2": 0}),
]


@pytest.mark.parametrize("f", [np.trace, np.ndarray.trace], ids=["np.trace", "np.ndarray.trace"])
@pytest.mark.parametrize(("shape", "args", "kwargs"), TRACE_CASES)
def test_trace(f, shape, args, kwargs, dtype, rand):
    a = rand(shape, dtype)
    test_rrule(f, a, *args, fkwargs=kwargs)
    test_frule(f, a, *args, fkwargs=kwargs)


def test_trace_method_and_dtype(rand):
    a = rand((3, 3), np.float32)
    y, pullback = rrule(a.trace, 1)
    assert y == a.trace(1) and len(pullback(1.0)) == 3
    test_rrule(np.trace, a, fkwargs={"dtype": np.float64})
    test_rrule(np.trace, rand((3, 3), np.complex128), fkwargs={"dtype": np.complex64})


def test_trace_cotangent_adds_in_place(rand):
    a = rand((3, 4))
    _, pullback = rrule(np.trace, a, 1)
    da = pullback(2.0)[1]
    assert isinstance(da, InplaceableThunk)
    acc = rand((3, 4))
    expected = acc + da.unthunk()
    out = add_(acc, da)
    assert out is acc                                  # written in place
    np.testing.assert_allclose(out, expected)


def test_trace_integer_input_and_errors(rand):
    test_rrule(np.trace, np.arange(9).reshape(3, 3))
    assert rrule(np.trace, np.arange(9).reshape(3, 3))[1](1.0)[1] == NoTangent()
    _, pullback = rrule(np.trace, rand((2, 3, 3)), 0, 1, 2)
    with pytest.raises(ProjectionError, match=r"numpy\.trace pullback: output cotangent"):
        pullback(np.ones(3))
    with pytest.raises(UnsupportedKeywordError):
        rrule(np.trace, rand((2, 2)), out=np.empty(()))


CROSS_CASES = [
    ((3,), (3,), {}),
    ((4, 3), (3,), {}),                                 # broadcast
    ((3, 2), (2, 1, 3), {"axisa": 0}),                  # vector axis of a first
    ((3, 2), (3, 2), {"axis": 0}),                      # axis overrides the others
    ((3, 2), (2, 3), {"axisa": 0, "axisc": 0}),
]


@pytest.mark.parametrize(("shape_a", "shape_b", "kwargs"), CROSS_CASES)
def test_cross(shape_a, shape_b, kwargs, dtype, rand):
    a, b = rand(shape_a, dtype), rand(shape_b, dtype)
    test_rrule(np.cross, a, b, fkwargs=kwargs)
    test_frule(np.cross, a, b, fkwargs=kwargs)


def test_cross_axes_by_position(rand):
    test_rrule(np.cross, rand((3, 2)), rand((2, 3)), 0, -1, 0)
    test_frule(np.cross, rand((3, 2)), rand((2, 3)), 0, -1, 0)


@pytest.mark.parametrize(("shape_a", "shape_b", "kwargs"), [
    ((2,), (2,), {}),                  # both 2-d: the output is the z component only
    ((4, 2), (3,), {}),                # 2 and 3 components
    ((3,), (2, 2), {}),
    ((2, 2), (2, 2), {}),
    ((2, 3), (3, 2), {"axisa": 0, "axisb": 1, "axisc": 0}),
])
def test_cross_two_component_vectors(shape_a, shape_b, kwargs, dtype, rand):
    a, b = rand(shape_a, dtype), rand(shape_b, dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # NumPy 2 deprecates 2-component vectors
        test_rrule(np.cross, a, b, fkwargs=kwargs)
        test_frule(np.cross, a, b, fkwargs=kwargs)


def test_cross_mixed_real_complex(rand):
    test_rrule(np.cross, rand(3), rand(3, np.complex128))
    test_rrule(np.cross, rand((2, 3), np.complex128), rand(3, np.float32))
