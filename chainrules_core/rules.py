"""The rule registries ``frule`` and ``rrule``: registration, lookup, opt-out, introspection, hooks.

Calling convention
------------------
``rrule([config,] f, *args, **kwargs)`` returns ``None`` when no rule applies, else
``(y, pullback)``; ``pullback(dy)`` returns ``(df, dx1, ..., dxn)``.
``frule([config,] (df, dx1, ..., dxn), f, *args, **kwargs)`` returns ``None`` or ``(y, dy)``.
Keyword arguments are passed to the rule but never take part in dispatch.

Lookup
------
The registry is keyed on the callable itself; each callable has its own table of
signatures, resolved by :mod:`multipledispatch` on the types of the positional arguments
(the most specific signature wins). The config's type is dispatched on as a hidden first
argument, so a rule registered with ``config=HasReverseMode`` is found only for configs
with that trait, and a rule registered without one serves every config.

Both answers are cached: the callable's table in a dict keyed on the callable, and the
rule for a tuple of argument types in a dict held by the table. A cache hit costs a few
dict look-ups; "no rule" is cached too (never raised). Registering a rule for ``f`` clears
``f``'s entries only (and, for a class, those of its subclasses and instances). Misses are
resolved under the registry's lock, the same lock registration takes, so a concurrent
registration can never leave a stale answer in a cache.

Callables
---------
* plain functions, ufuncs, ``np.sum``-style dispatchers: keyed on the object;
* classes: a rule registered on ``Cls`` is the rule for calling ``Cls(...)`` (a
  constructor); with ``subclasses=True`` it serves subclasses too, and the implementation
  receives the class being called first (after the config and, for an frule, the
  tangents), so it can build an instance of that class;
* functors: ``register_functor(Cls, ...)`` gives rules for calling *instances* of ``Cls``;
  the implementation receives the instance first and the pullback's first entry is its
  tangent;
* bound methods: ``rrule(arr.sum, ...)`` is ``rrule(np.ndarray.sum, arr, ...)``: the
  object becomes the first argument (the pullback returns its cotangent right after the
  function's own, and an frule takes its tangent there).
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import inspect
import itertools
import sys
import threading
import types
import typing
import warnings
from collections.abc import Callable, Iterator
from typing import Any

from multipledispatch import Dispatcher
from multipledispatch.conflict import ambiguous, supercedes
from multipledispatch.variadic import Variadic, isvariadic

from chainrules_core.config import RuleConfig
from chainrules_core.lazy import load_all, load_pending
from chainrules_core.tangents.zeros import NoTangent

_CACHE_LIMIT = 16384


class AmbiguousRuleWarning(UserWarning):
    """Two rules for one function could both be the most specific for some argument types."""


class RuleOverwriteWarning(UserWarning):
    """A rule replaced a different rule registered for exactly the same signature."""


class RuleHookWarning(UserWarning):
    """A new-rule hook raised; registration went on and the error is reported here."""


class _NoConfig:
    """The config type dispatched on when a rule is called without a config."""


class Varargs:
    """Marks a variadic tail in explicit rule types: ``register(f, np.ndarray, Varargs(int))``.

    Examples
    --------
    >>> from chainrules_core import rrule, Varargs
    >>> def total(*xs):
    ...     return sum(xs)
    >>> @rrule.register(total, Varargs(float))
    ... def total_rrule(*xs):
    ...     def total_pullback(dy):
    ...         return (None,) + (dy,) * len(xs)
    ...     return total(*xs), total_pullback
    >>> rrule(total, 1.0, 2.0)[0]
    3.0
    """

    __slots__ = ("type",)

    def __init__(self, *tys: Any) -> None:
        self.type = tys[0] if len(tys) == 1 else tuple(tys) if tys else object

    def __repr__(self) -> str:
        return f"Varargs({_type_name(self.type)})"


class _OptedOut:
    """Returned by ``find`` for argument types that were opted out."""

    _instance: _OptedOut | None = None

    def __new__(cls) -> _OptedOut:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "OPTED_OUT"


OPTED_OUT = _OptedOut()


def _type_name(t: Any) -> str:
    if isinstance(t, tuple):
        return "(" + " | ".join(_type_name(x) for x in t) + ")"
    if isinstance(t, Varargs):
        return repr(t)
    return getattr(t, "__qualname__", getattr(t, "__name__", repr(t)))


def _callable_name(f: Any) -> str:
    module = getattr(f, "__module__", None) or ""
    name = getattr(f, "__qualname__", None) or getattr(f, "__name__", None) or repr(f)
    return f"{module}.{name}" if module and module != "builtins" else name


@functools.cache
def _variadic(t: Any) -> Any:
    """``Variadic[t]``, made once per type: multipledispatch builds a new class on every call."""
    return Variadic[t]


@dataclasses.dataclass(frozen=True)
class RuleSignature:
    """What one registration declared.

    Attributes
    ----------
    f : callable
        The callable the rule is registered on (for functors, the class).
    types : tuple
        Types of the positional arguments (a tuple inside means "any of these").
    n_required : int
        How many of ``types`` must be given; the rest are optional (parameters with defaults).
    varargs : type, tuple or None
        Type of a variadic tail, if the rule takes one.
    config : type or None
        The trait (or config class) the rule requires, or ``None`` for every config.
    impl : callable or None
        The implementation (``None`` for an opt-out).
    opt_out : bool
        Calls matching this signature answer ``None``.
    functor : bool
        The rule is for calling instances of ``f``.
    subclasses : bool
        A constructor rule that also serves subclasses of ``f`` (its implementation
        receives the class being called).
    """

    f: Any
    types: tuple[Any, ...]
    n_required: int
    varargs: Any
    config: Any
    impl: Any
    opt_out: bool = False
    functor: bool = False
    subclasses: bool = False
    call: Any = dataclasses.field(default=None, compare=False, repr=False)
    """What lookups run: ``impl``, adapted when the rule has optional positional parameters."""

    def dispatch_signatures(self) -> list[tuple[Any, ...]]:
        """The multipledispatch signatures (config type first) this registration covers."""
        head = (object if self.config is None else self.config,)
        sigs = []
        for k in range(self.n_required, len(self.types) + 1):
            options = [t if isinstance(t, tuple) else (t,) for t in self.types[:k]]
            for combo in itertools.product(*options):  # unions expand to one signature each
                sig = head + combo
                if self.varargs is not None and k == len(self.types):
                    sig = sig + (_variadic(self.varargs),)
                sigs.append(sig)
        return sigs

    def __str__(self) -> str:
        parts = [_type_name(t) if i < self.n_required else f"[{_type_name(t)}]"
                 for i, t in enumerate(self.types)]
        if self.varargs is not None:
            parts.append(f"*{_type_name(self.varargs)}")
        text = f"{_callable_name(self.f)}({', '.join(parts)})"
        if self.functor:
            text = f"<instance of {text.split('(')[0]}>({', '.join(parts)})"
        if self.subclasses:
            text += " [and subclasses]"
        if self.config is not None:
            text += f" [config: {_type_name(self.config)}]"
        if self.opt_out:
            text += " [opted out]"
        return text


def _normalise_type(t: Any, where: str) -> Any:
    """Turn an annotation or a given type into a type or a tuple of types."""
    if t is inspect.Parameter.empty or t is typing.Any:  # (empty is a class: test it first)
        return object
    if type(t) is type:  # a plain class: the common case, decided at once
        return t
    if t is None or t is type(None):
        return type(None)
    if isinstance(t, tuple):
        return tuple(_normalise_type(x, where) for x in t)
    origin = typing.get_origin(t)
    if origin is typing.Union or origin is types.UnionType:
        return tuple(_normalise_type(x, where) for x in typing.get_args(t))
    if origin is not None and isinstance(origin, type):
        return origin
    if isinstance(t, type):
        return t
    raise TypeError(f"{where}: {t!r} is not a type (use a class, a tuple of classes, or Varargs)")


def _annotation(impl: Callable[..., Any], annotations: dict[str, Any], name: str,
                localns: dict[str, Any] | None) -> Any:
    """The annotation of one parameter, evaluated if it is a string (``from __future__ import
    annotations``).

    Only the parameters the given types do not cover are evaluated, one by one: evaluating
    every annotation (``typing.get_type_hints``), return type included, would make each
    registration, and so ``import chainrules``, several times slower. Names resolve in the
    implementation's module and in ``localns``, the namespace ``register`` was called from
    (so a class defined in the same function resolves).
    """
    annotation = annotations.get(name, inspect.Parameter.empty)
    if not isinstance(annotation, str):
        return annotation
    globalns = getattr(impl, "__globals__", {})
    try:
        return eval(_compiled_annotation(annotation), globalns, localns if localns is not None else globalns)
    except NameError as err:
        raise TypeError(f"cannot resolve the annotations of {getattr(impl, '__qualname__', impl)}: {err}; "
                        "pass the argument types to register() explicitly") from err


@functools.lru_cache(maxsize=1024)
def _compiled_annotation(annotation: str) -> types.CodeType:
    """Compile an annotation once: the same few (``"np.ndarray"``, ``"float"``) recur in every
    rules module, and compiling is most of the cost of evaluating one."""
    return compile(annotation, "<annotation>", "eval")


def _positional_params(impl: Callable[..., Any]) -> tuple[list[str], int, str | None, dict[str, Any]]:
    """Names of the positional parameters, how many are required, the *args name, annotations
    (as written: strings under ``from __future__ import annotations``, see ``_annotation``)."""
    if isinstance(impl, types.FunctionType):
        code = impl.__code__
        n = code.co_argcount
        names = list(code.co_varnames[:n])
        n_required = n - len(impl.__defaults__ or ())
        var = code.co_varnames[n + code.co_kwonlyargcount] if code.co_flags & inspect.CO_VARARGS else None
        return names, n_required, var, impl.__annotations__
    sig = inspect.signature(impl)
    names, n_required, var = [], 0, None
    for p in sig.parameters.values():
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            names.append(p.name)
            if p.default is p.empty:
                n_required = len(names)
        elif p.kind is p.VAR_POSITIONAL:
            var = p.name
    annotations = {p.name: p.annotation for p in sig.parameters.values() if p.annotation is not p.empty}
    return names, n_required, var, annotations


class _TableKey:
    """The keys under which a table's no-config cache stores the table and its config cache."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


_TABLE_KEY: Any = _TableKey("_TABLE_KEY")
_CONFIGURED_KEY: Any = _TableKey("_CONFIGURED_KEY")


class _Table:
    """The rules of one callable: records, a lazily built dispatcher and two type caches.

    ``plain`` is the no-config cache: an exact ``dict`` from argument-type key to
    implementation (``None`` for "no rule"), holding the table itself under ``_TABLE_KEY``
    and the config cache under ``_CONFIGURED_KEY``. The registry's top-level cache maps a
    callable straight to this dict, so the hot path of a lookup is two reads of plain dicts
    (four with a config).

    ``configured`` is the config cache: config type -> argument-type key -> ``(call,
    takes_config)`` (``None`` for "no rule"). Nested dicts rather than one dict keyed on
    pairs, so a lookup builds and hashes no tuple.
    """

    __slots__ = ("_dispatcher", "by_sig", "configured", "functor", "key", "plain", "records")

    def __init__(self, key: Any, functor: bool) -> None:
        self.key = key
        self.functor = functor
        self.records: list[RuleSignature] = []
        self.by_sig: dict[tuple[Any, ...], RuleSignature] = {}
        self._dispatcher: Dispatcher | None = None
        self.configured: dict[type, dict[Any, Any]] = {}
        self.plain: dict[Any, Any] = {_TABLE_KEY: self, _CONFIGURED_KEY: self.configured}

    def invalidate(self) -> None:
        """Forget every cached answer (called under the registry's lock).

        ``plain`` and ``configured`` are emptied in place, never replaced, and the entries
        under ``_TABLE_KEY`` and ``_CONFIGURED_KEY`` are never removed: lock-free readers
        hold these very dicts and read those keys.
        """
        self._dispatcher = None
        plain = self.plain
        for key in [k for k in plain if k is not _TABLE_KEY and k is not _CONFIGURED_KEY]:
            del plain[key]
        self.configured.clear()

    def dispatch(self, config_type: type, arg_types: tuple[Any, ...]) -> RuleSignature | None:
        dispatcher = self._dispatcher
        if dispatcher is None:
            dispatcher = Dispatcher(_callable_name(self.key))
            for sig, record in self.by_sig.items():
                dispatcher.add(sig, record)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # ambiguities were reported at registration
                dispatcher.reorder(on_ambiguity=lambda *a: None)
            self._dispatcher = dispatcher
        found = dispatcher.dispatch(config_type, *arg_types)
        return typing.cast("RuleSignature | None", found)


class _ConfigMark:
    """Cached for a config instance seen in the function position, so ``rrule(config, ...)``
    is recognised by the same cache read as a function."""


_CONFIG_MARK = _ConfigMark()


def _ambiguous_pairs(new_sigs: list[tuple[Any, ...]], all_sigs: dict[tuple[Any, ...], RuleSignature],
                     ) -> list[tuple[Any, Any]]:
    """The pairs (new signature, any signature) that are ambiguous and that no signature resolves.

    Two cheap tests rule out most pairs before multipledispatch's ``ambiguous`` is asked
    (that check dominated the cost of registering, and so of ``import chainrules``):
    signatures of one registration (unions and optional parameters expand into many) lead
    to the same implementation, so an ambiguity between them is harmless; and signatures of
    different lengths cannot both match a call unless one is variadic.
    """
    pairs: dict[frozenset[Any], tuple[Any, Any]] = {}
    for sig in new_sigs:
        n, sig_variadic, record = len(sig), isvariadic(sig[-1]), all_sigs[sig]
        for other, other_record in all_sigs.items():
            if other_record is record or (len(other) != n and not sig_variadic and not isvariadic(other[-1])):
                continue
            key = frozenset((sig, other))
            if key in pairs or not ambiguous(sig, other):
                continue
            if not any(supercedes(c, sig) and supercedes(c, other) for c in all_sigs):
                pairs[key] = (sig, other)
    return list(pairs.values())


class _ClassBound:
    """Call a ``subclasses=True`` constructor rule with the class being called inserted."""

    __slots__ = ("call", "cls", "position")

    def __init__(self, call: Callable[..., Any], position: int, cls: type) -> None:
        self.call, self.position, self.cls = call, position, cls

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        k = self.position
        return self.call(*args[:k], self.cls, *args[k:], **kwargs)


def _drop_placeholder(impl: Callable[..., Any], leading: int, *args: Any, **kwargs: Any) -> Any:
    """Call a rule of no primal arguments from the fast path, which passes a placeholder."""
    return impl(*args[:leading], **kwargs)


def _arg_types(args: tuple[Any, ...]) -> tuple[Any, ...]:
    return tuple(map(type, args))


def _type_key(args: tuple[Any, ...]) -> Any:
    n = len(args)
    if n == 1:
        return type(args[0])
    if n == 2:
        return (type(args[0]), type(args[1]))
    return tuple(map(type, args))


def _key_types(key: Any) -> tuple[Any, ...]:
    return key if isinstance(key, tuple) else (key,)


_METHOD_WRAPPER = type((1).__add__)


def _unbind(f: Any) -> tuple[Any, Any] | None:
    """For a bound method return (function on the class, the object); else None."""
    if isinstance(f, types.MethodType):
        return f.__func__, f.__self__
    if isinstance(f, (types.BuiltinMethodType, _METHOD_WRAPPER)):
        owner = getattr(f, "__self__", None)
        if owner is None or isinstance(owner, (types.ModuleType, type)):
            return None
        unbound = getattr(type(owner), f.__name__, None)
        if unbound is not None and unbound is not f:
            return unbound, owner
    return None


class RuleHook:
    """Handle returned by ``on_new_rule``; call ``remove()`` (or the handle) to unsubscribe.

    Examples
    --------
    >>> from chainrules_core import rrule
    >>> seen = []
    >>> handle = rrule.on_new_rule(lambda f, sig: seen.append(f))
    >>> handle.remove()
    """

    __slots__ = ("_hook", "_registry")

    def __init__(self, registry: _RuleRegistry, hook: Callable[[Any, RuleSignature], Any]) -> None:
        self._registry = registry
        self._hook = hook

    def remove(self) -> None:
        """Stop calling the hook for new rules."""
        with self._registry._lock:
            if self._hook in self._registry._hooks:
                self._registry._hooks.remove(self._hook)

    __call__ = remove

    def __enter__(self) -> RuleHook:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.remove()


class _RuleRegistry:
    """Shared machinery of :data:`rrule` and :data:`frule`."""

    kind = "rule"
    """``"rrule"`` or ``"frule"``."""
    _leading = 0  # parameters of an implementation before the primal arguments (frule: tangents)

    def __init__(self) -> None:
        self._tables: dict[Any, _Table] = {}
        self._subclass_records: dict[type, list[RuleSignature]] = {}  # subclasses=True rules by class
        self._class_tables: dict[type, _Table] = {}  # effective constructor tables (see _class_table)
        self._functor_tables: dict[type, _Table] = {}
        self._cache: dict[Any, Any] = {}  # callable -> None | table.plain | functor table | config mark
        self._functor_cache: dict[type, _Table | None] = {}  # for unhashable functor instances
        self._lock = threading.RLock()
        self._hooks: list[Callable[[Any, RuleSignature], Any]] = []

    # ---- registration -----------------------------------------------------------------------
    def register(self, f: Any, *types: Any, config: type | None = None,
                 subclasses: bool = False) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        """Decorator: register the decorated function as a rule for calling ``f``.

        Parameters
        ----------
        f : callable
            The function (or class, for a constructor rule) the rule differentiates.
        *types : type, tuple of types or Varargs
            Types of the positional arguments, in order. Missing ones come from the
            implementation's annotations; an unannotated parameter matches anything.
            Parameters with defaults are optional in matching.
        config : type, optional
            A trait (e.g. ``HasReverseMode``) or config class. The rule is then found only
            for such configs and the implementation receives the config first.
        subclasses : bool
            For a class ``f``: the constructor rule also serves its subclasses. The
            implementation then receives the class being called as its first primal
            parameter (after the config and, for an frule, the tangents); the pullback's
            first entry stays the tangent of that class (``NoTangent()``).

        Returns
        -------
        callable
            The decorator; it returns the implementation unchanged.

        Examples
        --------
        >>> from chainrules_core import rrule, NoTangent
        >>> class Celsius:
        ...     def __init__(self, degrees):
        ...         self.degrees = degrees
        >>> class Reading(Celsius):
        ...     pass
        >>> @rrule.register(Celsius, float, subclasses=True)
        ... def celsius_rrule(cls, degrees):
        ...     def celsius_pullback(dc):
        ...         return NoTangent(), dc.degrees
        ...     return cls(degrees), celsius_pullback
        >>> y, pullback = rrule(Reading, 21.5)
        >>> type(y).__name__
        'Reading'
        """
        if subclasses and not isinstance(f, type):
            raise TypeError(f"{self.kind}.register(..., subclasses=True) needs a class, got {f!r}")

        localns = sys._getframe(1).f_locals  # resolves string annotations naming local classes

        def decorator(impl: Callable[..., Any]) -> Callable[..., Any]:
            self._add(f, types, impl, config=config, functor=False, subclasses=subclasses, localns=localns)
            return impl

        return decorator

    def register_functor(self, cls: type, *types: Any,
                         config: type | None = None) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        """Decorator: register a rule for calling *instances* of ``cls``.

        The implementation receives the instance as its first primal argument (after the
        config and, for an frule, the tangents); the pullback's first entry is the
        instance's tangent, and an frule's ``tangents[0]`` is the instance's tangent.
        """
        if not isinstance(cls, type):
            raise TypeError(f"{self.kind}.register_functor needs a class, got {cls!r}")

        localns = sys._getframe(1).f_locals

        def decorator(impl: Callable[..., Any]) -> Callable[..., Any]:
            self._add(cls, types, impl, config=config, functor=True, subclasses=False, localns=localns)
            return impl

        return decorator

    def _signature_of(self, f: Any, types: tuple[Any, ...], impl: Callable[..., Any] | None,
                      config: Any, functor: bool, subclasses: bool, opt_out: bool,
                      localns: dict[str, Any] | None = None) -> RuleSignature:
        where = f"{self.kind}.register({_callable_name(f)})"
        if config is not None and not isinstance(config, type):
            raise TypeError(f"{where}: config must be a trait or config class, got {config!r}")
        given = list(types)
        varargs = None
        if given and isinstance(given[-1], (Varargs, list)):
            tail = given.pop()
            varargs = _normalise_type(tail.type if isinstance(tail, Varargs) else tail[0], where)
        if any(isinstance(t, (Varargs, list)) for t in given):
            raise TypeError(f"{where}: Varargs may only be the last type")
        given = [_normalise_type(t, where) for t in given]
        if impl is None:  # opt-out: exactly the given types
            return RuleSignature(f, tuple(given), len(given), varargs, config, None, True, functor, subclasses)
        names, n_required, var, annotations = _positional_params(impl)
        receives_callable = functor or subclasses  # the instance, or the class being called
        skip = (1 if config is not None else 0) + self._leading + (1 if receives_callable else 0)
        if len(names) < skip and var is None:
            raise TypeError(f"{where}: {getattr(impl, '__name__', impl)} takes {len(names)} positional "
                            f"parameters but needs at least {skip} before the primal arguments")
        names = names[skip:]
        n_required = max(n_required - skip, 0)
        if len(given) > len(names) and var is None:
            raise TypeError(f"{where}: {len(given)} types given but {getattr(impl, '__name__', impl)} "
                            f"takes {len(names)} primal arguments")
        arg_types = []
        for i, name in enumerate(names):
            if i < len(given):
                arg_types.append(given[i])
            else:
                arg_types.append(_normalise_type(_annotation(impl, annotations, name, localns), where))
        if len(given) > len(names):
            # Given types that reach into *args fix those positions: the rule takes exactly
            # these arguments (add Varargs(...) to keep the tail open).
            arg_types.extend(given[len(names):])
            n_required = len(arg_types)
        elif var is not None and varargs is None:
            varargs = _normalise_type(_annotation(impl, annotations, var, localns), where)
        call = impl
        if varargs is None and n_required < len(arg_types):
            call = self._adapt_optional(impl, len(arg_types), config is not None, receives_callable)
        return RuleSignature(f, tuple(arg_types), n_required, varargs, config, impl, False, functor,
                             subclasses, call)

    def _add(self, f: Any, types: tuple[Any, ...], impl: Callable[..., Any] | None, *, config: Any,
             functor: bool, subclasses: bool, localns: dict[str, Any] | None = None) -> RuleSignature:
        record = self._signature_of(f, types, impl, config, functor, subclasses, opt_out=impl is None,
                                    localns=localns)
        replaced = []
        with self._lock:  # no warning is issued under the lock: one turned into an error would
            store = self._functor_tables if functor else self._tables  # leave caches half-updated
            table = store.get(f)
            if table is None:
                table = store[f] = _Table(f, functor)
            new_sigs = record.dispatch_signatures()
            for sig in new_sigs:
                old = table.by_sig.get(sig)
                if old is not None and old.impl is not record.impl and not self._same_rule(old, record):
                    replaced.append(old)
                table.by_sig[sig] = record
            pairs = _ambiguous_pairs(new_sigs, table.by_sig)
            live = {id(r) for r in table.by_sig.values()}  # drop records every signature of which was replaced
            table.records = [r for r in table.records if id(r) in live]
            table.records.append(record)
            table.invalidate()
            if isinstance(f, type) and not functor:
                self._subclass_records[f] = [r for r in table.records if r.subclasses]
                if not self._subclass_records[f]:
                    del self._subclass_records[f]
                for cls, class_table in list(self._class_tables.items()):
                    if issubclass(cls, f):
                        self._fill_class_table(cls, class_table)
            self._evict(f)
            hooks = list(self._hooks)
        for old in dict.fromkeys(replaced):
            warnings.warn(RuleOverwriteWarning(
                f"{self.kind} for {record} replaces {getattr(old.impl, '__qualname__', old.impl)}"), stacklevel=4)
        for sig, other in pairs:
            warnings.warn(AmbiguousRuleWarning(
                f"{self.kind} signatures {_format_sig(sig)} and {_format_sig(other)} of "
                f"{_callable_name(f)} are ambiguous: neither is more specific and no rule covers both. "
                f"Register a rule for their intersection."), stacklevel=4)
        for hook in hooks:
            self._run_hook(hook, f, record)
        return record

    def _adapt_optional(self, impl: Callable[..., Any], n_params: int, has_config: bool,
                        functor: bool) -> Callable[..., Any]:
        """Let a rule with optional positional parameters always see its full signature."""
        raise NotImplementedError

    @staticmethod
    def _same_rule(a: RuleSignature, b: RuleSignature) -> bool:
        """Re-registering the same function (same module and name) is a redefinition."""
        return (getattr(a.impl, "__module__", None) == getattr(b.impl, "__module__", None)
                and getattr(a.impl, "__qualname__", None) == getattr(b.impl, "__qualname__", None))

    def _evict(self, f: Any) -> None:
        """Drop the cached answers a new rule for ``f`` can change (called under the lock)."""
        with contextlib.suppress(TypeError):  # an unhashable f has no cache entry
            self._cache.pop(f, None)
        if isinstance(f, type):
            for key in list(self._cache):
                if (isinstance(key, type) and issubclass(key, f)) or isinstance(key, f):
                    del self._cache[key]
            for kind in list(self._functor_cache):
                if issubclass(kind, f):
                    del self._functor_cache[kind]

    def _run_hook(self, hook: Callable[[Any, RuleSignature], Any], f: Any, record: RuleSignature) -> None:
        try:
            hook(f, record)
        except Exception as err:  # a broken hook must never break registration
            warnings.warn(RuleHookWarning(f"new-rule hook {getattr(hook, '__qualname__', hook)!s} raised "
                                          f"{type(err).__name__}: {err} for {record}"), stacklevel=4)

    def opt_out(self, f: Any, *types: Any, config: type | None = None) -> RuleSignature:
        """Make calls of ``f`` with these argument types answer ``None`` (see :func:`opt_out`)."""
        return self._add(f, types, None, config=config, functor=False, subclasses=False)

    # ---- hooks and introspection -----------------------------------------------------------------
    def on_new_rule(self, hook: Callable[[Any, RuleSignature], Any]) -> RuleHook:
        """Call ``hook(f, signature)`` for every existing rule now and every later registration.

        Returns a :class:`RuleHook`; ``handle.remove()`` unsubscribes. A hook that raises is
        reported as a :class:`RuleHookWarning` and never breaks registration. Rules declared
        for lazy loading are loaded first, so the hook sees every rule.
        """
        load_all()
        with self._lock:
            existing = [(t.key, r) for t in self._all_tables() for r in t.records]
            self._hooks.append(hook)
        for f, record in existing:
            self._run_hook(hook, f, record)
        return RuleHook(self, hook)

    def _all_tables(self) -> Iterator[_Table]:
        yield from self._tables.values()
        yield from self._functor_tables.values()

    def functions(self) -> list[Any]:
        """Every callable (function, constructor class or functor class) that has rules."""
        load_all()
        with self._lock:
            seen = list(self._tables)
            seen.extend(k for k in self._functor_tables if k not in self._tables)
            return seen

    def signatures(self, f: Any) -> list[RuleSignature]:
        """The registrations for ``f`` (for a class: constructor rules, then functor rules)."""
        load_pending(f)
        with self._lock:
            out: list[RuleSignature] = []
            for store in (self._tables, self._functor_tables):
                table = store.get(f)
                if table is not None:
                    out.extend(table.records)
            return out

    def find(self, f: Any, *types: Any, config: Any = None) -> Any:
        """Return the implementation that would handle these argument *types*, without calling it.

        Parameters
        ----------
        f : callable
            The function (a bound method is normalised to its class's function).
        *types : type or value
            The types of the positional arguments; a value that is not a type stands for
            its own type (``find(np.sin, 1.0)`` is ``find(np.sin, float)``).
        config : RuleConfig instance or class, optional

        Returns
        -------
        callable, OPTED_OUT or None
            ``OPTED_OUT`` when the types were opted out.

        Examples
        --------
        >>> import numpy as np
        >>> import chainrules
        >>> chainrules.rrule.find(np.sin, float) is chainrules.rrule.find(np.sin, 1.0) is not None
        True
        """
        types = tuple(t if isinstance(t, type) else type(t) for t in types)
        unbound = _unbind(f)
        if unbound is not None:
            f, owner = unbound
            types = (type(owner),) + types
        config_type = _NoConfig if config is None else config if isinstance(config, type) else type(config)
        load_pending(f)
        with self._lock:
            table = self._resolve_table(f)
            if table is None:
                return None
            record = table.dispatch(config_type, tuple(types))
        if record is None:
            return None
        return OPTED_OUT if record.opt_out else record.impl

    # ---- lookup ------------------------------------------------------------------------------------
    def _resolve_table(self, f: Any) -> _Table | None:
        """Find the table for calling ``f`` (called under the lock)."""
        if isinstance(f, type) and self._subclass_records and any(
                base in self._subclass_records for base in f.__mro__):
            return self._class_table(f)
        try:
            table = self._tables.get(f)
        except TypeError:
            table = None
        if table is not None:
            return table
        if isinstance(f, type):
            return None
        for klass in type(f).__mro__:
            functor = self._functor_tables.get(klass)
            if functor is not None:
                return functor
        return None

    def _class_table(self, cls: type) -> _Table:
        """The constructor table of a class some ``subclasses=True`` rule serves (under the lock).

        It holds the rules registered on ``cls`` itself and the ``subclasses=True`` rules of
        its bases (a nearer class wins for the same signature). A ``subclasses=True``
        implementation receives the class being called, so it can build an instance of it.
        """
        table = self._class_tables.get(cls)
        if table is None:
            table = self._class_tables[cls] = _Table(cls, False)
            self._fill_class_table(cls, table)
        return table

    def _fill_class_table(self, cls: type, table: _Table) -> None:
        by_sig: dict[tuple[Any, ...], RuleSignature] = {}
        for base in reversed(cls.__mro__[1:]):
            for record in self._subclass_records.get(base, ()):
                bound = self._bind_class(record, cls)
                for sig in record.dispatch_signatures():
                    by_sig[sig] = bound
        own = self._tables.get(cls)
        if own is not None:
            for sig, record in own.by_sig.items():
                by_sig[sig] = self._bind_class(record, cls) if record.subclasses else record
        table.by_sig = by_sig
        table.records = list(dict.fromkeys(by_sig.values()))
        table.invalidate()

    def _bind_class(self, record: RuleSignature, cls: type) -> RuleSignature:
        """A ``subclasses=True`` record whose call passes ``cls`` after the config and tangents."""
        position = int(record.config is not None) + self._leading
        return dataclasses.replace(record, call=_ClassBound(record.call, position, cls))

    def _entry_for(self, f: Any) -> Any:
        """Resolve and cache what the top-level cache holds for ``f`` (a cache miss).

        The entry is ``None`` (no rules), a table's ``plain`` dict, or, for a functor
        instance, the functor table itself.
        """
        load_pending(f)  # rules declared for lazy loading are imported here, outside the lock
        try:
            hash(f)
        except TypeError:  # an unhashable object: only functor rules can apply, cached by type
            kind = type(f)
            table = self._functor_cache.get(kind, self)
            if table is self:
                with self._lock:
                    table = self._functor_cache[kind] = self._resolve_table(f)
            return table
        with self._lock:
            table = self._resolve_table(f)
            entry = None if table is None else table if table.functor else table.plain
            if len(self._cache) >= _CACHE_LIMIT:
                self._cache.clear()
            self._cache[f] = entry
        return entry

    def _cached_table(self, f: Any) -> _Table | None:
        """The table for calling ``f``, through the cache (used by the config paths)."""
        try:
            entry = self._cache[f]
        except (KeyError, TypeError):
            entry = self._entry_for(f)
        if entry is None or entry is _CONFIG_MARK:
            return None
        return typing.cast(_Table, entry[_TABLE_KEY] if type(entry) is dict else entry)

    def _remember_config(self, config: RuleConfig) -> None:
        with self._lock:
            try:
                if len(self._cache) >= _CACHE_LIMIT:
                    self._cache.clear()
                self._cache[config] = _CONFIG_MARK
            except TypeError:
                pass

    def _plain_impl(self, plain: dict[Any, Any], key: Any) -> Any:
        """Resolve the no-config implementation for a type key (a miss of ``plain``).

        The key ``_Absent`` is a call with no arguments (the fast path passes its empty
        first slot); its entry drops that placeholder before calling the rule.
        """
        with self._lock:
            table = plain[_TABLE_KEY]
            record = table.dispatch(_NoConfig, () if key is _Absent else _key_types(key))
            impl = None if record is None or record.opt_out else record.call
            if impl is not None and key is _Absent:
                impl = functools.partial(_drop_placeholder, impl, self._leading)
            table.plain[key] = impl
        return impl

    def _impl_for(self, table: _Table, args: tuple[Any, ...]) -> Any:
        """The no-config implementation for ``args``, through the table's cache."""
        key = _type_key(args)
        plain = table.plain
        return plain[key] if key in plain else self._plain_impl(plain, key)

    def _configured(self, table: _Table, config: Any, args: tuple[Any, ...]) -> tuple[Any, bool] | None:
        """``(call, takes_config)`` for calling with ``config``, or None; through the config cache."""
        config_type = type(config)
        key = _type_key(args)
        try:
            return typing.cast("tuple[Any, bool] | None", table.configured[config_type][key])
        except KeyError:
            pass
        with self._lock:
            record = table.dispatch(config_type, _arg_types(args))
            entry = None if record is None or record.opt_out else (record.call, record.config is not None)
            by_args = table.configured.get(config_type)
            if by_args is None:
                by_args = table.configured[config_type] = {}
            by_args[key] = entry
        return entry


class RRuleRegistry(_RuleRegistry):
    """The reverse-mode registry behind :data:`rrule`.

    Call it as ``rrule([config,] f, *args, **kwargs)``: ``None`` when no rule applies,
    else ``(y, pullback)`` with ``pullback(dy) -> (df, dx1, ..., dxn)``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules_core import rrule, NoTangent
    >>> def cube(x):
    ...     return x ** 3
    >>> @rrule.register(cube, float)
    ... def cube_rrule(x):
    ...     def cube_pullback(dy):
    ...         return NoTangent(), 3 * x ** 2 * dy
    ...     return cube(x), cube_pullback
    >>> y, pb = rrule(cube, 2.0)
    >>> y, pb(1.0)
    (8.0, (NoTangent(), 12.0))
    >>> rrule(cube, 2) is None          # no rule for int arguments
    True
    """

    kind = "rrule"

    def __init__(self) -> None:
        super().__init__()
        self._function = _make_rrule_function(self)

    def _adapt_optional(self, impl: Callable[..., Any], n_params: int, has_config: bool,
                        functor: bool) -> Callable[..., Any]:
        """A rule with optional positional parameters returns cotangents for all of them;
        the caller gets one per argument it passed (after the function's own)."""
        skip = int(has_config) + int(functor)

        def rrule_with_optional_arguments(*args: Any, **kwargs: Any) -> Any:
            result = impl(*args, **kwargs)
            given = len(args) - skip
            if result is None or given >= n_params:
                return result
            y, pullback = result
            keep = 1 + given

            def pullback_of_given_arguments(dy: Any) -> Any:
                return pullback(dy)[:keep]

            pullback_of_given_arguments.__name__ = getattr(pullback, "__name__", "pullback")
            pullback_of_given_arguments.__qualname__ = getattr(pullback, "__qualname__", "pullback")
            return y, pullback_of_given_arguments

        rrule_with_optional_arguments.__wrapped__ = impl  # type: ignore[attr-defined]
        return rrule_with_optional_arguments

    def __call__(self, f: Any, /, *args: Any, **kwargs: Any) -> Any:
        return self._function(f, *args, **kwargs)

    def _call_uncached(self, f: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        if isinstance(f, RuleConfig):
            self._remember_config(f)
            return self._call_config(f, args, kwargs)
        if isinstance(f, type) and issubclass(f, RuleConfig):
            raise TypeError(f"rrule(config, f, *args): pass an instance of {f.__name__}, not the class")
        unbound = _unbind(f)
        if unbound is not None:
            return self._function(unbound[0], unbound[1], *args, **kwargs)
        return self._call_entry(f, self._entry_for(f), args, kwargs)

    def _call_entry(self, f: Any, entry: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        """Call through a cache entry that is not a plain dict (or was just resolved)."""
        if entry is None:
            return None
        if entry is _CONFIG_MARK:
            return self._call_config(f, args, kwargs)
        table = entry[_TABLE_KEY] if type(entry) is dict else entry
        impl = self._impl_for(table, args)
        if impl is None:
            return None
        return impl(f, *args, **kwargs) if table.functor else impl(*args, **kwargs)

    def _call_config(self, config: RuleConfig, rest: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        if not rest:
            raise TypeError("rrule(config, f, *args): missing the function f")
        f, args = rest[0], rest[1:]
        unbound = _unbind(f)
        if unbound is not None:
            f, args = unbound[0], (unbound[1],) + args
        table = self._cached_table(f)
        if table is None:
            return None
        entry = self._configured(table, config, args)
        if entry is None:
            return None
        impl, takes_config = entry
        lead = (config,) if takes_config else ()
        if table.functor:
            return impl(*lead, f, *args, **kwargs)
        return impl(*lead, *args, **kwargs)


class _Absent:
    """Type of the default of the call functions' positional-only slots (no argument given)."""


_ABSENT: Any = _Absent()


def _pack(a: Any, b: Any, rest: tuple[Any, ...]) -> tuple[Any, ...]:
    if a is _ABSENT:
        return ()
    if b is _ABSENT:
        return (a,)
    return (a, b, *rest)


def _make_rrule_function(registry: RRuleRegistry) -> Callable[..., Any]:
    """Build the function that serves ``rrule(...)`` calls.

    A plain function is the cheapest thing to call in Python. The first two arguments after
    the function are positional-only parameters rather than part of ``*args``, so the common
    one- and two-argument calls build no tuple, and keyword arguments of any name still reach
    ``**kwargs``. The caches are plain dicts read through closure variables. Rules are called
    without ``**kwargs`` when there are none: an empty ``**{}`` costs as much as a dict look-up.

    The one-argument hit is ``cache[f][type(a)]`` with nothing between the two reads: the
    entry of a config (``_CONFIG_MARK``) or of a functor instance (a ``_Table``) is not
    subscriptable, so those rarer entries are recognised by the ``TypeError`` of the second
    read, not by a test every call pays. A callable with no rules at all is cached as
    ``None`` and answered after the first read (the miss an AD framework asks most).

    With a config, ``rrule(config, g, x)`` is answered from ``g``'s config cache with four
    subscripts in one ``try``: they raise ``TypeError`` for a ``g`` with no rules (``None``),
    a functor (a ``_Table``) or an unhashable ``g``, and ``KeyError`` on a miss; the full
    path then resolves (and caches) the answer.
    """
    cache = registry._cache
    uncached = registry._call_uncached
    call_entry = registry._call_entry
    plain_impl = registry._plain_impl
    absent = _ABSENT
    config_mark = _CONFIG_MARK
    configured_key = _CONFIGURED_KEY

    def rrule(f: Any, a: Any = absent, b: Any = absent, /, *rest: Any, **kwargs: Any) -> Any:
        try:
            plain = cache[f]
        except (KeyError, TypeError):
            return uncached(f, _pack(a, b, rest), kwargs)
        if plain is None:  # a callable with no rules
            return None
        if b is absent:  # one argument (the common case), or none: see _plain_impl
            try:
                impl = plain[type(a)]
            except KeyError:
                impl = plain_impl(plain, type(a))
            except TypeError:  # a config or a functor instance in the function position
                return call_entry(f, plain, (a,) if a is not absent else (), kwargs)
            if impl is None:
                return None
            return impl(a, **kwargs) if kwargs else impl(a)
        if plain.__class__ is not dict:  # a config, or a functor instance
            if plain is config_mark and not rest:  # rrule(config, g, x)
                try:
                    entry = cache[a][configured_key][f.__class__][type(b)]
                except (KeyError, TypeError):
                    return call_entry(f, plain, (a, b), kwargs)
                if entry is None:
                    return None
                impl, takes_config = entry
                if kwargs:
                    return impl(f, b, **kwargs) if takes_config else impl(b, **kwargs)
                return impl(f, b) if takes_config else impl(b)
            return call_entry(f, plain, (a, b, *rest), kwargs)
        if not rest:  # two arguments
            key: Any = (type(a), type(b))
            try:
                impl = plain[key]
            except KeyError:
                impl = plain_impl(plain, key)
            if impl is None:
                return None
            return impl(a, b, **kwargs) if kwargs else impl(a, b)
        args = (a, b, *rest)
        key = tuple(map(type, args))
        try:
            impl = plain[key]
        except KeyError:
            impl = plain_impl(plain, key)
        if impl is None:
            return None
        return impl(*args, **kwargs)

    return rrule


class FRuleRegistry(_RuleRegistry):
    """The forward-mode registry behind :data:`frule`.

    Call it as ``frule([config,] (df, dx1, ..., dxn), f, *args, **kwargs)``: ``None`` when
    no rule applies, else ``(y, dy)``. Implementations receive ``(tangents, *args)``.

    Examples
    --------
    >>> from chainrules_core import frule
    >>> def cube(x):
    ...     return x ** 3
    >>> @frule.register(cube, float)
    ... def cube_frule(tangents, x):
    ...     _, dx = tangents
    ...     return cube(x), 3 * x ** 2 * dx
    >>> frule((None, 1.0), cube, 2.0)
    (8.0, 12.0)
    """

    kind = "frule"
    _leading = 1

    def __init__(self) -> None:
        super().__init__()
        self._function = _make_frule_function(self)

    def _adapt_optional(self, impl: Callable[..., Any], n_params: int, has_config: bool,
                        functor: bool) -> Callable[..., Any]:
        """A rule with optional positional parameters receives tangents for all of them
        (``NoTangent()`` for those the caller did not pass)."""
        lead = int(has_config)
        skip = lead + 1 + int(functor)

        def frule_with_optional_arguments(*args: Any, **kwargs: Any) -> Any:
            given = len(args) - skip
            if given < n_params:
                tangents = (*args[lead], *(NoTangent(),) * (n_params - given))
                args = (*args[:lead], tangents, *args[lead + 1:])
            return impl(*args, **kwargs)

        frule_with_optional_arguments.__wrapped__ = impl  # type: ignore[attr-defined]
        return frule_with_optional_arguments

    def __call__(self, tangents: Any, f: Any = None, /, *args: Any, **kwargs: Any) -> Any:
        return self._function(tangents, f, *args, **kwargs)

    def _call_uncached(self, config: Any, tangents: Any, f: Any, args: tuple[Any, ...],
                       kwargs: dict[str, Any]) -> Any:
        if not isinstance(tangents, (tuple, list)):
            _check_tangents(f, tangents, len(args))
        unbound = _unbind(f)
        if unbound is not None:
            f, args = unbound[0], (unbound[1],) + args
        table = self._cached_table(f)
        if table is None:
            return None
        if config is None:
            impl = self._impl_for(table, args)
            lead: tuple[Any, ...] = ()
        else:
            entry = self._configured(table, config, args)
            if entry is None:
                return None
            impl, takes_config = entry
            lead = (config,) if takes_config else ()
        if impl is None:
            return None
        _check_tangents(f, tangents, len(args))
        if table.functor:
            return impl(*lead, tangents, f, *args, **kwargs)
        return impl(*lead, tangents, *args, **kwargs)

    def _call_config(self, config: RuleConfig, tangents: Any, rest: tuple[Any, ...],
                     kwargs: dict[str, Any]) -> Any:
        if not rest:
            raise TypeError("frule(config, tangents, f, *args): missing the function f")
        return self._call_uncached(config, tangents, rest[0], rest[1:], kwargs)


def _make_frule_function(registry: FRuleRegistry) -> Callable[..., Any]:
    """Build the function that serves ``frule(...)`` calls (see ``_make_rrule_function``).

    The look-up is written out in each branch here and in ``rrule``, not shared through a
    helper: calling one would cost about as much as the look-up itself.
    """
    cache = registry._cache
    uncached = registry._call_uncached
    with_config = registry._call_config
    plain_impl = registry._plain_impl
    absent = _ABSENT
    configured_key = _CONFIGURED_KEY

    def frule(tangents: Any, f: Any = None, a: Any = absent, b: Any = absent, /, *rest: Any,
              **kwargs: Any) -> Any:
        if tangents.__class__ is not tuple and isinstance(tangents, RuleConfig):
            # frule(config, tangents, g, x): here f holds the tangents and a the function
            if b is not absent and not rest:
                try:  # see the config path of rrule
                    entry = cache[a][configured_key][tangents.__class__][type(b)]
                except (KeyError, TypeError):
                    return with_config(tangents, f, (a, b), kwargs)
                if entry is None:
                    return None
                if f.__class__ is not tuple or len(f) != 2:
                    _check_tangents(a, f, 1)
                impl, takes_config = entry
                if kwargs:
                    return impl(tangents, f, b, **kwargs) if takes_config else impl(f, b, **kwargs)
                return impl(tangents, f, b) if takes_config else impl(f, b)
            return with_config(tangents, f, _pack(a, b, rest), kwargs)
        try:
            plain = cache[f]
        except (KeyError, TypeError):
            return uncached(None, tangents, f, _pack(a, b, rest), kwargs)
        if plain.__class__ is not dict:  # no rules, or a functor instance
            return uncached(None, tangents, f, _pack(a, b, rest), kwargs) if plain is not None else None
        if b is absent:  # one argument (the common case), or none: see _plain_impl
            try:
                impl = plain[type(a)]
            except KeyError:
                impl = plain_impl(plain, type(a))
            if impl is None:
                return None
            if tangents.__class__ is not tuple or len(tangents) != (1 if a is absent else 2):
                _check_tangents(f, tangents, 0 if a is absent else 1)
            return impl(tangents, a, **kwargs) if kwargs else impl(tangents, a)
        if not rest:  # two arguments
            key: Any = (type(a), type(b))
            try:
                impl = plain[key]
            except KeyError:
                impl = plain_impl(plain, key)
            if impl is None:
                return None
            if tangents.__class__ is not tuple or len(tangents) != 3:
                _check_tangents(f, tangents, 2)
            return impl(tangents, a, b, **kwargs) if kwargs else impl(tangents, a, b)
        args = (a, b, *rest)
        key = tuple(map(type, args))
        try:
            impl = plain[key]
        except KeyError:
            impl = plain_impl(plain, key)
        if impl is None:
            return None
        if tangents.__class__ is not tuple or len(tangents) != len(args) + 1:
            _check_tangents(f, tangents, len(args))
        return impl(tangents, *args, **kwargs)

    return frule


def _check_tangents(f: Any, tangents: Any, nargs: int) -> None:
    """Raise a clear error unless ``tangents`` is a tuple or list of ``nargs + 1`` tangents."""
    expected = "(df,)" if nargs == 0 else "(df, dx)" if nargs == 1 else f"(df, dx1, ..., dx{nargs})"
    if not isinstance(tangents, (tuple, list)):
        raise TypeError(f"frule(tangents, f, *args): tangents must be a tuple {expected} (the tangent of "
                        f"the function, then one per argument), got {type(tangents).__name__}; "
                        "did you forget the tangents?")
    if len(tangents) != nargs + 1:
        raise TypeError(f"frule({_callable_name(f)}): got {len(tangents)} tangents for {nargs} "
                        f"argument{'s' if nargs != 1 else ''}; pass {expected}, {nargs + 1} in all")


def _format_sig(sig: tuple[Any, ...]) -> str:
    head, rest = sig[0], sig[1:]
    parts = [f"*{_type_name(t.variadic_type)}" if hasattr(t, "variadic_type") else _type_name(t) for t in rest]
    text = "(" + ", ".join(parts) + ")"
    if head is not object:
        text += f" [config: {_type_name(head)}]"
    return text


_PUBLIC = ("register", "register_functor", "opt_out", "on_new_rule", "functions", "signatures", "find")


def _public_function(registry: _RuleRegistry, function: Callable[..., Any]) -> Any:
    """Give the call function the registry's public methods, so ``rrule.register`` works."""
    for name in _PUBLIC:
        setattr(function, name, getattr(registry, name))
    function.registry = registry  # type: ignore[attr-defined]
    function.kind = registry.kind  # type: ignore[attr-defined]
    function.__doc__ = type(registry).__doc__
    function.__module__ = __name__
    return function


_RRULE = RRuleRegistry()
_FRULE = FRuleRegistry()

rrule: RRuleRegistry = typing.cast(RRuleRegistry, _public_function(_RRULE, _RRULE._function))
"""The reverse-mode rule registry: ``rrule([config,] f, *args, **kwargs)``."""

frule: FRuleRegistry = typing.cast(FRuleRegistry, _public_function(_FRULE, _FRULE._function))
"""The forward-mode rule registry: ``frule([config,] tangents, f, *args, **kwargs)``."""
