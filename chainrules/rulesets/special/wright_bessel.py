"""Wright's generalized Bessel function and its logarithm: wright_bessel, log_wright_bessel, in ``a``, ``b`` and ``x``.

The maths
---------
``Phi(a, b, x) = sum_k x^k / (k! Gamma(a k + b))`` (DLMF 10.46.1; SciPy's domain
``a, b, x >= 0``).

* In ``x``: differentiating the series term by term and shifting ``k``,
  ``dPhi/dx = Phi(a, a + b, x)`` (SciPy evaluates it); for the logarithm,
  ``exp(log_wright_bessel(a, a + b, x) - log_wright_bessel(a, b, x))``.
* In ``a`` and ``b`` there is no closed form: the series is differentiated term by term,
  ``dPhi/db = sum_k x^k/k! (1/Gamma)'(a k + b)`` and ``dPhi/da = sum_k k x^k/k! (1/Gamma)'(a k + b)``,
  ``(1/Gamma)' = -psi/Gamma`` (its value ``1`` at ``a k + b = 0``). The terms are formed
  in log space (``k log x - log k! - log Gamma(a k + b)``) and summed with a running
  maximum, so nothing overflows where ``Phi`` itself does not (and the derivatives of
  ``log Phi`` are ratios of the two scaled sums, finite where ``Phi`` overflows). The
  series stops past its largest term once a term, times its ``psi`` and ``k`` factors, is
  below ``e^-40`` of the sum. At ``a = 0`` the series is ``e^x / Gamma(b)``: closed forms.
  The sum needs about ``x^(1/(1+a))`` plus a few of its square roots terms; beyond
  :data:`MAX_TERMS` (``x`` above about ``1.5e4`` at ``a = 0``) the cotangents in ``a`` and
  ``b`` are ``not_implemented``.

Accuracy: the terms of the ``a`` and ``b`` sums change sign where ``psi(a k + b)`` does
(``a k + b`` near 1.46), so where ``dPhi/db`` crosses zero its relative error grows; the
absolute error stays at the level of rounding in the largest term (measured against
mpmath's sum of the same series at 30 digits, ``tests/.../test_wright_bessel.py``).

Examples
--------
>>> import scipy.special as sc
>>> import chainrules
>>> from chainrules import rrule, unthunk
>>> y, pullback = rrule(sc.wright_bessel, 0.5, 1.0, 2.0)
>>> [round(float(unthunk(c)), 10) for c in pullback(1.0)[1:]]  # mpmath: -5.69876427630, -1.47417101911, 5.55343082379
[-5.6987642763, -1.4741710191, 5.5534308238]
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.special as sc

from chainrules.rulesets.special._gamma_tools import rgamma_derivative
from chainrules.rulesets.special._precision import upcast
from chainrules_core import Sample, not_implemented, sample_inputs, scalar_rule
from chainrules_core.tangents.not_implemented import NotImplementedTangent

__all__ = ["MAX_TERMS", "wright_bessel_dab"]

MAX_TERMS = 20000
"""The most terms summed for the derivatives in ``a`` and ``b``."""

_NOT_CONVERGED = ("d/da, d/db of wright_bessel: the series did not converge in {terms} terms at a = {a!r}, "
                  "b = {b!r}, x = {x!r} (x beyond about 1.5e4 for a = 0, more for larger a)")
_CUTOFF = 40.0  # stop once the terms are below e^-40 of the sum


def _f64(*args: Any) -> list[np.ndarray]:
    return [np.array(v, dtype=np.float64) for v in np.broadcast_arrays(*(upcast(a) for a in args))]


def _series(a: np.ndarray, b: np.ndarray, x: np.ndarray) -> tuple[np.ndarray, ...]:
    """Scaled sums ``(shift, S, B, A)``: ``Phi = e^shift S``, ``dPhi/db = e^shift B``, ``dPhi/da = e^shift A``.

    1-D arrays with ``a > 0``, ``x > 0``; the last entry is the convergence mask.
    """
    size = a.size
    out = [np.full(size, np.nan) for _ in range(4)]
    done = np.zeros(size, dtype=bool)
    index = np.arange(size)
    shift = np.full(size, -np.inf)
    s, bsum, asum = np.zeros(size), np.zeros(size), np.zeros(size)
    log_x = np.log(x)
    aa, bb = a, b
    for k in range(MAX_TERMS):
        arg = aa * k + bb
        log_weight = k * log_x - sc.gammaln(k + 1.0)
        pole = arg == 0  # only at k = 0, b = 0: 1/Gamma vanishes, its derivative is 1
        with np.errstate(divide="ignore", invalid="ignore"):
            log_term = np.where(pole, -np.inf, log_weight - sc.gammaln(np.where(pole, 1.0, arg)))
            factor = np.where(pole, 0.0, -sc.psi(np.where(pole, 1.0, arg)))  # (1/Gamma)' * Gamma
            reference = np.where(pole, log_weight, log_term)  # the size of this term's derivative contribution
            new_shift = np.maximum(shift, reference)
            rescale = np.exp(shift - new_shift)
            rescale[np.isneginf(shift)] = 0.0
            value = np.exp(log_term - new_shift)
            derivative = np.where(pole, np.exp(log_weight - new_shift), value * factor)
        s = s * rescale + value
        bsum = bsum * rescale + derivative
        asum = asum * rescale + k * derivative
        shift = new_shift
        past_peak = (k > 0) & (reference < shift)
        small = reference + np.log(1 + np.abs(factor)) + np.log(k + 1.0) < shift - _CUTOFF
        finished = past_peak & small
        if np.any(finished):
            for target, v in zip(out, (shift, s, bsum, asum)):
                target[index[finished]] = v[finished]
            done[index[finished]] = True
            keep = ~finished
            index, aa, bb, log_x, shift, s, bsum, asum = (v[keep] for v in (index, aa, bb, log_x, shift, s, bsum,
                                                                             asum))
            if index.size == 0:
                break
    return out[0], out[1], out[2], out[3], done


def _partials(a: np.ndarray, b: np.ndarray, x: np.ndarray,
              log: bool) -> tuple[np.ndarray, np.ndarray] | NotImplementedTangent:
    """``(d/da, d/db)`` of ``Phi`` (``log=False``) or of ``log Phi``, for float64 arrays of one shape."""
    da = np.full(a.shape, np.nan)
    db = np.full(a.shape, np.nan)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        # a = 0: Phi = e^x / Gamma(b); x = 0: Phi = 1/Gamma(b)
        flat = (a == 0) & (b >= 0) & (x >= 0)
        if np.any(flat):  # d/da sum_k x^k/k! (1/Gamma)(a k + b) at a = 0: x e^x (1/Gamma)'(b)
            bf, xf = b[flat], x[flat]
            dr = rgamma_derivative(bf)
            if log:
                db[flat], da[flat] = -sc.psi(bf), xf * -sc.psi(bf)
            else:
                db[flat], da[flat] = np.exp(xf) * dr, xf * np.exp(xf) * dr
        origin = (x == 0) & (a > 0) & (b >= 0)
        if np.any(origin):
            bo = b[origin]
            db[origin] = -sc.psi(bo) if log else rgamma_derivative(bo)
            da[origin] = 0.0
        series = (a > 0) & (b >= 0) & (x > 0) & np.isfinite(x)
        if np.any(series):
            shift, s, bsum, asum, done = _series(a[series], b[series], x[series])
            if not np.all(done):
                bad = ~done
                return not_implemented(_NOT_CONVERGED.format(terms=MAX_TERMS, a=float(a[series][bad][0]),
                                                             b=float(b[series][bad][0]),
                                                             x=float(x[series][bad][0])))
            if log:
                db[series], da[series] = bsum / s, asum / s
            else:
                scale = np.exp(shift)
                db[series], da[series] = bsum * scale, asum * scale
    return da, db


def wright_bessel_dab(a: Any, b: Any, x: Any, log: bool = False) -> tuple[Any, Any] | NotImplementedTangent:
    """``(d/da, d/db)`` of ``wright_bessel(a, b, x)`` (or of its logarithm), float64 of the broadcast shape.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.special.wright_bessel import wright_bessel_dab
    >>> da, db = wright_bessel_dab(0.0, 1.0, 2.0)  # Phi(0, b, x) = e^x / Gamma(b), (1/Gamma)'(1) = Euler's gamma
    >>> euler = 0.5772156649015329
    >>> bool(np.isclose(da, 2.0 * np.exp(2.0) * euler)), bool(np.isclose(db, np.exp(2.0) * euler))
    (True, True)
    """
    a, b, x = _f64(a, b, x)
    result = _partials(a, b, x, log)
    if isinstance(result, NotImplementedTangent):
        return result
    return result[0][()], result[1][()]


def _wright_bessel_shared(a: Any, b: Any, x: Any, y: Any) -> Any:
    return wright_bessel_dab(a, b, x)


def _log_wright_bessel_shared(a: Any, b: Any, x: Any, y: Any) -> Any:
    return wright_bessel_dab(a, b, x, log=True)


def _pick(which: int) -> Any:
    def pick(a: Any, b: Any, x: Any, y: Any, shared: Any) -> Any:
        return shared if isinstance(shared, NotImplementedTangent) else shared[which]

    pick.__name__ = f"wright_bessel_d{'ab'[which]}"
    return pick


def _wright_bessel_x(a: Any, b: Any, x: Any, y: Any, shared: Any) -> Any:
    a, b, x = _f64(a, b, x)
    return sc.wright_bessel(a, a + b, x)


def _log_wright_bessel_x(a: Any, b: Any, x: Any, y: Any, shared: Any) -> Any:
    a, b, x = _f64(a, b, x)
    with np.errstate(over="ignore", invalid="ignore"):
        return np.exp(sc.log_wright_bessel(a, a + b, x) - upcast(y))


scalar_rule(sc.wright_bessel, _pick(0), _pick(1), _wright_bessel_x, shared=_wright_bessel_shared)
scalar_rule(sc.log_wright_bessel, _pick(0), _pick(1), _log_wright_bessel_x, shared=_log_wright_bessel_shared)


@sample_inputs(sc.wright_bessel, sc.log_wright_bessel)
def _wright_bessel_samples() -> Any:
    yield Sample(0.5, 1.0, 2.0, label="scalars")
    yield Sample(np.array([0.5, 1.5, 0.1, 3.0, 0.2]), np.array([1.0, 0.3, 2.0, 0.7, 5.0]),
                 np.array([2.0, 0.05, 30.0, 8.0, 0.6]), label="moderate, small x, large x, large a, large b")
    yield Sample(np.array([0.5, 1.5], dtype=np.float32), np.float32(1.0), np.array([2.0, 4.0], dtype=np.float32),
                 label="float32")


@sample_inputs(sc.log_wright_bessel)
def _log_wright_bessel_samples() -> Any:
    yield Sample(np.array([0.5, 0.2]), np.array([1.0, 2.0]), np.array([700.0, 300.0]),
                 label="large x (Phi overflows, its logarithm does not)")
