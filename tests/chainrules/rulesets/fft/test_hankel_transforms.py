"""Rules of chainrules/rulesets/fft/hankel_transforms.py."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.fft

import chainrules  # noqa: F401  (registers the rules)
from chainrules import NoTangent, NotImplementedTangent, ZeroTangent, frule, rrule
from chainrules.testing import PrimalAndTangent, test_rrule


@pytest.mark.parametrize("f", [scipy.fft.fht, scipy.fft.ifht])
@pytest.mark.parametrize(("n", "mu", "offset", "bias"), [(8, 0.5, 0.0, 0.0), (7, -0.5, 0.3, 0.4),
                                                         (6, 2.0, -0.2, -0.7)])
def test_the_transform_is_a_symmetric_matrix(f, n, mu, offset, bias):
    # the fact the pullback rests on: fht^T = fht, whatever the bias and the offset
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")                       # a singular coefficient for some mu, bias
        M = np.stack([f(np.eye(n)[k], 0.2, mu, offset, bias) for k in range(n)], axis=1)
    np.testing.assert_allclose(M, M.T, rtol=1e-12, atol=1e-12 * np.abs(M).max())


def test_parameters_are_not_implemented_never_zero():
    a = np.linspace(0.1, 1.0, 6)
    _, pullback = rrule(scipy.fft.fht, a, 0.1, 0.5, 0.2, 0.1)
    cotangents = pullback(np.ones(6))
    assert all(isinstance(c, NotImplementedTangent) for c in cotangents[2:])
    assert "mu" in cotangents[3].info
    _, dy = frule((NoTangent(), ZeroTangent(), 1.0, 0.0), scipy.fft.fht, a, 0.1, 0.5)
    assert isinstance(dy, NotImplementedTangent)
    _, dy = frule((NoTangent(), np.ones(6), 0.0, ZeroTangent()), scipy.fft.fht, a, 0.1, 0.5)
    np.testing.assert_allclose(dy, scipy.fft.fht(np.ones(6), 0.1, 0.5))
    # held fixed, the parameters let the test of the input's cotangent pass
    test_rrule(scipy.fft.ifht, a, PrimalAndTangent(0.1, NoTangent()), PrimalAndTangent(0.5, NoTangent()))


def test_fhtoffset_is_flat_in_initial():
    _, pullback = rrule(scipy.fft.fhtoffset, 0.3, 1.0, 0.2, 0.1)
    assert pullback(1.0)[3] == 0.0
    test_rrule(scipy.fft.fhtoffset, 0.3, 1.0, 0.2, 0.1)
