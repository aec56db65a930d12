"""Functions of ``scipy.signal`` whose outputs are indices, counts, flags or piecewise constants.

``find_peaks``, ``find_peaks_cwt``, ``argrelextrema``, ``argrelmax`` and ``argrelmin`` return
indices (``find_peaks``' properties are values of the signal at those indices: index the signal
with the peaks to differentiate them, ``x[peaks]``); ``check_COLA`` and ``check_NOLA`` return
booleans; ``unit_impulse`` and ``max_len_seq`` depend only on integers; ``square`` is piecewise
constant in ``t`` and ``duty``. Their rules give ``NoTangent()`` for every argument.

Examples
--------
>>> import numpy as np, scipy.signal
>>> import chainrules
>>> (peaks, properties), pullback = chainrules.rrule(scipy.signal.find_peaks, np.array([0.0, 2.0, 1.0, 3.0, 0.0]))
>>> peaks, pullback(None)
(array([1, 3]), (NoTangent(), NoTangent()))
"""

from __future__ import annotations

import numpy as np
import scipy.signal

from chainrules_core import Sample, non_differentiable, sample_inputs

INDICES = (scipy.signal.find_peaks, scipy.signal.find_peaks_cwt, scipy.signal.argrelextrema,
           scipy.signal.argrelmax, scipy.signal.argrelmin)
FLAGS = (scipy.signal.check_COLA, scipy.signal.check_NOLA)
CONSTANTS = (scipy.signal.unit_impulse, scipy.signal.max_len_seq, scipy.signal.square)

for _f in (*INDICES, *FLAGS, *CONSTANTS):
    non_differentiable(_f)


@sample_inputs(scipy.signal.find_peaks, scipy.signal.argrelmax, scipy.signal.argrelmin)
def _peak_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(np.array([0.0, 2.0, 1.0, 3.0, 0.5, 0.8, 0.1]))]


@sample_inputs(scipy.signal.find_peaks_cwt)
def _cwt_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(np.sin(np.linspace(0, 6 * np.pi, 60)), np.arange(1, 4))]


@sample_inputs(scipy.signal.argrelextrema)
def _extrema_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(np.array([0.0, 2.0, 1.0, 3.0, 0.5]), np.greater)]


@sample_inputs(*FLAGS)
def _flag_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(np.hanning(8), 8, 4)]


@sample_inputs(scipy.signal.unit_impulse)
def _impulse_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(5, 2)]


@sample_inputs(scipy.signal.max_len_seq)
def _mls_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(4)]


@sample_inputs(scipy.signal.square)
def _square_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(np.linspace(0.1, 6.0, 7), 0.3)]
