"""``fftshift``, ``ifftshift``, ``fftfreq``, ``rfftfreq`` (NumPy and SciPy) and SciPy's
``next_fast_len``, ``prev_fast_len``.

The maths
---------
``fftshift`` rolls each axis in ``axes`` (every axis by default; a repeated axis rolls
twice) by ``n // 2``, ``ifftshift`` by ``-(n // 2)``: permutations, whose adjoint is the
inverse permutation. So the pullback of ``fftshift(x, axes)`` is ``ifftshift(y_bar, axes)``
and that of ``ifftshift`` is ``fftshift`` (for odd lengths too); the frules shift the
tangent.

``fftfreq(n, d)`` is ``k / (n d)`` and ``rfftfreq(n, d)`` its non-negative part: the
frequencies depend on the sample spacing ``d``, ``dy/dd = -y/d``, so ``d`` (when given by
position, as every keyword argument is not differentiated) gets a cotangent
``-sum(y_bar y)/d``; the length ``n`` is an integer (``NoTangent()``).

``next_fast_len`` and ``prev_fast_len`` return integers: non-differentiable.

Examples
--------
>>> import numpy as np
>>> import chainrules
>>> y, pullback = chainrules.rrule(np.fft.fftshift, np.arange(5.0))
>>> y, pullback(np.arange(5.0))[1]
(array([3., 4., 0., 1., 2.]), array([2., 3., 4., 0., 1.]))
>>> y, pullback = chainrules.rrule(np.fft.fftfreq, 4, 0.5)
>>> pullback(np.ones(4))[2]                                   # -sum(y) / d
2.0
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.fft

from chainrules.rulesets.arrays._linear_maps import output_tangent, tangent_array
from chainrules.rulesets.fft._common import NO, public_name
from chainrules_core import (
    AbstractZero,
    NotImplementedTangent,
    Sample,
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
from chainrules_core.scalar_rules import NUMERIC

SHIFTS = {np.fft.fftshift: np.fft.ifftshift, np.fft.ifftshift: np.fft.fftshift,
          scipy.fft.fftshift: scipy.fft.ifftshift, scipy.fft.ifftshift: scipy.fft.fftshift}
"""Each shift and the shift that undoes it (its adjoint)."""


def _shift_rules(f: Any, inverse: Any) -> None:
    name = public_name(f)
    short = name.rsplit(".", 1)[-1]

    def shift_rrule(x: Any, *args: Any, **kwargs: Any) -> Any:
        y = f(x, *args, **kwargs)
        project_x = cotangent_projector(x)
        rest = (NO,) * len(args)
        live = differentiable(x)

        def shift_pullback(dy: Any) -> tuple[Any, ...]:
            dy = read_cotangent(dy, y, name)
            if not live:
                return (NO, NO, *rest)
            if passes_through(dy):
                return (NO, project_x(dy), *rest)
            return (NO, project_x(np.array(inverse(dy, *args, **kwargs), copy=True)), *rest)

        shift_pullback.__name__ = shift_pullback.__qualname__ = f"{short}_pullback"
        return y, shift_pullback

    def shift_frule(tangents: Any, x: Any, *args: Any, **kwargs: Any) -> Any:
        y = f(x, *args, **kwargs)
        dx = tangent_array(tangents[1], x) if differentiable(x) else None
        if dx is None or isinstance(dx, NotImplementedTangent):
            return y, output_tangent(dx, y)
        return y, output_tangent(np.array(f(dx, *args, **kwargs), copy=True), y)

    shift_rrule.__name__ = shift_rrule.__qualname__ = f"{short}_rrule"
    shift_frule.__name__ = shift_frule.__qualname__ = f"{short}_frule"
    rrule.register(f, (np.ndarray, list, tuple), Varargs(object))(shift_rrule)
    frule.register(f, (np.ndarray, list, tuple), Varargs(object))(shift_frule)


for _f, _inverse in SHIFTS.items():
    _shift_rules(_f, _inverse)


def _frequency_rules(f: Any) -> None:
    name = public_name(f)
    short = name.rsplit(".", 1)[-1]

    def frequencies_rrule(n: Any, *args: Any, **kwargs: Any) -> Any:
        y = f(n, *args, **kwargs)
        if not args:  # d by keyword or by default: nothing is differentiated
            def fixed_spacing_pullback(dy: Any) -> tuple[Any, ...]:
                read_cotangent(dy, y, name)
                return (NO, NO)

            return y, fixed_spacing_pullback
        d = args[0]
        project_d = cotangent_projector(d)
        rest = (NO,) * (len(args) - 1)

        def frequencies_pullback(dy: Any) -> tuple[Any, ...]:
            dy = read_cotangent(dy, y, name)
            if passes_through(dy):
                return (NO, NO, project_d(dy), *rest)
            return (NO, NO, project_d(-np.sum(np.real(dy) * y) / d), *rest)

        frequencies_pullback.__name__ = frequencies_pullback.__qualname__ = f"{short}_pullback"
        return y, frequencies_pullback

    def frequencies_frule(tangents: Any, n: Any, *args: Any, **kwargs: Any) -> Any:
        y = f(n, *args, **kwargs)
        if not args:
            return y, ZeroTangent()
        d, dd = args[0], unthunk(tangents[2])
        if not differentiable(d) or isinstance(dd, AbstractZero):
            return y, ZeroTangent()
        if isinstance(dd, NotImplementedTangent):
            return y, dd
        return y, output_tangent(-y * (np.real(dd) / d), y)

    frequencies_rrule.__name__ = frequencies_rrule.__qualname__ = f"{short}_rrule"
    frequencies_frule.__name__ = frequencies_frule.__qualname__ = f"{short}_frule"
    rrule.register(f, NUMERIC, Varargs(object))(frequencies_rrule)
    frule.register(f, NUMERIC, Varargs(object))(frequencies_frule)


for _f in (np.fft.fftfreq, np.fft.rfftfreq, scipy.fft.fftfreq, scipy.fft.rfftfreq):
    _frequency_rules(_f)

non_differentiable(scipy.fft.next_fast_len)
non_differentiable(scipy.fft.prev_fast_len)


# ---- sample inputs ----------------------------------------------------------------------------------
@sample_inputs(*SHIFTS)
def _shift_samples(rng: np.random.Generator) -> list[Sample]:
    x = rng.standard_normal((3, 4))
    return [
        Sample(x, label="every axis, odd and even"),
        Sample(x.astype(np.float32), 0, label="float32, axis 0 by position"),
        Sample(x + 1j * rng.standard_normal((3, 4)), fkwargs={"axes": (1,)}, label="complex, axes by keyword"),
        Sample(x, (0, 0, 1), label="a repeated axis"),
    ]


@sample_inputs(np.fft.fftfreq, np.fft.rfftfreq, scipy.fft.fftfreq, scipy.fft.rfftfreq)
def _frequency_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(5, 0.1, label="odd n, d by position"), Sample(6, 2.5, label="even n"),
            Sample(4, np.float64(0.3), label="a NumPy float d")]


@sample_inputs(scipy.fft.next_fast_len, scipy.fft.prev_fast_len)
def _fast_length_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(97), Sample(97, True, label="real")]
