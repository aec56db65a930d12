"""Rules of chainrules/rulesets/special/logsumexp.py: every keyword of logsumexp, softmax, log_softmax."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.special as sc

import chainrules  # noqa: F401  (registers the rules)
from chainrules import frule, rrule, unthunk
from chainrules.testing import PrimalAndTangent, test_frule, test_rrule
from chainrules_core import NoTangent, NotImplementedTangent, Tangent, ZeroTangent

RNG = np.random.default_rng(11)
A = RNG.standard_normal((3, 4))


@pytest.mark.parametrize("kwargs", [{}, {"axis": 0}, {"axis": -1, "keepdims": True}, {"axis": (0, 1)},
                                    {"b": RNG.uniform(0.5, 2.0, (3, 4))},
                                    {"axis": 1, "b": np.array([1.0, 2.0, 0.5, 3.0])},
                                    {"axis": 0, "b": np.array([[1.0], [2.0], [0.5]])}])
def test_logsumexp(kwargs):
    test_rrule(sc.logsumexp, A, fkwargs=kwargs)
    test_frule(sc.logsumexp, A, fkwargs=kwargs)


def test_logsumexp_positional_spellings():
    test_rrule(sc.logsumexp, A, 1)
    test_rrule(sc.logsumexp, A, 1, np.array([1.0, 2.0, 0.5, 3.0]))
    test_frule(sc.logsumexp, A, 0, np.ones((3, 4)), True)
    _, pullback = rrule(sc.logsumexp, A, 1, np.ones((3, 4)), False, False)
    assert len(pullback(np.ones(3))) == 6


def test_logsumexp_return_sign():
    b = np.array([1.0, -2.0, 0.5, 0.2])
    test_rrule(sc.logsumexp, A, fkwargs={"axis": 1, "b": b, "return_sign": True})
    test_frule(sc.logsumexp, A, fkwargs={"axis": 1, "b": b, "return_sign": True})
    (_, sign), pullback = rrule(sc.logsumexp, A, axis=1, b=b, return_sign=True)
    assert np.any(sign < 0)
    da = unthunk(pullback(Tangent(tuple, np.ones(3), ZeroTangent()))[1])
    np.testing.assert_allclose(da.sum(axis=1), np.ones(3), rtol=1e-13)  # sum_i s b_i e^(a_i - y) = s S / |S| s = 1
    assert unthunk(pullback(Tangent(tuple, ZeroTangent(), np.ones(3)))[1]) == ZeroTangent()  # the sign is constant


def test_logsumexp_does_not_overflow():
    _, pullback = rrule(sc.logsumexp, A + 1000.0, axis=1)
    np.testing.assert_allclose(pullback(np.ones(3))[1], sc.softmax(A, axis=1), rtol=1e-13)


def test_logsumexp_complex():
    z = A + 0.5j * RNG.standard_normal((3, 4))
    test_rrule(sc.logsumexp, z, fkwargs={"axis": 1})
    test_frule(sc.logsumexp, z, fkwargs={"axis": 1})
    _, pullback = rrule(sc.logsumexp, z, axis=1, return_sign=True)
    out = pullback(Tangent(tuple, np.ones(3), ZeroTangent()))
    assert isinstance(unthunk(out[1]), NotImplementedTangent)
    test_rrule(sc.logsumexp, PrimalAndTangent(z, NoTangent()), fkwargs={"axis": 1, "return_sign": True})


def test_logsumexp_list_and_float32():
    test_rrule(sc.logsumexp, [0.5, 1.5, -2.0])
    _, pullback = rrule(sc.logsumexp, A.astype(np.float32), axis=0)
    assert unthunk(pullback(np.ones(4, np.float32))[1]).dtype == np.float32
    dy = frule((NoTangent(), np.ones((3, 4), np.float32), NoTangent()), sc.logsumexp, A.astype(np.float32), 0)[1]
    assert dy.dtype == np.float32


@pytest.mark.parametrize("f", [sc.softmax, sc.log_softmax])
@pytest.mark.parametrize("axis", [None, 0, 1, (0, 1)])
def test_softmax(f, axis):
    test_rrule(f, A, fkwargs={"axis": axis})
    test_frule(f, A, fkwargs={"axis": axis})
    test_rrule(f, A, axis)


@pytest.mark.parametrize("f", [sc.softmax, sc.log_softmax])
def test_softmax_large_complex_list(f):
    test_rrule(f, A + 900.0, fkwargs={"axis": 1})
    test_rrule(f, A + 0.3j * RNG.standard_normal((3, 4)), fkwargs={"axis": 1})
    test_frule(f, A + 0.3j * RNG.standard_normal((3, 4)), fkwargs={"axis": 0})
    test_rrule(f, [0.5, 1.5, -2.0])
    test_frule(f, [0.5, 1.5, -2.0])
