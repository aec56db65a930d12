"""SciPy's fast Hankel transforms ``fht``, ``ifht`` (FFTLog) and the optimal offset ``fhtoffset``.

The maths
---------
``fht(a, dln, mu, offset, bias)`` transforms the last axis of ``a`` (Talman 1978, J. Comp.
Phys. 29, 35; Hamilton 2000, MNRAS 312, 257, eqs. 13-18, the algorithm SciPy follows):
``A = E2 * R irfft(u * rfft(E1 * a), n)``, where ``R`` reverses the axis,
``E1_j = exp(-q (j - j_c) dln)`` and ``E2_j = exp(-q ((j - j_c) dln + offset))`` apply the
power-law bias ``q`` (both ``1`` when ``q = 0``), ``j_c = (n - 1)/2``, and ``u`` holds the
FFTLog coefficients ``u_m = 2^(q + 2 i y_m) exp(-2 i offset y_m) Gamma(x_+ + i y_m) / Gamma(x_- - i y_m)``.

``H = irfft(u * rfft(.))`` is a circulant matrix (a circular convolution with a real
kernel), and ``R H^T R = H`` for every circulant ``H``. Hence
``fht^T = (E2 R H E1)^T = E1 H^T R E2 = E1 R H E2``, and since ``E2 = exp(-q offset) E1``
this is ``E2 R H E1 = fht``: **the fast Hankel transform is a symmetric matrix**, whatever
the bias, the offset and the length. Its pullback is ``a_bar = fht(A_bar)`` with the same
parameters, its frule ``dA = fht(da)``; ``ifht`` (the same structure with ``1/conj(u)``)
likewise. This holds for SciPy's special cases too (a singular coefficient ``u_0`` set to
0, the Nyquist coefficient made real): they keep ``H`` circulant.

The derivatives with respect to ``dln``, ``mu``, ``offset`` and ``bias`` (through the
coefficients ``u`` and the bias factors) are not implemented: they come back as
``not_implemented(...)``, never as zeros.

``fhtoffset(dln, mu, initial, bias)`` returns ``initial + (arg - round(arg)) dln`` with
``arg = (ln 2 - initial)/dln + (Im lnGamma(x_+ + i y) + Im lnGamma(x_- + i y))/pi``,
``y = pi/(2 dln)``, ``x_+- = (mu + 1 +- bias)/2`` (Hamilton 2000, eq. 16). Away from the
jumps of ``round`` (where it is not continuous), with ``d/dx Im lnGamma(x + i y) = Im psi``
and ``d/dy Im lnGamma(x + i y) = Re psi``:

* ``d/d initial = 1 - 1 = 0`` (the offset is piecewise constant in ``initial``);
* ``d/d mu = dln (Im psi(x_+ + i y) + Im psi(x_- + i y)) / (2 pi)``;
* ``d/d bias = dln (Im psi(x_+ + i y) - Im psi(x_- + i y)) / (2 pi)``;
* ``d/d dln = (arg - round(arg)) - (ln 2 - initial)/dln - (Re psi(x_+ + i y) + Re psi(x_- + i y)) / (2 dln)``.

Examples
--------
>>> import numpy as np, scipy.fft
>>> import chainrules
>>> a = np.exp(-np.linspace(-2.0, 2.0, 8) ** 2)
>>> A, pullback = chainrules.rrule(scipy.fft.fht, a, 0.1, 0.5)
>>> e = np.eye(8)
>>> bool(np.allclose(scipy.fft.fht(e[2], 0.1, 0.5) @ e[5], scipy.fft.fht(e[5], 0.1, 0.5) @ e[2]))
True
"""

from __future__ import annotations

import inspect
from typing import Any

import numpy as np
import scipy.fft
import scipy.special

from chainrules.rulesets.arrays._linear_maps import output_tangent, tangent_array
from chainrules.rulesets.fft._common import NO, public_name
from chainrules_core import (
    AbstractZero,
    NoTangent,
    NotImplementedTangent,
    Sample,
    Varargs,
    ZeroTangent,
    cotangent_projector,
    differentiable,
    frule,
    not_implemented,
    passes_through,
    read_cotangent,
    rrule,
    sample_inputs,
    unthunk,
)
from chainrules_core.scalar_rules import NUMERIC

PARAMETER_REASON = ("the derivative of scipy.fft.{f} with respect to {p} (through the FFTLog coefficients "
                    "and the bias factors) is not implemented; hold {p} fixed, or differentiate a finite "
                    "difference in it")
"""Why a parameter of ``fht``/``ifht`` has no derivative, and the workaround."""

PARAMETERS = ("dln", "mu", "offset", "bias")


def _hankel_rules(f: Any) -> None:
    name = public_name(f)
    short = name.rsplit(".", 1)[-1]
    signature = inspect.signature(f)

    def parameter_cotangents(args: tuple[Any, ...]) -> tuple[Any, ...]:
        out: list[Any] = []
        for p, value in zip(PARAMETERS, args):
            if differentiable(value):
                out.append(not_implemented(PARAMETER_REASON.format(f=short, p=p)))
            else:
                out.append(NO)
        return tuple(out)

    def hankel_rrule(a: Any, *args: Any, **kwargs: Any) -> Any:
        bound = signature.bind(a, *args, **kwargs)
        y = f(*bound.args, **bound.kwargs)
        project_a = cotangent_projector(a)
        live = differentiable(a)

        def hankel_pullback(dy: Any) -> tuple[Any, ...]:
            dy = read_cotangent(dy, y, name)
            params = parameter_cotangents(args)
            if not live:
                return (NO, NO, *params)
            if passes_through(dy):
                return (NO, project_a(dy), *params)
            da = f(np.real(dy), *bound.args[1:], **bound.kwargs)  # the transform is symmetric
            return (NO, project_a(da), *params)

        hankel_pullback.__name__ = hankel_pullback.__qualname__ = f"{short}_pullback"
        return y, hankel_pullback

    def hankel_frule(tangents: Any, a: Any, *args: Any, **kwargs: Any) -> Any:
        bound = signature.bind(a, *args, **kwargs)
        y = f(*bound.args, **bound.kwargs)
        for p, value, t in zip(PARAMETERS, args, tangents[2:]):
            t = unthunk(t)
            if differentiable(value) and not isinstance(t, (AbstractZero, NotImplementedTangent)) and np.any(t):
                return y, not_implemented(PARAMETER_REASON.format(f=short, p=p))
        da = tangent_array(tangents[1], a) if differentiable(a) else None
        if da is None or isinstance(da, NotImplementedTangent):
            return y, output_tangent(da, y)
        return y, output_tangent(f(np.real(da), *bound.args[1:], **bound.kwargs), y)

    hankel_rrule.__name__ = hankel_rrule.__qualname__ = f"{short}_rrule"
    hankel_frule.__name__ = hankel_frule.__qualname__ = f"{short}_frule"
    rrule.register(f, (np.ndarray, list, tuple), NUMERIC, NUMERIC, Varargs(object))(hankel_rrule)
    frule.register(f, (np.ndarray, list, tuple), NUMERIC, NUMERIC, Varargs(object))(hankel_frule)


_hankel_rules(scipy.fft.fht)
_hankel_rules(scipy.fft.ifht)


# ---- fhtoffset -----------------------------------------------------------------------------------------
def fhtoffset_partials(dln: float, mu: float, initial: float = 0.0, bias: float = 0.0) -> tuple[float, ...]:
    """The partial derivatives of ``scipy.fft.fhtoffset`` in ``(dln, mu, initial, bias)``.

    Examples
    --------
    >>> [round(v, 6) for v in fhtoffset_partials(0.1, 2.0, 0.5)]
    [-29.037122, 0.047976, 0.0, 0.0]
    """
    xp, xm = (mu + 1 + bias) / 2, (mu + 1 - bias) / 2
    y = np.pi / (2 * dln)
    zp, zm = scipy.special.loggamma(xp + 1j * y), scipy.special.loggamma(xm + 1j * y)
    arg = (np.log(2) - initial) / dln + (zp.imag + zm.imag) / np.pi
    pp, pm = scipy.special.psi(xp + 1j * y), scipy.special.psi(xm + 1j * y)
    d_dln = (arg - np.round(arg)) - (np.log(2) - initial) / dln - (pp.real + pm.real) / (2 * dln)
    d_mu = dln * (pp.imag + pm.imag) / (2 * np.pi)
    d_bias = dln * (pp.imag - pm.imag) / (2 * np.pi)
    return float(d_dln), float(d_mu), 0.0, float(d_bias)


_FHTOFFSET_SIGNATURE = inspect.signature(scipy.fft.fhtoffset)


def _fhtoffset_arguments(args: tuple[Any, ...], kwargs: dict[str, Any]) -> list[Any]:
    bound = _FHTOFFSET_SIGNATURE.bind(*args, **kwargs)
    bound.apply_defaults()
    return [bound.arguments[p] for p in ("dln", "mu", "initial", "bias")]


@rrule.register(scipy.fft.fhtoffset, NUMERIC, NUMERIC, Varargs(object))
def fhtoffset_rrule(dln: Any, mu: Any, *args: Any, **kwargs: Any) -> Any:
    """Reverse rule of ``scipy.fft.fhtoffset``: the partials of :func:`fhtoffset_partials`.

    Examples
    --------
    >>> import scipy.fft
    >>> y, pullback = fhtoffset_rrule(0.1, 2.0, 0.5)
    >>> round(float(pullback(1.0)[1]), 6)
    -29.037122
    """
    y = scipy.fft.fhtoffset(dln, mu, *args, **kwargs)
    values = _fhtoffset_arguments((dln, mu, *args), kwargs)
    given = (dln, mu, *args)
    projectors = [cotangent_projector(v) for v in given]
    partials = fhtoffset_partials(*(float(np.real(v)) for v in values))

    def fhtoffset_pullback(dy: Any) -> tuple[Any, ...]:
        dy = read_cotangent(dy, y, "scipy.fft.fhtoffset")
        if passes_through(dy):
            return (NO, *(p(dy) for p in projectors))
        return (NO, *(p(partial * np.real(dy)) for p, partial in zip(projectors, partials)))

    return y, fhtoffset_pullback


@frule.register(scipy.fft.fhtoffset, NUMERIC, NUMERIC, Varargs(object))
def fhtoffset_frule(tangents: Any, dln: Any, mu: Any, *args: Any, **kwargs: Any) -> Any:
    """Forward rule of ``scipy.fft.fhtoffset``.

    Examples
    --------
    >>> from chainrules_core import NoTangent
    >>> y, dy = fhtoffset_frule((NoTangent(), 1.0, 0.0), 0.1, 2.0)
    >>> round(float(dy), 6)
    -34.037122
    """
    y = scipy.fft.fhtoffset(dln, mu, *args, **kwargs)
    values = _fhtoffset_arguments((dln, mu, *args), kwargs)
    partials = fhtoffset_partials(*(float(np.real(v)) for v in values))
    total: Any = None
    for value, t, partial in zip((dln, mu, *args), tangents[1:], partials):
        t = unthunk(t)
        if not differentiable(value) or isinstance(t, AbstractZero):
            continue
        if isinstance(t, NotImplementedTangent):
            return y, t
        term = partial * np.real(t)
        total = term if total is None else total + term
    if total is None:
        return y, ZeroTangent()
    return y, type(y)(total) if isinstance(y, float) else np.asarray(total, dtype=np.result_type(y))[()]


# ---- sample inputs ----------------------------------------------------------------------------------
@sample_inputs(scipy.fft.fht, scipy.fft.ifht)
def _hankel_samples(rng: np.random.Generator) -> list[Sample]:
    from chainrules.testing import PrimalAndTangent

    r = np.logspace(-2.0, 1.0, 8)
    a = r ** 1.5 * np.exp(-r ** 2 / 2) + 0.1 * rng.standard_normal(8)
    dln = float(np.log(r[1] / r[0]))

    def fixed(v: float) -> PrimalAndTangent:
        return PrimalAndTangent(v, NoTangent())

    return [
        Sample(a, fixed(dln), fixed(0.5), label="even length, no bias"),
        Sample(a[:7], fixed(dln), fixed(-0.5), fixed(0.3), label="odd length, an offset"),
        Sample(np.stack([a, a[::-1]]), fixed(dln), fixed(1.0), fixed(0.2), fixed(0.4),
               label="batched, offset and bias by position"),
        Sample(a.astype(np.float32), fixed(dln), fixed(0.0), fkwargs={"offset": 0.1, "bias": -0.3},
               label="float32, offset and bias by keyword"),
    ]


@sample_inputs(scipy.fft.fhtoffset)
def _fhtoffset_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample(0.1, 2.0, label="dln and mu"),
        Sample(0.3, -0.5, 0.3, 0.2, label="initial and bias by position"),
        Sample(0.2, 0.5, fkwargs={"initial": -1.0, "bias": 0.5}, label="by keyword"),
    ]
