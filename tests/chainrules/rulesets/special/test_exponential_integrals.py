"""Rules of chainrules/rulesets/special/exponential_integrals.py and lambert.py: finite differences on both sides
of zero and the cuts, the limits at 0 and 1, integer orders, Lambert W branches and its branch point."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.special as sc

import chainrules  # noqa: F401  (registers the rules)
from chainrules import frule, rrule, unthunk
from chainrules.testing import PrimalAndTangent, test_frule, test_rrule, test_scalar
from chainrules_core import NoTangent, Tangent, ZeroTangent


@pytest.mark.parametrize(("f", "points"), [
    (sc.expi, [-30.0, -1.0, -1e-3, 0.372507410781367, 2.0, 40.0, 0.5 + 0.5j, -3.0 - 0.1j, -3.0 + 0.1j]),
    (sc.exp1, [1e-3, 0.7, 5.0, 60.0, 0.5 + 0.5j, -3.0 - 0.1j, -3.0 + 0.1j]),
    (sc.spence, [1e-3, 0.5, 1.0, 1.5, 40.0, 0.5 + 0.5j, -2.0 + 1j, -3.0 - 0.1j]),
    (sc.wrightomega, [-30.0, -1.0, 0.0, 2.0, 300.0, 0.5 + 0.5j, -2.0 + 4j]),
])
def test_one_argument(f, points):
    for z in points:
        test_scalar(f, z)


def test_spence_at_one_is_the_limit():
    assert frule((NoTangent(), 1.0), sc.spence, 1.0)[1] == -1.0


@pytest.mark.parametrize("f", [sc.sici, sc.shichi])
def test_sine_cosine_integrals(f):
    for z in (np.array([-3.0, 0.05, 0.7, 30.0]), 0.7, 0.5 + 0.5j, np.array([0.7, 3.0], dtype=np.float32)):
        test_rrule(f, z)
        test_frule(f, z)
    # at 0: Si' = Shi' = 1 (the limit); Ci and Chi are -inf there
    _, pullback = rrule(f, 0.0)
    assert pullback(Tangent(tuple, 1.0, ZeroTangent()))[1] == 1.0


def test_expn():
    for n in (0, 1, 2, 5, 60):
        test_rrule(sc.expn, n, np.array([0.4, 3.0, 50.0]))
        test_frule(sc.expn, n, 0.7)
    _, pullback = rrule(sc.expn, 2, 0.7)
    assert pullback(1.0)[1] == NoTangent()


@pytest.mark.filterwarnings("ignore:floating point number truncated to an integer")  # SciPy, on its float order
def test_expn_float_order_is_truncated():
    _, pullback = rrule(sc.expn, 2.5, 0.7)
    assert unthunk(pullback(1.0)[1]) == 0.0 and sc.expn(2.7, 0.7) == sc.expn(2.5, 0.7)


def test_lambertw_branches_and_spellings():
    test_rrule(sc.lambertw, np.array([1e-3, 1.0, 50.0, -0.3, -0.36]))
    test_frule(sc.lambertw, np.array([0.0, 1.0, -0.36]))
    test_rrule(sc.lambertw, np.array([-0.2, -1e-3]), -1)
    test_rrule(sc.lambertw, np.array([0.5 + 0.5j, -2.0 + 1j]), fkwargs={"k": 1})
    test_rrule(sc.lambertw, np.array([-1.0, 2.0]), 0, PrimalAndTangent(1e-10, NoTangent()))
    assert complex(frule((NoTangent(), 1.0), sc.lambertw, 0.0)[1]) == 1.0  # W'(0) = 1
    _, pullback = rrule(sc.lambertw, np.float32([0.5, 3.0]))
    assert unthunk(pullback(np.ones(2, complex))[1]).dtype == np.float32
    with np.errstate(all="ignore"):
        assert not np.isfinite(frule((NoTangent(), 1.0), sc.lambertw, -np.exp(-1.0))[1])  # the branch point
