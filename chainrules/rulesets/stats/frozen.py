"""Frozen distributions: ``norm(mu, sigma)``, ``norm.freeze(mu, sigma)`` and the methods of the frozen object.

Calling a distribution (``rv_generic.__call__``, the same as ``rv_generic.freeze``) returns
a frozen distribution (``rv_continuous_frozen`` or ``rv_discrete_frozen``) that stores its
arguments: ``.args`` (given by position) and ``.kwds`` (by keyword). Its tangent is the
structural tangent of those arguments::

    Tangent(rv_continuous_frozen, args=Tangent(tuple, dmu, dsigma))

Keyword arguments are constants (the core's convention): ``norm(loc=mu)`` has no tangent.
The fields ``dist``, ``a`` and ``b`` (the generator and the standardized support) are not
parameters; a cotangent with a field other than ``args`` is rejected.

Every method of a frozen distribution is a call of the distribution's own method with the
stored arguments (``frozen.logpdf(x)`` is ``frozen.dist.logpdf(x, *frozen.args,
**frozen.kwds)``), so its rules are that call's rules: the pullback of ``frozen.logpdf(x)``
returns the cotangent of ``x`` and, for the frozen object, ``Tangent(..., args=...)`` built
from the cotangents of the stored arguments, which the pullback of ``norm(mu, sigma)`` then
passes on to ``mu`` and ``sigma``. Nothing here depends on the distribution: every
distribution whose methods have rules (continuous or discrete) has frozen rules too, and a
method without a rule for its distribution has none frozen either (``rrule`` answers
``None``).

Examples
--------
>>> import scipy.stats as st
>>> import chainrules
>>> from chainrules import rrule, unthunk
>>> frozen, freeze_pullback = rrule(st.norm, 1.0, 2.0)
>>> y, pullback = rrule(frozen.logpdf, 0.5)
>>> _, dfrozen, dx = pullback(1.0)
>>> _, dmu, dsigma = freeze_pullback(unthunk(dfrozen))
>>> float(unthunk(dx)), float(dmu), float(dsigma)   # z = -0.25: -z/sigma, z/sigma, (z^2 - 1)/sigma
(0.125, -0.125, -0.46875)
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import scipy.stats as st
from scipy.stats._distn_infrastructure import rv_continuous_frozen, rv_discrete_frozen, rv_frozen, rv_generic

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
    backing,
    cotangent_projector,
    differentiable,
    frule,
    rrule,
    sample_inputs,
    unthunk,
)
from chainrules_core.projection import StructuralProjector
from chainrules_core.rules import _callable_name

__all__ = ["FROZEN_METHODS", "frozen_tangent", "read_frozen_tangent", "register_for_testing", "register_frozen_method"]

_NO = NoTangent()
_ZERO = ZeroTangent()

FROZEN_METHODS: dict[Callable[..., Any], str] = {
    rv_continuous_frozen.pdf: "pdf", rv_continuous_frozen.logpdf: "logpdf",
    rv_frozen.cdf: "cdf", rv_frozen.logcdf: "logcdf", rv_frozen.sf: "sf", rv_frozen.logsf: "logsf",
    rv_frozen.ppf: "ppf", rv_frozen.isf: "isf", rv_frozen.median: "median", rv_frozen.mean: "mean",
    rv_frozen.var: "var", rv_frozen.std: "std", rv_frozen.entropy: "entropy", rv_frozen.moment: "moment",
    rv_frozen.interval: "interval",
}
"""The methods of frozen distributions with rules here, and the distribution method each one calls. The discrete
distributions' own frozen methods (``rv_discrete_frozen.pmf``, ``logpmf``) are registered with the discrete rules,
through :func:`register_frozen_method`."""


# ---- the tangent of a frozen distribution ----------------------------------------------------------------
def frozen_tangent(frozen: Any, dargs: Sequence[Any]) -> Any:
    """The tangent of a frozen distribution from the tangents of its positional arguments.

    ``NoTangent()`` when no argument is differentiated, ``ZeroTangent()`` when every
    tangent is zero, else ``Tangent(type(frozen), args=Tangent(tuple, *dargs))``.

    Examples
    --------
    >>> import scipy.stats as st
    >>> from chainrules_core import NoTangent
    >>> from chainrules.rulesets.stats.frozen import frozen_tangent
    >>> frozen_tangent(st.norm(1.0, 2), [0.5, NoTangent()])
    Tangent(rv_continuous_frozen, args=Tangent(tuple, 0.5, NoTangent()))
    """
    dargs = [unthunk(d) for d in dargs]
    if all(isinstance(d, NoTangent) for d in dargs):
        return _NO
    if all(isinstance(d, AbstractZero) for d in dargs):
        return _ZERO
    return Tangent(type(frozen), args=Tangent(tuple, *dargs))


def read_frozen_tangent(t: Any, frozen: Any, f: Any, what: str = "output cotangent") -> list[Any]:
    """The tangents of a frozen distribution's positional arguments, read from its (co)tangent ``t``.

    Accepts ``Tangent(<frozen class>, args=...)`` (``args`` a ``Tangent`` of a tuple, a tuple
    or a list, one entry per argument), zeros (read as zeros) and thunks of these. Anything
    else (``None`` too), a ``Tangent`` with another non-zero field, or ``args`` of the wrong length raise a
    ``ProjectionError`` naming ``f``.

    Examples
    --------
    >>> import scipy.stats as st
    >>> from chainrules_core import Tangent, ZeroTangent
    >>> from chainrules.rulesets.stats.frozen import read_frozen_tangent
    >>> frozen = st.norm(1.0, 2.0)
    >>> read_frozen_tangent(Tangent(type(frozen), args=(0.5, 0.25)), frozen, st.norm)
    [0.5, 0.25]
    >>> read_frozen_tangent(ZeroTangent(), frozen, st.norm)
    [ZeroTangent(), ZeroTangent()]
    """
    n = len(frozen.args)
    t = unthunk(t)
    if isinstance(t, AbstractZero):
        return [_ZERO] * n
    name = _callable_name(f) if not isinstance(f, rv_generic) else f"scipy.stats.{f.name} (rv_generic.__call__)"
    if not isinstance(t, Tangent) or (not issubclass(type(frozen), t.primal_type) and not issubclass(
            t.primal_type, rv_frozen)):
        kind = type(t).__name__ if not isinstance(t, Tangent) else f"Tangent({t.primal_type.__name__})"
        raise ProjectionError(f"{name} pullback: {what} is a {kind}, expected a Tangent({type(frozen).__name__}, "
                              "args=...) of the frozen distribution, or a zero")
    stored = backing(t)
    fields = stored if isinstance(stored, dict) else {}
    for key, value in fields.items():
        if key != "args" and not isinstance(unthunk(value), AbstractZero):
            raise ProjectionError(f"{name} pullback: {what} has a field {key!r}; the tangent of a frozen "
                                  "distribution has the field 'args' only (the positional arguments)")
    args = unthunk(fields.get("args", _ZERO))
    if isinstance(args, AbstractZero):
        return [_ZERO] * n
    if isinstance(args, NotImplementedTangent):
        return [args] * n
    parts = list(backing(args)) if isinstance(args, Tangent) else list(args) if isinstance(args, (tuple, list)) \
        else None
    if parts is None or len(parts) != n:
        got = f"{len(parts)} entries" if parts is not None else f"a {type(args).__name__}"
        raise ProjectionError(f"{name} pullback: {what}.args has {got}, expected {n} (one per positional "
                              "argument of the frozen distribution)")
    return [unthunk(p) for p in parts]


@ProjectTo.register(rv_frozen)
def _project_frozen(x: Any) -> Any:
    """The tangent space of a frozen distribution: its positional arguments (``args``)."""
    return StructuralProjector(type(x), {"args": cotangent_projector(tuple(x.args))})


# ---- freezing ------------------------------------------------------------------------------------------
def _argument_tangent(arg: Any, d: Any) -> Any:
    """A (co)tangent of one argument of the freeze, in the argument's space."""
    if not differentiable(arg):
        return _NO
    d = unthunk(d)
    if d is None or isinstance(d, AbstractZero):
        return _ZERO
    if isinstance(d, NotImplementedTangent):
        return d
    return cotangent_projector(arg)(d)


def _freeze_rules(head: int, method: Any = None) -> tuple[Callable[..., Any], Callable[..., Any]]:
    """The rules of ``dist(*args)`` (``head = 0``: a functor rule, the instance's tangent first) and of
    ``dist.freeze(*args)`` (``head = 1``: a method rule, the function's tangent, then the instance's)."""

    def freeze_rrule(dist: Any, *args: Any, **kwargs: Any) -> Any:
        frozen = dist(*args, **kwargs)

        def freeze_pullback(dfrozen: Any) -> tuple[Any, ...]:
            parts = read_frozen_tangent(dfrozen, frozen, dist if head == 0 else method)
            return (*(_NO,) * (head + 1), *(_argument_tangent(a, d) for a, d in zip(args, parts)))

        return frozen, freeze_pullback

    def freeze_frule(tangents: Any, dist: Any, *args: Any, **kwargs: Any) -> Any:
        frozen = dist(*args, **kwargs)
        dargs = [_argument_tangent(a, d) for a, d in zip(args, tangents[1 + head:])]
        return frozen, frozen_tangent(frozen, dargs)

    return freeze_rrule, freeze_frule


_functor_rrule, _functor_frule = _freeze_rules(0)
rrule.register_functor(rv_generic, Varargs(object))(_functor_rrule)
frule.register_functor(rv_generic, Varargs(object))(_functor_frule)
for _method in (rv_generic.freeze, rv_generic.__call__):
    _method_rrule, _method_frule = _freeze_rules(1, _method)
    rrule.register(_method, rv_generic, Varargs(object))(_method_rrule)
    frule.register(_method, rv_generic, Varargs(object))(_method_frule)


# ---- the methods of frozen distributions -------------------------------------------------------------------
def _frozen_cotangent(frozen: Any, rest: tuple[Any, ...]) -> Any:
    return frozen_tangent(frozen, rest)


def _frozen_method_rules(frozen_method: Callable[..., Any], name: str,
                         ) -> tuple[Callable[..., Any], Callable[..., Any]]:
    def frozen_method_rrule(frozen: Any, *lead: Any, **kwargs: Any) -> Any:
        method = getattr(type(frozen.dist), name)
        result = rrule(method, frozen.dist, *lead, *frozen.args, **kwargs, **frozen.kwds)
        if result is None:
            return None
        y, pullback = result
        nlead = len(lead)

        def frozen_method_pullback(dy: Any) -> tuple[Any, ...]:
            cotangents = pullback(dy)  # (method, distribution, *lead, *args)
            dlead, dargs = cotangents[2:2 + nlead], cotangents[2 + nlead:]
            dfrozen: Any
            if all(isinstance(d, NoTangent) for d in dargs):
                dfrozen = _NO
            elif all(isinstance(d, (AbstractZero, NotImplementedTangent)) for d in dargs):
                dfrozen = frozen_tangent(frozen, dargs)
            else:
                dfrozen = Thunk(functools.partial(_frozen_cotangent, frozen, dargs))
            return (_NO, dfrozen, *dlead)

        frozen_method_pullback.__name__ = frozen_method_pullback.__qualname__ = f"frozen_{name}_pullback"
        return y, frozen_method_pullback

    def frozen_method_frule(tangents: Any, frozen: Any, *lead: Any, **kwargs: Any) -> Any:
        method = getattr(type(frozen.dist), name)
        dfrozen = _ZERO if tangents[1] is None else tangents[1]
        dargs = read_frozen_tangent(dfrozen, frozen, frozen_method, what="tangent")
        return frule((_NO, _NO, *tangents[2:], *dargs), method, frozen.dist, *lead, *frozen.args, **kwargs,
                     **frozen.kwds)

    frozen_method_rrule.__name__ = f"frozen_{name}_rrule"
    frozen_method_frule.__name__ = f"frozen_{name}_frule"
    return frozen_method_rrule, frozen_method_frule


def register_frozen_method(frozen_method: Callable[..., Any], name: str) -> None:
    """Register the rules of a frozen distribution's method: those of ``name`` on the distribution, called with the
    stored arguments.

    Parameters
    ----------
    frozen_method : callable
        The function on the frozen class (``rv_discrete_frozen.pmf``).
    name : str
        The distribution method it calls (``"pmf"``): ``frozen.pmf(k)`` is
        ``frozen.dist.pmf(k, *frozen.args, **frozen.kwds)``.

    Examples
    --------
    >>> from scipy.stats._distn_infrastructure import rv_frozen
    >>> from chainrules.rulesets.stats.frozen import register_frozen_method
    >>> register_frozen_method(rv_frozen.logcdf, "logcdf")   # (already registered here)
    """
    owner = next(k for k in (rv_continuous_frozen, rv_discrete_frozen, rv_frozen) if frozen_method in vars(k).values())
    r, f = _frozen_method_rules(frozen_method, name)
    rrule.register(frozen_method, owner, Varargs(object))(r)
    frule.register(frozen_method, owner, Varargs(object))(f)


for _frozen_method, _name in FROZEN_METHODS.items():
    register_frozen_method(_frozen_method, _name)


# ---- testing -----------------------------------------------------------------------------------------------
def register_for_testing() -> None:
    """Teach the testers' finite differences and random tangents the parameters of frozen distributions.

    Called by the sample generators (the testers are not imported with the rules).
    """
    from chainrules.testing.tree import register_tree_node

    def flatten(x: Any) -> tuple[list[Any], Any]:
        return list(x.args), (x.dist, dict(x.kwds), len(x.args), type(x))

    def unflatten(aux: Any, children: list[Any]) -> Any:
        dist, kwds, _, _ = aux
        return dist.freeze(*children, **kwds)

    def flatten_tangent(dx: Any, aux: Any) -> list[Any]:
        args = unthunk(dx.args) if isinstance(dx, Tangent) else _ZERO
        if isinstance(args, AbstractZero):
            return [_ZERO] * aux[2]
        return list(backing(args)) if isinstance(args, Tangent) else list(args)

    def unflatten_tangent(aux: Any, children: list[Any]) -> Any:
        return Tangent(aux[3], args=Tangent(tuple, *children))

    register_tree_node(rv_frozen, flatten, unflatten, flatten_tangent=flatten_tangent,
                       unflatten_tangent=unflatten_tangent)


@sample_inputs(rv_generic, rv_generic.freeze, rv_generic.__call__)
def _freeze_samples(rng: np.random.Generator) -> Any:
    from chainrules.rulesets.stats._continuous import all_models

    register_for_testing()
    yield Sample(st.norm, 1.0, 2.0, label="norm(mu, sigma)")
    yield Sample(st.norm, np.array([0.5, 1.0]), 2.0, label="norm(mu, sigma), mu an array")
    yield Sample(st.norm, 1.0, fkwargs={"scale": 2.0}, label="norm(mu, scale=sigma): sigma a constant")
    # every continuous distribution with rules, at its first shape sample: freezing is generic, and a sample per
    # distribution is what says (and checks) that it applies to that distribution
    for model in all_models():
        if model.name == "norm":
            continue
        shapes = model.shape_samples[0] if model.shape_samples else ()
        yield Sample(model.dist, *shapes, 0.25, 1.5, label=f"{model.name}{(*shapes, 0.25, 1.5)}")


def _frozen(rng: np.random.Generator) -> list[Any]:
    register_for_testing()
    return [st.norm(0.5, 2.0), st.norm(np.array([0.5, 1.0]), scale=2.0)]


def _frozen_samples_of(name: str) -> Callable[[np.random.Generator], Any]:
    def frozen_samples(rng: np.random.Generator) -> Any:
        for frozen in _frozen(rng):
            label = f"frozen {frozen.dist.name}{frozen.args}{' ' + str(frozen.kwds) if frozen.kwds else ''}"
            if name in ("ppf", "isf"):
                yield Sample(frozen, np.array([0.2, 0.7]), label=f"{label}.{name}(q)")
            elif name in ("pdf", "logpdf", "cdf", "logcdf", "sf", "logsf"):
                yield Sample(frozen, np.array([-0.3, 1.7]), label=f"{label}.{name}(x)")
            elif name == "moment":
                yield Sample(frozen, 3, label=f"{label}.moment(3)")
            elif name == "interval":
                yield Sample(frozen, 0.8, label=f"{label}.interval(0.8)")
            else:
                yield Sample(frozen, label=f"{label}.{name}()")

    frozen_samples.__name__ = f"frozen_{name}_samples"
    return frozen_samples


for _frozen_method, _name in FROZEN_METHODS.items():
    sample_inputs(_frozen_method)(_frozen_samples_of(_name))
