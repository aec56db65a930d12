"""How the methods of ``scipy.stats`` distributions are called, and the one way their rules are registered.

SciPy's univariate distributions are objects: ``scipy.stats.norm`` is the instance of
``norm_gen``, a subclass of ``rv_continuous``; ``scipy.stats.poisson`` of ``poisson_gen``
(``rv_discrete``). Their methods are reached three ways, and all three are differentiable:

1. **Bound methods**: ``norm.logpdf(x, loc, scale)``. The core normalises a bound method to
   the function on the class with the instance first, so this is
   ``rv_continuous.logpdf(norm, x, loc, scale)``: ``norm_gen`` inherits ``logpdf`` from
   ``rv_continuous`` (and ``mean``, ``var``, ``moment``, ... from ``rv_generic``), so the key
   the rules are registered under is that one function for every distribution, and the
   rule is chosen by the type of the first argument, the distribution's class. A rule
   module registers, per method, one rule for the union of the classes it covers
   (:func:`register_method`); a class not covered has no rule (``rrule`` answers ``None``),
   and a subclass (``erlang_gen`` of ``gamma_gen``) gets its base class's rule unless it
   has its own. The pullback returns ``NoTangent()`` for the distribution object (it holds
   no parameters: those are the method's arguments), right after the method's own
   ``NoTangent()``.
2. **Frozen distributions**: ``norm(mu, sigma)`` (``rv_generic.__call__``, or
   ``norm.freeze(mu, sigma)``) builds an ``rv_continuous_frozen`` that stores the arguments
   in ``.args`` (positional) and ``.kwds`` (keywords); its tangent is the structural
   ``Tangent(rv_continuous_frozen, args=Tangent(tuple, dmu, dsigma))``. ``frozen.logpdf(x)``
   is ``frozen.dist.logpdf(x, *frozen.args, **frozen.kwds)`` and its rule is that call's
   rule, whose cotangents of the ``args`` come back in the frozen object's ``Tangent``. See
   :mod:`chainrules.rulesets.stats.frozen`: nothing there depends on the distribution, so
   every distribution with rules for its methods has frozen rules too.
3. **Keywords**: shape parameters, ``loc`` and ``scale`` given by keyword
   (``norm.logpdf(x, loc=mu)``, ``norm(loc=mu)``) are constants: the core's calling
   convention is that keyword arguments are never differentiated. Give a parameter by
   position to differentiate it.

Arguments are differentiated when they are floating (Python floats, NumPy floating scalars
and arrays); integers and booleans get ``NoTangent()`` (the library's convention: an
integer is a count or an index), so ``gamma.logpdf(x, 2)`` does not differentiate ``a`` but
``gamma.logpdf(x, 2.0)`` does. The argument ``order`` of ``moment`` is an index whatever its
type.

API (for the rule modules of this package, and for anyone adding distributions)
-------------------------------------------------------------------------------
* :class:`MethodCall`: one call, parsed as SciPy parses it: which positional argument
  binds to which parameter (``x``, the shapes, ``loc``, ``scale``), and every parameter's
  value, given or default.
* A **kernel** is a function ``kernel(call, y, names) -> partials``: given the parsed call,
  the primal output ``y`` and the names of the arguments to differentiate, it returns a
  mapping from each name to the partial derivative of ``y`` with respect to it, an array
  (or number) broadcastable to ``y``'s shape; ``None`` for a derivative that is zero
  everywhere, ``NoTangent()`` for an argument that is not differentiated, or a
  ``NotImplementedTangent`` (``not_implemented("reason")``) for a derivative nobody has
  written yet. For a method with several outputs (``interval``) it returns one mapping per
  output.
* :func:`register_method` registers the frule and the rrule of one method for a mapping
  from distribution classes to kernels. The rules call SciPy's method for the primal (so the
  value is exactly SciPy's), read the cotangent with ``read_cotangent``, call the kernel once
  (lazily, inside the cotangents' thunks when there are several), sum each cotangent over
  the axes broadcasting added and project it onto its argument (float32 stays float32).
* :func:`parameter_names` and :func:`lead_names`: the names SciPy binds positional
  arguments to.

Examples
--------
>>> import scipy.stats as st
>>> from chainrules.rulesets.stats._distribution_methods import MethodCall
>>> call = MethodCall(type(st.gamma).logpdf, st.gamma, (1.5, 2.0), {"scale": 3.0})
>>> call.bound, call.shapes, call.loc, call.scale
(('x', 'a'), (2.0,), 0.0, 3.0)
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from scipy.stats._distn_infrastructure import rv_continuous, rv_generic

from chainrules_core import (
    AbstractZero,
    NoTangent,
    NotImplementedTangent,
    Tangent,
    Thunk,
    Varargs,
    ZeroTangent,
    differentiable,
    frule,
    read_cotangent,
    read_cotangents,
    rrule,
    unthunk,
)
from chainrules_core.scalar_rules import fit_tangent, project_argument, zero_cotangent

__all__ = ["FIXED", "Kernel", "MethodCall", "lead_names", "parameter_names", "register_method"]

Kernel = Callable[["MethodCall", Any, Sequence[str]], Any]
"""``kernel(call, y, names)``: the partials of ``y`` in the arguments ``names`` (see the module docstring)."""

FIXED = frozenset({"order"})
"""Arguments of the methods that are indices, never differentiated whatever their type."""

_NO = NoTangent()
_ZERO = ZeroTangent()


def parameter_names(dist: Any) -> tuple[str, ...]:
    """The distribution's parameters in SciPy's positional order: the shapes, ``loc`` and (continuous) ``scale``.

    Examples
    --------
    >>> import scipy.stats as st
    >>> from chainrules.rulesets.stats._distribution_methods import parameter_names
    >>> parameter_names(st.beta), parameter_names(st.norm), parameter_names(st.poisson)
    (('a', 'b', 'loc', 'scale'), ('loc', 'scale'), ('mu', 'loc'))
    """
    shapes = tuple(s.strip() for s in dist.shapes.split(",")) if dist.shapes else ()
    return shapes + (("loc", "scale") if isinstance(dist, rv_continuous) else ("loc",))


@functools.cache
def lead_names(method: Callable[..., Any]) -> tuple[str, ...]:
    """The method's own arguments, before the distribution's parameters (``("x",)`` for ``logpdf``).

    Examples
    --------
    >>> import scipy.stats as st
    >>> from chainrules.rulesets.stats._distribution_methods import lead_names
    >>> lead_names(type(st.norm).ppf), lead_names(type(st.norm).mean), lead_names(type(st.norm).interval)
    (('q',), (), ('confidence',))
    """
    names = []
    for p in list(inspect.signature(method).parameters.values())[1:]:  # after self
        if p.kind is not p.POSITIONAL_OR_KEYWORD:
            break
        names.append(p.name)
    return tuple(names)


class MethodCall:
    """One call of a distribution's method, parsed the way SciPy parses it.

    Parameters
    ----------
    method : callable
        The method's function on the class (``rv_continuous.logpdf``).
    dist : rv_generic
        The distribution instance.
    args, kwargs
        The arguments after the instance, as given.

    Attributes
    ----------
    bound : tuple of str
        For each positional argument, the name it binds to (``"x"``, a shape, ``"loc"``...).
    values : dict
        Every argument's value by name (positional or keyword), with ``loc = 0.0`` and
        (continuous) ``scale = 1.0`` when not given.
    shapes : tuple
        The shape parameters' values, in SciPy's order.
    loc, scale : Any
        The location and (continuous distributions) scale.
    """

    __slots__ = ("args", "bound", "dist", "kwargs", "method", "shapes", "values")

    def __init__(self, method: Callable[..., Any], dist: Any, args: tuple[Any, ...], kwargs: Mapping[str, Any]) -> None:
        self.method, self.dist, self.args, self.kwargs = method, dist, args, dict(kwargs)
        lead = lead_names(method)
        params = parameter_names(dist)
        names = lead + params
        if len(args) > len(names):  # SciPy raised on the primal already; never reached from a rule
            raise TypeError(f"{getattr(method, '__qualname__', method)}: {len(args)} positional arguments, at "
                            f"most {len(names)} ({', '.join(names)})")
        self.bound = names[:len(args)]
        values = dict(zip(self.bound, args))
        for key, value in kwargs.items():
            values.setdefault(key, value)
        values.setdefault("loc", 0.0)
        if "scale" in params:
            values.setdefault("scale", 1.0)
        self.values = values
        self.shapes = tuple(values.get(name) for name in params[: len(params) - (2 if "scale" in params else 1)])

    @property
    def loc(self) -> Any:
        return self.values["loc"]

    @property
    def scale(self) -> Any:
        return self.values.get("scale", 1.0)

    def lead(self, i: int = 0) -> Any:
        """The value of the method's ``i``-th own argument (``x`` of ``logpdf``, ``q`` of ``ppf``)."""
        return self.values[lead_names(self.method)[i]]

    def __repr__(self) -> str:
        return (f"MethodCall({getattr(self.method, '__qualname__', self.method)}, {type(self.dist).__name__}, "
                f"bound={self.bound})")


def _kernel_for(kernels: Mapping[type, Kernel], cls: type) -> Kernel | None:
    for klass in cls.__mro__:
        kernel = kernels.get(klass)
        if kernel is not None:
            return kernel
    return None


class _Partials:
    """The kernel's answer for one rule call, computed on first use (inside a thunk)."""

    __slots__ = ("call", "kernel", "names", "value", "y")

    def __init__(self, kernel: Kernel, call: MethodCall, y: Any, names: tuple[str, ...]) -> None:
        self.kernel, self.call, self.y, self.names = kernel, call, y, names
        self.value: Any = None

    def get(self) -> Any:
        if self.value is None:
            self.value = self.kernel(self.call, self.y, self.names)
        return self.value


def _output_parts(partials: Any, nout: int) -> Sequence[Mapping[str, Any]]:
    return (partials,) if nout == 1 else partials


def _cotangent(arg: Any, name: str, partials: _Partials, dys: Sequence[Any], nout: int) -> Any:
    """The cotangent of one argument: ``sum_k partial_k * dy_k``, unbroadcast and projected."""
    total: Any = None
    for part, dy in zip(_output_parts(partials.get(), nout), dys):
        if dy is None:
            continue
        p = part.get(name)
        if isinstance(p, (NotImplementedTangent, NoTangent)):
            return p
        if isinstance(dy, NotImplementedTangent):
            return dy
        if p is None:
            continue
        term = p * dy
        total = term if total is None else total + term
    return zero_cotangent(arg) if total is None else project_argument(arg, total)


def _make_rules(method: Callable[..., Any], kernels: Mapping[type, Kernel], fixed: frozenset[str],
                nout: int) -> tuple[Callable[..., Any], Callable[..., Any]]:
    name = method.__name__

    def live_names(call: MethodCall, y: Any) -> list[bool]:
        outputs = y if nout > 1 else (y,)
        if not any(differentiable(out) for out in outputs):
            return [False] * len(call.args)
        return [differentiable(a) and b not in fixed for a, b in zip(call.args, call.bound)]

    def distribution_method_rrule(dist: Any, *args: Any, **kwargs: Any) -> Any:
        kernel = _kernel_for(kernels, type(dist))
        if kernel is None:
            return None
        y = method(dist, *args, **kwargs)
        call = MethodCall(method, dist, args, kwargs)
        live = live_names(call, y)
        partials = _Partials(kernel, call, y, tuple(b for b, ok in zip(call.bound, live) if ok))
        several = sum(live) > 1

        def distribution_method_pullback(dy: Any) -> tuple[Any, ...]:
            if nout == 1:
                read = read_cotangent(dy, y, method)
                dys: Any = read if isinstance(read, (AbstractZero, NotImplementedTangent)) else [read]
            else:
                dys = read_cotangents(dy, y, method)
                if not isinstance(dys, (AbstractZero, NotImplementedTangent)) and all(d is None for d in dys):
                    dys = _ZERO
            if isinstance(dys, AbstractZero):
                return (_NO, _NO, *(_ZERO if ok else _NO for ok in live))
            if isinstance(dys, NotImplementedTangent):
                return (_NO, _NO, *(dys if ok else _NO for ok in live))
            out: list[Any] = [_NO, _NO]
            for a, b, ok in zip(args, call.bound, live):
                if not ok:
                    out.append(_NO)
                elif several:
                    out.append(Thunk(functools.partial(_cotangent, a, b, partials, dys, nout)))
                else:
                    out.append(_cotangent(a, b, partials, dys, nout))
            return tuple(out)

        distribution_method_pullback.__name__ = distribution_method_pullback.__qualname__ = f"{name}_pullback"
        return y, distribution_method_pullback

    def distribution_method_frule(tangents: Any, dist: Any, *args: Any, **kwargs: Any) -> Any:
        kernel = _kernel_for(kernels, type(dist))
        if kernel is None:
            return None
        y = method(dist, *args, **kwargs)
        call = MethodCall(method, dist, args, kwargs)
        live = live_names(call, y)
        moving = []
        for b, ok, dx in zip(call.bound, live, tangents[2:]):
            dx = unthunk(dx)
            if ok and dx is not None and not isinstance(dx, AbstractZero):
                if isinstance(dx, NotImplementedTangent):
                    return y, dx
                moving.append((b, dx))
        if not moving:
            return y, _ZERO
        parts = _output_parts(kernel(call, y, tuple(b for b, _ in moving)), nout)
        outputs = y if nout > 1 else (y,)
        dys = []
        for part, out in zip(parts, outputs):
            total: Any = None
            for b, dx in moving:
                p = part.get(b)
                if isinstance(p, NotImplementedTangent):
                    return y, p
                if p is None or isinstance(p, NoTangent):
                    continue
                term = p * dx
                total = term if total is None else total + term
            dys.append(_ZERO if total is None else fit_tangent(total, out))
        return y, (dys[0] if nout == 1 else Tangent(tuple, *dys))

    for rule, kind in ((distribution_method_rrule, "rrule"), (distribution_method_frule, "frule")):
        rule.__name__ = f"{name}_{kind}"
        rule.__qualname__ = f"{method.__qualname__}_{kind}"
        rule.__doc__ = f"The {kind} of ``{method.__qualname__}`` for the distributions of its kernel table."
    return distribution_method_rrule, distribution_method_frule


def register_method(method: Callable[..., Any], kernels: Mapping[type, Kernel], *,
                    fixed: frozenset[str] | Sequence[str] = FIXED, nout: int = 1) -> None:
    """Register the frule and the rrule of a distribution method for the classes of ``kernels``.

    Parameters
    ----------
    method : callable
        The function on the class: ``rv_continuous.logpdf``, ``rv_generic.mean``,
        ``rv_discrete.pmf``... (``type(scipy.stats.norm).logpdf`` finds it).
    kernels : mapping
        Distribution class -> kernel (see the module docstring). Subclasses of a class are
        served by its kernel unless they have their own.
    fixed : collection of str
        Names of the method's arguments that are never differentiated (default: ``order``).
    nout : int
        The number of outputs (2 for ``interval``, which returns a tuple).

    Examples
    --------
    >>> import numpy as np, scipy.stats as st
    >>> from chainrules import rrule, unthunk
    >>> from chainrules.rulesets.stats._distribution_methods import register_method
    >>> class shifted_gen(type(st.norm)):
    ...     pass
    >>> shifted = shifted_gen(name="shifted")
    >>> def mean_kernel(call, y, names):
    ...     return {"loc": 1.0, "scale": 0.0}
    >>> register_method(type(st.norm).mean, {shifted_gen: mean_kernel})
    >>> y, pullback = rrule(shifted.mean, 2.0, 3.0)
    >>> [unthunk(c) for c in pullback(1.0)]
    [NoTangent(), NoTangent(), 1.0, 0.0]
    """
    fixed = frozenset(fixed)
    table = dict(kernels)
    rrule_impl, frule_impl = _make_rules(method, table, fixed, nout)
    classes = tuple(table)
    rrule.register(method, classes, Varargs(object))(rrule_impl)
    frule.register(method, classes, Varargs(object))(frule_impl)


def is_distribution(x: Any) -> bool:
    """Whether ``x`` is a univariate ``scipy.stats`` distribution object (not frozen).

    Examples
    --------
    >>> import scipy.stats as st
    >>> from chainrules.rulesets.stats._distribution_methods import is_distribution
    >>> is_distribution(st.norm), is_distribution(st.norm(1.0, 2.0))
    (True, False)
    """
    return isinstance(x, rv_generic)
