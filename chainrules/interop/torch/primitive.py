"""``primitive(f)``: any function with a chainrules rule, called on tensors, differentiable by PyTorch.

Called with tensors, a primitive applies a ``torch.autograd.Function``:

* ``forward`` runs the ``rrule`` once on the tensors' NumPy views (the output and the
  pullback together) and ``setup_context`` keeps the pullback on ``ctx``;
* ``backward`` runs the pullback (``torch.autograd.grad``, ``.backward()``,
  ``torch.func.grad``/``vjp``, ``torch.autograd.gradcheck``);
* the ``jvp`` staticmethod runs the ``frule`` (forward-mode AD: ``torch.func.jvp``,
  ``torch.autograd.forward_ad``);
* a derivative of the derivative (``create_graph=True`` then a second ``grad``,
  ``torch.autograd.gradgradcheck``, ``torch.func.grad`` of ``grad``) raises
  :class:`~chainrules.interop.errors.HigherOrderDerivativeError` naming the function, when
  it is needed: the rule's pullback is NumPy code PyTorch cannot differentiate. This is
  ``torch.autograd.function.once_differentiable``'s behaviour with an error that says which
  function and why.

Called with no tensor that requires a gradient (and no dual tensor of forward-mode AD),
a primitive just runs ``f`` on the NumPy views and returns tensors: no rule, no autograd
node. Tensors inside tuple, list and dict arguments are found, and keyword arguments
holding them are bound to their positions (:mod:`chainrules.interop._arguments`); integer
and boolean tensors get no gradient. Results have the dtype the rule gives (float32 stays
float32) and the input's device (see :mod:`~chainrules.interop.torch.conversion`).

A SciPy result object (``OdeResult``, ``OptimizeResult``) or a tuple with diagnostic parts
(``odeint``'s ``(y, infodict)``) is returned as such: its floating fields are tensors
carrying the derivative, its other fields (``success``, ``message``, ``nfev``, ``sol``)
plain values, and the rule's pullback receives a structural ``Tangent`` of it
(:mod:`chainrules.interop._outputs`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import torch
import torch.autograd.forward_ad as _forward_ad

from chainrules.interop._arguments import BoundCall, function_name, locate
from chainrules.interop._host import to_host
from chainrules.interop._lookup import find_frule, find_rrule, no_rule_error
from chainrules.interop._outputs import OutputStructure
from chainrules.interop.errors import HigherOrderDerivativeError
from chainrules.interop.torch.config import TORCH_CONFIG
from chainrules.interop.torch.conversion import to_numpy, to_tensor
from chainrules_core import NoTangent, ZeroTangent

__all__ = ["primitive"]

_NO = NoTangent()
_ZERO = ZeroTangent()
_Tensor = torch.Tensor


def _is_tensor(x: Any) -> bool:
    return isinstance(x, _Tensor)


def _differentiable(t: torch.Tensor) -> bool:
    return t.is_floating_point() or t.is_complex()


def _flatten(y: Any) -> tuple[list[Any], OutputStructure]:
    """The leaves of a rule's output (an array; a tuple, list, namedtuple or dict of them; a result object), and its
    structure (:class:`~chainrules.interop._outputs.OutputStructure`: rebuilds it, reads cotangents of it)."""
    structure = OutputStructure(y)
    return structure.leaves, structure


class _Spec:
    """One call of a primitive: the function, the arguments, and where its tensors are."""

    __slots__ = ("call", "diff", "f", "name", "tensors")

    def __init__(self, f: Any, call: BoundCall) -> None:
        self.f = f
        self.call = call
        self.name = function_name(f)
        self.tensors: tuple[torch.Tensor, ...] = tuple(call.values)
        self.diff = [_differentiable(t) for t in self.tensors]

    def args(self, xs: Sequence[Any]) -> list[Any]:
        return self.call.rebuild(xs)

    def outputs(self, y: Any, device: torch.device, xs: Sequence[Any] = ()
                ) -> tuple[list[torch.Tensor], OutputStructure]:
        leaves, rebuild = _flatten(y)
        arrays = [x for x in xs if isinstance(x, np.ndarray)]
        # an output sharing memory with an input (a rule returning a view) is copied: an autograd.Function's
        # output must not alias its input
        out = [to_tensor(np.array(v) if any(np.may_share_memory(v, x) for x in arrays) else v) for v in leaves]
        return _placed(out, self.tensors), rebuild


def _placed(out: list[torch.Tensor], inputs: Sequence[torch.Tensor]) -> list[torch.Tensor]:
    """Results on the inputs' device; float32 results of ``bfloat16`` inputs (NumPy has no ``bfloat16``: the
    rule ran in float32) back in ``bfloat16``."""
    device = inputs[0].device
    if any(t.dtype is torch.bfloat16 for t in inputs):
        out = [t.to(torch.bfloat16) if t.dtype is torch.float32 else t for t in out]
    if device.type != "cpu":
        out = [t.to(device) for t in out]
    return out


class _Cell:
    """What ``forward`` hands ``setup_context`` besides the outputs (an input of ``apply`` that is not a tensor)."""

    __slots__ = ("elements", "pullback", "rebuild", "xs", "y")

    def __init__(self) -> None:
        self.elements: list[_Cell] = []  # one per element of a torch.func.vmap batch
        self.pullback: Any = None
        self.rebuild: Any = None  # the output's OutputStructure
        self.xs: list[Any] = []
        self.y: Any = None


def _higher_order(spec: _Spec, what: str) -> HigherOrderDerivativeError:
    return HigherOrderDerivativeError(
        f"PyTorch is differentiating the {what} of {spec.name} (a derivative of order two or more: grad with "
        f"create_graph=True then grad again, gradgradcheck, torch.func.grad of grad, a Hessian). That derivative comes "
        f"from chainrules' rule for {spec.name}, NumPy code PyTorch cannot differentiate. Differentiate through "
        f"{spec.name} once only, or write it with torch operations")


def _sequential_vmap(function: Any, info: Any, in_dims: Any, inputs: list[Any], fresh_cell: bool = False
                     ) -> tuple[tuple[torch.Tensor, ...], tuple[int, ...]]:
    """``torch.func.vmap`` of an ``autograd.Function`` whose work is NumPy code: one ``apply`` per batch element.

    ``inputs`` are ``(spec, cell, ...)``. A primitive keeps its pullback in ``cell``: under
    ``vmap`` each element gets its own cell (``fresh_cell``), listed in the caller's
    ``cell.elements``, where the backward and forward-mode passes of element ``i`` (also
    run one element at a time) find it.
    """
    cell = inputs[1]
    elements: list[_Cell] = []
    outs = []
    for i in range(info.batch_size):
        sliced = [x.select(d, i) if d is not None and isinstance(x, torch.Tensor) else x
                  for x, d in zip(inputs, in_dims)]
        if fresh_cell:
            elements.append(_Cell())
            sliced[1] = elements[-1]
        elif cell.elements:
            sliced[1] = cell.elements[i]
        outs.append(function.apply(*sliced))
    if fresh_cell:
        cell.elements = elements
        cell.rebuild = elements[0].rebuild
        if cell.rebuild.plain:
            spec = inputs[0]
            raise TypeError(
                f"{spec.name} returns a result object ({type(cell.rebuild.output).__name__}) or parts that are not "
                "tensors: under torch.func.vmap each batch element has its own (its message, its counts, and for a "
                "solver the number of steps or events), which cannot be stacked into one output. Call the primitive "
                "once per element (a Python loop), without vmap")
    stacked = tuple(torch.stack([o[k] for o in outs]) for k in range(len(outs[0])))
    return stacked, (0,) * len(stacked)


class _PullbackFunction(torch.autograd.Function):
    """The backward pass of a primitive as a function of its cotangents: runs the pullback; not differentiable.

    ``ChainrulesFunction.backward`` applies it, so that the NumPy work happens in a
    ``forward`` (which ``torch.func`` calls on plain tensors) and a derivative of the
    derivative reaches its ``backward``/``jvp``, which raise
    :class:`~chainrules.interop.errors.HigherOrderDerivativeError`.
    """

    @staticmethod
    def forward(spec: _Spec, cell: _Cell, wanted: tuple[bool, ...], n: int, *tensors: torch.Tensor
                ) -> Any:  # type: ignore[override]
        # tensors: the n cotangents of the outputs, then the primal inputs (not used here: they make the
        # result depend on them, so that differentiating it again reaches ``backward`` and raises)
        cotangents = cell.pullback(cell.rebuild.cotangent([to_numpy(g) for g in tensors[:n]]))
        n = len(spec.call.args)
        if len(cotangents) != n + 1:
            raise TypeError(f"the chainrules pullback of {spec.name} returned {len(cotangents)} cotangents for "
                            f"{n} arguments; expected {n + 1}")
        parts = spec.call.take(cotangents[1:])
        out = []
        for k, (ct, x, t) in enumerate(zip(parts, cell.xs, spec.tensors)):
            if wanted[k]:
                dense = to_host(ct, x, False, spec.f, spec.call.slots[k], "", "PyTorch")
                out.append(to_tensor(np.broadcast_to(dense, np.shape(x)), like=t))
        return tuple(out)

    @staticmethod
    def setup_context(ctx: Any, inputs: Any, output: Any) -> None:
        ctx.spec = inputs[0]

    @staticmethod
    def backward(ctx: Any, *grads: Any) -> Any:
        raise _higher_order(ctx.spec, "gradient")

    @staticmethod
    def vmap(info: Any, in_dims: Any, *inputs: Any) -> Any:
        return _sequential_vmap(_PullbackFunction, info, in_dims, list(inputs))

    @staticmethod
    def jvp(ctx: Any, *tangents: Any) -> Any:
        raise _higher_order(ctx.spec, "gradient")


class _PushforwardFunction(torch.autograd.Function):
    """The forward-mode derivative of a primitive as a function of its tangents: runs the frule; not differentiable."""

    @staticmethod
    def forward(spec: _Spec, cell: _Cell, n: int, *tensors: Any) -> Any:  # type: ignore[override]
        dxs = tensors[:n]  # then the primal inputs, for the same reason as in _PullbackFunction
        per_slot = [to_numpy(d) if ok and d is not None else (_ZERO if ok else _NO) for d, ok in zip(dxs, spec.diff)]
        args = spec.args(cell.xs)
        tangents = (_NO, *spec.call.put(per_slot, _fill, args))
        result = find_frule(TORCH_CONFIG, tangents, spec.f, args, spec.call.kwargs)
        if result is None:
            raise no_rule_error(spec.f, "frule", args, spec.call.positions, "PyTorch")
        y, dy = result
        leaves = OutputStructure(y).tangent_leaves(dy, spec.f, " (forward mode)", "PyTorch")
        return tuple(_placed([to_tensor(v) for v in leaves], spec.tensors))

    @staticmethod
    def setup_context(ctx: Any, inputs: Any, output: Any) -> None:
        ctx.spec = inputs[0]

    @staticmethod
    def backward(ctx: Any, *grads: Any) -> Any:
        raise _higher_order(ctx.spec, "forward-mode derivative")

    @staticmethod
    def vmap(info: Any, in_dims: Any, *inputs: Any) -> Any:
        return _sequential_vmap(_PushforwardFunction, info, in_dims, list(inputs))

    @staticmethod
    def jvp(ctx: Any, *tangents: Any) -> Any:
        raise _higher_order(ctx.spec, "forward-mode derivative")


def _fill(v: Any) -> Any:
    return _ZERO if isinstance(v, np.ndarray) and v.dtype.kind in "fc" else _NO


class ChainrulesFunction(torch.autograd.Function):
    """The ``torch.autograd.Function`` of every primitive: ``apply(spec, cell, *tensors)``."""

    @staticmethod
    def forward(spec: _Spec, cell: _Cell, *tensors: torch.Tensor) -> Any:  # type: ignore[override]
        xs = [to_numpy(t) for t in tensors]
        args = spec.args(xs)
        result = find_rrule(TORCH_CONFIG, spec.f, args, spec.call.kwargs)
        if result is None:
            raise no_rule_error(spec.f, "rrule", args, spec.call.positions, "PyTorch")
        y, cell.pullback = result
        cell.xs, cell.y = xs, y
        out, cell.rebuild = spec.outputs(y, tensors[0].device, xs)
        return tuple(out)

    @staticmethod
    def setup_context(ctx: Any, inputs: Any, output: Any) -> None:
        ctx.spec, ctx.cell = inputs[0], inputs[1]
        ctx.save_for_backward(*inputs[2:])
        ctx.save_for_forward(*inputs[2:])
        ctx.mark_non_differentiable(*[t for t in output if not _differentiable(t)])

    @staticmethod
    def backward(ctx: Any, *grads: Any) -> Any:
        spec: _Spec = ctx.spec
        wanted = tuple(bool(d and ctx.needs_input_grad[k + 2]) for k, d in enumerate(spec.diff))
        cts = iter(_PullbackFunction.apply(spec, ctx.cell, wanted, len(grads), *grads, *ctx.saved_tensors))
        return (None, None, *[next(cts) if w else None for w in wanted])

    @staticmethod
    def jvp(ctx: Any, *tangents: Any) -> Any:
        dxs = tangents[2:]
        return _PushforwardFunction.apply(ctx.spec, ctx.cell, len(dxs), *dxs, *ctx.saved_tensors)

    @staticmethod
    def vmap(info: Any, in_dims: Any, *inputs: Any) -> Any:
        return _sequential_vmap(ChainrulesFunction, info, in_dims, list(inputs), fresh_cell=True)


def _needs_autograd(tensors: Sequence[torch.Tensor]) -> bool:
    """Whether PyTorch may differentiate the call: a tensor requires grad, is dual, or is wrapped by torch.func."""
    if torch.is_grad_enabled() and any(t.requires_grad for t in tensors):
        return True
    if any(_forward_ad.unpack_dual(t).tangent is not None for t in tensors):
        return True
    return _wrapped is not None and any(_wrapped(t) for t in tensors)


_wrapped = getattr(getattr(torch._C, "_functorch", None), "is_functorch_wrapped_tensor", None)
"""Whether a tensor is wrapped by a ``torch.func`` transform (its gradient then needs the autograd.Function)."""


def _plain_call(f: Any, call: BoundCall) -> Any:
    """``f`` on the tensors' NumPy views, the results as tensors (nothing to differentiate).

    A call with a callable among its arguments (``apply_along_axis(func1d, ...)``) runs the
    rule instead: its callable may be written with ``torch`` operations, which only the
    rule's ``rrule_via_ad`` (``TorchConfig``) calls on tensors.
    """
    xs = [to_numpy(t) for t in call.values]
    args = call.rebuild(xs)
    result = None
    if any(callable(a) and not isinstance(a, type) for a in args):
        result = find_rrule(TORCH_CONFIG, f, args, call.kwargs)
    y = f(*args, **call.kwargs) if result is None else result[0]
    leaves, rebuild = _flatten(y)
    return rebuild.rebuild(_placed([to_tensor(v) for v in leaves], call.values))


def primitive(f: Callable[..., Any]) -> Callable[..., Any]:
    """Make ``f`` callable on tensors and differentiable by PyTorch, its derivatives from chainrules' rules.

    Use it as a function (``expm = primitive(scipy.linalg.expm)``) or as a decorator. The
    rules are looked up by argument types when the primitive is called with tensors that
    require a gradient: the ``rrule`` for reverse mode, the ``frule`` for forward mode.

    Parameters
    ----------
    f : callable
        Any callable with rules.

    Returns
    -------
    callable
        The primitive, with ``f``'s name, docstring and signature; ``.fun`` is ``f``.

    Raises
    ------
    NoRuleError
        No rule covers the argument types.
    NotImplementedDerivativeError
        (In the backward pass) the rule returned ``not_implemented(...)`` for a derivative
        PyTorch needs.
    HigherOrderDerivativeError
        (When differentiated twice) the rule's derivative is not differentiable.
    KeywordArgumentError
        A tensor sits in a keyword argument that has no position.

    Examples
    --------
    >>> import scipy.linalg, torch
    >>> from chainrules.interop.torch import primitive
    >>> expm = primitive(scipy.linalg.expm)       # PyTorch has no derivative of scipy's expm
    >>> A = torch.tensor([[0.0, 1.0], [-1.0, 0.0]], dtype=torch.float64)
    >>> t = torch.tensor(0.3, dtype=torch.float64, requires_grad=True)
    >>> expm(t * A).sum().backward()
    >>> round(float(t.grad), 5)                    # d/dt of 2 cos(t)
    -0.59104
    """
    raw: Any = getattr(f, "fun", f) if getattr(f, "_chainrules_torch_primitive", False) else f

    @functools.wraps(raw)
    def chainrules_torch_primitive(*args: Any, **kwargs: Any) -> Any:
        call = locate(raw, args, kwargs, _is_tensor)
        if call is None:
            return raw(*args, **kwargs)
        if not _needs_autograd(call.values):
            return _plain_call(raw, call)
        spec = _Spec(raw, call)
        cell = _Cell()
        out = ChainrulesFunction.apply(spec, cell, *call.values)
        return cell.rebuild.rebuild(list(out))

    chainrules_torch_primitive.fun = raw  # type: ignore[attr-defined]
    chainrules_torch_primitive._chainrules_torch_primitive = True  # type: ignore[attr-defined]
    return chainrules_torch_primitive
