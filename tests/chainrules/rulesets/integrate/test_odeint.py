"""Rules of odeint.py (scipy.integrate.odeint): the adjoint over checkpointed intervals and the forward
sensitivities, against finite differences of the whole call and closed forms.

``odeint`` takes ``func(y, t, *args)`` (``tfirst=False``, its default): the autograd tests use that order;
the samples next to the rules use ``tfirst=True`` with right-hand sides that have rules.
"""

from __future__ import annotations

import autograd.numpy as anp
import numpy as np
import pytest
import scipy.integrate

import chainrules  # noqa: F401  (registers the rules)
from chainrules import NoRuleError, NoTangent, RulesOnlyConfig, Tangent, ZeroTangent, frule, rrule, unthunk
from chainrules.interop.autograd import AutogradConfig
from chainrules.rulesets.integrate._sample_functions import van_der_pol
from chainrules.rulesets.integrate.initial_value_problems import IntegrationFailedError
from chainrules.testing import test_frule, test_rrule

AUTOGRAD = AutogradConfig()
TIGHT = {"rtol": 1e-10, "atol": 1e-12}


def _pendulum(y, t, g, c):
    return anp.array([y[1], -g * anp.sin(y[0]) - c * y[1]])


def test_through_autograd():
    """Five output times (four checkpointed intervals), every input differentiated."""
    t = np.array([0.0, 0.3, 0.9, 1.4, 2.0])
    test_rrule(scipy.integrate.odeint, _pendulum, np.array([1.0, 0.2]), t, (9.81, 0.3), fkwargs=TIGHT,
               config=AUTOGRAD, rtol=1e-6)
    test_frule(scipy.integrate.odeint, _pendulum, np.array([1.0, 0.2]), t, (9.81, 0.3), fkwargs=TIGHT,
               config=AUTOGRAD, rtol=1e-6)


def test_exponential_decay_closed_form_and_backwards_in_time():
    k, y0 = 0.7, np.array([1.0, -2.0])
    t = np.array([1.5, 1.0, 0.2])                     # backwards
    _, pullback = rrule(AUTOGRAD, scipy.integrate.odeint, lambda y, t, k: -k * y, y0, t, (k,), **TIGHT)
    w = np.array([[0.0, 0.0], [1.0, 0.5], [-0.3, 2.0]])
    cotangents = [unthunk(c) for c in pullback(w)]
    decay = np.exp(-k * (t - t[0]))[:, None]
    np.testing.assert_allclose(cotangents[2], (w * decay).sum(0), rtol=1e-7)
    assert cotangents[4][0] == pytest.approx(np.sum(w * -(t - t[0])[:, None] * y0 * decay), rel=1e-7)
    np.testing.assert_allclose(cotangents[3][1:], np.sum(w * -k * y0 * decay, axis=1)[1:], rtol=1e-7)
    assert cotangents[3][0] == pytest.approx(np.sum(w * k * y0 * decay), rel=1e-7)


def test_stiff_with_a_jacobian_and_full_output():
    """Van der Pol with mu = 1000, ODEPACK's Dfun (given transposed, col_deriv=1) reused by the adjoint."""
    def jac_transposed(y, t, mu):
        return np.array([[0.0, -2 * mu * y[0] * y[1] - 1], [1.0, mu * (1 - y[0] ** 2)]])

    def vdp(y, t, mu):
        return van_der_pol(t, y, mu)

    t = np.array([0.0, 0.4, 1.0])
    y, _pullback = rrule(AutogradConfig(), scipy.integrate.odeint, vdp, np.array([2.0, 0.0]), t, (1000.0,),
                        jac_transposed, 1, 1, **TIGHT)
    assert isinstance(y, tuple) and y[1]["message"] == "Integration successful."
    test_rrule(scipy.integrate.odeint, lambda y, t, mu: anp.array([y[1], mu * (1 - y[0] ** 2) * y[1] - y[0]]),
               np.array([2.0, 0.0]), t, (1000.0,), jac_transposed, 1, 1, fkwargs=TIGHT, config=AUTOGRAD, rtol=1e-5,
               gauge_invariant=lambda out: out[0])


def test_a_failed_solve_has_no_derivative():
    with pytest.warns(scipy.integrate.ODEintWarning):
        y, pullback = rrule(AUTOGRAD, scipy.integrate.odeint, lambda y, t: y ** 2, np.array([1.0]),
                            np.array([0.0, 2.0]))
    with pytest.raises(IntegrationFailedError, match="odeint failed"):
        pullback(np.ones(y.shape))
    assert isinstance(pullback(ZeroTangent())[2], ZeroTangent)


def test_tfirst_and_keywords():
    y0, t = np.array([1.0, -0.5]), np.array([0.0, 0.5, 1.0])
    _, pullback = rrule(RulesOnlyConfig(), scipy.integrate.odeint, lambda t, y: -y, y0, t, tfirst=True)
    assert len(pullback(ZeroTangent())) == 4                 # args not given: the function, y0, t
    with pytest.raises(NoRuleError, match="has no rrule"):    # a lambda has no rule: RulesOnlyConfig says so
        pullback(np.ones((3, 2)))
    _, d = frule(AUTOGRAD, (NoTangent(), NoTangent(), np.ones(2), np.zeros(3), Tangent(tuple, 0.0)),
                 scipy.integrate.odeint, lambda y, t, k: -k * y, y0, t, (0.7,), **TIGHT)
    np.testing.assert_allclose(d, np.exp(-0.7 * t)[:, None] * np.ones(2), rtol=1e-7)


def test_end_to_end_from_autograd():
    """odeint as an autograd primitive: autograd.grad of a loss on its output, the parameters in args."""
    import autograd

    from chainrules.interop.autograd import primitive

    odeint = primitive(scipy.integrate.odeint)
    t = np.array([0.0, 0.5, 1.5])

    def loss(k):
        return anp.sum(odeint(lambda y, t, k: -k * y, np.array([1.0, 2.0]), t, (k,), **TIGHT) ** 2)

    k = 0.7
    expected = np.sum(-2 * t * np.exp(-2 * k * t)) * 5.0     # sum_t (1 + 4) exp(-2 k t), differentiated
    assert autograd.grad(loss)(k) == pytest.approx(expected, rel=1e-7)
