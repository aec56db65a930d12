"""A rule's output split into the arrays a framework carries and the plain parts it cannot, for the JAX and PyTorch
bridges.

A framework's custom derivative (``jax.custom_vjp``, ``torch.autograd.Function``) returns
arrays (tensors), or a tree of them. Most rules' outputs are: an array, a tuple, list,
namedtuple or dict of arrays. Some are not:

* SciPy's result objects (``OdeResult``, ``OptimizeResult``, ``RootResults``: ``dict``
  subclasses with attribute access), whose fields mix floating arrays (``x``, ``y``,
  ``fun``, the lists ``t_events``/``y_events``) with a flag (``success``), a string
  (``message``), counts (``nfev``) and objects (``sol``, ``hess_inv`` operators);
* tuples with diagnostic parts (``odeint(..., full_output=True)``'s ``(y, infodict)``,
  ``fsolve``'s ``(x, infodict, ier, mesg)``), whose strings have no array.

:class:`OutputStructure` splits such an output into its *leaves* (the values the
framework carries: every numeric array or number outside a result object, and only the
floating ones, alone or in a list or tuple, inside one) and a skeleton holding everything
else as it is (*plain* parts). The bridge gives the framework the leaves, and the user
:meth:`~OutputStructure.rebuild` of them: the result object itself (a copy of the same
class), its floating fields framework arrays carrying the derivative, its other fields
the plain values. A cotangent comes back as the framework's values of the leaves;
:meth:`~OutputStructure.cotangent` makes it the chainrules cotangent the rule's pullback
reads: a structural ``Tangent`` of the result, on its leaf fields (what the autograd
bridge gives, :mod:`chainrules.interop.autograd.results`), and of a tuple, with
``ZeroTangent()`` at its plain positions. :meth:`~OutputStructure.tangent_leaves` reads an
frule's tangent of the output back as dense leaves.

Examples
--------
>>> import numpy as np, scipy.optimize
>>> from chainrules.interop._outputs import OutputStructure
>>> res = scipy.optimize.OptimizeResult(x=np.ones(2), fun=0.5, nit=3, message="ok", success=True)
>>> s = OutputStructure(res)
>>> s.paths, s.plain
(['x', 'fun'], True)
>>> back = s.rebuild([np.zeros(2), 1.5])
>>> type(back).__name__, back.x, back.fun, back.message
('OptimizeResult', array([0., 0.]), 1.5, 'ok')
>>> s.cotangent([np.ones(2), 0.0])
Tangent(OptimizeResult, {'x': array([1., 1.]), 'fun': ZeroTangent()})
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from chainrules.interop._host import from_host, to_host
from chainrules_core import AbstractZero, NotImplementedTangent, Tangent, ZeroTangent, backing, unthunk

__all__ = ["OutputStructure", "is_floating", "is_result"]

_ZERO: Any = ZeroTangent()


def is_result(value: Any) -> bool:
    """Whether ``value`` is a result object: a ``dict`` subclass (SciPy's ``OptimizeResult``, ``OdeResult``,
    ``RootResults``...), as opposed to a plain ``dict``.

    Examples
    --------
    >>> import scipy.optimize
    >>> is_result(scipy.optimize.OptimizeResult(x=1.0)), is_result({"x": 1.0})
    (True, False)
    """
    return isinstance(value, dict) and type(value) is not dict


def is_floating(value: Any) -> bool:
    """Whether ``value`` is a floating or complex array or number (not a bool, not an integer).

    Examples
    --------
    >>> import numpy as np
    >>> is_floating(np.ones(2)), is_floating(1.5), is_floating(np.arange(2)), is_floating(True)
    (True, True, False, False)
    """
    if isinstance(value, np.ndarray):
        return value.dtype.kind in "fc"
    return isinstance(value, (float, complex, np.floating, np.complexfloating))


def _floating_list(value: Any) -> bool:
    return isinstance(value, (list, tuple)) and len(value) > 0 and all(
        is_floating(v) or _floating_list(v) for v in value)


class _Leaf:
    __slots__ = ("index",)

    def __init__(self, index: int) -> None:
        self.index = index


class _Plain:
    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value


class OutputStructure:
    """A rule's output as its leaves (the arrays a framework carries) and a skeleton of the rest.

    Attributes
    ----------
    leaves : list
        The output's leaves (NumPy arrays and numbers), in a fixed order.
    paths : list
        Where each leaf sits (field names, positions; a tuple of them when nested).
    plain : bool
        Whether the output has plain parts (a result object, a string, ``None``...), which a
        framework can only be given as they are, never as traced values.
    """

    def __init__(self, y: Any) -> None:
        self.output = y
        self.leaves: list[Any] = []
        self.paths: list[Any] = []
        self.plain = False
        self.skeleton = self._walk(y, (), in_result=False)

    def _walk(self, v: Any, path: tuple[Any, ...], in_result: bool) -> Any:
        if is_result(v):
            self.plain = True
            return type(v), {k: self._field(x, (*path, k)) for k, x in v.items()}
        if isinstance(v, (tuple, list)) and not in_result:
            return type(v), [self._walk(x, (*path, i), False) for i, x in enumerate(v)]
        if isinstance(v, dict):
            return dict, {k: self._walk(x, (*path, k), in_result) for k, x in v.items()}
        if v is None or isinstance(v, (str, bytes)) or (isinstance(v, np.ndarray) and v.dtype.kind in "OSUV"):
            self.plain = True
            return _Plain(v)
        self.leaves.append(v)
        self.paths.append(path[0] if len(path) == 1 else path)
        return _Leaf(len(self.leaves) - 1)

    def _field(self, v: Any, path: tuple[Any, ...]) -> Any:
        """A result object's field: a leaf when floating (or a list of floating arrays), else plain."""
        if is_floating(v):
            return self._walk(v, path, True)
        if _floating_list(v):
            return type(v), [self._field(x, (*path, i)) for i, x in enumerate(v)]
        if is_result(v):
            return self._walk(v, path, True)
        return _Plain(v)

    # ---- building values from leaves --------------------------------------------------------------------
    def rebuild(self, values: Sequence[Any]) -> Any:
        """The output with its leaves replaced by ``values`` (framework arrays), its plain parts as they are."""
        return _build(self.skeleton, values, _plain_value)

    def cotangent(self, dys: Sequence[Any], conj: bool = False) -> Any:
        """The chainrules cotangent of the output from the framework's cotangents of its leaves (NumPy values or
        ``None``): a structural ``Tangent`` of each result object (on its leaf fields) and container, with
        ``ZeroTangent()`` for plain parts and all-zero parts."""
        if not self.plain:
            tree = _build(self.skeleton, list(dys), _plain_value)
            return from_host(tree, self.output, conj=conj)
        return _cotangent(self.skeleton, self.output, list(dys), conj, top=True)

    def tangent_leaves(self, dy: Any, f: Any = None, mode: str = "", bridge: str = "") -> list[Any]:
        """An frule's tangent of the output as dense NumPy values of its leaves (zeros where it has none)."""
        if not self.plain:
            dense = to_host(dy, self.output, False, f, None, mode, bridge)
            return OutputStructure(dense).leaves
        out: list[Any] = [None] * len(self.leaves)
        _tangent(self.skeleton, self.output, dy, out, f, mode, bridge)
        return out


def _plain_value(node: _Plain) -> Any:
    return node.value


def _build(node: Any, values: Sequence[Any], plain: Callable[[_Plain], Any]) -> Any:
    if isinstance(node, _Leaf):
        return values[node.index]
    if isinstance(node, _Plain):
        return plain(node)
    kind, parts = node
    if isinstance(parts, dict):
        built = {k: _build(p, values, plain) for k, p in parts.items()}
        if kind is dict:
            return built
        out = kind.__new__(kind)  # a result object: the same class, not its constructor's checks
        dict.update(out, built)
        return out
    items = [_build(p, values, plain) for p in parts]
    if hasattr(kind, "_fields"):
        return kind(*items)
    return kind(items)


def _is_zero_leaf(g: Any) -> bool:
    return g is None or (isinstance(g, (np.ndarray, np.number, float, complex, int)) and not np.any(g))


def _cotangent(node: Any, primal: Any, dys: list[Any], conj: bool, top: bool = False) -> Any:
    if isinstance(node, _Plain):
        return _ZERO
    if isinstance(node, _Leaf):
        g = dys[node.index]
        if not top and _is_zero_leaf(g):
            return _ZERO
        return _ZERO if g is None else from_host(g, primal, conj)
    kind, parts = node
    if isinstance(parts, dict):
        fields = {k: _cotangent(p, primal[k], dys, conj) for k, p in parts.items() if not isinstance(p, _Plain)}
        return Tangent(kind, fields)
    return Tangent(kind, *[_cotangent(p, x, dys, conj) for p, x in zip(parts, primal)])


def _tangent(node: Any, primal: Any, dy: Any, out: list[Any], f: Any, mode: str, bridge: str) -> None:
    if isinstance(node, _Plain):
        return
    dy = unthunk(dy)
    if isinstance(node, _Leaf):
        out[node.index] = to_host(dy, primal, False, f, None, mode, bridge)
        return
    if isinstance(dy, NotImplementedTangent):
        to_host(dy, primal, False, f, None, mode, bridge)  # raises, naming the function
    zero = dy is None or isinstance(dy, AbstractZero)
    stored = None if zero else (backing(dy) if isinstance(dy, Tangent) else dy)
    _, parts = node
    if isinstance(parts, dict):
        for k, p in parts.items():
            part = _ZERO if stored is None else (stored.get(k, _ZERO) if isinstance(stored, dict)
                                                 else getattr(stored, k, _ZERO))
            _tangent(p, primal[k], part, out, f, mode, bridge)
        return
    for i, (p, x) in enumerate(zip(parts, primal)):
        part = _ZERO
        if stored is not None:
            if isinstance(stored, dict):  # a namedtuple's tangent stores its fields by name
                part = stored.get(primal._fields[i], _ZERO)
            elif i < len(stored):
                part = stored[i]
        _tangent(p, x, part, out, f, mode, bridge)
