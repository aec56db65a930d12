"""Rules of chainrules/rulesets/special/boxcox.py: finite differences at and near lambda = 0, the inverses."""

from __future__ import annotations

import mpmath as mp
import numpy as np
import pytest
import scipy.special as sc

import chainrules  # noqa: F401  (registers the rules)
from chainrules import rrule, unthunk
from chainrules.testing import test_frule, test_rrule

mp.mp.dps = 30

LAMBDAS = [0.0, 1e-9, -0.5, 0.5, 2.0, -3.0]


@pytest.mark.parametrize("lmbda", LAMBDAS)
@pytest.mark.parametrize(("f", "x"), [(sc.boxcox, 2.0), (sc.boxcox, 0.3), (sc.boxcox1p, 1.0), (sc.boxcox1p, -0.7),
                                      (sc.inv_boxcox, 0.2), (sc.inv_boxcox, -0.2), (sc.inv_boxcox1p, 0.2),
                                      (sc.inv_boxcox1p, 1e-8)])  # lambda y + 1 > 0 for every lambda
def test_against_finite_differences(f, x, lmbda):
    test_rrule(f, x, lmbda)
    test_frule(f, x, lmbda)


def test_lambda_derivative_near_zero_against_mpmath():
    # (lambda x^lambda log x - x^lambda + 1)/lambda^2 cancels near lambda = 0; log(x)^2 exprel'(lambda log x) does not
    def boxcox(x, lmbda):
        return mp.expm1(lmbda * mp.log(x)) / lmbda

    for x, lmbda in ((2.0, 1e-9), (0.3, -1e-6), (40.0, 1e-4), (2.0, 0.7)):
        expected = mp.diff(lambda t: boxcox(x, t), lmbda)  # noqa: B023
        got = unthunk(rrule(sc.boxcox, x, lmbda)[1](1.0)[2])
        assert abs(float((got - expected) / expected)) < 1e-14
    got = unthunk(rrule(sc.boxcox, 2.0, 0.0)[1](1.0)[2])
    assert np.isclose(got, np.log(2.0) ** 2 / 2, rtol=1e-15)


def test_float32_stays_float32():
    for f in (sc.boxcox, sc.inv_boxcox1p):
        _, pullback = rrule(f, np.float32([2.0, 0.5]), np.float32(0.3))
        dx, dl = (unthunk(c) for c in pullback(np.ones(2, np.float32))[1:])
        assert dx.dtype == np.float32 and isinstance(dl, np.float32)
