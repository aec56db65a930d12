"""Numerical derivatives in a parameter, for the few special functions with no better formula.

Most derivatives of ``scipy.special`` have closed forms, series, integral representations
or recurrences, and the rules use those. Where nothing better exists (a derivative with
respect to an order or a shape parameter in some regime), :func:`parameter_derivative`
differentiates the function numerically in that one parameter: central differences at a
sequence of halving steps, combined by Richardson extrapolation (a Neville tableau in
``h**2``), which returns both the derivative and an error estimate (the difference of the
last two extrapolants, the standard estimate of Richardson's method: Press et al.,
*Numerical Recipes*, 3rd ed., section 5.7, "dfridr"). A rule compares that estimate with
the accuracy it promises and returns ``not_implemented`` where it is not met.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

__all__ = ["parameter_derivative"]


def parameter_derivative(f: Callable[[np.ndarray], np.ndarray], p: Any, step: Any = None, levels: int = 6,
                         shrink: float = 1.6) -> tuple[np.ndarray, np.ndarray]:
    """``df/dp`` at ``p`` by Richardson-extrapolated central differences, with an error estimate.

    Parameters
    ----------
    f : callable
        Vectorised in its argument: ``f(p)`` has the shape of ``p`` (broadcast with any other
        arguments the caller closes over).
    p : array_like
        Where to differentiate (float64).
    step : array_like, optional
        The first step (default ``0.1 * max(1, |p|)``): large enough that rounding is small
        next to the differences, while the extrapolation removes the truncation error.
    levels : int
        The number of steps (each ``shrink`` times smaller than the last).
    shrink : float
        The ratio of successive steps.

    Returns
    -------
    (derivative, error) : ndarrays
        The best extrapolant at each point and its estimated absolute error.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.special._numerical import parameter_derivative
    >>> d, err = parameter_derivative(np.exp, np.array([0.0, 1.0]))
    >>> bool(np.allclose(d, np.exp([0.0, 1.0]), rtol=1e-12)), bool(np.all(err < 1e-10))
    (True, True)
    """
    p = np.asarray(p, dtype=np.float64)
    h = np.asarray(0.1 * np.maximum(1.0, np.abs(p)) if step is None else step, dtype=np.float64)
    h = np.broadcast_to(h, p.shape).copy()
    factor = shrink * shrink
    best = np.full(p.shape, np.nan)
    error = np.full(p.shape, np.inf)
    previous: list[np.ndarray] = []
    with np.errstate(all="ignore"):
        for _ in range(levels):
            row = [(f(p + h) - f(p - h)) / (2 * h)]
            scale = factor
            for k in range(1, len(previous) + 1):
                row.append((row[k - 1] * scale - previous[k - 1]) / (scale - 1))
                scale *= factor
                # the error of this extrapolant: its distance to both lower-order neighbours
                err = np.maximum(np.abs(row[k] - row[k - 1]), np.abs(row[k] - previous[k - 1]))
                better = err <= error
                best = np.where(better, row[k], best)
                error = np.where(better, err, error)
            previous = row
            h = h / shrink
    return best, error
