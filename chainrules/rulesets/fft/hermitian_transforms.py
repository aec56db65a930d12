"""The Hermitian discrete Fourier transforms: ``hfft``, ``ihfft`` (NumPy and SciPy) and SciPy's
``hfft2``, ``hfftn``, ``ihfft2``, ``ihfftn``.

``hfft`` takes the half of a Hermitian-symmetric signal and returns its (real) spectrum;
``ihfft`` is its inverse. Both libraries compute them from the real transforms of the
conjugate: ``hfft(x, n, norm) = irfft(conj(x), n, norm=swapped)`` and
``ihfft(x, n, norm) = conj(rfft(x, n, norm=swapped))`` (``"backward"`` and ``"forward"``
exchanged), and the same for the n-dimensional versions.

The maths
---------
Conjugation is real-linear and its own adjoint in the real inner product, so the pullbacks
are those of :mod:`~chainrules.rulesets.fft.real_transforms` with a conjugation:
``x_bar = conj(irfft_pullback(y_bar))`` for ``hfft`` and ``x_bar = rfft_pullback(conj(y_bar))``
for ``ihfft``, with the same weights (the bins that stand for two, and the imaginary parts
of DC and Nyquist that ``hfft`` ignores and whose cotangent is zero). Odd lengths work.
The frule applies the transform to the tangent.

Examples
--------
>>> import numpy as np
>>> import chainrules
>>> y, pullback = chainrules.rrule(np.fft.hfft, np.array([1.0, 1j, 2.0]))
>>> pullback(np.ones(4))[1]                          # DC only; its imaginary part is ignored
array([4.-0.j, 0.-0.j, 0.-0.j])
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.fft

from chainrules.rulesets.fft._common import (
    SWAPPED_NORM,
    ChainBuilder,
    Step,
    linear_transform_rules,
    norm_name,
    real_forward_chain,
    real_inverse_chain,
    scipy_nd_arguments,
)
from chainrules_core import Sample, sample_inputs


def _hfft_chain(shape: tuple[int, ...], p: dict[str, Any]) -> list[Step]:
    return ChainBuilder(shape).conj().c2r(p["axis"], p["n"], SWAPPED_NORM[norm_name(p["norm"])]).steps


def _ihfft_chain(shape: tuple[int, ...], p: dict[str, Any]) -> list[Step]:
    return ChainBuilder(shape).r2c(p["axis"], p["n"], SWAPPED_NORM[norm_name(p["norm"])]).conj().steps


def _hfftn_chain(shape: tuple[int, ...], p: dict[str, Any]) -> list[Step]:
    s, axes = scipy_nd_arguments(shape, p["s"], p["axes"], inverse_real=True)
    return real_inverse_chain(shape, s, axes, SWAPPED_NORM[norm_name(p["norm"])], conjugate=True)


def _ihfftn_chain(shape: tuple[int, ...], p: dict[str, Any]) -> list[Step]:
    s, axes = scipy_nd_arguments(shape, p["s"], p["axes"])
    return real_forward_chain(shape, s, axes, SWAPPED_NORM[norm_name(p["norm"])], conjugate=True)


linear_transform_rules(np.fft.hfft, _hfft_chain)
linear_transform_rules(np.fft.ihfft, _ihfft_chain)
linear_transform_rules(scipy.fft.hfft, _hfft_chain, workers=True)
linear_transform_rules(scipy.fft.ihfft, _ihfft_chain, workers=True)
for _f in (scipy.fft.hfft2, scipy.fft.hfftn):
    linear_transform_rules(_f, _hfftn_chain, workers=True)
for _f in (scipy.fft.ihfft2, scipy.fft.ihfftn):
    linear_transform_rules(_f, _ihfftn_chain, workers=True)


# ---- sample inputs ----------------------------------------------------------------------------------
@sample_inputs(np.fft.hfft, scipy.fft.hfft)
def _hfft_samples(rng: np.random.Generator) -> list[Sample]:
    z = rng.standard_normal((2, 4)) + 1j * rng.standard_normal((2, 4))
    return [
        Sample(z, label="even output (default n)"),
        Sample(z, 7, label="odd output, the input padded"),
        Sample(z, 3, label="n truncates the input"),
        Sample(z.astype(np.complex64), label="complex64"),
        Sample(z.real.copy(), fkwargs={"n": 5}, label="a real input"),
        Sample(z, 6, 0, "ortho", label="n, axis 0, ortho by position"),
        Sample(z, fkwargs={"n": 5, "axis": -1, "norm": "forward"}, label="by keyword, forward"),
    ]


@sample_inputs(np.fft.ihfft, scipy.fft.ihfft)
def _ihfft_samples(rng: np.random.Generator) -> list[Sample]:
    x5, x6 = rng.standard_normal(5), rng.standard_normal((2, 6))
    return [
        Sample(x5, label="odd length"),
        Sample(x6, label="even length (a Nyquist bin)"),
        Sample(x6.astype(np.float32), label="float32"),
        Sample(x6, 9, 0, "ortho", label="n pads to odd, axis 0, ortho by position"),
        Sample(x6, fkwargs={"n": 4, "norm": "forward"}, label="n truncates, forward, by keyword"),
    ]


@sample_inputs(scipy.fft.hfft2, scipy.fft.hfftn)
def _hfftn_samples(rng: np.random.Generator) -> list[Sample]:
    z = rng.standard_normal((3, 4, 3)) + 1j * rng.standard_normal((3, 4, 3))
    return [
        Sample(z, label="default s (even last axis)"),
        Sample(z.astype(np.complex64), label="complex64"),
        Sample(z, (2, 5), (0, 2), "ortho", label="s truncates, odd last length, ortho by position"),
        Sample(z, fkwargs={"s": (5, 6), "axes": (1, 2), "norm": "forward"}, label="s pads, by keyword, forward"),
    ]


@sample_inputs(scipy.fft.ihfft2, scipy.fft.ihfftn)
def _ihfftn_samples(rng: np.random.Generator) -> list[Sample]:
    x = rng.standard_normal((3, 4, 5))
    return [
        Sample(x, label="odd last axis"),
        Sample(x.astype(np.float32), label="float32"),
        Sample(x, (2, 6), (2, 1), "ortho", label="s pads and truncates, axes by position, ortho"),
        Sample(x, fkwargs={"s": (4, 3), "axes": (0, 2), "norm": "forward"}, label="by keyword, forward"),
    ]
