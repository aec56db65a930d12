"""Struve functions: ``struve`` (``H_v``), ``modstruve`` (``L_v``) in ``x`` and the real order; their integrals.

**The argument** (DLMF 11.4.27, 11.4.28, from the recurrences 11.4.23-26)::

    H'_v(x) = H_{v-1}(x) - (v/x) H_v(x)        L'_v(x) = L_{v-1}(x) - (v/x) L_v(x)

and at ``x = 0`` the symmetric forms ``H'_v = (H_{v-1} - H_{v+1} + (x/2)^v / (sqrt(pi)
Gamma(v+3/2))) / 2`` (``L_{v-1} + L_{v+1}`` for ``L``).

**The order** (real ``x > 0``) by :mod:`chainrules.rulesets.special._struve_order`: the
ascending series where it does not cancel, else ``H_v = Y_v + c int_0^inf ...`` (DLMF
11.5.2) or, for orders above ``x``, ``c int_0^1 (1-t^2)^(v-1/2) sin(x t) dt`` (11.5.1), and
``L_v = I_v - c int_0^1 ...`` (11.5.4, ``v > -1/2``), differentiated under the integral
sign. Measured against mpmath (30 digits) on ``1e-6 <= x <= 300``, ``-3.3 <= v <= 200``:
relative error below ``2e-11``. Each point uses the first representation whose rounding
estimate is small enough; where none is (``L`` with ``v <= -1/2`` and ``x`` beyond about
``1500``) the order's cotangent is ``not_implemented``. At ``x = 0`` the derivative in the
order is ``0`` for ``v > -1``; for ``x < 0`` (where SciPy returns NaN for non-integer
orders) it is NaN.

**Integrals** of order 0 (real ``x``): ``itstruve0(x) = int_0^x H_0``, ``it2struve0(x) =
int_x^inf H_0(t)/t dt``, ``itmodstruve0(x) = int_0^x L_0``, with the derivatives ``H_0(x)``,
``-H_0(x)/x`` (``-2/pi`` at ``0``) and ``L_0(x)``, exact (SciPy's ``itstruve0`` loses digits
from about ``x = 15``, is accurate to about ``1e-5`` beyond ``x = 20`` and jumps there).

Examples
--------
>>> import scipy.special as sc
>>> import chainrules
>>> from chainrules import frule
>>> y, dy = frule((None, 1.0, 0.0), sc.struve, 0.5, 1.0)     # d/dv H_v(1) at v = 1/2
>>> round(float(dy), 8)
-0.39358744
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.special as sc

from chainrules.rulesets.special._struve_order import struve_order
from chainrules_core import Sample, not_implemented, sample_inputs, scalar_rule


def _order_partial(modified: bool) -> Any:
    name = "modstruve" if modified else "struve"

    def struve_order_partial(v: Any, x: Any) -> Any:
        d, available = struve_order(v, x, modified)
        if not np.all(available):
            return not_implemented(
                f"scipy.special.{name}: the derivative in the order at v <= -1/2 and x beyond about 1500 (where the "
                "ascending series needs too many terms and the integral representation does not hold); hold the order "
                "fixed there")
        return d[()]

    struve_order_partial.__name__ = f"{name}_order_partial"
    return struve_order_partial


def _argument_partial(f: Any, modified: bool) -> Any:
    def struve_x_partial(v: Any, x: Any, y: Any) -> Any:
        with np.errstate(divide="ignore", invalid="ignore"):
            d = f(v - 1, x) - np.divide(v, x) * y
            at_zero = np.asarray(x) == 0
            if np.any(at_zero):
                tail = np.power(np.divide(x, 2), v) * sc.rgamma(np.add(v, 1.5)) / np.sqrt(np.pi)
                symmetric = (f(v - 1, x) + (1 if modified else -1) * f(v + 1, x) + tail) / 2
                d = np.where(at_zero, symmetric, d)
        return d[()] if isinstance(d, np.ndarray) else d

    struve_x_partial.__name__ = f"{f.__name__}_x_partial"
    return struve_x_partial


scalar_rule(sc.struve, _order_partial(False), _argument_partial(sc.struve, False))
scalar_rule(sc.modstruve, _order_partial(True), _argument_partial(sc.modstruve, True))


def _h0(x: Any) -> Any:
    return sc.struve(0, x)


def _minus_h0_over_x(x: Any) -> Any:
    with np.errstate(divide="ignore", invalid="ignore"):
        q = -sc.struve(0, x) / x
    return np.where(np.asarray(x) == 0, -2 / np.pi, q)[()]


def _l0(x: Any) -> Any:
    return sc.modstruve(0, x)


scalar_rule(sc.itstruve0, _h0)
scalar_rule(sc.it2struve0, _minus_h0_over_x)
scalar_rule(sc.itmodstruve0, _l0)


@sample_inputs(sc.struve, sc.modstruve)
def _struve_samples(rng: np.random.Generator) -> list[Sample]:
    # one point per representation: the series, H through Y (L through I), H for orders above x,
    # and a negative order; then an integer order at negative x (order fixed: NaN beside it)
    return [Sample(1.5, 2.0, label="scalars"),
            Sample(np.array([0.5, -0.7, 2.0, 30.0, -2.3]), np.array([1.0, 3.0, 40.0, 20.0, 0.4]),
                   label="one point per regime of the order derivative"),
            Sample(np.array([0.5, 2.0], np.float32), np.array([1.0, 6.0], np.float32), label="float32"),
            Sample(np.array([[0.0], [1.5]]), np.array([0.8, 5.0]), label="broadcast")]


@sample_inputs(sc.itstruve0, sc.it2struve0, sc.itmodstruve0)
def _struve_integral_samples(rng: np.random.Generator) -> list[Sample]:
    # SciPy's itstruve0 (specfun ITSH0) switches to an expansion accurate to about 1e-5 beyond
    # x = 20, with a jump there, and loses digits from about 15: its finite differences are compared below 15
    return [Sample(1.5), Sample(np.array([0.2, 2.0, 9.0, 12.0])), Sample(np.array([0.5, 3.0], np.float32))]


@sample_inputs(sc.itstruve0, sc.itmodstruve0)
def _struve_integral_negative_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(np.array([-2.5, -0.3]), label="negative x")]
