"""Rules of chainrules/rulesets/special/parabolic_cylinder.py.

Finite differences in x and the order; the order derivatives also against mpmath at 30
digits (pcfd, pcfv, pcfw).
"""

import mpmath
import numpy as np
import pytest
import scipy.special as sc

import chainrules  # noqa: F401  (registers the rules)
from chainrules.testing import test_frule, test_rrule
from chainrules_core import NotImplementedTangent, frule, rrule, unthunk

ORACLES = {sc.pbdv: lambda v, x: mpmath.pcfd(v, x), sc.pbvv: lambda v, x: mpmath.pcfv(-v - 0.5, x),
           sc.pbwa: lambda a, x: mpmath.pcfw(a, x)}


@pytest.mark.parametrize("f", [sc.pbdv, sc.pbvv], ids=lambda f: f.__name__)
def test_pbdv_pbvv(f):
    test_rrule(f, np.array([1.3, -0.7, 2.2, 4.5]), np.array([0.7, -1.5, 3.5, -0.3]))
    test_frule(f, 0.5, np.array([7.0, -4.0]))


def test_pbwa():
    test_rrule(sc.pbwa, np.array([1.0, -2.0, 3.5]), np.array([0.7, -1.5, 3.0]))
    test_frule(sc.pbwa, -1.5, 2.5)


@pytest.mark.parametrize("f, points", [
    (sc.pbdv, [(1.3, 0.7), (-2.4, -3.0), (4.5, 8.0)]),
    (sc.pbvv, [(1.3, 0.7), (2.0, 3.5)]),
    (sc.pbwa, [(1.0, 0.7), (-3.5, -2.0)]),
], ids=lambda v: getattr(v, "__name__", ""))
def test_order_derivatives_match_mpmath(f, points):
    mf = ORACLES[f]
    for v, x in points:
        _, (dv, dslope) = frule((None, 1.0, 0.0), f, v, x)
        with mpmath.workdps(30):
            ref = float(mpmath.diff(lambda t, x=x: mf(t, x), v))
            ref_slope = float(mpmath.diff(lambda t, x=x: mpmath.diff(lambda s, t=t: mf(t, s), x), v))
        assert abs(dv - ref) <= 1e-8 * abs(ref), (f.__name__, v, x, dv, ref)
        assert abs(dslope - ref_slope) <= 1e-8 * abs(ref_slope), (f.__name__, v, x, dslope, ref_slope)


def test_pbwa_beyond_its_range_is_not_implemented():
    _, pullback = rrule(sc.pbwa, 4.6, 1.0)
    da = unthunk(pullback((1.0, 0.0))[1])
    assert isinstance(da, NotImplementedTangent) and "|a| <= 4" in da.info


@pytest.mark.parametrize("f", [sc.pbdv_seq, sc.pbvv_seq], ids=lambda f: f.__name__)
def test_sequences(f):
    test_rrule(f, 2.7, 0.7)
    test_frule(f, 0.3, -1.2)
    single = {sc.pbdv_seq: sc.pbdv, sc.pbvv_seq: sc.pbvv}[f]
    _, (dvalues, dslopes) = frule((None, 1.0, 0.0), f, 2.7, 0.7)
    for k, order in enumerate([0.7, 1.7, 2.7]):
        _, (dv, ds) = frule((None, 1.0, 0.0), single, order, 0.7)
        assert np.isclose(dvalues[k], dv, rtol=1e-12) and np.isclose(dslopes[k], ds, rtol=1e-12)


def test_negative_sequence_order_is_not_implemented():
    _, pullback = rrule(sc.pbdv_seq, -1.3, 0.7)
    _, dv, dx = pullback((np.ones(2), np.ones(2)))
    assert isinstance(dv, NotImplementedTangent) and isinstance(dx, NotImplementedTangent)


def test_pbdn_seq():
    test_rrule(sc.pbdn_seq, 3, 0.7)
    test_frule(sc.pbdn_seq, 4, -1.3)
    _, pullback = rrule(sc.pbdn_seq, 3, 0.7 + 0.2j)
    assert isinstance(pullback((np.ones(4), np.ones(4)))[2], NotImplementedTangent)
