"""Counting functions: comb, perm, factorial, factorial2, factorialk (differentiable with ``exact=False``,
where SciPy computes them from the gamma function); stirling2, bernoulli, euler (integers in: not
differentiable).

These are Python functions with keywords, so their rules are written here rather than
with ``scalar_rule``; they are elementwise all the same (broadcasting, float32 kept, the
cotangent of an integer argument is ``NoTangent()``). With ``exact=True`` SciPy computes
an exact integer from integer arguments: nothing is differentiated (every cotangent is
``NoTangent()``).

The maths
---------
* ``comb(N, k) = binom(N, k)`` where ``0 <= k <= N``, else 0 (so the derivative is 0
  there); with ``repetition=True`` it is ``binom(N + k - 1, k)``, and the chain rule adds
  ``d/dn binom`` to the ``k`` partial. The partials of ``binom`` are those of
  :mod:`chainrules.rulesets.special.gamma` (digamma differences, and the slopes where
  ``binom`` vanishes).
* ``perm(N, k) = poch(N - k + 1, k)`` where ``0 <= k <= N``, else 0:
  ``d/dN = poch_z``, ``d/dk = poch_m - poch_z``.
* ``factorial(n) = Gamma(n + 1)`` (``n >= 0``; 0 below with ``extend='zero'``):
  ``d/dn = Gamma(n + 1) psi(n + 1)`` (DLMF 5.2.2); complex ``n`` with ``extend='complex'``.
* ``factorialk(n, k)`` (and ``factorial2 = factorialk(., 2)``): with ``extend='zero'`` SciPy
  accepts integer ``n`` and ``k`` only (it raises for non-integer floats), so there is
  nothing to differentiate. With ``extend='complex'`` it is the smooth extension
  ``f = k^(n/k) Gamma(n/k + 1) / (Gamma(1/k + 1) k^(1/k))``, and
  ``d/dn = f (log k + psi(n/k + 1)) / k``,
  ``d/dk = f ((1 - n) log k + n - 1 - n psi(n/k + 1) + psi(1/k + 1)) / k^2``.

Examples
--------
>>> import numpy as np, scipy.special as sc
>>> import chainrules
>>> from chainrules import rrule, unthunk
>>> y, pullback = rrule(sc.factorial, np.array([3.5, -1.5]))
>>> pullback(np.ones(2))[1]  # Gamma(4.5) psi(4.5); 0 where factorial is 0 (n < 0)
array([16.15496939,  0.        ])
>>> y, pullback = rrule(sc.comb, 10, 3, exact=True)
>>> y, pullback(1.0)
(120, (NoTangent(), NoTangent(), NoTangent()))
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.special as sc

from chainrules.rulesets.special._keyword_rules import Partials, elementwise_frule, elementwise_rrule
from chainrules.rulesets.special.gamma import _binom_k, _binom_n, _poch_m, _poch_z
from chainrules_core import Sample, frule, non_differentiable, rrule, sample_inputs
from chainrules_core.scalar_rules import NUMERIC

__all__: list[str] = []

def _float64(*args: Any) -> list[np.ndarray]:
    return [np.asarray(a, dtype=np.result_type(np.asarray(a).dtype, np.float64)) for a in args]


# ---- comb, perm -------------------------------------------------------------------------------------------
def _comb_partials(N: Any, k: Any, y: Any, repetition: bool) -> Partials:
    if repetition:
        n = np.add(N, k) - 1

        def comb_n_repetition() -> Any:
            return _binom_n(n, k, y)

        def comb_k_repetition() -> Any:
            return _binom_n(n, k, y) + _binom_k(n, k, y)

        return comb_n_repetition, comb_k_repetition
    inside = (np.asarray(k) <= N) & (np.asarray(N) >= 0) & (np.asarray(k) >= 0)

    def comb_n() -> Any:
        return np.where(inside, _binom_n(N, k, y), 0.0)[()]

    def comb_k() -> Any:
        return np.where(inside, _binom_k(N, k, y), 0.0)[()]

    return comb_n, comb_k


def comb_rrule(N: Any, k: Any, *, exact: bool = False, repetition: bool = False) -> Any:
    """Reverse rule of ``scipy.special.comb`` (see the module docstring)."""
    y = sc.comb(N, k, exact=exact, repetition=repetition)
    return elementwise_rrule(sc.comb, "comb", (N, k), y, None if exact else _comb_partials(N, k, y, repetition))


def comb_frule(tangents: Any, N: Any, k: Any, *, exact: bool = False, repetition: bool = False) -> Any:
    """Forward rule of ``scipy.special.comb`` (see the module docstring)."""
    y = sc.comb(N, k, exact=exact, repetition=repetition)
    return elementwise_frule((N, k), y, None if exact else _comb_partials(N, k, y, repetition), tangents[1:])


def _perm_partials(N: Any, k: Any, y: Any) -> Partials:
    inside = (np.asarray(k) <= N) & (np.asarray(N) >= 0) & (np.asarray(k) >= 0)
    z = np.subtract(N, k) + 1

    def perm_n() -> Any:
        return np.where(inside, _poch_z(z, k, y), 0.0)[()]

    def perm_k() -> Any:
        return np.where(inside, _poch_m(z, k, y) - _poch_z(z, k, y), 0.0)[()]

    return perm_n, perm_k


def perm_rrule(N: Any, k: Any, exact: bool = False) -> Any:
    """Reverse rule of ``scipy.special.perm`` (see the module docstring)."""
    y = sc.perm(N, k, exact=exact)
    return elementwise_rrule(sc.perm, "perm", (N, k), y, None if exact else _perm_partials(N, k, y), 1)


def perm_frule(tangents: Any, N: Any, k: Any, exact: bool = False) -> Any:
    """Forward rule of ``scipy.special.perm`` (see the module docstring)."""
    y = sc.perm(N, k, exact=exact)
    return elementwise_frule((N, k), y, None if exact else _perm_partials(N, k, y), tangents[1:])


# ---- factorials -------------------------------------------------------------------------------------------
def _factorial_partials(n: Any, y: Any, extend: str) -> Partials:
    def factorial_n() -> Any:
        (nn,) = _float64(n)
        with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
            p = np.asarray(y * sc.psi(nn + 1))
        if extend == "zero":
            p = np.where(nn < 0, 0.0, p)
        return p[()]

    return (factorial_n,)


def factorial_rrule(n: Any, exact: bool = False, extend: str = "zero") -> Any:
    """Reverse rule of ``scipy.special.factorial`` (see the module docstring)."""
    y = sc.factorial(n, exact=exact, extend=extend)
    return elementwise_rrule(sc.factorial, "factorial", (n,), y, None if exact else _factorial_partials(n, y, extend),
                              2)


def factorial_frule(tangents: Any, n: Any, exact: bool = False, extend: str = "zero") -> Any:
    """Forward rule of ``scipy.special.factorial`` (see the module docstring)."""
    y = sc.factorial(n, exact=exact, extend=extend)
    return elementwise_frule((n,), y, None if exact else _factorial_partials(n, y, extend), tangents[1:])


def _log(k: Any) -> Any:
    k = np.asarray(k)
    return np.log(k.astype(np.complex128)) if k.dtype.kind == "c" or np.any(np.real(k) < 0) else np.log(k)


def _factorialk_partials(n: Any, k: Any, y: Any, extend: str) -> Partials | None:
    if extend != "complex":
        return None  # SciPy accepts integer n and k only: nothing to differentiate

    def factorialk_n() -> Any:
        nn, kk = _float64(n, k)
        with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
            return (y * (_log(kk) + sc.psi(nn / kk + 1)) / kk)[()]

    def factorialk_k() -> Any:
        nn, kk = _float64(n, k)
        with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
            bracket = (1 - nn) * _log(kk) + nn - 1 - nn * sc.psi(nn / kk + 1) + sc.psi(1 / kk + 1)
            return (y * bracket / (kk * kk))[()]

    return factorialk_n, factorialk_k


def factorialk_rrule(n: Any, k: Any, exact: bool = False, extend: str = "zero") -> Any:
    """Reverse rule of ``scipy.special.factorialk`` (see the module docstring)."""
    y = sc.factorialk(n, k, exact=exact, extend=extend)
    partials = None if exact else _factorialk_partials(n, k, y, extend)
    return elementwise_rrule(sc.factorialk, "factorialk", (n, k), y, partials, 2)


def factorialk_frule(tangents: Any, n: Any, k: Any, exact: bool = False, extend: str = "zero") -> Any:
    """Forward rule of ``scipy.special.factorialk`` (see the module docstring)."""
    y = sc.factorialk(n, k, exact=exact, extend=extend)
    partials = None if exact else _factorialk_partials(n, k, y, extend)
    return elementwise_frule((n, k), y, partials, tangents[1:])


def factorial2_rrule(n: Any, exact: bool = False, extend: str = "zero") -> Any:
    """Reverse rule of ``scipy.special.factorial2`` (see the module docstring)."""
    y = sc.factorial2(n, exact=exact, extend=extend)
    partials = None if exact else _factorialk_partials(n, 2, y, extend)
    return elementwise_rrule(sc.factorial2, "factorial2", (n,), y, None if partials is None else partials[:1], 2)


def factorial2_frule(tangents: Any, n: Any, exact: bool = False, extend: str = "zero") -> Any:
    """Forward rule of ``scipy.special.factorial2`` (see the module docstring)."""
    y = sc.factorial2(n, exact=exact, extend=extend)
    partials = None if exact else _factorialk_partials(n, 2, y, extend)
    return elementwise_frule((n,), y, None if partials is None else partials[:1], tangents[1:])


for _f, _rrule, _frule, _nargs in ((sc.comb, comb_rrule, comb_frule, 2), (sc.perm, perm_rrule, perm_frule, 2),
                                   (sc.factorial, factorial_rrule, factorial_frule, 1),
                                   (sc.factorial2, factorial2_rrule, factorial2_frule, 1),
                                   (sc.factorialk, factorialk_rrule, factorialk_frule, 2)):
    rrule.register(_f, *(NUMERIC,) * _nargs)(_rrule)
    frule.register(_f, *(NUMERIC,) * _nargs)(_frule)

# Integers in, integers (or their float approximations) out.
non_differentiable(sc.stirling2)
non_differentiable(sc.bernoulli)
non_differentiable(sc.euler)


# ---- samples ----------------------------------------------------------------------------------------------
@sample_inputs(sc.comb)
def _comb_samples() -> Any:
    yield Sample(5.5, 2.5, label="scalars")
    yield Sample(np.array([5.5, 10.0, 3.0, 7.25]), np.array([2.5, 3.0, 4.5, -0.5]),
                 label="inside, integer, k > N and k < 0 (zero)")
    yield Sample(np.array([5.5, 10.0], dtype=np.float32), np.array([2.5, 3.0], dtype=np.float32), label="float32")
    yield Sample(np.array([5.5, 3.0]), np.array([2.5, 1.25]), fkwargs={"repetition": True}, label="repetition")
    yield Sample(10, 3, fkwargs={"exact": True}, label="exact")


@sample_inputs(sc.perm)
def _perm_samples() -> Any:
    yield Sample(5.5, 2.5, label="scalars")
    yield Sample(np.array([5.5, 10.0, 3.0]), np.array([2.5, 3.0, 4.5]), label="inside, integer, k > N (zero)")
    yield Sample(np.array([5.5, 10.0], dtype=np.float32), np.array([2.5, 3.0], dtype=np.float32), label="float32")
    yield Sample(10, 3, True, label="exact, by position")


@sample_inputs(sc.factorial)
def _factorial_samples() -> Any:
    yield Sample(3.5, label="scalar")
    yield Sample(np.array([0.5, 4.0, 12.5, -1.5]), label="positive, n < 0 (zero)")
    yield Sample(np.array([0.5, 4.0], dtype=np.float32), label="float32")
    yield Sample(np.array([0.5 + 0.5j, -1.5 + 1j]), fkwargs={"extend": "complex"}, label="complex extension")
    yield Sample(np.array([-1.5, 2.5]), False, "complex", label="complex extension (real n), by position")
    yield Sample(5, fkwargs={"exact": True}, label="exact")


@sample_inputs(sc.factorial2)
def _factorial2_samples() -> Any:
    yield Sample(np.array([3.5, 6.0, -1.5]), fkwargs={"extend": "complex"}, label="complex extension")
    yield Sample(np.array([3, 6]), label="integers (nothing to differentiate)")


@sample_inputs(sc.factorialk)
def _factorialk_samples() -> Any:
    yield Sample(np.array([3.5, 7.0, -0.5]), 3, fkwargs={"extend": "complex"}, label="complex extension, k = 3")
    yield Sample(np.array([3.5, 7.0]), 2.5, fkwargs={"extend": "complex"}, label="complex extension, real k")
    yield Sample(np.array([5, 7]), 3, label="integers (nothing to differentiate)")


@sample_inputs(sc.stirling2)
def _stirling2_samples() -> Any:
    yield Sample(np.array([5, 6]), np.array([2, 3]))


@sample_inputs(sc.bernoulli, sc.euler)
def _bernoulli_samples() -> Any:
    yield Sample(6)
