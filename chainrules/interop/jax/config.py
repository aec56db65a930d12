"""``JaxConfig``: the rule configuration of JAX, with ``rrule_via_ad`` (``jax.vjp``) and ``frule_via_ad`` (``jax.jvp``).

Rules for higher-order functions (``numpy.apply_along_axis``, integrators, optimisers)
are registered with ``config=HasReverseMode`` / ``HasForwardsMode`` and differentiate the
callable they were given through the config. When a JAX primitive runs such a rule, the
config is a :class:`JaxConfig`, so the callable may be written in ``jax.numpy``: the rule
calls it on NumPy values, and ``rrule_via_ad`` converts them to JAX arrays, runs
``jax.vjp`` and converts the cotangents back (conjugating complex ones: JAX's cotangents
are the conjugates of chainrules').
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from chainrules.interop._arguments import BoundCall, locate
from chainrules.interop._host import from_host, to_host
from chainrules.structured import StructuredMatrix
from chainrules_core import (
    AbstractZero,
    HasForwardsMode,
    HasReverseMode,
    NoTangent,
    ProjectTo,
    RuleConfig,
    ZeroTangent,
    unthunk,
)

__all__ = ["JAX_CONFIG", "JaxConfig", "is_differentiable"]


def is_differentiable(x: Any) -> bool:
    """Whether JAX differentiates with respect to ``x``: a floating or complex number or array.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.interop.jax import is_differentiable
    >>> is_differentiable(np.ones(2)), is_differentiable(np.arange(2)), is_differentiable(True)
    (True, False, False)
    """
    if isinstance(x, (bool, np.bool_, int, np.integer)):
        return False
    if isinstance(x, (float, complex, np.inexact)):
        return True
    if isinstance(x, StructuredMatrix):
        return False
    dtype = getattr(x, "dtype", None)
    return dtype is not None and np.dtype(dtype).kind in "fc"


def _fill(x: Any) -> Any:
    return ZeroTangent() if is_differentiable(x) else NoTangent()


def _to_jax(tree: Any) -> Any:
    return jax.tree_util.tree_map(jnp.asarray, tree)


def _to_numpy(tree: Any) -> Any:
    return jax.tree_util.tree_map(np.asarray, tree)


def _packed(f: Callable[..., Any], call: BoundCall, kwargs: dict[str, Any]) -> Callable[..., Any]:
    def packed_call(*xs: Any) -> Any:
        return f(*call.rebuild(xs), **kwargs)

    return packed_call


class JaxConfig(RuleConfig, HasReverseMode, HasForwardsMode):
    """The rule configuration of JAX: reverse mode by ``jax.vjp``, forward mode by ``jax.jvp``.

    Higher-order rules receive it when a JAX primitive calls them; passed to
    :func:`chainrules.testing.test_rrule` with ``rrule_f=rrule_via_ad`` it checks JAX's
    own gradients against finite differences.

    Examples
    --------
    >>> import numpy as np
    >>> import jax.numpy as jnp
    >>> from chainrules import rrule_via_ad, frule_via_ad
    >>> from chainrules.interop.jax import JaxConfig
    >>> y, pullback = rrule_via_ad(JaxConfig(), lambda x, n: jnp.sum(x ** n), np.array([1.0, 2.0]), 3)
    >>> float(y), pullback(1.0)[1].tolist(), pullback(1.0)[2]
    (9.0, [3.0, 12.0], NoTangent())
    >>> y, dy = frule_via_ad(JaxConfig(), (None, np.array([1.0, 0.0])), jnp.sin, np.array([0.0, 1.0]))
    >>> dy.tolist()
    [1.0, 0.0]
    """

    __slots__ = ()

    def rrule_via_ad(self, f: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """``(y, pullback)`` of ``f(*args, **kwargs)`` by ``jax.vjp``; ``y`` and the cotangents as NumPy values.

        Every float or complex number or array among the positional arguments, also inside
        tuples, lists and dicts, is differentiated (a container gets a structural
        ``Tangent``); integers, flags and keyword arguments get ``NoTangent()``.
        """
        call = locate(f, args, {}, is_differentiable)
        n = len(args)
        if call is None:
            y = _to_numpy(f(*args, **kwargs))

            def constant_pullback(dy: Any) -> tuple[Any, ...]:
                return (NoTangent(),) * (n + 1)

            return y, constant_pullback
        y_jax, vjp = jax.vjp(_packed(f, call, kwargs), *[jnp.asarray(v) for v in call.values])
        y = _to_numpy(y_jax)
        values = call.values
        projectors = [ProjectTo(v) for v in values]

        def jax_pullback(dy: Any) -> tuple[Any, ...]:
            dy = unthunk(dy)
            if isinstance(dy, AbstractZero):
                return (NoTangent(), *call.put([ZeroTangent()] * len(values), _fill, args))
            grads = vjp(_to_jax(to_host(dy, y, conj=True)))
            cotangents = [project(from_host(np.asarray(g).astype(np.result_type(v), copy=False), v, conj=True))
                          for project, g, v in zip(projectors, grads, values)]
            return (NoTangent(), *call.put(cotangents, _fill, args))

        return y, jax_pullback

    def frule_via_ad(self, tangents: tuple[Any, ...], f: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """``(y, dy)`` of ``f(*args, **kwargs)`` along ``tangents`` (``(df, dx1, ..., dxn)``) by ``jax.jvp``.

        ``df`` must be a zero: JAX cannot push a tangent of the function itself.
        """
        if len(tangents) != len(args) + 1:
            raise TypeError(f"frule_via_ad: got {len(tangents)} tangents for {len(args)} arguments; pass "
                            "(df, dx1, ..., dxn)")
        df = unthunk(tangents[0])
        if df is not None and not isinstance(df, AbstractZero):
            raise NotImplementedError("frule_via_ad(JaxConfig(), ...): JAX cannot push forward a tangent of the "
                                      "function itself; pass NoTangent() for it")
        call = locate(f, args, {}, is_differentiable)
        if call is None:
            return _to_numpy(f(*args, **kwargs)), ZeroTangent()
        leaf_tangents = call.take([ZeroTangent() if t is None else t for t in tangents[1:]])
        dxs = [jnp.asarray(to_host(t, v)).astype(jnp.asarray(v).dtype) for t, v in zip(leaf_tangents, call.values)]
        y, dy = jax.jvp(_packed(f, call, kwargs), tuple(jnp.asarray(v) for v in call.values), tuple(dxs))
        return _to_numpy(y), from_host(_to_numpy(dy), _to_numpy(y), drop_zeros=False)


JAX_CONFIG = JaxConfig()
"""The config instance the bridge passes to rules (and looks rules up with)."""
