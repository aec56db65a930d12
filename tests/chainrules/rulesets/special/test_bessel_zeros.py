"""chainrules/rulesets/special/bessel_zeros.py: zeros are functions of integers, non-differentiable."""

from __future__ import annotations

import pytest
import scipy.special as sc

import chainrules  # noqa: F401  (registers the rules)
from chainrules import frule, rrule
from chainrules.rulesets.special.bessel_zeros import COUNT_ONLY, ORDER_AND_COUNT, WITH_COMPLEX_FLAG
from chainrules_core import NoTangent


@pytest.mark.parametrize("f", COUNT_ONLY + ORDER_AND_COUNT + WITH_COMPLEX_FLAG, ids=lambda f: f.__name__)
def test_zeros_are_non_differentiable(f):
    args = (1, 2) if f in ORDER_AND_COUNT else (2,)
    _, pullback = rrule(f, *args)
    assert all(c == NoTangent() for c in pullback(None))
    assert frule((None,) * (len(args) + 1), f, *args)[1] == NoTangent()


def test_complex_flag_by_keyword():
    _, pullback = rrule(sc.y0_zeros, 2, complex=True)
    assert pullback(None) == (NoTangent(), NoTangent())
