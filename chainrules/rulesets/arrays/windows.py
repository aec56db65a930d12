"""Window functions with a parameter: ``np.kaiser(M, beta)``.

``np.bartlett``, ``np.blackman``, ``np.hamming`` and ``np.hanning`` depend only on the
integer length ``M`` and are declared non-differentiable in
:mod:`~chainrules.rulesets.arrays.non_differentiable`. The Kaiser window also depends on
its shape parameter ``beta``:

``w_n = I0(beta s_n) / I0(beta)``, ``s_n = sqrt(1 - ((n - alpha) / alpha)^2)``, ``alpha = (M - 1) / 2``

(Kaiser & Schafer 1980, "On the use of the I0-sinh window for spectrum analysis", IEEE
Trans. ASSP 28). With ``I0' = I1`` (Abramowitz & Stegun 9.6.27),

``dw_n / dbeta = w_n (s_n I1(beta s_n) / I0(beta s_n) - I1(beta) / I0(beta))``

computed from the exponentially scaled ``scipy.special.i0e`` and ``i1e`` (their ratio is
the ratio of ``I1`` and ``I0``), so large ``beta`` neither overflows nor loses accuracy.
``M`` is a length: ``NoTangent()``. ``M == 1`` gives ``[1.]`` and ``M <= 0`` an empty
window, both with a zero derivative (a non-integer ``M`` follows NumPy's formula as it
is). NumPy computes in float64 whatever the type of ``beta`` (a float32 ``beta`` gets a
float32 cotangent); complex ``beta`` has no rule.
"""

from __future__ import annotations

import numbers
from collections.abc import Iterator
from typing import Any

import numpy as np
import scipy.special

from chainrules.rulesets.arrays._linear_maps import zero_result
from chainrules_core import (
    AbstractZero,
    NoTangent,
    Sample,
    ZeroTangent,
    cotangent_projector,
    frule,
    passes_through,
    read_cotangent,
    rrule,
    sample_inputs,
    unthunk,
)


def kaiser_beta_derivative(M: Any, beta: Any) -> np.ndarray:
    """``d np.kaiser(M, beta) / d beta``, elementwise.

    Examples
    --------
    >>> kaiser_beta_derivative(3, 0.0)               # at beta = 0 the window is flat, to second order
    array([0., 0., 0.])
    >>> kaiser_beta_derivative(3, 2.0).round(6)
    array([-0.306097,  0.      , -0.306097])
    """
    values = np.array([0.0, M, beta])
    m, b = values[1], float(values[2])
    if m == 1:
        return np.zeros(1)
    n = np.arange(0, m)
    alpha = (m - 1) / 2.0
    with np.errstate(invalid="ignore"):  # NumPy's own window is nan there too
        s = np.sqrt(1 - ((n - alpha) / alpha) ** 2.0)
        window = np.kaiser(M, beta)
    inner = s * scipy.special.i1e(b * s) / scipy.special.i0e(b * s)
    outer = scipy.special.i1e(b) / scipy.special.i0e(b)
    return np.asarray(window * (inner - outer), dtype=np.float64)


def _real_beta(beta: Any) -> bool:
    return isinstance(beta, numbers.Real) or (isinstance(beta, (np.ndarray, np.generic)) and np.ndim(beta) == 0
                                              and np.asarray(beta).dtype.kind in "biuf")


@rrule.register(np.kaiser, numbers.Real, (numbers.Number, np.ndarray))
def kaiser_rrule(M: Any, beta: Any) -> Any:
    """Reverse rule of ``np.kaiser`` with respect to ``beta``: ``beta_bar = sum(dw/dbeta * w_bar)``.

    Examples
    --------
    >>> from chainrules import rrule, unthunk
    >>> w, pullback = rrule(np.kaiser, 3, 2.0)
    >>> round(float(unthunk(pullback(np.ones(3))[2])), 6)
    -0.612194
    """
    if not _real_beta(beta):
        return None
    y = np.kaiser(M, beta)
    project_beta = cotangent_projector(beta)

    def kaiser_pullback(dy: Any) -> tuple[Any, ...]:
        dy = read_cotangent(dy, y, "np.kaiser")
        if passes_through(dy):
            return NoTangent(), NoTangent(), project_beta(zero_result(dy))
        dbeta = float(np.sum(kaiser_beta_derivative(M, beta) * np.real(np.asarray(dy))))
        return NoTangent(), NoTangent(), project_beta(np.reshape(dbeta, ()) if isinstance(beta, np.ndarray) else dbeta)

    return y, kaiser_pullback


@frule.register(np.kaiser, numbers.Real, (numbers.Number, np.ndarray))
def kaiser_frule(tangents: Any, M: Any, beta: Any) -> Any:
    """Forward rule of ``np.kaiser``: ``dw = dw/dbeta * dbeta``.

    Examples
    --------
    >>> from chainrules import frule, NoTangent
    >>> frule((NoTangent(), NoTangent(), 1.0), np.kaiser, 3, 2.0)[1].round(6)
    array([-0.306097,  0.      , -0.306097])
    """
    if not _real_beta(beta):
        return None
    y = np.kaiser(M, beta)
    dbeta = unthunk(tangents[2])
    if isinstance(dbeta, AbstractZero) or np.asarray(beta).dtype.kind != "f":
        return y, ZeroTangent()
    return y, kaiser_beta_derivative(M, beta) * float(np.real(dbeta))


@sample_inputs(np.kaiser)
def _kaiser_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample(5, 2.5, label="beta 2.5")
    yield Sample(4, 0.0, label="beta 0: a flat window")
    yield Sample(6, np.float32(8.0), label="float32 beta")
    yield Sample(3, np.array(1.5), label="0-d array beta")
    yield Sample(1, 3.0, label="one point")
