"""Rules of chainrules/rulesets/fft/real_transforms.py: half spectra, odd lengths, DC and Nyquist."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.fft

import chainrules  # noqa: F401  (registers the rules)
from chainrules import rrule
from chainrules.testing import test_frule, test_rrule


def real_jacobian(f, n_in, complex_input):
    """The real matrix of a real-linear map between (Re, Im)-stacked vectors, from the primal alone."""
    def as_real(v):
        v = np.ravel(v)
        return np.concatenate([v.real, v.imag]) if np.iscomplexobj(v) else v
    cols = []
    for k in range(n_in):
        cols.append(as_real(f(np.eye(n_in)[k] + 0j if complex_input else np.eye(n_in)[k])))
    if complex_input:
        for k in range(n_in):
            cols.append(as_real(f(1j * np.eye(n_in)[k])))
    return np.stack(cols, axis=1)


@pytest.mark.parametrize("n", [5, 6, 9])
@pytest.mark.parametrize("norm", ["backward", "ortho", "forward"])
@pytest.mark.parametrize("f", [np.fft.rfft, scipy.fft.rfft])
def test_rfft_pullback_is_the_transpose_of_the_half_spectrum(f, n, norm):
    # x_bar = J^T (Re y_bar, Im y_bar): the bins that stand for two are not counted twice.
    rng = np.random.default_rng(n)
    m = n // 2 + 1
    dy = rng.standard_normal(m) + 1j * rng.standard_normal(m)
    J = real_jacobian(lambda v: f(v, norm=norm), n, complex_input=False)
    dx = rrule(f, rng.standard_normal(n), norm=norm)[1](dy)[1]
    np.testing.assert_allclose(dx, J.T @ np.concatenate([dy.real, dy.imag]), atol=1e-12)


@pytest.mark.parametrize("n", [6, 7])
@pytest.mark.parametrize("f", [np.fft.irfft, scipy.fft.irfft])
def test_irfft_ignores_the_imaginary_parts_of_dc_and_nyquist(f, n):
    rng = np.random.default_rng(4)
    z = rng.standard_normal(4) + 1j * rng.standard_normal(4)
    dz = rrule(f, z, n)[1](rng.standard_normal(n))[1]
    assert dz[0].imag == 0
    if n % 2 == 0:
        assert dz[n // 2].imag == 0                       # Nyquist, for even lengths only
    else:
        assert dz[n // 2].imag != 0
    J = real_jacobian(lambda v: f(v, n), 4, complex_input=True)
    dy = rng.standard_normal(n)
    dz = rrule(f, z, n)[1](dy)[1]
    np.testing.assert_allclose(np.concatenate([dz.real, dz.imag]), J.T @ dy, atol=1e-12)


def test_irfft_truncated_bins_get_zero():
    z = np.arange(1.0, 7.0) + 1j
    dz = rrule(np.fft.irfft, z, 4)[1](np.ones(4))[1]       # uses bins 0..2 only
    np.testing.assert_array_equal(dz[3:], 0)


@pytest.mark.parametrize("n", [3, 5, 7])
def test_odd_lengths(n):
    # autograd raises for odd-length real FFTs; these are exact at every length
    rng = np.random.default_rng(n)
    test_rrule(np.fft.rfft, rng.standard_normal(n))
    test_rrule(np.fft.irfft, rng.standard_normal(3) + 1j * rng.standard_normal(3), n)
    test_frule(scipy.fft.rfftn, rng.standard_normal((2, n)))


def test_single_precision():
    x = np.random.default_rng(5).standard_normal((3, 5)).astype(np.float32)
    y, pullback = rrule(scipy.fft.rfft2, x)
    assert y.dtype == np.complex64 and pullback(np.ones(y.shape, np.complex64))[1].dtype == np.float32
    z = y
    y, pullback = rrule(np.fft.irfftn, z, (3, 5), (0, 1))
    assert y.dtype == np.float32 and pullback(np.ones(y.shape, np.float32))[1].dtype == np.complex64


def test_real_input_to_irfft_gets_a_real_cotangent():
    z = np.array([1.0, 2.0, -1.0])
    _y, pullback = rrule(np.fft.irfft, z)
    assert pullback(np.ones(4))[1].dtype == np.float64


def test_autograd_differentiates_odd_lengths_through_the_rule():
    # autograd's own rfft raises for odd lengths; through the rule (the bridge converts the conjugated
    # cotangents) the gradient is exact
    autograd = pytest.importorskip("autograd")
    import autograd.numpy as anp

    from chainrules.interop.autograd import primitive

    rfft = primitive(np.fft.rfft)

    def loss(x):
        return anp.sum(anp.abs(rfft(x) * np.arange(1.0, 5.0)) ** 2)

    x = np.random.default_rng(6).standard_normal(7)
    h = 1e-6
    fd = [(loss(x + h * e) - loss(x - h * e)) / (2 * h) for e in np.eye(7)]
    np.testing.assert_allclose(autograd.grad(loss)(x), fd, rtol=1e-6)
