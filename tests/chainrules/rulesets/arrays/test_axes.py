"""Rules of chainrules/rulesets/arrays/axes.py, checked against finite differences."""

from __future__ import annotations

import numpy as np
import pytest

import chainrules  # noqa: F401  (registers the rules)
from chainrules import ProjectionError, rrule
from chainrules.testing import test_frule, test_rrule


@pytest.mark.parametrize("axes", [None, (1, 2, 0), (-1, 0, 1)])
def test_transpose(axes, dtype, rand):
    x = rand(2, 3, 4, dtype=dtype)
    test_rrule(np.transpose, x, axes)
    test_frule(np.transpose, x, axes)
    test_rrule(np.transpose, x, fkwargs={"axes": axes})
    test_rrule(np.permute_dims, x, axes)  # the same function object


def test_transpose_method_and_small_inputs(dtype, rand):
    x = rand(2, 3, 4, dtype=dtype)
    test_rrule(np.ndarray.transpose, x)
    test_rrule(np.ndarray.transpose, x, 2, 0, 1)
    test_rrule(np.ndarray.transpose, x, (2, 0, 1))
    test_frule(np.ndarray.transpose, x, 1, 0, 2)
    test_rrule(np.transpose, [[1.0, 2.0]])
    test_rrule(np.transpose, 3.0)


@pytest.mark.parametrize("f", [np.matrix_transpose, np.linalg.matrix_transpose])
def test_matrix_transpose(f, dtype, rand):
    test_rrule(f, rand(2, 3, 4, dtype=dtype))
    test_frule(f, rand(3, 2, dtype=dtype))


@pytest.mark.parametrize("f", [np.swapaxes, np.ndarray.swapaxes])
def test_swapaxes(f, dtype, rand):
    x = rand(2, 3, 4, dtype=dtype)
    test_rrule(f, x, 0, 2)
    test_frule(f, x, -1, 1)
    if f is np.swapaxes:  # the method takes no keywords
        test_rrule(f, x, 0, fkwargs={"axis2": 1})


@pytest.mark.parametrize(("source", "destination"), [(0, -1), ((0, 1), (2, 0)), (-1, 0)])
def test_moveaxis(source, destination, dtype, rand):
    x = rand(2, 3, 4, dtype=dtype)
    test_rrule(np.moveaxis, x, source, destination)
    test_frule(np.moveaxis, x, source, destination)
    test_rrule(np.moveaxis, x, fkwargs={"source": source, "destination": destination})


@pytest.mark.parametrize("axis", [0, 1, 2, -1])
@pytest.mark.parametrize("start", [0, 1, 3, -1])
def test_rollaxis(axis, start, rand):
    x = rand(2, 3, 4)
    test_rrule(np.rollaxis, x, axis, start)
    test_frule(np.rollaxis, x, axis, start)


def test_rollaxis_spellings(dtype, rand):
    x = rand(2, 3, 4, dtype=dtype)
    test_rrule(np.rollaxis, x, 2)
    test_rrule(np.rollaxis, x, 2, fkwargs={"start": 1})


def test_required_arguments_by_keyword_and_missing(rand):
    x = rand(2, 3)
    with pytest.raises(TypeError, match="swapaxes\\(\\) missing required argument 'axis2'"):
        rrule(np.swapaxes, x, 0)


def test_wrong_cotangent_shape(rand):
    _, pullback = rrule(np.transpose, rand(2, 3))
    with pytest.raises(ProjectionError, match=r"np\.transpose pullback: output cotangent"):
        pullback(np.ones((2, 3)))
