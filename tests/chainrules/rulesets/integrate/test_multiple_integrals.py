"""Rules of multiple_integrals.py (dblquad, tplquad, nquad) against finite differences of the whole call.

The samples next to the rules use integrands with rules (RulesOnlyConfig), tplquad's among them;
here integrands and limit functions are written with ``autograd.numpy`` (AutogradConfig): limits
that depend on the outer variables and, in ``nquad``, on ``args`` (the parameters then move the
region), options that are callables, a weighted level, and closed forms. (A triple integral through
autograd traces the integrand at some 10^4 points per pullback: its sample uses a rule instead.)
"""

from __future__ import annotations

import autograd.numpy as anp
import numpy as np
import pytest
import scipy.integrate

import chainrules  # noqa: F401  (registers the rules)
from chainrules import NoTangent, Tangent, rrule, unthunk
from chainrules.interop.autograd import AutogradConfig
from chainrules.rulesets.integrate.quad import value_only
from chainrules.testing import PrimalAndTangent, test_frule, test_rrule

AUTOGRAD = AutogradConfig()
FIXED = [PrimalAndTangent(1e-10, NoTangent()), PrimalAndTangent(1e-10, NoTangent())]


def _check(f, *args, **options):
    test_rrule(f, *args, config=AUTOGRAD, gauge_invariant=value_only, **options)
    test_frule(f, *args, config=AUTOGRAD, gauge_invariant=value_only, **options)


def test_dblquad_closed_form():
    """int_0^b int_0^x t x y dy dx = t b^4 / 8: d/db = t b^3 / 2, d/dt = b^4 / 8."""
    b, t = 1.3, 0.7
    out, pullback = rrule(AUTOGRAD, scipy.integrate.dblquad, lambda y, x, t: t * x * y, 0.0, b, 0.0,
                          lambda x: x, (t,), 1e-12, 1e-12)
    cotangents = [unthunk(c) for c in pullback((1.0, 0.0))]
    assert out[0] == pytest.approx(t * b ** 4 / 8, rel=1e-12)
    assert cotangents[3] == pytest.approx(t * b ** 3 / 2, rel=1e-10)
    assert cotangents[6][0] == pytest.approx(b ** 4 / 8, rel=1e-10)
    assert isinstance(cotangents[5], NoTangent)       # a plain function as a limit: no values of its own


def test_dblquad_with_callable_limits():
    _check(scipy.integrate.dblquad, lambda y, x, t: anp.exp(-t * x * y), 0.2, 1.1, lambda x: -x, lambda x: x ** 2,
           (0.6,), *FIXED)


def _range_inner(x1, t, c):
    return [-t, x1 + t * c]


def _range_outer(t, c):
    return [c, 1.0 + t]


def test_nquad_with_ranges_that_depend_on_args():
    """The parameters move the region: the boundary terms carry their cotangents through the range functions."""
    tight = PrimalAndTangent({"epsabs": 1e-10, "epsrel": 1e-10}, NoTangent())
    _check(scipy.integrate.nquad, lambda x0, x1, t, c: anp.exp(-t * x0 * x1) + c, [_range_inner, _range_outer],
           (0.7, 0.3), tight)


def test_nquad_with_callable_options_and_a_weight():
    """Options per level: a callable (points that depend on the outer variable) and a cos weight (the vector
    derivative is integrated value by value, since quad_vec takes no weight)."""

    def inner_options(x1, t, c):
        return {"points": [0.5 * x1], "epsabs": 1e-11, "epsrel": 1e-11}

    opts = PrimalAndTangent([inner_options, {"weight": "cos", "wvar": 2.0, "epsabs": 1e-11, "epsrel": 1e-11}],
                            NoTangent())
    _check(scipy.integrate.nquad, lambda x0, x1, t, c: (t * x0 - x1) ** 2 * c, [[0.0, 1.0], [0.1, 1.2]],
           (0.7, 1.5), opts)


def test_nquad_ranges_cotangent_structure():
    _, pullback = rrule(AUTOGRAD, scipy.integrate.nquad, lambda x0, x1: x0 * x1, [[0.0, 1.0], (0.0, 2.0)])
    ranges_bar = unthunk(pullback((1.0, 0.0))[2])
    assert isinstance(ranges_bar, Tangent) and ranges_bar.primal_type is list
    assert ranges_bar[1].primal_type is tuple
    np.testing.assert_allclose([ranges_bar[0][1], ranges_bar[1][1]], [2.0, 1.0])
