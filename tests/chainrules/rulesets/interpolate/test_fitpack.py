"""Rules of chainrules/rulesets/interpolate/fitpack.py.

The samples of ``splrep`` (s=0, xb/xe, task=-1 with weights), ``splprep`` (chord lengths, given
``u`` and ends), ``splev`` (every ``ext``, parametric, a BSpline), ``splint``, ``splder``,
``splantider`` and the ``UnivariateSpline`` family are checked against finite differences by
tests/chainrules/test_every_rule.py. Here: ``splev(xq, splrep(x, y))`` end to end, calling a
spline object with its own tangent, and the smoothing fits that are not implemented.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.interpolate as si

import chainrules
from chainrules import NoTangent, NotImplementedTangent, ZeroTangent, frule, rrule, unthunk
from chainrules.testing import PrimalAndTangent, rand_tangent, test_frule, test_rrule, vjp

X = np.array([0.0, 0.6, 1.3, 1.9, 2.8, 3.4, 4.1])
Q = np.array([-0.3, 0.35, 1.1, 2.0, 2.9, 3.9, 4.4])


def test_splev_of_splrep_is_differentiable_in_x_y_and_the_points(rand):
    y, dy = np.sin(X) + 0.2 * rand(7), rand(7)
    tck, fit_pullback = rrule(si.splrep, X, y)
    _, eval_pullback = rrule(si.splev, Q, tck)
    _, dq, dtck = eval_pullback(dy)
    parts = fit_pullback(unthunk(dtck))
    expected = vjp(None, lambda a, v, q: si.splev(q, si.splrep(a, v)), dy, X, y, Q)
    for got, want in zip((unthunk(parts[1]), unthunk(parts[2]), unthunk(dq)), expected):
        np.testing.assert_allclose(got, want, rtol=1e-7, atol=1e-8)


def test_calling_a_univariate_spline_differentiates_its_knots_and_coefficients(rand):
    spline = si.InterpolatedUnivariateSpline(X, np.sin(X))
    dspline = rand_tangent(spline)
    test_rrule(PrimalAndTangent(spline, dspline), Q)
    test_frule(PrimalAndTangent(spline, dspline), Q)


@pytest.mark.parametrize("call", [lambda x, y: rrule(si.splrep, x, y, s=0.5),
                                  lambda x, y: rrule(si.UnivariateSpline, x, y),
                                  lambda x, y: rrule(si.splrep, x, y, per=1)])
def test_smoothing_and_periodic_fits_are_not_implemented(call, rand):
    y = np.sin(X) + 0.2 * rand(7)
    y[-1] = y[0]
    result, pullback = call(X, y)
    cotangent = (ZeroTangent(), rand(np.size(result[1])), NoTangent()) if isinstance(result, tuple) else \
        chainrules.Tangent(type(result), c=rand(np.size(result._eval_args[1])))
    parts = [unthunk(p) for p in pullback(cotangent)]
    assert isinstance(parts[2], NotImplementedTangent)
    assert "s=0" in parts[2].info or "periodic" in parts[2].info
    _, tangent = frule((NoTangent(), ZeroTangent(), np.ones(7)), si.splrep, X, y, s=0.5)
    assert isinstance(unthunk(tangent), NotImplementedTangent)
