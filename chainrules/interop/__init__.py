"""Bridges through which automatic-differentiation frameworks pull chainrules' rules.

Each bridge is a subpackage that imports its framework only when it is itself imported, so
``import chainrules.interop`` costs nothing and needs no framework installed:

* :mod:`chainrules.interop.autograd`: every rule usable from ``autograd.grad``,
  ``autograd.make_vjp`` and ``autograd.make_jvp`` (install the ``autograd`` extra);
* :mod:`chainrules.interop.jax`: every rule usable from ``jax.grad``, ``jax.vjp``,
  ``jax.jvp``, under ``jax.jit`` and ``jax.vmap``, and ``scipy``/``numpy`` namespaces of
  every function with a rule (install the ``jax`` extra);
* :mod:`chainrules.interop.torch`: every rule usable from ``torch.autograd``,
  ``torch.func`` and (as custom ops) ``torch.compile``, with the same namespaces (install
  the ``torch`` extra; the CPU build is enough).

Shared by every bridge, and importing no framework:

* :mod:`chainrules.interop.errors`: the errors a bridge raises (no rule, a derivative not
  implemented, a derivative of a derivative, a traced keyword argument with no position);
* ``chainrules.interop._arguments``: the binding of a call's arguments, traced values
  found inside tuples, lists and dicts and keyword arguments bound to their positions;
* ``chainrules.interop._lookup`` (a rule looked up with the framework's config where it
  needs one), ``_host`` (tangents to and from dense NumPy arrays, stand-in inputs),
  ``_pullbacks`` (pullbacks kept by token between passes), ``_namespaces`` (the
  ``scipy``/``numpy`` namespaces generated from the rule index).

Examples
--------
>>> import chainrules.interop
>>> chainrules.interop.BRIDGES
('autograd', 'jax', 'torch')
"""

BRIDGES = ("autograd", "jax", "torch")
"""The frameworks with a bridge, each in ``chainrules.interop.<name>``."""

__all__ = ["BRIDGES"]
