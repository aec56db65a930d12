"""Rules of Carlson's symmetric elliptic integrals: ``elliprc``, ``elliprd``, ``elliprf``, ``elliprg``, ``elliprj``.

Every argument is differentiated, real or complex (holomorphic in each argument).

The maths
---------
A derivative of an R-function is another R-function with one more half-power on the
differentiated variable (Carlson, *Special Functions of Applied Mathematics*, 1977, ch. 5):
with ``I[b](x) = int_0^inf prod_j (t + x_j)^(-b_j) dt``,
``R_F = I[1/2, 1/2, 1/2] / 2``, ``R_D = 3/2 I[1/2, 1/2, 3/2]``, ``R_J = 3/2 I[1/2, 1/2, 1/2, 1]``.

* ``R_F``: ``dR_F(x, y, z)/dz = -R_D(x, y, z) / 6`` (DLMF 19.18.1), and by symmetry for
  ``x`` and ``y``. Exact, with SciPy's ``elliprd``.
* ``R_C(x, y) = R_F(x, y, y)``: ``dR_C/dx = -R_D(y, y, x) / 6``, ``dR_C/dy = -R_D(x, y, y) / 3``;
  for ``y < 0`` (SciPy returns the Cauchy principal value, DLMF 19.2.20) the elementary
  forms ``dR_C/dx = (R_C - x^-1/2) / (2 (y - x))`` and, by Euler's relation for a function
  homogeneous of degree ``-1/2``, ``dR_C/dy = (-R_C/2 - x dR_C/dx) / y``.
* ``R_G``: ``dR_G(x, y, z)/dz = R_F(x, y, z) / 4 - z R_D(x, y, z) / 12`` (from
  ``2 R_G = z R_F - (x - z)(y - z) R_D / 3 + sqrt(xy/z)``, DLMF 19.21.10), by symmetry for
  ``x``, ``y``; at a zero argument the second term's limit is ``0``.
* ``R_D`` and ``R_J``: partial fractions in ``1/((t + x)(t + p))`` give
  ``dR_J/dx = (R_J - R_D(y, z, x)) / (2 (p - x))`` (and ``y``, ``z`` by symmetry),
  ``dR_D(x, y, z)/dx = (R_D(x, y, z) - R_D(y, z, x)) / (2 (z - x))`` (and ``y``); the last
  argument from Euler's relation (``R_D``, ``R_J`` are homogeneous of degree ``-3/2``):
  ``p dR_J/dp = -3/2 R_J - x dR_J/dx - y dR_J/dy - z dR_J/dz``. These cancel when two
  arguments nearly coincide, which the error bound (SciPy's values to a few ulps, carried
  through the formula) detects; there the derivatives are the integrals themselves,
  ``dR_D/dx = -3/4 I[3/2, 1/2, 3/2]``, ``dR_D/dz = -9/4 I[1/2, 1/2, 5/2]``,
  ``dR_J/dx = -3/4 I[3/2, 1/2, 1/2, 1]``, ``dR_J/dp = -3/2 I[1/2, 1/2, 1/2, 2]``
  (``R_G``: ``dR_G/dz = 1/8 int t (t+x)^-1/2 (t+y)^-1/2 (t+z)^-3/2 dt``), computed by
  exp-sinh quadrature with an error estimate
  (:mod:`~chainrules.rulesets.special._quadrature`). The principal value of ``R_J`` at
  ``p < 0`` has a pole on the path of the integral: there only the closed forms are used.

A derivative whose error bound exceeds ``1e-9`` of its size after both is
``not_implemented`` with the reason; at a zero argument where the derivative is infinite
(``R_F(0, y, z)`` in ``x``), it is ``inf``, the limit.

Examples
--------
>>> import numpy as np
>>> import scipy.special as sc
>>> import chainrules
>>> from chainrules import frule
>>> float(frule((None, 1.0, 0.0, 0.0), sc.elliprf, 1.0, 1.0, 1.0)[1])   # -R_D(1, 1, 1)/6
-0.16666666666666666
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import scipy.special as sc

from chainrules.rulesets.special._hypergeometric_jets import TOLERANCE
from chainrules.rulesets.special._jet import FUNCTION_ULPS, Jet, U
from chainrules.rulesets.special._quadrature import exp_sinh
from chainrules_core import Sample, not_implemented, sample_inputs, scalar_rule

_REL = FUNCTION_ULPS * U


def _flat(*args: Any) -> tuple[tuple[int, ...], list[np.ndarray]]:
    arrays = np.broadcast_arrays(*(np.asarray(a) for a in args))
    dtype = np.result_type(*arrays, np.float64)
    return arrays[0].shape, [np.asarray(a, dtype=dtype).ravel() for a in arrays]


def _value(f: Callable[..., Any], *args: np.ndarray) -> Jet:
    """SciPy's value as a jet without parameters, with its relative error bound."""
    v = np.asarray(f(*args))
    return Jet.constant(v, 0, error=_REL * np.abs(v))


def _exact(x: np.ndarray) -> Jet:
    return Jet.constant(x, 0)


def _integral(args: Sequence[np.ndarray], powers: Sequence[float], t_power: float = 0.0) -> tuple[Any, Any]:
    """``int_0^inf t^t_power prod_j (t + args_j)^-powers_j dt`` and its error estimate."""
    mags = np.stack([np.abs(a) for a in args])
    with np.errstate(divide="ignore"):
        logs = np.where(mags > 0, np.log(mags), np.nan)
    scale = np.exp(np.nanmean(logs, axis=0))
    scale = np.where(np.isfinite(scale) & (scale > 0), scale, 1.0)

    def integrand(t: np.ndarray) -> list[np.ndarray]:
        total = np.zeros(t.shape, dtype=np.result_type(*args, np.float64))
        for a, b in zip(args, powers):
            total = total - b * np.log(t + a[:, None])
        if t_power:
            total = total + t_power * np.log(t)
        return [np.exp(total)]

    [(value, error)] = exp_sinh(integrand, scale)
    return value, error


def _choose(name: str, argument: str, closed: Jet, quadrature: Callable[[np.ndarray], tuple[Any, Any]] | None,
            allowed: Any, args: Sequence[np.ndarray], shape: tuple[int, ...]) -> Any:
    """The closed form where its bound holds, else the quadrature where allowed, else not implemented."""
    value = closed.v.copy()
    # an infinite derivative is the limit only at a zero argument (a divergent integral);
    # elsewhere it comes from dividing by a difference of coinciding arguments
    at_zero = np.any([a == 0 for a in args], axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        ok = np.isfinite(value) & (closed.ev <= TOLERANCE * np.abs(value)) | (np.isinf(value) & at_zero)
    todo = np.flatnonzero(~ok & np.asarray(allowed, dtype=bool) & np.all([np.isfinite(a) for a in args], axis=0))
    if todo.size and quadrature is not None:
        q, err = quadrature(todo)
        good = np.isfinite(q) & (err <= TOLERANCE * np.abs(q))
        value = value.astype(np.result_type(value, q))
        value[todo[good]] = q[good]
        ok[todo[good]] = True
    # where an argument is not finite, the derivative is not a number (no claim is made)
    ok |= ~np.all([np.isfinite(a) for a in args], axis=0)
    value = np.where(np.all([np.isfinite(a) for a in args], axis=0), value, np.nan)
    if not np.all(ok):
        first = int(np.flatnonzero(~ok)[0])
        point = ", ".join(f"{a[first]:.6g}" for a in args)
        return not_implemented(
            f"scipy.special.{name}: the derivative in {argument} could not be computed to a relative error of 1e-8 "
            f"at {int(np.sum(~ok))} of {ok.size} points (the first: ({point})): the closed form cancels and the "
            "integral cannot be used there (a principal value or a nearly singular integrand)")
    return value.reshape(shape)[()]


# ---- R_F, R_C, R_G ---------------------------------------------------------------------------------------
def elliprf_x(x: Any, y: Any, z: Any) -> Any:
    """``dR_F/dx = -R_D(y, z, x) / 6``."""
    return -sc.elliprd(*_as_double(y, z, x)) / 6


def elliprf_y(x: Any, y: Any, z: Any) -> Any:
    """``dR_F/dy = -R_D(z, x, y) / 6``."""
    return -sc.elliprd(*_as_double(z, x, y)) / 6


def elliprf_z(x: Any, y: Any, z: Any) -> Any:
    """``dR_F/dz = -R_D(x, y, z) / 6``."""
    return -sc.elliprd(*_as_double(x, y, z)) / 6


def _as_double(*args: Any) -> list[np.ndarray]:
    return [np.asarray(a, dtype=np.result_type(a, np.float64)) for a in args]


def _principal_value(y: np.ndarray) -> np.ndarray:
    return (np.imag(y) == 0) & (np.real(y) < 0)


def elliprc_x(x: Any, y: Any) -> Any:
    """``dR_C/dx = -R_D(y, y, x) / 6``; ``(R_C - x^-1/2) / (2 (y - x))`` for the principal value ``y < 0``."""
    shape, (x, y) = _flat(x, y)
    pv = _principal_value(y)
    with np.errstate(all="ignore"):
        out = -sc.elliprd(y, y, x) / 6
        if np.any(pv):
            elementary = (sc.elliprc(x, y) - 1 / np.sqrt(x)) / (2 * (y - x))
            out = np.where(pv, elementary, out)
    return out.reshape(shape)[()]


def elliprc_y(x: Any, y: Any) -> Any:
    """``dR_C/dy = -R_D(x, y, y) / 3``; ``(-R_C/2 - x dR_C/dx) / y`` for the principal value ``y < 0``."""
    shape, (x, y) = _flat(x, y)
    pv = _principal_value(y)
    with np.errstate(all="ignore"):
        out = -sc.elliprd(x, y, y) / 3
        if np.any(pv):
            rc = sc.elliprc(x, y)
            dx = (rc - 1 / np.sqrt(x)) / (2 * (y - x))
            out = np.where(pv, (-rc / 2 - np.where(x == 0, 0.0, x * dx)) / y, out)
    return out.reshape(shape)[()]


def _elliprg_partial(i: int) -> Callable[..., Any]:
    def partial(x: Any, y: Any, z: Any) -> Any:
        shape, args = _flat(x, y, z)
        # move the differentiated argument last: dR_G/dz = R_F / 4 - z R_D(x, y, z) / 12
        a, b, c = [args[j] for j in range(3) if j != i] + [args[i]]
        with np.errstate(all="ignore"):
            rf, rd = _value(sc.elliprf, a, b, c), _value(sc.elliprd, a, b, c)
            second = rd * _exact(c) * (1.0 / 12)
            second = Jet(np.where(c == 0, 0.0, second.v), second.d, np.where(c == 0, 0.0, second.ev), second.ed)
            closed = rf * 0.25 - second

        def quadrature(index: np.ndarray) -> tuple[Any, Any]:
            value, error = _integral([a[index], b[index], c[index]], [0.5, 0.5, 1.5], t_power=1.0)
            return value / 8, error / 8

        allowed = ~(_principal_value(a) | _principal_value(b) | _principal_value(c))
        return _choose("elliprg", "xyz"[i], closed, quadrature, allowed, args, shape)

    partial.__name__ = f"elliprg_{'xyz'[i]}"
    partial.__doc__ = f"``dR_G/d{'xyz'[i]}``: ``R_F/4 - {'xyz'[i]} R_D/12`` or the integral."
    return partial


scalar_rule(sc.elliprf, elliprf_x, elliprf_y, elliprf_z)
scalar_rule(sc.elliprc, elliprc_x, elliprc_y)
scalar_rule(sc.elliprg, _elliprg_partial(0), _elliprg_partial(1), _elliprg_partial(2))


# ---- R_D and R_J -------------------------------------------------------------------------------------------
class _Partials:
    """All partials of ``R_D`` or ``R_J`` at one call, computed together (the last uses the others)."""

    def __init__(self, name: str, args: tuple[Any, ...]) -> None:
        self.name = name
        self.shape, self.args = _flat(*args)
        self.done: dict[int, Any] = {}

    def get(self, i: int) -> Any:
        if not self.done:
            self._compute()
        return self.done[i]

    def _compute(self) -> None:
        args = self.args
        n = len(args)  # 3 for R_D (x, y, z), 4 for R_J (x, y, z, p)
        last = args[-1]
        with np.errstate(all="ignore"):
            if n == 3:
                f = _value(sc.elliprd, *args)
                others = [_value(sc.elliprd, args[1], args[2], args[0]), _value(sc.elliprd, args[2], args[0], args[1])]
            else:
                f = _value(sc.elliprj, *args)
                others = [_value(sc.elliprd, args[1], args[2], args[0]), _value(sc.elliprd, args[2], args[0], args[1]),
                          _value(sc.elliprd, args[0], args[1], args[2])]
            closed = [(f - others[i]) / (_exact(last - args[i]) * 2.0) for i in range(n - 1)]
            euler = f * (-1.5)
            for i in range(n - 1):
                euler = euler - _exact(args[i]) * closed[i]
            closed.append(euler / _exact(last))
        pv = np.zeros(args[0].shape, dtype=bool)
        for a in args:
            pv |= _principal_value(a)
        powers_d = [[1.5, 0.5, 1.5], [0.5, 1.5, 1.5], [0.5, 0.5, 2.5]]
        factors_d = [-0.75, -0.75, -2.25]
        powers_j = [[1.5, 0.5, 0.5, 1.0], [0.5, 1.5, 0.5, 1.0], [0.5, 0.5, 1.5, 1.0], [0.5, 0.5, 0.5, 2.0]]
        factors_j = [-0.75, -0.75, -0.75, -1.5]
        powers, factors = (powers_d, factors_d) if n == 3 else (powers_j, factors_j)
        for i in range(n):

            def quadrature(index: np.ndarray, i: int = i) -> tuple[Any, Any]:
                value, error = _integral([a[index] for a in args], powers[i])
                return factors[i] * value, abs(factors[i]) * error

            self.done[i] = _choose(self.name, "xyzp"[i], closed[i], quadrature, ~pv, args, self.shape)


def _shared(name: str) -> Callable[..., _Partials]:
    def shared(*args_and_y: Any) -> _Partials:
        return _Partials(name, args_and_y[:-1])

    shared.__name__ = f"{name}_partials"
    return shared


def _from_shared(i: int) -> Callable[..., Any]:
    def partial(*args: Any) -> Any:
        return args[-1].get(i)

    partial.__name__ = f"argument_{i}_partial"
    return partial


scalar_rule(sc.elliprd, *(_from_shared(i) for i in range(3)), shared=_shared("elliprd"))
scalar_rule(sc.elliprj, *(_from_shared(i) for i in range(4)), shared=_shared("elliprj"))


# ---- samples ------------------------------------------------------------------------------------------------
@sample_inputs(sc.elliprf, sc.elliprg, sc.elliprd)
def _three_argument_samples(rng: np.random.Generator) -> Any:
    x = np.array([0.5, 2.0, 1.0, 0.1])
    y = np.array([1.5, 2.0, 3.0, 40.0])
    z = np.array([2.5, 2.0, 1.0 + 1e-9, 0.3])
    yield Sample(x, y, z, label="distinct, all equal, two nearly equal, spread")
    yield Sample(x.astype(np.float32), y.astype(np.float32), z.astype(np.float32), label="float32")
    yield Sample(np.array([0.5 + 0.5j, 1.0 - 0.25j]), 2.0 + 0j, np.array([1.0 + 1.0j, 3.0 + 0j]), label="complex")
    yield Sample(0.7, 1.5, 2.5)


@sample_inputs(sc.elliprc)
def _elliprc_samples(rng: np.random.Generator) -> Any:
    yield Sample(np.array([0.5, 2.0, 1.0, 0.1]), np.array([1.5, 2.0, 0.3, 40.0]), label="x < y, x = y, x > y")
    yield Sample(np.array([0.5, 2.0]), np.array([-1.5, -0.5]), label="y < 0: the Cauchy principal value")
    yield Sample(np.array([0.5, 2.0], np.float32), np.array([1.5, 0.5], np.float32), label="float32")
    yield Sample(np.array([0.5 + 0.5j]), np.array([1.0 - 1.0j]), label="complex")


@sample_inputs(sc.elliprj)
def _elliprj_samples(rng: np.random.Generator) -> Any:
    x = np.array([0.5, 2.0, 1.0, 0.1])
    y = np.array([1.5, 2.0, 3.0, 40.0])
    z = np.array([2.5, 2.0, 4.0, 0.3])
    p = np.array([0.8, 2.0, 1.0 + 1e-9, 5.0])
    yield Sample(x, y, z, p, label="distinct, all equal, p nearly x, spread")
    yield Sample(x.astype(np.float32), y.astype(np.float32), z.astype(np.float32), p.astype(np.float32),
                 label="float32")
    yield Sample(np.array([0.5, 2.0]), 1.5, 2.5, np.array([-0.8, -3.0]), label="p < 0: the Cauchy principal value")
    yield Sample(np.array([0.5 + 0.5j]), 2.0 + 0j, 1.0 + 1.0j, np.array([1.5 - 0.5j]), label="complex")
