"""The JAX bridge: chainrules' rules as JAX derivatives (install the ``jax`` extra).

* :func:`primitive` makes any function with a chainrules rule callable on JAX arrays and
  differentiable by JAX: ``jax.custom_vjp`` from the ``rrule`` (``grad``, ``vjp``,
  ``value_and_grad``, ``jacrev``), or, with ``mode="forward"``, ``jax.custom_jvp`` from the
  ``frule`` (``jvp``, ``jacfwd``); both under ``jit`` and ``vmap``. The rule runs on the
  host, on NumPy arrays (directly in eager mode, through ``jax.pure_callback`` under
  ``jit``/``vmap``).
* :data:`scipy` and :data:`numpy`: every public SciPy/NumPy function that has a rule, as
  a reverse-mode primitive, wrapped when first used (``from chainrules.interop.jax import
  scipy as jsp; jsp.special.jv(v, x)``); :mod:`chainrules.interop.jax.forward` has the
  same namespaces in forward mode.
* :class:`JaxConfig` is the rule configuration of JAX: higher-order rules
  (``numpy.apply_along_axis`` and the integrators and optimisers) call back into JAX with
  ``rrule_via_ad``/``frule_via_ad``, so their callables may be written in ``jax.numpy``.
* :mod:`~chainrules.interop.jax.pullbacks`: where pullbacks wait between the forward and
  the backward pass, and why none leaks.

Importing ``chainrules`` never imports JAX; importing this package does. The guide is
``docs/jax.md``.

Examples
--------
>>> import jax, jax.numpy as jnp
>>> from chainrules.interop.jax import scipy as jsp
>>> round(float(jax.grad(jsp.special.jv, argnums=1)(1.5, 2.0)), 6)   # JAX has no jv
0.144546
"""

from __future__ import annotations

try:
    import jax as _jax  # noqa: F401
except ImportError as err:  # pragma: no cover  (the extra is part of the test environment)
    raise ImportError("chainrules.interop.jax needs JAX: pip install 'chainrules[jax]'") from err

from chainrules.interop._namespaces import rule_namespace as _rule_namespace
from chainrules.interop.errors import (
    HigherOrderDerivativeError,
    KeywordArgumentError,
    NoRuleError,
    NotImplementedDerivativeError,
)
from chainrules.interop.jax.config import JAX_CONFIG, JaxConfig, is_differentiable
from chainrules.interop.jax.primitive import primitive
from chainrules.interop.jax.pullbacks import pending_pullbacks, set_pullback_limit

scipy = _rule_namespace("scipy", primitive, __name__, "JAX")
"""Every public ``scipy`` function with a rule, as a reverse-mode JAX primitive (``scipy.special.jv``)."""
numpy = _rule_namespace("numpy", primitive, __name__, "JAX")
"""Every public ``numpy`` function with a rule, as a reverse-mode JAX primitive (``numpy.linalg.eigvalsh``)."""

__all__ = [
    "JAX_CONFIG",
    "HigherOrderDerivativeError",
    "JaxConfig",
    "KeywordArgumentError",
    "NoRuleError",
    "NotImplementedDerivativeError",
    "is_differentiable",
    "numpy",
    "pending_pullbacks",
    "primitive",
    "scipy",
    "set_pullback_limit",
]
