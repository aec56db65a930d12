"""The complex discrete Fourier transforms: ``fft``, ``ifft``, ``fft2``, ``ifft2``, ``fftn``, ``ifftn``.

Rules for both ``numpy.fft`` and ``scipy.fft``, with every ``n``/``s`` (zero-padding and
truncation), ``axis``/``axes`` (NumPy's repeated axes transform an axis again; SciPy refuses
them), ``norm`` (``"backward"``, ``"ortho"``, ``"forward"``), any length. Real, complex,
float32 (``complex64`` output) and integer inputs (not differentiated) are accepted.

The maths
---------
``y = fft(x, norm)`` is ``c F x`` with ``F_kj = exp(-2 pi i jk/n)`` and ``c = 1``,
``1/sqrt(n)``, ``1/n``. The frule is ``dy = fft(dx)`` (the transform is linear). With the
project's complex convention (cotangent ``dL/dRe + i dL/dIm``, the adjoint of the Jacobian),
the pullback is ``x_bar = c F^H y_bar``, that is ``ifft`` with the swapped norm:
``fft(norm="backward")``'s pullback is ``n * ifft(y_bar)`` (= ``ifft(y_bar, norm="forward")``),
``"ortho"`` is unitary (pullback ``ifft(y_bar, norm="ortho")``), ``"forward"`` gives
``ifft(y_bar)``. Autograd's pullback ``fft(g)`` is the conjugate of this, because its
cotangents are conjugated. Zero-padding by ``n`` is adjoined by truncation and truncation by
zero-padding; n-dimensional transforms adjoin each axis in reverse order (one n-dimensional
call when the axes are distinct). A real input keeps the real part of its cotangent.

SciPy's ``overwrite_x`` is accepted and never used (the rules do not let the transform write
into its input); ``workers`` is passed on to the transforms of the pullback; ``plan`` is
passed to SciPy, which refuses any plan but ``None``. NumPy's ``out=`` is refused.

Examples
--------
>>> import numpy as np
>>> import chainrules
>>> x = np.array([1.0, 2.0, 0.0, -1.0])
>>> y, pullback = chainrules.rrule(np.fft.fft, x)
>>> pullback(np.array([1.0, 0.0, 0.0, 0.0]))[1]       # Re(F^H e_0): the real part of all ones
array([1., 1., 1., 1.])
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.fft

from chainrules.rulesets.fft._common import (
    ChainBuilder,
    Step,
    complex_chain,
    linear_transform_rules,
    norm_name,
    numpy_nd_arguments,
    scipy_nd_arguments,
)
from chainrules_core import Sample, sample_inputs


def _one_axis(forward: bool) -> Any:
    def chain_of(shape: tuple[int, ...], p: dict[str, Any]) -> list[Step]:
        return ChainBuilder(shape).c2c(p["axis"], p["n"], forward, norm_name(p["norm"])).steps

    return chain_of


def _numpy_nd(forward: bool) -> Any:
    def chain_of(shape: tuple[int, ...], p: dict[str, Any]) -> list[Step]:
        s, axes = numpy_nd_arguments(shape, p["s"], p["axes"])
        return complex_chain(shape, s, axes, forward, norm_name(p["norm"]), range(len(axes) - 1, -1, -1))

    return chain_of


def _scipy_nd(forward: bool) -> Any:
    def chain_of(shape: tuple[int, ...], p: dict[str, Any]) -> list[Step]:
        s, axes = scipy_nd_arguments(shape, p["s"], p["axes"])
        return complex_chain(shape, s, axes, forward, norm_name(p["norm"]), range(len(axes)))

    return chain_of


for _forward, _numpy_1d, _scipy_1d in ((True, np.fft.fft, scipy.fft.fft), (False, np.fft.ifft, scipy.fft.ifft)):
    linear_transform_rules(_numpy_1d, _one_axis(_forward))
    linear_transform_rules(_scipy_1d, _one_axis(_forward), workers=True)
for _forward, _numpy_fs, _scipy_fs in ((True, (np.fft.fft2, np.fft.fftn), (scipy.fft.fft2, scipy.fft.fftn)),
                                       (False, (np.fft.ifft2, np.fft.ifftn), (scipy.fft.ifft2, scipy.fft.ifftn))):
    for _f in _numpy_fs:
        linear_transform_rules(_f, _numpy_nd(_forward))
    for _f in _scipy_fs:
        linear_transform_rules(_f, _scipy_nd(_forward), workers=True)


# ---- sample inputs ----------------------------------------------------------------------------------
def _signals(rng: np.random.Generator, shape: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    x = rng.standard_normal(shape)
    return x, x + 1j * rng.standard_normal(shape)


@sample_inputs(np.fft.fft, np.fft.ifft, scipy.fft.fft, scipy.fft.ifft)
def _one_axis_samples(rng: np.random.Generator) -> list[Sample]:
    x, z = _signals(rng, (5,))
    xe, ze = _signals(rng, (2, 6))
    return [
        Sample(z, label="odd length, complex"),
        Sample(x, label="odd length, real"),
        Sample(x.astype(np.float32), label="float32"),
        Sample(z.astype(np.complex64), label="complex64"),
        Sample(ze, 8, 0, "ortho", label="n pads, axis 0, ortho by position"),
        Sample(xe, fkwargs={"n": 4, "axis": -1, "norm": "forward"}, label="n truncates, forward, by keyword"),
        Sample(ze, 3, label="n truncates an even axis"),
    ]


@sample_inputs(np.fft.fft2, np.fft.ifft2, np.fft.fftn, np.fft.ifftn, scipy.fft.fft2, scipy.fft.ifft2,
               scipy.fft.fftn, scipy.fft.ifftn)
def _n_axes_samples(rng: np.random.Generator) -> list[Sample]:
    x, z = _signals(rng, (3, 4, 2))
    return [
        Sample(z, label="complex, default axes"),
        Sample(x.astype(np.float32), label="float32"),
        Sample(z, (5, 3), (0, 2), "ortho", label="s pads and truncates, axes, ortho by position"),
        Sample(x, fkwargs={"s": (2, 3), "axes": (1, 0), "norm": "forward"}, label="s and axes by keyword"),
    ]


@sample_inputs(np.fft.fftn, np.fft.ifftn)
def _repeated_axes_samples(rng: np.random.Generator) -> list[Sample]:
    _, z = _signals(rng, (3, 4))
    return [Sample(z, (5, 2), (1, 1), label="NumPy: a repeated axis, padded then truncated"),
            Sample(z, fkwargs={"axes": (0, 1, 0), "norm": "ortho"}, label="NumPy: axis 0 twice, ortho")]
