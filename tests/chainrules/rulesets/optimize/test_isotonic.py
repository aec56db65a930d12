"""Rules of chainrules/rulesets/optimize/isotonic.py: isotonic_regression.

Closed form: on fixed blocks the fit is the weighted block mean, so ``dx_i/dy_j = w_j / W_B``
for ``i, j`` in one block and zero across blocks; finite differences of the whole call run at
the samples (``python -m chainrules check``, ``tests/chainrules/test_every_rule.py``).
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.optimize as so

from chainrules.rulesets.optimize import ImplicitDerivativeError
from chainrules_core import NoTangent, Tangent, frule, rrule

from .conftest import check

Y = np.array([1.0, 3.0, 2.0, 4.0, 3.5, 5.0])
W = np.array([1.0, 2.0, 1.0, 1.0, 3.0, 1.0])


def test_closed_form_jacobian():
    res, pullback = rrule(so.isotonic_regression, Y, weights=W)
    np.testing.assert_array_equal(res.blocks, [0, 1, 3, 5, 6])
    jac = np.zeros((6, 6))
    for a, b in [(0, 1), (1, 3), (3, 5), (5, 6)]:
        jac[a:b, a:b] = W[a:b] / W[a:b].sum()
    for i in range(6):
        e = np.eye(6)[i]
        np.testing.assert_allclose(pullback(Tangent(type(res), {"x": e}))[1], jac[i], rtol=1e-14)
        _, dres = frule((NoTangent(), e), so.isotonic_regression, Y, weights=W)
        np.testing.assert_allclose(dres["x"], jac[:, i], rtol=1e-14)


@pytest.mark.parametrize("increasing", [True, False])
def test_against_finite_differences(increasing):
    check(so.isotonic_regression, np.array([0.3, 2.0, 1.1, 1.4, 3.0, 2.2, 2.9]),
          fkwargs={"weights": np.arange(1.0, 8.0), "increasing": increasing},
          gauge_invariant=lambda res: res.x)


def test_ties_raise():
    # two equal values: SciPy pools them, into a block that could split again (a zero multiplier)
    res, pullback = rrule(so.isotonic_regression, np.array([1.0, 2.0, 2.0, 3.0]))
    with pytest.raises(ImplicitDerivativeError, match="one-sidedly"):
        pullback(Tangent(type(res), {"x": np.ones(4)}))
    res, pullback = rrule(so.isotonic_regression, np.array([3.0, 1.0, 2.0]))  # one block; its prefix 3, 1 has its mean
    with pytest.raises(ImplicitDerivativeError, match="split"):
        pullback(Tangent(type(res), {"x": np.ones(3)}))
