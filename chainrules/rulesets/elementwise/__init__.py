"""Elementwise rules: NumPy ufuncs, ``math``, ``operator`` and complex parts."""

from chainrules.rulesets.elementwise import arithmetic, trigonometric  # noqa: F401
