"""Rules of chainrules/rulesets/special/logistic.py: finite differences in both tails (mpmath where they vanish)."""

from __future__ import annotations

import mpmath as mp
import numpy as np
import pytest
import scipy.special as sc

import chainrules  # noqa: F401  (registers the rules)
from chainrules import frule
from chainrules.testing import test_scalar
from chainrules_core import NoTangent

mp.mp.dps = 30


@pytest.mark.parametrize("f", [sc.expit, sc.log_expit, sc.softplus])
@pytest.mark.parametrize("x", [-50.0, -3.0, 0.0, 0.5, 40.0])
def test_expit_family(f, x):
    test_scalar(f, x)
    test_scalar(f, np.float32(x))


@pytest.mark.parametrize("p", [1e-4, 0.2, 0.5, 0.9, 1 - 1e-4])
def test_logit(p):
    test_scalar(sc.logit, p)
    test_scalar(sc.logit, np.float32(p))


def test_tails_against_mpmath():
    # y (1 - y) would be 0 from x = 37; sigma(x) sigma(-x) keeps the tail
    def sigma(t):
        return 1 / (1 + mp.exp(-t))

    with mp.workdps(400):  # sigma(700) = 1 - 1e-304: the derivative needs 300 more digits to resolve
        for f, mp_f in ((sc.expit, sigma), (sc.log_expit, lambda t: mp.log(sigma(t))),
                        (sc.softplus, lambda t: mp.log1p(mp.exp(t)))):
            for x in (-700.0, -40.0, 40.0, 700.0):
                expected = mp.diff(mp_f, x)
                got = frule((NoTangent(), 1.0), f, x)[1]
                assert abs(float((got - expected) / expected)) < 1e-14, (f, x)
