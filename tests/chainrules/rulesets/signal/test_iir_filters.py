"""Rules of chainrules/rulesets/signal/iir_filters.py."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.signal

import chainrules
from chainrules import NotImplementedTangent, Tangent, ZeroTangent, frule, rrule, unthunk
from chainrules.testing import central_fdm, test_frule, test_rrule, vjp


def test_the_adjoint_in_x_is_the_filter_run_backwards():
    rng = np.random.default_rng(0)
    b, a = np.array([0.3, -0.2 + 0.1j]), np.array([1.0, -0.6j, 0.2])
    x, dy = rng.standard_normal(12), rng.standard_normal(12) + 1j * rng.standard_normal(12)
    _, pullback = rrule(scipy.signal.lfilter, b, a, x + 0j)
    backwards = scipy.signal.lfilter(np.conj(b), np.conj(a), dy[::-1])[::-1]
    np.testing.assert_allclose(unthunk(pullback(dy)[3]), backwards, atol=1e-12)


@pytest.mark.parametrize("poles", [(0.9, -0.5), (0.97, 0.3)])
def test_the_rational_dependence_on_a_near_the_unit_circle(poles):
    # y is a rational function of a: the long memory of poles near 1 makes its derivative large
    rng = np.random.default_rng(1)
    a = np.poly(poles) * 1.3
    b, x = np.array([0.4, 0.1, -0.2]), rng.standard_normal(64)
    dy = rng.standard_normal(64)
    _, pullback = rrule(scipy.signal.lfilter, b, a, x)
    (expected,) = vjp(central_fdm(9, 1), lambda a_: scipy.signal.lfilter(b, a_, x), dy, a)
    np.testing.assert_allclose(unthunk(pullback(dy)[2]), expected, rtol=1e-7)
    test_frule(scipy.signal.lfilter, b, a, x)


def test_final_state_alone_and_zi_by_keyword():
    rng = np.random.default_rng(2)
    b, a, x = np.array([0.3, 0.2, 0.1]), np.array([1.0, -0.4, 0.1]), rng.standard_normal(6)
    zi = rng.standard_normal(2)
    _, pullback = rrule(scipy.signal.lfilter, b, a, x, -1, zi)
    cotangents = pullback(Tangent(tuple, ZeroTangent(), np.ones(2)))       # only the final state
    (expected,) = vjp(None, lambda z: scipy.signal.lfilter(b, a, x, -1, z)[1], np.ones(2), zi)
    np.testing.assert_allclose(unthunk(cotangents[5]), expected, atol=1e-10)
    (_y, _zf), pullback = rrule(scipy.signal.lfilter, b, a, x, zi=zi)      # a keyword: not differentiated
    assert len(pullback((np.ones(6), np.ones(2)))) == 4


def test_sos_leading_denominator_coefficients_get_zero():
    sos = np.array([[0.2, 0.3, 0.1, 1.0, -0.5, 0.2]])
    _y, pullback = rrule(scipy.signal.sosfilt, sos, np.arange(5.0))
    sos_bar = unthunk(pullback(np.ones(5))[1])
    assert sos_bar[0, 3] == 0 and np.all(sos_bar[0, [0, 1, 2, 4, 5]] != 0)
    # a tangent there is ignored (SciPy refuses sos[:, 3] != 1)
    t = np.zeros((1, 6))
    t[0, 3] = 1.0
    assert np.allclose(frule((None, t, np.zeros(5)), scipy.signal.sosfilt, sos, np.arange(5.0))[1], 0)


def test_lfilter_zi_of_a_leading_zero_is_not_implemented():
    _, pullback = rrule(scipy.signal.lfilter_zi, np.array([1.0, 0.5]), np.array([0.0, 1.0, -0.5]))
    assert isinstance(pullback(np.ones(1))[2], NotImplementedTangent)


def test_integer_coefficients_are_not_differentiated():
    _y, pullback = rrule(scipy.signal.lfilter, [1, -1], [1], np.arange(4.0))
    cotangents = pullback(np.ones(4))
    assert cotangents[1] == chainrules.NoTangent() and cotangents[2] == chainrules.NoTangent()
    test_rrule(scipy.signal.lfilter, [1, -1], [1], np.arange(4.0))
