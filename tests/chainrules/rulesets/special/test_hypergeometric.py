"""Rules of chainrules/rulesets/special/hypergeometric.py.

Every derivative is checked against finite differences of SciPy's function (the testers);
the parameter derivatives are also checked against mpmath at 30 digits (the derivative of
mpmath's function, an independent oracle), at a handful of points per regime.
"""

import mpmath
import numpy as np
import pytest
import scipy.special as sc

import chainrules  # noqa: F401  (registers the rules)
from chainrules.testing import test_frule, test_rrule
from chainrules_core import NoTangent, NotImplementedTangent, UnsupportedKeywordError, frule, rrule, unthunk


def mp_partials(f, point, positions):
    """d f / d point[i] for i in positions, by mpmath at 30 digits."""
    out = []
    with mpmath.workdps(30):
        for i in positions:
            def along(t, i=i):
                args = list(point)
                args[i] = t
                return f(*args)
            out.append(complex(mpmath.diff(along, point[i])))
    return np.array(out)


def rule_partials(f, point, positions):
    """The same derivatives from the frule, one direction at a time."""
    out = []
    for i in positions:
        tangents = [NoTangent()] + [0.0] * len(point)
        tangents[i + 1] = 1.0
        out.append(complex(unthunk(frule(tuple(tangents), f, *point)[1])))
    return np.array(out)


def assert_matches_mpmath(f, mpf, points, positions, rtol=1e-8):
    for point in points:
        ours = rule_partials(f, point, positions)
        ref = mp_partials(mpf, point, positions)
        err = np.abs(ours - ref) / np.abs(ref)
        assert np.all(err <= rtol), f"{f.__name__}{point}: relative errors {err} (ours {ours}, mpmath {ref})"


# ---- finite differences, one point per regime ----------------------------------------------------------
HYP2F1_REGIMES = {
    "series |z| < 1/2": (0.5, 1.5, 2.5, 0.3),
    "Pfaff -1 < z < -1/2": (1.25, 0.5, 3.0, -0.7),
    "1 - z near 1": (0.4, 0.7, 1.6, 0.9),
    "1/(1 - z) for z < -1": (0.3, 0.8, 1.1, -3.0),
    "1/z far left": (0.3, 0.8, 1.4, -40.0),
    "a - b integer far left (extrapolated)": (0.5, 1.5, 2.25, -30.0),
    "c - a - b integer near 1 (extrapolated)": (0.5, 1.5, 3.0, 0.9),
    "a a negative integer": (-2.0, 1.5, 3.0, -4.0),
    "negative c": (0.5, 1.5, -1.5, 0.4),
    "complex z near exp(i pi/3)": (0.5, 0.3, 1.2, 0.5 + 0.8j),
    "complex z, |z| > 1": (0.5, 1.25, 2.5, -3.0 + 2.0j),
}


@pytest.mark.parametrize("label", HYP2F1_REGIMES)
def test_hyp2f1_against_finite_differences(label):
    # SciPy evaluates the integer a - b and c - a - b cases through a limit, and its values there carry
    # noise of about 1e-9 relative, which finite differences amplify to about 1e-7 in some tangent
    # directions: those two points are compared at 1e-6 (the mpmath tests hold the rule to 1e-8 there).
    # Seeded tangents, so that the outcome does not depend on which tests ran before.
    rtol = 1e-6 if "extrapolated" in label else None
    test_rrule(sc.hyp2f1, *HYP2F1_REGIMES[label], rtol=rtol, rng=np.random.default_rng(7))
    test_frule(sc.hyp2f1, *HYP2F1_REGIMES[label], rtol=rtol, rng=np.random.default_rng(8))


HYP1F1_REGIMES = {
    "series": (0.5, 1.5, 2.0),
    "Kummer's transformation": (1.25, 0.75, -6.0),
    "large z": (0.5, 2.5, 80.0),
    "negative a and b": (-2.5, -1.25, 3.0),
    "complex z": (0.75, 1.5, -2.0 + 1.5j),
}


@pytest.mark.parametrize("point", HYP1F1_REGIMES.values(), ids=HYP1F1_REGIMES.keys())
def test_hyp1f1_against_finite_differences(point):
    test_rrule(sc.hyp1f1, *point)
    test_frule(sc.hyp1f1, *point)


HYP0F1_REGIMES = {
    "series": (1.5, 2.0),
    "negative b": (-0.75, -3.0),
    "Hankel's expansion, z << 0": (2.5, -400.0),
    "complex z": (1.5, 1.0 - 2.0j),
}


@pytest.mark.parametrize("point", HYP0F1_REGIMES.values(), ids=HYP0F1_REGIMES.keys())
def test_hyp0f1_against_finite_differences(point):
    test_rrule(sc.hyp0f1, *point)
    test_frule(sc.hyp0f1, *point)


HYPERU_REGIMES = {
    "Kummer pair, small z": (0.5, 1.5, 0.2),
    "integral, integer b": (0.5, 2.0, 3.0),
    "integral and recurrence, a < 0": (-2.5, 1.7, 3.0),
    "Kummer's relation, a < 1, b < 1": (0.3, -1.5, 2.0),
    "asymptotic series, large z": (0.75, 1.25, 80.0),
}


@pytest.mark.parametrize("point", HYPERU_REGIMES.values(), ids=HYPERU_REGIMES.keys())
def test_hyperu_against_finite_differences(point):
    test_rrule(sc.hyperu, *point)
    test_frule(sc.hyperu, *point)


def test_arrays_broadcast_and_float32():
    a = np.array([[0.5], [1.5]], np.float32)
    z = np.array([0.2, -0.5, 0.7], np.float32)
    test_rrule(sc.hyp2f1, a, np.float32(0.25), np.float32(2.0), z)
    test_frule(sc.hyp1f1, a, np.float32(1.25), z)
    y, pullback = rrule(sc.hyp2f1, a, np.float32(0.25), np.float32(2.0), z)
    assert y.dtype == np.float32
    assert all(unthunk(t).dtype == np.float32 for t in pullback(np.ones_like(y))[1:])


# ---- mpmath at 30 digits: the parameter derivatives ------------------------------------------------------
def test_hyp2f1_parameters_match_mpmath():
    points = [(0.5, 1.5, 2.5, 0.3), (1.25, 0.5, 3.0, -0.7), (0.4, 0.7, 1.6, 0.9), (0.3, 0.8, 1.1, -3.0),
              (0.3, 0.8, 1.4, -40.0), (0.5, 1.5, 2.25, -30.0), (0.5, 1.5, 3.0, 0.9), (-2.0, 1.5, 3.0, -4.0),
              (3.5, -2.25, 4.75, 0.6), (0.5, 0.3, 1.2, 0.5 + 0.8j), (0.5, 1.5, 2.5, -3.0 + 2.0j)]
    assert_matches_mpmath(sc.hyp2f1, mpmath.hyp2f1, points, (0, 1, 2))


def test_hyp1f1_parameters_match_mpmath():
    points = [(0.5, 1.5, 2.0), (1.25, 0.75, -6.0), (0.5, 2.5, 80.0), (-2.5, -1.25, 3.0), (-3.0, 1.5, 2.0),
              (2.0, 30.0, 50.0), (0.75, 1.5, -2.0 + 1.5j)]
    assert_matches_mpmath(sc.hyp1f1, mpmath.hyp1f1, points, (0, 1))


def test_hyp0f1_parameter_matches_mpmath():
    points = [(1.5, 2.0), (-0.75, -3.0), (2.5, -400.0), (0.5, -10000.0), (2.5, 3000.0), (1.5, 1.0 - 2.0j)]
    assert_matches_mpmath(sc.hyp0f1, mpmath.hyp0f1, points, (0,))


def test_hyperu_parameters_match_mpmath():
    points = [(0.5, 1.5, 0.2), (0.5, 2.0, 3.0), (-2.5, 1.7, 3.0), (0.3, -1.5, 2.0), (0.75, 1.25, 80.0),
              (10.6, 14.4, 3.5), (4.8, 4.1, 24.8), (1.26, -2.16, 4.3)]
    assert_matches_mpmath(sc.hyperu, mpmath.hyperu, points, (0, 1))


# ---- what is not implemented, poles, keywords ----------------------------------------------------------------
def test_not_implemented_where_nothing_reaches_the_accuracy():
    # SciPy's 1F1 is wrong in the 4th digit here and the series cancel: no number is given
    point = (-1.904, -2.869, -21.8 - 49.7j)
    _, pullback = rrule(sc.hyp1f1, *point)
    _, da, db, dz = (unthunk(t) for t in pullback(1.0 + 0j))
    for t, name in ((da, "a"), (db, "b")):
        assert isinstance(t, NotImplementedTangent)
        assert "hyp1f1" in t.info and f"derivative in {name}" in t.info
    # the argument's derivative is a b^-1 1F1(a+1; b+1; z) from SciPy, as accurate as SciPy there
    assert np.isfinite(dz)


def test_poles_give_nan_without_raising():
    # c a non-positive integer: the primal is inf, the derivatives are not numbers
    y, pullback = rrule(sc.hyp2f1, np.array([0.5, 0.5]), 1.5, np.array([-1.0, 2.5]), 0.3)
    assert np.isinf(y[0]) and np.isfinite(y[1])
    _, da, _, dc, dz = (unthunk(t) for t in pullback(np.ones(2)))
    assert np.isnan(da[0]) and np.isfinite(da[1]) and np.isnan(dc[0]) and np.isfinite(dc[1]) and not np.isfinite(dz)
    _, pullback = rrule(sc.hyperu, 0.5, 1.5, np.array([-1.0, 2.0]))
    assert np.isnan(unthunk(pullback(np.ones(2))[1]))


def test_out_is_refused():
    with pytest.raises(UnsupportedKeywordError, match="out="):
        rrule(sc.hyp1f1, 0.5, 1.5, np.ones(2), out=np.empty(2))
