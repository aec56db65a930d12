"""Rules of chainrules/rulesets/special/kelvin.py."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.special as sc

import chainrules  # noqa: F401  (registers the rules)
from chainrules import rrule
from chainrules.testing import test_frule, test_rrule

FUNCTIONS = [sc.ber, sc.bei, sc.ker, sc.kei, sc.berp, sc.beip, sc.kerp, sc.keip, sc.kelvin]


@pytest.mark.parametrize("f", FUNCTIONS, ids=lambda f: f.__name__)
def test_kelvin_functions(f):
    x = np.array([1e-3, 0.5, 2.0, 7.0, 30.0])
    test_rrule(f, x)
    test_frule(f, x)
    test_rrule(f, x[1:3].astype(np.float32))
    if f in (sc.ber, sc.bei, sc.berp, sc.beip):
        test_rrule(f, -x[:4])


@pytest.mark.parametrize("f, expected", [(sc.berp, 0.0), (sc.beip, 0.5)])
def test_second_derivative_at_zero(f, expected):
    # ber''(0) = 0, bei''(0) = 1/2 (bei = x^2/4 - ...): the limits of -ber'/x - bei, -bei'/x + ber
    assert rrule(f, 0.0)[1](1.0)[1] == expected
    assert rrule(sc.kelvin, 0.0)[0][0] == 1.0
