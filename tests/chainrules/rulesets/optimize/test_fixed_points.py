"""Rules of chainrules/rulesets/optimize/fixed_points.py.

Closed form: the fixed point of ``t cos(x)`` moves as ``cos(x) / (1 + t sin(x))``. Everything
else against finite differences of the whole call at tight tolerances.
"""

from __future__ import annotations

import autograd.numpy as anp
import numpy as np
import pytest
import scipy.optimize as so

from chainrules.rulesets.optimize import ImplicitDerivativeError, _problems
from chainrules.testing import PrimalAndTangent
from chainrules_core import NoTangent, Tangent, ZeroTangent, frule, rrule

from .conftest import check


# ---- fixed_point ----------------------------------------------------------------------------------------------
def test_fixed_point_closed_form(rules_only):
    t = np.array([0.5, -0.8, 0.9])
    x, pullback = rrule(rules_only, so.fixed_point, _problems.cosine_map, np.zeros(3), (t,), xtol=1e-14)
    np.testing.assert_allclose(x, t * np.cos(x), rtol=1e-13)
    expected = np.cos(x) / (1 + t * np.sin(x))
    np.testing.assert_allclose(pullback(np.ones(3))[3][0], expected, rtol=1e-12)
    _, dx = frule(rules_only, (NoTangent(), NoTangent(), ZeroTangent(), Tangent(tuple, np.ones(3))), so.fixed_point,
                  _problems.cosine_map, np.zeros(3), (t,), xtol=1e-14)
    np.testing.assert_allclose(dx, expected, rtol=1e-12)


def test_fixed_point_float32_keeps_float32(rules_only):
    x, pullback = rrule(rules_only, so.fixed_point, _problems.cosine_map, np.float32(0.3), (np.float32(0.5),))
    assert x.dtype == np.float32
    assert np.asarray(pullback(np.float32(1.0))[3][0]).dtype == np.float32
    check(so.fixed_point, _problems.cosine_map, np.float32(0.3), (np.float32(0.5),), config=rules_only)


def test_fixed_point_of_a_coupled_contraction(autograd_config):
    a = np.array([[0.4, -0.3, 0.1], [0.2, 0.5, -0.2], [0.1, 0.3, 0.3]])

    def g(x, a, b):
        return 0.5 * anp.tanh(a @ x) + b

    for method in ("del2", "iteration"):
        check(so.fixed_point, g, np.zeros(3), (a, np.array([0.3, -0.1, 0.2])),
              PrimalAndTangent(1e-13, NoTangent()), 500, method, config=autograd_config)


def test_fixed_point_that_is_not_isolated_raises(autograd_config):
    _x, pullback = rrule(autograd_config, so.fixed_point, lambda x, t: x + 0 * t, 0.3, (1.0,))
    with pytest.raises(ImplicitDerivativeError, match="singular"):
        pullback(np.array(1.0))
