"""Rules of random sampling: ``np.random.*`` and the methods of ``np.random.Generator``.

``np.random.normal(...)`` is the method ``RandomState.normal`` of NumPy's global
``RandomState``; the rules are registered on the methods of ``np.random.RandomState``
and of ``np.random.Generator``, so ``rrule(np.random.normal, ...)``,
``rrule(rs.normal, ...)`` and ``rrule(rng.normal, ...)`` all find them.

What is differentiated: the pathwise derivative
------------------------------------------------
A draw is a deterministic function of the generator's state and of the distribution's
parameters. With the state held fixed, the rules differentiate the draw with respect to
the parameters (the "reparameterisation" or pathwise derivative that PyTorch's
``rsample`` and JAX's ``jax.random`` samplers give):

======================================  ===================================================
``normal(loc, scale)``, ``laplace``,    ``y = loc + scale * z``: ``dy/dloc = 1``,
``gumbel``, ``logistic``                ``dy/dscale = z = (y - loc) / scale``
``uniform(low, high)``                  ``y = low + (high - low) * u``: ``1 - u`` and ``u``
``lognormal(mean, sigma)``              ``y = exp(mean + sigma * z)``: ``y`` and ``y * z``
``exponential(scale)``, ``rayleigh``    ``y = scale * e``: ``y / scale``
``gamma(shape, scale)``                 ``y / scale`` for ``scale``; ``shape``: see below
``choice(a, ...)``, ``permutation(x)``  a gather of ``a``/``x`` at the drawn positions
======================================  ===================================================

Distributions whose draws depend on a *shape* parameter (``gamma``'s shape, ``beta``,
``chisquare``, ``standard_t``, ``dirichlet``, ``weibull``, ``vonmises``...) need implicit
reparameterisation (the derivative of the inverse CDF); it is not written yet, so those
cotangents are ``not_implemented(...)`` (never a silent zero). Draws from discrete
distributions (``binomial``, ``poisson``, ``integers``...) are integers, and draws with no
parameters (``standard_normal``, ``random``...) depend on nothing differentiable: those
functions are declared non-differentiable, as are the state functions (``seed``,
``get_state``...). ``shuffle`` works in place: its rule raises.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.lib.array_utils import normalize_axis_index

from chainrules.rulesets.arrays._common import (
    ARRAY_LIKE,
    NO,
    cast_like,
    differentiable,
    output_tangent,
    passes_through,
    project_input,
    read_cotangent,
    tangent_array,
    zero_result,
)
from chainrules.rulesets.arrays.mutation import InPlaceOperationError
from chainrules_core import NotImplementedTangent, Thunk, Varargs, frule, non_differentiable, not_implemented, rrule
from chainrules_core import unbroadcast as _unbroadcast

Pullback = Callable[[Any], tuple[Any, ...]]
SOURCES = (np.random.RandomState, np.random.Generator)
"""The classes whose sampling methods have rules."""


# ---- pathwise derivatives of continuous families ------------------------------------------------------
def _loc_scale(y: Any, params: tuple[Any, ...]) -> tuple[Any, ...]:
    loc, scale = params
    return np.ones_like(y), (y - loc) / scale


def _uniform(y: Any, params: tuple[Any, ...]) -> tuple[Any, ...]:
    low, high = params
    u = (y - low) / (np.asarray(high) - low)
    return 1 - u, u


def _lognormal(y: Any, params: tuple[Any, ...]) -> tuple[Any, ...]:
    mean, sigma = params
    return y, y * (np.log(y) - mean) / sigma


def _scale_only(y: Any, params: tuple[Any, ...]) -> tuple[Any, ...]:
    (scale,) = params
    return (y / scale,)


def _gamma(y: Any, params: tuple[Any, ...]) -> tuple[Any, ...]:
    _, scale = params
    return None, y / scale


PATHWISE: dict[str, tuple[tuple[tuple[str, float], ...], Callable[[Any, tuple[Any, ...]], tuple[Any, ...]]]] = {
    "normal": ((("loc", 0.0), ("scale", 1.0)), _loc_scale),
    "laplace": ((("loc", 0.0), ("scale", 1.0)), _loc_scale),
    "gumbel": ((("loc", 0.0), ("scale", 1.0)), _loc_scale),
    "logistic": ((("loc", 0.0), ("scale", 1.0)), _loc_scale),
    "uniform": ((("low", 0.0), ("high", 1.0)), _uniform),
    "lognormal": ((("mean", 0.0), ("sigma", 1.0)), _lognormal),
    "exponential": ((("scale", 1.0),), _scale_only),
    "rayleigh": ((("scale", 1.0),), _scale_only),
    "gamma": ((("shape", np.nan), ("scale", 1.0)), _gamma),
}
"""Sampler name -> (its parameters with their defaults, the partials of the draw)."""

SHAPE_PARAMETERS: dict[str, int] = {
    "beta": 2, "chisquare": 1, "dirichlet": 1, "f": 2, "noncentral_chisquare": 2, "noncentral_f": 3,
    "pareto": 1, "power": 1, "standard_gamma": 1, "standard_t": 1, "triangular": 3, "vonmises": 2,
    "wald": 2, "weibull": 1, "multivariate_normal": 2,
}
"""Samplers whose draws depend on parameters through implicit reparameterisation (not written yet):
how many leading parameters they take."""


def _pathwise_rules(cls: type, name: str) -> None:
    method = getattr(cls, name)
    params, partials = PATHWISE[name]
    n = len(params)
    label = f"{cls.__name__}.{name}"

    def _arguments(args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Any, ...]:
        values = list(args[:n]) + [kwargs.get(p, default) for p, default in params[len(args):]]
        return tuple(values)

    def pathwise_rrule(source: Any, *args: Any, **kwargs: Any) -> tuple[Any, Pullback]:
        y = method(source, *args, **kwargs)
        values = _arguments(args, kwargs)
        projectors = [project_input(v) for v in values[:len(args)]]

        def pathwise_pullback(dy: Any) -> tuple[Any, ...]:
            tail = (NO,) * (len(args) - min(len(args), n))
            if not projectors:
                return (NO, NO, *tail)
            dy = read_cotangent(dy, y, f"{label} pullback: output cotangent")
            if passes_through(dy):
                zero = zero_result(dy)
                return (NO, NO, *(zero if differentiable(v) else NO for v in values[:len(projectors)]), *tail)
            weights = partials(np.asarray(y), values)
            out: list[Any] = []
            for k, (project, value) in enumerate(zip(projectors, values)):
                if not differentiable(value):
                    out.append(NO)
                elif weights[k] is None:
                    out.append(not_implemented(f"{label}: the pathwise derivative with respect to "
                                               f"{params[k][0]} (implicit reparameterisation)"))
                else:
                    out.append(Thunk(_weighted(project, weights[k], dy, value)))
            return (NO, NO, *out, *tail)

        pathwise_pullback.__name__ = pathwise_pullback.__qualname__ = f"{name}_pullback"
        return y, pathwise_pullback

    def pathwise_frule(tangents: tuple[Any, ...], source: Any, *args: Any, **kwargs: Any) -> tuple[Any, Any]:
        y = method(source, *args, **kwargs)
        values = _arguments(args, kwargs)
        weights = partials(np.asarray(y), values)
        total: Any = None
        for k, value in enumerate(values[:len(args)]):
            if not differentiable(value):
                continue
            d = tangent_array(tangents[2 + k], value)
            if d is None:
                continue
            if isinstance(d, NotImplementedTangent):
                return y, d
            if weights[k] is None:
                return y, not_implemented(f"{label}: the pathwise derivative with respect to {params[k][0]}")
            term = weights[k] * d
            total = term if total is None else total + term
        return y, output_tangent(None if total is None else np.broadcast_to(total, np.shape(y)), y)

    pathwise_rrule.__name__ = pathwise_rrule.__qualname__ = f"{name}_rrule"
    pathwise_frule.__name__ = pathwise_frule.__qualname__ = f"{name}_frule"
    pathwise_rrule.__doc__ = f"Reverse rule of ``{label}``: the pathwise derivative (generator state held fixed)."
    pathwise_frule.__doc__ = f"Forward rule of ``{label}``: the pathwise derivative."
    rrule.register(method, cls, Varargs(object))(pathwise_rrule)
    frule.register(method, cls, Varargs(object))(pathwise_frule)


def _weighted(project: Callable[[Any], Any], weight: Any, dy: np.ndarray, value: Any) -> Callable[[], Any]:
    def weighted_cotangent() -> Any:
        return project(cast_like(np.asarray(_unbroadcast(weight * dy, np.shape(value))), value))

    return weighted_cotangent


def _shape_parameter_rules(cls: type, name: str) -> None:
    method = getattr(cls, name)
    n = SHAPE_PARAMETERS[name]
    label = f"{cls.__name__}.{name}"
    reason = f"{label}: the pathwise derivative of the draw with respect to its parameters (implicit " \
             "reparameterisation)"

    def reparameterised_rrule(source: Any, *args: Any, **kwargs: Any) -> tuple[Any, Pullback]:
        y = method(source, *args, **kwargs)

        def reparameterised_pullback(dy: Any) -> tuple[Any, ...]:
            return (NO, NO, *(not_implemented(reason) if k < n and differentiable(a) else NO
                              for k, a in enumerate(args)))

        reparameterised_pullback.__name__ = f"{name}_pullback"
        return y, reparameterised_pullback

    def reparameterised_frule(tangents: tuple[Any, ...], source: Any, *args: Any, **kwargs: Any) -> tuple[Any, Any]:
        y = method(source, *args, **kwargs)
        return y, not_implemented(reason)

    reparameterised_rrule.__name__ = f"{name}_rrule"
    reparameterised_frule.__name__ = f"{name}_frule"
    rrule.register(method, cls, Varargs(object))(reparameterised_rrule)
    frule.register(method, cls, Varargs(object))(reparameterised_frule)


# ---- choice and permutation: gathers at the drawn positions ----------------------------------------------
def _gather_draw_rules(cls: type, name: str) -> None:
    method = getattr(cls, name)
    label = f"{cls.__name__}.{name}"

    def positions(source: Any, a: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Any, int]:
        """The same draw over positions, from a twin of the generator (``source`` is not advanced)."""
        arr = np.asarray(a)
        generator = cls is np.random.Generator
        twin = _twin(source)
        if name == "choice":
            axis = kwargs.get("axis", args[3] if len(args) > 3 else 0) if generator else 0
            twin_args = list(args)
            if len(twin_args) > 3:
                twin_args[3] = 0
            twin_kwargs = {**kwargs, "axis": 0} if "axis" in kwargs else kwargs
            axis = normalize_axis_index(axis, arr.ndim)
            return twin.choice(arr.shape[axis], *twin_args, **twin_kwargs), axis
        axis = kwargs.get("axis", args[0] if args else 0) if generator else 0
        axis = normalize_axis_index(axis, arr.ndim)
        return twin.permutation(arr.shape[axis]), axis

    def draw_rrule(source: Any, a: Any, *args: Any, **kwargs: Any) -> tuple[Any, Pullback]:
        if not isinstance(a, np.ndarray) or a.ndim == 0 or not differentiable(a):
            y = method(source, a, *args, **kwargs)

            def draw_pullback(dy: Any) -> tuple[Any, ...]:
                return (NO, NO, NO, *(NO,) * len(args))

            return y, draw_pullback
        index, axis = positions(source, a, args, kwargs)
        y = method(source, a, *args, **kwargs)
        project_a = project_input(a)

        def gather_draw_pullback(dy: Any) -> tuple[Any, ...]:
            dy = read_cotangent(dy, y, f"{label} pullback: output cotangent")
            if passes_through(dy):
                return (NO, NO, zero_result(dy), *(NO,) * len(args))
            out = np.zeros(a.shape, dtype=dy.dtype)
            where: Any = (slice(None),) * axis + (np.asarray(index),)
            np.add.at(out, where, dy)
            return (NO, NO, project_a(cast_like(out, a)), *(NO,) * len(args))

        gather_draw_pullback.__name__ = gather_draw_pullback.__qualname__ = f"{name}_pullback"
        return y, gather_draw_pullback

    def draw_frule(tangents: tuple[Any, ...], source: Any, a: Any, *args: Any, **kwargs: Any) -> tuple[Any, Any]:
        if not isinstance(a, np.ndarray) or a.ndim == 0 or not differentiable(a):
            return method(source, a, *args, **kwargs), NO
        index, axis = positions(source, a, args, kwargs)
        y = method(source, a, *args, **kwargs)
        d = tangent_array(tangents[2], a)
        if d is None or isinstance(d, NotImplementedTangent):
            return y, output_tangent(d, y)
        return y, output_tangent(np.take(d, index, axis=axis), y)

    draw_rrule.__name__ = draw_rrule.__qualname__ = f"{name}_rrule"
    draw_frule.__name__ = draw_frule.__qualname__ = f"{name}_frule"
    rrule.register(method, cls, ARRAY_LIKE, Varargs(object))(draw_rrule)
    frule.register(method, cls, ARRAY_LIKE, Varargs(object))(draw_frule)


def _twin(source: Any) -> Any:
    """A generator in the same state as ``source`` (drawing from it leaves ``source`` unchanged)."""
    if isinstance(source, np.random.Generator):
        twin = np.random.Generator(type(source.bit_generator)())
        twin.bit_generator.state = source.bit_generator.state
        return twin
    twin_state = np.random.RandomState()
    twin_state.set_state(source.get_state())
    return twin_state


def _shuffle_error(cls: Any) -> None:
    message = (f"{cls.__name__}.shuffle shuffles its argument in place; use permutation(x) (it has rules): "
               "a derivative rule cannot differentiate a write into an existing array")

    def in_place_rrule(*args: Any, **kwargs: Any) -> Any:
        raise InPlaceOperationError(message)

    def in_place_frule(tangents: Any, *args: Any, **kwargs: Any) -> Any:
        raise InPlaceOperationError(message)

    in_place_rrule.__qualname__ = f"{cls.__name__}.shuffle_rrule"
    in_place_frule.__qualname__ = f"{cls.__name__}.shuffle_frule"
    rrule.register(cls.shuffle, cls, Varargs(object))(in_place_rrule)
    frule.register(cls.shuffle, cls, Varargs(object))(in_place_frule)


NON_DIFFERENTIABLE_SAMPLERS = (
    "rand", "randn", "random", "random_sample", "ranf", "sample", "standard_normal", "standard_cauchy",
    "standard_exponential", "randint", "random_integers", "integers", "bytes", "binomial", "poisson", "geometric",
    "hypergeometric", "logseries", "multinomial", "negative_binomial", "zipf", "multivariate_hypergeometric",
    "seed", "get_state", "set_state", "spawn",
)
"""Samplers (and state functions) whose outputs depend on no differentiable parameter."""

for _cls in SOURCES:
    for _name in PATHWISE:
        _pathwise_rules(_cls, _name)
    for _name in SHAPE_PARAMETERS:
        _shape_parameter_rules(_cls, _name)
    for _name in ("choice", "permutation"):
        _gather_draw_rules(_cls, _name)
    _shuffle_error(_cls)
    for _name in NON_DIFFERENTIABLE_SAMPLERS:
        if hasattr(_cls, _name):
            non_differentiable(getattr(_cls, _name))

for _f in (np.random.default_rng, np.random.seed, np.random.ranf, np.random.sample):
    non_differentiable(_f)
