"""Forward mode: the ``scipy`` and ``numpy`` namespaces of :mod:`chainrules.interop.jax` as ``custom_jvp`` primitives.

JAX lets a function have a custom VJP or a custom JVP, not both; the namespaces of
:mod:`chainrules.interop.jax` are reverse mode (``jax.grad``). These are forward mode
(``jax.jvp``, ``jax.jacfwd``, ``jax.linearize``), their tangents from the ``frule``\\ s:
``primitive(f, mode="forward")`` for each function.

Examples
--------
>>> import jax, jax.numpy as jnp
>>> from chainrules.interop.jax.forward import scipy as jsp_fwd
>>> y, dy = jax.jvp(jsp_fwd.special.jv, (1.5, 2.0), (0.0, 1.0))   # d/dx J_1.5(x) at 2
>>> round(float(dy), 6)
0.144546
"""

from __future__ import annotations

import functools

from chainrules.interop._namespaces import rule_namespace as _rule_namespace
from chainrules.interop.jax.primitive import primitive as _primitive

__all__ = ["numpy", "scipy"]

_forward = functools.partial(_primitive, mode="forward")
scipy = _rule_namespace("scipy", _forward, __name__, "JAX (forward mode)")
"""Every public ``scipy`` function with a rule, as a forward-mode JAX primitive."""
numpy = _rule_namespace("numpy", _forward, __name__, "JAX (forward mode)")
"""Every public ``numpy`` function with a rule, as a forward-mode JAX primitive."""
