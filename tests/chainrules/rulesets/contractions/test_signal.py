"""Rules of chainrules/rulesets/contractions/signal.py, checked against finite differences."""

from __future__ import annotations

import numpy as np
import pytest

import chainrules  # noqa: F401  (registers the rules)
from chainrules import ProjectionError, rrule
from chainrules.rulesets.contractions.signal import output_window
from chainrules.testing import test_frule, test_rrule

LENGTHS = [(5, 3), (3, 5), (4, 2), (2, 4), (1, 3), (4, 4), (3, 1)]  # both parities, both orders
MODES = ["full", "same", "valid"]


@pytest.mark.parametrize("f", [np.convolve, np.correlate], ids=["convolve", "correlate"])
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(("n_a", "n_v"), LENGTHS)
def test_convolve_correlate(f, mode, n_a, n_v, dtype, rand):
    a, v = rand(n_a, dtype), rand(n_v, dtype)
    test_rrule(f, a, v, mode)
    test_frule(f, a, v, mode)


@pytest.mark.parametrize("f", [np.convolve, np.correlate], ids=["convolve", "correlate"])
def test_mode_spellings(f, rand):
    a, v = rand(5), rand(2)
    test_rrule(f, a, v)                                # the function's default mode
    test_rrule(f, a, v, fkwargs={"mode": "same"})
    test_rrule(f, a, v, 1)                             # NumPy's number for "same"
    test_frule(f, a, v, fkwargs={"mode": "full"})


@pytest.mark.parametrize("f", [np.convolve, np.correlate], ids=["convolve", "correlate"])
def test_mixed_real_complex(f, rand):
    test_rrule(f, rand(4), rand(3, np.complex128), "same")
    test_rrule(f, rand(4, np.complex128), rand(3), "full")


def test_convolve_scalars(rand):
    test_rrule(np.convolve, 2.0, rand(3))
    test_rrule(np.convolve, np.array(2.0), rand(3), "same")
    test_frule(np.convolve, rand(3), 0.5)


def test_output_window_matches_numpy(rand):
    for n_a, n_v in LENGTHS:
        a, v = rand(n_a), rand(n_v)
        for f, is_correlate, w in ((np.convolve, False, v), (np.correlate, True, v[::-1])):
            full = np.convolve(a, w, "full")
            for mode in MODES:
                start, length = output_window(n_a, n_v, mode, is_correlate)
                np.testing.assert_allclose(f(a, v, mode), full[start:start + length])


def test_errors(rand):
    _, pullback = rrule(np.convolve, rand(4), rand(2))
    with pytest.raises(ProjectionError, match=r"numpy\.convolve pullback: output cotangent"):
        pullback(np.ones(4))
    with pytest.raises(ValueError, match="mode"):
        rrule(np.correlate, rand(4), rand(2), "sideways")
