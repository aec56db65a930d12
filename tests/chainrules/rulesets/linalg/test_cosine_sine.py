"""Rules of chainrules/rulesets/linalg/cosine_sine.py: a not_implemented derivative, reported as such."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.linalg as sla

import chainrules  # registers the rules
import chainrules.rulesets.linalg.cosine_sine  # noqa: F401
from chainrules import NoTangent, NotImplementedTangent, ZeroTangent, frule, rrule, unthunk
from chainrules.rulesets.linalg.cosine_sine import REASON
from chainrules.testing import test_frule, test_rrule


def unitary(rand, n: int, dtype) -> np.ndarray:
    return np.linalg.qr(rand((n, n), dtype))[0]


def test_cossin_primal_and_not_implemented(dtype, rand):
    x = unitary(rand, 4, dtype)
    y, pullback = rrule(sla.cossin, x, 2, 2)
    expected = sla.cossin(x, 2, 2)
    for ours, theirs in zip(y, expected):
        np.testing.assert_array_equal(ours, theirs)
    cotangents = pullback(tuple(np.ones_like(part) for part in y))
    assert isinstance(unthunk(cotangents[1]), NotImplementedTangent) and REASON in str(cotangents[1])
    assert cotangents[2:] == (NoTangent(), NoTangent())
    assert pullback(ZeroTangent())[1] == ZeroTangent()
    assert isinstance(frule((NoTangent(), x, NoTangent(), NoTangent()), sla.cossin, x, 2, 2)[1], NotImplementedTangent)


def test_cossin_blocks_and_options(rand):
    x = unitary(rand, 3, np.float64)
    blocks = [x[:1, :2], x[:1, 2:], x[1:, :2], x[1:, 2:]]
    y, pullback = rrule(sla.cossin, blocks, separate=True)
    assert len(y) == 3 and isinstance(pullback((ZeroTangent(), np.ones(1), ZeroTangent()))[1], NotImplementedTangent)


def test_testers_report_an_expected_failure(rand):
    x = unitary(rand, 2, np.float64)
    with pytest.raises(pytest.xfail.Exception, match="cossin"):
        test_rrule(sla.cossin, x, 1, 1)
    with pytest.raises(pytest.xfail.Exception, match="cossin"):
        test_frule(sla.cossin, x, 1, 1)
