"""Zeros of the Bessel, Airy and Kelvin functions: declared non-differentiable.

``jn_zeros(n, nt)``, ``ai_zeros(nt)``, ``kelvin_zeros(nt)`` and the rest take only integers
(an order ``n`` and a count ``nt``; ``y0_zeros``... also a flag ``complex``): their outputs
(zeros, and the function values or derivatives there) are functions of integers, with no
tangent space to differentiate in. Every argument's cotangent is ``NoTangent()``
(:func:`chainrules_core.non_differentiable`). The derivative of a zero with respect to a
real order (``dj_{v,k}/dv``) would need a function of real order, which SciPy does not
provide.

Examples
--------
>>> import scipy.special as sc
>>> import chainrules
>>> from chainrules import rrule
>>> zeros, pullback = rrule(sc.jn_zeros, 0, 2)
>>> pullback(None)
(NoTangent(), NoTangent(), NoTangent())
"""

from __future__ import annotations

import numpy as np
import scipy.special as sc

from chainrules_core import Sample, non_differentiable, sample_inputs

COUNT_ONLY = (sc.ai_zeros, sc.bi_zeros, sc.jnjnp_zeros, sc.kelvin_zeros, sc.ber_zeros, sc.bei_zeros, sc.ker_zeros,
              sc.kei_zeros, sc.berp_zeros, sc.beip_zeros, sc.kerp_zeros, sc.keip_zeros)
"""Functions of the number of zeros ``nt`` only."""

ORDER_AND_COUNT = (sc.jn_zeros, sc.jnp_zeros, sc.yn_zeros, sc.ynp_zeros, sc.jnyn_zeros)
"""Functions of an integer order ``n`` and a count ``nt``."""

WITH_COMPLEX_FLAG = (sc.y0_zeros, sc.y1_zeros, sc.y1p_zeros)
"""Functions of a count ``nt`` and the flag ``complex``."""

for _f in COUNT_ONLY + ORDER_AND_COUNT + WITH_COMPLEX_FLAG:
    non_differentiable(_f)


@sample_inputs(*COUNT_ONLY)
def _count_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(2)]


@sample_inputs(*ORDER_AND_COUNT)
def _order_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(1, 2)]


@sample_inputs(*WITH_COMPLEX_FLAG)
def _flag_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(2), Sample(2, True, label="complex zeros")]
