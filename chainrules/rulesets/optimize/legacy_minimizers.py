"""SciPy's legacy minimiser interfaces: ``fmin``, ``fmin_powell``, ``fmin_cg``, ``fmin_bfgs``, ``fmin_ncg``,
``fmin_l_bfgs_b``, ``fmin_tnc``, ``fmin_slsqp`` and the scalar ``fminbound``, ``brent``, ``golden``.

The maths
---------
They solve the problems of :func:`scipy.optimize.minimize` and
:func:`scipy.optimize.minimize_scalar`, and their rules are those of
:mod:`chainrules.rulesets.optimize.minimize` at the point they return: the implicit function
theorem on the stationarity of the gradient, ``H dx* = -M dtheta`` on the free variables (active
bounds of ``fmin_l_bfgs_b`` and ``fmin_tnc`` hold their coordinates), and the envelope theorem
``df* = (df/dtheta)(x*, theta) dtheta`` for the optimal value (Gould et al. 2016,
arXiv:1607.05447; Milgrom & Segal 2002). Only the outputs differ: ``xopt`` alone, or a tuple
with ``full_output`` (``fopt``; ``gopt`` for ``fmin_bfgs``, zero along an interior minimum; the
counts, flags and the solver's state ``direc``, ``Bopt``, ``allvecs``, ``fmin_l_bfgs_b``'s
dictionary take ``NoTangent()``, their cotangents ignored).

``fmin_slsqp``'s constraints (``eqcons``, ``f_eqcons``, ``ieqcons``, ``f_ieqcons``) take the
objective's ``args``, so they move with the parameters: the KKT system of ``minimize``'s rule gains
their terms, ``[[H_L, -J_c^T], [J_c, 0]] [dx; dlam] = -[M_L dtheta; C_theta dtheta]`` with
``M_L = d(grad f - J_c^T lam)/dtheta`` (mixed second derivatives of the constraints through the
config) and ``C_theta = dc/dtheta``; the optimal value moves by ``grad f . dx + df/dtheta``.

``fprime`` (and ``fhess`` for ``fmin_ncg``) play ``minimize``'s ``jac`` (``hess``); for
``fmin_l_bfgs_b`` and ``fmin_tnc`` without ``fprime`` and ``approx_grad``, ``func`` returns
``(f, g)`` (``minimize``'s ``jac=True``). The rules call the solver with ``full_output`` to read
its convergence flag (``warnflag``, ``ierr``, ``rc``, ``d['warnflag']``) and return what the
caller asked for; a failed run raises :class:`~chainrules.rulesets.optimize.ImplicitDerivativeError`
in the pullback unless the Newton step from the result certifies it a minimum (as
``minimize``'s rule does). ``brent`` and ``golden`` have no flag: they fail when they used up
``maxiter`` (``golden`` counts function calls, at least its iterations).

Differentiated: the values in ``args`` when given by position (``args`` by keyword are
constants, as every keyword argument), and what ``func`` carries as far as the AD reports it.
``x0``, ``brack``, ``x1``/``x2`` and inactive ``bounds`` get ``ZeroTangent()``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
import scipy.optimize

from chainrules.rulesets.optimize import _problems
from chainrules.rulesets.optimize._implicit import (
    MissingDerivative,
    args_cotangent,
    args_tuple,
    args_zero_cotangent,
    bind,
    flat,
    is_zero,
    shaped,
    zero_cotangent,
)
from chainrules.rulesets.optimize.minimize import (
    _NOISY,
    LIVE,
    _bounds_cotangent,
    _Minimum,
    _missing_bounds,
    register_gradient,
)
from chainrules.testing import PrimalAndTangent
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
    Varargs,
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


@dataclass(frozen=True)
class _Spec:
    """How one legacy interface is called and what it returns."""

    f: Callable[..., Any]
    fun: str  # the objective's parameter name
    outputs: tuple[str, ...]  # the full output's parts: "x", "fun", "grad", or "" (no tangent)
    success: Callable[[tuple[Any, ...], dict[str, Any]], tuple[bool, str]]
    jac: str | None = None
    hess: str | None = None
    bounds: str | None = None
    interval: tuple[str, str] | None = None
    scalar: bool = False
    full_output: bool = True  # the interface has a full_output switch (else it always returns the tuple)
    retall: bool = False
    constraints: Callable[[dict[str, Any]], Any] | None = None  # minimize's constraints from the call

    @property
    def name(self) -> str:
        return f"scipy.optimize.{self.f.__name__}"


def _warnflag(index: int) -> Callable[[tuple[Any, ...], dict[str, Any]], tuple[bool, str]]:
    def success(out: tuple[Any, ...], params: dict[str, Any]) -> tuple[bool, str]:
        return int(out[index]) == 0, f"warnflag {int(out[index])}"
    return success


def _lbfgsb_success(out: tuple[Any, ...], params: dict[str, Any]) -> tuple[bool, str]:
    return int(out[2]["warnflag"]) == 0, str(out[2].get("task", ""))


def _tnc_success(out: tuple[Any, ...], params: dict[str, Any]) -> tuple[bool, str]:
    rc = int(out[2])
    return rc in (0, 1, 2), f"rc {rc}: {scipy.optimize._tnc.RCSTRINGS.get(rc, '')}"


def _brent_success(out: tuple[Any, ...], params: dict[str, Any]) -> tuple[bool, str]:
    return int(out[2]) < int(params["maxiter"]), f"{int(out[2])} iterations of at most {params['maxiter']}"


def _slsqp_success(out: tuple[Any, ...], params: dict[str, Any]) -> tuple[bool, str]:
    return int(out[3]) == 0, str(out[4])


def _slsqp_constraints(params: dict[str, Any]) -> list[dict[str, Any]]:
    """fmin_slsqp's constraints as minimize's dicts; they take the objective's args, so they are live."""
    items = args_tuple(params["args"])
    out: list[dict[str, Any]] = []
    for kind, single, vector in (("eq", "eqcons", "f_eqcons"), ("ineq", "ieqcons", "f_ieqcons")):
        funs = list(params[single] or ()) + ([params[vector]] if params[vector] is not None else [])
        out.extend({"type": kind, "fun": c, "args": items, LIVE: True} for c in funs)
    return out


def _slsqp_bounds(params: dict[str, Any]) -> Any:
    bounds = params["bounds"]
    return None if bounds is None or len(bounds) == 0 else bounds


def _golden_success(out: tuple[Any, ...], params: dict[str, Any]) -> tuple[bool, str]:
    # golden reports its function calls, not its iterations (fewer): below maxiter, it stopped at tol
    return int(out[2]) < int(params["maxiter"]), f"{int(out[2])} function calls, maxiter {params['maxiter']}"


_SPECS = {spec.f: spec for spec in (
    _Spec(scipy.optimize.fmin, "func", ("x", "fun", "", "", ""), _warnflag(4), retall=True),
    _Spec(scipy.optimize.fmin_powell, "func", ("x", "fun", "", "", "", ""), _warnflag(5), retall=True),
    _Spec(scipy.optimize.fmin_cg, "f", ("x", "fun", "", "", ""), _warnflag(4), jac="fprime", retall=True),
    _Spec(scipy.optimize.fmin_bfgs, "f", ("x", "fun", "grad", "", "", "", ""), _warnflag(6), jac="fprime",
          retall=True),
    _Spec(scipy.optimize.fmin_ncg, "f", ("x", "fun", "", "", "", ""), _warnflag(5), jac="fprime", hess="fhess",
          retall=True),
    _Spec(scipy.optimize.fmin_l_bfgs_b, "func", ("x", "fun", ""), _lbfgsb_success, jac="fprime", bounds="bounds",
          full_output=False),
    _Spec(scipy.optimize.fmin_tnc, "func", ("x", "", ""), _tnc_success, jac="fprime", bounds="bounds",
          full_output=False),
    _Spec(scipy.optimize.fmin_slsqp, "func", ("x", "fun", "", "", ""), _slsqp_success, jac="fprime",
          bounds="bounds", constraints=_slsqp_constraints),
    _Spec(scipy.optimize.fminbound, "func", ("x", "fun", "", ""), _warnflag(2), interval=("x1", "x2"), scalar=True),
    _Spec(scipy.optimize.brent, "func", ("x", "fun", "", ""), _brent_success, scalar=True),
    _Spec(scipy.optimize.golden, "func", ("x", "fun", ""), _golden_success, scalar=True),
)}


class _Call:
    """One call of a legacy interface: the full output, what the caller gets, and the minimum."""

    def __init__(self, spec: _Spec, config: Any, positional: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        self.spec = spec
        self.npos = len(positional)
        self.params = params = bind(spec.f, positional, kwargs)
        full = dict(params)
        if spec.full_output:
            full["full_output"] = True
        fun = params[spec.fun]
        self.full = spec.f(**full) if spec.full_output else spec.f(*positional, **kwargs)
        self.out: Any = self.full
        if spec.full_output and not params["full_output"]:
            self.out = (self.full[0], self.full[-1]) if spec.retall and params["retall"] else self.full[0]
        success, message = spec.success(self.full, params)
        jac: Any = params[spec.jac] if spec.jac else None
        if "approx_grad" in params and jac is None and not params["approx_grad"]:
            jac = True  # func returns (f, g)
        interval = None
        if spec.interval:
            interval = (float(params[spec.interval[0]]), float(params[spec.interval[1]]))
        self.x = self.full[0]
        bounds = params[spec.bounds] if spec.bounds else None
        constraints = None
        if spec.constraints is not None:
            constraints = spec.constraints(params) or None
            bounds = _slsqp_bounds(params)
        self.minimum = _Minimum(spec.name, config, fun, self.x, params["args"], jac,
                                params[spec.hess] if spec.hess else None, bounds, constraints, success, message,
                                interval)

    @property
    def layout(self) -> tuple[str, ...]:
        """The part of each element of the caller's output ("x", "fun", "grad" or "")."""
        spec = self.spec
        if not isinstance(self.out, tuple):
            return ("x",)
        if spec.full_output and not self.params["full_output"]:
            return ("x", "")  # (xopt, allvecs)
        return spec.outputs + (("",) if spec.retall and self.params["retall"] else ())

    def read(self, dy: Any) -> Any:
        """``{part: cotangent or None}``, a zero, or a not-implemented tangent."""
        dy = unthunk(dy)
        if isinstance(dy, (AbstractZero, NotImplementedTangent)):
            return dy
        layout = self.layout
        if layout == ("x",):
            bar = read_cotangent(dy, self.out, self.spec.f, "cotangent of xopt")
            return bar if isinstance(bar, (AbstractZero, NotImplementedTangent)) else {"x": bar}
        parts = backing(dy) if isinstance(dy, Tangent) and dy.primal_type is tuple else dy
        if not isinstance(parts, (tuple, list)) or len(parts) != len(layout):
            raise ProjectionError(f"{self.spec.name} pullback: output cotangent is a {type(dy).__name__}, expected a "
                                  f"Tangent of the {len(layout)}-tuple it returned")
        bars: dict[str, Any] = {}
        for k, (part, what) in enumerate(zip(parts, layout)):
            if not what:
                continue
            bar = read_cotangent(part, self.out[k], self.spec.f, f"cotangent of output {k}")
            if isinstance(bar, NotImplementedTangent):
                return bar
            bars[what] = None if isinstance(bar, AbstractZero) else bar
        return bars

    def cotangents(self, dfun: Any, dargs: Any, dbounds: Any) -> tuple[Any, ...]:
        out: list[Any] = [NO]
        for name in list(self.params)[:self.npos]:
            if name == self.spec.fun:
                out.append(dfun)
            elif name == "args":
                out.append(dargs)
            elif name == self.spec.bounds:
                out.append(dbounds)
            elif name in ("x0", "brack", "x1", "x2"):
                out.append(zero_cotangent(self.params[name]))
            else:
                out.append(NO)
        return tuple(out)

    def missing(self, t: NotImplementedTangent) -> tuple[Any, ...]:
        bounds = _missing_bounds(self.params[self.spec.bounds], t) if self.spec.bounds else NO
        return self.cotangents(self.minimum.missing_fun(t), self.minimum.missing_args(t), bounds)

    def zero(self) -> tuple[Any, ...]:
        bounds = zero_cotangent(self.params[self.spec.bounds]) if self.spec.bounds else NO
        return self.cotangents(NO, args_zero_cotangent(self.params["args"]), bounds)

    def tangent(self, dx: np.ndarray, dvalue: float, dgrad: np.ndarray) -> Any:
        values = {"x": shaped(dx, self.x), "fun": dvalue, "grad": shaped(dgrad, self.x)}
        layout = self.layout
        if layout == ("x",):
            return values["x"]
        return Tangent(tuple, *(values[what] if what else NO for what in layout))


def _make_rules(spec: _Spec) -> None:
    f = spec.f

    def legacy_rrule(config: Any, *positional: Any, **kwargs: Any) -> Any:
        call = _Call(spec, config, positional, kwargs)
        minimum = call.minimum

        def legacy_pullback(dy: Any) -> tuple[Any, ...]:
            bars = call.read(dy)
            if isinstance(bars, NotImplementedTangent):
                return call.missing(bars)
            if isinstance(bars, AbstractZero) or all(v is None for v in bars.values()):
                return call.zero()
            try:
                gbar = bars.get("grad")
                dfun, dargs, _ = minimum.cotangents(bars.get("x"), bars.get("fun"),
                                                    None if gbar is None else flat(gbar, call.x))
                dbounds = NO
                if spec.bounds and spec.bounds in list(call.params)[:call.npos]:
                    dbounds = _bounds_cotangent(call.params[spec.bounds], minimum)
                    if minimum.bounds is None:  # fmin_slsqp's () : no bounds
                        dbounds = zero_cotangent(call.params[spec.bounds])
            except MissingDerivative as missing:
                return call.missing(missing.tangent)
            return call.cotangents(dfun, args_cotangent(call.params["args"], dargs), dbounds)

        legacy_pullback.__name__ = f"{f.__name__}_pullback"
        return call.out, legacy_pullback

    def legacy_frule(config: Any, tangents: Any, *positional: Any, **kwargs: Any) -> Any:
        call = _Call(spec, config, positional, kwargs)
        names = list(call.params)[:call.npos]

        def tangent_of(name: str | None, default: Any) -> Any:
            if name is None or name not in names or 1 + names.index(name) >= len(tangents):
                return default
            return tangents[1 + names.index(name)]

        dfun = tangent_of(spec.fun, NO)
        dargs = tangent_of("args", ZERO)
        dbounds = tangent_of(spec.bounds, None)
        if is_zero(dfun) and is_zero(dargs) and is_zero(dbounds):
            return call.out, ZERO
        try:
            dx, dvalue, dgrad = call.minimum.tangents(dfun, tangent_of(spec.jac, None), dargs, dbounds)
        except MissingDerivative as missing:
            return call.out, missing.tangent
        return call.out, call.tangent(dx, dvalue, dgrad)

    legacy_rrule.__name__ = legacy_rrule.__qualname__ = f"{f.__name__}_rrule"
    legacy_rrule.__doc__ = (f"Reverse rule of ``{spec.name}``: that of ``minimize{'_scalar' if spec.scalar else ''}`` "
                            "at the point it returns.")
    legacy_frule.__name__ = legacy_frule.__qualname__ = f"{f.__name__}_frule"
    legacy_frule.__doc__ = (f"Forward rule of ``{spec.name}``: that of ``minimize{'_scalar' if spec.scalar else ''}`` "
                            "at the point it returns.")
    types = ((object,) if spec.scalar and spec.interval is None else (object, object)) + (Varargs(object),)
    rrule.register(f, *types, config=HasReverseMode)(legacy_rrule)
    frule.register(f, *types, config=HasForwardsMode)(legacy_frule)


for _spec in _SPECS.values():
    _make_rules(_spec)


# ---- samples -------------------------------------------------------------------------------------------------------
def _fixed(tolerance: float) -> PrimalAndTangent:
    """A tolerance passed by position: not perturbed by the finite differences (its derivative is noise)."""
    return PrimalAndTangent(tolerance, NO)


def _spd(rng: np.random.Generator, n: int) -> np.ndarray:
    g = rng.standard_normal((n, n))
    return g @ g.T / n + np.eye(n)


def _check(tuple_output: bool) -> dict[str, Any]:
    return {"config": RulesOnlyConfig(), "fdm": _NOISY, "rtol": 1e-5, "atol": 1e-5,
            "gauge_invariant": (lambda out: (out[0], out[1])) if tuple_output else None}


def _objective() -> tuple[Any, Any]:
    _problems.register()
    register_gradient(_problems.objective, _problems.objective_gradient)
    return _problems.objective, _problems.objective_gradient


@sample_inputs(scipy.optimize.fmin)
def _fmin_samples(rng: np.random.Generator) -> Iterator[Sample]:
    fun, _ = _objective()
    a, b = _spd(rng, 2), rng.standard_normal(2)
    yield Sample(fun, np.zeros(2), (a, b), fkwargs={"xtol": 1e-12, "ftol": 1e-15, "disp": False},
                 label="Nelder-Mead, xopt", **_check(False))
    yield Sample(fun, np.zeros(2), (a, b), _fixed(1e-12), _fixed(1e-15), 4000, 4000, True, False,
                 label="full_output by position", **_check(True))


@sample_inputs(scipy.optimize.fmin_powell)
def _fmin_powell_samples(rng: np.random.Generator) -> Iterator[Sample]:
    fun, _ = _objective()
    yield Sample(fun, np.zeros(2), (_spd(rng, 2), rng.standard_normal(2)),
                 fkwargs={"xtol": 1e-12, "ftol": 1e-15, "disp": False, "full_output": True}, **_check(True))


@sample_inputs(scipy.optimize.fmin_cg)
def _fmin_cg_samples(rng: np.random.Generator) -> Iterator[Sample]:
    fun, grad = _objective()
    yield Sample(fun, np.zeros(3), grad, (_spd(rng, 3), rng.standard_normal(3)),
                 fkwargs={"gtol": 1e-10, "disp": False}, label="fprime by position", **_check(False))


@sample_inputs(scipy.optimize.fmin_bfgs)
def _fmin_bfgs_samples(rng: np.random.Generator) -> Iterator[Sample]:
    fun, grad = _objective()
    yield Sample(fun, np.zeros(3), grad, (_spd(rng, 3), rng.standard_normal(3)),
                 fkwargs={"gtol": 1e-10, "disp": False, "full_output": True},
                 label="full_output (gopt: zero at the minimum)", **_check(True))


@sample_inputs(scipy.optimize.fmin_ncg)
def _fmin_ncg_samples(rng: np.random.Generator) -> Iterator[Sample]:
    fun, grad = _objective()
    yield Sample(fun, np.zeros(3), grad, fkwargs={"args": (_spd(rng, 3), rng.standard_normal(3)),
                                                  "avextol": 1e-12, "disp": False},
                 label="args by keyword (constants)", **_check(False))
    yield Sample(fun, np.zeros(3), grad, None, None, (_spd(rng, 3), rng.standard_normal(3)),
                 fkwargs={"avextol": 1e-12, "disp": False}, **_check(False))


@sample_inputs(scipy.optimize.fmin_l_bfgs_b)
def _fmin_l_bfgs_b_samples(rng: np.random.Generator) -> Iterator[Sample]:
    fun, grad = _objective()
    yield Sample(fun, np.zeros(3), grad, (_spd(rng, 3), np.array([1.0, -1.0, 0.5])),
                 fkwargs={"bounds": [(None, None), (0.0, 1.0), (None, None)], "pgtol": 1e-12, "factr": 10.0},
                 label="an active bound", **_check(True))


@sample_inputs(scipy.optimize.fmin_slsqp)
def _fmin_slsqp_samples(rng: np.random.Generator) -> Iterator[Sample]:
    # its constraints take the objective's args (differentiated): their second derivatives need an AD config (the
    # tests use autograd's); here, bounds
    fun, grad = _objective()
    yield Sample(fun, np.zeros(3), fkwargs={"args": (_spd(rng, 3), np.array([1.0, -1.0, 0.5])), "fprime": grad,
                                            "bounds": [(-2.0, 2.0), (0.0, 1.0), (-2.0, 2.0)], "acc": 1e-15,
                                            "iprint": 0},
                 label="an active bound, args by keyword", **_check(False))
    yield Sample(fun, np.zeros(3), (), None, (), None, PrimalAndTangent([(-2.0, 2.0), (0.0, 1.0), (-2.0, 2.0)], NO),
                 grad, None, None,
                 (_spd(rng, 3), np.array([1.0, -1.0, 0.5])), fkwargs={"acc": 1e-15, "iprint": 0, "full_output": True},
                 label="an active bound, args by position", **_check(True))


@sample_inputs(scipy.optimize.fmin_tnc)
def _fmin_tnc_samples(rng: np.random.Generator) -> Iterator[Sample]:
    fun, grad = _objective()
    yield Sample(fun, np.zeros(3), grad, (_spd(rng, 3), rng.standard_normal(3)),
                 fkwargs={"pgtol": 1e-12, "xtol": 1e-14, "ftol": 1e-16, "maxfun": 1000, "messages": 0, "disp": 0},
                 config=RulesOnlyConfig(), fdm=_NOISY, rtol=1e-5, atol=1e-5, gauge_invariant=lambda out: out[0])


def _quartic() -> Any:
    _problems.register()
    register_gradient(_problems.quartic, _problems.quartic_gradient)
    return _problems.quartic


@sample_inputs(scipy.optimize.fminbound)
def _fminbound_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample(_quartic(), -2.0, 3.0, (0.7,), fkwargs={"xtol": 1e-12}, **_check(False))
    yield Sample(_quartic(), -2.0, 3.0, (np.float32(-1.5),), _fixed(1e-12), 500, True, label="full_output, float32",
                 **_check(True))


@sample_inputs(scipy.optimize.brent)
def _brent_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample(_quartic(), (0.7,), fkwargs={"tol": 1e-12}, **_check(False))
    yield Sample(_quartic(), (0.7,), (-1.0, 2.0), _fixed(1e-12), True, label="full_output, a bracket",
                 **_check(True))


@sample_inputs(scipy.optimize.golden)
def _golden_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample(_quartic(), (0.7,), fkwargs={"tol": 1e-12}, **_check(False))
