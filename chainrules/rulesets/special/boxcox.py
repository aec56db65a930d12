"""Box-Cox transforms: boxcox, boxcox1p, inv_boxcox, inv_boxcox1p, in the data and in lambda.

The maths
---------
``boxcox(x, lmbda) = (x^lmbda - 1)/lmbda`` (``log x`` at ``lmbda = 0``). With ``L = log x``
and ``u = lmbda L`` it is ``L exprel(u)``, ``exprel(u) = (e^u - 1)/u``, so

* ``d/dx = x^(lmbda - 1)``,
* ``d/dlmbda = L^2 exprel'(u)``, with ``exprel'`` computed without the cancellation of
  ``(lmbda x^lmbda log x - x^lmbda + 1)/lmbda^2`` near ``lmbda = 0`` (where it is
  ``L^2/2 + lmbda L^3/3 + ...``; :func:`~chainrules.rulesets.special.exponential.exprel_derivative`).

``boxcox1p(x, lmbda) = boxcox(1 + x, lmbda)`` with ``L = log1p(x)``. The inverses
``inv_boxcox(y, lmbda)`` (the ``x`` with ``boxcox(x, lmbda) = y``) and ``inv_boxcox1p``
follow from the implicit function theorem at their output ``x``:
``dx/dy = x^(1 - lmbda)`` and ``dx/dlmbda = -L^2 exprel'(lmbda L) x^(1 - lmbda)`` (with
``1 + x`` in place of ``x`` for the ``1p`` variants).

Examples
--------
>>> import scipy.special as sc
>>> import chainrules
>>> from chainrules import rrule, unthunk
>>> y, pullback = rrule(sc.boxcox, 2.0, 0.0)  # at lmbda = 0: d/dlmbda = log(x)^2 / 2
>>> round(float(unthunk(pullback(1.0)[2])), 12)
0.240226506959
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.special as sc

from chainrules.rulesets.special._precision import blockwise
from chainrules.rulesets.special.exponential import exprel_derivative
from chainrules_core import Sample, sample_inputs, scalar_rule

__all__: list[str] = []


def _broadcast(*args: Any) -> list[np.ndarray]:
    return list(np.broadcast_arrays(*(np.asarray(a, dtype=np.float64) for a in args)))


def _lambda_partial(log_x: np.ndarray, lmbda: np.ndarray) -> np.ndarray:
    """``d/dlmbda (x^lmbda - 1)/lmbda`` at ``log x = log_x``."""
    return blockwise(_lambda_partial_block, log_x, lmbda)


def _lambda_partial_block(log_x: np.ndarray, lmbda: np.ndarray) -> np.ndarray:
    with np.errstate(invalid="ignore", over="ignore"):
        out = np.asarray(log_x * log_x * exprel_derivative(lmbda * log_x))
    bad = np.flatnonzero(np.isinf(log_x))
    if bad.size:
        out.flat[bad[lmbda.flat[bad] == 0]] = np.nan  # (log 0)^2 / 2: no finite limit
    return out


def _boxcox_x(x: Any, lmbda: Any, y: Any) -> Any:
    # x^(lmbda - 1) = (1 + lmbda y) / x from the output (x^lmbda = 1 + lmbda y): no pow
    x, lmbda, y = _broadcast(x, lmbda, y)
    with np.errstate(divide="ignore", invalid="ignore"):
        return ((1 + lmbda * y) / x)[()]


def _boxcox_lambda(x: Any, lmbda: Any) -> Any:
    x, lmbda = _broadcast(x, lmbda)
    with np.errstate(divide="ignore", invalid="ignore"):
        return _lambda_partial(np.log(x), lmbda)[()]


def _boxcox1p_x(x: Any, lmbda: Any) -> Any:
    x, lmbda = _broadcast(x, lmbda)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.exp((lmbda - 1) * np.log1p(x))[()]


def _boxcox1p_lambda(x: Any, lmbda: Any) -> Any:
    x, lmbda = _broadcast(x, lmbda)
    with np.errstate(divide="ignore", invalid="ignore"):
        return _lambda_partial(np.log1p(x), lmbda)[()]


def _inv_boxcox_y(y: Any, lmbda: Any, x: Any) -> Any:
    # x^(1 - lmbda) = x / (1 + lmbda y) (x^lmbda = 1 + lmbda y): no pow
    y, lmbda, x = _broadcast(y, lmbda, x)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        return (x / (1 + lmbda * y))[()]


def _inv_boxcox_lambda(y: Any, lmbda: Any, x: Any) -> Any:
    y, lmbda, x = _broadcast(y, lmbda, x)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        return (-_lambda_partial(np.log(x), lmbda) * x / (1 + lmbda * y))[()]


def _inv_boxcox1p_y(y: Any, lmbda: Any, x: Any) -> Any:
    y, lmbda, x = _broadcast(y, lmbda, x)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        return ((1 + x) / (1 + lmbda * y))[()]


def _inv_boxcox1p_lambda(y: Any, lmbda: Any, x: Any) -> Any:
    y, lmbda, x = _broadcast(y, lmbda, x)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        return (-_lambda_partial(np.log1p(x), lmbda) * (1 + x) / (1 + lmbda * y))[()]


scalar_rule(sc.boxcox, _boxcox_x, _boxcox_lambda)
scalar_rule(sc.boxcox1p, _boxcox1p_x, _boxcox1p_lambda)
scalar_rule(sc.inv_boxcox, _inv_boxcox_y, _inv_boxcox_lambda)
scalar_rule(sc.inv_boxcox1p, _inv_boxcox1p_y, _inv_boxcox1p_lambda)

_LAMBDA = np.array([0.0, 1e-9, -0.5, 0.5, 2.0, -3.0])


@sample_inputs(sc.boxcox)
def _boxcox_samples() -> Any:
    yield Sample(2.0, 0.3, label="scalars")
    yield Sample(np.array([2.0, 0.3, 5.0, 1.0, 40.0, 0.7]), _LAMBDA, label="lambda = 0, near 0, both signs")
    yield Sample(np.array([2.0, 5.0], dtype=np.float32), np.array([0.0, 0.5], dtype=np.float32), label="float32")


@sample_inputs(sc.boxcox1p)
def _boxcox1p_samples() -> Any:
    yield Sample(1.0, 0.3, label="scalars")
    yield Sample(np.array([1.0, -0.7, 4.0, 1e-8, 39.0, -0.3]), _LAMBDA, label="lambda = 0, near 0, x near 0")
    yield Sample(np.array([1.0, 4.0], dtype=np.float32), np.array([0.0, 0.5], dtype=np.float32), label="float32")


@sample_inputs(sc.inv_boxcox)
def _inv_boxcox_samples() -> Any:
    yield Sample(0.7, 0.3, label="scalars")
    yield Sample(np.array([0.7, -1.2, 1.5, 0.0, 3.0, -0.2]), _LAMBDA, label="lambda = 0, near 0, both signs")
    yield Sample(np.array([0.7, 1.5], dtype=np.float32), np.array([0.0, 0.5], dtype=np.float32), label="float32")


@sample_inputs(sc.inv_boxcox1p)
def _inv_boxcox1p_samples() -> Any:
    yield Sample(0.7, 0.3, label="scalars")
    yield Sample(np.array([0.7, -1.2, 1.5, 1e-8, 3.0, -0.2]), _LAMBDA, label="lambda = 0, near 0, both signs")
    yield Sample(np.array([0.7, 1.5], dtype=np.float32), np.array([0.0, 0.5], dtype=np.float32), label="float32")
