"""Elementwise rules: NumPy ufuncs and elementwise functions, ``math``, ``operator`` and builtins.

One module per family; the conventions they share (broadcasting, integer arguments, zero
derivatives, ties, complex numbers, keywords) are in ``docs/rules/elementwise.md``. Most
rules are :func:`chainrules_core.scalar_rule` s (the way a user writes an elementwise rule);
:mod:`~chainrules.rulesets.elementwise._unary` writes the non-holomorphic functions of one
argument, :mod:`~chainrules.rulesets.elementwise._sequences` the functions of sequences.
"""
