"""Tests of chainrules/rulesets/stats/wishart.py: stacks of matrices along symmetric directions."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import invwishart, wishart

import chainrules  # noqa: F401  (registers the rules)
from chainrules import frule, rrule, unthunk
from chainrules.rulesets._samples import spd
from chainrules.testing import jvp


@pytest.mark.parametrize("dist", [wishart, invwishart])
def test_a_stack_of_matrices_along_symmetric_directions(dist):
    rng = np.random.default_rng(8)
    xs = np.stack([spd(3, rng) * 2 for _ in range(3)], axis=-1)  # SciPy's layout: (p, p, n)
    scale = spd(3, rng)
    e = rng.standard_normal((3, 3, 3))
    dxs = e + np.swapaxes(e, 0, 1)
    f = rng.standard_normal((3, 3))
    dscale = f + f.T
    expected = jvp(None, lambda a, s, d: dist.logpdf(a, d, s), (xs, dxs), (scale, dscale), (5.5, 0.7))
    pushed = frule((None, None, dxs, 0.7, dscale), dist.logpdf, xs, 5.5, scale)[1]
    np.testing.assert_allclose(pushed, expected, rtol=1e-6)
    w = np.array([1.0, 0.5, -1.5])
    _, pullback = rrule(dist.logpdf, xs, 5.5, scale)
    cx, cdf, cs = (unthunk(c) for c in pullback(w)[2:])
    np.testing.assert_allclose(cs, cs.T, atol=1e-14)
    adjoint = np.sum(cx * dxs) + 0.7 * cdf + np.sum(cs * dscale)
    assert adjoint == pytest.approx(float(w @ expected), rel=1e-6)
