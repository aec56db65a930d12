"""Where the traced values of a call are: the binding of a call's arguments, for every bridge.

An AD framework hands a bridge a call ``f(*args, **kwargs)`` in which some values are
*traced* (autograd's boxes, JAX's tracers, PyTorch's tensors that require a gradient). A
rule differentiates positional arguments only, and takes a tuple, list or dict argument
whole, giving it a structural cotangent (``Tangent(tuple, dt)`` for ``(t,)``). So the
bridge must

1. bind a keyword argument holding a traced value to its position, when the function's
   signature gives it one (``quad(f, a, b, args=(t,))`` is ``quad(f, a, b, (t,))``), filling
   the positions in between with the keywords given or the parameters' defaults; a traced
   value in a keyword argument that has no position (keyword-only, ``**kwargs``, a
   function whose signature cannot be read) raises
   :class:`~chainrules.interop.errors.KeywordArgumentError` naming the function and the
   keyword: it is never treated as a constant;
2. find the traced values inside tuples, lists and dicts (nested, namedtuples and dict
   subclasses included), each at a :data:`Slot` ``(position, path)``;
3. call the rule on the arguments rebuilt with plain values (:meth:`BoundCall.rebuild`:
   new containers, the user's are never mutated);
4. give each traced value its own cotangent, taken from the structural cotangent of the
   argument holding it (:meth:`BoundCall.take`), and, in forward mode, assemble the
   tangents of the traced values into structural tangents of their arguments
   (:meth:`BoundCall.put`).

:func:`locate` does steps 1 and 2; it knows nothing about any framework: a bridge passes
its own ``is_traced`` predicate. The names used in error messages (:func:`function_name`,
:func:`argument_label`) are here too.

Examples
--------
>>> import numpy as np
>>> from chainrules import Tangent, ZeroTangent
>>> from chainrules.interop._arguments import locate
>>> def integrate(f, a, b, args=(), limit=50):
...     return 0.0
>>> traced = lambda v: isinstance(v, float)
>>> call = locate(integrate, (None, 0, 1), {"args": (2.0, 3), "limit": 10}, traced)
>>> call.args, call.kwargs, call.slots
((None, 0, 1, (2.0, 3)), {'limit': 10}, ((3, (0,)),))
>>> call.rebuild([5.0])
[None, 0, 1, (5.0, 3)]
>>> call.take([None, None, None, Tangent(tuple, 0.5, ZeroTangent())])
[0.5]
"""

from __future__ import annotations

import copy
import functools
import inspect
import sys
import types
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from chainrules.interop.errors import KeywordArgumentError
from chainrules_core import AbstractZero, NotImplementedTangent, Tangent, ZeroTangent, unthunk

__all__ = ["BoundCall", "Slot", "argument_label", "function_name", "locate"]

Path = tuple[Any, ...]
Slot = tuple[int, Path]
"""Where a traced value sits: ``(position, path)``, the positional argument then the keys
(indices of tuples and lists, keys of dicts) leading to it; ``path == ()`` for an argument
that is itself traced."""

_ZERO = ZeroTangent()
_POSITIONAL = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)


# ---- names, for error messages -------------------------------------------------------------------------
def function_name(f: Any) -> str:
    """``module.name`` of a callable, for error messages (``numpy.add``, ``scipy.special.jv``).

    A wrapper with a ``fun`` attribute (an autograd primitive) is named after the function
    it wraps.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.interop._arguments import function_name
    >>> function_name(np.linalg.cholesky), function_name(np.sin)
    ('numpy.linalg.cholesky', 'numpy.sin')
    >>> import scipy.integrate, scipy.stats
    >>> function_name(scipy.integrate.solve_ivp), function_name(scipy.stats.norm.logpdf)
    ('scipy.integrate.solve_ivp', 'scipy.stats.norm.logpdf')
    """
    f = getattr(f, "fun", f)
    if isinstance(f, types.MethodType):
        public = _public_object_name(f.__self__)
        if public is not None:
            return f"{public}.{f.__name__}"
    name = getattr(f, "__qualname__", None) or getattr(f, "__name__", None) or type(f).__name__
    module = getattr(f, "__module__", None)
    if module and "._" in module:  # a private module: the public one that exports the function
        parent = module.split("._", 1)[0]
        if getattr(sys.modules.get(parent), str(name), None) is f:
            module = parent
    if isinstance(f, np.ufunc) and module is None:
        special = sys.modules.get("scipy.special")
        module = "scipy.special" if special is not None and getattr(special, f.__name__, None) is f else "numpy"
    if module and module.startswith("numpy.linalg"):
        module = "numpy.linalg"
    elif module and module.startswith("numpy.") and getattr(np, str(name), None) is f:
        module = "numpy"
    elif module and module.startswith("scipy.linalg."):
        module = "scipy.linalg"
    return f"{module}.{name}" if module and module not in ("builtins", "__main__") else str(name)


def _public_object_name(owner: Any) -> str | None:
    """``scipy.stats.norm`` for the object a public module exports under that name (``None`` otherwise)."""
    parent = type(owner).__module__.split("._", 1)[0]
    module = sys.modules.get(parent)
    if module is None:
        return None
    for name in (getattr(owner, "name", None), type(owner).__name__.removesuffix("_gen")):
        if isinstance(name, str) and getattr(module, name, None) is owner:
            return f"{parent}.{name}"
    return None


def argument_label(f: Any, argnum: int, path: Path = ()) -> str:
    """``argument 1 ('x')``: the position and, when the signature tells, the name of an argument.

    ``path`` names a value inside a tuple, list or dict argument: ``argument 3 ('args')[0]``.

    Examples
    --------
    >>> from chainrules.interop._arguments import argument_label
    >>> def f(nu, x, args=()):
    ...     return x
    >>> argument_label(f, 0), argument_label(f, 2, (0,))
    ("argument 0 ('nu')", "argument 2 ('args')[0]")
    """
    f = getattr(f, "fun", f)
    name = None
    if isinstance(f, np.ufunc):
        name = f"x{argnum + 1}" if f.nin > 1 else "x"
    else:
        for k, p in enumerate(_parameters(f) or ()):
            if p.kind is p.VAR_POSITIONAL:
                name = f"{p.name}[{argnum - k}]"
                break
            if k == argnum and p.kind in _POSITIONAL:
                name = p.name
                break
    label = f"argument {argnum} ({name!r})" if name else f"argument {argnum}"
    return label + "".join(f"[{key!r}]" for key in path)


@functools.lru_cache(maxsize=1024)
def _cached_parameters(f: Any) -> tuple[inspect.Parameter, ...] | None:
    try:
        return tuple(inspect.signature(f).parameters.values())
    except (TypeError, ValueError):
        return None


def _distribution_parameters(f: Any, params: tuple[inspect.Parameter, ...] | None
                             ) -> tuple[inspect.Parameter, ...] | None:
    """A ``scipy.stats`` distribution's method ``(x, *args, **kwds)`` with ``*args`` spelled out.

    ``scipy.stats.gamma.logpdf(x, *args, **kwds)`` takes the shapes, ``loc`` and ``scale`` by
    position or by keyword, in the order of the distribution's ``_parse_args`` signature
    (``(a, loc=0, scale=1)``), which SciPy generates for each distribution; with it, a traced
    ``loc=`` binds to its position like any other keyword.
    """
    owner = getattr(f, "__self__", None)
    parse = getattr(owner, "_parse_args", None)
    if (params is None or parse is None or not type(owner).__module__.startswith("scipy.stats")
            or not any(p.kind is p.VAR_POSITIONAL for p in params)):
        return params
    shapes = _cached_parameters(parse)
    if shapes is None or any(p.kind not in _POSITIONAL for p in shapes):
        return params
    out: list[inspect.Parameter] = []
    for p in params:
        if p.kind is p.VAR_POSITIONAL:
            out.extend(shapes)
        elif p.kind is not p.KEYWORD_ONLY:
            out.append(p)
    return tuple(out)


def _parameters(f: Any) -> tuple[inspect.Parameter, ...] | None:
    """The parameters of ``f``'s signature, or ``None`` when it cannot be read.

    A ``scipy.stats`` distribution's bound method (``scipy.stats.norm.logpdf``) has its
    ``*args`` replaced by the distribution's shapes, ``loc`` and ``scale``
    (:func:`_distribution_parameters`).
    """
    try:
        params = _cached_parameters(f)
    except TypeError:  # unhashable callable
        params = _cached_parameters.__wrapped__(f)
    if isinstance(f, types.MethodType):
        return _distribution_parameters(f, params)
    return params


# ---- finding traced values -----------------------------------------------------------------------------
def _find(x: Any, is_traced: Callable[[Any], bool], path: Path, found: list[tuple[Path, Any]]) -> None:
    if is_traced(x):
        found.append((path, x))
    elif isinstance(x, (tuple, list)):
        for i, v in enumerate(x):
            _find(v, is_traced, (*path, i), found)
    elif isinstance(x, dict):
        for k, v in x.items():
            _find(v, is_traced, (*path, k), found)


def _holds(x: Any, is_traced: Callable[[Any], bool]) -> bool:
    if is_traced(x):
        return True
    if isinstance(x, (tuple, list)):
        return any(_holds(v, is_traced) for v in x)
    if isinstance(x, dict):
        return any(_holds(v, is_traced) for v in x.values())
    return False


def _bind_keywords(f: Any, args: tuple[Any, ...], kwargs: dict[str, Any], traced: list[str]
                   ) -> tuple[tuple[Any, ...], dict[str, Any]]:
    """``args`` extended up to the last keyword of ``traced``, which must all have a position."""
    name = function_name(f)
    params = _parameters(getattr(f, "fun", f))
    if params is None:
        raise KeywordArgumentError(
            f"{name}: the keyword argument {traced[0]!r} holds a traced value, and the signature of {name} cannot be "
            "read to find its position; pass it by position (rules differentiate positional arguments only, and a "
            "traced keyword argument is never treated as a constant)")
    index: dict[str, int] = {}
    for j, p in enumerate(params):
        if p.kind is p.VAR_POSITIONAL:
            break
        if p.kind is p.POSITIONAL_OR_KEYWORD:
            index[p.name] = j
    for key in traced:
        if key not in index:
            p_kind = next((p.kind for p in params if p.name == key), None)
            how = ("takes it only by keyword" if p_kind is inspect.Parameter.KEYWORD_ONLY
                   else "takes it through **kwargs" if p_kind is None else "takes it only by position")
            raise KeywordArgumentError(
                f"{name}: the keyword argument {key!r} holds a traced value, but {name} {how}, so it cannot be "
                "bound to a position; rules differentiate positional arguments only, and a traced keyword argument "
                "is never treated as a constant. Pass the value by position, or as an argument of a function of "
                "your own whose rule differentiates it")
        if index[key] < len(args):
            raise TypeError(f"{name}() got multiple values for argument {key!r}")
    last = max(index[key] for key in traced)
    new_args = list(args)
    rest = dict(kwargs)
    for j in range(len(args), last + 1):
        p = params[j]
        if p.name in rest:
            new_args.append(rest.pop(p.name))
        elif p.default is not p.empty:
            new_args.append(p.default)
        else:
            raise TypeError(f"{name}() missing required argument {p.name!r}")
    return tuple(new_args), rest


def locate(f: Any, args: Sequence[Any], kwargs: dict[str, Any], is_traced: Callable[[Any], bool],
           bind_keywords: bool = True) -> BoundCall | None:
    """The traced values of the call ``f(*args, **kwargs)``, with keywords bound; ``None`` if there are none.

    Parameters
    ----------
    f : callable
        The function called (its signature places the keyword arguments).
    args, kwargs
        The call's arguments.
    is_traced : callable
        The bridge's predicate: whether a value is traced. It is asked before a tuple,
        list or dict is searched, so a framework's own traced containers count as one value.
    bind_keywords : bool
        Whether keyword arguments are searched (and bound to their positions). With
        ``False`` they are constants, as in a rule's ``rrule_via_ad``.

    Raises
    ------
    KeywordArgumentError
        A keyword argument holding a traced value has no position in ``f``'s signature.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.interop._arguments import locate
    >>> traced = lambda v: isinstance(v, np.ndarray)
    >>> call = locate(np.concatenate, ([np.ones(2), 3.0, {"k": np.zeros(1)}],), {}, traced)
    >>> call.slots
    ((0, (0,)), (0, (2, 'k')))
    >>> locate(np.add, (1.0, 2.0), {}, traced) is None
    True
    """
    found: list[tuple[Path, Any]] = []
    for i, a in enumerate(args):
        _find(a, is_traced, (i,), found)
    rest = kwargs
    if bind_keywords and kwargs:
        traced = [k for k, v in kwargs.items() if _holds(v, is_traced)]
        if traced:
            n = len(args)
            args, rest = _bind_keywords(f, tuple(args), kwargs, traced)
            for i in range(n, len(args)):
                _find(args[i], is_traced, (i,), found)
    if not found:
        return None
    return BoundCall(f, tuple(args), dict(rest), tuple((p[0], p[1:]) for p, _ in found), tuple(v for _, v in found))


# ---- rebuilding, taking apart, assembling --------------------------------------------------------------
class _Leaf:
    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value


def _tree(slots: Sequence[Slot], values: Sequence[Any]) -> dict[int, Any]:
    """position -> a ``_Leaf`` (the argument itself) or a nested dict of keys down to ``_Leaf``\\ s."""
    tree: dict[Any, Any] = {}
    for (position, path), value in zip(slots, values):
        if not path:
            tree[position] = _Leaf(value)
            continue
        node = tree.setdefault(position, {})
        for key in path[:-1]:
            node = node.setdefault(key, {})
        node[path[-1]] = _Leaf(value)
    return tree


def _replaced(container: Any, sub: dict[Any, Any]) -> Any:
    """A new ``container`` with the entries named in ``sub`` replaced (recursively)."""
    def new(key: Any, old: Any) -> Any:
        entry = sub[key]
        return entry.value if isinstance(entry, _Leaf) else _replaced(old, entry)

    if isinstance(container, dict):
        out = copy.copy(container)
        for key in sub:
            out[key] = new(key, container[key])
        return out
    parts = [new(i, v) if i in sub else v for i, v in enumerate(container)]
    if isinstance(container, list):
        if type(container) is list:
            return parts
        sequence = copy.copy(container)
        sequence[:] = parts
        return sequence
    if hasattr(container, "_fields"):  # a namedtuple
        return type(container)(*parts)
    return tuple(parts) if type(container) is tuple else type(container)(parts)


def _child(ct: Any, container: Any, key: Any, call: BoundCall, k: int) -> Any:
    """The part of the (co)tangent ``ct`` of ``container`` that belongs to ``container[key]``."""
    ct = unthunk(ct)
    if isinstance(ct, (AbstractZero, NotImplementedTangent)):
        return ct
    if isinstance(ct, Tangent):
        return ct[key]
    if isinstance(ct, dict) and isinstance(container, dict):
        return ct.get(key, _ZERO)
    if isinstance(ct, (tuple, list)) and isinstance(container, (tuple, list)) and len(ct) == len(container):
        return ct[key]
    if (isinstance(ct, np.ndarray) and isinstance(container, (tuple, list)) and ct.ndim >= 1
            and ct.shape[0] == len(container)):  # a sequence read as an array: its rows
        return ct[key]
    raise TypeError(f"{function_name(call.f)}: the rule gave {argument_label(call.f, *call.slots[k])} the (co)tangent "
                    f"{type(ct).__name__} {getattr(ct, 'shape', '')}, which is not a structural tangent of the "
                    f"{type(container).__name__} holding it; expected Tangent({type(container).__name__}, ...)")


def _assembled(container: Any, sub: dict[Any, Any], fill: Callable[[Any], Any]) -> Any:
    """The structural tangent of ``container``: the leaves of ``sub`` where given, ``fill(value)`` elsewhere."""
    def part(key: Any, value: Any) -> Any:
        if key not in sub:
            return fill(value)
        entry = sub[key]
        return entry.value if isinstance(entry, _Leaf) else _assembled(value, entry, fill)

    if isinstance(container, dict):
        return Tangent(type(container), {k: part(k, v) for k, v in container.items()})
    return Tangent(type(container), *[part(i, v) for i, v in enumerate(container)])


class BoundCall:
    """A call's arguments bound (keywords placed at their positions), with its traced values located.

    Made by :func:`locate`; a bridge reads it, and uses :meth:`rebuild`, :meth:`take` and
    :meth:`put` to go between whole arguments and traced values.

    Attributes
    ----------
    f : callable
        The function called.
    args : tuple
        The positional arguments, keyword arguments holding traced values included (at
        their positions), still holding the traced values.
    kwargs : dict
        The other keyword arguments (constants for the rules).
    slots : tuple of Slot
        Where each traced value sits, in the order of the arguments (then of the
        containers' elements or keys).
    values : tuple
        The traced values, one per slot.

    Examples
    --------
    >>> from chainrules import ZeroTangent
    >>> from chainrules.interop._arguments import locate
    >>> call = locate(max, ({"a": 1.0, "b": 2},), {}, lambda v: isinstance(v, float))
    >>> call.put([3.0], lambda v: ZeroTangent(), call.args)
    (Tangent(dict, {'a': 3.0, 'b': ZeroTangent()}),)
    """

    __slots__ = ("_slots", "args", "f", "flat", "kwargs", "positions", "values")

    def __init__(self, f: Any, args: tuple[Any, ...], kwargs: dict[str, Any], slots: tuple[Slot, ...],
                 values: tuple[Any, ...]) -> None:
        self.f = f
        self.args = args
        self.kwargs = kwargs
        self._slots: tuple[Slot, ...] | None = slots
        self.values = values
        self.positions = tuple([position for position, _ in slots])
        """The position of each slot's argument."""
        self.flat = not any([path for _, path in slots])
        """Whether every traced value is a positional argument itself (no containers)."""

    @classmethod
    def at_positions(cls, f: Any, args: Sequence[Any], kwargs: dict[str, Any], positions: Sequence[int],
                     values: Sequence[Any]) -> BoundCall:
        """The call whose traced values are the positional arguments ``positions`` themselves (no search).

        The bridges' fast path, and how autograd itself records a call (``argnums``).
        """
        call = object.__new__(cls)
        call.f = f
        call.args = args  # type: ignore[assignment]
        call.kwargs = kwargs
        call._slots = None
        call.values = values  # type: ignore[assignment]
        call.positions = tuple(positions)
        call.flat = True
        return call

    @property
    def slots(self) -> tuple[Slot, ...]:
        """Where each traced value sits (see :data:`Slot`)."""
        if self._slots is None:
            self._slots = tuple([(position, ()) for position in self.positions])
        return self._slots

    def __repr__(self) -> str:
        return f"BoundCall({function_name(self.f)}, slots={self.slots})"

    def label(self, k: int) -> str:
        """The name of slot ``k`` for error messages: ``argument 3 ('args')[0]``."""
        return argument_label(self.f, *self.slots[k])

    def select(self, keep: Sequence[bool]) -> BoundCall:
        """The same call with only the slots where ``keep`` is true (the others stay as they are)."""
        values = tuple([v for v, k in zip(self.values, keep) if k])
        if self.flat:
            return BoundCall.at_positions(self.f, self.args, self.kwargs,
                                          [p for p, k in zip(self.positions, keep) if k], values)
        return BoundCall(self.f, self.args, self.kwargs, tuple([s for s, k in zip(self.slots, keep) if k]), values)

    def rebuild(self, values: Sequence[Any], args: Sequence[Any] | None = None) -> list[Any]:
        """The positional arguments with slot ``k`` holding ``values[k]``: new containers, inputs untouched."""
        out = list(self.args if args is None else args)
        if self.flat:
            for position, value in zip(self.positions, values):
                out[position] = value
            return out
        for position, entry in _tree(self.slots, values).items():
            out[position] = entry.value if isinstance(entry, _Leaf) else _replaced(out[position], entry)
        return out

    def take(self, per_argument: Sequence[Any]) -> list[Any]:
        """The (co)tangent of each slot's value, from the (co)tangents of the positional arguments.

        A structural ``Tangent`` (or a plain tuple, list or dict, or an array for a sequence
        NumPy reads as an array) is indexed down the slot's path; zeros and
        not-implemented tangents are passed down unchanged; thunks on the way down are
        unthunked, and the value found at the slot is returned as it is (a thunk stays one).

        Raises
        ------
        TypeError
            A (co)tangent of a container argument cannot be indexed down to a slot.
        """
        if self.flat:
            return [per_argument[position] for position in self.positions]
        out = []
        for k, (position, path) in enumerate(self.slots):
            ct = per_argument[position]
            container = self.args[position]
            for key in path:
                ct = _child(ct, container, key, self, k)
                container = container[key]
            out.append(ct)
        return out

    def put(self, per_slot: Sequence[Any], fill: Callable[[Any], Any], args: Sequence[Any]) -> tuple[Any, ...]:
        """The (co)tangent of each positional argument, from one per slot.

        A container argument gets a structural ``Tangent`` of its type, holding the slots'
        values where they are and ``fill(value)`` (a zero, say) elsewhere; an argument with
        no slot gets ``fill(argument)``. ``args`` are the primal arguments (untraced).
        """
        out = [fill(a) for a in args]
        for position, entry in _tree(self.slots, per_slot).items():
            out[position] = entry.value if isinstance(entry, _Leaf) else _assembled(args[position], entry, fill)
        return tuple(out)
