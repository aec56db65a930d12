"""``Tangent``: the structural tangent of tuples, namedtuples, dicts, dataclasses and objects.

A ``Tangent(P, ...)`` holds one tangent per element or field of a primal of type ``P``.
Fields that are not given read as ``ZeroTangent()``. Three layouts exist, chosen from ``P``:

* sequences (``tuple``, ``list``): positional elements, ``Tangent(tuple, dx, dy)``;
* mappings (``dict`` and its subclasses): ``Tangent(dict, {"a": da})`` or ``Tangent(dict, a=da)``;
* everything else (namedtuples, dataclasses, plain objects): named fields,
  ``Tangent(Point, x=dx)``; a namedtuple also accepts its elements positionally.

When ``P`` declares its fields (namedtuple ``_fields``, dataclass fields, ``__slots__``),
naming any other field is an error. A plain class declares none, so any missing public
name reads as ``ZeroTangent()``, except private names and the attributes duck typing
probes for (``shape``, ``dtype``, ``toarray``...; see ``_PROBED_ATTRIBUTES``), which raise
``AttributeError`` unless stored: ``np.shape(t)`` must not find a zero.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import numpy as np

from chainrules_core.tangents.base import AbstractTangent
from chainrules_core.tangents.zeros import AbstractZero, ZeroTangent

_SEQUENCE, _MAPPING, _FIELDS = "sequence", "mapping", "fields"

_PROBED_ATTRIBUTES = frozenset({
    "shape", "dtype", "ndim", "size", "T", "mT", "flags", "strides", "nnz", "format",
    "toarray", "todense", "tocsr", "tocoo", "unthunk", "add_fn", "read", "write", "keys", "items",
})
"""Names code probes for with ``hasattr``/``getattr``: never read as a zero field of a
plain object's ``Tangent`` (unless the tangent stores a field of that name)."""


def _is_namedtuple_type(P: type) -> bool:
    return issubclass(P, tuple) and hasattr(P, "_fields")


def _layout(P: type) -> str:
    if _is_namedtuple_type(P):
        return _FIELDS
    if issubclass(P, (tuple, list)):
        return _SEQUENCE
    if issubclass(P, Mapping):
        return _MAPPING
    return _FIELDS


def field_names(P: type) -> tuple[str, ...] | None:
    """Return the declared field names of type ``P``, or ``None`` when it declares none.

    Namedtuples give ``_fields``, dataclasses their fields, classes with ``__slots__``
    their slots. A plain class (fields only known per instance) gives ``None``.

    Examples
    --------
    >>> from collections import namedtuple
    >>> from chainrules_core.tangents.structural import field_names
    >>> field_names(namedtuple("P", "x y"))
    ('x', 'y')
    """
    if _is_namedtuple_type(P):
        return tuple(P._fields)  # type: ignore[attr-defined]
    if dataclasses.is_dataclass(P):
        return tuple(f.name for f in dataclasses.fields(P))
    slots: list[str] = []
    has_dict = False
    for klass in P.__mro__:
        if klass is object:
            continue
        if "__slots__" not in klass.__dict__:
            has_dict = True
            break
        declared = klass.__dict__["__slots__"]
        declared = (declared,) if isinstance(declared, str) else declared
        slots.extend(s for s in declared if s not in ("__dict__", "__weakref__"))
        if "__dict__" in declared:
            has_dict = True
    if has_dict or not slots:
        return None
    return tuple(slots)


def _is_zero(x: Any) -> bool:
    return isinstance(x, AbstractZero)


def _values_equal(a: Any, b: Any) -> bool:
    if _is_zero(a) or _is_zero(b):
        other = b if _is_zero(a) else a
        return _is_zero(other) or bool(np.all(np.asarray(other) == 0))
    if isinstance(a, (np.ndarray, np.generic)) or isinstance(b, (np.ndarray, np.generic)):
        return bool(np.array_equal(np.asarray(a), np.asarray(b)))
    return bool(a == b)


class Tangent(AbstractTangent):
    """The structural tangent of a primal of type ``P``.

    Parameters
    ----------
    P : type
        The primal's type: ``tuple``, ``list``, ``dict``, a namedtuple class, a dataclass or
        any other class.
    *elements
        Positional elements (sequences and namedtuples), or one mapping for ``dict``.
    **fields
        Named fields (namedtuples, dataclasses, objects, ``dict`` with string keys).

    Examples
    --------
    >>> from dataclasses import dataclass
    >>> from chainrules_core import Tangent
    >>> @dataclass
    ... class Foo:
    ...     A: float
    ...     c: float
    >>> t = Tangent(Foo, A=2.0)
    >>> t.A, t.c
    (2.0, ZeroTangent())
    >>> t + t
    Tangent(Foo, A=4.0)
    >>> Foo(1.0, 1.0) + t
    Foo(A=3.0, c=1.0)
    """

    __slots__ = ("_backing", "_layout", "_names", "primal_type")

    def __init__(self, P: type, *elements: Any, **fields: Any) -> None:
        if not isinstance(P, type):
            raise TypeError(f"Tangent(P, ...) needs the primal's type as P, got {P!r}")
        layout = _layout(P)
        names = field_names(P) if layout == _FIELDS else None
        backing: Any
        if layout == _SEQUENCE:
            if fields:
                raise TypeError(f"Tangent({P.__name__}, ...) takes elements by position, "
                                f"not fields {sorted(fields)}")
            backing = tuple(elements)
        elif layout == _MAPPING:
            if elements:
                if len(elements) != 1 or not isinstance(elements[0], Mapping) or fields:
                    raise TypeError(f"Tangent({P.__name__}, ...) takes one mapping or keyword fields")
                backing = dict(elements[0])
            else:
                backing = dict(fields)
        else:
            backing = {}
            if elements:
                if names is None or len(elements) > len(names):
                    raise TypeError(f"Tangent({P.__name__}, ...) got {len(elements)} positional "
                                    f"elements but {P.__name__} has fields {names}")
                backing.update(zip(names, elements))
            for key, value in fields.items():
                if key in backing:
                    raise TypeError(f"Tangent({P.__name__}, ...) got field {key!r} twice")
                backing[key] = value
            if names is not None:
                unknown = [k for k in backing if k not in names]
                if unknown:
                    raise TypeError(f"Tangent({P.__name__}, ...): unknown field(s) {unknown}; "
                                    f"{P.__name__} has fields {names}")
        self._set(P, layout, backing, names)

    def _set(self, P: type, layout: str, backing: Any, names: tuple[str, ...] | None) -> None:
        object.__setattr__(self, "primal_type", P)
        object.__setattr__(self, "_layout", layout)
        object.__setattr__(self, "_backing", backing)
        object.__setattr__(self, "_names", names)

    @classmethod
    def _from_backing(cls, P: type, backing: Any) -> Tangent:
        """Build without validation (the backing already has the right layout)."""
        t = object.__new__(cls)
        layout = _layout(P)
        t._set(P, layout, backing, field_names(P) if layout == _FIELDS else None)
        return t

    # ---- access -------------------------------------------------------------------------
    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or self._layout != _FIELDS:
            raise AttributeError(f"Tangent({self.primal_type.__name__}) has no attribute {name!r}"
                                 + ("; index it with t[key]" if self._layout == _MAPPING else ""))
        backing = self._backing
        if name in backing:
            return backing[name]
        if self._names is not None:
            if name in self._names:
                return ZeroTangent()
            raise AttributeError(f"{self.primal_type.__name__} has no field {name!r}; "
                                 f"its fields are {self._names}")
        # P declares no fields (a plain class): any name may be a field, except private names
        # and the attributes duck typing probes for (``np.shape(t)``, ``getattr(t, "dtype",
        # None)``...), which must not find a zero.
        if name.startswith("_") or name in _PROBED_ATTRIBUTES:
            raise AttributeError(f"Tangent({self.primal_type.__name__}) has no stored field {name!r}")
        return ZeroTangent()

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Tangent is immutable")

    def __getitem__(self, key: Any) -> Any:
        backing = self._backing
        if self._layout == _SEQUENCE:
            return backing[key]
        if self._layout == _FIELDS and isinstance(key, int) and self._names is not None:
            key = self._names[key]
        if key in backing:
            return backing[key]
        if self._layout == _FIELDS and self._names is not None and key not in self._names:
            raise KeyError(f"{self.primal_type.__name__} has no field {key!r}")
        return ZeroTangent()

    def __iter__(self) -> Iterator[Any]:
        if self._layout == _SEQUENCE:
            return iter(self._backing)
        if _is_namedtuple_type(self.primal_type):
            return (self[name] for name in self.primal_type._fields)  # type: ignore[attr-defined]
        raise TypeError(f"Tangent({self.primal_type.__name__}) is not iterable; use backing(t)")

    def __len__(self) -> int:
        if self._layout == _FIELDS and self._names is not None:
            return len(self._names)
        return len(self._backing)

    def __repr__(self) -> str:
        name = self.primal_type.__name__
        if self._layout == _SEQUENCE:
            inner = ", ".join(repr(v) for v in self._backing)
        elif self._layout == _MAPPING:
            inner = repr(self._backing)
        else:
            inner = ", ".join(f"{k}={v!r}" for k, v in self._backing.items())
        return f"Tangent({name}{', ' if inner else ''}{inner})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Tangent) or other.primal_type is not self.primal_type:
            return False
        if self._layout == _SEQUENCE:
            a, b = self._backing, other._backing
            return len(a) == len(b) and all(_values_equal(x, y) for x, y in zip(a, b))
        keys = set(self._backing) | set(other._backing)
        return all(_values_equal(self[k], other[k]) for k in keys)

    __hash__ = None  # type: ignore[assignment]

    def __reduce__(self) -> Any:
        return (Tangent._from_backing, (self.primal_type, self._backing))

    # ---- helpers used by the arithmetic -------------------------------------------------------
    def map(self, fn: Callable[[Any], Any]) -> Tangent:
        """Return a Tangent of the same type with ``fn`` applied to every stored element.

        Examples
        --------
        >>> from chainrules_core import Tangent
        >>> Tangent(tuple, 1.0, 2.0).map(lambda v: 10 * v)
        Tangent(tuple, 10.0, 20.0)
        """
        if self._layout == _SEQUENCE:
            return Tangent._from_backing(self.primal_type, tuple(fn(v) for v in self._backing))
        return Tangent._from_backing(self.primal_type, {k: fn(v) for k, v in self._backing.items()})

    def _add_tangent(self, other: Tangent) -> Tangent:
        if other.primal_type is not self.primal_type:
            raise TypeError(f"cannot add Tangent({self.primal_type.__name__}) and "
                            f"Tangent({other.primal_type.__name__})")
        if self._layout == _SEQUENCE:
            a, b = self._backing, other._backing
            if len(a) != len(b):
                raise ValueError(f"cannot add Tangent({self.primal_type.__name__}) of lengths "
                                 f"{len(a)} and {len(b)}")
            return Tangent._from_backing(self.primal_type, tuple(x + y for x, y in zip(a, b)))
        out = dict(self._backing)
        for key, value in other._backing.items():
            out[key] = out[key] + value if key in out else value
        return Tangent._from_backing(self.primal_type, out)

    def _add_to_primal(self, primal: Any) -> Any:
        """Return a new primal: ``primal`` moved along this tangent."""
        P = self.primal_type
        if not isinstance(primal, P):
            raise TypeError(f"cannot add Tangent({P.__name__}) to a {type(primal).__name__}")
        backing = self._backing
        if self._layout == _SEQUENCE:
            if len(backing) != len(primal):
                raise ValueError(f"cannot add Tangent({P.__name__}) of length {len(backing)} "
                                 f"to a {P.__name__} of length {len(primal)}")
            return type(primal)(p + d for p, d in zip(primal, backing))
        if _is_namedtuple_type(P):
            return primal._replace(**{k: getattr(primal, k) + v for k, v in backing.items()})
        if self._layout == _MAPPING:
            new = copy.copy(primal)
            for key, value in backing.items():
                if key not in primal:
                    raise KeyError(f"cannot add a tangent for key {key!r}: not in the primal")
                new[key] = primal[key] + value
            return new
        new = copy.copy(primal)
        for name, value in backing.items():
            if not hasattr(primal, name):
                raise AttributeError(f"{type(primal).__name__} has no field {name!r}")
            object.__setattr__(new, name, getattr(primal, name) + value)
        return new


def canonicalize(t: Tangent) -> Tangent:
    """Return ``t`` with every declared field present, in the declared order.

    Missing fields become ``ZeroTangent()``. Sequences and dicts are returned as they are.

    Examples
    --------
    >>> from collections import namedtuple
    >>> from chainrules_core import Tangent, canonicalize
    >>> Point = namedtuple("Point", "x y")
    >>> canonicalize(Tangent(Point, y=1.0))
    Tangent(Point, x=ZeroTangent(), y=1.0)
    """
    if not isinstance(t, Tangent):
        raise TypeError(f"canonicalize needs a Tangent, got {type(t).__name__}")
    if t._layout != _FIELDS or t._names is None:
        return t
    return Tangent._from_backing(t.primal_type, {name: t[name] for name in t._names})


def backing(x: Any) -> Any:
    """Return the plain tuple or dict behind a structural tangent or a structured primal.

    Parameters
    ----------
    x : Tangent, tuple, list, dict, namedtuple, dataclass or object
        For a ``Tangent``: its stored elements. For a primal: its elements (tuple) or
        fields (dict).

    Examples
    --------
    >>> from collections import namedtuple
    >>> from chainrules_core import Tangent, backing
    >>> backing(Tangent(tuple, 1.0, 2.0))
    (1.0, 2.0)
    >>> backing(namedtuple("P", "a b")(1, 2))
    {'a': 1, 'b': 2}
    """
    if isinstance(x, Tangent):
        b = x._backing
        return tuple(b) if x._layout == _SEQUENCE else dict(b)
    if _is_namedtuple_type(type(x)):
        return dict(zip(x._fields, x))
    if isinstance(x, (tuple, list)):
        return tuple(x)
    if isinstance(x, Mapping):
        return dict(x)
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        return {f.name: getattr(x, f.name) for f in dataclasses.fields(x)}
    names = field_names(type(x))
    if names is not None:
        return {n: getattr(x, n) for n in names if hasattr(x, n)}
    if hasattr(x, "__dict__"):
        return dict(vars(x))
    raise TypeError(f"backing: {type(x).__name__} has no fields")
