"""Rules of the Legendre functions and spherical harmonics.

``lpmv`` (in ``x`` and the real degree ``v``), ``legendre_p``, ``legendre_p_all``,
``assoc_legendre_p``, ``assoc_legendre_p_all``, ``sph_legendre_p``, ``sph_legendre_p_all``,
``sph_harm_y``, ``sph_harm_y_all`` (in ``z``, ``theta``, ``phi``; with their ``diff_n``
keyword), ``lqn``, ``lqmn`` (in ``z``). Degrees and orders given as integers are indices:
``NoTangent()``; so is ``lpmv``'s order ``m`` (SciPy takes it as a float, but only integer
orders are defined).

The maths
---------
**The functions with ``diff_n``** return the derivatives of orders ``0..diff_n`` stacked
on a leading axis (``sph_harm_y``: a tuple of the value, the gradient in ``(theta, phi)``
and the Hessian, on trailing axes). The derivative of each slice is the next order,
obtained from SciPy with ``diff_n + 1`` (it computes up to 2). The third derivatives
(needed only for ``diff_n = 2``) come from the differential equations: Legendre's,
differentiated once (DLMF 14.2.2: ``(1 - z^2) w'' - 2 z w' + (n(n+1) - m^2/(1 - z^2)) w =
0``), so ``w''' = (4 z w'' - (n(n+1) - 2 - m^2/(1 - z^2)) w' + 2 m^2 z w / (1 - z^2)^2) /
(1 - z^2)``; in ``theta`` (``S'' + cot S' + (n(n+1) - m^2 csc^2) S = 0``),
``S''' = -cot S'' + csc^2 S' - (n(n+1) - m^2 csc^2) S' - 2 m^2 cot csc^2 S``; for
Legendre's polynomials exactly, ``P_n''' = (n+1)_3 / 8 P^(3,3)_(n-3)`` (DLMF 18.9.15). A
third derivative from the equations cancels near the poles ``z = +-1`` (``theta = 0, pi``):
where the cancellation costs more than ``1e-9`` in relative accuracy its cotangent is
``not_implemented``. In ``phi`` a spherical harmonic ``Y^m_n = S(theta) e^(i m phi)`` gives
``d/dphi = i m``. Inputs are real except ``z`` of ``assoc_legendre_p`` (complex,
holomorphic); ``sph_harm_y`` is complex-valued of real angles.

**lpmv** ``P^m_v(x)`` (Ferrers' function with the Condon-Shortley phase, DLMF 14.3.1 with
14.6.1 and 15.8.1)::

    P^m_v(x)  = (-1)^m (1-x^2)^(m/2) Gamma(v+m+1) / (2^m m! Gamma(v-m+1)) 2F1(m-v, v+m+1; m+1; (1-x)/2),
    P^-k_v(x) = (1-x^2)^(k/2) / (2^k k!) 2F1(k-v, v+k+1; k+1; (1-x)/2)        (k > 0)

in ``v`` by the hypergeometric machinery (forward mode with error bounds, then extrapolated
differences where SciPy is accurate, else ``not_implemented``: near ``x = -1`` for a
non-integer degree, where the functions have logarithmic singularities); in ``x`` by
DLMF 14.10.5, ``(1 - x^2) dP^m_v/dx = (m - v - 1) P^m_(v+1) + (v + 1) x P^m_v`` with SciPy's
``lpmv``, and where that cancels (towards ``x = 1``) with ``d^j P_v/dx^j = (v+1)_j / 2^j
P^(j,j)_(v-j)`` (DLMF 18.9.15 for a real degree): ``dP^m_v/dx = (-1)^m ((1-x^2)^(m/2)
D_(m+1) - m x (1-x^2)^(m/2-1) D_m)`` for ``m >= 0``, and the derivative of the ``2F1`` form
for ``m < 0``.

**lqn, lqmn** return ``Q`` and ``Q'``: ``d Q'/dz = Q'' = (2 z Q' - (n(n+1) - m^2/(1-z^2)) Q) /
(1 - z^2)`` (Legendre's equation, DLMF 14.2.2).

Examples
--------
>>> import numpy as np
>>> import scipy.special as sc
>>> import chainrules
>>> from chainrules import frule
>>> y, dy = frule((None, None, 1.0), sc.legendre_p, 2, 0.5)     # P_2(z) = (3 z^2 - 1)/2
>>> y, dy
(array([-0.125]), array([1.5]))
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np
import scipy.special as sc

from chainrules.rulesets.special._hypergeometric_jets import hyp2f1_jet
from chainrules.rulesets.special._jet import Jet, gamma_ratio
from chainrules.rulesets.special._numerical import parameter_derivative
from chainrules.rulesets.special._parameter_rules import float64, parameter, shared_partials
from chainrules_core import (
    AbstractZero,
    NoTangent,
    NotImplementedTangent,
    Sample,
    Tangent,
    Thunk,
    ZeroTangent,
    differentiable,
    frule,
    not_implemented,
    passes_through,
    read_cotangent,
    read_cotangents,
    rrule,
    sample_inputs,
    scalar_rule,
    unthunk,
)
from chainrules_core.scalar_rules import NUMERIC, conj_if_complex, project_argument

_U = 2.0 ** -53


# ---- lpmv ------------------------------------------------------------------------------------------
def _lpmv_jet(m: np.ndarray, v: np.ndarray, x: np.ndarray) -> Jet:
    """``P^m_v(x)`` as a jet in ``v`` (the forms of the module docstring)."""
    k = np.abs(m)
    V = Jet.variable(v, 0, 1)
    K = Jet.constant(k, 1)
    z = (1 - x) / 2
    series = hyp2f1_jet(K - V, V + K + 1, K + 1, z)
    outer = Jet.constant((1 - x * x) ** (k / 2) / (2 ** k * sc.gamma(k + 1)), 1,
                         error=4 * _U * (1 + k) * (1 - x * x) ** (k / 2) / (2 ** k * sc.gamma(k + 1)))
    positive = gamma_ratio([V + K + 1], [V - K + 1]) * np.where(m % 2 == 0, 1.0, -1.0)
    prefactor = Jet(np.where(m >= 0, positive.v, 1.0), np.where(m >= 0, positive.d, 0.0),
                    np.where(m >= 0, positive.ev, 0.0), np.where(m >= 0, positive.ed, 0.0))
    return outer * prefactor * series


def _lpmv_x_jacobi(m: Any, v: Any, x: Any) -> Any:
    """``dP^m_v/dx`` from ``d^j P_v/dx^j = (v+1)_j / 2^j P^(j,j)_(v-j)`` (accurate where ``(1-x)/2`` is small)."""
    k = np.abs(m)
    w = 1 - x * x
    with np.errstate(all="ignore"):
        def d(j: Any) -> Any:
            value = sc.poch(v + 1, j) / 2 ** j * sc.eval_jacobi(v - j, j, j, x)
            # an integer degree below the order: the derivative vanishes (SciPy's Jacobi gives NaN)
            return np.where((v == np.round(v)) & (v >= 0) & (j > v), 0.0, value)

        sign = np.where(m % 2 == 0, 1.0, -1.0)
        positive = sign * (w ** (k / 2) * d(k + 1) - k * x * w ** (k / 2 - 1) * d(k))
        positive = np.where(k == 0, d(1.0), positive)
        # m < 0: the 2F1 form, F' = -1/2 a b / c F(a+1, b+1; c+1; z)
        a, b, c = k - v, v + k + 1, k + 1
        z = (1 - x) / 2
        scale = 1 / (2 ** k * sc.gamma(k + 1))
        negative = scale * (-k * x * w ** (k / 2 - 1) * sc.hyp2f1(a, b, c, z)
                            - w ** (k / 2) * a * b / (2 * c) * sc.hyp2f1(a + 1, b + 1, c + 1, z))
        return np.where(m >= 0, positive, negative)


def lpmv_x(m: Any, v: Any, x: Any, y: Any) -> Any:
    """``dP^m_v/dx = ((m - v - 1) P^m_(v+1) + (v + 1) x P^m_v) / (1 - x^2)`` (DLMF 14.10.5).

    Where that cancels (near ``x = 1``), the derivative of the hypergeometric form, which is
    accurate there (for ``x > -1/2``: SciPy's 2F1 loses digits towards ``x = -1`` when
    ``c - a - b`` is an integer); else extrapolated differences of ``lpmv`` in ``x``; else
    not implemented.
    """
    shape = np.broadcast_shapes(np.shape(m), np.shape(v), np.shape(x))
    m, v, x = (np.broadcast_to(float64(t), shape).ravel() for t in (m, v, x))
    y = np.broadcast_to(float64(y), shape).ravel()
    with np.errstate(all="ignore"):
        t1 = (m - v - 1) * sc.lpmv(m, v + 1, x)
        t2 = (v + 1) * x * y
        s = 1 - x * x
        out = (t1 + t2) / s
        error = 16 * _U * (np.abs(t1) + np.abs(t2)) / np.abs(s)
    ok = (error <= 1e-9 * np.abs(out)) | ~np.isfinite(y)
    todo = np.flatnonzero(~ok & (x > -0.5))
    if todo.size:
        out[todo] = _lpmv_x_jacobi(m[todo], v[todo], x[todo])
        ok[todo] = np.isfinite(out[todo])
    todo = np.flatnonzero(~ok)
    if todo.size:
        room = 0.25 * np.minimum(1 - np.abs(x[todo]), 0.1)

        def along(t: Any) -> Any:
            return sc.lpmv(m[todo], v[todo], t)

        d, err = parameter_derivative(along, x[todo], step=room)
        good = np.isfinite(d) & (err <= 1e-9 * np.maximum(np.abs(d), np.abs(y[todo])))
        out[todo[good]] = d[good]
        ok[todo[good]] = True
    out = np.where(np.isfinite(y), out, np.nan)
    if not np.all(ok):
        first = int(np.flatnonzero(~ok)[0])
        return not_implemented(
            f"scipy.special.lpmv: the derivative in x could not be computed to a relative error of 1e-8 at "
            f"{int(np.sum(~ok))} points (the first: m={m[first]:g}, v={v[first]:g}, x={x[first]:g}): DLMF 14.10.5 "
            "cancels and the extrapolated differences do not converge there")
    return out.reshape(shape)[()]


def _lpmv_fallback(m: Any, v: Any, x: Any) -> Any:
    """SciPy's lpmv is accurate enough to difference for moderate degrees and orders."""
    return (np.abs(v) <= 10) & (np.abs(m) <= 5)


scalar_rule(sc.lpmv, NoTangent(), parameter(0), lambda m, v, x, y, s: lpmv_x(m, v, x, y),
            shared=shared_partials(sc.lpmv, lambda m, v, x: _lpmv_jet(m, v, x), (1,), ("v",),
                                   fallback=_lpmv_fallback,
                                   why="near x = -1 a non-integer degree has a logarithmic singularity and the "
                                       "hypergeometric connection formulas are degenerate"))


# ---- the functions with diff_n: a generic rule -------------------------------------------------------------
class _Layout:
    """Where the broadcast argument axes sit in each output: ``lead`` axes before, ``trail`` after."""

    __slots__ = ("lead", "trail")

    def __init__(self, lead: int, trail: int = 0) -> None:
        self.lead, self.trail = lead, trail


def _reduce(g: Any, layout: _Layout) -> Any:
    g = np.asarray(g)
    axes = tuple(range(layout.lead)) + tuple(range(g.ndim - layout.trail, g.ndim))
    return np.sum(g, axis=axes) if axes else g


def _place(dx: Any, shape: tuple[int, ...], layout: _Layout, bshape: tuple[int, ...]) -> Any:
    dx = np.broadcast_to(np.asarray(dx), bshape)
    return dx.reshape((1,) * layout.lead + bshape + (1,) * layout.trail)


Derivatives = Callable[..., list[list[Any]]]


def _stacked_rule(f: Any, name: str, positions: tuple[int, ...], derivatives: Derivatives,
                  layouts: Callable[..., list[_Layout]], keywords: tuple[str, ...]) -> None:
    """Rules of ``f(*args, **kw)`` whose outputs stack derivative orders around the broadcast arguments.

    ``derivatives(args, kw, y)`` returns, per output, per differentiated position, the
    derivative of that output in that argument (an array of the output's shape) or a
    ``NotImplementedTangent``. ``layouts(args, kw)`` gives each output's axes.
    """

    def check(kw: dict[str, Any]) -> None:
        unknown = sorted(set(kw) - set(keywords))
        if unknown:
            raise TypeError(f"scipy.special.{name}: unexpected keyword arguments {unknown}")

    def rule_rrule(*args: Any, **kw: Any) -> Any:
        check(kw)
        y = f(*args, **kw)
        lay = layouts(args, kw)
        live = {p: differentiable(args[p]) for p in positions}
        computed: list[Any] = []

        def table() -> list[list[Any]]:
            if not computed:
                computed.append(derivatives(args, kw, y))
            return computed[0]

        def cotangent(p: int, parts: list[Any]) -> Any:
            total: Any = None
            column = positions.index(p)
            for k, part in enumerate(parts):
                if part is None or isinstance(part, AbstractZero):
                    continue
                d = table()[k][column]
                if isinstance(d, NotImplementedTangent):
                    return d
                g = _reduce(conj_if_complex(d) * part, lay[k])
                total = g if total is None else total + g
            if total is None:
                return ZeroTangent()
            return project_argument(args[p], total)

        def stacked_pullback(dy: Any) -> tuple[Any, ...]:
            if isinstance(y, tuple):
                parts = read_cotangents(dy, y, f)
            else:
                parts = read_cotangent(dy, y, f)
            out: list[Any] = [NoTangent()] * (len(args) + 1)
            if passes_through(parts):
                for p in positions:
                    if live[p]:
                        out[p + 1] = parts
                return tuple(out)
            plist = list(parts) if isinstance(y, tuple) else [parts]
            for p in positions:
                if live[p]:
                    out[p + 1] = Thunk(functools.partial(cotangent, p, plist))
            return tuple(out)

        stacked_pullback.__name__ = stacked_pullback.__qualname__ = f"{name}_pullback"
        return y, stacked_pullback

    def rule_frule(tangents: Any, *args: Any, **kw: Any) -> Any:
        check(kw)
        y = f(*args, **kw)
        outputs = list(y) if isinstance(y, tuple) else [y]
        lay = layouts(args, kw)
        bshape = np.broadcast_shapes(*(np.shape(a) for a in args))
        used = [p for p in positions if differentiable(args[p])
                and not isinstance(unthunk(tangents[p + 1]), AbstractZero) and tangents[p + 1] is not None]
        if not used:
            dys: list[Any] = [ZeroTangent() for _ in outputs]
        else:
            table = derivatives(args, kw, y)
            dys = []
            for k, yk in enumerate(outputs):
                total: Any = None
                for p in used:
                    d = table[k][positions.index(p)]
                    if isinstance(d, NotImplementedTangent):
                        total = d
                        break
                    term = d * _place(unthunk(tangents[p + 1]), yk.shape, lay[k], bshape)
                    total = term if total is None else total + term
                if not isinstance(total, NotImplementedTangent):
                    total = np.asarray(total, dtype=np.result_type(yk, total)).reshape(yk.shape)
                    if yk.dtype.kind == "f":
                        total = total.real.astype(yk.dtype)
                dys.append(total)
        if isinstance(y, tuple):
            return y, Tangent(tuple, *dys)
        return y, dys[0]

    rule_rrule.__name__ = rule_rrule.__qualname__ = f"{name}_rrule"
    rule_frule.__name__ = rule_frule.__qualname__ = f"{name}_frule"
    types = (NUMERIC,) * (max(positions) + 1)
    rrule.register(f, *types)(rule_rrule)
    frule.register(f, *types)(rule_frule)


def _diff_n(kw: dict[str, Any]) -> int:
    return int(kw.get("diff_n", 0))


def _third_from_equation(terms: list[Any], denominator: Any, second: Any, name: str, what: str) -> Any:
    """``sum(terms) / denominator`` with a cancellation check: not implemented where it costs too much.

    The rounding error, ``16 u sum |terms| / |denominator|``, must be below ``1e-9`` of the
    larger of the result and the second derivative (the scale next to it: a third
    derivative that vanishes, as for a quadratic, is then still accepted).
    """
    total = sum(terms)
    size = sum(np.abs(t) for t in terms)
    with np.errstate(divide="ignore", invalid="ignore"):
        value = total / denominator
        error = 16 * _U * size / np.abs(denominator)
        scale = np.maximum(np.abs(value), np.abs(second))
    bad = np.isfinite(value) & ~(error <= 1e-9 * scale) & (size > 0)
    if np.any(bad):
        return not_implemented(
            f"scipy.special.{name}: the derivative of the diff_n = 2 output in {what} needs a third derivative, "
            f"obtained from the differential equation, which cancels near the poles at {int(np.sum(bad))} points; "
            "call with diff_n <= 1 or away from the poles")
    return value


def _degrees_orders(n: int, m: int, ndim: int) -> tuple[np.ndarray, np.ndarray]:
    """Degree and order of each slot of an ``*_all`` output (orders ``0..m, -m..-1``), broadcastable."""
    deg = np.arange(n + 1, dtype=np.float64).reshape((n + 1, 1) + (1,) * ndim)
    orders = np.concatenate([np.arange(m + 1), -np.arange(m, 0, -1)]).astype(np.float64)
    return deg, orders.reshape((1, 2 * m + 1) + (1,) * ndim)


# legendre_p(n, z) and legendre_p_all(n, z): P^(j) with the order axis first
def _legendre_third(n: Any, z: Any) -> Any:
    n = np.asarray(n, dtype=np.float64)
    with np.errstate(invalid="ignore"):
        value = (n + 1) * (n + 2) * (n + 3) / 8 * sc.eval_jacobi(n - 3, 3.0, 3.0, z)
    return np.where(n >= 3, value, 0.0)


def _legendre_p_derivatives(args: tuple[Any, ...], kw: dict[str, Any], y: Any) -> list[list[Any]]:
    n, z = args
    d = _diff_n(kw)
    up = sc.legendre_p(n, z, diff_n=min(d + 1, 2))
    rows = [up[j] for j in range(1, up.shape[0])]
    if d == 2:
        rows.append(np.broadcast_to(_legendre_third(n, float64(z)), up.shape[1:]))
    return [[np.stack(rows)]]


def _legendre_p_all_derivatives(args: tuple[Any, ...], kw: dict[str, Any], y: Any) -> list[list[Any]]:
    n, z = args
    d = _diff_n(kw)
    up = sc.legendre_p_all(n, z, diff_n=min(d + 1, 2))
    rows = [up[j] for j in range(1, up.shape[0])]
    if d == 2:
        z64 = float64(z)
        deg = np.arange(int(n) + 1, dtype=np.float64).reshape((-1,) + (1,) * z64.ndim)
        rows.append(_legendre_third(deg, z64))
    return [[np.stack(rows)]]


_stacked_rule(sc.legendre_p, "legendre_p", (1,), _legendre_p_derivatives, lambda a, kw: [_Layout(1)], ("diff_n",))
_stacked_rule(sc.legendre_p_all, "legendre_p_all", (1,), _legendre_p_all_derivatives, lambda a, kw: [_Layout(2)],
              ("diff_n",))


# assoc_legendre_p(n, m, z) and assoc_legendre_p_all(n, m, z)
def _assoc_third(n: Any, m: Any, z: Any, w: Any, w1: Any, w2: Any, name: str) -> Any:
    lam = n * (n + 1)
    s = 1 - z * z
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = [4 * z * w2, -(lam - 2) * w1, m * m / s * w1, 2 * m * m * z * w / (s * s)]
    return _third_from_equation(terms, s, w2, name, "z")


def _assoc_legendre_p_derivatives(args: tuple[Any, ...], kw: dict[str, Any], y: Any) -> list[list[Any]]:
    n, m, z = args
    d = _diff_n(kw)
    options = {k: v for k, v in kw.items() if k != "diff_n"}
    up = sc.assoc_legendre_p(n, m, z, diff_n=min(d + 1, 2), **options)
    rows = [up[j] for j in range(1, up.shape[0])]
    if d == 2:
        third = _assoc_third(np.asarray(n, dtype=np.float64), np.asarray(m, dtype=np.float64), np.asarray(z),
                             up[0], up[1], up[2], "assoc_legendre_p")
        if isinstance(third, NotImplementedTangent):
            return [[third]]
        rows.append(np.broadcast_to(third, up.shape[1:]))
    return [[np.stack(rows)]]


def _assoc_legendre_p_all_derivatives(args: tuple[Any, ...], kw: dict[str, Any], y: Any) -> list[list[Any]]:
    n, m, z = args
    d = _diff_n(kw)
    options = {k: v for k, v in kw.items() if k != "diff_n"}
    up = sc.assoc_legendre_p_all(n, m, z, diff_n=min(d + 1, 2), **options)
    rows = [up[j] for j in range(1, up.shape[0])]
    if d == 2:
        zz = np.asarray(z)
        deg, order = _degrees_orders(int(n), int(m), zz.ndim)
        third = _assoc_third(deg, order, zz, up[0], up[1], up[2], "assoc_legendre_p_all")
        if isinstance(third, NotImplementedTangent):
            return [[third]]
        rows.append(third)
    return [[np.stack(rows)]]


_stacked_rule(sc.assoc_legendre_p, "assoc_legendre_p", (2,), _assoc_legendre_p_derivatives,
              lambda a, kw: [_Layout(1)], ("diff_n", "branch_cut", "norm"))
_stacked_rule(sc.assoc_legendre_p_all, "assoc_legendre_p_all", (2,), _assoc_legendre_p_all_derivatives,
              lambda a, kw: [_Layout(3)], ("diff_n", "branch_cut", "norm"))


# sph_legendre_p(n, m, theta) and sph_legendre_p_all(n, m, theta)
def _theta_third(n: Any, m: Any, theta: Any, w: Any, w1: Any, w2: Any, name: str) -> Any:
    lam = n * (n + 1)
    with np.errstate(divide="ignore", invalid="ignore"):
        cot = np.cos(theta) / np.sin(theta)
        csc2 = 1 / np.sin(theta) ** 2
        terms = [-cot * w2, csc2 * w1, -lam * w1, m * m * csc2 * w1, -2 * m * m * cot * csc2 * w]
    return _third_from_equation(terms, 1.0, w2, name, "theta")


def _sph_legendre_p_derivatives(args: tuple[Any, ...], kw: dict[str, Any], y: Any) -> list[list[Any]]:
    n, m, theta = args
    d = _diff_n(kw)
    up = sc.sph_legendre_p(n, m, theta, diff_n=min(d + 1, 2))
    rows = [up[j] for j in range(1, up.shape[0])]
    if d == 2:
        third = _theta_third(np.asarray(n, dtype=np.float64), np.asarray(m, dtype=np.float64),
                             float64(theta), up[0], up[1], up[2], "sph_legendre_p")
        if isinstance(third, NotImplementedTangent):
            return [[third]]
        rows.append(np.broadcast_to(third, up.shape[1:]))
    return [[np.stack(rows)]]


def _sph_legendre_p_all_derivatives(args: tuple[Any, ...], kw: dict[str, Any], y: Any) -> list[list[Any]]:
    n, m, theta = args
    d = _diff_n(kw)
    up = sc.sph_legendre_p_all(n, m, theta, diff_n=min(d + 1, 2))
    rows = [up[j] for j in range(1, up.shape[0])]
    if d == 2:
        th = float64(theta)
        deg, order = _degrees_orders(int(n), int(m), th.ndim)
        third = _theta_third(deg, order, th, up[0], up[1], up[2], "sph_legendre_p_all")
        if isinstance(third, NotImplementedTangent):
            return [[third]]
        rows.append(third)
    return [[np.stack(rows)]]


_stacked_rule(sc.sph_legendre_p, "sph_legendre_p", (2,), _sph_legendre_p_derivatives, lambda a, kw: [_Layout(1)],
              ("diff_n",))
_stacked_rule(sc.sph_legendre_p_all, "sph_legendre_p_all", (2,), _sph_legendre_p_all_derivatives,
              lambda a, kw: [_Layout(3)], ("diff_n",))


# sph_harm_y(n, m, theta, phi) and sph_harm_y_all: the value, the gradient (theta, phi), the Hessian
def _harmonic_derivatives(outputs: list[Any], up: Any, m: Any, theta: Any, n: Any, d: int, name: str,
                          ) -> list[list[Any]]:
    """Per output (value, gradient, Hessian), the derivatives in theta and phi."""
    value, grad = up[0], up[1]
    im = 1j * m
    table: list[list[Any]] = [[grad[..., 0], grad[..., 1]]]
    if d >= 1:
        hess = up[2]
        table.append([hess[..., :, 0], hess[..., :, 1]])
    if d >= 2:
        # third derivatives: only d^3/dtheta^3 is new (from the equation in theta)
        y_ttt = _theta_third(n, m, theta, value, grad[..., 0], hess[..., 0, 0], name)
        if isinstance(y_ttt, NotImplementedTangent):
            table.append([y_ttt, im[..., None, None] * hess])
        else:
            y_ttp = im * hess[..., 0, 0]
            y_tpp = im * hess[..., 0, 1]
            d_theta = np.stack([np.stack([y_ttt, y_ttp], axis=-1), np.stack([y_ttp, y_tpp], axis=-1)], axis=-2)
            table.append([d_theta, im[..., None, None] * hess])
    return table[:len(outputs)]


def _sph_harm_y_derivatives(args: tuple[Any, ...], kw: dict[str, Any], y: Any) -> list[list[Any]]:
    n, m, theta, phi = args
    d = _diff_n(kw)
    up = sc.sph_harm_y(n, m, theta, phi, diff_n=min(d + 1, 2))
    outputs = list(y) if isinstance(y, tuple) else [y]
    shape = np.shape(up[0])
    nn = np.broadcast_to(np.asarray(n, dtype=np.float64), shape)
    mm = np.broadcast_to(np.asarray(m, dtype=np.float64), shape)
    th = np.broadcast_to(float64(theta), shape)
    return _harmonic_derivatives(outputs, up, mm, th, nn, d, "sph_harm_y")


def _sph_harm_y_all_derivatives(args: tuple[Any, ...], kw: dict[str, Any], y: Any) -> list[list[Any]]:
    n, m, theta, phi = args
    d = _diff_n(kw)
    up = sc.sph_harm_y_all(n, m, theta, phi, diff_n=min(d + 1, 2))
    outputs = list(y) if isinstance(y, tuple) else [y]
    shape = np.shape(up[0])
    bnd = len(shape) - 2
    deg, order = _degrees_orders(int(n), int(m), bnd)
    th = np.broadcast_to(float64(theta), np.broadcast_shapes(np.shape(theta), np.shape(phi)))
    return _harmonic_derivatives(outputs, up, np.broadcast_to(order, shape), np.broadcast_to(th, shape),
                                 np.broadcast_to(deg, shape), d, "sph_harm_y_all")


def _harmonic_layouts(lead: int) -> Callable[..., list[_Layout]]:
    def layouts(args: tuple[Any, ...], kw: dict[str, Any]) -> list[_Layout]:
        return [_Layout(lead, 0), _Layout(lead, 1), _Layout(lead, 2)][:_diff_n(kw) + 1]
    return layouts


_stacked_rule(sc.sph_harm_y, "sph_harm_y", (2, 3), _sph_harm_y_derivatives, _harmonic_layouts(0), ("diff_n",))
_stacked_rule(sc.sph_harm_y_all, "sph_harm_y_all", (2, 3), _sph_harm_y_all_derivatives, _harmonic_layouts(2),
              ("diff_n",))


# ---- lqn and lqmn ------------------------------------------------------------------------------------------
def _q_second(lam: Any, m2: Any, z: Any, q: Any, q1: Any) -> Any:
    s = 1 - z * z
    with np.errstate(divide="ignore", invalid="ignore"):
        return (2 * z * q1 - (lam - m2 / s) * q) / s


def _lqn_derivatives(args: tuple[Any, ...], kw: dict[str, Any], y: Any) -> list[list[Any]]:
    z = args[1]
    q, q1 = y
    zz = np.asarray(z)
    deg = np.arange(q.shape[0], dtype=np.float64).reshape((-1,) + (1,) * zz.ndim)
    return [[q1], [_q_second(deg * (deg + 1), 0.0, zz, q, q1)]]


def _lqmn_derivatives(args: tuple[Any, ...], kw: dict[str, Any], y: Any) -> list[list[Any]]:
    z = args[2]
    q, q1 = y
    zz = np.asarray(z)
    order = np.arange(q.shape[0], dtype=np.float64).reshape((-1, 1) + (1,) * zz.ndim)
    deg = np.arange(q.shape[1], dtype=np.float64).reshape((1, -1) + (1,) * zz.ndim)
    return [[q1], [_q_second(deg * (deg + 1), order * order, zz, q, q1)]]


_stacked_rule(sc.lqn, "lqn", (1,), _lqn_derivatives, lambda a, kw: [_Layout(1), _Layout(1)], ())
_stacked_rule(sc.lqmn, "lqmn", (2,), _lqmn_derivatives, lambda a, kw: [_Layout(2), _Layout(2)], ())


# ---- samples ------------------------------------------------------------------------------------------------
@sample_inputs(sc.lpmv)
def _lpmv_samples(rng: np.random.Generator) -> Any:
    x = np.array([-0.7, 0.1, 0.5, 0.95])
    yield Sample(np.array([0, 1, 2, 3]), np.array([0.5, 2.0, 3.7, 4.25]), x, label="orders 0..3, real degrees")
    yield Sample(np.array([-1, -2]), np.array([1.5, 3.0]), np.array([0.3, -0.6]), label="negative orders")
    yield Sample(2, np.array([3.5, 5.0], np.float32), np.array([0.3, 0.8], np.float32), label="float32")


@sample_inputs(sc.legendre_p, sc.legendre_p_all)
def _legendre_p_samples(rng: np.random.Generator) -> Any:
    z = np.array([-0.9, 0.2, 0.6, 0.99])
    for d in (0, 1, 2):
        yield Sample(4, z, fkwargs={"diff_n": d}, label=f"diff_n = {d}")
    yield Sample(3, np.float32(0.4), label="float32")


@sample_inputs(sc.assoc_legendre_p, sc.assoc_legendre_p_all)
def _assoc_samples(rng: np.random.Generator) -> Any:
    z = np.array([-0.8, 0.2, 0.6])
    for d in (0, 1, 2):
        yield Sample(4, 2, z, fkwargs={"diff_n": d}, label=f"diff_n = {d}")
    yield Sample(3, 1, z, fkwargs={"norm": True}, label="normalised")
    yield Sample(3, 1, np.array([1.5, 2.5]), fkwargs={"branch_cut": 3, "diff_n": 1}, label="type 3, z > 1")
    yield Sample(3, 1, np.array([0.3 + 0.2j, -0.5 + 0.1j]), label="complex z")


@sample_inputs(sc.sph_legendre_p, sc.sph_legendre_p_all)
def _sph_legendre_samples(rng: np.random.Generator) -> Any:
    theta = np.array([0.4, 1.2, 2.6])
    for d in (0, 1, 2):
        yield Sample(4, 2, theta, fkwargs={"diff_n": d}, label=f"diff_n = {d}")
    yield Sample(3, 1, np.float32(0.7), label="float32")


@sample_inputs(sc.sph_harm_y, sc.sph_harm_y_all)
def _sph_harm_samples(rng: np.random.Generator) -> Any:
    theta = np.array([0.4, 1.2, 2.6])
    phi = np.array([0.3, -1.0, 2.5])
    for d in (0, 1, 2):
        yield Sample(3, 2, theta, phi, fkwargs={"diff_n": d}, label=f"diff_n = {d}")
    yield Sample(2, 1, np.array([[0.5], [1.0]]), np.array([0.2, 0.9]), label="broadcast angles")


@sample_inputs(sc.lqn)
def _lqn_samples(rng: np.random.Generator) -> Any:
    yield Sample(3, 0.4, label="inside (-1, 1)")
    yield Sample(4, np.array([0.2, -0.6]), label="array z")
    yield Sample(3, 1.7, label="z > 1")
    yield Sample(3, 0.4 + 0.3j, label="complex z")


@sample_inputs(sc.lqmn)
def _lqmn_samples(rng: np.random.Generator) -> Any:
    yield Sample(2, 3, 0.4, label="inside (-1, 1)")
    yield Sample(1, 2, 1.7, label="z > 1")
    yield Sample(2, 2, 0.4 + 0.3j, label="complex z")
