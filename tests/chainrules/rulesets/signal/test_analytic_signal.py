"""Rules of chainrules/rulesets/signal/analytic_signal.py."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.signal

from chainrules import rrule


@pytest.mark.parametrize("N", [None, 5, 8, 11])
def test_hilbert_pullback_is_the_transpose_of_the_real_linear_map(N):
    rng = np.random.default_rng(0)
    x = rng.standard_normal(7)
    dy = rng.standard_normal(N or 7) + 1j * rng.standard_normal(N or 7)
    H = np.stack([scipy.signal.hilbert(e, N) for e in np.eye(7)], axis=1)       # complex matrix of a real input
    expected = H.real.T @ dy.real + H.imag.T @ dy.imag
    np.testing.assert_allclose(rrule(scipy.signal.hilbert, x, N)[1](dy)[1], expected, atol=1e-12)


def test_complex_input_is_refused_by_scipy():
    with pytest.raises(ValueError, match="real"):
        rrule(scipy.signal.hilbert, np.ones(4) + 1j)
