"""Rules of chainrules/rulesets/special/combinatorics.py: finite differences with exact=False, both spellings of
the options, nothing differentiated with exact=True or integer arguments."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.special as sc

import chainrules  # noqa: F401  (registers the rules)
from chainrules.testing import test_frule, test_rrule, test_scalar
from chainrules_core import NoTangent, frule, rrule, unthunk


@pytest.mark.parametrize(("N", "k"), [(5.5, 2.5), (10.0, 3.0), (7.25, 6.75), (20.5, 0.5)])
def test_comb_and_perm(N, k):
    for f in (sc.comb, sc.perm):
        test_rrule(f, N, k)
        test_frule(f, N, k)
    test_rrule(sc.comb, N, k, fkwargs={"repetition": True})
    test_frule(sc.comb, N, k, fkwargs={"repetition": True})


def test_comb_and_perm_are_zero_outside_0_le_k_le_n():
    for f in (sc.comb, sc.perm):
        _, pullback = rrule(f, np.array([3.0, 5.0, -2.5]), np.array([4.5, -0.5, 1.0]))
        for c in pullback(np.ones(3))[1:]:
            np.testing.assert_array_equal(unthunk(c), 0.0)


def test_exact_is_not_differentiated():
    for f, args, kwargs in ((sc.comb, (10, 3), {"exact": True}), (sc.perm, (10, 3, True), {}),
                            (sc.factorial, (5, True), {}), (sc.factorial2, (7,), {"exact": True}),
                            (sc.factorialk, (7, 3), {"exact": True})):
        y, pullback = rrule(f, *args, **kwargs)
        assert y == f(*args, **kwargs) and all(c == NoTangent() for c in pullback(1.0))
        assert frule((NoTangent(),) * (len(args) + 1), f, *args, **kwargs)[1] == NoTangent()


def test_both_spellings_of_the_options():
    _, by_keyword = rrule(sc.perm, 6.5, 2.5, exact=False)
    _, by_position = rrule(sc.perm, 6.5, 2.5, False)
    assert len(by_position(1.0)) == 4 and len(by_keyword(1.0)) == 3
    assert unthunk(by_keyword(1.0)[1]) == unthunk(by_position(1.0)[1])
    test_rrule(sc.factorial, np.array([0.5, 2.5]), False, "complex")
    test_rrule(sc.factorial, np.array([0.5, 2.5]), fkwargs={"extend": "complex"})


@pytest.mark.parametrize("n", [0.5, 1.0, 4.0, 12.5, 30.0])
def test_factorial(n):
    test_scalar(sc.factorial, n)
    test_scalar(sc.factorial, np.float32(n) if n < 30 else n)
    test_scalar(sc.factorial, complex(n, 0.5), fkwargs={"extend": "complex"})


def test_factorial_below_zero():
    # extend='zero': 0 for n < 0, so the derivative is 0; extend='complex': Gamma(n + 1) everywhere
    _, pullback = rrule(sc.factorial, -1.5)
    assert pullback(1.0)[1] == 0.0
    test_scalar(sc.factorial, -1.5, fkwargs={"extend": "complex"})


@pytest.mark.parametrize("k", [1, 2, 3, 2.5])
def test_factorialk_complex_extension(k):
    test_rrule(sc.factorialk, np.array([3.5, 7.0, -0.5]), k, fkwargs={"extend": "complex"})
    test_frule(sc.factorialk, np.array([3.5, 7.0, -0.5]), k, fkwargs={"extend": "complex"})
    test_rrule(sc.factorialk, np.array([3.5 + 1j, -2.5 - 0.5j]), k, fkwargs={"extend": "complex"})


def test_factorial2_complex_extension():
    test_rrule(sc.factorial2, np.array([3.5, 6.0, -1.5]), fkwargs={"extend": "complex"})
    test_frule(sc.factorial2, np.array([3.5, 6.0, -1.5]), fkwargs={"extend": "complex"})


def test_integer_counts_are_not_differentiated():
    for f, args in ((sc.factorial2, (np.array([3, 6]),)), (sc.factorialk, (np.array([5, 7]), 3)),
                    (sc.comb, (10, 3)), (sc.factorial, (np.array([3, 4]),))):
        _, pullback = rrule(f, *args)
        assert all(c == NoTangent() for c in pullback(np.ones(np.shape(f(*args)))))
    for f, args in ((sc.stirling2, (np.array([5, 6]), np.array([2, 3]))), (sc.bernoulli, (6,)), (sc.euler, (6,))):
        y, pullback = rrule(f, *args)
        assert np.array_equal(y, f(*args)) and all(c == NoTangent() for c in pullback(np.ones(np.shape(y))))


def test_float32_stays_float32():
    _, pullback = rrule(sc.comb, np.float32([5.5, 4.0]), np.float32(2.5))
    dn, dk = (unthunk(c) for c in pullback(np.ones(2, np.float32))[1:])
    assert dn.dtype == np.float32 and isinstance(dk, np.float32)
