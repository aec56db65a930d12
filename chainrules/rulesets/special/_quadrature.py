"""Exp-sinh quadrature on ``(0, inf)`` with an error estimate, vectorised over many integrals.

Integrals ``int_0^inf f(s) ds`` of functions with algebraic singularities at ``0`` and
algebraic or exponential decay at infinity (the integral representations of Tricomi's U
and of Carlson's elliptic integrals and their derivatives) are computed with the
double-exponential substitution ``s = s0 exp(pi/2 sinh(u))`` and the trapezoidal rule in
``u`` (Takahasi and Mori, *Publ. RIMS Kyoto* 9 (1974) 721), on ``u`` in ``[-5.5, 4.5]``
with step ``h = 1/32`` (321 nodes, from about ``1e-84 s0`` to ``5e30 s0``), centred at a
scale ``s0`` chosen by the caller (where the integrand lives).

Error estimate: the trapezoidal sums of steps ``h``, ``2h``, ``4h`` share their nodes; the
error of a double-exponential rule falls like ``exp(-c/h)``, so halving the step squares
the relative error. With ``d1, d2`` the relative digits of ``I_h - I_2h`` and
``I_2h - I_4h``, the error of ``I_h`` is about ``10**(d1**2/d2)`` (Bailey, Jeyabalan and
Li, *Experimental Math.* 14 (2005) 317, section 3); it is used, times ten, only once
``I_2h`` is good to three digits (the rate is then the asymptotic one), otherwise the
estimate is ``|I_h - I_2h|``. Added to it: a rounding bound ``16 u sum |terms|`` and the
omitted tails, ``10 s |f(s)|`` at both ends (an integrand like ``s^-b`` near ``0`` with
``b <= 0.9``, or decaying at least like ``s^-1.1``, has tails below that).

Examples
--------
>>> import numpy as np
>>> from chainrules.rulesets.special._quadrature import exp_sinh
>>> [(value, error)] = exp_sinh(lambda s: [1 / (np.sqrt(s) * (1 + s))], np.ones(1))
>>> bool(abs(value[0] - np.pi) < 1e-13), bool(error[0] < 1e-10)
(True, True)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

__all__ = ["exp_sinh", "exp_sinh_nodes"]

U = 2.0 ** -53
_STEP = 1.0 / 32
_U = np.arange(-5.5, 4.5 + _STEP / 2, _STEP)
_X = np.exp(np.pi / 2 * np.sinh(_U))
_W = _STEP * np.pi / 2 * np.cosh(_U) * _X
_COARSE = (np.arange(_U.size) % 2) == 0
_COARSER = (np.arange(_U.size) % 4) == 0


def exp_sinh_nodes() -> tuple[float, float]:
    """The smallest and largest node for ``s0 = 1`` (the ends of the truncated range)."""
    return float(_X[0]), float(_X[-1])


def exp_sinh(integrands: Callable[[np.ndarray], list[Any]], scale: np.ndarray,
             tails: bool = True) -> list[tuple[np.ndarray, np.ndarray]]:
    """``int_0^inf f_i(s) ds`` for each ``f_i`` of ``integrands(s)``, with error estimates.

    Parameters
    ----------
    integrands : callable
        ``integrands(s)`` with ``s`` of shape ``(n, m)`` (the nodes of ``n`` integrals)
        returns a list of arrays of that shape.
    scale : ndarray, shape (n,)
        The centre ``s0`` of the nodes of each integral (positive).
    tails : bool
        Add the estimate of the omitted tails (``False`` when the caller bounds them).

    Returns
    -------
    list of (value, error)
        One pair of shape-``(n,)`` arrays per integrand.
    """
    s0 = np.asarray(scale, dtype=np.float64)[:, None]
    s = s0 * _X[None, :]
    weights = s0 * _W[None, :]
    out = []
    with np.errstate(all="ignore"):
        for f in integrands(s):
            g = f * weights
            fine = np.sum(g, axis=1)
            coarse = 2 * np.sum(g[:, _COARSE], axis=1)
            coarser = 4 * np.sum(g[:, _COARSER], axis=1)
            size = np.sum(np.abs(g), axis=1)
            d1 = np.log10(np.abs(fine - coarse) / size)
            d2 = np.log10(np.abs(coarse - coarser) / size)
            asymptotic = (d2 < -3) & (d1 < d2)
            predicted = np.where(asymptotic, 10 * 10.0 ** (d1 * d1 / d2), 10.0 ** d1) * size
            err = np.where(np.isfinite(predicted), predicted, np.where(fine == coarse, 0.0, np.inf)) + 16 * U * size
            if tails:
                err = err + 10 * (s[:, 0] * np.abs(f[:, 0]) + s[:, -1] * np.abs(f[:, -1]))
            err = np.where(np.isfinite(fine), err, np.inf)
            out.append((fine, err))
    return out
