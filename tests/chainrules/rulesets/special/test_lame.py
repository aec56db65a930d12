"""Rules of chainrules/rulesets/special/lame.py, checked against finite differences.

mpmath has no Lamé functions: the oracle here is SciPy's function itself, through the
testers' own finite differences (a different stencil and step from the rules'
extrapolation), and the exact derivative where the Lamé function is a known polynomial.
"""

import numpy as np
import pytest
import scipy.special as sc

import chainrules  # noqa: F401  (registers the rules)
from chainrules.testing import test_frule, test_rrule
from chainrules_core import NoTangent, NotImplementedTangent, frule, rrule, unthunk

pytestmark = pytest.mark.filterwarnings("ignore::scipy.integrate.IntegrationWarning")


@pytest.mark.parametrize("n, p", [(1, 1), (2, 1), (2, 3), (3, 2), (4, 5)])
@pytest.mark.parametrize("s", [0.7, 2.5, 3.6])
def test_ellip_harm(n, p, s):
    test_rrule(sc.ellip_harm, 5.0, 8.0, n, p, s)
    test_frule(sc.ellip_harm, 5.0, 8.0, n, p, s)


def test_ellip_harm_sign_flags_by_position_and_keyword():
    by_keyword = rrule(sc.ellip_harm, 4.0, 9.0, 3, 4, 3.6, signm=-1, signn=-1)
    by_position = rrule(sc.ellip_harm, 4.0, 9.0, 3, 4, 3.6, -1, -1)
    assert by_keyword[0] == by_position[0]
    from_keyword, from_position = by_keyword[1](1.0), by_position[1](1.0)
    assert len(from_keyword) == 6 and len(from_position) == 8
    assert from_position[6:] == (NoTangent(), NoTangent())
    for a, b in zip(from_keyword[1:], from_position[1:6]):
        assert unthunk(a) == unthunk(b)
    test_rrule(sc.ellip_harm, 4.0, 9.0, 3, 4, 3.6, -1, 1)
    test_frule(sc.ellip_harm, 4.0, 9.0, 3, 4, 3.6, fkwargs={"signn": -1})


def test_ellip_harm_known_polynomial():
    # n = 1, p = 1: E = s, independent of h2, k2; n = 2, p = 2: E = s^2 - c(h2, k2)
    _, dy = frule((None, 1.0, 1.0, None, None, 1.0), sc.ellip_harm, 5.0, 8.0, 1, 1, np.array([0.5, 3.0]))
    assert np.allclose(dy, 1.0, rtol=1e-12)
    _, dy = frule((None, 0.0, 0.0, None, None, 1.0), sc.ellip_harm, 5.0, 8.0, 2, 2, np.array([0.5, 3.0]))
    assert np.allclose(dy, [1.0, 6.0], rtol=1e-10)


def test_ellip_harm_2_and_normal():
    test_rrule(sc.ellip_harm_2, 5.0, 8.0, 2, 1, 3.5)
    test_frule(sc.ellip_harm_2, 4.0, 6.5, 3, 2, 4.0)
    test_rrule(sc.ellip_normal, 5.0, 8.0, 3, 2)
    test_frule(sc.ellip_normal, 5.0, 8.0, 2, 1)


def test_at_a_branch_point_the_s_derivative_is_not_implemented():
    # p = 2 of n = 1 is sqrt|s^2 - h^2|: infinite slope at s = h
    _, pullback = rrule(sc.ellip_harm, 4.0, 9.0, 1, 2, 2.0)
    ds = unthunk(pullback(1.0)[5])
    assert isinstance(ds, NotImplementedTangent) and "derivative in s" in ds.info
