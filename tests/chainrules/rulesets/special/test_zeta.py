"""Rules of chainrules/rulesets/special/zeta.py: zeta'(s) against mpmath's derivative across the Euler-Maclaurin and
reflection regimes (complex s too), the Hurwitz q derivative, both spellings of q, finite differences."""

from __future__ import annotations

import mpmath as mp
import numpy as np
import pytest
import scipy.special as sc

import chainrules  # noqa: F401  (registers the rules)
from chainrules import frule, rrule, unthunk
from chainrules.rulesets.special.zeta import zeta_derivative
from chainrules.testing import test_frule, test_rrule, test_scalar
from chainrules_core import NoTangent

mp.mp.dps = 30


def test_riemann_derivative_against_mpmath():
    points = [-30.5, -7.5, -2.0, -0.3, -0.2499, 0.0, 1e-10, 0.2499, 0.5, 0.999, 1.001, 2.0, 10.0, 60.0, 150.0]
    for s in points:
        expected = mp.zeta(s, 1, 1)
        assert abs(float((zeta_derivative(s) - expected) / expected)) < 1e-13, s
    for s in (0.5 + 14j, 2.0 - 3j, -1.5 + 0.5j, 0.5 + 50j):
        expected = complex(mp.zeta(s, 1, 1))
        assert abs(complex(zeta_derivative(np.complex128(s))) - expected) < 1e-13 * abs(expected), s


def test_hurwitz_derivatives_against_mpmath():
    for s, q in ((1.1, 0.3), (2.5, 2.0), (6.0, 0.05), (30.0, 1.5), (2.0, 1e-3), (1.5, 1e3), (50.0, 0.5)):
        _, pullback = rrule(sc.zeta, s, q)
        ds, dq = (unthunk(c) for c in pullback(1.0)[1:3])
        for got, expected in ((ds, mp.zeta(s, q, 1)), (dq, mp.diff(lambda t: mp.zeta(s, t), q))):  # noqa: B023
            assert abs(float((got - expected) / expected)) < 1e-13, (s, q)


@pytest.mark.parametrize("s", [-7.5, -2.0, -0.4, 0.3, 0.7, 1.2, 3.0, 30.0])
def test_riemann_against_finite_differences(s):
    test_scalar(sc.zeta, s)
    test_scalar(sc.zetac, s)
    test_scalar(sc.zeta, complex(s, 0.7))


def test_hurwitz_spellings_and_arrays():
    s, q = np.array([1.1, 2.5, 6.0]), np.array([0.3, 2.0, 0.05])
    test_rrule(sc.zeta, s, q)
    test_frule(sc.zeta, s, q)
    test_rrule(sc.zeta, s, fkwargs={"q": q})
    _, by_keyword = rrule(sc.zeta, 2.5, q=2.0)
    _, by_position = rrule(sc.zeta, 2.5, 2.0)
    assert len(by_position(1.0)) == 3 and len(by_keyword(1.0)) == 2  # q by keyword is not differentiated
    assert unthunk(by_keyword(1.0)[1]) == unthunk(by_position(1.0)[1])


def test_where_scipy_is_nan_so_is_the_derivative():
    with np.errstate(all="ignore"):
        _, pullback = rrule(sc.zeta, 0.5, 2.0)  # SciPy's Hurwitz zeta is NaN for s < 1
        assert np.isnan(unthunk(pullback(1.0)[1]))
    assert frule((NoTangent(), 1.0), sc.zeta, 0.0)[1] == pytest.approx(-0.5 * np.log(2 * np.pi), rel=1e-14)
    with pytest.raises(TypeError, match="out="):
        rrule(sc.zeta, 2.0, None, np.zeros(()))
