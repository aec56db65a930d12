"""Rules of chainrules/rulesets/special/airy.py: airy, airye (complex, not holomorphic in part), itairy."""

from __future__ import annotations

import mpmath as mp
import numpy as np
import pytest
import scipy.special as sc

import chainrules  # noqa: F401  (registers the rules)
from chainrules import frule, rrule
from chainrules.testing import test_frule, test_rrule
from chainrules_core import Tangent, ZeroTangent


@pytest.mark.parametrize("f", [sc.airy, sc.airye])
def test_real_and_complex(f):
    x = np.array([0.2, 1.3, 6.0]) if f is sc.airye else np.array([-7.0, -1.3, 0.0, 1.3, 6.0])
    test_rrule(f, x)
    test_frule(f, x)
    test_rrule(f, x.astype(np.float32))
    z = np.array([0.4 + 0.3j, -2.0 + 1.5j, 3.0 - 2.0j, -0.5 - 0.01j, -0.5 + 0.01j])
    test_rrule(f, z)
    test_frule(f, z)


def test_airye_bi_part_on_the_negative_axis():
    # eAi is NaN for real x < 0 (z^(3/2) is not real); the eBi parts are Bi's there
    x = np.array([-3.0, -0.4])
    _, pullback = rrule(sc.airye, x)
    dx = pullback(Tangent(tuple, ZeroTangent(), ZeroTangent(), np.ones(2), np.ones(2)))[1]
    bi, bip = sc.airy(x)[2:]
    np.testing.assert_allclose(dx, bip + x * bi, rtol=1e-12)


def test_airye_is_not_holomorphic():
    # a real step and an imaginary step of the same size give derivatives that are not i apart
    z = 1.0 + 0.7j
    _, real_step = frule((None, 1.0), sc.airye, z)
    _, imaginary_step = frule((None, 1j), sc.airye, z)
    assert not np.isclose(imaginary_step[2], 1j * real_step[2])
    assert np.isclose(imaginary_step[0], 1j * real_step[0])  # eAi is holomorphic


def test_itairy_within_scipy_accuracy():
    test_rrule(sc.itairy, np.array([-1.0, -0.2, 0.0, 0.5, 1.0]), rtol=1e-5)
    test_frule(sc.itairy, np.array([-1.0, 0.5, 1.0]), rtol=1e-5)


def test_itairy_derivative_is_exact_where_scipy_is_not():
    # mpmath differentiates its own integral at 30 digits; SciPy's itairy is off at x = 4
    _, pullback = rrule(sc.itairy, 4.0)
    ours = pullback(Tangent(tuple, 1.0, ZeroTangent(), ZeroTangent(), ZeroTangent()))[1]
    expected = mp.diff(lambda t: mp.quad(mp.airyai, [0, t]), 4.0)
    assert abs(ours - float(expected)) <= 1e-13 * abs(float(expected))
