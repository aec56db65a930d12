"""The real discrete Fourier transforms: ``rfft``, ``irfft``, ``rfft2``, ``irfft2``, ``rfftn``, ``irfftn``.

Rules for ``numpy.fft`` and ``scipy.fft``, with every ``n``/``s`` (zero-padding and
truncation), ``axis``/``axes`` (NumPy's repeated axes too), ``norm``, odd and even lengths
(autograd raises for odd ones), float64 and float32 (``complex64`` spectra). ``irfft``
also takes a real input (read as a spectrum with zero imaginary parts; its cotangent is
the real part).

The maths
---------
``rfft`` is real-linear from ``R^n`` to ``C^(n//2+1)``: ``y_k = c sum_j x_j exp(-2 pi i jk/n)``
for ``k <= n//2``. In the project's complex convention the cotangent of ``x`` is
``x_bar_j = c Re sum_k y_bar_k exp(2 pi i jk/n)``, the adjoint in the real inner product.
The output holds half the spectrum: every bin ``1 <= k <= (n-1)//2`` stands for two
(``k`` and ``n - k``), DC and, for even ``n``, Nyquist for one. ``irfft`` reads its input
that way, so ``x_bar = irfft(w * y_bar, n, norm=swapped)`` with ``w = 1/2`` on the paired
bins and ``1`` on DC and Nyquist (derived term by term in
:mod:`chainrules.rulesets.fft._common`).

``irfft`` of length ``n`` uses the first ``n//2 + 1`` input bins (padding with zeros or
truncating) and ignores the imaginary parts of DC and (even ``n``) Nyquist:
``y_j = c (Re z_0 + 2 sum_{1<=k<=(n-1)//2} Re(z_k e^{2 pi i jk/n}) + Re z_{n/2} (-1)^j)``.
Its pullback is ``z_bar = v * rfft(y_bar, norm=swapped)`` with ``v = 2`` on the paired
bins and ``1`` on DC and Nyquist, whose values come out real: the imaginary parts
``irfft`` ignores have a zero cotangent, and so do the bins it truncates.

The n-dimensional versions chain these with complex transforms on the other axes
(``rfftn`` = ``rfft`` on the last axis, then ``fft`` on the others), adjoined in reverse
order. The frule applies the transform to the tangent. ``overwrite_x``, ``workers`` and
``plan`` are treated as in :mod:`~chainrules.rulesets.fft.complex_transforms`.

Examples
--------
>>> import numpy as np
>>> import chainrules
>>> y, pullback = chainrules.rrule(np.fft.irfft, np.array([1.0, 2j, 3.0]))
>>> pullback(np.ones(4))[1]                          # only the DC bin sees a constant signal
array([1.+0.j, 0.+0.j, 0.+0.j])
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.fft

from chainrules.rulesets.fft._common import (
    ChainBuilder,
    Step,
    linear_transform_rules,
    norm_name,
    numpy_nd_arguments,
    real_forward_chain,
    real_inverse_chain,
    scipy_nd_arguments,
)
from chainrules_core import Sample, sample_inputs


def _rfft_chain(shape: tuple[int, ...], p: dict[str, Any]) -> list[Step]:
    return ChainBuilder(shape).r2c(p["axis"], p["n"], norm_name(p["norm"])).steps


def _irfft_chain(shape: tuple[int, ...], p: dict[str, Any]) -> list[Step]:
    return ChainBuilder(shape).c2r(p["axis"], p["n"], norm_name(p["norm"])).steps


def _numpy_rfftn_chain(shape: tuple[int, ...], p: dict[str, Any]) -> list[Step]:
    s, axes = numpy_nd_arguments(shape, p["s"], p["axes"])
    return real_forward_chain(shape, s, axes, norm_name(p["norm"]))


def _numpy_irfftn_chain(shape: tuple[int, ...], p: dict[str, Any]) -> list[Step]:
    s, axes = numpy_nd_arguments(shape, p["s"], p["axes"], inverse_real=True)
    return real_inverse_chain(shape, s, axes, norm_name(p["norm"]))


def _scipy_rfftn_chain(shape: tuple[int, ...], p: dict[str, Any]) -> list[Step]:
    s, axes = scipy_nd_arguments(shape, p["s"], p["axes"])
    return real_forward_chain(shape, s, axes, norm_name(p["norm"]))


def _scipy_irfftn_chain(shape: tuple[int, ...], p: dict[str, Any]) -> list[Step]:
    s, axes = scipy_nd_arguments(shape, p["s"], p["axes"], inverse_real=True)
    return real_inverse_chain(shape, s, axes, norm_name(p["norm"]))


linear_transform_rules(np.fft.rfft, _rfft_chain)
linear_transform_rules(np.fft.irfft, _irfft_chain)
linear_transform_rules(scipy.fft.rfft, _rfft_chain, workers=True)
linear_transform_rules(scipy.fft.irfft, _irfft_chain, workers=True)
linear_transform_rules(np.fft.rfft2, _numpy_rfftn_chain)
linear_transform_rules(np.fft.rfftn, _numpy_rfftn_chain)
linear_transform_rules(np.fft.irfft2, _numpy_irfftn_chain)
linear_transform_rules(np.fft.irfftn, _numpy_irfftn_chain)
linear_transform_rules(scipy.fft.rfft2, _scipy_rfftn_chain, workers=True)
linear_transform_rules(scipy.fft.rfftn, _scipy_rfftn_chain, workers=True)
linear_transform_rules(scipy.fft.irfft2, _scipy_irfftn_chain, workers=True)
linear_transform_rules(scipy.fft.irfftn, _scipy_irfftn_chain, workers=True)


# ---- sample inputs ----------------------------------------------------------------------------------
@sample_inputs(np.fft.rfft, scipy.fft.rfft)
def _rfft_samples(rng: np.random.Generator) -> list[Sample]:
    x5, x6 = rng.standard_normal(5), rng.standard_normal((2, 6))
    return [
        Sample(x5, label="odd length"),
        Sample(x6, label="even length (a Nyquist bin)"),
        Sample(x6.astype(np.float32), label="float32"),
        Sample(x6, 9, 0, "ortho", label="n pads to odd, axis 0, ortho by position"),
        Sample(x6, fkwargs={"n": 4, "norm": "forward"}, label="n truncates, forward, by keyword"),
    ]


@sample_inputs(np.fft.irfft, scipy.fft.irfft)
def _irfft_samples(rng: np.random.Generator) -> list[Sample]:
    z = rng.standard_normal((2, 4)) + 1j * rng.standard_normal((2, 4))
    return [
        Sample(z, label="even output (default n)"),
        Sample(z, 7, label="odd output, the input padded"),
        Sample(z, 4, label="n truncates the input"),
        Sample(z.astype(np.complex64), label="complex64"),
        Sample(z.real.copy(), fkwargs={"n": 5}, label="a real input"),
        Sample(z, 6, 0, "ortho", label="n, axis 0, ortho by position"),
        Sample(z, fkwargs={"n": 5, "axis": -1, "norm": "forward"}, label="by keyword, forward"),
    ]


@sample_inputs(np.fft.rfft2, np.fft.rfftn, scipy.fft.rfft2, scipy.fft.rfftn)
def _rfftn_samples(rng: np.random.Generator) -> list[Sample]:
    x = rng.standard_normal((3, 4, 5))
    return [
        Sample(x, label="odd last axis"),
        Sample(x.astype(np.float32), label="float32"),
        Sample(x, (2, 6), (2, 1), "ortho", label="s pads and truncates, axes by position, ortho"),
        Sample(x, fkwargs={"s": (4, 3), "axes": (0, 2), "norm": "forward"}, label="by keyword, forward"),
    ]


@sample_inputs(np.fft.irfft2, np.fft.irfftn, scipy.fft.irfft2, scipy.fft.irfftn)
def _irfftn_samples(rng: np.random.Generator) -> list[Sample]:
    z = rng.standard_normal((3, 4, 3)) + 1j * rng.standard_normal((3, 4, 3))
    return [
        Sample(z, label="default s (even last axis)"),
        Sample(z.astype(np.complex64), label="complex64"),
        Sample(z, (2, 5), (0, 2), "ortho", label="s truncates, odd last length, ortho by position"),
        Sample(z, fkwargs={"s": (5, 6), "axes": (1, 2), "norm": "forward"}, label="s pads, by keyword, forward"),
    ]


@sample_inputs(np.fft.rfftn)
def _repeated_axes_rfftn_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(rng.standard_normal((4, 3)), (5, 4), (1, 1), label="NumPy: rfft of axis 1, then fft of it again")]


@sample_inputs(np.fft.irfftn)
def _repeated_axes_irfftn_samples(rng: np.random.Generator) -> list[Sample]:
    z = rng.standard_normal((4, 3)) + 1j * rng.standard_normal((4, 3))
    return [Sample(z, (2, 5), (1, 1), label="NumPy: ifft of axis 1, then irfft of it")]
