"""Roots of scalar equations: ``root_scalar``, ``brentq``, ``brenth``, ``ridder``, ``bisect``, ``toms748``
and ``newton`` (scalar, and vectorised over an array ``x0``).

The maths
---------
For a scalar equation ``f(x*, theta) = 0`` with ``f_x = df/dx != 0`` at the root, the
implicit function theorem gives ``dx* = -(df/dtheta) dtheta / f_x``: reverse mode pulls
``-x_bar / f_x`` back through ``f`` in ``theta``. One pullback of ``f`` at the root gives
``f_x`` (the cotangent of ``x`` for the output cotangent 1), one more gives the cotangents of
``args``; forward mode needs two pushforwards of ``f``. The bracket (``a``, ``b``,
``bracket``) and the starting points (``x0``, ``x1``) do not move the root: ``ZeroTangent()``.
A root where ``f_x = 0`` (a double root, or a sign change at a discontinuity that a
bracketing method reports as a root) has no derivative:
:class:`~chainrules.rulesets.optimize.ImplicitDerivativeError`.

``newton`` with an array ``x0`` solves ``len(x0)`` scalar equations at once (SciPy updates
each entry from its own derivative, so it expects ``func`` to act elementwise). The rule
checks that: ``J^T 1`` (one pullback) is the diagonal ``d`` of a diagonal ``J``, and a second
pullback at a fixed random vector ``r`` must give ``d * r``. Then the adjoint solve is the
division ``x_bar / d``; if ``J`` is not diagonal, the general solve of ``root`` (dense or
GMRES, :mod:`chainrules.rulesets.optimize._implicit`) takes over, so a coupled ``func`` that
SciPy nevertheless solved still gets its exact derivative.

Outputs: the root (a NumPy float, or an array), and with ``full_output`` also a
``RootResults`` (whose ``root`` is the root again; ``iterations``, ``converged``... get
``NoTangent()``), or for array ``newton`` the named tuple ``(root, converged, zero_der)``.
``root_scalar`` returns a ``RootResults``. A root the solver reports as not converged
(``converged=False``, with ``disp=False``; with ``disp=True`` SciPy raises itself) makes the
pullback and the frule raise :class:`~chainrules.rulesets.optimize.ImplicitDerivativeError`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import scipy.optimize

from chainrules.rulesets.arrays.higher_order import carries_no_values
from chainrules.rulesets.optimize import _problems
from chainrules.rulesets.optimize._implicit import (
    ImplicitDerivativeError,
    MissingDerivative,
    args_cotangent,
    args_tangents,
    args_tuple,
    args_zero_cotangent,
    bind,
    flat,
    is_zero,
    read_result_cotangent,
    shaped,
    zero_cotangent,
)
from chainrules.rulesets.optimize._solve_rules import (
    ShiftedForward,
    ShiftedReverse,
    implicit_pullback,
    implicit_pushforward,
)
from chainrules.rulesets.optimize.roots import result_tangent
from chainrules_core import (
    AbstractZero,
    HasForwardsMode,
    HasReverseMode,
    NoTangent,
    NotImplementedTangent,
    ProjectionError,
    RulesOnlyConfig,
    Sample,
    Tangent,
    ZeroTangent,
    backing,
    frule,
    read_cotangent,
    rrule,
    sample_inputs,
    unthunk,
)

__all__: list[str] = []

NO = NoTangent()
ZERO = ZeroTangent()
BRACKETING = (scipy.optimize.brentq, scipy.optimize.brenth, scipy.optimize.ridder, scipy.optimize.bisect,
              scipy.optimize.toms748)
"""The bracketing root finders: ``f(f, a, b, args=(), ...)``, same outputs."""


def _name(f: Any) -> str:
    return f"scipy.optimize.{f.__name__}"


def _not_converged(name: str, flag: Any) -> ImplicitDerivativeError:
    return ImplicitDerivativeError(f"{name} did not converge ({flag}): the implicit derivative at a point that is "
                                   "not a root would be wrong")


class _Problem:
    """One call of a scalar root finder: the callable, the root, ``args`` and how to reach them."""

    def __init__(self, name: str, fun: Any, root: Any, args: Any, converged: bool, flag: Any, part: int | None,
                 elementwise: bool = False) -> None:
        self.name = name
        self.fun = fun
        self.root = root
        self.args = args
        self.items = args_tuple(args)
        self.converged = converged
        self.flag = flag
        self.part = part
        self.elementwise = elementwise

    def cotangents(self, config: Any, xbar: Any) -> tuple[Any, Any]:
        """``(d_fun, d_args)`` for the cotangent ``xbar`` of the root."""
        if not self.converged:
            raise _not_converged(self.name, self.flag)
        lin = ShiftedReverse(config, self.fun, self.root, self.items, part=self.part)
        dfun, dargs = implicit_pullback(lin, flat(xbar, self.root), self.name, what="the derivative of f",
                                        elementwise=self.elementwise)
        return dfun, args_cotangent(self.args, dargs)

    def tangent(self, config: Any, dfun: Any, dargs: Any) -> Any:
        """The root's tangent (a float for a scalar root)."""
        if not self.converged:
            raise _not_converged(self.name, self.flag)
        lin = ShiftedForward(config, self.fun, self.root, self.items, part=self.part)
        dx = implicit_pushforward(lin, dfun, args_tangents(dargs, self.args), self.name, what="the derivative of f",
                                  elementwise=self.elementwise)
        return shaped(dx, self.root)

    def missing_fun(self, tangent: NotImplementedTangent) -> Any:
        return NO if carries_no_values(self.fun) else tangent

    def missing_args(self, tangent: NotImplementedTangent) -> Any:
        return tangent if args_zero_cotangent(self.args) is ZERO else NO


def _read_root_and_results(dy: Any, y: Any, root: Any, results: Any, full_output: bool, name: str) -> Any:
    """The root's total cotangent (``None`` for zero) from the output ``root`` or ``(root, RootResults)``."""
    if not full_output:
        xbar = read_cotangent(dy, root, name)
        return None if isinstance(xbar, AbstractZero) else xbar
    dy = unthunk(dy)
    if isinstance(dy, (AbstractZero, NotImplementedTangent)):
        return None if isinstance(dy, AbstractZero) else dy
    parts = backing(dy) if isinstance(dy, Tangent) else dy
    if not isinstance(parts, (tuple, list)) or len(parts) != 2:
        raise ProjectionError(f"{name} pullback: output cotangent is a {type(dy).__name__}, expected a Tangent of the "
                              "2-tuple (root, RootResults)")
    xbar = read_cotangent(parts[0], root, name, "cotangent of output 0 (the root)")
    fields = read_result_cotangent(parts[1], results, ("root",), name)
    for t in (xbar, fields):
        if isinstance(t, NotImplementedTangent):
            return t
    total = None if isinstance(xbar, AbstractZero) else xbar
    if isinstance(fields, dict) and fields["root"] is not None:
        total = fields["root"] if total is None else total + fields["root"]
    return total


# ---- bracketing methods ------------------------------------------------------------------------------------------
def _bracket_call(f: Any, positional: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Any, Any, dict[str, Any]]:
    params = bind(f, positional, kwargs)
    call = dict(params)
    call["full_output"] = True
    root, results = f(**call)
    y = (root, results) if params["full_output"] else root
    return y, (root, results), params


def _bracket_cotangents(npos: int, dfun: Any, params: dict[str, Any], dargs: Any) -> tuple[Any, ...]:
    out = [NO, dfun, zero_cotangent(params["a"]), zero_cotangent(params["b"])]
    if npos >= 4:
        out.append(dargs)
    out.extend([NO] * (npos - 4))
    return tuple(out)


def _make_bracket_rules(f: Any) -> None:
    name = _name(f)

    def bracket_rrule(config: Any, fun: Any, a: Any, b: Any, *rest: Any, **kwargs: Any) -> Any:
        y, (root, results), params = _bracket_call(f, (fun, a, b, *rest), kwargs)
        npos = 3 + len(rest)
        problem = _Problem(name, fun, root, params["args"], results.converged, results.flag, None)

        def bracket_pullback(dy: Any) -> tuple[Any, ...]:
            xbar = _read_root_and_results(dy, y, root, results, params["full_output"], name)
            if isinstance(xbar, NotImplementedTangent):
                return _bracket_cotangents(npos, problem.missing_fun(xbar), params, problem.missing_args(xbar))
            if xbar is None:
                return _bracket_cotangents(npos, NO, params, args_zero_cotangent(params["args"]))
            try:
                dfun, dargs = problem.cotangents(config, xbar)
            except MissingDerivative as missing:
                return _bracket_cotangents(npos, problem.missing_fun(missing.tangent), params,
                                           problem.missing_args(missing.tangent))
            return _bracket_cotangents(npos, dfun, params, dargs)

        bracket_pullback.__name__ = f"{f.__name__}_pullback"
        return y, bracket_pullback

    def bracket_frule(config: Any, tangents: Any, fun: Any, a: Any, b: Any, *rest: Any, **kwargs: Any) -> Any:
        y, (root, results), params = _bracket_call(f, (fun, a, b, *rest), kwargs)
        dfun = tangents[1] if len(tangents) > 1 else NO
        dargs = tangents[4] if len(tangents) > 4 else ZERO
        if is_zero(dfun) and is_zero(dargs):
            return y, ZERO
        problem = _Problem(name, fun, root, params["args"], results.converged, results.flag, None)
        try:
            dx = problem.tangent(config, dfun, dargs)
        except MissingDerivative as missing:
            return y, missing.tangent
        if not params["full_output"]:
            return y, dx
        return y, Tangent(tuple, dx, result_tangent(results, {"root": dx}))

    bracket_rrule.__name__ = f"{f.__name__}_rrule"
    bracket_rrule.__qualname__ = bracket_rrule.__name__
    bracket_rrule.__doc__ = (f"Reverse rule of ``{name}``: ``args_bar = -(df/dargs) x_bar / f_x`` at the root "
                             "(``a``, ``b``: ``ZeroTangent()``).")
    bracket_frule.__name__ = f"{f.__name__}_frule"
    bracket_frule.__qualname__ = bracket_frule.__name__
    bracket_frule.__doc__ = f"Forward rule of ``{name}``: ``dx = -(df/dargs) dargs / f_x`` at the root."
    rrule.register(f, object, object, object, config=HasReverseMode)(bracket_rrule)
    frule.register(f, object, object, object, config=HasForwardsMode)(bracket_frule)


for _f in BRACKETING:
    _make_bracket_rules(_f)


# ---- root_scalar -------------------------------------------------------------------------------------------------
def _root_scalar_part(params: dict[str, Any]) -> int | None:
    """``fprime=True`` / ``fprime2=True``: ``f`` returns ``(f, f', ...)``, the value first."""
    return 0 if params.get("fprime") is True or params.get("fprime2") is True else None


def _root_scalar_cotangents(npos: int, dfun: Any, params: dict[str, Any], dargs: Any) -> tuple[Any, ...]:
    out: list[Any] = [NO, dfun]
    names = ["args", "method", "bracket", "fprime", "fprime2", "x0", "x1"]
    for name in names[:max(npos - 1, 0)]:
        out.append(dargs if name == "args" else zero_cotangent(params[name]) if name in ("bracket", "x0", "x1")
                   else NO)
    out.extend([NO] * (npos - 1 - len(names)))
    return tuple(out[:npos + 1])


@rrule.register(scipy.optimize.root_scalar, object, config=HasReverseMode)
def root_scalar_rrule(config: Any, f: Any, *rest: Any, **kwargs: Any) -> Any:
    """Reverse rule of ``scipy.optimize.root_scalar`` (every method): ``args_bar = -(df/dargs) root_bar / f_x``.

    Examples
    --------
    >>> import numpy as np, scipy.optimize
    >>> from chainrules import rrule, RulesOnlyConfig, Tangent
    >>> from chainrules.rulesets.optimize import _problems
    >>> _problems.register()                                    # x**2 - t
    >>> res, pullback = rrule(RulesOnlyConfig(), scipy.optimize.root_scalar, _problems.square_residual, (2.0,),
    ...                       bracket=[0.0, 3.0], xtol=1e-14)
    >>> dargs = pullback(Tangent(type(res), {"root": 1.0}))[2]
    >>> bool(np.isclose(dargs[0], 1 / (2 * np.sqrt(2.0))))       # d sqrt(t) / dt
    True
    """
    res = scipy.optimize.root_scalar(f, *rest, **kwargs)
    params = bind(scipy.optimize.root_scalar, (f, *rest), kwargs)
    npos = 1 + len(rest)
    name = "scipy.optimize.root_scalar"
    problem = _Problem(name, f, res.root, params["args"], res.converged, res.flag, _root_scalar_part(params))

    def root_scalar_pullback(dy: Any) -> tuple[Any, ...]:
        cts = read_result_cotangent(dy, res, ("root",), name)
        if isinstance(cts, NotImplementedTangent):
            return _root_scalar_cotangents(npos, problem.missing_fun(cts), params, problem.missing_args(cts))
        if isinstance(cts, AbstractZero) or cts["root"] is None:
            return _root_scalar_cotangents(npos, NO, params, args_zero_cotangent(params["args"]))
        try:
            dfun, dargs = problem.cotangents(config, cts["root"])
        except MissingDerivative as missing:
            return _root_scalar_cotangents(npos, problem.missing_fun(missing.tangent), params,
                                           problem.missing_args(missing.tangent))
        return _root_scalar_cotangents(npos, dfun, params, dargs)

    return res, root_scalar_pullback


@frule.register(scipy.optimize.root_scalar, object, config=HasForwardsMode)
def root_scalar_frule(config: Any, tangents: Any, f: Any, *rest: Any, **kwargs: Any) -> Any:
    """Forward rule of ``scipy.optimize.root_scalar``: ``droot = -(df/dargs) dargs / f_x``."""
    res = scipy.optimize.root_scalar(f, *rest, **kwargs)
    params = bind(scipy.optimize.root_scalar, (f, *rest), kwargs)
    dfun = tangents[1] if len(tangents) > 1 else NO
    dargs = tangents[2] if len(tangents) > 2 else ZERO
    if is_zero(dfun) and is_zero(dargs):
        return res, ZERO
    problem = _Problem("scipy.optimize.root_scalar", f, res.root, params["args"], res.converged, res.flag,
                       _root_scalar_part(params))
    try:
        return res, result_tangent(res, {"root": problem.tangent(config, dfun, dargs)})
    except MissingDerivative as missing:
        return res, missing.tangent


# ---- newton ------------------------------------------------------------------------------------------------------
def _newton_call(positional: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Any, Any, dict[str, Any]]:
    params = bind(scipy.optimize.newton, positional, kwargs)
    call = dict(params)
    call["full_output"] = True
    out = scipy.optimize.newton(**call)
    return (out if params["full_output"] else out[0]), out, params


def _newton_problem(out: Any, params: dict[str, Any], fun: Any) -> _Problem:
    part = 0 if params["fprime"] is True or params["fprime2"] is True else None
    if hasattr(out, "_fields"):  # array x0: (root, converged, zero_der)
        converged = bool(np.all(out.converged))
        flag = f"{int(np.sum(~np.asarray(out.converged)))} of {np.size(out.converged)} entries failed"
        return _Problem("scipy.optimize.newton", fun, out.root, params["args"], converged, flag, part, elementwise=True)
    root, results = out
    return _Problem("scipy.optimize.newton", fun, root, params["args"], results.converged, results.flag, part)


def _newton_cotangents(npos: int, dfun: Any, params: dict[str, Any], dargs: Any) -> tuple[Any, ...]:
    out = [NO, dfun, zero_cotangent(params["x0"])]
    if npos >= 3:
        out.append(NO)  # fprime
    if npos >= 4:
        out.append(dargs)
    out.extend([NO] * (npos - 4))
    return tuple(out)


def _read_newton(dy: Any, y: Any, out: Any, full_output: bool) -> Any:
    name = "scipy.optimize.newton"
    if not hasattr(out, "_fields"):
        return _read_root_and_results(dy, y, out[0], out[1], full_output, name)
    if not full_output:
        xbar = read_cotangent(dy, out.root, name)
        return None if isinstance(xbar, AbstractZero) else xbar
    dy = unthunk(dy)
    if isinstance(dy, (AbstractZero, NotImplementedTangent)):
        return None if isinstance(dy, AbstractZero) else dy
    if isinstance(dy, Tangent):
        stored = backing(dy)
        part = stored.get("root", ZERO) if isinstance(stored, dict) else stored[0]
    elif isinstance(dy, (tuple, list)) and len(dy) == 3:
        part = dy[0]
    else:
        raise ProjectionError(f"{name} pullback: output cotangent is a {type(dy).__name__}, expected a Tangent of "
                              "(root, converged, zero_der)")
    xbar = read_cotangent(part, out.root, name, "cotangent of the field 'root'")
    return None if isinstance(xbar, AbstractZero) else xbar


@rrule.register(scipy.optimize.newton, object, object, config=HasReverseMode)
def newton_rrule(config: Any, func: Any, x0: Any, *rest: Any, **kwargs: Any) -> Any:
    """Reverse rule of ``scipy.optimize.newton`` (Newton, secant, Halley; scalar or elementwise over an array).

    Examples
    --------
    >>> import numpy as np, scipy.optimize
    >>> from chainrules import rrule, RulesOnlyConfig
    >>> from chainrules.rulesets.optimize import _problems
    >>> _problems.register()
    >>> t = np.array([4.0, 9.0])
    >>> x, pullback = rrule(RulesOnlyConfig(), scipy.optimize.newton, _problems.square_residual, np.ones(2),
    ...                     None, (t,), tol=1e-14)
    >>> x, pullback(np.ones(2))[4]                      # 1 / (2 sqrt(t))
    (array([2., 3.]), Tangent(tuple, array([0.25      , 0.16666667])))
    """
    y, out, params = _newton_call((func, x0, *rest), kwargs)
    npos = 2 + len(rest)
    problem = _newton_problem(out, params, func)

    def newton_pullback(dy: Any) -> tuple[Any, ...]:
        xbar = _read_newton(dy, y, out, params["full_output"])
        if isinstance(xbar, NotImplementedTangent):
            return _newton_cotangents(npos, problem.missing_fun(xbar), params, problem.missing_args(xbar))
        if xbar is None:
            return _newton_cotangents(npos, NO, params, args_zero_cotangent(params["args"]))
        try:
            dfun, dargs = problem.cotangents(config, xbar)
        except MissingDerivative as missing:
            return _newton_cotangents(npos, problem.missing_fun(missing.tangent), params,
                                      problem.missing_args(missing.tangent))
        return _newton_cotangents(npos, dfun, params, dargs)

    return y, newton_pullback


@frule.register(scipy.optimize.newton, object, object, config=HasForwardsMode)
def newton_frule(config: Any, tangents: Any, func: Any, x0: Any, *rest: Any, **kwargs: Any) -> Any:
    """Forward rule of ``scipy.optimize.newton``."""
    y, out, params = _newton_call((func, x0, *rest), kwargs)
    dfun = tangents[1] if len(tangents) > 1 else NO
    dargs = tangents[4] if len(tangents) > 4 else ZERO
    if is_zero(dfun) and is_zero(dargs):
        return y, ZERO
    problem = _newton_problem(out, params, func)
    try:
        dx = problem.tangent(config, dfun, dargs)
    except MissingDerivative as missing:
        return y, missing.tangent
    if not params["full_output"]:
        return y, dx
    if hasattr(out, "_fields"):
        return y, Tangent(type(out), root=dx, converged=NO, zero_der=NO)
    return y, Tangent(tuple, dx, result_tangent(out[1], {"root": dx}))


# ---- samples -------------------------------------------------------------------------------------------------------
@sample_inputs(*BRACKETING)
def _bracket_samples(rng: np.random.Generator) -> Iterator[Sample]:
    _problems.register()
    config = RulesOnlyConfig()
    yield Sample(_problems.square_residual, 0.0, 3.0, (2.0,), fkwargs={"xtol": 1e-14}, config=config,
                 label="x**2 - t on [0, 3]")
    yield Sample(_problems.square_residual, 0.5, 3.0, (np.float32(3.0),), fkwargs={"xtol": 1e-14, "full_output": True},
                 config=config, label="a float32 parameter, full_output")


@sample_inputs(scipy.optimize.root_scalar)
def _root_scalar_samples(rng: np.random.Generator) -> Iterator[Sample]:
    _problems.register()
    config = RulesOnlyConfig()
    yield Sample(_problems.square_residual, (2.0,), "brentq", [0.0, 3.0], fkwargs={"xtol": 1e-14}, config=config,
                 label="brentq, bracket by position")
    yield Sample(_problems.square_residual, (2.0,), fkwargs={"method": "secant", "x0": 1.0, "x1": 2.0, "xtol": 1e-14},
                 config=config, label="secant")


@sample_inputs(scipy.optimize.newton)
def _newton_samples(rng: np.random.Generator) -> Iterator[Sample]:
    _problems.register()
    config = RulesOnlyConfig()
    yield Sample(_problems.square_residual, 1.0, None, (3.0,), fkwargs={"tol": 1e-14}, config=config,
                 label="secant, scalar")
    yield Sample(_problems.square_residual, np.array([1.0, 2.0, 1.5]), None, (np.array([2.0, 5.0, 3.0]),),
                 fkwargs={"tol": 1e-14}, config=config, label="elementwise over an array x0")
