"""Rules of chainrules/rulesets/arrays/creation.py, checked against finite differences."""

from __future__ import annotations

import numpy as np
import pytest

import chainrules  # noqa: F401  (registers the rules)
from chainrules import NoTangent, ZeroTangent, frule, rrule, unthunk
from chainrules.testing import check_approx, test_frule, test_rrule


def test_full(dtype, rand):
    test_rrule(np.full, (2, 3), rand(dtype=dtype)[()])
    test_rrule(np.full, (2, 3), rand(3, dtype=dtype))
    test_frule(np.full, (2, 3), rand(1, 3, dtype=dtype))
    test_rrule(np.full, 4, 2.5)
    test_rrule(np.full, (2,), rand(dtype=dtype)[()], fkwargs={"dtype": dtype})


def test_full_like(dtype, rand):
    test_rrule(np.full_like, rand(2, 3, dtype=dtype), rand(3, dtype=dtype))
    test_frule(np.full_like, rand(2, 3, dtype=dtype), rand(3, dtype=dtype))
    _, pullback = rrule(np.full_like, rand(2), 1.0)
    assert pullback(np.ones(2))[1] == ZeroTangent()  # the values of `a` do not matter


@pytest.mark.parametrize("args", [(0.5, 3.2, 0.7), (1.3, 4.1), (2.0, -1.1, -0.6), (3.5,)])
def test_arange(args, rand):
    for dtype in (np.float64, np.float32):
        values = tuple(dtype(v) for v in args)
        test_rrule(np.arange, *values)
        test_frule(np.arange, *values)
    test_rrule(np.arange, 1, 5, 2)  # integers: nothing differentiated


@pytest.mark.parametrize("kwargs", [{}, {"endpoint": False}, {"num": 1}, {"num": 2, "endpoint": False}])
def test_linspace_scalars(kwargs, dtype, rand):
    start, stop = rand(dtype=dtype)[()], rand(dtype=dtype)[()]
    test_rrule(np.linspace, start, stop, fkwargs=kwargs)
    test_frule(np.linspace, start, stop, fkwargs=kwargs)


def test_linspace_arrays_axes_and_steps(dtype, rand):
    test_rrule(np.linspace, rand(2, dtype=dtype), rand(3, 1, dtype=dtype), 4)
    test_frule(np.linspace, rand(2, dtype=dtype), rand(3, 1, dtype=dtype), 4, True, False, None, 1)
    test_rrule(np.linspace, rand(2, dtype=dtype), rand(2, dtype=dtype), 4, False, False, None, -1)
    test_rrule(np.linspace, rand(2, dtype=dtype), rand(2, dtype=dtype), 4, True, True)
    test_frule(np.linspace, rand(2, dtype=dtype), rand(2, dtype=dtype), 4, True, True)
    test_rrule(np.linspace, 1.0, 2.0, 4, fkwargs={"retstep": True})


def test_logspace(dtype, rand):
    test_rrule(np.logspace, rand(dtype=dtype)[()], rand(dtype=dtype)[()], 4)
    test_frule(np.logspace, rand(dtype=dtype)[()], rand(dtype=dtype)[()], 4)


def test_logspace_base_and_axis(rand):
    for dtype in (np.float64, np.float32):
        base = np.array([2.0, 3.0]).astype(dtype)
        test_rrule(np.logspace, rand(2, dtype=dtype), rand(2, dtype=dtype), 3, True, base)
        test_frule(np.logspace, rand(2, dtype=dtype), rand(2, dtype=dtype), 3, True, base)
    test_rrule(np.logspace, 0.5, rand(3), 3, False, 2.5, None, 1)


def test_geomspace(rand):
    for dtype in (np.float64, np.float32):
        test_rrule(np.geomspace, dtype(0.5), np.array([2.0, 3.0]).astype(dtype), 4)
    test_frule(np.geomspace, -0.5, -2.0, 4, False)
    test_rrule(np.geomspace, 1.5, 3.0, 3, True, None, 0)
    test_rrule(np.geomspace, 1.0 + 1j, 2.0 + 0.5j, 4)
    test_frule(np.geomspace, 1.0 + 1j, 2.0 + 0.5j, 4)


def test_meshgrid(dtype, rand):
    test_rrule(np.meshgrid, rand(2, dtype=dtype), rand(3, dtype=dtype))
    test_frule(np.meshgrid, rand(2, dtype=dtype), rand(3, dtype=dtype), rand(2, dtype=dtype))
    test_rrule(np.meshgrid, rand(2, dtype=dtype), rand(3, dtype=dtype), rand(1, 2, dtype=dtype),
               fkwargs={"indexing": "ij"})
    test_rrule(np.meshgrid, rand(2, dtype=dtype), rand(3, dtype=dtype), fkwargs={"sparse": True})
    test_rrule(np.meshgrid, rand(4, dtype=dtype))


def test_constant_creation_is_non_differentiable():
    for f, args in [(np.zeros, (3,)), (np.ones_like, (np.ones(2),)), (np.eye, (2,)), (np.hanning, (4,))]:
        y, pullback = rrule(f, *args)
        assert all(isinstance(c, NoTangent) for c in pullback(np.ones(np.shape(y))))


def test_geomspace_array_start_along_a_later_axis(rand):
    # Regression: a scalar end point was given the samples' axis with expand_dims (AxisError for axis=1).
    start = np.array([1.0, 2.0])
    test_rrule(np.geomspace, start, 10.0, fkwargs={"num": 3, "axis": 1})
    test_frule(np.geomspace, start, 10.0, fkwargs={"num": 3, "axis": 1})
    test_rrule(np.geomspace, 2.0, np.array([[1.5, 3.0]]), 4, True, None, 2)


def test_linspace_without_samples_returns_a_constant_nan_step(rand):
    # Found by test_properties.py: num=0 with retstep=True and an array start raised in the frule (NumPy's step is
    # a constant NaN there; its tangent is zero).
    start = rand(1)
    (samples, step), tangent = frule((NoTangent(), np.ones(1), 1.0, NoTangent(), NoTangent(), NoTangent()),
                                     np.linspace, start, 0.0, 0, False, True)
    assert samples.shape == (0, 1) and np.isnan(step)
    check_approx(unthunk(tangent[1]), 0.0)  # a constant (NaN) step: derivative zero
    _, pullback = rrule(np.linspace, start, 0.0, 0, False, True)
    check_approx(unthunk(pullback((np.zeros((0, 1)), 1.0))[1]), np.zeros(1))
