"""Rules of chainrules/rulesets/special/elliptic.py and carlson.py.

Every derivative is checked against finite differences of SciPy's function; the
derivatives in the parameter m (and Carlson's, whose formulas cancel near coinciding
arguments) also against mpmath at 30 digits at a few points per regime.
"""

import mpmath
import numpy as np
import pytest
import scipy.special as sc

import chainrules  # noqa: F401  (registers the rules)
from chainrules.testing import test_frule, test_rrule, test_scalar
from chainrules_core import NoTangent, Tangent, ZeroTangent, frule, rrule, unthunk


def mp_partial(f, point, i, real=False):
    with mpmath.workdps(30):
        def along(t):
            args = list(point)
            args[i] = t
            value = f(*args)
            return mpmath.re(value) if real else value
        return complex(mpmath.diff(along, point[i]))


def rule_partial(f, point, i, output=None):
    tangents = [NoTangent()] + [0.0] * len(point)
    tangents[i + 1] = 1.0
    ydot = unthunk(frule(tuple(tangents), f, *point)[1])
    if output is not None:
        ydot = unthunk(ydot[output])
    return complex(ydot)


def assert_close(ours, ref, rtol=1e-8, what=""):
    assert abs(ours - ref) <= rtol * abs(ref), f"{what}: ours {ours}, mpmath {ref}"


# ---- Legendre's forms -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("m", [-20.0, -1.0, 0.0, 1e-12, 1e-4, 0.5, 0.999])
def test_complete_integrals(m):
    test_scalar(sc.ellipk, m)
    test_scalar(sc.ellipe, m)


@pytest.mark.parametrize("p", [1e-10, 1e-3, 0.5, 1.0, 4.0])
def test_ellipkm1(p):
    test_scalar(sc.ellipkm1, p)


@pytest.mark.parametrize("phi", [0.3, -1.2, np.pi / 2, 2.5, 7.0, -11.0])
@pytest.mark.parametrize("m", [-3.0, 0.0, 0.6, 0.97])
def test_incomplete_integrals(phi, m):
    test_rrule(sc.ellipkinc, phi, m)
    test_frule(sc.ellipkinc, phi, m)
    test_rrule(sc.ellipeinc, phi, m)
    test_frule(sc.ellipeinc, phi, m)


def test_m_derivatives_match_mpmath_near_zero_and_one():
    # (E - (1-m) K) / (2 m (1-m)) loses every digit as m -> 0: the R_D forms do not
    for m in [1e-12, 1e-6, 0.25, 0.999999, -30.0]:
        assert_close(rule_partial(sc.ellipk, (m,), 0), mp_partial(mpmath.ellipk, (m,), 0), what=f"K'({m})")
        assert_close(rule_partial(sc.ellipe, (m,), 0), mp_partial(mpmath.ellipe, (m,), 0), what=f"E'({m})")
        if m < 1:
            ref = -mp_partial(mpmath.ellipk, (m,), 0)
            assert_close(rule_partial(sc.ellipkm1, (1 - m,), 0), ref, rtol=1e-6 if m < 1e-5 else 1e-8,
                         what=f"ellipkm1'({1 - m})")
    for phi, m in [(0.3, 1e-9), (1.2, 0.5), (7.0, 0.8), (-11.0, -2.0), (np.pi / 2, 0.3)]:
        assert_close(rule_partial(sc.ellipkinc, (phi, m), 1), mp_partial(mpmath.ellipf, (phi, m), 1),
                     what=f"dF/dm{(phi, m)}")
        assert_close(rule_partial(sc.ellipeinc, (phi, m), 1), mp_partial(mpmath.ellipe, (phi, m), 1),
                     what=f"dE/dm{(phi, m)}")


# ---- Jacobi's functions ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("u, m", [(0.3, 0.5), (1.7, 0.05), (-2.2, 0.9), (5.0, 0.3), (9.0, 0.8), (0.5, 1e-6)])
def test_ellipj(u, m):
    test_rrule(sc.ellipj, u, m)
    test_frule(sc.ellipj, u, m)


def test_ellipj_m_derivatives_match_mpmath():
    for u, m in [(0.3, 0.5), (5.0, 0.3), (9.0, 0.8), (25.0, 0.999), (1.0, 1e-8)]:
        for k, name in enumerate(("sn", "cn", "dn")):
            ref = mp_partial(lambda u_, m_, name=name: mpmath.ellipfun(name, u_, m_), (u, m), 1)
            assert_close(rule_partial(sc.ellipj, (u, m), 1, output=k), ref, what=f"d{name}/dm{(u, m)}")


def test_ellipj_structural_cotangents_with_zeros():
    u, m = np.array([0.3, 4.0]), np.array([0.5, 0.7])
    _, pullback = rrule(sc.ellipj, u, m)
    only_sn = pullback(Tangent(tuple, np.ones(2), ZeroTangent(), ZeroTangent(), ZeroTangent()))
    _, cn, dn, _ = sc.ellipj(u, m)
    assert np.allclose(unthunk(only_sn[1]), cn * dn)
    test_rrule(sc.ellipj, u, m, output_tangent=Tangent(tuple, np.ones(2), ZeroTangent(), np.ones(2), ZeroTangent()))


def test_outside_the_domain_gives_nan():
    _, pullback = rrule(sc.ellipj, 0.5, 1.5)
    assert np.isnan(unthunk(pullback(Tangent(tuple, 1.0, 1.0, 1.0, 1.0))[2]))
    assert np.isinf(frule((None, 1.0), sc.ellipk, 1.0)[1])


# ---- Carlson's forms ----------------------------------------------------------------------------------------------
CARLSON3 = {
    "distinct": (0.5, 1.5, 2.5),
    "all equal": (2.0, 2.0, 2.0),
    "two equal": (1.0, 3.0, 1.0),
    "two nearly equal": (1.0, 3.0, 1.0 + 1e-9),
    "spread": (1e-3, 40.0, 0.3),
    "complex": (0.5 + 0.5j, 2.0 + 0j, 1.0 + 1.0j),
}


@pytest.mark.parametrize("f", [sc.elliprf, sc.elliprd, sc.elliprg])
@pytest.mark.parametrize("point", CARLSON3.values(), ids=CARLSON3.keys())
def test_three_argument_carlson(f, point):
    test_rrule(f, *point)
    test_frule(f, *point)


CARLSON_RJ = {
    "distinct": (0.5, 1.5, 2.5, 0.8),
    "all equal": (2.0, 2.0, 2.0, 2.0),
    "p equals x": (1.0, 3.0, 4.0, 1.0),
    "p nearly z": (1.0, 3.0, 4.0, 4.0 * (1 + 1e-10)),
    "principal value p < 0": (0.5, 1.5, 2.5, -0.8),
    "complex": (0.5 + 0.5j, 2.0 + 0j, 1.0 + 1.0j, 1.5 - 0.5j),
}


@pytest.mark.parametrize("point", CARLSON_RJ.values(), ids=CARLSON_RJ.keys())
def test_elliprj(point):
    test_rrule(sc.elliprj, *point)
    test_frule(sc.elliprj, *point)


@pytest.mark.parametrize("point", [(0.5, 1.5), (2.0, 2.0), (0.7, -1.3), (0.5 + 0.5j, 1.0 - 1.0j)],
                         ids=["x < y", "x = y", "principal value y < 0", "complex"])
def test_elliprc(point):
    test_rrule(sc.elliprc, *point)
    test_frule(sc.elliprc, *point)


def test_carlson_near_coinciding_arguments_match_mpmath():
    # the closed forms divide by p - x, z - x: there the integrals take over
    cases = [(sc.elliprd, mpmath.elliprd, (1.0, 3.0, 1.0 + 1e-9), (0, 2)),
             (sc.elliprd, mpmath.elliprd, (2.0, 2.0, 2.0), (2,)),
             (sc.elliprj, mpmath.elliprj, (1.0, 3.0, 4.0, 1.0), (0, 3)),
             (sc.elliprg, mpmath.elliprg, (1e-3, 40.0, 0.3), (0, 2)), (sc.elliprc, mpmath.elliprc, (0.7, -1.3), (1,))]
    for f, mf, point, positions in cases:
        for i in positions:
            assert_close(rule_partial(f, point, i), mp_partial(mf, point, i), what=f"{f.__name__}{point} in {i}")
    point = (0.5, 1.5, 2.5, -0.8)  # the principal value is the real part of mpmath's continuation
    for i in (0, 3):
        assert_close(rule_partial(sc.elliprj, point, i), mp_partial(mpmath.elliprj, point, i, real=True),
                     what=f"elliprj{point} in {i}")


def test_zero_argument_gives_the_infinite_limit():
    # R_F(x, y, z) ~ R_F(0, y, z) - c sqrt(x): the derivative in x is -inf at x = 0
    assert frule((None, 1.0, 0.0, 0.0), sc.elliprf, 0.0, 1.0, 2.0)[1] == -np.inf
    # R_G's is finite there: R_F(0, y, z) / 4
    assert np.isclose(frule((None, 1.0, 0.0, 0.0), sc.elliprg, 0.0, 1.0, 2.0)[1], sc.elliprf(0.0, 1.0, 2.0) / 4)


def test_float32_stays_float32():
    x = np.array([0.5, 2.0], np.float32)
    test_rrule(sc.elliprj, x, np.float32(1.5), np.float32(2.5), np.float32(0.8))
    test_rrule(sc.ellipkinc, x, np.float32(0.4))
    _, pullback = rrule(sc.elliprd, x, np.float32(1.5), np.float32(2.5))
    assert all(np.asarray(unthunk(t)).dtype == np.float32 for t in pullback(np.ones(2, np.float32))[1:])
