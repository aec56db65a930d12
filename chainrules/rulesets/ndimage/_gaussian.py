"""The sampled Gaussian kernels of ``scipy.ndimage`` and their derivative in ``sigma`` (private).

The maths
---------
``gaussian_filter1d(x, sigma, order=m, truncate=t, radius=r)`` correlates ``x`` with the
``m``-th derivative of a sampled, normalised Gaussian on the integers ``-r .. r``
(``r = int(t * sigma + 0.5)`` unless given), reversed (SciPy correlates, the kernel is that
of a convolution). With ``g(k) = exp(-k^2 / (2 sigma^2))`` and ``phi = g / sum(g)``, the
derivative kernel is ``q_m(k) phi(k)``, where the polynomial ``q_m`` follows from
``(q phi)' = (q' + q p') phi``, ``p' = -k / sigma^2``: ``q_0 = 1``,
``q_{j+1} = q_j' - k q_j / sigma^2``.

The derivative in ``sigma`` is exact (no finite differences): ``dg/dsigma = g k^2 / sigma^3``,
``dphi = (dg - phi sum(dg)) / sum(g)``, and ``dq_{j+1} = dq_j' - k dq_j / sigma^2 + 2 k q_j / sigma^3``,
so ``d(q_m phi) = dq_m phi + q_m dphi``. The radius is piecewise constant in ``sigma`` and
``truncate``: the filter's derivative in ``truncate`` is zero.
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["gaussian_kernel", "gaussian_radius"]


def gaussian_radius(sigma: Any, truncate: Any, radius: Any) -> int:
    """The radius SciPy uses: ``radius`` if given, else ``int(truncate * sigma + 0.5)``.

    Examples
    --------
    >>> gaussian_radius(1.5, 4.0, None), gaussian_radius(1.5, 4.0, 2)
    (6, 2)
    """
    if radius is not None:
        return int(radius)
    return int(truncate * float(sigma) + 0.5)


def gaussian_kernel(sigma: float, order: int, radius: int) -> tuple[np.ndarray, np.ndarray]:
    """The kernel ``gaussian_filter1d`` correlates with (reversed), and its derivative in ``sigma``.

    Examples
    --------
    >>> v, dv = gaussian_kernel(1.0, 0, 1)
    >>> bool(abs(v.sum() - 1) < 1e-15), bool(abs(dv.sum()) < 1e-15)     # normalised for every sigma
    (True, True)
    >>> v, _ = gaussian_kernel(1.0, 1, 1)
    >>> bool(v[0] < 0 < v[2])            # reversed: correlating a rising line gives a positive slope
    True
    """
    sigma = float(sigma)
    k = np.arange(-radius, radius + 1, dtype=np.float64)
    s2, s3 = sigma * sigma, sigma ** 3
    g = np.exp(-0.5 * k * k / s2)
    dg = g * k * k / s3
    total = g.sum()
    phi = g / total
    dphi = (dg - phi * dg.sum()) / total
    # q_j and its sigma derivative as polynomial coefficients, q(k) = sum_e c[e] k^e
    c, dc = np.zeros(order + 1), np.zeros(order + 1)
    c[0] = 1.0
    for _ in range(order):
        derivative = np.zeros_like(c)
        derivative[:-1] = c[1:] * np.arange(1, order + 1)
        shifted = np.zeros_like(c)
        shifted[1:] = c[:-1]
        d_derivative = np.zeros_like(dc)
        d_derivative[:-1] = dc[1:] * np.arange(1, order + 1)
        d_shifted = np.zeros_like(dc)
        d_shifted[1:] = dc[:-1]
        c, dc = derivative - shifted / s2, d_derivative - d_shifted / s2 + 2.0 * shifted / s3
    powers = k[:, None] ** np.arange(order + 1)
    q, dq = powers @ c, powers @ dc
    kernel = q * phi
    dkernel = dq * phi + q * dphi
    return kernel[::-1].copy(), dkernel[::-1].copy()
