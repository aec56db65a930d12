"""``primitive(f)``: any function with a chainrules rule as an autograd primitive.

autograd records every call of a *primitive* on its boxed values and asks the primitive's
VJP (reverse mode) or JVP (forward mode) maker for its derivative. The primitive made here
looks the rule up at call time, by the types of the arguments: ``rrule(AutogradConfig(), f,
*args)`` when autograd is recording for reverse mode, ``frule(AutogradConfig(), tangents,
f, *args)`` for forward mode. The rule computes the output once, together with what its
pullback needs (a factorization, say); the pullback is kept in the node autograd records,
so nothing is computed twice. Called on plain values, the primitive is ``f`` itself.

The same VJP/JVP makers (:func:`vjp_maker`, :func:`jvp_maker`) serve the functions autograd
already wraps (``autograd.numpy.*``, ``autograd.scipy.*``), see
:mod:`chainrules.interop.autograd.registration`; there autograd computes the output itself,
and the rule computes it again.
"""

from __future__ import annotations

import contextlib
import functools
import threading
import types
from collections.abc import Callable
from typing import Any

import numpy as np
from autograd.core import JVPNode, VJPNode, defjvp_argnums, defvjp_argnums
from autograd.tracer import Box, new_box

from chainrules.interop.autograd.config import AUTOGRAD_CONFIG, is_differentiable
from chainrules.interop.autograd.conversion import (
    HigherOrderDerivativeError,
    cotangent_from_autograd,
    cotangent_to_autograd,
    function_name,
    tangent_from_autograd,
    tangent_to_autograd,
)
from chainrules_core import NoTangent, ZeroTangent, frule, rrule

__all__ = ["NoRuleError", "jvp_maker", "primitive", "vjp_maker"]

_BOX_TYPES = Box.types  # the live set autograd adds box types to
_ndarray = np.ndarray
_NO = NoTangent()
_allocate: Any = object.__new__  # a node without running its maker: the rule already ran
_ZERO = ZeroTangent()


class NoRuleError(NotImplementedError):
    """autograd needs a derivative of a function for argument types no chainrules rule covers.

    Examples
    --------
    >>> import numpy as np
    >>> import autograd
    >>> from chainrules.interop.autograd import primitive
    >>> def no_rule(x):
    ...     return 2 * x
    >>> try:
    ...     autograd.grad(primitive(no_rule))(1.0)
    ... except NoRuleError as err:
    ...     print(err)
    no chainrules rrule for ...no_rule(float) (reverse mode, argnums (0,)); register one with ...)
    """


def _types(args: tuple[Any, ...] | list[Any]) -> str:
    return ", ".join(type(a).__name__ for a in args)


def _no_rule(f: Any, kind: str, args: tuple[Any, ...] | list[Any], argnums: tuple[int, ...]) -> NoRuleError:
    mode = "reverse mode" if kind == "rrule" else "forward mode"
    name = function_name(f)
    return NoRuleError(f"no chainrules {kind} for {name}({_types(args)}) ({mode}, argnums {tuple(argnums)}); "
                       f"register one with @{kind}.register({name.rsplit('.', 1)[-1]}, ...)")


def _higher_order(f: Any) -> HigherOrderDerivativeError:
    return HigherOrderDerivativeError(
        f"autograd is differentiating the derivative of {function_name(f)} (a second derivative, or forward "
        "over reverse): chainrules rules are written in NumPy and cannot be differentiated again")


def _check_unboxed(f: Any, values: Any) -> None:
    for v in values:
        if type(v) in _BOX_TYPES:
            raise _higher_order(f)


_CONFIG_RULES: set[Any] = set()
"""Functions with a rule that requires a config trait; only they are looked up with the config."""
_config_hooks: list[Any] = []
_config_lock = threading.Lock()
_watching = False
_PLAIN_CALLABLES = (types.FunctionType, types.BuiltinFunctionType, np.ufunc)


def _record_config_rule(f: Any, signature: Any) -> None:
    if signature.config is not None:
        with contextlib.suppress(TypeError):
            _CONFIG_RULES.add(f)


def _watch_config_rules() -> None:
    """Subscribe (once) to both registries' new-rule hooks, to know which functions need the config.

    Looking a rule up without a config is faster, and gives the same answer for a function
    none of whose rules requires a trait.
    """
    global _watching
    with _config_lock:
        if _watching:
            return
        _config_hooks.append(rrule.on_new_rule(_record_config_rule))
        _config_hooks.append(frule.on_new_rule(_record_config_rule))
        _watching = True


def _needs_config(f: Any) -> bool:
    """Whether ``f``'s rules must be looked up with the config (some requires a trait, or ``f`` is
    a class, a functor or a bound method, whose rules live under another key)."""
    if not _watching:
        _watch_config_rules()
    return type(f) not in _PLAIN_CALLABLES or f in _CONFIG_RULES


def _find_rrule(f: Any, alt: Any, args: Any, kwargs: dict[str, Any]) -> Any:
    if _needs_config(f):
        result = rrule(AUTOGRAD_CONFIG, f, *args, **kwargs)
    else:
        result = rrule(f, *args, **kwargs) if kwargs else rrule(f, *args)
    if result is None and alt is not None:
        result = rrule(AUTOGRAD_CONFIG, alt, *args, **kwargs)
    return result


def _find_frule(tangents: tuple[Any, ...], f: Any, alt: Any, args: Any, kwargs: dict[str, Any]) -> Any:
    if _needs_config(f):
        result = frule(AUTOGRAD_CONFIG, tangents, f, *args, **kwargs)
    else:
        result = frule(tangents, f, *args, **kwargs)
    if result is None and alt is not None:
        result = frule(AUTOGRAD_CONFIG, tangents, alt, *args, **kwargs)
    return result


def _vjp_of(f: Any, pullback: Callable[[Any], Any], argnums: tuple[int, ...], ans: Any,
            args: Any) -> Callable[[Any], tuple[Any, ...]]:
    """autograd's ``vjp(g)`` from a chainrules pullback: convert in, pull back, convert out.

    Real ndarrays, the common case, pass both ways without a call.
    """
    nargs = len(args)

    def chainrules_vjp(g: Any) -> tuple[Any, ...]:
        if type(g) is not _ndarray or g.dtype.kind == "c":
            g = cotangent_from_autograd(g, ans)
        cotangents = pullback(g)
        if len(cotangents) != nargs + 1:
            raise TypeError(f"the chainrules pullback of {function_name(f)} returned {len(cotangents)} cotangents "
                            f"for {nargs} arguments; expected {nargs + 1}")
        out = []
        for i in argnums:
            ct = cotangents[i + 1]
            out.append(ct if type(ct) is _ndarray and ct.dtype.kind != "c" else
                       cotangent_to_autograd(ct, args[i], f, i))
        return tuple(out)

    return chainrules_vjp


def _tangents(f: Any, argnums: tuple[int, ...], gs: Any, args: Any) -> tuple[Any, ...]:
    """``(NoTangent(), dx1, ..., dxn)`` for an frule: autograd's tangents where it has them."""
    tangents: list[Any] = [_NO]
    tangents.extend(_ZERO if is_differentiable(a) else _NO for a in args)
    for i, g in zip(argnums, gs):
        tangents[i + 1] = tangent_from_autograd(g, args[i])
    return tuple(tangents)


def vjp_maker(f: Any, alt: Any = None, fallback: Any = None) -> Callable[..., Any]:
    """An autograd VJP maker (for ``defvjp_argnums``) that calls chainrules' ``rrule`` for ``f``.

    Parameters
    ----------
    f : callable
        The function whose rules are looked up (by argument types, at call time).
    alt : callable, optional
        A second key to look rules up under when ``f`` has none (the primitive wrapping ``f``).
    fallback : callable, optional
        A VJP maker to use when no rule applies (autograd's own); without one, autograd gets
        a :class:`NoRuleError`.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.interop.autograd import vjp_maker
    >>> vjp = vjp_maker(np.sin)((0,), np.sin(0.5), (0.5,), {})
    >>> round(float(vjp(1.0)[0]), 6)
    0.877583
    """

    def chainrules_vjp_maker(argnums: tuple[int, ...], ans: Any, args: Any, kwargs: dict[str, Any]) -> Any:
        _check_unboxed(f, args)
        result = _find_rrule(f, alt, args, kwargs)
        if result is None:
            if fallback is not None:
                return fallback(argnums, ans, args, kwargs)
            raise _no_rule(f, "rrule", args, argnums)
        return _vjp_of(f, result[1], argnums, ans, args)

    chainrules_vjp_maker.chainrules_function = f  # type: ignore[attr-defined]
    return chainrules_vjp_maker


def jvp_maker(f: Any, alt: Any = None, fallback: Any = None) -> Callable[..., Any]:
    """An autograd JVP maker (for ``defjvp_argnums``) that calls chainrules' ``frule`` for ``f``.

    Parameters are those of :func:`vjp_maker`.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.interop.autograd import jvp_maker
    >>> jvp_maker(np.sin)((0,), (2.0,), np.sin(0.0), (0.0,), {})
    np.float64(2.0)
    """

    def chainrules_jvp_maker(argnums: tuple[int, ...], gs: Any, ans: Any, args: Any, kwargs: dict[str, Any]) -> Any:
        _check_unboxed(f, args)
        _check_unboxed(f, gs)
        result = _find_frule(_tangents(f, argnums, gs, args), f, alt, args, kwargs)
        if result is None:
            if fallback is not None:
                return fallback(argnums, gs, ans, args, kwargs)
            raise _no_rule(f, "frule", args, argnums)
        return tangent_to_autograd(result[1], ans, f)

    chainrules_jvp_maker.chainrules_function = f  # type: ignore[attr-defined]
    return chainrules_jvp_maker


def primitive(f: Callable[..., Any]) -> Callable[..., Any]:
    """Make ``f`` an autograd primitive whose derivatives come from chainrules' rules.

    Use it as a function (``expm = primitive(scipy.linalg.expm)``) or as a decorator. Rules
    are looked up when autograd differentiates a call, by the argument types: those
    registered for ``f`` (for a decorated function, for the function or the primitive), in
    any module, before or after this call. Reverse mode (``grad``, ``make_vjp``) uses the
    ``rrule``, forward mode (``make_jvp``) the ``frule``; the output is computed once, by the
    rule. Called on plain values (nothing to differentiate), the primitive just calls ``f``.

    Parameters
    ----------
    f : callable
        Any callable; an autograd primitive is unwrapped to the function it wraps.

    Returns
    -------
    callable
        The primitive. ``.fun`` is ``f``.

    Raises
    ------
    NoRuleError
        (When differentiated) no rule covers these argument types.
    NotImplementedDerivativeError
        (When differentiated) the rule returned ``not_implemented(...)`` for a derivative
        autograd needs.
    HigherOrderDerivativeError
        (When differentiated) autograd differentiates the derivative again.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.linalg
    >>> import autograd, autograd.numpy as anp
    >>> from chainrules.interop.autograd import primitive
    >>> expm = primitive(scipy.linalg.expm)            # autograd has no derivative of expm
    >>> g = autograd.grad(lambda t: anp.sum(expm(t * np.array([[0.0, 1.0], [-1.0, 0.0]]))))(0.3)
    >>> round(float(g), 6)                             # d/dt of 2 cos(t)
    -0.59104
    """
    raw: Any = getattr(f, "fun", f) if getattr(f, "_is_autograd_primitive", False) else f

    @functools.wraps(raw)
    def chainrules_primitive(*args: Any, **kwargs: Any) -> Any:
        top = -1
        boxes: list[tuple[int, Any]] | None = None
        nested = False  # boxes of an enclosing trace: autograd differentiates this derivative again
        for i, a in enumerate(args):
            if type(a) in _BOX_TYPES:
                trace = a._trace
                if trace > top:
                    nested = boxes is not None
                    top, boxes = trace, [(i, a)]
                elif trace == top:
                    boxes.append((i, a))  # type: ignore[union-attr]
                else:
                    nested = True
        if boxes is None:
            return raw(*args, **kwargs)
        argvals = list(args)
        argnums_list = []
        parent_list = []
        for i, box in boxes:
            value = argvals[i] = box._value
            if type(value) in _BOX_TYPES:
                nested = True
            argnums_list.append(i)
            parent_list.append(box._node)
        argnums = tuple(argnums_list)
        parents = tuple(parent_list)
        node_type = type(parents[0])
        if nested and node_type in (VJPNode, JVPNode):
            raise _higher_order(raw)
        if node_type is VJPNode:
            result = _find_rrule(raw, chainrules_primitive, argvals, kwargs)
            if result is None:
                raise _no_rule(raw, "rrule", argvals, argnums)
            ans, pullback = result
            node: Any = _allocate(VJPNode)
            node.parents = parents
            node.vjp = _vjp_of(raw, pullback, argnums, ans, argvals)
        elif node_type is JVPNode:
            tangents = _tangents(raw, argnums, [p.g for p in parents], argvals)
            result = _find_frule(tangents, raw, chainrules_primitive, argvals, kwargs)
            if result is None:
                raise _no_rule(raw, "frule", argvals, argnums)
            ans, dy = result
            node = _allocate(JVPNode)
            node.g = tangent_to_autograd(dy, ans, raw)
        else:  # another kind of node: let it call the makers registered below
            ans = chainrules_primitive(*argvals, **kwargs)
            node = node_type(ans, chainrules_primitive, argvals, kwargs, argnums, parents)
        return new_box(ans, top, node)

    chainrules_primitive.fun = raw  # type: ignore[attr-defined]
    chainrules_primitive._is_autograd_primitive = True  # type: ignore[attr-defined]
    chainrules_primitive._chainrules_primitive = True  # type: ignore[attr-defined]
    defvjp_argnums(chainrules_primitive, vjp_maker(raw, alt=chainrules_primitive))
    defjvp_argnums(chainrules_primitive, jvp_maker(raw, alt=chainrules_primitive))
    return chainrules_primitive
