"""Rules of chainrules/rulesets/special/noncentral_distributions.py: every continuous parameter against mpmath's
sums of the defining Poisson mixtures and series (the inverses through mpmath's own roots), finite differences,
no-solution outputs, the cancellation guard."""

from __future__ import annotations

import mpmath as mp
import numpy as np
import pytest
import scipy.special as sc

import chainrules  # noqa: F401  (registers the rules)
import chainrules.rulesets.special.noncentral_distributions as nc_module
from chainrules import rrule, unthunk
from chainrules.testing import PrimalAndTangent, test_rrule
from chainrules_core import NoTangent, NotImplementedTangent

mp.mp.dps = 30


def _mp_partials(fun, *args):
    return [mp.diff(lambda t, i=i: fun(*args[:i], t, *args[i + 1:]), args[i]) for i in range(len(args))]


def _poisson(mu, j):
    return mp.exp(-mu) * mu ** j / mp.factorial(j)


def _ncx2(x, k, nc, terms=60):  # the Poisson tail past 60 terms is below 1e-40 for nc <= 30
    return mp.fsum(_poisson(nc / 2, j) * mp.gammainc(k / 2 + j, 0, x / 2, regularized=True) for j in range(terms))


def _ncf(m, n, nc, f, terms=60):
    u = m * f / (m * f + n)
    return mp.fsum(_poisson(nc / 2, j) * mp.betainc(m / 2 + j, n / 2, 0, u, regularized=True) for j in range(terms))


def _nct(v, d, t, terms=50):  # the weights past 50 terms are below 1e-40 for |d| <= 4
    if t < 0:
        return 1 - _nct(v, -d, -t, terms)
    x = t * t / (v + t * t)
    total = mp.ncdf(-d)
    for j in range(terms):
        p = mp.exp(-d * d / 2) * (d * d / 2) ** j / mp.factorial(j)
        q = d * mp.exp(-d * d / 2) * (d * d / 2) ** j / (mp.sqrt(2) * mp.gamma(j + 1.5))
        total += (p * mp.betainc(j + 0.5, v / 2, 0, x, regularized=True)
                  + q * mp.betainc(j + 1, v / 2, 0, x, regularized=True)) / 2
    return total


CASES = [
    (sc.chndtr, _ncx2, [(3.0, 2.5, 1.5), (50.0, 10.0, 30.0), (0.5, 0.7, 4.0)]),
    (sc.ncfdtr, _ncf, [(3.0, 7.0, 1.5, 1.2), (10.0, 20.0, 12.0, 3.0)]),
    (sc.nctdtr, _nct, [(5.0, 1.5, 1.2), (5.0, -1.5, 1.2), (5.0, 1.5, -1.2), (30.0, 3.0, 4.0), (8.0, 0.0, 0.7),
                       (4.0, 2.0, 0.0), (5.0, -4.0, 3.0)]),
    (sc.chndtrix, lambda p, k, nc: mp.findroot(lambda x: _ncx2(x, k, nc) - p, sc.chndtrix(*map(float, (p, k, nc)))),
     [(0.4, 2.5, 1.5)]),
    (sc.nctdtrit, lambda v, d, p: mp.findroot(lambda t: _nct(v, d, t) - p, sc.nctdtrit(*map(float, (v, d, p)))),
     [(5.0, 1.5, 0.4)]),
]


@pytest.mark.parametrize(("f", "mp_f", "points"), CASES, ids=lambda v: getattr(v, "__name__", ""))
def test_every_parameter_against_mpmath(f, mp_f, points):
    worst = 0.0
    for args in points:
        _, pullback = rrule(f, *args)
        got = [unthunk(c) for c in pullback(1.0)[1:]]
        for g, e in zip(got, _mp_partials(mp_f, *args)):
            worst = max(worst, abs(float((g - e) / e)) if e != 0 else abs(float(g)))
    assert worst < 1e-9, worst


def test_no_solution_gives_zero():
    assert sc.ncfdtridfn(0.4, 7.0, 1.5, 1.2) == 1e-100  # SciPy's search bound
    _, pullback = rrule(sc.ncfdtridfn, 0.4, 7.0, 1.5, 1.2)
    assert [unthunk(c) for c in pullback(1.0)[1:]] == [0.0, 0.0, 0.0, 0.0]


def test_cancellation_guard(monkeypatch):
    # d < 0, t > 0: the sums cancel (here by 9e4 in df, 1.4e6 in nc, 9e5 in t); above the limit, not_implemented
    monkeypatch.setattr(nc_module, "CANCELLATION_LIMIT", 1e6)
    _, pullback = rrule(sc.nctdtr, 5.0, -4.0, 3.0)
    ddf, dnc, dt = (unthunk(c) for c in pullback(1.0)[1:])
    assert isinstance(dnc, NotImplementedTangent) and "cancels" in dnc.info
    assert np.isfinite(ddf) and np.isfinite(dt)
    test_rrule(sc.nctdtr, 5.0, PrimalAndTangent(-4.0, NoTangent()), 3.0)  # the other two against finite differences
    # (finite differences at every sample, the inverses included, run in tests/chainrules/test_every_rule.py)
