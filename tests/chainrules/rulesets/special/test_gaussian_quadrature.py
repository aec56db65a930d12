"""Rules of chainrules/rulesets/special/gaussian_quadrature.py and orthogonal_polynomial_objects.py.

Finite differences of SciPy's nodes, weights and mu (and of the fields of the orthopoly1d
objects); the nodes and weights also against mpmath at 30 digits (roots by findroot of
mpmath's polynomials, Szegő's weight formula, differenced at 1e-12).
"""

import mpmath
import numpy as np
import pytest
import scipy.special as sc

import chainrules  # noqa: F401  (registers the rules)
from chainrules.rulesets.special.orthogonal_polynomial_objects import register_for_testing
from chainrules.testing import test_frule, test_rrule
from chainrules_core import NoTangent, frule, rrule, unthunk


@pytest.mark.parametrize("f, params", [(sc.roots_jacobi, (0.5, 1.5)), (sc.roots_jacobi, (-0.5, 2.25)),
                                       (sc.roots_sh_jacobi, (2.5, 1.5)), (sc.roots_gegenbauer, (1.3,)),
                                       (sc.roots_gegenbauer, (0.25,)), (sc.roots_genlaguerre, (0.5,)),
                                       (sc.roots_genlaguerre, (-0.5,))], ids=lambda v: getattr(v, "__name__", str(v)))
@pytest.mark.parametrize("n", [1, 5, 12])
def test_quadrature_rules(f, params, n):
    test_rrule(f, n, *params)
    test_frule(f, n, *params)
    test_rrule(f, n, *params, fkwargs={"mu": True})
    test_frule(f, n, *params, True)


def test_jacobi_and_laguerre_rules_match_mpmath():
    h = mpmath.mpf("1e-12")

    def jacobi_rule(n, a, b):
        start = sc.roots_jacobi(n, float(a), float(b))[0]
        xs = [mpmath.findroot(lambda t: mpmath.jacobi(n, a, b, t), mpmath.mpf(float(x))) for x in start]
        ws = [2 ** (a + b + 1) * mpmath.gamma(n + a + 1) * mpmath.gamma(n + b + 1)
              / (mpmath.factorial(n) * mpmath.gamma(n + a + b + 1))
              / ((1 - x * x) * mpmath.diff(lambda t: mpmath.jacobi(n, a, b, t), x) ** 2) for x in xs]
        return xs, ws

    def laguerre_rule(n, a):
        start = sc.roots_genlaguerre(n, float(a))[0]
        xs = [mpmath.findroot(lambda t: mpmath.laguerre(n, a, t), mpmath.mpf(float(x))) for x in start]
        ws = [mpmath.gamma(n + a + 1)
              / (mpmath.factorial(n) * x * mpmath.diff(lambda t: mpmath.laguerre(n, a, t), x) ** 2) for x in xs]
        return xs, ws

    with mpmath.workdps(30):
        for i, (rule, f, params) in enumerate([(jacobi_rule, sc.roots_jacobi, (0.5, 1.5)),
                                               (jacobi_rule, sc.roots_jacobi, (0.5, 1.5)),
                                               (laguerre_rule, sc.roots_genlaguerre, (1.5,))]):
            j = i % 2 if f is sc.roots_jacobi else 0
            n = 5
            tangents = [None, None] + [0.0] * len(params)
            tangents[2 + j] = 1.0
            _, (dx, dw) = frule(tuple(tangents), f, n, *params)
            up = [mpmath.mpf(p) + (h if k == j else 0) for k, p in enumerate(params)]
            down = [mpmath.mpf(p) - (h if k == j else 0) for k, p in enumerate(params)]
            (xu, wu), (xd, wd) = rule(n, *up), rule(n, *down)
            ref_dx = np.array([float((a - b) / (2 * h)) for a, b in zip(xu, xd)])
            ref_dw = np.array([float((a - b) / (2 * h)) for a, b in zip(wu, wd)])
            assert np.allclose(dx, ref_dx, rtol=1e-10, atol=0), (f.__name__, j)
            assert np.allclose(dw, ref_dw, rtol=1e-10, atol=0), (f.__name__, j)


def test_integer_only_rules_are_non_differentiable():
    for f in (sc.roots_legendre, sc.p_roots, sc.roots_hermite, sc.roots_sh_chebyu):
        _, pullback = rrule(f, 4)
        assert pullback((np.ones(4), np.ones(4))) == (NoTangent(), NoTangent())


@pytest.mark.parametrize("f, params", [(sc.jacobi, (2.5, 1.5)), (sc.sh_jacobi, (2.5, 1.5)), (sc.gegenbauer, (1.5,)),
                                       (sc.genlaguerre, (1.5,))], ids=lambda v: getattr(v, "__name__", str(v)))
@pytest.mark.parametrize("monic", [False, True])
def test_polynomial_objects(f, params, monic):
    register_for_testing()
    test_rrule(f, 4, *params, fkwargs={"monic": monic})
    test_frule(f, 3, *params, monic)
    _, dp = frule((None, None, *([1.0] + [0.0] * (len(params) - 1))), f, 0, *params)
    assert np.all(unthunk(dp.coeffs) == 0)  # degree 0: the constant 1
