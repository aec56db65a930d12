"""The window constructors of ``scipy.signal.windows`` and ``get_window``.

Windows that depend only on their length ``M`` and the flag ``sym`` (``boxcar``, ``triang``,
``parzen``, ``bohman``, ``blackman``, ``nuttall``, ``blackmanharris``, ``flattop``,
``bartlett``, ``barthann``, ``hamming``, ``hann``, ``cosine``, ``lanczos``) are
non-differentiable. Windows with a shape parameter are differentiated in it:

* ``gaussian(M, std)``: ``w = exp(-n^2 / (2 std^2))``, ``dw/dstd = w n^2 / std^3``;
* ``general_gaussian(M, p, sig)``: ``w = exp(-u^(2p)/2)``, ``u = |n|/sig``:
  ``dw/dp = -w u^(2p) ln u``, ``dw/dsig = w p u^(2p) / sig``;
* ``general_cosine(M, a)``: ``w = sum_k a_k cos(k t)``, ``t`` from ``-pi`` to ``pi``: linear in ``a``;
  ``general_hamming(M, alpha) = general_cosine(M, [alpha, 1 - alpha])``;
* ``exponential(M, center, tau)``: ``w = exp(-|n - center|/tau)``, ``dw/dtau = w |n - c|/tau^2``,
  ``dw/dcenter = w sign(n - c)/tau`` (zero at ``n = c``, where it has no derivative);
* ``kaiser(M, beta)``: ``w = I0(beta s)/I0(beta)`` (the derivative of
  :mod:`chainrules.rulesets.arrays.windows`); ``kaiser_bessel_derived(M, beta)``:
  ``w = sqrt(cumsum(k)/sum(k))`` (mirrored) of the Kaiser window ``k`` of length ``M/2 + 1``, by the
  chain rule;
* ``tukey(M, alpha)``: the cosine tapers ``(1 + cos(pi (2n/(alpha (M-1)) - 1)))/2`` differentiated
  in ``alpha`` (their width ``floor(alpha (M-1)/2)`` is piecewise constant).

``n`` is centred (``arange(M) - (M-1)/2``) as SciPy does; ``sym=False`` computes the window of
length ``M + 1`` and drops the last sample, and so do the derivatives. ``chebwin``'s
attenuation, ``taylor``'s ``sll`` and ``dpss``'s ``NW`` have ``not_implemented``
derivatives (never zeros). ``get_window(window, Nx, fftbins)`` differentiates the float
parameters of a ``(name, parameters...)`` tuple through the window above (a structural
cotangent of the tuple), for the names of those functions.

Examples
--------
>>> import numpy as np, scipy.signal.windows
>>> import chainrules
>>> w, pullback = chainrules.rrule(scipy.signal.windows.gaussian, 5, 1.5)
>>> round(float(pullback(np.ones(5))[2]), 6)       # sum of n^2/std^3 w
1.448999
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import scipy.signal
import scipy.signal.windows as windows

from chainrules.rulesets.arrays.windows import kaiser_beta_derivative
from chainrules.rulesets.signal._common import NO, public_name
from chainrules_core import (
    AbstractZero,
    NoTangent,
    NotImplementedTangent,
    Sample,
    Tangent,
    Varargs,
    ZeroTangent,
    backing,
    cotangent_projector,
    differentiable,
    frule,
    non_differentiable,
    not_implemented,
    passes_through,
    read_cotangent,
    rrule,
    sample_inputs,
    unthunk,
)

ZERO = ZeroTangent()
PARAMETER_FREE = ("boxcar", "triang", "parzen", "bohman", "blackman", "nuttall", "blackmanharris", "flattop",
                  "bartlett", "barthann", "hamming", "hann", "cosine", "lanczos")
"""Windows of ``scipy.signal.windows`` that depend only on ``M`` and ``sym``."""

NOT_IMPLEMENTED_REASON = ("the derivative of scipy.signal.windows.{f} with respect to {p} is not implemented; "
                          "hold it fixed")


def _grid(M: int, sym: bool) -> tuple[int, bool]:
    """SciPy's ``_extend``: a periodic window is the symmetric one of ``M + 1`` without its last sample."""
    return (M, False) if sym else (M + 1, True)


def _centred(M: int) -> np.ndarray:
    return np.arange(M) - (M - 1) / 2


Derivative = Callable[..., list[Any]]
"""``derivative(M, *parameters) -> [dw/dparameter or a not-implemented reason (str), ...]`` (symmetric M)."""


def _gaussian(M: int, std: float) -> list[Any]:
    n = _centred(M)
    w = np.exp(-n ** 2 / (2 * std ** 2))
    return [w * n ** 2 / std ** 3]


def _general_gaussian(M: int, p: float, sig: float) -> list[Any]:
    u = np.abs(_centred(M)) / sig
    powered = u ** (2 * p)
    w = np.exp(-powered / 2)
    log_u = np.log(u, out=np.zeros_like(u), where=u > 0)
    return [-w * powered * log_u, w * p * powered / sig]


def _general_cosine(M: int, a: Any) -> list[Any]:
    t = np.linspace(-np.pi, np.pi, M)
    return [np.stack([np.cos(k * t) for k in range(len(np.atleast_1d(a)))], axis=-1)]  # (M, len(a))


def _general_hamming(M: int, alpha: float) -> list[Any]:
    return [1 - np.cos(np.linspace(-np.pi, np.pi, M))]


def _exponential(M: int, center: Any, tau: float) -> list[Any]:
    c = (M - 1) / 2 if center is None else center
    d = np.arange(M) - c
    w = np.exp(-np.abs(d) / tau)
    return [w * np.sign(d) / tau, w * np.abs(d) / tau ** 2]


def _kaiser(M: int, beta: float) -> list[Any]:
    return [kaiser_beta_derivative(M, beta)]


def _kaiser_bessel_derived(M: int, beta: float) -> list[Any]:
    half = M // 2 + 1
    k = windows.kaiser(half, beta)
    dk = kaiser_beta_derivative(half, beta)
    c, dc = np.cumsum(k), np.cumsum(dk)
    ratio = c[:-1] / c[-1]
    dratio = dc[:-1] / c[-1] - c[:-1] * dc[-1] / c[-1] ** 2
    dhalf = dratio / (2 * np.sqrt(ratio))
    return [np.concatenate([dhalf, dhalf[::-1]])]


def _tukey(M: int, alpha: float) -> list[Any]:
    if alpha <= 0 or alpha >= 1 or M < 2:
        return [np.zeros(M)]  # a boxcar or a Hann window: no alpha left
    n = np.arange(M)
    width = int(np.floor(alpha * (M - 1) / 2.0))
    out = np.zeros(M)
    first, last = n[:width + 1], n[M - width - 1:]
    theta1 = np.pi * (-1 + 2.0 * first / alpha / (M - 1))
    out[:width + 1] = -0.5 * np.sin(theta1) * np.pi * (-2.0 * first / (alpha ** 2 * (M - 1)))
    theta3 = np.pi * (-2.0 / alpha + 1 + 2.0 * last / alpha / (M - 1))
    out[M - width - 1:] = -0.5 * np.sin(theta3) * np.pi * (2.0 / alpha ** 2 - 2.0 * last / (alpha ** 2 * (M - 1)))
    return [out]


def _not_implemented(name: str, parameter: str) -> Derivative:
    def derivative(M: int, *values: Any) -> list[Any]:
        return [NOT_IMPLEMENTED_REASON.format(f=name, p=parameter)]

    return derivative


WINDOWS: dict[Any, tuple[tuple[str, ...], Derivative]] = {
    windows.gaussian: (("std",), _gaussian),
    windows.general_gaussian: (("p", "sig"), _general_gaussian),
    windows.general_cosine: (("a",), _general_cosine),
    windows.general_hamming: (("alpha",), _general_hamming),
    windows.exponential: (("center", "tau"), _exponential),
    windows.kaiser: (("beta",), _kaiser),
    windows.kaiser_bessel_derived: (("beta",), _kaiser_bessel_derived),
    windows.tukey: (("alpha",), _tukey),
    windows.chebwin: (("at",), _not_implemented("chebwin", "at")),
    windows.taylor: (("nbar", "sll"), lambda M, nbar=4, sll=30: [
        "scipy.signal.windows.taylor: nbar is a count of sidelobes (an integer), with no derivative",
        NOT_IMPLEMENTED_REASON.format(f="taylor", p="sll")]),
    windows.dpss: (("NW",), _not_implemented("dpss", "NW")),
}
"""Windows with shape parameters: their names (after ``M``) and their derivatives."""


def parameter_derivatives(f: Any, M: int, values: list[Any], sym: bool) -> list[Any]:
    """``dw/d parameter`` for each parameter of the window ``f`` (truncated for ``sym=False``)."""
    _names, derivative = WINDOWS[f]
    grid, truncate = _grid(int(M), bool(sym))
    out = derivative(grid, *values)
    return [d if isinstance(d, str) or not truncate else np.asarray(d)[:-1] for d in out]


def _bound(f: Any, M: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[list[Any], bool, list[bool]]:
    """The parameter values (defaults filled in), ``sym``, and which parameters came by position."""
    import inspect

    bound = inspect.signature(f).bind(M, *args, **kwargs)
    bound.apply_defaults()
    names = WINDOWS[f][0]
    positional = [i < len(args) for i in range(len(names))]
    return [bound.arguments[n] for n in names], bool(bound.arguments.get("sym", True)), positional


def _window_rules(f: Any) -> None:
    name = public_name(f)
    short = name.rsplit(".", 1)[-1]

    def window_rrule(M: Any, *args: Any, **kwargs: Any) -> Any:
        y = f(M, *args, **kwargs)
        values, sym, positional = _bound(f, M, args, kwargs)
        projectors = [cotangent_projector(a) for a in args]

        def window_pullback(dy: Any) -> tuple[Any, ...]:
            dy = read_cotangent(dy, y, name)
            cotangents: list[Any] = [NO, NO, *([NO] * len(args))]
            live = [k for k in range(len(values)) if positional[k] and differentiable(args[k])]
            if passes_through(dy):
                for k in live:
                    cotangents[2 + k] = projectors[k](dy)
                return tuple(cotangents)
            derivatives = parameter_derivatives(f, M, values, sym)
            for k in live:
                d = derivatives[k]
                if isinstance(d, str):
                    cotangents[2 + k] = not_implemented(d)
                else:
                    total = np.tensordot(np.real(np.asarray(dy)), d, axes=(0, 0))
                    cotangents[2 + k] = projectors[k](np.reshape(total, np.shape(args[k])))
            return tuple(cotangents)

        window_pullback.__name__ = window_pullback.__qualname__ = f"{short}_pullback"
        return y, window_pullback

    def window_frule(tangents: Any, M: Any, *args: Any, **kwargs: Any) -> Any:
        y = f(M, *args, **kwargs)
        values, sym, _positional = _bound(f, M, args, kwargs)
        derivatives: list[Any] | None = None
        total: Any = None
        for k, value in enumerate(args[:len(values)]):
            if not differentiable(value):
                continue
            t = unthunk(tangents[2 + k])
            if isinstance(t, AbstractZero):
                continue
            if isinstance(t, NotImplementedTangent):
                return y, t
            if derivatives is None:
                derivatives = parameter_derivatives(f, M, values, sym)
            d = derivatives[k]
            if isinstance(d, str):
                return y, not_implemented(d)
            term = np.tensordot(d, np.real(np.asarray(t)), axes=(list(range(1, d.ndim)),
                                                                  list(range(np.ndim(t))))) if d.ndim > 1 else d * t
            total = term if total is None else total + term
        return y, ZERO if total is None else np.asarray(total, dtype=y.dtype)

    window_rrule.__name__ = window_rrule.__qualname__ = f"{short}_rrule"
    window_frule.__name__ = window_frule.__qualname__ = f"{short}_frule"
    rrule.register(f, Varargs(object))(window_rrule)
    frule.register(f, Varargs(object))(window_frule)


for _f in WINDOWS:
    _window_rules(_f)
for _name in PARAMETER_FREE:
    non_differentiable(getattr(windows, _name))


# ---- get_window ----------------------------------------------------------------------------------------
def _window_function(spec: Any) -> Any:
    """The window function a ``(name, ...)`` specification names, if it has parameter rules here."""
    if not isinstance(spec, tuple) or not spec or not isinstance(spec[0], str):
        return None
    candidate = getattr(windows, spec[0], None)
    return candidate if candidate in WINDOWS else None


GET_WINDOW_REASON = ("scipy.signal.get_window: the derivative with respect to the parameters of the window {w!r} "
                     "is not implemented; call its function in scipy.signal.windows directly")


def _get_window_rules() -> None:
    f = scipy.signal.get_window
    name = "scipy.signal.get_window"

    def get_window_rrule(window: Any, Nx: Any, *args: Any, **kwargs: Any) -> Any:
        y = f(window, Nx, *args, **kwargs)
        live = isinstance(window, tuple) and differentiable(window)
        fftbins = args[0] if args else kwargs.get("fftbins", True)

        def get_window_pullback(dy: Any) -> tuple[Any, ...]:
            dy = read_cotangent(dy, y, name)
            rest = [NO] * len(args)
            if not live:
                return (NO, NO, NO, *rest)
            if passes_through(dy):
                return (NO, dy, NO, *rest)
            target = _window_function(window)
            if target is None:
                return (NO, not_implemented(GET_WINDOW_REASON.format(w=window[0])), NO, *rest)
            params = list(window[1:])
            _, pullback = rrule(target, Nx, *params, sym=not fftbins)
            parts = pullback(dy)[2:]
            entries = [NO] + [unthunk(parts[k]) if k < len(parts) else NO for k in range(len(params))]
            return (NO, Tangent(tuple, *entries), NO, *rest)

        return y, get_window_pullback

    def get_window_frule(tangents: Any, window: Any, Nx: Any, *args: Any, **kwargs: Any) -> Any:
        y = f(window, Nx, *args, **kwargs)
        t = unthunk(tangents[1])
        if not (isinstance(window, tuple) and differentiable(window)) or isinstance(t, AbstractZero):
            return y, ZERO
        if isinstance(t, NotImplementedTangent):
            return y, t
        target = _window_function(window)
        if target is None:
            return y, not_implemented(GET_WINDOW_REASON.format(w=window[0]))
        fftbins = args[0] if args else kwargs.get("fftbins", True)
        parts = list(backing(t)) if isinstance(t, Tangent) else list(t)
        return y, frule((NO, NO, *parts[1:]), target, Nx, *window[1:], sym=not fftbins)[1]

    rrule.register(f, object, object, Varargs(object))(get_window_rrule)
    frule.register(f, object, object, Varargs(object))(get_window_frule)


_get_window_rules()


# ---- sample inputs ----------------------------------------------------------------------------------
@sample_inputs(windows.gaussian)
def _gaussian_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(7, 1.5), Sample(6, 2.0, False, label="periodic"), Sample(5, np.float32(1.2), label="float32")]


@sample_inputs(windows.general_gaussian)
def _general_gaussian_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(7, 1.5, 2.0), Sample(8, 0.8, 3.0, False, label="periodic")]


@sample_inputs(windows.general_cosine)
def _general_cosine_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(7, np.array([0.5, 0.4, 0.1])), Sample(6, [0.6, 0.4], False, label="a list, periodic")]


@sample_inputs(windows.general_hamming)
def _general_hamming_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(7, 0.6), Sample(8, 0.54, False, label="periodic")]


@sample_inputs(windows.exponential)
def _exponential_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(7, None, 2.0, label="tau by position"), Sample(8, 2.3, 1.5, False, label="a center, periodic")]


@sample_inputs(windows.kaiser)
def _kaiser_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(7, 2.5), Sample(8, 4.0, False, label="periodic")]


@sample_inputs(windows.kaiser_bessel_derived)
def _kbd_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(8, 1.5), Sample(10, 0.7)]


@sample_inputs(windows.tukey)
def _tukey_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(11, 0.45), Sample(12, 0.7, False, label="periodic")]


@sample_inputs(windows.chebwin)
def _chebwin_samples(rng: np.random.Generator) -> list[Sample]:
    from chainrules.testing import PrimalAndTangent

    return [Sample(7, PrimalAndTangent(50.0, NoTangent()), label="the attenuation: not implemented (a test checks)")]


@sample_inputs(windows.dpss)
def _dpss_samples(rng: np.random.Generator) -> list[Sample]:
    from chainrules.testing import PrimalAndTangent

    return [Sample(9, PrimalAndTangent(2.5, NoTangent()), label="NW: not implemented (a test checks)")]


@sample_inputs(windows.taylor)
def _taylor_samples(rng: np.random.Generator) -> list[Sample]:
    from chainrules.testing import PrimalAndTangent

    return [Sample(9, 4, label="nbar (an integer)"),
            Sample(9, 4, PrimalAndTangent(35.0, NoTangent()), label="sll: not implemented (a test checks)")]


@sample_inputs(*(getattr(windows, n) for n in PARAMETER_FREE))
def _parameter_free_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(7), Sample(8, fkwargs={"sym": False}, label="periodic")]


@sample_inputs(scipy.signal.get_window)
def _get_window_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample("hann", 8, label="by name"), Sample(("gaussian", 1.5), 7, label="a Gaussian's std"),
            Sample(("kaiser", 3.0), 8, False, label="a Kaiser window, symmetric"),
            Sample(("general_gaussian", 1.5, 2.0), 7, label="two parameters")]
