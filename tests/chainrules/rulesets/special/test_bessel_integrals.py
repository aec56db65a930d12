"""Rules of chainrules/rulesets/special/bessel_integrals.py, with besselpoly's partials against mpmath."""

from __future__ import annotations

import mpmath as mp
import numpy as np
import pytest
import scipy.special as sc

import chainrules  # noqa: F401  (registers the rules)
from chainrules import rrule
from chainrules.rulesets.special.bessel_integrals import i0_minus_one_over_x, one_minus_j0_over_x
from chainrules.testing import test_frule, test_rrule
from chainrules_core import NotImplementedTangent, unthunk


@pytest.mark.parametrize("f", [sc.itj0y0, sc.it2j0y0, sc.iti0k0, sc.it2i0k0], ids=lambda f: f.__name__)
def test_integrals(f):
    x = np.array([1e-3, 0.45, 0.55, 3.0, 8.0])  # both sides of the series switch at 1/2
    test_rrule(f, x)
    test_frule(f, x)
    test_rrule(f, x[1:3].astype(np.float32))


def test_cancelling_integrands_near_zero():
    x = np.array([1e-8, 0.3, 0.499, 0.501])
    with mp.workdps(40):
        j = [float((1 - mp.besselj(0, xi)) / xi) for xi in x]
        i = [float((mp.besseli(0, xi) - 1) / xi) for xi in x]
    np.testing.assert_allclose(one_minus_j0_over_x(x), j, rtol=1e-14)
    np.testing.assert_allclose(i0_minus_one_over_x(x), i, rtol=1e-14)


def test_besselpoly_all_arguments():
    a = np.array([0.3, 1.5, 3.0, 5.0])
    lmb = np.array([0.0, 1.0, -0.5, 2.5])
    nu = np.array([0.0, 2.0, 1.0, 0.5])
    test_rrule(sc.besselpoly, a, lmb, nu)
    test_frule(sc.besselpoly, a, lmb, nu)


def test_besselpoly_at_a_zero():
    # besselpoly(0, lmb, nu) is 1/(lmb+1) at nu = 0 and 0 for nu > 0 (SciPy gives NaN for a < 0)
    _, pullback = rrule(sc.besselpoly, np.zeros(2), np.array([1.0, 1.0]), np.array([0.0, 2.0]))
    da, dl, dn = (unthunk(c) for c in pullback(np.ones(2))[1:])
    np.testing.assert_allclose(dl, [-0.25, 0.0])
    assert np.isnan(dn[0]) and dn[1] == 0.0
    np.testing.assert_allclose(da, [0.0, 0.0], atol=1e-15)


def test_besselpoly_partials_match_mpmath():
    for a, lmb, nu in [(0.5, 2.0, 1.5), (3.0, 0.5, 0.0), (5.0, 1.0, 2.5)]:
        _, pullback = rrule(sc.besselpoly, a, lmb, nu)
        ours = [unthunk(c) for c in pullback(1.0)[1:]]

        def integral(a_, l_, n_):
            return mp.quad(lambda t: t ** l_ * mp.besselj(n_, 2 * a_ * t), [0, 1])

        with mp.workdps(30):
            expected = [mp.diff(lambda s, p=(lmb, nu): integral(s, *p), a),
                        mp.diff(lambda s, p=(a, nu): integral(p[0], s, p[1]), lmb),
                        mp.diff(lambda s, p=(a, lmb): integral(*p, s), nu)]
        for o, e in zip(ours, expected):
            assert abs(o - float(e)) <= 1e-9 * abs(float(e)), (a, lmb, nu, ours, expected)


def test_besselpoly_not_implemented_where_its_series_cancels():
    _, pullback = rrule(sc.besselpoly, 25.0, 1.0, 2.0)
    assert all(isinstance(unthunk(c), NotImplementedTangent) for c in pullback(1.0)[1:])
