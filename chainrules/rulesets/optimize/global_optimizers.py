"""Global optimisers: ``basinhopping``, ``differential_evolution``, ``dual_annealing``, ``shgo`` and ``direct``.

What each returns decides what has a derivative:

* ``basinhopping``, ``differential_evolution`` (``polish=True``, the default), ``dual_annealing``
  (with its local search, the default) and ``shgo`` end with a local minimisation (L-BFGS-B,
  trust-constr, SLSQP...): the answer is a local minimum of the objective, and for small
  changes of the parameters it stays the minimum of the same basin (the stochastic search
  that selected the basin, run with the same ``rng``, makes the same choices: its decisions
  compare objective values, which move continuously). Its derivative is that of
  ``minimize``'s rule at the returned point (:mod:`chainrules.rulesets.optimize.minimize`):
  stationarity of the gradient, bounds by their active set, inactive inequality constraints
  ignored, active ones ``not_implemented``. Where two basins tie (the parameters at which
  the search switches basins) there is no derivative, and nothing tells the rule.
* ``differential_evolution(polish=False)``, ``dual_annealing(no_local_search=True)`` and
  ``direct`` (which never polishes) return the best point the search sampled: a population
  member or the centre of a hyperrectangle. It is piecewise constant in the objective's
  parameters and is not a stationary point, so an implicit derivative would be wrong: the
  rules give ``not_implemented``, with the workaround: polish with ``minimize(x0=res.x)``
  and differentiate that call. ``integrality`` in ``differential_evolution`` likewise.

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
        if is_zero(dfun) and is_zero(dparam):
            return res, ZERO
        minimum = spec.minimum(config, func, res, params)
        try:
            dx, dvalue, dgrad = minimum.tangents(dfun, None, dparam)
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

