"""Zeros of the error function and the Fresnel integrals: declared non-differentiable.

``erf_zeros(nt)``, ``fresnel_zeros(nt)``, ``fresnelc_zeros(nt)`` and ``fresnels_zeros(nt)``
take only the number of zeros ``nt``, an integer: their outputs (complex zeros) are
functions of an integer, with no tangent space to differentiate in, so every cotangent is
``NoTangent()`` (:func:`chainrules_core.non_differentiable`).

Examples
--------
>>> import scipy.special as sc
>>> import chainrules
>>> from chainrules import rrule
>>> zeros, pullback = rrule(sc.erf_zeros, 2)
>>> pullback(None)
(NoTangent(), NoTangent())
"""

from __future__ import annotations

import numpy as np
import scipy.special as sc

from chainrules_core import Sample, non_differentiable, sample_inputs

ZERO_FUNCTIONS = (sc.erf_zeros, sc.fresnel_zeros, sc.fresnelc_zeros, sc.fresnels_zeros)
"""Functions of the number of zeros ``nt`` only."""

for _f in ZERO_FUNCTIONS:
    non_differentiable(_f)


@sample_inputs(*ZERO_FUNCTIONS)
def _count_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(3)]
