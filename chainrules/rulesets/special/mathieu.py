"""Rules of the Mathieu functions: characteristic values, Fourier coefficients, angular and radial functions.

``mathieu_a``, ``mathieu_b`` (in ``q``), ``mathieu_even_coef``, ``mathieu_odd_coef`` (in
``q``), ``mathieu_cem``, ``mathieu_sem`` (in ``q`` and ``x``, given in degrees),
``mathieu_modcem1``, ``mathieu_modcem2``, ``mathieu_modsem1``, ``mathieu_modsem2`` (in ``q``
and ``x``). The order ``m`` is an index (only integers are defined): ``NoTangent()``.

The maths
---------
**The Fourier coefficients** are the eigenvectors of symmetric tridiagonal matrices in ``q``
(DLMF 28.4.5-28.4.8; ``ce_2n``: ``diag(4k^2)``, off-diagonal ``q`` with ``sqrt(2) q`` in the
first place for the basis ``(sqrt(2) A_0, A_2, ...)``; ``ce_2n+1``: ``diag((2k+1)^2)`` plus
``q`` in the first place; ``se_2n+1``: minus ``q`` there; ``se_2n+2``: ``diag((2k+2)^2)``).
SciPy's coefficients are their unit eigenvectors (``2 A_0^2 + sum A_2k^2 = 1``, checked),
and its characteristic value the eigenvalue. With ``S' = dS/dq``:

* ``da/dq = v^T S' v`` (Hellmann-Feynman);
* ``dv/dq = -(S - a I + v v^T)^-1 (S' - a' I) v``, the derivative of the unit eigenvector
  (the right-hand side is orthogonal to ``v``, so the bordered matrix is invertible and the
  solution keeps ``|v| = 1``).

``ce_m(x, q) = sum A_k cos(k x)``, ``se_m(x, q) = sum B_k sin(k x)`` then give the
``q``-derivatives of ``mathieu_cem``/``mathieu_sem`` and of their ``x``-derivatives (SciPy's
second output, per radian). For ``q < 0`` SciPy uses DLMF 28.2.26 and 28.2.34-37
(``ce_2n(x, -q) = (-1)^n ce_2n(pi/2 - x, q)``, ``ce_2n+1(x, -q) = (-1)^n se_2n+1(pi/2 - x,
q)``, ...), and so do the rules, by the chain rule.

**In x**: the first output's derivative is the second (times ``pi/180`` for the angular
functions, whose ``x`` is in degrees); the second's from Mathieu's equation
``w'' = -(a - 2q cos 2x) w`` (DLMF 28.2.1) or the modified one ``w'' = (a - 2q cosh 2x) w``
(DLMF 28.20.1), with ``a = a_m(q)`` for the even and ``b_m(q)`` for the odd functions.

**The radial functions in q**: SciPy computes them from Bessel-product series with its own
normalisation, so their ``q``-derivatives are Richardson-extrapolated differences of SciPy's
function (smooth in ``q``: estimates ``1e-13``..``1e-10``), kept where the estimate is below
``1e-9`` of the derivative, else ``not_implemented``; defined for ``q > 0``.

Examples
--------
>>> import numpy as np
>>> import scipy.special as sc
>>> import chainrules
>>> from chainrules import frule
>>> round(float(frule((None, None, 1.0), sc.mathieu_a, 1, 0.0)[1]), 12)   # a_1(q) = 1 + q - q^2/8 + ...
1.0
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import scipy.special as sc

from chainrules.rulesets.special._parameter_rules import float64, parameter, shared_partials
from chainrules_core import (
    NoTangent,
    Sample,
    ZeroTangent,
    frule,
    read_cotangent,
    rrule,
    sample_inputs,
    scalar_rule,
    unthunk,
)
from chainrules_core.scalar_rules import NUMERIC, fit_tangent, project_argument

_DEGREE = np.pi / 180


# ---- the eigenproblems -----------------------------------------------------------------------------------
def _kind(m: int, even: bool) -> str:
    if even:
        return "ce_even" if m % 2 == 0 else "ce_odd"
    return "se_odd" if m % 2 == 1 else "se_even"


def _wavenumbers(kind: str, size: int) -> np.ndarray:
    k = np.arange(size)
    return {"ce_even": 2 * k, "ce_odd": 2 * k + 1, "se_odd": 2 * k + 1, "se_even": 2 * k + 2}[kind]


def _matrices(kind: str, size: int, q: float) -> tuple[np.ndarray, np.ndarray]:
    """The symmetric tridiagonal matrix ``S(q)`` of a class and ``dS/dq``."""
    diag = _wavenumbers(kind, size).astype(np.float64) ** 2
    off = np.ones(size - 1)
    d_diag = np.zeros(size)
    if kind == "ce_even":
        off[0] = np.sqrt(2.0)
    elif kind == "ce_odd":
        d_diag[0] = 1.0
    elif kind == "se_odd":
        d_diag[0] = -1.0
    dS = np.diag(d_diag) + np.diag(off, 1) + np.diag(off, -1)
    return np.diag(diag) + q * dS, dS


def _coefficients(m: int, q: float, even: bool) -> tuple[np.ndarray, float, np.ndarray, float]:
    """SciPy's coefficients and characteristic value at ``q >= 0``, and their derivatives in ``q``."""
    coef = (sc.mathieu_even_coef if even else sc.mathieu_odd_coef)(m, q)
    value = float((sc.mathieu_a if even else sc.mathieu_b)(m, q))
    kind = _kind(m, even)
    v = np.array(coef, dtype=np.float64)
    if kind == "ce_even":
        v[0] *= np.sqrt(2.0)
    S, dS = _matrices(kind, v.size, q)
    slope = float(v @ dS @ v)
    rhs = -(dS @ v - slope * v)
    dv = np.linalg.solve(S - value * np.eye(v.size) + np.outer(v, v), rhs)
    if kind == "ce_even":
        dv[0] /= np.sqrt(2.0)
    return coef, value, dv, slope


def _characteristic_slope(m: float, q: float, even: bool) -> float:
    """``da_m/dq`` (``even``) or ``db_m/dq``, for any real ``q`` (DLMF 28.2.26 for ``q < 0``)."""
    mi = int(m)
    if q >= 0:
        return _coefficients(mi, q, even)[3]
    # a_2n and b_2n+2 are even in q; a_2n+1(q) = b_2n+1(-q)
    partner = even if mi % 2 == 0 else not even
    return -_coefficients(mi, -q, partner)[3]


def _per_pair(m: Any, q: Any, fn: Callable[[float, float], float]) -> np.ndarray:
    """``fn`` at each ``(m, q)`` pair of broadcast arrays (computed once per distinct pair)."""
    m, q = np.broadcast_arrays(float64(m), float64(q))
    out = np.full(m.shape, np.nan)
    cache: dict[tuple[float, float], float] = {}
    for index in np.ndindex(m.shape):
        key = (float(m[index]), float(q[index]))
        if not (np.isfinite(key[1]) and key[0] >= 0 and key[0] == round(key[0])):
            continue
        if key not in cache:
            cache[key] = fn(*key)
        out[index] = cache[key]
    return out[()]


def mathieu_a_q(m: Any, q: Any) -> Any:
    """``da_m/dq = v^T S'(q) v`` (Hellmann-Feynman)."""
    return _per_pair(m, q, lambda mi, qi: _characteristic_slope(mi, qi, True))


def mathieu_b_q(m: Any, q: Any) -> Any:
    """``db_m/dq = v^T S'(q) v`` (Hellmann-Feynman); ``b_0`` does not exist (NaN, as SciPy's)."""
    return _per_pair(m, q, lambda mi, qi: _characteristic_slope(mi, qi, False) if mi >= 1 else np.nan)


scalar_rule(sc.mathieu_a, NoTangent(), mathieu_a_q)
scalar_rule(sc.mathieu_b, NoTangent(), mathieu_b_q)


# ---- the coefficients ------------------------------------------------------------------------------------
def _coefficient_rules(f: Any, even: bool) -> None:
    name = f.__name__

    def coef_rrule(m: Any, q: Any) -> Any:
        y = f(m, q)
        live = isinstance(q, float | np.floating | np.ndarray) and np.asarray(q).dtype.kind == "f"

        def coef_pullback(dy: Any) -> tuple[Any, ...]:
            dy = read_cotangent(dy, y, f)
            if not live:
                return NoTangent(), NoTangent(), NoTangent()
            if isinstance(dy, ZeroTangent) or not isinstance(dy, np.ndarray | float | np.floating):
                return NoTangent(), NoTangent(), dy
            dcoef = _coefficients(int(m), float(q), even)[2]
            return NoTangent(), NoTangent(), project_argument(q, np.sum(dcoef * dy))

        coef_pullback.__name__ = f"{name}_pullback"
        return y, coef_pullback

    def coef_frule(tangents: Any, m: Any, q: Any) -> Any:
        y = f(m, q)
        dq = unthunk(tangents[2])
        if dq is None or isinstance(dq, ZeroTangent | NoTangent) or np.asarray(q).dtype.kind != "f":
            return y, ZeroTangent()
        dcoef = _coefficients(int(m), float(q), even)[2]
        return y, fit_tangent(dcoef * dq, y)

    coef_rrule.__name__ = f"{name}_rrule"
    coef_frule.__name__ = f"{name}_frule"
    rrule.register(f, NUMERIC, NUMERIC)(coef_rrule)
    frule.register(f, NUMERIC, NUMERIC)(coef_frule)


_coefficient_rules(sc.mathieu_even_coef, True)
_coefficient_rules(sc.mathieu_odd_coef, False)


# ---- ce and se -------------------------------------------------------------------------------------------
def _angular_q(m: float, q: float, x_degrees: np.ndarray, even: bool) -> tuple[np.ndarray, np.ndarray]:
    """``d/dq`` of ``(f, df/dx)`` for ``f = ce_m`` (``even``) or ``se_m`` at the points ``x_degrees``."""
    mi = int(m)
    if q < 0:  # DLMF 28.2.34-37: f(x, -q) = (-1)^n g(pi/2 - x, q), g the partner class
        n = mi // 2 if (mi % 2 == 0) == even else (mi - 1) // 2
        if not even and mi % 2 == 0:
            n = (mi - 2) // 2
        partner = even if mi % 2 == 0 else not even
        dv, dd = _angular_q(m, -q, 90.0 - x_degrees, partner)
        sign = (-1.0) ** n
        return -sign * dv, sign * dd
    coef, _, dcoef, _ = _coefficients(mi, q, even)
    k = _wavenumbers(_kind(mi, even), coef.size)
    phase = np.multiply.outer(x_degrees * _DEGREE, k)
    if even:
        return np.cos(phase) @ dcoef, -(np.sin(phase) @ (k * dcoef))
    return np.sin(phase) @ dcoef, np.cos(phase) @ (k * dcoef)


class _AngularQ:
    """``d/dq`` of both outputs of ``ce``/``se`` at one call: one eigenproblem per distinct ``(m, q)``."""

    __slots__ = ("even", "key", "value")

    def __init__(self, even: bool) -> None:
        self.even = even
        self.key: Any = None
        self.value: Any = None

    def __call__(self, m: Any, q: Any, x: Any, ys: Any) -> tuple[Any, Any]:
        if self.key is ys:
            return self.value
        m, q, x = (np.ravel(t) for t in np.broadcast_arrays(float64(m), float64(q), float64(x)))
        shape = np.broadcast_shapes(*(np.shape(t) for t in ys))
        value, slope = np.full(m.shape, np.nan), np.full(m.shape, np.nan)
        valid = np.isfinite(q) & np.isfinite(x) & (m >= 0) & (m == np.round(m))
        pairs = np.stack([m, q], axis=1)
        for mi, qi in {(float(a), float(b)) for a, b in pairs[valid]}:
            index = np.flatnonzero(valid & (m == mi) & (q == qi))
            value[index], slope[index] = _angular_q(mi, qi, x[index], self.even)
        self.key, self.value = ys, (value.reshape(shape)[()], slope.reshape(shape)[()])
        return self.value


def _angular_rule(f: Any, even: bool) -> None:
    characteristic = sc.mathieu_a if even else sc.mathieu_b
    q_partials = _AngularQ(even)

    def value_q(m: Any, q: Any, x: Any, ys: Any) -> Any:
        return q_partials(m, q, x, ys)[0]

    def slope_q(m: Any, q: Any, x: Any, ys: Any) -> Any:
        return q_partials(m, q, x, ys)[1]

    def value_x(m: Any, q: Any, x: Any, ys: Any) -> Any:
        return _DEGREE * float64(ys[1])

    def slope_x(m: Any, q: Any, x: Any, ys: Any) -> Any:
        # w'' = -(a - 2 q cos 2x) w, per radian; x in degrees
        a = characteristic(m, q)
        xr = float64(x) * _DEGREE
        return _DEGREE * (2 * float64(q) * np.cos(2 * xr) - a) * float64(ys[0])

    scalar_rule(f, (NoTangent(), value_q, value_x), (NoTangent(), slope_q, slope_x))


_angular_rule(sc.mathieu_cem, True)
_angular_rule(sc.mathieu_sem, False)


# ---- the radial (modified) functions ----------------------------------------------------------------------
_RADIAL_WHY = "the extrapolated differences of SciPy's function in q do not converge there (q must be > 0)"


def _radial_steps(m: Any, q: Any, x: Any) -> list[Any]:
    return [0.25 * np.minimum(np.abs(q), np.maximum(1.0, np.abs(q)) * 0.4)]


def _radial_rule(f: Any, even: bool) -> None:
    characteristic = sc.mathieu_a if even else sc.mathieu_b

    def first_output(m: Any, q: Any, x: Any) -> Any:
        return f(m, q, x)[0]

    def second_output(m: Any, q: Any, x: Any) -> Any:
        return f(m, q, x)[1]

    first_output.__name__ = f"{f.__name__}_value"
    second_output.__name__ = f"{f.__name__}_derivative"
    shared_value = shared_partials(first_output, None, (1,), ("q",), steps=_radial_steps, why=_RADIAL_WHY)
    shared_slope = shared_partials(second_output, None, (1,), ("q",), steps=_radial_steps, why=_RADIAL_WHY)

    def value_q(m: Any, q: Any, x: Any, ys: Any) -> Any:
        return shared_value(m, q, x, ys[0]).partial(0)

    def slope_q(m: Any, q: Any, x: Any, ys: Any) -> Any:
        return shared_slope(m, q, x, ys[1]).partial(0)

    def value_x(m: Any, q: Any, x: Any, ys: Any) -> Any:
        return float64(ys[1])

    def slope_x(m: Any, q: Any, x: Any, ys: Any) -> Any:
        return (characteristic(m, q) - 2 * float64(q) * np.cosh(2 * float64(x))) * float64(ys[0])

    scalar_rule(f, (NoTangent(), value_q, value_x), (NoTangent(), slope_q, slope_x))


_radial_rule(sc.mathieu_modcem1, True)
_radial_rule(sc.mathieu_modcem2, True)
_radial_rule(sc.mathieu_modsem1, False)
_radial_rule(sc.mathieu_modsem2, False)
del parameter


# ---- samples ---------------------------------------------------------------------------------------------
@sample_inputs(sc.mathieu_a, sc.mathieu_b)
def _characteristic_samples(rng: np.random.Generator) -> Any:
    yield Sample(np.array([1, 2, 3, 4, 5]), np.array([0.5, 1.5, 0.0, -2.0, 12.0]), label="q = 0, q < 0, large q")
    yield Sample(5, np.array([3.0, 30.0], np.float32), label="float32")


@sample_inputs(sc.mathieu_a)
def _mathieu_a_samples(rng: np.random.Generator) -> Any:
    yield Sample(0, np.array([0.5, -1.5]), label="m = 0")


@sample_inputs(sc.mathieu_even_coef, sc.mathieu_odd_coef)
def _coefficient_samples(rng: np.random.Generator) -> Any:
    yield Sample(2, 1.5, label="m = 2")
    yield Sample(3, 8.0, label="m = 3")
    yield Sample(1, 0.25, label="m = 1, small q")


@sample_inputs(sc.mathieu_cem, sc.mathieu_sem)
def _angular_samples(rng: np.random.Generator) -> Any:
    yield Sample(np.array([1, 2, 3, 4]), np.array([1.5, 0.5, 6.0, -2.5]), np.array([30.0, 75.0, 130.0, 10.0]),
                 label="orders 1..4, q < 0")
    # (no float32 sample: SciPy's float32 loops of the Mathieu functions return NaN)


@sample_inputs(sc.mathieu_modcem1, sc.mathieu_modcem2, sc.mathieu_modsem1, sc.mathieu_modsem2)
def _radial_samples(rng: np.random.Generator) -> Any:
    yield Sample(np.array([1, 2, 3]), np.array([1.5, 0.5, 6.0]), np.array([0.7, 0.3, 1.2]), label="orders 1..3")
    yield Sample(2, 2.5, 0.6)
