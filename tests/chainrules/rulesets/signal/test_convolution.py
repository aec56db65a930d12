"""Rules of chainrules/rulesets/signal/convolution.py: the conventions the module docstring states.

The finite-difference checks at every sample run in tests/chainrules/test_every_rule.py.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.signal

import chainrules
from chainrules import NoTangent, rrule, unthunk
from chainrules.testing import test_frule, test_rrule


def jacobian(f, x):
    """The matrix of a function linear in x (complex-linear), column by column from the primal."""
    cols = [np.ravel(f(e.reshape(x.shape))) for e in np.eye(x.size)]
    return np.stack(cols, axis=1)


@pytest.mark.parametrize("mode", ["full", "same", "valid"])
@pytest.mark.parametrize("boundary", ["fill", "wrap", "symm"])
def test_correlate2d_pullback_is_the_transpose(mode, boundary):
    # correlate2d's "same" starts at len(in2) // 2 (convolve2d at (len(in2) - 1) // 2): even kernels tell them apart
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal((4, 5)), rng.standard_normal((2, 4))
    y, pullback = rrule(scipy.signal.correlate2d, a, b, mode, boundary)
    dy = rng.standard_normal(y.shape)
    J = jacobian(lambda v: scipy.signal.correlate2d(v, b, mode, boundary), a)
    np.testing.assert_allclose(unthunk(pullback(dy)[1]), (J.T @ dy.ravel()).reshape(a.shape), atol=1e-12)


def test_correlate2d_valid_with_a_larger_in2_is_conjugated_by_scipy():
    # SciPy swaps the inputs and reverses the output without conjugating it (correlate does conjugate);
    # the rules differentiate what SciPy computes: if SciPy changes, this test says so.
    rng = np.random.default_rng(1)
    a = rng.standard_normal((2, 2)) + 1j * rng.standard_normal((2, 2))
    b = rng.standard_normal((3, 3)) + 1j * rng.standard_normal((3, 3))
    np.testing.assert_allclose(scipy.signal.correlate2d(a, b, "valid"),
                               np.conj(scipy.signal.correlate(a, b, "valid")), atol=1e-12)
    test_rrule(scipy.signal.correlate2d, a, b, "valid")


def test_fillvalue_by_position_is_differentiated_by_keyword_not():
    rng = np.random.default_rng(2)
    a, b = rng.standard_normal((3, 4)), rng.standard_normal((2, 2))
    y, pullback = rrule(scipy.signal.convolve2d, a, b, "full", "fill", 0.5)
    fill_bar = unthunk(pullback(np.ones(y.shape))[5])
    # every padded sample meets sum(b) in the full output, for each output it reaches
    assert np.isfinite(fill_bar) and fill_bar != 0
    y, pullback = rrule(scipy.signal.convolve2d, a, b, "full", "fill", fillvalue=0.5)
    assert len(pullback(np.ones(y.shape))) == 5
    y, pullback = rrule(scipy.signal.convolve2d, a, b, "valid", "fill", 0.5)   # no padding reaches the output
    assert isinstance(unthunk(pullback(np.ones(y.shape))[5]), chainrules.ZeroTangent)


@pytest.mark.parametrize("mode", ["full", "same", "valid"])
def test_methods_agree(mode):
    rng = np.random.default_rng(3)
    a, b = rng.standard_normal((5, 6)), rng.standard_normal((2, 3))
    dy = None
    results = []
    for method in ("direct", "fft", "auto"):
        y, pullback = rrule(scipy.signal.correlate, a, b, mode, method)
        dy = rng.standard_normal(y.shape) if dy is None else dy
        results.append([unthunk(c) for c in pullback(dy)[1:3]])
    for other in results[1:]:
        for c0, c1 in zip(results[0], other):
            np.testing.assert_allclose(c0, c1, atol=1e-10)


def test_fftconvolve_broadcast_axes_are_summed():
    rng = np.random.default_rng(4)
    a, b = rng.standard_normal((3, 8)), rng.standard_normal((1, 4))
    test_rrule(scipy.signal.fftconvolve, a, b, "same", 1)
    test_frule(scipy.signal.oaconvolve, a, b, "full", [1])


def test_integer_input_is_not_differentiated():
    y, pullback = rrule(scipy.signal.convolve, np.arange(4), np.array([0.5, 1.0]))
    assert unthunk(pullback(np.ones(y.shape))[1]) == NoTangent()


def test_wrong_cotangent_names_the_function():
    _, pullback = rrule(scipy.signal.fftconvolve, np.ones(4), np.ones(2))
    with pytest.raises(chainrules.ProjectionError, match=r"scipy\.signal\.fftconvolve pullback"):
        pullback(np.ones(4))
