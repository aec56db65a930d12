"""The Riemann and Hurwitz zeta functions: zeta (in ``x`` and ``q``), zetac.

The maths
---------
* In ``q``: ``d zeta(s, q) / dq = -s zeta(s + 1, q)`` (DLMF 25.11.17).
* In ``s`` there is no closed form; :func:`zeta_derivative` sums the Euler-Maclaurin
  expansion (DLMF 25.11.5 / 2.10.1) differentiated term by term in ``s``:
  ``zeta'(s, q) = -sum_(k<N) log(k+q) (k+q)^-s - U^(1-s) (log U/(s-1) + 1/(s-1)^2)
  - log U U^-s / 2 + sum_(j<=8) B_2j/(2j)! U^(-s-2j+1) ((s)_(2j-1)' - (s)_(2j-1) log U)``,
  ``U = N + q``, with ``N = 20 + |Im s|`` terms summed directly (the rising factorial
  ``(s)_m`` and its derivative by the product rule). The remainder is below
  ``|(s)_17| / (2 pi U)^17`` relative to ``U^-s``: 1e-16 relatively for ``|s| <= 20``, and
  negligible next to the direct sum for larger ``s``. For the Riemann function with
  ``Re s < 1/2`` the functional equation ``zeta(s) = chi(s) zeta(1 - s)``,
  ``chi(s) = 2^s pi^(s-1) sin(pi s/2) Gamma(1-s)`` (DLMF 25.4.1) gives
  ``zeta'(s) = chi'(s) zeta(1-s) - chi(s) zeta'(1-s)`` with
  ``chi'(s) = 2^s pi^(s-1) Gamma(1-s) (pi/2 cos(pi s/2) + sin(pi s/2)(log 2 pi - psi(1-s)))``
  (finite at the trivial zeros, where ``chi`` vanishes); near ``s = 0``, where that form
  subtracts the two halves of the pole of ``zeta(1 - s)``, Euler-Maclaurin is used
  instead (``|s| < 1/4``). Complex ``s`` (SciPy takes it for the Riemann function) follow
  the holomorphic convention.
* SciPy's Hurwitz zeta is NaN for ``s < 1`` and the derivative is too. For ``q < 0``
  (SciPy evaluates integer ``s`` there) ``(k + q)^-s`` has no real derivative in ``s``:
  NaN; the ``q`` derivative is the formula above.
* ``zetac(x) = zeta(x) - 1`` has the same derivative.

Examples
--------
>>> import scipy.special as sc
>>> import chainrules
>>> from chainrules import frule
>>> float(frule((None, 1.0), sc.zeta, 2.0)[1])  # zeta'(2), mpmath: -0.93754825431584375...
-0.937548254315844
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import scipy.special as sc

from chainrules.rulesets.special._keyword_rules import elementwise_frule, elementwise_rrule
from chainrules.rulesets.special._precision import upcast
from chainrules_core import Sample, frule, reject_keywords, rrule, sample_inputs, scalar_rule
from chainrules_core.scalar_rules import NUMERIC

__all__ = ["zeta_derivative"]

# B_2j / (2j)!, j = 1..8 (DLMF 24.2)
_BERNOULLI = (1 / 6, -1 / 30, 1 / 42, -1 / 30, 5 / 66, -691 / 2730, 7 / 6, -3617 / 510)
_EM_COEFFICIENTS = tuple(b / math.factorial(2 * j + 2) for j, b in enumerate(_BERNOULLI))
_DIRECT_TERMS = 20


def _euler_maclaurin_derivative(s: np.ndarray, q: np.ndarray) -> np.ndarray:
    """``d/ds zeta(s, q)`` for ``q > 0`` and any ``s != 1`` (arrays of one shape)."""
    extra = int(np.ceil(np.max(np.abs(np.imag(s)), initial=0.0)))
    n = _DIRECT_TERMS + extra
    total = np.zeros(np.broadcast(s, q).shape, dtype=np.result_type(s, q, np.float64))
    for k in range(n):
        u = q + k
        total -= np.log(u) * u ** (-s)
    u = q + n
    log_u = np.log(u)
    with np.errstate(divide="ignore", invalid="ignore"):
        total -= u ** (1 - s) * (log_u / (s - 1) + 1 / (s - 1) ** 2)
    total -= log_u * u ** (-s) / 2
    rising, d_rising = s + 0 * q, np.ones_like(total)  # (s)_1 and its derivative
    power = u ** (-s - 1)  # U^(-s-2j+1) for j = 1
    for j, c in enumerate(_EM_COEFFICIENTS):
        total += c * power * (d_rising - rising * log_u)
        for step in (2 * j + 1, 2 * j + 2):  # (s)_m -> (s)_(m+2)
            rising, d_rising = rising * (s + step), d_rising * (s + step) + rising
        power = power / (u * u)
    return total


def _riemann_derivative(s: np.ndarray) -> np.ndarray:
    out = np.empty(s.shape, dtype=np.result_type(s, np.float64))
    # Euler-Maclaurin for Re s >= 1/2 and near 0 (where the reflection cancels: zeta(1 - s) has a pole);
    # the functional equation elsewhere (Euler-Maclaurin's direct sum cancels for negative s)
    right = (np.real(s) >= 0.5) | (np.abs(s) < 0.25)
    if np.any(right):
        out[right] = _euler_maclaurin_derivative(s[right], np.ones(np.count_nonzero(right)))
    left = ~right
    if np.any(left):
        t = s[left]
        r = 1 - t
        with np.errstate(over="ignore", invalid="ignore"):
            scale = 2.0 ** t * np.pi ** (t - 1) * sc.gamma(r)
            half = np.pi * t / 2
            chi = scale * np.sin(half)
            d_chi = scale * (np.pi / 2 * np.cos(half) + np.sin(half) * (np.log(2 * np.pi) - sc.psi(r)))
            out[left] = d_chi * sc.zeta(r) - chi * _euler_maclaurin_derivative(r, np.ones(r.shape))
    return out


def zeta_derivative(s: Any, q: Any = None) -> np.ndarray:
    """``d/ds zeta(s, q)`` (Riemann's for ``q=None``), float64 or complex128 of the broadcast shape.

    Examples
    --------
    >>> from chainrules.rulesets.special.zeta import zeta_derivative
    >>> round(float(zeta_derivative(0.0)), 12)  # -log(2 pi)/2
    -0.918938533205
    """
    s = upcast(s)
    if q is None:
        s = np.array(s, dtype=s.dtype)
        return _riemann_derivative(s.reshape(-1)).reshape(s.shape)[()]
    s, q = (np.array(v) for v in np.broadcast_arrays(s, upcast(q)))
    out = np.full(s.shape, np.nan, dtype=np.result_type(s, q, np.float64))
    valid = (q > 0) & (np.real(s) >= 1)
    if np.any(valid):
        out[valid] = _euler_maclaurin_derivative(s[valid], q[valid])
    return out[()]


def _zeta_partials(x: Any, q: Any, y: Any) -> Any:
    def zeta_x() -> Any:
        return zeta_derivative(x, q)

    def zeta_q() -> Any:
        xx, qq = upcast(x), upcast(q)
        with np.errstate(invalid="ignore", over="ignore"):
            return -xx * sc.zeta(xx + 1, qq)

    return zeta_x, (zeta_q if q is not None else None)


def zeta_rrule(x: Any, q: Any = None, out: Any = None) -> Any:
    """Reverse rule of ``scipy.special.zeta`` (see the module docstring)."""
    reject_keywords(sc.zeta, {"out": out})
    y = sc.zeta(x, q)
    return elementwise_rrule(sc.zeta, "zeta", (x, q), y, _zeta_partials(x, q, y), 1)


def zeta_frule(tangents: Any, x: Any, q: Any = None, out: Any = None) -> Any:
    """Forward rule of ``scipy.special.zeta`` (see the module docstring)."""
    reject_keywords(sc.zeta, {"out": out})
    y = sc.zeta(x, q)
    return elementwise_frule((x, q), y, _zeta_partials(x, q, y), tangents[1:])


rrule.register(sc.zeta, NUMERIC)(zeta_rrule)
frule.register(sc.zeta, NUMERIC)(zeta_frule)


def _zetac(x: Any) -> Any:
    return zeta_derivative(x)


scalar_rule(sc.zetac, _zetac)


@sample_inputs(sc.zeta)
def _zeta_samples() -> Any:
    yield Sample(2.5, label="Riemann, scalar")
    yield Sample(np.array([-7.5, -2.0, -0.4, 0.3, 0.7, 1.2, 3.0, 30.0]),
                 label="Riemann: reflection (incl. a trivial zero), critical strip, near the pole, large")
    yield Sample(np.array([1.5, 4.0], dtype=np.float32), label="float32")
    yield Sample(np.array([0.5 + 14j, 2.0 - 3j, -1.5 + 0.5j]), label="complex (Riemann)")
    yield Sample(np.array([1.1, 2.5, 6.0, 30.0]), np.array([0.3, 2.0, 0.05, 1.5]), label="Hurwitz")
    yield Sample(3.0, np.array([0.7, 25.0]), label="Hurwitz, broadcast")
    yield Sample(np.array([2.0, 3.5]), fkwargs={"q": np.array([0.5, 4.0])}, label="q by keyword")


@sample_inputs(sc.zetac)
def _zetac_samples() -> Any:
    yield Sample(2.5, label="scalar")
    yield Sample(np.array([-3.5, 0.3, 1.2, 8.0, 60.0]), label="reflection, strip, near the pole, large (tiny values)")
    yield Sample(np.array([1.5, 4.0], dtype=np.float32), label="float32")
