"""Small parametrised problems with chainrules rules: the callables of the optimize samples.

:class:`~chainrules_core.RulesOnlyConfig` differentiates a callable only through the
callable's own rules, so the samples of ``root``, ``minimize``, ``curve_fit``... (which
``python -m chainrules check`` runs with that config) need objectives, residuals and models
that have rules. These are they. Each is a plain NumPy function with an frule and an rrule
written out here; the closed forms of their solutions (where there is one) are in the tests.

Their rules are registered by :func:`register` on first use, not at import: they are test
problems, not coverage of NumPy or SciPy, and the rule index does not list them.

* ``square_residual(x, t) = x**2 - t`` (elementwise; root ``sqrt(t)``).
* ``coupled_residual(x, a, b) = a @ x + x**3 / 10 - b`` (a coupled system; with ``a`` positive
  definite its root is unique), and its Jacobian ``coupled_jacobian(x, a, b) = a + diag(3 x**2 / 10)``.
* ``cosine_map(x, t) = t * cos(x)`` (elementwise; a contraction for ``|t| < 1``).
* ``objective(x, a, b) = x.a.x / 2 - b.x + sum(x**4) / 4`` (strictly convex for positive definite
  ``a``) and its gradient ``objective_gradient(x, a, b) = (a + a.T) x / 2 - b + x**3``.
* ``quartic(x, t) = x**4 / 4 + x**2 / 2 - t x`` (scalar; minimum where ``x**3 + x = t``) and its
  derivative ``quartic_gradient(x, t)``.
* ``exp_decay(t, amplitude, rate) = amplitude * exp(-rate * t)`` (a curve_fit model, ``t`` is
  ``xdata``), ``exp_decay_residual(p, t, y) = p[0] exp(-p[1] t) - y`` (least_squares) and its
  Jacobian ``exp_decay_jacobian(p, t, y)`` (``jac=``, with rules of its own); curve_fit's ``jac`` of
  the model, ``exp_decay_model_jacobian(t, amplitude, rate)``.
"""

from __future__ import annotations

import threading
from typing import Any

import numpy as np

from chainrules_core import AbstractZero, NoTangent, ProjectTo, frule, rrule, unthunk

__all__ = ["coupled_jacobian", "coupled_residual", "cosine_map", "exp_decay", "exp_decay_jacobian",
           "exp_decay_model_jacobian", "exp_decay_residual", "objective", "objective_gradient", "quartic",
           "quartic_gradient", "register", "square_residual"]


def square_residual(x: Any, t: Any) -> Any:
    """``x**2 - t``, elementwise."""
    return x * x - t


def coupled_residual(x: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a @ x + x**3 / 10 - b``."""
    return a @ x + 0.1 * x ** 3 - b


def coupled_jacobian(x: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The Jacobian of :func:`coupled_residual` in ``x``: ``a + diag(3 x**2 / 10)``."""
    return a + np.diag(0.3 * x ** 2)


def cosine_map(x: Any, t: Any) -> Any:
    """``t * cos(x)``, elementwise."""
    return t * np.cos(x)


def objective(x: np.ndarray, a: np.ndarray, b: np.ndarray) -> Any:
    """``x.a.x / 2 - b.x + sum(x**4) / 4``."""
    return 0.5 * x @ a @ x - b @ x + 0.25 * np.sum(x ** 4)


def objective_gradient(x: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The gradient of :func:`objective` in ``x``: ``(a + a.T) x / 2 - b + x**3``."""
    return 0.5 * (a + a.T) @ x - b + x ** 3


def quartic(x: Any, t: Any) -> Any:
    """``x**4 / 4 + x**2 / 2 - t x`` (scalar; its minimum solves ``x**3 + x = t``)."""
    return 0.25 * x ** 4 + 0.5 * x ** 2 - t * x


def quartic_gradient(x: Any, t: Any) -> Any:
    """The derivative of :func:`quartic` in ``x``: ``x**3 + x - t``."""
    return x ** 3 + x - t


def exp_decay(t: Any, amplitude: Any, rate: Any) -> Any:
    """``amplitude * exp(-rate * t)``."""
    return amplitude * np.exp(-rate * t)


def exp_decay_model_jacobian(t: Any, amplitude: Any, rate: Any) -> np.ndarray:
    """The Jacobian of :func:`exp_decay` in ``(amplitude, rate)`` (``len(t)`` by 2): curve_fit's ``jac``."""
    e = np.exp(-rate * np.asarray(t))
    return np.stack([e, -amplitude * t * e], axis=-1)


def exp_decay_residual(p: np.ndarray, t: np.ndarray, y: np.ndarray) -> np.ndarray:
    """``p[0] * exp(-p[1] * t) - y``."""
    return p[0] * np.exp(-p[1] * t) - y


def exp_decay_jacobian(p: np.ndarray, t: np.ndarray, y: np.ndarray) -> np.ndarray:
    """The Jacobian of :func:`exp_decay_residual` in ``p`` (``len(t)`` by 2)."""
    e = np.exp(-p[1] * t)
    return np.stack([e, -p[0] * t * e], axis=-1)


# ---- rules -------------------------------------------------------------------------------------------------------
def _value(t: Any, like: Any) -> Any:
    """A tangent as an array of ``like``'s shape (zeros for a zero tangent)."""
    t = unthunk(t)
    if t is None or isinstance(t, AbstractZero):
        return np.zeros(np.shape(like))
    return np.asarray(t)


def _none_or_zero(*ts: Any) -> bool:
    return all(t is None or isinstance(unthunk(t), AbstractZero) for t in ts)


def _scalar_or_array(like: Any, value: np.ndarray) -> Any:
    return value if np.ndim(like) else value[()]


def _sum_to(value: Any, like: Any) -> Any:
    """``value`` summed to ``like``'s shape (broadcasting of elementwise problems), projected."""
    value = np.asarray(value)
    shape = np.shape(like)
    while value.ndim > len(shape):
        value = value.sum(axis=0)
    for axis, n in enumerate(shape):
        if n == 1 and value.shape[axis] != 1:
            value = value.sum(axis=axis, keepdims=True)
    return ProjectTo(like)(_scalar_or_array(like, value))


def _register_square_residual() -> None:
    @rrule.register(square_residual, object, object)
    def square_residual_rrule(x: Any, t: Any) -> Any:
        y = square_residual(x, t)

        def square_residual_pullback(dy: Any) -> tuple[Any, ...]:
            dy = _value(dy, y)
            return NoTangent(), _sum_to(2 * x * dy, x), _sum_to(-dy, t)

        return y, square_residual_pullback

    @frule.register(square_residual, object, object)
    def square_residual_frule(tangents: Any, x: Any, t: Any) -> Any:
        y = square_residual(x, t)
        if _none_or_zero(*tangents[1:]):
            return y, ProjectTo(y)(np.zeros(np.shape(y)))
        return y, ProjectTo(y)(_scalar_or_array(y, np.asarray(2 * x * _value(tangents[1], x) - _value(tangents[2], t))))


def _register_coupled() -> None:
    @rrule.register(coupled_residual, np.ndarray, np.ndarray, np.ndarray)
    def coupled_residual_rrule(x: np.ndarray, a: np.ndarray, b: np.ndarray) -> Any:
        y = coupled_residual(x, a, b)

        def coupled_residual_pullback(dy: Any) -> tuple[Any, ...]:
            dy = _value(dy, y)
            return (NoTangent(), ProjectTo(x)(a.T @ dy + 0.3 * x ** 2 * dy), ProjectTo(a)(np.outer(dy, x)),
                    ProjectTo(b)(-dy))

        return y, coupled_residual_pullback

    @frule.register(coupled_residual, np.ndarray, np.ndarray, np.ndarray)
    def coupled_residual_frule(tangents: Any, x: np.ndarray, a: np.ndarray, b: np.ndarray) -> Any:
        dx, da, db = (_value(t, v) for t, v in zip(tangents[1:], (x, a, b)))
        return coupled_residual(x, a, b), ProjectTo(x)(a @ dx + 0.3 * x ** 2 * dx + da @ x - db)

    @rrule.register(coupled_jacobian, np.ndarray, np.ndarray, np.ndarray)
    def coupled_jacobian_rrule(x: np.ndarray, a: np.ndarray, b: np.ndarray) -> Any:
        y = coupled_jacobian(x, a, b)

        def coupled_jacobian_pullback(dy: Any) -> tuple[Any, ...]:
            dy = _value(dy, y)
            return NoTangent(), ProjectTo(x)(0.6 * x * np.diagonal(dy)), ProjectTo(a)(dy.copy()), ProjectTo(b)(
                np.zeros_like(b))

        return y, coupled_jacobian_pullback

    @frule.register(coupled_jacobian, np.ndarray, np.ndarray, np.ndarray)
    def coupled_jacobian_frule(tangents: Any, x: np.ndarray, a: np.ndarray, b: np.ndarray) -> Any:
        dx, da = _value(tangents[1], x), _value(tangents[2], a)
        return coupled_jacobian(x, a, b), da + np.diag(0.6 * x * dx)


def _register_cosine_map() -> None:
    @rrule.register(cosine_map, object, object)
    def cosine_map_rrule(x: Any, t: Any) -> Any:
        y = cosine_map(x, t)

        def cosine_map_pullback(dy: Any) -> tuple[Any, ...]:
            dy = _value(dy, y)
            return NoTangent(), _sum_to(-t * np.sin(x) * dy, x), _sum_to(np.cos(x) * dy, t)

        return y, cosine_map_pullback

    @frule.register(cosine_map, object, object)
    def cosine_map_frule(tangents: Any, x: Any, t: Any) -> Any:
        y = cosine_map(x, t)
        dy = -t * np.sin(x) * _value(tangents[1], x) + np.cos(x) * _value(tangents[2], t)
        return y, ProjectTo(y)(_scalar_or_array(y, np.asarray(dy)))


def _register_objective() -> None:
    @rrule.register(objective, np.ndarray, np.ndarray, np.ndarray)
    def objective_rrule(x: np.ndarray, a: np.ndarray, b: np.ndarray) -> Any:
        y = objective(x, a, b)

        def objective_pullback(dy: Any) -> tuple[Any, ...]:
            dy = float(_value(dy, y))
            return (NoTangent(), ProjectTo(x)(dy * objective_gradient(x, a, b)),
                    ProjectTo(a)(0.5 * dy * np.outer(x, x)), ProjectTo(b)(-dy * x))

        return y, objective_pullback

    @frule.register(objective, np.ndarray, np.ndarray, np.ndarray)
    def objective_frule(tangents: Any, x: np.ndarray, a: np.ndarray, b: np.ndarray) -> Any:
        dx, da, db = (_value(t, v) for t, v in zip(tangents[1:], (x, a, b)))
        dy = objective_gradient(x, a, b) @ dx + 0.5 * x @ da @ x - db @ x
        return objective(x, a, b), dy

    @rrule.register(objective_gradient, np.ndarray, np.ndarray, np.ndarray)
    def objective_gradient_rrule(x: np.ndarray, a: np.ndarray, b: np.ndarray) -> Any:
        y = objective_gradient(x, a, b)

        def objective_gradient_pullback(dy: Any) -> tuple[Any, ...]:
            dy = _value(dy, y)
            return (NoTangent(), ProjectTo(x)(0.5 * (a + a.T) @ dy + 3 * x ** 2 * dy),
                    ProjectTo(a)(0.5 * (np.outer(dy, x) + np.outer(x, dy))), ProjectTo(b)(-dy))

        return y, objective_gradient_pullback

    @frule.register(objective_gradient, np.ndarray, np.ndarray, np.ndarray)
    def objective_gradient_frule(tangents: Any, x: np.ndarray, a: np.ndarray, b: np.ndarray) -> Any:
        dx, da, db = (_value(t, v) for t, v in zip(tangents[1:], (x, a, b)))
        dy = 0.5 * (a + a.T) @ dx + 3 * x ** 2 * dx + 0.5 * (da + da.T) @ x - db
        return objective_gradient(x, a, b), dy


def _register_quartic() -> None:
    @rrule.register(quartic, object, object)
    def quartic_rrule(x: Any, t: Any) -> Any:
        y = quartic(x, t)

        def quartic_pullback(dy: Any) -> tuple[Any, ...]:
            dy = _value(dy, y)
            return NoTangent(), _sum_to(quartic_gradient(x, t) * dy, x), _sum_to(-x * dy, t)

        return y, quartic_pullback

    @frule.register(quartic, object, object)
    def quartic_frule(tangents: Any, x: Any, t: Any) -> Any:
        y = quartic(x, t)
        dy = quartic_gradient(x, t) * _value(tangents[1], x) - x * _value(tangents[2], t)
        return y, ProjectTo(y)(_scalar_or_array(y, np.asarray(dy)))

    @rrule.register(quartic_gradient, object, object)
    def quartic_gradient_rrule(x: Any, t: Any) -> Any:
        y = quartic_gradient(x, t)

        def quartic_gradient_pullback(dy: Any) -> tuple[Any, ...]:
            dy = _value(dy, y)
            return NoTangent(), _sum_to((3 * x ** 2 + 1) * dy, x), _sum_to(-dy, t)

        return y, quartic_gradient_pullback

    @frule.register(quartic_gradient, object, object)
    def quartic_gradient_frule(tangents: Any, x: Any, t: Any) -> Any:
        y = quartic_gradient(x, t)
        dy = (3 * x ** 2 + 1) * _value(tangents[1], x) - _value(tangents[2], t)
        return y, ProjectTo(y)(_scalar_or_array(y, np.asarray(dy)))


def _register_exp_decay() -> None:
    @rrule.register(exp_decay, object, object, object)
    def exp_decay_rrule(t: Any, amplitude: Any, rate: Any) -> Any:
        e = np.exp(-rate * t)
        y = amplitude * e

        def exp_decay_pullback(dy: Any) -> tuple[Any, ...]:
            dy = _value(dy, y)
            return (NoTangent(), _sum_to(-rate * y * dy, t), _sum_to(e * dy, amplitude),
                    _sum_to(-t * y * dy, rate))

        return y, exp_decay_pullback

    @frule.register(exp_decay, object, object, object)
    def exp_decay_frule(tangents: Any, t: Any, amplitude: Any, rate: Any) -> Any:
        e = np.exp(-rate * t)
        y = amplitude * e
        dt, da, dr = (_value(g, v) for g, v in zip(tangents[1:], (t, amplitude, rate)))
        return y, ProjectTo(y)(_scalar_or_array(y, np.asarray(-rate * y * dt + e * da - t * y * dr)))

    @rrule.register(exp_decay_model_jacobian, object, object, object)
    def exp_decay_model_jacobian_rrule(t: Any, amplitude: Any, rate: Any) -> Any:
        jac = exp_decay_model_jacobian(t, amplitude, rate)
        e = jac[:, 0]

        def exp_decay_model_jacobian_pullback(dj: Any) -> tuple[Any, ...]:
            dj = _value(dj, jac)
            g0, g1 = dj[:, 0], dj[:, 1]
            # J = [e, -a t e], e = exp(-k t): de/dk = -t e, de/dt = -k e
            da = np.sum(-t * e * g1)
            dk = np.sum(-t * e * g0 + amplitude * t * t * e * g1)
            dt = -rate * e * g0 + (-amplitude * e + amplitude * rate * t * e) * g1
            return (NoTangent(), ProjectTo(t)(dt), ProjectTo(amplitude)(da), ProjectTo(rate)(dk))

        return jac, exp_decay_model_jacobian_pullback

    @frule.register(exp_decay_model_jacobian, object, object, object)
    def exp_decay_model_jacobian_frule(tangents: Any, t: Any, amplitude: Any, rate: Any) -> Any:
        jac = exp_decay_model_jacobian(t, amplitude, rate)
        e = jac[:, 0]
        dt, da, dk = (_value(g, v) for g, v in zip(tangents[1:], (t, amplitude, rate)))
        de = -t * e * dk - rate * e * dt
        d1 = -da * t * e - amplitude * dt * e - amplitude * t * de
        return jac, np.stack([de, d1], axis=-1)

    @rrule.register(exp_decay_residual, np.ndarray, np.ndarray, np.ndarray)
    def exp_decay_residual_rrule(p: np.ndarray, t: np.ndarray, y: np.ndarray) -> Any:
        r = exp_decay_residual(p, t, y)
        jac = exp_decay_jacobian(p, t, y)

        def exp_decay_residual_pullback(dr: Any) -> tuple[Any, ...]:
            dr = _value(dr, r)
            return (NoTangent(), ProjectTo(p)(jac.T @ dr), ProjectTo(t)(-p[1] * (r + y) * dr),
                    ProjectTo(y)(-dr))

        return r, exp_decay_residual_pullback

    @frule.register(exp_decay_residual, np.ndarray, np.ndarray, np.ndarray)
    def exp_decay_residual_frule(tangents: Any, p: np.ndarray, t: np.ndarray, y: np.ndarray) -> Any:
        r = exp_decay_residual(p, t, y)
        dp, dt, dy = (_value(g, v) for g, v in zip(tangents[1:], (p, t, y)))
        return r, exp_decay_jacobian(p, t, y) @ dp - p[1] * (r + y) * dt - dy

    @rrule.register(exp_decay_jacobian, np.ndarray, np.ndarray, np.ndarray)
    def exp_decay_jacobian_rrule(p: np.ndarray, t: np.ndarray, y: np.ndarray) -> Any:
        jac = exp_decay_jacobian(p, t, y)
        e = jac[:, 0]

        def exp_decay_jacobian_pullback(dj: Any) -> tuple[Any, ...]:
            dj = _value(dj, jac)
            g0, g1 = dj[:, 0], dj[:, 1]
            # J = [e, -p0 t e] with e = exp(-p1 t): de/dp1 = -t e, de/dt = -p1 e
            dp0 = np.sum(-t * e * g1)
            dp1 = np.sum(-t * e * g0 + p[0] * t * t * e * g1)
            dt = -p[1] * e * g0 + (-p[0] * e + p[0] * p[1] * t * e) * g1
            return (NoTangent(), ProjectTo(p)(np.array([dp0, dp1])), ProjectTo(t)(dt), ProjectTo(y)(np.zeros_like(y)))

        return jac, exp_decay_jacobian_pullback

    @frule.register(exp_decay_jacobian, np.ndarray, np.ndarray, np.ndarray)
    def exp_decay_jacobian_frule(tangents: Any, p: np.ndarray, t: np.ndarray, y: np.ndarray) -> Any:
        jac = exp_decay_jacobian(p, t, y)
        e = jac[:, 0]
        dp, dt = _value(tangents[1], p), _value(tangents[2], t)
        de = -t * e * dp[1] - p[1] * e * dt
        d1 = -dp[0] * t * e - p[0] * dt * e - p[0] * t * de
        return jac, np.stack([de, d1], axis=-1)


_registered = False
_lock = threading.Lock()


def register() -> None:
    """Register the rules of the problems (once; later calls do nothing).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> from chainrules.rulesets.optimize import _problems
    >>> _problems.register()
    >>> y, pullback = rrule(_problems.square_residual, np.array([3.0]), np.array([2.0]))
    >>> y, pullback(np.array([1.0]))[1:]
    (array([7.]), (array([6.]), array([-1.])))
    """
    global _registered
    with _lock:
        if _registered:
            return
        _register_square_residual()
        _register_coupled()
        _register_cosine_map()
        _register_objective()
        _register_quartic()
        _register_exp_decay()
        _registered = True
