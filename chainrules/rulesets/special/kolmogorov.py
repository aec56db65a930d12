"""Kolmogorov-Smirnov distributions: kolmogorov, kolmogi, smirnov, smirnovi; and Tukey's lambda: tklmbda.

The maths
---------
* ``kolmogorov(y)`` (the survival function of the limiting Kolmogorov distribution) and
  ``smirnov(n, d)`` (the exact one-sided survival function) are differentiated in ``y``
  and ``d`` by SciPy's own derivatives, the ufuncs ``scipy.special._ufuncs._kolmogp`` and
  ``_smirnovp`` that ``scipy.stats.kstwobign`` and ``ksone`` use for their densities
  (Simard & L'Ecuyer 2011; the exact sum of Birnbaum & Tingey 1951 differentiated term by
  term for ``smirnovp``). The inverses ``kolmogi(p)`` and ``smirnovi(n, p)`` have
  ``1 / kolmogp(y)`` and ``1 / smirnovp(n, d)`` at their output. ``n`` is a sample size:
  an integer gets ``NoTangent()``, a float is truncated by SciPy, so the functions are
  piecewise constant in it (0, the right derivative at the integers).
* Tukey's lambda distribution is defined by its quantile function
  ``Q(p) = (p^lambda - (1-p)^lambda) / lambda = boxcox(p, lambda) - boxcox(1-p, lambda)``;
  ``tklmbda(x, lambda)`` is its cdf ``p = Q^-1(x)``. By the implicit function theorem
  ``dp/dx = 1 / Q'(p) = 1 / (p^(lambda-1) + (1-p)^(lambda-1))`` and
  ``dp/dlambda = -(dQ/dlambda) / Q'(p)``, with
  ``dQ/dlambda = log(p)^2 exprel'(lambda log p) - log(1-p)^2 exprel'(lambda log(1-p))`` (the
  Box-Cox derivative, no cancellation near ``lambda = 0``). ``1 - p`` is evaluated as
  ``tklmbda(-x, lambda)`` (the distribution is symmetric), so nothing is lost to rounding
  in the upper tail. Outside the support (``|x| >= 1/lambda`` for ``lambda > 0``) the cdf is
  constant and the derivatives are 0. Note that SciPy returns the logistic cdf (the
  ``lambda = 0`` value) for every ``|lambda| < 1e-5``, so its ``tklmbda`` is flat in ``lambda``
  there to about 1e-6; the rule gives the derivative of the distribution, not of that step.
  Near the edge of a bounded support SciPy's cdf has an absolute, not a relative, accuracy
  (relative error 3e-11 at ``x = 5``, 3e-10 at ``x = 6`` for ``lambda = 0.14``, whose support
  ends at 7.14), and the derivatives, evaluated at SciPy's ``p``, inherit it.

Examples
--------
>>> import scipy.special as sc
>>> import chainrules
>>> from chainrules import rrule, unthunk
>>> y, pullback = rrule(sc.tklmbda, 0.5, 0.0)  # lambda = 0: the logistic distribution
>>> round(float(unthunk(pullback(1.0)[1])), 12)  # its density sigma(x) sigma(-x)
0.235003712202
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.special as sc

from chainrules.rulesets.special._precision import upcast
from chainrules.rulesets.special.exponential import exprel_derivative
from chainrules_core import Sample, not_implemented, sample_inputs, scalar_rule
from chainrules_core.scalar_rules import ZERO

__all__: list[str] = []

_KOLMOGP = getattr(sc._ufuncs, "_kolmogp", None)
_SMIRNOVP = getattr(sc._ufuncs, "_smirnovp", None)
_MISSING = ("{name}: this SciPy has no scipy.special._ufuncs.{ufunc} (its own derivative of the function, present "
            "from SciPy 1.1); no derivative is given without it")


def _kolmogorov_y(y: Any) -> Any:
    if _KOLMOGP is None:
        return not_implemented(_MISSING.format(name="kolmogorov", ufunc="_kolmogp"))
    return _KOLMOGP(upcast(y))


def _kolmogi_p(p: Any, y: Any) -> Any:
    if _KOLMOGP is None:
        return not_implemented(_MISSING.format(name="kolmogi", ufunc="_kolmogp"))
    with np.errstate(divide="ignore"):
        return 1 / _KOLMOGP(upcast(y))


def _smirnov_d(n: Any, d: Any) -> Any:
    if _SMIRNOVP is None:
        return not_implemented(_MISSING.format(name="smirnov", ufunc="_smirnovp"))
    return _SMIRNOVP(np.asarray(n), upcast(d))


def _smirnovi_p(n: Any, p: Any, d: Any) -> Any:
    if _SMIRNOVP is None:
        return not_implemented(_MISSING.format(name="smirnovi", ufunc="_smirnovp"))
    with np.errstate(divide="ignore"):
        return 1 / _SMIRNOVP(np.asarray(n), upcast(d))


scalar_rule(sc.kolmogorov, _kolmogorov_y)
scalar_rule(sc.kolmogi, _kolmogi_p)
scalar_rule(sc.smirnov, ZERO, _smirnov_d)
scalar_rule(sc.smirnovi, ZERO, _smirnovi_p)


# ---- Tukey lambda -------------------------------------------------------------------------------------------
def _tklmbda_shared(x: Any, lmbda: Any, p: Any) -> Any:
    x, lmbda, p = (np.array(v, dtype=np.float64) for v in np.broadcast_arrays(upcast(x), upcast(lmbda), upcast(p)))
    q = np.asarray(sc.tklmbda(-x, lmbda), dtype=np.float64)  # 1 - p without rounding
    inside = (p > 0) & (q > 0)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        log_p, log_q = np.log(p), np.log(q)
        slope = np.exp((lmbda - 1) * log_p) + np.exp((lmbda - 1) * log_q)  # Q'(p)
        dq_dlambda = log_p * log_p * exprel_derivative(lmbda * log_p) - log_q * log_q * exprel_derivative(lmbda * log_q)
        dx = np.where(inside, 1 / slope, 0.0)
        dl = np.where(inside, -dq_dlambda / slope, 0.0)
    return dx, dl


def _tklmbda_x(x: Any, lmbda: Any, p: Any, shared: Any) -> Any:
    return shared[0][()]


def _tklmbda_lambda(x: Any, lmbda: Any, p: Any, shared: Any) -> Any:
    return shared[1][()]


scalar_rule(sc.tklmbda, _tklmbda_x, _tklmbda_lambda, shared=_tklmbda_shared)


# ---- samples ------------------------------------------------------------------------------------------------
@sample_inputs(sc.kolmogorov)
def _kolmogorov_samples() -> Any:
    yield Sample(0.8, label="scalar")
    yield Sample(np.array([0.3, 0.8, 1.2, 2.5]), label="both series regimes")
    yield Sample(np.array([0.5, 1.2], dtype=np.float32), label="float32")


@sample_inputs(sc.kolmogi)
def _kolmogi_samples() -> Any:
    yield Sample(0.3, label="scalar")
    yield Sample(np.array([0.001, 0.3, 0.9, 0.999]), label="tails and center")


@sample_inputs(sc.smirnov)
def _smirnov_samples() -> Any:
    yield Sample(5, 0.33, label="scalar")
    yield Sample(np.array([1, 5, 20, 2000]), np.array([0.4, 0.33, 0.13, 0.0203]),
                 label="small to large n (d away from the kinks at 1 - j/n)")
    yield Sample(5.5, np.array([0.23, 0.47]), label="float n (truncated)")


@sample_inputs(sc.smirnovi)
def _smirnovi_samples() -> Any:
    yield Sample(5, 0.3, label="scalar")
    yield Sample(np.array([1, 5, 20, 2000]), np.array([0.4, 0.3, 0.8, 0.5]), label="small to large n")


@sample_inputs(sc.tklmbda)
def _tklmbda_samples() -> Any:
    yield Sample(0.5, 0.3, label="scalars")
    # (SciPy returns the logistic cdf exactly for |lambda| < 1e-5 -- at x = 0.5 and lambda = 1e-5 that is off by
    # 1e-6 --, a step small finite differences see; lambda = 0 is checked in the tests with wider steps)
    yield Sample(np.array([0.5, -2.0, 3.0, 0.2, 7.0, 0.1]), np.array([0.02, -0.03, -0.5, 2.0, 0.14, 0.9]),
                 label="near the logistic, negative lambda, bounded support, near its edge")
    yield Sample(np.array([5.0, -5.0]), np.array([0.3, 0.3]), label="outside the support: zero derivative")
    yield Sample(np.float32(0.5), np.array([0.3, -0.5], dtype=np.float32), label="float32")
