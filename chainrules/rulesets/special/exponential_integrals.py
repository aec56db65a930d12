"""Exponential, sine and cosine integrals and the dilogarithm: expi, exp1, expn, sici, shichi, spence.

The maths
---------
* ``Ei' = e^z / z``, ``E1' = -e^-z / z`` (DLMF 6.2.5, 6.2.1; complex too);
  ``E_n' = -E_(n-1)`` (DLMF 8.19.13) with ``E_0(x) = e^-x / x``, so ``E_1' = -e^-x/x`` and
  ``E_0' = -e^-x (x + 1)/x^2``. The order ``n`` is an integer (``NoTangent``); SciPy
  truncates a float ``n``, so the function is piecewise constant in it (0: the derivative
  away from the integers, the right derivative at them).
* ``Si' = sin z / z``, ``Ci' = cos z / z``, ``Shi' = sinh z / z``, ``Chi' = cosh z / z``
  (DLMF 6.2.9, 6.2.11, 6.2.15-16; ``Si'(0) = Shi'(0) = 1``, the limits).
* SciPy's ``spence(z) = int_1^z log t / (1 - t) dt`` (= ``Li2(1 - z)``, DLMF 25.12.1):
  ``spence' = log z / (1 - z)``, ``-1`` at ``z = 1`` (the limit).

Examples
--------
>>> import numpy as np, scipy.special as sc
>>> import chainrules
>>> from chainrules import rrule, unthunk
>>> (si, ci), pullback = rrule(sc.sici, np.array([0.0, 2.0]))
>>> from chainrules_core import Tangent, ZeroTangent
>>> unthunk(pullback(Tangent(tuple, np.ones(2), ZeroTangent()))[1])  # sin(x)/x, 1 at 0
array([1.        , 0.45464871])
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.special as sc

from chainrules.rulesets.special._precision import upcast
from chainrules_core import Sample, sample_inputs, scalar_rule
from chainrules_core.scalar_rules import ZERO

__all__: list[str] = []


def _expi(z: Any) -> Any:
    z = upcast(z)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        return np.exp(z) / z


def _exp1(z: Any) -> Any:
    z = upcast(z)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        return -np.exp(-z) / z


def _expn_x(n: Any, x: Any) -> Any:
    n, x = (np.array(v, dtype=np.float64) for v in np.broadcast_arrays(np.trunc(upcast(n)), upcast(x)))
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        out = np.asarray(-sc.expn(np.maximum(n - 1, 0), x))
        zero = n == 0
        if np.any(zero):  # d/dx e^-x / x
            xz = x[zero]
            out[zero] = -np.exp(-xz) * (xz + 1) / (xz * xz)
        out[n < 0] = np.nan
    return out[()]


def _ratio(f: Any, z: Any) -> Any:
    """``f(z) / z`` with its limit 1 at 0 (``f = sin`` or ``sinh``)."""
    z = upcast(z)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(z == 0, 1.0, f(z) / np.where(z == 0, 1.0, z))[()]


def _si(z: Any) -> Any:
    return _ratio(np.sin, z)


def _ci(z: Any) -> Any:
    z = upcast(z)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.cos(z) / z


def _shi(z: Any) -> Any:
    return _ratio(np.sinh, z)


def _chi(z: Any) -> Any:
    z = upcast(z)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        return np.cosh(z) / z


def _spence(z: Any) -> Any:
    z = upcast(z)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(z == 1, -1.0, np.log(z) / np.where(z == 1, 2.0, 1 - z))[()]


scalar_rule(sc.expi, _expi)
scalar_rule(sc.exp1, _exp1)
scalar_rule(sc.expn, ZERO, _expn_x)
scalar_rule(sc.sici, (_si,), (_ci,))
scalar_rule(sc.shichi, (_shi,), (_chi,))
scalar_rule(sc.spence, _spence)


@sample_inputs(sc.expi)
def _expi_samples() -> Any:
    yield Sample(0.7, label="scalar")
    yield Sample(np.array([-30.0, -1.0, -1e-3, 0.372507410781367, 2.0, 40.0]), label="both signs, near 0, its zero")
    yield Sample(np.array([-1.0, 2.0], dtype=np.float32), label="float32")
    yield Sample(np.array([0.5 + 0.5j, -2.0 + 1j, -3.0 - 0.1j]), label="complex, near the cut")


@sample_inputs(sc.exp1)
def _exp1_samples() -> Any:
    yield Sample(0.7, label="scalar")
    yield Sample(np.array([1e-3, 0.7, 5.0, 60.0]), label="near 0, large")
    yield Sample(np.array([0.7, 5.0], dtype=np.float32), label="float32")
    yield Sample(np.array([0.5 + 0.5j, -2.0 + 1j, -3.0 - 0.1j]), label="complex, near the cut")


@sample_inputs(sc.expn)
def _expn_samples() -> Any:
    yield Sample(2, 0.7, label="scalar")
    yield Sample(np.array([0, 1, 2, 5, 60]), np.array([0.4, 0.7, 3.0, 1e-3, 50.0]), label="orders 0 to 60")
    yield Sample(3, np.array([0.7, 5.0], dtype=np.float32), label="float32")
    yield Sample(2.5, np.array([0.7, 5.0]), label="float order (truncated)")


@sample_inputs(sc.sici, sc.shichi)
def _sici_samples() -> Any:
    yield Sample(0.7, label="scalar")
    yield Sample(np.array([-3.0, 0.05, 0.7, 30.0]), label="both signs, near 0, large")
    yield Sample(np.array([0.7, 3.0], dtype=np.float32), label="float32")
    yield Sample(np.array([0.5 + 0.5j, -2.0 + 1j]), label="complex")


@sample_inputs(sc.spence)
def _spence_samples() -> Any:
    yield Sample(0.7, label="scalar")
    yield Sample(np.array([1e-3, 0.5, 1.0, 1.5, 40.0]), label="near 0, 1 (the limit), large")
    yield Sample(np.array([0.5, 1.5], dtype=np.float32), label="float32")
    yield Sample(np.array([0.5 + 0.5j, -2.0 + 1j, -3.0 - 0.1j]), label="complex, near the cut")
