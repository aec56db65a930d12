"""Bridges through which automatic-differentiation frameworks pull chainrules' rules.

Each bridge is a subpackage that imports its framework only when it is itself imported, so
``import chainrules.interop`` costs nothing and needs no framework installed:

* :mod:`chainrules.interop.autograd`: every rule usable from ``autograd.grad``,
  ``autograd.make_vjp`` and ``autograd.make_jvp`` (install the ``autograd`` extra).

Shared by every bridge, and importing no framework:

* :mod:`chainrules.interop.errors`: the errors a bridge raises (no rule, a derivative not
  implemented, a derivative of a derivative, a traced keyword argument with no position);
* ``chainrules.interop._arguments``: the binding of a call's arguments, traced values
  found inside tuples, lists and dicts and keyword arguments bound to their positions.

Examples
--------
>>> import sys
>>> import chainrules.interop
>>> chainrules.interop.BRIDGES
('autograd',)
"""

BRIDGES = ("autograd",)
"""The frameworks with a bridge, each in ``chainrules.interop.<name>``."""

__all__ = ["BRIDGES"]
