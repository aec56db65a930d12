"""Information-theory and robust-loss functions: xlogy, xlog1py, entr, rel_entr, kl_div, huber, pseudo_huber.

The maths
---------
* ``xlogy(x, y) = x log y``: ``d/dx = log y``, ``d/dy = x/y``; SciPy defines
  ``xlogy(0, y) = 0`` for every ``y``, so ``d/dy = 0`` where ``x = 0`` (also at ``y = 0``).
  ``xlog1py(x, y) = x log1p(y)`` likewise (``d/dy = x/(1 + y)``). Complex arguments:
  holomorphic.
* ``entr(x) = -x log x``: ``-log x - 1`` (``+inf`` at 0, the limit from the right).
* ``rel_entr(x, y) = x log(x/y)``: ``d/dx = log(x/y) + 1``, ``d/dy = -x/y``;
  ``kl_div(x, y) = x log(x/y) - x + y``: ``d/dx = log(x/y)``, ``d/dy = 1 - x/y``. At
  ``x = 0`` the ``x`` partial is ``-inf`` (the limit) and ``d/dy`` is ``0`` resp. ``1``.
* ``huber(delta, r)``: ``r^2/2`` for ``|r| <= delta``, else ``delta (|r| - delta/2)``:
  ``d/dr = r`` or ``delta sign(r)``; ``d/ddelta = 0`` or ``|r| - delta``.
* ``pseudo_huber(delta, r) = delta^2 (s - 1)``, ``s = sqrt(1 + (r/delta)^2)``:
  ``d/dr = r/s``, ``d/ddelta = delta (s - 1)^2 / s`` (with ``s - 1 = (r/delta)^2/(s + 1)``, no
  cancellation for small ``r``); at ``delta = 0`` (where SciPy returns 0) the right
  derivatives ``d/dr = 0`` and ``d/ddelta = |r|``.

Examples
--------
>>> import numpy as np, scipy.special as sc
>>> import chainrules
>>> from chainrules import rrule, unthunk
>>> y, pullback = rrule(sc.xlogy, np.array([0.0, 2.0]), np.array([0.0, 3.0]))
>>> [unthunk(c) for c in pullback(np.ones(2))[1:]]  # d/dy of xlogy(0, y) = 0 is 0, also at y = 0
[array([      -inf, 1.09861229]), array([0.        , 0.66666667])]
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.special as sc

from chainrules.rulesets.special._precision import upcast
from chainrules_core import Sample, sample_inputs, scalar_rule

__all__: list[str] = []


def _broadcast(*args: Any) -> list[np.ndarray]:
    return list(np.broadcast_arrays(*(upcast(a) for a in args)))


def _xlogy_x(x: Any, y: Any) -> Any:
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.log(upcast(y))


def _xlogy_y(x: Any, y: Any) -> Any:
    x, y = _broadcast(x, y)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(x == 0, 0.0, x / y)[()]


def _xlog1py_x(x: Any, y: Any) -> Any:
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.log1p(upcast(y))


def _xlog1py_y(x: Any, y: Any) -> Any:
    x, y = _broadcast(x, y)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(x == 0, 0.0, x / (1 + y))[()]


def _entr(x: Any) -> Any:
    with np.errstate(divide="ignore", invalid="ignore"):
        return -np.log(upcast(x)) - 1


def _rel_entr_x(x: Any, y: Any) -> Any:
    x, y = _broadcast(x, y)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.log(x / y) + 1


def _rel_entr_y(x: Any, y: Any) -> Any:
    x, y = _broadcast(x, y)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(x == 0, 0.0, -x / y)[()]


def _kl_div_x(x: Any, y: Any) -> Any:
    x, y = _broadcast(x, y)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.log(x / y)


def _kl_div_y(x: Any, y: Any) -> Any:
    x, y = _broadcast(x, y)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(x == 0, 1.0, 1 - x / y)[()]


def _huber_delta(delta: Any, r: Any) -> Any:
    delta, r = _broadcast(delta, r)
    return np.where(np.abs(r) <= delta, 0.0, np.abs(r) - delta)[()]


def _huber_r(delta: Any, r: Any) -> Any:
    delta, r = _broadcast(delta, r)
    return np.where(np.abs(r) <= delta, r, delta * np.sign(r))[()]


def _pseudo_huber_shared(delta: Any, r: Any, y: Any) -> Any:
    delta, r = _broadcast(delta, r)
    with np.errstate(divide="ignore", invalid="ignore"):
        q = (r / delta) ** 2
        s = np.sqrt(1 + q)
        return delta, r, s, q / (s + 1)


def _pseudo_huber_delta(delta: Any, r: Any, y: Any, shared: Any) -> Any:
    d, rr, s, s_minus_1 = shared
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(d == 0, np.abs(rr), d * s_minus_1 * s_minus_1 / s)[()]


def _pseudo_huber_r(delta: Any, r: Any, y: Any, shared: Any) -> Any:
    d, rr, s, _ = shared
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(d == 0, 0.0, rr / s)[()]


scalar_rule(sc.xlogy, _xlogy_x, _xlogy_y)
scalar_rule(sc.xlog1py, _xlog1py_x, _xlog1py_y)
scalar_rule(sc.entr, _entr)
scalar_rule(sc.rel_entr, _rel_entr_x, _rel_entr_y)
scalar_rule(sc.kl_div, _kl_div_x, _kl_div_y)
scalar_rule(sc.huber, _huber_delta, _huber_r)
scalar_rule(sc.pseudo_huber, _pseudo_huber_delta, _pseudo_huber_r, shared=_pseudo_huber_shared)


@sample_inputs(sc.xlogy, sc.xlog1py)
def _xlogy_samples() -> Any:
    yield Sample(0.7, 2.5, label="scalars")
    yield Sample(np.array([0.7, -2.0, 3.0, 1e-8]), np.array([2.5, 0.4, 1e-6, 30.0]), label="both signs of x, y small")
    yield Sample(np.array([0.7, -2.0], dtype=np.float32), np.array([2.5, 0.4], dtype=np.float32), label="float32")
    yield Sample(np.array([0.7 + 0.2j, -2.0 + 1j]), np.array([2.5 - 0.5j, 0.4 + 0.3j]), label="complex")


@sample_inputs(sc.entr)
def _entr_samples() -> Any:
    yield Sample(0.3, label="scalar")
    yield Sample(np.array([1e-4, 0.3, 1.0, 50.0]), label="near 0, 1/e, large")
    yield Sample(np.array([0.3, 1.0], dtype=np.float32), label="float32")


@sample_inputs(sc.rel_entr, sc.kl_div)
def _rel_entr_samples() -> Any:
    yield Sample(0.3, 0.6, label="scalars")
    yield Sample(np.array([1e-4, 0.3, 2.0, 5.0]), np.array([0.5, 0.3, 1e-3, 40.0]), label="small, equal, far apart")
    yield Sample(np.array([0.3, 2.0], dtype=np.float32), np.array([0.6, 1e-3], dtype=np.float32), label="float32")


@sample_inputs(sc.huber, sc.pseudo_huber)
def _huber_samples() -> Any:
    yield Sample(1.0, 0.4, label="scalars")
    yield Sample(np.array([1.0, 1.0, 0.5, 2.0, 1e-3]), np.array([0.4, -3.0, 0.7, -1e-4, 5.0]),
                 label="quadratic and linear zones, both signs")
    yield Sample(np.float32(1.0), np.array([0.4, -3.0], dtype=np.float32), label="float32")
