"""The analytic signal: ``hilbert`` and ``hilbert2``.

The maths
---------
``hilbert(x, N)`` returns ``y = ifft(h * fft(x, N))`` (Marple 1999, "Computing the
discrete-time analytic signal via FFT", IEEE Trans. Signal Process. 47), with ``h = 1`` at
DC, ``2`` on the positive frequencies, ``1`` at Nyquist (even ``N``) and ``0`` on the
negative ones. It is real-linear from real ``x`` to complex ``y``; with the project's
complex convention its pullback is the real part of the adjoint
``F_pad^H diag(h) ifft^H = crop(ifft(h * fft(y_bar)))`` (``fft^H = N ifft`` and
``ifft^H = fft / N``), ``x`` truncated or zero-padded to ``N`` adjoined by zero-padding or
truncation. ``hilbert2`` does the same along two axes with ``h0 (x) h1``, where each factor
is ``1`` at DC, ``2`` up to (not including) ``(N + 1) // 2`` and ``0`` from there (SciPy's
two-dimensional convention, which zeroes the Nyquist row and column). The frules apply the
functions to the tangent. ``x`` must be real (SciPy raises for complex input).

Examples
--------
>>> import numpy as np, scipy.signal
>>> import chainrules
>>> y, pullback = chainrules.rrule(scipy.signal.hilbert, np.array([1.0, 2.0, 0.0, -1.0]))
>>> pullback(np.array([1.0, 0.0, 0.0, 0.0]))[1]        # the real part of the first row of y's matrix
array([1., 0., 0., 0.])
"""

from __future__ import annotations

import inspect
from typing import Any

import numpy as np
import scipy.fft
import scipy.signal

from chainrules.rulesets.arrays._linear_maps import output_tangent, tangent_array
from chainrules.rulesets.fft._common import along, resize
from chainrules.rulesets.signal._common import NO, bind, public_name, short_name
from chainrules_core import (
    NotImplementedTangent,
    Sample,
    Varargs,
    cotangent_projector,
    differentiable,
    frule,
    passes_through,
    read_cotangent,
    rrule,
    sample_inputs,
)

ARRAY = (np.ndarray, list, tuple)


def analytic_weights(n: int, two_dimensional: bool = False) -> np.ndarray:
    """The multipliers ``h`` of the spectrum (see the module docstring).

    Examples
    --------
    >>> analytic_weights(4), analytic_weights(5), analytic_weights(4, two_dimensional=True)
    (array([1., 2., 1., 0.]), array([1., 2., 2., 0., 0.]), array([1., 2., 0., 0.]))
    """
    h = np.zeros(n)
    h[0] = 1
    half = (n + 1) // 2
    h[1:half] = 2
    if n % 2 == 0 and not two_dimensional:
        h[n // 2] = 1
    return h


def _hilbert_adjoint(g: np.ndarray, shape: tuple[int, ...], axes: list[int], lengths: list[int],
                     two_dimensional: bool) -> np.ndarray:
    spectrum = scipy.fft.fftn(g, axes=axes)
    for axis, n in zip(axes, lengths):
        spectrum *= along(analytic_weights(n, two_dimensional), axis, g.ndim)
    out = np.real(scipy.fft.ifftn(spectrum, axes=axes, overwrite_x=True))
    for axis in axes:
        out = resize(out, axis, shape[axis])
    return out


def _rules(f: Any, two_dimensional: bool) -> None:
    name, short, signature = public_name(f), short_name(f), inspect.signature(f)

    def layout(x: Any, p: dict[str, Any]) -> tuple[tuple[int, ...], list[int], list[int]]:
        shape = np.shape(x)
        if len(shape) < 2 and two_dimensional:
            shape = (1,) * (2 - len(shape)) + tuple(shape)
        ndim = len(shape)
        if two_dimensional:
            axes = [int(a) % ndim for a in p["axes"]]
            N = p["N"]
            lengths = [shape[a] for a in axes] if N is None else ([int(N)] * 2 if np.ndim(N) == 0 else list(N))
        else:
            axes = [int(p["axis"]) % ndim]
            lengths = [shape[axes[0]] if p["N"] is None else int(p["N"])]
        return shape, axes, lengths

    def analytic_rrule(x: Any, *args: Any, **kwargs: Any) -> Any:
        p, call_args, call_kwargs = bind(f, signature, (x, *args), kwargs)
        y = f(*call_args, **call_kwargs)
        project = cotangent_projector(x)
        rest = [NO] * len(args)
        shape, axes, lengths = layout(x, p)

        def analytic_pullback(dy: Any) -> tuple[Any, ...]:
            dy = read_cotangent(dy, y, name)
            if passes_through(dy) or not differentiable(x):
                return (NO, project(dy) if passes_through(dy) else NO, *rest)
            dx = _hilbert_adjoint(np.asarray(dy), shape, axes, lengths, two_dimensional)
            return (NO, project(dx.reshape(np.shape(x))), *rest)

        analytic_pullback.__name__ = analytic_pullback.__qualname__ = f"{short}_pullback"
        return y, analytic_pullback

    def analytic_frule(tangents: Any, x: Any, *args: Any, **kwargs: Any) -> Any:
        _, call_args, call_kwargs = bind(f, signature, (x, *args), kwargs)
        y = f(*call_args, **call_kwargs)
        dx = tangent_array(tangents[1], x) if differentiable(x) else None
        if dx is None or isinstance(dx, NotImplementedTangent):
            return y, output_tangent(dx, y)
        return y, output_tangent(f(np.real(dx), *call_args[1:], **call_kwargs), y)

    analytic_rrule.__name__ = analytic_rrule.__qualname__ = f"{short}_rrule"
    analytic_frule.__name__ = analytic_frule.__qualname__ = f"{short}_frule"
    rrule.register(f, ARRAY, Varargs(object))(analytic_rrule)
    frule.register(f, ARRAY, Varargs(object))(analytic_frule)


_rules(scipy.signal.hilbert, False)
_rules(scipy.signal.hilbert2, True)


# ---- sample inputs ----------------------------------------------------------------------------------
@sample_inputs(scipy.signal.hilbert)
def _hilbert_samples(rng: np.random.Generator) -> list[Sample]:
    x = rng.standard_normal((2, 7))
    return [
        Sample(x, label="odd length"),
        Sample(x[:, :6], label="even length (a Nyquist bin)"),
        Sample(x, 10, label="N pads"),
        Sample(x.T, 4, 0, label="N truncates, axis 0 by position"),
        Sample(x, fkwargs={"N": 9, "axis": -1}, label="by keyword"),
        Sample(x.astype(np.float32), label="float32"),
    ]


@sample_inputs(scipy.signal.hilbert2)
def _hilbert2_samples(rng: np.random.Generator) -> list[Sample]:
    x = rng.standard_normal((4, 5))
    return [
        Sample(x, label="even and odd"),
        Sample(x, 6, label="N pads both"),
        Sample(x, (3, 7), label="N truncates and pads"),
        Sample(rng.standard_normal((2, 4, 3)), fkwargs={"axes": (0, 2)}, label="axes by keyword"),
        Sample(x.astype(np.float32), label="float32"),
    ]
