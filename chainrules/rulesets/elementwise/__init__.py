"""Elementwise rules: NumPy ufuncs and elementwise functions, ``math``, ``operator`` and builtins.

One module per family; the conventions they share (broadcasting, integer arguments, zero
derivatives, ties, complex numbers, keywords) are in ``docs/rules/elementwise.md`` and the
machinery in :mod:`chainrules.rulesets.elementwise._common`.
"""
