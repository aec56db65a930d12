"""``custom_op(f)``: a function with chainrules rules as ``torch.library.custom_op``\\ s, for ``torch.compile``.

``torch.compile`` cannot trace NumPy code: a :func:`~chainrules.interop.torch.primitive`
(a ``torch.autograd.Function`` that calls NumPy) breaks the compiled graph in two. A
*custom op* is opaque to the compiler instead, and stays in the graph, if it has a *fake*
implementation that gives the shapes and dtypes of its outputs from those of its inputs.
:func:`custom_op` registers, for a function ``f`` called with tensors as its positional
arguments and fixed keyword arguments:

* ``chainrules::<name>``: ``f`` itself (used when no gradient is needed);
* ``chainrules::<name>_forward``: the ``rrule``, returning the outputs and an ``int64``
  token under which the pullback waits on the host (:mod:`chainrules.interop._pullbacks`);
* ``chainrules::<name>_backward``: the pullback, registered as the forward op's
  derivative (``torch.library.register_autograd``);

each with a fake implementation that calls ``f`` on stand-in NumPy values of the input
shapes (:func:`chainrules.interop._host.stand_in`) and returns empty tensors of the
output shapes. So the functions that can be registered are those whose output shapes and
dtypes depend on the input shapes and dtypes only, and that accept the stand-ins:
elementwise functions (ufuncs, ``scipy.special``), reductions with fixed ``axis``,
factorizations and matrix functions (``cholesky``, ``qr``, ``eigh``, ``svd``, ``expm``,
``solve_triangular``...). Functions whose output shapes depend on the values
(``numpy.unique``, ``nonzero``, a histogram with data-chosen bins) cannot: their fake
implementation would have to guess. Functions taking callables (``apply_along_axis``)
cannot either (a callable is no op argument).

Pullbacks of forward passes whose backward pass never comes (a compiled training step
that raised, a graph run for its outputs only with inputs requiring gradients) stay in
the store, at most :attr:`~chainrules.interop._pullbacks.PullbackStore.limit` of them; a
missing pullback makes the backward op run the rule again from the inputs.

Examples
--------
>>> import numpy as np, torch
>>> from chainrules.interop.torch.library import custom_op
>>> cholesky = custom_op(np.linalg.cholesky)
>>> A = torch.tensor([[4.0, 1.0], [1.0, 3.0]], dtype=torch.float64, requires_grad=True)
>>> compiled = torch.compile(lambda a: cholesky(a).sum(), fullgraph=True, backend="aot_eager")  # no graph break
>>> compiled(A).backward()
>>> A.grad.shape
torch.Size([2, 2])
>>> torch._dynamo.reset()          # forget the compiled function before this example's names go
"""

from __future__ import annotations

import re
import threading
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import torch

from chainrules.interop._arguments import function_name
from chainrules.interop._host import stand_in, to_host
from chainrules.interop._lookup import find_rrule, no_rule_error
from chainrules.interop._outputs import OutputStructure
from chainrules.interop._pullbacks import PullbackStore
from chainrules.interop.torch.config import TORCH_CONFIG
from chainrules.interop.torch.conversion import to_numpy, to_tensor
from chainrules.interop.torch.primitive import _flatten

__all__ = ["STORE", "custom_op"]

STORE = PullbackStore()
"""The pullbacks of the custom ops' forward passes, waiting for their backward passes."""

_lock = threading.Lock()
_names: set[str] = set()
_NUMPY_DTYPES: dict[torch.dtype, Any] = {
    torch.float64: np.float64, torch.float32: np.float32, torch.float16: np.float16, torch.bfloat16: np.float32,
    torch.complex128: np.complex128, torch.complex64: np.complex64, torch.int64: np.int64, torch.int32: np.int32,
    torch.int16: np.int16, torch.int8: np.int8, torch.uint8: np.uint8, torch.bool: np.bool_,
}
_TORCH_DTYPES = {np.dtype(v): k for k, v in reversed(_NUMPY_DTYPES.items())}


def _np_dtype(dtype: torch.dtype) -> Any:
    return np.dtype(_NUMPY_DTYPES[dtype])


def _torch_dtype(dtype: Any) -> torch.dtype:
    return _TORCH_DTYPES[np.dtype(dtype)]


def _op_name(f: Any, name: str | None) -> str:
    base = name or re.sub(r"\W", "_", function_name(f)).strip("_")
    with _lock:
        candidate, k = base, 1
        while candidate in _names:
            k += 1
            candidate = f"{base}_{k}"
        _names.add(candidate)
    return candidate


def custom_op(f: Callable[..., Any], *, name: str | None = None, **kwargs: Any) -> Callable[..., Any]:
    """Register ``f`` (called as ``f(*tensors, **kwargs)``) as ``torch.library`` custom ops with rules as derivatives.

    Parameters
    ----------
    f : callable
        A function with chainrules rules whose output shapes depend on its input shapes
        only (see the module's documentation).
    name : str, optional
        The op's name in the ``chainrules`` namespace (default: from ``f``'s module and
        name, made unique).
    **kwargs
        Keyword arguments passed to ``f`` at every call (constants of the op:
        ``custom_op(scipy.linalg.solve_triangular, lower=True)``).

    Returns
    -------
    callable
        ``op(*tensors)``: the output (tensors, in ``f``'s output structure). ``.ops`` holds
        the three ``torch.ops.chainrules`` overloads.

    Examples
    --------
    >>> import scipy.linalg, torch
    >>> from chainrules.interop.torch.library import custom_op
    >>> solve_lower = custom_op(scipy.linalg.solve_triangular, lower=True)
    >>> L = torch.tensor([[2.0, 0.0], [1.0, 1.0]], dtype=torch.float64)
    >>> b = torch.tensor([2.0, 3.0], dtype=torch.float64, requires_grad=True)
    >>> solve_lower(L, b).sum().backward()
    >>> b.grad
    tensor([0., 1.], dtype=torch.float64)
    """
    op = _op_name(f, name)
    fname = function_name(f)
    structure: dict[tuple[int, ...], OutputStructure] = {}  # by the inputs' ranks

    def split(y: Any) -> tuple[list[Any], OutputStructure]:
        leaves, found = _flatten(y)
        if found.plain:
            raise TypeError(
                f"{fname} returns a result object ({type(y).__name__}) or parts that are not tensors: a custom op's "
                "outputs must be tensors whose shapes follow from its inputs' shapes, and these parts are only known "
                "once it has run. Use chainrules.interop.torch.primitive (outside torch.compile) for it, which returns "
                "the result object")
        return leaves, found

    def call_f(xs: list[np.ndarray]) -> Any:
        return f(*xs, **kwargs)

    def outputs(y: Any, xs: list[np.ndarray], device: torch.device) -> list[torch.Tensor]:
        leaves, rebuild = split(y)
        structure[tuple(x.ndim for x in xs)] = rebuild
        out = []
        for v in leaves:
            v = np.asarray(v)
            if any(np.may_share_memory(v, x) for x in xs):  # an op's output never aliases its input
                v = v.copy()
            elif not v.flags.c_contiguous:  # the fake outputs are contiguous, and inductor checks the strides
                v = np.ascontiguousarray(v)
            out.append(to_tensor(v).to(device))
        return out

    def fake_outputs(xs: list[torch.Tensor]) -> list[torch.Tensor]:
        stand_ins = [stand_in(tuple(int(d) for d in x.shape), _np_dtype(x.dtype)) for x in xs]  # specializes
        try:
            with np.errstate(all="ignore"), warnings.catch_warnings():
                warnings.simplefilter("ignore")
                y = call_f(stand_ins)
        except Exception as err:
            raise TypeError(f"{fname}: its fake implementation calls it on stand-in values of the input shapes "
                            f"{[tuple(x.shape) for x in xs]}, which failed ({type(err).__name__}: {err}); "
                            "custom_op needs a function whose output shapes follow from its input shapes") from err
        leaves, rebuild = split(y)
        structure[tuple(s.ndim for s in stand_ins)] = rebuild
        device = xs[0].device if xs else torch.device("cpu")
        return [torch.empty(np.shape(v), dtype=_torch_dtype(np.result_type(v)), device=device) for v in leaves]

    @torch.library.custom_op(f"chainrules::{op}", mutates_args=())
    def primal(xs: list[torch.Tensor]) -> list[torch.Tensor]:
        arrays = [to_numpy(x) for x in xs]
        return outputs(call_f(arrays), arrays, xs[0].device)

    @primal.register_fake
    def _primal_fake(xs: list[torch.Tensor]) -> list[torch.Tensor]:
        return fake_outputs(xs)

    def rule(arrays: list[np.ndarray]) -> Any:
        result = find_rrule(TORCH_CONFIG, f, arrays, kwargs)
        if result is None:
            raise no_rule_error(f, "rrule", arrays, range(len(arrays)), "PyTorch custom op")
        return result

    @torch.library.custom_op(f"chainrules::{op}_forward", mutates_args=())
    def forward(xs: list[torch.Tensor]) -> list[torch.Tensor]:
        arrays = [to_numpy(x) for x in xs]
        y, pullback = rule(arrays)
        token = STORE.put(pullback)
        return [*outputs(y, arrays, xs[0].device), torch.tensor(token, dtype=torch.int64)]

    @forward.register_fake
    def _forward_fake(xs: list[torch.Tensor]) -> list[torch.Tensor]:
        return [*fake_outputs(xs), torch.empty((), dtype=torch.int64)]

    @torch.library.custom_op(f"chainrules::{op}_backward", mutates_args=())
    def backward(token: torch.Tensor, xs: list[torch.Tensor], grads: list[torch.Tensor]) -> list[torch.Tensor]:
        arrays = [to_numpy(x) for x in xs]
        entry = STORE.get(int(token))
        STORE.discard(int(token))
        if entry is None:
            STORE.recomputed += 1
            pullback = rule(arrays)[1]
        else:
            pullback = entry.pullback
        rebuild = structure.get(tuple(x.ndim for x in arrays))
        if rebuild is None:
            rebuild = split(rule(arrays)[0])[1]
        cotangents = pullback(rebuild.cotangent([to_numpy(g) for g in grads]))
        out = []
        for k, (ct, x, t) in enumerate(zip(cotangents[1:], arrays, xs)):
            if t.is_floating_point() or t.is_complex():
                dense = np.broadcast_to(to_host(ct, x, False, f, (k, ()), "", "PyTorch"), x.shape)
                out.append(to_tensor(np.array(dense), like=t))
            else:
                out.append(torch.zeros_like(t))
        return out

    @backward.register_fake
    def _backward_fake(token: torch.Tensor, xs: list[torch.Tensor], grads: list[torch.Tensor]) -> list[torch.Tensor]:
        return [torch.empty_like(x) for x in xs]

    def setup_context(ctx: Any, inputs: Any, output: Any) -> None:
        ctx.xs = inputs[0]
        ctx.token = output[-1]
        ctx.outputs = [(o.shape, o.dtype, o.device) for o in output[:-1]]

    def derivative(ctx: Any, grads: list[Any]) -> Any:
        grads = [g if g is not None else torch.zeros(shape, dtype=dtype, device=device)
                 for g, (shape, dtype, device) in zip(grads[:-1], ctx.outputs)]
        return (backward_op(ctx.token, ctx.xs, grads),)

    forward.register_autograd(derivative, setup_context=setup_context)
    primal_op = getattr(torch.ops.chainrules, op).default
    forward_op = getattr(torch.ops.chainrules, f"{op}_forward").default
    backward_op = getattr(torch.ops.chainrules, f"{op}_backward").default

    def chainrules_custom_op(*tensors: torch.Tensor) -> Any:
        xs = list(tensors)
        if torch.is_grad_enabled() and any(x.requires_grad for x in xs):
            out = forward_op(xs)[:-1]
        else:
            out = primal_op(xs)
        rebuild = structure.get(tuple(x.dim() for x in xs))
        if rebuild is None or len(out) == 1:
            return out[0] if len(out) == 1 else tuple(out)
        return rebuild.rebuild(list(out))

    chainrules_custom_op.__name__ = getattr(f, "__name__", op)
    chainrules_custom_op.__doc__ = getattr(f, "__doc__", None)
    chainrules_custom_op.fun = f  # type: ignore[attr-defined]
    chainrules_custom_op.ops = (primal, forward, backward)  # type: ignore[attr-defined]
    return chainrules_custom_op

