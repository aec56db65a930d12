"""Flattening nested primals and their tangents with one flatten/unflatten pair.

``tree_flatten(x)`` splits a nested value into its differentiable leaves (floating and
complex arrays and scalars) and a :class:`TreeDef` that remembers everything else: the
containers (tuples, lists, dicts, namedtuples, dataclasses, registered types such as the
structured matrices) and the non-differentiable parts (integers, booleans, strings, ``None``,
integer arrays), which are kept as they are. The same ``TreeDef`` then

* rebuilds a primal from new leaves (``unflatten``),
* reads a tangent of ``x`` leaf by leaf in the same order (``flatten_tangent``), whatever
  its form: the natural container, a structural ``Tangent``, zeros or thunks,
* builds a tangent of ``x`` from leaves (``unflatten_tangent``).

Leaves turn into one real float64 vector (complex leaves contribute their real parts, then
their imaginary parts), which is what the finite differences perturb. Nothing is lost on
the way: shapes, dtypes and static parts come back exactly, as with JAX's tree utilities.

Types with free parameters of their own (a ``Diagonal`` is its diagonal) are registered
with :func:`register_tree_node`, so that only those parameters are perturbed.
"""

from __future__ import annotations

import copy
import dataclasses
import importlib
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from chainrules_core import AbstractZero, NotImplementedTangent, Tangent, ZeroTangent, backing, unthunk

_REAL_SCALARS = (float, np.floating)
_COMPLEX_SCALARS = (complex, np.complexfloating)


@dataclasses.dataclass(frozen=True)
class _Node:
    flatten: Callable[[Any], tuple[list[Any], Any]]
    unflatten: Callable[[Any, list[Any]], Any]
    flatten_tangent: Callable[[Any, Any], list[Any]] | None
    unflatten_tangent: Callable[[Any, list[Any]], Any] | None


_NODES: dict[type, _Node] = {}


def register_tree_node(cls: type, flatten: Callable[[Any], tuple[list[Any], Any]],
                       unflatten: Callable[[Any, list[Any]], Any], *,
                       flatten_tangent: Callable[[Any, Any], list[Any]] | None = None,
                       unflatten_tangent: Callable[[Any, list[Any]], Any] | None = None) -> None:
    """Teach the finite differences and ``rand_tangent`` the free parameters of ``cls``.

    Parameters
    ----------
    cls : type
        The type (its subclasses are covered too).
    flatten : callable
        ``flatten(x) -> (children, aux)``: the parts to perturb and whatever else rebuilds ``x``.
    unflatten : callable
        ``unflatten(aux, children) -> x``.
    flatten_tangent : callable, optional
        ``flatten_tangent(dx, aux) -> children``: reads any tangent ``dx`` of ``x`` (its
        natural form or a structural ``Tangent``). Without it, a ``Tangent`` is read with
        ``backing`` in the order of ``children`` and anything else with ``flatten``.
    unflatten_tangent : callable, optional
        ``unflatten_tangent(aux, children) -> dx``; ``unflatten`` by default.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.testing.tree import register_tree_node, tree_flatten
    >>> class Scaled:
    ...     def __init__(self, v, s):
    ...         self.v, self.s = v, s
    >>> register_tree_node(Scaled, lambda x: ([x.v], x.s), lambda s, ch: Scaled(ch[0], s))
    >>> leaves, treedef = tree_flatten(Scaled(np.ones(2), "label"))
    >>> leaves
    [array([1., 1.])]
    """
    _NODES[cls] = _Node(flatten, unflatten, flatten_tangent, unflatten_tangent)


_PROVIDERS: dict[str, str] = {"scipy.interpolate": "chainrules.testing.interpolate"}
"""Modules that register the tree nodes of a library's types, imported the first time a type of
that library (by module prefix) is flattened: registering SciPy's interpolators eagerly would
import ``scipy.interpolate`` with ``chainrules.testing`` (a third more import time)."""


def _node_for(t: type) -> _Node | None:
    for klass in t.__mro__:
        node = _NODES.get(klass)
        if node is not None:
            return node
    module = getattr(t, "__module__", None) or ""
    for prefix in [p for p in _PROVIDERS if module.startswith(p)]:
        provider = _PROVIDERS.pop(prefix, None)
        if provider is not None:
            importlib.import_module(provider)
            return _node_for(t)
    return None


@dataclasses.dataclass
class LeafSpec:
    """What one differentiable leaf looks like: shape, dtype, Python or NumPy scalar."""

    shape: tuple[int, ...]
    dtype: np.dtype
    python_type: type | None  # float or complex for a Python scalar, else None
    is_array: bool = True  # False for a scalar (Python or NumPy)

    @property
    def complex(self) -> bool:
        return self.dtype.kind == "c"

    @property
    def size(self) -> int:
        n = int(np.prod(self.shape, dtype=np.int64))
        return 2 * n if self.complex else n


@dataclasses.dataclass
class TreeDef:
    """The structure of a nested value; see the module docstring."""

    kind: str  # "leaf", "static", "seq", "namedtuple", "dict", "dataclass", "node"
    type: type
    aux: Any = None
    children: list[TreeDef] = dataclasses.field(default_factory=list)
    spec: LeafSpec | None = None
    static: Any = None

    # ---- structure ------------------------------------------------------------------------------
    def leaf_specs(self) -> list[LeafSpec]:
        """Specs of the differentiable leaves, in flattening order."""
        if self.kind == "leaf":
            return [self.spec]  # type: ignore[list-item]
        out: list[LeafSpec] = []
        for child in self.children:
            out.extend(child.leaf_specs())
        return out

    def num_leaves(self) -> int:
        return len(self.leaf_specs())

    def unflatten(self, leaves: list[Any]) -> Any:
        """Rebuild a primal from its differentiable leaves."""
        it = iter(leaves)
        value = self._build(it, tangent=False)
        return value

    def unflatten_tangent(self, leaves: list[Any]) -> Any:
        """Build a tangent of the primal from leaves (static parts become ``NoTangent``)."""
        return self._build(iter(leaves), tangent=True)

    def _build(self, it: Any, tangent: bool) -> Any:
        kind = self.kind
        if kind == "leaf":
            return next(it)
        if kind == "static":
            from chainrules_core import NoTangent
            return NoTangent() if tangent else self.static
        values = [c._build(it, tangent) for c in self.children]
        if kind == "seq":
            return self.type(values)
        if kind == "dict":
            return self.type(zip(self.aux, values)) if not tangent else dict(zip(self.aux, values))
        if kind == "namedtuple":
            return Tangent(self.type, **dict(zip(self.aux, values))) if tangent else self.type(*values)
        if kind == "dataclass":
            if tangent:
                return Tangent(self.type, **dict(zip(self.aux[0], values)))
            names, template = self.aux
            obj = copy.copy(template)
            for name, value in zip(names, values):
                object.__setattr__(obj, name, value)
            return obj
        if kind == "node":
            node = _node_for(self.type)
            assert node is not None
            if tangent and node.unflatten_tangent is not None:
                return node.unflatten_tangent(self.aux, values)
            return node.unflatten(self.aux, values)
        raise AssertionError(kind)

    def flatten_tangent(self, dx: Any, path: str = "") -> list[Any]:
        """Read a tangent of the primal as leaves aligned with ``leaf_specs()`` (zeros filled in)."""
        dx = unthunk(dx)
        kind = self.kind
        if kind == "static":
            return []
        if isinstance(dx, NotImplementedTangent):
            raise TypeError(f"{path or 'value'}: a not-implemented tangent has no value")
        if isinstance(dx, AbstractZero) or dx is None:
            return [_zero_leaf(s) for s in self.leaf_specs()]
        if kind == "leaf":
            spec = self.spec
            assert spec is not None
            arr = np.asarray(dx)
            if arr.shape != spec.shape:
                if arr.size == int(np.prod(spec.shape, dtype=np.int64)):
                    arr = arr.reshape(spec.shape)
                else:
                    raise ValueError(f"{path or 'value'}: tangent of shape {arr.shape}, expected {spec.shape}")
            return [arr]
        parts = self._tangent_children(dx, path)
        out: list[Any] = []
        for child, part, label in zip(self.children, parts, self._labels()):
            out.extend(child.flatten_tangent(part, path + label))
        return out

    def _labels(self) -> list[str]:
        if self.kind == "seq":
            return [f"[{i}]" for i in range(len(self.children))]
        if self.kind == "dict":
            return [f"[{k!r}]" for k in self.aux]
        if self.kind == "namedtuple":
            return [f".{n}" for n in self.aux]
        if self.kind == "dataclass":
            return [f".{n}" for n in self.aux[0]]
        return [f"<{i}>" for i in range(len(self.children))]

    def _tangent_children(self, dx: Any, path: str) -> list[Any]:
        kind = self.kind
        n = len(self.children)
        if kind == "seq":
            items = list(backing(dx)) if isinstance(dx, Tangent) else list(dx)
            if len(items) != n:
                raise ValueError(f"{path or 'value'}: tangent has {len(items)} elements, expected {n}")
            return items
        if kind in ("dict", "namedtuple", "dataclass"):
            names = self.aux if kind != "dataclass" else self.aux[0]
            if isinstance(dx, Tangent):
                return [dx[name] for name in names]
            if isinstance(dx, Mapping):
                return [dx.get(name, ZeroTangent()) for name in names]
            if kind == "namedtuple" and isinstance(dx, (tuple, list)) and not hasattr(dx, "_fields"):
                if len(dx) != n:  # a plain tuple for a namedtuple: its elements by position
                    raise ValueError(f"{path or 'value'}: tangent has {len(dx)} elements, expected {n}")
                return list(dx)
            return [getattr(dx, name, ZeroTangent()) for name in names]
        node = _node_for(self.type)
        assert node is not None
        if node.flatten_tangent is not None:
            return node.flatten_tangent(dx, self.aux)
        if isinstance(dx, Tangent):
            stored = backing(dx)
            values = list(stored.values()) if isinstance(stored, dict) else list(stored)
            return values
        return node.flatten(dx)[0]


def _zero_leaf(spec: LeafSpec) -> Any:
    return np.zeros(spec.shape, dtype=spec.dtype)


def tree_flatten(x: Any) -> tuple[list[Any], TreeDef]:
    """Split ``x`` into its differentiable leaves and its :class:`TreeDef`.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.testing.tree import tree_flatten
    >>> leaves, treedef = tree_flatten((1.0, np.arange(2.0), "name", 3))
    >>> leaves
    [1.0, array([0., 1.])]
    >>> treedef.unflatten([2.0, np.ones(2)])
    (2.0, array([1., 1.]), 'name', 3)
    """
    leaves: list[Any] = []
    treedef = _flatten(x, leaves)
    return leaves, treedef


def _flatten(x: Any, leaves: list[Any]) -> TreeDef:
    t = type(x)
    if isinstance(x, np.ndarray):
        if x.dtype.kind in "fc":
            leaves.append(x)
            return TreeDef("leaf", t, spec=LeafSpec(x.shape, x.dtype, None, True))
        return TreeDef("static", t, static=x)
    if isinstance(x, (bool, np.bool_, int, np.integer)):
        return TreeDef("static", t, static=x)
    if isinstance(x, _REAL_SCALARS + _COMPLEX_SCALARS):
        python_type = t if t in (float, complex) else None
        dtype = np.dtype(np.float64 if t is float else np.complex128 if t is complex else np.asarray(x).dtype)
        leaves.append(x)
        return TreeDef("leaf", t, spec=LeafSpec((), dtype, python_type, False))
    node = _node_for(t)
    if node is not None:
        children, aux = node.flatten(x)
        return TreeDef("node", t, aux=aux, children=[_flatten(c, leaves) for c in children])
    if isinstance(x, tuple) and hasattr(x, "_fields"):
        return TreeDef("namedtuple", t, aux=tuple(x._fields), children=[_flatten(c, leaves) for c in x])
    if isinstance(x, (tuple, list)):
        return TreeDef("seq", t, children=[_flatten(c, leaves) for c in x])
    if isinstance(x, dict):
        return TreeDef("dict", t, aux=tuple(x), children=[_flatten(v, leaves) for v in x.values()])
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        names = tuple(f.name for f in dataclasses.fields(x))
        return TreeDef("dataclass", t, aux=(names, x),
                       children=[_flatten(getattr(x, n), leaves) for n in names])
    return TreeDef("static", t, static=x)


# ---- vectors --------------------------------------------------------------------------------------
def leaves_to_vec(leaves: list[Any], specs: list[LeafSpec]) -> np.ndarray:
    """Concatenate leaves into one real float64 vector (complex: real parts, then imaginary)."""
    parts: list[np.ndarray] = []
    for leaf, spec in zip(leaves, specs):
        arr = np.asarray(unthunk(leaf))
        if spec.complex:
            arr = arr.astype(np.complex128, copy=False).ravel()
            parts.append(arr.real)
            parts.append(arr.imag)
        else:
            if arr.dtype.kind == "c":
                arr = arr.real
            parts.append(np.asarray(arr, dtype=np.float64).ravel())
    return np.concatenate(parts) if parts else np.zeros(0)


def vec_to_leaves(v: np.ndarray, specs: list[LeafSpec], *, promote: bool = False) -> list[Any]:
    """Split a real vector back into leaves of the given specs.

    With ``promote=True`` lower-precision leaves come back as float64/complex128 (the
    finite differences evaluate at full precision); otherwise each keeps its dtype. Python
    scalars come back as Python scalars, NumPy scalars as NumPy scalars, arrays as arrays.
    """
    out: list[Any] = []
    i = 0
    for spec in specs:
        n = int(np.prod(spec.shape, dtype=np.int64))
        if spec.complex:
            value: Any = np.empty(n, dtype=np.complex128)  # not re + 1j*im: inf parts stay exact
            value.real, value.imag = v[i:i + n], v[i + n:i + 2 * n]
            value = value.reshape(spec.shape)
            i += 2 * n
            dtype = np.dtype(np.complex128) if promote else spec.dtype
        else:
            value = v[i:i + n].reshape(spec.shape)
            i += n
            dtype = np.dtype(np.float64) if promote else spec.dtype
        value = np.asarray(value, dtype=dtype)
        if spec.python_type is not None:
            value = spec.python_type(value[()])
        elif not spec.is_array:
            value = dtype.type(value[()])
        out.append(value)
    return out
