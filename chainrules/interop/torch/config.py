"""``TorchConfig``: PyTorch's rule configuration (``rrule_via_ad``: ``torch.func.vjp``; ``frule_via_ad``: ``jvp``).

Rules for higher-order functions (``numpy.apply_along_axis``, integrators, optimisers)
differentiate the callable they were given through the config. When a PyTorch primitive
runs such a rule, the config is a :class:`TorchConfig`, so the callable may be written
with ``torch`` operations: the rule calls it on NumPy values, and ``rrule_via_ad``
converts them to tensors (sharing memory), runs ``torch.func.vjp`` and converts the
cotangents back. PyTorch's complex cotangents follow chainrules' convention: nothing is
conjugated.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import torch

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

__all__ = ["TORCH_CONFIG", "TorchConfig", "is_differentiable"]


def is_differentiable(x: Any) -> bool:
    """Whether PyTorch differentiates with respect to ``x``: a floating or complex number, array or tensor.

    Examples
    --------
    >>> import numpy as np, torch
    >>> from chainrules.interop.torch import is_differentiable
    >>> is_differentiable(np.ones(2)), is_differentiable(torch.arange(2)), is_differentiable(1)
    (True, False, False)
    """
    if isinstance(x, torch.Tensor):
        return x.is_floating_point() or x.is_complex()
    if isinstance(x, (bool, np.bool_, int, np.integer)):
        return False
    if isinstance(x, (float, complex, np.inexact)):
        return True
    if isinstance(x, StructuredMatrix):
        return False
    return isinstance(x, np.ndarray) and x.dtype.kind in "fc"


def _fill(x: Any) -> Any:
    return ZeroTangent() if is_differentiable(x) else NoTangent()


def _tensor(x: Any) -> torch.Tensor:
    if isinstance(x, torch.Tensor):
        return x
    a = np.asarray(x)
    if not a.flags.writeable or any(s < 0 for s in a.strides):
        a = np.array(a)
    return torch.from_numpy(a)


def _numpy(tree: Any) -> Any:
    if isinstance(tree, torch.Tensor):
        return tree.detach().resolve_conj().resolve_neg().numpy()
    if isinstance(tree, (tuple, list)):
        parts = [_numpy(v) for v in tree]
        if hasattr(tree, "_fields"):
            return type(tree)(*parts)
        return tuple(parts) if isinstance(tree, tuple) else parts
    if isinstance(tree, dict):
        return {k: _numpy(v) for k, v in tree.items()}
    return tree


def _tensors(tree: Any) -> Any:
    if isinstance(tree, np.ndarray) or np.isscalar(tree):
        return _tensor(tree)
    if isinstance(tree, (tuple, list)):
        parts = [_tensors(v) for v in tree]
        if hasattr(tree, "_fields"):
            return type(tree)(*parts)
        return tuple(parts) if isinstance(tree, tuple) else parts
    if isinstance(tree, dict):
        return {k: _tensors(v) for k, v in tree.items()}
    return tree


def _packed(f: Callable[..., Any], call: BoundCall, kwargs: dict[str, Any]) -> Callable[..., Any]:
    def packed_call(*xs: Any) -> Any:
        return f(*call.rebuild(xs), **kwargs)

    return packed_call


class TorchConfig(RuleConfig, HasReverseMode, HasForwardsMode):
    """The rule configuration of PyTorch: reverse mode by ``torch.func.vjp``, forward mode by ``torch.func.jvp``.

    Higher-order rules receive it when a PyTorch primitive calls them; passed to
    :func:`chainrules.testing.test_rrule` with ``rrule_f=rrule_via_ad`` it checks PyTorch's
    own gradients against finite differences.

    Examples
    --------
    >>> import numpy as np, torch
    >>> from chainrules import rrule_via_ad, frule_via_ad
    >>> from chainrules.interop.torch import TorchConfig
    >>> y, pullback = rrule_via_ad(TorchConfig(), lambda x, n: torch.sum(x ** n), np.array([1.0, 2.0]), 3)
    >>> float(y), pullback(1.0)[1], pullback(1.0)[2]
    (9.0, array([ 3., 12.]), NoTangent())
    >>> frule_via_ad(TorchConfig(), (None, np.array([1.0, 0.0])), torch.sin, np.array([0.0, 1.0]))[1]
    array([1., 0.])
    """

    __slots__ = ()

    def rrule_via_ad(self, f: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """``(y, pullback)`` of ``f(*args, **kwargs)`` by ``torch.func.vjp``; ``y`` and the cotangents as NumPy values.

        Every float or complex number, array or tensor among the positional arguments,
        also inside tuples, lists and dicts, is differentiated; integers, flags and keyword
        arguments get ``NoTangent()``.
        """
        call = locate(f, args, {}, lambda v: not isinstance(v, (tuple, list, dict)) and is_differentiable(v))
        n = len(args)
        if call is None:
            y = _numpy(f(*args, **kwargs))

            def constant_pullback(dy: Any) -> tuple[Any, ...]:
                return (NoTangent(),) * (n + 1)

            return y, constant_pullback
        values = call.values
        y_torch, vjp = torch.func.vjp(_packed(f, call, kwargs), *[_tensor(v) for v in values])  # type: ignore[misc]
        y = _numpy(y_torch)
        projectors = [ProjectTo(v) for v in values]

        def torch_pullback(dy: Any) -> tuple[Any, ...]:
            dy = unthunk(dy)
            if isinstance(dy, AbstractZero):
                return (NoTangent(), *call.put([ZeroTangent()] * len(values), _fill, args))
            g = _tensors(to_host(dy, y))
            g = _cast_like(g, y_torch)
            grads = vjp(g)
            cotangents = [project(from_host(_numpy(gr), v)) for project, gr, v in zip(projectors, grads, values)]
            return (NoTangent(), *call.put(cotangents, _fill, args))

        return y, torch_pullback

    def frule_via_ad(self, tangents: tuple[Any, ...], f: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """``(y, dy)`` of ``f(*args, **kwargs)`` along ``tangents`` (``(df, dx1, ..., dxn)``) by ``torch.func.jvp``.

        ``df`` must be a zero: PyTorch cannot push a tangent of the function itself.
        """
        if len(tangents) != len(args) + 1:
            raise TypeError(f"frule_via_ad: got {len(tangents)} tangents for {len(args)} arguments; pass "
                            "(df, dx1, ..., dxn)")
        df = unthunk(tangents[0])
        if df is not None and not isinstance(df, AbstractZero):
            raise NotImplementedError("frule_via_ad(TorchConfig(), ...): PyTorch cannot push forward a tangent of "
                                      "the function itself; pass NoTangent() for it")
        call = locate(f, args, {}, lambda v: not isinstance(v, (tuple, list, dict)) and is_differentiable(v))
        if call is None:
            return _numpy(f(*args, **kwargs)), ZeroTangent()
        leaf_tangents = call.take([ZeroTangent() if t is None else t for t in tangents[1:]])
        primals = tuple(_tensor(v) for v in call.values)
        dxs = tuple(_tensor(to_host(t, v)).to(p.dtype) for t, v, p in zip(leaf_tangents, call.values, primals))
        y, dy = torch.func.jvp(_packed(f, call, kwargs), primals, dxs)  # type: ignore[misc]
        return _numpy(y), from_host(_numpy(dy), _numpy(y), drop_zeros=False)


def _cast_like(g: Any, like: Any) -> Any:
    if isinstance(like, torch.Tensor):
        return g.to(like.dtype) if isinstance(g, torch.Tensor) and g.dtype != like.dtype else g
    if isinstance(like, (tuple, list)) and isinstance(g, (tuple, list)):
        return type(g)(*[_cast_like(a, b) for a, b in zip(g, like)]) if hasattr(g, "_fields") else type(g)(
            _cast_like(a, b) for a, b in zip(g, like))
    return g


TORCH_CONFIG = TorchConfig()
"""The config instance the bridge passes to rules (and looks rules up with)."""
