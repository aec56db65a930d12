"""Rules of chainrules/rulesets/special/gamma.py: finite differences near zero, between the poles, at the
zeros of 1/Gamma and of beta, poch, binom, complex arguments; mpmath where the digamma differences cancel."""

from __future__ import annotations

import mpmath as mp
import numpy as np
import pytest
import scipy.special as sc

import chainrules  # noqa: F401  (registers the rules)
from chainrules.rulesets.special._gamma_tools import psi_increment, trigamma
from chainrules.testing import PrimalAndTangent, central_fdm, test_frule, test_rrule, test_scalar
from chainrules_core import NoTangent, NotImplementedTangent, frule, rrule, unthunk

mp.mp.dps = 30


@pytest.mark.parametrize("f", [sc.gamma, sc.rgamma, sc.gammaln, sc.psi])
@pytest.mark.parametrize("x", [1e-3, 0.5, 1.4616321449683622, 3.0, 25.0, -0.5, -3.7])
def test_real_one_argument(f, x):
    test_scalar(f, x)
    test_scalar(f, np.float32(x))


@pytest.mark.parametrize("f", [sc.gamma, sc.rgamma, sc.loggamma, sc.psi])
@pytest.mark.parametrize("z", [0.5 + 1j, -2.5 + 0.5j, -2.5 - 0.5j, 3.0 - 7.0j, 0.1 + 20j])
def test_complex_one_argument(f, z):
    test_scalar(f, z)
    test_scalar(f, np.complex64(z), rtol=1e-3)


def test_complex_trigamma_against_mpmath():
    z = np.array([0.3 + 0.2j, -2.5 + 1j, 5 + 20j, -0.5 - 0.01j, 12 - 3j, 1e3 + 1e3j])
    expected = np.array([complex(mp.psi(1, complex(v))) for v in z])
    np.testing.assert_allclose(trigamma(z), expected, rtol=1e-14)


@pytest.mark.parametrize("n", [0, 1, 2, 3])
def test_rgamma_at_its_zeros(n):
    # 1/Gamma is entire: at -n the slope is (-1)^n n!, not the 0 * inf of -psi/Gamma
    _, pullback = rrule(sc.rgamma, float(-n))
    assert pullback(1.0)[1] == (-1) ** n * np.prod(np.arange(1, n + 1))
    test_scalar(sc.rgamma, float(-n))
    test_scalar(sc.rgamma, complex(-n))


def test_at_the_poles_the_derivative_is_the_limit():
    # where the primal is NaN or inf, so is the derivative; no exception
    with np.errstate(all="ignore"):
        for f in (sc.gamma, sc.gammaln, sc.psi):
            y, pullback = rrule(f, -2.0)
            assert not np.isfinite(y) and not np.isfinite(pullback(1.0)[1])


def test_gammasgn_has_a_zero_derivative():
    _, pullback = rrule(sc.gammasgn, np.array([-1.5, 0.5]))
    np.testing.assert_array_equal(pullback(np.ones(2))[1], [0.0, 0.0])
    test_rrule(sc.gammasgn, np.array([-1.5, 0.5, 4.0]))


def test_polygamma_order_is_an_integer():
    _, pullback = rrule(sc.polygamma, 2, np.array([0.5, 3.0]))
    assert pullback(np.ones(2))[1] == NoTangent()
    for n in (0, 1, 3):
        test_rrule(sc.polygamma, n, np.array([0.4, 2.0, 9.0, -1.5]))
        test_frule(sc.polygamma, n, np.array([0.4, 2.0]))
    # a float order: SciPy returns NaN between integers, so there is no derivative in it (never a zero)
    _, pullback = rrule(sc.polygamma, 1.0, 2.0)
    assert isinstance(unthunk(pullback(1.0)[1]), NotImplementedTangent)
    test_rrule(sc.polygamma, PrimalAndTangent(1.0, NoTangent()), 2.0)


def test_multigammaln():
    for d in (1, 2, 5):
        test_rrule(sc.multigammaln, np.array([3.0, 4.5, 20.0]), d)
        test_frule(sc.multigammaln, np.array([3.0, 4.5]), d)
    test_rrule(sc.multigammaln, 2.7, 3)
    test_frule(sc.multigammaln, 2.7, 3)


@pytest.mark.parametrize("f", [sc.beta, sc.betaln])
@pytest.mark.parametrize(("a", "b"), [(0.3, 0.8), (2.0, 3.0), (50.0, 60.0), (0.01, 5.0), (-0.5, 1.7), (-2.5, -0.25)])
def test_beta(f, a, b):
    test_rrule(f, a, b)
    test_frule(f, a, b)


def test_beta_where_it_vanishes():
    # a + b a pole of Gamma: beta = 0 with a non-zero slope (Gamma(a) Gamma(b) (1/Gamma)'(a + b))
    for a, b in ((0.5, -0.5), (1.5, -3.5), (-0.25, -0.75)):
        assert sc.beta(a, b) == 0
        test_rrule(sc.beta, a, b)
        test_frule(sc.beta, a, b)


def _mp_partials(fun, *args):
    return [mp.diff(lambda t, i=i: fun(*args[:i], t, *args[i + 1:]), args[i]) for i in range(len(args))]


@pytest.mark.parametrize(("f", "mp_f", "args"), [
    (sc.betaln, lambda a, b: mp.log(mp.beta(a, b)), (1e6, 2.0)),
    (sc.betaln, lambda a, b: mp.log(mp.beta(a, b)), (1e10, 1.0)),
    (sc.betaln, lambda a, b: mp.log(mp.beta(a, b)), (3.0, 1e-9)),
    (sc.beta, mp.beta, (1e10, 1.0)),
    (sc.poch, mp.rf, (1e8, 2.0)),
    (sc.poch, mp.rf, (2.5, 1e-7)),
    (sc.binom, mp.binomial, (60.0, 2.5)),
])
def test_where_digamma_differences_cancel_against_mpmath(f, mp_f, args):
    _, pullback = rrule(f, *args)
    got = [unthunk(c) for c in pullback(1.0)[1:]]
    expected = _mp_partials(mp_f, *args)
    for g, e in zip(got, expected):
        assert abs(float((g - e) / e)) < 1e-12, (g, e)


def test_psi_increment_against_mpmath():
    for a, d in ((1e10, 1.0), (12.5, -1.5), (1.0, 1e-9), (0.2, 0.1), (3.0, 47.0), (30000.0, 0.02), (-2.5, 0.75)):
        expected = mp.digamma(mp.mpf(a) + mp.mpf(d)) - mp.digamma(a)
        assert abs(float((psi_increment(a, d) - expected) / expected)) < 1e-14


@pytest.mark.parametrize(("z", "m"), [(2.5, 1.5), (3.0, -1.5), (-2.5, 1.2), (0.0, 2.5), (-2.0, 0.5)])
def test_poch(z, m):
    test_rrule(sc.poch, z, m)
    test_frule(sc.poch, z, m)


def test_poch_at_the_poles():
    # z a pole and z + m not: poch = 0, slope Gamma(z + m) (1/Gamma)'(z); both poles (integer m): the finite
    # product z (z+1) ... (z+m-1), whose m-derivative does not exist (SciPy gives 0 at non-integer m)
    _, pullback = rrule(sc.poch, 0.0, 2.5)
    assert np.isclose(unthunk(pullback(1.0)[1]), sc.gamma(2.5), rtol=1e-15)
    _, pullback = rrule(sc.poch, -3.0, 2.0)  # (-3)(-2) = 6: d/dz = 2z + 1 = -5
    dz, dm = (unthunk(c) for c in pullback(1.0)[1:])
    assert np.isclose(dz, central_fdm(5, 1)(lambda z: sc.poch(z, 2.0), -3.0), rtol=1e-9) and np.isnan(dm)


@pytest.mark.parametrize(("n", "k"), [(5.5, 2.5), (10.0, 3.0), (-1.5, 2.0), (3.5, 5.0), (3.0, 5.0), (4.0, -1.0),
                                      (7.0, 7.0), (0.5, 0.25)])
def test_binom(n, k):
    test_rrule(sc.binom, n, k)
    test_frule(sc.binom, n, k)


def test_binom_where_it_vanishes():
    # binom(3, k) at k = 5: 0, slope -Gamma(4)/Gamma(6) (1/Gamma)'(-1) = 1/20; in n: binom(n, 5) = n(n-1)...(n-4)/120
    _, pullback = rrule(sc.binom, 3.0, 5.0)
    dn, dk = (unthunk(c) for c in pullback(1.0)[1:])
    assert np.isclose(dk, 1 / 20, rtol=1e-14) and np.isclose(dn, 3 * 2 * 1 * -1 / 120, rtol=1e-14)


def test_float32_stays_float32():
    for f, args in ((sc.gamma, (np.float32([0.5, 2.0]),)), (sc.beta, (np.float32([0.5, 2.0]), np.float32(1.5))),
                    (sc.poch, (np.float32([0.5, 2.0]), np.float32(1.5))),
                    (sc.binom, (np.float32([5.5, 2.0]), np.float32(1.5)))):
        _, pullback = rrule(f, *args)
        cotangents = [unthunk(c) for c in pullback(np.ones(2, dtype=np.float32))[1:]]
        assert all(np.asarray(c).dtype == np.float32 for c in cotangents)
        dy = frule((NoTangent(), *(np.ones_like(a) for a in args)), f, *args)[1]
        assert dy.dtype == np.float32
