"""``scipy.integrate.quad`` and ``scipy.integrate.quad_vec``: adaptive quadrature, differentiated with
respect to the limits, the parameters in ``args`` and the integrand's own values.

These are higher-order rules: registered with ``config=HasReverseMode`` (rrules) and
``config=HasForwardsMode`` (frules), they differentiate the integrand through the calling AD
(:func:`~chainrules_core.rrule_via_ad`, :func:`~chainrules_core.frule_via_ad`): autograd's
config, or :class:`~chainrules_core.RulesOnlyConfig` for an integrand with rules of its own
(``np.hypot``, ``scipy.special.jv``, a function you registered rules for). Parameters are
differentiated when they are passed through ``args``; values an integrand closes over are the
AD's business (autograd cannot see them through a primitive: pass them in ``args``).
``quad_vec`` takes ``args`` by keyword only, so there only the limits (and the values the
integrand carries, when the config reports a cotangent for them) are differentiated.

The maths
---------
For ``I(a, b, p) = int_a^b f(x, p) w(x) dx`` (``w = 1``, or QUADPACK's weight
``cos(wvar x)``, ``sin(wvar x)``, ``1/(x - wvar)``):

* the fundamental theorem of calculus: ``dI/db = f(b, p) w(b)``, ``dI/da = -f(a, p) w(a)``;
  an infinite limit has no boundary term (its cotangent is ``NoTangent()``);
* differentiation under the integral sign (Leibniz's rule, valid where ``f`` and its
  parameter derivative are continuous, or dominated): ``dI/dp = int_a^b df/dp(x, p) w(x) dx``.
  Reverse mode integrates the cotangent-weighted pullback ``x -> (df/dp)^H I_bar`` from
  ``rrule_via_ad`` (``quad_vec`` for several parameter values, one ``quad`` per value with a
  weight); forward mode integrates the pushforward ``x -> df/dp . dp`` from
  ``frule_via_ad``. The second integral uses the primal's ``epsabs``, ``epsrel``, ``limit``,
  ``points`` and weight: the derivative reaches the tolerance the value did;
* the algebraic-logarithmic weights ``w = (x-a)^al (b-x)^be [log(x-a)] [log(b-x)]`` depend on
  the limits themselves, and ``f(a) w(a)`` is zero or infinite: the limits' derivatives come
  from scaling the range to ``[0, 1]`` (:meth:`_Integrand._algebraic_limit_derivative`), with
  the integrand's derivative in ``x`` from the config;
* ``wvar``, when given by position: ``d/dw int f cos(w x) = -int x f sin(w x)``,
  ``d/dw int f sin(w x) = int x f cos(w x)``, and for ``'alg'`` the ``'alg-loga'`` and
  ``'alg-logb'`` integrals; the other weights' are ``not_implemented`` (they need weights
  QUADPACK does not have).

The error estimate, ``infodict`` and the messages get ``NoTangent()``, and so do the tolerances
and the other settings.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterator
from typing import Any

import numpy as np
import scipy.integrate
import scipy.special

from chainrules.rulesets.integrate._callables import (
    CallableDerivatives,
    NotImplementedDerivativeError,
    is_zero_tangent,
    split_tangent,
)
from chainrules.rulesets.integrate._quadrature import QuadSettings, read_integral_cotangent, weight_function
from chainrules_core import (
    AbstractZero,
    HasForwardsMode,
    HasReverseMode,
    NoTangent,
    NotImplementedTangent,
    ProjectTo,
    RulesOnlyConfig,
    Sample,
    Tangent,
    Thunk,
    ZeroTangent,
    cotangent_projector,
    differentiable,
    frule,
    not_implemented,
    passes_through,
    rrule,
    sample_inputs,
    unthunk,
)

_QUAD_SETTINGS = 11
"""quad's positional parameters after ``args``: full_output ... complex_func (none differentiable but wvar)."""
_WVAR = 11 - 5  # wvar's index among them

_WVAR_MISSING = {
    "cauchy": "quad: the derivative with respect to the Cauchy weight's pole wvar is a hypersingular (Hadamard "
              "finite-part) integral, which QUADPACK does not compute",
    "alg-loga": "quad: the derivative with respect to wvar of the 'alg-loga' weight needs log(x-a)^2 weights, "
                "which QUADPACK does not have",
    "alg-logb": "quad: the derivative with respect to wvar of the 'alg-logb' weight needs log(b-x)^2 weights, "
                "which QUADPACK does not have",
    "alg-log": "quad: the derivative with respect to wvar of the 'alg-log' weight needs squared logarithm weights, "
               "which QUADPACK does not have",
}



def _probe_point(a: float, b: float) -> float:
    """An interior point of the range, away from its middle (where users put break points)."""
    if math.isfinite(a) and math.isfinite(b):
        return a + 0.6180339887498949 * (b - a)
    if math.isfinite(a):
        return a + 1.0 if b > a else a - 1.0
    if math.isfinite(b):
        return b - 1.0 if b > a else b + 1.0
    return 0.6180339887498949


def _value_cotangent(dI: Any, fx: Any) -> Any:
    """The cotangent fed to the integrand's pullback: real for a real-valued integrand."""
    if np.iscomplexobj(dI) and not np.iscomplexobj(fx):
        return np.real(dI)
    return dI


def _inner(value: Any, dI: Any) -> Any:
    """``conj(value) dI`` summed: the cotangent of a real number ``t`` for ``I = value * t``."""
    return np.sum(np.conj(value) * dI)


class _Integrand:
    """One quad-like call: the integrand, its range, settings, and its derivatives through a config."""

    def __init__(self, config: Any, func: Any, a: Any, b: Any, args: Any, settings: QuadSettings,
                 differentiate_args: bool = True, value: Any = None) -> None:
        self.func, self.a, self.b, self.settings, self.value = func, a, b, settings, value
        self.args_given = args
        self.args = args if isinstance(args, tuple) else (args,)
        self.derivatives = CallableDerivatives(config, func, self.args, n_head=1,
                                               differentiate_args=differentiate_args)

    def value_at(self, x: float) -> Any:
        return self.func(x, *self.args)

    def weight_at(self, x: float) -> Any:
        w = weight_function(self.settings.weight, self.settings.wvar)
        return 1.0 if w is None else w(x)

    # ---- reverse --------------------------------------------------------------------------------------
    def limit_cotangent(self, which: str, dI: Any) -> Any:
        """``a_bar`` or ``b_bar``: the fundamental theorem of calculus, lazily."""
        limit = self.a if which == "a" else self.b
        project = cotangent_projector(limit)
        if not np.isfinite(limit):
            return NoTangent()

        def boundary_term() -> Any:
            return project(_inner(self.limit_derivative(which), dI))

        return Thunk(boundary_term) if differentiable_limit(limit) else project(ZeroTangent())

    def limit_derivative(self, which: str) -> Any:
        """``dI/da`` or ``dI/db``: ``-f(a) w(a)``, ``f(b) w(b)``, or for the weights that depend on the limits
        the derivative after scaling the range to ``[0, 1]`` (see :meth:`_algebraic_limit_derivative`)."""
        if str(self.settings.weight).startswith("alg"):
            return self._algebraic_limit_derivative(which)
        limit = float(self.a if which == "a" else self.b)
        sign = -1.0 if which == "a" else 1.0
        return sign * self.value_at(limit) * self.weight_at(limit)

    def _algebraic_limit_derivative(self, which: str) -> Any:
        """The derivative with respect to a limit of ``I = int_a^b f(x) w(x) dx`` for QUADPACK's algebraic-
        logarithmic weights ``w = (x-a)^al (b-x)^be [log(x-a)] [log(b-x)]``.

        With ``x = a + (b-a) u``, ``I = (b-a)^(1+al+be) int_0^1 f(a+(b-a)u) u^al (1-u)^be [log((b-a)u)]
        [log((b-a)(1-u))] du``, so (``L = b - a``, ``s = 1 + al + be``)

        * ``dI/db = s I / L + E / L + int_a^b f'(x) (x-a)/L w(x) dx``,
        * ``dI/da = -s I / L - E / L + int_a^b f'(x) (b-x)/L w(x) dx``,

        where ``E`` is what differentiating the logarithms adds: ``0`` for ``'alg'``, the ``'alg'``
        integral for ``'alg-loga'`` and ``'alg-logb'``, and the sum of those two integrals for
        ``'alg-log'``. ``f'`` is the integrand's derivative in ``x``, from the config.
        """
        a, b, weight = float(self.a), float(self.b), self.settings.weight
        alpha, beta = self.settings.wvar
        length, sign = b - a, (1.0 if which == "b" else -1.0)
        complex_func = bool(np.iscomplexobj(self.value))
        extra: Any = 0.0
        if weight in ("alg-loga", "alg-logb"):
            extra = self.settings.quad(self.value_at, a, b, complex_func=complex_func, weight="alg")
        elif weight == "alg-log":
            extra = sum(self.settings.quad(self.value_at, a, b, complex_func=complex_func, weight=w)
                        for w in ("alg-loga", "alg-logb"))

        def moved(x: float) -> Any:
            share = (x - a) / length if which == "b" else (b - x) / length
            return self.derivative_in_x(x) * share

        inner = self.settings.quad(moved, a, b, complex_func=complex_func)
        return sign * ((1 + alpha + beta) * self.value + extra) / length + inner

    def derivative_in_x(self, x: float) -> Any:
        """``f'(x)`` from the config's pullback (real and imaginary parts for a complex integrand)."""
        d = self.derivatives
        x_bar = unthunk(d.pullback_at((x,), 1.0)[2][0])
        if not np.iscomplexobj(self.value):
            return x_bar
        x_bar_i = unthunk(d.pullback_at((x,), 1.0j)[2][0])
        return x_bar + 1j * x_bar_i

    def parameter_cotangents(self, dI: Any) -> tuple[Any, Any]:
        """``(func_bar, args_bar)``: the integral of the cotangent-weighted pullback of the integrand."""
        d = self.derivatives
        try:
            fx = d.probe((_probe_point(self.a, self.b),), dI)
            dI = _value_cotangent(dI, fx)
            if d.size == 0:
                return d.cotangents(np.zeros(0))
            dtype = np.result_type(d.parameters.dtype, *(d.own.dtypes if d.own is not None else ()),
                                   np.asarray(dI).dtype)

            def pulled_back(x: float) -> np.ndarray:
                return d.pullback_at((x,), dI)[1]

            return d.cotangents(self.settings.integrate(pulled_back, d.size, dtype, self.a, self.b))
        except NotImplementedDerivativeError as err:
            return err.tangent, err.tangent

    def wvar_cotangent(self, dI: Any) -> Any:
        """The cotangent of ``wvar`` given by position (see :meth:`wvar_derivative`)."""
        weight, wvar = self.settings.weight, self.settings.wvar
        if not differentiable(wvar):
            return NoTangent()
        if weight not in ("cos", "sin", "alg"):
            return not_implemented(_WVAR_MISSING.get(weight, f"quad: the derivative with respect to wvar for "
                                                             f"weight={weight!r}"))
        project = cotangent_projector(wvar)

        def wvar_term() -> Any:
            derivative = self.wvar_derivative()
            if weight == "alg":
                return project(Tangent(type(wvar), *(_inner(v, dI) for v in derivative)))
            return project(_inner(derivative, dI))

        return Thunk(wvar_term)

    def wvar_derivative(self) -> Any:
        """``dI/dwvar``: ``-int x f sin(w x)`` for ``cos``, ``int x f cos(w x)`` for ``sin``; for ``'alg'``
        (``wvar = (alpha, beta)``) the pair of integrals with the ``'alg-loga'`` and ``'alg-logb'`` weights
        (``d/dalpha (x-a)^alpha = (x-a)^alpha log(x-a)``)."""
        weight = self.settings.weight
        complex_func = bool(np.iscomplexobj(self.value))
        if weight == "alg":
            return tuple(self.settings.quad(self.value_at, self.a, self.b, complex_func=complex_func, weight=w)
                         for w in ("alg-loga", "alg-logb"))
        other, sign = ("sin", -1.0) if weight == "cos" else ("cos", 1.0)
        return sign * self.settings.quad(lambda x: x * self.value_at(x), self.a, self.b, complex_func=complex_func,
                                         weight=other)

    # ---- forward --------------------------------------------------------------------------------------
    def tangent(self, dfunc: Any, da: Any, db: Any, dargs: Any, dwvar: Any, complex_func: bool) -> Any:
        """``dI`` along the tangents of the limits, the integrand, ``args`` and ``wvar``."""
        total: Any = 0.0
        for sign, limit, dlimit in ((-1.0, self.a, da), (1.0, self.b, db)):
            if is_zero_tangent(dlimit) or not np.isfinite(limit):
                continue
            total = total + self.limit_derivative("a" if sign < 0 else "b") * unthunk(dlimit)
        arg_tangents = split_tangent(dargs, self.args) if isinstance(self.args_given, tuple) else (dargs,)
        if not (is_zero_tangent(dfunc) and all(is_zero_tangent(t) for t in arg_tangents)):
            d = self.derivatives

            def pushed_forward(x: float) -> Any:
                dy = unthunk(d.forward_at((x,), (ZeroTangent(),), dfunc, arg_tangents)[1])
                if isinstance(dy, NotImplementedTangent):
                    raise NotImplementedDerivativeError(dy)
                return 0.0 if isinstance(dy, AbstractZero) else dy

            try:
                total = total + self.settings.quad(pushed_forward, self.a, self.b, complex_func=complex_func)
            except NotImplementedDerivativeError as err:
                return err.tangent
        if not is_zero_tangent(dwvar):
            weight = self.settings.weight
            if weight not in ("cos", "sin", "alg"):
                return not_implemented(_WVAR_MISSING.get(weight, f"quad: the derivative with respect to wvar for "
                                                                 f"weight={weight!r}"))
            derivative = self.wvar_derivative()
            if weight == "alg":
                parts = split_tangent(dwvar, tuple(self.settings.wvar))
                total = total + sum(v * unthunk(t) for v, t in zip(derivative, parts) if not is_zero_tangent(t))
            else:
                total = total + derivative * unthunk(dwvar)
        return total


def differentiable_limit(limit: Any) -> bool:
    return not isinstance(limit, (bool, numbers.Integral, np.integer))


def _settings(epsabs: Any, epsrel: Any, limit: Any, points: Any, weight: Any, wvar: Any, wopts: Any, maxp1: Any,
              limlst: Any) -> QuadSettings:
    return QuadSettings(epsabs, epsrel, limit, points, weight, wvar, wopts, maxp1, limlst)


def _output_tangent(out: tuple[Any, ...], d_value: Any) -> Any:
    d_value = unthunk(d_value)
    value: Any
    if isinstance(d_value, NotImplementedTangent):
        value = d_value
    elif isinstance(d_value, AbstractZero) or (np.ndim(d_value) == 0 and d_value == 0):
        value = ZeroTangent()
    else:
        value = ProjectTo(out[0])(d_value)
    return Tangent(tuple, value, *(NoTangent() for _ in out[1:]))


# ---- quad ---------------------------------------------------------------------------------------------------
@rrule.register(scipy.integrate.quad, object, numbers.Real, numbers.Real, config=HasReverseMode)
def quad_rrule(config: Any, func: Any, a: Any, b: Any, args: Any = (), full_output: Any = 0, epsabs: Any = 1.49e-8,
               epsrel: Any = 1.49e-8, limit: Any = 50, points: Any = None, weight: Any = None, wvar: Any = None,
               wopts: Any = None, maxp1: Any = 50, limlst: Any = 50, complex_func: Any = False) -> Any:
    """Reverse rule of ``scipy.integrate.quad`` with respect to ``a``, ``b``, ``args`` (and ``func``'s values).

    Examples
    --------
    >>> import chainrules
    >>> from chainrules import RulesOnlyConfig, unthunk
    >>> out, pullback = rrule(RulesOnlyConfig(), scipy.integrate.quad, np.multiply, 0.0, 2.0, (3.0,))
    >>> out[0], [unthunk(c) for c in pullback((1.0, 0.0))[2:5]]     # int_0^b t x dx = t b^2 / 2
    (6.0, [-0.0, 6.0, Tangent(tuple, 2.0)])
    """
    out = scipy.integrate.quad(func, a, b, args, full_output, epsabs, epsrel, limit, points, weight, wvar, wopts,
                               maxp1, limlst, complex_func)
    integrand = _Integrand(config, func, a, b, args, _settings(epsabs, epsrel, limit, points, weight, wvar, wopts,
                                                                maxp1, limlst), value=out[0])
    project_args = cotangent_projector(args)

    def quad_pullback(d_out: Any) -> tuple[Any, ...]:
        dI = read_integral_cotangent(d_out, out, scipy.integrate.quad)
        settings: list[Any] = [NoTangent()] * _QUAD_SETTINGS
        if passes_through(dI):
            zero = ZeroTangent() if isinstance(dI, AbstractZero) else dI
            return (NoTangent(), NoTangent(), cotangent_projector(a)(zero), cotangent_projector(b)(zero),
                    project_args(zero), *settings)
        func_bar, args_bar = integrand.parameter_cotangents(dI)
        if not isinstance(args, tuple) and isinstance(args_bar, Tangent):
            args_bar = project_args(args_bar[0])
        settings[_WVAR] = integrand.wvar_cotangent(dI)
        return (NoTangent(), func_bar, integrand.limit_cotangent("a", dI), integrand.limit_cotangent("b", dI),
                args_bar, *settings)

    return out, quad_pullback


@frule.register(scipy.integrate.quad, object, numbers.Real, numbers.Real, config=HasForwardsMode)
def quad_frule(config: Any, tangents: Any, func: Any, a: Any, b: Any, args: Any = (), full_output: Any = 0,
               epsabs: Any = 1.49e-8, epsrel: Any = 1.49e-8, limit: Any = 50, points: Any = None, weight: Any = None,
               wvar: Any = None, wopts: Any = None, maxp1: Any = 50, limlst: Any = 50,
               complex_func: Any = False) -> Any:
    """Forward rule of ``scipy.integrate.quad`` along the tangents of ``a``, ``b``, ``args`` (and ``func``).

    Examples
    --------
    >>> import chainrules
    >>> from chainrules import RulesOnlyConfig, Tangent
    >>> tangents = (NoTangent(), NoTangent(), 0.0, 1.0, Tangent(tuple, 1.0))
    >>> frule(RulesOnlyConfig(), tangents, scipy.integrate.quad, np.multiply, 0.0, 2.0, (3.0,))[1]
    Tangent(tuple, 8.0, NoTangent())
    """
    out = scipy.integrate.quad(func, a, b, args, full_output, epsabs, epsrel, limit, points, weight, wvar, wopts,
                               maxp1, limlst, complex_func)
    integrand = _Integrand(config, func, a, b, args, _settings(epsabs, epsrel, limit, points, weight, wvar, wopts,
                                                                maxp1, limlst), value=out[0])
    padded = tuple(tangents) + (NoTangent(),) * (17 - len(tangents))
    d_value = integrand.tangent(padded[1], padded[2], padded[3], padded[4], padded[5 + _WVAR],
                                bool(np.iscomplexobj(out[0])))
    return out, _output_tangent(out, d_value)


# ---- quad_vec -------------------------------------------------------------------------------------------------
def _quad_vec_settings(epsabs: Any, epsrel: Any, norm: Any, limit: Any, points: Any, quadrature: Any) -> dict[str, Any]:
    return dict(epsabs=epsabs, epsrel=epsrel, norm=norm, limit=limit, points=points, quadrature=quadrature)


class _VectorIntegrand(_Integrand):
    """A ``quad_vec`` call: the same derivatives, the second integral by ``quad_vec`` with the primal's settings."""

    def __init__(self, config: Any, f: Any, a: Any, b: Any, args: Any, options: dict[str, Any]) -> None:
        super().__init__(config, f, a, b, args, QuadSettings(), differentiate_args=False)
        self.options = options

    def integrate(self, g: Any) -> np.ndarray:
        options = dict(self.options)
        if not (math.isfinite(self.a) and math.isfinite(self.b)):
            options.pop("points", None)
        return np.asarray(scipy.integrate.quad_vec(g, self.a, self.b, **options)[0])

    def parameter_cotangents(self, dI: Any) -> tuple[Any, Any]:
        d = self.derivatives
        try:
            fx = d.probe((_probe_point(self.a, self.b),), dI)
            if d.own is None:
                return d.cotangents(np.zeros(0))
            dI = _value_cotangent(dI, fx)
            return d.cotangents(self.integrate(lambda x: d.pullback_at((x,), dI)[1]))
        except NotImplementedDerivativeError as err:
            return err.tangent, err.tangent

    def tangent(self, dfunc: Any, da: Any, db: Any, dargs: Any, dwvar: Any, complex_func: bool) -> Any:
        total: Any = 0.0
        for sign, limit, dlimit in ((-1.0, self.a, da), (1.0, self.b, db)):
            if is_zero_tangent(dlimit) or not np.isfinite(limit):
                continue
            total = total + sign * np.asarray(self.value_at(float(limit))) * unthunk(dlimit)
        if not is_zero_tangent(dfunc):
            d = self.derivatives
            no_args = tuple(ZeroTangent() for _ in self.args)

            def pushed_forward(x: float) -> Any:
                dy = unthunk(d.forward_at((x,), (ZeroTangent(),), dfunc, no_args)[1])
                if isinstance(dy, NotImplementedTangent):
                    raise NotImplementedDerivativeError(dy)
                return np.zeros_like(self.value_at(x)) if isinstance(dy, AbstractZero) else dy

            try:
                total = total + self.integrate(pushed_forward)
            except NotImplementedDerivativeError as err:
                return err.tangent
        return total


@rrule.register(scipy.integrate.quad_vec, object, numbers.Real, numbers.Real, config=HasReverseMode)
def quad_vec_rrule(config: Any, f: Any, a: Any, b: Any, epsabs: Any = 1e-200, epsrel: Any = 1e-8, norm: Any = "2",
                   cache_size: Any = 100e6, limit: Any = 10000, workers: Any = 1, points: Any = None,
                   quadrature: Any = None, full_output: Any = False, *, args: Any = ()) -> Any:
    """Reverse rule of ``scipy.integrate.quad_vec`` with respect to ``a`` and ``b`` (and ``f``'s own values).

    Examples
    --------
    >>> import chainrules
    >>> from chainrules import RulesOnlyConfig, unthunk
    >>> out, pullback = rrule(RulesOnlyConfig(), scipy.integrate.quad_vec, np.sin, 0.0, 1.0)
    >>> bool(unthunk(pullback((1.0, 0.0))[3]) == np.sin(1.0))       # d/db int_0^b sin = sin(b)
    True
    """
    out = scipy.integrate.quad_vec(f, a, b, epsabs, epsrel, norm, cache_size, limit, workers, points, quadrature,
                                   full_output, args=args)
    integrand = _VectorIntegrand(config, f, a, b, args, _quad_vec_settings(epsabs, epsrel, norm, limit, points,
                                                                           quadrature))

    def quad_vec_pullback(d_out: Any) -> tuple[Any, ...]:
        dI = read_integral_cotangent(d_out, out, scipy.integrate.quad_vec)
        settings = [NoTangent()] * 9
        if passes_through(dI):
            zero = ZeroTangent() if isinstance(dI, AbstractZero) else dI
            return NoTangent(), NoTangent(), cotangent_projector(a)(zero), cotangent_projector(b)(zero), *settings
        func_bar, _ = integrand.parameter_cotangents(dI)
        return (NoTangent(), func_bar, integrand.limit_cotangent("a", dI), integrand.limit_cotangent("b", dI),
                *settings)

    return out, quad_vec_pullback


@frule.register(scipy.integrate.quad_vec, object, numbers.Real, numbers.Real, config=HasForwardsMode)
def quad_vec_frule(config: Any, tangents: Any, f: Any, a: Any, b: Any, epsabs: Any = 1e-200, epsrel: Any = 1e-8,
                   norm: Any = "2", cache_size: Any = 100e6, limit: Any = 10000, workers: Any = 1, points: Any = None,
                   quadrature: Any = None, full_output: Any = False, *, args: Any = ()) -> Any:
    """Forward rule of ``scipy.integrate.quad_vec`` along the tangents of ``a`` and ``b`` (and ``f``).

    Examples
    --------
    >>> import chainrules
    >>> from chainrules import RulesOnlyConfig
    >>> frule(RulesOnlyConfig(), (NoTangent(), NoTangent(), 0.0, 1.0), scipy.integrate.quad_vec, np.cos, 0.0, 0.0)[1]
    Tangent(tuple, 1.0, NoTangent())
    """
    out = scipy.integrate.quad_vec(f, a, b, epsabs, epsrel, norm, cache_size, limit, workers, points, quadrature,
                                   full_output, args=args)
    integrand = _VectorIntegrand(config, f, a, b, args, _quad_vec_settings(epsabs, epsrel, norm, limit, points,
                                                                           quadrature))
    padded = tuple(tangents) + (NoTangent(),) * (4 - len(tangents))
    d_value = integrand.tangent(padded[1], padded[2], padded[3], ZeroTangent(), ZeroTangent(), False)
    return out, _output_tangent(out, d_value)


# ---- sample inputs -----------------------------------------------------------------------------------------
def value_only(out: tuple[Any, ...]) -> Any:
    """The integral alone: what the finite differences compare (the error estimate is not differentiable)."""
    return out[0]


@sample_inputs(scipy.integrate.quad)
def _quad_samples(rng: np.random.Generator) -> Iterator[Sample]:
    from chainrules.testing import PrimalAndTangent

    # Tight tolerances: the finite differences of an integral are as accurate as its tolerance allows.
    tight = {"epsabs": 1e-12, "epsrel": 1e-12}
    options: dict[str, Any] = {"config": RulesOnlyConfig(), "gauge_invariant": value_only}
    yield Sample(np.multiply, 0.5, 2.0, (1.5,), **options, label="int t x dx, default tolerances")
    yield Sample(np.hypot, -1.0, 1.5, (0.7,), fkwargs=tight, **options, label="hypot(x, t)")
    yield Sample(scipy.special.jv, 0.5, 2.0, (1.5,), fkwargs=tight, **options,
                 label="scipy.special.jv over its order, a parameter z")
    yield Sample(np.hypot, 2.0, 0.5, fkwargs={"args": (0.7,), **tight}, **options,
                 label="a > b, args by keyword (constant)")
    yield Sample(np.power, 1.0, np.inf, (-2.5,), fkwargs=tight, **options, label="an infinite limit: int_1^inf x^t dx")
    yield Sample(np.hypot, 0.0, 2.0, (0.5,), fkwargs={"weight": "cos", "wvar": 3.0, **tight}, **options,
                 label="weight cos")
    yield Sample(np.power, 1.0, np.inf, (-2.0,), fkwargs={"weight": "sin", "wvar": 2.0, **tight}, **options,
                 label="a Fourier integral (QAWF)")
    yield Sample(np.hypot, 0.0, 2.0, (0.5,), fkwargs={"weight": "cauchy", "wvar": 0.8, **tight}, **options,
                 label="a Cauchy principal value")
    fixed = [PrimalAndTangent(v, NoTangent()) for v in (1e-12, 1e-12)]  # a tolerance is not a differentiable input
    yield Sample(np.hypot, 0.0, 2.0, (0.5,), 0, *fixed, 50, [0.8], **options, label="tolerances and points by position")
    xp, fp = np.array([0.0, 1.0, 2.0, 3.0]), rng.standard_normal(4)
    yield Sample(np.interp, 0.2, 2.5, (xp.astype(int), fp), fkwargs={"points": xp[1:-1], **tight}, **options,
                 label="an array parameter: int interp(x, xp, fp) dx (quad_vec)")
    # QAWO reaches about 1e-10 here, which bounds the finite differences' accuracy
    yield Sample(np.interp, 0.2, 1.5, (np.arange(3), fp[:3]), fkwargs={"weight": "sin", "wvar": 1.5, **tight},
                 **options, rtol=1e-6, label="an array parameter and a weight (quad per value)")
    yield Sample(np.multiply, 0.0, 1.0, (1.0 + 2.0j,), fkwargs={"complex_func": True, **tight}, **options,
                 label="a complex integrand and parameter")


@sample_inputs(scipy.integrate.quad_vec)
def _quad_vec_samples(rng: np.random.Generator) -> Iterator[Sample]:
    config = RulesOnlyConfig()
    tight = {"epsabs": 1e-13, "epsrel": 1e-13}
    yield Sample(np.sin, 0.0, 1.5, config=config, gauge_invariant=value_only, label="a scalar integrand")
    yield Sample(np.hypot, -0.5, 1.0, fkwargs={"args": (np.array([0.5, 1.0, 2.0]),), **tight}, config=config,
                 gauge_invariant=value_only, label="a vector integrand, args by keyword (constant)")
    yield Sample(np.exp, -np.inf, 0.5, fkwargs=tight, config=config, gauge_invariant=value_only,
                 label="an infinite limit")
