"""Rules of chainrules/rulesets/special/error_functions.py and normal.py: finite differences on both sides of the
asymptotic switch, complex arguments in both half-planes, the tails (mpmath where finite differences cannot see
them), Voigt's limits, Owen's T, and the modified Fresnel integrals where SciPy computes them."""

from __future__ import annotations

import mpmath as mp
import numpy as np
import pytest
import scipy.special as sc

import chainrules  # noqa: F401  (registers the rules)
from chainrules.rulesets.special.error_functions import wofz_derivative
from chainrules.testing import PrimalAndTangent, central_fdm, test_frule, test_rrule, test_scalar
from chainrules_core import NoTangent, NotImplementedTangent, Tangent, ZeroTangent, frule, rrule, unthunk

mp.mp.dps = 30


REAL_POINTS = [-4.0, -0.5, 0.0, 0.3, 2.0, 9.99, 10.01, 25.0]  # both sides of the asymptotic switch at 10
REAL_CASES = [(f, x) for f in (sc.erf, sc.erfc, sc.erfcx, sc.erfi, sc.dawsn, sc.ndtr, sc.log_ndtr) for x in REAL_POINTS
              if not (f is sc.erfi and abs(x) > 9)]  # erfi(x) overflows from |x| = 26.6; 25 already loses it


@pytest.mark.parametrize(("f", "x"), REAL_CASES)
def test_real_argument(f, x):
    test_scalar(f, x)
    if abs(x) < 9:
        test_scalar(f, np.float32(x))


COMPLEX_POINTS = [0.5 + 0.5j, -1.5 + 2j, 3.0 - 1j, 12.0 + 3j, -11.0 - 0.5j, 2.0 + 10.5j]
COMPLEX_CASES = [(f, z) for f in (sc.erf, sc.erfc, sc.erfcx, sc.erfi, sc.dawsn, sc.wofz, sc.ndtr, sc.log_ndtr)
                 for z in COMPLEX_POINTS
                 if not (f in (sc.erf, sc.erfc, sc.erfi, sc.ndtr) and abs(z) > 9)]  # e^(+-z^2) overflows


@pytest.mark.parametrize(("f", "z"), COMPLEX_CASES)
def test_complex_argument(f, z):
    test_scalar(f, z)


def _mp_partials(fun, *args):
    """The derivatives of ``fun`` in each of its arguments, by mpmath."""
    return [mp.diff(lambda t, i=i: fun(*args[:i], t, *args[i + 1:]), args[i]) for i in range(len(args))]


def _mp_w(z):
    return mp.exp(-z * z) * mp.erfc(-1j * z)


@pytest.mark.parametrize("z", [0.5 + 0.5j, 9.9 + 0.1j, 10.1 + 0.1j, -12 + 0.5j, 11 - 0.2j, 20j, 1e3 + 1j, -30 - 2j,
                               1e4 + 0j, 0.1 - 10.5j])
def test_faddeeva_derivative_against_mpmath(z):
    # at large |z| the direct -2zw + 2i/sqrt(pi) cancels; the asymptotic series keeps full accuracy
    expected = complex(mp.diff(_mp_w, mp.mpc(z)))
    assert abs(wofz_derivative(z) - expected) <= 1e-13 * abs(expected)


@pytest.mark.parametrize(("f", "mp_f"), [(sc.erfcx, lambda t: mp.exp(t * t) * mp.erfc(t)),
                                         (sc.dawsn, lambda t: mp.sqrt(mp.pi) / 2 * mp.exp(-t * t) * mp.erfi(t))])
@pytest.mark.parametrize("x", [9.9, 10.1, 1e3, 1e5, -20.0])
def test_large_argument_against_mpmath(f, mp_f, x):
    expected = mp.diff(mp_f, x)
    got = frule((NoTangent(), 1.0), f, x)[1]
    assert abs(float((got - expected) / expected)) < 1e-13


def test_log_ndtr_and_ndtri_exp_in_the_far_tail():
    # phi and Phi underflow; the ratio does not
    for x in (-40.0, -1e5, -1e150):
        expected = mp.diff(lambda t: mp.log(mp.ncdf(t)), x) if x > -1e6 else -x  # -x (1 + 1/x^2 + ...)
        got = rrule(sc.log_ndtr, x)[1](1.0)[1]
        assert abs(float((got - expected) / expected)) < 1e-13
    for y in (-1e4, -800.0):
        x = sc.ndtri_exp(y)
        dx_dy = rrule(sc.ndtri_exp, y)[1](1.0)[1]
        assert np.isclose(dx_dy * rrule(sc.log_ndtr, x)[1](1.0)[1], 1.0, rtol=1e-12)  # inverse functions
    # ndtri at p = 1e-300: differentiate mpmath's root of ncdf(x) = e^t in t = log p (p itself is below mp.diff's step)
    got = rrule(sc.ndtri, 1e-300)[1](1.0)[1]
    start = mp.mpf(sc.ndtri(1e-300))
    expected = mp.diff(lambda t: mp.findroot(lambda x: mp.log(mp.ncdf(x)) - t, start), mp.log(mp.mpf("1e-300")))
    assert abs(float(got * mp.mpf("1e-300") / expected - 1)) < 1e-12


@pytest.mark.parametrize("f", [sc.erfinv, sc.erfcinv, sc.ndtri, sc.ndtri_exp])
def test_inverses(f):
    points = {sc.erfinv: [-0.99, -0.3, 0.0, 0.6, 0.999], sc.erfcinv: [0.01, 0.7, 1.0, 1.5, 1.999],
              sc.ndtri: [1e-4, 0.2, 0.5, 0.97], sc.ndtri_exp: [-50.0, -3.0, -0.5, -1e-5]}[f]
    for p in points:
        test_scalar(f, p)


def test_fresnel_and_structural_cotangents():
    for z in (0.3, -2.0, 6.5, 0.5 + 0.5j, np.array([0.3, -2.0, 6.5])):
        test_rrule(sc.fresnel, z)
        test_frule(sc.fresnel, z)
    _, pullback = rrule(sc.fresnel, np.array([0.3, 1.2]))
    only_c = pullback(Tangent(tuple, ZeroTangent(), np.ones(2)))[1]  # a zero first component
    np.testing.assert_allclose(only_c, np.cos(np.pi / 2 * np.array([0.3, 1.2]) ** 2), rtol=1e-14)


@pytest.mark.parametrize("f", [sc.modfresnelp, sc.modfresnelm])
def test_modified_fresnel(f):
    test_rrule(f, np.array([0.05, 0.7, 3.0, 9.0, 30.0]))
    test_frule(f, np.array([0.05, 0.7, 3.0]))
    test_rrule(f, 1.3)
    test_frule(f, 1.3)


@pytest.mark.parametrize("f", [sc.modfresnelp, sc.modfresnelm])
def test_modified_fresnel_below_zero_is_not_implemented(f):
    # SciPy's values for x < 0 are not the integral it documents: no derivative, never a loose number
    fp, _ = sc.modfresnelp(-2.5)
    s, c = sc.fresnel(-2.5 * np.sqrt(2 / np.pi))
    assert not np.isclose(fp, np.sqrt(np.pi / 2) * ((0.5 - c) + 1j * (0.5 - s)))
    _, pullback = rrule(f, np.array([-2.5, 1.0]))
    dx = unthunk(pullback(Tangent(tuple, np.ones(2, complex), np.ones(2, complex)))[1])
    assert isinstance(dx, NotImplementedTangent) and "not the documented integral" in dx.info
    test_rrule(f, PrimalAndTangent(np.array([-2.5, 1.0]), NoTangent()))


VOIGT = [(0.5, 0.8, 0.3), (-2.0, 0.8, 0.3), (0.0, 1.0, 1.0), (3.0, 2.0, 0.01), (40.0, 1.0, 1.5), (0.5, 0.05, 2.0),
         (0.5, -0.8, 0.3), (0.5, 0.8, -0.3)]


@pytest.mark.parametrize(("x", "sigma", "gamma"), VOIGT)
def test_voigt_profile(x, sigma, gamma):
    test_rrule(sc.voigt_profile, x, sigma, gamma)
    test_frule(sc.voigt_profile, x, sigma, gamma)


def test_voigt_profile_at_sigma_zero_is_the_lorentzian():
    # sigma = 0: the Lorentzian's derivatives in x and gamma; in sigma the right derivative, 0 (SciPy's profile is
    # odd in sigma, so the two-sided one does not exist)
    test_frule(sc.voigt_profile, 0.5, PrimalAndTangent(0.0, ZeroTangent()), 1.0)
    test_frule(sc.voigt_profile, -1.5, PrimalAndTangent(0.0, ZeroTangent()), 0.5)
    _, pullback = rrule(sc.voigt_profile, 0.5, 0.0, 1.0)
    dsigma = unthunk(pullback(1.0)[2])
    assert dsigma == 0.0
    right = (sc.voigt_profile(0.5, 1e-4, 1.0) - sc.voigt_profile(0.5, 0.0, 1.0)) / 1e-4
    assert abs(right) < 1e-4


def test_voigt_profile_parameters_against_mpmath():
    def voigt(x, s, g):
        return mp.re(_mp_w((x + 1j * g) / (s * mp.sqrt(2)))) / (s * mp.sqrt(2 * mp.pi))

    for x, s, g in [(0.5, 0.8, 0.3), (40.0, 1.0, 1.5), (3.0, 2.0, 0.01)]:
        _, pullback = rrule(sc.voigt_profile, x, s, g)
        got = [unthunk(c) for c in pullback(1.0)[1:]]
        expected = _mp_partials(voigt, x, s, g)
        for a, b in zip(got, expected):
            assert abs(float((a - b) / b)) < 1e-12


@pytest.mark.parametrize(("h", "a"), [(0.5, 0.8), (-1.5, 0.5), (0.0, 2.0), (0.5, -1.2), (3.0, 30.0), (9.0, 0.3)])
def test_owens_t(h, a):
    test_rrule(sc.owens_t, h, a)
    test_frule(sc.owens_t, h, a)


def test_owens_t_against_mpmath():
    def owens_t(h, a):
        return mp.quad(lambda x: mp.exp(-h * h * (1 + x * x) / 2) / (1 + x * x), [0, a]) / (2 * mp.pi)

    for h, a in [(0.5, 0.8), (2.0, 5.0), (0.1, -3.0)]:
        _, pullback = rrule(sc.owens_t, h, a)
        got = [unthunk(c) for c in pullback(1.0)[1:]]
        expected = _mp_partials(owens_t, h, a)
        for g, e in zip(got, expected):
            assert abs(float((g - e) / e)) < 1e-12


def test_float32_stays_float32():
    for f in (sc.erf, sc.erfcx, sc.dawsn, sc.ndtr, sc.log_ndtr, sc.erfinv, sc.ndtri):
        x = np.float32([0.1, 0.3])
        _, pullback = rrule(f, x)
        assert unthunk(pullback(np.ones(2, np.float32))[1]).dtype == np.float32
    _, pullback = rrule(sc.voigt_profile, np.float32([0.5]), np.float32(0.8), np.float32(0.3))
    assert unthunk(pullback(np.ones(1, np.float32))[1]).dtype == np.float32


def test_fd_sanity_of_the_switch():
    # both sides of |z| = 10 agree with finite differences of SciPy's own erfcx
    for x in (np.nextafter(10.0, 0), 10.0):
        fd = central_fdm(5, 1)(sc.erfcx, x)
        assert np.isclose(frule((NoTangent(), 1.0), sc.erfcx, x)[1], fd, rtol=1e-8)
