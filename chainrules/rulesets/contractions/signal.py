"""``np.convolve`` and ``np.correlate`` in every mode (``'full'``, ``'same'``, ``'valid'``, or
NumPy's numbers 2, 1, 0 for them), real and complex.

The maths
---------
Every mode is a window ``[s, s + L)`` of the full discrete convolution
``y_full[j] = sum_i a[i] w[j - i]``, with ``w = v`` for ``convolve`` and
``w = conj(v[::-1])`` for ``correlate`` (which conjugates its second argument). With
``n1 >= n2`` the longer and shorter lengths: ``'full'`` is ``s = 0``, ``L = n1 + n2 - 1``;
``'valid'`` is ``s = n2 - 1``, ``L = n1 - n2 + 1``; ``'same'`` is ``L = n1`` and
``s = (n2 - 1) // 2``, except for ``correlate`` with ``len(a) < len(v)``, where NumPy
swaps the inputs and reverses the result, which gives ``s = n2 // 2``.

The full convolution is bilinear, and its adjoint with respect to each input is a
correlation with the other input (a correlation conjugates, as the adjoint must):
``da = correlate(dy_full, w, 'valid')`` and ``dw = correlate(dy_full, a, 'valid')``, where
``dy_full`` is the output cotangent placed in the window of a zero array of the full
length. For ``correlate``, ``v`` enters through the antilinear map ``w = conj(v[::-1])``, so
``dv = conj(dw[::-1])``. Each cotangent is one direct correlation, the same cost as the
primal.

Scalars are treated as length-1 sequences, as NumPy does.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from chainrules.rulesets.contractions._multilinear import lazy_cotangent, sum_tangents
from chainrules.rulesets.reductions._tangent_values import passed_on, tangent_value
from chainrules_core import (
    NUMERIC,
    NoTangent,
    ProjectTo,
    Sample,
    cotangent_projector,
    frule,
    passes_through,
    read_cotangent,
    rrule,
    sample_inputs,
)
from chainrules_core.scalar_rules import conj_if_complex

_MODE_CODES = {"valid": 0, "same": 1, "full": 2}


def _mode_code(mode: Any) -> int:
    """NumPy's mode number: 0 valid, 1 same, 2 full (NumPy also accepts the numbers)."""
    if isinstance(mode, str):
        return _MODE_CODES[mode]
    return int(mode)


def output_window(n_a: int, n_v: int, mode: Any, correlate: bool) -> tuple[int, int]:
    """Start and length of the window of the full convolution that ``mode`` returns.

    Examples
    --------
    >>> output_window(5, 3, "same", correlate=False), output_window(5, 3, "valid", correlate=False)
    ((1, 5), (2, 3))
    >>> output_window(2, 4, "same", correlate=True)
    (1, 4)
    """
    n1, n2 = max(n_a, n_v), min(n_a, n_v)
    code = _mode_code(mode)
    if code == 2:
        return 0, n1 + n2 - 1
    if code == 0:
        return n2 - 1, n1 - n2 + 1
    if correlate and n_a < n_v:
        return n2 // 2, n1
    return (n2 - 1) // 2, n1


def _full_cotangent(dy: Any, n_a: int, n_v: int, mode: Any, correlate: bool) -> np.ndarray:
    """The output cotangent placed in its window of a zero array of the full length."""
    dy = np.asarray(dy)
    start, length = output_window(n_a, n_v, mode, correlate)
    full_length = n_a + n_v - 1
    if start == 0 and length == full_length:
        return dy
    full = np.zeros(full_length, dtype=dy.dtype)
    full[start:start + length] = dy
    return full


def _signal_rrule(f: Any, a: Any, v: Any, mode: Any, correlate: bool) -> tuple[Any, Any, Any, Any, Any]:
    """The shared part of the two rules: output, projectors, inputs as 1-d arrays and their lengths."""
    y = f(a, v, mode)
    a1, v1 = np.atleast_1d(a), np.atleast_1d(v)
    return y, cotangent_projector(a), cotangent_projector(v), a1, v1


@rrule.register(np.convolve, NUMERIC, NUMERIC)
def convolve_rrule(a: Any, v: Any, mode: Any = "full") -> Any:
    """Reverse rule of ``np.convolve(a, v, mode)``: correlations of the padded cotangent with ``v`` and ``a``.

    Examples
    --------
    >>> from chainrules import unthunk
    >>> y, pullback = rrule(np.convolve, np.array([1.0, 2.0, 3.0]), np.array([0.0, 1.0]))
    >>> tuple(map(unthunk, pullback(np.array([1.0, 0.0, 0.0, 0.0]))[1:3]))
    (array([0., 0., 0.]), array([1., 0.]))
    """
    y, project_a, project_v, a1, v1 = _signal_rrule(np.convolve, a, v, mode, correlate=False)

    def convolve_pullback(dy: Any) -> tuple[Any, ...]:
        dy = read_cotangent(dy, y, np.convolve)
        if passes_through(dy):
            zero = passed_on(dy)
            return NoTangent(), project_a(zero), project_v(zero), NoTangent()
        dy_full = _full_cotangent(dy, a1.size, v1.size, mode, correlate=False)
        da = lazy_cotangent(project_a, lambda: np.correlate(dy_full, v1, "valid"))
        dv = lazy_cotangent(project_v, lambda: np.correlate(dy_full, a1, "valid"))
        return NoTangent(), da, dv, NoTangent()

    return y, convolve_pullback


@rrule.register(np.correlate, NUMERIC, NUMERIC)
def correlate_rrule(a: Any, v: Any, mode: Any = "valid") -> Any:
    """Reverse rule of ``np.correlate(a, v, mode)`` (which conjugates ``v``).

    Examples
    --------
    >>> from chainrules import unthunk
    >>> y, pullback = rrule(np.correlate, np.array([1.0, 2.0, 3.0]), np.array([0.0, 1.0]))
    >>> tuple(map(unthunk, pullback(np.array([1.0, 0.0]))[1:3]))
    (array([0., 1., 0.]), array([1., 2.]))
    """
    y, project_a, project_v, a1, v1 = _signal_rrule(np.correlate, a, v, mode, correlate=True)

    def correlate_pullback(dy: Any) -> tuple[Any, ...]:
        dy = read_cotangent(dy, y, np.correlate)
        if passes_through(dy):
            zero = passed_on(dy)
            return NoTangent(), project_a(zero), project_v(zero), NoTangent()
        dy_full = _full_cotangent(dy, a1.size, v1.size, mode, correlate=True)
        # y is the full convolution of a with w = conj(v[::-1]), windowed
        da = lazy_cotangent(project_a, lambda: np.correlate(dy_full, conj_if_complex(v1[::-1]), "valid"))
        dv = lazy_cotangent(project_v, lambda: np.conj(np.correlate(dy_full, a1, "valid")[::-1]))
        return NoTangent(), da, dv, NoTangent()

    return y, correlate_pullback


def _signal_tangent(f: Any, tangents: Any, a: Any, v: Any, mode: Any, y: Any) -> Any:
    """``f(da, v, mode) + f(a, dv, mode)``: both functions are linear in each argument over the reals."""
    da, dv = tangent_value(tangents[1]), tangent_value(tangents[2])
    terms = (None if da is None else f(da, v, mode), None if dv is None else f(a, dv, mode))
    return sum_tangents(terms, ProjectTo(y))


@frule.register(np.convolve, NUMERIC, NUMERIC)
def convolve_frule(tangents: Any, a: Any, v: Any, mode: Any = "full") -> Any:
    """Forward rule of ``np.convolve``: ``convolve(da, v, mode) + convolve(a, dv, mode)``.

    Examples
    --------
    >>> frule((NoTangent(), np.ones(2), np.zeros(2)), np.convolve, np.ones(2), np.ones(2))[1]
    array([1., 2., 1.])
    """
    y = np.convolve(a, v, mode)
    return y, _signal_tangent(np.convolve, tangents, a, v, mode, y)


@frule.register(np.correlate, NUMERIC, NUMERIC)
def correlate_frule(tangents: Any, a: Any, v: Any, mode: Any = "valid") -> Any:
    """Forward rule of ``np.correlate``: ``correlate(da, v, mode) + correlate(a, dv, mode)``.

    Examples
    --------
    >>> frule((NoTangent(), np.ones(3), np.zeros(2)), np.correlate, np.ones(3), np.ones(2))[1]
    array([2., 2.])
    """
    y = np.correlate(a, v, mode)
    return y, _signal_tangent(np.correlate, tangents, a, v, mode, y)


# ---- sample inputs ----------------------------------------------------------------------------------
def _signal_samples(rng: np.random.Generator, default: str) -> list[Sample]:
    a, v = rng.standard_normal(5), rng.standard_normal(3)
    return [Sample(a, v, label=f"mode {default!r} (the default)"), Sample(a, v, "full", label="'full' by position"),
            Sample(a, v, fkwargs={"mode": "same"}, label="'same' by keyword"), Sample(a, v, "valid", label="'valid'"),
            Sample(v, a, "same", label="the shorter input first"), Sample(a, v, 1, label="NumPy's mode number"),
            Sample(a.astype(np.float32), v.astype(np.float32), label="float32"),
            Sample(a + 1j * rng.standard_normal(5), v + 0.5j, "same", label="complex")]


@sample_inputs(np.convolve)
def _convolve_samples(rng: np.random.Generator) -> list[Sample]:
    return [*_signal_samples(rng, "full"), Sample(2.5, rng.standard_normal(3), label="a scalar input")]


@sample_inputs(np.correlate)
def _correlate_samples(rng: np.random.Generator) -> list[Sample]:
    return _signal_samples(rng, "valid")
