"""Derivatives of expectations in the shape parameters, by double-exponential quadrature.

For a distribution whose moments (or entropy) SciPy computes by numerical integration, the
rule integrates their derivative, differentiating under the integral sign::

    d/dtheta E[w(Z)] = int w(z) f0(z; theta) dlog f0(z; theta)/dtheta dz

(for the variance ``w = (z - m)^2`` and for the entropy ``w = -log f0``, whose own
derivatives contribute ``E[-2 (Z - m)] dm/dtheta = 0`` and ``-E[dlog f0/dtheta] = 0``).
This holds where the support does not depend on the shapes, or where the density is 0 at
an end that moves (Leibniz's rule adds ``f(end) g(end) d end/dtheta``); otherwise the
derivative is ``not_implemented``.

The integral is computed with the double-exponential substitutions of Takahasi and Mori
(*Publ. RIMS Kyoto* 9 (1974) 721): tanh-sinh on a finite support, exp-sinh on a half line,
sinh-sinh on the real line, each centred where the density lives (the median, scaled by
the interquartile range), and the trapezoidal rule with step ``1/128`` on ``[-4.5, 4.5]``,
vectorised (one evaluation of the model's partials at all nodes). These substitutions
make algebraic end-point singularities (``z^(a-1)`` at 0) and slow tails harmless. The
error estimate compares the rule with the one of twice the step (the error of a
double-exponential rule squares when the step halves, Bailey, Jeyabalan & Li,
*Experimental Math.* 14 (2005) 317): a derivative whose estimate exceeds
:data:`RTOL` relatively is ``not_implemented``, with the reason.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from chainrules_core import NotImplementedTangent, not_implemented

__all__ = ["RTOL", "expectation_partials"]

RTOL = 1e-9
"""The relative accuracy required of a quadrature of a derivative (else ``not_implemented``)."""

_STEP = 1.0 / 128
_U = np.arange(-4.5, 4.5 + _STEP / 2, _STEP)
_HALF_PI = np.pi / 2
_COARSE = (np.arange(_U.size) % 2) == 0


def _nodes(low: float, high: float, centre: float, width: float) -> tuple[np.ndarray, np.ndarray]:
    """The nodes ``z`` and weights (``dz/du`` times the step) of the substitution for ``[low, high]``."""
    sinh = np.sinh(_U)
    cosh = np.cosh(_U)
    if np.isfinite(low) and np.isfinite(high):  # tanh-sinh
        half = (high - low) / 2
        v = _HALF_PI * sinh
        # 1 + tanh(v) = 2/(1 + e^(-2v)) and 1 - tanh(v) = 2/(1 + e^(2v)): the nodes next to the ends keep
        # their distance from them (an end-point singularity is integrated to full accuracy)
        z = np.where(v < 0, low + 2 * half / (1 + np.exp(-2 * v)), high - 2 * half / (1 + np.exp(2 * v)))
        w = half * _HALF_PI * cosh / np.cosh(v) ** 2
        return z, _STEP * w
    if np.isfinite(low) or np.isfinite(high):  # exp-sinh, from the finite end
        scale = max(abs(centre - (low if np.isfinite(low) else high)), 1e-300)
        e = scale * np.exp(_HALF_PI * sinh)
        w = e * _HALF_PI * cosh
        z = low + e if np.isfinite(low) else high - e
        return z, _STEP * w
    s = np.sinh(_HALF_PI * sinh)  # sinh-sinh
    return centre + width * s, _STEP * width * _HALF_PI * cosh * np.cosh(_HALF_PI * sinh)


def _integrate(values: np.ndarray, weights: np.ndarray) -> tuple[float, float, float]:
    """The integral, its error estimate and the integral of the absolute value (the scale of the rounding)."""
    g = values * weights
    fine = float(np.sum(g))
    coarse = float(2 * np.sum(g[_COARSE]))
    size = float(np.sum(np.abs(g)))
    return fine, abs(fine - coarse) + 1e-15 * size, size


def expectation_partials(model: Any, what: str, weight: Callable[[Any, tuple[float, ...]], Any],
                         shapes: tuple[Any, ...], indices: Sequence[int] | None = None) -> tuple[Any, ...]:
    """``d/dtheta_i E[w(Z)]`` for each shape parameter (see the module docstring), or for those in ``indices``.

    Parameters
    ----------
    model : ContinuousModel
        The distribution (its ``dist``, ``dlogpdf_dshapes``).
    what : str
        The method, for the reasons of ``not_implemented``.
    weight : callable
        ``weight(z, theta)``, vectorised in ``z``.
    shapes : tuple
        The shape parameters (broadcast; one integral per element).
    indices : sequence of int, optional
        The shape parameters to differentiate in (default: all); a distribution whose support
        moves with some shapes integrates in the others and writes the boundary terms itself.
    """
    dist = model.dist
    arrays = np.broadcast_arrays(*(np.asarray(s, dtype=np.float64) for s in shapes))
    wanted = list(range(len(arrays))) if indices is None else list(indices)
    out = {i: np.empty(arrays[0].shape) for i in wanted}
    for index in np.ndindex(arrays[0].shape):
        theta = tuple(float(a[index]) for a in arrays)
        low, high = (float(b) for b in dist.support(*theta))
        for i in wanted:
            moved = tuple(float(b) for b in dist.support(*theta[:i], theta[i] * (1 + 1e-3) + 1e-3, *theta[i + 1:]))
            ends = [end for end, other in zip((low, high), moved) if end != other]
            vanishes = model.ends_vanish(*theta)  # the model's own answer where rounding hides the limit
            if vanishes is None:
                with np.errstate(all="ignore"):
                    vanishes = all(np.isneginf(dist._logpdf(np.float64(end), *theta)) for end in ends)
            if not vanishes:  # a moving end where the density is not 0 adds a boundary term
                reason = (f"scipy.stats.{model.name}.{what}: the support depends on the shape parameters and the "
                          "density does not vanish at its end, so the derivative of the integral has boundary terms; "
                          "no closed form written")
                return tuple(not_implemented(reason) for _ in wanted)
        with np.errstate(all="ignore"):
            quartiles = np.asarray(dist.ppf([0.25, 0.5, 0.75], *theta), dtype=np.float64)
        centre = float(quartiles[1]) if np.isfinite(quartiles[1]) else 0.0
        width = float(quartiles[2] - quartiles[0]) / 2 if np.all(np.isfinite(quartiles)) else 1.0
        # one substitution per piece between the kinks of the density (the rule is spectral on smooth pieces only)
        kinks = [float(k) for k in model.kinks(*theta) if low < k < high]
        pieces = list(zip([low, *kinks], [*kinks, high]))
        totals = np.zeros((len(theta), 3))
        for a, b in pieces:
            with np.errstate(all="ignore"):
                mid = centre if a < centre < b or not (np.isfinite(a) and np.isfinite(b)) else (a + b) / 2
                if len(pieces) > 1 and not (np.isfinite(a) and np.isfinite(b)):
                    mid = (a if np.isfinite(a) else b) + (width if np.isfinite(a) else -width)
                z, weights = _nodes(a, b, mid, width if width > 0 else 1.0)
                inside = (z > a) & (z < b) & np.isfinite(z)  # nodes rounded onto an end count for nothing
                z = np.where(inside, z, mid)
                logf = np.asarray(dist._logpdf(z, *theta), dtype=np.float64)
                # a node within rounding of an end where SciPy's log-density is NaN (kappa4's log(1 - h t) with
                # 1 - h t = -1e-16) weighs nothing: the ends checked above have zero density or do not move
                scale = max([1.0, *(abs(e) for e in (a, b) if np.isfinite(e))])
                at_end = np.minimum(np.abs(z - a), np.abs(z - b)) <= 1e-10 * scale
                density = np.where(inside & ~(np.isnan(logf) & at_end), np.exp(logf), 0.0)
                partials = model.dlogpdf_dshapes(z, *(np.float64(t) for t in theta))
                w = np.asarray(weight(z, theta), dtype=np.float64)
            for i, d in enumerate(partials):
                if i not in out:
                    continue
                if isinstance(d, NotImplementedTangent):
                    return (d,) * len(wanted)
                with np.errstate(all="ignore"):
                    integrand = np.where(density == 0, 0.0, w * density * np.asarray(d, dtype=np.float64))
                totals[i] += _integrate(integrand, weights)
        for i in wanted:
            value, error, size = totals[i]
            # relative to the value, or to the scale of the integrand where the value cancels to nothing (a
            # symmetric law's mean does not move: 0 to rounding)
            if not (np.isfinite(value) and error <= RTOL * max(abs(value), 1e-4 * size, 1e-300)):
                reason = (f"scipy.stats.{model.name}.{what}: the quadrature of the derivative did not reach a "
                          f"relative accuracy of {RTOL:g} at {dist.shapes} = {theta} (estimated error {error:.2g} of "
                          f"{value:.3g})")
                return tuple(not_implemented(reason) for _ in wanted)
            out[i][index] = value
    return tuple(out[i][()] for i in wanted)
