"""Differentiating the function a quadrature or an ODE solver was given (private).

The quadrature and ODE rules integrate the derivatives of the user's function (an integrand,
a right-hand side) over a variable: with respect to the values in ``args`` and the values the
function carries itself (a functor's fields). Integrators work on flat vectors, so
:class:`Leaves` lays out the differentiable values of a nested structure (numbers and floating
arrays inside tuples, lists, dicts and structural ``Tangent`` s) as one vector and rebuilds a
cotangent of the same structure from it. :class:`CallableDerivatives` calls the config's
``rrule_via_ad`` / ``frule_via_ad`` on the function and returns those vectors.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from chainrules_core import (
    AbstractZero,
    HasReverseMode,
    NoTangent,
    NotImplementedTangent,
    ProjectTo,
    Tangent,
    ZeroTangent,
    backing,
    frule_via_ad,
    not_implemented,
    rrule_via_ad,
    unthunk,
)


class NotImplementedDerivativeError(Exception):
    """A derivative of the function came back ``not_implemented``; carries the tangent."""

    def __init__(self, tangent: NotImplementedTangent) -> None:
        super().__init__(tangent.info)
        self.tangent = tangent


@dataclasses.dataclass
class _Node:
    kind: str  # "leaf", "sequence", "mapping", "tangent", "none"
    shape: tuple[int, ...] = ()
    dtype: Any = None
    offset: int = 0
    size: int = 0
    scalar: bool = False
    children: list[tuple[Any, _Node]] = dataclasses.field(default_factory=list)
    primal_type: Any = None
    mapping: bool = False


def _is_leaf(x: Any) -> bool:
    if isinstance(x, np.ndarray):
        return x.dtype.kind in "fc"
    return isinstance(x, (float, complex, np.inexact))


class Leaves:
    """The differentiable leaves of a nested value, as one flat vector.

    Built from a primal (``args``) or from a cotangent (a function's own tangent): leaves are
    floating or complex numbers and arrays; tuples, lists, dicts and ``Tangent`` s are walked;
    anything else (integers, strings, callables, zeros) holds no leaf.

    Examples
    --------
    >>> from chainrules_core import Tangent, NoTangent
    >>> layout = Leaves((2.0, 3, np.array([1.0, 2.0])))
    >>> layout.size, layout.flatten(Tangent(tuple, 0.5, NoTangent(), np.array([1.0, 1.0])))
    (3, array([0.5, 1. , 1. ]))
    >>> layout.cotangent(np.array([1.0, 2.0, 3.0]))
    Tangent(tuple, 1.0, NoTangent(), array([2., 3.]))
    """

    def __init__(self, template: Any) -> None:
        self.template = template
        self.size = 0
        self.dtypes: list[Any] = []
        self.root = self._walk(unthunk(template))
        self._dtype = np.result_type(np.float64, *self.dtypes)
        # the common case, a tuple of numbers and arrays: flattened without walking the tree
        self._direct = None
        if self.root.kind == "sequence" and all(c.kind in ("leaf", "none") for _, c in self.root.children):
            self._direct = [(k, c.offset, c.offset + c.size, c.shape) for k, c in self.root.children
                            if c.kind == "leaf"]

    @property
    def dtype(self) -> np.dtype:
        """The dtype of the flat vector: complex if any leaf is, else float64."""
        return self._dtype

    def _walk(self, x: Any) -> _Node:
        if _is_leaf(x):
            arr = np.asarray(x)
            node = _Node("leaf", arr.shape, arr.dtype, self.size, arr.size, scalar=not isinstance(x, np.ndarray))
            self.size += arr.size
            self.dtypes.append(arr.dtype)
            return node
        if isinstance(x, Tangent):
            stored = backing(x)
            items = stored.items() if isinstance(stored, dict) else enumerate(stored)
            return _Node("tangent", children=[(k, self._walk(unthunk(v))) for k, v in items],
                         primal_type=x.primal_type, mapping=isinstance(stored, dict))
        if isinstance(x, (tuple, list)) and not hasattr(x, "_fields"):
            return _Node("sequence", children=[(k, self._walk(v)) for k, v in enumerate(x)], primal_type=type(x))
        if isinstance(x, dict):
            return _Node("mapping", children=[(k, self._walk(v)) for k, v in x.items()], primal_type=type(x))
        return _Node("none")

    # ---- tangents in -----------------------------------------------------------------------------------
    def flatten(self, tangent: Any, out: np.ndarray | None = None) -> np.ndarray:
        """The flat vector of a (co)tangent of the template (zeros where it is a zero).

        ``out``, when given, is a vector of ``size`` elements written in place (the adjoint writes the
        parameters' cotangents straight into its right-hand side's output).
        Raises :class:`NotImplementedDerivativeError` where the tangent is not implemented.
        """
        if out is None:
            out = np.zeros(self.size, dtype=self._dtype)
        if self._direct is not None and type(tangent) is tuple:
            real = out.dtype.kind != "c"
            for k, start, stop, shape in self._direct:
                part = tangent[k] if k < len(tangent) else None
                if type(part) is not np.ndarray:
                    part = unthunk(part)
                    if isinstance(part, NotImplementedTangent):
                        raise NotImplementedDerivativeError(part)
                    if part is None or isinstance(part, AbstractZero):
                        out[start:stop] = 0
                        continue
                    part = np.asarray(part)
                if real and part.dtype.kind == "c":
                    part = part.real
                out[start:stop] = part.ravel() if part.shape == shape else np.broadcast_to(part, shape).ravel()
            return out
        out.fill(0)
        self._fill(out, self.root, tangent)
        return out

    def _fill(self, out: np.ndarray, node: _Node, t: Any) -> None:
        t = unthunk(t)
        if isinstance(t, NotImplementedTangent):
            raise NotImplementedDerivativeError(t)
        if node.kind == "none" or t is None or isinstance(t, AbstractZero):
            return
        if node.kind == "leaf":
            value = np.asarray(t)
            if value.dtype.kind == "c" and out.dtype.kind != "c":
                value = value.real
            out[node.offset:node.offset + node.size] = np.broadcast_to(value, node.shape).ravel()
            return
        parts: Any = backing(t) if isinstance(t, Tangent) else t
        for key, child in node.children:
            try:
                part = parts[key]
            except (KeyError, IndexError, TypeError):
                continue  # a field the tangent does not store reads as zero
            self._fill(out, child, part)

    # ---- cotangents out -----------------------------------------------------------------------------------
    def cotangent(self, vector: np.ndarray) -> Any:
        """The cotangent of the template whose leaves are ``vector`` (projected onto a primal template)."""
        value = self._build(self.root, np.asarray(vector))
        if isinstance(self.root, _Node) and self.root.kind in ("sequence", "mapping", "leaf"):
            return ProjectTo(self.template)(value)
        return value

    def _build(self, node: _Node, vector: np.ndarray) -> Any:
        if node.kind == "none":
            return NoTangent()
        if node.kind == "leaf":
            part = vector[node.offset:node.offset + node.size]
            if np.dtype(node.dtype).kind != "c" and part.dtype.kind == "c":
                part = part.real
            part = part.reshape(node.shape)
            return part[()] if node.scalar else part.copy()
        parts = {k: self._build(child, vector) for k, child in node.children}
        P = node.primal_type
        if node.kind == "tangent" and not node.mapping:
            return Tangent(P, *parts.values())
        if node.kind == "tangent" and not issubclass(P, Mapping):
            return Tangent(P, **parts)
        if node.kind == "sequence":
            return Tangent(P, *parts.values())
        return Tangent(P, parts)


def zero_tangent_of(x: Any) -> Any:
    """``ZeroTangent()`` for a differentiable value, ``NoTangent()`` otherwise (an frule's input tangent)."""
    return ZeroTangent() if Leaves(x).size else NoTangent()


# ---- the function's derivatives ----------------------------------------------------------------------------
def _no_values(df: Any) -> bool:
    df = unthunk(df)
    return df is None or isinstance(df, AbstractZero)


class CallableDerivatives:
    """The derivatives of ``fun(*head, *args)`` with respect to ``args`` and ``fun``'s own values.

    ``head`` are the arguments the integrator varies (the variable of integration; for an ODE
    the time and the state); ``args`` are the user's extra arguments. Reverse mode flattens
    the cotangents of ``args`` (and of ``fun`` itself, when the config reports one) into one
    vector; forward mode pushes the tangents of ``args`` (and of ``fun``) forward.

    Examples
    --------
    >>> import chainrules
    >>> from chainrules_core import RulesOnlyConfig
    >>> d = CallableDerivatives(RulesOnlyConfig(), np.multiply, (2.5,), n_head=1)
    >>> y, vector, head = d.pullback_at((3.0,), 1.0)     # d(x * t)/dt at x = 3
    >>> y, vector, unthunk(head[0])
    (np.float64(7.5), array([3.]), 2.5)
    """

    def __init__(self, config: Any, fun: Callable[..., Any], args: tuple[Any, ...], n_head: int,
                 differentiate_args: bool = True) -> None:
        self.config, self.fun, self.args, self.n_head = config, fun, tuple(args), n_head
        self.differentiate_args = differentiate_args
        self.parameters = Leaves(self.args if differentiate_args else ())
        self.own: Leaves | None = None  # the layout of fun's own cotangent, once one is seen
        self.own_missing: NotImplementedTangent | None = None
        # the config's rrule_via_ad, looked up once: the adjoint calls it at every evaluation
        self._rrule_via_ad: Callable[..., Any] = (
            config.rrule_via_ad if isinstance(config, HasReverseMode)
            else lambda f, *a: rrule_via_ad(config, f, *a))  # raises the usual TypeError when called

    @property
    def size(self) -> int:
        return self.parameters.size + (self.own.size if self.own is not None else 0)

    def probe(self, head: tuple[Any, ...], dy: Any) -> Any:
        """Evaluate once to learn the layout of ``fun``'s own cotangent; return ``fun(*head, *args)``."""
        y, pullback = rrule_via_ad(self.config, self.fun, *head, *self.args)
        df = unthunk(pullback(dy)[0])
        if isinstance(df, NotImplementedTangent):
            self.own_missing = df
        elif not _no_values(df) and not isinstance(df, NoTangent):
            self.own = Leaves(df)
        return y

    def pullback_at(self, head: tuple[Any, ...], dy: Any) -> tuple[Any, np.ndarray, tuple[Any, ...]]:
        """``(y, vector, head_cotangents)``: ``fun``'s output, the flat cotangent of ``args`` (then of
        ``fun`` itself) for the output cotangent ``dy``, and the cotangents of ``head`` (possibly thunks)."""
        dtype = self.parameters.dtype if self.own is None else np.result_type(self.parameters.dtype, self.own.dtype)
        vector = np.empty(self.size, dtype=dtype)
        y, heads = self.pullback_into(head, dy, vector)
        return y, vector, heads

    def pullback_into(self, head: tuple[Any, ...], dy: Any, out: np.ndarray) -> tuple[Any, tuple[Any, ...]]:
        """:meth:`pullback_at` writing the flat cotangent into ``out`` (``size`` elements); returns
        ``(y, head_cotangents)``."""
        y, pullback = self._rrule_via_ad(self.fun, *head, *self.args)
        cotangents = pullback(dy)
        n = self.parameters.size
        self.parameters.flatten(tuple(cotangents[1 + self.n_head:]) if self.differentiate_args else ZeroTangent(),
                                out[:n])
        df = cotangents[0]
        if type(df) is not NoTangent:
            self._own_cotangent(unthunk(df), out[n:])
        elif self.own is not None:
            out[n:] = 0
        return y, tuple(cotangents[1:1 + self.n_head])

    def _own_cotangent(self, df: Any, out: np.ndarray) -> None:
        if self.own is not None:
            self.own.flatten(df, out)
        elif isinstance(df, NotImplementedTangent):
            self.own_missing = df
        elif not _no_values(df) and not isinstance(df, NoTangent):
            self.own_missing = not_implemented(
                "the function's own cotangent appeared only at some points of the integration; pass its "
                "values through args")

    def cotangents(self, vector: np.ndarray | NotImplementedTangent) -> tuple[Any, Any]:
        """``(fun_bar, args_bar)`` from an integrated flat vector."""
        if isinstance(vector, NotImplementedTangent):
            return vector, vector
        n = self.parameters.size
        args_bar = self.parameters.cotangent(vector[:n])
        if self.own_missing is not None:
            fun_bar: Any = self.own_missing
        elif self.own is not None:
            fun_bar = self.own.cotangent(vector[n:])
        else:
            fun_bar = NoTangent()
        return fun_bar, args_bar

    def forward_at(self, head: tuple[Any, ...], head_tangents: tuple[Any, ...], fun_tangent: Any,
                   args_tangents: tuple[Any, ...]) -> tuple[Any, Any]:
        """``(y, dy)`` of ``fun(*head, *args)`` along the tangents of ``head``, ``fun`` and ``args``."""
        return frule_via_ad(self.config, (fun_tangent, *head_tangents, *args_tangents), self.fun, *head, *self.args)


def split_tangent(tangent: Any, args: tuple[Any, ...]) -> tuple[Any, ...]:
    """The tangents of each element of ``args`` from the tangent of the tuple (structural, natural or zero).

    Examples
    --------
    >>> from chainrules_core import Tangent, ZeroTangent
    >>> split_tangent(Tangent(tuple, 1.0, ZeroTangent()), (2.0, 3.0)), split_tangent(ZeroTangent(), (2.0, 3))
    ((1.0, ZeroTangent()), (ZeroTangent(), NoTangent()))
    """
    tangent = unthunk(tangent)
    if tangent is None or isinstance(tangent, AbstractZero):
        return tuple(zero_tangent_of(a) for a in args)
    parts = backing(tangent) if isinstance(tangent, Tangent) else tangent
    if isinstance(tangent, NotImplementedTangent):
        return tuple(tangent for _ in args)
    return tuple(parts[i] if i < len(parts) else zero_tangent_of(a) for i, a in enumerate(args))


def is_zero_tangent(t: Any) -> bool:
    """Whether an input tangent is a zero (``None``, ``ZeroTangent()``, ``NoTangent()``) or all zeros.

    Examples
    --------
    >>> from chainrules_core import Tangent, ZeroTangent
    >>> is_zero_tangent(Tangent(tuple, ZeroTangent())), is_zero_tangent(1.0)
    (True, False)
    """
    t = unthunk(t)
    if t is None or isinstance(t, AbstractZero):
        return True
    if isinstance(t, Tangent):
        stored = backing(t)
        return all(is_zero_tangent(v) for v in (stored.values() if isinstance(stored, dict) else stored))
    if isinstance(t, (tuple, list)):
        return all(is_zero_tangent(v) for v in t)
    return False
