"""Rules of the orthogonal-polynomial constructors (``jacobi``, ``legendre``, ..., returning ``orthopoly1d``).

``jacobi(n, alpha, beta)``, ``sh_jacobi(n, p, q)``, ``gegenbauer(n, alpha)`` and
``genlaguerre(n, alpha)`` build polynomials whose coefficients, quadrature nodes and
weights and normalisation depend smoothly on the real parameters: their rules return a
structural ``Tangent(orthopoly1d, coeffs=..., weights=..., normcoef=...)`` (the fields
SciPy stores; ``weight_func``, ``limits`` and the evaluation function have no tangent), and
the pullback takes one. The constructors with only an integer degree (``legendre``,
``chebyt``, ``chebyu``, ``chebyc``, ``chebys``, ``laguerre``, ``hermite``,
``hermitenorm``, ``sh_legendre``, ``sh_chebyt``, ``sh_chebyu``) are non-differentiable.

This module registers that tangent space (``ProjectTo`` of an ``orthopoly1d`` is a
structural projector onto those three fields). No other rule consumes ``np.poly1d``
objects: to differentiate the *values* of these polynomials use ``eval_jacobi`` and friends
(:mod:`~chainrules.rulesets.special.orthogonal_polynomials`), and for quadrature the
``roots_*`` rules (:mod:`~chainrules.rulesets.special.gaussian_quadrature`).

The maths
---------
SciPy builds ``orthopoly1d(x, w, hn, kn, wfunc)``: ``coeffs = kn poly(x)`` (``kn = 1`` when
``monic``), ``weights = [x, w, w / wfunc(x)]`` row-wise, ``normcoef = sqrt(hn)`` (divided
by ``|kn|`` when ``monic``), with ``x, w`` the Gauss nodes and weights; ``gegenbauer`` scales
Jacobi's ``(alpha - 1/2, alpha - 1/2)`` coefficients and ``normcoef`` by
``Gamma(2a + n) Gamma(a + 1/2) / (Gamma(2a) Gamma(a + 1/2 + n))`` (A&S 22.5.20). The nodes and
weights are differentiated as in the ``roots_*`` rules; ``d poly(x)/dx_i = -poly(x without
x_i)``; ``hn``, ``kn`` and ``wfunc`` (``(1-x)^a (1+x)^b``, ``(1-x)^(p-q) x^(q-1)``,
``e^-x x^a``) in forward mode.

Examples
--------
>>> import scipy.special as sc
>>> import chainrules
>>> from chainrules import frule
>>> p, dp = frule((None, None, 1.0, 0.0), sc.jacobi, 1, 0.5, 1.5)   # P_1 = (a+b+2)/2 x + (a-b)/2
>>> dp.coeffs
array([0.5, 0.5])
"""

from __future__ import annotations

import copy
import functools
from typing import Any

import numpy as np
import scipy.special as sc
from scipy.special._orthogonal import orthopoly1d

from chainrules.rulesets.special._jet import Jet, exp, gamma_ratio, log, power
from chainrules.rulesets.special.gaussian_quadrature import rule_jets
from chainrules_core import (
    AbstractZero,
    NoTangent,
    NotImplementedTangent,
    ProjectionError,
    ProjectTo,
    Sample,
    Tangent,
    Thunk,
    Varargs,
    ZeroTangent,
    differentiable,
    frule,
    non_differentiable,
    rrule,
    sample_inputs,
    unthunk,
)
from chainrules_core.projection import StructuralProjector
from chainrules_core.scalar_rules import NUMERIC, project_argument

_FIELDS = ("coeffs", "weights", "normcoef")


def _constant_hn_kn(kind: str, n: int, P: list[Jet]) -> tuple[Jet, Jet]:
    """``hn`` and ``kn`` of SciPy's constructor as one-element jets."""
    k = P[0].k
    one = Jet.constant(np.ones(1), k)
    if kind == "jacobi" or kind == "gegenbauer":
        a, b = (P[0], P[1]) if kind == "jacobi" else (P[0] - 0.5, P[0] - 0.5)
        ab1 = a + b + 1
        hn = power(np.full(1, 2.0), ab1) / (ab1 + 2 * n) * gamma_ratio([a + (n + 1), b + (n + 1)], [ab1 + n]) * (
            1 / sc.gamma(n + 1))
        kn = gamma_ratio([ab1 + 2 * n], [ab1 + n]) * (1 / (2.0 ** n * sc.gamma(n + 1)))
        return hn, kn
    if kind == "sh_jacobi":
        p, q = P
        hn = gamma_ratio([q + n, p + n, p - q + (n + 1)], [p + 2 * n, p + 2 * n]) * (sc.gamma(n + 1)) / (p + 2 * n)
        return hn, one
    a = P[0]
    return gamma_ratio([a + (n + 1)], []) * (1 / sc.gamma(n + 1)), one * ((-1.0) ** n / sc.gamma(n + 1))


def _weight_function(kind: str, P: list[Jet], X: Jet) -> Jet:
    size = X.v.size
    spread = [Jet(np.repeat(J.v, size), np.repeat(J.d, size, axis=1), np.repeat(J.ev, size),
                  np.repeat(J.ed, size, axis=1)) for J in P]
    if kind in ("jacobi", "gegenbauer"):
        a, b = (spread[0], spread[1]) if kind == "jacobi" else (spread[0] - 0.5, spread[0] - 0.5)
        return exp(a * log(1 - X) + b * log(X + 1))
    if kind == "sh_jacobi":
        p, q = spread
        return exp((p - q) * log(1 - X) + (q - 1.0) * log(X))
    return exp(spread[0] * log(X) - X)


def _object_derivatives(kind: str, n: int, params: tuple[float, ...], monic: bool, y: Any) -> list[dict[str, Any]]:
    """Per real parameter, the derivatives of the fields ``coeffs``, ``weights``, ``normcoef``."""
    k = len(params)
    P = [Jet.variable(np.array([float(v)]), i, k) for i, v in enumerate(params)]
    coeffs = np.asarray(y.coeffs, dtype=np.float64)
    out = [{"coeffs": np.zeros_like(coeffs), "weights": np.zeros(np.shape(y.weights)), "normcoef": 0.0}
           for _ in range(k)]
    if n == 0:
        return out
    roots = np.asarray(y.weights, dtype=np.float64)[:, 0]
    X, w, _ = rule_jets(kind, n, params, roots)
    hn, kn = _constant_hn_kn(kind, n, P)
    mu = exp(log(hn) * 0.5)
    scale = Jet.constant(np.ones(1), k)
    if kind == "gegenbauer" and not monic:
        a = P[0]
        scale = gamma_ratio([2 * a + n, a + 0.5], [2 * a, a + (0.5 + n)])
    if monic:
        mu = mu / Jet(np.abs(kn.v), np.sign(kn.v) * kn.d, kn.ev, kn.ed)
        lead = Jet.constant(np.ones(1), k)
    else:
        lead = kn
    lead = lead * scale
    mu = mu * scale
    wf = _weight_function(kind, P, X)
    equivalent = w / wf
    # coeffs = lead * poly(roots): d/dr_i poly = -poly(roots without r_i) (one degree lower)
    partial_roots = np.stack([np.concatenate([[0.0], -np.atleast_1d(np.poly(np.delete(roots, i)))])
                              for i in range(roots.size)])
    monic_poly = np.poly(roots)
    for j in range(k):
        dc = lead.d[j][0] * monic_poly + lead.v[0] * (X.d[j] @ partial_roots)
        out[j]["coeffs"] = dc
        out[j]["weights"] = np.stack([X.d[j], w.d[j], equivalent.d[j]], axis=1)
        out[j]["normcoef"] = float(mu.d[j][0])
    return out


def _read_object_cotangent(dy: Any, f: Any) -> Any:
    """The fields of a structural cotangent of an ``orthopoly1d`` output (zeros pass through)."""
    dy = unthunk(dy)
    if isinstance(dy, AbstractZero | NotImplementedTangent):
        return dy
    if isinstance(dy, Tangent) and issubclass(orthopoly1d, dy.primal_type):
        return {name: unthunk(getattr(dy, name)) for name in _FIELDS}
    raise ProjectionError(f"scipy.special.{f.__name__} pullback: output cotangent must be a structural "
                          f"Tangent(orthopoly1d, coeffs=..., weights=..., normcoef=...) or a zero tangent, got "
                          f"{type(dy).__name__}")


@ProjectTo.register(orthopoly1d)
def _project_orthopoly1d(x: Any) -> Any:
    """The tangent space of an ``orthopoly1d``: its stored ``coeffs``, ``weights``, ``normcoef``."""
    return StructuralProjector(orthopoly1d, {"coeffs": ProjectTo(np.asarray(x.coeffs)),
                                             "weights": ProjectTo(np.asarray(x.weights)),
                                             "normcoef": ProjectTo(float(x.normcoef))})


def register_for_testing() -> None:
    """Teach the testers' finite differences and random tangents the fields of ``orthopoly1d``.

    Called by the sample generators (the testers are not imported with the rules).
    """
    from chainrules.testing.tree import register_tree_node

    def flatten(x: Any) -> tuple[list[Any], Any]:
        return [np.asarray(x.coeffs, dtype=np.float64), np.asarray(x.weights, dtype=np.float64),
                float(x.normcoef)], x

    def unflatten(template: Any, children: list[Any]) -> Any:
        out = copy.copy(template)
        out.__dict__.update(coeffs=children[0], weights=children[1], normcoef=children[2])
        return out

    def flatten_tangent(dx: Any, template: Any) -> list[Any]:
        if isinstance(dx, Tangent):
            return [getattr(dx, name) for name in _FIELDS]
        return [ZeroTangent()] * 3

    def unflatten_tangent(template: Any, children: list[Any]) -> Any:
        return Tangent(orthopoly1d, **dict(zip(_FIELDS, children)))

    register_tree_node(orthopoly1d, flatten, unflatten, flatten_tangent=flatten_tangent,
                       unflatten_tangent=unflatten_tangent)


def _object_rules(f: Any, kind: str, nparams: int) -> None:
    name = f.__name__

    def split(args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[int, tuple[Any, ...], bool, int]:
        rest = args[1 + nparams:]
        monic = bool(rest[0]) if rest else bool(kwargs.get("monic", False))
        return int(args[0]), args[1:1 + nparams], monic, len(rest)

    def object_rrule(*args: Any, **kwargs: Any) -> Any:
        n, params, monic, extra = split(args, kwargs)
        y = f(*args, **kwargs)
        live = [differentiable(p) for p in params]

        def cotangent(j: int, fields: dict[str, Any], table: list[dict[str, Any]]) -> Any:
            total = 0.0
            for field in _FIELDS:
                bar = fields[field]
                if isinstance(bar, AbstractZero):
                    continue
                total = total + np.sum(np.asarray(bar) * table[j][field])
            return project_argument(params[j], total)

        def object_pullback(dy: Any) -> tuple[Any, ...]:
            fields = _read_object_cotangent(dy, f)
            head: list[Any] = [NoTangent(), NoTangent()]
            if not isinstance(fields, dict):
                return (*head, *(fields if ok else NoTangent() for ok in live), *(NoTangent(),) * extra)
            table = _object_derivatives(kind, n, tuple(float(p) for p in params), monic, y)
            cots = [Thunk(functools.partial(cotangent, j, fields, table)) if ok else NoTangent()
                    for j, ok in enumerate(live)]
            return (*head, *cots, *(NoTangent(),) * extra)

        object_pullback.__name__ = f"{name}_pullback"
        return y, object_pullback

    def object_frule(tangents: Any, *args: Any, **kwargs: Any) -> Any:
        n, params, monic, _ = split(args, kwargs)
        y = f(*args, **kwargs)
        used = [(j, unthunk(tangents[2 + j])) for j in range(nparams)]
        used = [(j, t) for j, t in used if differentiable(params[j]) and t is not None
                and not isinstance(t, AbstractZero)]
        if not used:
            return y, ZeroTangent()
        table = _object_derivatives(kind, n, tuple(float(p) for p in params), monic, y)
        fields = {name: sum(table[j][name] * t for j, t in used) for name in _FIELDS}
        return y, Tangent(orthopoly1d, **fields)

    object_rrule.__name__ = f"{name}_rrule"
    object_frule.__name__ = f"{name}_frule"
    types = (NUMERIC,) * (1 + nparams)
    rrule.register(f, *types, Varargs(object))(object_rrule)
    frule.register(f, *types, Varargs(object))(object_frule)


_object_rules(sc.jacobi, "jacobi", 2)
_object_rules(sc.sh_jacobi, "sh_jacobi", 2)
_object_rules(sc.gegenbauer, "gegenbauer", 1)
_object_rules(sc.genlaguerre, "genlaguerre", 1)
for _f in (sc.legendre, sc.chebyt, sc.chebyu, sc.chebyc, sc.chebys, sc.laguerre, sc.hermite, sc.hermitenorm,
           sc.sh_legendre, sc.sh_chebyt, sc.sh_chebyu):
    non_differentiable(_f)


@sample_inputs(sc.jacobi, sc.sh_jacobi)
def _two_parameter_samples(rng: np.random.Generator) -> Any:
    register_for_testing()
    yield Sample(4, 2.5, 1.5, label="n = 4")
    yield Sample(3, 2.0, 0.75, True, label="monic by position")


@sample_inputs(sc.gegenbauer, sc.genlaguerre)
def _one_parameter_samples(rng: np.random.Generator) -> Any:
    register_for_testing()
    yield Sample(4, 1.5, label="n = 4")
    yield Sample(3, 0.75, fkwargs={"monic": True}, label="monic by keyword")


@sample_inputs(sc.legendre, sc.chebyt, sc.chebyu, sc.chebyc, sc.chebys, sc.laguerre, sc.hermite, sc.hermitenorm,
               sc.sh_legendre, sc.sh_chebyt, sc.sh_chebyu)
def _integer_only_samples(rng: np.random.Generator) -> Any:
    yield Sample(4, label="n = 4")
