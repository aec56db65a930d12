"""When autograd differentiates a derivative that a chainrules rule computed.

A rule's pullback and pushforward are NumPy code: autograd cannot trace them. autograd
differentiates a derivative in three situations, which the bridge tells apart by where the
traced values (boxes of an enclosing trace) are when a derivative is asked for:

* **The arguments are traced** (boxes reach the VJP or JVP maker): autograd records the
  derivative of a call made inside an enclosing differentiation, for ``grad(grad(f))``,
  Hessians, ``check_grads(order=2)``, forward over reverse, and also whenever a function
  calls ``make_vjp`` on values it is being differentiated with respect to
  (``autograd.misc.flatten`` does, for its ``unflatten``), even when that derivative is
  never used.
* **The cotangent is traced** and the arguments are not (a VJP called on traced values):
  a function being differentiated calls a vector-Jacobian product it made earlier on
  plain values (``unflatten(x)`` inside autograd's ``odeint`` derivative, a first-order
  gradient for the user).
* **The tangent is traced** (the same in forward mode).

In each case the bridge uses **autograd's own derivative** of the function when autograd
has one (``use_chainrules(replace=True)`` keeps it as the fallback; ``primitive(f)`` finds
it through autograd's wrapper of ``f``): autograd's derivatives are written with
``autograd.numpy``, so autograd differentiates them again, and the first-order derivatives
inside them still come from the rules. Where autograd has none, the derivative is computed
by the rule on plain values and handed to autograd through :func:`traced_derivative`, a
primitive whose own derivative raises :class:`HigherOrderDerivativeError` *when it is
used*: a derivative autograd records but never differentiates (the ``flatten`` case) costs
nothing and raises nothing, and a second derivative that is needed is an error, never a
silent zero.

Examples
--------
>>> import numpy as np
>>> import autograd, autograd.numpy as anp
>>> from chainrules.interop.autograd import primitive
>>> sin = primitive(np.sin)                 # autograd has its own derivative of sin
>>> bool(autograd.grad(autograd.grad(sin))(0.5) == -np.sin(0.5))
True
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np
from autograd.core import primitive_jvps, primitive_vjps
from autograd.extend import defjvp_argnums, defvjp_argnums
from autograd.extend import primitive as autograd_primitive
from autograd.tracer import Box

from chainrules.interop._arguments import function_name
from chainrules.interop.errors import HigherOrderDerivativeError, HigherOrderNotImplementedError

__all__ = ["autograd_makers", "boxes_in", "holds_box", "plain", "traced_derivative"]

_BOX_TYPES = Box.types  # the live set autograd adds box types to
_CONTAINERS = (tuple, list, dict)
_ndarray = np.ndarray


def holds_box(values: Iterable[Any]) -> bool:
    """Whether any of ``values`` is, or holds in a tuple, list or dict, a value autograd traces."""
    for v in values:
        t = type(v)
        if t in _BOX_TYPES:
            return True
        if t is not _ndarray and isinstance(v, _CONTAINERS) and holds_box(
                v.values() if isinstance(v, dict) else v):
            return True
    return False


def boxes_in(values: Iterable[Any]) -> list[Any]:
    """Every box among ``values`` and inside their tuples, lists and dicts."""
    found: list[Any] = []
    for v in values:
        if type(v) in _BOX_TYPES:
            found.append(v)
        elif isinstance(v, _CONTAINERS):
            found.extend(boxes_in(v.values() if isinstance(v, dict) else v))
    return found


def plain(x: Any) -> Any:
    """``x`` with every box, at every level and inside tuples, lists and dicts, replaced by its value.

    Containers holding no box are returned as they are; the others are rebuilt (never mutated).
    """
    while type(x) in _BOX_TYPES:
        x = x._value
    if isinstance(x, _CONTAINERS) and holds_box(x.values() if isinstance(x, dict) else x):
        if isinstance(x, dict):
            out = x.copy()
            for k, v in x.items():
                out[k] = plain(v)
            return out
        parts = [plain(v) for v in x]
        if isinstance(x, list):
            return parts
        return type(x)(*parts) if hasattr(x, "_fields") else (tuple(parts) if type(x) is tuple else type(x)(parts))
    return x


class Why:
    """What a :func:`traced_derivative` is the derivative of, for its error message."""

    __slots__ = ("autograd_error", "f", "kind")

    def __init__(self, f: Any, kind: str, autograd_error: NotImplementedError | None = None) -> None:
        self.f = f
        self.kind = kind  # "arguments", "cotangent" or "tangent"
        self.autograd_error = autograd_error  # what autograd's own derivative of f raised, if it has one

    def error(self) -> HigherOrderDerivativeError:
        name = function_name(self.f)
        if self.kind == "arguments":
            what = (f"autograd is differentiating the derivative of {name} (a derivative of order two or more: grad "
                    "of grad, a Hessian, check_grads' second order, forward mode over reverse mode)")
        elif self.kind == "cotangent":
            what = (f"autograd is differentiating the vector-Jacobian product of {name} with respect to the "
                    "cotangent it was called with (a VJP made at plain values and called on a cotangent autograd "
                    "traces: make_vjp inside a function being differentiated, as autograd.misc.flatten's unflatten "
                    "is in autograd's odeint derivative)")
        else:
            what = (f"autograd is differentiating the Jacobian-vector product of {name} with respect to the tangent "
                    "it was called with (make_jvp at plain values, called with a tangent autograd traces inside a "
                    "function being differentiated)")
        if self.autograd_error is not None:
            return HigherOrderNotImplementedError(
                f"{what}. The derivative comes from chainrules' rule for {name}, which is NumPy code autograd cannot "
                f"trace, and autograd's own derivative of {name} is not implemented here: "
                f"{type(self.autograd_error).__name__}: {self.autograd_error}")
        return HigherOrderDerivativeError(
            f"{what}. The derivative comes from chainrules' rule for {name}, which is NumPy code autograd cannot "
            f"trace, and autograd has no derivative of its own for {name} to fall back to. Differentiate through "
            f"{name} once only, or wrap {name} with autograd.extend.primitive and give it a derivative written with "
            "autograd.numpy (autograd.extend.defvjp / defjvp): the bridge falls back to it for higher orders")

    def __repr__(self) -> str:
        return f"Why({function_name(self.f)}, {self.kind})"


def _stop_here(value: Any, why: Why, *traced: Any) -> Any:
    return value


traced_derivative = autograd_primitive(_stop_here)
"""``traced_derivative(value, why, *traced)``: ``value`` (a derivative computed by a rule on
plain values), recorded by autograd as depending on the boxes ``traced``; differentiating
it raises ``why.error()`` (reverse mode: when the backward pass reaches it; forward mode:
at once)."""


def _raise_in_reverse(argnums: Any, ans: Any, args: Any, kwargs: Any) -> Any:
    why = args[1]

    def derivative_of_a_rule_derivative(g: Any) -> Any:
        raise why.error()

    return derivative_of_a_rule_derivative


def _raise_in_forward(argnums: Any, gs: Any, ans: Any, args: Any, kwargs: Any) -> Any:
    raise args[1].error()


defvjp_argnums(traced_derivative, _raise_in_reverse)
defjvp_argnums(traced_derivative, _raise_in_forward)


def autograd_makers(f: Any) -> tuple[Any, Any]:
    """autograd's own ``(vjp_maker, jvp_maker)`` for ``f``, through the autograd primitive wrapping it.

    Either may be ``None``. The makers are those in autograd's tables now: under
    :func:`~chainrules.interop.autograd.use_chainrules` the bridge's, which hand traced
    arguments to autograd's own.
    """
    from chainrules.interop.autograd.registration import autograd_primitives_of

    vjp = jvp = None
    for wrapper in autograd_primitives_of(f):
        vjp = vjp or primitive_vjps.get(wrapper)
        jvp = jvp or primitive_jvps.get(wrapper)
    return vjp, jvp
