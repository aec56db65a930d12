"""Rules of the spheroidal wave functions and their characteristic values.

``pro_ang1``, ``pro_rad1``, ``pro_rad2``, ``obl_ang1``, ``obl_rad1``, ``obl_rad2`` (in ``x``
and ``c``), their ``_cv`` variants (in ``x``), ``pro_cv``, ``obl_cv`` and ``pro_cv_seq``,
``obl_cv_seq`` (in ``c``). The order ``m`` and degree ``n`` are indices: ``NoTangent()``.

The maths
---------
**In x** the functions return ``(w, w')``: the first output's derivative is the second, the
second's comes from the spheroidal wave equation (DLMF 30.2.1, Flammer's forms); for the
radial functions of the second kind, whose SciPy values miss that equation near ``x = 1``,
it is the extrapolated slope of SciPy's ``w'``, kept only where it agrees with the equation
to ``1e-6`` (else ``not_implemented``):

* prolate, both kinds: ``(1 - x^2) w'' - 2x w' + (cv - c^2 x^2 - m^2/(1 - x^2)) w = 0``;
* oblate angular: the same with ``+c^2 x^2``;
* oblate radial (``x = xi >= 0``): ``(x^2 + 1) w'' + 2x w' - (cv - c^2 x^2 - m^2/(x^2 + 1)) w = 0``

(checked against SciPy: residuals at the level of finite differences), with ``cv`` the
characteristic value (``pro_cv``/``obl_cv``, or the ``_cv`` argument).

**The characteristic values in c**: ``cv = lambda_mn(c)`` is the eigenvalue of
``-d/dx (1 - x^2) d/dx + m^2/(1 - x^2) +- c^2 x^2`` on ``(-1, 1)``, so (Hellmann-Feynman)
``d cv/dc = +-2c int x^2 S^2 dx / int S^2 dx`` with ``S`` the angular function of the first
kind (``+`` prolate, ``-`` oblate). The integrals are Gauss-Legendre sums over SciPy's
``pro_ang1``/``obl_ang1`` (``S^2 = (1 - x^2)^m`` times an entire function); the rule with 48
nodes is compared with 96 and the difference must be below ``1e-10``, else
``not_implemented``.

**The functions in c**: SciPy computes them from expansions with its own normalisations:
Richardson-extrapolated differences in ``c`` of SciPy's function (smooth: estimates about
``1e-13``), kept where the estimate is below ``1e-9`` of the derivative, else
``not_implemented``. SciPy returns the ``c = 0`` values for every ``c < 0`` (the functions
depend on ``c^2``), so the derivative in ``c`` is given for ``c > 0`` only.

**The _cv variants in c and cv**: they are the functions only when ``cv`` is the
characteristic value of ``(m, n, c)``; SciPy evaluates its expansion at any ``cv``, but the
partial derivatives in ``c`` at fixed ``cv`` and in ``cv`` at fixed ``c`` are not those of
any function SciPy defines: ``not_implemented`` (differentiate the plain function in ``c``,
which moves ``cv`` with it).

SciPy's float32 loops of these functions do not return (they hang); the rules are tested in
double precision.

Examples
--------
>>> import numpy as np
>>> import scipy.special as sc
>>> import chainrules
>>> from chainrules import frule
>>> cv = frule((None, None, None, 1.0), sc.pro_cv, 0, 0, 1e-3)[1]    # lambda_00 = c^2/3 + ...: 2c/3
>>> bool(np.isclose(cv, 2e-3 / 3, rtol=1e-5))
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import scipy.special as sc

from chainrules.rulesets.special._numerical import parameter_derivative
from chainrules.rulesets.special._parameter_rules import ParameterPartials, float64
from chainrules_core import (
    NoTangent,
    Sample,
    ZeroTangent,
    frule,
    not_implemented,
    read_cotangent,
    rrule,
    sample_inputs,
    scalar_rule,
    unthunk,
)
from chainrules_core.scalar_rules import NUMERIC, fit_tangent, project_argument

_NODES = {k: np.polynomial.legendre.leggauss(k) for k in (48, 96)}


# ---- characteristic values ---------------------------------------------------------------------------
def _cv_slope(m: float, n: float, c: float, prolate: bool) -> tuple[float, float]:
    """``d cv/dc`` by Hellmann-Feynman, and the difference between the 48- and 96-node rules."""
    angular = sc.pro_ang1 if prolate else sc.obl_ang1
    ratios = []
    for k in (48, 96):
        x, w = _NODES[k]
        s = angular(m, n, c, x)[0]
        s2 = w * s * s
        ratios.append(np.sum(s2 * x * x) / np.sum(s2))
    sign = 2.0 if prolate else -2.0
    return sign * c * ratios[1], abs(sign * c * (ratios[1] - ratios[0]))


def _cv_partial(prolate: bool, name: str) -> Callable[..., Any]:
    def cv_c(m: Any, n: Any, c: Any) -> Any:
        m, n, c = np.broadcast_arrays(float64(m), float64(n), float64(c))
        out = np.full(m.shape, np.nan)
        error = np.zeros(m.shape)
        for index in np.ndindex(m.shape):
            mi, ni, ci = float(m[index]), float(n[index]), float(c[index])
            if np.isfinite(ci) and 0 <= mi <= ni and mi == round(mi) and ni == round(ni):
                out[index], error[index] = _cv_slope(mi, ni, ci, prolate)
        bad = ~(error <= 1e-10 * np.maximum(np.abs(out), 1.0)) & np.isfinite(out)
        if np.any(bad):
            return not_implemented(f"scipy.special.{name}: the Gauss-Legendre sums of d cv/dc did not converge to "
                                   f"1e-10 at {int(np.sum(bad))} points (large c or n); differentiate elsewhere")
        return out[()]

    cv_c.__name__ = f"{name}_c"
    cv_c.__doc__ = "``d cv/dc = +-2c <x^2> `` over the angular function (Hellmann-Feynman)."
    return cv_c


scalar_rule(sc.pro_cv, NoTangent(), NoTangent(), _cv_partial(True, "pro_cv"))
scalar_rule(sc.obl_cv, NoTangent(), NoTangent(), _cv_partial(False, "obl_cv"))


def _cv_seq_rules(f: Any, prolate: bool) -> None:
    name = f.__name__

    def slopes(m: Any, n: Any, c: Any) -> Any:
        values = [_cv_slope(float(m), float(j), float(c), prolate) for j in range(int(m), int(n) + 1)]
        out = np.array([v for v, _ in values])
        error = np.array([e for _, e in values])
        if not np.all(error <= 1e-10 * np.maximum(np.abs(out), 1.0)):
            return not_implemented(f"scipy.special.{name}: the Gauss-Legendre sums of d cv/dc did not converge")
        return out

    def cv_seq_rrule(m: Any, n: Any, c: Any) -> Any:
        y = f(m, n, c)
        live = np.asarray(c).dtype.kind == "f"

        def cv_seq_pullback(dy: Any) -> tuple[Any, ...]:
            dy = read_cotangent(dy, y, f)
            if not live:
                return NoTangent(), NoTangent(), NoTangent(), NoTangent()
            if not isinstance(dy, np.ndarray):
                return NoTangent(), NoTangent(), NoTangent(), dy
            d = slopes(m, n, c)
            if not isinstance(d, np.ndarray):
                return NoTangent(), NoTangent(), NoTangent(), d
            return NoTangent(), NoTangent(), NoTangent(), project_argument(c, np.sum(d * dy))

        cv_seq_pullback.__name__ = f"{name}_pullback"
        return y, cv_seq_pullback

    def cv_seq_frule(tangents: Any, m: Any, n: Any, c: Any) -> Any:
        y = f(m, n, c)
        dc = unthunk(tangents[3])
        if dc is None or isinstance(dc, ZeroTangent | NoTangent) or np.asarray(c).dtype.kind != "f":
            return y, ZeroTangent()
        d = slopes(m, n, c)
        return y, fit_tangent(d * dc, y) if isinstance(d, np.ndarray) else d

    cv_seq_rrule.__name__ = f"{name}_rrule"
    cv_seq_frule.__name__ = f"{name}_frule"
    rrule.register(f, NUMERIC, NUMERIC, NUMERIC)(cv_seq_rrule)
    frule.register(f, NUMERIC, NUMERIC, NUMERIC)(cv_seq_frule)


_cv_seq_rules(sc.pro_cv_seq, True)
_cv_seq_rules(sc.obl_cv_seq, False)


# ---- the functions ---------------------------------------------------------------------------------------
def _second_derivative(kind: str, m: Any, c: Any, cv: Any, x: Any, w: Any, w1: Any) -> Any:
    """``w''`` from the spheroidal wave equation of the kind (see the module docstring)."""
    m, c, cv, x, w, w1 = (float64(t) for t in (m, c, cv, x, w, w1))
    with np.errstate(divide="ignore", invalid="ignore"):
        if kind == "oblate radial":
            s = x * x + 1
            return (-2 * x * w1 + (cv - c * c * x * x - m * m / s) * w) / s
        s = 1 - x * x
        c2 = c * c if kind == "prolate" else -c * c
        return (2 * x * w1 - (cv - c2 * x * x - m * m / s) * w) / s


def _x_steps(kind: str, x: Any) -> Any:
    """First steps in x that stay clear of the singular points ``x = +-1`` (not for oblate radial)."""
    if kind == "oblate radial":
        return 0.1 * np.maximum(1.0, np.abs(x))
    return 0.25 * np.minimum(np.abs(np.abs(x) - 1), 0.1 * np.maximum(1.0, np.abs(x)))


def _checked_second_derivative(f: Any, kind: str, m: Any, n: Any, c: Any, cv: Any, x: Any, w: Any, w1: Any,
                               extra: tuple[Any, ...] = ()) -> Any:
    """``d w'/dx``: extrapolated differences of SciPy's ``w'`` in ``x``, checked against the equation.

    SciPy's second-kind radial functions are smooth but not always accurate near ``x = 1``
    (``pro_rad2(1, 3, 1.5, 1.3)`` misses its own differential equation by 1%): the rule
    returns the derivative of SciPy's function where the two agree to ``1e-6``, and is
    ``not_implemented`` where they do not, or where the differences do not converge.
    """
    shape = np.broadcast_shapes(*(np.shape(t) for t in (m, n, c, cv, x, w)))
    m, n, c, cv, x, w, w1 = (np.broadcast_to(float64(t), shape).ravel() for t in (m, n, c, cv, x, w, w1))
    equation = _second_derivative(kind, m, c, cv, x, w, w1)

    def along(t: Any) -> Any:
        return f(m, n, c, *((cv,) if extra else ()), t)[1]

    d, err = parameter_derivative(along, x, step=_x_steps(kind, x))
    scale = np.maximum(np.abs(d), np.abs(w1))
    agree = np.abs(d - equation) <= 1e-6 * np.maximum(scale, np.abs(equation))
    ok = (np.isfinite(d) & (err <= 1e-9 * scale) & agree) | ~np.isfinite(w)
    if not np.all(ok):
        first = int(np.flatnonzero(~ok)[0])
        return not_implemented(
            f"scipy.special.{f.__name__}: the derivative of the second output (w') in x at {int(np.sum(~ok))} points "
            f"(the first: m={m[first]:g}, n={n[first]:g}, c={c[first]:g}, x={x[first]:g}): SciPy's function does not "
            "satisfy its differential equation there to 1e-6 (its values lose digits, typically near x = 1), or "
            "its differences do not converge; the first output's derivative (w') is SciPy's own")
    return np.where(np.isfinite(w), d, np.nan).reshape(shape)[()]


_C_WHY = "the extrapolated differences of SciPy's function in c do not converge there (SciPy needs c > 0)"


def _c_steps(m: Any, n: Any, c: Any, x: Any) -> list[Any]:
    return [0.25 * np.minimum(np.abs(c), np.maximum(1.0, np.abs(c)) * 0.4)]


def _positive_c(m: Any, n: Any, c: Any, x: Any) -> Any:
    return c > 0


def _function_rule(f: Any, kind: str, characteristic: Any, checked: bool) -> None:
    name = f.__name__

    def output(k: int) -> Callable[..., Any]:
        def one(m: Any, n: Any, c: Any, x: Any) -> Any:
            return f(m, n, c, x)[k]

        one.__name__ = f"{name}_{k}"
        return one

    def c_partial(k: int) -> Callable[..., Any]:
        def partial(m: Any, n: Any, c: Any, x: Any, ys: Any) -> Any:
            return ParameterPartials(output(k), None, (m, n, c, x), (2,), ("c",), ys[k], fallback=_positive_c,
                                     steps=_c_steps, why=_C_WHY).partial(0)

        partial.__name__ = f"{name}_c_{k}"
        return partial

    def value_x(m: Any, n: Any, c: Any, x: Any, ys: Any) -> Any:
        return float64(ys[1])

    def slope_x(m: Any, n: Any, c: Any, x: Any, ys: Any) -> Any:
        if checked:
            return _checked_second_derivative(f, kind, m, n, c, characteristic(m, n, c), x, ys[0], ys[1])
        return _second_derivative(kind, m, c, characteristic(m, n, c), x, ys[0], ys[1])

    scalar_rule(f, (NoTangent(), NoTangent(), c_partial(0), value_x), (NoTangent(), NoTangent(), c_partial(1), slope_x))


def _cv_function_rule(f: Any, kind: str, checked: bool) -> None:
    name = f.__name__
    reason = not_implemented(
        f"scipy.special.{name}: the function is defined only where cv is the characteristic value of (m, n, c); "
        "its partial derivatives in c at fixed cv, and in cv at fixed c, are not derivatives of a function SciPy "
        f"defines. Differentiate {name.removesuffix('_cv')} in c instead (it moves cv with c)")

    def value_x(m: Any, n: Any, c: Any, cv: Any, x: Any, ys: Any) -> Any:
        return float64(ys[1])

    def slope_x(m: Any, n: Any, c: Any, cv: Any, x: Any, ys: Any) -> Any:
        if checked:
            return _checked_second_derivative(f, kind, m, n, c, cv, x, ys[0], ys[1], extra=(cv,))
        return _second_derivative(kind, m, c, cv, x, ys[0], ys[1])

    scalar_rule(f, (NoTangent(), NoTangent(), reason, reason, value_x),
                (NoTangent(), NoTangent(), reason, reason, slope_x))


# The second kind's x-derivative is checked against the equation (SciPy's values miss it near
# x = 1); the angular and first-kind radial functions satisfy it to about 5e-13 (measured on 160
# random points against extrapolated differences of their own derivative), so the equation is used.
for _f, _kind, _cv, _checked in [
        (sc.pro_ang1, "prolate", sc.pro_cv, False), (sc.pro_rad1, "prolate", sc.pro_cv, False),
        (sc.pro_rad2, "prolate", sc.pro_cv, True), (sc.obl_ang1, "oblate angular", sc.obl_cv, False),
        (sc.obl_rad1, "oblate radial", sc.obl_cv, False), (sc.obl_rad2, "oblate radial", sc.obl_cv, True)]:
    _function_rule(_f, _kind, _cv, _checked)
for _f, _kind, _checked in [(sc.pro_ang1_cv, "prolate", False), (sc.pro_rad1_cv, "prolate", False),
                            (sc.pro_rad2_cv, "prolate", True), (sc.obl_ang1_cv, "oblate angular", False),
                            (sc.obl_rad1_cv, "oblate radial", False), (sc.obl_rad2_cv, "oblate radial", True)]:
    _cv_function_rule(_f, _kind, _checked)


# ---- samples ----------------------------------------------------------------------------------------------
@sample_inputs(sc.pro_cv, sc.obl_cv)
def _cv_samples(rng: np.random.Generator) -> Any:
    yield Sample(np.array([0, 1, 2, 1]), np.array([0, 3, 4, 1]), np.array([0.5, 1.5, 3.0, 0.05]),
                 label="orders and degrees 0..4")


@sample_inputs(sc.pro_cv_seq, sc.obl_cv_seq)
def _cv_seq_samples(rng: np.random.Generator) -> Any:
    yield Sample(1, 4, 1.5, label="degrees 1..4")
    yield Sample(0, 2, 0.3, label="small c")


@sample_inputs(sc.pro_ang1, sc.obl_ang1)
def _angular_samples(rng: np.random.Generator) -> Any:
    yield Sample(np.array([0, 1, 2]), np.array([0, 3, 4]), np.array([0.5, 1.5, 3.0]), np.array([-0.6, 0.4, 0.85]),
                 label="angular, |x| < 1")


@sample_inputs(sc.pro_rad1, sc.pro_rad2, sc.obl_rad1, sc.obl_rad2)
def _radial_samples(rng: np.random.Generator) -> Any:
    yield Sample(np.array([0, 1, 2]), np.array([0, 3, 4]), np.array([0.5, 1.5, 3.0]), np.array([1.6, 2.2, 3.5]),
                 label="radial, x > 1")


def _cv_variant_samples(characteristic: Any, x: np.ndarray) -> Any:
    """``(m, n, c, cv, x)`` with ``cv`` the characteristic value; ``c`` and ``cv`` held fixed
    (their derivatives are not implemented)."""
    from chainrules.testing import PrimalAndTangent

    cv = float(characteristic(1, 3, 1.5))
    yield Sample(1, 3, PrimalAndTangent(1.5, NoTangent()), PrimalAndTangent(cv, NoTangent()), x, label="in x")


@sample_inputs(sc.pro_ang1_cv)
def _pro_ang1_cv_samples(rng: np.random.Generator) -> Any:
    yield from _cv_variant_samples(sc.pro_cv, np.array([-0.6, 0.4, 0.85]))


@sample_inputs(sc.obl_ang1_cv)
def _obl_ang1_cv_samples(rng: np.random.Generator) -> Any:
    yield from _cv_variant_samples(sc.obl_cv, np.array([-0.6, 0.4, 0.85]))


@sample_inputs(sc.pro_rad1_cv, sc.pro_rad2_cv)
def _pro_rad_cv_samples(rng: np.random.Generator) -> Any:
    yield from _cv_variant_samples(sc.pro_cv, np.array([1.6, 2.5, 4.0]))


@sample_inputs(sc.obl_rad1_cv, sc.obl_rad2_cv)
def _obl_rad_cv_samples(rng: np.random.Generator) -> Any:
    yield from _cv_variant_samples(sc.obl_cv, np.array([1.6, 2.5, 4.0]))
