"""``primitive(f)``: any function with a chainrules rule as an autograd primitive.

autograd records every call of a *primitive* on its boxed values and asks the primitive's
VJP (reverse mode) or JVP (forward mode) maker for its derivative. The primitive made here
looks the rule up at call time, by the types of the arguments: ``rrule(AutogradConfig(), f,
*args)`` when autograd is recording for reverse mode, ``frule(AutogradConfig(), tangents,
f, *args)`` for forward mode. The rule computes the output once, together with what its
pullback needs (a factorization, say); the pullback is kept in the node autograd records,
so nothing is computed twice. Called on plain values, the primitive is ``f`` itself.

The traced values are found among the positional arguments and, through
:func:`chainrules.interop._arguments.locate`, inside tuple, list and dict arguments and in
keyword arguments bound to their positions; each gets its part of the rule's (structural)
cotangent. Boxes of an enclosing trace mean autograd is recording a derivative of a
derivative: see :mod:`~chainrules.interop.autograd.higher_order` for what happens then.

The same VJP/JVP makers (:func:`vjp_maker`, :func:`jvp_maker`) serve the functions autograd
already wraps (``autograd.numpy.*``, ``autograd.scipy.*``), see
:mod:`chainrules.interop.autograd.registration`; there autograd computes the output itself.
A rule that carries ``pullback_given_output(y, *args)`` (its pullback when the output ``y``
is already known) is then pulled back at autograd's output; any other rule computes the
output again. The VJP maker remembers, per argument types, which the rule is
(:func:`_remember_output_pullback`), and makes the VJP of positional arguments a
``functools.partial`` of one function (:func:`_vjp_of_one`, :func:`_vjp_of_two`): both
shortcuts keep their general paths (``maker.general``, :func:`_vjp_of`) as the
specification, which ``tests/chainrules/interop/autograd/test_fast_vjp.py`` compares them with.
"""

from __future__ import annotations

import functools
import threading
import types
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from autograd.core import JVPNode, VJPNode, defjvp_argnums, defvjp_argnums
from autograd.tracer import Box

from chainrules.interop._arguments import BoundCall, function_name, locate
from chainrules.interop._lookup import (
    _CONFIG_RULES,
    bound_method,
    find_frule,
    find_rrule,
    needs_config,
)
from chainrules.interop.autograd.config import AUTOGRAD_CONFIG, is_differentiable
from chainrules.interop.autograd.conversion import (
    cotangent_from_autograd,
    cotangent_to_autograd,
    tangent_from_autograd,
    tangent_to_autograd,
)
from chainrules.interop.autograd.higher_order import (
    Why,
    autograd_makers,
    boxes_in,
    holds_box,
    plain,
    traced_derivative,
)
from chainrules.interop.autograd.results import traced_output
from chainrules.interop.errors import KeywordArgumentError, NoRuleError
from chainrules_core import OPTED_OUT, NoTangent, Thunk, ZeroTangent, rrule

__all__ = ["jvp_maker", "primitive", "vjp_maker"]

_BOX_TYPES = Box.types  # the live set autograd adds box types to
_ndarray = np.ndarray
_NO = NoTangent()
_allocate: Any = object.__new__  # a node without running its maker: the rule already ran
_ZERO = ZeroTangent()
_Thunk = Thunk
_partial = functools.partial
_F64 = np.dtype(np.float64)  # (a singleton: dtypes compared by identity first)
_ARRAY_FUNCTION = type(np.sum)  # numpy._ArrayFunctionDispatcher: a plain function


_CONTAINERS = (tuple, list, dict)
_CONTAINER_TYPES = frozenset(_CONTAINERS)


def _is_box(x: Any) -> bool:
    return type(x) in _BOX_TYPES


def _types(args: Sequence[Any]) -> str:
    return ", ".join(type(a).__name__ for a in args)


def _no_rule(f: Any, kind: str, args: Sequence[Any], argnums: Sequence[int]) -> NoRuleError:
    mode = "reverse mode" if kind == "rrule" else "forward mode"
    name = function_name(f)
    return NoRuleError(f"no chainrules {kind} for {name}({_types(args)}) ({mode}, argnums {tuple(argnums)}); "
                       f"register one with @{kind}.register({name.rsplit('.', 1)[-1]}, ...)")


def _traced_keyword(f: Any, kwargs: dict[str, Any]) -> KeywordArgumentError:
    key = next(k for k, v in kwargs.items() if holds_box([v]))
    name = function_name(f)
    return KeywordArgumentError(
        f"{name}: the keyword argument {key!r} holds a value autograd traces, but autograd traces only the positional "
        f"arguments of its primitives, so the derivative with respect to it would be lost; pass it by position, or "
        f"call chainrules.interop.autograd.primitive({name.rsplit('.', 1)[-1]}), which binds keyword arguments to "
        "their positions")


def _find_rrule(f: Any, alt: Any, args: Any, kwargs: dict[str, Any]) -> Any:
    return find_rrule(AUTOGRAD_CONFIG, f, args, kwargs, alt)


def _find_frule(tangents: tuple[Any, ...], f: Any, alt: Any, args: Any, kwargs: dict[str, Any]) -> Any:
    return find_frule(AUTOGRAD_CONFIG, tangents, f, args, kwargs, alt)


def _positional(f: Any, args: Sequence[Any], kwargs: dict[str, Any], argnums: Sequence[int]) -> BoundCall:
    """The call as autograd records it: the traced values are the positional arguments ``argnums``."""
    return BoundCall.at_positions(f, args, kwargs, argnums, [args[i] for i in argnums])


def _to_autograd(f: Any, cotangents: Any, args: Sequence[Any], positions: Sequence[int], call: BoundCall | None,
                 leaves: Sequence[Any] | None) -> list[Any]:
    """The cotangents autograd asked for (of ``args[i]`` for ``i`` in ``positions``, or at the slots of
    ``call``), from a pullback's ``(df, dx1, ..., dxn)``, each as autograd must receive it."""
    nargs = len(args)
    if len(cotangents) != nargs + 1:
        raise TypeError(f"the chainrules pullback of {function_name(f)} returned {len(cotangents)} cotangents "
                        f"for {nargs} arguments; expected {nargs + 1}")
    flat = call is None or call.flat
    parts = [cotangents[i + 1] for i in positions] if flat else call.take(cotangents[1:])  # type: ignore[union-attr]
    out = []
    for k, ct in enumerate(parts):
        if type(ct) is _Thunk:  # a binary rule's lazy cotangent, wanted: its value, without the generic reader
            ct = ct.unthunk()
        if type(ct) is _ndarray and ct.dtype.kind != "c":
            out.append(ct)
        else:
            position, path = (positions[k], ()) if call is None else call.slots[k]
            leaf = args[position] if leaves is None else leaves[k]
            out.append(cotangent_to_autograd(ct, leaf, f, position, path))
    return out


def _vjp_of(f: Any, pullback: Callable[[Any], Any], ans: Any, args: Sequence[Any], kwargs: dict[str, Any],
            positions: Sequence[int], call: BoundCall | None, leaves: Sequence[Any] | None,
            autograd_vjp: Callable[[], Any] | None) -> Callable[[Any], tuple[Any, ...]]:
    """autograd's ``vjp(g)`` from a chainrules pullback: convert in, pull back, convert out.

    autograd differentiates the positional arguments ``positions`` (``call is None``) or the
    values at the slots of ``call`` (inside containers): ``leaves`` are those (plain) values
    (``None``: ``args[i]`` for ``i`` in ``positions``); the cotangent of each is taken from
    the pullback's cotangent of the argument holding it. Real ndarrays, the common case,
    pass both ways without a call.

    A cotangent autograd is tracing (the VJP called on traced values) goes to autograd's
    own VJP maker, given by ``autograd_vjp()`` (called then, not before), or, when there
    is none, to the pullback on the plain cotangent, recorded by ``traced_derivative``.

    This is the specification of :func:`_fast_vjp_of`, which the VJP makers use for
    positional arguments (``tests/chainrules/interop/autograd/test_fast_vjp.py`` compares them).
    """

    def chainrules_vjp(g: Any) -> tuple[Any, ...]:
        traced = None
        lacks = None
        t = type(g)
        if t is not _ndarray or g.dtype.kind == "c":
            if t in _BOX_TYPES or (t is not _ndarray and isinstance(g, _CONTAINERS) and holds_box(
                    [g])):  # a VJP called on traced values
                maker = None if autograd_vjp is None else autograd_vjp()
                if maker is not None:
                    try:
                        return tuple(maker(positions, ans, args, kwargs)(g))
                    except NotImplementedError as err:  # autograd's derivative is not implemented there
                        lacks = err
                    except KeyError:  # autograd lacks that argument's
                        pass
                traced = boxes_in([g])
                g = plain(g)
            g = cotangent_from_autograd(g, ans)
        out = _to_autograd(f, pullback(g), args, positions, call, leaves)
        if traced is not None:
            why = Why(f, "cotangent", lacks)
            return tuple([traced_derivative(ct, why, *traced) for ct in out])
        return tuple(out)

    return chainrules_vjp


def _vjp_of_one(f: Any, pullback: Callable[[Any], Any], ans: Any, args: Sequence[Any], kwargs: dict[str, Any],
                positions: Sequence[int], autograd_vjp: Callable[[], Any] | None, g: Any) -> tuple[Any, ...]:
    """:func:`_vjp_of` of one positional argument (``positions == (i,)``) on the cotangent ``g``, with a shortcut.

    A real ndarray ``g`` (the common case) is pulled back and its cotangent converted here,
    as :func:`_to_autograd` converts it; anything else (another cotangent, a pullback giving
    a wrong number of cotangents) goes through :func:`_vjp_of` or :func:`_to_autograd`.
    """
    if type(g) is not _ndarray or ((d := g.dtype) is not _F64 and d.kind == "c"):
        return _vjp_of(f, pullback, ans, args, kwargs, positions, None, None, autograd_vjp)(g)
    cotangents = pullback(g)
    if len(cotangents) != len(args) + 1:
        return tuple(_to_autograd(f, cotangents, args, positions, None, None))
    position = positions[0]
    ct = cotangents[position + 1]
    if type(ct) is _Thunk:
        ct = ct.fn()  # (a thunk of a thunk: converted below)
    if type(ct) is _ndarray and ((d := ct.dtype) is _F64 or d.kind != "c"):
        return (ct,)
    return (cotangent_to_autograd(ct, args[position], f, position, ()),)


def _vjp_of_two(f: Any, pullback: Callable[[Any], Any], ans: Any, args: Sequence[Any], kwargs: dict[str, Any],
                positions: Sequence[int], autograd_vjp: Callable[[], Any] | None, g: Any) -> tuple[Any, ...]:
    """:func:`_vjp_of_one` for two positional arguments (``x * x``, ``x / y``...)."""
    if type(g) is not _ndarray or ((d := g.dtype) is not _F64 and d.kind == "c"):
        return _vjp_of(f, pullback, ans, args, kwargs, positions, None, None, autograd_vjp)(g)
    cotangents = pullback(g)
    if len(cotangents) != len(args) + 1:
        return tuple(_to_autograd(f, cotangents, args, positions, None, None))
    i, j = positions
    first = cotangents[i + 1]
    if type(first) is _Thunk:
        first = first.fn()  # (a thunk of a thunk: converted below)
    if type(first) is not _ndarray or ((d := first.dtype) is not _F64 and d.kind == "c"):
        first = cotangent_to_autograd(first, args[i], f, i, ())
    second = cotangents[j + 1]
    if type(second) is _Thunk:
        second = second.fn()
    if type(second) is not _ndarray or ((d := second.dtype) is not _F64 and d.kind == "c"):
        second = cotangent_to_autograd(second, args[j], f, j, ())
    return first, second


def _vjp_of_several(f: Any, pullback: Callable[[Any], Any], ans: Any, args: Sequence[Any], kwargs: dict[str, Any],
                    positions: Sequence[int], autograd_vjp: Callable[[], Any] | None, g: Any) -> tuple[Any, ...]:
    """:func:`_vjp_of_one` for several positional arguments."""
    if type(g) is not _ndarray or ((d := g.dtype) is not _F64 and d.kind == "c"):
        return _vjp_of(f, pullback, ans, args, kwargs, positions, None, None, autograd_vjp)(g)
    cotangents = pullback(g)
    if len(cotangents) != len(args) + 1:
        return tuple(_to_autograd(f, cotangents, args, positions, None, None))
    out = []
    for position in positions:
        ct = cotangents[position + 1]
        if type(ct) is _Thunk:
            ct = ct.fn()  # (a thunk of a thunk: converted below)
        if type(ct) is _ndarray and ((d := ct.dtype) is _F64 or d.kind != "c"):
            out.append(ct)
        else:
            out.append(cotangent_to_autograd(ct, args[position], f, position, ()))
    return tuple(out)


def _fast_vjp_of(f: Any, pullback: Callable[[Any], Any], ans: Any, args: Sequence[Any], kwargs: dict[str, Any],
                 positions: Sequence[int], autograd_vjp: Callable[[], Any] | None) -> Callable[[Any], tuple[Any, ...]]:
    """:func:`_vjp_of` for positional arguments (``call`` and ``leaves`` ``None``), in fewer steps: a
    ``functools.partial`` of :func:`_vjp_of_one`, :func:`_vjp_of_two` or :func:`_vjp_of_several` (made without
    running Python code)."""
    n = len(positions)
    return _partial(_vjp_of_one if n == 1 else _vjp_of_two if n == 2 else _vjp_of_several, f, pullback, ans, args,
                    kwargs, positions, autograd_vjp)


def _fill(x: Any) -> Any:
    return _ZERO if is_differentiable(x) else _NO


def _tangents(call: BoundCall, gs: Sequence[Any], leaves: Sequence[Any], args: Sequence[Any]) -> tuple[Any, ...]:
    """``(NoTangent(), dx1, ..., dxn)`` for an frule: autograd's tangents where it has them, zeros elsewhere."""
    per_slot = [tangent_from_autograd(g, v) for g, v in zip(gs, leaves)]
    if call.flat:
        tangents = [_NO]
        tangents.extend([_fill(a) for a in args])
        for i, t in zip(call.positions, per_slot):
            tangents[i + 1] = t
        return tuple(tangents)
    return (_NO, *call.put(per_slot, _fill, args))


def _autograd_or_traced(maker: Any, maker_args: tuple[Any, ...],
                        traced: Callable[[NotImplementedError | None], Any]) -> Any:
    """autograd's own maker called on ``maker_args``, or ``traced(err)`` when there is none (``err`` None), it lacks
    the argument (None) or it raises ``NotImplementedError`` (that error)."""
    lacks = None
    if maker is not None:
        try:
            return maker(*maker_args)
        except NotImplementedError as err:
            lacks = err
        except KeyError:
            pass
    return traced(lacks)


def _given(maker: Any) -> Any:
    return maker


def _autograd_vjp(f: Any) -> Any:
    """autograd's own VJP maker of ``f`` (through its autograd wrapper), or ``None``."""
    return autograd_makers(f)[0]


def _rule_at_plain_values(f: Any, alt: Any, call: BoundCall, args: Sequence[Any], kwargs: dict[str, Any]
                          ) -> tuple[list[Any], list[Any], Any]:
    """The rrule of ``f`` at ``args`` with every box (of any trace) replaced by its value."""
    plain_args = [plain(a) for a in args]
    result = _find_rrule(f, alt, plain_args, kwargs)
    if result is None:
        raise _no_rule(f, "rrule", plain_args, call.positions)
    leaves = [plain(v) for v in call.values]
    return plain_args, leaves, result


def _vjp_of_traced(f: Any, alt: Any, call: BoundCall, args: Sequence[Any], kwargs: dict[str, Any],
                   lacks: NotImplementedError | None = None) -> Callable[[Any], tuple[Any, ...]]:
    """The VJP of a call whose arguments hold boxes of an enclosing trace, autograd having no derivative of ``f``.

    The rule runs (on plain values) only if the VJP is called; the cotangents it gives are
    recorded as depending on the boxes, and differentiating them raises.
    """
    traced = boxes_in(args)

    def chainrules_vjp_of_traced_arguments(g: Any) -> tuple[Any, ...]:
        plain_args, leaves, (y, pullback) = _rule_at_plain_values(f, alt, call, args, kwargs)
        why = Why(f, "arguments", lacks)
        more = boxes_in([g])
        cotangents = _vjp_of(f, pullback, y, plain_args, kwargs, call.positions, call, leaves, None)(plain(g))
        return tuple(traced_derivative(ct, why, *traced, *more) for ct in cotangents)

    return chainrules_vjp_of_traced_arguments


def _jvp_of_traced(f: Any, alt: Any, call: BoundCall, gs: Sequence[Any], args: Sequence[Any],
                   kwargs: dict[str, Any], lacks: NotImplementedError | None = None) -> Any:
    """The JVP of a call whose arguments or tangents hold boxes of an enclosing trace, autograd having no
    derivative of ``f``: the frule on plain values, recorded as depending on the boxes (differentiating it raises)."""
    kind = "arguments" if holds_box(args) else "tangent"
    traced = boxes_in(args) + boxes_in(gs)
    plain_args = [plain(a) for a in args]
    leaves = [plain(v) for v in call.values]
    tangents = _tangents(call, [plain(g) for g in gs], leaves, plain_args)
    result = _find_frule(tangents, f, alt, plain_args, kwargs)
    if result is None:
        raise _no_rule(f, "frule", plain_args, call.positions)
    y, dy = result
    return traced_derivative(tangent_to_autograd(dy, y, f), Why(f, kind, lacks), *traced)


class _RulesSeen:
    """How many rrules have been registered (or opted out) since the bridge started watching: what
    ``rrule.find`` gave for some argument types stays good while this count is unchanged."""

    count = 0
    hook: Any = None

    @classmethod
    def watch(cls) -> None:
        with _watch_lock:
            if cls.hook is None:
                cls.hook = rrule.on_new_rule(cls.seen)

    @classmethod
    def seen(cls, f: Any, signature: Any) -> None:
        cls.count += 1


_watch_lock = threading.Lock()
_UNSEEN: Any = object()


def _remember_output_pullback(f: Any, args: Sequence[Any], cache: dict[Any, Any], seen: list[int]) -> None:
    """Remember in ``cache``, under the types of ``args`` (one or two plain values, no keywords), the rrule's
    ``pullback_given_output`` for them, or ``None``.

    A rule may carry ``pullback_given_output(y, *args)``: the pullback ``rule(*args)`` would
    return, given its output ``y = f(*args)`` (so a rule carrying it never answers ``None``
    for types it is registered for); ``scalar_rule``'s elementwise rules are to carry it.
    autograd has computed the output of the functions it wraps, so the VJP maker then need
    not compute it again. ``None`` is remembered for a container type (a tuple, list or
    dict may hold a box in another call), so a hit that is not ``None`` means plain
    arguments. The cache is good while ``_RulesSeen.count`` is ``seen[0]``.
    """
    if seen[0] != _RulesSeen.count:
        cache.clear()
        seen[0] = _RulesSeen.count
    kinds = [type(a) for a in args]
    key = kinds[0] if len(kinds) == 1 else tuple(kinds)
    if key in cache:
        return
    if any(issubclass(t, _CONTAINERS) or t in _BOX_TYPES for t in kinds):
        cache[key] = None
        return
    impl = rrule.find(f, *kinds)
    given = None if impl is None or impl is OPTED_OUT else getattr(impl, "pullback_given_output", None)
    # a rule with optional positional parameters not all given here is called through the registry's adapter,
    # which drops the cotangents of the parameters not given: its pullback_given_output would not
    if given is not None and not (type(impl) is types.FunctionType and impl.__code__.co_argcount <= len(kinds)):
        given = None
    cache[key] = given


def vjp_maker(f: Any, alt: Any = None, fallback: Any = None) -> Callable[..., Any]:
    """An autograd VJP maker (for ``defvjp_argnums``) that calls chainrules' ``rrule`` for ``f``.

    Parameters
    ----------
    f : callable
        The function whose rules are looked up (by argument types, at call time).
    alt : callable, optional
        A second key to look rules up under when ``f`` has none (the primitive wrapping ``f``).
    fallback : callable, optional
        autograd's own VJP maker, used when no rule applies and for every derivative of a
        derivative (traced arguments or cotangent: see
        :mod:`~chainrules.interop.autograd.higher_order`). Without one, autograd gets a
        :class:`NoRuleError` where no rule applies, and a derivative of a derivative is
        computed by the rule and raises :class:`HigherOrderDerivativeError` if differentiated.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.interop.autograd import vjp_maker
    >>> vjp = vjp_maker(np.sin)((0,), np.sin(0.5), (0.5,), {})
    >>> round(float(vjp(1.0)[0]), 6)
    0.877583
    """

    autograd_vjp = None if fallback is None else functools.partial(_given, fallback)
    # a plain function (the NumPy functions autograd wraps, NumPy's __array_function__ dispatchers like np.sum
    # among them): find_rrule's first look-up is rrule(f, *args), made here directly unless a rule of f needs
    # the config (known from the registries' hooks, at call time)
    direct = bound_method(f) is None and (not needs_config(f) or type(f) is _ARRAY_FUNCTION)
    _RulesSeen.watch()
    cache: dict[Any, Any] = {}  # argument types -> the rule's pullback_given_output, or None
    seen = [_RulesSeen.count]

    def general_vjp_maker(argnums: tuple[int, ...], ans: Any, args: Any, kwargs: dict[str, Any],
                          remember: bool = True) -> Any:
        if kwargs and holds_box(kwargs.values()):
            raise _traced_keyword(f, kwargs)
        nested = False
        for a in args:
            t = type(a)
            if t is not _ndarray and (t in _BOX_TYPES or (isinstance(a, _CONTAINERS) and holds_box([a]))):
                nested = True
                break
        if nested:  # autograd records the derivative of a call inside an enclosing differentiation
            return _autograd_or_traced(fallback, (argnums, ans, args, kwargs), lambda lacks: _vjp_of_traced(
                f, alt, _positional(f, args, kwargs, argnums), args, kwargs, lacks))
        if direct and not kwargs and f not in _CONFIG_RULES:
            if remember and 0 < len(args) < 3:
                _remember_output_pullback(f, args, cache, seen)
            result = rrule(f, *args)
        else:
            result = None
        if result is None:
            result = _find_rrule(f, alt, args, kwargs)
        if result is None:
            if fallback is not None:
                return fallback(argnums, ans, args, kwargs)
            raise _no_rule(f, "rrule", args, argnums)
        return _fast_vjp_of(f, result[1], ans, args, kwargs, argnums, autograd_vjp)

    def chainrules_vjp_maker(argnums: tuple[int, ...], ans: Any, args: Any, kwargs: dict[str, Any]) -> Any:
        # the shortcut: argument types seen before (no boxes, no containers: see _remember_output_pullback)
        # whose rule gives its pullback at autograd's output, which is then not computed again
        if direct and not kwargs and seen[0] == _RulesSeen.count:
            n = len(args)
            if n == 1:
                pullback_at = cache.get(type(args[0]), _UNSEEN)
            elif n == 2:
                pullback_at = cache.get((type(args[0]), type(args[1])), _UNSEEN)
            else:
                pullback_at = None
            if pullback_at is None:  # types seen before, whose rule does not give it
                return general_vjp_maker(argnums, ans, args, kwargs, False)
            if pullback_at is not _UNSEEN:
                return _partial(_vjp_of_one if len(argnums) == 1 else _vjp_of_two, f, pullback_at(ans, *args),
                                ans, args, kwargs, argnums, autograd_vjp)
        return general_vjp_maker(argnums, ans, args, kwargs)

    chainrules_vjp_maker.chainrules_function = f  # type: ignore[attr-defined]
    chainrules_vjp_maker.general = general_vjp_maker  # type: ignore[attr-defined]  # the specification (tests compare)
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
        if kwargs and holds_box(kwargs.values()):
            raise _traced_keyword(f, kwargs)
        call = _positional(f, args, kwargs, argnums)
        if holds_box(args) or holds_box(gs):
            return _autograd_or_traced(fallback, (argnums, gs, ans, args, kwargs),
                                       lambda lacks: _jvp_of_traced(f, alt, call, gs, args, kwargs, lacks))
        result = _find_frule(_tangents(call, gs, call.values, args), f, alt, args, kwargs)
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
    autograd_vjp = functools.partial(_autograd_vjp, raw)

    @functools.wraps(raw)
    def chainrules_primitive(*args: Any, **kwargs: Any) -> Any:
        # the common case first: boxes among the positional arguments only
        found: list[int] | None = None
        search = False  # containers or keywords: chainrules.interop._arguments.locate
        for i, a in enumerate(args):
            t = type(a)
            if t in _BOX_TYPES:
                if found is None:
                    found = [i]
                else:
                    found.append(i)
            elif t in _CONTAINER_TYPES or isinstance(a, _CONTAINERS):
                search = True
        if kwargs and not search:
            search = any(type(v) in _BOX_TYPES or isinstance(v, _CONTAINERS) for v in kwargs.values())
        call: BoundCall | None = None
        if search:
            call = locate(raw, args, kwargs, _is_box)
            if call is None:
                return raw(*args, **kwargs)
            positions: Sequence[int] = call.positions
            boxes: Sequence[Any] = call.values
            kwargs = call.kwargs
        elif found is None:
            return raw(*args, **kwargs)
        else:
            positions = found
            boxes = [args[i] for i in found]
        top = boxes[0]._trace
        nested = False  # boxes of an enclosing trace: autograd is recording a derivative of a derivative
        for box in boxes:
            if box._trace != top:
                nested = True
                top = max(top, box._trace)
        if nested:
            keep = [box._trace == top for box in boxes]
            if call is None:
                positions = [i for i, k in zip(positions, keep) if k]
                boxes = [box for box, k in zip(boxes, keep) if k]
            else:
                call = call.select(keep)
                positions, boxes = call.positions, call.values
        leaves = [box._value for box in boxes]
        if call is None:
            argvals = list(args)
            for i, value in zip(positions, leaves):
                argvals[i] = value
        else:
            argvals = call.rebuild(leaves)
        parents = tuple([box._node for box in boxes])
        node_type = type(parents[0])
        for value in leaves:
            t = type(value)
            if t in _BOX_TYPES or (t is not _ndarray and isinstance(value, _CONTAINERS) and holds_box([value])):
                nested = True
                break
        if node_type is JVPNode and not nested:  # a tangent of an enclosing trace: reverse over forward
            nested = holds_box([p.g for p in parents])
        flat = call is None or call.flat
        node: Any
        if nested and node_type in (VJPNode, JVPNode):
            ans = chainrules_primitive(*argvals, **kwargs)  # the enclosing traces record their own nodes
            node = _allocate(node_type)
            at = call if call is not None else BoundCall.at_positions(raw, argvals, kwargs, positions, leaves)
            vjp_fallback, jvp_fallback = autograd_makers(raw) if flat else (None, None)
            if node_type is VJPNode:
                node.parents = parents
                node.vjp = _autograd_or_traced(
                    vjp_fallback, (at.positions, ans, argvals, kwargs),
                    lambda lacks: _vjp_of_traced(raw, chainrules_primitive, at, argvals, kwargs, lacks))
            else:
                gs = [p.g for p in parents]
                node.g = _autograd_or_traced(
                    jvp_fallback, (at.positions, gs, ans, argvals, kwargs),
                    lambda lacks: _jvp_of_traced(raw, chainrules_primitive, at, gs, argvals, kwargs, lacks))
        elif node_type is VJPNode:
            result = _find_rrule(raw, chainrules_primitive, argvals, kwargs)
            if result is None:
                raise _no_rule(raw, "rrule", argvals, positions)
            ans, pullback = result
            node = _allocate(VJPNode)
            node.parents = parents
            if call is None:  # boxes among the positional arguments only (their values are argvals[i])
                node.vjp = _fast_vjp_of(raw, pullback, ans, argvals, kwargs, positions, autograd_vjp)
            else:
                node.vjp = _vjp_of(raw, pullback, ans, argvals, kwargs, positions, call, leaves,
                                   autograd_vjp if flat else None)
        elif node_type is JVPNode:
            if call is None:
                call = BoundCall.at_positions(raw, argvals, kwargs, positions, leaves)
            tangents = _tangents(call, [p.g for p in parents], leaves, argvals)
            result = _find_frule(tangents, raw, chainrules_primitive, argvals, kwargs)
            if result is None:
                raise _no_rule(raw, "frule", argvals, positions)
            ans, dy = result
            node = _allocate(JVPNode)
            node.g = tangent_to_autograd(dy, ans, raw)
        else:  # another kind of node: let it call the makers registered below
            ans = chainrules_primitive(*argvals, **kwargs)
            node = node_type(ans, chainrules_primitive, argvals, kwargs, tuple(positions), parents)
        return traced_output(ans, top, node)

    chainrules_primitive.fun = raw  # type: ignore[attr-defined]
    chainrules_primitive._is_autograd_primitive = True  # type: ignore[attr-defined]
    chainrules_primitive._chainrules_primitive = True  # type: ignore[attr-defined]
    defvjp_argnums(chainrules_primitive, vjp_maker(raw, alt=chainrules_primitive))
    defjvp_argnums(chainrules_primitive, jvp_maker(raw, alt=chainrules_primitive))
    return chainrules_primitive
