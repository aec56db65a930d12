"""Rules of chainrules/rulesets/special/bessel_sequences.py: riccati_jn, riccati_yn, lmbda."""

from __future__ import annotations

import mpmath as mp
import numpy as np
import pytest
import scipy.special as sc

import chainrules  # noqa: F401  (registers the rules)
from chainrules import rrule
from chainrules.testing import test_frule, test_rrule
from chainrules_core import NoTangent, Tangent, ZeroTangent


@pytest.mark.parametrize("f", [sc.riccati_jn, sc.riccati_yn])
@pytest.mark.parametrize("n, x", [(0, 0.5), (3, 1.5), (6, 12.0)])
def test_riccati(f, n, x):
    test_rrule(f, n, x)
    test_frule(f, n, x)


def test_riccati_at_zero_and_negative():
    test_rrule(sc.riccati_jn, 4, -2.5)
    _, pullback = rrule(sc.riccati_jn, 3, 0.0)
    h = 1e-5
    fd = (sc.riccati_jn(3, h)[1] - sc.riccati_jn(3, -h)[1]) / (2 * h)
    assert pullback(Tangent(tuple, ZeroTangent(), np.ones(4)))[2] == pytest.approx(fd.sum(), abs=1e-8)
    _, pullback = rrule(sc.riccati_yn, 2, -1.0)  # SciPy's sentinels: NaN, not a number from them
    assert np.isnan(pullback(Tangent(tuple, np.ones(3), ZeroTangent()))[2])


@pytest.mark.parametrize("v, x", [(0.3, 0.7), (2.5, 1.5), (3.7, 6.0), (1.25, -3.0), (4.5, 25.0)])
def test_lmbda(v, x):
    test_rrule(sc.lmbda, v, x)
    test_frule(sc.lmbda, v, x)


def test_lmbda_order_derivative_matches_mpmath():
    # Lambda_u(x) = 0F1(; u+1; -x^2/4), Lambda'_u(x) = -x/(2(u+1)) Lambda_{u+1}(x); u = v - floor(v) + k
    for v, x in [(2.5, 1.5), (3.7, 6.0), (0.3, 0.01)]:
        _, pullback = rrule(sc.lmbda, v, x)
        count = int(v) + 1
        for k in range(count):
            for part in (0, 1):
                weights = [np.zeros(count), np.zeros(count)]
                weights[part][k] = 1.0
                ours = pullback(Tangent(tuple, *weights))[1]
                with mp.workdps(40):
                    u0 = v - np.floor(v) + k
                    if part == 0:
                        expected = mp.diff(lambda u, x=x: mp.hyp0f1(u + 1, -x * x / 4), u0)
                    else:
                        expected = mp.diff(lambda u, x=x: -x / (2 * (u + 1)) * mp.hyp0f1(u + 2, -x * x / 4), u0)
                assert abs(ours - float(expected)) <= 1e-10 * abs(float(expected)), (v, x, k, part)
    assert rrule(sc.lmbda, 2.5, 1.0)[1](Tangent(tuple, np.ones(3), np.ones(3)))[0] == NoTangent()
