"""Tensors to NumPy arrays and back, for the rules: without copies where possible.

* A CPU tensor becomes a NumPy view of its memory (``tensor.detach().numpy()``): no copy.
  A tensor with PyTorch's lazy conjugate or negative bit is resolved first (one copy),
  as is a ``bfloat16`` tensor (NumPy has no ``bfloat16``: its rule runs in ``float32``, and
  the float32 results and cotangents are returned in ``bfloat16``).
* A tensor on another device (``cuda``, ``mps``...) is copied to the CPU for the rule, and
  the results are copied back to its device; the first time, a ``UserWarning`` says so
  (the rules are NumPy code).
* A NumPy result becomes a tensor sharing its memory (``torch.from_numpy``) when NumPy's
  layout allows it (writeable, native byte order, non-negative strides), else a copy; it
  gets the dtype and device of the input it belongs to (float32 stays float32).

PyTorch's cotangents of complex tensors follow the same convention as chainrules' (the
conjugate Wirtinger derivative, ``dL/dRe(z) + 1j dL/dIm(z)``): nothing is conjugated.

Examples
--------
>>> import numpy as np, torch
>>> from chainrules.interop.torch.conversion import to_numpy, to_tensor
>>> t = torch.ones(3, dtype=torch.float32)
>>> a = to_numpy(t)
>>> a.dtype, np.shares_memory(a, t.numpy())
(dtype('float32'), True)
>>> to_tensor(np.arange(3.0), like=t)
tensor([0., 1., 2.])
"""

from __future__ import annotations

import threading
import warnings
from typing import Any

import numpy as np
import torch

__all__ = ["DeviceWarning", "to_numpy", "to_tensor"]


class DeviceWarning(UserWarning):
    """A tensor on another device than the CPU was copied there for a chainrules rule (said once)."""


_warned = False
_warn_lock = threading.Lock()


def _warn_device(device: torch.device) -> None:
    global _warned
    with _warn_lock:
        if _warned:
            return
        _warned = True
    warnings.warn(f"chainrules.interop.torch: a tensor on {device} was copied to the CPU, where chainrules' rules "
                  "run (NumPy code), and the results copied back; this warning is shown once", DeviceWarning,
                  stacklevel=4)


def to_numpy(t: Any) -> Any:
    """A tensor's values as a NumPy array (a view of CPU memory where possible); other values unchanged."""
    if not isinstance(t, torch.Tensor):
        return t
    t = t.detach()
    if t.device.type != "cpu":
        _warn_device(t.device)
        t = t.cpu()
    if t.is_conj():
        t = t.resolve_conj()
    if t.is_neg():
        t = t.resolve_neg()
    if t.dtype is torch.bfloat16:
        t = t.float()
    return t.numpy()


def to_tensor(a: Any, like: torch.Tensor | None = None, dtype: torch.dtype | None = None) -> torch.Tensor:
    """A NumPy result as a tensor (sharing memory where NumPy's layout allows), with the dtype and device of ``like``.

    ``dtype`` (or ``like``'s dtype) is applied only to floating results of a floating
    ``like`` (a float32 input's cotangent); integer and boolean results keep their dtype.
    """
    a = np.asarray(a)
    if a.dtype.byteorder not in "=|" or not a.flags.writeable or any(s < 0 for s in a.strides):
        a = np.array(a, order="C")
    try:
        t = torch.from_numpy(a)
    except TypeError:  # a dtype PyTorch has no tensor of (object, a string)
        raise TypeError(f"chainrules.interop.torch: a rule returned a NumPy array of dtype {a.dtype}, which has no "
                        "PyTorch dtype") from None
    if like is not None:
        target = dtype or like.dtype
        if (target.is_floating_point or target.is_complex) and (t.is_floating_point() or t.is_complex()):
            if t.is_complex() and not target.is_complex:
                t = t.real
            if t.dtype != target:
                t = t.to(target)
        if like.device.type != "cpu":
            t = t.to(like.device)
    elif dtype is not None and t.dtype != dtype:
        t = t.to(dtype)
    return t
