"""Small functions with rules of their own, for the samples of the higher-order integrate rules (private).

The samples of ``quad``, ``tplquad``, ``solve_ivp``... are checked with
:class:`~chainrules_core.RulesOnlyConfig`, which differentiates the integrand (the right-hand
side) through the callable's own rules. NumPy's ufuncs take at most two arguments; these take
the arguments the integrators pass (``f(z, y, x, *args)``, ``fun(t, y, *args)``). Their rules
are written out below and declare samples like every rule, so they are checked against finite
differences too. The sample generators import this module when they run; nothing else does.

* :func:`trilinear`: ``t x y z + z^2 - y``, a polynomial (one Gauss-Kronrod rule per level is
  exact, so the finite differences of a triple integral stay cheap);
* :func:`exponential_decay`: ``y' = -k y`` (``y(t) = y0 exp(-k t)``);
* :func:`lotka_volterra`: ``x' = a x - b x y``, ``y' = -c y + d x y`` (non-stiff, oscillating);
* :func:`damped_pendulum`: ``th' = w``, ``w' = -g sin(th) - c w`` (non-stiff);
* :func:`van_der_pol`: ``x' = y``, ``y' = mu (1 - x^2) y - x`` (stiff for large ``mu``);
* :func:`robertson`: Robertson's chemical kinetics (the classical stiff test problem, Robertson 1966;
  Hairer & Wanner, *Solving ODEs II*, section IV.1), with its rate constants as parameters.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from chainrules_core import (
    NoTangent,
    Sample,
    cotangent_projector,
    frule,
    passes_through,
    read_cotangent,
    rrule,
    sample_inputs,
    unthunk,
)


def _value(t: Any) -> Any:
    """An input tangent as a value (``None`` for a zero)."""
    t = unthunk(t)
    return None if t is None or isinstance(t, (NoTangent,)) or type(t).__name__ == "ZeroTangent" else t


# ---- a polynomial integrand ----------------------------------------------------------------------------------
def trilinear(z: float, y: float, x: float, t: float) -> float:
    """``t x y z + z^2 - y``.

    Examples
    --------
    >>> trilinear(1.0, 2.0, 3.0, 0.5)
    2.0
    """
    return t * x * y * z + z * z - y


@rrule.register(trilinear, float, float, float, float)
def _trilinear_rrule(z: float, y: float, x: float, t: float) -> Any:
    value = trilinear(z, y, x, t)

    def trilinear_pullback(dv: Any) -> tuple[Any, ...]:
        dv = read_cotangent(dv, value, trilinear)
        if passes_through(dv):
            return NoTangent(), *(cotangent_projector(a)(dv) for a in (z, y, x, t))
        return NoTangent(), dv * (t * x * y + 2 * z), dv * (t * x * z - 1), dv * t * y * z, dv * x * y * z

    return value, trilinear_pullback


@frule.register(trilinear, float, float, float, float)
def _trilinear_frule(tangents: Any, z: float, y: float, x: float, t: float) -> Any:
    dz, dy, dx, dt = (_value(d) or 0.0 for d in tangents[1:])
    return trilinear(z, y, x, t), (t * x * y + 2 * z) * dz + (t * x * z - 1) * dy + t * y * z * dx + x * y * z * dt


@sample_inputs(trilinear)
def _trilinear_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample(0.3, -0.7, 1.2, 0.9)


# ---- ODE right-hand sides ---------------------------------------------------------------------------------
Jacobians = Callable[..., tuple[np.ndarray, np.ndarray, list[np.ndarray]]]


def _register_rhs(fun: Callable[..., np.ndarray], jacobians: Jacobians, *param_types: Any) -> None:
    """rrule and frule of ``fun(t, y, *p)`` from ``jacobians(t, y, *p) -> (df/dt, df/dy, [df/dp_i])``;
    ``df/dp_i`` has shape ``(n,) + shape(p_i)``."""

    @rrule.register(fun, float, np.ndarray, *param_types)
    def rhs_rrule(t: float, y: np.ndarray, *p: Any) -> Any:
        value = fun(t, y, *p)

        def rhs_pullback(dv: Any) -> tuple[Any, ...]:
            dv = read_cotangent(dv, value, fun)
            if passes_through(dv):
                return NoTangent(), *(cotangent_projector(a)(dv) for a in (t, y, *p))
            dv = np.asarray(dv)
            f_t, f_y, f_p = jacobians(t, y, *p)
            dp: list[Any] = [np.tensordot(np.conj(j), dv, axes=(0, 0)) for j in f_p]
            dp = [d.real if not np.iscomplexobj(q) else d for d, q in zip(dp, p)]
            dp = [float(d) if isinstance(q, float) else d for d, q in zip(dp, p)]
            dt = float(np.real(np.vdot(f_t, dv)))
            return NoTangent(), dt, (np.conj(f_y).T @ dv).astype(np.result_type(y, dv), copy=False), *dp

        return value, rhs_pullback

    @frule.register(fun, float, np.ndarray, *param_types)
    def rhs_frule(tangents: Any, t: float, y: np.ndarray, *p: Any) -> Any:
        value = fun(t, y, *p)
        f_t, f_y, f_p = jacobians(t, y, *p)
        out = np.zeros_like(value)
        dt, dy = _value(tangents[1]), _value(tangents[2])
        if dt is not None:
            out = out + f_t * dt
        if dy is not None:
            out = out + f_y @ dy
        for j, d in zip(f_p, tangents[3:]):
            d = _value(d)
            if d is not None:
                out = out + np.tensordot(j, np.asarray(d), axes=np.ndim(d))
        return value, out

    rhs_rrule.__name__ = f"{fun.__name__}_rrule"
    rhs_frule.__name__ = f"{fun.__name__}_frule"


def exponential_decay(t: float, y: np.ndarray, k: Any) -> np.ndarray:
    """``y' = -k y`` (``k`` a number or an array of ``y``'s shape).

    Examples
    --------
    >>> exponential_decay(0.0, np.array([1.0, 2.0]), 0.5)
    array([-0.5, -1. ])
    """
    return -k * y


def _decay_jacobians(t: float, y: np.ndarray, k: Any) -> tuple[np.ndarray, np.ndarray, list[np.ndarray]]:
    k_y = np.diag(-np.broadcast_to(k, y.shape)).astype(np.result_type(y, k))
    k_k = -y if np.ndim(k) == 0 else np.diag(-y)
    return np.zeros_like(y), k_y, [k_k]


_register_rhs(exponential_decay, _decay_jacobians, (float, np.ndarray))


def lotka_volterra(t: float, y: np.ndarray, p: np.ndarray) -> np.ndarray:
    """``x' = a x - b x y``, ``y' = -c y + d x y`` with ``p = (a, b, c, d)``.

    Examples
    --------
    >>> lotka_volterra(0.0, np.array([1.0, 2.0]), np.array([1.0, 0.5, 1.0, 0.25]))
    array([ 0. , -1.5])
    """
    a, b, c, d = p
    return np.array([a * y[0] - b * y[0] * y[1], -c * y[1] + d * y[0] * y[1]])


def _lotka_volterra_jacobians(t: float, y: np.ndarray, p: np.ndarray) -> tuple[np.ndarray, np.ndarray,
                                                                                  list[np.ndarray]]:
    a, b, c, d = p
    f_y = np.array([[a - b * y[1], -b * y[0]], [d * y[1], -c + d * y[0]]])
    f_p = np.array([[y[0], -y[0] * y[1], 0.0, 0.0], [0.0, 0.0, -y[1], y[0] * y[1]]])
    return np.zeros(2), f_y, [f_p]


_register_rhs(lotka_volterra, _lotka_volterra_jacobians, np.ndarray)


def damped_pendulum(t: float, y: np.ndarray, g: float, c: float) -> np.ndarray:
    """``th' = w``, ``w' = -g sin(th) - c w``.

    Examples
    --------
    >>> damped_pendulum(0.0, np.array([0.0, 1.0]), 9.81, 0.5)
    array([ 1. , -0.5])
    """
    return np.array([y[1], -g * np.sin(y[0]) - c * y[1]])


def _pendulum_jacobians(t: float, y: np.ndarray, g: float, c: float) -> tuple[np.ndarray, np.ndarray,
                                                                            list[np.ndarray]]:
    f_y = np.array([[0.0, 1.0], [-g * np.cos(y[0]), -c]])
    return np.zeros(2), f_y, [np.array([0.0, -np.sin(y[0])]), np.array([0.0, -y[1]])]


_register_rhs(damped_pendulum, _pendulum_jacobians, float, float)


def van_der_pol(t: float, y: np.ndarray, mu: float) -> np.ndarray:
    """``x' = y``, ``y' = mu (1 - x^2) y - x``.

    Examples
    --------
    >>> van_der_pol(0.0, np.array([2.0, 0.0]), 1000.0)
    array([ 0., -2.])
    """
    return np.array([y[1], mu * (1 - y[0] ** 2) * y[1] - y[0]])


def _van_der_pol_jacobians(t: float, y: np.ndarray, mu: float) -> tuple[np.ndarray, np.ndarray, list[np.ndarray]]:
    f_y = np.array([[0.0, 1.0], [-2 * mu * y[0] * y[1] - 1, mu * (1 - y[0] ** 2)]])
    return np.zeros(2), f_y, [np.array([0.0, (1 - y[0] ** 2) * y[1]])]


_register_rhs(van_der_pol, _van_der_pol_jacobians, float)


def robertson(t: float, y: np.ndarray, k: np.ndarray) -> np.ndarray:
    """Robertson's kinetics: ``y1' = -k1 y1 + k3 y2 y3``, ``y2' = k1 y1 - k3 y2 y3 - k2 y2^2``,
    ``y3' = k2 y2^2`` (classically ``k = (0.04, 3e7, 1e4)``).

    Examples
    --------
    >>> robertson(0.0, np.array([1.0, 0.0, 0.0]), np.array([0.04, 3e7, 1e4]))
    array([-0.04,  0.04,  0.  ])
    """
    k1, k2, k3 = k
    return np.array([-k1 * y[0] + k3 * y[1] * y[2], k1 * y[0] - k3 * y[1] * y[2] - k2 * y[1] ** 2, k2 * y[1] ** 2])


def _robertson_jacobians(t: float, y: np.ndarray, k: np.ndarray) -> tuple[np.ndarray, np.ndarray, list[np.ndarray]]:
    k1, k2, k3 = k
    f_y = np.array([[-k1, k3 * y[2], k3 * y[1]],
                    [k1, -k3 * y[2] - 2 * k2 * y[1], -k3 * y[1]],
                    [0.0, 2 * k2 * y[1], 0.0]])
    f_k = np.array([[-y[0], 0.0, y[1] * y[2]], [y[0], -y[1] ** 2, -y[1] * y[2]], [0.0, y[1] ** 2, 0.0]])
    return np.zeros(3), f_y, [f_k]


_register_rhs(robertson, _robertson_jacobians, np.ndarray)


@sample_inputs(exponential_decay)
def _decay_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample(0.3, rng.standard_normal(3), 0.7, label="a rate")
    yield Sample(0.3, rng.standard_normal(3), rng.uniform(0.5, 1.5, 3), label="rates")
    yield Sample(0.3, rng.standard_normal(2) + 1j * rng.standard_normal(2), 0.7, label="complex state")


@sample_inputs(lotka_volterra)
def _lotka_volterra_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample(0.3, np.array([1.2, 0.8]), np.array([1.0, 0.5, 0.9, 0.3]))


@sample_inputs(damped_pendulum)
def _pendulum_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample(0.3, np.array([0.4, -0.2]), 9.81, 0.3)


@sample_inputs(van_der_pol)
def _van_der_pol_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample(0.3, np.array([1.5, -0.3]), 2.0)


@sample_inputs(robertson)
def _robertson_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample(0.3, np.array([0.9, 1e-5, 0.1]), np.array([0.04, 3e7, 1e4]), rtol=1e-6)


__all__ = ["damped_pendulum", "exponential_decay", "lotka_volterra", "robertson", "trilinear",
           "van_der_pol"]
