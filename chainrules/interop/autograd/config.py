"""``AutogradConfig``: the rule configuration of autograd, with ``rrule_via_ad`` and ``frule_via_ad``.

Rules for higher-order functions (integrals, optimisers, map-like functions) are registered
with ``config=HasReverseMode`` or ``config=HasForwardsMode`` and call back into the AD that
called them to differentiate the function they were given. When autograd drives them
(through :func:`~chainrules.interop.autograd.primitive` or
:func:`~chainrules.interop.autograd.use_chainrules`), the config they receive is an
:class:`AutogradConfig`, whose ``rrule_via_ad``/``frule_via_ad`` run ``autograd``'s
``make_vjp``/``make_jvp``.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
from autograd.builtins import dict as ag_dict
from autograd.builtins import list as ag_list
from autograd.builtins import tuple as ag_tuple
from autograd.core import make_jvp, make_vjp
from autograd.tracer import isbox

from chainrules.interop._arguments import BoundCall, locate
from chainrules.interop.autograd.conversion import (
    cotangent_from_autograd,
    cotangent_to_autograd,
    tangent_from_autograd,
    tangent_to_autograd,
)
from chainrules.structured import StructuredMatrix
from chainrules_core import (
    AbstractZero,
    HasForwardsMode,
    HasReverseMode,
    NoTangent,
    ProjectTo,
    RuleConfig,
    Tangent,
    ZeroTangent,
    unthunk,
)

__all__ = ["AUTOGRAD_CONFIG", "AutogradConfig", "is_differentiable"]


def is_differentiable(x: Any) -> bool:
    """Whether autograd can differentiate with respect to ``x``.

    Floating and complex numbers and arrays, structured matrices, and tuples, lists and
    dicts made only of those are; integers, booleans, strings, ``None`` and callables are not.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.interop.autograd import is_differentiable
    >>> is_differentiable(np.ones(2)), is_differentiable(np.arange(2)), is_differentiable((1.0, 2.0))
    (True, False, True)
    """
    if isinstance(x, np.ndarray):
        return x.dtype.kind in "fc"
    if isinstance(x, (bool, np.bool_, int, np.integer)):
        return False
    if isinstance(x, (float, complex, np.inexact)):
        return True
    if isinstance(x, StructuredMatrix):
        return np.dtype(x.dtype).kind in "fc"
    if isinstance(x, (tuple, list)):
        return len(x) > 0 and all(is_differentiable(v) for v in x)
    if isinstance(x, dict):
        return len(x) > 0 and all(is_differentiable(v) for v in x.values())
    return False


def _boxed_output(y: Any) -> Any:
    """A plain tuple, list or dict holding traced values, as a container autograd traces.

    autograd records a container output only when it is built by its own container
    primitives (``autograd.builtins.tuple``...); ``f`` returning ``(a, b)`` is rebuilt so.
    """
    if isbox(y):
        return y
    if type(y) in (tuple, list):
        parts = [_boxed_output(v) for v in y]
        if not any(isbox(v) for v in parts):
            return y
        return ag_tuple(parts) if type(y) is tuple else ag_list(parts)
    if type(y) is dict:
        items = {k: _boxed_output(v) for k, v in y.items()}
        return ag_dict(items) if any(isbox(v) for v in items.values()) else y
    if isinstance(y, (tuple, list, dict)) and _holds_box(y):
        raise TypeError(f"autograd cannot differentiate a function returning a {type(y).__name__} of traced values; "
                        "return a tuple, a list or a dict")
    return y


def _holds_box(y: Any) -> bool:
    values = y.values() if isinstance(y, dict) else y
    return any(isbox(v) or (isinstance(v, (tuple, list, dict)) and _holds_box(v)) for v in values)


def _packed(f: Callable[..., Any], call: BoundCall, kwargs: dict[str, Any]) -> Callable[[Any], Any]:
    """``f`` as a function of the tuple of the values it is differentiated with respect to (what autograd traces)."""
    n = len(call.slots)

    def packed_call(xs: Any) -> Any:
        return _boxed_output(f(*call.rebuild([xs[k] for k in range(n)]), **kwargs))

    return packed_call


def _is_leaf(x: Any) -> bool:
    """A value ``rrule_via_ad`` differentiates: a float or complex number or array, or a structured matrix."""
    return not isinstance(x, (tuple, list, dict)) and is_differentiable(x)


def _no_tangent_or_zero(x: Any) -> Any:
    return ZeroTangent() if is_differentiable(x) else NoTangent()


def _holds_traced(values: Any) -> bool:
    """Whether a value autograd is tracing (a box) is among ``values`` or inside their tuples and lists."""
    return any(isbox(v) or (type(v) in (tuple, list) and _holds_traced(v)) for v in values)


def _traced_packed(f: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any],
                   positions: list[int]) -> Callable[[Any], Any]:
    def traced_call(xs: Any) -> Any:
        full = list(args)
        for k, i in enumerate(positions):
            full[i] = xs[k]
        return _boxed_output(f(*full, **kwargs))

    return traced_call


def _traced_rrule_via_ad(f: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """``rrule_via_ad`` on values an enclosing autograd trace is differentiating (a derivative of a derivative).

    A rule that needs second derivatives of a function it was given (``minimize``'s Hessian-vector
    products) differentiates, through the config, a gradient that the config itself computes: the
    arguments of the inner call are then autograd's boxes. autograd nests traces, so
    ``make_vjp`` runs on them as they are (positional arguments as wholes), and the cotangents
    (boxes of the enclosing trace) are returned unconverted (real values only: no conjugation is
    needed, and the enclosing trace must see autograd's own values to differentiate them again).
    """
    positions = [i for i, a in enumerate(args) if isbox(a) or is_differentiable(a)
                 or (type(a) in (tuple, list) and _holds_traced(a))]
    n = len(args)
    vjp, y = make_vjp(_traced_packed(f, args, kwargs, positions), tuple(args[i] for i in positions))

    def traced_autograd_pullback(dy: Any) -> tuple[Any, ...]:
        dy = unthunk(dy)
        out: list[Any] = [NoTangent()] * (n + 1)
        if isinstance(dy, AbstractZero):
            for i in positions:
                out[i + 1] = ZeroTangent()
            return tuple(out)
        if isinstance(dy, Tangent):
            dy = cotangent_to_autograd(dy, y)
        grads = vjp(dy)
        for k, i in enumerate(positions):
            out[i + 1] = grads[k]
        return tuple(out)

    return y, traced_autograd_pullback


def _traced_frule_via_ad(tangents: tuple[Any, ...], f: Callable[..., Any], args: tuple[Any, ...],
                         kwargs: dict[str, Any]) -> Any:
    """``frule_via_ad`` on values (or along tangents) an enclosing autograd trace is differentiating."""
    positions = [i for i, a in enumerate(args) if (isbox(a) or is_differentiable(a)) and tangents[i + 1] is not None
                 and not isinstance(unthunk(tangents[i + 1]), AbstractZero)]
    if not positions:
        return f(*args, **kwargs), ZeroTangent()
    xs = tuple(args[i] for i in positions)
    dxs = tuple(unthunk(tangents[i + 1]) for i in positions)
    return make_jvp(_traced_packed(f, args, kwargs, positions), xs)(dxs)


class AutogradConfig(RuleConfig, HasReverseMode, HasForwardsMode):
    """The rule configuration of autograd: reverse and forward mode, through ``make_vjp``/``make_jvp``.

    Rules that require ``HasReverseMode``/``HasForwardsMode`` receive it when autograd calls
    them, and differentiate the functions they were given with :func:`rrule_via_ad` /
    :func:`frule_via_ad`. Passed to :func:`chainrules.testing.test_rrule` with
    ``rrule_f=rrule_via_ad``, it checks autograd's own gradients against finite differences.

    Examples
    --------
    >>> import numpy as np
    >>> import autograd.numpy as anp
    >>> from chainrules import rrule_via_ad, frule_via_ad
    >>> from chainrules.interop.autograd import AutogradConfig
    >>> y, pullback = rrule_via_ad(AutogradConfig(), lambda x, n: anp.sum(x ** n), np.array([1.0, 2.0]), 3)
    >>> y, pullback(1.0)
    (np.float64(9.0), (NoTangent(), array([ 3., 12.]), NoTangent()))
    >>> frule_via_ad(AutogradConfig(), (None, np.array([1.0, 0.0])), anp.sin, np.array([0.0, 1.0]))
    (array([0.        , 0.84147098]), array([1., 0.]))
    >>> from chainrules.testing import test_rrule
    >>> test_rrule(anp.tanh, np.array([0.1, -0.4]), config=AutogradConfig(), rrule_f=rrule_via_ad,
    ...           frule_f=frule_via_ad, check_inplace_add=False)
    """

    __slots__ = ()

    def rrule_via_ad(self, f: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """``(y, pullback)`` of ``f(*args, **kwargs)`` by ``autograd.core.make_vjp``.

        Every float or complex number or array among the positional arguments, also inside
        tuples, lists and dicts (nested), is differentiated: a container argument gets a
        structural ``Tangent`` of its type, with ``NoTangent()`` for the integers, flags and
        other values it holds. Other arguments get ``NoTangent()``, as do the keyword
        arguments (never differentiated) and ``f`` itself (autograd cannot differentiate
        with respect to values a function closes over). Called on values an enclosing autograd
        trace is differentiating (a rule differentiating a derivative it computed itself), it
        differentiates them as autograd's own (see ``_traced_rrule_via_ad``).
        """
        if _holds_traced(args):
            return _traced_rrule_via_ad(f, args, kwargs)
        call = locate(f, args, {}, _is_leaf)
        n = len(args)
        if call is None:
            y = f(*args, **kwargs)

            def constant_pullback(dy: Any) -> tuple[Any, ...]:
                return (NoTangent(),) * (n + 1)

            return y, constant_pullback
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message="Output seems independent of input")
            vjp, y = make_vjp(_packed(f, call, kwargs), call.values)
        projectors = [ProjectTo(v) for v in call.values]

        def autograd_pullback(dy: Any) -> tuple[Any, ...]:
            dy = unthunk(dy)
            if isinstance(dy, AbstractZero):
                return (NoTangent(), *call.put([ZeroTangent()] * len(projectors), _no_tangent_or_zero, args))
            grads = vjp(cotangent_to_autograd(dy, y))
            cotangents = [project(cotangent_from_autograd(g, v)) for project, g, v in zip(projectors, grads,
                                                                                          call.values)]
            return (NoTangent(), *call.put(cotangents, _no_tangent_or_zero, args))

        return y, autograd_pullback

    def frule_via_ad(self, tangents: tuple[Any, ...], f: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """``(y, dy)`` of ``f(*args, **kwargs)`` along ``tangents`` by ``autograd.core.make_jvp``.

        ``tangents`` is ``(df, dx1, ..., dxn)``; ``df`` must be a zero (``None``,
        ``NoTangent()``, ``ZeroTangent()``): autograd cannot push a tangent of the function
        itself. The tangent of a tuple, list or dict argument is a structural ``Tangent``
        (or a plain container of tangents); its values are pushed forward where nonzero.
        """
        if len(tangents) != len(args) + 1:
            raise TypeError(f"frule_via_ad: got {len(tangents)} tangents for {len(args)} arguments; pass "
                            "(df, dx1, ..., dxn)")
        df = unthunk(tangents[0])
        if df is not None and not isinstance(df, AbstractZero):
            raise NotImplementedError("frule_via_ad(AutogradConfig(), ...): autograd cannot push forward a tangent "
                                      "of the function itself; pass NoTangent() for it")
        if _holds_traced(args) or _holds_traced(tuple(unthunk(t) for t in tangents[1:])):
            return _traced_frule_via_ad(tangents, f, args, kwargs)
        call = locate(f, args, {}, _is_leaf)
        dxs: tuple[Any, ...] = ()
        if call is not None:
            leaf_tangents = [unthunk(t) for t in call.take([ZeroTangent() if t is None else t for t in tangents[1:]])]
            moving = [t is not None and not isinstance(t, AbstractZero) for t in leaf_tangents]
            dxs = tuple(tangent_to_autograd(t, v) for t, v, m in zip(leaf_tangents, call.values, moving) if m)
            call = call.select(moving) if dxs else None
        if call is None:
            return f(*args, **kwargs), ZeroTangent()
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message="Output seems independent of input")
            y, dy = make_jvp(_packed(f, call, kwargs), call.values)(dxs)
        return y, tangent_from_autograd(dy, y)


AUTOGRAD_CONFIG = AutogradConfig()
"""The config instance the bridge passes to rules (and looks rules up with)."""
