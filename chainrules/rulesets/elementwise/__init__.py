"""Elementwise rules: NumPy ufuncs and elementwise functions, ``math``, ``operator`` and builtins.

One module per family; the conventions they share (broadcasting, integer arguments, zero
derivatives, ties, complex numbers, keywords) are in ``docs/rules/elementwise.md`` and the
machinery in :mod:`chainrules.rulesets.elementwise._common`.
"""

from chainrules.rulesets.elementwise import (  # noqa: F401
    arithmetic,
    complex_parts,
    exponential,
    floating_point,
    hyperbolic,
    minmax,
    non_differentiable,
    powers,
    python_builtins,
    python_math,
    python_operator,
    rounding,
    selection,
    signs,
    special_numpy,
    trigonometric,
)
