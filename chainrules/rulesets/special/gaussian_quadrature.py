"""Rules of the Gaussian quadrature rules ``roots_*`` (and their aliases ``j_roots``, ``la_roots``, ...).

``roots_jacobi(n, alpha, beta)``, ``roots_sh_jacobi(n, p1, q1)``, ``roots_gegenbauer(n,
alpha)`` and ``roots_genlaguerre(n, alpha)`` have nodes, weights and (``mu=True``) the
integral of the weight function that depend smoothly on their real parameters: they are
differentiated in them. The degree ``n`` is an index. The rules with no real parameter
(``roots_legendre``, ``roots_chebyt``, ``roots_chebyu``, ``roots_chebyc``, ``roots_chebys``,
``roots_laguerre``, ``roots_hermite``, ``roots_hermitenorm``, ``roots_sh_legendre``,
``roots_sh_chebyt``, ``roots_sh_chebyu``) are functions of the integer ``n`` alone:
non-differentiable.

The maths
---------
The nodes are the zeros of the orthogonal polynomial: by the implicit function theorem
``dx_i/d theta = -dP_n/d theta (x_i) / P_n'(x_i)``, with ``dP/d theta`` from the forward-mode
three-term recurrence (:mod:`~chainrules.rulesets.special.orthogonal_polynomials`) and
``P_n'`` from DLMF 18.9.15/18.9.23. The weights are (Szegő, *Orthogonal Polynomials*,
(15.3.1) and (15.3.5), the forms SciPy's values satisfy to ``4e-15``)::

    Jacobi:   w_i = 2^(a+b+1) Gamma(n+a+1) Gamma(n+b+1) / (n! Gamma(n+a+b+1)) / ((1 - x_i^2) P_n'(x_i)^2)
    Laguerre: w_i = Gamma(n+a+1) / (n! x_i L_n'(x_i)^2)

differentiated in forward mode with the node as a jet (so ``dw/d theta`` includes
``dw/dx dx/d theta``). ``mu = 2^(a+b+1) Gamma(a+1) Gamma(b+1) / Gamma(a+b+2)`` (Jacobi),
``Gamma(a+1)`` (Laguerre). Gegenbauer's rule is Jacobi's with ``a = b = alpha - 1/2``; the
shifted Jacobi rule is Jacobi's with ``a = p1 - q1``, ``b = q1 - 1``, nodes ``(x + 1)/2``
and weights divided by ``2^p1`` (both checked against SciPy).

Examples
--------
>>> import numpy as np
>>> import scipy.special as sc
>>> import chainrules
>>> from chainrules import frule
>>> (x, w), (dx, dw) = frule((None, None, 1.0), sc.roots_genlaguerre, 1, 0.5)
>>> float(dx[0])                    # n = 1: x = a + 1, w = Gamma(a + 1)
1.0
>>> bool(np.isclose(dw[0], sc.gamma(1.5) * sc.psi(1.5)))
True
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.special as sc

from chainrules.rulesets.special._jet import Jet, gamma_ratio, power
from chainrules.rulesets.special.orthogonal_polynomials import _jacobi_recurrence, _laguerre_recurrence
from chainrules_core import (
    NoTangent,
    Sample,
    Tangent,
    Varargs,
    ZeroTangent,
    differentiable,
    frule,
    non_differentiable,
    read_cotangents,
    rrule,
    sample_inputs,
    unthunk,
)
from chainrules_core.scalar_rules import NUMERIC, project_argument


def _spread(J: Jet, size: int) -> Jet:
    """A one-element jet repeated over ``size`` elements."""
    return Jet(np.repeat(J.v, size), np.repeat(J.d, size, axis=1), np.repeat(J.ev, size), np.repeat(J.ed, size, axis=1))


def jacobi_rule(n: int, A: Jet, B: Jet, x: np.ndarray) -> tuple[Jet, Jet, Jet]:
    """Nodes, weights and mu of Gauss-Jacobi (nodes ``x`` from SciPy) as jets in the parameters of
    the one-element jets ``A``, ``B``."""
    size = x.size
    A, B = _spread(A, size), _spread(B, size)
    nn = np.full(size, n)
    p = _jacobi_recurrence(nn, A, B, x)
    slope = (A + (n + 1) + B) * 0.5 * _jacobi_recurrence(nn - 1, A + 1, B + 1, x)
    X = Jet(x.astype(np.float64), -p.d / slope.v, np.zeros(size), np.zeros(p.d.shape))
    slope_at_x = (A + (n + 1) + B) * 0.5 * _jacobi_recurrence(nn - 1, A + 1, B + 1, X)
    two = np.full(size, 2.0)
    factor = power(two, A + B + 1) * gamma_ratio([A + (n + 1), B + (n + 1)], [A + B + (n + 1)]) * (1 / sc.gamma(n + 1))
    w = factor / ((1 - X * X) * slope_at_x * slope_at_x)
    A1, B1 = A.take(slice(0, 1)), B.take(slice(0, 1))
    mu = power(np.full(1, 2.0), A1 + B1 + 1) * gamma_ratio([A1 + 1, B1 + 1], [A1 + B1 + 2])
    return X, w, mu


def laguerre_rule(n: int, A: Jet, x: np.ndarray) -> tuple[Jet, Jet, Jet]:
    """Nodes, weights and mu of Gauss-Laguerre as jets in the parameters of the one-element jet ``A``."""
    size = x.size
    A1 = A
    A = _spread(A, size)
    nn = np.full(size, n)
    p = _laguerre_recurrence(nn, A, x)
    slope = -_laguerre_recurrence(nn - 1, A + 1, x)
    X = Jet(x.astype(np.float64), -p.d / slope.v, np.zeros(size), np.zeros(p.d.shape))
    slope_at_x = -_laguerre_recurrence(nn - 1, A + 1, X)
    w = gamma_ratio([A + (n + 1)], []) * (1 / sc.gamma(n + 1)) / (X * slope_at_x * slope_at_x)
    mu = gamma_ratio([A1 + 1], [])
    return X, w, mu


def rule_jets(kind: str, n: int, params: tuple[float, ...], x: np.ndarray) -> tuple[Jet, Jet, Jet]:
    """Nodes, weights and mu of a family's rule as jets in its own real parameters."""
    k = len(params)
    P = [Jet.variable(np.array([float(v)]), i, k) for i, v in enumerate(params)]
    if kind == "jacobi":
        return jacobi_rule(n, P[0], P[1], x)
    if kind == "gegenbauer":
        return jacobi_rule(n, P[0] - 0.5, P[0] - 0.5, x)
    if kind == "sh_jacobi":
        p, q = P
        X, w, mu = jacobi_rule(n, p - q, q - 1, 2 * x - 1)
        scale = power(np.full(1, 0.5), p)  # nodes (x + 1)/2, weights and mu times 2^-p
        return (X + 1) * 0.5, w * _spread(scale, x.size), mu * scale
    return laguerre_rule(n, P[0], x)


def _derivatives(kind: str, n: int, params: tuple[float, ...], x: np.ndarray) -> list[tuple[Any, Any, Any]]:
    """Per real parameter, ``(dx, dw, dmu)``."""
    X, w, mu = rule_jets(kind, n, params, x)
    return [(X.d[i], w.d[i], mu.d[i][0]) for i in range(len(params))]


def _quadrature_rules(f: Any, kind: str, nparams: int) -> None:
    name = f.__name__

    def split(args: tuple[Any, ...]) -> tuple[Any, tuple[Any, ...], int]:
        """The degree, the real parameters, and how many arguments follow them (``mu``)."""
        return args[0], args[1:1 + nparams], len(args) - 1 - nparams

    def roots_rrule(*args: Any, **kwargs: Any) -> Any:
        n, params, extra = split(args)
        ys = f(*args, **kwargs)
        live = [differentiable(p) for p in params]

        def roots_pullback(dy: Any) -> tuple[Any, ...]:
            parts = read_cotangents(dy, ys, f)
            out: list[Any] = [NoTangent(), NoTangent()]
            if not isinstance(parts, tuple | list):
                out += [parts if ok else NoTangent() for ok in live]
                return (*out, *(NoTangent(),) * extra)
            table = _derivatives(kind, int(n), tuple(float(p) for p in params), np.asarray(ys[0]))
            for i, ok in enumerate(live):
                if not ok:
                    out.append(NoTangent())
                    continue
                total = 0.0
                for part, d in zip(parts, table[i]):
                    if part is None or isinstance(part, ZeroTangent):
                        continue
                    total = total + np.sum(np.asarray(d) * part)
                out.append(project_argument(params[i], total))
            return (*out, *(NoTangent(),) * extra)

        roots_pullback.__name__ = f"{name}_pullback"
        return ys, roots_pullback

    def roots_frule(tangents: Any, *args: Any, **kwargs: Any) -> Any:
        n, params, _ = split(args)
        ys = f(*args, **kwargs)
        used = [(i, unthunk(tangents[2 + i])) for i in range(nparams)]
        used = [(i, t) for i, t in used if differentiable(params[i]) and t is not None
                and not isinstance(t, ZeroTangent | NoTangent)]
        if not used:
            return ys, Tangent(tuple, *(ZeroTangent() for _ in ys))
        table = _derivatives(kind, int(n), tuple(float(p) for p in params), np.asarray(ys[0]))
        dys = []
        for k, yk in enumerate(ys):
            total: Any = 0.0
            for i, t in used:
                total = total + np.asarray(table[i][k]) * t
            dys.append(np.asarray(np.broadcast_to(total, np.shape(yk)), dtype=np.result_type(yk, np.float64)).copy()
                       if np.ndim(yk) else np.float64(total))
        return ys, Tangent(tuple, *dys)

    roots_rrule.__name__ = f"{name}_rrule"
    roots_frule.__name__ = f"{name}_frule"
    types = (NUMERIC,) * (1 + nparams)
    rrule.register(f, *types, Varargs(object))(roots_rrule)
    frule.register(f, *types, Varargs(object))(roots_frule)


_quadrature_rules(sc.roots_jacobi, "jacobi", 2)
_quadrature_rules(sc.roots_sh_jacobi, "sh_jacobi", 2)
_quadrature_rules(sc.roots_gegenbauer, "gegenbauer", 1)
_quadrature_rules(sc.roots_genlaguerre, "genlaguerre", 1)

for _f in (sc.roots_legendre, sc.roots_chebyt, sc.roots_chebyu, sc.roots_chebyc, sc.roots_chebys, sc.roots_laguerre,
           sc.roots_hermite, sc.roots_hermitenorm, sc.roots_sh_legendre, sc.roots_sh_chebyt, sc.roots_sh_chebyu):
    non_differentiable(_f)


# ---- samples ------------------------------------------------------------------------------------------
@sample_inputs(sc.roots_jacobi)
def _jacobi_samples(rng: np.random.Generator) -> Any:
    yield Sample(5, 0.5, 1.5, label="n = 5")
    yield Sample(3, -0.5, 2.25, True, label="mu by position")
    yield Sample(8, 1.25, -0.25, fkwargs={"mu": True}, label="mu by keyword")


@sample_inputs(sc.roots_sh_jacobi)
def _sh_jacobi_samples(rng: np.random.Generator) -> Any:
    yield Sample(5, 2.5, 1.5, label="n = 5")
    yield Sample(4, 3.0, 0.75, fkwargs={"mu": True}, label="mu")


@sample_inputs(sc.roots_gegenbauer)
def _gegenbauer_samples(rng: np.random.Generator) -> Any:
    yield Sample(5, 1.3, label="n = 5")
    yield Sample(4, 0.25, fkwargs={"mu": True}, label="mu")


@sample_inputs(sc.roots_genlaguerre)
def _genlaguerre_samples(rng: np.random.Generator) -> Any:
    yield Sample(5, 0.5, label="n = 5")
    yield Sample(6, 2.5, fkwargs={"mu": True}, label="mu")


@sample_inputs(sc.roots_legendre, sc.roots_chebyt, sc.roots_chebyu, sc.roots_chebyc, sc.roots_chebys,
               sc.roots_laguerre, sc.roots_hermite, sc.roots_hermitenorm, sc.roots_sh_legendre, sc.roots_sh_chebyt,
               sc.roots_sh_chebyu)
def _integer_only_samples(rng: np.random.Generator) -> Any:
    yield Sample(4, label="n = 4")

