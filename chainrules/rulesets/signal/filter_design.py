"""Filter design helpers with closed-form derivatives: ``kaiser_beta``, ``kaiser_atten`` and
``savgol_coeffs``.

The maths
---------
``kaiser_beta(a)`` is Kaiser's empirical formula (Oppenheim & Schafer 2010, eq. 7.62):
``0.1102 (a - 8.7)`` for ``a > 50``, ``0.5842 (a - 21)^0.4 + 0.07886 (a - 21)`` for
``21 < a <= 50``, ``0`` below; its derivative is ``0.1102``,
``0.23368 (a - 21)^-0.6 + 0.07886`` and ``0`` (infinite from the right at ``a = 21``,
where the formula is not differentiable). ``kaiser_atten(numtaps, width)`` is
``2.285 (numtaps - 1) pi width + 7.95`` (eq. 7.63): linear in ``width``; ``numtaps`` is a
count.

``savgol_coeffs(window_length, polyorder, deriv, delta, ...)`` are the least-squares
coefficients of Savitzky & Golay scaled by ``delta ** -deriv``: ``dc/d delta = -deriv c / delta``
(``delta`` by position); the other arguments are integers and flags.

The other design functions (``butter``, ``firwin``, ``remez``...) are not covered yet.

Examples
--------
>>> import scipy.signal
>>> import chainrules
>>> y, pullback = chainrules.rrule(scipy.signal.kaiser_beta, 60.0)
>>> pullback(1.0)[1]
0.1102
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.signal

from chainrules.rulesets.arrays._linear_maps import output_tangent
from chainrules.rulesets.signal._common import NO
from chainrules_core import (
    AbstractZero,
    NotImplementedTangent,
    Sample,
    Varargs,
    ZeroTangent,
    cotangent_projector,
    differentiable,
    frule,
    passes_through,
    read_cotangent,
    rrule,
    sample_inputs,
    scalar_rule,
    unthunk,
)


def _kaiser_beta_partial(a: Any) -> Any:
    a = float(a)
    if a > 50:
        return 0.1102
    if a > 21:
        return 0.5842 * 0.4 * (a - 21) ** -0.6 + 0.07886
    return 0.0


def _kaiser_atten_width(numtaps: Any, width: Any) -> Any:
    return 2.285 * (numtaps - 1) * np.pi


scalar_rule(scipy.signal.kaiser_beta, _kaiser_beta_partial)
scalar_rule(scipy.signal.kaiser_atten, 0.0, _kaiser_atten_width)


def _savgol_coeffs_rules() -> None:
    f = scipy.signal.savgol_coeffs
    name = "scipy.signal.savgol_coeffs"

    def delta_of(args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[float, int]:
        deriv = args[0] if len(args) > 0 else kwargs.get("deriv", 0)
        delta = args[1] if len(args) > 1 else kwargs.get("delta", 1.0)
        return float(delta), int(deriv)

    def savgol_coeffs_rrule(window_length: Any, polyorder: Any, *args: Any, **kwargs: Any) -> Any:
        c = f(window_length, polyorder, *args, **kwargs)
        project = cotangent_projector(args[1]) if len(args) > 1 and differentiable(args[1]) else None
        delta, deriv = delta_of(args, kwargs)

        def savgol_coeffs_pullback(dc: Any) -> tuple[Any, ...]:
            dc = read_cotangent(dc, c, name)
            cotangents: list[Any] = [NO, NO, NO, *([NO] * len(args))]
            if project is not None:
                cotangents[4] = project(dc if passes_through(dc) else
                                        float(-deriv / delta * np.sum(np.real(dc) * c)))
            return tuple(cotangents)

        return c, savgol_coeffs_pullback

    def savgol_coeffs_frule(tangents: Any, window_length: Any, polyorder: Any, *args: Any, **kwargs: Any) -> Any:
        c = f(window_length, polyorder, *args, **kwargs)
        if not (len(args) > 1 and differentiable(args[1])):
            return c, ZeroTangent()
        t = unthunk(tangents[4])
        if isinstance(t, (AbstractZero, NotImplementedTangent)):
            return c, t
        delta, deriv = delta_of(args, kwargs)
        return c, output_tangent(-deriv / delta * float(np.real(t)) * c, c)

    rrule.register(f, int, int, Varargs(object))(savgol_coeffs_rrule)
    frule.register(f, int, int, Varargs(object))(savgol_coeffs_frule)


_savgol_coeffs_rules()


@sample_inputs(scipy.signal.kaiser_beta)
def _kaiser_beta_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(60.0, label="a > 50"), Sample(35.0, label="21 < a <= 50"), Sample(15.0, label="a <= 21")]


@sample_inputs(scipy.signal.kaiser_atten)
def _kaiser_atten_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(31, 0.05)]


@sample_inputs(scipy.signal.savgol_coeffs)
def _savgol_coeffs_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(7, 2, 1, 0.5, label="a first derivative, delta by position"),
            Sample(5, 3, 2, 2.0, 1, label="pos by position"), Sample(7, 2, fkwargs={"delta": 0.3}, label="by keyword")]
