"""Rules of chainrules/rulesets/special/spheroidal.py.

mpmath has no spheroidal functions. Oracles: finite differences of SciPy's functions (the
testers); SciPy's characteristic value differenced in c, against the Hellmann-Feynman
integral over SciPy's angular function (two different SciPy routines); the small-c
expansion of the characteristic value (A&S 21.7.5).
"""

import numpy as np
import pytest
import scipy.special as sc

import chainrules  # noqa: F401  (registers the rules)
from chainrules.rulesets.special._numerical import parameter_derivative
from chainrules.testing import PrimalAndTangent, test_frule, test_rrule
from chainrules_core import NoTangent, NotImplementedTangent, frule, rrule, unthunk


def dc(f, m, n, c):
    return frule((NoTangent(), NoTangent(), NoTangent(), 1.0), f, m, n, c)[1]


@pytest.mark.parametrize("f", [sc.pro_cv, sc.obl_cv], ids=lambda f: f.__name__)
def test_characteristic_values(f):
    test_rrule(f, np.array([0, 1, 2]), np.array([0, 3, 4]), np.array([0.5, 1.5, 3.0]))
    test_frule(f, 1, 2, 4.0)
    for m, n, c in [(0, 0, 0.5), (1, 3, 1.5), (2, 4, 6.0)]:
        reference, error = parameter_derivative(lambda s, m=m, n=n: f(m, n, s), np.array([c]))
        assert error[0] < 1e-11 * abs(reference[0])
        assert np.isclose(dc(f, m, n, c), reference[0], rtol=1e-9), (m, n, c)


def test_characteristic_value_small_c_expansion():
    # A&S 21.7.5: lambda_mn = n(n+1) + c^2 (2n(n+1) - 2m^2 - 1) / ((2n-1)(2n+3)) + O(c^4), minus c^2 oblate
    c = 1e-3
    for m, n in [(0, 0), (0, 2), (1, 1), (1, 3), (2, 3)]:
        slope = 2 * c * (2 * n * (n + 1) - 2 * m * m - 1) / ((2 * n - 1) * (2 * n + 3))
        assert np.isclose(dc(sc.pro_cv, m, n, c), slope, rtol=1e-5)
        assert np.isclose(dc(sc.obl_cv, m, n, c), -slope, rtol=1e-5)


@pytest.mark.parametrize("f", [sc.pro_cv_seq, sc.obl_cv_seq], ids=lambda f: f.__name__)
def test_characteristic_value_sequences(f):
    test_rrule(f, 1, 4, 1.5)
    test_frule(f, 0, 2, 0.3)
    single = {sc.pro_cv_seq: sc.pro_cv, sc.obl_cv_seq: sc.obl_cv}[f]
    assert np.allclose(dc(f, 1, 4, 1.5), [dc(single, 1, n, 1.5) for n in range(1, 5)], rtol=1e-12)


@pytest.mark.parametrize("f, x", [(sc.pro_ang1, [-0.6, 0.4, 0.85]), (sc.obl_ang1, [-0.6, 0.4, 0.85]),
                                  (sc.pro_rad1, [1.6, 2.2, 3.5]), (sc.pro_rad2, [1.6, 2.2, 3.5]),
                                  (sc.obl_rad1, [0.5, 1.6, 3.5]), (sc.obl_rad2, [1.6, 2.2, 3.5])],
                         ids=lambda v: getattr(v, "__name__", ""))
def test_functions(f, x):
    test_rrule(f, np.array([0, 1, 2]), np.array([0, 3, 4]), np.array([0.5, 1.5, 3.0]), np.array(x))
    test_frule(f, 1, 3, 1.5, np.array(x))


@pytest.mark.parametrize("f, cv, x", [(sc.pro_ang1_cv, sc.pro_cv, 0.4), (sc.obl_rad1_cv, sc.obl_cv, 1.6),
                                      (sc.pro_rad2_cv, sc.pro_cv, 2.2)], ids=lambda v: getattr(v, "__name__", ""))
def test_cv_variants_in_x_and_not_in_c_or_cv(f, cv, x):
    value = float(cv(1, 3, 1.5))
    test_rrule(f, 1, 3, PrimalAndTangent(1.5, NoTangent()), PrimalAndTangent(value, NoTangent()), np.array([x]))
    _, pullback = rrule(f, 1, 3, 1.5, value, x)
    _, _, _, d_c, d_cv, d_x = (unthunk(t) for t in pullback((1.0, 1.0)))
    assert isinstance(d_c, NotImplementedTangent) and isinstance(d_cv, NotImplementedTangent)
    assert "characteristic value" in d_c.info and np.isfinite(d_x)


def test_second_kind_near_one_is_not_implemented_where_scipy_misses_its_equation():
    # SciPy's pro_rad2 at x = 1.3 is smooth but misses its differential equation by 1%
    _, pullback = rrule(sc.pro_rad2, 1, 3, 1.5, 1.3)
    _, _, _, _, d_x = (unthunk(t) for t in pullback((0.0, 1.0)))
    assert isinstance(d_x, NotImplementedTangent) and "differential equation" in d_x.info
    _, pullback = rrule(sc.pro_rad2, 1, 3, 1.5, 1.3)
    assert np.isfinite(unthunk(pullback((1.0, 0.0))[4]))  # the first output's derivative is SciPy's own


def test_negative_c_is_not_implemented():
    _, pullback = rrule(sc.pro_ang1, 1, 3, -1.5, 0.4)
    assert isinstance(unthunk(pullback((1.0, 0.0))[3]), NotImplementedTangent)
