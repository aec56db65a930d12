"""Rules of fixed_quad.py against finite differences of the whole call, with autograd integrands.

``fixed_quad`` returns a fixed Gauss-Legendre sum, and its rules differentiate that sum: for a
non-polynomial integrand ``d/db`` is *not* ``f(b)`` (the fundamental theorem of calculus holds for
the integral, not for an n-point rule), which the first test shows.
"""

from __future__ import annotations

import autograd.numpy as anp
import numpy as np
import pytest
import scipy.integrate

import chainrules  # noqa: F401  (registers the rules)
from chainrules import NoTangent, rrule, unthunk
from chainrules.interop.autograd import AutogradConfig
from chainrules.testing import test_frule, test_rrule

AUTOGRAD = AutogradConfig()


def _value(out):
    return out[0]


def test_the_derivative_of_the_sum_not_of_the_integral():
    _, pullback = rrule(AUTOGRAD, scipy.integrate.fixed_quad, anp.exp, 0.0, 2.0, (), 3)
    b_bar = unthunk(pullback((1.0, NoTangent()))[3])
    h = 1e-6
    finite_difference = (scipy.integrate.fixed_quad(np.exp, 0.0, 2.0 + h, n=3)[0]
                         - scipy.integrate.fixed_quad(np.exp, 0.0, 2.0 - h, n=3)[0]) / (2 * h)
    assert b_bar == pytest.approx(finite_difference, rel=1e-8)
    assert abs(b_bar - np.exp(2.0)) > 1e-4          # the 3-point rule is not exact for exp


@pytest.mark.parametrize(("func", "a", "b", "args"), [
    (lambda x, t: anp.sin(t * x), 0.0, 1.3, (0.7,)),
    (lambda x, c: anp.outer(c, x ** 2), -0.5, 2.0, (np.array([0.3, -1.0]),)),
    (lambda x, t, c: anp.exp(-t * x) * c, 2.0, 0.5, (0.4, 1.5)),
], ids=["sin(t x)", "vector-valued", "a > b, two parameters"])
def test_fixed_quad_through_autograd(func, a, b, args):
    test_rrule(scipy.integrate.fixed_quad, func, a, b, args, config=AUTOGRAD, gauge_invariant=_value)
    test_frule(scipy.integrate.fixed_quad, func, a, b, args, config=AUTOGRAD, gauge_invariant=_value)
