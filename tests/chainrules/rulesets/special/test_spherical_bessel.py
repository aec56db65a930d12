"""Rules of chainrules/rulesets/special/spherical_bessel.py."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.special as sc

import chainrules  # noqa: F401  (registers the rules)
from chainrules import rrule
from chainrules.testing import PrimalAndTangent, test_frule, test_rrule
from chainrules_core import NoTangent

FUNCTIONS = [sc.spherical_jn, sc.spherical_yn, sc.spherical_in, sc.spherical_kn]


@pytest.mark.parametrize("f", FUNCTIONS, ids=lambda f: f.__name__)
@pytest.mark.parametrize("derivative", [False, True])
def test_value_and_derivative(f, derivative):
    n = np.array([0, 1, 2, 3, 8])
    z = np.array([1e-3, 0.7, 2.0, 9.0, 30.0])
    test_rrule(f, n, z, derivative)
    test_frule(f, n, z, fkwargs={"derivative": derivative})
    test_rrule(f, n[:3], (z[:3] + 0.4j), derivative)
    test_rrule(f, n[:2], z[1:3].astype(np.float32), derivative)


@pytest.mark.parametrize("f", [sc.spherical_jn, sc.spherical_in])
def test_at_zero(f):
    # j_n''(0), i_n''(0): the limits of the differential equation's formula
    for n in range(5):
        _, pullback = rrule(f, n, 0.0, True)
        h = 1e-4
        expected = (f(n, h, derivative=True) - f(n, -h, derivative=True)) / (2 * h)
        assert pullback(1.0)[2] == pytest.approx(expected, abs=1e-7)


def test_float_order_is_an_index():
    # SciPy truncates a float order: piecewise constant, NoTangent()
    test_rrule(sc.spherical_jn, PrimalAndTangent(np.array([1.0, 2.0]), NoTangent()), np.array([0.5, 3.0]))
    assert rrule(sc.spherical_yn, 2.0, 1.5)[1](1.0)[1] == NoTangent()
