"""Roots of systems of equations: ``scipy.optimize.root`` (every method) and ``scipy.optimize.fsolve``.

The maths
---------
The solver returns ``x*`` with ``F(x*, theta) = 0`` for ``F = fun(x, *args)`` (``theta``: the
values in ``args``, and those the callable carries). Where the Jacobian ``J = dF/dx`` at ``x*``
is invertible, the implicit function theorem (Krantz & Parks, *The Implicit Function
Theorem*, 2013, Thm 3.3.1) makes ``x*`` a smooth function of ``theta`` with
``J dx* = -(dF/dtheta) dtheta``. Reverse mode solves the adjoint system ``J^T u = x*_bar``
once and pulls ``-u`` back through ``F`` in ``theta`` (one vector-Jacobian product), as in
jaxopt's ``root_vjp`` (Blondel et al. 2022, "Efficient and modular implicit
differentiation", NeurIPS, eq. 2-3). The solver's iterations, tolerances and starting
point ``x0`` play no part: ``x0`` gets ``ZeroTangent()``, ``method``, ``tol``, ``options``...
``NoTangent()``.

How ``J`` is handled (formed and factored for a few unknowns, GMRES first above, the user's
``jac`` used and checked) is described in :mod:`chainrules.rulesets.optimize._implicit`.

Outputs: ``root`` returns an ``OptimizeResult``; its differentiable fields are ``x`` and
``fun`` (``F(x*)``, identically zero along the solution, so its tangent is zero and its
cotangent contributes nothing). Solver internals (``fjac``, ``r``, ``qtf``, ``cov_x``:
approximations built along the iterations) have no tangent, like ``quad``'s error estimate:
``NoTangent()`` in forward mode, and their cotangents are ignored. ``fsolve`` returns ``x``
(or ``(x, infodict, ier, mesg)`` with ``full_output``, whose ``infodict['fvec']`` is ``F(x*)``).

``root(method='lm')`` accepts more equations than unknowns (a least-squares problem): its
solution is a stationary point of ``|F|^2``, not a root, and its derivative is
``not_implemented`` here (``least_squares`` has that rule). A result with
``success=False`` (``ier != 1`` for ``fsolve``) makes the pullback (and the frule) raise
:class:`~chainrules.rulesets.optimize.ImplicitDerivativeError`.
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
from chainrules_core import (
    AbstractZero,
    HasForwardsMode,
    HasReverseMode,
    NoTangent,
    NotImplementedTangent,
    RulesOnlyConfig,
    Sample,
    Tangent,
    ZeroTangent,
    frule,
    not_implemented,
    read_cotangent,
    rrule,
    sample_inputs,
    unthunk,
)

__all__ = ["result_tangent", "solution_fields"]

NO = NoTangent()
ZERO = ZeroTangent()
_ROOT = "scipy.optimize.root"
_FSOLVE = "scipy.optimize.fsolve"
_RECTANGULAR = ("scipy.optimize.root(method='lm') with {m} equations in {n} unknowns finds a least-squares point, "
                "not a root: its derivative is not implemented here; use scipy.optimize.least_squares, whose rule "
                "differentiates it")


def result_tangent(result: Any, values: dict[str, Any]) -> Tangent:
    """The structural tangent of a result object: ``values`` for its differentiable fields, ``NoTangent()`` for
    the other floating fields (the solver's internals).

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.optimize
    >>> res = scipy.optimize.OptimizeResult(x=np.ones(2), fun=0.5, hess_inv=np.eye(2), nit=3)
    >>> result_tangent(res, {"x": np.zeros(2), "fun": 1.0})
    Tangent(OptimizeResult, {'x': array([0., 0.]), 'fun': 1.0, 'hess_inv': NoTangent()})
    """
    fields = dict(values)
    for key, value in result.items():
        if key not in fields and isinstance(value, (float, np.floating, np.ndarray)) and np.asarray(
                value).dtype.kind in "fc":
            fields[key] = NO
    return Tangent(type(result), fields)


def solution_fields(result: Any) -> tuple[Any, Any]:
    """``(result.x, result.fun)``: what the samples compare (the differentiable fields of a root or a minimum).

    Examples
    --------
    >>> import scipy.optimize
    >>> solution_fields(scipy.optimize.OptimizeResult(x=1.0, fun=2.0, nit=4))
    (1.0, 2.0)
    """
    return result.x, result.fun


def _not_converged(name: str, message: Any, residual: Any = None) -> ImplicitDerivativeError:
    detail = ""
    if residual is not None and np.size(residual):
        detail = (f"; max |F(x)| there is {float(np.max(np.abs(residual))):.1e} (MINPACK also reports a tolerance "
                  "below what it can certify as 'not making good progress': then loosen xtol/tol)")
    return ImplicitDerivativeError(f"{name} did not converge ({str(message).strip()}){detail}: the implicit derivative "
                                   "at a point that is not a solution would be wrong")


def _cotangents(npos: int, dfun: Any, x0: Any, dargs: Any) -> tuple[Any, ...]:
    """``(NoTangent(), d_fun, d_x0, d_args, NoTangent()...)`` for the ``npos`` positional arguments given."""
    out = [NO, dfun, zero_cotangent(x0)]
    if npos >= 3:
        out.append(dargs)
    out.extend([NO] * (npos - 3))
    return tuple(out)


def _fill(npos: int, t: Any, fun: Any, x0: Any, args: Any) -> tuple[Any, ...]:
    out = [NO if carries_no_values(fun) else t, zero_cotangent(x0)]
    if npos >= 3:
        out.append(t if args_zero_cotangent(args) is ZERO else NO)
    out.extend([NO] * (npos - 3))
    return tuple(out)


def _missing(npos: int, fun: Any, x0: Any, args: Any, tangent: NotImplementedTangent) -> tuple[Any, ...]:
    """Every differentiable argument's cotangent is ``tangent`` (``x0``'s stays zero: it truly is)."""
    return (NO, *_fill(npos, tangent, fun, x0, args))


# ---- root ----------------------------------------------------------------------------------------------------------
def _user_jacobian(jac: Any, lin_output: Any, x: Any, args: tuple[Any, ...], m: int, n: int) -> np.ndarray | None:
    """The user's Jacobian at the solution (``jac=True``: from ``fun``'s output; callable: called), else ``None``."""
    if jac is True:
        value = lin_output[1]
    elif callable(jac):
        value = jac(x, *args)
    else:
        return None
    arr = np.asarray(value, dtype=np.float64)
    return arr.reshape(m, n) if arr.size == m * n else None


def _root_parts(fun: Any, x0: Any, rest: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    params = bind(scipy.optimize.root, (fun, x0, *rest), kwargs)
    return scipy.optimize.root(fun, x0, *rest, **kwargs), params


@rrule.register(scipy.optimize.root, object, object, config=HasReverseMode)
def root_rrule(config: Any, fun: Any, x0: Any, *rest: Any, **kwargs: Any) -> Any:
    """Reverse rule of ``scipy.optimize.root``: solve ``J^T u = x_bar``, then ``args_bar = -(dF/dargs)^T u``.

    Examples
    --------
    >>> import numpy as np, scipy.optimize
    >>> from chainrules import rrule, RulesOnlyConfig, Tangent
    >>> from chainrules.rulesets.optimize import _problems
    >>> _problems.register()                      # x**2 - t, with rules
    >>> res, pullback = rrule(RulesOnlyConfig(), scipy.optimize.root, _problems.square_residual, np.array([1.0]),
    ...                       (np.array([2.0]),))
    >>> dargs = pullback(Tangent(type(res), {"x": np.array([1.0])}))[3]
    >>> bool(np.isclose(dargs[0][0], 1 / (2 * np.sqrt(2))))     # d sqrt(t)/dt
    True
    """
    res, params = _root_parts(fun, x0, rest, kwargs)
    npos = 2 + len(rest)
    args = params["args"]
    items = args_tuple(args)
    jac = params["jac"]
    part = 0 if jac is True else None

    def root_pullback(dy: Any) -> tuple[Any, ...]:
        cts = read_result_cotangent(dy, res, ("x", "fun"), scipy.optimize.root)
        if isinstance(cts, NotImplementedTangent):
            return _missing(npos, fun, x0, args, cts)
        if isinstance(cts, AbstractZero) or cts["x"] is None:
            return _cotangents(npos, NO, x0, args_zero_cotangent(args))
        m, n = int(np.size(res.fun)), int(np.size(res.x))
        if m != n:
            return _missing(npos, fun, x0, args, not_implemented(_RECTANGULAR.format(m=m, n=n)))
        if not res.success:
            raise _not_converged(_ROOT, res.message, res.get("fun"))
        try:
            lin = ShiftedReverse(config, fun, res.x, items, part=part)
            user = _user_jacobian(jac, lin.output, res.x, items, lin.m, lin.n)
            dfun, dargs = implicit_pullback(lin, flat(cts["x"], res.x), _ROOT, jacobian=user)
        except MissingDerivative as missing:
            return _missing(npos, fun, x0, args, missing.tangent)
        return _cotangents(npos, dfun, x0, args_cotangent(args, dargs))

    return res, root_pullback


@frule.register(scipy.optimize.root, object, object, config=HasForwardsMode)
def root_frule(config: Any, tangents: Any, fun: Any, x0: Any, *rest: Any, **kwargs: Any) -> Any:
    """Forward rule of ``scipy.optimize.root``: ``J dx = -(dF/dargs) dargs`` at the solution."""
    res, params = _root_parts(fun, x0, rest, kwargs)
    args = params["args"]
    dfun = tangents[1] if len(tangents) > 1 else NO
    dargs = tangents[3] if len(tangents) > 3 else ZERO
    if is_zero(dfun) and is_zero(dargs):
        return res, ZERO
    m, n = int(np.size(res.fun)), int(np.size(res.x))
    if m != n:
        return res, not_implemented(_RECTANGULAR.format(m=m, n=n))
    if not res.success:
        raise _not_converged(_ROOT, res.message, res.get("fun"))
    jac = params["jac"]
    items = args_tuple(args)
    try:
        lin = ShiftedForward(config, fun, res.x, items, part=0 if jac is True else None)
        user = None
        if jac is True:
            user = np.asarray(fun(res.x, *items)[1], dtype=np.float64).reshape(n, n)
        elif callable(jac):
            user = np.asarray(jac(res.x, *items), dtype=np.float64).reshape(n, n)
        dx = implicit_pushforward(lin, dfun, args_tangents(dargs, args), _ROOT, jacobian=user)
    except MissingDerivative as missing:
        return res, missing.tangent
    return res, result_tangent(res, {"x": shaped(dx, res.x), "fun": np.zeros(np.shape(res.fun))})


# ---- fsolve --------------------------------------------------------------------------------------------------------
def _fsolve_parts(func: Any, x0: Any, rest: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Any, Any, dict[str, Any]]:
    params = bind(scipy.optimize.fsolve, (func, x0, *rest), kwargs)
    full = dict(params)
    full["full_output"] = True
    x, info, ier, mesg = scipy.optimize.fsolve(**full)
    y = (x, info, ier, mesg) if params["full_output"] else x
    return y, (x, info, ier, mesg), params


def _fsolve_jacobian(params: dict[str, Any], x: np.ndarray, items: tuple[Any, ...]) -> np.ndarray | None:
    fprime = params["fprime"]
    if not callable(fprime):
        return None
    jac = np.asarray(fprime(x, *items), dtype=np.float64)
    if jac.size != x.size ** 2:
        return None
    jac = jac.reshape(x.size, x.size)
    return jac.T if params["col_deriv"] else jac


def _read_fsolve_cotangent(dy: Any, y: Any, full: tuple[Any, ...], full_output: bool) -> Any:
    """The cotangent of ``x`` (``None`` for a zero), or a not-implemented tangent."""
    if not full_output:
        xbar = read_cotangent(dy, full[0], scipy.optimize.fsolve)
        return None if isinstance(xbar, AbstractZero) else xbar
    dy = unthunk(dy)
    if isinstance(dy, (AbstractZero, NotImplementedTangent)):
        return None if isinstance(dy, AbstractZero) else dy
    from chainrules_core import ProjectionError, backing

    parts = backing(dy) if isinstance(dy, Tangent) else dy
    if not isinstance(parts, (tuple, list)) or len(parts) != 4:
        raise ProjectionError(f"{_FSOLVE} pullback: output cotangent is a {type(dy).__name__}, expected a Tangent of "
                              "the 4-tuple (x, infodict, ier, mesg)")
    xbar = read_cotangent(parts[0], full[0], scipy.optimize.fsolve, "cotangent of output 0 (x)")
    info = read_result_cotangent(parts[1], full[1], ("fvec",), _FSOLVE)
    if isinstance(info, NotImplementedTangent):
        return info
    if isinstance(xbar, NotImplementedTangent):
        return xbar
    return None if isinstance(xbar, AbstractZero) else xbar


@rrule.register(scipy.optimize.fsolve, object, object, config=HasReverseMode)
def fsolve_rrule(config: Any, func: Any, x0: Any, *rest: Any, **kwargs: Any) -> Any:
    """Reverse rule of ``scipy.optimize.fsolve`` (MINPACK's hybrd): the adjoint system of ``root``.

    ``fprime`` (``col_deriv`` honoured) is used for the solve and checked against ``func``'s own
    derivative. ``infodict['fvec']`` is ``F(x*)``, whose derivative is zero.

    Examples
    --------
    >>> import numpy as np, scipy.optimize
    >>> from chainrules import rrule, RulesOnlyConfig
    >>> from chainrules.rulesets.optimize import _problems
    >>> _problems.register()
    >>> x, pullback = rrule(RulesOnlyConfig(), scipy.optimize.fsolve, _problems.square_residual, np.array([1.0, 1.0]),
    ...                     (np.array([4.0, 9.0]),))
    >>> x, pullback(np.array([1.0, 1.0]))[3]
    (array([2., 3.]), Tangent(tuple, array([0.25      , 0.16666667])))
    """
    y, full, params = _fsolve_parts(func, x0, rest, kwargs)
    npos = 2 + len(rest)
    args = params["args"]
    items = args_tuple(args)
    x, _, ier, mesg = full

    def fsolve_pullback(dy: Any) -> tuple[Any, ...]:
        xbar = _read_fsolve_cotangent(dy, y, full, bool(params["full_output"]))
        if isinstance(xbar, NotImplementedTangent):
            return _missing(npos, func, x0, args, xbar)
        if xbar is None:
            return _cotangents(npos, NO, x0, args_zero_cotangent(args))
        if ier != 1:
            raise _not_converged(_FSOLVE, mesg, full[1].get("fvec"))
        try:
            lin = ShiftedReverse(config, func, x, items)
            dfun, dargs = implicit_pullback(lin, flat(xbar, x), _FSOLVE, jacobian=_fsolve_jacobian(params, x, items))
        except MissingDerivative as missing:
            return _missing(npos, func, x0, args, missing.tangent)
        return _cotangents(npos, dfun, x0, args_cotangent(args, dargs))

    return y, fsolve_pullback


@frule.register(scipy.optimize.fsolve, object, object, config=HasForwardsMode)
def fsolve_frule(config: Any, tangents: Any, func: Any, x0: Any, *rest: Any, **kwargs: Any) -> Any:
    """Forward rule of ``scipy.optimize.fsolve``: ``J dx = -(dF/dargs) dargs``."""
    y, full, params = _fsolve_parts(func, x0, rest, kwargs)
    x, info, ier, mesg = full
    args = params["args"]
    dfun = tangents[1] if len(tangents) > 1 else NO
    dargs = tangents[3] if len(tangents) > 3 else ZERO
    if is_zero(dfun) and is_zero(dargs):
        return y, ZERO
    if ier != 1:
        raise _not_converged(_FSOLVE, mesg, full[1].get("fvec"))
    items = args_tuple(args)
    try:
        lin = ShiftedForward(config, func, x, items)
        dx = shaped(implicit_pushforward(lin, dfun, args_tangents(dargs, args), _FSOLVE,
                                         jacobian=_fsolve_jacobian(params, x, items)), x)
    except MissingDerivative as missing:
        return y, missing.tangent
    if not params["full_output"]:
        return y, dx
    dinfo = result_tangent(info, {"fvec": np.zeros(np.shape(info["fvec"]))})
    return y, Tangent(tuple, dx, dinfo, NO, NO)


# ---- samples -------------------------------------------------------------------------------------------------------
def _coupled_problem(rng: np.random.Generator, n: int = 3) -> tuple[np.ndarray, np.ndarray]:
    a = 2.0 * np.eye(n) + 0.3 * rng.standard_normal((n, n))
    b = rng.standard_normal(n)
    return a, b


@sample_inputs(scipy.optimize.root)
def _root_samples(rng: np.random.Generator) -> Iterator[Sample]:
    _problems.register()
    config = RulesOnlyConfig()
    a, b = _coupled_problem(rng)
    fields = solution_fields
    yield Sample(_problems.coupled_residual, np.zeros(3), (a, b), fkwargs={"tol": 1e-13}, config=config,
                 gauge_invariant=fields, label="hybr (the default)")
    yield Sample(_problems.coupled_residual, np.zeros(3), (a, b), "lm", config=config, gauge_invariant=fields,
                 label="lm, method by position")
    yield Sample(_problems.coupled_residual, np.zeros(3), (a, b), fkwargs={"method": "krylov", "tol": 1e-13},
                 config=config, gauge_invariant=fields, label="krylov")
    yield Sample(_problems.coupled_residual, np.zeros(3), (a, b),
                 fkwargs={"jac": _problems.coupled_jacobian, "tol": 1e-13}, config=config, gauge_invariant=fields,
                 label="the user's jac")
    yield Sample(_problems.square_residual, np.array([1.0, 2.0]), (np.array([2.0, 5.0]),), fkwargs={"tol": 1e-13},
                 config=config, gauge_invariant=fields, label="x**2 - t, elementwise")
    yield Sample(_problems.square_residual, np.array([1.0, 2.0]), (np.array([2.0, 5.0], np.float32),),
                 fkwargs={"tol": 1e-13}, config=config, gauge_invariant=fields, label="float32 parameters")


@sample_inputs(scipy.optimize.fsolve)
def _fsolve_samples(rng: np.random.Generator) -> Iterator[Sample]:
    _problems.register()
    config = RulesOnlyConfig()
    a, b = _coupled_problem(rng)
    yield Sample(_problems.coupled_residual, np.zeros(3), (a, b), fkwargs={"xtol": 1e-13}, config=config)
    yield Sample(_problems.coupled_residual, np.zeros(3), (a, b), _problems.coupled_jacobian,
                 fkwargs={"xtol": 1e-13}, config=config, label="fprime by position")
    yield Sample(_problems.square_residual, 1.5, (3.0,), fkwargs={"xtol": 1e-13}, config=config,
                 label="a scalar x0")
