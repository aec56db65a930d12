"""Non-differentiable elementwise functions: comparisons, logic, bits, predicates, integer division.

Their outputs are booleans or integers, which have no tangent space, so every argument's
cotangent is ``NoTangent()`` and the pushforward is ``NoTangent()``
(:func:`chainrules_core.non_differentiable`). An AD framework that reaches one of them
stops differentiating there instead of failing to find a rule.

* comparisons: ``equal``, ``not_equal``, ``less``, ``less_equal``, ``greater``,
  ``greater_equal``, ``isclose``, ``allclose``, ``array_equal``, ``array_equiv``;
* logic: ``logical_and``, ``logical_or``, ``logical_xor``, ``logical_not``;
* bits: ``bitwise_and``, ``bitwise_or``, ``bitwise_xor``, ``invert`` (also
  ``bitwise_not``/``bitwise_invert``), ``left_shift``, ``right_shift`` (and their
  ``bitwise_*`` names), ``bitwise_count``;
* predicates: ``isnan``, ``isinf``, ``isfinite``, ``isnat``, ``signbit``, ``isposinf``,
  ``isneginf``, ``isreal``, ``iscomplex``, ``isrealobj``, ``iscomplexobj``;
* integer-valued: ``floor_divide`` (its float result is piecewise constant but it is
  declared non-differentiable, as ChainRules.jl declares ``div``/``fld``), ``gcd``, ``lcm``.

Examples
--------
>>> import numpy as np
>>> import chainrules
>>> from chainrules import rrule
>>> y, pullback = rrule(np.less, np.array([1.0, 3.0]), 2.0)
>>> y, pullback(None)
(array([ True, False]), (NoTangent(), NoTangent(), NoTangent()))
"""

from __future__ import annotations

import numpy as np

from chainrules_core import non_differentiable

NON_DIFFERENTIABLE = (
    # comparisons
    np.equal, np.not_equal, np.less, np.less_equal, np.greater, np.greater_equal,
    np.isclose, np.allclose, np.array_equal, np.array_equiv,
    # logic
    np.logical_and, np.logical_or, np.logical_xor, np.logical_not,
    # bits (np.bitwise_not and np.bitwise_invert are np.invert; np.bitwise_left_shift is np.left_shift...)
    np.bitwise_and, np.bitwise_or, np.bitwise_xor, np.invert, np.left_shift, np.right_shift, np.bitwise_count,
    # predicates
    np.isnan, np.isinf, np.isfinite, np.isnat, np.signbit, np.isposinf, np.isneginf,
    np.isreal, np.iscomplex, np.isrealobj, np.iscomplexobj,
    # integer-valued
    np.floor_divide, np.gcd, np.lcm,
)
"""The NumPy functions this module declares non-differentiable."""

for _f in NON_DIFFERENTIABLE:
    non_differentiable(_f)
