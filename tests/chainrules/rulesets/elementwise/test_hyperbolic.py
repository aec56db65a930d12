"""Rules of chainrules/rulesets/elementwise/hyperbolic.py, checked against finite differences."""

from __future__ import annotations

import numpy as np

import chainrules  # noqa: F401  (registers the rules)

# (function, real range, complex range): the complex ranges cross the branch cuts' sides
# (negative real parts for arccosh, where 1/sqrt(z**2 - 1) would have the wrong sign).
UNARY = [
    (np.sinh, (-2.0, 2.0), (-1.5, 1.5)),
    (np.cosh, (-2.0, 2.0), (-1.5, 1.5)),
    (np.tanh, (-2.0, 2.0), (-0.7, 0.7)),
    (np.arcsinh, (-3.0, 3.0), (-1.5, 1.5)),
    (np.arccosh, (1.2, 3.0), (-2.0, 2.0)),
    (np.arctanh, (-0.9, 0.9), (-1.5, 1.5)),
]


def test_unary(unary_case, check_unary):
    f, real_range, complex_range, dtype = unary_case
    check_unary(f, *real_range, dtype, complex_range=complex_range)


def test_short_names_are_the_same_objects():
    assert np.asinh is np.arcsinh and np.acosh is np.arccosh and np.atanh is np.arctanh
