"""Global optimisers: ``basinhopping``, ``differential_evolution``, ``dual_annealing``, ``shgo``, ``brute`` and
``direct``.

What each returns decides what has a derivative:

* ``basinhopping``, ``differential_evolution`` (``polish=True``, the default), ``dual_annealing``
  (with its local search, the default) and ``shgo`` end with a local minimisation (L-BFGS-B,
  trust-constr, SLSQP...): the answer is a local minimum of the objective, and for small
  changes of the parameters it stays the minimum of the same basin (the stochastic search
  that selected the basin, run with the same ``rng``, makes the same choices: its decisions
  compare objective values, which move continuously). Its derivative is that of
  ``minimize``'s rule at the returned point (:mod:`chainrules.rulesets.optimize.minimize`):
  stationarity of the gradient, bounds by their active set, inactive inequality constraints
  ignored, active ones through the KKT system (a returned point that is not a KKT point of
  its active constraints raises: ``shgo`` can report success at one). Where two basins tie
  (the parameters at which the search switches basins) there is no derivative, and nothing
  tells the rule.
* ``differential_evolution(polish=False)``, ``dual_annealing(no_local_search=True)`` and
  ``direct`` (which never polishes) return the best point the search sampled: a population
  member or the centre of a hyperrectangle. It is piecewise constant in the objective's
  parameters and is not a stationary point, so an implicit derivative would be wrong: the
  rules give ``not_implemented``, with the workaround: polish with ``minimize(x0=res.x)``
  and differentiate that call. ``integrality`` in ``differential_evolution`` likewise.
* ``brute`` returns its best grid point polished by ``finish`` (``fmin`` by default): the rule
  is ``minimize``'s at that point, with ``finish=None`` ``not_implemented`` (a grid point). It
  does not return its ``finish``'s convergence flag, so the result must pass the Newton-step
  certification of :mod:`~chainrules.rulesets.optimize.minimize` (a step below ``1e-8``
  relative): ``fmin``'s default ``xtol=1e-4`` does not, and the pullback raises; pass a
  ``finish`` with tight tolerances. ``Jout`` (the objective on the grid) is ``not_implemented``.

The parameters are ``args`` (``basinhopping``: ``minimizer_kwargs['args']``, its cotangent a
``Tangent`` of the dict when ``minimizer_kwargs`` is passed by position); ``x0`` gets
``ZeroTangent()``; the bounds are constants (``ZeroTangent()`` when none is active,
``not_implemented`` otherwise); everything else (``rng``, ``maxiter``...) ``NoTangent()``. The
objective's gradient comes from the config (second derivatives, as for ``minimize``
without ``jac``) or from :func:`~chainrules.rulesets.optimize.register_gradient`;
``basinhopping`` honours ``minimizer_kwargs['jac']``. ``success=False`` (``basinhopping``: its
lowest local minimisation's) raises :class:`~chainrules.rulesets.optimize.ImplicitDerivativeError`.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import scipy.optimize

from chainrules.rulesets.optimize import _problems
from chainrules.rulesets.optimize._implicit import (
    MissingDerivative,
    args_cotangent,
    args_zero_cotangent,
    bind,
    is_zero,
    read_result_cotangent,
    shaped,
    zero_cotangent,
)
from chainrules.rulesets.optimize.minimize import (
    _NOISY,
    _bounds_cotangent,
    _gradient_field,
    _Minimum,
    _missing_bounds,
    register_gradient,
)
from chainrules.rulesets.optimize.roots import result_tangent
from chainrules.testing import PrimalAndTangent
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
    rrule,
    sample_inputs,
    unthunk,
)

__all__: list[str] = []

NO = NoTangent()
ZERO = ZeroTangent()
_SAMPLED = ("returns the best point its search sampled, which is piecewise constant in the objective's parameters and "
            "not a stationary point: no implicit derivative; polish it with scipy.optimize.minimize(x0=res.x) and "
            "differentiate that call")


class _Spec:
    """How one global optimiser's call maps onto a local minimum."""

    def __init__(self, f: Callable[..., Any], extract: Callable[[dict[str, Any], Any], dict[str, Any]],
                 parameter: str = "args") -> None:
        self.f = f
        self.name = f"scipy.optimize.{f.__name__}"
        self.names = tuple(inspect.signature(f).parameters)
        self.extract = extract
        self.parameter = parameter  # the positional argument carrying the parameters

    def minimum(self, config: Any, fun: Any, res: Any, params: dict[str, Any]) -> _Minimum:
        e = self.extract(params, res)
        return _Minimum(self.name, config, fun, res.x, e["args"], e.get("jac"), e.get("hess"), e.get("bounds"),
                        e.get("constraints"), e.get("success", bool(res.success)), res.message,
                        unsupported=e.get("unsupported"))


def _de(params: dict[str, Any], res: Any) -> dict[str, Any]:
    unsupported = None
    if not params["polish"]:
        unsupported = f"with polish=False it {_SAMPLED}"
    elif params["integrality"] is not None and np.any(params["integrality"]):
        unsupported = "with integrality, the integer variables are piecewise constant: not implemented"
    return {"args": params["args"], "bounds": params["bounds"], "constraints": params["constraints"] or None,
            "unsupported": unsupported}


def _dual_annealing(params: dict[str, Any], res: Any) -> dict[str, Any]:
    unsupported = f"with no_local_search=True it {_SAMPLED}" if params["no_local_search"] else None
    return {"args": params["args"], "bounds": params["bounds"], "unsupported": unsupported}


def _shgo(params: dict[str, Any], res: Any) -> dict[str, Any]:
    return {"args": params["args"], "bounds": params["bounds"], "constraints": params["constraints"]}


def _basinhopping(params: dict[str, Any], res: Any) -> dict[str, Any]:
    kw = params["minimizer_kwargs"] or {}
    lowest = res.get("lowest_optimization_result", res)
    return {"args": kw.get("args", ()), "jac": kw.get("jac"), "hess": kw.get("hess"), "bounds": kw.get("bounds"),
            "constraints": kw.get("constraints") or None, "success": bool(lowest.get("success", res.success))}


SPECS = {
    scipy.optimize.differential_evolution: _Spec(scipy.optimize.differential_evolution, _de),
    scipy.optimize.dual_annealing: _Spec(scipy.optimize.dual_annealing, _dual_annealing),
    scipy.optimize.shgo: _Spec(scipy.optimize.shgo, _shgo),
    scipy.optimize.basinhopping: _Spec(scipy.optimize.basinhopping, _basinhopping, parameter="minimizer_kwargs"),
}


def _parameter_cotangent(spec: _Spec, params: dict[str, Any], dargs: Any) -> Any:
    """The cotangent of the argument carrying the parameters (``args``, or basinhopping's ``minimizer_kwargs``)."""
    if spec.parameter == "args":
        return dargs
    kw = params["minimizer_kwargs"]
    if not isinstance(kw, dict) or "args" not in kw or isinstance(dargs, NoTangent):
        return NO
    return Tangent(dict, {k: (dargs if k == "args" else NO) for k in kw})


def _cotangents(spec: _Spec, npos: int, params: dict[str, Any], dfun: Any, dargs: Any, dbounds: Any) -> tuple[Any, ...]:
    out: list[Any] = [NO]
    for name in spec.names[:npos]:
        if name == "func":
            out.append(dfun)
        elif name == "x0":
            out.append(zero_cotangent(params["x0"]))
        elif name == spec.parameter:
            out.append(_parameter_cotangent(spec, params, dargs))
        elif name == "bounds":
            out.append(dbounds)
        else:
            out.append(NO)
    return tuple(out)


def _make_rules(spec: _Spec) -> None:
    f = spec.f

    def global_rrule(config: Any, func: Any, *rest: Any, **kwargs: Any) -> Any:
        res = f(func, *rest, **kwargs)
        params = bind(f, (func, *rest), kwargs)
        npos = 1 + len(rest)
        minimum = spec.minimum(config, func, res, params)
        gfield = _gradient_field(res, None)
        fields = ("x", "fun") + ((gfield,) if gfield else ())
        bounds = params.get("bounds")

        def global_pullback(dy: Any) -> tuple[Any, ...]:
            cts = read_result_cotangent(dy, res, fields, f)
            if isinstance(cts, NotImplementedTangent):
                return _cotangents(spec, npos, params, minimum.missing_fun(cts), minimum.missing_args(cts),
                                   _missing_bounds(bounds, cts))
            if isinstance(cts, AbstractZero) or all(v is None for v in cts.values()):
                return _cotangents(spec, npos, params, NO, args_zero_cotangent(minimum.args), zero_cotangent(bounds))
            try:
                dfun, dargs, _ = minimum.cotangents(cts["x"], cts["fun"], cts.get(gfield) if gfield else None)
                dbounds = _bounds_cotangent(bounds, minimum) if "bounds" in spec.names[:npos] else NO
            except MissingDerivative as missing:
                t = missing.tangent
                return _cotangents(spec, npos, params, minimum.missing_fun(t), minimum.missing_args(t),
                                   _missing_bounds(bounds, t))
            return _cotangents(spec, npos, params, dfun, args_cotangent(minimum.args, dargs), dbounds)

        global_pullback.__name__ = f"{f.__name__}_pullback"
        return res, global_pullback

    def global_frule(config: Any, tangents: Any, func: Any, *rest: Any, **kwargs: Any) -> Any:
        res = f(func, *rest, **kwargs)
        params = bind(f, (func, *rest), kwargs)
        k = spec.names.index(spec.parameter) + 1
        dfun = tangents[1] if len(tangents) > 1 else NO
        dparam: Any = unthunk(tangents[k]) if len(tangents) > k else ZERO
        if spec.parameter == "minimizer_kwargs" and not is_zero(dparam):
            dparam = dparam["args"] if isinstance(dparam, Tangent) else dict(dparam).get("args", ZERO)
        kb = spec.names.index("bounds") + 1 if "bounds" in spec.names else len(tangents)
        dbounds = tangents[kb] if kb < len(tangents) else None
        if is_zero(dfun) and is_zero(dparam) and is_zero(dbounds):
            return res, ZERO
        minimum = spec.minimum(config, func, res, params)
        try:
            dx, dvalue, dgrad = minimum.tangents(dfun, None, dparam, dbounds)
        except MissingDerivative as missing:
            return res, missing.tangent
        values: dict[str, Any] = {"x": shaped(dx, res.x), "fun": dvalue}
        gfield = _gradient_field(res, None)
        if gfield:
            values[gfield] = shaped(dgrad, res[gfield])
        return res, result_tangent(res, values)

    for rule, kind in ((global_rrule, "rrule"), (global_frule, "frule")):
        rule.__name__ = f"{f.__name__}_{kind}"
        rule.__qualname__ = rule.__name__
    global_rrule.__doc__ = (f"Reverse rule of ``{spec.name}``: ``minimize``'s implicit derivative at the local minimum "
                            "it returns.")
    global_frule.__doc__ = f"Forward rule of ``{spec.name}``."
    rrule.register(f, object, config=HasReverseMode)(global_rrule)
    frule.register(f, object, config=HasForwardsMode)(global_frule)


for _spec in SPECS.values():
    _make_rules(_spec)


# ---- direct: the best sampled point --------------------------------------------------------------------------------
_DIRECT = f"scipy.optimize.direct {_SAMPLED} (the centre of one of its hyperrectangles)"


@rrule.register(scipy.optimize.direct, object, object)
def direct_rrule(func: Any, bounds: Any, **kwargs: Any) -> Any:
    """Reverse rule of ``scipy.optimize.direct``: ``not_implemented`` (see the module docstring).

    Examples
    --------
    >>> import numpy as np, scipy.optimize
    >>> from chainrules import rrule, Tangent
    >>> res, pullback = rrule(scipy.optimize.direct, lambda x: float(np.sum((x - 0.3) ** 2)), [(-1.0, 1.0)])
    >>> pullback(Tangent(type(res), {"x": np.ones(1)}))[2].info.startswith("scipy.optimize.direct returns")
    True
    """
    res = scipy.optimize.direct(func, bounds, **kwargs)
    missing = not_implemented(_DIRECT)

    def direct_pullback(dy: Any) -> tuple[Any, ...]:
        cts = read_result_cotangent(dy, res, ("x", "fun"), scipy.optimize.direct)
        if isinstance(cts, AbstractZero) or (isinstance(cts, dict) and all(v is None for v in cts.values())):
            return NO, NO, zero_cotangent(bounds)
        return NO, NO if not _carries(func) else missing, missing if zero_cotangent(bounds) is ZERO else NO

    return res, direct_pullback


@frule.register(scipy.optimize.direct, object, object)
def direct_frule(tangents: Any, func: Any, bounds: Any, **kwargs: Any) -> Any:
    """Forward rule of ``scipy.optimize.direct``: ``not_implemented`` unless every tangent is zero."""
    res = scipy.optimize.direct(func, bounds, **kwargs)
    if all(is_zero(t) for t in tangents[1:]):
        return res, ZERO
    return res, not_implemented(_DIRECT)


def _carries(func: Any) -> bool:
    from chainrules.rulesets.arrays.higher_order import carries_no_values

    return not carries_no_values(func)


# ---- brute: a grid search, polished by its finish -------------------------------------------------------------
_BRUTE = "scipy.optimize.brute"
_BRUTE_NAMES = ("func", "ranges", "args", "Ns", "full_output", "finish", "disp", "workers")
_GRID = (f"{_BRUTE} without finish returns the best grid point, which is piecewise constant in the objective's "
         "parameters and not a stationary point: no implicit derivative; polish it (finish=, or minimize(x0=...))")
_JOUT = (f"{_BRUTE}: the derivative of Jout (the objective on the whole grid, a vector-Jacobian product of func at "
         "every grid point) is not implemented")


def _brute_minimum(config: Any, func: Any, out: Any, params: dict[str, Any]) -> _Minimum:
    x = out[0] if isinstance(out, tuple) else out
    unsupported = None if params["finish"] is not None else _GRID
    # brute does not return its finish's flag: the Newton step from the point certifies it (success=False)
    return _Minimum(_BRUTE, config, func, x, params["args"], None, None, None, None, False,
                    f"brute does not report whether its finish ({getattr(params['finish'], '__name__', 'finish')}) "
                    "converged", unsupported=unsupported)


def _brute_cotangents(npos: int, params: dict[str, Any], dfun: Any, dargs: Any) -> tuple[Any, ...]:
    out: list[Any] = [NO]
    for name in _BRUTE_NAMES[:npos]:
        out.append({"func": dfun, "args": dargs, "ranges": zero_cotangent(params["ranges"])}.get(name, NO))
    return tuple(out)


def _read_brute(dy: Any, out: Any) -> Any:
    """``(x_bar, fval_bar)`` (``None`` for zeros), a zero, or a not-implemented tangent."""
    from chainrules_core import ProjectionError, backing, read_cotangent

    dy = unthunk(dy)
    if isinstance(dy, (AbstractZero, NotImplementedTangent)):
        return dy
    if not isinstance(out, tuple):
        xbar = read_cotangent(dy, out, scipy.optimize.brute, "cotangent of x0")
        return xbar if isinstance(xbar, NotImplementedTangent) else (
            None if isinstance(xbar, AbstractZero) else xbar, None)
    parts = backing(dy) if isinstance(dy, Tangent) and dy.primal_type is tuple else dy
    if not isinstance(parts, (tuple, list)) or len(parts) != 4:
        raise ProjectionError(f"{_BRUTE} pullback: output cotangent is a {type(dy).__name__}, expected a Tangent of "
                              "the 4-tuple (x0, fval, grid, Jout)")
    bars = [read_cotangent(part, value, scipy.optimize.brute, f"cotangent of output {k}")
            for k, (part, value) in enumerate(zip(parts, out))]
    for bar in bars:
        if isinstance(bar, NotImplementedTangent):
            return bar
    if not isinstance(bars[3], AbstractZero) and np.any(bars[3]):
        return not_implemented(_JOUT)
    return tuple(None if isinstance(bar, AbstractZero) else bar for bar in bars[:2])


@rrule.register(scipy.optimize.brute, object, object, config=HasReverseMode)
def brute_rrule(config: Any, func: Any, ranges: Any, *rest: Any, **kwargs: Any) -> Any:
    """Reverse rule of ``scipy.optimize.brute``: ``minimize``'s implicit derivative at the point its ``finish``
    returns (``not_implemented`` with ``finish=None``: a grid point).

    Examples
    --------
    >>> import numpy as np, scipy.optimize
    >>> from chainrules import rrule, RulesOnlyConfig
    >>> from chainrules.rulesets.optimize import _problems, register_gradient
    >>> _problems.register()                           # x**4 / 4 + x**2 / 2 - t x: x**3 + x = t
    >>> register_gradient(_problems.quartic, _problems.quartic_gradient)
    >>> def finish(func, x0, args=(), full_output=0, disp=0):     # fmin, to a tolerance fit for a derivative
    ...     return scipy.optimize.fmin(func, x0, args, xtol=1e-13, ftol=1e-15, full_output=full_output, disp=disp)
    >>> x, pullback = rrule(RulesOnlyConfig(), scipy.optimize.brute, _problems.quartic, ((-3.0, 3.0),), (2.0,),
    ...                     finish=finish)
    >>> np.round(x, 8), np.round(pullback(np.ones(1))[3][0], 8)    # dx/dt = 1 / (3 x**2 + 1)
    (array([1.]), np.float64(0.25))
    """
    out = scipy.optimize.brute(func, ranges, *rest, **kwargs)
    params = bind(scipy.optimize.brute, (func, ranges, *rest), kwargs)
    npos = 2 + len(rest)
    minimum = _brute_minimum(config, func, out, params)

    def brute_pullback(dy: Any) -> tuple[Any, ...]:
        bars = _read_brute(dy, out)
        if isinstance(bars, NotImplementedTangent):
            return _brute_cotangents(npos, params, minimum.missing_fun(bars), minimum.missing_args(bars))
        if isinstance(bars, AbstractZero) or all(v is None for v in bars):
            return _brute_cotangents(npos, params, NO, args_zero_cotangent(params["args"]))
        try:
            dfun, dargs, _ = minimum.cotangents(bars[0], bars[1], None)
        except MissingDerivative as missing:
            t = missing.tangent
            return _brute_cotangents(npos, params, minimum.missing_fun(t), minimum.missing_args(t))
        return _brute_cotangents(npos, params, dfun, args_cotangent(params["args"], dargs))

    return out, brute_pullback


@frule.register(scipy.optimize.brute, object, object, config=HasForwardsMode)
def brute_frule(config: Any, tangents: Any, func: Any, ranges: Any, *rest: Any, **kwargs: Any) -> Any:
    """Forward rule of ``scipy.optimize.brute``: ``minimize``'s at the polished point."""
    out = scipy.optimize.brute(func, ranges, *rest, **kwargs)
    params = bind(scipy.optimize.brute, (func, ranges, *rest), kwargs)
    dfun = tangents[1] if len(tangents) > 1 else NO
    dargs = tangents[3] if len(tangents) > 3 else ZERO
    if is_zero(dfun) and is_zero(dargs):
        return out, ZERO
    minimum = _brute_minimum(config, func, out, params)
    try:
        dx, dvalue, _ = minimum.tangents(dfun, None, dargs)
    except MissingDerivative as missing:
        return out, missing.tangent
    if not isinstance(out, tuple):
        return out, shaped(dx, out)
    return out, Tangent(tuple, shaped(dx, out[0]), dvalue, NO, not_implemented(_JOUT))


# ---- samples -------------------------------------------------------------------------------------------------------
def _solution(res: Any) -> tuple[Any, Any]:
    return res.x, res.fun


def _problem(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    _problems.register()
    register_gradient(_problems.objective, _problems.objective_gradient)
    return np.array([[3.0, 0.5], [0.5, 2.0]]), np.array([1.0, -0.5])


# a global optimiser's local polish stops at ~1e-7: its finite differences are checked at 1e-3
_LOOSE: dict[str, Any] = {"config": RulesOnlyConfig(), "gauge_invariant": _solution, "fdm": _NOISY, "rtol": 1e-3,
                          "atol": 1e-3}


@sample_inputs(scipy.optimize.differential_evolution)
def _de_samples(rng: np.random.Generator) -> Iterator[Sample]:
    a, b = _problem(rng)
    yield Sample(_problems.objective, [(-2.0, 2.0), (-2.0, 2.0)], (a, b),
                 fkwargs={"rng": 1, "popsize": 5, "maxiter": 20}, label="polished", **_LOOSE)


@sample_inputs(scipy.optimize.dual_annealing)
def _dual_annealing_samples(rng: np.random.Generator) -> Iterator[Sample]:
    a, b = _problem(rng)
    local = {"method": "L-BFGS-B", "jac": _problems.objective_gradient, "options": {"gtol": 1e-12, "ftol": 1e-15}}
    yield Sample(_problems.objective, [(-2.0, 2.0), (-2.0, 2.0)], (a, b), fkwargs={
        "rng": 1, "maxiter": 20, "minimizer_kwargs": local}, label="with a tight local search", **_LOOSE)


@sample_inputs(scipy.optimize.shgo)
def _shgo_samples(rng: np.random.Generator) -> Iterator[Sample]:
    a, b = _problem(rng)
    yield Sample(_problems.objective, [(-2.0, 2.0), (-2.0, 2.0)], (a, b),
                 fkwargs={"n": 8, "iters": 1, "sampling_method": "halton"}, label="halton sampling", **_LOOSE)


@sample_inputs(scipy.optimize.basinhopping)
def _basinhopping_samples(rng: np.random.Generator) -> Iterator[Sample]:
    a, b = _problem(rng)
    yield Sample(_problems.objective, np.zeros(2), 3, PrimalAndTangent(1.0, NO), PrimalAndTangent(0.5, NO),
                 {"args": (a, b), "method": "BFGS", "jac": _problems.objective_gradient}, fkwargs={"rng": 1},
                 label="minimizer_kwargs by position (its args differentiated)", **_LOOSE)


@sample_inputs(scipy.optimize.direct)
def _direct_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample(np.sum, PrimalAndTangent([(-1.0, 1.0), (-2.0, 1.0)], NO), fkwargs={"maxfun": 200},
                 label="a function without parameters: nothing to differentiate")


def _tight_bfgs(func: Any, x0: Any, args: tuple[Any, ...] = (), full_output: int = 0, disp: bool = False) -> Any:
    """brute's finish: fmin_bfgs with the objective's gradient, to a tolerance fit for a derivative (brute passes
    ``full_output`` and ``disp`` only to a finish whose signature names them)."""
    return scipy.optimize.fmin_bfgs(func, x0, _problems.objective_gradient, args, gtol=1e-12, full_output=full_output,
                                    disp=disp)


@sample_inputs(scipy.optimize.brute)
def _brute_samples(rng: np.random.Generator) -> Iterator[Sample]:
    a, b = _problem(rng)
    ranges = ((-2.0, 2.0), (-2.0, 2.0))  # the polished point does not move with the grid: ZeroTangent()
    yield Sample(_problems.objective, ranges, (a, b), 7, fkwargs={"finish": _tight_bfgs},
                 label="finish: fmin_bfgs with the gradient", config=RulesOnlyConfig(), gauge_invariant=None,
                 fdm=_NOISY, rtol=1e-5, atol=1e-5)
