"""Correlations with a boundary mode, their adjoints and the cotangents of their kernels (private).

Every linear filter of ``scipy.ndimage`` (``correlate1d``, ``convolve1d``, the Gaussian,
uniform, Sobel, Prewitt and Laplace filters) is a correlation of the input, extended by its
boundary mode (:mod:`._boundary`), with a kernel, or a chain of such correlations along
different axes (a separable filter), or a sum of chains.

The maths
---------
A :class:`Correlation` of an array ``x`` with the kernel ``v`` (of shape ``L``, one entry
per axis), origins ``o`` and mode ``m`` is

    ``y[i] = sum_k v[k] x_ext[i + k - c]``,   ``c = L // 2 + o``,

where ``x_ext`` is ``x`` extended by ``m`` with ``c`` samples before and ``L - 1 - c`` after
each axis (``NI_Correlate1D`` and ``NI_Correlate`` in ``scipy/ndimage/src/ni_filters.c``
read the line buffer that way). It is linear in ``(x, cval)`` and in ``v``:

* the adjoint in ``(x, cval)`` (the cotangent ``z`` of ``y`` given) is the transposed
  correlation followed by the adjoint of the extension: ``u[j] = sum_k conj(v[k]) z[j - k + c]``
  over the extended positions ``j``, computed as a correlation of ``z`` zero-padded to the
  extended shape with the kernel ``conj(v)`` reversed (origin ``L - 1 - c - L // 2``) in the
  ``constant`` mode, then folded back onto ``x`` and ``cval`` (:func:`._boundary.fold`). It costs
  one correlation of the same kernel, as the primal;
* the cotangent of the kernel is ``vbar[k] = sum_i conj(x_ext[i + k - c]) z[i]``: the
  ``valid`` correlation of the extended input with ``z`` (``scipy.signal.correlate``, which
  picks the direct or the FFT method by cost).

The kernel here is the one applied, without conjugation: ``scipy.ndimage.correlate1d``
conjugates complex weights (``v = conj(w)``), ``convolve1d`` reverses them (``v = w[::-1]``,
origin ``-o``, one less for an even length); the rules map ``vbar`` back to the weights.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import scipy.ndimage as ndi

from chainrules.rulesets.ndimage._boundary import extend, filter_mode, fold, source_indices

__all__ = ["Correlation", "Separable", "Uniform", "chain_pushforward", "chain_transpose", "kernel_cotangent"]


class Correlation:
    """``y[i] = sum_k kernel[k] x_ext[i + k - c]`` along ``axes`` with one boundary mode.

    ``kernel`` has one axis per entry of ``axes`` (a 1-d kernel along one axis is the
    common case); ``origins`` has one entry per axis of ``axes``.

    Examples
    --------
    >>> step = Correlation(np.array([1.0, 2.0, 0.0]), (0,), "constant", (0,))
    >>> x = np.array([1.0, 1.0, 1.0])
    >>> step.apply(x)
    array([1., 3., 3.])
    >>> step.transpose(np.array([1.0, 0.0, 0.0]))       # the adjoint: to x and to cval
    (array([2., 0., 0.]), np.float64(1.0))
    """

    __slots__ = ("axes", "kernel", "mode", "origins")

    def __init__(self, kernel: np.ndarray, axes: Sequence[int], mode: str, origins: Sequence[int]) -> None:
        self.kernel = np.asarray(kernel)
        self.axes = tuple(axes)
        self.mode = mode
        self.origins = tuple(int(o) for o in origins)

    def _centers(self) -> list[int]:
        return [n // 2 + o for n, o in zip(self.kernel.shape, self.origins)]

    def apply(self, x: np.ndarray, cval: Any = 0.0, output: Any = None) -> np.ndarray:
        """The correlation, by ``scipy.ndimage`` (which conjugates complex weights: undone here)."""
        weights = np.conj(self.kernel) if np.iscomplexobj(self.kernel) else self.kernel
        if len(self.axes) == 1 and self.kernel.ndim == 1:
            return ndi.correlate1d(x, weights, self.axes[0], output, self.mode, cval, self.origins[0])
        full = _expanded(weights, self.axes, x.ndim)
        origins = [0] * x.ndim
        for axis, o in zip(self.axes, self.origins):
            origins[axis] = o
        return ndi.correlate(x, full, output, self.mode, cval, origins)

    def transpose(self, z: np.ndarray) -> tuple[np.ndarray, Any]:
        """The adjoint in ``(x, cval)``: the cotangent of ``x`` and that of ``cval`` (``None``
        unless the mode is ``constant``)."""
        if self.kernel.ndim == 1:
            return self._transpose_1d(z)
        centers = self._centers()
        shape = list(z.shape)
        inner: list[Any] = [slice(None)] * z.ndim
        for axis, L, c in zip(self.axes, self.kernel.shape, centers):
            shape[axis] = z.shape[axis] + L - 1
            inner[axis] = slice(c, c + z.shape[axis])
        padded = np.zeros(shape, dtype=z.dtype)
        padded[tuple(inner)] = z
        flipped = np.conj(self.kernel[(slice(None, None, -1),) * self.kernel.ndim])
        transposed = type(self)(flipped, self.axes, "constant",
                                [L - 1 - c - L // 2 for L, c in zip(self.kernel.shape, centers)])
        u = transposed.apply(padded, 0.0)
        if filter_mode(self.mode) == "constant":
            return u[tuple(inner)].copy(), outside_sum(u, inner)
        for axis, c in zip(self.axes, centers):
            u, _ = fold(u, axis, c, z.shape[axis], self.mode)
        return u, None

    def _transpose_1d(self, z: np.ndarray) -> tuple[np.ndarray, Any]:
        """The adjoint of a 1-d correlation without padding the whole cotangent.

        The transposed correlation over the line itself is the correlation of ``z`` with the
        reversed, conjugated kernel in the ``constant`` mode (``z`` is zero outside the line).
        Only the ``c`` extended positions before the line and the ``L - 1 - c`` after it are
        missing; those read ``z`` within a kernel length of each end, so they are computed from
        two thin slabs. Their values are then folded onto the line (or summed for ``cval``).
        """
        axis, L = self.axes[0], self.kernel.size
        c = self._centers()[0]
        after = L - 1 - c
        n = z.shape[axis]
        flipped = type(self)(np.conj(self.kernel[::-1]), self.axes, "constant", (L - 1 - c - L // 2,))
        inner = flipped.apply(z, 0.0)
        moved_z = np.moveaxis(z, axis, 0)
        edges = []
        if c:
            m = min(n, c)
            slab = np.zeros((c + m, *moved_z.shape[1:]), dtype=z.dtype)
            slab[c:] = moved_z[:m]
            edges.append((np.arange(c), np.moveaxis(flipped.apply(np.moveaxis(slab, 0, axis), 0.0), axis, 0)[:c]))
        if after:
            m = min(n, after)
            slab = np.zeros((m + after, *moved_z.shape[1:]), dtype=z.dtype)
            slab[:m] = moved_z[n - m:]
            values = np.moveaxis(flipped.apply(np.moveaxis(slab, 0, axis), 0.0), axis, 0)[m:]
            edges.append((np.arange(c + n, c + n + after), values))
        if filter_mode(self.mode) == "constant":
            pad = sum((values.sum() for _, values in edges), start=inner.dtype.type(0))
            return inner, pad
        if edges:
            index = source_indices(n, c, after, self.mode)
            target = np.moveaxis(inner, axis, 0)  # a view: the sums land in ``inner``
            for positions, values in edges:
                for p, value in zip(positions, values):
                    target[index[p]] += value
        return inner, None

    def extended(self, x: np.ndarray, cval: Any) -> np.ndarray:
        """``x`` extended along ``axes`` by the mode, as the correlation reads it."""
        for axis, L, c in zip(self.axes, self.kernel.shape, self._centers()):
            x = extend(x, axis, c, L - 1 - c, self.mode, cval)
        return x


class Uniform(Correlation):
    """A 1-d correlation with the uniform kernel ``ones(size) / size``, run by ``uniform_filter1d``
    (a running sum: its cost does not grow with the size).

    Examples
    --------
    >>> Uniform.of(3, 0, "nearest", 0).apply(np.array([0.0, 3.0, 6.0]))
    array([1., 3., 5.])
    """

    __slots__ = ()

    @classmethod
    def of(cls, size: int, axis: int, mode: str, origin: int) -> Uniform:
        return cls(np.full(int(size), 1.0 / int(size)), (axis,), mode, (origin,))

    def apply(self, x: np.ndarray, cval: Any = 0.0, output: Any = None) -> np.ndarray:
        return ndi.uniform_filter1d(x, self.kernel.size, self.axes[0], output, self.mode, cval, self.origins[0])


def outside_sum(u: np.ndarray, inner: Sequence[Any]) -> Any:
    """The sum of ``u`` outside the box ``inner`` (one slice per axis), summed over disjoint frames
    rather than as ``u.sum() - u[inner].sum()``, which would cancel.

    Examples
    --------
    >>> outside_sum(np.ones((4, 5)), (slice(1, 3), slice(1, 4)))
    np.float64(14.0)
    """
    total: Any = 0
    for a, box in enumerate(inner):
        head = tuple(inner[:a])
        n = u.shape[a]
        start, stop, _ = box.indices(n)
        for part in (slice(0, start), slice(stop, n)):
            if part.stop > part.start:
                total = total + u[head + (part,)].sum()
    return total if not isinstance(total, int) else u.dtype.type(0)


def _expanded(kernel: np.ndarray, axes: Sequence[int], ndim: int) -> np.ndarray:
    """A kernel over ``axes`` as one of ``ndim`` axes (length one along the others)."""
    if kernel.ndim == ndim and tuple(axes) == tuple(range(ndim)):
        return kernel
    order = np.argsort(axes)
    moved = np.transpose(kernel, order)
    shape = [1] * ndim
    for axis, n in zip(sorted(axes), moved.shape):
        shape[axis] = n
    return moved.reshape(shape)


def kernel_cotangent(step: Correlation, x: np.ndarray, cval: Any, z: np.ndarray) -> np.ndarray:
    """``vbar[k] = sum_i conj(x_ext[i + k - c]) z[i]``, of the kernel's shape.

    Examples
    --------
    >>> step = Correlation(np.array([0.0, 1.0, 0.0]), (0,), "wrap", (0,))
    >>> kernel_cotangent(step, np.array([1.0, 2.0, 3.0]), 0.0, np.array([1.0, 0.0, 0.0]))
    array([3., 1., 2.])
    """
    from scipy.signal import correlate

    x_ext = step.extended(np.asarray(x), cval)
    r = correlate(x_ext, z, mode="valid")  # r[k] = sum_i x_ext[i + k] conj(z[i])
    r = np.conj(r) if np.iscomplexobj(r) else r
    # r has length one along the axes the kernel does not cover; its axes in the kernel's order
    r = r.reshape([r.shape[a] for a in sorted(step.axes)])
    return np.transpose(r, np.argsort(step.axes)) if r.ndim > 1 else r


def chain_transpose(steps: Sequence[Correlation], z: np.ndarray, keep: bool = False
                    ) -> tuple[np.ndarray, Any, list[np.ndarray]]:
    """The adjoint of ``steps`` applied one after the other (a separable filter).

    Returns the cotangent of the input, that of ``cval`` (summed over the steps with the
    ``constant`` mode, ``None`` if none has it) and, with ``keep``, the cotangent of each
    step's output (first step first).
    """
    cval_bar: Any = None
    outputs = []
    for step in reversed(steps):
        if keep:
            outputs.append(z)
        z, pad = step.transpose(z)
        if pad is not None:
            cval_bar = pad if cval_bar is None else cval_bar + pad
    outputs.reverse()
    return z, cval_bar, outputs


def chain_pushforward(steps: Sequence[Correlation], x: np.ndarray, cval: Any, dx: Any, dcval: Any,
                      dkernels: Sequence[Any] | None = None, dtype: Any = None) -> Any:
    """The tangent of ``steps`` applied in turn to ``x``, for tangents of ``x``, ``cval`` and the kernels.

    ``dx``, ``dcval`` and each entry of ``dkernels`` are ``None`` for a zero; returns
    ``None`` if all are. ``dtype`` is the dtype of the primal's intermediate results (the
    output's, as ``scipy.ndimage`` keeps them).
    """
    dkernels = [None] * len(steps) if dkernels is None else list(dkernels)
    if dx is None and dcval is None and all(d is None for d in dkernels):
        return None
    u, du = x, dx
    for step, dk in zip(steps, dkernels):
        terms = []
        if du is not None or dcval is not None:
            base = du if du is not None else np.zeros(u.shape, np.result_type(_tangent_kind(u), dcval))
            terms.append(step.apply(base, 0.0 if dcval is None else dcval))
        if dk is not None:
            terms.append(Correlation(dk, step.axes, step.mode, step.origins).apply(u, cval, _widened(u, dtype)))
        du = terms[0] if len(terms) == 1 else (terms[0] + terms[1] if terms else None)
        if step is not steps[-1]:
            u = step.apply(u, cval, dtype)
    return du


def _tangent_kind(u: np.ndarray) -> np.dtype:
    """The dtype of a tangent of ``u``: its own when floating or complex, else float64."""
    return u.dtype if u.dtype.kind in "fc" else np.dtype(np.float64)


class Separable:
    """Correlations applied one after the other (a separable filter).

    ``dkernels[j]`` is the derivative of step ``j``'s kernel in the parameter ``slots[j]``
    (the ``sigma`` of its axis: several steps may share one), ``None`` where there is none.

    Examples
    --------
    >>> blur = Separable([Correlation(np.array([0.5, 0.5, 0.0]), (0,), "nearest", (0,))])
    >>> blur.apply(np.array([0.0, 2.0]), 0.0), blur.transpose(np.array([1.0, 0.0]))[0]
    (array([0., 1.]), array([1., 0.]))
    """

    __slots__ = ("dkernels", "slots", "steps")

    def __init__(self, steps: Sequence[Correlation], dkernels: Sequence[Any] | None = None,
                 slots: Sequence[int] | None = None) -> None:
        self.steps = list(steps)
        self.dkernels = list(dkernels) if dkernels is not None else [None] * len(self.steps)
        self.slots = list(slots) if slots is not None else [0] * len(self.steps)

    def apply(self, x: np.ndarray, cval: Any, dtype: Any = None) -> np.ndarray:
        for step in self.steps:
            x = step.apply(x, cval, dtype)
        return x

    def transpose(self, z: np.ndarray) -> tuple[np.ndarray, Any, list[np.ndarray]]:
        """The cotangents of the input and of ``cval`` (``None`` if no step reads it), and the
        cotangent of each step's output (what :meth:`parameter_cotangent` needs)."""
        return chain_transpose(self.steps, z, keep=True)

    def parameter_cotangent(self, x: np.ndarray, cval: Any, outputs: list[np.ndarray], n: int,
                            dtype: Any = None) -> np.ndarray:
        """The cotangents of the ``n`` parameters: ``sum_j Re <corr(u_j, dkernel_j), z_j>`` over the
        steps, ``u_j`` the input of step ``j`` and ``z_j = outputs[j]`` the cotangent of its output
        (from :meth:`transpose`)."""
        out = np.zeros(n)
        if all(d is None for d in self.dkernels):
            return out
        u = x
        for step, dk, slot, zj in zip(self.steps, self.dkernels, self.slots, outputs):
            if dk is not None:
                du = Correlation(dk, step.axes, step.mode, step.origins).apply(u, cval, _widened(u, dtype))
                out[slot] += np.real(np.vdot(du, zj))
            if step is not self.steps[-1]:
                u = step.apply(u, cval, dtype)
        return out

    def pushforward(self, x: np.ndarray, cval: Any, dx: Any, dcval: Any, dparams: Any,
                    dtype: Any = None) -> Any:
        """The output tangent (``None`` if every tangent is), ``dparams`` one per parameter or ``None``."""
        dkernels = None
        if dparams is not None:
            dparams = np.atleast_1d(np.asarray(dparams, dtype=np.float64))
            dkernels = [None if dk is None else dk * dparams[slot] for dk, slot in zip(self.dkernels, self.slots)]
        return chain_pushforward(self.steps, x, cval, dx, dcval, dkernels, dtype)


def _widened(u: np.ndarray, dtype: Any) -> Any:
    """The output dtype of a derivative term: the intermediates' dtype, never an integer one."""
    if dtype is not None and np.dtype(dtype).kind in "fc":
        return dtype
    return _tangent_kind(u)
