"""Rules of chainrules/rulesets/special/beta_distributions.py: every continuous parameter against mpmath (the
inverses through mpmath's own root), the complement forms, t = 0, floored counts, inverses without a solution."""

from __future__ import annotations

import mpmath as mp
import numpy as np
import pytest
import scipy.special as sc

import chainrules  # noqa: F401  (registers the rules)
from chainrules import rrule, unthunk
from chainrules.testing import test_frule, test_rrule
from chainrules_core import NoTangent, NotImplementedTangent

mp.mp.dps = 30


def _mp_partials(fun, *args):
    return [mp.diff(lambda t, i=i: fun(*args[:i], t, *args[i + 1:]), args[i]) for i in range(len(args))]


def _ib(a, b, x):
    return mp.betainc(a, b, 0, x, regularized=True)


def _root(fun, start):
    return mp.findroot(fun, mp.mpf(start))


def _binomial(k, n, p):
    return _ib(n - k, k + 1, 1 - p)


def _negative_binomial(k, n, p):
    return _ib(n, k + 1, p)


def _fdtr(m, n, x):
    return _ib(m / 2, n / 2, m * x / (m * x + n))


def _stdtr(df, t):
    half = _ib(df / 2, mp.mpf(0.5), df / (df + t * t)) / 2
    return 1 - half if t > 0 else half


CASES = [
    (sc.fdtr, _fdtr, [(3.5, 7.2, 1.3), (1.0, 2.0, 0.05), (30.0, 40.0, 1.1)]),
    (sc.fdtrc, lambda m, n, x: 1 - _fdtr(m, n, x), [(3.5, 7.2, 1.3)]),
    (sc.stdtr, _stdtr, [(3.5, 1.2), (0.7, -2.0), (30.0, -0.4), (500.0, 1.5)]),
    (sc.bdtrik, lambda y, n, p: _root(lambda k: _binomial(k, n, p) - y, sc.bdtrik(float(y), float(n), float(p))),
     [(0.4, 10.0, 0.3), (0.7, 120.0, 0.2)]),
    (sc.bdtrin, lambda k, y, p: _root(lambda n: _binomial(k, n, p) - y, sc.bdtrin(float(k), float(y), float(p))),
     [(3.0, 0.4, 0.3), (30.0, 0.5, 0.2)]),
    (sc.nbdtrik, lambda y, n, p: _root(lambda k: _negative_binomial(k, n, p) - y,
                                       sc.nbdtrik(float(y), float(n), float(p))), [(0.4, 5.0, 0.3)]),
    (sc.nbdtrin, lambda k, y, p: _root(lambda n: _negative_binomial(k, n, p) - y,
                                       sc.nbdtrin(float(k), float(y), float(p))), [(3.0, 0.4, 0.3)]),
    (sc.btdtria, lambda p, b, x: _root(lambda a: _ib(a, b, x) - p, sc.btdtria(float(p), float(b), float(x))),
     [(0.3, 2.5, 0.4), (0.5, 40.0, 0.5)]),
    (sc.btdtrib, lambda a, p, x: _root(lambda b: _ib(a, b, x) - p, sc.btdtrib(float(a), float(p), float(x))),
     [(2.0, 0.3, 0.4)]),
    (sc.fdtri, lambda m, n, p: _root(lambda x: _fdtr(m, n, x) - p, sc.fdtri(float(m), float(n), float(p))),
     [(3.5, 7.2, 0.3)]),
    (sc.fdtridfd, lambda m, p, x: _root(lambda n: _fdtr(m, n, x) - p, sc.fdtridfd(float(m), float(p), float(x))),
     [(3.5, 0.3, 1.3)]),
    (sc.stdtrit, lambda df, p: _root(lambda t: _stdtr(df, t) - p, sc.stdtrit(float(df), float(p))),
     [(3.5, 0.7), (0.7, 0.2)]),
    (sc.stdtridf, lambda p, t: _root(lambda df: _stdtr(df, t) - p, sc.stdtridf(float(p), float(t))),
     [(0.7, 1.2), (0.95, 2.5)]),
]


@pytest.mark.parametrize(("f", "mp_f", "points"), CASES, ids=lambda v: getattr(v, "__name__", ""))
def test_every_parameter_against_mpmath(f, mp_f, points):
    worst = 0.0
    for args in points:
        _, pullback = rrule(f, *args)
        got = [unthunk(c) for c in pullback(1.0)[1:]]
        expected = _mp_partials(mp_f, *args)
        for g, e in zip(got, expected):
            worst = max(worst, abs(float((g - e) / e)))
    assert worst < 1e-9, worst


def test_probability_partials_of_floored_functions_against_mpmath():
    for f, mp_f, (k, n, p) in ((sc.bdtr, _binomial, (3, 10, 0.3)), (sc.bdtrc, lambda k, n, p: 1 - _binomial(k, n, p),
                                                                    (3, 10, 0.3)),
                               (sc.nbdtr, _negative_binomial, (3, 5, 0.3))):
        got = unthunk(rrule(f, k, n, p)[1](1.0)[3])
        expected = mp.diff(lambda t: mp_f(k, n, t), p)  # noqa: B023
        assert abs(float((got - expected) / expected)) < 1e-12


@pytest.mark.filterwarnings("ignore:floating point number truncated to an integer")  # SciPy, on its float counts
@pytest.mark.filterwarnings("ignore:non-integer arg n is deprecated")
def test_floored_counts():
    for f in (sc.bdtr, sc.bdtrc, sc.nbdtr, sc.nbdtrc):
        _, pullback = rrule(f, 2.5, 10.5, 0.3)
        assert [unthunk(c) for c in pullback(1.0)[1:3]] == [0.0, 0.0]
        assert f(2.5 + 1e-3, 10.5 - 1e-3, 0.3) == f(2.5, 10.5, 0.3)
        _, pullback = rrule(f, 2, 10, 0.3)
        assert pullback(1.0)[1:3] == (NoTangent(), NoTangent())


def test_large_df_is_not_implemented_past_the_cancellation_limit():
    # at df = 1e4, t = 2 the two terms cancel by 8e3: relative error 1.5e-8, above the accuracy promised
    _, pullback = rrule(sc.stdtr, 1e4, 2.0)
    ddf, dt = (unthunk(c) for c in pullback(1.0)[1:])
    assert isinstance(ddf, NotImplementedTangent) and "cancel" in ddf.info and np.isfinite(dt)
    expected = mp.diff(lambda df: _stdtr(df, mp.mpf(2)), 2000.0)  # below the limit: accurate
    assert abs(float((unthunk(rrule(sc.stdtr, 2000.0, 2.0)[1](1.0)[1]) - expected) / expected)) < 5e-9


def test_t_at_zero_and_no_solution():
    _, pullback = rrule(sc.stdtr, 3.5, 0.0)  # stdtr(df, 0) = 1/2 for every df
    ddf, dt = (unthunk(c) for c in pullback(1.0)[1:])
    assert ddf == 0.0 and np.isclose(dt, sc.gamma(2.25) / (np.sqrt(3.5 * np.pi) * sc.gamma(1.75)), rtol=1e-14)
    _, pullback = rrule(sc.stdtridf, 0.99, 0.1)  # no df gives 0.99 at t = 0.1: SciPy returns its bound 1e10
    assert [unthunk(c) for c in pullback(1.0)[1:]] == [0.0, 0.0]


@pytest.mark.parametrize(("f", "args"), [
    (sc.fdtr, (np.array([1.0, 3.5, 2.0]), np.array([2.0, 7.2, 5.0]), np.array([0.05, 1.3, 300.0]))),
    (sc.stdtr, (np.array([0.7, 3.5, 4.0]), np.array([-2.0, 0.0, 60.0]))),
    (sc.bdtri, (3, 10, np.array([0.3, 0.6]))), (sc.nbdtri, (3, 5, np.array([0.3, 0.6])))])
def test_arrays_against_finite_differences(f, args):
    test_rrule(f, *args)
    test_frule(f, *args)
