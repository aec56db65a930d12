"""Rules of chainrules/rulesets/special/legendre.py.

Finite differences for every function and diff_n; lpmv's degree (and argument, near the
poles) also against mpmath at 30 digits.
"""

import mpmath
import numpy as np
import pytest
import scipy.special as sc

import chainrules  # noqa: F401  (registers the rules)
from chainrules.testing import test_frule, test_rrule
from chainrules_core import NoTangent, NotImplementedTangent, Tangent, ZeroTangent, frule, rrule, unthunk


@pytest.mark.parametrize("m, v, x", [(0, 2.5, 0.3), (1, 3.7, -0.6), (3, 4.075, -0.8706), (2, 3.0, 0.999),
                                     (-1, 5.418, -0.996), (-2, 2.7, -0.3), (0, 4.0, 1.0 - 1e-9)])
def test_lpmv(m, v, x):
    test_rrule(sc.lpmv, m, v, x)
    test_frule(sc.lpmv, m, v, x)


def test_lpmv_matches_mpmath():
    for m, v, x in [(0, 2.5, 0.3), (3, 4.075, -0.8706), (-1, 5.418, -0.996)]:
        with mpmath.workdps(30):
            dv = float(mpmath.diff(lambda s, m=m, x=x: mpmath.legenp(s, m, x, type=2), v))
            dx = float(mpmath.diff(lambda s, m=m, v=v: mpmath.legenp(v, m, s, type=2), x))
        ours_v = frule((NoTangent(), NoTangent(), 1.0, 0.0), sc.lpmv, m, v, x)[1]
        ours_x = frule((NoTangent(), NoTangent(), 0.0, 1.0), sc.lpmv, m, v, x)[1]
        assert abs(ours_v - dv) <= 1e-8 * abs(dv), (m, v, x, ours_v, dv)
        assert abs(ours_x - dx) <= 1e-8 * abs(dx), (m, v, x, ours_x, dx)


@pytest.mark.parametrize("diff_n", [0, 1, 2])
def test_legendre_p_family(diff_n):
    z = np.array([-0.9, 0.2, 0.6, 0.99])
    kw = {"diff_n": diff_n}
    test_rrule(sc.legendre_p, 5, z, fkwargs=kw)
    test_frule(sc.legendre_p, np.array([[2], [5]]), z, fkwargs=kw)
    test_rrule(sc.legendre_p_all, 4, z, fkwargs=kw)
    test_rrule(sc.assoc_legendre_p, 4, 2, z[:3], fkwargs=kw)
    test_frule(sc.assoc_legendre_p_all, 3, 2, z[:3], fkwargs=kw)
    test_rrule(sc.sph_legendre_p, 4, 2, np.array([0.4, 1.2, 2.6]), fkwargs=kw)
    test_frule(sc.sph_legendre_p_all, 3, 1, np.array([0.4, 1.2, 2.6]), fkwargs=kw)


def test_assoc_legendre_p_options_and_complex():
    test_rrule(sc.assoc_legendre_p, 3, 1, np.array([1.5, 2.5]), fkwargs={"branch_cut": 3, "diff_n": 1})
    test_rrule(sc.assoc_legendre_p, 3, -1, np.array([0.3, -0.7]), fkwargs={"norm": True})
    test_rrule(sc.assoc_legendre_p, 3, 1, np.array([0.3 + 0.2j, -0.5 + 0.1j]))
    test_frule(sc.assoc_legendre_p, 3, 1, np.array([0.3 + 0.2j, -0.5 + 0.1j]))


@pytest.mark.parametrize("diff_n", [0, 1, 2])
def test_sph_harm_y(diff_n):
    theta, phi = np.array([0.4, 1.2, 2.6]), np.array([0.3, -1.0, 2.5])
    test_rrule(sc.sph_harm_y, 3, 2, theta, phi, fkwargs={"diff_n": diff_n})
    test_frule(sc.sph_harm_y, 3, -1, theta, phi, fkwargs={"diff_n": diff_n})
    test_rrule(sc.sph_harm_y_all, 2, 1, theta, 0.7, fkwargs={"diff_n": diff_n})


def test_sph_harm_y_structural_cotangent_with_a_zero_field():
    theta, phi = np.array([0.4, 1.2]), np.array([0.3, -1.0])
    y, pullback = rrule(sc.sph_harm_y, 3, 2, theta, phi, diff_n=1)
    _, _, _, dtheta, dphi = pullback(Tangent(tuple, np.ones(2, complex), ZeroTangent()))
    grad = y[1]
    assert np.allclose(unthunk(dtheta), np.real(np.conj(grad[..., 0])))
    assert np.allclose(unthunk(dphi), np.real(np.conj(grad[..., 1])))


def test_third_derivative_at_a_pole_is_not_implemented():
    # diff_n = 2 needs d^3/dtheta^3, from the equation in theta, which cancels near theta = 0
    _, pullback = rrule(sc.sph_legendre_p, 4, 2, np.array([1e-6, 1.0]), diff_n=2)
    dtheta = unthunk(pullback(np.ones((3, 2)))[3])
    assert isinstance(dtheta, NotImplementedTangent) and "third derivative" in dtheta.info
    _, pullback = rrule(sc.sph_legendre_p, 4, 2, np.array([1e-6, 1.0]), diff_n=1)
    assert np.all(np.isfinite(unthunk(pullback(np.ones((2, 2)))[3])))


def test_lqn_lqmn():
    test_rrule(sc.lqn, 4, np.array([0.2, -0.6]))
    test_frule(sc.lqn, 3, 1.7)
    test_rrule(sc.lqn, 3, 0.4 + 0.3j)
    test_rrule(sc.lqmn, 2, 3, 0.4)
    test_frule(sc.lqmn, 1, 2, 1.7)


def test_integer_arguments_get_no_tangent():
    _, pullback = rrule(sc.assoc_legendre_p, 3, 1, np.array([0.3, 0.5]))
    out = pullback(np.ones((1, 2)))
    assert out[1] == NoTangent() and out[2] == NoTangent() and not isinstance(unthunk(out[3]), NoTangent)
