"""Rules of quad.py (scipy.integrate.quad and quad_vec), checked against finite differences of the whole call.

The samples next to the rules use integrands with chainrules rules (RulesOnlyConfig); here the
integrands are written with ``autograd.numpy`` and differentiated through ``AutogradConfig``,
as autograd users call them, plus:

* the closed form of the issue: ``int_0^b sin(t x) dx = (1 - cos(t b)) / t``;
* QUADPACK's algebraic-logarithmic weights (whose limits' derivatives scale the range) and
  ``wvar`` by position;
* a functor integrand whose own values are differentiated (a dataclass with rules);
* the outputs that are not differentiable, and the cotangents the pullbacks reject.
"""

from __future__ import annotations

import dataclasses

import autograd.numpy as anp
import numpy as np
import pytest
import scipy.integrate

import chainrules  # noqa: F401  (registers the rules)
from chainrules import NoTangent, ProjectionError, RulesOnlyConfig, Tangent, frule, rrule, unthunk
from chainrules.interop.autograd import AutogradConfig
from chainrules.rulesets.integrate.quad import value_only
from chainrules.testing import PrimalAndTangent, test_frule, test_rrule

AUTOGRAD = AutogradConfig()
RULES = RulesOnlyConfig()
TIGHT = {"epsabs": 1e-12, "epsrel": 1e-12}


def _check(f, *args, config=AUTOGRAD, fkwargs=None, **options):
    fkwargs = {**TIGHT, **(fkwargs or {})}
    test_rrule(f, *args, config=config, fkwargs=fkwargs, gauge_invariant=value_only, **options)
    test_frule(f, *args, config=config, fkwargs=fkwargs, gauge_invariant=value_only, **options)


def sin_tx(x, t):
    return anp.sin(t * x)


def test_the_closed_form_of_the_issue():
    """d/db and d/dt of int_0^b sin(t x) dx = (1 - cos(t b)) / t, through autograd."""
    b, t = 1.3, 0.7
    out, pullback = rrule(AUTOGRAD, scipy.integrate.quad, sin_tx, 0.0, b, (t,), **TIGHT)
    _, _, a_bar, b_bar, args_bar = [unthunk(c) for c in pullback((1.0, 0.0))][:5]
    assert out[0] == pytest.approx((1 - np.cos(t * b)) / t, rel=1e-12)
    assert b_bar == pytest.approx(np.sin(t * b), rel=1e-12)
    assert a_bar == pytest.approx(0.0, abs=1e-15)
    assert args_bar[0] == pytest.approx(b * np.sin(t * b) / t - (1 - np.cos(t * b)) / t ** 2, rel=1e-10)
    _, tangent = frule(AUTOGRAD, (NoTangent(), NoTangent(), 0.0, 1.0, Tangent(tuple, 1.0)), scipy.integrate.quad,
                      sin_tx, 0.0, b, (t,), **TIGHT)
    assert tangent[0] == pytest.approx(np.sin(t * b) + b * np.sin(t * b) / t - (1 - np.cos(t * b)) / t ** 2, rel=1e-10)
    assert isinstance(tangent[1], NoTangent)


@pytest.mark.parametrize(("integrand", "a", "b", "args", "fkwargs"), [
    (sin_tx, 0.0, 1.3, (0.7,), {}),
    (lambda x, t, c: anp.exp(-t * x ** 2) * anp.cos(c * x), -np.inf, np.inf, (1.3, 0.4), {}),
    (lambda x, c: anp.sum(c * x ** anp.arange(3.0)), -0.5, 2.0, (np.array([0.3, -1.0, 0.5]),), {}),
    (lambda x, t: anp.exp(-t * x), 0.0, np.inf, (0.8,), {"weight": "cos", "wvar": 2.0}),
    (lambda x, t: anp.exp(t * x), 0.0, 1.0, (0.3,), {"weight": "cauchy", "wvar": 0.4}),
    (lambda x, t: anp.exp(1j * t * x), 0.0, 1.0, (0.8,), {"complex_func": True}),
], ids=["sin(t x)", "two parameters, infinite range", "an array parameter", "Fourier", "Cauchy", "complex"])
def test_quad_through_autograd(integrand, a, b, args, fkwargs):
    _check(scipy.integrate.quad, integrand, a, b, args, fkwargs=fkwargs)


@pytest.mark.parametrize("weight", ["alg", "alg-loga", "alg-logb", "alg-log"])
def test_algebraic_logarithmic_weights(weight):
    """The weight depends on the limits: their derivatives scale the range (the boundary term is 0 or inf)."""
    _check(scipy.integrate.quad, lambda x, t: anp.cos(t * x), 0.2, 1.5, (0.9,),
           fkwargs={"weight": weight, "wvar": (0.5, -0.4)})


@pytest.mark.parametrize(("weight", "wvar"), [("cos", 2.0), ("sin", 1.3), ("alg", (0.5, -0.3))])
def test_wvar_by_position(weight, wvar):
    fixed = [PrimalAndTangent(v, NoTangent()) for v in (1e-12, 1e-12)]
    test_rrule(scipy.integrate.quad, np.hypot, 0.3, 1.7, (0.6,), 0, *fixed, 50, None, weight, wvar, config=RULES,
               gauge_invariant=value_only)
    test_frule(scipy.integrate.quad, np.hypot, 0.3, 1.7, (0.6,), 0, *fixed, 50, None, weight, wvar, config=RULES,
               gauge_invariant=value_only)


def test_wvar_of_the_cauchy_weight_is_not_implemented():
    _, pullback = rrule(RULES, scipy.integrate.quad, np.hypot, 0.0, 2.0, (0.5,), 0, 1e-10, 1e-10, 50, None,
                        "cauchy", 0.8)
    missing = unthunk(pullback((1.0, 0.0))[11])
    assert "hypersingular" in missing.info


@dataclasses.dataclass
class Damped:
    """A functor integrand: exp(-rate x) cos(x), with rules of its own for x and its field."""

    rate: float

    def __call__(self, x):
        return np.exp(-self.rate * x) * np.cos(x)


@rrule.register_functor(Damped, float)
def _damped_rrule(f, x):
    y = f(x)

    def damped_pullback(dy):
        dx = dy * (-f.rate * y - np.exp(-f.rate * x) * np.sin(x))
        return Tangent(Damped, rate=-x * y * dy), dx

    return y, damped_pullback


@frule.register_functor(Damped, float)
def _damped_frule(tangents, f, x):
    y = f(x)
    df, dx = (unthunk(t) for t in tangents)
    d_rate = 0.0 if not isinstance(df, Tangent) else unthunk(df.rate)
    dx = 0.0 if not isinstance(dx, float) else dx
    return y, (-f.rate * y - np.exp(-f.rate * x) * np.sin(x)) * dx - x * y * d_rate


def test_the_integrands_own_values():
    """A functor's fields get the integral of the cotangents its rule reports (the testers vary the dataclass)."""
    _check(scipy.integrate.quad, Damped(0.8), 0.0, np.inf, config=RULES)
    _check(scipy.integrate.quad_vec, Damped(0.8), 0.0, 2.0, config=RULES)


def test_quad_vec_through_autograd():
    _check(scipy.integrate.quad_vec, lambda x: anp.array([anp.sin(x), x ** 2]), 0.2, 1.4)


def test_the_error_estimate_and_diagnostics_are_not_differentiable():
    out, pullback = rrule(RULES, scipy.integrate.quad, np.hypot, 0.0, 1.0, (0.5,), 1)
    assert len(out) == 3 and isinstance(out[2], dict)
    cotangents = pullback(Tangent(tuple, 1.0, 5.0, NoTangent()))
    assert unthunk(cotangents[3]) == pytest.approx(np.hypot(1.0, 0.5))
    _, tangent = frule(RULES, (NoTangent(), NoTangent(), 0.0, 1.0, Tangent(tuple, 0.0), NoTangent()),
                       scipy.integrate.quad, np.hypot, 0.0, 1.0, (0.5,), 1)
    assert all(isinstance(t, NoTangent) for t in tangent[1:])
    with pytest.raises(ProjectionError, match=r"quad pullback: output cotangent has 2 parts, expected 3"):
        pullback(Tangent(tuple, 1.0, 0.0))
    with pytest.raises(ProjectionError, match=r"quad pullback"):
        pullback(1.0)


def test_integer_limits_and_constants():
    """Integer limits and non-numeric args are not differentiated; an args given as a bare number is its own."""
    _, pullback = rrule(RULES, scipy.integrate.quad, np.multiply, 0, 2, 3.0)
    cotangents = [unthunk(c) for c in pullback((1.0, 0.0))]
    assert isinstance(cotangents[2], NoTangent) and isinstance(cotangents[3], NoTangent)
    assert cotangents[4] == pytest.approx(2.0)


def test_end_to_end_from_autograd():
    """The issue's example: quad as an autograd primitive, the parameter in args by position or by keyword (the
    bridge binds it to its position), in reverse and forward mode, against the closed form."""
    import autograd

    from chainrules.interop.autograd import primitive

    quad = primitive(scipy.integrate.quad)
    th = 0.7
    expected = 2 * np.sin(th ** 2) - (1 - np.cos(th ** 2)) / th ** 2   # d/dth of (1 - cos(th^2)) / th
    by_position = autograd.grad(lambda th: quad(lambda x, t: anp.sin(t * x), 0.0, th, (th,))[0])
    by_keyword = autograd.grad(lambda th: quad(lambda x, t: anp.sin(t * x), 0.0, th, args=(th,))[0])
    assert by_position(th) == pytest.approx(expected, rel=1e-10)
    assert by_keyword(th) == pytest.approx(expected, rel=1e-10)
    _, tangent = autograd.make_jvp(lambda th: quad(lambda x, t: anp.sin(t * x), 0.0, th, (th,))[0])(th)(1.0)
    assert tangent == pytest.approx(expected, rel=1e-10)
