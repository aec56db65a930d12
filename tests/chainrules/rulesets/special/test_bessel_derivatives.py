"""Rules of chainrules/rulesets/special/bessel_derivatives.py (jvp, yvp, ivp, kvp, h1vp, h2vp)."""

from __future__ import annotations

import mpmath as mp
import numpy as np
import pytest
import scipy.special as sc

import chainrules  # noqa: F401  (registers the rules)
from chainrules import frule, rrule
from chainrules.testing import test_frule, test_rrule
from chainrules_core import NoTangent, unthunk

FUNCTIONS = [sc.jvp, sc.yvp, sc.ivp, sc.kvp, sc.h1vp, sc.h2vp]


@pytest.mark.parametrize("f", FUNCTIONS, ids=lambda f: f.__name__)
@pytest.mark.parametrize("n", [0, 1, 3])
def test_order_and_argument(f, n):
    v, z = np.array([0.5, -1.3, 2.0, 7.5]), np.array([1.5, 4.0, 25.0, 3.0])
    if f in (sc.h1vp, sc.h2vp):
        z = z + 0j
    test_rrule(f, v, z, n)
    test_frule(f, v, z, n)


@pytest.mark.parametrize("f", FUNCTIONS, ids=lambda f: f.__name__)
def test_n_by_keyword_and_complex_argument(f):
    test_rrule(f, np.array([0.5, 1.5]), np.array([1.0 + 0.5j, 2.0 - 0.8j]), fkwargs={"n": 2})
    test_rrule(f, 1.5, 2.0 - 0.3j)
    _, pullback = rrule(f, 1.5, 2.0, 2)
    assert pullback(1.0)[3] == NoTangent()


MP = {sc.jvp: mp.besselj, sc.yvp: mp.bessely, sc.ivp: mp.besseli, sc.kvp: mp.besselk, sc.h1vp: mp.hankel1,
      sc.h2vp: mp.hankel2}


@pytest.mark.parametrize("f", list(MP), ids=lambda f: f.__name__)
def test_order_derivative_matches_mpmath(f):
    # d/dv of the n-th z-derivative, both taken by mpmath at 30 digits
    for v, x, n in [(0.3, 1.5, 1), (-1.7, 6.0, 2)]:
        with mp.workdps(40):
            expected = mp.diff(lambda s, t: MP[f](s, t), (v, x), (1, n))  # d/dv d^n/dx^n
        z = x + 0j if f in (sc.h1vp, sc.h2vp) else x
        _, pullback = rrule(f, v, z, n)
        # the cotangent of v pulls back conj(dF/dv) dy: dy = 1 gives Re(dF/dv), dy = i gives Im(dF/dv)
        ours = unthunk(pullback(1.0)[1]) + 1j * unthunk(pullback(1j)[1]) if z is not x else unthunk(pullback(1.0)[1])
        assert abs(ours - complex(expected)) <= 1e-10 * abs(complex(expected)), (v, x, n, ours, expected)


def test_frule_agrees_with_next_derivative():
    _, dy = frule((None, 0.0, 1.0, None), sc.kvp, 1.5, 2.0, 2)
    assert dy == pytest.approx(sc.kvp(1.5, 2.0, 3), rel=1e-14)
