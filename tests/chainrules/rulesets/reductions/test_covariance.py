"""Tests of chainrules/rulesets/reductions/covariance.py: cov and corrcoef."""

from __future__ import annotations

import numpy as np
import pytest

import chainrules  # noqa: F401  (registers the rules)
from chainrules.testing import test_frule, test_rrule
from chainrules_core import NoTangent, ProjectionError, ZeroTangent, rrule, unthunk

FREQUENCIES = np.array([1, 2, 1, 3, 1])


def test_cov_layouts(dtype, rand):
    x, y = rand((3, 5), dtype), rand((2, 5), dtype)
    test_rrule(np.cov, x)
    test_frule(np.cov, x)
    test_rrule(np.cov, x, y)                                   # y stacked under m
    test_frule(np.cov, x, y)
    test_rrule(np.cov, x.T.copy(), y.T.copy(), False)           # rowvar=False by position
    test_rrule(np.cov, x.T.copy(), fkwargs={"rowvar": False})   # ... and by keyword
    test_rrule(np.cov, x[0])                                    # one variable: a 0-d output
    test_rrule(np.cov, x[0], y[1])
    test_rrule(np.cov, x[0], y[1], False)
    test_frule(np.cov, x[0], y.T.copy(), False)


@pytest.mark.parametrize("bias", [False, True])
@pytest.mark.parametrize("ddof", [None, 0, 2])
def test_cov_weights_and_normalisation(bias, ddof, dtype, rand):
    x = rand((3, 5), dtype)
    aweights = np.abs(rand(5)) + 0.5
    test_rrule(np.cov, x, None, True, bias, ddof)
    test_rrule(np.cov, x, None, True, bias, ddof, None, aweights)           # analytic weights: differentiated
    test_frule(np.cov, x, None, True, bias, ddof, None, aweights)
    test_rrule(np.cov, x, None, True, bias, ddof, FREQUENCIES)              # frequencies: integers, NoTangent
    test_rrule(np.cov, x, None, True, bias, ddof, FREQUENCIES, aweights)
    test_frule(np.cov, x, None, True, bias, ddof, FREQUENCIES, aweights)
    test_rrule(np.cov, x, fkwargs={"ddof": ddof, "bias": bias, "aweights": aweights})


def test_corrcoef(dtype, rand):
    x, y = rand((3, 5), dtype), rand((2, 5), dtype)
    test_rrule(np.corrcoef, x)
    test_frule(np.corrcoef, x)
    test_rrule(np.corrcoef, x, y)
    test_rrule(np.corrcoef, x.T.copy(), None, False)
    test_rrule(np.corrcoef, x[0], y[0])
    test_frule(np.corrcoef, x[0], y[0])


def test_corrcoef_of_one_variable_is_constant(rand):
    x = rand(5)
    y, pullback = rrule(np.corrcoef, x)
    assert y == 1.0
    assert isinstance(pullback(1.0)[1], ZeroTangent)
    test_rrule(np.corrcoef, x)


def test_dtype_and_integer_input(rand):
    x = rand((3, 5))
    test_rrule(np.cov, x.astype(np.float32), fkwargs={"dtype": np.float64})
    test_rrule(np.corrcoef, x.astype(np.float32), fkwargs={"dtype": np.float64})
    dx = unthunk(rrule(np.cov, x.astype(np.float32))[1](np.ones((3, 3)))[1])
    assert dx.dtype == np.float32
    test_rrule(np.cov, np.arange(10).reshape(2, 5))
    assert isinstance(rrule(np.cov, np.arange(10).reshape(2, 5))[1](np.ones((2, 2)))[1], NoTangent)


def test_wrong_shaped_cotangent(rand):
    x = rand((3, 5))
    with pytest.raises(ProjectionError, match=r"numpy\.cov pullback.*\(2, 2\).*\(3, 3\)"):
        rrule(np.cov, x)[1](np.ones((2, 2)))
    with pytest.raises(ProjectionError, match=r"numpy\.corrcoef pullback"):
        rrule(np.corrcoef, x)[1](np.ones(3))
