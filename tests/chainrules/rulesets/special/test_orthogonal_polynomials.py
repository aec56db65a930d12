"""Rules of chainrules/rulesets/special/orthogonal_polynomials.py.

Finite differences at one point per regime (integer and real degrees, inside and outside
[-1, 1], complex x); the degree and parameter derivatives also against mpmath at 30 digits.
"""

import mpmath
import numpy as np
import pytest
import scipy.special as sc

import chainrules  # noqa: F401  (registers the rules)
from chainrules.testing import test_frule, test_rrule
from chainrules_core import NoTangent, NotImplementedTangent, frule, rrule, unthunk


def rule_partial(f, point, i):
    tangents = [NoTangent()] + [0.0] * len(point)
    tangents[i + 1] = 1.0
    return complex(unthunk(frule(tuple(tangents), f, *point)[1]))


def mp_partial(f, point, i):
    with mpmath.workdps(30):
        def along(t):
            args = list(point)
            args[i] = t
            return f(*args)
        return complex(mpmath.diff(along, point[i]))


ONE_PARAMETER = [sc.eval_legendre, sc.eval_chebyt, sc.eval_chebyu, sc.eval_laguerre]
SHIFTED = [sc.eval_sh_legendre, sc.eval_sh_chebyt, sc.eval_sh_chebyu]
SCALED = [sc.eval_chebyc, sc.eval_chebys]


@pytest.mark.parametrize("f", ONE_PARAMETER + SHIFTED + SCALED, ids=lambda f: f.__name__)
@pytest.mark.parametrize("n", [0, 1, 4, 2.0, 2.6])
def test_one_parameter_families(f, n):
    x = {**{g: np.array([-0.8, 0.3, 0.99, 1.7]) for g in ONE_PARAMETER},
         **{g: np.array([0.1, 0.65, 0.995, 1.35]) for g in SHIFTED},
         **{g: np.array([-1.6, 0.6, 1.98, 3.4]) for g in SCALED}}[f]
    test_rrule(f, n, x)
    test_frule(f, n, x)


@pytest.mark.parametrize("f", [sc.eval_hermite, sc.eval_hermitenorm], ids=lambda f: f.__name__)
@pytest.mark.parametrize("n", [0, 1, 5, 12])
def test_hermite(f, n):
    test_rrule(f, n, np.array([-2.5, 0.3, 1.1, 4.0]))
    test_frule(f, n, np.array([-2.5, 0.3, 1.1, 4.0]))


@pytest.mark.parametrize("n", [0, 12, 2.5, 3.0])
def test_jacobi_family(n):
    x = np.array([-0.9, 0.3, 0.97, 1.5])
    test_rrule(sc.eval_jacobi, n, 1.25, 0.5, x)
    test_frule(sc.eval_jacobi, n, np.array([0.5, 2.25, -0.5, 1.0]), 0.75, x)
    test_rrule(sc.eval_sh_jacobi, n, 2.5, 1.5, np.array([0.05, 0.65, 0.98]))
    test_frule(sc.eval_sh_jacobi, n, 2.5, 1.5, np.array([0.05, 0.65, 0.98]))
    test_rrule(sc.eval_gegenbauer, n, np.array([0.25, 1.5, 3.0, 0.75]), x)
    test_frule(sc.eval_gegenbauer, n, 1.5, x)
    test_rrule(sc.eval_genlaguerre, n, np.array([0.25, 1.5, 3.0, -0.5]), np.array([0.2, 1.5, 7.0, 12.0]))
    test_frule(sc.eval_genlaguerre, n, 1.5, np.array([0.2, 1.5, 7.0, 12.0]))


def test_complex_x():
    z = np.array([0.3 + 0.4j, -0.7 + 0.1j, 1.5 - 0.5j])
    for f in ONE_PARAMETER:
        test_rrule(f, 3, z)
    test_rrule(sc.eval_jacobi, 3, 1.25, 0.5, z)
    test_frule(sc.eval_gegenbauer, 4, 1.5, z)
    test_rrule(sc.eval_chebyt, 2.5, z)


def test_integer_degree_is_an_index():
    _, pullback = rrule(sc.eval_jacobi, 3, 1.25, 0.5, np.array([0.3, 0.7]))
    assert pullback(np.ones(2))[1] == NoTangent()
    _, pullback = rrule(sc.eval_jacobi, 3.0, 1.25, 0.5, np.array([0.3, 0.7]))
    assert np.isfinite(unthunk(pullback(np.ones(2))[1]))  # a real degree, even at an integer


def test_degree_and_parameters_match_mpmath():
    cases = [
        (sc.eval_legendre, lambda n, x: mpmath.legendre(n, x), [(2.6, 0.3), (3.0, -0.7), (1.5, 2.5)], [0]),
        (sc.eval_chebyt, mpmath.chebyt, [(2.6, 0.3), (3.0, 0.999), (1.5, 2.5)], [0]),
        (sc.eval_chebyu, mpmath.chebyu, [(2.6, 0.3), (3.0, 1.0), (1.5, 2.5)], [0]),
        (sc.eval_jacobi, mpmath.jacobi, [(2.6, 1.25, 0.5, 0.3), (30, 1.9, 3.5, -0.4), (4.0, 0.5, -0.5, 2.0)],
         [0, 1, 2]),
        (sc.eval_gegenbauer, mpmath.gegenbauer, [(2.6, 1.25, 0.3), (20, 0.75, -0.9), (3.0, 2.5, 1.7)], [0, 1]),
        (sc.eval_genlaguerre, mpmath.laguerre, [(2.6, 1.25, 0.3), (30, 0.98, 1.56), (4.0, 2.5, 17.0)], [0, 1]),
        (sc.eval_laguerre, lambda n, x: mpmath.laguerre(n, 0, x), [(2.6, 0.3), (7.5, 12.0)], [0]),
    ]
    for f, mf, points, positions in cases:
        for point in points:
            for i in positions:
                if i == 0 and isinstance(point[0], int):
                    continue
                ours, ref = rule_partial(f, point, i), mp_partial(mf, point, i)
                assert abs(ours - ref) <= 1e-8 * abs(ref), f"{f.__name__}{point} in {i}: {ours} vs {ref}"
    # the shifted Jacobi polynomial, from its definition through Jacobi's
    def sh_jacobi(n, p, q, x):
        return mpmath.jacobi(n, p - q, q - 1, 2 * x - 1) / mpmath.binomial(2 * n + p - 1, n)

    for i in range(3):
        point = (2.6, 2.5, 1.5, 0.35)
        assert abs(rule_partial(sc.eval_sh_jacobi, point, i) - mp_partial(sh_jacobi, point, i)) <= \
            1e-8 * abs(mp_partial(sh_jacobi, point, i))


def test_real_degree_near_minus_one_is_not_implemented():
    # P_nu has a logarithmic singularity at x = -1 for non-integer nu; the degree 6.6 is
    # beyond the extrapolation's safe range and the connection formula is degenerate
    _, pullback = rrule(sc.eval_legendre, 6.638, -0.9306)
    dn, dx = (unthunk(t) for t in pullback(1.0)[1:])
    assert isinstance(dn, NotImplementedTangent) and "derivative in n" in dn.info
    assert np.isfinite(dx)
