"""Rules of chainrules/rulesets/special/gamma_distributions.py: every continuous parameter against mpmath (the
inverses through mpmath's own root), finite differences, floored counts, inverses without a solution."""

from __future__ import annotations

import mpmath as mp
import numpy as np
import pytest
import scipy.special as sc

import chainrules  # noqa: F401  (registers the rules)
from chainrules import rrule, unthunk
from chainrules.testing import test_frule, test_rrule
from chainrules_core import NoTangent

mp.mp.dps = 30


def _mp_partials(fun, *args):
    return [mp.diff(lambda t, i=i: fun(*args[:i], t, *args[i + 1:]), args[i]) for i in range(len(args))]


def _lower(s, z):
    return mp.gammainc(s, 0, z, regularized=True)


def _upper(s, z):
    return mp.gammainc(s, z, mp.inf, regularized=True)


def _root(fun, start):
    return mp.findroot(fun, mp.mpf(start))


FORWARD = [
    (sc.gdtr, lambda a, b, x: _lower(b, a * x), [(1.5, 2.5, 3.0), (0.5, 0.3, 0.2), (1.0, 60.0, 55.0)]),
    (sc.gdtrc, lambda a, b, x: _upper(b, a * x), [(1.5, 2.5, 3.0), (0.1, 2.0, 80.0)]),
    (sc.chdtr, lambda v, x: _lower(v / 2, x / 2), [(3.0, 2.0), (0.5, 0.01), (120.0, 118.0)]),
    (sc.chdtrc, lambda v, x: _upper(v / 2, x / 2), [(3.0, 15.0)]),
]

INVERSE = [  # f, the equation F(args, solved) = 0 in mpmath, points
    (sc.gdtria, lambda p, b, x: _root(lambda a: _lower(b, a * x) - p, sc.gdtria(float(p), float(b), float(x))),
     [(0.3, 2.5, 3.0), (0.9, 4.0, 5.0)]),
    (sc.gdtrib, lambda a, p, x: _root(lambda b: _lower(b, a * x) - p, sc.gdtrib(float(a), float(p), float(x))),
     [(1.5, 0.3, 3.0), (2.0, 0.9, 5.0)]),
    (sc.gdtrix, lambda a, b, p: _root(lambda x: _lower(b, a * x) - p, sc.gdtrix(float(a), float(b), float(p))),
     [(1.5, 2.5, 0.3)]),
    (sc.chdtri, lambda v, p: _root(lambda x: _upper(v / 2, x / 2) - p, sc.chdtri(float(v), float(p))),
     [(3.5, 0.3), (40.0, 0.02)]),
    (sc.chdtriv, lambda p, x: _root(lambda v: _lower(v / 2, x / 2) - p, sc.chdtriv(float(p), float(x))),
     [(0.3, 2.0), (0.9, 30.0)]),
    (sc.pdtrik, lambda p, m: _root(lambda k: _upper(k + 1, m) - p, sc.pdtrik(float(p), float(m))),
     [(0.4, 2.5), (0.9, 30.0)]),
]


@pytest.mark.parametrize(("f", "mp_f", "points"), FORWARD + INVERSE, ids=lambda v: getattr(v, "__name__", ""))
def test_every_parameter_against_mpmath(f, mp_f, points):
    worst = 0.0
    for args in points:
        _, pullback = rrule(f, *args)
        got = [unthunk(c) for c in pullback(1.0)[1:]]
        expected = _mp_partials(mp_f, *args)
        for g, e in zip(got, expected):
            worst = max(worst, abs(float((g - e) / e)))
    assert worst < 1e-9, worst


@pytest.mark.filterwarnings("ignore:floating point number truncated to an integer")  # SciPy, on its float counts
def test_floored_counts():
    # SciPy floors k: piecewise constant, zero derivative between the integers (and the right derivative at them)
    for f in (sc.pdtr, sc.pdtrc):
        _, pullback = rrule(f, 2.5, 1.5)
        assert unthunk(pullback(1.0)[1]) == 0.0
        assert f(2.5 + 1e-3, 1.5) == f(2.5 - 1e-3, 1.5)
        _, pullback = rrule(f, 2, 1.5)
        assert pullback(1.0)[1] == NoTangent()
    _, pullback = rrule(sc.pdtri, 2.5, 0.4)
    assert unthunk(pullback(1.0)[1]) == 0.0
    test_rrule(sc.pdtri, np.array([2.5, 6.5]), np.array([0.3, 0.6]))


def test_inverses_without_a_solution_are_constant():
    # pdtrik(0.1, 0.7): Q(k + 1, 0.7) > 0.1 for every k >= 0, SciPy returns k = 0 for nearby inputs too
    _, pullback = rrule(sc.pdtrik, 0.1, 0.7)
    assert [unthunk(c) for c in pullback(1.0)[1:]] == [0.0, 0.0]
    assert sc.pdtrik(0.1 + 1e-4, 0.7 + 1e-4) == 0.0


@pytest.mark.parametrize(("f", "args"), [(sc.gdtr, (1.5, np.array([0.3, 2.5, 60.0]), np.array([0.2, 3.0, 40.0]))),
                                         (sc.chdtri, (np.array([0.7, 3.5]), np.array([0.9, 0.3]))),
                                         (sc.gdtrix, (1.5, 2.5, np.array([0.05, 0.95])))])
def test_arrays_against_finite_differences(f, args):
    test_rrule(f, *args)
    test_frule(f, *args)
