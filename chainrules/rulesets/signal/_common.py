"""Helpers shared by the ``scipy.signal`` rules (private).

* calling the function under a rule: :func:`bind` (arguments by name, defaults filled in,
  ``overwrite_*`` flags off);
* the geometry of a convolution: :func:`place` (an output cotangent put back into the full
  convolution), :func:`correlate_valid` (the adjoint of a full convolution with respect to
  one operand: a correlation with the other, by FFT or directly, batched over broadcast axes);
* signal extensions (``numpy.pad`` modes, SciPy's ``odd``/``even``/``constant``
  extensions): :class:`Extension`, which extends along an axis and applies the adjoint
  (folds the extended cotangent back onto the signal).
"""

from __future__ import annotations

import inspect
from collections.abc import Sequence
from typing import Any

import numpy as np
import scipy.fft

from chainrules.rulesets.fft._common import bind_call, public_name
from chainrules_core import NoTangent, unbroadcast

NO = NoTangent()

__all__ = ["NO", "Extension", "bind", "correlate_valid", "place", "public_name", "short_name", "unbroadcast_to"]


def short_name(f: Any) -> str:
    """The last part of :func:`public_name` (names pullbacks: ``lfilter_pullback``)."""
    return public_name(f).rsplit(".", 1)[-1]


def bind(f: Any, signature: inspect.Signature, args: tuple[Any, ...],
         kwargs: dict[str, Any]) -> tuple[dict[str, Any], tuple[Any, ...], dict[str, Any]]:
    """``f(*args, **kwargs)``'s arguments by name (defaults filled in), and the call to make
    (``overwrite_x``/``overwrite_data`` off: no rule lets the primal write into its input)."""
    return bind_call(f, signature, args[0], args[1:], kwargs)


def unbroadcast_to(g: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """``g`` summed over the axes where an input of ``shape`` was broadcast."""
    if g.shape == tuple(shape):
        return g
    return np.asarray(unbroadcast(g, tuple(shape)))


def place(g: np.ndarray, full_shape: Sequence[int], starts: Sequence[int]) -> np.ndarray:
    """``g`` put at ``starts`` in zeros of ``full_shape`` (the adjoint of taking that window).

    Examples
    --------
    >>> place(np.ones(2), (4,), (1,))
    array([0., 1., 1., 0.])
    """
    if tuple(g.shape) == tuple(full_shape):
        return g
    out = np.zeros(tuple(full_shape), dtype=np.result_type(g.dtype, np.float32))
    out[tuple(slice(s, s + n) for s, n in zip(starts, g.shape))] = g
    return out


def _fft_correlate_valid(g: np.ndarray, k: np.ndarray, axes: Sequence[int], lengths: Sequence[int],
                         workers: Any = None) -> np.ndarray:
    """``out[i] = sum_t g[i + t] conj(k[t])`` along ``axes`` for ``0 <= i < lengths``, by FFT.

    A circular correlation of FFT length ``>= g``'s length has no wrap-around for these
    ``i`` (``i + t <= len(g) - 1``), so the transform is as long as ``g``, the full
    convolution, not ``len(g) + len(k)``. Other axes broadcast.
    """
    axes = list(axes)
    real = g.dtype.kind != "c" and k.dtype.kind != "c"
    shape = [scipy.fft.next_fast_len(g.shape[a], real) for a in axes]
    if real:
        spectrum = scipy.fft.rfftn(g, shape, axes=axes, workers=workers)
        spectrum *= np.conj(scipy.fft.rfftn(k, shape, axes=axes, workers=workers))
        out = scipy.fft.irfftn(spectrum, shape, axes=axes, workers=workers, overwrite_x=True)
    else:
        spectrum = scipy.fft.fftn(g, shape, axes=axes, workers=workers)
        spectrum *= np.conj(scipy.fft.fftn(k, shape, axes=axes, workers=workers))
        out = scipy.fft.ifftn(spectrum, shape, axes=axes, workers=workers, overwrite_x=True)
    index = [slice(None)] * out.ndim
    for a, n in zip(axes, lengths):
        index[a] = slice(0, n)
    return out[tuple(index)]


def correlate_valid(g: np.ndarray, k: np.ndarray, axes: Sequence[int], lengths: Sequence[int],
                    method: str = "auto") -> np.ndarray:
    """The adjoint of a full convolution with ``k``: ``out[i] = sum_t g[i + t] conj(k[t])``.

    ``g`` is the cotangent of the full convolution (of length ``n + len(k) - 1`` along
    ``axes``), ``lengths`` the lengths ``n`` of the other operand. ``method`` is
    ``"fft"``, ``"direct"`` (only when every axis is convolved) or ``"auto"``
    (``scipy.signal.choose_conv_method``'s choice).

    Examples
    --------
    >>> correlate_valid(np.array([0.0, 1.0, 0.0, 0.0]), np.array([1.0, 2.0]), [0], [3], "direct")
    array([2., 1., 0.])
    """
    import scipy.signal

    every_axis = len(axes) == g.ndim and all(g.shape[a] - k.shape[a] + 1 == n for a, n in zip(axes, lengths))
    if method == "auto" and every_axis:
        method = scipy.signal.choose_conv_method(g, k, mode="valid")
    if method == "direct" and every_axis:
        return np.asarray(scipy.signal.correlate(g, k, mode="valid", method="direct"))
    return _fft_correlate_valid(g, k, axes, lengths)


class Extension:
    """A signal extended along one axis: ``before`` samples before it, ``after`` after it.

    Every extended sample is a linear combination of at most two samples of the signal, or
    a constant. Modes: the ``numpy.pad`` modes ``"constant"``, ``"edge"``, ``"reflect"``,
    ``"symmetric"``, ``"wrap"`` (SciPy's ``"symm"``, ``"fill"``, ``"zeros"``, ``"even"``,
    ``"const"`` are read as their ``numpy.pad`` names); ``"odd"`` and ``"antireflect"``
    (``2 x[edge] - x[mirrored]``, ``scipy.signal``'s odd extension and ``numpy.pad``'s
    ``reflect_type="odd"``); ``"antisymmetric"`` (the signal followed by its negated
    reversal, repeated); ``"smooth"`` (continued along the slope of the two end samples);
    ``"line"`` (the line through the first and the last sample); the last four are
    ``upfirdn``'s. The adjoint adds each extended sample's cotangent back onto the samples
    it combines (with their weights), and the cotangent of the constant is the sum over the
    samples it fills.

    Examples
    --------
    >>> e = Extension(4, 2, 1, "symmetric")
    >>> e.extend(np.arange(4.0), axis=0)
    array([1., 0., 0., 1., 2., 3., 3.])
    >>> e.adjoint(np.ones(7), axis=0)[0]
    array([2., 2., 1., 2.])
    >>> Extension(3, 2, 2, "line").extend(np.array([1.0, 2.0, 5.0]), axis=0)
    array([-3., -1.,  1.,  2.,  5.,  7.,  9.])
    """

    def __init__(self, n: int, before: int, after: int, mode: str) -> None:
        mode = {"symm": "symmetric", "fill": "constant", "zeros": "constant", "even": "reflect",
                "const": "edge", "odd": "antireflect"}.get(mode, mode)
        self.n, self.before, self.after, self.mode = n, before, after, mode
        positions = np.arange(-before, n + after)
        self.filled = np.zeros(positions.size, bool)
        self.index = np.clip(positions, 0, n - 1)
        self.weight = np.ones(positions.size)
        self.index2 = np.zeros(positions.size, int)
        self.weight2 = np.zeros(positions.size)
        self.dense: np.ndarray | None = None
        left, right = positions < 0, positions >= n
        if mode == "constant":
            self.filled = left | right
        elif mode in ("edge", "reflect", "symmetric", "wrap"):
            self.index = np.pad(np.arange(n), (before, after), mode=mode)  # type: ignore[call-overload]
        elif mode == "antisymmetric":
            q = np.mod(positions, 2 * n)
            self.index = np.where(q < n, q, 2 * n - 1 - q)
            self.weight = np.where(q < n, 1.0, -1.0)
        elif mode == "antireflect":
            if before <= n - 1 and after <= n - 1:
                self.index = np.where(left, -positions, np.where(right, 2 * (n - 1) - positions, positions))
                self.weight = np.where(left | right, -1.0, 1.0)
                self.index2 = np.where(left, 0, n - 1)
                self.weight2 = np.where(left | right, 2.0, 0.0)
            else:  # reflections of reflections: the coefficients, from numpy.pad of the identity
                self.dense = np.pad(np.eye(n), ((before, after), (0, 0)), mode="reflect", reflect_type="odd")
        elif mode == "smooth":
            d = np.where(left, positions, positions - (n - 1))
            if n > 1:
                self.index = np.where(left, 0, np.where(right, n - 1, positions))
                self.weight = np.where(left | right, 1.0 + np.abs(d), 1.0)
                self.index2 = np.where(left, 1, n - 2)
                self.weight2 = np.where(left | right, -np.abs(d), 0.0)
        elif mode == "line":
            if n > 1:
                t = positions / (n - 1)  # x[0] (1 - t) + x[n-1] t, continued
                self.index = np.where(left | right, 0, positions)
                self.weight = np.where(left | right, 1.0 - t, 1.0)
                self.index2 = np.full(positions.size, n - 1)
                self.weight2 = np.where(left | right, t, 0.0)
        else:
            raise ValueError(f"unknown extension mode {mode!r}")
        self.index = self.index.astype(int)

    def _pads(self) -> np.ndarray:
        """The positions (in the extended signal) of the extended samples."""
        total = self.n + self.before + self.after
        return np.r_[0:self.before, self.before + self.n:total]

    def extend(self, x: np.ndarray, axis: int, fill: Any = 0) -> np.ndarray:
        """``x`` extended along ``axis`` (``fill``: the constant of ``"constant"``)."""
        if self.dense is not None:
            return np.moveaxis(np.tensordot(self.dense, np.moveaxis(x, axis, 0), axes=1), 0, axis)
        x = np.moveaxis(x, axis, 0)
        pads = self._pads()
        lift = (slice(None),) + (None,) * (x.ndim - 1)
        dtype = np.result_type(x, np.asarray(fill)) if self.filled.any() else x.dtype
        values = x[self.index[pads]] * self.weight[pads][lift].astype(x.real.dtype)
        if self.weight2[pads].any():
            values = values + x[self.index2[pads]] * self.weight2[pads][lift].astype(x.real.dtype)
        values = np.where(self.filled[pads][lift], np.asarray(fill, dtype=dtype), values.astype(dtype))
        out = np.concatenate([values[:self.before], x.astype(dtype, copy=False), values[self.before:]], axis=0)
        return np.moveaxis(out, 0, axis)

    def adjoint(self, g: np.ndarray, axis: int) -> tuple[np.ndarray, Any]:
        """The cotangents of the signal and of the constant, from that of the extended signal."""
        g = np.moveaxis(g, axis, 0)
        if self.dense is not None:
            out = np.tensordot(self.dense.T, g, axes=1)
            return np.moveaxis(out, 0, axis), np.zeros(g.shape[1:], dtype=g.dtype)
        out = np.array(g[self.before:self.before + self.n])  # the signal's own samples: the identity
        pads = self._pads()
        kept = pads[~self.filled[pads]]
        lift = (slice(None),) + (None,) * (g.ndim - 1)
        np.add.at(out, self.index[kept], g[kept] * self.weight[kept][lift].astype(g.real.dtype))
        second = kept[self.weight2[kept] != 0]
        if second.size:
            np.add.at(out, self.index2[second], g[second] * self.weight2[second][lift].astype(g.real.dtype))
        filled = pads[self.filled[pads]]
        fill = g[filled].sum(axis=0) if filled.size else np.zeros(g.shape[1:], dtype=g.dtype)
        return np.moveaxis(out, 0, axis), fill
