"""Exponentials, logarithms and powers of scipy.special: expm1, log1p, exp2, exp10, exprel, cbrt, powm1.

The maths
---------
* ``expm1' = e^z = y + 1``, ``log1p' = 1/(1 + z)`` (complex too), ``exp2' = y log 2``,
  ``exp10' = y log 10``, ``cbrt' = 1/(3 y^2)`` (``inf`` at 0, the limit).
* ``exprel(x) = (e^x - 1)/x``: ``exprel'(x) = (x e^x - e^x + 1)/x^2``, which cancels near 0.
  :func:`exprel_derivative` sums the Taylor series ``sum_n n x^(n-1) / (n+1)!`` for
  ``|x| < 1/10`` (12 terms, below 1e-17), ``(e^x (x - 1) + 1)/x^2`` for ``x <= -1/2``
  (no cancellation as ``e^x`` vanishes) and ``y (1 - 1/x) + 1/x`` (from ``e^x = x y + 1``)
  elsewhere (no overflow before ``y`` does); at ``|x| = 1/10`` that form cancels by a
  factor 20 (measured against mpmath: 2e-15 relatively at worst on [-1, 1]).
  The Box-Cox rules reuse it: ``d/dlambda (x^lambda - 1)/lambda = log(x)^2 exprel'(lambda log x)``.
* ``powm1(x, y) = x^y - 1``: ``d/dx = y x^(y-1)``, ``d/dy = x^y log x`` (0 at ``x = 0``,
  ``y > 0``: ``0^y`` is 0 near such ``y``).

Examples
--------
>>> import scipy.special as sc
>>> import chainrules
>>> from chainrules import frule
>>> float(frule((None, 1.0), sc.exprel, 1e-9)[1])  # 1/2 + x/3 + ...
0.500000000333333
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import scipy.special as sc

from chainrules.rulesets.special._precision import blockwise, upcast
from chainrules_core import Sample, sample_inputs, scalar_rule

__all__ = ["exprel_derivative"]

_SERIES = tuple(n / math.factorial(n + 1) for n in range(1, 13))  # coefficients of x^(n-1)
_SERIES_BELOW = 0.1  # the closed forms lose at most 20 ulps from here; the series' truncation is below 1e-17


def exprel_derivative(x: Any, y: Any = None) -> np.ndarray:
    """``d/dx (e^x - 1)/x`` without cancellation near 0 and without overflow before ``exprel`` overflows.

    Examples
    --------
    >>> from chainrules.rulesets.special.exponential import exprel_derivative
    >>> float(exprel_derivative(0.0)), float(exprel_derivative(1.0))  # 1/2; (e - e + 1)/1 = 1
    (0.5, 1.0)
    """
    x = np.asarray(upcast(x), dtype=np.float64)
    y = sc.exprel(x) if y is None else upcast(y)
    return blockwise(_exprel_derivative, x, np.asarray(y, dtype=np.float64))


def _exprel_derivative(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        out = np.asarray(y * (1 - 1 / x) + 1 / x, dtype=np.float64)
        negative = np.flatnonzero(x <= -0.5)
        if negative.size:
            xn = x.flat[negative]
            out.flat[negative] = (np.exp(xn) * (xn - 1) + 1) / (xn * xn)
        small = np.flatnonzero(np.abs(x) < _SERIES_BELOW)
        if small.size:
            xs = x.flat[small]
            total = np.zeros_like(xs)
            for c in reversed(_SERIES):
                total = total * xs + c
            out.flat[small] = total
    return out


def _expm1(z: Any, y: Any) -> Any:
    return upcast(y) + 1


def _log1p(z: Any) -> Any:
    return 1 / (1 + upcast(z))


def _exp2(x: Any, y: Any) -> Any:
    return upcast(y) * math.log(2.0)


def _exp10(x: Any, y: Any) -> Any:
    return upcast(y) * math.log(10.0)


def _exprel(x: Any, y: Any) -> Any:
    return exprel_derivative(x, y)[()]


def _cbrt(x: Any, y: Any) -> Any:
    y = upcast(y)
    with np.errstate(divide="ignore"):
        return 1 / (3 * y * y)


def _powm1_x(x: Any, y: Any) -> Any:
    x, y = upcast(x), upcast(y)
    with np.errstate(divide="ignore", invalid="ignore"):
        return y * np.power(x, y - 1)


def _powm1_y(x: Any, y: Any, out: Any) -> Any:
    x, y, out = upcast(x), upcast(y), upcast(out)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where((x == 0) & (y > 0), 0.0, (out + 1) * np.log(x))[()]


scalar_rule(sc.expm1, _expm1)
scalar_rule(sc.log1p, _log1p)
scalar_rule(sc.exp2, _exp2)
scalar_rule(sc.exp10, _exp10)
scalar_rule(sc.exprel, _exprel)
scalar_rule(sc.cbrt, _cbrt)
scalar_rule(sc.powm1, _powm1_x, _powm1_y)


@sample_inputs(sc.expm1, sc.log1p)
def _expm1_samples() -> Any:
    yield Sample(0.3, label="scalar")
    yield Sample(np.array([-0.9, -1e-8, 0.0, 1e-10, 0.5, 20.0]), label="near 0, moderate, large")
    yield Sample(np.array([-0.5, 0.0, 0.5], dtype=np.float32), label="float32")
    yield Sample(np.array([0.3 + 0.4j, -0.2 - 0.1j]), label="complex")


@sample_inputs(sc.exp2, sc.exp10)
def _exp2_samples() -> Any:
    yield Sample(0.3, label="scalar")
    yield Sample(np.array([-30.0, -1.0, 0.0, 2.5, 100.0]), label="both signs")
    yield Sample(np.array([-1.0, 0.0, 2.5], dtype=np.float32), label="float32")


@sample_inputs(sc.exprel)
def _exprel_samples() -> Any:
    yield Sample(0.3, label="scalar")
    yield Sample(np.array([-800.0, -30.0, -0.6, -0.4, -1e-9, 0.0, 1e-9, 0.4, 0.6, 30.0, 700.0]),
                 label="both sides of the series (|x| < 1/2), large negative and positive")
    yield Sample(np.array([-30.0, -0.4, 0.0, 0.6, 30.0], dtype=np.float32), label="float32")


@sample_inputs(sc.cbrt)
def _cbrt_samples() -> Any:
    yield Sample(0.3, label="scalar")
    yield Sample(np.array([-27.0, -0.5, 0.05, 8.0, 300.0]), label="both signs, near 0, large")
    yield Sample(np.array([-27.0, -0.5, 8.0], dtype=np.float32), label="float32")


@sample_inputs(sc.powm1)
def _powm1_samples() -> Any:
    yield Sample(1.5, 0.3, label="scalars")
    yield Sample(np.array([0.5, 1.0, 1.0 + 1e-9, 3.0, 20.0]), np.array([2.5, 1e-8, 3.0, -1.5, 0.01]),
                 label="near x = 1, near y = 0, negative y")
    yield Sample(np.array([0.5, 3.0], dtype=np.float32), np.array([2.5, -1.5], dtype=np.float32), label="float32")
