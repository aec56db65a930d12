"""Bessel functions: rules in the argument and in the real order.

Covered: ``jv`` (also ``jn``, the same ufunc), ``yv``, ``iv``, ``kv``, the scaled ``jve``,
``yve``, ``ive``, ``kve``, ``hankel1``, ``hankel2``, ``hankel1e``, ``hankel2e``, the
integer-order ``yn`` and ``kn``, and the fixed orders ``j0``, ``j1``, ``y0``, ``y1``,
``i0``, ``i1``, ``i0e``, ``i1e``, ``k0``, ``k1``, ``k0e``, ``k1e``.

**The argument.** Every derivative in ``z`` is a recurrence of SciPy's own functions
(DLMF 10.6.1, 10.6.2, 10.29.1, 10.29.2, and 10.6.1 for the Hankel functions)::

    J'_v = (J_{v-1} - J_{v+1}) / 2     (also Y, H1, H2)
    I'_v = (I_{v-1} + I_{v+1}) / 2     K'_v = -(K_{v-1} + K_{v+1}) / 2

with the derivative of the exponential factor for the scaled forms: ``kve = K e^z``,
``hankel1e = H1 e^(-iz)`` and ``hankel2e = H2 e^(iz)`` are holomorphic; ``jve = J
e^(-|Im z|)``, ``yve`` and ``ive = I e^(-|Re z|)`` are not, and for complex ``z`` their rules
use the Wirtinger pair (``d/dz jve = (jve_{v-1} - jve_{v+1})/2 + (i s/2) jve`` and
``d/dconj(z) jve = -(i s/2) jve`` with ``s = sign(Im z)``; for ``ive`` the factor is
``-s/2`` with ``s = sign(Re z)``). At ``Im z = 0`` (``Re x = 0`` for ``ive``, ``i0e``,
``i1e``) the kink of ``|.|`` gets the mean of the one-sided derivatives (``sign(0) = 0``),
what a central finite difference sees.

**The order** ``v`` (real; SciPy takes no complex order) is differentiated for real ``x``
by the methods of :mod:`chainrules.rulesets.special._bessel_order`: the ascending series
(DLMF 10.15.1), Schlaefli's integrals (DLMF 10.9.6-7) and steepest-descent paths (DLMF
10.9.17-19), the integral ``dK_v/dv = int_0^inf t sinh(vt) exp(-x cosh t) dt`` (DLMF
10.32.9), Hankel's expansion (DLMF 10.17.3-4), each where it does not cancel, and the
reflection formulas for ``v < 0`` (DLMF 10.4.7-8, 10.27.2-3). Measured against mpmath:
relative error below ``3e-13`` for ``1e-8 <= x <= 300``, ``|v| <= 600``, and ``5e-11`` at
``x = 1500`` and ``1e4`` (relative to ``|dH_v/dv|`` near the zeros of ``dJ_v/dv`` and
``dY_v/dv``). Its cost is 2 to 8 microseconds per point, 4.5 to 28 times the primal's
(``benchmarks/test_special_bessel.py``).
For complex ``z`` off the non-negative real axis it is a Richardson-extrapolated central
difference of SciPy's function in ``v``, accepted where the error estimate is below
``1e-9 |dF/dv|`` (measured: ``2e-11``), with the closed forms at ``v = 0`` (DLMF 10.15.5,
10.38.4); elsewhere the cotangent of ``v`` is ``not_implemented``.

For real ``x < 0`` the functions of a non-integer order are not real (SciPy returns
NaN), so the derivative in the order is NaN even at integer orders; at ``x = 0`` it is
``0`` for ``J``, ``I`` (order ``> 0``) and NaN where the function jumps or is infinite.

**Integer orders.** ``jn`` is ``jv`` (the same object, differentiable in its order when
it is a float; an integer order gets ``NoTangent()``). ``yn`` and ``kn`` truncate a float
order to an integer (a piecewise-constant function of the order, with jumps at the
integers): their order is an index and gets ``NoTangent()`` for every dtype.

Examples
--------
>>> import scipy.special as sc
>>> import chainrules
>>> from chainrules import rrule, unthunk
>>> y, pullback = rrule(sc.iv, 1.5, 2.0)
>>> _, dv, dx = pullback(1.0)
>>> round(float(unthunk(dv)), 6), round(float(unthunk(dx)), 6)   # autograd's order derivative is 0
(-0.925993, 1.221632)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import scipy.special as sc

from chainrules.rulesets.special._bessel_order import complex_order_derivative, i_order, jy_order, k_order
from chainrules.rulesets.special._bessel_rules import Wirtinger, bessel_rule
from chainrules_core import Sample, not_implemented, sample_inputs, scalar_rule

__all__ = ["order_derivative"]


# ---- the order ------------------------------------------------------------------------------------------
def _real_jv(v: np.ndarray, x: np.ndarray) -> np.ndarray:
    return jy_order(v, x, need_y=False)[0]


def _real_yv(v: np.ndarray, x: np.ndarray) -> np.ndarray:
    return jy_order(v, x)[1]


def _real_iv(v: np.ndarray, x: np.ndarray) -> np.ndarray:
    with np.errstate(over="ignore", invalid="ignore"):
        return np.exp(x) * i_order(v, x)


def _real_ive(v: np.ndarray, x: np.ndarray) -> np.ndarray:
    return i_order(v, x)


def _real_kv(v: np.ndarray, x: np.ndarray) -> np.ndarray:
    with np.errstate(over="ignore", invalid="ignore"):
        return np.exp(-x) * k_order(v, x)


def _real_kve(v: np.ndarray, x: np.ndarray) -> np.ndarray:
    return k_order(v, x)


def _real_hankel(sign: float, scaled: bool) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    def real_hankel(v: np.ndarray, x: np.ndarray) -> np.ndarray:
        dj, dy = jy_order(v, x)
        d = dj + sign * 1j * dy
        return d * np.exp(-sign * 1j * x) if scaled else d

    return real_hankel


REAL_ORDER_DERIVATIVES: dict[Any, Callable[[np.ndarray, np.ndarray], np.ndarray]] = {
    sc.jv: _real_jv, sc.jve: _real_jv, sc.yv: _real_yv, sc.yve: _real_yv,
    sc.iv: _real_iv, sc.ive: _real_ive, sc.kv: _real_kv, sc.kve: _real_kve,
    sc.hankel1: _real_hankel(1.0, False), sc.hankel1e: _real_hankel(1.0, True),
    sc.hankel2: _real_hankel(-1.0, False), sc.hankel2e: _real_hankel(-1.0, True),
}
"""``dF_v(x)/dv`` for real ``x``, by function (the scaled forms for real ``x``: ``jve = jv``,
``ive = I e^-|x|``, ``kve = K e^x``, ``hankel1e = H1 e^-ix``)."""


ORDER_ZERO: dict[Any, Callable[[np.ndarray], np.ndarray]] = {
    sc.jv: lambda z: np.pi / 2 * sc.yv(0, z), sc.yv: lambda z: -np.pi / 2 * sc.jv(0, z),
    sc.iv: lambda z: -sc.kv(0, z), sc.kv: lambda z: np.zeros_like(z),
    sc.jve: lambda z: np.pi / 2 * sc.yve(0, z), sc.yve: lambda z: -np.pi / 2 * sc.jve(0, z),
    sc.ive: lambda z: -sc.kve(0, z) * np.exp(-z - np.abs(np.real(z))), sc.kve: lambda z: np.zeros_like(z),
    sc.hankel1: lambda z: -0.5j * np.pi * sc.hankel1(0, z), sc.hankel2: lambda z: 0.5j * np.pi * sc.hankel2(0, z),
    sc.hankel1e: lambda z: -0.5j * np.pi * sc.hankel1e(0, z), sc.hankel2e: lambda z: 0.5j * np.pi * sc.hankel2e(0, z),
}
"""``dF_v(z)/dv`` at ``v = 0`` for complex ``z`` (DLMF 10.15.5: ``(pi/2) Y_0``, ``-(pi/2) J_0``, so
``-+(i pi/2) H_0`` for the Hankel functions; 10.38.4: ``-K_0``; ``K_v`` is even in ``v``)."""


def order_derivative(f: Any, v: Any, z: Any) -> Any:
    """``dF_v(z)/dv`` of one of the functions of this module (broadcast), or ``not_implemented``.

    Real ``z`` and complex ``z`` on the non-negative real axis use the real methods; other
    complex ``z`` the checked Richardson derivative.

    Examples
    --------
    >>> import numpy as np, scipy.special as sc
    >>> from chainrules.rulesets.special.bessel import order_derivative
    >>> float(order_derivative(sc.kv, 0.0, 2.0))            # K_v is even in v
    0.0
    >>> bool(np.isclose(order_derivative(sc.jv, 0.0, 2.0), np.pi / 2 * sc.y0(2.0)))   # DLMF 10.15.5
    True
    """
    real = REAL_ORDER_DERIVATIVES[f]
    v = np.asarray(v, dtype=np.float64)
    z = np.asarray(z)
    if z.dtype.kind != "c":
        return real(v, z.astype(np.float64))[()]
    v, z = np.broadcast_arrays(v, z.astype(np.complex128))
    out = np.empty(z.shape, np.complex128)
    axis = (z.imag == 0) & (z.real >= 0)
    if axis.any():
        out[axis] = real(v[axis], z.real[axis])
    at_zero = ~axis & (v == 0) & (f in ORDER_ZERO)
    if at_zero.any():  # DLMF 10.15.5, 10.38.4: closed forms at order 0, for every z
        out[at_zero] = ORDER_ZERO[f](z[at_zero])
        axis = axis | at_zero
    if (~axis).any():
        d = complex_order_derivative(f, v[~axis], z[~axis])
        if d is None:
            return not_implemented(
                f"scipy.special.{f.__name__}: the derivative in the order at a complex argument off the real axis "
                "is a Richardson-extrapolated difference of SciPy's function, and its error estimate exceeds 1e-9 "
                "of the value here; differentiate at a real argument, or hold the order fixed")
        out[~axis] = d
    return out[()]


def _order_partial(f: Any) -> Callable[..., Any]:
    def order_partial(v: Any, z: Any) -> Any:
        return order_derivative(f, v, z)

    order_partial.__name__ = f"{f.__name__}_order_partial"
    return order_partial


# ---- the argument ---------------------------------------------------------------------------------------
def _lowered(f: Any, v: Any, z: Any, y: Any, sign: float) -> Any:
    """``sign F_{v-1}(z) - (v/z) F_v(z)``, the derivative in ``z`` by DLMF 10.6.2 / 10.29.2 (one call of SciPy).

    At ``z = 0`` (and wherever ``v/z`` overflows) the symmetric form ``(sign F_{v-1} -
    sign' F_{v+1}) / 2`` of DLMF 10.6.1 / 10.29.1 is used instead.
    """
    d = sign * f(v - 1, z) - np.divide(v, z) * y
    bad = ~np.isfinite(d) & np.isfinite(y)
    if np.any(bad):
        after = -1.0 if f in (sc.iv, sc.ive) else 1.0
        symmetric = (sign * f(v - 1, z) - after * f(v + 1, z)) / 2
        d = np.where(bad, symmetric, d)
    return d[()] if isinstance(d, np.ndarray) else d


def _jv_x(v: Any, z: Any, y: Any) -> Any:
    return _lowered(sc.jv, v, z, y, 1.0)


def _yv_x(v: Any, z: Any, y: Any) -> Any:
    return _lowered(sc.yv, v, z, y, 1.0)


def _iv_x(v: Any, z: Any, y: Any) -> Any:
    return _lowered(sc.iv, v, z, y, 1.0)


def _kv_x(v: Any, z: Any, y: Any) -> Any:
    return _lowered(sc.kv, v, z, y, -1.0)


def _kve_x(v: Any, z: Any, y: Any) -> Any:
    return _lowered(sc.kve, v, z, y, -1.0) + y


def _hankel1_x(v: Any, z: Any, y: Any) -> Any:
    return _lowered(sc.hankel1, v, z, y, 1.0)


def _hankel2_x(v: Any, z: Any, y: Any) -> Any:
    return _lowered(sc.hankel2, v, z, y, 1.0)


def _hankel1e_x(v: Any, z: Any, y: Any) -> Any:
    return _lowered(sc.hankel1e, v, z, y, 1.0) - 1j * y


def _hankel2e_x(v: Any, z: Any, y: Any) -> Any:
    return _lowered(sc.hankel2e, v, z, y, 1.0) + 1j * y


for _f, _x_partial in ((sc.jv, _jv_x), (sc.yv, _yv_x), (sc.iv, _iv_x), (sc.kv, _kv_x), (sc.kve, _kve_x),
                       (sc.hankel1, _hankel1_x), (sc.hankel2, _hankel2_x), (sc.hankel1e, _hankel1e_x),
                       (sc.hankel2e, _hankel2e_x)):
    scalar_rule(_f, _order_partial(_f), _x_partial)


def _scaled_oscillating_x(f: Any) -> Callable[..., Any]:
    """The ``z`` partial of ``jve`` or ``yve``: ``F e^-|Im z|`` (a Wirtinger pair for complex ``z``)."""

    def scaled_x(v: Any, z: Any, y: Any) -> Any:
        d = _lowered(f, v, z, y, 1.0)
        if not np.iscomplexobj(z):
            return d
        half = 0.5j * np.sign(np.imag(z)) * y
        return Wirtinger(d + half, -half)

    scaled_x.__name__ = f"{f.__name__}_x_partial"
    return scaled_x


def _ive_x(v: Any, z: Any, y: Any) -> Any:
    d = _lowered(sc.ive, v, z, y, 1.0)
    if not np.iscomplexobj(z):
        return d - np.sign(z) * y
    half = 0.5 * np.sign(np.real(z)) * y
    return Wirtinger(d - half, -half)


def _order_operand(f: Any) -> Callable[..., Any]:
    def order_operand(v: Any, z: Any, y: Any) -> Any:
        return order_derivative(f, v, z)

    order_operand.__name__ = f"{f.__name__}_order_partial"
    return order_operand


bessel_rule(sc.jve, [_order_operand(sc.jve), _scaled_oscillating_x(sc.jve)])
bessel_rule(sc.yve, [_order_operand(sc.yve), _scaled_oscillating_x(sc.yve)])
bessel_rule(sc.ive, [_order_operand(sc.ive), _ive_x])


# ---- integer orders: yn, kn -----------------------------------------------------------------------------
def _yn_x(n: Any, x: Any, y: Any) -> Any:
    m = np.trunc(n)
    return (sc.yn(m - 1, x) - sc.yn(m + 1, x)) / 2


def _kn_x(n: Any, x: Any, y: Any) -> Any:
    m = np.trunc(n)
    return -(sc.kn(m - 1, x) + sc.kn(m + 1, x)) / 2


bessel_rule(sc.yn, [None, _yn_x], index=(0,))
bessel_rule(sc.kn, [None, _kn_x], index=(0,))


# ---- fixed orders -------------------------------------------------------------------------------------
def _over_x(y: Any, x: Any, at_zero: float) -> Any:
    """``y / x``, with its limit ``at_zero`` at ``x = 0`` (``J1(x)/x`` and ``I1(x)/x`` tend to 1/2)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        q = np.divide(y, x)
    return np.where(x == 0, at_zero, q)[()]


def _j1_x(x: Any, y: Any) -> Any:
    return sc.j0(x) - _over_x(y, x, 0.5)


def _y1_x(x: Any, y: Any) -> Any:
    return sc.y0(x) - y / x


def _i1_x(x: Any, y: Any) -> Any:
    return sc.i0(x) - _over_x(y, x, 0.5)


def _k1_x(x: Any, y: Any) -> Any:
    return -sc.k0(x) - y / x


def _i0e_x(x: Any, y: Any) -> Any:
    return sc.i1e(x) - np.sign(x) * y


def _i1e_x(x: Any, y: Any) -> Any:
    return sc.i0e(x) - _over_x(y, x, 0.5) - np.sign(x) * y


def _k0e_x(x: Any, y: Any) -> Any:
    return y - sc.k1e(x)


def _k1e_x(x: Any, y: Any) -> Any:
    return y - sc.k0e(x) - y / x


def _negative(f: Any) -> Callable[[Any], Any]:
    def minus(x: Any) -> Any:
        return -f(x)

    minus.__name__ = f"minus_{f.__name__}"
    return minus


FIXED_ORDER_PARTIALS: dict[Any, Callable[..., Any]] = {
    sc.j0: _negative(sc.j1), sc.j1: _j1_x, sc.y0: _negative(sc.y1), sc.y1: _y1_x,
    sc.i0: sc.i1, sc.i1: _i1_x, sc.i0e: _i0e_x, sc.i1e: _i1e_x,
    sc.k0: _negative(sc.k1), sc.k1: _k1_x, sc.k0e: _k0e_x, sc.k1e: _k1e_x,
}
"""``d/dx`` of the fixed-order functions (DLMF 10.6.2, 10.6.3, 10.29.2, 10.29.3; the scaled
ones add the derivative of ``e^-|x|`` or ``e^x``)."""

for _f, _partial in FIXED_ORDER_PARTIALS.items():
    scalar_rule(_f, _partial)


# ---- sample inputs ---------------------------------------------------------------------------------------
_ORDERS = np.array([0.0, 0.3, -1.7, 2.5, 7.5, 2.0])
_ARGS = np.array([0.4, 3.0, 5.0, 30.0, 2.5, 1.2])
"""One point per regime of the order derivative: series (x <= 2), Schlaefli, negative order,
Hankel's expansion (x >= 20), the steepest-descent path (v > x + x^(1/3)), an integer order."""


def _order_samples(complex_z: bool = True, **options: Any) -> list[Sample]:
    out = [Sample(1.5, 2.0, label="scalars", **options),
           Sample(_ORDERS, _ARGS, label="one point per regime of the order derivative", **options),
           Sample(_ORDERS[:3].astype(np.float32), _ARGS[:3].astype(np.float32), label="float32", **options),
           Sample(np.array([[0.5], [2.0]]), np.array([0.7, 3.5]), label="broadcast", **options)]
    if complex_z:
        out.append(Sample(np.array([0.5, 1.5]), np.array([1.0 + 0.5j, 2.0 - 0.8j]), label="complex z", **options))
    return out


@sample_inputs(sc.jv, sc.yv, sc.jve, sc.yve, sc.iv, sc.kv, sc.kve)
def _bessel_samples(rng: np.random.Generator) -> list[Sample]:
    return _order_samples()


@sample_inputs(sc.ive)
def _ive_samples(rng: np.random.Generator) -> list[Sample]:
    return [*_order_samples(), Sample(np.array([0.5, 1.5]), np.array([-1.0 + 0.5j, 2.0 - 0.8j]),
                                                  label="complex z, Re z < 0")]


@sample_inputs(sc.hankel1, sc.hankel2, sc.hankel1e, sc.hankel2e)
def _hankel_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(1.5, 2.0 + 0j, label="scalars (real z)"),
            Sample(_ORDERS, _ARGS.astype(np.complex128), label="one point per regime, real z"),
            Sample(np.array([0.5, 1.5]), np.array([1.0 + 0.5j, 2.0 - 0.8j]), label="complex z")]


@sample_inputs(sc.yn, sc.kn)
def _integer_order_samples(rng: np.random.Generator) -> list[Sample]:
    from chainrules.testing import PrimalAndTangent
    from chainrules_core import NoTangent

    return [Sample(np.array([0, 1, 3]), np.array([0.5, 2.0, 7.0]), label="integer orders"),
            Sample(PrimalAndTangent(np.array([0.0, 2.0, -1.0]), NoTangent()), np.array([0.5, 2.0, 7.0]),
                   label="float orders (truncated to integers: an index)"),
            Sample(2, np.float32(1.5), label="float32")]


@sample_inputs(*FIXED_ORDER_PARTIALS)
def _fixed_order_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(0.8), Sample(np.array([0.3, 1.7, 6.0, 25.0])), Sample(np.array([0.3, 1.7], np.float32))]


@sample_inputs(sc.i0e, sc.i1e, sc.j0, sc.j1, sc.i0, sc.i1)
def _even_odd_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(np.array([-2.5, -0.4]), label="negative x")]
