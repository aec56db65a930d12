"""Rules of chainrules/rulesets/elementwise/special_numpy.py, checked against finite differences."""

from __future__ import annotations

import numpy as np
import pytest

import chainrules  # noqa: F401  (registers the rules)
from chainrules.rulesets.elementwise.special_numpy import sinc_derivative
from chainrules.testing import test_frule, test_rrule, test_scalar

UNARY = [
    (np.sinc, (-3.0, 3.0), (-1.5, 1.5)),
    (np.i0, (-3.0, 3.0), None),
]


def test_unary(unary_case, check_unary):
    f, real_range, complex_range, dtype = unary_case
    check_unary(f, *real_range, dtype, complex_range=complex_range)


@pytest.mark.parametrize("x", [0.0, 1e-8, -1e-3, 0.0318, 0.0319, 0.2, 1.0, 2.5])
def test_sinc_near_zero_and_at_the_series_boundary(x):
    test_scalar(np.sinc, x)
    test_scalar(np.sinc, np.float32(x))


def test_sinc_derivative_is_continuous_at_the_series_boundary():
    # The series and the direct formula agree where the rule switches between them.
    t = 0.1 / np.pi
    below, above = np.nextafter(t, 0), np.nextafter(t, 1)
    assert np.isclose(sinc_derivative(below, np.sinc(below)), sinc_derivative(above, np.sinc(above)), rtol=1e-12)


def test_sinc_complex_near_zero():
    test_scalar(np.sinc, 1e-3 + 2e-3j)
    test_rrule(np.sinc, np.array([0j, 1e-4 - 1e-4j, 0.3 + 0.2j]))
    test_frule(np.sinc, np.array([0j, 1e-4 - 1e-4j, 0.3 + 0.2j]))
