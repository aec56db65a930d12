"""A random generator that draws gamma, beta and Dirichlet variates by inversion, for the samples of ``rvs`` (private).

The rules of :mod:`chainrules.rulesets.stats.sampling` differentiate a draw in the shape
parameters along its inverse-CDF path (implicit reparameterisation): ``y = F^-1(u; theta)``
with the probability level ``u`` held fixed. NumPy draws gamma, beta and Dirichlet variates
by rejection, so finite differences of ``rvs`` at a fixed seed differentiate another path.
:class:`InversionGenerator` is a ``Generator`` whose ``standard_gamma``, ``gamma``,
``chisquare``, ``beta`` and ``dirichlet`` draw by inversion of the same uniform numbers
(``gammaincinv``, ``betaincinv``; Dirichlet variates by stick breaking,
``v_i = I^-1(u_i; alpha_i, alpha_(i+1) + ... + alpha_K)``), so that finite differences of
``rvs`` with it are finite differences of the very path the rules differentiate. Its draws
do not advance it (a :class:`~chainrules.rulesets.arrays._sample_arrays.FixedStateGenerator`):
every call, and every copy, draws the same numbers, as the testers need.

Examples
--------
>>> import numpy as np, scipy.special as sc
>>> from chainrules.rulesets.stats._inversion import InversionGenerator
>>> rng = InversionGenerator(3)
>>> g = rng.standard_gamma(2.5, size=3)
>>> bool(np.allclose(sc.gammainc(2.5, g), rng.random(3))), bool((g == rng.standard_gamma(2.5, size=3)).all())
(True, True)
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.special as sc

from chainrules.rulesets.arrays._sample_arrays import FixedStateGenerator

__all__ = ["InversionGenerator"]


def _shape(size: Any, *params: Any) -> tuple[int, ...]:
    if size is None:
        return np.broadcast(*(np.asarray(p) for p in params)).shape
    return (size,) if np.ndim(size) == 0 else tuple(size)


class InversionGenerator(FixedStateGenerator):
    """A fixed-state ``Generator`` drawing gamma, beta and Dirichlet variates by inversion (see the module)."""

    def __deepcopy__(self, memo: Any) -> InversionGenerator:
        twin = InversionGenerator(0)
        twin.bit_generator.state = self.bit_generator.state
        return twin

    def __repr__(self) -> str:
        return "InversionGenerator(PCG64)"

    def standard_gamma(self, shape: Any, size: Any = None, dtype: Any = np.float64, out: Any = None) -> Any:
        u = self.random(_shape(size, shape))
        return sc.gammaincinv(shape, u)

    def gamma(self, shape: Any, scale: Any = 1.0, size: Any = None) -> Any:
        return scale * self.standard_gamma(shape, _shape(size, shape, scale))

    def chisquare(self, df: Any, size: Any = None) -> Any:
        return 2.0 * self.standard_gamma(np.asarray(df) / 2.0, _shape(size, df))

    def beta(self, a: Any, b: Any, size: Any = None) -> Any:
        u = self.random(_shape(size, a, b))
        return sc.betaincinv(a, b, u)

    def dirichlet(self, alpha: Any, size: Any = None) -> Any:
        alpha = np.asarray(alpha, dtype=np.float64)
        k = alpha.shape[-1]
        lead = () if size is None else ((size,) if np.ndim(size) == 0 else tuple(size))
        u = self.random(lead + (k - 1,))
        beta = np.cumsum(alpha[::-1])[::-1][1:]
        v = sc.betaincinv(alpha[:-1], beta, u)
        x = np.empty(lead + (k,))
        remaining = np.ones(lead)
        for i in range(k - 1):
            x[..., i] = remaining * v[..., i]
            remaining = remaining * (1.0 - v[..., i])
        x[..., -1] = remaining
        return x
