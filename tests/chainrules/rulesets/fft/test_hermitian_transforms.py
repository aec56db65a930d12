"""Rules of chainrules/rulesets/fft/hermitian_transforms.py."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.fft

import chainrules  # noqa: F401  (registers the rules)
from chainrules import rrule
from chainrules.testing import test_frule, test_rrule


@pytest.mark.parametrize("norm", ["backward", "ortho", "forward"])
def test_the_library_identities_the_rules_use(norm):
    # hfft(x) = irfft(conj(x), norm=swapped), ihfft(x) = conj(rfft(x, norm=swapped)); also n-dimensional
    swapped = {"backward": "forward", "forward": "backward", "ortho": "ortho"}[norm]
    rng = np.random.default_rng(0)
    z = rng.standard_normal((3, 4)) + 1j * rng.standard_normal((3, 4))
    x = rng.standard_normal((3, 5))
    for lib in (np.fft, scipy.fft):
        np.testing.assert_allclose(lib.hfft(z, 7, norm=norm), np.fft.irfft(np.conj(z), 7, norm=swapped), atol=1e-12)
        np.testing.assert_allclose(lib.ihfft(x, norm=norm), np.conj(np.fft.rfft(x, norm=swapped)), atol=1e-12)
    np.testing.assert_allclose(scipy.fft.hfftn(z, (3, 5), (0, 1), norm=norm),
                               np.fft.irfftn(np.conj(z), (3, 5), (0, 1), norm=swapped), atol=1e-12)
    np.testing.assert_allclose(scipy.fft.ihfftn(x, norm=norm), np.conj(np.fft.rfftn(x, norm=swapped)), atol=1e-12)


@pytest.mark.parametrize("f", [np.fft.hfft, scipy.fft.hfft])
def test_hfft_dc_and_nyquist_imaginary_parts_get_zero(f):
    z = np.array([1.0 + 2j, 3j, 2.0 - 1j, 0.5 + 0.5j])
    dz = rrule(f, z)[1](np.random.default_rng(1).standard_normal(6))[1]
    assert dz[0].imag == 0 and dz[3].imag == 0


@pytest.mark.parametrize("n", [5, 8])
def test_odd_and_even(n):
    rng = np.random.default_rng(n)
    test_rrule(np.fft.ihfft, rng.standard_normal(n))
    test_frule(scipy.fft.hfft, rng.standard_normal(4) + 1j * rng.standard_normal(4), n)
    test_rrule(scipy.fft.hfft2, rng.standard_normal((2, 4)) + 1j * rng.standard_normal((2, 4)), (3, n))
