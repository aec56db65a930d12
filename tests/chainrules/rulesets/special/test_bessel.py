"""Rules of chainrules/rulesets/special/bessel.py: finite differences at every regime, mpmath for the order.

The derivative in the order is checked twice: against finite differences of SciPy's
function (``test_rrule``/``test_frule``, at one point per regime of
:mod:`chainrules.rulesets.special._bessel_order` and on both sides of each switch-over),
and against mpmath's ``diff`` of its own Bessel function at 30 digits (relative error at
most ``1e-10``, the grid chosen away from the zeros of the derivatives).
"""

from __future__ import annotations

import mpmath as mp
import numpy as np
import pytest
import scipy.special as sc

import chainrules  # noqa: F401  (registers the rules)
from chainrules import frule, rrule
from chainrules.rulesets.special import bessel
from chainrules.rulesets.special._bessel_order import complex_order_derivative, i_order, jy_order, k_order
from chainrules.testing import PrimalAndTangent, test_frule, test_rrule, test_scalar
from chainrules_core import NoTangent, NotImplementedTangent, unthunk

# ---- the order derivative against mpmath -----------------------------------------------------------------
# (v, x): the series (x <= 2), Schlaefli's integrals, the steepest-descent paths (v > x + x^(1/3);
# for I, v > max(1, 2 sqrt(x))), Hankel's expansion (x >= 20, v^2 <= x), the K trapezoid, and
# negative orders (the reflection formulas); both sides of each switch-over.
GRID = [(0.0, 0.7), (0.3, 1e-6), (2.5, 1.99), (2.5, 2.01), (0.75, 4.0), (3.2, 9.0), (9.0 + 9 ** (1 / 3) - 0.01, 9.0),
        (9.0 + 9 ** (1 / 3) + 0.01, 9.0), (40.0, 12.0), (4.4, 19.9), (4.4, 20.1), (1.5, 300.0), (25.0, 300.0),
        (-1.3, 3.0), (-2.0, 5.0), (-7.5, 2.5), (120.0, 150.0)]
MP_FUNCTIONS = {"J": mp.besselj, "Y": mp.bessely, "I": mp.besseli, "K": mp.besselk}


def _mp_order_derivative(name: str, v: float, x: complex) -> complex:
    f = MP_FUNCTIONS[name]
    with mp.workdps(40):
        return complex(mp.diff(lambda s: f(s, mp.mpmathify(x)), v))


def _ours(name: str, v: float, x: float) -> float:
    if name == "J":
        return float(jy_order(v, x)[0])
    if name == "Y":
        return float(jy_order(v, x)[1])
    if name == "I":
        return float(i_order(v, x) * np.exp(x))
    return float(k_order(v, x) * np.exp(-x))


@pytest.mark.parametrize("name", ["J", "Y", "I", "K"])
def test_order_derivative_matches_mpmath(name):
    errors = []
    for v, x in GRID:
        expected = _mp_order_derivative(name, v, x).real
        ours = _ours(name, v, x)
        errors.append(abs(ours - expected) / abs(expected) if expected != 0 else abs(ours))  # K at v = 0: exactly 0
    assert max(errors) <= 1e-10, list(zip(GRID, errors))


@pytest.mark.parametrize("f, name", [(sc.jv, "J"), (sc.yv, "Y"), (sc.iv, "I"), (sc.kv, "K")])
def test_complex_argument_order_derivative_matches_mpmath(f, name):
    # Richardson extrapolation of SciPy's function, checked by its own error estimate.
    for v, z in [(0.5, 1.0 + 0.5j), (3.7, -2.0 + 1.0j), (10.5, 3.0 + 0.1j), (-1.3, 5.0 + 5.0j)]:
        ours = bessel.order_derivative(f, v, z)
        assert not isinstance(ours, NotImplementedTangent)
        expected = _mp_order_derivative(name, v, z)
        assert abs(ours - expected) <= 1e-9 * abs(expected), (v, z, ours, expected)


SCALED = {  # function: (how to build it from J, Y, I, K in mpmath, the scale factor)
    sc.jve: (lambda d: d["J"], lambda z: np.exp(-abs(np.imag(z)))),
    sc.yve: (lambda d: d["Y"], lambda z: np.exp(-abs(np.imag(z)))),
    sc.ive: (lambda d: d["I"], lambda z: np.exp(-abs(np.real(z)))),
    sc.kve: (lambda d: d["K"], lambda z: np.exp(z)),
    sc.hankel1: (lambda d: d["J"] + 1j * d["Y"], lambda z: 1.0),
    sc.hankel2: (lambda d: d["J"] - 1j * d["Y"], lambda z: 1.0),
    sc.hankel1e: (lambda d: d["J"] + 1j * d["Y"], lambda z: np.exp(-1j * z)),
    sc.hankel2e: (lambda d: d["J"] - 1j * d["Y"], lambda z: np.exp(1j * z)),
}


@pytest.mark.parametrize("f", list(SCALED), ids=lambda f: f.__name__)
def test_scaled_and_hankel_order_derivatives_match_mpmath(f):
    build, scale = SCALED[f]
    v = np.array([0.3, 2.5, -1.3, 6.0, 1.5])
    z = np.array([0.5, 3.0, 30.0, 2.0, 1.2 + 0.7j])  # the last one complex (Richardson)
    for vi, zi, d in zip(v, z, bessel.order_derivative(f, v, z)):
        parts = {name: _mp_order_derivative(name, vi, zi) for name in "JYIK"}
        expected = scale(zi) * build(parts)
        assert abs(d - expected) <= 1e-10 * abs(expected), (f.__name__, vi, zi, d, expected)


def test_order_derivative_closed_forms():
    # DLMF 10.15.5 (v = 0), 10.15.6 and 10.15.8 (v = 1/2, with Si and Ci), 10.38.4 (I at v = 0)
    x = np.array([0.3, 2.0, 11.0, 45.0])
    dj, dy = jy_order(0.0, x)
    np.testing.assert_allclose(dj, np.pi / 2 * sc.y0(x), rtol=1e-12)
    np.testing.assert_allclose(dy, -np.pi / 2 * sc.j0(x), rtol=1e-12)
    si, ci = sc.sici(2 * x)
    dj, dy = jy_order(0.5, x)
    front = np.sqrt(2 / (np.pi * x))
    np.testing.assert_allclose(dj, front * (ci * np.sin(x) - si * np.cos(x)), rtol=1e-11)
    np.testing.assert_allclose(dy, front * (ci * np.cos(x) + (si - np.pi) * np.sin(x)), rtol=1e-11)
    np.testing.assert_allclose(i_order(0.0, x), -sc.k0e(x) * np.exp(-2 * x), rtol=1e-12)


def test_order_derivative_special_arguments():
    dj, dy = jy_order(np.array([1.5, 0.0, 2.0, 0.5]), np.array([0.0, 0.0, -1.0, np.inf]))
    assert dj[0] == 0.0 and np.isnan(dj[1:]).all() and np.isnan(dy).all()
    assert i_order(2.0, 0.0) == 0.0 and np.isnan(k_order(2.0, 0.0))


# ---- finite differences ---------------------------------------------------------------------------------
ORDER_FUNCTIONS = [sc.jv, sc.yv, sc.iv, sc.kv, sc.jve, sc.yve, sc.ive, sc.kve]


@pytest.mark.parametrize("f", ORDER_FUNCTIONS, ids=lambda f: f.__name__)
def test_both_arguments_across_regimes(f):
    v = np.array([v for v, _ in GRID if abs(v) < 50])
    x = np.array([x for v, x in GRID if abs(v) < 50])
    if f in (sc.iv, sc.ive, sc.kv, sc.kve):
        keep = x < 200  # I overflows, K underflows, beyond; their scaled forms are checked at 300 below
        v, x = v[keep], x[keep]
    test_rrule(f, v, x)
    test_frule(f, v, x)


@pytest.mark.parametrize("f", [sc.ive, sc.kve], ids=lambda f: f.__name__)
def test_scaled_at_large_arguments(f):
    test_rrule(f, np.array([1.5, 25.0, 0.0]), np.array([300.0, 300.0, 800.0]))


@pytest.mark.parametrize("f", [sc.jv, sc.yv, sc.iv, sc.kv, sc.jve, sc.yve, sc.ive, sc.kve, sc.hankel1, sc.hankel2,
                               sc.hankel1e, sc.hankel2e], ids=lambda f: f.__name__)
def test_complex_argument(f):
    # the holomorphic convention (and the Wirtinger pair of jve, yve, ive), near the branch cut too
    z = np.array([1.0 + 0.5j, -2.0 + 1e-3j, -2.0 - 1e-3j, 0.3 - 2.0j])
    v = np.array([0.5, 1.5, 1.5, -0.7])
    test_rrule(f, v, z)
    test_frule(f, v, z)
    test_rrule(f, 1.3, 0.8 + 0.6j)


def test_real_argument_of_the_hankel_functions():
    # SciPy casts a real argument to complex: the order derivative is dJ/dv +- i dY/dv
    test_rrule(sc.hankel1, np.array([0.5, 3.0, -2.5]), np.array([2.0, 1.0, 40.0]) + 0j)
    test_rrule(sc.hankel2e, 1.5, 2.0 + 0j)


def test_negative_argument_integer_order():
    # x < 0: J_n(x) is real at integer orders; its derivative in x is; in the order it is not
    test_rrule(sc.jv, np.array([0, 1, 3]), np.array([-0.5, -2.0, -7.0]))
    _, pullback = rrule(sc.jv, 2.0, -1.5)
    assert np.isnan(unthunk(pullback(1.0)[1]))


def test_jn_is_jv_with_integer_orders_not_differentiated():
    assert sc.jn is sc.jv
    test_rrule(sc.jn, np.array([0, 2, 5]), np.array([0.5, 2.0, 9.0]))
    assert rrule(sc.jn, 2, 1.5)[1](1.0)[1] == NoTangent()


@pytest.mark.filterwarnings("ignore:floating point number truncated:RuntimeWarning")
@pytest.mark.parametrize("f", [sc.yn, sc.kn], ids=lambda f: f.__name__)
def test_integer_order_functions_take_their_order_as_an_index(f):
    test_rrule(f, np.array([0, 1, 4]), np.array([0.5, 2.0, 7.0]))
    test_frule(f, np.array([0, 1, 4]), np.array([0.5, 2.0, 7.0]))
    # a float order is truncated by SciPy: piecewise constant, an index
    test_rrule(f, PrimalAndTangent(np.array([0.0, 2.0, -3.0]), NoTangent()), np.array([0.5, 2.0, 7.0]))
    _, pullback = rrule(f, 2.5, 1.5)
    assert pullback(1.0)[1] == NoTangent()
    _, dy = frule((None, 1.0, 1.0), f, 2.0, 1.5)
    assert np.isclose(dy, rrule(f, 2.0, 1.5)[1](1.0)[2])


FIXED = [sc.j0, sc.j1, sc.y0, sc.y1, sc.i0, sc.i1, sc.i0e, sc.i1e, sc.k0, sc.k1, sc.k0e, sc.k1e]


@pytest.mark.parametrize("f", FIXED, ids=lambda f: f.__name__)
def test_fixed_orders(f):
    x = np.array([0.01, 0.9, 3.0, 8.0, 40.0])
    if f in (sc.i0, sc.i1):
        x = x[:4]
    test_rrule(f, x)
    test_frule(f, x)
    test_rrule(f, x.astype(np.float32)[:3])
    test_scalar(f, 2.5)
    if f in (sc.j0, sc.j1, sc.i0, sc.i1, sc.i0e, sc.i1e):  # defined for x < 0
        test_rrule(f, -x[:3])


@pytest.mark.parametrize("f", [sc.j0, sc.j1, sc.i0, sc.i1])
def test_fixed_orders_at_zero(f):
    test_scalar(f, 0.0)
    _, pullback = rrule(f, np.float32(0.0))
    assert pullback(np.float32(1.0))[1].dtype == np.float32


def test_float32_stays_float32():
    _, pullback = rrule(sc.jv, np.float32(1.5), np.float32(2.0))
    _, dv, dx = pullback(np.float32(1.0))
    assert unthunk(dv).dtype == np.float32 and unthunk(dx).dtype == np.float32


def test_not_implemented_where_richardson_is_not_accurate(monkeypatch):
    noisy = np.random.default_rng(0)
    assert complex_order_derivative(lambda v, z: sc.jv(v, z) * (1 + 1e-6 * noisy.standard_normal(np.shape(z))),
                                    np.array([0.5]), np.array([1.0 + 1.0j])) is None
    monkeypatch.setattr(bessel, "complex_order_derivative", lambda f, v, z: None)
    _, pullback = rrule(sc.jv, np.array([0.5, 1.5]), np.array([1.0 + 1.0j, 2.0 + 0.0j]))
    _, dv, dz = pullback(np.ones(2, complex))
    assert isinstance(unthunk(dv), NotImplementedTangent)
    assert np.all(np.isfinite(unthunk(dz)))
    _, dy = frule((None, 1.0, 0.0), sc.jv, 0.5, 1.0 + 1.0j)
    assert isinstance(dy, NotImplementedTangent)


def test_optional_keywords_pass_through():
    test_rrule(sc.jv, 1.5, 2.0, fkwargs={"dtype": np.float64})


@pytest.mark.parametrize("f, name", [(sc.jv, "J"), (sc.yv, "Y"), (sc.iv, "I"), (sc.kv, "K")])
def test_complex_argument_at_order_zero_uses_the_closed_forms(f, name):
    # DLMF 10.15.5, 10.38.4: at v = 0 the derivative can be far below the function (dI/dv = -K_0 against
    # I_0 ~ e^20 at z = 20 + 3i), where differences in v resolve nothing
    z = np.array([20.0 + 3.0j, 0.5 - 0.5j])
    ours = bessel.order_derivative(f, np.zeros(2), z)
    for d, zi in zip(ours, z):
        expected = _mp_order_derivative(name, 0.0, zi)
        assert abs(d - expected) <= 1e-12 * max(abs(expected), 1e-300) or expected == 0 == d


def test_complex_argument_not_implemented_where_differences_cannot_resolve():
    # dI/dv at v = 1e-3, z = 20 + 3i is about -K_0(z), e^-40 of I(z): not resolvable, so not a number
    assert isinstance(bessel.order_derivative(sc.iv, 1e-3, 20.0 + 3.0j), NotImplementedTangent)


def test_order_derivative_at_extreme_arguments():
    # the integrands' widths shrink to sqrt(100/x): their cut-off points must follow (x = 1e12)
    cases = [("K", 2.5, 1e12, k_order(2.5, 1e12), 1e12), ("I", 0.5, 1e8, i_order(0.5, 1e8), -1e8),
             ("J", 0.5, 1e6, jy_order(0.5, 1e6)[0], 0.0), ("K", 0.3, 1e-30, k_order(0.3, 1e-30), 0.0)]
    for name, v, x, ours, log_scale in cases:
        with mp.workdps(60):
            expected = mp.diff(lambda s, name=name, x=x: MP_FUNCTIONS[name](s, x), v) * mp.exp(log_scale)
        assert abs(float(ours) - float(expected)) <= 1e-12 * abs(float(expected)), (name, v, x)
