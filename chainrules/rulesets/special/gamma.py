"""The gamma function and its relatives: gamma, gammaln, loggamma, rgamma, gammasgn, digamma (psi),
polygamma, multigammaln, beta, betaln, poch, binom.

Every rule is elementwise (``scalar_rule``): broadcasting, float32 kept, the holomorphic
convention for the complex ones (``gamma``, ``loggamma``, ``rgamma``, ``digamma``).

The maths
---------
* ``Gamma' = Gamma psi``, ``(log Gamma)' = psi`` (also ``log|Gamma|`` for ``gammaln`` and the
  principal branch ``loggamma``), ``psi' = psi_1`` (trigamma), ``d/dx psi^(n) = psi^(n+1)``
  (DLMF 5.2.2, 5.15.1). The trigamma of a complex argument is computed here (SciPy's
  ``polygamma`` is real): reflection DLMF 5.15.6, recurrence 5.15.5, asymptotic series
  5.15.8.
* ``(1/Gamma)' = -psi/Gamma``; ``1/Gamma`` is entire and at its zeros ``z = -n`` the
  derivative is ``(-1)^n n!`` (the residues DLMF 5.2.5), not the ``0 * inf`` of the formula.
* ``gammasgn`` is piecewise constant: its derivative is zero (where it exists).
* ``multigammaln(a, d) = d(d-1)/4 log(pi) + sum_(j<d) log Gamma(a - j/2)``:
  ``d/da = sum_(j<d) psi(a - j/2)``; ``d`` is an integer dimension (``NoTangent``).
* ``B(a, b) = Gamma(a) Gamma(b) / Gamma(a+b)``: ``dB/da = B (psi(a) - psi(a+b))``,
  ``d log|B| / da = psi(a) - psi(a+b)``; where ``a + b`` is a pole of ``Gamma`` and ``a``,
  ``b`` are not, ``B = 0`` and ``dB/da = Gamma(a) Gamma(b) (1/Gamma)'(a+b)``.
* ``poch(z, m) = Gamma(z+m)/Gamma(z)``: ``d/dz = poch (psi(z+m) - psi(z))``,
  ``d/dm = poch psi(z+m)`` (DLMF 5.2.5 for the poles). Where ``z`` is a pole of ``Gamma``
  and ``z + m`` is not, ``poch = 0`` and ``d/dz = Gamma(z+m) (1/Gamma)'(z)``; where both are
  (``m`` an integer, ``poch`` the finite product ``z (z+1) ... (z+m-1)``),
  ``d/dz = poch (psi(1-z-m) - psi(1-z))`` (the reflection DLMF 5.5.4 cancels the poles) and
  ``d/dm`` is NaN: for non-integer ``m`` SciPy returns 0 there, so ``poch`` jumps in ``m``.
* ``binom(n, k) = Gamma(n+1) / (Gamma(k+1) Gamma(n-k+1))``:
  ``d/dn = binom (psi(n+1) - psi(n-k+1))``, ``d/dk = binom (psi(n-k+1) - psi(k+1))``;
  where ``binom = 0`` (``k+1`` or ``n-k+1`` a pole) the derivatives come from ``1/Gamma``'
  (``binom(3, k)`` at ``k = 5`` has slope ``-Gamma(4)/Gamma(6) (1/Gamma)'(-1) = 1/20``).

The digamma differences use
:func:`~chainrules.rulesets.special._gamma_tools.psi_increment`, accurate where
``psi(a + d) - psi(a)`` cancels (``beta(1e10, 1)``: relative error 1e-16, not 1e-5).

Examples
--------
>>> import scipy.special as sc
>>> import chainrules
>>> from chainrules import rrule, frule
>>> y, pullback = rrule(sc.rgamma, -2.0)  # at a zero of 1/Gamma: the slope (-1)^2 2! = 2
>>> float(pullback(1.0)[1])
2.0
>>> frule((None, 1.0), sc.gamma, 1.0)[1]  # Gamma'(1) = -Euler's gamma
np.float64(-0.5772156649015329)
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.special as sc

from chainrules.rulesets.special._gamma_tools import psi_increment, rgamma_derivative, trigamma
from chainrules_core import Sample, not_implemented, sample_inputs, scalar_rule
from chainrules_core.scalar_rules import ZERO

__all__: list[str] = []


def _is_pole(z: Any) -> Any:
    """Whether ``z`` is a pole of Gamma (a non-positive integer)."""
    return (np.real(z) <= 0) & (np.real(z) == np.round(np.real(z))) & (np.imag(z) == 0)


def _f64(*args: Any) -> list[np.ndarray]:
    """The arguments as float64 arrays of their broadcast shape (read-only views where no copy is needed)."""
    return list(np.broadcast_arrays(*[np.asarray(a, dtype=np.float64) for a in args]))


# ---- one argument ----------------------------------------------------------------------------------------
def _gamma_partial(x: Any, y: Any) -> Any:
    return y * sc.psi(x)


def _gammaln_partial(x: Any) -> Any:
    return sc.psi(x)


def _rgamma_partial(x: Any, y: Any) -> Any:
    return rgamma_derivative(x, y)


def _digamma_partial(x: Any) -> Any:
    return trigamma(x)


scalar_rule(sc.gamma, _gamma_partial)
scalar_rule(sc.gammaln, _gammaln_partial)
scalar_rule(sc.loggamma, _gammaln_partial)
scalar_rule(sc.rgamma, _rgamma_partial)
scalar_rule(sc.gammasgn, ZERO)
scalar_rule(sc.psi, _digamma_partial)  # sc.digamma is the same ufunc

# ---- polygamma and multigammaln: an integer order ----------------------------------------------------------
_POLYGAMMA_ORDER = ("polygamma(n, x): SciPy defines the order n at integers only (NaN between them), so there is no "
                    "derivative in n; pass n as an integer (it then gets NoTangent)")


def _polygamma_x(n: Any, x: Any) -> Any:
    return sc.polygamma(np.asarray(n) + 1, x)


scalar_rule(sc.polygamma, not_implemented(_POLYGAMMA_ORDER), _polygamma_x)


def _multigammaln_a(a: Any, d: Any) -> Any:
    a = np.asarray(a)
    return sum(sc.psi(a - j / 2) for j in range(int(d)))


_MULTIGAMMALN_D = "multigammaln(a, d): d is an integer dimension, there is no derivative in it"
scalar_rule(sc.multigammaln, _multigammaln_a, not_implemented(_MULTIGAMMALN_D))


# ---- beta, betaln ---------------------------------------------------------------------------------------
def _beta_partial(first: int) -> Any:
    def beta_partial(a: Any, b: Any, y: Any) -> Any:
        p, q = (a, b) if first == 0 else (b, a)
        p, q, yy = np.broadcast_arrays(*(np.asarray(v, dtype=np.float64) for v in (p, q, y)))
        with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
            out = np.asarray(-yy * psi_increment(p, q))
            zero = np.flatnonzero(yy == 0)  # beta = 0 where a + b is a pole and a, b are not
            if zero.size:
                pz, qz = p.flat[zero], q.flat[zero]
                fix = _is_pole(pz + qz) & ~_is_pole(pz) & ~_is_pole(qz)
                out.flat[zero[fix]] = (sc.gamma(pz[fix]) * sc.gamma(qz[fix]) * rgamma_derivative(pz[fix] + qz[fix]))
        return out[()]

    beta_partial.__name__ = f"beta_partial_{'ab'[first]}"
    return beta_partial


def _betaln_partial(first: int) -> Any:
    def betaln_partial(a: Any, b: Any) -> Any:
        return -psi_increment(a, b)[()] if first == 0 else -psi_increment(b, a)[()]

    betaln_partial.__name__ = f"betaln_partial_{'ab'[first]}"
    return betaln_partial


scalar_rule(sc.beta, _beta_partial(0), _beta_partial(1))
scalar_rule(sc.betaln, _betaln_partial(0), _betaln_partial(1))


# ---- poch, binom ----------------------------------------------------------------------------------------
def _poch_z(z: Any, m: Any, y: Any) -> Any:
    z, m, yy = _f64(z, m, y)
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        out = np.asarray(yy * psi_increment(z, m))
        # z a pole of Gamma: only there is the formula 0 * inf or inf - inf
        poles = np.flatnonzero((z <= 0) & (z == np.round(z)))
        if poles.size:
            zp, mp_, yp = z.flat[poles], m.flat[poles], yy.flat[poles]
            zm_pole = _is_pole(zp + mp_)
            zero = ~zm_pole  # poch = Gamma(z+m) (1/Gamma)(z) = 0
            out.flat[poles[zero]] = sc.gamma(zp[zero] + mp_[zero]) * rgamma_derivative(zp[zero])
            product = zm_pole & np.isfinite(yp)  # the finite product z (z+1) ... (z+m-1)
            out.flat[poles[product]] = -yp[product] * psi_increment(1 - zp[product] - mp_[product], mp_[product])
    return out[()]


def _poch_m(z: Any, m: Any, y: Any) -> Any:
    return y * sc.psi(np.add(z, m))


scalar_rule(sc.poch, _poch_z, _poch_m)


def _binom_zero_fix(n: np.ndarray, k: np.ndarray, yy: np.ndarray, out: np.ndarray, which: int) -> None:
    """Where binom = 0 because 1/Gamma(k+1) or 1/Gamma(n-k+1) vanishes: the slope through (1/Gamma)'."""
    candidates = np.flatnonzero(yy == 0)
    if not candidates.size:
        return
    nz, kz = n.flat[candidates], k.flat[candidates]
    fix = ~_is_pole(nz + 1) & (_is_pole(kz + 1) | _is_pole(nz - kz + 1))
    if not np.any(fix):
        return
    nz, kz = nz[fix], kz[fix]
    g = sc.gamma(nz + 1)
    left, right = kz + 1, nz - kz + 1
    if which == 0:
        value = g * sc.rgamma(left) * rgamma_derivative(right)
    else:
        value = g * (rgamma_derivative(left) * sc.rgamma(right) - sc.rgamma(left) * rgamma_derivative(right))
    out.flat[candidates[fix]] = value


def _binom_n(n: Any, k: Any, y: Any) -> Any:
    n, k, yy = _f64(n, k, y)
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        out = np.asarray(yy * psi_increment(n - k + 1, k))
        _binom_zero_fix(n, k, yy, out, 0)
    return out[()]


def _binom_k(n: Any, k: Any, y: Any) -> Any:
    n, k, yy = _f64(n, k, y)
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        out = np.asarray(yy * psi_increment(k + 1, n - 2 * k))
        _binom_zero_fix(n, k, yy, out, 1)
    return out[()]


scalar_rule(sc.binom, _binom_n, _binom_k)


# ---- samples ----------------------------------------------------------------------------------------------
_X = np.array([0.3, 1.0, 2.5, 7.0, 40.0, -0.5, -2.7])  # near 0, positive, large, between the poles


@sample_inputs(sc.gamma, sc.rgamma)
def _gamma_samples() -> Any:
    yield Sample(2.5, label="scalar")
    yield Sample(_X[:6], label="near 0, positive, large, negative")
    yield Sample(_X[[0, 1, 2, 3, 5]].astype(np.float32), label="float32")
    yield Sample(np.array([0.5 + 1j, -1.5 + 0.5j, 3.0 - 2.0j]), label="complex")


@sample_inputs(sc.rgamma)
def _rgamma_extra_samples() -> Any:
    yield Sample(np.array([0.0, -1.0, -2.0, -3.0]), label="zeros of 1/Gamma")
    yield Sample(np.array([0.0 + 0j, -2.0 + 0j]), label="complex zeros of 1/Gamma")


@sample_inputs(sc.gammaln)
def _gammaln_samples() -> Any:
    yield Sample(2.5, label="scalar")
    yield Sample(_X, label="near 0, positive, large, negative (log|Gamma|)")
    yield Sample(_X.astype(np.float32), label="float32")


@sample_inputs(sc.loggamma)
def _loggamma_samples() -> Any:
    yield Sample(2.5, label="scalar")
    yield Sample(_X[:5], label="positive")
    yield Sample(_X[:5].astype(np.float32), label="float32")
    yield Sample(np.array([0.5 + 1j, -2.5 + 0.5j, -2.5 - 0.5j, 10.0 + 30.0j]), label="complex, both sides of the cut")


@sample_inputs(sc.gammasgn)
def _gammasgn_samples() -> Any:
    yield Sample(np.array([0.5, 3.0, -0.5, -1.5]), label="both signs")
    yield Sample(np.float32(-2.5), label="float32")


@sample_inputs(sc.psi)
def _digamma_samples() -> Any:
    yield Sample(2.5, label="scalar")
    yield Sample(_X, label="near 0, positive, large, negative")
    yield Sample(_X.astype(np.float32), label="float32")
    yield Sample(np.array([0.5 + 1j, -1.5 + 0.5j, 3.0 - 2.0j, 0.2 - 15j]), label="complex (both sides of Re z = 1/2)")


@sample_inputs(sc.polygamma)
def _polygamma_samples() -> Any:
    yield Sample(1, 2.5, label="trigamma")
    yield Sample(np.array([0, 1, 2, 3]), np.array([0.4, 1.5, 6.0, -0.5]), label="orders 0 to 3")
    yield Sample(2, np.array([0.4, 1.5], dtype=np.float32), label="float32")


@sample_inputs(sc.multigammaln)
def _multigammaln_samples() -> Any:
    yield Sample(3.5, 3, label="scalar")
    yield Sample(np.array([1.2, 4.0, 30.0]), 2, label="array")
    yield Sample(np.array([2.0, 5.0], dtype=np.float32), 4, label="float32")


@sample_inputs(sc.beta, sc.betaln)
def _beta_samples() -> Any:
    yield Sample(2.5, 0.7, label="scalars")
    # (a >> b, where the digamma difference cancels, is checked against mpmath in the tests: SciPy's own
    # betaln(1e6, 2) is too noisy for finite differences)
    yield Sample(np.array([0.3, 2.0, 50.0, -0.5]), np.array([0.8, 3.0, 60.0, 1.7]),
                 label="small, moderate, large, negative a")
    yield Sample(np.array([0.3, 2.0], dtype=np.float32), np.array([0.8, 3.0], dtype=np.float32), label="float32")


@sample_inputs(sc.beta)
def _beta_zero_samples() -> Any:
    yield Sample(np.array([0.5, 1.5]), np.array([-0.5, -3.5]), label="a + b a pole: beta = 0")


@sample_inputs(sc.poch)
def _poch_samples() -> Any:
    yield Sample(2.5, 1.5, label="scalars")
    yield Sample(np.array([0.5, 3.0, 40.0, -2.5]), np.array([2.5, -1.5, 3.0, 1.2]),
                 label="positive, negative m, large, negative z")
    yield Sample(np.array([0.5, 3.0], dtype=np.float32), np.array([2.5, -1.5], dtype=np.float32), label="float32")
    yield Sample(np.array([0.0, -2.0]), np.array([2.5, 0.5]), label="z a pole: poch = 0")


@sample_inputs(sc.binom)
def _binom_samples() -> Any:
    yield Sample(5.5, 2.5, label="scalars")
    yield Sample(np.array([5.5, 10.0, -1.5, 3.5, 60.0]), np.array([2.5, 3.0, 2.0, 5.0, 2.5]),
                 label="non-integer, integer k, negative n, k > n, large n")
    yield Sample(np.array([5.5, 10.0], dtype=np.float32), np.array([2.5, 3.0], dtype=np.float32), label="float32")
    yield Sample(np.array([3.0, 4.0]), np.array([5.0, -1.0]), label="binom = 0: k > n and k < 0")
