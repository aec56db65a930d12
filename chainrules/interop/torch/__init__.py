"""The PyTorch bridge: chainrules' rules as PyTorch derivatives (install the ``torch`` extra).

* :func:`primitive` makes any function with a chainrules rule callable on tensors and
  differentiable by PyTorch, through a ``torch.autograd.Function``: ``backward`` from the
  ``rrule`` (``.backward()``, ``torch.autograd.grad``, ``gradcheck``, ``torch.func.grad``
  and ``vjp``), a ``jvp`` staticmethod from the ``frule`` (``torch.func.jvp``,
  ``torch.autograd.forward_ad``). The rule runs on the tensors' NumPy views (CPU tensors
  are not copied).
* :data:`scipy` and :data:`numpy`: every public SciPy/NumPy function that has a rule, as
  a primitive, wrapped when first used (``from chainrules.interop.torch import scipy as
  tsp; tsp.special.jv(v, x)``).
* :class:`TorchConfig` is the rule configuration of PyTorch: higher-order rules call back
  into PyTorch with ``rrule_via_ad``/``frule_via_ad`` (``torch.func``), so their callables
  may be written with ``torch`` operations.
* :func:`~chainrules.interop.torch.library.custom_op`: a primitive registered as a
  ``torch.library.custom_op`` with a fake implementation, so that ``torch.compile``
  compiles around it without a graph break.

Importing ``chainrules`` never imports PyTorch; importing this package does. The guide is
``docs/torch.md``.

Examples
--------
>>> import torch
>>> from chainrules.interop.torch import scipy as tsp
>>> x = torch.tensor(2.0, dtype=torch.float64, requires_grad=True)
>>> tsp.special.jv(1.5, x).backward()                  # PyTorch has no jv
>>> round(float(x.grad), 6)
0.144546
"""

from __future__ import annotations

try:
    import torch as _torch  # noqa: F401
except ImportError as err:  # pragma: no cover  (the extra is part of the test environment)
    raise ImportError("chainrules.interop.torch needs PyTorch: pip install 'chainrules[torch]' (the CPU build is "
                      "enough: the rules run on the CPU)") from err

from chainrules.interop._namespaces import rule_namespace as _rule_namespace
from chainrules.interop.errors import (
    HigherOrderDerivativeError,
    KeywordArgumentError,
    NoRuleError,
    NotImplementedDerivativeError,
)
from chainrules.interop.torch.config import TORCH_CONFIG, TorchConfig, is_differentiable
from chainrules.interop.torch.conversion import DeviceWarning, to_numpy, to_tensor
from chainrules.interop.torch.primitive import primitive

scipy = _rule_namespace("scipy", primitive, __name__, "PyTorch")
"""Every public ``scipy`` function with a rule, as a PyTorch primitive (``scipy.special.jv``)."""
numpy = _rule_namespace("numpy", primitive, __name__, "PyTorch")
"""Every public ``numpy`` function with a rule, as a PyTorch primitive (``numpy.linalg.eigvalsh``)."""

__all__ = [
    "TORCH_CONFIG",
    "DeviceWarning",
    "HigherOrderDerivativeError",
    "KeywordArgumentError",
    "NoRuleError",
    "NotImplementedDerivativeError",
    "TorchConfig",
    "is_differentiable",
    "numpy",
    "primitive",
    "scipy",
    "to_numpy",
    "to_tensor",
]
