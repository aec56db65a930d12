"""Convolution and correlation: ``convolve``, ``correlate`` (every ``mode``, ``method``
``"direct"``/``"fft"``/``"auto"``), ``fftconvolve``, ``oaconvolve`` (``axes``, broadcasting),
``convolve2d``, ``correlate2d`` (every ``mode`` and ``boundary``, ``fillvalue``).
``choose_conv_method`` and ``correlation_lags`` are non-differentiable.

The maths
---------
Every function is a window of a full convolution ``y_full = A * B`` of two transformed
inputs: ``A = in1``, ``B = in2`` for the convolutions; ``B = conj(reverse(in2))`` for the
correlations (which conjugate their second input). ``y_full[j] = sum_i A[i] B[j - i]`` is
bilinear, so with the project's complex convention (the adjoint in the real inner product)

``A_bar[i] = sum_t g[i + t] conj(B[t])``  and  ``B_bar[t] = sum_i g[i + t] conj(A[i])``,

where ``g`` is the output cotangent placed in its window of a zero array of the full size.
Both are "valid" correlations, computed directly or by FFT; by FFT the circular correlation
of the full length has no wrap-around for the indices kept, so the transforms are as long as
the full convolution (the primal's) and the cotangent's transform is shared by the two:
``fftconvolve``'s pullback costs five transforms of the primal's length where the primal
costs three. ``in2_bar = conj(reverse(B_bar))`` for the correlations (an antilinear map is
its own adjoint). The windows, checked against every method of SciPy:

* ``"full"``: everything; ``"same"``: the size of ``in1``, from ``(len(in2) - 1) // 2``
  (``correlate2d``: from ``len(in2) // 2``); ``"valid"``: from ``min(n1, n2) - 1``, of
  length ``|n1 - n2| + 1`` (SciPy swaps the inputs when ``in2`` is the larger; the
  convolution is symmetric).
* ``fftconvolve``/``oaconvolve`` convolve along ``axes`` and broadcast the others (equal
  lengths, or one of length 1): along those the "convolution" is a product, and each
  cotangent is summed over the axes its input was broadcast along. ``"same"`` keeps the
  middle of a broadcast axis too (SciPy's ``_centered``).
* ``convolve2d``/``correlate2d`` with ``boundary`` ``"fill"``/``"wrap"``/``"symm"`` convolve
  (in ``"full"`` and ``"same"`` modes) the input extended by ``len(in2) - 1`` samples on
  each side: ``y_full = valid(E(in1) * B)``. The adjoint of the extension ``E`` adds each
  extended sample's cotangent onto the sample it copies (periodically for ``"wrap"``,
  mirrored for ``"symm"``), and ``fillvalue`` (differentiated when given by position) gets
  the sum of the cotangent over the filled samples.
* ``correlate2d`` in ``"valid"`` mode with a larger ``in2`` returns the *conjugate* of the
  correlation (SciPy swaps the inputs and reverses the output but does not conjugate it,
  unlike ``correlate``): ``A = conj(in1)``, ``B = reverse(in2)`` there; the rule follows
  what SciPy computes, and the difference only shows for complex inputs.

The frules push each tangent through the function itself: ``dy = f(d_in1, in2) +
f(in1, d_in2)`` (with ``fillvalue = d_fillvalue`` and ``0`` in the two terms).

Examples
--------
>>> import numpy as np, scipy.signal
>>> import chainrules
>>> y, pullback = chainrules.rrule(scipy.signal.fftconvolve, np.array([1.0, 2.0, 3.0]), np.array([0.0, 1.0]))
>>> [chainrules.unthunk(c) for c in pullback(np.array([1.0, 0.0, 0.0, 0.0]))[1:3]]
[array([0., 0., 0.]), array([1., 0.])]
"""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Sequence
from typing import Any

import numpy as np
import scipy.signal

from chainrules.rulesets.arrays._linear_maps import output_tangent, tangent_array
from chainrules.rulesets.signal._common import (
    NO,
    Extension,
    bind,
    correlate_valid,
    place,
    public_name,
    short_name,
    unbroadcast_to,
)
from chainrules_core import (
    AbstractZero,
    NotImplementedTangent,
    Sample,
    Thunk,
    Varargs,
    ZeroTangent,
    cotangent_projector,
    differentiable,
    frule,
    non_differentiable,
    passes_through,
    read_cotangent,
    rrule,
    sample_inputs,
    unthunk,
)

ZERO = ZeroTangent()
ARRAY = (np.ndarray, list, tuple, float, complex, int, np.number)


@dataclasses.dataclass
class Geometry:
    """Where the output of a convolution sits in the full convolution of its transformed inputs.

    Attributes
    ----------
    axes : list of int
        The convolved axes (the others broadcast).
    full_shape : tuple of int
        The shape of ``A * B`` (``A`` extended for a boundary).
    starts : tuple of int
        The first index of the output in each axis of the full convolution.
    conj_a, reverse_b, conj_b : bool
        ``A = conj(in1)`` if ``conj_a``; ``B = conj(reverse(in2))``... as flagged.
    extensions : list of Extension or None
        For ``convolve2d``/``correlate2d`` with a boundary: one per axis.
    """

    axes: list[int]
    full_shape: tuple[int, ...]
    starts: tuple[int, ...]
    conj_a: bool = False
    reverse_b: bool = False
    conj_b: bool = False
    extensions: list[Extension] | None = None


def _mode_window(n1: int, n2: int, full: int, mode: str, convolved: bool, same_from: int | None = None) -> int:
    if mode == "full":
        return 0
    if mode == "same":
        return (full - n1) // 2 if same_from is None else same_from
    return min(n1, n2) - 1 if convolved else 0


def geometry(f: Any, s1: tuple[int, ...], s2: tuple[int, ...], p: dict[str, Any]) -> Geometry:
    """The :class:`Geometry` of ``f(in1, in2, ...)`` for inputs of shapes ``s1``, ``s2``."""
    mode = p["mode"]
    correlation = f in (scipy.signal.correlate, scipy.signal.correlate2d)
    ndim = len(s1)
    if f in (scipy.signal.fftconvolve, scipy.signal.oaconvolve):
        axes = list(range(ndim)) if p["axes"] is None else [int(a) for a in np.atleast_1d(p["axes"])]
        axes = sorted(a + ndim if a < 0 else a for a in axes)
    else:
        axes = list(range(ndim))
    full, starts = [], []
    for d in range(ndim):
        n1, n2 = s1[d], s2[d]
        convolved = d in axes
        length = n1 + n2 - 1 if convolved else max(n1, n2)
        same_from = n2 // 2 if f is scipy.signal.correlate2d else None
        starts.append(_mode_window(n1, n2, length, mode, convolved, same_from))
        full.append(length)
    g = Geometry(axes, tuple(full), tuple(starts), reverse_b=correlation, conj_b=correlation)
    if f in (scipy.signal.convolve2d, scipy.signal.correlate2d):
        swapped = mode == "valid" and not all(a >= b for a, b in zip(s1, s2))
        if swapped and correlation:  # SciPy reverses but does not conjugate the swapped correlation
            g.conj_a, g.conj_b = True, False
        if mode != "valid":
            g.extensions = [Extension(s1[d], s2[d] - 1, s2[d] - 1, p["boundary"]) for d in range(2)]
            g.full_shape = tuple(s1[d] + 3 * (s2[d] - 1) for d in range(2))
            g.starts = tuple(s2[d] - 1 + g.starts[d] for d in range(2))
    return g


def _transform_b(b: np.ndarray, g: Geometry) -> np.ndarray:
    if g.reverse_b:
        b = b[tuple(slice(None, None, -1) if d in g.axes else slice(None) for d in range(b.ndim))]
    return np.conj(b) if g.conj_b else b


def _method(f: Any, p: dict[str, Any]) -> str:
    if f in (scipy.signal.fftconvolve, scipy.signal.oaconvolve):
        return "fft"
    if f in (scipy.signal.convolve, scipy.signal.correlate):
        return str(p["method"])
    return "auto"


def _conv_rules(f: Any) -> None:
    name, short = public_name(f), short_name(f)
    signature = inspect.signature(f)
    two_d = f in (scipy.signal.convolve2d, scipy.signal.correlate2d)

    def convolution_rrule(in1: Any, in2: Any, *args: Any, **kwargs: Any) -> Any:
        p, call_args, call_kwargs = bind(f, signature, (in1, in2, *args), kwargs)
        y = f(*call_args, **call_kwargs)
        project_1, project_2 = cotangent_projector(in1), cotangent_projector(in2)
        fill_given = two_d and len(args) >= 3
        project_fill = cotangent_projector(args[2]) if fill_given else None
        rest = [NO] * len(args)
        live1, live2 = differentiable(in1), differentiable(in2)
        live_fill = fill_given and differentiable(args[2]) and p["mode"] != "valid" and p["boundary"] == "fill"
        a, b = np.asarray(in1), np.asarray(in2)
        zero_d = a.ndim == 0
        if zero_d:
            a, b = a.reshape(1), b.reshape(1)
        geo = geometry(f, a.shape, b.shape, p)
        method = _method(f, p)

        # each pullback call shares its intermediate results through its own ``cache``
        def full_cotangent(dy: np.ndarray, cache: dict[str, Any]) -> np.ndarray:
            if "g" not in cache:
                cache["g"] = place(np.reshape(dy, np.shape(y) if not zero_d else (1,)), geo.full_shape, geo.starts)
            return cache["g"]

        def a_extended() -> np.ndarray:
            A = np.conj(a) if geo.conj_a else a
            if geo.extensions is not None:
                fill = p["fillvalue"] if p["boundary"] == "fill" else 0
                for d, ext in enumerate(geo.extensions):
                    A = ext.extend(A, d, fill)
            return A

        def a_bar_extended(dy: np.ndarray, cache: dict[str, Any]) -> np.ndarray:
            if "abar" not in cache:
                B = _transform_b(b, geo)
                lengths = [geo.full_shape[d] - B.shape[d] + 1 for d in geo.axes]
                cache["abar"] = correlate_valid(full_cotangent(dy, cache), B, geo.axes, lengths, method)
            return cache["abar"]

        def cotangent_1(dy: np.ndarray, cache: dict[str, Any]) -> Any:
            g = a_bar_extended(dy, cache)
            if geo.extensions is not None:
                for d, ext in enumerate(geo.extensions):
                    g, _ = ext.adjoint(g, d)
            if geo.conj_a:
                g = np.conj(g)
            g = unbroadcast_to(g, a.shape)
            return project_1(g.reshape(np.shape(in1)) if zero_d else g)

        def cotangent_fill(dy: np.ndarray, cache: dict[str, Any]) -> Any:
            g = a_bar_extended(dy, cache)
            total = 0.0
            assert geo.extensions is not None
            for d, ext in enumerate(geo.extensions):  # the filled samples: any axis outside the signal
                g, fill = ext.adjoint(g, d)
                total = total + fill.sum()
            return project_fill(total) if project_fill is not None else NO

        def cotangent_2(dy: np.ndarray, cache: dict[str, Any]) -> Any:
            A = a_extended()
            lengths = [b.shape[d] for d in geo.axes]
            g = correlate_valid(full_cotangent(dy, cache), A, geo.axes, lengths, method)
            g = unbroadcast_to(_transform_b(g, geo), b.shape)
            return project_2(g.reshape(np.shape(in2)) if zero_d else g)

        def convolution_pullback(dy: Any) -> tuple[Any, ...]:
            dy = read_cotangent(dy, y, name)
            cotangents: list[Any] = [NO, NO, NO, *rest]
            if passes_through(dy):
                cotangents[1:3] = [project_1(dy), project_2(dy)]
                if fill_given:
                    cotangents[5] = project_fill(dy)  # type: ignore[misc]
                return tuple(cotangents)
            dy = np.asarray(dy)
            cache: dict[str, Any] = {}
            if live1:
                cotangents[1] = Thunk(lambda: cotangent_1(dy, cache))
            if live2:
                cotangents[2] = Thunk(lambda: cotangent_2(dy, cache))
            if fill_given:
                cotangents[5] = (Thunk(lambda: cotangent_fill(dy, cache)) if live_fill
                                 else project_fill(ZERO))  # type: ignore[misc]
            return tuple(cotangents)

        convolution_pullback.__name__ = convolution_pullback.__qualname__ = f"{short}_pullback"
        return y, convolution_pullback

    def convolution_frule(tangents: Any, in1: Any, in2: Any, *args: Any, **kwargs: Any) -> Any:
        _, call_args, call_kwargs = bind(f, signature, (in1, in2, *args), kwargs)
        y = f(*call_args, **call_kwargs)
        d1 = tangent_array(tangents[1], in1) if differentiable(in1) else None
        d2 = tangent_array(tangents[2], in2) if differentiable(in2) else None
        dfill = None
        if two_d and len(args) >= 3 and differentiable(args[2]):
            t = unthunk(tangents[5])
            if isinstance(t, NotImplementedTangent):
                return y, t
            if not isinstance(t, AbstractZero):
                dfill = t
        for d in (d1, d2):
            if isinstance(d, NotImplementedTangent):
                return y, d
        total: Any = None
        rest_args, rest_kwargs = list(call_args[2:]), dict(call_kwargs)
        if d1 is not None or dfill is not None:
            kind = np.result_type(np.asarray(in1).dtype, np.float64, *([] if dfill is None else [np.asarray(dfill)]))
            first = np.zeros(np.shape(in1), dtype=kind) if d1 is None else d1
            if two_d:
                fill_arguments(rest_args, rest_kwargs, 0 if dfill is None else dfill)
            total = f(first, in2, *rest_args, **rest_kwargs)
        if d2 is not None:
            term = f(in1, d2, *call_args[2:], **call_kwargs)
            total = term if total is None else total + term
        return y, output_tangent(total, y)

    convolution_rrule.__name__ = convolution_rrule.__qualname__ = f"{short}_rrule"
    convolution_frule.__name__ = convolution_frule.__qualname__ = f"{short}_frule"
    rrule.register(f, ARRAY, ARRAY, Varargs(object))(convolution_rrule)
    frule.register(f, ARRAY, ARRAY, Varargs(object))(convolution_frule)


def fill_arguments(args: list[Any], kwargs: dict[str, Any], fill: Any) -> None:
    """Set ``fillvalue`` (the fifth argument of ``convolve2d``) in a call, by position or keyword."""
    if len(args) >= 3:
        args[2] = fill
    else:
        kwargs["fillvalue"] = fill


CONVOLUTIONS = (scipy.signal.convolve, scipy.signal.correlate, scipy.signal.fftconvolve, scipy.signal.oaconvolve,
                scipy.signal.convolve2d, scipy.signal.correlate2d)

for _f in CONVOLUTIONS:
    _conv_rules(_f)

non_differentiable(scipy.signal.choose_conv_method)
non_differentiable(scipy.signal.correlation_lags)


# ---- sample inputs ----------------------------------------------------------------------------------
def _pair(rng: np.random.Generator, s1: Sequence[int], s2: Sequence[int], kind: str = "f") -> tuple[Any, Any]:
    a, b = rng.standard_normal(s1), rng.standard_normal(s2)
    if kind == "c":
        a, b = a + 1j * rng.standard_normal(s1), b - 0.5j * rng.standard_normal(s2)
    return a, b


@sample_inputs(scipy.signal.convolve, scipy.signal.correlate)
def _convolve_samples(rng: np.random.Generator) -> list[Sample]:
    a, b = _pair(rng, (6,), (3,))
    a2, b2 = _pair(rng, (4, 5), (2, 3), "c")
    s, l_ = _pair(rng, (3,), (5,))
    out = [Sample(a, b, label="full, auto")]
    for mode in ("full", "same", "valid"):
        for method in ("direct", "fft"):
            out.append(Sample(a2, b2, mode, method, label=f"complex 2-d, {mode}, {method}"))
    out += [
        Sample(a.astype(np.float32), b.astype(np.float32), "same", label="float32, same"),
        Sample(s, l_, fkwargs={"mode": "valid", "method": "direct"}, label="in2 longer: valid swaps, by keyword"),
        Sample(s, l_, "same", "fft", label="in2 longer, same"),
        Sample(a[:4], b[:2], "same", "direct", label="even kernel, same"),
        Sample(np.array(1.5), np.array(2.0 - 1.0j), label="0-d inputs"),
    ]
    return out


@sample_inputs(scipy.signal.fftconvolve, scipy.signal.oaconvolve)
def _fftconvolve_samples(rng: np.random.Generator) -> list[Sample]:
    a, b = _pair(rng, (9,), (4,))
    a2, b2 = _pair(rng, (3, 7), (1, 3), "c")
    return [
        Sample(a, b, label="full"),
        Sample(a, b, "same", label="same"),
        Sample(b, a, "valid", label="valid, in2 longer"),
        Sample(a.astype(np.float32), b.astype(np.float32), fkwargs={"mode": "same"}, label="float32"),
        Sample(a2, b2, "full", 1, label="complex, axis 1, axis 0 broadcast"),
        Sample(a2, b2, "same", -1, label="complex, same along -1, a broadcast axis kept in the middle"),
        Sample(b2, a2, fkwargs={"mode": "valid", "axes": [1]}, label="valid, in2 longer, by keyword"),
        Sample(a2, b2, "same", label="every axis"),
    ]


@sample_inputs(scipy.signal.convolve2d, scipy.signal.correlate2d)
def _convolve2d_samples(rng: np.random.Generator) -> list[Sample]:
    a, b = _pair(rng, (4, 5), (2, 3))
    ac, bc = _pair(rng, (4, 5), (3, 2), "c")
    out = [Sample(a, b, label="full, fill with zeros")]
    for mode in ("full", "same"):
        for boundary in ("fill", "wrap", "symm"):
            out.append(Sample(ac, bc, mode, boundary, label=f"complex, {mode}, {boundary}"))
    out += [
        Sample(a, b, "same", "fill", 0.75, label="same, a fill value by position (differentiated)"),
        Sample(ac, bc, "full", "fill", 1.5 + 0.5j, label="complex, full, a complex fill value"),
        Sample(a, b, fkwargs={"mode": "same", "boundary": "wrap", "fillvalue": 2.0}, label="by keyword"),
        Sample(a, b, "valid", label="valid"),
        Sample(bc, ac, "valid", label="complex, valid, in2 larger (SciPy conjugates correlate2d)"),
        Sample(a[:2, :2], b.astype(np.float64)[:, :3], "same", "symm", label="in2 wider than in1, symm"),
        Sample(a.astype(np.float32), b.astype(np.float32), "same", "symm", label="float32"),
    ]
    return out


@sample_inputs(scipy.signal.choose_conv_method)
def _choose_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(rng.standard_normal(8), rng.standard_normal(3), "same")]


@sample_inputs(scipy.signal.correlation_lags)
def _lags_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(5, 3), Sample(5, 3, "same")]
