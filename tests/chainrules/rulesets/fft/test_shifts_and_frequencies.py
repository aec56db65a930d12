"""Rules of chainrules/rulesets/fft/shifts_and_frequencies.py."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.fft

import chainrules  # noqa: F401  (registers the rules)
from chainrules import NoTangent, rrule
from chainrules.testing import test_frule, test_rrule


@pytest.mark.parametrize("shift", [np.fft.fftshift, np.fft.ifftshift, scipy.fft.fftshift, scipy.fft.ifftshift])
def test_shift_pullback_is_the_inverse_shift(shift):
    x = np.arange(15.0).reshape(3, 5)
    for axes in (None, 0, (1,), (0, 1, 1)):
        y, pullback = rrule(shift, x, axes)
        np.testing.assert_array_equal(pullback(y)[1], x)       # a permutation: adjoint = inverse
    test_frule(shift, x + 1j, fkwargs={"axes": (0,)})


def test_frequencies_depend_on_the_spacing_given_by_position():
    test_rrule(np.fft.fftfreq, 7, 0.25)
    test_frule(scipy.fft.rfftfreq, 8, 0.5)
    _, pullback = rrule(np.fft.rfftfreq, 8, d=0.5)            # by keyword: not differentiated
    assert pullback(np.ones(5)) == (NoTangent(), NoTangent())


def test_fast_lengths_are_not_differentiable():
    y, pullback = rrule(scipy.fft.next_fast_len, 97)
    assert y == scipy.fft.next_fast_len(97) and pullback(None) == (NoTangent(), NoTangent())
