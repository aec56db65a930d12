"""The logistic function and its relatives: expit, logit, log_expit, softplus.

The maths
---------
``sigma(x) = 1/(1 + e^-x)``. ``expit' = sigma(x) sigma(-x)`` (not ``y (1 - y)``, which is 0
from ``x = 37`` where the true value is ``e^-x``); ``log_expit' = sigma(-x)``;
``softplus(x) = log(1 + e^x)`` has ``softplus' = sigma(x)``; ``logit(p) = log(p/(1-p))`` has
``logit' = 1/(p (1 - p))``.

Examples
--------
>>> import scipy.special as sc
>>> import chainrules
>>> from chainrules import frule
>>> float(frule((None, 1.0), sc.expit, 40.0)[1])  # e^-40 (1 - e^-40)
4.248354255291589e-18
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.special as sc

from chainrules.rulesets.special._precision import upcast
from chainrules_core import Sample, sample_inputs, scalar_rule

__all__: list[str] = []


def _expit(x: Any, y: Any) -> Any:
    return upcast(y) * sc.expit(-upcast(x))


def _log_expit(x: Any) -> Any:
    return sc.expit(-upcast(x))


def _softplus(x: Any) -> Any:
    return sc.expit(upcast(x))


def _logit(p: Any) -> Any:
    p = upcast(p)
    with np.errstate(divide="ignore"):
        return 1 / (p * (1 - p))


scalar_rule(sc.expit, _expit)
scalar_rule(sc.log_expit, _log_expit)
scalar_rule(sc.softplus, _softplus)
scalar_rule(sc.logit, _logit)

_X = np.array([-50.0, -3.0, 0.0, 0.5, 40.0])


@sample_inputs(sc.expit, sc.log_expit, sc.softplus)
def _expit_samples() -> Any:
    yield Sample(0.3, label="scalar")
    yield Sample(_X, label="both tails, center")
    yield Sample(_X[1:4].astype(np.float32), label="float32")


@sample_inputs(sc.logit)
def _logit_samples() -> Any:
    yield Sample(0.3, label="scalar")
    yield Sample(np.array([1e-4, 0.2, 0.5, 0.9, 1 - 1e-4]), label="near 0, center, near 1")
    yield Sample(np.array([0.2, 0.5, 0.9], dtype=np.float32), label="float32")
