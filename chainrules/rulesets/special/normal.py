"""The normal distribution: ndtr, log_ndtr, ndtri, ndtri_exp; nrdtrimn and nrdtrisd (its mean and standard deviation
from a quantile).

The maths
---------
``Phi(x) = erfc(-x/sqrt 2) / 2`` and ``phi(x) = e^(-x^2/2) / sqrt(2 pi)`` (DLMF 7.18, 7.2.2):

* ``ndtr' = phi`` (complex ``z`` too);
* ``log_ndtr' = phi / Phi``, computed as ``sqrt(2/pi) / erfcx(-x/sqrt 2)`` (``Phi`` written
  as ``e^(-x^2/2) erfcx(-x/sqrt 2) / 2``): the Gaussian factors cancel analytically, so
  the ratio is exact in the far left tail where ``phi`` and ``Phi`` both underflow
  (``log_ndtr'(-1e5) = 1e5`` to rounding), and it is 0 where ``phi`` underflows on the
  right. The identity is analytic, so it also serves complex arguments;
* ``ndtri' = 1 / phi(x) = sqrt(2 pi) e^(x^2/2)`` at the output ``x`` (the inverse function);
* ``ndtri_exp(y)`` is the ``x`` with ``log Phi(x) = y``: ``dx/dy = Phi/phi =
  sqrt(pi/2) erfcx(-x/sqrt 2)``, again without underflow for ``y -> -inf``.
* ``nrdtrimn(p, std, x) = x - std z`` and ``nrdtrisd(mn, p, x) = (x - mn) / z`` with
  ``z = ndtri(p)`` (``Phi((x - mn)/std) = p``): ``dz/dp = sqrt(2 pi) e^(z^2/2)``, the rest
  is the quotient rule.

Examples
--------
>>> import scipy.special as sc
>>> import chainrules
>>> from chainrules import rrule
>>> y, pullback = rrule(sc.log_ndtr, -1e5)  # phi and Phi underflow; their ratio ~ -x
>>> float(pullback(1.0)[1])
100000.00001
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import scipy.special as sc

from chainrules.rulesets.special._precision import upcast
from chainrules_core import Sample, sample_inputs, scalar_rule

__all__: list[str] = []

_SQRT_HALF = math.sqrt(0.5)
_SQRT_2_OVER_PI = math.sqrt(2 / math.pi)
_SQRT_2PI = math.sqrt(2 * math.pi)



def _ndtr(x: Any) -> Any:
    x = upcast(x)
    return np.exp(-0.5 * x * x) / _SQRT_2PI


def _log_ndtr(x: Any) -> Any:
    x = upcast(x)
    with np.errstate(over="ignore"):
        return _SQRT_2_OVER_PI / sc.erfcx(-x * _SQRT_HALF)


def _ndtri(p: Any, x: Any) -> Any:
    x = upcast(x)
    with np.errstate(over="ignore"):
        return _SQRT_2PI * np.exp(0.5 * x * x)


def _ndtri_exp(y: Any, x: Any) -> Any:
    x = upcast(x)
    with np.errstate(over="ignore"):
        return sc.erfcx(-x * _SQRT_HALF) / _SQRT_2_OVER_PI


def _nrdtrimn_p(p: Any, std: Any, x: Any) -> Any:  # mn = x - std ndtri(p)
    z = upcast(sc.ndtri(p))
    with np.errstate(over="ignore"):
        return -upcast(std) * _SQRT_2PI * np.exp(0.5 * z * z)


def _nrdtrimn_std(p: Any, std: Any, x: Any) -> Any:
    return -upcast(sc.ndtri(p))


def _nrdtrisd_mn(mn: Any, p: Any, x: Any) -> Any:  # std = (x - mn) / ndtri(p)
    with np.errstate(divide="ignore"):
        return -1 / upcast(sc.ndtri(p))


def _nrdtrisd_p(mn: Any, p: Any, x: Any, std: Any) -> Any:
    z = upcast(sc.ndtri(p))
    with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
        return -upcast(std) / z * _SQRT_2PI * np.exp(0.5 * z * z)


def _nrdtrisd_x(mn: Any, p: Any, x: Any) -> Any:
    with np.errstate(divide="ignore"):
        return 1 / upcast(sc.ndtri(p))


scalar_rule(sc.ndtr, _ndtr)
scalar_rule(sc.log_ndtr, _log_ndtr)
scalar_rule(sc.ndtri, _ndtri)
scalar_rule(sc.ndtri_exp, _ndtri_exp)
scalar_rule(sc.nrdtrimn, _nrdtrimn_p, _nrdtrimn_std, 1)
scalar_rule(sc.nrdtrisd, _nrdtrisd_mn, _nrdtrisd_p, _nrdtrisd_x)


@sample_inputs(sc.ndtr)
def _ndtr_samples() -> Any:
    yield Sample(0.7, label="scalar")
    yield Sample(np.array([-30.0, -3.0, 0.0, 1.5, 8.0]), label="tails and center")
    yield Sample(np.array([-3.0, 0.0, 1.5], dtype=np.float32), label="float32")
    yield Sample(np.array([0.5 + 0.5j, -2.0 + 1j]), label="complex")


@sample_inputs(sc.log_ndtr)
def _log_ndtr_samples() -> Any:
    yield Sample(0.7, label="scalar")
    yield Sample(np.array([-1e3, -40.0, -3.0, 0.0, 1.5, 8.0]), label="far left tail (underflow), center, right")
    yield Sample(np.array([-40.0, -3.0, 0.0, 1.5], dtype=np.float32), label="float32")
    yield Sample(np.array([0.5 + 0.5j, -2.0 + 1j, -10.0 - 2j]), label="complex")


@sample_inputs(sc.ndtri)
def _ndtri_samples() -> Any:
    yield Sample(0.3, label="scalar")
    yield Sample(np.array([1e-3, 0.3, 0.5, 0.999]), label="tails and center")
    yield Sample(np.array([1e-6, 0.3, 0.5, 0.99], dtype=np.float32), label="float32", rtol=1e-3)


@sample_inputs(sc.ndtri_exp)
def _ndtri_exp_samples() -> Any:
    yield Sample(-0.7, label="scalar")
    yield Sample(np.array([-1e4, -40.0, -2.0, -0.69, -1e-3, -1e-12]), label="far left, center, near 0")
    yield Sample(np.array([-40.0, -2.0, -1e-3], dtype=np.float32), label="float32", rtol=1e-3)


@sample_inputs(sc.nrdtrimn)
def _nrdtrimn_samples() -> Any:
    yield Sample(0.3, 2.0, 1.0, label="scalars")
    yield Sample(np.array([0.01, 0.3, 0.5, 0.97]), np.array([2.0, 0.5, 1.0, 3.0]), np.array([1.0, -2.0, 0.0, 4.0]),
                 label="tails and center")


@sample_inputs(sc.nrdtrisd)
def _nrdtrisd_samples() -> Any:
    yield Sample(0.5, 0.3, 1.0, label="scalars")
    yield Sample(np.array([0.5, -2.0, 1.0]), np.array([0.01, 0.3, 0.97]), np.array([-1.0, -2.5, 4.0]),
                 label="tails")
