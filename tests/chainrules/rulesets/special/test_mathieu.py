"""Rules of chainrules/rulesets/special/mathieu.py.

mpmath has no Mathieu functions. The oracles: finite differences of SciPy's functions
(the testers), the power series of the characteristic values at small q (DLMF 28.6.1-28.6.5),
and the Fourier sums of the coefficients.
"""

import numpy as np
import pytest
import scipy.special as sc

import chainrules  # noqa: F401  (registers the rules)
from chainrules.testing import test_frule, test_rrule
from chainrules_core import NoTangent, frule, rrule, unthunk


def dq(f, *args):
    tangents = (NoTangent(), NoTangent(), 1.0) + (0.0,) * (len(args) - 2)
    return frule(tangents, f, *args)[1]


@pytest.mark.parametrize("m, q", [(0, 0.5), (1, 1.5), (2, 0.0), (3, -2.0), (4, 12.0), (6, 30.0)])
def test_characteristic_values(m, q):
    test_rrule(sc.mathieu_a, m, q)
    test_frule(sc.mathieu_a, m, q)
    if m >= 1:
        test_rrule(sc.mathieu_b, m, q)
        test_frule(sc.mathieu_b, m, q)


def test_characteristic_slopes_match_the_series_at_small_q():
    q = 1e-2
    # DLMF 28.6.1-28.6.5: a_0 = -q^2/2 + 7q^4/128, a_1 = 1 + q - q^2/8 - q^3/64, b_1 = 1 - q - q^2/8 + q^3/64,
    # b_2 = 4 - q^2/12 + 5 q^4/13824, a_2 = 4 + 5 q^2/12 - 763 q^4/13824
    expected = {(sc.mathieu_a, 0): -q + 7 * q ** 3 / 32, (sc.mathieu_a, 1): 1 - q / 4 - 3 * q ** 2 / 64,
                (sc.mathieu_b, 1): -1 - q / 4 + 3 * q ** 2 / 64, (sc.mathieu_b, 2): -q / 6 + 20 * q ** 3 / 13824,
                (sc.mathieu_a, 2): 5 * q / 6 - 4 * 763 * q ** 3 / 13824}
    for (f, m), slope in expected.items():
        assert np.isclose(dq(f, m, q), slope, rtol=1e-6, atol=1e-12), (f.__name__, m)


@pytest.mark.parametrize("f", [sc.mathieu_even_coef, sc.mathieu_odd_coef], ids=lambda f: f.__name__)
@pytest.mark.parametrize("m, q", [(1, 0.25), (2, 1.5), (3, 8.0), (6, 25.0)])
def test_coefficients(f, m, q):
    test_rrule(f, m, q)
    test_frule(f, m, q)


@pytest.mark.parametrize("f", [sc.mathieu_cem, sc.mathieu_sem], ids=lambda f: f.__name__)
@pytest.mark.parametrize("m, q", [(1, 1.5), (2, 0.5), (3, 6.0), (4, -2.5), (5, -0.3)])
def test_angular_functions(f, m, q):
    x = np.array([10.0, 75.0, 130.0])
    test_rrule(f, m, q, x)
    test_frule(f, m, q, x)


def test_angular_q_derivative_is_the_fourier_sum_of_the_coefficients_derivative():
    m, q, x = 2, 1.5, 40.0
    dcoef = dq(sc.mathieu_even_coef, m, q)
    k = 2 * np.arange(dcoef.size)
    assert np.isclose(unthunk(dq(sc.mathieu_cem, m, q, x)[0]), np.sum(dcoef * np.cos(k * np.deg2rad(x))), rtol=1e-12)


@pytest.mark.parametrize("f", [sc.mathieu_modcem1, sc.mathieu_modcem2, sc.mathieu_modsem1, sc.mathieu_modsem2],
                         ids=lambda f: f.__name__)
def test_radial_functions(f):
    test_rrule(f, np.array([1, 2, 3]), np.array([1.5, 0.5, 6.0]), np.array([0.7, 0.3, 1.2]))
    test_frule(f, 2, 2.5, 0.6)


def test_order_is_an_index():
    _, pullback = rrule(sc.mathieu_cem, 2.0, 1.5, 30.0)
    assert pullback((1.0, 1.0))[1] == NoTangent()
