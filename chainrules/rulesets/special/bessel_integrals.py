"""Integrals of Bessel functions: ``itj0y0``, ``it2j0y0``, ``iti0k0``, ``it2i0k0`` and ``besselpoly``.

The first four return two integrals each (real ``x``); their derivatives are the
integrands (the fundamental theorem of calculus)::

    itj0y0  = (int_0^x J0,                 int_0^x Y0)            -> (J0(x), Y0(x))
    it2j0y0 = (int_0^x (1 - J0(t))/t dt,   int_x^inf Y0(t)/t dt)  -> ((1 - J0(x))/x, -Y0(x)/x)
    iti0k0  = (int_0^x I0,                 int_0^x K0)            -> (I0(x), K0(x))
    it2i0k0 = (int_0^x (I0(t) - 1)/t dt,   int_x^inf K0(t)/t dt)  -> ((I0(x) - 1)/x, -K0(x)/x)

``(1 - J0(x))/x`` and ``(I0(x) - 1)/x`` cancel near ``0``: below ``|x| = 1/2`` they are
summed from the series ``sum_k (-+1)^(k+1) (x/2)^(2k) / (k!)^2 / x`` (DLMF 10.2.2, 10.25.2).
The derivatives are exact; SciPy's ``it2i0k0`` loses its second integral beyond about
``x = 10`` (absolute errors near ``1e-9``, twenty times the value at ``x = 20``), so finite
differences of it agree with the rule only below that.

``besselpoly(a, lmb, nu) = int_0^1 x^lmb J_nu(2 a x) dx`` is differentiated in all three
arguments. Integrating the ascending series of ``J_nu`` term by term::

    besselpoly = sum_k (-1)^k a^(nu+2k) / (k! Gamma(nu+k+1) (lmb+nu+2k+1))

so that ``d/dlmb`` has the factor ``-1/(lmb+nu+2k+1)`` and ``d/dnu`` the factor ``log(a) -
psi(nu+k+1) - 1/(lmb+nu+2k+1)`` in each term; ``d/da = besselpoly(a, lmb+1, nu-1) -
besselpoly(a, lmb+1, nu+1)`` (``2 x J'_nu = x (J_{nu-1} - J_{nu+1})``, DLMF 10.6.1). SciPy
evaluates ``besselpoly`` by the same series, which cancels for large ``a`` (its primal is
good to ``1e-14`` at ``a = 3``, ``4e-10`` at ``8``, ``2e-5`` at ``15`` and wrong at ``25``):
each partial is returned where the series' rounding estimate (the sum of the moduli of
its terms against the result) promises a relative error below ``1e-9``, and is
``not_implemented`` elsewhere.

Examples
--------
>>> import numpy as np, scipy.special as sc
>>> import chainrules
>>> from chainrules import frule
>>> ys, dys = frule((None, 1.0), sc.itj0y0, 2.0)
>>> bool(np.isclose(dys[0], sc.j0(2.0)) and np.isclose(dys[1], sc.y0(2.0)))
True
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.special as sc

from chainrules.rulesets.special._struve_order import reciprocal_gamma_derivative
from chainrules_core import Sample, not_implemented, sample_inputs, scalar_rule


def _small_series(x: Any, sign: float) -> Any:
    """``(1 - J0(x))/x`` (``sign = -1``) or ``(I0(x) - 1)/x`` (``+1``) by their series."""
    q = sign * np.square(x) / 4
    term = np.asarray(x, dtype=np.result_type(x, np.float64)) / 4  # k = 1: (x/2)^2 / x
    total = term.copy()
    for k in range(2, 12):
        term = term * q / (k * k)
        total = total + term
    return total


def one_minus_j0_over_x(x: Any) -> Any:
    """``(1 - J0(x)) / x``, accurate near ``0``.

    Examples
    --------
    >>> from chainrules.rulesets.special.bessel_integrals import one_minus_j0_over_x
    >>> float(one_minus_j0_over_x(1e-8))
    2.5e-09
    """
    with np.errstate(divide="ignore", invalid="ignore"):
        direct = (1 - sc.j0(x)) / x
    return np.where(np.abs(x) < 0.5, _small_series(x, -1.0), direct)[()]


def i0_minus_one_over_x(x: Any) -> Any:
    """``(I0(x) - 1) / x``, accurate near ``0``."""
    with np.errstate(divide="ignore", invalid="ignore"):
        direct = (sc.i0(x) - 1) / x
    return np.where(np.abs(x) < 0.5, _small_series(x, 1.0), direct)[()]


def _minus_over_x(f: Any) -> Any:
    def minus_over_x(x: Any) -> Any:
        with np.errstate(divide="ignore", invalid="ignore"):
            return -f(x) / x

    minus_over_x.__name__ = f"minus_{f.__name__}_over_x"
    return minus_over_x


def _first(f: Any) -> Any:
    def integrand(x: Any, ys: Any) -> Any:
        return f(x)

    integrand.__name__ = f"{f.__name__}_integrand"
    return integrand


for _f, _a, _b in ((sc.itj0y0, sc.j0, sc.y0), (sc.it2j0y0, one_minus_j0_over_x, _minus_over_x(sc.y0)),
                   (sc.iti0k0, sc.i0, sc.k0), (sc.it2i0k0, i0_minus_one_over_x, _minus_over_x(sc.k0))):
    scalar_rule(_f, (_first(_a),), (_first(_b),))


# ---- besselpoly -----------------------------------------------------------------------------------------
_LOSS = 1e6
"""A partial is returned where the sum of the moduli of its series' terms is at most this times it."""


def besselpoly_partials(a: Any, lmb: Any, nu: Any) -> tuple[np.ndarray, ...]:
    """``(d/da, d/dlmb, d/dnu)`` of ``besselpoly`` by its series, and the loss of each (sum of moduli / result).

    The terms are formed in logarithms (``a^(nu+2k) / (k! Gamma(nu+k+1))`` overflows term by
    term long before the sum does). At ``a = 0`` the limits: ``d/dlmb = -1/(lmb+1)^2`` for
    ``nu = 0`` and ``0`` for ``nu > 0``, ``d/dnu = 0`` for ``nu > 0`` (NaN for ``nu <= 0``,
    where ``besselpoly(0, lmb, nu)`` jumps or is infinite); ``d/da`` there is left to the
    caller (the recurrence of SciPy's function).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.special.bessel_integrals import besselpoly_partials
    >>> da, dl, dn, *losses = besselpoly_partials(0.5, 2.0, 1.5)
    >>> bool(np.isclose(dl, -0.0125173961248, rtol=1e-12)), [bool(loss < 10) for loss in losses]
    (True, [True, True, True])
    """
    a, lmb, nu = np.broadcast_arrays(*(np.asarray(p, dtype=np.float64) for p in (a, lmb, nu)))
    terms = int(min(400, 40 + 3 * np.max(np.abs(a), initial=0.0)))
    sums = [np.zeros(a.shape) for _ in range(3)]
    sizes = [np.zeros(a.shape) for _ in range(3)]
    with np.errstate(all="ignore"):
        log_abs = np.log(np.abs(a))
        log_a = np.log(a)  # NaN for a < 0: the derivative in nu is not real there
        for k in range(terms):
            p = nu + 2 * k
            s = nu + k + 1
            den = lmb + p + 1
            # (-1)^k a^p as a sign and a logarithm (a < 0 needs an integer p, else NaN as for the primal)
            sign = (-1.0) ** k * np.where(a < 0, np.where(p == np.floor(p), (-1.0) ** np.abs(p), np.nan), 1.0)
            safe = np.where(s > 0, s, 1.0)
            magnitude = np.exp(p * log_abs - sc.gammaln(k + 1) - sc.gammaln(safe))  # with 1/Gamma(s), s > 0
            plain = np.exp(p * log_abs - sc.gammaln(k + 1))  # without it, for s <= 0 (the first few terms)
            r, dr = sc.rgamma(s), reciprocal_gamma_derivative(s)
            positive = s > 0
            term_a = sign * np.where(positive, magnitude, plain * r) * p / a / den
            term_l = -sign * np.where(positive, magnitude, plain * r) / den ** 2
            term_n = sign * np.where(positive, magnitude * (log_a - sc.psi(safe)), plain * (log_a * r + dr)) / den \
                - sign * np.where(positive, magnitude, plain * r) / den ** 2
            for i, t in enumerate((term_a, term_l, term_n)):
                sums[i] += t
                sizes[i] += np.abs(t)
        losses = [np.where(size == 0, 0.0, size / np.abs(total)) for size, total in zip(sizes, sums)]
    at_zero = a == 0
    if np.any(at_zero):
        sums[1] = np.where(at_zero, np.where(nu == 0, -1 / (lmb + 1) ** 2, 0.0), sums[1])
        sums[2] = np.where(at_zero, np.where(nu > 0, 0.0, np.nan), sums[2])
        for i in range(3):
            losses[i] = np.where(at_zero, 0.0, losses[i])
    return (*sums, *losses)


def _besselpoly_partial(which: int) -> Any:
    names = ("a", "lmb", "nu")

    def besselpoly_partial(a: Any, lmb: Any, nu: Any, y: Any) -> Any:
        values = besselpoly_partials(a, lmb, nu)
        d, loss = values[which], values[3 + which]
        if which == 0:
            d = sc.besselpoly(a, np.add(lmb, 1), np.subtract(nu, 1)) - sc.besselpoly(a, np.add(lmb, 1), np.add(nu, 1))
        if np.any(np.isfinite(y) & ~(loss <= _LOSS)):
            return not_implemented(
                f"scipy.special.besselpoly: the derivative in {names[which]} for large |a|, where the series SciPy "
                "and this rule sum cancels beyond 1e-9 (SciPy's own value is off by 2e-5 at a = 15)")
        return np.asarray(d)[()]

    besselpoly_partial.__name__ = f"besselpoly_{names[which]}_partial"
    return besselpoly_partial


scalar_rule(sc.besselpoly, _besselpoly_partial(0), _besselpoly_partial(1), _besselpoly_partial(2))


# ---- samples ------------------------------------------------------------------------------------------
@sample_inputs(sc.itj0y0, sc.it2j0y0, sc.iti0k0, sc.it2i0k0)
def _integral_samples(rng: np.random.Generator) -> list[Sample]:
    # SciPy's it2i0k0 loses its second output (int_x^inf K0(t)/t dt) beyond about x = 10
    # (absolute errors near 1e-9, 20 times the value at x = 20): compared up to 8
    return [Sample(1.5), Sample(np.array([0.05, 0.4, 0.6, 3.0, 8.0])),
            Sample(np.array([0.3, 2.0], np.float32), label="float32")]


@sample_inputs(sc.besselpoly)
def _besselpoly_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(0.5, 2.0, 1.5, label="scalars"),
            Sample(np.array([0.3, 1.5, 3.0, 5.0]), np.array([0.0, 1.0, -0.5, 2.5]), np.array([0.0, 2.0, 1.0, 0.5]),
                   label="arrays"),
            Sample(np.array([1.0, 2.0], np.float32), np.float32(1.0), np.float32(0.5), label="float32")]
